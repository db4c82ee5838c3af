//! One pass over the text that finds, at word starts, every context keyword and
//! every rule prefix.
//!
//! Keywords ("passport", "born", "Dr") gate the `Near` rules, and prefixes (`sk-`,
//! `ghp_`, `AKIA`) gate the `Prefix` rules; both begin where a word begins. The pass
//! finds word starts 64 bytes at a time (a letter or digit after a byte that is
//! neither, from the masks of [`Text`]) and asks hashed bit sets about them, with no
//! branch on an answer (a start's passing is unpredictable; they are gathered as a
//! mask of the block):
//!
//! - **the word's first segment**: its folded bytes up to the first byte that is not
//!   an ASCII letter or digit, at most eight. A keyword is a whole word, so the
//!   segment of a start where it begins is the keyword's own first segment, exactly:
//!   "the" passes only if some keyword's segment is "the", not because "theft" is
//!   one. A prefix with a `_`, `-` or `.` in its first eight bytes (`ghp_`, `sk-`,
//!   `xoxb-`) is known by its segment too.
//! - **the first three raw bytes**, for the prefixes that begin with a capital or a
//!   digit (`AKIA…`, `MzQ…`, `SG.`, `1//0`): case-sensitive, like the prefixes, and
//!   asked only at the starts with a capital or a digit (a mask of [`Text`]). Three
//!   raw bytes say more than a segment: `1/0` is not every `1-…`. A prefix that begins
//!   with a small letter and a capital (`dG9rO`, Intercom's base64 of `tok:`) is asked
//!   of the raw set too, at the starts whose second byte is a capital (a shift of the
//!   capitals' mask; rare in words: `iPhone`, `eBay`). Another prefix that begins
//!   with a small letter and goes on with letters or digits has no segment of its own
//!   and would be asked at every start; the catalog has none (a test holds it to
//!   that). A two-byte prefix (`AC`, `SK`) is entered once for every third byte.
//!
//! About 2.5 % of the starts of English text pass (keywords found, and hash
//! collisions) and only those are compared with the entries of their hash bucket.
//! Earlier versions keyed every start by three, then four, six and eight bytes in
//! turn: with hundreds of keywords, 17 % of English word starts passed the four-byte
//! test (`conf` for `confluent`, `data` for `datadog`), and each start paid for a
//! chain of lookups (BENCHMARKS.md §2, session 10).

use crate::engine::text::{fold, Text, ONES};

/// A keyword occurrence on word boundaries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Hit {
    pub word: usize,
    pub start: usize,
}
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    /// Case-insensitive, whole word (by [`crate::engine::text::is_word_byte`]): the keyword's id.
    Keyword(usize),
    /// Case-sensitive, followed by anything: the prefix rule's slot.
    Prefix(usize),
}

/// Which of the two sets an entry is keyed in.
const SEGMENT: usize = 0;
const RAW: usize = 1;

#[derive(Debug, Clone)]
struct Entry {
    /// The key in its set: the first segment, or the first three raw bytes.
    key: u64,
    set: usize,
    literal: Box<[u8]>,
    kind: Kind,
    /// A literal of at most eight bytes, as words to compare with eight bytes of the
    /// text at once ([`Short::matches`]); `None` for a longer one.
    short: Option<Short>,
}

/// A literal of at most eight bytes: its raw bytes, its folded bytes, and which of
/// them to compare.
#[derive(Debug, Clone, Copy)]
struct Short {
    raw: u64,
    folded: u64,
    /// All ones in the literal's bytes.
    mask: u64,
    /// All ones in the literal's bytes that are not ASCII letters or digits (they
    /// fold to 0 and are compared raw).
    other: u64,
}

impl Short {
    fn new(literal: &[u8]) -> Option<Short> {
        if literal.len() > 8 {
            return None;
        }
        let mut word = [0u8; 8];
        word.get_mut(..literal.len())?.copy_from_slice(literal);
        let raw = u64::from_le_bytes(word);
        let mask = if literal.len() == 8 { u64::MAX } else { (1u64 << (8 * literal.len())) - 1 };
        let (folded, lanes) = fold(raw);
        let alnum = ((lanes >> 7) & ONES) * 0xff;
        Some(Short { raw, folded, mask, other: mask & !alnum })
    }

    /// Whether the literal is at the eight bytes `raw` (and `folded`, the same folded)
    /// of a text: case-insensitively for a keyword, exactly for a prefix.
    #[inline(always)]
    fn matches(&self, raw: u64, folded: u64, exact: bool) -> bool {
        if exact {
            (raw ^ self.raw) & self.mask == 0
        } else {
            (folded ^ self.folded) & self.mask == 0 && (raw ^ self.raw) & self.other == 0
        }
    }
}

/// What one pass found: keyword hits in order of position, and for each prefix slot
/// the first word start where one of its prefixes begins.
#[derive(Debug, Default)]
pub(crate) struct Found {
    pub hits: Vec<Hit>,
    /// The prefix slots found and the first start of each, in the order found (a text
    /// has a few of the hundred-odd slots: nothing is kept for the others).
    pub firsts: Vec<(usize, usize)>,
    /// One bit per slot, set once it is in `firsts`; allocated at the first.
    seen: Vec<u64>,
}

impl Found {
    /// The first start of a prefix of `slot`, if any.
    pub fn first(&self, slot: usize) -> Option<usize> {
        let bit = self.seen.get(slot / 64).is_some_and(|w| w & (1 << (slot % 64)) != 0);
        bit.then(|| self.firsts.iter().find(|&&(s, _)| s == slot).map(|&(_, start)| start)).flatten()
    }

    /// Records `start` for `slot` unless the slot has a start already (`slots` in all).
    fn set_first(&mut self, slots: usize, slot: usize, start: usize) {
        if self.seen.is_empty() {
            self.seen = vec![0; slots.div_ceil(64)];
        }
        if let Some(word) = self.seen.get_mut(slot / 64) {
            if *word & (1 << (slot % 64)) == 0 {
                *word |= 1 << (slot % 64);
                self.firsts.push((slot, start));
            }
        }
    }
}

/// The hits grouped by keyword: for keyword `w`, its starts in order are
/// `starts[heads[w]..heads[w + 1]]` (a counting sort, stable). A rule near a few
/// keywords reads their lists, not every hit of the text.
pub(crate) fn by_word(hits: &[Hit]) -> (Vec<u32>, Vec<usize>) {
    let words = hits.iter().map(|h| h.word + 1).max().unwrap_or(0);
    let mut heads = vec![0u32; words + 1];
    for h in hits {
        if let Some(count) = heads.get_mut(h.word + 1) {
            *count += 1;
        }
    }
    for w in 1..heads.len() {
        let before = heads.get(w - 1).copied().unwrap_or(0);
        if let Some(head) = heads.get_mut(w) {
            *head += before;
        }
    }
    let mut next = heads.clone();
    let mut starts = vec![0usize; hits.len()];
    for h in hits {
        if let Some(at) = next.get_mut(h.word) {
            if let Some(slot) = starts.get_mut(*at as usize) {
                *slot = h.start;
            }
            *at += 1;
        }
    }
    (heads, starts)
}

/// The compiled keywords and prefixes of one engine.
#[derive(Debug, Clone)]
pub(crate) struct StartIndex {
    /// One bit per hashed key of each set ([`SEGMENT`], [`RAW`]): 2^[`BITS`] bits.
    bits: [Box<BitSet>; 2],
    /// Entries grouped by set and bucket (the top [`BUCKET_BITS`] of the hash): set
    /// `s`, bucket `b` holds `entries[heads[s][b]..heads[s][b + 1]]`.
    heads: [Vec<u32>; 2],
    entries: Vec<Entry>,
    /// Each entry's key, in the order of `entries`: a bucket's keys are read from here
    /// (eight bytes an entry, not a whole entry's).
    keys: Vec<u64>,
    slots: usize,
    /// Some open prefix begins with a small letter (and goes on with another): the raw
    /// set is asked at every start, not only at capitals and digits.
    raw_everywhere: bool,
    /// Some open prefix begins with a small letter and a capital (`dG9rO`, base64 of
    /// `tok:`): the raw set is asked at the starts whose second byte is a capital too.
    raw_second_capital: bool,
    /// Some entry of the segment set begins with a digit: the segment set is asked at
    /// every start, not only at letters (no keyword of the catalog begins with a
    /// digit, and a run of digits is a third of the starts of logs).
    segment_digits: bool,
}

const BUCKET_BITS: u32 = 10;
/// 2^17 bits (16 KiB) per set: with ~1,200 segment keys, under 1 % of the starts
/// that begin no entry pass by a collision.
const BITS: u32 = 17;

/// The first segment of eight folded bytes: the bytes before the first 0 (a byte
/// that is not an ASCII letter or digit), the rest 0.
#[inline(always)]
fn segment(eight: u64) -> u64 {
    // The high bit of the first zero byte (exact for the first; later ones may be
    // missed or false, which does not matter).
    let zero = eight.wrapping_sub(ONES) & !eight & (ONES << 7);
    let first = zero & zero.wrapping_neg();
    // No zero byte: `first` is 0 and the mask all ones.
    eight & (first >> 7).wrapping_sub(1)
}

/// The first eight bytes of `bytes`, letters folded to lower case and every byte that
/// is not an ASCII letter or digit (or past the end) read as 0: "St." and "st\n" begin
/// the same as the whole word "st".
fn folded(bytes: &[u8]) -> u64 {
    let mut word = [0u8; 8];
    let n = bytes.len().min(8);
    word.get_mut(..n).unwrap_or_default().copy_from_slice(bytes.get(..n).unwrap_or_default());
    fold(u64::from_le_bytes(word)).0
}

/// The first three bytes at `start` (fewer at the end of the text, the rest 0), as the
/// low bytes of a word.
#[inline(always)]
fn raw_three(text: &[u8], start: usize) -> u64 {
    match text.get(start..start + 3) {
        Some(&[a, b, c]) => u64::from(a) | u64::from(b) << 8 | u64::from(c) << 16,
        _ => {
            let mut word = [0u8; 8];
            let rest = text.get(start..).unwrap_or_default();
            let n = rest.len().min(3);
            word.get_mut(..n).unwrap_or_default().copy_from_slice(rest.get(..n).unwrap_or_default());
            u64::from_le_bytes(word)
        }
    }
}

/// The eight bytes at `j` (below 64) of a block's folded bytes and the next eight.
#[inline(always)]
fn eight_in(window: &[u8; 72], j: usize) -> u64 {
    match window.get(j..j + 8) {
        Some(&[a, b, c, d, e, f, g, h]) => u64::from_le_bytes([a, b, c, d, e, f, g, h]),
        _ => 0,
    }
}

/// Mixes a key (and its set); its top [`BITS`] bits index the bit set, the top
/// [`BUCKET_BITS`] the buckets.
#[inline(always)]
fn hash(key: u64, set: usize) -> u32 {
    ((key ^ (set as u64) << 60).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32) as u32
}

/// One hashed set's bits: an array of its fixed length, so that a lookup's index,
/// below it by construction, needs no bounds check in the scan loop.
type BitSet = [u64; 1 << (BITS - 6)];

/// Whether bit `h >> (32 - BITS)` is set in `bits` (0 or 1).
#[inline(always)]
fn bit(bits: &BitSet, h: u32) -> u64 {
    let at = h >> (32 - BITS);
    bits.get((at >> 6) as usize).map_or(0, |w| (w >> (at & 63)) & 1)
}

impl StartIndex {
    /// `keywords` by id, `prefixes` by slot. Every literal must begin with an ASCII
    /// letter or digit (the engine checks its inputs), and a prefix must be at least
    /// two bytes long; others are left out.
    pub fn new(keywords: &[String], prefixes: &[&[&[u8]]]) -> StartIndex {
        let mut entries = Vec::new();
        let mut raw_everywhere = false;
        let mut raw_second_capital = false;
        let mut add = |literal: &[u8], kind: Kind| {
            if !literal.first().is_some_and(u8::is_ascii_alphanumeric) {
                return;
            }
            let head = folded(literal);
            // A keyword is followed by a byte that folds to 0, so its first segment is
            // known; so is a prefix's that has such a byte in its first eight (or is
            // eight bytes long). Other prefixes go on with letters or digits.
            let n = literal.len().min(8);
            let closed = matches!(kind, Kind::Keyword(_))
                || literal.len() >= 8
                || head.to_le_bytes().get(..n).is_some_and(|b| b.contains(&0));
            // A prefix that begins with a capital or a digit is asked of the raw set
            // whether or not it goes on with letters: its three raw bytes say more than
            // its segment (`1/0` and `SG.` are not every `1-…` and `sg …`).
            let capital = literal.first().is_some_and(|b| b.is_ascii_uppercase() || b.is_ascii_digit());
            // One that begins with a small letter and a capital is asked where the
            // second byte is a capital (rare in words: `iPhone`, `eBay`).
            let second_capital = !capital && literal.get(1).is_some_and(u8::is_ascii_uppercase);
            let short = Short::new(literal);
            let mut push =
                |key: u64, set: usize| entries.push(Entry { key, set, literal: literal.into(), kind, short });
            if matches!(kind, Kind::Keyword(_)) || (closed && !capital && !second_capital) {
                push(segment(head), SEGMENT);
                return;
            }
            raw_everywhere |= !capital && !second_capital;
            raw_second_capital |= second_capital;
            match literal {
                [a, b] => (0..=255u8).for_each(|third| push(raw_three(&[*a, *b, third], 0), RAW)),
                _ => push(raw_three(literal, 0), RAW),
            }
        };
        for (id, word) in keywords.iter().enumerate() {
            add(word.as_bytes(), Kind::Keyword(id));
        }
        for (slot, literals) in prefixes.iter().enumerate() {
            for literal in literals.iter() {
                add(literal, Kind::Prefix(slot));
            }
        }
        let bucket = |e: &Entry| (hash(e.key, e.set) >> (32 - BUCKET_BITS)) as usize;
        entries.sort_by(|a, b| {
            (a.set, bucket(a), a.key, a.kind, &a.literal).cmp(&(b.set, bucket(b), b.key, b.kind, &b.literal))
        });
        entries.dedup_by(|a, b| a.set == b.set && a.key == b.key && a.literal == b.literal && a.kind == b.kind);
        let mut bits: [Box<BitSet>; 2] = std::array::from_fn(|_| Box::new([0u64; 1 << (BITS - 6)]));
        for e in &entries {
            let at = hash(e.key, e.set) >> (32 - BITS);
            if let Some(word) = bits.get_mut(e.set).and_then(|b| b.get_mut((at >> 6) as usize)) {
                *word |= 1 << (at & 63);
            }
        }
        // Entries are sorted by set, then bucket.
        let heads: [Vec<u32>; 2] = std::array::from_fn(|set| {
            (0..=1usize << BUCKET_BITS)
                .map(|b| entries.partition_point(|e| (e.set, bucket(e)) < (set, b)) as u32)
                .collect()
        });
        let segment_digits =
            entries.iter().any(|e| e.set == SEGMENT && e.literal.first().is_some_and(u8::is_ascii_digit));
        let keys = entries.iter().map(|e| e.key).collect();
        StartIndex {
            bits,
            heads,
            entries,
            keys,
            slots: prefixes.len(),
            raw_everywhere,
            raw_second_capital,
            segment_digits,
        }
    }

    /// Whether the raw set is asked at every start (some open prefix begins with a
    /// small letter).
    #[cfg(test)]
    pub fn raw_everywhere(&self) -> bool {
        self.raw_everywhere
    }

    pub fn find(&self, prepared: &Text<'_>) -> Found {
        let text = prepared.bytes();
        let mut found = Found::default();
        let (folded, masks) = (prepared.folded(), prepared.alnum_masks());
        let caps = if self.raw_everywhere { masks } else { prepared.caps_masks() };
        let digits = prepared.digit_masks();
        // The capitals (not digits) of a block, for the starts whose second byte is one.
        let upper = |block: usize| match (caps.get(block), digits.get(block)) {
            (Some(c), Some(d)) if self.raw_second_capital && !self.raw_everywhere => c & !d,
            _ => 0,
        };
        let [seg_bits, raw_bits] = &self.bits;
        // Which word starts of a block pass a set, as a mask (whether one passes is
        // unpredictable: no branch on it).
        // Bit 63 of the previous block's mask: its last byte is a letter or digit.
        let mut carry = 0u64;
        for (block, ((&mask, &caps), &digit)) in masks.iter().zip(caps).zip(digits).enumerate() {
            let starts = mask & !((mask << 1) | carry);
            carry = mask >> 63;
            let base = block * 64;
            // The block's folded bytes and the next eight (the folded text is padded
            // to hold them): a start's eight bytes are read from it with no bounds
            // check (an offset below 64, plus 8, is below 72).
            let Some(window) = folded.get(base..base + 72).and_then(|w| <&[u8; 72]>::try_from(w).ok()) else {
                break;
            };
            let mut seg_pass = 0u64;
            let mut each = if self.segment_digits { starts } else { starts & !digit };
            while each != 0 {
                let j = each.trailing_zeros();
                let seg = segment(eight_in(window, (j & 63) as usize));
                seg_pass |= bit(seg_bits, hash(seg, SEGMENT)) << j;
                each &= each - 1;
            }
            // Bit j: byte j + 1 is a capital (the next block's first byte for bit 63).
            let second = upper(block) >> 1 | upper(block + 1) << 63;
            let mut each = starts & (caps | second);
            let mut raw_pass = 0u64;
            while each != 0 {
                let j = each.trailing_zeros();
                let raw = raw_three(text, base + j as usize);
                raw_pass |= bit(raw_bits, hash(raw, RAW)) << j;
                each &= each - 1;
            }
            // In the order of the starts (a prefix slot's first start is the first found).
            let mut pass = seg_pass | raw_pass;
            while pass != 0 {
                let j = pass.trailing_zeros();
                let sets = [(seg_pass >> j) & 1 == 1, (raw_pass >> j) & 1 == 1];
                self.compare(text, base + j as usize, eight_in(window, j as usize), sets, &mut found);
                pass &= pass - 1;
            }
        }
        found
    }

    /// Compares the entries whose key the start has, in each set whose bit passed
    /// (`sets`, by [`SEGMENT`] and [`RAW`]), by their literals. Rare, so kept out of the
    /// scan loop. `eight` is the start's eight folded bytes.
    #[inline(never)]
    fn compare(&self, text: &[u8], start: usize, eight: u64, [segment_set, raw_set]: [bool; 2], found: &mut Found) {
        // The start's eight raw bytes, if the text has eight more: a literal of at most
        // eight is compared with them as words.
        let raw = match text.get(start..start + 8) {
            Some(&[a, b, c, d, e, f, g, h]) => Some(u64::from_le_bytes([a, b, c, d, e, f, g, h])),
            _ => None,
        };
        if segment_set {
            self.compare_in(SEGMENT, segment(eight), text, start, (eight, raw), found);
        }
        if raw_set {
            self.compare_in(RAW, raw_three(text, start), text, start, (eight, raw), found);
        }
    }

    /// [`StartIndex::compare`] in one set, whose key at the start is `key`.
    #[inline(always)]
    fn compare_in(
        &self,
        set: usize,
        key: u64,
        text: &[u8],
        start: usize,
        (eight, raw): (u64, Option<u64>),
        found: &mut Found,
    ) {
        let Some(heads) = self.heads.get(set) else { return };
        let bucket = (hash(key, set) >> (32 - BUCKET_BITS)) as usize;
        let (Some(&from), Some(&to)) = (heads.get(bucket), heads.get(bucket + 1)) else { return };
        let keys = self.keys.get(from as usize..to as usize).unwrap_or_default();
        for (at, _) in keys.iter().enumerate().filter(|&(_, &k)| k == key) {
            let Some(entry) = self.entries.get(from as usize + at) else { continue };
            let end = start + entry.literal.len();
            let exact = matches!(entry.kind, Kind::Prefix(_));
            let here = match (entry.short, raw) {
                (Some(short), Some(raw)) => short.matches(raw, eight, exact),
                _ => text.get(start..end).is_some_and(|here| match exact {
                    true => here == &*entry.literal,
                    false => here.eq_ignore_ascii_case(&entry.literal),
                }),
            };
            if !here {
                continue;
            }
            match entry.kind {
                Kind::Keyword(word) => {
                    if crate::engine::text::word_boundary(text, start, end) {
                        found.hits.push(Hit { word, start });
                    }
                }
                Kind::Prefix(slot) => found.set_first(self.slots, slot, start),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index() -> StartIndex {
        let keywords: Vec<String> = KEYWORDS.iter().map(|s| s.to_string()).collect();
        StartIndex::new(&keywords, PREFIXES)
    }

    const KEYWORDS: &[&str] = &["passport", "dr", "full name", "d.o.b", "x", "téléphone", "confidential"];
    /// Closed prefixes (`sk-`, `ghp_`: their first segment is theirs) and open ones
    /// (`AKIA`, `AC`: letters or digits go on after them); the last begins with a small
    /// letter, which makes the index ask its raw set at every start.
    /// `SG.` and `1/0` are closed but begin with a capital or a digit: asked of the raw
    /// set too.
    const PREFIXES: &[&[&[u8]]] =
        &[&[b"sk-"], &[b"ghp_", b"gho_"], &[b"AKIA", b"ASIA", b"0x1"], &[b"AC"], &[b"SG.", b"1/0"], &[b"eyJ"]];

    #[test]
    fn segments_end_at_the_first_zero_byte() {
        let seg = |s: &[u8]| segment(folded(s)).to_le_bytes();
        assert_eq!(&seg(b"sk-proj")[..], b"sk\0\0\0\0\0\0");
        assert_eq!(&seg(b"Passport1")[..], b"passport");
        assert_eq!(&seg(b"x")[..], b"x\0\0\0\0\0\0\0");
        assert_eq!(&seg(b"a.b.c")[..], b"a\0\0\0\0\0\0\0");
        assert_eq!(&seg(b"")[..], &[0u8; 8]);
    }

    /// The same answers by brute force: every position, the plain definitions.
    fn naive(text: &[u8], keywords: &[&str], prefixes: &[&[&[u8]]]) -> (Vec<Hit>, Vec<Option<usize>>) {
        let mut found = (Vec::new(), vec![None; prefixes.len()]);
        for start in 0..text.len() {
            for (word, k) in keywords.iter().enumerate() {
                let end = start + k.len();
                if text.get(start..end).is_some_and(|t| t.eq_ignore_ascii_case(k.as_bytes()))
                    && crate::engine::text::word_boundary(text, start, end)
                {
                    found.0.push(Hit { word, start });
                }
            }
            let word_start =
                text[start].is_ascii_alphanumeric() && (start == 0 || !text[start - 1].is_ascii_alphanumeric());
            for (slot, literals) in prefixes.iter().enumerate() {
                if word_start && found.1[slot].is_none() && literals.iter().any(|l| text[start..].starts_with(l)) {
                    found.1[slot] = Some(start);
                }
            }
        }
        found
    }

    #[test]
    fn keywords_whole_words_any_case_and_prefixes_at_word_starts() {
        let text = b"Passport no. 1; DR. Who; address: x; fullname; Full Name: y; D.O.B 1990; dry; mask-1 sk-abc _ghp_x \xc3\xa9gho_y Acc ACC AC1 AKIAX";
        let found = index().find(&Text::new(text));
        let words: Vec<(usize, &[u8])> = found.hits.iter().map(|h| (h.word, &text[h.start..h.start + 2])).collect();
        assert_eq!(words, vec![(0, &b"Pa"[..]), (1, b"DR"), (4, b"x;"), (2, b"Fu"), (3, b"D."), (4, b"x ")]);
        let sk = text.windows(3).rposition(|w| w == b"sk-").unwrap();
        // `mask-1` has `sk-` inside a word: not a start. `_ghp_` starts after `_`, a
        // word start for prefixes (regex `\b` decides), and `é` too.
        assert_eq!(found.first(0), Some(sk));
        assert_eq!(found.first(1), Some(text.windows(4).position(|w| w == b"ghp_").unwrap()));
        // Open prefixes are case-sensitive: `Acc` is not `AC`, `ACC` is.
        assert_eq!(found.first(3), Some(text.windows(3).position(|w| w == b"ACC").unwrap()));
        assert_eq!(found.first(2), Some(text.windows(5).position(|w| w == b"AKIAX").unwrap()));
        assert_eq!(found.first(4), None);
        assert_eq!(found.first(5), None);
    }

    #[test]
    fn agrees_with_brute_force_on_every_alignment() {
        // With every prefix (the raw set asked everywhere), and without the one that
        // begins with a small letter (asked at capitals and digits only).
        let keywords: Vec<String> = KEYWORDS.iter().map(|s| s.to_string()).collect();
        // And with prefixes that begin with a small letter and a capital (asked where
        // the second byte is a capital).
        let some = PREFIXES.get(..5).unwrap_or_default();
        let second: &[&[&[u8]]] = &[&[b"sk-"], &[b"dG9rO"], &[b"iP", b"AKIA"]];
        let indexes = [
            (index(), PREFIXES),
            (StartIndex::new(&keywords, some), some),
            (StartIndex::new(&keywords, second), second),
        ];
        assert!(indexes[0].0.raw_everywhere && !indexes[1].0.raw_everywhere && !indexes[2].0.raw_everywhere);
        assert!(indexes[2].0.raw_second_capital && !indexes[1].0.raw_second_capital);
        let base = b"1-0 1/0 sg.x SG.y 0x1f x DR dr. passportX passport; T\xc3\xa9l\xc3\xa9phone Full name ghp_1 sk-2 \xff x CONFIDENTIAL confidentiality ACe AKIA ASI eyJ eyj AC dG9rOj dG9ro xdG9rO iPhone ip iPdG9rO dG d-o-b d_o_b D.O.B. d.o.c sk_2 Sk-3 T\xc3\x89L\xc3\xa9PHONE PASSPORT Passports".to_vec();
        for shift in 0..16 {
            let mut text = b"ab c-".repeat(shift);
            text.extend_from_slice(&base);
            for cut in [text.len(), text.len() - 1, text.len() - 3] {
                let t = &text[..cut];
                for (index, prefixes) in &indexes {
                    let (a, b) = (index.find(&Text::new(t)), naive(t, KEYWORDS, prefixes));
                    // Each slot found once, in the order of its first start.
                    let slots: Vec<usize> = a.firsts.iter().map(|&(slot, _)| slot).collect();
                    let mut in_order = slots.clone();
                    in_order.sort_by_key(|&slot| a.first(slot));
                    assert_eq!(slots, in_order, "shift {shift} cut {cut}");
                    let first: Vec<Option<usize>> = (0..prefixes.len()).map(|slot| a.first(slot)).collect();
                    assert_eq!((a.hits, first), b, "shift {shift} cut {cut}");
                }
            }
        }
    }

    /// A literal of at most eight bytes compared as words says what the byte-wise
    /// comparison says: case-insensitively for a keyword (letters folded, every other
    /// byte exact), exactly for a prefix; on texts made of the literal's own bytes in
    /// both cases, and of bytes that fold alike (`.` `-` `_` ` ` all fold to 0).
    #[test]
    fn short_literals_compare_as_words_like_byte_by_byte() {
        let alphabet = b"aAbBzZ09.-_ \xc3\xa9\x89";
        let mut seed = 0x5eed_u64;
        let mut next = |n: usize| {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) as usize % n
        };
        let (mut same, mut differ) = (0, 0);
        for _ in 0..200_000 {
            let len = 1 + next(8);
            let literal: Vec<u8> = (0..len).map(|_| alphabet[next(alphabet.len())]).collect();
            // A text that begins with the literal, then changes some of its bytes.
            let mut text: Vec<u8> = literal.clone();
            text.extend((0..8 - len).map(|_| alphabet[next(alphabet.len())]));
            for _ in 0..next(3) {
                let at = next(8);
                text[at] = alphabet[next(alphabet.len())];
            }
            let short = Short::new(&literal).unwrap();
            let raw = u64::from_le_bytes(text.clone().try_into().unwrap());
            let folded = fold(raw).0;
            for exact in [true, false] {
                let want = match exact {
                    true => text[..len] == literal[..],
                    false => text[..len].eq_ignore_ascii_case(&literal),
                };
                assert_eq!(short.matches(raw, folded, exact), want, "{literal:?} {text:?} {exact}");
                if want {
                    same += 1;
                } else {
                    differ += 1;
                }
            }
        }
        assert!(same > 50_000 && differ > 50_000, "{same} {differ}");
        assert!(Short::new(b"ninebytes").is_none());
    }

    #[test]
    fn hits_grouped_by_word_keep_their_order() {
        let hits = [(2, 5), (0, 7), (2, 9), (5, 11), (0, 20)].map(|(word, start)| Hit { word, start });
        let (heads, starts) = by_word(&hits);
        let of = |w: usize| starts[heads[w] as usize..heads[w + 1] as usize].to_vec();
        assert_eq!((of(0), of(1), of(2), of(5)), (vec![7, 20], vec![], vec![5, 9], vec![11]));
        assert_eq!(heads.len(), 7, "a head per word up to the last one hit, and one past it");
        assert_eq!(by_word(&[]), (vec![0], vec![]));
    }
}
