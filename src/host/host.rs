//! The seam between the request and response flow (`request`, `response`, `verify`,
//! `api`, `metrics`) and the proxy that runs it: every call the flow makes to its host
//! goes through [`Host`]. Two hosts implement it: the Proxy-Wasm ABI (`wasm/`, the
//! `veil.wasm` filter) and Envoy's dynamic-modules ABI (`native/`, `libveil.so`). The
//! flow is written once, over this trait.

use std::time::{Duration, SystemTime};

use crate::vault::Store;
use crate::verify::Cache;

/// A host call that did not succeed: a status number (never data).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct HostError(pub u32);

pub(crate) type HostResult<T> = Result<T, HostError>;

/// Header maps the flow reads or writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Map {
    RequestHeaders,
    ResponseHeaders,
    ResponseTrailers,
    /// The answer of a verifier call, while it is being handled.
    CallResponseHeaders,
}

/// Bodies the flow reads or writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(clippy::enum_variant_names)] // the names of the ABI's buffers
pub(crate) enum Buffer {
    /// The request body as buffered so far (with the chunk of this callback).
    RequestBody,
    /// The response body: this callback's chunk, or what was buffered with it.
    ResponseBody,
    /// The body of a verifier call's answer, while it is being handled.
    CallResponseBody,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Level {
    Info,
    Warn,
    Error,
    Critical,
}

/// What a callback tells the host: go on, or hold the stream (request headers and
/// trailers: stop iteration; bodies: buffer).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Action {
    Continue,
    Pause,
}

/// Why a verifier call did not start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DispatchError {
    /// The host refused it outright (no such cluster): a configuration error.
    Refused,
    /// It failed as it started (no healthy host, …): may be retried.
    Failed,
}

/// Everything the flow asks of its host, for one request (the host value knows which).
pub(crate) trait Host {
    fn log(&self, level: Level, message: &str);
    /// Writes audit lines (joined by newlines) to the log, in one call or later with
    /// others (the native host's `AuditBatch`); never dropped.
    fn write_audit(&self, lines: String) {
        self.log(Level::Info, &lines);
    }
    /// The host's clock.
    fn now(&self) -> HostResult<SystemTime>;
    /// Every header of a map (names in lower case).
    fn header_pairs(&self, map: Map) -> HostResult<Vec<(String, Vec<u8>)>>;
    fn header(&self, map: Map, name: &str) -> HostResult<Option<Vec<u8>>>;
    /// Sets (`Some`) or removes (`None`) a header.
    fn set_header(&self, map: Map, name: &str, value: Option<&str>) -> HostResult<()>;
    fn add_header(&self, map: Map, name: &str, value: &str) -> HostResult<()>;
    /// Up to `max` bytes of a body from `start`; `None` when there is none.
    fn body(&self, kind: Buffer, start: usize, max: usize) -> HostResult<Option<Vec<u8>>>;
    /// Replaces `size` bytes at `start` of a body with `bytes`.
    fn set_body(&self, kind: Buffer, start: usize, size: usize, bytes: &[u8]) -> HostResult<()>;
    /// Answers the client directly; the request goes no further upstream.
    fn send_response(&self, status: u32, headers: &[(&str, &str)], body: &[u8]) -> HostResult<()>;
    /// Lets a paused response go on.
    fn resume_response(&self) -> HostResult<()>;
    /// Lets a paused request go on.
    fn resume_request(&self) -> HostResult<()>;
    /// Hands the request's audit event to Envoy's access loggers (filter state).
    fn set_audit(&self, line: &[u8]) -> HostResult<()>;
    /// The peer's certificate URI SAN, for `vault.scope: peer`.
    fn peer_identity(&self) -> Option<Vec<u8>>;
    /// The vault's store and the verifier's score cache, shared by the workers.
    fn store(&self) -> &dyn Store;
    fn cache(&self) -> &dyn Cache;
    /// Adds `by` to a counter (its name from [`crate::metrics::Counter::name`]).
    fn increment(&self, name: &str, by: u64);
    /// A counter's value across every worker.
    fn counter(&self, name: &str) -> u64;
    /// Whether the worker has a tick ([`Host::set_tick`]); without one, what would wait
    /// for it is done at once.
    fn has_timer(&self) -> bool;
    /// Asks to be woken (the worker's tick) within `period`.
    fn set_tick(&self, period: Duration);
    /// Wakes this request itself (its verification) after `delay`, if the host can;
    /// `false`: it cannot, and the worker's tick does (Wasm).
    fn wake_after(&self, _delay: Duration) -> bool {
        false
    }
    /// Starts a verifier call; its answer comes back to this request with the id.
    fn dispatch(
        &self,
        cluster: &str,
        headers: &[(&str, &str)],
        body: &[u8],
        timeout: Duration,
    ) -> Result<u32, DispatchError>;
    /// Random bytes (a nonce); `false` if there are none.
    fn random(&self, out: &mut [u8]) -> bool {
        getrandom::getrandom(out).is_ok()
    }
}
