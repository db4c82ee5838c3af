//! Text in a declared (or byte-order-marked) charset other than UTF-8, read as the
//! characters it encodes and written back the same way.
//!
//! The detectors read UTF-8. A `text/plain; charset=utf-16` body, a UTF-16 file sent as
//! a Gemini `inlineData` part, or a `windows-1252` form part is, as bytes, a value with a
//! NUL after every letter, or a Latin-1 `é` no UTF-8 reader knows: read as bytes, a
//! value in it passes. So such text is decoded to UTF-8, scanned, and — when a value in
//! it is replaced — encoded back in its own charset, byte-order mark included.
//!
//! UTF-16 and UTF-32 (little and big endian, with or without a byte-order mark; UTF-16
//! without a declaration recognised by its mark or by NUL bytes in every other place)
//! and ISO-8859-1 are read here with the standard library: the WHATWG Encoding
//! Standard has no UTF-32, reads `iso-8859-1` as windows-1252, and encodes nothing to
//! UTF-16. Every other charset a label names — windows-125x, the ISO-8859 family,
//! KOI8, Shift_JIS, EUC-JP, ISO-2022-JP, GB18030, GBK, Big5, EUC-KR and the rest of the
//! Encoding Standard — is read and written by `encoding_rs`, the decoder Firefox uses.
//! A label it does not know (UTF-7, HZ, a made-up name) is not read (`Charset::of`
//! answers `None`), and the caller counts the text as unscannable.
//!
//! A token's marks `«` `»` have no place in some charsets (Shift_JIS, EUC-JP, Big5,
//! KOI8-R): there the token is written without them (`token:EMAIL:3f9a1c0d`), a form
//! the restorer finds as well. Any other character without a place fails the encoding.

use encoding_rs::{EncoderResult, Encoding};

/// A charset text is decoded from and encoded back to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Charset {
    Utf8,
    Utf16 {
        little: bool,
        bom: bool,
    },
    Utf32 {
        little: bool,
        bom: bool,
    },
    Latin1,
    /// A charset of the Encoding Standard, read and written by `encoding_rs`.
    Legacy(&'static Encoding),
}

impl Charset {
    /// The charset of `bytes` labelled `label` (a `charset` parameter, lower or upper
    /// case; empty when none): `None` when it is a charset this module cannot read.
    pub fn of(label: &str, bytes: &[u8]) -> Option<Charset> {
        let label = label.trim().trim_matches('"').to_ascii_lowercase();
        let bom16 = |b: &[u8]| match b {
            [0xFF, 0xFE, ..] => Some(true),
            [0xFE, 0xFF, ..] => Some(false),
            _ => None,
        };
        let bom32 = |b: &[u8]| match b {
            [0xFF, 0xFE, 0, 0, ..] => Some(true),
            [0, 0, 0xFE, 0xFF, ..] => Some(false),
            _ => None,
        };
        Some(match label.as_str() {
            "" | "utf-8" | "utf8" => {
                if let Some(little) = bom32(bytes) {
                    Charset::Utf32 { little, bom: true }
                } else if let Some(little) = bom16(bytes) {
                    Charset::Utf16 { little, bom: true }
                } else if let Some(little) = nul_pattern(bytes).filter(|_| label.is_empty()) {
                    Charset::Utf16 { little, bom: false }
                } else {
                    Charset::Utf8
                }
            }
            "utf-16" | "utf16" | "ucs-2" => match bom16(bytes) {
                Some(little) => Charset::Utf16 { little, bom: true },
                // RFC 2781: without a mark, big endian; a NUL pattern says otherwise.
                None => Charset::Utf16 { little: nul_pattern(bytes).unwrap_or(false), bom: false },
            },
            "utf-16le" => Charset::Utf16 { little: true, bom: bom16(bytes) == Some(true) },
            "utf-16be" => Charset::Utf16 { little: false, bom: bom16(bytes) == Some(false) },
            "utf-32" | "utf32" => match bom32(bytes) {
                Some(little) => Charset::Utf32 { little, bom: true },
                None => Charset::Utf32 { little: false, bom: false },
            },
            "utf-32le" => Charset::Utf32 { little: true, bom: bom32(bytes) == Some(true) },
            "utf-32be" => Charset::Utf32 { little: false, bom: bom32(bytes) == Some(false) },
            "iso-8859-1" | "iso8859-1" | "latin1" | "latin-1" | "l1" | "us-ascii" | "ascii" => Charset::Latin1,
            other => match Encoding::for_label_no_replacement(other.as_bytes()) {
                Some(e) if e == encoding_rs::UTF_8 => Charset::Utf8,
                Some(e) if e == encoding_rs::UTF_16LE => {
                    Charset::Utf16 { little: true, bom: bom16(bytes) == Some(true) }
                }
                Some(e) if e == encoding_rs::UTF_16BE => {
                    Charset::Utf16 { little: false, bom: bom16(bytes) == Some(false) }
                }
                Some(e) => Charset::Legacy(e),
                None => return None,
            },
        })
    }

    /// The text as UTF-8, or `None` when it does not decode (a lone surrogate, an odd
    /// length): then it is not the text it says it is.
    pub fn decode(self, bytes: &[u8]) -> Option<String> {
        match self {
            Charset::Utf8 => std::str::from_utf8(bytes).ok().map(str::to_string),
            Charset::Latin1 => Some(bytes.iter().map(|&b| char::from(b)).collect()),
            Charset::Legacy(encoding) => {
                encoding.decode_without_bom_handling_and_without_replacement(bytes).map(|text| text.into_owned())
            }
            Charset::Utf16 { little, bom } => {
                let data = bytes.get(if bom { 2 } else { 0 }..)?;
                if data.len() % 2 != 0 {
                    return None;
                }
                let units = data.chunks_exact(2).map(|c| {
                    let pair = [c.first().copied().unwrap_or(0), c.get(1).copied().unwrap_or(0)];
                    if little {
                        u16::from_le_bytes(pair)
                    } else {
                        u16::from_be_bytes(pair)
                    }
                });
                char::decode_utf16(units).collect::<Result<String, _>>().ok()
            }
            Charset::Utf32 { little, bom } => {
                let data = bytes.get(if bom { 4 } else { 0 }..)?;
                if data.len() % 4 != 0 {
                    return None;
                }
                data.chunks_exact(4)
                    .map(|c| {
                        let quad: [u8; 4] = c.try_into().ok()?;
                        char::from_u32(if little { u32::from_le_bytes(quad) } else { u32::from_be_bytes(quad) })
                    })
                    .collect()
            }
        }
    }

    /// `text` written in this charset (its mark first, when it had one). `None` when a
    /// character has no place in it (a token's `«` has one in Latin-1; a CJK value
    /// restored into Latin-1 text would not).
    pub fn encode(self, text: &str) -> Option<Vec<u8>> {
        match self {
            Charset::Utf8 => Some(text.as_bytes().to_vec()),
            Charset::Latin1 => text.chars().map(|c| u8::try_from(u32::from(c)).ok()).collect(),
            Charset::Legacy(encoding) => encode_legacy(encoding, text),
            Charset::Utf16 { little, bom } => {
                let mut out = Vec::with_capacity(text.len() * 2 + 2);
                let mut put = |u: u16| out.extend_from_slice(&if little { u.to_le_bytes() } else { u.to_be_bytes() });
                if bom {
                    put(0xFEFF);
                }
                text.encode_utf16().for_each(&mut put);
                Some(out)
            }
            Charset::Utf32 { little, bom } => {
                let mut out = Vec::with_capacity(text.len() * 4 + 4);
                let mut put = |u: u32| out.extend_from_slice(&if little { u.to_le_bytes() } else { u.to_be_bytes() });
                if bom {
                    put(0xFEFF);
                }
                text.chars().for_each(|c| put(u32::from(c)));
                Some(out)
            }
        }
    }
}

/// `text` in `encoding`, a token mark without a place in it left out; `None` when
/// another character has none.
fn encode_legacy(encoding: &'static Encoding, text: &str) -> Option<Vec<u8>> {
    let mut encoder = encoding.new_encoder();
    let mut out = Vec::with_capacity(text.len() + 16);
    let mut rest = text;
    loop {
        let room = encoder.max_buffer_length_from_utf8_without_replacement(rest.len())?.max(16);
        let start = out.len();
        out.resize(start + room, 0);
        let (result, read, written) = encoder.encode_from_utf8_without_replacement(rest, out.get_mut(start..)?, true);
        out.truncate(start + written);
        rest = rest.get(read..)?;
        match result {
            EncoderResult::InputEmpty => return Some(out),
            EncoderResult::OutputFull => {}
            EncoderResult::Unmappable(c) if c == '\u{AB}' || c == '\u{BB}' => {}
            EncoderResult::Unmappable(_) => return None,
        }
    }
}

/// UTF-16 without a mark, by its NUL bytes: in ASCII-heavy text every other byte is
/// NUL (odd places: little endian; even places: big endian). `Some(little)` when at
/// least 8 code units were seen and nearly all of one parity's bytes are NUL and
/// almost none of the other's.
fn nul_pattern(bytes: &[u8]) -> Option<bool> {
    let sample = bytes.get(..bytes.len().min(512))?;
    if sample.len() < 16 || sample.len() % 2 != 0 {
        return None;
    }
    let (mut even, mut odd) = (0usize, 0usize);
    for (i, &b) in sample.iter().enumerate() {
        if b == 0 {
            if i % 2 == 0 {
                even += 1;
            } else {
                odd += 1;
            }
        }
    }
    let half = sample.len() / 2;
    if odd * 10 >= half * 9 && even * 10 <= half {
        Some(true)
    } else if even * 10 >= half * 9 && odd * 10 <= half {
        Some(false)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_and_utf32_round_trip_in_every_form() {
        let text = "Mail jane.doe@example.com «token» café 東京 😀";
        for charset in [
            Charset::Utf16 { little: true, bom: true },
            Charset::Utf16 { little: false, bom: true },
            Charset::Utf16 { little: true, bom: false },
            Charset::Utf16 { little: false, bom: false },
            Charset::Utf32 { little: true, bom: true },
            Charset::Utf32 { little: false, bom: false },
        ] {
            let bytes = charset.encode(text).unwrap();
            assert_eq!(charset.decode(&bytes).as_deref(), Some(text), "{charset:?}");
        }
        let le = Charset::Utf16 { little: true, bom: true }.encode(text).unwrap();
        assert_eq!(Charset::of("", &le), Some(Charset::Utf16 { little: true, bom: true }));
        assert_eq!(Charset::of("UTF-16", &le), Some(Charset::Utf16 { little: true, bom: true }));
        let be_plain = Charset::Utf16 { little: false, bom: false }.encode("jane.doe@example.com").unwrap();
        assert_eq!(Charset::of("utf-16", &be_plain), Some(Charset::Utf16 { little: false, bom: false }));
        // Undeclared, unmarked: told by the NULs.
        let le_plain = Charset::Utf16 { little: true, bom: false }.encode("jane.doe@example.com").unwrap();
        assert_eq!(Charset::of("", &le_plain), Some(Charset::Utf16 { little: true, bom: false }));
        assert_eq!(Charset::of("", &be_plain), Some(Charset::Utf16 { little: false, bom: false }));
        assert_eq!(Charset::of("", b"plain ascii text here, long enough"), Some(Charset::Utf8));
        // Not what it says: an odd length, a lone surrogate.
        assert_eq!(Charset::Utf16 { little: true, bom: false }.decode(b"abc"), None);
        assert_eq!(Charset::Utf16 { little: true, bom: false }.decode(&[0x00, 0xD8, 0x41, 0x00]), None);
    }

    #[test]
    fn latin1_and_unknown_charsets() {
        let latin1 = Charset::of("ISO-8859-1", b"").unwrap();
        assert_eq!(latin1.decode(b"caf\xe9 jane@example.com").as_deref(), Some("café jane@example.com"));
        assert_eq!(latin1.encode("«x» é").unwrap(), b"\xabx\xbb \xe9");
        assert_eq!(latin1.encode("東"), None);
        for unknown in ["utf-7", "hz-gb-2312", "iso-2022-kr", "x-made-up"] {
            assert_eq!(Charset::of(unknown, b"abc"), None, "{unknown}");
        }
    }

    /// Every charset of the Encoding Standard a label names is read and written back
    /// byte for byte; a token's marks are dropped where the charset has no place for
    /// them, and the restorer still finds the token.
    #[test]
    fn legacy_charsets_round_trip_and_keep_tokens_findable() {
        let cases: &[(&str, &str)] = &[
            ("windows-1252", "Café, jane.doe@example.com"),
            ("Windows-1251", "Почта: jane.doe@example.com"),
            ("windows-1250", "Łódź jane.doe@example.com"),
            ("iso-8859-15", "€ jane.doe@example.com"),
            ("koi8-r", "Почта jane.doe@example.com"),
            ("shift_jis", "メール jane.doe@example.com です"),
            ("euc-jp", "メール jane.doe@example.com"),
            ("iso-2022-jp", "メール jane.doe@example.com"),
            ("gb18030", "邮箱 jane.doe@example.com"),
            ("gbk", "邮箱 jane.doe@example.com"),
            ("big5", "郵件 jane.doe@example.com"),
            ("euc-kr", "메일 jane.doe@example.com"),
        ];
        for &(label, text) in cases {
            let charset = Charset::of(label, b"").unwrap_or_else(|| panic!("{label}"));
            assert!(matches!(charset, Charset::Legacy(_)), "{label}");
            let bytes = charset.encode(text).unwrap_or_else(|| panic!("{label}"));
            assert_ne!(bytes, text.as_bytes(), "{label}");
            assert_eq!(charset.decode(&bytes).as_deref(), Some(text), "{label}");
            let token = "«token:EMAIL:3f9a1c0d»";
            let replaced = text.replace("jane.doe@example.com", token);
            let written = charset.encode(&replaced).unwrap_or_else(|| panic!("{label}"));
            let read = charset.decode(&written).unwrap_or_default();
            let found = crate::token::find_tokens(read.as_bytes());
            assert_eq!(found.len(), 1, "{label}: {read}");
            assert_eq!(found.first().map(|t| t.canonical()).as_deref(), Some(token), "{label}");
        }
        // A character the charset cannot hold, other than a mark, fails the encoding.
        assert_eq!(Charset::of("shift_jis", b"").unwrap().encode("😀"), None);
        assert_eq!(Charset::of("koi8-r", b"").unwrap().encode("東"), None);
        // Bytes that are not text in the charset are not read.
        assert_eq!(Charset::of("shift_jis", b"").unwrap().decode(b"\x82"), None);
        // WHATWG's labels for UTF-8 and UTF-16 come back as those charsets.
        assert_eq!(Charset::of("unicode-1-1-utf-8", b""), Some(Charset::Utf8));
        assert_eq!(Charset::of("unicodefffe", b""), Some(Charset::Utf16 { little: false, bom: false }));
    }
}
