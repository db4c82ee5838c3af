//! Anthropic Messages: text fields and stream events.
//!
//! Wire format: Messages objects; SSE events `message_start`, `content_block_start`,
//! `content_block_delta` (`text_delta`, `input_json_delta`), `content_block_stop`,
//! `message_delta`, `message_stop`, `ping`.

use super::schema::{
    index_of, lookup, no_json_array, typed_as, Adapter, ErrorShape, EventScan, FieldTable, Provider, Role, StreamField,
    StreamKey, TextKind,
};
use crate::json::Seg;

/// The Messages API.
pub(super) const MESSAGES: Adapter = Adapter {
    provider: Provider::Anthropic,
    name: "anthropic.messages",
    routes: &["/v1/messages", "/v1/messages/count_tokens"],
    structural: REQUEST_STRUCTURAL,
    response_text: text,
    stream_fields,
    terminal: ends,
    json_array_stream: no_json_array,
    binary_event_stream: false,
    error: ErrorShape::Anthropic,
    credentials: &["x-api-key"],
    signed: false,
};

fn text(path: &[Seg<'_>]) -> Option<TextKind> {
    lookup(RESPONSE, path)
}

/// The Messages events that end an answer.
fn ends(data: &[u8]) -> bool {
    typed_as(data, &["message_delta", "message_stop"])
}

/// Request keys whose identifier-like values are structure, not text.
pub(super) const REQUEST_STRUCTURAL: &[&str] = &["id", "tool_use_id", "media_type", "ttl", "stop_reason"];

pub(super) const RESPONSE: FieldTable =
    &[(&["content", "*", "text"], TextKind::Plain), (&["content", "*", "input", "**"], TextKind::Value)];

const LANE_TEXT: u8 = 0;
const LANE_INPUT_JSON: u8 = 2;

pub(super) fn stream_fields(event: &EventScan<'_>) -> Vec<StreamField> {
    let block = event.number(&["index"]).unwrap_or(0);
    // A whole text: the block it belongs to is the event's `index`, or its position
    // in `message.content` (`at`: that index's place in the path).
    let whole = |pattern: &'static [&'static str], at: Option<usize>| -> Vec<StreamField> {
        event
            .matching(pattern)
            .map(|(path, span)| {
                let key = StreamKey { lane: LANE_TEXT, item: at.map_or(block, |i| index_of(path, i)), part: 0 };
                StreamField { span, kind: TextKind::Plain, role: Role::Whole(Some(key)) }
            })
            .collect()
    };
    let whole_input = |pattern: &'static [&'static str]| -> Vec<StreamField> {
        event
            .matching(pattern)
            .map(|(_, span)| StreamField { span, kind: TextKind::Value, role: Role::Whole(None) })
            .collect()
    };
    match event.event_type.as_deref() {
        Some("content_block_delta") => {
            let mut out: Vec<StreamField> = event
                .matching(&["delta", "text"])
                .map(|(_, span)| StreamField {
                    span,
                    kind: TextKind::Plain,
                    role: Role::Delta(StreamKey { lane: LANE_TEXT, item: block, part: 0 }),
                })
                .collect();
            out.extend(event.matching(&["delta", "partial_json"]).map(|(_, span)| StreamField {
                span,
                kind: TextKind::EmbeddedJson,
                role: Role::Delta(StreamKey { lane: LANE_INPUT_JSON, item: block, part: 0 }),
            }));
            out
        }
        Some("content_block_start") => {
            let mut v = whole(&["content_block", "text"], None);
            v.extend(whole_input(&["content_block", "input", "**"]));
            v
        }
        Some("message_start") => {
            let mut v = whole(&["message", "content", "*", "text"], Some(2));
            v.extend(whole_input(&["message", "content", "*", "input", "**"]));
            v
        }
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{fields, path};
    use super::super::{Provider, Role, StreamKey, TextKind};

    #[test]
    fn request_fields() {
        let p = Provider::Anthropic;
        // Every string is scanned but identifiers, and base64 media.
        assert!(!p.request_structural(&path(&["system"]), b"you are helpful"));
        assert!(!p.request_structural(&path(&["metadata", "user_id"]), b"jane@example.com"));
        assert!(!p.request_structural(&path(&["messages", "0", "content", "1", "input", "to", "0"]), b"a"));
        assert!(p.request_structural(&path(&["messages", "0", "content", "1", "id"]), b"toolu_01a09q90qw90lq917835lq9"));
        assert!(p.request_structural(
            &path(&["messages", "0", "content", "0", "source", "data"]),
            b"iVBORw0KGgoAAAANSUhEUg=="
        ));
        // A document's text source is text, not media.
        assert!(!p
            .request_structural(&path(&["messages", "0", "content", "0", "source", "data"]), b"Contract for Jane Doe"));
    }

    #[test]
    fn stream_event_fields() {
        let text = r#"{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Hi «to"}}"#;
        assert_eq!(
            fields(Provider::Anthropic, text),
            vec![("Hi «to".into(), TextKind::Plain, Role::Delta(StreamKey { lane: 0, item: 1, part: 0 }))]
        );
        let json = r#"{"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{\"to\": \"«"}}"#;
        assert_eq!(
            fields(Provider::Anthropic, json),
            vec![(
                r#"{\"to\": \"«"#.into(),
                TextKind::EmbeddedJson,
                Role::Delta(StreamKey { lane: 2, item: 2, part: 0 })
            )]
        );
        assert_eq!(fields(Provider::Anthropic, r#"{"type":"content_block_stop","index":1}"#), vec![]);
        // Whole texts at a block's start name the block.
        let start = r#"{"type":"content_block_start","index":3,"content_block":{"type":"text","text":"A"}}"#;
        assert_eq!(
            fields(Provider::Anthropic, start),
            vec![("A".into(), TextKind::Plain, Role::Whole(Some(StreamKey { lane: 0, item: 3, part: 0 })))]
        );
        let message = r#"{"type":"message_start","message":{"content":[{"type":"tool_use","input":{"q":"x"}},{"type":"text","text":"B"}]}}"#;
        assert_eq!(
            fields(Provider::Anthropic, message),
            vec![
                ("B".into(), TextKind::Plain, Role::Whole(Some(StreamKey { lane: 0, item: 1, part: 0 }))),
                ("x".into(), TextKind::Value, Role::Whole(None))
            ]
        );
    }
}
