//! The streaming engine as a Python class. Delta and start events cross the boundary as the
//! native event classes; from `feed` and `finish`, a segment's end crosses as a tuple. The
//! `StreamParser` path is `pycore::StreamCore`, which feeds this engine and builds each end's
//! `SegmentEnd` itself; `parse_all` serves the one-shot and batch paths.

use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};

use crate::pyevents::{ArgumentDelta, ArgumentsJsonDelta, SegmentStart, TextDelta};
use crate::pyoneshot::{issue_list, parse_to_objects, Objects};
use crate::pyslots::parse_result;
use crate::pytext::surrogates_replaced;
use crate::pywide::Wide;
use toolsift_core::stream::events::{Call, Event, SegmentId};
use toolsift_core::stream::limits::Limits;
use toolsift_core::stream::{syntaxes, KnownTools, StreamEngine, Syntax};
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
    /// A one-shot parse's text as UTF-8, when `CPython` has none to lend (see `pywide`).
    pub(crate) utf8: String,
}

/// Buffers past this are dropped after a parse, so one huge text does not leave its copy
/// behind in a parser that `toolsift.parse` keeps.
const KEEP_UTF8_BYTES: usize = 1 << 20;

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
pub(crate) fn call_tuple(py: Python<'_>, mut c: Call) -> PyResult<CallTuple<'_>> {
    let arguments = c.take_arguments_json();
    let repairs = PyTuple::new(py, c.repairs)?;
    let exact = has_long_digit_run(arguments.as_bytes());
    Ok((c.name, arguments, repairs, c.start, c.end, c.raw, exact))
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

/// A declared tool as Python hands it over: its name, or its name and its parameter names
/// (`None` when its schema does not list them).
#[derive(FromPyObject)]
pub(crate) enum KnownTool {
    Named(String),
    WithParameters(String, Option<Vec<String>>),
}

/// The engine's [`KnownTools`] of `tools`.
pub(crate) fn known_tools_of(tools: Vec<KnownTool>) -> KnownTools {
    KnownTools::with_parameters(tools.into_iter().map(|t| match t {
        KnownTool::Named(name) => (name, None),
        KnownTool::WithParameters(name, parameters) => (name, parameters),
    }))
}

#[pymethods]
impl NativeStream {
    // PyO3 extracts the list into an owned Vec; the signature cannot borrow it. A limit left
    // at None keeps the core's default; 0 disables it.
    #[new]
    #[pyo3(signature = (
        syntaxes, *, marker = None, max_payload_chars = None, previews = true, max_depth = None,
        max_call_bytes = None, max_segment_bytes = None, max_calls = None, known_tools = None,
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
        known_tools: Option<Vec<KnownTool>>,
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
        engine.set_known_tools(known_tools_of(known_tools.unwrap_or_default()));
        Ok(Self {
            engine,
            content: String::new(),
            open: Vec::new(),
            utf8: String::new(),
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

    /// A one-shot parse of a whole text: `(content, calls, issues)` (see `pyoneshot`), with
    /// no event objects built for the deltas nobody will read; with `tool_calls`, the calls
    /// are `ToolCall`s. A text holding lone surrogates raises `UnicodeEncodeError`, unless
    /// `lossy`: each is then read as U+FFFD (see `pytext`).
    #[pyo3(signature = (text, tool_calls = false, lossy = false))]
    fn parse_all<'py>(
        &mut self,
        py: Python<'py>,
        text: &Bound<'py, PyString>,
        tool_calls: bool,
        lossy: bool,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let objects = match self.encode(text) {
            Utf8::Encoded => self.parse_encoded(py, Some(text), tool_calls)?,
            // The buffer holds the text with each lone surrogate as U+FFFD already.
            Utf8::Surrogates if lossy => self.parse_encoded(py, None, tool_calls)?,
            _ => match text.to_str() {
                Ok(s) => parse_to_objects(py, &mut self.engine, s, Some(text), tool_calls)?,
                Err(_) if lossy => {
                    let fixed = surrogates_replaced(text)?;
                    parse_to_objects(py, &mut self.engine, &fixed, None, tool_calls)?
                }
                Err(error) => return Err(error),
            },
        };
        let (content, calls, issues) = objects;
        (content.object(py)?, calls, issue_list(py, issues)).into_pyobject(py)
    }

    /// `parse_all(text, True)` as the `ParseResult` it makes, for a parser whose results need
    /// nothing more (no tools schema): `toolsift.parse`'s common call, with no Python code
    /// between the caller and the engine. Raises `UnicodeEncodeError` for lone surrogates.
    fn parse_result<'py>(
        &mut self,
        py: Python<'py>,
        text: &Bound<'py, PyString>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (content, calls, issues) = if self.encode(text) == Utf8::Encoded {
            self.parse_encoded(py, Some(text), true)?
        } else {
            parse_to_objects(py, &mut self.engine, text.to_str()?, Some(text), true)?
        };
        parse_result(py, calls.into_any(), content, issues)
    }
}

/// Where a one-shot parse finds its text's UTF-8.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Utf8 {
    /// `CPython` has it to lend (ASCII, or cached): `to_str` borrows it.
    Lent,
    /// In `NativeStream::utf8`.
    Encoded,
    /// The text holds lone surrogates: `to_str` raises, as it always did.
    Surrogates,
}

impl NativeStream {
    /// Encodes `text` into `self.utf8` when `CPython` holds no UTF-8 of it to lend. Asking
    /// `CPython` instead made and kept a UTF-8 copy inside the caller's `str`, for as long as
    /// the `str` lives, and took ~1.5 us of a 1.5 KB reply; encoded here it is faster and
    /// nothing stays behind.
    fn encode(&mut self, text: &Bound<'_, PyString>) -> Utf8 {
        match Wide::of(text) {
            None => Utf8::Lent,
            Some(wide) if wide.encode_into(&mut self.utf8) => Utf8::Surrogates,
            Some(_) => Utf8::Encoded,
        }
    }

    /// `parse_to_objects` of the text `encode` left in `self.utf8`, whose buffer is then
    /// dropped if it grew past `KEEP_UTF8_BYTES`.
    fn parse_encoded<'py>(
        &mut self,
        py: Python<'py>,
        source: Option<&Bound<'py, PyString>>,
        tool_calls: bool,
    ) -> PyResult<Objects<'py>> {
        let made = parse_to_objects(py, &mut self.engine, &self.utf8, source, tool_calls);
        if self.utf8.capacity() > KEEP_UTF8_BYTES {
            self.utf8 = String::new();
        }
        made
    }
}
