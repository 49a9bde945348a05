//! `toolsift.parse` itself: a builtin whose common call (a `str`, then the same syntax name and
//! options as the thread's previous call) goes straight to the parser that call was given,
//! and whose every other call goes to the Python implementation, `toolsift.parsing._parse`.
//!
//! Why a builtin: a reply of the `TOOL_CALL` benchmark parses in ~9 us, and the Python
//! function in front of the parser took ~0.37 us of it (a frame, the keyword dict, a
//! thread-local lookup, a dict comparison), for a call that only had to find the parser:
//! `parse("hello", "tool_call_json", marker=..., max_payload_chars=..., first_only=False)`
//! took 623 ns through it, the parser alone 253 ns. A `#[pyfunction]` with `**options` still
//! took 545 ns: `PyO3` builds the keyword dict and matches each keyword's name against the
//! parameters. So this is a raw `METH_FASTCALL | METH_KEYWORDS` function, which reads the
//! arguments where the caller left them and compares them with the previous call's one by
//! one; a call site passes the same keyword-name tuple and, for literals, the same value
//! objects every time, so the comparison is mostly pointer checks.
#![allow(unsafe_code)]

use std::cell::RefCell;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr;

use pyo3::exceptions::{PyRuntimeError, PyUnicodeEncodeError};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyString, PyTuple};

/// The thread's previous common call: the arguments after the text (positional ones, then
/// keyword values), the keyword names, and the parser it went to.
struct Last {
    args: Vec<Py<PyAny>>,
    positional: usize,
    kwnames: Option<Py<PyTuple>>,
    fast: Py<PyAny>,
    /// The call named no syntax (see [`Call::syntax_and_options`]).
    omitted: bool,
}

impl Last {
    fn clone_ref(&self, py: Python<'_>) -> Self {
        Self {
            args: self.args.iter().map(|a| a.clone_ref(py)).collect(),
            positional: self.positional,
            kwnames: self.kwnames.as_ref().map(|k| k.clone_ref(py)),
            fast: self.fast.clone_ref(py),
            omitted: self.omitted,
        }
    }
}

thread_local! {
    static LAST: RefCell<Option<Last>> = const { RefCell::new(None) };
}

/// `toolsift.parsing._parse` and `toolsift.parsing._fast_for`, looked up on first use (that
/// module imports this one).
fn python_side(py: Python<'_>) -> PyResult<&(Py<PyAny>, Py<PyAny>)> {
    static SIDE: PyOnceLock<(Py<PyAny>, Py<PyAny>)> = PyOnceLock::new();
    SIDE.get_or_try_init(py, || {
        let module = py.import("toolsift.parsing")?;
        Ok((
            module.getattr("_parse")?.unbind(),
            module.getattr("_fast_for")?.unbind(),
        ))
    })
}

/// One call's arguments as the caller left them.
struct Call<'a, 'py> {
    /// Positional arguments, then keyword values.
    args: &'a [Bound<'py, PyAny>],
    positional: usize,
    kwnames: Option<Bound<'py, PyTuple>>,
}

impl<'py> Call<'_, 'py> {
    /// Whether `last` was a call with the same arguments after the text, each compared
    /// with `same` (the keyword names too).
    #[inline]
    fn matches(
        &self,
        py: Python<'py>,
        last: &Last,
        mut same: impl FnMut(&Bound<'py, PyAny>, &Bound<'py, PyAny>) -> PyResult<bool>,
    ) -> PyResult<bool> {
        if last.positional != self.positional || last.args.len() + 1 != self.args.len() {
            return Ok(false);
        }
        match (&last.kwnames, &self.kwnames) {
            (None, None) => {}
            (Some(a), Some(b)) if same(a.bind(py).as_any(), b.as_any())? => {}
            _ => return Ok(false),
        }
        for (seen, given) in last.args.iter().zip(&self.args[1..]) {
            if !same(seen.bind(py), given)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The syntax name (positional or `syntax=`) and the other keywords as a dict, when the
    /// syntax is an exact `str` and nothing else is positional, with whether the syntax was
    /// omitted (none given, or `None`: then it is `tool_call_json` unless `TOOLSIFT_SYNTAX`
    /// chooses, as in `toolsift.parsing.checked_names`, and `None` is returned when it does).
    fn syntax_and_options(&self, py: Python<'py>) -> PyResult<Option<Choice<'py>>> {
        let options = PyDict::new(py);
        let mut syntax = (self.positional == 2).then(|| self.args[1].clone());
        if self.positional > 2 {
            return Ok(None);
        }
        if let Some(names) = &self.kwnames {
            for (name, value) in names.iter().zip(&self.args[self.positional..]) {
                if PyAnyMethods::eq(&name, "syntax")? {
                    syntax = Some(value.clone());
                } else {
                    options.set_item(name, value)?;
                }
            }
        }
        let (syntax, omitted) = match syntax {
            Some(s) if !s.is_none() => (s, false),
            _ if default_syntax() => (PyString::new(py, DEFAULT_SYNTAX).into_any(), true),
            _ => return Ok(None),
        };
        Ok(syntax
            .is_exact_instance_of::<PyString>()
            .then_some((syntax, options, omitted)))
    }
}

/// A call's syntax name, its options, and whether the name was omitted (see
/// [`Call::syntax_and_options`]).
type Choice<'py> = (Bound<'py, PyAny>, Bound<'py, PyDict>, bool);

/// The syntax of a call that names none, as `toolsift.parsing.checked_names` has it.
const DEFAULT_SYNTAX: &str = "tool_call_json";

/// Whether a call without a syntax reads [`DEFAULT_SYNTAX`]: `TOOLSIFT_SYNTAX` is unset or
/// blank, as `toolsift.parsing._override` checks. `os.environ` writes go to the process
/// environment read here; reading it took ~0.1 us, `os.environ.get` of an unset name ~0.7.
fn default_syntax() -> bool {
    std::env::var_os("TOOLSIFT_SYNTAX")
        .is_none_or(|v| v.to_str().is_some_and(|s| s.trim().is_empty()))
}

/// The parser of the thread's previous call when `call` has the same arguments after the
/// text; else the one `_fast_for` gives (kept as the new previous call), or `None` when the
/// Python implementation must answer.
fn fast_parser<'py>(py: Python<'py>, call: &Call<'_, 'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
    // The very objects of the previous call (a call site passes the same keyword-name tuple
    // and, for literals, the same values each time): no comparison runs Python code, so it
    // is made in place.
    let same = LAST.with(|last| {
        let last = last.try_borrow().ok()?;
        let l = last.as_ref()?;
        let identical = call.matches(py, l, |a, b| Ok(a.is(b))).ok()?;
        (identical && (!l.omitted || default_syntax())).then(|| l.fast.clone_ref(py))
    });
    if let Some(fast) = same {
        return Ok(Some(fast.into_bound(py)));
    }
    // Else compared by `==` (as the Python implementation compared its options dict), with
    // the borrow released: `==` may run Python code, which may parse.
    let previous = LAST.with(|last| last.try_borrow().ok()?.as_ref().map(|l| l.clone_ref(py)));
    if let Some(previous) = previous {
        let equal =
            |a: &Bound<'py, PyAny>, b: &Bound<'py, PyAny>| Ok(a.is(b) || PyAnyMethods::eq(a, b)?);
        // A call without a syntax reuses its parser only while `TOOLSIFT_SYNTAX` still
        // chooses nothing.
        if call.matches(py, &previous, equal)? && (!previous.omitted || default_syntax()) {
            return Ok(Some(previous.fast.into_bound(py)));
        }
    }
    let Some((syntax, options, omitted)) = call.syntax_and_options(py)? else {
        return Ok(None);
    };
    let fast = python_side(py)?.1.bind(py).call1((syntax, options))?;
    if fast.is_none() {
        return Ok(None);
    }
    let kept = Last {
        args: call.args[1..].iter().map(|a| a.clone().unbind()).collect(),
        positional: call.positional,
        kwnames: call.kwnames.as_ref().map(|k| k.clone().unbind()),
        fast: fast.clone().unbind(),
        omitted,
    };
    // Replaced with the borrow released too: dropping the old entry may run finalizers.
    let old = LAST.with(|last| last.try_borrow_mut().ok().map(|mut l| l.replace(kept)));
    drop(old);
    Ok(Some(fast))
}

/// The builtin's body: the fast path when it applies, else `_parse` with the same arguments.
///
/// # Safety
/// As [`parse_entry`]'s arguments.
unsafe fn parse_call<'py>(
    py: Python<'py>,
    args: *const *mut ffi::PyObject,
    positional: ffi::Py_ssize_t,
    kwnames: *mut ffi::PyObject,
) -> PyResult<Bound<'py, PyAny>> {
    let kwnames_tuple = (!kwnames.is_null())
        .then(|| Bound::from_borrowed_ptr(py, kwnames).cast_into_unchecked::<PyTuple>());
    let count = usize::try_from(positional).unwrap_or(0);
    let total = count + kwnames_tuple.as_ref().map_or(0, PyTupleMethods::len);
    let raw: &[*mut ffi::PyObject] = if total == 0 {
        &[]
    } else {
        std::slice::from_raw_parts(args, total)
    };
    let bound: Vec<Bound<'py, PyAny>> = raw
        .iter()
        .map(|&a| Bound::from_borrowed_ptr(py, a))
        .collect();
    if count >= 1 && bound[0].is_exact_instance_of::<PyString>() {
        let call = Call {
            args: &bound,
            positional: count,
            kwnames: kwnames_tuple,
        };
        if let Some(fast) = fast_parser(py, &call)? {
            match fast.call1((&bound[0],)) {
                // Lone surrogates: only the Python implementation reads them.
                Err(e) if e.is_instance_of::<PyUnicodeEncodeError>(py) => {}
                done => return done,
            }
        }
    }
    let implementation = python_side(py)?.0.bind(py);
    // `positional` is a plain count here (no `PY_VECTORCALL_ARGUMENTS_OFFSET`), as
    // `PyObject_Vectorcall` takes it.
    let nargsf = usize::try_from(positional).unwrap_or(0);
    Bound::from_owned_ptr_or_err(
        py,
        ffi::PyObject_Vectorcall(implementation.as_ptr(), args, nargsf, kwnames),
    )
}

/// The C function behind `toolsift.parse` (`METH_FASTCALL | METH_KEYWORDS`).
unsafe extern "C" fn parse_entry(
    _module: *mut ffi::PyObject,
    args: *const *mut ffi::PyObject,
    positional: ffi::Py_ssize_t,
    kwnames: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    // SAFETY: CPython calls this with the thread attached.
    let py = Python::assume_attached();
    // No panic may cross into C: one becomes a `RuntimeError`.
    let result = catch_unwind(AssertUnwindSafe(|| {
        parse_call(py, args, positional, kwnames)
    }));
    let result = result.unwrap_or_else(|_| Err(PyRuntimeError::new_err("toolsift.parse panicked")));
    match result {
        Ok(object) => object.into_ptr(),
        Err(error) => {
            error.restore(py);
            ptr::null_mut()
        }
    }
}

/// The docstring: the Python signature (`__text_signature__`), then the documentation of
/// `toolsift.parse`, with its doctest.
const DOC: &std::ffi::CStr = c"parse(text, syntax=None, **options)
--

Extracts the tool calls of one syntax from ``text``.

>>> result = parse('TOOL_CALL: {\"tool_name\": \"greet\", \"parameters\": {\"name\": \"Ada\"}}')
>>> [(c.id, c.name, c.arguments) for c in result.calls]
[('call_0', 'greet', {'name': 'Ada'})]

Options of ``tool_call_json``: ``marker`` (literal, default ``\"TOOL_CALL\"``),
``max_payload_chars`` (default 8000, 0 for no limit), ``first_only`` (default False),
``id_prefix`` (default ``\"call_\"``). Without ``syntax``, the ``TOOLSIFT_SYNTAX``
environment variable chooses, else ``tool_call_json``. Raises
:class:`toolsift.UnknownSyntaxError` for a syntax name it does not know.

Every syntax runs on the streaming engine: a parse is one ``StreamParser`` feed followed
by ``finish``, so batch and streaming results cannot disagree. ``syntax=\"auto\"`` enables
every syntax of :data:`AUTO_SYNTAXES` and each call's ``syntax`` says which matched. A list
of names enables them all at once; the other options are ``StreamParser``'s (``tools``,
``unknown_tools``).

``syntax=\"api_tool_call\"`` reads a provider response object instead of text (OpenAI chat
completions or Responses output, Anthropic messages, Gemini responses; dicts, SDK objects
or their JSON text; option ``choice``). With other syntaxes beside it, text goes to those
and anything else to the provider reader.
";

/// The `parse` builtin, its `__module__` `toolsift.parsing` (where it is documented, and
/// where doctest finds its example).
pub(crate) fn parse_builtin(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    // CPython keeps a pointer to the definition for as long as the function lives: made once
    // per module initialisation, and never freed.
    let definition = Box::leak(Box::new(ffi::PyMethodDef {
        ml_name: c"parse".as_ptr(),
        ml_meth: ffi::PyMethodDefPointer {
            PyCFunctionFastWithKeywords: parse_entry,
        },
        ml_flags: ffi::METH_FASTCALL | ffi::METH_KEYWORDS,
        ml_doc: DOC.as_ptr(),
    }));
    let module = PyString::new(py, "toolsift.parsing");
    // SAFETY: `definition` lives forever; the module name is a live `str`, which the new
    // function takes its own reference to.
    unsafe {
        Bound::from_owned_ptr_or_err(
            py,
            ffi::PyCMethod_New(
                definition,
                ptr::null_mut(),
                module.as_ptr(),
                ptr::null_mut(),
            ),
        )
    }
}
