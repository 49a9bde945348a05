//! `toolsift._native`: thin `PyO3` glue over `toolsift-core`. No parsing logic lives here.

mod allocator;
mod columns;
mod gcpause;
mod prefetch;
mod pybatch;
mod pycore;
mod pydeferred;
mod pyevents;
mod pyissue;
mod pyjson;
mod pyjson_known;
mod pylazy;
mod pylenient;
mod pyoneshot;
mod pyparse;
mod pypattern;
mod pypreview;
mod pyschedule;
mod pyslice;
mod pyslots;
mod pystr;
mod pystream;
mod pytext;
mod pyunbuilt;
mod pywide;
#[cfg(target_arch = "x86_64")]
mod utf8_bmp;
mod utf8_count;
mod utf8_decode;
mod utf8_encode;
mod workers;

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyType};
use toolsift_core::offsets::CharIndex;
use toolsift_core::repair::{self, RepairOptions};
use toolsift_core::scanner::{self, ScanOptions, SpanKind};
use toolsift_core::Error;

/// Rust-side allocations of the extension go to mimalloc: parsing allocates many small,
/// short-lived strings and vectors, and batch results built on pool threads are freed on the
/// caller's thread, where glibc's arenas pay locks and consolidation (measured below in
/// BENCHMARKS.md). Python objects still come from Python's own allocator. See `allocator` for
/// why not the `mimalloc` crate's own.
#[global_allocator]
static GLOBAL: allocator::Mimalloc = allocator::Mimalloc;

/// Raises the Python class named `class` from `toolsift.errors` for a core error.
#[cold]
pub(crate) fn map_error(py: Python<'_>, class: &'static str, err: &Error, text: &str) -> PyErr {
    static ERRORS: PyOnceLock<Py<PyModule>> = PyOnceLock::new();
    let module =
        match ERRORS.get_or_try_init(py, || py.import("toolsift.errors").map(Bound::unbind)) {
            Ok(m) => m.bind(py),
            Err(e) => return e,
        };
    let offset = CharIndex::new(text).char_offset(err.offset);
    let built = module.getattr(class).and_then(|cls| {
        let cls = cls.cast_into::<PyType>()?;
        cls.call1((err.to_string(), offset, err.kind_name()))
    });
    match built {
        Ok(instance) => PyErr::from_value(instance),
        Err(e) => e,
    }
}

fn kind_name(kind: SpanKind) -> &'static str {
    match kind {
        SpanKind::Object => "object",
        SpanKind::Array => "array",
    }
}

type SpanTuple = (usize, usize, &'static str, usize, bool);
type OpenTuple = (usize, &'static str, usize);

/// Every balanced span in `text`, as code-point offsets, plus what is open at the end.
#[pyfunction]
#[pyo3(signature = (text, *, single_quotes = false, max_depth = scanner::DEFAULT_MAX_DEPTH))]
fn scan_json_spans(
    py: Python<'_>,
    text: &str,
    single_quotes: bool,
    max_depth: usize,
) -> PyResult<(Vec<SpanTuple>, Vec<OpenTuple>, String)> {
    let options = ScanOptions {
        single_quotes,
        max_depth,
    };
    let mut result = scanner::scan_json_spans(text.as_bytes(), &options)
        .map_err(|e| map_error(py, "ScanError", &e, text))?;
    // Offsets are converted in ascending order of start, then restored to closing order.
    let mut ix = CharIndex::new(text);
    let mut order: Vec<usize> = (0..result.spans.len()).collect();
    order.sort_by_key(|&i| result.spans[i].start);
    let mut starts = vec![0; result.spans.len()];
    for &i in &order {
        starts[i] = ix.char_offset(result.spans[i].start);
    }
    order.sort_by_key(|&i| result.spans[i].end);
    let mut ends = vec![0; result.spans.len()];
    for &i in &order {
        ends[i] = ix.char_offset(result.spans[i].end);
    }
    let spans = result
        .spans
        .iter()
        .enumerate()
        .map(|(i, s)| (starts[i], ends[i], kind_name(s.kind), s.depth, s.mismatched))
        .collect();
    let open = std::mem::take(&mut result.end.open)
        .into_iter()
        .map(|o| (ix.char_offset(o.start), kind_name(o.kind), o.depth))
        .collect();
    let closers = String::from_utf8_lossy(&result.end.closers).into_owned();
    Ok((spans, open, closers))
}

type RepairTuple<'py> = (Bound<'py, PyBytes>, Vec<(&'static str, usize)>);

/// Repairs `text` into valid JSON; returns the JSON as UTF-8 bytes and `(kind, byte offset)`
/// for every repair.
#[pyfunction]
#[pyo3(signature = (text, *, max_depth = scanner::DEFAULT_MAX_DEPTH, report = true))]
fn repair_json<'py>(
    py: Python<'py>,
    text: &str,
    max_depth: usize,
    report: bool,
) -> PyResult<RepairTuple<'py>> {
    let options = RepairOptions { max_depth };
    let repaired = repair::repair_json(text, &options)
        .map_err(|e| map_error(py, "JsonRepairError", &e, text))?;
    // `lenient_loads` discards the report, so it asks for none: on input with thousands of
    // repairs, building the list would cost more than the repair itself.
    let repairs = if report {
        repaired
            .repairs
            .iter()
            .map(|r| (r.kind.as_str(), r.offset))
            .collect()
    } else {
        Vec::new()
    };
    Ok((PyBytes::new(py, repaired.text.as_bytes()), repairs))
}

/// Repairs `text` and loads the result as `lenient_loads` does: in one call, without the
/// repair report or a bytes round trip through Python.
#[pyfunction]
#[pyo3(signature = (text, max_depth))]
pub(crate) fn repair_and_load<'py>(
    py: Python<'py>,
    text: &str,
    max_depth: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let options = RepairOptions { max_depth };
    let repaired = repair::repair_json(text, &options)
        .map_err(|e| map_error(py, "JsonRepairError", &e, text))?;
    pyjson::load_valid(py, &repaired.text, &mut pystr::RecentStrs::shared_only())
}

/// The native module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    utf8_count::install();
    m.add_function(wrap_pyfunction!(scan_json_spans, m)?)?;
    m.add_function(wrap_pyfunction!(repair_json, m)?)?;
    m.add_function(wrap_pyfunction!(repair_and_load, m)?)?;
    m.add_function(wrap_pyfunction!(pyjson::loads_exact, m)?)?;
    m.add_function(wrap_pyfunction!(pyjson_known::loads_known, m)?)?;
    m.add_function(wrap_pyfunction!(pyjson::has_long_digit_run, m)?)?;
    m.add_function(wrap_pyfunction!(pylenient::json_verdict, m)?)?;
    m.add_function(wrap_pyfunction!(pylenient::lenient_loads, m)?)?;
    m.add_function(wrap_pyfunction!(pybatch::parse_arrow_buffers, m)?)?;
    m.add_function(wrap_pyfunction!(pytext::without_surrogates, m)?)?;
    m.add_function(wrap_pyfunction!(pywide::utf8_len, m)?)?;
    m.add("parse", pyparse::parse_builtin(m.py())?)?;
    m.add_class::<pydeferred::DeferredText>()?;
    m.add("Unbuilt", pyunbuilt::unbuilt_type(m.py())?)?;
    m.add_class::<pylazy::LazyField>()?;
    m.add_class::<pyschedule::BatchRun>()?;
    m.add_class::<pystream::NativeStream>()?;
    m.add_class::<pycore::StreamCore>()?;
    m.add_class::<pypattern::NativePattern>()?;
    m.add_class::<pypreview::NativeArgsPreview>()?;
    m.add_class::<pyevents::SegmentStart>()?;
    m.add_class::<pyevents::TextDelta>()?;
    m.add_class::<pyevents::SegmentEnd>()?;
    m.add_class::<pyevents::ArgumentDelta>()?;
    m.add_class::<pyevents::ArgumentsJsonDelta>()?;
    m.add("DEFAULT_MAX_DEPTH", scanner::DEFAULT_MAX_DEPTH)?;
    Ok(())
}
