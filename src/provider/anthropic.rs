//! Anthropic Messages: text fields and stream events.
//!
//! Wire format: Messages objects; SSE events `message_start`, `content_block_start`,
//! `content_block_delta` (`text_delta`, `input_json_delta`), `content_block_stop`,
//! `message_delta`, `message_stop`, `ping`.

use super::{EventScan, FieldTable, Role, StreamField, StreamKey, TextKind};

pub(super) const REQUEST: FieldTable = &[
    (&["system"], TextKind::Plain),
    (&["system", "*", "text"], TextKind::Plain),
    (&["messages", "*", "content"], TextKind::Plain),
    (&["messages", "*", "content", "*", "text"], TextKind::Plain),
    (&["messages", "*", "content", "*", "input", "**"], TextKind::Plain),
    (&["messages", "*", "content", "*", "content"], TextKind::Plain),
    (&["messages", "*", "content", "*", "content", "*", "text"], TextKind::Plain),
];

pub(super) const RESPONSE: FieldTable = &[
    (&["content", "*", "text"], TextKind::Plain),
    (&["content", "*", "input", "**"], TextKind::Plain),
];

const LANE_TEXT: u8 = 0;
const LANE_INPUT_JSON: u8 = 2;

pub(super) fn stream_fields(event: &EventScan<'_>) -> Vec<StreamField> {
    let block = event.number(&["index"]).unwrap_or(0);
    let whole = |pattern: &'static [&'static str]| -> Vec<StreamField> {
        event.matching(pattern).map(|(_, span)| StreamField { span, kind: TextKind::Plain, role: Role::Whole }).collect()
    };
    match event.event_type.as_deref() {
        Some("content_block_delta") => {
            let mut out: Vec<StreamField> = event
                .matching(&["delta", "text"])
                .map(|(_, span)| StreamField {
                    span,
                    kind: TextKind::Plain,
                    role: Role::Delta(StreamKey { lane: LANE_TEXT, a: block, b: 0 }),
                })
                .collect();
            out.extend(event.matching(&["delta", "partial_json"]).map(|(_, span)| StreamField {
                span,
                kind: TextKind::EmbeddedJson,
                role: Role::Delta(StreamKey { lane: LANE_INPUT_JSON, a: block, b: 0 }),
            }));
            out
        }
        Some("content_block_start") => {
            let mut v = whole(&["content_block", "text"]);
            v.extend(whole(&["content_block", "input", "**"]));
            v
        }
        Some("message_start") => {
            let mut v = whole(&["message", "content", "*", "text"]);
            v.extend(whole(&["message", "content", "*", "input", "**"]));
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
        assert_eq!(p.request_text(&path(&["system"])), Some(TextKind::Plain));
        assert_eq!(p.request_text(&path(&["messages", "0", "content", "1", "input", "to", "0"])), Some(TextKind::Plain));
        assert_eq!(p.request_text(&path(&["messages", "0", "content", "1", "id"])), None);
        assert_eq!(p.request_text(&path(&["messages", "0", "content", "0", "source", "data"])), None);
    }

    #[test]
    fn stream_event_fields() {
        let text = r#"{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Hi «to"}}"#;
        assert_eq!(
            fields(Provider::Anthropic, text),
            vec![("Hi «to".into(), TextKind::Plain, Role::Delta(StreamKey { lane: 0, a: 1, b: 0 }))]
        );
        let json = r#"{"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{\"to\": \"«"}}"#;
        assert_eq!(
            fields(Provider::Anthropic, json),
            vec![(r#"{\"to\": \"«"#.into(), TextKind::EmbeddedJson, Role::Delta(StreamKey { lane: 2, a: 2, b: 0 }))]
        );
        assert_eq!(fields(Provider::Anthropic, r#"{"type":"content_block_stop","index":1}"#), vec![]);
    }
}
