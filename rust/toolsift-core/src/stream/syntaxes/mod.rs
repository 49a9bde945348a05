//! The syntaxes the engine runs, one module per syntax family, and the table of them by name.
//!
//! Each family module exposes `NAMES` (its syntax names) and `build(name)`; adding a family is
//! one line in [`FAMILIES`].

pub mod bare_json;
pub mod json_block;
pub mod json_shape;
pub mod json_tokenizer;
pub mod py_literal;
pub mod pythonic;

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
        names: bare_json::names,
        build: bare_json::build,
    },
    Family {
        names: pythonic::names,
        build: pythonic::build,
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
