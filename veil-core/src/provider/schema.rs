//! What an adapter is written in: the APIs, the kinds of text a field holds, the keys
//! that tell one stream's text from another's, and one pass over a stream event.

use serde::{Deserialize, Serialize};

use crate::json::{self, path_matches, Scalar, Seg, StrSpan};

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
    /// A string that is a value of structured data (a tool call's `input`, a function
    /// call's `args`): restored like text, but a token that is the whole string and
    /// stands for a number the request carried is restored as that number.
    Value,
}

/// A path pattern (see [`json::path_matches`]) and the kind of text found there.
pub(crate) type FieldTable = &'static [(&'static [&'static str], TextKind)];

/// Identifies one logical text stream inside a response stream: what kind of text
/// (content, refusal, tool arguments) and the vendor's indices for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct StreamKey {
    /// What kind of text: each provider's `LANE_*` constants (content, refusal, tool
    /// arguments, …).
    pub lane: u8,
    /// The vendor's index of the item that holds it: the choice (Chat Completions),
    /// the output item (Responses), the content block (Messages).
    pub item: u32,
    /// The index inside the item, where there is one: the tool call of a choice, the
    /// content part of an output item; 0 otherwise.
    pub part: u32,
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
    pub(crate) fn note(&mut self, data: &[u8], path: &[Seg<'d>], scalar: Scalar) {
        match scalar {
            Scalar::String(span) => {
                if path.len() == 1 && matches!(path.first(), Some(Seg::Key(k)) if k == "type") {
                    self.event_type =
                        Some(json::decode(data.get(span.start..span.end).unwrap_or_default()).text().into_owned());
                }
                self.strings.push((path.to_vec(), span));
            }
            Scalar::Number(span) => {
                let text = data.get(span.start..span.end).unwrap_or_default();
                if let Some(n) = std::str::from_utf8(text).ok().and_then(|t| t.parse::<u32>().ok()) {
                    self.numbers.push((path.to_vec(), n));
                }
            }
            Scalar::Key(_) => {}
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

/// One API, declared: everything Veil knows of it is this value (the vendor files
/// declare theirs; `provider/mod.rs` lists them in [`super::ADAPTERS`]). The provider
/// list, the metric labels, the default routes and the credential headers are derived
/// from the list; nothing outside `provider/` names a vendor's shapes.
pub struct Adapter {
    pub provider: Provider,
    /// Short name for audit events and metric labels.
    pub name: &'static str,
    /// Request paths served by this API (before any route of the policy).
    pub routes: &'static [&'static str],
    /// Request keys (beyond [`super::STRUCTURAL_KEYS`]) whose identifier-like values are
    /// structure for this API.
    pub structural: &'static [&'static str],
    /// Is the response string at a path text in which tokens are restored?
    pub response_text: fn(&[Seg<'_>]) -> Option<TextKind>,
    /// The text fields of one stream event.
    pub(crate) stream_fields: fn(&EventScan<'_>) -> Vec<StreamField>,
    /// Is this event's data the API's end of stream?
    pub terminal: fn(&[u8]) -> bool,
    /// Whether the JSON answer to a request at this path (normalized, lower case), with
    /// this `alt` query parameter, is one JSON array delivered in pieces. SSE and JSON
    /// Lines are told by their content type, for every API.
    pub json_array_stream: fn(&str, Option<&[u8]>) -> bool,
    /// Whether the API streams in a binary event framing (AWS's
    /// `application/vnd.amazon.eventstream`): none of today's; its framing goes beside
    /// SSE in `stream/`.
    pub binary_event_stream: bool,
    /// The shape of the vendor's error body.
    pub error: ErrorShape,
    /// The request headers that carry the client's credential (the token scope's
    /// source), in order.
    pub credentials: &'static [&'static str],
    /// Whether the client signs the body (AWS SigV4): a rewritten body would need the
    /// gateway's signature. None of today's.
    pub signed: bool,
}

/// The shape of a vendor's error body, so its SDK surfaces `message`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorShape {
    /// `{"error": {"message", "type", "param", "code"}}`.
    OpenAi,
    /// `{"type": "error", "error": {"type", "message"}}`.
    Anthropic,
    /// `google.rpc.Status`: `{"error": {"code", "message", "status", "details"}}`.
    Google,
}

impl ErrorShape {
    /// The body of an error with HTTP `status`, Veil's stable `code` and a `message`
    /// that never contains payload.
    pub fn body(self, status: u16, code: &str, message: &str) -> Vec<u8> {
        let value = match self {
            ErrorShape::OpenAi => serde_json::json!({
                "error": {
                    "message": message,
                    "type": if matches!(status, 400 | 413 | 415) { "invalid_request_error" } else { "veil_policy_error" },
                    "param": null,
                    "code": code,
                }
            }),
            ErrorShape::Anthropic => serde_json::json!({
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
            ErrorShape::Google => serde_json::json!({
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
}

/// The kind of the first pattern of `table` that `path` matches.
pub(crate) fn lookup(table: FieldTable, path: &[Seg<'_>]) -> Option<TextKind> {
    table.iter().find(|(pattern, _)| path_matches(path, pattern)).map(|(_, kind)| *kind)
}

/// Whether an event's top-level `type` is one of `types`.
pub(crate) fn typed_as(data: &[u8], types: &[&str]) -> bool {
    #[derive(serde::Deserialize)]
    struct Typed<'a> {
        #[serde(rename = "type", borrow)]
        kind: Option<std::borrow::Cow<'a, str>>,
    }
    let Ok(typed) = serde_json::from_slice::<Typed<'_>>(data) else { return false };
    typed.kind.as_deref().is_some_and(|kind| types.contains(&kind))
}

/// No path streams as a JSON array.
pub(crate) fn no_json_array(_path: &str, _alt: Option<&[u8]>) -> bool {
    false
}
