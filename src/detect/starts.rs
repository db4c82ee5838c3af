//! One pass over the text that finds, at word starts, every context keyword and
//! every rule prefix.
//!
//! Keywords ("passport", "born", "Dr") gate the `Near` rules, and prefixes (`sk-`,
//! `ghp_`, `AKIA`) gate the `Prefix` rules; both begin where a word begins. The pass
//! finds word starts eight bytes at a time (a letter or digit after a byte that is
//! neither), then tests the start's first three bytes, case-folded, against a hashed
//! bit set of the keys the entries begin with. English words share their first two
//! letters with some keyword far too often ("the" and "this is"); three leave few false
//! hits, and only those are compared with the entries of their hash bucket. This
//! replaced a case-insensitive Aho-Corasick pass over every byte plus one substring
//! search per prefix rule; with it, a chat text is scanned 1.3–2× faster in V8
//! (BENCHMARKS.md §2).

use super::text::{fold, Text};

/// A keyword occurrence on word boundaries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Hit {
    pub word: usize,
    pub start: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    /// Case-insensitive, whole word (by [`super::is_word_byte`]): the keyword's id.
    Keyword(usize),
    /// Case-sensitive, followed by anything: the prefix rule's slot.
    Prefix(usize),
}

#[derive(Debug, Clone)]
struct Entry {
    /// The first [`WIDTH`] bytes of the literal's tier, folded (see [`folded`]).
    key: u64,
    tier: usize,
    /// The literal's first eight bytes folded (fewer if it is shorter, the rest 0), and
    /// the mask of those bytes: a start whose folded bytes differ is not this entry,
    /// found without reading the literal.
    head: u64,
    head_mask: u64,
    literal: Box<[u8]>,
    kind: Kind,
}

/// What one pass found: keyword hits in order of position, and for each prefix slot
/// the first word start where one of its prefixes begins.
#[derive(Debug, Default)]
pub(crate) struct Found {
    pub hits: Vec<Hit>,
    pub first: Vec<Option<usize>>,
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
    /// For each tier of entries by length ([`tier`]), one bit per hashed key (16 bits
    /// of [`hash`]) of its entries: the first [`WIDTH`] bytes of the tier, folded.
    /// With hundreds of keywords, three bytes pass a quarter of English word starts
    /// (`con`, `cal`, `pag`), and even four pass many (`roll` for `rollbar`, `conf`
    /// for `confluent`, `data` for `datadog`); a longer entry is keyed by more bytes.
    bits: [Box<[u64; BIT_WORDS]>; TIERS],
    /// One bit per hashed four-byte key of every entry of four bytes or more: the
    /// first test for the long tiers, so that a start that begins none of them (most)
    /// costs two bit tests, not four.
    long: Box<[u64; BIT_WORDS]>,
    /// Entries grouped by bucket (the top [`BUCKET_BITS`] of the hash): bucket `b`'s
    /// are `entries[heads[b]..heads[b + 1]]`.
    heads: Vec<u16>,
    entries: Vec<Entry>,
    slots: usize,
}

const BUCKET_BITS: u32 = 10;
/// 2^16 bits.
const BIT_WORDS: usize = 1024;

/// Tiers of entries by length: up to 3 bytes, 4–5, 6–7, 8 and more.
const TIERS: usize = 4;
/// The salt of [`StartIndex::long`]'s hash (the tiers use their index).
const LONG: usize = TIERS;
/// How many bytes key an entry of each tier.
const WIDTH: [u32; TIERS] = [3, 4, 6, 8];

/// The tier of a literal of `len` bytes.
fn tier(len: usize) -> usize {
    match len {
        0..=3 => 0,
        4..=5 => 1,
        6..=7 => 2,
        _ => 3,
    }
}

/// The first [`WIDTH`] bytes of tier `t` of eight folded bytes.
#[inline(always)]
fn key_of(eight: u64, t: usize) -> u64 {
    match WIDTH.get(t) {
        Some(&w) if w < 8 => eight & ((1u64 << (8 * w)) - 1),
        _ => eight,
    }
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

/// The eight bytes at `start` in a folded text (see [`Text`]; it is padded so
/// that they are always there).
#[inline(always)]
fn folded_eight(folded: &[u8], start: usize) -> u64 {
    match folded.get(start..start + 8) {
        Some(&[a, b, c, d, e, f, g, h]) => u64::from_le_bytes([a, b, c, d, e, f, g, h]),
        _ => 0,
    }
}

/// Mixes a key (and its tier); its top 16 bits index the bit set, the top
/// [`BUCKET_BITS`] the buckets.
#[inline(always)]
fn hash(key: u64, tier: usize) -> u32 {
    ((key ^ tier as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32) as u32
}

impl StartIndex {
    /// `keywords` by id, `prefixes` by slot. Every literal must begin with an ASCII
    /// letter or digit (the engine checks its inputs), and a prefix must be at least
    /// two bytes long; others are left out.
    pub fn new(keywords: &[String], prefixes: &[&[&[u8]]]) -> StartIndex {
        let mut entries = Vec::new();
        // Bytes a key can hold: 0, the digits and the folded letters.
        let keyed: Vec<u8> = std::iter::once(0u8).chain(b'0'..=b'9').chain(b'a'..=b'z').collect();
        let mut add = |literal: &[u8], kind: Kind| {
            if !literal.first().is_some_and(u8::is_ascii_alphanumeric) {
                return;
            }
            let n = literal.len().min(8);
            let head_mask = if n == 8 { u64::MAX } else { (1u64 << (8 * n)) - 1 };
            let head = folded(literal) & head_mask;
            let t = tier(literal.len());
            let mut push = |key: u64| entries.push(Entry { key, tier: t, head, head_mask, literal: literal.into(), kind });
            match (kind, literal.len()) {
                // A whole word of two bytes is followed by a byte that reads as 0;
                // longer literals have all the bytes of their tier's key.
                (Kind::Keyword(_), 2) | (_, 3..) => push(key_of(head, t)),
                // A one-byte word, or a two-byte prefix, goes on with any byte: one
                // key for each byte a key can hold there.
                (Kind::Keyword(_), 1) | (Kind::Prefix(_), 2) => {
                    for &third in &keyed {
                        push(key_of(head, 0) | (u64::from(third) << 16));
                    }
                }
                _ => {}
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
        let bucket = |e: &Entry| (hash(e.key, e.tier) >> (32 - BUCKET_BITS)) as usize;
        entries.sort_by(|a, b| (bucket(a), a.key, &a.literal, a.kind).cmp(&(bucket(b), b.key, &b.literal, b.kind)));
        entries.dedup_by(|a, b| a.key == b.key && a.literal == b.literal && a.kind == b.kind);
        let mut bits: [Box<[u64; BIT_WORDS]>; TIERS] = std::array::from_fn(|_| Box::new([0u64; BIT_WORDS]));
        let mut heads = vec![0u16; (1 << BUCKET_BITS) + 1];
        let mut long = Box::new([0u64; BIT_WORDS]);
        for e in &entries {
            if e.tier > 0 {
                let at = (hash(key_of(e.head, 1), LONG) >> 16) as usize;
                if let Some(word) = long.get_mut(at >> 6) {
                    *word |= 1 << (at & 63);
                }
            }
            let at = (hash(e.key, e.tier) >> 16) as usize;
            if let Some(word) = bits.get_mut(e.tier).and_then(|b| b.get_mut(at >> 6)) {
                *word |= 1 << (at & 63);
            }
            // Counted one bucket up, then summed: heads[b] = entries before bucket b.
            if let Some(head) = heads.get_mut(bucket(e) + 1) {
                *head = head.saturating_add(1);
            }
        }
        for b in 1..heads.len() {
            let before = heads.get(b - 1).copied().unwrap_or(0);
            if let Some(head) = heads.get_mut(b) {
                *head = head.saturating_add(before);
            }
        }
        StartIndex { bits, long, heads, entries, slots: prefixes.len() }
    }

    pub fn find(&self, prepared: &Text<'_>) -> Found {
        let text = prepared.bytes();
        let mut found = Found { hits: Vec::new(), first: vec![None; self.slots] };
        let (folded, masks) = (prepared.folded(), prepared.alnum_masks());
        // Word starts whose key is in the bit set, gathered without a branch per start
        // (whether a key passes is unpredictable), then compared.
        let mut passed = [0usize; 64];
        // Bit 63 of the previous block's mask: its last byte is a letter or digit.
        let mut carry = 0u64;
        for (block, &mask) in masks.iter().enumerate() {
            let mut starts = mask & !((mask << 1) | carry);
            carry = mask >> 63;
            let base = block * 64;
            let mut n = 0;
            while starts != 0 {
                let start = base + starts.trailing_zeros() as usize;
                if let Some(slot) = passed.get_mut(n) {
                    *slot = start;
                }
                n += usize::from(self.may_begin(folded_eight(folded, start)));
                starts &= starts - 1;
            }
            for &start in passed.get(..n).unwrap_or_default() {
                self.compare(text, start, folded_eight(folded, start), &mut found);
            }
        }
        found
    }

    /// Whether some entry may begin with these eight folded bytes: the key of some
    /// tier is in its bit set (false positives are rare).
    #[inline(always)]
    fn may_begin(&self, eight: u64) -> bool {
        let [a, b, c, d] = &self.bits;
        let four = key_of(eight, 1);
        bit(a, hash(key_of(eight, 0), 0))
            || (bit(&self.long, hash(four, LONG)) && (bit(b, hash(four, 1)) || bit(c, hash(key_of(eight, 2), 2)) || bit(d, hash(eight, 3))))
    }

    /// Compares the entries that begin with the folded bytes at `start` (`eight` of
    /// them): those of each tier whose key passes, by their folded heads, then byte by
    /// byte. Rare, so kept out of the scan loop.
    #[inline(never)]
    fn compare(&self, text: &[u8], start: usize, eight: u64, found: &mut Found) {
        for (t, bits) in self.bits.iter().enumerate() {
            let key = key_of(eight, t);
            let h = hash(key, t);
            if !bit(bits, h) {
                continue;
            }
            let bucket = (h >> (32 - BUCKET_BITS)) as usize;
            let (Some(&from), Some(&to)) = (self.heads.get(bucket), self.heads.get(bucket + 1)) else { continue };
            let entries = self.entries.get(usize::from(from)..usize::from(to)).unwrap_or_default();
            for entry in entries.iter().filter(|e| e.key == key && e.tier == t && eight & e.head_mask == e.head) {
                let end = start + entry.literal.len();
                let Some(here) = text.get(start..end) else { continue };
                match entry.kind {
                    Kind::Keyword(word) => {
                        if here.eq_ignore_ascii_case(&entry.literal) && super::word_boundary(text, start, end) {
                            found.hits.push(Hit { word, start });
                        }
                    }
                    Kind::Prefix(slot) => {
                        if here == &*entry.literal {
                            if let Some(first @ None) = found.first.get_mut(slot) {
                                *first = Some(start);
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Whether bit `h >> 16` is set in `bits`.
#[inline(always)]
fn bit(bits: &[u64; BIT_WORDS], h: u32) -> bool {
    let at = h >> 16;
    // 1024 words of 64 bits: `at >> 6` is always in range.
    bits.get((at >> 6) as usize & (BIT_WORDS - 1)).is_some_and(|w| (w >> (at & 63)) & 1 == 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index() -> StartIndex {
        let keywords: Vec<String> = ["passport", "dr", "full name", "d.o.b", "x"].iter().map(|s| s.to_string()).collect();
        StartIndex::new(&keywords, &[&[b"sk-"], &[b"ghp_", b"gho_"]])
    }

    /// The same answers by brute force: every position, the plain definitions.
    fn naive(text: &[u8], keywords: &[&str], prefixes: &[&[&[u8]]]) -> Found {
        let mut found = Found { hits: Vec::new(), first: vec![None; prefixes.len()] };
        for start in 0..text.len() {
            for (word, k) in keywords.iter().enumerate() {
                let end = start + k.len();
                if text.get(start..end).is_some_and(|t| t.eq_ignore_ascii_case(k.as_bytes()))
                    && super::super::word_boundary(text, start, end)
                {
                    found.hits.push(Hit { word, start });
                }
            }
            let word_start = text[start].is_ascii_alphanumeric() && (start == 0 || !text[start - 1].is_ascii_alphanumeric());
            for (slot, literals) in prefixes.iter().enumerate() {
                if word_start && found.first[slot].is_none() && literals.iter().any(|l| text[start..].starts_with(l)) {
                    found.first[slot] = Some(start);
                }
            }
        }
        found
    }

    #[test]
    fn keywords_whole_words_any_case_and_prefixes_at_word_starts() {
        let text = b"Passport no. 1; DR. Who; address: x; fullname; Full Name: y; D.O.B 1990; dry; mask-1 sk-abc _ghp_x \xc3\xa9gho_y";
        let found = index().find(&Text::new(text));
        let words: Vec<(usize, &[u8])> = found.hits.iter().map(|h| (h.word, &text[h.start..h.start + 2])).collect();
        assert_eq!(
            words,
            vec![(0, &b"Pa"[..]), (1, b"DR"), (4, b"x;"), (2, b"Fu"), (3, b"D."), (4, b"x ")]
        );
        let sk = text.windows(3).rposition(|w| w == b"sk-").unwrap();
        // `mask-1` has `sk-` inside a word: not a start. `_ghp_` starts after `_`, a
        // word start for prefixes (regex `\b` decides), and `é` too.
        assert_eq!(found.first[0], Some(sk));
        assert_eq!(found.first[1], Some(text.windows(4).position(|w| w == b"ghp_").unwrap()));
    }

    #[test]
    fn agrees_with_brute_force_on_every_alignment() {
        let keywords = ["passport", "dr", "full name", "d.o.b", "x"];
        let prefixes: &[&[&[u8]]] = &[&[b"sk-"], &[b"ghp_", b"gho_"]];
        let index = index();
        let base = b"x DR dr. passportX passport; Full name ghp_1 sk-2 \xff x".to_vec();
        for shift in 0..16 {
            let mut text = b"ab c-".repeat(shift);
            text.extend_from_slice(&base);
            for cut in [text.len(), text.len() - 1, text.len() - 3] {
                let t = &text[..cut];
                let (a, b) = (index.find(&Text::new(t)), naive(t, &keywords, prefixes));
                assert_eq!((a.hits, a.first), (b.hits, b.first), "shift {shift} cut {cut}");
            }
        }
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
