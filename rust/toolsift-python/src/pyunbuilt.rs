//! `_native.Unbuilt`, the native base class of `toolsift.model.ToolCall` and `ParseResult`:
//! room in each instance for the values a native parse leaves unbuilt ([`Pending`]), so that
//! a call, or a result, is one Python object.
//!
//! A call's `span`, `raw` and `arguments_json` used to be one `CallDetail` object stored in
//! the three fields: a `PyO3` object (collected, then untracked) made and freed with each
//! call, ~1.5 a sentinel reply. Leaving it out of a 1,000-reply batch (its sources still
//! made and dropped) read 3.17 -> 3.06 ms, alternating builds. Here the values wait behind a
//! pointer in the call itself, its three fields are left empty, and `pylazy::LazyField`
//! builds a field from [`Pending`] on its first read (or settles it on a write or a delete);
//! once all three are settled the values are dropped. A result's `content` waits the same
//! way, where it was a `DeferredText` object each.
//!
//! The type is made with the C API (`PyType_FromSpec`), not as a `#[pyclass]`, because Python
//! allocates its subclass's instances (`tp_alloc` zero-fills them, so an instance starts
//! with nothing pending: `Option<Arc<_>>` is null for `None`) and the native builder fills
//! them without running `__new__` (see `pyslots`). Unsafe for the C layout and the two C
//! slots (`tp_dealloc`, `tp_new`); each use is checked below.
#![allow(unsafe_code)]

use std::os::raw::{c_int, c_uint, c_void};
use std::sync::Arc;

use pyo3::exceptions::PyTypeError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;

use crate::gcpause::untracked_span;
use crate::pydeferred::Source;

/// The values of an object's fields still to be built. Shared (`Arc`): a reader builds from
/// a handle of its own. Building a span makes a tuple, a collected object, so it may run the
/// collector and with it Python code (finalizers, then other threads), which may read, write
/// or settle the same object meanwhile: the handle keeps what the reader reads alive.
pub(crate) enum Pending {
    /// A `ToolCall`'s.
    Call {
        span: (usize, usize),
        raw: Source,
        arguments_json: Source,
    },
    /// A `ParseResult`'s.
    Result { content: Source },
}

/// A field [`Pending`] may hold.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Slot {
    Span,
    Raw,
    ArgumentsJson,
    Content,
}

impl Slot {
    /// This field's bit in [`UnbuiltObject::settled`].
    fn bit(self) -> u8 {
        match self {
            Slot::Span => 1,
            Slot::Raw => 2,
            Slot::ArgumentsJson => 4,
            Slot::Content => 8,
        }
    }
}

impl Pending {
    /// The bits of the fields this holds (see [`Slot::bit`]).
    fn fields(&self) -> u8 {
        match self {
            Pending::Call { .. } => 1 | 2 | 4,
            Pending::Result { .. } => 8,
        }
    }

    /// The value of `slot`, built; `None` when this does not hold it.
    fn build<'py>(&self, py: Python<'py>, slot: Slot) -> PyResult<Option<Bound<'py, PyAny>>> {
        Ok(Some(match (self, slot) {
            (Pending::Call { span, .. }, Slot::Span) => {
                untracked_span(py, span.0, span.1)?.into_any()
            }
            (Pending::Call { raw, .. }, Slot::Raw) => raw.text(py)?.into_any(),
            (Pending::Call { arguments_json, .. }, Slot::ArgumentsJson) => {
                arguments_json.text(py)?.into_any()
            }
            (Pending::Result { content }, Slot::Content) => content.text(py)?.into_any(),
            _ => return Ok(None),
        }))
    }

    /// Drops the Python references this holds with plain decrefs: `tp_dealloc` runs on an
    /// attached thread that `PyO3` does not know as attached, where dropping a `Py` would
    /// queue its decref in `PyO3`'s pool (a lock) for later.
    ///
    /// # Safety
    /// The thread must be attached to the interpreter.
    unsafe fn release(self) {
        // SAFETY: the caller's contract.
        unsafe {
            match self {
                Pending::Call {
                    raw,
                    arguments_json,
                    ..
                } => {
                    raw.release();
                    arguments_json.release();
                }
                Pending::Result { content } => content.release(),
            }
        }
    }
}

/// The C layout of an `Unbuilt` instance; a subclass's slots follow it.
#[repr(C)]
struct UnbuiltObject {
    ob_base: ffi::PyObject,
    /// Null (`None`) in an instance Python made, or once every field is settled.
    pending: Option<Arc<Pending>>,
    /// A bit per field ([`Slot::bit`]) built or written since the parse: its pending value
    /// is no longer read.
    settled: u8,
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
        // The object's handle is the only one: a reader holds the object while it builds.
        match (*this).pending.take().map(Arc::try_unwrap) {
            Some(Ok(pending)) => pending.release(),
            Some(Err(shared)) => drop(shared),
            None => {}
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
                pfunc: c"The native base of toolsift.model.ToolCall and ParseResult: where the \
                    fields a native parse leaves unbuilt wait until read."
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
pub(crate) unsafe fn give(object: &Bound<'_, PyAny>, pending: Pending) {
    // SAFETY: per the contract, `object` is laid out as `UnbuiltObject`, and its `pending`
    // is the `None` `tp_alloc`'s zero-fill made.
    unsafe {
        (*object.as_ptr().cast::<UnbuiltObject>()).pending = Some(Arc::new(pending));
    }
}

/// Marks `slot` settled in `this`; drops the pending values once every field is. Returns
/// whether `slot` was pending before.
///
/// # Safety
/// `this` must be a live `Unbuilt` instance, and the GIL held.
unsafe fn settle(this: *mut UnbuiltObject, slot: Slot) -> bool {
    // SAFETY: the caller's contract; no reference into the object outlives this block, and
    // dropping the values runs no Python code (they hold only `str`s).
    unsafe {
        let fields = (*this).pending.as_ref().map_or(0, |p| p.fields());
        let was = fields & slot.bit() != 0 && (*this).settled & slot.bit() == 0;
        (*this).settled |= slot.bit();
        if fields != 0 && (*this).settled & fields == fields {
            drop((*this).pending.take());
        }
        was
    }
}

/// `slot`'s value built from what `object` holds pending, and `slot` settled: the caller
/// stores it in the field at once (no Python code between). `None` when nothing is pending
/// for it: the field is read as stored.
pub(crate) fn take_built<'py>(
    object: &Bound<'py, PyAny>,
    slot: Slot,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    let Some(this) = unbuilt(object) else {
        return Ok(None);
    };
    // SAFETY: `this` is `object`, an instance of `Unbuilt` (checked by `unbuilt`), alive
    // while `object` is, and the GIL is held (a `Bound`). Only a handle to the values is
    // taken: no reference into the object is held while the value is built.
    let pending = unsafe {
        if (*this).settled & slot.bit() != 0 {
            return Ok(None);
        }
        (*this).pending.clone()
    };
    let Some(pending) = pending else {
        return Ok(None);
    };
    let Some(built) = pending.build(object.py(), slot)? else {
        return Ok(None);
    };
    // SAFETY: as above. Building may have run Python code that settled the field (built or
    // wrote it): that value stands, and is read as stored.
    unsafe {
        if (*this).settled & slot.bit() != 0 {
            return Ok(None);
        }
        settle(this, slot);
    }
    Ok(Some(built))
}

/// Settles `slot` (the field is being written or deleted); whether its value was pending.
pub(crate) fn forget(object: &Bound<'_, PyAny>, slot: Slot) -> bool {
    match unbuilt(object) {
        // SAFETY: as in `take_built`.
        Some(this) => unsafe { settle(this, slot) },
        None => false,
    }
}
