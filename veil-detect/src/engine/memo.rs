//! What an engine found in the texts it scanned lately.
//!
//! A chat request carries its whole conversation: every turn sends the history again,
//! and a long conversation is scanned over and over. The memo keeps, per text, the
//! findings (offsets, rule, confidence; never a byte of the text) under a keyed
//! 64-bit hash (SipHash-1-3) of the token scope and the text, and the text's length,
//! so the next turn scans only its new messages. Scanning a text depends on nothing
//! but the text and the engine (a part scanned inside a joined batch gives what it
//! gives alone), so a remembered answer is the answer.
//!
//! The hash key is random per memo (per engine, per worker): the hashes mean nothing
//! elsewhere, and without the key two texts of one length collide with odds of one in
//! 2^64 per remembered text, however they were chosen. The scope is part of the key
//! so that one client cannot tell, by timing, whether another sent a text lately.
//! Bounded: at most [`MEMO_ENTRIES`] texts and [`MEMO_FINDINGS`] findings, in two
//! generations (see [`Generations`]).

use std::hash::{BuildHasher, RandomState};
use std::sync::Mutex;

use crate::finding::Finding;
use crate::generations::Generations;

/// Texts shorter than this are scanned every time: they cost little in a joined scan.
pub const MEMO_MIN_LEN: usize = 64;
/// Most texts remembered at once.
pub const MEMO_ENTRIES: usize = 4096;
/// Most findings remembered at once (over all texts).
pub const MEMO_FINDINGS: usize = 16_384;

/// A text's keyed hash and its length.
pub(crate) type Key = (u64, usize);

/// The texts of a conversation that goes on stay; those of one that ended age out
/// (see [`Generations`]).
pub(crate) struct Memo {
    key: RandomState,
    inner: Mutex<Generations<Key, Box<[Finding]>>>,
}

impl Memo {
    pub(crate) fn new() -> Memo {
        Memo { key: RandomState::new(), inner: Mutex::new(Generations::new(MEMO_ENTRIES, MEMO_FINDINGS, |f| f.len())) }
    }

    /// The key of `text` in `scope`.
    pub(crate) fn key(&self, scope: &[u8], text: &[u8]) -> Key {
        (self.key.hash_one((scope, text)), text.len())
    }

    pub(crate) fn get(&self, key: Key) -> Option<Vec<Finding>> {
        self.inner.lock().ok()?.get(key).map(|found| found.to_vec())
    }

    pub(crate) fn put(&self, key: Key, findings: &[Finding]) {
        if let Ok(mut generations) = self.inner.lock() {
            generations.insert(key, findings.into());
        }
    }

    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.inner.lock().map(|g| g.len()).unwrap_or(0)
    }
}

/// A copy starts empty, with keys of its own.
impl Clone for Memo {
    fn clone(&self) -> Memo {
        Memo::new()
    }
}

/// Only how much it holds.
impl std::fmt::Debug for Memo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let held = self.inner.lock().map(|g| (g.len(), g.weight())).unwrap_or_default();
        f.debug_struct("Memo").field("texts", &held.0).field("findings", &held.1).finish()
    }
}
