// The hash of a folded name, shared by `build.rs` (which `include!`s this file to lay
// out the name table) and `nametable.rs` (which probes it): FNV-1a over the bytes,
// then a multiply-xorshift so that the top bits (the bucket) and the low 16 (the
// fingerprint) are both well mixed. Plain comments only: `include!` takes items.

/// The 64-bit hash of a folded name.
pub(crate) fn name_hash(folded: &[u8]) -> u64 {
    name_hash_end(folded.iter().fold(NAME_HASH_START, |h, &b| name_hash_byte(h, b)))
}

/// The state of [`name_hash`] before the first byte.
pub(crate) const NAME_HASH_START: u64 = 0xcbf2_9ce4_8422_2325;

/// [`name_hash`]'s state after one more byte: for a caller that hashes a word while it
/// folds it.
pub(crate) fn name_hash_byte(h: u64, b: u8) -> u64 {
    (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
}

/// [`name_hash`] of the bytes whose state is `h`.
pub(crate) fn name_hash_end(mut h: u64) -> u64 {
    h ^= h >> 29;
    h = h.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h ^ (h >> 32)
}
