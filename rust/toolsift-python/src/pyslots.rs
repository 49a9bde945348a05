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

use crate::pylazy::unbuilt_list;
use crate::pyoneshot::ContentValue;
use crate::pyunbuilt::{self, unbuilt_type, Pending};

/// A slots class and the member descriptors of its `N` fields, in `__init__`'s order.
pub(crate) struct SlotClass<const N: usize> {
    class: Py<PyType>,
    slots: Vec<Py<PyAny>>,
    /// Where each field lives in an instance, when every descriptor is a plain writable
    /// object slot (what a slots dataclass makes): a fresh instance's fields are then written
    /// in place. Each store through a descriptor cost ~40 instructions of checks, ~500 for
    /// a call's fields and its result's.
    offsets: Option<[usize; N]>,
    /// The class is a subclass of `_native.Unbuilt`: an instance has room for pending values.
    unbuilt: bool,
}

/// The byte offset of the object slot `descriptor` (a member descriptor) stores into, if it
/// is a writable object slot.
fn slot_offset(descriptor: &Bound<'_, PyAny>) -> Option<usize> {
    // SAFETY: `load` checked that `descriptor` is a member descriptor, whose C layout is a
    // `PyMemberDescrObject` pointing at its `PyMemberDef` (pyo3 types that pointer otherwise
    // before Python 3.11, hence the cast), alive as long as its class.
    let member = unsafe {
        let object = descriptor.as_ptr().cast::<ffi::PyMemberDescrObject>();
        (*object).d_member.cast::<ffi::PyMemberDef>().as_ref()?
    };
    let plain = member.type_code == ffi::Py_T_OBJECT_EX && member.flags & ffi::Py_READONLY == 0;
    plain.then(|| usize::try_from(member.offset).ok()).flatten()
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
        let offsets: Option<Vec<usize>> = slots.iter().map(slot_offset).collect();
        let basic = usize::try_from(
            // SAFETY: `class` is a live type object.
            unsafe { (*class.as_type_ptr()).tp_basicsize },
        )
        .unwrap_or(0);
        let offsets = offsets
            .filter(|o| o.iter().all(|&at| at + size_of::<usize>() <= basic))
            .and_then(|o| o.try_into().ok());
        let unbuilt = class.is_subclass(unbuilt_type(py)?)?;
        Ok(Self {
            class: class.unbind(),
            slots: slots.into_iter().map(Bound::unbind).collect(),
            offsets,
            unbuilt,
        })
    }

    /// A new instance with `values` in its fields.
    pub(crate) fn make<'py>(
        &self,
        py: Python<'py>,
        values: [Bound<'py, PyAny>; N],
    ) -> PyResult<Bound<'py, PyAny>> {
        self.make_with(py, values.map(Some))
    }

    /// A new instance with `values` in its fields (`None`: left empty) and `pending` the
    /// values of its empty fields (see `pyunbuilt`). The class must be a subclass of
    /// `Unbuilt` (checked in `load`).
    pub(crate) fn make_pending<'py>(
        &self,
        py: Python<'py>,
        values: [Option<Bound<'py, PyAny>>; N],
        pending: Pending,
    ) -> PyResult<Bound<'py, PyAny>> {
        if !self.unbuilt {
            return Err(PyTypeError::new_err(
                "a result class without the Unbuilt base was given pending values",
            ));
        }
        let object = self.make_with(py, values)?;
        // SAFETY: `object` is a new instance of `class`, a subclass of `Unbuilt` (`unbuilt`,
        // checked in `load`), seen by no one else yet.
        unsafe { pyunbuilt::give(&object, pending) };
        Ok(object)
    }

    fn make_with<'py>(
        &self,
        py: Python<'py>,
        values: [Option<Bound<'py, PyAny>>; N],
    ) -> PyResult<Bound<'py, PyAny>> {
        let class = self.class.bind(py);
        let tp = class.as_type_ptr();
        // SAFETY: `tp` is a ready type object, alive while `class` is; `tp_alloc` is what
        // `object.__new__` calls, and returns a new reference (null with an exception set).
        let object = unsafe {
            let alloc = (*tp).tp_alloc.unwrap_or(ffi::PyType_GenericAlloc);
            Bound::from_owned_ptr_or_err(py, alloc(tp, 0))?
        };
        if let Some(offsets) = &self.offsets {
            for (at, value) in offsets.iter().zip(values) {
                let Some(value) = value else { continue };
                // SAFETY: `object` is a new instance of `class` (allocated zeroed by
                // `tp_alloc`, seen by no one else), and `at` the offset of one of its object
                // slots inside its basic size (checked in `load`), so empty: it takes the new
                // reference `into_ptr` hands over, as the descriptor's store would.
                unsafe {
                    let field = object.as_ptr().cast::<u8>().add(*at);
                    field
                        .cast::<*mut ffi::PyObject>()
                        .write_unaligned(value.into_ptr());
                }
            }
            return Ok(object);
        }
        for (slot, value) in self.slots.iter().zip(values) {
            let Some(value) = value else { continue };
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

/// `ParseResult(calls, content, issues, [])`, `issues` when empty (or `None`) and the
/// `strategies` left as the marker `pylazy::LazyField` builds an empty list for when read.
pub(crate) fn parse_result<'py>(
    py: Python<'py>,
    calls: Bound<'py, PyAny>,
    content: ContentValue<'py>,
    issues: Option<Bound<'py, PyList>>,
) -> PyResult<Bound<'py, PyAny>> {
    static CLASS: PyOnceLock<SlotClass<4>> = PyOnceLock::new();
    let class = CLASS.get_or_try_init(py, || SlotClass::load(py, "ParseResult"))?;
    let unbuilt = unbuilt_list(py)?;
    let issues = match issues {
        Some(issues) if !issues.is_empty() => issues.into_any(),
        _ => unbuilt.clone(),
    };
    match content {
        // Deferred text waits in the result itself (see `pyunbuilt`), its field left empty.
        ContentValue::Deferred(text) if class.unbuilt => class.make_pending(
            py,
            [Some(calls), None, Some(issues), Some(unbuilt)],
            Pending::Result {
                content: text.into_source(),
            },
        ),
        content => class.make(py, [calls, content.object(py)?, issues, unbuilt]),
    }
}
