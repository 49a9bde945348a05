//! The streaming delta events as small frozen Python classes, built in Rust: a stream of
//! 4-character deltas creates two of them per chunk, so they must cost far less than a Python
//! dataclass. `SegmentEnd`, which carries a Python `ToolCall`, is built in Python.

use pyo3::prelude::*;
use pyo3::types::PyDict;
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
