//! Host glue: the only module that names `proxy_wasm`.
//!
//! It reads headers and bodies from Envoy, hands bytes to the pure core
//! ([`crate::redact`], [`crate::restore`]), and carries out the core's decisions:
//! rewrite, forward, or answer with a vendor-shaped error. Every failure maps to the
//! policy's failure mode; nothing here panics or logs request data.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::{Rc, Weak};
use std::time::{Duration, SystemTime};

use proxy_wasm::hostcalls;
use proxy_wasm::traits::{Context, HttpContext, RootContext};
use proxy_wasm::types::{Action, ContextType, LogLevel, MetricType};

use crate::audit::{AuditEvent, Outbox, Outcome};
use crate::encoding::Coding;
use crate::metrics::Counter;
use crate::policy::ScopeKind;
use crate::policy::{normalize_path, CompiledPolicy, FailureMode, OnOversize, RequestInfo};
use crate::provider::Provider;
use crate::redact::{Redactor, Refusal, Verdict};
use crate::restore::{restore_json, restore_text};
use crate::stream::{Framing, ResponseStream};
use crate::token::{id_hex_len_for, Lookup, TokenMap, TokenMinter, ID_HEX_LEN};
use crate::vault::{derive, CasMismatch, Store, Vault, VaultConfig};
use crate::verify::Alarm;
use std::borrow::Cow;

mod verify;
use verify::{HostVerify, VerifyEnv};

proxy_wasm::main! {{
    proxy_wasm::set_log_level(LogLevel::Info);
    proxy_wasm::set_root_context(|id| Box::new(VeilRoot::new(id)));
}}

/// Environment variable (set through `vm_config.environment_variables`) holding the
/// 32-byte vault key as 64 hex digits. Token ids and the vault's sealing key derive
/// from it, so it never travels in the policy.
const KEY_ENV: &str = "VEIL_VAULT_KEY";

/// Headers whose value identifies the API credential: the token scope (see `token`),
/// wherever the vendors read it (OpenAI and Anthropic, Anthropic, Gemini, Azure OpenAI);
/// Gemini's `key` query parameter after them. Only fed into the HMAC, never stored or
/// logged.
const CREDENTIAL_HEADERS: &[&str] = &["authorization", "x-api-key", "x-goog-api-key", "api-key"];

fn log(level: LogLevel, message: &str) {
    let _ = hostcalls::log(level, message);
}

/// Counters exported as Envoy stats (`wasmcustom.veil.*`; labels are categories and
/// outcomes only) and the audit lines, written to Envoy together: at once when the
/// worker wrote nothing for `audit::FLUSH_MS`, else at most that much later, by a
/// later request or the root's tick (`audit::Outbox`).
struct Metrics {
    ids: RefCell<HashMap<String, u32>>,
    /// Increments not yet given to Envoy, by metric id.
    pending: RefCell<Vec<(u32, u64)>>,
    outbox: RefCell<Outbox>,
}

impl Metrics {
    fn new() -> Metrics {
        Metrics {
            ids: RefCell::new(HashMap::new()),
            pending: RefCell::new(Vec::new()),
            outbox: RefCell::new(Outbox::default()),
        }
    }

    fn increment(&self, counter: Counter<'_>, by: u64) {
        if by == 0 {
            return;
        }
        let name = counter.name();
        let name = name.as_ref();
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
        let Some(id) = id else { return };
        let mut pending = self.pending.borrow_mut();
        match pending.iter_mut().find(|(i, _)| *i == id) {
            Some((_, n)) => *n = n.saturating_add(by),
            None => pending.push((id, by)),
        }
    }

    /// A request is done (its audit line, if any, is `line`): writes what waits if it
    /// is due. Returns when the rest is due, for the root's tick.
    fn settle(&self, line: Option<&str>, now: u64) -> Option<u64> {
        let due = {
            let Ok(mut outbox) = self.outbox.try_borrow_mut() else { return None };
            match line {
                Some(line) => outbox.push(line, now),
                None => outbox.touch(now),
            }
        };
        if due {
            self.flush(now);
            return None;
        }
        self.outbox.try_borrow().ok().and_then(|o| o.due_at())
    }

    /// Writes every waiting line (one log call) and increment.
    fn flush(&self, now: u64) {
        let lines = match self.outbox.try_borrow_mut() {
            Ok(mut outbox) => outbox.take(now),
            Err(_) => return,
        };
        if !lines.is_empty() {
            timing::span(timing::Slot::LogCall, || log(LogLevel::Info, &lines));
        }
        for (id, by) in self.pending.borrow_mut().drain(..) {
            let _ = hostcalls::increment_metric(id, i64::try_from(by).unwrap_or(i64::MAX));
        }
    }

    /// When what waits is due, if anything waits.
    fn due_at(&self) -> Option<u64> {
        self.outbox.try_borrow().ok().and_then(|o| o.due_at())
    }

    /// Whether lines or increments wait.
    fn waiting(&self) -> bool {
        self.due_at().is_some() || self.pending.try_borrow().is_ok_and(|p| !p.is_empty())
    }
}

/// The root context's alarm: requests whose verification waits out a retry's backoff
/// (`host/verify.rs`), woken by the root's tick.
type RequestAlarm = Rc<RefCell<Alarm<Weak<RefCell<VeilHttp>>>>>;

struct VeilRoot {
    id: u32,
    policy: Rc<CompiledPolicy>,
    minter: Rc<TokenMinter>,
    vault: Option<Rc<Vault>>,
    vault_key: Option<[u8; 32]>,
    /// Keys the audit line's hash of a client-chosen request id.
    id_key: Rc<[u8; 32]>,
    metrics: Rc<Metrics>,
    verify_env: Rc<VerifyEnv>,
    alarm: RequestAlarm,
    /// When the vault is swept next (ms).
    next_sweep_ms: u64,
}

impl VeilRoot {
    fn new(id: u32) -> VeilRoot {
        VeilRoot {
            id,
            policy: Rc::new(default_policy()),
            // Replaced in on_configure, once the vault key is known.
            minter: Rc::new(TokenMinter::new([0; 32])),
            vault: None,
            vault_key: None,
            id_key: Rc::new([0; 32]),
            metrics: Rc::new(Metrics::new()),
            verify_env: Rc::new(VerifyEnv::new(std::iter::empty(), &[0; 32])),
            alarm: Rc::default(),
            next_sweep_ms: 0,
        }
    }

    /// Sets the tick for the earliest of: the next sweep, the earliest wake-up.
    fn rearm(&mut self, now: u64) {
        // A wall clock that went back must not postpone the sweep.
        if self.next_sweep_ms > now + SWEEP_PERIOD_MS {
            self.next_sweep_ms = now;
        }
        let next = self.metrics.due_at().map_or(self.next_sweep_ms, |at| at.min(self.next_sweep_ms));
        let Ok(mut alarm) = self.alarm.try_borrow_mut() else { return };
        let period = alarm.rearm(now, next);
        drop(alarm);
        self.set_tick_period(Duration::from_millis(period));
    }

    /// Sweeps the next batch of vault slots (claimed with CAS, so one worker sweeps it).
    fn sweep(&self) {
        let Some(vault) = self.vault.clone() else { return };
        let slots = vault.config().slots();
        // Sweep every slot about once per TTL/8 (at least 64 per tick).
        let ticks_per_round = (vault.config().ttl_secs / 8 / SWEEP_PERIOD_SECS).max(1) as usize;
        let batch = slots.div_ceil(ticks_per_round).max(64).min(slots);
        let (cursor, cas) = match SharedStore.get(SWEEP_CURSOR) {
            Some((bytes, cas)) => {
                (std::str::from_utf8(&bytes).ok().and_then(|t| t.parse::<usize>().ok()).unwrap_or(0), cas)
            }
            None => (0, 0),
        };
        let next = (cursor + batch) % slots;
        if SharedStore.set(SWEEP_CURSOR, next.to_string().as_bytes(), Some(cas)).is_err() {
            return; // another worker took this range
        }
        let report = vault.sweep(&SharedStore, cursor, batch, now_secs(self));
        self.metrics.increment(Counter::VaultExpired, u64::from(report.expired));
    }

    /// Wakes the requests whose verifier retry is due: each one's work is done as that
    /// request (effective context), so its calls, body and resume are its own.
    fn wake_requests(&self, now: u64) {
        let due = self.alarm.try_borrow_mut().map(|mut a| a.take_due(now)).unwrap_or_default();
        for (id, request) in due {
            self.as_request(id, &request, VeilHttp::verify_wake);
        }
    }

    /// Runs `f` on a request's state with the request as the effective context, then
    /// switches back. Nothing runs when the request is gone.
    fn as_request(&self, id: u32, request: &Weak<RefCell<VeilHttp>>, f: impl FnOnce(&mut VeilHttp)) {
        let Some(request) = request.upgrade() else { return };
        if hostcalls::set_effective_context(id).is_err() {
            return;
        }
        if let Ok(mut http) = request.try_borrow_mut() {
            f(&mut http);
        }
        let _ = hostcalls::set_effective_context(self.id);
    }

    /// The vault key: from `VEIL_VAULT_KEY`, else the one another worker already put
    /// in shared data, else a new random one (shared with the other workers).
    fn vault_key(&mut self) -> [u8; 32] {
        if let Some(key) = self.vault_key {
            return key;
        }
        let mut key = [0u8; 32];
        let from_env = std::env::var(KEY_ENV).ok().is_some_and(|hex| parse_hex_key(hex.trim(), &mut key));
        if !from_env {
            if std::env::var(KEY_ENV).is_ok() {
                log(LogLevel::Error, "veil: VEIL_VAULT_KEY is not 64 hex digits; ignoring it");
            }
            key = shared_random_key();
            log(
                LogLevel::Warn,
                "veil: VEIL_VAULT_KEY is not set; using a random key shared by this Envoy's workers: \
                 tokens will change and the vault will not survive a restart",
            );
        }
        self.vault_key = Some(key);
        key
    }
}

fn default_policy() -> CompiledPolicy {
    match CompiledPolicy::new(crate::policy::Policy::default()) {
        Ok(p) => p,
        // The default policy is covered by unit tests; this cannot fail.
        Err(_) => std::process::abort(),
    }
}

const SHARED_KEY: &str = "veil/v1/key";

fn shared_random_key() -> [u8; 32] {
    let mut key = [0u8; 32];
    if let Ok((Some(stored), _)) = hostcalls::get_shared_data(SHARED_KEY) {
        if stored.len() == 32 {
            key.copy_from_slice(&stored);
            return key;
        }
    }
    if getrandom::getrandom(&mut key).is_err() {
        log(LogLevel::Critical, "veil: no randomness for the vault key");
        std::process::abort();
    }
    let _ = hostcalls::set_shared_data(SHARED_KEY, Some(&key), None);
    // Another worker may have won the race: use whatever is stored now.
    if let Ok((Some(stored), _)) = hostcalls::get_shared_data(SHARED_KEY) {
        if stored.len() == 32 {
            key.copy_from_slice(&stored);
        }
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

/// Envoy shared data as the vault's store.
struct SharedStore;

impl Store for SharedStore {
    fn get(&self, key: &str) -> Option<(Vec<u8>, u32)> {
        match hostcalls::get_shared_data(key) {
            Ok((Some(value), cas)) => Some((value, cas.unwrap_or(0))),
            _ => None,
        }
    }

    fn set(&self, key: &str, value: &[u8], cas: Option<u32>) -> Result<(), CasMismatch> {
        hostcalls::set_shared_data(key, Some(value), cas.filter(|&c| c != 0)).map_err(|_| CasMismatch)
    }
}

/// Creates every slot that does not exist yet, so that all vault writes can use
/// compare-and-swap (Envoy cannot create a key only if it is absent).
fn ensure_slots(vault: &Vault) {
    let marker = format!("veil/v1/slots/{}", vault.config().slots());
    if SharedStore.get(&marker).is_some() {
        return;
    }
    for slot in 0..vault.config().slots() {
        let key = Vault::slot_key(slot);
        if SharedStore.get(&key).is_none() {
            let _ = SharedStore.set(&key, &[], None);
        }
    }
    let _ = SharedStore.set(&marker, b"1", None);
}

fn now_secs(ctx: &dyn Context) -> u64 {
    ctx.get_current_time().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0)
}

/// Whole response bodies declared larger than this (Envoy's default per-connection
/// buffer limit) are not buffered for restoration.
const MAX_RESTORED_RESPONSE_BYTES: usize = 1024 * 1024;

/// The sweep cursor: which slot the next sweep starts at, claimed with CAS so that
/// each range is swept by one worker.
const SWEEP_CURSOR: &str = "veil/v1/sweep";
const SWEEP_PERIOD_SECS: u64 = 10;
const SWEEP_PERIOD_MS: u64 = SWEEP_PERIOD_SECS * 1000;

fn now_ms(ctx: &dyn Context) -> u64 {
    ctx.get_current_time().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis() as u64).unwrap_or(0)
}

impl Context for VeilRoot {
    /// A verifier call dispatched during a tick: Proxy-Wasm brings its answer to the
    /// context that was active then, the root. It goes on to its request.
    fn on_http_call_response(&mut self, token_id: u32, num_headers: usize, body_size: usize, num_trailers: usize) {
        let owner = self.alarm.try_borrow_mut().ok().and_then(|mut a| a.answered(token_id));
        if let Some((id, request)) = owner {
            self.as_request(id, &request, |http| {
                http.on_http_call_response(token_id, num_headers, body_size, num_trailers)
            });
        }
    }

    /// The plugin is going away (a new policy, or Envoy stopping): nothing may stay
    /// unwritten.
    fn on_done(&mut self) -> bool {
        self.metrics.flush(now_ms(self));
        true
    }
}

impl RootContext for VeilRoot {
    fn on_configure(&mut self, _size: usize) -> bool {
        let config = self.get_plugin_configuration().unwrap_or_default();
        let policy = match CompiledPolicy::from_json(&config) {
            Ok(policy) => policy,
            Err(err) => {
                // The error names fields and rule ids only (PolicyError's contract).
                log(LogLevel::Error, &format!("veil: policy rejected: {err}"));
                return false;
            }
        };
        let key = self.vault_key();
        let v = &policy.policy.vault;
        // With per-request scope nothing crosses requests: no vault to keep.
        let shared = v.enabled && v.scope != ScopeKind::Request;
        let auto = if shared { id_hex_len_for(v.max_entries) } else { ID_HEX_LEN };
        let id_len = policy.policy.tokens.id_length.unwrap_or(auto);
        self.minter = Rc::new(TokenMinter::new(derive(&key, "veil/v1/token")).with_id_len(id_len));
        self.id_key = Rc::new(derive(&key, "veil/v1/request-id"));
        self.vault = shared.then(|| {
            let config = VaultConfig { ttl_secs: v.ttl_seconds, max_entries: v.max_entries, max_bytes: v.max_bytes };
            let vault = Vault::new(&key, config);
            ensure_slots(&vault);
            Rc::new(vault)
        });
        let verification = policy.profiles().map(|p| &p.policy.verification);
        self.verify_env = Rc::new(VerifyEnv::new(verification, &key));
        if let Ok(mut outbox) = self.metrics.outbox.try_borrow_mut() {
            outbox.set_flush_ms(policy.policy.audit.flush_ms);
        }
        self.policy = Rc::new(policy);
        let now = now_ms(self);
        self.next_sweep_ms = now + SWEEP_PERIOD_MS;
        self.rearm(now);
        log(LogLevel::Info, "veil: policy loaded");
        true
    }

    /// The tick comes at the next sweep or at the earliest verifier retry, whichever is
    /// sooner (`rearm`), so retries do not change the sweep's cadence.
    fn on_tick(&mut self) {
        let now = now_ms(self);
        self.wake_requests(now);
        if now >= self.next_sweep_ms {
            self.next_sweep_ms = now + SWEEP_PERIOD_MS;
            self.sweep();
        }
        // Lines or increments of requests, or the sweep's own.
        if self.metrics.waiting() {
            self.metrics.flush(now);
        }
        self.rearm(now);
    }

    fn create_http_context(&self, context_id: u32) -> Option<Box<dyn HttpContext>> {
        let http = Rc::new(RefCell::new(VeilHttp {
            id: context_id,
            alarm: Rc::clone(&self.alarm),
            policy: Rc::clone(&self.policy),
            minter: Rc::clone(&self.minter),
            vault: self.vault.clone(),
            metrics: Rc::clone(&self.metrics),
            id_key: Rc::clone(&self.id_key),
            provider: None,
            rule: None,
            unscanned: false,
            scanned: false,
            exempt: false,
            codings: Vec::new(),
            content_type: String::new(),
            keep_length: false,
            started: SystemTime::UNIX_EPOCH,
            request_id: String::new(),
            scope: Vec::new(),
            tokens: TokenMap::default(),
            audit: None,
            response: ResponseMode::Pass,
            json_array_stream: false,
            verify_env: Rc::clone(&self.verify_env),
            verify: None,
        }));
        self.alarm.borrow_mut().add(context_id, Rc::downgrade(&http));
        Some(Box::new(Request { id: context_id, http, alarm: Rc::clone(&self.alarm) }))
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
    /// Restored chunk by chunk as it streams (and tapped, when its answer is verified).
    Stream(ResponseStream),
}

/// What the SDK holds for a request. The request's state is shared with the root's
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
    fn on_http_call_response(&mut self, token_id: u32, num_headers: usize, body_size: usize, num_trailers: usize) {
        self.with((), |http| http.on_http_call_response(token_id, num_headers, body_size, num_trailers));
    }
}

/// Request callbacks fall back to `Pause` (nothing goes on uninspected), response
/// callbacks to `Continue`.
impl HttpContext for Request {
    fn on_http_request_headers(&mut self, num_headers: usize, end_of_stream: bool) -> Action {
        timing::span(timing::Slot::RequestHeaders, || {
            self.with(Action::Pause, |http| http.on_http_request_headers(num_headers, end_of_stream))
        })
    }

    fn on_http_request_body(&mut self, body_size: usize, end_of_stream: bool) -> Action {
        timing::span(timing::Slot::RequestBody, || {
            self.with(Action::Pause, |http| http.on_http_request_body(body_size, end_of_stream))
        })
    }

    fn on_http_request_trailers(&mut self, num_trailers: usize) -> Action {
        timing::span(timing::Slot::RequestBody, || {
            self.with(Action::Pause, |http| http.on_http_request_trailers(num_trailers))
        })
    }

    fn on_http_response_headers(&mut self, num_headers: usize, end_of_stream: bool) -> Action {
        timing::span(timing::Slot::ResponseHeaders, || {
            self.with(Action::Continue, |http| http.on_http_response_headers(num_headers, end_of_stream))
        })
    }

    fn on_http_response_body(&mut self, body_size: usize, end_of_stream: bool) -> Action {
        timing::span(timing::Slot::ResponseBody, || {
            self.with(Action::Continue, |http| http.on_http_response_body(body_size, end_of_stream))
        })
    }

    fn on_log(&mut self) {
        timing::span(timing::Slot::Log, || self.with((), |http| http.on_log()));
        timing::request_done();
    }
}

/// With the `timing` feature: wall time inside each callback (and inside the
/// redaction and the audit log call), averaged per request and logged every 1000
/// requests. Durations only. Without the feature every call here is a no-op.
mod timing {
    #[derive(Clone, Copy)]
    pub(super) enum Slot {
        RequestHeaders,
        RequestBody,
        Redact,
        ResponseHeaders,
        ResponseBody,
        Log,
        LogCall,
    }

    #[cfg(feature = "timing")]
    const NAMES: [&str; 7] =
        ["request_headers", "request_body", "(redact)", "response_headers", "response_body", "on_log", "(log call)"];

    #[cfg(feature = "timing")]
    thread_local! {
        static TOTALS: std::cell::RefCell<([u64; 7], u64)> = const { std::cell::RefCell::new(([0; 7], 0)) };
    }

    #[cfg(feature = "timing")]
    fn now_ns() -> u64 {
        proxy_wasm::hostcalls::get_current_time()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |d| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX))
    }

    #[cfg(feature = "timing")]
    pub(super) fn span<R>(slot: Slot, f: impl FnOnce() -> R) -> R {
        let start = now_ns();
        let r = f();
        let spent = now_ns().saturating_sub(start);
        TOTALS.with(|t| {
            if let Some(total) = t.borrow_mut().0.get_mut(slot as usize) {
                *total += spent;
            }
        });
        r
    }

    #[cfg(feature = "timing")]
    pub(super) fn request_done() {
        TOTALS.with(|t| {
            let mut t = t.borrow_mut();
            t.1 += 1;
            if t.1 >= 1000 {
                let mut line = format!("veil timing: {} requests, wall time inside the filter per request:", t.1);
                for (name, total) in NAMES.iter().zip(t.0) {
                    line.push_str(&format!(" {name}={:.1}us", total as f64 / 1000.0 / t.1 as f64));
                }
                let _ = proxy_wasm::hostcalls::log(proxy_wasm::types::LogLevel::Warn, &line);
                *t = ([0; 7], 0);
            }
        });
    }

    #[cfg(not(feature = "timing"))]
    #[inline(always)]
    pub(super) fn span<R>(_slot: Slot, f: impl FnOnce() -> R) -> R {
        f()
    }

    #[cfg(not(feature = "timing"))]
    #[inline(always)]
    pub(super) fn request_done() {}
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
}

impl VeilHttp {
    /// The settings this request is processed under.
    fn profile(&self) -> &CompiledPolicy {
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
        let limits = &self.profile().policy.limits;
        // A compressed body's coding is already gone from the headers: it cannot go on
        // as it came, so `on_oversize: pass` does not apply to it.
        if limits.on_oversize == OnOversize::Pass && self.codings.is_empty() {
            // Explicitly configured fail-open for big bodies: forwarded unscanned.
            self.event().outcome = Outcome::OversizePassed;
            self.metrics.increment(Counter::OversizePassed, 1);
            self.unscanned = true;
            return Action::Continue;
        }
        self.refuse(Refusal::TooLarge)
    }

    /// Answers with the refusal's vendor-shaped error; nothing is forwarded.
    fn refuse(&mut self, refusal: Refusal) -> Action {
        let limit = self.profile().policy.limits.max_body_bytes;
        self.metrics.increment(Counter::Refused(refusal.code()), 1);
        self.reject(refusal.status(), refusal.code(), &refusal.message(limit), Outcome::of(refusal))
    }

    /// The filter could not read the body: fail closed (500) or open (forward as is).
    fn failure(&mut self) -> Action {
        match self.profile().policy.failure_mode {
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
        self.scanned = true;
        let wire = match self.get_http_request_body(0, body_size) {
            Some(body) => body,
            None if body_size == 0 => Vec::new(),
            None => return self.failure(),
        };
        self.scan_body(wire)
    }

    /// Scans the whole buffered body `wire` (as it came: compressed, if it was) and
    /// carries out the verdict.
    fn scan_body(&mut self, wire: Vec<u8>) -> Action {
        self.scanned = true;
        let wire_len = wire.len();
        let limit = self.profile().policy.limits.max_body_bytes;
        let body = if self.codings.is_empty() {
            wire
        } else {
            let names: Vec<&str> = self.codings.iter().map(|c| c.name()).collect();
            self.event().content_encoding = Some(names.join(", "));
            match crate::encoding::decode(&wire, &self.codings, limit) {
                Ok(decoded) => decoded,
                Err(crate::encoding::DecodeError::TooLarge) => return self.too_large(),
                Err(crate::encoding::DecodeError::Corrupt) => return self.refuse(Refusal::InvalidEncoding),
                Err(crate::encoding::DecodeError::Unsupported) => return self.refuse(Refusal::UnsupportedEncoding),
            }
        };
        let decoded = !self.codings.is_empty();
        let Some(provider) = self.provider else { return Action::Continue };
        let now = now_secs(self);
        let vault = self.vault.clone();
        let scope = self.scope.clone();
        // Tokens already in the vault with the same value and more than half their
        // lifetime left need no write after this request.
        let fresh: RefCell<Vec<String>> = RefCell::new(Vec::new());
        let taken = |token: &str, value: &[u8]| {
            let Some(v) = vault.as_deref() else { return false };
            let check = v.check(&SharedStore, &scope, token, value, now);
            if check.fresh {
                fresh.borrow_mut().push(token.to_string());
            }
            check.taken
        };
        let redactor = Redactor {
            policy: self.policy.profile(self.rule),
            provider,
            minter: &self.minter,
            scope: &self.scope,
            taken: &taken,
        };
        let content_type = std::mem::take(&mut self.content_type);
        let redaction = timing::span(timing::Slot::Redact, || redactor.redact_typed(&body, &content_type));
        let monitor = self.profile().policy.mode == crate::policy::Mode::Monitor;
        let event = self.event();
        event.body = Some(redaction.kind.name());
        event.findings = redaction.counts.clone();
        event.request_bytes_in = wire_len as u64;
        event.request_bytes_out = body.len() as u64;
        event.tokens_issued = redaction.tokens.len() as u32;
        event.unscannable = redaction.unscannable;
        self.metrics.increment(Counter::ScanRemembered, redaction.remembered as u64);
        self.metrics.increment(Counter::Unscannable, u64::from(redaction.unscannable));
        for (category, count) in &redaction.counts {
            self.metrics.increment(Counter::Findings(category), u64::from(*count));
        }
        let unscannable = redaction.unscannable > 0;
        match redaction.verdict {
            Verdict::Forward => {
                self.event().outcome = if monitor && !redaction.counts.is_empty() {
                    Outcome::Monitored
                } else if unscannable {
                    Outcome::UnscannablePassed
                } else {
                    Outcome::Forwarded
                };
                if decoded {
                    // The codings were removed from the headers: the body goes on decoded.
                    self.replace_request_body(wire_len, &body);
                }
                Action::Continue
            }
            Verdict::Rewrite(new_body) => {
                // Rewritten says more than that a part could not be read (`unscannable`
                // in the line says that).
                self.event().outcome = Outcome::Rewritten;
                self.event().request_bytes_out = new_body.len() as u64;
                self.metrics.increment(Counter::TokensIssued, redaction.tokens.len() as u64);
                self.tokens = redaction.tokens;
                self.remember_tokens(&fresh.borrow(), now);
                self.replace_request_body(wire_len, &new_body);
                Action::Continue
            }
            Verdict::Refuse(refusal) => self.refuse(refusal),
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

/// Restores from this request's tokens first, then from the vault (same scope only).
struct ScopedLookup<'a> {
    tokens: &'a TokenMap,
    vault: Option<&'a Vault>,
    scope: &'a [u8],
    now: u64,
    hits: std::cell::Cell<u32>,
}

impl<'a> ScopedLookup<'a> {
    fn new(tokens: &'a TokenMap, vault: Option<&'a Vault>, scope: &'a [u8], now: u64) -> ScopedLookup<'a> {
        ScopedLookup { tokens, vault, scope, now, hits: std::cell::Cell::new(0) }
    }
}

impl Lookup for ScopedLookup<'_> {
    fn lookup(&self, token: &str) -> Option<Cow<'_, [u8]>> {
        if let Some(value) = self.tokens.get(token) {
            return Some(Cow::Borrowed(value));
        }
        let value = self.vault?.get(&SharedStore, self.scope, token, self.now)?;
        self.hits.set(self.hits.get() + 1);
        Some(Cow::Owned(value))
    }
}

impl VeilHttp {
    /// Puts `body` in place of the `wire_len` buffered bytes, with a true length when
    /// the headers are still held.
    fn replace_request_body(&self, wire_len: usize, body: &[u8]) {
        self.set_http_request_body(0, wire_len, body);
        if self.keep_length {
            self.set_http_request_header("content-length", Some(&body.len().to_string()));
        }
    }

    /// The token scope of this request, per the policy. Only ever fed into keyed
    /// hashes; never stored or logged as is. A request that has no credential (or no
    /// peer identity, with `scope: peer`) gets a scope of its own: it must not share
    /// one with every other such request.
    fn scope_for_request(&self, headers: &Headers, path: &str) -> Vec<u8> {
        let credential = CREDENTIAL_HEADERS
            .iter()
            .find_map(|h| headers.get(h).filter(|v| !v.is_empty()).map(<[u8]>::to_vec))
            .or_else(|| query_param(path, "key").map(|key| [b"key:".as_slice(), key].concat()));
        let own = || {
            let mut nonce = [0u8; 16];
            let _ = getrandom::getrandom(&mut nonce);
            [b"request:".as_slice(), &nonce].concat()
        };
        let vault = &self.policy.policy.vault;
        match vault.scope {
            ScopeKind::Credential => credential.unwrap_or_else(own),
            ScopeKind::Header => match headers.get(&vault.scope_header) {
                Some(value) if vault.trusted_scope_header => [b"header:".as_slice(), value].concat(),
                // Bound to the credential: another credential with the same header value
                // is another scope.
                Some(value) => [b"header:".as_slice(), value, b"\0", &credential.unwrap_or_else(own)].concat(),
                None => credential.unwrap_or_else(own),
            },
            ScopeKind::Request => own(),
            ScopeKind::Peer => match self.get_property(vec!["connection", "uri_san_peer_certificate"]) {
                Some(peer) if !peer.is_empty() => [b"peer:".as_slice(), &peer].concat(),
                _ => own(),
            },
        }
    }

    fn lookup(&self) -> ScopedLookup<'_> {
        ScopedLookup::new(&self.tokens, self.vault.as_deref(), &self.scope, now_secs(self))
    }

    /// Writes this request's tokens to the vault, but those found `fresh` there (`now`:
    /// the time they were checked at, in seconds).
    fn remember_tokens(&self, fresh: &[String], now: u64) {
        let Some(vault) = self.vault.as_deref() else { return };
        let (mut stored, mut evicted, mut failed) = (0u64, 0u64, 0u64);
        for (token, value) in self.tokens.iter() {
            if fresh.iter().any(|f| f == token) {
                continue;
            }
            let report = vault.put(&SharedStore, &self.scope, token, value, now);
            stored += u64::from(report.stored);
            evicted += u64::from(report.evicted);
            failed += u64::from(report.contended || report.too_large);
        }
        self.metrics.increment(Counter::VaultWrites, stored);
        self.metrics.increment(Counter::VaultEvicted, evicted);
        self.metrics.increment(Counter::VaultWriteFailures, failed);
    }
}

/// The raw value of query parameter `name` in a request path, if any.
fn query_param<'p>(path: &'p str, name: &str) -> Option<&'p [u8]> {
    let query = path.split_once('?')?.1;
    let query = query.split('#').next().unwrap_or(query);
    query.split('&').find_map(|pair| {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        (k == name && !v.is_empty()).then_some(v.as_bytes())
    })
}

impl Context for VeilHttp {
    fn on_http_call_response(&mut self, token_id: u32, num_headers: usize, body_size: usize, _num_trailers: usize) {
        self.verify_on_call_response(token_id, num_headers, body_size);
    }
}

impl HttpContext for VeilHttp {
    fn on_http_request_headers(&mut self, _num_headers: usize, end_of_stream: bool) -> Action {
        // One host call for every header (each `get` is one, plus an allocation call
        // back into the VM).
        let headers = Headers(self.get_http_request_headers_bytes());
        let path = headers.text(":path");
        let authority = headers.text(":authority");
        let method = headers.text(":method");
        let policy = Rc::clone(&self.policy);
        let header = |name: &str| headers.get(name).map(|v| String::from_utf8_lossy(v).into_owned());
        let request = RequestInfo { authority: &authority, path: &path, method: &method, header: &header };
        let selected = policy.select(&request).map(|s| (s.provider, s.rule));
        self.provider = selected.map(|s| s.0);
        self.rule = selected.and_then(|s| s.1);
        if self.provider.is_none() {
            if policy.exempted(&request) {
                self.exempt = true;
                self.metrics.increment(Counter::Exempt, 1);
            }
            return Action::Continue;
        }
        let normalized = normalize_path(&path).to_ascii_lowercase();
        self.json_array_stream = crate::provider::json_array_stream(&normalized, query_param(&path, "alt"));
        self.started = self.get_current_time();
        self.request_id = crate::audit::request_id(headers.get("x-request-id").unwrap_or_default(), &self.id_key);
        self.scope = self.scope_for_request(&headers, &path);
        self.content_type = headers.text("content-type");
        self.metrics.increment(Counter::Requests, 1);
        self.event();
        // A tunnel or an upgraded protocol (WebSocket) carries data no body callback
        // sees whole: refused, never passed.
        let upgrade = headers.get("upgrade").is_some_and(|v| !v.is_empty()) || headers.get(":protocol").is_some();
        if upgrade || method.eq_ignore_ascii_case("CONNECT") {
            return self.refuse(Refusal::Transport);
        }
        // A compressed body is scanned decoded and goes on decoded.
        match crate::encoding::parse(&headers.joined("content-encoding")) {
            Ok(codings) if codings.is_empty() => {}
            Ok(codings) => {
                self.codings = codings;
                self.set_http_request_header("content-encoding", None);
            }
            Err(_) => return self.refuse(Refusal::UnsupportedEncoding),
        }
        // Ask for a body we can read back.
        self.set_http_request_header("accept-encoding", Some("identity"));
        let declared =
            headers.get("content-length").and_then(|v| std::str::from_utf8(v).ok()?.trim().parse::<usize>().ok());
        if declared.is_some_and(|len| len > self.profile().policy.limits.max_body_bytes) {
            return self.too_large();
        }
        if end_of_stream {
            return Action::Continue;
        }
        if self.policy.policy.hold_headers {
            // Envoy keeps the headers until the body is inspected (with
            // `allow_on_headers_stop_iteration`): a rejected request never leaves, and
            // the length is corrected after a rewrite.
            self.keep_length = declared.is_some();
            return Action::Pause;
        }
        // Otherwise the headers go upstream before the body is seen (pausing without
        // that setting would stall the stream), so the length cannot follow a
        // rewrite: drop it, and the body goes chunked (HTTP/1.1) or framed (HTTP/2).
        self.set_http_request_header("content-length", None);
        Action::Continue
    }

    fn on_http_request_body(&mut self, body_size: usize, end_of_stream: bool) -> Action {
        if self.provider.is_none() || self.unscanned || self.scanned {
            return Action::Continue;
        }
        if body_size > self.profile().policy.limits.max_body_bytes {
            return self.too_large();
        }
        if !end_of_stream {
            // Buffered; released only by the verdict at the end of the stream or at
            // the trailers.
            return Action::Pause;
        }
        self.scan_request(body_size)
    }

    /// Trailers end the request instead of a body frame with end of stream (HTTP/2
    /// always can, HTTP/1.1 chunked with `enable_trailers`): the buffered body is
    /// scanned here, and the trailers wait with it.
    fn on_http_request_trailers(&mut self, _num_trailers: usize) -> Action {
        if self.provider.is_none() || self.unscanned || self.scanned {
            return Action::Continue;
        }
        let limit = self.profile().policy.limits.max_body_bytes;
        let wire = self.get_http_request_body(0, limit.saturating_add(1)).unwrap_or_default();
        if wire.len() > limit {
            return self.too_large();
        }
        self.scan_body(wire)
    }

    fn on_http_response_headers(&mut self, _num_headers: usize, _end_of_stream: bool) -> Action {
        if self.provider.is_none() {
            return Action::Continue;
        }
        let headers = Headers(self.get_http_response_headers_bytes());
        let status =
            std::str::from_utf8(headers.get(":status").unwrap_or_default()).ok().and_then(|s| s.parse::<u16>().ok());
        self.event().response_status = status;
        // With a vault, an earlier request's tokens may come back in any response.
        if self.tokens.is_empty() && self.vault.is_none() && !self.profile().policy.verification.enabled {
            return Action::Continue;
        }
        let encoded =
            headers.get("content-encoding").is_some_and(|e| !e.trim_ascii().eq_ignore_ascii_case(b"identity"));
        if encoded {
            self.metrics.increment(Counter::RestoreSkippedEncoded, 1);
            self.verify_start(status, true);
            return Action::Continue;
        }
        let content_type = headers.text("content-type").to_ascii_lowercase();
        let provider = self.provider.unwrap_or(Provider::Generic);
        // Every request to a destination is protected now, file downloads included: a
        // whole body declared larger than Envoy would buffer goes on unrestored (a
        // token in it stays a token) instead of failing.
        let declared =
            headers.get("content-length").and_then(|v| std::str::from_utf8(v).ok()?.trim().parse::<usize>().ok());
        let too_big = declared.is_some_and(|len| len > MAX_RESTORED_RESPONSE_BYTES);
        self.response = if content_type.starts_with("text/event-stream") {
            ResponseMode::Stream(ResponseStream::new(provider, Framing::Sse))
        } else if self.json_array_stream && content_type.contains("json") {
            ResponseMode::Stream(ResponseStream::new(provider, Framing::JsonArray))
        } else if too_big && (content_type.contains("json") || content_type.starts_with("text/plain")) {
            self.metrics.increment(Counter::RestoreSkippedLarge, 1);
            ResponseMode::Pass
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
        self.verify_start(status, false);
        if self.verify_holds_headers() {
            // `hold_headers`: Envoy keeps them (allow_on_headers_stop_iteration) while
            // the body is verified, so the summary header can still be added.
            return Action::Pause;
        }
        Action::Continue
    }

    fn on_http_response_body(&mut self, body_size: usize, end_of_stream: bool) -> Action {
        if self.verifying_stream() {
            return self.verify_stream_body(body_size, end_of_stream);
        }
        if matches!(self.response, ResponseMode::Stream(_)) {
            let now = now_secs(self);
            // Restore as it streams: this chunk goes on now, minus at most a held-back
            // token prefix (and an incomplete event), which the next chunk releases.
            let chunk = match self.get_http_response_body(0, body_size) {
                Some(chunk) => chunk,
                None if body_size == 0 => Vec::new(),
                None => return Action::Continue,
            };
            let ResponseMode::Stream(restorer) = &mut self.response else { return Action::Continue };
            let before = restorer.restored();
            let lookup = ScopedLookup::new(&self.tokens, self.vault.as_deref(), &self.scope, now);
            let out = restorer.feed(&chunk, end_of_stream, &lookup);
            let vault_hits = lookup.hits.get();
            let restored = restorer.restored() - before;
            if out != chunk {
                self.set_http_response_body(0, body_size, &out);
            }
            self.metrics.increment(Counter::TokensRestored, u64::from(restored));
            self.metrics.increment(Counter::VaultRestored, u64::from(vault_hits));
            self.event().tokens_restored += restored;
            return Action::Continue;
        }
        if matches!(self.response, ResponseMode::Pass) {
            return Action::Continue;
        }
        if !end_of_stream {
            return Action::Pause;
        }
        if self.verifying_whole() {
            return self.verify_whole_body(body_size);
        }
        let Some(body) = self.get_http_response_body(0, body_size) else { return Action::Continue };
        let provider = self.provider.unwrap_or(Provider::Generic);
        let lookup = self.lookup();
        let restoration = match self.response {
            ResponseMode::BufferJson => {
                restore_json(provider, &body, &lookup).unwrap_or_else(|_| restore_text(&body, &lookup))
            }
            _ => restore_text(&body, &lookup),
        };
        let vault_hits = lookup.hits.get();
        self.metrics.increment(Counter::VaultRestored, u64::from(vault_hits));
        if let Some(new_body) = restoration.body {
            self.set_http_response_body(0, body_size, &new_body);
        }
        self.metrics.increment(Counter::TokensRestored, u64::from(restoration.restored));
        self.event().tokens_restored += restoration.restored;
        Action::Continue
    }

    fn on_log(&mut self) {
        if self.provider.is_none() {
            if self.exempt {
                // Its counter goes out with the worker's next write.
                let now = now_ms(self);
                let due = self.metrics.settle(None, now);
                if let Some(ms) = due.and_then(|at| self.alarm.try_borrow_mut().ok()?.wake_root_at(at, now)) {
                    let _ = hostcalls::set_tick_period(Duration::from_millis(ms));
                }
            }
            return;
        }
        let now = self.get_current_time();
        let duration = now.duration_since(self.started).map(|d| d.as_millis() as u64).unwrap_or(0);
        let enabled = self.profile().policy.audit.enabled;
        let event = self.event();
        event.duration_ms = duration;
        let (line, outcome) = (event.to_line(), event.outcome);
        self.metrics.increment(Counter::Outcome(outcome), 1);
        let now_ms = now.duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis() as u64).unwrap_or(0);
        let due = self.metrics.settle(enabled.then_some(line.as_str()), now_ms);
        // What waits is written by a later request, or by the root's tick at `due`.
        let period = due.and_then(|at| self.alarm.try_borrow_mut().ok()?.wake_root_at(at, now_ms));
        if let Some(ms) = period {
            let _ = hostcalls::set_tick_period(Duration::from_millis(ms));
        }
    }
}
