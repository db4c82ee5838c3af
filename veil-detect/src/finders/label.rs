//! Person names after a title (`Mr.`, `Dr.`) or a label (`name:`, `my name is`): the
//! hand-written finders of the core catalog's two name rules.

use super::digits::word_at;

/// The titles of `pii.person.title.v1`, in its pattern's order.
const TITLES: [&[u8]; 16] = [
    b"Mr", b"Mrs", b"Ms", b"Miss", b"Mx", b"Dr", b"Prof", b"Sir", b"Dame", b"Herr", b"Frau", b"Mme", b"Mlle", b"Sr",
    b"Sra", b"Srta",
];

/// `(?-u)\b(?:Mr|Mrs|…|Srta)\.? (NAME{0,2})` (`pii.person.title.v1`; [`name_words`]
/// is `NAME`): the group's span in the leftmost match at or after `from`, as
/// `Regex::captures_at` gives it. The group ends the pattern, so its end is the
/// match's. A start has one way to match: no title is another's prefix followed by
/// `.` or a space, the `.` is taken where it is, and [`name_words`] has no choice.
/// By hand because the regex needed a backtracking pass over every match to place
/// the group (about a tenth of a scan of prose with names).
pub fn find_titled_name(hay: &[u8], from: usize) -> Option<(usize, usize)> {
    let mut p = from;
    loop {
        p += hay.get(p..)?.iter().position(|b| matches!(b, b'D' | b'F' | b'H' | b'M' | b'P' | b'S'))?;
        if p == 0 || !word_at(hay, p - 1) {
            let rest = hay.get(p..).unwrap_or_default();
            for title in TITLES.iter().filter(|t| rest.starts_with(t)) {
                let mut q = p + title.len();
                if hay.get(q) == Some(&b'.') {
                    q += 1;
                }
                if hay.get(q) != Some(&b' ') {
                    continue;
                }
                if let Some(end) = name_words(hay, q + 1, 0) {
                    return Some((q + 1, end));
                }
            }
        }
        p += 1;
    }
}

/// What follows a label of `pii.person.labeled.v1` before the name.
#[derive(Clone, Copy)]
pub(crate) enum LabelTail {
    /// `\s*[:\-]\s*` (a field: "Customer: …").
    Field,
    /// `\s*,?\s+` (a greeting or sign-off).
    Greeting,
    /// `\s+` (an introduction).
    Intro,
}

/// The labels of `pii.person.labeled.v1` (ASCII case-insensitive), in its pattern's
/// order, each with what must follow it.
pub(crate) const LABELS: [(&[u8], LabelTail); 19] = {
    use LabelTail::{Field, Greeting, Intro};
    [
        (b"full name", Field),
        (b"name", Field),
        (b"patient", Field),
        (b"employee", Field),
        (b"customer", Field),
        (b"client", Field),
        (b"contact", Field),
        (b"applicant", Field),
        (b"cardholder", Field),
        (b"account holder", Field),
        (b"signed by", Field),
        (b"dear", Greeting),
        (b"regards", Greeting),
        (b"sincerely", Greeting),
        (b"cheers", Greeting),
        (b"my name is", Intro),
        (b"i am", Intro),
        (b"i'm", Intro),
        (b"this is", Intro),
    ]
};

/// [`LABELS`] as words: `pii.person.labeled.v1`'s `Near` gate, so that the rule is
/// searched near the labels its finder knows (one list, not two).
#[allow(clippy::indexing_slicing)] // evaluated by the compiler: `i` counts to 19
pub(crate) const LABEL_WORDS: [&str; LABELS.len()] = {
    let mut words = [""; LABELS.len()];
    let mut i = 0;
    while i < LABELS.len() {
        // Every label is ASCII (a test holds the gate's words to the labels).
        if let Ok(word) = std::str::from_utf8(LABELS[i].0) {
            words[i] = word;
        }
        i += 1;
    }
    words
};

/// The first place at or after `from` where a label of [`LABELS`] begins, and the
/// label. One automaton for every label (ASCII case-insensitive), built on first use:
/// a byte loop that asked the labels at each letter cost ten times the regex's scan
/// of the same windows. At most one label begins at a place (none is another's
/// prefix), so the leftmost match is the one.
fn next_label(hay: &[u8], from: usize) -> Option<(usize, (&'static [u8], LabelTail))> {
    static SET: std::sync::OnceLock<Option<aho_corasick::AhoCorasick>> = std::sync::OnceLock::new();
    let set = SET.get_or_init(|| {
        aho_corasick::AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .match_kind(aho_corasick::MatchKind::LeftmostFirst)
            .kind(Some(aho_corasick::AhoCorasickKind::DFA))
            .build(LABELS.iter().map(|(label, _)| label))
            .ok()
    });
    match set {
        Some(set) => {
            let found = set.find(aho_corasick::Input::new(hay).range(from.min(hay.len())..))?;
            Some((found.start(), *LABELS.get(found.pattern().as_usize())?))
        }
        None => next_label_by_bytes(hay, from),
    }
}

/// [`next_label`] without the automaton (if it could not be built): each place asked.
fn next_label_by_bytes(hay: &[u8], from: usize) -> Option<(usize, (&'static [u8], LabelTail))> {
    (from..hay.len()).find_map(|p| {
        let rest = hay.get(p..)?;
        let said =
            LABELS.iter().find(|(label, _)| rest.get(..label.len()).is_some_and(|r| r.eq_ignore_ascii_case(label)));
        said.map(|&label| (p, label))
    })
}

/// `(?-u)(?:(?i:full name|…|signed by)\s*[:\-]\s*|(?i:dear|…|cheers)\s*,?\s+|(?i:my
/// name is|i am|i'm|this is)\s+)(NAME{1,2})` (`pii.person.labeled.v1`;
/// [`name_words`] is `NAME`): the group's span in the leftmost match at or after
/// `from`, as `Regex::captures_at` gives it (see [`find_titled_name`]). A start has
/// one way to match: the group begins with a capital, so every `\s*` and `\s+` takes
/// the whole run of white space, and a greeting's `,` is taken where it is.
pub fn find_labelled_name(hay: &[u8], from: usize) -> Option<(usize, usize)> {
    // ASCII `\s` (`(?-u)`): with the vertical tab, which `is_ascii_whitespace` leaves out.
    let spaces = |mut at: usize| {
        while hay.get(at).is_some_and(|b| matches!(b, b' ' | b'\t' | b'\n' | 0x0B | 0x0C | b'\r')) {
            at += 1;
        }
        at
    };
    let mut from = from;
    while let Some((p, (label, tail))) = next_label(hay, from) {
        let q = p + label.len();
        let after = spaces(q);
        let name = match tail {
            LabelTail::Field => matches!(hay.get(after), Some(b':' | b'-')).then(|| spaces(after + 1)),
            LabelTail::Greeting if hay.get(after) == Some(&b',') => {
                Some(spaces(after + 1)).filter(|&at| at > after + 1)
            }
            LabelTail::Greeting | LabelTail::Intro => (after > q).then_some(after),
        };
        if let Some(end) = name.and_then(|at| name_words(hay, at, 1)) {
            return name.map(|at| (at, end));
        }
        // A label may begin inside this one ("full name" holds "name").
        from = p + 1;
    }
    None
}

/// `NAME{min,2}` of the person patterns at `at`, where `NAME` is
/// `WORD(?:[ '-](?:[A-Z]\.|WORD|[A-Z]'[A-Z][a-z]+)){min,2}`, `WORD` is
/// `(?:[A-Z]|\xC3[\x80-\x9E])(?:[a-z]|[\xC3-\xC5][\x80-\xBF])+`: the end of the match
/// the regex prefers. Each alternative is told apart by the byte after the capital
/// (`.`, a small letter, `'`), and a word's small letters end where no `[ '-]` can
/// follow a shorter run, so the greedy reading is the only one.
fn name_words(hay: &[u8], at: usize, min: usize) -> Option<usize> {
    let mut end = name_word(hay, at)?;
    let mut more = 0;
    while more < 2 && matches!(hay.get(end), Some(b' ' | b'\'' | b'-')) {
        let p = end + 1;
        let next = match hay.get(p..) {
            Some([b'A'..=b'Z', b'.', ..]) => Some(p + 2),
            Some([b'A'..=b'Z', b'\'', b'A'..=b'Z', ..]) => {
                let run = hay.get(p + 3..).unwrap_or_default().iter().take_while(|b| b.is_ascii_lowercase()).count();
                (run > 0).then_some(p + 3 + run)
            }
            _ => name_word(hay, p),
        };
        let Some(next) = next else { break };
        end = next;
        more += 1;
    }
    (more >= min).then_some(end)
}

/// `WORD` of [`name_words`] at `at`: its end.
fn name_word(hay: &[u8], at: usize) -> Option<usize> {
    let mut i = match hay.get(at..)? {
        [b'A'..=b'Z', ..] => at + 1,
        [0xC3, 0x80..=0x9E, ..] => at + 2,
        _ => return None,
    };
    let small = i;
    loop {
        match hay.get(i..) {
            Some([b'a'..=b'z', ..]) => i += 1,
            Some([0xC3..=0xC5, 0x80..=0xBF, ..]) => i += 2,
            _ => break,
        }
    }
    (i > small).then_some(i)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The person labels' automaton and the byte-by-byte fallback find the same label
    /// at the same place, from every offset: labels in any case, inside one another
    /// ("full name" holds "name"), and split.
    #[test]
    fn the_label_automaton_agrees_with_the_byte_search() {
        let text = b"Full Name: x; surname-NAME; my name is; I'M; i am; thIS is; Dear, Cheers \
            regards sincerely signed by account holder cardholder applicant contact client customer \
            employee patient nam e dea r i'";
        let mut found = 0;
        for from in 0..=text.len() + 1 {
            let by_set = next_label(text, from).map(|(at, (label, _))| (at, label));
            assert_eq!(by_set, next_label_by_bytes(text, from).map(|(at, (label, _))| (at, label)), "from {from}");
            found += usize::from(by_set.is_some_and(|(at, _)| at >= from));
        }
        assert!(found > 100, "{found}");
        let names: std::collections::HashSet<&[u8]> =
            (0..text.len()).filter_map(|from| next_label(text, from)).map(|(_, (label, _))| label).collect();
        assert_eq!(names.len(), LABELS.len(), "every label is found");
    }
}
