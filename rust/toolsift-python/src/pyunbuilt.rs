//! `_native.Unbuilt`, the native base class of `toolsift.model.ToolCall`: room in each
//! instance for the values a native parse leaves unbuilt ([`Pending`]), so that a call is
//! one Python object.
//!
//! A call's `span`, `raw` and `arguments_json` used to be one `CallDetail` object stored in
//! the three fields: a `PyO3` object (collected, then untracked) made and freed with each
//! call, ~1.5 a sentinel reply. Leaving it out of a 1,000-reply batch (its sources still
//! made and dropped) read 3.17 -> 3.06 ms, alternating builds. Here the values wait behind a
//! pointer in the call itself, its fields are left empty, and `pylazy::LazyField` builds a
//! field from [`Pending`] on its first read (or forgets it on a write).
//!
//! The type is made with the C API (`PyType_FromSpec`), not as a `#[pyclass]`, because Python
//! allocates its subclass's instances (`tp_alloc` zero-fills them, so an instance starts
//! with nothing pending: `Option<Box<_>>` is null for `None`) and the native builder fills
//! them without running `__new__` (see `pyslots`). Unsafe for the C layout and the two C
//! slots (`tp_dealloc`, `tp_new`); each use is checked below.
#![allow(unsafe_code)]

use std::os::raw::{c_int, c_uint, c_void};

use pyo3::exceptions::PyTypeError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;

use crate::gcpause::untracked_span;
use crate::pydeferred::Source;

/// The values of an object's fields still to be built, each `None` once built or written.
pub(crate) struct Pending {
    pub(crate) span: Option<(usize, usize)>,
    pub(crate) raw: Option<Source>,
    pub(crate) arguments_json: Option<Source>,
}

/// A field [`Pending`] may hold.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Slot {
    Span,
    Raw,
    ArgumentsJson,
}

impl Pending {
    fn holds(&self, slot: Slot) -> bool {
        match slot {
            Slot::Span => self.span.is_some(),
            Slot::Raw => self.raw.is_some(),
            Slot::ArgumentsJson => self.arguments_json.is_some(),
        }
    }

    fn forget(&mut self, slot: Slot) {
        match slot {
            Slot::Span => self.span = None,
            Slot::Raw => self.raw = None,
            Slot::ArgumentsJson => self.arguments_json = None,
        }
    }

    fn is_empty(&self) -> bool {
        self.span.is_none() && self.raw.is_none() && self.arguments_json.is_none()
    }

    /// The value of `slot`, built (`None` when it is not pending).
    fn build<'py>(&self, py: Python<'py>, slot: Slot) -> PyResult<Option<Bound<'py, PyAny>>> {
        Ok(match slot {
            Slot::Span => match self.span {
                Some((start, end)) => Some(untracked_span(py, start, end)?.into_any()),
                None => None,
            },
            Slot::Raw => match &self.raw {
                Some(raw) => Some(raw.text(py)?.into_any()),
                None => None,
            },
            Slot::ArgumentsJson => match &self.arguments_json {
                Some(json) => Some(json.text(py)?.into_any()),
                None => None,
            },
        })
    }

    /// Drops the Python references this holds with plain decrefs: `tp_dealloc` runs on an
    /// attached thread that `PyO3` does not know as attached, where dropping a `Py` would
    /// queue its decref in `PyO3`'s pool (a lock) for later.
    ///
    /// # Safety
    /// The thread must be attached to the interpreter.
    unsafe fn release(self) {
        for source in [self.raw, self.arguments_json].into_iter().flatten() {
            source.release();
        }
    }
}

/// The C layout of an `Unbuilt` instance; a subclass's slots follow it.
#[repr(C)]
struct UnbuiltObject {
    ob_base: ffi::PyObject,
    /// Null (`None`) in an instance Python made, or once every field is built.
    pending: Option<Box<Pending>>,
}

/// `tp_dealloc`: drops what is pending and frees the instance.
unsafe extern "C" fn dealloc(object: *mut ffi::PyObject) {
    // SAFETY: CPython calls `tp_dealloc` on an attached thread with an instance of `Unbuilt`
    // or of a subclass (whose `subtype_dealloc` has cleared its own slots and calls this as
    // the base's), laid out as `UnbuiltObject`. The type is a heap type: its instances hold
    // a reference to it, which a base's `tp_dealloc` releases (`subtype_dealloc` leaves it
    // to the base when the base is a heap type).
    unsafe {
        let this = object.cast::<UnbuiltObject>();
        if let Some(pending) = (*this).pending.take() {
            pending.release();
        }
        let tp = ffi::Py_TYPE(object);
        if let Some(free) = (*tp).tp_free {
            free(object.cast::<c_void>());
        }
        ffi::Py_DECREF(tp.cast::<ffi::PyObject>());
    }
}

/// The type object, made once per process.
pub(crate) fn unbuilt_type(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    static TYPE: PyOnceLock<Py<PyType>> = PyOnceLock::new();
    TYPE.get_or_try_init(py, || {
        let mut slots = [
            ffi::PyType_Slot {
                slot: ffi::Py_tp_dealloc,
                pfunc: dealloc as *mut c_void,
            },
            ffi::PyType_Slot {
                slot: ffi::Py_tp_new,
                pfunc: ffi::PyType_GenericNew as *mut c_void,
            },
            ffi::PyType_Slot {
                slot: ffi::Py_tp_doc,
                pfunc: c"The native base of toolsift.model.ToolCall: where the fields a native \
                    parse leaves unbuilt wait until read."
                    .as_ptr()
                    .cast_mut()
                    .cast::<c_void>(),
            },
            ffi::PyType_Slot {
                slot: 0,
                pfunc: std::ptr::null_mut(),
            },
        ];
        let mut spec = ffi::PyType_Spec {
            // Static: CPython 3.11 keeps pointing into it for `tp_name`.
            name: c"toolsift._native.Unbuilt".as_ptr(),
            basicsize: c_int::try_from(size_of::<UnbuiltObject>())
                .map_err(|_| PyTypeError::new_err("Unbuilt is too large"))?,
            itemsize: 0,
            flags: c_uint::try_from(ffi::Py_TPFLAGS_DEFAULT | ffi::Py_TPFLAGS_BASETYPE)
                .map_err(|_| PyTypeError::new_err("bad type flags"))?,
            slots: slots.as_mut_ptr(),
        };
        // SAFETY: `spec` and `slots` are valid for the call (CPython copies the slots and
        // keeps only the static name); it returns a new reference or null with an exception.
        let made =
            unsafe { Bound::from_owned_ptr_or_err(py, ffi::PyType_FromSpec(&raw mut spec))? };
        Ok(made.cast_into::<PyType>()?.unbind())
    })
    .map(|t| t.bind(py))
}

/// `object` as an `Unbuilt` when it is an instance of it (or of a subclass).
fn unbuilt(object: &Bound<'_, PyAny>) -> Option<*mut UnbuiltObject> {
    let base = unbuilt_type(object.py()).ok()?;
    object
        .is_instance(base)
        .unwrap_or(false)
        .then(|| object.as_ptr().cast::<UnbuiltObject>())
}

/// Gives `pending` to `object`, a new instance of a subclass of `Unbuilt` no one else has
/// seen (see `pyslots::SlotClass::make_pending`), which holds nothing pending yet.
///
/// # Safety
/// `object` must be such an instance.
pub(crate) unsafe fn give(object: &Bound<'_, PyAny>, pending: Box<Pending>) {
    // SAFETY: per the contract, `object` is laid out as `UnbuiltObject`, and its `pending`
    // is the `None` `tp_alloc`'s zero-fill made.
    unsafe {
        (*object.as_ptr().cast::<UnbuiltObject>()).pending = Some(pending);
    }
}

/// Runs `f` on `object`'s pending values, if it is an `Unbuilt` holding any. The box is
/// taken out of the object while `f` runs (building a value may run Python code, e.g. the
/// collector, which may read the same object: it then sees nothing pending), and put back
/// unless it is empty by then.
fn with_pending<T>(
    object: &Bound<'_, PyAny>,
    f: impl FnOnce(&mut Pending) -> PyResult<Option<T>>,
) -> PyResult<Option<T>> {
    let Some(this) = unbuilt(object) else {
        return Ok(None);
    };
    // SAFETY: `this` is `object`, an instance of `Unbuilt` (checked by `unbuilt`), alive
    // while `object` is; the GIL is held (a `Bound`), and no reference into the object is
    // held across the call to `f`, which only sees the box taken out.
    let taken = unsafe { (*this).pending.take() };
    let Some(mut pending) = taken else {
        return Ok(None);
    };
    let out = f(&mut pending);
    if !pending.is_empty() {
        // SAFETY: as above; a box put in meanwhile (there is none: only `give` puts one,
        // into a new object) would be kept and this one dropped.
        unsafe {
            if (*this).pending.is_none() {
                (*this).pending = Some(pending);
            }
        }
    }
    out
}

/// `slot`'s value built from what `object` holds pending, now no longer pending; `None` when
/// nothing is pending for it (the field is read as stored).
pub(crate) fn take_built<'py>(
    object: &Bound<'py, PyAny>,
    slot: Slot,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    with_pending(object, |pending| {
        let built = pending.build(object.py(), slot)?;
        pending.forget(slot);
        Ok(built)
    })
}

/// Forgets `slot`'s pending value (the field is being written or deleted); whether there
/// was one.
pub(crate) fn forget(object: &Bound<'_, PyAny>, slot: Slot) -> PyResult<bool> {
    let had = with_pending(object, |pending| {
        let had = pending.holds(slot);
        pending.forget(slot);
        Ok(Some(had))
    })?;
    Ok(had.unwrap_or(false))
}
