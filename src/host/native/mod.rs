//! The Envoy dynamic-modules host (`libveil.so`, feature `native`): the same flow as
//! the Wasm filter, run natively on Envoy's worker threads.
//!
//! - `abi.rs`: the binding (Envoy's callbacks as safe methods, our event hooks);
//! - [`Config`]: one per filter configuration (Envoy makes it on the main thread from
//!   the filter's `filter_config`, the policy JSON; an invalid policy is refused, so
//!   over ECDS the previous configuration keeps serving). It holds the policy bytes,
//!   the vault key and the counters, defined here because Envoy defines metrics with
//!   the configuration only;
//! - a [`Worker`] per worker thread and configuration (thread-local, like the Wasm
//!   host's root context per worker): the compiled policy, minter, vault, metrics;
//! - [`NativeFilter`]: one per stream, its [`VeilHttp`] and its [`NativeHost`];
//! - [`AuditBatch`] (`batch.rs`): a configuration's audit lines, written together;
//! - the vault's store: one process-wide [`ShardedStore`] shared by the workers (Envoy's
//!   shared data is a Wasm feature), with the same sealing and TTL rules (the vault's).

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use super::host::{DispatchError, HostError, HostResult};
use super::worker::{parse_policy, vault_key, Worker};
use super::{timing, Action, Buffer, Host, Level, Map, VeilHttp};
use crate::metrics::Counter;
use crate::policy::CompiledPolicy;
use crate::vault::Store;
use crate::verify::Cache;

mod abi;
mod batch;
mod hooks;
mod process;

use batch::AuditBatch;

use abi::{Body, CalloutAnswer, CalloutError, ConfigHandle, Filter, HeaderMap, LogLevel, Status};
use process::{process_key, store, NativeCache};

/// The scheduler event that sends the response trailers the flow added
/// ([`HostState::trailers`]); a verifier retry's wake-up is 1.
const SEND_TRAILERS: u64 = 2;

/// The filter-state key of the audit event with `audit.sink: access_log`.
const AUDIT_FILTER_STATE: &str = "veil.audit";

/// One filter configuration, as Envoy holds it (from `config_new` to its destroy).
struct Config(Arc<Shared>);

/// What a configuration's streams share, on every worker thread.
struct Shared {
    /// Tells this configuration's per-thread workers from an earlier one's.
    generation: u64,
    policy: Vec<u8>,
    key: [u8; 32],
    /// Envoy's counter id and this process's running total, by counter name.
    counters: HashMap<String, (usize, AtomicU64)>,
    /// Audit lines waiting to be written together (this host has no worker timer).
    audit: AuditBatch,
}

/// Envoy made a filter configuration (main thread): the policy is checked now, so that
/// an invalid one is refused (null) and the previous one keeps serving.
fn on_config_new(handle: ConfigHandle, _name: &[u8], config: &[u8]) -> Option<Config> {
    static GENERATION: AtomicU64 = AtomicU64::new(1);
    let log = |level: Level, message: &str| abi::log(log_level(level), message);
    let policy = parse_policy(log, config)?;
    let Some(key) = vault_key(log, process_key) else {
        log(Level::Critical, "veil: no vault key could be made; the policy is not applied");
        return None;
    };
    let mut categories: Vec<&str> =
        policy.profiles().flat_map(|p| p.engine.rules().iter().map(|r| r.category.as_str())).collect();
    categories.sort_unstable();
    categories.dedup();
    let mut counters = HashMap::new();
    for counter in Counter::every(&categories) {
        let name = counter.name().into_owned();
        if let Some(id) = handle.define_counter(&name) {
            counters.insert(name, (id, AtomicU64::new(0)));
        }
    }
    log(Level::Info, "veil: policy loaded");
    Some(Config(Arc::new(Shared {
        generation: GENERATION.fetch_add(1, Ordering::Relaxed),
        policy: config.to_vec(),
        key,
        counters,
        audit: AuditBatch::new(policy.policy.audit.flush_ms, |lines| abi::log(LogLevel::Info, lines)),
    })))
}

thread_local! {
    /// This worker thread's state per configuration, the newest last (a few kept: a
    /// stream made under the previous configuration may still be running).
    static WORKERS: RefCell<Vec<(u64, Rc<RefCell<Worker>>)>> = const { RefCell::new(Vec::new()) };
    /// Stream ids for the worker's alarm.
    static NEXT_ID: Cell<u32> = const { Cell::new(1) };
}

const WORKERS_KEPT: usize = 4;

/// This thread's worker for `config`, made on first use.
fn worker(config: &Shared, host: &dyn Host) -> Option<Rc<RefCell<Worker>>> {
    let generation = config.generation;
    WORKERS.with(|workers| {
        let mut workers = workers.try_borrow_mut().ok()?;
        if let Some((_, w)) = workers.iter().find(|(g, _)| *g == generation) {
            return Some(Rc::clone(w));
        }
        // Parsed again per thread (the compiled policy keeps per-worker memories).
        let policy: CompiledPolicy = CompiledPolicy::from_json(&config.policy).ok()?;
        let mut w = Worker::default();
        w.configure(host, policy, &config.key);
        let w = Rc::new(RefCell::new(w));
        workers.push((generation, Rc::clone(&w)));
        if workers.len() > WORKERS_KEPT {
            workers.remove(0);
        }
        Some(w)
    })
}

fn log_level(level: Level) -> LogLevel {
    match level {
        Level::Info => LogLevel::Info,
        Level::Warn => LogLevel::Warn,
        Level::Error => LogLevel::Error,
        Level::Critical => LogLevel::Critical,
    }
}

/// One stream's host: Envoy's filter object, the configuration's counters, and the
/// stream's host-side state (shared with its [`NativeFilter`]).
#[derive(Clone)]
struct NativeHost {
    filter: Filter,
    config: Arc<Shared>,
    state: Rc<HostState>,
}

#[derive(Default)]
struct HostState {
    /// Inside a body hook: the received chunk is readable (and where a new body goes).
    in_body: Cell<bool>,
    /// The verifier answer being handled.
    callout: RefCell<Option<CalloutAnswer>>,
    /// The response is to go on once the current hook's work is done: Envoy would
    /// otherwise run the rest of the stream (its end included) inside our call.
    resume: Cell<bool>,
    /// The request is to go on once the current hook's work is done (the model
    /// stage's answer was merged).
    resume_request: Cell<bool>,
    /// Response trailers the flow added where Envoy had none (a dynamic module cannot
    /// add them in the last body callback, as a Wasm filter does): sent, with the held
    /// end of the body before them, once that callback has returned
    /// ([`NativeFilter::send_trailers`]).
    trailers: RefCell<Option<Vec<(String, String)>>>,
}

impl NativeHost {
    fn bodies(kind: Buffer) -> Option<(Body, Body, bool)> {
        match kind {
            Buffer::RequestBody => Some((Body::BufferedRequest, Body::ReceivedRequest, true)),
            Buffer::ResponseBody => Some((Body::BufferedResponse, Body::ReceivedResponse, false)),
            Buffer::CallResponseBody => None,
        }
    }

    /// The whole body so far: what Envoy buffered, then this callback's chunk (unless
    /// the chunk is the buffered body itself).
    fn whole(&self, kind: Buffer) -> HostResult<Vec<u8>> {
        let Some((buffered, received, request)) = Self::bodies(kind) else {
            return Ok(self.state.callout.borrow().as_ref().map(|a| a.body.clone()).unwrap_or_default());
        };
        let mut out = self.filter.body(buffered).ok_or(HostError(1))?;
        if self.state.in_body.get() && !self.filter.received_is_buffered(request) {
            out.extend(self.filter.body(received).ok_or(HostError(1))?);
        }
        Ok(out)
    }

    /// The size of [`NativeHost::whole`], without copying.
    fn size(&self, kind: Buffer) -> usize {
        let Some((buffered, received, request)) = Self::bodies(kind) else { return 0 };
        let mut size = self.filter.body_size(buffered);
        if self.state.in_body.get() && !self.filter.received_is_buffered(request) {
            size += self.filter.body_size(received);
        }
        size
    }
}

fn header_map(map: Map) -> Option<HeaderMap> {
    match map {
        Map::RequestHeaders => Some(HeaderMap::RequestHeaders),
        Map::ResponseHeaders => Some(HeaderMap::ResponseHeaders),
        Map::ResponseTrailers => Some(HeaderMap::ResponseTrailers),
        Map::CallResponseHeaders => None,
    }
}

impl Host for NativeHost {
    fn log(&self, level: Level, message: &str) {
        abi::log(log_level(level), message);
    }

    fn write_audit(&self, lines: String) {
        self.config.audit.push(&lines);
    }

    fn now(&self) -> HostResult<SystemTime> {
        Ok(SystemTime::now())
    }

    fn header_pairs(&self, map: Map) -> HostResult<Vec<(String, Vec<u8>)>> {
        match header_map(map) {
            Some(m) => self.filter.headers(m).ok_or(HostError(1)),
            None => Ok(self.state.callout.borrow().as_ref().map(|a| a.headers.clone()).unwrap_or_default()),
        }
    }

    fn header(&self, map: Map, name: &str) -> HostResult<Option<Vec<u8>>> {
        match header_map(map) {
            Some(m) => Ok(self.filter.header(m, name)),
            None => Ok(self
                .state
                .callout
                .borrow()
                .as_ref()
                .and_then(|a| a.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.clone()))),
        }
    }

    fn set_header(&self, map: Map, name: &str, value: Option<&str>) -> HostResult<()> {
        let m = header_map(map).ok_or(HostError(2))?;
        if let (Map::ResponseTrailers, Some(pending)) = (map, self.state.trailers.borrow_mut().as_mut()) {
            pending.retain(|(k, _)| !k.eq_ignore_ascii_case(name));
            pending.extend(value.map(|v| (name.to_string(), v.to_string())));
            return Ok(());
        }
        // Envoy answers `false` to removing a header that is not there: done all the same.
        if self.filter.set_header(m, name, value.map(str::as_bytes))
            || (value.is_none() && self.filter.header(m, name).is_none())
        {
            Ok(())
        } else {
            Err(HostError(1))
        }
    }

    fn add_header(&self, map: Map, name: &str, value: &str) -> HostResult<()> {
        let m = header_map(map).ok_or(HostError(2))?;
        if self.filter.add_header(m, name, value.as_bytes()) {
            Ok(())
        } else if map == Map::ResponseTrailers {
            // No trailers from upstream: sent by the filter after the body.
            self.state.trailers.borrow_mut().get_or_insert_with(Vec::new).push((name.to_string(), value.to_string()));
            Ok(())
        } else {
            Err(HostError(1))
        }
    }

    fn body(&self, kind: Buffer, start: usize, max: usize) -> HostResult<Option<Vec<u8>>> {
        let whole = self.whole(kind)?;
        let from = start.min(whole.len());
        let to = from.saturating_add(max).min(whole.len());
        Ok(whole.get(from..to).map(<[u8]>::to_vec))
    }

    /// Envoy's body API drains and appends: the body is rebuilt whole.
    fn set_body(&self, kind: Buffer, start: usize, size: usize, bytes: &[u8]) -> HostResult<()> {
        let (buffered, received, request) = Self::bodies(kind).ok_or(HostError(2))?;
        let whole = self.whole(kind)?;
        let from = start.min(whole.len());
        let to = from.saturating_add(size).min(whole.len());
        let mut new = Vec::with_capacity(whole.len() - (to - from) + bytes.len());
        new.extend_from_slice(whole.get(..from).unwrap_or_default());
        new.extend_from_slice(bytes);
        new.extend_from_slice(whole.get(to..).unwrap_or_default());
        let chunk = self.state.in_body.get() && !self.filter.received_is_buffered(request);
        // Envoy answers `false` for a body it does not have (nothing buffered yet):
        // only what is there is drained.
        let drain = |body: Body| {
            let size = self.filter.body_size(body);
            size == 0 || self.filter.drain(body, size)
        };
        let mut ok = drain(buffered);
        if chunk {
            ok &= drain(received);
        }
        let target =
            if chunk || self.filter.body_size(buffered) == 0 && self.state.in_body.get() { received } else { buffered };
        ok &= new.is_empty() || self.filter.append(target, &new);
        if ok {
            Ok(())
        } else {
            Err(HostError(1))
        }
    }

    fn send_response(&self, status: u32, headers: &[(&str, &str)], body: &[u8]) -> HostResult<()> {
        self.filter.send_response(status, headers, body);
        Ok(())
    }

    /// Done when the hook that asks for it returns (`NativeFilter::with_http`).
    fn resume_response(&self) -> HostResult<()> {
        self.state.resume.set(true);
        Ok(())
    }

    /// Done when the hook that asks for it returns (`NativeFilter::with_http`).
    fn resume_request(&self) -> HostResult<()> {
        self.state.resume_request.set(true);
        Ok(())
    }

    fn set_audit(&self, line: &[u8]) -> HostResult<()> {
        if self.filter.set_filter_state(AUDIT_FILTER_STATE, line) {
            Ok(())
        } else {
            Err(HostError(1))
        }
    }

    fn peer_identity(&self) -> Option<Vec<u8>> {
        self.filter.peer_uri_san()
    }

    fn store(&self) -> &dyn Store {
        store()
    }

    fn cache(&self) -> &dyn Cache {
        &NativeCache
    }

    fn increment(&self, name: &str, by: u64) {
        if let Some((id, total)) = self.config.counters.get(name) {
            total.fetch_add(by, Ordering::Relaxed);
            let _ = self.filter.increment_counter(*id, by);
        }
    }

    fn counter(&self, name: &str) -> u64 {
        self.config.counters.get(name).map_or(0, |(_, total)| total.load(Ordering::Relaxed))
    }

    /// Envoy gives a filter no timer: increments are written at once, and audit lines
    /// go to the configuration's batch (`write_audit`, `batch.rs`), which has its own.
    fn has_timer(&self) -> bool {
        false
    }

    fn set_tick(&self, _period: Duration) {}

    /// A thread sleeps, then Envoy's scheduler wakes this stream on its worker.
    fn wake_after(&self, delay: Duration) -> bool {
        self.filter.wake_after(delay, 1)
    }

    fn dispatch(
        &self,
        cluster: &str,
        headers: &[(&str, &str)],
        body: &[u8],
        timeout: Duration,
    ) -> Result<u32, DispatchError> {
        // Envoy's callout wants `host` where Proxy-Wasm takes `:authority`.
        let mut with_host: Vec<(&str, &str)> = headers.to_vec();
        if let Some((_, authority)) = headers.iter().find(|(k, _)| *k == ":authority") {
            with_host.push(("host", authority));
        }
        let ms = u64::try_from(timeout.as_millis()).unwrap_or(u64::MAX);
        match self.filter.callout(cluster, &with_host, body, ms) {
            Ok(id) => u32::try_from(id).map_err(|_| DispatchError::Failed),
            Err(CalloutError::Refused) => Err(DispatchError::Refused),
            Err(CalloutError::Failed) => Err(DispatchError::Failed),
        }
    }
}

/// One stream: its state, made by this thread's worker; `None` when there is no worker
/// (its policy could not be compiled here), and the stream fails closed.
struct NativeFilter {
    id: u32,
    worker: Option<Rc<RefCell<Worker>>>,
    http: Option<Rc<RefCell<VeilHttp>>>,
    host: NativeHost,
    logged: Cell<bool>,
    /// The stream ended inside one of our own calls: its log runs when that call returns.
    complete_pending: Cell<bool>,
}

impl NativeFilter {
    fn new(config: &Config, filter: Filter) -> NativeFilter {
        let id = NEXT_ID.with(|n| {
            let id = n.get();
            n.set(id.wrapping_add(1).max(1));
            id
        });
        let host = NativeHost { filter, config: Arc::clone(&config.0), state: Rc::default() };
        let worker = worker(&config.0, &host);
        let http = worker.as_ref().and_then(|w| Some(w.try_borrow().ok()?.new_request(id, Box::new(host.clone()))));
        NativeFilter { id, worker, http, host, logged: Cell::new(false), complete_pending: Cell::new(false) }
    }

    /// Runs a hook on the stream's state; `otherwise` when there is none or it is busy
    /// (a hook nested in one of our own calls).
    /// Then does what the hook left for after it: lets a response go on, and logs a
    /// stream that ended meanwhile.
    fn with_http<R>(&self, otherwise: R, f: impl FnOnce(&mut VeilHttp) -> R) -> R {
        let r = match self.http.as_ref().map(|h| h.try_borrow_mut()) {
            Some(Ok(mut http)) => f(&mut http),
            _ => return otherwise,
        };
        if self.host.state.resume_request.replace(false) {
            self.host.filter.continue_decoding();
        }
        if self.host.state.resume.replace(false) {
            if self.host.state.trailers.borrow().is_none() {
                self.host.filter.continue_encoding();
            } else if self.host.state.in_body.get() {
                // Not inside Envoy's call of our body hook: once it has returned. Without
                // a scheduler the body goes on all the same, without the trailers (the
                // summary is in the audit line).
                if !self.host.filter.wake_soon(SEND_TRAILERS) {
                    self.host.state.trailers.borrow_mut().take();
                    self.host.filter.continue_encoding();
                }
            } else {
                self.send_trailers();
            }
        }
        if self.complete_pending.replace(false) {
            self.stream_complete();
        }
        r
    }

    /// A stream with no state cannot be inspected: refused (fail closed).
    fn unavailable(&self) -> Status {
        self.host.filter.send_response(
            500,
            &[("content-type", "application/json"), ("x-veil-error", "veil_internal_error")],
            br#"{"error":{"message":"The gateway could not inspect this request; it was not forwarded.","type":"veil_internal_error"}}"#,
        );
        Status::Stop
    }

    fn in_body<R>(&self, f: impl FnOnce(&mut VeilHttp) -> R, otherwise: R) -> R {
        self.host.state.in_body.set(true);
        let r = self.with_http(otherwise, f);
        self.host.state.in_body.set(false);
        r
    }

    fn request_headers(&self, end_of_stream: bool) -> Status {
        if self.http.is_none() {
            return self.unavailable();
        }
        timing::span(timing::Slot::RequestHeaders, || {
            status(self.with_http(Action::Pause, |http| http.on_request_headers(end_of_stream)))
        })
    }

    fn request_body(&self, end_of_stream: bool) -> Status {
        self.host.state.in_body.set(true);
        let size = self.host.size(Buffer::RequestBody);
        timing::span(timing::Slot::RequestBody, || {
            status(self.in_body(|http| http.on_request_body(size, end_of_stream), Action::Pause))
        })
    }

    fn request_trailers(&self) -> Status {
        status(self.with_http(Action::Pause, VeilHttp::on_request_trailers))
    }

    fn response_headers(&self, _end_of_stream: bool) -> Status {
        timing::span(timing::Slot::ResponseHeaders, || {
            status(self.with_http(Action::Continue, VeilHttp::on_response_headers))
        })
    }

    fn response_body(&self, end_of_stream: bool) -> Status {
        self.host.state.in_body.set(true);
        let size = self.host.size(Buffer::ResponseBody);
        let action = timing::span(timing::Slot::ResponseBody, || {
            self.in_body(|http| http.on_response_body(size, end_of_stream), Action::Continue)
        });
        // Trailers added in the last body callback: the end is held, and goes on with
        // them once this callback has returned.
        if end_of_stream
            && matches!(action, Action::Continue)
            && self.host.state.trailers.borrow().is_some()
            && self.host.filter.wake_soon(SEND_TRAILERS)
        {
            return Status::Stop;
        }
        status(action)
    }

    /// Ends the response with the trailers the flow added (and the body held before
    /// them), once.
    fn send_trailers(&self) {
        let Some(pending) = self.host.state.trailers.borrow_mut().take() else { return };
        let pairs: Vec<(&str, &str)> = pending.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        self.host.filter.send_trailers(&pairs);
    }

    /// The stream is over: its audit line and counters; then, as this host has no
    /// timer, the worker's vault sweep when one is due.
    fn stream_complete(&self) {
        if self.http.as_ref().is_some_and(|h| h.try_borrow_mut().is_err()) {
            // Inside one of our calls (a resumed response ran to its end): later.
            self.complete_pending.set(true);
            return;
        }
        if self.logged.replace(true) {
            return;
        }
        timing::span(timing::Slot::Log, || self.with_http((), VeilHttp::on_log));
        timing::request_done(&self.host);
        if let Some(mut worker) = self.worker.as_ref().and_then(|w| w.try_borrow_mut().ok()) {
            let now = SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64);
            worker.sweep_if_due(&self.host, now);
        }
    }

    /// The stream's end was seen: nothing may act on it any more (a late answer or
    /// wake-up would otherwise send a local reply, or resume, a stream that is over).
    fn ended(&self) -> bool {
        self.logged.get() || self.complete_pending.get()
    }

    /// A wake-up this stream asked for (`Host::wake_after`): a verifier retry is due.
    fn scheduled(&self, event: u64) {
        if self.ended() {
            return;
        }
        if event == SEND_TRAILERS {
            self.send_trailers();
            return;
        }
        self.with_http((), VeilHttp::verify_wake);
    }

    fn callout_done(&self, id: u64, answer: CalloutAnswer) {
        if self.ended() {
            return;
        }
        let token = u32::try_from(id).unwrap_or(u32::MAX);
        let (headers, size) = (if answer.success { answer.headers.len() } else { 0 }, answer.body.len());
        if let Ok(mut slot) = self.host.state.callout.try_borrow_mut() {
            *slot = Some(answer);
        }
        self.with_http((), |http| http.on_call_response(token, headers, size));
        if let Ok(mut slot) = self.host.state.callout.try_borrow_mut() {
            *slot = None;
        }
    }
}

impl Drop for NativeFilter {
    fn drop(&mut self) {
        if let Some(w) = self.worker.as_ref().and_then(|w| w.try_borrow().ok()) {
            w.forget(self.id);
        }
    }
}

fn status(action: Action) -> Status {
    match action {
        Action::Continue => Status::Continue,
        Action::Pause => Status::Stop,
    }
}
