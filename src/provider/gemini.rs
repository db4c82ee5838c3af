//! Google Gemini `generateContent` / `streamGenerateContent`: text fields and chunks.
//!
//! Wire format: `GenerateContentRequest` / `GenerateContentResponse` (camelCase; the
//! REST API also accepts snake_case in requests). A stream is a sequence of complete
//! responses, as SSE (`alt=sse`) or as one JSON array delivered incrementally.

use super::{index_of, EventScan, FieldTable, Role, StreamField, StreamKey, TextKind};

pub(super) const REQUEST: FieldTable = &[
    (&["contents", "*", "parts", "*", "text"], TextKind::Plain),
    (&["systemInstruction", "parts", "*", "text"], TextKind::Plain),
    (&["system_instruction", "parts", "*", "text"], TextKind::Plain),
    (&["contents", "*", "parts", "*", "functionCall", "args", "**"], TextKind::Plain),
    (&["contents", "*", "parts", "*", "function_call", "args", "**"], TextKind::Plain),
    (&["contents", "*", "parts", "*", "functionResponse", "response", "**"], TextKind::Plain),
    (&["contents", "*", "parts", "*", "function_response", "response", "**"], TextKind::Plain),
];

pub(super) const RESPONSE: FieldTable = &[
    (&["candidates", "*", "content", "parts", "*", "text"], TextKind::Plain),
    (&["candidates", "*", "content", "parts", "*", "functionCall", "args", "**"], TextKind::Plain),
];

pub(super) fn stream_fields(event: &EventScan<'_>) -> Vec<StreamField> {
    let mut out: Vec<StreamField> = event
        .matching(&["candidates", "*", "content", "parts", "*", "text"])
        .map(|(path, span)| StreamField {
            span,
            kind: TextKind::Plain,
            role: Role::Delta(StreamKey { lane: 0, a: index_of(path, 1), b: 0 }),
        })
        .collect();
    out.extend(
        event
            .matching(&["candidates", "*", "content", "parts", "*", "functionCall", "args", "**"])
            .map(|(_, span)| StreamField { span, kind: TextKind::Plain, role: Role::Whole(None) }),
    );
    out
}

#[cfg(test)]
mod tests {
    use super::super::tests::{fields, path};
    use super::super::{Provider, Role, StreamKey, TextKind};

    #[test]
    fn request_and_stream_fields() {
        let p = Provider::Gemini;
        assert_eq!(p.request_text(&path(&["contents", "0", "parts", "0", "text"])), Some(TextKind::Plain));
        assert_eq!(p.request_text(&path(&["contents", "0", "parts", "1", "inlineData", "data"])), None);
        assert_eq!(p.request_text(&path(&["generationConfig", "responseMimeType"])), None);
        let chunk = r#"{"candidates":[{"content":{"parts":[{"text":"Hi «"}],"role":"model"},"index":0}],"modelVersion":"gemini-2.0-flash"}"#;
        assert_eq!(
            fields(p, chunk),
            vec![("Hi «".into(), TextKind::Plain, Role::Delta(StreamKey { lane: 0, a: 0, b: 0 }))]
        );
    }
}
