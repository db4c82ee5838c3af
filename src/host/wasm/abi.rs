//! The Proxy-Wasm ABI calls the filter makes, each returning a [`HostError`] instead of
//! aborting the VM.
//!
//! The SDK's own wrappers (`proxy_wasm::hostcalls` and the trait methods over them)
//! `panic!` on any status they do not expect, and the trait methods `unwrap` the rest:
//! one unexpected answer from Envoy (a buffer that is gone, a header map already sent)
//! would abort the VM and, with it, every request on that worker. Here every call
//! returns a `Result`; the request path maps an error to the policy's failure mode
//! (fail closed by default) and the response path lets the bytes go on as they are.
//!
//! The imports are the ones the Proxy-Wasm ABI 0.2.1 defines (module `env`); statuses
//! are read as plain numbers, so a status this file does not know is an error, never
//! undefined behaviour. This is the only module with `unsafe` code; each block says why
//! it is sound. Verifier calls go through the SDK's `dispatch_http_call`, which must
//! register the call so that the SDK routes its answer back to this context; that one
//! returns its errors too.

#![allow(unsafe_code)]

use std::ptr::{null, null_mut};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// A Proxy-Wasm call that did not succeed: the status Envoy returned (never data).
use crate::host::host::HostError;

type Result<T> = std::result::Result<T, HostError>;

const OK: u32 = 0;
const NOT_FOUND: u32 = 1;
const CAS_MISMATCH: u32 = 8;

/// Header maps (`proxy_*_header_map_*`).
#[derive(Debug, Clone, Copy)]
#[repr(u32)]
pub(super) enum Map {
    RequestHeaders = 0,
    ResponseHeaders = 2,
    ResponseTrailers = 3,
    CallResponseHeaders = 6,
}

/// Buffers (`proxy_get_buffer_bytes`, `proxy_set_buffer_bytes`).
#[derive(Debug, Clone, Copy)]
#[repr(u32)]
pub(super) enum Buffer {
    RequestBody = 0,
    ResponseBody = 1,
    CallResponseBody = 4,
    PluginConfiguration = 7,
}

#[link(wasm_import_module = "env")]
extern "C" {
    fn proxy_log(level: u32, message: *const u8, size: usize) -> u32;
    fn proxy_get_current_time_nanoseconds(time: *mut u64) -> u32;
    fn proxy_set_tick_period_milliseconds(period: u32) -> u32;
    fn proxy_get_buffer_bytes(kind: u32, start: usize, max: usize, data: *mut *mut u8, size: *mut usize) -> u32;
    fn proxy_set_buffer_bytes(kind: u32, start: usize, size: usize, data: *const u8, data_size: usize) -> u32;
    fn proxy_get_header_map_pairs(map: u32, data: *mut *mut u8, size: *mut usize) -> u32;
    fn proxy_get_header_map_value(
        map: u32,
        key: *const u8,
        key_size: usize,
        value: *mut *mut u8,
        value_size: *mut usize,
    ) -> u32;
    fn proxy_replace_header_map_value(
        map: u32,
        key: *const u8,
        key_size: usize,
        value: *const u8,
        value_size: usize,
    ) -> u32;
    fn proxy_add_header_map_value(
        map: u32,
        key: *const u8,
        key_size: usize,
        value: *const u8,
        value_size: usize,
    ) -> u32;
    fn proxy_remove_header_map_value(map: u32, key: *const u8, key_size: usize) -> u32;
    fn proxy_get_property(path: *const u8, path_size: usize, value: *mut *mut u8, value_size: *mut usize) -> u32;
    fn proxy_set_property(path: *const u8, path_size: usize, value: *const u8, value_size: usize) -> u32;
    fn proxy_get_shared_data(
        key: *const u8,
        key_size: usize,
        value: *mut *mut u8,
        value_size: *mut usize,
        cas: *mut u32,
    ) -> u32;
    fn proxy_set_shared_data(key: *const u8, key_size: usize, value: *const u8, value_size: usize, cas: u32) -> u32;
    fn proxy_continue_stream(stream: u32) -> u32;
    fn proxy_send_local_response(
        status: u32,
        details: *const u8,
        details_size: usize,
        body: *const u8,
        body_size: usize,
        headers: *const u8,
        headers_size: usize,
        grpc_status: i32,
    ) -> u32;
    fn proxy_set_effective_context(context: u32) -> u32;
    fn proxy_define_metric(kind: u32, name: *const u8, name_size: usize, id: *mut u32) -> u32;
    fn proxy_increment_metric(id: u32, offset: i64) -> u32;
    fn proxy_get_metric(id: u32, value: *mut u64) -> u32;
}

fn status(code: u32) -> Result<()> {
    if code == OK {
        Ok(())
    } else {
        Err(HostError(code))
    }
}

/// Takes ownership of a buffer the host wrote through the SDK's allocator.
///
/// # Safety
/// `data` is null or was returned by the host for a call that succeeded: it then points
/// to `size` bytes the host obtained from `proxy_on_memory_allocate(size)` (the SDK's
/// allocator, a boxed slice of exactly `size` bytes), which nothing else owns.
unsafe fn take(data: *mut u8, size: usize) -> Option<Vec<u8>> {
    if data.is_null() {
        return None;
    }
    // SAFETY: per this function's contract the allocation holds `size` initialized
    // bytes with capacity `size`, from the global allocator; it becomes this Vec's.
    Some(unsafe { Vec::from_raw_parts(data, size, size) })
}

/// Calls `f` with an out-pointer pair for host-written bytes and returns them: `None`
/// when the host says there are none (`NotFound` or a null buffer).
fn read_out(f: impl FnOnce(*mut *mut u8, *mut usize) -> u32) -> Result<Option<Vec<u8>>> {
    let mut data: *mut u8 = null_mut();
    let mut size: usize = 0;
    match f(&mut data, &mut size) {
        // SAFETY: the call succeeded, so `data`/`size` are what the host wrote (see `take`).
        OK => Ok(unsafe { take(data, size) }),
        NOT_FOUND => Ok(None),
        code => Err(HostError(code)),
    }
}

pub(super) fn log(level: proxy_wasm::types::LogLevel, message: &str) -> Result<()> {
    // SAFETY: the pointer and length describe `message`, borrowed for the call.
    status(unsafe { proxy_log(level as u32, message.as_ptr(), message.len()) })
}

pub(super) fn now() -> Result<SystemTime> {
    let mut nanos: u64 = 0;
    // SAFETY: `nanos` is a valid, writable u64 for the duration of the call.
    status(unsafe { proxy_get_current_time_nanoseconds(&mut nanos) })?;
    Ok(UNIX_EPOCH + Duration::from_nanos(nanos))
}

/// The root context's tick period (one timer per root context).
pub(super) fn set_tick_period(period: Duration) -> Result<()> {
    let ms = u32::try_from(period.as_millis()).unwrap_or(u32::MAX);
    // SAFETY: plain values only.
    status(unsafe { proxy_set_tick_period_milliseconds(ms) })
}

pub(super) fn buffer(kind: Buffer, start: usize, max: usize) -> Result<Option<Vec<u8>>> {
    // SAFETY: the out-pointers are valid for the call (`read_out`).
    read_out(|data, size| unsafe { proxy_get_buffer_bytes(kind as u32, start, max, data, size) })
}

/// Replaces `size` bytes at `start` of a body buffer with `bytes`.
pub(super) fn set_buffer(kind: Buffer, start: usize, size: usize, bytes: &[u8]) -> Result<()> {
    // SAFETY: the pointer and length describe `bytes`, borrowed for the call.
    status(unsafe { proxy_set_buffer_bytes(kind as u32, start, size, bytes.as_ptr(), bytes.len()) })
}

/// Every header of a map, in one call (Envoy keeps names in lower case).
pub(super) fn header_pairs(map: Map) -> Result<Vec<(String, Vec<u8>)>> {
    // SAFETY: the out-pointers are valid for the call (`read_out`).
    let bytes = read_out(|data, size| unsafe { proxy_get_header_map_pairs(map as u32, data, size) })?;
    Ok(bytes.map(|b| decode_pairs(&b)).unwrap_or_default())
}

pub(super) fn header(map: Map, name: &str) -> Result<Option<Vec<u8>>> {
    // SAFETY: `name` is borrowed for the call; the out-pointers are valid (`read_out`).
    read_out(|data, size| unsafe { proxy_get_header_map_value(map as u32, name.as_ptr(), name.len(), data, size) })
}

/// Sets (`Some`) or removes (`None`) a header.
pub(super) fn set_header(map: Map, name: &str, value: Option<&str>) -> Result<()> {
    // SAFETY: `name` and `value` are borrowed for the call.
    status(unsafe {
        match value {
            Some(v) => proxy_replace_header_map_value(map as u32, name.as_ptr(), name.len(), v.as_ptr(), v.len()),
            None => proxy_remove_header_map_value(map as u32, name.as_ptr(), name.len()),
        }
    })
}

pub(super) fn add_header(map: Map, name: &str, value: &str) -> Result<()> {
    // SAFETY: `name` and `value` are borrowed for the call.
    status(unsafe { proxy_add_header_map_value(map as u32, name.as_ptr(), name.len(), value.as_ptr(), value.len()) })
}

/// A property by its path (`["connection", "uri_san_peer_certificate"]`).
pub(super) fn property(path: &[&str]) -> Result<Option<Vec<u8>>> {
    let joined = path.join("\0");
    // SAFETY: `joined` is borrowed for the call; the out-pointers are valid (`read_out`).
    read_out(|data, size| unsafe { proxy_get_property(joined.as_ptr(), joined.len(), data, size) })
}

/// Sets a property of the stream: Envoy keeps `value` as the filter state object
/// `wasm.<name>` of this request (what `%FILTER_STATE(wasm.<name>:PLAIN)%` prints in
/// an access log), replacing an earlier value. Outside a stream Envoy answers
/// `NotFound`, an error like any other.
pub(super) fn set_property(name: &str, value: &[u8]) -> Result<()> {
    // SAFETY: `name` and `value` are borrowed for the call; Envoy copies both.
    status(unsafe { proxy_set_property(name.as_ptr(), name.len(), value.as_ptr(), value.len()) })
}

/// A shared-data value and its CAS (0: none), or `None` when the key is absent.
pub(super) fn shared_data(key: &str) -> Result<Option<(Vec<u8>, u32)>> {
    let mut cas: u32 = 0;
    // SAFETY: `key` is borrowed and `cas` is writable for the call; the out-pointers
    // are valid (`read_out`).
    let value = read_out(|data, size| unsafe { proxy_get_shared_data(key.as_ptr(), key.len(), data, size, &mut cas) })?;
    Ok(value.map(|v| (v, cas)))
}

/// Why a shared-data write did not happen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum SetShared {
    /// Another writer changed the value since it was read.
    CasMismatch,
    Failed(HostError),
}

/// Writes a shared-data value; with `cas` (non-zero), only over that version.
pub(super) fn set_shared_data(key: &str, value: &[u8], cas: Option<u32>) -> std::result::Result<(), SetShared> {
    // SAFETY: `key` and `value` are borrowed for the call.
    let code = unsafe { proxy_set_shared_data(key.as_ptr(), key.len(), value.as_ptr(), value.len(), cas.unwrap_or(0)) };
    match code {
        OK => Ok(()),
        CAS_MISMATCH => Err(SetShared::CasMismatch),
        code => Err(SetShared::Failed(HostError(code))),
    }
}

/// Lets a paused response go on.
pub(super) fn resume_response() -> Result<()> {
    // SAFETY: plain value only (stream type 1: the HTTP response).
    status(unsafe { proxy_continue_stream(1) })
}

/// Lets a paused request go on (its body, and trailers if any, upstream).
pub(super) fn resume_request() -> Result<()> {
    // SAFETY: plain value only (stream type 0: the HTTP request).
    status(unsafe { proxy_continue_stream(0) })
}

/// Answers the client directly; the request goes no further upstream.
pub(super) fn send_response(code: u32, headers: &[(&str, &str)], body: &[u8]) -> Result<()> {
    let headers = encode_pairs(headers);
    // SAFETY: `body` and `headers` are borrowed for the call; no details string.
    status(unsafe {
        proxy_send_local_response(code, null(), 0, body.as_ptr(), body.len(), headers.as_ptr(), headers.len(), -1)
    })
}

/// Makes `context` the one later calls act for (the root acting for a request).
pub(super) fn set_effective_context(context: u32) -> Result<()> {
    // SAFETY: plain value only.
    status(unsafe { proxy_set_effective_context(context) })
}

/// Defines a counter and returns its id.
pub(super) fn define_counter(name: &str) -> Result<u32> {
    let mut id: u32 = 0;
    // SAFETY: `name` is borrowed and `id` writable for the call (metric type 0: counter).
    status(unsafe { proxy_define_metric(0, name.as_ptr(), name.len(), &mut id) })?;
    Ok(id)
}

pub(super) fn increment(id: u32, by: u64) -> Result<()> {
    // SAFETY: plain values only.
    status(unsafe { proxy_increment_metric(id, i64::try_from(by).unwrap_or(i64::MAX)) })
}

/// A counter's value (Envoy's, summed over every worker).
pub(super) fn metric(id: u32) -> Result<u64> {
    let mut value: u64 = 0;
    // SAFETY: `value` is a valid, writable u64 for the duration of the call.
    status(unsafe { proxy_get_metric(id, &mut value) })?;
    Ok(value)
}

/// The ABI's header-map encoding: a count, then each name's and value's length (u32,
/// little endian), then each name and value followed by a NUL.
fn encode_pairs(pairs: &[(&str, &str)]) -> Vec<u8> {
    let size = 4 + pairs.iter().map(|(k, v)| k.len() + v.len() + 10).sum::<usize>();
    let mut out = Vec::with_capacity(size);
    out.extend_from_slice(&(pairs.len() as u32).to_le_bytes());
    for (k, v) in pairs {
        out.extend_from_slice(&(k.len() as u32).to_le_bytes());
        out.extend_from_slice(&(v.len() as u32).to_le_bytes());
    }
    for (k, v) in pairs {
        out.extend_from_slice(k.as_bytes());
        out.push(0);
        out.extend_from_slice(v.as_bytes());
        out.push(0);
    }
    out
}

/// Reads [`encode_pairs`]' format; stops at the first pair that does not fit (a
/// malformed map yields the pairs before it, never a panic).
fn decode_pairs(bytes: &[u8]) -> Vec<(String, Vec<u8>)> {
    let u32_at = |at: usize| -> Option<usize> {
        let b: [u8; 4] = bytes.get(at..at + 4)?.try_into().ok()?;
        Some(u32::from_le_bytes(b) as usize)
    };
    let Some(count) = u32_at(0) else { return Vec::new() };
    let mut pairs = Vec::with_capacity(count.min(256));
    let mut at = 4usize.saturating_add(count.saturating_mul(8));
    for n in 0..count {
        let (Some(k), Some(v)) = (u32_at(4 + n * 8), u32_at(8 + n * 8)) else { break };
        let Some(name) = bytes.get(at..at.saturating_add(k)) else { break };
        at = at.saturating_add(k + 1);
        let Some(value) = bytes.get(at..at.saturating_add(v)) else { break };
        at = at.saturating_add(v + 1);
        pairs.push((String::from_utf8_lossy(name).into_owned(), value.to_vec()));
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_pairs_round_trip() {
        let pairs = [(":path", "/v1/chat"), ("content-type", "application/json"), ("x-empty", "")];
        let decoded = decode_pairs(&encode_pairs(&pairs));
        let expected: Vec<(String, Vec<u8>)> =
            pairs.iter().map(|(k, v)| (k.to_string(), v.as_bytes().to_vec())).collect();
        assert_eq!(decoded, expected);
    }

    #[test]
    fn truncated_maps_yield_what_fits() {
        let full = encode_pairs(&[("a", "1"), ("b", "2")]);
        for cut in 0..full.len() {
            let pairs = decode_pairs(&full[..cut]);
            assert!(pairs.len() <= 2, "cut {cut}");
        }
        assert_eq!(decode_pairs(&full[..full.len() - 2]).len(), 1);
        assert!(decode_pairs(&[0xff, 0xff, 0xff, 0xff]).is_empty());
    }
}
