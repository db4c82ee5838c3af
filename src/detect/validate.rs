//! Checksums and structural checks that turn a pattern match into a finding.
//!
//! A regex says "looks like"; a validator says "is". Each function sees only the
//! matched bytes and returns a verdict, never storing or reporting them.

/// Post-match checks, selected per rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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
}

impl Validator {
    /// The length of the longest valid prefix of `matched` this validator accepts, if
    /// any. Only payment cards shorten a match: a greedy digit-group pattern can run
    /// into the next number ("4111 1111 1111 1111 123-45-6789"), so each shorter
    /// group boundary is tried, longest first.
    pub fn accept(self, matched: &[u8]) -> Option<usize> {
        if self != Validator::PaymentCard {
            return self.check(matched).then_some(matched.len());
        }
        let ends = matched
            .iter()
            .enumerate()
            .filter(|(_, b)| !b.is_ascii_digit())
            .map(|(i, _)| i)
            .chain(std::iter::once(matched.len()))
            .collect::<Vec<_>>();
        ends.into_iter().rev().find(|&end| matched.get(..end).is_some_and(payment_card))
    }

    pub fn check(self, matched: &[u8]) -> bool {
        match self {
            Validator::None => true,
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
    let Some(decoded) = base64url(header) else { return false };
    let text = String::from_utf8_lossy(&decoded);
    text.trim_start().starts_with('{') && text.contains("\"alg\"")
}

fn mac(matched: &[u8]) -> bool {
    let seps: Vec<u8> = matched.iter().copied().filter(|b| *b == b':' || *b == b'-').collect();
    let same_sep = seps.windows(2).all(|w| w.first() == w.last());
    let hex: Vec<u8> = matched.iter().copied().filter(u8::is_ascii_hexdigit).collect();
    let all = |c: u8| hex.iter().all(|h| h.eq_ignore_ascii_case(&c));
    same_sep && !all(b'0') && !all(b'f')
}

fn digits(matched: &[u8]) -> Vec<u8> {
    matched.iter().filter(|b| b.is_ascii_digit()).map(|b| b - b'0').collect()
}

/// The Luhn (mod 10) check over decimal digits, ISO/IEC 7812-1 annex B.
pub fn luhn(digits: &[u8]) -> bool {
    let mut sum = 0u32;
    for (i, &d) in digits.iter().rev().enumerate() {
        let mut v = u32::from(d);
        if i % 2 == 1 {
            v *= 2;
            if v > 9 {
                v -= 9;
            }
        }
        sum += v;
    }
    !digits.is_empty() && sum % 10 == 0
}

fn payment_card(matched: &[u8]) -> bool {
    let d = digits(matched);
    if !(13..=19).contains(&d.len()) || !luhn(&d) {
        return false;
    }
    let prefix = |n: usize| d.iter().take(n).fold(0u32, |acc, &x| acc * 10 + u32::from(x));
    let len = d.len();
    let p2 = prefix(2);
    let p3 = prefix(3);
    let p4 = prefix(4);
    let p6 = prefix(6);
    let visa = d.first() == Some(&4) && matches!(len, 13 | 16 | 19);
    let mastercard = ((51..=55).contains(&p2) || (222_100..=272_099).contains(&p6)) && len == 16;
    let amex = (p2 == 34 || p2 == 37) && len == 15;
    let discover = (p4 == 6011 || p2 == 65 || (644..=649).contains(&p3)) && (16..=19).contains(&len);
    let jcb = (3528..=3589).contains(&p4) && (16..=19).contains(&len);
    let diners = ((300..=305).contains(&p3) || p2 == 36 || p2 == 38 || p2 == 39) && (14..=19).contains(&len);
    visa || mastercard || amex || discover || jcb || diners
}

fn ssn(matched: &[u8]) -> bool {
    let d = digits(matched);
    if d.len() != 9 {
        return false;
    }
    let num = |r: std::ops::Range<usize>| {
        d.get(r).map_or(0, |s| s.iter().fold(0u32, |acc, &x| acc * 10 + u32::from(x)))
    };
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payment_cards() {
        let table: &[(&str, bool)] = &[
            ("4111 1111 1111 1111", true),    // Visa test number
            ("4111-1111-1111-1112", false),   // Luhn fails
            ("5555555555554444", true),       // Mastercard
            ("2223003122003222", true),       // Mastercard 2-series
            ("378282246310005", true),        // Amex
            ("6011111111111117", true),       // Discover
            ("3530111333300000", true),       // JCB
            ("36227206271667", true),         // Diners
            ("1234567812345670", false),      // Luhn ok, no issuer
            ("411111111111", false),          // too short
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
    fn ipv4s() {
        for (input, want) in [("10.0.0.1", true), ("10.0.0.256", false), ("10.01.0.1", false), ("10.0.1", false)] {
            assert_eq!(Validator::Ipv4.check(input.as_bytes()), want, "{input}");
        }
    }
}
