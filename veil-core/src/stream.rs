//! The response stream: one framer per response, each event parsed once, its tokens
//! restored and, when the answer is verified, its text tapped — at any split.
//!
//! [`ResponseStream`] frames the body as the network delivers it ([`Framer`]: SSE
//! events, or the pieces of Gemini's streamed JSON array) and parses each complete
//! event once (`event.rs`: its raw bytes and, per text field, where the string sits,
//! its decoded text, kind and role). A verified answer's events go to the tap first
//! (`tap.rs`: the content text for the verifier; from the first terminal
//! event or whole-text repeat on, the events are held until
//! [`ResponseStream::finish`]); every event that goes on goes to the restorer
//! (`restorer.rs`): complete events are rewritten and released at once; within a
//! logical text stream (a choice, a content block, an output item) only a trailing
//! *possible token prefix* is held back — at most
//! [`MAX_HOLDBACK`](crate::token::MAX_HOLDBACK) bytes — and released with the stream's
//! next delta, or in a copy of the stream's last delta event placed before the first
//! event that is not a delta (a finish chunk, `content_block_stop`, `[DONE]`) or at the
//! very end. Only text fields change; every other byte of every event is kept. The
//! events the stream writes itself (a held-back text on its own, the annotation, a
//! repeat with the marks) are copies of parsed events with their fields moved along,
//! so no event is parsed twice.

mod event;
mod piece;
mod restorer;
mod tap;

use std::rc::Rc;

use crate::provider::Provider;
pub use crate::sse::Framing;
use crate::sse::{ArrayPiece, Frame, Framer};
use crate::token::Lookup;
pub(crate) use event::Event;
use piece::Piece;
pub use piece::TapText;
use restorer::Restorer;
use tap::Tap;

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
    pub fn verifying(provider: Provider, framing: Framing, text: TapText) -> ResponseStream {
        ResponseStream { tap: Some(Tap::new(text)), ..ResponseStream::new(provider, framing) }
    }

    /// How the stream is framed.
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
            Framing::Lines => {
                // A last line without its line end is a line all the same.
                if !rest.trim_ascii().is_empty() {
                    let line = Piece::Event(Rc::new(Event::element(self.provider, rest)));
                    self.restorer.piece(&line, tokens, out, None);
                } else {
                    out.extend_from_slice(&rest);
                }
                self.restorer.flush_all(tokens, out, None);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::provider::STREAM_FIELDS_RUNS;
    use crate::token::{TokenMap, TokenMinter};

    fn tokens() -> (TokenMap, String) {
        let mut map = TokenMap::default();
        let t = map.issue(&TokenMinter::new([5; 32]), b"s", "EMAIL", b"jane@example.com");
        (map, t)
    }

    fn run(provider: Provider, framing: Framing, input: &[u8], chunk: usize, map: &TokenMap) -> Vec<u8> {
        let mut r = ResponseStream::new(provider, framing);
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

    /// A chat stream event whose delta is a piece `s` of tool-call arguments.
    fn ev(s: &str) -> String {
        format!(
            "data: {{\"choices\":[{{\"index\":0,\"delta\":{{\"tool_calls\":[{{\"index\":0,\"function\":{{\"arguments\":{}}}}}]}}}}]}}\n\n",
            serde_json::to_string(s).unwrap()
        )
    }

    /// The concatenated tool-call arguments of a chat stream.
    fn args_of(stream: &[u8]) -> String {
        let mut args = String::new();
        for line in String::from_utf8_lossy(stream).lines() {
            if let Some(json) = line.strip_prefix("data: ") {
                if let Ok(v) = serde_json::from_str::<serde_json::Value>(json) {
                    args.push_str(
                        v["choices"][0]["delta"]["tool_calls"][0]["function"]["arguments"].as_str().unwrap_or(""),
                    );
                }
            }
        }
        args
    }

    #[test]
    fn escaped_tokens_in_tool_arguments() {
        let (map, t) = tokens();
        let args = format!("{{\"to\":\"{}\"}}", t.replace('«', "\\u00ab").replace('»', "\\u00bb"));
        let (a, b) = args.split_at(12);
        let stream = format!("{}{}data: [DONE]\n\n", ev(a), ev(b));
        let out = run(Provider::OpenAiChat, Framing::Sse, stream.as_bytes(), 4, &map);
        let parsed: serde_json::Value = serde_json::from_str(&args_of(&out)).unwrap();
        assert_eq!(parsed["to"], "jane@example.com");
    }

    /// A number the request carried comes back in tool arguments as its token between
    /// quotes, split anywhere: restored as the number, so the arguments parse to it.
    #[test]
    fn a_number_token_in_streamed_arguments_is_restored_as_the_number() {
        let mut map = TokenMap::default();
        let mut value = crate::token::NUMBER_MARK.to_vec();
        value.extend_from_slice(b"123456789");
        let t = map.issue(&TokenMinter::new([5; 32]), b"s", "SSN", &value);
        let args = format!("{{\"ssn\":\"{t}\",\"note\":\"SSN {t}\"}}");
        for split in 1..args.len() {
            let Some((a, b)) = args.split_at_checked(split) else { continue };
            let stream = format!("{}{}data: [DONE]\n\n", ev(a), ev(b));
            let out = run(Provider::OpenAiChat, Framing::Sse, stream.as_bytes(), 7, &map);
            let parsed: serde_json::Value = serde_json::from_str(&args_of(&out)).unwrap();
            assert_eq!(parsed, serde_json::json!({"ssn": 123456789, "note": "SSN 123456789"}), "split {split}");
        }
    }

    /// An API without an adapter (an OpenAI-compatible provider, Vertex's Anthropic
    /// `:streamRawPredict`): a token split across events is rejoined by the text's JSON
    /// path and its objects' `index`, in SSE and in NDJSON streams, at any chunking.
    #[test]
    fn generic_streams_rejoin_tokens_by_path() {
        let (map, t) = tokens();
        let (a, b) = t.split_at(11);
        let text_of = |out: &[u8], pick: &dyn Fn(&serde_json::Value) -> Option<String>| -> String {
            let mut text = String::new();
            for line in String::from_utf8_lossy(out).lines() {
                let json = line.strip_prefix("data: ").unwrap_or(line);
                if let Ok(v) = serde_json::from_str::<serde_json::Value>(json) {
                    text.push_str(&pick(&v).unwrap_or_default());
                }
            }
            text
        };
        // Anthropic's events on Vertex: two blocks, the token split inside the second.
        let ev = |index: u32, s: &str| {
            format!(
                "event: content_block_delta\ndata: {{\"type\":\"content_block_delta\",\"index\":{index},\"delta\":{{\"type\":\"text_delta\",\"text\":{}}}}}\n\n",
                serde_json::to_string(s).unwrap()
            )
        };
        let stream = format!(
            "{}{}{}{}event: message_stop\ndata: {{\"type\":\"message_stop\"}}\n\n",
            ev(0, "First. "),
            ev(1, &format!("Mail {a}")),
            ev(1, &format!("{b} now")),
            ev(1, "."),
        );
        let block = |i: usize| {
            move |v: &serde_json::Value| {
                (v["index"] == i).then(|| v["delta"]["text"].as_str().unwrap_or_default().to_string())
            }
        };
        for chunk in [1, 5, 13, stream.len()] {
            let out = run(Provider::Generic, Framing::Sse, stream.as_bytes(), chunk, &map);
            assert_eq!(text_of(&out, &block(1)), "Mail jane@example.com now.", "chunk {chunk}");
            assert_eq!(text_of(&out, &block(0)), "First. ", "chunk {chunk}");
            assert!(String::from_utf8_lossy(&out).ends_with("data: {\"type\":\"message_stop\"}\n\n"));
        }
        // Two choices of an OpenAI-compatible stream, interleaved, each with its own token.
        let chunk_ev = |i: u32, s: &str| {
            format!(
                "data: {{\"choices\":[{{\"index\":{i},\"delta\":{{\"content\":{}}}}}]}}\n\n",
                serde_json::to_string(s).unwrap()
            )
        };
        let stream = format!(
            "{}{}{}{}data: [DONE]\n\n",
            chunk_ev(0, a),
            chunk_ev(1, a),
            chunk_ev(0, b),
            chunk_ev(1, &format!("{b}!"))
        );
        let choice = |i: usize| {
            move |v: &serde_json::Value| {
                (v["choices"][0]["index"] == i)
                    .then(|| v["choices"][0]["delta"]["content"].as_str().unwrap_or_default().to_string())
            }
        };
        for chunk in [1, 7, stream.len()] {
            let out = run(Provider::Generic, Framing::Sse, stream.as_bytes(), chunk, &map);
            assert_eq!(text_of(&out, &choice(0)), "jane@example.com", "chunk {chunk}");
            assert_eq!(text_of(&out, &choice(1)), "jane@example.com!", "chunk {chunk}");
        }
        // NDJSON (an Ollama-style stream), the last line without its line end.
        let line = |s: &str, done: bool| {
            format!(
                "{{\"message\":{{\"role\":\"assistant\",\"content\":{}}},\"done\":{done}}}",
                serde_json::to_string(s).unwrap()
            )
        };
        let stream =
            format!("{}\n{}\r\n\n{}", line(&format!("to {a}"), false), line(&format!("{b}."), false), line("", true));
        let content = |v: &serde_json::Value| v["message"]["content"].as_str().map(str::to_string);
        for chunk in [1, 3, 16, stream.len()] {
            let out = run(Provider::Generic, Framing::Lines, stream.as_bytes(), chunk, &map);
            assert_eq!(text_of(&out, &content), "to jane@example.com.", "chunk {chunk}");
            let text = String::from_utf8(out).unwrap();
            assert!(
                text.lines().filter(|l| !l.is_empty()).all(|l| serde_json::from_str::<serde_json::Value>(l).is_ok()),
                "{text}"
            );
        }
        // Nothing to restore: byte for byte.
        let plain = format!("{}\n{}\n", line("hello", false), line("", true));
        assert_eq!(run(Provider::Generic, Framing::Lines, plain.as_bytes(), 4, &map), plain.as_bytes());
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
    /// Every event's text fields are found once, however the stream is split and
    /// whether or not its answer is verified: the restorer, the tap and the events the
    /// stream writes itself (a held-back text on its own, the annotation, the repeats
    /// with the marks) share one parse.
    #[test]
    fn each_event_is_parsed_once() {
        let (map, t) = tokens();
        let (a, b) = t.split_at(9);
        let tail = format!("{b} now «tok");
        let json = |s: &str| serde_json::to_string(s).unwrap();
        let whole = json(&format!("Write to {t} now «tok"));
        let ev = |kind: &str, body: &str| format!("event: {kind}\ndata: {{\"type\":\"{kind}\",{body}}}\n\n");
        let delta = |s: &str| {
            ev("response.output_text.delta", &format!(r#""output_index":0,"content_index":0,"delta":{}"#, json(s)))
        };
        let responses = vec![
            ev("response.created", r#""response":{"id":"r"}"#),
            delta("Write to "),
            delta(a),
            ": keep-alive\n\n".to_string(),
            delta(&tail),
            ev("response.output_text.done", &format!(r#""output_index":0,"content_index":0,"text":{whole}"#)),
            ev(
                "response.completed",
                &format!(
                    r#""response":{{"output":[{{"type":"message","content":[{{"type":"output_text","text":{whole}}}]}}]}}"#
                ),
            ),
        ];
        let chat = vec![
            chat_event("Write to "),
            chat_event(a),
            chat_event(&tail),
            "data: {\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n".to_string(),
            "data: [DONE]\n\n".to_string(),
        ];
        let block = |s: &str| {
            ev("content_block_delta", &format!(r#""index":0,"delta":{{"type":"text_delta","text":{}}}"#, json(s)))
        };
        let anthropic = vec![
            block("Write to "),
            block(a),
            block(&tail),
            ev("content_block_stop", r#""index":0"#),
            ev("message_delta", r#""delta":{"stop_reason":"end_turn"}"#),
            ev("message_stop", ""),
        ];
        let el = |s: &str| {
            format!(r#"{{"candidates":[{{"content":{{"parts":[{{"text":{}}}],"role":"model"}},"index":0}}]}}"#, json(s))
        };
        let gemini =
            vec!["[".to_string(), el("Write to "), "\n,\r\n".into(), el(a), "\n,\r\n".into(), el(&tail), "\n]".into()];
        let annotation = format!("\n\n⚠️ [Confidence: 5%] (“{t}”)");
        for (provider, framing, events, parsed) in [
            (Provider::OpenAiResponses, Framing::Sse, responses, 6),
            (Provider::OpenAiChat, Framing::Sse, chat, 5),
            (Provider::Anthropic, Framing::Sse, anthropic, 6),
            (Provider::Gemini, Framing::JsonArray, gemini, 3),
        ] {
            let stream = events.concat();
            for chunk in [1, 7, stream.len()] {
                for text in [None, Some(TapText::Tokenized), Some(TapText::Restored)] {
                    STREAM_FIELDS_RUNS.with(|runs| runs.set(0));
                    let mut s = match text {
                        None => ResponseStream::new(provider, framing),
                        Some(text) => ResponseStream::verifying(provider, framing, text),
                    };
                    let mut out = Vec::new();
                    let pieces: Vec<&[u8]> = stream.as_bytes().chunks(chunk).collect();
                    for (i, piece) in pieces.iter().enumerate() {
                        out.extend(s.feed(piece, i + 1 == pieces.len(), &map));
                        s.take_text();
                    }
                    out.extend(s.finish(Some(&annotation), &map));
                    let runs = STREAM_FIELDS_RUNS.with(|runs| runs.get());
                    let case = format!("{provider:?} chunk {chunk} text {text:?}");
                    assert_eq!(runs, parsed, "{case}");
                    let out = String::from_utf8(out).unwrap();
                    assert!(out.contains("jane@example.com") && !out.contains(t.as_str()), "{case}: {out}");
                    assert_eq!(out.contains("⚠️"), text.is_some(), "{case}");
                }
            }
        }
    }
}
