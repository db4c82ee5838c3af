//! What one exchange holds in each of its phases: the gateway API call it is, the model
//! stage's wait, how its response is restored, and its verification. Data only: the
//! flows over it are `api.rs`, `model.rs`, `response.rs` and `verify.rs`.

use std::collections::HashMap;
use std::rc::Rc;

use crate::api::Endpoint;
use crate::audit::ModelSummary;
use crate::model_stage::{Answered, Batch};
use crate::policy::normalize_path;
use crate::stream::ResponseStream;
use crate::verify::{Session, TextField, VerifyConfig};

/// What a request under the prefix asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ApiRequest {
    Call(Endpoint),
    Console,
    /// `GET {prefix}/v1/stats`: what the gateway has done since start, from its counters.
    Stats,
    /// Under the prefix, but no endpoint: 404 (or 405 for a known path and wrong method).
    Unknown {
        known_path: bool,
    },
}

impl ApiRequest {
    /// The request under `prefix`, if its (normalized) path is.
    pub(crate) fn of(prefix: &str, path: &str, method: &str) -> Option<ApiRequest> {
        let path = normalize_path(path);
        let rest = path.strip_prefix(prefix)?;
        if !(rest.is_empty() || rest.starts_with('/') || rest.starts_with('?')) {
            return None;
        }
        let endpoint = Endpoint::of(prefix, &path);
        let page = rest.split('?').next().unwrap_or_default();
        let (console, stats) = (page == "/console", page == "/v1/stats");
        Some(match (method, endpoint) {
            ("POST", Some(e)) => ApiRequest::Call(e),
            ("GET" | "HEAD", None) if console => ApiRequest::Console,
            ("GET", None) if stats => ApiRequest::Stats,
            (_, known) => ApiRequest::Unknown { known_path: known.is_some() || console || stats },
        })
    }
}

/// One request's model stage, from its call on.
#[derive(Debug)]
pub(crate) struct HostModel {
    /// The texts asked about, and how the model saw them.
    pub(crate) texts: Vec<Vec<u8>>,
    pub(crate) batch: Batch,
    /// The decoded body and its buffered size, to redact again on the answer.
    pub(crate) body: Vec<u8>,
    pub(crate) wire_len: usize,
    /// The answer's findings by text, until the second redaction takes them.
    pub(crate) answered: Option<Answered>,
    pub(crate) summary: ModelSummary,
    pub(crate) started_ms: u64,
}

#[derive(Debug)]
pub(crate) enum ResponseMode {
    Pass,
    BufferJson,
    BufferText,
    /// JSON Lines (or a downloaded file that may be): restored line by line.
    BufferLines,
    /// Restored chunk by chunk as it streams (and tapped, when its answer is verified).
    Stream(ResponseStream),
}

/// What every verifying request needs from the root context.
#[derive(Debug)]
pub(crate) struct VerifyEnv {
    /// Keys the score cache's hashes (derived from the vault key).
    pub(crate) cache_secret: [u8; 32],
    /// Verifier API keys by the `verification.api_key_env` naming them (top level and
    /// rules), read once per configuration.
    pub(crate) api_keys: HashMap<String, String>,
}

impl VerifyEnv {
    pub(crate) fn new<'a>(configs: impl Iterator<Item = &'a VerifyConfig>, vault_key: &[u8; 32]) -> VerifyEnv {
        let mut api_keys = HashMap::new();
        for config in configs.filter(|c| c.enabled && !c.api_key_env.is_empty()) {
            let key = std::env::var(&config.api_key_env).map(|k| k.trim().to_string()).unwrap_or_default();
            if !key.is_empty() {
                api_keys.insert(config.api_key_env.clone(), key);
            }
        }
        VerifyEnv { cache_secret: crate::vault::derive(vault_key, "veil/v1/verify-cache"), api_keys }
    }

    /// `authorization: Bearer …` for the verifier a configuration names, if any.
    pub(crate) fn bearer(&self, config: &VerifyConfig) -> Option<String> {
        self.api_keys.get(&config.api_key_env).map(|k| format!("Bearer {k}"))
    }
}

/// A whole body held while its claims are verified.
#[derive(Debug)]
pub(crate) struct HeldBody {
    /// The body whose text is verified (tokenized or restored, per the policy).
    pub(crate) body: Vec<u8>,
    pub(crate) fields: Vec<TextField>,
    /// Its size as Envoy buffers it.
    pub(crate) buffered: usize,
}

#[derive(Debug)]
pub(crate) enum Shape {
    /// A whole body, held while verified; `trailer`: the headers were not held, so the
    /// summary goes out as a trailer (added, pending, in the last body callback).
    Whole { held: Option<HeldBody>, trailer: bool },
    /// A stream, through the response's `ResponseStream::verifying`.
    Stream {
        /// Bytes Envoy buffers while the end of the stream is held.
        buffered: usize,
        /// The summary trailer was added (pending) when the end was held.
        trailer: bool,
    },
}

/// One response's verification.
#[derive(Debug)]
pub(crate) struct HostVerify {
    pub(crate) session: Session,
    pub(crate) env: Rc<VerifyEnv>,
    pub(crate) shape: Shape,
    pub(crate) paused: bool,
    pub(crate) done: bool,
    /// The response headers wait for the verdict (`hold_headers`, whole bodies), so
    /// the summary can go into them.
    pub(crate) held: bool,
}
