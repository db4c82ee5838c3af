//! Text in a declared (or byte-order-marked) charset other than UTF-8, read as the
//! characters it encodes and written back the same way.
//!
//! The detectors read UTF-8. A `text/plain; charset=utf-16` body, a UTF-16 file sent as
//! a Gemini `inlineData` part, or a `windows-1252` form part is, as bytes, a value with a
//! NUL after every letter, or a Latin-1 `é` no UTF-8 reader knows: read as bytes, a
//! value in it passes. So such text is decoded to UTF-8, scanned, and — when a value in
//! it is replaced — encoded back in its own charset, byte-order mark included.
//!
//! Decoded here, with the standard library: UTF-16 and UTF-32 (little and big endian,
//! with or without a byte-order mark; UTF-16 without a declaration recognised by its
//! mark or by NUL bytes in every other place), ISO-8859-1 / Latin-1 and US-ASCII.
//! Any other declared charset is not read (`Charset::of` answers `None`), and the
//! caller counts the text as unscannable: `encoding_rs` would read them all, but adds
//! ~220 KB to a module that has ~100 KB left under its size budget (BENCHMARKS.md).

/// A charset text is decoded from and encoded back to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Charset {
    Utf8,
    Utf16 { little: bool, bom: bool },
    Utf32 { little: bool, bom: bool },
    Latin1,
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
            _ => return None,
        })
    }

    /// The text as UTF-8, or `None` when it does not decode (a lone surrogate, an odd
    /// length): then it is not the text it says it is.
    pub fn decode(self, bytes: &[u8]) -> Option<String> {
        match self {
            Charset::Utf8 => std::str::from_utf8(bytes).ok().map(str::to_string),
            Charset::Latin1 => Some(bytes.iter().map(|&b| char::from(b)).collect()),
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
        for unknown in ["shift_jis", "gb18030", "windows-1251", "x-made-up"] {
            assert_eq!(Charset::of(unknown, b"abc"), None, "{unknown}");
        }
    }
}
