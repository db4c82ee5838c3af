//! A fake Envoy for the dynamic-modules ABI, test-only: the `envoy_dynamic_module_callback_*`
//! functions `src/host/native/abi.rs` declares, defined over one in-memory stream, and a
//! driver that runs the module's exported hooks the way Envoy's filter manager does
//! (headers, body chunks with `StopIterationAndBuffer` buffering, trailers, a local
//! reply that runs the response hooks nested, `continue_decoding`/`continue_encoding`).
//!
//! Shared by `tests/native_abi/main.rs` (a proptest, in CI) and the cargo-fuzz target
//! `fuzz/fuzz_targets/native_abi.rs` (through `#[path]`); never part of `libveil.so`.
//! Cases come from bytes ([`Case::from_bytes`]), so both read the same input space.
//!
//! Besides recording what would go upstream and downstream, the fake checks the
//! module's side of the ABI: a null pointer with a length, draining more than a body
//! holds, touching a body or map that does not exist, a bad counter id, a scheduler
//! used after its delete — each is a recorded violation, and a case with one fails.

#![allow(unsafe_code, clippy::indexing_slicing)]

use std::cell::RefCell;
use std::ffi::{c_char, c_void};
use std::io::{Read, Write};
use std::sync::{Arc, Mutex};

pub type Headers = Vec<(Vec<u8>, Vec<u8>)>;

#[repr(C)]
#[derive(Clone, Copy)]
pub struct Buf {
    ptr: *const c_char,
    length: usize,
}

impl Buf {
    fn of(bytes: &[u8]) -> Buf {
        Buf { ptr: bytes.as_ptr().cast(), length: bytes.len() }
    }
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct Hdr {
    key_ptr: *const c_char,
    key_length: usize,
    value_ptr: *const c_char,
    value_length: usize,
}

impl Hdr {
    /// A pair as the ABI passes it, borrowing `k` and `v`.
    fn of(k: &[u8], v: &[u8]) -> Hdr {
        Hdr { key_ptr: k.as_ptr().cast(), key_length: k.len(), value_ptr: v.as_ptr().cast(), value_length: v.len() }
    }
}

// ------------------------------- the module's hooks --------------------------------

extern "C" {
    fn envoy_dynamic_module_on_program_init() -> *const c_char;
    fn envoy_dynamic_module_on_http_filter_config_new(
        config_envoy: *mut c_void,
        name: Buf,
        config: Buf,
    ) -> *const c_void;
    fn envoy_dynamic_module_on_http_filter_config_destroy(ptr: *const c_void);
    fn envoy_dynamic_module_on_http_filter_new(config: *const c_void, filter: *mut c_void) -> *const c_void;
    fn envoy_dynamic_module_on_http_filter_destroy(ptr: *const c_void);
    fn envoy_dynamic_module_on_http_filter_request_headers(envoy: *mut c_void, ptr: *const c_void, eos: bool) -> u32;
    fn envoy_dynamic_module_on_http_filter_request_body(envoy: *mut c_void, ptr: *const c_void, eos: bool) -> u32;
    fn envoy_dynamic_module_on_http_filter_request_trailers(envoy: *mut c_void, ptr: *const c_void) -> u32;
    fn envoy_dynamic_module_on_http_filter_response_headers(envoy: *mut c_void, ptr: *const c_void, eos: bool) -> u32;
    fn envoy_dynamic_module_on_http_filter_response_body(envoy: *mut c_void, ptr: *const c_void, eos: bool) -> u32;
    fn envoy_dynamic_module_on_http_filter_stream_complete(envoy: *mut c_void, ptr: *const c_void);
    fn envoy_dynamic_module_on_http_filter_http_callout_done(
        envoy: *mut c_void,
        ptr: *const c_void,
        callout_id: u64,
        result: u32,
        headers: *const Hdr,
        headers_size: usize,
        body_chunks: *const Buf,
        body_chunks_size: usize,
    );
    fn envoy_dynamic_module_on_http_filter_scheduled(envoy: *mut c_void, ptr: *const c_void, event: u64);
    fn envoy_dynamic_module_on_http_filter_local_reply(
        envoy: *mut c_void,
        ptr: *const c_void,
        status: u32,
        details: Buf,
        reset_imminent: bool,
    ) -> u32;
}

// ------------------------------- the fake's state ----------------------------------

/// Envoy's filter configuration object: the counters the module defined.
#[derive(Default)]
struct FakeConfig {
    counters: RefCell<Vec<Vec<u8>>>,
}

/// One direction's body state, as Envoy's filter manager holds it.
#[derive(Default)]
struct BodyState {
    /// The buffered body (`None`: nothing was ever buffered, Envoy has no buffer).
    buffered: Option<Vec<Vec<u8>>>,
    /// The chunk of the running body hook (`None` outside one).
    received: Option<Vec<Vec<u8>>>,
    /// The running body hook's chunk is the buffered body itself.
    received_is_buffered: bool,
}

/// One stream, as Envoy's filter object sees it.
#[derive(Default)]
pub struct Stream {
    /// Header maps by `envoy_dynamic_module_type_http_header_type` (request, request
    /// trailers, response, response trailers).
    maps: [Headers; 4],
    bodies: [BodyState; 2],
    /// The module's filter object (for the hooks a local reply runs nested).
    module: usize,
    config: usize,
    pub local_reply: Option<(u32, Headers, Vec<u8>)>,
    pub callouts: Vec<Vec<u8>>,
    pub counters: Vec<(usize, u64)>,
    pub filter_state: Vec<(Vec<u8>, Vec<u8>)>,
    continue_requested: [bool; 2],
    pub violations: Vec<&'static str>,
    reply_running: bool,
    /// What happens to each callout the module starts, in order (`Case::callouts`).
    plans: Vec<CalloutPlan>,
    /// Started callouts not answered yet.
    pending: Vec<InFlight>,
    /// The driver's clock: one step per hook that returned (`Driver::after_hook`).
    step: u32,
    /// Events committed through this stream's schedulers (from the module's threads),
    /// and how many schedulers the module made.
    events: Arc<Mutex<Vec<u64>>>,
    schedulers: usize,
    delivered_events: usize,
    /// `stream_complete` ran: no local reply may come now.
    ended: bool,
    /// Callouts answered, scheduled events delivered.
    pub answered: usize,
    pub woken: usize,
}

/// A callout Envoy is running for the module.
struct InFlight {
    id: u64,
    /// The step it is answered at (`u32::MAX`: after the stream's end, before destroy).
    due: u32,
    plan: CalloutPlan,
    /// The request the module sent (what answers quote).
    request: Vec<u8>,
}

impl Stream {
    fn body(&mut self, kind: u32) -> Result<&mut Vec<Vec<u8>>, &'static str> {
        let (side, received) = match kind {
            0 => (0, true),
            1 => (0, false),
            2 => (1, true),
            3 => (1, false),
            _ => return Err("unknown body type"),
        };
        let state = &mut self.bodies[side];
        if received && !state.received_is_buffered {
            state.received.as_mut().ok_or("received body outside a body hook")
        } else {
            state.buffered.as_mut().ok_or("no buffered body")
        }
    }
}

/// The stream behind Envoy's filter pointer.
///
/// # Safety
/// `ptr` is a `RefCell<Stream>` that [`run`] keeps alive for the filter's life.
unsafe fn stream<'a>(ptr: *mut c_void) -> &'a RefCell<Stream> {
    // SAFETY: per this function's contract.
    unsafe { &*ptr.cast::<RefCell<Stream>>() }
}

/// The bytes of a module buffer, or a violation for a null pointer with a length.
///
/// # Safety
/// A non-null `b` points to `length` readable bytes for the call (the module's promise).
unsafe fn bytes<'a>(b: Buf, violations: &mut Vec<&'static str>) -> &'a [u8] {
    if b.ptr.is_null() {
        if b.length != 0 {
            violations.push("null buffer with a length");
        }
        return &[];
    }
    // SAFETY: per this function's contract.
    unsafe { std::slice::from_raw_parts(b.ptr.cast::<u8>(), b.length) }
}

fn lower(name: &[u8]) -> Vec<u8> {
    name.to_ascii_lowercase()
}

fn map_index(map: u32, violations: &mut Vec<&'static str>) -> Option<usize> {
    let index = usize::try_from(map).ok().filter(|&m| m < 4);
    if index.is_none() {
        violations.push("unknown header map");
    }
    index
}

// ------------------------------- Envoy's callbacks ---------------------------------

#[no_mangle]
pub extern "C" fn envoy_dynamic_module_callback_log(level: u32, message: Buf) {
    let mut v = Vec::new();
    // SAFETY: the module's buffer, valid for the call.
    let _ = unsafe { bytes(message, &mut v) };
    assert!(v.is_empty() && level <= 6, "bad log call");
}

#[no_mangle]
pub extern "C" fn envoy_dynamic_module_callback_http_filter_config_define_counter(
    config: *mut c_void,
    name: Buf,
    label_names: *mut Buf,
    label_names_length: usize,
    counter_id: *mut usize,
) -> u32 {
    // SAFETY: the `FakeConfig` passed to `config_new`, alive during it.
    let config = unsafe { &*config.cast::<FakeConfig>() };
    let mut v = Vec::new();
    // SAFETY: the module's buffer, valid for the call.
    let name = unsafe { bytes(name, &mut v) }.to_vec();
    assert!(v.is_empty() && (label_names_length == 0 || !label_names.is_null()) && !counter_id.is_null());
    let mut counters = config.counters.borrow_mut();
    counters.push(name);
    // SAFETY: checked non-null; the module's writable `usize`.
    unsafe { *counter_id = counters.len() - 1 };
    0
}

#[no_mangle]
pub extern "C" fn envoy_dynamic_module_callback_http_filter_increment_counter(
    filter: *mut c_void,
    id: usize,
    _label_values: *mut Buf,
    label_values_length: usize,
    value: u64,
) -> u32 {
    // SAFETY: Envoy's filter pointer is the stream `run` keeps alive.
    let mut s = unsafe { stream(filter) }.borrow_mut();
    // SAFETY: the configuration outlives its filters.
    let defined = unsafe { &*(s.config as *const FakeConfig) }.counters.borrow().len();
    if id >= defined || label_values_length != 0 {
        s.violations.push("undefined counter");
        return 1;
    }
    s.counters.push((id, value));
    0
}

#[no_mangle]
pub extern "C" fn envoy_dynamic_module_callback_http_get_header(
    filter: *mut c_void,
    map: u32,
    key: Buf,
    result: *mut Buf,
    index: usize,
    optional_size: *mut usize,
) -> bool {
    // SAFETY: Envoy's filter pointer is the stream `run` keeps alive.
    let mut s = unsafe { stream(filter) }.borrow_mut();
    let s = &mut *s;
    // SAFETY: the module's buffer, valid for the call.
    let key = lower(unsafe { bytes(key, &mut s.violations) });
    let Some(m) = map_index(map, &mut s.violations) else { return false };
    let values: Vec<&Vec<u8>> = s.maps[m].iter().filter(|(k, _)| lower(k) == key).map(|(_, v)| v).collect();
    if !optional_size.is_null() {
        // SAFETY: the module's writable `usize`.
        unsafe { *optional_size = values.len() };
    }
    match values.get(index) {
        Some(value) if !result.is_null() => {
            // SAFETY: the module's writable buffer; the value stays put until a setter.
            unsafe { *result = Buf::of(value) };
            true
        }
        _ => false,
    }
}

#[no_mangle]
pub extern "C" fn envoy_dynamic_module_callback_http_get_headers_size(filter: *mut c_void, map: u32) -> usize {
    // SAFETY: Envoy's filter pointer is the stream `run` keeps alive.
    let mut s = unsafe { stream(filter) }.borrow_mut();
    let s = &mut *s;
    map_index(map, &mut s.violations).map_or(0, |m| s.maps[m].len())
}

#[no_mangle]
pub extern "C" fn envoy_dynamic_module_callback_http_get_headers(
    filter: *mut c_void,
    map: u32,
    result: *mut Hdr,
) -> bool {
    // SAFETY: Envoy's filter pointer is the stream `run` keeps alive.
    let mut s = unsafe { stream(filter) }.borrow_mut();
    let s = &mut *s;
    let Some(m) = map_index(map, &mut s.violations) else { return false };
    if result.is_null() {
        s.violations.push("null header array");
        return false;
    }
    for (i, (k, v)) in s.maps[m].iter().enumerate() {
        let h = Hdr::of(k, v);
        // SAFETY: the module sized the array with `get_headers_size` just before.
        unsafe { result.add(i).write(h) };
    }
    true
}

fn set_or_add(filter: *mut c_void, map: u32, key: Buf, value: Buf, add: bool) -> bool {
    // SAFETY: Envoy's filter pointer is the stream `run` keeps alive.
    let mut s = unsafe { stream(filter) }.borrow_mut();
    let s = &mut *s;
    // SAFETY: the module's buffers, valid for the call.
    let key = unsafe { bytes(key, &mut s.violations) }.to_vec();
    let null_value = value.ptr.is_null();
    // SAFETY: as above.
    let value = unsafe { bytes(value, &mut s.violations) }.to_vec();
    let Some(m) = map_index(map, &mut s.violations) else { return false };
    let headers = &mut s.maps[m];
    let lowered = lower(&key);
    if add {
        if null_value {
            s.violations.push("add_header with a null value");
            return false;
        }
        headers.push((lowered, value));
        return true;
    }
    let before = headers.len();
    headers.retain(|(k, _)| lower(k) != lowered);
    if null_value {
        // Removing a header that is not there: Envoy answers false.
        return headers.len() != before;
    }
    headers.push((lowered, value));
    true
}

#[no_mangle]
pub extern "C" fn envoy_dynamic_module_callback_http_set_header(
    filter: *mut c_void,
    map: u32,
    key: Buf,
    value: Buf,
) -> bool {
    set_or_add(filter, map, key, value, false)
}

#[no_mangle]
pub extern "C" fn envoy_dynamic_module_callback_http_add_header(
    filter: *mut c_void,
    map: u32,
    key: Buf,
    value: Buf,
) -> bool {
    set_or_add(filter, map, key, value, true)
}

/// A local reply: recorded, then, as Envoy's filter manager does, the reply's headers
/// and body run through this filter's response hooks — nested inside the module's call.
#[no_mangle]
pub extern "C" fn envoy_dynamic_module_callback_http_send_response(
    filter: *mut c_void,
    status: u32,
    headers: *mut Hdr,
    headers_size: usize,
    body: Buf,
    details: Buf,
) {
    // SAFETY: Envoy's filter pointer is the stream `run` keeps alive.
    let cell = unsafe { stream(filter) };
    let (module, body) = {
        let mut s = cell.borrow_mut();
        let s = &mut *s;
        if s.local_reply.is_some() || s.reply_running {
            s.violations.push("a second local reply");
            return;
        }
        if s.ended {
            s.violations.push("a local reply after the stream ended");
            return;
        }
        let mut pairs = Headers::new();
        if headers_size > 0 {
            if headers.is_null() {
                s.violations.push("null reply headers");
                return;
            }
            // SAFETY: the module passes `headers_size` headers, valid for the call.
            for h in unsafe { std::slice::from_raw_parts(headers, headers_size) } {
                // SAFETY: each pair's bytes are the module's, valid for the call.
                let (k, v) = unsafe {
                    (
                        bytes(Buf { ptr: h.key_ptr, length: h.key_length }, &mut s.violations).to_vec(),
                        bytes(Buf { ptr: h.value_ptr, length: h.value_length }, &mut s.violations).to_vec(),
                    )
                };
                pairs.push((lower(&k), v));
            }
        }
        // SAFETY: the module's buffers, valid for the call.
        let body = unsafe { bytes(body, &mut s.violations) }.to_vec();
        // SAFETY: as above.
        let _ = unsafe { bytes(details, &mut s.violations) };
        let mut response = vec![(b":status".to_vec(), status.to_string().into_bytes())];
        response.extend(pairs.iter().cloned());
        s.maps[2] = response;
        s.local_reply = Some((status, pairs, body.clone()));
        s.reply_running = true;
        (s.module as *const c_void, body)
    };
    // SAFETY: the module's live filter object; no borrow of the stream is held.
    unsafe {
        envoy_dynamic_module_on_http_filter_local_reply(filter, module, status, Buf::of(b""), false);
        envoy_dynamic_module_on_http_filter_response_headers(filter, module, body.is_empty());
    }
    if !body.is_empty() {
        let saved = {
            let mut s = cell.borrow_mut();
            let side = &mut s.bodies[1];
            (side.received.replace(vec![body]), std::mem::take(&mut side.received_is_buffered))
        };
        // SAFETY: as above.
        unsafe { envoy_dynamic_module_on_http_filter_response_body(filter, module, true) };
        let mut s = cell.borrow_mut();
        let side = &mut s.bodies[1];
        side.received = saved.0;
        side.received_is_buffered = saved.1;
    }
    cell.borrow_mut().reply_running = false;
}

#[no_mangle]
pub extern "C" fn envoy_dynamic_module_callback_http_get_body_chunks_size(filter: *mut c_void, body: u32) -> usize {
    // SAFETY: Envoy's filter pointer is the stream `run` keeps alive.
    let mut s = unsafe { stream(filter) }.borrow_mut();
    s.body(body).map_or(0, |chunks| chunks.len())
}

#[no_mangle]
pub extern "C" fn envoy_dynamic_module_callback_http_get_body_chunks(
    filter: *mut c_void,
    body: u32,
    result: *mut Buf,
) -> bool {
    // SAFETY: Envoy's filter pointer is the stream `run` keeps alive.
    let mut s = unsafe { stream(filter) }.borrow_mut();
    let Ok(chunks) = s.body(body) else { return false };
    let out: Vec<Buf> = chunks.iter().map(|c| Buf::of(c)).collect();
    if result.is_null() && !out.is_empty() {
        s.violations.push("null chunk array");
        return false;
    }
    for (i, b) in out.into_iter().enumerate() {
        // SAFETY: the module sized the array with `get_body_chunks_size` just before.
        unsafe { result.add(i).write(b) };
    }
    true
}

#[no_mangle]
pub extern "C" fn envoy_dynamic_module_callback_http_get_body_size(filter: *mut c_void, body: u32) -> usize {
    // SAFETY: Envoy's filter pointer is the stream `run` keeps alive.
    let mut s = unsafe { stream(filter) }.borrow_mut();
    s.body(body).map_or(0, |chunks| chunks.iter().map(Vec::len).sum())
}

#[no_mangle]
pub extern "C" fn envoy_dynamic_module_callback_http_append_body(filter: *mut c_void, body: u32, data: Buf) -> bool {
    // SAFETY: Envoy's filter pointer is the stream `run` keeps alive.
    let mut s = unsafe { stream(filter) }.borrow_mut();
    let mut v = Vec::new();
    // SAFETY: the module's buffer, valid for the call.
    let data = unsafe { bytes(data, &mut v) }.to_vec();
    s.violations.extend(v);
    match s.body(body) {
        Ok(chunks) => {
            chunks.push(data);
            true
        }
        Err(_) => false,
    }
}

#[no_mangle]
pub extern "C" fn envoy_dynamic_module_callback_http_drain_body(filter: *mut c_void, body: u32, bytes: usize) -> bool {
    // SAFETY: Envoy's filter pointer is the stream `run` keeps alive.
    let mut s = unsafe { stream(filter) }.borrow_mut();
    let Ok(chunks) = s.body(body) else { return false };
    let size: usize = chunks.iter().map(Vec::len).sum();
    if bytes > size {
        s.violations.push("drained more than the body holds");
        return false;
    }
    let mut left = bytes;
    while left > 0 {
        let first = &mut chunks[0];
        if first.len() <= left {
            left -= first.len();
            chunks.remove(0);
        } else {
            first.drain(..left);
            left = 0;
        }
    }
    true
}

fn received_is_buffered(filter: *mut c_void, side: usize) -> bool {
    // SAFETY: Envoy's filter pointer is the stream `run` keeps alive.
    unsafe { stream(filter) }.borrow().bodies[side].received_is_buffered
}

#[no_mangle]
pub extern "C" fn envoy_dynamic_module_callback_http_received_buffered_request_body(filter: *mut c_void) -> bool {
    received_is_buffered(filter, 0)
}

#[no_mangle]
pub extern "C" fn envoy_dynamic_module_callback_http_received_buffered_response_body(filter: *mut c_void) -> bool {
    received_is_buffered(filter, 1)
}

#[no_mangle]
pub extern "C" fn envoy_dynamic_module_callback_http_set_filter_state_bytes(
    filter: *mut c_void,
    key: Buf,
    value: Buf,
) -> bool {
    // SAFETY: Envoy's filter pointer is the stream `run` keeps alive.
    let mut s = unsafe { stream(filter) }.borrow_mut();
    let s = &mut *s;
    // SAFETY: the module's buffers, valid for the call.
    let pair = unsafe { (bytes(key, &mut s.violations).to_vec(), bytes(value, &mut s.violations).to_vec()) };
    s.filter_state.push(pair);
    true
}

#[no_mangle]
pub extern "C" fn envoy_dynamic_module_callback_http_filter_continue_decoding(filter: *mut c_void) {
    // SAFETY: Envoy's filter pointer is the stream `run` keeps alive.
    unsafe { stream(filter) }.borrow_mut().continue_requested[0] = true;
}

/// Trailers that end the response: recorded in the response-trailer map, and, as
/// Envoy does, the response body the filter held goes on before them.
#[no_mangle]
pub extern "C" fn envoy_dynamic_module_callback_http_send_response_trailers(
    filter: *mut c_void,
    trailers: *mut Hdr,
    trailers_size: usize,
) {
    // SAFETY: Envoy's filter pointer is the stream `run` keeps alive.
    let cell = unsafe { stream(filter) };
    let mut s = cell.borrow_mut();
    let s = &mut *s;
    if s.ended {
        s.violations.push("trailers after the stream ended");
        return;
    }
    if trailers_size > 0 && trailers.is_null() {
        s.violations.push("null trailers");
        return;
    }
    let mut pairs = Headers::new();
    if trailers_size > 0 {
        // SAFETY: the module passes `trailers_size` pairs, valid for the call.
        for h in unsafe { std::slice::from_raw_parts(trailers, trailers_size) } {
            // SAFETY: each pair's bytes are the module's, valid for the call.
            let (k, v) = unsafe {
                (
                    bytes(Buf { ptr: h.key_ptr, length: h.key_length }, &mut s.violations).to_vec(),
                    bytes(Buf { ptr: h.value_ptr, length: h.value_length }, &mut s.violations).to_vec(),
                )
            };
            pairs.push((lower(&k), v));
        }
    }
    s.maps[3].extend(pairs);
    s.continue_requested[1] = true;
}

#[no_mangle]
pub extern "C" fn envoy_dynamic_module_callback_http_filter_continue_encoding(filter: *mut c_void) {
    // SAFETY: Envoy's filter pointer is the stream `run` keeps alive.
    unsafe { stream(filter) }.borrow_mut().continue_requested[1] = true;
}

/// A scheduler: usable from any thread until the module deletes it; what it commits
/// reaches the stream's queue, which the driver delivers on the stream's "worker"
/// (between hooks) while the filter lives, and drops after its destroy, as Envoy does.
struct FakeScheduler {
    events: Arc<Mutex<Vec<u64>>>,
}

#[no_mangle]
pub extern "C" fn envoy_dynamic_module_callback_http_filter_scheduler_new(filter: *mut c_void) -> *mut c_void {
    // SAFETY: Envoy's filter pointer is the stream `run` keeps alive.
    let mut s = unsafe { stream(filter) }.borrow_mut();
    s.schedulers += 1;
    let scheduler = FakeScheduler { events: Arc::clone(&s.events) };
    Box::into_raw(Box::new(scheduler)).cast()
}

#[no_mangle]
pub extern "C" fn envoy_dynamic_module_callback_http_filter_scheduler_commit(scheduler: *mut c_void, event: u64) {
    assert!(!scheduler.is_null(), "commit on a null scheduler");
    // SAFETY: a scheduler this fake made and the module has not deleted (its promise).
    let scheduler = unsafe { &*scheduler.cast::<FakeScheduler>() };
    scheduler.events.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(event);
}

#[no_mangle]
pub extern "C" fn envoy_dynamic_module_callback_http_filter_scheduler_delete(scheduler: *mut c_void) {
    assert!(!scheduler.is_null(), "delete of a null scheduler");
    // SAFETY: made by `scheduler_new` with `Box::into_raw`, deleted once (the module's promise).
    drop(unsafe { Box::from_raw(scheduler.cast::<FakeScheduler>()) });
}

#[no_mangle]
pub extern "C" fn envoy_dynamic_module_callback_http_filter_get_attribute_string(
    _filter: *mut c_void,
    _attribute: u32,
    _result: *mut Buf,
) -> bool {
    false
}

/// Callouts are recorded; each starts or not as the case's plan for it says (none
/// past the plan starts: `CannotCreateRequest`), and a started one is answered later
/// by the driver (`Driver::deliver`), or cancelled by the filter's destroy.
#[no_mangle]
pub extern "C" fn envoy_dynamic_module_callback_http_filter_http_callout(
    filter: *mut c_void,
    callout_id: *mut u64,
    cluster: Buf,
    headers: *mut Hdr,
    headers_size: usize,
    body: Buf,
    _timeout_ms: u64,
) -> u32 {
    // SAFETY: Envoy's filter pointer is the stream `run` keeps alive.
    let mut s = unsafe { stream(filter) }.borrow_mut();
    let s = &mut *s;
    if callout_id.is_null() || (headers.is_null() && headers_size > 0) {
        s.violations.push("bad callout arguments");
        return 3;
    }
    // SAFETY: the module's buffers, valid for the call.
    let cluster = unsafe { bytes(cluster, &mut s.violations) }.to_vec();
    // SAFETY: as above.
    let request = unsafe { bytes(body, &mut s.violations) }.to_vec();
    s.callouts.push(cluster);
    let plan = s.plans.get(s.callouts.len() - 1).cloned().unwrap_or_default();
    match plan.start {
        Start::Started => {
            let id = s.callouts.len() as u64;
            // SAFETY: checked non-null; the module's writable `u64`.
            unsafe { *callout_id = id };
            let due = match plan.when {
                When::Steps(n) => s.step.saturating_add(u32::from(n)),
                When::AfterEnd => u32::MAX,
            };
            s.pending.push(InFlight { id, due, plan, request });
            0
        }
        Start::Refused => 1,
        Start::Failed => 3,
    }
}

// ------------------------------- the module, loaded --------------------------------

/// The module with one filter configuration (made in `new`, destroyed on drop).
pub struct Module {
    config: *const c_void,
    envoy_config: Box<FakeConfig>,
}

impl Module {
    /// Program init and one filter configuration; `None` if the module refused it.
    pub fn new(policy: &[u8]) -> Option<Module> {
        // SAFETY: the module's hook; it answers a static NUL-terminated string.
        let version = unsafe { std::ffi::CStr::from_ptr(envoy_dynamic_module_on_program_init()) };
        assert!(version.to_bytes().starts_with(b"v"), "ABI version string");
        let envoy_config = Box::<FakeConfig>::default();
        let ptr: *const FakeConfig = &*envoy_config;
        // SAFETY: both buffers are valid for the call; the configuration object lives
        // in `envoy_config` for as long as the module's configuration.
        let config = unsafe {
            envoy_dynamic_module_on_http_filter_config_new(ptr.cast_mut().cast(), Buf::of(b"veil"), Buf::of(policy))
        };
        (!config.is_null()).then_some(Module { config, envoy_config })
    }

    /// Counters the configuration defined.
    pub fn counters(&self) -> usize {
        self.envoy_config.counters.borrow().len()
    }
}

impl Drop for Module {
    fn drop(&mut self) {
        // SAFETY: the module's configuration, destroyed once, after all its filters.
        unsafe { envoy_dynamic_module_on_http_filter_config_destroy(self.config) }
    }
}

// ------------------------------- one case ------------------------------------------

/// How a body reaches the filter: cut points (positions in the body) between body
/// hooks and between the slices of one hook's chunk, hooks with no data inserted, or
/// the whole body as one buffered body (a filter before this one buffered it).
#[derive(Debug, Clone, Default)]
pub struct Cuts {
    pub hooks: Vec<usize>,
    pub slices: Vec<usize>,
    pub empty_hooks: Vec<usize>,
    pub as_buffered: bool,
}

impl Cuts {
    /// The body's hook calls, each a list of slices.
    pub fn split(&self, body: &[u8]) -> Vec<Vec<Vec<u8>>> {
        let mut bounds: Vec<usize> = self.hooks.iter().map(|c| c % (body.len() + 1)).collect();
        bounds.extend([0, body.len()]);
        bounds.sort_unstable();
        bounds.dedup();
        let mut calls: Vec<Vec<Vec<u8>>> = Vec::new();
        for w in bounds.windows(2) {
            let mut cuts: Vec<usize> =
                self.slices.iter().map(|c| c % (body.len() + 1)).filter(|c| *c > w[0] && *c < w[1]).collect();
            cuts.extend([w[0], w[1]]);
            cuts.sort_unstable();
            cuts.dedup();
            calls.push(cuts.windows(2).map(|s| body[s[0]..s[1]].to_vec()).collect());
        }
        for &at in &self.empty_hooks {
            let at = at % (calls.len() + 1);
            calls.insert(at, if at % 2 == 0 { Vec::new() } else { vec![Vec::new()] });
        }
        calls
    }
}

/// A piece of the response the fake upstream sends: bytes, or the seed's token the
/// module put in the request it forwarded (nothing if it forwarded none).
#[derive(Debug, Clone)]
pub enum Piece {
    Bytes(Vec<u8>),
    Token,
}

/// Whether a callout starts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Start {
    Started,
    /// `ClusterNotFound`: a configuration error.
    Refused,
    /// `CannotCreateRequest` (no healthy host).
    #[default]
    Failed,
}

/// When a started callout is answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum When {
    /// After this many more hooks returned (0: at the next one); while the stream waits
    /// with nothing else to run, the driver moves on to it.
    Steps(u8),
    /// After the stream's end, before its destroy (a callout the destroy would cancel,
    /// answered in the gap).
    AfterEnd,
}

/// What comes back.
#[derive(Debug, Clone)]
pub enum Reply {
    /// Arbitrary bytes.
    Raw(Vec<u8>),
    /// A chat completion whose content proposes a span: a slice (`from`, `len`) of
    /// what the callout asked about (its last message's text) with a category (the
    /// model stage's answer).
    Span { from: u16, len: u8, category: u8 },
    /// A chat completion whose content lists a claim: a slice of what the callout
    /// asked about (the verifier's extraction answer).
    Claims { from: u16, len: u8 },
    /// A chat completion whose content scores a claim (the verifier's answer).
    Score(u8),
}

/// What the fake Envoy does with one callout.
#[derive(Debug, Clone)]
pub struct CalloutPlan {
    pub start: Start,
    pub when: When,
    /// `envoy_dynamic_module_type_http_callout_result`: 0 success; 1 reset (Envoy's
    /// timeout is one); 2 the answer exceeded the buffer limit.
    pub result: u32,
    pub status: Vec<u8>,
    pub reply: Reply,
}

impl Default for CalloutPlan {
    fn default() -> CalloutPlan {
        CalloutPlan {
            start: Start::Failed,
            when: When::Steps(0),
            result: 1,
            status: Vec::new(),
            reply: Reply::Score(0),
        }
    }
}

const CATEGORIES: [&str; 5] = ["PERSON", "ADDRESS", "ORGANIZATION", "EMAIL", "nonsense"];

impl CalloutPlan {
    /// The answer's headers and body.
    fn answer(&self, request: &[u8]) -> (Headers, Vec<u8>) {
        let headers =
            vec![(b":status".to_vec(), self.status.clone()), (b"content-type".to_vec(), b"application/json".to_vec())];
        let chat = |content: String| {
            serde_json::json!({"choices": [{"index": 0, "message": {"role": "assistant", "content": content}}]})
                .to_string()
                .into_bytes()
        };
        // What the module asked about: the last message's text after its instructions
        // (up to a blank line, when the instructions share the message), else the body.
        let asked = serde_json::from_slice::<serde_json::Value>(request)
            .ok()
            .and_then(|v| {
                let text = v.pointer("/messages")?.as_array()?.last()?.get("content")?.as_str()?;
                Some(text.rsplit_once("\n\n").map_or(text, |(_, input)| input).as_bytes().to_vec())
            })
            .unwrap_or_else(|| request.to_vec());
        let slice = |from: u16, len: u8| {
            let from = usize::from(from) % (asked.len() + 1);
            let to = (from + usize::from(len)).min(asked.len());
            String::from_utf8_lossy(&asked[from..to]).into_owned()
        };
        let body = match &self.reply {
            Reply::Raw(bytes) => bytes.clone(),
            Reply::Span { from, len, category } => {
                let category = CATEGORIES[usize::from(*category) % CATEGORIES.len()];
                chat(serde_json::json!({"spans": [{"text": slice(*from, *len), "category": category}]}).to_string())
            }
            Reply::Claims { from, len } => {
                chat(serde_json::json!({"claims": [{"text": slice(*from, *len)}]}).to_string())
            }
            Reply::Score(score) => chat(format!(r#"{{"score": {score}, "reasoning": "r"}}"#)),
        };
        (headers, body)
    }

    /// A plan from fuzzer bytes.
    pub fn from_bytes(b: &mut Bytes<'_>) -> CalloutPlan {
        let start = match b.u8() % 8 {
            0 => Start::Refused,
            1 => Start::Failed,
            _ => Start::Started,
        };
        let when = match b.u8() % 16 {
            0 => When::AfterEnd,
            n => When::Steps(n % 6),
        };
        let result = match b.u8() % 8 {
            0 => 1,
            1 => 2,
            _ => 0,
        };
        let status = match b.u8() % 8 {
            0 => b"500".to_vec(),
            1 => b"429".to_vec(),
            2 => b.raw(4),
            _ => b"200".to_vec(),
        };
        let reply = match b.u8() % 6 {
            0 => Reply::Raw(b.raw(80)),
            1 | 2 => Reply::Score(b.u8()),
            3 => Reply::Claims { from: b.u16(), len: b.u8() },
            _ => Reply::Span { from: b.u16(), len: b.u8() % 40, category: b.u8() },
        };
        CalloutPlan { start, when, result, status, reply }
    }
}

/// The policies a case runs under (`Case::policy`): the default, and two that make
/// callouts — the model stage and claim verification, retries woken after a
/// millisecond through the scheduler: one refusing the request when the model fails
/// and annotating nothing in the body (counts only: the client gets the upstream's
/// bytes), one going on with the rules' redaction and marking doubtful claims inline
/// (the client gets the upstream's bytes with text inserted: [`ANNOTATES`]).
pub const POLICIES: [&[u8]; 3] = [
    b"",
    br#"{"detectors":{"model":{"enabled":true,"on_failure":"block","budget_ms":1000}},
        "verification":{"enabled":true,"annotate":"headers","min_chars":1,"retries":2,
        "retry_backoff_ms":1,"retry_backoff_max_ms":1,"concurrency":2,"max_claims":3,
        "budget_ms":60000,"call_timeout_ms":1000}}"#,
    br#"{"detectors":{"model":{"enabled":true,"on_failure":"rules_only","budget_ms":1000}},
        "verification":{"enabled":true,"annotate":"inline","min_chars":1,"retries":1,
        "retry_backoff_ms":1,"retry_backoff_max_ms":1,"concurrency":1,"max_claims":2,
        "budget_ms":60000,"call_timeout_ms":1000}}"#,
];

/// Whether a policy of [`POLICIES`] inserts text in the response body.
const ANNOTATES: [bool; 3] = [false, false, true];

#[derive(Debug, Clone, Default)]
pub struct Case {
    pub request_headers: Headers,
    pub request_body: Vec<u8>,
    pub request_cuts: Cuts,
    pub request_trailers: Option<Headers>,
    pub response_headers: Headers,
    pub response_body: Vec<Piece>,
    pub response_cuts: Cuts,
    /// The synthetic value seeded in the request body (never to go upstream).
    pub seed: Vec<u8>,
    /// Which of [`POLICIES`] the case runs under.
    pub policy: usize,
    /// What happens to the module's callouts, in order (none past these starts).
    pub callouts: Vec<CalloutPlan>,
    /// The client goes away while the stream waits with nothing more to send: the
    /// stream ends (and answers planned for after its end come) without waiting.
    pub abandon: bool,
}

/// What went where.
#[derive(Debug, Default)]
pub struct Outcome {
    pub upstream_headers: Option<Headers>,
    pub upstream_body: Vec<u8>,
    pub request_complete: bool,
    pub local_reply: Option<(u32, Headers, Vec<u8>)>,
    /// The response the fake upstream sent (tokens filled in), if it was asked.
    pub response_sent: Option<Vec<u8>>,
    pub downstream_headers: Option<Headers>,
    pub downstream_body: Vec<u8>,
    /// The response trailers the module sent (`send_response_trailers`).
    pub downstream_trailers: Headers,
    pub response_complete: bool,
    pub response_local_reply: bool,
    pub token: Vec<u8>,
    pub callouts: usize,
    /// Callouts answered and scheduled events delivered, while the filter lived.
    pub answered: usize,
    pub woken: usize,
    pub violations: Vec<&'static str>,
}

/// One direction through the filter, as Envoy's filter manager runs it.
struct Direction {
    side: usize,
    map: usize,
    headers_hook: unsafe extern "C" fn(*mut c_void, *const c_void, bool) -> u32,
    body_hook: unsafe extern "C" fn(*mut c_void, *const c_void, bool) -> u32,
}

const REQUEST: Direction = Direction {
    side: 0,
    map: 0,
    headers_hook: envoy_dynamic_module_on_http_filter_request_headers,
    body_hook: envoy_dynamic_module_on_http_filter_request_body,
};
const RESPONSE: Direction = Direction {
    side: 1,
    map: 2,
    headers_hook: envoy_dynamic_module_on_http_filter_response_headers,
    body_hook: envoy_dynamic_module_on_http_filter_response_body,
};

/// What one direction let through.
#[derive(Default)]
struct Passed {
    headers: Option<Headers>,
    body: Vec<u8>,
    stopped: bool,
    replied: bool,
}

struct Driver<'a> {
    cell: &'a RefCell<Stream>,
    envoy: *mut c_void,
    module: *const c_void,
    abandon: bool,
}

impl Driver<'_> {
    /// Iteration goes on past the filter: the headers (once) and the buffered body.
    fn release(&self, d: &Direction, passed: &mut Passed) {
        let mut s = self.cell.borrow_mut();
        if passed.headers.is_none() {
            passed.headers = Some(s.maps[d.map].clone());
        }
        if let Some(buffered) = s.bodies[d.side].buffered.as_mut() {
            passed.body.extend(buffered.drain(..).flatten());
        }
        passed.stopped = false;
    }

    /// After each hook: the clock moves and what is due runs (callout answers, wake-ups);
    /// then a reply ends the direction; a continue asked for goes on.
    fn after_hook(&self, d: &Direction, passed: &mut Passed) -> bool {
        self.cell.borrow_mut().step += 1;
        self.deliver(false);
        let (replied, resume) = {
            let mut s = self.cell.borrow_mut();
            (s.local_reply.is_some(), std::mem::take(&mut s.continue_requested[d.side]))
        };
        if replied {
            passed.replied = true;
            return false;
        }
        if resume && passed.stopped {
            self.release(d, passed);
        }
        true
    }

    /// Answers the callouts that are due (with `end`, those planned for after the
    /// stream's end) and delivers the committed wake-ups, each as its own event.
    fn deliver(&self, end: bool) {
        loop {
            let next = {
                let mut s = self.cell.borrow_mut();
                let step = s.step;
                let at = s.pending.iter().position(|p| if end { p.due == u32::MAX } else { p.due <= step });
                at.map(|i| s.pending.remove(i))
            };
            if let Some(call) = next {
                self.answer(&call);
                continue;
            }
            let event = {
                let mut s = self.cell.borrow_mut();
                let events = Arc::clone(&s.events);
                let events = events.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                let event = events.get(s.delivered_events).copied();
                if event.is_some() {
                    s.delivered_events += 1;
                    s.woken += 1;
                }
                event
            };
            let Some(event) = event else { return };
            // SAFETY: the module's live filter object; no borrow of the stream is held.
            unsafe { envoy_dynamic_module_on_http_filter_scheduled(self.envoy, self.module, event) };
        }
    }

    /// Envoy's answer to a callout: headers and a body in two chunks on success,
    /// nothing with a failure.
    fn answer(&self, call: &InFlight) {
        self.cell.borrow_mut().answered += 1;
        let (headers, body) = call.plan.answer(&call.request);
        let success = call.plan.result == 0;
        let raw: Vec<Hdr> = headers.iter().map(|(k, v)| Hdr::of(k, v)).collect();
        let (first, second) = body.split_at(body.len() / 2);
        let chunks = [Buf::of(first), Buf::of(second)];
        let (headers, headers_size, chunks, chunks_size) = if success {
            (raw.as_ptr(), raw.len(), chunks.as_ptr(), chunks.len())
        } else {
            (std::ptr::null(), 0, std::ptr::null(), 0)
        };
        // SAFETY: the module's live filter object; every array and buffer lives until
        // the hook returns; no borrow of the stream is held.
        unsafe {
            envoy_dynamic_module_on_http_filter_http_callout_done(
                self.envoy,
                self.module,
                call.id,
                call.plan.result,
                headers,
                headers_size,
                chunks,
                chunks_size,
            );
        }
    }

    /// The direction is held with nothing more to send: Envoy runs what the filter
    /// waits for (answers, wake-ups) until it lets go or replies, or nothing can come.
    fn wait_out(&self, d: &Direction, passed: &mut Passed) {
        while passed.stopped && !passed.replied && !self.abandon {
            if !self.advance() || !self.after_hook(d, passed) {
                return;
            }
        }
    }

    /// Moves the clock to just before the next callout's answer, or waits (a few
    /// seconds at most) for a wake-up the module's thread has still to commit, or
    /// times a callout out; `false` when nothing can come.
    fn advance(&self) -> bool {
        let mut s = self.cell.borrow_mut();
        if let Some(due) = s.pending.iter().map(|p| p.due).filter(|&d| d != u32::MAX).min() {
            s.step = s.step.max(due.saturating_sub(1));
            return true;
        }
        if s.schedulers <= s.delivered_events {
            // Only answers planned for after the end are out, and the stream waits for
            // them: the first times out (Envoy's callout timeout, a reset) now.
            let s = &mut *s;
            let Some(late) = s.pending.iter_mut().find(|p| p.due == u32::MAX) else { return false };
            late.due = s.step + 1;
            late.plan.result = 1;
            return true;
        }
        let (events, delivered) = (Arc::clone(&s.events), s.delivered_events);
        drop(s);
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
        while std::time::Instant::now() < deadline {
            if events.lock().unwrap_or_else(std::sync::PoisonError::into_inner).len() > delivered {
                return true;
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        false
    }

    fn direction(
        &self,
        d: &Direction,
        headers: Headers,
        calls: Vec<Vec<Vec<u8>>>,
        as_buffered: bool,
        trailers: Option<Headers>,
    ) -> Passed {
        let mut passed = Passed::default();
        self.cell.borrow_mut().maps[d.map] = headers;
        let has_trailers = trailers.is_some() && d.side == 0;
        // SAFETY: the module's live filter object; no borrow of the stream is held.
        let status = unsafe { (d.headers_hook)(self.envoy, self.module, calls.is_empty() && !has_trailers) };
        passed.stopped = status != 0;
        if !passed.stopped {
            self.release(d, &mut passed);
        }
        if !self.after_hook(d, &mut passed) {
            return passed;
        }
        let whole = as_buffered && !calls.is_empty();
        let calls = if whole {
            // A filter before this one buffered the body and lets it go on whole.
            let body: Vec<Vec<u8>> = calls.into_iter().flatten().collect();
            let mut s = self.cell.borrow_mut();
            let side = &mut s.bodies[d.side];
            side.buffered.get_or_insert_with(Vec::new).extend(body);
            side.received_is_buffered = true;
            vec![None]
        } else {
            calls.into_iter().map(Some).collect()
        };
        let count = calls.len();
        for (i, call) in calls.into_iter().enumerate() {
            if let Some(chunk) = call {
                self.cell.borrow_mut().bodies[d.side].received = Some(chunk);
            }
            let end = i + 1 == count && !has_trailers;
            // SAFETY: as above.
            let status = unsafe { (d.body_hook)(self.envoy, self.module, end) };
            let data = {
                let mut s = self.cell.borrow_mut();
                let side = &mut s.bodies[d.side];
                side.received_is_buffered = false;
                side.received.take().unwrap_or_default()
            };
            if status != 0 || passed.stopped || whole {
                self.cell.borrow_mut().bodies[d.side].buffered.get_or_insert_with(Vec::new).extend(data);
                if status != 0 {
                    passed.stopped = true;
                } else {
                    self.release(d, &mut passed);
                }
            } else {
                passed.body.extend(data.into_iter().flatten());
            }
            if !self.after_hook(d, &mut passed) {
                return passed;
            }
        }
        if let Some(trailers) = trailers.filter(|_| has_trailers) {
            self.cell.borrow_mut().maps[1] = trailers;
            // SAFETY: as above.
            let status = unsafe { envoy_dynamic_module_on_http_filter_request_trailers(self.envoy, self.module) };
            if status == 0 && passed.stopped {
                self.release(d, &mut passed);
            }
            if !self.after_hook(d, &mut passed) {
                return passed;
            }
        }
        self.wait_out(d, &mut passed);
        passed
    }
}

/// Runs one stream through a filter of `module`.
pub fn run(module: &Module, case: &Case) -> Outcome {
    let cell = Box::new(RefCell::new(Stream::default()));
    let envoy: *mut c_void = std::ptr::from_ref::<RefCell<Stream>>(&cell).cast_mut().cast();
    {
        let mut s = cell.borrow_mut();
        s.config = std::ptr::from_ref::<FakeConfig>(&module.envoy_config) as usize;
        s.plans = case.callouts.clone();
    }
    // SAFETY: a live configuration of the module; `cell` outlives the filter.
    let filter = unsafe { envoy_dynamic_module_on_http_filter_new(module.config, envoy) };
    assert!(!filter.is_null(), "filter_new answered null");
    cell.borrow_mut().module = filter as usize;
    let driver = Driver { cell: &cell, envoy, module: filter, abandon: case.abandon };
    let mut out = Outcome::default();

    let calls = case.request_cuts.split(&case.request_body);
    let request = driver.direction(
        &REQUEST,
        case.request_headers.clone(),
        calls,
        case.request_cuts.as_buffered,
        case.request_trailers.clone(),
    );
    out.request_complete = !request.stopped && request.headers.is_some() && !request.replied;
    out.upstream_headers = request.headers;
    out.upstream_body = request.body;
    out.local_reply = cell.borrow().local_reply.clone();
    if out.request_complete {
        // The seed's token (other values in the filler may be tokenized too).
        out.token = veil_core::token::find_tokens(&out.upstream_body)
            .iter()
            .find(|t| t.category == "EMAIL")
            .map(|t| out.upstream_body[t.start..t.end].to_vec())
            .unwrap_or_default();
        let mut sent = Vec::new();
        for piece in &case.response_body {
            match piece {
                Piece::Bytes(b) => sent.extend_from_slice(b),
                Piece::Token => sent.extend_from_slice(&out.token),
            }
        }
        let calls = case.response_cuts.split(&sent);
        let response =
            driver.direction(&RESPONSE, case.response_headers.clone(), calls, case.response_cuts.as_buffered, None);
        out.response_complete = !response.stopped && response.headers.is_some() && !response.replied;
        out.response_local_reply = response.replied;
        out.downstream_headers = response.headers;
        out.downstream_body = response.body;
        out.response_sent = Some(sent);
    }
    cell.borrow_mut().ended = true;
    // SAFETY: the module's live filter object.
    unsafe { envoy_dynamic_module_on_http_filter_stream_complete(envoy, filter) };
    // Answers that come between the stream's end and its destroy; the destroy cancels
    // the callouts still out, and drops wake-ups committed later.
    driver.deliver(true);
    // SAFETY: the module's live filter object, destroyed once, last.
    unsafe { envoy_dynamic_module_on_http_filter_destroy(filter) };
    let s = cell.borrow();
    out.callouts = s.callouts.len();
    out.answered = s.answered;
    out.woken = s.woken;
    out.violations = s.violations.clone();
    out.downstream_trailers = s.maps[3].clone();
    out
}

// ------------------------------- the properties ------------------------------------

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    !needle.is_empty() && haystack.windows(needle.len()).any(|w| w == needle)
}

fn gunzip(bytes: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    flate2::read::MultiGzDecoder::new(bytes).read_to_end(&mut out).ok()?;
    Some(out)
}

pub fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    let _ = e.write_all(bytes);
    e.finish().unwrap_or_default()
}

/// Whether `needle`'s bytes all appear in `haystack`, in order.
fn subsequence(needle: &[u8], haystack: &[u8]) -> bool {
    let mut rest = haystack.iter();
    needle.iter().all(|b| rest.any(|h| h == b))
}

fn replace(haystack: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    if from.is_empty() {
        return haystack.to_vec();
    }
    let mut out = Vec::with_capacity(haystack.len());
    let mut i = 0;
    while i < haystack.len() {
        if haystack[i..].starts_with(from) {
            out.extend_from_slice(to);
            i += from.len();
        } else {
            out.push(haystack[i]);
            i += 1;
        }
    }
    out
}

/// The properties of one case (`Err` names the first broken one, without payloads).
pub fn check(case: &Case, out: &Outcome) -> Result<(), String> {
    if !out.violations.is_empty() {
        return Err(format!("ABI misuse by the module: {:?}", out.violations));
    }
    let seed = &case.seed;
    let leaks = |bytes: &[u8]| contains(bytes, seed) || gunzip(bytes).is_some_and(|plain| contains(&plain, seed));
    // Whatever went upstream, before a refusal or in a forwarded request, holds no seed.
    if leaks(&out.upstream_body) {
        return Err("the seeded value went upstream in the body".into());
    }
    if out.upstream_headers.iter().flatten().any(|(k, v)| leaks(k) || leaks(v)) {
        return Err("the seeded value went upstream in a header".into());
    }
    if let Some((status, headers, body)) = &out.local_reply {
        if !(400..600).contains(status) {
            return Err(format!("a local reply with status {status}"));
        }
        if leaks(body) || headers.iter().any(|(k, v)| leaks(k) || leaks(v)) {
            return Err("the seeded value is in the local reply".into());
        }
        if out.response_sent.is_some() {
            return Err("the upstream was asked after a local reply".into());
        }
        return Ok(());
    }
    if !out.request_complete {
        if case.abandon {
            return Ok(());
        }
        return Err("the request was neither forwarded whole nor refused".into());
    }
    let Some(sent) = &out.response_sent else { return Err("no response phase".into()) };
    if out.response_local_reply {
        return Ok(());
    }
    if !out.response_complete {
        if case.abandon {
            return Ok(());
        }
        return Err("the response was held and never let go".into());
    }
    // Outside restored tokens, the client gets exactly the upstream's bytes (in order,
    // with text inserted, under a policy that annotates).
    let unrestored = replace(&out.downstream_body, seed, &out.token);
    let kept = if ANNOTATES[case.policy] { subsequence(sent, &unrestored) } else { &unrestored == sent };
    if !kept {
        return Err(format!(
            "the response lost or duplicated bytes ({} sent, {} delivered, token {})",
            sent.len(),
            out.downstream_body.len(),
            if out.token.is_empty() { "absent" } else { "present" }
        ));
    }
    Ok(())
}

// ------------------------------- cases from bytes ----------------------------------

/// A reader of fuzzer bytes: every read succeeds (zeros once the input is used up).
pub struct Bytes<'a>(&'a [u8]);

impl<'a> Bytes<'a> {
    pub fn new(data: &'a [u8]) -> Bytes<'a> {
        Bytes(data)
    }

    pub fn u8(&mut self) -> u8 {
        match self.0.split_first() {
            Some((b, rest)) => {
                self.0 = rest;
                *b
            }
            None => 0,
        }
    }

    pub fn u16(&mut self) -> u16 {
        u16::from(self.u8()) << 8 | u16::from(self.u8())
    }

    pub fn bool(&mut self) -> bool {
        self.u8() & 1 == 1
    }

    pub fn take(&mut self, max: usize) -> &'a [u8] {
        let n = usize::from(self.u8()).min(max).min(self.0.len());
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        head
    }

    /// Arbitrary bytes, but never an `@`: the seed is only ever where a case puts it.
    pub fn raw(&mut self, max: usize) -> Vec<u8> {
        self.take(max).iter().map(|&c| if c == b'@' { b'#' } else { c }).collect()
    }

    pub fn pick<T: Copy>(&mut self, from: &[T]) -> T {
        from[usize::from(self.u8()) % from.len()]
    }
}

/// Puts text into a provider's request body.
type Wrap = fn(&[u8]) -> Vec<u8>;

pub const SEED: &[u8] = b"jane.doe@example.com";

/// Filler text: letters, digits, spaces and punctuation that neither make a token nor
/// a seed nor need JSON escaping.
fn filler(b: &mut Bytes<'_>, max: usize) -> Vec<u8> {
    const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,!?-";
    b.take(max).iter().map(|c| ALPHABET[usize::from(*c) % ALPHABET.len()]).collect()
}

fn cuts(b: &mut Bytes<'_>) -> Cuts {
    let n = usize::from(b.u8() % 8);
    let hooks = (0..n).map(|_| usize::from(b.u16())).collect();
    let n = usize::from(b.u8() % 8);
    let slices = (0..n).map(|_| usize::from(b.u16())).collect();
    let n = usize::from(b.u8() % 4 / 2);
    let empty_hooks = (0..n).map(|_| usize::from(b.u8())).collect();
    Cuts { hooks, slices, empty_hooks, as_buffered: b.u8() % 4 == 0 }
}

/// Odd header names and values: duplicates of the ones Veil reads, pseudo-headers,
/// empty, upper case, non-UTF-8, huge.
fn extra_header(b: &mut Bytes<'_>) -> (Vec<u8>, Vec<u8>) {
    const NAMES: &[&[u8]] = &[
        b"content-type",
        b"content-length",
        b"content-encoding",
        b"transfer-encoding",
        b":path",
        b":authority",
        b":method",
        b"host",
        b"X-Odd-Case",
        b"",
        b"x-\xff\xfe",
        b"x-veil-tenant",
        b"accept-encoding",
        b"upgrade",
        b"authorization",
    ];
    let name = if b.u8() % 4 == 0 { b.raw(24) } else { b.pick(NAMES).to_vec() };
    let value = match b.u8() % 6 {
        0 => vec![b'a' + b.u8() % 26; 70_000 + usize::from(b.u16())],
        1 => b"\xc3\x28\xff\x00 latin-1 \xe9".to_vec(),
        2 => b.u16().to_string().into_bytes(),
        _ => b.raw(40),
    };
    (name, value)
}

impl Case {
    /// A request to one of the providers' routes with the seed (usually) in a JSON
    /// body, its encoding, its headers and chunking; a response with the request's
    /// token (when there is one) in a JSON, SSE or plain body, split anywhere.
    pub fn from_bytes(data: &[u8]) -> Case {
        let b = &mut Bytes::new(data);
        let route = b.u8() % 4;
        let (path, wrap): (&[u8], Wrap) = match route {
            0 => (b"/v1/chat/completions", |t| {
                [br#"{"model":"m","messages":[{"role":"user","content":""#.as_slice(), t, br#""}]}"#].concat()
            }),
            1 => (b"/v1/messages", |t| {
                [br#"{"model":"m","max_tokens":5,"messages":[{"role":"user","content":""#.as_slice(), t, br#""}]}"#]
                    .concat()
            }),
            2 => (b"/v1beta/models/g:generateContent", |t| {
                [br#"{"contents":[{"role":"user","parts":[{"text":""#.as_slice(), t, br#""}]}]}"#].concat()
            }),
            _ => (b"/v1/responses", |t| [br#"{"model":"m","input":""#.as_slice(), t, br#""}"#].concat()),
        };
        let mut text = filler(b, 60);
        let seeded = b.u8() % 8 != 0;
        if seeded {
            text.extend_from_slice(b" ");
            text.extend_from_slice(SEED);
            text.extend_from_slice(b" ");
        }
        text.extend(filler(b, 60));
        let mut body = match b.u8() % 8 {
            // Not JSON at all (or cut short).
            0 => {
                let mut raw = wrap(&text);
                let keep = usize::from(b.u16()) % (raw.len() + 1);
                raw.truncate(keep);
                raw
            }
            1 => Vec::new(),
            _ => wrap(&text),
        };
        let mut headers: Headers = vec![
            (b":method".to_vec(), b"POST".to_vec()),
            (b":path".to_vec(), path.to_vec()),
            (b":authority".to_vec(), b"api.example.com".to_vec()),
            (b":scheme".to_vec(), b"https".to_vec()),
            (b"content-type".to_vec(), b"application/json".to_vec()),
        ];
        match b.u8() % 8 {
            0 => {
                body = gzip(&body);
                headers.push((b"content-encoding".to_vec(), b"gzip".to_vec()));
            }
            1 => headers.push((b"content-encoding".to_vec(), b"identity".to_vec())),
            2 => headers.push((b"content-encoding".to_vec(), b"br".to_vec())),
            3 => headers.push((b"content-encoding".to_vec(), b"gzip".to_vec())),
            4 => headers.push((b"content-encoding".to_vec(), b.raw(12))),
            5 => headers.push((b"content-length".to_vec(), body.len().to_string().into_bytes())),
            _ => {}
        }
        for _ in 0..b.u8() % 4 {
            let (name, value) = extra_header(b);
            let at = usize::from(b.u8()) % (headers.len() + 1);
            headers.insert(at, (name, value));
        }
        let request_cuts = cuts(b);
        let request_trailers = (b.u8() % 8 == 0).then(|| vec![(b"x-trailer".to_vec(), b.raw(10))]);

        // The response.
        let mut response_headers: Headers = vec![(b":status".to_vec(), b"200".to_vec())];
        let mut pieces = Vec::new();
        let segment = |b: &mut Bytes<'_>, pieces: &mut Vec<Piece>| {
            pieces.push(Piece::Bytes(filler(b, 30)));
            if b.bool() {
                pieces.push(Piece::Token);
            }
            pieces.push(Piece::Bytes(filler(b, 30)));
        };
        match b.u8() % 4 {
            0 => {
                response_headers.push((b"content-type".to_vec(), b"text/event-stream".to_vec()));
                for _ in 0..1 + b.u8() % 5 {
                    pieces.push(Piece::Bytes(br#"data: {"choices":[{"index":0,"delta":{"content":""#.to_vec()));
                    segment(b, &mut pieces);
                    pieces.push(Piece::Bytes(b"\"}}]}\n\n".to_vec()));
                }
                pieces.push(Piece::Bytes(b"data: [DONE]\n\n".to_vec()));
            }
            1 => {
                response_headers.push((b"content-type".to_vec(), b"application/json".to_vec()));
                pieces.push(Piece::Bytes(
                    br#"{"choices":[{"index":0,"message":{"role":"assistant","content":""#.to_vec(),
                ));
                segment(b, &mut pieces);
                pieces.push(Piece::Bytes(br#""}}]}"#.to_vec()));
            }
            2 => {
                response_headers.push((b"content-type".to_vec(), b"text/plain".to_vec()));
                segment(b, &mut pieces);
            }
            _ => {
                response_headers.push((b"content-type".to_vec(), b.raw(20)));
                pieces.push(Piece::Bytes(b.raw(200)));
                segment(b, &mut pieces);
            }
        }
        if b.u8() % 6 == 0 {
            response_headers.push((b"content-encoding".to_vec(), b"gzip".to_vec()));
        }
        for _ in 0..b.u8() % 3 {
            response_headers.push(extra_header(b));
        }
        let response_cuts = cuts(b);
        // Read last, so that shorter inputs (and the regression cases) keep their cases.
        let policy = usize::from(b.u8()) % POLICIES.len();
        let callouts = (0..b.u8() % 8).map(|_| CalloutPlan::from_bytes(b)).collect();
        let abandon = b.u8() % 8 == 1;
        Case {
            request_headers: headers,
            request_body: body,
            request_cuts,
            request_trailers,
            response_headers,
            response_body: pieces,
            response_cuts,
            seed: if seeded { SEED.to_vec() } else { Vec::new() },
            policy,
            callouts,
            abandon,
        }
    }
}
