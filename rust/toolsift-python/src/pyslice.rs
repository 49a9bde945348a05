//! Long argument strings taken from the caller's `str` rather than decoded from the engine's
//! UTF-8.
//!
//! A sentinel file body or an `xml_tool` parameter is most often the model's text as written:
//! the same characters lie in the `str` the caller passed. Building the value from there is
//! a copy at the source's width (narrowed where the value is narrower), where decoding UTF-8
//! reads and branches on every byte: on the sentinel replies' ~1.2 KB bodies,
//! `new_str` and its decoder were ~10% of a batch's instructions.
#![allow(unsafe_code)]

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyString;
use toolsift_core::offsets::char_count;

use crate::pywide::{Units, Wide};
use crate::utf8_decode::{shape, Width};

/// Shorter values are decoded: finding them in the call's text costs about as much.
const MIN_BYTES: usize = 128;

/// How much longer than a value its call's text may be for the value to be looked for in
/// it: the search is linear in this, once per value, so a call of many long parameters
/// costs linear time too.
const MAX_SLACK: usize = 1024;

/// Candidate places compared before giving up: a value whose first and last bytes recur in
/// its call's text, but not the value itself, must not cost the slack times the value's
/// length.
const MAX_TRIES: usize = 4;

/// Where a call's argument strings may be sliced from: the caller's `str` (not ASCII, with
/// no lone surrogate) and the call's `raw`, which is characters `start..` of it.
pub(crate) struct Within<'a> {
    pub(crate) source: &'a Wide,
    pub(crate) raw: &'a str,
    pub(crate) start: usize,
}

impl Within<'_> {
    /// `value` as a `str` sliced from the source when it lies verbatim in the call's text;
    /// `None` when it does not (or is short), for the caller to decode.
    pub(crate) fn slice<'py>(&self, py: Python<'py>, value: &str) -> Option<Bound<'py, PyString>> {
        if value.len() < MIN_BYTES {
            return None;
        }
        let at = self.find(value)?;
        let shape = shape(value);
        let first = self.start + char_count(&self.raw.as_bytes()[..at]);
        let units = self.source.units();
        copy_at_width(py, units, first, shape.chars, shape.width)
    }

    /// A byte offset in `raw` where `value`'s bytes lie, if one of the first few places with
    /// its first and last byte holds it. Only a value that is most of its call's text is
    /// looked for (within [`MAX_SLACK`] bytes of it): a file body, a long parameter. A
    /// searcher built for each value (`memmem`) cost more than the decoding it spared.
    fn find(&self, value: &str) -> Option<usize> {
        let (raw, bytes) = (self.raw.as_bytes(), value.as_bytes());
        let slack = raw.len().checked_sub(bytes.len())?;
        if slack > MAX_SLACK {
            return None;
        }
        let (first, last) = (*bytes.first()?, *bytes.last()?);
        memchr::memchr_iter(first, &raw[..=slack])
            .filter(|&at| raw[at + bytes.len() - 1] == last)
            .take(MAX_TRIES)
            .find(|&at| &raw[at..at + bytes.len()] == bytes)
    }
}

/// A new `str` of code points `first..first + chars` of `units`, stored at `width` (the
/// value's own, so the narrowest: `CPython` compares and hashes a `str` by its stored form).
/// `None` if the range is not within `units` or `width` is wider than the units. Not
/// `pytext::char_slice` (`CPython`'s own slicing): it finds the widest code point again and
/// narrows one unit at a time, where the width is known here from the UTF-8 already read
/// (callgrind, 305 sentinel replies: 7.72M instructions with it, 7.48M with this).
fn copy_at_width<'py>(
    py: Python<'py>,
    units: Units<'_>,
    first: usize,
    chars: usize,
    width: Width,
) -> Option<Bound<'py, PyString>> {
    let end = first.checked_add(chars)?;
    let len = ffi::Py_ssize_t::try_from(chars).ok()?;
    let max = ffi::Py_UCS4::try_from(width.max_char()).ok()?;
    let (fits, total) = match &units {
        Units::One(u) => (matches!(width, Width::Ascii | Width::Latin1), u.len()),
        Units::Two(u) => (!matches!(width, Width::Four), u.len()),
        Units::Four(u) => (true, u.len()),
    };
    if !fits || end > total {
        return None;
    }
    // SAFETY: the GIL is held; `PyUnicode_New` returns a new compact `str` of `len` code
    // points of the width `max` asks for (or NULL with an exception set), whose data is
    // written here in full before anyone else sees it. The ranges read were checked above.
    unsafe {
        let op = ffi::PyUnicode_New(len, max);
        if op.is_null() {
            ffi::PyErr_Clear();
            return None;
        }
        let data = ffi::PyUnicode_DATA(op);
        // CPython aligns a `str`'s code points for their width.
        #[allow(clippy::cast_ptr_alignment)]
        match (units, width) {
            (Units::One(u), _) => narrow(&u[first..end], data.cast::<u8>()),
            (Units::Two(u), Width::Two) => narrow(&u[first..end], data.cast::<u16>()),
            (Units::Two(u), _) => narrow(&u[first..end], data.cast::<u8>()),
            (Units::Four(u), Width::Four) => narrow(&u[first..end], data.cast::<u32>()),
            (Units::Four(u), Width::Two) => narrow(&u[first..end], data.cast::<u16>()),
            (Units::Four(u), _) => narrow(&u[first..end], data.cast::<u8>()),
        }
        Some(Bound::from_owned_ptr(py, op).cast_into_unchecked())
    }
}

/// A unit of a `str`'s storage, from a wider one whose value fits (the caller knows it does).
trait From32: Copy {
    fn from32(u: u32) -> Self;
}

impl From32 for u8 {
    #[allow(clippy::cast_possible_truncation)] // the caller's width check: it fits
    fn from32(u: u32) -> Self {
        u as u8
    }
}

impl From32 for u16 {
    #[allow(clippy::cast_possible_truncation)] // the caller's width check: it fits
    fn from32(u: u32) -> Self {
        u as u16
    }
}

impl From32 for u32 {
    fn from32(u: u32) -> Self {
        u
    }
}

/// Writes `from`, each unit converted to `D`, at `to` (a loop the compiler vectorizes).
///
/// # Safety
/// `to` must be writable for `from.len()` units of `D`, aligned for `D`.
unsafe fn narrow<S: Copy + Into<u32>, D: From32>(from: &[S], to: *mut D) {
    let to = std::slice::from_raw_parts_mut(to, from.len());
    for (d, &s) in to.iter_mut().zip(from) {
        *d = D::from32(s.into());
    }
}
