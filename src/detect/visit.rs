//! Which rules a scan visits.
//!
//! Most rules are gated by a prefix (`ghp_`, `AKIA`) or by keywords (`passport`,
//! `IBAN`), and the start index finds every prefix and keyword of a text in one pass
//! ([`super::starts`]). A rule whose prefix or keywords are absent has nothing to do;
//! with hundreds of such rules, merely visiting each to find that out cost more than
//! the search itself on a short text. So a scan visits the rules of the prefixes and
//! keywords that were found, and the rules with other gates, in rule order.

use super::starts::Found;
use super::{CompiledGate, Rule};

/// The rules behind each prefix slot and keyword, and the rest.
#[derive(Debug, Clone, Default)]
pub(crate) struct Visits {
    /// Rules gated otherwise than by a prefix or keywords: visited on every scan.
    always: Vec<usize>,
    /// For each prefix slot, its rule.
    by_slot: Vec<usize>,
    /// For each keyword id, the rules near it.
    by_word: Vec<Vec<usize>>,
}

impl Visits {
    pub fn new(rules: &[Rule]) -> Visits {
        let mut visits = Visits::default();
        for (index, rule) in rules.iter().enumerate() {
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
                _ => visits.always.push(index),
            }
        }
        visits
    }

    /// The rules to visit for what the start index `found`, in rule order.
    pub fn rules(&self, found: &Found) -> Vec<usize> {
        let mut visit = self.always.clone();
        for (slot, first) in found.first.iter().enumerate() {
            if let (Some(_), Some(&rule)) = (first, self.by_slot.get(slot)) {
                visit.push(rule);
            }
        }
        for hit in &found.hits {
            visit.extend_from_slice(self.by_word.get(hit.word).map(Vec::as_slice).unwrap_or_default());
        }
        visit.sort_unstable();
        visit.dedup();
        // A slot without a rule (none in a built engine) holds `usize::MAX`.
        visit.retain(|&r| r != usize::MAX);
        visit
    }
}
