//! Veil: a proxy-wasm filter and an Envoy dynamic module that tokenize PII and secrets
//! in LLM API requests and restore them in responses.
//!
//! This crate is the filter: the flow of one exchange over a host, and the two hosts —
//! `host::wasm` (the only module that names `proxy_wasm`) and `host::native` (Envoy's
//! dynamic modules, feature `native`). What it does to the bytes is `veil-core`'s;
//! detection is `veil-detect`'s.

#[cfg(any(target_family = "wasm", feature = "native"))]
mod host;

#[cfg(any(target_family = "wasm", feature = "native"))]
use veil_core::{
    api, audit, encoding, metrics, model_stage, policy, provider, redact, restore, stream, token, vault, verify,
};
#[cfg(any(target_family = "wasm", feature = "native"))]
use veil_detect as detect;
