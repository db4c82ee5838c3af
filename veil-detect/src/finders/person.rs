//! Person names by dictionary and context. A run of capitalised words ("Maria de la
//! Cruz", "Anna-Lena van der Berg", "Omar al-Rashid") is a name when the built-in
//! name table (`nametable.rs`, about 66,000 folded names from `data/names/`) or the
//! policy's lists know enough of it — a common given name and any capitalised word
//! after it, a rarer one or a word with a known surname after it — or when a phrase in
//! one of ten languages introduces a person right before it ("Dear", "Sehr geehrte
//! Frau", "je m'appelle", "Rozmawiałem z", "Sayın") or an honorific follows it ("Ayşe
//! Hanım"). Names that are also common words ("Will", "Mark", "Rose", "Price") count
//! only with such context or beside a name that is not. Each capitalised word costs
//! one fold and one table probe; the context is read only for runs that need it.

use std::collections::HashMap;

use crate::config::DetectError;
use crate::config::DetectorsConfig;
use crate::engine::text::is_word_byte;
use crate::engine::text::Text;
use crate::finders::namehash::name_hash;
use crate::finders::names;
use crate::finders::nametable::{self, NameFlags};
use crate::finding::Finding;

/// Added to a dictionary name's confidence when its second word is in the dictionary
/// too, or a phrase introduces it.
pub(crate) const BOTH_NAMES_KNOWN: f32 = 0.15;

/// The most bytes a walk back over one word reads. A word of more does not fold
/// ([`nametable::fold`] holds 64 bytes, and no letter folds to less than a third of
/// its bytes; only a word of 200 apostrophes, which fold to nothing, would), so it is
/// no intro word either way; without the bound, a token of
/// thousands of capitalised words joined by `.` (`Foo.Foo.…`) was walked back over
/// from each of them: quadratic.
const WORD_WALK: usize = 256;

/// Surnames that are also common given names or words ("Martin", "Park", "Lee"): after
/// an unknown capitalised word they are not enough.
const WEAK_SURNAMES: &[&str] = &[
    "park",
    "wood",
    "hill",
    "cook",
    "price",
    "ward",
    "brooks",
    "reed",
    "bailey",
    "baker",
    "cruz",
    "ross",
    "kelly",
    "howard",
    "moore",
    "martin",
    "simon",
    "michel",
    "bruno",
    "wolf",
    "klein",
    "costa",
    "santos",
    "silva",
    "smit",
    "jung",
    "kang",
    "koch",
    "braun",
    "romano",
    "marino",
    "greco",
    "nelson",
    "morgan",
    "murray",
    "kennedy",
    "parker",
    "lewis",
    "foster",
    "turner",
    "collins",
    "campbell",
    "carter",
    "stewart",
    "lee",
    "lin",
    "sun",
    "ma",
    "hu",
    "wu",
    "xu",
    "zhu",
    "guo",
    "ito",
    "das",
    "rao",
    "vu",
    "kim",
    "cho",
    "choi",
    "cox",
    "thomas",
    "adams",
    "allen",
    "evans",
    "morris",
    "rogers",
    "cooper",
    "richardson",
    "watson",
    "bennett",
    "hughes",
    "sanders",
    "myers",
    "doe",
    "sullivan",
    "hansen",
    "jensen",
    "jansen",
    "bakker",
    "mulder",
    "visser",
    "meijer",
    "laurent",
    "roux",
    "eze",
    "sato",
    "kato",
    "shah",
    "singh",
    "khan",
    "ali",
    "hassan",
    "ahmed",
    "ibrahim",
    "page",
    "long",
    "young",
    "king",
    "white",
    "green",
    "brown",
    "black",
    "gray",
    "grey",
    "may",
    "day",
    "rose",
    "hope",
    "love",
    "best",
    "little",
    "bell",
    "hall",
    "west",
    "north",
    "south",
    "east",
    "stone",
    "lane",
    "rice",
    "banks",
    "fox",
    "frank",
    "van",
    "de",
    "la",
    "le",
    "du",
    "della",
    "von",
    "der",
    "den",
    "ten",
    "ter",
    "al",
    "el",
    "bin",
    "ben",
    "da",
    "dos",
    "das",
    "di",
];

/// What a word is to the matcher besides a name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Never part of a name here ("The", "Monday", "Gestern"): ends a run.
    Stop,
    /// A street word ("Street", "Straße", "Rue", "Calle"): the run is a street name.
    Street,
    /// A company form ("GmbH", "Inc"): the run is a company.
    Company,
    /// An honorific after a name ("Bey", "Hanım"): introduces the run before it.
    After,
}

/// How strongly a phrase before a run says a person follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Intro {
    /// A verb or preposition ("spoke with", "met", "mit", "z"): the run needs a known
    /// name that is not a common word.
    Verb,
    /// A greeting, title, label or self-introduction ("Dear", "Frau", "my name is"):
    /// any name the table knows, common words too ("Dear Will").
    Strong,
}

/// What the matcher knows of a folded word besides the name table, from one lookup.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Lexeme {
    kind: Option<Kind>,
    /// Ends an introducing phrase ("dear", "mit", "frau").
    intro_last: bool,
    /// A surname that is also a common given name or word (`WEAK_SURNAMES`).
    weak: bool,
    /// A surname particle (`names::PARTICLES`).
    particle: bool,
    /// On the policy's `detectors.given_names` / `detectors.surnames`.
    given: bool,
    surname: bool,
    /// The first or the second word of a named thing ("morgan" / "stanley").
    pair_first: bool,
    pair_second: bool,
    /// A definite article ([`ARTICLES`]).
    article: bool,
    /// The name table's flags of the word, looked up when the engine is built: a
    /// word in the lexicon is not looked up in the table again.
    table: NameFlags,
}

/// Folded words or phrases with a value each, keyed by [`name_hash`], the hash the
/// name table is probed with: a word is hashed once for both. Open addressing with
/// linear probing, at most half full; the keys are fixed when the engine is built.
/// Most words looked up are in no list, and each slot holds some bits of its entry's
/// hash beside the entry's index, so that a miss reads the slots only.
#[derive(Debug, Clone)]
struct Folded<V> {
    /// An index into `entries`, plus one, in the low `index_bits`; a tag of the hash
    /// above. 0 is an empty slot.
    slots: Vec<u32>,
    index_bits: u32,
    entries: Vec<(u64, Box<[u8]>, V)>,
}

impl<V: Copy> Folded<V> {
    fn new(items: impl IntoIterator<Item = (Vec<u8>, V)>) -> Folded<V> {
        let entries: Vec<(u64, Box<[u8]>, V)> =
            items.into_iter().map(|(k, v)| (name_hash(&k), k.into_boxed_slice(), v)).collect();
        let mut slots = vec![0u32; (entries.len() * 2).next_power_of_two().max(8)];
        // Enough bits for every index plus one; the tag gets the rest (none for a
        // table of more than 2^31 entries, which then compares each entry's hash).
        let index_bits = (usize::BITS - entries.len().leading_zeros()).min(32);
        let mask = slots.len() - 1;
        for (i, (h, _, _)) in entries.iter().enumerate() {
            let mut at = Self::slot(*h, mask);
            while slots.get(at).is_some_and(|&s| s != 0) {
                at = (at + 1) & mask;
            }
            if let (Some(slot), Ok(index)) = (slots.get_mut(at), u32::try_from(i + 1)) {
                *slot = index | Self::tag(*h, index_bits);
            }
        }
        Folded { slots, index_bits, entries }
    }

    fn slot(h: u64, mask: usize) -> usize {
        // The name table reads the top bits and the lowest sixteen; any bits do here.
        (h >> 24) as usize & mask
    }

    /// The hash's bits that a slot holds above the index.
    fn tag(h: u64, index_bits: u32) -> u32 {
        ((h >> 32) as u32).checked_shl(index_bits).unwrap_or(0)
    }

    /// The value of `key`, whose [`name_hash`] is `h`.
    fn get(&self, h: u64, key: &[u8]) -> Option<V> {
        let mask = self.slots.len().checked_sub(1)?;
        let tag = Self::tag(h, self.index_bits);
        let index_mask = u32::MAX.checked_shr(32 - self.index_bits).unwrap_or(0);
        let mut at = Self::slot(h, mask);
        loop {
            let slot = *self.slots.get(at)?;
            if slot == 0 {
                return None;
            }
            if slot & !index_mask == tag {
                let index = usize::try_from(slot & index_mask).ok()?.checked_sub(1)?;
                let (eh, ek, v) = self.entries.get(index)?;
                if *eh == h && **ek == *key {
                    return Some(*v);
                }
            }
            at = (at + 1) & mask;
        }
    }

    fn get_word(&self, key: &[u8]) -> Option<V> {
        self.get(name_hash(key), key)
    }
}

/// The built-in table, the policy's own lists, and the context words.
#[derive(Debug, Clone)]
pub(crate) struct NameMatcher {
    /// Every word of the lists below, with what they say of it.
    lexicon: Folded<Lexeme>,
    /// Whether the policy lists names of its own (the lexicon holds them).
    policy_names: bool,
    /// Introducing phrases by their folded words joined with one space.
    intros: Folded<Intro>,
    /// Firms, brands and titles made of a name ("morgan stanley", "harry potter").
    named_things: Folded<()>,
}

/// A text's bytes and its prepared form (block masks for [`capitalised_word`], the
/// folded copy [`Text::folded`] in which a word of ASCII letters is hashed, not folded
/// again), for the walks over its words.
#[derive(Clone, Copy)]
struct Src<'t> {
    text: &'t [u8],
    prepared: &'t Text<'t>,
}

impl<'t> Src<'t> {
    /// `text[start..end]` folded (in the copy, or into `buf`), and its hash.
    fn fold<'a>(self, start: usize, end: usize, buf: &'a mut [u8; 64]) -> Option<(&'a [u8], u64)>
    where
        't: 'a,
    {
        nametable::fold_hashed_at(self.text, self.prepared.folded(), (start, end), buf)
    }
}

/// A word of a run: its span, its flags in the table, and the lexicon's entry.
#[derive(Debug, Clone, Copy)]
struct RunWord {
    start: usize,
    end: usize,
    flags: NameFlags,
    lexeme: Lexeme,
}

/// Up to six folded words joined by single spaces, written from the back (the walk
/// back from a run reads them last word first): no allocation per phrase tried.
struct Phrase {
    buf: [u8; 6 * 65],
    from: usize,
    words: usize,
}

impl Default for Phrase {
    fn default() -> Phrase {
        Phrase { buf: [0; 6 * 65], from: 6 * 65, words: 0 }
    }
}

impl Phrase {
    /// Puts `word` before the words so far; `None` when they would not fit.
    fn prepend(&mut self, word: &[u8]) -> Option<()> {
        let space = usize::from(self.words > 0);
        let from = self.from.checked_sub(word.len() + space)?;
        self.buf.get_mut(from..from + word.len())?.copy_from_slice(word);
        if space == 1 {
            *self.buf.get_mut(from + word.len())? = b' ';
        }
        self.from = from;
        self.words += 1;
        Some(())
    }

    fn get(&self) -> &[u8] {
        self.buf.get(self.from..).unwrap_or_default()
    }
}

/// End of a capitalised word at `at` ("Maria", "O'Brien", "Müller", "McDonald",
/// "Anna-Lena"), if there is one. All-caps words ("NASA") are not names here.
fn capitalised_word(src: Src<'_>, at: usize) -> Option<usize> {
    let text = src.text;
    let first = *text.get(at)?;
    let mut i = if first.is_ascii_uppercase() {
        at + 1
    } else if (first == 0xC3 && text.get(at + 1).is_some_and(|b| (0x80..=0x9E).contains(b)))
        || ((0xC4..=0xC5).contains(&first) && text.get(at + 1).is_some_and(|b| b & 1 == 0))
    {
        // Latin-1 capitals (À–Þ), and Latin Extended-A, whose capitals are even.
        at + 2
    } else {
        return None;
    };
    // A name continues in lower case (or a multi-byte letter).
    let lower = |b: Option<&u8>| b.is_some_and(|&b| b.is_ascii_lowercase() || b >= 0x80);
    if text.get(i) == Some(&b'\'') && text.get(i + 1).is_some_and(u8::is_ascii_uppercase) {
        i += 2;
    }
    if !lower(text.get(i)) {
        return None;
    }
    // Letters (the masks say where they end), and a hyphen before a capital.
    loop {
        i = src.prepared.letters_end(i);
        if text.get(i) == Some(&b'-') && text.get(i + 1).is_some_and(|&c| c.is_ascii_uppercase() || c >= 0xC3) {
            i += 1;
        } else {
            break;
        }
    }
    (i - at >= 2 && !text.get(i).is_some_and(u8::is_ascii_digit)).then_some(i)
}

/// A surname particle joined to its name ("al-Rashid", "el-Sayed", "d'Angelo"): the
/// name's end.
fn joined_particle(src: Src<'_>, at: usize) -> Option<usize> {
    let rest = src.text.get(at..)?;
    let skip = if rest.starts_with(b"al-") || rest.starts_with(b"el-") {
        3
    } else if rest.starts_with(b"d'") || rest.starts_with(b"l'") {
        2
    } else {
        return None;
    };
    capitalised_word(src, at + skip)
}

/// The longest of `names::PARTICLES` (a test holds the list to it): a longer
/// lower-case word is not looked up.
const PARTICLE_MAX: usize = 5;

/// Abbreviated titles: written with a capital, and may end in a full stop.
const TITLES: &[&[u8]] = &[
    b"mr", b"mrs", b"ms", b"mx", b"dr", b"prof", b"sr", b"sra", b"srta", b"mme", b"mlle", b"dhr", b"mevr", b"sig",
    b"dott", b"attn",
];

/// Case endings of Polish, German and Turkish names after a verb or preposition
/// ("z Tomaszem Nowakiem", "mit Annas"), tried only where a phrase introduces a run:
/// the ending and what replaces it.
const ENDINGS: &[(&str, &str)] = &[
    ("iem", ""),
    ("im", "i"),
    ("em", ""),
    ("owi", ""),
    ("ego", "i"),
    ("ą", "a"),
    ("ę", "a"),
    ("ie", "a"),
    ("y", "a"),
    ("a", ""),
    ("u", ""),
    ("s", ""),
    ("la", ""),
    ("le", ""),
    ("yla", ""),
    ("yle", ""),
];

impl NameMatcher {
    pub(crate) fn new(config: &DetectorsConfig) -> Result<NameMatcher, DetectError> {
        let fold = |s: &str| {
            let mut buf = [0u8; 64];
            nametable::fold(s.trim().as_bytes(), &mut buf).map(<[u8]>::to_vec).unwrap_or_default()
        };
        let mut words: HashMap<Vec<u8>, Lexeme> = HashMap::new();
        for (list, kind) in [
            (names::NOT_A_NAME, Kind::Stop),
            (names::STOP_WORDS, Kind::Stop),
            (names::STREET_WORDS, Kind::Street),
            (names::COMPANY_WORDS, Kind::Company),
            (names::AFTER_TITLES, Kind::After),
        ] {
            for word in list {
                words.entry(fold(word)).or_default().kind = Some(kind);
            }
        }
        let mut intros: HashMap<Vec<u8>, Intro> = HashMap::new();
        for (list, intro) in [(names::INTRODUCERS, Intro::Strong), (names::INTRODUCING_VERBS, Intro::Verb)] {
            for phrase in list {
                let folded: Vec<Vec<u8>> = phrase.split(' ').map(fold).collect();
                if let Some(last) = folded.last() {
                    words.entry(last.clone()).or_default().intro_last = true;
                }
                // Capitalised ("Dear", "Sayın", "Frau"), an introducing word is no name.
                for word in &folded {
                    if !names::PARTICLES.iter().any(|p| p.as_bytes() == word.as_slice()) {
                        let entry = words.entry(word.clone()).or_default();
                        entry.kind = entry.kind.or(Some(Kind::Stop));
                    }
                }
                intros.insert(folded.join(&b' '), intro);
            }
        }
        for word in WEAK_SURNAMES {
            words.entry(word.as_bytes().to_vec()).or_default().weak = true;
        }
        for word in names::PARTICLES {
            words.entry(word.as_bytes().to_vec()).or_default().particle = true;
        }
        let mut named_things = Vec::new();
        for thing in names::NAMED_THINGS {
            let pair: Vec<Vec<u8>> = thing.split(' ').map(fold).collect();
            if let [first, second] = pair.as_slice() {
                words.entry(first.clone()).or_default().pair_first = true;
                words.entry(second.clone()).or_default().pair_second = true;
            }
            named_things.push((pair.join(&b' '), ()));
        }
        for article in ARTICLES {
            words.entry(article.to_vec()).or_default().article = true;
        }
        let mut policy_names = false;
        for (list, given) in [(&config.given_names, true), (&config.surnames, false)] {
            for name in list.iter().map(|s| fold(s)).filter(|s| !s.is_empty()) {
                let entry = words.entry(name).or_default();
                entry.given |= given;
                entry.surname |= !given;
                policy_names = true;
            }
        }
        for (word, lexeme) in &mut words {
            lexeme.table = nametable::lookup_hash(name_hash(word));
        }
        named_things.sort();
        named_things.dedup();
        Ok(NameMatcher {
            lexicon: Folded::new(words),
            policy_names,
            intros: Folded::new(intros),
            named_things: Folded::new(named_things),
        })
    }

    /// What the lexicon says of a folded word.
    fn lexeme(&self, folded: &[u8]) -> Lexeme {
        self.lexicon.get_word(folded).unwrap_or_default()
    }

    /// What the lexicon says of the word `text[start..end]` (folded first).
    fn lexeme_at(&self, src: Src<'_>, start: usize, end: usize) -> Lexeme {
        let mut buf = [0u8; 64];
        src.fold(start, end, &mut buf).and_then(|(w, h)| self.lexicon.get(h, w)).unwrap_or_default()
    }

    /// [`word`](Self::word) of `text[start..end]`.
    fn word_at(&self, src: Src<'_>, start: usize, end: usize) -> (NameFlags, Lexeme) {
        let mut buf = [0u8; 64];
        match src.fold(start, end, &mut buf) {
            Some((folded, h)) => self.folded_word(folded, h),
            None => (NameFlags::default(), Lexeme::default()),
        }
    }

    /// The table's and the policy's flags of a word as written (a hyphenated one by its
    /// parts: given if its first part is, a surname if any part is), and the lexicon's
    /// entry.
    fn word(&self, word: &[u8]) -> (NameFlags, Lexeme) {
        let mut buf = [0u8; 64];
        match nametable::fold_hashed(word, &mut buf) {
            Some((folded, h)) => self.folded_word(folded, h),
            None => (NameFlags::default(), Lexeme::default()),
        }
    }

    /// [`word`](Self::word) of a folded word whose [`name_hash`] is `h`.
    fn folded_word(&self, folded: &[u8], h: u64) -> (NameFlags, Lexeme) {
        let (table, lexeme) = match self.lexicon.get(h, folded) {
            Some(lexeme) => (lexeme.table, lexeme),
            None => (nametable::lookup_hash(h), Lexeme::default()),
        };
        let mut flags = Self::with_policy(table, lexeme);
        if !flags.known() && folded.contains(&b'-') {
            let mut parts = folded.split(|&b| b == b'-');
            let first = parts.next().map(|p| self.flags(p)).unwrap_or_default();
            let surname = first.surname() || parts.any(|p| self.flags(p).surname());
            flags = NameFlags::new(first.given(), surname, first.common_word());
        }
        (flags, lexeme)
    }

    /// A table's flags with the policy's lists (which make a name of a common word).
    fn with_policy(mut flags: NameFlags, lexeme: Lexeme) -> NameFlags {
        if lexeme.given {
            flags = flags.with(NameFlags::new(3, false, false)).without_common();
        }
        if lexeme.surname {
            flags = flags.with(NameFlags::new(0, true, false)).without_common();
        }
        flags
    }

    fn flags(&self, folded: &[u8]) -> NameFlags {
        let h = name_hash(folded);
        let lexeme =
            if self.policy_names { self.lexicon.get(h, folded).unwrap_or_default() } else { Lexeme::default() };
        Self::with_policy(nametable::lookup_hash(h), lexeme)
    }

    /// A word's flags, trying the case endings too (after an introducing phrase).
    fn inflected(&self, word: &[u8]) -> NameFlags {
        let (flags, _) = self.word(word);
        if flags.known() {
            return flags;
        }
        let mut buf = [0u8; 64];
        let Some(folded) = nametable::fold(word, &mut buf) else { return flags };
        for (ending, with) in ENDINGS {
            if let Some(stem) = folded.strip_suffix(ending.as_bytes()) {
                if stem.len() >= 3 {
                    let mut form = stem.to_vec();
                    form.extend_from_slice(with.as_bytes());
                    let f = self.flags(&form);
                    if f.known() {
                        return f;
                    }
                }
            }
        }
        flags
    }

    /// The phrase that ends right before `start` (past a space, `,` or `:`), if it
    /// introduces a person.
    fn intro_before(&self, src: Src<'_>, start: usize) -> Option<Intro> {
        let text = src.text;
        let mut at = start;
        // The folded words read so far, joined by spaces, written from the back.
        let mut phrase = Phrase::default();
        while phrase.words < 4 {
            // A sign-off may stand on the line before ("Best regards,\nAnna").
            while at > 0 && text.get(at - 1).is_some_and(|&b| matches!(b, b' ' | b',' | b':' | b'\n' | b'\r')) {
                at -= 1;
            }
            let end = at;
            // At most WORD_WALK bytes: a longer word does not fold (see the constant).
            while at > 0
                && end - at < WORD_WALK
                && text.get(at - 1).is_some_and(|&b| b.is_ascii_alphabetic() || b >= 0x80 || b == b'\'' || b == b'.')
            {
                at -= 1;
            }
            if at == end {
                break;
            }
            // Part of a longer token ("…05Z. Card", "rL9Z Run") is no word.
            if at > 0 && text.get(at - 1).is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'_') {
                return None;
            }
            let mut buf = [0u8; 64];
            let raw = text.get(at..end)?;
            let dotted = raw.strip_suffix(b".");
            let raw = dotted.unwrap_or(raw);
            let (folded, h) = src.fold(at, at + raw.len(), &mut buf)?;
            if phrase.words == 0 {
                if !self.lexicon.get(h, folded).is_some_and(|l| l.intro_last) {
                    return None;
                }
                // A full stop ends a sentence unless it ends a title ("Dr.", "Sig.ra"
                // has its own); a short title is one only when capitalised ("ms" is
                // milliseconds).
                let title = TITLES.contains(&folded);
                if (dotted.is_some() && !title) || (title && !raw.first().is_some_and(u8::is_ascii_uppercase)) {
                    return None;
                }
            }
            phrase.prepend(folded)?;
            if let Some(intro) = self.intros.get_word(phrase.get()) {
                // The longest phrase wins ("sehr geehrte frau" over "frau").
                let mut best = intro;
                let mut back = at;
                for _ in 0..2 {
                    while back > 0 && text.get(back - 1) == Some(&b' ') {
                        back -= 1;
                    }
                    let e = back;
                    while back > 0
                        && e - back < WORD_WALK
                        && text.get(back - 1).is_some_and(|&b| b.is_ascii_alphabetic() || b >= 0x80)
                    {
                        back -= 1;
                    }
                    if back == e {
                        break;
                    }
                    let mut b2 = [0u8; 64];
                    if let Some(w) = text.get(back..e).and_then(|w| nametable::fold(w, &mut b2)) {
                        if phrase.prepend(w).is_none() {
                            break;
                        }
                        if let Some(i) = self.intros.get_word(phrase.get()) {
                            best = best.max(i);
                        }
                    }
                }
                return Some(best);
            }
        }
        None
    }

    /// Runs of capitalised words that are names (see the module's doc).
    pub(crate) fn find(&self, prepared: &Text<'_>, rule: usize, confidence: f32, out: &mut Vec<Finding>) {
        let text = prepared.bytes();
        let src = Src { text, prepared };
        let mut at = 0;
        let mut run: Vec<RunWord> = Vec::with_capacity(5);
        // The capitals at word starts, from the block masks (a walk to each capital of
        // a log's `INFO`, `API_KEY` and `2026-11-24T10` was most of this matcher's time
        // in code and logs).
        for start in prepared.name_starts() {
            let capital = text.get(start).is_some_and(|b| b.is_ascii_uppercase() || (0xC3..=0xC5).contains(b));
            if start < at || !capital {
                continue;
            }
            at = start + 1;
            if start > 0 && text.get(start - 1).copied().is_some_and(|b| is_word_byte(b) || b == b'-' || b == b'\'') {
                continue;
            }
            let Some(first_end) = capitalised_word(src, start) else { continue };
            at = first_end;
            let (flags, lexeme) = self.word_at(src, start, first_end);
            if lexeme.kind.is_some() && !self.stop_word_as_given(src, start, first_end, flags, lexeme) {
                continue;
            }
            run.clear();
            run.push(RunWord { start, end: first_end, flags, lexeme });
            let mut after = false;
            let mut rejected = false;
            let mut end = first_end;
            while run.len() < 5 && text.get(end) == Some(&b' ') {
                let mut next = end + 1;
                // An initial ("John F. Kennedy").
                if text.get(next).is_some_and(u8::is_ascii_uppercase)
                    && text.get(next + 1) == Some(&b'.')
                    && text.get(next + 2) == Some(&b' ')
                {
                    next += 3;
                }
                // Particles ("van der", "de la", "da", "bin").
                let mut particles = 0;
                while particles < 3 {
                    let len = text.get(next..).map_or(0, |r| r.iter().take_while(|b| b.is_ascii_lowercase()).count());
                    if (1..=PARTICLE_MAX).contains(&len)
                        && text.get(next + len) == Some(&b' ')
                        && text.get(next..next + len).is_some_and(|w| self.lexeme(w).particle)
                    {
                        next += len + 1;
                        particles += 1;
                    } else {
                        break;
                    }
                }
                let word_end = capitalised_word(src, next).or_else(|| joined_particle(src, next));
                let Some(word_end) = word_end else { break };
                let joined = particles > 0 || text.get(next).is_some_and(u8::is_ascii_lowercase);
                if text.get(word_end).is_some_and(|&b| b == b'\'' || b == b'-') {
                    break;
                }
                let (flags, lexeme) = self.word_at(src, next, word_end);
                match lexeme.kind {
                    Some(Kind::After) => {
                        after = true;
                        break;
                    }
                    Some(Kind::Street | Kind::Company) => {
                        rejected = true;
                        break;
                    }
                    Some(Kind::Stop) => break,
                    None => {}
                }
                // After a particle, an unknown word is a surname only where the run ends
                // ("von Bülow,"; not "von der Deutschen Bahn").
                if joined
                    && !flags.known()
                    && text.get(word_end) == Some(&b' ')
                    && capitalised_word(src, word_end + 1).is_some()
                {
                    break;
                }
                run.push(RunWord { start: next, end: word_end, flags, lexeme });
                end = word_end;
            }
            let last_end = run.last().map_or(first_end, |w| w.end);
            at = at.max(last_end);
            if rejected {
                continue;
            }
            // Whether the run is a name first: most capitalised words of code and logs
            // are not (`Traceback`, `Merge`), and the checks for what else the run may
            // be (each a look at the words around it) are then not needed.
            let Some((s, e, both)) = self.decide(src, &run, after) else { continue };
            if Self::street_compound(text, &run)
                || self.street_or_article_before(src, start)
                || self.firm_after(text, last_end)
                || self.named_thing(text, &run)
            {
                continue;
            }
            let c = if both { confidence + BOTH_NAMES_KNOWN } else { confidence };
            out.push(Finding { start: s, end: e, rule, confidence: c.min(1.0) });
        }
    }

    /// A word that is never a name in English but a given name elsewhere ("Can", "Will",
    /// "May") begins a name after a greeting, label or title when a word the table knows
    /// as a surname follows it ("Yetkili Can Yıldız", "Dear Will Turner"; not "Hi Can
    /// you").
    fn stop_word_as_given(&self, src: Src<'_>, start: usize, end: usize, flags: NameFlags, lexeme: Lexeme) -> bool {
        let text = src.text;
        if lexeme.kind != Some(Kind::Stop) || flags.given() == 0 || text.get(end) != Some(&b' ') {
            return false;
        }
        let Some(next_end) = capitalised_word(src, end + 1) else { return false };
        let (next, next_lexeme) = self.word_at(src, end + 1, next_end);
        if next_lexeme.kind.is_some() || !next.surname() {
            return false;
        }
        // The introducing words themselves ("Frau", "Pan") are titles, not given names.
        !lexeme.intro_last && self.intro_before(src, start) == Some(Intro::Strong)
    }

    /// The run's first two words (or its one word and the next) name a firm, brand or
    /// title ("Morgan Stanley", "Harry Potter").
    fn named_thing(&self, text: &[u8], run: &[RunWord]) -> bool {
        let Some(first) = run.first() else { return false };
        let (start, end) = (first.start, first.end);
        // The lexicon marks the words that begin or end a named thing: most runs are
        // let go without a look at the words.
        let second = run.get(1);
        if second.map_or(!first.lexeme.pair_second, |w| !first.lexeme.pair_first || !w.lexeme.pair_second) {
            return false;
        }
        // The pair is the run's first two words, or the word before it and its first
        // ("Pan Tadeusz", whose title word starts no run).
        let before = start.checked_sub(1).filter(|&b| text.get(b) == Some(&b' ')).map(|b| {
            let mut s = b;
            while s > 0 && text.get(s - 1).is_some_and(|&c| c.is_ascii_alphabetic() || c >= 0x80) {
                s -= 1;
            }
            (s, b)
        });
        let ((s1, e1), (s2, e2)) = match (second, before) {
            (Some(w), _) => ((start, end), (w.start, w.end)),
            (None, Some(w)) => (w, (start, end)),
            (None, None) => return false,
        };
        let (mut b1, mut b2) = ([0u8; 64], [0u8; 64]);
        let (Some(w1), Some(w2)) = (
            text.get(s1..e1).and_then(|w| nametable::fold(w, &mut b1)),
            text.get(s2..e2).and_then(|w| nametable::fold(w, &mut b2)),
        ) else {
            return false;
        };
        let mut pair = [0u8; 129];
        let len = w1.len() + 1 + w2.len();
        let Some(joined) = pair.get_mut(..len) else { return false };
        let (first, rest) = joined.split_at_mut(w1.len());
        first.copy_from_slice(w1);
        if let Some((space, second)) = rest.split_first_mut() {
            *space = b' ';
            second.copy_from_slice(w2);
        }
        self.named_things.get_word(joined).is_some()
    }

    /// A company form or `&` right after the run ("Robert Bosch GmbH", "Johnson &
    /// Johnson").
    fn firm_after(&self, text: &[u8], end: usize) -> bool {
        if text.get(end) != Some(&b' ') {
            return false;
        }
        let at = end + 1;
        if text.get(at) == Some(&b'&') {
            return true;
        }
        // Letters and dots ("B.V.", "S.A."), the dots dropped, folded (ASCII letters
        // only: lower case).
        let mut letters = [0u8; 64];
        let mut n = 0;
        let bytes = text.get(at..).unwrap_or_default().iter().take_while(|b| b.is_ascii_alphabetic() || **b == b'.');
        for (slot, &b) in letters.iter_mut().zip(bytes.filter(|b| **b != b'.')) {
            *slot = b.to_ascii_lowercase();
            n += 1;
        }
        let word = letters.get(..n).unwrap_or_default();
        !word.is_empty() && self.lexicon.get_word(word).is_some_and(|l| l.kind == Some(Kind::Company))
    }

    /// A run that ends in a street's compound name (`-straße`, `-weg`, `-singel`,
    /// `-gatan`, …) that the tables do not hold as a surname, with no known given name
    /// before it but a particle: a street ("aan De Coolsingel", "in der
    /// Lindenstraße"), not a person ("Jan Vanderlaan" keeps his given name).
    fn street_compound(text: &[u8], run: &[RunWord]) -> bool {
        let Some((last, before)) = run.split_last() else { return false };
        // A capitalised particle ("De", "Van") may be a given name in the tables too.
        let particle = |w: &RunWord| {
            text.get(w.start..w.end)
                .is_some_and(|w| names::PARTICLES.iter().any(|p| w.eq_ignore_ascii_case(p.as_bytes())))
        };
        !last.flags.surname()
            && last.flags.given() == 0
            && crate::finders::address::street_compound(text, last.start, last.end)
            && before.iter().all(|w| w.flags.given() == 0 || particle(w))
    }

    /// A street word ("Rue Victor Hugo", "ul. Jana Pawła") or a definite article
    /// (any case: "the Allianz Arena", [`ARTICLES`]) right before the run, with one space
    /// between. One fold and one lookup answer both when the word before is ASCII
    /// letters only; [`article_before`] walks its own way over any other.
    fn street_or_article_before(&self, src: Src<'_>, start: usize) -> bool {
        let text = src.text;
        let Some(end) = start.checked_sub(1).filter(|&e| text.get(e) == Some(&b' ')) else { return false };
        let mut s = end;
        while s > 0 && text.get(s - 1).is_some_and(|&b| b.is_ascii_alphabetic() || b >= 0x80 || b == b'.') {
            s -= 1;
        }
        let Some(raw) = text.get(s..end) else { return false };
        let lexeme = self.lexeme_at(src, s, s + raw.strip_suffix(b".").unwrap_or(raw).len());
        if lexeme.kind == Some(Kind::Street) {
            return true;
        }
        if !raw.iter().all(u8::is_ascii_alphabetic) {
            return article_before(text, start);
        }
        // The article's walk (over ASCII letters) ended where this one did.
        lexeme.article && !(s > 0 && text.get(s - 1).is_some_and(|&b| is_word_byte(b) || b == b'-' || b == b'\''))
    }

    /// The span of the run that is a name, and whether it is more than certain (two
    /// known names, or a name with its introduction).
    fn decide(&self, src: Src<'_>, run: &[RunWord], after: bool) -> Option<(usize, usize, bool)> {
        let text = src.text;
        let n = run.len();
        let start = run.first()?.start;
        let end = run.last()?.end;
        let strong_surname = |w: &RunWord| w.flags.surname() && !w.flags.common_word() && !w.lexeme.weak;
        // By the dictionary alone: from the first word that begins a name.
        if n >= 2 {
            for (i, w) in run.iter().enumerate().take(n - 1) {
                let f = w.flags;
                let rest = run.get(i + 1..).unwrap_or_default();
                let later_surname = rest.iter().any(|r| r.flags.surname() && !r.flags.common_word());
                let both = later_surname && f.given() > 0;
                let begins = (f.given() >= 2 && !f.common_word())
                    || (f.given() >= 1 && later_surname)
                    || (!f.common_word() && rest.first().is_some_and(strong_surname));
                if begins {
                    return Some((w.start, end, both));
                }
            }
        }
        let any_known = run.iter().any(|w| w.flags.known());
        if !any_known && n < 2 && !after {
            // A single unknown word: only a case ending after an introduction can help.
            let intro = self.intro_before(src, start)?;
            let first = run.first()?;
            let f = self.inflected(text.get(first.start..first.end)?);
            return (f.known() && (intro == Intro::Strong || !f.common_word())).then_some((
                first.start,
                first.end,
                true,
            ));
        }
        let intro = if after { Some(Intro::Strong) } else { self.intro_before(src, start) };
        match intro? {
            Intro::Strong => any_known.then_some((start, end, true)),
            Intro::Verb => {
                // A common word passes as a common given name ("called Will"), not as a
                // surname or rare name ("with Price").
                let known = run.iter().any(|w| {
                    let f = if w.flags.known() {
                        w.flags
                    } else {
                        text.get(w.start..w.end).map(|t| self.inflected(t)).unwrap_or_default()
                    };
                    f.known() && (!f.common_word() || f.given() >= 2)
                });
                known.then_some((start, end, true))
            }
        }
    }
}

/// Definite articles of the ten languages that come before a named thing and hardly
/// ever before a person's name in writing ("die Berliner Mauer", "the Allianz Arena",
/// "la Torre Eiffel"); the Portuguese `o`/`a` (used before names) and `de` (also a
/// preposition: "la casa de María López") are not among them.
const ARTICLES: &[&[u8]] = &[
    b"the", b"der", b"die", b"das", b"den", b"dem", b"des", b"le", b"la", b"les", b"el", b"los", b"las", b"il", b"lo",
    b"gli", b"het",
];

/// A definite article (any case) right before the run, with one space between.
fn article_before(text: &[u8], start: usize) -> bool {
    let Some(end) = start.checked_sub(1).filter(|&e| text.get(e) == Some(&b' ')) else { return false };
    let mut s = end;
    while s > 0 && text.get(s - 1).is_some_and(u8::is_ascii_alphabetic) {
        s -= 1;
    }
    if s > 0 && text.get(s - 1).is_some_and(|&b| is_word_byte(b) || b == b'-' || b == b'\'') {
        return false;
    }
    text.get(s..end).is_some_and(|w| ARTICLES.iter().any(|a| w.eq_ignore_ascii_case(a)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_particle_is_longer_than_the_lookup_reads() {
        assert_eq!(names::PARTICLES.iter().map(|p| p.len()).max(), Some(PARTICLE_MAX));
    }

    #[test]
    fn folded_tables_find_their_keys_and_nothing_else() {
        // More keys than slots of the smallest table, so that probes run on.
        let keys: Vec<Vec<u8>> = (0..300).map(|i| format!("w{i}").into_bytes()).collect();
        let table = Folded::new(keys.iter().cloned().zip(0u32..));
        for (i, key) in keys.iter().enumerate() {
            assert_eq!(table.get_word(key), u32::try_from(i).ok());
        }
        for absent in [&b"w300"[..], b"", b"w", b"W1", b"w1 "] {
            assert_eq!(table.get_word(absent), None);
        }
        // The right hash and the wrong bytes is no match.
        assert_eq!(table.get(name_hash(b"w7"), b"w8"), None);
        assert_eq!(Folded::<()>::new(Vec::new()).get_word(b"w"), None);
        // A table of one entry: one bit of index, the rest tag.
        let one = Folded::new([(b"frau".to_vec(), 7u8)]);
        assert_eq!((one.index_bits, one.get_word(b"frau"), one.get_word(b"herr")), (1, Some(7), None));
    }

    #[test]
    fn phrases_are_joined_from_the_back_and_bounded() {
        let mut phrase = Phrase::default();
        assert_eq!(phrase.get(), b"");
        phrase.prepend(b"frau").unwrap();
        phrase.prepend(b"geehrte").unwrap();
        phrase.prepend(b"sehr").unwrap();
        assert_eq!(phrase.get(), b"sehr geehrte frau");
        let mut full = Phrase::default();
        for _ in 0..6 {
            full.prepend(&[b'a'; 64]).unwrap();
        }
        assert!(full.prepend(b"a").is_none());
        assert_eq!(full.get().len(), 6 * 64 + 5);
    }
}
