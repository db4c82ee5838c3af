//! Provider adapters: which JSON string fields are text, and how the vendor shapes errors.
//!
//! An adapter never parses a body itself; it answers "is the string at this path
//! text?" for the scanner in [`crate::json`], so every field it does not name —
//! model names, ids, roles, base64 media, unknown future fields — passes untouched.
//! For streams it also says which text is a *delta* of which logical stream (choice,
//! content block, output item) and which is a whole text repeated at the end.

mod anthropic;
mod gemini;
mod generic;
mod openai;
mod schema;

use crate::json::{self, JsonError, Seg};
use schema::EventScan;
pub use schema::{Adapter, ErrorShape, Provider, Role, StreamField, StreamKey, TextKind};

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

/// Every API Veil has an adapter for, and the generic walker last: the provider list,
/// the metric labels, the default routes and the credential headers come from here.
pub const ADAPTERS: [&Adapter; 5] =
    [&openai::CHAT, &openai::RESPONSES, &anthropic::MESSAGES, &gemini::GENERATE, &generic::GENERIC];

/// Every API's request paths, by provider: the routes a policy has unless it lists
/// its own (`routes`).
pub fn default_routes() -> impl Iterator<Item = (&'static str, Provider)> {
    ADAPTERS.iter().flat_map(|a| a.routes.iter().map(|route| (*route, a.provider)))
}

/// The request headers that may carry a client's credential, every API's (the token
/// scope's source, whatever the destination): each API's first header, in the order of
/// [`ADAPTERS`], then each one's second, and so on; each header once. Worked out when
/// the crate is compiled ([`CREDENTIAL_HEADERS`]).
pub fn credential_headers() -> impl Iterator<Item = &'static str> {
    CREDENTIAL_HEADERS.0.iter().take(CREDENTIAL_HEADERS.1).copied()
}

/// Most credential headers over every API (a compile error if the adapters name more).
const MAX_CREDENTIAL_HEADERS: usize = 8;

/// [`credential_headers`], laid out at compile time: the headers, and how many. Indexing
/// is allowed here alone: the compiler evaluates it, so an index out of range is a
/// compile error, never a panic.
#[allow(clippy::indexing_slicing)]
const CREDENTIAL_HEADERS: ([&str; MAX_CREDENTIAL_HEADERS], usize) = {
    const fn same(a: &str, b: &str) -> bool {
        let (a, b) = (a.as_bytes(), b.as_bytes());
        if a.len() != b.len() {
            return false;
        }
        let mut i = 0;
        while i < a.len() {
            if a[i] != b[i] {
                return false;
            }
            i += 1;
        }
        true
    }
    let mut out = [""; MAX_CREDENTIAL_HEADERS];
    let mut count = 0;
    let mut depth = 0;
    while depth < MAX_CREDENTIAL_HEADERS {
        let mut api = 0;
        while api < ADAPTERS.len() {
            let headers = ADAPTERS[api].credentials;
            if depth < headers.len() {
                let header = headers[depth];
                let mut known = false;
                let mut i = 0;
                while i < count {
                    known |= same(out[i], header);
                    i += 1;
                }
                if !known {
                    out[count] = header;
                    count += 1;
                }
            }
            api += 1;
        }
        depth += 1;
    }
    (out, count)
};

/// What a request's path says about its exchange beyond its API ([`Provider::route`]),
/// decided once from the request headers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Route {
    /// The response is a JSON array delivered incrementally (Gemini
    /// `streamGenerateContent` without `alt=sse`).
    pub json_array_stream: bool,
    /// The request carries a file's bytes (a resumable upload's chunk): read by its
    /// content, whatever its label (`Redactor::redact_file_with`).
    pub file_upload: bool,
    /// The request downloads a stored file (`…/files/{id}/content`): a JSON Lines or
    /// text answer is restored like any.
    pub file_download: bool,
}

impl Provider {
    /// This API's declaration.
    pub fn adapter(self) -> &'static Adapter {
        match self {
            Provider::OpenAiChat => &openai::CHAT,
            Provider::OpenAiResponses => &openai::RESPONSES,
            Provider::Anthropic => &anthropic::MESSAGES,
            Provider::Gemini => &gemini::GENERATE,
            Provider::Generic => &generic::GENERIC,
        }
    }

    /// Short name for audit events and metrics.
    pub fn name(self) -> &'static str {
        self.adapter().name
    }

    /// The request keys (beyond [`STRUCTURAL_KEYS`]) whose identifier-like values are
    /// structure for this API.
    pub fn structural_keys(self) -> &'static [&'static str] {
        self.adapter().structural
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
        (self.adapter().response_text)(path)
    }

    /// The text fields of one stream event's JSON `data`. `Err` when the data is not
    /// JSON (`[DONE]`, a keep-alive): such events carry no text.
    pub fn stream_fields(self, data: &[u8]) -> Result<Vec<StreamField>, JsonError> {
        #[cfg(test)]
        STREAM_FIELDS_RUNS.with(|runs| runs.set(runs.get() + 1));
        let mut event = EventScan::default();
        json::visit_scalars(data, &mut |path, scalar| event.note(data, path, scalar))?;
        Ok((self.adapter().stream_fields)(&event))
    }

    /// Whether the JSON answer to a request at `path` (normalized, lower case) whose
    /// `alt` query parameter is `alt` is one JSON array delivered in pieces (Gemini's
    /// `:streamGenerateContent` without `alt=sse`), not SSE.
    pub fn json_array_stream(self, path: &str, alt: Option<&[u8]>) -> bool {
        (self.adapter().json_array_stream)(path, alt)
    }

    /// What a request's path says about its exchange beyond its API: `path` normalized
    /// and lower case, `alt` its `alt` query parameter, `upload_command` its
    /// `x-goog-upload-command` header.
    pub fn route(self, path: &str, alt: Option<&[u8]>, upload_command: Option<&[u8]>) -> Route {
        let bare = path.split('?').next().unwrap_or_default();
        Route {
            json_array_stream: self.json_array_stream(path, alt),
            // Google's resumable protocol: `upload` (with `finalize` on the last chunk)
            // carries the file's bytes, labelled `application/json` by the SDK whatever
            // the file is. Only on an upload path: elsewhere the header would turn a chat
            // request's strict JSON parse into a reading by content.
            file_upload: bare.starts_with("/upload/")
                && upload_command.is_some_and(|v| {
                    String::from_utf8_lossy(v).to_ascii_lowercase().split(',').any(|c| c.trim() == "upload")
                }),
            file_download: bare.contains("/files/") && (bare.ends_with("/content") || bare.ends_with(":download")),
        }
    }

    /// An error body shaped like the vendor's own, so its SDK surfaces `message`.
    /// `code` is a stable Veil error code; `message` must never contain payload.
    pub fn error_body(self, status: u16, code: &str, message: &str) -> Vec<u8> {
        self.adapter().error.body(status, code, message)
    }

    /// Is this event's data the provider's end of stream?
    pub fn is_terminal(self, data: &[u8]) -> bool {
        (self.adapter().terminal)(data)
    }
}

#[cfg(test)]
thread_local! {
    /// How many times this thread ran [`Provider::stream_fields`]: tests count parses.
    pub(crate) static STREAM_FIELDS_RUNS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

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

#[cfg(test)]
mod tests {
    use super::*;

    /// Each provider's declaration is its own, listed once; the lists derived from the
    /// declarations are what the hosts had by hand.
    #[test]
    fn every_provider_is_one_declared_adapter() {
        for (i, adapter) in ADAPTERS.iter().enumerate() {
            assert_eq!(adapter.provider.adapter().name, adapter.name);
            assert!(ADAPTERS.iter().skip(i + 1).all(|other| other.provider != adapter.provider), "{}", adapter.name);
        }
        assert_eq!(
            crate::metrics::PROVIDERS,
            ["openai.chat", "openai.responses", "anthropic.messages", "gemini", "generic", "api", "none"]
        );
        assert_eq!(
            credential_headers().collect::<Vec<_>>(),
            ["authorization", "x-api-key", "x-goog-api-key", "api-key"]
        );
        assert!(ADAPTERS.iter().all(|a| !a.signed && !a.binary_event_stream), "no API today signs or frames in binary");
        assert_eq!(ADAPTERS.last().map(|a| a.provider), Some(Provider::Generic));
    }

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
