//! Model-assisted detection: the second detector of a two-stage pipeline.
//!
//! Rules find what has a shape (keys, numbers with check digits, addresses with a
//! grammar); a company-hosted model is asked for what rules find poorly (names,
//! addresses, organisations, free-form identifiers). It is only a proposer: a span it
//! names is kept only if it is an exact substring of the text at the offsets it states
//! (or, failing that, found exactly once in the text), of a category the policy
//! allows, not inside a Veil token, and not under the engine's confidence threshold.
//! What is kept becomes a [`Finding`] of the model's rule for that category and is
//! merged with the rule findings the engine's way: the longest span wins, then the
//! higher confidence ([`Engine::merge_model`]).
//!
//! Pure: the host (`host/model.rs`) dispatches the request this module builds
//! ([`request`]) to the cluster the policy names and hands the answer back
//! ([`answer`]). The engine keeps the stage's rules and remembers the answers per text
//! under a keyed hash of the token scope and the text (its memo, like the conversation
//! memory: [`Engine::model_remember`]), so a conversation's history is not sent to the
//! model again every turn. Outside the engine's crate: the engine scans, this module
//! speaks to a model (the [`crate::llm`] client) and knows Veil's tokens.
//! Nothing here formats a text, a proposal or an answer into an error or a count's
//! name.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;

use serde_json::{json, Value};

use crate::detect::config::{MAX_PROPOSALS, MODEL_CONFIDENCE};
use crate::detect::finding::resolve_overlaps;
use crate::detect::{Engine, Finding};
use crate::llm::{answer_json, Chat, ParseError};

const INSTRUCTIONS: &str = "You find personal data in a text. \
Answer with JSON only, in this shape: {\"spans\": [{\"text\": \"...\", \"category\": \"...\", \"start\": 0, \"end\": 0}]}. \
text is copied from the text exactly, character for character; start and end are its character offsets \
in the text (end not included). category is one of: CATEGORIES. \
Mark only values of those categories, each occurrence once; never mark a whole sentence. \
Text like \u{ab}token:EMAIL:1a2b\u{bb} stands for a value already removed: never mark it or a part of it. \
If there is nothing to mark, answer {\"spans\": []}.";

/// What each default category means, for the prompt; a category the policy adds is
/// named as it is.
fn describe(category: &str) -> String {
    let meaning = match category {
        "PERSON" => "names of people",
        "ADDRESS" => "postal addresses, whole",
        "ORGANIZATION" => "names of companies and organisations",
        "ID" | "IDENTIFIER" => "account, customer, case and other identifiers",
        _ => return category.to_string(),
    };
    format!("{category} ({meaning})")
}

/// The new texts of one request as the model reads them: joined with a blank line,
/// each one's place in the joined text kept.
#[derive(Debug, Clone, Default)]
pub struct Batch {
    text: String,
    /// Byte ranges of the parts in `text`.
    parts: Vec<(usize, usize)>,
}

/// Between two texts in a batch.
const SEPARATOR: &str = "\n\n";

impl Batch {
    /// The texts (UTF-8; others are never asked about) joined.
    pub fn new<'a>(texts: impl IntoIterator<Item = &'a str>) -> Batch {
        let mut batch = Batch::default();
        for text in texts {
            if !batch.parts.is_empty() {
                batch.text.push_str(SEPARATOR);
            }
            let start = batch.text.len();
            batch.text.push_str(text);
            batch.parts.push((start, batch.text.len()));
        }
        batch
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    /// The part that holds `start..end` whole, and the span relative to it.
    fn locate(&self, start: usize, end: usize) -> Option<(usize, usize, usize)> {
        let at = self.parts.partition_point(|&(s, _)| s <= start).checked_sub(1)?;
        let &(s, e) = self.parts.get(at)?;
        (end <= e).then(|| (at, start - s, end - s))
    }
}

/// One span as the model proposed it.
#[derive(Debug, Clone, PartialEq)]
pub struct Proposal {
    pub text: String,
    /// Upper case, spaces and hyphens as `_`.
    pub category: String,
    /// Character offsets into the batch's text, when stated.
    pub start: Option<usize>,
    pub end: Option<usize>,
    /// Within 0..=1, when stated.
    pub confidence: Option<f32>,
}

/// Reads the proposals of an answer (HTTP body), tolerantly: the JSON dug out of the
/// assistant text as for the verifier; a bare array or an object with `spans`,
/// `entities`, `findings`, `items` or `pii`; an item's text as `text`, `value` or
/// `span`, its category as `category`, `type`, `label` or `entity_type`, offsets as
/// `start`/`end` (or `begin`), confidence as `confidence` or `score` (a share or a
/// percentage). Items that cannot be read are skipped; at most [`MAX_PROPOSALS`].
pub fn parse_proposals(body: &[u8]) -> Result<Vec<Proposal>, ParseError> {
    let value = answer_json(body)?;
    let items = match &value {
        Value::Array(items) => items.as_slice(),
        Value::Object(map) => ["spans", "entities", "findings", "items", "pii"]
            .iter()
            .find_map(|k| map.get(*k).and_then(Value::as_array))
            .map(Vec::as_slice)
            .ok_or(ParseError::NoJson)?,
        _ => return Err(ParseError::NoJson),
    };
    let field = |item: &Value, keys: &[&str]| keys.iter().find_map(|k| item.get(*k).cloned());
    let offset = |v: Option<Value>| match v? {
        Value::Number(n) => n.as_u64().map(|n| n as usize),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    };
    let mut out = Vec::new();
    for item in items.iter().take(MAX_PROPOSALS) {
        let Some(text) = field(item, &["text", "value", "span"]).and_then(|v| v.as_str().map(str::to_string)) else {
            continue;
        };
        let category = field(item, &["category", "type", "label", "entity_type"])
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default()
            .trim()
            .to_ascii_uppercase()
            .replace([' ', '-'], "_");
        let confidence = field(item, &["confidence", "score"]).and_then(|v| v.as_f64()).filter(|c| c.is_finite());
        let confidence = confidence.map(|c| if c > 1.0 { c / 100.0 } else { c }).map(|c| c.clamp(0.0, 1.0) as f32);
        out.push(Proposal {
            text,
            category,
            start: offset(field(item, &["start", "begin"])),
            end: offset(field(item, &["end"])),
            confidence,
        });
    }
    Ok(out)
}

/// Why a proposal was not kept. Counted by name (`veil.model.dropped_total{reason}`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Dropped {
    /// Its category is not one the policy allows.
    Category,
    /// Its text is not in the text (at its offsets, nor anywhere).
    NotInText,
    /// Not at its offsets, and found more than once: where it was meant is unknown.
    Ambiguous,
    /// It overlaps a Veil token.
    InToken,
    /// It runs from one text of the request into the next.
    AcrossTexts,
    /// Its stated confidence is under the engine's threshold.
    LowConfidence,
}

impl Dropped {
    pub const ALL: [Dropped; 6] = [
        Dropped::Category,
        Dropped::NotInText,
        Dropped::Ambiguous,
        Dropped::InToken,
        Dropped::AcrossTexts,
        Dropped::LowConfidence,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Dropped::Category => "category",
            Dropped::NotInText => "not_in_text",
            Dropped::Ambiguous => "ambiguous",
            Dropped::InToken => "in_token",
            Dropped::AcrossTexts => "across_texts",
            Dropped::LowConfidence => "low_confidence",
        }
    }
}

/// What an answer gave: the kept findings of each text of the batch (offsets into
/// that text) and how many proposals were dropped, by reason.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Checked {
    pub findings: Vec<Vec<Finding>>,
    pub kept: u32,
    pub dropped: Vec<(Dropped, u32)>,
}

impl Checked {
    fn drop(&mut self, reason: Dropped) {
        match self.dropped.iter_mut().find(|(r, _)| *r == reason) {
            Some((_, n)) => *n += 1,
            None => self.dropped.push((reason, 1)),
        }
    }

    pub fn dropped_total(&self) -> u32 {
        self.dropped.iter().map(|(_, n)| n).sum()
    }
}

/// The byte offset of character `chars` in `text`, if there is one.
fn byte_at(text: &str, chars: usize) -> Option<usize> {
    text.char_indices().map(|(i, _)| i).chain(std::iter::once(text.len())).nth(chars)
}

/// Where `proposal` is in `text`: at its stated character offsets if the text there is
/// exactly its text, else the one place its text occurs.
fn place(text: &str, proposal: &Proposal) -> Result<(usize, usize), Dropped> {
    let wanted = proposal.text.as_str();
    if wanted.trim().is_empty() {
        return Err(Dropped::NotInText);
    }
    if let Some(start) = proposal.start.and_then(|s| byte_at(text, s)) {
        let end = start + wanted.len();
        if text.get(start..end) == Some(wanted) {
            return Ok((start, end));
        }
    }
    let mut found = text.match_indices(wanted).map(|(at, _)| at);
    match (found.next(), found.next()) {
        (Some(at), None) => Ok((at, at + wanted.len())),
        (Some(_), Some(_)) => Err(Dropped::Ambiguous),
        (None, _) => Err(Dropped::NotInText),
    }
}

/// The texts a request holds, as the redactor meets them: answered by this request's
/// model answer or the engine's memory of answers, or noted as still to be asked
/// ([`Pass::missing`]). The redactor's hook (`Redactor::redact_typed_with`).
#[derive(Debug)]
pub struct Pass<'a> {
    engine: &'a Engine,
    scope: &'a [u8],
    answered: Option<&'a Answered>,
    missing: RefCell<Vec<Vec<u8>>>,
    recalled: Cell<u32>,
}

/// The findings of the texts of one request's answer, by text.
pub type Answered = HashMap<Vec<u8>, Vec<Finding>>;

impl<'a> Pass<'a> {
    /// A pass over the texts of a request in `scope`; `answered`: what this request's
    /// model call gave, when it came back.
    pub fn new(engine: &'a Engine, scope: &'a [u8], answered: Option<&'a Answered>) -> Pass<'a> {
        Pass { engine, scope, answered, missing: RefCell::new(Vec::new()), recalled: Cell::new(0) }
    }

    /// The model's findings for `text` (decoded), empty when it has to be asked or
    /// there is nothing to ask (no letter in it, or not UTF-8: the model reads text).
    pub fn findings(&self, text: &[u8]) -> Vec<Finding> {
        if self.engine.model().is_none() {
            return Vec::new();
        }
        let Ok(s) = std::str::from_utf8(text) else { return Vec::new() };
        if !s.chars().any(char::is_alphabetic) {
            return Vec::new();
        }
        if let Some(found) = self.answered.and_then(|a| a.get(text)) {
            return found.clone();
        }
        if let Some(found) = self.engine.model_recall(self.scope, text) {
            self.recalled.set(self.recalled.get() + 1);
            return found;
        }
        let mut missing = self.missing.borrow_mut();
        if !missing.iter().any(|m| m == text) {
            missing.push(text.to_vec());
        }
        Vec::new()
    }

    /// The texts neither answered nor remembered, each once, in order.
    pub fn missing(self) -> Vec<Vec<u8>> {
        self.missing.into_inner()
    }

    /// How many texts were answered from the memory.
    pub fn recalled(&self) -> u32 {
        self.recalled.get()
    }
}

/// Why the texts were not sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotSent {
    /// More than `max_chars` bytes of new text.
    TooLarge,
}

/// The request body asking the model about `texts` (each not UTF-8 is skipped by
/// [`Pass`] before), and the batch its answer refers to.
pub fn request(engine: &Engine, texts: &[Vec<u8>]) -> Result<(Vec<u8>, Batch), NotSent> {
    let Some(config) = engine.model() else { return Ok((Vec::new(), Batch::default())) };
    let batch = Batch::new(texts.iter().filter_map(|t| std::str::from_utf8(t).ok()));
    if batch.text.len() > config.max_chars {
        return Err(NotSent::TooLarge);
    }
    let categories: Vec<String> = config.categories.iter().map(|c| describe(c)).collect();
    let instructions = INSTRUCTIONS.replace("CATEGORIES", &categories.join(", "));
    let schema = json!({
        "type": "object",
        "properties": {"spans": {"type": "array", "items": {
            "type": "object",
            "properties": {
                "text": {"type": "string"},
                "category": {"type": "string", "enum": config.categories},
                "start": {"type": "integer"},
                "end": {"type": "integer"},
            },
            "required": ["text", "category"],
        }}},
        "required": ["spans"],
    });
    // Room for a span per ~12 characters of text, within what small servers allow.
    let max_tokens = (96 + batch.text.chars().count() / 2).min(1024) as u32;
    let chat = Chat { endpoint: config.api, model: &config.model, temperature: 0.0 };
    Ok((chat.body(&instructions, &format!("Text:\n{}", batch.text), max_tokens, schema), batch))
}

/// Checks the proposals of an answer against the batch it answers: keeps those of
/// an allowed category whose text is exactly there, outside tokens, at or over the
/// threshold; one finding per span.
pub fn check(engine: &Engine, batch: &Batch, proposals: &[Proposal]) -> Checked {
    let mut checked = Checked { findings: vec![Vec::new(); batch.parts.len()], ..Checked::default() };
    let tokens = crate::token::find_tokens(batch.text.as_bytes());
    let mut seen: Vec<(usize, usize)> = Vec::new();
    for proposal in proposals {
        let Some(rule) = engine.model_rule(&proposal.category) else {
            checked.drop(Dropped::Category);
            continue;
        };
        let (start, end) = match place(&batch.text, proposal) {
            Ok(span) => span,
            Err(reason) => {
                checked.drop(reason);
                continue;
            }
        };
        if tokens.iter().any(|t| t.start < end && start < t.end) {
            checked.drop(Dropped::InToken);
            continue;
        }
        let confidence = proposal.confidence.unwrap_or(MODEL_CONFIDENCE);
        if confidence < engine.min_confidence() {
            checked.drop(Dropped::LowConfidence);
            continue;
        }
        let Some((part, s, e)) = batch.locate(start, end) else {
            checked.drop(Dropped::AcrossTexts);
            continue;
        };
        if seen.contains(&(start, end)) {
            continue;
        }
        seen.push((start, end));
        checked.kept += 1;
        if let Some(list) = checked.findings.get_mut(part) {
            list.push(Finding { start: s, end: e, rule, confidence });
        }
    }
    for list in &mut checked.findings {
        let all = std::mem::take(list);
        *list = resolve_overlaps(all);
    }
    checked
}

/// The answer to [`request`] for `texts`: checked, remembered per
/// text in `scope`, and returned by text with the counts.
pub fn answer(
    engine: &Engine,
    scope: &[u8],
    texts: &[Vec<u8>],
    batch: &Batch,
    body: &[u8],
) -> Result<(Answered, Checked), ParseError> {
    let proposals = parse_proposals(body)?;
    let checked = check(engine, batch, &proposals);
    let utf8 = texts.iter().filter(|t| std::str::from_utf8(t).is_ok());
    let mut answered = Answered::new();
    for (text, found) in utf8.zip(&checked.findings) {
        engine.model_remember(scope, text, found);
        answered.insert(text.clone(), found.clone());
    }
    Ok((answered, checked))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::config::{DetectorsConfig, ModelConfig};
    use crate::llm::Endpoint;

    fn engine() -> Engine {
        let mut config = DetectorsConfig::default();
        config.model.enabled = true;
        Engine::new(&config).unwrap()
    }

    fn reply(spans: Value) -> Vec<u8> {
        let content = json!({ "spans": spans }).to_string();
        json!({"choices": [{"message": {"role": "assistant", "content": content}}]}).to_string().into_bytes()
    }

    fn texts(items: &[&str]) -> Vec<Vec<u8>> {
        items.iter().map(|t| t.as_bytes().to_vec()).collect()
    }

    fn spans(engine: &Engine, text: &str, found: &[Finding]) -> Vec<(String, String)> {
        found
            .iter()
            .map(|f| (text[f.start..f.end].to_string(), engine.rule(f.rule).unwrap().category.clone()))
            .collect()
    }

    #[test]
    fn the_request_holds_the_texts_and_the_categories_in_each_api() {
        let e = engine();
        let (body, batch) = request(&e, &texts(&["I met Ana Lima.", "Bye"])).unwrap();
        assert_eq!(batch.text(), "I met Ana Lima.\n\nBye");
        let v: Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(v["model"], "detector");
        assert_eq!(v["temperature"], 0.0);
        let content = v["messages"][0]["content"].as_str().unwrap();
        assert!(content.contains("PERSON (names of people), ADDRESS (postal addresses, whole), ORGANIZATION"));
        assert!(content.ends_with("\n\nText:\nI met Ana Lima.\n\nBye"), "{content}");
        assert_eq!(
            v["response_format"]["schema"]["properties"]["spans"]["items"]["properties"]["category"]["enum"][0],
            "PERSON"
        );
        let model = ModelConfig { enabled: true, api: Endpoint::Ollama, max_chars: 10, ..ModelConfig::default() };
        let config = DetectorsConfig { model, ..DetectorsConfig::default() };
        let ollama = Engine::new(&config).unwrap();
        let (body, _) = request(&ollama, &texts(&["short"])).unwrap();
        let v: Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(v["format"], "json");
        assert_eq!(request(&ollama, &texts(&["more than ten bytes"])).unwrap_err(), NotSent::TooLarge);
    }

    #[test]
    fn proposals_are_kept_only_where_they_are_exactly() {
        let e = engine();
        let t =
            texts(&["Ich habe gestern mit Jörg Brandt telefoniert.", "Er wohnt in der Hauptstraße 5, Köln. Brandt"]);
        let (_, batch) = request(&e, &t).unwrap();
        let body = reply(json!([
            // Right, with character offsets (ö is one character, two bytes).
            {"text": "Jörg Brandt", "category": "PERSON", "start": 21, "end": 32},
            // Wrong offsets, but found once: kept where it is.
            {"text": "Hauptstraße 5, Köln", "category": "ADDRESS", "start": 3, "end": 9},
            // Wrong offsets and twice in the text: dropped.
            {"text": "Brandt", "category": "PERSON", "start": 0},
            // Made up.
            {"text": "Maria Schulz", "category": "PERSON"},
            // Not allowed.
            {"text": "gestern", "category": "DATE"},
            // Across the two texts.
            {"text": "telefoniert.\n\nEr", "category": "PERSON"},
            // Under the threshold.
            {"text": "Köln", "category": "ADDRESS", "confidence": 0.2},
        ]));
        let (answered, checked) = answer(&e, b"s", &t, &batch, &body).unwrap();
        assert_eq!(checked.kept, 2);
        let mut dropped = checked.dropped.clone();
        dropped.sort();
        assert_eq!(
            dropped,
            [
                (Dropped::Category, 1),
                (Dropped::NotInText, 1),
                (Dropped::Ambiguous, 1),
                (Dropped::AcrossTexts, 1),
                (Dropped::LowConfidence, 1)
            ]
        );
        let first = std::str::from_utf8(&t[0]).unwrap();
        let second = std::str::from_utf8(&t[1]).unwrap();
        assert_eq!(spans(&e, first, &answered[&t[0]]), [("Jörg Brandt".into(), "PERSON".into())]);
        assert_eq!(spans(&e, second, &answered[&t[1]]), [("Hauptstraße 5, Köln".into(), "ADDRESS".into())]);
        // Remembered per text, in the scope only.
        assert_eq!(e.model_recall(b"s", &t[1]), Some(answered[&t[1]].clone()));
        assert_eq!(e.model_recall(b"other", &t[1]), None);
    }

    #[test]
    fn a_span_inside_a_token_is_dropped() {
        let e = engine();
        let t = texts(&["Write to \u{ab}token:PERSON:3f9a1c0d\u{bb} or Ana Lima"]);
        let (_, batch) = request(&e, &t).unwrap();
        let body = reply(json!([
            {"text": "token:PERSON:3f9a1c0d", "category": "PERSON"},
            {"text": "3f9a", "category": "PERSON"},
            {"text": "Ana Lima", "category": "PERSON"},
        ]));
        let (_, checked) = answer(&e, b"s", &t, &batch, &body).unwrap();
        assert_eq!((checked.kept, checked.dropped.clone()), (1, vec![(Dropped::InToken, 2)]));
    }

    #[test]
    fn answers_are_read_tolerantly_and_garbage_is_an_error() {
        let fenced = json!({"message": {"content": "Sure:\n```json\n{\"entities\": [{\"value\": \"Ana\", \"type\": \"person\", \"begin\": \"4\", \"score\": 90},]}\n```"}});
        let p = parse_proposals(fenced.to_string().as_bytes()).unwrap();
        assert_eq!(
            p,
            [Proposal {
                text: "Ana".into(),
                category: "PERSON".into(),
                start: Some(4),
                end: None,
                confidence: Some(0.9)
            }]
        );
        let bare = json!({"response": r#"[{"text": "x", "label": "entity type"}, {"nope": 1}, 5]"#}).to_string();
        assert_eq!(parse_proposals(bare.as_bytes()).unwrap()[0].category, "ENTITY_TYPE");
        assert_eq!(parse_proposals(bare.as_bytes()).unwrap().len(), 1);
        assert!(parse_proposals(b"I cannot help with that").is_err());
        assert!(parse_proposals(br#"{"choices": [{"message": {"content": "{\"answer\": 1}"}}]}"#).is_err());
        assert!(parse_proposals(b"\xff\xfe").is_err());
    }

    #[test]
    fn a_pass_answers_from_this_request_then_memory_and_lists_what_is_missing() {
        let e = engine();
        let t = texts(&["Ana Lima wrote.", "Nobody here."]);
        let (_, batch) = request(&e, &t[..1]).unwrap();
        let (answered, _) =
            answer(&e, b"s", &t[..1], &batch, &reply(json!([{"text": "Ana Lima", "category": "PERSON"}]))).unwrap();
        let pass = Pass::new(&e, b"s", None);
        assert_eq!(pass.findings(&t[0]).len(), 1);
        assert!(pass.findings(&t[1]).is_empty());
        assert!(pass.findings(&t[1]).is_empty());
        assert!(pass.findings(b"12345 !!").is_empty());
        assert!(pass.findings(b"\xffabc").is_empty());
        assert_eq!(pass.recalled(), 1);
        assert_eq!(pass.missing(), vec![t[1].clone()]);
        let other_scope = Pass::new(&e, b"t", Some(&answered));
        assert_eq!(other_scope.findings(&t[0]).len(), 1);
        assert_eq!(other_scope.recalled(), 0);
        let off = Engine::new(&DetectorsConfig::default()).unwrap();
        let pass = Pass::new(&off, b"s", None);
        assert!(pass.findings(&t[1]).is_empty());
        assert!(pass.missing().is_empty());
    }
}
