//! One pass per window for every rule that shares the window's gate.
//!
//! Rules gated by the same window finder (a `Gate::Windows` function, or the numeric
//! runs) search the same windows, and most windows hold no match of most of them: a
//! UUID, a digest or a timestamp is an identifier-like run for the national-ID rules
//! and a match for none. Searching each rule's regex in each window costs one regex
//! call per rule and window. Here the group's patterns are compiled once more as one
//! multi-pattern automaton (overlapping semantics, no captures); one pass over a window
//! says which of them match in it at all, and a rule searches only the windows where
//! its pattern does. The answer is exact — a pattern that matches nowhere in a window
//! gives no candidate there — so findings do not change (`prefilter_changes_nothing`).

use regex_automata::meta::{self, Regex};
use regex_automata::util::syntax;
use regex_automata::{Input, MatchKind, PatternID, PatternSet};

/// The most patterns in one group: its matches are one `u64` per window.
const MAX_MEMBERS: usize = 64;

/// The fewest: fewer rules search their windows alone.
const MIN_MEMBERS: usize = 3;

/// The patterns of one group of rules.
#[derive(Debug, Clone)]
pub(crate) struct Group {
    set: Regex,
}

/// Where a rule sits in a group: the group's index and the rule's bit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Slot {
    pub group: usize,
    pub bit: u32,
}

impl Group {
    /// The group of `patterns` (at most [`MAX_MEMBERS`]; each already compiled alone,
    /// with the same syntax: bytes, Unicode off unless a pattern turns it on).
    pub fn new(patterns: &[&str]) -> Option<Group> {
        if patterns.is_empty() || patterns.len() > MAX_MEMBERS {
            return None;
        }
        let set = meta::Builder::new()
            .configure(
                meta::Config::new()
                    .match_kind(MatchKind::All)
                    .utf8_empty(false)
                    .which_captures(regex_automata::nfa::thompson::WhichCaptures::None),
            )
            .syntax(syntax::Config::new().unicode(false).utf8(false))
            .build_many(patterns)
            .ok()?;
        Some(Group { set })
    }

    /// The bits of the patterns that match somewhere in `text[start..end]` (with the
    /// bytes around it as context for look-arounds).
    /// `found` may hold more slots than the group has patterns: only the group's are
    /// read, and it is cleared only when a pass left something in it (most windows
    /// match nothing).
    pub fn mask(&self, text: &[u8], (start, end): (usize, usize), found: &mut PatternSet) -> u64 {
        if !found.is_empty() {
            found.clear();
        }
        let hay = text.get(..end).unwrap_or(text);
        let input = Input::new(hay).span(start.min(hay.len())..hay.len());
        self.set.which_overlapping_matches(&input, found);
        if found.is_empty() {
            return 0;
        }
        (0..self.set.pattern_len())
            .filter(|&p| PatternID::new(p).is_ok_and(|id| found.contains(id)))
            .fold(0u64, |mask, p| mask | 1u64 << p)
    }
}

/// The groups' answers for one scan, computed on first use: for each group and window
/// (by its index in the list the group's rules share), whether a rule may match there.
pub(crate) struct Answers<'g> {
    groups: &'g [Group],
    /// The matches of one window's pass, for every group (none has more than
    /// [`MAX_MEMBERS`] patterns): allocated at the first pass of the scan.
    found: Option<PatternSet>,
    /// The masks of every window of one group, while [`Answers::windows_for`] sorts them.
    masks: Vec<u64>,
    per_group: Vec<Option<Vec<Option<u64>>>>,
    /// For the groups asked by [`Answers::windows_for`]: for each rule's bit, the
    /// windows where it may match.
    per_rule: Vec<Option<ByRule>>,
}

/// Window indexes by rule bit: those of bit `b` are `windows[starts[b]..starts[b + 1]]`.
struct ByRule {
    starts: [u32; MAX_MEMBERS + 1],
    windows: Vec<u32>,
}

impl<'g> Answers<'g> {
    /// No answer yet; the lists of answers are allocated when a group is first asked
    /// (most scans of short texts ask none).
    pub fn new(groups: &'g [Group]) -> Answers<'g> {
        Answers { groups, found: None, masks: Vec::new(), per_group: Vec::new(), per_rule: Vec::new() }
    }

    /// `list`, grown to one entry per group.
    fn sized<T>(groups: usize, list: &mut Vec<Option<T>>) -> &mut Vec<Option<T>> {
        if list.len() < groups {
            list.resize_with(groups, || None);
        }
        list
    }

    /// The indexes, in order, of the `windows` (the list that every rule of the group
    /// in `slot` shares) in which that rule may match: the group's pass runs once over
    /// every window, at its first rule, and each rule then visits its own windows only
    /// (most visit none), not every window to ask. `None` if the slot names no group
    /// (the engine builds none such): then the rule searches every window.
    pub fn windows_for(&mut self, slot: Slot, text: &[u8], windows: &[(usize, usize)]) -> Option<&[u32]> {
        let per_rule = Self::sized(self.groups.len(), &mut self.per_rule);
        let (Some(group), Some(entry)) = (self.groups.get(slot.group), per_rule.get_mut(slot.group)) else {
            return None;
        };
        let by_rule = entry.get_or_insert_with(|| {
            let found = self.found.get_or_insert_with(|| PatternSet::new(MAX_MEMBERS));
            let masks = &mut self.masks;
            masks.clear();
            masks.extend(windows.iter().map(|&w| group.mask(text, w, found)));
            // A counting sort of (bit, window): each bit's count, then where its
            // windows end; filled from the last window back, each bit's entry ends at
            // where its windows begin, and they are in order.
            let mut starts = [0u32; MAX_MEMBERS + 1];
            for mask in masks.iter() {
                let mut m = *mask;
                while m != 0 {
                    if let Some(c) = starts.get_mut(m.trailing_zeros() as usize) {
                        *c += 1;
                    }
                    m &= m - 1;
                }
            }
            let mut total = 0;
            for c in &mut starts {
                total += *c;
                *c = total;
            }
            let mut by_window = vec![0u32; total as usize];
            for (i, mask) in masks.iter().enumerate().rev() {
                let mut m = *mask;
                while m != 0 {
                    if let Some(at) = starts.get_mut(m.trailing_zeros() as usize) {
                        *at -= 1;
                        if let Some(cell) = by_window.get_mut(*at as usize) {
                            *cell = i as u32;
                        }
                    }
                    m &= m - 1;
                }
            }
            ByRule { starts, windows: by_window }
        });
        let bit = slot.bit as usize;
        let (from, to) = (*by_rule.starts.get(bit)?, *by_rule.starts.get(bit + 1)?);
        by_rule.windows.get(from as usize..to as usize)
    }

    /// Whether the rule in `slot` can match in `window`, the `index`th of `count`
    /// windows of its group in `text`. Without a slot, it may.
    pub fn allows(
        &mut self,
        slot: Option<Slot>,
        text: &[u8],
        count: usize,
        index: usize,
        window: (usize, usize),
    ) -> bool {
        let Some(slot) = slot else { return true };
        let per_group = Self::sized(self.groups.len(), &mut self.per_group);
        let (Some(group), Some(entry)) = (self.groups.get(slot.group), per_group.get_mut(slot.group)) else {
            return true;
        };
        let masks = entry.get_or_insert_with(|| vec![None; count]);
        let Some(cell) = masks.get_mut(index) else { return true };
        let found = &mut self.found;
        let mask = *cell
            .get_or_insert_with(|| group.mask(text, window, found.get_or_insert_with(|| PatternSet::new(MAX_MEMBERS))));
        mask & (1u64 << slot.bit) != 0
    }
}

/// Groups `members` (rule index and pattern, in rule order) into groups of at most
/// [`MAX_MEMBERS`], pushes them onto `groups`, and returns each member's slot.
pub(crate) fn build(groups: &mut Vec<Group>, members: &[(usize, &str)]) -> Vec<(usize, Slot)> {
    let mut slots = Vec::new();
    for chunk in members.chunks(MAX_MEMBERS) {
        // A group of one is its own regex: no pass to save. Nor for two: a pass over
        // their union cost more than the search it saves (the scheme windows' two
        // rules, 2.2 → 0.7 µs natively for the connection string in 16 KiB of chat
        // with a value per KiB; BENCHMARKS.md §2, session 21).
        if chunk.len() < MIN_MEMBERS {
            continue;
        }
        let patterns: Vec<&str> = chunk.iter().map(|&(_, p)| p).collect();
        let Some(group) = Group::new(&patterns) else { continue };
        groups.push(group);
        let index = groups.len() - 1;
        for (bit, &(rule, _)) in chunk.iter().enumerate() {
            slots.push((rule, Slot { group: index, bit: bit as u32 }));
        }
    }
    slots
}

/// A test a window must pass before a pattern is searched in it: the window is as long
/// as the pattern's shortest match, and for a long match of a narrow set of bytes (an
/// AWS secret's 40 base64 characters, looked for after every `aws` of a Terraform
/// file) it holds a run of the pattern's bytes that long. Every byte of a match is a
/// byte one of the pattern's literals or classes names (look-arounds consume none),
/// and a match lies inside the window, so a window that fails holds no match and the
/// regex call is saved. Exact, like the groups: findings do not change.
#[derive(Debug, Clone)]
pub(crate) struct RunNeed {
    /// One bit per byte value.
    bytes: [u64; 4],
    pub(crate) min: usize,
    /// Whether the run is looked for: else only the window's length is compared with
    /// the shortest match's (a short window around a keyword may be shorter).
    pub(crate) narrow: bool,
}

/// The shortest match worth a test: a shorter one would pass in most windows.
const RUN_NEED_MIN: usize = 12;

/// The most byte values in a set worth a test (a class of letters, digits and a few
/// symbols has about 64).
const RUN_NEED_MAX_SET: u32 = 100;

impl RunNeed {
    /// The test for `pattern` as the engine compiles it (bytes, Unicode off unless the
    /// pattern turns it on); `None` if it would not tell (a pattern that matches the
    /// empty string, or does not parse).
    pub fn of(pattern: &str) -> Option<RunNeed> {
        let hir = regex_syntax::ParserBuilder::new().unicode(false).utf8(false).build().parse(pattern).ok()?;
        let min = hir.properties().minimum_len()?;
        let mut bytes = [0u64; 4];
        add_bytes(&hir, &mut bytes);
        let count: u32 = bytes.iter().map(|w| w.count_ones()).sum();
        let narrow = min >= RUN_NEED_MIN && count <= RUN_NEED_MAX_SET;
        (min > 0).then_some(RunNeed { bytes, min, narrow })
    }

    pub(crate) fn has(&self, b: u8) -> bool {
        self.bytes.get(usize::from(b >> 6)).is_some_and(|w| (w >> (b & 63)) & 1 == 1)
    }

    /// Whether `window` holds the pattern's bytes as many in a row as its shortest match.
    pub fn passes(&self, window: &[u8]) -> bool {
        if !self.narrow || window.len() < self.min {
            return window.len() >= self.min;
        }
        let mut run = 0;
        for &b in window {
            run = if self.has(b) { run + 1 } else { 0 };
            if run >= self.min {
                return true;
            }
        }
        false
    }
}

/// Sets the bit of every byte a match of `hir` may hold: a literal's bytes, a class's
/// (for a Unicode class, its ASCII characters and every byte of `0x80` and up).
fn add_bytes(hir: &regex_syntax::hir::Hir, bytes: &mut [u64; 4]) {
    use regex_syntax::hir::{Class, HirKind};
    let mut set = |b: u8| {
        if let Some(w) = bytes.get_mut(usize::from(b >> 6)) {
            *w |= 1 << (b & 63);
        }
    };
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => {}
        HirKind::Literal(literal) => literal.0.iter().for_each(|&b| set(b)),
        HirKind::Class(Class::Bytes(class)) => {
            class.ranges().iter().for_each(|r| (r.start()..=r.end()).for_each(&mut set));
        }
        HirKind::Class(Class::Unicode(class)) => {
            for r in class.ranges() {
                let (lo, hi) = (u32::from(r.start()), u32::from(r.end()));
                (lo.min(0x80)..hi.saturating_add(1).min(0x80)).for_each(|c| set(c as u8));
                if hi >= 0x80 {
                    (0x80..=0xFF).for_each(&mut set);
                }
            }
        }
        HirKind::Repetition(r) => add_bytes(&r.sub, bytes),
        HirKind::Capture(c) => add_bytes(&c.sub, bytes),
        HirKind::Concat(all) | HirKind::Alternation(all) => all.iter().for_each(|h| add_bytes(h, bytes)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_say_which_patterns_match_in_each_window() {
        let group = Group::new(&[r"\b\d{3}\b", r"[A-Z]{2}\d", r"(?i)key"]).unwrap_or_else(|| unreachable!());
        let text = b"abc 123 AB1 xKEYx 1234";
        let mut found = PatternSet::new(MAX_MEMBERS);
        let masks: Vec<u64> =
            [(0, 7), (8, 11), (12, 17), (18, 22), (4, 6)].iter().map(|&w| group.mask(text, w, &mut found)).collect();
        assert_eq!(masks, vec![0b001, 0b010, 0b100, 0, 0]);
    }

    #[test]
    fn each_rule_gets_the_windows_its_pattern_matches_in() {
        let group = Group::new(&[r"\b\d{3}\b", r"[A-Z]{2}\d", r"(?i)key"]).unwrap_or_else(|| unreachable!());
        let text = b"abc 123 AB1 xKEYx 1234 999";
        // The last window holds two patterns' matches.
        let windows = [(0, 7), (8, 11), (12, 17), (18, 22), (4, 6), (23, 26), (4, 11)];
        let mut answers = Answers::new(std::slice::from_ref(&group));
        let of = |answers: &mut Answers<'_>, bit| {
            answers.windows_for(Slot { group: 0, bit }, text, &windows).map(<[u32]>::to_vec)
        };
        assert_eq!(of(&mut answers, 0), Some(vec![0, 5, 6]));
        assert_eq!(of(&mut answers, 1), Some(vec![1, 6]));
        assert_eq!(of(&mut answers, 2), Some(vec![2]));
        assert_eq!(of(&mut answers, 3), Some(vec![]), "a bit no pattern has");
        assert_eq!(answers.windows_for(Slot { group: 1, bit: 0 }, text, &windows), None, "no such group: every window");
    }

    #[test]
    fn look_arounds_see_the_bytes_around_the_window() {
        let group = Group::new(&[r"\b\d{3}\b", r"\d{4}"]).unwrap_or_else(|| unreachable!());
        // `123` inside `x1234`: the window starts at `1`, but a word byte precedes it.
        let mut found = PatternSet::new(MAX_MEMBERS);
        assert_eq!(group.mask(b"x1234", (1, 4), &mut found), 0);
        assert_eq!(group.mask(b" 123 ", (1, 4), &mut found), 0b01);
    }

    #[test]
    fn groups_hold_at_most_64_and_at_least_3() {
        let patterns: Vec<String> = (0..130).map(|i| format!("a{i}b")).collect();
        let members: Vec<(usize, &str)> = patterns.iter().enumerate().map(|(i, p)| (i, p.as_str())).collect();
        let mut groups = Vec::new();
        let slots = build(&mut groups, &members);
        // 64 + 64 + the last two, which keep their own regexes.
        assert_eq!(groups.len(), 2);
        assert_eq!(slots.len(), 128);
        assert_eq!(slots.get(64), Some(&(64, Slot { group: 1, bit: 0 })));
        let three: Vec<(usize, &str)> = members.iter().take(3).copied().collect();
        assert_eq!(build(&mut groups, &three).len(), 3, "three share one pass");
    }
}
