//! The checks of the world's identifiers, bank details and addresses: check digits, dates of birth, encodings (base58, bech32, EIP-55) as their issuers and standards publish them, and the windows the rules run in.

use crate::engine::text::{Mark, Text};
use crate::rule::{keyword_windows, push_window};
use crate::validate::luhn;

// ---------------------------------------------------------------------------
// Windows
// ---------------------------------------------------------------------------

/// Runs of `[A-Za-z0-9_-]` that contain a digit and are at least 9 bytes long, or are
/// at least 25 bytes long; each window ends two bytes after its run (for the look-ahead
/// of `clean_right`). Every pattern gated by it is a `\b…\b` run of these bytes with a
/// digit in it (or 26 bytes or more), so it lies inside one such run.
pub fn id_token_windows(t: &Text<'_>) -> Vec<(usize, usize)> {
    let len = t.bytes().len();
    let mut windows = Vec::new();
    // Two ordered lists of maximal runs; a run in both (a long one with a digit) is
    // taken once.
    let mut digit = t.digit_token_runs(9).peekable();
    let mut long = t.long_runs().iter().copied().peekable();
    loop {
        let run = match (digit.peek().copied(), long.peek().copied()) {
            (Some(d), Some(l)) if d.0 < l.0 => digit.next(),
            (Some(d), Some(l)) if d.0 == l.0 => {
                digit.next();
                long.next()
            }
            (_, Some(_)) => long.next(),
            (Some(_), None) => digit.next(),
            (None, None) => None,
        };
        let Some((start, end)) = run else { break };
        push_window(&mut windows, start, (end + 2).min(len));
    }
    windows
}

/// [`id_token_windows`] as a rule's window finder; it always runs (a long run may be
/// letters only).
pub const ID_TOKEN_WINDOWS: crate::rule::WindowFinder =
    crate::rule::WindowFinder { find: id_token_windows, needs: crate::engine::text::Needs::NOTHING };

/// Around each `/` between two digits: a formatted CNPJ (`12.345.678/0001-95`) has ten
/// bytes before its slash and seven after it.
pub fn slash_windows(t: &Text<'_>) -> Vec<(usize, usize)> {
    let text = t.bytes();
    let digit = |i: usize| text.get(i).is_some_and(u8::is_ascii_digit);
    let mut windows = Vec::new();
    for at in t.positions(Mark::Slash) {
        if at > 0 && digit(at - 1) && digit(at + 1) {
            push_window(&mut windows, at.saturating_sub(11), (at + 10).min(text.len()));
        }
    }
    windows
}

/// [`slash_windows`] as a rule's window finder; it finds nothing without a `/` between
/// digits.
pub const SLASH_WINDOWS: crate::rule::WindowFinder = crate::rule::WindowFinder {
    find: slash_windows,
    needs: crate::engine::text::Needs::DIGIT.and(crate::engine::text::Needs::MARK),
};

/// Korean, Japanese and Chinese words for "passport".
pub(crate) const PASSPORT_CJK: &[&[u8]] =
    &["여권".as_bytes(), "パスポート".as_bytes(), "旅券".as_bytes(), "护照".as_bytes(), "護照".as_bytes()];

/// Korean, Japanese and Chinese words for "driving licence".
pub(crate) const LICENCE_CJK: &[&[u8]] = &[
    "운전면허".as_bytes(),
    "運転免許".as_bytes(),
    "驾驶证".as_bytes(),
    "駕駛執照".as_bytes(),
    "驾照".as_bytes(),
    "駕照".as_bytes(),
];

/// Korean, Japanese, Chinese and Hindi names of national identity numbers.
pub(crate) const NATIONAL_ID_KEYWORDS: &[&[u8]] = &[
    "주민등록번호".as_bytes(),
    "주민번호".as_bytes(),
    "マイナンバー".as_bytes(),
    "個人番号".as_bytes(),
    "身份证".as_bytes(),
    "身分證".as_bytes(),
    "公民身份号码".as_bytes(),
    "आधार".as_bytes(),
];

/// After a passport keyword in Korean, Japanese or Chinese.
pub fn passport_cjk_windows(t: &Text<'_>) -> Vec<(usize, usize)> {
    keyword_windows(t, PASSPORT_CJK, |at, _| (at, at + 96))
}

/// [`passport_cjk_windows`] as a rule's window finder; it finds nothing without a
/// non-ASCII byte (its keywords are CJK).
pub const PASSPORT_CJK_WINDOWS: crate::rule::WindowFinder =
    crate::rule::WindowFinder { find: passport_cjk_windows, needs: crate::engine::text::Needs::NON_ASCII };

/// After a driving-licence keyword in Korean, Japanese or Chinese.
pub fn licence_cjk_windows(t: &Text<'_>) -> Vec<(usize, usize)> {
    keyword_windows(t, LICENCE_CJK, |at, _| (at, at + 112))
}

/// [`licence_cjk_windows`] as a rule's window finder; it finds nothing without a
/// non-ASCII byte (its keywords are CJK).
pub const LICENCE_CJK_WINDOWS: crate::rule::WindowFinder =
    crate::rule::WindowFinder { find: licence_cjk_windows, needs: crate::engine::text::Needs::NON_ASCII };

/// After the name of a national identity number in Korean, Japanese, Chinese or Hindi.
pub fn national_id_windows(t: &Text<'_>) -> Vec<(usize, usize)> {
    keyword_windows(t, NATIONAL_ID_KEYWORDS, |at, _| (at, at + 112))
}

/// [`national_id_windows`] as a rule's window finder; it finds nothing without a
/// non-ASCII byte (its keywords are CJK or Devanagari).
pub const NATIONAL_ID_WINDOWS: crate::rule::WindowFinder =
    crate::rule::WindowFinder { find: national_id_windows, needs: crate::engine::text::Needs::NON_ASCII };

/// Windows after the Thai labels of a national ID number.
pub(crate) fn thai_id_windows(t: &Text<'_>) -> Vec<(usize, usize)> {
    const LABELS: &[&[u8]] = &["เลขประจำตัวประชาชน".as_bytes(), "เลขบัตรประชาชน".as_bytes(), "บัตรประชาชน".as_bytes()];
    keyword_windows(t, LABELS, |at, len| (at, at + len + 96))
}

/// [`thai_id_windows`] as a rule's window finder; it finds nothing without a non-ASCII
/// byte (its labels are Thai).
pub(crate) const THAI_ID_WINDOWS: crate::rule::WindowFinder =
    crate::rule::WindowFinder { find: thai_id_windows, needs: crate::engine::text::Needs::NON_ASCII };

// ---------------------------------------------------------------------------
// Shared helpers for the checks
// ---------------------------------------------------------------------------

/// The `N` decimal digits of `value`, separators (space, `-`, `.`, `/`) skipped;
/// `None` for any other byte or another count of digits.
pub(crate) fn digit_values<const N: usize>(value: &[u8]) -> Option<[u8; N]> {
    let mut out = [0u8; N];
    let mut n = 0;
    for &b in value {
        if b.is_ascii_digit() {
            *out.get_mut(n)? = b - b'0';
            n += 1;
        } else if !matches!(b, b' ' | b'-' | b'.' | b'/') {
            return None;
        }
    }
    (n == N).then_some(out)
}

/// The number of decimal digits in `value`.
pub(crate) fn count_digits(value: &[u8]) -> usize {
    value.iter().filter(|b| b.is_ascii_digit()).count()
}

/// Σ digit × weight.
pub(crate) fn weighted(digits: &[u8], weights: &[u32]) -> u32 {
    digits.iter().zip(weights).map(|(&d, &w)| u32::from(d) * w).sum()
}

/// The decimal number written by these digit values.
pub(crate) fn number(digits: &[u8]) -> u32 {
    digits.iter().fold(0u32, |acc, &d| acc.wrapping_mul(10).wrapping_add(u32::from(d)))
}

/// The decimal number written by these ASCII digits (`None` if one is not a digit).
pub(crate) fn ascii_number(bytes: &[u8]) -> Option<u32> {
    bytes.iter().try_fold(0u32, |acc, &b| b.is_ascii_digit().then(|| acc * 10 + u32::from(b - b'0')))
}

/// Every digit the same (`111.111.111-11` passes the CPF check).
pub(crate) fn all_same(digits: &[u8]) -> bool {
    digits.windows(2).all(|w| w.first() == w.last())
}

/// A Gregorian calendar date.
pub(crate) fn valid_date(year: u32, month: u32, day: u32) -> bool {
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&day)
}

/// `YYMMDD` as ASCII digits at `at` of `bytes`: a date in some century (a 29 February
/// needs a year divisible by four).
pub(crate) fn yymmdd_at(bytes: &[u8], at: usize) -> bool {
    let part = |i: usize| bytes.get(at + i..at + i + 2).and_then(ascii_number);
    match (part(0), part(2), part(4)) {
        (Some(y), Some(m), Some(d)) => valid_date(2000 + y, m, d),
        _ => false,
    }
}

// ---------------------------------------------------------------------------
// Check digits and structures
// ---------------------------------------------------------------------------

/// Canada SIN: nine digits, Luhn; the first is never 8 (a business number). A first 0
/// is assigned to no one, but it is how the government's specimen (`046 454 286`) and
/// the numbers people make up to try a form are written: after a SIN label, a number
/// that passes the check is taken.
pub(crate) fn ca_sin(value: &[u8]) -> bool {
    digit_values::<9>(value).is_some_and(|d| d.first() != Some(&8) && luhn(&d))
}

/// Australian TFN: nine digits weighted 1 4 3 7 5 8 6 9 10 (or eight weighted
/// 10 7 8 4 6 3 5 1, the older numbers), the sum divisible by 11.
pub(crate) fn au_tfn(value: &[u8]) -> bool {
    if let Some(d) = digit_values::<9>(value) {
        return !all_same(&d) && weighted(&d, &[1, 4, 3, 7, 5, 8, 6, 9, 10]) % 11 == 0;
    }
    digit_values::<8>(value).is_some_and(|d| !all_same(&d) && weighted(&d, &[10, 7, 8, 4, 6, 3, 5, 1]) % 11 == 0)
}

/// Australian ABN: subtract 1 from the first digit, weight 10 1 3 5 7 9 11 13 15 17 19,
/// the sum divisible by 89.
pub(crate) fn au_abn(value: &[u8]) -> bool {
    let Some(mut d) = digit_values::<11>(value) else { return false };
    match d.first_mut() {
        Some(first) if *first > 0 => *first -= 1,
        _ => return false,
    }
    weighted(&d, &[10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19]) % 89 == 0
}

/// Australian ACN: the first eight digits weighted 8 … 1; the ninth is the complement
/// of the sum mod 10.
pub(crate) fn au_acn(value: &[u8]) -> bool {
    let Some(d) = digit_values::<9>(value) else { return false };
    let sum = weighted(&d, &[8, 7, 6, 5, 4, 3, 2, 1]);
    !all_same(&d) && d.get(8).is_some_and(|&c| u32::from(c) == (10 - sum % 10) % 10)
}

/// Australian Medicare card: first digit 2–6, the first eight weighted 1 3 7 9 1 3 7 9,
/// the sum mod 10 is the ninth; then the card's issue number, and optionally the
/// person's reference number (IRN).
pub(crate) fn au_medicare(value: &[u8]) -> bool {
    let n = count_digits(value);
    if n != 10 && n != 11 {
        return false;
    }
    let mut d = [0u8; 11];
    for (slot, b) in d.iter_mut().zip(value.iter().filter(|b| b.is_ascii_digit())) {
        *slot = b - b'0';
    }
    let first = d.first().copied().unwrap_or(0);
    let check = d.get(8).copied().map(u32::from);
    (2..=6).contains(&first) && check == Some(weighted(&d, &[1, 3, 7, 9, 1, 3, 7, 9]) % 10)
}

/// Verhoeff's dihedral-group check (Aadhaar): the multiplication table of D5.
pub(crate) const VERHOEFF_D: [[u8; 10]; 10] = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    [1, 2, 3, 4, 0, 6, 7, 8, 9, 5],
    [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
    [3, 4, 0, 1, 2, 8, 9, 5, 6, 7],
    [4, 0, 1, 2, 3, 9, 5, 6, 7, 8],
    [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
    [6, 5, 9, 8, 7, 1, 0, 4, 3, 2],
    [7, 6, 5, 9, 8, 2, 1, 0, 4, 3],
    [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
    [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
];
/// Verhoeff's position permutations (row `i % 8` for the `i`-th digit from the right).
pub(crate) const VERHOEFF_P: [[u8; 10]; 8] = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    [1, 5, 7, 6, 2, 8, 3, 0, 9, 4],
    [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
    [8, 9, 1, 6, 0, 4, 3, 5, 2, 7],
    [9, 4, 5, 3, 1, 2, 6, 8, 7, 0],
    [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
    [2, 7, 9, 3, 8, 0, 6, 4, 1, 5],
    [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
];

/// The Verhoeff check over digit values, check digit last.
pub(crate) fn verhoeff(digits: &[u8]) -> bool {
    let mut c = 0u8;
    for (i, &d) in digits.iter().rev().enumerate() {
        let p = VERHOEFF_P.get(i % 8).and_then(|row| row.get(usize::from(d))).copied().unwrap_or(0);
        c = VERHOEFF_D.get(usize::from(c)).and_then(|row| row.get(usize::from(p))).copied().unwrap_or(1);
    }
    !digits.is_empty() && c == 0
}

/// Aadhaar: twelve digits, the first 2–9, Verhoeff.
pub(crate) fn in_aadhaar(value: &[u8]) -> bool {
    digit_values::<12>(value).is_some_and(|d| d.first().is_some_and(|&f| f >= 2) && verhoeff(&d))
}

/// The value of a base-36 character (`0-9A-Z`).
pub(crate) fn base36(b: u8) -> Option<u32> {
    match b {
        b'0'..=b'9' => Some(u32::from(b - b'0')),
        b'A'..=b'Z' => Some(u32::from(b - b'A') + 10),
        _ => None,
    }
}

/// GSTIN: fifteen characters whose last is the mod-36 check character of the first
/// fourteen (factors 1, 2 alternating; each product's base-36 digits summed).
pub(crate) fn in_gstin(value: &[u8]) -> bool {
    if value.len() != 15 {
        return false;
    }
    let mut sum = 0u32;
    for (i, &b) in value.iter().take(14).enumerate() {
        let Some(v) = base36(b) else { return false };
        let product = v * if i % 2 == 0 { 1 } else { 2 };
        sum += product / 36 + product % 36;
    }
    value.last().and_then(|&b| base36(b)) == Some((36 - sum % 36) % 36)
}

/// An Indian voter ID (EPIC) found after its name: not a placeholder of zeros.
pub(crate) fn in_epic(value: &[u8]) -> bool {
    value.iter().filter(|b| b.is_ascii_digit()).any(|&b| b != b'0')
}

/// One CPF / CNPJ check digit: Σ digit × weight mod 11; 0 or 1 give 0, else 11 − r.
pub(crate) fn mod11_br(digits: &[u8], weights: &[u32]) -> u8 {
    let r = weighted(digits, weights) % 11;
    if r < 2 {
        0
    } else {
        (11 - r) as u8
    }
}

/// Brazil CPF: eleven digits, two mod-11 check digits, not all the same digit.
pub(crate) fn br_cpf(value: &[u8]) -> bool {
    let Some(d) = digit_values::<11>(value) else { return false };
    let (Some(body), Some(&c1), Some(&c2)) = (d.get(..9), d.get(9), d.get(10)) else { return false };
    let first = mod11_br(body, &[10, 9, 8, 7, 6, 5, 4, 3, 2]);
    let second = mod11_br(d.get(..10).unwrap_or_default(), &[11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
    !all_same(&d) && c1 == first && c2 == second
}

/// Brazil CNPJ: fourteen digits, two mod-11 check digits, not all the same digit.
pub(crate) fn br_cnpj(value: &[u8]) -> bool {
    let Some(d) = digit_values::<14>(value) else { return false };
    let (Some(body), Some(&c1), Some(&c2)) = (d.get(..12), d.get(12), d.get(13)) else { return false };
    let first = mod11_br(body, &[5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
    let second = mod11_br(d.get(..13).unwrap_or_default(), &[6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
    !all_same(&d) && c1 == first && c2 == second
}

/// The value of a CURP character: digits 0–9, `A`–`N` 10–23, (`Ñ` 24), `O`–`Z` 25–36.
pub(crate) fn curp_value(b: u8) -> Option<u32> {
    match b {
        b'0'..=b'9' => Some(u32::from(b - b'0')),
        b'A'..=b'N' => Some(u32::from(b - b'A') + 10),
        b'O'..=b'Z' => Some(u32::from(b - b'O') + 25),
        _ => None,
    }
}

/// Mexico CURP (RENAPO): birth date `YYMMDD` at 5–10, and the 18th character is
/// (10 − Σ value × (18 − i) mod 10) mod 10 over the first seventeen.
pub(crate) fn mx_curp(value: &[u8]) -> bool {
    if value.len() != 18 || !yymmdd_at(value, 4) {
        return false;
    }
    let mut sum = 0u32;
    for (i, &b) in value.iter().take(17).enumerate() {
        let Some(v) = curp_value(b) else { return false };
        sum += v * (18 - i as u32);
    }
    value.last().and_then(|&b| curp_value(b)) == Some((10 - sum % 10) % 10)
}

/// The value of an RFC character in the SAT's table `0-9 A-N & O-Z space Ñ`.
pub(crate) fn rfc_value(b: u8) -> Option<u32> {
    match b {
        b'0'..=b'9' => Some(u32::from(b - b'0')),
        b'A'..=b'N' => Some(u32::from(b - b'A') + 10),
        b'&' => Some(24),
        b'O'..=b'Z' => Some(u32::from(b - b'O') + 25),
        b' ' => Some(37),
        _ => None,
    }
}

/// Mexico RFC (SAT): 13 characters for a person, 12 for a company (read with a leading
/// space); the date part is a date, and the last is 11 − (Σ value × (13 − i) mod 11),
/// written `0` for 11 and `A` for 10.
pub(crate) fn mx_rfc(value: &[u8]) -> bool {
    let pad = match value.len() {
        13 => 0,
        12 => 1,
        _ => return false,
    };
    if !yymmdd_at(value, 4 - pad) {
        return false;
    }
    let mut sum = if pad == 1 { 37 * 13 } else { 0 };
    for (i, &b) in value.iter().take(value.len() - 1).enumerate() {
        let Some(v) = rfc_value(b) else { return false };
        sum += v * (13 - (i + pad) as u32);
    }
    let want = match 11 - sum % 11 {
        11 => b'0',
        10 => b'A',
        d => b'0' + d as u8,
    };
    value.last() == Some(&want)
}

/// Singapore NRIC / FIN: weights 2 7 6 5 4 3 2 over the seven digits, plus 4 for the
/// T and G series (3 for M); the remainder mod 11 picks the letter.
pub(crate) fn sg_nric(value: &[u8]) -> bool {
    let (Some(&series), Some(&letter)) = (value.first(), value.get(8)) else { return false };
    let Some(d) = value.get(1..8).and_then(digit_values::<7>) else { return false };
    let sum = weighted(&d, &[2, 7, 6, 5, 4, 3, 2]);
    let (table, r): (&[u8; 11], u32) = match series {
        b'S' => (b"JZIHGFEDCBA", sum % 11),
        b'T' => (b"JZIHGFEDCBA", (sum + 4) % 11),
        b'F' => (b"XWUTRQPNMLK", sum % 11),
        b'G' => (b"XWUTRQPNMLK", (sum + 4) % 11),
        b'M' => (b"KLJNPQRTUWX", 10 - (sum + 3) % 11),
        _ => return false,
    };
    value.len() == 9 && table.get(r as usize) == Some(&letter)
}

/// The entity-type codes of a UEN issued by other agencies (`TyyPQnnnnC`).
pub(crate) const UEN_ENTITY_TYPES: &[&[u8; 2]] = &[
    b"LP", b"LL", b"FC", b"PF", b"RF", b"MQ", b"MM", b"NB", b"CC", b"CS", b"MB", b"FM", b"GS", b"GA", b"GB", b"DP",
    b"CP", b"NR", b"CM", b"CD", b"MD", b"HS", b"VH", b"CH", b"MH", b"CL", b"XL", b"CX", b"RP", b"TU", b"TC", b"FB",
    b"FN", b"PA", b"PB", b"SS", b"MC", b"SM",
];

/// Singapore UEN: `nnnnnnnnC` (business), `yyyynnnnnC` (local company, a plausible
/// year) or `TyyPQnnnnC` with a known entity type (other entities).
pub(crate) fn sg_uen(value: &[u8]) -> bool {
    match value.len() {
        9 => true,
        10 if value.first().is_some_and(u8::is_ascii_digit) => {
            value.get(..4).and_then(ascii_number).is_some_and(|y| (1800..=2099).contains(&y))
        }
        10 => value.get(3..5).is_some_and(|t| UEN_ENTITY_TYPES.iter().any(|e| e.as_slice() == t)),
        _ => false,
    }
}

/// Korean RRN: `YYMMDD` a date, the seventh digit the century and sex (1–8), and before
/// October 2020 the thirteenth digit (11 − Σ digit × 2 3 4 5 6 7 8 9 2 3 4 5 mod 11) mod 10;
/// numbers issued since then end in random digits, so a birth date in or after 2020
/// asks for no check digit.
pub(crate) fn kr_rrn(value: &[u8]) -> bool {
    let Some(d) = digit_values::<13>(value) else { return false };
    let century = match d.get(6) {
        Some(1 | 2 | 5 | 6) => 1900,
        Some(3 | 4 | 7 | 8) => 2000,
        _ => return false,
    };
    let year = century + number(d.get(..2).unwrap_or_default());
    let (month, day) = (number(d.get(2..4).unwrap_or_default()), number(d.get(4..6).unwrap_or_default()));
    if !valid_date(year, month, day) {
        return false;
    }
    let sum = weighted(&d, &[2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5]);
    year >= 2020 || d.get(12).is_some_and(|&c| u32::from(c) == (11 - sum % 11) % 10)
}

/// Japan My Number (個人番号): eleven digits and a check digit, 11 − (Σ Pn × Qn mod 11)
/// with Pn the n-th digit from the right and Qn = n + 1 up to 6, n − 5 after; 0 when the
/// remainder is 0 or 1.
pub(crate) fn jp_my_number(value: &[u8]) -> bool {
    let Some(d) = digit_values::<12>(value) else { return false };
    let sum: u32 = d
        .iter()
        .take(11)
        .rev()
        .enumerate()
        .map(|(i, &p)| {
            let n = i as u32 + 1;
            u32::from(p) * if n <= 6 { n + 1 } else { n - 5 }
        })
        .sum();
    let r = sum % 11;
    let check = if r <= 1 { 0 } else { 11 - r };
    !all_same(&d) && d.get(11).is_some_and(|&c| u32::from(c) == check)
}

/// China resident identity number (GB 11643): area, `YYYYMMDD`, sequence, and an
/// ISO 7064 MOD 11-2 check character (`X` for 10).
pub(crate) fn cn_resident_id(value: &[u8]) -> bool {
    if value.len() != 18 {
        return false;
    }
    let date = (
        value.get(6..10).and_then(ascii_number),
        value.get(10..12).and_then(ascii_number),
        value.get(12..14).and_then(ascii_number),
    );
    let (Some(y), Some(m), Some(d)) = date else { return false };
    if !valid_date(y, m, d) {
        return false;
    }
    let mut sum = 0u32;
    for (i, &b) in value.iter().take(17).enumerate() {
        if !b.is_ascii_digit() {
            return false;
        }
        // Weight 2^(17 − i) mod 11.
        let w = (0..17 - i).fold(1u32, |acc, _| acc * 2 % 11);
        sum += u32::from(b - b'0') * w;
    }
    let check = (12 - sum % 11) % 11;
    let last = value.last().copied();
    if check == 10 {
        matches!(last, Some(b'X' | b'x'))
    } else {
        last == Some(b'0' + check as u8)
    }
}

/// [`cn_resident_id`] of a number written in its groups (`320102 19900807 421X`,
/// region, birth date, sequence and check): the separators dropped.
pub(crate) fn cn_resident_id_grouped(value: &[u8]) -> bool {
    let mut plain = [0u8; 18];
    let mut n = 0;
    for &b in value.iter().filter(|&&b| b != b' ' && b != b'-') {
        let Some(slot) = plain.get_mut(n) else { return false };
        *slot = b;
        n += 1;
    }
    n == 18 && cn_resident_id(&plain)
}

/// South African identity number: `YYMMDD`, four sequence digits, citizenship 0–2,
/// a digit (8 or 9 in practice), Luhn.
pub(crate) fn za_id(value: &[u8]) -> bool {
    digit_values::<13>(value).is_some_and(|d| yymmdd_at(value, 0) && d.get(10).is_some_and(|&c| c <= 2) && luhn(&d))
}

/// A number found after its name: the digit count of its kind, not a run of one digit.
pub(crate) fn plain_number(value: &[u8], counts: &[usize]) -> bool {
    let n = count_digits(value);
    let mut d = [0u8; 20];
    for (slot, b) in d.iter_mut().zip(value.iter().filter(|b| b.is_ascii_digit())) {
        *slot = *b;
    }
    counts.contains(&n) && !all_same(d.get(..n.min(20)).unwrap_or_default())
}

/// Nigeria NIN: eleven digits.
pub(crate) fn ng_nin(value: &[u8]) -> bool {
    plain_number(value, &[11])
}

/// Philippines TIN: nine digits and a three- or five-digit branch code.
pub(crate) fn ph_tin(value: &[u8]) -> bool {
    plain_number(value, &[9, 12, 14])
}

/// PhilSys number (16 digits) or UMID CRN (12 digits).
pub(crate) fn ph_philsys(value: &[u8]) -> bool {
    plain_number(value, &[12, 16])
}

/// US ABA routing number: 3 7 1 weights sum to a multiple of 10, and the first two
/// digits are a Federal Reserve routing symbol (01–12, 21–32, thrifts 61–72, 80 travellers
/// cheques; 00 the US government).
pub(crate) fn us_aba(value: &[u8]) -> bool {
    let Some(d) = digit_values::<9>(value) else { return false };
    let prefix = number(d.get(..2).unwrap_or_default());
    let ok_prefix = matches!(prefix, 0..=12 | 21..=32 | 61..=72 | 80);
    ok_prefix && !all_same(&d) && weighted(&d, &[3, 7, 1, 3, 7, 1, 3, 7, 1]) % 10 == 0
}

/// A bank account number found after its name: 6 to 17 digits, not one digit repeated,
/// not a date written `YYYY-MM-DD`.
pub(crate) fn bank_account(value: &[u8]) -> bool {
    let date = value.len() == 10
        && value.get(4) == Some(&b'-')
        && value.get(7) == Some(&b'-')
        && value.get(..4).and_then(ascii_number).is_some_and(|y| (1900..=2099).contains(&y));
    !date && plain_number(value, &[6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17])
}

/// A Polish account number (NRB): the 26 digits of a Polish IBAN without its `PL`,
/// checked as that IBAN (mod 97, with `PL` read as 25 21).
pub(crate) fn pl_nrb(value: &[u8]) -> bool {
    if value.iter().any(|b| !b.is_ascii_digit() && *b != b' ') {
        return false;
    }
    let mut digits = value.iter().filter(|b| b.is_ascii_digit()).map(|b| b - b'0');
    let (Some(c1), Some(c2)) = (digits.next(), digits.next()) else { return false };
    // The 24 digits of the account, then `PL` and the check digits.
    let (rem, count) = digits.fold((0u32, 0usize), |(r, n), d| ((r * 10 + u32::from(d)) % 97, n + 1));
    let rem = [2, 5, 2, 1, c1, c2].iter().fold(rem, |r, &d| (r * 10 + u32::from(d)) % 97);
    count == 24 && rem == 1
}

/// A UK sort code or an Australian BSB: six digits, not one digit repeated.
pub(crate) fn six_digit_branch(value: &[u8]) -> bool {
    digit_values::<6>(value).is_some_and(|d| !all_same(&d))
}

/// Indian IFSC (RBI): four letters of the bank, a `0` reserved for future use, and six
/// letters or digits of the branch.
pub(crate) fn in_ifsc(value: &[u8]) -> bool {
    value.len() == 11
        && value.get(..4).is_some_and(|b| b.iter().all(u8::is_ascii_uppercase))
        && value.get(4) == Some(&b'0')
        && value.get(5..).is_some_and(|b| b.iter().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit()))
}

/// A Brazilian branch (agência) number: four digits and an optional check digit (or X),
/// not `0000`.
pub(crate) fn br_agencia(value: &[u8]) -> bool {
    value.get(..4).is_some_and(|b| b.iter().all(u8::is_ascii_digit) && b != b"0000")
}

/// RG of São Paulo (SSP-SP): eight digits and a check character, the sum of the digits
/// weighted 9 8 7 6 5 4 3 2 mod 11 (10 written `X`).
pub(crate) fn br_rg(value: &[u8]) -> bool {
    let Some((&last, body)) = value.split_last() else { return false };
    let Some(d) = digit_values::<8>(body.strip_suffix(b"-").unwrap_or(body)) else { return false };
    let r = weighted(&d, &[9, 8, 7, 6, 5, 4, 3, 2]) % 11;
    let want = if r == 10 { b'X' } else { b'0' + r as u8 };
    !all_same(&d) && last.to_ascii_uppercase() == want
}

/// Cartão Nacional de Saúde (CNS): fifteen digits, the first 1 or 2 (numbers derived
/// from the PIS) or 7, 8, 9 (provisional); the digits weighted 15 … 1 sum to a multiple
/// of 11.
pub(crate) fn br_cns(value: &[u8]) -> bool {
    let Some(d) = digit_values::<15>(value) else { return false };
    let weights: [u32; 15] = [15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1];
    matches!(d.first(), Some(1 | 2 | 7 | 8 | 9)) && weighted(&d, &weights) % 11 == 0 && !all_same(&d)
}

/// A passport number of letters and digits after the word for passport: eight or nine
/// characters with a letter and a digit (German numbers use `CFGHJKLMNPRTVWXYZ` and
/// digits; Dutch ones letters and digits ending in a digit).
pub(crate) fn passport_alnum(value: &[u8]) -> bool {
    (8..=9).contains(&value.len())
        && value.iter().any(u8::is_ascii_digit)
        && value.iter().any(u8::is_ascii_uppercase)
        && value.iter().all(|b| b.is_ascii_digit() || b.is_ascii_uppercase())
}

/// An Ethereum address in lower case without a word that names it: not a placeholder.
pub(crate) fn eth_lower(value: &[u8]) -> bool {
    value.get(2..).is_some_and(|hex| hex.len() == 40 && varied_hex(hex))
}

/// US NPI: ten digits, Luhn over `80840` and the number (ISO 7812 card-issuer prefix).
pub(crate) fn us_npi(value: &[u8]) -> bool {
    let Some(d) = digit_values::<10>(value) else { return false };
    let mut full = [8, 0, 8, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    for (slot, &x) in full.iter_mut().skip(5).zip(&d) {
        *slot = x;
    }
    luhn(&full)
}

/// US Medicare Beneficiary Identifier: the pattern holds the positions; the two dashes
/// of the printed form come together or not at all.
pub(crate) fn us_mbi(value: &[u8]) -> bool {
    let dashes = value.iter().filter(|&&b| b == b'-').count();
    (dashes == 0 && value.len() == 11) || (dashes == 2 && value.len() == 13)
}

/// A passport or licence number after its label: 6 to 18 characters with at least two
/// digits (a label followed by a word is not a number).
pub(crate) fn document_number(value: &[u8]) -> bool {
    (6..=18).contains(&value.len()) && count_digits(value) >= 2
}

// --- Bitcoin and other base58check addresses --------------------------------

/// The base58 alphabet's value of `b`.
pub(crate) fn base58(b: u8) -> Option<u32> {
    const ALPHABET: &[u8; 58] = b"123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
    ALPHABET.iter().position(|&a| a == b).map(|p| p as u32)
}

/// A base58check address of 25 bytes (version, 20-byte hash, 4-byte checksum) whose
/// version byte is Bitcoin's (0 P2PKH, 5 P2SH), Litecoin's (48, 50) or Dogecoin's (30),
/// and whose checksum is the first four bytes of SHA-256(SHA-256(version ‖ hash)).
pub(crate) fn base58check_address(value: &[u8]) -> bool {
    use sha2::{Digest, Sha256};
    let mut bytes = [0u8; 25];
    for &c in value {
        let Some(mut carry) = base58(c) else { return false };
        for byte in bytes.iter_mut().rev() {
            carry += u32::from(*byte) * 58;
            *byte = (carry & 0xff) as u8;
            carry >>= 8;
        }
        if carry != 0 {
            return false;
        }
    }
    // Each leading `1` is a leading zero byte, and only those are.
    let ones = value.iter().take_while(|&&c| c == b'1').count();
    let zeros = bytes.iter().take_while(|&&b| b == 0).count();
    if ones != zeros {
        return false;
    }
    let (Some(payload), Some(checksum)) = (bytes.get(..21), bytes.get(21..)) else { return false };
    let digest = Sha256::digest(Sha256::digest(payload));
    let version_ok = matches!(bytes.first(), Some(0x00 | 0x05 | 0x30 | 0x32 | 0x1e));
    version_ok && digest.get(..4) == Some(checksum)
}

// --- bech32 / bech32m (BIP-173, BIP-350) -----------------------------------

/// The bech32 alphabet's value of a lower-case `b`.
pub(crate) fn bech32_value(b: u8) -> Option<u8> {
    const CHARSET: &[u8; 32] = b"qpzry9x8gf2tvdw0s3jn54khce6mua7l";
    CHARSET.iter().position(|&a| a == b).map(|p| p as u8)
}

/// The BCH checksum state of BIP-173 after `values`.
pub(crate) fn bech32_polymod(state: u32, values: impl IntoIterator<Item = u8>) -> u32 {
    const GEN: [u32; 5] = [0x3b6a_57b2, 0x2650_8e6d, 0x1ea1_19fa, 0x3d42_33dd, 0x2a14_62b3];
    let mut chk = state;
    for v in values {
        let top = chk >> 25;
        chk = ((chk & 0x01ff_ffff) << 5) ^ u32::from(v);
        for (i, g) in GEN.iter().enumerate() {
            if (top >> i) & 1 == 1 {
                chk ^= g;
            }
        }
    }
    chk
}

/// A segwit address (`bc1…`, `tb1…`, `ltc1…`): one case, a valid bech32 checksum for
/// witness version 0 or bech32m for versions 1–16, and a witness program of 2–40 bytes
/// (20 or 32 for version 0).
pub(crate) fn segwit_address(value: &[u8]) -> bool {
    const BECH32M: u32 = 0x2bc8_30a3;
    if value.len() > 90 || (value.iter().any(u8::is_ascii_lowercase) && value.iter().any(u8::is_ascii_uppercase)) {
        return false;
    }
    let mut lower = [0u8; 90];
    for (slot, b) in lower.iter_mut().zip(value) {
        *slot = b.to_ascii_lowercase();
    }
    let lower = lower.get(..value.len()).unwrap_or_default();
    let Some(sep) = lower.iter().rposition(|&b| b == b'1') else { return false };
    let (Some(hrp), Some(data)) = (lower.get(..sep), lower.get(sep + 1..)) else { return false };
    if data.len() < 7 {
        return false;
    }
    let mut values = [0u8; 90];
    for (slot, &c) in values.iter_mut().zip(data) {
        let Some(v) = bech32_value(c) else { return false };
        *slot = v;
    }
    let values = values.get(..data.len()).unwrap_or_default();
    let expanded = hrp.iter().map(|b| b >> 5).chain(std::iter::once(0)).chain(hrp.iter().map(|b| b & 31));
    let chk = bech32_polymod(bech32_polymod(1, expanded), values.iter().copied());
    let Some(&version) = values.first() else { return false };
    let want = if version == 0 { 1 } else { BECH32M };
    if chk != want || version > 16 {
        return false;
    }
    // The program: 5-bit groups to bytes, leftover bits fewer than five and zero.
    let groups = values.get(1..values.len() - 6).unwrap_or_default();
    let (mut acc, mut bits, mut len) = (0u32, 0u32, 0usize);
    for &g in groups {
        acc = ((acc << 5) | u32::from(g)) & 0xfff;
        bits += 5;
        if bits >= 8 {
            bits -= 8;
            len += 1;
        }
    }
    let padding_ok = bits < 5 && acc & ((1 << bits) - 1) == 0;
    let len_ok = if version == 0 { len == 20 || len == 32 } else { (2..=40).contains(&len) };
    padding_ok && len_ok
}

// --- Ethereum (EIP-55) -------------------------------------------------------

/// Keccak-f[1600] round constants.
pub(crate) const KECCAK_RC: [u64; 24] = [
    0x0000_0000_0000_0001,
    0x0000_0000_0000_8082,
    0x8000_0000_0000_808a,
    0x8000_0000_8000_8000,
    0x0000_0000_0000_808b,
    0x0000_0000_8000_0001,
    0x8000_0000_8000_8081,
    0x8000_0000_0000_8009,
    0x0000_0000_0000_008a,
    0x0000_0000_0000_0088,
    0x0000_0000_8000_8009,
    0x0000_0000_8000_000a,
    0x0000_0000_8000_808b,
    0x8000_0000_0000_008b,
    0x8000_0000_0000_8089,
    0x8000_0000_0000_8003,
    0x8000_0000_0000_8002,
    0x8000_0000_0000_0080,
    0x0000_0000_0000_800a,
    0x8000_0000_8000_000a,
    0x8000_0000_8000_8081,
    0x8000_0000_0000_8080,
    0x0000_0000_8000_0001,
    0x8000_0000_8000_8008,
];
/// The ρ rotations along the π walk that starts at lane 1.
pub(crate) const KECCAK_ROT: [u32; 24] =
    [1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 2, 14, 27, 41, 56, 8, 25, 43, 62, 18, 39, 61, 20, 44];
/// The lanes of the π walk (index x + 5y).
pub(crate) const KECCAK_PI: [usize; 24] =
    [10, 7, 11, 17, 18, 3, 5, 16, 8, 21, 24, 4, 15, 23, 19, 13, 12, 2, 20, 14, 22, 9, 6, 1];

/// The Keccak-f[1600] permutation (FIPS 202 §3.3, 24 rounds of θ ρ π χ ι).
pub(crate) fn keccak_f(st: &mut [u64; 25]) {
    for rc in KECCAK_RC {
        // θ: each lane takes the parity of the two neighbouring columns.
        let mut c = [0u64; 5];
        for row in st.chunks_exact(5) {
            for (cx, lane) in c.iter_mut().zip(row) {
                *cx ^= lane;
            }
        }
        let (mut left, mut right) = (c, c);
        left.rotate_right(1); // left[x] = c[x − 1]
        right.rotate_left(1); // right[x] = c[x + 1]
        for row in st.chunks_exact_mut(5) {
            for ((lane, l), r) in row.iter_mut().zip(left).zip(right) {
                *lane ^= l ^ r.rotate_left(1);
            }
        }
        // ρ and π.
        let mut carried = st.get(1).copied().unwrap_or(0);
        for (&rot, &to) in KECCAK_ROT.iter().zip(&KECCAK_PI) {
            if let Some(lane) = st.get_mut(to) {
                let next = *lane;
                *lane = carried.rotate_left(rot);
                carried = next;
            }
        }
        // χ.
        for row in st.chunks_exact_mut(5) {
            let Ok(a) = <[u64; 5]>::try_from(&*row) else { continue };
            let (mut b, mut c) = (a, a);
            b.rotate_left(1);
            c.rotate_left(2);
            for (lane, ((x, y), z)) in row.iter_mut().zip(a.iter().zip(b).zip(c)) {
                *lane = x ^ (!y & z);
            }
        }
        // ι.
        if let Some(lane) = st.first_mut() {
            *lane ^= rc;
        }
    }
}

/// Keccak-256 (the pre-FIPS padding Ethereum uses) of a message shorter than one block.
pub(crate) fn keccak256_short(message: &[u8]) -> Option<[u8; 32]> {
    const RATE: usize = 136;
    if message.len() >= RATE {
        return None;
    }
    let mut block = [0u8; RATE];
    block.get_mut(..message.len())?.copy_from_slice(message);
    *block.get_mut(message.len())? ^= 0x01;
    *block.last_mut()? ^= 0x80;
    let mut st = [0u64; 25];
    for (lane, chunk) in st.iter_mut().zip(block.chunks_exact(8)) {
        *lane ^= u64::from_le_bytes(chunk.try_into().ok()?);
    }
    keccak_f(&mut st);
    let mut out = [0u8; 32];
    for (chunk, lane) in out.chunks_exact_mut(8).zip(st) {
        chunk.copy_from_slice(&lane.to_le_bytes());
    }
    Some(out)
}

/// EIP-55: each hex letter of the address is upper case exactly when the matching
/// nibble of keccak-256(lower-case hex) is 8 or more.
pub(crate) fn eip55(hex: &[u8]) -> bool {
    let mut lower = [0u8; 40];
    if hex.len() != 40 {
        return false;
    }
    for (slot, b) in lower.iter_mut().zip(hex) {
        *slot = b.to_ascii_lowercase();
    }
    let Some(hash) = keccak256_short(&lower) else { return false };
    hex.iter().enumerate().all(|(i, b)| {
        let nibble = hash.get(i / 2).map_or(0, |h| if i % 2 == 0 { h >> 4 } else { h & 0x0f });
        !b.is_ascii_alphabetic() || b.is_ascii_uppercase() == (nibble >= 8)
    })
}

/// At least eight different hex digits: not a placeholder like `0xdeadbeef…` or `0x000…1`
/// (40 random hex digits have about fifteen).
pub(crate) fn varied_hex(hex: &[u8]) -> bool {
    let mut seen = 0u16;
    for b in hex {
        if let Some(v) = (*b as char).to_digit(16) {
            seen |= 1 << v;
        }
    }
    seen.count_ones() >= 8
}

/// An Ethereum address in mixed case: its EIP-55 checksum holds.
pub(crate) fn eth_checksummed(value: &[u8]) -> bool {
    let Some(hex) = value.get(2..) else { return false };
    let mixed = hex.iter().any(u8::is_ascii_lowercase) && hex.iter().any(u8::is_ascii_uppercase);
    mixed && varied_hex(hex) && eip55(hex)
}

/// An Ethereum address after a word that names it: one case, or a valid EIP-55 mix;
/// not a placeholder (the null address, `0xdeadbeef…`).
pub(crate) fn eth_address(value: &[u8]) -> bool {
    let Some(hex) = value.get(2..) else { return false };
    let mixed = hex.iter().any(u8::is_ascii_lowercase) && hex.iter().any(u8::is_ascii_uppercase);
    varied_hex(hex) && (!mixed || eip55(hex))
}

// --- Keyword-labelled national numbers in Korean, Japanese, Chinese, Hindi ---

/// After 주민등록번호, マイナンバー, 身份证 or आधार: a Korean RRN (13 digits), a My Number
/// or Aadhaar (12), or a Chinese resident number (18).
pub(crate) fn cjk_national_id(value: &[u8]) -> bool {
    match count_digits(value) {
        13 => kr_rrn(value),
        12 => jp_my_number(value) || in_aadhaar(value),
        17 | 18 => cn_resident_id(value),
        _ => false,
    }
}

// ---------------------------------------------------------------------------
// Context
// ---------------------------------------------------------------------------
