//! Properties of the request/response round trip, over generated chat bodies.

use proptest::prelude::*;
use veil_core::policy::CompiledPolicy;
use veil_core::provider::Provider;
use veil_core::redact::{Redactor, Refusal, Verdict};
use veil_core::restore::restore_json;
use veil_core::token::TokenMinter;

const VALUES: &[&str] = &[
    "jane.doe@example.com",
    "(415) 555-0132",
    "123-45-6789",
    "4111 1111 1111 1111",
    "AKIAIOSFODNN7EXAMPLE",
    "sk-proj-T3stOnlyAbCdEfGhIjKlMnOpQrSt",
    "10.20.30.40",
    "http://wiki.corp/runbook",
];

fn fragment() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => "[a-zA-Z ,.!?'éß✓\n\t\"\\\\]{0,24}",
        1 => proptest::sample::select(VALUES).prop_map(str::to_string),
    ]
}

fn message_text() -> impl Strategy<Value = String> {
    proptest::collection::vec(fragment(), 0..8).prop_map(|parts| parts.join(" "))
}

fn chat(texts: &[String]) -> Vec<u8> {
    let messages: Vec<_> = texts.iter().map(|t| serde_json::json!({"role": "user", "content": t})).collect();
    serde_json::to_vec(&serde_json::json!({"model": "gpt-4o-mini", "messages": messages})).unwrap()
}

/// The vendor's answer: every message's text, echoed in one choice.
fn echo(vendor_body: &[u8]) -> (Vec<u8>, Vec<String>) {
    let v: serde_json::Value = serde_json::from_slice(vendor_body).unwrap();
    let texts: Vec<String> =
        v["messages"].as_array().unwrap().iter().map(|m| m["content"].as_str().unwrap().to_string()).collect();
    let choices: Vec<_> = texts
        .iter()
        .enumerate()
        .map(|(i, t)| serde_json::json!({"index": i, "message": {"role": "assistant", "content": t}}))
        .collect();
    (serde_json::to_vec(&serde_json::json!({"id": "x", "choices": choices})).unwrap(), texts)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Redact then restore is the identity on tokenized categories, and the vendor
    /// never sees a detected value.
    #[test]
    fn redact_then_restore_is_the_identity(texts in proptest::collection::vec(message_text(), 1..4)) {
        let policy = CompiledPolicy::from_json(b"").unwrap();
        let minter = TokenMinter::new([9; 32]);
        let redactor = Redactor { profile: policy.profile(None), provider: Provider::OpenAiChat, minter: &minter, scope: b"p", taken: &|_, _| false };
        let body = chat(&texts);
        let redaction = redactor.redact(&body);
        let vendor_body = match &redaction.verdict {
            Verdict::Forward => body.clone(),
            Verdict::Rewrite(b) => b.clone(),
            Verdict::Block { .. } | Verdict::Refuse(_) => unreachable!("default policy never blocks, and the body is JSON"),
        };
        let (response, vendor_texts) = echo(&vendor_body);
        for text in &vendor_texts {
            for value in VALUES {
                prop_assert!(!text.contains(value), "vendor saw a seeded value");
            }
        }
        let restored = restore_json(Provider::OpenAiChat, &response, &redaction.tokens).unwrap();
        let out = restored.body.unwrap_or(response);
        let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
        for (i, text) in texts.iter().enumerate() {
            prop_assert_eq!(v["choices"][i]["message"]["content"].as_str().unwrap(), text.as_str());
        }
    }

    /// Whatever the bytes, redaction terminates without panicking, and the seeded value
    /// never goes on: the body is rewritten without it, or refused whole (JSON that is
    /// not strict JSON; binary bytes, which are never spliced into).
    #[test]
    fn arbitrary_bytes_never_panic(body in proptest::collection::vec(any::<u8>(), 0..512), value in proptest::sample::select(VALUES)) {
        let policy = CompiledPolicy::from_json(b"").unwrap();
        let minter = TokenMinter::new([9; 32]);
        let redactor = Redactor { profile: policy.profile(None), provider: Provider::OpenAiChat, minter: &minter, scope: b"p", taken: &|_, _| false };
        let mut input = body.clone();
        input.extend_from_slice(b" ");
        input.extend_from_slice(value.as_bytes());
        input.extend_from_slice(b" ");
        input.extend_from_slice(&body);
        match redactor.redact(&input).verdict {
            Verdict::Rewrite(out) => prop_assert!(!out.windows(value.len()).any(|w| w == value.as_bytes())),
            Verdict::Refuse(Refusal::InvalidJson | Refusal::ValueInBinary) => {}
            other => prop_assert!(false, "the seeded value was not detected: {other:?}"),
        }
    }
}
