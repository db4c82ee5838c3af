//! A span-preserving JSON scanner: finds string values by path without building a tree.
//!
//! Veil never re-serialises a body. It locates the string values it must look at,
//! decodes them, and splices replacements into the original bytes, so every byte it
//! did not mean to change — whitespace, key order, number spelling, escapes in
//! untouched text, unknown fields — reaches the other side as it was (RFC 8259).

use std::borrow::Cow;

/// Maximum nesting of arrays and objects. Deeper documents are rejected instead of
/// recursing without bound (the scanner is recursive).
/// Deeper than any vendor SDK writes and than the JSON stacks vendors run accept by
/// default; a request nested deeper is refused, never passed unscanned.
pub const MAX_DEPTH: usize = 1000;

/// One step of the path from the document root to a value.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Seg<'a> {
    /// A member of an object, by its (decoded) key.
    Key(Cow<'a, str>),
    /// An element of an array, by position.
    Index(usize),
}

/// The key of the object member a path ends in (through any array indices after it:
/// the key of `"ssn": [123456789]`'s element is `ssn`), if any.
pub fn own_key<'p, 'd>(path: &'p [Seg<'d>]) -> Option<&'p Cow<'d, str>> {
    path.iter().rev().find_map(|seg| match seg {
        Seg::Key(k) => Some(k),
        Seg::Index(_) => None,
    })
}

/// The raw byte range of a string value's contents, between (not including) its quotes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StrSpan {
    pub start: usize,
    pub end: usize,
}

/// Why a document is not JSON. Carries a byte offset, never the document's text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid JSON at byte {offset}: {kind}")]
pub struct JsonError {
    pub offset: usize,
    pub kind: JsonErrorKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum JsonErrorKind {
    #[error("unexpected end of input")]
    Eof,
    #[error("unexpected byte")]
    Unexpected,
    #[error("invalid escape")]
    Escape,
    #[error("control character in string")]
    Control,
    #[error("nesting deeper than {MAX_DEPTH}")]
    TooDeep,
    #[error("trailing data after the document")]
    Trailing,
    #[error("invalid UTF-8")]
    Utf8,
}

/// A scalar value found by [`visit_scalars`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scalar {
    /// A string; the span is its contents between the quotes.
    String(StrSpan),
    /// A number; the span is its text.
    Number(StrSpan),
    /// An object key (only from [`visit_strings_and_keys`]); the path ends with it.
    Key(StrSpan),
}

/// Like [`visit_strings`], but also calls `visit` for every object key (`is_key`):
/// a key is text the vendor receives too.
pub fn visit_strings_and_keys<'d>(
    doc: &'d [u8],
    visit: &mut dyn FnMut(&[Seg<'d>], StrSpan, bool),
) -> Result<(), JsonError> {
    walk(doc, true, &mut |path, scalar| match scalar {
        Scalar::String(span) => visit(path, span, false),
        Scalar::Key(span) => visit(path, span, true),
        Scalar::Number(_) => {}
    })
}

/// Every scalar the vendor reads as text or as a value a person typed: string values,
/// object keys ([`Scalar::Key`], the path ending with the key) and numbers, in document
/// order. Booleans and `null` carry nothing a detector could find.
pub fn visit_all<'d>(doc: &'d [u8], visit: &mut dyn FnMut(&[Seg<'d>], Scalar)) -> Result<(), JsonError> {
    walk(doc, true, visit)
}

/// Walks `doc` and calls `visit(path, span)` for every string *value* (keys are not
/// values). Fails on anything that is not a single well-formed JSON document.
pub fn visit_strings<'d>(doc: &'d [u8], visit: &mut dyn FnMut(&[Seg<'d>], StrSpan)) -> Result<(), JsonError> {
    visit_scalars(doc, &mut |path, scalar| {
        if let Scalar::String(span) = scalar {
            visit(path, span);
        }
    })
}

/// Like [`visit_strings`], but also reports numbers (stream events carry their
/// indices as numbers next to the text).
pub fn visit_scalars<'d>(doc: &'d [u8], visit: &mut dyn FnMut(&[Seg<'d>], Scalar)) -> Result<(), JsonError> {
    walk(doc, false, visit)
}

fn walk<'d>(doc: &'d [u8], keys: bool, visit: &mut dyn FnMut(&[Seg<'d>], Scalar)) -> Result<(), JsonError> {
    if let Err(e) = std::str::from_utf8(doc) {
        return Err(JsonError { offset: e.valid_up_to(), kind: JsonErrorKind::Utf8 });
    }
    let mut scanner = Scanner { doc, pos: 0, path: Vec::new(), keys };
    scanner.skip_ws();
    scanner.value(visit, 0)?;
    scanner.skip_ws();
    if scanner.pos != doc.len() {
        return Err(scanner.err(JsonErrorKind::Trailing));
    }
    Ok(())
}

struct Scanner<'d> {
    doc: &'d [u8],
    pos: usize,
    path: Vec<Seg<'d>>,
    /// Report object keys too.
    keys: bool,
}

impl<'d> Scanner<'d> {
    fn err(&self, kind: JsonErrorKind) -> JsonError {
        JsonError { offset: self.pos, kind }
    }

    fn peek(&self) -> Option<u8> {
        self.doc.get(self.pos).copied()
    }

    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.pos += 1;
        }
    }

    fn expect(&mut self, byte: u8) -> Result<(), JsonError> {
        match self.peek() {
            Some(b) if b == byte => {
                self.pos += 1;
                Ok(())
            }
            Some(_) => Err(self.err(JsonErrorKind::Unexpected)),
            None => Err(self.err(JsonErrorKind::Eof)),
        }
    }

    fn value(&mut self, visit: &mut dyn FnMut(&[Seg<'d>], Scalar), depth: usize) -> Result<(), JsonError> {
        if depth > MAX_DEPTH {
            return Err(self.err(JsonErrorKind::TooDeep));
        }
        match self.peek() {
            None => Err(self.err(JsonErrorKind::Eof)),
            Some(b'{') => self.object(visit, depth),
            Some(b'[') => self.array(visit, depth),
            Some(b'"') => {
                let span = self.string()?;
                visit(&self.path, Scalar::String(span));
                Ok(())
            }
            Some(b't') => self.literal(b"true"),
            Some(b'f') => self.literal(b"false"),
            Some(b'n') => self.literal(b"null"),
            Some(b'-' | b'0'..=b'9') => {
                let start = self.pos;
                self.number()?;
                visit(&self.path, Scalar::Number(StrSpan { start, end: self.pos }));
                Ok(())
            }
            Some(_) => Err(self.err(JsonErrorKind::Unexpected)),
        }
    }

    fn object(&mut self, visit: &mut dyn FnMut(&[Seg<'d>], Scalar), depth: usize) -> Result<(), JsonError> {
        self.expect(b'{')?;
        self.skip_ws();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok(());
        }
        loop {
            self.skip_ws();
            let key = self.string()?;
            let raw = self.doc.get(key.start..key.end).unwrap_or_default();
            self.path.push(Seg::Key(decode_key(raw)));
            if self.keys {
                visit(&self.path, Scalar::Key(key));
            }
            self.skip_ws();
            self.expect(b':')?;
            self.skip_ws();
            self.value(visit, depth + 1)?;
            self.path.pop();
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(());
                }
                Some(_) => return Err(self.err(JsonErrorKind::Unexpected)),
                None => return Err(self.err(JsonErrorKind::Eof)),
            }
        }
    }

    fn array(&mut self, visit: &mut dyn FnMut(&[Seg<'d>], Scalar), depth: usize) -> Result<(), JsonError> {
        self.expect(b'[')?;
        self.skip_ws();
        if self.peek() == Some(b']') {
            self.pos += 1;
            return Ok(());
        }
        let mut index = 0;
        loop {
            self.skip_ws();
            self.path.push(Seg::Index(index));
            self.value(visit, depth + 1)?;
            self.path.pop();
            index += 1;
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    return Ok(());
                }
                Some(_) => return Err(self.err(JsonErrorKind::Unexpected)),
                None => return Err(self.err(JsonErrorKind::Eof)),
            }
        }
    }

    /// Scans a string starting at its opening quote; returns the span of its contents.
    fn string(&mut self) -> Result<StrSpan, JsonError> {
        self.expect(b'"')?;
        let start = self.pos;
        loop {
            self.pos += plain_prefix(self.doc.get(self.pos..).unwrap_or_default());
            match self.peek() {
                None => return Err(self.err(JsonErrorKind::Eof)),
                Some(b'"') => {
                    let span = StrSpan { start, end: self.pos };
                    self.pos += 1;
                    return Ok(span);
                }
                Some(b'\\') => {
                    self.pos += 1;
                    match self.peek() {
                        Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => self.pos += 1,
                        Some(b'u') => {
                            self.pos += 1;
                            for _ in 0..4 {
                                match self.peek() {
                                    Some(b) if b.is_ascii_hexdigit() => self.pos += 1,
                                    _ => return Err(self.err(JsonErrorKind::Escape)),
                                }
                            }
                        }
                        None => return Err(self.err(JsonErrorKind::Eof)),
                        Some(_) => return Err(self.err(JsonErrorKind::Escape)),
                    }
                }
                Some(_) => return Err(self.err(JsonErrorKind::Control)),
            }
        }
    }

    fn literal(&mut self, word: &[u8]) -> Result<(), JsonError> {
        if self.doc.get(self.pos..self.pos + word.len()) == Some(word) {
            self.pos += word.len();
            Ok(())
        } else {
            Err(self.err(JsonErrorKind::Unexpected))
        }
    }

    fn number(&mut self) -> Result<(), JsonError> {
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        match self.peek() {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => self.digits(),
            _ => return Err(self.err(JsonErrorKind::Unexpected)),
        }
        if self.peek() == Some(b'.') {
            self.pos += 1;
            self.require_digits()?;
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.pos += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.pos += 1;
            }
            self.require_digits()?;
        }
        Ok(())
    }

    fn digits(&mut self) {
        while let Some(b'0'..=b'9') = self.peek() {
            self.pos += 1;
        }
    }

    fn require_digits(&mut self) -> Result<(), JsonError> {
        let before = self.pos;
        self.digits();
        if self.pos == before {
            Err(self.err(JsonErrorKind::Unexpected))
        } else {
            Ok(())
        }
    }
}

/// Length of the prefix of `bytes` with no `"`, no `\\` and no control character:
/// the bytes a string scan can skip. Eight bytes at a time (SWAR), since this loop
/// is most of the scanner's time.
fn plain_prefix(bytes: &[u8]) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let has_zero = |v: u64| v.wrapping_sub(ONES) & !v & HIGH;
    let special = |b: u8| b == b'"' || b == b'\\' || b < 0x20;
    let mut at = 0;
    for chunk in bytes.chunks_exact(8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let v = u64::from_le_bytes(word);
        // A byte < 0x20 is a byte whose value minus 0x20 borrows (has_less idiom).
        let less = v.wrapping_sub(ONES * 0x20) & !v & HIGH;
        if less | has_zero(v ^ (ONES * u64::from(b'"'))) | has_zero(v ^ (ONES * u64::from(b'\\'))) != 0 {
            break;
        }
        at += 8;
    }
    at + bytes.get(at..).unwrap_or_default().iter().position(|&b| special(b)).unwrap_or(bytes.len() - at)
}

fn decode_key(raw: &[u8]) -> Cow<'_, str> {
    if raw.contains(&b'\\') {
        Cow::Owned(decode(raw).text().into_owned())
    } else {
        // The document was checked to be UTF-8, and a span never splits a character.
        String::from_utf8_lossy(raw)
    }
}

/// A decoded JSON string with a way back to raw offsets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decoded<'a> {
    /// The string's value as UTF-8 bytes: borrowed from the document when it had no
    /// escapes (the common case: no copy), owned otherwise. Lone surrogates become
    /// U+FFFD (they are never written back).
    pub bytes: Cow<'a, [u8]>,
    /// `offsets[i]` is the raw offset (relative to the span start) where the decoded
    /// byte `i` came from; one extra entry maps `text.len()` to the raw length.
    /// `None` when the raw contents had no escapes, so decoded and raw coincide.
    offsets: Option<Vec<u32>>,
}

impl<'a> Decoded<'a> {
    /// A text that is its own raw form (the digits of a number): offsets map to
    /// themselves.
    pub fn plain(bytes: Cow<'a, [u8]>) -> Decoded<'a> {
        Decoded { bytes, offsets: None }
    }

    /// The value as text (for tests and diagnostics).
    pub fn text(&self) -> Cow<'_, str> {
        String::from_utf8_lossy(&self.bytes)
    }

    /// Maps a decoded byte offset to a raw offset relative to the span start.
    pub fn raw_offset(&self, decoded: usize) -> usize {
        match &self.offsets {
            None => decoded,
            Some(map) => map.get(decoded).map_or(decoded, |&o| o as usize),
        }
    }
}

/// Decodes the raw contents of a JSON string (between its quotes). The input must have
/// come from [`visit_strings`], so it is well formed; anything odd decodes to U+FFFD.
pub fn decode(raw: &[u8]) -> Decoded<'_> {
    if memchr::memchr(b'\\', raw).is_none() {
        return Decoded { bytes: Cow::Borrowed(raw), offsets: None };
    }
    let mut text = String::with_capacity(raw.len());
    let mut offsets: Vec<u32> = Vec::with_capacity(raw.len() + 1);
    let mut i = 0;
    while i < raw.len() {
        let start = i;
        let ch = match raw.get(i) {
            Some(b'\\') => {
                let (ch, used) = decode_escape(raw, i);
                i += used;
                ch
            }
            Some(_) => {
                let len = utf8_len(raw.get(i).copied().unwrap_or(0));
                let piece = raw.get(i..i + len).unwrap_or_default();
                i += len.max(1);
                std::str::from_utf8(piece).ok().and_then(|s| s.chars().next()).unwrap_or(char::REPLACEMENT_CHARACTER)
            }
            None => break,
        };
        let before = text.len();
        text.push(ch);
        for _ in before..text.len() {
            offsets.push(start as u32);
        }
    }
    offsets.push(raw.len() as u32);
    Decoded { bytes: Cow::Owned(text.into_bytes()), offsets: Some(offsets) }
}

fn utf8_len(first: u8) -> usize {
    match first {
        0x00..=0x7f => 1,
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf7 => 4,
        _ => 1,
    }
}

fn hex4(raw: &[u8], at: usize) -> Option<u32> {
    let digits = raw.get(at..at + 4)?;
    let s = std::str::from_utf8(digits).ok()?;
    u32::from_str_radix(s, 16).ok()
}

/// Decodes one escape at `raw[i] == b'\\'`; returns the char and the raw bytes used.
fn decode_escape(raw: &[u8], i: usize) -> (char, usize) {
    let simple = match raw.get(i + 1) {
        Some(b'"') => Some('"'),
        Some(b'\\') => Some('\\'),
        Some(b'/') => Some('/'),
        Some(b'b') => Some('\u{8}'),
        Some(b'f') => Some('\u{c}'),
        Some(b'n') => Some('\n'),
        Some(b'r') => Some('\r'),
        Some(b't') => Some('\t'),
        _ => None,
    };
    if let Some(c) = simple {
        return (c, 2);
    }
    let Some(hi) = hex4(raw, i + 2) else {
        return (char::REPLACEMENT_CHARACTER, 2);
    };
    if (0xd800..0xdc00).contains(&hi) {
        if raw.get(i + 6) == Some(&b'\\') && raw.get(i + 7) == Some(&b'u') {
            if let Some(lo) = hex4(raw, i + 8) {
                if (0xdc00..0xe000).contains(&lo) {
                    let code = 0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00);
                    return (char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER), 12);
                }
            }
        }
        return (char::REPLACEMENT_CHARACTER, 6);
    }
    (char::from_u32(hi).unwrap_or(char::REPLACEMENT_CHARACTER), 6)
}

/// Escapes `text` for the inside of a JSON string (no quotes added).
pub fn escape_into(out: &mut Vec<u8>, text: &str) {
    for ch in text.chars() {
        match ch {
            '"' => out.extend_from_slice(b"\\\""),
            '\\' => out.extend_from_slice(b"\\\\"),
            '\n' => out.extend_from_slice(b"\\n"),
            '\r' => out.extend_from_slice(b"\\r"),
            '\t' => out.extend_from_slice(b"\\t"),
            c if (c as u32) < 0x20 => {
                out.extend_from_slice(format!("\\u{:04x}", c as u32).as_bytes());
            }
            c => {
                let mut buf = [0u8; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            }
        }
    }
}

/// Matches a path against a pattern of keys, `*` (any one array index or key) and,
/// as the last element only, `**` (any number of further segments, zero included).
pub fn path_matches(path: &[Seg<'_>], pattern: &[&str]) -> bool {
    let (pattern, rest_any) = match pattern.split_last() {
        Some((&"**", head)) => (head, true),
        _ => (pattern, false),
    };
    let len_ok = if rest_any { path.len() >= pattern.len() } else { path.len() == pattern.len() };
    len_ok
        && path.iter().zip(pattern).all(|(seg, pat)| match seg {
            _ if *pat == "*" => true,
            Seg::Key(k) => k == pat,
            Seg::Index(_) => false,
        })
}

/// The array index at `path[at]`, if that segment is an index.
pub fn index_at(path: &[Seg<'_>], at: usize) -> Option<usize> {
    match path.get(at) {
        Some(Seg::Index(i)) => Some(*i),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(doc: &str) -> Result<Vec<(String, String)>, JsonError> {
        let mut out = Vec::new();
        visit_strings(doc.as_bytes(), &mut |path, span| {
            let p: Vec<String> = path
                .iter()
                .map(|s| match s {
                    Seg::Key(k) => k.to_string(),
                    Seg::Index(i) => i.to_string(),
                })
                .collect();
            out.push((p.join("/"), decode(&doc.as_bytes()[span.start..span.end]).text().into_owned()));
        })?;
        Ok(out)
    }

    #[test]
    fn finds_string_values_with_paths() {
        let got = strings(r#"{"a":"x","b":[1,"y",{"c":"z"}],"d":null,"e":-1.5e3}"#).unwrap();
        assert_eq!(got, vec![("a".into(), "x".into()), ("b/1".into(), "y".into()), ("b/2/c".into(), "z".into()),]);
    }

    #[test]
    fn reports_numbers_with_their_text() {
        let doc = br#"{"index":12,"x":[-1.5e3,"s"]}"#;
        let mut numbers = Vec::new();
        visit_scalars(doc, &mut |_, s| {
            if let Scalar::Number(span) = s {
                numbers.push(std::str::from_utf8(&doc[span.start..span.end]).unwrap().to_string());
            }
        })
        .unwrap();
        assert_eq!(numbers, vec!["12", "-1.5e3"]);
    }

    #[test]
    fn decodes_escapes_and_maps_offsets() {
        let raw = br#"a\u0040b\n\ud83d\ude00c"#;
        let d = decode(raw);
        assert_eq!(d.text(), "a@b\n\u{1f600}c");
        // 'b' is decoded byte 2, raw offset 7.
        assert_eq!(d.raw_offset(2), 7);
        // end maps to raw end.
        assert_eq!(d.raw_offset(d.bytes.len()), raw.len());
        // the emoji (4 bytes decoded) starts at raw 10.
        assert_eq!(d.raw_offset(4), 10);
    }

    #[test]
    fn plain_prefix_stops_at_every_special_byte() {
        for special in [b'"', b'\\', 0x00, 0x1f, b'\n'] {
            for at in 0..20 {
                let mut bytes = vec![b'a'; 20];
                bytes[at] = special;
                assert_eq!(plain_prefix(&bytes), at, "{special:#x} at {at}");
            }
        }
        assert_eq!(plain_prefix("héllo wörld ✓ no specials".as_bytes()), "héllo wörld ✓ no specials".len());
        assert_eq!(plain_prefix(b""), 0);
    }

    #[test]
    fn lone_surrogate_becomes_replacement() {
        assert_eq!(decode(br"x\ud800y").text(), "x\u{fffd}y");
    }

    #[test]
    fn rejects_malformed_documents() {
        let cases: &[(&str, JsonErrorKind)] = &[
            ("", JsonErrorKind::Eof),
            ("{", JsonErrorKind::Eof),
            (r#"{"a" 1}"#, JsonErrorKind::Unexpected),
            (r#"{"a":1}x"#, JsonErrorKind::Trailing),
            (r#"["\q"]"#, JsonErrorKind::Escape),
            ("[\"\u{1}\"]", JsonErrorKind::Control),
            ("[01x]", JsonErrorKind::Unexpected),
            ("[1.]", JsonErrorKind::Unexpected),
            ("hello", JsonErrorKind::Unexpected),
        ];
        for (doc, kind) in cases {
            let err = strings(doc).unwrap_err();
            assert_eq!(err.kind, *kind, "{doc:?}");
        }
    }

    #[test]
    fn rejects_invalid_utf8_and_deep_nesting() {
        let err = visit_strings(b"[\"\xff\"]", &mut |_, _| {}).unwrap_err();
        assert_eq!(err.kind, JsonErrorKind::Utf8);
        let deep = "[".repeat(MAX_DEPTH + 2) + &"]".repeat(MAX_DEPTH + 2);
        let err = visit_strings(deep.as_bytes(), &mut |_, _| {}).unwrap_err();
        assert_eq!(err.kind, JsonErrorKind::TooDeep);
    }

    #[test]
    fn escape_round_trips_through_decode() {
        let text = "quote\" back\\ nl\n tab\t bell\u{7} «é» 😀";
        let mut out = Vec::new();
        escape_into(&mut out, text);
        assert_eq!(decode(&out).text(), text);
    }

    #[test]
    fn path_patterns() {
        let path = [Seg::Key("messages".into()), Seg::Index(3), Seg::Key("content".into())];
        assert!(path_matches(&path, &["messages", "*", "content"]));
        assert!(!path_matches(&path, &["messages", "content"]));
        assert!(!path_matches(&path, &["messages", "*", "name"]));
        assert!(path_matches(&path, &["messages", "**"]));
        assert!(path_matches(&path, &["messages", "*", "content", "**"]));
        assert!(!path_matches(&path, &["tools", "**"]));
        assert_eq!(index_at(&path, 1), Some(3));
    }
}
