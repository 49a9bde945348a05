//! A one-shot parse folds the engine's events into its result as they are made; this holds it
//! equal to gathering every event first and reducing them afterwards (how it used to work),
//! over the conformance texts and the fuzz inputs, in every syntax and with all at once.

use std::collections::HashMap;

use serde_json::Value;
use toolsift_core::stream::events::Event;
use toolsift_core::stream::oneshot::{self, End, OneShot};
use toolsift_core::stream::{syntaxes, StreamEngine, Syntax};

fn texts() -> Vec<String> {
    let mut out = Vec::new();
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/conformance/"
    );
    for file in ["design_doc_projects.jsonl", "open_models.jsonl"] {
        let text = std::fs::read_to_string(format!("{dir}{file}")).expect("fixture");
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let case: Value = serde_json::from_str(line).expect("json");
            out.push(case["text"].as_str().expect("text").to_string());
        }
    }
    let fuzz = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fuzz");
    for dir in ["seeds", "regressions"] {
        let Ok(entries) = std::fs::read_dir(format!("{fuzz}/{dir}/stream")) else {
            continue;
        };
        for entry in entries.filter_map(Result::ok) {
            let data = std::fs::read(entry.path()).expect("readable input");
            out.push(String::from_utf8_lossy(data.get(2..).unwrap_or_default()).into_owned());
        }
    }
    // Segments cut short at the end (re-read by their own syntax) and markers with nothing after.
    out.push("[TOOL_CALLS]".repeat(50));
    out.push("<tool_call>{\"name\": \"f\", \"arguments\": {\"a\": \"x<tool_call>{\"name\": \"g\", \"arguments\": {}}</tool_call>".to_string());
    out.push("<think>a<tool_call>{\"name\": \"f\"".to_string());
    out
}

thread_local! {
    static HANDED: std::cell::RefCell<Vec<End>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Hands each end on to `HANDED`, as a host's sink turns them into its own objects.
struct Handed;

impl oneshot::EndSink for Handed {
    fn end(&mut self, end: End) {
        HANDED.with(|h| h.borrow_mut().push(end));
    }
}

fn gathered(engine: &mut StreamEngine, text: &str) -> OneShot {
    let mut events = engine.feed(text);
    events.extend(engine.finish());
    engine.reset();
    let mut out = OneShot::default();
    let mut syntax_of = HashMap::new();
    for event in events {
        match event {
            Event::TextDelta { id, text } if id.starts_with("text_") => out.content.push_str(&text),
            Event::SegmentStart { id, syntax, .. } => {
                syntax_of.insert(id, syntax);
            }
            Event::SegmentEnd { id, call, issue } => {
                let syntax = syntax_of.remove(&id).unwrap_or("text");
                if call.is_some() || issue.is_some() {
                    out.ends.push(End {
                        syntax,
                        id: id.clone(),
                        call,
                        issue,
                    });
                }
            }
            _ => {}
        }
    }
    out
}

/// Each syntax alone, then all of them at once.
fn name_sets() -> Vec<Vec<&'static str>> {
    let names = syntaxes::names();
    let mut out: Vec<Vec<&'static str>> = names.iter().map(|n| vec![*n]).collect();
    out.push(names);
    out
}

fn engine(names: &[&'static str]) -> StreamEngine {
    let enabled: Vec<Syntax> = names
        .iter()
        .flat_map(|n| syntaxes::resolve(n).expect("listed"))
        .collect();
    StreamEngine::new(enabled)
}

#[test]
fn folded_one_shot_equals_gathered_events() {
    let texts = texts();
    assert!(texts.len() > 50, "only {} texts", texts.len());
    for names in name_sets() {
        for previews in [false, true] {
            let mut folding = engine(&names);
            let mut gathering = engine(&names);
            folding.set_previews(previews);
            gathering.set_previews(previews);
            for text in &texts {
                let expected = gathered(&mut gathering, text);
                assert_eq!(
                    oneshot::parse_all(&mut folding, text),
                    expected,
                    "{names:?}, previews {previews}: {text:?}"
                );
                let (content, _) = oneshot::parse_each(&mut folding, text, Box::new(Handed));
                assert_eq!(content.text, expected.content);
                if let Some((a, b)) = content.run {
                    // The run is the content's own characters of the text.
                    let run: String = text.chars().skip(a).take(b - a).collect();
                    assert_eq!(run, content.text, "{names:?}: {text:?}");
                }
                let handed = HANDED.with(|h| std::mem::take(&mut *h.borrow_mut()));
                assert_eq!(handed, expected.ends, "{names:?}: {text:?}");
                // Hosts slice a call's `raw` out of their own copy of the text by its span.
                for call in handed.iter().filter_map(|e| e.call.as_ref()) {
                    let at: String = text
                        .chars()
                        .skip(call.start)
                        .take(call.end - call.start)
                        .collect();
                    assert_eq!(at, call.raw, "{names:?}: {text:?}");
                }
            }
        }
    }
}
