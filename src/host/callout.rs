//! A call out to a company-hosted model's server, as the hosts make one: the verifier's
//! and the detector model's. [`Target`] dispatches a request body (from
//! [`veil_core::llm::Chat`]) with Envoy's timeout; [`call_answer`] reads its answer in the
//! response callback. Who waits for which call is the exchange's table of callouts.

use std::time::Duration;

use super::host::DispatchError;
use super::{Buffer, Host, Map};
use crate::verify::Answer;

/// A company-hosted model's server, as a dispatched call reaches it: the verifier's,
/// and the detector model's (`host/model.rs`).
pub(crate) struct Target<'a> {
    pub cluster: &'a str,
    pub authority: &'a str,
    pub path: &'a str,
    /// `authorization: Bearer …`, when the policy names a key.
    pub bearer: Option<&'a str>,
}

impl Target<'_> {
    /// POSTs the JSON `body` through `host`, Envoy cancelling the call after
    /// `timeout_ms`; the answer comes back to this request with the token.
    pub(crate) fn dispatch(&self, host: &dyn Host, body: &[u8], timeout_ms: u64) -> Result<u32, DispatchError> {
        let mut headers = vec![
            (":method", "POST"),
            (":path", self.path),
            (":authority", self.authority),
            ("content-type", "application/json"),
        ];
        if let Some(b) = self.bearer {
            headers.push(("authorization", b));
        }
        host.dispatch(self.cluster, &headers, body, Duration::from_millis(timeout_ms))
    }
}

/// The answer to a dispatched call, in its response callback: its status and body, or
/// `Failed` without headers (a reset, a refused connection).
pub(crate) fn call_answer(host: &dyn Host, num_headers: usize, body_size: usize) -> Answer {
    let status = if num_headers == 0 {
        None
    } else {
        host.header(Map::CallResponseHeaders, ":status")
            .ok()
            .flatten()
            .and_then(|s| std::str::from_utf8(&s).ok()?.parse::<u16>().ok())
    };
    match status {
        None => Answer::Failed,
        Some(status) => {
            let body =
                if body_size == 0 { None } else { host.body(Buffer::CallResponseBody, 0, body_size).ok().flatten() };
            Answer::Response { status, body: body.unwrap_or_default() }
        }
    }
}
