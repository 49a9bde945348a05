//! The sentinel header: its members read once, and the segment it opens announced.

use std::borrow::Cow;

use super::{Body, SentinelParser, State, ARGS_KEYS, FILE_TYPES, NAME_KEYS};
use crate::stream::events::SegmentKind;
use crate::stream::json_call::{call_of, strict_or_repaired, ArgsValue, JsonCall};
use crate::stream::Sink;
use crate::strict_json::{JsonEvent, StrictReader};

/// A header member: `(key, value, is_string, flat)`, where `flat` holds the decoded members
/// of an object under an arguments key whose values are all strings, keys unique and free of
/// `\u` escapes (see [`read_flat`]).
pub(super) type Member<'a> = (Cow<'a, str>, Cow<'a, str>, bool, Option<Flat>);

/// An arguments object's members, all strings, decoded.
pub(super) type Flat = Vec<(String, String)>;

/// How deep a header read by [`leading`] may nest: deeper ones take the scanner's way, whose
/// depth limit decides about them, so both ways agree on every header.
const LEADING_DEPTH: usize = 64;

/// The top-level members of a JSON object: `(key, value, is_string, flat)`, string values
/// decoded and other values as JSON text; borrowed from `json` where they can be. `flat`
/// pairs are read only when `one_shot` (a stream's events carry the JSON, so decoding them
/// would be work thrown away).
fn members(json: &str, one_shot: bool) -> Option<Vec<Member<'_>>> {
    read_members(json, false, one_shot).map(|(found, _)| found)
}

/// The members of the strict JSON object that opens `text` (borrowed from it where they can
/// be) and where it ends; `None` when no complete strict object opens it (or one holds a `\u`
/// escape or nests deeper than [`LEADING_DEPTH`]). For such an object this is what the bracket
/// scanner and [`members`] would give (the same end, the same members) in one pass instead of
/// two.
pub(super) fn leading(text: &str, one_shot: bool) -> Option<(Vec<Member<'_>>, usize)> {
    if let Some((found, end, u_escape)) = fast::leading(text, one_shot) {
        return (!u_escape).then_some((found, end));
    }
    let (found, end) = read_members(text, true, one_shot)?;
    (!has_u_escape(text.get(..end)?)).then_some((found, end))
}

/// `found`, owned: kept for a later feed.
pub(super) fn owned(found: Vec<Member<'_>>) -> Vec<Member<'static>> {
    let own = |c: Cow<'_, str>| Cow::Owned(c.into_owned());
    found
        .into_iter()
        .map(|(k, v, s, flat)| (own(k), own(v), s, flat))
        .collect()
}

/// The bytes of blanks and then `]]` that open `bytes`, when all of them are there.
pub(super) fn closing(bytes: &[u8]) -> Option<usize> {
    let blanks = bytes.iter().take_while(|b| b.is_ascii_whitespace()).count();
    bytes[blanks..].starts_with(b"]]").then_some(blanks + 2)
}

/// Whether `text` holds a backslash followed by `u`. One searcher made once: `str::contains`
/// set one up for each header, which cost more than reading most headers.
fn has_u_escape(text: &str) -> bool {
    static FINDER: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"\\u"));
    FINDER.find(text.as_bytes()).is_some()
}

/// [`members`]; with `leading`, of the object that opens `json` (text may follow it), with
/// the offset where it ends.
fn read_members(json: &str, leading: bool, one_shot: bool) -> Option<(Vec<Member<'_>>, usize)> {
    let mut reader = StrictReader::new(json);
    if !matches!(reader.next_event(), Ok(Some(JsonEvent::StartObject))) {
        return None;
    }
    // A header has a few members: `type`, `path`, a name, arguments.
    let mut out = Vec::with_capacity(4);
    while let Some(event) = reader.next_event().ok()? {
        if leading && reader.depth() == 0 {
            // The object closed.
            return (reader.deepest() <= LEADING_DEPTH).then(|| (out, reader.position()));
        }
        let JsonEvent::Key(key) = event else { continue };
        let start = reader.position();
        let value = reader.next_event().ok()??;
        let mut flat = None;
        if one_shot && matches!(value, JsonEvent::StartObject) && ARGS_KEYS.contains(&key.as_ref())
        {
            if let ArgsObject::Strings(pairs) = read_flat(&mut reader, 1)? {
                flat = Some(pairs);
            }
        } else if matches!(value, JsonEvent::StartObject | JsonEvent::StartArray) {
            // Only where a nested value ends is wanted, not its events.
            reader.skip_to_depth(1).ok()?;
        }
        if let JsonEvent::String(s) = value {
            out.push((key, s, true, None));
        } else {
            let text = json.get(start..reader.position())?.trim();
            // A lone surrogate escape decodes to U+FFFD here, which a strict loader
            // refuses: such arguments keep the JSON way.
            let flat = flat.filter(|_| !has_u_escape(text));
            out.push((key, Cow::Borrowed(text), false, flat));
        }
    }
    (!leading).then(|| (out, reader.position()))
}

/// What [`read_flat`] found in an arguments object.
enum ArgsObject {
    /// Its members, all strings with unique keys, decoded.
    Strings(Flat),
    /// Any other object (read to its end).
    Other,
}

/// The rest of the object `reader` has just opened (inside `outer` levels); `None` when it is
/// not strict JSON. At its first value that is not a string the rest is skipped, unread. A
/// `tool` header's arguments read here are built into a dict from their strings by the host,
/// where loading their JSON again (orjson, on a file's content escaped) took a fifth of a
/// sentinel batch's instructions.
fn read_flat(reader: &mut StrictReader<'_>, outer: usize) -> Option<ArgsObject> {
    let mut pairs: Flat = Vec::new();
    loop {
        let key = match reader.next_event().ok()?? {
            JsonEvent::EndObject => break,
            JsonEvent::Key(key) => key,
            _ => return None,
        };
        let JsonEvent::String(value) = reader.next_event().ok()?? else {
            reader.skip_to_depth(outer).ok()?;
            return Some(ArgsObject::Other);
        };
        pairs.push((key.into_owned(), value.into_owned()));
    }
    Some(if unique_keys(&pairs) {
        ArgsObject::Strings(pairs)
    } else {
        ArgsObject::Other
    })
}

/// Whether no key of `pairs` repeats (a repeated key's JSON value is its last, and a list
/// where the engine writes arguments: such objects keep the JSON way). Compared in turn for
/// the few keys of most calls, with a set past them, so that many keys cost linear time.
fn unique_keys(pairs: &Flat) -> bool {
    const FEW: usize = 16;
    if pairs.len() <= FEW {
        return pairs
            .iter()
            .enumerate()
            .all(|(i, (k, _))| pairs[..i].iter().all(|(seen, _)| seen != k));
    }
    let mut seen = std::collections::HashSet::with_capacity(pairs.len());
    pairs.iter().all(|(k, _)| seen.insert(k.as_str()))
}

/// A `tool` header's own call, from its members: what `read_call` of the header gives, without
/// reading the header a second time (it was a sixth of a sentinel batch's work). The name is
/// the first non-empty string under a name key (in their order), the arguments the first
/// non-null value under an arguments key.
fn header_call(members: &[Member<'_>]) -> Option<JsonCall> {
    let name = NAME_KEYS.iter().find_map(|key| {
        members
            .iter()
            .find(|(k, v, string, _)| k == key && *string && !v.trim().is_empty())
            .map(|(_, v, _, _)| v.trim().to_string())
    });
    let args = args_index(members)
        .map(|i| &members[i])
        .map(|(_, v, string, _)| {
            if *string {
                ArgsValue::Text(Cow::Borrowed(v.as_ref()))
            } else {
                ArgsValue::Json(v)
            }
        });
    call_of(name, args, Vec::new(), NAME_KEYS).ok()
}

/// The member [`header_call`] takes the arguments from: the first non-null value under an
/// arguments key, in their order.
fn args_index(members: &[Member<'_>]) -> Option<usize> {
    ARGS_KEYS.iter().find_map(|key| {
        members
            .iter()
            .position(|(k, v, string, _)| k == key && (*string || v != "null"))
    })
}

impl SentinelParser {
    /// Reads the complete header and announces the segment; `None` if it is not valid.
    pub(super) fn open(&mut self, sink: &mut Sink) -> Option<()> {
        // Taken out while its members are borrowed from it, and put back (repaired, if it was).
        let header = std::mem::take(&mut self.header);
        // A header that is strict JSON as written (the usual case) is read once: reading its
        // members checks what `is_strict_json` checks, but for a lone surrogate escape, which
        // reading takes (as U+FFFD) and validation refuses, so such headers take the long way.
        let as_written = if let Some(read) = self.read.take() {
            Some(read)
        } else if has_u_escape(&header) {
            None
        } else {
            members(&header, sink.one_shot())
        };
        let repaired = match as_written {
            Some(_) => None,
            None => strict_or_repaired(&header).ok().map(|r| r.0),
        };
        let opened = match (as_written, &repaired) {
            (Some(mut members), _) => self.open_members(&mut members, sink),
            (None, Some(json)) => {
                members(json, sink.one_shot()).and_then(|mut m| self.open_members(&mut m, sink))
            }
            (None, None) => None,
        };
        self.header = repaired.unwrap_or(header);
        opened
    }

    /// Announces the segment the header `members` open; `None` if they do not open one.
    pub(super) fn open_members(
        &mut self,
        members: &mut [Member<'_>],
        sink: &mut Sink,
    ) -> Option<()> {
        let kind = members
            .iter()
            .find(|(k, _, s, _)| k == "type" && *s)
            .map(|m| m.1.as_ref())?;
        let body = match kind {
            "text" => Body::Text,
            "tool" | "tool_call" => Body::Tool,
            _ => FILE_TYPES
                .iter()
                .find(|t| t.0 == kind)
                .map(|t| Body::File(t.0, t.1))?,
        };
        let path = members
            .iter()
            .find(|m| m.0 == "path" && m.2)
            .map(|m| m.1.as_ref());
        // A one-shot parse never sees a segment's metadata: it is not copied out for one.
        let metadata: Vec<(String, String)> = if sink.one_shot() {
            Vec::new()
        } else {
            members
                .iter()
                .filter(|m| m.0 != "type")
                .map(|m| (m.0.to_string(), m.1.to_string()))
                .collect()
        };
        match body {
            Body::Text => sink.start(SegmentKind::Text, None, metadata),
            Body::Tool => {
                self.header_call = header_call(members);
                // Read for a one-shot parse only (see `members`).
                self.header_flat = args_index(members).and_then(|i| members[i].3.take());
                let name = self.header_call.as_ref().map(|c| c.0.as_str());
                sink.start(SegmentKind::ToolCall, name, metadata);
            }
            Body::File(name, key) => {
                let seg = FILE_TYPES.iter().find(|t| t.0 == name).map(|t| t.2);
                sink.start(seg.unwrap_or(SegmentKind::ToolCall), Some(name), metadata);
                // A command has no path (a header's `path` stays metadata).
                if key != "command" {
                    if let Some(path) = path {
                        self.args.string_value("path", path, sink);
                    }
                }
                self.args.begin_string(key, sink);
            }
        }
        self.state = State::Body(body);
        Some(())
    }
}

#[path = "sentinel_header_fast.rs"]
mod fast;

#[cfg(test)]
mod tests {
    use super::{
        closing, has_u_escape, header_call, leading, members, owned, ARGS_KEYS, NAME_KEYS,
    };
    use crate::stream::json_call::read_call;
    use proptest::prelude::*;

    const KEYS: &[&str] = &[
        "tool_name",
        "name",
        "tool",
        "arguments",
        "args",
        "parameters",
        "params",
        "type",
    ];
    const VALUES: &[&str] = &[
        r#""""#,
        r#"" f ""#,
        r#""g""#,
        "null",
        r#"{"a": [1, {"b": null}]}"#,
        r#""{\"b\": 2}""#,
        r#""{'c': 3,}""#,
        r#""[1]""#,
        "[1]",
        "3",
        r#"{"path": "a.py", "content": "x = \"1\"\n\tq"}"#,
        r#"{"k": "1", "k": "2"}"#,
        r#"{"k": "1", "n": 2, "m": "3"}"#,
        r#"{"k": "\u00e9"}"#,
        "{}",
        r#""not json""#,
        r#""  ""#,
    ];

    proptest! {
        #[test]
        fn the_call_from_members_is_the_call_read_again(
            picks in proptest::collection::vec((0..KEYS.len(), 0..VALUES.len()), 0..7)
        ) {
            let body: Vec<String> = picks
                .iter()
                .map(|&(k, v)| format!("\"{}\": {}", KEYS[k], VALUES[v]))
                .collect();
            let header = format!("{{{}}}", body.join(", "));
            let found = members(&header, true).expect("strict JSON");
            prop_assert_eq!(
                header_call(&found),
                read_call(&header, NAME_KEYS, ARGS_KEYS).ok(),
                "{}",
                header
            );
            // Read while its end is found, with text after it: the same members, its end.
            // (A header with a `\u` escape is not read so: see `leading`.)
            let text = format!("{header} ]]x}}]]");
            if let Some((read, end)) = leading(&text, true) {
                prop_assert_eq!(end, header.len());
                prop_assert_eq!(closing(&text.as_bytes()[end..]), Some(3));
                prop_assert_eq!(owned(read), found.clone());
            } else {
                prop_assert!(header.contains("\\u"));
            }
            // Each member's flat pairs are its object's members when all are strings,
            // keys unique and no `\u` escape in it; else there are none.
            for (key, value, string, flat) in &found {
                let Some(pairs) = flat else { continue };
                prop_assert!(ARGS_KEYS.contains(&key.as_ref()) && !string);
                let inner = members(value, true).expect("an object");
                prop_assert!(!value.contains("\\u"));
                let want: Vec<(String, String)> = inner
                    .iter()
                    .map(|(k, v, s, _)| s.then(|| (k.to_string(), v.to_string())))
                    .collect::<Option<_>>()
                    .expect("all strings");
                prop_assert_eq!(pairs, &want);
            }
            for (key, value, string, flat) in &found {
                let Some(inner) = (!string && ARGS_KEYS.contains(&key.as_ref()))
                    .then(|| members(value, true))
                    .flatten()
                else {
                    continue;
                };
                let keys: std::collections::HashSet<_> = inner.iter().map(|m| &m.0).collect();
                let all_strings = inner.iter().all(|m| m.2) && keys.len() == inner.len();
                prop_assert_eq!(
                    flat.is_some(),
                    all_strings && !value.contains("\\u"),
                    "{}",
                    value
                );
            }
        }
    }

    #[test]
    fn a_closing_is_blanks_then_both_brackets() {
        for (text, found) in [
            ("]]", Some(2)),
            (" \n\t]]x", Some(5)),
            ("]] ]]", Some(2)),
            ("]", None),
            (" ]", None),
            ("x]]", None),
            ("", None),
            ("  ", None),
        ] {
            assert_eq!(closing(text.as_bytes()), found, "{text:?}");
        }
    }

    #[test]
    fn a_u_escape_is_a_backslash_then_u_anywhere() {
        for (text, found) in [
            (r"\u0041", true),
            (r"ab\\cd\u", true),
            (r"\\", false),
            (r"u\", false),
            ("", false),
        ] {
            assert_eq!(has_u_escape(text), found, "{text}");
            assert_eq!(has_u_escape(text), text.contains("\\u"), "{text}");
        }
    }

    #[test]
    fn only_a_whole_strict_shallow_header_without_u_escapes_is_read_leading() {
        let deep = format!("{{\"a\": {}1{}}}", "[".repeat(63), "]".repeat(63));
        let deeper = format!("{{\"a\": {}1{}}}", "[".repeat(64), "]".repeat(64));
        assert!(leading(&deep, true).is_some());
        for text in [
            deeper.as_str(),
            r#"{"type": "tool", "name": "f""#, // not closed yet
            r"{'type': 'text'}]]",
            r#"{"type": "te\u0078t"}]]"#,
            r#"{"a": 1,}]]"#,
        ] {
            assert_eq!(leading(text, true), None, "{text}");
        }
        let (read, end) = leading(r#"{"p": "a]]}", "n": [1]}]]"#, true).expect("strict");
        assert_eq!(end, 23);
        assert_eq!(read[0].1, "a]]}");
        assert_eq!(read[1].1, "[1]");
    }
}
