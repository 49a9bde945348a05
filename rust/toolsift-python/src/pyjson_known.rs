//! Python values from JSON text already known to be valid (the engine checked or wrote it),
//! built in one pass as it is read.
//!
//! orjson, which loaded these before, checks the text again, parses it into a document of
//! its own (allocated from the C heap) and then walks that document to build the objects.
//! On a sentinel batch's `tool` headers (~90-byte argument objects) it took ~5,900
//! instructions a call and 13% of the batch's time. Here the text is read once, keys come
//! from the parse's shared strings (their hash already computed), and nothing is allocated
//! but the Python objects and, for a string with escapes, one reused buffer.
//!
//! Only objects of up to 256 bytes come here (see `pyjson::load_valid`): on longer ones
//! orjson's per-byte speed wins. Anything outside the common case is left to the exact path:
//! nesting deeper than [`MAX_DEPTH`], an integer of more than 18 digits, an escaped lone
//! surrogate, or text that is not valid JSON after all. So the values are the same as
//! before, whichever path builds them.

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyList, PyString, PyTuple};

use crate::pystr::{new_str, RecentStrs};

/// Containers nested deeper than this are left to the exact path, which does not recurse.
const MAX_DEPTH: usize = 128;

/// Keys longer than this are made as they are, not looked up among the shared strings.
const SHARED_KEY_BYTES: usize = 64;

/// The reading stopped: the text is outside what this reader handles, or Python failed to
/// make an object (then kept in [`Reader::error`]). One word, so that every `Result` here
/// stays a pointer wide.
struct Stop;

type Built<'py> = Result<Bound<'py, PyAny>, Stop>;

/// The Python value of `text`, or `None` when it is outside what this reader handles (see
/// the module docs).
pub(crate) fn load_known<'py>(
    py: Python<'py>,
    text: &str,
    keys: &mut RecentStrs,
) -> Option<PyResult<Bound<'py, PyAny>>> {
    let mut reader = Reader {
        py,
        text,
        at: 0,
        depth: 0,
        scratch: String::new(),
        keys,
        error: None,
    };
    let built = reader.value().and_then(|value| {
        reader.skip_blanks();
        if reader.at == text.len() {
            Ok(value)
        } else {
            Err(Stop)
        }
    });
    match (built, reader.error) {
        (Ok(value), _) => Some(Ok(value)),
        (Err(Stop), Some(e)) => Some(Err(e)),
        (Err(Stop), None) => None,
    }
}

struct Reader<'a, 'py> {
    py: Python<'py>,
    text: &'a str,
    at: usize,
    depth: usize,
    /// A string with escapes is decoded here (kept across strings: one allocation a text).
    scratch: String,
    keys: &'a mut RecentStrs,
    /// Why Python could not make an object, when that stopped the reading.
    error: Option<PyErr>,
}

impl<'a, 'py> Reader<'a, 'py> {
    /// `made`, or [`Stop`] with its error kept.
    fn made<T>(&mut self, made: PyResult<T>) -> Result<T, Stop> {
        made.map_err(|e| {
            self.error = Some(e);
            Stop
        })
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    fn skip_blanks(&mut self) {
        let bytes = self.text.as_bytes();
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = bytes.get(self.at) {
            self.at += 1;
        }
    }

    /// Skips `word` (`true`, `false`, `null`) where it starts.
    fn word(&mut self, word: &str) -> Result<(), Stop> {
        let rest = self.text.as_bytes().get(self.at..).unwrap_or_default();
        if rest.starts_with(word.as_bytes()) {
            self.at += word.len();
            Ok(())
        } else {
            Err(Stop)
        }
    }

    fn value(&mut self) -> Built<'py> {
        self.skip_blanks();
        let py = self.py;
        match self.peek() {
            Some(b'{') => self.object(),
            Some(b'[') => self.array(),
            Some(b'"') => {
                let made = match self.string()? {
                    Some(plain) => new_str(py, plain),
                    None => new_str(py, &self.scratch),
                };
                Ok(self.made(made)?.into_any())
            }
            Some(b't') => {
                self.word("true")?;
                Ok(PyBool::new(py, true).to_owned().into_any())
            }
            Some(b'f') => {
                self.word("false")?;
                Ok(PyBool::new(py, false).to_owned().into_any())
            }
            Some(b'n') => {
                self.word("null")?;
                Ok(py.None().into_bound(py))
            }
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => Err(Stop),
        }
    }

    fn enter(&mut self) -> Result<(), Stop> {
        self.depth += 1;
        self.at += 1;
        if self.depth > MAX_DEPTH {
            return Err(Stop);
        }
        Ok(())
    }

    fn object(&mut self) -> Built<'py> {
        self.enter()?;
        let dict = PyDict::new(self.py);
        self.skip_blanks();
        if self.peek() == Some(b'}') {
            self.at += 1;
            self.depth -= 1;
            return Ok(dict.into_any());
        }
        loop {
            self.skip_blanks();
            if self.peek() != Some(b'"') {
                return Err(Stop);
            }
            let key = self.key()?;
            self.skip_blanks();
            if self.peek() != Some(b':') {
                return Err(Stop);
            }
            self.at += 1;
            let value = self.value()?;
            let set = dict.set_item(key, value);
            self.made(set)?;
            self.skip_blanks();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b'}') => {
                    self.at += 1;
                    self.depth -= 1;
                    return Ok(dict.into_any());
                }
                _ => return Err(Stop),
            }
        }
    }

    /// A key: the same few in every call, so a shared string when short.
    fn key(&mut self) -> Result<Bound<'py, PyString>, Stop> {
        let py = self.py;
        let s = match self.string()? {
            Some(plain) => plain,
            None => &self.scratch,
        };
        if s.len() <= SHARED_KEY_BYTES {
            return Ok(self.keys.get(py, s));
        }
        let made = new_str(py, s);
        self.made(made)
    }

    fn array(&mut self) -> Built<'py> {
        self.enter()?;
        let mut items = Vec::new();
        self.skip_blanks();
        if self.peek() == Some(b']') {
            self.at += 1;
            self.depth -= 1;
            return Ok(PyList::empty(self.py).into_any());
        }
        loop {
            items.push(self.value()?);
            self.skip_blanks();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b']') => {
                    self.at += 1;
                    self.depth -= 1;
                    let list = PyList::new(self.py, items);
                    return Ok(self.made(list)?.into_any());
                }
                _ => return Err(Stop),
            }
        }
    }

    /// Reads the string that starts at `at` (its opening quote): its decoded text is the
    /// slice returned when it has no escape, else (`None`) `scratch`.
    fn string(&mut self) -> Result<Option<&'a str>, Stop> {
        let text = self.text;
        let start = self.at + 1;
        let bytes = text.as_bytes();
        let Some(stop) = quote_or_backslash(bytes, start) else {
            return Err(Stop);
        };
        if bytes[stop] == b'"' {
            self.at = stop + 1;
            // Both ends are at ASCII quotes, so on character boundaries.
            return text.get(start..stop).ok_or(Stop).map(Some);
        }
        self.scratch.clear();
        let mut run = start;
        let mut at = stop;
        loop {
            self.scratch.push_str(text.get(run..at).ok_or(Stop)?);
            // `at` is a backslash.
            let (decoded, used) = escape(bytes, at)?;
            self.scratch.push(decoded);
            at += used;
            run = at;
            let Some(found) = quote_or_backslash(bytes, at) else {
                return Err(Stop);
            };
            at = found;
            if bytes[at] == b'"' {
                self.scratch.push_str(text.get(run..at).ok_or(Stop)?);
                self.at = at + 1;
                return Ok(None);
            }
        }
    }

    fn number(&mut self) -> Built<'py> {
        let bytes = self.text.as_bytes();
        let start = self.at;
        let negative = bytes.get(start) == Some(&b'-');
        let mut end = start + usize::from(negative);
        // The digits of an integer, kept as they are read: 18 fit an `i64` whatever they
        // are; longer ones take the exact path, which keeps them exact.
        let mut n: i64 = 0;
        while let Some(&b) = bytes.get(end).filter(|b| b.is_ascii_digit()) {
            n = n.wrapping_mul(10).wrapping_add(i64::from(b - b'0'));
            end += 1;
        }
        let digits = end - start - usize::from(negative);
        if !matches!(bytes.get(end), Some(b'.' | b'e' | b'E')) {
            if digits == 0 || digits > 18 {
                return Err(Stop);
            }
            self.at = end;
            let n = if negative { -n } else { n };
            let Ok(n) = n.into_pyobject(self.py);
            return Ok(n.into_any());
        }
        while let Some(b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-') = bytes.get(end) {
            end += 1;
        }
        self.at = end;
        let text = self.text.get(start..end).ok_or(Stop)?;
        let f: f64 = text.parse().map_err(|_| Stop)?;
        Ok(PyFloat::new(self.py, f).into_any())
    }
}

/// Bytes looked at a word at a time before `memchr2` takes over: most strings here are keys
/// and short values, shorter than the search's own setup.
const SHORT_SCAN: usize = 32;

/// Where the first `"` or `\\` at or after `from` is.
fn quote_or_backslash(bytes: &[u8], from: usize) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let rest = bytes.get(from..)?;
    let mut at = 0;
    // Eight bytes at a time: a byte equal to `"` or `\\` is a zero byte after the XOR, and
    // `(x - ONES) & !x & HIGHS` flags the lowest zero byte exactly (higher flags may be
    // false, so only the lowest is taken).
    while at + 8 <= rest.len().min(SHORT_SCAN) {
        let mut word = [0u8; 8];
        word.copy_from_slice(&rest[at..at + 8]);
        let x = u64::from_le_bytes(word);
        let quote = x ^ (ONES * u64::from(b'"'));
        let slash = x ^ (ONES * u64::from(b'\\'));
        let hits = (quote.wrapping_sub(ONES) & !quote | slash.wrapping_sub(ONES) & !slash) & HIGHS;
        if hits != 0 {
            return Some(from + at + (hits.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    if at < SHORT_SCAN {
        let head = rest.len().min(SHORT_SCAN);
        if let Some(k) = rest[at..head].iter().position(|&b| b == b'"' || b == b'\\') {
            return Some(from + at + k);
        }
        at = head;
    }
    memchr::memchr2(b'"', b'\\', &rest[at..]).map(|k| from + at + k)
}

/// The character of the escape at `at` (a backslash) and the bytes it takes.
fn escape(bytes: &[u8], at: usize) -> Result<(char, usize), Stop> {
    let simple = match bytes.get(at + 1) {
        Some(b'"') => '"',
        Some(b'\\') => '\\',
        Some(b'/') => '/',
        Some(b'b') => '\u{8}',
        Some(b'f') => '\u{c}',
        Some(b'n') => '\n',
        Some(b'r') => '\r',
        Some(b't') => '\t',
        Some(b'u') => return unicode_escape(bytes, at),
        _ => return Err(Stop),
    };
    Ok((simple, 2))
}

/// A `\uXXXX` escape at `at`, with its low surrogate when it is a high one. A lone
/// surrogate is left to the exact path, which has its own rule for it.
fn unicode_escape(bytes: &[u8], at: usize) -> Result<(char, usize), Stop> {
    let hex = |from: usize| -> Result<u32, Stop> {
        let digits = bytes.get(from..from + 4).ok_or(Stop)?;
        let text = std::str::from_utf8(digits).map_err(|_| Stop)?;
        u32::from_str_radix(text, 16).map_err(|_| Stop)
    };
    let first = hex(at + 2)?;
    if let Some(c) = char::from_u32(first) {
        return Ok((c, 6));
    }
    // A high surrogate must be followed by `\u` and a low one.
    if !(0xD800..0xDC00).contains(&first) || bytes.get(at + 6..at + 8) != Some(b"\\u") {
        return Err(Stop);
    }
    let second = hex(at + 8)?;
    if !(0xDC00..0xE000).contains(&second) {
        return Err(Stop);
    }
    let code = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00);
    char::from_u32(code).map(|c| (c, 12)).ok_or(Stop)
}

/// [`load_known`] for tests: `(value,)`, or `None` when the text is left to the exact path.
/// The text is not checked: on text that is not JSON the result is unspecified, but the
/// reader never panics.
#[pyfunction]
pub fn loads_known<'py>(py: Python<'py>, text: &str) -> PyResult<Option<Bound<'py, PyTuple>>> {
    let mut keys = RecentStrs::shared_only();
    load_known(py, text, &mut keys)
        .map(|built| PyTuple::new(py, [built?]))
        .transpose()
}
