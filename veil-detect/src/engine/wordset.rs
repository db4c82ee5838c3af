//! Sets and maps of short words, looked up case-insensitively (ASCII letters folded):
//! for the context and label lists that a rule compares every word near a match with,
//! and the word lists that say what a name in code or configuration is. A linear `any`
//! over a list of fifty words, for each of the ten words before each match, was a
//! tenth of a scan with values. Most words of a text are in no list, and two table
//! lookups (which lengths begin with a byte like this; is this a last byte) say so
//! before the binary search; a word of up to 15 bytes is searched for as one number
//! (its bytes and its length packed into a `u128`), not compared byte by byte.

/// Words of at most [`MAX`] bytes, folded to ASCII lower case, each with a
/// value (for a map of word lists: the lists it is on).
#[derive(Debug, Clone)]
pub struct WordMap<V> {
    /// The words of up to [`PACKED`] bytes, packed by [`pack`], sorted.
    short: Vec<(u128, V)>,
    /// The longer ones, sorted.
    long: Vec<(Box<[u8]>, V)>,
    /// For each first byte's low six bits, bit `n` set: some word of `n` bytes begins
    /// with such a byte.
    heads: [u64; 64],
    /// Bit `b` set: some word ends with byte `b`.
    tails: [u64; 4],
}

/// The longest word a map holds: longer ones are never members (no list has one; a
/// test holds the catalog to it).
pub const MAX: usize = 63;

/// The longest word looked up as one number.
const PACKED: usize = 15;

/// A word of at most [`PACKED`] bytes as one number, folded: its bytes from the lowest
/// byte up, and its length in the highest (so that a word and the same word with NUL
/// bytes after it differ).
fn pack(word: &[u8]) -> Option<u128> {
    if word.len() > PACKED {
        return None;
    }
    // Built as two 64-bit words: wasm has no 128-bit shift by a variable amount (each
    // was a call), and the halves are joined by a fixed shift of 64, which is a move.
    let (mut lo, mut hi) = (0u64, (word.len() as u64) << 56);
    for (i, b) in word.iter().enumerate() {
        let b = u64::from(b.to_ascii_lowercase());
        if i < 8 {
            lo |= b << (8 * i);
        } else {
            hi |= b << (8 * (i - 8));
        }
    }
    Some(u128::from(hi) << 64 | u128::from(lo))
}

/// A [`WordMap`] whose words carry nothing: a set.
pub type WordSet = WordMap<()>;

impl<V: Copy> WordMap<V> {
    /// The map of `entries`; a word listed twice (in any case) gets its values merged.
    pub fn from_entries<'a>(entries: impl IntoIterator<Item = (&'a str, V)>, merge: fn(V, V) -> V) -> WordMap<V> {
        let mut short: Vec<(u128, V)> = Vec::new();
        let mut long: Vec<(Box<[u8]>, V)> = Vec::new();
        let mut heads = [0u64; 64];
        let mut tails = [0u64; 4];
        for (w, v) in entries {
            let w = w.to_ascii_lowercase().into_bytes();
            let (Some(&first), Some(&last)) = (w.first(), w.last()) else { continue };
            if w.len() > MAX {
                continue;
            }
            if let Some(h) = heads.get_mut(usize::from(first & 63)) {
                *h |= 1 << w.len();
            }
            if let Some(t) = tails.get_mut(usize::from(last >> 6)) {
                *t |= 1 << (last & 63);
            }
            match pack(&w) {
                Some(key) => short.push((key, v)),
                None => long.push((w.into_boxed_slice(), v)),
            }
        }
        short.sort_by_key(|e| e.0);
        long.sort_by(|a, b| a.0.cmp(&b.0));
        short.dedup_by(|later, kept| {
            later.0 == kept.0 && {
                kept.1 = merge(kept.1, later.1);
                true
            }
        });
        long.dedup_by(|later, kept| {
            later.0 == kept.0 && {
                kept.1 = merge(kept.1, later.1);
                true
            }
        });
        WordMap { short, long, heads, tails }
    }

    /// The value of `word`, in any ASCII case.
    #[inline]
    pub fn get(&self, word: &[u8]) -> Option<V> {
        let (Some(first), Some(last)) = (word.first(), word.last()) else { return None };
        let (first, last) = (first.to_ascii_lowercase(), last.to_ascii_lowercase());
        let may_hold = word.len() <= MAX
            && self.heads.get(usize::from(first & 63)).is_some_and(|h| h >> word.len() & 1 == 1)
            && self.tails.get(usize::from(last >> 6)).is_some_and(|t| t >> (last & 63) & 1 == 1);
        if !may_hold {
            return None;
        }
        if let Some(key) = pack(word) {
            let at = self.short.binary_search_by_key(&key, |e| e.0).ok()?;
            return self.short.get(at).map(|e| e.1);
        }
        let mut buf = [0u8; MAX];
        let lower = buf.get_mut(..word.len())?;
        lower.copy_from_slice(word);
        lower.make_ascii_lowercase();
        let at = self.long.binary_search_by(|(w, _)| (**w).cmp(lower)).ok()?;
        self.long.get(at).map(|e| e.1)
    }
}

impl WordSet {
    pub fn new(list: &[&str]) -> WordSet {
        WordMap::from_entries(list.iter().map(|w| (*w, ())), |(), ()| ())
    }

    /// Whether `word`, in any ASCII case, is in the set.
    #[inline]
    pub fn contains(&self, word: &[u8]) -> bool {
        self.get(word).is_some()
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
        for w in ["te", "tele", "phones", "", "TÉLÉPHONE", "电", "tel\0"] {
            assert!(!set.contains(w.as_bytes()), "{w}");
        }
        assert!(!set.contains(&[b'a'; 200]), "longer than any member");
    }

    #[test]
    fn a_word_listed_twice_has_both_values() {
        let map = WordMap::from_entries([("Key", 1u8), ("token", 2), ("key", 4)], |a, b| a | b);
        assert_eq!(map.get(b"KEY"), Some(5));
        assert_eq!(map.get(b"Token"), Some(2));
        assert_eq!(map.get(b"keys"), None);
        let long =
            WordMap::from_entries([("Sozialversicherungsnummer", 1u8), ("sozialversicherungsnummer", 2)], |a, b| a | b);
        assert_eq!(long.get(b"SOZIALVERSICHERUNGSNUMMER"), Some(3));
        assert_eq!(long.get(b"sozialversicherungsnumme"), None);
    }
}
