//! The built-in name table: about 66,000 folded given names and surnames (with their
//! ASCII spellings) compiled by `build.rs` from `data/names/`, probed once per
//! capitalised word — one hash, one bucket of about eight 16-bit fingerprints.
//!
//! Layout (little endian): bucket bits (u32), entry count n (u32), 2^bits + 1 bucket
//! starts (u32), n fingerprints (u16, sorted within a bucket), n four-bit flags (two a
//! byte, low nibble first).

#[cfg(test)]
use crate::finders::namehash::name_hash;
use crate::finders::namehash::{name_hash_chunk, name_hash_end, name_hash_start};

static TABLE: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/names.bin"));

/// What the table knows of a word.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct NameFlags(u8);

impl NameFlags {
    /// Given-name frequency class: 0 not a given name, 1 rare, 2 common, 3 very common.
    pub(crate) fn given(self) -> u8 {
        self.0 & 0b0011
    }
    pub(crate) fn surname(self) -> bool {
        self.0 & 0b0100 != 0
    }
    /// Also a common word, a place or a product: counts only with context or beside a
    /// name that is not.
    pub(crate) fn common_word(self) -> bool {
        self.0 & 0b1000 != 0
    }
    pub(crate) fn known(self) -> bool {
        self.given() > 0 || self.surname()
    }
    pub(crate) fn with(self, other: NameFlags) -> NameFlags {
        NameFlags(self.0 | other.0)
    }
    pub(crate) fn without_common(self) -> NameFlags {
        NameFlags(self.0 & !0b1000)
    }
    pub(crate) fn new(given: u8, surname: bool, common: bool) -> NameFlags {
        NameFlags((given & 3) | u8::from(surname) << 2 | u8::from(common) << 3)
    }
}

fn u32_at(at: usize) -> Option<u32> {
    let b = TABLE.get(at..at + 4)?;
    Some(u32::from_le_bytes([b.first().copied()?, b.get(1).copied()?, b.get(2).copied()?, b.get(3).copied()?]))
}

/// Folds a word as `build.rs` folded the lists: lower case, apostrophes dropped (`İ`
/// to `i`). `None` for a word longer than the buffer, or not UTF-8.
///
/// Letters up to U+017F (ASCII, Latin-1, Latin Extended-A: the names of Western and
/// Central Europe and Turkey) are lowered here by their code charts' regular pattern;
/// a word with any other character goes through [`fold_unicode`] (a test holds the two
/// to the same result for every character up to U+017F). Decoding each word with
/// `from_utf8` and lowering it through the Unicode tables was a sixth of the name
/// matcher's time in prose.
pub(crate) fn fold<'a>(word: &[u8], buf: &'a mut [u8; 64]) -> Option<&'a [u8]> {
    fold_hashed(word, buf).map(|(folded, _)| folded)
}

/// [`fold`], and the folded word's hash ([`name_hash`](crate::finders::namehash::name_hash)):
/// the matcher probes its tables with the hash of each word it folds.
pub(crate) fn fold_hashed<'a>(word: &[u8], buf: &'a mut [u8; 64]) -> Option<(&'a [u8], u64)> {
    let n = fold_latin(word, buf)?.len();
    // Hashed in the buffer, eight bytes a load (it holds 64 bytes, so every load of a
    // chunk that begins inside the word is in bounds).
    let mut h = name_hash_start(n);
    for (i, chunk) in buf.chunks_exact(8).enumerate().take(n.div_ceil(8)) {
        let eight = <[u8; 8]>::try_from(chunk).ok()?;
        h = name_hash_chunk(h, u64::from_le_bytes(eight) & keep(n - i * 8));
    }
    Some((buf.get(..n)?, name_hash_end(h)))
}

/// The mask of a chunk's first `n` bytes (all eight from `n` = 8 on).
fn keep(n: usize) -> u64 {
    u64::MAX.checked_shr(8 * 8usize.saturating_sub(n) as u32).unwrap_or(0)
}

/// [`fold_hashed`] of `text[start..end]`, given the text's folded copy `copy`
/// ([`Text::folded`](crate::engine::text::Text::folded): ASCII letters lowered, digits kept,
/// any other byte 0, eight bytes of padding). A word of ASCII letters (most words) is
/// that copy already: it is hashed there, eight bytes at a time, and not copied. Any
/// other word (a 0 in the copy) is folded into `buf`.
pub(crate) fn fold_hashed_at<'a>(
    text: &[u8],
    copy: &'a [u8],
    (start, end): (usize, usize),
    buf: &'a mut [u8; 64],
) -> Option<(&'a [u8], u64)> {
    if let Some(h) = hash_copied(copy, start, end) {
        return Some((copy.get(start..end)?, h));
    }
    fold_hashed(text.get(start..end)?, buf)
}

/// The hash ([`name_hash`](crate::finders::namehash::name_hash)) of `copy[start..end]` if it
/// holds no 0 byte and is at most 64 bytes long (what [`fold`] takes): each chunk of
/// eight is one load, the bytes past `end` masked off.
fn hash_copied(copy: &[u8], start: usize, end: usize) -> Option<u64> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let len = end.checked_sub(start).filter(|&n| n <= 64)?;
    let mut h = name_hash_start(len);
    let mut at = start;
    while at < end {
        let eight = <[u8; 8]>::try_from(copy.get(at..at + 8)?).ok()?;
        let keep = keep(end - at);
        let x = u64::from_le_bytes(eight) & keep;
        // A 0 byte among the kept ones (those past `end` count as 0xFF here).
        let probe = x | !keep;
        if probe.wrapping_sub(ONES) & !probe & HIGH != 0 {
            return None;
        }
        h = name_hash_chunk(h, x);
        at += 8;
    }
    Some(name_hash_end(h))
}

/// [`fold`]: letters up to U+017F by their code charts, and a word with any other
/// character through [`fold_unicode`].
fn fold_latin<'a>(word: &[u8], buf: &'a mut [u8; 64]) -> Option<&'a [u8]> {
    let mut n = 0;
    let mut i = 0;
    while let Some(&b) = word.get(i) {
        if b < 0x80 {
            if b != b'\'' {
                *buf.get_mut(n)? = b.to_ascii_lowercase();
                n += 1;
            }
            i += 1;
            continue;
        }
        let lowered = word
            .get(i + 1)
            .filter(|&&c| (0xC2..=0xC5).contains(&b) && c & 0xC0 == 0x80)
            .and_then(|&c| latin_lower(u32::from(b & 0x1F) << 6 | u32::from(c & 0x3F)));
        let Some(lower) = lowered else {
            return fold_unicode(word, buf);
        };
        if lower < 0x80 {
            *buf.get_mut(n)? = lower as u8;
            n += 1;
        } else {
            *buf.get_mut(n)? = 0xC0 | (lower >> 6) as u8;
            *buf.get_mut(n + 1)? = 0x80 | (lower & 0x3F) as u8;
            n += 2;
        }
        i += 2;
    }
    buf.get(..n)
}

/// The lower case of a code point from U+0080 to U+017F, as `char::to_lowercase` has
/// it (one character each; `İ` to `i` as [`fold`] wants); `None` above.
fn latin_lower(cp: u32) -> Option<u32> {
    Some(match cp {
        // Latin-1 capitals À–Þ but ×; its other characters are lower case or no letter.
        0xC0..=0xDE if cp != 0xD7 => cp + 0x20,
        0x80..=0xFF => cp,
        0x130 => u32::from(b'i'),
        // Extended-A: capital and small letter in pairs, the capital first, even until
        // U+0137 and from U+014A, odd between (U+0139–U+0148) and after Ÿ (U+0179–U+017E).
        0x100..=0x137 | 0x14A..=0x177 => cp | 1,
        0x139..=0x148 | 0x179..=0x17E if cp & 1 == 1 => cp + 1,
        0x178 => 0xFF,
        0x138..=0x17F => cp,
        _ => return None,
    })
}

/// [`fold`] for any text: each character through `char::to_lowercase`.
fn fold_unicode<'a>(word: &[u8], buf: &'a mut [u8; 64]) -> Option<&'a [u8]> {
    let mut n = 0;
    let text = std::str::from_utf8(word).ok()?;
    for c in text.chars() {
        if c == '\'' || c == '\u{2019}' {
            continue;
        }
        let lower = if c == '\u{130}' { 'i' } else { c };
        for l in lower.to_lowercase() {
            let mut tmp = [0u8; 4];
            for &b in l.encode_utf8(&mut tmp).as_bytes() {
                *buf.get_mut(n)? = b;
                n += 1;
            }
        }
    }
    buf.get(..n)
}

/// The flags of a folded word, or empty flags if the table does not hold it.
#[cfg(test)]
pub(crate) fn lookup(folded: &[u8]) -> NameFlags {
    probe(name_hash(folded)).unwrap_or_default()
}

/// [`lookup`] by the word's hash ([`name_hash`](crate::finders::namehash::name_hash)), for a
/// caller that needs the hash for its own tables too.
pub(crate) fn lookup_hash(h: u64) -> NameFlags {
    probe(h).unwrap_or_default()
}

fn probe(h: u64) -> Option<NameFlags> {
    let bits = u32_at(0)?;
    let n = usize::try_from(u32_at(4)?).ok()?;
    let buckets = 1usize << bits;
    let bucket = usize::try_from(h >> (64 - bits)).ok()?;
    let fp = h as u16;
    let starts = 8;
    let fps = starts + (buckets + 1) * 4;
    let flags = fps + n * 2;
    let from = usize::try_from(u32_at(starts + bucket * 4)?).ok()?;
    let to = usize::try_from(u32_at(starts + (bucket + 1) * 4)?).ok()?;
    for i in from..to {
        let b = TABLE.get(fps + i * 2..fps + i * 2 + 2)?;
        let got = u16::from_le_bytes([b.first().copied()?, b.get(1).copied()?]);
        if got == fp {
            let nibble = TABLE.get(flags + i / 2)? >> ((i & 1) * 4) & 0x0f;
            return Some(NameFlags(nibble));
        }
        if got > fp {
            break;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::text::Text;

    fn flags(word: &str) -> NameFlags {
        let mut buf = [0u8; 64];
        lookup(fold(word.as_bytes(), &mut buf).unwrap())
    }

    #[test]
    fn names_and_their_ascii_spellings_are_found() {
        for given in ["Maria", "Łukasz", "Lukasz", "Sören", "Soeren", "Soren", "Ayşe", "Ayse", "João", "Joao", "Priya"]
        {
            assert!(flags(given).given() > 0, "{given}");
        }
        for surname in ["Müller", "Mueller", "Muller", "Garcia", "O'Brien", "Nowak", "Yılmaz", "Yilmaz"] {
            assert!(flags(surname).surname(), "{surname}");
        }
        for word in ["Will", "Mark", "Rose", "Price", "Grant", "King", "Young", "Long"] {
            assert!(flags(word).common_word(), "{word}");
        }
        for word in ["Kubernetes", "Zzyzx", "Deployment", "Quarterly"] {
            assert!(!flags(word).known(), "{word}");
        }
    }

    #[test]
    fn the_latin_fast_path_folds_as_the_unicode_tables_do() {
        let (mut a, mut b) = ([0u8; 64], [0u8; 64]);
        for c in (0..=0x17F).filter_map(char::from_u32) {
            for word in [format!("{c}"), format!("A{c}b"), format!("{c}{c}\u{2019}x"), format!("{c}\u{3A3}")] {
                let fast = fold_hashed(word.as_bytes(), &mut a).map(|(f, h)| (f.to_vec(), h));
                let slow = fold_unicode(word.as_bytes(), &mut b).map(|f| (f.to_vec(), name_hash(f)));
                assert_eq!(fast, slow, "U+{:04X}", c as u32);
            }
        }
        // Not UTF-8: a lead byte without its continuation, a lone continuation, an
        // overlong form.
        for bad in [&b"M\xC3"[..], b"M\xC3A", b"\x80abc", b"\xC0\xAF", b"\xC5\xC5"] {
            assert_eq!(fold(bad, &mut a), None, "{bad:?}");
        }
        // Sixty-four bytes fold; sixty-five do not, however they are spelt.
        assert_eq!(fold("é".repeat(32).as_bytes(), &mut a).map(<[u8]>::len), Some(64));
        assert_eq!(fold(format!("{}a", "É".repeat(32)).as_bytes(), &mut a), None);
    }

    #[test]
    fn words_hashed_in_the_folded_copy_are_the_words_folded_one_by_one() {
        let mut buf = [0u8; 64];
        let mut words: Vec<Vec<u8>> = Vec::new();
        // Every ASCII byte at the start, middle and end of words of every length up to
        // the buffer's and one more; words with letters beyond ASCII and apostrophes.
        for byte in 0u8..0x80 {
            for len in [1, 7, 8, 9, 15, 16, 17, 63, 64, 65] {
                for at in [0, len / 2, len - 1] {
                    let mut word = vec![b'Q'; len];
                    word[at] = byte;
                    words.push(word);
                }
            }
        }
        for word in ["Müller", "O'Brien", "Anna-Lena", "ÉMILE", "Łukasz", "mAcDoNaLd", "x"] {
            words.push(word.as_bytes().to_vec());
        }
        for word in &words {
            // The word at the text's start and at its end (where the copy's padding
            // is read), with a space and a letter on either side.
            for (before, after) in [(&b""[..], &b""[..]), (b" a", b"b "), (b"Z", b"")] {
                let text = [before, word.as_slice(), after].concat();
                let span = (before.len(), before.len() + word.len());
                let prepared = Text::new(&text);
                let mut a = [0u8; 64];
                let got = fold_hashed_at(&text, prepared.folded(), span, &mut a).map(|(f, h)| (f.to_vec(), h));
                let expected = fold_hashed(word, &mut buf).map(|(f, h)| (f.to_vec(), h));
                assert_eq!(got, expected, "{word:?} in {text:?}");
            }
        }
        // An empty span, and one past the text, fold as the slices would.
        let prepared = Text::new(b"Anna");
        assert_eq!(fold_hashed_at(b"Anna", prepared.folded(), (2, 2), &mut buf), Some((&b""[..], name_hash(b""))));
        assert_eq!(fold_hashed_at(b"Anna", prepared.folded(), (2, 9), &mut buf), None);
        // Words that differ in one byte of a chunk, or only in length, hash apart.
        let hashes: std::collections::HashSet<u64> =
            ["anna", "anne", "annas", "anna\0", "annabella", "annabelle", "a", "b", ""]
                .iter()
                .map(|w| name_hash(w.as_bytes()))
                .collect();
        assert_eq!(hashes.len(), 9);
    }

    #[test]
    fn long_words_do_not_fold() {
        let mut buf = [0u8; 64];
        assert!(fold(&[b'a'; 65], &mut buf).is_none());
        assert_eq!(fold(b"O'Brien", &mut buf).unwrap(), b"obrien");
        assert_eq!(fold("İpek".as_bytes(), &mut buf).unwrap(), "ipek".as_bytes());
    }
}
