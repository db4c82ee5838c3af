//! One response's verification, as a state machine the host drives.
//!
//! The host pushes text as it arrives ([`Session::push`]), calls [`Session::poll`]
//! for the verifier calls to make now, hands each answer back
//! ([`Session::on_answer`]), says when the response is complete
//! ([`Session::finish`], which starts the budget) and, once [`Session::is_done`],
//! takes the [`Report`]. Time is passed in, never read, so every branch is testable.
//!
//! A failed call is retried after a backoff: the session keeps it until its time
//! ([`Session::next_wakeup`] says when the host must poll again; an HTTP context has no
//! timer of its own, so the host's root context wakes it), and gives it up when the
//! wait would run past the budget.

use std::collections::{BTreeMap, VecDeque};

use super::annotate::Mark;
use super::cache::{self, Cache, CacheKey};
use super::parse::{parse_claims, parse_verdict, Verdict};
use super::prompt::{extraction_request, verification_request, CallKind};
use super::{VerifiedText, VerifyConfig};
use crate::llm::{backoff_ms, Budget, ParseError, MIN_CALL_MS};

/// While streaming, claims are extracted once this much complete-sentence text waits.
pub const STREAM_BATCH_BYTES: usize = 240;

/// Why (part of) a response went out unverified. Reported in the header, the audit
/// line and a counter; never carries text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum SkipReason {
    /// Answer shorter than `min_chars`.
    TooShort,
    /// No prose in the response (tool calls only, an error, not JSON).
    NoText,
    /// The response was compressed.
    Encoded,
    /// The budget ran out before every claim was scored.
    Budget,
    /// A call timed out.
    VerifierTimeout,
    /// The verifier could not be reached (refused, reset, no healthy host).
    VerifierUnavailable,
    /// The verifier answered with an error status.
    VerifierError,
    /// The verifier's answer could not be read.
    VerifierGarbage,
    /// Envoy refused to make the call at all (no such cluster): a configuration error,
    /// not retried, and no further call is tried for the response.
    VerifierMisconfigured,
}

impl SkipReason {
    pub fn code(self) -> &'static str {
        match self {
            SkipReason::TooShort => "too_short",
            SkipReason::NoText => "no_text",
            SkipReason::Encoded => "encoded",
            SkipReason::Budget => "budget",
            SkipReason::VerifierTimeout => "verifier_timeout",
            SkipReason::VerifierUnavailable => "verifier_unavailable",
            SkipReason::VerifierError => "verifier_error",
            SkipReason::VerifierGarbage => "verifier_garbage",
            SkipReason::VerifierMisconfigured => "verifier_misconfigured",
        }
    }

    /// Is this a failure of the verifier (counted as an error), rather than a
    /// response that had nothing to verify?
    pub fn is_failure(self) -> bool {
        !matches!(self, SkipReason::TooShort | SkipReason::NoText | SkipReason::Encoded)
    }
}

/// Counts for the header, the audit line and the metrics.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Summary {
    /// Claims extracted (and found in the text).
    pub claims: u32,
    /// Claims scored (by the verifier or from the cache).
    pub verified: u32,
    /// Claims marked (score under the threshold).
    pub warnings: u32,
    /// Failed calls (after retries).
    pub errors: u32,
    pub cache_hits: u32,
    pub retries: u32,
    /// Claims the verifier named that are not in the text (dropped).
    pub dropped: u32,
    pub calls: u32,
    /// Total time spent in verifier calls, and the slowest call.
    pub latency_ms_total: u64,
    pub latency_ms_max: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skipped: Option<&'static str>,
}

impl Summary {
    /// The `x-veil-verification` header value.
    pub fn header(&self) -> String {
        let mut h = format!("claims={}; verified={}; warnings={}", self.claims, self.verified, self.warnings);
        if let Some(reason) = self.skipped {
            h.push_str("; skipped=");
            h.push_str(reason);
        }
        h
    }
}

/// A claim of the answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Claim {
    pub text: String,
    /// Byte range in the session's text.
    pub span: Option<(usize, usize)>,
    pub verdict: Option<Verdict>,
}

/// A verifier call to make: the host dispatches `body` to the configured cluster and
/// path with `timeout_ms`, and returns the answer with `id`.
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    pub id: u32,
    pub kind: CallKind,
    pub body: Vec<u8>,
    pub timeout_ms: u64,
}

#[derive(Debug, Clone)]
struct InFlight {
    kind: CallKind,
    attempt: u32,
    started_ms: u64,
    timeout_ms: u64,
}

/// A failed call waiting out its backoff.
#[derive(Debug, Clone)]
struct Retry {
    kind: CallKind,
    attempt: u32,
    due_ms: u64,
    /// Why the last attempt failed: the reason reported if this one is given up.
    reason: SkipReason,
}

/// What came back for a call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// An HTTP response (any status).
    Response { status: u16, body: Vec<u8> },
    /// No response at all (the call was reset, or failed as it started).
    Failed,
    /// The host refused to dispatch the call (Envoy knows no such cluster): retrying
    /// cannot help, so the session stops calling.
    Refused,
}

/// The end result.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    pub marks: Vec<Mark>,
    pub summary: Summary,
}

#[derive(Debug)]
pub struct Session {
    config: VerifyConfig,
    cache_secret: [u8; 32],
    text: String,
    /// Bytes of `text` already sent for extraction.
    submitted: usize,
    claims: Vec<Claim>,
    queue: VecDeque<(usize, u32)>,
    retry_extract: Option<(CallKind, u32)>,
    /// Failed calls waiting for their backoff.
    waiting: Vec<Retry>,
    /// Seeds the backoff's random part (per session, from the host).
    jitter_seed: u64,
    in_flight: BTreeMap<u32, InFlight>,
    next_id: u32,
    finishing: bool,
    budget: Option<Budget>,
    summary: Summary,
    skip: Option<SkipReason>,
    /// `max_chars` reached: later text is not verified.
    full: bool,
    /// A call was refused ([`Answer::Refused`]): nothing more is asked.
    halted: bool,
}

impl Session {
    /// `cache_secret` keys the cache hashes (derived from the vault key by the host).
    pub fn new(config: VerifyConfig, cache_secret: [u8; 32]) -> Session {
        Session {
            config,
            cache_secret,
            text: String::new(),
            submitted: 0,
            claims: Vec::new(),
            queue: VecDeque::new(),
            retry_extract: None,
            waiting: Vec::new(),
            jitter_seed: 0,
            in_flight: BTreeMap::new(),
            next_id: 1,
            finishing: false,
            budget: None,
            summary: Summary::default(),
            skip: None,
            full: false,
            halted: false,
        }
    }

    /// Seeds the random part of the backoff, so that sessions that failed at the same
    /// moment retry at different ones.
    pub fn with_jitter_seed(mut self, seed: u64) -> Session {
        self.jitter_seed = seed;
        self
    }

    pub fn config(&self) -> &VerifyConfig {
        &self.config
    }

    /// The text verified so far.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Appends text (up to `max_chars`, cut at a character boundary).
    pub fn push(&mut self, text: &str) {
        if self.full {
            return;
        }
        let room = self.config.max_chars.saturating_sub(self.text.len());
        let cut = (0..=room.min(text.len())).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
        self.text.push_str(text.get(..cut).unwrap_or_default());
        self.full = cut < text.len();
    }

    /// Notes a reason for skipping, keeping the first failure.
    pub fn skip(&mut self, reason: SkipReason) {
        if self.skip.is_none() || (!self.skip.is_some_and(SkipReason::is_failure) && reason.is_failure()) {
            self.skip = Some(reason);
        }
    }

    /// The response is complete: the budget starts now.
    pub fn finish(&mut self, now_ms: u64) {
        if !self.finishing {
            self.finishing = true;
            self.budget = Some(Budget::start(now_ms, self.config.budget_ms));
            if self.text.trim().len() < self.config.min_chars && self.claims.is_empty() && self.in_flight.is_empty() {
                self.skip(if self.text.trim().is_empty() { SkipReason::NoText } else { SkipReason::TooShort });
                self.submitted = self.text.len();
            }
        }
    }

    fn timeout(&self, now_ms: u64) -> Option<u64> {
        match self.budget {
            Some(budget) => budget.call_timeout(now_ms, self.config.call_timeout_ms),
            None => Some(self.config.call_timeout_ms),
        }
    }

    fn extracting(&self) -> bool {
        self.in_flight.values().any(|c| matches!(c.kind, CallKind::Extract { .. }))
    }

    fn verifying(&self) -> usize {
        self.in_flight.values().filter(|c| matches!(c.kind, CallKind::Verify { .. })).count()
    }

    /// End of the last complete sentence after `submitted`, if enough text waits.
    fn extract_until(&self) -> Option<usize> {
        let rest = self.text.get(self.submitted..)?;
        if self.finishing {
            return (!rest.trim().is_empty()).then_some(self.text.len());
        }
        let mut end = None;
        let mut chars = rest.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            let next_is_space = chars.peek().is_some_and(|(_, n)| n.is_whitespace());
            if c == '\n' || (matches!(c, '.' | '!' | '?') && next_is_space) {
                end = Some(i + c.len_utf8());
            }
        }
        end.filter(|&e| e >= STREAM_BATCH_BYTES).map(|e| self.submitted + e)
    }

    fn call(&mut self, kind: CallKind, attempt: u32, now_ms: u64, timeout_ms: u64) -> Call {
        let body = match &kind {
            CallKind::Extract { start, end } => {
                extraction_request(&self.config, self.text.get(*start..*end).unwrap_or_default())
            }
            CallKind::Verify { claim } => {
                verification_request(&self.config, self.claims.get(*claim).map_or("", |c| c.text.as_str()))
            }
        };
        let id = self.next_id;
        self.next_id += 1;
        self.summary.calls += 1;
        if attempt > 0 {
            self.summary.retries += 1;
        }
        self.in_flight.insert(id, InFlight { kind: kind.clone(), attempt, started_ms: now_ms, timeout_ms });
        Call { id, kind, body, timeout_ms }
    }

    fn cache_key(&self, claim: &str) -> CacheKey {
        CacheKey::new(&self.cache_secret, &self.config.model, claim)
    }

    /// Caching is for tokenized text only: restored claims may hold personal data,
    /// and shared data keeps no readable secret.
    fn cache_entries(&self) -> usize {
        if self.config.text == VerifiedText::Tokenized {
            self.config.cache_entries
        } else {
            0
        }
    }

    /// The calls to make now.
    pub fn poll(&mut self, now_ms: u64, now_secs: u64, cache: &dyn Cache) -> Vec<Call> {
        let mut calls = Vec::new();
        if self.halted {
            self.submitted = self.text.len();
            return calls;
        }
        self.give_up_late_retries();
        if self.budget.is_some_and(|b| b.expired(now_ms)) {
            if !self.queue.is_empty() || self.retry_extract.is_some() || self.submitted < self.text.len() {
                self.skip(SkipReason::Budget);
            }
            self.queue.clear();
            self.retry_extract = None;
            self.submitted = self.text.len();
            return calls;
        }
        let Some(timeout) = self.timeout(now_ms) else { return calls };
        self.release_due_retries(now_ms);
        if self.finishing && self.text.get(self.submitted..).is_none_or(|rest| rest.trim().is_empty()) {
            self.submitted = self.text.len();
        }
        if self.claims.len() >= self.config.max_claims {
            // Enough claims: nothing more will be extracted.
            self.submitted = self.text.len();
            self.retry_extract = None;
            self.waiting.retain(|r| !matches!(r.kind, CallKind::Extract { .. }));
        } else if !self.extracting() && !self.waiting.iter().any(|r| matches!(r.kind, CallKind::Extract { .. })) {
            if let Some((kind, attempt)) = self.retry_extract.take() {
                calls.push(self.call(kind, attempt, now_ms, timeout));
            } else if let Some(end) = self.extract_until() {
                let kind = CallKind::Extract { start: self.submitted, end };
                self.submitted = end;
                calls.push(self.call(kind, 0, now_ms, timeout));
            }
        }
        let entries = self.cache_entries();
        while self.verifying() < self.config.concurrency {
            let Some((claim, attempt)) = self.queue.pop_front() else { break };
            if attempt == 0 {
                let key = self.cache_key(self.claims.get(claim).map_or("", |c| c.text.as_str()));
                if let Some(verdict) = cache::get(cache, &key, entries, now_secs) {
                    self.summary.cache_hits += 1;
                    self.scored(claim, verdict);
                    continue;
                }
            }
            calls.push(self.call(CallKind::Verify { claim }, attempt, now_ms, timeout));
        }
        calls
    }

    /// Retries whose time has come go back to the front of their line.
    fn release_due_retries(&mut self, now_ms: u64) {
        let (due, later): (Vec<Retry>, Vec<Retry>) = self.waiting.drain(..).partition(|r| r.due_ms <= now_ms);
        self.waiting = later;
        for retry in due {
            match retry.kind {
                CallKind::Extract { .. } => self.retry_extract = Some((retry.kind, retry.attempt)),
                CallKind::Verify { claim } => self.queue.push_front((claim, retry.attempt)),
            }
        }
    }

    /// A retry that could not start with [`MIN_CALL_MS`] of the budget left is given
    /// up now, as the failure it retries (not `budget`: the verifier failed).
    fn give_up_late_retries(&mut self) {
        let Some(budget) = self.budget else { return };
        let (late, kept): (Vec<Retry>, Vec<Retry>) =
            self.waiting.drain(..).partition(|r| budget.remaining(r.due_ms) < MIN_CALL_MS);
        self.waiting = kept;
        for retry in late {
            self.summary.errors += 1;
            self.skip(retry.reason);
        }
    }

    /// When the host must poll again for a retry that is waiting out its backoff
    /// (`None`: nothing waits; answers and new text drive the session).
    pub fn next_wakeup(&self) -> Option<u64> {
        self.waiting.iter().map(|r| r.due_ms).min()
    }

    fn scored(&mut self, claim: usize, verdict: Verdict) {
        self.summary.verified += 1;
        if verdict.score < self.config.threshold {
            self.summary.warnings += 1;
        }
        if let Some(c) = self.claims.get_mut(claim) {
            c.verdict = Some(verdict);
        }
    }

    /// Where a claim sits in `text[start..end]`: exactly, or ignoring ASCII case.
    fn locate(&self, claim: &str, start: usize, end: usize) -> Option<(usize, usize)> {
        let segment = self.text.get(start..end)?;
        let candidates = [claim, claim.trim_end_matches(['.', '!', '?'])];
        for c in candidates {
            if c.is_empty() {
                continue;
            }
            if let Some(at) = segment.find(c) {
                return Some((start + at, start + at + c.len()));
            }
            let lower = segment.to_ascii_lowercase();
            if let Some(at) = lower.find(&c.to_ascii_lowercase()) {
                if segment.is_char_boundary(at) && segment.is_char_boundary(at + c.len()) {
                    return Some((start + at, start + at + c.len()));
                }
            }
        }
        // A paraphrase: the sentence holding most of its words (at least 70 %).
        best_sentence(segment, claim).map(|(s, e)| (start + s, start + e))
    }

    /// Takes the answer to call `id`.
    pub fn on_answer(&mut self, id: u32, answer: Answer, now_ms: u64, now_secs: u64, cache: &dyn Cache) {
        let Some(call) = self.in_flight.remove(&id) else { return };
        let elapsed = now_ms.saturating_sub(call.started_ms);
        self.summary.latency_ms_total += elapsed;
        self.summary.latency_ms_max = self.summary.latency_ms_max.max(elapsed);
        let failure = match &answer {
            Answer::Failed if elapsed + 5 >= call.timeout_ms => Err(SkipReason::VerifierTimeout),
            Answer::Failed => Err(SkipReason::VerifierUnavailable),
            Answer::Refused => Err(SkipReason::VerifierMisconfigured),
            // Envoy's own answers for a call it could not complete: 504 when the
            // timeout fired, 503 when no connection could be made.
            Answer::Response { status: 504, .. } => Err(SkipReason::VerifierTimeout),
            Answer::Response { status: 503, .. } => Err(SkipReason::VerifierUnavailable),
            Answer::Response { status, .. } if !(200..300).contains(status) => Err(SkipReason::VerifierError),
            Answer::Response { body, .. } => Ok(body.as_slice()),
        };
        let result = failure.and_then(|body| match &call.kind {
            CallKind::Extract { start, end } => {
                let max = self.config.max_claims.saturating_sub(self.claims.len());
                let claims = parse_claims(body, max).map_err(garbage)?;
                for text in claims {
                    let span = self.locate(&text, *start, *end);
                    if span.is_none() {
                        self.summary.dropped += 1;
                        continue;
                    }
                    if self.claims.iter().any(|c| c.span == span) {
                        continue;
                    }
                    self.claims.push(Claim { text, span, verdict: None });
                    self.summary.claims += 1;
                    self.queue.push_back((self.claims.len() - 1, 0));
                }
                Ok(())
            }
            CallKind::Verify { claim } => {
                let verdict = parse_verdict(body).map_err(garbage)?;
                let key = self.cache_key(self.claims.get(*claim).map_or("", |c| c.text.as_str()));
                cache::put(cache, &key, self.cache_entries(), &verdict, now_secs, self.config.cache_ttl_seconds);
                self.scored(*claim, verdict);
                Ok(())
            }
        });
        if let Err(reason) = result {
            if reason == SkipReason::VerifierMisconfigured {
                self.halt(reason);
            } else if call.attempt < self.config.retries && reason != SkipReason::VerifierTimeout {
                let attempt = call.attempt + 1;
                let jitter = mix(self.jitter_seed ^ (u64::from(id) << 8) ^ u64::from(attempt));
                let wait = backoff_ms(self.config.retry_backoff_ms, self.config.retry_backoff_max_ms, attempt, jitter);
                let due_ms = now_ms.saturating_add(wait);
                self.waiting.push(Retry { kind: call.kind, attempt, due_ms, reason });
                self.give_up_late_retries();
            } else {
                self.summary.errors += 1;
                self.skip(reason);
            }
        }
    }

    /// Stops asking: queued claims, waiting retries and text not yet extracted are
    /// dropped (calls still out may answer), and the reason is reported.
    fn halt(&mut self, reason: SkipReason) {
        self.halted = true;
        self.summary.errors += 1;
        self.skip = Some(reason);
        self.queue.clear();
        self.waiting.clear();
        self.retry_extract = None;
        self.submitted = self.text.len();
    }

    /// Nothing in flight and nothing left to ask (the response can go on).
    pub fn is_done(&self) -> bool {
        self.finishing
            && self.in_flight.is_empty()
            && self.queue.is_empty()
            && self.retry_extract.is_none()
            && self.waiting.is_empty()
            && self.submitted >= self.text.len()
    }

    /// Finished, no call out and no retry waiting: after a [`Session::poll`] that
    /// dispatched nothing, the host lets the response go on. (Weaker than
    /// [`Session::is_done`] on purpose: a paused response resumes even if a bug left
    /// work queued; a waiting retry always ends within the budget.)
    pub fn settled(&self) -> bool {
        self.finishing && self.in_flight.is_empty() && self.waiting.is_empty()
    }

    /// The claims to mark, and the counts.
    pub fn report(&self) -> Report {
        let mut summary = self.summary.clone();
        let unverified = self.claims.iter().any(|c| c.verdict.is_none());
        let mut skip = self.skip;
        if unverified && skip.is_none() {
            skip = Some(SkipReason::Budget);
        }
        summary.skipped = skip.map(SkipReason::code);
        let marks = self
            .claims
            .iter()
            .filter_map(|c| {
                let v = c.verdict.as_ref()?;
                (v.score < self.config.threshold).then(|| Mark {
                    span: c.span,
                    claim: c.text.clone(),
                    score: v.score,
                    reasoning: v.reasoning.clone(),
                })
            })
            .collect();
        Report { marks, summary }
    }
}

fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_lowercase).collect()
}

/// The byte range of the sentence of `text` that holds the largest share of the
/// claim's words, if that share is at least 70 % (small models paraphrase when asked
/// to quote).
fn best_sentence(text: &str, claim: &str) -> Option<(usize, usize)> {
    let claim_words = words(claim);
    if claim_words.len() < 3 {
        return None;
    }
    let mut best: Option<(usize, (usize, usize))> = None;
    let mut start = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let end_here = matches!(c, '.' | '!' | '?' | '\n') && chars.peek().is_none_or(|(_, n)| n.is_whitespace());
        let last = chars.peek().is_none();
        if !(end_here || last) {
            continue;
        }
        let end = i + c.len_utf8();
        let sentence = text.get(start..end).unwrap_or_default();
        let sentence_words = words(sentence);
        let hits = claim_words.iter().filter(|w| sentence_words.contains(w)).count();
        if hits * 10 >= claim_words.len() * 7 && best.is_none_or(|(h, _)| hits > h) {
            let lead = sentence.len() - sentence.trim_start().len();
            let trail = sentence.len() - sentence.trim_end().len();
            best = Some((hits, (start + lead, end - trail)));
        }
        start = end;
    }
    best.map(|(_, span)| span)
}

/// SplitMix64's finaliser: spreads a seed over all bits.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

fn garbage(_: ParseError) -> SkipReason {
    SkipReason::VerifierGarbage
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::MemCache;

    fn answer(content: &str) -> Answer {
        let body = serde_json::to_vec(&serde_json::json!({"choices": [{"message": {"content": content}}]})).unwrap();
        Answer::Response { status: 200, body }
    }

    fn config() -> VerifyConfig {
        VerifyConfig { enabled: true, concurrency: 2, ..Default::default() }
    }

    const TEXT: &str = "The Eiffel Tower is in Rome. Water boils at 100 degrees at sea level. Nice day!";

    #[test]
    fn extract_then_verify_then_report() {
        let cache = MemCache::default();
        let mut s = Session::new(config(), [7; 32]);
        s.push(TEXT);
        assert!(s.poll(0, 0, &cache).is_empty(), "nothing before a batch or the end");
        s.finish(1000);
        let calls = s.poll(1000, 1, &cache);
        assert_eq!(calls.len(), 1);
        assert!(matches!(calls[0].kind, CallKind::Extract { start: 0, end } if end == TEXT.len()));
        assert_eq!(calls[0].timeout_ms, 3000);
        s.on_answer(
            calls[0].id,
            answer(r#"{"claims":[{"text":"The Eiffel Tower is in Rome."},{"text":"water boils at 100 degrees at sea level"},{"text":"Invented claim."}]}"#),
            1100,
            1,
            &cache,
        );
        let calls = s.poll(1100, 1, &cache);
        assert_eq!(calls.len(), 2);
        s.on_answer(calls[0].id, answer(r#"{"score": 5, "reasoning": "It is in Paris."}"#), 1200, 1, &cache);
        assert!(!s.is_done());
        s.on_answer(calls[1].id, answer(r#"{"score": 95, "reasoning": "Physics."}"#), 1300, 1, &cache);
        assert!(s.poll(1300, 1, &cache).is_empty());
        assert!(s.is_done());
        let r = s.report();
        assert_eq!(r.summary.header(), "claims=2; verified=2; warnings=1");
        assert_eq!((r.summary.dropped, r.summary.calls, r.summary.latency_ms_max), (1, 3, 200));
        assert_eq!(r.marks.len(), 1);
        assert_eq!(r.marks[0].span, Some((0, 28)));
        assert_eq!(r.marks[0].score, 5);

        // The same claims again: scores come from the cache, no verify calls.
        let mut s = Session::new(config(), [7; 32]);
        s.push(TEXT);
        s.finish(0);
        let calls = s.poll(0, 2, &cache);
        s.on_answer(calls[0].id, answer(r#"{"claims":["The Eiffel Tower is in Rome."]}"#), 10, 2, &cache);
        assert!(s.poll(10, 2, &cache).is_empty());
        assert!(s.is_done());
        assert_eq!((s.report().summary.cache_hits, s.report().summary.warnings), (1, 1));
    }

    #[test]
    fn failures_retry_then_fail_open_with_a_reason() {
        let cases: Vec<(Answer, u64, SkipReason)> = vec![
            (Answer::Response { status: 500, body: b"oops".to_vec() }, 5, SkipReason::VerifierError),
            (Answer::Response { status: 503, body: Vec::new() }, 5, SkipReason::VerifierUnavailable),
            (Answer::Response { status: 429, body: Vec::new() }, 5, SkipReason::VerifierError),
            (Answer::Failed, 5, SkipReason::VerifierUnavailable),
            (answer("I am not JSON"), 5, SkipReason::VerifierGarbage),
        ];
        for (bad, after, reason) in cases {
            let cache = MemCache::default();
            let mut s = Session::new(config(), [1; 32]);
            s.push(TEXT);
            s.finish(0);
            let first = s.poll(0, 0, &cache);
            s.on_answer(first[0].id, bad.clone(), after, 0, &cache);
            assert!(s.poll(after, 0, &cache).is_empty(), "{reason:?}: the retry waits");
            let due = s.next_wakeup().unwrap();
            let retry = s.poll(due, 0, &cache);
            assert_eq!(retry.len(), 1, "{reason:?}: one retry");
            s.on_answer(retry[0].id, bad, due + 5, 0, &cache);
            assert!(s.poll(due + 5, 0, &cache).is_empty());
            assert_eq!(s.next_wakeup(), None, "{reason:?}: retries exhausted");
            assert!(s.is_done(), "{reason:?}");
            let r = s.report();
            assert_eq!(r.summary.skipped, Some(reason.code()));
            assert_eq!((r.summary.errors, r.summary.retries, r.marks.len()), (1, 1, 0));
        }
    }

    #[test]
    fn a_refused_call_is_not_retried_and_ends_the_asking() {
        let cache = MemCache::default();
        let config = VerifyConfig { retries: 3, retry_backoff_ms: 100, ..config() };
        // A whole answer: the extraction is refused; nothing waits, nothing follows.
        let mut s = Session::new(config.clone(), [1; 32]);
        s.push(TEXT);
        s.finish(0);
        let calls = s.poll(0, 0, &cache);
        s.on_answer(calls[0].id, Answer::Refused, 0, 0, &cache);
        assert_eq!(s.next_wakeup(), None, "no retry after a backoff");
        assert!(s.poll(1000, 0, &cache).is_empty());
        assert!(s.is_done() && s.settled());
        let r = s.report();
        assert_eq!(
            (r.summary.skipped, r.summary.errors, r.summary.retries, r.summary.calls),
            (Some("verifier_misconfigured"), 1, 0, 1)
        );

        // A stream: scoring calls refused while text still flows; a retry of another
        // failure that was waiting is dropped, and later text asks nothing.
        let mut s = Session::new(config, [1; 32]);
        let sentence = "Mount Everest is the tallest mountain above sea level on Earth. ";
        for _ in 0..5 {
            s.push(sentence);
        }
        let calls = s.poll(0, 0, &cache);
        s.on_answer(calls[0].id, answer(&format!(r#"{{"claims":["{}"]}}"#, sentence.trim())), 5, 0, &cache);
        let scoring = s.poll(5, 0, &cache);
        assert_eq!(scoring.len(), 1);
        s.on_answer(scoring[0].id, Answer::Refused, 5, 0, &cache);
        assert_eq!(s.next_wakeup(), None);
        for _ in 0..5 {
            s.push(sentence);
        }
        assert!(s.poll(10, 0, &cache).is_empty(), "no extraction of later text");
        s.finish(20);
        assert!(s.poll(20, 0, &cache).is_empty());
        assert!(s.is_done() && s.settled());
        let r = s.report();
        assert_eq!(
            (r.summary.skipped, r.summary.claims, r.summary.verified, r.marks.len()),
            (Some("verifier_misconfigured"), 1, 0, 0)
        );
    }

    #[test]
    fn a_retry_waits_out_its_backoff_then_goes() {
        let cache = MemCache::default();
        let config = VerifyConfig { retries: 2, retry_backoff_ms: 100, retry_backoff_max_ms: 1000, ..config() };
        let mut s = Session::new(config, [1; 32]).with_jitter_seed(42);
        s.push(TEXT);
        s.finish(0);
        let calls = s.poll(0, 0, &cache);
        s.on_answer(calls[0].id, Answer::Response { status: 500, body: Vec::new() }, 10, 0, &cache);
        let due = s.next_wakeup().unwrap();
        assert!((110..=135).contains(&due), "100 ms after the failure, plus at most 25: {due}");
        assert!(s.poll(due - 1, 0, &cache).is_empty(), "not before its time");
        assert!(!s.settled() && !s.is_done(), "a waiting retry keeps the response held");
        let calls = s.poll(due, 0, &cache);
        assert_eq!(calls.len(), 1);
        assert!(matches!(calls[0].kind, CallKind::Extract { start: 0, .. }));
        assert_eq!(s.next_wakeup(), None);
        // The second retry waits twice as long.
        s.on_answer(calls[0].id, Answer::Failed, due + 5, 0, &cache);
        let second = s.next_wakeup().unwrap();
        assert!((due + 205..=due + 255).contains(&second), "{due} -> {second}");
        assert!(s.poll(second - 1, 0, &cache).is_empty());
        let calls = s.poll(second, 0, &cache);
        s.on_answer(calls[0].id, answer(r#"{"claims":["The Eiffel Tower is in Rome."]}"#), second + 5, 0, &cache);
        let calls = s.poll(second + 5, 0, &cache);
        s.on_answer(calls[0].id, answer(r#"{"score": 5, "reasoning": "Paris."}"#), second + 9, 0, &cache);
        assert!(s.poll(second + 9, 0, &cache).is_empty());
        assert!(s.is_done());
        let r = s.report();
        assert_eq!((r.summary.retries, r.summary.errors, r.summary.skipped, r.marks.len()), (2, 0, None, 1));
    }

    #[test]
    fn jitter_differs_between_sessions_and_stays_within_a_quarter() {
        let cache = MemCache::default();
        let mut dues = std::collections::BTreeSet::new();
        for seed in 0..20 {
            let config = VerifyConfig { retry_backoff_ms: 400, ..config() };
            let mut s = Session::new(config, [1; 32]).with_jitter_seed(seed);
            s.push(TEXT);
            s.finish(0);
            let calls = s.poll(0, 0, &cache);
            s.on_answer(calls[0].id, Answer::Failed, 0, 0, &cache);
            let due = s.next_wakeup().unwrap();
            assert!((400..=500).contains(&due), "{due}");
            dues.insert(due);
        }
        assert!(dues.len() >= 10, "failures at the same moment retry apart: {dues:?}");
    }

    #[test]
    fn a_backoff_past_the_budget_gives_up_with_the_failure_reason() {
        let cache = MemCache::default();
        let config = VerifyConfig { budget_ms: 1000, call_timeout_ms: 800, retry_backoff_ms: 900, ..config() };
        let mut s = Session::new(config.clone(), [1; 32]);
        s.push(TEXT);
        s.finish(0);
        let calls = s.poll(0, 0, &cache);
        s.on_answer(calls[0].id, Answer::Response { status: 500, body: Vec::new() }, 200, 0, &cache);
        assert_eq!(s.next_wakeup(), None, "200 + 900 is past the 1000 ms budget: no retry");
        assert!(s.poll(200, 0, &cache).is_empty());
        assert!(s.is_done() && s.settled());
        let r = s.report();
        assert_eq!((r.summary.skipped, r.summary.errors, r.summary.retries), (Some("verifier_error"), 1, 0));

        // A stream: a retry waits while the text still flows (no budget yet); once the
        // stream ends the budget starts, and the retry goes only if it can start in it.
        let config = VerifyConfig { retry_backoff_ms: 990, ..config };
        let streaming = |finish_before_due: u64| {
            let mut s = Session::new(config.clone(), [1; 32]);
            for _ in 0..5 {
                s.push("Mount Everest is the tallest mountain above sea level on Earth. ");
            }
            let calls = s.poll(0, 0, &cache);
            s.on_answer(calls[0].id, Answer::Failed, 10, 0, &cache);
            let due = s.next_wakeup().unwrap();
            assert!(due >= 1000 && s.poll(40, 0, &cache).is_empty());
            s.finish(due - finish_before_due);
            assert!(s.poll(due - finish_before_due, 0, &cache).is_empty());
            (s, due)
        };
        let (mut s, due) = streaming(950);
        assert_eq!(s.next_wakeup(), Some(due), "50 ms of the budget left at its time");
        assert_eq!(s.poll(due, 0, &cache).len(), 1);
        let (s, _) = streaming(990);
        assert_eq!(s.next_wakeup(), None, "10 ms left at its time: given up");
        assert!(s.settled());
        let r = s.report();
        assert_eq!((r.summary.skipped, r.summary.errors), (Some("verifier_unavailable"), 1));
    }

    #[test]
    fn a_timeout_is_not_retried_and_the_budget_bounds_everything() {
        let cache = MemCache::default();
        let mut s = Session::new(VerifyConfig { budget_ms: 1000, call_timeout_ms: 800, ..config() }, [1; 32]);
        s.push(TEXT);
        s.finish(0);
        let calls = s.poll(0, 0, &cache);
        assert_eq!(calls[0].timeout_ms, 800);
        s.on_answer(calls[0].id, answer(r#"{"claims":["The Eiffel Tower is in Rome.", "Nice day!"]}"#), 700, 0, &cache);
        let calls = s.poll(700, 0, &cache);
        assert_eq!(calls.iter().map(|c| c.timeout_ms).collect::<Vec<_>>(), [300, 300], "capped by the budget");
        s.on_answer(
            calls[0].id,
            Answer::Response { status: 504, body: b"upstream request timeout".to_vec() },
            1000,
            0,
            &cache,
        );
        s.on_answer(calls[1].id, answer(r#"{"score": 10}"#), 900, 0, &cache);
        assert!(s.poll(1000, 0, &cache).is_empty());
        assert!(s.is_done());
        let r = s.report();
        assert_eq!(r.summary.skipped, Some("verifier_timeout"));
        assert_eq!((r.summary.verified, r.summary.warnings, r.summary.retries), (1, 1, 0));
    }

    #[test]
    fn budget_expiry_drops_queued_work() {
        let cache = MemCache::default();
        let mut s = Session::new(VerifyConfig { concurrency: 1, ..config() }, [1; 32]);
        s.push(TEXT);
        s.finish(0);
        let calls = s.poll(0, 0, &cache);
        s.on_answer(calls[0].id, answer(r#"{"claims":["The Eiffel Tower is in Rome.", "Nice day!"]}"#), 10, 0, &cache);
        let calls = s.poll(10, 0, &cache);
        assert_eq!(calls.len(), 1);
        s.on_answer(calls[0].id, answer(r#"{"score": 50}"#), 4990, 0, &cache);
        assert!(s.poll(4990, 0, &cache).is_empty(), "too little left for another call");
        assert!(s.is_done());
        let r = s.report();
        assert_eq!((r.summary.claims, r.summary.verified, r.summary.skipped), (2, 1, Some("budget")));
    }

    #[test]
    fn streaming_extracts_complete_sentences_in_batches() {
        let cache = MemCache::default();
        let mut s = Session::new(config(), [1; 32]);
        let sentence = "Mount Everest is the tallest mountain above sea level on Earth. ";
        for _ in 0..3 {
            s.push(sentence);
        }
        s.push("And a half sen");
        assert!(s.poll(0, 0, &cache).is_empty(), "under a batch");
        s.push(sentence);
        s.push(sentence);
        let calls = s.poll(0, 0, &cache);
        assert_eq!(calls.len(), 1);
        let CallKind::Extract { start, end } = calls[0].kind else { panic!() };
        assert_eq!(start, 0);
        assert!(s.text()[..end].ends_with("Earth."), "cut at a sentence end");
        assert!(s.poll(0, 0, &cache).is_empty(), "one extraction at a time");
        s.on_answer(calls[0].id, answer(r#"{"claims":[]}"#), 10, 0, &cache);
        s.push("Tail sentence without an end");
        s.finish(20);
        let calls = s.poll(20, 0, &cache);
        assert!(matches!(calls[0].kind, CallKind::Extract { start, end: e } if start == end && e == s.text().len()));
        s.on_answer(calls[1 - 1].id, answer(r#"{"claims":[]}"#), 30, 0, &cache);
        assert!(s.poll(30, 0, &cache).is_empty());
        assert!(s.is_done());
    }

    #[test]
    fn max_claims_stops_extraction_and_the_session_still_ends() {
        let cache = MemCache::default();
        let mut s = Session::new(VerifyConfig { max_claims: 1, ..config() }, [1; 32]);
        let sentence = "Mount Everest is the tallest mountain above sea level on Earth. ";
        for _ in 0..5 {
            s.push(sentence);
        }
        let calls = s.poll(0, 0, &cache);
        s.on_answer(calls[0].id, answer(&format!(r#"{{"claims":["{}"]}}"#, sentence.trim())), 5, 0, &cache);
        let calls = s.poll(5, 0, &cache);
        assert_eq!(calls.len(), 1, "one scoring call, no further extraction");
        s.push(sentence);
        s.push("More text that will not be extracted.");
        s.finish(10);
        assert!(s.poll(10, 0, &cache).is_empty());
        s.on_answer(calls[0].id, answer(r#"{"score": 99}"#), 20, 0, &cache);
        assert!(s.poll(20, 0, &cache).is_empty());
        assert!(s.is_done() && s.settled());
    }

    #[test]
    fn paraphrased_claims_map_to_their_sentence() {
        let text = "You said: The Moon is made of green cheese. Paris is the capital of France.";
        assert_eq!(best_sentence(text, "the moon consists of green cheese"), Some((0, 43)));
        assert_eq!(best_sentence(text, "Paris is France's capital"), Some((44, text.len())));
        assert_eq!(best_sentence(text, "Berlin is the capital of Germany"), None);
        assert_eq!(best_sentence(text, "cheese"), None, "too short to judge");
        assert_eq!(best_sentence("Zürich liegt am See. Ja.", "zürich liegt am see"), Some((0, 21)));
    }

    #[test]
    fn short_or_empty_text_is_skipped_without_calls() {
        let cache = MemCache::default();
        for (text, reason) in [("Hi.", "too_short"), ("  ", "no_text")] {
            let mut s = Session::new(config(), [1; 32]);
            s.push(text);
            s.finish(0);
            assert!(s.poll(0, 0, &cache).is_empty());
            assert!(s.is_done());
            assert_eq!(s.report().summary.skipped, Some(reason));
            assert_eq!(s.report().summary.errors, 0);
        }
    }

    #[test]
    fn text_is_capped_at_a_char_boundary() {
        let mut s = Session::new(VerifyConfig { max_chars: 5, min_chars: 1, ..config() }, [1; 32]);
        s.push("abcdé");
        s.push("more");
        assert_eq!(s.text(), "abcd");
    }
}
