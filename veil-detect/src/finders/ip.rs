//! IP addresses: hand-written equivalents of the IPv4 patterns, and the windows an IPv6
//! address may be in.

use super::digits::{leftmost, word_at};
use crate::engine::text::{block_bits, shifted, Mark, Needs, Text};
use crate::rule::{push_window, WindowFinder};

/// IPv6 windows: around every `:` with a hex digit beside it and another `:` within
/// five bytes (`::`, `h:h:h`); merged. An address is at most 39 bytes long.
pub fn ipv6_windows(t: &Text<'_>) -> Vec<(usize, usize)> {
    let text = t.bytes();
    let hex = |i: usize| text.get(i).is_some_and(u8::is_ascii_hexdigit);
    let mut windows: Vec<(usize, usize)> = Vec::new();
    let word = |i: usize| text.get(i).is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_');
    // `h:h:h:h`: four colons, each after one to four hex digits.
    let groups = |at: usize| {
        let mut p = at;
        for _ in 0..3 {
            let run = text.get(p + 1..(p + 6).min(text.len())).and_then(|t| t.iter().position(|&b| b == b':'));
            match run {
                Some(n) if n >= 1 && (1..=n).all(|k| hex(p + k)) => p += n + 1,
                _ => return false,
            }
        }
        true
    };
    // By the masks first: a `:` with a `:` right after it, or with a letter or digit
    // before it and another `:` two to five bytes on (a YAML key's lone `:` is none).
    let (colons, alnum) = (t.mark_masks(Mark::Colon), t.alnum_masks());
    let candidates = block_bits(colons, |b, colon| {
        let near = (2..=5).fold(0, |m, k| m | shifted(colons, b, k));
        colon & (shifted(colons, b, 1) | (shifted(alnum, b, -1) & near))
    });
    for at in candidates {
        // `::` with hex on one side and not a word on the other (`fe80::1`, `::1`,
        // `2001:db8::`), never `Vec::new` or `std::io`.
        let double = text.get(at + 1) == Some(&b':') && {
            let (before, after) = (at > 0 && hex(at - 1), hex(at + 2));
            (before && (after || !word(at + 2))) || (after && (at == 0 || !word(at - 1)))
        };
        if double || (at > 0 && hex(at - 1) && groups(at)) {
            let (s, e) = (at.saturating_sub(40), (at + 41).min(text.len()));
            push_window(&mut windows, s, e);
        }
    }
    windows
}

/// [`ipv6_windows`] as a rule's window finder; it finds nothing without a `:` (an
/// operator byte).
pub const IPV6_WINDOWS: WindowFinder = WindowFinder { find: ipv6_windows, needs: Needs::OPERATOR };

/// The end of the run of digits at `at` if it is 1 to 3 long (a `\d{1,3}` that the
/// next byte must end: a `.`, or a `\b`).
fn octet(hay: &[u8], at: usize) -> Option<usize> {
    let run = hay.get(at..)?.iter().take(4).take_while(|b| b.is_ascii_digit()).count();
    (1..=3).contains(&run).then_some(at + run)
}

/// `(?:\.\d{1,3}){n}\b` at `at`: the end.
fn dotted_octets(hay: &[u8], mut at: usize, n: usize) -> Option<usize> {
    for _ in 0..n {
        if hay.get(at) != Some(&b'.') {
            return None;
        }
        at = octet(hay, at + 1)?;
    }
    (!word_at(hay, at)).then_some(at)
}

/// `\b\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\b` (any IPv4 address).
pub fn find_ipv4(hay: &[u8], from: usize) -> Option<(usize, usize)> {
    leftmost(hay, from, |at| dotted_octets(hay, octet(hay, at)?, 3))
}

/// `\b` [`PRIVATE_IPV4`] `\b`: 10/8, 172.16/12, 192.168/16, 127/8, 169.254/16.
pub fn find_private_ipv4(hay: &[u8], from: usize) -> Option<(usize, usize)> {
    leftmost(hay, from, |at| {
        let rest = hay.get(at..)?;
        if rest.starts_with(b"10.") {
            dotted_octets(hay, at + 2, 3)
        } else if rest.starts_with(b"127.") {
            dotted_octets(hay, at + 3, 3)
        } else if rest.starts_with(b"192.168.") || rest.starts_with(b"169.254.") {
            dotted_octets(hay, at + 7, 2)
        } else if rest.starts_with(b"172.") {
            let second = matches!(rest.get(4..6)?, [b'1', b'6'..=b'9'] | [b'2', b'0'..=b'9'] | [b'3', b'0' | b'1']);
            if second {
                dotted_octets(hay, at + 6, 2)
            } else {
                None
            }
        } else {
            None
        }
    })
}
