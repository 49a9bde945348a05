//! Candidate finding for the lenient `TOOL_CALL` syntax (`tool_call_json`).
//!
//! A model writes a marker (by default `TOOL_CALL`, matched literally) followed by a JSON object,
//! often with a colon, inside a Markdown fence, or with prose around it. This module locates the
//! JSON objects that may be calls; deciding whether each one *is* a call (name and argument
//! aliases, repair) belongs to the Python strategy, which owns the field conventions.
//!
//! Rules:
//! - Markers inside a JSON span (say, in a string value) are not markers.
//! - With at least one marker, the candidates of a marker are the outermost JSON objects between
//!   it and the next marker; text before the first marker holds no candidates.
//! - With no marker, every outermost JSON object in the text is a candidate.
//! - An object still open at the end of the text (a truncated reply) is a candidate too, flagged
//!   as unterminated so the caller repairs it.

use crate::error::Error;
use crate::repair::{repair_json, RepairOptions, Repaired};
use crate::scanner::{JsonScanner, ScanOptions, SpanKind};
use crate::strict_json::is_strict_json;

/// A candidate's JSON, made ready to load: what the host should decode, or why not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Payload {
    /// Strict JSON as written: decode the candidate's own bytes.
    Valid,
    /// Not strict JSON; this is the repaired JSON and what was changed.
    Repaired(Repaired),
    /// Longer than the limit (in characters); not decoded.
    TooLarge {
        /// The payload's length in characters.
        chars: usize,
    },
    /// Not JSON even after repair.
    NotJson(Error),
}

/// Decides how a candidate's JSON is to be loaded: checked strictly (cheap), repaired only when
/// that fails. `max_chars` of 0 means no limit.
#[must_use]
pub fn prepare_payload(payload: &str, max_chars: usize) -> Payload {
    if max_chars > 0 && payload.len() > max_chars {
        let chars = payload.chars().count();
        if chars > max_chars {
            return Payload::TooLarge { chars };
        }
    }
    if is_strict_json(payload) {
        return Payload::Valid;
    }
    match repair_json(payload, &RepairOptions::default()) {
        Ok(repaired) => Payload::Repaired(repaired),
        Err(err) => Payload::NotJson(err),
    }
}

/// One JSON object that may hold a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Candidate {
    /// Offset of the marker this candidate follows, if any.
    pub marker_start: Option<usize>,
    /// Index of that marker among the effective markers (0, 1, …); `None` without markers.
    pub marker_index: Option<usize>,
    /// Offset of the `{`.
    pub json_start: usize,
    /// Offset one past the `}`, or the end of the text when unterminated.
    pub json_end: usize,
    /// False when the object was still open at the end of the text.
    pub terminated: bool,
}

/// Candidates plus the effective markers, so a marker with no JSON after it can be reported.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Candidates {
    /// Offsets of markers outside JSON, in text order.
    pub markers: Vec<usize>,
    /// Candidate objects in text order.
    pub candidates: Vec<Candidate>,
}

/// Finds the call candidates of `text` for `marker` (an empty marker means "no marker").
pub fn find_candidates(text: &[u8], marker: &[u8]) -> Result<Candidates, Error> {
    let options = ScanOptions {
        single_quotes: true,
        ..ScanOptions::default()
    };
    let mut scanner = JsonScanner::new(options);
    let mut spans = Vec::new();
    scanner.feed(text, &mut spans)?;
    let end = scanner.finish();

    // Outermost objects in text order (spans arrive in closing order; outermost ones close in
    // text order because they do not overlap).
    let mut objects: Vec<(usize, usize, bool)> = spans
        .iter()
        .filter(|s| s.depth == 0 && s.kind == SpanKind::Object)
        .map(|s| (s.start, s.end, true))
        .collect();
    if let Some(open) = end.open.first() {
        if open.kind == SpanKind::Object {
            objects.push((open.start, text.len(), false));
        }
    }
    // Every outermost span, arrays included: a marker inside any JSON value is not a marker.
    let mut outer: Vec<(usize, usize)> = spans
        .iter()
        .filter(|s| s.depth == 0)
        .map(|s| (s.start, s.end))
        .collect();
    if let Some(open) = end.open.first() {
        outer.push((open.start, text.len()));
    }

    let markers = effective_markers(text, marker, &outer);
    if markers.is_empty() {
        let candidates = objects
            .into_iter()
            .map(|(json_start, json_end, terminated)| Candidate {
                marker_start: None,
                marker_index: None,
                json_start,
                json_end,
                terminated,
            })
            .collect();
        return Ok(Candidates {
            markers,
            candidates,
        });
    }

    let mut out = Vec::new();
    let mut next_object = 0;
    for (index, &m) in markers.iter().enumerate() {
        let region_end = markers.get(index + 1).copied().unwrap_or(text.len());
        let region_start = m + marker.len();
        while next_object < objects.len() && objects[next_object].0 < region_start {
            next_object += 1;
        }
        while next_object < objects.len() && objects[next_object].0 < region_end {
            let (json_start, json_end, terminated) = objects[next_object];
            out.push(Candidate {
                marker_start: Some(m),
                marker_index: Some(index),
                json_start,
                json_end,
                terminated,
            });
            next_object += 1;
        }
    }
    Ok(Candidates {
        markers,
        candidates: out,
    })
}

/// Marker offsets that do not fall inside an outermost JSON span.
///
/// The JSON after a marker may itself mention the marker, so a marker inside any outermost
/// span is text of that value, not a new call. `outer` is sorted and non-overlapping.
pub fn effective_markers(text: &[u8], marker: &[u8], outer: &[(usize, usize)]) -> Vec<usize> {
    if marker.is_empty() {
        return Vec::new();
    }
    let mut found = Vec::new();
    let mut span_index = 0;
    for at in memchr::memmem::find_iter(text, marker) {
        while span_index < outer.len() && outer[span_index].1 <= at {
            span_index += 1;
        }
        let inside = outer
            .get(span_index)
            .is_some_and(|&(start, end)| start <= at && at < end);
        if !inside {
            found.push(at);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slices<'a>(text: &'a str, marker: &str) -> Vec<&'a str> {
        find_candidates(text.as_bytes(), marker.as_bytes())
            .unwrap()
            .candidates
            .iter()
            .map(|c| &text[c.json_start..c.json_end])
            .collect()
    }

    #[test]
    fn marker_then_object() {
        let text = r#"TOOL_CALL: {"tool_name": "greet", "parameters": {"name": "A"}}"#;
        let c = find_candidates(text.as_bytes(), b"TOOL_CALL")
            .unwrap()
            .candidates;
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].marker_start, Some(0));
        assert_eq!(c[0].json_start, 11);
        assert_eq!(c[0].json_end, text.len());
        assert!(c[0].terminated);
    }

    #[test]
    fn json_before_first_marker_is_not_a_candidate() {
        let text = r#"ctx {"irrelevant": true} now: TOOL_CALL: {"name": "g"} end"#;
        assert_eq!(slices(text, "TOOL_CALL"), vec![r#"{"name": "g"}"#]);
    }

    #[test]
    fn marker_inside_a_string_is_ignored() {
        let text =
            r#"TOOL_CALL {"name": "say", "args": {"t": "TOOL_CALL {x}"}} TOOL_CALL {"name": "b"}"#;
        let c = find_candidates(text.as_bytes(), b"TOOL_CALL")
            .unwrap()
            .candidates;
        assert_eq!(c.len(), 2);
        assert_eq!(c[0].marker_index, Some(0));
        assert_eq!(c[1].marker_index, Some(1));
        let found = find_candidates(text.as_bytes(), b"TOOL_CALL").unwrap();
        assert_eq!(found.markers, vec![0, text.rfind("TOOL_CALL").unwrap()]);
    }

    #[test]
    fn without_marker_every_outer_object() {
        let text = r#"a {"x": 1} b [1, {"y": 2}] c {"z": {"w": 3}}"#;
        assert_eq!(
            slices(text, "TOOL_CALL"),
            vec![r#"{"x": 1}"#, r#"{"z": {"w": 3}}"#]
        );
    }

    #[test]
    fn unterminated_object_at_end() {
        let text = r#"TOOL_CALL: {"name": "f", "args": {"q": "abc"#;
        let c = find_candidates(text.as_bytes(), b"TOOL_CALL")
            .unwrap()
            .candidates;
        assert_eq!(c.len(), 1);
        assert!(!c[0].terminated);
        assert_eq!(c[0].json_end, text.len());
    }

    #[test]
    fn payloads_are_checked_then_repaired() {
        assert_eq!(prepare_payload(r#"{"a": 1}"#, 0), Payload::Valid);
        let Payload::Repaired(r) = prepare_payload("{'a': 1,}", 0) else {
            panic!("expected a repair")
        };
        assert_eq!(r.text, r#"{"a": 1}"#);
        assert_eq!(prepare_payload(r#"{"a": "éé"}"#, 11), Payload::Valid);
        assert_eq!(
            prepare_payload(r#"{"a": "ééé"}"#, 11),
            Payload::TooLarge { chars: 12 }
        );
    }

    #[test]
    fn empty_marker_means_no_marker() {
        assert_eq!(slices(r#"{"a": 1}"#, ""), vec![r#"{"a": 1}"#]);
    }

    #[test]
    fn single_quoted_values_with_braces() {
        let text = "TOOL_CALL {'name': 'f', 'args': {'q': 'a } b', 'r': 'don't'}}";
        assert_eq!(slices(text, "TOOL_CALL").len(), 1);
        assert_eq!(slices(text, "TOOL_CALL")[0].len(), text.len() - 10);
    }
}
