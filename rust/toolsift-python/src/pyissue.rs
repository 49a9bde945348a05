//! `toolsift.model.ParseIssue` objects made here for the one-shot and batch paths, where one
//! response can hold millions of issues (a marker repeated with nothing after it).
//!
//! `ParseIssue` stays the public frozen slotted dataclass; an instance is made as its
//! generated `__init__` makes it (`object.__new__`, then each slot set past the frozen
//! `__setattr__`), but through the slots' own descriptors called from here: the `__init__`
//! path cost ~4,000 instructions per issue (a Python frame and four `object.__setattr__`
//! lookups), and building an `(kind, message, start, end)` tuple first for Python to unpack
//! added a container for the cycle collector to walk.

use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::gcpause::untracked_span;

/// Makes `ParseIssue` objects; looked up once per parse or batch, when its first issue comes.
pub(crate) struct IssueMaker {
    class: Py<PyAny>,
    new: Py<PyAny>,
    /// The bound `__set__` of the `syntax`, `span`, `kind` and `message` slots.
    set: [Py<PyAny>; 4],
}

impl IssueMaker {
    pub(crate) fn new(py: Python<'_>) -> PyResult<Self> {
        let class = py.import("toolsift.model")?.getattr("ParseIssue")?;
        let slot = |name: &str| -> PyResult<Py<PyAny>> {
            Ok(class.getattr(name)?.getattr("__set__")?.unbind())
        };
        let set = [
            slot("syntax")?,
            slot("span")?,
            slot("kind")?,
            slot("message")?,
        ];
        let new = py
            .import("builtins")?
            .getattr("object")?
            .getattr("__new__")?;
        Ok(Self {
            class: class.unbind(),
            new: new.unbind(),
            set,
        })
    }

    /// `ParseIssue(syntax, (start, end), kind, message)`.
    pub(crate) fn make<'py>(
        &self,
        py: Python<'py>,
        syntax: &Bound<'py, PyString>,
        kind: &Bound<'py, PyString>,
        message: &Bound<'py, PyString>,
        span: (usize, usize),
    ) -> PyResult<Bound<'py, PyAny>> {
        let issue = self.new.bind(py).call1((self.class.bind(py),))?;
        let [set_syntax, set_span, set_kind, set_message] = &self.set;
        set_syntax.bind(py).call1((&issue, syntax))?;
        set_span
            .bind(py)
            .call1((&issue, untracked_span(py, span.0, span.1)?))?;
        set_kind.bind(py).call1((&issue, kind))?;
        set_message.bind(py).call1((&issue, message))?;
        Ok(issue)
    }
}
