//! Google Gemini `generateContent` / `streamGenerateContent`: text fields and chunks.
//!
//! Wire format: `GenerateContentRequest` / `GenerateContentResponse` (camelCase; the
//! REST API also accepts snake_case in requests). A stream is a sequence of complete
//! responses, as SSE (`alt=sse`) or as one JSON array delivered incrementally.

use super::schema::{
    index_of, lookup, Adapter, ErrorShape, EventScan, FieldTable, Provider, Role, StreamField, StreamKey, TextKind,
};
use crate::json::Seg;

/// `generateContent`, `streamGenerateContent` and `countTokens` of the Gemini API and
/// Vertex AI.
pub(super) const GENERATE: Adapter = Adapter {
    provider: Provider::Gemini,
    name: "gemini",
    routes: &[
        "/v1beta/models/*:generateContent",
        "/v1beta/models/*:streamGenerateContent",
        "/v1beta/models/*:countTokens",
        "/v1beta/tunedModels/*:generateContent",
        "/v1beta/tunedModels/*:streamGenerateContent",
        "/v1/models/*:generateContent",
        "/v1/models/*:streamGenerateContent",
        "/v1/models/*:countTokens",
        "/v1/projects/*/locations/*/publishers/*/models/*:generateContent",
        "/v1/projects/*/locations/*/publishers/*/models/*:streamGenerateContent",
        "/v1beta1/projects/*/locations/*/publishers/*/models/*:generateContent",
        "/v1beta1/projects/*/locations/*/publishers/*/models/*:streamGenerateContent",
    ],
    structural: REQUEST_STRUCTURAL,
    response_text: text,
    stream_fields,
    // A stream ends with its last chunk; no event says so.
    terminal: |_| false,
    json_array_stream,
    binary_event_stream: false,
    error: ErrorShape::Google,
    credentials: &["x-goog-api-key"],
    signed: false,
};

fn text(path: &[Seg<'_>]) -> Option<TextKind> {
    lookup(RESPONSE, path)
}

/// Whether the response to a request at `path` (normalized, lower case) whose `alt`
/// query parameter is `alt` is one JSON array delivered in pieces:
/// `:streamGenerateContent` without `alt=sse`.
pub(super) fn json_array_stream(path: &str, alt: Option<&[u8]>) -> bool {
    path.ends_with(":streamgeneratecontent") && alt.is_none_or(|alt| !alt.eq_ignore_ascii_case(b"sse"))
}

/// Request keys whose identifier-like values are structure, not text (camelCase and
/// the snake_case the REST API also accepts).
pub(super) const REQUEST_STRUCTURAL: &[&str] = &[
    "mimeType",
    "mime_type",
    "responseMimeType",
    "response_mime_type",
    "mode",
    "cachedContent",
    "cached_content",
    "language",
    "outcome",
    "category",
    "threshold",
    "method",
];

pub(super) const RESPONSE: FieldTable = &[
    (&["candidates", "*", "content", "parts", "*", "text"], TextKind::Plain),
    (&["candidates", "*", "content", "parts", "*", "functionCall", "args", "**"], TextKind::Value),
];

pub(super) fn stream_fields(event: &EventScan<'_>) -> Vec<StreamField> {
    let mut out: Vec<StreamField> = event
        .matching(&["candidates", "*", "content", "parts", "*", "text"])
        .map(|(path, span)| StreamField {
            span,
            kind: TextKind::Plain,
            role: Role::Delta(StreamKey { lane: 0, item: index_of(path, 1), part: 0 }),
        })
        .collect();
    out.extend(
        event
            .matching(&["candidates", "*", "content", "parts", "*", "functionCall", "args", "**"])
            .map(|(_, span)| StreamField { span, kind: TextKind::Value, role: Role::Whole(None) }),
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
        assert!(!p.request_structural(&path(&["contents", "0", "parts", "0", "text"]), b"hi"));
        assert!(!p.request_structural(&path(&["contents", "0", "parts", "0", "executableCode", "code"]), b"print(1)"));
        assert!(
            p.request_structural(&path(&["contents", "0", "parts", "1", "inlineData", "data"]), b"iVBORw0KGgoAAAA/+==")
        );
        assert!(p.request_structural(&path(&["generationConfig", "responseMimeType"]), b"application/json"));
        let chunk = r#"{"candidates":[{"content":{"parts":[{"text":"Hi «"}],"role":"model"},"index":0}],"modelVersion":"gemini-2.0-flash"}"#;
        assert_eq!(
            fields(p, chunk),
            vec![("Hi «".into(), TextKind::Plain, Role::Delta(StreamKey { lane: 0, item: 0, part: 0 }))]
        );
    }
}
