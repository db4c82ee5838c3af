//! A minimal, safe binding for the part of Envoy's dynamic-modules ABI that Veil uses,
//! written from `source/extensions/dynamic_modules/abi.h` of the Envoy release we run
//! (1.40; every callback below is among the binary's exported
//! `envoy_dynamic_module_callback_*` symbols, checked by `tests/e2e/test_native.py`).
//!
//! The callbacks (Envoy's functions) are declared here and wrapped in safe methods of
//! [`Filter`] and [`ConfigHandle`]; the event hooks (our exported functions, which turn
//! Envoy's pointers back into the module's objects and call the safe [`super`] glue)
//! are `hooks.rs`. These two are the only files of the native host with `unsafe`
//! code; each block says why it is sound.
//!
//! Ownership, as the header states it: a configuration object is ours from
//! `on_http_filter_config_new` until `on_http_filter_config_destroy`; a filter object
//! from `on_http_filter_new` until `on_http_filter_destroy`; Envoy's filter pointer is
//! valid until that destroy; buffers Envoy hands out are valid until the end of the
//! event hook (or until a setter is called), so every read copies them at once.
//!
//! Re-entrancy: a callback such as `send_response` can make Envoy run another of this
//! filter's hooks before it returns (the local reply's response headers). The hooks
//! therefore only ever hand out shared references to the filter object; the glue keeps
//! its state in a `RefCell` and a nested hook that finds it borrowed gets its default.

#![allow(unsafe_code)]

use std::ffi::{c_char, c_void};
use std::ptr::{null, null_mut};

/// The ABI version this module was written against: `ENVOY_DYNAMIC_MODULES_ABI_VERSION`
/// of the header, the string the Envoy 1.40 binary compares with (it logs "matched",
/// or a warning on a mismatch and loads the module anyway: a module must be built
/// for the Envoy release it runs in, README; `tests/e2e/test_native.py` checks it).
pub(super) static ABI_VERSION: &[u8] = b"v0.2.0\0";

#[repr(C)]
#[derive(Clone, Copy)]
struct ModuleBuffer {
    ptr: *const c_char,
    length: usize,
}

impl ModuleBuffer {
    fn of(bytes: &[u8]) -> ModuleBuffer {
        ModuleBuffer { ptr: bytes.as_ptr().cast(), length: bytes.len() }
    }

    fn null() -> ModuleBuffer {
        ModuleBuffer { ptr: null(), length: 0 }
    }
}

#[repr(C)]
#[derive(Clone, Copy)]
pub(super) struct EnvoyBuffer {
    pub(super) ptr: *const c_char,
    pub(super) length: usize,
}

impl EnvoyBuffer {
    fn empty() -> EnvoyBuffer {
        EnvoyBuffer { ptr: null(), length: 0 }
    }

    /// Copies the bytes out.
    ///
    /// # Safety
    /// `ptr` is null or points to `length` readable bytes (Envoy's, valid for now).
    pub(super) unsafe fn to_vec(self) -> Vec<u8> {
        if self.ptr.is_null() || self.length == 0 {
            return Vec::new();
        }
        // SAFETY: per this function's contract.
        unsafe { std::slice::from_raw_parts(self.ptr.cast::<u8>(), self.length) }.to_vec()
    }
}

#[repr(C)]
#[derive(Clone, Copy)]
struct ModuleHeader {
    key_ptr: *const c_char,
    key_length: usize,
    value_ptr: *const c_char,
    value_length: usize,
}

impl ModuleHeader {
    /// The pairs as the ABI's header array; it borrows from `headers`, so it must not
    /// outlive them (each caller passes it for the length of one call).
    fn list(headers: &[(&str, &str)]) -> Vec<ModuleHeader> {
        headers
            .iter()
            .map(|(k, v)| ModuleHeader {
                key_ptr: k.as_ptr().cast(),
                key_length: k.len(),
                value_ptr: v.as_ptr().cast(),
                value_length: v.len(),
            })
            .collect()
    }
}

#[repr(C)]
#[derive(Clone, Copy)]
pub(super) struct EnvoyHeader {
    pub(super) key_ptr: *const c_char,
    pub(super) key_length: usize,
    pub(super) value_ptr: *const c_char,
    pub(super) value_length: usize,
}

/// `envoy_dynamic_module_type_http_header_type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u32)]
pub(super) enum HeaderMap {
    RequestHeaders = 0,
    ResponseHeaders = 2,
    ResponseTrailers = 3,
}

/// `envoy_dynamic_module_type_http_body_type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u32)]
pub(super) enum Body {
    ReceivedRequest = 0,
    BufferedRequest = 1,
    ReceivedResponse = 2,
    BufferedResponse = 3,
}

/// `envoy_dynamic_module_type_log_level`.
#[derive(Debug, Clone, Copy)]
#[repr(u32)]
pub(super) enum LogLevel {
    Info = 2,
    Warn = 3,
    Error = 4,
    Critical = 5,
}

/// What a request or response hook tells Envoy (the status enums' `Continue` is 0 in
/// each; headers and trailers `StopIteration` and bodies `StopIterationAndBuffer` are 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Status {
    Continue,
    Stop,
}

impl Status {
    pub(super) fn code(self) -> u32 {
        match self {
            Status::Continue => 0,
            Status::Stop => 1,
        }
    }
}

/// The answer of a callout (`envoy_dynamic_module_type_http_callout_result` 0 is
/// success), its headers and body copied.
pub(super) struct CalloutAnswer {
    pub success: bool,
    pub headers: Vec<(String, Vec<u8>)>,
    pub body: Vec<u8>,
}

/// Why a callout did not start (`envoy_dynamic_module_type_http_callout_init_result`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum CalloutError {
    /// `ClusterNotFound` or `MissingRequiredHeaders`: a configuration error.
    Refused,
    /// `CannotCreateRequest` (no healthy host) and the rest.
    Failed,
}

extern "C" {
    fn envoy_dynamic_module_callback_log(level: u32, message: ModuleBuffer);
    fn envoy_dynamic_module_callback_http_filter_config_define_counter(
        config: *mut c_void,
        name: ModuleBuffer,
        label_names: *mut ModuleBuffer,
        label_names_length: usize,
        counter_id: *mut usize,
    ) -> u32;
    fn envoy_dynamic_module_callback_http_filter_increment_counter(
        filter: *mut c_void,
        id: usize,
        label_values: *mut ModuleBuffer,
        label_values_length: usize,
        value: u64,
    ) -> u32;
    fn envoy_dynamic_module_callback_http_get_header(
        filter: *mut c_void,
        map: u32,
        key: ModuleBuffer,
        result: *mut EnvoyBuffer,
        index: usize,
        optional_size: *mut usize,
    ) -> bool;
    fn envoy_dynamic_module_callback_http_get_headers_size(filter: *mut c_void, map: u32) -> usize;
    fn envoy_dynamic_module_callback_http_get_headers(filter: *mut c_void, map: u32, result: *mut EnvoyHeader) -> bool;
    fn envoy_dynamic_module_callback_http_set_header(
        filter: *mut c_void,
        map: u32,
        key: ModuleBuffer,
        value: ModuleBuffer,
    ) -> bool;
    fn envoy_dynamic_module_callback_http_add_header(
        filter: *mut c_void,
        map: u32,
        key: ModuleBuffer,
        value: ModuleBuffer,
    ) -> bool;
    fn envoy_dynamic_module_callback_http_send_response(
        filter: *mut c_void,
        status: u32,
        headers: *mut ModuleHeader,
        headers_size: usize,
        body: ModuleBuffer,
        details: ModuleBuffer,
    );
    fn envoy_dynamic_module_callback_http_send_response_trailers(
        filter: *mut c_void,
        trailers: *mut ModuleHeader,
        trailers_size: usize,
    );
    fn envoy_dynamic_module_callback_http_get_body_chunks_size(filter: *mut c_void, body: u32) -> usize;
    fn envoy_dynamic_module_callback_http_get_body_chunks(
        filter: *mut c_void,
        body: u32,
        result: *mut EnvoyBuffer,
    ) -> bool;
    fn envoy_dynamic_module_callback_http_get_body_size(filter: *mut c_void, body: u32) -> usize;
    fn envoy_dynamic_module_callback_http_append_body(filter: *mut c_void, body: u32, data: ModuleBuffer) -> bool;
    fn envoy_dynamic_module_callback_http_drain_body(filter: *mut c_void, body: u32, bytes: usize) -> bool;
    fn envoy_dynamic_module_callback_http_received_buffered_request_body(filter: *mut c_void) -> bool;
    fn envoy_dynamic_module_callback_http_received_buffered_response_body(filter: *mut c_void) -> bool;
    fn envoy_dynamic_module_callback_http_set_filter_state_bytes(
        filter: *mut c_void,
        key: ModuleBuffer,
        value: ModuleBuffer,
    ) -> bool;
    fn envoy_dynamic_module_callback_http_filter_continue_decoding(filter: *mut c_void);
    fn envoy_dynamic_module_callback_http_filter_continue_encoding(filter: *mut c_void);
    fn envoy_dynamic_module_callback_http_filter_scheduler_new(filter: *mut c_void) -> *mut c_void;
    fn envoy_dynamic_module_callback_http_filter_scheduler_commit(scheduler: *mut c_void, event_id: u64);
    fn envoy_dynamic_module_callback_http_filter_scheduler_delete(scheduler: *mut c_void);
    fn envoy_dynamic_module_callback_http_filter_get_attribute_string(
        filter: *mut c_void,
        attribute: u32,
        result: *mut EnvoyBuffer,
    ) -> bool;
    fn envoy_dynamic_module_callback_http_filter_http_callout(
        filter: *mut c_void,
        callout_id: *mut u64,
        cluster: ModuleBuffer,
        headers: *mut ModuleHeader,
        headers_size: usize,
        body: ModuleBuffer,
        timeout_ms: u64,
    ) -> u32;
}

pub(super) fn log(level: LogLevel, message: &str) {
    // SAFETY: the buffer describes `message`, borrowed for the call; Envoy copies it.
    unsafe { envoy_dynamic_module_callback_log(level as u32, ModuleBuffer::of(message.as_bytes())) }
}

/// Envoy's filter configuration object, for defining counters while it is made.
pub(super) struct ConfigHandle(pub(super) *mut c_void);

impl ConfigHandle {
    /// Defines a counter without labels; its id, or `None` if Envoy refused it.
    pub(super) fn define_counter(&self, name: &str) -> Option<usize> {
        let mut id: usize = 0;
        // SAFETY: `self.0` is the configuration pointer of the `config_new` hook that
        // made this handle and the handle does not outlive it (`on_config_new` takes it
        // by value and drops it); `name` is borrowed and `id` writable for the call;
        // no labels (null, 0).
        let result = unsafe {
            envoy_dynamic_module_callback_http_filter_config_define_counter(
                self.0,
                ModuleBuffer::of(name.as_bytes()),
                null_mut(),
                0,
                &mut id,
            )
        };
        (result == 0).then_some(id)
    }
}

/// Envoy's filter object of one stream. Valid from `on_http_filter_new` until
/// `on_http_filter_destroy`: the glue keeps it in the stream's own state, dropped at
/// that destroy, and calls it only from that stream's hooks on its worker thread.
#[derive(Debug, Clone, Copy)]
pub(super) struct Filter(pub(super) *mut c_void);

/// Envoy's scheduler for one filter, owned by the module: committed at most once, and
/// deleted when dropped. Envoy posts a committed event to the filter's worker and drops
/// it if the filter is gone by then (its post holds the filter weakly, not the
/// scheduler).
struct Scheduler(*mut c_void);

// SAFETY: the header makes the scheduler for use from any thread ("dispatch HTTP filter
// operations from any thread"); it is moved to at most one other thread, used once and
// deleted there.
unsafe impl Send for Scheduler {}

impl Scheduler {
    /// A scheduler for the live filter `filter`, if Envoy gives one.
    fn new(filter: *mut c_void) -> Option<Scheduler> {
        // SAFETY: live filter pointer; we own the returned scheduler.
        let scheduler = unsafe { envoy_dynamic_module_callback_http_filter_scheduler_new(filter) };
        (!scheduler.is_null()).then_some(Scheduler(scheduler))
    }

    /// Posts `event_id` to the filter's worker; the scheduler is deleted after.
    fn commit(self, event_id: u64) {
        // SAFETY: the scheduler is ours and not deleted yet (`drop` deletes it, after).
        unsafe { envoy_dynamic_module_callback_http_filter_scheduler_commit(self.0, event_id) }
    }
}

impl Drop for Scheduler {
    fn drop(&mut self) {
        // SAFETY: ours, deleted once: only here.
        unsafe { envoy_dynamic_module_callback_http_filter_scheduler_delete(self.0) }
    }
}

impl Filter {
    /// Every header of a map, copied.
    pub(super) fn headers(&self, map: HeaderMap) -> Option<Vec<(String, Vec<u8>)>> {
        // SAFETY: `self.0` is a live filter pointer (see the type).
        let count = unsafe { envoy_dynamic_module_callback_http_get_headers_size(self.0, map as u32) };
        let empty = EnvoyHeader { key_ptr: null(), key_length: 0, value_ptr: null(), value_length: 0 };
        let mut raw = vec![empty; count];
        if count == 0 {
            return Some(Vec::new());
        }
        // SAFETY: `raw` has room for the `count` headers Envoy just reported; nothing ran
        // in between that could change the map.
        if !unsafe { envoy_dynamic_module_callback_http_get_headers(self.0, map as u32, raw.as_mut_ptr()) } {
            return None;
        }
        let pairs = raw
            .iter()
            .map(|h| {
                // SAFETY: Envoy wrote each pair's pointers and lengths; the bytes are valid
                // until a setter is called, and they are copied here at once.
                let (key, value) = unsafe {
                    (
                        EnvoyBuffer { ptr: h.key_ptr, length: h.key_length }.to_vec(),
                        EnvoyBuffer { ptr: h.value_ptr, length: h.value_length }.to_vec(),
                    )
                };
                (String::from_utf8_lossy(&key).into_owned(), value)
            })
            .collect();
        Some(pairs)
    }

    /// The first value of a header.
    pub(super) fn header(&self, map: HeaderMap, name: &str) -> Option<Vec<u8>> {
        let mut out = EnvoyBuffer::empty();
        let mut count: usize = 0;
        // SAFETY: live filter pointer; `name` borrowed; `out` and `count` writable.
        let found = unsafe {
            envoy_dynamic_module_callback_http_get_header(
                self.0,
                map as u32,
                ModuleBuffer::of(name.as_bytes()),
                &mut out,
                0,
                &mut count,
            )
        };
        if !found || count == 0 {
            return None;
        }
        // SAFETY: Envoy wrote `out` for a found value; copied at once.
        Some(unsafe { out.to_vec() })
    }

    /// Sets (`Some`) or removes (`None`: a null value) a header.
    pub(super) fn set_header(&self, map: HeaderMap, name: &str, value: Option<&[u8]>) -> bool {
        let value = value.map_or_else(ModuleBuffer::null, ModuleBuffer::of);
        // SAFETY: live filter pointer; `name` and `value` borrowed; Envoy copies them.
        unsafe {
            envoy_dynamic_module_callback_http_set_header(self.0, map as u32, ModuleBuffer::of(name.as_bytes()), value)
        }
    }

    pub(super) fn add_header(&self, map: HeaderMap, name: &str, value: &[u8]) -> bool {
        // SAFETY: live filter pointer; `name` and `value` borrowed; Envoy copies them.
        unsafe {
            envoy_dynamic_module_callback_http_add_header(
                self.0,
                map as u32,
                ModuleBuffer::of(name.as_bytes()),
                ModuleBuffer::of(value),
            )
        }
    }

    /// A body's bytes, copied (`None`: not available).
    pub(super) fn body(&self, body: Body) -> Option<Vec<u8>> {
        // SAFETY: live filter pointer.
        let chunks = unsafe { envoy_dynamic_module_callback_http_get_body_chunks_size(self.0, body as u32) };
        if chunks == 0 {
            return Some(Vec::new());
        }
        let mut raw = vec![EnvoyBuffer::empty(); chunks];
        // SAFETY: `raw` has room for the `chunks` slices Envoy just reported.
        if !unsafe { envoy_dynamic_module_callback_http_get_body_chunks(self.0, body as u32, raw.as_mut_ptr()) } {
            return None;
        }
        // SAFETY: live filter pointer.
        let size = unsafe { envoy_dynamic_module_callback_http_get_body_size(self.0, body as u32) };
        let mut out = Vec::with_capacity(size);
        for chunk in raw {
            // SAFETY: Envoy wrote each slice; valid until a setter runs; copied at once.
            out.extend_from_slice(&unsafe { chunk.to_vec() });
        }
        Some(out)
    }

    pub(super) fn body_size(&self, body: Body) -> usize {
        // SAFETY: live filter pointer.
        unsafe { envoy_dynamic_module_callback_http_get_body_size(self.0, body as u32) }
    }

    /// Removes the first `bytes` bytes of a body.
    pub(super) fn drain(&self, body: Body, bytes: usize) -> bool {
        // SAFETY: live filter pointer; plain values.
        unsafe { envoy_dynamic_module_callback_http_drain_body(self.0, body as u32, bytes) }
    }

    pub(super) fn append(&self, body: Body, data: &[u8]) -> bool {
        // SAFETY: live filter pointer; `data` borrowed; Envoy copies it.
        unsafe { envoy_dynamic_module_callback_http_append_body(self.0, body as u32, ModuleBuffer::of(data)) }
    }

    /// Whether this callback's received body is the buffered one (a filter before this
    /// one buffered it and let it go on).
    pub(super) fn received_is_buffered(&self, request: bool) -> bool {
        // SAFETY: live filter pointer.
        unsafe {
            if request {
                envoy_dynamic_module_callback_http_received_buffered_request_body(self.0)
            } else {
                envoy_dynamic_module_callback_http_received_buffered_response_body(self.0)
            }
        }
    }

    /// Answers the client directly.
    pub(super) fn send_response(&self, status: u32, headers: &[(&str, &str)], body: &[u8]) {
        let mut raw = ModuleHeader::list(headers);
        // SAFETY: live filter pointer; `raw` points into `headers` and `body`, borrowed
        // for the call (Envoy copies them); no details (a null buffer is allowed).
        unsafe {
            envoy_dynamic_module_callback_http_send_response(
                self.0,
                status,
                raw.as_mut_ptr(),
                raw.len(),
                ModuleBuffer::of(body),
                ModuleBuffer::null(),
            )
        }
    }

    /// Ends the response with these trailers. Envoy runs them down the encoder chain
    /// from its top: this filter's trailer hook answers `Continue`, and Envoy lets the
    /// response body this filter holds go on first (without end of stream), then the
    /// trailers. The one way a dynamic module adds response trailers in 1.40, whose
    /// ABI has no `addEncodedTrailers`; called only outside this filter's hooks.
    pub(super) fn send_trailers(&self, trailers: &[(&str, &str)]) {
        let mut raw = ModuleHeader::list(trailers);
        // SAFETY: live filter pointer; `raw` points into `trailers`, borrowed for the
        // call (Envoy copies them).
        unsafe { envoy_dynamic_module_callback_http_send_response_trailers(self.0, raw.as_mut_ptr(), raw.len()) }
    }

    /// Makes Envoy call `on_http_filter_scheduled` for this filter once the current
    /// callback has returned (Envoy posts the event to this worker's dispatcher).
    pub(super) fn wake_soon(&self, event_id: u64) -> bool {
        Scheduler::new(self.0).map(|scheduler| scheduler.commit(event_id)).is_some()
    }

    pub(super) fn set_filter_state(&self, key: &str, value: &[u8]) -> bool {
        // SAFETY: live filter pointer; `key` and `value` borrowed; Envoy copies them.
        unsafe {
            envoy_dynamic_module_callback_http_set_filter_state_bytes(
                self.0,
                ModuleBuffer::of(key.as_bytes()),
                ModuleBuffer::of(value),
            )
        }
    }

    /// The URI SAN of the peer's certificate (attribute
    /// `connection.uri_san_peer_certificate`, id 37 of `envoy_dynamic_module_type_attribute_id`).
    pub(super) fn peer_uri_san(&self) -> Option<Vec<u8>> {
        const CONNECTION_URI_SAN_PEER_CERTIFICATE: u32 = 37;
        let mut out = EnvoyBuffer::empty();
        // SAFETY: live filter pointer; `out` writable.
        let found = unsafe {
            envoy_dynamic_module_callback_http_filter_get_attribute_string(
                self.0,
                CONNECTION_URI_SAN_PEER_CERTIFICATE,
                &mut out,
            )
        };
        // SAFETY: Envoy wrote `out` for a found attribute; copied at once.
        found.then(|| unsafe { out.to_vec() })
    }

    /// Makes Envoy call `on_http_filter_scheduled` for this filter, on its worker
    /// thread, after `delay` (a filter has no timer: a thread sleeps, then commits the
    /// event through Envoy's scheduler, which is made for other threads). `false` if
    /// Envoy gave no scheduler or no thread could be started.
    pub(super) fn wake_after(&self, delay: std::time::Duration, event_id: u64) -> bool {
        let Some(scheduler) = Scheduler::new(self.0) else { return false };
        // A thread that cannot start drops the scheduler unused: deleted all the same.
        let spawned = std::thread::Builder::new().name("veil-wake".into()).spawn(move || {
            std::thread::sleep(delay);
            scheduler.commit(event_id);
        });
        spawned.is_ok()
    }

    /// Lets a request the filter stopped go on.
    pub(super) fn continue_decoding(&self) {
        // SAFETY: live filter pointer.
        unsafe { envoy_dynamic_module_callback_http_filter_continue_decoding(self.0) }
    }

    /// Lets a response the filter stopped go on.
    pub(super) fn continue_encoding(&self) {
        // SAFETY: live filter pointer.
        unsafe { envoy_dynamic_module_callback_http_filter_continue_encoding(self.0) }
    }

    pub(super) fn increment_counter(&self, id: usize, by: u64) -> bool {
        // SAFETY: live filter pointer; `id` came from this filter's configuration; no
        // labels, as defined.
        unsafe { envoy_dynamic_module_callback_http_filter_increment_counter(self.0, id, null_mut(), 0, by) == 0 }
    }

    /// Starts a callout to `cluster`; the answer comes to `on_http_filter_http_callout_done`.
    pub(super) fn callout(
        &self,
        cluster: &str,
        headers: &[(&str, &str)],
        body: &[u8],
        timeout_ms: u64,
    ) -> Result<u64, CalloutError> {
        let mut raw = ModuleHeader::list(headers);
        let mut id: u64 = 0;
        // SAFETY: live filter pointer; every buffer is borrowed for the call (Envoy
        // copies the request); `id` writable.
        let result = unsafe {
            envoy_dynamic_module_callback_http_filter_http_callout(
                self.0,
                &mut id,
                ModuleBuffer::of(cluster.as_bytes()),
                raw.as_mut_ptr(),
                raw.len(),
                ModuleBuffer::of(body),
                timeout_ms,
            )
        };
        match result {
            0 => Ok(id),
            1 | 2 => Err(CalloutError::Refused),
            _ => Err(CalloutError::Failed),
        }
    }
}
