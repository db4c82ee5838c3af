//! What the stream's parts pass one another: a piece of the response (an event, or the
//! bytes between and after a JSON array's elements), and which text the tap collects.

use std::rc::Rc;

use super::event::Event;

/// Which text a verifying stream collects for the verifier (the host maps the policy's
/// `verification.text` to it; the stream knows nothing of verification's settings).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TapText {
    /// The content as the vendor streamed it, tokens in place of values.
    Tokenized,
    /// The content as the client gets it: the restorer's output.
    Restored,
}

/// One piece of a response stream as the restorer and the tap see it.
#[derive(Debug, Clone)]
pub(crate) enum Piece {
    /// An SSE event or a JSON array element, parsed.
    Event(Rc<Event>),
    /// Array framing: brackets, commas and whitespace between elements.
    Between(Vec<u8>),
    /// Array framing: the closing `]` and anything after it.
    Close(Vec<u8>),
}

impl Piece {
    pub(crate) fn len(&self) -> usize {
        match self {
            Piece::Event(event) => event.raw.len(),
            Piece::Between(bytes) | Piece::Close(bytes) => bytes.len(),
        }
    }
}
