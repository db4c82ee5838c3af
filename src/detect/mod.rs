//! The detection engine: compiled rules in, non-overlapping findings out.
//!
//! Compiled once per policy (`Engine::new`), then shared read-only by every request.
//! A `Finding` is offsets, a rule index and a confidence; the engine never keeps or
//! reports the bytes it matched.
//!
//! Each rule has a *gate* that decides cheaply where its matcher must run at all
//! (see [`rule::Gate`]): most rules never look at most bytes of a clean text. Context
//! words near a candidate raise or lower its confidence; the policy's
//! `confidence_threshold` then drops what is left below it.

mod address;
mod assign;
mod build;
pub mod catalog;
pub mod category;
mod cjkname;
pub mod config;
mod confusables;
mod memo;
pub mod model;
mod namehash;
pub mod names;
mod nametable;
pub mod normalize;
mod numeric;
mod person;
mod prefilter;
pub mod rule;
pub mod rules;
mod starts;
pub mod text;
pub mod validate;
mod visit;
pub(crate) mod wordset;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};
use regex::bytes::Regex;

pub use config::{
    is_category, CustomPattern, DetectError, DetectorsConfig, CUSTOM_PATTERN_SIZE_LIMIT, MAX_WORDS, MAX_WORD_LEN,
};
use person::{NameMatcher, BOTH_NAMES_KNOWN};
use rule::{Context, Keep, Severity};
use starts::StartIndex;
use text::Text;
use validate::Validator;

/// Where a rule comes from, as reported by `veilctl scan` (`source`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// A built-in pattern without a validator.
    Pattern,
    /// A span the policy's model proposed and the engine checked (`detectors.model`).
    Model,
    /// A built-in pattern confirmed by a checksum or structural validator.
    Validated,
    /// A built-in pattern that only runs near context words ("passport", "born").
    Context,
    /// A dictionary: built-in person names or the policy's word lists.
    Dictionary,
    /// A regex from the policy (`detectors.custom`).
    PolicyRegex,
}

impl Source {
    pub fn name(self) -> &'static str {
        match self {
            Source::Pattern => "regex",
            Source::Model => "model",
            Source::Validated => "regex+validator",
            Source::Context => "regex+context",
            Source::Dictionary => "dictionary",
            Source::PolicyRegex => "policy_regex",
        }
    }
}

/// A compiled detector.
#[derive(Debug, Clone)]
pub struct Rule {
    pub id: String,
    pub category: String,
    /// Baseline confidence; a finding's own may differ by its context words.
    pub confidence: f32,
    pub severity: Severity,
    pub source: Source,
    matcher: Matcher,
    group: usize,
    clean_left: bool,
    clean_right: bool,
    validator: Validator,
    gate: CompiledGate,
    /// The rule's context, its word lists compiled (shared by the rules of one context).
    context: Option<std::sync::Arc<CompiledContext>>,
    /// The rule's place in the prefilter of the rules that share its windows.
    slot: Option<prefilter::Slot>,
    /// A credential rule (`secret.*`): a match that is a placeholder is no finding
    /// (see [`placeholder`]).
    credential: bool,
    /// The twin of a rule's [`rule::BuiltinRule::any_case`]: it searches an
    /// upper-cased copy of each window ([`Rule::search_window`]), so that the rule's
    /// capitals match letters in any case and its validator reads capitals.
    fold: bool,
    /// For a regex rule searched in windows around its keywords: the run of its bytes
    /// a window must hold before the regex is asked ([`prefilter::RunNeed`]).
    run: Option<prefilter::RunNeed>,
}

#[derive(Debug, Clone)]
enum Matcher {
    Regex(Regex),
    /// A hand-written equivalent of the rule's pattern (see [`rule::Finder`]).
    Code(rule::Finder),
    /// [`rules::find_card`] with the payment-card validator, fused: [`rules::next_card`]
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
enum CompiledGate {
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
enum Span {
    /// `before` bytes before it to `after` bytes after its start.
    Around { before: usize, after: usize },
    /// The host name it is in (a run of ASCII letters, digits, `.` and `-`), with the
    /// byte after it for the rule's right-hand check.
    HostName,
}

/// A byte of a host name as [`Span::HostName`] reads one.
fn host_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'.' || b == b'-'
}

impl Span {
    /// The window of the keyword at `start`.
    fn window(self, text: &[u8], start: usize) -> (usize, usize) {
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
    fn keeps(self, text: &[u8], start: usize) -> bool {
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

type WindowsFn = fn(&Text<'_>) -> Vec<(usize, usize)>;

/// One detected span in the scanned text, by byte offsets.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Finding {
    pub start: usize,
    pub end: usize,
    /// Index into [`Engine::rule`].
    pub rule: usize,
    /// The rule's confidence adjusted by context words, within 0..=1.
    pub confidence: f32,
}

impl Finding {
    pub fn len(&self) -> usize {
        self.end - self.start
    }

    pub fn is_empty(&self) -> bool {
        self.start == self.end
    }
}

/// The compiled rule set for one policy.
#[derive(Debug, Clone)]
pub struct Engine {
    rules: Vec<Rule>,
    min_confidence: f32,
    /// Every `Near` keyword and every `Prefix` of every rule, found in one pass.
    starts: Option<StartIndex>,
    names: Option<NameMatcher>,
    dictionaries: Vec<AhoCorasick>,
    /// Which rules a scan visits (see [`visit`]).
    visits: visit::Visits,
    /// Prefilters of the rules that share a window finder (see [`prefilter`]).
    groups: Vec<prefilter::Group>,
    /// The fewest digits that a rule gated by numeric runs needs in a run.
    numeric_min_digits: usize,
    /// How far any rule looks around a position for its context (`Near` windows, the
    /// context window, a country code's span): [`Engine::scan_parts`] keeps parts this
    /// far apart.
    reach: usize,
    /// Findings of the texts scanned lately, for [`Engine::scan_parts_remembered`]
    /// (none with `detectors.memory: false`).
    memo: Option<memo::Memo>,
    /// The model stage (`detectors.model`), when it is on; its rules' indexes follow
    /// `rules`.
    model: Option<model::ModelStage>,
}

pub use memo::MEMO_MIN_LEN;

/// The most bytes [`Engine::scan_parts`] joins into one text (parts and gaps).
const JOINED_MAX: usize = 1 << 20;

/// Non-overlapping findings from candidates that may overlap, as the engine chooses
/// them: the longest span wins, then the higher confidence, then the earlier rule; in
/// order of position. (An empty candidate is no finding: no rule makes one.)
///
/// The candidates are sorted by start and cut into groups that overlap one another
/// (each group's spans are disjoint from every other group's), and the order of
/// priority is applied within each group: a candidate's fate depends only on the
/// candidates it overlaps, so this chooses what one ranking of them all would. Most
/// findings overlap nothing and are taken as they come; sorting them all by four keys
/// was a tenth of a scan of prose dense with names.
fn resolve_overlaps(mut candidates: Vec<Finding>) -> Vec<Finding> {
    candidates.retain(|c| c.start < c.end);
    if candidates.len() <= 1 {
        return candidates;
    }
    candidates.sort_unstable_by_key(|c| c.start);
    // The bytes taken by the findings chosen so far, one bit each, as far as the groups
    // of more than one reach: a candidate of a group is chosen if none of its bytes is
    // taken. Each rule's candidates barely overlap one another, so the bits read stay
    // within a small multiple of the text's length.
    let mut taken: Vec<u64> = Vec::new();
    let mut chosen = Vec::with_capacity(candidates.len());
    let mut from = 0;
    while let Some(first) = candidates.get(from) {
        let mut end = first.end;
        let mut to = from + 1;
        while let Some(next) = candidates.get(to).filter(|c| c.start < end) {
            end = end.max(next.end);
            to += 1;
        }
        let Some(group) = candidates.get_mut(from..to) else { break };
        from = to;
        if let [one] = group {
            chosen.push(*one);
            continue;
        }
        // Unstable: the order compares every field (the length and the start give the
        // end), so only equal findings tie. (Packing the four keys into one `u128`
        // per comparison was slower in V8, where a `u128` is two numbers.)
        group.sort_unstable_by(|a, b| {
            b.len()
                .cmp(&a.len())
                .then(b.confidence.total_cmp(&a.confidence))
                .then(a.rule.cmp(&b.rule))
                .then(a.start.cmp(&b.start))
        });
        if taken.len() <= end / 64 {
            taken.resize(end / 64 + 1, 0);
        }
        let first_chosen = chosen.len();
        for cand in group.iter() {
            if !spans::any(&taken, cand.start, cand.end) {
                spans::set(&mut taken, cand.start, cand.end);
                chosen.push(*cand);
            }
        }
        chosen.get_mut(first_chosen..).unwrap_or_default().sort_unstable_by_key(|f| f.start);
    }
    chosen
}

/// Ranges of bits in a bitset of `u64` words.
mod spans {
    /// The bits of word `w` that lie in `start..end`.
    fn mask(w: usize, start: usize, end: usize) -> u64 {
        let (lo, hi) = (start.max(w * 64) - w * 64, end.min(w * 64 + 64) - w * 64);
        let upto = |n: usize| if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
        upto(hi) & !upto(lo)
    }

    /// Whether any bit in `start..end` (nonempty, within the set) is set.
    pub fn any(bits: &[u64], start: usize, end: usize) -> bool {
        let (first, last) = (start / 64, (end - 1) / 64);
        bits.get(first..=last).unwrap_or_default().iter().zip(first..).any(|(word, w)| word & mask(w, start, end) != 0)
    }

    /// Sets every bit in `start..end` (nonempty, within the set).
    pub fn set(bits: &mut [u64], start: usize, end: usize) {
        let (first, last) = (start / 64, (end - 1) / 64);
        for (word, w) in bits.get_mut(first..=last).unwrap_or_default().iter_mut().zip(first..) {
            *word |= mask(w, start, end);
        }
    }
}

impl Engine {
    /// How far any rule looks around a match (gates and context windows), in bytes.
    pub fn reach(&self) -> usize {
        self.reach
    }

    /// The rule of a finding: a scan rule, or the model stage's rule of a category.
    pub fn rule(&self, index: usize) -> Option<&Rule> {
        match index.checked_sub(self.rules.len()) {
            None => self.rules.get(index),
            Some(at) => self.model.as_ref()?.rule(at),
        }
    }

    pub fn rules(&self) -> &[Rule] {
        &self.rules
    }

    /// Scans `text` and returns non-overlapping findings in order of position.
    ///
    /// Overlaps are resolved greedily: the longest span wins; on equal length the
    /// higher confidence; then the earlier (more specific) rule.
    ///
    /// The detectors read the text's normalized view ([`normalize::View`]: invisible
    /// characters removed, compatibility forms folded, JSON escapes decoded); the
    /// findings are offsets into `text` itself, each covering whole raw units.
    pub fn scan(&self, text: &[u8]) -> Vec<Finding> {
        let view = normalize::View::new(text);
        let found = view.to_raw(self.scan_view(view.text()));
        self.with_boundaries(text, &view, found)
    }

    /// When the view removed invisible characters, the findings of the views that read
    /// them as spaces, or as spaces only between a word and a number, too (see
    /// [`normalize::View::with_boundaries`]), longest first.
    fn with_boundaries(&self, text: &[u8], view: &normalize::View<'_>, found: Vec<Finding>) -> Vec<Finding> {
        if !view.removed() {
            return found;
        }
        let mut all = found;
        for invisible in [normalize::Invisible::Spaces, normalize::Invisible::WordNumberBreaks] {
            let alt = normalize::View::with_boundaries(text, invisible);
            all.extend(alt.to_raw(self.scan_view(alt.text())));
        }
        resolve_overlaps(all)
    }

    /// [`Engine::scan`] of a text that is already a view.
    fn scan_view(&self, text: &[u8]) -> Vec<Finding> {
        self.scan_checked(text, &[]).unwrap_or_default()
    }

    /// Scans several texts (a request's messages) in one pass, with the findings of
    /// each by offsets into it: the same as scanning them one by one, without paying a
    /// scan's fixed costs per part.
    ///
    /// The parts are joined with runs of `\n` longer than any rule's reach, which no
    /// context window, gate window or keyword spans, and which every `\b` and
    /// character class in the catalog treats as a boundary. A pattern that can match
    /// line breaks (a custom `(?s)` one, say) might still produce a candidate across
    /// two parts: then the parts are scanned one by one instead. Parts are joined in
    /// batches of at most [`JOINED_MAX`] bytes with their gaps, so that many tiny
    /// parts (a hostile body of one-letter messages) cannot make the joined text many
    /// times the size of the body.
    pub fn scan_parts(&self, parts: &[&[u8]]) -> Vec<Vec<Finding>> {
        let views: Vec<normalize::View<'_>> = parts.iter().map(|p| normalize::View::new(p)).collect();
        let texts: Vec<&[u8]> = views.iter().map(normalize::View::text).collect();
        let found = self.scan_views(&texts);
        views
            .iter()
            .zip(parts)
            .zip(found)
            .map(|((view, part), f)| self.with_boundaries(part, view, view.to_raw(f)))
            .collect()
    }

    /// [`Engine::scan_parts`] over views.
    fn scan_views(&self, parts: &[&[u8]]) -> Vec<Vec<Finding>> {
        let gap = self.reach + 1;
        let mut out = Vec::with_capacity(parts.len());
        let mut rest = parts;
        while let Some((first, others)) = rest.split_first() {
            let (mut count, mut size) = (1, first.len());
            for part in others {
                if size + gap + part.len() > JOINED_MAX {
                    break;
                }
                size += gap + part.len();
                count += 1;
            }
            let (batch, after) = rest.split_at(count.min(rest.len()));
            out.extend(self.scan_joined(batch, gap));
            rest = after;
        }
        out
    }

    /// [`Engine::scan_parts`], answering from memory for texts of at least
    /// [`MEMO_MIN_LEN`] bytes scanned lately in the same `scope` (a chat request
    /// repeats its history; see `memo.rs`), and remembering the others. Also returns
    /// how many parts were answered from memory. Without a memory (`detectors.memory:
    /// false`), [`Engine::scan_parts`].
    pub fn scan_parts_remembered(&self, scope: &[u8], parts: &[&[u8]]) -> (Vec<Vec<Finding>>, usize) {
        let Some(memo) = &self.memo else { return (self.scan_parts(parts), 0) };
        // Remembered by the raw text, findings in raw offsets: a remembered part costs
        // no view either.
        let mut out: Vec<Option<Vec<Finding>>> = Vec::with_capacity(parts.len());
        let mut keys: Vec<Option<memo::Key>> = Vec::with_capacity(parts.len());
        let mut missed: Vec<&[u8]> = Vec::new();
        for part in parts {
            let key = (part.len() >= MEMO_MIN_LEN).then(|| memo.key(scope, part));
            let known = key.and_then(|k| memo.get(k));
            if known.is_none() {
                missed.push(part);
            }
            out.push(known);
            keys.push(key);
        }
        let remembered = parts.len() - missed.len();
        let mut scanned = self.scan_parts(&missed).into_iter();
        let found = out
            .into_iter()
            .zip(keys)
            .map(|(known, key)| {
                known.unwrap_or_else(|| {
                    let findings = scanned.next().unwrap_or_default();
                    if let Some(key) = key {
                        memo.put(key, &findings);
                    }
                    findings
                })
            })
            .collect();
        (found, remembered)
    }

    /// One batch of [`Engine::scan_parts`].
    fn scan_joined(&self, parts: &[&[u8]], gap: usize) -> Vec<Vec<Finding>> {
        if parts.len() <= 1 {
            return parts.iter().map(|p| self.scan_view(p)).collect();
        }
        let mut joined = Vec::with_capacity(parts.iter().map(|p| p.len() + gap).sum());
        let mut starts = Vec::with_capacity(parts.len());
        for (i, part) in parts.iter().enumerate() {
            if i > 0 {
                joined.resize(joined.len() + gap, b'\n');
            }
            starts.push(joined.len());
            joined.extend_from_slice(part);
        }
        let gaps: Vec<(usize, usize)> =
            starts.iter().skip(1).map(|&start| (start.saturating_sub(gap), start)).collect();
        let Some(found) = self.scan_checked(&joined, &gaps) else {
            return parts.iter().map(|p| self.scan_view(p)).collect();
        };
        let mut out: Vec<Vec<Finding>> = vec![Vec::new(); parts.len()];
        for f in found {
            // The part a finding is in: the last one starting at or before it.
            let at = starts.partition_point(|&s| s <= f.start).saturating_sub(1);
            let (Some(&base), Some(list)) = (starts.get(at), out.get_mut(at)) else { continue };
            list.push(Finding { start: f.start - base, end: f.end - base, ..f });
        }
        out
    }

    /// [`Engine::scan`], or `None` if a candidate touches one of the `gaps` (byte
    /// ranges between joined parts, see [`Engine::scan_parts`]).
    fn scan_checked(&self, text: &[u8], gaps: &[(usize, usize)]) -> Option<Vec<Finding>> {
        let mut candidates = Vec::new();
        let prepared = Text::new(text);
        let found = self.find_starts(&prepared);
        let mut answers = prefilter::Answers::new(&self.groups);
        let mut hits_by_word: Option<(Vec<u32>, Vec<usize>)> = None;
        let mut near: Vec<usize> = Vec::new();
        let mut visit = self.visits.rules(&found);
        // Each finder's windows, by its list index; the rules of the finders that
        // found none are taken out of the visit.
        let windows = self.visits.find_windows(&prepared, &mut visit);
        // Most runs are a number or two (`200`, `10:00`): only those with as many
        // digits as some rule needs are visited by each rule, and without one no rule
        // gated by runs is visited at all.
        let long_runs: Vec<usize> = match self.visits.any_numeric() {
            true => (prepared.numeric_runs().iter().enumerate())
                .filter(|(_, r)| r.digits >= self.numeric_min_digits)
                .map(|(i, _)| i)
                .collect(),
            false => Vec::new(),
        };
        if long_runs.is_empty() {
            self.visits.drop_numeric(&mut visit);
        }
        // (A rule that cannot reach the threshold is in no visit: `Visits::new`.)
        for index in visit::each(visit) {
            let Some(rule) = self.rules.get(index) else { continue };
            let from = candidates.len();
            match &rule.gate {
                CompiledGate::Always => rule.search(index, text, 0, &mut candidates),
                CompiledGate::AfterCountryCode { span } => {
                    for run in prepared.numeric_runs() {
                        // The run starts at its first digit or just before it.
                        let digit = (run.start..run.end).find(|&i| text.get(i).is_some_and(u8::is_ascii_digit));
                        let Some(d) = digit else { continue };
                        // Right before it, or a space before it (`PL 61 1090 …`); at a
                        // word's start, as the pattern's `\b` wants it (not `INFO 2026`).
                        let code = |at: usize| {
                            text.get(at..at + 2).is_some_and(|c| c.iter().all(u8::is_ascii_uppercase))
                                && (at == 0
                                    || text.get(at - 1).is_some_and(|&b| !(b.is_ascii_alphanumeric() || b == b'_')))
                        };
                        let country = if d >= 2 && code(d - 2) {
                            Some(d - 2)
                        } else if d >= 3 && text.get(d - 1) == Some(&b' ') && code(d - 3) {
                            Some(d - 3)
                        } else {
                            None
                        };
                        if let Some(from) = country {
                            let hay = text.get(..(d + span).min(text.len())).unwrap_or(text);
                            rule.search(index, hay, from, &mut candidates);
                        }
                    }
                }
                CompiledGate::Test(test) => {
                    if test(&prepared) {
                        rule.search(index, text, 0, &mut candidates);
                    }
                }
                CompiledGate::Word(slot) => {
                    if found.first(*slot).is_some() {
                        rule.search(index, text, 0, &mut candidates);
                    }
                }
                CompiledGate::Prefix(slot) => {
                    if let Some(first) = found.first(*slot) {
                        rule.search(index, text, first, &mut candidates);
                    }
                }
                CompiledGate::Contains(needle) => {
                    // At the mask of a punctuation byte of the needle, if it has one.
                    if prepared.contains(needle) {
                        rule.search(index, text, 0, &mut candidates);
                    }
                }
                CompiledGate::NumericRun { min_digits, min_dashes, min_dots, plus } => {
                    let runs = prepared.numeric_runs();
                    for (at, run) in long_runs.iter().filter_map(|&at| Some((at, runs.get(at)?))) {
                        if run.digits >= *min_digits
                            && run.dashes >= *min_dashes
                            && run.dots >= *min_dots
                            && (run.plus || !plus)
                        {
                            // One byte of context on each side, for `\b` and the
                            // look-behind-style prefix groups; no match can include it.
                            let window = (run.start.saturating_sub(1), (run.end + 1).min(text.len()));
                            if answers.allows(rule.slot, text, runs.len(), at, window) {
                                rule.search(index, text.get(..window.1).unwrap_or(text), window.0, &mut candidates);
                            }
                        }
                    }
                }
                CompiledGate::Windows { list, .. } => {
                    // Rules that share a finder share its windows: found once per scan.
                    let found = windows.get(*list).map_or(&[][..], Vec::as_slice);
                    if found.is_empty() {
                        // Most finders find nothing in most texts: no group's answer
                        // to ask for (it would allocate its matches first).
                        continue;
                    }
                    // Without a group's answer (a rule alone on its finder), every window.
                    match rule.slot.and_then(|slot| answers.windows_for(slot, text, found)) {
                        Some(mine) => {
                            for &i in mine {
                                if let Some(&(s, e)) = found.get(i as usize) {
                                    rule.search(index, text.get(..e).unwrap_or(text), s, &mut candidates);
                                }
                            }
                        }
                        None => {
                            for &(s, e) in found {
                                rule.search(index, text.get(..e).unwrap_or(text), s, &mut candidates);
                            }
                        }
                    }
                }
                CompiledGate::Near { words, span, keep } => {
                    let (heads, by_word) = hits_by_word.get_or_insert_with(|| starts::by_word(&found.hits));
                    // This rule's keyword positions, in order. Its keyword ids are
                    // sorted: past the last id with a head, none was hit.
                    near.clear();
                    for &w in words {
                        let (Some(&from), Some(&to)) = (heads.get(w), heads.get(w + 1)) else { break };
                        near.extend_from_slice(by_word.get(from as usize..to as usize).unwrap_or_default());
                    }
                    if words.len() > 1 {
                        near.sort_unstable();
                    }
                    // Windows around them, merged so that no byte is searched twice
                    // (and no match reported twice).
                    // A keyword inside the last window is in its host name too: skipped,
                    // so a long name full of keywords is walked once.
                    let mut window: Option<(usize, usize)> = None;
                    for &start in near.iter().filter(|&&start| keep.keeps(text, start)) {
                        if *span == Span::HostName && window.is_some_and(|(_, we)| start < we) {
                            continue;
                        }
                        let (s, e) = span.window(text, start);
                        match window {
                            Some((ws, we)) if s <= we => window = Some((ws, we.max(e))),
                            Some((ws, we)) => {
                                rule.search_window(index, text, (ws, we), &mut candidates);
                                window = Some((s, e));
                            }
                            None => window = Some((s, e)),
                        }
                    }
                    if let Some(found) = window {
                        rule.search_window(index, text, found, &mut candidates);
                    }
                }
                CompiledGate::Dictionary => match rule.matcher {
                    Matcher::Names => {
                        if let Some(names) = &self.names {
                            names.find(&prepared, index, rule.confidence, &mut candidates);
                        }
                    }
                    Matcher::Words(d) => {
                        if let Some(automaton) = self.dictionaries.get(d) {
                            find_words(automaton, text, index, rule.confidence, &mut candidates);
                        }
                    }
                    Matcher::Regex(_) | Matcher::Code(_) | Matcher::Cards | Matcher::Model => {}
                },
            }
            if let Some(context) = &rule.context {
                for cand in candidates.get_mut(from..).unwrap_or_default() {
                    cand.confidence = adjust(text, cand.start, cand.confidence, context);
                }
            }
        }
        let crosses = |c: &Finding| gaps.iter().any(|&(s, e)| c.start < e && s < c.end);
        if !gaps.is_empty() && candidates.iter().any(crosses) {
            return None;
        }
        candidates.retain(|c| c.confidence >= self.min_confidence);
        Some(resolve_overlaps(candidates))
    }

    /// Replaces every finding in `text` with `replacement(rule)`, and every other
    /// occurrence of a found value too (a name found once by its context is replaced
    /// wherever it appears), so the output contains no detected value of 4+ bytes.
    pub fn anonymize(&self, text: &[u8], mut replacement: impl FnMut(&Rule, &[u8]) -> Vec<u8>) -> Vec<u8> {
        let findings = self.scan(text);
        let mut values: Vec<&[u8]> = Vec::new();
        let mut rule_of: Vec<usize> = Vec::new();
        for f in &findings {
            let Some(v) = text.get(f.start..f.end) else { continue };
            if v.len() >= 4 && !values.contains(&v) {
                values.push(v);
                rule_of.push(f.rule);
            }
        }
        let mut spans: Vec<(usize, usize, usize)> = findings.iter().map(|f| (f.start, f.end, f.rule)).collect();
        if !values.is_empty() {
            if let Ok(automaton) = AhoCorasickBuilder::new().match_kind(MatchKind::LeftmostLongest).build(&values) {
                for m in automaton.find_iter(text) {
                    let overlaps = findings.iter().any(|f| f.start < m.end() && m.start() < f.end);
                    if let (false, Some(&rule)) = (overlaps, rule_of.get(m.pattern().as_usize())) {
                        spans.push((m.start(), m.end(), rule));
                    }
                }
            }
        }
        spans.sort_unstable();
        let mut out = Vec::with_capacity(text.len());
        let mut at = 0;
        for (start, end, rule) in spans {
            let (Some(rule), Some(kept), Some(value)) = (self.rule(rule), text.get(at..start), text.get(start..end))
            else {
                continue;
            };
            out.extend_from_slice(kept);
            out.extend_from_slice(&replacement(rule, value));
            at = end;
        }
        out.extend_from_slice(text.get(at..).unwrap_or_default());
        out
    }

    /// Keyword occurrences and first prefix positions, in one pass.
    fn find_starts(&self, text: &Text<'_>) -> starts::Found {
        self.starts.as_ref().map(|s| s.find(text)).unwrap_or_default()
    }
}

/// A letter or digit, counting every byte of a multi-byte UTF-8 character as one.
fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b >= 0x80
}

fn word_boundary(text: &[u8], start: usize, end: usize) -> bool {
    let left = start == 0 || !text.get(start - 1).copied().is_some_and(is_word_byte);
    let right = !text.get(end).copied().is_some_and(is_word_byte);
    left && right
}

/// A [`Context`] with its word lists as sets.
#[derive(Debug)]
struct CompiledContext {
    context: &'static Context,
    /// Each word of both lists: [`TOWARDS`], [`AGAINST`] or both. One lookup a word.
    words: wordset::WordMap<u8>,
}

/// A word of a context's `words`…
const TOWARDS: u8 = 1;
/// …and of its `against`.
const AGAINST: u8 = 2;

/// `context` compiled, shared with the rules compiled before that use it.
fn compiled_context(
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
const CONTEXT_REACH: usize = 64;

/// A confidence moved by the context words in the `window` bytes before `start`.
fn adjust(text: &[u8], start: usize, confidence: f32, compiled: &CompiledContext) -> f32 {
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
fn find_words(automaton: &AhoCorasick, text: &[u8], rule: usize, confidence: f32, out: &mut Vec<Finding>) {
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
    fn search_window(&self, index: usize, text: &[u8], (ws, we): (usize, usize), out: &mut Vec<Finding>) {
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
    fn search(&self, index: usize, hay: &[u8], from: usize, out: &mut Vec<Finding>) {
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
                Matcher::Cards => rules::next_card(hay, at).map(|(start, end)| (start, end, end)),
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
fn placeholder(value: &[u8]) -> bool {
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
const REFUSED_IN_A_ROW: usize = 8;

/// Does the text at `end` continue a word or host name?
fn runs_on(hay: &[u8], end: usize) -> bool {
    let word = |b: Option<&u8>| b.is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    word(hay.get(end)) || (hay.get(end) == Some(&b'.') && word(hay.get(end + 1)))
}

#[cfg(test)]
mod tests;
