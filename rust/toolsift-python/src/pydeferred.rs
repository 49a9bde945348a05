//! Text of a parse result that becomes a `str` only when it is read.
//!
//! A one-shot parse returns three long strings most callers never read: each call's `raw`
//! and `arguments_json`, and the result's `content`. Built eagerly they were a fifth of the
//! time of parsing a 1.5 KB reply (a non-ASCII `str` is checked and narrowed character by
//! character when sliced or decoded), and their memory was allocated and freed again. So the
//! parse stores a [`DeferredText`] in those fields instead, and `toolsift.model` turns it into
//! the `str` on first access (and keeps that `str`), so callers only ever see strings.
//!
//! A call built natively goes further: its `span`, `raw` and `arguments_json` wait as a
//! [`Source`] each in the call itself (see `pyunbuilt`). Made eagerly they were a tuple, its
//! two ints past 256 and two texts: five of the ~14 Python objects of a call, each allocated
//! and freed, though most callers read only a call's name and arguments.

use pyo3::prelude::*;
use pyo3::types::PyString;
use pyo3::{PyClass, PyClassInitializer};

use toolsift_core::stream::args_writer::strings_json;

use crate::gcpause::untrack;
use crate::pytext::char_slice;

/// The `(key, value)` strings of an object of string members, in order.
pub(crate) type StringMembers = Vec<(Py<PyString>, Py<PyString>)>;

/// `value` as a Python object the collector does not track: `PyO3` makes every class a
/// collected one, and these hold only `str`s (see [`DeferredText`]).
fn untracked<T: PyClass>(
    py: Python<'_>,
    value: impl Into<PyClassInitializer<T>>,
) -> PyResult<Bound<'_, PyAny>> {
    let object = Bound::new(py, value)?.into_any();
    untrack(&object);
    Ok(object)
}

/// Where a deferred text comes from.
pub(crate) enum Source {
    /// Code points `start..end` of a `str` the caller passed in.
    Slice {
        text: Py<PyString>,
        start: usize,
        end: usize,
    },
    /// Text the engine made (repaired JSON, content joined from pieces).
    Owned(String),
    /// The JSON object of these string members (a call's arguments whose JSON the engine
    /// left unwritten), written as the engine would have written it.
    Strings(StringMembers),
    /// The code points of these ranges of a `str` the caller passed in, joined (a content
    /// the engine left as ranges, see `oneshot::parse_lean_runs`).
    Runs {
        text: Py<PyString>,
        runs: Vec<(usize, usize)>,
    },
}

/// A `str` to be: `str(deferred)` builds it. Frozen, and holds no Python object but `str`s,
/// so it is made untracked by the cycle collector ([`DeferredText::object`]): `PyO3` makes
/// every class a collected one, and 100,000 calls' deferred texts quadrupled the time of the
/// collection that follows such a parse.
#[pyclass(frozen, module = "toolsift._native")]
pub struct DeferredText(Source);

/// Whether a deferred slice of `chars` characters may hold on to its source of
/// `source_chars`: a slice keeps the whole source alive until it is read, so it is taken only
/// from a source not much longer than itself. A caller that keeps the calls of a 10 MB
/// transcript and drops the rest must not keep the 10 MB; such a call's text is copied.
pub(crate) fn may_hold(source_chars: usize, chars: usize) -> bool {
    source_chars <= chars.saturating_mul(4).saturating_add(4096)
}

impl DeferredText {
    /// Characters `start..end` of `text`.
    pub(crate) fn slice(text: Py<PyString>, start: usize, end: usize) -> Self {
        Self(Source::Slice { text, start, end })
    }

    pub(crate) fn owned(text: String) -> Self {
        Self(Source::Owned(text))
    }

    /// Code points `runs` of `text`, joined.
    pub(crate) fn runs(text: Py<PyString>, runs: Vec<(usize, usize)>) -> Self {
        Self(Source::Runs { text, runs })
    }

    /// Where the text comes from.
    pub(crate) fn into_source(self) -> Source {
        self.0
    }

    /// This text as a Python object the collector does not track.
    pub(crate) fn object(self, py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
        untracked::<Self>(py, self)
    }

    /// The text as a `str`.
    pub(crate) fn text<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyString>> {
        self.0.text(py)
    }
}

impl Source {
    /// The text as a `str`.
    pub(crate) fn text<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyString>> {
        match self {
            Source::Slice { text, start, end } => char_slice(text.bind(py), *start, *end),
            Source::Owned(text) => Ok(PyString::new(py, text)),
            Source::Strings(members) => {
                let members = members
                    .iter()
                    .map(|(k, v)| Ok((k.bind(py).to_str()?, v.bind(py).to_str()?)))
                    .collect::<PyResult<Vec<_>>>()?;
                Ok(PyString::new(py, &strings_json(members)))
            }
            Source::Runs { text, runs } => {
                let text = text.bind(py);
                let pieces = runs
                    .iter()
                    .map(|&(start, end)| char_slice(text, start, end))
                    .collect::<PyResult<Vec<_>>>()?;
                Ok(PyString::new(py, "")
                    .call_method1(pyo3::intern!(py, "join"), (pieces,))?
                    .cast_into::<PyString>()?)
            }
        }
    }

    /// Drops this with plain decrefs of the Python strings it holds, for a caller on an
    /// attached thread that `PyO3` does not know as attached (see `pyunbuilt`).
    ///
    /// # Safety
    /// The thread must be attached to the interpreter.
    #[allow(unsafe_code)]
    pub(crate) unsafe fn release(self) {
        // SAFETY: each pointer is a strong reference this owned (`into_ptr` hands it over),
        // released once, on an attached thread (the caller's contract).
        unsafe {
            match self {
                Source::Slice { text, .. } | Source::Runs { text, .. } => {
                    pyo3::ffi::Py_DECREF(text.into_ptr());
                }
                Source::Owned(_) => {}
                Source::Strings(members) => {
                    for (key, value) in members {
                        pyo3::ffi::Py_DECREF(key.into_ptr());
                        pyo3::ffi::Py_DECREF(value.into_ptr());
                    }
                }
            }
        }
    }
}

#[pymethods]
impl DeferredText {
    fn __str__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyString>> {
        self.0.text(py)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let text = self.__str__(py)?;
        Ok(format!("DeferredText({})", text.repr()?))
    }
}
