//! The numeric runs: maximal runs of the bytes a written number is made of (digits,
//! `+ ( ) - .` and space) that hold a digit, found once per scan for every rule gated
//! by them (`Gate::NumericRun`, `Gate::AfterCountryCode`).

use super::text::Text;

/// A maximal run of bytes that can appear in a number: digits, `+ ( ) - .` and space.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct NumericRun {
    pub start: usize,
    pub end: usize,
    pub digits: usize,
    pub dashes: usize,
    pub dots: usize,
    pub plus: bool,
}

fn is_numeric(b: u8) -> bool {
    b.is_ascii_digit() || matches!(b, b' ' | b'-' | b'.' | b'(' | b')' | b'+')
}

/// Finds the numeric runs that contain a digit. Digits are rare in most text, so it
/// skips eight digit-free bytes at a time, then grows each run around its digits.
pub(super) fn numeric_runs(t: &Text<'_>) -> Vec<NumericRun> {
    let text = t.bytes();
    let mut runs = Vec::new();
    let mut i = 0;
    let mut last_end = 0;
    while let Some(digit) = t.next_digit(i) {
        let mut start = digit;
        while start > last_end && text.get(start - 1).copied().is_some_and(is_numeric) {
            start -= 1;
        }
        let mut end = start;
        let (mut digits, mut dashes, mut dots, mut plus) = (0, 0, 0, false);
        while let Some(&b) = text.get(end) {
            if !is_numeric(b) {
                break;
            }
            digits += usize::from(b.is_ascii_digit());
            dashes += usize::from(b == b'-');
            dots += usize::from(b == b'.');
            plus |= b == b'+';
            end += 1;
        }
        runs.push(NumericRun { start, end, digits, dashes, dots, plus });
        last_end = end;
        i = end;
    }
    runs
}
