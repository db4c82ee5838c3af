//! Postal addresses of twelve locales (US, UK, India, Germany, France, Spain, Italy,
//! the Netherlands, Brazil, Poland, Sweden, Turkey), read by a hand-written grammar
//! rather than one giant regex.
//!
//! Every address has a house number. The gate ([`windows`]) visits each short run of
//! digits and asks whether a street is written around it, in one of the two orders the
//! locales use:
//!
//! - the number after the street: `Hauptstraße 5`, `Kerkstraat 12-2`, `Kungsgatan 40`,
//!   `Calle Mayor, 12`, `Via Roma 10`, `Rua Augusta, 982`, `ul. Kwiatowa 39/3`, `Moda
//!   Cad. No: 12`: a compound whose last part is a street word (`-straße`, `-straat`,
//!   `-gatan`, `-vägen`, …), a name followed by a street word (`Berliner Str.`,
//!   `Atatürk Caddesi`), or a street word followed by a name (`Calle`, `Via`, `Rua`,
//!   `ul.`);
//! - the number before the street: `12 rue de la Paix`, `221B Baker Street`, `45, MG
//!   Road`: a street word followed by a name (French), or a name followed by a street
//!   word (English, Indian).
//!
//! That street core then grows to the right over units and floors (`Apt 4B`, `3. OG`,
//! `3º B`, `int. 5`, `apto 97`, `m. 5`, `lgh 1102`, `D: 6`), a postcode in its national
//! format with its city (`10115 Berlin`, `D-80331 München`, `1017 AB Amsterdam`,
//! `00-950 Warszawa`, `114 55 Stockholm`, `London SW1A 2AA`, `Mumbai - 400053`,
//! `Springfield, IL 62704`, `01310-100`), districts, states and countries; and to the
//! left over a flat or house prefix (`Flat 3,`, `House No.`) and a Turkish
//! neighbourhood (`Caferağa Mah.`). The whole address is one span.
//!
//! A number beside capitalised words without a street word (`Unter den Linden 77`,
//! `Sector 21`) is an address only when a postcode with its city follows, or an
//! address label (`Adresse:`, `Dirección:`, `Ship to:`) precedes it. Street names
//! without a number, places, companies, dates, prices and versions are never one.

mod words;

use crate::engine::text::{Mark, Text};
use crate::engine::wordset::{WordMap, WordSet};
use crate::finders::names::STOP_WORDS;
use crate::rule::push_window;
use words::*;

/// The longest distance the grammar reads to the right of a street's core.
const RIGHT_REACH: usize = 200;

/// The most bytes before a house number that the street and its prefixes may take.
const LEFT_REACH: usize = 140;

fn byte(h: &[u8], i: usize) -> u8 {
    h.get(i).copied().unwrap_or(0)
}

fn is_letter(b: u8) -> bool {
    b.is_ascii_alphabetic() || b >= 0x80
}

/// A letter, digit or any byte of a multi-byte character.
fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b >= 0x80
}

/// Whether the character at `i` is an upper-case letter.
fn is_cap(h: &[u8], i: usize) -> bool {
    let b = byte(h, i);
    if b.is_ascii() {
        return b.is_ascii_uppercase();
    }
    let len = match b {
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        _ => return false,
    };
    h.get(i..i + len)
        .and_then(|c| std::str::from_utf8(c).ok())
        .and_then(|s| s.chars().next())
        .is_some_and(char::is_uppercase)
}

/// The end of the word of letters that begins at `i` (inner `-` and `'` joining
/// letters belong to it); `None` unless a letter is at `i` and the word is not glued
/// to a digit.
fn word(h: &[u8], i: usize) -> Option<usize> {
    if !is_letter(byte(h, i)) || (i > 0 && byte(h, i - 1).is_ascii_digit()) {
        return None;
    }
    let mut j = i;
    loop {
        while is_letter(byte(h, j)) {
            j += 1;
        }
        if matches!(byte(h, j), b'-' | b'\'') && is_letter(byte(h, j + 1)) {
            j += 1;
            continue;
        }
        break;
    }
    (!byte(h, j).is_ascii_digit()).then_some(j)
}

/// The start of the word of letters that ends at `end`.
fn word_back(h: &[u8], end: usize) -> Option<usize> {
    let mut i = end;
    loop {
        while i > 0 && is_letter(byte(h, i - 1)) {
            i -= 1;
        }
        if i >= 2 && matches!(byte(h, i - 1), b'-' | b'\'') && is_letter(byte(h, i - 2)) && i < end {
            i -= 1;
            continue;
        }
        break;
    }
    (i < end && !(i > 0 && byte(h, i - 1).is_ascii_digit()) && !byte(h, end).is_ascii_digit()).then_some(i)
}

/// What may follow a listed word: anything (a dot is then taken with it), or a
/// required `.` or `:` (an entry written `al.`, `d:`).
const ANY: u8 = 1;
const DOT: u8 = 2;
const COLON: u8 = 4;

/// The word lists as maps from each word to what may follow it, built once.
struct Lists {
    before_name: WordMap<u8>,
    after_name: WordMap<u8>,
    number_first: WordMap<u8>,
    street_adjectives: WordMap<u8>,
    units: WordMap<u8>,
    floors: WordMap<u8>,
    labels: WordMap<u8>,
    number_marks: WordMap<u8>,
    after_address: WordMap<u8>,
    particles: WordMap<u8>,
    city_particles: WordMap<u8>,
    not_streets: WordMap<u8>,
}

fn map(list: &[&str]) -> WordMap<u8> {
    let entries = list.iter().map(|e| match (e.strip_suffix('.'), e.strip_suffix(':')) {
        (Some(w), _) => (w, DOT),
        (_, Some(w)) => (w, COLON),
        _ => (*e, ANY),
    });
    WordMap::from_entries(entries, |a, b| a | b)
}

fn lists() -> &'static Lists {
    static LISTS: std::sync::OnceLock<Lists> = std::sync::OnceLock::new();
    LISTS.get_or_init(|| Lists {
        before_name: map(BEFORE_NAME),
        after_name: map(AFTER_NAME),
        number_first: map(NUMBER_FIRST),
        street_adjectives: map(STREET_ADJECTIVES),
        units: map(UNITS),
        floors: map(FLOORS),
        labels: map(LABELS),
        number_marks: map(NUMBER_MARKS),
        after_address: map(AFTER_ADDRESS),
        particles: map(PARTICLES),
        city_particles: map(CITY_PARTICLES),
        not_streets: map(NOT_STREETS),
    })
}

/// The word `h[s..e]` as an entry of `list`: the end of the match, with a dot or colon
/// after the word when the entry wants it (or the word is an abbreviation followed by
/// a dot).
fn listed(h: &[u8], s: usize, e: usize, list: &WordMap<u8>) -> Option<usize> {
    let flags = list.get(h.get(s..e)?)?;
    let follows = byte(h, e);
    if (flags & DOT != 0 && follows == b'.') || (flags & COLON != 0 && follows == b':') {
        return Some(e + 1);
    }
    (flags & ANY != 0).then_some(if follows == b'.' { e + 1 } else { e })
}

fn in_list(w: &[u8], list: &WordMap<u8>) -> bool {
    list.get(w).is_some()
}

fn in_small(w: &[u8], list: &[&str]) -> bool {
    list.iter().any(|entry| w.eq_ignore_ascii_case(entry.as_bytes()))
}

/// [`SUFFIXES`] as a map from each stem (the suffix without its dot) to whether a dot
/// must follow it, and the stems' lengths (bit `n`: a stem of `n` bytes), built once.
fn suffixes() -> &'static (WordMap<bool>, u64) {
    static SUFFIX_MAP: std::sync::OnceLock<(WordMap<bool>, u64)> = std::sync::OnceLock::new();
    SUFFIX_MAP.get_or_init(|| {
        let stems = SUFFIXES.iter().map(|suffix| match suffix.strip_suffix('.') {
            Some(stem) => (stem, true),
            None => (*suffix, false),
        });
        let lengths = SUFFIXES.iter().fold(0u64, |bits, suffix| bits | 1 << suffix.trim_end_matches('.').len());
        (WordMap::from_entries(stems, |a, b| a | b), lengths)
    })
}

/// Whether the word `h[s..e]` ends in one of the one-word street suffixes and has at
/// least two letters before it: the end of the street, with its dot (`Hauptstr.`).
/// Its last bytes are looked up once for each length a stem has (the person matcher
/// asks this of every capitalised word), not compared with every suffix.
fn compound(h: &[u8], s: usize, e: usize) -> Option<usize> {
    let w = h.get(s..e)?;
    let (stems, lengths) = suffixes();
    let mut rest = *lengths;
    while rest != 0 {
        let n = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let Some(tail) = w.len().checked_sub(n).filter(|&tail| tail >= 2) else { break };
        if let Some(dot) = stems.get(w.get(tail..).unwrap_or_default()) {
            if !dot || byte(h, e) == b'.' {
                return Some(if dot { e + 1 } else { e });
            }
        }
    }
    None
}

/// Whether `h[s..e]` is a street's compound name (`Hauptstraße`, `Coolsingel`,
/// `Drottninggatan`): for the person matcher, which leaves such runs alone.
pub(crate) fn street_compound(h: &[u8], s: usize, e: usize) -> bool {
    compound(h, s, e).is_some()
}

/// Skips spaces and tabs forward.
fn blanks(h: &[u8], mut i: usize) -> usize {
    while matches!(byte(h, i), b' ' | b'\t') {
        i += 1;
    }
    i
}

/// Skips spaces and tabs backward from `i` (exclusive).
fn blanks_back(h: &[u8], mut i: usize) -> usize {
    while i > 0 && matches!(byte(h, i - 1), b' ' | b'\t') {
        i -= 1;
    }
    i
}

/// A house number at `d` (its first digit): `5`, `12B`, `39/3`, `12-14`, `3 bis`,
/// `B-204`; `(start, end)`, or `None` if the digits are part of something else (a
/// time, a decimal, a price, an identifier).
fn house_number(h: &[u8], d: usize) -> Option<(usize, usize)> {
    let mut start = d;
    if d > 0 {
        let before = byte(h, d - 1);
        if before == b'-' && d >= 2 && byte(h, d - 2).is_ascii_uppercase() && !(d >= 3 && is_word(byte(h, d - 3))) {
            start = d - 2;
        } else if before == b':' {
            if d >= 2 && byte(h, d - 2).is_ascii_digit() {
                return None;
            }
        } else if is_word(before) || matches!(before, b'.' | b'-' | b'_' | b'/' | b'+' | b'$' | b'=' | b'@' | b'&') {
            return None;
        }
    }
    let digits = h.get(d..)?.iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 || digits > 5 {
        return None;
    }
    let mut end = d + digits;
    if byte(h, end).is_ascii_alphabetic() && !is_letter(byte(h, end + 1)) && !byte(h, end + 1).is_ascii_digit() {
        end += 1;
    }
    for _ in 0..2 {
        if matches!(byte(h, end), b'/' | b'-') && byte(h, end + 1).is_ascii_digit() {
            let more = h.get(end + 1..)?.iter().take_while(|b| b.is_ascii_digit()).count();
            if more > 4 {
                break;
            }
            end += 1 + more;
            if byte(h, end).is_ascii_alphabetic() && !is_word(byte(h, end + 1)) {
                end += 1;
            }
        }
    }
    // (The bytes after the number are compared only after a look at the first.)
    if matches!(byte(h, end), b' ' | b'b') {
        for extra in [&b" bis"[..], b" ter", b" quater", b"bis"] {
            if h.get(end..end + extra.len()).is_some_and(|t| t == extra) && !is_word(byte(h, end + extra.len())) {
                end += extra.len();
                break;
            }
        }
    }
    let next = byte(h, end);
    let after = byte(h, end + 1);
    // (A multi-byte character after the digits, `€` or `º` among them, is a word's.)
    let glued = is_word(next)
        || (matches!(next, b'.' | b',' | b':' | b'/' | b'-') && after.is_ascii_digit())
        || matches!(next, b'%' | b'$' | b'_' | b'@' | b'=');
    (!glued).then_some((start, end))
}

/// What a street core is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Core {
    /// A street word or a one-word street and a house number.
    Street,
    /// Capitalised words and a house number: an address only with a postcode or label.
    Weak,
}

/// A name word at `s..e`: capitalised, a particle, a roman numeral or `St.`.
fn name_word(h: &[u8], s: usize, e: usize) -> bool {
    let w = h.get(s..e).unwrap_or_default();
    is_cap(h, s) || in_list(w, &lists().particles) || elided(w)
}

/// An elided particle before a capitalised name: `d'Italia`, `dell'Industria`.
fn elided(w: &[u8]) -> bool {
    w.iter().position(|&b| b == b'\'').is_some_and(|at| at <= 5 && w.get(at + 1).is_some_and(u8::is_ascii_uppercase))
}

/// A word that is never part of a name (`names::STOP_WORDS`), from a set built once.
fn is_stop(w: &[u8]) -> bool {
    static SET: std::sync::OnceLock<WordSet> = std::sync::OnceLock::new();
    SET.get_or_init(|| WordSet::new(STOP_WORDS)).contains(w)
}

/// A capitalised word at `s..e` that can be part of a street's or a city's name.
fn proper(h: &[u8], s: usize, e: usize) -> bool {
    let w = h.get(s..e).unwrap_or_default();
    is_cap(h, s) && !is_stop(w) && !in_list(w, &lists().labels)
}

/// The street before a house number that starts at `n`: its start and kind.
fn street_before(h: &[u8], n: usize, floor: usize) -> Option<(usize, Core)> {
    let mut i = blanks_back(h, n);
    if i > 0 && byte(h, i - 1) == b',' {
        i = blanks_back(h, i - 1);
    }
    // A number mark: `Nr.`, `No:`, `nº`.
    let mark_end = i.saturating_sub(usize::from(matches!(byte(h, i.saturating_sub(1)), b'.' | b':')));
    if let Some(ms) = word_back(h, mark_end) {
        if (mark_end < i || i < n) && in_list(h.get(ms..mark_end).unwrap_or_default(), &lists().number_marks) {
            i = blanks_back(h, ms);
            if i > 0 && byte(h, i - 1) == b',' {
                i = blanks_back(h, i - 1);
            }
        }
    }
    if i == n && i > 0 && is_word(byte(h, i - 1)) {
        return None;
    }
    // The street word or name right before, without or with its abbreviation dot.
    let dotted = i > 0 && byte(h, i - 1) == b'.';
    let we = if dotted { i - 1 } else { i };
    let ws = word_back(h, we)?;
    if ws < floor {
        return None;
    }
    if is_cap(h, ws) {
        if let Some(end) = compound(h, ws, we) {
            if end == i || (!dotted && end == we) {
                return Some((adjectives_back(h, ws, floor), Core::Street));
            }
        }
    }
    // A street word after the name (`Baker Street 12`): capitalised.
    if let Some(end) = is_cap(h, ws).then(|| listed(h, ws, we, &lists().after_name)).flatten() {
        if end == i || (!dotted && end == we) {
            let first = names_back(h, blanks_back(h, ws), floor, 4);
            if first < ws {
                return Some((first, Core::Street));
            }
        }
    }
    // A street word before the name: walk back over the name's words.
    let mut s = ws;
    let mut e = we;
    let mut numbers = 0;
    let mut capitals = 0;
    for names in 0..7 {
        let w = h.get(s..e).unwrap_or_default();
        if names > 0 {
            if let Some(end) = listed(h, s, e, &lists().before_name) {
                if end + 1 >= e && capitals > 0 && !(w.eq_ignore_ascii_case(b"al") && et_before(h, s)) {
                    return Some((s, Core::Street));
                }
            }
        }
        if !(name_word(h, s, e) || (names > 0 && numbers == 0 && w.iter().all(u8::is_ascii_digit) && w.len() <= 2)) {
            break;
        }
        if w.iter().all(u8::is_ascii_digit) {
            numbers += 1;
        } else if is_cap(h, s) || elided(w) {
            capitals += 1;
        }
        // The word before: across one space (or a dot and a space).
        let mut p = s;
        if p == 0 || !matches!(byte(h, p - 1), b' ' | b'\t') {
            // `C/ Mayor` and `C/Mayor`.
            if p >= 2
                && byte(h, p - 1) == b'/'
                && matches!(byte(h, p - 2), b'C' | b'c')
                && !is_word(byte(h, p.wrapping_sub(3)))
            {
                return (capitals > 0).then_some((p - 2, Core::Street));
            }
            break;
        }
        p = blanks_back(h, p);
        if p >= 2
            && byte(h, p - 1) == b'/'
            && matches!(byte(h, p - 2), b'C' | b'c')
            && !is_word(byte(h, p.wrapping_sub(3)))
        {
            return (capitals > 0).then_some((p - 2, Core::Street));
        }
        let dot = p > 0 && byte(h, p - 1) == b'.';
        let pe = if dot { p - 1 } else { p };
        let prev = word_back(h, pe).or_else(|| digits_back(h, pe));
        let Some(ps) = prev.filter(|&ps| ps >= floor) else { break };
        s = ps;
        e = pe;
    }
    // No street word: capitalised words alone, a weak core.
    let first = names_back(h, we, floor, 4);
    let w = h.get(ws..we).unwrap_or_default();
    (first < we
        && is_cap(h, first)
        && !in_list(w, &lists().not_streets)
        && !in_list(w, &lists().units)
        && !is_stop(w)
        && !in_list(w, &lists().labels)
        && !dotted)
        .then_some((first, Core::Weak))
}

fn digits_back(h: &[u8], end: usize) -> Option<usize> {
    let mut i = end;
    while i > 0 && byte(h, i - 1).is_ascii_digit() {
        i -= 1;
    }
    (i < end && !(i > 0 && is_word(byte(h, i - 1)))).then_some(i)
}

/// `et al.`
fn et_before(h: &[u8], s: usize) -> bool {
    let p = blanks_back(h, s);
    word_back(h, p).is_some_and(|ws| h.get(ws..p).is_some_and(|w| w.eq_ignore_ascii_case(b"et")))
}

/// The first of up to `max` name words that end at `end` (the last one included), or
/// `end` itself if there is none; the first must be capitalised.
fn names_back(h: &[u8], end: usize, floor: usize, max: usize) -> usize {
    let mut first = end;
    let mut e = end;
    for _ in 0..max {
        let Some(s) = word_back(h, e).filter(|&s| s >= floor) else { break };
        let w = h.get(s..e).unwrap_or_default();
        if !(proper(h, s, e) || (first < end && in_list(w, &lists().particles))) {
            break;
        }
        if is_cap(h, s) {
            first = s;
        }
        let mut p = s;
        if p == 0 || !matches!(byte(h, p - 1), b' ' | b'\t') {
            break;
        }
        p = blanks_back(h, p);
        if p > 0 && byte(h, p - 1) == b'.' {
            break;
        }
        e = p;
    }
    first
}

/// A one-word street extended to the left over its adjectives (`Neue Hauptstraße`).
fn adjectives_back(h: &[u8], s: usize, floor: usize) -> usize {
    let p = blanks_back(h, s);
    if p == s {
        return s;
    }
    match word_back(h, p) {
        Some(ws)
            if ws >= floor
                && is_cap(h, ws)
                && in_list(h.get(ws..p).unwrap_or_default(), &lists().street_adjectives) =>
        {
            ws
        }
        _ => s,
    }
}

/// The street after a house number that ends at `n`: its end and kind.
fn street_after(h: &[u8], n: usize) -> Option<(usize, Core)> {
    let mut i = blanks(h, n);
    if byte(h, i) == b',' {
        i = blanks(h, i + 1);
    }
    if i == n {
        return None;
    }
    // An ordinal street: `2nd Cross`, `5th Main`.
    if let Some(oe) = ordinal(h, i) {
        let p = blanks(h, oe);
        if let Some(we) = word(h, p).filter(|_| p == oe + 1) {
            if let Some(te) = listed(h, p, we, &lists().number_first) {
                return Some((te, Core::Street));
            }
        }
    }
    let we = word(h, i)?;
    // A street word, then the name: `rue de la Paix`, `avenue Jean Jaurès`.
    if let Some(te) = listed(h, i, we, &lists().before_name) {
        if let Some(end) = names_forward(h, te, 6) {
            return Some((end, Core::Street));
        }
    }
    // The name, then a street word: `Baker Street`, `MG Road`.
    if !proper(h, i, we) {
        return None;
    }
    let mut s = i;
    let mut e = we;
    let mut last_name = we;
    for count in 0..5 {
        if count > 0 {
            if let Some(te) = listed(h, s, e, &lists().number_first) {
                if is_cap(h, s) {
                    return Some((directional(h, te), Core::Street));
                }
            }
            if !name_word(h, s, e) {
                break;
            }
            if is_cap(h, s) {
                last_name = e;
            }
        }
        let p = blanks(h, e);
        if p == e || p > e + 1 {
            break;
        }
        let Some(ne) = word(h, p) else { break };
        s = p;
        e = ne;
    }
    Some((last_name, Core::Weak))
}

/// An English ordinal at `p` (`2nd`, `5th`): its end.
fn ordinal(h: &[u8], p: usize) -> Option<usize> {
    let n = h.get(p..)?.iter().take_while(|b| b.is_ascii_digit()).count();
    let suffix = h.get(p + n..p + n + 2)?;
    let ok =
        (1..=3).contains(&n) && [&b"st"[..], b"nd", b"rd", b"th"].contains(&suffix) && !is_word(byte(h, p + n + 2));
    ok.then_some(p + n + 2)
}

/// `NW`, `SE`, … after an American street.
fn directional(h: &[u8], end: usize) -> usize {
    let p = end + 1;
    if byte(h, end) != b' ' {
        return end;
    }
    for d in [&b"NW"[..], b"NE", b"SW", b"SE", b"N", b"S", b"E", b"W"] {
        if h.get(p..p + d.len()) == Some(d) && !is_word(byte(h, p + d.len())) {
            return p + d.len();
        }
    }
    end
}

/// Name words after a street word (`de la Paix`, `Jean Jaurès`): the end of the last
/// capitalised one, if it is there.
fn names_forward(h: &[u8], from: usize, max: usize) -> Option<usize> {
    let mut p = blanks(h, from);
    if p == from && !(byte(h, from.wrapping_sub(1)) == b'/' || byte(h, from) == b'\'') {
        return None;
    }
    let mut last = None;
    for _ in 0..max {
        let Some(e) = word(h, p).or_else(|| roman_or_digits(h, p)) else { break };
        let w = h.get(p..e).unwrap_or_default();
        if is_cap(h, p) && !is_stop(w) {
            last = Some(e);
        } else if !(in_list(w, &lists().particles) || elided(w) || w.iter().all(u8::is_ascii_digit)) {
            break;
        }
        let q = blanks(h, e);
        if q == e || q > e + 1 {
            break;
        }
        p = q;
    }
    last
}

/// A number of one or two digits used as a name (`25 de Março`).
fn roman_or_digits(h: &[u8], p: usize) -> Option<usize> {
    let n = h.get(p..)?.iter().take_while(|b| b.is_ascii_digit()).count();
    (n > 0 && n <= 2 && byte(h, p + n) == b' ' && !is_word(byte(h, p.wrapping_sub(1)))).then_some(p + n)
}

/// A separator between two parts of an address: `, `, ` - `, a line break; where the
/// next part begins, and whether a line break was crossed.
fn separator(h: &[u8], at: usize) -> Option<(usize, bool)> {
    let mut i = blanks(h, at);
    let mut line = false;
    match byte(h, i) {
        b',' | b';' => i = blanks(h, i + 1),
        b'-' | b'/' if byte(h, i + 1) == b' ' => i = blanks(h, i + 1),
        0xE2 if h.get(i..i + 3) == Some("–".as_bytes()) => i = blanks(h, i + 3),
        _ => {}
    }
    if byte(h, i) == b'\r' {
        i += 1;
    }
    if byte(h, i) == b'\n' {
        line = true;
        i = blanks(h, i + 1);
    }
    if matches!(byte(h, i), b',' | b';' | b'\n') {
        return None;
    }
    (i > at && i < h.len()).then_some((i, line))
}

/// A unit or floor at `p`: `Apt 4B`, `Whg. 12`, `3. OG`, `3º B`, `2 tr`, `D: 6`.
fn unit(h: &[u8], p: usize) -> Option<usize> {
    if let Some(we) = word(h, p) {
        // `Road No. 14`, `Street No. 3` (Indian layouts).
        let numbered = in_small(h.get(p..we).unwrap_or_default(), &["road", "street", "lane", "gali"])
            && matches!(h.get(we..we + 5), Some(b" No. " | b" no. "));
        let end = if numbered { we + 4 } else { listed(h, p, we, &lists().units)? };
        let mut v = blanks(h, end);
        if byte(h, v) == b':' || byte(h, v) == b'#' {
            v = blanks(h, v + 1);
        }
        if matches!(h.get(v..v + 3), Some(b"No." | b"no.")) {
            v = blanks(h, v + 3);
        }
        return value(h, v);
    }
    if byte(h, p) == b'#' {
        return value(h, blanks(h, p + 1));
    }
    // Value first: `3. OG`, `2 tr`, `3e étage`, `3º B`, `2º izda.`
    let n = h.get(p..)?.iter().take_while(|b| b.is_ascii_digit()).count();
    if n == 0 || n > 3 {
        return None;
    }
    let mut q = p + n;
    for mark in ["º", "ª", ".", "ème", "er", "e", "°", "st", "nd", "rd", "th"] {
        if h.get(q..q + mark.len()) == Some(mark.as_bytes()) {
            q += mark.len();
            break;
        }
    }
    let ordinal = q > p + n;
    let r = blanks(h, q);
    if let Some(we) = word(h, r) {
        if let Some(end) = listed(h, r, we, &lists().floors) {
            return Some(end);
        }
        if ordinal && we == r + 1 && byte(h, r).is_ascii_uppercase() {
            return Some(we);
        }
    }
    (ordinal && h.get(q - 2..q) == Some("º".as_bytes()) || h.get(q.wrapping_sub(2)..q) == Some("ª".as_bytes()))
        .then_some(q)
}

/// A unit's value: `4B`, `12`, `B`, `2-1`, `II`.
fn value(h: &[u8], v: usize) -> Option<usize> {
    let n = h.get(v..)?.iter().take_while(|&&b| b.is_ascii_alphanumeric() || b == b'-' || b == b'/').count();
    let w = h.get(v..v + n)?;
    let ok = n > 0
        && n <= 6
        && (w.iter().any(u8::is_ascii_digit) || (n <= 3 && w.iter().all(u8::is_ascii_uppercase)))
        && !is_word(byte(h, v + n));
    ok.then_some(v + n)
}

/// A city at `p`: up to four capitalised words with particles, a `/` between two
/// (`Kadıköy/İstanbul`), a `Cedex`, a province (`(RM)`, ` RM`).
fn city(h: &[u8], p: usize) -> Option<usize> {
    let mut e0 = word(h, p)?;
    if e0 - p <= 2 && byte(h, e0) == b'.' && byte(h, e0 + 1) == b' ' && is_cap(h, e0 + 2) {
        e0 = word(h, e0 + 2)?;
    }
    if !proper(h, p, e0) {
        return None;
    }
    let mut end = e0;
    let mut words = 1;
    while words < 5 {
        if byte(h, end) == b'/' && is_cap(h, end + 1) {
            if let Some(e) = word(h, end + 1) {
                end = e;
                words += 1;
                continue;
            }
        }
        if byte(h, end) != b' ' {
            break;
        }
        let q = end + 1;
        if byte(h, q) == b'('
            && byte(h, q + 1).is_ascii_uppercase()
            && byte(h, q + 2).is_ascii_uppercase()
            && byte(h, q + 3) == b')'
        {
            end = q + 4;
            break;
        }
        let Some(e) = word(h, q) else { break };
        let w = h.get(q..e).unwrap_or_default();
        // A state and its postcode end the city: `Springfield IL 62704`, `Sydney NSW
        // 2000`.
        if state_zip(h, q).or_else(|| au_state_postcode(h, q)).or_else(|| ca_postcode(h, q)).is_some() {
            break;
        }
        if proper(h, q, e) {
            end = e;
        } else if in_list(w, &lists().city_particles)
            && word(h, e + 1).is_some_and(|_| byte(h, e) == b' ' && is_cap(h, e + 1))
        {
            end = word(h, e + 1).unwrap_or(e);
            words += 1;
        } else {
            break;
        }
        words += 1;
    }
    // `Paris Cedex 08`.
    if byte(h, end) == b' ' {
        let n = h.get(end + 1..).unwrap_or_default().iter().take_while(|b| b.is_ascii_digit()).count();
        if n > 0 && n <= 2 && h.get(end.saturating_sub(5)..end).is_some_and(|w| w.eq_ignore_ascii_case(b"cedex")) {
            end += 1 + n;
        }
    }
    Some(end)
}

fn digits_at(h: &[u8], p: usize, n: usize) -> bool {
    (p..p + n).all(|i| byte(h, i).is_ascii_digit())
}

fn upper_at(h: &[u8], p: usize, n: usize) -> bool {
    (p..p + n).all(|i| byte(h, i).is_ascii_uppercase())
}

/// A continental postcode at `p` followed by its city: `10115 Berlin`, `D-80331
/// München`, `1017 AB Amsterdam`, `00-950 Warszawa`, `114 55 Stockholm`, `8001
/// Zürich`; the end of the city.
fn postcode_city(h: &[u8], p: usize) -> Option<usize> {
    let mut p = p;
    // A country prefix: `D-`, `NL-`, `SE-`.
    let caps = h.get(p..)?.iter().take_while(|b| b.is_ascii_uppercase()).count();
    if (1..=2).contains(&caps) && byte(h, p + caps) == b'-' && byte(h, p + caps + 1).is_ascii_digit() {
        p += caps + 1;
    }
    let n = h.get(p..)?.iter().take_while(|b| b.is_ascii_digit()).count();
    let end = match n {
        5 => p + 5,
        4 if byte(h, p + 4) == b' ' && upper_at(h, p + 5, 2) && !is_word(byte(h, p + 7)) => p + 7,
        4 if upper_at(h, p + 4, 2) && !is_word(byte(h, p + 6)) => p + 6,
        4 => p + 4,
        2 if byte(h, p + 2) == b'-' && digits_at(h, p + 3, 3) && !is_word(byte(h, p + 6)) => p + 6,
        3 if byte(h, p + 3) == b' ' && digits_at(h, p + 4, 2) && !is_word(byte(h, p + 6)) => p + 6,
        _ => return None,
    };
    if is_word(byte(h, end)) || byte(h, end) != b' ' {
        return None;
    }
    city(h, end + 1)
}

/// A postcode that stands without a city after it: a British one (`SW1A 2AA`), an
/// American state and ZIP (`IL 62704`), a Brazilian CEP (`01310-100`, `CEP
/// 01310-100`), an Indian PIN after `PIN`.
fn postcode_alone(h: &[u8], p: usize) -> Option<usize> {
    // `CEP 01310-100`, `PIN: 560001`, `PIN Code - 560001`.
    let mut q = p;
    for label in [&b"CEP"[..], b"PIN Code", b"PIN", b"Pin Code", b"Pincode", b"Pin"] {
        if h.get(p..p + label.len()) == Some(label) && !is_word(byte(h, p + label.len())) {
            q = blanks(h, p + label.len());
            if matches!(byte(h, q), b':' | b'-') {
                q = blanks(h, q + 1);
            }
            break;
        }
    }
    if digits_at(h, q, 5) && byte(h, q + 5) == b'-' && digits_at(h, q + 8 - 2, 3) && !is_word(byte(h, q + 9)) {
        return Some(q + 9);
    }
    if q > p && digits_at(h, q, 8) && !is_word(byte(h, q + 8)) {
        return Some(q + 8);
    }
    if q > p && digits_at(h, q, 6) && !is_word(byte(h, q + 6)) {
        return Some(q + 6);
    }
    if let Some(end) = pin(h, q).filter(|_| q > p) {
        return Some(end);
    }
    uk_postcode(h, p).or_else(|| state_zip(h, p)).or_else(|| au_state_postcode(h, p)).or_else(|| ca_postcode(h, p))
}

/// A Canadian postal code (Canada Post): `A9A 9A9`, never D, F, I, O, Q or U, never W
/// or Z first; with its province's code before it if there is one (`ON M5V 2T6`).
fn ca_postcode(h: &[u8], p: usize) -> Option<usize> {
    const PROVINCES: [&[u8]; 13] =
        [b"AB", b"BC", b"MB", b"NB", b"NL", b"NS", b"NT", b"NU", b"ON", b"PE", b"QC", b"SK", b"YT"];
    let p = match PROVINCES.iter().any(|c| h.get(p..p + 2) == Some(c)) && matches!(byte(h, p + 2), b' ' | b',') {
        true => blanks(h, p + 2 + usize::from(byte(h, p + 2) == b',')),
        false => p,
    };
    let letter = |i: usize| byte(h, i).is_ascii_uppercase() && !b"DFIOQU".contains(&byte(h, i));
    let digit = |i: usize| byte(h, i).is_ascii_digit();
    let gap = usize::from(matches!(byte(h, p + 3), b' ' | b'-'));
    let q = p + 3 + gap;
    let ok = letter(p)
        && !b"WZ".contains(&byte(h, p))
        && digit(p + 1)
        && letter(p + 2)
        && digit(q)
        && letter(q + 1)
        && digit(q + 2)
        && !is_word(byte(h, q + 3));
    ok.then_some(q + 3)
}

/// An Australian state or territory and its four-digit postcode (Australia Post):
/// `NSW 2000`, `VIC 3000`, `ACT 2600`.
fn au_state_postcode(h: &[u8], p: usize) -> Option<usize> {
    const STATES: [&[u8]; 8] = [b"NSW", b"VIC", b"QLD", b"SA", b"WA", b"TAS", b"ACT", b"NT"];
    let state = STATES.iter().find(|st| h.get(p..p + st.len()) == Some(st))?;
    let q = p + state.len();
    (byte(h, q) == b' ' && digits_at(h, q + 1, 4) && !is_word(byte(h, q + 5))).then_some(q + 5)
}

/// `SW1A 2AA`, `M20 2RT`, `LS6 2AB`.
fn uk_postcode(h: &[u8], p: usize) -> Option<usize> {
    let letters = h.get(p..)?.iter().take_while(|b| b.is_ascii_uppercase()).count();
    if !(1..=2).contains(&letters) || !byte(h, p + letters).is_ascii_digit() {
        return None;
    }
    let mut i = p + letters + 1;
    if byte(h, i).is_ascii_digit() || byte(h, i).is_ascii_uppercase() {
        i += 1;
    }
    if byte(h, i) == b' ' {
        i += 1;
    }
    let ok = byte(h, i).is_ascii_digit() && upper_at(h, i + 1, 2) && !is_word(byte(h, i + 3));
    ok.then_some(i + 3)
}

/// `IL 62704`, `NY 10118-0110`.
fn state_zip(h: &[u8], p: usize) -> Option<usize> {
    if !(upper_at(h, p, 2) && byte(h, p + 2) == b' ' && digits_at(h, p + 3, 5)) {
        return None;
    }
    let mut end = p + 8;
    if byte(h, end) == b'-' && digits_at(h, end + 1, 4) {
        end += 5;
    }
    (!is_word(byte(h, end))).then_some(end)
}

/// An Indian PIN: `560001` or `560 001`.
fn pin(h: &[u8], p: usize) -> Option<usize> {
    if !matches!(byte(h, p), b'1'..=b'9') {
        return None;
    }
    if digits_at(h, p, 6) && !is_word(byte(h, p + 6)) {
        return Some(p + 6);
    }
    (digits_at(h, p, 3) && byte(h, p + 3) == b' ' && digits_at(h, p + 4, 3) && !is_word(byte(h, p + 7)))
        .then_some(p + 7)
}

/// A city followed by a postcode that comes after cities: `London SW1A 2AA`,
/// `Springfield, IL 62704`, `Mumbai - 400053`, `Bengaluru 560038`, `São Paulo - SP,
/// 01310-100`.
fn city_postcode(h: &[u8], p: usize) -> Option<usize> {
    let ce = city(h, p)?;
    let (q, line) = separator(h, ce).or_else(|| (byte(h, ce) == b' ').then_some((ce + 1, false)))?;
    if line {
        return None;
    }
    postcode_alone(h, q).or_else(|| pin(h, q))
}

/// Whether the text at `p` ends a sentence or a line (a tentative city may end an
/// address there).
fn terminates(h: &[u8], p: usize) -> bool {
    let q = blanks(h, p);
    let b = byte(h, q);
    q >= h.len()
        || matches!(b, b'.' | b'!' | b'?' | b';' | b')' | b']' | b'"' | b'\'' | b'\n' | b'\r' | b',' | b'<' | b'*')
        || h.get(q..q + 2) == Some("»".as_bytes())
        || h.get(q..q + 3) == Some("”".as_bytes())
}

/// Whether the text after a street core at `p` may follow an address: punctuation, a
/// line break, a capitalised word, a number, a unit, or a preposition.
fn may_follow(h: &[u8], p: usize) -> bool {
    let q = blanks(h, p);
    if terminates(h, p) || byte(h, q).is_ascii_digit() || matches!(byte(h, q), b'-' | b'(' | b'/' | b'#' | b':') {
        return true;
    }
    match word(h, q) {
        Some(e) => {
            is_cap(h, q)
                || in_list(h.get(q..e).unwrap_or_default(), &lists().after_address)
                || listed(h, q, e, &lists().units).is_some()
        }
        None => byte(h, q) >= 0x80,
    }
}

/// The end of an address whose core ends at `e`: units, postcodes, cities, states and
/// countries after it; whether a postcode was among them.
fn extend_right(h: &[u8], e: usize) -> (usize, bool) {
    let limit = (e + RIGHT_REACH).min(h.len());
    let h = h.get(..limit).unwrap_or(h);
    let mut end = e;
    let mut pos = e;
    let mut postcode = false;
    let mut pending = 0;
    let mut pending_line = false;
    for _ in 0..10 {
        let Some((p, line)) = separator(h, pos).or_else(|| (byte(h, pos) == b' ').then_some((pos + 1, false))) else {
            break;
        };
        if let Some(u) = unit(h, p) {
            if pending > 0 {
                break;
            }
            end = u;
            pos = u;
            continue;
        }
        // `Lindenweg 3 in 04109 Leipzig`: the German `in` before a postcode and its city.
        let after_in = || (h.get(p..p + 3) == Some(b"in ")).then(|| postcode_city(h, p + 3)).flatten();
        if let Some(c) =
            postcode_city(h, p).or_else(|| postcode_alone(h, p)).or_else(|| city_postcode(h, p)).or_else(after_in)
        {
            end = c;
            pos = c;
            postcode = true;
            pending = 0;
            pending_line = false;
            continue;
        }
        // A district, city, state or country: kept if a postcode follows, or if it ends
        // the sentence on the address's line.
        let Some(c) = city(h, p) else { break };
        if pending >= 3 {
            break;
        }
        pending += 1;
        pending_line |= line;
        pos = c;
    }
    if pending > 0 && !pending_line && pending <= 2 && terminates(h, pos) {
        end = pos;
    }
    (end, postcode)
}

/// The start of an address whose street begins at `s`: a flat or house before it
/// (`Flat 3, `, `House No. `, `Apt 4, `) and a Turkish neighbourhood (`Caferağa Mah.
/// `).
fn extend_left(h: &[u8], s: usize, floor: usize) -> usize {
    let mut start = s;
    // A number mark right before a leading house number: `House No. 45`, `H.No. 4`.
    if byte(h, s).is_ascii_digit() {
        let q = blanks_back(h, s);
        let mark_end = q.saturating_sub(usize::from(byte(h, q.saturating_sub(1)) == b'.'));
        if let Some(ms) = word_back(h, mark_end).filter(|&ms| ms >= floor) {
            if in_list(h.get(ms..mark_end).unwrap_or_default(), &lists().number_marks) {
                let mut first = ms;
                let r = blanks_back(h, ms);
                let r = if byte(h, r.saturating_sub(1)) == b'.' { r - 1 } else { r };
                if let Some(ws) = word_back(h, r).filter(|&ws| ws >= floor && (r < ms || byte(h, ms - 1) == b'.')) {
                    if in_small(h.get(ws..r).unwrap_or_default(), &["house", "h", "door", "flat", "plot", "shop"]) {
                        first = ws;
                    }
                }
                if is_cap(h, first) {
                    start = first;
                }
            }
        }
    }
    // A unit word right before a leading number: `Flat 12B, Sunrise Apartments`.
    if start == s && byte(h, s).is_ascii_digit() && s > 0 && byte(h, s - 1) == b' ' {
        if let Some(ws) = word_back(h, s - 1).filter(|&ws| ws >= floor && is_cap(h, ws)) {
            if listed(h, ws, s - 1, &lists().units).is_some() {
                start = ws;
            }
        }
    }
    for _ in 0..2 {
        let mut p = blanks_back(h, start);
        if byte(h, p.saturating_sub(1)) == b',' {
            p = blanks_back(h, p - 1);
        }
        if p < floor || p == start {
            break;
        }
        // A unit before the street, the last words before a comma: `Flat 3, `, `3rd
        // Floor, `, `Apt 4B `.
        let mut ws = p;
        let mut unit_start = None;
        for _ in 0..4 {
            let q = blanks_back(h, ws);
            let q = if matches!(byte(h, q.saturating_sub(1)), b'.' | b':' | b'#') { q - 1 } else { q };
            let q = blanks_back(h, q);
            let mut i = q;
            while i > 0 && (is_word(byte(h, i - 1)) || byte(h, i - 1) == b'-') {
                i -= 1;
            }
            if i == q || i < floor {
                break;
            }
            ws = i;
            if unit(h, ws) == Some(p) && (is_cap(h, ws) || byte(h, ws).is_ascii_digit()) {
                unit_start = Some(ws);
                break;
            }
        }
        if let Some(u) = unit_start {
            start = u;
            continue;
        }
        // `Caferağa Mah.`, `Moda Mahallesi`.
        let q = if byte(h, p.saturating_sub(1)) == b'.' { p - 1 } else { p };
        if let Some(ws) = word_back(h, q) {
            let w = h.get(ws..q).unwrap_or_default();
            let mahalle = w.eq_ignore_ascii_case(b"mahallesi")
                || ((w.eq_ignore_ascii_case(b"mah") || w.eq_ignore_ascii_case(b"mh")) && q < p);
            if ws >= floor && mahalle {
                let first = names_back(h, blanks_back(h, ws), floor, 3);
                if first < ws {
                    start = first;
                    continue;
                }
            }
        }
        break;
    }
    start
}

/// Whether an address label ends right before `s` (`Adresse: `, `Ship to:\n`).
fn labelled(h: &[u8], s: usize) -> bool {
    let mut p = blanks_back(h, s);
    if byte(h, p.saturating_sub(1)) == b'\n' {
        p = blanks_back(h, p - 1);
        if byte(h, p.saturating_sub(1)) == b'\r' {
            p -= 1;
        }
    }
    if byte(h, p.saturating_sub(1)) != b':' {
        return false;
    }
    let q = blanks_back(h, p - 1);
    word_back(h, q).is_some_and(|ws| in_list(h.get(ws..q).unwrap_or_default(), &lists().labels))
}

/// Whether a letter stands right before the number `ns..ne` (across blanks, a comma,
/// a dot or the colon of `No:`: `Straße 5`, `Mayor, 12`, `No: 12`, `Str. 5`) or right after it
/// (`12 rue`, `45, MG Road`): every address's house number has one, and most numbers
/// of configuration, code and logs (`"port": 8080,`, `1 1 1`) do not, so the grammar
/// never reads around them.
fn beside_a_word(h: &[u8], ns: usize, ne: usize) -> bool {
    let mut i = blanks_back(h, ns);
    let mark = i >= 3 && matches!(h.get(i - 3..i), Some(b"No:" | b"no:" | b"NO:" | b"Nr:"));
    if matches!(byte(h, i.wrapping_sub(1)), b',' | b'.') || mark {
        i = blanks_back(h, i - 1);
    }
    if i > 0 && is_letter(byte(h, i - 1)) {
        return true;
    }
    let mut j = blanks(h, ne);
    if byte(h, j) == b',' {
        j = blanks(h, j + 1);
    }
    is_letter(byte(h, j))
}

/// Whether the street grammar can find nothing around the number `ns..ne`, by a test
/// cheaper than the grammar: no capital in the reach before it (`may_be_capital`; a
/// street before a number has one, [`street_before`]), and after it a small letter
/// that begins no street word (a street after a number begins with a capital, a
/// street word such as `rue` or an ordinal, [`street_after`]). Most numbers beside a
/// word in chat are in lower-case prose.
fn no_street(h: &[u8], ns: usize, ne: usize, may_be_capital: impl Fn(usize, usize) -> bool) -> bool {
    if may_be_capital(ns.saturating_sub(LEFT_REACH), ns) {
        return false;
    }
    let mut i = blanks(h, ne);
    if byte(h, i) == b',' {
        i = blanks(h, i + 1);
    }
    if !byte(h, i).is_ascii_lowercase() {
        // A capital, an ordinal's digit or another script's letter; anything else
        // begins no street.
        return !(byte(h, i).is_ascii_alphanumeric() || byte(h, i) >= 0x80);
    }
    word(h, i).is_none_or(|we| listed(h, i, we, &lists().before_name).is_none())
}

/// The address around the house number whose first digit is at `d`, if there is one.
/// `may_be_capital(a, b)`: whether `h[a..b]` may hold a capital (true is always right;
/// the window finder answers from the text's masks).
fn address_at(h: &[u8], d: usize, may_be_capital: impl Fn(usize, usize) -> bool) -> Option<(usize, usize)> {
    let (ns, ne) = house_number(h, d)?;
    if !beside_a_word(h, ns, ne) || no_street(h, ns, ne, may_be_capital) {
        return None;
    }
    let floor = ns.saturating_sub(LEFT_REACH);
    let before = street_before(h, ns, floor);
    let after = if matches!(before, Some((_, Core::Street))) { None } else { street_after(h, ne) };
    let (s, e, core) = match (before, after) {
        (_, Some((e, Core::Street))) => (ns, e, Core::Street),
        (Some((s, kind)), _) => (s, ne, kind),
        (None, Some((e, Core::Weak))) => (ns, e, Core::Weak),
        (None, None) => return None,
    };
    // A year in prose is no house number: `in 2019 Oxford Street closed`.
    if s == ns && ne - ns == 4 && matches!(h.get(ns..ns + 2), Some(b"19" | b"20")) {
        let p = blanks_back(h, ns);
        if word_back(h, p).is_some_and(|ws| !is_cap(h, ws)) {
            return None;
        }
    }
    if !may_follow(h, e) {
        return None;
    }
    let (mut end, mut postcode) = extend_right(h, e);
    // Capitalised words after a number that are no street (`8-2-293, Road No. 14, …`):
    // the number alone, if a postcode follows.
    if core == Core::Weak && !postcode && s == ns && e > ne {
        (end, postcode) = extend_right(h, ne);
    }
    let start = extend_left(h, s, floor);
    if core == Core::Weak && !(postcode || labelled(h, start)) {
        return None;
    }
    Some((start, end))
}

/// The leftmost address at or after `from` in `hay`.
pub fn find(hay: &[u8], from: usize) -> Option<(usize, usize)> {
    let mut at = from;
    while let Some(rel) = hay.get(at..).and_then(|t| t.iter().position(u8::is_ascii_digit)) {
        let d = at + rel;
        let run = hay.get(d..).unwrap_or_default().iter().take_while(|b| b.is_ascii_digit()).count();
        if let Some((s, e)) = address_at(hay, d, |_, _| true).filter(|&(s, _)| s >= from) {
            return Some((s, e));
        }
        at = d + run.max(1);
    }
    None
}

/// The digits where a house number may begin, block by block, from the masks: those
/// after a byte [`house_number`] refuses there are left out. A letter or digit or
/// any byte of a multi-byte character (no house number begins inside a word or
/// identifier: `a1b2`, `SW1A`, a hash), `.`, `=`, `@`, `/` and `_` (a version, a
/// setting, a path), a `-` but in `B-204` (a date's or an id's parts), and a `:` after
/// a digit (a time): configuration and logs hold thousands.
struct NumberStarts<'t> {
    digit: &'t [u64],
    alnum: &'t [u64],
    high: &'t [u64],
    dash: &'t [u64],
    caps: &'t [u64],
    /// `.`, `=`, `@`, `/`, then `:`.
    marks: [&'t [u64]; 5],
}

/// What [`NumberStarts`] reads of one block: the masks it shifts, some already joined.
#[derive(Debug, Clone, Copy, Default)]
struct Around {
    /// A letter or digit, or a byte of `0x80` and up (a word's).
    word: u64,
    /// A word's byte or `.`, `=`, `@`, `/`: a number right after one is glued to it.
    glue: u64,
    /// A capital.
    capital: u64,
    digit: u64,
    dash: u64,
    colon: u64,
}

impl<'t> NumberStarts<'t> {
    fn new(t: &'t Text<'_>) -> NumberStarts<'t> {
        NumberStarts {
            digit: t.digit_masks(),
            alnum: t.alnum_masks(),
            high: t.high_masks(),
            dash: t.dash_masks(),
            caps: t.caps_masks(),
            marks: [Mark::Dot, Mark::Equals, Mark::At, Mark::Slash, Mark::Colon].map(|m| t.mark_masks(m)),
        }
    }

    /// The masks of block `block` (all 0 past either end).
    #[inline(always)]
    fn around(&self, block: usize) -> Around {
        let at = |masks: &[u64]| masks.get(block).copied().unwrap_or(0);
        let [dot, equals, at_sign, slash, colon] = self.marks;
        let (digit, word) = (at(self.digit), at(self.alnum) | at(self.high));
        Around {
            word,
            glue: word | at(dot) | at(equals) | at(at_sign) | at(slash),
            capital: at(self.caps) & !digit,
            digit,
            dash: at(self.dash),
            colon: at(colon),
        }
    }

    /// The starts in block `block`.
    #[cfg(test)]
    fn at(&self, block: usize) -> u64 {
        Self::starts(&self.around(block), &self.around(block.wrapping_sub(1)))
    }

    /// The starts in a block, from its masks (`here`) and the block's before.
    #[inline(always)]
    fn starts(here: &Around, before: &Around) -> u64 {
        // The bytes `n` before each (1 to 63).
        let back = |f: fn(&Around) -> u64, n: u32| (f(here) << n) | (f(before) >> (64 - n));
        let glued = back(|a| a.glue, 1);
        // `B-204`: a capital before the `-`, and no letter or digit before the capital.
        let lettered = back(|a| a.capital, 2) & !back(|a| a.word, 3);
        let dashed = back(|a| a.dash, 1) & !lettered;
        let time = back(|a| a.colon, 1) & back(|a| a.digit, 2);
        here.digit & !(glued | dashed | time)
    }
}

/// The gate: a window around each address (and the text the grammar reads past it),
/// found from the digit runs of the text.
pub fn windows(t: &Text<'_>) -> Vec<(usize, usize)> {
    let hay = t.bytes();
    let mut windows = Vec::new();
    let mut at = 0;
    let number_starts = NumberStarts::new(t);
    // The masks of the last block read: the block before the next, most often.
    let mut last: Option<(usize, Around)> = None;
    for block in t.digit_blocks() {
        let here = number_starts.around(block);
        let before = match last {
            Some((b, masks)) if b + 1 == block => masks,
            _ => number_starts.around(block.wrapping_sub(1)),
        };
        last = Some((block, here));
        let mut starts = NumberStarts::starts(&here, &before);
        while starts != 0 {
            let d = block * 64 + starts.trailing_zeros() as usize;
            starts &= starts - 1;
            if d < at || d >= hay.len() {
                continue;
            }
            let run = hay.get(d..).unwrap_or_default().iter().take_while(|b| b.is_ascii_digit()).count();
            if run > 5 {
                continue;
            }
            if let Some((s, e)) = address_at(hay, d, |a, b| t.any_capital(a, b)) {
                push_window(&mut windows, s, (e + RIGHT_REACH + 8).min(hay.len()));
                at = e;
            }
        }
    }
    windows
}

/// [`windows`] as a rule's window finder; it finds nothing without a digit (a house
/// number) and a letter (the word beside it, [`beside_a_word`]).
pub const WINDOWS: crate::rule::WindowFinder = crate::rule::WindowFinder {
    find: windows,
    needs: crate::engine::text::Needs::DIGIT.and(crate::engine::text::Needs::LETTER),
};

/// Chinese and Japanese addresses: `北京市朝阳区望京街道5号院2号楼`, `東京都世田谷区桜丘3丁目13番12号`. A
/// house number (`号`, `番`, `號` right after a digit) with at least two
/// administrative units before it in the same run of characters (`市`, `区`, `都`,
/// `県`, `省`, `路`, `街`, `町`, …); the span begins after the last word that
/// introduces it (`在`, `于`, `は`, …) and ends after the numbers and their units.
const CJK_ANCHORS: &[&str] = &["号", "番", "號"];
const CJK_ADMIN: &[&str] = &["市", "区", "區", "都", "道", "府", "県", "省", "路", "街", "町", "村", "縣"];
const CJK_UNITS: &[&str] =
    &["号", "號", "院", "楼", "樓", "室", "番", "地", "丁", "目", "栋", "棟", "单", "元", "层", "階"];
const CJK_STOPS: &[&str] = &["在", "到", "于", "於", "是", "址", "所", "に", "は", "へ", "で", "を", "の"];

/// A letter of a CJK script (kana or an ideograph), three UTF-8 bytes at `i`.
fn cjk_letter(h: &[u8], i: usize) -> bool {
    match byte(h, i) {
        0xE3 => byte(h, i + 1) >= 0x81,
        0xE4..=0xE9 => true,
        _ => false,
    }
}

fn char_in(h: &[u8], i: usize, list: &[&str]) -> bool {
    list.iter().any(|c| h.get(i..i + c.len()) == Some(c.as_bytes()))
}

/// The CJK address whose house-number unit begins at `m`.
fn cjk_at(h: &[u8], m: usize) -> Option<(usize, usize)> {
    if m == 0 || !byte(h, m - 1).is_ascii_digit() {
        return None;
    }
    let mut start = m;
    let mut admin = 0;
    let mut last_admin: Option<usize> = None;
    while start > 0 && m - start < 72 {
        let b = byte(h, start - 1);
        if b.is_ascii_digit() || b == b'-' {
            start -= 1;
        } else if start >= 3 && cjk_letter(h, start - 3) && !char_in(h, start - 3, CJK_STOPS) {
            start -= 3;
            if char_in(h, start, CJK_ADMIN) && last_admin.is_none_or(|l| h.get(l..l + 3) != h.get(start..start + 3)) {
                admin += 1;
                last_admin = Some(start);
            }
        } else {
            break;
        }
    }
    while byte(h, start).is_ascii_digit() {
        start += 1;
    }
    if admin < 2 {
        return None;
    }
    let mut end = m;
    loop {
        if byte(h, end).is_ascii_digit() || byte(h, end) == b'-' {
            end += 1;
        } else if char_in(h, end, CJK_UNITS) {
            end += 3;
        } else {
            break;
        }
    }
    while end > m && !char_in(h, end.saturating_sub(3), CJK_UNITS) {
        end -= 1;
    }
    Some((start, end))
}

/// The leftmost CJK address at or after `from`.
pub fn find_cjk(hay: &[u8], from: usize) -> Option<(usize, usize)> {
    let mut at = from;
    loop {
        let rest = hay.get(at..)?;
        let m = at + CJK_ANCHORS.iter().filter_map(|a| memchr::memmem::find(rest, a.as_bytes())).min()?;
        if let Some((s, e)) = cjk_at(hay, m).filter(|&(s, _)| s >= from) {
            return Some((s, e));
        }
        at = m + 3;
    }
}

/// The gate of [`find_cjk`]: texts with wide characters, around each address.
pub fn cjk_windows(t: &Text<'_>) -> Vec<(usize, usize)> {
    let mut windows = Vec::new();
    if !t.has_wide() {
        return windows;
    }
    let hay = t.bytes();
    for anchor in CJK_ANCHORS {
        for m in memchr::memmem::find_iter(hay, anchor.as_bytes()) {
            if let Some((s, e)) = cjk_at(hay, m) {
                windows.push((s, (e + 8).min(hay.len())));
            }
        }
    }
    windows.sort_unstable();
    let mut merged = Vec::with_capacity(windows.len());
    for (s, e) in windows {
        push_window(&mut merged, s, e);
    }
    merged
}

/// [`cjk_windows`] as a rule's window finder; it finds nothing without a non-ASCII byte
/// (its units are CJK).
pub const CJK_WINDOWS: crate::rule::WindowFinder =
    crate::rule::WindowFinder { find: cjk_windows, needs: crate::engine::text::Needs::NON_ASCII };

#[cfg(test)]
mod tests;
