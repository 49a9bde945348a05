//! The streaming delta events as small frozen Python classes, built in Rust: a stream of
//! 4-character deltas creates two of them per chunk, so they must cost far less than a Python
//! dataclass. `SegmentEnd` is one too (it was a frozen dataclass: building it went through
//! `object.__setattr__` per field, ~10% of a streamed reply's time); it holds the Python
//! `ToolCall` and `ParseIssue`.

use pyo3::basic::CompareOp;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use pyo3::{PyTraverseError, PyVisit};
use toolsift_core::stream::events::SegmentId;

/// A segment begins: `kind` is `text`, `reasoning`, `tool_call` or a file kind.
#[pyclass(frozen, eq, module = "toolsift.events")]
#[derive(Clone, PartialEq, Eq)]
pub struct SegmentStart {
    segment_id: SegmentId,
    #[pyo3(get)]
    kind: String,
    #[pyo3(get)]
    syntax: String,
    #[pyo3(get)]
    name: Option<String>,
    meta: Vec<(String, String)>,
}

#[pymethods]
impl SegmentStart {
    /// The segment's id (`text_0`, `call_0`, …).
    #[getter]
    fn segment_id(&self) -> &str {
        &self.segment_id
    }

    #[new]
    #[pyo3(signature = (segment_id, kind, syntax, name = None, metadata = None))]
    fn new(
        segment_id: String,
        kind: String,
        syntax: String,
        name: Option<String>,
        metadata: Option<Vec<(String, String)>>,
    ) -> Self {
        Self {
            segment_id: segment_id.into(),
            kind,
            syntax,
            name,
            meta: metadata.unwrap_or_default(),
        }
    }

    /// Header values the syntax gave (a `write_file` path, say).
    #[getter]
    fn metadata<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, v) in &self.meta {
            d.set_item(k, v)?;
        }
        Ok(d)
    }

    fn __repr__(&self) -> String {
        format!(
            "SegmentStart(segment_id={:?}, kind={:?}, syntax={:?}, name={:?})",
            self.segment_id, self.kind, self.syntax, self.name
        )
    }
}

impl SegmentStart {
    pub fn build(
        segment_id: SegmentId,
        kind: &str,
        syntax: &str,
        name: Option<String>,
        meta: Vec<(String, String)>,
    ) -> Self {
        Self {
            segment_id,
            kind: kind.to_string(),
            syntax: syntax.to_string(),
            name,
            meta,
        }
    }
}

/// More text of a text or reasoning segment.
#[pyclass(frozen, eq, module = "toolsift.events")]
#[derive(Clone, PartialEq, Eq)]
pub struct TextDelta {
    segment_id: SegmentId,
    #[pyo3(get)]
    text: String,
}

#[pymethods]
impl TextDelta {
    /// The segment's id (`text_0`, `call_0`, …).
    #[getter]
    fn segment_id(&self) -> &str {
        &self.segment_id
    }

    #[new]
    fn new(segment_id: String, text: String) -> Self {
        Self::build(segment_id.into(), text)
    }

    fn __repr__(&self) -> String {
        format!(
            "TextDelta(segment_id={:?}, text={:?})",
            self.segment_id, self.text
        )
    }
}

impl TextDelta {
    pub fn build(segment_id: SegmentId, text: String) -> Self {
        Self { segment_id, text }
    }
}

/// More decoded text of the string argument `key`, as it streams.
#[pyclass(frozen, eq, module = "toolsift.events")]
#[derive(Clone, PartialEq, Eq)]
pub struct ArgumentDelta {
    segment_id: SegmentId,
    #[pyo3(get)]
    key: String,
    #[pyo3(get)]
    text: String,
}

#[pymethods]
impl ArgumentDelta {
    /// The segment's id (`text_0`, `call_0`, …).
    #[getter]
    fn segment_id(&self) -> &str {
        &self.segment_id
    }

    #[new]
    fn new(segment_id: String, key: String, text: String) -> Self {
        Self::build(segment_id.into(), key, text)
    }

    fn __repr__(&self) -> String {
        format!(
            "ArgumentDelta(segment_id={:?}, key={:?}, text={:?})",
            self.segment_id, self.key, self.text
        )
    }
}

impl ArgumentDelta {
    pub fn build(segment_id: SegmentId, key: String, text: String) -> Self {
        Self {
            segment_id,
            key,
            text,
        }
    }
}

/// A fragment of the arguments' JSON text.
#[pyclass(frozen, eq, module = "toolsift.events")]
#[derive(Clone, PartialEq, Eq)]
pub struct ArgumentsJsonDelta {
    segment_id: SegmentId,
    #[pyo3(get)]
    text: String,
}

#[pymethods]
impl ArgumentsJsonDelta {
    /// The segment's id (`text_0`, `call_0`, …).
    #[getter]
    fn segment_id(&self) -> &str {
        &self.segment_id
    }

    #[new]
    fn new(segment_id: String, text: String) -> Self {
        Self::build(segment_id.into(), text)
    }

    fn __repr__(&self) -> String {
        format!(
            "ArgumentsJsonDelta(segment_id={:?}, text={:?})",
            self.segment_id, self.text
        )
    }
}

impl ArgumentsJsonDelta {
    pub fn build(segment_id: SegmentId, text: String) -> Self {
        Self { segment_id, text }
    }
}

/// A segment ends with its call, or the issue that explains why it is not one (a call may
/// carry an issue too, such as a missing end marker).
#[pyclass(frozen, module = "toolsift.events")]
pub struct SegmentEnd {
    segment_id: SegmentId,
    #[pyo3(get)]
    call: Option<Py<PyAny>>,
    #[pyo3(get)]
    issue: Option<Py<PyAny>>,
}

#[pymethods]
impl SegmentEnd {
    /// The segment's id (`text_0`, `call_0`, …); a call's id is the same.
    #[getter]
    fn segment_id(&self) -> &str {
        &self.segment_id
    }

    #[new]
    #[pyo3(signature = (segment_id, call = None, issue = None))]
    fn new(segment_id: String, call: Option<Py<PyAny>>, issue: Option<Py<PyAny>>) -> Self {
        Self::build(segment_id.into(), call, issue)
    }

    #[classattr]
    fn __match_args__() -> (&'static str, &'static str, &'static str) {
        ("segment_id", "call", "issue")
    }

    /// Field by field, as the dataclass it replaces compared.
    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> PyResult<Py<PyAny>> {
        let py = other.py();
        let Ok(other) = other.cast::<Self>() else {
            return Ok(py.NotImplemented());
        };
        let equal = match op {
            CompareOp::Eq | CompareOp::Ne => self.fields(py)?.eq(other.get().fields(py)?)?,
            _ => return Ok(py.NotImplemented()),
        };
        Ok((equal == matches!(op, CompareOp::Eq))
            .into_pyobject(py)?
            .to_owned()
            .into_any()
            .unbind())
    }

    /// Hashable when its call and issue are (a `ToolCall` is mutable, so not hashable).
    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        self.fields(py)?.hash()
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let repr = |v: &Option<Py<PyAny>>| -> PyResult<String> {
            v.as_ref().map_or(Ok("None".to_string()), |v| {
                Ok(v.bind(py).repr()?.to_string())
            })
        };
        Ok(format!(
            "SegmentEnd(segment_id={:?}, call={}, issue={})",
            &*self.segment_id,
            repr(&self.call)?,
            repr(&self.issue)?
        ))
    }

    // The call's arguments are a user-mutable dict, so a cycle through this event is possible.
    fn __traverse__(&self, visit: PyVisit<'_>) -> Result<(), PyTraverseError> {
        if let Some(call) = &self.call {
            visit.call(call)?;
        }
        if let Some(issue) = &self.issue {
            visit.call(issue)?;
        }
        Ok(())
    }
}

impl SegmentEnd {
    pub fn build(segment_id: SegmentId, call: Option<Py<PyAny>>, issue: Option<Py<PyAny>>) -> Self {
        Self {
            segment_id,
            call,
            issue,
        }
    }

    fn fields<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(
            py,
            [
                self.segment_id.as_ref().into_pyobject(py)?.into_any(),
                self.call
                    .as_ref()
                    .map_or_else(|| py.None(), |c| c.clone_ref(py))
                    .into_bound(py),
                self.issue
                    .as_ref()
                    .map_or_else(|| py.None(), |c| c.clone_ref(py))
                    .into_bound(py),
            ],
        )
    }
}
