//! The syntaxes the engine runs, one module per syntax family, and the table of them by name.
//!
//! Each family module exposes `NAMES` (its syntax names) and `build(name)`; adding a family is
//! one line in [`FAMILIES`].

pub mod auto;
#[cfg(test)]
mod auto_tests;
pub mod bare_json;
pub mod broken_skip;
pub mod caret;
pub mod code_assistant_xml;
pub mod harmony;
pub mod json_block;
#[cfg(test)]
mod json_block_tests;
pub mod json_list;
pub mod json_read;
pub mod json_shape;
pub mod json_tokenizer;
pub mod lex;
pub mod line_flush;
pub mod opener_run;
pub mod py_literal;
pub mod pythonic;
pub mod sentinel;
pub mod sniff;
pub mod tagged;
pub mod think;
pub mod token_calls;
#[cfg(test)]
pub(crate) mod token_tests;
pub mod tool_call_json;
pub mod xml_bits;
pub mod xml_tool;

use super::Syntax;

/// One module's syntaxes.
struct Family {
    names: fn() -> Vec<&'static str>,
    build: fn(&str) -> Option<Syntax>,
}

const FAMILIES: &[Family] = &[
    Family {
        names: json_block::names,
        build: json_block::build,
    },
    Family {
        names: caret::names,
        build: caret::build,
    },
    Family {
        names: sentinel::names,
        build: sentinel::build,
    },
    Family {
        names: tagged::names,
        build: tagged::build,
    },
    Family {
        names: code_assistant_xml::names,
        build: code_assistant_xml::build,
    },
    Family {
        names: xml_tool::names,
        build: xml_tool::build,
    },
    Family {
        names: harmony::names,
        build: harmony::build,
    },
    Family {
        names: json_list::names,
        build: json_list::build,
    },
    Family {
        names: token_calls::names,
        build: token_calls::build,
    },
    Family {
        names: bare_json::names,
        build: bare_json::build,
    },
    Family {
        names: pythonic::names,
        build: pythonic::build,
    },
    Family {
        names: tool_call_json::names,
        build: tool_call_json::build,
    },
    Family {
        names: think::names,
        build: think::build,
    },
];

/// Names of every syntax the engine runs, sorted.
#[must_use]
pub fn names() -> Vec<&'static str> {
    let mut all: Vec<&'static str> = FAMILIES.iter().flat_map(|f| (f.names)()).collect();
    all.sort_unstable();
    all
}

/// The syntax called `name`, ready for an engine.
#[must_use]
pub fn by_name(name: &str) -> Option<Syntax> {
    FAMILIES.iter().find_map(|f| (f.build)(name))
}

/// The syntaxes a name selects: one syntax, or the [`auto`] set for `"auto"`.
#[must_use]
pub fn resolve(name: &str) -> Option<Vec<Syntax>> {
    if name == auto::NAME {
        Some(auto::syntaxes())
    } else {
        by_name(name).map(|s| vec![s])
    }
}
