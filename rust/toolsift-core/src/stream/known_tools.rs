//! The tool names the caller declared (`tools=`), as the engine's parsers see them.
//!
//! Most syntaxes never look: a call is a call whatever its name, and checking names against
//! the tools is Python's job after the parse (`unknown_tools`). The bare-JSON syntaxes do,
//! because they have no marker: `{"name": "Ann"}` in prose is text, but `{"name": "f"}` where
//! `f` is a declared tool is a call with no arguments (SYNTAXES.md, `json_gemini`).

use std::collections::HashSet;
use std::sync::Arc;

/// A set of tool names, cheap to clone (every parser an engine makes holds one).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KnownTools(Option<Arc<HashSet<String>>>);

impl KnownTools {
    /// The set of `names` (empty when there are none).
    #[must_use]
    pub fn new<I: IntoIterator<Item = S>, S: Into<String>>(names: I) -> Self {
        let set: HashSet<String> = names.into_iter().map(Into::into).collect();
        Self((!set.is_empty()).then(|| Arc::new(set)))
    }

    /// Whether `name` is one of the tools (exactly, case included).
    #[must_use]
    pub fn contains(&self, name: &str) -> bool {
        self.0.as_ref().is_some_and(|set| set.contains(name))
    }

    /// Whether no tool was declared.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::KnownTools;

    #[test]
    fn names_match_exactly() {
        let known = KnownTools::new(["get_weather", "math.factorial"]);
        assert!(known.contains("get_weather"));
        assert!(known.contains("math.factorial"));
        assert!(!known.contains("Get_Weather"));
        assert!(!known.contains("get_weather "));
        assert!(!known.is_empty());
    }

    #[test]
    fn no_names_is_empty() {
        let known = KnownTools::new(Vec::<String>::new());
        assert!(known.is_empty());
        assert!(!known.contains(""));
        assert_eq!(known, KnownTools::default());
    }
}
