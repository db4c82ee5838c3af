//! A scan: the engine's rules over a text's normalized view, parts joined or one by one,
//! findings remembered per conversation.

use aho_corasick::{AhoCorasickBuilder, MatchKind};

use super::compiled::{adjust, find_words, CompiledGate, Matcher, Rule, Span};
use super::memo::{self, MEMO_MIN_LEN};
use super::text::Text;
use super::{normalize, prefilter, starts, visit, Engine};
use crate::finding::{resolve_overlaps, Finding};

/// The most bytes [`Engine::scan_parts`] joins into one text (parts and gaps).
pub(crate) const JOINED_MAX: usize = 1 << 20;

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
    pub(crate) fn with_boundaries(&self, text: &[u8], view: &normalize::View<'_>, found: Vec<Finding>) -> Vec<Finding> {
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
    pub(crate) fn scan_view(&self, text: &[u8]) -> Vec<Finding> {
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
    pub(crate) fn scan_views(&self, parts: &[&[u8]]) -> Vec<Vec<Finding>> {
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
    pub(crate) fn scan_joined(&self, parts: &[&[u8]], gap: usize) -> Vec<Vec<Finding>> {
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
    pub(crate) fn scan_checked(&self, text: &[u8], gaps: &[(usize, usize)]) -> Option<Vec<Finding>> {
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
    pub(crate) fn find_starts(&self, text: &Text<'_>) -> starts::Found {
        self.starts.as_ref().map(|s| s.find(text)).unwrap_or_default()
    }
}
