//! `repair_json` throughput on LLM-style malformed JSON and on valid JSON.
//!
//! The documents come from a small deterministic generator below (tool arguments of about
//! 1 KB with unicode text, escaped quotes, numbers and literals; the malformed ones carry one
//! or two of the breakages the Python benchmark corpus uses). When `/tmp/malformed.json` or
//! `/tmp/valid.json` (a JSON array of documents, dumped from `benches/corpus.py`) exists, it is
//! benchmarked too.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::fmt::Write as _;
use std::hint::black_box;
use toolsift_core::repair::{repair_json, RepairOptions};

/// xorshift64*: deterministic and dependency-free.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    /// One of the `|`-separated `items`.
    fn pick(&mut self, items: &'static str) -> &'static str {
        let count = items.split('|').count();
        items.split('|').nth(self.below(count)).unwrap_or_default()
    }
}

// Vocabulary, `|`-separated.
const WORDS: &str = "the|report|quarterly|revenue|deploy|staging|cluster|latency|invoice|customer|\
    order|meeting|summary|release|migration|database|query|cache|timeout|retry|account|session|\
    region|export|weekly|status|pending|urgent|document|metric|alert|incident|rollout";
const UNICODE: &str =
    "café|Zürich|東京都渋谷区|São Paulo|Москва|서울 데이터|launch 🚀|→ next step|— em dash|مرحبا|€1.299,00";
const QUOTED: &str = "He said \"ship it\" before lunch|a \"quoted\" word and a backslash \\ here|\
    path C:\\Users\\ada\\report \"final\".docx";
const KEYS: &str =
    "id|name|query|body|subject|active|score|tags|owner|note|updated_at|location|items";
const COMMENTS: &str = "in UTC|default is 10|optional|TODO confirm with the user";
const PROSE: &str =
    "Sure, I can help with that.|Here's what I found after looking at the request.|\
    Let me know if anything needs to change.";

/// Breakages a document can carry, as bits of [`Style::breaks`].
const SINGLE_QUOTES: u8 = 1;
const TRAILING_COMMAS: u8 = 2;
const PYTHON_LITERALS: u8 = 4;
const UNQUOTED_KEYS: u8 = 8;
const LINE_COMMENTS: u8 = 16;
const RAW_NEWLINES: u8 = 32;

/// How a document is written.
#[derive(Clone, Copy, Default)]
struct Style {
    indent: Option<usize>,
    breaks: u8,
}

impl Style {
    fn has(self, breakage: u8) -> bool {
        self.breaks & breakage != 0
    }
}

enum Value {
    Str(String),
    Num(String),
    Lit(u8),
    List(Vec<Value>),
    Map(Vec<(&'static str, Value)>),
}

fn sentence(rng: &mut Rng, multiline: bool) -> String {
    let mut s = String::new();
    for i in 0..3 + rng.below(10) {
        if i > 0 {
            s.push(if multiline && rng.chance(10) {
                '\n'
            } else {
                ' '
            });
        }
        s.push_str(rng.pick(WORDS));
    }
    match rng.below(8) {
        0 | 1 => {
            s.push(' ');
            s.push_str(rng.pick(UNICODE));
        }
        2 => {
            s.push(' ');
            s.push_str(rng.pick(QUOTED));
        }
        _ => {}
    }
    s.push('.');
    s
}

fn scalar(rng: &mut Rng) -> Value {
    match rng.below(10) {
        0..=3 => {
            let multiline = rng.chance(20);
            Value::Str(sentence(rng, multiline))
        }
        4 => Value::Num(rng.below(100_000).to_string()),
        5 => Value::Num(format!("-{}.{}", rng.below(1000), rng.below(100))),
        6 | 7 => Value::Lit(rng.below(3) as u8),
        _ => Value::Str(rng.pick(UNICODE).to_owned()),
    }
}

fn record(rng: &mut Rng, depth: usize) -> Value {
    let mut members = Vec::new();
    for _ in 0..2 + rng.below(5) {
        let v = match rng.below(8) {
            0 if depth < 3 => record(rng, depth + 1),
            1 if depth < 3 => Value::List((0..rng.below(5)).map(|_| scalar(rng)).collect()),
            _ => scalar(rng),
        };
        members.push((rng.pick(KEYS), v));
    }
    Value::Map(members)
}

struct Writer<'a> {
    style: Style,
    rng: &'a mut Rng,
    out: String,
    /// Offsets just after a comma that follows a member (truncation points).
    cuts: Vec<usize>,
}

impl Writer<'_> {
    fn string(&mut self, s: &str) {
        let q = if self.style.has(SINGLE_QUOTES) && !s.contains('\'') {
            '\''
        } else {
            '"'
        };
        self.out.push(q);
        for ch in s.chars() {
            match ch {
                '\n' if self.style.has(RAW_NEWLINES) => self.out.push('\n'),
                '\n' => self.out.push_str("\\n"),
                '\\' => self.out.push_str("\\\\"),
                c if c == q => {
                    self.out.push('\\');
                    self.out.push(c);
                }
                c => self.out.push(c),
            }
        }
        self.out.push(q);
    }

    fn newline(&mut self, level: usize) {
        if let Some(n) = self.style.indent {
            self.out.push('\n');
            self.out.extend(std::iter::repeat_n(' ', n * level));
        }
    }

    fn value(&mut self, v: &Value, level: usize) {
        match v {
            Value::Str(s) => self.string(s),
            Value::Num(n) => self.out.push_str(n),
            Value::Lit(k) => {
                let words = if self.style.has(PYTHON_LITERALS) {
                    ["True", "False", "None"]
                } else {
                    ["true", "false", "null"]
                };
                self.out.push_str(words[usize::from(*k)]);
            }
            Value::List(items) => {
                let items: Vec<_> = items.iter().map(|v| (None, v)).collect();
                self.container('[', ']', &items, level);
            }
            Value::Map(members) => {
                let items: Vec<_> = members.iter().map(|(k, v)| (Some(*k), v)).collect();
                self.container('{', '}', &items, level);
            }
        }
    }

    fn container(
        &mut self,
        open: char,
        close: char,
        items: &[(Option<&str>, &Value)],
        level: usize,
    ) {
        self.out.push(open);
        if items.is_empty() {
            self.out.push(close);
            return;
        }
        let trailing = self.style.has(TRAILING_COMMAS) && (level == 0 || self.rng.chance(50));
        for (i, (key, v)) in items.iter().enumerate() {
            if self.style.indent.is_some() {
                self.newline(level + 1);
            } else if i > 0 {
                self.out.push(' ');
            }
            if let Some(k) = key {
                if self.style.has(UNQUOTED_KEYS) {
                    self.out.push_str(k);
                } else {
                    self.string(k);
                }
                self.out.push_str(": ");
            }
            self.value(v, level + 1);
            let last = i + 1 == items.len();
            if last && !trailing {
                continue;
            }
            self.out.push(',');
            if !last {
                self.cuts.push(self.out.len());
            }
            if self.style.has(LINE_COMMENTS) && self.rng.chance(25) {
                let _ = write!(self.out, "  // {}", self.rng.pick(COMMENTS));
            }
        }
        self.newline(level);
        self.out.push(close);
    }
}

/// A document of tool arguments, about `target` bytes: a few fields and a growing list.
fn document(rng: &mut Rng, target: usize, style: Style) -> (String, Vec<usize>) {
    let mut items = Vec::new();
    let mut members = vec![
        ("query", Value::Str(sentence(rng, false))),
        ("max_results", Value::Num(rng.below(50).to_string())),
        ("safe_search", Value::Lit(0)),
    ];
    let mut size = 80;
    while size < target {
        let r = record(rng, 1);
        size += 160;
        items.push(r);
    }
    members.push(("items", Value::List(items)));
    let mut w = Writer {
        style,
        rng,
        out: String::new(),
        cuts: Vec::new(),
    };
    w.value(&Value::Map(members), 0);
    (w.out, w.cuts)
}

fn generated(n: usize, malformed: bool) -> Vec<String> {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    (0..n)
        .map(|_| {
            let target = 300 + rng.below(1500);
            let mut style = Style {
                indent: [None, None, Some(2), Some(4)][rng.below(4)],
                ..Style::default()
            };
            let (mut truncated, mut fenced) = (false, false);
            if malformed {
                for _ in 0..=usize::from(rng.chance(40)) {
                    match rng.below(8) {
                        0 => style.breaks |= SINGLE_QUOTES,
                        1 => style.breaks |= TRAILING_COMMAS,
                        2 => style.breaks |= PYTHON_LITERALS,
                        3 => truncated = true,
                        4 => fenced = true,
                        5 => style.breaks |= UNQUOTED_KEYS,
                        6 => {
                            style.breaks |= LINE_COMMENTS;
                            style.indent = style.indent.or(Some(2));
                        }
                        _ => style.breaks |= RAW_NEWLINES,
                    }
                }
            }
            let (mut text, cuts) = document(&mut rng, target, style);
            if truncated && !cuts.is_empty() {
                // Cut right after a comma, in the second half when there is one there.
                let half = text.len() / 2;
                let late = cuts.iter().filter(|&&c| c >= half).count();
                let cut = if late > 0 {
                    cuts[cuts.len() - 1 - rng.below(late)]
                } else {
                    cuts[rng.below(cuts.len())]
                };
                text.truncate(cut);
            } else if fenced {
                text = format!(
                    "{}\n\n```json\n{text}\n```\n\n{}",
                    rng.pick(PROSE),
                    rng.pick(PROSE)
                );
            }
            text
        })
        .collect()
}

/// Documents from a JSON array of strings at `path`, if the file is there.
fn from_file(path: &str) -> Option<Vec<String>> {
    let text = std::fs::read_to_string(path).ok()?;
    serde_json::from_str(&text).ok()
}

fn bench(c: &mut Criterion) {
    let mut corpora = vec![
        ("generated_malformed", generated(1000, true)),
        ("generated_valid", generated(1000, false)),
    ];
    for (name, path) in [
        ("file_malformed", "/tmp/malformed.json"),
        ("file_valid", "/tmp/valid.json"),
    ] {
        if let Some(docs) = from_file(path) {
            corpora.push((name, docs));
        }
    }
    let options = RepairOptions::default();
    let mut group = c.benchmark_group("repair_json");
    for (name, docs) in &corpora {
        let bytes: usize = docs.iter().map(String::len).sum();
        group.throughput(Throughput::Bytes(bytes as u64));
        group.bench_with_input(BenchmarkId::from_parameter(name), docs, |b, docs| {
            b.iter(|| {
                docs.iter()
                    .map(|d| repair_json(black_box(d), &options).map_or(0, |r| r.text.len()))
                    .sum::<usize>()
            });
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
