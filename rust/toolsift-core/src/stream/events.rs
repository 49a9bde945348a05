//! What the streaming engine reports: segment starts, deltas and segment ends.

/// What a segment holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SegmentKind {
    /// Prose between calls.
    Text,
    /// A reasoning block (`<think>`, `<thinking>`, Harmony analysis).
    Reasoning,
    /// A tool call.
    ToolCall,
    /// A file write in a file-style syntax (its call is `write_file`).
    WriteFile,
    /// A patch in a file-style syntax (its call is `patch_file`).
    PatchFile,
    /// A shell command in a file-style syntax (its call is `run_bash`).
    RunBash,
}

impl SegmentKind {
    /// The kind's stable name.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Text => "text",
            Self::Reasoning => "reasoning",
            Self::ToolCall => "tool_call",
            Self::WriteFile => "write_file",
            Self::PatchFile => "patch_file",
            Self::RunBash => "run_bash",
        }
    }

    /// The prefix of this kind's segment ids (`text_0`, `call_0`, `reasoning_0`).
    #[must_use]
    pub fn id_prefix(self) -> &'static str {
        match self {
            Self::Text => "text_",
            Self::Reasoning => "reasoning_",
            Self::ToolCall | Self::WriteFile | Self::PatchFile | Self::RunBash => "call_",
        }
    }
}

/// A completed call. Its arguments are JSON text of an object ([`Call::arguments_json`]);
/// offsets are in characters.
///
/// Equal calls have equal [`Call::arguments_json`], whether or not its text was written.
#[derive(Debug, Clone)]
pub struct Call {
    /// The tool's name.
    pub name: String,
    /// The arguments as a JSON object's text, or empty in a one-shot parse when
    /// `string_arguments` holds them: read them with [`Call::arguments_json`].
    pub arguments: String,
    /// Kinds of lenient-JSON repair the arguments needed.
    pub repairs: Vec<&'static str>,
    /// Character offset where the call's text starts (its start marker).
    pub start: usize,
    /// Character offset one past the call's text.
    pub end: usize,
    /// The call's text, markers included.
    pub raw: String,
    /// The arguments as decoded `(key, value)` pairs, when a syntax that builds them from
    /// strings (a sentinel file body, `xml_tool` parameters) has them at hand: every value a
    /// string, no key twice. A host builds the arguments from these instead of decoding JSON.
    /// Without previews (a one-shot parse) their JSON text is not written at all: nobody
    /// streams it, and escaping a whole file body into it was a sixth of a sentinel parse.
    pub string_arguments: Option<Vec<(String, String)>>,
}

impl Call {
    /// True when the arguments' JSON text was left unwritten: `string_arguments` holds them
    /// and [`Call::arguments_json`] writes it on demand.
    #[must_use]
    pub fn arguments_unwritten(&self) -> bool {
        self.arguments.is_empty() && self.string_arguments.is_some()
    }

    /// The arguments as a JSON object's text: `arguments`, or, when that was left unwritten,
    /// the text [`strings_json`](super::args_writer::strings_json) writes for the pairs.
    #[must_use]
    pub fn arguments_json(&self) -> std::borrow::Cow<'_, str> {
        match &self.string_arguments {
            Some(pairs) if self.arguments_unwritten() => {
                std::borrow::Cow::Owned(super::args_writer::strings_json(
                    pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())),
                ))
            }
            _ => std::borrow::Cow::Borrowed(&self.arguments),
        }
    }

    /// [`Call::arguments_json`] as an owned string, moved out of `arguments` when it was
    /// written (which leaves `arguments` empty).
    pub fn take_arguments_json(&mut self) -> String {
        match self.arguments_json() {
            std::borrow::Cow::Owned(written) => written,
            std::borrow::Cow::Borrowed(_) => std::mem::take(&mut self.arguments),
        }
    }
}

impl PartialEq for Call {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
            && self.repairs == other.repairs
            && self.start == other.start
            && self.end == other.end
            && self.raw == other.raw
            && self.string_arguments == other.string_arguments
            && self.arguments_json() == other.arguments_json()
    }
}

impl Eq for Call {}

/// Why a segment is not a call, or what was odd about one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Issue {
    /// A short stable name (`unterminated`, `not_json`, `no_name`, …).
    pub kind: &'static str,
    /// A sentence for people.
    pub message: String,
    /// Character offset where the segment starts.
    pub start: usize,
    /// Character offset one past the segment.
    pub end: usize,
}

/// A segment's id (`text_0`, `call_0`, …). Shared: every delta of a segment names it, and a
/// string of its own per event was an allocation and a free per delta.
pub type SegmentId = std::sync::Arc<str>;

/// One streaming event; every event names its segment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// A segment begins.
    SegmentStart {
        /// `text_N`, `call_N` or `reasoning_N`.
        id: SegmentId,
        /// What it holds.
        kind: SegmentKind,
        /// The syntax that opened it (`text` for prose).
        syntax: &'static str,
        /// The tool's name, when known at the start.
        name: Option<String>,
        /// Other header values the syntax gives (a `write_file` path, say).
        metadata: Vec<(String, String)>,
    },
    /// Text of a text or reasoning segment.
    TextDelta {
        /// The segment.
        id: SegmentId,
        /// The new text.
        text: String,
    },
    /// Decoded text of one string argument, as it streams.
    ArgumentDelta {
        /// The segment.
        id: SegmentId,
        /// The argument's name.
        key: String,
        /// The new text of its value.
        text: String,
    },
    /// A fragment of the arguments' JSON text.
    ArgumentsJsonDelta {
        /// The segment.
        id: SegmentId,
        /// The fragment.
        text: String,
    },
    /// A segment ends, with its call or the issue that explains why it is not one.
    SegmentEnd {
        /// The segment.
        id: SegmentId,
        /// The completed call, for call segments that are calls.
        call: Option<Call>,
        /// What went wrong, or what was odd.
        issue: Option<Issue>,
    },
}

/// Events in a form that any chunking of the same text gives identically: the deltas of one
/// segment merged per kind (and argument key), in a fixed order. Chunking changes how a
/// segment's text and argument streams interleave, never what each one says, so this is the
/// form in which streaming results are compared.
#[must_use]
pub fn canonical(events: Vec<Event>) -> Vec<Event> {
    let mut out: Vec<Event> = Vec::new();
    let mut run: Vec<Event> = Vec::new();
    for e in events {
        let Some(key) = delta_key(&e) else {
            run.sort_by_key(delta_key);
            out.append(&mut run);
            out.push(e);
            continue;
        };
        match run.iter_mut().find(|d| delta_key(d).as_ref() == Some(&key)) {
            Some(same) => {
                if let (Some(t), Some(text)) = (delta_text_mut(same), delta_text(&e)) {
                    t.push_str(text);
                }
            }
            None => run.push(e),
        }
    }
    run.sort_by_key(delta_key);
    out.append(&mut run);
    out
}

fn delta_key(e: &Event) -> Option<(SegmentId, u8, String)> {
    match e {
        Event::TextDelta { id, .. } => Some((id.clone(), 0, String::new())),
        Event::ArgumentsJsonDelta { id, .. } => Some((id.clone(), 1, String::new())),
        Event::ArgumentDelta { id, key, .. } => Some((id.clone(), 2, key.clone())),
        Event::SegmentStart { .. } | Event::SegmentEnd { .. } => None,
    }
}

fn delta_text(e: &Event) -> Option<&str> {
    match e {
        Event::TextDelta { text, .. }
        | Event::ArgumentsJsonDelta { text, .. }
        | Event::ArgumentDelta { text, .. } => Some(text),
        Event::SegmentStart { .. } | Event::SegmentEnd { .. } => None,
    }
}

fn delta_text_mut(e: &mut Event) -> Option<&mut String> {
    match e {
        Event::TextDelta { text, .. }
        | Event::ArgumentsJsonDelta { text, .. }
        | Event::ArgumentDelta { text, .. } => Some(text),
        Event::SegmentStart { .. } | Event::SegmentEnd { .. } => None,
    }
}
