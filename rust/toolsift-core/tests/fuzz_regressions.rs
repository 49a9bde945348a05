//! The fuzz targets' checks (`fuzz/`, see FUZZING.md) on stable, over the committed inputs:
//! the hand-written seeds (`fuzz/seeds/<target>/`) and every input a target stopped on
//! (`fuzz/regressions/<target>/`).

use std::path::Path;
use toolsift_core::repair::{repair_json, RepairOptions};
use toolsift_core::scanner::{scan_json_spans, JsonScanner, ScanOptions};
use toolsift_core::stream::events::{canonical, Event};
use toolsift_core::stream::limits::Limits;
use toolsift_core::stream::{syntaxes, StreamEngine};
use toolsift_core::strict_json::is_strict_json;

fn inputs(target: &str) -> Vec<(String, Vec<u8>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    let mut found = Vec::new();
    for dir in ["seeds", "regressions"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir).join(target)) else {
            continue;
        };
        for entry in entries.filter_map(Result::ok) {
            let name = format!("{dir}/{}", entry.file_name().to_string_lossy());
            found.push((name, std::fs::read(entry.path()).expect("readable input")));
        }
    }
    found.sort();
    assert!(!found.is_empty(), "no committed inputs for {target}");
    found
}

#[test]
fn scanner_inputs_scan_the_same_in_chunks() {
    for (name, data) in inputs("scanner") {
        let (&control, text) = data.split_first().expect("non-empty");
        let options = ScanOptions {
            single_quotes: control & 1 == 1,
            max_depth: if control & 2 == 2 { 8 } else { 100_000 },
        };
        let whole = scan_json_spans(text, &options);
        let mut scanner = JsonScanner::new(options);
        let mut spans = Vec::new();
        let mut error = None;
        for piece in text.chunks(usize::from(control >> 2) + 1) {
            if let Err(e) = scanner.feed(piece, &mut spans) {
                error = Some(e);
                break;
            }
        }
        match (whole, error) {
            (Ok(result), None) => assert_eq!(result.spans, spans, "{name}"),
            (Err(a), Some(b)) => assert_eq!(a, b, "{name}"),
            (a, b) => panic!("{name}: one-shot {a:?}, chunked error {b:?}"),
        }
    }
}

#[test]
fn repair_inputs_give_strict_json_that_repairs_to_itself() {
    for (name, data) in inputs("repair") {
        let text = String::from_utf8_lossy(&data);
        let options = RepairOptions { max_depth: 512 };
        let Ok(repaired) = repair_json(&text, &options) else {
            continue;
        };
        assert!(
            is_strict_json(&repaired.text),
            "{name}: {:?}",
            repaired.text
        );
        let again = repair_json(&repaired.text, &options).expect("repairs");
        assert!(again.repairs.is_empty(), "{name}");
        assert_eq!(again.text, repaired.text, "{name}");
    }
}

fn run(pick: u8, limits: Limits, chunks: &[&str]) -> Vec<Event> {
    let names = syntaxes::names();
    let chosen: Vec<_> = if pick == 0 {
        names.iter().filter_map(|n| syntaxes::by_name(n)).collect()
    } else {
        let name = names[usize::from(pick - 1) % names.len()];
        vec![syntaxes::by_name(name).expect("listed")]
    };
    let mut engine = StreamEngine::new(chosen);
    engine.set_limits(limits);
    let mut events = Vec::new();
    for c in chunks {
        events.extend(engine.feed(c));
    }
    events.extend(engine.finish());
    canonical(events)
}

#[test]
fn stream_inputs_stream_as_they_parse() {
    for (name, data) in inputs("stream") {
        let (pick, control) = (data[0] % 32, data[1]);
        let text = String::from_utf8_lossy(&data[2..]);
        let limits = if control & 0x80 == 0 {
            Limits::default()
        } else {
            Limits {
                max_depth: 3,
                max_call_bytes: 40,
                max_segment_bytes: 24 + usize::from(control & 0x3f),
                max_calls: 2,
            }
        };
        let chars: Vec<char> = text.chars().collect();
        let pieces: Vec<String> = chars
            .chunks(usize::from(control & 0x0f) + 1)
            .map(|c| c.iter().collect())
            .collect();
        let chunks: Vec<&str> = pieces.iter().map(String::as_str).collect();
        let whole = run(pick, limits, &[&text]);
        assert_eq!(run(pick, limits, &chunks), whole, "{name}");
        for event in &whole {
            if let Event::SegmentEnd {
                call: Some(call), ..
            } = event
            {
                let raw: String = chars[call.start..call.end].iter().collect();
                assert_eq!(raw, call.raw, "{name}");
                assert!(is_strict_json(&call.arguments), "{name}");
            }
        }
    }
}

/// The first input the repair target stopped on: `3333e333` is strict JSON (RFC 8259 sets no
/// range on numbers) that `serde_json` refuses as out of range. The harness, not the core, was
/// wrong; the Python side loads such a number as `inf`.
#[test]
fn a_number_beyond_f64_is_still_strict_json() {
    let repaired = repair_json(
        "{'a'\n[ 22\n\n\n3333e333\n\n333-\n\n",
        &RepairOptions::default(),
    )
    .unwrap();
    assert!(repaired.text.contains("3333e333"));
    assert!(is_strict_json(&repaired.text));
}

/// The first input the `stream` target stopped on (`fuzz/regressions/stream/`): a backslash
/// before a multi-byte character in a streamed argument made the live preview slice inside
/// the character and panic.
#[test]
fn a_backslash_before_a_multibyte_character_does_not_panic() {
    let text = "<tool_call>{\"name\": \"f\", \"arguments\": {\"a\": \"x\\é \\😀\"}}</tool_call>";
    let events = run(
        u8::try_from(
            1 + syntaxes::names()
                .iter()
                .position(|n| *n == "hermes")
                .unwrap(),
        )
        .unwrap(),
        Limits::default(),
        &[text],
    );
    let calls = events
        .iter()
        .filter(|e| matches!(e, Event::SegmentEnd { call: Some(_), .. }))
        .count();
    assert_eq!(calls, 1);
}
