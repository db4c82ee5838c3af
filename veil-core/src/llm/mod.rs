//! The client of a company-hosted model, one for every caller: verification (`verify`)
//! and the detector model stage (`model_stage`). The request in the shape
//! its server speaks ([`Chat`], [`Endpoint`]), the answer read robustly
//! ([`answer_json`], [`ParseError`]), and the time a caller may spend on calls
//! ([`Budget`], [`backoff_ms`]). Pure: the hosts dispatch the bytes
//! (`host/callout.rs`) and hand the answers back. Nothing here formats a prompt, a text
//! or an answer into an error.

mod answer;
mod budget;
mod chat;

pub use answer::{answer_json, ParseError};
pub use budget::{backoff_ms, Budget, MIN_CALL_MS};
pub use chat::{Chat, Endpoint};
