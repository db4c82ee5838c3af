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
}

#[derive(Debug, Clone, Serialize)]
pub struct AuditEvent {
    /// Always `"veil.audit"`: lets log pipelines pick these lines out.
    pub event: &'static str,
    /// Envoy's `x-request-id`.
    pub request_id: String,
    pub provider: &'static str,
    /// Name of the policy rule that matched; absent for the top-level settings.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    pub outcome: Outcome,
    /// `json` or `text` (how the request body was read).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body: Option<&'static str>,
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
}

impl AuditEvent {
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_has_counts_and_no_values() {
        let event = AuditEvent {
            event: "veil.audit",
            request_id: "r-1".into(),
            provider: "openai.chat",
            rule: Some("tenant-acme".into()),
            outcome: Outcome::Rewritten,
            body: Some("json"),
            findings: [("EMAIL".to_string(), 2)].into_iter().collect(),
            blocked_category: None,
            tokens_issued: 1,
            tokens_restored: 1,
            request_bytes_in: 100,
            request_bytes_out: 110,
            response_status: Some(200),
            duration_ms: 3,
            verification: None,
        };
        let v: serde_json::Value = serde_json::from_str(&event.to_line()).unwrap();
        assert_eq!(v["outcome"], "rewritten");
        assert_eq!(v["findings"]["EMAIL"], 2);
        assert!(v.get("blocked_category").is_none());
    }
}
