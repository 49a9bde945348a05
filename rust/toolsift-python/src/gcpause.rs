//! Pausing Python's cycle collector while a large result is built.
//!
//! Objects built in bulk (the lists of a deeply nested document, the calls and issues of a
//! long response) are created before anything refers to them, so each collection their own
//! allocations trigger walks all of them and frees none; how many such collections fall inside
//! one build steps with its size. Paused, the objects are collected once, later, as any
//! objects are. Sound only while the GIL is held from pause to resume: no other Python code
//! can run meanwhile and see the collector off.

use pyo3::prelude::*;

/// Pauses the collector until dropped, if it was running.
pub(crate) struct GcPause<'py>(Option<Bound<'py, PyModule>>);

impl<'py> GcPause<'py> {
    /// A pause when `large`, else nothing (three calls into the `gc` module cost more than a
    /// small build saves).
    pub(crate) fn when(py: Python<'py>, large: bool) -> PyResult<Option<Self>> {
        if !large {
            return Ok(None);
        }
        let gc = py.import("gc")?;
        if gc.call_method0("isenabled")?.is_truthy()? {
            gc.call_method0("disable")?;
            return Ok(Some(Self(Some(gc))));
        }
        Ok(Some(Self(None)))
    }
}

impl Drop for GcPause<'_> {
    fn drop(&mut self) {
        if let Some(gc) = &self.0 {
            // Nothing sensible to do if it fails; the next collection is merely later.
            let _ = gc.call_method0("enable");
        }
    }
}

/// `(start, end)` as a tuple the collector does not track. A tuple of two ints can never be
/// part of a reference cycle, and `CPython` untracks such tuples itself, but only when a
/// collection first walks them: a response with 100,000 calls had 100,000 span tuples in the
/// young generation, half of what the collection after its parse walked (each call's
/// `ToolCall` is the other half).
pub(crate) fn untracked_span(
    py: Python<'_>,
    start: usize,
    end: usize,
) -> PyResult<Bound<'_, pyo3::types::PyTuple>> {
    let span = pyo3::types::PyTuple::new(py, [start, end])?;
    untrack(span.as_any());
    Ok(span)
}

/// Takes `object`, which can never be part of a reference cycle (it refers to atoms only),
/// out of the collector's view, so collections do not walk it.
#[allow(unsafe_code)]
pub(crate) fn untrack(object: &Bound<'_, PyAny>) {
    // SAFETY: `object` is live and we hold the GIL (a `Bound`). `PyObject_GC_UnTrack` leaves
    // an object that is not tracked (or not a GC type) alone, and untracking one whose
    // referents are all atoms is what the collector's own `_PyTuple_MaybeUntrack` does; its
    // deallocator untracks it again, which is allowed.
    unsafe { pyo3::ffi::PyObject_GC_UnTrack(object.as_ptr().cast()) };
}
