//! Building `toolsift.model` results (`ToolCall`, `ParseResult`) without running their
//! `__init__`.
//!
//! They are slots dataclasses, and their generated `__init__` is Python code: calling it was
//! ~40% of the glue's own time on a one-call reply (a frame, then one attribute store per
//! field, three of them through the properties that read deferred text, see `pydeferred`).
//! Here the instance is allocated by its type and each field stored through the member
//! descriptor `toolsift.model._NATIVE_SLOTS` lists for it, which is the very store the
//! generated `__init__` ends in. Unsafe only to reach the two C slots Python has no safe entry
//! for (`tp_alloc`, a descriptor's `tp_descr_set`); each use is checked below.
#![allow(unsafe_code)]

use pyo3::exceptions::PyTypeError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyList, PyType};

/// A slots class and the member descriptors of its `N` fields, in `__init__`'s order.
pub(crate) struct SlotClass<const N: usize> {
    class: Py<PyType>,
    slots: Vec<Py<PyAny>>,
}

impl<const N: usize> SlotClass<N> {
    /// The class `name` of `toolsift.model._NATIVE_SLOTS`, checked: `N` descriptors, each a
    /// member descriptor of that very class (so storing through it into an instance of the
    /// class is what `setattr` would do, had no property been put over it).
    fn load(py: Python<'_>, name: &str) -> PyResult<Self> {
        let entry = py
            .import("toolsift.model")?
            .getattr("_NATIVE_SLOTS")?
            .get_item(name)?;
        let (class, slots): (Bound<'_, PyType>, Vec<Bound<'_, PyAny>>) = entry.extract()?;
        let member = py.import("types")?.getattr("MemberDescriptorType")?;
        let checked = slots.len() == N
            && slots.iter().all(|slot| {
                slot.get_type().is(&member)
                    && slot
                        .getattr("__objclass__")
                        .is_ok_and(|owner| owner.is(&class))
            });
        if !checked {
            return Err(PyTypeError::new_err(format!(
                "toolsift.model._NATIVE_SLOTS[{name:?}] is not {N} member descriptors of the class"
            )));
        }
        Ok(Self {
            class: class.unbind(),
            slots: slots.into_iter().map(Bound::unbind).collect(),
        })
    }

    /// A new instance with `values` in its fields.
    pub(crate) fn make<'py>(
        &self,
        py: Python<'py>,
        values: [Bound<'py, PyAny>; N],
    ) -> PyResult<Bound<'py, PyAny>> {
        let class = self.class.bind(py);
        let tp = class.as_type_ptr();
        // SAFETY: `tp` is a ready type object, alive while `class` is; `tp_alloc` is what
        // `object.__new__` calls, and returns a new reference (null with an exception set).
        let object = unsafe {
            let alloc = (*tp).tp_alloc.unwrap_or(ffi::PyType_GenericAlloc);
            Bound::from_owned_ptr_or_err(py, alloc(tp, 0))?
        };
        for (slot, value) in self.slots.iter().zip(values) {
            let descriptor = slot.as_ptr();
            // SAFETY: `descriptor` is a member descriptor of `class` (checked in `load`) and
            // `object` an instance of it: its `tp_descr_set` checks that again, stores a new
            // reference to `value` in the slot, and returns -1 with an exception set on error.
            let stored = unsafe {
                match (*ffi::Py_TYPE(descriptor)).tp_descr_set {
                    Some(set) => set(descriptor, object.as_ptr(), value.as_ptr()),
                    None => -1,
                }
            };
            if stored != 0 {
                return Err(PyErr::take(py)
                    .unwrap_or_else(|| PyTypeError::new_err("a result field was not stored")));
            }
        }
        Ok(object)
    }
}

/// `ToolCall(name, arguments, id, syntax, span, raw, repairs, arguments_json)`.
pub(crate) fn tool_call_class(py: Python<'_>) -> PyResult<&'static SlotClass<8>> {
    static CLASS: PyOnceLock<SlotClass<8>> = PyOnceLock::new();
    CLASS.get_or_try_init(py, || SlotClass::load(py, "ToolCall"))
}

/// `ParseResult(calls, content, issues, [])`.
pub(crate) fn parse_result<'py>(
    py: Python<'py>,
    calls: Bound<'py, PyAny>,
    content: Bound<'py, PyAny>,
    issues: Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    static CLASS: PyOnceLock<SlotClass<4>> = PyOnceLock::new();
    let class = CLASS.get_or_try_init(py, || SlotClass::load(py, "ParseResult"))?;
    class.make(py, [calls, content, issues, PyList::empty(py).into_any()])
}
