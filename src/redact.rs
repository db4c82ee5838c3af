//! The request path: body bytes in, a verdict (forward, rewrite, block, refuse) out.
//!
//! Everything that goes to a protected destination is scanned unless it cannot be:
//! a JSON body string by string (every string value and key but the provider's
//! structure, see [`Provider::request_structural`]), text as text, multipart bodies part
//! by part. A body that is JSON by its type or first byte and fails the strict parse is
//! refused (or, if the policy says so, scanned as text with its escapes decoded), since
//! a lenient vendor parser would read values the strict scan never reached. Bodies that
//! are not text are still searched byte for byte, then follow the policy's
//! `unscannable` rule and are always reported.

use std::collections::BTreeMap;

use crate::audit::Outcome;
use crate::detect::Finding;
use crate::edit::{splice, Edit};
use crate::encoding::base64;
use crate::json::{self, StrSpan};
use crate::policy::{Action, InvalidJson, Mode, Profile, Unscannable};
use crate::provider::{identifier_like, Provider};
use crate::token::{TokenMap, TokenMinter};

/// How the body was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyKind {
    /// No body.
    Empty,
    Json,
    /// Text (a text type, or JSON the policy scans as text): scanned as bytes, through
    /// the detectors' normalized view.
    Text,
    /// `multipart/form-data`: text parts scanned, binary parts unscannable.
    Multipart,
    /// Binary: not scanned (see `limits.unscannable`).
    Unscannable,
}

impl BodyKind {
    pub fn name(self) -> &'static str {
        match self {
            BodyKind::Empty => "empty",
            BodyKind::Json => "json",
            BodyKind::Text => "text",
            BodyKind::Multipart => "multipart",
            BodyKind::Unscannable => "unscannable",
        }
    }
}

/// What to do with the request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Forward the original bytes: nothing to change (or monitor mode).
    Forward,
    /// Forward this body instead.
    Rewrite(Vec<u8>),
    /// Reject: a finding's category has the `block` action. Names the category only.
    Block { category: String },
    /// Reject: the body cannot be scanned the way the policy requires.
    Refuse(Refusal),
}

/// Why a request is refused without being scanned: each has a status, a stable code
/// and a message that never quotes the request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// JSON by type or first byte, not strict JSON (`limits.invalid_json: reject`).
    InvalidJson,
    /// Not text, and `limits.unscannable: block`.
    Unscannable,
    /// Larger than `limits.max_body_bytes`, before or after decoding.
    TooLarge,
    /// A `content-encoding` Veil cannot decode.
    UnsupportedEncoding,
    /// A compressed body that does not decode.
    InvalidEncoding,
    /// A transport the filter cannot see into: a protocol upgrade (WebSocket) or CONNECT.
    Transport,
}

impl Refusal {
    /// The audit line's outcome of a request refused for this.
    pub fn outcome(self) -> Outcome {
        match self {
            Refusal::InvalidJson => Outcome::InvalidJson,
            Refusal::Unscannable => Outcome::UnscannableBlocked,
            Refusal::TooLarge => Outcome::TooLarge,
            Refusal::UnsupportedEncoding => Outcome::UnsupportedEncoding,
            Refusal::InvalidEncoding => Outcome::InvalidEncoding,
            Refusal::Transport => Outcome::TransportRefused,
        }
    }

    pub fn status(self) -> u16 {
        match self {
            Refusal::InvalidJson | Refusal::InvalidEncoding => 400,
            Refusal::Unscannable | Refusal::UnsupportedEncoding => 415,
            Refusal::TooLarge => 413,
            Refusal::Transport => 403,
        }
    }

    pub fn code(self) -> &'static str {
        match self {
            Refusal::InvalidJson => "veil_invalid_json",
            Refusal::Unscannable => "veil_unscannable",
            Refusal::TooLarge => "veil_body_too_large",
            Refusal::UnsupportedEncoding => "veil_unsupported_encoding",
            Refusal::InvalidEncoding => "veil_invalid_encoding",
            Refusal::Transport => "veil_unscannable_transport",
        }
    }

    /// The message for the client (`limit`: the body limit, for `TooLarge`).
    pub fn message(self, limit: usize) -> String {
        match self {
            Refusal::InvalidJson => {
                "The request body is not valid JSON (RFC 8259), so the gateway could not inspect it; \
                 it was not forwarded (limits.invalid_json)."
                    .into()
            }
            Refusal::Unscannable => {
                "The request body is not text the gateway can inspect; the policy blocks such bodies \
                 (limits.unscannable)."
                    .into()
            }
            Refusal::TooLarge => {
                format!("Request body exceeds the gateway limit of {limit} bytes (limits.max_body_bytes).")
            }
            Refusal::UnsupportedEncoding => {
                "The request's content-encoding is not one the gateway can decode (gzip, deflate, br, zstd).".into()
            }
            Refusal::InvalidEncoding => "The request body does not decode with its content-encoding.".into(),
            Refusal::Transport => "The gateway cannot inspect upgraded or tunnelled connections to this destination; \
                 the request was not forwarded."
                .into(),
        }
    }
}

/// The outcome of redacting one request body.
#[derive(Debug, Clone)]
pub struct Redaction {
    pub verdict: Verdict,
    pub kind: BodyKind,
    /// Findings per category (whatever their action).
    pub counts: BTreeMap<String, u32>,
    /// Tokens issued, for restoring the response.
    pub tokens: TokenMap,
    /// Text fields whose findings the engine remembered from an earlier request in
    /// the same scope (not scanned again).
    pub remembered: usize,
    /// Parts of the body that were not scanned (a binary body, binary multipart parts).
    pub unscannable: u32,
}

/// The model stage's findings of a decoded text (see [`Redactor::redact_typed_with`]).
pub type ModelHook<'m> = &'m dyn Fn(&[u8]) -> Vec<Finding>;

/// Inputs that stay fixed for a request.
#[derive(Clone, Copy)]
pub struct Redactor<'a> {
    /// The settings of the request's profile (its rule's, or the top level's).
    pub profile: &'a Profile,
    pub provider: Provider,
    pub minter: &'a TokenMinter,
    /// Token scope (see `token`): ids are only meaningful within it.
    pub scope: &'a [u8],
    /// Whether a token already stands for a different value outside this request
    /// (the vault), so that a collision with an earlier value gets a longer id.
    pub taken: &'a dyn Fn(&str, &[u8]) -> bool,
}

impl std::fmt::Debug for Redactor<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the scope: it may be a credential.
        f.debug_struct("Redactor").field("provider", &self.provider).finish_non_exhaustive()
    }
}

impl Redactor<'_> {
    /// Redacts a body whose type is told by its first byte only (JSON or text).
    pub fn redact(&self, body: &[u8]) -> Redaction {
        self.redact_typed(body, "")
    }

    /// Redacts a body of the given `content-type` (empty when the request had none).
    pub fn redact_typed(&self, body: &[u8], content_type: &str) -> Redaction {
        self.redact_typed_with(body, content_type, &|_| Vec::new())
    }

    /// [`Redactor::redact_typed`], with the model stage's findings for each text
    /// (`model`: a decoded text field or text body → findings in it, see
    /// [`crate::detect::model::Pass`]) merged with the rules' findings. Media payloads
    /// are not asked about.
    pub fn redact_typed_with(&self, body: &[u8], content_type: &str, model: ModelHook<'_>) -> Redaction {
        let mut state = State { model: Some(model), ..State::default() };
        let mut remembered = 0;
        let mut kind = classify(body, content_type);
        let limits = &self.profile.limits;
        // Monitor mode never refuses: what it would refuse is scanned as text and reported.
        let enforce = self.profile.mode == Mode::Enforce;
        match kind {
            BodyKind::Empty => {}
            BodyKind::Json => match self.scan_json(&mut state, body) {
                Ok(n) => remembered = n,
                Err(_) if limits.invalid_json == InvalidJson::ScanText || !enforce => {
                    kind = BodyKind::Text;
                    state = State { model: Some(model), ..State::default() };
                    self.scan_text(&mut state, body, 0);
                }
                Err(_) => return self.refused(Refusal::InvalidJson, kind),
            },
            BodyKind::Text if media_type(content_type) == "application/x-www-form-urlencoded" => {
                // `+` is a space in a form (the view decodes the `%XX`); same length, so
                // the offsets are the body's.
                let spaced: Vec<u8> = body.iter().map(|&b| if b == b'+' { b' ' } else { b }).collect();
                self.scan_text(&mut state, &spaced, 0);
            }
            BodyKind::Text => self.scan_text(&mut state, body, 0),
            BodyKind::Multipart => match multipart_parts(body, content_type) {
                Some(parts) => {
                    for part in parts {
                        // A binary part is searched byte for byte all the same; it is
                        // counted because what it encodes could not be read.
                        state.unscannable += u32::from(!part.text);
                        self.scan_text(&mut state, body.get(part.start..part.end).unwrap_or_default(), part.start);
                    }
                }
                // Not the multipart it says it is: a reader may still find text in it.
                None => self.scan_text(&mut state, body, 0),
            },
            BodyKind::Unscannable => {
                // Searched byte for byte all the same (a value written in plain bytes
                // inside a "binary" body is found); counted, since what the body
                // encodes could not be read.
                state.unscannable += 1;
                self.scan_text(&mut state, body, 0);
            }
        }
        if state.unscannable > 0 && limits.unscannable == Unscannable::Block && enforce {
            let mut refused = self.refused(Refusal::Unscannable, kind);
            refused.unscannable = state.unscannable;
            return refused;
        }
        let restore = &self.profile.restore;
        if !restore.enabled || !restore.except.is_empty() {
            state.tokens.retain_categories(|category| restore.restores(category));
        }
        let verdict = if let Some(category) = state.blocked {
            Verdict::Block { category }
        } else if state.edits.is_empty() {
            Verdict::Forward
        } else {
            Verdict::Rewrite(splice(body, state.edits))
        };
        Redaction {
            verdict,
            kind,
            counts: state.counts,
            tokens: state.tokens,
            remembered,
            unscannable: state.unscannable,
        }
    }

    fn refused(&self, refusal: Refusal, kind: BodyKind) -> Redaction {
        Redaction {
            verdict: Verdict::Refuse(refusal),
            kind,
            counts: BTreeMap::new(),
            tokens: TokenMap::default(),
            remembered: 0,
            unscannable: 0,
        }
    }

    /// Every string value and key of a strict JSON document (a UTF-8 byte-order mark
    /// before it is accepted, as vendors do) but the provider's structure, in one
    /// scan. Returns how many were answered from the engine's memory.
    fn scan_json(&self, state: &mut State<'_>, body: &[u8]) -> Result<usize, json::JsonError> {
        let skip = if body.starts_with(BOM) { BOM.len() } else { 0 };
        let doc = body.get(skip..).unwrap_or_default();
        let provider = self.provider;
        let mut spans: Vec<StrSpan> = Vec::new();
        let mut media: Vec<StrSpan> = Vec::new();
        json::visit_strings_and_keys(doc, &mut |path, span, is_key| {
            let raw = doc.get(span.start..span.end).unwrap_or_default();
            let at = StrSpan { start: span.start + skip, end: span.end + skip };
            if !is_key && provider.request_media(path, raw) {
                media.push(at);
                return;
            }
            // A key is text the vendor receives too, unless it is a plain identifier
            // (`content`, `role`, `max_tokens`): nothing a detector finds looks like one.
            let structure = if is_key { identifier_like(raw) } else { provider.request_structural(path, raw) };
            if raw.is_empty() || structure {
                return;
            }
            spans.push(at);
        })?;
        // A media value is read twice: as the text it is (a key id or a card number is
        // base64's alphabet too) and as what it encodes.
        spans.extend_from_slice(&media);
        let decoded: Vec<json::Decoded<'_>> =
            spans.iter().map(|span| json::decode(body.get(span.start..span.end).unwrap_or_default())).collect();
        let payloads: Vec<Option<Payload>> =
            media.iter().map(|span| Payload::read(body.get(span.start..span.end).unwrap_or_default())).collect();
        // Every text field and media payload in one scan (a scan has fixed costs; a chat
        // has many short messages), findings by offsets into each.
        let mut parts: Vec<&[u8]> = decoded.iter().map(|d| d.bytes.as_ref()).collect();
        parts.extend(payloads.iter().flatten().map(|p| p.data.as_slice()));
        let (found, remembered) = self.profile.engine.scan_parts_remembered(self.scope, &parts);
        let (text_found, media_found) = found.split_at(spans.len().min(found.len()));
        let texts = spans.len() - media.len();
        for (i, ((span, decoded), findings)) in spans.iter().zip(&decoded).zip(text_found).enumerate() {
            if i >= texts && findings.is_empty() {
                continue;
            }
            let merged;
            let proposed = state.model.filter(|_| i < texts).map(|model| model_findings(model, &decoded.bytes));
            let findings = match proposed {
                Some(proposed) if !proposed.is_empty() => {
                    merged = self.profile.engine.merge_model(findings, &proposed);
                    &merged
                }
                _ => findings,
            };
            self.apply(state, &decoded.bytes, findings, |offset| span.start + decoded.raw_offset(offset));
        }
        let as_text = text_found.get(texts..).unwrap_or_default();
        let mut media_found = media_found.iter();
        for ((span, payload), text_findings) in media.iter().zip(&payloads).zip(as_text) {
            let Some(payload) = payload else {
                // Looked like base64 and is not: what it holds could not be read.
                state.unscannable += 1;
                continue;
            };
            let findings = media_found.next().map(Vec::as_slice).unwrap_or_default();
            state.unscannable += u32::from(!payload.text);
            if !text_findings.is_empty() {
                // Rewritten as the text it is; what it would decode to no longer exists.
                continue;
            }
            // The payload's own edits, then the payload re-encoded in place of the span.
            let before = state.edits.len();
            self.apply(state, &payload.data, findings, |offset| offset);
            let inner = state.edits.split_off(before);
            if !inner.is_empty() {
                let mut replacement = payload.prefix.clone();
                replacement.extend(base64::encode(&splice(&payload.data, inner), payload.style));
                state.edits.push(Edit { start: span.start, end: span.end, replacement });
            }
        }
        Ok(remembered)
    }

    /// `text` (at `base` in the body) as text: the detectors' view decodes escapes and
    /// folds Unicode, and findings cover whole raw units.
    fn scan_text(&self, state: &mut State<'_>, text: &[u8], base: usize) {
        let mut findings = self.profile.engine.scan(text);
        if let Some(model) = state.model {
            let proposed = model_findings(model, text);
            if !proposed.is_empty() {
                findings = self.profile.engine.merge_model(&findings, &proposed);
            }
        }
        self.apply(state, text, &findings, |offset| base + offset);
    }

    /// Counts findings over `text` and turns them into edits on the body, with
    /// `to_raw` mapping an offset in `text` to an offset in the body.
    fn apply(&self, state: &mut State<'_>, text: &[u8], findings: &[Finding], to_raw: impl Fn(usize) -> usize) {
        let enforce = self.profile.mode == Mode::Enforce;
        for finding in findings {
            let Some(rule) = self.profile.engine.rule(finding.rule) else { continue };
            let category = rule.category.as_str();
            match state.counts.get_mut(category) {
                Some(count) => *count += 1,
                None => {
                    state.counts.insert(category.to_string(), 1);
                }
            }
            if !enforce {
                continue;
            }
            let value = text.get(finding.start..finding.end).unwrap_or_default();
            let replacement = match self.profile.action(category) {
                Action::Allow => continue,
                Action::Block => {
                    state.blocked.get_or_insert_with(|| category.to_string());
                    continue;
                }
                Action::Tokenize => {
                    state.tokens.issue_checked(self.minter, self.scope, category, value, self.taken).into_bytes()
                }
                Action::Mask => format!("[{category}]").into_bytes(),
                Action::Redact => b"****".to_vec(),
            };
            state.edits.push(Edit { start: to_raw(finding.start), end: to_raw(finding.end), replacement });
        }
    }
}

/// A base64 media payload in a JSON string, decoded: a reader (the vendor, then the
/// model) sees what it encodes, so the redactor searches that — text documents sent as
/// base64 (Anthropic's `text/plain` document source, Gemini's `inlineData`) and the
/// plain bytes inside binary ones (metadata, uncompressed PDF text).
struct Payload {
    /// The raw bytes before the base64 (a `data:…;base64,` prefix), kept as they were.
    prefix: Vec<u8>,
    data: Vec<u8>,
    style: base64::Style,
    /// UTF-8 without NUL bytes: a text document, not media.
    text: bool,
}

impl Payload {
    /// The payload of a raw JSON string's contents, if it decodes.
    fn read(raw: &[u8]) -> Option<Payload> {
        let split = match raw.strip_prefix(b"data:") {
            Some(_) => memchr::memmem::find(raw, b";base64,")? + 8,
            None => 0,
        };
        let (prefix, encoded) = raw.split_at(split.min(raw.len()));
        // JSON may escape `/` and line breaks inside it.
        let encoded = json::decode(encoded);
        let (data, style) = base64::decode(&encoded.bytes)?;
        let text = std::str::from_utf8(&data).is_ok() && memchr::memchr(0, &data).is_none();
        Some(Payload { prefix: prefix.to_vec(), data, style, text })
    }
}

#[derive(Default)]
struct State<'m> {
    /// The model stage's findings of a text (see [`Redactor::redact_typed_with`]).
    model: Option<ModelHook<'m>>,
    counts: BTreeMap<String, u32>,
    tokens: TokenMap,
    edits: Vec<Edit>,
    blocked: Option<String>,
    unscannable: u32,
}

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The model stage's findings of `text`, only those within it.
fn model_findings(model: ModelHook<'_>, text: &[u8]) -> Vec<Finding> {
    let mut found = model(text);
    found.retain(|f| f.start < f.end && f.end <= text.len());
    found
}

/// The media type of a `content-type` value: lower case, without parameters.
fn media_type(content_type: &str) -> String {
    content_type.split(';').next().unwrap_or_default().trim().to_ascii_lowercase()
}

/// How a body is read, by its content type and, failing that, its bytes: JSON by type
/// (`*json`, `*+json`) or by a first byte of `{` or `[` (after a byte-order mark and
/// white space, whatever the type says, since vendors parse by content); binary by a
/// media, archive or protobuf type; text by a text type, or by having no NUL byte;
/// anything else is binary.
pub fn classify(body: &[u8], content_type: &str) -> BodyKind {
    if body.is_empty() {
        return BodyKind::Empty;
    }
    let media = media_type(content_type);
    if media.starts_with("multipart/") {
        return BodyKind::Multipart;
    }
    let lines = ["ndjson", "jsonl", "json-seq", "jsonlines"].iter().any(|t| media.contains(t));
    let first = body.strip_prefix(BOM).unwrap_or(body).iter().find(|b| !b.is_ascii_whitespace());
    if !lines && (media.ends_with("json") || media.ends_with("+json") || matches!(first, Some(b'{' | b'['))) {
        return BodyKind::Json;
    }
    let binary_type = [
        "image/",
        "audio/",
        "video/",
        "font/",
        "application/octet-stream",
        "application/pdf",
        "application/zip",
        "application/gzip",
        "application/x-protobuf",
        "application/protobuf",
        "application/grpc",
        "application/vnd.",
    ]
    .iter()
    .any(|t| media.starts_with(t));
    if binary_type {
        return BodyKind::Unscannable;
    }
    let text_type = lines
        || media.starts_with("text/")
        || media.ends_with("xml")
        || media.ends_with("yaml")
        || media == "application/x-www-form-urlencoded"
        || media == "application/javascript";
    // Text with a stray invalid byte is still text to a reader; binary formats have
    // NUL bytes (git's test, over the whole body).
    if text_type || memchr::memchr(0, body).is_none() {
        BodyKind::Text
    } else {
        BodyKind::Unscannable
    }
}

/// One part of a multipart body: its content's byte range and whether it is text.
struct Part {
    start: usize,
    end: usize,
    text: bool,
}

/// The parts of a `multipart/*` body (RFC 2046 § 5.1, RFC 7578), or `None` when it
/// is not well formed (no boundary, no closing delimiter). A part is text when its
/// own type is a text or JSON type, or when it has none and is UTF-8 without NULs
/// (form fields).
fn multipart_parts(body: &[u8], content_type: &str) -> Option<Vec<Part>> {
    let boundary = content_type.split(';').skip(1).find_map(|param| {
        let (name, value) = param.split_once('=')?;
        name.trim().eq_ignore_ascii_case("boundary").then(|| value.trim().trim_matches('"').to_string())
    })?;
    if boundary.is_empty() || boundary.len() > 200 {
        return None;
    }
    let delimiter = format!("--{boundary}");
    let finder = memchr::memmem::Finder::new(delimiter.as_bytes());
    let mut at = finder.find(body)? + delimiter.len();
    let mut parts = Vec::new();
    loop {
        if body.get(at..at + 2) == Some(b"--") {
            return Some(parts);
        }
        // The rest of the delimiter line.
        at += memchr::memchr(b'\n', body.get(at..)?)? + 1;
        let head_len = memchr::memmem::find(body.get(at..)?, b"\r\n\r\n")
            .map(|i| (i, 4))
            .or_else(|| memchr::memmem::find(body.get(at..)?, b"\n\n").map(|i| (i, 2)))?;
        let head = body.get(at..at + head_len.0)?;
        let start = at + head_len.0 + head_len.1;
        let next = start + finder.find(body.get(start..)?)?;
        // The line break before the delimiter belongs to it.
        let mut end = next;
        if body.get(..end)?.ends_with(b"\r\n") {
            end -= 2;
        } else if body.get(..end)?.ends_with(b"\n") {
            end -= 1;
        }
        let content = body.get(start..end.max(start))?;
        let head = String::from_utf8_lossy(head).to_ascii_lowercase();
        let part_type = head
            .lines()
            .find_map(|line| line.strip_prefix("content-type:"))
            .map(|t| t.trim().to_string())
            .unwrap_or_default();
        let encoded = head.lines().any(|line| {
            line.starts_with("content-transfer-encoding:")
                && !line.contains("8bit")
                && !line.contains("7bit")
                && !line.contains("binary")
        });
        let text = !encoded
            && match classify(content, &part_type) {
                BodyKind::Json | BodyKind::Text | BodyKind::Empty => true,
                BodyKind::Multipart | BodyKind::Unscannable => false,
            };
        parts.push(Part { start, end: end.max(start), text });
        at = next + delimiter.len();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::CompiledPolicy;
    use crate::policy::Policy;

    fn redact_with(policy: Policy, body: &[u8]) -> Redaction {
        let policy = CompiledPolicy::new(policy).unwrap();
        let minter = TokenMinter::new([1; 32]);
        Redactor {
            profile: policy.profile(None),
            provider: Provider::OpenAiChat,
            minter: &minter,
            scope: b"t",
            taken: &|_, _| false,
        }
        .redact(body)
    }

    fn redact(body: &[u8]) -> Redaction {
        redact_with(Policy::default(), body)
    }

    #[test]
    fn the_model_stage_findings_are_merged_into_the_edits() {
        let mut policy = Policy::default();
        policy.detectors.model.enabled = true;
        policy.actions.insert("ORGANIZATION".into(), crate::policy::Action::Mask);
        let policy = CompiledPolicy::new(policy).unwrap();
        let engine = &policy.profile(None).engine;
        let minter = TokenMinter::new([1; 32]);
        let redactor = Redactor {
            profile: policy.profile(None),
            provider: Provider::OpenAiChat,
            minter: &minter,
            scope: b"t",
            taken: &|_, _| false,
        };
        let body =
            br#"{"model":"m","messages":[{"role":"user","content":"Mail jane.doe@example.com at Acme Widgets Ltd"}]}"#;
        let text = b"Mail jane.doe@example.com at Acme Widgets Ltd";
        let asked: std::cell::RefCell<Vec<Vec<u8>>> = Default::default();
        let org = engine.model_rule("ORGANIZATION").unwrap();
        let model = |t: &[u8]| {
            asked.borrow_mut().push(t.to_vec());
            // The model also proposes the address the rules found, shorter: the rule wins.
            vec![
                Finding { start: 29, end: 45, rule: org, confidence: 0.8 },
                Finding { start: 5, end: 13, rule: org, confidence: 0.9 },
            ]
        };
        let r = redactor.redact_typed_with(body, "application/json", &model);
        assert_eq!(asked.borrow().as_slice(), [text.to_vec()]);
        let Verdict::Rewrite(out) = r.verdict else { panic!("{:?}", r.verdict) };
        let out = String::from_utf8(out).unwrap();
        assert!(out.contains("«token:EMAIL:") && out.ends_with(r#" at [ORGANIZATION]"}]}"#), "{out}");
        assert_eq!(r.counts.get("ORGANIZATION"), Some(&1));
        // Structure is never asked about; without the hook the rules alone decide.
        let alone = redactor.redact_typed(body, "application/json");
        assert_eq!(alone.counts.get("ORGANIZATION"), None);
    }

    #[test]
    fn nothing_to_change_is_forwarded() {
        let body = br#"{"model":"gpt-4o","messages":[{"role":"user","content":"hello there"}]}"#;
        let r = redact(body);
        assert_eq!(r.verdict, Verdict::Forward);
        assert_eq!(r.kind, BodyKind::Json);
    }

    #[test]
    fn tokenizes_text_fields_and_keeps_the_rest_byte_identical() {
        let body = br#"{ "model" : "gpt-4o",  "user":"jane@example.com",
            "messages":[{"role":"system","content":"ops: 10.1.2.3"},
                        {"role":"user","content":[{"type":"text","text":"mail jane@example.com"},
                                                   {"type":"image_url","image_url":{"url":"data:image/png;base64,AAAA"}}]}],
            "temperature": 1.0e0 }"#;
        let r = redact(body);
        let Verdict::Rewrite(out) = &r.verdict else { panic!("expected a rewrite") };
        let out = std::str::from_utf8(out).unwrap();
        // Every string is scanned, `user` too. Whitespace and numbers kept.
        assert!(out.contains(r#""user":"«token:EMAIL:"#), "{out}");
        assert!(out.starts_with(r#"{ "model" : "gpt-4o",  "#));
        assert!(out.ends_with(r#""temperature": 1.0e0 }"#));
        assert!(out.contains(r#""content":"ops: «token:PRIVATE_IP:"#));
        assert!(out.contains(r#""text":"mail «token:EMAIL:"#));
        assert_eq!(r.counts.get("EMAIL"), Some(&2));
        assert_eq!(r.counts.get("PRIVATE_IP"), Some(&1));
        assert_eq!(r.tokens.len(), 2);
        // The image's data URL is media: byte for byte.
        assert!(out.contains("data:image/png;base64,AAAA"));
        serde_json::from_str::<serde_json::Value>(out).unwrap();
    }

    #[test]
    fn escaped_values_are_found_and_replaced_whole() {
        let body = br#"{"messages":[{"role":"user","content":"x jane\u0040example.com y"}]}"#;
        let r = redact(body);
        let Verdict::Rewrite(out) = &r.verdict else { panic!("expected a rewrite") };
        let out = std::str::from_utf8(out).unwrap();
        assert!(!out.contains("example.com"));
        assert!(out.contains(r#""x «token:EMAIL:"#) && out.contains(r#"» y""#));
    }

    #[test]
    fn same_value_same_token_within_a_request() {
        let body = br#"{"messages":[{"role":"user","content":"a@example.com"},{"role":"assistant","content":"a@example.com"}]}"#;
        let r = redact(body);
        assert_eq!(r.tokens.len(), 1);
        assert_eq!(r.counts.get("EMAIL"), Some(&2));
    }

    /// Fields no adapter names, for every provider: each carries a value the vendor
    /// would receive (regression: the adapters' field lists let them through).
    #[test]
    fn every_string_of_every_provider_is_scanned() {
        let v = "jane.doe@example.com";
        let bodies: &[(Provider, String)] = &[
            (
                Provider::OpenAiChat,
                format!(
                    r#"{{"model":"gpt-4o","user":"{v}","metadata":{{"k":"{v}"}},"prediction":{{"type":"content","content":"{v}"}},
                "tools":[{{"type":"function","function":{{"name":"f","description":"{v}"}}}}],
                "messages":[{{"role":"assistant","content":[{{"type":"refusal","refusal":"{v}"}}]}}]}}"#
                ),
            ),
            (
                Provider::OpenAiResponses,
                format!(
                    r#"{{"model":"gpt-4o","prompt":{{"id":"pmpt_1","variables":{{"name":"{v}"}}}},
                "input":[{{"type":"function_call_output","call_id":"c","output":[{{"type":"input_text","text":"{v}"}}]}},
                         {{"type":"reasoning","summary":[{{"type":"summary_text","text":"{v}"}}]}},
                         {{"type":"custom_tool_call","call_id":"c2","name":"x","input":"{v}"}}]}}"#
                ),
            ),
            (
                Provider::Anthropic,
                format!(
                    r#"{{"model":"claude","metadata":{{"user_id":"{v}"}},"messages":[{{"role":"user","content":[
                {{"type":"document","title":"{v}","context":"{v}","source":{{"type":"text","media_type":"text/plain","data":"{v}"}}}},
                {{"type":"document","source":{{"type":"content","content":[{{"type":"text","text":"{v}"}}]}}}}]}}]}}"#
                ),
            ),
            (
                Provider::Gemini,
                format!(
                    r#"{{"contents":[{{"role":"model","parts":[{{"executableCode":{{"language":"PYTHON","code":"print('{v}')"}}}},
                {{"codeExecutionResult":{{"outcome":"OUTCOME_OK","output":"{v}"}}}}]}}]}}"#
                ),
            ),
            (Provider::Generic, format!(r#"{{"a":{{"b":[1,{{"c":"{v}"}}]}},"{v}":true}}"#)),
        ];
        for (provider, body) in bodies {
            let policy = CompiledPolicy::new(Policy::default()).unwrap();
            let minter = TokenMinter::new([1; 32]);
            let r = Redactor {
                profile: policy.profile(None),
                provider: *provider,
                minter: &minter,
                scope: b"t",
                taken: &|_, _| false,
            }
            .redact(body.as_bytes());
            let Verdict::Rewrite(out) = &r.verdict else { panic!("{provider:?}: expected a rewrite") };
            let out = std::str::from_utf8(out).unwrap();
            assert!(!out.contains(v), "{provider:?}: {out}");
            let expected = body.matches(v).count() as u32;
            assert_eq!(r.counts.get("EMAIL"), Some(&expected), "{provider:?}");
        }
    }

    /// Base64 is an encoding, not a hiding place: a text document sent as base64 is
    /// read and rewritten (re-encoded the way it came); binary media are searched for
    /// plain bytes and counted as unscannable.
    #[test]
    fn base64_media_payloads_are_decoded_and_searched() {
        use crate::encoding::base64::{encode, Style};
        let padded = Style { url_safe: false, padded: true };
        let doc = encode(b"Contract for jane.doe@example.com, SSN 123-45-6789.", padded);
        let body = format!(
            r#"{{"messages":[{{"role":"user","content":[{{"type":"document","source":{{"type":"base64","media_type":"text/plain","data":"{}"}}}}]}}]}}"#,
            String::from_utf8(doc.clone()).unwrap()
        );
        let policy = CompiledPolicy::new(Policy::default()).unwrap();
        let minter = TokenMinter::new([1; 32]);
        let r = Redactor {
            profile: policy.profile(None),
            provider: Provider::Anthropic,
            minter: &minter,
            scope: b"t",
            taken: &|_, _| false,
        }
        .redact(body.as_bytes());
        assert_eq!((r.counts.get("EMAIL"), r.counts.get("SSN"), r.unscannable), (Some(&1), Some(&1), 0));
        let Verdict::Rewrite(out) = &r.verdict else { panic!("expected a rewrite") };
        let v: serde_json::Value = serde_json::from_slice(out).unwrap();
        let data = v["messages"][0]["content"][0]["source"]["data"].as_str().unwrap();
        let (text, _) = crate::encoding::base64::decode(data.as_bytes()).unwrap();
        let text = String::from_utf8(text).unwrap();
        assert!(text.starts_with("Contract for «token:EMAIL:") && !text.contains("example.com"), "{text}");
        // Written as it came: the standard alphabet, padded.
        assert!(data.len() % 4 == 0 && !data.contains(['-', '_']), "{data}");

        // An image whose metadata carries an email, as a data URL (URL-safe, unpadded).
        let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
        png.extend_from_slice(b"tEXtAuthor\0jane.doe@example.com\0\0");
        let url_safe = Style { url_safe: true, padded: false };
        let url = format!("data:image/png;base64,{}", String::from_utf8(encode(&png, url_safe)).unwrap());
        let body = format!(
            r#"{{"messages":[{{"role":"user","content":[{{"type":"image_url","image_url":{{"url":"{url}"}}}}]}}]}}"#
        );
        let r = redact(body.as_bytes());
        assert_eq!((r.counts.get("EMAIL"), r.unscannable), (Some(&1), 1));
        let Verdict::Rewrite(out) = &r.verdict else { panic!("expected a rewrite") };
        let v: serde_json::Value = serde_json::from_slice(out).unwrap();
        let url = v["messages"][0]["content"][0]["image_url"]["url"].as_str().unwrap();
        let payload = url.strip_prefix("data:image/png;base64,").unwrap();
        let (bytes, _) = crate::encoding::base64::decode(payload.as_bytes()).unwrap();
        assert!(!payload.contains(['=', '+', '/']), "{payload}");
        assert!(bytes.starts_with(b"\x89PNG") && !bytes.windows(11).any(|w| w == b"example.com"));

        // A value in base64's alphabet under a media key is read as the text it is too.
        for value in ["AKIAIOSFODNN7EXAMPLE", "4111111111111111"] {
            let body = format!(
                r#"{{"messages":[{{"role":"user","content":[{{"type":"document","source":{{"type":"text","media_type":"text/plain","data":"{value}"}}}}]}}]}}"#
            );
            let r = redact(body.as_bytes());
            let Verdict::Rewrite(out) = &r.verdict else { panic!("{value}: expected a rewrite") };
            assert!(!String::from_utf8_lossy(out).contains(value));
        }

        // A plain image: forwarded byte for byte, counted.
        let body = format!(
            r#"{{"contents":[{{"parts":[{{"inlineData":{{"mimeType":"image/png","data":"{}"}}}}]}}]}}"#,
            String::from_utf8(encode(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0", padded)).unwrap()
        );
        let r = redact(body.as_bytes());
        assert_eq!((r.verdict.clone(), r.unscannable), (Verdict::Forward, 1));
    }

    #[test]
    fn duplicate_keys_are_all_scanned() {
        let r = redact(br#"{"messages":[{"role":"user","content":"a@example.com","content":"b@example.com"}]}"#);
        assert_eq!(r.counts.get("EMAIL"), Some(&2));
    }

    #[test]
    fn lenient_json_is_refused_or_scanned_as_text() {
        for body in [
            &br#"{"messages":[{"role":"user","content":"jane@example.com"}],"temperature":NaN}"#[..],
            br#"{"messages":[{"role":"user","content":"jane@example.com"},]}"#,
            b"{\"messages\":[{\"role\":\"user\",\"content\":\"jane\\u0040example.com\"}],\"x\":\"\xff\"}",
            br#"{"messages":[{"role":"user","content":"jane@example.com"}] // trailing comment"#,
            br#"  [1, 2"#,
        ] {
            let r = redact(body);
            assert_eq!(r.verdict, Verdict::Refuse(Refusal::InvalidJson), "{}", String::from_utf8_lossy(body));
            assert!(r.counts.is_empty() && r.tokens.is_empty());
            let mut p = Policy::default();
            p.limits.invalid_json = InvalidJson::ScanText;
            let r = redact_with(p, body);
            if body.starts_with(b"  [") {
                continue;
            }
            assert_eq!(r.kind, BodyKind::Text);
            let Verdict::Rewrite(out) = &r.verdict else { panic!("expected a rewrite") };
            assert!(!out.windows(6).any(|w| w == br"@"), "{}", String::from_utf8_lossy(out));
            assert_eq!(r.counts.get("EMAIL"), Some(&1));
        }
    }

    #[test]
    fn a_byte_order_mark_and_deep_nesting_are_accepted() {
        let r = redact(b"\xEF\xBB\xBF{\"messages\":[{\"role\":\"user\",\"content\":\"a@example.com\"}]}");
        assert_eq!(r.kind, BodyKind::Json);
        let Verdict::Rewrite(out) = &r.verdict else { panic!("expected a rewrite") };
        assert!(out.starts_with(b"\xEF\xBB\xBF{\"messages\":[{\"role\":\"user\",\"content\":\"\xc2\xabtoken:EMAIL:"));
        let deep = |n: usize| format!("{}\"a@example.com\"{}", "[".repeat(n), "]".repeat(n));
        let r = redact(deep(json::MAX_DEPTH).as_bytes());
        assert_eq!(r.counts.get("EMAIL"), Some(&1));
        assert_eq!(redact(deep(json::MAX_DEPTH + 1).as_bytes()).verdict, Verdict::Refuse(Refusal::InvalidJson));
    }

    #[test]
    fn form_bodies_are_read_as_a_server_reads_them() {
        let policy = CompiledPolicy::new(Policy::default()).unwrap();
        let minter = TokenMinter::new([1; 32]);
        let redactor = Redactor {
            profile: policy.profile(None),
            provider: Provider::Generic,
            minter: &minter,
            scope: b"t",
            taken: &|_, _| false,
        };
        let body = b"subject=hi&note=mail+jane%40example.com+card+4111+1111+1111+1111";
        let r = redactor.redact_typed(body, "application/x-www-form-urlencoded");
        assert_eq!((r.counts.get("EMAIL"), r.counts.get("CREDIT_CARD")), (Some(&1), Some(&1)), "{:?}", r.counts);
        let Verdict::Rewrite(out) = &r.verdict else { panic!("expected a rewrite") };
        let out = String::from_utf8_lossy(out);
        assert!(out.starts_with("subject=hi&note=mail+\u{ab}token:EMAIL:") && !out.contains("%40"), "{out}");
    }

    #[test]
    fn bodies_are_classified_by_type_and_content() {
        let table: &[(&[u8], &str, BodyKind)] = &[
            (b"", "application/json", BodyKind::Empty),
            (b"{}", "", BodyKind::Json),
            (b" \n[1]", "text/plain", BodyKind::Json),
            (b"\xEF\xBB\xBF{}", "", BodyKind::Json),
            (b"nope", "application/json; charset=utf-8", BodyKind::Json),
            (b"hello", "", BodyKind::Text),
            (b"{\"a\":1}\n{\"a\":2}", "application/x-ndjson", BodyKind::Text),
            (b"a=b&c=d", "application/x-www-form-urlencoded", BodyKind::Text),
            (b"\x89PNG\r\n\x1a\n\0\0", "image/png", BodyKind::Unscannable),
            (b"hello", "application/octet-stream", BodyKind::Unscannable),
            (b"\x00\x01\x02", "", BodyKind::Unscannable),
            (b"\xff\xfe text", "text/plain", BodyKind::Text),
            (b"--x", "multipart/form-data; boundary=x", BodyKind::Multipart),
        ];
        for (body, content_type, kind) in table {
            assert_eq!(classify(body, content_type), *kind, "{content_type} {}", String::from_utf8_lossy(body));
        }
    }

    #[test]
    fn multipart_text_parts_are_scanned_and_binary_ones_counted() {
        let body = b"--XyZ\r\nContent-Disposition: form-data; name=\"prompt\"\r\n\r\nmail jane@example.com\r\n\
            --XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.jsonl\"\r\nContent-Type: application/jsonl\r\n\r\n\
            {\"messages\":[{\"content\":\"ssn 123-45-6789\"}]}\r\n\
            --XyZ\r\nContent-Disposition: form-data; name=\"audio\"; filename=\"a.wav\"\r\nContent-Type: audio/wav\r\n\r\nRIFF\x00\x01jane@example.com\r\n\
            --XyZ--\r\n";
        let policy = CompiledPolicy::new(Policy::default()).unwrap();
        let minter = TokenMinter::new([1; 32]);
        let redactor = Redactor {
            profile: policy.profile(None),
            provider: Provider::Generic,
            minter: &minter,
            scope: b"t",
            taken: &|_, _| false,
        };
        let r = redactor.redact_typed(body, "multipart/form-data; boundary=XyZ");
        assert_eq!(r.kind, BodyKind::Multipart);
        assert_eq!(r.unscannable, 1);
        assert_eq!((r.counts.get("EMAIL"), r.counts.get("SSN")), (Some(&2), Some(&1)));
        let Verdict::Rewrite(out) = &r.verdict else { panic!("expected a rewrite") };
        // Even the binary part is searched byte for byte; the text parts are rewritten.
        assert!(out.windows(6).any(|w| w == b"RIFF\x00\x01"));
        assert!(!out.windows(16).any(|w| w == b"jane@example.com"));
        assert!(!out.windows(11).any(|w| w == b"123-45-6789"));
        let mut p = Policy::default();
        p.limits.unscannable = Unscannable::Block;
        let policy = CompiledPolicy::new(p).unwrap();
        let r = Redactor { profile: policy.profile(None), ..redactor }
            .redact_typed(body, "multipart/form-data; boundary=XyZ");
        assert_eq!(r.verdict, Verdict::Refuse(Refusal::Unscannable));
    }

    #[test]
    fn non_json_is_scanned_as_text_including_invalid_utf8() {
        let body = b"not json \xff\xfe 123-45-6789 \xc3";
        let r = redact(body);
        assert_eq!(r.kind, BodyKind::Text);
        let Verdict::Rewrite(out) = &r.verdict else { panic!("expected a rewrite") };
        assert!(!out.windows(11).any(|w| w == b"123-45-6789"));
        assert!(out.starts_with(b"not json \xff\xfe \xc2\xabtoken:SSN:"));
        assert!(out.ends_with(b"\xc2\xbb \xc3"));
    }

    #[test]
    fn actions_mask_redact_allow_block_and_monitor() {
        let body = br#"{"messages":[{"role":"user","content":"a@example.com 123-45-6789 10.0.0.1"}]}"#;
        let mut p = Policy::default();
        p.actions.insert("EMAIL".into(), Action::Mask);
        p.actions.insert("SSN".into(), Action::Redact);
        p.actions.insert("PRIVATE_IP".into(), Action::Allow);
        let r = redact_with(p.clone(), body);
        let Verdict::Rewrite(out) = &r.verdict else { panic!("expected a rewrite") };
        assert_eq!(
            std::str::from_utf8(out).unwrap(),
            r#"{"messages":[{"role":"user","content":"[EMAIL] **** 10.0.0.1"}]}"#
        );
        assert!(r.tokens.is_empty());

        p.actions.insert("SSN".into(), Action::Block);
        assert_eq!(redact_with(p.clone(), body).verdict, Verdict::Block { category: "SSN".into() });

        p.mode = Mode::Monitor;
        let r = redact_with(p, body);
        assert_eq!(r.verdict, Verdict::Forward);
        assert_eq!(r.counts.len(), 3);
    }

    #[test]
    fn categories_not_restored_keep_their_token_but_leave_no_value() {
        let body = br#"{"messages":[{"role":"user","content":"a@example.com 123-45-6789"}]}"#;
        let mut p = Policy::default();
        p.restore.except = vec!["SSN".into()];
        let r = redact_with(p.clone(), body);
        let Verdict::Rewrite(out) = &r.verdict else { panic!("expected a rewrite") };
        let out = std::str::from_utf8(out).unwrap();
        assert!(out.contains("«token:SSN:") && out.contains("«token:EMAIL:"), "{out}");
        assert_eq!(r.tokens.len(), 1);
        assert!(r.tokens.iter().all(|(t, _)| t.starts_with("«token:EMAIL:")));

        p.restore = crate::policy::RestoreConfig { enabled: false, except: vec!["SSN".into()] };
        let r = redact_with(p, body);
        assert!(r.tokens.iter().all(|(t, _)| t.starts_with("«token:SSN:")));
        assert_eq!(r.tokens.len(), 1);
    }

    #[test]
    fn the_next_turn_of_a_conversation_rescans_only_its_new_message() {
        let policy = CompiledPolicy::new(Policy::default()).unwrap();
        let minter = TokenMinter::new([1; 32]);
        let redactor = |scope: &'static [u8]| Redactor {
            profile: policy.profile(None),
            provider: Provider::OpenAiChat,
            minter: &minter,
            scope,
            taken: &|_, _| false,
        };
        let history = format!(
            r#"{{"role":"user","content":"{} mail jane.doe@example.com"}}"#,
            "the pipeline failed again ".repeat(4)
        );
        let turn_1 = format!(r#"{{"messages":[{history}]}}"#);
        let turn_2 = format!(
            r#"{{"messages":[{history},{{"role":"user","content":"{} and ssn 123-45-6789"}}]}}"#,
            "and now the checkout is slow ".repeat(4)
        );
        let first = redactor(b"client-a").redact(turn_1.as_bytes());
        assert_eq!(first.remembered, 0);
        let second = redactor(b"client-a").redact(turn_2.as_bytes());
        assert_eq!(second.remembered, 1);
        // The same rewrite as without memory: both values found, the same tokens.
        let fresh = CompiledPolicy::new(Policy::default()).unwrap();
        let alone = Redactor {
            profile: fresh.profile(None),
            provider: Provider::OpenAiChat,
            minter: &minter,
            scope: b"client-a",
            taken: &|_, _| false,
        }
        .redact(turn_2.as_bytes());
        assert_eq!(alone.remembered, 0);
        assert_eq!(second.verdict, alone.verdict);
        assert_eq!(second.counts, alone.counts);
        assert_eq!(redactor(b"client-b").redact(turn_2.as_bytes()).remembered, 0);
    }
}
