//! Batch parsing: many texts at once, with the GIL released and the work spread over a Rayon
//! pool. Inputs are held as `PyBackedStr`: the UTF-8 bytes `CPython` keeps for the string (for
//! an ASCII `str`, its own data), borrowed without a copy and readable without the GIL, so no
//! Python object is touched while the pool runs. They are released with the GIL held.

use std::borrow::Cow;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use pyo3::prelude::*;
use pyo3::pybacked::PyBackedStr;
use pyo3::types::{PyDict, PyList, PyString};
use rayon::prelude::*;
use rayon::{ThreadPool, ThreadPoolBuilder};
use toolsift_core::stream::oneshot::{self, Lean};
use toolsift_core::stream::StreamEngine;

use crate::columns::Findings;
use crate::gcpause::GcPause;
use crate::pyoneshot::{one_shot_objects, SharedObjects, PAUSE_GC_BYTES};
use crate::pystream::{build_syntaxes, unknown};

/// What every engine of one batch is built from; plain data, so every worker builds its own.
pub(crate) struct EngineConfig {
    names: Vec<String>,
    marker: Option<String>,
    max_payload_chars: Option<usize>,
}

impl EngineConfig {
    pub(crate) fn checked(
        py: Python<'_>,
        names: Vec<String>,
        marker: Option<String>,
        max_payload_chars: Option<usize>,
    ) -> PyResult<Self> {
        build_syntaxes(&names, marker.as_deref(), max_payload_chars).map_err(|n| unknown(py, n))?;
        Ok(Self {
            names,
            marker,
            max_payload_chars,
        })
    }

    pub(crate) fn engine(&self) -> StreamEngine {
        // The names were checked when the config was made, so none is dropped here.
        let syntaxes = build_syntaxes(&self.names, self.marker.as_deref(), self.max_payload_chars)
            .unwrap_or_default();
        let mut engine = StreamEngine::new(syntaxes);
        engine.set_previews(false);
        engine
    }
}

/// Pools built so far, by size.
type Pools = Mutex<Vec<(usize, Arc<ThreadPool>)>>;

/// A pool of `workers` threads, built once per size and kept (building one costs a thread
/// start per worker, which small batches would feel). `None` when threads cannot be started.
fn pool(workers: usize) -> Option<Arc<ThreadPool>> {
    static POOLS: OnceLock<Pools> = OnceLock::new();
    let mut pools = POOLS
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(PoisonError::into_inner);
    if let Some((_, p)) = pools.iter().find(|(n, _)| *n == workers) {
        return Some(Arc::clone(p));
    }
    let built = Arc::new(ThreadPoolBuilder::new().num_threads(workers).build().ok()?);
    pools.push((workers, Arc::clone(&built)));
    Some(built)
}

fn default_workers() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
}

/// Runs of texts per worker thread (see `run`).
const RUNS_PER_WORKER: usize = 8;

/// Parses every text, in input order; the same output whatever `workers` is.
fn run<S: AsRef<str> + Sync>(texts: &[S], config: &EngineConfig, workers: usize) -> Vec<Lean> {
    let sequential = || {
        let mut engine = config.engine();
        texts
            .iter()
            .map(|t| oneshot::parse_lean(&mut engine, t.as_ref()))
            .collect()
    };
    if workers <= 1 || texts.len() < 2 {
        return sequential();
    }
    match pool(workers) {
        // Contiguous runs, a few per worker so a slow run can be balanced by the others, and
        // one engine per run: `map_init` may build an engine per split, and building one costs
        // more than parsing a short text.
        Some(p) => p.install(|| {
            let run_len = texts.len().div_ceil(workers * RUNS_PER_WORKER).max(1);
            let runs: Vec<Vec<Lean>> = texts
                .par_chunks(run_len)
                .map(|run| {
                    let mut engine = config.engine();
                    run.iter()
                        .map(|t| oneshot::parse_lean(&mut engine, t.as_ref()))
                        .collect()
                })
                .collect();
            runs.into_iter().flatten().collect()
        }),
        None => sequential(),
    }
}

/// The texts of a sequence of `str`, borrowed (the GIL is held). A `str` holding a lone
/// surrogate has no UTF-8 form and raises `UnicodeEncodeError`.
fn borrowed_texts(texts: &Bound<'_, PyAny>) -> PyResult<Vec<PyBackedStr>> {
    let mut out: Vec<PyBackedStr> = Vec::new();
    for item in texts.try_iter()? {
        out.push(item?.cast_into::<PyString>()?.try_into()?);
    }
    Ok(out)
}

/// `[(content, calls, issues)]` as `NativeStream.parse_all` gives each; `texts` are the inputs
/// of `results`, whose own object is the content of a text without segments. With
/// `tool_calls`, the calls are `ToolCall`s.
fn to_py_results<'py>(
    py: Python<'py>,
    texts: &[PyBackedStr],
    results: Vec<Lean>,
    tool_calls: bool,
) -> PyResult<Bound<'py, PyList>> {
    let bytes: usize = texts.iter().map(|t| t.len()).sum();
    let _pause = GcPause::when(py, bytes >= PAUSE_GC_BYTES || results.len() >= 1024)?;
    let mut shared = SharedObjects::default();
    if tool_calls {
        shared.build_tool_calls(py)?;
    }
    let out = results
        .into_iter()
        .zip(texts)
        .map(|(one, text)| {
            let content = match one.content {
                Some(content) => PyString::new(py, &content),
                None => text.into_pyobject(py)?,
            };
            one_shot_objects(py, content, &one.ends, &mut shared)
        })
        .collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, out)
}

/// Parses `texts` (a sequence of `str`) and returns `[(content, calls, issues)]` in input order, each
/// as `NativeStream.parse_all` gives it. A text holding a lone surrogate raises
/// `UnicodeEncodeError` (the caller replaces them and retries).
#[pyfunction]
#[pyo3(signature = (texts, syntaxes, *, marker = None, max_payload_chars = None, workers = None,
                    tool_calls = false))]
pub fn parse_many<'py>(
    py: Python<'py>,
    texts: &Bound<'py, PyAny>,
    syntaxes: Vec<String>,
    marker: Option<String>,
    max_payload_chars: Option<usize>,
    workers: Option<usize>,
    tool_calls: bool,
) -> PyResult<Bound<'py, PyList>> {
    let config = EngineConfig::checked(py, syntaxes, marker, max_payload_chars)?;
    let borrowed = borrowed_texts(texts)?;
    let workers = workers.unwrap_or_else(default_workers);
    let results = py.detach(|| run(&borrowed, &config, workers));
    to_py_results(py, &borrowed, results, tool_calls)
}

fn read_offset(offsets: &[u8], index: usize) -> Option<usize> {
    let bytes = offsets.get(index * 8..index * 8 + 8)?;
    let value = i64::from_ne_bytes(bytes.try_into().ok()?);
    usize::try_from(value).ok()
}

/// The texts of an Arrow `large_string` array given as its offsets buffer (`i64` in native
/// byte order) and data buffer, rows `start..start + length`. Invalid UTF-8 is read lossily.
fn arrow_texts<'a>(
    offsets: &[u8],
    data: &'a [u8],
    start: usize,
    length: usize,
) -> Result<Vec<Cow<'a, str>>, String> {
    let mut texts = Vec::with_capacity(length);
    for row in start..start + length {
        let bad = || format!("offsets buffer does not hold row {row}");
        let a = read_offset(offsets, row).ok_or_else(bad)?;
        let b = read_offset(offsets, row + 1).ok_or_else(bad)?;
        let bytes = data
            .get(a..b)
            .ok_or_else(|| format!("row {row}: bytes {a}..{b} lie outside the data buffer"))?;
        texts.push(String::from_utf8_lossy(bytes));
    }
    Ok(texts)
}

/// Parses the rows of an Arrow `large_string` array straight from its buffers (no Python
/// string per row) and returns the calls and issues as Arrow-ready column buffers: a dict
/// `{"calls": {column: buffers}, "issues": {column: buffers}}` (see `columns.rs`).
#[pyfunction]
#[pyo3(signature = (offsets, data, start, length, syntaxes, *, marker = None,
                    max_payload_chars = None, workers = None))]
#[allow(clippy::too_many_arguments)]
pub fn parse_arrow_buffers<'py>(
    py: Python<'py>,
    offsets: &[u8],
    data: &[u8],
    start: usize,
    length: usize,
    syntaxes: Vec<String>,
    marker: Option<String>,
    max_payload_chars: Option<usize>,
    workers: Option<usize>,
) -> PyResult<Bound<'py, PyDict>> {
    let config = EngineConfig::checked(py, syntaxes, marker, max_payload_chars)?;
    let workers = workers.unwrap_or_else(default_workers);
    let findings = py.detach(|| {
        let texts = arrow_texts(offsets, data, start, length)?;
        let results = run(&texts, &config, workers);
        Ok::<_, String>(Findings::collect(results))
    });
    findings
        .map_err(pyo3::exceptions::PyValueError::new_err)?
        .into_py_dict(py)
}
