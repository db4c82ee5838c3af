//! The tap: what a verifying response stream
//! ([`ResponseStream::verifying`]) does for it — collect the text as it passes, hold
//! back the end, and put one provider-shaped text event before it at the end.
//!
//! [`Tap`] sees every parsed event before the restorer. It lets every event go on at
//! once, keeps the text of the content deltas for the verifier (the vendor's, or with
//! `text: restored` the restorer's output for them), and from the first *terminal*
//! event on — the finish chunk, the usage chunk or `[DONE]` (OpenAI Chat),
//! `response.completed` / `incomplete` / `failed` (Responses), `message_delta` /
//! `message_stop` (Anthropic), the closing `]` of Gemini's array — or the first event
//! that repeats the whole text streamed so far (the Responses API's
//! `response.output_text.done`, then `content_part.done`, `output_item.done` and the
//! final snapshot) holds the rest until [`ResponseStream::finish`], which puts the
//! annotation event in front of it. The annotation event is a copy of the stream's last
//! content delta with its text replaced, so it has every field an SDK expects; and
//! every held repeat of that delta stream's text gets the annotation appended, so the
//! vendor's whole-text events say what the client was sent.
//!
//! [`ResponseStream::verifying`]: crate::stream::ResponseStream::verifying
//! [`ResponseStream::finish`]: crate::stream::ResponseStream::finish

use std::rc::Rc;

use super::event::Event;
use super::piece::{Piece, TapText};
use crate::provider::{Role, StreamKey};
use crate::sse::Framing;

/// What verification keeps of a response stream.
#[derive(Debug)]
pub(crate) struct Tap {
    text: TapText,
    /// Content text not yet taken.
    collected: String,
    /// The last content delta event that went on, and its stream key.
    template: Option<(Rc<Event>, StreamKey)>,
    /// Everything from the first terminal event (or repeat) on.
    held: Vec<Piece>,
    holding: bool,
}

impl Tap {
    pub fn new(text: TapText) -> Tap {
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
        (self.text == TapText::Restored).then_some(&mut self.collected)
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
            if self.text == TapText::Tokenized {
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
        if framing == Framing::Lines {
            pieces.push(Piece::Between(b"\n".to_vec()));
        }
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
    use crate::provider::Provider;
    use crate::stream::ResponseStream;
    use crate::token::{TokenMap, TokenMinter};

    /// Feeds `input` in chunks of `chunk` bytes, taking the text after each, then
    /// finishes with `annotation`: as the host does.
    fn run_with(
        stream: &mut ResponseStream,
        input: &[u8],
        chunk: usize,
        annotation: Option<&str>,
        tokens: &TokenMap,
    ) -> (Vec<u8>, String) {
        let mut out = Vec::new();
        let mut text = String::new();
        let pieces: Vec<&[u8]> = input.chunks(chunk.max(1)).collect();
        for (i, piece) in pieces.iter().enumerate() {
            out.extend(stream.feed(piece, i + 1 == pieces.len(), tokens));
            text.push_str(&stream.take_text());
        }
        out.extend(stream.finish(annotation, tokens));
        (out, text)
    }

    fn run(stream: &mut ResponseStream, input: &[u8], chunk: usize, annotation: Option<&str>) -> (Vec<u8>, String) {
        run_with(stream, input, chunk, annotation, &TokenMap::default())
    }

    fn verifying(provider: Provider, framing: Framing) -> ResponseStream {
        ResponseStream::verifying(provider, framing, TapText::Tokenized)
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
            let mut tap = verifying(Provider::OpenAiChat, Framing::Sse);
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
            let mut tap = verifying(Provider::OpenAiChat, Framing::Sse);
            assert_eq!(run(&mut tap, stream.as_bytes(), chunk, None).0, stream.as_bytes());
        }
    }

    #[test]
    fn terminal_events_are_held_until_finish() {
        let stream = "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Hi.\"}}\n\nevent: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\nevent: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"}}\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";
        let none = TokenMap::default();
        let mut tap = verifying(Provider::Anthropic, Framing::Sse);
        let passed = tap.feed(stream.as_bytes(), true, &none);
        let held = stream.find("event: message_delta").unwrap();
        assert_eq!(tap.held_bytes(), stream.len() - held, "message_delta and message_stop are held");
        let passed = String::from_utf8(passed).unwrap();
        assert!(passed.ends_with("content_block_stop\",\"index\":0}\n\n"));
        let rest = String::from_utf8(tap.finish(Some(" [x]"), &none)).unwrap();
        assert!(rest.starts_with("event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\" [x]\"}}\n\nevent: message_delta"), "{rest}");
        assert!(rest.ends_with("message_stop\"}\n\n"));
    }

    #[test]
    fn responses_and_gemini_shapes() {
        let stream = "event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"item_id\":\"m\",\"output_index\":0,\"content_index\":0,\"delta\":\"A.\",\"sequence_number\":3}\n\nevent: response.output_text.done\ndata: {\"type\":\"response.output_text.done\",\"text\":\"A.\"}\n\nevent: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{}}\n\n";
        let mut tap = verifying(Provider::OpenAiResponses, Framing::Sse);
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
        let mut tap = verifying(Provider::Gemini, Framing::JsonArray);
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
        let mut tap = verifying(Provider::Gemini, Framing::Sse);
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
            let mut tap = verifying(Provider::OpenAiResponses, Framing::Sse);
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
            let mut tap = verifying(Provider::OpenAiResponses, Framing::Sse);
            assert_eq!(run(&mut tap, stream.as_bytes(), chunk, None).0, stream.as_bytes());
        }
    }

    /// With `text: restored` the verifier reads what the client was sent: the
    /// restorer's output for the content deltas that went on (a held-back token
    /// prefix when it goes on, not what the end of the stream releases later) —
    /// however the stream is split.
    #[test]
    fn restored_text_is_what_the_client_was_sent() {
        let mut map = TokenMap::default();
        let t = map.issue(&TokenMinter::new([5; 32]), b"s", "EMAIL", b"jane@example.com");
        let (a, b) = t.split_at(9);
        let json = |s: &str| serde_json::to_string(s).unwrap();
        let tail = format!("{b} now. See «token:EM");
        let chat = |s: &str| {
            format!("data: {{\"id\":\"c\",\"choices\":[{{\"index\":0,\"delta\":{{\"content\":{}}},\"finish_reason\":null}}]}}\n\n", json(s))
        };
        let chat = [chat("Write to "), chat(a), chat(&tail)].concat()
            + "data: {\"id\":\"c\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n";
        let block = |s: &str| {
            format!("event: content_block_delta\ndata: {{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{{\"type\":\"text_delta\",\"text\":{}}}}}\n\n", json(s))
        };
        let anthropic = [block("Write to "), block(a), block(&tail)].concat()
            + "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n"
            + "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";
        let el = |s: &str| {
            format!(r#"{{"candidates":[{{"content":{{"parts":[{{"text":{}}}],"role":"model"}},"index":0}}]}}"#, json(s))
        };
        let gemini = format!("[{}\n,\r\n{}\n,\r\n{}\n]", el("Write to "), el(a), el(&tail));
        let tokenized = format!("Write to {t} now. See «token:EM");
        for (provider, framing, stream, restored) in [
            // The finish chunk is held: the held-back prefix goes out with the end, after
            // the verifier read the text.
            (Provider::OpenAiChat, Framing::Sse, chat, "Write to jane@example.com now. See "),
            // `content_block_stop` goes on, and the prefix before it.
            (Provider::Anthropic, Framing::Sse, anthropic, "Write to jane@example.com now. See «token:EM"),
            (Provider::Gemini, Framing::JsonArray, gemini, "Write to jane@example.com now. See "),
        ] {
            for chunk in [1, 2, 3, 7, 64, stream.len()] {
                let mut s = ResponseStream::verifying(provider, framing, TapText::Restored);
                let (out, text) = run_with(&mut s, stream.as_bytes(), chunk, Some(" [x]"), &map);
                assert_eq!(text, restored, "{provider:?} chunk {chunk}");
                let mut s = ResponseStream::verifying(provider, framing, TapText::Tokenized);
                let (same, text) = run_with(&mut s, stream.as_bytes(), chunk, Some(" [x]"), &map);
                assert_eq!(text, tokenized, "{provider:?} chunk {chunk}");
                assert_eq!(out, same, "{provider:?} chunk {chunk}: the text read changes nothing sent");
            }
        }
    }
}
