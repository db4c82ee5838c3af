//! Verification of a streamed response: collect the text as it passes, hold back the
//! terminal event, and put one provider-shaped text event before it at the end.
//!
//! [`StreamTap`] sits in front of the token restorer. It passes every complete event
//! on at once (only an incomplete event waits, as in the restorer), keeps the text of
//! the content deltas for the verifier, and from the first *terminal* event on —
//! the finish chunk, the usage chunk or `[DONE]` (OpenAI Chat), `response.completed` /
//! `incomplete` / `failed` (Responses),
//! `message_delta` / `message_stop` (Anthropic), the closing `]` of Gemini's array —
//! or the first event that repeats the whole text streamed so far (the Responses API's
//! `response.output_text.done`, then `content_part.done`, `output_item.done` and the
//! final snapshot) holds the rest until [`StreamTap::finish`], which puts the
//! annotation event in front of it. The annotation event is a copy of the stream's
//! last content delta with its text replaced, so it has every field an SDK expects;
//! and every held repeat of that delta stream's text gets the annotation appended, so
//! the vendor's whole-text events say what the client was sent.

use std::rc::Rc;

use super::VerifiedText;
use crate::edit::{splice, Edit};
use crate::json;
use crate::provider::{Provider, Role, StreamField, StreamKey, TextKind};
use crate::sse::{ArrayPiece, ArraySplitter, SseEvent, SseSplitter};
use crate::stream::{Event, Framing, Piece};

/// The content text lane of every provider (see `provider::*::stream_fields`).
const CONTENT_LANE: u8 = 0;

#[derive(Debug)]
pub struct StreamTap {
    provider: Provider,
    framing: Framing,
    hold_terminal: bool,
    sse: SseSplitter,
    array: ArraySplitter,
    /// Text of content deltas not yet taken.
    text: String,
    /// The last content delta event (raw) and its stream key.
    template: Option<(Vec<u8>, StreamKey)>,
    /// Everything from the first terminal event (or repeat) on, piece by piece.
    tail: Vec<Vec<u8>>,
    holding: bool,
}

impl StreamTap {
    pub fn new(provider: Provider, framing: Framing) -> StreamTap {
        StreamTap {
            provider,
            framing,
            hold_terminal: true,
            sse: SseSplitter::default(),
            array: ArraySplitter::default(),
            text: String::new(),
            template: None,
            tail: Vec::new(),
            holding: false,
        }
    }

    pub fn collector(provider: Provider, framing: Framing) -> StreamTap {
        StreamTap { hold_terminal: false, ..StreamTap::new(provider, framing) }
    }

    /// Takes the text collected since the last call.
    pub fn take_text(&mut self) -> String {
        std::mem::take(&mut self.text)
    }

    /// Has the terminal event been seen (and held)?
    pub fn holding(&self) -> bool {
        self.holding
    }

    /// Takes the next chunk; returns the bytes to pass on now.
    pub fn feed(&mut self, chunk: &[u8]) -> Vec<u8> {
        let mut out = Vec::with_capacity(chunk.len());
        match self.framing {
            Framing::Sse => {
                self.sse.push(chunk);
                while let Some(event) = self.sse.next_event() {
                    self.sse_event(event, &mut out);
                }
            }
            Framing::JsonArray => {
                self.array.push(chunk);
                while let Some(piece) = self.array.next_piece() {
                    match piece {
                        ArrayPiece::Between(bytes) => self.pass(bytes, &mut out),
                        ArrayPiece::Element(element) => {
                            let fields = self.provider.stream_fields(&element).unwrap_or_default();
                            self.note(&element, &element, &fields);
                            self.pass(element, &mut out);
                        }
                        ArrayPiece::Close(bytes) => {
                            if self.hold_terminal {
                                self.holding = true;
                            }
                            self.pass(bytes, &mut out);
                        }
                    }
                }
            }
        }
        out
    }

    fn pass(&mut self, bytes: Vec<u8>, out: &mut Vec<u8>) {
        if self.holding {
            self.tail.push(bytes);
        } else {
            out.extend_from_slice(&bytes);
        }
    }

    fn sse_event(&mut self, raw: Vec<u8>, out: &mut Vec<u8>) {
        let event = SseEvent::parse(&raw);
        if let Some(data) = event.data.as_deref() {
            let fields = self.provider.stream_fields(data).unwrap_or_default();
            if self.hold_terminal && !self.holding && (self.provider.is_terminal(data) || self.repeats(&fields)) {
                self.holding = true;
            }
            if !self.holding {
                self.note(&raw, data, &fields);
            }
        }
        self.pass(raw, out);
    }

    /// Does this event repeat the whole text of the delta stream the marks would join?
    fn repeats(&self, fields: &[StreamField]) -> bool {
        let Some((_, key)) = self.template else { return false };
        fields.iter().any(|f| f.role == Role::Whole(Some(key)))
    }

    /// Collects the content deltas of one event.
    fn note(&mut self, raw: &[u8], data: &[u8], fields: &[StreamField]) {
        for field in fields {
            let Role::Delta(key) = field.role else { continue };
            if key.lane != CONTENT_LANE || field.kind != TextKind::Plain {
                continue;
            }
            let decoded = json::decode(data.get(field.span.start..field.span.end).unwrap_or_default());
            self.text.push_str(&decoded.text());
            self.template = Some((raw.to_vec(), key));
        }
    }

    /// The end of the stream: the annotation event (when there is text to add and a
    /// delta to copy), then whatever was held, its repeats of that delta stream's
    /// text with the annotation appended.
    pub fn finish(&mut self, annotation: Option<&str>) -> Vec<u8> {
        let mut out = Vec::new();
        let tail = std::mem::take(&mut self.tail);
        let marks = annotation
            .zip(self.template.as_ref())
            .and_then(|(text, (template, key))| Some((self.event_with_text(template, *key, text)?, *key, text)));
        match marks {
            Some((event, key, text)) => {
                out.extend_from_slice(&event);
                for piece in tail {
                    out.extend(self.append_to_repeats(piece, key, text));
                }
            }
            None => tail.iter().for_each(|piece| out.extend_from_slice(piece)),
        }
        out.extend_from_slice(&self.sse.take_rest());
        out.extend_from_slice(&self.array.take_rest());
        out
    }

    /// A held SSE event whose whole-text repeats of `key` end with `text` (other pieces
    /// as they are).
    fn append_to_repeats(&self, raw: Vec<u8>, key: StreamKey, text: &str) -> Vec<u8> {
        if self.framing != Framing::Sse {
            return raw;
        }
        let event = SseEvent::parse(&raw);
        let Some(data) = event.data.as_deref() else { return raw };
        let Ok(fields) = self.provider.stream_fields(data) else { return raw };
        let mut edits = Vec::new();
        for field in fields.iter().filter(|f| f.role == Role::Whole(Some(key))) {
            let Some((_, end)) = event.raw_range(field.span.end, field.span.end) else { return raw };
            let mut replacement = Vec::new();
            json::escape_into(&mut replacement, text);
            edits.push(Edit { start: end, end, replacement });
        }
        if edits.is_empty() {
            return raw;
        }
        edits.sort_by_key(|e| e.start);
        splice(&raw, edits)
    }

    fn event_with_text(&self, template: &[u8], key: StreamKey, text: &str) -> Option<Vec<u8>> {
        match self.framing {
            Framing::Sse => {
                let event = SseEvent::parse(template);
                let data = event.data.as_deref()?;
                replace_delta(self.provider, template, data, key, text, |s, e| event.raw_range(s, e))
            }
            Framing::JsonArray => {
                let element = replace_delta(self.provider, template, template, key, text, |s, e| Some((s, e)))?;
                Some([b",\r\n".as_slice(), &element].concat())
            }
        }
    }
}

/// A copy of `raw` whose delta for `key` holds `text` and whose other deltas are empty.
fn replace_delta(
    provider: Provider,
    raw: &[u8],
    data: &[u8],
    key: StreamKey,
    text: &str,
    to_raw: impl Fn(usize, usize) -> Option<(usize, usize)>,
) -> Option<Vec<u8>> {
    let mut edits = Vec::new();
    for field in provider.stream_fields(data).ok()? {
        let Role::Delta(k) = field.role else { continue };
        let mut replacement = Vec::new();
        if k == key {
            json::escape_into(&mut replacement, text);
        }
        let (start, end) = to_raw(field.span.start, field.span.end)?;
        edits.push(Edit { start, end, replacement });
    }
    Some(splice(raw, edits))
}

/// What verification keeps of a response stream ([`ResponseStream::verifying`]).
#[derive(Debug)]
pub(crate) struct Tap {
    text: VerifiedText,
    /// Content text not yet taken.
    collected: String,
    /// The last content delta event that went on, and its stream key.
    template: Option<(Rc<Event>, StreamKey)>,
    /// Everything from the first terminal event (or repeat) on.
    held: Vec<Piece>,
    holding: bool,
}

impl Tap {
    pub fn new(text: VerifiedText) -> Tap {
        Tap { text, collected: String::new(), template: None, held: Vec::new(), holding: false }
    }

    /// Has the end of the stream begun (and is it held)?
    pub fn holding(&self) -> bool {
        self.holding
    }

    pub fn held_bytes(&self) -> usize {
        self.held.iter().map(Piece::len).sum()
    }

    /// Takes the text collected since the last call.
    pub fn take_text(&mut self) -> String {
        std::mem::take(&mut self.collected)
    }

    /// Where the restorer puts the restored content text it writes, when that is the
    /// text the verifier reads.
    pub fn restored_text(&mut self) -> Option<&mut String> {
        (self.text == VerifiedText::Restored).then_some(&mut self.collected)
    }

    /// Takes one piece of the stream: `Some` when it goes on now, `None` when it is held
    /// (from the first terminal event or whole-text repeat on; with array framing, from
    /// the closing `]`). Of a piece that goes on, notes the content deltas.
    pub fn pass(&mut self, piece: Piece, framing: Framing) -> Option<Piece> {
        if !self.holding {
            self.holding = match &piece {
                Piece::Event(event) => {
                    framing == Framing::Sse && event.fields.is_some() && (event.terminal || self.repeats(event))
                }
                Piece::Close(_) => true,
                Piece::Between(_) => false,
            };
        }
        if self.holding {
            self.held.push(piece);
            return None;
        }
        if let Piece::Event(event) = &piece {
            self.note(event);
        }
        Some(piece)
    }

    /// Does this event repeat the whole text of the delta stream the marks would join?
    fn repeats(&self, event: &Event) -> bool {
        let Some((_, key)) = self.template else { return false };
        event.fields().iter().any(|f| f.role == Role::Whole(Some(key)))
    }

    /// Collects the content deltas of one event that goes on.
    fn note(&mut self, event: &Rc<Event>) {
        for field in event.fields().iter().filter(|f| f.is_content()) {
            let Role::Delta(key) = field.role else { continue };
            if self.text == VerifiedText::Tokenized {
                self.collected.push_str(&String::from_utf8_lossy(&field.text));
            }
            self.template = Some((Rc::clone(event), key));
        }
    }

    /// The end of the stream, to be restored: the annotation event (when there is text
    /// to add and a delta to copy), then whatever was held, its repeats of that delta
    /// stream's text with the annotation appended.
    pub fn finish(&mut self, annotation: Option<&str>, framing: Framing) -> Vec<Piece> {
        let held = std::mem::take(&mut self.held);
        let marks = annotation
            .zip(self.template.as_ref())
            .and_then(|(text, (template, key))| Some((template.with_delta(*key, text)?, *key, text)));
        let Some((event, key, text)) = marks else { return held };
        let mut pieces = Vec::with_capacity(held.len() + 2);
        if framing == Framing::JsonArray {
            pieces.push(Piece::Between(b",\r\n".to_vec()));
        }
        pieces.push(Piece::Event(Rc::new(event)));
        for piece in held {
            pieces.push(match piece {
                Piece::Event(event) if framing == Framing::Sse => match event.with_appended(key, text) {
                    Some(marked) => Piece::Event(Rc::new(marked)),
                    None => Piece::Event(event),
                },
                other => other,
            });
        }
        pieces
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(tap: &mut StreamTap, input: &[u8], chunk: usize, annotation: Option<&str>) -> (Vec<u8>, String) {
        let mut out = Vec::new();
        let mut text = String::new();
        for piece in input.chunks(chunk.max(1)) {
            out.extend(tap.feed(piece));
            text.push_str(&tap.take_text());
        }
        out.extend(tap.finish(annotation));
        (out, text)
    }

    fn data_lines(stream: &[u8]) -> Vec<serde_json::Value> {
        String::from_utf8_lossy(stream)
            .lines()
            .filter_map(|l| l.strip_prefix("data: "))
            .filter_map(|d| serde_json::from_str(d).ok())
            .collect()
    }

    #[test]
    fn openai_chat_annotation_goes_before_the_finish_chunk() {
        let ev = |t: &str| {
            format!("data: {{\"id\":\"c\",\"choices\":[{{\"index\":0,\"delta\":{{\"content\":{}}},\"finish_reason\":null}}]}}\n\n", serde_json::to_string(t).unwrap())
        };
        let stream = format!("{}{}data: {{\"id\":\"c\",\"choices\":[{{\"index\":0,\"delta\":{{}},\"finish_reason\":\"stop\"}}]}}\n\ndata: [DONE]\n\n", ev("Cats "), ev("bark. Zürich."));
        for chunk in [1, 3, 17, stream.len()] {
            let mut tap = StreamTap::new(Provider::OpenAiChat, Framing::Sse);
            let (out, text) = run(&mut tap, stream.as_bytes(), chunk, Some("\n\n⚠️ note"));
            assert_eq!(text, "Cats bark. Zürich.");
            let s = String::from_utf8(out).unwrap();
            assert!(s.ends_with("data: [DONE]\n\n"), "{s}");
            let events = data_lines(s.as_bytes());
            let mark = &events[events.len() - 2];
            assert_eq!(mark["choices"][0]["delta"]["content"], "\n\n⚠️ note");
            assert_eq!(mark["id"], "c");
            assert_eq!(events.last().unwrap()["choices"][0]["finish_reason"], "stop");
            // Without an annotation the stream is unchanged.
            let mut tap = StreamTap::new(Provider::OpenAiChat, Framing::Sse);
            assert_eq!(run(&mut tap, stream.as_bytes(), chunk, None).0, stream.as_bytes());
        }
    }

    #[test]
    fn terminal_events_are_held_until_finish() {
        let stream = "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Hi.\"}}\n\nevent: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\nevent: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"}}\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";
        let mut tap = StreamTap::new(Provider::Anthropic, Framing::Sse);
        let passed = tap.feed(stream.as_bytes());
        assert!(tap.holding());
        let passed = String::from_utf8(passed).unwrap();
        assert!(passed.ends_with("content_block_stop\",\"index\":0}\n\n"));
        let rest = String::from_utf8(tap.finish(Some(" [x]"))).unwrap();
        assert!(rest.starts_with("event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\" [x]\"}}\n\nevent: message_delta"), "{rest}");
        assert!(rest.ends_with("message_stop\"}\n\n"));
    }

    #[test]
    fn responses_and_gemini_shapes() {
        let stream = "event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"item_id\":\"m\",\"output_index\":0,\"content_index\":0,\"delta\":\"A.\",\"sequence_number\":3}\n\nevent: response.output_text.done\ndata: {\"type\":\"response.output_text.done\",\"text\":\"A.\"}\n\nevent: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{}}\n\n";
        let mut tap = StreamTap::new(Provider::OpenAiResponses, Framing::Sse);
        let (out, text) = run(&mut tap, stream.as_bytes(), 5, Some("!"));
        assert_eq!(text, "A.");
        let events = data_lines(&out);
        let types: Vec<&str> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
        assert_eq!(
            types,
            [
                "response.output_text.delta",
                "response.output_text.delta",
                "response.output_text.done",
                "response.completed"
            ]
        );
        assert_eq!(events[1]["delta"], "!");
        assert_eq!(events[2]["text"], "A.!", "the repeat says what the client was sent");

        let el = |t: &str| {
            format!(
                "{{\"candidates\":[{{\"content\":{{\"parts\":[{{\"text\":{}}}],\"role\":\"model\"}},\"index\":0}}]}}",
                serde_json::to_string(t).unwrap()
            )
        };
        let array = format!("[{}\n,\r\n{}\n]", el("One. "), el("Two."));
        let mut tap = StreamTap::new(Provider::Gemini, Framing::JsonArray);
        let (out, text) = run(&mut tap, array.as_bytes(), 4, Some(" [mark]"));
        assert_eq!(text, "One. Two.");
        let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
        let parts: Vec<&str> = v
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["candidates"][0]["content"]["parts"][0]["text"].as_str().unwrap())
            .collect();
        assert_eq!(parts, ["One. ", "Two.", " [mark]"]);

        let sse = format!("data: {}\r\n\r\ndata: {}\r\n\r\n", el("One. "), el("Two."));
        let mut tap = StreamTap::new(Provider::Gemini, Framing::Sse);
        let (out, _) = run(&mut tap, sse.as_bytes(), 7, Some(" [mark]"));
        let events = data_lines(&out);
        assert_eq!(events.len(), 3);
        assert_eq!(events[2]["candidates"][0]["content"]["parts"][0]["text"], " [mark]");
    }

    /// The Responses API repeats the whole text four times after its last delta; each
    /// repeat of the marked part gets the marks, nothing else in those events changes,
    /// and another item's text is left alone.
    #[test]
    fn responses_repeats_of_the_text_carry_the_marks() {
        let ev = |kind: &str, body: &str| format!("event: {kind}\ndata: {{\"type\":\"{kind}\",{body}}}\n\n");
        let part = r#"{"type":"output_text","text":"Hi \u00e9.","annotations":[]}"#;
        let message =
            format!(r#"{{"id":"msg_1","type":"message","status":"completed","content":[{part}],"role":"assistant"}}"#);
        let call = r#"{"type":"function_call","id":"fc_1","arguments":"{\"text\":\"Hi é.\"}","name":"f"}"#;
        let stream = [
            ev("response.created", r#""response":{"id":"r","output":[]},"sequence_number":0"#),
            ev("response.output_text.delta", r#""item_id":"msg_1","output_index":0,"content_index":0,"delta":"Hi ","sequence_number":1"#),
            ev("response.output_text.delta", r#""item_id":"msg_1","output_index":0,"content_index":0,"delta":"\u00e9.","sequence_number":2"#),
            ev("response.output_text.done", r#""item_id":"msg_1","output_index":0,"content_index":0,"text":"Hi \u00e9.","sequence_number":3"#),
            ev("response.content_part.done", &format!(r#""item_id":"msg_1","output_index":0,"content_index":0,"part":{part},"sequence_number":4"#)),
            ev("response.output_item.done", &format!(r#""output_index":0,"item":{message},"sequence_number":5"#)),
            ev("response.output_item.done", &format!(r#""output_index":1,"item":{call},"sequence_number":6"#)),
            ev("response.completed", &format!(r#""response":{{"id":"r","status":"completed","output":[{message},{call}],"usage":{{"total_tokens":3}}}},"sequence_number":7"#)),
        ]
        .concat();
        let marks = "\n\n⚠️ [Confidence: 5%] \"quoted\"";
        for chunk in [1, 7, stream.len()] {
            let mut tap = StreamTap::new(Provider::OpenAiResponses, Framing::Sse);
            let (out, text) = run(&mut tap, stream.as_bytes(), chunk, Some(marks));
            assert_eq!(text, "Hi é.");
            let events = data_lines(&out);
            let types: Vec<&str> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
            assert_eq!(types[3], "response.output_text.delta", "the marks before the first repeat: {types:?}");
            assert_eq!(events[3]["delta"], marks);
            let full = format!("Hi é.{marks}");
            assert_eq!(events[4]["text"], full.as_str());
            assert_eq!(events[5]["part"]["text"], full.as_str());
            assert_eq!(events[6]["item"]["content"][0]["text"], full.as_str());
            assert_eq!(events[7]["item"]["arguments"], "{\"text\":\"Hi é.\"}", "another item's text is not touched");
            assert_eq!(events[8]["response"]["output"][0]["content"][0]["text"], full.as_str());
            assert_eq!(events[8]["response"]["output"][1]["arguments"], "{\"text\":\"Hi é.\"}");
            // Only the text changed: the raw events are the originals plus the escaped marks.
            let escaped = serde_json::to_string(marks).unwrap();
            let escaped = &escaped[1..escaped.len() - 1];
            let out = String::from_utf8(out).unwrap();
            let annotation_event = out.split("\n\n").nth(3).unwrap().to_string() + "\n\n";
            assert_eq!(out.replace(&annotation_event, "").replace(escaped, ""), stream);
            // Without marks the stream is unchanged, byte for byte.
            let mut tap = StreamTap::new(Provider::OpenAiResponses, Framing::Sse);
            assert_eq!(run(&mut tap, stream.as_bytes(), chunk, None).0, stream.as_bytes());
        }
    }

    #[test]
    fn collector_does_not_hold() {
        let stream = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"x\"}}]}\n\ndata: [DONE]\n\n";
        let mut tap = StreamTap::collector(Provider::OpenAiChat, Framing::Sse);
        let (out, text) = run(&mut tap, stream.as_bytes(), 2, None);
        assert_eq!((out.as_slice(), text.as_str()), (stream.as_bytes(), "x"));
        assert!(!tap.holding());
    }
}
