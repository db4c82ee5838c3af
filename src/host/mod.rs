//! Host glue: the request and response flow over a [`Host`], and the two hosts that
//! run it.
//!
//! The flow reads headers and bodies from the host, hands bytes to the pure core
//! ([`crate::redact`], [`crate::restore`], [`crate::stream`], [`crate::verify`]), and
//! carries out the core's decisions: rewrite, forward, or answer with a vendor-shaped
//! error. Every failure maps to the policy's failure mode; nothing here panics or logs
//! request data. By job:
//!
//! - `host`: the [`Host`] trait, every call the flow makes to its proxy;
//! - `exchange`: one request and its response ([`VeilHttp`]): what it is, its phases,
//!   the calls out it waits for; `state`: what each phase holds;
//! - `wasm` (wasm32 only): the Proxy-Wasm host — its ABI calls (`wasm/abi.rs`), the
//!   root context, shared data as the store; `veil.wasm`;
//! - `native` (feature `native`): the Envoy dynamic-modules host — its binding
//!   (`native/abi.rs`), the per-worker state, a process-wide store; `libveil.so`;
//! - `worker`: what a worker holds per configuration (policy, keys, vault, metrics) and
//!   how it makes each request's state, for both hosts;
//! - `metrics`: counters and audit lines, batched per worker; `timing`: profiling;
//! - `request`, `response`, `verify`, `api`: the request path, the response path,
//!   claim verification and the gateway's own API, over one request's state
//!   ([`VeilHttp`]); `model`: the request's wait for the detector model.

mod api;
mod callout;
mod exchange;
#[allow(clippy::module_inception)] // the `Host` trait, in `host/host.rs`
pub(crate) mod host;
mod metrics;
mod model;
mod request;
mod response;
mod state;
mod timing;
mod verify;
pub(crate) mod worker;

#[cfg(feature = "native")]
mod native;
#[cfg(target_family = "wasm")]
mod wasm;

pub(crate) use exchange::VeilHttp;
pub(crate) use host::{Action, Buffer, Host, Level, Map};
