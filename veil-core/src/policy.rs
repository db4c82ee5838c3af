//! The policy model: what the filter protects and how, parsed from its JSON configuration.
//!
//! The same types back the YAML files in `policies/` and the filter's `on_configure`;
//! unknown fields are errors (`deny_unknown_fields`), so a typo is rejected instead of
//! silently weakening protection. With no configuration at all, [`Policy::default`]
//! protects the known vendor API paths on any host.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::check::Issues;
use crate::detect::{is_category, Engine};
pub use crate::detect::{CustomPattern, DetectorsConfig};
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
    /// Hosts (`:authority` without the port) whose requests are protected: `*` for any
    /// host (the default: an egress gateway's traffic is vendor traffic), a host name,
    /// or `*.example.com` for its subdomains. Every request to one of them is scanned,
    /// known API or not, unless `exempt` names it.
    pub destinations: Vec<String>,
    /// Requests to a protected destination that pass untouched and unscanned (counted
    /// in `veil.exempt`): the policy's explicit exceptions. Any of them.
    pub exempt: Vec<Match>,
    /// Which API shape (provider adapter) a path has, first match wins; a protected
    /// request no route names is scanned with the generic walker.
    pub routes: Vec<Route>,
    pub detectors: DetectorsConfig,
    /// Action for a category (built-in like `EMAIL` or a custom one); others get `default_action`.
    pub actions: BTreeMap<String, Action>,
    pub default_action: Action,
    pub limits: Limits,
    /// What happens when the filter cannot process a protected request.
    pub failure_mode: FailureMode,
    pub audit: AuditConfig,
    /// Which tokenized categories are restored in responses.
    pub restore: RestoreConfig,
    /// Token format.
    pub tokens: TokenConfig,
    pub vault: VaultPolicy,
    /// Hold a protected request's headers until its body is inspected (Envoy ≥ 1.35
    /// with `allow_on_headers_stop_iteration: true` in the Wasm plugin config, which
    /// Veil's own configs and renderings set). Then a rejected request never reaches
    /// the vendor at all, and `content-length` is kept (and corrected after a
    /// rewrite). Without that Envoy setting, requests would stall: off by default.
    pub hold_headers: bool,
    /// Claim verification of responses (off by default).
    pub verification: crate::verify::VerifyConfig,
    /// The gateway's own PII detection API and console under a path prefix
    /// (gateway-wide; off by default).
    pub api: ApiConfig,
    /// Request-specific overrides, first match wins; a request no rule matches gets
    /// the top-level settings.
    pub rules: Vec<Rule>,
}

impl Default for Policy {
    fn default() -> Self {
        Policy {
            api_version: API_VERSION.to_string(),
            mode: Mode::Enforce,
            destinations: vec!["*".to_string()],
            exempt: Vec::new(),
            routes: default_routes(),
            detectors: DetectorsConfig::default(),
            actions: BTreeMap::new(),
            default_action: Action::Tokenize,
            limits: Limits::default(),
            failure_mode: FailureMode::Closed,
            audit: AuditConfig::default(),
            restore: RestoreConfig::default(),
            tokens: TokenConfig::default(),
            vault: VaultPolicy::default(),
            hold_headers: false,
            verification: crate::verify::VerifyConfig::default(),
            api: ApiConfig::default(),
            rules: Vec::new(),
        }
    }
}

/// The detection API the filter answers itself (`crate::api`): requests whose path
/// starts with `prefix` go no further than the gateway, whatever their host.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ApiConfig {
    pub enabled: bool,
    /// `/veil`: `POST /veil/v1/pii/detect`, `/anonymize`, `/detect-and-anonymize`, and
    /// the console at `GET /veil/console`.
    pub prefix: String,
}

impl Default for ApiConfig {
    fn default() -> Self {
        ApiConfig { enabled: false, prefix: "/veil".to_string() }
    }
}

/// The vendor API paths whose shape is known, on any host. Paths are matched after
/// normalization ([`normalize_path`]) and ignoring ASCII case.
pub fn default_routes() -> Vec<Route> {
    crate::provider::default_routes()
        .map(|(path, provider)| Route { path: path.to_string(), provider, hosts: Vec::new() })
        .collect()
}

/// A request path as routes and rules see it: query and fragment dropped,
/// percent-decoded, `;parameters` dropped from each segment, empty and `.` segments
/// removed, `..` resolved, `\\` read as `/`, no trailing slash. What a lenient
/// server's router does, so that no spelling of a vendor path picks another (or no)
/// adapter. ASCII case is kept; matching ignores it.
pub fn normalize_path(raw: &str) -> String {
    let raw = raw.split(['?', '#']).next().unwrap_or(raw);
    let bytes = raw.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        let hex = |at: usize| bytes.get(at).and_then(|c| (*c as char).to_digit(16));
        match (b, hex(i + 1), hex(i + 2)) {
            (b'%', Some(hi), Some(lo)) => {
                decoded.push((hi * 16 + lo) as u8);
                i += 3;
            }
            (b'\\', _, _) => {
                decoded.push(b'/');
                i += 1;
            }
            _ => {
                decoded.push(b);
                i += 1;
            }
        }
    }
    let decoded = String::from_utf8_lossy(&decoded);
    let mut segments: Vec<&str> = Vec::new();
    for segment in decoded.split('/') {
        let segment = segment.split(';').next().unwrap_or_default();
        match segment {
            "" | "." => {}
            ".." => {
                segments.pop();
            }
            s => segments.push(s),
        }
    }
    let mut out = String::with_capacity(raw.len());
    for segment in segments {
        out.push('/');
        out.push_str(segment);
    }
    if out.is_empty() {
        out.push('/');
    }
    out
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
    /// Request path after normalization (query ignored, ASCII case ignored), e.g.
    /// `/v1/chat/completions`; `*` matches any characters but `/`
    /// (`/v1beta/models/*:generateContent`), `**` any.
    pub path: String,
    /// The API shape the body is parsed as.
    pub provider: Provider,
    /// `:authority` values this route applies to (port ignored); empty means any host.
    #[serde(default)]
    pub hosts: Vec<String>,
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
    /// Largest request body scanned (after content decoding).
    pub max_body_bytes: usize,
    /// What happens to a larger body.
    pub on_oversize: OnOversize,
    /// What happens to a body that is JSON (by content type or first byte) but fails
    /// the strict parse.
    pub invalid_json: InvalidJson,
    /// What happens to a body that cannot be scanned (binary uploads, media, binary
    /// multipart parts).
    pub unscannable: Unscannable,
    /// What happens when a value is found inside binary content (a file, an image, a
    /// binary part), where a replacement would break the format's lengths and checksums.
    pub found_in_binary: FoundInBinary,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            on_oversize: OnOversize::Reject,
            invalid_json: InvalidJson::Reject,
            unscannable: Unscannable::Pass,
            found_in_binary: FoundInBinary::Block,
        }
    }
}

/// What happens to a request body that looks like JSON and is not strict JSON.
///
/// A vendor's parser may be lenient (`NaN`, comments, a byte that is not UTF-8) and
/// read values the strict scanner never reached; so by default such a body is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InvalidJson {
    /// Answer with a vendor-shaped 400 (`veil_invalid_json`); nothing is forwarded.
    Reject,
    /// Scan the whole body as text, JSON escapes decoded, and forward the result.
    ScanText,
}

/// What happens to a request body that cannot be scanned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Unscannable {
    /// Forward it; the audit line marks it (`unscannable: true`) and
    /// `veil.unscannable` counts it.
    Pass,
    /// Answer with a vendor-shaped 415 (`veil_unscannable`).
    Block,
}

/// What happens to a request whose binary content holds a value the detectors found.
/// Binary media are never rewritten: a token spliced into a PNG or a PDF corrupts it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FoundInBinary {
    /// Answer with a vendor-shaped 400 (`veil_value_in_binary`); nothing is forwarded.
    Block,
    /// Forward the bytes unchanged; the findings are counted and audited.
    Pass,
}

/// What happens to a request body over `limits.max_body_bytes`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OnOversize {
    /// Answer with a vendor-shaped 413; nothing is forwarded.
    Reject,
    /// Forward it unscanned and audit it as `oversize_passed`: an explicit fail-open
    /// for routes whose large bodies are known not to carry personal data.
    Pass,
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
    /// Emit one JSON audit event per protected request.
    pub enabled: bool,
    /// Where the event goes: Envoy's log, the request's filter state for Envoy's
    /// access loggers, or both.
    pub sink: AuditSink,
    /// Gateway-wide: how long (ms) a worker that has just written may hold audit
    /// lines and counter increments to write them together (`audit::Outbox`); 0
    /// writes each line as its request ends.
    pub flush_ms: u64,
}

impl Default for AuditConfig {
    fn default() -> Self {
        AuditConfig { enabled: true, sink: AuditSink::Log, flush_ms: crate::audit::FLUSH_MS }
    }
}

/// Where a request's audit event goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AuditSink {
    /// Envoy's application log (`info`, component `wasm`), batched per worker.
    Log,
    /// The request's filter state `wasm.veil.audit`, which Envoy's access loggers
    /// print with `%FILTER_STATE(wasm.veil.audit:PLAIN)%`; nothing in the log.
    AccessLog,
    /// Both.
    Both,
}

impl AuditSink {
    /// The event goes to Envoy's log.
    pub fn log(self) -> bool {
        matches!(self, AuditSink::Log | AuditSink::Both)
    }

    /// The event goes to the filter state, for the access loggers.
    pub fn access_log(self) -> bool {
        matches!(self, AuditSink::AccessLog | AuditSink::Both)
    }
}

/// Which tokenized categories come back in responses. A category that is not
/// restored still gets a stable token (so the model can tell two values apart), but
/// the value is never kept, not even in the vault.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RestoreConfig {
    /// Restore tokenized values in responses.
    pub enabled: bool,
    /// Categories that do the opposite of `enabled`.
    pub except: Vec<String>,
}

impl Default for RestoreConfig {
    fn default() -> Self {
        RestoreConfig { enabled: true, except: Vec::new() }
    }
}

impl RestoreConfig {
    pub fn restores(&self, category: &str) -> bool {
        self.enabled != self.except.iter().any(|c| c == category)
    }
}

/// The token format: `«token:CATEGORY:id»`, `id` being the first hex digits of a
/// keyed MAC of (scope, category, value).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TokenConfig {
    /// Hex digits in a new token's id (8..=32, even); `null` sizes it from
    /// `vault.max_entries` so that collisions stay below one in a million.
    pub id_length: Option<usize>,
}

#[allow(clippy::derivable_impls)] // spelled out: the default is part of the schema
impl Default for TokenConfig {
    fn default() -> Self {
        TokenConfig { id_length: None }
    }
}

/// One request-specific rule: a match and the settings it overrides.
///
/// Overrides are merged onto the top-level settings (objects key by key, lists and
/// scalars replaced), so a rule names only what differs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Rule {
    /// Reported in the audit line (`rule`); unique within the policy.
    pub name: String,
    /// All conditions must hold; an empty condition list matches anything.
    #[serde(rename = "match", default)]
    pub matches: Match,
    /// The API shape, for paths the `routes` table does not know (an internal
    /// OpenAI-compatible proxy, say). Without it the `routes` table decides, and a
    /// request neither knows is not an LLM call and passes untouched.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provider: Option<Provider>,
    /// Any of [`Profile::OVERRIDES`], in the same shape as at the top level.
    #[serde(flatten)]
    pub overrides: serde_json::Map<String, serde_json::Value>,
}

/// Declares [`Profile`] from one list of fields: the settings a rule may override,
/// each a top-level field of [`Policy`] of the same name and type. The list is the
/// type; [`Profile::OVERRIDES`] and [`Profile::of`] are derived from it.
macro_rules! profile {
    ($($(#[$doc:meta])* $field:ident: $ty:ty,)*) => {
        /// The settings one request is processed under: the top level's, or a rule's
        /// (its overrides merged onto the top level), with the detectors compiled.
        /// Gateway-wide settings (destinations, routes, tokens, the vault,
        /// `hold_headers`, `audit.flush_ms`) are not here: they are the policy's.
        #[derive(Debug, Clone)]
        pub struct Profile {
            $($(#[$doc])* pub $field: $ty,)*
            /// `detectors`, compiled.
            pub engine: Engine,
        }

        impl Profile {
            /// The fields a rule may override, by name.
            pub const OVERRIDES: &'static [&'static str] = &[$(stringify!($field)),*];

            /// The profile of `policy`'s top level, with its compiled detectors.
            fn of(policy: &Policy, engine: Engine) -> Profile {
                Profile { $($field: policy.$field.clone(),)* engine }
            }
        }
    };
}

profile! {
    /// `enforce` or `monitor`.
    mode: Mode,
    detectors: DetectorsConfig,
    actions: BTreeMap<String, Action>,
    default_action: Action,
    restore: RestoreConfig,
    limits: Limits,
    failure_mode: FailureMode,
    /// `audit.enabled` per rule; `audit.flush_ms` is gateway-wide.
    audit: AuditConfig,
    verification: crate::verify::VerifyConfig,
}

impl Profile {
    /// The action for a finding of `category`.
    pub fn action(&self, category: &str) -> Action {
        self.actions.get(category).copied().unwrap_or(self.default_action)
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Match {
    /// `:authority` without the port, case-insensitive; `*.example.com` matches
    /// subdomains. Any of them.
    pub hosts: Vec<String>,
    /// Path without the query; `*` matches within one segment, `**` across
    /// segments. Any of them.
    pub paths: Vec<String>,
    /// Upper-case HTTP methods. Any of them.
    pub methods: Vec<String>,
    /// Every one of them.
    pub headers: Vec<HeaderMatch>,
}

/// A request header condition: exactly one of `exact`, `prefix`, `present`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HeaderMatch {
    /// Lower-case header name.
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exact: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prefix: Option<String>,
    /// `true`: the header is there (any value); `false`: it is not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub present: Option<bool>,
}

/// Which requests share tokens (and may restore each other's).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ScopeKind {
    /// Per API credential, read wherever the vendor reads it (`authorization`,
    /// `x-api-key`, `x-goog-api-key`, Azure's `api-key`, Gemini's `key` query parameter;
    /// hashed): a user's conversation keeps its tokens across turns with no setup. A
    /// request with no credential gets a scope of its own.
    Credential,
    /// Per value of `scope_header` (a conversation or tenant id), bound to the
    /// credential unless `trusted_scope_header`; requests without the header get the
    /// credential's scope.
    Header,
    /// Per request: no token is ever restored outside the request that issued it.
    Request,
    /// Per caller workload: the peer's mTLS identity (its certificate's URI SAN, the
    /// SPIFFE id Istio issues); a request without one gets a scope of its own.
    Peer,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct VaultPolicy {
    /// Keep token → value across requests (in Envoy shared data, sealed).
    pub enabled: bool,
    pub scope: ScopeKind,
    /// The header naming the scope when `scope: header`.
    pub scope_header: String,
    /// The scope header is set by the gateway itself (an earlier filter, never the
    /// client): its value alone is the scope. Otherwise (default) the value is bound to
    /// the request's credential, so another credential sending the same value gets
    /// another scope.
    pub trusted_scope_header: bool,
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
            trusted_scope_header: false,
            ttl_seconds: 24 * 3600,
            max_entries: 100_000,
            max_bytes: 32 * 1024 * 1024,
        }
    }
}

/// One thing wrong with a policy: the field's path and what is wrong. Carries field
/// paths, rule ids and limits, never request data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Issue {
    /// `detectors.custom[2].pattern`, `rules[1].match.headers[0].name`; empty for the
    /// document as a whole.
    pub path: String,
    pub message: String,
}

impl std::fmt::Display for Issue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.path.as_str() {
            "" => f.write_str(&self.message),
            // A detector error names its own path after the rule prefix.
            p if p.ends_with('.') => write!(f, "{p}{}", self.message),
            p => write!(f, "{p}: {}", self.message),
        }
    }
}

/// Why a policy was rejected: every issue found, in document order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PolicyError {
    pub issues: Vec<Issue>,
}

impl std::fmt::Display for PolicyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, issue) in self.issues.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{issue}")?;
        }
        Ok(())
    }
}

impl std::error::Error for PolicyError {}

impl PolicyError {
    fn one(path: impl Into<String>, message: impl Into<String>) -> PolicyError {
        PolicyError { issues: vec![Issue { path: path.into(), message: message.into() }] }
    }
}

/// A validated policy with its detectors compiled: what a request context reads.
///
/// The top level is itself the profile for requests no rule matches; each rule is a
/// profile of its own (its overrides merged onto the top level), compiled once here.
#[derive(Debug, Clone)]
pub struct CompiledPolicy {
    /// The policy as written: read it for gateway-wide settings only; what a request
    /// is processed under is its [`Profile`] ([`CompiledPolicy::profile`]).
    pub policy: Policy,
    top: Profile,
    rules: Vec<CompiledRule>,
}

#[derive(Debug, Clone)]
struct CompiledRule {
    name: String,
    matches: Match,
    provider: Option<Provider>,
    profile: Profile,
}

/// What a request looks like to rule matching. Header values are fetched lazily:
/// only rules with header conditions ask.
pub struct RequestInfo<'a> {
    pub authority: &'a str,
    pub path: &'a str,
    pub method: &'a str,
    pub header: &'a dyn Fn(&str) -> Option<String>,
}

/// The settings a request is processed under.
#[derive(Debug, Clone, Copy)]
pub struct Selection<'a> {
    pub profile: &'a Profile,
    pub provider: Provider,
    /// Index of the matching rule; `None` for the top level.
    pub rule: Option<usize>,
}

impl CompiledPolicy {
    /// Parses the filter's JSON configuration. Empty input means the built-in default.
    pub fn from_json(bytes: &[u8]) -> Result<CompiledPolicy, PolicyError> {
        if bytes.iter().all(|b| b.is_ascii_whitespace()) {
            return CompiledPolicy::new(Policy::default());
        }
        // Through a `Value`: one deserializer type for every policy source keeps the
        // schema's code in the module once (it is the bulk of the policy's size).
        let value: serde_json::Value =
            serde_json::from_slice(bytes).map_err(|e| PolicyError::one("", format!("not valid JSON: {e}")))?;
        let repeated = repeated_keys(bytes);
        if !repeated.is_empty() {
            return Err(PolicyError { issues: repeated });
        }
        CompiledPolicy::from_value(value)
    }

    /// Validates a policy already parsed to a JSON value (from YAML, say), with the
    /// path of the offending field in the error.
    ///
    /// Every issue is reported: a value that does not fit the schema is one issue,
    /// and the rest of the document is still parsed and validated without it.
    pub fn from_value(value: serde_json::Value) -> Result<CompiledPolicy, PolicyError> {
        let parsed = Parsed::<Policy>::new(value);
        let Some(policy) = parsed.value else { return Err(PolicyError { issues: parsed.issues }) };
        match CompiledPolicy::new(policy) {
            Ok(compiled) if parsed.issues.is_empty() => Ok(compiled),
            Ok(_) => Err(PolicyError { issues: parsed.issues }),
            Err(e) => {
                let mut issues = parsed.issues;
                issues.extend(e.issues.into_iter().map(|issue| restore_indices(issue, &parsed.removed)));
                Err(PolicyError { issues })
            }
        }
    }

    pub fn new(policy: Policy) -> Result<CompiledPolicy, PolicyError> {
        let mut issues = validate(&policy);
        // The section's issues are in `issues` already; only a built-in rule that
        // fails to compile is new here.
        let engine = Engine::new(&policy.detectors)
            .map_err(|e| {
                if issues.is_empty() {
                    issues.push(Issue { path: "detectors".into(), message: e.to_string() })
                }
            })
            .ok();
        let top_level_ok = issues.is_empty();
        for (i, rule) in policy.rules.iter().enumerate() {
            issues.extend(rule_issues(&policy, i, rule));
        }
        // Rules are merged onto the top level only when both are sound: otherwise
        // every rule would repeat the top level's issues.
        let (Some(engine), true) = (engine, top_level_ok && issues.is_empty()) else {
            return Err(PolicyError { issues });
        };
        let mut rules = Vec::with_capacity(policy.rules.len());
        for (i, rule) in policy.rules.iter().enumerate() {
            match compile_rule(&policy, &engine, i, rule) {
                Ok(r) => rules.push(r),
                Err(mut e) => issues.append(&mut e.issues),
            }
        }
        if !issues.is_empty() {
            return Err(PolicyError { issues });
        }
        let top = Profile::of(&policy, engine);
        Ok(CompiledPolicy { policy, top, rules })
    }

    /// The settings for a request, or `None` when it is not to a protected
    /// destination or the policy exempts it (it then passes untouched). The provider is
    /// the rule's, else the `routes` table's for the normalized path, else generic:
    /// every protected request is scanned, known API or not.
    pub fn select(&self, req: &RequestInfo<'_>) -> Option<Selection<'_>> {
        let path = normalize_path(req.path);
        let host = strip_port(req.authority);
        if !self.protects(host) || self.exempts(host, &path, req) {
            return None;
        }
        let hit = self.rules.iter().enumerate().find(|(_, r)| r.matches.matches(host, &path, req.method, req.header));
        let (profile, rule, provider) = match hit {
            Some((i, r)) => (&r.profile, Some(i), r.provider),
            None => (&self.top, None, None),
        };
        let provider =
            provider.or_else(|| self.route(req.authority, &path).map(|r| r.provider)).unwrap_or(Provider::Generic);
        Some(Selection { profile, provider, rule })
    }

    /// Whether `host` is a protected destination.
    pub fn protects(&self, host: &str) -> bool {
        self.policy.destinations.iter().any(|d| d == "*" || host_match(d, host))
    }

    /// Whether a request to a protected destination is exempt (`exempt`).
    pub fn exempted(&self, req: &RequestInfo<'_>) -> bool {
        let host = strip_port(req.authority);
        self.protects(host) && self.exempts(host, &normalize_path(req.path), req)
    }

    fn exempts(&self, host: &str, path: &str, req: &RequestInfo<'_>) -> bool {
        self.policy.exempt.iter().any(|m| m.matches(host, path, req.method, req.header))
    }

    /// The profile of rule `index` (`None`: the top level).
    pub fn profile(&self, index: Option<usize>) -> &Profile {
        index.and_then(|i| self.rules.get(i)).map_or(&self.top, |r| &r.profile)
    }

    /// The top level, then every rule's profile.
    pub fn profiles(&self) -> impl Iterator<Item = &Profile> {
        std::iter::once(&self.top).chain(self.rules.iter().map(|r| &r.profile))
    }

    /// The top level's compiled detectors.
    pub fn engine(&self) -> &Engine {
        &self.top.engine
    }

    /// The index of the rule named `name`, if there is one.
    pub fn rule_index(&self, name: &str) -> Option<usize> {
        self.rules.iter().position(|r| r.name == name)
    }

    /// The name of rule `index`, for the audit line (`None`: the top level).
    pub fn rule_name(&self, index: Option<usize>) -> Option<&str> {
        index.and_then(|i| self.rules.get(i)).map(|r| r.name.as_str())
    }

    /// The route for a request, if any: path match after normalization, host filter.
    pub fn route(&self, authority: &str, path: &str) -> Option<&Route> {
        let path = normalize_path(path);
        let path = path.as_str();
        let host = strip_port(authority);
        self.policy.routes.iter().find(|r| {
            glob_match(&r.path, path) && (r.hosts.is_empty() || r.hosts.iter().any(|h| h.eq_ignore_ascii_case(host)))
        })
    }

    /// The top level's action for a finding of `category`.
    pub fn action(&self, category: &str) -> Action {
        self.top.action(category)
    }
}

/// Most schema issues reported for one document before giving up.
const MAX_SCHEMA_ISSUES: usize = 100;

/// A document deserialized with every schema issue collected, not only the first:
/// after each issue the offending node is removed (its field then takes its default)
/// and the rest is parsed again.
struct Parsed<T> {
    /// The document without the offending nodes; `None` if one could not be removed.
    value: Option<T>,
    /// In document order of discovery, with the document's own list indices.
    issues: Vec<Issue>,
    /// List elements removed, in order; paths found after a removal are in the
    /// shortened list's indices until [`restore_indices`] maps them back.
    removed: Vec<Removed>,
}

/// A list element removed from the document: `list` is its list's path.
struct Removed {
    list: String,
    index: usize,
}

impl<T: serde::de::DeserializeOwned> Parsed<T> {
    fn new(mut value: serde_json::Value) -> Parsed<T> {
        let mut parsed = Parsed { value: None, issues: Vec::new(), removed: Vec::new() };
        while parsed.issues.len() < MAX_SCHEMA_ISSUES {
            let e = match serde_path_to_error::deserialize::<_, T>(value.clone()) {
                Ok(v) => {
                    parsed.value = Some(v);
                    break;
                }
                Err(e) => e,
            };
            let segments: Vec<serde_path_to_error::Segment> = e.path().iter().cloned().collect();
            let issue = Issue { path: path_text(&segments), message: explain(&e.into_inner().to_string()) };
            parsed.issues.push(restore_indices(issue, &parsed.removed));
            match remove(&mut value, &segments) {
                Some(Some(index)) => {
                    let list = path_text(segments.get(..segments.len() - 1).unwrap_or_default());
                    parsed.removed.push(Removed { list, index });
                }
                Some(None) => {}
                None => break,
            }
        }
        parsed
    }
}

/// A path as `serde_path_to_error` writes it (`rules[1].match.paths[0]`); empty for
/// the document itself.
fn path_text(segments: &[serde_path_to_error::Segment]) -> String {
    use serde_path_to_error::Segment;
    let mut out = String::new();
    for segment in segments {
        match segment {
            Segment::Seq { index } => out.push_str(&format!("[{index}]")),
            Segment::Map { key } | Segment::Enum { variant: key } => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(key);
            }
            Segment::Unknown => out.push('?'),
        }
    }
    out
}

/// Removes the node at `segments`: `Some(Some(i))` if it was element `i` of a list,
/// `Some(None)` if it was a field, `None` if there is no such node (or it is the
/// document itself).
fn remove(value: &mut serde_json::Value, segments: &[serde_path_to_error::Segment]) -> Option<Option<usize>> {
    use serde_path_to_error::Segment;
    let (last, parents) = segments.split_last()?;
    let mut node = value;
    for segment in parents {
        node = match segment {
            Segment::Seq { index } => node.get_mut(*index)?,
            Segment::Map { key } => node.get_mut(key.as_str())?,
            Segment::Enum { .. } | Segment::Unknown => return None,
        };
    }
    match (last, node) {
        (Segment::Seq { index }, serde_json::Value::Array(list)) if *index < list.len() => {
            list.remove(*index);
            Some(Some(*index))
        }
        (Segment::Map { key }, serde_json::Value::Object(map)) => map.remove(key).map(|_| None),
        _ => None,
    }
}

/// An issue's path in the document's own list indices, undoing `removed` (latest
/// first): an index at or after a removed element's was one higher.
fn restore_indices(mut issue: Issue, removed: &[Removed]) -> Issue {
    for r in removed.iter().rev() {
        let head = format!("{}[", r.list);
        let Some(rest) = issue.path.strip_prefix(&head) else { continue };
        let Some((number, tail)) = rest.split_once(']') else { continue };
        match number.parse::<usize>() {
            Ok(k) if k >= r.index => issue.path = format!("{head}{}]{tail}", k + 1),
            _ => {}
        }
    }
    issue
}

/// serde's message about a policy value, in the policy's words: what kind of value
/// is expected without Rust type names (`usize` is "a whole number ≥ 0"), "did you
/// mean" for a misspelt field or enum value, and no text value echoed (numbers,
/// `true`/`false` and names are).
fn explain(message: &str) -> String {
    for (prefix, kind) in [("unknown field `", "field"), ("unknown variant `", "variant")] {
        if let Some((name, expected)) = message.strip_prefix(prefix).and_then(|rest| rest.split_once('`')) {
            return unknown(kind, name, expected);
        }
    }
    for prefix in ["invalid type: ", "invalid value: "] {
        if let Some((found, expected)) = message.strip_prefix(prefix).and_then(|rest| rest.rsplit_once(", expected ")) {
            return format!("expected {}, found {}", expected_words(expected), found_words(found));
        }
    }
    if let Some((n, expected)) = message.strip_prefix("invalid length ").and_then(|rest| rest.split_once(", expected "))
    {
        return format!("expected {}, found {n} items", expected_words(expected));
    }
    message.to_string()
}

/// "unknown field `x`; did you mean `y`? (fields here: …)" from serde's list of the
/// names it expected (each in backticks).
fn unknown(kind: &str, name: &str, expected: &str) -> String {
    let names: Vec<&str> = expected.split('`').skip(1).step_by(2).collect();
    let mut out = match crate::suggest::echoable(name) {
        true => format!("unknown {kind} `{name}`"),
        false => format!("unknown {kind}"),
    };
    if let Some(close) = crate::suggest::closest(name, names.iter().copied()) {
        out.push_str(&format!("; did you mean `{close}`?"));
    }
    if !names.is_empty() {
        let what = if kind == "field" { "the fields here" } else { "expected one of" };
        out.push_str(&format!(" ({what}: {})", names.join(", ")));
    }
    out
}

/// What serde expected, in words.
fn expected_words(expected: &str) -> String {
    match expected {
        "u8" => "a whole number from 0 to 255",
        "u16" => "a whole number from 0 to 65535",
        "u32" => "a whole number from 0 to 4294967295",
        "u64" | "u128" | "usize" => "a whole number ≥ 0",
        "i8" | "i16" | "i32" | "i64" | "i128" | "isize" => "a whole number",
        "f32" | "f64" => "a number",
        "a boolean" => "true or false",
        "a string" | "a borrowed string" | "a character" | "char" => "text",
        "a sequence" => "a list",
        "a map" => "a mapping (key: value)",
        "unit" => "null",
        "string or map" | "variant identifier" => "one of the names allowed here",
        "field identifier" => "a field name",
        e if e.starts_with("struct ") || e.starts_with("a map") => "a mapping (key: value)",
        e if e.starts_with("a sequence") => "a list",
        other => other,
    }
    .to_string()
}

/// What serde found (`serde::de::Unexpected`), in words: numbers and booleans as
/// they are, text never (it may be anything).
fn found_words(found: &str) -> String {
    let quoted = |prefix: &str| found.strip_prefix(prefix).map(|v| v.trim_matches('`').to_string());
    if let Some(value) = quoted("integer ").or_else(|| quoted("floating point ")).or_else(|| quoted("boolean ")) {
        return value;
    }
    match found {
        f if f.starts_with("string ") || f.starts_with("character ") => "text",
        "unit value" | "null" => "null",
        "sequence" => "a list",
        "map" => "a mapping",
        "byte array" => "bytes",
        other => other,
    }
    .to_string()
}

/// The longest `audit.flush_ms` accepted.
const MAX_FLUSH_MS: u64 = 10_000;

/// A rule's own structure: name, match, which keys it overrides.
fn rule_issues(base: &Policy, i: usize, rule: &Rule) -> Vec<Issue> {
    let at = format!("rules[{i}]");
    let mut issues = Vec::new();
    if rule.name.is_empty() {
        issues.push(Issue { path: format!("{at}.name"), message: "must not be empty".into() });
    }
    if base.rules.iter().take(i).any(|r| r.name == rule.name) {
        issues.push(Issue { path: format!("{at}.name"), message: "duplicate rule name".into() });
    }
    issues.extend(validate_match(&rule.matches, &format!("{at}.match")));
    // A policy field that is not a profile's is gateway-wide.
    let top_level = serde_json::to_value(Policy::default()).ok();
    let is_policy_field = |key: &str| top_level.as_ref().and_then(|v| v.get(key)).is_some();
    for key in rule.overrides.keys() {
        if !Profile::OVERRIDES.contains(&key.as_str()) {
            let message = if is_policy_field(key) {
                "cannot be set per rule (gateway-wide)".to_string()
            } else {
                let fields = ["name", "match", "provider"].into_iter().chain(Profile::OVERRIDES.iter().copied());
                let close =
                    crate::suggest::closest(key, fields).map(|c| format!("; did you mean `{c}`?")).unwrap_or_default();
                format!("unknown field{close} (a rule has name, match, provider, {})", Profile::OVERRIDES.join(", "))
            };
            issues.push(Issue { path: format!("{at}.{key}"), message });
        }
    }
    // One outbox per worker: its interval cannot differ between rules.
    if rule.overrides.get("audit").and_then(|a| a.get("flush_ms")).is_some() {
        issues.push(Issue {
            path: format!("{at}.audit.flush_ms"),
            message: "cannot be set per rule (gateway-wide)".into(),
        });
    }
    issues
}

/// A rule's profile: its overrides merged onto the top level, validated and compiled
/// like a policy of its own. Detectors are compiled again only when overridden.
fn compile_rule(base: &Policy, engine: &Engine, i: usize, rule: &Rule) -> Result<CompiledRule, PolicyError> {
    let at = format!("rules[{i}]");
    let mut merged = serde_json::to_value(Policy { rules: Vec::new(), ..base.clone() })
        .map_err(|e| PolicyError::one(at.clone(), e.to_string()))?;
    if let Some(object) = merged.as_object_mut() {
        for (key, value) in &rule.overrides {
            match object.get_mut(key) {
                Some(slot) => merge(slot, value),
                // Not a field of this build's model: parsing names it below.
                None => {
                    object.insert(key.clone(), value.clone());
                }
            }
        }
    }
    let prefix = |mut e: PolicyError| {
        for issue in &mut e.issues {
            issue.path = if issue.path.is_empty() { format!("{at}.") } else { format!("{at}.{}", issue.path) };
        }
        e
    };
    let parsed = Parsed::<Policy>::new(merged);
    let mut issues = parsed.issues;
    let Some(policy) = parsed.value else { return Err(prefix(PolicyError { issues })) };
    issues.extend(validate(&policy).into_iter().map(|issue| restore_indices(issue, &parsed.removed)));
    if !issues.is_empty() {
        return Err(prefix(PolicyError { issues }));
    }
    let engine = if rule.overrides.contains_key("detectors") {
        Engine::new(&policy.detectors).map_err(|e| prefix(PolicyError::one("detectors", e.to_string())))?
    } else {
        engine.clone()
    };
    Ok(CompiledRule {
        name: rule.name.clone(),
        matches: rule.matches.clone(),
        provider: rule.provider,
        profile: Profile::of(&policy, engine),
    })
}

/// Objects merge key by key; anything else replaces.
fn merge(base: &mut serde_json::Value, over: &serde_json::Value) {
    match (base, over) {
        (serde_json::Value::Object(b), serde_json::Value::Object(o)) => {
            for (k, v) in o {
                match b.get_mut(k) {
                    Some(slot) => merge(slot, v),
                    None => {
                        b.insert(k.clone(), v.clone());
                    }
                }
            }
        }
        (slot, v) => *slot = v.clone(),
    }
}

impl Match {
    fn matches(&self, host: &str, path: &str, method: &str, header: &dyn Fn(&str) -> Option<String>) -> bool {
        (self.hosts.is_empty() || self.hosts.iter().any(|h| host_match(h, host)))
            && (self.paths.is_empty() || self.paths.iter().any(|p| glob_match(p, path)))
            && (self.methods.is_empty() || self.methods.iter().any(|m| m == method))
            && self.headers.iter().all(|h| {
                let value = header(&h.name);
                match (&h.exact, &h.prefix, h.present) {
                    (Some(want), _, _) => value.as_deref() == Some(want.as_str()),
                    (_, Some(prefix), _) => value.is_some_and(|v| v.starts_with(prefix.as_str())),
                    (_, _, Some(present)) => value.is_some() == present,
                    _ => false,
                }
            })
    }
}

fn host_match(pattern: &str, host: &str) -> bool {
    match pattern.strip_prefix("*.") {
        Some(suffix) => host
            .len()
            .checked_sub(suffix.len() + 1)
            .and_then(|cut| host.get(cut..))
            .is_some_and(|tail| tail.strip_prefix('.').is_some_and(|t| t.eq_ignore_ascii_case(suffix))),
        None => pattern.eq_ignore_ascii_case(host),
    }
}

/// `*` matches any run of characters other than `/`, `**` any run at all;
/// everything else literally, ignoring ASCII case.
fn glob_match(pattern: &str, path: &str) -> bool {
    let Some((head, tail)) = pattern.split_once('*') else { return pattern.eq_ignore_ascii_case(path) };
    let rest = match path.get(..head.len()) {
        Some(start) if start.eq_ignore_ascii_case(head) => path.get(head.len()..).unwrap_or_default(),
        _ => return false,
    };
    let (tail, limit) = match tail.strip_prefix('*') {
        Some(tail) => (tail, rest.len()),
        None => (tail, rest.find('/').unwrap_or(rest.len())),
    };
    // Try every split of `rest` for the star.
    (0..=limit).any(|n| rest.get(n..).is_some_and(|r| glob_match(tail, r)))
}

fn strip_port(authority: &str) -> &str {
    if authority.starts_with('[') {
        return authority.split(']').next().map_or(authority, |h| h.trim_start_matches('['));
    }
    authority.rsplit_once(':').map_or(authority, |(h, _)| h)
}

fn is_header_name(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

fn validate_match(m: &Match, at: &str) -> Vec<Issue> {
    let mut issues = Vec::new();
    let mut field = |path: String, message: &str| issues.push(Issue { path, message: message.to_string() });
    for (i, host) in m.hosts.iter().enumerate() {
        let bare = host.strip_prefix("*.").unwrap_or(host);
        let ok = !bare.is_empty() && bare.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.');
        if !ok {
            field(format!("{at}.hosts[{i}]"), "a host name, optionally starting with '*.' (no port)");
        }
    }
    for (i, path) in m.paths.iter().enumerate() {
        if !path.starts_with('/') {
            field(format!("{at}.paths[{i}]"), "must start with '/'");
        }
    }
    for (i, method) in m.methods.iter().enumerate() {
        if method.is_empty() || !method.bytes().all(|b| b.is_ascii_uppercase()) {
            field(format!("{at}.methods[{i}]"), "an upper-case HTTP method such as POST");
        }
    }
    for (i, h) in m.headers.iter().enumerate() {
        if !is_header_name(&h.name) {
            field(format!("{at}.headers[{i}].name"), "must be a lower-case header name");
        }
        let set = usize::from(h.exact.is_some()) + usize::from(h.prefix.is_some()) + usize::from(h.present.is_some());
        if set != 1 {
            field(format!("{at}.headers[{i}]"), "needs exactly one of exact, prefix, present");
        }
    }
    issues
}

/// Every key repeated in one object of a JSON document: a reader keeps one of the two
/// values (serde the last), so `API_KEY: block` then `API_KEY: allow` would read as the
/// weaker one without a word.
fn repeated_keys(doc: &[u8]) -> Vec<Issue> {
    let mut seen = std::collections::HashSet::new();
    let mut issues = Vec::new();
    let _ = crate::json::visit_all(doc, &mut |path, scalar| {
        if matches!(scalar, crate::json::Scalar::Key(_)) && !seen.insert(path.to_vec()) {
            let mut at = String::new();
            for seg in path {
                match seg {
                    crate::json::Seg::Key(k) if at.is_empty() => at.push_str(k),
                    crate::json::Seg::Key(k) => at.push_str(&format!(".{k}")),
                    crate::json::Seg::Index(i) => at.push_str(&format!("[{i}]")),
                }
            }
            issues.push(Issue { path: at, message: "repeated key: each key once per object".into() });
        }
    });
    issues
}

/// The categories a policy can name: the built-in ones, its custom rules' and those
/// its model stage may propose.
fn known_categories(policy: &Policy) -> Vec<&str> {
    let mut known: Vec<&str> = crate::detect::category::CATEGORIES.iter().map(|c| c.id).collect();
    known.extend(policy.detectors.custom.iter().map(|c| c.category.as_str()));
    known.extend(policy.detectors.model.categories.iter().map(String::as_str));
    known
}

/// The issue with a category name that is no category the policy knows (`None` when it
/// is one): malformed (`secrets`), or well-formed and unknown (`GITHUB_TOKN`), with the
/// known category meant, if one is close. A typo must never leave a policy weaker than
/// it reads, so it is refused, not ignored.
fn category_issue(name: &str, known: &[&str]) -> Option<String> {
    if known.contains(&name) {
        return None;
    }
    let upper = name.to_ascii_uppercase();
    let meant = if known.contains(&upper.as_str()) {
        Some(upper.as_str())
    } else {
        crate::suggest::closest(&upper, known.iter().copied())
    };
    let hint =
        meant.filter(|m| crate::suggest::echoable(m)).map(|m| format!("; did you mean `{m}`?")).unwrap_or_default();
    Some(match is_category(name) {
        true => format!("unknown category (not a built-in one, a custom rule's or the model stage's){hint}"),
        false => format!("not a category name (A-Z, 0-9, _){hint}"),
    })
}

/// Every semantic issue of a parsed policy (the schema itself is checked by serde).
fn validate(policy: &Policy) -> Vec<Issue> {
    let mut issues = Vec::new();
    let mut field = |path: String, message: &str| issues.push(Issue { path, message: message.to_string() });
    if policy.api_version != API_VERSION {
        field("apiVersion".into(), "expected \"veil/v1\"");
    }
    for (i, route) in policy.routes.iter().enumerate() {
        if !route.path.starts_with('/') {
            field(format!("routes[{i}].path"), "must start with '/'");
        }
    }
    if policy.destinations.is_empty() {
        field(
            "destinations".into(),
            "must name at least one host ('*' for any); to protect nothing, remove the filter",
        );
    }
    for (i, host) in policy.destinations.iter().enumerate() {
        let bare = host.strip_prefix("*.").unwrap_or(host);
        let ok = host == "*"
            || (!bare.is_empty() && bare.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.'));
        if !ok {
            field(format!("destinations[{i}]"), "'*', a host name, or '*.' and a domain (no port)");
        }
    }
    let exempt_issues: Vec<Issue> =
        policy.exempt.iter().enumerate().flat_map(|(i, m)| validate_match(m, &format!("exempt[{i}]"))).collect();
    for issue in policy.detectors.issues() {
        let path = issue.path();
        field(if path.is_empty() { "detectors".into() } else { format!("detectors.{path}") }, &issue.message());
    }
    let known = known_categories(policy);
    for name in policy.actions.keys() {
        if let Some(issue) = category_issue(name, &known) {
            field(format!("actions.{name}"), &issue);
        }
    }
    for (i, name) in policy.restore.except.iter().enumerate() {
        if let Some(issue) = category_issue(name, &known) {
            field(format!("restore.except[{i}]"), &issue);
        }
    }
    if let Some(len) = policy.tokens.id_length {
        if !(8..=32).contains(&len) || len % 2 != 0 {
            field("tokens.id_length".into(), &format!("must be an even number within 8..=32, found {len}"));
        }
    }
    let mut bounds = Issues::new("");
    bounds.within("audit.flush_ms", policy.audit.flush_ms, 0, MAX_FLUSH_MS);
    bounds.within("limits.max_body_bytes", policy.limits.max_body_bytes, 1, 64 * 1024 * 1024);
    let vault = &policy.vault;
    bounds.within("vault.ttl_seconds", vault.ttl_seconds, 1, 30 * 24 * 3600);
    bounds.within("vault.max_entries", vault.max_entries, 8, 10_000_000);
    bounds.within("vault.max_bytes", vault.max_bytes, 4096, 1 << 30);
    for (path, message) in bounds.into_vec().into_iter().chain(policy.verification.issues()) {
        field(path, &message);
    }
    let api = &policy.api;
    let segment_ok =
        |seg: &str| !seg.is_empty() && seg.bytes().all(|b| b.is_ascii_alphanumeric() || b"-._~".contains(&b));
    if !api.prefix.strip_prefix('/').is_some_and(|rest| rest.split('/').all(segment_ok)) {
        field("api.prefix".into(), "must be a path such as /veil: '/' and segments of letters, digits, - . _ ~");
    }
    if api.enabled && !policy.hold_headers {
        field(
            "api.enabled".into(),
            "needs hold_headers: true (the API answers a request whose headers must not go upstream first)",
        );
    }
    if !is_header_name(&vault.scope_header) {
        field("vault.scope_header".into(), "must be a lower-case header name");
    }
    issues.extend(exempt_issues);
    issues
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
        assert_eq!(provider("/v1/messages/count_tokens"), Some(Provider::Anthropic));
        assert_eq!(provider("/v1beta/models/gemini-2.0-flash:countTokens"), Some(Provider::Gemini));
        assert_eq!(provider("/v1beta/tunedModels/my-model:generateContent"), Some(Provider::Gemini));
        assert_eq!(
            provider(
                "/v1/projects/p/locations/us-central1/publishers/google/models/gemini-2.0-flash:streamGenerateContent"
            ),
            Some(Provider::Gemini)
        );
        assert_eq!(
            provider("/openai/deployments/gpt4o/chat/completions?api-version=2024-10-21"),
            Some(Provider::OpenAiChat)
        );
        // Spellings a lenient router accepts pick the same adapter.
        for spelling in [
            "/v1/chat/completions/",
            "//v1//chat/completions",
            "/%76%31/chat/completions",
            "/V1/Chat/Completions",
            "/v1/chat/completions;jsessionid=x",
            "/v1/./x/../chat/completions",
            "\\v1\\chat\\completions",
        ] {
            assert_eq!(provider(spelling), Some(Provider::OpenAiChat), "{spelling}");
        }
        assert_eq!(provider("/v1beta/models/gemini-2.0-flash%3AgenerateContent"), Some(Provider::Gemini));
    }

    #[test]
    fn paths_are_normalized() {
        let table = [
            ("/v1/chat/completions?x=/y", "/v1/chat/completions"),
            ("//a///b//", "/a/b"),
            ("/a/%2e%2e/b", "/b"),
            ("/a;x=1/b;y", "/a/b"),
            ("/m%3Agen", "/m:gen"),
            ("", "/"),
            ("/../../", "/"),
            ("/bad%zz%4", "/bad%zz%4"),
        ];
        for (raw, want) in table {
            assert_eq!(normalize_path(raw), want, "{raw}");
        }
    }

    #[test]
    fn every_request_to_a_destination_is_protected_unless_exempt() {
        let p = CompiledPolicy::from_json(b"").unwrap();
        let s = select(&p, "api.openai.com", "/v1/embeddings", &[]).unwrap();
        assert_eq!(s.provider, Provider::Generic);
        assert!(select(&p, "anything.example", "/whatever", &[]).is_some());
        let json = br#"{"destinations": ["api.openai.com", "*.googleapis.com"],
                        "exempt": [{"paths": ["/v1/models/**"], "methods": ["GET"]}]}"#;
        let p = CompiledPolicy::from_json(json).unwrap();
        assert!(select(&p, "api.openai.com:443", "/v1/files", &[]).is_some());
        assert!(select(&p, "generativelanguage.googleapis.com", "/v1beta/models/x:generateContent", &[]).is_some());
        assert!(select(&p, "example.com", "/v1/chat/completions", &[]).is_none());
        // Exempt: only what the exemption names, in any spelling of its path.
        for (path, method, exempt) in [
            ("/v1/models/gpt-4o", "GET", true),
            ("/V1//models/gpt-4o/", "GET", true),
            ("/v1/models/gpt-4o", "POST", false),
            ("/v1/chat/completions", "GET", false),
        ] {
            let header = |_: &str| None;
            let info = RequestInfo { authority: "api.openai.com", path, method, header: &header };
            assert_eq!(p.select(&info).is_none(), exempt, "{method} {path}");
            assert_eq!(p.exempted(&info), exempt, "{method} {path}");
        }
        let err = CompiledPolicy::from_json(br#"{"destinations": [], "exempt": [{"paths": ["nope"]}]}"#)
            .unwrap_err()
            .to_string();
        assert!(err.contains("destinations: must name") && err.contains("exempt[0].paths[0]"), "{err}");
    }

    #[test]
    fn the_audit_sink_is_log_unless_the_policy_says() {
        let sink = |json: &str| CompiledPolicy::from_json(json.as_bytes()).unwrap().policy.audit.sink;
        assert_eq!(sink("{}"), AuditSink::Log);
        assert_eq!(sink(r#"{"audit":{"sink":"access_log"}}"#), AuditSink::AccessLog);
        assert_eq!(sink(r#"{"audit":{"sink":"both"}}"#), AuditSink::Both);
        let ways = [AuditSink::Log, AuditSink::AccessLog, AuditSink::Both].map(|s| (s.log(), s.access_log()));
        assert_eq!(ways, [(true, false), (false, true), (true, true)]);
        // A rule may send its requests' events elsewhere.
        let p = CompiledPolicy::from_json(
            br#"{"rules":[{"name":"r","match":{"paths":["/v1/**"]},"audit":{"sink":"access_log"}}]}"#,
        )
        .unwrap();
        assert_eq!((p.profile(None).audit.sink, p.profile(Some(0)).audit.sink), (AuditSink::Log, AuditSink::AccessLog));
    }

    /// A typo in a category never weakens a policy: refused, with the category meant.
    #[test]
    fn unknown_categories_are_refused_with_the_one_meant() {
        let cases: &[(&str, &str)] = &[
            (r#"{"actions":{"GITHUB_TOKN":"block"}}"#, "actions.GITHUB_TOKN: unknown category (not a built-in one, a custom rule's or the model stage's); did you mean `GITHUB_TOKEN`?"),
            (r#"{"actions":{"github_token":"block"}}"#, "actions.github_token: not a category name (A-Z, 0-9, _); did you mean `GITHUB_TOKEN`?"),
            (r#"{"actions":{"HIGH":"block"}}"#, "actions.HIGH: unknown category"),
            (r#"{"restore":{"except":["CREDITCARD"]}}"#, "restore.except[0]: unknown category (not a built-in one, a custom rule's or the model stage's); did you mean `CREDIT_CARD`?"),
            (
                r#"{"rules":[{"name":"r","match":{"paths":["/v1/**"]},"actions":{"SSNN":"block"}}]}"#,
                "rules[0].actions.SSNN: unknown category (not a built-in one, a custom rule's or the model stage's); did you mean `SSN`?",
            ),
        ];
        for (json, want) in cases {
            let err = CompiledPolicy::from_json(json.as_bytes()).unwrap_err().to_string();
            assert!(err.contains(want), "{json}: {err}");
        }
        // A custom rule's category and the model stage's are known.
        let ok = r#"{"actions":{"EMPLOYEE_ID":"block","ORGANIZATION":"mask","VENDOR_X":"mask"},
            "detectors":{"custom":[{"id":"emp","category":"EMPLOYEE_ID","pattern":"EMP-[0-9]{6}"}],
                         "model":{"categories":["PERSON","VENDOR_X"]}}}"#;
        CompiledPolicy::from_json(ok.as_bytes()).unwrap();
    }

    /// A key given twice in one object is refused (a lenient reader keeps one of them).
    #[test]
    fn repeated_keys_are_refused() {
        let err = CompiledPolicy::from_json(br#"{"actions":{"API_KEY":"block","API_KEY":"allow"}}"#).unwrap_err();
        assert_eq!(err.to_string(), "actions.API_KEY: repeated key: each key once per object");
        let err =
            CompiledPolicy::from_json(br#"{"rules":[{"name":"a","name":"b"}],"mode":"enforce","mode":"monitor"}"#)
                .unwrap_err()
                .to_string();
        assert!(err.contains("rules[0].name: repeated key") && err.contains("mode: repeated key"), "{err}");
        // The same key in two objects is no repeat.
        CompiledPolicy::from_json(br#"{"rules":[{"name":"a","match":{}},{"name":"b","match":{}}]}"#).unwrap();
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
            (r#"{"audit":{"flush_ms":10001}}"#, "audit.flush_ms: must be within 0..=10000"),
            (
                r#"{"rules":[{"name":"r","match":{"paths":["/v1/**"]},"audit":{"flush_ms":0}}]}"#,
                "rules[0].audit.flush_ms: cannot be set per rule (gateway-wide)",
            ),
            (
                r#"{"detectors":{"custom":[{"id":"x","category":"X","pattern":"(a"}]}}"#,
                "detectors.custom[0] (x): invalid pattern",
            ),
            (r#"{"default_action":"obliterate"}"#, "unknown variant `obliterate`"),
            (r#"{"api":{"enabled":true}}"#, "api.enabled: needs hold_headers: true"),
            (
                r#"{"rules":[{"name":"r","verificaton":{}}]}"#,
                "rules[0].verificaton: unknown field; did you mean `verification`?",
            ),
            (r#"{"api":{"prefix":"veil/"}}"#, "api.prefix: must be a path such as /veil"),
            (r#"{"api":{"prefix":"/veil/"}}"#, "api.prefix: must be a path such as /veil"),
            (
                r#"{"rules":[{"name":"r","vault":{"enabled":false},"colour":"red"}]}"#,
                "rules[0].vault: cannot be set per rule (gateway-wide)",
            ),
            (
                r#"{"rules":[{"name":"r","vault":{"enabled":false},"colour":"red"}]}"#,
                "rules[0].colour: unknown field (a rule has name, match, provider, mode, detectors, actions, \
                 default_action, restore, limits, failure_mode, audit, verification)",
            ),
            (r#"{"audit":{"sink":"syslog"}}"#, "audit.sink: unknown variant `syslog`"),
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

    fn select<'a>(p: &'a CompiledPolicy, host: &str, path: &str, headers: &[(&str, &str)]) -> Option<Selection<'a>> {
        let owned: Vec<(String, String)> = headers.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        let header = move |name: &str| owned.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
        p.select(&RequestInfo { authority: host, path, method: "POST", header: &header })
    }

    const TENANTS: &str = r#"{
        "actions": {"EMAIL": "mask"},
        "detectors": {"custom": [{"id": "acme.ticket", "category": "TICKET", "pattern": "TCK-[0-9]{6}"}]},
        "rules": [
            {"name": "acme", "match": {"headers": [{"name": "x-tenant", "exact": "acme"}]},
             "actions": {"SSN": "block"}, "mode": "monitor"},
            {"name": "internal-proxy", "match": {"hosts": ["*.llm.corp.example"], "paths": ["/proxy/**"]},
             "provider": "openai_chat", "detectors": {"disable": ["EMAIL"]}},
            {"name": "beta", "match": {"paths": ["/v1/chat/*"], "methods": ["POST"],
             "headers": [{"name": "x-beta", "present": true}]}, "restore": {"enabled": false}}
        ]}"#;

    #[test]
    fn first_matching_rule_wins_and_overrides_merge_onto_the_top_level() {
        let p = CompiledPolicy::from_json(TENANTS.as_bytes()).unwrap();
        let s = select(&p, "api.openai.com", "/v1/chat/completions", &[("x-tenant", "acme"), ("x-beta", "1")]).unwrap();
        assert_eq!(s.rule, Some(0));
        assert_eq!(p.rule_name(s.rule), Some("acme"));
        assert_eq!(s.provider, Provider::OpenAiChat);
        // Merged: the rule's SSN action next to the top level's EMAIL action.
        assert_eq!(s.profile.action("SSN"), Action::Block);
        assert_eq!(s.profile.action("EMAIL"), Action::Mask);
        assert_eq!(s.profile.mode, Mode::Monitor);
        // Custom detectors inherited.
        assert!(s.profile.engine.rules().iter().any(|r| r.id == "acme.ticket"));

        let s = select(&p, "api.openai.com", "/v1/chat/completions", &[("x-tenant", "other"), ("x-beta", "")]).unwrap();
        assert_eq!(p.rule_name(s.rule), Some("beta"));
        assert!(!s.profile.restore.restores("EMAIL"));

        let s = select(&p, "api.openai.com", "/v1/chat/completions", &[]).unwrap();
        assert_eq!(s.rule, None);
        assert_eq!(s.profile.action("SSN"), Action::Tokenize);
        assert_eq!(s.profile.mode, Mode::Enforce);
    }

    #[test]
    fn a_rule_can_name_the_provider_for_unknown_paths() {
        let p = CompiledPolicy::from_json(TENANTS.as_bytes()).unwrap();
        let s = select(&p, "gw.llm.corp.example:8443", "/proxy/team/a/chat?x=1", &[]).unwrap();
        assert_eq!(p.rule_name(s.rule), Some("internal-proxy"));
        assert_eq!(s.provider, Provider::OpenAiChat);
        assert!(!s.profile.engine.rules().iter().any(|r| r.category == "EMAIL"));
        // Not a subdomain, and not a known path either: still scanned, generically.
        for (host, path) in
            [("llm.corp.example", "/proxy/x"), ("evilllm.corp.example", "/proxy/x"), ("api.openai.com", "/v1/models")]
        {
            let s = select(&p, host, path, &[]).unwrap();
            assert_eq!((s.rule, s.provider), (None, Provider::Generic), "{host}{path}");
        }
    }

    #[test]
    fn every_issue_is_reported_with_its_path() {
        let json = r#"{
            "apiVersion": "veil/v2",
            "limits": {"max_body_bytes": 0},
            "actions": {"email": "mask"},
            "rules": [
                {"name": "a", "match": {"methods": ["post"], "headers": [{"name": "X-Tenant", "exact": "a", "prefix": "b"}]}},
                {"name": "b", "vault": {"enabled": false}, "redact": {}},
                {"name": "c", "limits": {"max_body_bytes": 0}},
                {"name": "c", "detectors": {"custom": [{"id": "x", "category": "X", "pattern": "(a"}]}}
            ]}"#;
        let err = CompiledPolicy::from_json(json.as_bytes()).unwrap_err();
        let paths: Vec<String> = err.issues.iter().map(|i| i.path.clone()).collect();
        assert_eq!(paths[..3], ["apiVersion", "actions.email", "limits.max_body_bytes"], "{err}");
        // The top level is broken: rules are not merged onto it (their issues would
        // only repeat it), but their own structure is still checked.
        assert!(paths.contains(&"rules[0].match.methods[0]".to_string()), "{err}");
        assert!(paths.contains(&"rules[0].match.headers[0].name".to_string()), "{err}");
        assert!(paths.contains(&"rules[0].match.headers[0]".to_string()), "{err}");
        assert!(paths.contains(&"rules[1].vault".to_string()), "{err}");
        assert!(paths.contains(&"rules[1].redact".to_string()), "{err}");
        assert!(paths.contains(&"rules[3].name".to_string()), "{err}");

        let json = r#"{"rules": [
                {"name": "c", "limits": {"max_body_bytes": 0}},
                {"name": "d", "detectors": {"custom": [{"id": "x", "category": "X", "pattern": "(a"}]}},
                {"name": "e", "mode": "enforcing"}]}"#;
        let err = CompiledPolicy::from_json(json.as_bytes()).unwrap_err().to_string();
        assert!(err.contains("rules[0].limits.max_body_bytes: must be within"), "{err}");
        assert!(err.contains("rules[1].detectors.custom[0] (x): invalid pattern"), "{err}");
        assert!(err.contains("rules[2].mode: unknown variant `enforcing`"), "{err}");
    }

    /// The issues of a policy that must be rejected (a compiled policy's `Debug` is
    /// too long for a failure message).
    fn rejected(json: &str) -> PolicyError {
        match CompiledPolicy::from_json(json.as_bytes()) {
            Ok(_) => panic!("accepted: {json}"),
            Err(e) => e,
        }
    }

    /// Every schema issue, not only the first: each bad node is reported and left
    /// out, and the rest is still parsed and validated, with the document's indices.
    #[test]
    fn every_schema_issue_is_reported_with_the_documents_indices() {
        let table: &[(&str, &[&str])] = &[
            (
                r#"{"limits": {"max_body_byte": 1}, "mode": "enforcing", "audit": {"flush_ms": 20000}}"#,
                &["limits.max_body_byte", "mode", "audit.flush_ms"],
            ),
            // A route without its provider is left out; the next keeps its index.
            (r#"{"routes": [{"path": "/a"}, {"path": "b", "provider": "gemini"}]}"#, &["routes[0]", "routes[1].path"]),
            (
                r#"{"detectors": {"disable": [5, "EMAIL", "nope.v1"], "custom": [{"id": "x"}, {"id": "y", "category": "Y", "pattern": "("}]}}"#,
                &["detectors.disable[0]", "detectors.custom[0]", "detectors.disable[2]", "detectors.custom[1] (y)"],
            ),
            (
                r#"{"rules": [{"match": {}}, {"name": "b", "match": {"methods": "POST"}}, {"name": "c", "limit": {}}]}"#,
                &["rules[0]", "rules[1].match.methods", "rules[2].limit"],
            ),
            (
                r#"{"rules": [{"name": "a", "mode": "x", "limits": {"max_body_bytes": -1}, "restore": {"except": ["EMAIL", 5]}}]}"#,
                &["rules[0].mode", "rules[0].limits.max_body_bytes", "rules[0].restore.except[1]"],
            ),
        ];
        for (json, want) in table {
            let err = rejected(json);
            // In the order found (a JSON object's keys sorted): compared as sets.
            let mut paths: Vec<&str> = err.issues.iter().map(|i| i.path.as_str()).collect();
            let mut want = want.to_vec();
            paths.sort_unstable();
            want.sort_unstable();
            assert_eq!(paths, want, "{json}: {err}");
        }
    }

    /// Messages say what is expected in words, suggest the name meant, and echo
    /// numbers and names but never text.
    #[test]
    fn schema_messages_are_in_words() {
        let table = [
            (r#"{"limits": {"max_body_bytes": "big"}}"#, "limits.max_body_bytes: expected a whole number ≥ 0, found text"),
            (r#"{"limits": {"max_body_bytes": -1}}"#, "limits.max_body_bytes: expected a whole number ≥ 0, found -1"),
            (r#"{"limits": {"max_body_bytes": 1.5}}"#, "expected a whole number ≥ 0, found 1.5"),
            (r#"{"verification": {"threshold": 300}}"#, "expected a whole number from 0 to 255, found 300"),
            (r#"{"audit": {"enabled": "yes"}}"#, "audit.enabled: expected true or false, found text"),
            (r#"{"detectors": {"confidence_threshold": "high"}}"#, "expected a number, found text"),
            (r#"{"destinations": "jane.doe@example.com"}"#, "destinations: expected a list, found text"),
            (r#"{"limits": 5}"#, "limits: expected a mapping (key: value), found 5"),
            (r#"{"routes": {}}"#, "routes: expected a list, found a mapping"),
            (r#"{"detectors": {"code_names": [1]}}"#, "detectors.code_names[0]: expected text, found 1"),
            (
                r#"{"limits": {"max_body_byte": 1}}"#,
                "limits.max_body_byte: unknown field `max_body_byte`; did you mean `max_body_bytes`? (the fields here: max_body_bytes,",
            ),
            (r#"{"defaults_action": "mask"}"#, "unknown field `defaults_action`; did you mean `default_action`?"),
            (r#"{"default_action": "maks"}"#, "default_action: unknown variant `maks`; did you mean `mask`? (expected one of: tokenize, mask, redact, block, allow)"),
            (r#"{"actions": {"email": "mask"}}"#, "actions.email: not a category name (A-Z, 0-9, _); did you mean `EMAIL`?"),
            (r#"{"rules": [{"name": "a", "limts": {}}]}"#, "rules[0].limts: unknown field; did you mean `limits`?"),
            (r#"{"limits": {"max_body_bytes": 0}}"#, "must be within 1..=67108864, found 0"),
            (r#"{"verification": {"max_claims": 0, "concurrency": 99}}"#, "verification.concurrency: must be within 1..=16, found 99"),
        ];
        for (json, want) in table {
            let err = rejected(json).to_string();
            assert!(err.contains(want), "{json}:\n{err}");
            for rust in ["usize", "u64", "u8", "f32", "bool", "a boolean", "struct ", "a sequence", "a map,"] {
                assert!(!err.contains(rust), "{json}: {rust} in {err}");
            }
            assert!(!err.contains("jane") && !err.contains("high") && !err.contains("big"), "{err}");
        }
    }

    #[test]
    fn globs_and_hosts() {
        assert!(glob_match("/a/**", "/a/b/c"));
        assert!(glob_match("/a/**/z", "/a/b/c/z"));
        assert!(!glob_match("/a/*", "/a/b/c"));
        assert!(glob_match("/v1beta/models/*:generateContent", "/v1beta/models/g:generateContent"));
        assert!(host_match("*.example.com", "a.b.EXAMPLE.com"));
        assert!(!host_match("*.example.com", "example.com"));
        assert!(!host_match("*.example.com", "badexample.com"));
        assert!(host_match("API.openai.com", "api.openai.com"));
    }

    #[test]
    fn rules_round_trip_through_serialisation() {
        let p = CompiledPolicy::from_json(TENANTS.as_bytes()).unwrap();
        let json = serde_json::to_vec(&p.policy).unwrap();
        let again = CompiledPolicy::from_json(&json).unwrap();
        assert_eq!(again.policy, p.policy);
    }

    #[test]
    fn a_rule_can_turn_verification_on_for_its_requests() {
        let json = br#"{"rules": [{"name": "answers", "match": {"headers": [{"name": "x-verify", "present": true}]},
                                   "verification": {"enabled": true, "max_claims": 3}}]}"#;
        let p = CompiledPolicy::from_json(json).unwrap();
        assert!(!p.policy.verification.enabled);
        let s = select(&p, "h", "/v1/messages", &[("x-verify", "1")]).unwrap();
        assert!(s.profile.verification.enabled);
        assert_eq!(s.profile.verification.max_claims, 3);
        // Everything else inherited from the top level's (default) verification.
        assert_eq!(s.profile.verification.cluster, p.policy.verification.cluster);

        let bad = br#"{"rules": [{"name": "a", "verification": {"enabled": true, "endpoint": "grpc"}}]}"#;
        let err = CompiledPolicy::from_json(bad).unwrap_err().to_string();
        assert!(err.starts_with("rules[0].verification.endpoint: unknown variant `grpc`"), "{err}");
    }
}
