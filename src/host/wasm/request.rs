//! The SDK's HTTP context: a thin handle on one request's state.

use std::cell::RefCell;
use std::rc::Rc;

use proxy_wasm::traits::{Context, HttpContext};

use super::host::{action, WasmHost};
use crate::host::exchange::RequestAlarm;
use crate::host::{timing, Action, VeilHttp};

/// The SDK's HTTP context: the request's state, shared with the root's alarm, whose
/// tick wakes a verification that waits out a retry's backoff.
pub(super) struct Request {
    pub(super) id: u32,
    pub(super) http: Rc<RefCell<VeilHttp>>,
    pub(super) alarm: RequestAlarm,
}

impl Request {
    /// Runs a callback on the state. It is never borrowed already: Proxy-Wasm does not
    /// re-enter the VM (Envoy defers host events raised during a call); if it were,
    /// the callback gets `otherwise`.
    pub(super) fn with<R>(&self, otherwise: R, f: impl FnOnce(&mut VeilHttp) -> R) -> R {
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
