//! `NativeArgsPreview`: decoded string-argument deltas of provider-native arguments fragments.

use pyo3::prelude::*;
use toolsift_core::stream::args_preview::ArgsPreview;

/// Previews one streamed arguments object (see `toolsift.strategies.api_stream`).
#[pyclass(module = "toolsift._native")]
pub struct NativeArgsPreview {
    inner: ArgsPreview,
}

#[pymethods]
impl NativeArgsPreview {
    #[new]
    fn new() -> Self {
        Self {
            inner: ArgsPreview::new(),
        }
    }

    /// `(key, decoded text)` for each string member the fragment advanced.
    fn feed(&mut self, fragment: &str) -> Vec<(String, String)> {
        self.inner.feed(fragment)
    }
}
