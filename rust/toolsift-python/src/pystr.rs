//! `str` objects made from UTF-8 the engine wrote, at the width they need, in one write per
//! code point (see `utf8_decode`); one-character ones by `CPython`, which shares them.
//!
//! Unsafe, like `pywide`: the code points are written through `CPython`'s own layout into a
//! `str` made a moment before, which nothing else has seen yet.
#![allow(unsafe_code)]

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::utf8_decode::{decode_into, shape, Shape, Width};

/// Below this many bytes, an ASCII check is cheaper than [`shape`]'s scan.
const SHORT: usize = 32;

/// `text` as a `str`.
pub(crate) fn new_str<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyString>> {
    // One character goes to `CPython`, which shares them. Its decoder is not used for
    // longer text: on ASCII it is layers of calls around a copy (~240 instructions for
    // `imperial`), and on other short text it starts a writer, decodes into it and shrinks
    // it to fit (~1,500 for `São Paulo`).
    if text.len() <= 1 {
        return Ok(PyString::new(py, text));
    }
    let shape = if text.len() < SHORT && text.is_ascii() {
        Shape {
            chars: text.len(),
            width: Width::Ascii,
        }
    } else {
        shape(text)
    };
    let (Ok(len), Ok(max)) = (
        ffi::Py_ssize_t::try_from(shape.chars),
        ffi::Py_UCS4::try_from(shape.width.max_char()),
    ) else {
        return Ok(PyString::new(py, text));
    };
    // SAFETY: the GIL is held; `PyUnicode_New` returns a new compact `str` of `len` code
    // points of the width `max` asks for (or NULL with an exception set), whose data is
    // written here in full before anyone else sees it.
    unsafe {
        let op = ffi::PyUnicode_New(len, max);
        if op.is_null() {
            return Err(PyErr::fetch(py));
        }
        let data = ffi::PyUnicode_DATA(op);
        match shape.width {
            Width::Ascii => {
                std::ptr::copy_nonoverlapping(text.as_ptr(), data.cast::<u8>(), text.len());
            }
            Width::Latin1 => decode_into(text, data.cast::<u8>(), shape.chars),
            // CPython aligns a `str`'s code points for their width.
            #[allow(clippy::cast_ptr_alignment)]
            Width::Two => decode_into(text, data.cast::<u16>(), shape.chars),
            #[allow(clippy::cast_ptr_alignment)]
            Width::Four => decode_into(text, data.cast::<u32>(), shape.chars),
        }
        Ok(Bound::from_owned_ptr(py, op).cast_into_unchecked())
    }
}

/// A short string parses make again and again (tool names, argument keys) as one shared
/// object: taking it from the table costs a hash, making it an allocation, which on a
/// heap another library left fragmented is a cache miss. The table keeps the first strings
/// it sees up to a fixed count and then takes no more: emptying it when full made a
/// response with 100,000 calls (ids that never repeat) churn it at every call.
pub(crate) fn repeated<'py>(py: Python<'py>, text: &str) -> Bound<'py, PyString> {
    const MAX_LEN: usize = 64;
    const MAX_ENTRIES: usize = 4096;
    static SEEN: Mutex<Option<HashMap<Box<str>, Py<PyString>>>> = Mutex::new(None);
    if text.len() > MAX_LEN {
        return PyString::new(py, text);
    }
    let lock = || SEEN.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(object) = lock().as_ref().and_then(|seen| seen.get(text)) {
        return object.bind(py).clone();
    }
    // Made without the lock held: making a string may run the collector, and so Python
    // code that parses, and so comes back here, on this thread.
    let object = PyString::new(py, text);
    let mut seen = lock();
    let seen = seen.get_or_insert_with(HashMap::new);
    if seen.len() < MAX_ENTRIES {
        seen.insert(text.into(), object.clone().unbind());
    }
    object
}

/// The strings [`repeated`] gave lately, kept by one parse or batch: its calls repeat a few
/// tool names and argument keys. A direct-mapped table: a string has one slot, picked by a
/// hash of its bytes (short: these are names), and a look there cost ~30 instructions where
/// the shared table's hash, lock and probe cost ~230. Eight entries scanned in turn, as
/// before, were too few once argument objects' keys went through here too (a sentinel batch
/// has ~25 names and keys): they were replaced at nearly every look.
#[derive(Default)]
pub(crate) struct RecentStrs {
    slots: Vec<Option<(Box<str>, Py<PyString>)>>,
    /// No table of its own: every look goes to [`repeated`]. For a single document, where
    /// making and dropping the table (~1,700 instructions) cost more than it saves.
    shared_only: bool,
}

impl RecentStrs {
    const SLOTS: usize = 128;
    const MAX_LEN: usize = 64;

    fn slot(text: &str) -> usize {
        // The length and three bytes (first, middle, last): a few instructions, and names
        // and keys differ there.
        let bytes = text.as_bytes();
        let at = |i: usize| u64::from(bytes.get(i).copied().unwrap_or(0));
        let n = bytes.len();
        let h = (n as u64 | at(0) << 8 | at(n / 2) << 16 | at(n.wrapping_sub(1)) << 24)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (h >> 57) as usize % Self::SLOTS
    }

    /// Strings that [`Self::get`] takes from [`repeated`] alone.
    pub(crate) fn shared_only() -> Self {
        Self {
            slots: Vec::new(),
            shared_only: true,
        }
    }

    /// `text` as a shared string: [`repeated`], looked up here first.
    pub(crate) fn get<'py>(&mut self, py: Python<'py>, text: &str) -> Bound<'py, PyString> {
        if text.len() > Self::MAX_LEN {
            return PyString::new(py, text);
        }
        if self.shared_only {
            return repeated(py, text);
        }
        if self.slots.is_empty() {
            self.slots.resize_with(Self::SLOTS, || None);
        }
        let slot = &mut self.slots[Self::slot(text)];
        if let Some((seen, object)) = slot {
            if **seen == *text {
                return object.bind(py).clone();
            }
        }
        let object = repeated(py, text);
        *slot = Some((text.into(), object.clone().unbind()));
        object
    }
}
