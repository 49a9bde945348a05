//! The usual sentinel header read in one pass over its bytes: an object whose keys and string
//! values hold no escape (`{"type": "write_file", "path": "src/a.py"}`). Read by events, such a
//! header cost ~950 instructions for `{"type": "run_bash"}` and ~1,400 with a path, most of
//! it the reader's per-event state; here a key or a string is a search for its closing quote.
//!
//! A `tool` header's arguments object whose values are all strings is read the same way
//! (`flat_object`: an escaped value, a file's content, is decoded by a [`StrictReader`] of
//! its own). Any other value (an arguments object with a number in it, an array) is read by
//! a [`StrictReader`] of its own, as [`read_members`](super::read_members) reads it.
//! Anything this pass does not take (an escape in a key or a string value, anything not
//! strict) gives `None`, and the caller reads the header the long way, which decides about
//! it: this pass only ever gives what that one would.

use std::borrow::Cow;

use super::{has_u_escape, read_flat, ArgsObject, Member, ARGS_KEYS, LEADING_DEPTH};
use crate::strict_json::{next_special, JsonEvent, StrictReader};

/// The members of the object that opens `text`, where it ends, and whether it holds a `\u`
/// escape, when it is strict JSON whose keys and top-level string values hold no backslash;
/// else `None` (see the module docs). Only a nested value can hold the escape, so only they
/// are searched for it (the whole header was, by a searcher per header).
pub(super) fn leading(text: &str, one_shot: bool) -> Option<(Vec<Member<'_>>, usize, bool)> {
    let b = text.as_bytes();
    let mut i = blanks(b, 0);
    if b.get(i) != Some(&b'{') {
        return None;
    }
    i = blanks(b, i + 1);
    // A header has a few members: `type`, `path`, a name, arguments.
    let mut out = Vec::with_capacity(4);
    if b.get(i) == Some(&b'}') {
        return Some((out, i + 1, false));
    }
    let mut deepest = 1;
    let mut u_escape = false;
    loop {
        let (key, after) = plain_string(text, i)?;
        i = blanks(b, after);
        if b.get(i) != Some(&b':') {
            return None;
        }
        let start = i + 1;
        i = blanks(b, start);
        if b.get(i) == Some(&b'"') {
            let (value, after) = plain_string(text, i)?;
            out.push((Cow::Borrowed(key), Cow::Borrowed(value), true, None));
            i = after;
        } else {
            let (end, depth, flat) = other_value(text, i, key, one_shot)?;
            deepest = deepest.max(1 + depth);
            let value = text.get(start..end)?.trim();
            // As `read_members`: a lone surrogate escape keeps the JSON way.
            let escaped = has_u_escape(value);
            u_escape |= escaped;
            let flat = flat.filter(|_| !escaped);
            out.push((Cow::Borrowed(key), Cow::Borrowed(value), false, flat));
            i = end;
        }
        i = blanks(b, i);
        match b.get(i) {
            Some(b',') => i = blanks(b, i + 1),
            Some(b'}') => return (deepest <= LEADING_DEPTH).then_some((out, i + 1, u_escape)),
            _ => return None,
        }
    }
}

/// Where the JSON blanks from `i` end.
fn blanks(b: &[u8], mut i: usize) -> usize {
    while matches!(b.get(i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        i += 1;
    }
    i
}

/// The string whose opening quote is at `i` and the index after its closing quote, when it
/// holds no backslash and no control character.
fn plain_string(text: &str, i: usize) -> Option<(&str, usize)> {
    let b = text.as_bytes();
    if b.get(i) != Some(&b'"') {
        return None;
    }
    let start = i + 1;
    // The first quote, backslash or control byte, a word at a time.
    let end = next_special(b, start);
    if b.get(end) != Some(&b'"') {
        return None;
    }
    // Both ends are at ASCII quotes, so on character boundaries.
    Some((text.get(start..end)?, end + 1))
}

/// A value that is not a string, at `i`, read by a reader of its own: where it ends, how deep
/// it nests, and the decoded pairs of an arguments object whose values are all strings (as
/// `read_members` reads them, for a one-shot parse).
fn other_value(
    text: &str,
    i: usize,
    key: &str,
    one_shot: bool,
) -> Option<(usize, usize, Option<super::Flat>)> {
    let rest = text.get(i..)?;
    if one_shot && rest.starts_with('{') && ARGS_KEYS.contains(&key) {
        match flat_object(text, i) {
            // One level deep: its strings do not nest.
            Flat::Pairs(pairs, end) => return Some((end, 1, Some(pairs))),
            Flat::Not => {
                // Skipped whole, as `read_flat` skips the rest of such an object.
                let mut reader = StrictReader::new(rest);
                reader.next_event().ok()??;
                reader.skip_to_depth(0).ok()?;
                return Some((i + reader.position(), reader.deepest(), None));
            }
            Flat::Unsure => {}
        }
    }
    let mut reader = StrictReader::new(rest);
    let first = reader.next_event().ok()??;
    let mut flat = None;
    if one_shot && matches!(first, JsonEvent::StartObject) && ARGS_KEYS.contains(&key) {
        if let ArgsObject::Strings(pairs) = read_flat(&mut reader, 0)? {
            flat = Some(pairs);
        }
    } else if matches!(first, JsonEvent::StartObject | JsonEvent::StartArray) {
        reader.skip_to_depth(0).ok()?;
    }
    Some((i + reader.position(), reader.deepest(), flat))
}

/// What [`flat_object`] made of an object.
enum Flat {
    /// All its values are strings and its keys unique: the pairs, decoded, and where it ends.
    Pairs(Vec<(String, String)>, usize),
    /// Valid so far, but a value is not a string or a key repeats: not flat (`read_flat`'s
    /// `Other`), if the rest is strict JSON.
    Not,
    /// Something this pass does not read (an escaped key, anything not strict): the reader
    /// decides.
    Unsure,
}

/// The object at `i` read as `read_flat` reads it, with the same pairs, when it can be; a
/// value with an escape (a file's content) is decoded by a reader of its own. Read by
/// events, each key and value of a `tool` header's arguments cost ~200 instructions of the
/// reader's state.
fn flat_object(text: &str, i: usize) -> Flat {
    let b = text.as_bytes();
    let mut at = blanks(b, i + 1);
    let mut pairs: Vec<(String, String)> = Vec::new();
    if b.get(at) == Some(&b'}') {
        return Flat::Pairs(pairs, at + 1);
    }
    loop {
        let Some((key, after)) = plain_string(text, at) else {
            return Flat::Unsure;
        };
        at = blanks(b, after);
        if b.get(at) != Some(&b':') {
            return Flat::Unsure;
        }
        at = blanks(b, at + 1);
        let (value, after) = match (plain_string(text, at), b.get(at)) {
            (Some((value, after)), _) => (value.to_owned(), after),
            (None, Some(b'"')) => match escaped_string(text, at) {
                Some(read) => read,
                None => return Flat::Unsure,
            },
            _ => return Flat::Not,
        };
        pairs.push((key.to_owned(), value));
        at = blanks(b, after);
        match b.get(at) {
            Some(b',') => at = blanks(b, at + 1),
            Some(b'}') => break,
            _ => return Flat::Unsure,
        }
    }
    if super::unique_keys(&pairs) {
        Flat::Pairs(pairs, at + 1)
    } else {
        Flat::Not
    }
}

/// The string at `i` decoded by a reader of its own, and the index after it.
fn escaped_string(text: &str, i: usize) -> Option<(String, usize)> {
    let mut reader = StrictReader::new(text.get(i..)?);
    let JsonEvent::String(value) = reader.next_event().ok()?? else {
        return None;
    };
    Some((value.into_owned(), i + reader.position()))
}

#[cfg(test)]
mod tests {
    use super::super::read_members;
    use super::leading;
    use proptest::prelude::*;

    /// Header pieces: keys and values of every kind the long way reads, with escapes, blanks
    /// and broken ones among them.
    const KEYS: &[&str] = &[
        r#""type""#,
        r#""path""#,
        r#""tool_name""#,
        r#""arguments""#,
        r#""args""#,
        r#""ty\"pe""#,
        r#""a]]b""#,
        "\"k\u{1}\"",
        r#""é日😀""#,
        "type",
    ];
    const VALUES: &[&str] = &[
        r#""write_file""#,
        r#""run_bash""#,
        r#""tool""#,
        r#""src/a.py""#,
        r#""a\"b""#,
        r#""\u00e9""#,
        r#""""#,
        "\"x\ty\"",
        r#""日本 😀""#,
        "null",
        "true",
        "-1.5e3",
        "01",
        r#"{"path": "a.py", "content": "x = \"1\"\n\tq"}"#,
        r#"{"k": "1", "n": 2}"#,
        r#"{"k": "\u00e9"}"#,
        r#"{"k": "\ud800"}"#,
        r#"{"k": "1", "k": "2"}"#,
        "[1, {\"a\": [[]]}]",
        "{}",
        "[",
        "{\"a\": }",
    ];
    const BLANKS: &[&str] = &["", " ", "\n\t", "\r ", "\u{a0}"];

    /// A header and whether its keys and top-level string values are all plain (no
    /// backslash): those this pass must read whenever the long way does.
    fn header() -> impl Strategy<Value = (String, bool)> {
        let member = (
            0..KEYS.len(),
            0..BLANKS.len(),
            0..VALUES.len(),
            0..BLANKS.len(),
        )
            .prop_map(|(k, a, v, z)| {
                let escaped = VALUES[v].starts_with('"') && VALUES[v].contains('\\');
                let plain = !(KEYS[k].contains('\\') || escaped);
                (
                    format!("{}{}:{}{}", KEYS[k], BLANKS[a], BLANKS[z], VALUES[v]),
                    plain,
                )
            });
        (
            prop::collection::vec(member, 0..5),
            0..BLANKS.len(),
            prop::sample::select(vec!["", ",", " ]]x", "}", " ]] [[SEG_END]]"]),
        )
            .prop_map(|(members, b, tail)| {
                let plain = members.iter().all(|m| m.1);
                let members: Vec<String> = members.into_iter().map(|m| m.0).collect();
                let text = format!("{}{{{}{}}}{tail}", BLANKS[b], members.join(", "), BLANKS[b]);
                (text, plain)
            })
    }

    proptest! {
        /// Whatever this pass reads is what the long way reads, and it reads every header
        /// whose keys and top-level strings are plain.
        #[test]
        fn reads_what_the_long_way_reads((text, plain) in header(), one_shot in any::<bool>()) {
            let long = read_members(&text, true, one_shot);
            match leading(&text, one_shot) {
                Some((found, end, u_escape)) => {
                    prop_assert_eq!(u_escape, text[..end].contains("\\u"), "{}", text);
                    prop_assert_eq!(Some((found, end)), long, "{}", text);
                }
                None => prop_assert!(long.is_none() || !plain, "{}", text),
            }
        }
    }

    #[test]
    fn the_usual_headers_are_read_here() {
        for text in [
            r#"{"type": "run_bash"}]]"#,
            r#"{"type":"write_file","path":"src/a.py"} ]]"#,
            r"{}]]",
            r#"{"type": "tool", "tool_name": "f", "arguments": {"q": "a\nb", "n": 1}}]]"#,
        ] {
            let (found, end, u_escape) = leading(text, true).expect(text);
            assert!(!u_escape, "{text}");
            assert_eq!(Some((found, end)), read_members(text, true, true), "{text}");
        }
    }

    #[test]
    fn too_deep_a_value_is_left_to_the_long_way() {
        let deep = format!("{{\"a\": {}1{}}}", "[".repeat(63), "]".repeat(63));
        let deeper = format!("{{\"a\": {}1{}}}", "[".repeat(64), "]".repeat(64));
        assert!(leading(&deep, true).is_some());
        assert_eq!(leading(&deeper, true), None);
    }
}
