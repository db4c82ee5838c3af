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
use veil::policy::CompiledPolicy;
use veil::provider::Provider;
use veil::redact::{Redactor, Verdict};
use veil::token::TokenMinter;

const SEEDS: &[&str] = &["jane.doe@example.com", "123-45-6789", "4111 1111 1111 1111", "AKIAIOSFODNN7EXAMPLE", "10.20.30.40"];
const PROVIDERS: [Provider; 5] =
    [Provider::OpenAiChat, Provider::OpenAiResponses, Provider::Anthropic, Provider::Gemini, Provider::Generic];
const INVISIBLE: &[char] = &['\u{200B}', '\u{200D}', '\u{2060}', '\u{FEFF}', '\u{00AD}'];

/// By design a private IP near a word that names a version ("version 10.2.3.4") is a
/// version (`PRIVATE_IP_CONTEXT.against` in src/detect/rules.rs): inputs that hold one
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
        let redaction = Redactor { policy, provider, minter: &minter, scope: b"f", taken: &|_, _| false }.redact(&input);
        let forwarded = match redaction.verdict {
            Verdict::Forward => input.clone(),
            Verdict::Rewrite(out) => out,
            Verdict::Block { .. } | Verdict::Refuse(_) => continue,
        };
        if let Some(s) = lenient::find(&forwarded, seed) {
            panic!(
                "{provider:?} ({} policy, read as {}): a lenient reader decodes {s:?} from the forwarded body {:?}",
                if policy.policy.limits.invalid_json == veil::policy::InvalidJson::ScanText { "scan_text" } else { "default" },
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

/// A lenient JSON reader (the one in tests/it/differential.rs).
mod lenient {
    const BOM: &[u8] = b"\xEF\xBB\xBF";

    /// Every string (values and keys, `"` or `'` quoted, unquoted words) decoded from
    /// `body`: BOM, comments, NaN, trailing commas, duplicate keys, any depth, invalid
    /// UTF-8 (lossy) and trailing garbage are read through.
    pub fn strings(body: &[u8]) -> Vec<String> {
        let body = body.strip_prefix(BOM).unwrap_or(body);
        let mut out = Vec::new();
        let mut i = 0;
        while let Some(&b) = body.get(i) {
            match b {
                b'"' | b'\'' => {
                    let start = i + 1;
                    let mut j = start;
                    while let Some(&c) = body.get(j) {
                        if c == b {
                            break;
                        }
                        j += if c == b'\\' { 2 } else { 1 };
                    }
                    let raw = body.get(start..j.min(body.len())).unwrap_or_default();
                    out.push(unescape(&String::from_utf8_lossy(raw)));
                    i = j + 1;
                }
                b'/' if body.get(i + 1) == Some(&b'/') => {
                    i = body.get(i..).and_then(|rest| rest.iter().position(|&c| c == b'\n' || c == b'\r')).map_or(body.len(), |p| i + p);
                }
                b'/' if body.get(i + 1) == Some(&b'*') => {
                    let rest = body.get(i + 2..).unwrap_or_default();
                    i = rest.windows(2).position(|w| w == b"*/").map_or(body.len(), |p| i + 2 + p + 2);
                }
                _ if word_byte(b) || b == b'\\' => {
                    let start = i;
                    while let Some(&c) = body.get(i) {
                        if c == b'\\' {
                            i += 2;
                        } else if word_byte(c) {
                            i += 1;
                        } else {
                            break;
                        }
                    }
                    let raw = body.get(start..i.min(body.len())).unwrap_or_default();
                    out.push(unescape(&String::from_utf8_lossy(raw)));
                }
                _ => i += 1,
            }
        }
        out
    }

    fn word_byte(b: u8) -> bool {
        b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80
    }

    /// JSON escapes (surrogate pairs; a lone surrogate is U+FFFD) and JSON5's (`\'`,
    /// `\xHH`, `\0`, `\v`, line continuations, any other character for itself).
    pub fn unescape(s: &str) -> String {
        if !s.contains('\\') {
            return s.to_string();
        }
        let cs: Vec<char> = s.chars().collect();
        let hex = |at: usize, n: usize| -> Option<u32> {
            let digits: String = cs.get(at..at + n)?.iter().collect();
            if digits.chars().all(|c| c.is_ascii_hexdigit()) {
                u32::from_str_radix(&digits, 16).ok()
            } else {
                None
            }
        };
        let mut out = String::with_capacity(s.len());
        let mut i = 0;
        while let Some(&c) = cs.get(i) {
            if c != '\\' {
                out.push(c);
                i += 1;
                continue;
            }
            let Some(&e) = cs.get(i + 1) else {
                out.push('\\');
                break;
            };
            i += 2;
            match e {
                'b' => out.push('\u{8}'),
                'f' => out.push('\u{c}'),
                'n' => out.push('\n'),
                'r' => out.push('\r'),
                't' => out.push('\t'),
                'v' => out.push('\u{b}'),
                // `\0`, and JavaScript's legacy octal escapes (`\101`); `\8`, `\9` are the digit.
                '0'..='7' => {
                    let mut v = e as u32 - '0' as u32;
                    let longest = if e <= '3' { 2 } else { 1 };
                    for _ in 0..longest {
                        match cs.get(i).and_then(|c| c.to_digit(8)) {
                            Some(d) => {
                                v = v * 8 + d;
                                i += 1;
                            }
                            None => break,
                        }
                    }
                    out.push(char::from_u32(v).unwrap_or(char::REPLACEMENT_CHARACTER));
                }
                '\n' | '\u{2028}' | '\u{2029}' => {}
                '\r' => {
                    if cs.get(i) == Some(&'\n') {
                        i += 1;
                    }
                }
                'x' => match hex(i, 2) {
                    Some(v) => {
                        out.push(char::from_u32(v).unwrap_or(char::REPLACEMENT_CHARACTER));
                        i += 2;
                    }
                    None => out.push('x'),
                },
                'u' => match hex(i, 4) {
                    Some(hi) => {
                        i += 4;
                        if (0xD800..0xDC00).contains(&hi) {
                            let lo = (cs.get(i) == Some(&'\\') && cs.get(i + 1) == Some(&'u')).then(|| hex(i + 2, 4)).flatten();
                            match lo {
                                Some(lo) if (0xDC00..0xE000).contains(&lo) => {
                                    i += 6;
                                    let code = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
                                    out.push(char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER));
                                }
                                _ => out.push(char::REPLACEMENT_CHARACTER),
                            }
                        } else {
                            out.push(char::from_u32(hi).unwrap_or(char::REPLACEMENT_CHARACTER));
                        }
                    }
                    None => out.push('u'),
                },
                other => out.push(other),
            }
        }
        out
    }

    /// Zero-width and format characters removed, full-width ASCII folded.
    pub fn model_reads(s: &str) -> String {
        s.chars()
            .filter(|&c| !matches!(c as u32, 0x200B..=0x200F | 0x2060..=0x2064 | 0xFEFF | 0x00AD))
            .map(|c| match c as u32 {
                u @ 0xFF01..=0xFF5E => char::from_u32(u - 0xFF01 + 0x21).unwrap_or(c),
                _ => c,
            })
            .collect()
    }

    /// The first string a model reads from `body` (each decoded string, and one more
    /// level of escapes in those that hold some) that contains `value`.
    pub fn find(body: &[u8], value: &str) -> Option<String> {
        strings(body).into_iter().find_map(|s| {
            let deeper = s.contains('\\').then(|| model_reads(&unescape(&s)));
            deeper.into_iter().chain([model_reads(&s)]).find(|t| t.contains(value))
        })
    }
}
