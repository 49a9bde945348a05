//! A `str` the batch reads as UTF-8 on a worker thread, without the GIL.
//!
//! Why: `CPython` keeps a non-ASCII `str` as fixed-width code points and makes its UTF-8 only
//! when asked, caching it in the object. Asked for it on the calling thread, as the batch did
//! before parsing, a corpus freshly read from disk (90% non-ASCII in the sample corpus) spent
//! 7 ms of a 47 ms one-worker batch encoding before any worker started: time two workers could
//! not share, and a second copy of every text kept alive with the `str`. Read here, each
//! worker encodes the texts of its own slices into one reused buffer.
//!
//! Unsafe, like `pyslots`: the code points are read through `CPython`'s own layout (the
//! `PyUnicode_*` accessors), which the safe API does not expose.
#![allow(unsafe_code)]

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyString;

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

    /// At least the UTF-8 length, at most twice it: for sizing slices.
    pub(crate) fn size_hint(&self) -> usize {
        self.len * usize::from(self.kind)
    }

    /// Writes the text as UTF-8 into `out` (cleared first), each lone surrogate as U+FFFD (one
    /// code point for one, as [`crate::pytext::surrogates_replaced`] does); returns whether any
    /// was replaced. Needs no GIL.
    // CPython aligns a `str`'s code points for their width, so the wider casts are aligned.
    #[allow(clippy::cast_ptr_alignment)]
    pub(crate) fn encode_into(&self, out: &mut String) -> bool {
        out.clear();
        // SAFETY: `data` holds `len` code points of `kind` bytes, aligned for their width
        // (CPython's layout), and stays alive and unchanged while `self` is (see `Send`).
        unsafe {
            match self.kind {
                1 => push_units(out, std::slice::from_raw_parts(self.data, self.len)),
                2 => push_units(
                    out,
                    std::slice::from_raw_parts(self.data.cast::<u16>(), self.len),
                ),
                _ => push_units(
                    out,
                    std::slice::from_raw_parts(self.data.cast::<u32>(), self.len),
                ),
            }
        }
    }
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

/// Appends code points to `out`, a surrogate (or anything not a character) as U+FFFD; returns
/// whether any was replaced.
fn push_units<U: Copy + Into<u32>>(out: &mut String, units: &[U]) -> bool {
    let mut replaced = false;
    out.reserve(units.len());
    for &u in units {
        let u: u32 = u.into();
        if u < 0x80 {
            // ASCII, most of any text: no `char` check or length dispatch. (Eight at a time,
            // checked together, measured slower.)
            out.push(char::from(u as u8));
        } else if let Some(c) = char::from_u32(u) {
            out.push(c);
        } else {
            out.push('\u{FFFD}');
            replaced = true;
        }
    }
    replaced
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_become_utf8_and_surrogates_the_replacement_character() {
        let mut out = String::new();
        let units: [u32; 6] = [0x61, 0xE9, 0x65E5, 0xD800, 0x1F600, 0xDFFF];
        assert!(push_units(&mut out, &units));
        assert_eq!(out, "aé日\u{FFFD}😀\u{FFFD}");
        let mut plain = String::new();
        let text = "ab€ and a longer run of plain ASCII text, é, then more";
        let wide: Vec<u16> = text
            .chars()
            .map(|c| u16::try_from(u32::from(c)).unwrap())
            .collect();
        assert!(!push_units(&mut plain, &wide));
        assert_eq!(plain, text);
        let text = "caf\u{e9} au lait, s'il vous pla\u{ee}t";
        let latin1: Vec<u8> = text
            .chars()
            .map(|c| u8::try_from(u32::from(c)).unwrap())
            .collect();
        let mut narrow = String::new();
        assert!(!push_units(&mut narrow, &latin1));
        assert_eq!(narrow, text);
    }
}
