//! The balanced-bracket JSON scanner.
//!
//! One forward pass over the bytes with an explicit stack (no recursion, so nesting depth is
//! bounded only by [`ScanOptions::max_depth`], never by the call stack). It reports every
//! balanced `{…}` and `[…]` span at every depth, skipping brackets inside strings. Outside any
//! bracket the text is prose: quotes there mean nothing and the scanner jumps to the next `{` or
//! `[` with `memchr`. The state is resumable: [`JsonScanner::feed`] takes input in chunks and
//! gives the same spans, with the same absolute offsets, however the input was split.

use crate::error::{Error, ErrorKind};

/// Default nesting limit: deep enough for any real payload, small enough to bound memory.
pub const DEFAULT_MAX_DEPTH: usize = 100_000;

/// Bytes that can change the scanner's state inside brackets.
const STRUCTURAL: [bool; 256] = {
    let mut table = [false; 256];
    table[b'{' as usize] = true;
    table[b'}' as usize] = true;
    table[b'[' as usize] = true;
    table[b']' as usize] = true;
    table[b'"' as usize] = true;
    table[b'\'' as usize] = true;
    table
};

/// Scanner settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScanOptions {
    /// Treat `'…'` as a string where a JSON string could start (after `{ [ , :`), so that
    /// brackets inside single-quoted values do not count. An apostrophe closes such a string
    /// only when the next non-blank byte is `, : } ]`, so `'don't'` stays one string.
    pub single_quotes: bool,
    /// Deepest nesting accepted; a deeper opener is an error at its offset.
    pub max_depth: usize,
}

impl Default for ScanOptions {
    fn default() -> Self {
        Self {
            single_quotes: false,
            max_depth: DEFAULT_MAX_DEPTH,
        }
    }
}

/// Which bracket opened a span.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SpanKind {
    /// `{…}`
    Object,
    /// `[…]`
    Array,
}

impl SpanKind {
    /// The byte that closes this kind of span.
    #[must_use]
    pub fn closer(self) -> u8 {
        match self {
            SpanKind::Object => b'}',
            SpanKind::Array => b']',
        }
    }
}

/// A closed span: `start` is the offset of the opener, `end` one past the closer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Span {
    /// Offset of the opening bracket.
    pub start: usize,
    /// Offset one past the closing bracket.
    pub end: usize,
    /// Object or array.
    pub kind: SpanKind,
    /// 0 for an outermost span.
    pub depth: usize,
    /// True when some closer inside (or this span's own) did not match its opener, so the span
    /// is bracket-shaped but needs repair to be JSON.
    pub mismatched: bool,
}

/// A span still open at the end of input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpenSpan {
    /// Offset of the opening bracket.
    pub start: usize,
    /// Object or array.
    pub kind: SpanKind,
    /// 0 for an outermost span.
    pub depth: usize,
}

/// What is still open when the input ends.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ScanEnd {
    /// Open spans, outermost first.
    pub open: Vec<OpenSpan>,
    /// The quote byte of a string left open, if any.
    pub open_string: Option<u8>,
    /// The bytes that would close everything, innermost first (a quote if a string is open).
    pub closers: Vec<u8>,
}

/// Spans found in a whole input plus what was left open.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ScanResult {
    /// Closed spans in the order they closed (inner spans before the span holding them).
    pub spans: Vec<Span>,
    /// What was open at the end.
    pub end: ScanEnd,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Inside brackets, between tokens.
    Structure,
    /// Inside a string opened by `quote`; `escaped` when the previous byte was a backslash.
    InString { quote: u8, escaped: bool },
    /// A `'` that may have closed a single-quoted string: decided by the next non-blank byte.
    MaybeClosedSingle,
}

#[derive(Debug, Clone, Copy)]
struct Frame {
    start: usize,
    kind: SpanKind,
    mismatched: bool,
}

/// Resumable scanner; see the module docs.
#[derive(Debug, Clone)]
pub struct JsonScanner {
    options: ScanOptions,
    stack: Vec<Frame>,
    /// How many frames of `stack` are objects (the rest are arrays): whether a mismatched
    /// closer's kind is open further out is then one comparison, not a walk of the stack
    /// (`[` × n then `}` × n walked it n times: quadratic).
    objects_open: usize,
    state: State,
    /// Last structural byte seen inside brackets; decides whether `'` may open a string.
    last_structural: u8,
    consumed: usize,
    /// Where the string being read (if one is) opened: its quote's offset.
    string_start: usize,
    failed: Option<Error>,
}

impl JsonScanner {
    /// A scanner at the start of input.
    #[must_use]
    pub fn new(options: ScanOptions) -> Self {
        // Room for a few levels up front: every scanner opens at least one, and a vector grown
        // from empty reallocates at its fifth.
        Self::with_stack(options, Vec::with_capacity(8))
    }

    /// A scanner with no memory of its own, to stand in for one taken out to be reused.
    #[must_use]
    pub fn idle() -> Self {
        Self::with_stack(ScanOptions::default(), Vec::new())
    }

    /// A scanner at the start of input over `stack`'s memory (emptied here).
    fn with_stack(options: ScanOptions, mut stack: Vec<Frame>) -> Self {
        stack.clear();
        Self {
            options,
            stack,
            objects_open: 0,
            state: State::Structure,
            last_structural: b'{',
            consumed: 0,
            string_start: 0,
            failed: None,
        }
    }

    /// Bytes fed so far.
    #[must_use]
    pub fn consumed(&self) -> usize {
        self.consumed
    }

    /// The offset of the quote that opened the string still open at this point, if one is.
    #[must_use]
    pub fn open_string_start(&self) -> Option<usize> {
        matches!(self.state, State::InString { .. }).then_some(self.string_start)
    }

    /// Current nesting depth (0 in prose).
    #[must_use]
    pub fn depth(&self) -> usize {
        self.stack.len()
    }

    /// Forgets everything, keeping the options and the memory of its stack (a parser reused
    /// for the next segment keeps its scanner).
    pub fn reset(&mut self) {
        *self = Self::with_stack(self.options, std::mem::take(&mut self.stack));
    }

    /// Scans `chunk`, pushing every span that closes within it onto `out`.
    ///
    /// Work is proportional to the chunk. After an error the scanner stays failed and returns
    /// the same error for every later chunk.
    pub fn feed(&mut self, chunk: &[u8], out: &mut Vec<Span>) -> Result<(), Error> {
        self.feed_with(chunk, out, false).map(|_| ())
    }

    /// Like [`JsonScanner::feed`], but stops right after the byte that closes an outermost
    /// span; returns how many bytes of `chunk` it took (all of them when nothing closed). A
    /// parser reading one value out of a long input uses this so its work is the value's
    /// length, not the rest of the input's.
    pub fn feed_until_closed(&mut self, chunk: &[u8], out: &mut Vec<Span>) -> Result<usize, Error> {
        self.feed_with(chunk, out, true)
    }

    fn feed_with(&mut self, chunk: &[u8], out: &mut Vec<Span>, stop: bool) -> Result<usize, Error> {
        if let Some(err) = &self.failed {
            return Err(err.clone());
        }
        let base = self.consumed;
        let result = self.scan(chunk, base, out, stop);
        match result {
            Ok(taken) => {
                self.consumed = base + taken;
                Ok(taken)
            }
            Err(err) => {
                self.consumed = base + chunk.len();
                self.failed = Some(err.clone());
                Err(err)
            }
        }
    }

    /// What is open at this point (the input so far treated as complete).
    #[must_use]
    pub fn finish(&self) -> ScanEnd {
        let open: Vec<OpenSpan> = self
            .stack
            .iter()
            .enumerate()
            .map(|(depth, f)| OpenSpan {
                start: f.start,
                kind: f.kind,
                depth,
            })
            .collect();
        let open_string = match self.state {
            State::InString { quote, .. } => Some(quote),
            State::Structure | State::MaybeClosedSingle => None,
        };
        let mut closers = Vec::with_capacity(open.len() + 1);
        if let Some(q) = open_string {
            closers.push(q);
        }
        closers.extend(open.iter().rev().map(|o| o.kind.closer()));
        ScanEnd {
            open,
            open_string,
            closers,
        }
    }

    /// Scans `chunk`; with `stop`, returns early after an outermost span closes. Returns the
    /// bytes taken.
    fn scan(
        &mut self,
        chunk: &[u8],
        base: usize,
        out: &mut Vec<Span>,
        stop: bool,
    ) -> Result<usize, Error> {
        let mut i = 0;
        while i < chunk.len() {
            match self.state {
                State::InString { quote, escaped } => {
                    i = self.scan_string(chunk, i, quote, escaped);
                }
                State::MaybeClosedSingle => {
                    let b = chunk[i];
                    if b.is_ascii_whitespace() {
                        i += 1;
                    } else if matches!(b, b',' | b':' | b'}' | b']') {
                        // The quote did close the string; `b` is handled as structure.
                        self.state = State::Structure;
                    } else {
                        // An apostrophe inside the value: the string goes on.
                        self.state = State::InString {
                            quote: b'\'',
                            escaped: false,
                        };
                    }
                }
                State::Structure if self.stack.is_empty() => {
                    // Prose: jump straight to the next opener.
                    match memchr::memchr2(b'{', b'[', &chunk[i..]) {
                        Some(k) => {
                            i += k;
                            self.open(chunk[i], base + i)?;
                            i += 1;
                        }
                        None => i = chunk.len(),
                    }
                }
                State::Structure => {
                    // Skip the run of bytes that cannot change the state (numbers, literals,
                    // blanks, `,` and `:`) in one tight loop instead of one dispatch per byte.
                    let rest = &chunk[i..];
                    let run = rest
                        .iter()
                        .position(|&b| STRUCTURAL[usize::from(b)])
                        .unwrap_or(rest.len());
                    if let Some(&last) = rest[..run].iter().rfind(|b| !b.is_ascii_whitespace()) {
                        self.last_structural = if matches!(last, b',' | b':') {
                            last
                        } else {
                            b'x'
                        };
                    }
                    i += run;
                    let Some(&b) = chunk.get(i) else { break };
                    match b {
                        b'{' | b'[' => self.open(b, base + i)?,
                        b'}' | b']' => {
                            self.close(b, base + i, out);
                            if stop && self.stack.is_empty() {
                                return Ok(i + 1);
                            }
                        }
                        b'"' => {
                            self.string_start = base + i;
                            self.state = State::InString {
                                quote: b'"',
                                escaped: false,
                            };
                        }
                        // `'` opens a string only where a string could start.
                        _ if self.options.single_quotes
                            && matches!(self.last_structural, b'{' | b'[' | b',' | b':') =>
                        {
                            self.string_start = base + i;
                            self.state = State::InString {
                                quote: b'\'',
                                escaped: false,
                            };
                        }
                        // A stray apostrophe is a token byte like any other.
                        _ => self.last_structural = b'x',
                    }
                    i += 1;
                }
            }
        }
        Ok(chunk.len())
    }

    /// Advances through string bytes from `i`; returns the index after what it consumed.
    fn scan_string(&mut self, chunk: &[u8], mut i: usize, quote: u8, mut escaped: bool) -> usize {
        if escaped {
            // The byte after a backslash is taken literally, whatever it is.
            i += 1;
            escaped = false;
        }
        while i < chunk.len() {
            match memchr::memchr2(quote, b'\\', &chunk[i..]) {
                None => {
                    i = chunk.len();
                    break;
                }
                Some(k) => {
                    let at = i + k;
                    if chunk[at] == b'\\' {
                        if at + 1 < chunk.len() {
                            i = at + 2;
                        } else {
                            i = chunk.len();
                            escaped = true;
                        }
                    } else {
                        self.last_structural = b'x';
                        self.state = if quote == b'\'' {
                            State::MaybeClosedSingle
                        } else {
                            State::Structure
                        };
                        return at + 1;
                    }
                }
            }
        }
        self.state = State::InString { quote, escaped };
        i
    }

    fn open(&mut self, b: u8, at: usize) -> Result<(), Error> {
        if self.stack.len() >= self.options.max_depth {
            return Err(Error::new(
                ErrorKind::DepthLimitExceeded {
                    limit: self.options.max_depth,
                },
                at,
            ));
        }
        let kind = if b == b'{' {
            SpanKind::Object
        } else {
            SpanKind::Array
        };
        self.objects_open += usize::from(kind == SpanKind::Object);
        self.stack.push(Frame {
            start: at,
            kind,
            mismatched: false,
        });
        self.last_structural = b;
        Ok(())
    }

    fn close(&mut self, b: u8, at: usize, out: &mut Vec<Span>) {
        let Some(top) = self.stack.last().copied() else {
            return;
        };
        let mismatched = top.kind.closer() != b;
        let objects = self.objects_open;
        let kind_open = if b == b'}' {
            objects > 0
        } else {
            self.stack.len() > objects
        };
        if mismatched && !kind_open {
            // A stray closer whose opener is nowhere: ignore it, it cannot end a span.
            return;
        }
        // A mismatched closer whose kind is open further out closes the innermost span, as a
        // model that typed `}` for `]` meant; the span is flagged so consumers repair it.
        self.stack.pop();
        self.objects_open -= usize::from(top.kind == SpanKind::Object);
        let depth = self.stack.len();
        let dirty = top.mismatched || mismatched;
        if dirty {
            if let Some(parent) = self.stack.last_mut() {
                parent.mismatched = true;
            }
        }
        out.push(Span {
            start: top.start,
            end: at + 1,
            kind: top.kind,
            depth,
            mismatched: dirty,
        });
        self.last_structural = b'x';
    }
}

/// Scans a whole input at once.
pub fn scan_json_spans(text: &[u8], options: &ScanOptions) -> Result<ScanResult, Error> {
    let mut scanner = JsonScanner::new(*options);
    let mut spans = Vec::new();
    scanner.feed(text, &mut spans)?;
    Ok(ScanResult {
        spans,
        end: scanner.finish(),
    })
}

#[cfg(test)]
mod tests;
