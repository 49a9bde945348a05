//! The streaming engine over every syntax: any text, any chunking, small limits now and then.
//! It never panics; the events of a chunked stream equal the one-shot events after merging
//! deltas; every call's span is in range and its text is `raw`, and its arguments are a strict
//! JSON object; a one-shot parse (`oneshot`) keeps the same content and ends as the events,
//! and the character range it gives for its content is that content. Now and then the engine
//! knows tools, some with their parameter names (the schema-dependent readings).
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolsift_core::stream::events::{canonical, Event};
use toolsift_core::stream::limits::Limits;
use toolsift_core::stream::oneshot::{self, End};
use toolsift_core::stream::{syntaxes, KnownTools, StreamEngine};
use toolsift_core::strict_json::is_strict_json;

fn engine(pick: u8, limits: Limits) -> StreamEngine {
    let known = pick & 0x20 != 0;
    let pick = pick & 0x1f;
    let names = syntaxes::names();
    // 0: every syntax at once; otherwise one syntax.
    let chosen: Vec<_> = if pick == 0 {
        names.iter().filter_map(|n| syntaxes::by_name(n)).collect()
    } else {
        let name = names[usize::from(pick - 1) % names.len()];
        vec![syntaxes::by_name(name).expect("listed syntax")]
    };
    let mut engine = StreamEngine::new(chosen);
    engine.set_limits(limits);
    if known {
        let names = |keys: &[&str]| Some(keys.iter().map(|k| (*k).to_string()).collect::<Vec<_>>());
        engine.set_known_tools(KnownTools::with_parameters([
            ("f", names(&["a", "path", "content"])),
            ("write_file", names(&["path", "content"])),
            ("get_weather", None),
        ]));
    }
    engine
}

fn run(pick: u8, limits: Limits, chunks: &[&str]) -> Vec<Event> {
    let mut e = engine(pick, limits);
    let mut events = Vec::new();
    for c in chunks {
        events.extend(e.feed(c));
    }
    events.extend(e.finish());
    events
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 3 {
        return;
    }
    let (pick, control, text) = (data[0] % 64, data[1], String::from_utf8_lossy(&data[2..]));
    let limits = if control & 0xc0 == 0 {
        Limits::default()
    } else if control & 0x80 == 0 {
        // No limits: the JSON scanners' depth is unbounded too.
        Limits::none()
    } else {
        Limits {
            max_depth: 3,
            max_call_bytes: 40,
            max_segment_bytes: 24 + usize::from(control & 0x3f),
            max_calls: 2,
        }
    };
    let step = usize::from(control & 0x0f) + 1;
    let mut chunks = Vec::new();
    let mut at = 0;
    while at < text.len() {
        let mut end = (at + step).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        chunks.push(&text[at..end]);
        at = end;
    }
    let whole = run(pick, limits, &[&text]);
    let pieces = run(pick, limits, &chunks);
    let chars: Vec<char> = text.chars().collect();
    for event in &whole {
        if let Event::SegmentEnd {
            call: Some(call), ..
        } = event
        {
            assert!(call.start <= call.end && call.end <= chars.len());
            let raw: String = chars[call.start..call.end].iter().collect();
            assert_eq!(raw, call.raw);
            assert!(call.arguments.starts_with('{') && is_strict_json(&call.arguments));
        }
    }
    check_one_shot(pick, limits, &text, &chars, &whole);
    assert_eq!(canonical(whole), canonical(pieces));
});

/// The one-shot paths keep what the events say: the text segments' text and every end with a
/// call or an issue, in order.
fn check_one_shot(pick: u8, limits: Limits, text: &str, chars: &[char], events: &[Event]) {
    let mut content = String::new();
    let mut ends = Vec::new();
    let mut open = Vec::new();
    for event in events {
        match event {
            Event::TextDelta { id, text } if id.starts_with("text_") => content.push_str(text),
            Event::SegmentStart { id, syntax, .. } => open.push((id.clone(), *syntax)),
            Event::SegmentEnd { id, call, issue } => {
                let at = open.iter().rposition(|(o, _)| o == id);
                let syntax = at.map_or("text", |i| open.remove(i).1);
                if call.is_some() || issue.is_some() {
                    let (id, call, issue) = (id.clone(), call.clone(), issue.clone());
                    ends.push(End {
                        syntax,
                        id,
                        call,
                        issue,
                    });
                }
            }
            _ => {}
        }
    }
    let mut e = engine(pick, limits);
    let all = oneshot::parse_all(&mut e, text);
    assert_eq!(all.content, content);
    assert_eq!(all.ends, ends);
    let lean = oneshot::parse_lean(&mut e, text);
    assert_eq!(lean.content.as_deref().unwrap_or(text), content);
    assert_eq!(lean.ends, ends);
    // The content as character ranges of the text, when it is made of the text's own.
    let runs = oneshot::parse_lean_runs(&mut e, text, Some(0));
    assert_eq!(runs.ends, ends);
    match (&runs.content, &runs.content_runs) {
        (None, Some(ranges)) => {
            let joined: String = ranges.iter().flat_map(|&(a, b)| &chars[a..b]).collect();
            assert_eq!(joined, content);
        }
        (given, None) => assert_eq!(given.as_deref().unwrap_or(text), content),
        (Some(_), Some(_)) => panic!("content given twice"),
    }
    let (each, _) = oneshot::parse_each(&mut e, text, Box::new(Vec::new()));
    assert_eq!(each.text, content);
    if let Some((a, b)) = each.run {
        let run: String = chars[a..b].iter().collect();
        assert_eq!(run, content);
    }
}
