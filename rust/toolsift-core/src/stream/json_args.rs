//! Streams a call written as one JSON object while it arrives: the name as soon as it is
//! complete, the arguments object's bytes as `ArgumentsJsonDelta` (the model's own bytes, never
//! re-serialised) and each of its string members, decoded, as `ArgumentDelta`.
//!
//! It is a resumable tokenizer that sees each byte once (string runs are skipped with
//! `memchr`), so streaming a large argument costs time proportional to its size. It is a live
//! preview: the call reported at the end (read by `json_call::read_call`, with lenient repair)
//! is authoritative. Input that is not strict JSON (a single-quoted string, say) stops the
//! preview rather than risk wrong deltas; the call itself is still read at the end.

use super::events::SegmentKind;
use super::Sink;

/// What the string being read is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    /// A key of the call object.
    TopKey,
    /// The value under a name key.
    Name,
    /// A key of the arguments object.
    ArgKey,
    /// A string member of the arguments object: streamed.
    ArgValue,
    /// Anything else.
    Skip,
}

/// Whether the arguments object has been read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Seen {
    No,
    Yes,
}

/// What follows a key of the call object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TopNext {
    Name,
    Args,
    Other,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Lex {
    /// Between tokens.
    Structure,
    /// Inside a string.
    Str,
    /// After a backslash.
    Escape,
    /// Inside `\uXXXX`: `got` digits so far, `value` their value.
    Hex { got: u8, value: u32 },
    /// The preview gave up on non-JSON input.
    Stopped,
}

/// See the module docs.
#[derive(Debug, Clone)]
pub struct JsonArgsStream {
    name_keys: &'static [&'static str],
    args_keys: &'static [&'static str],
    /// `true` for an object, per open container.
    stack: Vec<bool>,
    lex: Lex,
    role: Role,
    expect_key: bool,
    /// What the value after the last top-level key is.
    next_top: TopNext,
    /// Whether the next string in the arguments object is a value (after a key and `:`).
    arg_value_next: bool,
    key: String,
    arg_key: String,
    name: String,
    name_done: bool,
    /// Depth of the arguments object while it is open.
    args_depth: Option<usize>,
    /// Set once the arguments object has closed: later argument keys are ignored.
    args_seen: Seen,
    pending_high: Option<u32>,
}

const MAX_KEY: usize = 256;

/// Appends `text` to a key or name kept up to [`MAX_KEY`] bytes: the result is the shortest
/// prefix of the whole string that reaches the cap (its last character may cross it), so it is
/// the same however the string was chunked (found by the `stream` fuzz target).
fn push_capped(dst: &mut String, text: &str) {
    if dst.len() >= MAX_KEY {
        return;
    }
    let room = MAX_KEY - dst.len();
    if text.len() <= room {
        dst.push_str(text);
        return;
    }
    let mut end = room;
    while !text.is_char_boundary(end) {
        end += 1;
    }
    dst.push_str(&text[..end]);
}

impl JsonArgsStream {
    /// A preview for objects whose name is under `name_keys` and arguments under `args_keys`.
    #[must_use]
    pub fn new(name_keys: &'static [&'static str], args_keys: &'static [&'static str]) -> Self {
        Self {
            name_keys,
            args_keys,
            stack: Vec::new(),
            lex: Lex::Structure,
            role: Role::Skip,
            expect_key: false,
            next_top: TopNext::Other,
            arg_value_next: false,
            key: String::new(),
            arg_key: String::new(),
            name: String::new(),
            name_done: false,
            args_depth: None,
            args_seen: Seen::No,
            pending_high: None,
        }
    }

    fn start(&self, sink: &mut Sink) {
        let name = self.name_done.then_some(self.name.as_str());
        sink.start(SegmentKind::ToolCall, name, Vec::new());
    }

    /// Feeds the next bytes of the object (from its `{` on).
    pub fn feed(&mut self, input: &str, sink: &mut Sink) {
        let b = input.as_bytes();
        let mut i = 0;
        // Where the arguments' raw bytes start in this input, while they are open.
        let mut raw_from = self.args_depth.map(|_| 0);
        let mut decoded = String::new();
        while i < b.len() {
            match self.lex {
                Lex::Stopped => break,
                Lex::Str => {
                    let Some(k) = memchr::memchr2(b'"', b'\\', &b[i..]) else {
                        self.take(&input[i..], &mut decoded);
                        i = b.len();
                        continue;
                    };
                    self.take(&input[i..i + k], &mut decoded);
                    i += k;
                    if b[i] == b'\\' {
                        self.lex = Lex::Escape;
                    } else {
                        self.end_string(&mut decoded, sink);
                    }
                    i += 1;
                }
                Lex::Escape => {
                    let c = match b[i] {
                        b'n' => Some('\n'),
                        b't' => Some('\t'),
                        b'r' => Some('\r'),
                        b'b' => Some('\u{8}'),
                        b'f' => Some('\u{c}'),
                        b'u' => None,
                        // Any other escaped character stands for itself; it may be several
                        // bytes long (an invalid escape the final repair keeps as written).
                        _ => input[i..].chars().next(),
                    };
                    if let Some(c) = c {
                        self.push_char(c, &mut decoded);
                        self.lex = Lex::Str;
                        i += c.len_utf8();
                    } else {
                        self.lex = Lex::Hex { got: 0, value: 0 };
                        i += 1;
                    }
                }
                Lex::Hex { got, value } => {
                    let Some(d) = char::from(b[i]).to_digit(16) else {
                        self.lex = Lex::Stopped;
                        continue;
                    };
                    let value = value * 16 + d;
                    if got == 3 {
                        self.code_unit(value, &mut decoded);
                        self.lex = Lex::Str;
                    } else {
                        self.lex = Lex::Hex {
                            got: got + 1,
                            value,
                        };
                    }
                    i += 1;
                }
                Lex::Structure => {
                    self.structure(b[i], i, &mut raw_from, input, sink);
                    i += 1;
                }
            }
        }
        self.flush(&mut decoded, sink);
        if let Some(from) = raw_from {
            sink.arguments_json_delta(&input[from..]);
        }
    }

    fn structure(
        &mut self,
        c: u8,
        i: usize,
        raw_from: &mut Option<usize>,
        input: &str,
        sink: &mut Sink,
    ) {
        let depth = self.stack.len();
        match c {
            b'"' => {
                self.role = if self.expect_key && depth == 1 {
                    Role::TopKey
                } else if self.expect_key && Some(depth) == self.args_depth {
                    Role::ArgKey
                } else if depth == 1 && self.next_top == TopNext::Name {
                    Role::Name
                } else if Some(depth) == self.args_depth && self.arg_value_next {
                    Role::ArgValue
                } else {
                    Role::Skip
                };
                if self.role == Role::TopKey {
                    self.key.clear();
                } else if self.role == Role::ArgKey {
                    self.arg_key.clear();
                }
                self.expect_key = false;
                self.lex = Lex::Str;
            }
            b'{' | b'[' => {
                let args_open = c == b'{'
                    && depth == 1
                    && self.args_depth.is_none()
                    && self.args_seen == Seen::No;
                if args_open && self.next_top == TopNext::Args {
                    self.start(sink);
                    self.args_depth = Some(depth + 1);
                    *raw_from = Some(i);
                }
                self.stack.push(c == b'{');
                self.expect_key = c == b'{';
                self.arg_value_next = false;
            }
            b'}' | b']' => {
                self.stack.pop();
                if self.args_depth == Some(depth) {
                    self.args_depth = None;
                    self.args_seen = Seen::Yes;
                    if let Some(from) = raw_from.take() {
                        sink.arguments_json_delta(&input[from..=i]);
                    }
                }
                self.expect_key = false;
            }
            b',' => {
                self.expect_key = self.stack.last() == Some(&true);
                self.arg_value_next = false;
                if depth == 1 {
                    self.next_top = TopNext::Other;
                }
            }
            b':' if Some(depth) == self.args_depth => self.arg_value_next = true,
            b'\'' => self.lex = Lex::Stopped,
            _ => {}
        }
    }

    fn take(&mut self, text: &str, decoded: &mut String) {
        if text.is_empty() {
            return;
        }
        if self.pending_high.take().is_some() {
            self.push_char('\u{FFFD}', decoded);
        }
        match self.role {
            Role::TopKey => push_capped(&mut self.key, text),
            Role::ArgKey => push_capped(&mut self.arg_key, text),
            Role::Name => push_capped(&mut self.name, text),
            Role::ArgValue => decoded.push_str(text),
            Role::Skip => {}
        }
    }

    fn push_char(&mut self, c: char, decoded: &mut String) {
        let mut buf = [0u8; 4];
        let text: &str = c.encode_utf8(&mut buf);
        match self.role {
            Role::TopKey => push_capped(&mut self.key, text),
            Role::ArgKey => push_capped(&mut self.arg_key, text),
            Role::Name => push_capped(&mut self.name, text),
            Role::ArgValue => decoded.push_str(text),
            Role::Skip => {}
        }
    }

    fn code_unit(&mut self, unit: u32, decoded: &mut String) {
        if (0xDC00..0xE000).contains(&unit) {
            if let Some(high) = self.pending_high.take() {
                let c = char::from_u32(0x10000 + ((high - 0xD800) << 10) + (unit - 0xDC00));
                self.push_char(c.unwrap_or('\u{FFFD}'), decoded);
                return;
            }
        }
        if self.pending_high.take().is_some() {
            self.push_char('\u{FFFD}', decoded);
        }
        if (0xD800..0xDC00).contains(&unit) {
            self.pending_high = Some(unit);
        } else {
            self.push_char(char::from_u32(unit).unwrap_or('\u{FFFD}'), decoded);
        }
    }

    fn end_string(&mut self, decoded: &mut String, sink: &mut Sink) {
        if self.pending_high.take().is_some() {
            self.push_char('\u{FFFD}', decoded);
        }
        self.flush(decoded, sink);
        match self.role {
            Role::TopKey => {
                self.next_top = if self.name_keys.contains(&self.key.as_str()) && !self.name_done {
                    TopNext::Name
                } else if self.args_keys.contains(&self.key.as_str()) && self.args_seen == Seen::No
                {
                    TopNext::Args
                } else {
                    TopNext::Other
                };
            }
            Role::Name => {
                if !self.name.trim().is_empty() {
                    self.name = self.name.trim().to_string();
                    self.name_done = true;
                    self.start(sink);
                }
                self.next_top = TopNext::Other;
            }
            Role::ArgValue => self.arg_value_next = false,
            Role::ArgKey | Role::Skip => {}
        }
        self.role = Role::Skip;
        self.lex = Lex::Structure;
    }

    fn flush(&self, decoded: &mut String, sink: &mut Sink) {
        if self.role == Role::ArgValue && !decoded.is_empty() {
            sink.argument_delta(&self.arg_key, decoded);
        }
        decoded.clear();
    }
}
