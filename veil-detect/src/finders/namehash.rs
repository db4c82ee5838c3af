// The hash of a folded name, shared by `build.rs` (which `include!`s this file to lay
// out the name table) and `nametable.rs` (which probes it). The bytes are read eight at
// a time (the last eight zero-padded, the length in the seed): one multiply a chunk
// instead of one a byte (FNV-1a, until session 26), so that a word the text's folded
// copy already holds is hashed there with a load a chunk. Each step is a bijection of
// the state for a given chunk, and a multiply-xorshift at the end mixes the top bits
// (the bucket) and the low 16 (the fingerprint). Plain comments only: `include!` takes
// items.

/// The 64-bit hash of a folded name.
pub(crate) fn name_hash(folded: &[u8]) -> u64 {
    let h = folded.chunks(8).fold(name_hash_start(folded.len()), |h, chunk| name_hash_chunk(h, name_chunk(chunk)));
    name_hash_end(h)
}

/// Up to eight bytes as a little-endian `u64`, zero-padded (no copy of a length only
/// known at run time: in wasm that is a call to `memcpy`).
pub(crate) fn name_chunk(chunk: &[u8]) -> u64 {
    match <[u8; 8]>::try_from(chunk) {
        Ok(eight) => u64::from_le_bytes(eight),
        Err(_) => chunk.iter().rev().fold(0, |x, &b| x << 8 | u64::from(b)),
    }
}

/// [`name_hash`]'s state before the first chunk of a name of `len` bytes.
pub(crate) fn name_hash_start(len: usize) -> u64 {
    0xcbf2_9ce4_8422_2325 ^ (len as u64)
}

/// [`name_hash`]'s state after one more chunk: eight bytes, little endian, zero-padded
/// at the end of the name. For a caller that hashes a word as it folds it.
pub(crate) fn name_hash_chunk(h: u64, chunk: u64) -> u64 {
    (h ^ chunk).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(27)
}

/// [`name_hash`] of the chunks whose state is `h`.
pub(crate) fn name_hash_end(mut h: u64) -> u64 {
    h ^= h >> 29;
    h = h.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h ^ (h >> 32)
}
