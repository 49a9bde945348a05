//! Helpers the syntax tests share: what a list of events says, in plain values.

use super::events::{canonical, Event};
use super::KnownTools;

/// The calls, as `(name, arguments)`.
pub(crate) fn calls(events: &[Event]) -> Vec<(String, serde_json::Value)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::SegmentEnd { call: Some(c), .. } => Some((
                c.name.clone(),
                serde_json::from_str(&c.arguments_json()).expect("arguments are JSON"),
            )),
            _ => None,
        })
        .collect()
}

/// The issues, as `(kind, message)`.
pub(crate) fn issues(events: &[Event]) -> Vec<(&'static str, String)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::SegmentEnd { issue: Some(i), .. } => Some((i.kind, i.message.clone())),
            _ => None,
        })
        .collect()
}

/// The calls' names, in order.
pub(crate) fn call_names(events: &[Event]) -> Vec<String> {
    calls(events).into_iter().map(|c| c.0).collect()
}

/// The issues' kinds, in order.
pub(crate) fn issue_kinds(events: &[Event]) -> Vec<&'static str> {
    issues(events).into_iter().map(|i| i.0).collect()
}

/// The content: text of the text segments.
pub(crate) fn prose(events: &[Event]) -> String {
    events
        .iter()
        .filter_map(|e| match e {
            Event::TextDelta { id, text } if id.starts_with("text_") => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

/// The ids of the calls, in order.
pub(crate) fn call_ids(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::SegmentEnd {
                id, call: Some(_), ..
            } => Some(id.to_string()),
            _ => None,
        })
        .collect()
}

/// Events of `text` through an engine of `names` that knows `known`, after checking that every
/// two-way split and one character at a time give the same events.
pub(crate) fn every_split_with(names: &[&str], known: &KnownTools, text: &str) -> Vec<Event> {
    let run = |chunks: &[&str]| {
        let mut e = super::tests::engine(names);
        e.set_known_tools(known.clone());
        let mut events = Vec::new();
        for c in chunks {
            events.extend(e.feed(c));
        }
        events.extend(e.finish());
        canonical(events)
    };
    let whole = run(&[text]);
    for cut in (0..=text.len()).filter(|&c| text.is_char_boundary(c)) {
        assert_eq!(
            run(&[&text[..cut], &text[cut..]]),
            whole,
            "cut {cut} of {text:?}"
        );
    }
    let chars: Vec<String> = text.chars().map(String::from).collect();
    let refs: Vec<&str> = chars.iter().map(String::as_str).collect();
    assert_eq!(run(&refs), whole, "one char at a time");
    whole
}

/// `key` spelled the ways a reading of JSON can still find it (see `json_call::may_hold_key`):
/// quoted by any quote the repair reads, unquoted, one letter escaped (`\u006e`), or cut in
/// two and joined with `+`.
pub(crate) fn spelled_key(key: &'static str) -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    let quotes = prop::sample::select(vec![("\"", "\""), ("'", "'"), ("\u{201c}", "\u{201d}")]);
    (0usize..16, 0usize..4, quotes).prop_map(move |(cut, how, (open, close))| {
        let cut = cut % key.len();
        match how {
            0 => format!("{open}{key}{close}"),
            1 => key.to_string(),
            2 => {
                let c = key.as_bytes()[cut];
                format!("\"{}\\u{:04x}{}\"", &key[..cut], c, &key[cut + 1..])
            }
            _ => format!(
                "{open}{}{close} + {open}{}{close}",
                &key[..cut],
                &key[cut..]
            ),
        }
    })
}
