//! Builds Python values from valid JSON without recursion, keeping big integers exact.
//! Used only where `pyjson_known`'s reader and orjson cannot: nesting deeper than 1024, or
//! integers beyond 64 bits.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyDict, PyList, PyString};

use crate::gcpause::GcPause;
use crate::pydeferred::StringMembers;
use crate::pyjson_known::load_known;
use crate::pyslice::Within;
use crate::pystr::{new_str, RecentStrs};
pub(crate) use toolsift_core::strict_json::has_long_digit_run as long_run;
use toolsift_core::strict_json::{JsonEvent, StrictReader};

enum Frame<'py> {
    List(Bound<'py, PyList>),
    Dict(Bound<'py, PyDict>, Option<Bound<'py, PyString>>),
}

fn text_of<'a>(data: &'a Bound<'_, PyAny>) -> PyResult<&'a str> {
    if let Ok(s) = data.cast::<PyString>() {
        return s.to_str();
    }
    let bytes = data.cast::<PyBytes>()?.as_bytes();
    std::str::from_utf8(bytes).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// The integer `digits`, which starts `offset` bytes into `json`. One longer than the
/// interpreter converts from text (`sys.get_int_max_str_digits()`, 4,300 by default, a bound
/// against the conversion's quadratic time) is a `JsonRepairError` (`integer_too_long`, at its
/// character offset), not the bare `ValueError` `int` raises.
fn big_int<'py>(
    py: Python<'py>,
    digits: &str,
    json: &str,
    offset: usize,
) -> PyResult<Bound<'py, PyAny>> {
    static INT: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let int = INT.get_or_try_init(py, || {
        py.import("builtins")?.getattr("int").map(Bound::unbind)
    })?;
    int.bind(py).call1((digits,)).map_err(|e| {
        if !e.is_instance_of::<PyValueError>(py) {
            return e;
        }
        let at = json
            .get(..offset)
            .map_or(0, |before| before.chars().count());
        let message = format!(
            "an integer of {} digits at offset {at} is longer than Python converts from text: {}",
            digits.trim_start_matches('-').len(),
            e.value(py)
        );
        py.import("toolsift.errors")
            .and_then(|m| m.getattr("JsonRepairError"))
            .and_then(|cls| cls.call1((message, at, "integer_too_long")))
            .map_or_else(|err| err, PyErr::from_value)
    })
}

/// Loads valid JSON into Python objects (see the module docs).
#[pyfunction]
pub fn loads_exact<'py>(py: Python<'py>, data: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    load_exact_text(py, text_of(data)?)
}

/// Documents at least this long are built with the cycle collector paused (see
/// [`load_exact_text`]); below it, pausing costs more than it saves.
const PAUSE_GC_BYTES: usize = 16 * 1024;

/// [`loads_exact`] of a Rust string. A large document is built with the cycle collector
/// paused: its containers, created before they are filled, survive every collection that
/// their own allocations trigger, and with 100,000 nested lists those collections made the
/// load 9x slower for 4x the depth (1.3 -> 12.3 ms; 0.8 -> 4.7 ms paused). The GIL is held
/// from pause to resume.
pub(crate) fn load_exact_text<'py>(py: Python<'py>, json: &str) -> PyResult<Bound<'py, PyAny>> {
    let _pause = GcPause::when(py, json.len() >= PAUSE_GC_BYTES)?;
    let mut reader = StrictReader::new(json);
    let mut stack: Vec<Frame<'py>> = Vec::new();
    let mut root: Option<Bound<'py, PyAny>> = None;
    loop {
        let event = reader
            .next_event()
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        let Some(event) = event else { break };
        let value: Bound<'py, PyAny> = match event {
            JsonEvent::StartObject => {
                stack.push(Frame::Dict(PyDict::new(py), None));
                continue;
            }
            JsonEvent::StartArray => {
                stack.push(Frame::List(PyList::empty(py)));
                continue;
            }
            JsonEvent::Key(k) => {
                if let Some(Frame::Dict(_, key)) = stack.last_mut() {
                    *key = Some(PyString::new(py, &k));
                }
                continue;
            }
            JsonEvent::EndObject | JsonEvent::EndArray => match stack.pop() {
                Some(Frame::List(l)) => l.into_any(),
                Some(Frame::Dict(d, _)) => d.into_any(),
                None => return Err(PyValueError::new_err("unbalanced JSON")),
            },
            JsonEvent::String(s) => PyString::new(py, &s).into_any(),
            JsonEvent::Number { text, integer } => {
                if integer {
                    if let Ok(n) = text.parse::<i64>() {
                        n.into_pyobject(py)?.into_any()
                    } else {
                        let offset = (text.as_ptr() as usize).wrapping_sub(json.as_ptr() as usize);
                        big_int(py, text, json, offset)?
                    }
                } else {
                    let f: f64 = text
                        .parse()
                        .map_err(|_| PyValueError::new_err("invalid number"))?;
                    f.into_pyobject(py)?.into_any()
                }
            }
            JsonEvent::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
            JsonEvent::Null => py.None().into_bound(py),
        };
        match stack.last_mut() {
            Some(Frame::List(l)) => l.append(value)?,
            Some(Frame::Dict(d, key)) => {
                if let Some(k) = key.take() {
                    d.set_item(k, value)?;
                }
            }
            None => root = Some(value),
        }
    }
    root.ok_or_else(|| PyValueError::new_err("no JSON value"))
}

/// [`string_dict`], with the key and value strings it put in the dict, in order: their
/// arguments JSON, should anyone read it, is written from these (they cannot change, where
/// the dict can).
pub(crate) fn string_dict_keeping<'py>(
    py: Python<'py>,
    pairs: &[(String, String)],
    keys: &mut RecentStrs,
    within: Option<&Within<'_>>,
) -> PyResult<(Bound<'py, PyAny>, StringMembers)> {
    let dict = PyDict::new(py);
    let mut kept = Vec::with_capacity(pairs.len());
    for (key, value) in pairs {
        let (key, value) = (keys.get(py, key), value_str(py, value, within)?);
        dict.set_item(&key, &value)?;
        kept.push((key.unbind(), value.unbind()));
    }
    Ok((dict.into_any(), kept))
}

/// The dict of decoded `(key, value)` string pairs: what loading their JSON object gives,
/// without encoding the values as JSON text and decoding them again. Keys are shared strings
/// (see `pystr::repeated`): the same few names in every call, each a new string and a new hash
/// before.
pub(crate) fn string_dict<'py>(
    py: Python<'py>,
    pairs: &[(String, String)],
    keys: &mut RecentStrs,
    within: Option<&Within<'_>>,
) -> PyResult<Bound<'py, PyAny>> {
    let dict = PyDict::new(py);
    for (key, value) in pairs {
        dict.set_item(keys.get(py, key), value_str(py, value, within)?)?;
    }
    Ok(dict.into_any())
}

/// An argument value as a `str`: sliced from the caller's text when it lies there (see
/// `pyslice`), else decoded.
fn value_str<'py>(
    py: Python<'py>,
    value: &str,
    within: Option<&Within<'_>>,
) -> PyResult<Bound<'py, PyString>> {
    match within.and_then(|w| w.slice(py, value)) {
        Some(sliced) => Ok(sliced),
        None => new_str(py, value),
    }
}

/// orjson's `loads` and `JSONDecodeError`.
pub(crate) fn orjson(py: Python<'_>) -> PyResult<&(Py<PyAny>, Py<PyAny>)> {
    static ORJSON: PyOnceLock<(Py<PyAny>, Py<PyAny>)> = PyOnceLock::new();
    ORJSON.get_or_try_init(py, || {
        let module = py.import("orjson")?;
        Ok((
            module.getattr("loads")?.unbind(),
            module.getattr("JSONDecodeError")?.unbind(),
        ))
    })
}

/// Texts longer than this go to orjson: [`load_known`] pays less per object (no document of
/// its own to allocate, no call through Python), orjson less per byte. Callgrind, per reply
/// (`benches/batch_instructions.py`): with no bound a sentinel batch's ~90-byte objects took
/// 31,084 -> 30,580 instructions (and 12% less time), but `tool_call_json`'s objects of
/// 86-2,152 bytes 63,988 -> 67,760, and the malformed corpus's repaired 1.6 KB documents
/// 62.6k -> 72.9k a document. At 256 bytes: sentinel 30,839, `tool_call_json` 64,087.
const KNOWN_MAX_BYTES: usize = 256;

/// Loads `text`, known to be valid JSON: when short, by [`load_known`] (`keys` are the parse's shared
/// strings), else with orjson, or with [`loads_exact`] when it has a run of 19+ digits or
/// orjson refuses it (nesting deeper than 1024).
///
/// orjson reads the Rust bytes in place, through a read-only `memoryview` of them: a `bytes`
/// copy cost an allocation (from the C heap past 512 bytes) and a copy of every byte.
#[allow(unsafe_code)]
pub(crate) fn load_valid<'py>(
    py: Python<'py>,
    text: &str,
    keys: &mut RecentStrs,
) -> PyResult<Bound<'py, PyAny>> {
    if text.len() <= KNOWN_MAX_BYTES {
        if let Some(loaded) = load_known(py, text, keys) {
            return loaded;
        }
    }
    let Ok(len) = isize::try_from(text.len()) else {
        return load_valid_from(py, text, PyBytes::new(py, text.as_bytes()).as_any());
    };
    // SAFETY: the view points at `len` readable bytes of `text`, which outlives it: orjson
    // reads them during the call below and keeps no reference. Should anything still hold
    // the view after it, the view is released, so a later read raises instead of reading
    // memory `text` no longer owns. `PyBUF_READ`: nothing can write through it.
    let view = unsafe {
        Bound::from_owned_ptr_or_err(
            py,
            pyo3::ffi::PyMemoryView_FromMemory(
                text.as_ptr().cast_mut().cast(),
                len,
                pyo3::ffi::PyBUF_READ,
            ),
        )?
    };
    let loaded = load_valid_from(py, text, view.as_any());
    // SAFETY: `view` is a live object.
    if unsafe { pyo3::ffi::Py_REFCNT(view.as_ptr()) } > 1 {
        view.call_method0("release")?;
    }
    loaded
}

/// The two above: orjson reads `object` (the text as `str` or `bytes`).
fn load_valid_from<'py>(
    py: Python<'py>,
    text: &str,
    object: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    if long_run(text.as_bytes()) {
        return load_exact_text(py, text);
    }
    let (loads, decode_error) = orjson(py)?;
    match loads.bind(py).call1((object,)) {
        Err(e) if e.is_instance(py, decode_error.bind(py)) => load_exact_text(py, text),
        loaded => loaded,
    }
}

/// True when the text has a run of 19+ digits, i.e. an integer that may not fit 64 bits.
#[pyfunction]
pub fn has_long_digit_run(data: &Bound<'_, PyAny>) -> PyResult<bool> {
    Ok(long_run(text_of(data)?.as_bytes()))
}
