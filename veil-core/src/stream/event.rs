//! One event of a response stream, parsed once: its raw bytes and, for each text field
//! the provider names, where the string sits in those bytes, its decoded text, kind and
//! role. The restorer and the verification tap both read this; the copies the stream
//! writes itself (a held-back text on its own, the annotation, a repeat with the marks)
//! are made from it with their fields moved along, never parsed again.

use crate::edit::{splice, Edit};
use crate::json;
use crate::provider::{Provider, Role, StreamKey, TextKind};
use crate::sse::SseEvent;

/// The content text lane of every provider (see `provider::*::stream_fields`).
pub(crate) const CONTENT_LANE: u8 = 0;

/// One text field of an event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Field {
    /// Where the string's contents (between its quotes) sit in the raw event; `None`
    /// when they would cross a line break (a JSON string never does).
    pub at: Option<(usize, usize)>,
    /// The string's decoded text.
    pub text: Vec<u8>,
    pub kind: TextKind,
    pub role: Role,
}

impl Field {
    /// Is this a delta of content text (what verification reads)?
    pub fn is_content(&self) -> bool {
        self.kind == TextKind::Plain && matches!(self.role, Role::Delta(key) if key.lane == CONTENT_LANE)
    }
}

/// An SSE event or a JSON array element, parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Event {
    pub raw: Vec<u8>,
    /// The text fields of its data; `None` for an SSE event without data (a comment, a
    /// keep-alive), which carries no text and ends nothing. Data that is not JSON
    /// (`[DONE]`) has none.
    pub fields: Option<Vec<Field>>,
    /// Is it the provider's end of stream? Only asked when it matters (see
    /// [`Event::sse`]); `false` otherwise.
    pub terminal: bool,
}

impl Event {
    /// Parses a complete SSE event; `ask_terminal`: also ask the provider whether it ends
    /// the stream.
    pub fn sse(provider: Provider, raw: Vec<u8>, ask_terminal: bool) -> Event {
        let parsed = SseEvent::parse(&raw);
        let Some(data) = parsed.data.as_deref() else { return Event { raw, fields: None, terminal: false } };
        let fields = fields(provider, data, |s, e| parsed.raw_range(s, e));
        let terminal = ask_terminal && provider.is_terminal(data);
        Event { raw, fields: Some(fields), terminal }
    }

    /// Parses one element of a streamed JSON array (its own data).
    pub fn element(provider: Provider, raw: Vec<u8>) -> Event {
        let fields = fields(provider, &raw, |s, e| Some((s, e)));
        Event { raw, fields: Some(fields), terminal: false }
    }

    /// The fields of this event.
    pub fn fields(&self) -> &[Field] {
        self.fields.as_deref().unwrap_or_default()
    }

    /// A copy of this delta event whose delta for `key` says `text` and whose other
    /// deltas are empty (whole texts as they are): how a held-back text goes out on its
    /// own, and how the annotation goes out. `None` when a delta cannot be located.
    pub fn with_delta(&self, key: StreamKey, text: &str) -> Option<Event> {
        let mut changes = Vec::new();
        for (i, field) in self.fields().iter().enumerate() {
            let Role::Delta(k) = field.role else { continue };
            field.at?;
            let text = if k == key { text } else { "" };
            changes.push((i, Change::Set(text.as_bytes())));
        }
        Some(self.changed(&changes))
    }

    /// This event with `suffix` appended to every whole text that repeats the delta
    /// stream `key`; `None` when there is none (or one cannot be located), so the event
    /// stays as it is.
    pub fn with_appended(&self, key: StreamKey, suffix: &str) -> Option<Event> {
        let mut changes = Vec::new();
        for (i, field) in self.fields().iter().enumerate() {
            if field.role == Role::Whole(Some(key)) {
                field.at?;
                changes.push((i, Change::Append(suffix.as_bytes())));
            }
        }
        if changes.is_empty() {
            return None;
        }
        Some(self.changed(&changes))
    }

    /// A copy with the given fields changed (each field at most once, each located):
    /// the raw bytes spliced, every field's place moved along.
    fn changed(&self, changes: &[(usize, Change<'_>)]) -> Event {
        let mut fields = self.fields().to_vec();
        // Each change's field and its edit of the raw bytes.
        let mut edits: Vec<(usize, Edit)> = Vec::with_capacity(changes.len());
        for &(i, change) in changes {
            let Some(field) = fields.get_mut(i) else { continue };
            let Some((start, end)) = field.at else { continue };
            let mut replacement = Vec::new();
            let edit = match change {
                Change::Set(text) => {
                    json::escape_into(&mut replacement, &String::from_utf8_lossy(text));
                    field.text = text.to_vec();
                    Edit { start, end, replacement }
                }
                Change::Append(suffix) => {
                    json::escape_into(&mut replacement, &String::from_utf8_lossy(suffix));
                    field.text.extend_from_slice(suffix);
                    Edit { start: end, end, replacement }
                }
            };
            edits.push((i, edit));
        }
        for (j, field) in fields.iter_mut().enumerate() {
            let Some((start, end)) = field.at else { continue };
            // Edits of fields before this one move it; its own edit moves its end.
            let (mut shift, mut own) = (0isize, 0isize);
            for (i, edit) in &edits {
                let growth = edit.replacement.len() as isize - (edit.end - edit.start) as isize;
                if *i == j {
                    own += growth;
                } else if edit.end <= start {
                    shift += growth;
                }
            }
            field.at = Some((start.saturating_add_signed(shift), end.saturating_add_signed(shift + own)));
        }
        let raw = splice(&self.raw, edits.into_iter().map(|(_, e)| e).collect());
        Event { raw, fields: Some(fields), terminal: self.terminal }
    }
}

/// How [`Event::changed`] changes one field.
#[derive(Debug, Clone, Copy)]
enum Change<'a> {
    /// Its text becomes this.
    Set(&'a [u8]),
    /// This goes after its text.
    Append(&'a [u8]),
}

fn fields(provider: Provider, data: &[u8], to_raw: impl Fn(usize, usize) -> Option<(usize, usize)>) -> Vec<Field> {
    provider
        .stream_fields(data)
        .unwrap_or_default()
        .into_iter()
        .map(|f| Field {
            at: to_raw(f.span.start, f.span.end),
            text: json::decode(data.get(f.span.start..f.span.end).unwrap_or_default()).bytes.into_owned(),
            kind: f.kind,
            role: f.role,
        })
        .collect()
}
