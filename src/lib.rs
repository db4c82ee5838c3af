//! Veil: a proxy-wasm filter that tokenizes PII and secrets in LLM API requests and
//! restores them in responses.
//!
//! Everything but [`host`] is pure Rust over bytes and data: it is tested natively and
//! reused by native tools. `host` is the flow over a host and the two hosts: `host::wasm`
//! (the only module that names `proxy_wasm`) and `host::native` (Envoy's dynamic modules,
//! feature `native`).

pub mod api;
pub mod audit;
pub mod charset;
pub mod check;
pub mod detect;
pub mod edit;
pub mod encoding;
pub mod generations;
pub mod json;
pub mod llm;
pub mod metrics;
pub mod mime;
pub mod policy;
pub mod provider;
pub mod redact;
pub mod restore;
pub mod sse;
pub mod stream;
pub mod suggest;
pub mod token;
pub mod vault;
pub mod verify;

#[cfg(any(target_family = "wasm", feature = "native"))]
mod host;
