//! One-shot results as `toolsift.streaming` reads them: `(content, calls, issues)`. `issues`
//! are the ends' `ParseIssue`s in order, so without a tools schema they are the result's
//! issues as they are (no per-issue work in Python); each call is `(syntax, id, name,
//! arguments, repairs, start, end, raw, exact, issues_before)`, where `issues_before` counts
//! the issues of its own end and the ends before it: where the issues that typing the call by
//! a schema adds go. `exact` is as in `pystream::call_tuple`. `NativeStream.parse_all` may
//! be asked for the calls as `ToolCall`s instead.
//!
//! `NativeStream.parse_all` builds them as the engine makes each end ([`ObjectEnds`]); the
//! batch API, which parses without the GIL, builds them from gathered ends afterwards.

use std::borrow::Cow;
use std::sync::{Arc, Mutex, PoisonError};

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyList, PyString, PyTuple};
use toolsift_core::stream::events::Call;
use toolsift_core::stream::oneshot::{Content, End, EndSink};
use toolsift_core::stream::StreamEngine;
use toolsift_core::strict_json::has_long_digit_run;

use crate::gcpause::GcPause;
use crate::pydeferred::{may_hold, DeferredText, Source};
use crate::pyissue::IssueMaker;
use crate::pyjson::{load_valid, string_dict, string_dict_keeping};
use crate::pyslice::Within;
use crate::pyslots::{tool_call_class, SlotClass};
use crate::pystr::RecentStrs;
use crate::pytext::char_slice;
use crate::pyunbuilt::Pending;
use crate::pywide::{is_ascii, Wide};

/// Python objects shared by the ends of one parse or batch. Strings: a response can hold
/// millions of issues with the same message (a marker repeated with nothing after it), and a
/// string object each made the result's memory, and so the time to build it, grow faster than
/// the input. Syntax names and issue kinds come from [`NAMES`].
#[derive(Default)]
pub(crate) struct SharedObjects {
    last: Option<(String, Py<PyString>)>,
    issues: Option<IssueMaker>,
    /// `toolsift.model.ToolCall`, when calls are to be built here (see [`parse_to_objects`]).
    tool_call: Option<&'static SlotClass<8>>,
    /// The parsed text as the caller's `str`, when at hand (see [`Self::raw`]).
    source: Option<Py<PyString>>,
    /// `source` is all ASCII: a slice of it is one copy of bytes, cheaper than decoding the
    /// same text from UTF-8 (which first checks it is ASCII).
    source_ascii: bool,
    /// `source`'s code points, when it is not ASCII: long argument strings are sliced from
    /// them (see `pyslice`).
    wide: Option<Wide>,
    /// `source`'s length in characters (see [`may_hold`]).
    source_chars: usize,
    /// The last syntax name looked up in [`NAMES`]: a batch's calls are of one syntax or a
    /// few, and the shared table is a lock and a scan of every name.
    syntax: Option<(&'static str, Py<PyString>)>,
    /// Tool names and argument keys made lately.
    recent: RecentStrs,
}

/// Syntax names and issue kinds (a handful of distinct strings) as Python strings, made once
/// per process: `PyString::intern` builds a string and probes the interpreter's table each
/// time, ~1,000 instructions, which a one-call parse paid for its syntax name.
static NAMES: Mutex<Vec<(&'static str, Py<PyString>)>> = Mutex::new(Vec::new());

impl SharedObjects {
    /// Calls are to be built as `ToolCall`s (for a parser without a tools schema, which would
    /// only build the same from the tuples, paying for a Python loop per call).
    /// The text the next ends come from, as the caller's `str` (`None`: the engine read a
    /// copy, e.g. with lone surrogates replaced, so nothing is sliced from the caller's).
    pub(crate) fn set_source(&mut self, source: Option<Bound<'_, PyString>>) {
        self.source_ascii = source.as_ref().is_some_and(is_ascii);
        self.source_chars = source.as_ref().map_or(0, |s| s.len().unwrap_or(0));
        self.wide = source.as_ref().and_then(Wide::of);
        self.source = source.map(Bound::unbind);
    }

    /// [`Self::build_tool_calls`] when `on`, else calls are tuples again.
    pub(crate) fn set_tool_calls(&mut self, py: Python<'_>, on: bool) -> PyResult<()> {
        if on {
            return self.build_tool_calls(py);
        }
        self.tool_call = None;
        Ok(())
    }

    pub(crate) fn build_tool_calls(&mut self, py: Python<'_>) -> PyResult<()> {
        self.tool_call = Some(tool_call_class(py)?);
        Ok(())
    }

    fn name<'py>(py: Python<'py>, text: &'static str) -> Bound<'py, PyString> {
        let known = |names: &[(&'static str, Py<PyString>)]| {
            let found = names.iter().find(|(seen, _)| *seen == text);
            found.map(|(_, object)| object.bind(py).clone())
        };
        if let Some(object) = known(&NAMES.lock().unwrap_or_else(PoisonError::into_inner)) {
            return object;
        }
        // Interned without the lock held: making a string may run the collector, and so
        // Python code that lets another thread in to parse.
        let object = PyString::intern(py, text);
        let mut names = NAMES.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(object) = known(&names) {
            return object;
        }
        names.push((text, object.clone().unbind()));
        object
    }

    /// A call id as a Python string: the first ids of a response (`call_0` … `call_255`, the
    /// same in every response) are made once per process; others, which a response with many
    /// calls makes once each, are made directly (a table lookup for each cost more).
    fn id<'py>(py: Python<'py>, id: &str) -> Bound<'py, PyString> {
        const KEPT: usize = 256;
        static IDS: PyOnceLock<Vec<Py<PyString>>> = PyOnceLock::new();
        // Exactly `call_` and a number written as `format!` writes it (no sign, no zeros in
        // front), so that the kept string is the same text.
        let n = id
            .strip_prefix("call_")
            .filter(|n| n.bytes().all(|b| b.is_ascii_digit()))
            .filter(|n| *n == "0" || !n.starts_with('0'))
            .and_then(|n| n.parse::<usize>().ok());
        match n {
            Some(n) if n < KEPT => {
                let ids = IDS.get_or_init(py, || {
                    (0..KEPT)
                        .map(|k| PyString::new(py, &format!("call_{k}")).unbind())
                        .collect()
                });
                ids[n].bind(py).clone()
            }
            _ => PyString::new(py, id),
        }
    }

    fn message<'py>(&mut self, py: Python<'py>, text: &str) -> Bound<'py, PyString> {
        match &self.last {
            Some((seen, object)) if seen == text => object.bind(py).clone(),
            _ => {
                let object = PyString::new(py, text);
                self.last = Some((text.to_owned(), object.clone().unbind()));
                object
            }
        }
    }

    /// Where a call's `raw` is read from when read: its characters `start..end` of the
    /// source when there is one that the call may hold (a slice copies code units, where
    /// decoding the UTF-8 again reads every character), else the engine's text, taken.
    fn raw_source(&self, py: Python<'_>, call: &mut Call) -> Source {
        match &self.source {
            Some(source) if may_hold(self.source_chars, call.end - call.start) => Source::Slice {
                text: source.clone_ref(py),
                start: call.start,
                end: call.end,
            },
            _ => {
                // Kept while the call lives: without the room the engine gave it.
                let mut raw = std::mem::take(&mut call.raw);
                raw.shrink_to_fit();
                Source::Owned(raw)
            }
        }
    }

    /// A call's `raw` as a `str` (for the tuples a Python layer turns into calls). Sliced
    /// from the caller's `str` as [`Self::raw`] is; ASCII text of a source that is not all
    /// ASCII is decoded instead: a slice of such a source is checked and narrowed character
    /// by character, while decoding ASCII copies.
    fn raw_str<'py>(&self, py: Python<'py>, call: &Call) -> PyResult<Bound<'py, PyAny>> {
        match &self.source {
            Some(source) if self.source_ascii || !call.raw.is_ascii() => {
                Ok(char_slice(source.bind(py), call.start, call.end)?.into_any())
            }
            _ => Ok(PyString::new(py, &call.raw).into_any()),
        }
    }

    /// A call's arguments, and where their JSON text is read from when read (orjson reads
    /// the engine's bytes, see [`load_valid`], so no `str` of them is needed to load them).
    /// That text is taken from the call, not copied (a `tool` header's arguments with a
    /// file's content in them are a kilobyte or more).
    fn arguments<'py>(
        py: Python<'py>,
        call: &mut Call,
        keys: &mut RecentStrs,
        wide: Option<&Wide>,
    ) -> PyResult<(Bound<'py, PyAny>, Source)> {
        let within = wide.map(|source| Within {
            source,
            raw: &call.raw,
            start: call.start,
        });
        let within = within.as_ref();
        match &call.string_arguments {
            // JSON left unwritten (see `Call::arguments_json`): written from the dict's own
            // strings if it is ever read.
            Some(pairs) if call.arguments_unwritten() => {
                let (dict, strings) = string_dict_keeping(py, pairs, keys, within)?;
                Ok((dict, Source::Strings(strings)))
            }
            Some(pairs) => {
                let dict = string_dict(py, pairs, keys, within)?;
                Ok((dict, Source::Owned(std::mem::take(&mut call.arguments))))
            }
            None => {
                let loaded = load_valid(py, &call.arguments, keys)?;
                Ok((loaded, Source::Owned(std::mem::take(&mut call.arguments))))
            }
        }
    }

    /// Appends `end`'s issue to `issues` (made on the first: most results have none, and
    /// one empty list made and freed a result was ~1% of a sentinel batch) and its call to
    /// `calls`.
    fn add<'py>(
        &mut self,
        py: Python<'py>,
        end: &mut End,
        calls: &Bound<'py, PyList>,
        issues: &mut Option<Bound<'py, PyList>>,
    ) -> PyResult<()> {
        let syntax = match &self.syntax {
            Some((seen, object)) if *seen == end.syntax => object.bind(py).clone(),
            _ => {
                let object = Self::name(py, end.syntax);
                self.syntax = Some((end.syntax, object.clone().unbind()));
                object
            }
        };
        if let Some(i) = &end.issue {
            let kind = Self::name(py, i.kind);
            let message = self.message(py, &i.message);
            let maker = match &mut self.issues {
                Some(maker) => maker,
                slot => slot.insert(IssueMaker::new(py)?),
            };
            let issue = maker.make(py, &syntax, &kind, &message, (i.start, i.end))?;
            issues
                .get_or_insert_with(|| PyList::empty(py))
                .append(issue)?;
        }
        if let Some(c) = &mut end.call {
            let repairs = PyTuple::new(py, c.repairs.iter().copied())?;
            if let Some(class) = &self.tool_call {
                // As `toolsift.streaming._load_arguments` loads them.
                let (arguments, json) =
                    Self::arguments(py, c, &mut self.recent, self.wide.as_ref())?;
                // `span`, `raw` and `arguments_json` wait in the call (see `pyunbuilt`).
                let pending = Pending::Call {
                    span: (c.start, c.end),
                    raw: self.raw_source(py, c),
                    arguments_json: json,
                };
                let call = class.make_pending(
                    py,
                    [
                        Some(self.recent.get(py, &c.name).into_any()),
                        Some(arguments),
                        Some(Self::id(py, &end.id).into_any()),
                        Some(syntax.into_any()),
                        None,
                        None,
                        Some(repairs.into_any()),
                        None,
                    ],
                    pending,
                )?;
                return calls.append(call);
            }
            let raw = self.raw_str(py, c)?;
            let json = c.arguments_json();
            let exact = has_long_digit_run(json.as_bytes());
            let call = (
                syntax,
                &*end.id,
                &c.name,
                json.as_ref(),
                repairs,
                c.start,
                c.end,
                raw,
                exact,
                issues.as_ref().map_or(0, PyListMethods::len),
            );
            calls.append(call)?;
        }
        Ok(())
    }
}

/// Text shorter than this is made a `str` at once: deferring it costs as much.
pub(crate) const DEFER_BYTES: usize = 64;

/// A result's `content`: an object, or text whose `str` is made on first read.
pub(crate) enum ContentValue<'py> {
    Object(Bound<'py, PyAny>),
    Deferred(DeferredText),
}

impl<'py> ContentValue<'py> {
    /// The object a result built in Python stores (a [`DeferredText`] for deferred text). A
    /// result built natively keeps deferred text in itself instead (see `pyslots`).
    pub(crate) fn object(self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match self {
            ContentValue::Object(object) => Ok(object),
            ContentValue::Deferred(text) => text.object(py),
        }
    }
}

/// The content of a parse of `source`: the source itself when it is all content, else
/// deferred text of the characters the engine says it is made of (one slice of `source`
/// when it is one run, else the engine's UTF-8).
fn content_value<'py>(
    py: Python<'py>,
    source: Option<&Bound<'py, PyString>>,
    text: &str,
    content: &Content<'_>,
) -> ContentValue<'py> {
    match (source, content.run) {
        // A text without segments is its own content: the caller's object, not a copy.
        (Some(source), Some((0, _))) if content.text.len() == text.len() => {
            ContentValue::Object(source.clone().into_any())
        }
        (Some(source), Some((a, b)))
            if content.text.len() >= DEFER_BYTES
                && source.len().is_ok_and(|n| may_hold(n, b - a)) =>
        {
            ContentValue::Deferred(DeferredText::slice(source.clone().unbind(), a, b))
        }
        _ => text_value(py, Cow::Borrowed(&content.text)),
    }
}

/// The objects of gathered ends (the batch API's results).
pub(crate) fn one_shot_objects<'py>(
    py: Python<'py>,
    content: ContentValue<'py>,
    ends: &mut [End],
    shared: &mut SharedObjects,
) -> PyResult<Objects<'py>> {
    let calls = PyList::empty(py);
    let mut issues = None;
    for end in ends {
        shared.add(py, end, &calls, &mut issues)?;
    }
    Ok((content, calls, issues))
}

/// Text the engine made (a content it joined) as a result field: a `str` when short, else
/// deferred (taken as it is when owned, not copied).
pub(crate) fn text_value<'py>(py: Python<'py>, text: Cow<'_, str>) -> ContentValue<'py> {
    if text.len() < DEFER_BYTES {
        return ContentValue::Object(PyString::new(py, &text).into_any());
    }
    ContentValue::Deferred(DeferredText::owned(text.into_owned()))
}

/// Inputs at least this long are turned into objects with the cycle collector paused.
pub(crate) const PAUSE_GC_BYTES: usize = 64 * 1024;

/// A one-shot parse of `source` by `engine`, its ends turned into objects as they are made.
/// With `tool_calls`, the calls are `ToolCall`s (for a parser without a tools schema, which
/// would only build the same from the tuples, paying for a Python loop per call).
pub(crate) fn parse_to_objects<'py>(
    py: Python<'py>,
    engine: &mut StreamEngine,
    text: &str,
    source: Option<&Bound<'py, PyString>>,
    tool_calls: bool,
) -> PyResult<Objects<'py>> {
    // A response that long may hold thousands of calls or issues (see `gcpause`).
    let _pause = GcPause::when(py, text.len() >= PAUSE_GC_BYTES)?;
    let mut shared = SharedObjects::default();
    shared.set_source(source.cloned());
    if tool_calls {
        shared.build_tool_calls(py)?;
    }
    let state = Arc::new(Mutex::new(ObjectState {
        calls: PyList::empty(py).unbind(),
        issues: PyList::empty(py).unbind(),
        shared,
        error: None,
    }));
    let sink = ObjectEnds(Arc::clone(&state));
    let (content, sink) = toolsift_core::stream::oneshot::parse_each(engine, text, Box::new(sink));
    drop(sink);
    let mut state = state.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(error) = state.error.take() {
        return Err(error);
    }
    let content = content_value(py, source, text, &content);
    let (calls, issues) = (state.calls.bind(py).clone(), state.issues.bind(py).clone());
    Ok((content, calls, Some(issues)))
}

/// A one-shot parse's `(content, calls, issues)`.
/// `issues` is `None` when there are none (no list was made).
pub(crate) type Objects<'py> = (
    ContentValue<'py>,
    Bound<'py, PyList>,
    Option<Bound<'py, PyList>>,
);

/// `issues` of [`Objects`] as a list.
pub(crate) fn issue_list<'py>(
    py: Python<'py>,
    issues: Option<Bound<'py, PyList>>,
) -> Bound<'py, PyList> {
    issues.unwrap_or_else(|| PyList::empty(py))
}

struct ObjectState {
    calls: Py<PyList>,
    issues: Py<PyList>,
    shared: SharedObjects,
    /// The first error; later ends are dropped.
    error: Option<PyErr>,
}

/// Builds each end's objects as the engine hands it over. The engine runs with the GIL held
/// (a one-shot parse is not detached), so attaching here only re-enters it.
struct ObjectEnds(Arc<Mutex<ObjectState>>);

impl EndSink for ObjectEnds {
    fn end(&mut self, mut end: End) {
        let mut state = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if state.error.is_some() {
            return;
        }
        let result = Python::attach(|py| {
            let ObjectState {
                calls,
                issues,
                shared,
                ..
            } = &mut *state;
            shared.add(
                py,
                &mut end,
                calls.bind(py),
                &mut Some(issues.bind(py).clone()),
            )
        });
        if let Err(error) = result {
            state.error = Some(error);
        }
    }
}
