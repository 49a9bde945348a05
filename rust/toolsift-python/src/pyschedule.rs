//! One schedule for a whole batch, every syntax group in it: the texts are cut into slices,
//! `workers - 1` threads parse slices in order without the GIL, and the calling thread, which
//! must hold the GIL to build Python objects, builds each slice's results and, while the one
//! it needs is not ready, parses the lowest untaken slice and builds that one at once (see
//! `__next__`); slices are handed out in order. So `workers` threads are busy at most, and
//! the building (as long as the parsing on this corpus) overlaps the parsing instead of
//! following it.
//!
//! Why not the Rayon pool per group: a corpus in 28 syntaxes was 28 calls into the pool, each
//! waking its threads and draining it at the end, and two workers took longer than one (CPU
//! +41%); the pool's threads also competed for the two cores with the thread building objects.

use std::borrow::Cow;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Condvar, Mutex, PoisonError};

use pyo3::prelude::*;
use pyo3::pybacked::PyBackedStr;
use pyo3::types::{PyList, PyString, PyTuple};
use toolsift_core::stream::oneshot::{self, Lean};
use toolsift_core::stream::StreamEngine;

use crate::gcpause::GcPause;
use crate::prefetch;
use crate::pybatch::EngineConfig;
use crate::pydeferred::{may_hold, DeferredText};
use crate::pyoneshot::{
    issue_list, one_shot_objects, text_value, ContentValue, SharedObjects, PAUSE_GC_BYTES,
};
use crate::pyslots::parse_result;
use crate::pystream::{known_tools_of, KnownTool};
use crate::pytext::surrogates_replaced;
use crate::pywide::Wide;
use crate::workers::{helpers, Task};

/// Slices per worker at least, so a slow slice near the end is balanced by the others (16
/// rather than 8: the same wall time at 2 workers, for ~8% less CPU).
const SLICES_PER_WORKER: usize = 16;

/// A text as the engine reads it: the caller's own UTF-8, code points a worker encodes (see
/// `pywide`), or a copy with each lone surrogate replaced by U+FFFD (see `pytext`).
enum Input {
    Borrowed(PyBackedStr),
    Wide(Wide),
    Fixed(String),
}

impl Input {
    /// Asks the cache for its text (see [`prefetch::text`]).
    fn prefetch(&self) {
        match self {
            Input::Borrowed(s) => prefetch::text(s.as_ptr(), s.len()),
            Input::Wide(w) => prefetch::text(w.data(), w.size_hint()),
            Input::Fixed(s) => prefetch::text(s.as_ptr(), s.len()),
        }
    }

    /// Its UTF-8 size, or for a [`Wide`] text its storage size (see `Wide::size_hint`).
    fn size(&self) -> usize {
        match self {
            Input::Borrowed(s) => s.len(),
            Input::Wide(w) => w.size_hint(),
            Input::Fixed(s) => s.len(),
        }
    }
}

/// A group as Python hands it over: `(texts, syntaxes, marker, max_payload_chars, tool_calls,
/// results)`.
type GroupArgs<'py> = (
    Bound<'py, PyAny>,
    Vec<String>,
    Option<String>,
    Option<usize>,
    bool,
    bool,
    Vec<KnownTool>,
);

struct Group {
    config: EngineConfig,
    /// Calls are built as `ToolCall`s (no tools schema to apply in Python).
    tool_calls: bool,
    /// Each text's result is built as the `ParseResult` itself, for a group whose results
    /// need nothing more: a Python call per text to build it cost ~8% of a batch.
    results: bool,
    /// Its texts, which its slices are ranges of (moved into a vector per slice they were
    /// ~10% of the instructions of building the schedule, serial work before any parsing).
    texts: Vec<Input>,
}

/// Texts `start..end` of a group.
struct Slice {
    group: usize,
    start: usize,
    end: usize,
}

/// A slice's results, and the texts a worker encoded with lone surrogates replaced (by
/// position in the slice, ascending): the calling thread needs those as they were read.
type Outcome = Result<(Vec<Lean>, Vec<(usize, String)>), String>;

/// A parsed slice and the helper thread that parsed it (`None`: the calling thread).
type Parsed = (Outcome, Option<usize>);

struct Shared {
    groups: Vec<Group>,
    slices: Vec<Slice>,
    /// The lowest slice no thread has taken.
    next: AtomicUsize,
    done: Mutex<Vec<Option<Parsed>>>,
    ready: Condvar,
    /// By helper thread, results it parsed that are built: it frees them between slices.
    spent: Vec<Mutex<Vec<Vec<Lean>>>>,
}

impl Shared {
    /// Parses slice `i` with this thread's engines (one per group, built on first use);
    /// `by` is the helper thread's index, `None` on the calling thread.
    fn parse(&self, i: usize, engines: &mut [Option<StreamEngine>], by: Option<usize>) -> Parsed {
        let slice = &self.slices[i];
        let texts = self.texts(slice);
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            let engine = engines[slice.group]
                .get_or_insert_with(|| self.groups[slice.group].config.engine());
            let mut replaced = Vec::new();
            let mut buffer = String::new();
            let leans = (texts.iter().enumerate())
                .map(|(k, t)| {
                    if let Some(next) = texts.get(k + 1) {
                        next.prefetch();
                    }
                    match t {
                        // Content is left as ranges of a text the caller's `str` holds as
                        // read (see `content_runs`).
                        Input::Borrowed(s) => oneshot::parse_lean_runs(engine, s, RUNS_FROM),
                        Input::Fixed(s) => oneshot::parse_lean(engine, s),
                        Input::Wide(w) => {
                            if w.encode_into(&mut buffer) {
                                replaced.push((k, buffer.clone()));
                                oneshot::parse_lean(engine, &buffer)
                            } else {
                                oneshot::parse_lean_runs(engine, &buffer, RUNS_FROM)
                            }
                        }
                    }
                })
                .collect::<Vec<_>>();
            (leans, replaced)
        }))
        .map_err(|_| "internal error while parsing a batch".to_string());
        (outcome, by)
    }

    /// A slice's texts.
    fn texts(&self, slice: &Slice) -> &[Input] {
        let group = &self.groups[slice.group].texts;
        group.get(slice.start..slice.end).unwrap_or_default()
    }

    /// Helper thread `index`: takes the lowest untaken slice until none is left, freeing the
    /// results of its own slices that are built before each (see [`Shared::spent`]).
    fn work(&self, index: usize) {
        let mut engines: Vec<Option<StreamEngine>> = self.groups.iter().map(|_| None).collect();
        loop {
            self.free_spent(index);
            let i = self.next.fetch_add(1, Ordering::Relaxed);
            if i >= self.slices.len() {
                self.free_spent(index);
                return;
            }
            let parsed = self.parse(i, &mut engines, Some(index));
            let mut done = self.done.lock().unwrap_or_else(PoisonError::into_inner);
            done[i] = Some(parsed);
            self.ready.notify_all();
        }
    }

    /// Frees the results helper `index` parsed that are built. Freed between its slices,
    /// their blocks are still in its cache when its next slice allocates: sent back as a task
    /// they waited until the helper's loop ended, so each slice allocated cold memory
    /// (mimalloc's allocation path was ~10% of the helper's time, against ~6% for one worker).
    fn free_spent(&self, index: usize) {
        let Some(spent) = self.spent.get(index) else {
            return;
        };
        let spent = std::mem::take(&mut *spent.lock().unwrap_or_else(PoisonError::into_inner));
        for results in spent {
            prefetch::drop_all(results);
        }
    }

    /// Hands slice results helper `by` parsed back to it to free: between its slices while
    /// it still takes slices, else as a task for after its loop.
    fn give_back(&self, by: usize, results: Vec<Lean>, helpers: &[Sender<Task>]) {
        if self.next.load(Ordering::Relaxed) < self.slices.len() {
            if let Some(spent) = self.spent.get(by) {
                spent
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .push(results);
                return;
            }
        }
        if let Some(helper) = helpers.get(by) {
            let _ = helper.send(Task::Free(results));
        }
    }
}

/// The batch being parsed; iterating yields `(group, start, results, fixed)` per slice, in
/// order, where `results` are as `parse_many` returns them and `fixed` lists the positions
/// (within the slice) of texts read with lone surrogates replaced.
#[pyclass(module = "toolsift._native")]
pub struct BatchRun {
    shared: Arc<Shared>,
    /// The helper threads working on it, by index.
    helpers: Vec<Sender<Task>>,
    /// The slice this thread hands out next.
    at: usize,
    engines: Vec<Option<StreamEngine>>,
    objects: SharedObjects,
    /// Slices this thread parsed and built ahead of their turn, by index.
    early: Vec<Option<Py<PyTuple>>>,
}

/// A group's texts; a `str` with lone surrogates is copied with them replaced.
fn inputs(texts: &Bound<'_, PyAny>) -> PyResult<Vec<Input>> {
    let mut out = Vec::with_capacity(texts.len().unwrap_or(0));
    for item in texts.try_iter()? {
        let s = item?.cast_into::<PyString>()?;
        if let Some(wide) = Wide::of(&s) {
            out.push(Input::Wide(wide));
            continue;
        }
        out.push(match PyBackedStr::try_from(s.clone()) {
            Ok(b) => Input::Borrowed(b),
            Err(_) => Input::Fixed(surrogates_replaced(&s)?),
        });
    }
    Ok(out)
}

/// How a batch is cut into slices.
#[derive(Clone, Copy)]
struct Plan {
    /// Bytes a slice holds at most: the batch's size over its workers and
    /// [`SLICES_PER_WORKER`], but at least `min_slice_bytes`.
    target: usize,
    /// The smallest slice of the batch's end (see [`Plan::limit`]); `target` with one worker,
    /// whose slices overlap nothing.
    tail: usize,
    workers: usize,
}

impl Plan {
    /// Bytes the slice that starts with `remaining` bytes of the batch left to cut holds at
    /// most. Near the end the slices shrink (guided scheduling): with equal slices, when a
    /// helper parsed its last one the calling thread still had one or two of a full size to
    /// build (1.2-2.5 ms a 2-worker pass of the sample corpus, traced, the helper idle all
    /// that time); a small last slice leaves a short build after the parsing ends.
    fn limit(self, remaining: usize) -> usize {
        (remaining / self.workers.saturating_mul(TAIL_SLICES))
            .min(self.target)
            .max(self.tail)
    }
}

/// Slices per worker that the end of a batch is cut into, each smaller than the last.
const TAIL_SLICES: usize = 4;

/// Cuts every group into slices (never across groups) of at most [`Plan::limit`] bytes;
/// `total` is the size of all the groups' texts.
fn slices(groups: &[Group], plan: Plan, total: usize) -> Vec<Slice> {
    let mut remaining = total;
    let mut out = Vec::new();
    for (group, g) in groups.iter().enumerate() {
        let mut start = 0;
        let mut size = 0;
        let mut limit = plan.limit(remaining);
        for (k, t) in g.texts.iter().enumerate() {
            size += t.size();
            if size >= limit {
                out.push(Slice {
                    group,
                    start,
                    end: k + 1,
                });
                start = k + 1;
                remaining = remaining.saturating_sub(size);
                size = 0;
                limit = plan.limit(remaining);
            }
        }
        remaining = remaining.saturating_sub(size);
        if start < g.texts.len() {
            out.push(Slice {
                group,
                start,
                end: g.texts.len(),
            });
        }
    }
    out
}

#[pymethods]
impl BatchRun {
    /// `groups`: `(texts, syntaxes, marker, max_payload_chars, tool_calls, results,
    /// known_tools)` each. A slice
    /// holds at least `min_slice_bytes` of text (fewer cost more in hand-over than they save),
    /// but for the last few of a batch parsed by several workers, which shrink down to
    /// `tail_slice_bytes` (see [`Plan::limit`]).
    #[new]
    #[pyo3(signature = (groups, *, workers, min_slice_bytes = 65_536, tail_slice_bytes = 16_384))]
    fn new(
        py: Python<'_>,
        groups: Vec<GroupArgs<'_>>,
        workers: usize,
        min_slice_bytes: usize,
        tail_slice_bytes: usize,
    ) -> PyResult<Self> {
        let workers = workers.max(1);
        let mut configs = Vec::with_capacity(groups.len());
        for (items, names, marker, max_payload_chars, tool_calls, results, known) in groups {
            let known = known_tools_of(known);
            configs.push(Group {
                config: EngineConfig::checked(py, names, marker, max_payload_chars, known)?,
                tool_calls,
                results: results && tool_calls,
                texts: inputs(&items)?,
            });
        }
        let total: usize = configs.iter().flat_map(|g| &g.texts).map(Input::size).sum();
        let target = (total / (workers * SLICES_PER_WORKER))
            .max(min_slice_bytes)
            .max(1);
        let tail = if workers == 1 {
            target
        } else {
            tail_slice_bytes.clamp(1, target)
        };
        let slices = slices(
            &configs,
            Plan {
                target,
                tail,
                workers,
            },
            total,
        );
        let done = slices.iter().map(|_| None).collect();
        let helpers = helpers((workers - 1).min(slices.len().saturating_sub(1)));
        let shared = Arc::new(Shared {
            groups: configs,
            slices,
            next: AtomicUsize::new(0),
            done: Mutex::new(done),
            ready: Condvar::new(),
            spent: helpers.iter().map(|_| Mutex::default()).collect(),
        });
        for helper in &helpers {
            let shared = Arc::clone(&shared);
            // A helper that is gone leaves its slices to the others and this thread.
            let _ = helper.send(Task::Run(Arc::new(move |index| shared.work(index))));
        }
        let engines = shared.groups.iter().map(|_| None).collect();
        let early = shared.slices.iter().map(|_| None).collect();
        Ok(Self {
            shared,
            helpers,
            at: 0,
            engines,
            objects: SharedObjects::default(),
            early,
        })
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyTuple>>> {
        let i = self.at;
        if i >= self.shared.slices.len() {
            return Ok(None);
        }
        self.at += 1;
        loop {
            if let Some(built) = self.early.get_mut(i).and_then(Option::take) {
                return Ok(Some(built.into_bound(py)));
            }
            let shared = Arc::clone(&self.shared);
            let engines = &mut self.engines;
            let (j, parsed) = py.detach(|| {
                if let Some(parsed) =
                    shared.done.lock().unwrap_or_else(PoisonError::into_inner)[i].take()
                {
                    return (i, parsed);
                }
                // Slice `i` is not parsed yet: parse the lowest untaken slice here (`i`
                // itself, or one a helper will not reach first) rather than wait. Waiting for
                // `i` only when it was taken left this thread idle whenever building objects
                // was quicker than parsing a slice, because the helpers always took the next
                // slice first: 2 workers ran 1.5x one; with this thread sharing the parsing,
                // 1.7x.
                let j = shared.next.fetch_add(1, Ordering::Relaxed);
                if j < shared.slices.len() {
                    return (j, shared.parse(j, engines, None));
                }
                let mut done = shared.done.lock().unwrap_or_else(PoisonError::into_inner);
                loop {
                    if let Some(parsed) = done[i].take() {
                        return (i, parsed);
                    }
                    done = shared
                        .ready
                        .wait(done)
                        .unwrap_or_else(PoisonError::into_inner);
                }
            });
            let built = self.build(py, j, parsed)?;
            if j == i {
                return Ok(Some(built));
            }
            // A later slice this thread parsed is built now, while what the parse wrote is
            // still in this core's cache, and handed out in its turn. Built in its turn it
            // was read back from memory after the slices before it: a third of a 2-worker
            // pass's slices, and the calling thread is the one that limits the pass.
            self.early[j] = Some(built.unbind());
        }
    }
}

impl BatchRun {
    /// Builds slice `i`'s results from its parse, as `__next__` yields them.
    fn build<'py>(
        &mut self,
        py: Python<'py>,
        i: usize,
        parsed: Parsed,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let shared = Arc::clone(&self.shared);
        let slice = &shared.slices[i];
        let (outcome, by) = parsed;
        let (mut results, replaced) = outcome.map_err(pyo3::exceptions::PyRuntimeError::new_err)?;
        let mut replaced = replaced.into_iter().peekable();
        let group = &shared.groups[slice.group];
        self.objects.set_tool_calls(py, group.tool_calls)?;
        let texts = shared.texts(slice);
        let bytes: usize = texts.iter().map(Input::size).sum();
        let _pause = GcPause::when(py, bytes >= PAUSE_GC_BYTES || results.len() >= 1024)?;
        let mut fixed = Vec::new();
        let mut built = Vec::with_capacity(results.len());
        for (k, input) in texts.iter().enumerate() {
            // Parsed on another core, the results are read through that core's cache.
            if by.is_some() {
                prefetch::ahead(&results, k);
            }
            let Some(one) = results.get_mut(k) else {
                break;
            };
            // The text as read, when it is not the caller's `str`.
            let read: Option<Cow<'_, str>> = match input {
                Input::Fixed(text) => Some(Cow::Borrowed(text)),
                Input::Wide(_) => replaced
                    .next_if(|(at, _)| *at == k)
                    .map(|(_, t)| Cow::Owned(t)),
                Input::Borrowed(_) => None,
            };
            let source = match (input, &read) {
                (Input::Borrowed(text), None) => Some(text.into_pyobject(py)?),
                (Input::Wide(w), None) => Some(w.text(py)),
                (_, Some(_)) | (Input::Fixed(_), None) => None,
            };
            // The engine's content is moved into its result, not copied (the rest of the
            // result goes back to the thread that made it).
            let content = match (one.content.take(), one.content_runs.take(), &source, &read) {
                (Some(content), _, _, _) => text_value(py, Cow::Owned(content)),
                (None, Some(runs), Some(source), _) => content_runs(py, source, runs)?,
                (None, None, Some(source), _) => ContentValue::Object(source.clone().into_any()),
                (None, None, None, read) => ContentValue::Object(
                    PyString::new(py, read.as_deref().unwrap_or("")).into_any(),
                ),
                (None, Some(_), None, _) => {
                    return Err(pyo3::exceptions::PyRuntimeError::new_err(
                        "internal error: content ranges of a text not at hand",
                    ))
                }
            };
            if source.is_none() {
                fixed.push(k);
            }
            // Calls' raw texts are sliced from the caller's `str` (see `SharedObjects::raw`).
            self.objects.set_source(source);
            let (content, calls, issues) =
                one_shot_objects(py, content, &mut one.ends, &mut self.objects)?;
            built.push(if group.results {
                parse_result(py, calls.into_any(), content, issues)?
            } else {
                (content.object(py)?, calls, issue_list(py, issues))
                    .into_pyobject(py)?
                    .into_any()
            });
        }
        // Freed by the thread that allocated them (see `workers`).
        if let Some(by) = by {
            shared.give_back(by, results, &self.helpers);
        }
        let results = PyList::new(py, built)?;
        (slice.group, slice.start, results, fixed).into_pyobject(py)
    }
}

/// Content at least this long (in UTF-8 bytes) is left as ranges of the caller's text (see
/// `oneshot::parse_lean_runs`); shorter content is made a `str` at once, which costs less than
/// slicing and joining runs.
const RUNS_FROM: Option<usize> = Some(crate::pyoneshot::DEFER_BYTES);

/// A content given as code point ranges of `source`: deferred, unless holding `source` for
/// it would keep much more than it (see `may_hold`), then joined now.
fn content_runs<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyString>,
    runs: Vec<(usize, usize)>,
) -> PyResult<ContentValue<'py>> {
    let chars = runs.iter().map(|&(a, b)| b - a).sum();
    let deferred = DeferredText::runs(source.clone().unbind(), runs);
    if may_hold(source.len()?, chars) {
        return Ok(ContentValue::Deferred(deferred));
    }
    Ok(ContentValue::Object(deferred.text(py)?.into_any()))
}

impl Drop for BatchRun {
    fn drop(&mut self) {
        // Dropped before the end (an error while building): the workers stop taking slices.
        let shared = &self.shared;
        shared
            .next
            .fetch_max(shared.slices.len(), Ordering::Relaxed);
    }
}
