//! The detection engine: compiled rules in, non-overlapping findings out.
//!
//! Compiled once per policy (`Engine::new`), then shared read-only by every request.
//! A `Finding` is offsets and a rule index; the engine never keeps or reports the
//! bytes it matched.

pub mod rules;
pub mod validate;

use std::collections::BTreeMap;

use regex::bytes::{Regex, RegexBuilder};

use crate::policy::{CustomPattern, DetectorsConfig};
use rules::{BuiltinRule, Gate};
use validate::Validator;

/// Compiled-size limit for one custom pattern; a pattern over it is a policy error.
pub const CUSTOM_PATTERN_SIZE_LIMIT: usize = 256 * 1024;

/// A compiled detector.
#[derive(Debug, Clone)]
pub struct Rule {
    pub id: String,
    pub category: String,
    pub confidence: f32,
    regex: Regex,
    group: usize,
    clean_left: bool,
    clean_right: bool,
    validator: Validator,
    gate: Gate,
}

/// One detected span in the scanned text, by byte offsets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Finding {
    pub start: usize,
    pub end: usize,
    /// Index into [`Engine::rule`].
    pub rule: usize,
}

impl Finding {
    pub fn len(&self) -> usize {
        self.end - self.start
    }

    pub fn is_empty(&self) -> bool {
        self.start == self.end
    }
}

/// Why a detector configuration cannot be compiled. Names the rule, never the input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DetectError {
    #[error("detectors.custom[{index}] ({id}): invalid pattern: {reason}")]
    InvalidPattern { index: usize, id: String, reason: String },
    #[error("detectors.custom[{index}] ({id}): pattern matches the empty string")]
    EmptyMatch { index: usize, id: String },
    #[error("detectors.disable: unknown rule id or category at index {index}")]
    UnknownRule { index: usize },
    #[error("detectors.internal_domains[{index}]: only letters, digits, '-' and '.' are allowed")]
    BadDomain { index: usize },
    #[error("built-in rule {id} failed to compile")]
    Builtin { id: &'static str },
}

/// The compiled rule set for one policy.
#[derive(Debug, Clone)]
pub struct Engine {
    rules: Vec<Rule>,
    min_confidence: f32,
}

impl Engine {
    pub fn new(config: &DetectorsConfig) -> Result<Engine, DetectError> {
        for (index, name) in config.disable.iter().enumerate() {
            let known = rules::BUILTIN.iter().any(|r| r.id == name || r.category == name);
            if !known {
                return Err(DetectError::UnknownRule { index });
            }
        }
        for (index, domain) in config.internal_domains.iter().enumerate() {
            let ok = !domain.trim_start_matches('.').is_empty()
                && domain.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.');
            if !ok {
                return Err(DetectError::BadDomain { index });
            }
        }
        let mut compiled = Vec::new();
        // Custom rules first: on equal spans and confidence, the earlier rule is the
        // more specific one, and a team's own rule is more specific than ours.
        for (index, custom) in config.custom.iter().enumerate() {
            compiled.push(compile_custom(index, custom)?);
        }
        for builtin in rules::BUILTIN {
            if config.disable.iter().any(|d| d == builtin.id || d == builtin.category) {
                continue;
            }
            compiled.push(compile_builtin(builtin, &config.internal_domains)?);
        }
        Ok(Engine { rules: compiled, min_confidence: config.confidence_threshold })
    }

    pub fn rule(&self, index: usize) -> Option<&Rule> {
        self.rules.get(index)
    }

    pub fn rules(&self) -> &[Rule] {
        &self.rules
    }

    /// Scans `text` and returns non-overlapping findings in order of position.
    ///
    /// Overlaps are resolved greedily: the longest span wins; on equal length the
    /// higher confidence; then the earlier (more specific) rule.
    pub fn scan(&self, text: &[u8]) -> Vec<Finding> {
        let mut candidates = Vec::new();
        let mut runs: Option<Vec<NumericRun>> = None;
        for (index, rule) in self.rules.iter().enumerate() {
            if rule.confidence < self.min_confidence {
                continue;
            }
            match rule.gate {
                Gate::Always => rule.search(index, text, 0, &mut candidates),
                Gate::AfterCountryCode { span } => {
                    for run in runs.get_or_insert_with(|| numeric_runs(text)).iter() {
                        // The run starts at its first digit or just before it.
                        let digit = (run.start..run.end).find(|&i| text.get(i).is_some_and(u8::is_ascii_digit));
                        let Some(d) = digit else { continue };
                        let country = d >= 2 && text.get(d - 2..d).is_some_and(|c| c.iter().all(u8::is_ascii_uppercase));
                        if country {
                            let hay = text.get(..(d + span).min(text.len())).unwrap_or(text);
                            rule.search(index, hay, d - 2, &mut candidates);
                        }
                    }
                }
                Gate::Test(test) => {
                    if test(text) {
                        rule.search(index, text, 0, &mut candidates);
                    }
                }
                Gate::Contains(needle) => {
                    if contains(text, needle) {
                        rule.search(index, text, 0, &mut candidates);
                    }
                }
                Gate::NumericRun { min_digits, min_dashes, min_dots, plus } => {
                    for run in runs.get_or_insert_with(|| numeric_runs(text)).iter() {
                        if run.digits >= min_digits
                            && run.dashes >= min_dashes
                            && run.dots >= min_dots
                            && (run.plus || !plus)
                        {
                            // One byte of context on each side, for `\b` and the
                            // look-behind-style prefix groups; no match can include it.
                            let hay = text.get(..(run.end + 1).min(text.len())).unwrap_or(text);
                            rule.search(index, hay, run.start.saturating_sub(1), &mut candidates);
                        }
                    }
                }
            }
        }
        if candidates.len() <= 1 {
            return candidates;
        }
        let confidence = |f: &Finding| self.rules.get(f.rule).map_or(0.0, |r| r.confidence);
        candidates.sort_by(|a, b| {
            b.len()
                .cmp(&a.len())
                .then(confidence(b).total_cmp(&confidence(a)))
                .then(a.rule.cmp(&b.rule))
                .then(a.start.cmp(&b.start))
        });
        // Chosen spans keyed by start; a candidate overlaps iff its nearest chosen
        // neighbour on the left ends after it starts, or the one on the right starts
        // before it ends.
        let mut chosen: BTreeMap<usize, Finding> = BTreeMap::new();
        for cand in candidates {
            let left = chosen.range(..=cand.start).next_back().map(|(_, f)| f.end > cand.start);
            let right = chosen.range(cand.start..).next().map(|(_, f)| f.start < cand.end);
            if left != Some(true) && right != Some(true) {
                chosen.insert(cand.start, cand);
            }
        }
        chosen.into_values().collect()
    }
}

impl Rule {
    /// Appends this rule's validated matches in `hay[from..]` to `out`.
    fn search(&self, index: usize, hay: &[u8], from: usize, out: &mut Vec<Finding>) {
        let mut at = from;
        while at <= hay.len() {
            let found = if self.group == 0 {
                self.regex.find_at(hay, at).map(|m| (m.start(), m.end(), m.end()))
            } else {
                self.regex.captures_at(hay, at).and_then(|c| {
                    let whole = c.get(0)?;
                    c.get(self.group).map(|m| (m.start(), m.end(), whole.end()))
                })
            };
            let Some((start, end, next)) = found else { break };
            if self.clean_left && start > 0 && hay.get(start - 1).is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'+' || b == b'_') {
                // Not a match here; a later start inside it may still be one.
                at = start + 1;
                continue;
            }
            if self.clean_right && runs_on(hay, end) {
                at = start + 1;
                continue;
            }
            let accepted = if start < end { self.validator.accept(hay.get(start..end).unwrap_or_default()) } else { None };
            if let Some(len) = accepted.filter(|&len| len > 0) {
                out.push(Finding { start, end: start + len, rule: index });
                at = if len < end - start { start + len } else if next > at { next } else { at + 1 };
            } else {
                // A rejected candidate may hide a valid one that starts inside it
                // ("5 4111 1111 1111 1111": the 17-digit match fails Luhn, the card
                // after the 5 does not). Patterns with validators are bounded in
                // length, so retrying one byte on keeps the scan linear.
                at = start + 1;
            }
        }
    }
}

/// A maximal run of bytes that can appear in a number: digits, `+ ( ) - .` and space.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct NumericRun {
    start: usize,
    end: usize,
    digits: usize,
    dashes: usize,
    dots: usize,
    plus: bool,
}

/// Does the text at `end` continue a word or host name?
fn runs_on(hay: &[u8], end: usize) -> bool {
    let word = |b: Option<&u8>| b.is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    word(hay.get(end)) || (hay.get(end) == Some(&b'.') && word(hay.get(end + 1)))
}

fn is_numeric(b: u8) -> bool {
    b.is_ascii_digit() || matches!(b, b' ' | b'-' | b'.' | b'(' | b')' | b'+')
}

/// Finds the numeric runs that contain a digit. Digits are rare in most text, so it
/// skips eight digit-free bytes at a time, then grows each run around its digits.
fn numeric_runs(text: &[u8]) -> Vec<NumericRun> {
    let mut runs = Vec::new();
    let mut i = 0;
    let mut last_end = 0;
    while let Some(digit) = next_digit(text, i) {
        let mut start = digit;
        while start > last_end && text.get(start - 1).copied().is_some_and(is_numeric) {
            start -= 1;
        }
        let mut end = start;
        let (mut digits, mut dashes, mut dots, mut plus) = (0, 0, 0, false);
        while let Some(&b) = text.get(end) {
            if !is_numeric(b) {
                break;
            }
            digits += usize::from(b.is_ascii_digit());
            dashes += usize::from(b == b'-');
            dots += usize::from(b == b'.');
            plus |= b == b'+';
            end += 1;
        }
        runs.push(NumericRun { start, end, digits, dashes, dots, plus });
        last_end = end;
        i = end;
    }
    runs
}

/// Position of the first ASCII digit at or after `from`.
fn next_digit(text: &[u8], from: usize) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const LOW7: u64 = ONES * 0x7f;
    const HIGH: u64 = ONES * 0x80;
    let mut at = from;
    let rest = text.get(from..)?;
    for chunk in rest.chunks_exact(8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let v = u64::from_le_bytes(word);
        // "has a byte strictly between 0x2f and 0x3a" (the hasbetween idiom).
        let low = v & LOW7;
        let between = (ONES * (127 + 0x3a) - low) & !v & (low + ONES * (127 - 0x2f)) & HIGH;
        if between != 0 {
            break;
        }
        at += 8;
    }
    text.get(at..)?.iter().position(u8::is_ascii_digit).map(|p| at + p)
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    match needle {
        [b] => memchr::memchr(*b, hay).is_some(),
        _ => memchr::memmem::find(hay, needle).is_some(),
    }
}

fn compile_builtin(rule: &BuiltinRule, internal_domains: &[String]) -> Result<Rule, DetectError> {
    let pattern = match rule.id {
        "net.private_ipv4.v1" => rules::private_ipv4_pattern(),
        "net.internal_url.v1" => rules::internal_url_pattern(internal_domains),
        _ => rule.pattern.to_string(),
    };
    let regex = RegexBuilder::new(&pattern)
        .unicode(false)
        .build()
        .map_err(|_| DetectError::Builtin { id: rule.id })?;
    Ok(Rule {
        id: rule.id.to_string(),
        category: rule.category.to_string(),
        confidence: rule.confidence,
        regex,
        group: rule.group,
        clean_left: rule.clean_left,
        clean_right: rule.clean_right,
        validator: rule.validator,
        gate: rule.gate,
    })
}

fn compile_custom(index: usize, custom: &CustomPattern) -> Result<Rule, DetectError> {
    let regex = RegexBuilder::new(&custom.pattern)
        .unicode(false)
        .size_limit(CUSTOM_PATTERN_SIZE_LIMIT)
        .dfa_size_limit(CUSTOM_PATTERN_SIZE_LIMIT * 4)
        .build()
        .map_err(|e| DetectError::InvalidPattern {
            index,
            id: custom.id.clone(),
            reason: regex_reason(&e),
        })?;
    if regex.is_match(b"") {
        return Err(DetectError::EmptyMatch { index, id: custom.id.clone() });
    }
    Ok(Rule {
        id: custom.id.clone(),
        category: custom.category.clone(),
        confidence: custom.confidence,
        regex,
        group: 0,
        clean_left: false,
        clean_right: false,
        validator: Validator::None,
        gate: Gate::Always,
    })
}

/// The regex crate's message, reduced to its last line (the kind of error). The
/// pattern is policy text, not payload, but the short form reads better in a NACK.
fn regex_reason(err: &regex::Error) -> String {
    match err {
        regex::Error::CompiledTooBig(limit) => format!("compiled pattern exceeds {limit} bytes"),
        other => other
            .to_string()
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("syntax error")
            .trim()
            .trim_start_matches("error: ")
            .to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn engine() -> Engine {
        Engine::new(&DetectorsConfig::default()).unwrap()
    }

    fn categories(text: &str) -> Vec<(String, String)> {
        let e = engine();
        e.scan(text.as_bytes())
            .into_iter()
            .map(|f| (e.rule(f.rule).unwrap().category.clone(), text[f.start..f.end].to_string()))
            .collect()
    }

    #[test]
    fn detects_each_builtin_category() {
        let table: &[(&str, &str, &str)] = &[
            ("mail jane.doe@example.com now", "EMAIL", "jane.doe@example.com"),
            ("ssn 123-45-6789.", "SSN", "123-45-6789"),
            ("call (415) 555-0132 today", "PHONE", "(415) 555-0132"),
            ("call +1 415-555-0132", "PHONE", "+1 415-555-0132"),
            ("ring +44 20 7946 0958", "PHONE", "+44 20 7946 0958"),
            ("card 4111 1111 1111 1111 exp", "CREDIT_CARD", "4111 1111 1111 1111"),
            ("key AKIAIOSFODNN7EXAMPLE here", "AWS_ACCESS_KEY", "AKIAIOSFODNN7EXAMPLE"),
            ("k=sk-proj-abcdefghijklmnopqrstuvwx12", "API_KEY", "sk-proj-abcdefghijklmnopqrstuvwx12"),
            ("k sk-ant-api03-abcdefghijklmnopqrstuvwxyz", "API_KEY", "sk-ant-api03-abcdefghijklmnopqrstuvwxyz"),
            ("host 10.12.0.7 down", "PRIVATE_IP", "10.12.0.7"),
            ("host 192.168.1.20", "PRIVATE_IP", "192.168.1.20"),
            ("see http://wiki.corp/page?x=1 ok", "INTERNAL_URL", "http://wiki.corp/page?x=1"),
            ("see https://localhost:8443/admin", "INTERNAL_URL", "https://localhost:8443/admin"),
            ("t ghp_0123456789abcdefghijABCDEFGHIJ012345 x", "GITHUB_TOKEN", "ghp_0123456789abcdefghijABCDEFGHIJ012345"),
            ("t glpat-abcdefghij0123456789 x", "GITLAB_TOKEN", "glpat-abcdefghij0123456789"),
            ("t xoxb-1234567890-abcdefghij x", "SLACK_TOKEN", "xoxb-1234567890-abcdefghij"),
            ("t sk_live_0123456789abcdefABCD x", "STRIPE_KEY", "sk_live_0123456789abcdefABCD"),
            ("k AIzaSyA0123456789abcdefghijklmnopqrstuv x", "GOOGLE_API_KEY", "AIzaSyA0123456789abcdefghijklmnopqrstuv"),
            (
                "jwt eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJlX2J5dGVz ok",
                "JWT",
                "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJlX2J5dGVz",
            ),
            (
                "key -----BEGIN RSA PRIVATE KEY-----\nMIIBOgIBAAJBAK\n-----END RSA PRIVATE KEY----- end",
                "PRIVATE_KEY",
                "-----BEGIN RSA PRIVATE KEY-----\nMIIBOgIBAAJBAK\n-----END RSA PRIVATE KEY-----",
            ),
            ("db postgres://app:s3cr3tpw@db.example.com:5432/prod ok", "CONNECTION_STRING", "postgres://app:s3cr3tpw@db.example.com:5432/prod"),
            ("set password = \"hunter2hunter\" now", "PASSWORD", "hunter2hunter"),
            ("Authorization: Bearer abcdefghijklmnopqrstuvwxyz012345 end", "BEARER_TOKEN", "abcdefghijklmnopqrstuvwxyz012345"),
            ("iban GB82 WEST 1234 5698 7654 32 ok", "IBAN", "GB82 WEST 1234 5698 7654 32"),
            ("nic 3c:22:fb:1a:9e:07 up", "MAC_ADDRESS", "3c:22:fb:1a:9e:07"),
            ("box (http://wiki.corp/runbook) up", "INTERNAL_URL", "http://wiki.corp/runbook"),
            ("read http://wiki.corp/a/b.html.", "INTERNAL_URL", "http://wiki.corp/a/b.html"),
            ("at http://localhost:3000, then", "INTERNAL_URL", "http://localhost:3000"),
            ("host http://build.corp.", "INTERNAL_URL", "http://build.corp"),
        ];
        for (text, cat, value) in table {
            assert_eq!(categories(text), vec![(cat.to_string(), value.to_string())], "{text}");
        }
    }

    #[test]
    fn hard_negatives_are_left_alone() {
        for text in [
            "order 1234 5678 9012 3456 shipped", // fails Luhn
            "ssn 000-12-3456 is invalid",
            "version 10.2.3 released",
            "public 8.8.8.8 resolver",
            "uuid 123e4567-e89b-12d3-a456-426614174000",
            "git 3f9a1c0de1b2c3d4e5f60718293a4b5c6d7e8f90",
            "price $1,299.00 on 2024-05-01 12:30:00",
            "https://example.com/docs",
            "http://wiki.corporate.example/x and http://localhostile.example",
            "10.0.0.300 is not an address",
            "iban GB82 WEST 1234 5698 7654 33 fails mod-97",
            "eyJub3RoaW5nIjoxfQ.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJl has no alg",
            "the password field is required",
            "at 12:30:45.123 and 00:00:00:00:00:00",
        ] {
            assert_eq!(categories(text), vec![], "{text}");
        }
    }

    #[test]
    fn regression_a_rejected_match_does_not_hide_a_valid_one_inside_it() {
        assert_eq!(
            categories("ref 5 4111 1111 1111 1111 ok"),
            vec![("CREDIT_CARD".into(), "4111 1111 1111 1111".into())]
        );
        assert_eq!(categories("id 9123-45-6789"), vec![]);
    }

    #[test]
    fn url_with_private_ip_is_one_internal_url() {
        assert_eq!(
            categories("go http://10.0.0.5:8080/x now"),
            vec![("INTERNAL_URL".into(), "http://10.0.0.5:8080/x".into())]
        );
    }

    #[test]
    fn longest_match_wins_then_confidence() {
        // Both API key rules match the same span; Anthropic's is more confident.
        let e = engine();
        let text = b"sk-ant-api03-abcdefghijklmnopqrstuvwxyz";
        let found = e.scan(text);
        assert_eq!(found.len(), 1);
        assert_eq!(e.rule(found[0].rule).unwrap().id, "secret.anthropic_api_key.v1");
    }

    #[test]
    fn custom_patterns_and_errors() {
        let mut config = DetectorsConfig::default();
        config.custom.push(CustomPattern {
            id: "acme.employee_id".into(),
            category: "EMPLOYEE_ID".into(),
            pattern: r"\bEMP-\d{6}\b".into(),
            confidence: 0.9,
        });
        let e = Engine::new(&config).unwrap();
        let found = e.scan(b"badge EMP-123456 ok");
        assert_eq!(found.len(), 1);
        assert_eq!(e.rule(found[0].rule).unwrap().category, "EMPLOYEE_ID");

        config.custom[0].pattern = "(unclosed".into();
        let err = Engine::new(&config).unwrap_err().to_string();
        assert!(err.starts_with("detectors.custom[0] (acme.employee_id): invalid pattern"), "{err}");

        config.custom[0].pattern = "a*".into();
        assert!(matches!(Engine::new(&config), Err(DetectError::EmptyMatch { .. })));

        config.custom[0].pattern = r"\w{1000}\w{1000}\w{1000}".into();
        let err = Engine::new(&config).unwrap_err().to_string();
        assert!(err.contains("exceeds"), "{err}");
    }

    #[test]
    fn disable_by_id_or_category() {
        let mut config = DetectorsConfig::default();
        config.disable = vec!["EMAIL".into(), "pii.ssn.v1".into()];
        let e = Engine::new(&config).unwrap();
        assert!(e.scan(b"a@b.example.com 123-45-6789").is_empty());
        config.disable = vec!["pii.nope.v1".into()];
        assert_eq!(Engine::new(&config).unwrap_err(), DetectError::UnknownRule { index: 0 });
    }

    #[test]
    fn policy_internal_domains() {
        let mut config = DetectorsConfig::default();
        config.internal_domains = vec![".acme-int.example".into()];
        let e = Engine::new(&config).unwrap();
        assert_eq!(e.scan(b"https://git.acme-int.example/repo").len(), 1);
        config.internal_domains = vec!["bad domain".into()];
        assert_eq!(Engine::new(&config).unwrap_err(), DetectError::BadDomain { index: 0 });
    }

    #[test]
    fn numeric_runs_cover_every_digit_group() {
        let text = b"call (415) 555-0132 or x9 y, 2024-05-01.";
        let runs: Vec<_> =
            numeric_runs(text).into_iter().map(|r| (&text[r.start..r.end], r.digits, r.dashes, r.dots)).collect();
        assert_eq!(
            runs,
            vec![(&b" (415) 555-0132 "[..], 10, 1, 0), (&b"9 "[..], 1, 0, 0), (&b" 2024-05-01."[..], 8, 2, 1)]
        );
        for at in 0..24 {
            let mut t = vec![b'a'; 24];
            t[at] = b'7';
            assert_eq!(next_digit(&t, 0), Some(at));
        }
        assert_eq!(next_digit(b"no digits here at all", 0), None);
    }

    #[test]
    fn invalid_utf8_and_binary_do_not_panic() {
        let e = engine();
        let mut text = b"\xff\xfe jane@example.com \xc3".to_vec();
        text.extend(std::iter::repeat(0u8).take(100));
        let found = e.scan(&text);
        assert_eq!(found.len(), 1);
    }
}
