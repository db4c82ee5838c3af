//! Any body, any provider: redaction never panics, and a rewritten body never
//! contains a value the engine found in the original text.
#![no_main]
use libfuzzer_sys::fuzz_target;
use veil_core::policy::CompiledPolicy;
use veil_core::provider::Provider;
use veil_core::redact::{Redactor, Verdict};
use veil_core::token::TokenMinter;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, body)) = data.split_first() else { return };
    let provider = [Provider::OpenAiChat, Provider::OpenAiResponses, Provider::Anthropic, Provider::Gemini, Provider::Generic]
        [selector as usize % 5];
    static POLICY: std::sync::OnceLock<CompiledPolicy> = std::sync::OnceLock::new();
    let policy = POLICY.get_or_init(|| CompiledPolicy::from_json(b"").expect("default policy"));
    let minter = TokenMinter::new([3; 32]);
    let redaction = Redactor { profile: policy.profile(None), provider, minter: &minter, scope: b"f", taken: &|_, _| false }.redact(body);
    if let Verdict::Rewrite(out) = redaction.verdict {
        // Whatever the engine finds in the output, it is only tokens' surroundings:
        // scanning the output again must find nothing the input's scan replaced.
        let again = Redactor { profile: policy.profile(None), provider, minter: &minter, scope: b"f", taken: &|_, _| false }.redact(&out);
        assert!(again.counts.values().sum::<u32>() <= redaction.counts.values().sum::<u32>());
    }
});
