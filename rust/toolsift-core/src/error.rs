//! The one error type of the core: what went wrong and the byte offset where it did.

use std::fmt;

/// What went wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ErrorKind {
    /// Brackets nested deeper than the configured limit.
    DepthLimitExceeded {
        /// The limit in force.
        limit: usize,
    },
    /// The input holds no JSON value that repair could recover.
    NoJsonValue,
    /// Repair could not continue; the text says why.
    Unrepairable(&'static str),
    /// An input is larger than a configured limit.
    TooLarge {
        /// The limit in force, in bytes.
        limit: usize,
    },
    /// A pattern the `regex` crate refused (bad syntax, or compiled size over the limit).
    InvalidPattern(String),
}

/// An error with the byte offset (into the whole input, across chunks) where it was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// What went wrong.
    pub kind: ErrorKind,
    /// Byte offset into the input.
    pub offset: usize,
}

impl Error {
    /// Builds an error; kept out of line because errors are off the hot path.
    #[cold]
    #[must_use]
    pub fn new(kind: ErrorKind, offset: usize) -> Self {
        Self { kind, offset }
    }

    /// A short machine-readable name for the kind (`depth_limit_exceeded`, …).
    #[must_use]
    pub fn kind_name(&self) -> &'static str {
        match self.kind {
            ErrorKind::DepthLimitExceeded { .. } => "depth_limit_exceeded",
            ErrorKind::NoJsonValue => "no_json_value",
            ErrorKind::Unrepairable(_) => "unrepairable",
            ErrorKind::TooLarge { .. } => "too_large",
            ErrorKind::InvalidPattern(_) => "invalid_pattern",
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ErrorKind::DepthLimitExceeded { limit } => {
                write!(f, "nesting deeper than {limit} levels")?;
            }
            ErrorKind::NoJsonValue => f.write_str("no JSON value found")?,
            ErrorKind::Unrepairable(why) => f.write_str(why)?,
            ErrorKind::TooLarge { limit } => write!(f, "input larger than {limit} bytes")?,
            ErrorKind::InvalidPattern(why) => write!(f, "invalid pattern: {why}")?,
        }
        write!(f, " at byte {}", self.offset)
    }
}

impl std::error::Error for Error {}
