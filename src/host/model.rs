//! Host side of the model stage (`detectors.model`): the request waits for the
//! company's detector model between the rules and the vendor.
//!
//! After the rules, the texts the engine's memory of answers does not know are sent to
//! the model's cluster (the verifier's client: `verify::Target`, `verify::call_answer`)
//! with the policy's budget as the call's timeout, and the request is paused: nothing
//! has gone upstream but its headers. On the answer the body is redacted again with
//! the checked proposals merged in ([`crate::model_stage`]), and the verdict is
//! carried out as for any request; then the request resumes. On a timeout, an error
//! or an unreadable answer the policy decides: `rules_only` forwards the request as
//! the rules (and the memory) redacted it, `block` answers 503 with the vendor-shaped
//! error `veil_model_unavailable`. Either way the audit line's `model` and
//! `veil_model_requests_total{outcome}` say what happened; no text, proposal or answer
//! is logged or counted by name.

use super::callout::{call_answer, Target};
use super::exchange::{now_ms, Callout, VeilHttp};
use super::host::DispatchError;
use super::state::HostModel;
use super::Action;
use crate::audit::{ModelSummary, Outcome};
use crate::detect::config::OnFailure;
use crate::metrics::{model_outcome, Counter};
use crate::model_stage::{Answered, Checked, Pass};
use crate::redact::Verdict;
use crate::verify::Answer;

/// The refusal of `on_failure: block`.
const UNAVAILABLE: &str = "veil_model_unavailable";

impl VeilHttp {
    /// The findings of this request's model answer, taken for the redaction.
    pub(super) fn model_answered(&mut self) -> Option<Answered> {
        self.model.as_mut().and_then(|m| m.answered.take())
    }

    /// After a redaction with `pass`: whether the request waits for the model (the
    /// action to return), or the verdict is carried out now (`None`): the stage is
    /// off, over, or not needed (the rules block or refuse; every text was answered
    /// from memory), or it failed with `on_failure: rules_only`.
    pub(super) fn model_stage(
        &mut self,
        pass: Pass<'_>,
        verdict: &Verdict,
        body: &[u8],
        wire_len: usize,
    ) -> Option<Action> {
        let policy = std::rc::Rc::clone(&self.policy);
        let engine = &policy.profile(self.rule).engine;
        let config = engine.model()?;
        if self.model.is_some() || matches!(verdict, Verdict::Block { .. } | Verdict::Refuse(_)) {
            return None;
        }
        let cached = pass.recalled();
        let texts = pass.missing();
        let mut summary = ModelSummary { outcome: model_outcome::CACHED, cached, ..ModelSummary::default() };
        if texts.is_empty() {
            if cached > 0 {
                self.model_record(summary);
            }
            return None;
        }
        summary.texts = texts.len() as u32;
        let (request, batch) = match crate::model_stage::request(engine, &texts) {
            Ok(request) => request,
            Err(_) => return self.model_failed(ModelSummary { outcome: model_outcome::TOO_LARGE, ..summary }),
        };
        let target = Target {
            cluster: &config.cluster,
            authority: &config.cluster,
            path: config.api.default_path(),
            bearer: None,
        };
        match target.dispatch(&*self.host, &request, config.budget_ms) {
            Ok(token) => {
                self.expect(token, Callout::Model);
                self.model = Some(HostModel {
                    texts,
                    batch,
                    body: body.to_vec(),
                    wire_len,
                    answered: None,
                    summary,
                    started_ms: now_ms(&*self.host),
                });
                Some(Action::Pause)
            }
            Err(DispatchError::Refused) => {
                self.model_failed(ModelSummary { outcome: model_outcome::NO_CLUSTER, ..summary })
            }
            Err(DispatchError::Failed) => self.model_failed(ModelSummary { outcome: model_outcome::ERROR, ..summary }),
        }
    }

    /// The stage failed before a call went out: the policy decides now.
    fn model_failed(&mut self, summary: ModelSummary) -> Option<Action> {
        let block = self.model_on_failure() == OnFailure::Block;
        self.model_record(ModelSummary { on_failure: Some(on_failure_name(block)), ..summary });
        block.then(|| self.model_refuse())
    }

    fn model_on_failure(&self) -> OnFailure {
        self.profile().detectors.model.on_failure
    }

    fn model_refuse(&mut self) -> Action {
        self.metrics.increment(Counter::Refused(UNAVAILABLE), 1);
        self.reject(
            503,
            UNAVAILABLE,
            "The gateway's detector model did not answer in time; the request was not forwarded.",
            Outcome::Failed,
        )
    }

    /// The audit line's `model` and the counters.
    fn model_record(&mut self, summary: ModelSummary) {
        self.metrics.increment(Counter::Model(summary.outcome), 1);
        self.event().model = Some(summary);
    }

    /// The model's call came back ([`Callout::Model`]). Redacts again with the answer,
    /// or follows the failure policy, and lets the request go on unless it was refused.
    pub(crate) fn model_on_call_response(&mut self, num_headers: usize, body_size: usize) {
        let Some(stage) = self.model.as_mut() else { return };
        let waited = now_ms(&*self.host).saturating_sub(stage.started_ms);
        stage.summary.wait_ms = waited;
        let answer = call_answer(&*self.host, num_headers, body_size);
        let policy = std::rc::Rc::clone(&self.policy);
        let engine = &policy.profile(self.rule).engine;
        let outcome = match answer {
            Answer::Response { status: 200, body } => {
                match crate::model_stage::answer(engine, &self.scope, &stage.texts, &stage.batch, &body) {
                    Ok((answered, checked)) => {
                        stage.answered = Some(answered);
                        Ok(checked)
                    }
                    Err(_) => Err(model_outcome::UNREADABLE),
                }
            }
            // Envoy answers a call it timed out with its own 504.
            Answer::Response { status: 504, .. } => Err(model_outcome::TIMEOUT),
            _ => Err(model_outcome::ERROR),
        };
        let (body, wire_len) = (std::mem::take(&mut stage.body), stage.wire_len);
        let mut summary = std::mem::take(&mut stage.summary);
        match outcome {
            Ok(checked) => {
                self.model_count(&checked);
                summary.outcome = model_outcome::ANSWERED;
                summary.kept = checked.kept;
                summary.dropped = checked.dropped_total();
            }
            Err(reason) => {
                summary.outcome = reason;
                let block = self.model_on_failure() == OnFailure::Block;
                summary.on_failure = Some(on_failure_name(block));
                if block {
                    self.model_record(summary);
                    self.model_refuse();
                    return;
                }
            }
        }
        self.model_record(summary);
        // The stage is over (`self.model` is set): this redaction does not ask again.
        if self.scan_decoded(body, wire_len) == Action::Continue {
            let _ = self.host.resume_request();
        }
    }

    fn model_count(&self, checked: &Checked) {
        self.metrics.increment(Counter::ModelKept, u64::from(checked.kept));
        for (reason, n) in &checked.dropped {
            self.metrics.increment(Counter::ModelDropped(reason.name()), u64::from(*n));
        }
    }
}

fn on_failure_name(block: bool) -> &'static str {
    if block {
        "block"
    } else {
        "rules_only"
    }
}
