//! Token restoration over parsed events: per logical stream, restore complete tokens,
//! hold back a trailing possible token prefix (at most
//! [`MAX_HOLDBACK`](crate::token::MAX_HOLDBACK) bytes) and release it with the
//! stream's next delta, or in a copy of the stream's last delta event placed before the
//! first event that is not a delta (a finish chunk, `content_block_stop`, `[DONE]`) or
//! at the very end. Only text fields change; every other byte of every event is kept.

use std::collections::BTreeMap;
use std::rc::Rc;

use super::event::Event;
use super::piece::Piece;
use crate::edit::{splice, Edit};
use crate::json;
use crate::provider::{Role, StreamKey, TextKind};
use crate::restore::{number_value, restore_in};
use crate::sse::Framing;
use crate::token::{find_tokens, holdback_start, number_literal, Lookup};

/// Text held back for one logical stream, and the event to copy if it must be flushed
/// on its own.
#[derive(Debug, Clone)]
struct Pending {
    held: Vec<u8>,
    kind: TextKind,
    /// This stream's last delta event.
    template: Rc<Event>,
}

/// Restores the tokens of one response stream's pieces, taken in order.
#[derive(Debug)]
pub(super) struct Restorer {
    framing: Framing,
    pending: BTreeMap<StreamKey, Pending>,
    /// Array framing: has an element been emitted (so a flushed copy needs a comma)?
    emitted_element: bool,
    /// Tokens restored so far.
    pub restored: u32,
}

impl Restorer {
    pub fn new(framing: Framing) -> Restorer {
        Restorer { framing, pending: BTreeMap::new(), emitted_element: false, restored: 0 }
    }

    /// Bytes of text held back.
    pub fn held_bytes(&self) -> usize {
        self.pending.values().map(|p| p.held.len()).sum()
    }

    /// Writes one piece of the stream to `out`, restored. `content`, when given, gets
    /// the restored text of every content delta written.
    pub fn piece(&mut self, piece: &Piece, tokens: &dyn Lookup, out: &mut Vec<u8>, content: Option<&mut String>) {
        match piece {
            Piece::Between(bytes) => out.extend_from_slice(bytes),
            Piece::Close(bytes) => {
                self.flush_all(tokens, out, content);
                out.extend_from_slice(bytes);
            }
            Piece::Event(event) => {
                self.event(event, tokens, out, content);
                self.emitted_element = true;
            }
        }
    }

    /// Rewrites one event. Pending text of every stream is flushed first when it is not
    /// a delta.
    fn event(&mut self, event: &Rc<Event>, tokens: &dyn Lookup, out: &mut Vec<u8>, mut content: Option<&mut String>) {
        let Some(fields) = &event.fields else {
            // Comments and keep-alives carry no text and end nothing.
            out.extend_from_slice(&event.raw);
            return;
        };
        if !fields.iter().any(|f| matches!(f.role, Role::Delta(_))) {
            self.flush_all(tokens, out, content.as_deref_mut());
        }
        let mut edits = Vec::new();
        for field in fields {
            if let (Role::Whole(_), Some((start, end))) = (field.role, field.at) {
                if let Some(number) = number_value(&field.text, field.kind, tokens) {
                    // The whole string, quotes included, is the number the request carried.
                    self.restored += 1;
                    edits.push(Edit { start: start.saturating_sub(1), end: end + 1, replacement: number });
                    continue;
                }
            }
            let (text, count) = match field.role {
                Role::Whole(_) => restore_in(&field.text, field.kind, tokens),
                Role::Delta(key) => {
                    let mut joined = self.pending.remove(&key).map(|p| p.held).unwrap_or_default();
                    joined.extend_from_slice(&field.text);
                    let mut cut = holdback_start(&joined).unwrap_or(joined.len());
                    if field.kind == TextKind::EmbeddedJson {
                        cut = number_holdback(&joined, cut, tokens);
                    }
                    let held = joined.split_off(cut);
                    if !held.is_empty() {
                        self.pending.insert(key, Pending { held, kind: field.kind, template: Rc::clone(event) });
                    }
                    restore_in(&joined, field.kind, tokens)
                }
            };
            self.restored += count;
            let mut written = &text;
            if text != field.text {
                match field.at {
                    Some((start, end)) => {
                        let mut replacement = Vec::with_capacity(text.len() + 8);
                        json::escape_into(&mut replacement, &String::from_utf8_lossy(&text));
                        edits.push(Edit { start, end, replacement });
                    }
                    None => written = &field.text,
                }
            }
            if let Some(content) = content.as_deref_mut().filter(|_| field.is_content()) {
                content.push_str(&String::from_utf8_lossy(written));
            }
        }
        if edits.is_empty() {
            out.extend_from_slice(&event.raw);
        } else {
            out.extend(splice(&event.raw, edits));
        }
    }

    /// Releases every held-back text, each in a copy of its stream's last delta event
    /// with the other deltas emptied.
    pub fn flush_all(&mut self, tokens: &dyn Lookup, out: &mut Vec<u8>, mut content: Option<&mut String>) {
        for (key, p) in std::mem::take(&mut self.pending) {
            let (text, count) = restore_in(&p.held, p.kind, tokens);
            self.restored += count;
            let Some(copy) = p.template.with_delta(key, &String::from_utf8_lossy(&text)) else { continue };
            if self.framing == Framing::JsonArray && self.emitted_element {
                out.push(b',');
            }
            if self.framing == Framing::Lines && !out.is_empty() && !out.ends_with(b"\n") {
                out.push(b'\n');
            }
            out.extend_from_slice(&copy.raw);
            if self.framing == Framing::Lines {
                out.push(b'\n');
            }
            self.emitted_element = true;
            if let Some(content) = content.as_deref_mut() {
                for field in copy.fields().iter().filter(|f| f.is_content()) {
                    content.push_str(&String::from_utf8_lossy(&field.text));
                }
            }
        }
    }
}

/// Where embedded JSON's held-back text starts when a token of a number may be coming
/// back between quotes (`"ssn":"«token»"` is restored as `"ssn":123456789`): the quote
/// before a possible token prefix is held with it, and so is a complete token of a
/// number at the very end with its opening quote, until the next delta shows whether
/// its closing quote follows. Adds at most one quote to the bounded hold-back.
fn number_holdback(text: &[u8], cut: usize, tokens: &dyn Lookup) -> usize {
    if cut == text.len() {
        let last = find_tokens(text).into_iter().last();
        if text.last() == Some(&b'"') {
            // A quote that may open a token's string; not one that closes a token.
            let closes = last.as_ref().is_some_and(|t| t.end + 1 == text.len());
            return if closes { cut } else { text.len() - 1 };
        }
        if let Some(found) = last.filter(|t| t.end == text.len() && t.start > 0) {
            let quoted = text.get(found.start - 1) == Some(&b'"');
            let number = tokens.lookup(&found.canonical()).is_some_and(|v| number_literal(&v).is_some());
            if quoted && number {
                return found.start - 1;
            }
        }
        return cut;
    }
    if cut > 0 && text.get(cut - 1) == Some(&b'"') {
        cut - 1
    } else {
        cut
    }
}
