//! OpenAI Chat Completions and Responses: text fields and stream events.
//!
//! Wire formats: Chat Completions objects and `chat.completion.chunk` SSE events;
//! Responses objects and their typed SSE events (`response.output_text.delta`, …).

use super::schema::{
    index_of, lookup, no_json_array, typed_as, Adapter, ErrorShape, EventScan, FieldTable, Provider, Role, StreamField,
    StreamKey, TextKind,
};
use crate::json::Seg;

/// Chat Completions, also as Azure OpenAI writes it.
pub(super) const CHAT: Adapter = Adapter {
    provider: Provider::OpenAiChat,
    name: "openai.chat",
    routes: &["/v1/chat/completions", "/openai/deployments/*/chat/completions"],
    structural: REQUEST_STRUCTURAL,
    response_text: chat_text,
    stream_fields: chat_stream_fields,
    terminal: chat_ends,
    json_array_stream: no_json_array,
    binary_event_stream: false,
    error: ErrorShape::OpenAi,
    // Azure OpenAI's key header after the bearer.
    credentials: &["authorization", "api-key"],
    signed: false,
};

/// Responses, also as Azure OpenAI writes it: Chat Completions' but for its routes,
/// its texts and its events.
pub(super) const RESPONSES: Adapter = Adapter {
    provider: Provider::OpenAiResponses,
    name: "openai.responses",
    routes: &["/v1/responses", "/openai/responses"],
    response_text: responses_text,
    stream_fields: responses_stream_fields,
    terminal: responses_ends,
    ..CHAT
};

fn chat_text(path: &[Seg<'_>]) -> Option<TextKind> {
    lookup(CHAT_RESPONSE, path)
}

fn responses_text(path: &[Seg<'_>]) -> Option<TextKind> {
    lookup(RESPONSES_RESPONSE, path)
}

/// `[DONE]`, or a chunk whose choices all have their `finish_reason`.
fn chat_ends(data: &[u8]) -> bool {
    data.trim_ascii() == b"[DONE]" || chat_chunk_ends(data)
}

/// The Responses events that end an answer.
fn responses_ends(data: &[u8]) -> bool {
    typed_as(data, &["response.completed", "response.incomplete", "response.failed"])
}

/// Request keys whose identifier-like values are structure, not text (with the
/// shared ones in `provider/mod.rs`).
pub(super) const REQUEST_STRUCTURAL: &[&str] = &[
    "tool_call_id",
    "call_id",
    "id",
    "previous_response_id",
    "reasoning_effort",
    "effort",
    "service_tier",
    "tool_choice",
    "truncation",
    "detail",
    "format",
    "voice",
    "modalities",
    "include",
    "verbosity",
    "prompt_cache_key",
    "safety_identifier",
];

pub(super) const CHAT_RESPONSE: FieldTable = &[
    (&["choices", "*", "message", "content"], TextKind::Plain),
    (&["choices", "*", "message", "refusal"], TextKind::Plain),
    (&["choices", "*", "message", "tool_calls", "*", "function", "arguments"], TextKind::EmbeddedJson),
    (&["choices", "*", "message", "function_call", "arguments"], TextKind::EmbeddedJson),
];

pub(super) const RESPONSES_RESPONSE: FieldTable = &[
    (&["output", "*", "content", "*", "text"], TextKind::Plain),
    (&["output", "*", "content", "*", "refusal"], TextKind::Plain),
    (&["output", "*", "arguments"], TextKind::EmbeddedJson),
];

const LANE_CONTENT: u8 = 0;
const LANE_REFUSAL: u8 = 1;
const LANE_TOOL_ARGS: u8 = 2;
const LANE_FUNCTION_CALL: u8 = 3;

/// `chat.completion.chunk`: `choices[i].delta.content`, `.refusal`, and
/// `.tool_calls[j].function.arguments` keyed by the tool call's own `index`.
pub(super) fn chat_stream_fields(event: &EventScan<'_>) -> Vec<StreamField> {
    let mut out = Vec::new();
    for (path, span) in event.matching(&["choices", "*", "delta", "content"]) {
        let key = StreamKey { lane: LANE_CONTENT, item: index_of(path, 1), part: 0 };
        out.push(StreamField { span, kind: TextKind::Plain, role: Role::Delta(key) });
    }
    for (path, span) in event.matching(&["choices", "*", "delta", "refusal"]) {
        let key = StreamKey { lane: LANE_REFUSAL, item: index_of(path, 1), part: 0 };
        out.push(StreamField { span, kind: TextKind::Plain, role: Role::Delta(key) });
    }
    for (path, span) in event.matching(&["choices", "*", "delta", "tool_calls", "*", "function", "arguments"]) {
        let (choice, position) = (index_of(path, 1), index_of(path, 4));
        let choice_s = choice.to_string();
        let position_s = position.to_string();
        let call =
            event.number(&["choices", &choice_s, "delta", "tool_calls", &position_s, "index"]).unwrap_or(position);
        let key = StreamKey { lane: LANE_TOOL_ARGS, item: choice, part: call };
        out.push(StreamField { span, kind: TextKind::EmbeddedJson, role: Role::Delta(key) });
    }
    for (path, span) in event.matching(&["choices", "*", "delta", "function_call", "arguments"]) {
        let key = StreamKey { lane: LANE_FUNCTION_CALL, item: index_of(path, 1), part: 0 };
        out.push(StreamField { span, kind: TextKind::EmbeddedJson, role: Role::Delta(key) });
    }
    out
}

/// Responses API events, by their `type`: deltas keyed by output item and content
/// part, and every place the full text is repeated (`*.done`, `response.completed`).
pub(super) fn responses_stream_fields(event: &EventScan<'_>) -> Vec<StreamField> {
    let output = event.number(&["output_index"]).unwrap_or(0);
    let content = event.number(&["content_index"]).unwrap_or(0);
    let delta = |lane: u8, part: u32, kind: TextKind| -> Vec<StreamField> {
        event
            .matching(&["delta"])
            .map(|(_, span)| StreamField { span, kind, role: Role::Delta(StreamKey { lane, item: output, part }) })
            .collect()
    };
    // A whole text and the delta stream it repeats: `lane`, with the output item and
    // content part from the path where it has them (`Some(place in the path)`), else
    // from the event's `output_index` / `content_index`.
    let whole =
        |pattern: &'static [&'static str], kind: TextKind, lane: u8, item: Option<usize>, part: Option<usize>| {
            event
                .matching(pattern)
                .map(|(path, span)| {
                    let (at_item, at_part) = (item, part);
                    let item = at_item.map_or(output, |i| index_of(path, i));
                    let part = if lane == LANE_TOOL_ARGS { 0 } else { at_part.map_or(content, |i| index_of(path, i)) };
                    StreamField { span, kind, role: Role::Whole(Some(StreamKey { lane, item, part })) }
                })
                .collect::<Vec<_>>()
        };
    let (plain, args) = (TextKind::Plain, TextKind::EmbeddedJson);
    match event.event_type.as_deref() {
        Some("response.output_text.delta") => delta(LANE_CONTENT, content, TextKind::Plain),
        Some("response.refusal.delta") => delta(LANE_REFUSAL, content, TextKind::Plain),
        Some("response.function_call_arguments.delta") => delta(LANE_TOOL_ARGS, 0, TextKind::EmbeddedJson),
        Some("response.output_text.done") => whole(&["text"], plain, LANE_CONTENT, None, None),
        Some("response.refusal.done") => whole(&["refusal"], plain, LANE_REFUSAL, None, None),
        Some("response.function_call_arguments.done") => whole(&["arguments"], args, LANE_TOOL_ARGS, None, None),
        Some("response.content_part.added" | "response.content_part.done") => {
            let mut v = whole(&["part", "text"], plain, LANE_CONTENT, None, None);
            v.extend(whole(&["part", "refusal"], plain, LANE_REFUSAL, None, None));
            v
        }
        Some("response.output_item.added" | "response.output_item.done") => {
            let mut v = whole(&["item", "content", "*", "text"], plain, LANE_CONTENT, None, Some(2));
            v.extend(whole(&["item", "content", "*", "refusal"], plain, LANE_REFUSAL, None, Some(2)));
            v.extend(whole(&["item", "arguments"], args, LANE_TOOL_ARGS, None, None));
            v
        }
        Some(_) => {
            // response.created / in_progress / completed / incomplete / failed: a snapshot.
            let mut v =
                whole(&["response", "output", "*", "content", "*", "text"], plain, LANE_CONTENT, Some(2), Some(4));
            v.extend(whole(
                &["response", "output", "*", "content", "*", "refusal"],
                plain,
                LANE_REFUSAL,
                Some(2),
                Some(4),
            ));
            v.extend(whole(&["response", "output", "*", "arguments"], args, LANE_TOOL_ARGS, Some(2), None));
            v
        }
        None => Vec::new(),
    }
}

/// A chat chunk that ends the content: a `finish_reason` that is a string (not
/// `null`), or no choices at all (the `include_usage` chunk). The marks go before it,
/// so they are part of the answer and the usage chunk stays last.
pub(super) fn chat_chunk_ends(data: &[u8]) -> bool {
    let value_after = |key: &[u8]| -> Option<u8> {
        let at = memchr::memmem::find(data, key)? + key.len();
        let rest = data.get(at..)?;
        let colon = rest.iter().position(|b| !b.is_ascii_whitespace())?;
        if rest.get(colon) != Some(&b':') {
            return None;
        }
        rest.get(colon + 1..)?.iter().copied().find(|b| !b.is_ascii_whitespace())
    };
    let finished = value_after(b"\"finish_reason\"") == Some(b'"');
    let no_choices = value_after(b"\"choices\"") == Some(b'[')
        && memchr::memmem::find(data, b"\"choices\"").and_then(|at| {
            let rest = data.get(at..)?;
            let open = rest.iter().position(|&b| b == b'[')?;
            rest.get(open + 1..)?.iter().copied().find(|b| !b.is_ascii_whitespace())
        }) == Some(b']');
    finished || no_choices
}

#[cfg(test)]
mod tests {
    use super::super::tests::fields;
    use super::super::{Provider, Role, StreamKey, TextKind};

    #[test]
    fn chat_chunk_fields() {
        let data = r#"{"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"Hi «tok"},"finish_reason":null},{"index":1,"delta":{"tool_calls":[{"index":2,"function":{"arguments":"{\"a\":"}}]}}]}"#;
        let got = fields(Provider::OpenAiChat, data);
        assert_eq!(
            got,
            vec![
                ("Hi «tok".into(), TextKind::Plain, Role::Delta(StreamKey { lane: 0, item: 0, part: 0 })),
                (r#"{\"a\":"#.into(), TextKind::EmbeddedJson, Role::Delta(StreamKey { lane: 2, item: 1, part: 2 })),
            ]
        );
        assert_eq!(
            fields(Provider::OpenAiChat, r#"{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}"#),
            vec![]
        );
    }

    #[test]
    fn responses_event_fields() {
        let delta = r#"{"type":"response.output_text.delta","item_id":"msg_1","output_index":1,"content_index":0,"delta":"Hel","sequence_number":5}"#;
        assert_eq!(
            fields(Provider::OpenAiResponses, delta),
            vec![("Hel".into(), TextKind::Plain, Role::Delta(StreamKey { lane: 0, item: 1, part: 0 }))]
        );
        let done = r#"{"type":"response.output_text.done","item_id":"msg_1","output_index":1,"content_index":0,"text":"Hello"}"#;
        // Every repeat of a text names the delta stream it repeats.
        let key = |lane, item, part| Role::Whole(Some(StreamKey { lane, item, part }));
        assert_eq!(fields(Provider::OpenAiResponses, done), vec![("Hello".into(), TextKind::Plain, key(0, 1, 0))]);
        let part = r#"{"type":"response.content_part.done","output_index":1,"content_index":2,"part":{"type":"output_text","text":"Hello"}}"#;
        assert_eq!(fields(Provider::OpenAiResponses, part), vec![("Hello".into(), TextKind::Plain, key(0, 1, 2))]);
        let item = r#"{"type":"response.output_item.done","output_index":3,"item":{"type":"message","content":[{"type":"refusal","refusal":"No"},{"type":"output_text","text":"Hello"}]}}"#;
        assert_eq!(
            fields(Provider::OpenAiResponses, item),
            vec![("Hello".into(), TextKind::Plain, key(0, 3, 1)), ("No".into(), TextKind::Plain, key(1, 3, 0))]
        );
        let completed = r#"{"type":"response.completed","response":{"id":"resp_1","output":[{"type":"message","content":[{"type":"output_text","text":"Hello"}]},{"type":"function_call","arguments":"{}","name":"f"}]}}"#;
        assert_eq!(
            fields(Provider::OpenAiResponses, completed),
            vec![("Hello".into(), TextKind::Plain, key(0, 0, 0)), ("{}".into(), TextKind::EmbeddedJson, key(2, 1, 0))]
        );
    }

    #[test]
    fn chat_chunks_that_end_the_content() {
        assert!(super::chat_chunk_ends(br#"{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}"#));
        assert!(super::chat_chunk_ends(br#"{"choices": [ {"delta": {}, "finish_reason" : "length"}]}"#));
        assert!(super::chat_chunk_ends(br#"{"id":"c","choices":[ ],"usage":{"total_tokens":3}}"#));
        assert!(!super::chat_chunk_ends(br#"{"choices":[{"index":0,"delta":{"content":"x"},"finish_reason":null}]}"#));
        assert!(!super::chat_chunk_ends(
            br#"{"choices":[{"index":0,"delta":{"content":"\"finish_reason\":\"stop\""},"finish_reason":null}]}"#
        ));
    }
}
