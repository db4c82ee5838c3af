//! The request path: body bytes in, a verdict (forward, rewrite, block) out.
//!
//! JSON bodies are scanned field by field through the provider adapter; anything
//! that is not JSON (or not UTF-8) on a protected path is scanned as raw bytes, so
//! a malformed body is never forwarded unscanned.

use std::collections::BTreeMap;

use crate::detect::Finding;
use crate::edit::{splice, Edit};
use crate::json::{self, StrSpan};
use crate::policy::{Action, CompiledPolicy, Mode};
use crate::provider::Provider;
use crate::token::{TokenMap, TokenMinter};

/// How the body was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyKind {
    Json,
    /// Not a JSON document (or not UTF-8): scanned as bytes.
    Text,
}

impl BodyKind {
    pub fn name(self) -> &'static str {
        match self {
            BodyKind::Json => "json",
            BodyKind::Text => "text",
        }
    }
}

/// What to do with the request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Forward the original bytes: nothing to change (or monitor mode).
    Forward,
    /// Forward this body instead.
    Rewrite(Vec<u8>),
    /// Reject: a finding's category has the `block` action. Names the category only.
    Block { category: String },
}

/// The outcome of redacting one request body.
#[derive(Debug, Clone)]
pub struct Redaction {
    pub verdict: Verdict,
    pub kind: BodyKind,
    /// Findings per category (whatever their action).
    pub counts: BTreeMap<String, u32>,
    /// Tokens issued, for restoring the response.
    pub tokens: TokenMap,
    /// Text fields whose findings the engine remembered from an earlier request in
    /// the same scope (not scanned again).
    pub remembered: usize,
}

/// Inputs that stay fixed for a request.
#[derive(Clone, Copy)]
pub struct Redactor<'a> {
    pub policy: &'a CompiledPolicy,
    pub provider: Provider,
    pub minter: &'a TokenMinter,
    /// Token scope (see `token`): ids are only meaningful within it.
    pub scope: &'a [u8],
    /// Whether a token already stands for a different value outside this request
    /// (the vault), so that a collision with an earlier value gets a longer id.
    pub taken: &'a dyn Fn(&str, &[u8]) -> bool,
}

impl std::fmt::Debug for Redactor<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the scope: it may be a credential.
        f.debug_struct("Redactor").field("provider", &self.provider).finish_non_exhaustive()
    }
}

impl Redactor<'_> {
    pub fn redact(&self, body: &[u8]) -> Redaction {
        let mut spans: Vec<StrSpan> = Vec::new();
        let provider = self.provider;
        let parsed = json::visit_strings(body, &mut |path, span| {
            if provider.request_text(path).is_some() {
                spans.push(span);
            }
        });
        let mut state = State { counts: BTreeMap::new(), tokens: TokenMap::default(), edits: Vec::new(), blocked: None };
        let mut remembered = 0;
        let kind = match parsed {
            Ok(()) => {
                let decoded: Vec<json::Decoded<'_>> =
                    spans.iter().map(|span| json::decode(body.get(span.start..span.end).unwrap_or_default())).collect();
                // Every text field in one scan (a scan has fixed costs; a chat has many
                // short messages), findings by offsets into each.
                let parts: Vec<&[u8]> = decoded.iter().map(|d| d.bytes.as_ref()).collect();
                let found;
                (found, remembered) = self.policy.engine.scan_parts_remembered(self.scope, &parts);
                for ((span, decoded), findings) in spans.iter().zip(&decoded).zip(&found) {
                    self.apply(&mut state, &decoded.bytes, findings, |offset| span.start + decoded.raw_offset(offset));
                }
                BodyKind::Json
            }
            Err(_) => {
                let findings = self.policy.engine.scan(body);
                self.apply(&mut state, body, &findings, |offset| offset);
                BodyKind::Text
            }
        };
        let restore = &self.policy.policy.restore;
        if !restore.enabled || !restore.except.is_empty() {
            state.tokens.retain_categories(|category| restore.restores(category));
        }
        let verdict = if let Some(category) = state.blocked {
            Verdict::Block { category }
        } else if state.edits.is_empty() {
            Verdict::Forward
        } else {
            Verdict::Rewrite(splice(body, state.edits))
        };
        Redaction { verdict, kind, counts: state.counts, tokens: state.tokens, remembered }
    }

    /// Counts findings over `text` and turns them into edits on the body, with
    /// `to_raw` mapping an offset in `text` to an offset in the body.
    fn apply(&self, state: &mut State, text: &[u8], findings: &[Finding], to_raw: impl Fn(usize) -> usize) {
        let enforce = self.policy.policy.mode == Mode::Enforce;
        for finding in findings {
            let Some(rule) = self.policy.engine.rule(finding.rule) else { continue };
            let category = rule.category.as_str();
            match state.counts.get_mut(category) {
                Some(count) => *count += 1,
                None => {
                    state.counts.insert(category.to_string(), 1);
                }
            }
            if !enforce {
                continue;
            }
            let value = text.get(finding.start..finding.end).unwrap_or_default();
            let replacement = match self.policy.action(category) {
                Action::Allow => continue,
                Action::Block => {
                    state.blocked.get_or_insert_with(|| category.to_string());
                    continue;
                }
                Action::Tokenize => {
                    state.tokens.issue_checked(self.minter, self.scope, category, value, self.taken).into_bytes()
                }
                Action::Mask => format!("[{category}]").into_bytes(),
                Action::Redact => b"****".to_vec(),
            };
            state.edits.push(Edit { start: to_raw(finding.start), end: to_raw(finding.end), replacement });
        }
    }
}

struct State {
    counts: BTreeMap<String, u32>,
    tokens: TokenMap,
    edits: Vec<Edit>,
    blocked: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::Policy;

    fn redact_with(policy: Policy, body: &[u8]) -> Redaction {
        let policy = CompiledPolicy::new(policy).unwrap();
        let minter = TokenMinter::new([1; 32]);
        Redactor { policy: &policy, provider: Provider::OpenAiChat, minter: &minter, scope: b"t", taken: &|_, _| false }
            .redact(body)
    }

    fn redact(body: &[u8]) -> Redaction {
        redact_with(Policy::default(), body)
    }

    #[test]
    fn nothing_to_change_is_forwarded() {
        let body = br#"{"model":"gpt-4o","messages":[{"role":"user","content":"hello there"}]}"#;
        let r = redact(body);
        assert_eq!(r.verdict, Verdict::Forward);
        assert_eq!(r.kind, BodyKind::Json);
    }

    #[test]
    fn tokenizes_text_fields_and_keeps_the_rest_byte_identical() {
        let body = br#"{ "model" : "gpt-4o",  "user":"jane@example.com",
            "messages":[{"role":"system","content":"ops: 10.1.2.3"},
                        {"role":"user","content":[{"type":"text","text":"mail jane@example.com"},
                                                   {"type":"image_url","image_url":{"url":"data:image/png;base64,AAAA"}}]}],
            "temperature": 1.0e0 }"#;
        let r = redact(body);
        let Verdict::Rewrite(out) = &r.verdict else { panic!("expected a rewrite") };
        let out = std::str::from_utf8(out).unwrap();
        // The `user` field is an id, not text: untouched. Whitespace and numbers kept.
        assert!(out.contains(r#""user":"jane@example.com""#));
        assert!(out.starts_with(r#"{ "model" : "gpt-4o",  "#));
        assert!(out.ends_with(r#""temperature": 1.0e0 }"#));
        assert!(out.contains(r#""content":"ops: «token:PRIVATE_IP:"#));
        assert!(out.contains(r#""text":"mail «token:EMAIL:"#));
        assert_eq!(r.counts.get("EMAIL"), Some(&1));
        assert_eq!(r.counts.get("PRIVATE_IP"), Some(&1));
        assert_eq!(r.tokens.len(), 2);
        serde_json::from_str::<serde_json::Value>(out).unwrap();
    }

    #[test]
    fn escaped_values_are_found_and_replaced_whole() {
        let body = br#"{"messages":[{"role":"user","content":"x jane\u0040example.com y"}]}"#;
        let r = redact(body);
        let Verdict::Rewrite(out) = &r.verdict else { panic!("expected a rewrite") };
        let out = std::str::from_utf8(out).unwrap();
        assert!(!out.contains("example.com"));
        assert!(out.contains(r#""x «token:EMAIL:"#) && out.contains(r#"» y""#));
    }

    #[test]
    fn same_value_same_token_within_a_request() {
        let body = br#"{"messages":[{"role":"user","content":"a@example.com"},{"role":"assistant","content":"a@example.com"}]}"#;
        let r = redact(body);
        assert_eq!(r.tokens.len(), 1);
        assert_eq!(r.counts.get("EMAIL"), Some(&2));
    }

    #[test]
    fn non_json_is_scanned_as_text_including_invalid_utf8() {
        let body = b"not json \xff\xfe 123-45-6789 \xc3";
        let r = redact(body);
        assert_eq!(r.kind, BodyKind::Text);
        let Verdict::Rewrite(out) = &r.verdict else { panic!("expected a rewrite") };
        assert!(!out.windows(11).any(|w| w == b"123-45-6789"));
        assert!(out.starts_with(b"not json \xff\xfe \xc2\xabtoken:SSN:"));
        assert!(out.ends_with(b"\xc2\xbb \xc3"));
    }

    #[test]
    fn actions_mask_redact_allow_block_and_monitor() {
        let body = br#"{"messages":[{"role":"user","content":"a@example.com 123-45-6789 10.0.0.1"}]}"#;
        let mut p = Policy::default();
        p.actions.insert("EMAIL".into(), Action::Mask);
        p.actions.insert("SSN".into(), Action::Redact);
        p.actions.insert("PRIVATE_IP".into(), Action::Allow);
        let r = redact_with(p.clone(), body);
        let Verdict::Rewrite(out) = &r.verdict else { panic!("expected a rewrite") };
        assert_eq!(
            std::str::from_utf8(out).unwrap(),
            r#"{"messages":[{"role":"user","content":"[EMAIL] **** 10.0.0.1"}]}"#
        );
        assert!(r.tokens.is_empty());

        p.actions.insert("SSN".into(), Action::Block);
        assert_eq!(redact_with(p.clone(), body).verdict, Verdict::Block { category: "SSN".into() });

        p.mode = Mode::Monitor;
        let r = redact_with(p, body);
        assert_eq!(r.verdict, Verdict::Forward);
        assert_eq!(r.counts.len(), 3);
    }

    #[test]
    fn categories_not_restored_keep_their_token_but_leave_no_value() {
        let body = br#"{"messages":[{"role":"user","content":"a@example.com 123-45-6789"}]}"#;
        let mut p = Policy::default();
        p.restore.except = vec!["SSN".into()];
        let r = redact_with(p.clone(), body);
        let Verdict::Rewrite(out) = &r.verdict else { panic!("expected a rewrite") };
        let out = std::str::from_utf8(out).unwrap();
        assert!(out.contains("«token:SSN:") && out.contains("«token:EMAIL:"), "{out}");
        assert_eq!(r.tokens.len(), 1);
        assert!(r.tokens.iter().all(|(t, _)| t.starts_with("«token:EMAIL:")));

        p.restore = crate::policy::RestoreConfig { enabled: false, except: vec!["SSN".into()] };
        let r = redact_with(p, body);
        assert!(r.tokens.iter().all(|(t, _)| t.starts_with("«token:SSN:")));
        assert_eq!(r.tokens.len(), 1);
    }

    #[test]
    fn the_next_turn_of_a_conversation_rescans_only_its_new_message() {
        let policy = CompiledPolicy::new(Policy::default()).unwrap();
        let minter = TokenMinter::new([1; 32]);
        let redactor = |scope: &'static [u8]| Redactor { policy: &policy, provider: Provider::OpenAiChat, minter: &minter, scope, taken: &|_, _| false };
        let history = format!(r#"{{"role":"user","content":"{} mail jane.doe@example.com"}}"#, "the pipeline failed again ".repeat(4));
        let turn_1 = format!(r#"{{"messages":[{history}]}}"#);
        let turn_2 = format!(r#"{{"messages":[{history},{{"role":"user","content":"{} and ssn 123-45-6789"}}]}}"#, "and now the checkout is slow ".repeat(4));
        let first = redactor(b"client-a").redact(turn_1.as_bytes());
        assert_eq!(first.remembered, 0);
        let second = redactor(b"client-a").redact(turn_2.as_bytes());
        assert_eq!(second.remembered, 1);
        // The same rewrite as without memory: both values found, the same tokens.
        let fresh = CompiledPolicy::new(Policy::default()).unwrap();
        let alone = Redactor { policy: &fresh, provider: Provider::OpenAiChat, minter: &minter, scope: b"client-a", taken: &|_, _| false }
            .redact(turn_2.as_bytes());
        assert_eq!(alone.remembered, 0);
        assert_eq!(second.verdict, alone.verdict);
        assert_eq!(second.counts, alone.counts);
        assert_eq!(redactor(b"client-b").redact(turn_2.as_bytes()).remembered, 0);
    }
}
