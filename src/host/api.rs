//! The gateway's own detection API and console (`api.enabled`): requests under
//! `api.prefix` are answered here from the core's [`crate::api`] under the live policy,
//! and never go upstream. Each is audited like any request (outcome `answered`,
//! finding counts only).

use super::exchange::{Headers, Kind, VeilHttp};
use super::state::ApiRequest;
use super::{Action, Buffer};
use crate::api as core;
use crate::audit::Outcome;
use crate::metrics::{Counter, Verify};
use crate::policy::RequestInfo;

/// The console page: one self-contained file (no external script, style or font).
const CONSOLE: &str = include_str!("console.html");

impl VeilHttp {
    /// Request headers of an API request, if this is one: the answer now (console,
    /// errors), or a pause while its body is buffered. `None`: not an API request.
    pub(super) fn api_headers(
        &mut self,
        headers: &Headers,
        request: &RequestInfo<'_>,
        end_of_stream: bool,
    ) -> Option<Action> {
        let api = &self.policy.policy.api;
        if !api.enabled {
            return None;
        }
        let call = ApiRequest::of(&api.prefix, request.path, request.method)?;
        self.started = self.host.now().unwrap_or(std::time::UNIX_EPOCH);
        self.request_id = crate::audit::request_id(headers.get("x-request-id").unwrap_or_default(), &self.id_key);
        // The live policy of the route it arrives on, or the rule it names.
        let named = super::request::query_param(request.path, "rule")
            .and_then(|name| self.policy.rule_index(&String::from_utf8_lossy(name)));
        self.rule = named.or_else(|| self.policy.select(request).and_then(|s| s.rule));
        self.scope = self.scope_for_request(headers, request.path);
        self.kind = Kind::Api(call);
        self.event().provider = "api";
        Some(match call {
            ApiRequest::Console => {
                let page = if request.method == "HEAD" { "" } else { CONSOLE };
                self.answer_api(
                    200,
                    &[
                        ("content-type", "text/html; charset=utf-8"),
                        ("cache-control", "no-store"),
                        ("content-security-policy", "default-src 'self'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; connect-src 'self'"),
                        ("x-content-type-options", "nosniff"),
                    ],
                    page.as_bytes(),
                )
            }
            ApiRequest::Stats => {
                let body = self.api_stats();
                self.answer_api(200, &[("content-type", "application/json"), ("cache-control", "no-store")], &body)
            }
            ApiRequest::Unknown { known_path } => {
                let (status, message) =
                    if known_path { (405, "method not allowed here") } else { (404, "no such endpoint") };
                let error = core::ApiError { code: core::ErrorCode::InvalidInput, message: message.into() };
                self.answer_api(status, &[("content-type", "application/json")], &error.body())
            }
            ApiRequest::Call(_) if end_of_stream => {
                let error = core::ApiError { code: core::ErrorCode::InvalidInput, message: "the body is empty".into() };
                self.answer_api(400, &[("content-type", "application/json")], &error.body())
            }
            ApiRequest::Call(_) => Action::Pause,
        })
    }

    /// A body chunk of an API call: buffered until its end, then answered.
    pub(super) fn api_body(&mut self, body_size: usize, end_of_stream: bool) -> Action {
        let bound = self.api_bound();
        if body_size > bound {
            let error = core::ApiError {
                code: core::ErrorCode::PayloadTooLarge,
                message: format!("the body is larger than {bound} bytes"),
            };
            return self.answer_api(413, &[("content-type", "application/json")], &error.body());
        }
        if !end_of_stream {
            return Action::Pause;
        }
        match self.host.body(Buffer::RequestBody, 0, body_size) {
            Ok(body) => self.api_call(&body.unwrap_or_default()),
            Err(_) => self.failure(),
        }
    }

    /// Trailers end an API call's body: answered here.
    pub(super) fn api_trailers(&mut self) -> Action {
        let bound = self.api_bound();
        match self.host.body(Buffer::RequestBody, 0, bound.saturating_add(1)) {
            Ok(body) => {
                let body = body.unwrap_or_default();
                if body.len() > bound {
                    return self.api_body(body.len(), true);
                }
                self.api_call(&body)
            }
            Err(_) => self.failure(),
        }
    }

    /// The largest body an API call may have: its text at the gateway's limit, JSON
    /// escaped (`api::max_body_bytes`, the core's own bound).
    fn api_bound(&self) -> usize {
        core::max_body_bytes(self.profile().limits.max_body_bytes)
    }

    fn api_call(&mut self, body: &[u8]) -> Action {
        let Some(ApiRequest::Call(endpoint)) = self.kind.api() else { return Action::Pause };
        let profile = self.policy.profile(self.rule);
        let cx = core::Context {
            engine: &profile.engine,
            max_payload_bytes: profile.limits.max_body_bytes,
            minter: &self.minter,
            scope: &self.scope,
            llm_available: false,
        };
        let answer = core::answer(endpoint, body, &cx);
        for (category, count) in &answer.findings {
            self.metrics.increment(Counter::Findings(category), u64::from(*count));
        }
        let event = self.event();
        event.findings = answer.findings.clone();
        event.request_bytes_in = body.len() as u64;
        self.answer_api(answer.status, &[("content-type", "application/json")], &answer.body)
    }

    /// The counters the console shows: findings by category (the categories of the
    /// policy's rules), requests by outcome, and verification, each summed over every
    /// worker. Counts only.
    fn api_stats(&self) -> Vec<u8> {
        let mut categories: Vec<&str> = self.policy.engine().rules().iter().map(|r| r.category.as_str()).collect();
        categories.sort_unstable();
        categories.dedup();
        let mut findings = serde_json::Map::new();
        for category in categories {
            let n = self.metrics.read(&*self.host, Counter::Findings(category));
            if n > 0 {
                findings.insert(category.to_string(), n.into());
            }
        }
        // Requests are counted by provider and outcome; the console shows them by outcome.
        let providers = crate::provider::ADAPTERS.map(|a| a.name);
        let mut outcomes = serde_json::Map::new();
        let mut requests = 0u64;
        for outcome in Outcome::ALL {
            let n: u64 = providers
                .iter()
                .chain(["api", "none"].iter())
                .map(|provider| self.metrics.read(&*self.host, Counter::Requests { provider, outcome: *outcome }))
                .sum();
            requests += n;
            if n > 0 {
                outcomes.insert(outcome.as_str().to_string(), n.into());
            }
        }
        let verify = |v: Verify| self.metrics.read(&*self.host, Counter::Verify(v));
        serde_json::json!({
            "requests": requests,
            "findings": findings,
            "outcomes": outcomes,
            "verification": {
                "responses": verify(Verify::Responses),
                "claims": verify(Verify::Claims),
                "verified": verify(Verify::Verified),
                "warnings": verify(Verify::Warnings),
                "errors": verify(Verify::Errors),
            },
            "tokensIssued": self.metrics.read(&*self.host, Counter::TokensIssued),
            "tokensRestored": self.metrics.read(&*self.host, Counter::TokensRestored),
        })
        .to_string()
        .into_bytes()
    }

    /// Sends the API's answer; the request goes no further.
    fn answer_api(&mut self, status: u16, headers: &[(&str, &str)], body: &[u8]) -> Action {
        let event = self.event();
        event.outcome = Outcome::Answered;
        event.response_status = Some(status);
        let mut all = headers.to_vec();
        all.push(("x-veil-api", "1"));
        let _ = self.host.send_response(u32::from(status), &all, body);
        Action::Pause
    }
}
