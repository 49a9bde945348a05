//! The tool names the caller declared (`tools=`), as the engine's parsers see them.
//!
//! Most syntaxes never look: a call is a call whatever its name, and checking names against
//! the tools is Python's job after the parse (`unknown_tools`). The bare-JSON syntaxes do,
//! because they have no marker: `{"name": "Ann"}` in prose is text, but `{"name": "f"}` where
//! `f` is a declared tool is a call with no arguments (SYNTAXES.md, `json_gemini`). With each
//! tool's parameter names, `qwen3_coder` tells a `<parameter=NAME>` the model wrote inside a
//! value (a file that shows the syntax) from the next parameter: only a declared name opens one.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// Tool names, each with its declared parameter names when its schema lists them; cheap to
/// clone (every parser an engine makes holds one).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KnownTools(Option<Arc<HashMap<String, Option<HashSet<String>>>>>);

impl KnownTools {
    /// The set of `names` (empty when there are none), parameters not declared.
    #[must_use]
    pub fn new<I: IntoIterator<Item = S>, S: Into<String>>(names: I) -> Self {
        Self::with_parameters(names.into_iter().map(|n| (n, None::<Vec<String>>)))
    }

    /// Tools with their parameter names (`None`: not declared, any name may be one).
    #[must_use]
    pub fn with_parameters<I, S, P>(tools: I) -> Self
    where
        I: IntoIterator<Item = (S, Option<P>)>,
        S: Into<String>,
        P: IntoIterator<Item = String>,
    {
        let map: HashMap<String, Option<HashSet<String>>> = tools
            .into_iter()
            .map(|(n, p)| (n.into(), p.map(|p| p.into_iter().collect())))
            .collect();
        Self((!map.is_empty()).then(|| Arc::new(map)))
    }

    /// Whether `name` is one of the tools (exactly, case included).
    #[must_use]
    pub fn contains(&self, name: &str) -> bool {
        self.0.as_ref().is_some_and(|map| map.contains_key(name))
    }

    /// Whether tool `name` is declared with its parameter names.
    #[must_use]
    pub fn declares_parameters(&self, name: &str) -> bool {
        self.0
            .as_ref()
            .is_some_and(|map| matches!(map.get(name), Some(Some(_))))
    }

    /// Whether `key` may be a parameter of tool `name`: always, unless the tool is declared
    /// with its parameter names and `key` is not one of them.
    #[must_use]
    pub fn allows_parameter(&self, name: &str, key: &str) -> bool {
        match self.0.as_ref().and_then(|map| map.get(name)) {
            Some(Some(keys)) => keys.contains(key),
            _ => true,
        }
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
    fn declared_parameters_only_where_listed() {
        let known = KnownTools::with_parameters([
            (
                "write_file",
                Some(vec!["path".to_string(), "content".to_string()]),
            ),
            ("free", None),
        ]);
        assert!(known.allows_parameter("write_file", "path"));
        assert!(!known.allows_parameter("write_file", "new_string"));
        assert!(known.allows_parameter("free", "anything"));
        assert!(known.allows_parameter("undeclared_tool", "anything"));
        assert!(known.declares_parameters("write_file"));
        assert!(!known.declares_parameters("free"));
        assert!(known.contains("free"));
    }

    #[test]
    fn no_names_is_empty() {
        let known = KnownTools::new(Vec::<String>::new());
        assert!(known.is_empty());
        assert!(!known.contains(""));
        assert_eq!(known, KnownTools::default());
    }
}
