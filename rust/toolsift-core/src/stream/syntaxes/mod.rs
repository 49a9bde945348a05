//! The syntaxes the engine runs, one module each, and the table of them by name.

pub mod json_block;

use super::Syntax;

/// Names of every syntax the engine runs, sorted.
#[must_use]
pub fn names() -> Vec<&'static str> {
    let mut all: Vec<&'static str> = json_block::BLOCKS.iter().map(|b| b.name).collect();
    all.sort_unstable();
    all
}

/// The syntax called `name`, ready for an engine.
#[must_use]
pub fn by_name(name: &str) -> Option<Syntax> {
    json_block::BLOCKS
        .iter()
        .find(|b| b.name == name)
        .map(json_block::JsonBlock::syntax)
}
