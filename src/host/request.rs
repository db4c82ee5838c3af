//! The request path: match the request against the policy, hold and buffer its body,
//! undo its content codings, scan it, and carry out the verdict — forward as is,
//! rewrite, or answer with a vendor-shaped error. Every host error fails the request
//! by the policy's failure mode (closed by default): nothing goes on unscanned because
//! a host call failed.

use std::cell::RefCell;
use std::rc::Rc;

use super::exchange::{now_secs, Headers, Kind, RequestPhase, VeilHttp};
use super::timing;
use super::{Action, Buffer, Map};
use crate::audit::Outcome;
use crate::metrics::Counter;
use crate::policy::{normalize_path, FailureMode, OnOversize, RequestInfo, ScopeKind};
use crate::provider::Provider;
use crate::redact::{Redactor, Refusal, Verdict};

impl VeilHttp {
    pub(super) fn on_request_headers(&mut self, end_of_stream: bool) -> Action {
        // One host call for every header (each `get` is one, plus an allocation call
        // back into the VM). Headers that cannot be read cannot be matched: failed.
        let Ok(pairs) = self.host.header_pairs(Map::RequestHeaders) else { return self.failure() };
        let headers = Headers(pairs);
        let path = headers.text(":path");
        let authority = headers.text(":authority");
        let method = headers.text(":method");
        let policy = Rc::clone(&self.policy);
        let header = |name: &str| headers.get(name).map(|v| String::from_utf8_lossy(v).into_owned());
        let request = RequestInfo { authority: &authority, path: &path, method: &method, header: &header };
        // The gateway's own API goes no further than here, whatever its host.
        if let Some(action) = self.api_headers(&headers, &request, end_of_stream) {
            return action;
        }
        let Some(selected) = policy.select(&request) else {
            if policy.exempted(&request) {
                self.kind = Kind::Exempt;
                self.metrics.increment(Counter::Exempt, 1);
            }
            return Action::Continue;
        };
        let normalized = normalize_path(&path).to_ascii_lowercase();
        let route =
            selected.provider.route(&normalized, query_param(&path, "alt"), headers.get("x-goog-upload-command"));
        self.kind = Kind::Protected { provider: selected.provider, route, request: RequestPhase::Buffering };
        self.rule = selected.rule;
        self.started = self.host.now().unwrap_or(std::time::UNIX_EPOCH);
        self.request_id = crate::audit::request_id(headers.get("x-request-id").unwrap_or_default(), &self.id_key);
        self.scope = self.scope_for_request(&headers, &path);
        self.content_type = headers.text("content-type");
        self.event();
        // A tunnel or an upgraded protocol (WebSocket) carries data no body callback
        // sees whole: refused, never passed.
        let upgrade = headers.get("upgrade").is_some_and(|v| !v.is_empty()) || headers.get(":protocol").is_some();
        if upgrade || method.eq_ignore_ascii_case("CONNECT") {
            return self.refuse(Refusal::Transport);
        }
        // A compressed body is scanned decoded and goes on decoded.
        match crate::encoding::parse(&headers.joined("content-encoding")) {
            Ok(codings) if codings.is_empty() => {}
            Ok(codings) => {
                self.codings = codings;
                if self.host.set_header(Map::RequestHeaders, "content-encoding", None).is_err() {
                    return self.failure();
                }
            }
            Err(_) => return self.refuse(Refusal::UnsupportedEncoding),
        }
        // Ask for a body we can read back.
        if self.host.set_header(Map::RequestHeaders, "accept-encoding", Some("identity")).is_err() {
            return self.failure();
        }
        let declared =
            headers.get("content-length").and_then(|v| std::str::from_utf8(v).ok()?.trim().parse::<usize>().ok());
        if declared.is_some_and(|len| len > self.profile().limits.max_body_bytes) {
            return self.too_large();
        }
        if end_of_stream {
            return Action::Continue;
        }
        if self.policy.policy.hold_headers {
            // Envoy keeps the headers until the body is inspected (with
            // `allow_on_headers_stop_iteration`): a rejected request never leaves, and
            // the length is corrected after a rewrite.
            self.keep_length = declared.is_some();
            return Action::Pause;
        }
        // Otherwise the headers go upstream before the body is seen (pausing without
        // that setting would stall the stream), so the length cannot follow a
        // rewrite: drop it, and the body goes chunked (HTTP/1.1) or framed (HTTP/2).
        if self.host.set_header(Map::RequestHeaders, "content-length", None).is_err() {
            return self.failure();
        }
        Action::Continue
    }

    pub(super) fn on_request_body(&mut self, body_size: usize, end_of_stream: bool) -> Action {
        if self.kind.api().is_some() {
            return self.api_body(body_size, end_of_stream);
        }
        if !self.kind.buffering() {
            return Action::Continue;
        }
        if body_size > self.profile().limits.max_body_bytes {
            return self.too_large();
        }
        if !end_of_stream {
            // Buffered; released only by the verdict at the end of the stream or at
            // the trailers.
            return Action::Pause;
        }
        self.scan_request(body_size)
    }

    /// Trailers end the request instead of a body frame with end of stream (HTTP/2
    /// always can, HTTP/1.1 chunked with `enable_trailers`): the buffered body is
    /// scanned here, and the trailers wait with it.
    pub(super) fn on_request_trailers(&mut self) -> Action {
        if self.kind.api().is_some() {
            return self.api_trailers();
        }
        if !self.kind.buffering() {
            return Action::Continue;
        }
        let limit = self.profile().limits.max_body_bytes;
        let wire = match self.host.body(Buffer::RequestBody, 0, limit.saturating_add(1)) {
            Ok(body) => body.unwrap_or_default(),
            Err(_) => return self.failure(),
        };
        if wire.len() > limit {
            return self.too_large();
        }
        self.scan_body(wire)
    }

    /// Answers the client with a vendor-shaped error; the request goes no further.
    pub(super) fn reject(&mut self, status: u16, code: &str, message: &str, outcome: Outcome) -> Action {
        let provider = self.kind.provider().unwrap_or(Provider::Generic);
        let body = provider.error_body(status, code, message);
        self.event().outcome = outcome;
        // If even the local answer fails, the request stays paused: never forwarded.
        let _ = self.host.send_response(
            u32::from(status),
            &[("content-type", "application/json"), ("x-veil-error", code)],
            &body,
        );
        Action::Pause
    }

    fn too_large(&mut self) -> Action {
        let limits = &self.profile().limits;
        // A compressed body's coding is already gone from the headers: it cannot go on
        // as it came, so `on_oversize: pass` does not apply to it.
        if limits.on_oversize == OnOversize::Pass && self.codings.is_empty() {
            // Explicitly configured fail-open for big bodies: forwarded unscanned.
            self.event().outcome = Outcome::OversizePassed;
            self.kind.set_request(RequestPhase::Unscanned);
            return Action::Continue;
        }
        self.refuse(Refusal::TooLarge)
    }

    /// Answers with the refusal's vendor-shaped error; nothing is forwarded.
    fn refuse(&mut self, refusal: Refusal) -> Action {
        let limit = self.profile().limits.max_body_bytes;
        self.metrics.increment(Counter::Refused(refusal.code()), 1);
        self.reject(refusal.status(), refusal.code(), &refusal.message(limit), refusal.outcome())
    }

    /// The filter could not read the body: fail closed (500) or open (forward as is).
    pub(super) fn failure(&mut self) -> Action {
        match self.profile().failure_mode {
            FailureMode::Closed => self.reject(
                500,
                "veil_internal_error",
                "The gateway could not inspect this request; it was not forwarded.",
                Outcome::Failed,
            ),
            FailureMode::Open => {
                self.event().outcome = Outcome::FailedOpen;
                Action::Continue
            }
        }
    }

    fn scan_request(&mut self, body_size: usize) -> Action {
        self.kind.set_request(RequestPhase::Scanned);
        let wire = match self.host.body(Buffer::RequestBody, 0, body_size) {
            Ok(Some(body)) => body,
            Ok(None) if body_size == 0 => Vec::new(),
            _ => return self.failure(),
        };
        self.scan_body(wire)
    }

    /// Scans the whole buffered body `wire` (as it came: compressed, if it was) and
    /// carries out the verdict.
    fn scan_body(&mut self, wire: Vec<u8>) -> Action {
        self.kind.set_request(RequestPhase::Scanned);
        let wire_len = wire.len();
        let limit = self.profile().limits.max_body_bytes;
        let body = if self.codings.is_empty() {
            wire
        } else {
            let names: Vec<&str> = self.codings.iter().map(|c| c.name()).collect();
            self.event().content_encoding = Some(names.join(", "));
            match crate::encoding::decode(&wire, &self.codings, limit) {
                Ok(decoded) => decoded,
                Err(crate::encoding::DecodeError::TooLarge) => return self.too_large(),
                Err(crate::encoding::DecodeError::Corrupt) => return self.refuse(Refusal::InvalidEncoding),
                Err(crate::encoding::DecodeError::Unsupported) => return self.refuse(Refusal::UnsupportedEncoding),
            }
        };
        self.scan_decoded(body, wire_len)
    }

    /// Redacts the decoded `body` (`wire_len` bytes as buffered) — with the model
    /// stage's findings, when the policy asks for them and has them (`host/model.rs`:
    /// it may pause the request here until the model answers) — and carries out the
    /// verdict.
    pub(super) fn scan_decoded(&mut self, body: Vec<u8>, wire_len: usize) -> Action {
        let decoded = !self.codings.is_empty();
        let Some(provider) = self.kind.provider() else { return Action::Continue };
        let now = now_secs(&*self.host);
        let vault = self.vault.clone();
        let scope = self.scope.clone();
        let answered = self.model_answered();
        // Tokens already in the vault with the same value and more than half their
        // lifetime left need no write after this request.
        let fresh: RefCell<Vec<String>> = RefCell::new(Vec::new());
        let taken = |token: &str, value: &[u8]| {
            let Some(v) = vault.as_deref() else { return false };
            let check = v.check(self.host.store(), &scope, token, value, now);
            if check.fresh {
                fresh.borrow_mut().push(token.to_string());
            }
            check.taken
        };
        let policy = Rc::clone(&self.policy);
        let profile = policy.profile(self.rule);
        let redactor = Redactor { profile, provider, minter: &self.minter, scope: &scope, taken: &taken };
        let pass = crate::model_stage::Pass::new(&profile.engine, &scope, answered.as_ref());
        let content_type = self.content_type.clone();
        let redaction = timing::span(timing::Slot::Redact, || {
            if self.kind.route().file_upload {
                redactor.redact_file_with(&body, &|text| pass.findings(text))
            } else {
                redactor.redact_typed_with(&body, &content_type, &|text| pass.findings(text))
            }
        });
        if let Some(action) = self.model_stage(pass, &redaction.verdict, &body, wire_len) {
            return action;
        }
        let monitor = self.profile().mode == crate::policy::Mode::Monitor;
        let event = self.event();
        event.body = Some(redaction.kind.name());
        event.findings = redaction.counts.clone();
        event.request_bytes_in = wire_len as u64;
        event.request_bytes_out = body.len() as u64;
        event.tokens_issued = redaction.tokens.len() as u32;
        event.unscannable = redaction.unscannable;
        self.metrics.increment(Counter::ScanRemembered, redaction.remembered as u64);
        self.metrics.increment(Counter::UnscannableParts, u64::from(redaction.unscannable));
        for (category, count) in &redaction.counts {
            self.metrics.increment(Counter::Findings(category), u64::from(*count));
        }
        let unscannable = redaction.unscannable > 0;
        match redaction.verdict {
            Verdict::Forward => {
                self.event().outcome = if monitor && !redaction.counts.is_empty() {
                    Outcome::Monitored
                } else if unscannable {
                    Outcome::UnscannablePassed
                } else {
                    Outcome::Forwarded
                };
                if decoded {
                    // The codings were removed from the headers: the body goes on decoded.
                    return self.replace_request_body(wire_len, &body);
                }
                Action::Continue
            }
            Verdict::Rewrite(new_body) => {
                // Rewritten says more than that a part could not be read (`unscannable`
                // in the line says that).
                self.event().outcome = Outcome::Rewritten;
                self.event().request_bytes_out = new_body.len() as u64;
                self.metrics.increment(Counter::TokensIssued, redaction.tokens.len() as u64);
                self.tokens = redaction.tokens;
                self.remember_tokens(&fresh.borrow(), now);
                self.replace_request_body(wire_len, &new_body)
            }
            Verdict::Refuse(refusal) => self.refuse(refusal),
            Verdict::Block { category } => {
                self.event().blocked_category = Some(category.clone());
                self.reject(
                    403,
                    "veil_blocked",
                    &format!("Request blocked by the gateway's data policy: it contains {category}."),
                    Outcome::Blocked,
                )
            }
        }
    }

    /// Puts `body` in place of the `wire_len` buffered bytes, with a true length when
    /// the headers are still held; a host error fails the request.
    fn replace_request_body(&mut self, wire_len: usize, body: &[u8]) -> Action {
        let replaced = self.host.set_body(Buffer::RequestBody, 0, wire_len, body).and_then(|()| {
            if self.keep_length {
                self.host.set_header(Map::RequestHeaders, "content-length", Some(&body.len().to_string()))
            } else {
                Ok(())
            }
        });
        match replaced {
            Ok(()) => Action::Continue,
            Err(_) => self.failure(),
        }
    }

    /// The token scope of this request, per the policy. Only ever fed into keyed
    /// hashes; never stored or logged as is. A request that has no credential (or no
    /// peer identity, with `scope: peer`) gets a scope of its own: it must not share
    /// one with every other such request. The credential is the first of every API's
    /// credential headers ([`crate::provider::credential_headers`]) the request has,
    /// else Gemini's `key` query parameter.
    pub(super) fn scope_for_request(&self, headers: &Headers, path: &str) -> Vec<u8> {
        let credential = crate::provider::credential_headers()
            .find_map(|h| headers.get(h).filter(|v| !v.is_empty()).map(<[u8]>::to_vec))
            .or_else(|| query_param(path, "key").map(|key| [b"key:".as_slice(), key].concat()));
        let own = || {
            let mut nonce = [0u8; 16];
            let _ = self.host.random(&mut nonce);
            [b"request:".as_slice(), &nonce].concat()
        };
        let vault = &self.policy.policy.vault;
        match vault.scope {
            ScopeKind::Credential => credential.unwrap_or_else(own),
            ScopeKind::Header => match headers.get(&vault.scope_header) {
                Some(value) if vault.trusted_scope_header => [b"header:".as_slice(), value].concat(),
                // Bound to the credential: another credential with the same header value
                // is another scope.
                Some(value) => [b"header:".as_slice(), value, b"\0", &credential.unwrap_or_else(own)].concat(),
                None => credential.unwrap_or_else(own),
            },
            ScopeKind::Request => own(),
            ScopeKind::Peer => match self.host.peer_identity() {
                Some(peer) if !peer.is_empty() => [b"peer:".as_slice(), &peer].concat(),
                _ => own(),
            },
        }
    }

    /// Writes this request's tokens to the vault, but those found `fresh` there (`now`:
    /// the time they were checked at, in seconds).
    fn remember_tokens(&self, fresh: &[String], now: u64) {
        let Some(vault) = self.vault.as_deref() else { return };
        let (mut stored, mut evicted, mut failed) = (0u64, 0u64, 0u64);
        for (token, value) in self.tokens.iter() {
            if fresh.iter().any(|f| f == token) {
                continue;
            }
            let report = vault.put(self.host.store(), &self.scope, token, value, now);
            stored += u64::from(report.stored);
            evicted += u64::from(report.evicted);
            failed += u64::from(report.contended || report.too_large);
        }
        self.metrics.increment(Counter::VaultWrites, stored);
        self.metrics.increment(Counter::VaultEvicted, evicted);
        self.metrics.increment(Counter::VaultWriteFailures, failed);
    }
}

/// The raw value of query parameter `name` in a request path, if any.
pub(super) fn query_param<'p>(path: &'p str, name: &str) -> Option<&'p [u8]> {
    let query = path.split_once('?')?.1;
    let query = query.split('#').next().unwrap_or(query);
    query.split('&').find_map(|pair| {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        (k == name && !v.is_empty()).then_some(v.as_bytes())
    })
}
