//! The response path: decide how a response is read (passed, buffered whole, or
//! restored as it streams), restore tokens, and hand it to verification when the
//! policy asks. One restore entry point per shape ([`VeilHttp::restore_stream`],
//! [`VeilHttp::restore_whole`]) serves the plain and the verifying paths alike. A host
//! error here lets the bytes go on as they are: a token left in a response is the
//! safe failure.

use std::borrow::Cow;
use std::cell::Cell;

use super::exchange::{now_secs, Headers, VeilHttp};
use super::state::ResponseMode;
use super::{Action, Buffer, Map};
use crate::metrics::Counter;
use crate::provider::Provider;
use crate::restore::{lines_type, restore_json, restore_lines, restore_text};
use crate::stream::{Framing, ResponseStream};
use crate::token::{Lookup, TokenMap};
use crate::vault::{Store, Vault};

/// Whole response bodies declared larger than this (Envoy's default per-connection
/// buffer limit) are not buffered for restoration.
const MAX_RESTORED_RESPONSE_BYTES: usize = 1024 * 1024;

pub(super) struct ScopedLookup<'a> {
    store: &'a dyn Store,
    tokens: &'a TokenMap,
    vault: Option<&'a Vault>,
    scope: &'a [u8],
    now: u64,
    hits: Cell<u32>,
}

impl<'a> ScopedLookup<'a> {
    fn new(
        store: &'a dyn Store,
        tokens: &'a TokenMap,
        vault: Option<&'a Vault>,
        scope: &'a [u8],
        now: u64,
    ) -> ScopedLookup<'a> {
        ScopedLookup { store, tokens, vault, scope, now, hits: Cell::new(0) }
    }
}

impl Lookup for ScopedLookup<'_> {
    fn lookup(&self, token: &str) -> Option<Cow<'_, [u8]>> {
        if let Some(value) = self.tokens.get(token) {
            return Some(Cow::Borrowed(value));
        }
        let value = self.vault?.get(self.store, self.scope, token, self.now)?;
        self.hits.set(self.hits.get() + 1);
        Some(Cow::Owned(value))
    }
}

impl VeilHttp {
    pub(super) fn on_response_headers(&mut self) -> Action {
        // The gateway's own answers (API, console) are not vendor responses.
        if self.kind.provider().is_none() {
            return Action::Continue;
        }
        let Ok(pairs) = self.host.header_pairs(Map::ResponseHeaders) else { return Action::Continue };
        let headers = Headers(pairs);
        let status =
            std::str::from_utf8(headers.get(":status").unwrap_or_default()).ok().and_then(|s| s.parse::<u16>().ok());
        self.event().response_status = status;
        // With a vault, an earlier request's tokens may come back in any response.
        if self.tokens.is_empty() && self.vault.is_none() && !self.profile().verification.enabled {
            return Action::Continue;
        }
        let encoded =
            headers.get("content-encoding").is_some_and(|e| !e.trim_ascii().eq_ignore_ascii_case(b"identity"));
        if encoded {
            self.metrics.increment(Counter::RestoreSkipped("encoded"), 1);
            self.verify_start(status, true);
            return Action::Continue;
        }
        let content_type = headers.text("content-type").to_ascii_lowercase();
        let provider = self.kind.provider().unwrap_or(Provider::Generic);
        // Every request to a destination is protected now, file downloads included: a
        // whole body declared larger than Envoy would buffer goes on unrestored (a
        // token in it stays a token) instead of failing.
        let declared =
            headers.get("content-length").and_then(|v| std::str::from_utf8(v).ok()?.trim().parse::<usize>().ok());
        let too_big = declared.is_some_and(|len| len > MAX_RESTORED_RESPONSE_BYTES);
        self.response = if content_type.starts_with("text/event-stream") {
            ResponseMode::Stream(ResponseStream::new(provider, Framing::Sse))
        } else if self.kind.route().json_array_stream && content_type.contains("json") {
            ResponseMode::Stream(ResponseStream::new(provider, Framing::JsonArray))
        } else if lines_type(&content_type) {
            // JSON Lines (an NDJSON stream, a batch's results): restored line by line as
            // it arrives.
            ResponseMode::Stream(ResponseStream::new(provider, Framing::Lines))
        } else if too_big && (content_type.contains("json") || content_type.starts_with("text/plain")) {
            self.metrics.increment(Counter::RestoreSkipped("large"), 1);
            ResponseMode::Pass
        } else if !too_big
            && (self.kind.route().file_download
                && (content_type.starts_with("application/octet-stream") || content_type.is_empty()))
        {
            // A JSON Lines answer (a batch's results, a stored file's content): each
            // line restored as the JSON it is.
            ResponseMode::BufferLines
        } else if content_type.contains("json") {
            ResponseMode::BufferJson
        } else if content_type.starts_with("text/plain") {
            ResponseMode::BufferText
        } else {
            ResponseMode::Pass
        };
        // The length changes with the restoration; a response whose length cannot be
        // dropped goes on unrestored (its tokens stay tokens).
        if !matches!(self.response, ResponseMode::Pass)
            && self.host.set_header(Map::ResponseHeaders, "content-length", None).is_err()
        {
            self.response = ResponseMode::Pass;
        }
        self.verify_start(status, false);
        if self.verify_holds_headers() {
            // `hold_headers`: Envoy keeps them (allow_on_headers_stop_iteration) while
            // the body is verified, so the summary header can still be added.
            return Action::Pause;
        }
        Action::Continue
    }

    pub(super) fn on_response_body(&mut self, body_size: usize, end_of_stream: bool) -> Action {
        if self.verifying_stream() {
            return self.verify_stream_body(body_size, end_of_stream);
        }
        if matches!(self.response, ResponseMode::Stream(_)) {
            // Restore as it streams: this chunk goes on now, minus at most a held-back
            // token prefix (and an incomplete event), which the next chunk releases.
            let chunk = match self.host.body(Buffer::ResponseBody, 0, body_size) {
                Ok(Some(chunk)) => chunk,
                Ok(None) if body_size == 0 => Vec::new(),
                _ => return Action::Continue,
            };
            let out = self.restore_stream(&chunk, |stream, tokens| stream.feed(&chunk, end_of_stream, tokens));
            if out != chunk {
                let _ = self.host.set_body(Buffer::ResponseBody, 0, body_size, &out);
            }
            return Action::Continue;
        }
        if matches!(self.response, ResponseMode::Pass) {
            return Action::Continue;
        }
        if !end_of_stream {
            return Action::Pause;
        }
        if self.verifying_whole() {
            return self.verify_whole_body(body_size);
        }
        let Ok(Some(body)) = self.host.body(Buffer::ResponseBody, 0, body_size) else { return Action::Continue };
        if let Some(new_body) = self.restore_whole(&body) {
            let _ = self.host.set_body(Buffer::ResponseBody, 0, body_size, &new_body);
        }
        Action::Continue
    }

    /// A step of the response's stream (a chunk, or its end), counting what was
    /// restored; `unchanged` goes on as it is if the response is no stream. The plain
    /// and the verifying paths both restore through here.
    pub(super) fn restore_stream(
        &mut self,
        unchanged: &[u8],
        step: impl FnOnce(&mut ResponseStream, &dyn Lookup) -> Vec<u8>,
    ) -> Vec<u8> {
        let now = now_secs(&*self.host);
        let ResponseMode::Stream(stream) = &mut self.response else { return unchanged.to_vec() };
        let before = stream.restored();
        let lookup = ScopedLookup::new(self.host.store(), &self.tokens, self.vault.as_deref(), &self.scope, now);
        let out = step(stream, &lookup);
        let vault_hits = lookup.hits.get();
        let restored = stream.restored() - before;
        self.count_restored(restored, vault_hits);
        out
    }

    /// Restores a whole body: as JSON (or as text when it does not parse) when the
    /// response is JSON, else as text; `None` when nothing changed. The plain and the
    /// verifying paths both restore through here.
    pub(super) fn restore_whole(&mut self, body: &[u8]) -> Option<Vec<u8>> {
        let provider = self.kind.provider().unwrap_or(Provider::Generic);
        let json = matches!(self.response, ResponseMode::BufferJson);
        let lookup = ScopedLookup::new(
            self.host.store(),
            &self.tokens,
            self.vault.as_deref(),
            &self.scope,
            now_secs(&*self.host),
        );
        let restoration = if json {
            restore_json(provider, body, &lookup).unwrap_or_else(|_| restore_text(body, &lookup))
        } else if matches!(self.response, ResponseMode::BufferLines) {
            restore_lines(body, &lookup)
        } else {
            restore_text(body, &lookup)
        };
        let vault_hits = lookup.hits.get();
        self.count_restored(restoration.restored, vault_hits);
        restoration.body
    }

    fn count_restored(&mut self, restored: u32, vault_hits: u32) {
        self.metrics.increment(Counter::TokensRestored, u64::from(restored));
        self.metrics.increment(Counter::VaultRestored, u64::from(vault_hits));
        self.event().tokens_restored += restored;
    }
}
