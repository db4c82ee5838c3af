//! Shared steps of the hand-written digit finders (a regex's leftmost match from a word
//! boundary, ASCII `\w`), and the US SSN and ITIN shapes.

/// ASCII `\w` (the catalog's patterns are `(?-u)`): the bytes `\b` tells apart.
pub(crate) fn word_at(hay: &[u8], i: usize) -> bool {
    hay.get(i).is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
}

/// The first digit at or after `from` where `matches` finds a match that starts on a
/// word boundary (`\b` before a digit: no word byte before it), as a regex's
/// leftmost match; `matches` returns the match's end.
pub(crate) fn leftmost(hay: &[u8], from: usize, matches: impl Fn(usize) -> Option<usize>) -> Option<(usize, usize)> {
    let mut start = from;
    loop {
        start += hay.get(start..)?.iter().position(u8::is_ascii_digit)?;
        if start == 0 || !word_at(hay, start - 1) {
            if let Some(end) = matches(start) {
                return Some((start, end));
            }
        }
        start += 1;
    }
}

/// `\b\d{3}-\d{2}-\d{4}\b` (SSN).
pub fn find_ssn(hay: &[u8], from: usize) -> Option<(usize, usize)> {
    leftmost(hay, from, |at| dashed_3_2_4(hay, at, |_, _| true))
}

/// `\b9\d{2}-(?:5\d|6[0-5]|7\d|8[0-8]|9[0-24-9])-\d{4}\b` (ITIN).
pub fn find_itin(hay: &[u8], from: usize) -> Option<(usize, usize)> {
    leftmost(hay, from, |at| {
        if hay.get(at) != Some(&b'9') {
            return None;
        }
        dashed_3_2_4(hay, at, |a, b| match a {
            b'5' | b'7' => true,
            b'6' => b <= b'5',
            b'8' => b <= b'8',
            b'9' => b != b'3',
            _ => false,
        })
    })
}

/// `\d{3}-\d{2}-\d{4}\b` at `at`, the middle group's two digits accepted by `group`.
fn dashed_3_2_4(hay: &[u8], at: usize, group: impl Fn(u8, u8) -> bool) -> Option<usize> {
    let digits = |from: usize, n: usize| hay.get(from..from + n).is_some_and(|d| d.iter().all(u8::is_ascii_digit));
    let ok = digits(at, 3)
        && hay.get(at + 3) == Some(&b'-')
        && digits(at + 4, 2)
        && hay.get(at + 4..at + 6).is_some_and(|g| matches!(g, [a, b] if group(*a, *b)))
        && hay.get(at + 6) == Some(&b'-')
        && digits(at + 7, 4)
        && !word_at(hay, at + 11);
    ok.then_some(at + 11)
}
