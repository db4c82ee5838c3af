//! Person names by dictionary: a known given name and the capitalised word after it
//! ("Maria Lindqvist"), or a capitalised word and a known surname after it ("Tomasz
//! Okafor"), from the built-in lists (`names.rs`) and the policy's own.

use std::collections::HashSet;

use super::{is_word_byte, names, DetectError, DetectorsConfig, Finding};

/// Added to a dictionary name's confidence when its second word is in the dictionary too.
pub(super) const BOTH_NAMES_KNOWN: f32 = 0.15;

/// Surnames that are also common words ("Park", "Wood", "Price"): they count only
/// after a known given name.
const WEAK_SURNAMES: &[&str] = &[
    "Park",
    "Wood",
    "Hill",
    "Cook",
    "Price",
    "Ward",
    "Brooks",
    "Reed",
    "Bailey",
    "Baker",
    "Cruz",
    "Ross",
    "Kelly",
    "Howard",
    "Moore",
    "Martin",
    "Simon",
    "Michel",
    "Bruno",
    "Wolf",
    "Klein",
    "Costa",
    "Santos",
    "Silva",
    "Smit",
    "Jung",
    "Kang",
    "Koch",
    "Braun",
    "Romano",
    "Marino",
    "Greco",
    "Nelson",
    "Morgan",
    "Murray",
    "Kennedy",
    "Parker",
    "Lewis",
    "Foster",
    "Turner",
    "Collins",
    "Campbell",
    "Carter",
    "Stewart",
    "Lee",
    "Lin",
    "Sun",
    "Ma",
    "Hu",
    "Wu",
    "Xu",
    "Zhu",
    "Guo",
    "Ito",
    "Das",
    "Rao",
    "Vu",
    "Kim",
    "Cho",
    "Choi",
    "Cox",
    "Thomas",
    "Adams",
    "Allen",
    "Evans",
    "Morris",
    "Rogers",
    "Cooper",
    "Richardson",
    "Watson",
    "Bennett",
    "Hughes",
    "Sanders",
    "Myers",
    "Doe",
    "Sullivan",
    "Hansen",
    "Jensen",
    "Jansen",
    "Bakker",
    "Mulder",
    "Visser",
    "Meijer",
    "Laurent",
    "Roux",
    "Eze",
    "Sato",
    "Kato",
    "Shah",
    "Singh",
    "Khan",
    "Ali",
    "Hassan",
    "Ahmed",
    "Ibrahim",
];

/// The built-in and policy name lists, as one case-sensitive automaton.
#[derive(Debug, Clone)]
pub(super) struct NameMatcher {
    given: HashSet<Vec<u8>>,
    surnames: HashSet<Vec<u8>>,
    not_a_name: HashSet<&'static [u8]>,
    /// Surnames that are also common nouns ("Park", "Wood"): they count only after a
    /// known given name.
    weak_surnames: HashSet<&'static [u8]>,
}

/// Position of the first byte at or after `from` that can start a capitalised word: an
/// ASCII capital or a non-ASCII byte (the Latin capitals `capitalised_word` knows are
/// two bytes).
fn next_capital(text: &[u8], from: usize) -> Option<usize> {
    next_byte_in(text, from, (0x40, 0x5b), true, |b| b.is_ascii_uppercase() || (0xC3..=0xC5).contains(b))
}

/// End of a capitalised word at `at` ("Maria", "O'Brien", "Müller", "McDonald"),
/// if there is one. All-caps words ("NASA") are not names here.
fn capitalised_word(text: &[u8], at: usize) -> Option<usize> {
    let first = *text.get(at)?;
    let mut i = if first.is_ascii_uppercase() {
        at + 1
    } else if (first == 0xC3 && text.get(at + 1).is_some_and(|b| (0x80..=0x9E).contains(b)))
        || ((0xC4..=0xC5).contains(&first) && text.get(at + 1).is_some_and(|b| b & 1 == 0))
    {
        // Latin-1 capitals (À–Þ), and Latin Extended-A, whose capitals are even.
        at + 2
    } else {
        return None;
    };
    // A name continues in lower case (or a multi-byte letter).
    let lower = |b: Option<&u8>| b.is_some_and(|&b| b.is_ascii_lowercase() || b >= 0x80);
    if text.get(i) == Some(&b'\'') && text.get(i + 1).is_some_and(u8::is_ascii_uppercase) {
        i += 2;
    }
    if !lower(text.get(i)) {
        return None;
    }
    while let Some(&b) = text.get(i) {
        let hyphenated = b == b'-' && text.get(i + 1).is_some_and(u8::is_ascii_uppercase);
        if b.is_ascii_alphabetic() || b >= 0x80 || hyphenated {
            i += 1;
        } else {
            break;
        }
    }
    (i - at >= 2 && !text.get(i).is_some_and(u8::is_ascii_digit)).then_some(i)
}

impl NameMatcher {
    pub(super) fn new(config: &DetectorsConfig) -> Result<NameMatcher, DetectError> {
        let own = |list: &[String]| list.iter().map(|s| s.trim().as_bytes().to_vec()).collect::<Vec<_>>();
        let mut given: HashSet<Vec<u8>> = names::GIVEN_NAMES.iter().map(|s| s.as_bytes().to_vec()).collect();
        given.extend(own(&config.given_names));
        let mut surnames: HashSet<Vec<u8>> = names::SURNAMES.iter().map(|s| s.as_bytes().to_vec()).collect();
        surnames.extend(own(&config.surnames));
        Ok(NameMatcher {
            given,
            surnames,
            not_a_name: names::NOT_A_NAME.iter().map(|s| s.as_bytes()).collect(),
            weak_surnames: WEAK_SURNAMES.iter().map(|s| s.as_bytes()).collect(),
        })
    }

    /// A known given name and the capitalised word after it ("Maria Lindqvist"), or a
    /// capitalised word and the known surname after it ("Tomasz Okafor").
    pub(super) fn find(&self, text: &[u8], rule: usize, confidence: f32, out: &mut Vec<Finding>) {
        let mut at = 0;
        while let Some(start) = next_capital(text, at) {
            at = start + 1;
            if start > 0 && text.get(start - 1).copied().is_some_and(|b| is_word_byte(b) || b == b'-' || b == b'\'') {
                continue;
            }
            let Some(first_end) = capitalised_word(text, start) else { continue };
            at = first_end;
            let mut next = first_end + 1;
            if text.get(first_end) != Some(&b' ') {
                continue;
            }
            if text.get(next).is_some_and(u8::is_ascii_uppercase)
                && text.get(next + 1) == Some(&b'.')
                && text.get(next + 2) == Some(&b' ')
            {
                next += 3;
            }
            let Some(end) = capitalised_word(text, next) else { continue };
            if text.get(end).copied().is_some_and(|b| b == b'-' || b == b'\'') {
                continue;
            }
            let (Some(first), Some(second)) = (text.get(start..first_end), text.get(next..end)) else { continue };
            if self.not_a_name.contains(first) || self.not_a_name.contains(second) {
                continue;
            }
            let known_given = self.given.contains(first);
            let known_surname = self.surnames.contains(second);
            if known_given || (known_surname && !self.weak_surnames.contains(second)) {
                let c = if known_given && known_surname { confidence + BOTH_NAMES_KNOWN } else { confidence };
                out.push(Finding { start, end, rule, confidence: c.min(1.0) });
                at = end;
            }
        }
    }
}

/// Position of the first byte at or after `from` for which `hit` holds. Skips eight
/// bytes at a time while none lies strictly between `range.0` and `range.1` (and, with
/// `non_ascii`, none has the high bit) — the "hasbetween" idiom; `hit` must only
/// accept such bytes.
fn next_byte_in(
    text: &[u8],
    from: usize,
    range: (u8, u8),
    non_ascii: bool,
    hit: impl Fn(&u8) -> bool,
) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const LOW7: u64 = ONES * 0x7f;
    const HIGH: u64 = ONES * 0x80;
    let (lo, hi) = (u64::from(range.0), u64::from(range.1));
    let mut at = from;
    let rest = text.get(from..)?;
    for chunk in rest.chunks_exact(8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let v = u64::from_le_bytes(word);
        let low = v & LOW7;
        let between = (ONES * (127 + hi) - low) & !v & (low + ONES * (127 - lo)) & HIGH;
        if between != 0 || (non_ascii && v & HIGH != 0) {
            break;
        }
        at += 8;
    }
    text.get(at..)?.iter().position(hit).map(|p| at + p)
}
