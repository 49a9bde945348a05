//! What one line of a caret block is: pure functions on a complete line (its `\n` removed).

/// True for the bytes of a tool name (`[A-Za-z0-9_]`).
pub fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// A header key: a name that may also hold dots and dashes.
pub fn is_key(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| is_name_byte(b) || b == b'.' || b == b'-')
}

/// A line that is exactly `^^^` (trailing blanks and a `\r` tolerated).
pub fn is_fence(line: &str) -> bool {
    line.strip_prefix("^^^")
        .is_some_and(|rest| rest.trim().is_empty())
}

/// A line that starts with `^^^` followed by text that is neither blank nor a name alone
/// (`^^^Now let me…`): the text after the fence (`None` for any other line). Where a header
/// line is expected, it is a closing fence whose newline the model left out.
pub fn fence_then_text(line: &str) -> Option<&str> {
    let rest = line.strip_prefix("^^^")?;
    (!rest.trim().is_empty() && opener(rest).map_or(true, str::is_empty)).then_some(rest)
}

/// True while `line`, a line seen so far, may still turn out to be `end` (plus trailing
/// blanks): such a prefix is held back instead of streamed as a value.
pub fn may_become(line: &str, end: &str) -> bool {
    end.starts_with(line) || line.strip_prefix(end).is_some_and(|r| r.trim().is_empty())
}

/// `KEY: |` or `KEY: |-` at column 0: a YAML block scalar head; `true` keeps one newline.
pub fn scalar_head(line: &str) -> Option<(&str, bool)> {
    let (key, value) = key_value(line)?;
    match value.trim() {
        "|" => Some((key, true)),
        "|-" => Some((key, false)),
        _ => None,
    }
}

/// `key: value` at column 0: the key and the value with its leading blanks and a trailing
/// `\r` removed (the rest of the value is kept exactly).
pub fn key_value(line: &str) -> Option<(&str, &str)> {
    let colon = line.find(':')?;
    let key = line.get(..colon)?;
    if !is_key(key) {
        return None;
    }
    let value = line.get(colon + 1..)?;
    let value = value.strip_suffix('\r').unwrap_or(value);
    Some((key, value.trim_start_matches([' ', '\t'])))
}

/// `KEY ---`: opens a multi-line raw value closed by `--- KEY`.
pub fn multi_head(line: &str) -> Option<&str> {
    let key = line.trim_end().strip_suffix(" ---")?;
    is_key(key).then_some(key)
}

/// An indented `- item` line: the item, trimmed.
pub fn dash_item(line: &str) -> Option<&str> {
    if !line.starts_with([' ', '\t']) {
        return None;
    }
    let rest = line.trim();
    if rest == "-" {
        return Some("");
    }
    rest.strip_prefix("- ").map(str::trim)
}

/// The opener line seen so far: `Ok(name)` while it is a name (maybe empty so far) plus
/// optional blanks, `Err` once it cannot be one (or is longer than 128 bytes).
pub fn opener(line: &str) -> Result<&str, ()> {
    let name_len = line.bytes().take_while(|&b| is_name_byte(b)).count();
    let rest = line.get(name_len..).unwrap_or("");
    if line.len() > 128 || !rest.bytes().all(|b| matches!(b, b' ' | b'\t' | b'\r')) {
        return Err(());
    }
    Ok(line.get(..name_len).unwrap_or(""))
}

/// A JSON array of strings.
pub fn string_array(items: &[String]) -> String {
    let mut out = String::from("[");
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push('"');
        super::super::super::args_writer::escape_into(&mut out, item);
        out.push('"');
    }
    out.push(']');
    out
}
