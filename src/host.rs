//! Host glue: the only module that names `proxy_wasm`.
//!
//! It reads headers and bodies from Envoy, hands bytes to the pure core
//! ([`crate::redact`], [`crate::restore`]), and carries out the core's decisions:
//! rewrite, forward, or answer with a vendor-shaped error. Every failure maps to the
//! policy's failure mode; nothing here panics or logs request data.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::time::SystemTime;

use proxy_wasm::hostcalls;
use proxy_wasm::traits::{Context, HttpContext, RootContext};
use proxy_wasm::types::{Action, ContextType, LogLevel, MetricType};

use crate::audit::{AuditEvent, Outcome};
use crate::policy::{CompiledPolicy, FailureMode};
use crate::provider::Provider;
use crate::redact::{Redactor, Verdict};
use crate::restore::{restore_json, restore_text};
use crate::stream::{Framing, StreamRestorer};
use crate::token::{TokenMap, TokenMinter};

proxy_wasm::main! {{
    proxy_wasm::set_log_level(LogLevel::Info);
    proxy_wasm::set_root_context(|_| Box::new(VeilRoot::new()));
}}

/// Environment variable (set through `vm_config.environment_variables`) holding the
/// 32-byte token key as 64 hex digits.
const KEY_ENV: &str = "VEIL_TOKEN_KEY";

/// Headers whose value identifies the API credential: the token scope (see `token`).
/// Only fed into the HMAC, never stored or logged.
const CREDENTIAL_HEADERS: &[&str] = &["authorization", "x-api-key", "x-goog-api-key"];

fn log(level: LogLevel, message: &str) {
    let _ = hostcalls::log(level, message);
}

/// Counters exported as Envoy stats (`wasmcustom.veil.*`). Labels are categories and
/// outcomes only.
struct Metrics {
    ids: RefCell<HashMap<String, u32>>,
}

impl Metrics {
    fn increment(&self, name: &str, by: u64) {
        if by == 0 {
            return;
        }
        let id = {
            let mut ids = self.ids.borrow_mut();
            match ids.get(name) {
                Some(id) => Some(*id),
                None => match hostcalls::define_metric(MetricType::Counter, &format!("veil.{name}")) {
                    Ok(id) => {
                        ids.insert(name.to_string(), id);
                        Some(id)
                    }
                    Err(_) => None,
                },
            }
        };
        if let Some(id) = id {
            let _ = hostcalls::increment_metric(id, i64::try_from(by).unwrap_or(i64::MAX));
        }
    }
}

struct VeilRoot {
    policy: Rc<CompiledPolicy>,
    minter: Rc<TokenMinter>,
    metrics: Rc<Metrics>,
}

impl VeilRoot {
    fn new() -> VeilRoot {
        VeilRoot {
            policy: Rc::new(default_policy()),
            minter: Rc::new(TokenMinter::new(token_key())),
            metrics: Rc::new(Metrics { ids: RefCell::new(HashMap::new()) }),
        }
    }
}

fn default_policy() -> CompiledPolicy {
    match CompiledPolicy::new(crate::policy::Policy::default()) {
        Ok(p) => p,
        // The default policy is covered by unit tests; this cannot fail.
        Err(_) => std::process::abort(),
    }
}

fn token_key() -> [u8; 32] {
    let mut key = [0u8; 32];
    if let Ok(hex) = std::env::var(KEY_ENV) {
        if parse_hex_key(hex.trim(), &mut key) {
            return key;
        }
        log(LogLevel::Error, "veil: VEIL_TOKEN_KEY is not 64 hex digits; using a random key");
    }
    if getrandom::getrandom(&mut key).is_err() {
        log(LogLevel::Critical, "veil: no randomness for the token key");
        std::process::abort();
    }
    key
}

fn parse_hex_key(hex: &str, key: &mut [u8; 32]) -> bool {
    if hex.len() != 64 {
        return false;
    }
    for (i, byte) in key.iter_mut().enumerate() {
        match hex.get(2 * i..2 * i + 2).and_then(|h| u8::from_str_radix(h, 16).ok()) {
            Some(b) => *byte = b,
            None => return false,
        }
    }
    true
}

impl Context for VeilRoot {}

impl RootContext for VeilRoot {
    fn on_configure(&mut self, _size: usize) -> bool {
        let config = self.get_plugin_configuration().unwrap_or_default();
        match CompiledPolicy::from_json(&config) {
            Ok(policy) => {
                self.policy = Rc::new(policy);
                log(LogLevel::Info, "veil: policy loaded");
                true
            }
            Err(err) => {
                // The error names fields and rule ids only (PolicyError's contract).
                log(LogLevel::Error, &format!("veil: policy rejected: {err}"));
                false
            }
        }
    }

    fn create_http_context(&self, _context_id: u32) -> Option<Box<dyn HttpContext>> {
        Some(Box::new(VeilHttp {
            policy: Rc::clone(&self.policy),
            minter: Rc::clone(&self.minter),
            metrics: Rc::clone(&self.metrics),
            provider: None,
            started: SystemTime::UNIX_EPOCH,
            request_id: String::new(),
            scope: Vec::new(),
            tokens: TokenMap::default(),
            audit: None,
            response: ResponseMode::Pass,
            json_array_stream: false,
        }))
    }

    fn get_type(&self) -> Option<ContextType> {
        Some(ContextType::HttpContext)
    }
}

/// What the response path does.
#[derive(Debug)]
enum ResponseMode {
    Pass,
    BufferJson,
    BufferText,
    /// Restored chunk by chunk as it streams.
    Stream(StreamRestorer),
}

struct VeilHttp {
    policy: Rc<CompiledPolicy>,
    minter: Rc<TokenMinter>,
    metrics: Rc<Metrics>,
    /// `Some` when the request matched a protected route.
    provider: Option<Provider>,
    started: SystemTime,
    request_id: String,
    scope: Vec<u8>,
    tokens: TokenMap,
    audit: Option<AuditEvent>,
    response: ResponseMode,
    /// Gemini `streamGenerateContent` without `alt=sse`: the response is a JSON array
    /// delivered incrementally.
    json_array_stream: bool,
}

impl VeilHttp {
    fn event(&mut self) -> &mut AuditEvent {
        let provider = self.provider.map_or("none", Provider::name);
        let request_id = self.request_id.clone();
        self.audit.get_or_insert_with(|| AuditEvent {
            event: "veil.audit",
            request_id,
            provider,
            outcome: Outcome::Forwarded,
            body: None,
            findings: Default::default(),
            blocked_category: None,
            tokens_issued: 0,
            tokens_restored: 0,
            request_bytes_in: 0,
            request_bytes_out: 0,
            response_status: None,
            duration_ms: 0,
        })
    }

    /// Answers the client with a vendor-shaped error; the request goes no further.
    fn reject(&mut self, status: u16, code: &str, message: &str, outcome: Outcome) -> Action {
        let provider = self.provider.unwrap_or(Provider::Generic);
        let body = provider.error_body(status, code, message);
        self.event().outcome = outcome;
        self.send_http_response(
            u32::from(status),
            vec![("content-type", "application/json"), ("x-veil-error", code)],
            Some(&body),
        );
        Action::Pause
    }

    fn too_large(&mut self) -> Action {
        let max = self.policy.policy.limits.max_body_bytes;
        self.reject(
            413,
            "veil_body_too_large",
            &format!("Request body exceeds the gateway limit of {max} bytes (limits.max_body_bytes)."),
            Outcome::TooLarge,
        )
    }

    /// The filter could not read the body: fail closed (500) or open (forward as is).
    fn failure(&mut self) -> Action {
        match self.policy.policy.failure_mode {
            FailureMode::Closed => self.reject(
                500,
                "veil_internal_error",
                "The gateway could not inspect this request; it was not forwarded.",
                Outcome::Failed,
            ),
            FailureMode::Open => {
                self.event().outcome = Outcome::FailedOpen;
                Action::Continue
            }
        }
    }

    fn scan_request(&mut self, body_size: usize) -> Action {
        let body = match self.get_http_request_body(0, body_size) {
            Some(body) => body,
            None if body_size == 0 => Vec::new(),
            None => return self.failure(),
        };
        let Some(provider) = self.provider else { return Action::Continue };
        let redactor = Redactor { policy: &self.policy, provider, minter: &self.minter, scope: &self.scope };
        let redaction = redactor.redact(&body);
        let monitor = self.policy.policy.mode == crate::policy::Mode::Monitor;
        let event = self.event();
        event.body = Some(redaction.kind.name());
        event.findings = redaction.counts.clone();
        event.request_bytes_in = body.len() as u64;
        event.request_bytes_out = body.len() as u64;
        event.tokens_issued = redaction.tokens.len() as u32;
        for (category, count) in &redaction.counts {
            self.metrics.increment(&format!("findings.{category}"), u64::from(*count));
        }
        match redaction.verdict {
            Verdict::Forward => {
                self.event().outcome =
                    if monitor && !redaction.counts.is_empty() { Outcome::Monitored } else { Outcome::Forwarded };
                Action::Continue
            }
            Verdict::Rewrite(new_body) => {
                self.event().outcome = Outcome::Rewritten;
                self.event().request_bytes_out = new_body.len() as u64;
                self.metrics.increment("tokens_issued", redaction.tokens.len() as u64);
                self.tokens = redaction.tokens;
                self.set_http_request_body(0, body_size, &new_body);
                Action::Continue
            }
            Verdict::Block { category } => {
                self.event().blocked_category = Some(category.clone());
                self.reject(
                    403,
                    "veil_blocked",
                    &format!("Request blocked by the gateway's data policy: it contains {category}."),
                    Outcome::Blocked,
                )
            }
        }
    }
}

impl Context for VeilHttp {}

impl HttpContext for VeilHttp {
    fn on_http_request_headers(&mut self, _num_headers: usize, end_of_stream: bool) -> Action {
        let path = self.get_http_request_header(":path").unwrap_or_default();
        let authority = self.get_http_request_header(":authority").unwrap_or_default();
        self.provider = self.policy.route(&authority, &path).map(|r| r.provider);
        if self.provider.is_none() {
            return Action::Continue;
        }
        self.json_array_stream = path.contains(":streamGenerateContent") && !path.contains("alt=sse");
        self.started = self.get_current_time();
        self.request_id = self.get_http_request_header("x-request-id").unwrap_or_default();
        self.scope = CREDENTIAL_HEADERS
            .iter()
            .find_map(|h| self.get_http_request_header_bytes(h))
            .unwrap_or_default();
        self.metrics.increment("requests", 1);
        self.event();
        // Ask for a body we can read back.
        self.set_http_request_header("accept-encoding", Some("identity"));
        let declared = self
            .get_http_request_header("content-length")
            .and_then(|v| v.trim().parse::<usize>().ok());
        if declared.is_some_and(|len| len > self.policy.policy.limits.max_body_bytes) {
            return self.too_large();
        }
        if !end_of_stream {
            // Proxy-Wasm forwards headers before the body is seen (pausing here would
            // stall the stream), so the length cannot follow a rewrite: drop it, and
            // the body goes upstream chunked (HTTP/1.1) or framed (HTTP/2).
            self.set_http_request_header("content-length", None);
        }
        Action::Continue
    }

    fn on_http_request_body(&mut self, body_size: usize, end_of_stream: bool) -> Action {
        if self.provider.is_none() {
            return Action::Continue;
        }
        if body_size > self.policy.policy.limits.max_body_bytes {
            return self.too_large();
        }
        if !end_of_stream {
            return Action::Pause;
        }
        self.scan_request(body_size)
    }

    fn on_http_response_headers(&mut self, _num_headers: usize, _end_of_stream: bool) -> Action {
        if self.provider.is_none() {
            return Action::Continue;
        }
        let status = self.get_http_response_header(":status").and_then(|s| s.parse::<u16>().ok());
        self.event().response_status = status;
        if self.tokens.is_empty() {
            return Action::Continue;
        }
        let encoded = self
            .get_http_response_header("content-encoding")
            .is_some_and(|e| !e.trim().eq_ignore_ascii_case("identity"));
        if encoded {
            self.metrics.increment("restore_skipped_encoded", 1);
            return Action::Continue;
        }
        let content_type = self.get_http_response_header("content-type").unwrap_or_default().to_ascii_lowercase();
        let provider = self.provider.unwrap_or(Provider::Generic);
        self.response = if content_type.starts_with("text/event-stream") {
            ResponseMode::Stream(StreamRestorer::new(provider, Framing::Sse))
        } else if self.json_array_stream && content_type.contains("json") {
            ResponseMode::Stream(StreamRestorer::new(provider, Framing::JsonArray))
        } else if content_type.contains("json") {
            ResponseMode::BufferJson
        } else if content_type.starts_with("text/plain") {
            ResponseMode::BufferText
        } else {
            ResponseMode::Pass
        };
        if !matches!(self.response, ResponseMode::Pass) {
            self.set_http_response_header("content-length", None);
        }
        Action::Continue
    }

    fn on_http_response_body(&mut self, body_size: usize, end_of_stream: bool) -> Action {
        if matches!(self.response, ResponseMode::Stream(_)) {
            // Restore as it streams: this chunk goes on now, minus at most a held-back
            // token prefix (and an incomplete event), which the next chunk releases.
            let chunk = match self.get_http_response_body(0, body_size) {
                Some(chunk) => chunk,
                None if body_size == 0 => Vec::new(),
                None => return Action::Continue,
            };
            let ResponseMode::Stream(restorer) = &mut self.response else { return Action::Continue };
            let before = restorer.restored;
            let out = restorer.feed(&chunk, end_of_stream, &self.tokens);
            let restored = restorer.restored - before;
            if out != chunk {
                self.set_http_response_body(0, body_size, &out);
            }
            self.metrics.increment("tokens_restored", u64::from(restored));
            self.event().tokens_restored += restored;
            return Action::Continue;
        }
        if matches!(self.response, ResponseMode::Pass) {
            return Action::Continue;
        }
        if !end_of_stream {
            return Action::Pause;
        }
        let Some(body) = self.get_http_response_body(0, body_size) else { return Action::Continue };
        let provider = self.provider.unwrap_or(Provider::Generic);
        let restoration = match self.response {
            ResponseMode::BufferJson => {
                restore_json(provider, &body, &self.tokens).unwrap_or_else(|_| restore_text(&body, &self.tokens))
            }
            _ => restore_text(&body, &self.tokens),
        };
        if let Some(new_body) = restoration.body {
            self.set_http_response_body(0, body_size, &new_body);
        }
        self.metrics.increment("tokens_restored", u64::from(restoration.restored));
        self.event().tokens_restored += restoration.restored;
        Action::Continue
    }

    fn on_log(&mut self) {
        if self.provider.is_none() {
            return;
        }
        let now = self.get_current_time();
        let duration = now.duration_since(self.started).map(|d| d.as_millis() as u64).unwrap_or(0);
        let enabled = self.policy.policy.audit.enabled;
        let event = self.event();
        event.duration_ms = duration;
        let outcome = format!("{:?}", event.outcome).to_ascii_lowercase();
        let line = event.to_line();
        self.metrics.increment(&format!("outcome.{outcome}"), 1);
        if enabled {
            log(LogLevel::Info, &line);
        }
    }
}
