//! The token vault: token → value across requests, sealed, expiring, bounded.
//!
//! It lives in Envoy's shared data (one map per `vm_id`, shared by every worker),
//! reached through the [`Store`] trait so the logic here is tested natively. Design:
//!
//! * **Slots, not one key per token.** Shared data has no key listing and, in the
//!   Proxy-Wasm ABI Envoy speaks, no real delete. A vault keyed by token would grow
//!   its key set forever. Instead an entry lives in one of a fixed number of *slots*
//!   (`veil/v1/slot/<n>`, chosen by a keyed hash of scope and token), each holding at
//!   most [`SLOT_CAPACITY`] records. The key set is bounded, and the sweep can walk it.
//! * **Sealed.** A record holds ChaCha20-Poly1305 ciphertext of the value under a key
//!   derived from the vault key, with the scope and token as associated data: a record
//!   copied to another scope or token does not open. Nothing in shared data is readable
//!   without the vault key.
//! * **Scoped.** A record's id is a keyed hash of (scope, token). A response can only
//!   reach records of its own request's scope, so a token crafted with another
//!   tenant's id restores nothing.
//! * **Expiring and bounded.** Records carry their expiry; expired ones are never
//!   returned and are dropped whenever their slot is written, and by the sweep. A full
//!   slot (by count or bytes) drops its oldest records first, and counts it.
//! * **Concurrent.** Every write is a compare-and-swap loop on the slot.
//! * **Checked from memory when it can be.** Issuing a token asks whether the vault
//!   already holds it for a different value, and whether its record is fresh enough to
//!   skip the write. Each worker remembers the answers it read or wrote for
//!   [`RECENT_SECS`] seconds ([`Recent`]), as keyed hashes only, so a value repeated
//!   across requests costs no shared-data read and no decryption. The price: a record
//!   another worker's write evicts in that time is not written back by this one until
//!   its memory lapses.

use std::fmt;

use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{ChaCha20Poly1305, Key, Nonce};
use hmac::{Hmac, Mac};
use sha2::Sha256;

use crate::generations::Fingerprints;

/// Records per slot.
pub const SLOT_CAPACITY: usize = 8;
/// Values longer than this are not stored (they are still restored within their own
/// request); a policy limit, counted when it applies.
pub const MAX_VALUE_BYTES: usize = 4096;
/// CAS retries before a write gives up (and is counted).
const CAS_RETRIES: usize = 16;
/// How long a worker trusts what it last read or wrote for a token (see [`Recent`]).
pub const RECENT_SECS: u64 = 5;
/// Remembered tokens per worker; the memory starts over when full.
const RECENT_ENTRIES: usize = 4096;

const RECORD_ID: usize = 16;
const TAG: usize = 16;
/// Per record: id, expiry (u64), value length (u16), then ciphertext and tag.
const RECORD_HEADER: usize = RECORD_ID + 8 + 2;

/// Shared-data access, as Envoy offers it: get with a CAS version, set with an
/// optional expected version.
pub trait Store {
    fn get(&self, key: &str) -> Option<(Vec<u8>, u32)>;
    /// Sets `key`; with `cas`, only if the stored version still is `cas` (0 or
    /// `None` when the key was absent).
    fn set(&self, key: &str, value: &[u8], cas: Option<u32>) -> Result<(), CasMismatch>;
}

/// The stored version changed between read and write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CasMismatch;

/// Vault limits, from the policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VaultConfig {
    pub ttl_secs: u64,
    pub max_entries: usize,
    pub max_bytes: usize,
}

impl VaultConfig {
    /// Number of slots: enough for `max_entries` at full slots.
    pub fn slots(&self) -> usize {
        self.max_entries.div_ceil(SLOT_CAPACITY).max(1)
    }

    fn slot_bytes(&self) -> usize {
        (self.max_bytes / self.slots()).max(RECORD_HEADER + TAG + 16)
    }
}

/// What a write did, for counters.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PutReport {
    pub stored: bool,
    /// Unexpired records dropped to make room (the vault was full).
    pub evicted: u32,
    /// Expired records dropped on the way.
    pub expired: u32,
    /// The write lost every CAS race and gave up.
    pub contended: bool,
    pub too_large: bool,
}

/// What a sweep did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SweepReport {
    pub slots: u32,
    pub expired: u32,
    pub live: u32,
}

/// Whether a token may be issued for a value, as far as the vault knows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Check {
    /// The vault holds the token for a different value: a collision.
    pub taken: bool,
    /// The vault holds it for this value, with more than half its lifetime left:
    /// no write needed.
    pub fresh: bool,
}

/// One worker's memory of recent vault answers: for a (scope, token), a fingerprint of
/// the value it stands for and until when its record needs no refresh. Keys and
/// values are kept as 128-bit keyed hashes (keys random per worker), never as they are.
#[derive(Debug, Clone)]
pub struct Recent {
    keys: Fingerprints,
    entries: std::collections::HashMap<u128, (u128, u64)>,
}

impl Recent {
    fn new() -> Recent {
        Recent { keys: Fingerprints::new(), entries: std::collections::HashMap::new() }
    }

    /// What is known of `token` in `scope` at `now`, if anything.
    fn check(&self, scope: &[u8], token: &str, value: &[u8], now: u64) -> Option<Check> {
        let (seen, until) = self.entries.get(&self.keys.of((scope, token)))?;
        (now < *until).then(|| {
            let same = *seen == self.keys.of(value);
            Check { taken: !same, fresh: same }
        })
    }

    /// Remembers that `token` in `scope` stands for `value`, fresh until `until`.
    fn note(&mut self, scope: &[u8], token: &str, value: &[u8], until: u64) {
        if self.entries.len() >= RECENT_ENTRIES {
            self.entries.clear();
        }
        let key = self.keys.of((scope, token));
        let seen = self.keys.of(value);
        self.entries.insert(key, (seen, until));
    }
}

/// The vault's keys, all derived from the one vault key, and this worker's memory of
/// recent answers.
#[derive(Clone)]
pub struct Vault {
    seal: ChaCha20Poly1305,
    ids: Hmac<Sha256>,
    config: VaultConfig,
    recent: std::cell::RefCell<Recent>,
}

impl fmt::Debug for Vault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Vault").field("keys", &"<sealed>").field("config", &self.config).finish()
    }
}

/// `HMAC(key, label)`: independent subkeys from one vault key.
pub fn derive(key: &[u8; 32], label: &str) -> [u8; 32] {
    let mut out = [0u8; 32];
    if let Ok(mut mac) = <Hmac<Sha256> as Mac>::new_from_slice(key) {
        mac.update(label.as_bytes());
        out.copy_from_slice(&mac.finalize().into_bytes());
    }
    out
}

struct Record {
    id: [u8; RECORD_ID],
    expires: u64,
    sealed: Vec<u8>,
}

impl Vault {
    pub fn new(vault_key: &[u8; 32], config: VaultConfig) -> Vault {
        let seal_key = derive(vault_key, "veil/v1/seal");
        let id_key = derive(vault_key, "veil/v1/record-id");
        Vault {
            seal: ChaCha20Poly1305::new(Key::from_slice(&seal_key)),
            // HMAC takes keys of any length: this cannot fail.
            ids: <Hmac<Sha256> as Mac>::new_from_slice(&id_key).unwrap_or_else(|_| unreachable_hmac()),
            config,
            recent: std::cell::RefCell::new(Recent::new()),
        }
    }

    pub fn config(&self) -> VaultConfig {
        self.config
    }

    /// The record id and slot of (scope, token): a keyed hash, so neither the scope
    /// (a credential) nor the token can be read from shared data.
    fn locate(&self, scope: &[u8], token: &str) -> ([u8; RECORD_ID], usize) {
        let mut mac = self.ids.clone();
        for part in [scope, token.as_bytes()] {
            mac.update(&(part.len() as u64).to_be_bytes());
            mac.update(part);
        }
        let digest = mac.finalize().into_bytes();
        let mut id = [0u8; RECORD_ID];
        id.copy_from_slice(digest.get(..RECORD_ID).unwrap_or(&[0; RECORD_ID]));
        let mut slot_bytes = [0u8; 8];
        slot_bytes.copy_from_slice(digest.get(RECORD_ID..RECORD_ID + 8).unwrap_or(&[0; 8]));
        let slot = (u64::from_be_bytes(slot_bytes) % self.config.slots() as u64) as usize;
        (id, slot)
    }

    pub fn slot_key(slot: usize) -> String {
        format!("veil/v1/slot/{slot}")
    }

    fn nonce(id: &[u8; RECORD_ID]) -> [u8; 12] {
        // Deterministic: one (scope, token) always seals the same value (ids collide
        // only with a different value, which gets a longer token and so another id).
        let mut n = [0u8; 12];
        n.copy_from_slice(id.get(..12).unwrap_or(&[0; 12]));
        n
    }

    fn aad(scope: &[u8], token: &str) -> Vec<u8> {
        let mut aad = Vec::with_capacity(scope.len() + token.len() + 16);
        for part in [scope, token.as_bytes()] {
            aad.extend_from_slice(&(part.len() as u64).to_be_bytes());
            aad.extend_from_slice(part);
        }
        aad
    }

    /// The value of `token` in `scope`, if stored and unexpired at `now` (seconds).
    pub fn get(&self, store: &dyn Store, scope: &[u8], token: &str, now: u64) -> Option<Vec<u8>> {
        self.get_with_expiry(store, scope, token, now).map(|(value, _)| value)
    }

    /// Like [`Vault::get`], with the record's expiry (so a writer can skip refreshing
    /// a record that is still fresh).
    pub fn get_with_expiry(&self, store: &dyn Store, scope: &[u8], token: &str, now: u64) -> Option<(Vec<u8>, u64)> {
        let (id, slot) = self.locate(scope, token);
        let (bytes, _) = store.get(&Self::slot_key(slot))?;
        let record = decode(&bytes).into_iter().find(|r| r.id == id && r.expires > now)?;
        let value = self
            .seal
            .decrypt(
                Nonce::from_slice(&Self::nonce(&id)),
                Payload { msg: &record.sealed, aad: &Self::aad(scope, token) },
            )
            .ok()?;
        Some((value, record.expires))
    }

    /// Whether `token` may stand for `value` in `scope` (see [`Check`]): from this
    /// worker's memory when it has a recent answer, else from the store.
    pub fn check(&self, store: &dyn Store, scope: &[u8], token: &str, value: &[u8], now: u64) -> Check {
        if let Some(known) = self.recent.borrow().check(scope, token, value, now) {
            return known;
        }
        let Some((stored, expires)) = self.get_with_expiry(store, scope, token, now) else {
            return Check::default();
        };
        let fresh_until = expires.saturating_sub(self.config.ttl_secs / 2);
        if stored != value {
            return Check { taken: true, fresh: false };
        }
        if now < fresh_until {
            self.remember(scope, token, value, now, fresh_until);
        }
        Check { taken: false, fresh: now < fresh_until }
    }

    fn remember(&self, scope: &[u8], token: &str, value: &[u8], now: u64, fresh_until: u64) {
        let until = fresh_until.min(now.saturating_add(RECENT_SECS));
        if let Ok(mut recent) = self.recent.try_borrow_mut() {
            recent.note(scope, token, value, until);
        }
    }

    /// Stores `value` for `token` in `scope` until `now + ttl`, refreshing an existing
    /// record. Drops expired records of the slot, then the oldest ones if the slot is
    /// over its count or byte budget.
    pub fn put(&self, store: &dyn Store, scope: &[u8], token: &str, value: &[u8], now: u64) -> PutReport {
        let mut report = PutReport::default();
        if value.len() > MAX_VALUE_BYTES {
            report.too_large = true;
            return report;
        }
        let (id, slot) = self.locate(scope, token);
        let Ok(sealed) = self
            .seal
            .encrypt(Nonce::from_slice(&Self::nonce(&id)), Payload { msg: value, aad: &Self::aad(scope, token) })
        else {
            return report;
        };
        let key = Self::slot_key(slot);
        let expires = now.saturating_add(self.config.ttl_secs);
        for _ in 0..CAS_RETRIES {
            let (current, cas) = match store.get(&key) {
                Some((bytes, cas)) => (decode(&bytes), Some(cas)),
                None => (Vec::new(), None),
            };
            let expired = current.iter().filter(|r| r.expires <= now).count() as u32;
            let mut records: Vec<Record> = current.into_iter().filter(|r| r.expires > now && r.id != id).collect();
            records.push(Record { id, expires, sealed: sealed.clone() });
            // Oldest first out, until within the slot's count and byte budget.
            records.sort_by_key(|r| r.expires);
            let mut evicted = 0;
            while records.len() > SLOT_CAPACITY || encoded_len(&records) > self.config.slot_bytes() {
                if records.len() <= 1 {
                    break;
                }
                records.remove(0);
                evicted += 1;
            }
            match store.set(&key, &encode(&records), cas) {
                Ok(()) => {
                    report.stored = records.iter().any(|r| r.id == id);
                    if report.stored {
                        self.remember(scope, token, value, now, expires.saturating_sub(self.config.ttl_secs / 2));
                    }
                    report.evicted = evicted;
                    report.expired = expired;
                    return report;
                }
                Err(CasMismatch) => continue,
            }
        }
        report.contended = true;
        report
    }

    /// Drops expired records from slots `from..from + count` (wrapping), returning
    /// counts. Slots are re-written only when something expired.
    pub fn sweep(&self, store: &dyn Store, from: usize, count: usize, now: u64) -> SweepReport {
        let mut report = SweepReport::default();
        let slots = self.config.slots();
        for i in 0..count.min(slots) {
            let key = Self::slot_key((from + i) % slots);
            report.slots += 1;
            for _ in 0..CAS_RETRIES {
                let Some((bytes, cas)) = store.get(&key) else { break };
                let records = decode(&bytes);
                let live: Vec<Record> = records.iter().filter(|r| r.expires > now).map(Record::clone_ref).collect();
                let expired = (records.len() - live.len()) as u32;
                if expired == 0 {
                    report.live += live.len() as u32;
                    break;
                }
                if store.set(&key, &encode(&live), Some(cas)).is_ok() {
                    report.expired += expired;
                    report.live += live.len() as u32;
                    break;
                }
            }
        }
        report
    }
}

impl Record {
    fn clone_ref(&self) -> Record {
        Record { id: self.id, expires: self.expires, sealed: self.sealed.clone() }
    }
}

fn unreachable_hmac() -> Hmac<Sha256> {
    // `new_from_slice` accepts every key length for HMAC; keep the signature total.
    std::process::abort()
}

fn encoded_len(records: &[Record]) -> usize {
    records.iter().map(|r| RECORD_HEADER + r.sealed.len()).sum()
}

fn encode(records: &[Record]) -> Vec<u8> {
    let mut out = Vec::with_capacity(encoded_len(records));
    for r in records {
        out.extend_from_slice(&r.id);
        out.extend_from_slice(&r.expires.to_be_bytes());
        out.extend_from_slice(&(r.sealed.len() as u16).to_be_bytes());
        out.extend_from_slice(&r.sealed);
    }
    out
}

/// Parses a slot; a malformed tail (never written by us) is ignored.
fn decode(mut bytes: &[u8]) -> Vec<Record> {
    let mut out = Vec::new();
    while bytes.len() >= RECORD_HEADER {
        let mut id = [0u8; RECORD_ID];
        id.copy_from_slice(bytes.get(..RECORD_ID).unwrap_or(&[0; RECORD_ID]));
        let mut exp = [0u8; 8];
        exp.copy_from_slice(bytes.get(RECORD_ID..RECORD_ID + 8).unwrap_or(&[0; 8]));
        let mut len = [0u8; 2];
        len.copy_from_slice(bytes.get(RECORD_ID + 8..RECORD_HEADER).unwrap_or(&[0; 2]));
        let len = usize::from(u16::from_be_bytes(len));
        let Some(sealed) = bytes.get(RECORD_HEADER..RECORD_HEADER + len) else { break };
        out.push(Record { id, expires: u64::from_be_bytes(exp), sealed: sealed.to_vec() });
        bytes = bytes.get(RECORD_HEADER + len..).unwrap_or_default();
    }
    out
}

/// An in-memory [`Store`] with Envoy's CAS semantics, for tests, benchmarks and the CLI.
#[derive(Debug, Default)]
pub struct MemStore {
    map: std::sync::Mutex<std::collections::HashMap<String, (Vec<u8>, u32)>>,
    next_cas: std::sync::atomic::AtomicU32,
}

impl MemStore {
    /// Total bytes of keys and values held.
    pub fn bytes(&self) -> usize {
        self.map.lock().map(|m| m.iter().map(|(k, (v, _))| k.len() + v.len()).sum()).unwrap_or(0)
    }

    pub fn keys(&self) -> usize {
        self.map.lock().map(|m| m.len()).unwrap_or(0)
    }
}

impl Store for MemStore {
    fn get(&self, key: &str) -> Option<(Vec<u8>, u32)> {
        self.map.lock().ok()?.get(key).cloned()
    }

    fn set(&self, key: &str, value: &[u8], cas: Option<u32>) -> Result<(), CasMismatch> {
        let mut map = self.map.lock().map_err(|_| CasMismatch)?;
        let current = map.get(key).map(|(_, c)| *c);
        if let Some(expected) = cas.filter(|&c| c != 0) {
            if current != Some(expected) {
                return Err(CasMismatch);
            }
        } else if cas.is_none() && current.is_some() {
            // Callers pass `None` only for a key they saw absent: it appeared since.
            return Err(CasMismatch);
        }
        let version = self.next_cas.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        map.insert(key.to_string(), (value.to_vec(), version));
        Ok(())
    }
}

/// A [`Store`] for a host without Envoy's shared data (the native module): one
/// process-wide map, split into shards so that workers seldom wait for each other;
/// each shard a [`MemStore`] with Envoy's CAS semantics. Its keys are the vault's slots
/// (bounded by `vault.max_entries`) and a few bookkeeping keys.
#[derive(Debug)]
pub struct ShardedStore {
    shards: Vec<MemStore>,
}

impl ShardedStore {
    pub fn new(shards: usize) -> ShardedStore {
        ShardedStore { shards: (0..shards.max(1)).map(|_| MemStore::default()).collect() }
    }

    fn shard(&self, key: &str) -> Option<&MemStore> {
        // FNV-1a over the key: cheap, and keys are the vault's own names.
        let hash = key.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3));
        self.shards.get((hash % self.shards.len() as u64) as usize)
    }
}

impl Store for ShardedStore {
    fn get(&self, key: &str) -> Option<(Vec<u8>, u32)> {
        self.shard(key)?.get(key)
    }

    fn set(&self, key: &str, value: &[u8], cas: Option<u32>) -> Result<(), CasMismatch> {
        self.shard(key).ok_or(CasMismatch)?.set(key, value, cas)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sharded_store_keeps_the_vault_rules() {
        let (v, s) = (vault(), ShardedStore::new(8));
        for slot in 0..v.config().slots() {
            s.set(&Vault::slot_key(slot), &[], None).unwrap();
        }
        assert!(v.put(&s, b"tenant-a", "«token:EMAIL:3f9a1c0d»", b"jane@example.com", 1000).stored);
        assert_eq!(v.get(&s, b"tenant-a", "«token:EMAIL:3f9a1c0d»", 1001).as_deref(), Some(&b"jane@example.com"[..]));
        assert_eq!(v.get(&s, b"tenant-b", "«token:EMAIL:3f9a1c0d»", 1001), None);
        assert_eq!(v.get(&s, b"tenant-a", "«token:EMAIL:3f9a1c0d»", 1000 + 101), None, "expired");
        let (_, cas) = s.get("k").map_or((vec![], 0), |x| x);
        assert_eq!(cas, 0);
        s.set("k", b"1", None).unwrap();
        let (_, cas) = s.get("k").unwrap();
        assert!(s.set("k", b"2", Some(cas + 1000)).is_err(), "a stale CAS is refused");
        assert!(s.set("k", b"2", Some(cas)).is_ok());
    }

    fn vault() -> Vault {
        Vault::new(&[7; 32], VaultConfig { ttl_secs: 100, max_entries: 64, max_bytes: 1 << 20 })
    }

    #[test]
    fn round_trip_and_scope_isolation() {
        let (v, s) = (vault(), MemStore::default());
        assert!(v.put(&s, b"tenant-a", "«token:EMAIL:3f9a1c0d»", b"jane@example.com", 1000).stored);
        assert_eq!(v.get(&s, b"tenant-a", "«token:EMAIL:3f9a1c0d»", 1001).as_deref(), Some(&b"jane@example.com"[..]));
        assert_eq!(v.get(&s, b"tenant-b", "«token:EMAIL:3f9a1c0d»", 1001), None);
        assert_eq!(v.get(&s, b"tenant-a", "«token:EMAIL:00000000»", 1001), None);
    }

    #[test]
    fn expiry_is_enforced_on_read_and_by_the_sweep() {
        let (v, s) = (vault(), MemStore::default());
        v.put(&s, b"a", "t1", b"v1", 1000);
        assert!(v.get(&s, b"a", "t1", 1099).is_some());
        assert!(v.get(&s, b"a", "t1", 1100).is_none());
        let report = v.sweep(&s, 0, v.config().slots(), 1100);
        assert_eq!((report.expired, report.live), (1, 0));
        // Refreshing extends the lifetime.
        v.put(&s, b"a", "t2", b"v2", 1000);
        v.put(&s, b"a", "t2", b"v2", 1090);
        assert!(v.get(&s, b"a", "t2", 1150).is_some());
    }

    #[test]
    fn nothing_in_the_store_reveals_scope_token_or_value() {
        let (v, s) = (vault(), MemStore::default());
        v.put(&s, b"Bearer sk-secret-credential", "«token:EMAIL:3f9a1c0d»", b"jane@example.com", 1);
        let map = s.map.lock().unwrap();
        for (key, (value, _)) in map.iter() {
            for needle in [&b"sk-secret"[..], b"EMAIL", b"3f9a1c0d", b"jane"] {
                assert!(!key.as_bytes().windows(needle.len()).any(|w| w == needle));
                assert!(!value.windows(needle.len()).any(|w| w == needle));
            }
        }
    }

    #[test]
    fn tampered_or_moved_ciphertext_is_rejected() {
        let (v, s) = (vault(), MemStore::default());
        v.put(&s, b"a", "t", b"value", 1);
        let (id, slot) = v.locate(b"a", "t");
        let key = Vault::slot_key(slot);
        let (mut bytes, cas) = s.get(&key).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        s.set(&key, &bytes, Some(cas)).unwrap();
        assert_eq!(v.get(&s, b"a", "t", 2), None);
        // A record re-labelled with another (scope, token)'s id does not open either.
        let (other_id, _) = v.locate(b"b", "t");
        let (mut bytes, cas) = s.get(&key).unwrap();
        bytes[..RECORD_ID].copy_from_slice(&other_id);
        let _ = id;
        s.set(&key, &bytes, Some(cas)).unwrap();
        assert_eq!(v.get(&s, b"b", "t", 2), None);
    }

    #[test]
    fn a_full_vault_drops_the_oldest_records_and_says_so() {
        let v = Vault::new(&[7; 32], VaultConfig { ttl_secs: 1000, max_entries: 8, max_bytes: 1 << 20 });
        let s = MemStore::default();
        let mut evicted = 0;
        for i in 0..40u64 {
            evicted += v.put(&s, b"a", &format!("t{i}"), b"v", i).evicted;
        }
        assert_eq!(evicted, 32);
        assert_eq!(s.keys(), 1);
        // The newest survive.
        assert!(v.get(&s, b"a", "t39", 40).is_some());
        assert!(v.get(&s, b"a", "t0", 40).is_none());
    }

    #[test]
    fn check_finds_collisions_and_fresh_records_and_trusts_memory_only_briefly() {
        let (a, b, s) = (vault(), vault(), MemStore::default());
        assert_eq!(a.check(&s, b"x", "t", b"v1", 10), Check { taken: false, fresh: false });
        assert!(a.put(&s, b"x", "t", b"v1", 10).stored);
        // The writer answers from memory; another worker (its own vault) from the store.
        for v in [&a, &b] {
            assert_eq!(v.check(&s, b"x", "t", b"v1", 11), Check { taken: false, fresh: true });
            assert_eq!(v.check(&s, b"x", "t", b"v2", 11), Check { taken: true, fresh: false });
            assert_eq!(v.check(&s, b"y", "t", b"v1", 11), Check::default(), "another scope");
        }
        // Past half its lifetime a record needs a refresh.
        assert_eq!(b.check(&s, b"x", "t", b"v1", 61), Check { taken: false, fresh: false });
        // The record goes (evicted by another worker): memory vouches for it for at
        // most RECENT_SECS after it last asked the store, then the store answers again.
        let empty = MemStore::default();
        assert!(a.check(&empty, b"x", "t", b"v1", 10 + RECENT_SECS - 1).fresh);
        assert_eq!(a.check(&empty, b"x", "t", b"v1", 10 + RECENT_SECS), Check::default());
    }

    #[test]
    fn memory_holds_keyed_hashes_only() {
        let (v, s) = (vault(), MemStore::default());
        assert!(v.put(&s, b"scope-credential", "«token:EMAIL:0123abcd»", b"jane@example.com", 1).stored);
        let recent = format!("{:?}", v.recent.borrow());
        assert!(recent.contains("entries"), "{recent}");
        for secret in ["scope-credential", "0123abcd", "jane", "example"] {
            assert!(!recent.contains(secret), "{secret}");
        }
        let debug = format!("{:?}", v.recent.borrow().entries);
        assert_eq!(v.recent.borrow().entries.len(), 1, "{debug}");
    }

    #[test]
    #[cfg(not(target_family = "wasm"))] // no threads there: each Envoy worker has its own VM
    fn concurrent_writers_lose_nothing() {
        // One vault per worker (as each Envoy worker has its own VM), one store.
        let config = VaultConfig { ttl_secs: 1000, max_entries: 100_000, max_bytes: 64 << 20 };
        let v = Vault::new(&[7; 32], config);
        let s = std::sync::Arc::new(MemStore::default());
        let threads: Vec<_> = (0..4)
            .map(|w| {
                let s = s.clone();
                std::thread::spawn(move || {
                    let v = Vault::new(&[7; 32], config);
                    for i in 0..500 {
                        let r = v.put(&*s, b"a", &format!("w{w}-{i}"), format!("value {w} {i}").as_bytes(), 1);
                        assert!(r.stored && !r.contended);
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        for w in 0..4 {
            for i in 0..500 {
                assert_eq!(v.get(&*s, b"a", &format!("w{w}-{i}"), 2), Some(format!("value {w} {i}").into_bytes()));
            }
        }
    }
}
