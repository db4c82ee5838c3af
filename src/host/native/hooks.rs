//! The module's event hooks: the `extern "C"` functions Envoy calls (program init, filter
//! configuration, the HTTP filter's callbacks, callouts and the scheduler), each a thin
//! call into the filter (`native/mod.rs`) with the handles of `abi.rs`.

#![allow(unsafe_code)]

use std::ffi::{c_char, c_void};
use std::ptr::null;

use super::abi::*;
use super::{on_config_new, Config, NativeFilter};

#[no_mangle]
extern "C" fn envoy_dynamic_module_on_program_init() -> *const c_char {
    ABI_VERSION.as_ptr().cast()
}

/// Reads an Envoy buffer handed to a hook.
///
/// # Safety
/// As [`EnvoyBuffer::to_vec`]: valid for the hook.
unsafe fn hook_bytes(buffer: EnvoyBuffer) -> Vec<u8> {
    // SAFETY: per this function's contract.
    unsafe { buffer.to_vec() }
}

#[no_mangle]
extern "C" fn envoy_dynamic_module_on_http_filter_config_new(
    config_envoy: *mut c_void,
    name: EnvoyBuffer,
    config: EnvoyBuffer,
) -> *const c_void {
    // SAFETY: Envoy owns both buffers and keeps them valid during this hook.
    let (name, config) = unsafe { (hook_bytes(name), hook_bytes(config)) };
    match on_config_new(ConfigHandle(config_envoy), &name, &config) {
        // Ours until `on_http_filter_config_destroy` gives it back.
        Some(config) => Box::into_raw(Box::new(config)).cast_const().cast(),
        // Null: Envoy rejects the configuration (a NACK over ECDS).
        None => null(),
    }
}

/// An object this module made and handed to Envoy (a configuration or a filter).
///
/// # Safety
/// `ptr` came from `Box::into_raw` of a `T` in this module and has not been released;
/// only shared references are made (hooks can nest; a configuration is `Sync`).
unsafe fn object<'a, T>(ptr: *const c_void) -> &'a T {
    // SAFETY: per this function's contract.
    unsafe { &*ptr.cast::<T>() }
}

/// Drops an object this module made, when Envoy destroys it.
///
/// # Safety
/// `ptr` is null or came from `Box::into_raw` of a `T` in this module; Envoy destroys
/// each object once, a configuration after every filter made from it, a filter last.
unsafe fn release<T>(ptr: *const c_void) {
    if !ptr.is_null() {
        // SAFETY: per this function's contract.
        drop(unsafe { Box::from_raw(ptr.cast_mut().cast::<T>()) });
    }
}

#[no_mangle]
extern "C" fn envoy_dynamic_module_on_http_filter_config_destroy(ptr: *const c_void) {
    // SAFETY: the configuration this module made in `config_new` (see `release`).
    unsafe { release::<Config>(ptr) }
}

#[no_mangle]
extern "C" fn envoy_dynamic_module_on_http_filter_per_route_config_new(
    _name: EnvoyBuffer,
    _config: EnvoyBuffer,
) -> *const c_void {
    // No per-route configuration: Envoy refuses one.
    null()
}

#[no_mangle]
extern "C" fn envoy_dynamic_module_on_http_filter_per_route_config_destroy(_ptr: *const c_void) {}

#[no_mangle]
extern "C" fn envoy_dynamic_module_on_http_filter_new(config_ptr: *const c_void, filter: *mut c_void) -> *const c_void {
    // SAFETY: Envoy passes a configuration this module made and has not destroyed.
    let config = unsafe { object::<Config>(config_ptr) };
    let state = NativeFilter::new(config, Filter(filter));
    Box::into_raw(Box::new(state)).cast_const().cast()
}

/// The filter object behind a pointer this module made in `filter_new`.
///
/// # Safety
/// As [`object`].
unsafe fn filter<'a>(ptr: *const c_void) -> &'a NativeFilter {
    // SAFETY: per this function's contract.
    unsafe { object::<NativeFilter>(ptr) }
}

#[no_mangle]
extern "C" fn envoy_dynamic_module_on_http_filter_destroy(ptr: *const c_void) {
    // SAFETY: the filter this module made in `filter_new` (see `release`).
    unsafe { release::<NativeFilter>(ptr) }
}

#[no_mangle]
extern "C" fn envoy_dynamic_module_on_http_filter_request_headers(
    _envoy: *mut c_void,
    ptr: *const c_void,
    end_of_stream: bool,
) -> u32 {
    // SAFETY: a live filter object of this module (see `filter`).
    unsafe { filter(ptr) }.request_headers(end_of_stream).code()
}

#[no_mangle]
extern "C" fn envoy_dynamic_module_on_http_filter_request_body(
    _envoy: *mut c_void,
    ptr: *const c_void,
    end_of_stream: bool,
) -> u32 {
    // SAFETY: a live filter object of this module.
    unsafe { filter(ptr) }.request_body(end_of_stream).code()
}

#[no_mangle]
extern "C" fn envoy_dynamic_module_on_http_filter_request_trailers(_envoy: *mut c_void, ptr: *const c_void) -> u32 {
    // SAFETY: a live filter object of this module.
    unsafe { filter(ptr) }.request_trailers().code()
}

#[no_mangle]
extern "C" fn envoy_dynamic_module_on_http_filter_response_headers(
    _envoy: *mut c_void,
    ptr: *const c_void,
    end_of_stream: bool,
) -> u32 {
    // SAFETY: a live filter object of this module.
    unsafe { filter(ptr) }.response_headers(end_of_stream).code()
}

#[no_mangle]
extern "C" fn envoy_dynamic_module_on_http_filter_response_body(
    _envoy: *mut c_void,
    ptr: *const c_void,
    end_of_stream: bool,
) -> u32 {
    // SAFETY: a live filter object of this module.
    unsafe { filter(ptr) }.response_body(end_of_stream).code()
}

#[no_mangle]
extern "C" fn envoy_dynamic_module_on_http_filter_response_trailers(_envoy: *mut c_void, _ptr: *const c_void) -> u32 {
    Status::Continue.code()
}

#[no_mangle]
extern "C" fn envoy_dynamic_module_on_http_filter_stream_complete(_envoy: *mut c_void, ptr: *const c_void) {
    // SAFETY: a live filter object of this module.
    unsafe { filter(ptr) }.stream_complete();
}

#[no_mangle]
extern "C" fn envoy_dynamic_module_on_http_filter_http_callout_done(
    _envoy: *mut c_void,
    ptr: *const c_void,
    callout_id: u64,
    result: u32,
    headers: *const EnvoyHeader,
    headers_size: usize,
    body_chunks: *const EnvoyBuffer,
    body_chunks_size: usize,
) {
    let mut answer = CalloutAnswer { success: result == 0, headers: Vec::new(), body: Vec::new() };
    if !headers.is_null() {
        // SAFETY: Envoy passes `headers_size` headers, valid during this hook.
        let raw = unsafe { std::slice::from_raw_parts(headers, headers_size) };
        for h in raw {
            // SAFETY: each pair's bytes are Envoy's, valid during this hook; copied.
            let (k, v) = unsafe {
                (
                    EnvoyBuffer { ptr: h.key_ptr, length: h.key_length }.to_vec(),
                    EnvoyBuffer { ptr: h.value_ptr, length: h.value_length }.to_vec(),
                )
            };
            answer.headers.push((String::from_utf8_lossy(&k).into_owned(), v));
        }
    }
    if !body_chunks.is_null() {
        // SAFETY: Envoy passes `body_chunks_size` slices, valid during this hook.
        let raw = unsafe { std::slice::from_raw_parts(body_chunks, body_chunks_size) };
        for chunk in raw {
            // SAFETY: valid during this hook; copied.
            answer.body.extend_from_slice(&unsafe { chunk.to_vec() });
        }
    }
    // SAFETY: a live filter object of this module.
    unsafe { filter(ptr) }.callout_done(callout_id, answer);
}

// Hooks this module does not use; Envoy resolves them when it loads a module.

#[no_mangle]
extern "C" fn envoy_dynamic_module_on_http_filter_http_stream_headers(
    _envoy: *mut c_void,
    _ptr: *const c_void,
    _stream: u64,
    _headers: *const EnvoyHeader,
    _size: usize,
    _end: bool,
) {
}

#[no_mangle]
extern "C" fn envoy_dynamic_module_on_http_filter_http_stream_data(
    _envoy: *mut c_void,
    _ptr: *const c_void,
    _stream: u64,
    _data: *const EnvoyBuffer,
    _count: usize,
    _end: bool,
) {
}

#[no_mangle]
extern "C" fn envoy_dynamic_module_on_http_filter_http_stream_trailers(
    _envoy: *mut c_void,
    _ptr: *const c_void,
    _stream: u64,
    _trailers: *const EnvoyHeader,
    _size: usize,
) {
}

#[no_mangle]
extern "C" fn envoy_dynamic_module_on_http_filter_http_stream_complete(
    _envoy: *mut c_void,
    _ptr: *const c_void,
    _stream: u64,
) {
}

#[no_mangle]
extern "C" fn envoy_dynamic_module_on_http_filter_http_stream_reset(
    _envoy: *mut c_void,
    _ptr: *const c_void,
    _stream: u64,
    _reason: u32,
) {
}

#[no_mangle]
extern "C" fn envoy_dynamic_module_on_http_filter_scheduled(_envoy: *mut c_void, ptr: *const c_void, event: u64) {
    // SAFETY: a live filter object of this module (Envoy drops the event of a filter
    // that is gone).
    unsafe { filter(ptr) }.scheduled(event);
}

#[no_mangle]
extern "C" fn envoy_dynamic_module_on_http_filter_config_scheduled(
    _envoy: *mut c_void,
    _ptr: *const c_void,
    _event: u64,
) {
}

#[no_mangle]
extern "C" fn envoy_dynamic_module_on_http_filter_downstream_above_write_buffer_high_watermark(
    _envoy: *mut c_void,
    _ptr: *const c_void,
) {
}

#[no_mangle]
extern "C" fn envoy_dynamic_module_on_http_filter_downstream_below_write_buffer_low_watermark(
    _envoy: *mut c_void,
    _ptr: *const c_void,
) {
}

#[no_mangle]
extern "C" fn envoy_dynamic_module_on_http_filter_local_reply(
    _envoy: *mut c_void,
    _ptr: *const c_void,
    _status: u32,
    _details: EnvoyBuffer,
    _reset_imminent: bool,
) -> u32 {
    0
}
