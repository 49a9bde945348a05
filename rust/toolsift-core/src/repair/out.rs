//! The output buffer. Text copied from the input is not copied at once: a run of consecutive
//! input bytes is kept as a pending range and written in one `memcpy` when something else is
//! written (or at the end). For valid JSON the whole input is one pending range.

pub(super) struct Out<'a> {
    src: &'a str,
    buf: String,
    /// Input range `start..end` that logically follows `buf` but is not written yet.
    start: usize,
    end: usize,
}

impl<'a> Out<'a> {
    pub(super) fn new(src: &'a str) -> Self {
        Self {
            src,
            buf: String::with_capacity(src.len() + 16),
            start: 0,
            end: 0,
        }
    }

    /// Writes the pending input range.
    #[inline]
    fn flush(&mut self) {
        if self.end > self.start {
            self.buf
                .push_str(self.src.get(self.start..self.end).unwrap_or(""));
        }
        self.start = self.end;
    }

    /// Appends input bytes `from..to` (both on character boundaries).
    #[inline]
    pub(super) fn copy(&mut self, from: usize, to: usize) {
        if to <= from {
            return;
        }
        if from != self.end {
            self.flush();
            self.start = from;
        }
        self.end = to;
    }

    #[inline]
    pub(super) fn push(&mut self, c: char) {
        self.flush();
        self.buf.push(c);
    }

    #[inline]
    pub(super) fn push_str(&mut self, s: &str) {
        self.flush();
        self.buf.push_str(s);
    }

    /// Appends input bytes `from..to` (on character boundaries) between double quotes.
    #[inline]
    pub(super) fn push_quoted(&mut self, from: usize, to: usize) {
        self.flush();
        self.buf.push('"');
        self.buf.push_str(self.src.get(from..to).unwrap_or(""));
        self.buf.push('"');
    }

    /// The written text, for appending to directly.
    pub(super) fn string_mut(&mut self) -> &mut String {
        self.flush();
        &mut self.buf
    }

    /// Whether the last byte written is `c`.
    pub(super) fn ends_with_byte(&self, c: u8) -> bool {
        if self.end > self.start {
            return self.src.as_bytes().get(self.end - 1) == Some(&c);
        }
        self.buf.as_bytes().last() == Some(&c)
    }

    /// Removes the last byte written when it is the ASCII `c`.
    pub(super) fn pop_byte(&mut self, c: u8) {
        if self.ends_with_byte(c) {
            self.flush();
            self.buf.pop();
        }
    }

    /// Length of the output so far.
    #[inline]
    pub(super) fn len(&self) -> usize {
        self.buf.len() + (self.end - self.start)
    }

    /// Inserts `s` at output index `at` (clamped to the end, moved to the end if it is not a
    /// character boundary). Returns where `s` went.
    pub(super) fn insert_str(&mut self, at: usize, s: &str) -> usize {
        self.flush();
        let at = if self.buf.is_char_boundary(at) {
            at
        } else {
            self.buf.len()
        };
        self.buf.insert_str(at, s);
        at
    }

    /// Removes the byte at output index `at` if it is `c` (ASCII).
    pub(super) fn remove_ascii(&mut self, at: usize, c: u8) {
        self.flush();
        if self.buf.as_bytes().get(at) == Some(&c) {
            self.buf.remove(at);
        }
    }

    /// Cuts the output back to `len` bytes (a length it had before).
    pub(super) fn truncate(&mut self, len: usize) {
        self.flush();
        if self.buf.is_char_boundary(len) {
            self.buf.truncate(len);
        }
    }

    /// Whether the string content written since output index `start` ends with a `\n`
    /// escape.
    pub(super) fn ends_with_newline_escape(&mut self, start: usize) -> bool {
        self.flush();
        ends_with_escape(self.buf.as_bytes(), start, b"n")
    }

    /// Drops blanks (` `, and the escapes `\n`, `\r`, `\t`) from the end of the string
    /// content written since output index `start`.
    pub(super) fn trim_string_end(&mut self, start: usize) {
        self.flush();
        loop {
            let b = self.buf.as_bytes();
            let n = b.len();
            if n <= start {
                return;
            }
            if b[n - 1] == b' ' {
                self.buf.truncate(n - 1);
                continue;
            }
            if ends_with_escape(b, start, b"nrt") {
                self.buf.truncate(n - 2);
                continue;
            }
            return;
        }
    }

    pub(super) fn into_string(mut self) -> String {
        self.flush();
        self.buf
    }
}

/// Whether `b[start..]` ends with an escape `\X`, X one of `letters`, whose backslash is not
/// itself escaped (an odd run of backslashes precedes X).
fn ends_with_escape(b: &[u8], start: usize, letters: &[u8]) -> bool {
    let n = b.len();
    if n < start + 2 || !letters.contains(&b[n - 1]) {
        return false;
    }
    let run = b[start..n - 1]
        .iter()
        .rev()
        .take_while(|&&c| c == b'\\')
        .count();
    run % 2 == 1
}
