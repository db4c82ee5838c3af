//! Host glue: the only module that names `proxy_wasm`.
//!
//! It reads headers and bodies from Envoy, hands bytes to the pure core
//! ([`crate::redact`], [`crate::restore`], [`crate::stream`], [`crate::verify`]), and
//! carries out the core's decisions: rewrite, forward, or answer with a vendor-shaped
//! error. Every failure maps to the policy's failure mode; nothing here panics or logs
//! request data. By job:
//!
//! - `abi`: the Proxy-Wasm calls, each returning an error instead of aborting the VM;
//! - `root`: the root context (keys, configuration, the vault sweep, the tick);
//! - `shared`: shared data as the vault's store and the verifier's score cache;
//! - `metrics`: counters and audit lines, batched per worker; `timing`: profiling;
//! - `request`, `response`, `verify`: the request path, the response path and claim
//!   verification of one request's state ([`VeilHttp`]), which [`Request`] holds for
//!   the SDK; `model`: the request's wait for the detector model.

use std::cell::RefCell;
use std::rc::{Rc, Weak};
use std::time::{Duration, SystemTime};

use proxy_wasm::traits::{Context, HttpContext};
use proxy_wasm::types::{Action, LogLevel};

use crate::audit::{AuditEvent, Outcome};
use crate::encoding::Coding;
use crate::metrics::Counter;
use crate::policy::{CompiledPolicy, Profile};
use crate::provider::Provider;
use crate::token::{TokenMap, TokenMinter};
use crate::vault::Vault;
use crate::verify::Alarm;

mod abi;
mod api;
mod metrics;
mod model;
mod request;
mod response;
mod root;
mod shared;
mod timing;
mod verify;

use metrics::Metrics;
use response::ResponseMode;
use root::VeilRoot;
use verify::{HostVerify, VerifyEnv};

proxy_wasm::main! {{
    proxy_wasm::set_log_level(LogLevel::Info);
    proxy_wasm::set_root_context(|id| Box::new(VeilRoot::new(id)));
}}

/// The stream property the audit event is written to with `audit.sink: access_log`:
/// Envoy keeps it as the filter state `wasm.veil.audit`.
const AUDIT_PROPERTY: &str = "veil.audit";

fn log(level: LogLevel, message: &str) {
    let _ = abi::log(level, message);
}

/// Envoy's clock, in seconds and milliseconds since the epoch (0 if it cannot be read).
fn now_secs() -> u64 {
    abi::now().ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok()).map_or(0, |d| d.as_secs())
}

fn now_ms() -> u64 {
    abi::now().ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok()).map_or(0, |d| d.as_millis() as u64)
}

/// The root context's alarm: requests whose verification waits out a retry's backoff
/// (`host/verify.rs`), woken by the root's tick.
type RequestAlarm = Rc<RefCell<Alarm<Weak<RefCell<VeilHttp>>>>>;

/// alarm, whose tick wakes a verification that waits out a retry's backoff.
struct Request {
    id: u32,
    http: Rc<RefCell<VeilHttp>>,
    alarm: RequestAlarm,
}

impl Request {
    /// Runs a callback on the state. It is never borrowed already: Proxy-Wasm does not
    /// re-enter the VM (Envoy defers host events raised during a call); if it were,
    /// the callback gets `otherwise`.
    fn with<R>(&self, otherwise: R, f: impl FnOnce(&mut VeilHttp) -> R) -> R {
        match self.http.try_borrow_mut() {
            Ok(mut http) => f(&mut http),
            Err(_) => otherwise,
        }
    }
}

impl Drop for Request {
    /// The request is over, or its client went away: no wake-up or late verifier
    /// answer can find it any more.
    fn drop(&mut self) {
        if let Ok(mut alarm) = self.alarm.try_borrow_mut() {
            alarm.forget(self.id);
        }
    }
}

impl Context for Request {
    fn on_http_call_response(&mut self, token_id: u32, num_headers: usize, body_size: usize, _num_trailers: usize) {
        self.with((), |http| {
            if !http.model_on_call_response(token_id, num_headers, body_size) {
                http.verify_on_call_response(token_id, num_headers, body_size);
            }
        });
    }
}

/// Request callbacks fall back to `Pause` (nothing goes on uninspected), response
/// callbacks to `Continue`.
impl HttpContext for Request {
    fn on_http_request_headers(&mut self, _num_headers: usize, end_of_stream: bool) -> Action {
        timing::span(timing::Slot::RequestHeaders, || {
            self.with(Action::Pause, |http| http.on_request_headers(end_of_stream))
        })
    }

    fn on_http_request_body(&mut self, body_size: usize, end_of_stream: bool) -> Action {
        timing::span(timing::Slot::RequestBody, || {
            self.with(Action::Pause, |http| http.on_request_body(body_size, end_of_stream))
        })
    }

    fn on_http_request_trailers(&mut self, _num_trailers: usize) -> Action {
        timing::span(timing::Slot::RequestBody, || self.with(Action::Pause, |http| http.on_request_trailers()))
    }

    fn on_http_response_headers(&mut self, _num_headers: usize, _end_of_stream: bool) -> Action {
        timing::span(timing::Slot::ResponseHeaders, || self.with(Action::Continue, |http| http.on_response_headers()))
    }

    fn on_http_response_body(&mut self, body_size: usize, end_of_stream: bool) -> Action {
        timing::span(timing::Slot::ResponseBody, || {
            self.with(Action::Continue, |http| http.on_response_body(body_size, end_of_stream))
        })
    }

    fn on_log(&mut self) {
        timing::span(timing::Slot::Log, || self.with((), |http| http.on_log()));
        timing::request_done();
    }
}

/// One request's state; its callbacks run through [`Request`] (or, for a woken
/// verification, the root's tick).
struct VeilHttp {
    /// The HTTP context id (the effective context when the root acts for it).
    id: u32,
    alarm: RequestAlarm,
    policy: Rc<CompiledPolicy>,
    minter: Rc<TokenMinter>,
    /// The cross-request vault; `None` when disabled or when the scope is per request.
    vault: Option<Rc<Vault>>,
    metrics: Rc<Metrics>,
    id_key: Rc<[u8; 32]>,
    /// `Some` when the request goes to a protected destination (the provider adapter
    /// its path names, or the generic walker).
    provider: Option<Provider>,
    /// The policy rule the request matched (`None`: the top-level settings).
    rule: Option<usize>,
    /// The body is forwarded unscanned (`limits.on_oversize: pass`).
    unscanned: bool,
    /// The body has been scanned (at its end of stream or at the trailers).
    scanned: bool,
    /// The policy exempts this request (`exempt`): counted, not audited.
    exempt: bool,
    /// The content codings to undo before scanning (`content-encoding`, removed
    /// upstream: the body goes on decoded).
    codings: Vec<Coding>,
    /// The request's `content-type`, for reading the body.
    content_type: String,
    /// Headers are held (`hold_headers`) with a `content-length` to keep true.
    keep_length: bool,
    started: SystemTime,
    request_id: String,
    scope: Vec<u8>,
    tokens: TokenMap,
    audit: Option<AuditEvent>,
    response: ResponseMode,
    /// Gemini `streamGenerateContent` without `alt=sse`: the response is a JSON array
    /// delivered incrementally.
    json_array_stream: bool,
    verify_env: Rc<VerifyEnv>,
    /// Claim verification of this response (`host/verify.rs`), when the policy asks.
    verify: Option<HostVerify>,
    /// A call to the gateway's own API (`host/api.rs`), answered here.
    api: Option<api::ApiRequest>,
    /// The model stage of this request (`host/model.rs`), once it asked the model.
    model: Option<model::HostModel>,
}

impl VeilHttp {
    /// The settings this request is processed under.
    fn profile(&self) -> &Profile {
        self.policy.profile(self.rule)
    }

    fn event(&mut self) -> &mut AuditEvent {
        let provider = self.provider.map_or("none", Provider::name);
        let request_id = self.request_id.clone();
        let rule = self.policy.rule_name(self.rule).map(str::to_string);
        self.audit.get_or_insert_with(|| AuditEvent {
            event: "veil.audit",
            request_id,
            provider,
            rule,
            outcome: Outcome::Forwarded,
            body: None,
            content_encoding: None,
            unscannable: 0,
            findings: Default::default(),
            blocked_category: None,
            tokens_issued: 0,
            tokens_restored: 0,
            request_bytes_in: 0,
            request_bytes_out: 0,
            response_status: None,
            duration_ms: 0,
            verification: None,
            model: None,
        })
    }

    fn on_log(&mut self) {
        if self.provider.is_none() && self.api.is_none() {
            if self.exempt {
                // Its counter goes out with the worker's next write.
                let now = now_ms();
                let due = self.metrics.settle(None, now);
                if let Some(ms) = due.and_then(|at| self.alarm.try_borrow_mut().ok()?.wake_root_at(at, now)) {
                    let _ = abi::set_tick_period(Duration::from_millis(ms));
                }
            }
            return;
        }
        let now = abi::now().unwrap_or(std::time::UNIX_EPOCH);
        let duration = now.duration_since(self.started).map(|d| d.as_millis() as u64).unwrap_or(0);
        let audit = &self.profile().audit;
        let (enabled, sink) = (audit.enabled, audit.sink);
        let event = self.event();
        event.duration_ms = duration;
        let (line, provider, outcome) = (event.to_line(), event.provider, event.outcome);
        self.metrics.increment(Counter::Requests { provider, outcome }, 1);
        // The access loggers run after `on_log` (tests/e2e/test_observability.py), so
        // the event is final when they read it. If Envoy refuses the property, the
        // event goes to the log instead of nowhere.
        let to_access_log = enabled && sink.access_log();
        let stored = to_access_log
            && timing::span(timing::Slot::LogCall, || abi::set_property(AUDIT_PROPERTY, line.as_bytes())).is_ok();
        let to_log = enabled && (sink.log() || (to_access_log && !stored));
        let now_ms = now.duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis() as u64).unwrap_or(0);
        let due = self.metrics.settle(to_log.then_some(line.as_str()), now_ms);
        // What waits is written by a later request, or by the root's tick at `due`.
        let period = due.and_then(|at| self.alarm.try_borrow_mut().ok()?.wake_root_at(at, now_ms));
        if let Some(ms) = period {
            let _ = abi::set_tick_period(Duration::from_millis(ms));
        }
    }
}

/// A request's or response's headers, read in one host call. Envoy keeps names in
/// lower case; a lookup ignores case, as Envoy's own does.
struct Headers(Vec<(String, Vec<u8>)>);

impl Headers {
    /// The first value of `name`.
    fn get(&self, name: &str) -> Option<&[u8]> {
        self.0.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_slice())
    }

    /// The first value of `name` as text ("" when absent).
    fn text(&self, name: &str) -> String {
        self.get(name).map(|v| String::from_utf8_lossy(v).into_owned()).unwrap_or_default()
    }

    /// Every value of `name`, joined with ", " (RFC 9110 § 5.3: a field repeated is
    /// one list), so that a second line cannot hide what the first one does not say.
    fn joined(&self, name: &str) -> String {
        let values: Vec<String> = self
            .0
            .iter()
            .filter(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| String::from_utf8_lossy(v).into_owned())
            .collect();
        values.join(", ")
    }
}
