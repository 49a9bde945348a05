//! Syntaxes whose calls are tags: an optional section wrapper holding one or more invokes, a
//! name in a tag, an attribute or after a marker, and parameters as tag pairs around raw text.
//!
//! They differ only in data, so each is a [`Tagged`] constant of token patterns ([`Tok`]).
//! Each invoke is one segment: the first carries the section's opening tag, the blanks between
//! invokes go with the call before them (they are not content), and the section's closing tag
//! goes with the last call. A later invoke of a section starts its own segment through
//! [`SegmentParser::chain`](crate::stream::SegmentParser::chain), so it needs no start marker of its own.
//!
//! Values are raw text, kept exactly (no entity decoding, no trimming), except that
//! `qwen3_coder` drops one leading and one trailing newline, and `deepseek_dsml` values marked
//! `string="false"` are JSON. **A value ends at the first closing tag of a parameter**
//! (`</parameter>`, `</arg_value>`, `</｜DSML｜parameter>`, `</steptml:parameter>`): a value may
//! hold anything else, the invoke's and section's closing tags included, but never its own
//! closing tag. Tags are case-sensitive; attribute values may be quoted with `"` or `'` or
//! bare (up to a blank or `>`). Where a tag allows blanks (`glm45` between `</arg_key>` and
//! `<arg_value>`), a blank written as a JSON escape (`\n` as two characters, from a model that
//! escaped its output once too often) counts as one, and a name or key is trimmed of them.
//!
//! | syntax | start markers | a value ends at | the name |
//! |---|---|---|---|
//! | `anthropic_xml` | `<function_calls>` | first `</parameter>` | `<invoke name="…">` |
//! | `minimax_m2` | `<minimax:tool_call>` | first `</parameter>` | `<invoke name=…>` (any quotes) |
//! | `qwen3_coder` | `<tool_call>`, `<function=` | first `</parameter>`, `<parameter=` or `</function>` | `<function=…>` |
//! | `glm45` | `<tool_call>` | first `</arg_value>` | text after `<tool_call>` up to `<` |
//! | `deepseek_dsml` | `<｜DSML｜function_calls>` | first `</｜DSML｜parameter>` | `<｜DSML｜invoke name="…">` |
//! | `step3` | `<｜tool_calls_begin｜>` | first `</steptml:parameter>` | `<steptml:invoke name="…">` |
//!
//! So `</invoke>`, `</tool_call>`, a section's closing tag or another parameter's opening tag
//! inside a value are value text, except in `qwen3_coder`: there, as in vLLM's and sglang's
//! readers of it, a value also ends where `<parameter=` or `</function>` begins, which then
//! opens the next parameter or closes the invoke. Models do leave out `</parameter>`, and
//! reading on to the next one would swallow the following parameters into this value. The
//! call gets an `unclosed_parameter` repair. A drifted closing tag (`</parameter` followed by
//! anything but `>`, through its `>` or to the end of its line: `</parameter1>`) closes the
//! value as `</parameter>` would. Either closes it only when blanks and a tag that may follow
//! a parameter (the next parameter, `</function>`, the section's end) come next; otherwise it
//! is value text (`</parameters>` ending an XML value, a second `</parameter>` after it).
//! Inside a section, a `</function>` ending a value that way is confirmed the same way: only
//! blanks and the section's end or another function after it close the invoke.
//! When the caller declared the tool with its parameter names ([`KnownTools`](crate::stream::KnownTools)), a
//! `<parameter=NAME>` with any other NAME is value text wherever it stands (vLLM's reading). `glm45` and `hermes` share
//! `<tool_call>` (as does `qwen3_coder`'s section); they are separate syntaxes, not enabled
//! together. In `step3` the text between `<｜tool_call_begin｜>` and `<steptml:invoke`
//! (`function<｜tool_sep｜>` and a copy of the name, or nothing) is skipped, as is a
//! `<｜tool_sep｜>` between two calls, and a missing `<｜tool_call_end｜>` is an issue of a kept call.
//!
//! `deepseek_dsml`'s template writes `\n\n` before `<｜DSML｜function_calls>`: those two
//! newlines, when they come right before it, open the call with it and are not content.
//!
//! A start marker followed by something else within the first tag (prose mentioning
//! `<function_calls>`, say, or JSON after `<tool_call>`) is text. Once a call's name is known, a
//! broken parameter makes that invoke an issue; reading resumes after the invoke's closing tag,
//! so the calls around it survive. Inside a section, a complete invoke followed by anything but
//! blanks, another invoke or the section's end is kept, with a `missing_end_marker` issue, and
//! what follows is text.

mod head;
mod parser;
#[cfg(test)]
mod tests;
mod value;

use super::super::{Opening, Syntax};
pub use head::Tok;
use parser::Parser;

/// The data that defines one tagged syntax.
// Each flag is a separate switch of a row in the `SYNTAXES` table, read by name there.
#[allow(clippy::struct_excessive_bools)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tagged {
    /// The syntax's name.
    pub name: &'static str,
    /// The section's opening and closing tags, if the syntax has a section.
    pub section: Option<(&'static str, &'static str)>,
    /// Whether an invoke's first literal also opens a call without a section.
    pub bare: bool,
    /// An invoke's opening: a literal, then tokens that give the name.
    pub invoke_open: &'static [Tok],
    /// An invoke's closing: a literal, then optional further tokens.
    pub invoke_close: &'static [Tok],
    /// A parameter's opening: a literal, then tokens that give the key.
    pub param_open: &'static [Tok],
    /// A parameter's closing tag; it starts with `<` and holds no other `<`.
    pub param_close: &'static str,
    /// Drop one leading and one trailing newline of each value.
    pub trim_newlines: bool,
    /// A value also ends, as if its closing tag had been there, where the next parameter's
    /// opening literal or the invoke's closing literal begins (a model left the closing tag
    /// out); the call gets an `unclosed_parameter` repair.
    pub open_values: bool,
    /// Blanks the model's chat template writes before the section's opening tag: when they
    /// are there, they belong to the call, not to the content before it.
    pub lead: &'static str,
    /// A separator token a model may write between two invokes of a section; skipped.
    pub between: &'static str,
    /// A second pair of section tags read like `section` (a later model version renamed
    /// them); the section closes with the tag paired with the one that opened it.
    pub alias: Option<(&'static str, &'static str)>,
    /// A value that is a whole JSON value other than a string (`42`, `true`, `null`,
    /// `[1, 2]`, `{"a": 1}`) is that value, when the call's tool is not one of the caller's
    /// (whose schemas type its values instead, in Python): `glm45`, whose template writes
    /// every value as text and whose reference readers (vLLM's, `SGLang`'s) decode them so.
    pub typed_values: bool,
}

use Tok::{Attrs, Lit, SkipTo, Text, Ws};

/// Every tagged syntax.
pub const SYNTAXES: &[Tagged] = &[
    Tagged {
        name: "anthropic_xml",
        section: Some(("<function_calls>", "</function_calls>")),
        bare: false,
        invoke_open: &[Lit("<invoke"), Attrs],
        invoke_close: &[Lit("</invoke>")],
        param_open: &[Lit("<parameter"), Attrs],
        param_close: "</parameter>",
        trim_newlines: false,
        open_values: false,
        lead: "",
        between: "",
        alias: None,
        typed_values: false,
    },
    Tagged {
        name: "minimax_m2",
        section: Some(("<minimax:tool_call>", "</minimax:tool_call>")),
        bare: false,
        invoke_open: &[Lit("<invoke"), Attrs],
        invoke_close: &[Lit("</invoke>")],
        param_open: &[Lit("<parameter"), Attrs],
        param_close: "</parameter>",
        trim_newlines: false,
        open_values: false,
        lead: "",
        between: "",
        alias: None,
        typed_values: false,
    },
    Tagged {
        name: "qwen3_coder",
        section: Some(("<tool_call>", "</tool_call>")),
        bare: true,
        invoke_open: &[Lit("<function="), Text(b'>'), Lit(">")],
        invoke_close: &[Lit("</function>")],
        param_open: &[Lit("<parameter="), Text(b'>'), Lit(">")],
        param_close: "</parameter>",
        trim_newlines: true,
        open_values: true,
        lead: "",
        between: "",
        alias: None,
        typed_values: false,
    },
    Tagged {
        name: "glm45",
        section: None,
        bare: true,
        invoke_open: &[Lit("<tool_call>"), Text(b'<')],
        invoke_close: &[Lit("</tool_call>")],
        param_open: &[
            Lit("<arg_key>"),
            Text(b'<'),
            Lit("</arg_key>"),
            Ws,
            Lit("<arg_value>"),
        ],
        param_close: "</arg_value>",
        trim_newlines: false,
        open_values: false,
        lead: "",
        between: "",
        alias: None,
        typed_values: true,
    },
    Tagged {
        name: "deepseek_dsml",
        section: Some(("<｜DSML｜function_calls>", "</｜DSML｜function_calls>")),
        bare: false,
        invoke_open: &[Lit("<｜DSML｜invoke"), Attrs],
        invoke_close: &[Lit("</｜DSML｜invoke>")],
        param_open: &[Lit("<｜DSML｜parameter"), Attrs],
        param_close: "</｜DSML｜parameter>",
        trim_newlines: false,
        open_values: false,
        lead: "\n\n",
        between: "",
        // DeepSeek V4 renamed the section: `<｜DSML｜tool_calls>`.
        alias: Some(("<｜DSML｜tool_calls>", "</｜DSML｜tool_calls>")),
        typed_values: false,
    },
    Tagged {
        name: "step3",
        section: Some(("<｜tool_calls_begin｜>", "<｜tool_calls_end｜>")),
        bare: false,
        // The text between the call's token and the invoke tag (`function<｜tool_sep｜>` and a
        // copy of the name, which models also leave out) is ignored: the name is the invoke's
        // attribute.
        invoke_open: &[
            Lit("<｜tool_call_begin｜>"),
            SkipTo("<steptml:invoke"),
            Attrs,
        ],
        invoke_close: &[Lit("</steptml:invoke>"), Ws, Lit("<｜tool_call_end｜>")],
        param_open: &[Lit("<steptml:parameter"), Attrs],
        param_close: "</steptml:parameter>",
        trim_newlines: false,
        open_values: false,
        lead: "",
        between: "<｜tool_sep｜>",
        alias: None,
        typed_values: false,
    },
];

/// The family's syntax names.
#[must_use]
pub fn names() -> Vec<&'static str> {
    SYNTAXES.iter().map(|s| s.name).collect()
}

/// The syntax called `name`, if it is one of this family's.
#[must_use]
pub fn build(name: &str) -> Option<Syntax> {
    SYNTAXES.iter().find(|s| s.name == name).map(Tagged::syntax)
}

pub(super) fn first(toks: &[Tok]) -> &'static str {
    match toks.first() {
        Some(Tok::Lit(s)) => s,
        _ => "",
    }
}

pub(super) fn rest(toks: &'static [Tok]) -> &'static [Tok] {
    toks.get(1..).unwrap_or_default()
}

impl Tagged {
    /// This syntax, for an engine.
    #[must_use]
    pub fn syntax(&'static self) -> Syntax {
        // Each section opening (and its copy after the template's lead), with its closing tag.
        let mut markers = Vec::new();
        let mut ends = Vec::new();
        for (open, close) in self.section.into_iter().chain(self.alias) {
            markers.push((open.to_string(), false, false));
            ends.push(close);
            if !self.lead.is_empty() {
                markers.push((format!("{}{open}", self.lead), false, false));
                ends.push(close);
            }
        }
        let bare = self.bare.then_some(markers.len());
        if self.bare {
            markers.push((first(self.invoke_open).to_string(), false, false));
        }
        let main_end = self.section.map_or("", |s| s.1);
        Syntax {
            name: self.name,
            markers,
            make: Box::new(move |Opening { marker, known, .. }| {
                let section = self.section.is_some() && Some(marker) != bare;
                let end = ends.get(marker).copied().unwrap_or(main_end);
                Box::new(Parser::new(self, section, end, known))
            }),
        }
    }
}
