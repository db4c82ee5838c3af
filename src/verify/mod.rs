//! Claim verification: a company-hosted LLM scores the factual claims of an answer.
//!
//! The pure core of issue 6. It knows nothing about Envoy: [`Session`] takes the text
//! of a response (whole, or as it streams), hands out the verifier calls to make
//! ([`Call`]: a JSON body and a timeout; the cluster, path and headers come from
//! [`VerifyConfig`]), takes their answers back, and at the end says which claims to
//! mark ([`Report`]); [`insert_annotations`] and the response stream
//! ([`ResponseStream::verifying`](crate::stream::ResponseStream::verifying)) say where. The host
//! (`host/verify.rs`) only dispatches the calls, keeps the clock and the cache store,
//! and splices the result into the response.
//!
//! Nothing here logs or formats claim text, prompts or answers into errors: the
//! report's summary carries counts and a reason code only.

mod alarm;
mod annotate;
mod budget;
mod cache;
mod parse;
mod prompt;
mod session;

use serde::{Deserialize, Serialize};

use crate::check::Issues;

pub use alarm::Alarm;
pub use annotate::{
    annotate_json, annotation_line, appended_block, apply, insert_annotations, response_text_fields, Mark, TextField,
};
pub use budget::Budget;
pub use cache::{Cache, CacheKey, MemCache};
pub use parse::{answer_json, parse_claims, parse_verdict, ParseError, Verdict};
pub use prompt::{extraction_request, verification_request, CallKind, Chat};
pub use session::{Answer, Call, Claim, Report, Session, SkipReason, Summary};

/// How the verifier is spoken to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Endpoint {
    /// OpenAI-compatible `/v1/chat/completions` (vLLM, llama.cpp's server, …), with
    /// `response_format: {"type": "json_object"}`.
    Openai,
    /// Ollama's native `/api/chat`, with `format: "json"`.
    Ollama,
}

/// Where the marks go.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AnnotationStyle {
    /// After the sentence that holds the claim (non-streaming); streams append.
    Inline,
    /// One block at the end of the answer.
    Append,
    /// Only the `x-veil-verification` summary header and the audit line.
    Headers,
}

/// Which text the verifier sees.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VerifiedText {
    /// The answer as the vendor wrote it, with tokens in place of personal data: no
    /// personal value leaves the gateway, not even to an internal service.
    Tokenized,
    /// The answer with the values restored (the verifier then sees personal data).
    Restored,
}

/// `verification` in the policy. Off unless a policy turns it on: a plain deployment
/// has no verifier cluster.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct VerifyConfig {
    pub enabled: bool,
    /// The Envoy cluster of the verifier.
    pub cluster: String,
    /// `:authority` sent to the verifier.
    pub authority: String,
    pub endpoint: Endpoint,
    /// Request path; empty = `/v1/chat/completions` (openai) or `/api/chat` (ollama).
    pub path: String,
    pub model: String,
    /// Name of an environment variable (listed in `vm_config.environment_variables`)
    /// holding the verifier's API key, sent as `authorization: Bearer …`. Empty = none.
    pub api_key_env: String,
    /// Claims scored below this (0–100) are marked.
    pub threshold: u8,
    /// At most this many claims are verified per response.
    pub max_claims: usize,
    /// Claims verified at the same time, per response.
    pub concurrency: usize,
    /// Longest the response is held for verification, in milliseconds.
    pub budget_ms: u64,
    /// Timeout of one verifier call (capped by what is left of the budget).
    pub call_timeout_ms: u64,
    /// Extra attempts for a failed call (5xx, refused, unreadable answer; a timeout
    /// is not retried), each after a backoff.
    pub retries: u32,
    /// Wait before the first retry; each further retry waits twice as long, up to
    /// `retry_backoff_max_ms`, plus up to a quarter more at random. 0: at once. A retry
    /// whose wait would run past the budget is not made (the call counts as failed).
    pub retry_backoff_ms: u64,
    /// Longest wait before a retry (before the random part).
    pub retry_backoff_max_ms: u64,
    pub annotate: AnnotationStyle,
    pub text: VerifiedText,
    pub temperature: f32,
    /// Answers shorter than this (bytes) are not verified.
    pub min_chars: usize,
    /// Text beyond this many bytes is not verified.
    pub max_chars: usize,
    /// Scores are cached (in shared data, by a keyed hash of model and claim) this long.
    pub cache_ttl_seconds: u64,
    /// Bound on cached scores (fixed slots; 0 disables the cache).
    pub cache_entries: usize,
}

impl Default for VerifyConfig {
    fn default() -> Self {
        VerifyConfig {
            enabled: false,
            cluster: "verifier".to_string(),
            authority: "verifier".to_string(),
            endpoint: Endpoint::Openai,
            path: String::new(),
            model: "verifier".to_string(),
            api_key_env: String::new(),
            threshold: 70,
            max_claims: 8,
            concurrency: 4,
            budget_ms: 5000,
            call_timeout_ms: 3000,
            retries: 1,
            retry_backoff_ms: 200,
            retry_backoff_max_ms: 2000,
            annotate: AnnotationStyle::Inline,
            text: VerifiedText::Tokenized,
            temperature: 0.0,
            min_chars: 20,
            max_chars: 8000,
            cache_ttl_seconds: 3600,
            cache_entries: 4096,
        }
    }
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

impl VerifyConfig {
    /// The request path, with the endpoint's default.
    pub fn request_path(&self) -> &str {
        if !self.path.is_empty() {
            return &self.path;
        }
        self.endpoint.default_path()
    }

    /// Every issue of the section, each naming its field (`verification.threshold`)
    /// and the bound it broke.
    pub fn issues(&self) -> Vec<(String, String)> {
        let mut issues = Issues::new("verification");
        let name_ok = |s: &str| !s.is_empty() && s.len() <= 255 && s.bytes().all(|b| b.is_ascii_graphic());
        if !name_ok(&self.cluster) {
            issues.push("cluster", "must be a cluster name (printable ASCII, no spaces)");
        }
        if !name_ok(&self.authority) {
            issues.push("authority", "must be a host name (printable ASCII, no spaces)");
        }
        if !self.path.is_empty() && !self.path.starts_with('/') {
            issues.push("path", "must start with '/'");
        }
        if self.model.is_empty() || self.model.len() > 255 {
            issues.push("model", "must be 1-255 characters");
        }
        if !self.api_key_env.is_empty() && !self.api_key_env.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
            issues.push("api_key_env", "must be an environment variable name (A-Z, 0-9, _)");
        }
        issues.within("threshold", self.threshold, 0, 100);
        issues.within("max_claims", self.max_claims, 1, 64);
        issues.within("concurrency", self.concurrency, 1, 16);
        issues.within("budget_ms", self.budget_ms, 10, 120_000);
        issues.within_field("call_timeout_ms", self.call_timeout_ms, 10, self.budget_ms, "budget_ms");
        issues.within("retries", self.retries, 0, 5);
        issues.within("retry_backoff_ms", self.retry_backoff_ms, 0, 60_000);
        if self.retry_backoff_max_ms < self.retry_backoff_ms || self.retry_backoff_max_ms > 60_000 {
            issues.push("retry_backoff_max_ms", "must be within retry_backoff_ms..=60000");
        }
        issues.within("temperature", self.temperature, 0.0, 2.0);
        issues.within("max_chars", self.max_chars, 1, 256 * 1024);
        if self.min_chars > self.max_chars {
            issues.push("min_chars", "must not exceed max_chars");
        }
        issues.within("cache_ttl_seconds", self.cache_ttl_seconds, 0, 30 * 24 * 3600);
        issues.within("cache_entries", self.cache_entries, 0, 1_000_000);
        issues.into_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_is_off_and_valid() {
        let c = VerifyConfig::default();
        assert!(!c.enabled);
        assert_eq!(c.threshold, 70);
        assert_eq!(c.budget_ms, 5000);
        assert_eq!((c.retry_backoff_ms, c.retry_backoff_max_ms), (200, 2000));
        assert_eq!(c.text, VerifiedText::Tokenized);
        assert!(c.issues().is_empty());
    }

    #[test]
    fn paths_default_per_endpoint() {
        let mut c = VerifyConfig::default();
        assert_eq!(c.request_path(), "/v1/chat/completions");
        c.endpoint = Endpoint::Ollama;
        assert_eq!(c.request_path(), "/api/chat");
        c.path = "/x".into();
        assert_eq!(c.request_path(), "/x");
    }

    #[test]
    fn validation_names_fields() {
        type Case = (fn(&mut VerifyConfig), &'static str);
        let cases: Vec<Case> = vec![
            (|c| c.threshold = 101, "verification.threshold"),
            (|c| c.max_claims = 0, "verification.max_claims"),
            (|c| c.call_timeout_ms = c.budget_ms + 1, "verification.call_timeout_ms"),
            (|c| c.cluster = "a b".into(), "verification.cluster"),
            (|c| c.path = "v1".into(), "verification.path"),
            (|c| c.api_key_env = "A-B".into(), "verification.api_key_env"),
            (|c| c.concurrency = 0, "verification.concurrency"),
            (|c| c.temperature = -1.0, "verification.temperature"),
            (|c| c.retry_backoff_ms = 60_001, "verification.retry_backoff_ms"),
            (|c| c.retry_backoff_max_ms = c.retry_backoff_ms - 1, "verification.retry_backoff_max_ms"),
            (|c| c.retry_backoff_max_ms = 60_001, "verification.retry_backoff_max_ms"),
        ];
        for (mutate, want) in cases {
            let mut c = VerifyConfig::default();
            mutate(&mut c);
            let issues = c.issues();
            assert_eq!(issues.first().map(|(path, _)| path.as_str()), Some(want));
        }
    }

    #[test]
    fn every_issue_is_reported_with_its_bound() {
        let c = VerifyConfig { threshold: 101, max_claims: 0, model: String::new(), ..VerifyConfig::default() };
        let issues = c.issues();
        let paths: Vec<&str> = issues.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(paths, ["verification.model", "verification.threshold", "verification.max_claims"]);
        assert_eq!(issues[1].1, "must be within 0..=100, found 101");
        assert_eq!(issues[2].1, "must be within 1..=64, found 0");
    }

    #[test]
    fn unknown_fields_are_rejected() {
        let err = serde_json::from_str::<VerifyConfig>(r#"{"treshold": 50}"#).unwrap_err();
        assert!(err.to_string().contains("unknown field `treshold`"));
        let c: VerifyConfig =
            serde_json::from_str(r#"{"enabled": true, "endpoint": "ollama", "annotate": "append"}"#).unwrap();
        assert_eq!((c.enabled, c.endpoint, c.annotate), (true, Endpoint::Ollama, AnnotationStyle::Append));
    }
}
