//! The built-in name table: about 66,000 folded given names and surnames (with their
//! ASCII spellings) compiled by `build.rs` from `data/names/`, probed once per
//! capitalised word — one hash, one bucket of about eight 16-bit fingerprints.
//!
//! Layout (little endian): bucket bits (u32), entry count n (u32), 2^bits + 1 bucket
//! starts (u32), n fingerprints (u16, sorted within a bucket), n four-bit flags (two a
//! byte, low nibble first).

use super::namehash::name_hash;

static TABLE: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/names.bin"));

/// What the table knows of a word.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct NameFlags(u8);

impl NameFlags {
    /// Given-name frequency class: 0 not a given name, 1 rare, 2 common, 3 very common.
    pub(super) fn given(self) -> u8 {
        self.0 & 0b0011
    }
    pub(super) fn surname(self) -> bool {
        self.0 & 0b0100 != 0
    }
    /// Also a common word, a place or a product: counts only with context or beside a
    /// name that is not.
    pub(super) fn common_word(self) -> bool {
        self.0 & 0b1000 != 0
    }
    pub(super) fn known(self) -> bool {
        self.given() > 0 || self.surname()
    }
    pub(super) fn with(self, other: NameFlags) -> NameFlags {
        NameFlags(self.0 | other.0)
    }
    pub(super) fn without_common(self) -> NameFlags {
        NameFlags(self.0 & !0b1000)
    }
    pub(super) fn new(given: u8, surname: bool, common: bool) -> NameFlags {
        NameFlags((given & 3) | u8::from(surname) << 2 | u8::from(common) << 3)
    }
}

fn u32_at(at: usize) -> Option<u32> {
    let b = TABLE.get(at..at + 4)?;
    Some(u32::from_le_bytes([b.first().copied()?, b.get(1).copied()?, b.get(2).copied()?, b.get(3).copied()?]))
}

/// Folds a word as `build.rs` folded the lists: lower case, apostrophes dropped (`İ`
/// to `i`). `None` for a word longer than the buffer.
pub(super) fn fold<'a>(word: &[u8], buf: &'a mut [u8; 64]) -> Option<&'a [u8]> {
    let mut n = 0;
    if word.is_ascii() {
        for &b in word {
            if b == b'\'' {
                continue;
            }
            *buf.get_mut(n)? = b.to_ascii_lowercase();
            n += 1;
        }
        return buf.get(..n);
    }
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
pub(super) fn lookup(folded: &[u8]) -> NameFlags {
    probe(folded).unwrap_or_default()
}

fn probe(folded: &[u8]) -> Option<NameFlags> {
    let bits = u32_at(0)?;
    let n = usize::try_from(u32_at(4)?).ok()?;
    let buckets = 1usize << bits;
    let h = name_hash(folded);
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
    fn long_words_do_not_fold() {
        let mut buf = [0u8; 64];
        assert!(fold(&[b'a'; 65], &mut buf).is_none());
        assert_eq!(fold(b"O'Brien", &mut buf).unwrap(), b"obrien");
        assert_eq!(fold("İpek".as_bytes(), &mut buf).unwrap(), "ipek".as_bytes());
    }
}
