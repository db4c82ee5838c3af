//! Payment cards: the hand-written equivalent of the card pattern, and the search that
//! fuses it with the Luhn check ([`next_card`]).

use super::digits::{leftmost, word_at};
use crate::validate::{issued_lengths, DOUBLED};

/// `\b(?:\d[ .-]?){12,18}\d\b` (ASCII `\b`): 13 to 19 digits, each but the last
/// optionally followed by one space, dash or dot; the longest such run from a word start
/// that ends at a word boundary.
pub fn find_card(hay: &[u8], from: usize) -> Option<(usize, usize)> {
    leftmost(hay, from, |start| {
        // The end of each digit of the chain, up to 19.
        let mut ends = [0usize; 19];
        let mut count = 0;
        let mut at = start;
        while let Some(end) = ends.get_mut(count) {
            *end = at + 1;
            count += 1;
            let next = if matches!(hay.get(at + 1), Some(b' ' | b'-' | b'.')) { at + 2 } else { at + 1 };
            if !hay.get(next).is_some_and(u8::is_ascii_digit) {
                break;
            }
            at = next;
        }
        (13..=count).rev().filter_map(|n| ends.get(n - 1).copied()).find(|&end| !word_at(hay, end))
    })
}

/// The next payment card at or after `from`: what [`Rule::search`] finds calling
/// [`find_card`] and [`Validator::PaymentCard`] one start after another (the first
/// start whose match the validator accepts, to the end of the prefix it accepts), in
/// one pass over each chain of digits (at most one space, dash or dot between two). A
/// run like `1-1-1-…` starts a candidate at every digit, and each start read its 19
/// digits twice; here each digit is read once, with Luhn's sums of the chain so far,
/// and a start costs its issuer and one sum per length an issuer uses.
///
/// A start's candidates are its prefixes of 13 to 19 digits that end at a word
/// boundary: `find_card`'s match is the longest, and the validator shortens it only
/// before a separator, which is a boundary; the validator takes the longest that is a
/// card.
///
/// [`Rule::search`]: crate::engine::compiled::Rule
pub fn next_card(hay: &[u8], from: usize) -> Option<(usize, usize)> {
    /// Chain digits kept: a start reads its 19 and the sums after them.
    const RING: usize = 32;
    // Luhn's sums by slot: the digits at even and at odd places of the chain, as they
    // are and doubled. A prefix's last digit is not doubled, the one before it is, and
    // so on: the sums of the last digit's parity count plain, the others doubled.
    let add = |sums: &mut [u32; 4], slot: usize, by: u8| {
        if let Some(sum) = sums.get_mut(slot) {
            *sum = sum.wrapping_add(u32::from(by));
        }
    };
    let mut at = from;
    loop {
        let first = at + hay.get(at..)?.iter().position(u8::is_ascii_digit)?;
        // Chain digit `j` at `j % RING`: its place and value, and the sums of the
        // chain's digits before it. The sums wrap: only differences over at most 19
        // digits are read, and those are exact.
        let mut place = [0usize; RING];
        let mut value = [0u8; RING];
        let mut sums_before = [[0u32; 4]; RING];
        let mut sums = [0u32; 4];
        let (mut read, mut next, mut ended) = (0usize, first, false);
        let mut start = 0usize;
        loop {
            while !ended && read < start + 20 {
                let d = hay.get(next).map_or(0, |b| b.wrapping_sub(b'0'));
                if let (Some(p), Some(v)) = (place.get_mut(read % RING), value.get_mut(read % RING)) {
                    (*p, *v) = (next, d);
                }
                add(&mut sums, read & 1, d);
                add(&mut sums, 2 + (read & 1), DOUBLED.get(usize::from(d)).copied().unwrap_or(0));
                read += 1;
                if let Some(slot) = sums_before.get_mut(read % RING) {
                    *slot = sums;
                }
                let after = next + 1;
                let step = if matches!(hay.get(after), Some(b' ' | b'-' | b'.')) { after + 1 } else { after };
                match hay.get(step) {
                    Some(b) if b.is_ascii_digit() => next = step,
                    _ => ended = true,
                }
            }
            let count = (read - start).min(19);
            if count < 13 {
                break;
            }
            let s = place.get(start % RING).copied().unwrap_or(0);
            if s == 0 || !word_at(hay, s - 1) {
                let mut lead = [0u8; 6];
                for (i, d) in lead.iter_mut().enumerate() {
                    *d = value.get((start + i) % RING).copied().unwrap_or(0);
                }
                let issued = issued_lengths(&lead);
                let from_sums = sums_before.get(start % RING).copied().unwrap_or_default();
                // The lengths from 13 to `count` an issuer uses, longest first.
                let mut lengths = issued & (u32::MAX >> (31 - count)) & !0x1fff;
                while lengths != 0 {
                    let n = 31 - lengths.leading_zeros() as usize;
                    lengths &= !(1 << n);
                    let end = place.get((start + n - 1) % RING).copied().unwrap_or(0) + 1;
                    let to_sums = sums_before.get((start + n) % RING).copied().unwrap_or_default();
                    let part = |i: usize| {
                        let (to, from) = (to_sums.get(i).copied().unwrap_or(0), from_sums.get(i).copied().unwrap_or(0));
                        to.wrapping_sub(from)
                    };
                    let q = (start + n - 1) & 1;
                    if !word_at(hay, end) && (part(q) + part(2 + (q ^ 1))) % 10 == 0 {
                        return Some((s, end));
                    }
                }
            }
            start += 1;
        }
        // Fewer than 13 digits left in this chain: on after its last one.
        at = place.get((read - 1) % RING).copied().unwrap_or(first) + 1;
    }
}
