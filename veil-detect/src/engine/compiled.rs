//! A compiled rule: its matcher, its gate, its context's word lists, and its search of
//! a window (validators, boundaries, placeholders).

use aho_corasick::AhoCorasick;
use regex::bytes::Regex;

use super::memo::Memo;
use super::text::{is_word_byte, word_boundary, Text};
use super::{prefilter, wordset};
use crate::config::{ModelConfig, MODEL_CONFIDENCE};
use crate::finders::person::BOTH_NAMES_KNOWN;
use crate::finders::{assign, card};
use crate::finding::{Finding, Source};
use crate::rule::{self, Context, Keep, Severity};
use crate::validate::Validator;

/// A compiled detector.
#[derive(Debug, Clone)]
pub struct Rule {
    pub id: String,
    pub category: String,
    /// Baseline confidence; a finding's own may differ by its context words.
    pub confidence: f32,
    pub severity: Severity,
    pub source: Source,
    pub(crate) matcher: Matcher,
    pub(crate) group: usize,
    pub(crate) clean_left: bool,
    pub(crate) clean_right: bool,
    pub(crate) validator: Validator,
    pub(crate) gate: CompiledGate,
    /// The rule's context, its word lists compiled (shared by the rules of one context).
    pub(crate) context: Option<std::sync::Arc<CompiledContext>>,
    /// The rule's place in the prefilter of the rules that share its windows.
    pub(crate) slot: Option<prefilter::Slot>,
    /// A credential rule (`secret.*`): a match that is a placeholder is no finding
    /// (see [`placeholder`]).
    pub(crate) credential: bool,
    /// The twin of a rule's [`rule::BuiltinRule::any_case`]: it searches an
    /// upper-cased copy of each window ([`Rule::search_window`]), so that the rule's
    /// capitals match letters in any case and its validator reads capitals.
    pub(crate) fold: bool,
    /// For a regex rule searched in windows around its keywords: the run of its bytes
    /// a window must hold before the regex is asked ([`prefilter::RunNeed`]).
    pub(crate) run: Option<prefilter::RunNeed>,
}

#[derive(Debug, Clone)]
pub(crate) enum Matcher {
    Regex(Regex),
    /// A hand-written equivalent of the rule's pattern (see [`rule::Finder`]).
    Code(rule::Finder),
    /// [`card::find_card`] with the payment-card validator, fused: [`card::next_card`]
    /// gives what the search loop would find trying one start at a time.
    Cards,
    /// The engine's person-name dictionaries.
    Names,
    /// One of the engine's policy dictionaries, by index.
    Words(usize),
    /// The model stage's rule of a category: never run by a scan (see [`model`]).
    Model,
}

#[derive(Debug, Clone)]
pub(crate) enum CompiledGate {
    Always,
    /// A literal the text must contain: looked for at the mask of one of its marks
    /// (`Text::contains`), else by `memmem`.
    Contains(&'static [u8]),
    /// The slot of this rule's prefixes in the engine's start index.
    Prefix(usize),
    /// The slot of this rule's words in the engine's start index.
    Word(usize),
    NumericRun {
        min_digits: usize,
        min_dashes: usize,
        min_dots: usize,
        plus: bool,
    },
    Test(fn(&Text<'_>) -> bool),
    AfterCountryCode {
        span: usize,
    },
    /// Keyword ids in the engine's keyword automaton.
    Near {
        words: Vec<usize>,
        span: Span,
        keep: Keep,
    },
    /// A window finder, and the index of its list among the engine's finders (rules
    /// that share a finder share its list, found once per scan).
    Windows {
        finder: rule::WindowFinder,
        list: usize,
    },
    Dictionary,
}

/// The window a `Near` rule searches around a keyword that begins at `start`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Span {
    /// `before` bytes before it to `after` bytes after its start.
    Around { before: usize, after: usize },
    /// The host name it is in (a run of ASCII letters, digits, `.` and `-`), with the
    /// byte after it for the rule's right-hand check.
    HostName,
}

/// A byte of a host name as [`Span::HostName`] reads one.
pub(crate) fn host_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'.' || b == b'-'
}

impl Span {
    /// The window of the keyword at `start`.
    pub(crate) fn window(self, text: &[u8], start: usize) -> (usize, usize) {
        match self {
            Span::Around { before, after } => (start.saturating_sub(before), (start + after).min(text.len())),
            Span::HostName => {
                let left = text.get(..start).unwrap_or_default();
                let s = left.iter().rposition(|&b| !host_byte(b)).map_or(0, |at| at + 1);
                let right = text.get(start..).unwrap_or_default();
                let e = start + right.iter().position(|&b| !host_byte(b)).unwrap_or(right.len());
                (s, (e + 1).min(text.len()))
            }
        }
    }
}

impl Keep {
    /// Whether the keyword that begins at `start` opens a window.
    pub(crate) fn keeps(self, text: &[u8], start: usize) -> bool {
        match self {
            Keep::Any => true,
            Keep::Assignment => {
                text.get(start..(start + 48).min(text.len())).is_some_and(|t| memchr::memchr2(b'=', b':', t).is_some())
            }
            Keep::Flag => {
                let after = text.get(start..).unwrap_or_default();
                let word = after.iter().position(|b| !b.is_ascii_alphanumeric()).unwrap_or(after.len());
                let rest = after.get(word..).unwrap_or_default();
                let blanks = rest.iter().take_while(|&&b| b == b' ' || b == b'\t').count();
                (start > 0 && text.get(start - 1) == Some(&b'-')) || (blanks > 0 && rest.get(blanks) == Some(&b'-'))
            }
            Keep::Sentence => {
                // Past the keyword's letters (any script), blanks, then no white space
                // and no `=` or `:`.
                let after = text.get(start..).unwrap_or_default();
                let word = after.iter().position(|&b| !(b.is_ascii_alphanumeric() || b >= 0x80)).unwrap_or(after.len());
                let rest = after.get(word..).unwrap_or_default();
                let blanks = rest.iter().take_while(|&&b| b == b' ' || b == b'\t').count();
                blanks > 0 && rest.get(blanks).is_some_and(|b| !b.is_ascii_whitespace() && !matches!(b, b'=' | b':'))
            }
            Keep::Capitalised => text.get(start).is_some_and(u8::is_ascii_uppercase),
        }
    }
}

pub(crate) type WindowsFn = fn(&Text<'_>) -> Vec<(usize, usize)>;

/// A [`Context`] with its word lists as sets.
#[derive(Debug)]
pub(crate) struct CompiledContext {
    pub(crate) context: &'static Context,
    /// Each word of both lists: [`TOWARDS`], [`AGAINST`] or both. One lookup a word.
    pub(crate) words: wordset::WordMap<u8>,
}

/// A word of a context's `words`…
pub(crate) const TOWARDS: u8 = 1;
/// …and of its `against`.
pub(crate) const AGAINST: u8 = 2;

/// `context` compiled, shared with the rules compiled before that use it.
pub(crate) fn compiled_context(
    done: &mut Vec<std::sync::Arc<CompiledContext>>,
    context: &'static Context,
) -> std::sync::Arc<CompiledContext> {
    if let Some(compiled) = done.iter().find(|c| std::ptr::eq(c.context, context)) {
        return compiled.clone();
    }
    let compiled = std::sync::Arc::new(CompiledContext {
        context,
        words: wordset::WordMap::from_entries(
            context.words.iter().map(|w| (*w, TOWARDS)).chain(context.against.iter().map(|w| (*w, AGAINST))),
            |a, b| a | b,
        ),
    });
    done.push(compiled.clone());
    compiled
}

/// How far before a match its context words are looked for, at most.
pub(crate) const CONTEXT_REACH: usize = 64;

/// A confidence moved by the context words in the `window` bytes before `start`.
pub(crate) fn adjust(text: &[u8], start: usize, confidence: f32, compiled: &CompiledContext) -> f32 {
    let context = compiled.context;
    let from = start.saturating_sub(context.window.min(CONTEXT_REACH));
    let Some(before) = text.get(from..start) else {
        return confidence;
    };
    // Context ends at the start of the sentence or line the match is in.
    let sentence = before
        .windows(2)
        .rposition(|w| matches!(w, [b'.' | b'!' | b'?' | b';', b' '] | [b'\n', _]))
        .map_or(0, |p| p + 1);
    let window = before.get(sentence..).unwrap_or(before);
    // Context words are letters only (a test holds the catalog to it): compare each
    // whole word of the window with the lists, once (the lists fold ASCII case).
    let mut kinds = 0;
    for word in window.split(|&b| !is_word_byte(b)).filter(|w| !w.is_empty()) {
        kinds |= compiled.words.get(word).unwrap_or(0);
    }
    let (against, towards) = (kinds & AGAINST != 0, kinds & TOWARDS != 0);
    // Negative evidence wins: "from version 10.2.3.4" is a version, whatever "from" says.
    let c = if against {
        confidence - context.penalty
    } else if towards {
        confidence + context.boost
    } else {
        confidence
    };
    c.clamp(0.0, 1.0)
}

/// Policy dictionary words, case-insensitive, on word boundaries.
pub(crate) fn find_words(automaton: &AhoCorasick, text: &[u8], rule: usize, confidence: f32, out: &mut Vec<Finding>) {
    for m in automaton.find_iter(text) {
        if word_boundary(text, m.start(), m.end()) {
            out.push(Finding { start: m.start(), end: m.end(), rule, confidence });
        }
    }
}

impl Rule {
    /// The highest confidence a finding of this rule can have: its own, with its
    /// context's boost (and, for the names, both names known). A rule whose best is
    /// below the policy's threshold is never visited ([`visit::Visits::new`]).
    pub(crate) fn best(&self) -> f32 {
        let known_both = if matches!(self.matcher, Matcher::Names) { BOTH_NAMES_KNOWN } else { 0.0 };
        self.confidence + self.context.as_ref().map_or(0.0, |c| c.context.boost) + known_both
    }

    /// Appends this rule's validated matches in `text[ws..we]` to `out` (the text before
    /// `ws` is there for the pattern's look-behinds). An any-case twin searches an
    /// upper-cased copy of the window and the byte before it: ASCII case changes no
    /// offset.
    pub(crate) fn search_window(&self, index: usize, text: &[u8], (ws, we): (usize, usize), out: &mut Vec<Finding>) {
        // The bytes the search reads from (`hay[from..]`): those the run test reads.
        let holds =
            |hay: &[u8], from: usize| self.run.as_ref().is_none_or(|r| r.passes(hay.get(from..).unwrap_or_default()));
        if !self.fold {
            let hay = text.get(..we).unwrap_or(text);
            if holds(hay, ws) {
                self.search(index, hay, ws, out);
            }
            return;
        }
        let lo = ws.saturating_sub(1);
        let upper = text.get(lo..we).unwrap_or_default().to_ascii_uppercase();
        if !holds(&upper, ws - lo) {
            return;
        }
        let from = out.len();
        self.search(index, &upper, ws - lo, out);
        for found in out.get_mut(from..).unwrap_or_default() {
            (found.start, found.end) = (found.start + lo, found.end + lo);
        }
    }

    /// Appends this rule's validated matches in `hay[from..]` to `out`.
    pub(crate) fn search(&self, index: usize, hay: &[u8], from: usize, out: &mut Vec<Finding>) {
        if matches!(self.matcher, Matcher::Code(_)) {
            assign::forget_resume();
        }
        let mut at = from;
        // Candidates refused for their boundaries in a row that all end at the same
        // byte (see below).
        let mut refused: (usize, usize) = (usize::MAX, 0);
        while at <= hay.len() {
            let found = match &self.matcher {
                Matcher::Regex(regex) if self.group == 0 => {
                    regex.find_at(hay, at).map(|m| (m.start(), m.end(), m.end()))
                }
                Matcher::Regex(regex) => regex.captures_at(hay, at).and_then(|c| {
                    let whole = c.get(0)?;
                    c.get(self.group).map(|m| (m.start(), m.end(), whole.end()))
                }),
                Matcher::Code(find) => find(hay, at).map(|(start, end)| (start, end, end)),
                Matcher::Cards => card::next_card(hay, at).map(|(start, end)| (start, end, end)),
                Matcher::Names | Matcher::Words(_) | Matcher::Model => return,
            };
            let Some((start, end, next)) = found else {
                break;
            };
            let runs_in = self.clean_left
                && start > 0
                && hay.get(start - 1).is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'+' || b == b'_');
            if runs_in || (self.clean_right && runs_on(hay, end)) {
                // Not a match here; a later start inside it may still be one. But a
                // long candidate that every later start finds again, to the same end
                // (`corp.corp.corp….x`: each a host name that runs on), would make the
                // search quadratic: after REFUSED_IN_A_ROW of them the search goes on
                // from that end.
                refused = if refused.0 == end { (end, refused.1 + 1) } else { (end, 1) };
                at = if refused.1 >= REFUSED_IN_A_ROW { end.max(start + 1) } else { start + 1 };
                continue;
            }
            let value = hay.get(start..end).unwrap_or_default();
            let accepted = if start < end && !(self.credential && placeholder(value)) {
                self.validator.accept(value)
            } else {
                None
            };
            if let Some(len) = accepted.filter(|&len| len > 0) {
                out.push(Finding { start, end: start + len, rule: index, confidence: self.confidence });
                at = if matches!(self.validator, Validator::PaymentCard) {
                    // A card run may begin with digits that belong to something else
                    // ("…battery.2549 4111 1111 1111 1111": the leftmost candidate, or
                    // its shortened form, takes the 2549 and the 4111). Later group
                    // starts are candidates too; overlaps are resolved as usual.
                    // Bounded by the 19 digits of a card: linear.
                    start + 1
                } else if len < end - start {
                    start + len
                } else if next > at {
                    next
                } else {
                    at + 1
                };
            } else {
                // A rejected candidate may hide a valid one that starts inside it
                // ("5 4111 1111 1111 1111": the 17-digit match fails Luhn, the card
                // after the 5 does not). Patterns with validators are bounded in
                // length, so retrying one byte on keeps the scan linear. A rule with a
                // capture group matched its context prefix too: it resumes after it.
                at = if self.group != 0 && next > start + 1 { next } else { start + 1 };
            }
        }
    }
}

/// Whether a credential-shaped match is a placeholder that documentation and templates
/// put where the credential goes: six or more `x`, `X`, `*` or `#` in a row
/// (`AKIAXXXXXXXXXXXXXXXX`, `ghp_xxxx…`), or an instruction (`xoxb-your-bot-token`,
/// `sk-your_key_here`). A random credential holds neither. Narrower than the assignment
/// reader's `assign::placeholder` on purpose: a vendor's documented example
/// (`AKIAIOSFODNN7EXAMPLE`) is still tokenized like a real key.
pub(crate) fn placeholder(value: &[u8]) -> bool {
    let filler = value.windows(6).any(|w| {
        let first = w.first().copied().unwrap_or(0);
        matches!(first, b'x' | b'X' | b'*' | b'#') && w.iter().all(|&b| b == first)
    });
    let said = [&b"your-"[..], b"your_", b"-here", b"_here"]
        .iter()
        .any(|words| value.windows(words.len()).any(|w| w.eq_ignore_ascii_case(words)));
    filler || said
}

/// How many candidates in a row, refused for their boundaries and all ending at the
/// same byte, [`Rule::search`] retries one byte on before it goes on from their end.
pub(crate) const REFUSED_IN_A_ROW: usize = 8;

/// Does the text at `end` continue a word or host name?
pub(crate) fn runs_on(hay: &[u8], end: usize) -> bool {
    let word = |b: Option<&u8>| b.is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    word(hay.get(end)) || (hay.get(end) == Some(&b'.') && word(hay.get(end + 1)))
}

/// What the engine keeps for its model: the configuration, one rule per allowed
/// category (never run by a scan: only proposals become its findings), and the
/// answers remembered.
#[derive(Debug, Clone)]
pub(crate) struct ModelStage {
    pub(crate) config: ModelConfig,
    /// The rules of the categories, in order; their indexes follow the scan rules'.
    pub(crate) rules: Vec<Rule>,
    pub(crate) memo: Memo,
}

impl ModelStage {
    pub(crate) fn new(config: &ModelConfig) -> ModelStage {
        let rules = config
            .categories
            .iter()
            .map(|category| Rule {
                id: format!("model.{}", category.to_ascii_lowercase()),
                category: category.clone(),
                confidence: MODEL_CONFIDENCE,
                severity: crate::category::severity(category),
                source: Source::Model,
                matcher: Matcher::Model,
                group: 0,
                clean_left: false,
                clean_right: false,
                validator: crate::validate::Validator::None,
                gate: CompiledGate::Dictionary,
                context: None,
                slot: None,
                credential: false,
                fold: false,
                run: None,
            })
            .collect();
        ModelStage { config: config.clone(), rules, memo: Memo::new() }
    }

    pub(crate) fn rule(&self, index: usize) -> Option<&Rule> {
        self.rules.get(index)
    }
}
