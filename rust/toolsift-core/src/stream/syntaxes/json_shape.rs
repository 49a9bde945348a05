//! What each bare-JSON syntax is ([`SPECS`]) and reading the calls out of a complete value by
//! [`Shape`] (the value's end is found by [`Tokenizer`](super::json_tokenizer::Tokenizer)).

use super::super::json_call::{strict_or_repaired, JsonCall, NotACall};
use super::super::KnownTools;
use std::borrow::Cow;

use crate::strict_json::{JsonEvent, StrictReader};

/// The data that defines one bare-JSON syntax.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BareJson {
    /// The syntax's name.
    pub name: &'static str,
    /// Start markers: `{`, `[` (the value's own first byte) or a token a value follows.
    pub markers: &'static [&'static str],
    /// Which JSON values are calls.
    pub shape: Shape,
    /// What may follow a call and belongs to it.
    pub tail: Tail,
}

/// Text after a value that belongs to its call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tail {
    /// Nothing.
    None,
    /// `;` between calls (Llama 3): kept only when another `{` follows.
    Semicolon,
    /// The closing ```` ``` ```` of a fence (or `</tool_call>` after that tag), after blanks.
    Fence,
}

/// Every bare-JSON syntax. A ```` ```json ```` fence holding only a call belongs to the call
/// (its span and raw), so no empty fence stays in the content: a value opened by the fence
/// marker takes its closing fence whatever the syntax's [`Tail`]. Only `xlam` takes the line
/// break before the fence too: `\n` as a marker's first byte makes every line break a
/// candidate (+3.9% instructions on the `json_openai` benchmark, measured; the fence marker
/// alone, +0.2%).
pub const SPECS: &[BareJson] = &[
    BareJson {
        name: "json_openai",
        markers: &["```json", "{", "["],
        shape: Shape::OpenAi,
        tail: Tail::None,
    },
    BareJson {
        name: "json_gemini",
        markers: &["```json", "{", "["],
        shape: Shape::Gemini,
        tail: Tail::None,
    },
    BareJson {
        name: "json_default",
        markers: &["```json", "{", "["],
        shape: Shape::Default,
        tail: Tail::None,
    },
    BareJson {
        name: "llama3_json",
        markers: &["<|python_tag|>", "{"],
        shape: Shape::Llama3,
        tail: Tail::Semicolon,
    },
    BareJson {
        name: "xlam",
        // The newline before a fence belongs to it, as the fence's own line. Some xLAM
        // fine-tunes wrap the list in Hermes-style tags, as vLLM's parser reads.
        markers: &["\n```json", "```json", "<tool_call>", "[", "{"],
        shape: Shape::Xlam,
        tail: Tail::Fence,
    },
];

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

/// An object member: its decoded key (borrowed unless it had escapes) and its value's trimmed
/// JSON text.
pub(crate) type Member<'a> = (Cow<'a, str>, &'a str);

/// One level of a strict JSON value: members or elements as trimmed texts.
pub(crate) enum Val<'a> {
    Obj(Vec<Member<'a>>),
    Arr(Vec<&'a str>),
    Str(Cow<'a, str>),
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

/// The top level of the strict JSON text `json`, or `None` when it is not strict JSON.
pub(crate) fn read(json: &str) -> Option<Val<'_>> {
    let mut r = StrictReader::new(json);
    match r.next_event().ok()?? {
        JsonEvent::StartObject => {
            // A call object has a few members; keys stay borrowed from the text (a copy per
            // key was most of this reader's allocations).
            let mut members = Vec::with_capacity(4);
            loop {
                match r.next_event().ok()?? {
                    JsonEvent::Key(k) => {
                        let start = r.position();
                        let v = r.next_event().ok()??;
                        skip_nested(&mut r, &v, 1)?;
                        members.push((k, json.get(start..r.position())?.trim()));
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
        JsonEvent::String(s) => Some(Val::Str(s)),
        JsonEvent::Null => Some(Val::Null),
        _ => Some(Val::Other),
    }
}

fn get<'a>(members: &[Member<'a>], key: &str) -> Option<&'a str> {
    members.iter().find(|(k, _)| k == key).map(|(_, v)| *v)
}

fn string_of(members: &[Member<'_>], key: &str) -> Option<String> {
    match read(get(members, key)?)? {
        Val::Str(s) if !s.trim().is_empty() => Some(s.trim().to_string()),
        _ => None,
    }
}

fn object_of<'a>(members: &[Member<'a>], key: &str) -> Option<Vec<Member<'a>>> {
    match read(get(members, key)?)? {
        Val::Obj(m) => Some(m),
        _ => None,
    }
}

type Found = Option<Result<JsonCall, NotACall>>;

/// The call named `name` with the arguments under the first of `args_keys` present.
fn call(name: String, members: &[Member<'_>], args_keys: &[&str]) -> Result<JsonCall, NotACall> {
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

/// A call from `{name_key: NAME, args…}`; `need_args` makes an args key required, unless
/// the name is one of the `known` tools: prose JSON may have a `name`, a declared tool's
/// name with no arguments is a call with none.
fn named(members: &[Member<'_>], args_keys: &[&str], need_args: bool, known: &KnownTools) -> Found {
    let name = string_of(members, "name")?;
    if need_args && !args_keys.iter().any(|k| get(members, k).is_some()) && !known.contains(&name) {
        return None;
    }
    Some(call(name, members, args_keys))
}

const OPENAI_ARGS: &[&str] = &["arguments", "parameters"];
const GEMINI_ARGS: &[&str] = &["args", "arguments"];

fn openai_entry(m: &[Member<'_>], known: &KnownTools) -> Found {
    match object_of(m, "function") {
        Some(f) => named(&f, OPENAI_ARGS, false, known),
        None => named(m, OPENAI_ARGS, true, known),
    }
}

/// The call of `{"tool": {"function": NAME, "parameters": {...}}}` (or `"function": {"name"}`,
/// or `"name"`).
fn default_entry(m: &[Member<'_>]) -> Found {
    let t = object_of(m, "tool")?;
    let name = string_of(&t, "function")
        .or_else(|| object_of(&t, "function").and_then(|f| string_of(&f, "name")))
        .or_else(|| string_of(&t, "name"))?;
    Some(call(name, &t, &["parameters", "arguments"]))
}

/// The calls of one object of `shape` (a list's element or the whole value).
/// A call found in an object, with the string `id` of the object it came from.
type WithId = (Found, Option<String>);

/// A call (or why an element is none) of a complete value, with its object's `id`.
pub type Extracted = (Result<JsonCall, NotACall>, Option<String>);

fn with_id(found: Found, m: &[Member<'_>]) -> WithId {
    let id = found.as_ref().and(string_of(m, "id"));
    (found, id)
}

/// The calls of one object of `shape` (a list's element or the whole value), each with its
/// entry's `id`.
fn object_calls(shape: Shape, known: &KnownTools, m: &[Member<'_>]) -> Vec<WithId> {
    match shape {
        Shape::OpenAi => {
            for key in ["tool_calls", "tools"] {
                if let Some(Val::Arr(els)) = get(m, key).and_then(read) {
                    return els
                        .iter()
                        .map(|e| match read(e) {
                            Some(Val::Obj(em)) => with_id(openai_entry(&em, known), &em),
                            _ => (None, None),
                        })
                        .collect();
                }
            }
            match object_of(m, "tool") {
                Some(t) => vec![with_id(openai_entry(&t, known), &t)],
                None => vec![with_id(openai_entry(m, known), m)],
            }
        }
        Shape::Gemini => vec![match object_of(m, "functionCall") {
            // Gemini's `functionCall` carries the id; an id beside it counts too.
            Some(f) => {
                let (found, id) = with_id(named(&f, GEMINI_ARGS, false, known), &f);
                let id = id.or_else(|| found.as_ref().and(string_of(m, "id")));
                (found, id)
            }
            None => with_id(named(m, GEMINI_ARGS, true, known), m),
        }],
        // `{"tool": {...}}`, or several under `{"tools": [{"tool": {...}}, ...]}` (with
        // other members, such as a `thought`, beside it).
        Shape::Default => match get(m, "tools").and_then(read) {
            Some(Val::Arr(els)) => els
                .iter()
                .map(|e| match read(e) {
                    Some(Val::Obj(em)) => with_id(default_entry(&em), &em),
                    _ => (None, None),
                })
                .collect(),
            _ => vec![with_id(default_entry(m), m)],
        },
        Shape::Llama3 => vec![with_id(
            named(m, &["parameters", "arguments"], true, known),
            m,
        )],
        Shape::Xlam => vec![with_id(named(m, OPENAI_ARGS, true, known), m)],
    }
}

/// Whether the object `m` says it holds calls: `OpenAI`'s `tool_calls` list, or the default
/// profile's `tools` list of `{"tool": ...}` objects. (A `tools` list of anything else may be
/// data: `{"tools": ["saw", "drill"]}`.)
fn wraps_calls(shape: Shape, m: &[Member<'_>]) -> bool {
    match shape {
        Shape::OpenAi => matches!(get(m, "tool_calls").and_then(read), Some(Val::Arr(_))),
        Shape::Default => matches!(
            get(m, "tools").and_then(read),
            Some(Val::Arr(els)) if els
                .iter()
                .all(|e| matches!(read(e), Some(Val::Obj(em)) if get(&em, "tool").is_some()))
        ),
        _ => false,
    }
}

/// The calls in the complete JSON value `text`, each with the string `id` of the object it
/// came from (an `OpenAI` `tool_calls` entry's, Gemini's `functionCall`'s), or `None` when it
/// holds none. Elements of a list of calls (or of `tool_calls`) that are not calls are
/// reported as issues. An object with a name but no arguments key is a call only when the
/// name is one of `known`.
#[must_use]
pub fn extract(shape: Shape, known: &KnownTools, text: &str) -> Option<Vec<Extracted>> {
    let (json, repairs) = strict_or_repaired(text).ok()?;
    // `{"tool_calls": [...]}` says it holds calls: elements that are none are reported even
    // when no element is a call, rather than the value passing for prose.
    let mut wrapped = false;
    let found: Vec<WithId> = match read(&json)? {
        Val::Obj(m) => {
            let found = object_calls(shape, known, &m);
            // Asked only when no call was found (it reads the wrapper's list again).
            wrapped = found.iter().all(|(f, _)| f.is_none()) && wraps_calls(shape, &m);
            found
        }
        Val::Arr(els) if shape.lists() => els
            .iter()
            .flat_map(|e| match read(e) {
                Some(Val::Obj(m)) => object_calls(shape, known, &m),
                _ => vec![(None, None)],
            })
            .collect(),
        _ => return None,
    };
    if found.is_empty() || (!wrapped && found.iter().all(|(f, _)| f.is_none())) {
        return None;
    }
    Some(
        found
            .into_iter()
            .map(|(f, id)| {
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
                (f, id)
            })
            .collect(),
    )
}
