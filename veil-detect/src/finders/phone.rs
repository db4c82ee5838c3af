//! North American (NANP) phone numbers: the hand-written equivalent of the pattern.

/// `(?:\+?1[ .-]?)?(?:\([2-9]\d{2}\)|[2-9]\d{2})[ .-]?[2-9]\d{2}[ .-]\d{4}\b` (NANP
/// phone), as the regex finds it: the leftmost match at or after `from`. A start has
/// one way to match: the `+1` and the optional separators are taken where they are
/// (leaving one out puts a `+`, a `1` or a separator where a `(` or a digit 2–9 must
/// be), and the rest has no choice.
pub fn find_nanp(hay: &[u8], from: usize) -> Option<(usize, usize)> {
    let byte = |i: usize| hay.get(i).copied().unwrap_or(0);
    let sep = |i: usize| matches!(byte(i), b' ' | b'.' | b'-');
    let lead = |i: usize| matches!(byte(i), b'2'..=b'9');
    let digits = |i: usize, n: usize| hay.get(i..i + n).is_some_and(|d| d.iter().all(u8::is_ascii_digit));
    // The area code at `p`, then the exchange and the line number: the end.
    let number = |p: usize| -> Option<usize> {
        let q = if byte(p) == b'(' {
            (lead(p + 1) && digits(p + 2, 2) && byte(p + 4) == b')').then_some(p + 5)?
        } else {
            (lead(p) && digits(p + 1, 2)).then_some(p + 3)?
        };
        let r = q + usize::from(sep(q));
        let end = r + 8;
        let word = |b: &u8| b.is_ascii_alphanumeric() || *b == b'_';
        (lead(r) && digits(r + 1, 2) && sep(r + 3) && digits(r + 4, 4) && !hay.get(end).is_some_and(word))
            .then_some(end)
    };
    let mut s = from;
    loop {
        s += hay.get(s..)?.iter().position(|&b| matches!(b, b'+' | b'(' | b'1'..=b'9'))?;
        let end = match byte(s) {
            b'+' if byte(s + 1) == b'1' => number(s + 2 + usize::from(sep(s + 2))),
            b'+' => None,
            b'1' => number(s + 1 + usize::from(sep(s + 1))),
            _ => number(s),
        };
        if let Some(end) = end {
            return Some((s, end));
        }
        s += 1;
    }
}
