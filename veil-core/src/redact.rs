//! The request path: body bytes in, a verdict (forward, rewrite, block, refuse) out.
//!
//! Everything that goes to a protected destination is scanned unless it cannot be:
//! a JSON body scalar by scalar (every string value, every key and every number, the
//! provider's structure included: see [`Redactor::scan_json`]), JSON Lines line by
//! line, text as text (in its own charset, [`crate::charset`]), multipart bodies as a
//! MIME reader reads them ([`crate::mime`]). A body that is JSON by its type or first
//! byte and fails the strict parse is refused (or, if the policy says so, scanned as
//! text with its escapes decoded), since a lenient vendor parser would read values the
//! strict scan never reached. Bodies that are not text are still searched byte for
//! byte, never spliced (`limits.found_in_binary`), then follow the policy's
//! `unscannable` rule and are always reported.

use std::collections::BTreeMap;

use crate::audit::Outcome;
use crate::base64;
use crate::charset::Charset;
use crate::detect::Finding;
use crate::edit::{splice, Edit};
use crate::json::{self, StrSpan};
use crate::policy::{Action, FoundInBinary, InvalidJson, Mode, Profile, Unscannable};
use crate::provider::{identifier_like, Provider};
use crate::token::{TokenMap, TokenMinter};

/// How the body was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyKind {
    /// No body.
    Empty,
    Json,
    /// JSON Lines (by its type, or because it parses as one JSON value per line):
    /// every line scanned as JSON, and forwarded as JSON Lines.
    JsonLines,
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
            BodyKind::JsonLines => "json_lines",
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
    /// A value was found inside binary content, which is never rewritten
    /// (`limits.found_in_binary: block`).
    ValueInBinary,
}

impl Refusal {
    /// The audit line's outcome of a request refused for this.
    pub fn outcome(self) -> Outcome {
        match self {
            Refusal::InvalidJson => Outcome::InvalidJson,
            Refusal::Unscannable | Refusal::ValueInBinary => Outcome::UnscannableBlocked,
            Refusal::TooLarge => Outcome::TooLarge,
            Refusal::UnsupportedEncoding => Outcome::UnsupportedEncoding,
            Refusal::InvalidEncoding => Outcome::InvalidEncoding,
            Refusal::Transport => Outcome::TransportRefused,
        }
    }

    pub fn status(self) -> u16 {
        match self {
            Refusal::InvalidJson | Refusal::InvalidEncoding | Refusal::ValueInBinary => 400,
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
            Refusal::ValueInBinary => "veil_value_in_binary",
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
            Refusal::ValueInBinary => {
                "The request holds a file or media whose bytes contain sensitive data; a binary file \
                 cannot be rewritten without corrupting it, so it was not forwarded (limits.found_in_binary)."
                    .into()
            }
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
    /// [`crate::model_stage::Pass`]) merged with the rules' findings. Media payloads
    /// are not asked about.
    pub fn redact_typed_with(&self, body: &[u8], content_type: &str, model: ModelHook<'_>) -> Redaction {
        self.redact_as(body, classify(body, content_type), content_type, model)
    }

    /// Redacts a body read as `kind`.
    fn redact_as(&self, body: &[u8], mut kind: BodyKind, content_type: &str, model: ModelHook<'_>) -> Redaction {
        let mut state = State { model: Some(model), ..State::default() };
        let mut remembered = 0;
        let limits = &self.profile.limits;
        // Monitor mode never refuses: what it would refuse is scanned as text and reported.
        let enforce = self.profile.mode == Mode::Enforce;
        // A text body of a JSON Lines type, if every line is a JSON value: its lines.
        let lines = (kind == BodyKind::Text && crate::restore::lines_type(&media_type(content_type)))
            .then(|| json_lines(body))
            .flatten();
        match kind {
            BodyKind::Empty => {}
            BodyKind::Json => match self.scan_json(&mut state, body) {
                Ok(n) => remembered = n,
                Err(_) => match json_lines(body) {
                    Some(lines) => {
                        // Several JSON values, one per line: a batch file, not one document.
                        kind = BodyKind::JsonLines;
                        state = State { model: Some(model), ..State::default() };
                        remembered = self.scan_lines(&mut state, body, &lines);
                    }
                    None if limits.invalid_json == InvalidJson::ScanText || !enforce => {
                        kind = BodyKind::Text;
                        state = State { model: Some(model), ..State::default() };
                        self.scan_text(&mut state, body, 0);
                    }
                    None => return self.refused(Refusal::InvalidJson, kind),
                },
            },
            BodyKind::Text if media_type(content_type) == "application/x-www-form-urlencoded" => {
                // `+` is a space in a form (the view decodes the `%XX`); same length, so
                // the offsets are the body's.
                let spaced: Vec<u8> = body.iter().map(|&b| if b == b'+' { b' ' } else { b }).collect();
                self.scan_text(&mut state, &spaced, 0);
            }
            BodyKind::Text if lines.is_some() => {
                kind = BodyKind::JsonLines;
                remembered = self.scan_lines(&mut state, body, lines.as_deref().unwrap_or_default());
            }
            BodyKind::Text | BodyKind::Unscannable if foreign_charset(body, content_type) => {
                // Text in another charset (UTF-16 by its declaration, mark or NULs,
                // Latin-1): decoded, scanned, written back in its charset.
                let charset = param(content_type, "charset").unwrap_or_default();
                if let Some(new) = self.scan_piece(&mut state, body, "text/plain", &charset) {
                    state.edits.push(Edit { start: 0, end: body.len(), replacement: new });
                }
            }
            BodyKind::Text => self.scan_text(&mut state, body, 0),
            BodyKind::JsonLines => remembered = self.scan_lines_of(&mut state, body),
            BodyKind::Multipart => {
                // As a MIME reader reads it: transfer encodings decoded, nested parts,
                // part headers and parameters, preamble and epilogue; each part
                // re-encoded the way it came when a value in it is replaced.
                let rewritten = crate::mime::rewrite(body, content_type, &mut |piece, bytes| {
                    self.scan_mime_piece(&mut state, piece, bytes)
                });
                match rewritten {
                    Ok(Some(new)) => state.edits.push(Edit { start: 0, end: body.len(), replacement: new }),
                    Ok(None) => {}
                    // Not the multipart it says it is: what a reader may still find in
                    // it is found as text; what it encodes is counted as unreadable.
                    Err(_) => {
                        state = State { model: Some(model), ..State::default() };
                        state.unscannable += 1;
                        self.scan_text(&mut state, body, 0);
                    }
                }
            }
            // Searched byte for byte all the same (a value written in plain bytes inside
            // a "binary" body is found); counted, since what the body encodes could not
            // be read; never rewritten.
            BodyKind::Unscannable => self.scan_binary(&mut state, body),
        }
        if state.unscannable > 0 && limits.unscannable == Unscannable::Block && enforce {
            let mut refused = self.refused(Refusal::Unscannable, kind);
            refused.unscannable = state.unscannable;
            return refused;
        }
        if state.in_binary && limits.found_in_binary == FoundInBinary::Block && enforce && state.blocked.is_none() {
            let mut refused = self.refused(Refusal::ValueInBinary, kind);
            refused.unscannable = state.unscannable;
            refused.counts = std::mem::take(&mut state.counts);
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

    /// Redacts the bytes of a file being uploaded (a Gemini resumable upload's chunk),
    /// whatever its label says: the vendor stores the file, it does not parse it as the
    /// request's JSON. Read by its content: binary (a NUL byte, or not UTF-8 with a media
    /// format's signature), JSON, JSON Lines, or text.
    pub fn redact_file_with(&self, body: &[u8], model: ModelHook<'_>) -> Redaction {
        let kind = if body.is_empty() {
            BodyKind::Empty
        } else if looks_binary(body) {
            BodyKind::Unscannable
        } else if json::visit_scalars(body.strip_prefix(BOM).unwrap_or(body), &mut |_, _| {}).is_ok() {
            BodyKind::Json
        } else if json_lines(body).is_some() {
            BodyKind::JsonLines
        } else {
            BodyKind::Text
        };
        self.redact_as(body, kind, "", model)
    }

    /// One piece of a multipart body ([`crate::mime::rewrite`]): its replacement, if a
    /// value in it was replaced.
    fn scan_mime_piece(&self, state: &mut State<'_>, piece: crate::mime::Piece<'_>, bytes: &[u8]) -> Option<Vec<u8>> {
        use crate::mime::Piece;
        match piece {
            Piece::Preamble | Piece::Epilogue | Piece::Header | Piece::Param { .. } => {
                self.scan_local(state, bytes, BodyKind::Text)
            }
            Piece::Body { media_type, charset, .. } => {
                self.scan_piece(state, bytes, media_type, charset.unwrap_or_default())
            }
            Piece::Undecodable => {
                self.scan_binary(state, bytes);
                None
            }
        }
    }

    /// A piece of content of `media_type` in `charset` (a part, a text body in another
    /// charset): read as what it is, and its replacement when a value in it was
    /// replaced. Text in a charset other than UTF-8 is decoded, scanned and encoded
    /// back; a charset that cannot be read, and binary content, are unscannable.
    fn scan_piece(&self, state: &mut State<'_>, bytes: &[u8], media_type: &str, charset: &str) -> Option<Vec<u8>> {
        let kind = classify(bytes, media_type);
        if matches!(kind, BodyKind::Empty) {
            return None;
        }
        let texty = matches!(kind, BodyKind::Text | BodyKind::Json | BodyKind::JsonLines | BodyKind::Multipart)
            || !charset.is_empty()
            || foreign_charset(bytes, media_type);
        if !texty {
            self.scan_binary(state, bytes);
            return None;
        }
        match Charset::of(charset, bytes) {
            Some(Charset::Utf8) if kind == BodyKind::Unscannable => {
                self.scan_binary(state, bytes);
                None
            }
            Some(Charset::Utf8) => self.scan_local(state, bytes, kind),
            Some(other) => {
                let Some(text) = other.decode(bytes) else {
                    // Not the text it says it is.
                    self.scan_binary(state, bytes);
                    return None;
                };
                let new = self.scan_local(state, text.as_bytes(), BodyKind::Text)?;
                let encoded = String::from_utf8(new).ok().and_then(|new| other.encode(&new));
                if encoded.is_none() {
                    // A replacement with no place in the charset: the text cannot be
                    // written back, so the request is refused as for a binary file.
                    state.in_binary = true;
                }
                encoded
            }
            // ASCII reads the same in every ASCII-compatible charset (`windows-1252`,
            // `iso-8859-15`, `shift_jis`): read as the text it is. Not in 7-bit
            // encodings that change what ASCII bytes mean (ISO-2022, UTF-7, HZ).
            None if bytes.is_ascii() && !seven_bit_charset(charset) => self.scan_local(state, bytes, kind),
            None => {
                // A charset this build cannot read: unscannable, searched byte for byte.
                self.scan_binary(state, bytes);
                None
            }
        }
    }

    /// `bytes` scanned on their own as `kind`; their replacement, if any.
    fn scan_local(&self, state: &mut State<'_>, bytes: &[u8], kind: BodyKind) -> Option<Vec<u8>> {
        let before = state.edits.len();
        match kind {
            BodyKind::Json => {
                if self.scan_json(state, bytes).is_err() {
                    // A file or a form field, not the request the vendor parses: a JSON
                    // reader's failure is no reason to read it as less than text.
                    state.edits.truncate(before);
                    match json_lines(bytes) {
                        Some(lines) => {
                            self.scan_lines(state, bytes, &lines);
                        }
                        None => self.scan_text(state, bytes, 0),
                    }
                }
            }
            BodyKind::JsonLines => {
                self.scan_lines_of(state, bytes);
            }
            _ => match lines_by_content(bytes) {
                Some(lines) => {
                    self.scan_lines(state, bytes, &lines);
                }
                None => self.scan_text(state, bytes, 0),
            },
        }
        let inner = state.edits.split_off(before);
        (!inner.is_empty()).then(|| splice(bytes, inner))
    }

    /// A body read as JSON Lines: its lines, or the whole as text when they are not
    /// (a type that says JSON Lines over a body that is not).
    fn scan_lines_of(&self, state: &mut State<'_>, body: &[u8]) -> usize {
        match json_lines(body) {
            Some(lines) => self.scan_lines(state, body, &lines),
            None => {
                self.scan_text(state, body, 0);
                0
            }
        }
    }

    /// Every line of a JSON Lines body (`lines`, from [`json_lines`]) as the JSON
    /// document it is.
    fn scan_lines(&self, state: &mut State<'_>, body: &[u8], lines: &[(usize, usize)]) -> usize {
        let mut remembered = 0;
        for &(start, end) in lines {
            let before = state.edits.len();
            // Each line parsed on its own before ([`json_lines`]), so this cannot fail.
            remembered += self.scan_json(state, body.get(start..end).unwrap_or_default()).unwrap_or(0);
            for edit in state.edits.get_mut(before..).unwrap_or_default() {
                edit.start += start;
                edit.end += start;
            }
        }
        remembered
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

    /// Every scalar of a strict JSON document (a UTF-8 byte-order mark before it is
    /// accepted, as vendors do) in one scan: every string value, every key and every
    /// number. Nothing is exempt by its shape: a model name, a role or an id is scanned
    /// like text, and left as it is only because nothing is found in it. A short value
    /// is read with its key before it (`ssn: 123456789`), as a person reads the field.
    /// Returns how many texts were answered from the engine's memory.
    fn scan_json(&self, state: &mut State<'_>, body: &[u8]) -> Result<usize, json::JsonError> {
        let skip = if body.starts_with(BOM) { BOM.len() } else { 0 };
        let doc = body.get(skip..).unwrap_or_default();
        let provider = self.provider;
        let mut fields: Vec<Field<'_>> = Vec::new();
        let mut media: Vec<StrSpan> = Vec::new();
        json::visit_all(doc, &mut |path, scalar| {
            let (span, what) = match scalar {
                json::Scalar::Key(span) => (span, Scalar::Key),
                json::Scalar::String(span) => (span, Scalar::String),
                json::Scalar::Number(span) => (span, Scalar::Number),
            };
            let raw = doc.get(span.start..span.end).unwrap_or_default();
            let at = StrSpan { start: span.start + skip, end: span.end + skip };
            if what == Scalar::String && provider.request_media(path, raw) {
                media.push(at);
                return;
            }
            if raw.is_empty() {
                return;
            }
            // Structure (a model name, a role) is scanned too; it is only not worth the
            // model stage's time.
            let structure = match what {
                Scalar::Key => identifier_like(raw),
                Scalar::String => provider.request_structural(path, raw),
                Scalar::Number => true,
            };
            let key = match what {
                Scalar::Key => None,
                Scalar::String | Scalar::Number => json::own_key(path).cloned(),
            };
            fields.push(Field { span: at, what, structure, key });
        })?;
        // The text each field is scanned as: a string or key decoded, a number as the
        // digits a person would type; a short value after its key.
        let decoded: Vec<json::Decoded<'_>> = fields
            .iter()
            .map(|f| {
                let raw = body.get(f.span.start..f.span.end).unwrap_or_default();
                match f.what {
                    Scalar::Number => json::Decoded::plain(number_text(raw)),
                    Scalar::Key | Scalar::String => json::decode(raw),
                }
            })
            .collect();
        let contexts: Vec<Option<Vec<u8>>> = fields
            .iter()
            .zip(&decoded)
            .map(|(f, d)| {
                let key = f.key.as_deref().filter(|k| !k.is_empty() && k.len() <= KEY_CONTEXT_MAX)?;
                (d.bytes.len() <= KEY_CONTEXT_MAX).then(|| {
                    let mut part = Vec::with_capacity(key.len() + 8 + d.bytes.len());
                    label_words(key, &mut part);
                    part.extend_from_slice(b": ");
                    part.extend_from_slice(&d.bytes);
                    part
                })
            })
            .collect();
        let payloads: Vec<Option<Payload>> =
            media.iter().map(|span| Payload::read(body.get(span.start..span.end).unwrap_or_default())).collect();
        // A media value is read twice: as the text it is (a key id or a card number is
        // base64's alphabet too) and as what it encodes.
        let media_as_text: Vec<json::Decoded<'_>> =
            media.iter().map(|span| json::decode(body.get(span.start..span.end).unwrap_or_default())).collect();
        // Every field and media payload in one scan (a scan has fixed costs; a chat has
        // many short messages), findings by offsets into each.
        let mut parts: Vec<&[u8]> =
            decoded.iter().zip(&contexts).map(|(d, context)| context.as_deref().unwrap_or(d.bytes.as_ref())).collect();
        parts.extend(media_as_text.iter().map(|d| d.bytes.as_ref()));
        parts.extend(payloads.iter().flatten().map(|p| p.data.as_slice()));
        let (found, remembered) = self.profile.engine.scan_parts_remembered(self.scope, &parts);
        let (field_found, rest) = found.split_at(fields.len().min(found.len()));
        let (as_text, media_found) = rest.split_at(media.len().min(rest.len()));
        for (((field, decoded), context), findings) in fields.iter().zip(&decoded).zip(&contexts).zip(field_found) {
            // Findings in the key before a value belong to the key's own scan.
            let shift = context.as_ref().map_or(0, |c| c.len() - decoded.bytes.len());
            let mut findings: Vec<Finding> = findings
                .iter()
                .filter(|f| f.end > shift)
                .map(|f| Finding { start: f.start.max(shift) - shift, end: f.end - shift, ..*f })
                .collect();
            if !field.structure {
                if let Some(model) = state.model {
                    let proposed = model_findings(model, &decoded.bytes);
                    if !proposed.is_empty() {
                        findings = self.profile.engine.merge_model(&findings, &proposed);
                    }
                }
            }
            if findings.is_empty() {
                continue;
            }
            let raw = body.get(field.span.start..field.span.end).unwrap_or_default();
            match field.what {
                Scalar::Number => self.apply_number(state, raw, &decoded.bytes, &findings, field.span),
                Scalar::Key | Scalar::String => {
                    self.apply(state, &decoded.bytes, &findings, |offset| field.span.start + decoded.raw_offset(offset))
                }
            }
        }
        for ((span, decoded), findings) in media.iter().zip(&media_as_text).zip(as_text) {
            self.apply(state, &decoded.bytes, findings, |offset| span.start + decoded.raw_offset(offset));
        }
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
            if !payload.text {
                // Binary media: a value inside is counted and the file left whole (a
                // splice would break its lengths and checksums).
                self.found_in_binary(state, findings);
                continue;
            }
            // The payload's own edits, then the payload re-encoded in place of the span.
            let new = if payload.wide {
                self.scan_piece(state, &payload.data, "text/plain", "")
            } else {
                let before = state.edits.len();
                self.apply(state, &payload.data, findings, |offset| offset);
                let inner = state.edits.split_off(before);
                (!inner.is_empty()).then(|| splice(&payload.data, inner))
            };
            if let Some(new) = new {
                let mut replacement = payload.prefix.clone();
                replacement.extend(base64::encode(&new, payload.style));
                state.edits.push(Edit { start: span.start, end: span.end, replacement });
            }
        }
        Ok(remembered)
    }

    /// A JSON number with findings: replaced, whole, by a JSON string of its digits with
    /// each finding's replacement in it. A token that is the whole number stands for
    /// the number as it was written, and is restored as that number where it comes back
    /// as a JSON value on its own ([`crate::token::NUMBER_MARK`]).
    fn apply_number(&self, state: &mut State<'_>, raw: &[u8], digits: &[u8], findings: &[Finding], span: StrSpan) {
        let before = state.edits.len();
        let whole = findings.len() == 1 && findings.iter().all(|f| f.start == 0 && f.end == digits.len());
        if whole {
            let mut literal = crate::token::NUMBER_MARK.to_vec();
            literal.extend_from_slice(raw);
            // The value a token of the whole number stands for is the literal, marked.
            let marked: Vec<Finding> =
                findings.iter().map(|f| Finding { start: 0, end: literal.len(), ..*f }).collect();
            self.apply(state, &literal, &marked, |offset| offset);
        } else {
            self.apply(state, digits, findings, |offset| offset);
        }
        let inner = state.edits.split_off(before);
        if inner.is_empty() {
            return;
        }
        let text = if whole {
            inner.into_iter().next().map(|e| e.replacement).unwrap_or_default()
        } else {
            splice(digits, inner)
        };
        let mut replacement = Vec::with_capacity(text.len() + 2);
        replacement.push(b'"');
        json::escape_into(&mut replacement, &String::from_utf8_lossy(&text));
        replacement.push(b'"');
        state.edits.push(Edit { start: span.start, end: span.end, replacement });
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

impl Redactor<'_> {
    /// Findings in binary content: counted like any, never spliced into the bytes; one
    /// whose action would change them marks the request ([`FoundInBinary`]).
    fn found_in_binary(&self, state: &mut State<'_>, findings: &[Finding]) {
        let enforce = self.profile.mode == Mode::Enforce;
        for finding in findings {
            let Some(rule) = self.profile.engine.rule(finding.rule) else { continue };
            let category = rule.category.as_str();
            *state.counts.entry(category.to_string()).or_insert(0) += 1;
            if !enforce {
                continue;
            }
            match self.profile.action(category) {
                Action::Allow => {}
                Action::Block => {
                    state.blocked.get_or_insert_with(|| category.to_string());
                }
                Action::Tokenize | Action::Mask | Action::Redact => state.in_binary = true,
            }
        }
    }

    /// Binary bytes (at `base` in the body): searched byte for byte, counted as
    /// unscannable, never rewritten.
    fn scan_binary(&self, state: &mut State<'_>, bytes: &[u8]) {
        state.unscannable += 1;
        let findings = self.profile.engine.scan(bytes);
        self.found_in_binary(state, &findings);
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
    /// UTF-8 without NUL bytes, or UTF-16/32 text: a text document, not media.
    text: bool,
    /// UTF-16 or UTF-32 text: decoded before it is scanned, encoded back after.
    wide: bool,
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
        // UTF-16 or UTF-32 text (by its mark or its NULs), such as a document sent as
        // `text/plain` from a Windows tool.
        let wide = !text && matches!(Charset::of("", &data), Some(Charset::Utf16 { .. } | Charset::Utf32 { .. }));
        Some(Payload { prefix: prefix.to_vec(), data, style, text: text || wide, wide })
    }
}

/// What kind of JSON scalar a scanned field is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Scalar {
    Key,
    String,
    Number,
}

/// One scalar of a JSON request to scan.
struct Field<'d> {
    /// Its raw bytes in the body (a string's or key's contents between the quotes).
    span: StrSpan,
    what: Scalar,
    /// Looks like the API's structure: scanned by the rules, not sent to the model stage.
    structure: bool,
    /// The key it is the value of (its array's, for an element), read before a short
    /// value as its label.
    key: Option<std::borrow::Cow<'d, str>>,
}

/// Values up to this many bytes are scanned after their key (`ssn: 123456789`); a
/// longer text carries its own context.
const KEY_CONTEXT_MAX: usize = 64;

/// A key written as the words a label says: `user_ssn`, `phone-number`, `dateOfBirth`
/// read as `user ssn`, `phone number`, `date Of Birth`, so a context word in it is one.
fn label_words(key: &str, out: &mut Vec<u8>) {
    let mut prev_lower = false;
    for &b in key.as_bytes() {
        if matches!(b, b'_' | b'-' | b'.') {
            out.push(b' ');
            prev_lower = false;
            continue;
        }
        if b.is_ascii_uppercase() && prev_lower {
            out.push(b' ');
        }
        prev_lower = b.is_ascii_lowercase() || b.is_ascii_digit();
        out.push(b);
    }
}

/// A JSON number as the digits a person would type: an exponent written out
/// (`4.111111111111111e15` is `4111111111111111`, `1.5E-3` is `0.0015`) and a zero
/// fraction dropped (`4111111111111111.0`); the sign kept. A number whose exponent
/// would write out more than 64 digits is read as it is.
pub fn number_text(raw: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    use std::borrow::Cow;
    let (sign, unsigned) = match raw.split_first() {
        Some((b'-', rest)) => (&b"-"[..], rest),
        _ => (&b""[..], raw),
    };
    let (mantissa, exponent) = match unsigned.iter().position(|&b| b == b'e' || b == b'E') {
        Some(at) => {
            let exp = std::str::from_utf8(unsigned.get(at + 1..).unwrap_or_default()).ok();
            match exp.and_then(|e| e.trim_start_matches('+').parse::<i64>().ok()) {
                Some(e) if e.abs() <= 64 => (unsigned.get(..at).unwrap_or_default(), e),
                _ => return Cow::Borrowed(raw),
            }
        }
        None => (unsigned, 0),
    };
    let (int, frac) = match mantissa.iter().position(|&b| b == b'.') {
        Some(at) => (mantissa.get(..at).unwrap_or_default(), mantissa.get(at + 1..).unwrap_or_default()),
        None => (mantissa, &b""[..]),
    };
    if exponent == 0 && (frac.is_empty() || frac.iter().any(|&b| b != b'0')) {
        return Cow::Borrowed(raw);
    }
    // All digits, and where the decimal point falls in them.
    let digits: Vec<u8> = int.iter().chain(frac).copied().collect();
    let point = int.len() as i64 + exponent;
    let mut out = sign.to_vec();
    if point <= 0 {
        out.extend_from_slice(b"0.");
        out.extend(std::iter::repeat_n(b'0', point.unsigned_abs() as usize));
        out.extend_from_slice(&digits);
    } else {
        let point = point as usize;
        out.extend(digits.iter().take(point));
        out.extend(std::iter::repeat_n(b'0', point.saturating_sub(digits.len())));
        let rest = digits.get(point..).unwrap_or_default();
        if rest.iter().any(|&b| b != b'0') {
            out.push(b'.');
            out.extend_from_slice(rest);
        }
    }
    // No leading zeros a person would not type (`0.41e1` is `4.1`).
    let body_at = sign.len();
    while out.len() > body_at + 1 && out.get(body_at) == Some(&b'0') && out.get(body_at + 1) != Some(&b'.') {
        out.remove(body_at);
    }
    Cow::Owned(out)
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
    /// A finding whose action would change the bytes was in binary content.
    in_binary: bool,
}

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The model stage's findings of `text`, only those within it.
fn model_findings(model: ModelHook<'_>, text: &[u8]) -> Vec<Finding> {
    let mut found = model(text);
    found.retain(|f| f.start < f.end && f.end <= text.len());
    found
}

/// The lines of a JSON Lines body (byte ranges, line ends and blank lines left out) when
/// every non-blank line is one strict JSON value and there are at least two.
fn json_lines(body: &[u8]) -> Option<Vec<(usize, usize)>> {
    let mut lines = Vec::new();
    let mut at = 0;
    while at < body.len() {
        let end = memchr::memchr(b'\n', body.get(at..)?).map_or(body.len(), |i| at + i);
        let line = body.get(at..end)?;
        let trimmed = line.trim_ascii_end();
        if !trimmed.trim_ascii_start().is_empty() {
            let doc = if at == 0 { trimmed.strip_prefix(BOM).unwrap_or(trimmed) } else { trimmed };
            json::visit_scalars(doc, &mut |_, _| {}).ok()?;
            let start = at + (trimmed.len() - doc.len());
            lines.push((start, at + trimmed.len()));
        }
        at = end + 1;
    }
    (lines.len() >= 2).then_some(lines)
}

/// The lines of text that is JSON Lines by its content (every line one JSON value, two
/// or more).
fn lines_by_content(bytes: &[u8]) -> Option<Vec<(usize, usize)>> {
    matches!(bytes.iter().find(|b| !b.is_ascii_whitespace()), Some(b'{' | b'[')).then(|| json_lines(bytes)).flatten()
}

/// A parameter of a header value (`charset` of a content type), unquoted.
fn param(value: &str, name: &str) -> Option<String> {
    value.split(';').skip(1).find_map(|p| {
        let (key, v) = p.split_once('=')?;
        key.trim().eq_ignore_ascii_case(name).then(|| v.trim().trim_matches('"').to_string())
    })
}

/// A text body (by its type, or by having none) in a charset other than UTF-8: declared
/// (`charset=utf-16`, `iso-8859-1`, any other but UTF-8), or UTF-16/32 by its mark or
/// its NUL bytes.
fn foreign_charset(body: &[u8], content_type: &str) -> bool {
    let media = media_type(content_type);
    let texty = media.is_empty() || media.starts_with("text/") || media == "application/octet-stream";
    if !texty {
        return false;
    }
    match param(content_type, "charset") {
        Some(label) => !matches!(label.to_ascii_lowercase().as_str(), "utf-8" | "utf8" | "us-ascii" | "ascii"),
        None => !matches!(Charset::of("", body), Some(Charset::Utf8)),
    }
}

/// A charset that writes text in ASCII bytes that mean something else.
fn seven_bit_charset(label: &str) -> bool {
    let label = label.trim().to_ascii_lowercase();
    ["iso-2022", "utf-7", "utf7", "hz-gb", "hz"].iter().any(|p| label.starts_with(p))
}

/// Bytes that are a binary file, not text: a NUL byte, or not UTF-8 and starting with
/// a media or archive format's signature.
fn looks_binary(body: &[u8]) -> bool {
    const SIGNATURES: &[&[u8]] = &[
        b"%PDF-",
        b"\x89PNG",
        b"GIF8",
        b"\xFF\xD8\xFF",
        b"PK\x03\x04",
        b"RIFF",
        b"ID3",
        b"\x1F\x8B",
        b"OggS",
        b"fLaC",
    ];
    memchr::memchr(0, body).is_some()
        || (std::str::from_utf8(body).is_err() && SIGNATURES.iter().any(|s| body.starts_with(s)))
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
    let lines = crate::restore::lines_type(&media);
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
    // A file labelled `application/octet-stream` (what clients send for a file type they
    // do not know, `.jsonl` among them) is text when it reads as text.
    let text_file = media == "application/octet-stream" && std::str::from_utf8(body).is_ok() && !looks_binary(body);
    if binary_type && !text_file {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::CompiledPolicy;
    use crate::policy::Policy;

    fn redact_with(policy: Policy, body: &[u8]) -> Redaction {
        let policy = CompiledPolicy::new(policy).unwrap();
        let minter = TokenMinter::new([1; 32]);
        test_redactor(&policy, &minter, Provider::OpenAiChat).redact(body)
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
        let redactor = test_redactor(&policy, &minter, Provider::OpenAiChat);
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
            let r = test_redactor(&policy, &minter, *provider).redact(body.as_bytes());
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
        use crate::base64::{encode, Style};
        let padded = Style { url_safe: false, padded: true };
        let doc = encode(b"Contract for jane.doe@example.com, SSN 123-45-6789.", padded);
        let body = format!(
            r#"{{"messages":[{{"role":"user","content":[{{"type":"document","source":{{"type":"base64","media_type":"text/plain","data":"{}"}}}}]}}]}}"#,
            String::from_utf8(doc.clone()).unwrap()
        );
        let policy = CompiledPolicy::new(Policy::default()).unwrap();
        let minter = TokenMinter::new([1; 32]);
        let r = test_redactor(&policy, &minter, Provider::Anthropic).redact(body.as_bytes());
        assert_eq!((r.counts.get("EMAIL"), r.counts.get("SSN"), r.unscannable), (Some(&1), Some(&1), 0));
        let Verdict::Rewrite(out) = &r.verdict else { panic!("expected a rewrite") };
        let v: serde_json::Value = serde_json::from_slice(out).unwrap();
        let data = v["messages"][0]["content"][0]["source"]["data"].as_str().unwrap();
        let (text, _) = crate::base64::decode(data.as_bytes()).unwrap();
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
        // Never spliced into (that breaks the file's chunk lengths and CRCs): refused,
        // or with `found_in_binary: pass` forwarded byte for byte; counted either way.
        let r = redact(body.as_bytes());
        assert_eq!((r.counts.get("EMAIL"), r.unscannable), (Some(&1), 1));
        assert_eq!(r.verdict, Verdict::Refuse(Refusal::ValueInBinary));
        let mut pass = Policy::default();
        pass.limits.found_in_binary = FoundInBinary::Pass;
        let r = redact_with(pass, body.as_bytes());
        assert_eq!((r.counts.get("EMAIL"), r.unscannable, r.verdict), (Some(&1), 1, Verdict::Forward));
        // Allowed, the value is no reason to refuse.
        let mut allow = Policy::default();
        allow.actions.insert("EMAIL".into(), Action::Allow);
        assert_eq!(redact_with(allow, body.as_bytes()).verdict, Verdict::Forward);

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
    fn keys_read_as_label_words() {
        for (key, words) in [
            ("user_ssn", "user ssn"),
            ("phone-number", "phone number"),
            ("dateOfBirth", "date Of Birth"),
            ("SSN", "SSN"),
            ("a.b", "a b"),
        ] {
            let mut out = Vec::new();
            label_words(key, &mut out);
            assert_eq!(out, words.as_bytes(), "{key}");
        }
    }

    #[test]
    fn numbers_read_as_the_digits_a_person_types() {
        for (raw, text) in [
            ("123456789", "123456789"),
            ("4.111111111111111e15", "4111111111111111"),
            ("4111111111111111.0", "4111111111111111"),
            ("4111111111111111.000", "4111111111111111"),
            ("41.11e+2", "4111"),
            ("12E2", "1200"),
            ("1.5E-3", "0.0015"),
            ("-12.5", "-12.5"),
            ("-4.1e1", "-41"),
            ("0.41e1", "4.1"),
            ("0", "0"),
            ("1e400", "1e400"),
            ("19.99", "19.99"),
        ] {
            assert_eq!(number_text(raw.as_bytes()).as_ref(), text.as_bytes(), "{raw}");
        }
    }

    /// A value written as a JSON number is found (with its key as its label) and
    /// replaced by a token string; the token stands for the number as it was written.
    #[test]
    fn numbers_are_scanned_and_replaced_by_token_strings() {
        let body = br#"{"messages":[{"role":"user","content":"hi"}],"tools_input":{"ssn": 123456789,"card":4.111111111111111e15,"n":42,"price":19.99,"ok":true},"max_tokens":1024}"#;
        let r = redact(body);
        assert_eq!((r.counts.get("SSN"), r.counts.get("CREDIT_CARD")), (Some(&1), Some(&1)), "{:?}", r.counts);
        let Verdict::Rewrite(out) = &r.verdict else { panic!("expected a rewrite") };
        let v: serde_json::Value = serde_json::from_slice(out).unwrap();
        let ssn = v["tools_input"]["ssn"].as_str().unwrap();
        let card = v["tools_input"]["card"].as_str().unwrap();
        assert!(ssn.starts_with("«token:SSN:") && card.starts_with("«token:CREDIT_CARD:"), "{ssn} {card}");
        assert_eq!((v["tools_input"]["n"].as_u64(), v["max_tokens"].as_u64()), (Some(42), Some(1024)));
        let text = std::str::from_utf8(out).unwrap();
        assert!(text.contains(r#""price":19.99,"ok":true"#) && !text.contains("123456789"), "{text}");
        let literal = |t: &str| crate::token::number_literal(r.tokens.get(t).unwrap()).map(<[u8]>::to_vec);
        assert_eq!(literal(ssn), Some(b"123456789".to_vec()));
        assert_eq!(literal(card), Some(b"4.111111111111111e15".to_vec()));
        // Masked: a string where the number was.
        let mut p = Policy::default();
        p.actions.insert("SSN".into(), Action::Mask);
        let Verdict::Rewrite(out) = redact_with(p, body).verdict else { panic!("expected a rewrite") };
        assert!(std::str::from_utf8(&out).unwrap().contains(r#""ssn": "[SSN]""#));
    }

    /// No exemption by shape: a key, a model name or an id that holds a value is
    /// rewritten; one that holds none stays byte for byte.
    #[test]
    fn keys_and_structural_values_are_scanned() {
        let body = br#"{"model":"gpt-4o-mini","messages":[{"role":"tool","tool_call_id":"call-ssn-123-45-6789","content":"ok"},{"role":"user","content":{"ssn:078-05-1120":"x"}}]}"#;
        let r = redact(body);
        assert_eq!(r.counts.get("SSN"), Some(&2), "{:?}", r.counts);
        let Verdict::Rewrite(out) = &r.verdict else { panic!("expected a rewrite") };
        let text = std::str::from_utf8(out).unwrap();
        assert!(text
            .starts_with(r#"{"model":"gpt-4o-mini","messages":[{"role":"tool","tool_call_id":"call-ssn-«token:SSN:"#));
        assert!(!text.contains("123-45-6789") && !text.contains("078-05-1120"), "{text}");
        let clean =
            br#"{"model":"gpt-4o-mini","messages":[{"role":"tool","tool_call_id":"call_abc123","content":"ok"}]}"#;
        assert_eq!(redact(clean).verdict, Verdict::Forward);
    }

    /// A batch file is JSON Lines: by its type or because each line is one JSON value;
    /// scanned line by line and forwarded as JSON Lines (not refused as one bad document).
    #[test]
    fn json_lines_are_scanned_line_by_line() {
        let body = b"{\"custom_id\":\"r1\",\"body\":{\"messages\":[{\"role\":\"user\",\"content\":\"mail jane@example.com\"}]}}\r\n\n{\"custom_id\":\"r2\",\"body\":{\"ssn\":123456789}}\n";
        for content_type in ["", "application/json", "application/jsonl", "application/x-ndjson"] {
            let policy = CompiledPolicy::new(Policy::default()).unwrap();
            let minter = TokenMinter::new([1; 32]);
            let redactor = test_redactor(&policy, &minter, Provider::Generic);
            let r = redactor.redact_typed(body, content_type);
            assert_eq!(r.kind, BodyKind::JsonLines, "{content_type}");
            assert_eq!((r.counts.get("EMAIL"), r.counts.get("SSN")), (Some(&1), Some(&1)), "{content_type}");
            let Verdict::Rewrite(out) = &r.verdict else { panic!("expected a rewrite") };
            let text = std::str::from_utf8(out).unwrap();
            let lines: Vec<&str> = text.split('\n').collect();
            assert_eq!(lines.len(), 4, "{text}");
            assert!(lines[0].ends_with('\r') && lines[1].is_empty() && lines[3].is_empty());
            for line in [lines[0].trim_end(), lines[2]] {
                let v: serde_json::Value = serde_json::from_str(line).unwrap();
                assert!(!v.to_string().contains("example.com") && !v.to_string().contains("123456789"));
            }
            // The same for a file's bytes, whatever they are labelled.
            assert_eq!(redactor.redact_file_with(body, &|_| Vec::new()).kind, BodyKind::JsonLines);
        }
        // One bad line: not JSON Lines, refused as the JSON it claims to be.
        assert_eq!(redact(b"{\"a\":1}\n{\"b\":\n").verdict, Verdict::Refuse(Refusal::InvalidJson));
    }

    /// An upload's bytes are read for what they are: a JSON file, JSON Lines, text with a
    /// `{` first that is no JSON, or binary.
    #[test]
    fn uploaded_files_are_read_by_their_content() {
        let policy = CompiledPolicy::new(Policy::default()).unwrap();
        let minter = TokenMinter::new([1; 32]);
        let redactor = test_redactor(&policy, &minter, Provider::Gemini);
        let none = |_: &[u8]| Vec::new();
        let table: &[(&[u8], BodyKind)] = &[
            (b"{\"note\":\"jane@example.com\"}", BodyKind::Json),
            (b"{ not json, mail jane@example.com", BodyKind::Text),
            (b"notes: mail jane@example.com", BodyKind::Text),
            (b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR", BodyKind::Unscannable),
        ];
        for (body, kind) in table {
            let r = redactor.redact_file_with(body, &none);
            assert_eq!(r.kind, *kind, "{}", String::from_utf8_lossy(body));
            if *kind != BodyKind::Unscannable {
                let Verdict::Rewrite(out) = &r.verdict else { panic!("expected a rewrite") };
                assert!(!out.windows(11).any(|w| w == b"example.com"));
            }
        }
    }

    /// A redactor of `policy`'s top-level profile for `provider`, scope `t`, no vault.
    fn test_redactor<'a>(policy: &'a CompiledPolicy, minter: &'a TokenMinter, provider: Provider) -> Redactor<'a> {
        fn never(_: &str, _: &[u8]) -> bool {
            false
        }
        Redactor { profile: policy.profile(None), provider, minter, scope: b"t", taken: &never }
    }

    fn generic() -> (CompiledPolicy, TokenMinter) {
        (CompiledPolicy::new(Policy::default()).unwrap(), TokenMinter::new([1; 32]))
    }

    /// Parts as a MIME reader reads them: base64 and quoted-printable decoded (and
    /// re-encoded when rewritten), nested multiparts, file names in any form, the
    /// preamble and epilogue.
    #[test]
    fn multipart_bodies_are_read_as_mime_readers_read_them() {
        let (policy, minter) = generic();
        let redactor = test_redactor(&policy, &minter, Provider::Generic);
        let b64 = String::from_utf8(base64::encode(
            b"Contract for jane.doe@example.com",
            base64::Style { url_safe: false, padded: true },
        ))
        .unwrap();
        let body = format!(
            "preamble ssn 123-45-6789\r\n--XyZ\r\nContent-Disposition: form-data; name=\"doc\"; filename*=UTF-8''ann%40example.org.txt\r\n\
             Content-Type: text/plain\r\nContent-Transfer-Encoding: base64\r\n\r\n{b64}\r\n\
             --XyZ\r\nContent-Type: multipart/mixed; boundary=inner\r\n\r\n--inner\r\nContent-Type: text/plain\r\n\
             Content-Transfer-Encoding: quoted-printable\r\n\r\nmail bob.smith@exam=\r\nple.net now\r\n--inner--\r\n\
             --XyZ--\r\nepilogue card 4111 1111 1111 1111\r\n"
        );
        let r = redactor.redact_typed(body.as_bytes(), "multipart/form-data; boundary=XyZ");
        assert_eq!(r.kind, BodyKind::Multipart);
        assert_eq!(r.unscannable, 0);
        assert_eq!(
            (r.counts.get("EMAIL"), r.counts.get("SSN"), r.counts.get("CREDIT_CARD")),
            (Some(&3), Some(&1), Some(&1)),
            "{:?}",
            r.counts
        );
        let Verdict::Rewrite(out) = &r.verdict else { panic!("expected a rewrite") };
        let out = String::from_utf8(out.clone()).unwrap();
        for value in ["123-45-6789", "ann%40example.org", "bob.smith@exam", "4111 1111"] {
            assert!(!out.contains(value), "{value} in {out}");
        }
        // The base64 part is still base64, of the rewritten text.
        let line = out.lines().find(|l| l.len() > 20 && !l.contains(' ') && !l.starts_with("--")).unwrap();
        let (text, _) = base64::decode(line.as_bytes()).unwrap();
        assert!(String::from_utf8(text).unwrap().starts_with("Contract for «token:EMAIL:"));
        // Nothing to change: byte for byte.
        let clean = "--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nhello\r\n--XyZ--\r\n";
        assert_eq!(
            redactor.redact_typed(clean.as_bytes(), "multipart/form-data; boundary=XyZ").verdict,
            Verdict::Forward
        );
        // Truncated: not the multipart it says it is, read as text and counted.
        let cut = &body[..body.len() / 2];
        let r = redactor.redact_typed(cut.as_bytes(), "multipart/form-data; boundary=XyZ");
        assert_eq!(r.unscannable, 1);
        let Verdict::Rewrite(out) = &r.verdict else { panic!("expected a rewrite") };
        assert!(!String::from_utf8_lossy(out).contains("123-45-6789"));
    }

    /// Text in another charset is decoded, scanned and written back in it; a charset
    /// no decoder here reads is unscannable.
    #[test]
    fn text_in_other_charsets_is_decoded_and_encoded_back() {
        let (policy, minter) = generic();
        let redactor = test_redactor(&policy, &minter, Provider::Gemini);
        let text = "Customer jane.doe@example.com, SSN 123-45-6789, café";
        for (charset, label) in [
            (Charset::Utf16 { little: true, bom: true }, "text/plain"),
            (Charset::Utf16 { little: false, bom: false }, "text/plain; charset=utf-16be"),
            (Charset::Utf16 { little: true, bom: false }, ""),
            (Charset::Utf32 { little: true, bom: true }, "text/plain; charset=utf-32"),
            (Charset::Latin1, "text/plain; charset=ISO-8859-1"),
        ] {
            let body = charset.encode(text).unwrap();
            let r = redactor.redact_typed(&body, label);
            assert_eq!((r.counts.get("EMAIL"), r.counts.get("SSN"), r.unscannable), (Some(&1), Some(&1), 0), "{label}");
            let Verdict::Rewrite(out) = &r.verdict else { panic!("{label}: expected a rewrite") };
            let back = charset.decode(out).unwrap();
            assert!(back.starts_with("Customer «token:EMAIL:") && back.ends_with(", café"), "{back}");
        }
        // UTF-16 inside Gemini inlineData declared text/plain.
        let data = String::from_utf8(base64::encode(
            &Charset::Utf16 { little: true, bom: true }.encode(text).unwrap(),
            base64::Style { url_safe: false, padded: true },
        ))
        .unwrap();
        let body =
            format!(r#"{{"contents":[{{"parts":[{{"inlineData":{{"mimeType":"text/plain","data":"{data}"}}}}]}}]}}"#);
        let r = redactor.redact_typed(body.as_bytes(), "application/json");
        assert_eq!((r.counts.get("EMAIL"), r.unscannable), (Some(&1), 0));
        let Verdict::Rewrite(out) = &r.verdict else { panic!("expected a rewrite") };
        let v: serde_json::Value = serde_json::from_slice(out).unwrap();
        let (sent, _) =
            base64::decode(v["contents"][0]["parts"][0]["inlineData"]["data"].as_str().unwrap().as_bytes()).unwrap();
        assert!(Charset::Utf16 { little: true, bom: true }
            .decode(&sent)
            .unwrap()
            .starts_with("Customer «token:EMAIL:"));
        // Legacy charsets (encoding_rs): Shift_JIS decoded, the token written back
        // without the marks Shift_JIS has no place for, the rest byte for byte.
        let r = redactor.redact_typed(b"mail jane.doe@example.com \x93\x8c\x8b\x9e", "text/plain; charset=shift_jis");
        assert_eq!((r.unscannable, r.counts.get("EMAIL")), (0, Some(&1)));
        let Verdict::Rewrite(out) = &r.verdict else { panic!("expected a rewrite") };
        assert!(out.starts_with(b"mail token:EMAIL:") && out.ends_with(b" \x93\x8c\x8b\x9e"), "{out:?}");
        let cp1251 = Charset::of("windows-1251", b"").unwrap().encode("Почта jane.doe@example.com").unwrap();
        let r = redactor.redact_typed(&cp1251, "text/plain; charset=windows-1251");
        let Verdict::Rewrite(out) = &r.verdict else { panic!("expected a rewrite") };
        let back = Charset::of("windows-1251", b"").unwrap().decode(out).unwrap();
        assert!(back.starts_with("Почта «token:EMAIL:"), "{back}");
        // A charset no decoder here reads (UTF-7): unscannable, and a value found in its
        // bytes refuses; ASCII alone under an ASCII-compatible label is text.
        let r = redactor.redact_typed(b"mail jane.doe@example.com", "text/plain; charset=utf-7");
        assert_eq!((r.unscannable, r.verdict), (1, Verdict::Refuse(Refusal::ValueInBinary)));
        let r = redactor.redact_typed(b"mail jane.doe@example.com", "text/plain; charset=x-unknown-8bit");
        assert_eq!((r.unscannable, r.counts.get("EMAIL")), (0, Some(&1)));
    }

    /// Keycap digits (`4️⃣`: the digit, U+FE0F, U+20E3) read as the digits they show.
    #[test]
    fn keycap_digits_are_read_as_digits() {
        let keycaps: String = "4111111111111111".chars().map(|d| format!("{d}\u{fe0f}\u{20e3}")).collect();
        let body = format!(r#"{{"messages":[{{"role":"user","content":"card {keycaps} thanks"}}]}}"#);
        let r = redact(body.as_bytes());
        assert_eq!(r.counts.get("CREDIT_CARD"), Some(&1), "{:?}", r.counts);
        let Verdict::Rewrite(out) = &r.verdict else { panic!("expected a rewrite") };
        let out = std::str::from_utf8(out).unwrap();
        assert!(out.contains("card «token:CREDIT_CARD:") && out.ends_with(" thanks\"}]}"), "{out}");
    }

    /// An e-mail address written with Cyrillic and Greek look-alike letters, raw and as
    /// JSON escapes, is found and replaced whole; Russian prose around it is not.
    #[test]
    fn look_alike_letters_are_read_as_the_letters_they_show() {
        for written in
            ["j\u{43e}hn.d\u{3bf}e@\u{435}x\u{430}mple.\u{441}om", r"j\u043ehn.d\u03bfe@\u0435x\u0430mple.\u0441om"]
        {
            let body = format!(r#"{{"messages":[{{"role":"user","content":"Напишите {written} сегодня"}}]}}"#);
            let r = redact(body.as_bytes());
            assert_eq!(r.counts.get("EMAIL"), Some(&1), "{written}: {:?}", r.counts);
            let Verdict::Rewrite(out) = &r.verdict else { panic!("expected a rewrite") };
            let out = std::str::from_utf8(out).unwrap();
            assert!(out.contains("\"Напишите «token:EMAIL:") && out.contains("» сегодня\""), "{out}");
        }
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
        let redactor = test_redactor(&policy, &minter, Provider::Generic);
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
            (b"hello", "application/octet-stream", BodyKind::Text),
            (b"\x89PNG\r\n\x1a\n\0\0", "application/octet-stream", BodyKind::Unscannable),
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
        let redactor = test_redactor(&policy, &minter, Provider::Generic);
        let r = redactor.redact_typed(body, "multipart/form-data; boundary=XyZ");
        assert_eq!(r.kind, BodyKind::Multipart);
        assert_eq!(r.unscannable, 1);
        assert_eq!((r.counts.get("EMAIL"), r.counts.get("SSN")), (Some(&2), Some(&1)));
        // The binary part is searched byte for byte; what it holds refuses the request.
        assert_eq!(r.verdict, Verdict::Refuse(Refusal::ValueInBinary));
        let mut p = Policy::default();
        p.limits.found_in_binary = FoundInBinary::Pass;
        let policy = CompiledPolicy::new(p).unwrap();
        let r = Redactor { profile: policy.profile(None), ..redactor }
            .redact_typed(body, "multipart/form-data; boundary=XyZ");
        let Verdict::Rewrite(out) = &r.verdict else { panic!("expected a rewrite") };
        // The text parts are rewritten; the binary part goes on as it came.
        assert!(out.windows(22).any(|w| w == b"RIFF\x00\x01jane@example.com"));
        assert_eq!(out.windows(16).filter(|w| w == b"jane@example.com").count(), 1);
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
