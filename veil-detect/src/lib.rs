//! The detection engine: compiled rules in, non-overlapping findings out.
//!
//! Compiled once per policy (`Engine::new`), then shared read-only by every request.
//! A `Finding` is offsets, a rule index and a confidence; the engine never keeps or
//! reports the bytes it matched.
//!
//! Each rule has a *gate* that decides cheaply where its matcher must run at all
//! (see [`rule::Gate`]): most rules never look at most bytes of a clean text. Context
//! words near a candidate raise or lower its confidence; the policy's
//! `confidence_threshold` then drops what is left below it.

pub mod base64;
pub mod catalog;
pub mod category;
pub mod check;
pub mod config;
pub mod engine;
pub mod finders;
pub mod finding;
pub mod generations;
pub mod rule;
pub mod suggest;
pub mod validate;

pub use config::{
    is_category, CustomPattern, DetectError, DetectorsConfig, CUSTOM_PATTERN_SIZE_LIMIT, MAX_WORDS, MAX_WORD_LEN,
};
pub use engine::compiled::Rule;
pub use engine::memo::MEMO_MIN_LEN;
pub use engine::Engine;
pub use finding::{Finding, Source};

#[cfg(test)]
mod tests;
