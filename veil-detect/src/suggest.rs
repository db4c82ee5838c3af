//! "Did you mean …?" for names in a policy or on a command line: the closest known
//! name by edit distance, and whether a name may be echoed in a message at all.
//!
//! Only names are ever compared or echoed (fields, rule ids, categories, enum values,
//! options), never a policy's word lists or patterns: [`echoable`] keeps anything that
//! does not look like a name out of messages.

/// Longest name echoed back in a message.
const MAX_ECHO: usize = 64;

/// Whether `name` looks like a name (an identifier, a rule id, a category, an option)
/// and so may be quoted in a message: 1 to 64 of ASCII letters, digits, `_ . - : /`.
/// Anything else (spaces, `@`, non-ASCII) could be data, and is not echoed.
pub fn echoable(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= MAX_ECHO
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-' | b':' | b'/'))
}

/// The candidate closest to `word` if it is close enough to be a typo of it: ASCII
/// case ignored, an adjacent swap counting as one edit, at most one edit per three
/// characters (at least one, at most three). Ties go to the earlier candidate; an
/// exact match (ignoring case) wins outright. `None` if `word` is not [`echoable`].
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    if !echoable(word) {
        return None;
    }
    let limit = (word.chars().count() / 3).clamp(1, 3);
    let mut best: Option<(usize, &'a str)> = None;
    for candidate in candidates {
        let d = distance(word, candidate);
        if d <= limit && best.is_none_or(|(b, _)| d < b) {
            best = Some((d, candidate));
        }
    }
    best.map(|(_, c)| c)
}

/// Optimal string alignment distance (Levenshtein plus adjacent transpositions),
/// ignoring ASCII case.
pub fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().map(|c| c.to_ascii_lowercase()).collect();
    let b: Vec<char> = b.chars().map(|c| c.to_ascii_lowercase()).collect();
    // Three rows: the one before the previous (for swaps), the previous, the current.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current: Vec<usize> = vec![0; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        if let Some(first) = current.first_mut() {
            *first = i + 1;
        }
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != cb);
            let at = |row: &[usize], k: usize| row.get(k).copied().unwrap_or(usize::MAX / 2);
            let mut d = (at(&previous, j + 1) + 1).min(at(&current, j) + 1).min(at(&previous, j) + cost);
            let swapped = i > 0 && j > 0 && a.get(i - 1) == Some(cb) && b.get(j - 1) == Some(ca);
            if swapped {
                d = d.min(at(&before, j - 1) + 1);
            }
            if let Some(slot) = current.get_mut(j + 1) {
                *slot = d;
            }
        }
        std::mem::swap(&mut before, &mut previous);
        std::mem::swap(&mut previous, &mut current);
    }
    previous.last().copied().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        for (a, b, want) in [
            ("", "", 0),
            ("abc", "", 3),
            ("", "abc", 3),
            ("email", "EMAIL", 0),
            ("emial", "email", 1),
            ("max_body_byte", "max_body_bytes", 1),
            ("kitten", "sitting", 3),
            ("ca", "abc", 3),
            ("pii.emial.v1", "pii.email.v1", 1),
        ] {
            assert_eq!(distance(a, b), want, "{a} {b}");
        }
    }

    #[test]
    fn suggestions() {
        let fields = ["max_body_bytes", "on_oversize", "invalid_json", "unscannable"];
        for (word, want) in [
            ("max_body_byte", Some("max_body_bytes")),
            ("MAX_BODY_BYTES", Some("max_body_bytes")),
            ("on_oversise", Some("on_oversize")),
            ("unscanable", Some("unscannable")),
            ("size", None),
            ("x", None),
            ("jane doe@example.com", None),
        ] {
            assert_eq!(closest(word, fields), want, "{word}");
        }
        // The first of equally close candidates, an exact match before any.
        assert_eq!(closest("mask", ["task", "mask"]), Some("mask"));
        assert_eq!(closest("bask", ["task", "mask"]), Some("task"));
    }

    #[test]
    fn only_names_are_echoed() {
        for (name, ok) in [
            ("pii.email.v1", true),
            ("max_body_byte", true),
            ("--policy", true),
            ("", false),
            ("jane doe", false),
            ("a@b.example", false),
            ("Zoë", false),
            (&"a".repeat(65), false),
        ] {
            assert_eq!(echoable(name), ok, "{name}");
        }
    }
}
