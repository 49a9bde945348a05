//! The streaming engine over every syntax: any text, any chunking, small limits now and then.
//! It never panics; the events of a chunked stream equal the one-shot events after merging
//! deltas; every call's span is in range and its text is `raw`, and its arguments are a strict
//! JSON object.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolsift_core::stream::events::{canonical, Event};
use toolsift_core::stream::limits::Limits;
use toolsift_core::stream::{syntaxes, StreamEngine};
use toolsift_core::strict_json::is_strict_json;

fn engine(pick: u8, limits: Limits) -> StreamEngine {
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
    let (pick, control, text) = (data[0] % 32, data[1], String::from_utf8_lossy(&data[2..]));
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
    assert_eq!(canonical(whole), canonical(pieces));
});
