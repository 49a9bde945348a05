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
/// the value under each arguments key (with whether it is a string).
type Found = (Vec<Option<String>>, Vec<Option<(usize, usize, bool)>>);

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
    let mut names: Vec<Option<String>> = vec![None; name_keys.len()];
    let mut args: Vec<Option<(usize, usize, bool)>> = vec![None; args_keys.len()];
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
                if !s.trim().is_empty() && names[slot].is_none() {
                    names[slot] = Some(s.trim().to_string());
                }
            }
        }
        let arg_slot = args_keys.iter().position(|k| *k == key);
        // Skip the rest of a container value, keeping where it ends.
        if matches!(value, Some(JsonEvent::StartObject | JsonEvent::StartArray)) {
            while reader.depth() > 1 {
                reader.next_event()?;
            }
        }
        if let Some(slot) = arg_slot {
            let is_string = matches!(value, Some(JsonEvent::String(_)));
            if !matches!(value, Some(JsonEvent::Null)) && args[slot].is_none() {
                args[slot] = Some((value_start, reader.position(), is_string));
            }
        }
    }
    Ok(Ok((names, args)))
}

/// The call in the strict JSON object that opens `text` (text may follow it), and the byte
/// offset where the object ends. `None` when `text` does not open with a whole strict object
/// nested at most `max_depth` deep: the caller then reads it the lenient way, which for such
/// an object finds the same end and the same call, so this is only a shortcut (one pass
/// instead of a bracket scan followed by this read).
#[must_use]
pub fn read_leading_call(
    text: &str,
    name_keys: &[&str],
    args_keys: &[&str],
    max_depth: usize,
) -> Option<(Result<JsonCall, NotACall>, usize)> {
    if !text.starts_with('{') {
        return None;
    }
    let mut reader = StrictReader::new(text);
    let found = scan_with(&mut reader, name_keys, args_keys, true).ok()?;
    if reader.depth() != 0 || reader.deepest() > max_depth {
        return None;
    }
    let end = reader.position();
    let found = found.ok()?;
    Some((call_from(&text[..end], Vec::new(), found, name_keys), end))
}

/// Reads the call in the JSON object `text` (repaired first if needed). The name is the first
/// non-empty string under `name_keys`, in their order; the arguments the first non-null value
/// under `args_keys` (an object, or a string holding one); none means `{}`.
///
/// Valid JSON, the common case, is read in one pass: the reader that finds the name and the
/// arguments also validates, and only a text it refuses is repaired and read again.
pub fn read_call(text: &str, name_keys: &[&str], args_keys: &[&str]) -> Result<JsonCall, NotACall> {
    let repaired_text;
    let (json, repairs, found): (&str, Vec<&'static str>, Found) =
        if let Ok(found) = scan_call(text, name_keys, args_keys) {
            (text, Vec::new(), found?)
        } else {
            // The strict read just refused it: straight to repair, no second check.
            let (fixed, kinds) = repaired(text)?;
            repaired_text = fixed;
            let found = scan_call(&repaired_text, name_keys, args_keys)
                .map_err(|e| ("not_json", format!("not JSON: {e}")))??;
            (repaired_text.as_str(), kinds, found)
        };
    call_from(json, repairs, found, name_keys)
}

/// The call of the strict JSON object `json` from what [`scan_call`] found in it.
fn call_from(
    json: &str,
    mut repairs: Vec<&'static str>,
    found: Found,
    name_keys: &[&str],
) -> Result<JsonCall, NotACall> {
    let (names, args) = found;
    let Some(name) = names.into_iter().flatten().next() else {
        let keys = name_keys.join(", ");
        return Err(("no_name", format!("no tool name under {keys}")));
    };
    let arguments = match args.into_iter().flatten().next() {
        None => "{}".to_string(),
        Some((start, end, is_string)) => {
            let value = json[start..end].trim();
            if is_string {
                let mut inner = StrictReader::new(value);
                let decoded = match inner.next_event() {
                    Ok(Some(JsonEvent::String(s))) => s.into_owned(),
                    _ => String::new(),
                };
                if decoded.trim().is_empty() {
                    "{}".to_string()
                } else {
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
            } else {
                value.to_string()
            }
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
}
