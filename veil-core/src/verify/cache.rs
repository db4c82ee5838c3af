//! The score cache: verdicts by a keyed hash of (model, claim), with a TTL, in a
//! bounded key space.
//!
//! Envoy's shared data has no delete and no listing, so — like the vault — the cache
//! is a fixed table: `cache_entries` slots, each holding one verdict and the hash it
//! belongs to; a newer verdict for another claim in the same slot replaces it. The
//! slot key is a number; the claim itself is never stored.

use std::cell::RefCell;
use std::collections::HashMap;

use hmac::{Hmac, Mac};
use sha2::Sha256;

use super::Verdict;

/// Raw slot access (Envoy shared data in the host, a map in tests).
pub trait Cache {
    fn load(&self, slot: &str) -> Option<Vec<u8>>;
    fn store(&self, slot: &str, value: &[u8]);
}

/// Keyed hash of what a verdict depends on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CacheKey([u8; 32]);

impl CacheKey {
    pub fn new(secret: &[u8; 32], model: &str, claim: &str) -> CacheKey {
        let mut mac = match <Hmac<Sha256> as Mac>::new_from_slice(secret) {
            Ok(mac) => mac,
            Err(_) => return CacheKey([0; 32]),
        };
        mac.update(b"veil/v1/verify-cache\0");
        mac.update(model.as_bytes());
        mac.update(b"\0");
        mac.update(claim.as_bytes());
        CacheKey(mac.finalize().into_bytes().into())
    }

    fn slot(&self, entries: usize) -> String {
        let n = u64::from_le_bytes([
            self.0[0], self.0[1], self.0[2], self.0[3], self.0[4], self.0[5], self.0[6], self.0[7],
        ]);
        format!("veil/v1/verify/{}", n % entries.max(1) as u64)
    }
}

/// Looks a verdict up; expired or foreign slots are misses.
pub fn get(cache: &dyn Cache, key: &CacheKey, entries: usize, now_secs: u64) -> Option<Verdict> {
    if entries == 0 {
        return None;
    }
    let raw = cache.load(&key.slot(entries))?;
    let hash = raw.get(..32)?;
    if hash != key.0 {
        return None;
    }
    let expiry = u64::from_le_bytes(raw.get(32..40)?.try_into().ok()?);
    if expiry <= now_secs {
        return None;
    }
    let score = *raw.get(40)?;
    let reasoning = String::from_utf8(raw.get(41..)?.to_vec()).ok()?;
    Some(Verdict { score: score.min(100), reasoning })
}

pub fn put(cache: &dyn Cache, key: &CacheKey, entries: usize, verdict: &Verdict, now_secs: u64, ttl_secs: u64) {
    if entries == 0 || ttl_secs == 0 {
        return;
    }
    let mut raw = Vec::with_capacity(41 + verdict.reasoning.len());
    raw.extend_from_slice(&key.0);
    raw.extend_from_slice(&now_secs.saturating_add(ttl_secs).to_le_bytes());
    raw.push(verdict.score);
    raw.extend_from_slice(verdict.reasoning.as_bytes());
    cache.store(&key.slot(entries), &raw);
}

/// An in-memory [`Cache`] for tests and native tools.
#[derive(Debug, Default)]
pub struct MemCache {
    pub slots: RefCell<HashMap<String, Vec<u8>>>,
}

impl Cache for MemCache {
    fn load(&self, slot: &str) -> Option<Vec<u8>> {
        self.slots.borrow().get(slot).cloned()
    }
    fn store(&self, slot: &str, value: &[u8]) {
        self.slots.borrow_mut().insert(slot.to_string(), value.to_vec());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hit_miss_expiry_and_collision() {
        let cache = MemCache::default();
        let k1 = CacheKey::new(&[1; 32], "m", "Paris is in France.");
        let v = Verdict { score: 97, reasoning: "well known".into() };
        assert_eq!(get(&cache, &k1, 16, 100), None);
        put(&cache, &k1, 16, &v, 100, 60);
        assert_eq!(get(&cache, &k1, 16, 159), Some(v.clone()));
        assert_eq!(get(&cache, &k1, 16, 160), None, "expired");
        // Another model or key: another hash, so never this verdict.
        assert_eq!(get(&cache, &CacheKey::new(&[1; 32], "m2", "Paris is in France."), 16, 100), None);
        assert_eq!(get(&cache, &CacheKey::new(&[2; 32], "m", "Paris is in France."), 16, 100), None);
        // One slot: a second claim replaces the first, which then misses.
        let k2 = CacheKey::new(&[1; 32], "m", "Rome is in Italy.");
        put(&cache, &k1, 1, &v, 100, 60);
        put(&cache, &k2, 1, &Verdict { score: 5, reasoning: "x".into() }, 100, 60);
        assert_eq!(get(&cache, &k1, 1, 100), None);
        assert_eq!(get(&cache, &k2, 1, 100).map(|v| v.score), Some(5));
        assert_eq!(cache.slots.borrow().len(), 2, "bounded by entries");
        // Claims are never stored.
        assert!(cache.slots.borrow().values().all(|raw| !String::from_utf8_lossy(raw).contains("Paris")));
        // Disabled.
        put(&cache, &k1, 0, &v, 100, 60);
        assert_eq!(get(&cache, &k1, 0, 100), None);
    }
}
