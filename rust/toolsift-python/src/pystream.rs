//! The streaming engine as a Python class. Events cross the boundary as small tuples that
//! `toolsift.streaming` turns into the public event classes.

use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};
use toolsift_core::stream::events::Event;
use toolsift_core::stream::{syntaxes, StreamEngine};

/// Raises `toolsift.errors.UnknownSyntaxError` listing the known syntaxes.
#[cold]
fn unknown(py: Python<'_>, name: &str) -> PyErr {
    let known = syntaxes::names().join(", ");
    let message = format!("unknown syntax {name:?}; the streaming engine runs: {known}");
    match py
        .import("toolsift.errors")
        .and_then(|m| m.getattr("UnknownSyntaxError"))
        .and_then(|cls| cls.call1((message, py.None(), "unknown_syntax")))
    {
        Ok(instance) => PyErr::from_value(instance),
        Err(e) => e,
    }
}

/// The incremental engine over the named syntaxes.
#[pyclass(module = "toolsift._native")]
pub struct NativeStream {
    engine: StreamEngine,
}

fn to_tuple(py: Python<'_>, event: Event) -> PyResult<Bound<'_, PyTuple>> {
    match event {
        Event::SegmentStart {
            id,
            kind,
            syntax,
            name,
            metadata,
        } => ("start", id, kind.as_str(), syntax, name, metadata).into_pyobject(py),
        Event::TextDelta { id, text } => ("text", id, text).into_pyobject(py),
        Event::ArgumentDelta { id, key, text } => ("arg", id, key, text).into_pyobject(py),
        Event::ArgumentsJsonDelta { id, text } => ("json", id, text).into_pyobject(py),
        Event::SegmentEnd { id, call, issue } => {
            let call = call.map(|c| (c.name, c.arguments, c.repairs, c.start, c.end, c.raw));
            let issue = issue.map(|i| (i.kind, i.message, i.start, i.end));
            ("end", id, call, issue).into_pyobject(py)
        }
    }
}

fn to_list(py: Python<'_>, events: Vec<Event>) -> PyResult<Bound<'_, PyList>> {
    let items = events
        .into_iter()
        .map(|e| to_tuple(py, e))
        .collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, items)
}

impl NativeStream {
    fn with_syntaxes(py: Python<'_>, names: &[String]) -> PyResult<Self> {
        let mut enabled = Vec::with_capacity(names.len());
        for name in names {
            enabled.push(syntaxes::by_name(name).ok_or_else(|| unknown(py, name))?);
        }
        Ok(Self {
            engine: StreamEngine::new(enabled),
        })
    }
}

#[pymethods]
impl NativeStream {
    // PyO3 extracts the list into an owned Vec; the signature cannot borrow it.
    #[new]
    #[allow(clippy::needless_pass_by_value)]
    fn new(py: Python<'_>, syntaxes: Vec<String>) -> PyResult<Self> {
        Self::with_syntaxes(py, &syntaxes)
    }

    /// Names of the syntaxes the engine runs.
    #[staticmethod]
    fn syntax_names() -> Vec<&'static str> {
        syntaxes::names()
    }

    fn feed<'py>(&mut self, py: Python<'py>, chunk: &str) -> PyResult<Bound<'py, PyList>> {
        to_list(py, self.engine.feed(chunk))
    }

    fn finish<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        to_list(py, self.engine.finish())
    }

    fn reset(&mut self) {
        self.engine.reset();
    }
}
