//! `NativePattern`: the core's linear-time `regex` patterns, with code-point offsets.

use pyo3::prelude::*;
use toolsift_core::offsets::CharIndex;
use toolsift_core::pattern::Pattern;

use crate::map_error;

/// Group spans of one match, in code points; `None` for a group that did not take part.
type GroupSpans = Vec<Option<(usize, usize)>>;

/// A compiled skill pattern.
#[pyclass(frozen, module = "toolsift._native")]
pub struct NativePattern {
    inner: Pattern,
}

#[pymethods]
impl NativePattern {
    #[new]
    fn new(py: Python<'_>, source: &str) -> PyResult<Self> {
        Pattern::new(source)
            .map(|inner| Self { inner })
            .map_err(|e| map_error(py, "PatternError", &e, source))
    }

    /// Capture group names, group 0 first (`None` for unnamed groups).
    fn group_names(&self) -> Vec<Option<String>> {
        self.inner
            .group_names()
            .into_iter()
            .map(|n| n.map(str::to_owned))
            .collect()
    }

    /// Every match (at most `max_matches`) as the spans of its groups, group 0 first.
    #[pyo3(signature = (text, max_matches))]
    fn find_all(&self, py: Python<'_>, text: &str, max_matches: usize) -> Vec<GroupSpans> {
        let found = py.detach(|| self.inner.find_all(text, max_matches));
        let mut ix = CharIndex::new(text);
        found
            .into_iter()
            .map(|m| {
                // Matches come in ascending order but a match's group offsets do not, and the
                // index is cheapest queried in ascending order: convert them sorted.
                let mut offsets: Vec<usize> = m
                    .groups
                    .iter()
                    .flatten()
                    .flat_map(|&(s, e)| [s, e])
                    .collect();
                offsets.sort_unstable();
                offsets.dedup();
                let chars: Vec<usize> = offsets.iter().map(|&b| ix.char_offset(b)).collect();
                let at = |b: usize| chars[offsets.partition_point(|&o| o < b)];
                m.groups
                    .iter()
                    .map(|g| g.map(|(s, e)| (at(s), at(e))))
                    .collect()
            })
            .collect()
    }
}
