//! Host glue: the request and response flow over a [`Host`], and the two hosts that
//! run it.
//!
//! The flow reads headers and bodies from the host, hands bytes to the pure core
//! ([`crate::redact`], [`crate::restore`], [`crate::stream`], [`crate::verify`]), and
//! carries out the core's decisions: rewrite, forward, or answer with a vendor-shaped
//! error. Every failure maps to the policy's failure mode; nothing here panics or logs
//! request data. By job:
//!
//! - `env`: the [`Host`] trait, every call the flow makes to its proxy;
//! - `wasm` (wasm32 only): the Proxy-Wasm host — its ABI calls (`wasm/abi.rs`), the
//!   root context, shared data as the store; `veil.wasm`;
//! - `native` (feature `native`): the Envoy dynamic-modules host — its binding
//!   (`native/abi.rs`), the per-worker state, a process-wide store; `libveil.so`;
//! - `worker`: what a worker holds per configuration (policy, keys, vault, metrics) and
//!   how it makes each request's state, for both hosts;
//! - `metrics`: counters and audit lines, batched per worker; `timing`: profiling;
//! - `request`, `response`, `verify`, `api`: the request path, the response path,
//!   claim verification and the gateway's own API, over one request's state
//!   ([`VeilHttp`]); `model`: the request's wait for the detector model.

use std::cell::RefCell;
use std::rc::{Rc, Weak};
use std::time::{Duration, SystemTime};

use crate::audit::{AuditEvent, Outcome};
use crate::encoding::Coding;
use crate::metrics::Counter;
use crate::policy::{CompiledPolicy, Profile};
use crate::provider::Provider;
use crate::token::{TokenMap, TokenMinter};
use crate::vault::Vault;
use crate::verify::Alarm;

mod api;
pub(crate) mod env;
mod metrics;
mod model;
mod request;
mod response;
mod timing;
mod verify;
pub(crate) mod worker;

#[cfg(feature = "native")]
mod native;
#[cfg(target_family = "wasm")]
mod wasm;

pub(crate) use env::{Action, Buffer, Host, Level, Map};
use metrics::Metrics;
use response::ResponseMode;
use verify::{HostVerify, VerifyEnv};

/// The host's clock, in seconds and milliseconds since the epoch (0 if it cannot be read).
fn now_secs(host: &dyn Host) -> u64 {
    host.now().ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok()).map_or(0, |d| d.as_secs())
}

fn now_ms(host: &dyn Host) -> u64 {
    host.now().ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok()).map_or(0, |d| d.as_millis() as u64)
}

/// The worker's alarm: requests whose verification waits out a retry's backoff
/// (`host/verify.rs`), woken by the worker's tick.
type RequestAlarm = Rc<RefCell<Alarm<Weak<RefCell<VeilHttp>>>>>;

/// One request's state; its callbacks run through [`Request`] (or, for a woken
/// verification, the root's tick).
pub(crate) struct VeilHttp {
    /// The host this request runs in.
    host: Box<dyn Host>,
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
    /// The request carries a file's bytes (a Gemini resumable upload's chunk): read by
    /// its content, whatever its label ([`crate::redact::Redactor::redact_file_with`]).
    file_upload: bool,
    /// The request downloads a stored file (`…/files/{id}/content`): a JSON Lines or
    /// text answer is restored like any.
    file_download: bool,
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

    pub(crate) fn on_log(&mut self) {
        if self.provider.is_none() && self.api.is_none() {
            if self.exempt {
                // Its counter goes out with the worker's next write.
                let now = now_ms(&*self.host);
                let due = self.metrics.settle(&*self.host, None, now);
                self.wake_worker(due, now);
            }
            return;
        }
        let now = self.host.now().unwrap_or(std::time::UNIX_EPOCH);
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
        let stored =
            to_access_log && timing::span(timing::Slot::LogCall, || self.host.set_audit(line.as_bytes())).is_ok();
        let to_log = enabled && (sink.log() || (to_access_log && !stored));
        let now_ms = now.duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis() as u64).unwrap_or(0);
        let due = self.metrics.settle(&*self.host, to_log.then_some(line.as_str()), now_ms);
        self.wake_worker(due, now_ms);
    }

    /// What waits (lines, increments) is written by a later request, or by the worker's
    /// tick at `due`; a host without a timer writes it now.
    fn wake_worker(&self, due: Option<u64>, now: u64) {
        let Some(at) = due else { return };
        if !self.host.has_timer() {
            self.metrics.flush(&*self.host, now);
            return;
        }
        if let Some(ms) = self.alarm.try_borrow_mut().ok().and_then(|mut a| a.wake_root_at(at, now)) {
            self.host.set_tick(Duration::from_millis(ms));
        }
    }
}

/// A request's or response's headers, read in one host call. Envoy keeps names in
/// lower case; a lookup ignores case, as Envoy's own does.
pub(crate) struct Headers(Vec<(String, Vec<u8>)>);

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
