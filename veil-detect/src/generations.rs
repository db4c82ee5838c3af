//! A bounded map that keeps what is still asked for: two generations.
//!
//! New entries go into the young generation. When it is full (by entries or by
//! weight), it becomes the old one and the old one is dropped. An entry asked for
//! again moves from the old generation back to the young one, so what keeps being
//! used stays and what stopped ages out, with no per-entry bookkeeping. Both the
//! detection engine's memory of scanned texts (`detect/engine/memo.rs`) and the token
//! minter's memory of MACs (`token.rs`) are built on it.

use std::collections::HashMap;
use std::hash::{BuildHasher, Hash, RandomState};

/// A keyed 128-bit hash: two SipHash-1-3 under keys random per instance. How the
/// memories name what they remember without keeping it (the vault's `Recent`, the
/// token minter's MACs); a copy keeps the keys.
#[derive(Debug, Clone)]
pub struct Fingerprints(RandomState, RandomState);

impl Fingerprints {
    pub fn new() -> Fingerprints {
        Fingerprints(RandomState::new(), RandomState::new())
    }

    pub fn of(&self, value: impl Hash + Copy) -> u128 {
        (u128::from(self.0.hash_one(value)) << 64) | u128::from(self.1.hash_one(value))
    }
}

impl Default for Fingerprints {
    fn default() -> Fingerprints {
        Fingerprints::new()
    }
}

/// At most `max_entries` entries and `max_weight` weight at once, over both
/// generations.
pub struct Generations<K, V> {
    young: Generation<K, V>,
    old: Generation<K, V>,
    max_entries: usize,
    max_weight: usize,
    weight: fn(&V) -> usize,
}

struct Generation<K, V> {
    entries: HashMap<K, V>,
    weight: usize,
}

impl<K, V> Default for Generation<K, V> {
    fn default() -> Self {
        Generation { entries: HashMap::new(), weight: 0 }
    }
}

impl<K: Hash + Eq + Copy, V> Generations<K, V> {
    /// `weight` is an entry's share of `max_weight` (say, its length).
    pub fn new(max_entries: usize, max_weight: usize, weight: fn(&V) -> usize) -> Generations<K, V> {
        Generations { young: Generation::default(), old: Generation::default(), max_entries, max_weight, weight }
    }

    /// The entry for `key`, moved back into the young generation if it was old.
    pub fn get(&mut self, key: K) -> Option<&V> {
        if !self.young.entries.contains_key(&key) {
            let value = self.old.entries.remove(&key)?;
            self.old.weight -= (self.weight)(&value);
            self.insert(key, value);
        }
        self.young.entries.get(&key)
    }

    /// Remembers `value` under `key`; an entry heavier than a generation may hold is
    /// not kept.
    pub fn insert(&mut self, key: K, value: V) {
        let weight = (self.weight)(&value);
        if weight > self.max_weight / 2 {
            return;
        }
        let young = &self.young;
        if young.entries.len() >= self.max_entries / 2 || young.weight + weight > self.max_weight / 2 {
            self.old = std::mem::take(&mut self.young);
        }
        self.young.weight += weight;
        if let Some(replaced) = self.young.entries.insert(key, value) {
            self.young.weight -= (self.weight)(&replaced);
        }
    }

    /// Entries held, over both generations.
    pub fn len(&self) -> usize {
        self.young.entries.len() + self.old.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Weight held, over both generations.
    pub fn weight(&self) -> usize {
        self.young.weight + self.old.weight
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lengths() -> Generations<u32, Vec<u8>> {
        Generations::new(8, 20, Vec::len)
    }

    #[test]
    fn holds_at_most_its_bounds() {
        let mut g = lengths();
        for i in 0..100 {
            g.insert(i, vec![0; (i % 4) as usize]);
            assert!(g.len() <= 8, "{}", g.len());
            assert!(g.weight() <= 20, "{}", g.weight());
        }
        assert!(g.get(99).is_some());
        assert!(g.get(0).is_none());
    }

    #[test]
    fn an_entry_in_use_survives_turnover() {
        let mut g = lengths();
        g.insert(1000, vec![1]);
        for i in 0..100 {
            g.insert(i, vec![]);
            if i % 3 == 0 {
                assert_eq!(g.get(1000), Some(&vec![1]), "lost after {i}");
            }
        }
        // Not asked for any more: gone after two generations' worth.
        for i in 100..110 {
            g.insert(i, vec![]);
        }
        assert_eq!(g.get(1000), None);
    }

    #[test]
    fn replacing_an_entry_keeps_the_weight_right() {
        let mut g = lengths();
        g.insert(1, vec![0; 5]);
        g.insert(1, vec![0; 2]);
        assert_eq!((g.len(), g.weight()), (1, 2));
        assert!(g.get(1).is_some());
        g.insert(2, vec![0; 11]);
        assert_eq!(g.get(2), None, "heavier than a generation may hold");
    }
}
