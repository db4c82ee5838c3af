//! The split-anywhere property: for recorded-shape streams of every provider, any
//! split of the byte stream into chunks yields the same bytes as the unsplit stream,
//! and the client-visible text equals the original values.

use proptest::prelude::*;
use serde_json::{json, Value};
use veil_core::provider::Provider;
use veil_core::stream::{Framing, ResponseStream};
use veil_core::token::{TokenMap, TokenMinter};

const VALUES: &[(&str, &str)] = &[
    ("EMAIL", "jane.doe@example.com"),
    ("SSN", "123-45-6789"),
    ("PHONE", "(415) 555-0132"),
    ("INTERNAL_URL", "http://wiki.corp/a?b=\"c\""),
];

/// The original text, the tokenized text the vendor echoes, and the token map.
fn texts() -> (String, String, TokenMap) {
    let mut map = TokenMap::default();
    let minter = TokenMinter::new([2; 32]);
    let mut original = String::from("Héllo ✓ ");
    let mut tokenized = original.clone();
    for (i, (category, value)) in VALUES.iter().enumerate() {
        let token = map.issue(&minter, b"s", category, value.as_bytes());
        original.push_str(&format!("{value} w{i} "));
        tokenized.push_str(&format!("{token} w{i} "));
    }
    (original, tokenized, map)
}

/// Splits `text` into pieces at the given char-boundary fractions.
fn deltas(text: &str, cuts: &[usize]) -> Vec<String> {
    let mut bounds: Vec<usize> =
        cuts.iter().map(|c| c % (text.len() + 1)).filter(|&c| text.is_char_boundary(c)).collect();
    bounds.push(0);
    bounds.push(text.len());
    bounds.sort_unstable();
    bounds.dedup();
    bounds.windows(2).map(|w| text[w[0]..w[1]].to_string()).collect()
}

fn sse(event: Option<&str>, data: &Value) -> String {
    match event {
        Some(e) => format!("event: {e}\r\ndata: {data}\r\n\r\n"),
        None => format!("data: {data}\n\n"),
    }
}

/// A vendor stream of `pieces` in the wire format of `provider`, and how to read the
/// client-visible text back out of an event's JSON.
fn stream_for(provider: Provider, framing: Framing, pieces: &[String], args: bool) -> String {
    match (provider, framing) {
        (Provider::OpenAiChat, _) => {
            let mut s = sse(
                None,
                &json!({"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}),
            );
            for p in pieces {
                let delta = if args {
                    json!({"tool_calls":[{"index":0,"function":{"arguments":p}}]})
                } else {
                    json!({"content": p})
                };
                s += &sse(
                    None,
                    &json!({"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":delta,"finish_reason":null}]}),
                );
            }
            s += &sse(None, &json!({"id":"c","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}));
            s + "data: [DONE]\n\n"
        }
        (Provider::OpenAiResponses, _) => {
            let kind = if args { "response.function_call_arguments.delta" } else { "response.output_text.delta" };
            let mut s = String::new();
            for (i, p) in pieces.iter().enumerate() {
                s += &sse(
                    Some(kind),
                    &json!({"type":kind,"item_id":"m","output_index":0,"content_index":0,"delta":p,"sequence_number":i}),
                );
            }
            let done = if args { "response.function_call_arguments.done" } else { "response.output_text.done" };
            s + &sse(Some(done), &json!({"type":done,"output_index":0,"content_index":0,"text":"","arguments":""}))
        }
        (Provider::Anthropic, _) => {
            let mut s = sse(
                Some("content_block_start"),
                &json!({"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}),
            );
            for p in pieces {
                let delta = if args {
                    json!({"type":"input_json_delta","partial_json":p})
                } else {
                    json!({"type":"text_delta","text":p})
                };
                s += &sse(Some("content_block_delta"), &json!({"type":"content_block_delta","index":0,"delta":delta}));
                s += ": keep-alive\r\n\r\n";
            }
            s + &sse(Some("content_block_stop"), &json!({"type":"content_block_stop","index":0}))
                + &sse(Some("message_stop"), &json!({"type":"message_stop"}))
        }
        (Provider::Gemini, Framing::Sse) => pieces
            .iter()
            .map(|p| sse(None, &json!({"candidates":[{"content":{"parts":[{"text":p}],"role":"model"},"index":0}]})))
            .collect(),
        (Provider::Gemini, Framing::JsonArray) => {
            let elements: Vec<String> = pieces
                .iter()
                .map(|p| {
                    serde_json::to_string_pretty(
                        &json!({"candidates":[{"content":{"parts":[{"text":p}],"role":"model"},"index":0}]}),
                    )
                    .unwrap()
                })
                .collect();
            format!("[{}\n]", elements.join("\n,\r\n"))
        }
        (Provider::Generic, _) | (Provider::Gemini, Framing::Lines) => unreachable!(),
    }
}

/// The text a client would assemble from the restored stream.
fn client_text(provider: Provider, framing: Framing, out: &[u8], args: bool) -> String {
    let text = String::from_utf8(out.to_vec()).expect("restored stream is UTF-8");
    let datas: Vec<Value> = if framing == Framing::JsonArray {
        serde_json::from_str::<Vec<Value>>(&text).expect("restored array is JSON")
    } else {
        text.split(['\n', '\r'])
            .filter_map(|l| l.strip_prefix("data: "))
            .filter_map(|d| serde_json::from_str(d).ok())
            .collect()
    };
    let mut s = String::new();
    for v in datas {
        let piece = match provider {
            Provider::OpenAiChat if args => &v["choices"][0]["delta"]["tool_calls"][0]["function"]["arguments"],
            Provider::OpenAiChat => &v["choices"][0]["delta"]["content"],
            Provider::OpenAiResponses => {
                if v["type"].as_str().is_some_and(|t| t.ends_with(".delta")) {
                    &v["delta"]
                } else {
                    &Value::Null
                }
            }
            Provider::Anthropic if args => &v["delta"]["partial_json"],
            Provider::Anthropic => &v["delta"]["text"],
            Provider::Gemini => &v["candidates"][0]["content"]["parts"][0]["text"],
            Provider::Generic => &Value::Null,
        };
        s.push_str(piece.as_str().unwrap_or(""));
    }
    s
}

fn restore(provider: Provider, framing: Framing, input: &[u8], cuts: &[usize], map: &TokenMap) -> Vec<u8> {
    let mut bounds: Vec<usize> = cuts.iter().map(|c| c % (input.len() + 1)).collect();
    bounds.push(0);
    bounds.push(input.len());
    bounds.sort_unstable();
    bounds.dedup();
    let mut r = ResponseStream::new(provider, framing);
    let mut out = Vec::new();
    let last = bounds.len() - 2;
    for (i, w) in bounds.windows(2).enumerate() {
        out.extend(r.feed(&input[w[0]..w[1]], i == last, map));
        assert!(r.held_bytes() <= input.len());
    }
    if bounds.len() < 2 {
        out.extend(r.feed(b"", true, map));
    }
    out
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
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn any_split_restores_the_same_text(
        delta_cuts in proptest::collection::vec(any::<usize>(), 0..40),
        chunk_cuts in proptest::collection::vec(any::<usize>(), 0..80),
    ) {
        let (original, tokenized, map) = texts();
        for &(provider, framing, args) in CASES {
            // Tool arguments are JSON text: the model writes the JSON-escaped token.
            let (want, sent) = if args {
                (serde_json::to_string(&json!({"q": original})).unwrap(), serde_json::to_string(&json!({"q": tokenized})).unwrap())
            } else {
                (original.clone(), tokenized.clone())
            };
            let input = stream_for(provider, framing, &deltas(&sent, &delta_cuts), args);
            let whole = restore(provider, framing, input.as_bytes(), &[], &map);
            let split = restore(provider, framing, input.as_bytes(), &chunk_cuts, &map);
            prop_assert_eq!(&split, &whole, "{:?} {:?} args={}", provider, framing, args);
            prop_assert_eq!(client_text(provider, framing, &split, args), want, "{:?} {:?} args={}", provider, framing, args);
        }
    }
}

#[test]
fn escaped_guillemets_in_arguments_are_restored_across_splits() {
    let (original, tokenized, map) = texts();
    // ensure_ascii-style JSON: « and » as \u00ab / \u00bb inside the arguments.
    let sent = serde_json::to_string(&json!({"q": tokenized})).unwrap().replace('«', "\\u00ab").replace('»', "\\u00bb");
    let pieces = deltas(&sent, &[7, 19, 23, 40, 41, 42, 60, 75, 90, 101, 130]);
    let input = stream_for(Provider::OpenAiChat, Framing::Sse, &pieces, true);
    let out = restore(Provider::OpenAiChat, Framing::Sse, input.as_bytes(), &[3, 50, 51, 400], &map);
    let args = client_text(Provider::OpenAiChat, Framing::Sse, &out, true);
    let parsed: Value = serde_json::from_str(&args).unwrap();
    assert_eq!(parsed["q"], original.as_str());
}
