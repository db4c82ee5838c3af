//! The root context: one per worker and plugin, over the shared [`Worker`]. It reads
//! the policy once per configuration (`on_configure`), keeps the vault key, acts for a
//! request on its tick (effective context), and makes each request's context.

use std::cell::RefCell;
use std::rc::{Rc, Weak};

use proxy_wasm::traits::{Context, HttpContext, RootContext};
use proxy_wasm::types::ContextType;

use super::abi::{self, Buffer};
use super::host::WasmHost;
use super::request::Request;
use super::shared::shared_random_key;
use crate::host::worker::{parse_policy, vault_key, Worker};
use crate::host::{Host, Level, VeilHttp};

pub(super) struct VeilRoot {
    id: u32,
    worker: Worker,
    vault_key: Option<[u8; 32]>,
}

impl VeilRoot {
    pub(super) fn new(id: u32) -> VeilRoot {
        VeilRoot { id, worker: Worker::default(), vault_key: None }
    }
}

/// Runs `f` on a request's state with the request as the effective context, then
/// switches back to `root`. Nothing runs when the request is gone.
fn as_request(root: u32, id: u32, request: &Weak<RefCell<VeilHttp>>, f: &dyn Fn(&mut VeilHttp)) {
    let Some(request) = request.upgrade() else { return };
    if abi::set_effective_context(id).is_err() {
        return;
    }
    if let Ok(mut http) = request.try_borrow_mut() {
        f(&mut http);
    }
    let _ = abi::set_effective_context(root);
}

impl Context for VeilRoot {
    /// A verifier call dispatched during a tick: Proxy-Wasm brings its answer to the
    /// context that was active then, the root. It goes on to its request.
    fn on_http_call_response(&mut self, token_id: u32, num_headers: usize, body_size: usize, _num_trailers: usize) {
        let owner = self.worker.alarm.try_borrow_mut().ok().and_then(|mut a| a.answered(token_id));
        if let Some((id, request)) = owner {
            as_request(self.id, id, &request, &|http| http.on_call_response(token_id, num_headers, body_size));
        }
    }

    /// The plugin is going away (a new policy, or Envoy stopping): nothing may stay
    /// unwritten.
    fn on_done(&mut self) -> bool {
        self.worker.done(&WasmHost);
        true
    }
}

impl RootContext for VeilRoot {
    fn on_configure(&mut self, _size: usize) -> bool {
        let config = abi::buffer(Buffer::PluginConfiguration, 0, usize::MAX).ok().flatten().unwrap_or_default();
        let Some(policy) = parse_policy(|l, m| WasmHost.log(l, m), &config) else { return false };
        let key = match self.vault_key {
            Some(key) => key,
            None => match vault_key(|l, m| WasmHost.log(l, m), || shared_random_key(&WasmHost)) {
                Some(key) => key,
                None => {
                    WasmHost.log(Level::Critical, "veil: no vault key could be made; the policy is not applied");
                    return false;
                }
            },
        };
        self.vault_key = Some(key);
        self.worker.configure(&WasmHost, policy, &key);
        WasmHost.log(Level::Info, "veil: policy loaded");
        true
    }

    /// The tick comes at the next sweep or at the earliest verifier retry, whichever is
    /// sooner (`Worker::rearm`), so retries do not change the sweep's cadence.
    fn on_tick(&mut self) {
        let root = self.id;
        self.worker.tick(&WasmHost, |id, request, f| as_request(root, id, request, f));
    }

    fn create_http_context(&self, context_id: u32) -> Option<Box<dyn HttpContext>> {
        let http = self.worker.new_request(context_id, Box::new(WasmHost));
        Some(Box::new(Request { id: context_id, http, alarm: Rc::clone(&self.worker.alarm) }))
    }

    fn get_type(&self) -> Option<ContextType> {
        Some(ContextType::HttpContext)
    }
}
