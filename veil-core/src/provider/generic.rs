//! An API without an adapter (an OpenAI-compatible provider, Azure v1, Vertex's
//! Anthropic `:streamRawPredict`, an unknown proxy): the generic walker's declaration.

use super::gemini;
use super::schema::{Adapter, ErrorShape, EventScan, Provider, Role, StreamField, StreamKey, TextKind};
use crate::json::{self, Seg};

/// Any API: every string of a request but structure is scanned, the response's text
/// is every string a model writes, a stream's text every string of each event.
pub(super) const GENERIC: Adapter = Adapter {
    provider: Provider::Generic,
    name: "generic",
    routes: &[],
    // The union, since a generic route may be any of the APIs.
    structural: GENERIC_STRUCTURAL,
    response_text: generic,
    stream_fields: generic_stream_fields,
    terminal: |data| data.trim_ascii() == b"[DONE]",
    // A Gemini-shaped path routed here streams as Gemini's does.
    json_array_stream: gemini::json_array_stream,
    binary_event_stream: false,
    error: ErrorShape::OpenAi,
    credentials: &["authorization"],
    signed: false,
};

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
