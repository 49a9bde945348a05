//! The two halves of reading bare JSON calls: a [`Tokenizer`] that follows a lenient JSON value
//! byte by byte (so its end, or the first byte that is not JSON, is known without rescanning),
//! and [`extract`], which reads the calls out of a complete value by [`Shape`].

use super::super::json_call::{strict_or_repaired, JsonCall, NotACall};
use crate::strict_json::{JsonEvent, StrictReader};

/// Which JSON values hold calls, and under which keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// `{"tool_calls"|"tools": [entry, …]}`, `{"tool": entry}`, or an entry; or a list of
    /// these. An entry is `{"function": {"name", "arguments"}}` (`id`, `type` ignored) or
    /// `{"name", "arguments"|"parameters"}`.
    OpenAi,
    /// `{"name", "args"|"arguments"}` (or inside `functionCall`), or a list of them.
    Gemini,
    /// `{"tool": {"function": NAME | {"name": NAME}, "parameters"|"arguments": {…}}}`, or a
    /// list of them.
    Default,
    /// `{"name", "parameters"|"arguments"}`.
    Llama3,
    /// `[{"name", "arguments"|"parameters"}, …]` or one such object.
    Xlam,
}

impl Shape {
    /// Whether a top-level list of calls is accepted.
    #[must_use]
    pub fn lists(self) -> bool {
        self != Shape::Llama3
    }
}

/// Keys that make a value call-shaped on their own (wrappers).
const WRAPPER_KEYS: &[&[u8]] = &[
    b"tool_calls",
    b"tools",
    b"tool",
    b"function",
    b"functionCall",
];
/// Keys that may hold arguments.
const ARGS_KEYS: &[&[u8]] = &[b"args", b"arguments", b"parameters"];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum T {
    Value,
    FirstValueOrClose,
    KeyOrClose,
    Colon,
    AfterValue,
    Str {
        quote: u8,
        key: bool,
        escaped: bool,
    },
    /// A `'` that may close a single-quoted string: the next non-blank byte decides.
    MaybeSingle {
        key: bool,
    },
    Literal,
}

/// Follows one lenient JSON value; see the module docs.
#[derive(Debug, Clone)]
pub struct Tokenizer {
    stack: Vec<u8>,
    state: T,
    /// The key being read, when it may be a signature key (short and near the top).
    key: Option<Vec<u8>>,
    saw_wrapper: bool,
    saw_name: bool,
    saw_args: bool,
}

fn literal_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.' | b'_')
}

impl Tokenizer {
    /// A tokenizer before the value.
    #[must_use]
    pub fn new() -> Self {
        Self {
            stack: Vec::new(),
            state: T::Value,
            key: None,
            saw_wrapper: false,
            saw_name: false,
            saw_args: false,
        }
    }

    /// Takes the value's opening bracket.
    pub fn open(&mut self, b: u8) {
        self.stack.push(b);
        self.state = if b == b'{' {
            T::KeyOrClose
        } else {
            T::FirstValueOrClose
        };
    }

    /// Whether the keys seen so far near the top are a call's.
    #[must_use]
    pub fn looks_like_call(&self, _shape: Shape) -> bool {
        self.saw_wrapper || (self.saw_name && self.saw_args)
    }

    fn end_string(&mut self, key: bool) {
        if key {
            if let Some(k) = self.key.take() {
                self.saw_wrapper |= WRAPPER_KEYS.contains(&k.as_slice());
                self.saw_name |= k == b"name";
                self.saw_args |= ARGS_KEYS.contains(&k.as_slice());
            }
            self.state = T::Colon;
        } else {
            self.state = T::AfterValue;
        }
    }

    /// Reads `bytes`: returns how many were taken and `None` (need more), `Some(true)` (the
    /// value ended with the last byte taken) or `Some(false)` (the next byte is not JSON).
    pub fn feed(&mut self, bytes: &[u8]) -> (usize, Option<bool>) {
        let mut i = 0;
        while let Some(&b) = bytes.get(i) {
            match self.state {
                T::Str {
                    quote,
                    key,
                    escaped,
                } => {
                    match self.string(bytes, i, quote, key, escaped) {
                        Some(next) => i = next,
                        None => return (bytes.len(), None),
                    }
                    continue;
                }
                T::MaybeSingle { key } => {
                    if b.is_ascii_whitespace() {
                        i += 1;
                    } else if matches!(b, b',' | b':' | b'}' | b']') {
                        self.end_string(key);
                    } else {
                        // An apostrophe inside the string: it goes on.
                        self.key = None;
                        self.state = T::Str {
                            quote: b'\'',
                            key,
                            escaped: false,
                        };
                    }
                    continue;
                }
                _ if b.is_ascii_whitespace() && self.state != T::Literal => {
                    i += 1;
                    continue;
                }
                T::Value | T::FirstValueOrClose => match b {
                    b']' if self.state == T::FirstValueOrClose => {
                        if self.close(b) {
                            return (i + 1, Some(true));
                        }
                    }
                    b'{' | b'[' => self.open(b),
                    b'"' | b'\'' => {
                        self.state = T::Str {
                            quote: b,
                            key: false,
                            escaped: false,
                        };
                    }
                    _ if literal_byte(b) => self.state = T::Literal,
                    _ => return (i, Some(false)),
                },
                T::KeyOrClose => match b {
                    b'}' => {
                        if self.close(b) {
                            return (i + 1, Some(true));
                        }
                    }
                    b'"' | b'\'' => {
                        self.key = (self.stack.len() <= 2).then(Vec::new);
                        self.state = T::Str {
                            quote: b,
                            key: true,
                            escaped: false,
                        };
                    }
                    _ => return (i, Some(false)),
                },
                T::Colon if b == b':' => self.state = T::Value,
                T::Colon => return (i, Some(false)),
                T::Literal if literal_byte(b) => {}
                T::Literal | T::AfterValue => match b {
                    b',' => {
                        self.state = if self.stack.last() == Some(&b'{') {
                            T::KeyOrClose
                        } else {
                            T::FirstValueOrClose
                        };
                    }
                    b'}' | b']' => {
                        let want = if b == b'}' { b'{' } else { b'[' };
                        if self.stack.last() != Some(&want) {
                            return (i, Some(false));
                        }
                        if self.close(b) {
                            return (i + 1, Some(true));
                        }
                    }
                    _ if self.state == T::Literal && b.is_ascii_whitespace() => {
                        self.state = T::AfterValue;
                    }
                    _ => return (i, Some(false)),
                },
            }
            i += 1;
        }
        (i, None)
    }

    /// String bytes from `i`: the index after what was taken, `None` when all were.
    fn string(
        &mut self,
        bytes: &[u8],
        mut i: usize,
        quote: u8,
        key: bool,
        mut escaped: bool,
    ) -> Option<usize> {
        if escaped {
            escaped = false;
            i += 1;
        }
        let rest = bytes.get(i..).unwrap_or_default();
        let Some(k) = memchr::memchr2(quote, b'\\', rest) else {
            self.capture(rest);
            self.state = T::Str {
                quote,
                key,
                escaped,
            };
            return None;
        };
        self.capture(&rest[..k]);
        if rest[k] == b'\\' {
            self.key = None;
            self.state = T::Str {
                quote,
                key,
                escaped: true,
            };
        } else if quote == b'\'' {
            self.state = T::MaybeSingle { key };
        } else {
            self.end_string(key);
        }
        Some(i + k + 1)
    }

    fn capture(&mut self, bytes: &[u8]) {
        if let Some(k) = &mut self.key {
            if k.len() + bytes.len() > 16 {
                self.key = None;
            } else {
                k.extend_from_slice(bytes);
            }
        }
    }

    /// Closes the innermost container; true when that ends the value.
    fn close(&mut self, b: u8) -> bool {
        let want = if b == b'}' { b'{' } else { b'[' };
        if self.stack.last() != Some(&want) {
            return false;
        }
        self.stack.pop();
        self.state = T::AfterValue;
        self.stack.is_empty()
    }
}

impl Default for Tokenizer {
    fn default() -> Self {
        Self::new()
    }
}

/// One level of a strict JSON value: members or elements as trimmed texts.
enum Val<'a> {
    Obj(Vec<(String, &'a str)>),
    Arr(Vec<&'a str>),
    Str(String),
    Null,
    Other,
}

fn skip_nested(r: &mut StrictReader<'_>, event: &JsonEvent<'_>, depth: usize) -> Option<()> {
    if matches!(event, JsonEvent::StartObject | JsonEvent::StartArray) {
        while r.depth() > depth {
            r.next_event().ok()??;
        }
    }
    Some(())
}

fn read(json: &str) -> Option<Val<'_>> {
    let mut r = StrictReader::new(json);
    match r.next_event().ok()?? {
        JsonEvent::StartObject => {
            let mut members = Vec::new();
            loop {
                match r.next_event().ok()?? {
                    JsonEvent::Key(k) => {
                        let start = r.position();
                        let v = r.next_event().ok()??;
                        skip_nested(&mut r, &v, 1)?;
                        members.push((k.into_owned(), json.get(start..r.position())?.trim()));
                    }
                    JsonEvent::EndObject => return Some(Val::Obj(members)),
                    _ => return None,
                }
            }
        }
        JsonEvent::StartArray => {
            let mut elements = Vec::new();
            loop {
                let start = r.position();
                let v = r.next_event().ok()??;
                if v == JsonEvent::EndArray && r.depth() == 0 {
                    return Some(Val::Arr(elements));
                }
                skip_nested(&mut r, &v, 1)?;
                let text = json.get(start..r.position())?.trim();
                elements.push(text.trim_start_matches(',').trim_start());
            }
        }
        JsonEvent::String(s) => Some(Val::Str(s.into_owned())),
        JsonEvent::Null => Some(Val::Null),
        _ => Some(Val::Other),
    }
}

fn get<'a>(members: &[(String, &'a str)], key: &str) -> Option<&'a str> {
    members.iter().find(|(k, _)| k == key).map(|(_, v)| *v)
}

fn string_of(members: &[(String, &str)], key: &str) -> Option<String> {
    match read(get(members, key)?)? {
        Val::Str(s) if !s.trim().is_empty() => Some(s.trim().to_string()),
        _ => None,
    }
}

fn object_of<'a>(members: &[(String, &'a str)], key: &str) -> Option<Vec<(String, &'a str)>> {
    match read(get(members, key)?)? {
        Val::Obj(m) => Some(m),
        _ => None,
    }
}

type Found = Option<Result<JsonCall, NotACall>>;

/// The call named `name` with the arguments under the first of `args_keys` present.
fn call(
    name: String,
    members: &[(String, &str)],
    args_keys: &[&str],
) -> Result<JsonCall, NotACall> {
    let bad = || {
        (
            "bad_arguments",
            format!("arguments of {name:?} aren't an object"),
        )
    };
    let value = args_keys
        .iter()
        .filter_map(|k| get(members, k))
        .find(|v| !matches!(read(v), Some(Val::Null)));
    let mut repairs = Vec::new();
    let arguments = match value.map(|v| (v, read(v))) {
        None => "{}".to_string(),
        Some((v, Some(Val::Obj(_)))) => v.to_string(),
        Some((_, Some(Val::Str(s)))) if s.trim().is_empty() => "{}".to_string(),
        Some((_, Some(Val::Str(s)))) => {
            let (obj, more) = strict_or_repaired(&s).map_err(|_| bad())?;
            if !obj.trim_start().starts_with('{') {
                return Err(bad());
            }
            repairs.push("arguments_string_decoded");
            repairs.extend(more);
            obj.trim().to_string()
        }
        Some(_) => return Err(bad()),
    };
    Ok((name, arguments, repairs))
}

/// A call from `{name_key: NAME, args…}`; `need_args` makes an args key required.
fn named(members: &[(String, &str)], args_keys: &[&str], need_args: bool) -> Found {
    let name = string_of(members, "name")?;
    if need_args && !args_keys.iter().any(|k| get(members, k).is_some()) {
        return None;
    }
    Some(call(name, members, args_keys))
}

const OPENAI_ARGS: &[&str] = &["arguments", "parameters"];
const GEMINI_ARGS: &[&str] = &["args", "arguments"];

fn openai_entry(m: &[(String, &str)]) -> Found {
    match object_of(m, "function") {
        Some(f) => named(&f, OPENAI_ARGS, false),
        None => named(m, OPENAI_ARGS, true),
    }
}

/// The calls of one object of `shape` (a list's element or the whole value).
fn object_calls(shape: Shape, m: &[(String, &str)]) -> Vec<Found> {
    match shape {
        Shape::OpenAi => {
            for key in ["tool_calls", "tools"] {
                if let Some(Val::Arr(els)) = get(m, key).and_then(read) {
                    return els
                        .iter()
                        .map(|e| match read(e) {
                            Some(Val::Obj(em)) => openai_entry(&em),
                            _ => None,
                        })
                        .collect();
                }
            }
            match object_of(m, "tool") {
                Some(t) => vec![openai_entry(&t)],
                None => vec![openai_entry(m)],
            }
        }
        Shape::Gemini => vec![match object_of(m, "functionCall") {
            Some(f) => named(&f, GEMINI_ARGS, false),
            None => named(m, GEMINI_ARGS, true),
        }],
        Shape::Default => {
            let Some(t) = object_of(m, "tool") else {
                return vec![None];
            };
            let name = string_of(&t, "function")
                .or_else(|| object_of(&t, "function").and_then(|f| string_of(&f, "name")))
                .or_else(|| string_of(&t, "name"));
            vec![name.map(|n| call(n, &t, &["parameters", "arguments"]))]
        }
        Shape::Llama3 => vec![named(m, &["parameters", "arguments"], true)],
        Shape::Xlam => vec![named(m, OPENAI_ARGS, true)],
    }
}

/// The calls in the complete JSON value `text`, or `None` when it holds none. Elements of a
/// list of calls (or of `tool_calls`) that are not calls are reported as issues.
#[must_use]
pub fn extract(shape: Shape, text: &str) -> Option<Vec<Result<JsonCall, NotACall>>> {
    let (json, repairs) = strict_or_repaired(text).ok()?;
    let found: Vec<Found> = match read(&json)? {
        Val::Obj(m) => object_calls(shape, &m),
        Val::Arr(els) if shape.lists() => els
            .iter()
            .flat_map(|e| match read(e) {
                Some(Val::Obj(m)) => object_calls(shape, &m),
                _ => vec![None],
            })
            .collect(),
        _ => return None,
    };
    if found.iter().all(Option::is_none) {
        return None;
    }
    Some(
        found
            .into_iter()
            .map(|f| {
                let mut f = f.unwrap_or_else(|| {
                    Err((
                        "no_name",
                        "an element of the list is not a call".to_string(),
                    ))
                });
                if let Ok(c) = &mut f {
                    let mut all = repairs.clone();
                    all.extend(c.2.iter().copied().filter(|k| !repairs.contains(k)));
                    c.2 = all;
                }
                f
            })
            .collect(),
    )
}
