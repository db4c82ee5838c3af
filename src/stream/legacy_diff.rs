//! The one-framer stream against the pair it replaces (the restorer behind the tap, and
//! the collector over the restorer's output for `text: restored`), as the host drove
//! them: the same bytes per chunk, the same text per chunk, the same end and counts.

use proptest::prelude::*;
use serde_json::{json, Value};

use super::{Framing, ResponseStream, StreamRestorer};
use crate::provider::Provider;
use crate::token::{TokenMap, TokenMinter};
use crate::verify::{StreamTap, VerifiedText};

const VALUES: &[(&str, &str)] =
    &[("EMAIL", "jane.doe@example.com"), ("SSN", "123-45-6789"), ("URL", "http://wiki.corp/a?b=\"c\"")];

fn texts() -> (String, TokenMap, Vec<String>) {
    let mut map = TokenMap::default();
    let minter = TokenMinter::new([2; 32]);
    let mut tokenized = String::from("Héllo ✓ ");
    let mut tokens = Vec::new();
    for (i, (category, value)) in VALUES.iter().enumerate() {
        let token = map.issue(&minter, b"s", category, value.as_bytes());
        tokenized.push_str(&format!("{token} w{i}. "));
        tokens.push(token);
    }
    tokenized.push_str("end «token:EM");
    (tokenized, map, tokens)
}

fn deltas(text: &str, cuts: &[usize]) -> Vec<String> {
    let mut bounds: Vec<usize> =
        cuts.iter().map(|c| c % (text.len() + 1)).filter(|&c| text.is_char_boundary(c)).collect();
    bounds.extend([0, text.len()]);
    bounds.sort_unstable();
    bounds.dedup();
    bounds.windows(2).map(|w| text[w[0]..w[1]].to_string()).collect()
}

/// JSON text, with non-ASCII escaped in every other event (as Python's SDKs write it).
fn js(v: &Value, ascii: bool) -> String {
    let s = v.to_string();
    if !ascii {
        return s;
    }
    s.chars().map(|c| if c.is_ascii() { c.to_string() } else { format!("\\u{:04x}", c as u32) }).collect()
}

fn sse(event: Option<&str>, data: &Value, i: usize) -> String {
    let data = js(data, i % 2 == 1);
    match event {
        Some(e) => format!("event: {e}\r\ndata: {data}\r\n\r\n"),
        None => format!("data: {data}\n\n"),
    }
}

fn stream_for(provider: Provider, framing: Framing, pieces: &[String], whole: &str, args: bool) -> String {
    match (provider, framing) {
        (Provider::OpenAiChat, _) => {
            let mut s =
                sse(None, &json!({"id":"c","choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}), 0);
            for (i, p) in pieces.iter().enumerate() {
                let delta = if args && i % 3 == 2 {
                    json!({"content": p, "tool_calls":[{"index":0,"function":{"arguments":p}}]})
                } else {
                    json!({"content": p})
                };
                s += &sse(None, &json!({"id":"c","choices":[{"index":0,"delta":delta,"finish_reason":null}]}), i);
                if i % 4 == 3 {
                    s += ": keep-alive\n\n";
                }
            }
            s += &sse(None, &json!({"id":"c","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}), 0);
            s += &sse(None, &json!({"id":"c","choices":[],"usage":{"total_tokens":3}}), 0);
            s + "data: [DONE]\n\n"
        }
        (Provider::OpenAiResponses, _) => {
            let mut s =
                sse(Some("response.created"), &json!({"type":"response.created","response":{"id":"r","output":[]}}), 0);
            for (i, p) in pieces.iter().enumerate() {
                let kind = if args && i % 3 == 2 {
                    "response.function_call_arguments.delta"
                } else {
                    "response.output_text.delta"
                };
                let output = if args && i % 3 == 2 { 1 } else { 0 };
                s += &sse(
                    Some(kind),
                    &json!({"type":kind,"item_id":"m","output_index":output,"content_index":0,"delta":p,"sequence_number":i}),
                    i,
                );
            }
            let part = json!({"type":"output_text","text":whole,"annotations":[]});
            let item = json!({"id":"m","type":"message","content":[part],"role":"assistant"});
            let other =
                json!({"id":"n","type":"message","content":[{"type":"output_text","text":whole}],"role":"assistant"});
            s += &sse(
                Some("response.output_text.done"),
                &json!({"type":"response.output_text.done","output_index":0,"content_index":0,"text":whole}),
                1,
            );
            s += &sse(
                Some("response.content_part.done"),
                &json!({"type":"response.content_part.done","output_index":0,"content_index":0,"part":part}),
                0,
            );
            s += &sse(
                Some("response.output_item.done"),
                &json!({"type":"response.output_item.done","output_index":0,"item":item}),
                1,
            );
            s += &sse(
                Some("response.output_item.done"),
                &json!({"type":"response.output_item.done","output_index":1,"item":other}),
                0,
            );
            s + &sse(
                Some("response.completed"),
                &json!({"type":"response.completed","response":{"id":"r","output":[item, other]}}),
                1,
            )
        }
        (Provider::Anthropic, _) => {
            let mut s =
                sse(Some("message_start"), &json!({"type":"message_start","message":{"id":"m","content":[]}}), 0);
            s += &sse(
                Some("content_block_start"),
                &json!({"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}),
                0,
            );
            for (i, p) in pieces.iter().enumerate() {
                let (index, delta) = if args && i % 3 == 2 {
                    (1, json!({"type":"input_json_delta","partial_json":p}))
                } else {
                    (0, json!({"type":"text_delta","text":p}))
                };
                s += &sse(
                    Some("content_block_delta"),
                    &json!({"type":"content_block_delta","index":index,"delta":delta}),
                    i,
                );
                s += ": keep-alive\r\n\r\n";
            }
            s += &sse(Some("content_block_stop"), &json!({"type":"content_block_stop","index":0}), 0);
            s += &sse(Some("message_delta"), &json!({"type":"message_delta","delta":{"stop_reason":"end_turn"}}), 0);
            s + &sse(Some("message_stop"), &json!({"type":"message_stop"}), 0)
        }
        (Provider::Gemini, Framing::Sse) => pieces
            .iter()
            .enumerate()
            .map(|(i, p)| {
                sse(None, &json!({"candidates":[{"content":{"parts":[{"text":p}],"role":"model"},"index":0}]}), i)
            })
            .collect(),
        (Provider::Gemini, Framing::JsonArray) => {
            let elements: Vec<String> = pieces
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    js(&json!({"candidates":[{"content":{"parts":[{"text":p}],"role":"model"},"index":0}]}), i % 2 == 1)
                })
                .collect();
            format!("[{}\n]", elements.join("\n,\r\n"))
        }
        _ => String::new(),
    }
}

#[derive(Debug, PartialEq)]
struct Run {
    chunks: Vec<Vec<u8>>,
    texts: Vec<String>,
    tail: Vec<u8>,
    restored: u32,
}

fn old(
    provider: Provider,
    framing: Framing,
    verify: Option<(VerifiedText, Option<&str>)>,
    chunks: &[&[u8]],
    map: &TokenMap,
) -> Run {
    let mut restorer = StreamRestorer::new(provider, framing);
    let mut run = Run { chunks: Vec::new(), texts: Vec::new(), tail: Vec::new(), restored: 0 };
    let Some((text, annotation)) = verify else {
        for (i, c) in chunks.iter().enumerate() {
            run.chunks.push(restorer.feed(c, i + 1 == chunks.len(), map));
        }
        run.restored = restorer.restored;
        return run;
    };
    let mut tap = StreamTap::new(provider, framing);
    let mut collector = (text == VerifiedText::Restored).then(|| StreamTap::collector(provider, framing));
    for c in chunks {
        let passed = tap.feed(c);
        let mut t = if collector.is_none() { tap.take_text() } else { String::new() };
        let out = restorer.feed(&passed, false, map);
        if let Some(c) = collector.as_mut() {
            c.feed(&out);
            t = c.take_text();
        }
        run.chunks.push(out);
        run.texts.push(t);
    }
    let tail = tap.finish(annotation);
    run.tail = restorer.feed(&tail, true, map);
    run.restored = restorer.restored;
    run
}

fn new(
    provider: Provider,
    framing: Framing,
    verify: Option<(VerifiedText, Option<&str>)>,
    chunks: &[&[u8]],
    map: &TokenMap,
) -> Run {
    let mut run = Run { chunks: Vec::new(), texts: Vec::new(), tail: Vec::new(), restored: 0 };
    let Some((text, annotation)) = verify else {
        let mut s = ResponseStream::new(provider, framing);
        for (i, c) in chunks.iter().enumerate() {
            run.chunks.push(s.feed(c, i + 1 == chunks.len(), map));
        }
        run.restored = s.restored();
        return run;
    };
    let mut s = ResponseStream::verifying(provider, framing, text);
    for (i, c) in chunks.iter().enumerate() {
        run.chunks.push(s.feed(c, i + 1 == chunks.len(), map));
        run.texts.push(s.take_text());
    }
    run.tail = s.finish(annotation, map);
    run.restored = s.restored();
    run
}

const CASES: &[(Provider, Framing, bool)] = &[
    (Provider::OpenAiChat, Framing::Sse, false),
    (Provider::OpenAiChat, Framing::Sse, true),
    (Provider::OpenAiResponses, Framing::Sse, false),
    (Provider::OpenAiResponses, Framing::Sse, true),
    (Provider::Anthropic, Framing::Sse, false),
    (Provider::Anthropic, Framing::Sse, true),
    (Provider::Gemini, Framing::Sse, false),
    (Provider::Gemini, Framing::JsonArray, false),
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn the_one_framer_does_what_the_pair_did(
        delta_cuts in proptest::collection::vec(any::<usize>(), 0..30),
        chunk_cuts in proptest::collection::vec(any::<usize>(), 0..40),
        truncate in any::<bool>(),
    ) {
        let (tokenized, map, tokens) = texts();
        let marks = format!("\n\n⚠️ [Confidence: 5%] (“{} said \"x\"”)", tokens[0]);
        for &(provider, framing, args) in CASES {
            let mut input = stream_for(provider, framing, &deltas(&tokenized, &delta_cuts), &tokenized, args).into_bytes();
            if truncate {
                // A stream that ends without its blank line (or its `]`).
                let cut = input.len() - 3;
                input.truncate(cut);
            }
            let mut bounds: Vec<usize> = chunk_cuts.iter().map(|c| c % (input.len() + 1)).collect();
            bounds.extend([0, input.len()]);
            bounds.sort_unstable();
            bounds.dedup();
            let chunks: Vec<&[u8]> = bounds.windows(2).map(|w| &input[w[0]..w[1]]).collect();
            for verify in [
                None,
                Some((VerifiedText::Tokenized, None)),
                Some((VerifiedText::Tokenized, Some(marks.as_str()))),
                Some((VerifiedText::Restored, None)),
                Some((VerifiedText::Restored, Some(marks.as_str()))),
            ] {
                let want = old(provider, framing, verify, &chunks, &map);
                let got = new(provider, framing, verify, &chunks, &map);
                prop_assert_eq!(
                    &got, &want,
                    "{:?} {:?} args={} verify={:?} {}", provider, framing, args, verify, String::from_utf8_lossy(&input)
                );
            }
        }
    }
}
