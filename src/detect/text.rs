//! One pass over a scanned text's bytes, shared by every part of the scan that looks
//! for classes of bytes.
//!
//! The start index needs the text folded (letters to lower case, every other byte
//! but a digit to 0), the word starts, and the capitals and digits (where its
//! case-sensitive prefixes begin); the window finders need the digits (an ID
//! or a phone number is found around them), the runs of identifier bytes, and whether
//! any character outside the first two UTF-8 planes is there at all (CJK, Hangul and
//! Devanagari keywords). Each used to walk the text itself — ten passes of a 128 KiB
//! text cost more in V8 than the rest of the scan. Here one pass, sixteen bytes at a
//! time with wasm SIMD (eight natively), writes the folded copy and, for each 64-byte
//! block, one bit per byte for each class; finders skip 64 bytes at a time on them.

/// A text prepared for one scan.
#[derive(Debug)]
pub struct Text<'a> {
    bytes: &'a [u8],
    /// Letters to lower case, other bytes but digits to 0; zero-padded to whole
    /// 64-byte blocks and 8 bytes more (a key may read that far).
    folded: Vec<u8>,
    /// Per 64-byte block, bit `j` for byte `j`: ASCII letters and digits.
    alnum: Vec<u64>,
    /// Per block: ASCII digits.
    digit: Vec<u64>,
    /// Per block: `_` and `-`.
    dash: Vec<u64>,
    /// Per block: ASCII capitals and digits (where a case-sensitive token prefix such
    /// as `AKIA` or `MzQ` can begin).
    caps: Vec<u64>,
    /// Some byte is `0xE0` or more: the lead of a three- or four-byte character.
    wide: bool,
    /// [`Text::long_runs`], found when first asked.
    long: std::cell::OnceCell<Vec<(usize, usize)>>,
}

/// The masks of one 64-byte block.
#[derive(Debug, Default, Clone, Copy)]
struct Masks {
    alnum: u64,
    digit: u64,
    dash: u64,
    caps: u64,
    wide: u64,
}

impl<'a> Text<'a> {
    pub fn new(bytes: &'a [u8]) -> Text<'a> {
        let blocks = bytes.len().div_ceil(64);
        let mut text = Text {
            bytes,
            folded: vec![0u8; blocks * 64 + 8],
            alnum: vec![0; blocks],
            digit: vec![0; blocks],
            dash: vec![0; blocks],
            caps: vec![0; blocks],
            wide: false,
            long: std::cell::OnceCell::new(),
        };
        let mut wide = 0u64;
        for (i, (out, block)) in text.folded.chunks_exact_mut(64).zip(bytes.chunks(64)).enumerate() {
            let masks = match <&[u8; 64]>::try_from(block) {
                Ok(full) => fold_block(full, out),
                // The last, short block: zero-padded (a 0 byte is in no class).
                Err(_) => {
                    let mut padded = [0u8; 64];
                    padded.get_mut(..block.len()).unwrap_or_default().copy_from_slice(block);
                    fold_block(&padded, out)
                }
            };
            if let (Some(a), Some(d), Some(s), Some(c)) =
                (text.alnum.get_mut(i), text.digit.get_mut(i), text.dash.get_mut(i), text.caps.get_mut(i))
            {
                (*a, *d, *s, *c) = (masks.alnum, masks.digit, masks.dash, masks.caps);
            }
            wide |= masks.wide;
        }
        text.wide = wide != 0;
        text
    }

    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// Whether some character of three or four UTF-8 bytes is in the text.
    pub fn has_wide(&self) -> bool {
        self.wide
    }

    /// The folded copy: letters to lower case, other bytes but digits to 0, padded.
    pub(crate) fn folded(&self) -> &[u8] {
        &self.folded
    }

    /// The letter-or-digit masks, one per 64-byte block.
    pub(crate) fn alnum_masks(&self) -> &[u64] {
        &self.alnum
    }

    /// The capital-or-digit masks, one per 64-byte block.
    pub(crate) fn caps_masks(&self) -> &[u64] {
        &self.caps
    }

    /// The first ASCII digit at or after `from`.
    pub fn next_digit(&self, from: usize) -> Option<usize> {
        next_bit(&self.digit, from).filter(|&at| at < self.bytes.len())
    }

    /// Whether the byte at `at` is an identifier byte: an ASCII letter or digit, `_`
    /// or `-`.
    fn token(&self, at: usize) -> bool {
        let (block, bit) = (at / 64, at % 64);
        let mask = self.alnum.get(block).copied().unwrap_or(0) | self.dash.get(block).copied().unwrap_or(0);
        at < self.bytes.len() && (mask >> bit) & 1 == 1
    }

    /// The maximal run of identifier bytes (ASCII letters, digits, `_`, `-`) around
    /// `at`, which must be one: `(start, end)`.
    pub fn token_run(&self, at: usize) -> (usize, usize) {
        let (mut start, mut end) = (at, at);
        // Whole blocks at a time where the run goes on through them.
        while start > 0 && self.token(start - 1) {
            let block = (start - 1) / 64;
            let mask = self.alnum.get(block).copied().unwrap_or(0) | self.dash.get(block).copied().unwrap_or(0);
            // The bits below `start` in its block (or the whole block at a boundary).
            let below = (start - 1) % 64 + 1;
            let part = if below == 64 { mask } else { mask & ((1u64 << below) - 1) };
            let gaps = !part & if below == 64 { u64::MAX } else { (1u64 << below) - 1 };
            start = if gaps == 0 { block * 64 } else { block * 64 + (64 - gaps.leading_zeros() as usize) };
        }
        while end < self.bytes.len() && self.token(end) {
            let block = end / 64;
            let mask = self.alnum.get(block).copied().unwrap_or(0) | self.dash.get(block).copied().unwrap_or(0);
            let gaps = !mask >> (end % 64);
            end = if gaps == 0 { (block + 1) * 64 } else { end + gaps.trailing_zeros() as usize };
        }
        (start, end.min(self.bytes.len()))
    }

    /// The maximal runs of identifier bytes at least [`LONG_RUN`] bytes long, left to
    /// right: found once per scan for every window finder that wants them (the
    /// identifier-like tokens, the tokens with a dotted tail).
    pub fn long_runs(&self) -> &[(usize, usize)] {
        self.long.get_or_init(|| self.long_token_runs(LONG_RUN).collect())
    }

    /// The maximal runs of identifier bytes at least `min` long (at most 64), left to
    /// right. A run that long holds `min / 2 + 1` consecutive identifier bytes inside
    /// one 64-byte block, a test of a few shifts per block; only the blocks that pass
    /// are looked at byte by byte.
    pub fn long_token_runs(&self, min: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
        let min = min.clamp(1, 64);
        let half = min / 2 + 1;
        let mut block = 0usize;
        let mut at = 0usize;
        std::iter::from_fn(move || loop {
            let mask = self.alnum.get(block).copied()? | self.dash.get(block).copied().unwrap_or(0);
            // Bits that begin `half` consecutive set bits in this block, from `at` on.
            let mut runs = mask;
            let mut have = 1;
            while have < half {
                let step = have.min(half - have);
                runs &= runs >> step;
                have += step;
            }
            let from = at.saturating_sub(block * 64);
            let runs = if from >= 64 { 0 } else { runs & (u64::MAX << from) };
            if runs == 0 {
                block += 1;
                continue;
            }
            let (start, end) = self.token_run(block * 64 + runs.trailing_zeros() as usize);
            at = end;
            block = end / 64;
            if end - start >= min {
                return Some((start, end));
            }
        })
    }
}

/// The first set bit at or after `from` in masks of 64 bits each.
fn next_bit(masks: &[u64], from: usize) -> Option<usize> {
    let mut block = from / 64;
    let mut mask = masks.get(block)? & (u64::MAX << (from % 64));
    loop {
        if mask != 0 {
            return Some(block * 64 + mask.trailing_zeros() as usize);
        }
        block += 1;
        mask = *masks.get(block)?;
    }
}

/// Folds 64 bytes into `out` and returns their masks, sixteen at a time with wasm SIMD.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
fn fold_block(bytes: &[u8; 64], out: &mut [u8]) -> Masks {
    use core::arch::wasm32::{i8x16_eq, u64x2, u8x16_bitmask, u8x16_ge, u8x16_lt, u8x16_splat, u8x16_sub, v128_and, v128_or};
    let mut masks = Masks::default();
    for (j, (chunk, out)) in bytes.chunks_exact(16).zip(out.chunks_exact_mut(16)).enumerate() {
        let half = |i: usize| {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk.get(i..i + 8).unwrap_or(&[0; 8]));
            u64::from_le_bytes(word)
        };
        let v = u64x2(half(0), half(8));
        // Digits already have the 0x20 bit: or-ing it in lower-cases letters only.
        let lower = v128_or(v, u8x16_splat(0x20));
        let digit = u8x16_lt(u8x16_sub(v, u8x16_splat(b'0')), u8x16_splat(10));
        let letter = u8x16_lt(u8x16_sub(lower, u8x16_splat(b'a')), u8x16_splat(26));
        let keep = v128_or(digit, letter);
        let dash = v128_or(i8x16_eq(v, u8x16_splat(b'_')), i8x16_eq(v, u8x16_splat(b'-')));
        let caps = v128_or(u8x16_lt(u8x16_sub(v, u8x16_splat(b'A')), u8x16_splat(26)), digit);
        let wide = u8x16_ge(v, u8x16_splat(0xE0));
        let lanes = v128_and(lower, keep);
        let (lo, hi) = (
            core::arch::wasm32::u64x2_extract_lane::<0>(lanes),
            core::arch::wasm32::u64x2_extract_lane::<1>(lanes),
        );
        if let Some(dst) = out.get_mut(..8) {
            dst.copy_from_slice(&lo.to_le_bytes());
        }
        if let Some(dst) = out.get_mut(8..16) {
            dst.copy_from_slice(&hi.to_le_bytes());
        }
        let shift = 16 * j;
        masks.alnum |= u64::from(u8x16_bitmask(keep)) << shift;
        masks.digit |= u64::from(u8x16_bitmask(digit)) << shift;
        masks.dash |= u64::from(u8x16_bitmask(dash)) << shift;
        masks.caps |= u64::from(u8x16_bitmask(caps)) << shift;
        masks.wide |= u64::from(u8x16_bitmask(wide)) << shift;
    }
    masks
}

/// Folds 64 bytes into `out` and returns their masks, eight at a time.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
#[inline(always)]
fn fold_block(bytes: &[u8; 64], out: &mut [u8]) -> Masks {
    let mut masks = Masks::default();
    for (j, (chunk, out)) in bytes.chunks_exact(8).zip(out.chunks_exact_mut(8)).enumerate() {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let v = u64::from_le_bytes(word);
        let (folded, lanes) = fold(v);
        out.copy_from_slice(&folded.to_le_bytes());
        let shift = 8 * j;
        masks.alnum |= gather(lanes) << shift;
        masks.digit |= gather(between(v, b'0' - 1, b'9' + 1)) << shift;
        masks.dash |= gather(between(v, b'_' - 1, b'_' + 1) | between(v, b'-' - 1, b'-' + 1)) << shift;
        masks.caps |= gather(between(v, b'A' - 1, b'Z' + 1) | between(v, b'0' - 1, b'9' + 1)) << shift;
        masks.wide |= v & (v << 1) & (v << 2) & HIGH;
    }
    masks
}

/// How long a run of identifier bytes [`Text::long_runs`] returns at least.
pub const LONG_RUN: usize = 25;

pub(crate) const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = ONES * 0x80;
const LOW7: u64 = ONES * 0x7f;

/// Eight bytes with letters to lower case and every byte that is not a letter or digit
/// to 0, and their [`alnum`] lanes.
#[inline(always)]
pub(crate) fn fold(v: u64) -> (u64, u64) {
    let lanes = alnum(v);
    let keep = ((lanes >> 7) & ONES) * 0xff;
    ((v | (ONES * 0x20)) & keep, lanes)
}

/// High bit of each byte of `v` strictly between `lo` and `hi` (both below 128).
fn between(v: u64, lo: u8, hi: u8) -> u64 {
    let low = v & LOW7;
    (ONES * (127 + u64::from(hi)) - low) & !v & (low + ONES * (127 - u64::from(lo))) & HIGH
}

/// The high bit of byte `j` of `lanes` (its only possible bit) as bit `j` of the result.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
fn gather(lanes: u64) -> u64 {
    ((lanes >> 7) & ONES).wrapping_mul(0x0102_0408_1020_4080) >> 56
}

/// High bit of each byte of `v` that is an ASCII letter or digit.
pub(crate) fn alnum(v: u64) -> u64 {
    between(v, b'0' - 1, b'9' + 1) | between(v | (ONES * 0x20), b'a' - 1, b'z' + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bytes of every class at every offset of three blocks, against the definitions.
    #[test]
    fn masks_agree_with_the_byte_classes() {
        let mut seed = 3u64;
        for len in [0, 1, 63, 64, 65, 130, 191] {
            let bytes: Vec<u8> = (0..len)
                .map(|_| {
                    seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                    b"aZ09_- .\xc3\xa9\xe4\xb8\xad\xf0\x9f\x98\x80\x7f\xff@[A`{/:"[(seed >> 33) as usize % 26]
                })
                .collect();
            let text = Text::new(&bytes);
            for (i, &b) in bytes.iter().enumerate() {
                let bit = |m: &[u64]| (m[i / 64] >> (i % 64)) & 1 == 1;
                assert_eq!(bit(&text.alnum), b.is_ascii_alphanumeric(), "{b:#x}");
                assert_eq!(bit(&text.digit), b.is_ascii_digit(), "{b:#x}");
                assert_eq!(bit(&text.dash), b == b'_' || b == b'-', "{b:#x}");
                assert_eq!(bit(&text.caps), b.is_ascii_uppercase() || b.is_ascii_digit(), "{b:#x}");
                let folded = if b.is_ascii_alphanumeric() { b.to_ascii_lowercase() } else { 0 };
                assert_eq!(text.folded[i], folded);
            }
            assert_eq!(text.has_wide(), bytes.iter().any(|&b| b >= 0xE0));
            assert_eq!(text.next_digit(0), bytes.iter().position(u8::is_ascii_digit));
        }
    }

    #[test]
    fn lanes_classify_every_byte() {
        for b in 0..=255u8 {
            let lanes = alnum(u64::from_le_bytes([b, b'a', 0xff, b, b'0', b' ', b'Z', b]));
            let expect = |x: u8| if x.is_ascii_alphanumeric() { 0x80 } else { 0 };
            let want = u64::from_le_bytes([expect(b), 0x80, 0, expect(b), 0x80, 0, 0x80, expect(b)]);
            assert_eq!(lanes, want, "byte {b:#x}");
        }
    }

    #[test]
    fn token_runs_cross_blocks() {
        let mut bytes = vec![b' '; 300];
        bytes[10..200].fill(b'a');
        bytes[60] = b'_';
        bytes[250..260].fill(b'7');
        let text = Text::new(&bytes);
        for at in [10, 63, 64, 127, 128, 199] {
            assert_eq!(text.token_run(at), (10, 200));
        }
        assert_eq!(text.token_run(255), (250, 260));
        let long: Vec<(usize, usize)> = text.long_token_runs(25).collect();
        assert_eq!(long, vec![(10, 200)]);
        assert_eq!(text.long_token_runs(10).collect::<Vec<_>>(), vec![(10, 200), (250, 260)]);
        assert_eq!(text.next_digit(0), Some(250));
        assert_eq!(text.next_digit(260), None);
    }
}
