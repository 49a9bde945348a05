//! Finding the start markers of every enabled syntax in streamed text.
//!
//! Text is emitted as soon as it cannot be the start of a marker; only a tail that is a
//! proper prefix of some marker is held back until more text arrives. Candidate positions are
//! found with `memchr` over the markers' distinct first bytes (two searches over a growing
//! window for four to six of them, a byte table beyond), so prose is skipped at memchr speed.

/// One start marker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Marker {
    /// The marker's text.
    pub text: String,
    /// Matches only at the start of the stream or right after a newline.
    pub line_start: bool,
    /// ASCII letters match in either case.
    pub ignore_case: bool,
    /// Which syntax (index into the engine's table) the marker opens.
    pub syntax: usize,
}

/// What a search found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Found {
    /// Marker `marker` starts at `at`.
    Marker {
        /// Byte offset in the searched text.
        at: usize,
        /// Index into the set's markers.
        marker: usize,
    },
    /// The text from `at` to its end may be the start of a marker: hold it back.
    Partial {
        /// Byte offset in the searched text.
        at: usize,
    },
    /// No marker starts in the text.
    Nothing,
}

/// A set of start markers; see the module docs.
#[derive(Debug, Clone)]
pub struct MarkerSet {
    markers: Vec<Marker>,
    first: [bool; 256],
    /// Up to six distinct first bytes, searched with memchr; `None` means use the table.
    needles: Option<Vec<u8>>,
}

impl MarkerSet {
    /// A set of markers (empty markers are ignored).
    #[must_use]
    pub fn new(markers: Vec<Marker>) -> Self {
        let markers: Vec<Marker> = markers.into_iter().filter(|m| !m.text.is_empty()).collect();
        let mut first = [false; 256];
        for m in &markers {
            let b = m.text.as_bytes()[0];
            first[usize::from(b)] = true;
            if m.ignore_case {
                first[usize::from(b.to_ascii_lowercase())] = true;
                first[usize::from(b.to_ascii_uppercase())] = true;
            }
        }
        let distinct: Vec<u8> = (0..=255u8).filter(|&b| first[usize::from(b)]).collect();
        let needles = (distinct.len() <= 6).then_some(distinct);
        Self {
            markers,
            first,
            needles,
        }
    }

    /// The markers, in the order given.
    #[must_use]
    pub fn markers(&self) -> &[Marker] {
        &self.markers
    }

    fn next_candidate(&self, hay: &[u8], from: usize, limit: usize) -> Option<usize> {
        let rest = hay.get(from..limit)?;
        let k = match self.needles.as_deref() {
            Some([]) => None,
            Some([a]) => memchr::memchr(*a, rest),
            Some([a, b]) => memchr::memchr2(*a, *b, rest),
            Some([a, b, c]) => memchr::memchr3(*a, *b, *c, rest),
            Some([a, b, c, more @ ..]) => {
                // Both searches run over a window that doubles until one of them hits, so a
                // call costs about the distance to its hit: the three-byte search run to its
                // own first hit alone read to the end of the text for every hit of the other
                // when the three bytes never came (a quadratic walk over `{…} {…} …`).
                let other = |window: &[u8]| match *more {
                    [one] => memchr::memchr(one, window),
                    [one, two] => memchr::memchr2(one, two, window),
                    [one, two, three, ..] => memchr::memchr3(one, two, three, window),
                    [] => None,
                };
                let (mut start, mut width) = (0, 64);
                loop {
                    let end = (start + width).min(rest.len());
                    let window = &rest[start..end];
                    let found = match memchr::memchr3(*a, *b, *c, window) {
                        Some(k) => Some(other(&window[..k]).unwrap_or(k)),
                        None => other(window),
                    };
                    if let Some(k) = found {
                        break Some(start + k);
                    }
                    if end == rest.len() {
                        break None;
                    }
                    start = end;
                    width *= 2;
                }
            }
            _ => rest.iter().position(|&b| self.first[usize::from(b)]),
        };
        k.map(|k| from + k)
    }

    /// The first marker starting at or after `from` in `hay`. `before` is the byte just before
    /// `hay` (for line-start markers; `None` at the start of the stream). With `at_end`, the
    /// text is complete and nothing is held back.
    #[must_use]
    pub fn find(&self, hay: &[u8], from: usize, before: Option<u8>, at_end: bool) -> Found {
        self.find_within(hay, from, hay.len(), before, at_end)
    }

    /// Like [`Self::find`], for a marker that starts before `limit` (it may end past it):
    /// `Nothing` says only that none starts in `from..limit`.
    #[must_use]
    pub fn find_within(
        &self,
        hay: &[u8],
        from: usize,
        limit: usize,
        before: Option<u8>,
        at_end: bool,
    ) -> Found {
        let mut pos = from;
        while let Some(at) = self.next_candidate(hay, pos, limit) {
            let prev = if at == 0 {
                before
            } else {
                hay.get(at - 1).copied()
            };
            // The longest complete marker wins (`<|tool_call_begin|>` over a shorter marker it
            // starts with); while a longer one may still complete, the text is held back.
            let mut pending = 0;
            let mut best: Option<usize> = None;
            for (index, m) in self.markers.iter().enumerate() {
                if m.line_start && !matches!(prev, None | Some(b'\n')) {
                    continue;
                }
                let want = m.text.as_bytes();
                let have = &hay[at..];
                let n = want.len().min(have.len());
                let same = if m.ignore_case {
                    want[..n].eq_ignore_ascii_case(&have[..n])
                } else {
                    want[..n] == have[..n]
                };
                if !same {
                    continue;
                }
                if n == want.len() {
                    let longer = best.is_none_or(|b| want.len() > self.markers[b].text.len());
                    if longer {
                        best = Some(index);
                    }
                } else {
                    pending = pending.max(want.len());
                }
            }
            // Held only while a marker longer than the best complete one may still follow.
            let need = best.map_or(0, |b| self.markers[b].text.len());
            if pending > need && !at_end {
                return Found::Partial { at };
            }
            if let Some(marker) = best {
                return Found::Marker { at, marker };
            }
            pos = at + 1;
        }
        Found::Nothing
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(texts: &[(&str, bool)]) -> MarkerSet {
        MarkerSet::new(
            texts
                .iter()
                .enumerate()
                .map(|(i, (t, line_start))| Marker {
                    text: (*t).to_string(),
                    line_start: *line_start,
                    ignore_case: false,
                    syntax: i,
                })
                .collect(),
        )
    }

    #[test]
    fn finds_holds_and_skips() {
        let s = set(&[("<tool_call>", false), ("[TOOL_CALLS]", false)]);
        assert_eq!(
            s.find(b"hi <tool_call>{", 0, None, false),
            Found::Marker { at: 3, marker: 0 }
        );
        assert_eq!(
            s.find(b"hi <tool_", 0, None, false),
            Found::Partial { at: 3 }
        );
        assert_eq!(s.find(b"hi <tool_", 0, None, true), Found::Nothing);
        assert_eq!(
            s.find(b"a < b [x] <tool", 0, None, false),
            Found::Partial { at: 10 }
        );
        assert_eq!(s.find(b"a < b [x]", 0, None, false), Found::Nothing);
        // A window: only markers starting before its limit are looked for; one that starts
        // inside it may end past it.
        let hay = b"ab <tool_call>{";
        assert_eq!(s.find_within(hay, 0, 3, None, false), Found::Nothing);
        assert_eq!(
            s.find_within(hay, 0, 4, None, false),
            s.find(hay, 0, None, false)
        );
    }

    #[test]
    fn longest_marker_wins_and_is_waited_for() {
        let s = set(&[("<tool_call", false), ("<tool_call>", false)]);
        assert_eq!(
            s.find(b"x <tool_call>", 0, None, false),
            Found::Marker { at: 2, marker: 1 }
        );
        // The shorter marker is complete, the longer may still be: hold.
        assert_eq!(
            s.find(b"x <tool_call", 0, None, false),
            Found::Partial { at: 2 }
        );
        assert_eq!(
            s.find(b"x <tool_call", 0, None, true),
            Found::Marker { at: 2, marker: 0 }
        );
        assert_eq!(
            s.find(b"x <tool_call!", 0, None, false),
            Found::Marker { at: 2, marker: 0 }
        );
    }

    #[test]
    fn line_start_markers() {
        let s = set(&[("^^^", true)]);
        assert_eq!(
            s.find(b"^^^x", 0, None, false),
            Found::Marker { at: 0, marker: 0 }
        );
        assert_eq!(s.find(b"^^^x", 0, Some(b'a'), false), Found::Nothing);
        assert_eq!(
            s.find(b"a ^^^\n^^^", 0, None, false),
            Found::Marker { at: 6, marker: 0 }
        );
        assert_eq!(s.find(b"\n^^", 0, None, false), Found::Partial { at: 1 });
    }

    #[test]
    fn case_insensitive_and_many_first_bytes() {
        let mut markers: Vec<Marker> = ["<TOOL", "[A", "{", "^^^"]
            .iter()
            .enumerate()
            .map(|(i, t)| Marker {
                text: (*t).to_string(),
                line_start: false,
                ignore_case: true,
                syntax: i,
            })
            .collect();
        markers.push(Marker {
            text: String::new(),
            line_start: false,
            ignore_case: false,
            syntax: 9,
        });
        let s = MarkerSet::new(markers);
        assert_eq!(s.markers().len(), 4);
        assert_eq!(
            s.find(b"xx <tool", 0, None, false),
            Found::Marker { at: 3, marker: 0 }
        );
        assert_eq!(
            s.find(b"xx [a", 0, None, false),
            Found::Marker { at: 3, marker: 1 }
        );
    }

    proptest::proptest! {
        /// With one to eight distinct first bytes (one, two or three searches, or the table),
        /// the next candidate is the first byte of the window that starts a marker.
        #[test]
        fn the_next_candidate_is_the_first_marker_byte(
            firsts in proptest::sample::subsequence(b"{[<T`^x".to_vec(), 1..=7),
            hay in proptest::collection::vec(proptest::sample::select(b"{[<T`^xab \n".to_vec()), 0..80),
            from in 0usize..90,
            cut in 0usize..90,
        ) {
            let s = MarkerSet::new(
                firsts
                    .iter()
                    .enumerate()
                    .map(|(i, &b)| Marker {
                        text: char::from(b).to_string(),
                        line_start: false,
                        ignore_case: false,
                        syntax: i,
                    })
                    .collect(),
            );
            let limit = cut.min(hay.len());
            let naive = (from..limit).find(|&k| firsts.contains(&hay[k]));
            proptest::prop_assert_eq!(s.next_candidate(&hay, from, limit), naive);
        }
    }
}
