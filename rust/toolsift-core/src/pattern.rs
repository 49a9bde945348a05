//! Linear-time pattern matching for skill-declared syntaxes.
//!
//! Patterns come from skill descriptors, that is from users, and run on model output, so
//! neither side can be trusted to be benign. The `regex` crate compiles to finite automata
//! with no backtracking: one search costs `O(m * n)` (`m` the compiled size, `n` the text), so
//! a pattern like `(a+)+$` cannot stall the parser the way it stalls a backtracking engine.
//! Iterating matches reruns the search after each one, so the number of matches is capped
//! (`max_matches`) to keep a whole scan within `O(max_matches * m * n)`.
//!
//! ```
//! use toolsift_core::pattern::Pattern;
//! let p = Pattern::new(r"CALL (\w+)\((.*?)\)").unwrap();
//! let found = p.find_all("a CALL f(x) b CALL g()", 10);
//! assert_eq!(found.len(), 2);
//! assert_eq!(found[0].groups[1], Some((7, 8)));
//! ```

use regex::{Regex, RegexBuilder};

use crate::error::{Error, ErrorKind};

/// The largest compiled program a pattern may have, in bytes (the `regex` default is 10 MiB;
/// a tool-call pattern needs far less, and a smaller bound keeps compile time small too).
pub const SIZE_LIMIT: usize = 1 << 20;

/// A compiled pattern.
#[derive(Debug, Clone)]
pub struct Pattern {
    re: Regex,
}

/// One match: byte ranges of the whole match (`groups[0]`) and of every capture group, `None`
/// for a group that did not take part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PatternMatch {
    /// `(start, end)` byte offsets per group, group 0 being the whole match.
    pub groups: Vec<Option<(usize, usize)>>,
}

impl Pattern {
    /// Compiles `source` (the `regex` crate's syntax: no look-around, no backreferences).
    pub fn new(source: &str) -> Result<Self, Error> {
        RegexBuilder::new(source)
            .size_limit(SIZE_LIMIT)
            .build()
            .map(|re| Self { re })
            .map_err(|e| Error::new(ErrorKind::InvalidPattern(e.to_string()), 0))
    }

    /// The names of the capture groups, group 0 first (`None` for unnamed groups).
    pub fn group_names(&self) -> Vec<Option<&str>> {
        self.re.capture_names().collect()
    }

    /// Every non-overlapping match of the pattern in `text`, at most `max_matches` of them.
    pub fn find_all(&self, text: &str, max_matches: usize) -> Vec<PatternMatch> {
        self.re
            .captures_iter(text)
            .take(max_matches)
            .map(|caps| PatternMatch {
                groups: caps
                    .iter()
                    .map(|g| g.map(|m| (m.start(), m.end())))
                    .collect(),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::Pattern;

    #[test]
    fn bad_pattern_is_an_error_not_a_panic() {
        let err = Pattern::new("(a").unwrap_err();
        assert_eq!(err.kind_name(), "invalid_pattern");
        assert!(err.to_string().contains("unclosed group"), "{err}");
        assert!(Pattern::new(r"(?=a)").is_err(), "look-around is refused");
        assert!(
            Pattern::new(r"(a)\1").is_err(),
            "backreferences are refused"
        );
    }

    #[test]
    fn oversized_pattern_is_refused() {
        assert!(Pattern::new(r"\w{1000}{1000}").is_err());
    }

    #[test]
    fn catastrophic_pattern_finishes() {
        let p = Pattern::new("(a+)+$").unwrap();
        let text = format!("{}!", "a".repeat(50_000));
        // A backtracking engine would not return here in the age of the universe.
        assert!(p.find_all(&text, 1000).is_empty());
    }

    #[test]
    fn groups_that_do_not_take_part_are_none() {
        let p = Pattern::new(r"(?<name>\w+)(?:=(\d+))?").unwrap();
        assert_eq!(p.group_names(), vec![None, Some("name"), None]);
        let found = p.find_all("ab cd=1", 10);
        assert_eq!(found[0].groups, vec![Some((0, 2)), Some((0, 2)), None]);
        assert_eq!(found[1].groups[2], Some((6, 7)));
    }

    #[test]
    fn match_count_is_capped() {
        let p = Pattern::new("a").unwrap();
        assert_eq!(p.find_all(&"a".repeat(100), 7).len(), 7);
    }
}
