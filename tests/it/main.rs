//! Integration tests of the pure core: policies on disk, golden rewrites, properties.
//! (The real-Envoy tests are in `tests/e2e`, driven by the official SDKs.)
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // a test harness

mod differential;
mod golden;
mod lenient;
mod policies;
mod properties;
mod streams;
