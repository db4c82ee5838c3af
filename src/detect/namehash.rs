// The hash of a folded name, shared by `build.rs` (which `include!`s this file to lay
// out the name table) and `nametable.rs` (which probes it): FNV-1a over the bytes,
// then a multiply-xorshift so that the top bits (the bucket) and the low 16 (the
// fingerprint) are both well mixed. Plain comments only: `include!` takes items.

/// The 64-bit hash of a folded name.
pub(crate) fn name_hash(folded: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in folded {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h ^= h >> 29;
    h = h.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h ^ (h >> 32)
}
