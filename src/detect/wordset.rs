//! A set of short words, looked up case-insensitively (ASCII letters folded): for the
//! context and label lists that a rule compares every word near a match with. A
//! linear `any` over a list of fifty words, for each of the ten words before each
//! match, was a tenth of a scan with values. Most words of a text are in no list, and
//! two table lookups (which lengths begin with a byte like this; is this a last byte) say so
//! before the binary search.

/// Words of at most [`WordSet::MAX`] bytes, folded to ASCII lower case, sorted.
#[derive(Debug, Clone)]
pub struct WordSet {
    words: Vec<Box<[u8]>>,
    /// For each first byte's low six bits, bit `n` set: some word of `n` bytes begins
    /// with such a byte.
    heads: [u64; 64],
    /// Bit `b` set: some word ends with byte `b`.
    tails: [u64; 4],
}

impl WordSet {
    /// Longer words are never members (no list has one; a test holds the catalog to it).
    pub const MAX: usize = 63;

    pub fn new(list: &[&str]) -> WordSet {
        let mut words: Vec<Box<[u8]>> = list
            .iter()
            .filter(|w| w.len() <= Self::MAX)
            .map(|w| w.to_ascii_lowercase().into_bytes().into_boxed_slice())
            .collect();
        words.sort_unstable();
        words.dedup();
        let mut heads = [0u64; 64];
        let mut tails = [0u64; 4];
        for w in &words {
            if let (Some(&first), Some(&last)) = (w.first(), w.last()) {
                if let Some(h) = heads.get_mut(usize::from(first & 63)) {
                    *h |= 1 << w.len();
                }
                if let Some(t) = tails.get_mut(usize::from(last >> 6)) {
                    *t |= 1 << (last & 63);
                }
            }
        }
        WordSet { words, heads, tails }
    }

    /// Whether a word of `len` bytes with this first and last byte (folded) may be in
    /// the set.
    #[inline]
    fn may_hold(&self, len: usize, first: u8, last: u8) -> bool {
        len <= Self::MAX
            && self.heads.get(usize::from(first & 63)).is_some_and(|h| h >> len & 1 == 1)
            && self.tails.get(usize::from(last >> 6)).is_some_and(|t| t >> (last & 63) & 1 == 1)
    }

    /// Whether `word`, already in ASCII lower case, is in the set.
    #[inline]
    pub fn contains_lower(&self, word: &[u8]) -> bool {
        let (Some(&first), Some(&last)) = (word.first(), word.last()) else { return false };
        self.may_hold(word.len(), first, last) && self.words.binary_search_by(|w| (**w).cmp(word)).is_ok()
    }

    /// Whether `word`, in any ASCII case, is in the set.
    pub fn contains(&self, word: &[u8]) -> bool {
        let (Some(first), Some(last)) = (word.first(), word.last()) else { return false };
        if !self.may_hold(word.len(), first.to_ascii_lowercase(), last.to_ascii_lowercase()) {
            return false;
        }
        let mut buf = [0u8; Self::MAX];
        let Some(lower) = buf.get_mut(..word.len()) else { return false };
        lower.copy_from_slice(word);
        lower.make_ascii_lowercase();
        self.contains_lower(lower)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_in_any_ascii_case_and_nothing_else() {
        let set = WordSet::new(&["Tel", "phone", "téléphone", "电话", "tel"]);
        for w in ["tel", "TEL", "Phone", "téléphone", "TéLéPHONE", "电话"] {
            assert!(set.contains(w.as_bytes()), "{w}");
        }
        for w in ["te", "tele", "phones", "", "TÉLÉPHONE", "电"] {
            assert!(!set.contains(w.as_bytes()), "{w}");
        }
        assert!(set.contains_lower(b"phone") && !set.contains_lower(b"PHONE"));
        assert!(!set.contains(&[b'a'; 200]), "longer than any member");
    }
}
