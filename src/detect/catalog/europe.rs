//! National identifiers of European countries: identity, social-insurance, health and
//! tax numbers of persons, company registration numbers and VAT numbers, each with
//! the check its issuer publishes (check digits, dates of birth, allocation rules).
//!
//! Numbers that are only digits and whose check passes one time in ten or so (a
//! nine-digit BSN, an eleven-digit PESEL) run only near the words that name them
//! (`Gate::Near`); formats that carry letters or a fixed prefix (a NINO, a codice
//! fiscale, a VAT number, AHV's `756`) run wherever the text has such a token
//! ([`id_runs`], `Gate::NumericRun`). Every value in the examples is synthetic (check
//! digits computed for this file) or a specimen its issuer publishes.

use crate::detect::rule::{push_window, BuiltinRule, Context, Gate, Severity, BASE};
use crate::detect::text::Text;
use crate::detect::validate::{luhn, Validator};

// ---------------------------------------------------------------------------------
// Windows
// ---------------------------------------------------------------------------------

/// The fewest digits a run must have to be searched: a codice fiscale has seven
/// (five when two are written as letters, *omocodia*), a NINO six.
const RUN_MIN_DIGITS: usize = 5;

/// Windows over the maximal runs of digits, upper-case letters, spaces, `.`, `-` and
/// `+` that hold at least [`RUN_MIN_DIGITS`] digits, with one byte of context on each
/// side (for `\b` and the clean-right check). Every rule gated here has a pattern made
/// of those bytes only (case-sensitive), so each of its matches lies inside one run;
/// the runs are found once per scan for all of them, from the masks of [`Text`]
/// ([`Text::digit_id_runs`]): only digits in five or more such bytes in a row are looked
/// at, not the digits of every hex id and short number of a log.
pub fn id_runs(t: &Text<'_>) -> Vec<(usize, usize)> {
    let text = t.bytes();
    let mut windows: Vec<(usize, usize)> = Vec::new();
    // A run with five digits is at least five bytes long.
    for (start, end) in t.digit_id_runs(RUN_MIN_DIGITS) {
        let digits = text.get(start..end).unwrap_or_default().iter().filter(|b| b.is_ascii_digit()).count();
        if digits >= RUN_MIN_DIGITS {
            push_window(&mut windows, start.saturating_sub(1), (end + 1).min(text.len()));
        }
    }
    windows
}

/// [`id_runs`] as a rule's window finder; it finds nothing without a digit (a run has
/// five).
pub const ID_RUNS: crate::detect::rule::WindowFinder =
    crate::detect::rule::WindowFinder { find: id_runs, needs: crate::detect::text::Needs::DIGIT };

// ---------------------------------------------------------------------------------
// Shared arithmetic
// ---------------------------------------------------------------------------------

/// Separators people write inside identifiers.
fn separator(b: u8) -> bool {
    matches!(b, b' ' | b'.' | b'-' | b'/' | b'+')
}

/// The digit values of `m`, separators skipped; `None` on another byte or a count
/// other than `N`.
fn digits<const N: usize>(m: &[u8]) -> Option<[u8; N]> {
    let mut out = [0u8; N];
    let mut n = 0;
    for &b in m {
        if b.is_ascii_digit() {
            *out.get_mut(n)? = b - b'0';
            n += 1;
        } else if !separator(b) {
            return None;
        }
    }
    (n == N).then_some(out)
}

/// The letters (upper-cased) and digits of `m` as ASCII bytes into `out`, separators
/// skipped; their count, `None` on another byte or too many.
fn compact(m: &[u8], out: &mut [u8]) -> Option<usize> {
    let mut n = 0;
    for &b in m {
        if b.is_ascii_alphanumeric() {
            *out.get_mut(n)? = b.to_ascii_uppercase();
            n += 1;
        } else if !separator(b) {
            return None;
        }
    }
    Some(n)
}

/// [`compact`] of exactly `N` characters.
fn chars<const N: usize>(m: &[u8]) -> Option<[u8; N]> {
    let mut out = [0u8; N];
    let mut wide = [0u8; 32];
    let n = compact(m, &mut wide)?;
    if n != N {
        return None;
    }
    out.copy_from_slice(wide.get(..N)?);
    Some(out)
}

/// Digit values of ASCII digits; `None` if one is not a digit.
fn values<const N: usize>(ascii: &[u8]) -> Option<[u8; N]> {
    let mut out = [0u8; N];
    if ascii.len() != N {
        return None;
    }
    for (o, &b) in out.iter_mut().zip(ascii) {
        if !b.is_ascii_digit() {
            return None;
        }
        *o = b - b'0';
    }
    Some(out)
}

/// The number the digit values spell.
fn number(d: &[u8]) -> u64 {
    d.iter().fold(0u64, |acc, &x| acc.wrapping_mul(10).wrapping_add(u64::from(x)))
}

/// Σ dᵢ·wᵢ over the shorter of the two.
fn weighted(d: &[u8], w: &[u32]) -> u32 {
    d.iter().zip(w).map(|(&x, &w)| u32::from(x) * w).sum()
}

fn all_same(d: &[u8]) -> bool {
    d.windows(2).all(|w| matches!(w, [a, b] if a == b))
}

/// The check digit of ISO/IEC 7064 MOD 11,10 over digit values.
fn mod11_10(d: &[u8]) -> u8 {
    let mut product = 10u32;
    for &x in d {
        let mut sum = (u32::from(x) + product) % 10;
        if sum == 0 {
            sum = 10;
        }
        product = (sum * 2) % 11;
    }
    let check = 11 - product;
    if check == 10 {
        0
    } else {
        check as u8
    }
}

/// The digit sum of a product (`14` counts 1 + 4).
fn cross(x: u32) -> u32 {
    x / 10 + x % 10
}

/// A calendar date; a two-digit year (`None` century) allows 29 February whenever
/// the year may be a leap year.
fn date_ok(day: u32, month: u32, year: Option<u32>, yy: u32) -> bool {
    let leap = match year {
        Some(y) => (y % 4 == 0 && y % 100 != 0) || y % 400 == 0,
        None => yy % 4 == 0,
    };
    let days = match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        1..=12 => 31,
        _ => return false,
    };
    (1..=days).contains(&day)
}

/// Two digit values as a number.
fn two(a: u8, b: u8) -> u32 {
    u32::from(a) * 10 + u32::from(b)
}

// ---------------------------------------------------------------------------------
// United Kingdom
// ---------------------------------------------------------------------------------

/// NHS number: ten digits, the last a modulus-11 check over the first nine (weights
/// 10 to 2, check = 11 − remainder, 11 → 0, 10 never issued).
fn uk_nhs(m: &[u8]) -> bool {
    let Some(d) = digits::<10>(m) else { return false };
    let [.., check] = d;
    let c = 11 - weighted(&d, &[10, 9, 8, 7, 6, 5, 4, 3, 2]) % 11;
    let c = if c == 11 { 0 } else { c };
    c != 10 && c == u32::from(check) && !all_same(&d)
}

/// National Insurance number (HMRC NIM39110): two prefix letters, neither D, F, I, Q,
/// U nor V, the second not O, and not BG, GB, KN, NK, NT, TN or ZZ; six digits; the
/// suffix A, B, C or D.
fn uk_nino(m: &[u8]) -> bool {
    let Some(c) = chars::<9>(m) else { return false };
    let [a, b, ..] = c;
    let [.., suffix] = c;
    let banned = [*b"BG", *b"GB", *b"KN", *b"NK", *b"NT", *b"TN", *b"ZZ"];
    a.is_ascii_uppercase()
        && b.is_ascii_uppercase()
        && !b"DFIQUV".contains(&a)
        && !b"DFIQUVO".contains(&b)
        && !banned.contains(&[a, b])
        && c.get(2..8).is_some_and(|s| s.iter().all(u8::is_ascii_digit))
        && (b'A'..=b'D').contains(&suffix)
}

/// The outward code of a UK postcode (BS 7666): A9, A99, AA9, AA99, A9A or AA9A; the
/// first letter never Q, V or X, the second never I, J or Z; a final letter after
/// `A9` from ABCDEFGHJKPSTUW, after `AA9` from ABEHMNPRVWXY.
fn uk_outward(o: &[u8]) -> bool {
    let first = |c: u8| c.is_ascii_uppercase() && !b"QVX".contains(&c);
    let second = |c: u8| c.is_ascii_uppercase() && !b"IJZ".contains(&c);
    match *o {
        [a, n] => first(a) && n.is_ascii_digit(),
        [a, n, x] if n.is_ascii_digit() => first(a) && (x.is_ascii_digit() || b"ABCDEFGHJKPSTUW".contains(&x)),
        [a, b, n] => first(a) && second(b) && n.is_ascii_digit(),
        [a, b, n, x] => {
            first(a) && second(b) && n.is_ascii_digit() && (x.is_ascii_digit() || b"ABEHMNPRVWXY".contains(&x))
        }
        _ => false,
    }
}

/// An address ending in a UK postcode: the inward code (a digit and two letters, never
/// C, I, K, M, O or V) and the outward code before it ([`uk_outward`]), or GIR 0AA.
fn uk_address(m: &[u8]) -> bool {
    let n = m.len();
    let (Some(rest), Some(inward)) = (m.get(..n.saturating_sub(3)), m.get(n.saturating_sub(3)..)) else {
        return false;
    };
    let rest = rest.strip_suffix(b" ").unwrap_or(rest);
    let start = rest.iter().rposition(|b| !b.is_ascii_alphanumeric()).map_or(0, |p| p + 1);
    let outward = rest.get(start..).unwrap_or_default();
    if outward == b"GIR" {
        return inward == b"0AA";
    }
    let inward_ok = matches!(*inward, [d, x, y] if d.is_ascii_digit()
        && [x, y].iter().all(|c| c.is_ascii_uppercase() && !b"CIKMOV".contains(c)));
    inward_ok && uk_outward(outward)
}

// ---------------------------------------------------------------------------------
// Germany
// ---------------------------------------------------------------------------------

/// Steuerliche Identifikationsnummer (§ 139b AO): eleven digits, the first not 0; in
/// the first ten exactly one digit appears twice or three times (three never in a
/// row) and the others at most once; the last is the ISO 7064 MOD 11,10 check digit.
fn de_steuer_id(m: &[u8]) -> bool {
    let Some(d) = digits::<11>(m) else { return false };
    let [first, .., check] = d;
    let body = d.get(..10).unwrap_or_default();
    let mut counts = [0u8; 10];
    for &x in body {
        if let Some(c) = counts.get_mut(usize::from(x)) {
            *c += 1;
        }
    }
    let repeated: Vec<u8> = counts.iter().copied().filter(|&c| c > 1).collect();
    let triple_in_a_row = body.windows(3).any(|w| matches!(w, [a, b, c] if a == b && b == c));
    first != 0 && matches!(repeated.as_slice(), [2] | [3]) && !triple_in_a_row && mod11_10(body) == check
}

/// Steuernummer: the 13-digit ELSTER form (`FFFF0BBBUUUUP`: the state's prefix — 10
/// Saarland, 11 Berlin, 21 Schleswig-Holstein, 22 Hamburg, 23 Niedersachsen, 24 Bremen,
/// 26 Hessen, 27 Rheinland-Pfalz, 28 Baden-Württemberg, 30 Brandenburg, 31
/// Sachsen-Anhalt, 32 Sachsen, 40 Mecklenburg-Vorpommern, 41 Thüringen, 5 Nordrhein-
/// Westfalen, 9 Bayern — and a 0 as the fifth digit) or a state's own form of 10 or 11
/// digits (`21/815/08150`, `181/815/08155`). The check digit differs by state; the
/// pattern and the context carry the rest.
fn de_steuernummer(m: &[u8]) -> bool {
    let mut buf = [0u8; 16];
    let Some(n) = compact(m, &mut buf) else { return false };
    let d = buf.get(..n).unwrap_or_default();
    let elster = |d: &[u8]| {
        let state = matches!(d, [b'5' | b'9', ..])
            || matches!(
                d.get(..2),
                Some(
                    b"10"
                        | b"11"
                        | b"21"
                        | b"22"
                        | b"23"
                        | b"24"
                        | b"26"
                        | b"27"
                        | b"28"
                        | b"30"
                        | b"31"
                        | b"32"
                        | b"40"
                        | b"41"
                )
            );
        state && d.get(4) == Some(&b'0')
    };
    d.iter().all(u8::is_ascii_digit) && (10..=13).contains(&n) && !all_same(d) && (n != 13 || elster(d))
}

/// The ICAO 9303 check digit (weights 7, 3, 1; letters count 10 to 35).
fn icao(chars: &[u8]) -> Option<u8> {
    let mut sum = 0u32;
    for (i, &c) in chars.iter().enumerate() {
        let v = match c {
            b'0'..=b'9' => c - b'0',
            b'A'..=b'Z' => c - b'A' + 10,
            _ => return None,
        };
        sum += u32::from(v) * [7, 3, 1].get(i % 3).copied().unwrap_or(1);
    }
    Some((sum % 10) as u8)
}

/// Personalausweis (identity card) number: nine characters from `0-9 C F G H J K L M N
/// P R T V W X Y Z`, a letter first (cards since November 2010; the older all-digit
/// numbers have all expired), with or without its ICAO 7-3-1 check digit; a number
/// without it must hold a digit.
fn de_ausweis(m: &[u8]) -> bool {
    let mut buf = [0u8; 16];
    let Some(n) = compact(m, &mut buf) else { return false };
    let c = buf.get(..n).unwrap_or_default();
    let alphabet = |b: &u8| b.is_ascii_digit() || b"CFGHJKLMNPRTVWXYZ".contains(b);
    if !c.iter().all(alphabet) {
        return false;
    }
    match c {
        [first, .., check] if n == 10 => {
            first.is_ascii_uppercase()
                && check.is_ascii_digit()
                && icao(c.get(..9).unwrap_or_default()) == Some(check - b'0')
        }
        _ => n == 9 && c.first().is_some_and(u8::is_ascii_uppercase) && c.iter().any(u8::is_ascii_digit),
    }
}

/// Versicherungsnummer of the German pension insurance (Sozialversicherungsnummer):
/// area (2 digits), date of birth DDMMYY, initial of the birth name, serial (2
/// digits), check digit. The letter counts as its two-digit place in the alphabet;
/// products with weights 2 1 2 5 7 1 2 1 2 1 2 1 are reduced to their digit sums;
/// the total mod 10 is the check digit.
fn de_rvnr(m: &[u8]) -> bool {
    let Some(c) = chars::<12>(m) else { return false };
    let [.., letter, s1, s2, check] = c;
    let (Some(head), Some(tail)) = (values::<8>(c.get(..8).unwrap_or_default()), values::<3>(&[s1, s2, check])) else {
        return false;
    };
    if !letter.is_ascii_uppercase() {
        return false;
    }
    let [_, _, d1, d2, m1, m2, y1, y2] = head;
    if !date_ok(two(d1, d2), two(m1, m2), None, two(y1, y2)) {
        return false;
    }
    let place = letter - b'A' + 1;
    let [t1, t2, t3] = tail;
    let mut all = [0u8; 12];
    for (slot, v) in all.iter_mut().zip(head.iter().copied().chain([place / 10, place % 10, t1, t2])) {
        *slot = v;
    }
    let sum: u32 = all.iter().zip([2u32, 1, 2, 5, 7, 1, 2, 1, 2, 1, 2, 1]).map(|(&x, w)| cross(u32::from(x) * w)).sum();
    sum % 10 == u32::from(t3)
}

/// Krankenversichertennummer (the unchangeable part on the eGK): a letter and nine
/// digits. The letter's place (A = 01) and the first eight digits, weighted 1 2 1 2 …,
/// products reduced to digit sums, give the check digit as the total mod 10.
fn de_kvnr(m: &[u8]) -> bool {
    let Some(c) = chars::<10>(m) else { return false };
    let [letter, rest @ ..] = c;
    let Some(d) = values::<9>(&rest) else { return false };
    if !letter.is_ascii_uppercase() {
        return false;
    }
    let place = letter - b'A' + 1;
    let [.., check] = d;
    let sum: u32 = [place / 10, place % 10]
        .iter()
        .chain(d.iter().take(8))
        .enumerate()
        .map(|(i, &x)| cross(u32::from(x) * if i % 2 == 0 { 1 } else { 2 }))
        .sum();
    sum % 10 == u32::from(check) && !all_same(d.get(..8).unwrap_or_default())
}

// ---------------------------------------------------------------------------------
// Spain, Italy
// ---------------------------------------------------------------------------------

/// The control letters of the DNI, indexed by the number mod 23.
const DNI_LETTERS: &[u8; 23] = b"TRWAGMYFPDXBNJZSQVHLCKE";

/// DNI / NIF of a person: eight digits and the letter of the number mod 23.
fn es_dni(m: &[u8]) -> bool {
    let Some(c) = chars::<9>(m) else { return false };
    let [.., letter] = c;
    let Some(d) = values::<8>(c.get(..8).unwrap_or_default()) else { return false };
    let n = number(&d);
    n != 0 && DNI_LETTERS.get((n % 23) as usize) == Some(&letter)
}

/// NIE (foreigner's number): X, Y or Z (read as 0, 1, 2), seven digits and the DNI
/// letter of the eight-digit number.
fn es_nie(m: &[u8]) -> bool {
    let Some(c) = chars::<9>(m) else { return false };
    let [prefix, .., letter] = c;
    let lead = match prefix {
        b'X' => 0,
        b'Y' => 1,
        b'Z' => 2,
        _ => return false,
    };
    let Some(d) = values::<7>(c.get(1..8).unwrap_or_default()) else { return false };
    let n = lead * 10_000_000 + number(&d);
    DNI_LETTERS.get((n % 23) as usize) == Some(&letter)
}

/// Values of a character at an odd place (1st, 3rd, …) of a codice fiscale, for `0-9`
/// and `A-Z` alike (digits share the first ten with A–J) — DM 23/12/1976.
const CF_ODD: [u8; 26] = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23];

/// A digit of a codice fiscale, written as a digit or (omocodia) as one of L M N P Q R
/// S T U V.
fn cf_digit(b: u8) -> Option<u32> {
    if b.is_ascii_digit() {
        return Some(u32::from(b - b'0'));
    }
    b"LMNPQRSTUV".iter().position(|&x| x == b).map(|p| p as u32)
}

/// Codice fiscale: surname and name letters, year, month letter, day (41–71 for
/// women), place code, check letter from the odd/even tables mod 26.
fn it_codice_fiscale(m: &[u8]) -> bool {
    let Some(c) = chars::<16>(m) else { return false };
    let at = |i: usize| c.get(i).copied().unwrap_or(0);
    let day = match (cf_digit(at(9)), cf_digit(at(10))) {
        (Some(a), Some(b)) => a * 10 + b,
        _ => return false,
    };
    if !((1..=31).contains(&day) || (41..=71).contains(&day)) || !b"ABCDEHLMPRST".contains(&at(8)) {
        return false;
    }
    let mut sum = 0u32;
    for (i, &b) in c.iter().take(15).enumerate() {
        let index = match b {
            b'0'..=b'9' => b - b'0',
            b'A'..=b'Z' => b - b'A',
            _ => return false,
        };
        sum +=
            if i % 2 == 0 { u32::from(CF_ODD.get(usize::from(index)).copied().unwrap_or(0)) } else { u32::from(index) };
    }
    u32::from(at(15)) == u32::from(b'A') + sum % 26
}

/// Partita IVA: eleven digits, the last a Luhn check; digits 8–10 name the
/// provincial office (001–100, 120, 121, 888 or 999).
fn it_partita_iva(d: &[u8; 11]) -> bool {
    let office = number(d.get(7..10).unwrap_or_default());
    luhn(d) && !all_same(d) && ((1..=100).contains(&office) || matches!(office, 120 | 121 | 888 | 999))
}

fn it_piva(m: &[u8]) -> bool {
    digits::<11>(m).is_some_and(|d| it_partita_iva(&d))
}

// ---------------------------------------------------------------------------------
// France
// ---------------------------------------------------------------------------------

/// NIR (numéro de sécurité sociale): sex, year, month, department (2A/2B in Corsica,
/// read as 19 and 18 for the key), commune, order, and the key 97 − (number mod 97).
fn fr_nir(m: &[u8]) -> bool {
    let Some(c) = chars::<15>(m) else { return false };
    let mut d = [0u8; 15];
    for (slot, &b) in d.iter_mut().zip(&c) {
        // Letters (only the A or B of 2A / 2B may pass below) count 0 here.
        *slot = if b.is_ascii_digit() { b - b'0' } else { 0 };
    }
    let dept = c.get(5..7).unwrap_or_default();
    let corsica = match dept {
        b"2A" => Some(19),
        b"2B" => Some(18),
        _ if dept.iter().all(u8::is_ascii_digit) => None,
        _ => return false,
    };
    if !c.iter().enumerate().all(|(i, b)| b.is_ascii_digit() || (i == 6 && corsica.is_some())) {
        return false;
    }
    let [sex, _, _, m1, m2, ..] = d;
    let month = two(m1, m2);
    let month_ok = (1..=12).contains(&month) || (20..=42).contains(&month) || (50..=99).contains(&month);
    let mut body = number(d.get(..13).unwrap_or_default());
    if let Some(code) = corsica {
        // Replace the two department digits (places 6–7 of 13) by 19 or 18.
        let place = 1_000_000u64;
        body = body - (body / place % 100) * place + code * place;
    }
    let key = number(d.get(13..).unwrap_or_default());
    b"123478".contains(&(sex + b'0')) && month_ok && key == 97 - body % 97
}

/// SIREN: nine digits, Luhn.
fn fr_siren(m: &[u8]) -> bool {
    digits::<9>(m).is_some_and(|d| luhn(&d) && !all_same(&d))
}

/// SIRET: SIREN and a five-digit establishment number, Luhn over all fourteen; La
/// Poste's establishments (SIREN 356 000 000) have a digit sum divisible by 5 instead.
fn fr_siret(m: &[u8]) -> bool {
    let Some(d) = digits::<14>(m) else { return false };
    let la_poste = d.starts_with(&[3, 5, 6, 0, 0, 0, 0, 0, 0]) && d.iter().map(|&x| u32::from(x)).sum::<u32>() % 5 == 0;
    (luhn(&d) || la_poste) && !all_same(&d)
}

// ---------------------------------------------------------------------------------
// Benelux, Poland
// ---------------------------------------------------------------------------------

/// The "elfproef": 9·d₁ + 8·d₂ + … + 2·d₈ − d₉ ≡ 0 (mod 11).
fn elfproef(d: &[u8; 9]) -> bool {
    let [.., last] = *d;
    weighted(d, &[9, 8, 7, 6, 5, 4, 3, 2]) % 11 == u32::from(last) && !all_same(d)
}

/// BSN (burgerservicenummer): nine digits passing the elfproef.
fn nl_bsn(m: &[u8]) -> bool {
    digits::<9>(m).is_some_and(|d| elfproef(&d))
}

/// Belgian national register number: YYMMDD (month + 20 or + 40 for a bis number, 00
/// when unknown), a three-digit counter, and 97 − (the nine digits mod 97); for births
/// from 2000 a 2 is put before the nine digits.
fn be_nrn(m: &[u8]) -> bool {
    let Some(d) = digits::<11>(m) else { return false };
    let [_, _, m1, m2, d1, d2, ..] = d;
    let (month, day) = (two(m1, m2), two(d1, d2));
    let month_ok = month <= 12 || (20..=32).contains(&month) || (40..=52).contains(&month);
    let body = number(d.get(..9).unwrap_or_default());
    let key = number(d.get(9..).unwrap_or_default());
    month_ok && day <= 31 && (key == 97 - body % 97 || key == 97 - (2_000_000_000 + body) % 97) && !all_same(&d)
}

/// PESEL: YYMMDD with the century in the month (+80 1800s, +0 1900s, +20 2000s, +40
/// 2100s, +60 2200s), serial, and the check digit of weights 1 3 7 9 1 3 7 9 1 3.
fn pl_pesel(m: &[u8]) -> bool {
    let Some(d) = digits::<11>(m) else { return false };
    let [y1, y2, m1, m2, d1, d2, .., check] = d;
    let mm = two(m1, m2);
    let century = match mm / 20 {
        0 => 1900,
        1 => 2000,
        2 => 2100,
        3 => 2200,
        _ => 1800,
    };
    let yy = two(y1, y2);
    let sum = weighted(&d, &[1, 3, 7, 9, 1, 3, 7, 9, 1, 3]);
    date_ok(two(d1, d2), mm % 20, Some(century + yy), yy) && (10 - sum % 10) % 10 == u32::from(check)
}

/// NIP (Polish tax number): ten digits; weights 6 5 7 2 3 4 5 6 7, the sum mod 11 is
/// the last digit (10 is never issued).
fn pl_nip_digits(d: &[u8; 10]) -> bool {
    let [.., check] = *d;
    let sum = weighted(d, &[6, 5, 7, 2, 3, 4, 5, 6, 7]) % 11;
    sum != 10 && sum == u32::from(check) && !all_same(d)
}

fn pl_nip(m: &[u8]) -> bool {
    digits::<10>(m).is_some_and(|d| pl_nip_digits(&d))
}

// ---------------------------------------------------------------------------------
// Nordic countries
// ---------------------------------------------------------------------------------

/// Personnummer / samordningsnummer: YYMMDD (day + 60 for a coordination number),
/// a three-digit serial and a Luhn digit over those ten; the twelve-digit form puts
/// the century first.
fn se_personnummer(m: &[u8]) -> bool {
    let mut buf = [0u8; 16];
    let Some(n) = compact(m, &mut buf) else { return false };
    let all = buf.get(..n).unwrap_or_default();
    let (century, ten) = match n {
        10 => (None, all),
        12 => {
            let c = all.get(..2).unwrap_or_default();
            if !matches!(c, b"18" | b"19" | b"20") {
                return false;
            }
            (values::<2>(c).map(|[a, b]| two(a, b) * 100), all.get(2..).unwrap_or_default())
        }
        _ => return false,
    };
    let Some(d) = values::<10>(ten) else { return false };
    let [y1, y2, m1, m2, d1, d2, ..] = d;
    let yy = two(y1, y2);
    let day = two(d1, d2);
    let day = if day > 60 { day - 60 } else { day };
    date_ok(day, two(m1, m2), century.map(|c| c + yy), yy) && luhn(&d)
}

/// Organisationsnummer: ten digits, Luhn, the third digit at least 2 (so it is never
/// a date of birth).
fn se_orgnr(m: &[u8]) -> bool {
    digits::<10>(m).is_some_and(|d| luhn(&d) && d.get(2).is_some_and(|&x| x >= 2) && !all_same(&d))
}

/// HETU check characters, indexed by the nine-digit number mod 31.
const HETU_CHECK: &[u8; 31] = b"0123456789ABCDEFHJKLMNPRSTUVWXY";

/// Henkilötunnus: DDMMYY, the century sign (+ 1800s; - Y X W V U 1900s; A–F 2000s),
/// the individual number 002–999, and the check character of DDMMYYZZZ mod 31.
fn fi_hetu(m: &[u8]) -> bool {
    let [d1, d2, m1, m2, y1, y2, sign, z1, z2, z3, check] = *m else { return false };
    let century = match sign {
        b'+' => 1800,
        b'-' | b'U'..=b'Y' => 1900,
        b'A'..=b'F' => 2000,
        _ => return false,
    };
    let Some(d) = values::<9>(&[d1, d2, m1, m2, y1, y2, z1, z2, z3]) else { return false };
    let [dd1, dd2, mm1, mm2, yy1, yy2, ..] = d;
    let yy = two(yy1, yy2);
    let individual = number(d.get(6..).unwrap_or_default());
    date_ok(two(dd1, dd2), two(mm1, mm2), Some(century + yy), yy)
        && individual >= 2
        && HETU_CHECK.get((number(&d) % 31) as usize) == Some(&check)
}

/// CPR-nummer: DDMMYY and four digits. Numbers issued since 2007 need not pass the old
/// modulus-11 test, so only the date is checked (the rule runs near its words only).
fn dk_cpr(m: &[u8]) -> bool {
    let Some(d) = digits::<10>(m) else { return false };
    let [d1, d2, m1, m2, y1, y2, ..] = d;
    date_ok(two(d1, d2), two(m1, m2), None, two(y1, y2)) && !all_same(d.get(6..).unwrap_or_default())
}

/// Fødselsnummer / D-nummer: DDMMYY (day + 40 for a D-number, month + 40 for an
/// H-number), a three-digit individual number and two modulus-11 check digits.
fn no_fnr(m: &[u8]) -> bool {
    let Some(d) = digits::<11>(m) else { return false };
    let [d1, d2, m1, m2, y1, y2, .., k1, k2] = d;
    let day = two(d1, d2);
    let day = if day > 40 { day - 40 } else { day };
    let month = two(m1, m2);
    let month = if month > 40 { month - 40 } else { month };
    let check = |sum: u32| match 11 - sum % 11 {
        11 => Some(0),
        10 => None,
        c => Some(c),
    };
    date_ok(day, month, None, two(y1, y2))
        && check(weighted(&d, &[3, 7, 6, 1, 8, 9, 4, 5, 2])) == Some(u32::from(k1))
        && check(weighted(&d, &[5, 4, 3, 2, 7, 6, 5, 4, 3, 2])) == Some(u32::from(k2))
}

// ---------------------------------------------------------------------------------
// Switzerland, Portugal, Ireland, Austria, Turkey
// ---------------------------------------------------------------------------------

/// AHV / AVS number (since 2008): 756 (the country), nine digits, and the EAN-13 check
/// digit (weights 1 and 3 from the left).
fn ch_ahv(m: &[u8]) -> bool {
    let Some(d) = digits::<13>(m) else { return false };
    let [.., check] = d;
    let sum: u32 = d.iter().take(12).enumerate().map(|(i, &x)| u32::from(x) * if i % 2 == 0 { 1 } else { 3 }).sum();
    d.starts_with(&[7, 5, 6]) && (10 - sum % 10) % 10 == u32::from(check)
}

/// The modulus-11 check of a Portuguese NIF / NIPC (weights 9 to 2; a remainder of 0
/// or 1 gives 0).
fn pt_check(d: &[u8; 9]) -> bool {
    let [.., check] = *d;
    let r = weighted(d, &[9, 8, 7, 6, 5, 4, 3, 2]) % 11;
    let c = if r < 2 { 0 } else { 11 - r };
    c == u32::from(check) && !all_same(d)
}

/// NIF / NIPC: nine digits, the first 1–3 (persons), 45 (non-residents), 5 (companies),
/// 6 (public bodies), 7, 8 or 9; modulus-11 check digit.
fn pt_nif(m: &[u8]) -> bool {
    let Some(d) = digits::<9>(m) else { return false };
    let [a, b, ..] = d;
    let lead = matches!(a, 1..=3 | 5..=9) || (a == 4 && b == 5);
    lead && pt_check(&d)
}

/// The check letter of an Irish PPSN or VAT number: weights 8 to 2 over seven digits,
/// plus 9 × the second letter's place (A = 1 … I = 9, W = 0), mod 23 into W A B … V.
fn ie_check(d: &[u8; 7], second: Option<u8>) -> Option<u8> {
    let extra = match second {
        None | Some(b'W') => 0,
        Some(c @ b'A'..=b'I') => u32::from(c - b'A' + 1) * 9,
        Some(_) => return None,
    };
    let sum = weighted(d, &[8, 7, 6, 5, 4, 3, 2]) + extra;
    b"WABCDEFGHIJKLMNOPQRSTUV".get((sum % 23) as usize).copied()
}

/// PPSN: seven digits, the check letter, and for numbers issued since 2013 a second
/// letter (A, B, …; W on older numbers of married women).
fn ie_ppsn(m: &[u8]) -> bool {
    let mut buf = [0u8; 16];
    let Some(n) = compact(m, &mut buf) else { return false };
    let c = buf.get(..n).unwrap_or_default();
    let Some(d) = values::<7>(c.get(..7).unwrap_or_default()) else { return false };
    match c.get(7..) {
        Some(&[check]) => ie_check(&d, None) == Some(check),
        Some(&[check, second]) => ie_check(&d, Some(second)) == Some(check),
        _ => false,
    }
}

/// Austrian Sozialversicherungsnummer: a three-digit serial (not starting with 0), a
/// check digit, and the date of birth DDMMYY; weights 3 7 9 · 5 8 4 2 1 6, the sum
/// mod 11 (10 is never issued).
fn at_svnr(m: &[u8]) -> bool {
    let Some(d) = digits::<10>(m) else { return false };
    let [s1, s2, s3, check, d1, d2, m1, m2, y1, y2] = d;
    let sum = weighted(&[s1, s2, s3, d1, d2, m1, m2, y1, y2], &[3, 7, 9, 5, 8, 4, 2, 1, 6]) % 11;
    s1 != 0 && sum == u32::from(check) && (1..=31).contains(&two(d1, d2)) && (1..=12).contains(&two(m1, m2))
}

/// T.C. Kimlik No: eleven digits, the first not 0; the tenth is (7 × the sum of the
/// odd places − the sum of the even places) mod 10, the eleventh the sum of the first
/// ten mod 10.
fn tr_tckn(m: &[u8]) -> bool {
    let Some(d) = digits::<11>(m) else { return false };
    let [a1, a2, a3, a4, a5, a6, a7, a8, a9, c10, c11] = d.map(i32::from);
    let ten = ((a1 + a3 + a5 + a7 + a9) * 7 - (a2 + a4 + a6 + a8)).rem_euclid(10);
    let eleven = (a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9 + c10) % 10;
    a1 != 0 && ten == c10 && eleven == c11
}

// ---------------------------------------------------------------------------------
// VAT numbers
// ---------------------------------------------------------------------------------

/// Digit values of an all-digit body of exactly `N`.
fn body<const N: usize>(b: &[u8]) -> Option<[u8; N]> {
    values::<N>(b)
}

/// ES: a DNI or NIE (persons), K/L/M + seven digits + letter, or a CIF: the entity
/// letter, seven digits and a control digit or letter (J A B … I).
fn es_vat(b: &[u8]) -> bool {
    let [first, .., last] = *b else { return false };
    if b.len() != 9 {
        return false;
    }
    if first.is_ascii_digit() {
        return es_dni(b);
    }
    if matches!(first, b'X' | b'Y' | b'Z') {
        return es_nie(b);
    }
    let Some(d) = values::<7>(b.get(1..8).unwrap_or_default()) else { return false };
    if matches!(first, b'K' | b'L' | b'M') {
        return DNI_LETTERS.get((number(&d) % 23) as usize) == Some(&last);
    }
    if !b"ABCDEFGHJNPQRSUVW".contains(&first) {
        return false;
    }
    let sum: u32 =
        d.iter().enumerate().map(|(i, &x)| if i % 2 == 0 { cross(u32::from(x) * 2) } else { u32::from(x) }).sum();
    let control = (10 - sum % 10) % 10;
    last == b'0' + control as u8 || b"JABCDEFGHI".get(control as usize) == Some(&last)
}

/// IE: seven digits, the check letter and an optional second letter (A–I, W), or the
/// old form digit, letter, five digits, check letter (read as 0, the five, the digit).
fn ie_vat(b: &[u8]) -> bool {
    if let (Some(d), Some(rest)) = (values::<7>(b.get(..7).unwrap_or_default()), b.get(7..)) {
        return match *rest {
            [check] => ie_check(&d, None) == Some(check),
            [check, second] => ie_check(&d, Some(second)) == Some(check),
            _ => false,
        };
    }
    match *b {
        [d0, l, d2, d3, d4, d5, d6, check] if l.is_ascii_uppercase() || l == b'+' => {
            values::<7>(&[b'0', d2, d3, d4, d5, d6, d0]).is_some_and(|d| ie_check(&d, None) == Some(check))
        }
        _ => false,
    }
}

/// NL: nine digits, B and two digits; the elfproef (RSIN-based numbers), or for the
/// btw-id of sole traders since 2020, ISO 7064 mod 97 over `NL…B..` with letters as
/// 10–35.
fn nl_vat(b: &[u8]) -> bool {
    if b.len() != 12 || b.get(9) != Some(&b'B') {
        return false;
    }
    let Some(d) = values::<9>(b.get(..9).unwrap_or_default()) else { return false };
    if !b.get(10..).is_some_and(|s| s.iter().all(u8::is_ascii_digit)) {
        return false;
    }
    let mut rem = 0u32;
    for &c in b"NL".iter().chain(b) {
        rem = match c {
            b'0'..=b'9' => (rem * 10 + u32::from(c - b'0')) % 97,
            _ => (rem * 100 + u32::from(c - b'A' + 10)) % 97,
        };
    }
    elfproef(&d) || rem == 1
}

/// RO: 2 to 10 digits; the weights 7 5 3 2 1 7 5 3 2 aligned to the right of the
/// body, (sum × 10) mod 11 (10 → 0) is the last digit.
fn ro_vat(b: &[u8]) -> bool {
    if !(2..=10).contains(&b.len()) || !b.iter().all(u8::is_ascii_digit) || b.first() == Some(&b'0') {
        return false;
    }
    let [lead @ .., check] = b else { return false };
    let weights = [7u32, 5, 3, 2, 1, 7, 5, 3, 2];
    let skip = weights.len() - lead.len();
    let sum: u32 = lead.iter().zip(weights.iter().skip(skip)).map(|(&c, &w)| u32::from(c - b'0') * w).sum();
    let c = (sum * 10) % 11;
    u32::from(check - b'0') == if c == 10 { 0 } else { c }
}

/// GB / XI (HMRC): weights 8 to 2 over seven digits plus the last two as a number;
/// the total ≡ 0 or the total + 55 ≡ 0 (mod 97). A 12-digit branch form adds three.
fn gb_vat(b: &[u8]) -> bool {
    if !(b.len() == 9 || b.len() == 12) {
        return false;
    }
    let Some(d) = values::<9>(b.get(..9).unwrap_or_default()) else { return false };
    if !b.iter().all(u8::is_ascii_digit) {
        return false;
    }
    let [.., c1, c2] = d;
    let total = weighted(&d, &[8, 7, 6, 5, 4, 3, 2]) + two(c1, c2);
    total % 97 == 0 || (total + 55) % 97 == 0
}

/// An EU VAT number (VIES formats) with its country's check digit where the country
/// publishes one: AT, BE, CZ (legal entities), DE, DK, EE, EL, ES, FI, FR, HR, HU, IE,
/// IT, LU, MT, NL, PL, PT, RO, SE, SI, SK, and GB / XI. BG, CY, LT and LV numbers, and
/// CZ numbers of persons, are checked for their shape only.
fn eu_vat(m: &[u8]) -> bool {
    let mut buf = [0u8; 24];
    let Some(n) = compact(m, &mut buf) else { return false };
    let Some((cc, b)) = buf.get(..n).and_then(|v| v.split_at_checked(2)) else { return false };
    let digits_only = b.iter().all(u8::is_ascii_digit);
    match cc {
        b"AT" => match b {
            [b'U', rest @ ..] => body::<8>(rest).is_some_and(|[d1, d2, d3, d4, d5, d6, d7, check]| {
                let s = u32::from(d1)
                    + cross(u32::from(d2) * 2)
                    + u32::from(d3)
                    + cross(u32::from(d4) * 2)
                    + u32::from(d5)
                    + cross(u32::from(d6) * 2)
                    + u32::from(d7);
                (10 - (s + 4) % 10) % 10 == u32::from(check)
            }),
            _ => false,
        },
        b"BE" => body::<10>(b).is_some_and(|d| {
            let head = number(d.get(..8).unwrap_or_default());
            d.first().is_some_and(|&f| f <= 1) && number(d.get(8..).unwrap_or_default()) == 97 - head % 97
        }),
        b"BG" => digits_only && (b.len() == 9 || b.len() == 10),
        b"CY" => {
            matches!(b, [f, .., l] if b.len() == 9 && b"013459".contains(f) && l.is_ascii_uppercase())
                && b.get(..8).is_some_and(|s| s.iter().all(u8::is_ascii_digit))
        }
        b"CZ" => match body::<8>(b) {
            Some(d) => {
                let [first, .., check] = d;
                let c = 11 - weighted(&d, &[8, 7, 6, 5, 4, 3, 2]) % 11;
                let c = match c {
                    10 => 0,
                    11 => 1,
                    c => c,
                };
                first != 9 && c == u32::from(check)
            }
            None => digits_only && (b.len() == 9 || b.len() == 10),
        },
        b"DE" => body::<9>(b).is_some_and(|d| {
            let [first, .., check] = d;
            first != 0 && mod11_10(d.get(..8).unwrap_or_default()) == check
        }),
        b"DK" => {
            body::<8>(b).is_some_and(|d| d.first() != Some(&0) && weighted(&d, &[2, 7, 6, 5, 4, 3, 2, 1]) % 11 == 0)
        }
        b"EE" => body::<9>(b).is_some_and(|d| {
            let [.., check] = d;
            (10 - weighted(&d, &[3, 7, 1, 3, 7, 1, 3, 7]) % 10) % 10 == u32::from(check)
        }),
        b"EL" | b"GR" => body::<9>(b).is_some_and(|d| {
            let [.., check] = d;
            weighted(&d, &[256, 128, 64, 32, 16, 8, 4, 2]) % 11 % 10 == u32::from(check)
        }),
        b"ES" => es_vat(b),
        b"FI" => body::<8>(b).is_some_and(|d| {
            let [.., check] = d;
            match weighted(&d, &[7, 9, 10, 5, 8, 4, 2]) % 11 {
                0 => check == 0,
                1 => false,
                r => 11 - r == u32::from(check),
            }
        }),
        b"FR" => {
            let (Some(key), Some(siren)) = (b.get(..2), b.get(2..).and_then(body::<9>)) else { return false };
            match values::<2>(key) {
                Some([k1, k2]) => u64::from(two(k1, k2)) == (12 + 3 * (number(&siren) % 97)) % 97,
                None => key.iter().all(|c| c.is_ascii_alphanumeric() && !matches!(c, b'I' | b'O')) && luhn(&siren),
            }
        }
        b"GB" | b"XI" => gb_vat(b),
        b"HR" => body::<11>(b).is_some_and(|d| {
            let [.., check] = d;
            mod11_10(d.get(..10).unwrap_or_default()) == check
        }),
        b"HU" => body::<8>(b).is_some_and(|d| {
            let [.., check] = d;
            (10 - weighted(&d, &[9, 7, 3, 1, 9, 7, 3]) % 10) % 10 == u32::from(check)
        }),
        b"IE" => ie_vat(b),
        b"IT" => body::<11>(b).is_some_and(|d| it_partita_iva(&d)),
        b"LT" => digits_only && (b.len() == 9 || b.len() == 12),
        b"LU" => body::<8>(b)
            .is_some_and(|d| number(d.get(..6).unwrap_or_default()) % 89 == number(d.get(6..).unwrap_or_default())),
        b"LV" => digits_only && b.len() == 11,
        b"MT" => body::<8>(b).is_some_and(|d| {
            let [first, .., c1, c2] = d;
            first != 0 && (weighted(&d, &[3, 4, 6, 7, 8, 9]) + two(c1, c2)) % 37 == 0
        }),
        b"NL" => nl_vat(b),
        b"PL" => body::<10>(b).is_some_and(|d| pl_nip_digits(&d)),
        b"PT" => body::<9>(b).is_some_and(|d| d.first() != Some(&0) && pt_check(&d)),
        b"RO" => ro_vat(b),
        b"SE" => body::<12>(b).is_some_and(|d| d.ends_with(&[0, 1]) && luhn(d.get(..10).unwrap_or_default())),
        b"SI" => body::<8>(b).is_some_and(|d| {
            let [first, .., check] = d;
            let c = match 11 - weighted(&d, &[8, 7, 6, 5, 4, 3, 2]) % 11 {
                10 => Some(0),
                11 => None,
                c => Some(c),
            };
            first != 0 && c == Some(u32::from(check))
        }),
        b"SK" => body::<10>(b).is_some_and(|d| {
            let [first, _, third, ..] = d;
            first != 0 && matches!(third, 2 | 3 | 4 | 7 | 8 | 9) && number(&d) % 11 == 0
        }),
        _ => false,
    }
}

// ---------------------------------------------------------------------------------
// Registers of companies, other personal numbers (found after their names)
// ---------------------------------------------------------------------------------

/// Número de afiliación a la Seguridad Social (NAF): province (two digits), an
/// eight-digit serial and two control digits, the remainder mod 97 of the ten digits
/// before them. For a serial below 10 000 000 the TGSS reads the number as province ×
/// 10⁷ + serial; the plain ten-digit reading is accepted too, as the numbers printed on
/// older cards follow it.
fn es_nss(m: &[u8]) -> bool {
    let Some(d) = digits::<12>(m) else { return false };
    let province = number(d.get(..2).unwrap_or_default());
    let serial = number(d.get(2..10).unwrap_or_default());
    let control = number(d.get(10..).unwrap_or_default());
    let plain = number(d.get(..10).unwrap_or_default());
    let short = province * 10_000_000 + serial;
    (1..=53).contains(&province)
        && !all_same(d.get(2..10).unwrap_or_default())
        && (plain % 97 == control || (serial < 10_000_000 && short % 97 == control))
}

/// CIF / NIF of a Spanish legal entity: the entity-type letter, seven digits and the
/// control digit or letter ([`es_vat`]).
fn es_cif(m: &[u8]) -> bool {
    let Some(c) = chars::<9>(m) else { return false };
    c.first().is_some_and(|f| b"ABCDEFGHJNPQRSUVW".contains(f)) && es_vat(&c)
}

/// NIF of a person: a DNI, an NIE, or a K/L/M number, with the DNI letter.
fn es_nif(m: &[u8]) -> bool {
    let Some(c) = chars::<9>(m) else { return false };
    match c.first() {
        Some(b'0'..=b'9') => es_dni(m),
        Some(b'X' | b'Y' | b'Z') => es_nie(m),
        Some(b'K' | b'L' | b'M') => es_vat(&c),
        _ => false,
    }
}

/// Numéro fiscal de référence (SPI): thirteen digits, the first 0–3; the last three
/// are the first ten mod 511.
fn fr_spi(m: &[u8]) -> bool {
    let Some(d) = digits::<13>(m) else { return false };
    let head = number(d.get(..10).unwrap_or_default());
    d.first().is_some_and(|&f| f <= 3) && head % 511 == number(d.get(10..).unwrap_or_default()) && !all_same(&d)
}

/// Tessera sanitaria (TS-CNS): twenty digits in the ISO/IEC 7812 layout, 80 (health)
/// and 380 (Italy) first, a Luhn check digit last.
fn it_tessera(m: &[u8]) -> bool {
    digits::<20>(m).is_some_and(|d| d.starts_with(&[8, 0, 3, 8, 0]) && luhn(&d))
}

/// A registration number found after its name: letters and digits, not all one digit
/// and not all zeros.
fn registered_number(m: &[u8]) -> bool {
    let mut buf = [0u8; 24];
    let Some(n) = compact(m, &mut buf) else { return false };
    let c = buf.get(..n).unwrap_or_default();
    let mut d = [0u8; 24];
    let mut k = 0;
    for &b in c.iter().filter(|b| b.is_ascii_digit()) {
        if let Some(slot) = d.get_mut(k) {
            *slot = b;
            k += 1;
        }
    }
    let d = d.get(..k).unwrap_or_default();
    d.len() >= 3 && !all_same(d) && d.iter().any(|&b| b != b'0')
}

/// Polish identity card (dowód osobisty): series of three letters, then six digits the
/// first of which is the check digit; weights 7 3 1 9 7 3 1 7 3 with letters as 10–35
/// give a total divisible by 10.
fn pl_dowod(m: &[u8]) -> bool {
    let Some(c) = chars::<9>(m) else { return false };
    let mut sum = 0u32;
    for (i, (&b, w)) in c.iter().zip([7u32, 3, 1, 9, 7, 3, 1, 7, 3]).enumerate() {
        let v = match b {
            b'A'..=b'Z' if i < 3 => u32::from(b - b'A') + 10,
            b'0'..=b'9' if i >= 3 => u32::from(b - b'0'),
            _ => return false,
        };
        sum += v * w;
    }
    sum % 10 == 0
}

/// REGON: nine digits (weights 8 9 2 3 4 5 6 7) or fourteen (2 4 8 5 0 9 7 3 6 1 2 4 8),
/// the sum mod 11 (10 → 0) is the last digit.
fn pl_regon(m: &[u8]) -> bool {
    let check = |d: &[u8], w: &[u32]| {
        let c = weighted(d, w) % 11 % 10;
        d.last().is_some_and(|&l| u32::from(l) == c) && !all_same(d)
    };
    if let Some(d) = digits::<9>(m) {
        return check(&d, &[8, 9, 2, 3, 4, 5, 6, 7]);
    }
    digits::<14>(m).is_some_and(|d| check(&d, &[2, 4, 8, 5, 0, 9, 7, 3, 6, 1, 2, 4, 8]))
}

/// Vergi Kimlik Numarası (VKN, Gelir İdaresi): ten digits; for each of the first nine,
/// t = (d + 9 − i) mod 10 and v = t · 2^(9 − i) mod 9 (9 when t ≠ 0 and v = 0); the last
/// digit is (10 − Σv mod 10) mod 10.
fn tr_vkn(m: &[u8]) -> bool {
    let Some(d) = digits::<10>(m) else { return false };
    let mut sum = 0u32;
    for (i, &x) in d.iter().take(9).enumerate() {
        let t = (u32::from(x) + 9 - i as u32) % 10;
        let v = (t * (1u32 << (9 - i))) % 9;
        sum += if t != 0 && v == 0 { 9 } else { v };
    }
    d.last().is_some_and(|&c| u32::from(c) == (10 - sum % 10) % 10) && !all_same(&d)
}

/// A MERSIS number (sixteen digits, a 0 first) or a trade-register (ticaret sicil)
/// number of five to seven digits.
fn tr_company(m: &[u8]) -> bool {
    let n = m.iter().filter(|b| b.is_ascii_digit()).count();
    ((5..=7).contains(&n) || (n == 16 && m.first() == Some(&b'0'))) && registered_number(m)
}

/// A Companies House number: eight digits, or two letters of a register other than
/// England and Wales' (SC Scotland, NI Northern Ireland, OC LLPs, …) and six digits.
fn uk_company(m: &[u8]) -> bool {
    const PREFIXES: &[&[u8; 2]] = &[
        b"SC", b"NI", b"OC", b"SO", b"NC", b"LP", b"SL", b"NL", b"FC", b"SF", b"NF", b"IP", b"SP", b"RC", b"SR", b"NP",
        b"NO", b"NR", b"CE", b"CS", b"GS", b"AC", b"SA", b"ZC", b"SE", b"GE",
    ];
    let Some(c) = chars::<8>(m) else { return false };
    let head = c.get(..2).unwrap_or_default();
    let head_ok = head.iter().all(u8::is_ascii_digit) || PREFIXES.iter().any(|p| p.as_slice() == head);
    head_ok && c.get(2..).is_some_and(|t| t.iter().all(u8::is_ascii_digit)) && registered_number(m)
}

// ---------------------------------------------------------------------------------
// Context
// ---------------------------------------------------------------------------------

/// Words that make a number a reference of some other kind, in the catalog's
/// languages.
const NOT_AN_ID: &[&str] = &[
    "order",
    "invoice",
    "ref",
    "tracking",
    "sku",
    "ticket",
    "serial",
    "part",
    "item",
    "bestellung",
    "bestellnummer",
    "rechnung",
    "auftrag",
    "artikel",
    "pedido",
    "factura",
    "ordine",
    "fattura",
    "commande",
    "facture",
    "bestelling",
    "factuur",
    "tilaus",
    "lasku",
    "faktura",
    "ordre",
    "zamowienie",
];

const UK_NINO_CONTEXT: Context = Context {
    window: 48,
    words: &["national", "insurance", "nino", "ni", "nin", "hmrc"],
    boost: 0.1,
    against: NOT_AN_ID,
    penalty: 0.4,
};

const DE_SV_CONTEXT: Context = Context {
    window: 48,
    words: &[
        "sozialversicherungsnummer",
        "rentenversicherungsnummer",
        "versicherungsnummer",
        "sozialversicherung",
        "rentenversicherung",
        "svnr",
        "rvnr",
        "social",
        "insurance",
        "pension",
    ],
    boost: 0.1,
    against: NOT_AN_ID,
    penalty: 0.4,
};

const ES_CONTEXT: Context = Context {
    window: 48,
    words: &["dni", "nif", "nie", "documento", "identidad", "extranjero", "identity", "spanish", "id"],
    boost: 0.05,
    against: NOT_AN_ID,
    penalty: 0.45,
};

const IT_CONTEXT: Context =
    Context { window: 48, words: &["codice", "fiscale", "cf", "tax", "code"], boost: 0.04, against: &[], penalty: 0.0 };

const FR_CONTEXT: Context = Context {
    window: 48,
    words: &["nir", "sécurité", "securite", "sociale", "social", "security", "insee", "secu", "vitale"],
    boost: 0.05,
    against: NOT_AN_ID,
    penalty: 0.45,
};

const FI_CONTEXT: Context = Context {
    window: 48,
    words: &["hetu", "henkilötunnus", "henkilotunnus", "sotu", "personbeteckning", "identity", "finnish"],
    boost: 0.04,
    against: NOT_AN_ID,
    penalty: 0.45,
};

const CH_CONTEXT: Context = Context {
    window: 48,
    words: &["ahv", "avs", "sozialversicherungsnummer", "social", "security", "assurance"],
    boost: 0.04,
    against: &[],
    penalty: 0.0,
};

/// For numbers found after their names: a reference word before them wins.
const LABELLED_CONTEXT: Context = Context { window: 48, words: &[], boost: 0.0, against: NOT_AN_ID, penalty: 0.45 };

const VAT_CONTEXT: Context = Context {
    window: 48,
    words: &[
        "vat",
        "ust",
        "ustid",
        "umsatzsteuer",
        "tva",
        "iva",
        "btw",
        "mwst",
        "moms",
        "alv",
        "dph",
        "dic",
        "pvm",
        "pvn",
        "nip",
        "afm",
        "ddv",
        "pdv",
        "nif",
        "cif",
        "intracommunautaire",
        "tax",
    ],
    boost: 0.05,
    against: &["order", "invoice", "tracking", "sku", "ticket", "serial", "part", "bestellnummer"],
    penalty: 0.45,
};

// ---------------------------------------------------------------------------------
// Rules
// ---------------------------------------------------------------------------------

/// A UK street line (house number, one to three capitalised words, a street type),
/// an optional town, then the postcode; or the postcode alone after a label.
const UK_ADDRESS: &str = concat!(
    r"(?-u)\b(?:\d{1,4}[A-Z]?,? (?:[A-Z][a-z]+ ){1,3}",
    r"(?:Street|St|Road|Rd|Lane|Avenue|Ave|Close|Drive|Way|Court|Crescent|Gardens|Place|Square|Terrace|Grove|Hill|Park|Row|Mews|Walk|Parade|Green)\.?",
    r"(?:,? ?\r?\n[ \t]*|, ?| )",
    r"(?:[A-Z][a-z]+(?:[ -][A-Z][a-z]+){0,2}(?:,? ?\r?\n[ \t]*|, ?| ))?)?",
    r"(?:[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}|GIR ?0AA)\b",
);

/// EU VAT numbers in the VIES formats, with an optional space after the country code
/// and the usual groupings.
const EU_VAT: &str = concat!(
    r"(?-u)\b(?:",
    r"AT ?U ?\d{8}",
    r"|BE ?[01]\d{3}[ .]?\d{3}[ .]?\d{3}",
    r"|BG ?\d{9,10}",
    r"|CY ?\d{8}[A-Z]",
    r"|CZ ?\d{8,10}",
    r"|DE ?\d{3} ?\d{3} ?\d{3}",
    r"|DK ?\d{2} ?\d{2} ?\d{2} ?\d{2}",
    r"|EE ?\d{9}",
    r"|(?:EL|GR) ?\d{9}",
    r"|ES ?[0-9A-Z]\d{7}[0-9A-Z]",
    r"|FI ?\d{8}",
    r"|FR ?[0-9A-HJ-NP-Z]{2} ?\d{3} ?\d{3} ?\d{3}",
    r"|(?:GB|XI) ?\d{3} ?\d{4} ?\d{2}(?: ?\d{3})?",
    r"|HR ?\d{11}",
    r"|HU ?\d{8}",
    r"|IE ?(?:\d{7}[A-W][A-IW]?|\d[A-Z+]\d{5}[A-W])",
    r"|IT ?\d{11}",
    r"|LT ?(?:\d{12}|\d{9})",
    r"|LU ?\d{8}",
    r"|LV ?\d{11}",
    r"|MT ?\d{8}",
    r"|NL ?\d{9} ?B ?\d{2}",
    r"|PL ?\d{3}[ -]?\d{3}[ -]?\d{2}[ -]?\d{2}",
    r"|PT ?\d{9}",
    r"|RO ?[1-9]\d{5,9}",
    r"|SE ?\d{10}01",
    r"|SI ?\d{8}",
    r"|SK ?\d{10}",
    r")\b",
);

pub const RULES: &[BuiltinRule] = &[
    // ----------------------------------------------------------------- United Kingdom
    BuiltinRule {
        id: "pii.health_id.uk_nhs.v1",
        category: "HEALTH_ID",
        pattern: r"(?-u)\b\d{3}[ -]?\d{3}[ -]?\d{4}\b",
        clean_right: true,
        validator: Validator::Code(uk_nhs),
        // Above a phone number of the same digits (0.8, 0.9 with "call").
        confidence: 0.95,
        gate: Gate::Near { words: &["nhs", "nhsno", "nhsnumber"], before: 0, after: 64 },
        severity: Severity::High,
        examples: &[
            "NHS number: ⟦943 476 5919⟧",
            "The patient's NHS No. is ⟦9877893282⟧, please update the record.",
            "nhs_number=⟦992-174-2183⟧",
            "Rhif GIG / NHS number ⟦496 792 9087⟧ (Cymru)",
        ],
        negatives: &[
            "NHS number: 943 476 5918",
            "Call NHS 111 or 0300 311 2233 for advice",
            "NHS order 4444444444 for supplies",
        ],
        ..BASE
    },
    BuiltinRule {
        id: "pii.national_id.uk_nino.v1",
        category: "NATIONAL_ID",
        pattern: r"(?-u)\b[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D]\b",
        clean_right: true,
        validator: Validator::Code(uk_nino),
        confidence: 0.85,
        gate: Gate::Windows(ID_RUNS),
        severity: Severity::High,
        context: Some(&UK_NINO_CONTEXT),
        any_case: &["nino", "national insurance", "ni number", "ni no"],
        examples: &[
            "my ni number is ⟦ab123456c⟧",
            "national insurance no. ⟦jg 10 37 59 a⟧",
            "National Insurance number: ⟦JG 10 37 59 A⟧",
            "My NI number is ⟦AB123456C⟧.",
            "nino=⟦KM 65 43 21 D⟧",
            "Employee NINO ⟦PR 48 21 07 B⟧ starts on Monday",
        ],
        negatives: &[
            "HMRC's specimen QQ 12 34 56 C never belongs to anyone",
            "GB 12 34 56 A is not allocated",
            "part SN 12 34 56 E in stock",
            "order AB123456C shipped",
        ],
        ..BASE
    },
    BuiltinRule {
        id: "pii.address.uk_postcode.v1",
        category: "ADDRESS",
        pattern: UK_ADDRESS,
        clean_right: true,
        validator: Validator::Code(uk_address),
        confidence: 0.85,
        gate: Gate::Near {
            words: &[
                "postcode",
                "post code",
                "postal",
                "address",
                "street",
                "st",
                "road",
                "rd",
                "lane",
                "avenue",
                "ave",
                "close",
                "drive",
                "way",
                "court",
                "crescent",
                "gardens",
                "place",
                "square",
                "terrace",
                "grove",
                "hill",
                "park",
                "row",
                "mews",
                "walk",
                "parade",
                "green",
            ],
            before: 64,
            after: 96,
        },
        severity: Severity::Medium,
        examples: &[
            "Postcode: ⟦LS6 2AB⟧",
            "Send it to ⟦14 Elm Grove, Leeds LS6 2AB⟧ please.",
            "Address: ⟦42 Station Road\nCambridge\nCB1 2JH⟧",
            "Our office is at ⟦7 Mill Lane, Oxford OX1 4AB⟧.",
            "post code ⟦EC1A 1BB⟧ for the London office",
        ],
        negatives: &[
            "Postcode: QX1 2AB",
            "the address field is optional",
            "walk 3 miles in the park",
            "address line SW1A 1CI is malformed",
        ],
        ..BASE
    },
    // ----------------------------------------------------------------- Germany
    BuiltinRule {
        id: "pii.tax_id.de_steuer_id.v1",
        category: "TAX_ID",
        pattern: r"(?-u)\b\d{2} ?\d{3} ?\d{3} ?\d{3}\b",
        clean_right: true,
        validator: Validator::Code(de_steuer_id),
        confidence: 0.9,
        gate: Gate::Near {
            words: &[
                "steuer",
                "steuerid",
                "steueridentifikationsnummer",
                "identifikationsnummer",
                "idnr",
                "tin",
                "tax",
            ],
            before: 0,
            after: 64,
        },
        severity: Severity::High,
        examples: &[
            "Meine Steuer-ID ist ⟦94 706 382 107⟧.",
            "Steueridentifikationsnummer: ⟦92871453643⟧",
            "German tax ID (TIN): ⟦72383409564⟧",
            "IdNr. ⟦86095742719⟧ laut Lohnsteuerbescheinigung",
        ],
        negatives: &[
            "Steuer-ID: 94706382108",
            "Steuer-ID 10234567893 ist ungültig",
            "Steuer 2024: Bestellnummer 12345678903",
        ],
        ..BASE
    },
    BuiltinRule {
        id: "pii.tax_id.de_steuernummer.v1",
        category: "TAX_ID",
        pattern: r"(?-u)\b(?:\d{2,3}/\d{3,4}/\d{4,5}|\d{3} \d{3} \d{5}|\d{13})\b",
        clean_right: true,
        validator: Validator::Code(de_steuernummer),
        // Above a 13-digit card number of the same digits.
        confidence: 0.96,
        gate: Gate::Near { words: &["steuernummer", "stnr", "st", "steuer", "finanzamt"], before: 0, after: 64 },
        severity: Severity::High,
        examples: &[
            "Steuernummer: ⟦21/815/08150⟧",
            "St.-Nr. ⟦181/815/08155⟧ beim Finanzamt München",
            "German tax number (Steuernummer, ELSTER form): ⟦9181081508155⟧",
            "Steuernummer ⟦013 815 08153⟧ (Hessen)",
        ],
        negatives: &[
            "Steuernummer folgt am 12/05/2024",
            "Steuer-Rechnung 2893181508152",
            "Steuernummer: 6181081508155",
        ],
        ..BASE
    },
    BuiltinRule {
        id: "pii.national_id.de_personalausweis.v1",
        category: "NATIONAL_ID",
        pattern: r"(?-u)\b[CFGHJ-NPRTV-Z][CFGHJ-NPRTV-Z0-9]{8}\d?\b",
        clean_right: true,
        validator: Validator::Code(de_ausweis),
        confidence: 0.9,
        gate: Gate::Near {
            words: &[
                "personalausweis",
                "personalausweisnummer",
                "ausweis",
                "ausweisnummer",
                "ausweisnr",
                "perso",
                "dokumentennummer",
                "id card",
                "identity card",
            ],
            before: 0,
            after: 64,
        },
        severity: Severity::High,
        examples: &[
            "Personalausweis-Nr.: ⟦T220001293⟧",
            "Ausweisnummer ⟦L5GPRN3145⟧",
            "German ID card number: ⟦LJ80XPCZ94⟧",
            "Dokumentennummer: ⟦V2226NR70⟧",
        ],
        negatives: &["Personalausweis: T220001294", "Ausweis bitte mitbringen, Vorgang 1234567890", "Ausweis GESPERRT"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.national_id.de_svnr.v1",
        category: "NATIONAL_ID",
        pattern: r"(?-u)\b\d{2} ?\d{6} ?[A-Z] ?\d{2} ?\d\b",
        clean_right: true,
        validator: Validator::Code(de_rvnr),
        confidence: 0.85,
        gate: Gate::Windows(ID_RUNS),
        severity: Severity::High,
        context: Some(&DE_SV_CONTEXT),
        any_case: &[
            "sozialversicherungsnummer",
            "rentenversicherungsnummer",
            "svnr",
            "sv-nummer",
            "versicherungsnummer",
        ],
        examples: &[
            "sv-nummer: ⟦65 170839 j 003⟧",
            "Sozialversicherungsnummer: ⟦65 170839 J 003⟧",
            "Rentenversicherungsnummer ⟦12150385M515⟧",
            "My German social insurance number is ⟦53 010203 K 029⟧.",
        ],
        negatives: &[
            "Sozialversicherungsnummer 65170839J004",
            "Rentenversicherungsnummer 65 173239 J 003",
            "Bestellnummer 12150385M515",
        ],
        ..BASE
    },
    BuiltinRule {
        id: "pii.health_id.de_kvnr.v1",
        category: "HEALTH_ID",
        pattern: r"(?-u)\b[A-Z]\d{9}\b",
        clean_right: true,
        validator: Validator::Code(de_kvnr),
        confidence: 0.9,
        gate: Gate::Near {
            words: &[
                "krankenversichertennummer",
                "versichertennummer",
                "versichertennr",
                "kvnr",
                "krankenkasse",
                "gesundheitskarte",
                "egk",
                "health insurance number",
                "insurance number",
            ],
            before: 0,
            after: 64,
        },
        severity: Severity::High,
        examples: &[
            "Krankenversichertennummer: ⟦A123456780⟧",
            "Versichertennummer ⟦T405711391⟧ laut Gesundheitskarte",
            "German health insurance number: ⟦Q820173458⟧",
        ],
        negatives: &[
            "Krankenversichertennummer A123456781",
            "health insurance policy A123456780",
            "Krankenkasse Rechnung R000000000",
        ],
        ..BASE
    },
    // ----------------------------------------------------------------- Spain
    BuiltinRule {
        id: "pii.national_id.es_dni.v1",
        category: "NATIONAL_ID",
        // Also with the thousands dots of the printed card (`05.839.271-P`).
        pattern: r"(?-u)\b(?:\d{8}|\d{2}\.\d{3}\.\d{3})[ -]?[A-HJ-NP-TV-Z]\b",
        clean_right: true,
        validator: Validator::Code(es_dni),
        confidence: 0.9,
        gate: Gate::Windows(ID_RUNS),
        severity: Severity::High,
        context: Some(&ES_CONTEXT),
        any_case: &["dni"],
        examples: &[
            "mi dni es ⟦95597297-m⟧",
            "DNI: ⟦12345678Z⟧",
            "Mi DNI es ⟦95597297-M⟧.",
            "Spanish ID card (DNI) ⟦92622439 J⟧",
            "⟦33283679B⟧",
            "con D.N.I. nº ⟦95.597.297-M⟧ y NIF ⟦12.345.678Z⟧",
        ],
        negatives: &["DNI: 12345678A", "pedido 33283679B enviado", "tel 91 234 56 78 ext B"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.national_id.es_nie.v1",
        category: "NATIONAL_ID",
        pattern: r"(?-u)\b[XYZ][ -]?\d{7}[ -]?[A-HJ-NP-TV-Z]\b",
        clean_right: true,
        validator: Validator::Code(es_nie),
        confidence: 0.9,
        gate: Gate::Windows(ID_RUNS),
        severity: Severity::High,
        context: Some(&ES_CONTEXT),
        any_case: &["nie"],
        examples: &[
            "nie ⟦x1234567l⟧",
            "NIE: ⟦X1234567L⟧",
            "Número de identidad de extranjero ⟦Y-4364697-R⟧",
            "foreigner ID (NIE) ⟦Z4821237M⟧",
        ],
        negatives: &["NIE X1234567M", "modelo Z4821237A"],
        ..BASE
    },
    // ----------------------------------------------------------------- Italy
    BuiltinRule {
        id: "pii.tax_id.it_codice_fiscale.v1",
        category: "TAX_ID",
        pattern: r"(?-u)\b[A-Z]{6}[0-9L-NP-V]{2}[A-EHLMPR-T][0-9L-NP-V]{2}[A-Z][0-9L-NP-V]{3}[A-Z]\b",
        clean_right: true,
        validator: Validator::Code(it_codice_fiscale),
        confidence: 0.95,
        gate: Gate::Windows(ID_RUNS),
        severity: Severity::High,
        context: Some(&IT_CONTEXT),
        any_case: &["codice fiscale", "cf"],
        examples: &[
            "il mio codice fiscale è ⟦rssmra85t10a562s⟧",
            "⟦bnclra92e52f205y⟧ is my codice fiscale",
            "Codice fiscale: ⟦RSSMRA85T10A562S⟧",
            "Il mio codice fiscale è ⟦BNCLRA92E52F205Y⟧.",
            "Italian tax code ⟦RSSMRA85T10A56NH⟧ (omocodia)",
            "cf=⟦VRDGPP80A01H501U⟧",
        ],
        negatives: &[
            "build rssmra85t10a562s passed",
            "codice fiscale: rssmra85t10a562t",
            "RSSMRA85T10A562T",
            "RSSMRA85Z10A562S",
            "RSSMRA85T92A562S",
        ],
        ..BASE
    },
    BuiltinRule {
        id: "pii.vat.it_partita_iva.v1",
        category: "VAT_NUMBER",
        pattern: r"(?-u)\b\d{11}\b",
        clean_right: true,
        validator: Validator::Code(it_piva),
        confidence: 0.9,
        gate: Gate::Near { words: &["iva", "partita", "piva", "vat"], before: 0, after: 48 },
        severity: Severity::Medium,
        examples: &[
            "Partita IVA: ⟦01467300016⟧",
            "P.IVA ⟦02458920010⟧ - Sede legale Milano",
            "Italian VAT number (partita IVA) ⟦89914330017⟧",
        ],
        negatives: &["Partita IVA 01467300017", "IVA 22% sul totale, ordine 12345678901"],
        ..BASE
    },
    // ----------------------------------------------------------------- France
    BuiltinRule {
        id: "pii.national_id.fr_nir.v1",
        category: "NATIONAL_ID",
        pattern: r"(?-u)\b[1-478] ?\d{2} ?\d{2} ?(?:\d{2}|2[AB]) ?\d{3} ?\d{3} ?\d{2}\b",
        clean_right: true,
        validator: Validator::Code(fr_nir),
        confidence: 0.9,
        gate: Gate::Windows(ID_RUNS),
        severity: Severity::High,
        context: Some(&FR_CONTEXT),
        examples: &[
            "Numéro de sécurité sociale : ⟦1 85 05 78 006 084 91⟧",
            "NIR ⟦292027512345620⟧",
            "French social security number: ⟦1 80 12 2A 004 031 20⟧",
        ],
        negatives: &["NIR 1 85 05 78 006 084 92", "commande 185057800608400", "1 85 13 78 006 084 91"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.company_id.fr_siren.v1",
        category: "COMPANY_ID",
        pattern: r"(?-u)\b\d{3} ?\d{3} ?\d{3}\b",
        clean_right: true,
        validator: Validator::Code(fr_siren),
        confidence: 0.85,
        gate: Gate::Near { words: &["siren", "rcs"], before: 0, after: 48 },
        severity: Severity::Medium,
        examples: &[
            "SIREN : ⟦152 758 926⟧",
            "numéro SIREN ⟦900754003⟧",
            "company registration (SIREN, RCS Paris) ⟦917 145 211⟧",
        ],
        negatives: &["SIREN 152 758 927", "SIREN: voir commande 123 456 789"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.company_id.fr_siret.v1",
        category: "COMPANY_ID",
        pattern: r"(?-u)\b\d{3} ?\d{3} ?\d{3} ?\d{5}\b",
        clean_right: true,
        validator: Validator::Code(fr_siret),
        // Above a 14-digit card number of the same digits.
        confidence: 0.97,
        gate: Gate::Near { words: &["siret"], before: 0, after: 48 },
        severity: Severity::Medium,
        examples: &[
            "SIRET : ⟦178 502 555 17160⟧",
            "N° SIRET ⟦07909669909116⟧",
            "French establishment number (SIRET) ⟦11465697877811⟧",
        ],
        negatives: &["SIRET 178 502 555 17161", "SIRET 12345678901234"],
        ..BASE
    },
    // ----------------------------------------------------------------- Benelux
    BuiltinRule {
        id: "pii.national_id.nl_bsn.v1",
        category: "NATIONAL_ID",
        pattern: r"(?-u)\b(?:\d{4}\.\d{2}\.\d{3}|\d{3} \d{3} \d{3}|\d{9})\b",
        clean_right: true,
        validator: Validator::Code(nl_bsn),
        confidence: 0.9,
        gate: Gate::Near {
            words: &["bsn", "burgerservicenummer", "sofinummer", "sofi", "citizen service number"],
            before: 0,
            after: 64,
        },
        severity: Severity::High,
        examples: &[
            "BSN: ⟦317974051⟧",
            "Mijn burgerservicenummer is ⟦4293.82.571⟧.",
            "Dutch citizen service number (BSN) ⟦735 643 635⟧",
        ],
        negatives: &["BSN 317974052", "BSN ontbreekt, ordernummer 123456789"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.national_id.be_nrn.v1",
        category: "NATIONAL_ID",
        pattern: r"(?-u)\b\d{2}\.?\d{2}\.?\d{2}[ -]?\d{3}\.?\d{2}\b",
        clean_right: true,
        validator: Validator::Code(be_nrn),
        confidence: 0.9,
        gate: Gate::Near {
            words: &[
                "rijksregisternummer",
                "rijksregister",
                "registre",
                "insz",
                "niss",
                "rrn",
                "identificatienummer",
                "national number",
                "national register",
                "nationaal",
                "national",
            ],
            before: 0,
            after: 64,
        },
        severity: Severity::High,
        examples: &[
            "Rijksregisternummer: ⟦85.07.30-033.28⟧",
            "Numéro de registre national ⟦03021512318⟧",
            "Belgian national number: ⟦90.01.01-245.70⟧",
        ],
        negatives: &["Rijksregisternummer 85.07.30-033.29", "numéro de registre 85.13.30-033.28"],
        ..BASE
    },
    // ----------------------------------------------------------------- Poland
    BuiltinRule {
        id: "pii.national_id.pl_pesel.v1",
        category: "NATIONAL_ID",
        pattern: r"(?-u)\b\d{11}\b",
        clean_right: true,
        validator: Validator::Code(pl_pesel),
        confidence: 0.95,
        gate: Gate::Near { words: &["pesel"], before: 0, after: 48 },
        severity: Severity::High,
        examples: &["PESEL: ⟦44051401359⟧", "Numer PESEL ⟦85061401230⟧", "Polish national ID (PESEL) ⟦03220512344⟧"],
        negatives: &["PESEL 44051401358", "PESEL 85133101234"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.tax_id.pl_nip.v1",
        category: "TAX_ID",
        pattern: r"(?-u)\b(?:\d{3}-\d{3}-\d{2}-\d{2}|\d{3}-\d{2}-\d{2}-\d{3}|\d{10})\b",
        clean_right: true,
        validator: Validator::Code(pl_nip),
        confidence: 0.9,
        gate: Gate::Near { words: &["nip"], before: 0, after: 48 },
        severity: Severity::High,
        examples: &["NIP: ⟦526-104-35-25⟧", "Numer NIP ⟦7773142183⟧", "Polish tax number (NIP) ⟦777-31-42-183⟧"],
        negatives: &["NIP 5261043526", "NIP: zamówienie 1234567890"],
        ..BASE
    },
    // ----------------------------------------------------------------- Nordic countries
    BuiltinRule {
        id: "pii.national_id.se_personnummer.v1",
        category: "NATIONAL_ID",
        pattern: r"(?-u)\b(?:\d{2})?\d{6}[-+ ]?\d{4}\b",
        clean_right: true,
        validator: Validator::Code(se_personnummer),
        confidence: 0.9,
        gate: Gate::Near {
            words: &["personnummer", "personnr", "pnr", "samordningsnummer", "personal identity number", "swedish"],
            before: 0,
            after: 64,
        },
        severity: Severity::High,
        examples: &[
            "Personnummer: ⟦811218-9876⟧",
            "Mitt personnummer är ⟦198112189876⟧.",
            "Swedish personal identity number ⟦640823-3234⟧",
            "samordningsnummer ⟦811278-9873⟧",
        ],
        negatives: &["personnummer 811218-9875", "Personnummer saknas; order 240501-1234"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.company_id.se_orgnr.v1",
        category: "COMPANY_ID",
        pattern: r"(?-u)\b\d{6}-?\d{4}\b",
        clean_right: true,
        validator: Validator::Code(se_orgnr),
        confidence: 0.9,
        gate: Gate::Near {
            words: &["organisationsnummer", "orgnr", "org.nr", "organisation number", "organization number"],
            before: 0,
            after: 48,
        },
        severity: Severity::Medium,
        examples: &[
            "Organisationsnummer: ⟦556703-7485⟧",
            "Org.nr ⟦8024517370⟧",
            "Swedish organisation number ⟦559128-3048⟧",
        ],
        negatives: &["Organisationsnummer 556703-7486", "orgnr 811218-9876", "see example.org/u/5567037485"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.national_id.fi_hetu.v1",
        category: "NATIONAL_ID",
        pattern: r"(?-u)\b\d{6}[-+A-FU-Y]\d{3}[0-9A-FHJ-NPR-Y]\b",
        clean_right: true,
        validator: Validator::Code(fi_hetu),
        confidence: 0.95,
        gate: Gate::Windows(ID_RUNS),
        severity: Severity::High,
        context: Some(&FI_CONTEXT),
        examples: &[
            "Henkilötunnus: ⟦131052-308T⟧",
            "HETU ⟦010305A4562⟧",
            "Finnish personal identity code ⟦150398-123B⟧",
        ],
        negatives: &["Henkilötunnus 131052-308U", "tilaus 241182-911X", "311352-308T"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.national_id.dk_cpr.v1",
        category: "NATIONAL_ID",
        pattern: r"(?-u)\b\d{6}-?\d{4}\b",
        clean_right: true,
        validator: Validator::Code(dk_cpr),
        confidence: 0.85,
        gate: Gate::Near { words: &["cpr", "cprnr", "personnummer", "danish"], before: 0, after: 48 },
        severity: Severity::High,
        examples: &["CPR-nummer: ⟦150585-1235⟧", "CPR ⟦2304911457⟧", "Danish CPR number ⟦071168-2208⟧"],
        negatives: &["CPR: 320185-1234", "CPR 011385-1234"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.national_id.no_fnr.v1",
        category: "NATIONAL_ID",
        pattern: r"(?-u)\b\d{6} ?\d{5}\b",
        clean_right: true,
        validator: Validator::Code(no_fnr),
        confidence: 0.9,
        gate: Gate::Near {
            words: &[
                "fødselsnummer",
                "fodselsnummer",
                "fødselsnr",
                "fodselsnr",
                "f.nr",
                "personnummer",
                "dnummer",
                "fnr",
                "norwegian",
                "national identity number",
            ],
            before: 0,
            after: 64,
        },
        severity: Severity::High,
        examples: &[
            "Fødselsnummer: ⟦15058512343⟧",
            "fnr ⟦231299 34514⟧",
            "Norwegian national identity number ⟦11089032174⟧",
            "D-nummer / fødselsnummer ⟦55058512337⟧",
            "fødselsnr. ⟦150585 12343⟧, f.nr. ⟦11089032174⟧",
        ],
        negatives: &["Fødselsnummer 15058512344", "fnr 32058512343"],
        ..BASE
    },
    // ----------------------------------------------------------------- Switzerland
    BuiltinRule {
        id: "pii.national_id.ch_ahv.v1",
        category: "NATIONAL_ID",
        pattern: r"(?-u)\b756\.?\d{4}\.?\d{4}\.?\d{2}\b",
        clean_right: true,
        validator: Validator::Code(ch_ahv),
        confidence: 0.95,
        gate: Gate::NumericRun { min_digits: 13, min_dashes: 0, min_dots: 0, plus: false },
        severity: Severity::High,
        context: Some(&CH_CONTEXT),
        examples: &[
            "AHV-Nr.: ⟦756.1234.5678.97⟧",
            "Numéro AVS ⟦7563639532272⟧",
            "Swiss social security number (AHV/AVS) ⟦756.5014.2177.43⟧",
        ],
        negatives: &["AHV 756.1234.5678.98", "Artikel 756.1234.5678"],
        ..BASE
    },
    // ----------------------------------------------------------------- Portugal, Ireland
    BuiltinRule {
        id: "pii.tax_id.pt_nif.v1",
        category: "TAX_ID",
        pattern: r"(?-u)\b\d{3} ?\d{3} ?\d{3}\b",
        clean_right: true,
        validator: Validator::Code(pt_nif),
        confidence: 0.9,
        gate: Gate::Near { words: &["nif", "contribuinte", "nipc", "fiscal"], before: 0, after: 48 },
        severity: Severity::High,
        examples: &[
            "NIF: ⟦110490495⟧",
            "Número de contribuinte ⟦254 902 677⟧",
            "Portuguese tax number (NIF) ⟦530432013⟧",
        ],
        negatives: &["NIF 110490496", "NIF 012345678"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.national_id.ie_ppsn.v1",
        category: "NATIONAL_ID",
        pattern: r"(?-u)\b\d{7}[A-W][A-IW]?\b",
        clean_right: true,
        validator: Validator::Code(ie_ppsn),
        confidence: 0.9,
        gate: Gate::Near { words: &["ppsn", "pps", "ppsno", "psp", "personal public service"], before: 0, after: 48 },
        severity: Severity::High,
        examples: &["PPSN: ⟦7185133Q⟧", "My PPS number is ⟦7420780SA⟧.", "Uimhir PSP / PPS No. ⟦2345888T⟧"],
        negatives: &["PPSN 7185133R", "PPS 1234567"],
        ..BASE
    },
    // ----------------------------------------------------------------- Austria, Turkey
    BuiltinRule {
        id: "pii.national_id.at_svnr.v1",
        category: "NATIONAL_ID",
        pattern: r"(?-u)\b\d{4} ?\d{6}\b",
        clean_right: true,
        validator: Validator::Code(at_svnr),
        confidence: 0.9,
        gate: Gate::Near {
            words: &["sozialversicherungsnummer", "svnr", "versicherungsnummer", "sozialversicherung", "austrian"],
            before: 0,
            after: 64,
        },
        severity: Severity::High,
        examples: &[
            "Sozialversicherungsnummer: ⟦1237 010180⟧",
            "SVNR ⟦4584150392⟧",
            "Austrian social security number ⟦7323 291166⟧",
        ],
        negatives: &["SVNR 1238 010180", "SVNR 0237 010180"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.national_id.tr_tckn.v1",
        category: "NATIONAL_ID",
        pattern: r"(?-u)\b[1-9]\d{10}\b",
        clean_right: true,
        validator: Validator::Code(tr_tckn),
        confidence: 0.9,
        gate: Gate::Near { words: &["kimlik", "tckn", "tcno", "tc", "turkish"], before: 0, after: 48 },
        severity: Severity::High,
        examples: &["T.C. Kimlik No: ⟦36316627778⟧", "TCKN ⟦40689857502⟧", "Turkish identity number ⟦10000000146⟧"],
        negatives: &["TCKN 36316627779", "Kimlik no 01234567890"],
        ..BASE
    },
    // ----------------------------------------------------------------- Found after their names
    BuiltinRule {
        id: "pii.national_id.es_nss.v1",
        category: "NATIONAL_ID",
        pattern: r"(?-u)\b\d{2}[ /-]?\d{8}[ /-]?\d{2}\b",
        clean_right: true,
        validator: Validator::Code(es_nss),
        confidence: 0.9,
        gate: Gate::Near {
            words: &["seguridad", "nss", "naf", "afiliación", "afiliacion", "social security"],
            before: 0,
            after: 64,
        },
        context: Some(&LABELLED_CONTEXT),
        examples: &[
            "Nº de la Seguridad Social: ⟦281234567840⟧",
            "Número de afiliación (NAF) ⟦28/12345678/40⟧",
            "Spanish social security number ⟦08 40123456 54⟧",
            "NSS: ⟦463123456725⟧",
        ],
        negatives: &[
            "Nº de la Seguridad Social: 281234567841",
            "Seguridad Social: pedido 281234567840",
            "NSS 990000000000",
        ],
        ..BASE
    },
    BuiltinRule {
        id: "pii.tax_id.es_nif.v1",
        category: "TAX_ID",
        pattern: r"(?i-u)\bnif\b[^\n\d]{0,32}?\b((?-i:\d{8}[ -]?[A-HJ-NP-TV-Z]|[XYZ][ -]?\d{7}[ -]?[A-HJ-NP-TV-Z]|[KLM]\d{7}[A-HJ-NP-TV-Z]))\b",
        group: 1,
        clean_right: true,
        validator: Validator::Code(es_nif),
        // Above the DNI / NIE rules (0.95 with "nif" nearby): named NIF, it is the tax number.
        confidence: 0.97,
        gate: Gate::Near { words: &["nif"], before: 0, after: 64 },
        any_case: &["nif"],
        examples: &[
            "mi nif: ⟦20481736-y⟧",
            "Me llamo Lucía y mi NIF ⟦73815294Z⟧.",
            "NIF: ⟦20481736-Y⟧",
            "NIF del trabajador extranjero ⟦Y2837465S⟧",
        ],
        negatives: &["NIF 73815294A", "NIF-IVA ESB62819479", "mi DNI 73815294Z"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.company_id.es_cif.v1",
        category: "COMPANY_ID",
        pattern: r"(?-u)\b[ABCDEFGHJNPQRSUVW]-?\d{7}-?[0-9A-J]\b",
        clean_right: true,
        validator: Validator::Code(es_cif),
        confidence: 0.9,
        gate: Gate::Near { words: &["cif", "nif"], before: 0, after: 48 },
        severity: Severity::Medium,
        context: Some(&LABELLED_CONTEXT),
        examples: &[
            "Construcciones Levante S.L., CIF ⟦B62819479⟧, NIF-IVA ESB62819479.",
            "CIF: ⟦A12345674⟧",
            "NIF de la sociedad ⟦Q2826000H⟧",
            "cif=⟦B-1234567-4⟧",
        ],
        negatives: &["CIF B62819478", "CIF pendiente, pedido A1234567", "CIF X1234567L"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.health_id.fr_vitale.v1",
        category: "HEALTH_ID",
        pattern: r"(?i-u)\bvitale\b[^\n\d]{0,24}?\b((?-i:[1-478] ?\d{2} ?\d{2} ?(?:\d{2}|2[AB]) ?\d{3} ?\d{3} ?\d{2}))\b",
        group: 1,
        clean_right: true,
        validator: Validator::Code(fr_nir),
        // Above the NIR rule (0.95 with "vitale" nearby): the number of a carte Vitale.
        confidence: 0.97,
        gate: Gate::Near { words: &["vitale"], before: 0, after: 64 },
        examples: &[
            "Pour la mutuelle, ma carte Vitale : ⟦1 84 03 75 123 456 90⟧.",
            "carte vitale n° ⟦291016938802172⟧",
            "Vitale: ⟦1 80 12 2A 004 031 20⟧",
        ],
        negatives: &["carte Vitale : 1 84 03 75 123 456 91", "Vitale 2024 commande 184037512345690 x"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.tax_id.fr_spi.v1",
        category: "TAX_ID",
        pattern: r"(?-u)\b[0-3]\d ?\d{2} ?\d{3} ?\d{3} ?\d{3}\b",
        clean_right: true,
        validator: Validator::Code(fr_spi),
        confidence: 0.9,
        gate: Gate::Near { words: &["fiscal", "fiscale", "spi"], before: 0, after: 64 },
        context: Some(&LABELLED_CONTEXT),
        examples: &[
            "Numéro fiscal : ⟦3023217600053⟧",
            "numéro d'identification fiscale (SPI) ⟦30 23 217 600 053⟧",
            "French tax number (numéro fiscal de référence): ⟦0748312659171⟧",
        ],
        negatives: &[
            "Numéro fiscal : 3023217600054",
            "numéro fiscal 5023217600053",
            "fiscal 2024: commande 1234567890066 x",
        ],
        ..BASE
    },
    BuiltinRule {
        id: "pii.national_id.it_cie.v1",
        category: "NATIONAL_ID",
        // Carta d'identità elettronica (CIE 3.0: two letters, five digits, two letters)
        // and the paper card (two letters, seven digits).
        pattern: r"(?-u)\b(?:[A-Z]{2}\d{5}[A-Z]{2}|[A-Z]{2} ?\d{7})\b",
        clean_right: true,
        validator: Validator::Code(registered_number),
        confidence: 0.85,
        gate: Gate::Near { words: &["identità", "identita", "cie"], before: 0, after: 64 },
        context: Some(&LABELLED_CONTEXT),
        examples: &[
            "Carta d'identità n. ⟦CA48213KX⟧",
            "numero della carta di identità: ⟦AY 4821390⟧",
            "Italian identity card (CIE) ⟦CB12938ZT⟧",
        ],
        negatives: &[
            "Carta d'identità n. CA00000AA",
            "carta d'identità scaduta nel 2023",
            "identità IT60X0542811101000000123456",
        ],
        ..BASE
    },
    BuiltinRule {
        id: "pii.company_id.it_rea.v1",
        category: "COMPANY_ID",
        pattern: r"(?i-u)\b(?:rea\b|r\.e\.a\.?)[^\n\d]{0,24}?\b((?-i:[A-Z]{2})[ -]?\d{4,7})\b",
        group: 1,
        clean_right: true,
        validator: Validator::Code(registered_number),
        confidence: 0.85,
        gate: Gate::Near { words: &["rea", "r.e.a"], before: 0, after: 64 },
        severity: Severity::Medium,
        examples: &[
            "P.IVA IT01467300016, REA ⟦MI-1849068⟧.",
            "Numero R.E.A. ⟦TO 1102938⟧",
            "iscritta al REA di Roma con il n. ⟦RM-1473820⟧",
        ],
        negatives: &["REA MI-0000000", "la rea confessa", "REA n. 2024"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.health_id.it_tessera_sanitaria.v1",
        category: "HEALTH_ID",
        pattern: r"(?-u)\b80380\d{15}\b",
        clean_left: true,
        clean_right: true,
        validator: Validator::Code(it_tessera),
        confidence: 0.9,
        gate: Gate::NumericRun { min_digits: 20, min_dashes: 0, min_dots: 0, plus: false },
        examples: &[
            "Tessera sanitaria del titolare: ⟦80380004839201756349⟧.",
            "numero di identificazione della tessera (TEAM) ⟦80380001072648395124⟧",
        ],
        negatives: &["Tessera sanitaria 80380004839201756348", "id 80390004839201756349"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.company_id.nl_kvk.v1",
        category: "COMPANY_ID",
        pattern: r"(?-u)\b\d{8}\b",
        clean_right: true,
        validator: Validator::Code(registered_number),
        confidence: 0.85,
        gate: Gate::Near {
            words: &["kvk", "kvknummer", "kamer van koophandel", "handelsregister"],
            before: 0,
            after: 48,
        },
        severity: Severity::Medium,
        context: Some(&LABELLED_CONTEXT),
        examples: &[
            "Bakkerij De Molen B.V., KvK-nummer ⟦60482913⟧, btw-id NL317974051B01.",
            "ingeschreven bij de Kamer van Koophandel onder nummer ⟦34129087⟧",
            "KvK: ⟦09182736⟧",
        ],
        negatives: &["KvK-nummer 00000000", "KvK 2024 jaarverslag", "KvK 1234567"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.national_id.pl_dowod.v1",
        category: "NATIONAL_ID",
        pattern: r"(?-u)\b[A-Z]{3} ?\d{6}\b",
        clean_right: true,
        validator: Validator::Code(pl_dowod),
        confidence: 0.9,
        gate: Gate::Near {
            words: &["dowód", "dowodu", "dowod", "dowodem", "osobisty", "osobistego", "identity card", "id card"],
            before: 0,
            after: 64,
        },
        examples: &[
            "Mój numer dowodu osobistego to ⟦ABA430055⟧.",
            "Dowód osobisty: ⟦XYZ 712345⟧",
            "Polish identity card ⟦CAE848213⟧",
        ],
        negatives: &["dowód osobisty ABA430056", "dowód zakupu FV 123456", "numer dowodu ABA 43005"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.company_id.pl_regon.v1",
        category: "COMPANY_ID",
        pattern: r"(?-u)\b\d{9}(?:\d{5})?\b",
        clean_right: true,
        validator: Validator::Code(pl_regon),
        confidence: 0.9,
        gate: Gate::Near { words: &["regon"], before: 0, after: 48 },
        severity: Severity::Medium,
        context: Some(&LABELLED_CONTEXT),
        examples: &[
            "Usługi Budowlane Nowak Sp. z o.o., REGON ⟦123456785⟧, NIP UE PL5261043525.",
            "REGON: ⟦730819427⟧",
            "REGON jednostki lokalnej ⟦12345678512347⟧",
        ],
        negatives: &["REGON 123456786", "REGON 000000000", "REGON: zamówienie 12345678"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.company_id.de_handelsregister.v1",
        category: "COMPANY_ID",
        pattern: r"(?-u)\bHR[AB] ?\d{1,6}(?: B)?\b",
        clean_right: true,
        validator: Validator::Code(registered_number),
        confidence: 0.85,
        gate: Gate::Prefix(&[b"HRA", b"HRB"]),
        severity: Severity::Medium,
        examples: &[
            "Müller & Söhne GmbH, Amtsgericht Charlottenburg ⟦HRB 268799⟧",
            "Registergericht: Amtsgericht München, ⟦HRB 123456⟧",
            "eingetragen im Handelsregister unter ⟦HRA 40281⟧",
            "Amtsgericht Charlottenburg ⟦HRB 98765 B⟧",
        ],
        negatives: &["HRB 000000", "HRB 12", "HRBX 268799", "HR 268799"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.company_id.uk_companies_house.v1",
        category: "COMPANY_ID",
        pattern: concat!(
            r"(?i-u)\b(?:companies house|company (?:registration )?(?:number|no)|registered (?:number|no)",
            r"|registered in (?:england|scotland|wales|northern ireland)|crn)\b[^\n\d]{0,32}?\b((?-i:[A-Z]{2}\d{6}|\d{8}))\b"
        ),
        group: 1,
        clean_right: true,
        validator: Validator::Code(uk_company),
        confidence: 0.85,
        gate: Gate::Near {
            words: &[
                "companies house",
                "company number",
                "company no",
                "company registration",
                "registered number",
                "registered no",
                "registered in",
                "crn",
            ],
            before: 0,
            after: 112,
        },
        severity: Severity::Medium,
        examples: &[
            "Our company details for the invoice: Companies House no. ⟦09482713⟧, VAT reg GB980780684.",
            "Registered in England and Wales, company number ⟦SC482913⟧.",
            "Company registration number: ⟦OC301947⟧",
        ],
        negatives: &["Companies House no. 00000000", "company number 1234567", "company no. XX123456"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.tax_id.tr_vkn.v1",
        category: "TAX_ID",
        pattern: r"(?i-u)\b(?:vergi kimlik|vkn)\b[^\n\d]{0,32}?\b(\d{10})\b",
        group: 1,
        clean_right: true,
        validator: Validator::Code(tr_vkn),
        confidence: 0.9,
        gate: Gate::Near { words: &["vergi", "vkn"], before: 0, after: 64 },
        examples: &[
            "Pasaport numaram U12345678, vergi kimlik numaram ⟦4820193752⟧.",
            "Vergi Kimlik No: ⟦7301846254⟧",
            "VKN ⟦0157392843⟧",
        ],
        negatives: &["vergi kimlik numaram 4820193753", "VKN 0000000000", "vergi kimlik 12345"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.vat.tr_vkn.v1",
        category: "VAT_NUMBER",
        pattern: r"(?i-u)\bvergi (?:no\b|numaras)[^\n\d]{0,32}?\b(\d{10})\b",
        group: 1,
        clean_right: true,
        validator: Validator::Code(tr_vkn),
        confidence: 0.9,
        gate: Gate::Near { words: &["vergi"], before: 0, after: 64 },
        severity: Severity::Medium,
        examples: &[
            "Fatura bilgileri: Yıldız Tekstil A.Ş., Vergi No ⟦7301846254⟧.",
            "Vergi numarası: ⟦0157392843⟧ (Kadıköy V.D.)",
        ],
        negatives: &["Vergi No 7301846255", "vergi no. 2024 beyanı"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.company_id.tr_mersis.v1",
        category: "COMPANY_ID",
        pattern: r"(?i-u)\b(?:mersis|ticaret sicil|sicil)\b[^\n\d]{0,24}?\b(\d{16}|\d{5,7})\b",
        group: 1,
        clean_right: true,
        validator: Validator::Code(tr_company),
        confidence: 0.85,
        gate: Gate::Near { words: &["mersis", "sicil"], before: 0, after: 64 },
        severity: Severity::Medium,
        examples: &[
            "Vergi No 7301846254, Mersis kayıt ⟦563241⟧.",
            "MERSIS No: ⟦0482019375600015⟧",
            "Ticaret sicil no ⟦104382⟧",
        ],
        negatives: &["Mersis no 1482019375600015", "sicil no 000000", "Mersis kaydı 2024 yılında 12"],
        ..BASE
    },
    // ----------------------------------------------------------------- EU VAT numbers
    BuiltinRule {
        id: "pii.vat.eu.v1",
        category: "VAT_NUMBER",
        pattern: EU_VAT,
        clean_right: true,
        validator: Validator::Code(eu_vat),
        confidence: 0.9,
        gate: Gate::Windows(ID_RUNS),
        severity: Severity::Medium,
        context: Some(&VAT_CONTEXT),
        examples: &[
            "USt-IdNr.: ⟦DE410077285⟧",
            "Umsatzsteuer-ID ⟦DE 287 319 062⟧, Finanzamt Köln",
            "N° TVA intracommunautaire : ⟦FR96152758926⟧",
            "Partita IVA ⟦IT01467300016⟧ e ⟦ESB62819479⟧",
            "BTW-nummer ⟦NL317974051B01⟧ or ⟦NL228173169B34⟧",
            "VAT: ⟦BE0417091585⟧, ⟦ATU13585627⟧, ⟦PL5261043525⟧",
            "Momsregistreringsnummer ⟦SE556703748501⟧ and ⟦DK13579245⟧",
            "VAT numbers ⟦GB980780684⟧ ⟦IE6433435F⟧ ⟦IE3628451VA⟧ ⟦PT507283198⟧ ⟦FI27491639⟧",
            "⟦EL094817323⟧ ⟦HR38591207469⟧ ⟦HU12893746⟧ ⟦LU15027442⟧ ⟦MT12947127⟧",
            "⟦RO18547290⟧ ⟦SI50128477⟧ ⟦SK2022748970⟧ ⟦CZ25827367⟧ ⟦EE102345676⟧ ⟦ESX1234567L⟧",
        ],
        negatives: &[
            "USt-IdNr.: DE410077286",
            "FR97152758926",
            "order DE123456789 shipped",
            "IT01467300017",
            "NL317974052B01",
        ],
        ..BASE
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uk_checks() {
        // NHS Digital's example number.
        assert!(uk_nhs(b"943 476 5919"));
        assert!(!uk_nhs(b"943 476 5910"));
        assert!(!uk_nhs(b"4444444444"));
        assert!(uk_nino(b"AB 12 34 56 C"));
        for bad in ["QQ 12 34 56 C", "GB123456A", "AO123456A", "DA123456A", "AB123456E"] {
            assert!(!uk_nino(bad.as_bytes()), "{bad}");
        }
        for good in ["SW1A 1AA", "EC1A 1BB", "W1A 0AX", "M1 1AE", "B33 8TH", "CR2 6XH", "DN55 1PT", "GIR 0AA"] {
            assert!(uk_address(good.as_bytes()), "{good}");
            assert!(uk_address(format!("1 Long Road, Town {good}").as_bytes()), "{good}");
        }
        for bad in ["QA1 1AA", "AI1 1AA", "SW1A 1AC", "W1L 0AX", "GIR 0AB"] {
            assert!(!uk_address(bad.as_bytes()), "{bad}");
        }
    }

    #[test]
    fn german_checks() {
        // A widely published example identification number, and the specimen identity
        // card's number (Erika Mustermann: T22000129, check digit 3).
        assert!(de_steuer_id(b"86095742719"));
        assert!(!de_steuer_id(b"86095742718"));
        // Three equal digits in a row, or no digit repeated.
        assert!(!de_steuer_id(b"11123456780"));
        assert!(!de_steuer_id(b"01234567899"));
        assert_eq!(icao(b"T22000129"), Some(3));
        assert!(de_ausweis(b"T220001293"));
        assert!(!de_ausweis(b"T220001294"));
        assert!(de_rvnr(b"65 170839 J 003"));
        assert!(!de_rvnr(b"65 170839 J 004"));
        assert!(de_kvnr(b"A123456780"));
        assert!(!de_kvnr(b"A123456781"));
        assert!(de_steuernummer(b"9181081508155"));
        assert!(!de_steuernummer(b"9181181508155"));
    }

    #[test]
    fn iberian_and_italian_checks() {
        // The DNI and NIE examples found throughout Spanish documentation.
        assert!(es_dni(b"12345678Z"));
        assert!(!es_dni(b"12345678A"));
        assert!(es_nie(b"X1234567L"));
        assert!(!es_nie(b"X1234567M"));
        // The textbook codice fiscale (Mario Rossi, a man born on 10 December 1985).
        assert!(it_codice_fiscale(b"RSSMRA85T10A562S"));
        assert!(!it_codice_fiscale(b"RSSMRA85T10A562T"));
        assert!(it_piva(b"01467300016"));
        assert!(!it_piva(b"01467300017"));
        assert!(pt_nif(b"110490495"));
        assert!(!pt_nif(b"110490496"));
    }

    #[test]
    fn french_benelux_polish_checks() {
        assert!(fr_nir(b"1 85 05 78 006 084 91"));
        assert!(fr_nir(b"1 80 12 2A 004 031 20"));
        assert!(!fr_nir(b"1 80 12 2B 004 031 20"));
        assert!(fr_siren(b"152758926"));
        assert!(fr_siret(b"17850255517160"));
        // La Poste's establishments: digit sum divisible by 5.
        assert!(fr_siret(b"35600000000048"));
        // Test BSNs used in Dutch documentation.
        assert!(nl_bsn(b"123456782"));
        assert!(nl_bsn(b"111222333"));
        assert!(!nl_bsn(b"123456789"));
        assert!(be_nrn(b"85.07.30-033.28"));
        assert!(be_nrn(b"03021512318"));
        // PESEL's textbook example.
        assert!(pl_pesel(b"44051401359"));
        assert!(!pl_pesel(b"44051401358"));
        assert!(pl_nip(b"526-104-35-25"));
    }

    #[test]
    fn nordic_and_other_checks() {
        // The usual Swedish example and DVV's published HETU example.
        assert!(se_personnummer(b"811218-9876"));
        assert!(se_personnummer(b"19811218-9876"));
        assert!(!se_personnummer(b"811218-9875"));
        assert!(se_personnummer(b"811278-9873"));
        assert!(se_orgnr(b"556703-7485"));
        assert!(!se_orgnr(b"811218-9876"));
        assert!(fi_hetu(b"131052-308T"));
        assert!(!fi_hetu(b"131052-308U"));
        assert!(dk_cpr(b"150585-1235"));
        assert!(!dk_cpr(b"320185-1234"));
        assert!(no_fnr(b"01010012356"));
        assert!(no_fnr(b"55058512337"));
        assert!(!no_fnr(b"01010012357"));
        // The example AHV number of the Swiss documentation.
        assert!(ch_ahv(b"756.1234.5678.97"));
        assert!(!ch_ahv(b"756.1234.5678.98"));
        assert!(ie_ppsn(b"7185133Q"));
        assert!(ie_ppsn(b"7420780SA"));
        assert!(at_svnr(b"1237 010180"));
        // The TCKN commonly used for testing.
        assert!(tr_tckn(b"10000000146"));
        assert!(!tr_tckn(b"10000000147"));
    }

    #[test]
    fn vat_checks() {
        for good in [
            "DE410077285",
            "DE136695976",
            "ATU13585627",
            "BE0417091585",
            "FR96152758926",
            "IT01467300016",
            "ESB62819479",
            "ESB6281947I",
            "ESX1234567L",
            "NL317974051B01",
            "NL228173169B34",
            "PL5261043525",
            "SE556703748501",
            "DK13579245",
            "GB980780684",
            "IE6433435F",
            "IE3628451VA",
            "PT507283198",
            "FI27491639",
            "EL094817323",
            "HR38591207469",
            "HU12893746",
            "LU15027442",
            "MT12947127",
            "RO18547290",
            "SI50128477",
            "SK2022748970",
            "CZ25827367",
            "EE102345676",
            "BG123456789",
            "LT123456715",
        ] {
            assert!(eu_vat(good.as_bytes()), "{good}");
        }
        for bad in [
            "DE410077286",
            "ATU13585628",
            "BE0417091586",
            "FR97152758926",
            "IT01467300017",
            "ESB62819478",
            "NL317974052B01",
            "PL5261043526",
            "SE556703748601",
            "DK13579246",
            "GB980780685",
            "IE6433435G",
            "PT507283199",
            "FI27491630",
            "XX123456789",
        ] {
            assert!(!eu_vat(bad.as_bytes()), "{bad}");
        }
    }

    /// Text with numbers of every other kind: no finding of this file's rules.
    #[test]
    fn look_alikes_are_left_alone() {
        let engine = crate::detect::Engine::new(&crate::detect::DetectorsConfig::default()).unwrap();
        let ours: Vec<&str> = RULES.iter().map(|r| r.id).collect();
        for text in [
            "Order 12345678 shipped on 2024-05-01 at 12:30, invoice INV-2024-000123.",
            "Call +49 30 12345678 or 020 7946 0958, fax 0300 311 2233.",
            "ISBN 978-3-16-148410-0, EAN 4006381333931, UPC 036000291452.",
            "Build 1.20.345.6789 released; commit 3F9A1C0DE1B2C3D4E5F6.",
            "SKU AB-123456-C, part no. XK 12 34 56 Z, model RTX 4090 Ti 24GB.",
            "Ticket JIRA-123456 and PR 4567890 merged; serial SN1234567890ABC.",
            "Tracking 1Z999AA10123456784, container MSCU1234565, flight LH 4567.",
            "Temperature 21.5 C, 1013 hPa, 55 % humidity, 12345 steps.",
            "Bestellung 4711-0815-1234 vom 03.05.2024, Rechnung 2024/05/1234567.",
            "Pedido 12345678 del 03/05/2024, total 1.234,56 EUR.",
            "UUID 123E4567-E89B-12D3-A456-426614174000 and ULID 01ARZ3NDEKTSV4RRFFQ69G5FAV.",
        ] {
            let found = engine.scan(text.as_bytes());
            let ids: Vec<&str> = found
                .iter()
                .filter_map(|f| engine.rule(f.rule))
                .map(|r| r.id.as_str())
                .filter(|id| ours.contains(id))
                .collect();
            assert!(ids.is_empty(), "{text}: {ids:?}");
        }
    }

    #[test]
    fn id_runs_cover_tokens_with_letters() {
        let text = b"nino AB 12 34 56 C, and x 1234 y; CF RSSMRA85T10A562S.";
        let w = id_runs(&Text::new(text));
        let covers = |needle: &[u8]| {
            let at = text.windows(needle.len()).position(|x| x == needle).unwrap();
            w.iter().any(|&(s, e)| s < at && at + needle.len() < e)
        };
        assert!(covers(b"AB 12 34 56 C"));
        assert!(covers(b"RSSMRA85T10A562S"));
        assert!(!w.iter().any(|&(s, e)| s <= 27 && 27 < e), "{w:?}");
    }
}
