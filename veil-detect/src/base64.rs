//! Base64 (RFC 4648) as media payloads in JSON carry it: the standard or the URL-safe
//! alphabet, padding optional, line breaks ignored.
//!
//! Here because detection decodes too (a key stored base64-encoded is checked as
//! what it encodes); the core's redactor and MIME reader use it for payloads.

/// Which alphabet and padding a payload used, so that a rewritten payload is
/// written the same way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Style {
    pub url_safe: bool,
    pub padded: bool,
}

fn value(b: u8) -> Option<u8> {
    match b {
        b'A'..=b'Z' => Some(b - b'A'),
        b'a'..=b'z' => Some(b - b'a' + 26),
        b'0'..=b'9' => Some(b - b'0' + 52),
        b'+' | b'-' => Some(62),
        b'/' | b'_' => Some(63),
        _ => None,
    }
}

/// The bytes `text` encodes and how it was written, or `None` if it is not base64.
pub fn decode(text: &[u8]) -> Option<(Vec<u8>, Style)> {
    let style = Style { url_safe: text.iter().any(|&b| b == b'-' || b == b'_'), padded: text.contains(&b'=') };
    let mut out = Vec::with_capacity(text.len() / 4 * 3 + 3);
    let (mut acc, mut bits) = (0u32, 0u32);
    let mut padding = 0;
    for &b in text {
        if matches!(b, b'\n' | b'\r' | b' ' | b'\t') {
            continue;
        }
        if b == b'=' {
            padding += 1;
            continue;
        }
        if padding > 0 {
            return None; // data after padding
        }
        acc = (acc << 6) | u32::from(value(b)?);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    // 6 leftover bits cannot end a byte string.
    (bits < 6 && padding <= 2).then_some((out, style))
}

/// `data` in base64, written in `style`.
pub fn encode(data: &[u8], style: Style) -> Vec<u8> {
    let alphabet: &[u8; 64] = if style.url_safe {
        b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    } else {
        b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    };
    let mut out = Vec::with_capacity(data.len().div_ceil(3) * 4);
    for chunk in data.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |acc, (i, &b)| acc | u32::from(b) << (16 - 8 * i));
        let chars = chunk.len() + 1;
        for i in 0..4 {
            if i < chars {
                out.push(alphabet.get(((n >> (18 - 6 * i)) & 63) as usize).copied().unwrap_or(b'A'));
            } else if style.padded {
                out.push(b'=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_vectors() {
        let padded = Style { url_safe: false, padded: true };
        for (plain, encoded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(encode(plain.as_bytes(), padded), encoded.as_bytes());
            assert_eq!(decode(encoded.as_bytes()).unwrap().0, plain.as_bytes());
            let bare = encoded.trim_end_matches('=');
            assert_eq!(
                decode(bare.as_bytes()).unwrap(),
                (plain.as_bytes().to_vec(), Style { url_safe: false, padded: false })
            );
        }
        let data = [0xfb_u8, 0xff, 0xbf];
        assert_eq!(encode(&data, Style { url_safe: true, padded: false }), b"-_-_");
        assert_eq!(decode(b"-_-_").unwrap().0, data);
        assert_eq!(decode(b"+/+/").unwrap().0, data);
        assert_eq!(decode(b"Zm9v\nYmFy").unwrap().0, b"foobar");
        for bad in [&b"Zm9vY"[..], b"Zg==Zg", b"Zm9v!", b"Z==="] {
            assert!(decode(bad).is_none(), "{}", String::from_utf8_lossy(bad));
        }
    }
}
