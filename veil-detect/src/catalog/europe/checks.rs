//! The checks of the European identifiers: check digits, dates of birth and allocation rules as their issuers publish them, and the windows the rules run in.

use crate::engine::text::Text;
use crate::rule::push_window;
use crate::validate::luhn;

// ---------------------------------------------------------------------------------
// Windows
// ---------------------------------------------------------------------------------

/// The fewest digits a run must have to be searched: a codice fiscale has seven
/// (five when two are written as letters, *omocodia*), a NINO six.
pub(crate) const RUN_MIN_DIGITS: usize = 5;

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
pub const ID_RUNS: crate::rule::WindowFinder =
    crate::rule::WindowFinder { find: id_runs, needs: crate::engine::text::Needs::DIGIT };

// ---------------------------------------------------------------------------------
// Shared arithmetic
// ---------------------------------------------------------------------------------

/// Separators people write inside identifiers.
pub(crate) fn separator(b: u8) -> bool {
    matches!(b, b' ' | b'.' | b'-' | b'/' | b'+')
}

/// The digit values of `m`, separators skipped; `None` on another byte or a count
/// other than `N`.
pub(crate) fn digits<const N: usize>(m: &[u8]) -> Option<[u8; N]> {
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
pub(crate) fn compact(m: &[u8], out: &mut [u8]) -> Option<usize> {
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
pub(crate) fn chars<const N: usize>(m: &[u8]) -> Option<[u8; N]> {
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
pub(crate) fn values<const N: usize>(ascii: &[u8]) -> Option<[u8; N]> {
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
pub(crate) fn number(d: &[u8]) -> u64 {
    d.iter().fold(0u64, |acc, &x| acc.wrapping_mul(10).wrapping_add(u64::from(x)))
}

/// Σ dᵢ·wᵢ over the shorter of the two.
pub(crate) fn weighted(d: &[u8], w: &[u32]) -> u32 {
    d.iter().zip(w).map(|(&x, &w)| u32::from(x) * w).sum()
}

pub(crate) fn all_same(d: &[u8]) -> bool {
    d.windows(2).all(|w| matches!(w, [a, b] if a == b))
}

/// The check digit of ISO/IEC 7064 MOD 11,10 over digit values.
pub(crate) fn mod11_10(d: &[u8]) -> u8 {
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
pub(crate) fn cross(x: u32) -> u32 {
    x / 10 + x % 10
}

/// A calendar date; a two-digit year (`None` century) allows 29 February whenever
/// the year may be a leap year.
pub(crate) fn date_ok(day: u32, month: u32, year: Option<u32>, yy: u32) -> bool {
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
pub(crate) fn two(a: u8, b: u8) -> u32 {
    u32::from(a) * 10 + u32::from(b)
}

// ---------------------------------------------------------------------------------
// United Kingdom
// ---------------------------------------------------------------------------------

/// NHS number: ten digits, the last a modulus-11 check over the first nine (weights
/// 10 to 2, check = 11 − remainder, 11 → 0, 10 never issued).
pub(crate) fn uk_nhs(m: &[u8]) -> bool {
    let Some(d) = digits::<10>(m) else { return false };
    let [.., check] = d;
    let c = 11 - weighted(&d, &[10, 9, 8, 7, 6, 5, 4, 3, 2]) % 11;
    let c = if c == 11 { 0 } else { c };
    c != 10 && c == u32::from(check) && !all_same(&d)
}

/// National Insurance number (HMRC NIM39110): two prefix letters, neither D, F, I, Q,
/// U nor V, the second not O, and not BG, GB, KN, NK, NT, TN or ZZ; six digits; the
/// suffix A, B, C or D.
pub(crate) fn uk_nino(m: &[u8]) -> bool {
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
pub(crate) fn uk_outward(o: &[u8]) -> bool {
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
pub(crate) fn uk_address(m: &[u8]) -> bool {
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
pub(crate) fn de_steuer_id(m: &[u8]) -> bool {
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
pub(crate) fn de_steuernummer(m: &[u8]) -> bool {
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
pub(crate) fn icao(chars: &[u8]) -> Option<u8> {
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
pub(crate) fn de_ausweis(m: &[u8]) -> bool {
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
pub(crate) fn de_rvnr(m: &[u8]) -> bool {
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
pub(crate) fn de_kvnr(m: &[u8]) -> bool {
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
pub(crate) const DNI_LETTERS: &[u8; 23] = b"TRWAGMYFPDXBNJZSQVHLCKE";

/// DNI / NIF of a person: eight digits and the letter of the number mod 23.
pub(crate) fn es_dni(m: &[u8]) -> bool {
    let Some(c) = chars::<9>(m) else { return false };
    let [.., letter] = c;
    let Some(d) = values::<8>(c.get(..8).unwrap_or_default()) else { return false };
    let n = number(&d);
    n != 0 && DNI_LETTERS.get((n % 23) as usize) == Some(&letter)
}

/// NIE (foreigner's number): X, Y or Z (read as 0, 1, 2), seven digits and the DNI
/// letter of the eight-digit number.
pub(crate) fn es_nie(m: &[u8]) -> bool {
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
pub(crate) const CF_ODD: [u8; 26] =
    [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23];

/// A digit of a codice fiscale, written as a digit or (omocodia) as one of L M N P Q R
/// S T U V.
pub(crate) fn cf_digit(b: u8) -> Option<u32> {
    if b.is_ascii_digit() {
        return Some(u32::from(b - b'0'));
    }
    b"LMNPQRSTUV".iter().position(|&x| x == b).map(|p| p as u32)
}

/// Codice fiscale: surname and name letters, year, month letter, day (41–71 for
/// women), place code, check letter from the odd/even tables mod 26.
pub(crate) fn it_codice_fiscale(m: &[u8]) -> bool {
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
pub(crate) fn it_partita_iva(d: &[u8; 11]) -> bool {
    let office = number(d.get(7..10).unwrap_or_default());
    luhn(d) && !all_same(d) && ((1..=100).contains(&office) || matches!(office, 120 | 121 | 888 | 999))
}

pub(crate) fn it_piva(m: &[u8]) -> bool {
    digits::<11>(m).is_some_and(|d| it_partita_iva(&d))
}

// ---------------------------------------------------------------------------------
// France
// ---------------------------------------------------------------------------------

/// NIR (numéro de sécurité sociale): sex, year, month, department (2A/2B in Corsica,
/// read as 19 and 18 for the key), commune, order, and the key 97 − (number mod 97).
pub(crate) fn fr_nir(m: &[u8]) -> bool {
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
pub(crate) fn fr_siren(m: &[u8]) -> bool {
    digits::<9>(m).is_some_and(|d| luhn(&d) && !all_same(&d))
}

/// SIRET: SIREN and a five-digit establishment number, Luhn over all fourteen; La
/// Poste's establishments (SIREN 356 000 000) have a digit sum divisible by 5 instead.
pub(crate) fn fr_siret(m: &[u8]) -> bool {
    let Some(d) = digits::<14>(m) else { return false };
    let la_poste = d.starts_with(&[3, 5, 6, 0, 0, 0, 0, 0, 0]) && d.iter().map(|&x| u32::from(x)).sum::<u32>() % 5 == 0;
    (luhn(&d) || la_poste) && !all_same(&d)
}

// ---------------------------------------------------------------------------------
// Benelux, Poland
// ---------------------------------------------------------------------------------

/// The "elfproef": 9·d₁ + 8·d₂ + … + 2·d₈ − d₉ ≡ 0 (mod 11).
pub(crate) fn elfproef(d: &[u8; 9]) -> bool {
    let [.., last] = *d;
    weighted(d, &[9, 8, 7, 6, 5, 4, 3, 2]) % 11 == u32::from(last) && !all_same(d)
}

/// BSN (burgerservicenummer): nine digits passing the elfproef.
pub(crate) fn nl_bsn(m: &[u8]) -> bool {
    digits::<9>(m).is_some_and(|d| elfproef(&d))
}

/// Belgian national register number: YYMMDD (month + 20 or + 40 for a bis number, 00
/// when unknown), a three-digit counter, and 97 − (the nine digits mod 97); for births
/// from 2000 a 2 is put before the nine digits.
pub(crate) fn be_nrn(m: &[u8]) -> bool {
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
pub(crate) fn pl_pesel(m: &[u8]) -> bool {
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
pub(crate) fn pl_nip_digits(d: &[u8; 10]) -> bool {
    let [.., check] = *d;
    let sum = weighted(d, &[6, 5, 7, 2, 3, 4, 5, 6, 7]) % 11;
    sum != 10 && sum == u32::from(check) && !all_same(d)
}

pub(crate) fn pl_nip(m: &[u8]) -> bool {
    digits::<10>(m).is_some_and(|d| pl_nip_digits(&d))
}

// ---------------------------------------------------------------------------------
// Nordic countries
// ---------------------------------------------------------------------------------

/// Personnummer / samordningsnummer: YYMMDD (day + 60 for a coordination number),
/// a three-digit serial and a Luhn digit over those ten; the twelve-digit form puts
/// the century first.
pub(crate) fn se_personnummer(m: &[u8]) -> bool {
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
pub(crate) fn se_orgnr(m: &[u8]) -> bool {
    digits::<10>(m).is_some_and(|d| luhn(&d) && d.get(2).is_some_and(|&x| x >= 2) && !all_same(&d))
}

/// HETU check characters, indexed by the nine-digit number mod 31.
pub(crate) const HETU_CHECK: &[u8; 31] = b"0123456789ABCDEFHJKLMNPRSTUVWXY";

/// Henkilötunnus: DDMMYY, the century sign (+ 1800s; - Y X W V U 1900s; A–F 2000s),
/// the individual number 002–999, and the check character of DDMMYYZZZ mod 31.
pub(crate) fn fi_hetu(m: &[u8]) -> bool {
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
pub(crate) fn dk_cpr(m: &[u8]) -> bool {
    let Some(d) = digits::<10>(m) else { return false };
    let [d1, d2, m1, m2, y1, y2, ..] = d;
    date_ok(two(d1, d2), two(m1, m2), None, two(y1, y2)) && !all_same(d.get(6..).unwrap_or_default())
}

/// Fødselsnummer / D-nummer: DDMMYY (day + 40 for a D-number, month + 40 for an
/// H-number), a three-digit individual number and two modulus-11 check digits.
pub(crate) fn no_fnr(m: &[u8]) -> bool {
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
pub(crate) fn ch_ahv(m: &[u8]) -> bool {
    let Some(d) = digits::<13>(m) else { return false };
    let [.., check] = d;
    let sum: u32 = d.iter().take(12).enumerate().map(|(i, &x)| u32::from(x) * if i % 2 == 0 { 1 } else { 3 }).sum();
    d.starts_with(&[7, 5, 6]) && (10 - sum % 10) % 10 == u32::from(check)
}

/// The modulus-11 check of a Portuguese NIF / NIPC (weights 9 to 2; a remainder of 0
/// or 1 gives 0).
pub(crate) fn pt_check(d: &[u8; 9]) -> bool {
    let [.., check] = *d;
    let r = weighted(d, &[9, 8, 7, 6, 5, 4, 3, 2]) % 11;
    let c = if r < 2 { 0 } else { 11 - r };
    c == u32::from(check) && !all_same(d)
}

/// NIF / NIPC: nine digits, the first 1–3 (persons), 45 (non-residents), 5 (companies),
/// 6 (public bodies), 7, 8 or 9; modulus-11 check digit.
pub(crate) fn pt_nif(m: &[u8]) -> bool {
    let Some(d) = digits::<9>(m) else { return false };
    let [a, b, ..] = d;
    let lead = matches!(a, 1..=3 | 5..=9) || (a == 4 && b == 5);
    lead && pt_check(&d)
}

/// The check letter of an Irish PPSN or VAT number: weights 8 to 2 over seven digits,
/// plus 9 × the second letter's place (A = 1 … I = 9, W = 0), mod 23 into W A B … V.
pub(crate) fn ie_check(d: &[u8; 7], second: Option<u8>) -> Option<u8> {
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
pub(crate) fn ie_ppsn(m: &[u8]) -> bool {
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
pub(crate) fn at_svnr(m: &[u8]) -> bool {
    let Some(d) = digits::<10>(m) else { return false };
    let [s1, s2, s3, check, d1, d2, m1, m2, y1, y2] = d;
    let sum = weighted(&[s1, s2, s3, d1, d2, m1, m2, y1, y2], &[3, 7, 9, 5, 8, 4, 2, 1, 6]) % 11;
    s1 != 0 && sum == u32::from(check) && (1..=31).contains(&two(d1, d2)) && (1..=12).contains(&two(m1, m2))
}

/// T.C. Kimlik No: eleven digits, the first not 0; the tenth is (7 × the sum of the
/// odd places − the sum of the even places) mod 10, the eleventh the sum of the first
/// ten mod 10.
pub(crate) fn tr_tckn(m: &[u8]) -> bool {
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
pub(crate) fn body<const N: usize>(b: &[u8]) -> Option<[u8; N]> {
    values::<N>(b)
}

/// ES: a DNI or NIE (persons), K/L/M + seven digits + letter, or a CIF: the entity
/// letter, seven digits and a control digit or letter (J A B … I).
pub(crate) fn es_vat(b: &[u8]) -> bool {
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
pub(crate) fn ie_vat(b: &[u8]) -> bool {
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
pub(crate) fn nl_vat(b: &[u8]) -> bool {
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
pub(crate) fn ro_vat(b: &[u8]) -> bool {
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
pub(crate) fn gb_vat(b: &[u8]) -> bool {
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
pub(crate) fn eu_vat(m: &[u8]) -> bool {
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
pub(crate) fn es_nss(m: &[u8]) -> bool {
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
pub(crate) fn es_cif(m: &[u8]) -> bool {
    let Some(c) = chars::<9>(m) else { return false };
    c.first().is_some_and(|f| b"ABCDEFGHJNPQRSUVW".contains(f)) && es_vat(&c)
}

/// NIF of a person: a DNI, an NIE, or a K/L/M number, with the DNI letter.
pub(crate) fn es_nif(m: &[u8]) -> bool {
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
pub(crate) fn fr_spi(m: &[u8]) -> bool {
    let Some(d) = digits::<13>(m) else { return false };
    let head = number(d.get(..10).unwrap_or_default());
    d.first().is_some_and(|&f| f <= 3) && head % 511 == number(d.get(10..).unwrap_or_default()) && !all_same(&d)
}

/// Tessera sanitaria (TS-CNS): twenty digits in the ISO/IEC 7812 layout, 80 (health)
/// and 380 (Italy) first, a Luhn check digit last.
pub(crate) fn it_tessera(m: &[u8]) -> bool {
    digits::<20>(m).is_some_and(|d| d.starts_with(&[8, 0, 3, 8, 0]) && luhn(&d))
}

/// A registration number found after its name: letters and digits, not all one digit
/// and not all zeros.
pub(crate) fn registered_number(m: &[u8]) -> bool {
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
pub(crate) fn pl_dowod(m: &[u8]) -> bool {
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
pub(crate) fn pl_regon(m: &[u8]) -> bool {
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
pub(crate) fn tr_vkn(m: &[u8]) -> bool {
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
pub(crate) fn tr_company(m: &[u8]) -> bool {
    let n = m.iter().filter(|b| b.is_ascii_digit()).count();
    ((5..=7).contains(&n) || (n == 16 && m.first() == Some(&b'0'))) && registered_number(m)
}

/// A Companies House number: eight digits, or two letters of a register other than
/// England and Wales' (SC Scotland, NI Northern Ireland, OC LLPs, …) and six digits.
pub(crate) fn uk_company(m: &[u8]) -> bool {
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
