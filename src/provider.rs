//! Provider adapters: which JSON string fields are text, and how the vendor shapes errors.
//!
//! An adapter never parses a body itself; it answers "is the string at this path
//! text?" for the scanner in [`crate::json`], so every field it does not name —
//! model names, ids, roles, base64 media, unknown future fields — passes untouched.

use serde::{Deserialize, Serialize};

use crate::json::{path_matches, Seg};

/// The API shape of a protected route.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Provider {
    /// OpenAI Chat Completions (`/v1/chat/completions`).
    #[serde(rename = "openai_chat")]
    OpenAiChat,
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

const OPENAI_CHAT_REQUEST: &[(&[&str], TextKind)] = &[
    (&["messages", "*", "content"], TextKind::Plain),
    (&["messages", "*", "content", "*", "text"], TextKind::Plain),
    (&["messages", "*", "name"], TextKind::Plain),
    (&["messages", "*", "tool_calls", "*", "function", "arguments"], TextKind::EmbeddedJson),
    (&["messages", "*", "function_call", "arguments"], TextKind::EmbeddedJson),
];

const OPENAI_CHAT_RESPONSE: &[(&[&str], TextKind)] = &[
    (&["choices", "*", "message", "content"], TextKind::Plain),
    (&["choices", "*", "message", "refusal"], TextKind::Plain),
    (&["choices", "*", "message", "tool_calls", "*", "function", "arguments"], TextKind::EmbeddedJson),
    (&["choices", "*", "message", "function_call", "arguments"], TextKind::EmbeddedJson),
];

/// Keys whose string values are never natural-language text in any vendor API.
const GENERIC_SKIP_KEYS: &[&str] = &[
    "model", "role", "id", "type", "object", "tool_call_id", "call_id", "previous_response_id",
    "mime_type", "mimeType", "media_type", "data", "image_url", "url", "file_id", "fileUri",
    "file_uri", "encoding", "format", "detail", "stop_reason", "finish_reason", "voice",
];

impl Provider {
    /// Short name for audit events and metrics.
    pub fn name(self) -> &'static str {
        match self {
            Provider::OpenAiChat => "openai.chat",
            Provider::Generic => "generic",
        }
    }

    /// Is the request string at `path` text to scan?
    pub fn request_text(self, path: &[Seg<'_>]) -> Option<TextKind> {
        match self {
            Provider::OpenAiChat => lookup(OPENAI_CHAT_REQUEST, path),
            Provider::Generic => generic(path),
        }
    }

    /// Is the response string at `path` text in which tokens are restored?
    pub fn response_text(self, path: &[Seg<'_>]) -> Option<TextKind> {
        match self {
            Provider::OpenAiChat => lookup(OPENAI_CHAT_RESPONSE, path),
            Provider::Generic => generic(path),
        }
    }

    /// An error body shaped like the vendor's own, so its SDK surfaces `message`.
    /// `code` is a stable Veil error code; `message` must never contain payload.
    pub fn error_body(self, status: u16, code: &str, message: &str) -> Vec<u8> {
        let value = match self {
            Provider::OpenAiChat | Provider::Generic => serde_json::json!({
                "error": {
                    "message": message,
                    "type": if status == 413 { "invalid_request_error" } else { "veil_policy_error" },
                    "param": null,
                    "code": code,
                }
            }),
        };
        serde_json::to_vec(&value).unwrap_or_default()
    }
}

fn lookup(table: &[(&[&str], TextKind)], path: &[Seg<'_>]) -> Option<TextKind> {
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

    fn path(parts: &[&str]) -> Vec<Seg<'static>> {
        parts
            .iter()
            .map(|p| match p.parse::<usize>() {
                Ok(i) => Seg::Index(i),
                Err(_) => Seg::Key(p.to_string().into()),
            })
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
    fn error_body_is_openai_shaped() {
        let body = Provider::OpenAiChat.error_body(413, "veil_body_too_large", "too large");
        let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(v["error"]["code"], "veil_body_too_large");
        assert_eq!(v["error"]["message"], "too large");
        assert_eq!(v["error"]["type"], "invalid_request_error");
    }
}
