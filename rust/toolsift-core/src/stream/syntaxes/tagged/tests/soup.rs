//! Generated inputs: random tag soup, mutated good calls, a long value, prose after markers.

use super::super::head::Tok;
use super::super::{Tagged, SYNTAXES};
use super::{calls, check, check_with, deltas_agree, issues, prose};
use crate::stream::events::Event;
use crate::stream::tests::chunked;

/// Texts made of random pieces of each syntax's tags never panic and give the same events
/// however they are split.
#[test]
fn random_tag_soup_is_chunk_invariant() {
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    for s in SYNTAXES {
        let mut pieces: Vec<&str> = vec![
            " name=\"f\">",
            " name='k'>",
            " string=\"false\">",
            "f",
            ">",
            "\n",
            " ",
            "x",
            "é",
            "｜",
            "<",
            "</",
            "=",
            "\"",
            "1",
            "[1]",
            "a.b",
            // Typed values (`glm45`) and values that a closing tag may sit inside.
            "true",
            "-4.5e1",
            "{\"a\": ",
            "}",
            "nul",
        ];
        for toks in [s.invoke_open, s.invoke_close, s.param_open] {
            for t in toks {
                if let Tok::Lit(l) = t {
                    pieces.push(l);
                }
            }
        }
        pieces.push(s.param_close);
        if let Some((open, close)) = s.section {
            pieces.extend([open, close, open]);
        }
        for _ in 0..40 {
            let n = 3 + next(22);
            let text: String = (0..n).map(|_| pieces[next(pieces.len())]).collect();
            let events = check_with(s.name, &text, false);
            deltas_agree(&events);
        }
        // Valid calls with random pieces inserted or deleted.
        let good = sample(s);
        for _ in 0..30 {
            let mut text = good.clone();
            for _ in 0..=next(3) {
                let mut at = next(text.len() + 1);
                while !text.is_char_boundary(at) {
                    at -= 1;
                }
                if next(2) == 0 {
                    text.insert_str(at, pieces[next(pieces.len())]);
                } else {
                    let mut end = (at + 1 + next(12)).min(text.len());
                    while !text.is_char_boundary(end) {
                        end -= 1;
                    }
                    text.replace_range(at..end, "");
                }
            }
            let events = check_with(s.name, &text, false);
            deltas_agree(&events);
        }
    }
}

/// Text with two good calls of syntax `s`, each with two parameters.
fn sample(s: &Tagged) -> String {
    let invoke = |name: &str| {
        let mut out = String::new();
        for (key, value) in [("a", "v é"), ("b", "[1, 2]")] {
            out.push_str(&tag(s.param_open, key, true));
            out.push_str(value);
            out.push_str(s.param_close);
        }
        format!(
            "{}{out}{}",
            tag(s.invoke_open, name, false),
            tag(s.invoke_close, "", false)
        )
    };
    let body = format!("{}\n{}", invoke("f"), invoke("g.h"));
    match s.section {
        Some((open, close)) => format!("hi {open}\n{body}\n{close} bye"),
        None => format!("hi {body} bye"),
    }
}

/// A tag from its pattern, with `name` where the pattern reads a name.
fn tag(toks: &[Tok], name: &str, json: bool) -> String {
    let mut out = String::new();
    for t in toks {
        match t {
            Tok::Lit(l) => out.push_str(l),
            Tok::Ws => out.push('\n'),
            Tok::Attrs => {
                out.push_str(" name=\"");
                out.push_str(name);
                out.push_str(if json { "\" string=\"false\">" } else { "\">" });
            }
            Tok::Text(_) => out.push_str(name),
            Tok::SkipTo(l) => {
                out.push_str("function<｜tool_sep｜>skipped");
                out.push_str(l);
            }
        }
    }
    out
}

#[test]
fn samples_are_calls() {
    for s in SYNTAXES {
        let events = check(s.name, &sample(s));
        let names: Vec<String> = calls(&events).into_iter().map(|c| c.0).collect();
        assert_eq!(names, vec!["f", "g.h"], "{}", s.name);
        assert!(issues(&events).is_empty(), "{}", s.name);
        assert_eq!(prose(&events).replace('\n', ""), "hi  bye", "{}", s.name);
    }
}

/// Work is proportional to the input: a long value fed one byte at a time stays cheap.
#[test]
fn long_values_stream_in_linear_time() {
    let value = "ab<c\n".repeat(40_000);
    let text = format!("<function_calls><invoke name=\"f\"><parameter name=\"k\">{value}</parameter></invoke></function_calls>");
    let chars: Vec<String> = text.chars().map(String::from).collect();
    let refs: Vec<&str> = chars.iter().map(String::as_str).collect();
    let started = std::time::Instant::now();
    let events = chunked(&["anthropic_xml"], &refs);
    assert_eq!(calls(&events)[0].1["k"], value.as_str());
    assert!(started.elapsed().as_secs() < 5);
}

/// Prose after a marker is given back as text as soon as it cannot be a name.
#[test]
fn prose_after_a_marker_is_text_at_once() {
    for (syntax, text) in [
        ("glm45", "put <tool_call> around a call and more"),
        ("qwen3_coder", "write <function=the name> like so"),
        ("anthropic_xml", "a <function_calls> block holds calls"),
    ] {
        let mut engine = crate::stream::tests::engine(&[syntax]);
        let events = engine.feed(text);
        let shown: String = events
            .iter()
            .filter_map(|e| match e {
                Event::TextDelta { text, .. } => Some(text.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(shown, text, "{syntax}");
    }
}
