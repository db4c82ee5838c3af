//! Audit events: one PII-free JSON line per protected request.
//!
//! The event holds counts, sizes, kinds and ids — by construction there is no field
//! that could carry a payload, a matched value, a token or a prompt.

use std::collections::BTreeMap;

use serde::Serialize;

/// What the filter did with a protected request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Nothing detected: forwarded byte-identical.
    Forwarded,
    /// Findings replaced; forwarded rewritten.
    Rewritten,
    /// Monitor mode: findings counted, forwarded unchanged.
    Monitored,
    /// A `block` action rejected the request (403).
    Blocked,
    /// Body larger than `limits.max_body_bytes` (413).
    TooLarge,
    /// Body larger than `limits.max_body_bytes`, forwarded unscanned because the
    /// policy says `limits.on_oversize: pass`.
    OversizePassed,
    /// The filter could not process the request and the policy failed closed (500).
    Failed,
    /// The filter could not process the request and the policy failed open.
    FailedOpen,
    /// JSON by type or first byte, not strict JSON: refused (400).
    InvalidJson,
    /// Not text, and the policy blocks unscannable bodies (415).
    UnscannableBlocked,
    /// Not text (or with binary parts: multipart, base64 media), forwarded unchanged as
    /// `limits.unscannable: pass` says. A body rewritten for its other parts is
    /// `rewritten`, with `unscannable` counting its unreadable parts.
    UnscannablePassed,
    /// A `content-encoding` the filter cannot decode (415).
    UnsupportedEncoding,
    /// A compressed body that does not decode (400).
    InvalidEncoding,
    /// A protocol upgrade or CONNECT to a protected destination (403).
    TransportRefused,
    /// A call to the gateway's own detection API (`api.prefix`), answered by the
    /// filter: nothing was forwarded.
    Answered,
}

impl Outcome {
    /// Every outcome.
    pub const ALL: &'static [Outcome] = &[
        Outcome::Forwarded,
        Outcome::Rewritten,
        Outcome::Monitored,
        Outcome::Blocked,
        Outcome::TooLarge,
        Outcome::OversizePassed,
        Outcome::Failed,
        Outcome::FailedOpen,
        Outcome::InvalidJson,
        Outcome::UnscannableBlocked,
        Outcome::UnscannablePassed,
        Outcome::UnsupportedEncoding,
        Outcome::InvalidEncoding,
        Outcome::TransportRefused,
        Outcome::Answered,
    ];

    /// The outcome's name, as the audit line writes it (a test holds the two equal).
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Forwarded => "forwarded",
            Outcome::Rewritten => "rewritten",
            Outcome::Monitored => "monitored",
            Outcome::Blocked => "blocked",
            Outcome::TooLarge => "too_large",
            Outcome::OversizePassed => "oversize_passed",
            Outcome::Failed => "failed",
            Outcome::FailedOpen => "failed_open",
            Outcome::InvalidJson => "invalid_json",
            Outcome::UnscannableBlocked => "unscannable_blocked",
            Outcome::UnscannablePassed => "unscannable_passed",
            Outcome::UnsupportedEncoding => "unsupported_encoding",
            Outcome::InvalidEncoding => "invalid_encoding",
            Outcome::TransportRefused => "transport_refused",
            Outcome::Answered => "answered",
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct AuditEvent {
    /// Always `"veil.audit"`: lets log pipelines pick these lines out.
    pub event: &'static str,
    /// Envoy's `x-request-id` when it is a UUID (what Envoy generates); a client's
    /// own value of any other shape only as `h:` and a keyed hash of it.
    pub request_id: String,
    pub provider: &'static str,
    /// Name of the policy rule that matched; absent for the top-level settings.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    pub outcome: Outcome,
    /// How the request body was read: `json`, `text`, `multipart`, `unscannable`, `empty`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body: Option<&'static str>,
    /// The content codings the body arrived in and was decoded from (`gzip`, `br`, …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content_encoding: Option<String>,
    /// Parts of the body that could not be scanned (a binary body, binary multipart
    /// parts); present only when there were some.
    #[serde(skip_serializing_if = "is_zero")]
    pub unscannable: u32,
    pub findings: BTreeMap<String, u32>,
    /// Category that caused a block.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blocked_category: Option<String>,
    pub tokens_issued: u32,
    pub tokens_restored: u32,
    pub request_bytes_in: u64,
    pub request_bytes_out: u64,
    pub response_status: Option<u16>,
    pub duration_ms: u64,
    /// Claim verification counts and skip reason (no claim text).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verification: Option<crate::verify::Summary>,
    /// The model stage (`detectors.model`): its outcome and counts (no text).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<ModelSummary>,
}

/// What the model stage did for one request: counts and a code, never text.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ModelSummary {
    /// `answered`, `cached` (every text answered from memory), `timeout`, `error`
    /// (a failed call or a non-200 answer), `unreadable` (an answer with no proposals
    /// to read), `too_large` (more new text than `max_chars`), `no_cluster`.
    pub outcome: &'static str,
    /// What the policy did about a failure: `rules_only` or `block`; absent when the
    /// model answered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub on_failure: Option<&'static str>,
    /// Texts sent to the model, and answered from the memory instead.
    pub texts: u32,
    pub cached: u32,
    /// Proposals kept as findings, and dropped by the checks.
    pub kept: u32,
    pub dropped: u32,
    /// How long the request waited for the model.
    pub wait_ms: u64,
}

/// The request id for the audit line: `x-request-id` as it is when it is a UUID in
/// canonical form (what Envoy generates, and all it can hold is 128 bits), else `h:` and
/// 16 hex digits of HMAC-SHA256(`key`, value): a client's own id still correlates its
/// requests, but its text never reaches the log. Empty when there is none.
pub fn request_id(raw: &[u8], key: &[u8; 32]) -> String {
    use hmac::{Hmac, Mac};
    if raw.is_empty() {
        return String::new();
    }
    if is_uuid(raw) {
        return String::from_utf8_lossy(raw).into_owned();
    }
    let Ok(mut mac) = <Hmac<sha2::Sha256> as Mac>::new_from_slice(key) else { return "h:".into() };
    mac.update(raw);
    let digest = mac.finalize().into_bytes();
    let mut out = String::from("h:");
    for b in digest.iter().take(8) {
        out.push_str(&format!("{b:02x}"));
    }
    out
}

/// `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`, hex digits.
fn is_uuid(raw: &[u8]) -> bool {
    raw.len() == 36
        && raw
            .iter()
            .enumerate()
            .all(|(i, b)| if matches!(i, 8 | 13 | 18 | 23) { *b == b'-' } else { b.is_ascii_hexdigit() })
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl AuditEvent {
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// How long audit lines and counter increments may wait to be written (ms), unless
/// the policy says otherwise (`audit.flush_ms`).
pub const FLUSH_MS: u64 = 100;
/// Most audit lines written in one log call.
pub const FLUSH_LINES: usize = 64;

/// What waits to be written: audit lines, and (a flag for) counter increments.
///
/// Each write to Envoy's log is a synchronous call into Envoy, and under load it was
/// the costliest single thing a request did after the redaction. So a worker writes
/// at once only when it has written nothing for the interval (`audit.flush_ms`,
/// [`FLUSH_MS`] by default); otherwise what comes in waits, at most until the
/// interval after the last write (or until [`FLUSH_LINES`] lines wait), and goes out
/// in one call, one line per request. At low traffic every line is written as its
/// request ends; under load, a line is at most the interval late, and a crashed Envoy
/// loses at most that much.
#[derive(Debug)]
pub struct Outbox {
    lines: String,
    count: usize,
    waiting: bool,
    /// When the last write was (ms).
    last: Option<u64>,
    /// How long after a write what comes in may wait (`audit.flush_ms`).
    flush_ms: u64,
}

impl Default for Outbox {
    fn default() -> Outbox {
        Outbox::new(FLUSH_MS)
    }
}

impl Outbox {
    /// An outbox whose lines wait at most `flush_ms` (0: none waits).
    pub fn new(flush_ms: u64) -> Outbox {
        Outbox { lines: String::new(), count: 0, waiting: false, last: None, flush_ms }
    }

    /// The policy changed the interval; what waits is due by the new one.
    pub fn set_flush_ms(&mut self, flush_ms: u64) {
        self.flush_ms = flush_ms;
    }

    /// Adds an audit line; true when what waits is to be written now ([`Outbox::take`]).
    pub fn push(&mut self, line: &str, now: u64) -> bool {
        if !self.lines.is_empty() {
            self.lines.push('\n');
        }
        self.lines.push_str(line);
        self.count += 1;
        self.touch(now)
    }

    /// Counter increments wait; true when what waits is to be written now.
    pub fn touch(&mut self, now: u64) -> bool {
        self.waiting = true;
        self.due(now)
    }

    pub fn due(&self, now: u64) -> bool {
        self.waiting
            && (self.count >= FLUSH_LINES || self.last.is_none_or(|last| now >= last.saturating_add(self.flush_ms)))
    }

    /// When what waits is due, if anything waits.
    pub fn due_at(&self) -> Option<u64> {
        self.waiting.then(|| self.last.map_or(0, |last| last.saturating_add(self.flush_ms)))
    }

    /// The waiting lines, joined by newlines (empty when only counters waited); the
    /// outbox is then empty, and `now` is its last write.
    pub fn take(&mut self, now: u64) -> String {
        self.count = 0;
        self.waiting = false;
        self.last = Some(now);
        std::mem::take(&mut self.lines)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_go_out_at_once_when_idle_and_together_under_load() {
        let mut out = Outbox::default();
        assert_eq!(out.due_at(), None);
        // Idle: the first line is due at once.
        assert!(out.push("a", 1_000));
        assert_eq!(out.take(1_000), "a");
        // Within FLUSH_MS of that write, lines wait, due FLUSH_MS after it.
        assert!(!out.push("b", 1_010));
        assert!(!out.push("c", 1_050));
        assert_eq!(out.due_at(), Some(1_000 + FLUSH_MS));
        assert!(!out.due(1_099));
        assert!(out.due(1_100));
        assert_eq!(out.take(1_100), "b\nc");
        assert_eq!(out.due_at(), None);
        // Counters alone wait the same way, and write no line.
        assert!(!out.touch(1_150));
        assert_eq!(out.due_at(), Some(1_200));
        assert_eq!(out.take(1_200), "");
        // Enough lines go out without waiting.
        for i in 0..FLUSH_LINES - 1 {
            assert!(!out.push(&i.to_string(), 1_201));
        }
        assert!(out.push("last", 1_201));
        assert_eq!(out.take(1_201).lines().count(), FLUSH_LINES);
        // Quiet for FLUSH_MS: at once again.
        assert!(out.push("later", 1_201 + FLUSH_MS));
    }

    #[test]
    fn with_no_interval_every_line_goes_out_as_it_comes() {
        let mut out = Outbox::new(0);
        for now in [5, 5, 6] {
            assert!(out.push("line", now));
            assert_eq!(out.take(now), "line");
        }
        let mut out = Outbox::default();
        assert!(out.push("a", 0));
        out.take(0);
        assert!(!out.push("b", 1));
        // A new policy with no interval: what waits is due at once.
        out.set_flush_ms(0);
        assert!(out.due(1));
    }

    #[test]
    fn line_has_counts_and_no_values() {
        let event = AuditEvent {
            event: "veil.audit",
            request_id: "r-1".into(),
            provider: "openai.chat",
            rule: Some("tenant-acme".into()),
            outcome: Outcome::Rewritten,
            body: Some("json"),
            content_encoding: None,
            unscannable: 0,
            findings: [("EMAIL".to_string(), 2)].into_iter().collect(),
            blocked_category: None,
            tokens_issued: 1,
            tokens_restored: 1,
            request_bytes_in: 100,
            request_bytes_out: 110,
            response_status: Some(200),
            duration_ms: 3,
            verification: None,
            model: None,
        };
        let v: serde_json::Value = serde_json::from_str(&event.to_line()).unwrap();
        assert_eq!(v["outcome"], "rewritten");
        assert_eq!(v["findings"]["EMAIL"], 2);
        assert!(v.get("blocked_category").is_none());
        assert!(v.get("unscannable").is_none() && v.get("content_encoding").is_none());
        let v: serde_json::Value = serde_json::from_str(
            &AuditEvent { unscannable: 1, outcome: Outcome::UnscannablePassed, ..event }.to_line(),
        )
        .unwrap();
        assert_eq!((v["unscannable"].as_u64(), v["outcome"].as_str()), (Some(1), Some("unscannable_passed")));
    }

    #[test]
    fn request_ids_are_envoys_or_hashed() {
        let key = [7; 32];
        let uuid = "3f9a1c0d-2b4e-4a6b-8c1d-0e2f3a4b5c6d";
        assert_eq!(request_id(uuid.as_bytes(), &key), uuid);
        assert_eq!(request_id(b"", &key), "");
        let client = request_id(b"jane.doe@example.com hello", &key);
        assert!(client.starts_with("h:") && client.len() == 18, "{client}");
        assert!(!client.contains("jane"));
        // Stable for one key, different for another, never the text.
        assert_eq!(client, request_id(b"jane.doe@example.com hello", &key));
        assert_ne!(client, request_id(b"jane.doe@example.com hello", &[8; 32]));
        assert!(request_id(b"3f9a1c0d-2b4e-4a6b-8c1d-0e2f3a4b5c6dX", &key).starts_with("h:"));
        assert!(request_id(b"3f9a1c0d_2b4e-4a6b-8c1d-0e2f3a4b5c6d", &key).starts_with("h:"));
    }
}
