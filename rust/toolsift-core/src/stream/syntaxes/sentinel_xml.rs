//! An XML body of a sentinel `tool` segment: `<tool name="f"><arguments><arg name="k">v</arg>
//! </arguments></tool>`, the `<arguments>` wrapper optional and `<k>v</k>` accepted for
//! `<arg name="k">v</arg>`. Values are trimmed strings with the five XML entities decoded; a
//! repeated argument becomes a list. The body is complete when this runs, so it is read once.

use super::super::super::args_writer::ArgsWriter;
use super::super::super::Sink;

/// The call in `body`: `(name, arguments JSON)`; the header's name is used when the tool tag
/// has none.
pub fn read(body: &str, header_name: Option<&str>) -> Result<(String, String), String> {
    let rest = body.trim();
    let (tag, attrs, mut rest) = open_tag(rest).ok_or("no opening tag")?;
    if !tag.eq_ignore_ascii_case("tool") {
        return Err(format!("<{tag}> is not <tool>"));
    }
    let name = attr(attrs, "name")
        .or_else(|| header_name.map(str::to_string))
        .filter(|n| !n.trim().is_empty())
        .ok_or("no tool name")?;
    let mut args = ArgsWriter::new();
    // A sink with no segment: the writer's deltas go nowhere, its final JSON is what counts.
    let mut sink = Sink::default();
    loop {
        rest = rest.trim_start();
        if let Some(after) = rest.strip_prefix("</") {
            let end = after.find('>').ok_or("unclosed end tag")?;
            if after[..end].trim().eq_ignore_ascii_case("tool") {
                break;
            }
            rest = &after[end + 1..];
            continue;
        }
        let (tag, attrs, after) = open_tag(rest).ok_or("no </tool>")?;
        if tag.eq_ignore_ascii_case("arguments") {
            rest = after;
            continue;
        }
        let key = if tag.eq_ignore_ascii_case("arg") {
            attr(attrs, "name").ok_or("an <arg> without a name")?
        } else {
            tag.to_string()
        };
        let close = format!("</{tag}>");
        let end = after.find(&close).ok_or_else(|| format!("no {close}"))?;
        args.string_value(&key, &decode(after[..end].trim()), &mut sink);
        rest = &after[end + close.len()..];
    }
    Ok((name, args.finish(&mut sink)))
}

/// `<tag attrs>` at the start of `text`: the tag, its attribute text and what follows.
fn open_tag(text: &str) -> Option<(&str, &str, &str)> {
    let inner = text.strip_prefix('<')?;
    let end = inner.find('>')?;
    let head = inner[..end].trim_end_matches('/').trim();
    let split = head.find(char::is_whitespace).unwrap_or(head.len());
    let tag = &head[..split];
    (!tag.is_empty()).then_some((tag, &head[split..], &inner[end + 1..]))
}

/// The value of attribute `name` (quoted with `"` or `'`).
fn attr(attrs: &str, name: &str) -> Option<String> {
    let mut rest = attrs;
    while let Some(eq) = rest.find('=') {
        let key = rest[..eq].trim();
        let value = rest[eq + 1..].trim_start();
        let quote = value.chars().next().filter(|c| *c == '"' || *c == '\'')?;
        let body = &value[1..];
        let close = body.find(quote)?;
        if key.eq_ignore_ascii_case(name) {
            return Some(decode(&body[..close]));
        }
        rest = &body[close + 1..];
    }
    None
}

/// Decodes the five predefined XML entities; anything else is kept as written.
fn decode(text: &str) -> String {
    if !text.contains('&') {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        rest = &rest[amp..];
        let entity = [
            ("&lt;", '<'),
            ("&gt;", '>'),
            ("&amp;", '&'),
            ("&quot;", '"'),
            ("&apos;", '\''),
        ]
        .into_iter()
        .find(|(e, _)| rest.starts_with(e));
        if let Some((e, c)) = entity {
            out.push(c);
            rest = &rest[e.len()..];
        } else {
            out.push('&');
            rest = &rest[1..];
        }
    }
    out.push_str(rest);
    out
}
