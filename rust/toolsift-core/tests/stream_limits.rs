//! The engine's resource limits: each ends a segment with a `limit_exceeded` issue at the same
//! byte however the text is chunked, and nothing is dropped without an issue.

use proptest::prelude::*;
use toolsift_core::stream::events::{canonical, Event};
use toolsift_core::stream::limits::{Limits, LIMIT_EXCEEDED};
use toolsift_core::stream::{syntaxes, StreamEngine};

fn run(names: &[&str], limits: Limits, chunks: &[&str]) -> Vec<Event> {
    let all = names.iter().filter_map(|n| syntaxes::by_name(n)).collect();
    let mut engine = StreamEngine::new(all);
    engine.set_limits(limits);
    let mut events = Vec::new();
    for c in chunks {
        events.extend(engine.feed(c));
    }
    events.extend(engine.finish());
    canonical(events)
}

/// An issue as `(kind, start, end)`.
type IssueSpan = (&'static str, usize, usize);

/// `(calls' arguments, issues, content)`.
fn summary(events: &[Event]) -> (Vec<String>, Vec<IssueSpan>, String) {
    let (mut calls, mut issues, mut text) = (Vec::new(), Vec::new(), String::new());
    for e in events {
        match e {
            Event::SegmentEnd { call, issue, .. } => {
                calls.extend(call.iter().map(|c| c.arguments.clone()));
                issues.extend(issue.iter().map(|i| (i.kind, i.start, i.end)));
            }
            Event::TextDelta { id, text: t } if id.starts_with("text_") => text.push_str(t),
            _ => {}
        }
    }
    (calls, issues, text)
}

fn hermes(args: &str) -> String {
    format!("<tool_call>{{\"name\": \"f\", \"arguments\": {args}}}</tool_call>")
}

#[test]
fn an_open_segment_past_the_limit_is_abandoned_at_the_same_byte_in_any_chunking() {
    let text = format!(
        "<tool_call>{{\"name\": \"f\", \"arguments\": {{\"a\": \"{}\"}}}}</tool_call>{}",
        "é".repeat(3000),
        hermes("{\"k\": 1}")
    );
    let limits = Limits {
        max_segment_bytes: 1000,
        ..Limits::default()
    };
    let whole = run(&["hermes"], limits, &[&text]);
    let (calls, issues, content) = summary(&whole);
    assert_eq!(calls, vec!["{\"k\": 1}".to_string()]);
    assert_eq!(issues.len(), 1);
    assert_eq!(issues[0].0, LIMIT_EXCEEDED);
    // 1001 bytes (the limit + 1) rounded up to a whole `é`: 11 + 34 ASCII bytes, then `é`s.
    assert_eq!(issues[0].1, 0);
    assert_eq!(issues[0].2, 45 + (1001usize - 45).div_ceil(2));
    // The abandoned segment's remaining text is content.
    assert!(content.starts_with('é') && content.ends_with("\"}}</tool_call>"));
    for step in [1, 7, 999, 1000, 1001, 4096] {
        let pieces: Vec<String> = text
            .chars()
            .collect::<Vec<_>>()
            .chunks(step)
            .map(|c| c.iter().collect())
            .collect();
        let chunks: Vec<&str> = pieces.iter().map(String::as_str).collect();
        assert_eq!(run(&["hermes"], limits, &chunks), whole, "step {step}");
    }
}

#[test]
fn calls_past_max_calls_are_issues() {
    let text = hermes("{}").repeat(5);
    let limits = Limits {
        max_calls: 3,
        ..Limits::default()
    };
    let (calls, issues, _) = summary(&run(&["hermes"], limits, &[&text]));
    assert_eq!(calls.len(), 3);
    assert_eq!(
        issues.iter().map(|i| i.0).collect::<Vec<_>>(),
        vec![LIMIT_EXCEEDED; 2]
    );
}

#[test]
fn a_segment_longer_than_the_feed_slice_is_one_call() {
    let big = "x".repeat(100_000);
    let text = hermes(&format!("{{\"a\": \"{big}\"}}"));
    let (calls, issues, _) = summary(&run(&["hermes"], Limits::default(), &[&text]));
    assert_eq!(calls.len(), 1);
    assert!(issues.is_empty());
}

fn limits_strategy() -> impl Strategy<Value = Limits> {
    (0usize..4, 0usize..60, 0usize..90, 0usize..3).prop_map(|(d, c, s, n)| Limits {
        max_depth: d,
        max_call_bytes: c,
        max_segment_bytes: s,
        max_calls: n,
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn small_limits_keep_stream_equal_to_one_shot(
        parts in prop::collection::vec(prop::sample::select(vec![
            "<tool_call>", "</tool_call>", "{\"name\": \"f\", \"arguments\": {\"a\": [[1]]}}",
            "[TOOL_CALLS]", "[{\"name\": \"g\", \"arguments\": {}}]", "TOOL_CALL: ", "{", "}",
            "\"", "x", "é", "\n", "<function=f>", "<parameter=k>", "</function>",
        ]), 0..30),
        limits in limits_strategy(),
        step in 1usize..9,
        syntax in prop::sample::select(syntaxes::names()),
    ) {
        let text = parts.concat();
        let pieces: Vec<String> = text
            .chars()
            .collect::<Vec<_>>()
            .chunks(step)
            .map(|c| c.iter().collect())
            .collect();
        let chunks: Vec<&str> = pieces.iter().map(String::as_str).collect();
        let whole = run(&[syntax], limits, &[&text]);
        prop_assert_eq!(run(&[syntax], limits, &chunks), whole.clone());
        let (calls, _, _) = summary(&whole);
        if limits.max_calls > 0 {
            prop_assert!(calls.len() <= limits.max_calls);
        }
        if limits.max_call_bytes > 0 {
            prop_assert!(calls.iter().all(|c| c.len() <= limits.max_call_bytes));
        }
    }
}

/// A call to `f` whose arguments nest `depth` deep, in each syntax's own framing.
fn deep_call(syntax: &str, depth: usize) -> String {
    let args = format!(
        "{{\"a\": {}{}}}",
        "[".repeat(depth - 1),
        "]".repeat(depth - 1)
    );
    match syntax {
        "hermes" => hermes(&args),
        "mistral" => format!("[TOOL_CALLS][{{\"name\": \"f\", \"arguments\": {args}}}]"),
        "kimi_k2" => format!(
            "<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0\
             <|tool_call_argument_begin|>{args}<|tool_call_end|><|tool_calls_section_end|>"
        ),
        "gpt_oss" => format!("<|start|>assistant<|channel|>commentary to=functions.f <|constrain|>json<|message|>{args}<|call|>"),
        _ => unreachable!("no framing for {syntax}"),
    }
}

#[test]
fn max_depth_off_lifts_the_scanners_depth_bound_too() {
    // 150,000 levels: past the scanner's own default bound (100,000), which `max_depth = 0`
    // lifts along with the check of the finished call; a higher `max_depth` raises it.
    let depth = 150_000;
    for syntax in ["hermes", "mistral", "kimi_k2", "gpt_oss"] {
        let text = deep_call(syntax, depth);
        for limits in [
            Limits::none(),
            Limits {
                max_depth: depth,
                ..Limits::default()
            },
        ] {
            let (calls, issues, _) = summary(&run(&[syntax], limits, &[&text]));
            assert_eq!((calls.len(), issues), (1, vec![]), "{syntax} {limits:?}");
        }
        let (calls, issues, _) = summary(&run(&[syntax], Limits::default(), &[&text]));
        assert!(calls.is_empty(), "{syntax}");
        assert_eq!(issues.len(), 1, "{syntax}");
    }
}
