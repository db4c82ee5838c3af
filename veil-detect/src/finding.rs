//! What a scan reports: a finding's offsets, rule and confidence, where its rule comes
//! from, and how overlapping candidates become non-overlapping findings.

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
pub fn resolve_overlaps(mut candidates: Vec<Finding>) -> Vec<Finding> {
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
pub(crate) mod spans {
    /// The bits of word `w` that lie in `start..end`.
    pub(crate) fn mask(w: usize, start: usize, end: usize) -> u64 {
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
