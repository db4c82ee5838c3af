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
