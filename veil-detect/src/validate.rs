//! Checksums and structural checks that turn a pattern match into a finding.
//!
//! A regex says "looks like"; a validator says "is". Each function sees only the
//! matched bytes and returns a verdict, never storing or reporting them.

/// Post-match checks, selected per rule.
#[derive(Debug, Clone, Copy)]
pub enum Validator {
    /// No check beyond the pattern.
    None,
    /// Payment card: 13–19 digits (separators ignored), a known issuer prefix, Luhn.
    PaymentCard,
    /// US SSN: area not 000, 666 or 9xx; group not 00; serial not 0000.
    Ssn,
    /// IPv4 dotted quad with every octet ≤ 255 and no leading zeros.
    Ipv4,
    /// Phone number: 10 to 15 digits in all.
    Phone,
    /// IBAN: ISO 13616 mod-97 check (separators ignored), 15–34 characters.
    Iban,
    /// JWT: the first segment is base64url JSON with an `alg` member.
    Jwt,
    /// MAC address: one separator kind throughout, not all zeros or all ones.
    Mac,
    /// A public IPv4 address: a valid dotted quad outside private, loopback,
    /// link-local, shared (CGNAT), documentation-free "this network" and multicast/reserved ranges.
    PublicIpv4,
    /// A valid IPv6 address (RFC 4291 text form) that is globally routable.
    PublicIpv6,
    /// A valid IPv6 address that is loopback, unique-local (fc00::/7) or link-local (fe80::/10).
    PrivateIpv6,
    /// A passport or licence number: 6–16 characters with at least four digits.
    DocumentNumber,
    /// A calendar date: month 1–12, day valid for it, year 1900–2099 (or two digits).
    Date,
    /// A random-looking secret: 16+ characters, at least two of lower, upper and
    /// digits, and at least 3.0 bits of Shannon entropy per character.
    Entropy,
    /// A check written beside its rule (national identifiers, vendor formats): the
    /// function sees only the matched bytes.
    Code(fn(&[u8]) -> bool),
}

/// A Luhn digit doubled: `2d`, less 9 when that has two digits ([`luhn`] and
/// `rules::next_card`).
pub(super) const DOUBLED: [u8; 10] = [0, 2, 4, 6, 8, 1, 3, 5, 7, 9];

impl Validator {
    /// The length of the longest valid prefix of `matched` this validator accepts, if
    /// any. Only payment cards shorten a match: a greedy digit-group pattern can run
    /// into the next number ("4111 1111 1111 1111 123-45-6789"), so each shorter
    /// group boundary is tried, longest first.
    pub fn accept(self, matched: &[u8]) -> Option<usize> {
        if !matches!(self, Validator::PaymentCard) {
            return self.check(matched).then_some(matched.len());
        }
        // The longest prefix ending at the end or just before a separator that is a
        // card: the whole match, else the prefix of `n` digits that ends before the
        // last non-digit byte between digit `n` and digit `n + 1`, `n` from 19 down.
        // One pass over at most twenty digits, no allocation. (A scan asks this only
        // of the cards `rules::next_card` found.)
        let mut first = [0u8; 19];
        // Where digit `k` is, for the first twenty.
        let mut at = [0usize; 20];
        let mut total = 0;
        for (i, &b) in matched.iter().enumerate() {
            if !b.is_ascii_digit() {
                continue;
            }
            if let Some(slot) = first.get_mut(total) {
                *slot = b - b'0';
            }
            match at.get_mut(total) {
                Some(slot) => *slot = i,
                None => break,
            }
            total += 1;
        }
        if total < 13 {
            return None;
        }
        // The issuers and their lengths are the same for every candidate (they share
        // the first six digits): Luhn only at a length some issuer uses.
        let issued = issued_lengths(&first);
        (13..=total.min(19)).rev().find_map(|n| {
            let end = if n == total {
                matched.len()
            } else {
                // Digit `n + 1` (0-based `n`) is there: a candidate if a non-digit
                // comes before it.
                let next = at.get(n).copied()?;
                (next > at.get(n - 1).copied()? + 1).then_some(next - 1)?
            };
            (issued >> n & 1 == 1 && first.get(..n).is_some_and(luhn)).then_some(end)
        })
    }

    pub fn check(self, matched: &[u8]) -> bool {
        match self {
            Validator::None => true,
            Validator::Code(check) => check(matched),
            Validator::PaymentCard => payment_card(matched),
            Validator::Ssn => ssn(matched),
            Validator::Ipv4 => ipv4(matched),
            Validator::Phone => {
                let n = matched.iter().filter(|b| b.is_ascii_digit()).count();
                (10..=15).contains(&n)
            }
            Validator::Iban => iban(matched),
            Validator::Jwt => jwt(matched),
            Validator::Mac => mac(matched),
            Validator::PublicIpv4 => ipv4(matched) && public_ipv4(matched),
            // An IPv4-mapped address (`::ffff:8.8.8.8`) is the IPv4 address it carries.
            Validator::PublicIpv6 => ipv6(matched).is_some_and(|a| match a.to_ipv4_mapped() {
                Some(v4) => public_ipv4(v4.to_string().as_bytes()),
                None => !private_ipv6(&a) && global_ipv6(&a),
            }),
            Validator::PrivateIpv6 => ipv6(matched).is_some_and(|a| match a.to_ipv4_mapped() {
                Some(v4) => v4.is_private() || v4.is_loopback() || v4.is_link_local(),
                None => private_ipv6(&a),
            }),
            Validator::DocumentNumber => {
                (6..=16).contains(&matched.len()) && matched.iter().filter(|b| b.is_ascii_digit()).count() >= 4
            }
            Validator::Date => date(matched),
            Validator::Entropy => entropy(matched),
        }
    }
}

fn iban(matched: &[u8]) -> bool {
    let chars: Vec<u8> = matched.iter().copied().filter(|b| *b != b' ').collect();
    if !(15..=34).contains(&chars.len()) || !chars.iter().all(u8::is_ascii_alphanumeric) {
        return false;
    }
    // Move the first four characters to the end; letters count as 10..35.
    let (head, tail) = chars.split_at(4);
    let mut rem: u32 = 0;
    for &c in tail.iter().chain(head) {
        let v = match c {
            b'0'..=b'9' => u32::from(c - b'0'),
            b'A'..=b'Z' => u32::from(c - b'A') + 10,
            _ => return false,
        };
        rem = if v >= 10 { (rem * 100 + v) % 97 } else { (rem * 10 + v) % 97 };
    }
    rem == 1
}

/// Decodes unpadded base64url; `None` on a byte outside the alphabet.
fn base64url(input: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(input.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0u32);
    for &c in input {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'-' => 62,
            b'_' => 63,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Some(out)
}

fn jwt(matched: &[u8]) -> bool {
    let header = matched.split(|&b| b == b'.').next().unwrap_or_default();
    let Some(decoded) = base64url(header) else {
        return false;
    };
    let text = String::from_utf8_lossy(&decoded);
    text.trim_start().starts_with('{') && text.contains("\"alg\"")
}

fn mac(matched: &[u8]) -> bool {
    // `hh:hh:…`, `hh-hh-…` or Cisco's `hhhh.hhhh.hhhh`: one separator kind throughout.
    let seps: Vec<u8> = matched.iter().copied().filter(|b| *b == b':' || *b == b'-' || *b == b'.').collect();
    let same_sep = seps.windows(2).all(|w| w.first() == w.last());
    let hex: Vec<u8> = matched.iter().copied().filter(u8::is_ascii_hexdigit).collect();
    let all = |c: u8| hex.iter().all(|h| h.eq_ignore_ascii_case(&c));
    // A dotted run of digits only is a version or a number more often than a MAC.
    let dotted_digits = seps.first() == Some(&b'.') && hex.iter().all(u8::is_ascii_digit);
    same_sep && !all(b'0') && !all(b'f') && !dotted_digits
}

fn digits(matched: &[u8]) -> Vec<u8> {
    matched.iter().filter(|b| b.is_ascii_digit()).map(|b| b - b'0').collect()
}

/// The Luhn (mod 10) check over decimal digits, ISO/IEC 7812-1 annex B.
pub fn luhn(digits: &[u8]) -> bool {
    let mut sum = 0u32;
    for (i, &d) in digits.iter().rev().enumerate() {
        let doubled = if i % 2 == 1 { DOUBLED.get(usize::from(d)).copied() } else { None };
        sum += u32::from(doubled.unwrap_or(d));
    }
    !digits.is_empty() && sum % 10 == 0
}

fn payment_card(matched: &[u8]) -> bool {
    card_digits(&digits(matched))
}

/// 13 to 19 digit values that pass Luhn and begin with an issuer's prefix at a length
/// that issuer uses.
fn card_digits(d: &[u8]) -> bool {
    (13..=19).contains(&d.len()) && issued_lengths(d) >> d.len() & 1 == 1 && luhn(d)
}

/// The card lengths (bit `n`: `n` digits) that the issuers whose prefixes `d` begins
/// with use. Only `d`'s first six digits count, so every prefix of a digit run long
/// enough to be a card (13 digits or more) has the same answer.
pub(super) fn issued_lengths(d: &[u8]) -> u32 {
    let prefix = |n: usize| d.iter().take(n).fold(0u32, |acc, &x| acc * 10 + u32::from(x));
    let lengths = |lo: u32, hi: u32| (lo..=hi).fold(0u32, |m, n| m | 1 << n);
    let when = |issuer: bool, lengths: u32| if issuer { lengths } else { 0 };
    // By the first digit, which tells most issuers apart (a scan asks this at every
    // start of a long digit run).
    match d.first() {
        // UATP.
        Some(1) => 1 << 15,
        // Mastercard's 2-series; Mir.
        Some(2) => {
            when((222_100..=272_099).contains(&prefix(6)), 1 << 16)
                | when((2200..=2204).contains(&prefix(4)), lengths(16, 19))
        }
        Some(3) => {
            let (p2, p3, p4) = (prefix(2), prefix(3), prefix(4));
            // American Express; JCB (and RuPay's 353 and 356 inside it); Diners Club.
            when(p2 == 34 || p2 == 37, 1 << 15)
                | when((3528..=3589).contains(&p4), lengths(16, 19))
                | when((300..=305).contains(&p3) || matches!(p2, 36 | 38 | 39), lengths(14, 19))
        }
        // Visa.
        Some(4) => 1 << 13 | 1 << 16 | 1 << 19,
        // Mastercard 51–55; Maestro 50 and 56–59, whose 13 to 19 digits hold Dankort's
        // 5019, RuPay's 508 and Verve's 506099–506198.
        Some(5) => {
            if (51..=55).contains(&prefix(2)) {
                1 << 16
            } else {
                lengths(13, 19)
            }
        }
        // Maestro 60–69, whose 13 to 19 digits hold Discover, UnionPay, RuPay's 60,
        // Troy's 65 and Verve's 650002–650027. (Maestro's 12-digit cards count only
        // near a card word: `pii.credit_card.maestro12.v1`.)
        Some(6) => lengths(13, 19),
        // RuPay.
        Some(8) => when(matches!(prefix(2), 81 | 82), 1 << 16),
        // Troy.
        Some(9) => when(prefix(4) == 9792, 1 << 16),
        _ => 0,
    }
}

/// An ITIN written any way: nine digits, 9 first, the IRS group (digits 4–5) in 50–65,
/// 70–88, 90–92 or 94–99.
pub fn itin(matched: &[u8]) -> bool {
    let d = digits(matched);
    let group = d.get(3..5).map_or(0, |g| g.iter().fold(0u32, |acc, &x| acc * 10 + u32::from(x)));
    d.len() == 9 && d.first() == Some(&9) && matches!(group, 50..=65 | 70..=88 | 90..=92 | 94..=99)
}

/// Base64 that decodes to a printable `user:password` (HTTP Basic credentials, RFC 7617).
pub fn basic_credentials(matched: &[u8]) -> bool {
    let Some((decoded, _)) = crate::base64::decode(matched) else {
        return false;
    };
    let colon = decoded.iter().position(|&b| b == b':');
    let printable = decoded.iter().all(|&b| (0x20..0x7f).contains(&b) || b >= 0x80);
    printable && colon.is_some_and(|c| c > 0 && decoded.len() - c > 3)
}

/// A PEM block with a body: at least 8 base64 characters between its lines, and no
/// placeholder (`<your private key>`, `...`).
pub fn pem_body(matched: &[u8]) -> bool {
    let body_start = matched.iter().skip(5).position(|&b| b == b'-').map_or(0, |p| p + 5);
    let body_start =
        matched.get(body_start..).and_then(|m| m.iter().position(|&b| b != b'-')).map_or(0, |p| p + body_start);
    let end = matched.windows(8).rposition(|w| w == b"-----END").unwrap_or(matched.len());
    let body = matched.get(body_start..end).unwrap_or_default();
    let b64 = body.iter().filter(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=')).count();
    let placeholder = body.contains(&b'<') || memchr::memmem::find(body, b"...").is_some();
    b64 >= 8 && !placeholder
}

/// A 12-digit Maestro number: prefix 50 or 56–69, Luhn.
pub fn maestro12(matched: &[u8]) -> bool {
    let d = digits(matched);
    let p2 = d.iter().take(2).fold(0u32, |acc, &x| acc * 10 + u32::from(x));
    d.len() == 12 && (p2 == 50 || (56..=69).contains(&p2)) && luhn(&d)
}

fn ssn(matched: &[u8]) -> bool {
    let d = digits(matched);
    if d.len() != 9 {
        return false;
    }
    let num =
        |r: std::ops::Range<usize>| d.get(r).map_or(0, |s| s.iter().fold(0u32, |acc, &x| acc * 10 + u32::from(x)));
    let (area, group, serial) = (num(0..3), num(3..5), num(5..9));
    area != 0 && area != 666 && area < 900 && group != 0 && serial != 0
}

fn ipv4(matched: &[u8]) -> bool {
    let mut count = 0;
    for octet in matched.split(|&b| b == b'.') {
        count += 1;
        if octet.is_empty() || octet.len() > 3 || (octet.len() > 1 && octet.first() == Some(&b'0')) {
            return false;
        }
        let v = octet.iter().fold(0u32, |acc, &b| acc * 10 + u32::from(b.wrapping_sub(b'0')));
        if v > 255 || !octet.iter().all(u8::is_ascii_digit) {
            return false;
        }
    }
    count == 4
}

/// The first two dotted numbers of an address (`0` for one that is missing).
fn first_octets(matched: &[u8]) -> (u32, u32) {
    let mut octets = matched
        .split(|&b| b == b'.')
        .map(|o| o.iter().fold(0u32, |acc, &b| acc * 10 + u32::from(b.wrapping_sub(b'0'))));
    (octets.next().unwrap_or(0), octets.next().unwrap_or(0))
}

fn public_ipv4(matched: &[u8]) -> bool {
    let (a, b) = first_octets(matched);
    let private = a == 10
        || a == 127
        || (a == 172 && (16..=31).contains(&b))
        || (a == 192 && b == 168)
        || (a == 169 && b == 254)
        || (a == 100 && (64..=127).contains(&b))
        || a == 0
        || a >= 224;
    !private
}

fn ipv6(matched: &[u8]) -> Option<std::net::Ipv6Addr> {
    let text = std::str::from_utf8(matched).ok()?;
    let addr: std::net::Ipv6Addr = text.parse().ok()?;
    // Short forms such as `a::b` or `dead::beef` are as likely to be code (`std::io`
    // does not parse, but `ab::cd` does): ask for three groups written out, or a `::`
    // with a well-known prefix.
    let groups = text.split(':').filter(|g| !g.is_empty()).count();
    let lower = text.to_ascii_lowercase();
    let known = lower == "::1"
        || lower.starts_with("::ffff:")
        || lower.starts_with("fe80:")
        || lower.starts_with("fc")
        || lower.starts_with("fd")
        || lower.starts_with("2001:");
    (groups >= 3 || known).then_some(addr)
}

fn private_ipv6(a: &std::net::Ipv6Addr) -> bool {
    let first = a.segments().first().copied().unwrap_or(0);
    a.is_loopback() || (first & 0xfe00) == 0xfc00 || (first & 0xffc0) == 0xfe80
}

fn global_ipv6(a: &std::net::Ipv6Addr) -> bool {
    let first = a.segments().first().copied().unwrap_or(0);
    // Global unicast is 2000::/3; everything else (unspecified, multicast, v4-mapped, …) is not an address of a person.
    (first & 0xe000) == 0x2000
}

fn date(matched: &[u8]) -> bool {
    // Month names in the ten languages of the birth words, by their stems: the first
    // stem in this list that the text contains names the month (longer, more specific
    // stems first; Turkish and Polish stems last).
    const MONTHS: &[(&str, u32)] = &[
        ("juin", 6),
        ("juil", 7),
        ("janv", 1),
        ("f\u{e9}v", 2),
        ("m\u{e4}r", 3),
        ("maerz", 3),
        ("maart", 3),
        ("ao\u{fb}", 8),
        ("d\u{e9}c", 12),
        ("jan", 1),
        ("feb", 2),
        ("fev", 2),
        ("mar", 3),
        ("apr", 4),
        ("avr", 4),
        ("abr", 4),
        ("may", 5),
        ("mai", 5),
        ("mag", 5),
        ("mei", 5),
        ("maj", 5),
        ("jun", 6),
        ("giu", 6),
        ("jul", 7),
        ("lug", 7),
        ("aug", 8),
        ("ago", 8),
        ("sep", 9),
        ("set", 9),
        ("oct", 10),
        ("okt", 10),
        ("ott", 10),
        ("out", 10),
        ("nov", 11),
        ("dec", 12),
        ("dez", 12),
        ("dic", 12),
        ("ene", 1),
        ("gen", 1),
        ("sty", 1),
        ("lut", 2),
        ("kwi", 4),
        ("cze", 6),
        ("lip", 7),
        ("sie", 8),
        ("wrz", 9),
        ("pa\u{17a}", 10),
        ("lis", 11),
        ("gru", 12),
        ("oca", 1),
        ("\u{15f}ub", 2),
        ("nis", 4),
        ("haz", 6),
        ("tem", 7),
        ("a\u{11f}u", 8),
        ("eyl", 9),
        ("eki", 10),
        ("kas", 11),
        ("ara", 12),
    ];
    let lower = matched.to_ascii_lowercase();
    let numbers: Vec<u32> = lower
        .split(|b| !b.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .map(|s| s.iter().take(6).fold(0u32, |acc, &b| acc * 10 + u32::from(b - b'0')))
        .collect();
    let named = MONTHS.iter().find(|(m, _)| lower.windows(m.len()).any(|w| w == m.as_bytes())).map(|&(_, n)| n - 1);
    let (year, month, day) = match (named, numbers.as_slice()) {
        (Some(m), [a, b]) if *a > 31 => (*a, m + 1, *b),
        (Some(m), [d, y]) => (*y, m + 1, *d),
        (None, [y, m, d]) if *y > 31 => (*y, *m, *d),
        // US order first (MM/DD), then day-first.
        (None, [m, d, y]) if *m <= 12 => (*y, *m, *d),
        (None, [d, m, y]) => (*y, *m, *d),
        _ => return false,
    };
    let year_ok = year < 100 || (1900..=2099).contains(&year);
    let days = match month {
        2 => 29,
        4 | 6 | 9 | 11 => 30,
        1..=12 => 31,
        _ => return false,
    };
    year_ok && (1..=days).contains(&day)
}

fn entropy(matched: &[u8]) -> bool {
    if matched.len() < 16 {
        return false;
    }
    let lower = matched.iter().any(u8::is_ascii_lowercase);
    let upper = matched.iter().any(u8::is_ascii_uppercase);
    let digit = matched.iter().any(u8::is_ascii_digit);
    if u8::from(lower) + u8::from(upper) + u8::from(digit) < 2 {
        return false;
    }
    // Hex digests (git hashes, checksums, UUIDs without dashes) are ids, not secrets.
    if matched.iter().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(b)) {
        return false;
    }
    let mut counts = [0u32; 256];
    for &b in matched {
        if let Some(c) = counts.get_mut(usize::from(b)) {
            *c += 1;
        }
    }
    let n = matched.len() as f32;
    let bits: f32 = counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = c as f32 / n;
            -p * p.log2()
        })
        .sum();
    bits >= 3.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payment_cards() {
        let table: &[(&str, bool)] = &[
            ("4111 1111 1111 1111", true),  // Visa test number
            ("4111-1111-1111-1112", false), // Luhn fails
            ("5555555555554444", true),     // Mastercard
            ("2223003122003222", true),     // Mastercard 2-series
            ("378282246310005", true),      // Amex
            ("6011111111111117", true),     // Discover
            ("3530111333300000", true),     // JCB
            ("36227206271667", true),       // Diners
            ("1234567812345670", false),    // Luhn ok, no issuer
            ("411111111111", false),        // too short
        ];
        for (input, want) in table {
            assert_eq!(Validator::PaymentCard.check(input.as_bytes()), *want, "{input}");
        }
    }

    #[test]
    fn card_matches_shrink_to_a_valid_prefix() {
        let v = Validator::PaymentCard;
        assert_eq!(v.accept(b"4111 1111 1111 1111 123"), Some(19));
        assert_eq!(v.accept(b"4111-1111-1111-1111"), Some(19));
        assert_eq!(v.accept(b"4111 1111 1111 1112 123"), None);
        // Two bytes between groups: the prefix ends before the last of them.
        assert_eq!(v.accept(b"4111 1111 1111 1111 -123"), Some(20));
        // More than 19 digits: the longest prefix that is a card.
        assert_eq!(v.accept(b"4111 1111 1111 1111 1234 5678"), Some(19));
        // Only lengths an issuer uses pay Luhn: `1…` is UATP, 15 digits.
        assert_eq!(v.accept("1-".repeat(18).as_bytes()), None);
        assert_eq!(v.accept(b"1-0-0-0-0-0-0-0-0-0-0-0-0-0-9-5-5"), Some(29));
        assert_eq!(v.accept(b"100000000000009 55"), Some(15));
        assert_eq!(Validator::Ssn.accept(b"123-45-6789"), Some(11));
    }

    #[test]
    fn ibans_jwts_macs() {
        assert!(Validator::Iban.check(b"GB82 WEST 1234 5698 7654 32"));
        assert!(Validator::Iban.check(b"DE89370400440532013000"));
        assert!(!Validator::Iban.check(b"GB82 WEST 1234 5698 7654 33"));
        assert!(Validator::Jwt.check(b"eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJlX2J5dGVz"));
        assert!(!Validator::Jwt.check(b"eyJub3RoaW5nIjoxfQ.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJl"));
        assert!(Validator::Mac.check(b"3C:22:FB:1A:9E:07"));
        assert!(!Validator::Mac.check(b"3C:22-FB:1A:9E:07"));
        assert!(!Validator::Mac.check(b"00:00:00:00:00:00"));
    }

    #[test]
    fn ssns() {
        let table: &[(&str, bool)] = &[
            ("123-45-6789", true),
            ("000-12-3456", false),
            ("666-12-3456", false),
            ("912-12-3456", false),
            ("123-00-4567", false),
            ("123-45-0000", false),
        ];
        for (input, want) in table {
            assert_eq!(Validator::Ssn.check(input.as_bytes()), *want, "{input}");
        }
    }

    #[test]
    fn new_validators() {
        assert!(Validator::PublicIpv4.check(b"8.8.8.8"));
        assert!(!Validator::PublicIpv4.check(b"10.1.2.3"));
        assert!(!Validator::PublicIpv4.check(b"100.64.0.1"));
        assert!(Validator::PublicIpv6.check(b"2001:db8:85a3::8a2e:370:7334"));
        assert!(!Validator::PublicIpv6.check(b"fe80::1"));
        assert!(Validator::PrivateIpv6.check(b"fe80::1"));
        assert!(Validator::PrivateIpv6.check(b"fd12:3456:789a::1"));
        assert!(!Validator::PublicIpv6.check(b"ab::cd"));
        assert!(!Validator::PublicIpv6.check(b"12:30:45"));
        for (d, ok) in [
            ("1985-03-14", true),
            ("03/14/1985", true),
            ("14.03.1985", true),
            ("March 14, 1985", true),
            ("14 March 1985", true),
            ("1985-13-01", false),
            ("02/30/1985", false),
            ("Feb 30, 1990", false),
        ] {
            assert_eq!(Validator::Date.check(d.as_bytes()), ok, "{d}");
        }
        assert!(Validator::Entropy.check(b"wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"));
        assert!(!Validator::Entropy.check(b"aaaaaaaaaaaaaaaaaaaaaaaa"));
        assert!(!Validator::Entropy.check(b"3f9a1c0de1b2c3d4e5f60718293a4b5c6d7e8f90"));
        assert!(Validator::DocumentNumber.check(b"X12345678"));
        assert!(!Validator::DocumentNumber.check(b"ABCDEFG"));
    }

    #[test]
    fn ipv4s() {
        for (input, want) in [("10.0.0.1", true), ("10.0.0.256", false), ("10.01.0.1", false), ("10.0.1", false)] {
            assert_eq!(Validator::Ipv4.check(input.as_bytes()), want, "{input}");
        }
    }
}
