//! `StreamCore`, the native base class of `toolsift.StreamParser`. Its `feed` runs in Rust from
//! the call to the returned list: a stream of token-sized chunks calls `feed` for every few
//! characters, so a Python frame, a lock object and a Python loop over the events would cost
//! more than the engine itself. Only a segment's end, which carries a Python `ToolCall`, goes
//! back to Python (`StreamParser._end`); chunks the engine does not read (provider objects)
//! go to `StreamParser._feed`.

use std::sync::atomic::{AtomicBool, Ordering};

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyTuple};
use pyo3::{intern, IntoPyObjectExt};

use crate::pyevents::SegmentEnd;
use crate::pystream::{to_object, NativeStream};
use crate::pytext::char_slice;
use toolsift_core::offsets::char_count;
use toolsift_core::stream::events::{Call, Event, SegmentId};
use toolsift_core::strict_json::has_long_digit_run;

/// The state `StreamParser` keeps in Rust; see the module docs.
#[pyclass(subclass, module = "toolsift._native")]
pub struct StreamCore {
    native: Option<Py<NativeStream>>,
    keep: bool,
    /// Set while a call is inside the parser: an overlapping call from another thread (possible
    /// whenever Python code runs, as in `_end`) is refused instead of corrupting the stream.
    busy: AtomicBool,
}

/// Clears [`StreamCore::busy`] however the call ends.
struct Busy<'a>(&'a AtomicBool);

impl Drop for Busy<'_> {
    fn drop(&mut self) {
        self.0.store(false, Ordering::Release);
    }
}

/// A Python object from `module`, imported once.
fn imported<'py>(
    py: Python<'py>,
    cell: &'static PyOnceLock<Py<PyAny>>,
    module: &str,
    name: &str,
) -> PyResult<&'py Bound<'py, PyAny>> {
    cell.get_or_try_init(py, || Ok(py.import(module)?.getattr(name)?.unbind()))
        .map(|v| v.bind(py))
}

#[cold]
fn concurrent_use(py: Python<'_>) -> PyErr {
    static CLASS: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let message = "this StreamParser is in use by another thread; one parser reads one stream, \
                   so give each thread its own parser";
    match imported(py, &CLASS, "toolsift.errors", "ConcurrentUseError")
        .and_then(|cls| cls.call1((message, py.None(), "concurrent_use")))
    {
        Ok(instance) => PyErr::from_value(instance),
        Err(e) => e,
    }
}

/// A segment end waiting for Python: its list index, syntax, id, call, issue, and with a call
/// its arguments as UTF-8 bytes (for `_end`).
type PendingEnd<'py> = (
    usize,
    &'static str,
    SegmentId,
    Option<Bound<'py, PyAny>>,
    Option<Bound<'py, PyAny>>,
    Option<Bound<'py, PyBytes>>,
);

/// The call tuple `_end` reads (as `pystream::call_tuple` builds it, long-digit check
/// included), plus the arguments' UTF-8 bytes. A call's arguments are most often the model's
/// own bytes inside `raw`: they are then sliced out of the Python `raw` string (a copy) instead
/// of decoded from UTF-8 a second time, which for a call carrying a whole file is most of its
/// cost.
fn call_parts(py: Python<'_>, c: Call) -> PyResult<(Bound<'_, PyAny>, Bound<'_, PyBytes>)> {
    let json = c.arguments_json();
    let utf8 = PyBytes::new(py, json.as_bytes());
    let long = has_long_digit_run(json.as_bytes());
    let raw = PyString::new(py, &c.raw);
    let arguments = match find_within(&c.raw, &json) {
        Some(at) => {
            let from = char_count(&c.raw.as_bytes()[..at]);
            let to = from + char_count(json.as_bytes());
            char_slice(&raw, from, to)?.into_any()
        }
        None => PyString::new(py, &json).into_any(),
    };
    drop(json);
    let repairs = PyTuple::new(py, c.repairs)?;
    let call = (c.name, arguments, repairs, c.start, c.end, raw, long).into_bound_py_any(py)?;
    Ok((call, utf8))
}

/// Where `part` occurs in `whole`, for a part long enough to be worth slicing: found by its
/// first bytes, then compared whole.
fn find_within(whole: &str, part: &str) -> Option<usize> {
    const MIN: usize = 256;
    if part.len() < MIN {
        return None;
    }
    let head = &part.as_bytes()[..64];
    let finder = memchr::memmem::Finder::new(head);
    finder
        .find_iter(whole.as_bytes())
        .find(|&at| whole.as_bytes()[at..].starts_with(part.as_bytes()))
}

/// An event on its way into the list `feed` returns. The list takes the events straight
/// from the engine's buffer (converting each as it is placed), with no vector of converted
/// objects in between: that vector was an allocation and a free for every chunk with events.
enum Item<'py> {
    Ready(Bound<'py, PyAny>),
    Failed(PyErr),
}

impl<'py> IntoPyObject<'py> for Item<'py> {
    type Target = PyAny;
    type Output = Bound<'py, PyAny>;
    type Error = PyErr;

    fn into_pyobject(self, _py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match self {
            Item::Ready(object) => Ok(object),
            Item::Failed(err) => Err(err),
        }
    }
}

/// Turns `events` into a list of Python objects, gathering content and segment syntaxes into
/// `stream`'s fields; ends are left as `None` in the list and returned for [`finish_ends`].
fn convert<'py>(
    py: Python<'py>,
    events: impl ExactSizeIterator<Item = Event>,
    content: &mut String,
    open: &mut Vec<(SegmentId, &'static str)>,
    keep: bool,
    ends: &mut Vec<PendingEnd<'py>>,
) -> PyResult<Bound<'py, PyList>> {
    let items = events.enumerate().map(|(index, event)| {
        match event {
            Event::TextDelta { ref id, ref text } if keep && id.starts_with("text_") => {
                content.push_str(text);
            }
            Event::SegmentStart { ref id, syntax, .. } => open.push((id.clone(), syntax)),
            Event::SegmentEnd { id, call, issue } => {
                let syntax = match open.iter().position(|(open_id, _)| *open_id == id) {
                    Some(at) => open.swap_remove(at).1,
                    None => "text",
                };
                let (call, utf8) = match call.map(|c| call_parts(py, c)).transpose() {
                    Ok(Some((call, utf8))) => (Some(call), Some(utf8)),
                    Ok(None) => (None, None),
                    Err(err) => return Item::Failed(err),
                };
                let issue = match issue
                    .map(|i| (i.kind, i.message, i.start, i.end).into_bound_py_any(py))
                    .transpose()
                {
                    Ok(issue) => issue,
                    Err(err) => return Item::Failed(err),
                };
                ends.push((index, syntax, id, call, issue, utf8));
                return Item::Ready(py.None().into_bound(py));
            }
            _ => {}
        }
        // Converted here rather than in `into_pyobject`: one move of the event fewer.
        match to_object(py, event) {
            Ok(object) => Item::Ready(object),
            Err(err) => Item::Failed(err),
        }
    });
    PyList::new(py, items)
}

/// Builds the `SegmentEnd` of each pending end into `list`: a text segment's directly, one
/// with a call or an issue through `StreamParser._end`.
fn finish_ends<'py>(
    owner: &Bound<'py, StreamCore>,
    list: &Bound<'py, PyList>,
    ends: Vec<PendingEnd<'py>>,
) -> PyResult<()> {
    let py = owner.py();
    for (index, syntax, id, call, issue, utf8) in ends {
        let end = if call.is_none() && issue.is_none() {
            Bound::new(py, SegmentEnd::build(id, None, None))?.into_any()
        } else {
            owner.call_method1(intern!(py, "_end"), (&*id, call, issue, syntax, utf8))?
        };
        list.set_item(index, end)?;
    }
    Ok(())
}

impl StreamCore {
    /// Runs `step` on the engine and converts its events; ends go through Python after the
    /// engine is released.
    fn run<'py>(
        slf: &Bound<'py, Self>,
        native: &Py<NativeStream>,
        keep: bool,
        step: impl FnOnce(&mut toolsift_core::stream::StreamEngine, &mut Converter<'_, 'py>),
    ) -> PyResult<Bound<'py, PyList>> {
        let py = slf.py();
        let mut ends = Vec::new();
        let list = {
            let mut guard = native
                .bind(py)
                .try_borrow_mut()
                .map_err(|_| concurrent_use(py))?;
            let stream = &mut *guard;
            let mut conv = Converter {
                py,
                content: &mut stream.content,
                open: &mut stream.open,
                keep,
                ends: &mut ends,
                out: None,
            };
            step(&mut stream.engine, &mut conv);
            conv.out.take().unwrap_or_else(|| Ok(PyList::empty(py)))?
        };
        if !ends.is_empty() {
            finish_ends(slf, &list, ends)?;
        }
        Ok(list)
    }
}

/// What [`StreamCore::run`] hands its step: converts the events the step produced.
struct Converter<'a, 'py> {
    py: Python<'py>,
    content: &'a mut String,
    open: &'a mut Vec<(SegmentId, &'static str)>,
    keep: bool,
    ends: &'a mut Vec<PendingEnd<'py>>,
    out: Option<PyResult<Bound<'py, PyList>>>,
}

impl Converter<'_, '_> {
    fn take(&mut self, events: impl ExactSizeIterator<Item = Event>) {
        self.out = Some(convert(
            self.py,
            events,
            self.content,
            self.open,
            self.keep,
            self.ends,
        ));
    }
}

#[pymethods]
impl StreamCore {
    // `StreamParser(...)` passes its own arguments here; `StreamParser.__init__` reads them
    // and calls `_bind`.
    #[new]
    #[pyo3(signature = (*_args, **_kwargs))]
    fn new(_args: &Bound<'_, PyTuple>, _kwargs: Option<&Bound<'_, PyDict>>) -> Self {
        Self {
            native: None,
            keep: true,
            busy: AtomicBool::new(false),
        }
    }

    /// Sets the engine text chunks go to (`None`: every chunk goes to `_feed`) and whether the
    /// content is gathered for `result()`.
    fn _bind(&mut self, native: Option<Py<NativeStream>>, keep: bool) {
        self.native = native;
        self.keep = keep;
    }

    /// Marks the parser busy, or raises `ConcurrentUseError` when it already is.
    fn _acquire(&self, py: Python<'_>) -> PyResult<()> {
        if self.busy.swap(true, Ordering::Acquire) {
            return Err(concurrent_use(py));
        }
        Ok(())
    }

    /// Ends what `_acquire` began.
    fn _release(&self) {
        self.busy.store(false, Ordering::Release);
    }

    /// Consumes ``chunk``; returns the events it produced.
    fn feed<'py>(slf: &Bound<'py, Self>, chunk: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        static CLEAN: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
        let py = slf.py();
        let this = slf.borrow();
        if this.busy.swap(true, Ordering::Acquire) {
            return Err(concurrent_use(py));
        }
        let _busy = Busy(&this.busy);
        let (Some(native), Ok(text)) = (&this.native, chunk.cast::<PyString>()) else {
            return slf.call_method1(intern!(py, "_feed"), (chunk,));
        };
        let owned;
        let text = if let Ok(s) = text.to_str() {
            s
        } else {
            // Lone surrogates: UTF-8 cannot hold them; they become U+FFFD one for one.
            let clean = imported(py, &CLEAN, "toolsift._text", "without_surrogates")?;
            owned = clean.call1((text,))?.extract::<String>()?;
            owned.as_str()
        };
        let list = Self::run(slf, native, this.keep, |engine, conv| {
            conv.take(engine.feed_drain(text));
        })?;
        Ok(list.into_any())
    }

    /// The engine's `finish`, converted as `feed` converts (the caller holds `_acquire`).
    fn _finish_engine<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyList>> {
        let this = slf.borrow();
        let Some(native) = &this.native else {
            return Ok(PyList::empty(slf.py()));
        };
        Self::run(slf, native, this.keep, |engine, conv| {
            conv.take(engine.finish().into_iter());
        })
    }
}
