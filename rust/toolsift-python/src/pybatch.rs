//! The Arrow batch path (`parse_arrow_buffers`): the rows of a `large_string` column parsed
//! straight from its buffers on a Rayon pool, with the GIL released, into column buffers. Also
//! the engine configuration the batch schedule (`pyschedule`) shares.

use std::borrow::Cow;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use pyo3::prelude::*;
use pyo3::types::PyDict;
use rayon::prelude::*;
use rayon::{ThreadPool, ThreadPoolBuilder};
use toolsift_core::stream::oneshot::{self, Lean};
use toolsift_core::stream::{KnownTools, StreamEngine};

use crate::columns::Findings;
use crate::pystream::{build_syntaxes, unknown};

/// What every engine of one batch is built from; plain data, so every worker builds its own.
pub(crate) struct EngineConfig {
    names: Vec<String>,
    marker: Option<String>,
    max_payload_chars: Option<usize>,
    known: KnownTools,
}

impl EngineConfig {
    pub(crate) fn checked(
        py: Python<'_>,
        names: Vec<String>,
        marker: Option<String>,
        max_payload_chars: Option<usize>,
        known: KnownTools,
    ) -> PyResult<Self> {
        build_syntaxes(&names, marker.as_deref(), max_payload_chars).map_err(|n| unknown(py, n))?;
        Ok(Self {
            names,
            marker,
            max_payload_chars,
            known,
        })
    }

    pub(crate) fn engine(&self) -> StreamEngine {
        // The names were checked when the config was made, so none is dropped here.
        let syntaxes = build_syntaxes(&self.names, self.marker.as_deref(), self.max_payload_chars)
            .unwrap_or_default();
        let mut engine = StreamEngine::new(syntaxes);
        engine.set_previews(false);
        engine.set_known_tools(self.known.clone());
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
    // `tools=` goes through `parse_many` (see `toolsift.arrow`): no tool names here.
    let config = EngineConfig::checked(
        py,
        syntaxes,
        marker,
        max_payload_chars,
        KnownTools::default(),
    )?;
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
