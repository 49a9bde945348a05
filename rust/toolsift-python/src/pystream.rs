//! The streaming engine as a Python class. Delta and start events cross the boundary as the
//! native event classes; from `feed` and `finish`, a segment's end crosses as a tuple. The
//! `StreamParser` path is `pycore::StreamCore`, which feeds this engine and builds each end's
//! `SegmentEnd` itself; `parse_all` serves the one-shot and batch paths.

use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};

use crate::pyevents::{ArgumentDelta, ArgumentsJsonDelta, SegmentStart, TextDelta};
use crate::pyissue::IssueMaker;
use toolsift_core::stream::events::{Call, Event, SegmentId};
use toolsift_core::stream::limits::Limits;
use toolsift_core::stream::oneshot::{self, OneShot};
use toolsift_core::stream::{syntaxes, StreamEngine, Syntax};
use toolsift_core::strict_json::has_long_digit_run;

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
    pub(crate) engine: StreamEngine,
    /// Text of the text segments so far, gathered for `StreamCore` (see `pycore`).
    pub(crate) content: String,
    /// Open segments' ids and syntaxes, so a segment's end can name its syntax.
    pub(crate) open: Vec<(SegmentId, &'static str)>,
}

pub(crate) fn to_object(py: Python<'_>, event: Event) -> PyResult<Bound<'_, PyAny>> {
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
        Event::TextDelta { id, text } => Ok(Bound::new(py, TextDelta::build(id, text))?.into_any()),
        Event::ArgumentDelta { id, key, text } => {
            Ok(Bound::new(py, ArgumentDelta::build(id, key, text))?.into_any())
        }
        Event::ArgumentsJsonDelta { id, text } => {
            Ok(Bound::new(py, ArgumentsJsonDelta::build(id, text))?.into_any())
        }
        Event::SegmentEnd { id, call, issue } => {
            let call = call.map(|c| call_tuple(py, c)).transpose()?;
            let issue = issue.map(|i| (i.kind, i.message, i.start, i.end));
            Ok(("end", &*id, call, issue).into_pyobject(py)?.into_any())
        }
    }
}

pub(crate) type CallTuple<'py> = (
    String,
    String,
    Bound<'py, PyTuple>,
    usize,
    usize,
    String,
    bool,
);

/// A call as a tuple of immutable values only (repairs too), so Python's cycle collector
/// untracks it at its first pass instead of walking it in every full collection: with 100,000
/// calls in one response that walk made the parse superlinear. The last item says whether the
/// arguments hold a run of 19+ digits (an integer orjson would turn into a float): checked
/// here on the UTF-8 text, because in Python the check had to encode the string again.
pub(crate) fn call_tuple(py: Python<'_>, c: Call) -> PyResult<CallTuple<'_>> {
    let repairs = PyTuple::new(py, c.repairs)?;
    let exact = has_long_digit_run(c.arguments.as_bytes());
    Ok((c.name, c.arguments, repairs, c.start, c.end, c.raw, exact))
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

/// A one-shot result as `toolsift.streaming` reads it: `(content, calls, issues)`. `issues`
/// are the ends' `ParseIssue`s in order, so without a tools schema they are the result's
/// issues as they are (no per-issue work in Python); each call is `(syntax, id, name,
/// arguments, repairs, start, end, raw, exact, issues_before)`, where `issues_before` counts
/// the issues of its own end and the ends before it: where the issues that typing the call
/// by a schema adds go. `exact` is as in [`call_tuple`].
pub(crate) fn one_shot_objects<'py>(
    py: Python<'py>,
    out: OneShot,
    shared: &mut SharedStrings<'py>,
) -> PyResult<Bound<'py, PyTuple>> {
    let mut calls = Vec::new();
    let mut issues = Vec::new();
    for end in out.ends {
        let syntax = shared.name(py, end.syntax);
        if let Some(i) = end.issue {
            let kind = shared.name(py, i.kind);
            let message = shared.message(py, i.message);
            let maker = match &mut shared.issues {
                Some(maker) => maker,
                slot => slot.insert(IssueMaker::new(py)?),
            };
            issues.push(maker.make(syntax.clone(), kind, message, (i.start, i.end))?);
        }
        if let Some(c) = end.call {
            let exact = has_long_digit_run(c.arguments.as_bytes());
            let repairs = PyTuple::new(py, c.repairs)?;
            let call = (
                syntax,
                end.id,
                c.name,
                c.arguments,
                repairs,
                c.start,
                c.end,
                c.raw,
                exact,
                issues.len(),
            );
            calls.push(call.into_pyobject(py)?);
        }
    }
    (
        out.content,
        PyList::new(py, calls)?,
        PyList::new(py, issues)?,
    )
        .into_pyobject(py)
}

/// Python objects shared by the ends of one batch. Strings: a response can hold millions of issues
/// with the same message (a marker repeated with nothing after it), and a string object each
/// made the result's memory, and so the time to build it, grow faster than the input.
/// Syntax names and issue kinds (a few distinct ones per batch) are looked up here rather
/// than interned again for every end: `PyString::intern` builds a string and probes the
/// interpreter's table each time, ~1,000 instructions per end.
#[derive(Default)]
pub(crate) struct SharedStrings<'py> {
    last: Option<(String, Bound<'py, PyString>)>,
    names: Vec<(&'static str, Bound<'py, PyString>)>,
    issues: Option<IssueMaker<'py>>,
}

impl<'py> SharedStrings<'py> {
    fn name(&mut self, py: Python<'py>, text: &'static str) -> Bound<'py, PyString> {
        if let Some((_, object)) = self.names.iter().find(|(seen, _)| *seen == text) {
            return object.clone();
        }
        let object = PyString::intern(py, text);
        self.names.push((text, object.clone()));
        object
    }

    fn message(&mut self, py: Python<'py>, text: String) -> Bound<'py, PyString> {
        match &self.last {
            Some((seen, object)) if *seen == text => object.clone(),
            _ => {
                let object = PyString::new(py, &text);
                self.last = Some((text, object.clone()));
                object
            }
        }
    }
}

#[pymethods]
impl NativeStream {
    // PyO3 extracts the list into an owned Vec; the signature cannot borrow it. A limit left
    // at None keeps the core's default; 0 disables it.
    #[new]
    #[pyo3(signature = (
        syntaxes, *, marker = None, max_payload_chars = None, previews = true, max_depth = None,
        max_call_bytes = None, max_segment_bytes = None, max_calls = None,
    ))]
    #[allow(clippy::needless_pass_by_value, clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        syntaxes: Vec<String>,
        marker: Option<&str>,
        max_payload_chars: Option<usize>,
        previews: bool,
        max_depth: Option<usize>,
        max_call_bytes: Option<usize>,
        max_segment_bytes: Option<usize>,
        max_calls: Option<usize>,
    ) -> PyResult<Self> {
        let enabled =
            build_syntaxes(&syntaxes, marker, max_payload_chars).map_err(|n| unknown(py, n))?;
        let mut engine = StreamEngine::new(enabled);
        engine.set_previews(previews);
        let d = Limits::default();
        engine.set_limits(Limits {
            max_depth: max_depth.unwrap_or(d.max_depth),
            max_call_bytes: max_call_bytes.unwrap_or(d.max_call_bytes),
            max_segment_bytes: max_segment_bytes.unwrap_or(d.max_segment_bytes),
            max_calls: max_calls.unwrap_or(d.max_calls),
        });
        Ok(Self {
            engine,
            content: String::new(),
            open: Vec::new(),
        })
    }

    /// The start markers of the syntax `name` (what opens one of its segments).
    #[staticmethod]
    fn start_markers(py: Python<'_>, name: &str) -> PyResult<Vec<String>> {
        let syntax = syntaxes::by_name(name).ok_or_else(|| unknown(py, name))?;
        Ok(syntax.markers.into_iter().map(|m| m.0).collect())
    }

    /// The default limits: `(max_depth, max_call_bytes, max_segment_bytes, max_calls)`.
    #[staticmethod]
    fn default_limits() -> (usize, usize, usize, usize) {
        let d = Limits::default();
        (
            d.max_depth,
            d.max_call_bytes,
            d.max_segment_bytes,
            d.max_calls,
        )
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
        self.content.clear();
        self.open.clear();
    }

    /// The text-segment content gathered since the last call (by `StreamCore` feeds).
    fn take_content(&mut self) -> String {
        std::mem::take(&mut self.content)
    }

    /// A one-shot parse of a whole text: `(content, calls, issues)` (see [`one_shot_objects`]),
    /// with no event objects built for the deltas nobody will read.
    fn parse_all<'py>(&mut self, py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyTuple>> {
        let out = oneshot::parse_all(&mut self.engine, text);
        one_shot_objects(py, out, &mut SharedStrings::default())
    }
}
