//! Text the core can take from a Python `str` that holds lone surrogates (from
//! `surrogateescape` decoding or a broken stream): UTF-8 cannot encode them, so each becomes
//! U+FFFD, one code point for one, and code-point offsets into the caller's text stay valid.

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PySlice, PyString};

/// Characters `start..end` of `text` (code points, as Python indexes it).
pub(crate) fn char_slice<'py>(
    text: &Bound<'py, PyString>,
    start: usize,
    end: usize,
) -> PyResult<Bound<'py, PyString>> {
    // Offsets into a Python `str` are below `isize::MAX`.
    let at = |n: usize| isize::try_from(n).unwrap_or(isize::MAX);
    Ok(text
        .get_item(PySlice::new(text.py(), at(start), at(end), 1))?
        .cast_into::<PyString>()?)
}

/// UTF-8 `bytes` from `CPython`'s `surrogatepass` encoder with every encoded surrogate
/// (`ED A0..=BF xx`, three bytes) replaced by U+FFFD (`EF BF BD`, also three bytes).
fn replace_encoded_surrogates(bytes: &mut [u8]) {
    let mut at = 0;
    while let Some(found) = memchr::memchr(0xED, &bytes[at..]) {
        let i = at + found;
        if i + 2 < bytes.len() && bytes[i + 1] >= 0xA0 && bytes[i + 1] <= 0xBF {
            bytes[i..i + 3].copy_from_slice("\u{FFFD}".as_bytes());
            at = i + 3;
        } else {
            at = i + 1;
        }
    }
}

/// Code points of a `str` encoded at once by [`surrogates_replaced`].
const CHUNK_CHARS: usize = 32 * 1024;

/// `text` as UTF-8 with each lone surrogate replaced by U+FFFD. Encoded a chunk at a time, so
/// each chunk's bytes are fixed, checked and appended while they are in the cache: encoding
/// the whole `str` first made a second copy of it, which on 17 MB of text went to memory and
/// back four times. A chunk boundary never splits a character (a `str` indexes code points,
/// and a lone surrogate is one).
pub(crate) fn surrogates_replaced(text: &Bound<'_, PyString>) -> PyResult<String> {
    let chars = text.len()?;
    let mut out = String::with_capacity(chars);
    let mut start = 0;
    while start < chars {
        let end = chars.min(start + CHUNK_CHARS);
        let chunk = if start == 0 && end == chars {
            text.clone()
        } else {
            char_slice(text, start, end)?
        };
        let encoded = chunk
            .call_method1("encode", ("utf-8", "surrogatepass"))?
            .cast_into::<PyBytes>()?;
        let mut bytes = encoded.as_bytes().to_vec();
        replace_encoded_surrogates(&mut bytes);
        let fixed = std::str::from_utf8(&bytes).map_err(|e| {
            pyo3::exceptions::PyValueError::new_err(format!(
                "text is not valid UTF-8 after replacing surrogates (byte {})",
                e.valid_up_to()
            ))
        })?;
        out.push_str(fixed);
        start = end;
    }
    Ok(out)
}

/// `text` with each lone surrogate replaced by U+FFFD (same length in code points): one pass
/// of `CPython`'s encoder and one here. The regular expression it replaces cost more than the
/// parse of the text it fixed.
#[pyfunction]
pub fn without_surrogates<'py>(
    py: Python<'py>,
    text: &Bound<'py, PyString>,
) -> PyResult<Bound<'py, PyString>> {
    if text.to_str().is_ok() {
        return Ok(text.clone());
    }
    Ok(PyString::new(py, &surrogates_replaced(text)?))
}

#[cfg(test)]
mod tests {
    use super::replace_encoded_surrogates;

    #[test]
    fn encoded_surrogates_become_replacement_characters() {
        // "a", U+D800 and U+DFFF as `surrogatepass` writes them, then U+D7FF (a real
        // character that also starts with ED) and a truncated ED at the end.
        let mut bytes = b"a\xED\xA0\x80\xED\xBF\xBF\xED\x9F\xBF\xED".to_vec();
        replace_encoded_surrogates(&mut bytes);
        assert_eq!(bytes, b"a\xEF\xBF\xBD\xEF\xBF\xBD\xED\x9F\xBF\xED".to_vec());
    }
}
