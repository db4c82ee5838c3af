//! Host side of claim verification: verifier calls, the score cache in shared data,
//! pausing and resuming the response, and splicing the marks in.
//!
//! The decisions are the core's ([`crate::verify::Session`]); this file only moves
//! bytes between Envoy and it. Every failure fails open: the response goes on
//! unannotated, with the reason in the `x-veil-verification` header (whole bodies) or
//! trailer (streams), the audit line and the `verify.skipped.<reason>` counter.
//!
//! A failed call is retried after a backoff. The request cannot set a timer, so it
//! asks the root's alarm to wake it ([`crate::verify::Alarm`]); the root's tick then
//! calls [`VeilHttp::verify_wake`] with the request as the effective context. Calls
//! dispatched then are answered to the root (the SDK routes an answer to the context
//! that was active at dispatch), which hands them back here through the alarm.

use std::rc::Rc;
use std::time::Duration;

use super::callout::{call_answer, Target};
use super::exchange::{now_ms, now_secs, Callout, VeilHttp};
use super::host::DispatchError;
use super::state::{HeldBody, HostVerify, ResponseMode, Shape};
use super::{Action, Buffer, Map};
use crate::metrics::{Counter, Verify};
use crate::provider::Provider;
use crate::stream::{ResponseStream, TapText};
use crate::verify::{
    annotate_json, appended_block, insert_annotations, response_text_fields, AnnotationStyle, Answer, Call, Report,
    Session, SkipReason, Summary, VerifiedText,
};

/// The response header (whole bodies) or trailer (streams) with the verification
/// summary.
pub(super) const SUMMARY_HEADER: &str = "x-veil-verification";

/// The summary trailer's value while a stream's end waits for the verifier; replaced
/// before the trailers leave.
const SUMMARY_PENDING: &str = "pending";

impl VeilHttp {
    /// Response headers seen: decide whether this response is verified.
    pub(super) fn verify_start(&mut self, status: Option<u16>, encoded: bool) {
        let config = &self.profile().verification;
        if !config.enabled {
            return;
        }
        let skip_now = |this: &mut VeilHttp, reason: SkipReason| {
            let summary = Summary { skipped: Some(reason.code()), ..Summary::default() };
            this.metrics.increment(Counter::VerifySkipped(reason.code()), 1);
            let _ = this.host.set_header(Map::ResponseHeaders, SUMMARY_HEADER, Some(&summary.header()));
            this.event().verification = Some(summary);
        };
        if status != Some(200) {
            return;
        }
        if encoded {
            return skip_now(self, SkipReason::Encoded);
        }
        let provider = self.kind.provider().unwrap_or(Provider::Generic);
        let shape = match &self.response {
            ResponseMode::BufferJson => Shape::Whole { held: None, trailer: false },
            ResponseMode::Stream(_) => Shape::Stream { buffered: 0, trailer: false },
            _ => return skip_now(self, SkipReason::NoText),
        };
        let text = match config.text {
            VerifiedText::Tokenized => TapText::Tokenized,
            VerifiedText::Restored => TapText::Restored,
        };
        let env = Rc::clone(&self.verify_env);
        let held = self.policy.policy.hold_headers && matches!(shape, Shape::Whole { .. });
        let mut seed = [0u8; 8];
        let _ = self.host.random(&mut seed);
        self.verify = Some(HostVerify {
            session: Session::new(config.clone(), env.cache_secret).with_jitter_seed(u64::from_le_bytes(seed)),
            env,
            shape,
            paused: false,
            done: false,
            held,
        });
        // The response's one stream restores and taps it.
        if let ResponseMode::Stream(stream) = &self.response {
            let framing = stream.framing();
            self.response = ResponseMode::Stream(ResponseStream::verifying(provider, framing, text));
        }
    }

    /// Whether the response headers wait for the verdict (see [`HostVerify::held`]).
    pub(super) fn verify_holds_headers(&self) -> bool {
        self.verify.as_ref().is_some_and(|v| v.held)
    }

    pub(super) fn verifying_stream(&self) -> bool {
        matches!(self.verify.as_ref().map(|v| &v.shape), Some(Shape::Stream { .. }))
    }

    pub(super) fn verifying_whole(&self) -> bool {
        matches!(self.verify.as_ref().map(|v| &v.shape), Some(Shape::Whole { .. }))
    }

    /// Dispatches every call the session wants now. A call Envoy refuses outright
    /// (`BadArgument`: no such cluster) is a configuration error: the session stops
    /// asking and the response goes on unannotated at once. One that failed as it
    /// started (`InternalFailure`, e.g. no healthy host) counts as unavailable and may
    /// be retried. Then asks the alarm to wake this request when a retry is due.
    fn verify_pump(&mut self) {
        let (now, secs) = (now_ms(&*self.host), now_secs(&*self.host));
        loop {
            let Some(v) = self.verify.as_mut() else { return };
            let calls: Vec<Call> = v.session.poll(now, secs, self.host.cache());
            if calls.is_empty() {
                let wakeup = v.session.next_wakeup();
                if let Some(at) = wakeup {
                    if self.host.wake_after(Duration::from_millis(at.saturating_sub(now))) {
                        return;
                    }
                }
                let period = self.alarm.try_borrow_mut().ok().and_then(|mut a| a.wake_at(self.id, wakeup, now));
                if let Some(ms) = period {
                    // Sets the worker's tick (Proxy-Wasm keeps one timer per root context).
                    self.host.set_tick(Duration::from_millis(ms));
                }
                return;
            }
            let config = v.session.config().clone();
            let bearer = v.env.bearer(&config);
            for call in calls {
                let target = Target {
                    cluster: &config.cluster,
                    authority: &config.authority,
                    path: config.request_path(),
                    bearer: bearer.as_deref(),
                };
                let token = target.dispatch(&*self.host, &call.body, call.timeout_ms);
                let Some(v) = self.verify.as_mut() else { return };
                match token {
                    Ok(token) => {
                        self.expect(token, Callout::Verify(call.id));
                        if let Ok(mut alarm) = self.alarm.try_borrow_mut() {
                            alarm.sent(token, self.id);
                        }
                    }
                    Err(error) => {
                        let answer = if error == DispatchError::Refused { Answer::Refused } else { Answer::Failed };
                        v.session.on_answer(call.id, answer, now, secs, self.host.cache());
                    }
                }
            }
        }
    }

    /// The verifier's call `id` came back ([`Callout::Verify`]).
    pub(super) fn verify_on_call_response(&mut self, id: u32, num_headers: usize, body_size: usize) {
        let answer = call_answer(&*self.host, num_headers, body_size);
        let (now, secs) = (now_ms(&*self.host), now_secs(&*self.host));
        if let Some(v) = self.verify.as_mut() {
            v.session.on_answer(id, answer, now, secs, self.host.cache());
        }
        self.verify_wake();
    }

    /// Makes the calls that are due (a retry whose backoff is over, or the next ones
    /// after an answer) and, once nothing is out or waiting, lets a held response go.
    /// The root's tick calls this as the request's effective context.
    pub(super) fn verify_wake(&mut self) {
        self.verify_pump();
        let ready = self.verify.as_ref().is_some_and(|v| v.paused && !v.done && v.session.settled());
        if ready {
            self.verify_complete();
            let _ = self.host.resume_response();
        }
    }

    /// Counts, the audit line, and the summary: in the header when the headers were
    /// held, else in a trailer — for a stream, and for a whole body whose headers went
    /// on. (Envoy has sent unheld response headers by the time a body can be read — it
    /// drops its handle on them once a filter continues — so a header then carries only
    /// skips known at header time.)
    ///
    /// Envoy creates response trailers for a filter only in its last body callback
    /// (`addEncodedTrailers` needs the last data frame), so the trailer is added there:
    /// pending, and replaced here — at once when nothing was left to wait for, else when
    /// the held end goes on (Envoy then sends the data, then the trailers).
    fn verify_record(&mut self, report: &Report) {
        let s = &report.summary;
        if self.verify_holds_headers() {
            let _ = self.host.set_header(Map::ResponseHeaders, SUMMARY_HEADER, Some(&s.header()));
        }
        match self.verify.as_ref().map(|v| &v.shape) {
            Some(Shape::Stream { trailer: true, .. } | Shape::Whole { trailer: true, .. }) => {
                let _ = self.host.set_header(Map::ResponseTrailers, SUMMARY_HEADER, Some(&s.header()));
            }
            Some(Shape::Stream { trailer: false, .. }) => {
                let _ = self.host.add_header(Map::ResponseTrailers, SUMMARY_HEADER, &s.header());
            }
            _ => {}
        }
        for (counter, n) in [
            (Verify::Responses, 1),
            (Verify::Claims, u64::from(s.claims)),
            (Verify::Verified, u64::from(s.verified)),
            (Verify::Warnings, u64::from(s.warnings)),
            (Verify::Errors, u64::from(s.errors)),
            (Verify::CacheHits, u64::from(s.cache_hits)),
            (Verify::Calls, u64::from(s.calls)),
            (Verify::Retries, u64::from(s.retries)),
            (Verify::DroppedClaims, u64::from(s.dropped)),
            (Verify::LatencyMsTotal, s.latency_ms_total),
        ] {
            self.metrics.increment(Counter::Verify(counter), n);
        }
        if let Some(reason) = s.skipped {
            self.metrics.increment(Counter::VerifySkipped(reason), 1);
        }
        self.event().verification = Some(s.clone());
    }

    /// Stream chunk while verifying: through the response's stream (restored, its text
    /// collected, its end held), the text to the session, and at the end either finish
    /// now or pause for the verifier.
    pub(super) fn verify_stream_body(&mut self, body_size: usize, end_of_stream: bool) -> Action {
        let chunk = match self.host.body(Buffer::ResponseBody, 0, body_size) {
            Ok(Some(chunk)) => chunk,
            Ok(None) if body_size == 0 => Vec::new(),
            _ => return Action::Continue,
        };
        let mut out = self.restore_stream(&chunk, |stream, tokens| stream.feed(&chunk, end_of_stream, tokens));
        let text = match &mut self.response {
            ResponseMode::Stream(stream) => stream.take_text(),
            _ => String::new(),
        };
        if let Some(v) = self.verify.as_mut() {
            v.session.push(&text);
        }
        if end_of_stream {
            let now = now_ms(&*self.host);
            if let Some(v) = self.verify.as_mut() {
                v.session.finish(now);
            }
        }
        self.verify_pump();
        if !end_of_stream {
            if out != chunk {
                let _ = self.host.set_body(Buffer::ResponseBody, 0, body_size, &out);
            }
            return Action::Continue;
        }
        let done = self.verify.as_ref().is_none_or(|v| v.session.settled());
        if done {
            out.extend(self.verify_stream_tail());
            let _ = self.host.set_body(Buffer::ResponseBody, 0, body_size, &out);
            return Action::Continue;
        }
        let _ = self.host.set_body(Buffer::ResponseBody, 0, body_size, &out);
        // The last body callback is the only time Envoy lets a filter add trailers.
        let _ = self.host.add_header(Map::ResponseTrailers, SUMMARY_HEADER, SUMMARY_PENDING);
        if let Some(v) = self.verify.as_mut() {
            v.paused = true;
            if let Shape::Stream { buffered, trailer, .. } = &mut v.shape {
                *buffered = out.len();
                *trailer = true;
            }
        }
        Action::Pause
    }

    /// The annotation event and the held end of the stream, restored.
    fn verify_stream_tail(&mut self) -> Vec<u8> {
        let Some(v) = self.verify.as_mut() else { return Vec::new() };
        v.done = true;
        let report = v.session.report();
        let style = v.session.config().annotate;
        let annotation =
            (!report.marks.is_empty() && style != AnnotationStyle::Headers).then(|| appended_block(&report.marks));
        self.verify_record(&report);
        self.restore_stream(&[], |stream, tokens| stream.finish(annotation.as_deref(), tokens))
    }

    /// A whole JSON body arrived: verify its prose, or pass it on if there is none.
    pub(super) fn verify_whole_body(&mut self, body_size: usize) -> Action {
        let Ok(Some(body)) = self.host.body(Buffer::ResponseBody, 0, body_size) else { return Action::Continue };
        let provider = self.kind.provider().unwrap_or(Provider::Generic);
        let restored_text = self.profile().verification.text == VerifiedText::Restored;
        // With `text: restored` the verifier sees (and the marks go into) the
        // restored body; otherwise the tokenized one, restored after marking.
        let verified =
            if restored_text { self.restore_whole(&body).unwrap_or_else(|| body.clone()) } else { body.clone() };
        let (fields, joined) = response_text_fields(provider, &verified).unwrap_or_default();
        let now = now_ms(&*self.host);
        // Headers that were not held are gone: the summary follows the body as a
        // trailer, which Envoy lets a filter add only in this, the last body callback.
        let trailer = !self.verify_holds_headers();
        if trailer {
            let _ = self.host.add_header(Map::ResponseTrailers, SUMMARY_HEADER, SUMMARY_PENDING);
        }
        if let Some(v) = self.verify.as_mut() {
            v.session.push(&joined);
            v.session.finish(now);
            v.shape = Shape::Whole { held: Some(HeldBody { body: verified, fields, buffered: body_size }), trailer };
        }
        self.verify_pump();
        if self.verify.as_ref().is_some_and(|v| v.session.settled()) {
            self.verify_complete();
            return Action::Continue;
        }
        if let Some(v) = self.verify.as_mut() {
            v.paused = true;
        }
        Action::Pause
    }

    /// Verification over (or out of budget): put the marks in and let the body go.
    fn verify_complete(&mut self) {
        let Some(v) = self.verify.as_mut() else { return };
        if v.done {
            return;
        }
        match &mut v.shape {
            Shape::Stream { buffered, .. } => {
                let buffered = *buffered;
                let tail = self.verify_stream_tail();
                let _ = self.host.set_body(Buffer::ResponseBody, buffered, 0, &tail);
            }
            Shape::Whole { held, .. } => {
                v.done = true;
                let Some(held) = held.take() else { return };
                let report = v.session.report();
                let style = v.session.config().annotate;
                let restored_text = v.session.config().text == VerifiedText::Restored;
                let insertions = insert_annotations(v.session.text(), &report.marks, style);
                let annotated = annotate_json(&held.body, &held.fields, &insertions);
                let out = if restored_text { annotated } else { self.restore_whole(&annotated).unwrap_or(annotated) };
                let _ = self.host.set_body(Buffer::ResponseBody, 0, held.buffered, &out);
                self.verify_record(&report);
            }
        }
    }
}
