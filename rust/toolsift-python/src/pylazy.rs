//! The descriptor over the result fields a native parse leaves unbuilt: `ToolCall.span`,
//! `raw` and `arguments_json` (left empty, their values pending in the call itself, see
//! `pyunbuilt`), `ParseResult.content` (a [`DeferredText`]), and
//! `ParseResult.issues` and `strategies` (the shared [`unbuilt_list`] marker when empty). The
//! first read builds the value and stores it in the slot, so every reader, `==`, `repr`,
//! pickling and `dataclasses.replace` only ever see built values; a write or a delete
//! forgets the pending value.
//!
//! Why native and not a `property`: a Python property ran a Python function on every read
//! of `span`, `raw` or `content`, which the CLI and `parse_arrow` read for every call;
//! this reads the slot and checks one type with no frame.
//!
//! Unsafe to reach the member descriptor's C get and set slots (`tp_descr_get`,
//! `tp_descr_set`), as `pyslots` does; each use is checked below.
#![allow(unsafe_code)]

use pyo3::exceptions::{PyAttributeError, PyTypeError, PyValueError};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyList;

use crate::pydeferred::DeferredText;
use crate::pyunbuilt::{self, Slot};

/// Which field a [`LazyField`] stands for, so which unbuilt value it builds.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Field {
    Span,
    Raw,
    ArgumentsJson,
    Content,
    /// `issues` or `strategies`: a list.
    List,
}

/// The object an empty `issues` or `strategies` list is stored as until read: two empty
/// lists a result, ~a tenth of a one-call result's objects, that most callers never read.
pub(crate) fn unbuilt_list(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    static MARKER: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let marker = MARKER.get_or_try_init(py, || {
        Ok::<_, PyErr>(py.import("builtins")?.getattr("object")?.call0()?.unbind())
    })?;
    Ok(marker.bind(py).clone())
}

/// A data descriptor over one slot of a `toolsift.model` class (its member descriptor).
#[pyclass(frozen, module = "toolsift._native")]
pub struct LazyField {
    slot: Py<PyAny>,
    field: Field,
}

impl LazyField {
    /// The pending value this field's slot may wait for (see `pyunbuilt`).
    fn pending_slot(&self) -> Option<Slot> {
        match self.field {
            Field::Span => Some(Slot::Span),
            Field::Raw => Some(Slot::Raw),
            Field::ArgumentsJson => Some(Slot::ArgumentsJson),
            Field::Content => Some(Slot::Content),
            Field::List => None,
        }
    }

    /// The slot's value in `instance` (`AttributeError` when unset, `TypeError` when
    /// `instance` is not of the slot's class, as the member descriptor says).
    fn read<'py>(&self, instance: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let py = instance.py();
        let slot = self.slot.bind(py).as_ptr();
        // SAFETY: `slot` is a member descriptor (checked in `new`), whose `tp_descr_get`
        // checks `instance`'s type and returns a new reference, or null with an exception.
        unsafe {
            let get = (*ffi::Py_TYPE(slot)).tp_descr_get;
            let value = get.map_or(std::ptr::null_mut(), |get| {
                get(slot, instance.as_ptr(), std::ptr::null_mut())
            });
            Bound::from_owned_ptr_or_err(py, value)
        }
    }

    /// Stores `value` in the slot (`None`: deletes it).
    fn write(&self, instance: &Bound<'_, PyAny>, value: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        let py = instance.py();
        let slot = self.slot.bind(py).as_ptr();
        let value = value.map_or(std::ptr::null_mut(), Bound::as_ptr);
        // SAFETY: as in `read`; `tp_descr_set` checks `instance`'s type, takes its own
        // reference to `value` (null deletes), and returns -1 with an exception on error.
        let stored = unsafe {
            match (*ffi::Py_TYPE(slot)).tp_descr_set {
                Some(set) => set(slot, instance.as_ptr(), value),
                None => -1,
            }
        };
        if stored != 0 {
            return Err(PyErr::take(py)
                .unwrap_or_else(|| PyTypeError::new_err("a result field was not stored")));
        }
        Ok(())
    }

    /// The built value for `value` when it is one this field builds, else `None`. Only the
    /// parser's own objects are built: whatever a caller stored comes back as it was.
    fn build<'py>(&self, value: &Bound<'py, PyAny>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let py = value.py();
        if let Ok(text) = value.cast::<DeferredText>() {
            return Ok(match self.field {
                Field::Raw | Field::ArgumentsJson | Field::Content => {
                    Some(text.get().text(py)?.into_any())
                }
                Field::Span | Field::List => None,
            });
        }
        if self.field == Field::List && value.is(&unbuilt_list(py)?) {
            return Ok(Some(PyList::empty(py).into_any()));
        }
        Ok(None)
    }
}

#[pymethods]
impl LazyField {
    /// Over `slot`, the member descriptor of the field named `field` (`span`, `raw`,
    /// `arguments_json`, `content`, `issues` or `strategies`).
    #[new]
    fn new(slot: &Bound<'_, PyAny>, field: &str) -> PyResult<Self> {
        let py = slot.py();
        let member = py.import("types")?.getattr("MemberDescriptorType")?;
        if !slot.get_type().is(&member) {
            return Err(PyTypeError::new_err("LazyField needs a member descriptor"));
        }
        let field = match field {
            "span" => Field::Span,
            "raw" => Field::Raw,
            "arguments_json" => Field::ArgumentsJson,
            "content" => Field::Content,
            "issues" | "strategies" => Field::List,
            other => return Err(PyValueError::new_err(format!("no lazy field {other:?}"))),
        };
        Ok(Self {
            slot: slot.clone().unbind(),
            field,
        })
    }

    fn __get__<'py>(
        slf: &Bound<'py, Self>,
        instance: Option<&Bound<'py, PyAny>>,
        _owner: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        // Read on the class: the descriptor itself, as a property gives.
        let Some(instance) = instance.filter(|i| !i.is_none()) else {
            return Ok(slf.clone().into_any());
        };
        let this = slf.get();
        if let Some(slot) = this.pending_slot() {
            if let Some(built) = pyunbuilt::take_built(instance, slot)? {
                this.write(instance, Some(&built))?;
                return Ok(built);
            }
        }
        let value = this.read(instance)?;
        match this.build(&value)? {
            Some(built) => {
                this.write(instance, Some(&built))?;
                Ok(built)
            }
            None => Ok(value),
        }
    }

    fn __set__(&self, instance: &Bound<'_, PyAny>, value: &Bound<'_, PyAny>) -> PyResult<()> {
        if let Some(slot) = self.pending_slot() {
            pyunbuilt::forget(instance, slot);
        }
        self.write(instance, Some(value))
    }

    fn __delete__(&self, instance: &Bound<'_, PyAny>) -> PyResult<()> {
        let had = match self.pending_slot() {
            Some(slot) => pyunbuilt::forget(instance, slot),
            None => false,
        };
        match self.write(instance, None) {
            // The slot of a pending value is empty: deleting the value empties nothing more.
            Err(e) if had && e.is_instance_of::<PyAttributeError>(instance.py()) => Ok(()),
            done => done,
        }
    }
}
