//! Reading a call out of a JSON object: the name and the arguments under alias keys.

use crate::repair::{repair_json, RepairOptions};
use crate::strict_json::{is_strict_json, JsonEvent, StrictReader};

/// A call read from JSON: name, arguments JSON text, repair kinds.
pub type JsonCall = (String, String, Vec<&'static str>);

/// Why a JSON object is not a call: `(kind, message)`.
pub type NotACall = (&'static str, String);

/// Makes `text` strict JSON, repairing it when needed; returns it and the repair kinds.
pub fn strict_or_repaired(text: &str) -> Result<(String, Vec<&'static str>), NotACall> {
    if is_strict_json(text) {
        return Ok((text.to_string(), Vec::new()));
    }
    repaired(text)
}

/// `text`, known not to be strict JSON, repaired; with the repair kinds.
fn repaired(text: &str) -> Result<(String, Vec<&'static str>), NotACall> {
    match repair_json(text, &RepairOptions::default()) {
        Ok(r) => {
            let mut kinds: Vec<&'static str> = Vec::new();
            for k in r.repairs.iter().map(|x| x.kind.as_str()) {
                if !kinds.contains(&k) {
                    kinds.push(k);
                }
            }
            Ok((r.text, kinds))
        }
        Err(e) => Err(("not_json", format!("not JSON: {e}"))),
    }
}

/// What one pass over a call object found: the name under each name key, and the span of
/// the value under each arguments key (with whether it is a string). Arrays, not vectors:
/// two allocations per call read; every syntax has one to four keys of each, and a key past
/// [`MAX_KEYS`] is never looked for.
type Found = (
    [Option<String>; MAX_KEYS],
    [Option<(usize, usize, bool)>; MAX_KEYS],
);

/// The most name keys, and the most arguments keys, a call is read with.
const MAX_KEYS: usize = 8;

/// One pass of the strict reader over `json`: `Err` when it is not strict JSON (then it is
/// repaired and read again), `Ok(Err)` when it is JSON but not an object.
fn scan_call(
    json: &str,
    name_keys: &[&str],
    args_keys: &[&str],
) -> Result<Result<Found, NotACall>, crate::Error> {
    let mut reader = StrictReader::new(json);
    scan_with(&mut reader, name_keys, args_keys, false)
}

/// [`scan_call`] on `reader`; with `leading`, the reader stops where the object closes, so
/// text may follow it.
fn scan_with(
    reader: &mut StrictReader<'_>,
    name_keys: &[&str],
    args_keys: &[&str],
    leading: bool,
) -> Result<Result<Found, NotACall>, crate::Error> {
    let mut names: [Option<String>; MAX_KEYS] = Default::default();
    let mut args: [Option<(usize, usize, bool)>; MAX_KEYS] = [None; MAX_KEYS];
    if !matches!(reader.next_event()?, Some(JsonEvent::StartObject)) {
        // Still the whole text must be JSON for this to be the answer.
        while reader.next_event()?.is_some() {}
        return Ok(Err((
            "not_an_object",
            "the JSON is not an object".to_string(),
        )));
    }
    // Only the call object's own keys and its name values are read; every other string is
    // checked without being decoded (a file's content may be most of the text).
    loop {
        reader.set_skip_strings(reader.depth() != 1);
        let Some(event) = reader.next_event()? else {
            break;
        };
        if leading && reader.depth() == 0 {
            break; // the object closed
        }
        let JsonEvent::Key(key) = event else { continue };
        if reader.depth() != 1 {
            continue;
        }
        let value_start = reader.position();
        let name_slot = name_keys.iter().position(|k| *k == key);
        reader.set_skip_strings(name_slot.is_none());
        let value = reader.next_event()?;
        reader.set_skip_strings(true);
        if let Some(slot) = name_slot {
            if let Some(JsonEvent::String(s)) = &value {
                if let Some(found @ None) = names.get_mut(slot).filter(|_| !s.trim().is_empty()) {
                    *found = Some(s.trim().to_string());
                }
            }
        }
        let arg_slot = args_keys.iter().position(|k| *k == key);
        // Skip the rest of a container value, keeping where it ends.
        if matches!(value, Some(JsonEvent::StartObject | JsonEvent::StartArray)) {
            reader.skip_to_depth(1)?;
        }
        if let Some(slot) = arg_slot {
            let is_string = matches!(value, Some(JsonEvent::String(_)));
            if let Some(found @ None) = args.get_mut(slot) {
                if !matches!(value, Some(JsonEvent::Null)) {
                    *found = Some((value_start, reader.position(), is_string));
                }
            }
        }
    }
    Ok(Ok((names, args)))
}

/// What a one-pass strict read of the object that opens a text found.
#[derive(Debug)]
pub enum Leading {
    /// A whole strict object nested at most `max_depth` deep: its call (or why it is not
    /// one) and the byte offset where it ends.
    Read(Result<JsonCall, NotACall>, usize),
    /// The strict reader refused the text. Then no prefix of it that starts with the same
    /// object is strict JSON either: were one strict, the reader, which stops where the object
    /// closes and looks at nothing after it, would have read the same object without error.
    /// So such a prefix can go straight to repair ([`read_refused_call`]).
    Refused,
    /// Nothing known: no `{` first, the object does not end in the text, or is too deep.
    Unknown,
}

/// The call in the strict JSON object that opens `text` (text may follow it). When it is
/// not [`Leading::Read`], the caller reads the object the lenient way, which for a strict
/// object finds the same end and the same call, so this is only a shortcut (one pass instead
/// of a bracket scan followed by [`read_call`]).
#[must_use]
pub fn read_leading_call(
    text: &str,
    name_keys: &[&str],
    args_keys: &[&str],
    max_depth: usize,
) -> Leading {
    if !text.starts_with('{') {
        return Leading::Unknown;
    }
    let mut reader = StrictReader::new(text);
    let Ok(found) = scan_with(&mut reader, name_keys, args_keys, true) else {
        return Leading::Refused;
    };
    if reader.depth() != 0 || reader.deepest() > max_depth {
        return Leading::Unknown;
    }
    let end = reader.position();
    match found {
        Ok(found) => Leading::Read(call_from(&text[..end], Vec::new(), found, name_keys), end),
        Err(_) => Leading::Unknown,
    }
}

/// [`read_call`] for a text the strict reader is known to refuse (see [`Leading::Refused`]):
/// repaired, then read, without a strict attempt first.
pub fn read_refused_call(
    text: &str,
    name_keys: &[&str],
    args_keys: &[&str],
) -> Result<JsonCall, NotACall> {
    let (fixed, kinds) = repaired(text)?;
    let found = scan_call(&fixed, name_keys, args_keys)
        .map_err(|e| ("not_json", format!("not JSON: {e}")))??;
    call_from(&fixed, kinds, found, name_keys)
}

/// Whether the object `text` may hold one of `keys` when read, strictly or repaired: one of
/// them is written in it, or it holds what can spell a key otherwise, a backslash (an escape)
/// or a `+` beside something that may quote a string (the repair joins `"na" + "me"`; any
/// non-ASCII byte counts, for the typographic quotes). When not, no reading finds such a key,
/// so an object in prose without a name key as written is prose without being read: code in
/// a reply (`{ if (a) { g({k: i++}); } }`) was read and repaired brace group by brace group,
/// ~1 us each.
#[must_use]
pub fn may_hold_key(text: &str, keys: &[&str]) -> bool {
    let bytes = text.as_bytes();
    let quotes = || {
        bytes
            .iter()
            .any(|&b| matches!(b, b'"' | b'\'' | b'`') || !b.is_ascii())
    };
    memchr::memchr(b'\\', bytes).is_some()
        || (memchr::memchr(b'+', bytes).is_some() && quotes())
        || keys
            .iter()
            .any(|k| find_token(bytes, k.as_bytes()).is_some())
}

/// Where `token` first occurs in `text`. Asked of every call's arguments
/// (`json_read::overran`), most of them short and without the token: `memmem::find` built a
/// searcher each time, which cost more than the search (4% of reading prose full of JSON
/// objects under `tool_call_json`). Each candidate is compared from its first byte, at most a
/// token's length, so the search stays linear.
pub(crate) fn find_token(text: &[u8], token: &[u8]) -> Option<usize> {
    let (&first, rest) = token.split_first()?;
    let mut from = 0;
    while let Some(k) = memchr::memchr(first, text.get(from..)?) {
        let at = from + k;
        if text[at + 1..].starts_with(rest) {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

/// Reads the call in the JSON object `text` (repaired first if needed). The name is the first
/// non-empty string under `name_keys`, in their order; the arguments the first non-null value
/// under `args_keys` (an object, or a string holding one); none means `{}`.
///
/// Valid JSON, the common case, is read in one pass: the reader that finds the name and the
/// arguments also validates, and only a text it refuses is repaired and read again.
pub fn read_call(text: &str, name_keys: &[&str], args_keys: &[&str]) -> Result<JsonCall, NotACall> {
    match scan_call(text, name_keys, args_keys) {
        Ok(found) => call_from(text, Vec::new(), found?, name_keys),
        // The strict read just refused it: straight to repair, no second check.
        Err(_) => read_refused_call(text, name_keys, args_keys),
    }
}

/// The call of the strict JSON object `json` from what [`scan_call`] found in it.
fn call_from(
    json: &str,
    repairs: Vec<&'static str>,
    found: Found,
    name_keys: &[&str],
) -> Result<JsonCall, NotACall> {
    let (names, args) = found;
    let name = names.into_iter().flatten().next();
    let args = args
        .into_iter()
        .flatten()
        .next()
        .map(|(start, end, is_string)| {
            let value = json[start..end].trim();
            if !is_string {
                return ArgsValue::Json(value);
            }
            let mut inner = StrictReader::new(value);
            ArgsValue::Text(match inner.next_event() {
                Ok(Some(JsonEvent::String(s))) => s,
                _ => std::borrow::Cow::Borrowed(""),
            })
        });
    call_of(name, args, repairs, name_keys)
}

/// The value found under an arguments key.
#[derive(Debug)]
pub(crate) enum ArgsValue<'a> {
    /// Its JSON text (not a string; `null` is never found).
    Json(&'a str),
    /// A string's decoded text, which should hold the arguments object's JSON.
    Text(std::borrow::Cow<'a, str>),
}

/// The call named `name` (the first non-empty name found, trimmed) with the arguments `args`
/// (the first non-null value found; none means `{}`): what [`read_call`] gives for them.
pub(crate) fn call_of(
    name: Option<String>,
    args: Option<ArgsValue<'_>>,
    mut repairs: Vec<&'static str>,
    name_keys: &[&str],
) -> Result<JsonCall, NotACall> {
    let Some(name) = name else {
        let keys = name_keys.join(", ");
        return Err(("no_name", format!("no tool name under {keys}")));
    };
    let arguments = match args {
        None => "{}".to_string(),
        Some(ArgsValue::Json(value)) => value.to_string(),
        Some(ArgsValue::Text(decoded)) if decoded.trim().is_empty() => "{}".to_string(),
        Some(ArgsValue::Text(decoded)) => {
            let (obj, more) = strict_or_repaired(&decoded).map_err(|_| {
                (
                    "bad_arguments",
                    format!("arguments of {name:?} are not JSON"),
                )
            })?;
            repairs.push("arguments_string_decoded");
            repairs.extend(more);
            obj
        }
    };
    if !arguments.starts_with('{') {
        return Err((
            "bad_arguments",
            format!("arguments of {name:?} aren't an object"),
        ));
    }
    Ok((name, arguments, repairs))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stream::test_support::spelled_key;
    use proptest::prelude::*;

    const NAMES: &[&str] = &["tool_name", "tool", "name"];
    const ARGS: &[&str] = &["parameters", "params", "arguments", "args"];

    #[test]
    fn aliases_and_priorities() {
        let (n, a, r) = read_call(
            r#"{"name": "x", "tool_name": "f", "args": {"k": [1, {"z": 2}]}}"#,
            NAMES,
            ARGS,
        )
        .unwrap();
        assert_eq!((n.as_str(), a.as_str()), ("f", r#"{"k": [1, {"z": 2}]}"#));
        assert!(r.is_empty());
        let (_, a, _) = read_call(r#"{"tool": "f", "parameters": null}"#, NAMES, ARGS).unwrap();
        assert_eq!(a, "{}");
    }

    #[test]
    fn stringified_and_repaired_arguments() {
        let (_, a, r) =
            read_call(r#"{"name": "f", "arguments": "{\"a\": 1}"}"#, NAMES, ARGS).unwrap();
        assert_eq!(a, r#"{"a": 1}"#);
        assert_eq!(r, vec!["arguments_string_decoded"]);
        let (_, a, r) = read_call("{'name': 'f', 'args': {'a': True,}}", NAMES, ARGS).unwrap();
        assert_eq!(a, r#"{"a": true}"#);
        assert!(r.contains(&"single_quotes"));
    }

    #[test]
    fn skipped_strings_are_checked_as_decoding_checks_them() {
        // A lone surrogate escape decodes (to U+FFFD), so a value holding one is still valid.
        let text = r#"{"name": "f", "arguments": {"c": "a\ud800b", "d": ["\"x\\"]}}"#;
        let (_, a, r) = read_call(text, NAMES, ARGS).unwrap();
        assert_eq!(a, r#"{"c": "a\ud800b", "d": ["\"x\\"]}"#);
        assert!(r.is_empty());
        // A bad escape in a skipped string still makes the text invalid: repaired, or no call.
        let bad = r#"{"name": "f", "arguments": {"c": "\q"}}"#;
        assert!(read_call(bad, NAMES, ARGS).map_or(true, |(_, _, r)| !r.is_empty()));
        // Escaped keys and names of the call object are still decoded.
        let (n, a, _) =
            read_call(r#"{"na\u006de": "g\u00e9", "args": {"k": 1}}"#, NAMES, ARGS).unwrap();
        assert_eq!((n.as_str(), a.as_str()), ("gé", r#"{"k": 1}"#));
    }

    #[test]
    fn not_calls() {
        assert_eq!(
            read_call(r#"{"x": 1}"#, NAMES, ARGS).unwrap_err().0,
            "no_name"
        );
        assert_eq!(
            read_call(r#"{"name": ""}"#, NAMES, ARGS).unwrap_err().0,
            "no_name"
        );
        assert_eq!(
            read_call("[1]", NAMES, ARGS).unwrap_err().0,
            "not_an_object"
        );
        assert_eq!(
            read_call(r#"{"name": "f", "args": [1]}"#, NAMES, ARGS)
                .unwrap_err()
                .0,
            "bad_arguments"
        );
    }

    /// Pieces that make near-JSON call objects: strict ones, and the breakages models write.
    fn piece() -> impl Strategy<Value = &'static str> {
        prop::sample::select(vec![
            "{",
            "}",
            "[",
            "]",
            ",",
            ":",
            " ",
            "\n",
            "\"name\"",
            "\"args\"",
            "\"f\"",
            "'f'",
            "\"a\\\"b\"",
            "\"\\q\"",
            "1",
            "-2.5e3",
            "01",
            "true",
            "tru",
            "null",
            "None",
            "// c\n",
            "\"\u{e9}\"",
            "\"x\ty\"",
            "\"\\ud800\"",
        ])
    }

    /// Noise around a call object's members.
    fn noise() -> impl Strategy<Value = String> {
        prop::collection::vec(
            prop::sample::select(vec![
                " ", "\n", ",", "\"x\": 1", "/* c */", "// c\n", "[1]", "'",
            ]),
            0..4,
        )
        .prop_map(|v| v.concat())
    }

    proptest! {
        /// What `may_hold_key` rules out, no reading finds: whenever a name is read from an
        /// object (a call, or a `bad_arguments` issue), strict or repaired, the object is one
        /// `may_hold_key` lets through.
        #[test]
        fn a_name_read_is_a_key_let_through(
            before in noise(),
            key in prop::sample::select(NAMES.to_vec()).prop_flat_map(spelled_key),
            value in prop::sample::select(vec!["\"f\"", "'f'", "f", "\"f\", \"args\": 1"]),
            after in noise(),
            close in prop::sample::select(vec!["}", ""]),
        ) {
            let text = format!("{{{before}{key}: {value}{after}{close}");
            let named = match read_call(&text, NAMES, ARGS) {
                Ok(_) => true,
                Err((kind, _)) => kind == "bad_arguments",
            };
            if named {
                prop_assert!(may_hold_key(&text, &["tool", "name"]), "{:?}", text);
                prop_assert!(may_hold_key(&text, NAMES), "{:?}", text);
            }
        }

        /// `find_token` finds what `str::find` finds.
        #[test]
        fn find_token_is_find(text in "[ab_T]{0,40}", token in "[ab_T]{1,4}") {
            prop_assert_eq!(find_token(text.as_bytes(), token.as_bytes()), text.find(&token));
        }

        /// `Leading::Refused` promises that no prefix of the text is a strict object, which is
        /// what lets a refused call skip the strict read before repair.
        #[test]
        fn refused_texts_have_no_strict_prefix(pieces in prop::collection::vec(piece(), 1..24)) {
            let text = format!("{{{}", pieces.concat());
            if let Leading::Refused = read_leading_call(&text, NAMES, ARGS, 1000) {
                for (end, _) in text.char_indices().skip(1).chain([(text.len(), ' ')]) {
                    prop_assert!(scan_call(&text[..end], NAMES, ARGS).is_err(), "{:?}", &text[..end]);
                }
            }
        }
    }
}
