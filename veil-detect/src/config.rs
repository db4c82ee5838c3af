//! The detectors' configuration (the policy's `detectors` section) and its
//! validation. It belongs to the engine it configures: the policy imports it, the
//! engine never imports the policy. Every issue is collected, each with its field
//! path inside the section (`custom[2].category`); the policy puts `detectors.` (or
//! `rules[1].detectors.`) before it.

use regex::bytes::{Regex, RegexBuilder};
use serde::{Deserialize, Serialize};

use super::catalog;
use super::rule::{PolicyList, Severity};
use crate::check::Issues;

/// Compiled-size budget for one custom pattern: bounds memory and compile time.
pub const CUSTOM_PATTERN_SIZE_LIMIT: usize = 256 * 1024;

/// Longest word accepted in a policy dictionary (names, code names, customers).
pub const MAX_WORD_LEN: usize = 128;

/// Most words accepted across a policy's dictionaries.
pub const MAX_WORDS: usize = 100_000;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DetectorsConfig {
    /// Built-in rule ids (`pii.email.v1`) or categories (`EMAIL`) to turn off.
    pub disable: Vec<String>,
    /// The team's own patterns.
    pub custom: Vec<CustomPattern>,
    /// Extra host suffixes that make a URL internal, e.g. `.corp.example.com`.
    pub internal_domains: Vec<String>,
    /// Findings whose confidence (after context words) is lower are ignored.
    pub confidence_threshold: f32,
    /// Given names added to the built-in person-name dictionary.
    pub given_names: Vec<String>,
    /// Surnames added to the built-in person-name dictionary.
    pub surnames: Vec<String>,
    /// Project code names (category `CODE_NAME`), matched case-insensitively on word boundaries.
    pub code_names: Vec<String>,
    /// Customer names (category `CUSTOMER_NAME`), matched case-insensitively on word boundaries.
    pub customer_names: Vec<String>,
    /// Remember the findings of texts scanned lately, so a conversation's history is
    /// not scanned again every turn (README, “Conversation memory”).
    pub memory: bool,
    /// Model-assisted detection through a company-hosted model (`veil-core`'s `model_stage`).
    /// Written out only when it differs from the default, so rendered policies that do
    /// not use it stay as they were (a rule's override merges onto the default alike).
    #[serde(skip_serializing_if = "ModelConfig::is_default")]
    pub model: ModelConfig,
}

impl Default for DetectorsConfig {
    fn default() -> Self {
        DetectorsConfig {
            disable: Vec::new(),
            custom: Vec::new(),
            internal_domains: Vec::new(),
            confidence_threshold: 0.5,
            given_names: Vec::new(),
            surnames: Vec::new(),
            code_names: Vec::new(),
            customer_names: Vec::new(),
            memory: true,
            model: ModelConfig::default(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CustomPattern {
    /// Stable id reported in audit events, e.g. `acme.employee_id`.
    pub id: String,
    /// Category name: upper-case letters, digits and `_`.
    pub category: String,
    /// A byte regex (Rust `regex` syntax, ASCII classes), compiled with a size limit.
    pub pattern: String,
    #[serde(default = "default_custom_confidence")]
    pub confidence: f32,
    /// `LOW`, `MEDIUM` or `HIGH`; default: that of a built-in category of the same name, else `MEDIUM`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub severity: Option<Severity>,
}

fn default_custom_confidence() -> f32 {
    0.9
}

/// One issue of a detectors configuration. It names fields and indexes, never a
/// value of a word list or pattern: a policy's words may be names of people or
/// customers. Numbers are given; an unknown rule id or category in `disable` is
/// quoted only if it looks like one ([`crate::suggest::echoable`]), with the
/// catalog's closest id or category.
#[derive(Debug, Clone, PartialEq)]
pub enum DetectError {
    InvalidPattern {
        index: usize,
        id: String,
        reason: String,
    },
    EmptyMatch {
        index: usize,
        id: String,
    },
    BadCategory {
        index: usize,
    },
    EmptyId {
        index: usize,
    },
    BadConfidence {
        index: usize,
        found: f32,
    },
    BadThreshold {
        found: f32,
    },
    UnknownRule {
        index: usize,
        name: String,
        closest: Option<&'static str>,
    },
    BadDomain {
        index: usize,
    },
    BadWord {
        field: &'static str,
        index: usize,
    },
    TooManyWords,
    Builtin {
        id: &'static str,
    },
    /// An issue of `model` (its path inside the section and the bound it broke).
    Model {
        path: String,
        message: String,
    },
}

impl DetectError {
    /// The field path inside the section (`custom[0] (acme.id)`, `surnames[3]`);
    /// empty for the section as a whole.
    pub fn path(&self) -> String {
        match self {
            DetectError::InvalidPattern { index, id, .. } | DetectError::EmptyMatch { index, id } => {
                format!("custom[{index}] ({id})")
            }
            DetectError::BadCategory { index } => format!("custom[{index}].category"),
            DetectError::EmptyId { index } => format!("custom[{index}].id"),
            DetectError::BadConfidence { index, .. } => format!("custom[{index}].confidence"),
            DetectError::BadThreshold { .. } => "confidence_threshold".into(),
            DetectError::UnknownRule { index, .. } => format!("disable[{index}]"),
            DetectError::BadDomain { index } => format!("internal_domains[{index}]"),
            DetectError::BadWord { field, index } => format!("{field}[{index}]"),
            DetectError::TooManyWords | DetectError::Builtin { .. } => String::new(),
            DetectError::Model { path, .. } => path.clone(),
        }
    }

    /// What is wrong there.
    pub fn message(&self) -> String {
        match self {
            DetectError::InvalidPattern { reason, .. } => format!("invalid pattern: {reason}"),
            DetectError::EmptyMatch { .. } => "pattern matches the empty string".into(),
            DetectError::BadCategory { .. } => "must be 1-32 of A-Z, 0-9, _".into(),
            DetectError::EmptyId { .. } => "must not be empty".into(),
            DetectError::BadConfidence { found, .. } | DetectError::BadThreshold { found } => {
                format!("must be within 0..1, found {found}")
            }
            DetectError::UnknownRule { name, closest, .. } => {
                let mut message = match crate::suggest::echoable(name) {
                    true => format!("unknown rule id or category `{name}`"),
                    false => "unknown rule id or category".to_string(),
                };
                if let Some(id) = closest {
                    message.push_str(&format!("; did you mean `{id}`?"));
                }
                message.push_str(" (`veilctl rules` lists them)");
                message
            }
            DetectError::BadDomain { .. } => {
                "only letters, digits, '-' and '.' are allowed, starting with a letter or digit".into()
            }
            DetectError::BadWord { .. } => {
                format!("must be 1-{MAX_WORD_LEN} bytes with a letter or digit, no line breaks")
            }
            DetectError::TooManyWords => format!("more than {MAX_WORDS} dictionary words"),
            DetectError::Builtin { id } => format!("built-in rule {id} failed to compile"),
            DetectError::Model { message, .. } => message.clone(),
        }
    }
}

impl std::fmt::Display for DetectError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.path() {
            path if path.is_empty() => f.write_str(&self.message()),
            path => write!(f, "{path}: {}", self.message()),
        }
    }
}

impl std::error::Error for DetectError {}

/// Whether `name` is a category name: 1 to 32 of `A-Z`, `0-9`, `_`.
pub fn is_category(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 32
        && name.bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
}

impl DetectorsConfig {
    /// Every issue of this configuration, in the order of its fields.
    pub fn issues(&self) -> Vec<DetectError> {
        let mut issues = Vec::new();
        for (index, name) in self.disable.iter().enumerate() {
            if !catalog::all().any(|r| r.id == name || r.category == name) {
                let closest = crate::suggest::closest(name, catalog::all().map(|r| r.id))
                    .or_else(|| crate::suggest::closest(name, catalog::all().map(|r| r.category)));
                issues.push(DetectError::UnknownRule { index, name: name.clone(), closest });
            }
        }
        for (index, custom) in self.custom.iter().enumerate() {
            if custom.id.is_empty() {
                issues.push(DetectError::EmptyId { index });
            }
            if !is_category(&custom.category) {
                issues.push(DetectError::BadCategory { index });
            }
            if !(0.0..=1.0).contains(&custom.confidence) {
                issues.push(DetectError::BadConfidence { index, found: custom.confidence });
            }
            if let Err(e) = custom_regex(index, custom) {
                issues.push(e);
            }
        }
        for (index, domain) in self.internal_domains.iter().enumerate() {
            // It is a keyword of the start index: it must begin a word.
            let ok = domain.trim_start_matches('.').bytes().next().is_some_and(|b| b.is_ascii_alphanumeric())
                && domain.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.');
            if !ok {
                issues.push(DetectError::BadDomain { index });
            }
        }
        if !(0.0..=1.0).contains(&self.confidence_threshold) {
            issues.push(DetectError::BadThreshold { found: self.confidence_threshold });
        }
        let mut total = 0;
        for (field, words) in self.dictionaries() {
            total += words.len();
            for (index, word) in words.iter().enumerate() {
                let ok = !word.trim().is_empty()
                    && word.len() <= MAX_WORD_LEN
                    && word.bytes().any(|b| b.is_ascii_alphanumeric() || b >= 0x80)
                    && !word.bytes().any(|b| b == b'\n' || b == b'\r');
                if !ok {
                    issues.push(DetectError::BadWord { field, index });
                }
            }
        }
        if total > MAX_WORDS {
            issues.push(DetectError::TooManyWords);
        }
        issues.extend(self.model.issues().into_iter().map(|(path, message)| DetectError::Model { path, message }));
        issues
    }

    /// The policy word list a `Gate::PolicyWords` rule matches.
    pub fn words(&self, list: PolicyList) -> &[String] {
        match list {
            PolicyList::CodeNames => &self.code_names,
            PolicyList::CustomerNames => &self.customer_names,
        }
    }

    /// The policy's word lists by field name.
    fn dictionaries(&self) -> [(&'static str, &[String]); 4] {
        [
            ("given_names", &self.given_names),
            ("surnames", &self.surnames),
            ("code_names", &self.code_names),
            ("customer_names", &self.customer_names),
        ]
    }
}

/// The custom rule's regex, compiled with its limits; an issue if it does not compile
/// or matches the empty string.
pub(crate) fn custom_regex(index: usize, custom: &CustomPattern) -> Result<Regex, DetectError> {
    let regex = RegexBuilder::new(&custom.pattern)
        .unicode(false)
        .size_limit(CUSTOM_PATTERN_SIZE_LIMIT)
        .dfa_size_limit(CUSTOM_PATTERN_SIZE_LIMIT * 4)
        .build()
        .map_err(|e| DetectError::InvalidPattern { index, id: custom.id.clone(), reason: regex_reason(&e) })?;
    if regex.is_match(b"") {
        return Err(DetectError::EmptyMatch { index, id: custom.id.clone() });
    }
    Ok(regex)
}

/// The regex crate's message, reduced to its last line (the kind of error). The
/// pattern is policy text, not payload, but the short form reads better in a NACK.
fn regex_reason(err: &regex::Error) -> String {
    match err {
        regex::Error::CompiledTooBig(limit) => format!("compiled pattern exceeds {limit} bytes"),
        other => other
            .to_string()
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("syntax error")
            .trim()
            .trim_start_matches("error: ")
            .to_string(),
    }
}

// ---- `detectors.model` ----

/// How a company-hosted model's server is spoken to (`detectors.model.api`,
/// `verification.api`); `veil-core`'s `llm` client writes the request in its dialect.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Endpoint {
    /// OpenAI-compatible `/v1/chat/completions` (vLLM, llama.cpp's server, …), with
    /// `response_format: {"type": "json_object"}`.
    Openai,
    /// Ollama's native `/api/chat`, with `format: "json"`.
    Ollama,
}

impl Endpoint {
    /// The chat path each server serves.
    pub fn default_path(self) -> &'static str {
        match self {
            Endpoint::Openai => "/v1/chat/completions",
            Endpoint::Ollama => "/api/chat",
        }
    }
}

/// What happens to a request when the model does not answer in time, fails, or its
/// answer cannot be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OnFailure {
    /// Forward the request as the rules redacted it (counted and audited as skipped).
    RulesOnly,
    /// Refuse it with the vendor-shaped error `veil_model_unavailable` (503).
    Block,
}

/// `detectors.model` in the policy. Off unless a policy (or a rule) turns it on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ModelConfig {
    pub enabled: bool,
    /// The Envoy cluster of the company's model server (also its `:authority`).
    pub cluster: String,
    /// The model name sent in the request.
    pub model: String,
    /// `openai` (`/v1/chat/completions`) or `ollama` (`/api/chat`).
    pub api: Endpoint,
    /// The categories the model may propose; anything else it names is dropped.
    pub categories: Vec<String>,
    /// How long the request waits for the model, in milliseconds.
    pub budget_ms: u64,
    pub on_failure: OnFailure,
    /// The most bytes of new text (not answered from the cache) sent per request; a
    /// request with more is treated as a failure of the stage (`too_large`).
    pub max_chars: usize,
}

impl Default for ModelConfig {
    fn default() -> Self {
        ModelConfig {
            enabled: false,
            cluster: "verifier".to_string(),
            model: "detector".to_string(),
            api: Endpoint::Openai,
            categories: ["PERSON", "ADDRESS", "ORGANIZATION"].iter().map(|c| c.to_string()).collect(),
            budget_ms: 2000,
            on_failure: OnFailure::RulesOnly,
            max_chars: 16 * 1024,
        }
    }
}

/// Most categories one policy may let the model propose.
pub const MAX_CATEGORIES: usize = 16;
/// Most proposals read from one answer; the rest are dropped (`too_many`).
pub const MAX_PROPOSALS: usize = 256;
/// Confidence of a kept proposal that states none.
pub const MODEL_CONFIDENCE: f32 = 0.8;

impl ModelConfig {
    /// Whether this is the default (off) configuration.
    pub fn is_default(&self) -> bool {
        *self == ModelConfig::default()
    }

    /// Every issue of the section, each with its path under `model` and the bound it broke.
    pub fn issues(&self) -> Vec<(String, String)> {
        let mut issues = Issues::new("model");
        if self.cluster.is_empty() || self.cluster.len() > 255 || !self.cluster.bytes().all(|b| b.is_ascii_graphic()) {
            issues.push("cluster", "must be a cluster name (printable ASCII, no spaces)");
        }
        if self.model.is_empty() || self.model.len() > 255 {
            issues.push("model", "must be 1-255 characters");
        }
        issues.within("categories", self.categories.len(), 1, MAX_CATEGORIES);
        for (i, category) in self.categories.iter().enumerate() {
            if !is_category(category) {
                issues.push(&format!("categories[{i}]"), "must be 1-32 of A-Z, 0-9, _");
            } else if self.categories.iter().take(i).any(|c| c == category) {
                issues.push(&format!("categories[{i}]"), "is listed twice");
            }
        }
        issues.within("budget_ms", self.budget_ms, 10, 60_000);
        issues.within("max_chars", self.max_chars, 1, 256 * 1024);
        issues.into_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Engine;

    /// Every issue is reported, each with its own field, not only the first.
    #[test]
    fn every_issue_is_collected() {
        let config = DetectorsConfig {
            disable: vec!["EMAIL".into(), "no.such.rule".into()],
            custom: vec![CustomPattern {
                id: String::new(),
                category: "lower".into(),
                pattern: "(".into(),
                confidence: 2.0,
                severity: None,
            }],
            internal_domains: vec!["-bad".into()],
            confidence_threshold: -1.0,
            surnames: vec!["ok".into(), "\n".into()],
            ..DetectorsConfig::default()
        };
        let paths: Vec<String> = config.issues().iter().map(DetectError::path).collect();
        assert_eq!(
            paths,
            [
                "disable[1]",
                "custom[0].id",
                "custom[0].category",
                "custom[0].confidence",
                "custom[0] ()",
                "internal_domains[0]",
                "confidence_threshold",
                "surnames[1]"
            ]
        );
        assert!(DetectorsConfig::default().issues().is_empty());
    }

    #[test]
    fn whole_section_issues_have_no_path() {
        assert_eq!(DetectError::TooManyWords.path(), "");
        assert_eq!(DetectError::TooManyWords.to_string(), format!("more than {MAX_WORDS} dictionary words"));
        let unknown =
            |name: &str| DetectorsConfig { disable: vec![name.into()], ..DetectorsConfig::default() }.issues();
        let table = [
            ("pii.emial.v1", "disable[0]: unknown rule id or category `pii.emial.v1`; did you mean `pii.email.v1`?"),
            ("email", "disable[0]: unknown rule id or category `email`; did you mean `EMAIL`?"),
            ("CREDIT_CRAD", "; did you mean `CREDIT_CARD`?"),
            ("zzz.nothing.v9", "disable[0]: unknown rule id or category `zzz.nothing.v9` (`veilctl rules` lists them)"),
            // Not a name: not echoed.
            ("Jane Doe", "disable[0]: unknown rule id or category (`veilctl rules`"),
        ];
        for (name, want) in table {
            let issues = unknown(name);
            assert_eq!(issues.len(), 1, "{name}");
            let text = issues.iter().map(ToString::to_string).collect::<String>();
            assert!(text.contains(want), "{name}: {text}");
        }
    }

    #[test]
    fn default_is_off_and_valid() {
        let c = ModelConfig::default();
        assert!(!c.enabled);
        assert_eq!(c.on_failure, OnFailure::RulesOnly);
        assert!(c.issues().is_empty());
        assert!(Engine::new(&DetectorsConfig::default()).unwrap().model().is_none());
    }

    #[test]
    fn every_issue_is_reported_with_its_path_and_bound() {
        let c = ModelConfig {
            cluster: "a b".into(),
            model: String::new(),
            categories: vec!["PERSON".into(), "person".into(), "PERSON".into()],
            budget_ms: 5,
            max_chars: 0,
            ..ModelConfig::default()
        };
        assert_eq!(
            c.issues(),
            [
                ("model.cluster", "must be a cluster name (printable ASCII, no spaces)"),
                ("model.model", "must be 1-255 characters"),
                ("model.categories[1]", "must be 1-32 of A-Z, 0-9, _"),
                ("model.categories[2]", "is listed twice"),
                ("model.budget_ms", "must be within 10..=60000, found 5"),
                ("model.max_chars", "must be within 1..=262144, found 0"),
            ]
            .map(|(p, m)| (p.to_string(), m.to_string()))
        );
        let none = ModelConfig { categories: vec![], ..ModelConfig::default() };
        assert_eq!(none.issues()[0].1, "must be within 1..=16, found 0");
        let err = serde_json::from_str::<ModelConfig>(r#"{"on_failure": "open"}"#).unwrap_err();
        assert!(err.to_string().contains("unknown variant `open`"), "{err}");
        let err = serde_json::from_str::<ModelConfig>(r#"{"budget": 5}"#).unwrap_err();
        assert!(err.to_string().contains("unknown field `budget`"), "{err}");
    }
}
