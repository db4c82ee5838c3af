//! Differential against a lenient JSON reader: the fuzzer's bytes are the body, with a
//! seeded value spelled into them (escapes, full-width forms, invisible characters);
//! under any provider and both policies (default, `limits.invalid_json: scan_text`),
//! no string a lenient JSON reader decodes from what Veil forwards — read the way a
//! model reads it — contains the seeded value. (The same property as
//! `tests/it/differential.rs`, over arbitrary bytes.)
//!
//! Input: byte 0 picks the provider and the seed, byte 1 the spelling, bytes 2–3 where
//! the value goes; the rest is the body.
#![no_main]
use libfuzzer_sys::fuzz_target;
use veil_core::policy::CompiledPolicy;
use veil_core::provider::Provider;
use veil_core::redact::{Redactor, Verdict};
use veil_core::token::TokenMinter;

const SEEDS: &[&str] = &["jane.doe@example.com", "123-45-6789", "4111 1111 1111 1111", "AKIAIOSFODNN7EXAMPLE", "10.20.30.40"];
const PROVIDERS: [Provider; 5] =
    [Provider::OpenAiChat, Provider::OpenAiResponses, Provider::Anthropic, Provider::Gemini, Provider::Generic];
const INVISIBLE: &[char] = &['\u{200B}', '\u{200D}', '\u{2060}', '\u{FEFF}', '\u{00AD}'];

/// By design a private IP near a word that names a version ("version 10.2.3.4") is a
/// version (`PRIVATE_IP_CONTEXT.against` in veil-detect/src/catalog/core.rs): inputs that hold one
/// are no case for the IP seed.
const VERSION_WORDS: &[&str] = &["version", "release", "ver", "firmware"];

fuzz_target!(|data: &[u8]| {
    let [selector, spelling, at_hi, at_lo, body @ ..] = data else { return };
    let provider = PROVIDERS[*selector as usize % PROVIDERS.len()];
    let seed = SEEDS[*selector as usize / PROVIDERS.len() % SEEDS.len()];
    let at = usize::from(u16::from_be_bytes([*at_hi, *at_lo])) % (body.len() + 1);
    let with = |value: &[u8]| -> Vec<u8> {
        let mut input = body.to_vec();
        input.splice(at..at, value.iter().copied());
        input
    };
    // The property is about the value put in here: bytes that read as the value with a
    // neutral word in its place (the fuzzer's own copy, glued to a word, say) are no case.
    let neutral = with(b" x ");
    if lenient::find(&neutral, seed).is_some() {
        return;
    }
    if seed == "10.20.30.40" {
        let read = lenient::model_reads(&String::from_utf8_lossy(&neutral)).to_ascii_lowercase();
        if VERSION_WORDS.iter().any(|w| read.contains(w)) {
            return;
        }
    }
    // Spaces around the value: what the fuzzer writes next to it is never glued to it (a
    // value inside a longer word is not the value).
    let mut value = vec![b' '];
    spell(seed, *spelling, &mut value);
    value.push(b' ');
    let input = with(&value);
    if lenient::find(&input, seed).is_none() {
        // The body's bytes spoilt the value (an unterminated escape before it): no case.
        return;
    }

    thread_local! {
        static POLICIES: [&'static CompiledPolicy; 2] = [
            Box::leak(Box::new(CompiledPolicy::from_json(b"").expect("default policy"))),
            Box::leak(Box::new(
                CompiledPolicy::from_json(br#"{"limits":{"invalid_json":"scan_text"}}"#).expect("scan_text policy"),
            )),
        ];
    }
    let minter = TokenMinter::new([3; 32]);
    for policy in POLICIES.with(|p| *p) {
        let redaction = Redactor { profile: policy.profile(None), provider, minter: &minter, scope: b"f", taken: &|_, _| false }.redact(&input);
        let forwarded = match redaction.verdict {
            Verdict::Forward => input.clone(),
            Verdict::Rewrite(out) => out,
            Verdict::Block { .. } | Verdict::Refuse(_) => continue,
        };
        if let Some(s) = lenient::find(&forwarded, seed) {
            panic!(
                "{provider:?} ({} policy, read as {}): a lenient reader decodes {s:?} from the forwarded body {:?}",
                if policy.policy.limits.invalid_json == veil_core::policy::InvalidJson::ScanText { "scan_text" } else { "default" },
                redaction.kind.name(),
                String::from_utf8_lossy(&forwarded)
            );
        }
    }
});

/// Writes `seed`, each character spelled as `spelling`'s bits say: plain, `\u00XX`,
/// full-width (raw or `\uFFXX`), an invisible character before it (raw or escaped),
/// `\\u00XX` (an escape a model decodes), or a JSON5 escape (`\xHH`, or the character,
/// or its full-width form, escaped as itself).
fn spell(seed: &str, spelling: u8, out: &mut Vec<u8>) {
    let kind = spelling >> 5;
    for (i, c) in seed.chars().enumerate() {
        // The low five bits say which characters are spelled the other way.
        if spelling & (1 << (i % 5)) == 0 {
            out.push(c as u8);
            continue;
        }
        let full = (0x21..=0x7E).contains(&(c as u32)).then(|| char::from_u32(c as u32 - 0x21 + 0xFF01)).flatten();
        let z = INVISIBLE[i % INVISIBLE.len()];
        match (kind, full) {
            (0, _) => out.extend_from_slice(format!("\\u{:04x}", c as u32).as_bytes()),
            (1, Some(f)) => out.extend_from_slice(f.to_string().as_bytes()),
            (2, Some(f)) => out.extend_from_slice(format!("\\u{:04X}", f as u32).as_bytes()),
            (3, _) if i > 0 => {
                out.extend_from_slice(z.to_string().as_bytes());
                out.push(c as u8);
            }
            (4, _) if i > 0 => {
                out.extend_from_slice(format!("\\u{:04x}", z as u32).as_bytes());
                out.push(c as u8);
            }
            (5, _) => out.extend_from_slice(format!("\\\\u{:04x}", c as u32).as_bytes()),
            (6, _) => out.extend_from_slice(format!("\\x{:02x}", c as u32).as_bytes()),
            // `\n`, `\x`, `\1` mean something else: no identity escapes of letters or digits.
            (7, _) if c == ' ' || c.is_ascii_punctuation() => {
                out.push(b'\\');
                out.push(c as u8);
            }
            (7, Some(f)) => {
                out.push(b'\\');
                out.extend_from_slice(f.to_string().as_bytes());
            }
            _ => out.push(c as u8),
        }
    }
}

/// The lenient JSON reader of the differential test, shared with it.
#[path = "../../tests/it/lenient.rs"]
#[allow(dead_code)]
mod lenient;
