//! One pass over a scanned text's bytes, shared by every part of the scan that looks
//! for classes of bytes.
//!
//! The start index needs the text folded (letters to lower case, every other byte
//! but a digit to 0), the word starts, and the capitals and digits (where its
//! case-sensitive prefixes begin); the window finders need the digits (an ID
//! or a phone number is found around them), the runs of identifier bytes, and whether
//! any character outside the first two UTF-8 planes is there at all (CJK, Hangul and
//! Devanagari keywords). Each used to walk the text itself — ten passes of a 128 KiB
//! text cost more in V8 than the rest of the scan. Here one pass, sixteen bytes at a
//! time with wasm SIMD (eight natively), writes the folded copy and, for each 64-byte
//! block, one bit per byte for each class; finders skip 64 bytes at a time on them.

/// A text prepared for one scan.
#[derive(Debug)]
pub struct Text<'a> {
    bytes: &'a [u8],
    /// Letters to lower case, other bytes but digits to 0; zero-padded to whole
    /// 64-byte blocks and 8 bytes more (a key may read that far).
    folded: Vec<u8>,
    /// The number of 64-byte blocks.
    blocks: usize,
    /// Per 64-byte block, bit `j` for byte `j`, one list of blocks after the other (one
    /// allocation): ASCII letters and digits ([`ALNUM`]); ASCII digits ([`DIGIT`]); `_`
    /// and `-` ([`DASH`]); ASCII capitals and digits, where a case-sensitive token prefix
    /// such as `AKIA` or `MzQ` can begin ([`CAPS`]); the bytes of a written identifier
    /// number (digits, capitals, space, `.`, `-`, `+`; [`ID`]); the bytes
    /// of [`MARKS`] ([`MARKED`]); the assignment operators' bytes `= : > ,` ([`OPS`]);
    /// the bytes of `0x80` and up ([`HIGH`]). After them, in the same allocation, the
    /// two block summaries ([`Text::summary`]: [`DIGIT_BLOCKS`], [`DENSE_BLOCKS`]),
    /// one bit per block each.
    masks: Vec<u64>,
    /// Per block, for each of [`MARKS`]: that byte; split from `marks` when first asked,
    /// one list of blocks per mark in the order of [`MARKS`].
    each_mark: std::cell::OnceCell<Vec<u64>>,
    /// Some byte is `0xE0` or more (the lead of a three- or four-byte character):
    /// found when first asked, in the blocks with a byte of `0x80` and up.
    wide: std::cell::OnceCell<bool>,
    /// [`Text::numeric_runs`], found when first asked.
    numeric: std::cell::OnceCell<Vec<crate::engine::numeric::NumericRun>>,
    /// [`Text::long_runs`], found when first asked.
    long: std::cell::OnceCell<Vec<(usize, usize)>>,
    /// Bit `k`: some byte of the text is of kind `k` (its masks are not all zero).
    present: u16,
}

/// The block summary with one bit per 64-byte block, set if the block holds an ASCII
/// digit: the readers of digits (numbers, IDs, house numbers) go from one such block
/// to the next, not over every block (a chat's 16 KiB has a dozen of its 256 with a
/// digit).
const DIGIT_BLOCKS: usize = 0;
/// The block summary with one bit per block, set if the block holds
/// [`LONG_RUN`]` / 2 + 1` identifier bytes in a row, as every run of [`LONG_RUN`] does in
/// one of its blocks ([`Text::long_runs`]).
const DENSE_BLOCKS: usize = 1;
/// The number of block summaries.
const SUMMARIES: usize = 2;

/// Kinds of byte a text must hold for a window finder to find anything in it (a
/// digit, an operator, a byte of `0x80` and up, ...): [`Text::holds`], checked before
/// the finder runs. Most finders want a digit or a non-ASCII character, which most
/// short texts lack.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Needs(u16);

impl Needs {
    /// Nothing: the finder always runs.
    pub const NOTHING: Needs = Needs(0);
    /// An ASCII digit.
    pub const DIGIT: Needs = Needs(1 << DIGIT);
    /// `_` or `-`.
    pub const DASH: Needs = Needs(1 << DASH);
    /// One of [`MARKS`].
    pub const MARK: Needs = Needs(1 << MARKED);
    /// One of the assignment operators' bytes, `= : > ,`.
    pub const OPERATOR: Needs = Needs(1 << OPS);
    /// A byte of `0x80` and up.
    pub const NON_ASCII: Needs = Needs(1 << HIGH);
    /// A letter: an ASCII letter or a byte of `0x80` and up (a letter of another
    /// alphabet or script may be there).
    pub const LETTER: Needs = Needs(1 << LETTER);

    /// Both `self` and `other`.
    pub const fn and(self, other: Needs) -> Needs {
        Needs(self.0 | other.0)
    }
}

/// The kinds of [`Text`]'s masks, in their order.
const ALNUM: usize = 0;
const DIGIT: usize = 1;
const DASH: usize = 2;
const CAPS: usize = 3;
const ID: usize = 4;
const MARKED: usize = 5;
const OPS: usize = 6;
const HIGH: usize = 7;
const KINDS: usize = 8;
/// Not a kind of its own (no mask): [`Text::present`]'s bit for a byte of [`ALNUM`]
/// but not [`DIGIT`], or of [`HIGH`].
const LETTER: usize = KINDS;

/// The masks of one 64-byte block.
#[derive(Debug, Default, Clone, Copy)]
struct Masks {
    alnum: u64,
    digit: u64,
    dash: u64,
    caps: u64,
    id: u64,
    marks: u64,
    ops: u64,
    high: u64,
}

/// The punctuation bytes the window finders and the `Contains` gates look for (`://`,
/// `h:h:h`, a bot id's `:`, a `/` between digits, `@`, `sig=`, `Q~`, Cisco's
/// `hhhh.hhhh`, `info(at)…`, `info[at]…`): one mask holds them all, and a finder reads
/// the byte under each bit. Each used to be a `memchr` or `memmem` pass of its own,
/// four of them over the `:` of a log.
pub(crate) const MARKS: [u8; 8] = [b':', b'/', b'@', b'=', b'~', b'.', b'(', b'['];

/// What [`MARK_INDEX`] holds for a byte that is no mark.
const NO_MARK: u8 = MARKS.len() as u8;

/// Each byte's index in [`MARKS`], [`NO_MARK`] for the others: a table, not a `match` whose
/// branches the marks of a log take in no predictable order.
#[allow(clippy::indexing_slicing)] // evaluated by the compiler: `i` counts to 5
static MARK_INDEX: [u8; 256] = {
    let mut table = [NO_MARK; 256];
    let mut i = 0;
    while i < MARKS.len() {
        table[MARKS[i] as usize] = i as u8;
        i += 1;
    }
    table
};

/// An index into [`MARKS`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mark {
    Colon = 0,
    Slash = 1,
    At = 2,
    Equals = 3,
    Tilde = 4,
    Dot = 5,
    Paren = 6,
    Bracket = 7,
}

impl Mark {
    /// The marks in the order of [`MARKS`] (a test holds the two to it).
    const ALL: [Mark; MARKS.len()] =
        [Mark::Colon, Mark::Slash, Mark::At, Mark::Equals, Mark::Tilde, Mark::Dot, Mark::Paren, Mark::Bracket];

    /// The mark of byte `b`, if it has one (by [`MARK_INDEX`]).
    pub(crate) fn of(b: u8) -> Option<Mark> {
        MARK_INDEX.get(usize::from(b)).and_then(|&i| Mark::ALL.get(usize::from(i))).copied()
    }
}

impl<'a> Text<'a> {
    pub fn new(bytes: &'a [u8]) -> Text<'a> {
        let blocks = bytes.len().div_ceil(64);
        let mut text = Text {
            bytes,
            folded: vec![0u8; blocks * 64 + 8],
            blocks,
            // The masks and the summaries: one allocation (a scan of 1 KiB felt each
            // one more).
            masks: vec![0; blocks * KINDS + SUMMARIES * blocks.div_ceil(64)],
            each_mark: std::cell::OnceCell::new(),
            wide: std::cell::OnceCell::new(),
            numeric: std::cell::OnceCell::new(),
            long: std::cell::OnceCell::new(),
            present: 0,
        };
        let (mut digit_word, mut dense_word) = (0u64, 0u64);
        let mut any = Masks::default();
        let mut letters = 0u64;
        // Each kind's list, written through an iterator (a write by index had a bounds
        // check per kind and block).
        let (kinds, summaries) = text.masks.split_at_mut(blocks * KINDS);
        let (digit_blocks, dense_blocks) = summaries.split_at_mut(blocks.div_ceil(64));
        let mut summary_words = digit_blocks.iter_mut().zip(dense_blocks.iter_mut());
        let mut lists = kinds.chunks_exact_mut(blocks.max(1));
        let mut list = || lists.next().unwrap_or_default().iter_mut();
        let rows = list().zip(list()).zip(list()).zip(list()).zip(list()).zip(list()).zip(list()).zip(list());
        let blocks_in = text.folded.chunks_exact_mut(64).zip(bytes.chunks(64));
        for (index, ((((((((alnum, digit), dash), caps), id), marks), ops), high), (out, block))) in
            rows.zip(blocks_in).enumerate()
        {
            let masks = match <&[u8; 64]>::try_from(block) {
                Ok(full) => fold_block(full, out),
                // The last, short block: zero-padded (a 0 byte is in no class).
                Err(_) => {
                    let mut padded = [0u8; 64];
                    padded.get_mut(..block.len()).unwrap_or_default().copy_from_slice(block);
                    fold_block(&padded, out)
                }
            };
            (*alnum, *digit, *dash, *caps) = (masks.alnum, masks.digit, masks.dash, masks.caps);
            (*id, *marks, *ops, *high) = (masks.id, masks.marks, masks.ops, masks.high);
            (any.alnum, any.digit, any.dash, any.caps) =
                (any.alnum | masks.alnum, any.digit | masks.digit, any.dash | masks.dash, any.caps | masks.caps);
            (any.id, any.marks, any.ops, any.high) =
                (any.id | masks.id, any.marks | masks.marks, any.ops | masks.ops, any.high | masks.high);
            letters |= (masks.alnum & !masks.digit) | masks.high;
            let bit = index % 64;
            digit_word |= u64::from(masks.digit != 0) << bit;
            dense_word |= u64::from(rows_of(masks.alnum | masks.dash, LONG_RUN / 2 + 1) != 0) << bit;
            if bit == 63 || index + 1 == blocks {
                if let Some((digit_out, dense_out)) = summary_words.next() {
                    (*digit_out, *dense_out) = (digit_word, dense_word);
                }
                (digit_word, dense_word) = (0, 0);
            }
        }
        let kinds = [any.alnum, any.digit, any.dash, any.caps, any.id, any.marks, any.ops, any.high];
        text.present = kinds.iter().enumerate().fold(0, |bits, (k, &m)| bits | u16::from(m != 0) << k)
            | u16::from(letters != 0) << LETTER;
        text
    }

    /// Whether the text holds a byte of every kind in `needs`.
    pub fn holds(&self, needs: Needs) -> bool {
        self.present & needs.0 == needs.0
    }

    /// The masks of one kind, one per block.
    #[inline(always)]
    fn kind(&self, kind: usize) -> &[u64] {
        self.masks.get(kind * self.blocks..(kind + 1) * self.blocks).unwrap_or_default()
    }

    /// One of the block summaries ([`DIGIT_BLOCKS`], [`DENSE_BLOCKS`]), one bit per block.
    #[inline(always)]
    fn summary(&self, which: usize) -> &[u64] {
        let (words, from) = (self.blocks.div_ceil(64), self.blocks * KINDS);
        self.masks.get(from + which * words..from + (which + 1) * words).unwrap_or_default()
    }

    fn alnum(&self) -> &[u64] {
        self.kind(ALNUM)
    }

    fn digit(&self) -> &[u64] {
        self.kind(DIGIT)
    }

    fn dash(&self) -> &[u64] {
        self.kind(DASH)
    }

    fn caps(&self) -> &[u64] {
        self.kind(CAPS)
    }

    fn id(&self) -> &[u64] {
        self.kind(ID)
    }

    fn marks(&self) -> &[u64] {
        self.kind(MARKED)
    }

    /// The offsets of the bytes an assignment's operator is made of or ends with (`=`,
    /// `:`, `>`, `,`), left to right: where the assignment reader looks for a name
    /// before and a value after.
    pub(crate) fn operators(&self) -> impl Iterator<Item = usize> + '_ {
        bits(self.kind(OPS))
    }

    /// The offsets where a capitalised word may begin, left to right: an ASCII capital,
    /// or a byte of `0x80` and up (a Latin capital's lead byte among them), after a
    /// byte that is neither an ASCII letter or digit nor of `0x80` and up. The person
    /// matcher checks each byte; the masks pass over the rest of the text.
    pub(crate) fn name_starts(&self) -> impl Iterator<Item = usize> + '_ {
        let (alnum, caps, digit, high) = (self.alnum(), self.caps(), self.digit(), self.kind(HIGH));
        let mut carry = 0u64;
        offsets(move |block| {
            let at = |m: &[u64]| m.get(block).copied();
            let (a, c, d, h) = (at(alnum)?, at(caps)?, at(digit)?, at(high)?);
            let word = a | h;
            let starts = ((c & !d) | h) & !((word << 1) | carry);
            carry = word >> 63;
            Some(starts)
        })
    }

    /// The offset of the first byte from `at` on that is neither an ASCII letter nor of
    /// `0x80` and up, or the text's length: from the block masks, not a walk over the
    /// bytes (the person matcher's walk to each word's end was a sixth of its work).
    pub(crate) fn letters_end(&self, at: usize) -> usize {
        let (alnum, digit, high) = (self.alnum(), self.digit(), self.kind(HIGH));
        let (mut block, mut from) = (at / 64, at % 64);
        while let (Some(a), Some(d), Some(h)) = (alnum.get(block), digit.get(block), high.get(block)) {
            // The bits of the bytes that end the letters, from `from` on.
            let other = !((a & !d) | h) & (u64::MAX << from);
            if other != 0 {
                return (block * 64 + other.trailing_zeros() as usize).min(self.bytes.len()).max(at);
            }
            block += 1;
            from = 0;
        }
        self.bytes.len().max(at)
    }

    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// Whether some character of three or four UTF-8 bytes is in the text.
    pub fn has_wide(&self) -> bool {
        *self.wide.get_or_init(|| {
            // Most texts have no byte of 0x80 and up, or the lead of a wide character
            // early: the blocks without one are passed over by their mask.
            let high = self.kind(HIGH);
            let blocks = self.bytes.chunks(64).zip(high);
            blocks.filter(|(_, &h)| h != 0).any(|(chunk, _)| chunk.iter().any(|&b| b >= 0xE0))
        })
    }

    /// The folded copy: letters to lower case, other bytes but digits to 0, padded.
    pub(crate) fn folded(&self) -> &[u8] {
        &self.folded
    }

    /// The letter-or-digit masks, one per 64-byte block.
    pub(crate) fn alnum_masks(&self) -> &[u64] {
        self.alnum()
    }

    /// The digit masks, one per 64-byte block.
    pub(crate) fn digit_masks(&self) -> &[u64] {
        self.digit()
    }

    /// The masks of `_` and `-`, one per 64-byte block.
    pub(crate) fn dash_masks(&self) -> &[u64] {
        self.dash()
    }

    /// The capital-or-digit masks, one per 64-byte block.
    pub(crate) fn caps_masks(&self) -> &[u64] {
        self.caps()
    }

    /// The masks of the bytes of `0x80` and up, one per 64-byte block.
    pub(crate) fn high_masks(&self) -> &[u64] {
        self.kind(HIGH)
    }

    /// The offsets of `mark`'s byte, left to right.
    pub(crate) fn positions(&self, mark: Mark) -> impl Iterator<Item = usize> + '_ {
        bits(self.mark_masks(mark))
    }

    /// The masks of `mark`'s byte, one per 64-byte block (split from the marks' mask
    /// when first asked, for every mark at once).
    pub(crate) fn mark_masks(&self, mark: Mark) -> &[u64] {
        let each = self.each_mark.get_or_init(|| {
            // One list of blocks per mark, one after the other (one allocation).
            let mut each = vec![0u64; self.blocks * MARKS.len()];
            // Block by block, the marked bytes sorted into one word per mark.
            for (block, (&marked, chunk)) in self.marks().iter().zip(self.bytes.chunks(64)).enumerate() {
                let mut rest = marked;
                while rest != 0 {
                    let j = rest.trailing_zeros();
                    // A marked byte is one of MARKS (index below MARKS.len()); any
                    // other would read NO_MARK, past the lists, and be left out.
                    let mark =
                        chunk.get(j as usize).and_then(|&b| MARK_INDEX.get(usize::from(b))).map_or(NO_MARK, |&m| m);
                    if let Some(w) = each.get_mut(usize::from(mark) * self.blocks + block) {
                        *w |= 1 << j;
                    }
                    rest &= rest - 1;
                }
            }
            each
        });
        let at = mark as usize * self.blocks;
        each.get(at..at + self.blocks).unwrap_or_default()
    }

    /// Whether `needle` is in the text: at the bits of the mask of one of its bytes
    /// (the first with one), else by `memmem`.
    pub(crate) fn contains(&self, needle: &[u8]) -> bool {
        let marked = needle.iter().enumerate().find_map(|(i, &b)| Some((i, Mark::of(b)?)));
        match marked {
            Some((offset, mark)) => self.positions(mark).any(|at| {
                at.checked_sub(offset)
                    .and_then(|start| self.bytes.get(start..start + needle.len()))
                    .is_some_and(|here| here == needle)
            }),
            None => memchr::memmem::find(self.bytes, needle).is_some(),
        }
    }

    /// Whether some byte of `start..end` is of `0x80` and up: from the masks, and at
    /// once for a text that has none.
    pub(crate) fn any_non_ascii(&self, start: usize, end: usize) -> bool {
        let high = self.kind(HIGH);
        self.holds(Needs::NON_ASCII) && any_bit(start, end, |block| high.get(block).copied().unwrap_or(0))
    }

    /// Whether some byte of `start..end` is an ASCII capital or of `0x80` and up (where
    /// a capital of another alphabet may be), from the masks.
    pub(crate) fn any_capital(&self, start: usize, end: usize) -> bool {
        let (caps, digit, high) = (self.caps(), self.digit(), self.kind(HIGH));
        let at = |m: &[u64], block: usize| m.get(block).copied().unwrap_or(0);
        any_bit(start, end, |block| (at(caps, block) & !at(digit, block)) | at(high, block))
    }

    /// The blocks that hold an ASCII digit, left to right: block `b` is bytes
    /// `64 * b .. 64 * b + 64`.
    pub(crate) fn digit_blocks(&self) -> impl Iterator<Item = usize> + '_ {
        bits(self.summary(DIGIT_BLOCKS))
    }

    /// The first ASCII digit at or after `from`: the tests' reading of the digits'
    /// mask (the scan reads it through [`Text::run_digits`] and the block summaries).
    #[cfg(test)]
    pub(crate) fn next_digit(&self, from: usize) -> Option<usize> {
        next_bit(self.digit(), from).filter(|&at| at < self.bytes.len())
    }

    /// The ASCII digits that are not alone between two ASCII letters, asked for left
    /// to right ([`RunDigits::next_from`]). A digit inside `4f1c2a9e` is a numeric run
    /// of its own, one digit long, which no reader of the numeric runs wants (they read
    /// runs of two digits and more, or runs beside a `/`); a hex id or a digest holds
    /// dozens of them. Per 64-byte block, by its masks.
    pub(crate) fn run_digits(&self) -> RunDigits<'_> {
        RunDigits {
            digit: self.digit(),
            alnum: self.alnum(),
            digit_blocks: self.summary(DIGIT_BLOCKS),
            len: self.bytes.len(),
            block: 0,
            pending: None,
        }
    }

    /// The mask of `K`'s bytes in block `block` (0 past the end).
    #[inline(always)]
    fn run_mask<const K: u8>(&self, block: usize) -> u64 {
        if K == ID_BYTES {
            self.id().get(block).copied().unwrap_or(0)
        } else {
            self.alnum().get(block).copied().unwrap_or(0) | self.dash().get(block).copied().unwrap_or(0)
        }
    }

    /// Whether the byte at `at` is one of `K`'s.
    #[inline(always)]
    fn in_run<const K: u8>(&self, at: usize) -> bool {
        at < self.bytes.len() && (self.run_mask::<K>(at / 64) >> (at % 64)) & 1 == 1
    }

    /// The maximal run of identifier bytes (ASCII letters, digits, `_`, `-`) around
    /// `at`, which must be one: `(start, end)`.
    pub fn token_run(&self, at: usize) -> (usize, usize) {
        self.run_around::<TOKEN_BYTES>(at)
    }

    /// The maximal run of `K`'s bytes around `at`, which must be one.
    fn run_around<const K: u8>(&self, at: usize) -> (usize, usize) {
        let (mut start, mut end) = (at, at);
        // Whole blocks at a time where the run goes on through them.
        while start > 0 && self.in_run::<K>(start - 1) {
            let block = (start - 1) / 64;
            let mask = self.run_mask::<K>(block);
            // The bits below `start` in its block (or the whole block at a boundary).
            let below = (start - 1) % 64 + 1;
            let part = if below == 64 { mask } else { mask & ((1u64 << below) - 1) };
            let gaps = !part & if below == 64 { u64::MAX } else { (1u64 << below) - 1 };
            start = if gaps == 0 { block * 64 } else { block * 64 + (64 - gaps.leading_zeros() as usize) };
        }
        while end < self.bytes.len() && self.in_run::<K>(end) {
            let block = end / 64;
            let gaps = !self.run_mask::<K>(block) >> (end % 64);
            end = if gaps == 0 { (block + 1) * 64 } else { end + gaps.trailing_zeros() as usize };
        }
        (start, end.min(self.bytes.len()))
    }

    /// The numeric runs (digits, `+ ( ) - .` and space, with a digit), left to right:
    /// found once per scan for the rules gated by them and the labelled phones' windows.
    pub(crate) fn numeric_runs(&self) -> &[crate::engine::numeric::NumericRun] {
        self.numeric.get_or_init(|| {
            let mut wanted = self.run_digits();
            crate::engine::numeric::numeric_runs(self.bytes(), |from| wanted.next_from(from))
        })
    }

    /// The maximal runs of identifier bytes at least [`LONG_RUN`] bytes long, left to
    /// right: found once per scan for every window finder that wants them (the
    /// identifier-like tokens, the tokens with a dotted tail).
    pub fn long_runs(&self) -> &[(usize, usize)] {
        self.long.get_or_init(|| self.long_token_runs::<LONG_RUN>().collect())
    }

    /// The maximal runs of identifier bytes at least `MIN` long (at most 64), left to
    /// right. A run that long holds `MIN / 2 + 1` consecutive identifier bytes inside
    /// one 64-byte block, a test of a few shifts per block; only the blocks that pass
    /// are looked at byte by byte. (`MIN` is a constant, so that the shifts are
    /// unrolled: this test runs on every block of every text.)
    pub fn long_token_runs<const MIN: usize>(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        let min = MIN.clamp(1, 64);
        let mut block = 0usize;
        let mut at = 0usize;
        // The two lists, and the blocks worth a look, found once (not at every block).
        let (alnum, dash) = (self.alnum(), self.dash());
        let dense = self.summary(DENSE_BLOCKS);
        std::iter::from_fn(move || {
            loop {
                // For runs of [`LONG_RUN`], only the blocks marked dense when the text was read.
                if MIN == LONG_RUN {
                    block = next_bit(dense, block)?;
                }
                let (Some(&a), Some(&d)) = (alnum.get(block), dash.get(block)) else { break };
                // Bits that begin `half` consecutive set bits in this block, from `at` on.
                let runs = rows_of(a | d, min / 2 + 1);
                let from = at.saturating_sub(block * 64);
                let runs = if from >= 64 { 0 } else { runs & (u64::MAX << from) };
                if runs == 0 {
                    block += 1;
                    continue;
                }
                let (start, end) = self.token_run(block * 64 + runs.trailing_zeros() as usize);
                at = end;
                // The run may end inside this block, and another begin after it.
                block = end / 64;
                if end - start >= min {
                    return Some((start, end));
                }
            }
            None
        })
    }

    /// The maximal runs of identifier bytes (ASCII letters, digits, `_`, `-`) at least
    /// `min` long (at most 64) that hold a digit, left to right (see [`Text::digit_runs`]).
    pub fn digit_token_runs(&self, min: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.digit_runs::<TOKEN_BYTES>(min)
    }

    /// The maximal runs of the bytes of written identifier numbers (digits, capitals,
    /// space, `.`, `-`, `+`) at least `min` long (at most 64) that hold a digit, left
    /// to right.
    pub fn digit_id_runs(&self, min: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.digit_runs::<ID_BYTES>(min)
    }

    /// The maximal runs of `K`'s bytes at least `min` long (at most 64) that hold
    /// an ASCII digit, left to right. A byte lies in such a run when `min` of the
    /// run's bytes in a row cover it: per 64-byte block with a digit, the bits where such a
    /// row begins (a few shifts over this block and the next) are spread over the row,
    /// and only the digits under them are looked at. Logs and code hold ten thousand
    /// short numbers per 128 KiB (`200`, `10:00`, the digits of a hex id); none of
    /// them costs a walk over its run.
    fn digit_runs<const K: u8>(&self, min: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
        let min = min.clamp(1, 64);
        // Bits of block `b` where `min` of the run's bytes begin (going on into the
        // next block if need be).
        // (Two 64-bit words, low and high, not a `u128`: wasm has no 128-bit shift, and
        // each was a call.)
        let row_starts = move |b: usize| {
            let (mut lo, mut hi) = (self.run_mask::<K>(b), self.run_mask::<K>(b + 1));
            let mut have = 1;
            while have < min {
                let step = have.min(min - have) as u32;
                (lo, hi) = (lo & (lo >> step | hi << (64 - step)), hi & hi >> step);
                have += step as usize;
            }
            lo
        };
        let (mut block, mut at) = (0usize, 0usize);
        // `row_starts` of the block before `block`, when known.
        let mut before: Option<(usize, u64)> = None;
        std::iter::from_fn(move || loop {
            block = next_bit(self.summary(DIGIT_BLOCKS), block)?;
            let digits = *self.digit().get(block)?;
            let from = at.saturating_sub(block * 64);
            let digits = if from >= 64 { 0 } else { digits & (u64::MAX << from) };
            if digits == 0 {
                block += 1;
                continue;
            }
            let previous = match before {
                Some((b, rows)) if b + 1 == block => rows,
                _ if block == 0 => 0,
                _ => row_starts(block - 1),
            };
            let here = row_starts(block);
            before = Some((block, here));
            // The rows that begin in the block before or in this one, spread over
            // their `min` bytes; the upper half is this block's covered bytes.
            let (mut lo, mut hi) = (previous, here);
            let mut have = 1;
            while have < min {
                let step = have.min(min - have) as u32;
                (lo, hi) = (lo | lo << step, hi | hi << step | lo >> (64 - step));
                have += step as usize;
            }
            let hits = hi & digits;
            if hits == 0 {
                block += 1;
                continue;
            }
            let (start, end) = self.run_around::<K>(block * 64 + hits.trailing_zeros() as usize);
            at = end;
            block = end / 64;
            return Some((start, end));
        })
    }
}

/// The bits of `mask` that begin `n` set bits in a row (inlined where `n` is a
/// constant, so that the shifts are unrolled).
#[inline(always)]
fn rows_of(mask: u64, n: usize) -> u64 {
    let mut runs = mask;
    let mut have = 1;
    while have < n {
        let step = have.min(n - have);
        runs &= runs >> step;
        have += step;
    }
    runs
}

/// Whether a bit of `start..end` is set in the masks `mask_of` gives for its blocks.
#[inline(always)]
fn any_bit(start: usize, end: usize, mask_of: impl Fn(usize) -> u64) -> bool {
    (start / 64..end.div_ceil(64)).any(|block| {
        let first = block * 64;
        let mut mask = mask_of(block);
        if start > first {
            mask &= u64::MAX << (start - first);
        }
        if end < first + 64 {
            mask &= (1u64 << (end - first)) - 1;
        }
        mask != 0
    })
}

/// The set bits of masks of 64 bits each, as offsets, left to right.
pub(crate) fn bits(masks: &[u64]) -> impl Iterator<Item = usize> + '_ {
    block_bits(masks, |_, mask| mask)
}

/// The set bits of the masks `mask_of` gives for blocks 0, 1, … (until it gives
/// none), as offsets, left to right.
fn offsets(mut mask_of: impl FnMut(usize) -> Option<u64>) -> impl Iterator<Item = usize> {
    // `block` is the next block to ask for; `mask` what is left of the one before it.
    let (mut block, mut mask) = (0usize, 0u64);
    std::iter::from_fn(move || loop {
        if mask != 0 {
            let at = (block - 1) * 64 + mask.trailing_zeros() as usize;
            mask &= mask - 1;
            return Some(at);
        }
        mask = mask_of(block)?;
        block += 1;
    })
}

/// See [`Text::run_digits`].
pub(crate) struct RunDigits<'t> {
    digit: &'t [u64],
    alnum: &'t [u64],
    /// [`Text`]'s blocks with a digit.
    digit_blocks: &'t [u64],
    len: usize,
    /// The block of `pending`.
    block: usize,
    /// The wanted digits of block `block` not yet given (none before the first ask).
    pending: Option<u64>,
}

impl RunDigits<'_> {
    /// The first wanted digit at or after `from`; `from` never goes back.
    pub(crate) fn next_from(&mut self, from: usize) -> Option<usize> {
        let at_block = from / 64;
        let mut pending = match self.pending {
            Some(bits) if at_block == self.block => bits,
            _ => {
                self.block = at_block;
                self.wanted(at_block)?
            }
        };
        pending &= u64::MAX.checked_shl((from % 64) as u32).unwrap_or(0);
        loop {
            if pending != 0 {
                self.pending = Some(pending);
                return Some(self.block * 64 + pending.trailing_zeros() as usize).filter(|&at| at < self.len);
            }
            // The next block with a digit.
            self.block = next_bit(self.digit_blocks, self.block + 1)?;
            pending = self.wanted(self.block)?;
        }
    }

    /// Block `block`'s digits but those alone between two ASCII letters.
    fn wanted(&self, block: usize) -> Option<u64> {
        let digits = *self.digit.get(block)?;
        if digits == 0 {
            return Some(0);
        }
        let letters = |b: usize| match (self.alnum.get(b), self.digit.get(b)) {
            (Some(a), Some(d)) => a & !d,
            _ => 0,
        };
        let here = letters(block);
        // A letter right before / right after each byte, across the block's edges.
        let before = (here << 1) | block.checked_sub(1).map_or(0, |b| letters(b) >> 63);
        let after = (here >> 1) | (letters(block + 1) << 63);
        Some(digits & !(before & after))
    }
}

/// The offsets of the bits of `first` (one mask per 64-byte block) that `narrow`
/// keeps, left to right: `narrow(block, mask)` tests a block's bits by the masks of
/// the bytes around them (with [`shifted`]) before a finder looks at any byte. A block
/// without a bit in `first` is passed over untested.
pub(crate) fn block_bits<F: FnMut(usize, u64) -> u64>(first: &[u64], narrow: F) -> BlockBits<'_, F> {
    BlockBits { first, narrow, block: 0, mask: 0 }
}

/// The iterator of [`block_bits`].
pub(crate) struct BlockBits<'m, F> {
    first: &'m [u64],
    narrow: F,
    /// The next block to look at.
    block: usize,
    /// The bits of block `block - 1` not yet given.
    mask: u64,
}

impl<F: FnMut(usize, u64) -> u64> Iterator for BlockBits<'_, F> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        loop {
            if self.mask != 0 {
                let at = (self.block - 1) * 64 + self.mask.trailing_zeros() as usize;
                self.mask &= self.mask - 1;
                return Some(at);
            }
            // The blocks without a bit, in one tight loop (most blocks of most texts).
            let rest = self.first.get(self.block..)?;
            let Some(skip) = rest.iter().position(|&m| m != 0) else {
                self.block = self.first.len();
                return None;
            };
            self.block += skip;
            let first = rest.get(skip).copied().unwrap_or(0);
            self.mask = (self.narrow)(self.block, first);
            self.block += 1;
        }
    }
}

/// The offsets where `masks` has a bit, and again `period` bytes on, and so on:
/// `count` bits in all, `period` apart (`count - 1` periods at most 63 bytes).
pub(crate) fn chains(masks: &[u64], period: i32, count: i32) -> impl Iterator<Item = usize> + '_ {
    block_bits(masks, move |b, first| {
        // This block and the next, read once (in 64-bit words: wasm has no 128-bit shift).
        let next = masks.get(b + 1).copied().unwrap_or(0);
        (1..count).fold(first, |m, k| m & ahead(first, next, (period * k).clamp(1, 63) as u32))
    })
}

/// Block `block` of `masks` moved by `shift` bytes: bit `j` is the bit of byte
/// `64 * block + j + shift` (0 outside the masks). A positive shift reads the bytes
/// after, a negative one the bytes before; `shift` is at most 63 either way.
#[inline(always)]
pub(crate) fn shifted(masks: &[u64], block: usize, shift: i32) -> u64 {
    let at = |b: usize| masks.get(b).copied().unwrap_or(0);
    let s = shift.unsigned_abs().min(63);
    if s == 0 {
        at(block)
    } else if shift > 0 {
        ahead(at(block), at(block + 1), s)
    } else {
        (at(block) << s) | block.checked_sub(1).map_or(0, |before| at(before) >> (64 - s))
    }
}

/// The bits of a block `s` bytes on (1 to 63), from its mask `here` and the next
/// block's `next`.
#[inline(always)]
fn ahead(here: u64, next: u64, s: u32) -> u64 {
    (here >> s) | (next << (64 - s))
}

/// The first set bit at or after `from` in masks of 64 bits each.
fn next_bit(masks: &[u64], from: usize) -> Option<usize> {
    let mut block = from / 64;
    let mut mask = masks.get(block)? & (u64::MAX << (from % 64));
    loop {
        if mask != 0 {
            return Some(block * 64 + mask.trailing_zeros() as usize);
        }
        block += 1;
        mask = *masks.get(block)?;
    }
}

/// Sixteen bytes as two little-endian words (low, high): a vector's two lanes.
#[cfg(any(
    all(target_arch = "wasm32", target_feature = "simd128"),
    all(target_arch = "x86_64", target_feature = "sse2")
))]
#[inline(always)]
pub(crate) fn halves(chunk: &[u8]) -> (u64, u64) {
    let word = |i: usize| {
        let mut w = [0u8; 8];
        w.copy_from_slice(chunk.get(i..i + 8).unwrap_or(&[0; 8]));
        u64::from_le_bytes(w)
    };
    (word(0), word(8))
}

/// Folds 64 bytes into `out` and returns their masks, sixteen at a time with wasm SIMD.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
fn fold_block(bytes: &[u8; 64], out: &mut [u8]) -> Masks {
    use core::arch::wasm32::{
        i8x16_eq, i8x16_lt, i8x16_splat, u64x2, u8x16_bitmask, u8x16_splat, u8x16_sub, v128, v128_and, v128_or,
    };
    // The bytes of `v` from `lo` to `lo + n - 1`: an unsigned `v - lo < n` written as a
    // signed compare (adding 0x80 moves unsigned order to signed), which V8 lowers to
    // one instruction; its unsigned `lt` takes three or four.
    let within = |v: v128, lo: u8, n: u8| i8x16_lt(u8x16_sub(v, u8x16_splat(lo ^ 0x80)), i8x16_splat((n ^ 0x80) as i8));
    // Each kind's four 16-bit masks, joined into one word per kind at the end: or-ing
    // each into a `u64` as it comes let LLVM pack the eight kinds into vector lanes
    // (lane inserts and 64-bit vector shifts), which V8 runs slower than this.
    let mut parts = [[0u16; 4]; KINDS];
    for (j, (chunk, out)) in bytes.chunks_exact(16).zip(out.chunks_exact_mut(16)).enumerate() {
        let (lo, hi) = halves(chunk);
        let v = u64x2(lo, hi);
        // Digits already have the 0x20 bit: or-ing it in lower-cases letters only.
        let lower = v128_or(v, u8x16_splat(0x20));
        let digit = within(v, b'0', 10);
        let letter = within(lower, b'a', 26);
        let keep = v128_or(digit, letter);
        let minus = i8x16_eq(v, u8x16_splat(b'-'));
        let dash = v128_or(i8x16_eq(v, u8x16_splat(b'_')), minus);
        let caps = v128_or(within(v, b'A', 26), digit);
        let marks = v128_or(
            i8x16_eq(v, u8x16_splat(b' ')),
            v128_or(i8x16_eq(v, u8x16_splat(b'.')), i8x16_eq(v, u8x16_splat(b'+'))),
        );
        let id = v128_or(caps, v128_or(minus, marks));
        let lanes = v128_and(lower, keep);
        let (lo, hi) =
            (core::arch::wasm32::u64x2_extract_lane::<0>(lanes), core::arch::wasm32::u64x2_extract_lane::<1>(lanes));
        if let Some(dst) = out.get_mut(..8) {
            dst.copy_from_slice(&lo.to_le_bytes());
        }
        if let Some(dst) = out.get_mut(8..16) {
            dst.copy_from_slice(&hi.to_le_bytes());
        }
        let is = |b: u8| i8x16_eq(v, u8x16_splat(b));
        let [c, s, a, e, t, d, p, b] = MARKS;
        let colon_equals = v128_or(is(c), is(e));
        let marked = v128_or(
            v128_or(colon_equals, v128_or(is(s), is(a))),
            v128_or(v128_or(is(t), is(d)), v128_or(is(p), is(b))),
        );
        let ops = v128_or(colon_equals, v128_or(is(b'>'), is(b',')));
        let kinds = [keep, digit, dash, caps, id, marked, ops, v];
        for (part, kind) in parts.iter_mut().zip(kinds) {
            if let Some(slot) = part.get_mut(j) {
                *slot = u8x16_bitmask(kind);
            }
        }
    }
    let join = |p: [u16; 4]| u64::from(p[0]) | u64::from(p[1]) << 16 | u64::from(p[2]) << 32 | u64::from(p[3]) << 48;
    let [alnum, digit, dash, caps, id, marks, ops, high] = parts.map(join);
    Masks { alnum, digit, dash, caps, id, marks, ops, high }
}

/// Folds 64 bytes into `out` and returns their masks, sixteen at a time with SSE2.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
fn fold_block(bytes: &[u8; 64], out: &mut [u8]) -> Masks {
    // SAFETY: the function only needs SSE2, which this build enables for every
    // function (the `cfg` above; it is part of the x86-64 baseline, so every x86-64
    // CPU has it). It reads and writes only through the two slices it is given.
    #[allow(unsafe_code)]
    unsafe {
        fold_block_sse2(bytes, out)
    }
}

/// [`fold_block`] with SSE2's byte compares and `movemask` (an intrinsic is safe to
/// call only where its feature is declared).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[target_feature(enable = "sse2")]
#[inline]
fn fold_block_sse2(bytes: &[u8; 64], out: &mut [u8]) -> Masks {
    use core::arch::x86_64::{
        __m128i, _mm_and_si128, _mm_cmpeq_epi8, _mm_cmpgt_epi8, _mm_cmplt_epi8, _mm_cvtsi128_si64, _mm_movemask_epi8,
        _mm_or_si128, _mm_set1_epi8, _mm_set_epi64x, _mm_srli_si128,
    };
    // Signed byte compares: a byte of 0x80 or more is negative, below every ASCII bound.
    let within = |v: __m128i, lo: u8, hi: u8| {
        _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8(lo as i8 - 1)), _mm_cmplt_epi8(v, _mm_set1_epi8(hi as i8 + 1)))
    };
    let is = |v: __m128i, b: u8| _mm_cmpeq_epi8(v, _mm_set1_epi8(b as i8));
    let bitmask = |v: __m128i| u64::from(_mm_movemask_epi8(v) as u16);
    let mut masks = Masks::default();
    for (j, (chunk, out)) in bytes.chunks_exact(16).zip(out.chunks_exact_mut(16)).enumerate() {
        let (lo, hi) = halves(chunk);
        let v = _mm_set_epi64x(hi as i64, lo as i64);
        let lower = _mm_or_si128(v, _mm_set1_epi8(0x20));
        let digit = within(v, b'0', b'9');
        let keep = _mm_or_si128(digit, within(lower, b'a', b'z'));
        let minus = is(v, b'-');
        let dash = _mm_or_si128(is(v, b'_'), minus);
        let caps = _mm_or_si128(within(v, b'A', b'Z'), digit);
        let marks = _mm_or_si128(is(v, b' '), _mm_or_si128(is(v, b'.'), is(v, b'+')));
        let id = _mm_or_si128(caps, _mm_or_si128(minus, marks));
        let lanes = _mm_and_si128(lower, keep);
        let (lo, hi) = (_mm_cvtsi128_si64(lanes), _mm_cvtsi128_si64(_mm_srli_si128::<8>(lanes)));
        if let Some(dst) = out.get_mut(..8) {
            dst.copy_from_slice(&lo.to_le_bytes());
        }
        if let Some(dst) = out.get_mut(8..16) {
            dst.copy_from_slice(&hi.to_le_bytes());
        }
        let shift = 16 * j;
        masks.alnum |= bitmask(keep) << shift;
        masks.digit |= bitmask(digit) << shift;
        masks.dash |= bitmask(dash) << shift;
        masks.caps |= bitmask(caps) << shift;
        masks.id |= bitmask(id) << shift;
        let [c, s, a, e, t, d, p, b] = MARKS;
        let colon_equals = _mm_or_si128(is(v, c), is(v, e));
        let marked = _mm_or_si128(
            _mm_or_si128(colon_equals, _mm_or_si128(is(v, s), is(v, a))),
            _mm_or_si128(_mm_or_si128(is(v, t), is(v, d)), _mm_or_si128(is(v, p), is(v, b))),
        );
        masks.marks |= bitmask(marked) << shift;
        masks.ops |= bitmask(_mm_or_si128(colon_equals, _mm_or_si128(is(v, b'>'), is(v, b',')))) << shift;
        masks.high |= bitmask(v) << shift;
    }
    masks
}

/// Folds 64 bytes into `out` and returns their masks, eight at a time (no vectors).
#[cfg(not(any(
    all(target_arch = "wasm32", target_feature = "simd128"),
    all(target_arch = "x86_64", target_feature = "sse2")
)))]
#[inline(always)]
fn fold_block(bytes: &[u8; 64], out: &mut [u8]) -> Masks {
    fold_block_swar(bytes, out)
}

/// [`fold_block`] in plain 64-bit words, for targets without the vectors above (and
/// checked against them in the tests).
#[cfg(any(
    test,
    not(any(
        all(target_arch = "wasm32", target_feature = "simd128"),
        all(target_arch = "x86_64", target_feature = "sse2")
    ))
))]
#[inline(always)]
fn fold_block_swar(bytes: &[u8; 64], out: &mut [u8]) -> Masks {
    let mut masks = Masks::default();
    for (j, (chunk, out)) in bytes.chunks_exact(8).zip(out.chunks_exact_mut(8)).enumerate() {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let v = u64::from_le_bytes(word);
        let (folded, lanes) = fold(v);
        out.copy_from_slice(&folded.to_le_bytes());
        let shift = 8 * j;
        masks.alnum |= gather(lanes) << shift;
        masks.digit |= gather(between(v, b'0' - 1, b'9' + 1)) << shift;
        masks.dash |= gather(between(v, b'_' - 1, b'_' + 1) | between(v, b'-' - 1, b'-' + 1)) << shift;
        let caps = between(v, b'A' - 1, b'Z' + 1) | between(v, b'0' - 1, b'9' + 1);
        masks.caps |= gather(caps) << shift;
        let marks = [b' ', b'.', b'-', b'+'].iter().fold(0, |m, &b| m | between(v, b - 1, b + 1));
        masks.id |= gather(caps | marks) << shift;
        let marked = MARKS.iter().fold(0, |m, &b| m | between(v, b - 1, b + 1));
        masks.marks |= gather(marked) << shift;
        let ops = [b'=', b':', b'>', b','].iter().fold(0, |m, &b| m | between(v, b - 1, b + 1));
        masks.ops |= gather(ops) << shift;
        masks.high |= gather(v & HIGH_BITS) << shift;
    }
    masks
}

/// A byte of a written identifier number: a digit, an ASCII capital, or a separator
/// written inside identifiers (space, `.`, `-`, `+`); the definition the `ID` mask is
/// tested against.
#[cfg(test)]
fn id_byte(b: u8) -> bool {
    b.is_ascii_digit() || b.is_ascii_uppercase() || b" .-+".contains(&b)
}

/// The bytes a run is made of ([`Text::run_around`], [`Text::digit_runs`]): identifier
/// bytes (ASCII letters and digits, `_`, `-`), or those of a written identifier number
/// (digits, capitals, space, `.`, `-`, `+`).
const TOKEN_BYTES: u8 = 0;
const ID_BYTES: u8 = 1;

/// How long a run of identifier bytes [`Text::long_runs`] returns at least.
pub const LONG_RUN: usize = 25;

pub(crate) const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH_BITS: u64 = ONES * 0x80;
const LOW7: u64 = ONES * 0x7f;

/// Eight bytes with letters to lower case and every byte that is not a letter or digit
/// to 0, and their [`alnum`] lanes.
#[inline(always)]
pub(crate) fn fold(v: u64) -> (u64, u64) {
    let lanes = alnum(v);
    let keep = ((lanes >> 7) & ONES) * 0xff;
    ((v | (ONES * 0x20)) & keep, lanes)
}

/// High bit of each byte of `v` strictly between `lo` and `hi` (both below 128).
fn between(v: u64, lo: u8, hi: u8) -> u64 {
    let low = v & LOW7;
    (ONES * (127 + u64::from(hi)) - low) & !v & (low + ONES * (127 - u64::from(lo))) & HIGH_BITS
}

/// The high bit of byte `j` of `lanes` (its only possible bit) as bit `j` of the result.
#[cfg(any(
    test,
    not(any(
        all(target_arch = "wasm32", target_feature = "simd128"),
        all(target_arch = "x86_64", target_feature = "sse2")
    ))
))]
fn gather(lanes: u64) -> u64 {
    ((lanes >> 7) & ONES).wrapping_mul(0x0102_0408_1020_4080) >> 56
}

/// High bit of each byte of `v` that is an ASCII letter or digit.
pub(crate) fn alnum(v: u64) -> u64 {
    between(v, b'0' - 1, b'9' + 1) | between(v | (ONES * 0x20), b'a' - 1, b'z' + 1)
}

/// `len` bytes drawn from `alphabet` by a seeded generator (the same text on every run):
/// the texts the tests of the passes over bytes compare with their definitions.
#[cfg(test)]
pub(crate) fn sample(seed: &mut u64, len: usize, alphabet: &[u8]) -> Vec<u8> {
    (0..len)
        .map(|_| {
            *seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            alphabet.get((*seed >> 33) as usize % alphabet.len().max(1)).copied().unwrap_or(0)
        })
        .collect()
}

/// A letter or digit, counting every byte of a multi-byte UTF-8 character as one.
pub(crate) fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b >= 0x80
}

pub(crate) fn word_boundary(text: &[u8], start: usize, end: usize) -> bool {
    let left = start == 0 || !text.get(start - 1).copied().is_some_and(is_word_byte);
    let right = !text.get(end).copied().is_some_and(is_word_byte);
    left && right
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `shifted` and `chains` against their definitions, byte by byte, across block
    /// edges and at the text's two ends.
    #[test]
    fn shifted_masks_and_chains_read_the_bytes_around() {
        let mut seed = 5u64;
        for len in [0, 1, 63, 64, 65, 200, 700] {
            let bytes = sample(&mut seed, len, b"a::b-:9");
            let text = Text::new(&bytes);
            let colons = text.mark_masks(Mark::Colon);
            let colon = |i: i64| i >= 0 && bytes.get(i as usize) == Some(&b':');
            for shift in [-63, -9, -1, 0, 1, 3, 12, 63] {
                for block in 0..text.blocks {
                    let got = shifted(colons, block, shift);
                    for j in 0..64i64 {
                        let at = block as i64 * 64 + j + i64::from(shift);
                        assert_eq!((got >> j) & 1 == 1, colon(at), "shift {shift}, byte {}", block as i64 * 64 + j);
                    }
                }
            }
            for (period, count) in [(3, 5), (5, 2), (1, 3)] {
                let want: Vec<usize> = (0..bytes.len())
                    .filter(|&at| (0..count).all(|k| colon(at as i64 + i64::from(period * k))))
                    .collect();
                assert_eq!(chains(colons, period, count).collect::<Vec<_>>(), want, "{period} x {count}");
            }
            let letter = |i: Option<usize>| i.and_then(|i| bytes.get(i)).is_some_and(u8::is_ascii_alphabetic);
            let wanted: Vec<usize> = (0..bytes.len())
                .filter(|&at| bytes[at].is_ascii_digit() && !(letter(at.checked_sub(1)) && letter(Some(at + 1))))
                .collect();
            let mut digits = text.run_digits();
            let got: Vec<usize> = std::iter::successors(digits.next_from(0), |&at| digits.next_from(at + 1)).collect();
            assert_eq!(got, wanted);
        }
    }

    /// Bytes of every class at every offset of three blocks, against the definitions.
    #[test]
    fn masks_agree_with_the_byte_classes() {
        let mut seed = 3u64;
        for len in [0, 1, 63, 64, 65, 130, 191] {
            let bytes: Vec<u8> =
                sample(&mut seed, len, b"aZ09_- .\xc3\xa9\xe4\xb8\xad\xf0\x9f\x98\x80\x7f\xff@[A`{/:+=~>,");
            let text = Text::new(&bytes);
            for (i, &b) in bytes.iter().enumerate() {
                let bit = |m: &[u64]| (m[i / 64] >> (i % 64)) & 1 == 1;
                assert_eq!(bit(text.alnum()), b.is_ascii_alphanumeric(), "{b:#x}");
                assert_eq!(bit(text.digit()), b.is_ascii_digit(), "{b:#x}");
                assert_eq!(bit(text.dash()), b == b'_' || b == b'-', "{b:#x}");
                assert_eq!(bit(text.caps()), b.is_ascii_uppercase() || b.is_ascii_digit(), "{b:#x}");
                assert_eq!(bit(text.id()), id_byte(b), "{b:#x}");
                assert_eq!(bit(text.marks()), MARKS.contains(&b), "{b:#x}");
                assert_eq!(bit(text.kind(OPS)), b"=:>,".contains(&b), "{b:#x}");
                assert_eq!(bit(text.kind(HIGH)), b >= 0x80, "{b:#x}");
                let folded = if b.is_ascii_alphanumeric() { b.to_ascii_lowercase() } else { 0 };
                assert_eq!(text.folded[i], folded);
            }
            assert_eq!(text.has_wide(), bytes.iter().any(|&b| b >= 0xE0));
            assert_eq!(text.next_digit(0), bytes.iter().position(u8::is_ascii_digit));
        }
    }

    /// The name starts are exactly the ASCII capitals and bytes of `0x80` and up that
    /// follow no ASCII letter or digit and no such byte, across blocks.
    #[test]
    fn name_starts_are_the_capitals_and_high_bytes_after_no_word_byte() {
        let mut seed = 21u64;
        for len in [0, 1, 2, 63, 64, 65, 127, 128, 129, 300] {
            let bytes: Vec<u8> = sample(&mut seed, len, b"Aa1 -'_Z\xc3\x84\xc5\x81\xe4(.");
            let word = |b: u8| b.is_ascii_alphanumeric() || b >= 0x80;
            let expected: Vec<usize> = (0..len)
                .filter(|&i| (bytes[i].is_ascii_uppercase() || bytes[i] >= 0x80) && (i == 0 || !word(bytes[i - 1])))
                .collect();
            assert_eq!(Text::new(&bytes).name_starts().collect::<Vec<_>>(), expected, "{bytes:?}");
        }
    }

    #[test]
    fn letters_end_where_the_bytes_say() {
        let mut seed = 5u64;
        for len in [0, 1, 2, 63, 64, 65, 127, 128, 129, 300] {
            // Long runs of letters too, across the blocks' edges.
            for alphabet in [&b"Aa1 -'_Z\xc3\x84\xc5\x81\xe4(.\x00"[..], b"abcdefghijklmnopqrstuvwxyzQ\xc3\xa9 "] {
                let bytes: Vec<u8> = sample(&mut seed, len, alphabet);
                let text = Text::new(&bytes);
                for at in 0..=len + 1 {
                    let expected = (at..len)
                        .find(|&i| !(bytes[i].is_ascii_alphabetic() || bytes[i] >= 0x80))
                        .unwrap_or(len.max(at));
                    assert_eq!(text.letters_end(at), expected, "{at} of {bytes:?}");
                }
            }
        }
    }

    #[test]
    fn non_ascii_and_capitals_in_a_range_agree_with_the_bytes() {
        let mut seed = 33u64;
        for (len, alphabet) in
            [(0, &b"a"[..]), (70, b"ab c"), (130, b"a1 \xc3\xa9\xe4"), (130, b"aZ 7"), (300, b"ab cd ef 9\x80Q")]
        {
            let bytes: Vec<u8> = sample(&mut seed, len, alphabet);
            let text = Text::new(&bytes);
            for start in 0..=len {
                for end in start..=len {
                    let expected = bytes[start..end].iter().any(|&b| b >= 0x80);
                    assert_eq!(text.any_non_ascii(start, end), expected, "{start}..{end} of {bytes:?}");
                    let capital = bytes[start..end].iter().any(|&b| b >= 0x80 || b.is_ascii_uppercase());
                    assert_eq!(text.any_capital(start, end), capital, "{start}..{end} of {bytes:?}");
                }
            }
        }
    }

    /// `contains` and `positions` agree with a search of the bytes, for needles with a
    /// marked byte anywhere in them and without one, across block boundaries.
    #[test]
    fn marked_searches_agree_with_memmem() {
        let mut seed = 9u64;
        for len in [0, 3, 63, 64, 65, 129, 400] {
            let bytes: Vec<u8> = sample(&mut seed, len, b"sig=Q~:/@.ab");
            let text = Text::new(&bytes);
            for needle in [&b"@"[..], b"://", b"Q~", b"sig=", b".a", b"ab", b"a:/", b"zz", b"=~"] {
                assert_eq!(
                    text.contains(needle),
                    memchr::memmem::find(&bytes, needle).is_some(),
                    "{:?} in {len}",
                    String::from_utf8_lossy(needle)
                );
            }
            let colons: Vec<usize> = text.positions(Mark::Colon).collect();
            assert_eq!(colons, memchr::memchr_iter(b':', &bytes).collect::<Vec<_>>());
        }
        for (i, &b) in MARKS.iter().enumerate() {
            assert_eq!(Mark::of(b).map(|m| m as usize), Some(i));
        }
        assert_eq!(Mark::of(b'a'), None);
    }

    /// The vector block pass of this target and the plain one agree on every byte value
    /// at every lane.
    #[test]
    fn vector_and_plain_blocks_agree() {
        for shift in 0..4u8 {
            let block: [u8; 64] = std::array::from_fn(|i| (i as u8).wrapping_mul(4).wrapping_add(shift));
            for rotate in 0..64 {
                let mut b = block;
                b.rotate_left(rotate);
                let (mut x, mut y) = ([0u8; 64], [0u8; 64]);
                let (m, n) = (fold_block(&b, &mut x), fold_block_swar(&b, &mut y));
                assert_eq!(x, y);
                assert_eq!((m.alnum, m.digit, m.dash, m.caps, m.id), (n.alnum, n.digit, n.dash, n.caps, n.id));
                assert_eq!((m.marks, m.ops, m.high), (n.marks, n.ops, n.high));
            }
        }
    }

    #[test]
    fn lanes_classify_every_byte() {
        for b in 0..=255u8 {
            let lanes = alnum(u64::from_le_bytes([b, b'a', 0xff, b, b'0', b' ', b'Z', b]));
            let expect = |x: u8| if x.is_ascii_alphanumeric() { 0x80 } else { 0 };
            let want = u64::from_le_bytes([expect(b), 0x80, 0, expect(b), 0x80, 0, 0x80, expect(b)]);
            assert_eq!(lanes, want, "byte {b:#x}");
        }
    }

    /// The runs with a digit that the masks find are those of a walk over the bytes,
    /// for both kinds of run and every length, across block boundaries.
    #[test]
    fn digit_runs_agree_with_a_walk() {
        let mut seed = 5u64;
        for len in [0, 1, 9, 63, 64, 65, 127, 128, 200, 700] {
            for alphabet in [&b"a7_- .X+:"[..], b"0123456789 ", b"ab-9", b"Z1. \n"] {
                let bytes: Vec<u8> = sample(&mut seed, len, alphabet);
                let text = Text::new(&bytes);
                for class in [0u8, 1] {
                    let found = |min: usize| -> Vec<(usize, usize)> {
                        if class == 0 {
                            text.digit_token_runs(min).collect()
                        } else {
                            text.digit_id_runs(min).collect()
                        }
                    };
                    let member = |b: u8| {
                        if class == 0 {
                            b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
                        } else {
                            id_byte(b)
                        }
                    };
                    for min in [1, 5, 9, 25, 64] {
                        let mut want = Vec::new();
                        let mut at = 0;
                        while at < bytes.len() {
                            if !member(bytes[at]) {
                                at += 1;
                                continue;
                            }
                            let start = at;
                            while at < bytes.len() && member(bytes[at]) {
                                at += 1;
                            }
                            if at - start >= min && bytes[start..at].iter().any(u8::is_ascii_digit) {
                                want.push((start, at));
                            }
                        }
                        assert_eq!(found(min), want, "class {class} min {min} len {len}");
                    }
                }
            }
        }
    }

    /// The long runs (read from the blocks marked dense) and the runs of other lengths
    /// (every block tested) agree with a walk over the bytes, for runs of every length
    /// around the threshold at every offset of a block.
    #[test]
    fn long_runs_agree_with_a_walk() {
        let mut seed = 17u64;
        for round in 0..300 {
            let mut bytes = Vec::new();
            while bytes.len() < 64 * (1 + round % 5) {
                let run = sample(&mut seed, 1, b"0123456789abcdefghijklmnopqrstuvwxyz")[0] as usize % 40;
                bytes.extend(sample(&mut seed, run, b"aZ9_-"));
                bytes.extend(sample(&mut seed, 1 + run % 3, b" .\n/"));
            }
            let text = Text::new(&bytes);
            let walk = |min: usize| {
                let member = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'-';
                let (mut want, mut at) = (Vec::new(), 0);
                while at < bytes.len() {
                    let start = at;
                    while at < bytes.len() && member(bytes[at]) {
                        at += 1;
                    }
                    if at - start >= min {
                        want.push((start, at));
                    }
                    at += 1;
                }
                want
            };
            assert_eq!(text.long_runs(), walk(LONG_RUN).as_slice(), "{}", String::from_utf8_lossy(&bytes));
            assert_eq!(text.long_token_runs::<LONG_RUN>().collect::<Vec<_>>(), walk(LONG_RUN));
            assert_eq!(text.long_token_runs::<10>().collect::<Vec<_>>(), walk(10));
            assert_eq!(text.long_token_runs::<40>().collect::<Vec<_>>(), walk(40));
        }
        // A run of exactly the threshold, and one byte shorter, at every offset of two
        // blocks: split 13 and 12 across a block's edge, too.
        for offset in 0..130 {
            for len in [LONG_RUN - 1, LONG_RUN] {
                let mut bytes = vec![b' '; 200];
                bytes[offset..offset + len].fill(b'k');
                let want = if len >= LONG_RUN { vec![(offset, offset + len)] } else { vec![] };
                assert_eq!(Text::new(&bytes).long_runs(), want.as_slice(), "{offset} {len}");
            }
        }
    }

    #[test]
    fn token_runs_cross_blocks() {
        let mut bytes = vec![b' '; 300];
        bytes[10..200].fill(b'a');
        bytes[60] = b'_';
        bytes[250..260].fill(b'7');
        let text = Text::new(&bytes);
        for at in [10, 63, 64, 127, 128, 199] {
            assert_eq!(text.token_run(at), (10, 200));
        }
        assert_eq!(text.token_run(255), (250, 260));
        let long: Vec<(usize, usize)> = text.long_token_runs::<25>().collect();
        assert_eq!(long, vec![(10, 200)]);
        assert_eq!(text.long_token_runs::<10>().collect::<Vec<_>>(), vec![(10, 200), (250, 260)]);
        assert_eq!(text.next_digit(0), Some(250));
        assert_eq!(text.next_digit(260), None);
    }
}
