//! toolsift-core: the pure-Rust heart of toolsift.
//!
//! It finds JSON inside LLM output in one linear pass, repairs malformed JSON into valid JSON
//! with a report of every change, and locates tool-call candidates. It has no Python
//! dependency; the `toolsift-python` crate wraps it for the `toolsift` package.
//!
//! ```
//! use toolsift_core::scanner::{scan_json_spans, ScanOptions};
//! let text = br#"Sure: {"name": "f", "args": {"q": "}"}} done"#;
//! let scan = scan_json_spans(text, &ScanOptions::default()).unwrap();
//! let outer = scan.spans.iter().find(|s| s.depth == 0).unwrap();
//! assert_eq!(&text[outer.start..outer.end], br#"{"name": "f", "args": {"q": "}"}}"#);
//! ```

// The workspace denies unsafe code; the core forbids it outright (only the Python glue may
// allow it, for one audited call into the collector: `gcpause::untracked_span`).
#![forbid(unsafe_code)]

pub mod error;
pub mod offsets;
pub mod pattern;
pub mod repair;
pub mod scanner;
pub mod stream;
pub mod strict_json;

pub use error::{Error, ErrorKind};
