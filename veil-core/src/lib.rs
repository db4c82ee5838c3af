//! Veil's core: what the filter does to an exchange, as pure Rust over bytes and data —
//! the policy, the provider adapters, redaction (JSON, MIME, encodings), streams and
//! restoring, tokens and the vault, verification, the model stage, audit and metrics.
//! Tested natively and reused by the native tools; the hosts (the filter crate at the
//! repository's root) run it inside Envoy. Detection is its own crate (`veil-detect`),
//! named `detect` here.

pub mod api;
pub mod audit;
pub mod charset;
pub mod edit;
pub mod encoding;
pub mod json;
pub mod llm;
pub mod metrics;
pub mod mime;
pub mod model_stage;
pub mod policy;
pub mod provider;
pub mod redact;
pub mod restore;
pub mod sse;
pub mod stream;
pub mod token;
pub mod vault;
pub mod verify;

use veil_detect as detect;
use veil_detect::{base64, check, generations, suggest};
