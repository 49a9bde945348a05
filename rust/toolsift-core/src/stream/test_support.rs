//! Helpers the syntax tests share: what a list of events says, in plain values.

use super::events::Event;

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
