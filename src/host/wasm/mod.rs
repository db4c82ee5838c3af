//! The Proxy-Wasm host (`veil.wasm`): the only module tree that names `proxy_wasm`.
//! `host.rs` is the flow's [`Host`](crate::host::Host) over the ABI calls of `abi.rs`;
//! `request.rs` is the SDK's HTTP context, a thin handle on the request's state;
//! `root.rs` is the root context over the shared [`Worker`](super::worker::Worker);
//! `shared.rs` is shared data as the vault's store and the verifier's cache.

use proxy_wasm::types::LogLevel;

mod abi;
#[allow(clippy::module_inception)] // the wasm `Host`, as `host/host.rs` is the trait
mod host;
mod request;
mod root;
mod shared;

use root::VeilRoot;

proxy_wasm::main! {{
    proxy_wasm::set_log_level(LogLevel::Info);
    proxy_wasm::set_root_context(|id| Box::new(VeilRoot::new(id)));
}}
