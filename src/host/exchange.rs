//! One exchange (a request and its response) as the flow sees it: what it is, where its
//! request and response are, what it holds, and the calls out it waits for. The flows
//! over it are `request.rs`, `response.rs`, `api.rs`, `model.rs` and `verify.rs`.

use std::cell::RefCell;
use std::rc::{Rc, Weak};
use std::time::{Duration, SystemTime};

use super::host::Host;
use super::metrics::Metrics;
use super::state::{ApiRequest, HostModel, HostVerify, ResponseMode, VerifyEnv};
use super::timing;
use crate::audit::{AuditEvent, Outcome};
use crate::encoding::Coding;
use crate::metrics::Counter;
use crate::policy::{CompiledPolicy, Profile};
use crate::provider::{Provider, Route};
use crate::token::{TokenMap, TokenMinter};
use crate::vault::Vault;
use crate::verify::Alarm;

/// The host's clock, in seconds and milliseconds since the epoch (0 if it cannot be read).
pub(crate) fn now_secs(host: &dyn Host) -> u64 {
    host.now().ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok()).map_or(0, |d| d.as_secs())
}

pub(crate) fn now_ms(host: &dyn Host) -> u64 {
    host.now().ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok()).map_or(0, |d| d.as_millis() as u64)
}

/// The worker's alarm: requests whose verification waits out a retry's backoff
/// (`host/verify.rs`), woken by the worker's tick.
pub(crate) type RequestAlarm = Rc<RefCell<Alarm<Weak<RefCell<VeilHttp>>>>>;

/// What an exchange is. Decided once, from the request headers: every callback after
/// them asks this, and nothing else, whether it has anything to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Nothing Veil handles (and every exchange until its request headers are read):
    /// forwarded as it is, neither audited nor counted.
    Passthrough,
    /// Exempt by the policy's `exempt`: forwarded as it is, counted, not audited.
    Exempt,
    /// A call to the gateway's own API (`host/api.rs`), answered here.
    Api(ApiRequest),
    /// To a protected destination (the provider adapter its path names, or the
    /// generic walker): the request is scanned, the response restored.
    Protected { provider: Provider, route: Route, request: RequestPhase },
}

/// Where a protected request's body is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RequestPhase {
    /// Buffered until its end of stream or its trailers.
    Buffering,
    /// Scanned (at its end of stream or at the trailers); the verdict is carried out.
    Scanned,
    /// Forwarded unscanned (`limits.on_oversize: pass`).
    Unscanned,
}

impl Kind {
    /// The adapter of a protected exchange.
    pub(crate) fn provider(self) -> Option<Provider> {
        match self {
            Kind::Protected { provider, .. } => Some(provider),
            _ => None,
        }
    }

    /// What the protected request's path said (nothing for any other exchange).
    pub(crate) fn route(self) -> Route {
        match self {
            Kind::Protected { route, .. } => route,
            _ => Route::default(),
        }
    }

    /// The gateway API call this exchange is.
    pub(crate) fn api(self) -> Option<ApiRequest> {
        match self {
            Kind::Api(call) => Some(call),
            _ => None,
        }
    }

    /// A protected request whose body is still being buffered for its scan.
    pub(crate) fn buffering(self) -> bool {
        matches!(self, Kind::Protected { request: RequestPhase::Buffering, .. })
    }

    /// A protected request's body moves on to `phase`.
    pub(crate) fn set_request(&mut self, phase: RequestPhase) {
        if let Kind::Protected { request, .. } = self {
            *request = phase;
        }
    }
}

/// Who waits for the answer to a call out. Both hosts hand every answer to
/// [`VeilHttp::on_call_response`], which gives it to its owner here, and to no one else.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Callout {
    /// The detector model stage (`host/model.rs`).
    Model,
    /// The verifier, for the session's call of this id (`host/verify.rs`).
    Verify(u32),
}

/// One request's state; its callbacks run through [`Request`] (or, for a woken
/// verification, the root's tick).
pub(crate) struct VeilHttp {
    /// The host this request runs in.
    pub(crate) host: Box<dyn Host>,
    /// The HTTP context id (the effective context when the root acts for it).
    pub(crate) id: u32,
    pub(crate) alarm: RequestAlarm,
    pub(crate) policy: Rc<CompiledPolicy>,
    pub(crate) minter: Rc<TokenMinter>,
    /// The cross-request vault; `None` when disabled or when the scope is per request.
    pub(crate) vault: Option<Rc<Vault>>,
    pub(crate) metrics: Rc<Metrics>,
    pub(crate) id_key: Rc<[u8; 32]>,
    /// What the exchange is, and where its request is (see [`Kind`]).
    pub(crate) kind: Kind,
    /// The policy rule the request matched (`None`: the top-level settings).
    pub(crate) rule: Option<usize>,
    /// The content codings to undo before scanning (`content-encoding`, removed
    /// upstream: the body goes on decoded).
    pub(crate) codings: Vec<Coding>,
    /// The request's `content-type`, for reading the body.
    pub(crate) content_type: String,
    /// Headers are held (`hold_headers`) with a `content-length` to keep true.
    pub(crate) keep_length: bool,
    pub(crate) started: SystemTime,
    pub(crate) request_id: String,
    pub(crate) scope: Vec<u8>,
    pub(crate) tokens: TokenMap,
    pub(crate) audit: Option<AuditEvent>,
    pub(crate) response: ResponseMode,
    pub(crate) verify_env: Rc<VerifyEnv>,
    /// Claim verification of this response (`host/verify.rs`), when the policy asks.
    pub(crate) verify: Option<HostVerify>,
    /// The model stage of this request (`host/model.rs`), once it asked the model.
    pub(crate) model: Option<HostModel>,
    /// The calls out this exchange waits for, by the host's call token.
    pub(crate) callouts: Vec<(u32, Callout)>,
}

impl VeilHttp {
    /// The settings this request is processed under.
    pub(crate) fn profile(&self) -> &Profile {
        self.policy.profile(self.rule)
    }

    pub(crate) fn event(&mut self) -> &mut AuditEvent {
        let provider = self.kind.provider().map_or("none", Provider::name);
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
        if matches!(self.kind, Kind::Passthrough | Kind::Exempt) {
            if self.kind == Kind::Exempt {
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

    /// A call out went out with `token`; its answer goes to `owner`.
    pub(crate) fn expect(&mut self, token: u32, owner: Callout) {
        self.callouts.push((token, owner));
    }

    /// A dispatched call came back: to its owner in the table, the model stage or the
    /// verifier. Both hosts hand every answer here.
    pub(crate) fn on_call_response(&mut self, token: u32, num_headers: usize, body_size: usize) {
        if let Ok(mut alarm) = self.alarm.try_borrow_mut() {
            alarm.answered(token);
        }
        let Some(at) = self.callouts.iter().position(|(t, _)| *t == token) else { return };
        match self.callouts.swap_remove(at).1 {
            Callout::Model => self.model_on_call_response(num_headers, body_size),
            Callout::Verify(id) => self.verify_on_call_response(id, num_headers, body_size),
        }
    }

    /// What waits (lines, increments) is written by a later request, or by the worker's
    /// tick at `due`; a host without a timer writes it now.
    pub(crate) fn wake_worker(&self, due: Option<u64>, now: u64) {
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
pub(crate) struct Headers(pub(crate) Vec<(String, Vec<u8>)>);

impl Headers {
    /// The first value of `name`.
    pub(crate) fn get(&self, name: &str) -> Option<&[u8]> {
        self.0.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_slice())
    }

    /// The first value of `name` as text ("" when absent).
    pub(crate) fn text(&self, name: &str) -> String {
        self.get(name).map(|v| String::from_utf8_lossy(v).into_owned()).unwrap_or_default()
    }

    /// Every value of `name`, joined with ", " (RFC 9110 § 5.3: a field repeated is
    /// one list), so that a second line cannot hide what the first one does not say.
    pub(crate) fn joined(&self, name: &str) -> String {
        let values: Vec<String> = self
            .0
            .iter()
            .filter(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| String::from_utf8_lossy(v).into_owned())
            .collect();
        values.join(", ")
    }
}
