//! The numeric runs: maximal runs of the bytes a written number is made of (digits,
//! `+ ( ) - .` and space) that hold a digit, found once per scan for every rule gated
//! by them (`Gate::NumericRun`, `Gate::AfterCountryCode`).

/// A maximal run of bytes that can appear in a number: digits, `+ ( ) - .` and space.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct NumericRun {
    pub start: usize,
    pub end: usize,
    pub digits: usize,
    pub dashes: usize,
    pub dots: usize,
    pub plus: bool,
}

/// Whether each byte can appear in a written number: a table, read once per byte of
/// every run.
#[allow(clippy::indexing_slicing)] // evaluated by the compiler: `i` counts to 255
static NUMERIC: [bool; 256] = {
    let mut table = [false; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        table[i] = b.is_ascii_digit() || matches!(b, b' ' | b'-' | b'.' | b'(' | b')' | b'+');
        i += 1;
    }
    table
};

fn is_numeric(b: u8) -> bool {
    NUMERIC.get(usize::from(b)).copied().unwrap_or(false)
}

/// Finds the numeric runs of `text` that contain a digit `next_digit` gives (the first
/// wanted digit at or after an offset: the text's digits but a lone digit between two
/// ASCII letters, which no reader wants; see `Text::run_digits`). Digits are rare in
/// most text: the digits' mask skips 64 digit-free bytes at a time, then each run
/// grows around its digits.
pub(crate) fn numeric_runs(text: &[u8], mut next_digit: impl FnMut(usize) -> Option<usize>) -> Vec<NumericRun> {
    let mut runs = Vec::new();
    let mut last_end = 0;
    while let Some(digit) = next_digit(last_end) {
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
    }
    runs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::text::Text;

    /// The runs, written the plain way: split the text at every byte that no number
    /// is written with, keep the pieces with a digit but a lone digit between letters.
    fn plain(text: &[u8]) -> Vec<NumericRun> {
        let numeric = |b: &u8| b.is_ascii_digit() || b" -.()+".contains(b);
        let mut runs = Vec::new();
        let mut at = 0usize;
        for piece in text.split(|b| !numeric(b)) {
            let count = |c: u8| piece.iter().filter(|&&b| b == c).count();
            let digits = piece.iter().filter(|b| b.is_ascii_digit()).count();
            let letter = |i: Option<usize>| i.and_then(|i| text.get(i)).is_some_and(u8::is_ascii_alphabetic);
            let lone = piece.len() == 1 && letter(at.checked_sub(1)) && letter(Some(at + 1));
            if digits > 0 && !lone {
                let (dashes, dots, plus) = (count(b'-'), count(b'.'), count(b'+') > 0);
                runs.push(NumericRun { start: at, end: at + piece.len(), digits, dashes, dots, plus });
            }
            at += piece.len() + 1;
        }
        runs
    }

    /// On random texts of every length around the block edges, of bytes a number is
    /// written with and bytes that end one (letters, a capital, `_` and the other
    /// marks, a line break, a byte of `0x80` and up), and of numbers only (a run across
    /// many blocks).
    #[test]
    fn runs_are_the_pieces_with_a_digit() {
        let mut seed = 3u64;
        let alphabets: [&[u8]; 3] = [b"0123456789 -.()+axQ_\n", b"09 -.()+:/@=~[x\xc3", b"0123456789 -.()+"];
        let mut runs = 0;
        for alphabet in alphabets {
            for len in (0..=200).chain([255, 256, 257, 1000, 4000]) {
                let text = crate::engine::text::sample(&mut seed, len, alphabet);
                let found = Text::new(&text).numeric_runs().to_vec();
                assert_eq!(found, plain(&text), "{}", String::from_utf8_lossy(&text));
                runs += found.len();
            }
        }
        assert!(runs > 5_000, "{runs}");
    }
}
