//! Request content codings (RFC 9110 § 8.4): a compressed body is decoded before it is
//! scanned, within the body limit, and forwarded decoded.
//!
//! A vendor decompresses what it receives; a scanner that looked at the compressed
//! bytes would find nothing and forward everything. The decoders are pure Rust
//! (`flate2` over `miniz_oxide`, `brotli-decompressor`, `ruzstd`), so they build for
//! wasm32-wasip1. Output is read through a limit: a decompression bomb stops at
//! `limit + 1` bytes and is refused as too large without being expanded further.

use std::io::Read;

/// A coding named in `content-encoding`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Coding {
    /// `gzip` / `x-gzip` (RFC 1952).
    Gzip,
    /// `deflate`: zlib (RFC 1950) as the RFC says, or raw deflate (RFC 1951) as some
    /// clients send it; told apart by the zlib header.
    Deflate,
    /// `br` (RFC 7932).
    Brotli,
    /// `zstd` (RFC 8878).
    Zstd,
}

impl Coding {
    pub fn name(self) -> &'static str {
        match self {
            Coding::Gzip => "gzip",
            Coding::Deflate => "deflate",
            Coding::Brotli => "br",
            Coding::Zstd => "zstd",
        }
    }
}

/// Why a body could not be decoded. Carries no body bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    #[error("a content-encoding the gateway cannot decode")]
    Unsupported,
    #[error("decoded body larger than the limit")]
    TooLarge,
    #[error("the body does not decode")]
    Corrupt,
}

/// The codings of a `content-encoding` header value, in the order they were applied
/// (`identity` dropped). Up to four layers; more, or an unknown name, is unsupported.
pub fn parse(header: &str) -> Result<Vec<Coding>, DecodeError> {
    let mut codings = Vec::new();
    for name in header.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        let coding = match name.to_ascii_lowercase().as_str() {
            "identity" => continue,
            "gzip" | "x-gzip" => Coding::Gzip,
            "deflate" => Coding::Deflate,
            "br" => Coding::Brotli,
            "zstd" => Coding::Zstd,
            _ => return Err(DecodeError::Unsupported),
        };
        codings.push(coding);
    }
    if codings.len() > 4 {
        return Err(DecodeError::Unsupported);
    }
    Ok(codings)
}

/// Undoes `codings` (last applied first), each layer's output bounded by `limit`.
pub fn decode(body: &[u8], codings: &[Coding], limit: usize) -> Result<Vec<u8>, DecodeError> {
    let mut data = body.to_vec();
    for coding in codings.iter().rev() {
        data = decode_one(&data, *coding, limit)?;
    }
    Ok(data)
}

fn decode_one(data: &[u8], coding: Coding, limit: usize) -> Result<Vec<u8>, DecodeError> {
    match coding {
        Coding::Gzip => read_all(flate2::read::MultiGzDecoder::new(data), limit),
        Coding::Deflate => {
            // A zlib header: CM = 8, CINFO <= 7, and the 16-bit header a multiple of 31.
            let zlib = matches!(data, [cmf, flg, ..] if cmf & 0x0f == 8 && cmf >> 4 <= 7 && (u16::from(*cmf) << 8 | u16::from(*flg)) % 31 == 0);
            if zlib {
                read_all(flate2::read::ZlibDecoder::new(data), limit)
            } else {
                read_all(flate2::read::DeflateDecoder::new(data), limit)
            }
        }
        Coding::Brotli => read_all(brotli_decompressor::Decompressor::new(data, 4096), limit),
        Coding::Zstd => {
            let decoder = ruzstd::decoding::StreamingDecoder::new(data).map_err(|_| DecodeError::Corrupt)?;
            read_all(decoder, limit)
        }
    }
}

/// Reads `reader` to its end, failing once more than `limit` bytes came out.
fn read_all(reader: impl Read, limit: usize) -> Result<Vec<u8>, DecodeError> {
    let mut out = Vec::new();
    let cap = u64::try_from(limit).unwrap_or(u64::MAX).saturating_add(1);
    reader.take(cap).read_to_end(&mut out).map_err(|_| DecodeError::Corrupt)?;
    if out.len() > limit {
        return Err(DecodeError::TooLarge);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    const TEXT: &[u8] = br#"{"messages":[{"role":"user","content":"mail jane@example.com"}]}"#;

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    #[test]
    fn header_values() {
        assert_eq!(parse("gzip").unwrap(), vec![Coding::Gzip]);
        assert_eq!(parse(" GZIP , br,identity").unwrap(), vec![Coding::Gzip, Coding::Brotli]);
        assert_eq!(parse("x-gzip, deflate, zstd").unwrap(), vec![Coding::Gzip, Coding::Deflate, Coding::Zstd]);
        assert_eq!(parse("identity").unwrap(), vec![]);
        assert_eq!(parse("compress"), Err(DecodeError::Unsupported));
        assert_eq!(parse("gzip, x-foo"), Err(DecodeError::Unsupported));
        assert_eq!(parse("gzip,gzip,gzip,gzip,gzip"), Err(DecodeError::Unsupported));
    }

    #[test]
    fn gzip_and_both_deflates() {
        assert_eq!(decode(&gzip(TEXT), &[Coding::Gzip], 1024).unwrap(), TEXT);
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        z.write_all(TEXT).unwrap();
        assert_eq!(decode(&z.finish().unwrap(), &[Coding::Deflate], 1024).unwrap(), TEXT);
        let mut raw = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
        raw.write_all(TEXT).unwrap();
        assert_eq!(decode(&raw.finish().unwrap(), &[Coding::Deflate], 1024).unwrap(), TEXT);
    }

    /// `TEXT` as the reference implementations encode it (Google's brotli and
    /// Meta's zstd, through their Python bindings, default settings).
    #[test]
    fn brotli_and_zstd() {
        let br = hex("1b3f00a01c07ceb92b6e7210b8fe45d622655b7bddc6d6772dd7f58a1418b54e5f174bd8800387c083c007c37b031a95783e0fbb6e027fd510e1a0b3260640e9f500");
        assert_eq!(decode(&br, &[Coding::Brotli], 1024).unwrap(), TEXT);
        let zs = hex("28b52ffd20400102007b226d65737361676573223a5b7b22726f6c65223a2275736572222c22636f6e74656e74223a226d61696c206a616e65406578616d706c652e636f6d227d5d7d");
        assert_eq!(decode(&zs, &[Coding::Zstd], 1024).unwrap(), TEXT);
        assert_eq!(decode(&zs, &[Coding::Zstd], 10), Err(DecodeError::TooLarge));
    }

    fn hex(h: &str) -> Vec<u8> {
        (0..h.len()).step_by(2).map(|i| u8::from_str_radix(&h[i..i + 2], 16).unwrap()).collect()
    }

    #[test]
    fn layers_are_undone_last_first() {
        let twice = gzip(&gzip(TEXT));
        assert_eq!(decode(&twice, &[Coding::Gzip, Coding::Gzip], 1024).unwrap(), TEXT);
    }

    #[test]
    fn a_bomb_stops_at_the_limit() {
        let bomb = gzip(&vec![b'a'; 10 << 20]);
        assert!(bomb.len() < 64 << 10);
        assert_eq!(decode(&bomb, &[Coding::Gzip], 256 << 10), Err(DecodeError::TooLarge));
        assert_eq!(decode(&gzip(TEXT), &[Coding::Gzip], TEXT.len()).unwrap(), TEXT);
        assert_eq!(decode(&gzip(TEXT), &[Coding::Gzip], TEXT.len() - 1), Err(DecodeError::TooLarge));
    }

    /// RFC 4648 § 10 test vectors, both alphabets, with and without padding.
    #[test]
    fn corrupt_bodies_are_errors() {
        let mut bad = gzip(TEXT);
        let n = bad.len();
        bad.truncate(n / 2);
        assert_eq!(decode(&bad, &[Coding::Gzip], 1024), Err(DecodeError::Corrupt));
        assert_eq!(decode(b"plain text", &[Coding::Gzip], 1024), Err(DecodeError::Corrupt));
        assert_eq!(decode(b"plain text", &[Coding::Zstd], 1024), Err(DecodeError::Corrupt));
        assert!(decode(b"\xff\xff\xff\xff", &[Coding::Brotli], 1024).is_err());
    }
}
