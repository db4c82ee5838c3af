//! The PII detection API: what the gateway answers under its `api.prefix` (and what
//! `veilctl` can answer locally), as a pure function from a request body to a response.
//!
//! Three endpoints share one contract. `detect` returns the findings of the live
//! profile's engine with UTF-16 offsets (what a browser's `String` indexes), `anonymize`
//! applies entities a client sends back (checked against the text, never trusted
//! blindly), and `detect-and-anonymize` does both. No answer and no error ever holds
//! the text or a matched value: an entity has offsets, a category and a rule id, and
//! `textPreview` is always `null`; an error names a field path or a code.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::{json, Map, Value};

use crate::detect::category::label;
use crate::detect::{Engine, Finding, Source};
use crate::token::{TokenMap, TokenMinter};

/// The largest text the API takes when the policy says nothing smaller: 256 KiB.
pub const DEFAULT_MAX_PAYLOAD_BYTES: usize = 256 * 1024;

/// An endpoint under the prefix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Endpoint {
    Detect,
    Anonymize,
    DetectAndAnonymize,
}

impl Endpoint {
    /// The endpoint a path names below `prefix` (`/veil/v1/pii/detect`), if any.
    pub fn of(prefix: &str, path: &str) -> Option<Endpoint> {
        let path = path.split(['?', '#']).next().unwrap_or(path);
        match path.strip_prefix(prefix)? {
            "/v1/pii/detect" => Some(Endpoint::Detect),
            "/v1/pii/anonymize" => Some(Endpoint::Anonymize),
            "/v1/pii/detect-and-anonymize" => Some(Endpoint::DetectAndAnonymize),
            _ => None,
        }
    }
}

/// An error of the API, as `{"error": {"code", "message"}}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorCode {
    PayloadTooLarge,
    InvalidInput,
    InternalError,
    LlmError,
}

impl ErrorCode {
    pub fn status(self) -> u16 {
        match self {
            ErrorCode::PayloadTooLarge => 413,
            ErrorCode::InvalidInput => 400,
            ErrorCode::InternalError => 500,
            ErrorCode::LlmError => 502,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            ErrorCode::PayloadTooLarge => "PAYLOAD_TOO_LARGE",
            ErrorCode::InvalidInput => "INVALID_INPUT",
            ErrorCode::InternalError => "INTERNAL_ERROR",
            ErrorCode::LlmError => "LLM_ERROR",
        }
    }
}

/// A refused API call: its code and a message that names fields, never values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    pub code: ErrorCode,
    pub message: String,
}

impl ApiError {
    fn invalid(message: impl Into<String>) -> ApiError {
        ApiError { code: ErrorCode::InvalidInput, message: message.into() }
    }

    /// The error's JSON body.
    pub fn body(&self) -> Vec<u8> {
        json!({"error": {"code": self.code.name(), "message": self.message}}).to_string().into_bytes()
    }
}

/// An answer: its HTTP status, its JSON body, and for the audit line the count of
/// findings (or of applied entities) by category.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    pub status: u16,
    pub body: Vec<u8>,
    pub findings: BTreeMap<String, u32>,
}

/// What the gateway lends a call: the live profile's engine, the largest payload it
/// allows, and the token minter and scope for `mode: token`.
pub struct Context<'a> {
    pub engine: &'a Engine,
    /// The gateway's own bound on a text (`limits.max_body_bytes`); a call's
    /// `maxPayloadBytes` can only lower it.
    pub max_payload_bytes: usize,
    pub minter: &'a TokenMinter,
    pub scope: &'a [u8],
    /// Whether the policy has a model-assisted detector this call could use.
    pub llm_available: bool,
}

/// How `anonymize` replaces an entity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// `****`.
    Redact,
    /// `[EMAIL]`.
    Placeholder,
    /// `«token:EMAIL:…»`, reversible by the gateway that issued it.
    Token,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Options {
    mode: Option<Mode>,
    confidence_threshold: Option<f32>,
    language_hint: Option<String>,
    max_payload_bytes: Option<usize>,
    llm: Option<LlmOption>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct LlmOption {
    #[serde(default)]
    enabled: bool,
}

/// An entity as a client sends it back to `anonymize` (as `detect` gave it; fields it
/// does not need are ignored).
#[derive(Debug, Deserialize)]
struct EntityIn {
    #[serde(rename = "type")]
    category: String,
    start: usize,
    end: usize,
    #[serde(default)]
    confidence: Option<f32>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Call {
    text: String,
    #[serde(default)]
    entities: Option<Vec<EntityIn>>,
    #[serde(default)]
    options: Options,
}

/// Answers one call to `endpoint` with request body `body`.
pub fn answer(endpoint: Endpoint, body: &[u8], cx: &Context<'_>) -> Answer {
    match handle(endpoint, body, cx) {
        Ok(value) => {
            let counts = value.get("stats").and_then(|s| s.get("byType")).and_then(Value::as_object).map(|by| {
                by.iter()
                    .map(|(k, v)| (k.clone(), u32::try_from(v.as_u64().unwrap_or(0)).unwrap_or(u32::MAX)))
                    .collect()
            });
            Answer { status: 200, body: value.to_string().into_bytes(), findings: counts.unwrap_or_default() }
        }
        Err(e) => Answer { status: e.code.status(), body: e.body(), findings: BTreeMap::new() },
    }
}

/// The largest request body a call whose text may hold `max_payload_bytes` can have:
/// the text as a JSON string (escapes at most sextuple a byte) and room for the rest.
pub fn max_body_bytes(max_payload_bytes: usize) -> usize {
    max_payload_bytes.saturating_mul(6).saturating_add(4096)
}

fn handle(endpoint: Endpoint, body: &[u8], cx: &Context<'_>) -> Result<Value, ApiError> {
    let bound = cx.max_payload_bytes;
    if body.len() > max_body_bytes(bound) {
        return Err(too_large(bound));
    }
    let call = parse(body)?;
    let limit = call.options.max_payload_bytes.map_or(bound, |m| m.min(bound));
    if call.text.len() > limit {
        return Err(too_large(limit));
    }
    if let Some(t) = call.options.confidence_threshold {
        if !(0.0..=1.0).contains(&t) {
            return Err(ApiError::invalid("options.confidenceThreshold must be within 0..=1"));
        }
    }
    if call.options.language_hint.as_ref().is_some_and(|l| l.len() > 35 || !l.bytes().all(is_tag_byte)) {
        return Err(ApiError::invalid("options.languageHint must be a language tag such as \"de\" or \"pt-BR\""));
    }
    let text = call.text.as_bytes();
    let llm_requested = call.options.llm.as_ref().is_some_and(|l| l.enabled);
    let mut out = Map::new();
    let detected = match endpoint {
        Endpoint::Anonymize => None,
        Endpoint::Detect | Endpoint::DetectAndAnonymize => {
            let threshold = call.options.confidence_threshold.unwrap_or(0.0);
            let findings: Vec<Finding> =
                cx.engine.scan(text).into_iter().filter(|f| f.confidence >= threshold).collect();
            detection(&mut out, cx, &call.text, &findings, llm_requested);
            Some(findings)
        }
    };
    if endpoint == Endpoint::Detect {
        return Ok(Value::Object(out));
    }
    let mode = call.options.mode.unwrap_or(Mode::Placeholder);
    let spans = match (detected, call.entities) {
        (Some(findings), _) => findings
            .iter()
            .filter_map(|f| {
                Some(Span { start: f.start, end: f.end, category: category(cx.engine, f)?, confidence: f.confidence })
            })
            .collect(),
        (None, Some(entities)) => {
            anonymized(&mut out, cx, &call.text, &entities, mode)?;
            return Ok(Value::Object(out));
        }
        (None, None) => return Err(ApiError::invalid("entities is required (the entities detect returned)")),
    };
    apply(&mut out, cx, text, spans, 0, 0, mode);
    Ok(Value::Object(out))
}

fn is_tag_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'-' || b == b'_'
}

fn too_large(limit: usize) -> ApiError {
    ApiError { code: ErrorCode::PayloadTooLarge, message: format!("the text is larger than {limit} bytes") }
}

/// The call, strictly: a JSON object with known fields; an error names the field.
fn parse(body: &[u8]) -> Result<Call, ApiError> {
    // Through a `Value`, like the policy: one deserializer for both keeps the module
    // small. A syntax error says where, never what.
    let value: Value = serde_json::from_slice(body).map_err(|e| {
        ApiError::invalid(format!("the body is not valid JSON (line {}, column {})", e.line(), e.column()))
    })?;
    serde_path_to_error::deserialize(value).map_err(|e| {
        let path = e.path().to_string();
        let at = if path == "." { "the body".to_string() } else { format!("`{path}`") };
        // serde's message may quote the value it rejected: say only where and what kind.
        let what = e.into_inner().to_string();
        let kind = if what.starts_with("unknown field") {
            "is not a field of this API"
        } else if what.starts_with("missing field") {
            "lacks a required field (text)"
        } else {
            "has a value of the wrong type or out of range"
        };
        ApiError::invalid(format!("{at} {kind}"))
    })
}

fn category<'e>(engine: &'e Engine, f: &Finding) -> Option<&'e str> {
    engine.rule(f.rule).map(|r| r.category.as_str())
}

/// Every character boundary of `text` with its byte and UTF-16 offsets, in order, the
/// end included (one pass; queries are answered in batches, never by counting from
/// the start again, so a text with many findings costs its length once).
fn boundaries(text: &str) -> impl Iterator<Item = (usize, usize)> + '_ {
    let ends = std::iter::once((text.len(), '\0'));
    text.char_indices().chain(ends).scan(0usize, |units, (byte, c)| {
        let at = (byte, *units);
        *units += c.len_utf16();
        Some(at)
    })
}

/// Offsets in ascending order, each once, to be answered in one pass.
fn ascending(offsets: impl Iterator<Item = usize>) -> std::iter::Peekable<std::vec::IntoIter<usize>> {
    let mut sorted: Vec<usize> = offsets.collect();
    sorted.sort_unstable();
    sorted.dedup();
    sorted.into_iter().peekable()
}

/// The UTF-16 offset of each byte offset in `bytes` (a byte inside a character counts
/// as the character's start).
fn units_of(text: &str, bytes: impl Iterator<Item = usize>) -> BTreeMap<usize, usize> {
    let mut wanted = ascending(bytes);
    let mut out = BTreeMap::new();
    let mut last = 0;
    for (byte, units) in boundaries(text) {
        while let Some(w) = wanted.next_if(|&w| w <= byte) {
            out.insert(w, if w == byte { units } else { last });
        }
        last = units;
    }
    out
}

/// The byte offset of each UTF-16 offset in `units` that falls on a character
/// boundary (one inside a surrogate pair, or past the end, has none).
fn bytes_of(text: &str, units: impl Iterator<Item = usize>) -> BTreeMap<usize, usize> {
    let mut wanted = ascending(units);
    let mut out = BTreeMap::new();
    for (byte, at) in boundaries(text) {
        while wanted.next_if(|&w| w < at).is_some() {}
        if wanted.next_if(|&w| w == at).is_some() {
            out.insert(at, byte);
        }
    }
    out
}

fn round(x: f64, places: i32) -> f64 {
    let f = 10f64.powi(places);
    (x * f).round() / f
}

/// `document`, `entities`, `stats` and `reliability`.
fn detection(out: &mut Map<String, Value>, cx: &Context<'_>, text: &str, findings: &[Finding], llm_requested: bool) {
    let utf16 = units_of(text, findings.iter().flat_map(|f| [f.start, f.end]));
    let at = |byte: usize| utf16.get(&byte).copied().unwrap_or(0);
    let length = text.encode_utf16().count();
    let mut entities = Vec::with_capacity(findings.len());
    let mut by_type: BTreeMap<&str, u64> = BTreeMap::new();
    let mut severity = [0u64; 3];
    let (mut min, mut max, mut sum, mut validated) = (1.0f64, 0.0f64, 0.0f64, 0usize);
    for f in findings {
        let Some(rule) = cx.engine.rule(f.rule) else { continue };
        let confidence = round(f64::from(f.confidence), 2);
        min = min.min(confidence);
        max = max.max(confidence);
        sum += confidence;
        validated += usize::from(rule.source == Source::Validated);
        *by_type.entry(rule.category.as_str()).or_default() += 1;
        if let Some(n) = severity.get_mut(rule.severity as usize) {
            *n += 1;
        }
        entities.push(json!({
            "id": format!("e{}", entities.len() + 1),
            "type": rule.category,
            "label": label(&rule.category),
            "start": at(f.start),
            "end": at(f.end),
            "textPreview": null,
            "confidence": confidence,
            "severity": rule.severity.name(),
            "source": "REGEX",
            "meta": {"ruleId": rule.id},
        }));
    }
    let n = entities.len();
    let avg = if n == 0 { 1.0 } else { sum / n as f64 };
    out.insert("document".into(), json!({"length": length, "encoding": "utf16-index"}));
    out.insert("entities".into(), Value::Array(entities));
    out.insert(
        "stats".into(),
        json!({
            "totalEntities": n,
            "byType": by_type,
            "confidence": if n == 0 { Value::Null } else { json!({"min": min, "max": max, "avg": round(avg, 3)}) },
            "severity": {"LOW": severity[0], "MEDIUM": severity[1], "HIGH": severity[2]},
        }),
    );
    // How far to trust the answer: the mean confidence, lowered when a model was asked
    // for and not available (rules alone find fewer names and addresses).
    let llm_enabled = llm_requested && cx.llm_available;
    let score = avg * if llm_requested && !llm_enabled { 0.9 } else { 1.0 };
    out.insert(
        "reliability".into(),
        json!({
            "score": round(score, 3),
            "signals": {
                "averageConfidence": round(avg, 3),
                "validatedShare": if n == 0 { Value::Null } else { json!(round(validated as f64 / n as f64, 3)) },
                "llmRequested": llm_requested,
                "llmEnabled": llm_enabled,
                "utf16Length": length,
            },
        }),
    );
}

/// A span to replace, in bytes.
struct Span<'c> {
    start: usize,
    end: usize,
    category: &'c str,
    confidence: f32,
}

/// `anonymize` of the entities a client sent: each checked against the text.
fn anonymized(
    out: &mut Map<String, Value>,
    cx: &Context<'_>,
    text: &str,
    entities: &[EntityIn],
    mode: Mode,
) -> Result<(), ApiError> {
    if entities.len() > 100_000 {
        return Err(ApiError::invalid("entities: at most 100000"));
    }
    let bytes = bytes_of(text, entities.iter().flat_map(|e| [e.start, e.end]));
    let mut skipped = 0u64;
    let mut spans = Vec::with_capacity(entities.len());
    for e in entities {
        let fits = e.start < e.end && crate::detect::is_category(&e.category);
        let span = fits.then(|| Some((*bytes.get(&e.start)?, *bytes.get(&e.end)?))).flatten();
        match span {
            Some((start, end)) => {
                spans.push(Span { start, end, category: &e.category, confidence: e.confidence.unwrap_or(1.0) })
            }
            None => skipped += 1,
        }
    }
    apply(out, cx, text.as_bytes(), spans, skipped, 0, mode);
    Ok(())
}

/// `anonymizedText`, `applied` and (unless `detect` gave it) `stats.byType`:
/// overlapping spans resolved (the
/// longest wins, then the more confident, then the earlier), the rest replaced.
fn apply(
    out: &mut Map<String, Value>,
    cx: &Context<'_>,
    text: &[u8],
    mut spans: Vec<Span<'_>>,
    skipped: u64,
    mut overlaps: u64,
    mode: Mode,
) {
    spans.sort_by(|a, b| {
        (b.end - b.start)
            .cmp(&(a.end - a.start))
            .then(b.confidence.total_cmp(&a.confidence))
            .then(a.start.cmp(&b.start))
    });
    let mut kept: Vec<Span<'_>> = Vec::with_capacity(spans.len());
    for s in spans {
        if kept.iter().any(|k| s.start < k.end && k.start < s.end) {
            overlaps += 1;
        } else {
            kept.push(s);
        }
    }
    kept.sort_by_key(|s| s.start);
    let mut tokens = TokenMap::default();
    let mut result = Vec::with_capacity(text.len());
    let mut at = 0;
    let mut by_type: BTreeMap<String, u64> = BTreeMap::new();
    for s in &kept {
        result.extend_from_slice(text.get(at..s.start).unwrap_or_default());
        let value = text.get(s.start..s.end).unwrap_or_default();
        let replacement = match mode {
            Mode::Redact => "****".to_string(),
            Mode::Placeholder => format!("[{}]", s.category),
            Mode::Token => tokens.issue(cx.minter, cx.scope, s.category, value),
        };
        result.extend_from_slice(replacement.as_bytes());
        *by_type.entry(s.category.to_string()).or_default() += 1;
        at = s.end;
    }
    result.extend_from_slice(text.get(at..).unwrap_or_default());
    out.insert("anonymizedText".into(), Value::String(String::from_utf8_lossy(&result).into_owned()));
    out.insert(
        "applied".into(),
        json!({"totalApplied": kept.len(), "skipped": skipped, "overlapsResolved": overlaps, "mode": mode_name(mode)}),
    );
    // After `detect`, `stats` counts the same findings already.
    out.entry("stats").or_insert_with(|| json!({"byType": by_type}));
}

fn mode_name(mode: Mode) -> &'static str {
    match mode {
        Mode::Redact => "redact",
        Mode::Placeholder => "placeholder",
        Mode::Token => "token",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::CompiledPolicy;

    fn call(endpoint: Endpoint, body: &Value) -> (u16, Value) {
        call_with(endpoint, body, DEFAULT_MAX_PAYLOAD_BYTES)
    }

    fn call_with(endpoint: Endpoint, body: &Value, max: usize) -> (u16, Value) {
        let policy = CompiledPolicy::from_json(b"").unwrap();
        let minter = TokenMinter::new([7; 32]);
        let cx = Context {
            engine: policy.engine(),
            max_payload_bytes: max,
            minter: &minter,
            scope: b"api",
            llm_available: false,
        };
        let a = answer(endpoint, body.to_string().as_bytes(), &cx);
        (a.status, serde_json::from_slice(&a.body).unwrap())
    }

    /// The UTF-16 slice `start..end` of `text`, as a browser's `String` would cut it.
    fn utf16_slice(text: &str, start: u64, end: u64) -> String {
        let units: Vec<u16> = text.encode_utf16().collect();
        String::from_utf16(&units[start as usize..end as usize]).unwrap()
    }

    #[test]
    fn offsets_convert_in_one_pass_both_ways() {
        let text = "a👋é\u{301}b";
        // bytes: a 0, 👋 1..5, é 5..7, combining 7..9, b 9..10; units: a 0, 👋 1..3, é 3, ́ 4, b 5.
        let units = units_of(text, [0, 1, 5, 7, 9, 10, 3].into_iter());
        assert_eq!(units.into_iter().collect::<Vec<_>>(), [(0, 0), (1, 1), (3, 1), (5, 3), (7, 4), (9, 5), (10, 6)]);
        let bytes = bytes_of(text, [0, 1, 2, 3, 4, 5, 6, 7].into_iter());
        assert_eq!(bytes.into_iter().collect::<Vec<_>>(), [(0, 0), (1, 1), (3, 5), (4, 7), (5, 9), (6, 10)]);
    }

    #[test]
    fn endpoints_live_under_the_prefix() {
        assert_eq!(Endpoint::of("/veil", "/veil/v1/pii/detect"), Some(Endpoint::Detect));
        assert_eq!(Endpoint::of("/veil", "/veil/v1/pii/anonymize?x=1"), Some(Endpoint::Anonymize));
        assert_eq!(Endpoint::of("/veil", "/veil/v1/pii/detect-and-anonymize"), Some(Endpoint::DetectAndAnonymize));
        assert_eq!(Endpoint::of("/veil", "/v1/pii/detect"), None);
        assert_eq!(Endpoint::of("/veil", "/veil/v1/pii/detectx"), None);
    }

    #[test]
    fn detect_gives_utf16_offsets_without_the_text() {
        // Emoji (two UTF-16 units, four bytes) and a combining accent before the values.
        let text = "Hi 👋🏽 José — mail jane.doe@example.com, SSN 123-45-6789.";
        let (status, v) = call(Endpoint::Detect, &json!({"text": text}));
        assert_eq!(status, 200);
        assert_eq!(v["document"]["encoding"], "utf16-index");
        assert_eq!(v["document"]["length"], text.encode_utf16().count());
        let entities = v["entities"].as_array().unwrap();
        let found: Vec<(String, String)> = entities
            .iter()
            .map(|e| {
                assert!(e["textPreview"].is_null());
                assert_eq!(e["source"], "REGEX");
                assert!(e["meta"]["ruleId"].is_string());
                let s = utf16_slice(text, e["start"].as_u64().unwrap(), e["end"].as_u64().unwrap());
                (e["type"].as_str().unwrap().to_string(), s)
            })
            .collect();
        assert!(found.contains(&("EMAIL".into(), "jane.doe@example.com".into())), "{found:?}");
        assert!(found.contains(&("SSN".into(), "123-45-6789".into())), "{found:?}");
        assert_eq!(v["stats"]["totalEntities"], entities.len());
        assert_eq!(v["stats"]["byType"]["EMAIL"], 1);
        assert_eq!(v["reliability"]["signals"]["llmEnabled"], false);
        // Nothing of the values anywhere in the answer.
        let raw = v.to_string();
        assert!(!raw.contains("jane.doe") && !raw.contains("6789"), "{raw}");
    }

    #[test]
    fn the_threshold_filters_and_is_checked() {
        let text = json!({"text": "mail jane.doe@example.com", "options": {"confidenceThreshold": 1.0}});
        let (_, v) = call(Endpoint::Detect, &text);
        let all = call(Endpoint::Detect, &json!({"text": "mail jane.doe@example.com"})).1;
        assert!(v["entities"].as_array().unwrap().len() <= all["entities"].as_array().unwrap().len());
        let (status, v) = call(Endpoint::Detect, &json!({"text": "x", "options": {"confidenceThreshold": 2}}));
        assert_eq!((status, v["error"]["code"].as_str()), (400, Some("INVALID_INPUT")));
    }

    #[test]
    fn anonymize_applies_detected_entities_and_skips_what_does_not_fit() {
        let text = "👋 mail jane.doe@example.com now";
        let (_, detected) = call(Endpoint::Detect, &json!({"text": text}));
        let mut entities = detected["entities"].as_array().unwrap().clone();
        let email = entities.iter().find(|e| e["type"] == "EMAIL").unwrap().clone();
        // Out of range, inside the emoji's surrogate pair, empty, and one overlapping
        // the email but shorter.
        entities.push(json!({"type": "EMAIL", "start": 1000, "end": 1001}));
        entities.push(json!({"type": "EMAIL", "start": 1, "end": 4}));
        entities.push(json!({"type": "EMAIL", "start": 5, "end": 5}));
        entities.push(json!({"type": "PERSON", "start": email["start"], "end": email["start"].as_u64().unwrap() + 4}));
        for (mode, want) in [("placeholder", "👋 mail [EMAIL] now"), ("redact", "👋 mail **** now")] {
            let body = json!({"text": text, "entities": entities, "options": {"mode": mode}});
            let (status, v) = call(Endpoint::Anonymize, &body);
            assert_eq!(status, 200, "{v}");
            assert_eq!(v["anonymizedText"], want);
            assert_eq!(v["applied"]["totalApplied"], 1);
            assert_eq!(v["applied"]["skipped"], 3);
            assert_eq!(v["applied"]["overlapsResolved"], 1);
            assert_eq!(v["stats"]["byType"]["EMAIL"], 1);
        }
        let (_, v) =
            call(Endpoint::Anonymize, &json!({"text": text, "entities": [email], "options": {"mode": "token"}}));
        let out = v["anonymizedText"].as_str().unwrap();
        assert!(out.starts_with("👋 mail «token:EMAIL:") && out.ends_with("» now"), "{out}");
    }

    #[test]
    fn detect_and_anonymize_in_one_call() {
        let (status, v) = call(Endpoint::DetectAndAnonymize, &json!({"text": "SSN 123-45-6789 ok"}));
        assert_eq!(status, 200);
        assert_eq!(v["anonymizedText"], "SSN [SSN] ok");
        assert_eq!(v["stats"]["byType"]["SSN"], 1);
        assert_eq!(v["entities"][0]["type"], "SSN");
    }

    #[test]
    fn errors_are_coded_and_never_echo_the_text() {
        let secret = "jane.doe@example.com";
        let cases: Vec<(Value, u16, &str)> = vec![
            (json!({"text": secret, "colour": 1}), 400, "INVALID_INPUT"),
            (json!({"txt": secret}), 400, "INVALID_INPUT"),
            (json!({"text": 5, "options": {"mode": secret}}), 400, "INVALID_INPUT"),
            (json!({"text": secret, "options": {"mode": secret}}), 400, "INVALID_INPUT"),
            (json!({"text": secret, "options": {"languageHint": secret}}), 400, "INVALID_INPUT"),
            (json!({"text": secret, "options": {"maxPayloadBytes": 4}}), 413, "PAYLOAD_TOO_LARGE"),
        ];
        for (body, status, code) in cases {
            let (s, v) = call(Endpoint::Detect, &body);
            assert_eq!((s, v["error"]["code"].as_str()), (status, Some(code)), "{body}");
            assert!(!v.to_string().contains("jane"), "{v}");
        }
        let (s, v) = call(Endpoint::Anonymize, &json!({"text": secret}));
        assert_eq!((s, v["error"]["code"].as_str()), (400, Some("INVALID_INPUT")));
        let (s, _) = call_with(Endpoint::Detect, &json!({"text": "x".repeat(2000)}), 1024);
        assert_eq!(s, 413);
        let policy = CompiledPolicy::from_json(b"").unwrap();
        let minter = TokenMinter::new([7; 32]);
        let cx = Context {
            engine: policy.engine(),
            max_payload_bytes: 64,
            minter: &minter,
            scope: b"",
            llm_available: false,
        };
        for body in [&b"{\"text\": \"jane.doe@example.com"[..], b"not json jane", b"{\"text\":\"a\"} {}"] {
            let a = answer(Endpoint::Detect, body, &cx);
            assert_eq!(a.status, 400);
            assert!(!String::from_utf8_lossy(&a.body).contains("jane"));
        }
    }
}
