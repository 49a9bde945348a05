use crate::stream::events::Event;
use crate::stream::tests::{chunked, one_shot};

fn calls(events: &[Event]) -> Vec<(String, String)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::SegmentEnd { call: Some(c), .. } => Some((c.name.clone(), c.arguments.clone())),
            _ => None,
        })
        .collect()
}

fn prose(events: &[Event]) -> String {
    events
        .iter()
        .filter_map(|e| match e {
            Event::TextDelta { id, text } if id.starts_with("text_") => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

fn issues(events: &[Event]) -> Vec<&'static str> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::SegmentEnd { issue: Some(i), .. } => Some(i.kind),
            _ => None,
        })
        .collect()
}

fn every_split(text: &str) -> Vec<Event> {
    let whole = one_shot(&["pythonic"], text);
    for cut in (0..=text.len()).filter(|&c| text.is_char_boundary(c)) {
        assert_eq!(
            chunked(&["pythonic"], &[&text[..cut], &text[cut..]]),
            whole,
            "cut {cut} of {text:?}"
        );
    }
    let chars: Vec<String> = text.chars().map(String::from).collect();
    let refs: Vec<&str> = chars.iter().map(String::as_str).collect();
    assert_eq!(chunked(&["pythonic"], &refs), whole, "one char at a time");
    whole
}

fn pair(n: &str, a: &str) -> (String, String) {
    (n.to_string(), a.to_string())
}

#[test]
fn calls_values_and_delimiters_inside_strings() {
    let text = "Do: [math.factorial(n=5), get-weather(city='Zürich ], f(x)', opts={'a': [1, (2,)], 3: None}, ok=True, s=\"<|python_end|>\\n\")] done";
    let events = every_split(text);
    assert_eq!(
        calls(&events),
        vec![
            pair("math.factorial", r#"{"n": 5}"#),
            pair(
                "get-weather",
                r#"{"city": "Zürich ], f(x)", "opts": {"a": [1, [2]], "3": null}, "ok": true, "s": "<|python_end|>\n"}"#
            ),
        ]
    );
    assert_eq!(prose(&events), "Do:  done");
    assert!(events.iter().any(|e| matches!(e, Event::ArgumentDelta { key, text, .. } if key == "city" && text == "Zürich ], f(x)")));
}

#[test]
fn llama4_wrapper() {
    let text = "Hi <|python_start|>[f(a=1), g()]<|python_end|> bye <|python_start|> nope";
    let events = every_split(text);
    assert_eq!(
        calls(&events),
        vec![pair("f", r#"{"a": 1}"#), pair("g", "{}")]
    );
    assert_eq!(prose(&events), "Hi  bye <|python_start|> nope");
}

#[test]
fn lists_that_are_not_calls_are_text() {
    let text = "[1, 2] [see above] [f(x)] [] [a, b] [g (a=1)] {x: [1]}";
    let events = every_split(text);
    assert!(calls(&events).is_empty());
    assert_eq!(prose(&events), text);
}

#[test]
fn a_malformed_first_call_is_reported_and_its_siblings_kept() {
    // Once a keyword's `=` shows a call, the list is calls: a value that is no Python literal
    // makes that call an issue, not the whole list text.
    let text = "[bad(x=b'z'), get(city='Oslo')] [f(a=b'x')]";
    let events = every_split(text);
    assert_eq!(calls(&events), vec![pair("get", r#"{"city": "Oslo"}"#)]);
    assert_eq!(issues(&events), vec!["bad_call", "bad_call"]);
    assert_eq!(prose(&events), " ");
}

#[test]
fn a_number_too_large_for_a_float_makes_the_call_malformed() {
    let events = every_split("[calc(x=1e999), calc(x=1e300)]");
    assert_eq!(calls(&events), vec![pair("calc", r#"{"x": 1e300}"#)]);
    assert_eq!(issues(&events), vec!["bad_call"]);
}

#[test]
fn malformed_call_between_two_good_ones() {
    let text = "[a(x=1), b(y=[1, 'q)'] z), c(k='v')] and [d()]";
    let events = every_split(text);
    assert_eq!(
        calls(&events),
        vec![
            pair("a", r#"{"x": 1}"#),
            pair("c", r#"{"k": "v"}"#),
            pair("d", "{}")
        ]
    );
    assert_eq!(issues(&events), vec!["bad_call"]);
    assert_eq!(prose(&events), " and ");
}

#[test]
fn unterminated_at_end() {
    let events = every_split("[f(a='open");
    assert!(calls(&events).is_empty());
    assert_eq!(issues(&events), vec!["unterminated"]);
    let events = every_split("[f(a=1), g(b=2)");
    assert_eq!(
        calls(&events),
        vec![pair("f", r#"{"a": 1}"#), pair("g", r#"{"b": 2}"#)]
    );
    assert_eq!(issues(&events), vec!["missing_end_marker"]);
    let events = every_split("x [f(a=1)] y [wo");
    assert_eq!(prose(&events), "x  y [wo");
}

#[test]
fn deep_nesting_is_linear_and_safe() {
    let text = format!("[f(a={}", "[".repeat(50_000));
    let events = one_shot(&["pythonic"], &text);
    assert_eq!(issues(&events), vec!["unterminated"]);
    let text = "[".repeat(50_000);
    assert_eq!(prose(&one_shot(&["pythonic"], &text)), text);
}

#[test]
fn wrapper_without_its_end_token() {
    let events = every_split("<|python_start|>[f()] bye <|python_start|>[g(a=1)]  <|python_en");
    assert_eq!(
        calls(&events),
        vec![pair("f", "{}"), pair("g", r#"{"a": 1}"#)]
    );
    assert_eq!(
        issues(&events),
        vec!["missing_end_marker", "missing_end_marker"]
    );
    assert_eq!(prose(&events), " bye ");
}
