//! The Proxy-Wasm host (`veil.wasm`): the only module tree that names `proxy_wasm`.
//! [`WasmHost`] is the flow's [`Host`] over the ABI calls of `abi.rs`; [`Request`] is
//! the SDK's HTTP context, a thin handle on the request's state; `root.rs` is the root
//! context over the shared [`Worker`](super::worker::Worker); `shared.rs` is shared
//! data as the vault's store and the verifier's cache.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::time::{Duration, SystemTime};

use proxy_wasm::hostcalls;
use proxy_wasm::traits::{Context, HttpContext};
use proxy_wasm::types::{LogLevel, Status};

use super::env::{DispatchError, HostResult};
use super::{timing, Action, Buffer, Host, Level, Map, RequestAlarm, VeilHttp};
use crate::vault::Store;
use crate::verify::Cache;

mod abi;
mod root;
mod shared;

use root::VeilRoot;
use shared::{SharedCache, SharedStore};

/// The stream property the audit event is written to with `audit.sink: access_log`:
/// Envoy keeps it as the filter state `wasm.veil.audit`.
const AUDIT_PROPERTY: &str = "veil.audit";

proxy_wasm::main! {{
    proxy_wasm::set_log_level(LogLevel::Info);
    proxy_wasm::set_root_context(|id| Box::new(VeilRoot::new(id)));
}}

/// The Proxy-Wasm ABI as the flow's host: calls act for the current (effective)
/// context, so one value serves every request of the worker.
pub(super) struct WasmHost;

thread_local! {
    /// Counter ids by name, defined in Envoy on first use (the same in every worker).
    static COUNTERS: RefCell<HashMap<String, u32>> = RefCell::new(HashMap::new());
}

fn counter_id(name: &str) -> Option<u32> {
    COUNTERS.with(|ids| {
        let mut ids = ids.try_borrow_mut().ok()?;
        if let Some(id) = ids.get(name) {
            return Some(*id);
        }
        let id = abi::define_counter(name).ok()?;
        ids.insert(name.to_string(), id);
        Some(id)
    })
}

fn map(map: Map) -> abi::Map {
    match map {
        Map::RequestHeaders => abi::Map::RequestHeaders,
        Map::ResponseHeaders => abi::Map::ResponseHeaders,
        Map::ResponseTrailers => abi::Map::ResponseTrailers,
        Map::CallResponseHeaders => abi::Map::CallResponseHeaders,
    }
}

fn buffer(kind: Buffer) -> abi::Buffer {
    match kind {
        Buffer::RequestBody => abi::Buffer::RequestBody,
        Buffer::ResponseBody => abi::Buffer::ResponseBody,
        Buffer::CallResponseBody => abi::Buffer::CallResponseBody,
    }
}

impl Host for WasmHost {
    fn log(&self, level: Level, message: &str) {
        let level = match level {
            Level::Info => LogLevel::Info,
            Level::Warn => LogLevel::Warn,
            Level::Error => LogLevel::Error,
            Level::Critical => LogLevel::Critical,
        };
        let _ = abi::log(level, message);
    }

    fn now(&self) -> HostResult<SystemTime> {
        abi::now()
    }

    fn header_pairs(&self, m: Map) -> HostResult<Vec<(String, Vec<u8>)>> {
        abi::header_pairs(map(m))
    }

    fn header(&self, m: Map, name: &str) -> HostResult<Option<Vec<u8>>> {
        abi::header(map(m), name)
    }

    fn set_header(&self, m: Map, name: &str, value: Option<&str>) -> HostResult<()> {
        abi::set_header(map(m), name, value)
    }

    fn add_header(&self, m: Map, name: &str, value: &str) -> HostResult<()> {
        abi::add_header(map(m), name, value)
    }

    fn body(&self, kind: Buffer, start: usize, max: usize) -> HostResult<Option<Vec<u8>>> {
        abi::buffer(buffer(kind), start, max)
    }

    fn set_body(&self, kind: Buffer, start: usize, size: usize, bytes: &[u8]) -> HostResult<()> {
        abi::set_buffer(buffer(kind), start, size, bytes)
    }

    fn send_response(&self, status: u32, headers: &[(&str, &str)], body: &[u8]) -> HostResult<()> {
        abi::send_response(status, headers, body)
    }

    fn resume_response(&self) -> HostResult<()> {
        abi::resume_response()
    }

    fn resume_request(&self) -> HostResult<()> {
        abi::resume_request()
    }

    /// Envoy keeps the value as the filter state `wasm.veil.audit`.
    fn set_audit(&self, line: &[u8]) -> HostResult<()> {
        abi::set_property(AUDIT_PROPERTY, line)
    }

    fn peer_identity(&self) -> Option<Vec<u8>> {
        abi::property(&["connection", "uri_san_peer_certificate"]).ok().flatten()
    }

    fn store(&self) -> &dyn Store {
        &SharedStore
    }

    fn cache(&self) -> &dyn Cache {
        &SharedCache
    }

    fn increment(&self, name: &str, by: u64) {
        if let Some(id) = counter_id(name) {
            let _ = abi::increment(id, by);
        }
    }

    fn counter(&self, name: &str) -> u64 {
        counter_id(name).and_then(|id| abi::metric(id).ok()).unwrap_or(0)
    }

    fn has_timer(&self) -> bool {
        true
    }

    /// The root context's tick period (one timer per root context).
    fn set_tick(&self, period: Duration) {
        let _ = abi::set_tick_period(period);
    }

    /// The SDK's call: it registers the token so that the answer comes back to the
    /// context active now; it returns Envoy's refusals as errors.
    fn dispatch(
        &self,
        cluster: &str,
        headers: &[(&str, &str)],
        body: &[u8],
        timeout: Duration,
    ) -> Result<u32, DispatchError> {
        hostcalls::dispatch_http_call(cluster, headers.to_vec(), Some(body), vec![], timeout).map_err(|status| {
            if status == Status::BadArgument {
                DispatchError::Refused
            } else {
                DispatchError::Failed
            }
        })
    }
}

fn action(a: Action) -> proxy_wasm::types::Action {
    match a {
        Action::Continue => proxy_wasm::types::Action::Continue,
        Action::Pause => proxy_wasm::types::Action::Pause,
    }
}

/// The SDK's HTTP context: the request's state, shared with the root's alarm, whose
/// tick wakes a verification that waits out a retry's backoff.
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
        self.with((), |http| http.on_call_response(token_id, num_headers, body_size));
    }
}

/// Request callbacks fall back to `Pause` (nothing goes on uninspected), response
/// callbacks to `Continue`.
impl HttpContext for Request {
    fn on_http_request_headers(&mut self, _num_headers: usize, end_of_stream: bool) -> proxy_wasm::types::Action {
        action(timing::span(timing::Slot::RequestHeaders, || {
            self.with(Action::Pause, |http| http.on_request_headers(end_of_stream))
        }))
    }

    fn on_http_request_body(&mut self, body_size: usize, end_of_stream: bool) -> proxy_wasm::types::Action {
        action(timing::span(timing::Slot::RequestBody, || {
            self.with(Action::Pause, |http| http.on_request_body(body_size, end_of_stream))
        }))
    }

    fn on_http_request_trailers(&mut self, _num_trailers: usize) -> proxy_wasm::types::Action {
        action(timing::span(timing::Slot::RequestBody, || self.with(Action::Pause, |http| http.on_request_trailers())))
    }

    fn on_http_response_headers(&mut self, _num_headers: usize, _end_of_stream: bool) -> proxy_wasm::types::Action {
        action(timing::span(timing::Slot::ResponseHeaders, || {
            self.with(Action::Continue, |http| http.on_response_headers())
        }))
    }

    fn on_http_response_body(&mut self, body_size: usize, end_of_stream: bool) -> proxy_wasm::types::Action {
        action(timing::span(timing::Slot::ResponseBody, || {
            self.with(Action::Continue, |http| http.on_response_body(body_size, end_of_stream))
        }))
    }

    fn on_log(&mut self) {
        timing::span(timing::Slot::Log, || self.with((), |http| http.on_log()));
        timing::request_done(&WasmHost);
    }
}
