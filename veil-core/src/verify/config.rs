//! The `verify` section of the policy: where the verifier is, how it is spoken to, what
//! is verified and how the answer is marked.

use serde::{Deserialize, Serialize};

use crate::check::Issues;
use crate::llm::Endpoint;

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
