//! Streaming restoration: tokens put back in SSE and streamed-JSON responses, at any split.
//!
//! Bytes go in as the network delivers them and come out as soon as they are safe:
//! complete events are rewritten and released at once; within a logical text stream
//! (a choice, a content block, an output item) only a trailing *possible token
//! prefix* is held back — at most [`MAX_HOLDBACK`](crate::token::MAX_HOLDBACK) bytes —
//! and it is released with the stream's next delta, or in a copy of the stream's last
//! delta event placed before the first event that is not a delta (a finish chunk,
//! `content_block_stop`, `[DONE]`) or at the very end. Only text fields change; every
//! other byte of every event is kept.

mod event;
#[cfg(test)]
mod legacy_diff;
mod restorer;

use std::collections::BTreeMap;
use std::rc::Rc;

use crate::edit::{splice, Edit};
use crate::json;
use crate::provider::{Provider, Role, StreamField, StreamKey, TextKind};
use crate::restore::restore_in;
pub use crate::sse::Framing;
use crate::sse::{ArrayPiece, ArraySplitter, Frame, Framer, SseEvent, SseSplitter};
use crate::token::{holdback_start, Lookup};
use crate::verify::{Tap, VerifiedText};
pub(crate) use event::Event;
use restorer::Restorer;

/// Text held back for one logical stream, and the event to copy if it must be
/// flushed on its own.
#[derive(Debug, Clone)]
struct Pending {
    held: Vec<u8>,
    kind: TextKind,
    /// The raw bytes of this stream's last delta event (an SSE event or an array element).
    template: Vec<u8>,
}

/// Restores tokens in one response stream. Feed it every body chunk in order.
#[derive(Debug)]
pub struct StreamRestorer {
    provider: Provider,
    framing: Framing,
    sse: SseSplitter,
    array: ArraySplitter,
    pending: BTreeMap<StreamKey, Pending>,
    /// Array framing: has an element been emitted (so a flushed copy needs a comma)?
    emitted_element: bool,
    /// Tokens restored so far.
    pub restored: u32,
}

impl StreamRestorer {
    pub fn new(provider: Provider, framing: Framing) -> StreamRestorer {
        StreamRestorer {
            provider,
            framing,
            sse: SseSplitter::default(),
            array: ArraySplitter::default(),
            pending: BTreeMap::new(),
            emitted_element: false,
            restored: 0,
        }
    }

    /// Bytes held inside the restorer (incomplete event + held-back text).
    pub fn held_bytes(&self) -> usize {
        self.sse.buffered() + self.array.buffered() + self.pending.values().map(|p| p.held.len()).sum::<usize>()
    }

    /// Takes the next chunk of the body; returns the bytes to send on now. With
    /// `end`, everything still held is flushed.
    pub fn feed(&mut self, chunk: &[u8], end: bool, tokens: &dyn Lookup) -> Vec<u8> {
        let mut out = Vec::with_capacity(chunk.len() + 64);
        match self.framing {
            Framing::Sse => {
                self.sse.push(chunk);
                while let Some(event) = self.sse.next_event() {
                    self.sse_event(&event, tokens, &mut out);
                }
                if end {
                    let rest = self.sse.take_rest();
                    if !rest.is_empty() {
                        self.sse_event(&rest, tokens, &mut out);
                    }
                    self.flush_all(tokens, &mut out);
                }
            }
            Framing::JsonArray => {
                self.array.push(chunk);
                while let Some(piece) = self.array.next_piece() {
                    match piece {
                        ArrayPiece::Between(bytes) => out.extend_from_slice(&bytes),
                        ArrayPiece::Element(element) => {
                            let rewritten = self.rewrite(&element, &element, tokens, &mut out, |s, e| Some((s, e)));
                            out.extend_from_slice(&rewritten);
                            self.emitted_element = true;
                        }
                        ArrayPiece::Close(bytes) => {
                            self.flush_all(tokens, &mut out);
                            out.extend_from_slice(&bytes);
                        }
                    }
                }
                if end {
                    self.flush_all(tokens, &mut out);
                    out.extend_from_slice(&self.array.take_rest());
                }
            }
        }
        out
    }

    fn sse_event(&mut self, raw: &[u8], tokens: &dyn Lookup, out: &mut Vec<u8>) {
        let event = SseEvent::parse(raw);
        let Some(data) = event.data.as_deref() else {
            // Comments and keep-alives carry no text and end nothing.
            out.extend_from_slice(raw);
            return;
        };
        let rewritten = self.rewrite(raw, data, tokens, out, |s, e| event.raw_range(s, e));
        out.extend_from_slice(&rewritten);
    }

    /// Rewrites one event whose JSON is `data` (inside `raw`, located by `to_raw`).
    /// Pending text of other streams is flushed into `out` first when this event is
    /// not a delta.
    fn rewrite(
        &mut self,
        raw: &[u8],
        data: &[u8],
        tokens: &dyn Lookup,
        out: &mut Vec<u8>,
        to_raw: impl Fn(usize, usize) -> Option<(usize, usize)>,
    ) -> Vec<u8> {
        let fields = self.provider.stream_fields(data).unwrap_or_default();
        if !fields.iter().any(|f| matches!(f.role, Role::Delta(_))) {
            self.flush_all(tokens, out);
        }
        let mut edits = Vec::new();
        for field in &fields {
            let decoded = json::decode(data.get(field.span.start..field.span.end).unwrap_or_default());
            let (text, held) = match field.role {
                Role::Whole(_) => (restore_in(&decoded.bytes, field.kind, tokens), None),
                Role::Delta(key) => {
                    let mut joined = self.pending.remove(&key).map(|p| p.held).unwrap_or_default();
                    joined.extend_from_slice(&decoded.bytes);
                    let cut = holdback_start(&joined).unwrap_or(joined.len());
                    let held = joined.split_off(cut);
                    (restore_in(&joined, field.kind, tokens), Some((key, held)))
                }
            };
            let (new_text, count) = text;
            self.restored += count;
            if let Some((key, held)) = held {
                if !held.is_empty() {
                    self.pending.insert(key, Pending { held, kind: field.kind, template: raw.to_vec() });
                }
            }
            if new_text.as_slice() != decoded.bytes.as_ref() {
                if let Some((start, end)) = to_raw(field.span.start, field.span.end) {
                    let mut replacement = Vec::with_capacity(new_text.len() + 8);
                    json::escape_into(&mut replacement, &String::from_utf8_lossy(&new_text));
                    edits.push(Edit { start, end, replacement });
                }
            }
        }
        if edits.is_empty() {
            raw.to_vec()
        } else {
            splice(raw, edits)
        }
    }

    /// Releases every held-back text, each in a copy of its stream's last delta event
    /// with the other text fields emptied.
    fn flush_all(&mut self, tokens: &dyn Lookup, out: &mut Vec<u8>) {
        let pending = std::mem::take(&mut self.pending);
        for (key, p) in pending {
            let (text, count) = restore_in(&p.held, p.kind, tokens);
            self.restored += count;
            let synthesized = match self.framing {
                Framing::Sse => {
                    let event = SseEvent::parse(&p.template);
                    let Some(data) = event.data.as_deref() else { continue };
                    fill_template(self.provider, &p.template, data, key, &text, |s, e| event.raw_range(s, e))
                }
                Framing::JsonArray => {
                    fill_template(self.provider, &p.template, &p.template, key, &text, |s, e| Some((s, e))).map(
                        |mut element| {
                            if self.emitted_element {
                                element.insert(0, b',');
                            }
                            element
                        },
                    )
                }
            };
            if let Some(bytes) = synthesized {
                out.extend_from_slice(&bytes);
                self.emitted_element = true;
            }
        }
    }
}

/// A copy of `raw` whose field for `key` holds `text` and whose other delta fields are
/// empty.
fn fill_template(
    provider: Provider,
    raw: &[u8],
    data: &[u8],
    key: StreamKey,
    text: &[u8],
    to_raw: impl Fn(usize, usize) -> Option<(usize, usize)>,
) -> Option<Vec<u8>> {
    let fields: Vec<StreamField> = provider.stream_fields(data).ok()?;
    let mut edits = Vec::new();
    for field in fields {
        let replacement = match field.role {
            Role::Delta(k) if k == key => {
                let mut r = Vec::new();
                json::escape_into(&mut r, &String::from_utf8_lossy(text));
                r
            }
            Role::Delta(_) => Vec::new(),
            Role::Whole(_) => continue,
        };
        let (start, end) = to_raw(field.span.start, field.span.end)?;
        edits.push(Edit { start, end, replacement });
    }
    Some(splice(raw, edits))
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

/// One response stream: its tokens restored and, when its answer is verified, its
/// text tapped and its end held for the annotation. Feed it every body chunk in order.
#[derive(Debug)]
pub struct ResponseStream {
    provider: Provider,
    framer: Framer,
    restorer: Restorer,
    tap: Option<Tap>,
}

impl ResponseStream {
    /// A stream whose tokens are restored.
    pub fn new(provider: Provider, framing: Framing) -> ResponseStream {
        ResponseStream { provider, framer: Framer::new(framing), restorer: Restorer::new(framing), tap: None }
    }

    /// A stream whose tokens are restored and whose answer is verified; `text` says
    /// which text the verifier reads ([`ResponseStream::take_text`]).
    pub fn verifying(provider: Provider, framing: Framing, text: VerifiedText) -> ResponseStream {
        ResponseStream { tap: Some(Tap::new(text)), ..ResponseStream::new(provider, framing) }
    }

    pub fn framing(&self) -> Framing {
        self.framer.framing()
    }

    /// Tokens restored so far.
    pub fn restored(&self) -> u32 {
        self.restorer.restored
    }

    /// Bytes held inside: an incomplete event, held-back text and, when verifying, the
    /// held end of the stream.
    pub fn held_bytes(&self) -> usize {
        self.framer.buffered() + self.restorer.held_bytes() + self.tap.as_ref().map_or(0, Tap::held_bytes)
    }

    /// Takes the next chunk of the body; returns the bytes to send on now. With `end`,
    /// everything still held is flushed — unless the answer is verified: then the end of
    /// the stream waits for [`ResponseStream::finish`].
    pub fn feed(&mut self, chunk: &[u8], end: bool, tokens: &dyn Lookup) -> Vec<u8> {
        let mut out = Vec::with_capacity(chunk.len() + 64);
        let framing = self.framer.framing();
        self.framer.push(chunk);
        while let Some(frame) = self.framer.next_frame() {
            let ask_terminal = self.tap.as_ref().is_some_and(|tap| !tap.holding());
            let piece = match frame {
                Frame::Event(raw) => Piece::Event(Rc::new(Event::sse(self.provider, raw, ask_terminal))),
                Frame::Array(ArrayPiece::Element(raw)) => Piece::Event(Rc::new(Event::element(self.provider, raw))),
                Frame::Array(ArrayPiece::Between(bytes)) => Piece::Between(bytes),
                Frame::Array(ArrayPiece::Close(bytes)) => Piece::Close(bytes),
            };
            let piece = match self.tap.as_mut() {
                Some(tap) => match tap.pass(piece, framing) {
                    Some(piece) => piece,
                    None => continue,
                },
                None => piece,
            };
            let content = self.tap.as_mut().and_then(Tap::restored_text);
            self.restorer.piece(&piece, tokens, &mut out, content);
        }
        if end && self.tap.is_none() {
            self.end(tokens, &mut out);
        }
        out
    }

    /// The content text for the verifier collected since the last call: the vendor's
    /// (tokenized) text, or the restored text the client was sent, per
    /// [`ResponseStream::verifying`]; empty when not verifying.
    pub fn take_text(&mut self) -> String {
        self.tap.as_mut().map(Tap::take_text).unwrap_or_default()
    }

    /// The end of the stream: the annotation event (a copy of the last content delta
    /// with `annotation` as its text, when there is both), then the held end of the
    /// stream with `annotation` appended to the whole-text repeats of that delta stream,
    /// all restored; then everything still held back.
    pub fn finish(&mut self, annotation: Option<&str>, tokens: &dyn Lookup) -> Vec<u8> {
        let mut out = Vec::new();
        let framing = self.framer.framing();
        let tail = self.tap.as_mut().map(|tap| tap.finish(annotation, framing)).unwrap_or_default();
        for piece in &tail {
            self.restorer.piece(piece, tokens, &mut out, None);
        }
        self.end(tokens, &mut out);
        out
    }

    /// The last bytes (an event without its blank line, an incomplete element) and
    /// every held-back text.
    fn end(&mut self, tokens: &dyn Lookup, out: &mut Vec<u8>) {
        let rest = self.framer.take_rest();
        match self.framer.framing() {
            Framing::Sse => {
                if !rest.is_empty() {
                    let event = Piece::Event(Rc::new(Event::sse(self.provider, rest, false)));
                    self.restorer.piece(&event, tokens, out, None);
                }
                self.restorer.flush_all(tokens, out, None);
            }
            Framing::JsonArray => {
                self.restorer.flush_all(tokens, out, None);
                out.extend_from_slice(&rest);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::token::{TokenMap, TokenMinter};

    fn tokens() -> (TokenMap, String) {
        let mut map = TokenMap::default();
        let t = map.issue(&TokenMinter::new([5; 32]), b"s", "EMAIL", b"jane@example.com");
        (map, t)
    }

    fn run(provider: Provider, framing: Framing, input: &[u8], chunk: usize, map: &TokenMap) -> Vec<u8> {
        let mut r = StreamRestorer::new(provider, framing);
        let mut out = Vec::new();
        let pieces: Vec<&[u8]> = input.chunks(chunk.max(1)).collect();
        for (i, piece) in pieces.iter().enumerate() {
            out.extend(r.feed(piece, i + 1 == pieces.len(), map));
        }
        out
    }

    fn chat_event(text: &str) -> String {
        format!(
            "data: {{\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":[{{\"index\":0,\"delta\":{{\"content\":{}}},\"finish_reason\":null}}]}}\n\n",
            serde_json::to_string(text).unwrap()
        )
    }

    /// The concatenated `delta.content` of an OpenAI chat stream.
    fn chat_text(stream: &[u8]) -> String {
        let mut text = String::new();
        for line in String::from_utf8_lossy(stream).lines() {
            if let Some(json) = line.strip_prefix("data: ") {
                if let Ok(v) = serde_json::from_str::<serde_json::Value>(json) {
                    if let Some(t) = v["choices"][0]["delta"]["content"].as_str() {
                        text.push_str(t);
                    }
                }
            }
        }
        text
    }

    #[test]
    fn a_token_split_across_events_and_chunks_is_restored() {
        let (map, t) = tokens();
        let (a, b) = t.split_at(9); // inside "«token:EM"
        let stream = format!(
            "{}{}{}data: {{\"id\":\"c1\",\"choices\":[{{\"index\":0,\"delta\":{{}},\"finish_reason\":\"stop\"}}]}}\n\ndata: [DONE]\n\n",
            chat_event("Write to "),
            chat_event(a),
            chat_event(&format!("{b} now"))
        );
        for chunk in [1, 2, 3, 7, 64, stream.len()] {
            let out = run(Provider::OpenAiChat, Framing::Sse, stream.as_bytes(), chunk, &map);
            assert_eq!(chat_text(&out), "Write to jane@example.com now", "chunk {chunk}");
            assert!(String::from_utf8_lossy(&out).ends_with("data: [DONE]\n\n"));
        }
    }

    #[test]
    fn held_text_is_flushed_before_the_finish_chunk() {
        let (map, _) = tokens();
        let stream = format!(
            "{}data: {{\"choices\":[{{\"index\":0,\"delta\":{{}},\"finish_reason\":\"stop\"}}]}}\n\ndata: [DONE]\n\n",
            chat_event("see «token:EMA")
        );
        let out = run(Provider::OpenAiChat, Framing::Sse, stream.as_bytes(), 5, &map);
        assert_eq!(chat_text(&out), "see «token:EMA");
        let text = String::from_utf8_lossy(&out);
        let flush = text.find("«token:EMA").unwrap();
        assert!(flush < text.find("finish_reason\":\"stop").unwrap());
    }

    #[test]
    fn events_without_tokens_pass_byte_identical() {
        let (map, _) = tokens();
        let stream = b": keep-alive\r\n\r\nevent: message\r\ndata: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"caf\\u00e9\"}}],\"x\":1.50}\r\n\r\ndata: [DONE]\r\n\r\n";
        assert_eq!(run(Provider::OpenAiChat, Framing::Sse, stream, 3, &map), stream.to_vec());
    }

    #[test]
    fn escaped_tokens_in_tool_arguments() {
        let (map, t) = tokens();
        let args = format!("{{\"to\":\"{}\"}}", t.replace('«', "\\u00ab").replace('»', "\\u00bb"));
        let (a, b) = args.split_at(12);
        let ev = |s: &str| {
            format!(
                "data: {{\"choices\":[{{\"index\":0,\"delta\":{{\"tool_calls\":[{{\"index\":0,\"function\":{{\"arguments\":{}}}}}]}}}}]}}\n\n",
                serde_json::to_string(s).unwrap()
            )
        };
        let stream = format!("{}{}data: [DONE]\n\n", ev(a), ev(b));
        let out = run(Provider::OpenAiChat, Framing::Sse, stream.as_bytes(), 4, &map);
        let mut args_out = String::new();
        for line in String::from_utf8_lossy(&out).lines() {
            if let Some(json) = line.strip_prefix("data: ") {
                if let Ok(v) = serde_json::from_str::<serde_json::Value>(json) {
                    args_out.push_str(
                        v["choices"][0]["delta"]["tool_calls"][0]["function"]["arguments"].as_str().unwrap_or(""),
                    );
                }
            }
        }
        let parsed: serde_json::Value = serde_json::from_str(&args_out).unwrap();
        assert_eq!(parsed["to"], "jane@example.com");
    }

    #[test]
    fn gemini_json_array_stream() {
        let (map, t) = tokens();
        let (a, b) = t.split_at(4);
        let el = |s: &str| {
            format!(
                "{{\"candidates\":[{{\"content\":{{\"parts\":[{{\"text\":{}}}],\"role\":\"model\"}},\"index\":0}}]}}",
                serde_json::to_string(s).unwrap()
            )
        };
        let stream = format!("[{}\n,\r\n{}\n,\r\n{}\n]", el("Hi "), el(&format!("x {a}")), el(&format!("{b} y «tok")));
        for chunk in [1, 5, 40, stream.len()] {
            let out = run(Provider::Gemini, Framing::JsonArray, stream.as_bytes(), chunk, &map);
            let v: serde_json::Value = serde_json::from_slice(&out)
                .unwrap_or_else(|e| panic!("chunk {chunk}: {e}: {}", String::from_utf8_lossy(&out)));
            let text: String = v
                .as_array()
                .unwrap()
                .iter()
                .map(|e| e["candidates"][0]["content"]["parts"][0]["text"].as_str().unwrap().to_string())
                .collect();
            assert_eq!(text, "Hi x jane@example.com y «tok", "chunk {chunk}");
        }
    }
}
