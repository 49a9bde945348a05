//! Text of a parse result that becomes a `str` only when it is read.
//!
//! A one-shot parse returns three long strings most callers never read: each call's `raw`
//! and `arguments_json`, and the result's `content`. Built eagerly they were a fifth of the
//! time of parsing a 1.5 KB reply (a non-ASCII `str` is checked and narrowed character by
//! character when sliced or decoded), and their memory was allocated and freed again. So the
//! parse stores a [`DeferredText`] in those fields instead, and `toolsift.model` turns it into
//! the `str` on first access (and keeps that `str`), so callers only ever see strings.

use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::pytext::char_slice;

/// Where the text comes from.
enum Source {
    /// Code points `start..end` of a `str` the caller passed in.
    Slice {
        text: Py<PyString>,
        start: usize,
        end: usize,
    },
    /// Text the engine made (repaired JSON, content joined from pieces).
    Owned(String),
}

/// A `str` to be: `str(deferred)` builds it. Frozen, and holds no Python object but a `str`,
/// so it needs no cycle collection.
#[pyclass(frozen, module = "toolsift._native")]
pub struct DeferredText(Source);

impl DeferredText {
    /// Characters `start..end` of `text`.
    pub(crate) fn slice(text: Py<PyString>, start: usize, end: usize) -> Self {
        Self(Source::Slice { text, start, end })
    }

    pub(crate) fn owned(text: String) -> Self {
        Self(Source::Owned(text))
    }
}

#[pymethods]
impl DeferredText {
    fn __str__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyString>> {
        match &self.0 {
            Source::Slice { text, start, end } => char_slice(text.bind(py), *start, *end),
            Source::Owned(text) => Ok(PyString::new(py, text)),
        }
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let text = self.__str__(py)?;
        Ok(format!("DeferredText({})", text.repr()?))
    }
}
