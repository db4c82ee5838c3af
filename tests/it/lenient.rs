//! A lenient JSON reader: every string it can decode, however broken the document.
//! Shared by the differential test (`tests/it/differential.rs`) and its fuzz target
//! (`fuzz/fuzz_targets/differential.rs`, which includes this file by path).

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Every string (values and object keys, quoted with `"` or `'`, and unquoted
/// words such as JSON5 keys) decoded from `body`: a byte-order mark, comments,
/// NaN / Infinity, trailing commas, duplicate keys, nesting of any depth, invalid
/// UTF-8 (lossy) and garbage after the document are all read through. It is a
/// tokenizer rather than a tree builder, so nothing stops it early.
pub fn strings(body: &[u8]) -> Vec<String> {
    let body = body.strip_prefix(BOM).unwrap_or(body);
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(&b) = body.get(i) {
        match b {
            b'"' | b'\'' => {
                let start = i + 1;
                let mut j = start;
                while let Some(&c) = body.get(j) {
                    if c == b {
                        break;
                    }
                    j += if c == b'\\' { 2 } else { 1 };
                }
                let raw = body.get(start..j.min(body.len())).unwrap_or_default();
                out.push(unescape(&String::from_utf8_lossy(raw)));
                i = j + 1;
            }
            b'/' if body.get(i + 1) == Some(&b'/') => {
                i = body
                    .get(i..)
                    .and_then(|rest| rest.iter().position(|&c| c == b'\n' || c == b'\r'))
                    .map_or(body.len(), |p| i + p);
            }
            b'/' if body.get(i + 1) == Some(&b'*') => {
                let rest = body.get(i + 2..).unwrap_or_default();
                i = rest.windows(2).position(|w| w == b"*/").map_or(body.len(), |p| i + 2 + p + 2);
            }
            _ if word_byte(b) || b == b'\\' => {
                let start = i;
                while let Some(&c) = body.get(i) {
                    if c == b'\\' {
                        i += 2;
                    } else if word_byte(c) {
                        i += 1;
                    } else {
                        break;
                    }
                }
                let raw = body.get(start..i.min(body.len())).unwrap_or_default();
                out.push(unescape(&String::from_utf8_lossy(raw)));
            }
            _ => i += 1,
        }
    }
    out
}

/// A byte of an unquoted word: JSON5 identifiers (with their `\u` escapes, which
/// the caller steps over, and which may start a word), numbers and literals, any
/// non-ASCII byte.
fn word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80
}

/// Decodes the escapes of a string's contents, leniently: JSON's (`\uXXXX` with
/// surrogate pairs; a lone surrogate becomes U+FFFD), JSON5's and JavaScript's
/// (`\'`, `\xHH`, `\0` and legacy octal, `\v`, line continuations, any other
/// character standing for itself).
pub fn unescape(s: &str) -> String {
    if !s.contains('\\') {
        return s.to_string();
    }
    let cs: Vec<char> = s.chars().collect();
    let hex = |at: usize, n: usize| -> Option<u32> {
        let digits: String = cs.get(at..at + n)?.iter().collect();
        if digits.chars().all(|c| c.is_ascii_hexdigit()) {
            u32::from_str_radix(&digits, 16).ok()
        } else {
            None
        }
    };
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while let Some(&c) = cs.get(i) {
        if c != '\\' {
            out.push(c);
            i += 1;
            continue;
        }
        let Some(&e) = cs.get(i + 1) else {
            out.push('\\');
            break;
        };
        i += 2;
        match e {
            'b' => out.push('\u{8}'),
            'f' => out.push('\u{c}'),
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            't' => out.push('\t'),
            'v' => out.push('\u{b}'),
            // `\0`, and JavaScript's legacy octal escapes (`\101`); `\8`, `\9` are the digit.
            '0'..='7' => {
                let mut v = e as u32 - '0' as u32;
                let longest = if e <= '3' { 2 } else { 1 };
                for _ in 0..longest {
                    match cs.get(i).and_then(|c| c.to_digit(8)) {
                        Some(d) => {
                            v = v * 8 + d;
                            i += 1;
                        }
                        None => break,
                    }
                }
                out.push(char::from_u32(v).unwrap_or(char::REPLACEMENT_CHARACTER));
            }
            // Line continuations.
            '\n' | '\u{2028}' | '\u{2029}' => {}
            '\r' => {
                if cs.get(i) == Some(&'\n') {
                    i += 1;
                }
            }
            'x' => match hex(i, 2) {
                Some(v) => {
                    out.push(char::from_u32(v).unwrap_or(char::REPLACEMENT_CHARACTER));
                    i += 2;
                }
                None => out.push('x'),
            },
            'u' => match hex(i, 4) {
                Some(hi) => {
                    i += 4;
                    if (0xD800..0xDC00).contains(&hi) {
                        let lo =
                            (cs.get(i) == Some(&'\\') && cs.get(i + 1) == Some(&'u')).then(|| hex(i + 2, 4)).flatten();
                        match lo {
                            Some(lo) if (0xDC00..0xE000).contains(&lo) => {
                                i += 6;
                                let code = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
                                out.push(char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER));
                            }
                            _ => out.push(char::REPLACEMENT_CHARACTER),
                        }
                    } else {
                        out.push(char::from_u32(hi).unwrap_or(char::REPLACEMENT_CHARACTER));
                    }
                }
                None => out.push('u'),
            },
            // `\"`, `\\`, `\/`, `\'`, and any other character for itself.
            other => out.push(other),
        }
    }
    out
}

/// What a model reads in a decoded string: zero-width and format characters
/// removed, full-width ASCII folded.
pub fn model_reads(s: &str) -> String {
    s.chars()
        .filter(|&c| !matches!(c as u32, 0x200B..=0x200F | 0x2060..=0x2064 | 0xFEFF | 0x00AD))
        .map(|c| match c as u32 {
            u @ 0xFF01..=0xFF5E => char::from_u32(u - 0xFF01 + 0x21).unwrap_or(c),
            _ => c,
        })
        .collect()
}

/// Everything a model reads from the strings of `body`: each decoded string, and,
/// when it holds escapes itself, the string with one more level decoded.
pub fn read(body: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    for s in strings(body) {
        if s.contains('\\') {
            out.push(model_reads(&unescape(&s)));
        }
        out.push(model_reads(&s));
    }
    out
}

/// The first string a model reads from `body` that contains `value`.
pub fn find(body: &[u8], value: &str) -> Option<String> {
    read(body).into_iter().find(|s| s.contains(value))
}

#[test]
fn reads_what_permissive_parsers_read() {
    let body = b"\xEF\xBB\xBF{/* c */ 'a': NaN, b: [\"x\\u0040y\", \"\\ud83d\\ude00\", \"\\ud800\",], // c\n \"k\":\"\xff\", \"k\":\"j\\\\u0040\\u200b\xef\xbc\xa0\", } trailing 'z";
    let got = strings(body);
    assert_eq!(
        got,
        [
            "a",
            "NaN",
            "b",
            "x@y",
            "\u{1F600}",
            "\u{FFFD}",
            "k",
            "\u{FFFD}",
            "k",
            "j\\u0040\u{200b}\u{ff20}",
            "trailing",
            "z"
        ]
    );
    assert_eq!(find(body, "j@@"), Some("j@@".to_string()));
    assert_eq!(
        unescape(
            r"\x40\@\'\
\101\9\ \＠"
        ),
        "@@'A9 ＠"
    );
}
