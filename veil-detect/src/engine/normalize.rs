//! The view the detectors read: what a reader (a model, a lenient parser) sees in a
//! text, with a map back to the text's own bytes.
//!
//! People and attackers write the same value many ways: `jane@example.com` with a zero-
//! width space or a soft hyphen inside (pasted from Word or a PDF), in full-width forms
//! (`ｊａｎｅ＠ｅｘａｍｐｌｅ．ｃｏｍ`, common in Japanese text), with `﹫`, with JSON
//! escapes (`jane\u0040example.com` inside a string that itself holds JSON), or in
//! Unicode tag characters that render as nothing. A model reads all of them as the
//! value. So the engine scans a normalized *view*:
//!
//! - invisible characters are removed: zero-width space, joiners and non-joiners, word
//!   joiner and invisible operators, soft hyphen, byte-order mark, bidi controls,
//!   variation selectors, Mongolian vowel separator, combining grapheme joiner, Hangul
//!   fillers, tag characters' begin/cancel, and the enclosing keycap mark (so keycap
//!   digits `4️⃣1️⃣1️⃣1️⃣` read as `4111`);
//! - compatibility forms are folded to ASCII: full-width ASCII (U+FF01–FF5E),
//!   ideographic space and full stops, small form variants (`﹫` `﹒` …), Unicode dashes
//!   and minus, the other spaces (no-break, thin, …), tag characters (U+E0020–E007E,
//!   "ASCII smuggling"), mathematical alphanumerics, and decimal digits of other
//!   scripts (Arabic-Indic, Devanagari, Bengali, …);
//! - JSON escapes are decoded (`\u0040`, `\"`, `\n`, surrogate pairs), however many
//!   backslashes precede them, so one more level of encoding hides nothing;
//! - percent-encoding is decoded (`jane%40example.com` in a URL or a form; `%EF%BC%A0`,
//!   a full-width `@` in UTF-8, is then folded too);
//! - HTML character references are decoded (`jane&#64;example.com`, `&#x40;`,
//!   `&commat;`, `&period;`): text pasted from a web page, or written to slip past;
//! - circled, parenthesized, superscript and subscript digits and circled letters
//!   (`①②③`, `⑴`, `¹²³`, `ⓐ`) are folded to ASCII;
//! - look-alike letters (Unicode's confusables whose skeleton is one ASCII letter or
//!   digit: Cyrillic `а е о р с`, Greek `ο ν`, …) read as the ASCII they show, inside a
//!   word that also has an ASCII letter or an `@` (`jоhn@exаmple.com`): a word wholly
//!   in Cyrillic or Greek keeps its letters, for the labels written in it.
//!
//! Each byte of the view knows the raw byte range of the unit it came from (a
//! character, an escape), so a finding maps back to whole raw units: the token
//! replaces the raw span, invisible characters inside it included, and never splits a
//! character or an escape. Text with nothing to change (the common case: ASCII without
//! a backslash, or non-ASCII text none of whose characters fold) costs one pass and no
//! allocation.

use std::borrow::Cow;

use crate::finding::Finding;

/// A text as the detectors see it, and how to get back to the raw bytes.
#[derive(Debug)]
pub struct View<'a> {
    text: Cow<'a, [u8]>,
    /// Invisible characters were removed: the view glued what they separated.
    removed: bool,
    /// For each byte of the view, the raw range of the unit it came from; `None` when
    /// the view is the raw text itself.
    map: Option<Vec<(u32, u32)>>,
}

impl<'a> View<'a> {
    /// The view of `raw`.
    pub fn new(raw: &'a [u8]) -> View<'a> {
        View::build(raw, Invisible::Removed)
    }

    /// The view of `raw` with invisible characters read as `invisible` says instead of
    /// removed. An invisible character inside a value hides it from a word boundary only
    /// in [`View::new`]; one between a word and a value (`ssn\u{200B}123-45-6789`) only
    /// here. The engine scans all three when there was one ([`View::removed`]).
    pub fn with_boundaries(raw: &'a [u8], invisible: Invisible) -> View<'a> {
        View::build(raw, invisible)
    }

    /// Whether invisible characters were removed.
    pub fn removed(&self) -> bool {
        self.removed
    }

    fn build(raw: &'a [u8], invisible: Invisible) -> View<'a> {
        View::units(raw, invisible).fold_look_alikes()
    }

    /// The view of each raw unit, look-alike letters aside.
    fn units(raw: &'a [u8], invisible: Invisible) -> View<'a> {
        let unchanged = |raw| View { text: Cow::Borrowed(raw), removed: false, map: None };
        let Some(first) = first_change(raw) else { return unchanged(raw) };
        // Texts beyond u32 offsets are not scanned whole anyway (the body limit is far
        // below); keep them as they are rather than map them wrongly.
        if u32::try_from(raw.len()).is_err() {
            return unchanged(raw);
        }
        let mut removed = false;
        let mut out = Vec::with_capacity(raw.len());
        let mut map = Vec::with_capacity(raw.len());
        for i in 0..first {
            out.push(raw.get(i).copied().unwrap_or_default());
            map.push((i as u32, i as u32 + 1));
        }
        let mut at = first;
        // The last invisible character removed, until what follows it shows whether it
        // separated a word from a number (then it reads as a space).
        let mut pending: Option<(u32, u32)> = None;
        while at < raw.len() {
            // A run of bytes that no unit changes is copied as it is (unless an
            // invisible character before it is pending: its first byte decides).
            if pending.is_none() {
                let plain = plain_len(raw, at);
                if let Some(run) = raw.get(at..at + plain).filter(|run| !run.is_empty()) {
                    out.extend_from_slice(run);
                    map.extend((at..at + plain).map(|i| (i as u32, i as u32 + 1)));
                    at += plain;
                    continue;
                }
            }
            let (unit_end, produced) = unit(raw, at);
            let range = (at as u32, unit_end as u32);
            let mut buf = [0u8; 4];
            let bytes: &[u8] = match produced {
                Produced::Raw => raw.get(at..unit_end).unwrap_or_default(),
                Produced::Nothing => {
                    removed = true;
                    match invisible {
                        Invisible::Removed => {}
                        Invisible::Spaces => {
                            out.push(b' ');
                            map.push(range);
                        }
                        Invisible::WordNumberBreaks => pending = Some(range),
                    }
                    at = unit_end.max(at + 1);
                    continue;
                }
                Produced::Byte(b) => {
                    buf[0] = b;
                    &buf[..1]
                }
                Produced::Char(c) => c.encode_utf8(&mut buf).as_bytes(),
            };
            if let (Some(gap), Some(&before), Some(&next)) = (pending.take(), out.last(), bytes.first()) {
                let class = |b: u8| (b.is_ascii_alphabetic(), b.is_ascii_digit());
                if matches!((class(before), class(next)), ((true, _), (_, true)) | ((_, true), (true, _))) {
                    out.push(b' ');
                    map.push(gap);
                }
            }
            for &b in bytes {
                out.push(b);
                map.push(range);
            }
            at = unit_end.max(at + 1);
        }
        View { text: Cow::Owned(out), removed, map: Some(map) }
    }

    /// Look-alike letters read as the ASCII they show, in the words [`look_alikes`]
    /// picks; each keeps the raw range of its unit.
    fn fold_look_alikes(self) -> View<'a> {
        if self.text.is_ascii() {
            return self;
        }
        let folds = look_alikes(&self.text);
        if folds.is_empty() {
            return self;
        }
        let text = &self.text;
        let unit = |i: usize| match &self.map {
            Some(map) => map.get(i).copied().unwrap_or_default(),
            None => (i as u32, i as u32 + 1),
        };
        let mut out = Vec::with_capacity(text.len());
        let mut map = Vec::with_capacity(text.len());
        let mut at = 0;
        for (start, len, ascii) in folds {
            out.extend_from_slice(text.get(at..start).unwrap_or_default());
            map.extend((at..start).map(unit));
            out.push(ascii);
            map.push((unit(start).0, unit(start + len - 1).1));
            at = start + len;
        }
        out.extend_from_slice(text.get(at..).unwrap_or_default());
        map.extend((at..text.len()).map(unit));
        View { text: Cow::Owned(out), removed: self.removed, map: Some(map) }
    }

    /// The bytes the detectors scan.
    pub fn text(&self) -> &[u8] {
        &self.text
    }

    /// Whether the view differs from the raw text.
    pub fn changed(&self) -> bool {
        self.map.is_some()
    }

    /// The raw range of a view range `[start, end)`: from the start of the unit at
    /// `start` to the end of the unit at `end - 1`.
    pub fn raw_range(&self, start: usize, end: usize) -> (usize, usize) {
        let Some(map) = &self.map else { return (start, end) };
        let raw_start = map.get(start).map_or_else(|| map.last().map_or(0, |r| r.1 as usize), |r| r.0 as usize);
        let raw_end = match end.checked_sub(1).and_then(|i| map.get(i)) {
            Some(r) if end > start => r.1 as usize,
            _ => raw_start,
        };
        (raw_start, raw_end.max(raw_start))
    }

    /// Findings on the view, moved to raw offsets.
    pub fn to_raw(&self, findings: Vec<Finding>) -> Vec<Finding> {
        if self.map.is_none() {
            return findings;
        }
        findings
            .into_iter()
            .map(|f| {
                let (start, end) = self.raw_range(f.start, f.end);
                Finding { start, end, ..f }
            })
            .collect()
    }
}

/// The look-alike letters of `text` to fold, as (offset, length, ASCII byte): the
/// characters [`crate::engine::confusables`] lists, inside a word that also holds an ASCII
/// letter or an `@` (`jоhn@exаmple.com` with Cyrillic `о` and `а`). A word wholly in
/// Cyrillic or Greek stays as it is, for the labels written in it. Words end at
/// whitespace and at ASCII punctuation other than `@ . _ - +`.
fn look_alikes(text: &[u8]) -> Vec<(usize, usize, u8)> {
    let inner = |b: u8| !b.is_ascii() || b.is_ascii_alphanumeric() || matches!(b, b'@' | b'.' | b'_' | b'-' | b'+');
    let mut folds = Vec::new();
    let mut at = 0;
    while at < text.len() {
        let rest = text.get(at..).unwrap_or_default();
        let len = rest.iter().position(|&b| !inner(b)).unwrap_or(rest.len());
        let word = rest.get(..len).unwrap_or_default();
        if !word.is_ascii() && word.iter().any(|&b| b.is_ascii_alphabetic() || b == b'@') {
            let mut i = 0;
            while i < word.len() {
                match decode_utf8(word, i) {
                    Some((c, n)) => {
                        if let Some(a) = crate::engine::confusables::ascii_of(c) {
                            folds.push((at + i, n, a));
                        }
                        i += n;
                    }
                    None => i += 1,
                }
            }
        }
        at += len + 1;
    }
    folds
}

/// How a view reads invisible characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Invisible {
    /// As nothing (`ja\u{200B}ne` is `jane`).
    Removed,
    /// As a space.
    Spaces,
    /// As a space between a letter and a digit (`ssn\u{200B}123`), else as nothing:
    /// both in one text (`ssn\u{200B}123-45-678\u{200B}9`).
    WordNumberBreaks,
}

/// What one raw unit becomes in the view.
enum Produced {
    /// Its own bytes.
    Raw,
    /// Nothing (an invisible character).
    Nothing,
    /// One ASCII byte (a folded form, a simple escape).
    Byte(u8),
    /// A character (a `\u` escape that does not fold).
    Char(char),
}

/// The first offset where the view differs from `raw`, if any. ASCII without a
/// backslash, `%` or `&` is skipped sixteen bytes at a time (with vectors where the
/// target has them), then eight.
fn first_change(raw: &[u8]) -> Option<usize> {
    let mut at = 0;
    while at < raw.len() {
        at += plain_len(raw, at);
        if at >= raw.len() {
            break;
        }
        let (end, produced) = unit(raw, at);
        if !matches!(produced, Produced::Raw) {
            return Some(at);
        }
        at = end.max(at + 1);
    }
    None
}

/// How many bytes from `at` on are ASCII but `\\`, `%` and `&`: bytes that no unit
/// changes, passed over sixteen and eight at a time.
fn plain_len(raw: &[u8], from: usize) -> usize {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const ONES: u64 = 0x0101_0101_0101_0101;
    let mut at = from;
    while at < raw.len() {
        if let Some(chunk) = raw.get(at..at + 16).and_then(|c| <&[u8; 16]>::try_from(c).ok()) {
            if plain16(chunk) {
                at += 16;
                continue;
            }
        }
        if let Some(chunk) = raw.get(at..at + 8) {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            let v = u64::from_le_bytes(word);
            let x = v ^ (ONES * u64::from(b'\\'));
            let backslash = x.wrapping_sub(ONES) & !x & HIGH;
            let p = v ^ (ONES * u64::from(b'%'));
            let percent = p.wrapping_sub(ONES) & !p & HIGH;
            let a = v ^ (ONES * u64::from(b'&'));
            let amp = a.wrapping_sub(ONES) & !a & HIGH;
            if (v & HIGH) | backslash | percent | amp == 0 {
                at += 8;
                continue;
            }
        }
        let b = raw.get(at).copied().unwrap_or_default();
        if b < 0x80 && !matches!(b, b'\\' | b'%' | b'&') {
            at += 1;
            continue;
        }
        break;
    }
    at - from
}

/// Whether sixteen bytes are ASCII without `\\`, `%` or `&` (nothing of them changes).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
fn plain16(chunk: &[u8; 16]) -> bool {
    use core::arch::wasm32::{i8x16_eq, u64x2, u8x16_bitmask, u8x16_splat, v128_or};
    let (lo, hi) = crate::engine::text::halves(chunk);
    let v = u64x2(lo, hi);
    let special = v128_or(
        i8x16_eq(v, u8x16_splat(b'\\')),
        v128_or(i8x16_eq(v, u8x16_splat(b'%')), i8x16_eq(v, u8x16_splat(b'&'))),
    );
    // The bitmask is the high bit of each byte: set for non-ASCII and for a match.
    u8x16_bitmask(v128_or(v, special)) == 0
}

/// Whether sixteen bytes are ASCII without `\\`, `%` or `&` (nothing of them changes).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
fn plain16(chunk: &[u8; 16]) -> bool {
    // SAFETY: the function only needs SSE2, which this build enables for every
    // function (the `cfg` above; it is part of the x86-64 baseline). It only reads
    // the array it is given.
    #[allow(unsafe_code)]
    unsafe {
        plain16_sse2(chunk)
    }
}

/// [`plain16`] with SSE2 (an intrinsic is safe to call only where its feature is
/// declared).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[target_feature(enable = "sse2")]
#[inline]
fn plain16_sse2(chunk: &[u8; 16]) -> bool {
    use core::arch::x86_64::{_mm_cmpeq_epi8, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8, _mm_set_epi64x};
    let (lo, hi) = crate::engine::text::halves(chunk);
    let v = _mm_set_epi64x(hi as i64, lo as i64);
    let is = |b: u8| _mm_cmpeq_epi8(v, _mm_set1_epi8(b as i8));
    _mm_movemask_epi8(_mm_or_si128(v, _mm_or_si128(is(b'\\'), _mm_or_si128(is(b'%'), is(b'&'))))) == 0
}

/// Whether sixteen bytes are ASCII without `\\`, `%` or `&` (nothing of them changes).
#[cfg(not(any(
    all(target_arch = "wasm32", target_feature = "simd128"),
    all(target_arch = "x86_64", target_feature = "sse2")
)))]
#[inline(always)]
fn plain16(chunk: &[u8; 16]) -> bool {
    chunk.iter().all(|&b| b < 0x80 && !matches!(b, b'\\' | b'%' | b'&'))
}

/// The raw unit at `at` (an ASCII byte, a UTF-8 character, an escape): its end and
/// what it becomes in the view.
fn unit(raw: &[u8], at: usize) -> (usize, Produced) {
    let Some(&b) = raw.get(at) else { return (at, Produced::Raw) };
    if b == b'\\' {
        return escape(raw, at);
    }
    if b == b'%' {
        return percent(raw, at);
    }
    if b == b'&' {
        return entity(raw, at);
    }
    if b < 0x80 {
        return (at + 1, Produced::Raw);
    }
    let Some((c, len)) = decode_utf8(raw, at) else { return (at + 1, Produced::Raw) };
    let produced = match fold(c) {
        Fold::Keep => Produced::Raw,
        Fold::Remove => Produced::Nothing,
        Fold::Ascii(a) => Produced::Byte(a),
    };
    (at + len, produced)
}

/// A run of backslashes and the escape after it, decoded as one unit whatever the
/// run's length (each level of JSON encoding doubles it). Anything else is raw.
fn escape(raw: &[u8], at: usize) -> (usize, Produced) {
    let run = raw.get(at..).unwrap_or_default().iter().take_while(|&&b| b == b'\\').count();
    let after = at + run;
    let simple = match raw.get(after) {
        Some(b'"') => Some(b'"'),
        Some(b'/') => Some(b'/'),
        Some(b'n') => Some(b'\n'),
        Some(b't') => Some(b'\t'),
        Some(b'r') => Some(b'\r'),
        Some(b'b' | b'f') => Some(b' '),
        _ => None,
    };
    if let Some(byte) = simple {
        return (after + 1, Produced::Byte(byte));
    }
    match raw.get(after) {
        Some(b'u') => {}
        // JSON5 / JavaScript: `\xHH`.
        Some(b'x') => {
            let hex = raw.get(after + 1..after + 3).filter(|h| h.iter().all(u8::is_ascii_hexdigit));
            let Some(c) = hex
                .and_then(|h| std::str::from_utf8(h).ok())
                .and_then(|h| u32::from_str_radix(h, 16).ok())
                .and_then(char::from_u32)
            else {
                return (after, Produced::Raw);
            };
            return (after + 3, produce(c));
        }
        // JSON5 / JavaScript identity escapes (`\@`, `\.`, `\j`, `\ `, `\＠`): the
        // character itself, folded like any other.
        Some(&b) if b == b' ' || (b.is_ascii_graphic() && !b.is_ascii_digit()) => {
            return (after + 1, Produced::Byte(b))
        }
        Some(&b) if b >= 0x80 => {
            let Some((c, len)) = decode_utf8(raw, after) else { return (after, Produced::Raw) };
            return (after + len, produce(c));
        }
        // Anything else escapes nothing: the run stays.
        _ => return (after, Produced::Raw),
    }
    let Some(unit) = hex4(raw, after + 1) else { return (after, Produced::Raw) };
    let mut end = after + 5;
    let c = if (0xD800..0xDC00).contains(&unit) {
        // A high surrogate: the low one follows, behind its own backslashes.
        let run2 = raw.get(end..).unwrap_or_default().iter().take_while(|&&b| b == b'\\').count();
        let low = (run2 > 0 && raw.get(end + run2) == Some(&b'u')).then(|| hex4(raw, end + run2 + 1)).flatten();
        match low {
            Some(low) if (0xDC00..0xE000).contains(&low) => {
                end += run2 + 5;
                char::from_u32(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
            }
            _ => None,
        }
    } else {
        char::from_u32(unit)
    };
    let Some(c) = c else { return (end, Produced::Byte(b'?')) };
    let produced = match fold(c) {
        Fold::Keep if c.is_ascii() => Produced::Byte(c as u8),
        Fold::Keep => Produced::Char(c),
        Fold::Remove => Produced::Nothing,
        Fold::Ascii(a) => Produced::Byte(a),
    };
    (end, produced)
}

/// `%XX` at `at`: the byte it encodes, or, when that byte starts a UTF-8 character
/// whose other bytes follow as `%XX` too, the whole character (folded like any other).
fn percent(raw: &[u8], at: usize) -> (usize, Produced) {
    let byte = |at: usize| -> Option<u8> {
        if raw.get(at) != Some(&b'%') {
            return None;
        }
        let hex = raw.get(at + 1..at + 3)?;
        u8::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok().filter(|_| hex.iter().all(u8::is_ascii_hexdigit))
    };
    let Some(first) = byte(at) else { return (at + 1, Produced::Raw) };
    if first < 0x80 {
        return (at + 3, Produced::Byte(first));
    }
    let len = match first {
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        _ => return (at + 3, Produced::Byte(first)),
    };
    let mut bytes = [first, 0, 0, 0];
    for (i, slot) in bytes.iter_mut().enumerate().take(len).skip(1) {
        match byte(at + 3 * i) {
            Some(b) => *slot = b,
            None => return (at + 3, Produced::Byte(first)),
        }
    }
    let c = std::str::from_utf8(bytes.get(..len).unwrap_or_default()).ok().and_then(|t| t.chars().next());
    let Some(c) = c else { return (at + 3, Produced::Byte(first)) };
    let produced = match fold(c) {
        Fold::Keep => Produced::Char(c),
        Fold::Remove => Produced::Nothing,
        Fold::Ascii(a) => Produced::Byte(a),
    };
    (at + 3 * len, produced)
}

/// An HTML character reference at `at` (`&#64;`, `&#x40;`, or one of the named ones
/// that spell the characters values are written with), decoded; else the `&` as it is.
fn entity(raw: &[u8], at: usize) -> (usize, Produced) {
    let rest = raw.get(at + 1..).unwrap_or_default();
    let Some(semi) = rest.iter().take(12).position(|&b| b == b';') else { return (at + 1, Produced::Raw) };
    let name = rest.get(..semi).unwrap_or_default();
    let end = at + 1 + semi + 1;
    let code = match name {
        [b'#', b'x' | b'X', hex @ ..] if !hex.is_empty() && hex.iter().all(u8::is_ascii_hexdigit) => {
            std::str::from_utf8(hex).ok().and_then(|h| u32::from_str_radix(h, 16).ok())
        }
        [b'#', dec @ ..] if !dec.is_empty() && dec.iter().all(u8::is_ascii_digit) => {
            std::str::from_utf8(dec).ok().and_then(|d| d.parse::<u32>().ok())
        }
        b"commat" => Some(u32::from(b'@')),
        b"period" => Some(u32::from(b'.')),
        b"amp" => Some(u32::from(b'&')),
        b"lowbar" | b"UnderBar" => Some(u32::from(b'_')),
        b"hyphen" | b"dash" | b"minus" => Some(u32::from(b'-')),
        b"plus" => Some(u32::from(b'+')),
        b"colon" => Some(u32::from(b':')),
        b"sol" => Some(u32::from(b'/')),
        b"nbsp" => Some(0xA0),
        b"lpar" => Some(u32::from(b'(')),
        b"rpar" => Some(u32::from(b')')),
        _ => None,
    };
    let Some(c) = code.and_then(char::from_u32) else { return (at + 1, Produced::Raw) };
    let produced = match fold(c) {
        Fold::Keep if c.is_ascii() => Produced::Byte(c as u8),
        Fold::Keep => Produced::Char(c),
        Fold::Remove => Produced::Nothing,
        Fold::Ascii(a) => Produced::Byte(a),
    };
    (end, produced)
}

/// What a decoded character becomes in the view.
fn produce(c: char) -> Produced {
    match fold(c) {
        Fold::Keep if c.is_ascii() => Produced::Byte(c as u8),
        Fold::Keep => Produced::Char(c),
        Fold::Remove => Produced::Nothing,
        Fold::Ascii(a) => Produced::Byte(a),
    }
}

fn hex4(raw: &[u8], at: usize) -> Option<u32> {
    let digits = raw.get(at..at + 4)?;
    let text = std::str::from_utf8(digits).ok()?;
    if !digits.iter().all(u8::is_ascii_hexdigit) {
        return None;
    }
    u32::from_str_radix(text, 16).ok()
}

/// The UTF-8 character at `at` and its length, or `None` for an invalid sequence.
fn decode_utf8(raw: &[u8], at: usize) -> Option<(char, usize)> {
    let b = *raw.get(at)?;
    let len = match b {
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        _ => return None,
    };
    let bytes = raw.get(at..at + len)?;
    let c = std::str::from_utf8(bytes).ok()?.chars().next()?;
    Some((c, len))
}

/// What the view makes of one character.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fold {
    Keep,
    Remove,
    Ascii(u8),
}

/// The fold of one character (see the module's list).
pub fn fold(c: char) -> Fold {
    let u = c as u32;
    match u {
        // Invisible: soft hyphen, combining grapheme joiner, Arabic letter mark, Hangul
        // fillers, Khmer inherent vowels, Mongolian free variation selectors and vowel
        // separator, zero-width space / non-joiner / joiner, LRM / RLM, bidi embeddings
        // and isolates, word joiner and invisible operators, variation selectors,
        // the combining enclosing keycap (`4️⃣` is `4`, U+FE0F, U+20E3: read as `4`),
        // byte-order mark, halfwidth Hangul filler, shorthand format controls,
        // musical symbol format controls, tag begin / cancel, variation selectors
        // supplement.
        0x00AD
        | 0x034F
        | 0x061C
        | 0x115F
        | 0x1160
        | 0x17B4
        | 0x17B5
        | 0x180B..=0x180F
        | 0x200B..=0x200F
        | 0x202A..=0x202E
        | 0x20E3
        | 0x2060..=0x206F
        | 0x3164
        | 0xFE00..=0xFE0F
        | 0xFEFF
        | 0xFFA0
        | 0x1BCA0..=0x1BCA3
        | 0x1D173..=0x1D17A
        | 0xE0000..=0xE001F
        | 0xE007F
        | 0xE0100..=0xE01EF => Fold::Remove,
        // Tag characters spell ASCII invisibly.
        0xE0020..=0xE007E => Fold::Ascii((u - 0xE0000) as u8),
        // Full-width ASCII.
        0xFF01..=0xFF5E => Fold::Ascii((u - 0xFF01 + 0x21) as u8),
        // Spaces: no-break, ogham, en/em/thin/hair…, narrow no-break, medium math, ideographic.
        0x00A0 | 0x1680 | 0x2000..=0x200A | 0x202F | 0x205F | 0x3000 => Fold::Ascii(b' '),
        // Dashes, hyphens and minus signs.
        0x2010..=0x2015 | 0x2043 | 0x2212 | 0xFE58 | 0xFE63 => Fold::Ascii(b'-'),
        // Full stops: one-dot leader, ideographic, small, halfwidth ideographic.
        0x2024 | 0x3002 | 0xFE52 | 0xFF61 => Fold::Ascii(b'.'),
        0xFE50 | 0xFE51 => Fold::Ascii(b','),
        0xFE54 => Fold::Ascii(b';'),
        0xFE55 => Fold::Ascii(b':'),
        0xFE59 => Fold::Ascii(b'('),
        0xFE5A => Fold::Ascii(b')'),
        0xFE5F => Fold::Ascii(b'#'),
        0xFE60 => Fold::Ascii(b'&'),
        0xFE62 => Fold::Ascii(b'+'),
        0xFE66 => Fold::Ascii(b'='),
        0xFE69 => Fold::Ascii(b'$'),
        0xFE6A => Fold::Ascii(b'%'),
        0xFE6B => Fold::Ascii(b'@'),
        // Decimal digits of other scripts.
        0x0660..=0x0669 => digit(u - 0x0660),
        0x06F0..=0x06F9 => digit(u - 0x06F0),
        0x07C0..=0x07C9 => digit(u - 0x07C0),
        0x0966..=0x096F => digit(u - 0x0966),
        0x09E6..=0x09EF => digit(u - 0x09E6),
        0x0A66..=0x0A6F => digit(u - 0x0A66),
        0x0AE6..=0x0AEF => digit(u - 0x0AE6),
        0x0BE6..=0x0BEF => digit(u - 0x0BE6),
        0x0C66..=0x0C6F => digit(u - 0x0C66),
        0x0CE6..=0x0CEF => digit(u - 0x0CE6),
        0x0D66..=0x0D6F => digit(u - 0x0D66),
        0x0E50..=0x0E59 => digit(u - 0x0E50),
        0x1040..=0x1049 => digit(u - 0x1040),
        0x17E0..=0x17E9 => digit(u - 0x17E0),
        // Superscript and subscript digits.
        0x2070 => digit(0),
        0x00B9 => digit(1),
        0x00B2 => digit(2),
        0x00B3 => digit(3),
        0x2074..=0x2079 => digit(u - 0x2070),
        0x2080..=0x2089 => digit(u - 0x2080),
        // Circled, parenthesized and "digit full stop" digits, negative circled digits.
        0x2460..=0x2468 => digit(u - 0x2460 + 1),
        0x24EA | 0x24FF => digit(0),
        0x2474..=0x247C => digit(u - 0x2474 + 1),
        0x2488..=0x2490 => digit(u - 0x2488 + 1),
        0x24F5..=0x24FD => digit(u - 0x24F5 + 1),
        0x2776..=0x277E => digit(u - 0x2776 + 1),
        0x2780..=0x2788 => digit(u - 0x2780 + 1),
        0x278A..=0x2792 => digit(u - 0x278A + 1),
        // Circled and parenthesized letters.
        0x24B6..=0x24CF => Fold::Ascii(b'A' + (u - 0x24B6) as u8),
        0x24D0..=0x24E9 => Fold::Ascii(b'a' + (u - 0x24D0) as u8),
        0x249C..=0x24B5 => Fold::Ascii(b'a' + (u - 0x249C) as u8),
        // Mathematical digits (bold, double-struck, sans-serif, sans bold, monospace).
        0x1D7CE..=0x1D7FF => digit((u - 0x1D7CE) % 10),
        // Mathematical letters: thirteen alphabets of 52 (A–Z, a–z).
        0x1D400..=0x1D6A3 => {
            let i = (u - 0x1D400) % 52;
            Fold::Ascii(if i < 26 { b'A' + i as u8 } else { b'a' + (i - 26) as u8 })
        }
        _ => Fold::Keep,
    }
}

fn digit(d: u32) -> Fold {
    Fold::Ascii(b'0' + (d % 10) as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(raw: &str) -> String {
        String::from_utf8(View::new(raw.as_bytes()).text().to_vec()).unwrap()
    }

    /// The sixteen-byte skip sees every byte value at every lane as its definition
    /// says, and `first_change` finds a change at any offset past whole chunks.
    #[test]
    fn sixteen_byte_skip_agrees_with_the_definition() {
        for b in 0..=255u8 {
            for lane in 0..16 {
                let mut chunk = [b'a'; 16];
                chunk[lane] = b;
                assert_eq!(plain16(&chunk), b < 0x80 && !matches!(b, b'\\' | b'%' | b'&'), "{b:#x} at {lane}");
            }
        }
        for at in [0, 7, 15, 16, 17, 40, 62] {
            let mut raw = vec![b'x'; 64];
            raw[at] = b'\\';
            raw[at + 1] = b'n';
            assert_eq!(first_change(&raw), Some(at));
        }
    }

    #[test]
    fn plain_text_is_its_own_view() {
        for raw in ["hello jane@example.com", "curly “quotes” and é, 日本語", ""] {
            let v = View::new(raw.as_bytes());
            assert!(!v.changed(), "{raw}");
            assert_eq!(v.text(), raw.as_bytes());
        }
    }

    #[test]
    fn folds_and_removals() {
        let table: &[(&str, &str)] = &[
            ("ja\u{200B}ne@exam\u{00AD}ple.com", "jane@example.com"),
            ("jane\u{2060}@example\u{FEFF}.com", "jane@example.com"),
            ("ｊａｎｅ＠ｅｘａｍｐｌｅ．ｃｏｍ", "jane@example.com"),
            ("jane﹫example﹒com", "jane@example.com"),
            ("（４１５）５５５－０１３２", "(415)555-0132"),
            ("123\u{2011}45\u{2013}6789", "123-45-6789"),
            ("card\u{00A0}4111\u{202F}1111", "card 4111 1111"),
            ("\u{E006A}\u{E0061}\u{E006E}\u{E0065}", "jane"),
            ("٤١٥", "415"),
            ("𝟒𝟏𝟓 𝐣𝐚𝐧𝐞", "415 jane"),
            ("メール。", "メール."),
        ];
        for (raw, want) in table {
            assert_eq!(view(raw), *want, "{raw:?}");
        }
    }

    /// Look-alike letters fold inside a word with ASCII letters or an `@`, also when
    /// written as escapes; words wholly in another script keep theirs.
    #[test]
    fn look_alike_letters_in_mixed_words() {
        let table: &[(&str, &str)] = &[
            ("mail j\u{43e}hn.d\u{43e}e@ex\u{430}mple.com now", "mail john.doe@example.com now"),
            ("\u{456}v\u{430}n@\u{435}x\u{430}mpl\u{435}.\u{441}\u{43e}m", "ivan@example.com"),
            ("\u{3bf}\u{3bd}e@x.io", "ove@x.io"),
            (r"j\u043ehn@example.com", "john@example.com"),
            ("j&#1086;hn@example.com", "john@example.com"),
            ("Паспорт: 4510 123456, почта jane@example.com", "Паспорт: 4510 123456, почта jane@example.com"),
            ("Паспорт/passport", "Паспорт/passport"),
            ("ΟΝΟΜΑ Ελένη", "ΟΝΟΜΑ Ελένη"),
        ];
        for (raw, want) in table {
            assert_eq!(view(raw), *want, "{raw:?}");
        }
        // The folded letter maps back to its whole raw character.
        let raw = "to j\u{43e}hn@example.com";
        let v = View::new(raw.as_bytes());
        let (s, e) = v.raw_range(3, 3 + "john@example.com".len());
        assert_eq!(&raw[s..e], "j\u{43e}hn@example.com");
    }

    #[test]
    fn json_escapes_at_any_depth() {
        let table: &[(&str, &str)] = &[
            (r"jane\u0040example.com", "jane@example.com"),
            (r"jane\\u0040example.com", "jane@example.com"),
            (r"jane\\\\u0040example.com", "jane@example.com"),
            (r#"{\"e\":\"a\u0040b.com\"}"#, r#"{"e":"a@b.com"}"#),
            (r"\uff20 \u200b", "@ "),
            (r"\ud83d\ude00", "😀"),
            (r"C:\Users\x", r"C:Users\x"),
            (r"jane.doe\x40example.com", "jane.doe@example.com"),
            (r"123\-45\-6789 \@ \1", r"123-45-6789 @ \1"),
            ("4111\\ 1111 jane\\＠x.com a\\\u{200B}b", "4111 1111 jane@x.com ab"),
            (r"line\nnext", "line\nnext"),
            ("jane%40example.com", "jane@example.com"),
            ("jane%EF%BC%A0example.com", "jane@example.com"),
            ("caf%C3%A9 50%25 100% %zz %4", "café 50% 100% %zz %4"),
            ("jane&#64;example&#x2E;com", "jane@example.com"),
            ("jane&commat;example&period;com R&D &amp; &bogus; &#xZZ; &", "jane@example.com R&D & &bogus; &#xZZ; &"),
            ("①②③-④⑤-⑥⑦⑧⑨", "123-45-6789"),
            ("¹²³⁴⁵⁶⁷⁸⁹⁰ ₁₂₃ ⑴⑵ ⓙⓐⓝⓔ", "1234567890 123 12 jane"),
        ];
        for (raw, want) in table {
            assert_eq!(view(raw), *want, "{raw:?}");
        }
    }

    #[test]
    fn ranges_map_back_to_whole_raw_units() {
        let raw = "mail ja\u{200B}ne＠example.com now";
        let v = View::new(raw.as_bytes());
        let text = std::str::from_utf8(v.text()).unwrap();
        let start = text.find("jane").unwrap();
        let end = start + "jane@example.com".len();
        let (rs, re) = v.raw_range(start, end);
        assert_eq!(&raw[rs..re], "ja\u{200B}ne＠example.com");
        // An escape is one unit: a range ending on its output ends after it.
        let raw = r"x a\u0040b.co y";
        let v = View::new(raw.as_bytes());
        let (rs, re) = v.raw_range(2, 8);
        assert_eq!(&raw[rs..re], r"a\u0040b.co");
    }

    #[test]
    fn invalid_utf8_and_broken_escapes_pass_as_bytes() {
        for raw in [&b"\xff\xfe\\u00"[..], b"\\", b"\\u12G4", b"\xe3\x80", b"a\\ud800 b"] {
            let v = View::new(raw);
            let (s, e) = v.raw_range(0, v.text().len());
            assert!(s <= e && e <= raw.len());
        }
    }
}
