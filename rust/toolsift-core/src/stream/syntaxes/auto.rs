//! `auto`: every syntax whose start markers cannot be mistaken for prose, enabled at once, each
//! call reporting the syntax that matched.
//!
//! Left out, because their markers are ordinary prose characters: the bare-JSON syntaxes
//! (`json_openai`, `json_gemini`, `json_default`, `xlam`: a `{` or `[` or a json fence), and
//! the prose-colliding markers of three syntaxes that also have a special token, which stay
//! in with that token only: `llama3_json` (`<|python_tag|>`, not a bare `{`), `pythonic`
//! (`<|python_start|>`, not a bare `[`) and `tool_call_json` (`TOOL_CALL`, not a bare `{` or a
//! fence). Syntaxes sharing a marker are told apart by the bytes after it ([`super::sniff`]).

use super::super::{Opening, Syntax};
use super::by_name;
use super::sniff::Sniffer;

/// The name that selects this set.
pub const NAME: &str = "auto";

/// What auto-detection runs: `(syntax, the markers kept, or every marker when empty)`, in the
/// order they win ties (a marker listed earlier wins over an equal one listed later).
const MEMBERS: &[(&str, &[&str])] = &[
    ("think", &[]),
    ("tool_call_json", &["TOOL_CALL"]),
    ("qwen3_coder", &["<function="]),
    ("granite", &["<|tool_call|>", "<function_call>"]),
    ("deepseek_dsml", &[]),
    ("kimi_k2", &[]),
    ("minimax_m2", &[]),
    ("gpt_oss", &[]),
    ("jamba", &[]),
    ("internlm", &[]),
    ("step3", &[]),
    ("mistral", &[]),
    ("llama3_json", &["<|python_tag|>"]),
    ("pythonic", &["<|python_start|>"]),
    ("anthropic_xml", &[]),
    ("code_assistant_xml", &[]),
    ("xml_tool", &[]),
    ("sentinel", &[]),
    ("run_module", &[]),
    ("caret", &[]),
];

/// `<tool_call>`: Hermes (the default), Granite 3.1, Qwen3-Coder or GLM.
const TOOL_CALL_TAG: &[(&str, usize)] = &[
    ("hermes", 0),
    ("granite", 1),
    ("qwen3_coder", 0),
    ("glm45", 0),
];

/// `DeepSeek` V3.1 (the default) or V3, for each of their two markers.
const DEEPSEEK_SECTION: &[(&str, usize)] = &[("deepseek_v31", 0), ("deepseek_v3", 0)];
const DEEPSEEK_CALL: &[(&str, usize)] = &[("deepseek_v31", 1), ("deepseek_v3", 1)];

/// Names of the syntaxes auto-detection can report, in [`MEMBERS`] order then the shared-marker
/// groups.
#[must_use]
pub fn member_names() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = MEMBERS.iter().map(|(n, _)| *n).collect();
    for (name, _) in TOOL_CALL_TAG.iter().chain(DEEPSEEK_SECTION) {
        if !names.contains(name) {
            names.push(name);
        }
    }
    names
}

/// The syntaxes an `auto` engine runs.
#[must_use]
pub fn syntaxes() -> Vec<Syntax> {
    let mut all: Vec<Syntax> = MEMBERS
        .iter()
        .filter_map(|(name, keep)| by_name(name).map(|s| restrict(s, keep)))
        .collect();
    all.push(Syntax {
        name: "hermes",
        markers: vec![("<tool_call>".to_string(), false, false)],
        make: Box::new(|opening| Box::new(Sniffer::new(TOOL_CALL_TAG, tool_call_tag, opening))),
    });
    all.push(Syntax {
        name: "deepseek_v31",
        markers: vec![
            (DEEPSEEK_SECTION_BEGIN.to_string(), false, false),
            (DEEPSEEK_CALL_BEGIN.to_string(), false, false),
        ],
        make: Box::new(|opening: Opening| {
            let alts = if opening.marker == 0 {
                DEEPSEEK_SECTION
            } else {
                DEEPSEEK_CALL
            };
            Box::new(Sniffer::new(alts, deepseek, opening))
        }),
    });
    all
}

/// `syntax` with only the markers in `keep` (all of them when `keep` is empty).
fn restrict(syntax: Syntax, keep: &[&str]) -> Syntax {
    if keep.is_empty() {
        return syntax;
    }
    let kept: Vec<usize> = (0..syntax.markers.len())
        .filter(|&i| keep.contains(&syntax.markers[i].0.as_str()))
        .collect();
    let markers = kept.iter().map(|&i| syntax.markers[i].clone()).collect();
    let make = syntax.make;
    Syntax {
        name: syntax.name,
        markers,
        make: Box::new(move |o: Opening| {
            let marker = kept.get(o.marker).copied().unwrap_or(0);
            make(o.with_marker(marker))
        }),
    }
}

/// Whether `rest` starts with `token` (`Some(true)`), cannot (`Some(false)`), or is a proper
/// prefix of it (`None`).
fn starts(rest: &[u8], token: &str) -> Option<bool> {
    let t = token.as_bytes();
    if rest.len() < t.len() {
        if rest == &t[..rest.len()] {
            None
        } else {
            Some(false)
        }
    } else {
        Some(rest.starts_with(t))
    }
}

/// After `<tool_call>`: `{` Hermes, `[` Granite, `<function=` Qwen3-Coder, a name GLM; any
/// other tag (`</tool_call>`) is an empty Hermes call, and a fence (never a name) Hermes's
/// fenced object.
fn tool_call_tag(rest: &[u8], at_end: bool) -> Option<usize> {
    match rest.first()? {
        b'{' | b'`' => Some(0),
        b'[' => Some(1),
        b'<' => match starts(rest, "<function=") {
            Some(true) => Some(2),
            Some(false) => Some(0),
            None => at_end.then_some(0),
        },
        _ => Some(3),
    }
}

const DEEPSEEK_SECTION_BEGIN: &str = "<｜tool▁calls▁begin｜>";
const DEEPSEEK_CALL_BEGIN: &str = "<｜tool▁call▁begin｜>";
const DEEPSEEK_V3_HEAD: &str = "function<｜tool▁sep｜>";

/// V3 writes `function<sep>NAME⏎```json`; V3.1 writes `NAME<sep>{`. A V3.1 call of a tool
/// named `function` is the one overlap, told apart by the `{` right after the separator.
fn deepseek(rest: &[u8], at_end: bool) -> Option<usize> {
    let mut rest = rest;
    match starts(rest, DEEPSEEK_CALL_BEGIN) {
        Some(true) => {
            rest = &rest[DEEPSEEK_CALL_BEGIN.len()..];
            let blanks = rest.iter().take_while(|b| b.is_ascii_whitespace()).count();
            rest = &rest[blanks..];
        }
        None if !rest.is_empty() => return None,
        _ => {}
    }
    if rest.is_empty() {
        return at_end.then_some(0);
    }
    match starts(rest, DEEPSEEK_V3_HEAD) {
        Some(true) => match rest.get(DEEPSEEK_V3_HEAD.len()) {
            Some(b'{') => Some(0),
            Some(_) => Some(1),
            None => at_end.then_some(1),
        },
        Some(false) => Some(0),
        None => at_end.then_some(0),
    }
}
