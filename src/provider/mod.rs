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

use serde::{Deserialize, Serialize};

use crate::json::{self, path_matches, JsonError, Scalar, Seg, StrSpan};

/// The API shape of a protected route.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Provider {
    /// OpenAI Chat Completions (`/v1/chat/completions`).
    #[serde(rename = "openai_chat")]
    OpenAiChat,
    /// OpenAI Responses (`/v1/responses`).
    #[serde(rename = "openai_responses")]
    OpenAiResponses,
    /// Anthropic Messages (`/v1/messages`).
    #[serde(rename = "anthropic_messages")]
    Anthropic,
    /// Google Gemini `generateContent` / `streamGenerateContent`.
    Gemini,
    /// Any other JSON API: every string value except known non-text keys.
    Generic,
}

/// How a text field's contents are interpreted when a value is written into it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextKind {
    /// Natural-language text.
    Plain,
    /// A string that itself holds JSON (tool-call `arguments`): restored values are
    /// escaped once more so the inner document stays valid.
    EmbeddedJson,
}

/// A path pattern (see [`json::path_matches`]) and the kind of text found there.
pub(crate) type FieldTable = &'static [(&'static [&'static str], TextKind)];

/// Identifies one logical text stream inside a response stream: what kind of text
/// (content, refusal, tool arguments) and the vendor's indices for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct StreamKey {
    pub lane: u8,
    pub a: u32,
    pub b: u32,
}

/// The role of a text field inside one stream event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// The next piece of a logical stream: tokens may be split across such pieces.
    Delta(StreamKey),
    /// A complete text (a `*.done` event, a snapshot): restored whole. The key is the
    /// logical stream whose text it repeats, where the event says so.
    Whole(Option<StreamKey>),
}

/// One text field of a stream event's JSON data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StreamField {
    pub span: StrSpan,
    pub kind: TextKind,
    pub role: Role,
}

/// Keys whose string values are never natural-language text in any vendor API.
const GENERIC_SKIP_KEYS: &[&str] = &[
    "model", "role", "id", "type", "object", "tool_call_id", "call_id", "previous_response_id",
    "mime_type", "mimeType", "media_type", "data", "image_url", "url", "file_id", "fileUri",
    "file_uri", "encoding", "format", "detail", "stop_reason", "finish_reason", "voice",
    "signature",
];

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

    /// Is the request string at `path` text to scan?
    pub fn request_text(self, path: &[Seg<'_>]) -> Option<TextKind> {
        match self {
            Provider::OpenAiChat => lookup(openai::CHAT_REQUEST, path),
            Provider::OpenAiResponses => lookup(openai::RESPONSES_REQUEST, path),
            Provider::Anthropic => lookup(anthropic::REQUEST, path),
            Provider::Gemini => lookup(gemini::REQUEST, path),
            Provider::Generic => generic(path),
        }
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
        let mut event = EventScan::default();
        json::visit_scalars(data, &mut |path, scalar| event.note(data, path, scalar))?;
        Ok(match self {
            Provider::OpenAiChat => openai::chat_stream_fields(&event),
            Provider::OpenAiResponses => openai::responses_stream_fields(&event),
            Provider::Anthropic => anthropic::stream_fields(&event),
            Provider::Gemini => gemini::stream_fields(&event),
            Provider::Generic => event
                .strings
                .iter()
                .filter(|(path, _)| generic(path).is_some())
                .map(|(_, span)| StreamField { span: *span, kind: TextKind::Plain, role: Role::Whole(None) })
                .collect(),
        })
    }

    /// An error body shaped like the vendor's own, so its SDK surfaces `message`.
    /// `code` is a stable Veil error code; `message` must never contain payload.
    pub fn error_body(self, status: u16, code: &str, message: &str) -> Vec<u8> {
        let value = match self {
            Provider::OpenAiChat | Provider::OpenAiResponses | Provider::Generic => serde_json::json!({
                "error": {
                    "message": message,
                    "type": if status == 413 { "invalid_request_error" } else { "veil_policy_error" },
                    "param": null,
                    "code": code,
                }
            }),
            Provider::Anthropic => serde_json::json!({
                "type": "error",
                "error": {
                    "type": match status {
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
                        413 | 400 => "INVALID_ARGUMENT",
                        403 => "PERMISSION_DENIED",
                        _ => "INTERNAL",
                    },
                    "details": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": code, "domain": "veil"}],
                }
            }),
        };
        serde_json::to_vec(&value).unwrap_or_default()
    }
}

/// What one pass over a stream event's JSON found: every string with its path, and
/// the numbers and short strings that say which stream a delta belongs to. Paths
/// borrow their keys from the event's bytes.
#[derive(Debug, Default)]
pub(crate) struct EventScan<'d> {
    /// Every string value: its path and span.
    pub strings: Vec<(Vec<Seg<'d>>, StrSpan)>,
    /// Numbers by path, for `index`, `output_index` and the like.
    pub numbers: Vec<(Vec<Seg<'d>>, u32)>,
    /// The top-level `type` field (Responses and Anthropic events).
    pub event_type: Option<String>,
}

impl<'d> EventScan<'d> {
    fn note(&mut self, data: &[u8], path: &[Seg<'d>], scalar: Scalar) {
        match scalar {
            Scalar::String(span) => {
                if path.len() == 1 && matches!(path.first(), Some(Seg::Key(k)) if k == "type") {
                    self.event_type = Some(json::decode(data.get(span.start..span.end).unwrap_or_default()).text().into_owned());
                }
                self.strings.push((path.to_vec(), span));
            }
            Scalar::Number(span) => {
                let text = data.get(span.start..span.end).unwrap_or_default();
                if let Some(n) = std::str::from_utf8(text).ok().and_then(|t| t.parse::<u32>().ok()) {
                    self.numbers.push((path.to_vec(), n));
                }
            }
        }
    }

    /// The number at exactly `path` (keys, and array indices written as numbers).
    pub fn number(&self, path: &[&str]) -> Option<u32> {
        let is = |seg: &Seg<'_>, pat: &&str| match seg {
            Seg::Key(k) => k == pat,
            Seg::Index(i) => pat.parse::<usize>().ok() == Some(*i),
        };
        self.numbers
            .iter()
            .find(|(p, _)| p.len() == path.len() && p.iter().zip(path).all(|(seg, pat)| is(seg, pat)))
            .map(|(_, n)| *n)
    }

    /// Strings whose path matches `pattern` (with `*` and a trailing `**`).
    pub fn matching<'s>(&'s self, pattern: &'s [&'s str]) -> impl Iterator<Item = (&'s [Seg<'d>], StrSpan)> + 's {
        self.strings.iter().filter(move |(p, _)| path_matches(p, pattern)).map(|(p, s)| (p.as_slice(), *s))
    }
}

/// The array index at segment `at` of a path (0 if that segment is not an index).
pub(crate) fn index_of(path: &[Seg<'_>], at: usize) -> u32 {
    json::index_at(path, at).map_or(0, |i| i as u32)
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
    fn openai_chat_text_fields() {
        let p = Provider::OpenAiChat;
        assert_eq!(p.request_text(&path(&["messages", "0", "content"])), Some(TextKind::Plain));
        assert_eq!(p.request_text(&path(&["messages", "1", "content", "0", "text"])), Some(TextKind::Plain));
        assert_eq!(
            p.request_text(&path(&["messages", "2", "tool_calls", "0", "function", "arguments"])),
            Some(TextKind::EmbeddedJson)
        );
        for not_text in [
            &["model"][..],
            &["messages", "0", "role"],
            &["messages", "1", "content", "0", "image_url", "url"],
            &["messages", "1", "content", "0", "type"],
            &["messages", "3", "tool_call_id"],
            &["user"],
        ] {
            assert_eq!(p.request_text(&path(not_text)), None, "{not_text:?}");
        }
    }

    #[test]
    fn generic_skips_non_text_keys() {
        let p = Provider::Generic;
        assert_eq!(p.request_text(&path(&["input", "0", "text"])), Some(TextKind::Plain));
        assert_eq!(p.request_text(&path(&["model"])), None);
        assert_eq!(p.request_text(&path(&["parts", "0", "inline_data", "data"])), None);
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
        let v: serde_json::Value = serde_json::from_slice(&Provider::Gemini.error_body(413, "veil_body_too_large", "big")).unwrap();
        assert_eq!((v["error"]["code"].as_u64(), v["error"]["status"].as_str()), (Some(413), Some("INVALID_ARGUMENT")));
    }

    #[test]
    fn non_json_stream_data_has_no_fields() {
        assert!(Provider::OpenAiChat.stream_fields(b"[DONE]").is_err());
    }
}
