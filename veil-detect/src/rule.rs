//! The rule schema: what a built-in rule is (its pattern, gate, validator, context,
//! severity and its own examples), the gates that decide where its regex runs, and
//! the window finders' shape. The rules themselves are data in `rules.rs` and
//! `catalog/`; the engine (`build.rs`, `visit.rs`) compiles and runs them.

pub use super::category::Severity;
use super::engine::text::{Needs, Text};
use super::validate::Validator;

/// A cheap test that decides where a rule's regex must run at all. Most chat text
/// has no `@`, no `://` and few digits, so most rules never touch most bytes.
#[derive(Debug, Clone, Copy)]
pub enum Gate {
    /// Run over the whole text.
    Always,
    /// Run over the whole text only if it contains this byte string.
    Contains(&'static [u8]),
    /// Run from the first word start (an ASCII letter or digit after a byte that is
    /// neither) where one of these case-sensitive prefixes begins. The pattern must
    /// begin with `\b` and one of them, so no match starts earlier; all prefixes of all
    /// rules are found in the same single pass as the `Near` keywords.
    Prefix(&'static [&'static [u8]]),
    /// Run over the whole text only if one of these case-sensitive literals begins at
    /// a word start (found by the same pass as the prefixes): a `Contains` gate for a
    /// literal that the pattern always puts after a non-alphanumeric byte
    /// (`"service_account"`, `;AccountKey=`, `-----BEGIN PGP`), without a search of
    /// its own.
    Word(&'static [&'static [u8]]),
    /// Run only inside numeric runs (digits and `+ ( ) - . space`) with at least these
    /// many digits, dashes and dots (and a `+` if asked); every match of the rule lies
    /// inside one such run, so the regex never sees the rest of the text.
    NumericRun { min_digits: usize, min_dashes: usize, min_dots: usize, plus: bool },
    /// Run over the whole text only if this cheap test of the text passes.
    Test(fn(&Text<'_>) -> bool),
    /// Run only at numeric runs right after two upper-case letters at a word's start
    /// (an IBAN's country code and check digits: its pattern begins with `\b`, so a
    /// log's `INFO 2026-…` is none), over the next `span` bytes.
    AfterCountryCode { span: usize },
    /// Run only in windows around whole-word, case-insensitive occurrences of these
    /// keywords (`before` bytes before a keyword to `after` bytes after its start).
    /// All keywords of all rules are found in one Aho-Corasick pass per scan; a rule
    /// that needs a context word ("passport", "born", "Dr") never sees the rest.
    Near { words: &'static [&'static str], before: usize, after: usize },
    /// Run only in the host names (runs of ASCII letters, digits, `.` and `-`) around
    /// whole-word, case-insensitive occurrences of these keywords: for a pattern whose
    /// every match is a host name that holds one of them. The window is the name
    /// itself, however long, not a fixed span around the keyword.
    InHostName(&'static [&'static str]),
    /// Matched by the engine's name dictionaries (given names and surnames), not a regex.
    PersonNames,
    /// Matched by this policy dictionary.
    PolicyWords(PolicyList),
    /// Run only in the windows this finder finds (merged, in order).
    Windows(WindowFinder),
}

/// A function that finds the windows a rule runs in, and the kinds of byte a text must
/// hold for it to find any (declared beside the function; a test holds every finder
/// to its needs on every rule's examples and on generated text).
#[derive(Debug, Clone, Copy)]
pub struct WindowFinder {
    pub find: fn(&Text<'_>) -> Vec<(usize, usize)>,
    pub needs: Needs,
}

/// The policy's own word lists a rule matches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PolicyList {
    /// `detectors.code_names`.
    CodeNames,
    /// `detectors.customer_names`.
    CustomerNames,
}

/// A rule the policy's `internal_domains` extend: each is one more internal host
/// suffix for its pattern and, with a `Near` or `InHostName` gate, one more keyword.
#[derive(Debug, Clone, Copy)]
pub struct Domains {
    /// The rule's pattern, with the policy's domains as more suffixes.
    pub pattern: fn(&[String]) -> String,
    /// More keyword lists for its `Near` or `InHostName` gate, beside the gate's own words.
    pub keywords: &'static [&'static [&'static str]],
}

/// Words near a match that raise or lower its confidence. Looked for, case-insensitively
/// and as whole words, in the `window` bytes before the match.
#[derive(Debug, Clone, Copy)]
pub struct Context {
    pub window: usize,
    pub words: &'static [&'static str],
    pub boost: f32,
    pub against: &'static [&'static str],
    pub penalty: f32,
}

/// Appends `(s, e)` to windows sorted by start, merging it with the last one if they
/// touch: how every `Gate::Windows` finder builds its list.
pub fn push_window(windows: &mut Vec<(usize, usize)>, s: usize, e: usize) {
    match windows.last_mut() {
        Some(last) if s <= last.1 => last.1 = last.1.max(e),
        _ => windows.push((s, e)),
    }
}

/// Windows around each occurrence of one of `keywords`, `window(at, len)` of the one
/// at `at`, in order and merged. Keywords that all begin with the lead byte of a
/// three- or four-byte UTF-8 character (CJK, Hangul, Devanagari) cannot occur in a
/// text without one: such a text is passed over at once.
pub fn keyword_windows(
    t: &Text<'_>,
    keywords: &[&[u8]],
    window: impl Fn(usize, usize) -> (usize, usize),
) -> Vec<(usize, usize)> {
    let text = t.bytes();
    let wide = keywords.iter().all(|k| k.first().is_some_and(|&b| b >= 0xE0));
    if wide && !t.has_wide() {
        return Vec::new();
    }
    let mut found: Vec<(usize, usize)> = Vec::new();
    for keyword in keywords {
        for at in memchr::memmem::find_iter(text, keyword) {
            let (s, e) = window(at, keyword.len());
            found.push((s.min(text.len()), e.min(text.len())));
        }
    }
    found.sort_unstable();
    let mut windows = Vec::new();
    for (s, e) in found {
        push_window(&mut windows, s, e);
    }
    windows
}

/// Which hits of a `Near` rule's keywords open a window: a test of the bytes around
/// each, so that a common word (`password`) costs only where the rule can match.
/// A test per kind holds the findings to those of every hit (`detect/tests.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keep {
    /// Every hit.
    Any,
    /// A `:` or `=` follows within 48 bytes (the rule matches assignments only).
    Assignment,
    /// The keyword is part of a command-line flag, with a `-` just before it
    /// (`--password`, `--db-password`) or blanks and a `-` after it (`sshpass -p`).
    Flag,
    /// It begins a sentence's clause, with blanks and then a word after it on its line
    /// (`password is …`), not an operator (`password = …`, `password_min_length: …`:
    /// the assignment reader's).
    Sentence,
    /// It begins with an ASCII capital: for a pattern that begins with the keyword
    /// capitalised (`Ms Smith`, not a log's `latency_ms=12`).
    Capitalised,
}

/// A built-in rule before compilation.
#[derive(Debug, Clone, Copy)]
pub struct BuiltinRule {
    /// Stable identifier, `family.name.vN`; referenced by policies and audit events.
    pub id: &'static str,
    pub category: &'static str,
    pub pattern: &'static str,
    /// Capture group that is the finding (0 = whole match). Captures are slow; prefer
    /// `clean_left` / `clean_right`.
    pub group: usize,
    /// The byte before a match must not be a letter, digit, `+` or `_` (a look-behind
    /// the regex crate does not have; checked in code, which is also much cheaper
    /// than a capture group).
    pub clean_left: bool,
    /// The match must not run on into a host name or word: the next byte is not a
    /// letter, digit, `_` or `-`, nor a `.` followed by one (a look-ahead, in code).
    pub clean_right: bool,
    pub validator: Validator,
    /// Baseline confidence, before context words.
    pub confidence: f32,
    pub gate: Gate,
    pub severity: Severity,
    pub context: Option<&'static Context>,
    /// With a `Near` gate: which of its keywords' hits open a window ([`Keep`]).
    pub keep: Keep,
    /// The policy's `internal_domains` extend this rule (its pattern is built with
    /// them; `pattern` is empty).
    pub domains: Option<Domains>,
    /// Matches exactly what `pattern` matches, without a regex: for rules whose
    /// candidates are retried at every byte of a long run, where a regex call per
    /// byte costs far more than the match (a test compares the two).
    pub finder: Option<Finder>,
    /// Labels near which the rule's letters match in any case (`codice fiscale:
    /// rssmra85t10a562s`, `iban: de89 3704 …`): the engine adds a twin of the rule that
    /// runs its pattern and validator over an upper-cased copy of the text in
    /// [`ANY_CASE_SPAN`] around these words. Without a label a lower-case token is not
    /// read as the identifier (a random token often has its shape). The pattern must
    /// need no small letter (a test holds the examples to it). Empty: the pattern's
    /// case only.
    pub any_case: &'static [&'static str],
    /// Texts in which this rule must find each value marked `⟦…⟧` (exactly that span,
    /// of this rule's category), with the rest of the catalog running beside it. A unit
    /// test runs every example of every rule; adding a rule is one entry and its examples.
    pub examples: &'static [&'static str],
    /// Texts in which this rule must find nothing (look-alikes, placeholders, references).
    pub negatives: &'static [&'static str],
}

/// The leftmost match at or after `from` in `hay`, as `(start, end)`, like
/// `Regex::find_at`.
pub type Finder = fn(&[u8], usize) -> Option<(usize, usize)>;

/// The defaults every entry of the catalog starts from (`..BASE`).
pub const BASE: BuiltinRule = BuiltinRule {
    id: "",
    category: "",
    pattern: "",
    group: 0,
    clean_left: false,
    clean_right: false,
    validator: Validator::None,
    confidence: 0.9,
    gate: Gate::Always,
    severity: Severity::High,
    context: None,
    keep: Keep::Any,
    domains: None,
    finder: None,
    any_case: &[],
    examples: &[],
    negatives: &[],
};

/// The fields a catalog builder (`catalog/vendors.rs`'s `near_keyword`) leaves to each
/// entry, chained on: `near_keyword(…).validator(…).examples(&[…])`.
impl BuiltinRule {
    pub const fn validator(self, validator: Validator) -> BuiltinRule {
        BuiltinRule { validator, ..self }
    }

    pub const fn keep(self, keep: Keep) -> BuiltinRule {
        BuiltinRule { keep, ..self }
    }

    pub const fn examples(self, examples: &'static [&'static str]) -> BuiltinRule {
        BuiltinRule { examples, ..self }
    }

    pub const fn negatives(self, negatives: &'static [&'static str]) -> BuiltinRule {
        BuiltinRule { negatives, ..self }
    }
}

/// The window (bytes before, bytes after a label's start) in which an
/// [`BuiltinRule::any_case`] twin runs: the value after its label (`CURP: …`, `my pan
/// is …`) or just before it (`… is my codice fiscale`).
pub const ANY_CASE_SPAN: (usize, usize) = (40, 64);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keyword_windows_are_merged_in_order() {
        let text = "生日 1990 and 生年月日 2001, 生日".as_bytes();
        let labels: &[&[u8]] = &["生年月日".as_bytes(), "生日".as_bytes()];
        let w = keyword_windows(&Text::new(text), labels, |at, len| (at + len, at + len + 4));
        assert_eq!(w, vec![(6, 10), (28, 32), (41, 41)], "the last one clipped to the end");
        assert_eq!(keyword_windows(&Text::new(b"plain ascii"), labels, |at, len| (at, at + len)), vec![]);
    }
}
