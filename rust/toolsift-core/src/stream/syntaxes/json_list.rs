//! Syntaxes whose calls follow a special token as a JSON array of call objects: Mistral,
//! Granite and Jamba.
//!
//! ```text
//! mistral: [TOOL_CALLS] [{"name": "f", "arguments": {...}}, ...]     (old form)
//!          [TOOL_CALLS]f[ARGS]{...}  or  [TOOL_CALLS]f{...}          (v11+, one call per marker)
//!          [TOOL_CALLS]f[CALL_ID]ID[ARGS]{...}                        (the call's id, ID)
//! granite: <|tool_call|>[{"name": ..., "arguments": ...}, ...]  or  <tool_call>[...]
//!          (a `</tool_call>` after the list, as Qwen writes it, is taken when it follows)
//!          or  <function_call> {"name": ..., "arguments": ...}     (Granite-20B-FunctionCalling,
//!          one object per marker)
//! jamba:   <tool_calls>[{"name": ..., "arguments": ...}]</tool_calls>
//! ```
//!
//! Each element of the array is its own segment ([`Step::Split`]): a malformed element (not
//! an object, no name, broken JSON that still closes) is reported and its siblings survive.
//! An element whose string never closed runs into the elements after it; when it closes as
//! non-strict JSON (or the stream ends in it) holding `}, {"name":`, it ends before that `{`
//! as an `unterminated` issue, and the list goes on from there in a new segment
//! ([`SegmentParser::chain`], [`SegmentParser::cut_at_end`]). Junk after a broken element
//! belongs to it up to the next `, {` at the list's level (or the list's `]`), and a closer
//! too many after a call (`{…}}, {…}`) is skipped. Mistral: words after `[TOOL_CALLS]` that
//! are no v11 call are skipped up to a list of calls (`[` then `{`) on the same line, within
//! [`MAX_HEADER`] bytes (vLLM's pre-v11 reading finds the list past them); without one, the
//! marker is dropped and the words are text.
//! Elements are read with the JSON scanner, so brackets, commas and end markers inside string
//! values are part of the value. A single object in place of the array is one call. The
//! separator and blanks after an element belong to that element's segment; the array's `]` and
//! end marker to the last one. Mistral tokenizers put a space before `[TOOL_CALLS]`, so one
//! blank right before the marker belongs to the call (the text before it stays as written
//! otherwise).

use super::super::events::SegmentKind;
use super::super::json_call::read_call;
use super::super::{Opening, Outcome, SegmentParser, Sink, Step, Syntax};
use super::json_read::{overran, ListElem};
use super::lex::{
    args_call, cut_short, framing, is_blank, issue, missing_end, unterminated, Alts, Match,
    MAX_HEADER,
};
use crate::strict_json::JsonEvent;

/// The data that defines one JSON-list syntax.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JsonList {
    /// The syntax's name.
    pub name: &'static str,
    /// Start markers.
    pub starts: &'static [&'static str],
    /// End marker after the array (empty for none).
    pub end: &'static str,
    /// An end marker that may follow the array, taken when it does (empty for none).
    pub optional_end: &'static str,
    /// A bare tool name may follow the marker, then optionally `[ARGS]`, then the arguments
    /// object (Mistral v11).
    pub bare_name: bool,
}

/// Every JSON-list syntax.
pub const LISTS: &[JsonList] = &[
    JsonList {
        name: "mistral",
        starts: &["[TOOL_CALLS]", " [TOOL_CALLS]"],
        end: "",
        optional_end: "",
        bare_name: true,
    },
    JsonList {
        name: "granite",
        // `<function_call>` is Granite-20B-FunctionCalling's, one call object per marker: the
        // single-object reading below takes it as it is.
        starts: &["<|tool_call|>", "<tool_call>", "<function_call>"],
        end: "",
        // Granite 3.1 writes none, but Qwen-style replies read as Granite under auto close
        // their `<tool_call>[...]` with one, which must not be left in the content.
        optional_end: "</tool_call>",
        bare_name: false,
    },
    JsonList {
        name: "jamba",
        starts: &["<tool_calls>"],
        end: "</tool_calls>",
        optional_end: "",
        bare_name: false,
    },
];

/// Hermes' `<tool_call>` holding an array of calls, as Qwen models write parallel calls
/// (`<tool_call>[{...}, {...}]</tool_call>`): not a syntax of its own but read for `hermes`
/// (see `json_block`) by this family's parser, one segment per element.
pub(super) const HERMES_ARRAY: JsonList = JsonList {
    name: "hermes",
    starts: &["<tool_call>"],
    end: "</tool_call>",
    optional_end: "",
    bare_name: false,
};

/// The parser of `spec`'s calls, fed from right after its start marker.
pub(super) fn parser(spec: &'static JsonList, scan_depth: usize) -> Box<dyn SegmentParser> {
    Box::new(Parser::new(spec, scan_depth))
}

const NAME_KEYS: &[&str] = &["name"];
const ARGS_KEYS: &[&str] = &["arguments", "parameters"];
const ARGS_TOKEN: &str = "[ARGS]";
/// Mistral's marker, which starts the next v11 call.
const MARKER: &str = "[TOOL_CALLS]";
const CALL_ID_TOKEN: &str = "[CALL_ID]";

/// The family's syntax names.
#[must_use]
pub fn names() -> Vec<&'static str> {
    LISTS.iter().map(|l| l.name).collect()
}

/// The syntax called `name`, if it is one of this family's.
#[must_use]
pub fn build(name: &str) -> Option<Syntax> {
    let spec: &'static JsonList = LISTS.iter().find(|l| l.name == name)?;
    Some(Syntax {
        name: spec.name,
        markers: spec
            .starts
            .iter()
            .map(|s| ((*s).to_string(), false, false))
            .collect(),
        make: Box::new(move |opening: Opening| Box::new(Parser::new(spec, opening.scan_depth))),
    })
}

/// Where a broken list element ends (see [`next_call_in`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cut {
    /// At the next element, a call: the list goes on there.
    Element(usize),
    /// At one of the syntax's start markers, before any such element: the text from there
    /// is read again as text, which that marker opens.
    Marker(usize),
}

/// [`next_call_in`], or the first of the `markers` in `text` when one comes before it.
fn cut_in(text: &str, markers: &[&str], sink: &mut Sink) -> Option<Cut> {
    let marker = markers
        .iter()
        .map(|m| m.trim_start())
        .filter_map(|m| memchr::memmem::find(text.as_bytes(), m.as_bytes()))
        .min();
    match (next_call_in(text, sink), marker) {
        (Some(Cut::Element(at)), Some(m)) if m < at => Some(Cut::Marker(m)),
        (Some(cut), _) => Some(cut),
        (None, Some(m)) if m > 0 && !crate::strict_json::is_strict_json(text) => {
            Some(Cut::Marker(m))
        }
        (None, _) => None,
    }
}

/// Where the next call of a list begins (`Cut::Element`) inside the element `text` that
/// closed but is not strict JSON: the `{` of the first `}`, `{"name":` after the element's
/// first byte (blanks allowed between), when there is one and `sink` has not counted
/// [`MAX_OVERRUNS`](super::json_read::MAX_OVERRUNS) such cuts. A string of the element that
/// never closed ran over the end of the element and into that call, and closed in it.
fn next_call_in(text: &str, sink: &mut Sink) -> Option<Cut> {
    if sink.overruns >= super::json_read::MAX_OVERRUNS {
        return None;
    }
    let b = text.as_bytes();
    let skip = |mut k: usize| {
        while b.get(k).is_some_and(u8::is_ascii_whitespace) {
            k += 1;
        }
        k
    };
    let found = memchr::memchr_iter(b'}', b).find_map(|close| {
        let comma = skip(close + 1);
        if b.get(comma) != Some(&b',') {
            return None;
        }
        let open = skip(comma + 1);
        if b.get(open) != Some(&b'{') {
            return None;
        }
        let key = skip(open + 1);
        let rest = b.get(key..)?;
        let name = NAME_KEYS.iter().find_map(|k| {
            let quoted = rest.strip_prefix(b"\"")?.strip_prefix(k.as_bytes())?;
            quoted.strip_prefix(b"\"")
        })?;
        let colon = skip(b.len() - name.len());
        (b.get(colon) == Some(&b':')).then_some(open)
    })?;
    if crate::strict_json::is_strict_json(text) {
        return None;
    }
    sink.overruns += 1;
    Some(Cut::Element(found))
}

/// The string `id` member of the strict JSON object `text`, if it has one.
fn element_id(text: &str) -> Option<&str> {
    let mut reader = crate::strict_json::StrictReader::new(text);
    if reader.next_event().ok()?? != JsonEvent::StartObject {
        return None;
    }
    while reader.depth() > 0 {
        reader.set_skip_strings(reader.depth() != 1);
        let event = reader.next_event().ok()??;
        if reader.depth() == 1 && event == JsonEvent::Key("id".into()) {
            let start = reader.position();
            if let JsonEvent::String(_) = reader.next_event().ok()?? {
                let raw = text.get(start..reader.position())?.trim();
                // Borrowed as written: an id with escapes is none.
                let id = raw.strip_prefix('"')?.strip_suffix('"')?;
                return (!id.contains('\\')).then_some(id);
            }
        }
    }
    None
}

/// The issue of a list element whose string never closed and ran into the next call:
/// `text` is the element up to that call.
fn ran_into(text: &str) -> Outcome {
    let text = text.trim_end();
    let text = text.strip_suffix(',').unwrap_or(text).trim_end();
    issue(
        "unterminated",
        format!("a string in this call never closed and ran into the next call: {text}"),
    )
}

/// Appends the name bytes of `input` from `i` to `word`; returns where they stop and whether
/// `word` is now longer than [`MAX_HEADER`] (which rejects the marker, however the word was
/// chunked, as the word only grows).
fn take_word(input: &str, i: usize, word: &mut Option<String>) -> (usize, bool) {
    let bytes = input.as_bytes();
    let stop = bytes[i..]
        .iter()
        .position(|&c| !name_byte(c))
        .map_or(bytes.len(), |k| i + k);
    let word = word.get_or_insert_with(String::new);
    word.push_str(&input[i..stop]);
    (stop, word.len() > MAX_HEADER)
}

fn name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b':' | b'/')
}

enum State {
    /// Blanks after the marker.
    Start {
        blanks: usize,
    },
    /// Mistral v11: the tool's name.
    Name,
    /// After the name: blanks and `[ARGS]` (or `[CALL_ID]`), then the object; `true` once a
    /// line break was among the blanks (no list of calls is looked for past it).
    AfterName(Alts, bool),
    /// After `[CALL_ID]`: the call's id, then what may follow the name.
    CallId,
    /// After `[ARGS]`: blanks, then the object (anything else is a call without JSON).
    ArgsToken,
    /// Mistral: words after the marker that are neither a v11 call nor JSON (`[TOOL_CALLS]
    /// junk [{…}]`), skipped up to a list of calls on the same line, as vLLM's pre-v11
    /// reading finds one: `taken` bytes so far (besides the name's), `bracket` right after a
    /// `[` (and blanks).
    Junk {
        taken: usize,
        bracket: bool,
    },
    /// After `[`: blanks, then the first element or `]`.
    ArrayOpen,
    /// The next byte starts an element.
    ElementBegin,
    Element(ListElem),
    /// After an element: blanks (`held`), then `,`, `]` or (lenient) another element.
    AfterElement {
        held: usize,
    },
    /// After `,`: blanks, then the next element (or `]` after a trailing comma).
    AfterComma,
    /// After the array: blanks (`held`), then the end marker.
    End {
        held: usize,
        alts: Alts,
    },
    /// A broken element followed by more text that is no list: the rest of the list, to its
    /// `]`, belongs to the broken element (brackets in strings do not count), unless a comma
    /// at the list's level and then (after blanks) a `{` come first: the next element begins
    /// there, so a stray closer does not take the calls after it.
    SkipList {
        depth: usize,
        quote: Option<u8>,
        escaped: bool,
        /// A comma at the list's level, then only blanks, was just seen.
        comma: bool,
    },
}

struct Parser {
    spec: &'static JsonList,
    state: State,
    in_array: bool,
    /// No element yet (an empty array is framing only).
    empty: bool,
    name: Option<String>,
    /// Bytes taken after the marker's blanks while reading a v11 name (and `[ARGS]`).
    after_name: usize,
    /// Mistral's `[CALL_ID]` id of the call, once read.
    call_id: Option<String>,
    /// The segment just ended at a call that a broken element ran into: the list goes on
    /// there (see [`SegmentParser::chain`]).
    resume: bool,
    pending: Outcome,
    /// Nesting the elements' scanner accepts.
    scan_depth: usize,
}

impl Parser {
    fn new(spec: &'static JsonList, scan_depth: usize) -> Self {
        Self {
            spec,
            scan_depth,
            state: State::Start { blanks: 0 },
            in_array: false,
            empty: true,
            name: None,
            after_name: 0,
            call_id: None,
            resume: false,
            pending: Outcome::default(),
        }
    }

    /// The element just read: its outcome is pending until what follows it is known.
    fn element_done(&mut self, elem: &ListElem, sink: &mut Sink) {
        self.pending = match (elem, &self.name) {
            (ListElem::Json(v), Some(name)) => args_call(name, &v.text),
            (ListElem::Json(v), None) => match read_call(&v.text, NAME_KEYS, ARGS_KEYS) {
                Ok((name, args, repairs)) => {
                    // Mistral Nemo writes each call's id in its object.
                    let id = element_id(&v.text);
                    sink.start_with_id(SegmentKind::ToolCall, Some(&name), Vec::new(), id);
                    super::lex::call(name, args, repairs)
                }
                Err((kind, message)) => issue(kind, message),
            },
            (other, _) => issue(
                "not_an_object",
                format!("a list element is not a call object: {}", other.text()),
            ),
        };
        self.state = if self.in_array {
            State::AfterElement { held: 0 }
        } else {
            State::End {
                held: 0,
                alts: Alts::default(),
            }
        };
    }

    /// `[TOOL_CALLS] not json`: the special token opens no call. It is dropped (with the
    /// blanks after it), as vLLM drops it; the words after it (the name read, the bytes after
    /// it and `taken` more) are text again. The segment ends at byte `used` of this input.
    fn no_call(&self, used: usize, taken: usize) -> Step {
        let name = self.name.as_ref().map_or(0, String::len);
        Step::Done {
            used,
            give_back: name + self.after_name + taken,
            outcome: Outcome::default(),
        }
    }

    /// Ends the last segment; `missing` names the end marker that did not come, if any.
    fn close(&mut self, used: usize, give_back: usize, missing: Option<&str>) -> Step {
        if self.empty {
            return framing(used);
        }
        let mut outcome = std::mem::take(&mut self.pending);
        if let Some(end) = missing {
            outcome = missing_end(outcome, end);
        }
        Step::Done {
            used,
            give_back,
            outcome,
        }
    }
}

impl SegmentParser for Parser {
    #[allow(clippy::too_many_lines)]
    fn feed(&mut self, input: &str, sink: &mut Sink) -> Step {
        let bytes = input.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            match &mut self.state {
                State::Start { blanks } => {
                    if is_blank(b) {
                        *blanks += 1;
                        i += 1;
                        if *blanks > MAX_HEADER {
                            return Step::Reject;
                        }
                    } else if b == b'[' {
                        self.in_array = true;
                        self.state = State::ArrayOpen;
                        i += 1;
                    } else if b == b'{' {
                        self.state = State::ElementBegin;
                    } else if self.spec.bare_name && name_byte(b) {
                        self.name = Some(String::new());
                        self.state = State::Name;
                    } else {
                        return Step::Reject;
                    }
                }
                State::Name => {
                    let (stop, long) = take_word(input, i, &mut self.name);
                    i = stop;
                    if long {
                        return Step::Reject;
                    }
                    if i < bytes.len() {
                        self.state = State::AfterName(Alts::default(), false);
                    }
                }
                State::AfterName(alts, line_ended) => {
                    if alts.matched == 0 && b == b'{' {
                        self.state = State::ElementBegin;
                    } else if alts.matched == 0 && is_blank(b) {
                        i += 1;
                        self.after_name += 1;
                        *line_ended |= b == b'\n';
                    } else {
                        // A `[` taken as the start of `[ARGS]` may open a list of calls.
                        let bracket = alts.matched == 1;
                        let tokens: &[&str] = if self.call_id.is_none() {
                            &[ARGS_TOKEN, CALL_ID_TOKEN]
                        } else {
                            &[ARGS_TOKEN]
                        };
                        match alts.push(tokens, b) {
                            Match::Fail => {
                                // Not a v11 call: words, which a list of calls may follow
                                // on the same line.
                                if *line_ended {
                                    return self.no_call(i, 0);
                                }
                                self.state = State::Junk { taken: 0, bracket };
                                continue;
                            }
                            Match::Full(0) => self.state = State::ArgsToken,
                            Match::Full(_) => {
                                self.call_id = Some(String::new());
                                self.state = State::CallId;
                            }
                            Match::Partial => {}
                        }
                        i += 1;
                        self.after_name += 1;
                    }
                }
                State::Junk { taken, bracket } => {
                    if b == b'{' && *bracket {
                        // The list of calls after the words: read from its `[` on.
                        self.name = None;
                        self.in_array = true;
                        self.state = State::ElementBegin;
                        continue;
                    }
                    if b == b'\n' || *taken >= MAX_HEADER {
                        let taken = *taken;
                        return self.no_call(i, taken);
                    }
                    *bracket = b == b'[' || (*bracket && is_blank(b));
                    *taken += 1;
                    i += 1;
                }
                State::CallId => {
                    let (stop, long) = take_word(input, i, &mut self.call_id);
                    self.after_name += stop - i;
                    i = stop;
                    if long {
                        return Step::Reject;
                    }
                    if i < bytes.len() {
                        self.state = State::AfterName(Alts::default(), false);
                    }
                }
                State::ArgsToken => {
                    if b == b'{' {
                        self.state = State::ElementBegin;
                    } else if is_blank(b) {
                        i += 1;
                    } else {
                        // `[TOOL_CALLS]name[ARGS]` is a call for sure; without an object its
                        // arguments are reported, and what follows is text again.
                        let name = self.name.clone().unwrap_or_default();
                        return Step::Done {
                            used: i,
                            give_back: 0,
                            outcome: issue(
                                "not_json",
                                format!("the arguments of {name:?} after [ARGS] are not JSON"),
                            ),
                        };
                    }
                }
                State::ArrayOpen => {
                    if is_blank(b) {
                        i += 1;
                    } else if b == b']' {
                        i += 1;
                        self.state = State::End {
                            held: 0,
                            alts: Alts::default(),
                        };
                    } else {
                        self.state = State::ElementBegin;
                    }
                }
                State::ElementBegin => {
                    self.empty = false;
                    if self.name.is_some() {
                        // A v11 call streams its arguments; a list element is announced
                        // when it closes, with its name and its own `id`.
                        sink.start_with_id(
                            SegmentKind::ToolCall,
                            self.name.as_deref(),
                            Vec::new(),
                            self.call_id.as_deref(),
                        );
                    }
                    let elem = ListElem::new(b, self.scan_depth);
                    self.state = State::Element(elem);
                }
                State::Element(elem) => {
                    let Ok(found) = elem.feed(&input[i..]) else {
                        return Step::Done {
                            used: i,
                            give_back: 0,
                            outcome: issue("too_deep", "JSON nested too deeply".to_string()),
                        };
                    };
                    let end = found.map_or(bytes.len(), |n| i + n);
                    if self.name.is_some() {
                        sink.arguments_json_delta(&input[i..end]);
                    }
                    i = end;
                    if found.is_some() {
                        let State::Element(elem) =
                            std::mem::replace(&mut self.state, State::ElementBegin)
                        else {
                            unreachable!("in an element")
                        };
                        if let (Some(name), ListElem::Json(v), true) =
                            (&self.name, &elem, self.spec.bare_name)
                        {
                            // A v11 call's string that never closed ran over the next
                            // `[TOOL_CALLS]` and closed in a later call: this call ends there,
                            // and the calls from that marker on are read again.
                            if let Some((at, _)) = overran(&v.text, &[MARKER], sink) {
                                return Step::Done {
                                    used: i,
                                    give_back: v.text.len() - at,
                                    outcome: cut_short(name, MARKER, &v.text[..at]),
                                };
                            }
                        }
                        if let (None, ListElem::Json(v), true) = (&self.name, &elem, self.in_array)
                        {
                            if let Some(cut) = cut_in(&v.text, self.spec.starts, sink) {
                                // A string that never closed ran into the next element, which
                                // is a call, and closed somewhere in it: this element ends
                                // before that call, and the list goes on from there (or, past
                                // a start marker of the syntax, the text is read again there).
                                let (Cut::Element(at) | Cut::Marker(at)) = cut;
                                self.resume = matches!(cut, Cut::Element(_));
                                return Step::Done {
                                    used: i,
                                    give_back: v.text.len() - at,
                                    outcome: ran_into(&v.text[..at]),
                                };
                            }
                        }
                        self.element_done(&elem, sink);
                        if self.spec.bare_name && self.name.is_some() {
                            // Mistral v11: the call ends with its object.
                            return Step::Done {
                                used: i,
                                give_back: 0,
                                outcome: std::mem::take(&mut self.pending),
                            };
                        }
                    }
                }
                State::AfterElement { held } => {
                    if is_blank(b) || (matches!(b, b'}' | b')') && self.pending.call.is_some()) {
                        // A closer too many after a call (`{…}}, {…}`) is skipped like a
                        // blank: given back with the blanks if the list turns out to end.
                        *held += 1;
                        i += 1;
                    } else if b == b',' {
                        i += 1;
                        self.state = State::AfterComma;
                    } else if b == b']' {
                        i += 1;
                        self.state = State::End {
                            held: 0,
                            alts: Alts::default(),
                        };
                    } else if matches!(b, b'{' | b'[' | b'"') {
                        // A missing comma: the next element is read all the same.
                        self.state = State::ElementBegin;
                        return Step::Split {
                            used: i,
                            outcome: std::mem::take(&mut self.pending),
                        };
                    } else if self.pending.call.is_none() {
                        // `[not valid json]`: the broken element takes the rest of the list.
                        self.state = State::SkipList {
                            depth: 0,
                            quote: None,
                            escaped: false,
                            comma: false,
                        };
                    } else {
                        let held = *held;
                        return self.close(i, held, Some("]"));
                    }
                }
                State::AfterComma => {
                    if is_blank(b) {
                        i += 1;
                    } else if b == b']' {
                        i += 1;
                        self.state = State::End {
                            held: 0,
                            alts: Alts::default(),
                        };
                    } else {
                        self.state = State::ElementBegin;
                        return Step::Split {
                            used: i,
                            outcome: std::mem::take(&mut self.pending),
                        };
                    }
                }
                State::SkipList {
                    depth,
                    quote,
                    escaped,
                    comma,
                } => {
                    let b = bytes[i];
                    if *comma && b == b'{' {
                        self.state = State::ElementBegin;
                        return Step::Split {
                            used: i,
                            outcome: std::mem::take(&mut self.pending),
                        };
                    }
                    *comma =
                        (*comma && is_blank(b)) || (quote.is_none() && *depth == 0 && b == b',');
                    i += 1;
                    match *quote {
                        Some(_) if *escaped => *escaped = false,
                        Some(_) if b == b'\\' => *escaped = true,
                        Some(q) if b == q => *quote = None,
                        None if b == b'"' || b == b'\'' => *quote = Some(b),
                        None if b == b'[' || b == b'{' => *depth += 1,
                        None if (b == b']' || b == b'}') && *depth > 0 => *depth -= 1,
                        None if b == b']' => {
                            self.state = State::End {
                                held: 0,
                                alts: Alts::default(),
                            };
                        }
                        Some(_) | None => {}
                    }
                }
                State::End { held, alts } => {
                    let required = !self.spec.end.is_empty();
                    let end = if required {
                        self.spec.end
                    } else {
                        self.spec.optional_end
                    };
                    if end.is_empty() {
                        return self.close(i, 0, None);
                    }
                    if alts.matched == 0 && is_blank(b) {
                        *held += 1;
                        i += 1;
                        continue;
                    }
                    match alts.push(&[end], b) {
                        Match::Partial => {
                            *held += 1;
                            i += 1;
                        }
                        Match::Full(_) => return self.close(i + 1, 0, None),
                        Match::Fail => {
                            let held = *held;
                            return self.close(i, held, required.then_some(end));
                        }
                    }
                }
            }
        }
        if let State::End { .. } = self.state {
            if self.spec.end.is_empty() && self.spec.optional_end.is_empty() {
                return self.close(i, 0, None);
            }
        }
        Step::NeedMore
    }

    fn cut_at_end(&mut self, sink: &mut Sink) -> Option<(usize, Outcome)> {
        if let State::Junk { taken, .. } = self.state {
            // No list came: the marker is dropped and the words are text again.
            let name = self.name.as_ref().map_or(0, String::len);
            return Some((name + self.after_name + taken, Outcome::default()));
        }
        // As when such an element closes (see `cut_in`), for one the stream ends in: past
        // where its JSON broke (`restart_back`), the first call element or start marker.
        let (None, State::Element(elem), true) = (&self.name, &self.state, self.in_array) else {
            return None;
        };
        let ListElem::Json(v) = elem else {
            return None;
        };
        let from = v.text.len().saturating_sub(elem.restart_back()?);
        let rest = v.text.get(from..)?;
        Some(match cut_in(rest, self.spec.starts, sink)? {
            Cut::Element(at) => {
                self.resume = true;
                (rest.len() - at, ran_into(&v.text[..from + at]))
            }
            Cut::Marker(at) => (
                rest.len() - at,
                unterminated("a call's JSON", &v.text[..from + at]),
            ),
        })
    }

    fn chain(&mut self) -> Option<Box<dyn SegmentParser>> {
        if !std::mem::take(&mut self.resume) {
            return None;
        }
        let mut next = Parser::new(self.spec, self.scan_depth);
        next.in_array = true;
        next.empty = false;
        next.state = State::ElementBegin;
        Some(Box::new(next))
    }

    fn restart_back(&self) -> Option<usize> {
        // After a split the segment does not start with a marker, and the engine restarts
        // nothing in it.
        match &self.state {
            State::Element(elem) => elem.restart_back(),
            _ => None,
        }
    }

    fn finish_is_framing(&self) -> bool {
        // An empty list, or a marker that only words followed (see `cut_at_end`).
        (matches!(self.state, State::End { .. }) && self.empty)
            || matches!(self.state, State::Junk { .. })
    }

    fn finish(&mut self, _sink: &mut Sink) -> Outcome {
        match &self.state {
            State::Start { .. }
            | State::Name
            | State::AfterName(..)
            | State::CallId
            | State::ArgsToken
            | State::Junk { .. }
            | State::ArrayOpen
            | State::ElementBegin => issue(
                "unterminated",
                "the stream ended before a complete call".to_string(),
            ),
            State::Element(elem) => unterminated("a call's JSON", elem.text()),
            State::AfterElement { .. } | State::AfterComma | State::SkipList { .. } => {
                missing_end(std::mem::take(&mut self.pending), "]")
            }
            // An empty list is framing only.
            State::End { .. } if self.empty => Outcome::default(),
            State::End { .. } if self.spec.end.is_empty() => std::mem::take(&mut self.pending),
            State::End { .. } => missing_end(std::mem::take(&mut self.pending), self.spec.end),
        }
    }
}
