mod closing;
mod escaped;
mod framing;
mod soup;

use super::head::Tok;
use super::{first, SYNTAXES};
use crate::stream::events::Event;
use crate::stream::test_support::{calls, issues, prose};
use crate::stream::tests::{chunked, one_shot};

/// One-shot events of `text`, after checking that every two-way split, every three-way split
/// around the middle and one character at a time give the same events.
fn check(syntax: &str, text: &str) -> Vec<Event> {
    check_with(syntax, text, true)
}

fn check_with(syntax: &str, text: &str, three_way: bool) -> Vec<Event> {
    let names = [syntax];
    let whole = one_shot(&names, text);
    let cuts: Vec<usize> = (0..=text.len())
        .filter(|&c| text.is_char_boundary(c))
        .collect();
    for &cut in &cuts {
        assert_eq!(
            chunked(&names, &[&text[..cut], &text[cut..]]),
            whole,
            "{syntax}: cut {cut} of {text:?}"
        );
    }
    let mid = cuts[cuts.len() / 2];
    for &cut in cuts.iter().filter(|&&c| three_way && c <= mid) {
        let parts = [&text[..cut], &text[cut..mid], &text[mid..]];
        assert_eq!(
            chunked(&names, &parts),
            whole,
            "{syntax}: cuts {cut}, {mid}"
        );
    }
    let chars: Vec<String> = text.chars().map(String::from).collect();
    let refs: Vec<&str> = chars.iter().map(String::as_str).collect();
    assert_eq!(
        chunked(&names, &refs),
        whole,
        "{syntax}: one char at a time"
    );
    tiles(syntax, text, &whole);
    whole
}

/// Text and segments tile the input, in order; a call's `raw` is its text.
fn tiles(syntax: &str, text: &str, events: &[Event]) {
    let mut pos = 0;
    for e in events {
        match e {
            Event::TextDelta { id, text } if id.starts_with("text_") => {
                pos += text.chars().count();
            }
            Event::SegmentEnd { call: Some(c), .. } => {
                assert_eq!(c.start, pos, "{syntax}: {text:?}");
                let raw: String = text.chars().skip(c.start).take(c.end - c.start).collect();
                assert_eq!(c.raw, raw);
                pos = c.end;
            }
            Event::SegmentEnd { issue: Some(i), .. } => {
                assert_eq!(i.start, pos, "{syntax}: {text:?}");
                pos = i.end;
            }
            _ => {}
        }
    }
    assert_eq!(pos, text.chars().count(), "{syntax}: {text:?}");
}

fn call(name: &str, args: &serde_json::Value) -> (String, serde_json::Value) {
    (name.to_string(), args.clone())
}

/// The streamed deltas agree with the final arguments.
fn deltas_agree(events: &[Event]) {
    let mut json = String::new();
    for e in events {
        match e {
            Event::ArgumentsJsonDelta { text, .. } => json.push_str(text),
            Event::SegmentEnd { call: Some(c), .. } => {
                // Equal, unless a repeated key became a list in the final text.
                let streamed: serde_json::Value = serde_json::from_str(&json).expect("JSON");
                assert!(json == c.arguments || c.arguments.contains('['), "{json}");
                assert!(streamed.is_object());
                json.clear();
            }
            Event::SegmentEnd { .. } => json.clear(),
            _ => {}
        }
    }
}

#[test]
fn specs_are_well_formed() {
    for s in SYNTAXES {
        // A value ends at its first `<`-led closing tag; the scan relies on that `<` being the
        // tag's only one.
        assert!(s.param_close.starts_with('<') && s.param_close.matches('<').count() == 1);
        for toks in [s.invoke_open, s.invoke_close, s.param_open] {
            assert!(matches!(toks.first(), Some(Tok::Lit(l)) if l.starts_with('<')));
            // A pattern may end with text only where the `<` of what follows ends it.
            assert!(!matches!(toks.last(), Some(Tok::Ws | Tok::SkipTo(_))));
            if let Some(Tok::Text(stop)) = toks.last() {
                assert_eq!(*stop, b'<');
            }
        }
        let close = first(s.invoke_close);
        assert_eq!(close.matches('<').count(), 1, "{}", s.name);
        let pairs = [
            (first(s.param_open), close),
            (s.param_close, first(s.param_open)),
            (s.param_close, close),
            (first(s.invoke_open), s.section.map_or("~", |x| x.1)),
            (first(s.invoke_open), s.alias.map_or("~", |x| x.1)),
        ];
        for (a, b) in pairs {
            assert!(!a.starts_with(b) && !b.starts_with(a), "{}", s.name);
        }
    }
}

#[test]
fn anthropic_values_hold_other_tags_and_non_ascii() {
    let text = "Hi <function_calls>\n<invoke name=\"a.b-c_d\">\n<parameter name=\"code\">x </invoke> </function_calls> <parameter name=\"y\"> </paramete z</parameter>\n<parameter name='q'>é😀 ü\n</parameter>\n</invoke>\n<invoke name=\"g\"></invoke>\n</function_calls> bye";
    let events = check("anthropic_xml", text);
    assert_eq!(
        calls(&events),
        vec![
            call(
                "a.b-c_d",
                &serde_json::json!({"code": "x </invoke> </function_calls> <parameter name=\"y\"> </paramete z", "q": "é😀 ü\n"})
            ),
            call("g", &serde_json::json!({})),
        ]
    );
    assert_eq!(prose(&events), "Hi  bye");
    assert!(issues(&events).is_empty());
    deltas_agree(&events);
    // The name is announced before the arguments stream.
    let start = events
        .iter()
        .position(|e| matches!(e, Event::SegmentStart { name: Some(n), .. } if n == "a.b-c_d"));
    let delta = events
        .iter()
        .position(|e| matches!(e, Event::ArgumentDelta { .. }));
    assert!(start.is_some() && start < delta);
}

#[test]
fn anthropic_malformed_invoke_between_good_ones() {
    let text = "<function_calls><invoke name=\"a\"><parameter name=\"k\">1</parameter></invoke><invoke name=\"b\"><parameter>2</parameter></invoke><invoke name=\"\"></invoke><invoke name=\"c\"></invoke></function_calls>";
    let events = check("anthropic_xml", text);
    let names: Vec<String> = calls(&events).into_iter().map(|c| c.0).collect();
    assert_eq!(names, vec!["a", "c"]);
    let kinds: Vec<&str> = issues(&events).into_iter().map(|i| i.0).collect();
    assert_eq!(kinds, vec!["malformed", "no_name"]);
    assert_eq!(prose(&events), "");
}

#[test]
fn anthropic_ends() {
    // Unterminated: only an issue, carrying the partial text.
    let events = check(
        "anthropic_xml",
        "x <function_calls><invoke name=\"a\"><parameter name=\"k\">par",
    );
    assert!(calls(&events).is_empty());
    let found = issues(&events);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].0, "unterminated");
    assert!(found[0].1.contains("par"));
    // A complete invoke without the section's end: a call and an issue; the rest is text.
    let events = check(
        "anthropic_xml",
        "<function_calls><invoke name=\"a\"></invoke>\n\n</function_callz x",
    );
    assert_eq!(calls(&events).len(), 1);
    assert_eq!(issues(&events)[0].0, "missing_end_marker");
    assert_eq!(prose(&events), "\n\n</function_callz x");
    let events = check(
        "anthropic_xml",
        "<function_calls><invoke name=\"a\"></invoke>",
    );
    assert_eq!(calls(&events).len(), 1);
    assert_eq!(issues(&events)[0].0, "missing_end_marker");
    // Blanks after the marker are bounded before it is judged text.
    let text = format!("<function_calls>{}x", " ".repeat(2000));
    let events = check_with("anthropic_xml", &text, false);
    assert_eq!(prose(&events), text);
    // A marker that opens nothing is text.
    let text = "use <function_calls> or <function_calls><invoke nam> to call";
    let events = check("anthropic_xml", text);
    assert!(calls(&events).is_empty() && issues(&events).is_empty());
    assert_eq!(prose(&events), text);
}

#[test]
fn minimax_quotes_and_two_sections_in_one_chunk() {
    let text = "a<minimax:tool_call>\n<invoke name=get_weather>\n<parameter name='city'>Köln</parameter>\n<parameter name=\"days\">3</parameter>\n</invoke>\n</minimax:tool_call>b<minimax:tool_call><invoke name='f'></invoke></minimax:tool_call>";
    let events = check("minimax_m2", text);
    assert_eq!(
        calls(&events),
        vec![
            call(
                "get_weather",
                &serde_json::json!({"city": "Köln", "days": "3"})
            ),
            call("f", &serde_json::json!({})),
        ]
    );
    assert_eq!(prose(&events), "ab");
    deltas_agree(&events);
}

#[test]
fn qwen3_trims_one_newline_each_side() {
    let text = "<tool_call>\n<function=f>\n<parameter=a>\n\nline1\n</tool_call>\n\n</parameter>\n<parameter=b>\n</parameter>\n<parameter=c>x</parameter>\n</function>\n</tool_call>\n<function=g.h>\n<parameter=x>\n1\n</parameter>\n</function> end";
    let events = check("qwen3_coder", text);
    assert_eq!(
        calls(&events),
        vec![
            call(
                "f",
                &serde_json::json!({"a": "\nline1\n</tool_call>\n", "b": "", "c": "x"})
            ),
            call("g.h", &serde_json::json!({"x": "1"})),
        ]
    );
    assert_eq!(prose(&events), "\n end");
    deltas_agree(&events);
}

#[test]
fn qwen3_value_without_its_closing_tag_ends_at_the_next_parameter_or_the_function_end() {
    let text = "<tool_call>\n<function=f>\n<parameter=a>\nx < y </param\n<parameter=b>\n2\n</parameter>\n<parameter=c>\nlast\n</function>\n</tool_call>\n<function=g>\n<parameter=k>v</parameter>\n</function> end";
    let events = check("qwen3_coder", text);
    assert_eq!(
        calls(&events),
        vec![
            call(
                "f",
                &serde_json::json!({"a": "x < y </param", "b": "2", "c": "last"})
            ),
            call("g", &serde_json::json!({"k": "v"})),
        ]
    );
    assert_eq!(
        call_repairs(&events),
        vec![vec!["unclosed_parameter"], vec![]]
    );
    assert_eq!(prose(&events), "\n end");
    deltas_agree(&events);
}

#[test]
fn qwen3_drifted_closing_tags_end_the_value() {
    let text = "<tool_call>\n<function=f>\n<parameter=a>\nx\n</parameter1>\n<parameter=b>\ny\n</parameter_b>\n<parameter=c>\nz\n</parameter\n<parameter=d>\nw\n</parameter>\n</function>\n</tool_call>";
    let events = check("qwen3_coder", text);
    assert_eq!(
        calls(&events),
        vec![call(
            "f",
            &serde_json::json!({"a": "x", "b": "y", "c": "z", "d": "w"})
        )]
    );
    deltas_agree(&events);
    // Other syntaxes keep such text in the value.
    let text = "<function_calls><invoke name=\"f\"><parameter name=\"a\">x</parameter1></parameter></invoke></function_calls>";
    let events = check("anthropic_xml", text);
    assert_eq!(
        calls(&events),
        vec![call("f", &serde_json::json!({"a": "x</parameter1>"}))]
    );
}

#[test]
fn qwen3_tags_written_inside_a_value_stay_in_it() {
    // A `</parameter>` not followed by a tag that may follow a parameter, and a
    // `<parameter=NAME>` of a name already read (or not closed by `>` on its line), are text.
    let text = "<tool_call>\n<function=write_file>\n<parameter=path>\na.py\n</parameter>\n<parameter=content>\nx = \"</parameter>\" + \"<parameter=path>\"\ny = \"<parameter=q\"\n</parameter> \n</function>\n</tool_call>";
    let events = check("qwen3_coder", text);
    assert_eq!(
        calls(&events),
        vec![call(
            "write_file",
            &serde_json::json!({"path": "a.py", "content": "x = \"</parameter>\" + \"<parameter=path>\"\ny = \"<parameter=q\""})
        )]
    );
    assert_eq!(call_repairs(&events), vec![Vec::<&str>::new()]);
    deltas_agree(&events);
    // A new name still opens the next parameter.
    let text = "<function=f>\n<parameter=a>\n1\n<parameter=b>\n2\n</parameter>\n</function>";
    let events = check("qwen3_coder", text);
    assert_eq!(
        calls(&events),
        vec![call("f", &serde_json::json!({"a": "1", "b": "2"}))]
    );
    assert_eq!(call_repairs(&events), vec![vec!["unclosed_parameter"]]);
}

/// Events of `text` with `known` declared, the same under every two-way split and one
/// character at a time; text and segments tile the input.
fn check_known(syntax: &str, known: &crate::stream::KnownTools, text: &str) -> Vec<Event> {
    let whole = crate::stream::test_support::every_split_with(&[syntax], known, text);
    tiles(syntax, text, &whole);
    whole
}

#[test]
fn qwen3_only_a_declared_parameter_name_opens_a_parameter_inside_a_value() {
    // vLLM's reading: a file that shows the syntax (`</parameter>` then `<parameter=NAME>` on
    // their own lines, `NAME` not in the schema) stays in the value.
    let known = crate::stream::KnownTools::with_parameters([(
        "write_file",
        Some(vec!["path".to_string(), "content".to_string()]),
    )]);
    let text = "<tool_call>\n<function=write_file>\n<parameter=path>\nt.py\n</parameter>\n<parameter=content>\nT = \"\"\"\n</parameter>\n<parameter=new_string>\n#!/bin/sh\n<parameter=query>\n\"\"\"\n</parameter>\n</function>\n</tool_call>";
    let events = check_known("qwen3_coder", &known, text);
    assert_eq!(
        calls(&events),
        vec![call(
            "write_file",
            &serde_json::json!({"path": "t.py", "content": "T = \"\"\"\n</parameter>\n<parameter=new_string>\n#!/bin/sh\n<parameter=query>\n\"\"\""})
        )]
    );
    deltas_agree(&events);
    // A declared name still opens the next parameter, closed or not; so does any name of a
    // tool whose parameters are not declared.
    let text = "<function=write_file>\n<parameter=path>\na\n<parameter=content>\nb\n</parameter>\n</function><function=other>\n<parameter=x>\n1\n</parameter>\n<parameter=y>\n2\n</parameter>\n</function>";
    let events = check_known("qwen3_coder", &known, text);
    assert_eq!(
        calls(&events),
        vec![
            call(
                "write_file",
                &serde_json::json!({"path": "a", "content": "b"})
            ),
            call("other", &serde_json::json!({"x": "1", "y": "2"})),
        ]
    );
    assert_eq!(
        call_repairs(&events),
        vec![vec!["unclosed_parameter"], Vec::<&str>::new()]
    );
}

#[test]
fn qwen3_a_function_end_inside_a_section_value_needs_the_section_end_after_it() {
    // vLLM's reading: a `</function>` that the value's text goes on after (a file that shows
    // the syntax) stays in the value.
    let text = "<tool_call>\n<function=w>\n<parameter=c>\nd = [\n  \"</function>\\n\",\n]\n</parameter>\n</function>\n</tool_call>";
    let events = check("qwen3_coder", text);
    assert_eq!(
        calls(&events),
        vec![call(
            "w",
            &serde_json::json!({"c": "d = [\n  \"</function>\\n\",\n]"})
        )]
    );
    assert_eq!(call_repairs(&events), vec![Vec::<&str>::new()]);
    deltas_agree(&events);
    // Followed by the section's end, by another invoke or by the stream's end, it closes
    // a value left without `</parameter>`.
    for (text, issues_want) in [
        (
            "<tool_call>\n<function=f>\n<parameter=a>\n1\n</function>\n</tool_call>",
            0,
        ),
        (
            "<tool_call>\n<function=f>\n<parameter=a>\n1\n</function>\n",
            1,
        ),
    ] {
        let events = check("qwen3_coder", text);
        assert_eq!(
            calls(&events),
            vec![call("f", &serde_json::json!({"a": "1"}))]
        );
        assert_eq!(call_repairs(&events), vec![vec!["unclosed_parameter"]]);
        assert_eq!(issues(&events).len(), issues_want, "{text:?}");
    }
}

#[test]
fn qwen3_json_in_tool_call_is_text_and_malformed_is_skipped() {
    let text = "<tool_call>\n{\"name\": \"f\"}\n</tool_call>";
    let events = check("qwen3_coder", text);
    assert!(calls(&events).is_empty());
    assert_eq!(prose(&events), text);
    let text = "<function=a></function><function=b>\n<parameter=>1</parameter>\n</function><function=c></function>";
    let events = check("qwen3_coder", text);
    let names: Vec<String> = calls(&events).into_iter().map(|c| c.0).collect();
    assert_eq!(names, vec!["a", "c"]);
    assert_eq!(issues(&events).len(), 1);
}

#[test]
fn glm45_with_and_without_newlines() {
    let text = "x<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>北京 </tool_call> <arg_key></arg_value>\n</tool_call><tool_call>get_weather<arg_key>city</arg_key><arg_value>上海</arg_value></tool_call>";
    let events = check("glm45", text);
    assert_eq!(
        calls(&events),
        vec![
            call(
                "get_weather",
                &serde_json::json!({"city": "北京 </tool_call> <arg_key>"})
            ),
            call("get_weather", &serde_json::json!({"city": "上海"})),
        ]
    );
    assert_eq!(prose(&events), "x");
}

#[test]
fn glm45_malformed_between_good_ones_and_unterminated() {
    let text = "<tool_call>a</tool_call>\n<tool_call>b\n<arg_key>k<arg_value>v</arg_value></tool_call>\n<tool_call>c\n</tool_call>";
    let events = check("glm45", text);
    let names: Vec<String> = calls(&events).into_iter().map(|c| c.0).collect();
    assert_eq!(names, vec!["a", "c"]);
    assert_eq!(issues(&events)[0].0, "malformed");
    assert_eq!(prose(&events), "\n\n");
    let events = check("glm45", "<tool_call>a\n<arg_key>k</arg_key><arg_value>v");
    assert!(calls(&events).is_empty());
    assert_eq!(issues(&events)[0].0, "unterminated");
    // Prose that mentions the tag is text.
    let events = check("glm45", "put <tool_call> tags around <tool_call>{\"a\"}");
    assert!(calls(&events).is_empty());
}

#[test]
fn glm45_values_that_are_whole_json_values_are_typed() {
    let text = "<tool_call>calc\n<arg_key>a</arg_key>\n<arg_value>42</arg_value>\n<arg_key>b</arg_key><arg_value> -3.5e1\n</arg_value><arg_key>c</arg_key><arg_value>true</arg_value><arg_key>d</arg_key><arg_value>null</arg_value><arg_key>e</arg_key><arg_value>[1, {\"x\": \"<\"}]</arg_value><arg_key>f</arg_key><arg_value>{placeholder}</arg_value><arg_key>g</arg_key><arg_value>007</arg_value><arg_key>h</arg_key><arg_value>nullable</arg_value><arg_key>i</arg_key><arg_value>42 apples</arg_value><arg_key>j</arg_key><arg_value>\"q\"</arg_value><arg_key>k</arg_key><arg_value></arg_value></tool_call>";
    let events = check("glm45", text);
    assert_eq!(
        calls(&events),
        vec![call(
            "calc",
            &serde_json::json!({"a": 42, "b": -35.0, "c": true, "d": null, "e": [1, {"x": "<"}],
                "f": "{placeholder}", "g": "007", "h": "nullable", "i": "42 apples",
                "j": "\"q\"", "k": ""})
        )]
    );
    deltas_agree(&events);
    // A long number or run of blanks is text without waiting for the value's end.
    let long = format!(
        "<tool_call>f<arg_key>n</arg_key><arg_value>{}</arg_value></tool_call>",
        "9".repeat(70)
    );
    let events = check_with("glm45", &long, false);
    assert_eq!(
        calls(&events),
        vec![call("f", &serde_json::json!({"n": "9".repeat(70)}))]
    );
}

#[test]
fn glm45_values_of_a_declared_tool_stay_text_for_its_schema() {
    let text = "<tool_call>calc<arg_key>a</arg_key><arg_value>42</arg_value></tool_call><tool_call>other<arg_key>a</arg_key><arg_value>42</arg_value></tool_call>";
    let mut e = crate::stream::tests::engine(&["glm45"]);
    e.set_known_tools(crate::stream::KnownTools::new(["calc"]));
    let mut events = e.feed(text);
    events.extend(e.finish());
    assert_eq!(
        calls(&events),
        vec![
            call("calc", &serde_json::json!({"a": "42"})),
            call("other", &serde_json::json!({"a": 42})),
        ]
    );
}

#[test]
fn dsml_json_and_string_values() {
    let text = "<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"f\">\n<｜DSML｜parameter name=\"n\" string=\"false\">[1, {\"a\": 2}]</｜DSML｜parameter>\n<｜DSML｜parameter name=\"s\" string=\"true\">x</｜ａ </｜DSML｜invoke></｜DSML｜parameter>\n<｜DSML｜parameter name=\"b\" string=\"false\">{'k': True,}</｜DSML｜parameter>\n</｜DSML｜invoke>\n<｜DSML｜invoke name=\"g\">\n</｜DSML｜invoke>\n</｜DSML｜function_calls>";
    let events = check("deepseek_dsml", text);
    assert_eq!(
        calls(&events),
        vec![
            call(
                "f",
                &serde_json::json!({"n": [1, {"a": 2}], "s": "x</｜ａ </｜DSML｜invoke>", "b": {"k": true}})
            ),
            call("g", &serde_json::json!({})),
        ]
    );
    assert_eq!(prose(&events), "");
    deltas_agree(&events);
}

#[test]
fn qwen3_a_closing_tool_call_tag_after_a_bare_function_is_the_calls() {
    // The model left out `<tool_call>` but wrote `</tool_call>`: it never reaches content.
    let text = "Checking.\n\n<function=get_weather>\n<parameter=city>Paris</parameter>\n</function>\n</tool_call> done";
    let events = check("qwen3_coder", text);
    assert_eq!(
        calls(&events),
        vec![call("get_weather", &serde_json::json!({"city": "Paris"}))]
    );
    assert!(issues(&events).is_empty());
    assert_eq!(prose(&events), "Checking.\n\n done");
    // Without it, what follows the function stays text, blanks included.
    for (text, after) in [
        ("<function=a>\n</function>\n and more", "\n and more"),
        ("<function=a>\n</function>\n</tool_", "\n</tool_"),
        ("<function=a>\n</function>\n", "\n"),
    ] {
        let events = check("qwen3_coder", text);
        assert_eq!(calls(&events).len(), 1, "{text:?}");
        assert!(issues(&events).is_empty(), "{text:?}");
        assert_eq!(prose(&events), after, "{text:?}");
    }
}

#[test]
fn dsml_v4_section_tags_read_like_v3_2s() {
    // DeepSeek V4 names the section `tool_calls`; it closes with its own tag.
    let text = "Sure.\n\n<｜DSML｜tool_calls>\n<｜DSML｜invoke name=\"note\">\n<｜DSML｜parameter name=\"p\" string=\"false\">Здравствуйте</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls> after";
    let events = check("deepseek_dsml", text);
    assert_eq!(
        calls(&events),
        vec![call("note", &serde_json::json!({"p": "Здравствуйте"}))]
    );
    assert!(issues(&events).is_empty());
    assert_eq!(prose(&events), "Sure. after");
    // Left open, the missing tag it names is the V4 one.
    let cut = &text[..text.find("</｜DSML｜tool_calls>").unwrap()];
    let events = check("deepseek_dsml", cut);
    assert_eq!(calls(&events).len(), 1);
    let found = issues(&events);
    assert!(found[0].1.contains("</｜DSML｜tool_calls>"), "{found:?}");
}

#[test]
fn step3_call_without_its_function_header() {
    let text = "a<｜tool_calls_begin｜><｜tool_call_begin｜><steptml:invoke name=\"f\"><steptml:parameter name=\"p\">C:\\x \"q\"</steptml:parameter></steptml:invoke><｜tool_call_end｜>\n<｜tool_call_begin｜>function <steptml:x <｜tool_sep｜>g<steptml:invoke name=\"g\"></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>b";
    let events = check("step3", text);
    assert_eq!(
        calls(&events),
        vec![
            call("f", &serde_json::json!({"p": "C:\\x \"q\""})),
            call("g", &serde_json::json!({})),
        ]
    );
    assert_eq!(prose(&events), "ab");
}

/// The repairs of each call, in order.
fn call_repairs(events: &[Event]) -> Vec<Vec<&'static str>> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::SegmentEnd { call: Some(c), .. } => Some(c.repairs.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn stray_text_between_parameters_is_skipped() {
    let text = "<minimax:tool_call>\n<invoke name=\"f\">\nI think so\n<parameter name=\"city\">Paris</parameter>\n} junk\n<parameter name=\"n\">2</parameter>\n</invoke>\n</minimax:tool_call>";
    let events = check("minimax_m2", text);
    assert_eq!(
        calls(&events),
        vec![call("f", &serde_json::json!({"city": "Paris", "n": "2"}))]
    );
    assert_eq!(call_repairs(&events), vec![vec!["stray_text"]]);
    assert_eq!(prose(&events), "");
    // A tag with no place there makes the invoke malformed: a value might go with it.
    let events = check(
        "glm45",
        "<tool_call>f\n<arg_value>v</arg_value>\n</tool_call><tool_call>g</tool_call>",
    );
    assert_eq!(calls(&events), vec![call("g", &serde_json::json!({}))]);
    assert_eq!(issues(&events)[0].0, "malformed");
    // Left open to the end, it is still unterminated, never a call.
    let events = check(
        "minimax_m2",
        "<minimax:tool_call><invoke name=\"f\">words and more",
    );
    assert!(calls(&events).is_empty());
    assert_eq!(issues(&events)[0].0, "unterminated");
}

#[test]
fn the_section_end_closes_an_open_invoke() {
    let text = "<tool_call><function=f><parameter=a>x</parameter><parameter=b>y</parameter></tool_call> after";
    let events = check("qwen3_coder", text);
    assert_eq!(
        calls(&events),
        vec![call("f", &serde_json::json!({"a": "x", "b": "y"}))]
    );
    assert_eq!(call_repairs(&events), vec![vec!["missing_invoke_end"]]);
    assert_eq!(prose(&events), " after");
    assert!(issues(&events).is_empty());
}

#[test]
fn self_closing_invokes_and_json_bodies() {
    let text = "<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"submit\"/>\n<｜DSML｜invoke name=\"g\">\n  {\"city\": \"Köln\", \"n\": [1, {\"a\": \"}<\"}]}\n</｜DSML｜invoke>\n<｜DSML｜invoke name=\"h\">{'k': True,}</｜DSML｜invoke>\n<｜DSML｜invoke name=\"bad\">[1]</｜DSML｜invoke>\n</｜DSML｜function_calls>";
    let events = check("deepseek_dsml", text);
    assert_eq!(
        calls(&events),
        vec![
            call("submit", &serde_json::json!({})),
            call(
                "g",
                &serde_json::json!({"city": "Köln", "n": [1, {"a": "}<"}]})
            ),
            call("h", &serde_json::json!({"k": true})),
            // Not an object: stray text, skipped and reported as a repair.
            call("bad", &serde_json::json!({})),
        ]
    );
    let repairs = call_repairs(&events);
    assert!(repairs[2].contains(&"single_quotes") && repairs[3] == vec!["stray_text"]);
    assert_eq!(prose(&events), "");
    deltas_agree(&events);
    let events = check(
        "anthropic_xml",
        "<invoke name='x'/> <function_calls><invoke name='y' /></function_calls>",
    );
    assert_eq!(calls(&events), vec![call("y", &serde_json::json!({}))]);
}

#[test]
fn step3_sections() {
    let text = "ok<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜>f\n<steptml:invoke name=\"f\"><steptml:parameter name=\"s\"> a <｜tool_call_end｜>\n</steptml:parameter></steptml:invoke><｜tool_call_end｜>\n<｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"g\"></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>done";
    let events = check("step3", text);
    assert_eq!(
        calls(&events),
        vec![
            call("f", &serde_json::json!({"s": " a <｜tool_call_end｜>\n"})),
            call("g", &serde_json::json!({})),
        ]
    );
    assert_eq!(prose(&events), "okdone");
    assert!(issues(&events).is_empty());
}
