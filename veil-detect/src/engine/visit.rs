//! Which rules a scan visits.
//!
//! Most rules are gated by a prefix (`ghp_`, `AKIA`) or by keywords (`passport`,
//! `IBAN`), and the start index finds every prefix and keyword of a text in one pass
//! ([`crate::engine::starts`]). A rule whose prefix or keywords are absent has nothing to do;
//! with hundreds of such rules, merely visiting each to find that out cost more than
//! the search itself on a short text. So a scan visits the rules of the prefixes and
//! keywords that were found, and the rules with other gates, in rule order.

use crate::engine::compiled::CompiledGate;
use crate::engine::compiled::Rule;
use crate::engine::starts::Found;
use crate::engine::text::Text;
use crate::rule::WindowFinder;

/// The rules behind each prefix slot and keyword, and the rest.
#[derive(Debug, Clone, Default)]
pub(crate) struct Visits {
    /// Rules gated otherwise than by a prefix or keywords, visited on every scan: one
    /// bit per rule, 64 rules a word.
    always: Vec<u64>,
    /// For each prefix slot, its rule (`usize::MAX` for a slot without one).
    by_slot: Vec<usize>,
    /// For each keyword id, the rules near it.
    by_word: Vec<Vec<usize>>,
    /// For each window finder (by its list index, [`CompiledGate::Windows`]), the
    /// function and its rules (all of them in `always`); a finder whose rules are all
    /// below the threshold has none (and is never run).
    finders: Vec<(WindowFinder, Vec<usize>)>,
    /// The rules gated by numeric runs (all of them in `always`): a text without a
    /// run long enough for any of them visits none.
    numeric: Vec<usize>,
}

/// The windows each finder found in one text, by list index (empty for a finder that
/// found none or was not run).
pub(crate) type Windows = Vec<Vec<(usize, usize)>>;

impl Visits {
    /// The visits of `rules`; a rule that can never reach `min_confidence` (its
    /// confidence with every boost) is visited never.
    pub fn new(rules: &[Rule], min_confidence: f32) -> Visits {
        let words = rules.len().div_ceil(64);
        let mut visits = Visits { always: vec![0; words], ..Visits::default() };
        for (index, rule) in rules.iter().enumerate() {
            if rule.best() < min_confidence {
                continue;
            }
            match &rule.gate {
                CompiledGate::Prefix(slot) | CompiledGate::Word(slot) => {
                    if visits.by_slot.len() <= *slot {
                        visits.by_slot.resize(slot + 1, usize::MAX);
                    }
                    if let Some(at) = visits.by_slot.get_mut(*slot) {
                        *at = index;
                    }
                }
                CompiledGate::Near { words, .. } => {
                    for &word in words {
                        if visits.by_word.len() <= word {
                            visits.by_word.resize(word + 1, Vec::new());
                        }
                        if let Some(list) = visits.by_word.get_mut(word) {
                            list.push(index);
                        }
                    }
                }
                gate => {
                    if let CompiledGate::NumericRun { .. } = gate {
                        visits.numeric.push(index);
                    }
                    if let CompiledGate::Windows { finder, list } = gate {
                        while visits.finders.len() <= *list {
                            visits.finders.push((*finder, Vec::new()));
                        }
                        // (An entry made above for a lower list is a placeholder until
                        // its first rule comes: every rule of a list has its finder.)
                        if let Some((its_finder, its)) = visits.finders.get_mut(*list) {
                            *its_finder = *finder;
                            its.push(index);
                        }
                    }
                    set(&mut visits.always, index);
                }
            }
        }
        visits
    }

    /// The rules to visit for what the start index `found`, as a set of bits (a copy
    /// of the rules always visited, and one bit set per prefix and keyword found).
    pub fn rules(&self, found: &Found) -> Vec<u64> {
        let mut visit = self.always.clone();
        for &(slot, _) in &found.firsts {
            if let Some(&rule) = self.by_slot.get(slot) {
                set(&mut visit, rule);
            }
        }
        for hit in &found.hits {
            for &rule in self.by_word.get(hit.word).map(Vec::as_slice).unwrap_or_default() {
                set(&mut visit, rule);
            }
        }
        visit
    }

    /// Runs each window finder once (their rules are visited on every scan) and takes
    /// out of `visit` the rules of the finders that found nothing: most finders find
    /// nothing in most texts, and a short text's scan was mostly visits to their rules.
    pub fn find_windows(&self, text: &Text<'_>, visit: &mut [u64]) -> Windows {
        let mut windows = vec![Vec::new(); self.finders.len()];
        for ((finder, rules), found) in self.finders.iter().zip(windows.iter_mut()) {
            if rules.is_empty() {
                continue; // every rule of this finder is below the threshold
            }
            // Not even run where the text lacks what the finder needs (most finders
            // want a digit or a non-ASCII character): a call that finds nothing still
            // cost more than the rest of a short text's scan.
            if text.holds(finder.needs) {
                *found = (finder.find)(text);
            }
            if found.is_empty() {
                unset(visit, rules);
            }
        }
        windows
    }

    /// Whether any rule is gated by numeric runs (a policy may disable them all: then
    /// the runs are not found).
    pub fn any_numeric(&self) -> bool {
        !self.numeric.is_empty()
    }

    /// Takes the rules gated by numeric runs out of `visit`: for a text without a run
    /// that any of them needs (most texts), visiting each only to find that out loaded
    /// fifteen rules for nothing.
    pub fn drop_numeric(&self, visit: &mut [u64]) {
        unset(visit, &self.numeric);
    }
}

/// Clears the bits of `rules`.
fn unset(visit: &mut [u64], rules: &[usize]) {
    for &index in rules {
        if let Some(word) = visit.get_mut(index / 64) {
            *word &= !(1 << (index % 64));
        }
    }
}

/// The rules of a set of bits, in rule order. No sort: this runs on every scan,
/// however short.
pub(crate) fn each(visit: Vec<u64>) -> impl Iterator<Item = usize> {
    visit.into_iter().enumerate().flat_map(|(word, mut bits)| {
        std::iter::from_fn(move || {
            (bits != 0).then(|| {
                let at = word * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                at
            })
        })
    })
}

/// Sets rule `index`'s bit; a slot without a rule (`usize::MAX`, none in a built
/// engine) sets none.
fn set(bits: &mut [u64], index: usize) {
    if let Some(word) = bits.get_mut(index / 64) {
        *word |= 1 << (index % 64);
    }
}

#[cfg(test)]
mod tests {
    use super::Visits;
    use crate::config::DetectorsConfig;
    use crate::engine::compiled::CompiledGate;
    use crate::engine::Engine;

    /// Each finder runs its own rules' function, whatever the threshold leaves out:
    /// with a high one, a list's first rules may be skipped while a later list's are
    /// kept (an entry made for a lower list is then a placeholder until its rules
    /// come). The visits are built again from one engine's rules at every threshold
    /// that changes which of them are kept.
    #[test]
    fn each_finder_runs_its_rules_function() {
        let Ok(engine) = Engine::new(&DetectorsConfig::default()) else { panic!("the engine builds") };
        let windowed = |r: &&crate::engine::compiled::Rule| matches!(r.gate, CompiledGate::Windows { .. });
        let mut thresholds: Vec<f32> = engine.rules.iter().filter(windowed).map(|r| r.best() + 0.001).collect();
        thresholds.sort_by(f32::total_cmp);
        thresholds.dedup();
        for threshold in std::iter::once(0.0).chain(thresholds) {
            let visits = Visits::new(&engine.rules, threshold);
            for (finder, rules) in &visits.finders {
                for &index in rules {
                    let Some(CompiledGate::Windows { finder: its, .. }) = engine.rules.get(index).map(|r| &r.gate)
                    else {
                        panic!("rule {index} has no window finder");
                    };
                    assert!(std::ptr::fn_addr_eq(its.find, finder.find), "rule {index} at {threshold}");
                }
            }
            let kept = visits.finders.iter().map(|(_, rules)| rules.len()).sum::<usize>();
            let above = engine.rules.iter().filter(windowed).filter(|r| r.best() >= threshold).count();
            assert_eq!(kept, above, "at {threshold}");
        }
    }
}
