//! The Proxy-Wasm ABI as the flow's [`Host`]: headers, bodies, shared data, calls out,
//! timers and counters of the current (effective) context.

use std::cell::RefCell;
use std::collections::HashMap;
use std::time::{Duration, SystemTime};

use proxy_wasm::hostcalls;
use proxy_wasm::types::{LogLevel, Status};

use super::abi;
use super::shared::{SharedCache, SharedStore};
use crate::host::host::{DispatchError, HostResult};
use crate::host::{Action, Buffer, Host, Level, Map};
use crate::vault::Store;
use crate::verify::Cache;

/// The stream property the audit event is written to with `audit.sink: access_log`:
/// Envoy keeps it as the filter state `wasm.veil.audit`.
const AUDIT_PROPERTY: &str = "veil.audit";

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

pub(super) fn action(a: Action) -> proxy_wasm::types::Action {
    match a {
        Action::Continue => proxy_wasm::types::Action::Continue,
        Action::Pause => proxy_wasm::types::Action::Pause,
    }
}
