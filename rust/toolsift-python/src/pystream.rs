//! The streaming engine as a Python class. Delta and start events cross the boundary as the
//! native event classes; a segment's end crosses as a tuple that `toolsift.streaming` turns into
//! a `SegmentEnd` holding a Python `ToolCall`.

use pyo3::prelude::*;
use pyo3::types::PyList;

use crate::pyevents::{ArgumentDelta, ArgumentsJsonDelta, SegmentStart, TextDelta};
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

fn to_object(py: Python<'_>, event: Event) -> PyResult<Bound<'_, PyAny>> {
    match event {
        Event::SegmentStart {
            id,
            kind,
            syntax,
            name,
            metadata,
        } => Ok(Bound::new(
            py,
            SegmentStart::build(id, kind.as_str(), syntax, name, metadata),
        )?
        .into_any()),
        Event::TextDelta { id, text } => Ok(Bound::new(py, TextDelta::new(id, text))?.into_any()),
        Event::ArgumentDelta { id, key, text } => {
            Ok(Bound::new(py, ArgumentDelta::new(id, key, text))?.into_any())
        }
        Event::ArgumentsJsonDelta { id, text } => {
            Ok(Bound::new(py, ArgumentsJsonDelta::new(id, text))?.into_any())
        }
        Event::SegmentEnd { id, call, issue } => {
            let call = call.map(|c| (c.name, c.arguments, c.repairs, c.start, c.end, c.raw));
            let issue = issue.map(|i| (i.kind, i.message, i.start, i.end));
            Ok(("end", id, call, issue).into_pyobject(py)?.into_any())
        }
    }
}

fn to_list(py: Python<'_>, events: Vec<Event>) -> PyResult<Bound<'_, PyList>> {
    let items = events
        .into_iter()
        .map(|e| to_object(py, e))
        .collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, items)
}

impl NativeStream {
    fn with_syntaxes(
        py: Python<'_>,
        names: &[String],
        marker: Option<&str>,
        max_payload_chars: Option<usize>,
    ) -> PyResult<Self> {
        let mut enabled = Vec::with_capacity(names.len());
        for name in names {
            let custom = name == syntaxes::tool_call_json::NAME
                && (marker.is_some() || max_payload_chars.is_some());
            let found = if custom {
                Some(vec![syntaxes::tool_call_json::syntax(
                    marker.unwrap_or("TOOL_CALL"),
                    max_payload_chars.unwrap_or(8000),
                )])
            } else {
                syntaxes::resolve(name)
            };
            enabled.extend(found.ok_or_else(|| unknown(py, name))?);
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
    #[pyo3(signature = (syntaxes, *, marker = None, max_payload_chars = None, previews = true))]
    #[allow(clippy::needless_pass_by_value)]
    fn new(
        py: Python<'_>,
        syntaxes: Vec<String>,
        marker: Option<&str>,
        max_payload_chars: Option<usize>,
        previews: bool,
    ) -> PyResult<Self> {
        let mut stream = Self::with_syntaxes(py, &syntaxes, marker, max_payload_chars)?;
        stream.engine.set_previews(previews);
        Ok(stream)
    }

    /// Names of the syntaxes the engine runs.
    #[staticmethod]
    fn syntax_names() -> Vec<&'static str> {
        syntaxes::names()
    }

    /// Names of the syntaxes `"auto"` runs (and may report on a call).
    #[staticmethod]
    fn auto_syntax_names() -> Vec<&'static str> {
        syntaxes::auto::member_names()
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

    /// A one-shot parse of a whole text: `(content, [(syntax, "end", id, call, issue)])`, with
    /// no event objects built for the deltas nobody will read.
    fn parse_all<'py>(
        &mut self,
        py: Python<'py>,
        text: &str,
    ) -> PyResult<(String, Bound<'py, PyList>)> {
        let mut events = self.engine.feed(text);
        events.extend(self.engine.finish());
        let mut content = String::new();
        let mut syntax_of: Vec<(String, &'static str)> = Vec::new();
        let mut ends = Vec::new();
        for event in events {
            match event {
                Event::TextDelta { id, text } if id.starts_with("text_") => content.push_str(&text),
                Event::SegmentStart { id, syntax, .. } => syntax_of.push((id, syntax)),
                Event::SegmentEnd { id, call, issue } => {
                    let syntax = syntax_of
                        .iter()
                        .rev()
                        .find(|(sid, _)| *sid == id)
                        .map_or("text", |(_, s)| *s);
                    if call.is_none() && issue.is_none() {
                        continue;
                    }
                    let call =
                        call.map(|c| (c.name, c.arguments, c.repairs, c.start, c.end, c.raw));
                    let issue = issue.map(|i| (i.kind, i.message, i.start, i.end));
                    ends.push((syntax, "end", id, call, issue).into_pyobject(py)?);
                }
                _ => {}
            }
        }
        self.engine.reset();
        Ok((content, PyList::new(py, ends)?))
    }
}
