//! A non-ASCII `str` read as UTF-8 by the parser itself: by the batch's worker threads
//! without the GIL, and by a one-shot `parse` into a buffer its parser keeps.
//!
//! Why: `CPython` keeps a non-ASCII `str` as fixed-width code points and makes its UTF-8 only
//! when asked, caching it in the object. Asked for it on the calling thread, as the batch did
//! before parsing, a corpus freshly read from disk (90% non-ASCII in the sample corpus) spent
//! 7 ms of a 47 ms one-worker batch encoding before any worker started: time two workers could
//! not share, and a second copy of every text kept alive with the `str`. Read here, each
//! worker encodes the texts of its own slices into one reused buffer, faster than `CPython`'s
//! encoder, and the caller's `str`s stay as they were.
//!
//! Unsafe, like `pyslots`: the code points are read through `CPython`'s own layout (the
//! `PyUnicode_*` accessors), which the safe API does not expose.
#![allow(unsafe_code)]

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::utf8_encode::{encode, Unit};

/// The code points of a compact, non-ASCII `str` with no cached UTF-8.
pub(crate) struct Wide {
    text: Py<PyString>,
    /// Bytes per code point: 1, 2 or 4.
    kind: u8,
    data: *const u8,
    /// Code points.
    len: usize,
}

// SAFETY: `data` points into the `str` that `text` keeps alive. A `str` never changes once
// made, except while it has a single reference (CPython may then grow it in place), and
// `text` is a second one; the fields read here (kind, data, length) are never rewritten.
unsafe impl Send for Wide {}
// SAFETY: as for `Send`: shared access only reads immutable code points.
unsafe impl Sync for Wide {}

impl Wide {
    /// `text` as a [`Wide`] when it is a compact non-ASCII `str` without cached UTF-8; `None`
    /// when its UTF-8 costs nothing to borrow (ASCII, or already cached) or it is of a kind
    /// this does not read (a legacy `str` of an old C extension).
    pub(crate) fn of(text: &Bound<'_, PyString>) -> Option<Self> {
        let op = text.as_ptr();
        // SAFETY: `op` is a live `str` and the GIL is held; these read its header only.
        unsafe {
            if ffi::PyUnicode_READY(op) != 0 {
                ffi::PyErr_Clear();
                return None;
            }
            if ffi::PyUnicode_IS_COMPACT(op) == 0 || ffi::PyUnicode_IS_ASCII(op) != 0 {
                return None;
            }
            if !(*op.cast::<ffi::PyCompactUnicodeObject>()).utf8.is_null() {
                return None;
            }
            let kind = match ffi::PyUnicode_KIND(op) {
                ffi::PyUnicode_1BYTE_KIND => 1,
                ffi::PyUnicode_2BYTE_KIND => 2,
                ffi::PyUnicode_4BYTE_KIND => 4,
                _ => return None,
            };
            Some(Self {
                text: text.clone().unbind(),
                kind,
                data: ffi::PyUnicode_DATA(op).cast::<u8>().cast_const(),
                len: usize::try_from(ffi::PyUnicode_GET_LENGTH(op)).ok()?,
            })
        }
    }

    /// The `str` itself.
    pub(crate) fn text<'py>(&self, py: Python<'py>) -> Bound<'py, PyString> {
        self.text.bind(py).clone()
    }

    /// Where its code points start.
    pub(crate) fn data(&self) -> *const u8 {
        self.data
    }

    /// Its storage size, between half and four times its UTF-8 length: for sizing slices.
    pub(crate) fn size_hint(&self) -> usize {
        self.len * usize::from(self.kind)
    }

    /// Its code points, at their storage width.
    // CPython aligns a `str`'s code points for their width, so the wider casts are aligned.
    #[allow(clippy::cast_ptr_alignment)]
    pub(crate) fn units(&self) -> Units<'_> {
        // SAFETY: `data` holds `len` code points of `kind` bytes, aligned for their width
        // (CPython's layout), and stays alive and unchanged while `self` is (see `Send`).
        unsafe {
            match self.kind {
                1 => Units::One(std::slice::from_raw_parts(self.data, self.len)),
                2 => Units::Two(std::slice::from_raw_parts(self.data.cast(), self.len)),
                _ => Units::Four(std::slice::from_raw_parts(self.data.cast(), self.len)),
            }
        }
    }

    /// Writes the text as UTF-8 into `out` (cleared first), each lone surrogate as U+FFFD (one
    /// code point for one, as [`crate::pytext::surrogates_replaced`] does); returns whether any
    /// was replaced. Needs no GIL.
    pub(crate) fn encode_into(&self, out: &mut String) -> bool {
        match self.units() {
            Units::One(u) => encode(out, u),
            Units::Two(u) => encode(out, u),
            Units::Four(u) => encode(out, u),
        }
    }

    /// Its UTF-8 length, a lone surrogate counted as 3 bytes (`surrogatepass`).
    fn utf8_len(&self) -> usize {
        match self.units() {
            Units::One(u) => utf8_bytes(u),
            Units::Two(u) => utf8_bytes(u),
            Units::Four(u) => utf8_bytes(u),
        }
    }
}

/// A `str`'s code points as `CPython` stores them.
pub(crate) enum Units<'a> {
    One(&'a [u8]),
    Two(&'a [u16]),
    Four(&'a [u32]),
}

/// Whether `text` is all ASCII, in constant time and without making its UTF-8: `CPython`
/// records it in the `str`'s header. (Asking for the UTF-8 to compare lengths, as this did,
/// made and kept a UTF-8 copy of every non-ASCII text a batch returned.)
pub(crate) fn is_ascii(text: &Bound<'_, PyString>) -> bool {
    let op = text.as_ptr();
    // SAFETY: `op` is a live `str` and the GIL is held; this reads its header only.
    unsafe {
        if ffi::PyUnicode_READY(op) != 0 {
            ffi::PyErr_Clear();
            return false;
        }
        ffi::PyUnicode_IS_ASCII(op) != 0
    }
}

/// `len(text.encode("utf-8", "surrogatepass"))` without encoding: a count over the code
/// points (a lone surrogate is 3 bytes), or the UTF-8 `CPython` already has (ASCII text is its
/// own). The CLI sizes its slices by it, and encoding every text only to measure it was ~2.5%
/// of a run.
#[pyfunction]
pub(crate) fn utf8_len(text: &Bound<'_, PyString>) -> PyResult<usize> {
    if let Some(wide) = Wide::of(text) {
        return Ok(wide.utf8_len());
    }
    match text.to_str() {
        Ok(utf8) => Ok(utf8.len()),
        // Lone surrogates in a `str` subclass (whose code points `Wide` does not read).
        Err(_) => text
            .call_method1("encode", ("utf-8", "surrogatepass"))?
            .len(),
    }
}

/// UTF-8 bytes of these code points, a surrogate counted as 3.
fn utf8_bytes<U: Unit>(units: &[U]) -> usize {
    units
        .iter()
        .map(|&u| {
            let u: u32 = u.into();
            1 + usize::from(u >= 0x80) + usize::from(u >= 0x800) + usize::from(u >= 0x1_0000)
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_bytes_counts_every_width() {
        let units: [u32; 6] = [0x61, 0xE9, 0x65E5, 0xD800, 0x1F600, 0x7FF];
        assert_eq!(utf8_bytes(&units), 1 + 2 + 3 + 3 + 4 + 2);
    }
}
