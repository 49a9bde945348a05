//! Calls and issues of a batch as Arrow column buffers (offsets and values in native byte
//! order), so `toolsift.arrow` builds its tables with `pyarrow.Array.from_buffers` and no
//! Python object per row.

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use toolsift_core::stream::oneshot::Lean;

/// A `large_string` column: values back to back, and `i64` offsets starting at 0.
struct StrCol {
    data: Vec<u8>,
    offsets: Vec<i64>,
}

impl Default for StrCol {
    fn default() -> Self {
        Self {
            data: Vec::new(),
            offsets: vec![0],
        }
    }
}

impl StrCol {
    fn push(&mut self, s: &str) {
        self.data.extend_from_slice(s.as_bytes());
        self.offsets.push(as_i64(self.data.len()));
    }
}

fn int_bytes(values: &[i64]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_ne_bytes()).collect()
}

fn as_i64(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// Calls and issues of every row, column by column.
#[derive(Default)]
pub struct Findings {
    call_row: Vec<i64>,
    call_id: StrCol,
    call_syntax: StrCol,
    name: StrCol,
    arguments: StrCol,
    call_start: Vec<i64>,
    call_end: Vec<i64>,
    raw: StrCol,
    /// `large_list<large_string>`: per call, an offset into `repair_kinds`.
    repair_offsets: Vec<i64>,
    repair_kinds: StrCol,
    issue_row: Vec<i64>,
    issue_syntax: StrCol,
    kind: StrCol,
    message: StrCol,
    issue_start: Vec<i64>,
    issue_end: Vec<i64>,
}

impl Findings {
    /// Gathers the results of rows `0..`, in order.
    pub fn collect(results: Vec<Lean>) -> Self {
        let mut f = Self {
            repair_offsets: vec![0],
            ..Self::default()
        };
        for (row, one) in results.into_iter().enumerate() {
            let row = as_i64(row);
            for end in one.ends {
                if let Some(call) = end.call {
                    f.call_row.push(row);
                    f.call_id.push(&end.id);
                    f.call_syntax.push(end.syntax);
                    f.name.push(&call.name);
                    f.arguments.push(&call.arguments_json());
                    f.call_start.push(as_i64(call.start));
                    f.call_end.push(as_i64(call.end));
                    f.raw.push(&call.raw);
                    for kind in &call.repairs {
                        f.repair_kinds.push(kind);
                    }
                    f.repair_offsets
                        .push(as_i64(f.repair_kinds.offsets.len() - 1));
                }
                if let Some(issue) = end.issue {
                    f.issue_row.push(row);
                    f.issue_syntax.push(end.syntax);
                    f.kind.push(issue.kind);
                    f.message.push(&issue.message);
                    f.issue_start.push(as_i64(issue.start));
                    f.issue_end.push(as_i64(issue.end));
                }
            }
        }
        f
    }

    /// `{"calls": {...}, "issues": {...}}`: an int column is `bytes`; a string column is
    /// `(offsets, data)`; the `repairs` list column is `(list offsets, offsets, data)`.
    pub fn into_py_dict(self, py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
        let b = |v: &[u8]| PyBytes::new(py, v);
        let ints = |v: &[i64]| PyBytes::new(py, &int_bytes(v));
        let strs = |c: &StrCol| (ints(&c.offsets), b(&c.data));
        let calls = PyDict::new(py);
        calls.set_item("row", ints(&self.call_row))?;
        calls.set_item("call_id", strs(&self.call_id))?;
        calls.set_item("syntax", strs(&self.call_syntax))?;
        calls.set_item("name", strs(&self.name))?;
        calls.set_item("arguments", strs(&self.arguments))?;
        calls.set_item("span_start", ints(&self.call_start))?;
        calls.set_item("span_end", ints(&self.call_end))?;
        calls.set_item("raw", strs(&self.raw))?;
        let kinds = strs(&self.repair_kinds);
        calls.set_item("repairs", (ints(&self.repair_offsets), kinds.0, kinds.1))?;
        let issues = PyDict::new(py);
        issues.set_item("row", ints(&self.issue_row))?;
        issues.set_item("syntax", strs(&self.issue_syntax))?;
        issues.set_item("kind", strs(&self.kind))?;
        issues.set_item("message", strs(&self.message))?;
        issues.set_item("span_start", ints(&self.issue_start))?;
        issues.set_item("span_end", ints(&self.issue_end))?;
        let out = PyDict::new(py);
        out.set_item("calls", calls)?;
        out.set_item("issues", issues)?;
        Ok(out)
    }
}
