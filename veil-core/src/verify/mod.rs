//! Claim verification: a company-hosted LLM scores the factual claims of an answer.
//!
//! The pure core of issue 6. It knows nothing about Envoy: [`Session`] takes the text
//! of a response (whole, or as it streams), hands out the verifier calls to make
//! ([`Call`]: a JSON body and a timeout; the cluster, path and headers come from
//! [`VerifyConfig`]), takes their answers back, and at the end says which claims to
//! mark ([`Report`]); [`insert_annotations`] and the response stream
//! ([`ResponseStream::verifying`](crate::stream::ResponseStream::verifying)) say where. The host
//! (`host/verify.rs`) only dispatches the calls, keeps the clock and the cache store,
//! and splices the result into the response.
//!
//! Nothing here logs or formats claim text, prompts or answers into errors: the
//! report's summary carries counts and a reason code only.

mod alarm;
mod annotate;
mod cache;
mod config;
mod parse;
mod prompt;
mod session;

pub use alarm::Alarm;
pub use annotate::{
    annotate_json, annotation_line, appended_block, apply, insert_annotations, response_text_fields, Mark, TextField,
};
pub use cache::{Cache, CacheKey, MemCache};
pub use config::{AnnotationStyle, VerifiedText, VerifyConfig};
pub use parse::{parse_claims, parse_verdict, Verdict};
pub use prompt::{extraction_request, verification_request, CallKind};
pub use session::{Answer, Call, Claim, Report, Session, SkipReason, Summary};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::Endpoint;

    #[test]
    fn default_is_off_and_valid() {
        let c = VerifyConfig::default();
        assert!(!c.enabled);
        assert_eq!(c.threshold, 70);
        assert_eq!(c.budget_ms, 5000);
        assert_eq!((c.retry_backoff_ms, c.retry_backoff_max_ms), (200, 2000));
        assert_eq!(c.text, VerifiedText::Tokenized);
        assert!(c.issues().is_empty());
    }

    #[test]
    fn paths_default_per_endpoint() {
        let mut c = VerifyConfig::default();
        assert_eq!(c.request_path(), "/v1/chat/completions");
        c.endpoint = Endpoint::Ollama;
        assert_eq!(c.request_path(), "/api/chat");
        c.path = "/x".into();
        assert_eq!(c.request_path(), "/x");
    }

    #[test]
    fn validation_names_fields() {
        type Case = (fn(&mut VerifyConfig), &'static str);
        let cases: Vec<Case> = vec![
            (|c| c.threshold = 101, "verification.threshold"),
            (|c| c.max_claims = 0, "verification.max_claims"),
            (|c| c.call_timeout_ms = c.budget_ms + 1, "verification.call_timeout_ms"),
            (|c| c.cluster = "a b".into(), "verification.cluster"),
            (|c| c.path = "v1".into(), "verification.path"),
            (|c| c.api_key_env = "A-B".into(), "verification.api_key_env"),
            (|c| c.concurrency = 0, "verification.concurrency"),
            (|c| c.temperature = -1.0, "verification.temperature"),
            (|c| c.retry_backoff_ms = 60_001, "verification.retry_backoff_ms"),
            (|c| c.retry_backoff_max_ms = c.retry_backoff_ms - 1, "verification.retry_backoff_max_ms"),
            (|c| c.retry_backoff_max_ms = 60_001, "verification.retry_backoff_max_ms"),
        ];
        for (mutate, want) in cases {
            let mut c = VerifyConfig::default();
            mutate(&mut c);
            let issues = c.issues();
            assert_eq!(issues.first().map(|(path, _)| path.as_str()), Some(want));
        }
    }

    #[test]
    fn every_issue_is_reported_with_its_bound() {
        let c = VerifyConfig { threshold: 101, max_claims: 0, model: String::new(), ..VerifyConfig::default() };
        let issues = c.issues();
        let paths: Vec<&str> = issues.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(paths, ["verification.model", "verification.threshold", "verification.max_claims"]);
        assert_eq!(issues[1].1, "must be within 0..=100, found 101");
        assert_eq!(issues[2].1, "must be within 1..=64, found 0");
    }

    #[test]
    fn unknown_fields_are_rejected() {
        let err = serde_json::from_str::<VerifyConfig>(r#"{"treshold": 50}"#).unwrap_err();
        assert!(err.to_string().contains("unknown field `treshold`"));
        let c: VerifyConfig =
            serde_json::from_str(r#"{"enabled": true, "endpoint": "ollama", "annotate": "append"}"#).unwrap();
        assert_eq!((c.enabled, c.endpoint, c.annotate), (true, Endpoint::Ollama, AnnotationStyle::Append));
    }
}
