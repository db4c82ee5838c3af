//! Provider adapters: which JSON string fields are text, and how the vendor shapes errors.
//!
//! An adapter never parses a body itself; it answers "is the string at this path
//! text?" for the scanner in [`crate::json`], so every field it does not name —
//! model names, ids, roles, base64 media, unknown future fields — passes untouched.
//! For streams it also says which text is a *delta* of which logical stream (choice,
//! content block, output item) and which is a whole text repeated at the end.

mod anthropic;
mod gemini;
mod openai;
mod schema;

use crate::json::{self, path_matches, JsonError, Seg};
pub(crate) use schema::{EventScan, FieldTable};
pub use schema::{Provider, Role, StreamField, StreamKey, TextKind};

/// Request keys whose values are structure in every vendor API: model names, roles,
/// type tags, status enums. A value under one is left unscanned only when it looks
/// like an identifier ([`identifier_like`]); anything else there is scanned like text,
/// so a sentence, an email or a number put in `model` or `role` is still found.
pub const STRUCTURAL_KEYS: &[&str] = &["model", "role", "type", "object", "status"];

/// Request keys whose values may be binary media: left unscanned only when the value
/// is base64 or a base64 `data:` URL ([`media_like`]); a URL or text there is scanned.
pub const MEDIA_KEYS: &[&str] = &[
    "data",
    "b64_json",
    "file_data",
    "image_url",
    "url",
    "image",
    "audio",
    "bytes",
    "signature",
    "thought_signature",
    "thoughtSignature",
    "encrypted_content",
];

/// Keys whose string values are never natural-language text in any vendor API.
const GENERIC_SKIP_KEYS: &[&str] = &[
    "model",
    "role",
    "id",
    "type",
    "object",
    "tool_call_id",
    "call_id",
    "previous_response_id",
    "mime_type",
    "mimeType",
    "media_type",
    "data",
    "image_url",
    "url",
    "file_id",
    "fileUri",
    "file_uri",
    "encoding",
    "format",
    "detail",
    "stop_reason",
    "finish_reason",
    "voice",
    "signature",
];

/// Every API's request paths, by provider: the routes a policy has unless it lists
/// its own (`routes`). A new provider adds its module's list here.
pub fn default_routes() -> impl Iterator<Item = (&'static str, Provider)> {
    [openai::ROUTES, anthropic::ROUTES, gemini::ROUTES].into_iter().flatten().copied()
}

/// Whether the response to a request at `path` (normalized, lower case) whose `alt`
/// query parameter is `alt` is a JSON array streamed in pieces (Gemini's
/// `:streamGenerateContent` without `alt=sse`), not SSE.
pub fn json_array_stream(path: &str, alt: Option<&[u8]>) -> bool {
    gemini::json_array_stream(path, alt)
}

impl Provider {
    /// Short name for audit events and metrics.
    pub fn name(self) -> &'static str {
        match self {
            Provider::OpenAiChat => "openai.chat",
            Provider::OpenAiResponses => "openai.responses",
            Provider::Anthropic => "anthropic.messages",
            Provider::Gemini => "gemini",
            Provider::Generic => "generic",
        }
    }

    /// The request keys (beyond [`STRUCTURAL_KEYS`]) whose identifier-like values are
    /// structure for this API.
    pub fn structural_keys(self) -> &'static [&'static str] {
        match self {
            Provider::OpenAiChat | Provider::OpenAiResponses => openai::REQUEST_STRUCTURAL,
            Provider::Anthropic => anthropic::REQUEST_STRUCTURAL,
            Provider::Gemini => gemini::REQUEST_STRUCTURAL,
            // Any API: the union, since a generic route may be any of them.
            Provider::Generic => GENERIC_STRUCTURAL,
        }
    }

    /// Is the request string at `path`, whose raw contents (between the quotes) are
    /// `raw`, structure that is left unscanned? Everything else in a request is scanned:
    /// the rule is "every string but structure", not "the fields we know".
    ///
    /// The key that decides is the string's own (for an array of strings, the array's):
    /// a structural key deeper in a path (`input.data.text`) does not exempt what is
    /// under it.
    pub fn request_structural(self, path: &[Seg<'_>], raw: &[u8]) -> bool {
        let Some(key) = json::own_key(path).map(|k| k.as_ref()) else { return false };
        if MEDIA_KEYS.contains(&key) && media_like(raw) {
            return true;
        }
        (STRUCTURAL_KEYS.contains(&key) || self.structural_keys().contains(&key)) && identifier_like(raw)
    }

    /// Is the request string at `path` a base64 media payload ([`MEDIA_KEYS`],
    /// [`media_like`])? The redactor decodes such a payload and searches what it holds.
    pub fn request_media(self, path: &[Seg<'_>], raw: &[u8]) -> bool {
        json::own_key(path).map(|k| k.as_ref()).is_some_and(|key| MEDIA_KEYS.contains(&key)) && media_like(raw)
    }

    /// Is the response string at `path` text in which tokens are restored?
    pub fn response_text(self, path: &[Seg<'_>]) -> Option<TextKind> {
        match self {
            Provider::OpenAiChat => lookup(openai::CHAT_RESPONSE, path),
            Provider::OpenAiResponses => lookup(openai::RESPONSES_RESPONSE, path),
            Provider::Anthropic => lookup(anthropic::RESPONSE, path),
            Provider::Gemini => lookup(gemini::RESPONSE, path),
            Provider::Generic => generic(path),
        }
    }

    /// The text fields of one stream event's JSON `data`. `Err` when the data is not
    /// JSON (`[DONE]`, a keep-alive): such events carry no text.
    pub fn stream_fields(self, data: &[u8]) -> Result<Vec<StreamField>, JsonError> {
        #[cfg(test)]
        STREAM_FIELDS_RUNS.with(|runs| runs.set(runs.get() + 1));
        let mut event = EventScan::default();
        json::visit_scalars(data, &mut |path, scalar| event.note(data, path, scalar))?;
        Ok(match self {
            Provider::OpenAiChat => openai::chat_stream_fields(&event),
            Provider::OpenAiResponses => openai::responses_stream_fields(&event),
            Provider::Anthropic => anthropic::stream_fields(&event),
            Provider::Gemini => gemini::stream_fields(&event),
            Provider::Generic => generic_stream_fields(&event),
        })
    }

    /// An error body shaped like the vendor's own, so its SDK surfaces `message`.
    /// `code` is a stable Veil error code; `message` must never contain payload.
    pub fn error_body(self, status: u16, code: &str, message: &str) -> Vec<u8> {
        let value = match self {
            Provider::OpenAiChat | Provider::OpenAiResponses | Provider::Generic => serde_json::json!({
                "error": {
                    "message": message,
                    "type": if matches!(status, 400 | 413 | 415) { "invalid_request_error" } else { "veil_policy_error" },
                    "param": null,
                    "code": code,
                }
            }),
            Provider::Anthropic => serde_json::json!({
                "type": "error",
                "error": {
                    "type": match status {
                        400 | 415 => "invalid_request_error",
                        413 => "request_too_large",
                        403 => "permission_error",
                        _ => "api_error",
                    },
                    "message": message,
                    "veil_code": code,
                }
            }),
            Provider::Gemini => serde_json::json!({
                "error": {
                    "code": status,
                    "message": message,
                    "status": match status {
                        400 | 413 | 415 => "INVALID_ARGUMENT",
                        403 => "PERMISSION_DENIED",
                        _ => "INTERNAL",
                    },
                    "details": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": code, "domain": "veil"}],
                }
            }),
        };
        serde_json::to_vec(&value).unwrap_or_default()
    }

    /// Is this event's data the provider's end of stream?
    pub fn is_terminal(self, data: &[u8]) -> bool {
        #[derive(serde::Deserialize)]
        struct Typed<'a> {
            #[serde(rename = "type", borrow)]
            kind: Option<std::borrow::Cow<'a, str>>,
        }
        match self {
            Provider::OpenAiChat => data.trim_ascii() == b"[DONE]" || openai::chat_chunk_ends(data),
            Provider::Generic => data.trim_ascii() == b"[DONE]",
            Provider::OpenAiResponses | Provider::Anthropic => {
                let Ok(typed) = serde_json::from_slice::<Typed<'_>>(data) else { return false };
                matches!(
                    typed.kind.as_deref(),
                    Some(
                        "response.completed"
                            | "response.incomplete"
                            | "response.failed"
                            | "message_delta"
                            | "message_stop"
                    )
                )
            }
            Provider::Gemini => false,
        }
    }
}

#[cfg(test)]
thread_local! {
    /// How many times this thread ran [`Provider::stream_fields`]: tests count parses.
    pub(crate) static STREAM_FIELDS_RUNS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// The lane of every text stream of an API without an adapter.
const LANE_GENERIC: u8 = u8::MAX;

/// An API without an adapter (an OpenAI-compatible provider, Azure v1, Vertex's
/// Anthropic `:streamRawPredict`, an unknown proxy): every text string of an event is
/// the next piece of the text stream at its JSON path, so a token split across events
/// is rejoined as in the named APIs. A stream is its path with each enclosing object's
/// `index` (a choice's, a content block's, a tool call's): `choices[0].delta.content`
/// of choice 1 and of choice 2 are two streams. Tool arguments (`arguments`,
/// `partial_json`) are JSON inside a string.
fn generic_stream_fields(event: &EventScan<'_>) -> Vec<StreamField> {
    event
        .strings
        .iter()
        .filter(|(path, _)| generic(path).is_some())
        .map(|(path, span)| {
            let embedded = matches!(json::own_key(path).map(|k| k.as_ref()), Some("arguments" | "partial_json"));
            let kind = if embedded { TextKind::EmbeddedJson } else { TextKind::Plain };
            StreamField { span: *span, kind, role: Role::Delta(generic_key(path, event)) }
        })
        .collect()
}

/// The generic stream a string at `path` belongs to: a hash (FNV-1a, 64 bits) of its
/// path and of the `index` numbers of the objects it is in.
fn generic_key(path: &[Seg<'_>], event: &EventScan<'_>) -> StreamKey {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut mix = |bytes: &[u8]| {
        for &b in bytes {
            hash ^= u64::from(b);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    for depth in 0..path.len() {
        let enclosing = path.get(..depth).unwrap_or_default();
        let index = event.numbers.iter().find(|(p, _)| {
            p.len() == depth + 1
                && p.get(..depth) == Some(enclosing)
                && matches!(p.last(), Some(Seg::Key(k)) if k == "index")
        });
        if let Some((_, n)) = index {
            mix(b"#");
            mix(&n.to_le_bytes());
        }
        match path.get(depth) {
            Some(Seg::Key(k)) => {
                mix(b"k");
                mix(k.as_bytes());
            }
            Some(Seg::Index(i)) => {
                mix(b"i");
                mix(&(*i as u64).to_le_bytes());
            }
            None => {}
        }
    }
    StreamKey { lane: LANE_GENERIC, item: (hash >> 32) as u32, part: hash as u32 }
}

const GENERIC_STRUCTURAL: &[&str] = &[
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
    "tool_use_id",
    "media_type",
    "mimeType",
    "mime_type",
    "responseMimeType",
    "response_mime_type",
    "finish_reason",
    "stop_reason",
    "encoding",
];

/// A value that can only be an identifier or an enum: 1 to 128 bytes of lower-case
/// ASCII letters, digits and `._:/-`, with a letter (`gpt-4o-mini`, `user`,
/// `input_text`, `models/gemini-2.0-flash`). Digits-only shapes (a phone, an SSN), mixed
/// case (most secrets), `@`, spaces and escapes all fail, so such a value is scanned.
pub fn identifier_like(raw: &[u8]) -> bool {
    (1..=128).contains(&raw.len())
        && raw.iter().any(u8::is_ascii_lowercase)
        && raw
            .iter()
            .all(|&b| b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'.' | b'_' | b':' | b'/' | b'-'))
}

/// A value that is binary media: base64 (standard or URL-safe alphabet, padding, JSON's
/// `\/` and line-break escapes) of at least 16 bytes, or a `data:` URL whose payload is
/// base64. Text is never base64-like once it has a space or punctuation.
pub fn media_like(raw: &[u8]) -> bool {
    let payload = match raw.strip_prefix(b"data:") {
        Some(rest) => {
            let Some(at) = memchr::memmem::find(rest, b";base64,") else { return false };
            // The media type before it: `image/png`, `audio/wav; codecs=…` without spaces.
            if !rest.get(..at).unwrap_or_default().iter().all(|&b| b.is_ascii_alphanumeric() || b"/+.-;=".contains(&b))
            {
                return false;
            }
            rest.get(at + 8..).unwrap_or_default()
        }
        None => raw,
    };
    let mut i = 0;
    let mut count = 0;
    while let Some(&b) = payload.get(i) {
        if b == b'\\' {
            match payload.get(i + 1) {
                Some(b'/' | b'n' | b'r') => i += 2,
                _ => return false,
            }
            continue;
        }
        if !(b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=' | b'-' | b'_')) {
            return false;
        }
        count += 1;
        i += 1;
    }
    count >= 16
}

fn lookup(table: FieldTable, path: &[Seg<'_>]) -> Option<TextKind> {
    table.iter().find(|(pattern, _)| path_matches(path, pattern)).map(|(_, kind)| *kind)
}

fn generic(path: &[Seg<'_>]) -> Option<TextKind> {
    let skipped = path.iter().any(|seg| match seg {
        Seg::Key(k) => GENERIC_SKIP_KEYS.contains(&k.as_ref()),
        Seg::Index(_) => false,
    });
    if skipped {
        None
    } else {
        Some(TextKind::Plain)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn path(parts: &[&str]) -> Vec<Seg<'static>> {
        parts
            .iter()
            .map(|p| match p.parse::<usize>() {
                Ok(i) => Seg::Index(i),
                Err(_) => Seg::Key(p.to_string().into()),
            })
            .collect()
    }

    /// (field text, kind, role) for each stream field of `data`.
    pub(crate) fn fields(provider: Provider, data: &str) -> Vec<(String, TextKind, Role)> {
        provider
            .stream_fields(data.as_bytes())
            .unwrap()
            .into_iter()
            .map(|f| (data[f.span.start..f.span.end].to_string(), f.kind, f.role))
            .collect()
    }

    #[test]
    fn every_request_string_is_scanned_but_structure() {
        let p = Provider::OpenAiChat;
        let scanned: &[(&[&str], &[u8])] = &[
            (&["messages", "0", "content"], b"hello"),
            (&["messages", "1", "content", "0", "text"], b"hi"),
            (&["user"], b"jane@example.com"),
            (&["metadata", "customer"], b"Jane Doe"),
            (&["prediction", "content"], b"x"),
            (&["tools", "0", "function", "description"], b"Look up orders"),
            (&["messages", "2", "content", "0", "refusal"], b"no"),
            // Structural keys with values that are not identifiers.
            (&["model"], b"jane@example.com"),
            (&["messages", "0", "role"], b"123-45-6789"),
            (&["messages", "0", "tool_call_id"], b"call_Jane Doe"),
            (&["messages", "0", "content", "0", "image_url", "url"], b"https://wiki.corp/a.png"),
            // A structural key above the string does not exempt it.
            (&["data", "text"], b"note"),
        ];
        for (path_parts, raw) in scanned {
            assert!(!p.request_structural(&path(path_parts), raw), "{path_parts:?}");
        }
        let structural: &[(&[&str], &[u8])] = &[
            (&["model"], b"gpt-4o-mini"),
            (&["messages", "0", "role"], b"assistant"),
            (&["messages", "1", "content", "0", "type"], b"input_text"),
            (&["messages", "3", "tool_call_id"], b"call_abc123"),
            (&["messages", "1", "content", "0", "image_url", "url"], b"data:image/png;base64,iVBORw0KGgoAAAANSUhEUg=="),
            (&["modalities", "0"], b"text"),
        ];
        for (path_parts, raw) in structural {
            assert!(p.request_structural(&path(path_parts), raw), "{path_parts:?}");
        }
    }

    #[test]
    fn identifiers_and_media() {
        for id in ["gpt-4o-mini", "claude-3-5-sonnet-20241022", "models/gemini-2.0-flash", "input_text", "auto"] {
            assert!(identifier_like(id.as_bytes()), "{id}");
        }
        for not in ["", "123-45-6789", "4155550132", "Jane", "jane@example.com", "a b", "sk-Proj-AbC", r"a\u0040b"] {
            assert!(!identifier_like(not.as_bytes()), "{not}");
        }
        for media in [
            "iVBORw0KGgoAAAANSUhEUgAAAAEAAAAB",
            r"iVBORw0KGgo\/AAAANSUhEUg==",
            "data:audio/wav;base64,UklGRiQAAABXQVZFZm10IBAAAAAB",
        ] {
            assert!(media_like(media.as_bytes()), "{media}");
        }
        for not in [
            "short",
            "Contract for Jane Doe",
            "https://example.com/a.png",
            "data:text/plain,jane@example.com",
            "jane@example.com is here ok",
        ] {
            assert!(!media_like(not.as_bytes()), "{not}");
        }
    }

    #[test]
    fn generic_skips_non_text_keys() {
        let p = Provider::Generic;
        assert_eq!(p.response_text(&path(&["input", "0", "text"])), Some(TextKind::Plain));
        assert_eq!(p.response_text(&path(&["model"])), None);
    }

    #[test]
    fn error_bodies_are_vendor_shaped() {
        let v: serde_json::Value =
            serde_json::from_slice(&Provider::OpenAiChat.error_body(413, "veil_body_too_large", "too large")).unwrap();
        assert_eq!(v["error"]["code"], "veil_body_too_large");
        assert_eq!(v["error"]["type"], "invalid_request_error");
        let v: serde_json::Value =
            serde_json::from_slice(&Provider::Anthropic.error_body(403, "veil_blocked", "no")).unwrap();
        assert_eq!((v["type"].as_str(), v["error"]["type"].as_str()), (Some("error"), Some("permission_error")));
        let v: serde_json::Value =
            serde_json::from_slice(&Provider::Anthropic.error_body(400, "veil_invalid_json", "no")).unwrap();
        assert_eq!(v["error"]["type"], "invalid_request_error");
        let v: serde_json::Value =
            serde_json::from_slice(&Provider::OpenAiChat.error_body(415, "veil_unscannable", "no")).unwrap();
        assert_eq!(v["error"]["type"], "invalid_request_error");
        let v: serde_json::Value =
            serde_json::from_slice(&Provider::Gemini.error_body(413, "veil_body_too_large", "big")).unwrap();
        assert_eq!((v["error"]["code"].as_u64(), v["error"]["status"].as_str()), (Some(413), Some("INVALID_ARGUMENT")));
    }

    #[test]
    fn non_json_stream_data_has_no_fields() {
        assert!(Provider::OpenAiChat.stream_fields(b"[DONE]").is_err());
    }
}
