//! `toolsift.lenient_loads` itself, and the quick check that spares most malformed input a
//! strict attempt. The function is native, not a Python function calling native ones: on the
//! benchmark's valid documents the Python frame alone cost 3-4% of an orjson parse, which is
//! a quarter of the overhead over orjson that valid JSON may carry.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyString};
use toolsift_core::repair::{python_literal_value, surely_not_json};
use toolsift_core::scanner::DEFAULT_MAX_DEPTH;

use crate::pyjson::{load_exact_text, long_run, orjson};

/// How far into a document [`json_verdict`] checks tokens (it always checks the end): the
/// opening members, where a quote or key style, a comment or prose shows first. Valid JSON
/// pays for every byte of it, in branchy per-token work, so it is kept short: on the benchmark
/// corpora 64 bytes catch 87% of the malformed documents (128: 91%, 256: 96%) and cost valid
/// ones about 2% of an orjson parse.
const VERDICT_LIMIT: usize = 64;

/// A quick check before a strict parse: 0 when `data` (str or bytes) is certainly not strict
/// JSON, 2 when it may be but has a run of 19+ digits (see [`has_long_digit_run`]), 1
/// otherwise, and also for any other type, which is left to the strict parser.
///
/// [`has_long_digit_run`]: crate::pyjson::has_long_digit_run
#[pyfunction]
pub fn json_verdict(data: &Bound<'_, PyAny>) -> u8 {
    let bytes = if let Ok(s) = data.cast::<PyString>() {
        // A str with lone surrogates has no UTF-8 form, so no strict parser takes it either.
        match s.to_str() {
            Ok(text) => text.as_bytes(),
            Err(_) => return 0,
        }
    } else if let Ok(b) = data.cast::<PyBytes>() {
        b.as_bytes()
    } else {
        return 1;
    };
    if surely_not_json(bytes, VERDICT_LIMIT) {
        0
    } else if long_run(bytes) {
        2
    } else {
        1
    }
}

/// Loads JSON, repairing it first when it is malformed.
///
/// >>> lenient_loads("{'a': 1, 'b': [True, None,]")
/// {'a': 1, 'b': [True, None]}
///
/// Valid JSON, the common case, goes straight to orjson; for ``str`` input orjson, the
/// wide-integer check and any repair run in this one native call. A look at the tokens of the
/// first 64 bytes and at the last token (nanoseconds; no strict JSON text fails it) first
/// sends text that cannot be JSON (prose or a fence in front, a single quote, an unquoted
/// first key, a comment or a Python literal near the start, a truncated end, a trailing
/// comma) straight to repair, sparing it orjson's refusal (its ``JSONDecodeError`` costs
/// about a third of the repair); so does a Python ``True``, ``False`` or ``None`` after a
/// ``:``, ``,`` or ``[`` anywhere (a vectorized search). ``precheck=False`` looks at the first
/// and last token only. The value is the same either way: repair leaves valid JSON as it is. ``bytes``, ``bytearray`` and ``memoryview`` input is read
/// as UTF-8, invalid sequences as U+FFFD.
///
/// Raises :class:`toolsift.JsonRepairError` when no JSON value can be recovered. Lone
/// surrogates in ``text`` are read as U+FFFD.
#[pyfunction]
#[pyo3(
    signature = (text, *, max_depth = DEFAULT_MAX_DEPTH, precheck = true),
    text_signature = "(text, *, max_depth=100000, precheck=True)"
)]
pub fn lenient_loads<'py>(
    py: Python<'py>,
    text: &Bound<'py, PyAny>,
    max_depth: usize,
    precheck: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let Ok(data) = text.cast::<PyString>() else {
        return other_input(py)?.bind(py).call1((text, max_depth, precheck));
    };
    let Ok(utf8) = data.to_str() else {
        // Lone surrogates: no strict parser takes them; replaced one for one, repaired.
        let replaced = crate::pytext::surrogates_replaced(data)?;
        return crate::repair_and_load(py, &replaced, max_depth);
    };
    let bytes = utf8.as_bytes();
    // Without `precheck`, only the first token and the end are looked at (`limit` 0): a cost
    // of nanoseconds on valid JSON, which still goes straight to orjson, while a text that
    // starts like prose, a fence or a single quote, or ends truncated or with a trailing
    // comma (about a third of the malformed corpus) is spared orjson's refusal.
    let limit = if precheck { VERDICT_LIMIT } else { 0 };
    // A Python literal deeper in would make orjson build everything before it, then raise:
    // on the benchmark's malformed corpus that cost more than the repair and load together.
    let to_repair = surely_not_json(bytes, limit) || (precheck && python_literal_value(bytes));
    if !to_repair {
        let (loads, decode_error) = orjson(py)?;
        match loads.bind(py).call1((data,)) {
            Err(e) if e.is_instance(py, decode_error.bind(py)) => {}
            // Big integers: orjson made floats of them; the exact reader keeps them.
            Ok(_) if long_run(bytes) => return load_exact_text(py, utf8),
            loaded => return loaded,
        }
    }
    crate::repair_and_load(py, utf8, max_depth)
}

/// `toolsift.repair._lenient_loads_other`: `lenient_loads` of anything but a `str`.
fn other_input(py: Python<'_>) -> PyResult<&Py<PyAny>> {
    static OTHER: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    OTHER.get_or_try_init(py, || {
        Ok(py
            .import("toolsift.repair")?
            .getattr("_lenient_loads_other")?
            .unbind())
    })
}
