//! The streaming engine as a Python class. Delta and start events cross the boundary as the
//! native event classes; a segment's end crosses as a tuple that `toolsift.streaming` turns into
//! a `SegmentEnd` holding a Python `ToolCall`.

use pyo3::prelude::*;
use pyo3::types::PyList;

use crate::pyevents::{ArgumentDelta, ArgumentsJsonDelta, SegmentStart, TextDelta};
use toolsift_core::stream::events::Event;
use toolsift_core::stream::oneshot::{self, End};
use toolsift_core::stream::{syntaxes, StreamEngine, Syntax};

/// Raises `toolsift.errors.UnknownSyntaxError` listing the known syntaxes.
#[cold]
pub(crate) fn unknown(py: Python<'_>, name: &str) -> PyErr {
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

/// The syntaxes called `names` (a name may stand for several, like `auto`);
/// `tool_call_json` takes `marker` and `max_payload_chars`. Returns the first unknown name as
/// the error.
pub(crate) fn build_syntaxes<'a>(
    names: &'a [String],
    marker: Option<&str>,
    max_payload_chars: Option<usize>,
) -> Result<Vec<Syntax>, &'a str> {
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
        enabled.extend(found.ok_or(name.as_str())?);
    }
    Ok(enabled)
}

/// A segment end as the tuple `toolsift.streaming` reads:
/// `(syntax, "end", id, (name, arguments, repairs, start, end, raw) | None,
/// (kind, message, start, end) | None)`.
pub(crate) fn end_tuple(py: Python<'_>, end: End) -> PyResult<Bound<'_, PyAny>> {
    let call = end
        .call
        .map(|c| (c.name, c.arguments, c.repairs, c.start, c.end, c.raw));
    let issue = end.issue.map(|i| (i.kind, i.message, i.start, i.end));
    Ok((end.syntax, "end", end.id, call, issue)
        .into_pyobject(py)?
        .into_any())
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
        let enabled =
            build_syntaxes(&syntaxes, marker, max_payload_chars).map_err(|n| unknown(py, n))?;
        let mut engine = StreamEngine::new(enabled);
        engine.set_previews(previews);
        Ok(Self { engine })
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
        let out = oneshot::parse_all(&mut self.engine, text);
        let ends = out
            .ends
            .into_iter()
            .map(|e| end_tuple(py, e))
            .collect::<PyResult<Vec<_>>>()?;
        Ok((out.content, PyList::new(py, ends)?))
    }
}
