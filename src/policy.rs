//! The policy model: what the filter protects and how, parsed from its JSON configuration.
//!
//! The same types back the YAML files in `policies/` and the filter's `on_configure`;
//! unknown fields are errors (`deny_unknown_fields`), so a typo is rejected instead of
//! silently weakening protection. With no configuration at all, [`Policy::default`]
//! protects the known vendor API paths on any host.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::detect::{DetectError, Engine};
use crate::provider::Provider;

/// The only schema version this build understands.
pub const API_VERSION: &str = "veil/v1";

/// Default request body limit: 256 KiB, as in the detection API this grew from.
pub const DEFAULT_MAX_BODY_BYTES: usize = 256 * 1024;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Policy {
    /// Schema version; must be `veil/v1`.
    #[serde(rename = "apiVersion")]
    pub api_version: String,
    /// `enforce` rewrites requests; `monitor` only detects and audits.
    pub mode: Mode,
    /// Which requests are protected, first match wins. Unmatched requests pass untouched.
    pub routes: Vec<Route>,
    pub detectors: DetectorsConfig,
    /// Action for a category (built-in like `EMAIL` or a custom one); others get `default_action`.
    pub actions: BTreeMap<String, Action>,
    pub default_action: Action,
    pub limits: Limits,
    /// What happens when the filter cannot process a protected request.
    pub failure_mode: FailureMode,
    pub audit: AuditConfig,
    pub vault: VaultPolicy,
}

impl Default for Policy {
    fn default() -> Self {
        Policy {
            api_version: API_VERSION.to_string(),
            mode: Mode::Enforce,
            routes: default_routes(),
            detectors: DetectorsConfig::default(),
            actions: BTreeMap::new(),
            default_action: Action::Tokenize,
            limits: Limits::default(),
            failure_mode: FailureMode::Closed,
            audit: AuditConfig::default(),
            vault: VaultPolicy::default(),
        }
    }
}

/// The vendor API paths protected with no configuration, on any host.
pub fn default_routes() -> Vec<Route> {
    let route = |path: &str, provider| Route { path: path.to_string(), provider, hosts: Vec::new() };
    vec![
        route("/v1/chat/completions", Provider::OpenAiChat),
        route("/v1/responses", Provider::OpenAiResponses),
        route("/v1/messages", Provider::Anthropic),
        route("/v1beta/models/*:generateContent", Provider::Gemini),
        route("/v1beta/models/*:streamGenerateContent", Provider::Gemini),
        route("/v1/models/*:generateContent", Provider::Gemini),
        route("/v1/models/*:streamGenerateContent", Provider::Gemini),
    ]
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    Enforce,
    Monitor,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Route {
    /// Request path (the query string is ignored), e.g. `/v1/chat/completions`; `*`
    /// matches any characters but `/` (`/v1beta/models/*:generateContent`).
    pub path: String,
    /// The API shape the body is parsed as.
    pub provider: Provider,
    /// `:authority` values this route applies to (port ignored); empty means any host.
    #[serde(default)]
    pub hosts: Vec<String>,
}

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
    pub severity: Option<crate::detect::rules::Severity>,
}

fn default_custom_confidence() -> f32 {
    0.9
}

/// What to do with a finding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Replace with a reversible `«token:CATEGORY:id»`, restored in the response.
    Tokenize,
    /// Replace with `[CATEGORY]`; not restored.
    Mask,
    /// Replace with `****`; not restored.
    Redact,
    /// Reject the whole request with a vendor-shaped 403.
    Block,
    /// Leave in place; count it in the audit event.
    Allow,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Limits {
    /// Largest request body scanned. Larger bodies get a vendor-shaped 413.
    pub max_body_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_body_bytes: DEFAULT_MAX_BODY_BYTES }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FailureMode {
    /// A request that cannot be processed is rejected (never forwarded unredacted).
    Closed,
    /// A request that cannot be processed is forwarded as it is, and audited as such.
    Open,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AuditConfig {
    /// Emit one JSON audit line per protected request in Envoy's log.
    pub enabled: bool,
}

impl Default for AuditConfig {
    fn default() -> Self {
        AuditConfig { enabled: true }
    }
}

/// Which requests share tokens (and may restore each other's).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ScopeKind {
    /// Per API credential (`authorization`, `x-api-key` or `x-goog-api-key`, hashed):
    /// a user's conversation keeps its tokens across turns with no setup.
    Credential,
    /// Per value of `scope_header` (a conversation or tenant id); requests without
    /// the header fall back to the credential.
    Header,
    /// Per request: no token is ever restored outside the request that issued it.
    Request,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct VaultPolicy {
    /// Keep token → value across requests (in Envoy shared data, sealed).
    pub enabled: bool,
    pub scope: ScopeKind,
    /// The header naming the scope when `scope: header`.
    pub scope_header: String,
    /// How long an entry is restorable after it was last written.
    pub ttl_seconds: u64,
    /// Bound on entries; the oldest go first when full.
    pub max_entries: usize,
    /// Bound on stored bytes (records, not counting Envoy's per-key overhead).
    pub max_bytes: usize,
}

impl Default for VaultPolicy {
    fn default() -> Self {
        VaultPolicy {
            enabled: true,
            scope: ScopeKind::Credential,
            scope_header: "x-veil-scope".to_string(),
            ttl_seconds: 24 * 3600,
            max_entries: 100_000,
            max_bytes: 32 * 1024 * 1024,
        }
    }
}

/// Why a policy was rejected. Carries field paths, never request data.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PolicyError {
    #[error("policy is not valid JSON for the schema: {0}")]
    Parse(String),
    #[error("apiVersion: expected \"{API_VERSION}\"")]
    ApiVersion,
    #[error("{path}: {reason}")]
    Field { path: String, reason: &'static str },
    #[error(transparent)]
    Detect(#[from] DetectError),
}

/// A validated policy with its detectors compiled: what a request context reads.
#[derive(Debug, Clone)]
pub struct CompiledPolicy {
    pub policy: Policy,
    pub engine: Engine,
}

impl CompiledPolicy {
    /// Parses the filter's JSON configuration. Empty input means the built-in default.
    pub fn from_json(bytes: &[u8]) -> Result<CompiledPolicy, PolicyError> {
        let trimmed = bytes.iter().all(|b| b.is_ascii_whitespace());
        let policy = if trimmed {
            Policy::default()
        } else {
            serde_json::from_slice::<Policy>(bytes).map_err(|e| PolicyError::Parse(e.to_string()))?
        };
        CompiledPolicy::new(policy)
    }

    pub fn new(policy: Policy) -> Result<CompiledPolicy, PolicyError> {
        validate(&policy)?;
        let engine = Engine::new(&policy.detectors)?;
        Ok(CompiledPolicy { policy, engine })
    }

    /// The route for a request, if any: exact path match (query ignored), host filter.
    pub fn route(&self, authority: &str, path: &str) -> Option<&Route> {
        let path = path.split(['?', '#']).next().unwrap_or(path);
        let host = strip_port(authority);
        self.policy.routes.iter().find(|r| {
            glob_match(&r.path, path) && (r.hosts.is_empty() || r.hosts.iter().any(|h| h.eq_ignore_ascii_case(host)))
        })
    }

    pub fn action(&self, category: &str) -> Action {
        self.policy.actions.get(category).copied().unwrap_or(self.policy.default_action)
    }
}

/// `*` matches any run of characters other than `/`; everything else literally.
fn glob_match(pattern: &str, path: &str) -> bool {
    let Some((head, tail)) = pattern.split_once('*') else { return pattern == path };
    let Some(rest) = path.strip_prefix(head) else { return false };
    // Try every split of `rest` for the star, never crossing a '/'.
    let limit = rest.find('/').unwrap_or(rest.len());
    (0..=limit).any(|n| rest.get(n..).is_some_and(|r| glob_match(tail, r)))
}

fn strip_port(authority: &str) -> &str {
    if authority.starts_with('[') {
        return authority.split(']').next().map_or(authority, |h| h.trim_start_matches('['));
    }
    authority.rsplit_once(':').map_or(authority, |(h, _)| h)
}

fn is_category(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 32
        && name.bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
}

fn validate(policy: &Policy) -> Result<(), PolicyError> {
    let field = |path: String, reason| Err(PolicyError::Field { path, reason });
    if policy.api_version != API_VERSION {
        return Err(PolicyError::ApiVersion);
    }
    for (i, route) in policy.routes.iter().enumerate() {
        if !route.path.starts_with('/') {
            return field(format!("routes[{i}].path"), "must start with '/'");
        }
    }
    for (i, custom) in policy.detectors.custom.iter().enumerate() {
        if !is_category(&custom.category) {
            return field(format!("detectors.custom[{i}].category"), "must be 1-32 of A-Z, 0-9, _");
        }
        if custom.id.is_empty() {
            return field(format!("detectors.custom[{i}].id"), "must not be empty");
        }
        if !(0.0..=1.0).contains(&custom.confidence) {
            return field(format!("detectors.custom[{i}].confidence"), "must be within 0..1");
        }
    }
    if !(0.0..=1.0).contains(&policy.detectors.confidence_threshold) {
        return field("detectors.confidence_threshold".into(), "must be within 0..1");
    }
    for name in policy.actions.keys() {
        if !is_category(name) {
            return field(format!("actions.{name}"), "not a category name (A-Z, 0-9, _)");
        }
    }
    if policy.limits.max_body_bytes == 0 || policy.limits.max_body_bytes > 64 * 1024 * 1024 {
        return field("limits.max_body_bytes".into(), "must be within 1..=67108864");
    }
    let vault = &policy.vault;
    if vault.ttl_seconds == 0 || vault.ttl_seconds > 30 * 24 * 3600 {
        return field("vault.ttl_seconds".into(), "must be within 1..=2592000 (30 days)");
    }
    if vault.max_entries < 8 || vault.max_entries > 10_000_000 {
        return field("vault.max_entries".into(), "must be within 8..=10000000");
    }
    if vault.max_bytes < 4096 || vault.max_bytes > 1 << 30 {
        return field("vault.max_bytes".into(), "must be within 4096..=1073741824");
    }
    let header_ok = !vault.scope_header.is_empty()
        && vault.scope_header.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
    if !header_ok {
        return field("vault.scope_header".into(), "must be a lower-case header name");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_configuration_is_the_default_policy() {
        let p = CompiledPolicy::from_json(b"").unwrap();
        assert_eq!(p.policy, Policy::default());
        assert!(p.route("api.openai.com", "/v1/chat/completions?x=1").is_some());
        assert!(p.route("anything:8080", "/v1/chat/completions").is_some());
        assert!(p.route("api.openai.com", "/v1/models").is_none());
    }

    #[test]
    fn default_routes_cover_every_vendor_api() {
        let p = CompiledPolicy::from_json(b"").unwrap();
        let provider = |path: &str| p.route("h", path).map(|r| r.provider);
        assert_eq!(provider("/v1/responses"), Some(Provider::OpenAiResponses));
        assert_eq!(provider("/v1/messages?beta=true"), Some(Provider::Anthropic));
        assert_eq!(provider("/v1beta/models/gemini-2.0-flash:generateContent"), Some(Provider::Gemini));
        assert_eq!(provider("/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse"), Some(Provider::Gemini));
        assert_eq!(provider("/v1beta/models/a/b:generateContent"), None);
        assert_eq!(provider("/v1/messages/count_tokens"), None);
    }

    #[test]
    fn unknown_fields_are_rejected() {
        let err = CompiledPolicy::from_json(br#"{"limits":{"max_body_byte":1}}"#).unwrap_err();
        assert!(err.to_string().contains("unknown field `max_body_byte`"), "{err}");
    }

    #[test]
    fn field_errors_name_the_path() {
        let cases: &[(&str, &str)] = &[
            (r#"{"apiVersion":"veil/v0"}"#, "apiVersion"),
            (r#"{"routes":[{"path":"v1","provider":"openai_chat"}]}"#, "routes[0].path"),
            (r#"{"actions":{"email":"mask"}}"#, "actions.email"),
            (r#"{"limits":{"max_body_bytes":0}}"#, "limits.max_body_bytes"),
            (
                r#"{"detectors":{"custom":[{"id":"x","category":"X","pattern":"(a"}]}}"#,
                "detectors.custom[0] (x): invalid pattern",
            ),
            (r#"{"default_action":"obliterate"}"#, "unknown variant `obliterate`"),
        ];
        for (json, want) in cases {
            let err = CompiledPolicy::from_json(json.as_bytes()).unwrap_err().to_string();
            assert!(err.contains(want), "{json}: {err}");
        }
    }

    #[test]
    fn routes_filter_by_host_and_actions_fall_back() {
        let json = br#"{"routes":[{"path":"/v1/chat/completions","provider":"openai_chat","hosts":["api.openai.com"]}],
                        "actions":{"EMAIL":"mask"},"default_action":"redact"}"#;
        let p = CompiledPolicy::from_json(json).unwrap();
        assert!(p.route("api.openai.com:443", "/v1/chat/completions").is_some());
        assert!(p.route("evil.example", "/v1/chat/completions").is_none());
        assert_eq!(p.action("EMAIL"), Action::Mask);
        assert_eq!(p.action("SSN"), Action::Redact);
    }
}
