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

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

use super::nametable::{self, NameFlags};
use super::text::Text;
use super::{is_word_byte, names, DetectError, DetectorsConfig, Finding};

/// Added to a dictionary name's confidence when its second word is in the dictionary
/// too, or a phrase introduces it.
pub(super) const BOTH_NAMES_KNOWN: f32 = 0.15;

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

/// A multiply-rotate hasher for the matcher's word sets: their keys are fixed when
/// the engine is built (text only looks them up), and words are short, so SipHash's
/// flooding resistance buys nothing and costs most of a lookup.
#[derive(Debug, Default, Clone, Copy)]
struct WordHasher(u64);

impl Hasher for WordHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x517c_c1b7_2722_0a95);
        }
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

type Words = BuildHasherDefault<WordHasher>;
type WordSet<K> = HashSet<K, Words>;
type WordMap<K, V> = HashMap<K, V, Words>;

/// The built-in table, the policy's own lists, and the context words.
#[derive(Debug, Clone)]
pub(super) struct NameMatcher {
    given: WordSet<Vec<u8>>,
    surnames: WordSet<Vec<u8>>,
    kinds: WordMap<Vec<u8>, Kind>,
    weak_surnames: WordSet<&'static [u8]>,
    /// Introducing phrases by their folded words joined with one space.
    intros: WordMap<Vec<u8>, Intro>,
    /// Words of at most four words before a run that can end an introducing phrase.
    intro_last: WordSet<Vec<u8>>,
    particles: WordSet<&'static [u8]>,
    /// Firms, brands and titles made of a name ("morgan stanley", "harry potter").
    named_things: WordSet<Vec<u8>>,
}

/// End of a capitalised word at `at` ("Maria", "O'Brien", "Müller", "McDonald",
/// "Anna-Lena"), if there is one. All-caps words ("NASA") are not names here.
fn capitalised_word(text: &[u8], at: usize) -> Option<usize> {
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
    while let Some(&b) = text.get(i) {
        let hyphenated = b == b'-' && text.get(i + 1).is_some_and(|&c| c.is_ascii_uppercase() || c >= 0xC3);
        if b.is_ascii_alphabetic() || b >= 0x80 || hyphenated {
            i += 1;
        } else {
            break;
        }
    }
    (i - at >= 2 && !text.get(i).is_some_and(u8::is_ascii_digit)).then_some(i)
}

/// A surname particle joined to its name ("al-Rashid", "el-Sayed", "d'Angelo"): the
/// name's end.
fn joined_particle(text: &[u8], at: usize) -> Option<usize> {
    let rest = text.get(at..)?;
    let skip = if rest.starts_with(b"al-") || rest.starts_with(b"el-") {
        3
    } else if rest.starts_with(b"d'") || rest.starts_with(b"l'") {
        2
    } else {
        return None;
    };
    capitalised_word(text, at + skip)
}

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
    pub(super) fn new(config: &DetectorsConfig) -> Result<NameMatcher, DetectError> {
        let fold = |s: &str| {
            let mut buf = [0u8; 64];
            nametable::fold(s.trim().as_bytes(), &mut buf).map(<[u8]>::to_vec).unwrap_or_default()
        };
        let given = config.given_names.iter().map(|s| fold(s)).filter(|s| !s.is_empty()).collect();
        let surnames = config.surnames.iter().map(|s| fold(s)).filter(|s| !s.is_empty()).collect();
        let mut kinds = WordMap::default();
        for (list, kind) in [
            (names::NOT_A_NAME, Kind::Stop),
            (names::STOP_WORDS, Kind::Stop),
            (names::STREET_WORDS, Kind::Street),
            (names::COMPANY_WORDS, Kind::Company),
            (names::AFTER_TITLES, Kind::After),
        ] {
            for word in list {
                kinds.insert(fold(word), kind);
            }
        }
        let mut intros = WordMap::default();
        let mut intro_last = WordSet::default();
        for (list, intro) in [(names::INTRODUCERS, Intro::Strong), (names::INTRODUCING_VERBS, Intro::Verb)] {
            for phrase in list {
                let words: Vec<Vec<u8>> = phrase.split(' ').map(fold).collect();
                if let Some(last) = words.last() {
                    intro_last.insert(last.clone());
                }
                // Capitalised ("Dear", "Sayın", "Frau"), an introducing word is no name.
                for word in &words {
                    if !names::PARTICLES.iter().any(|p| p.as_bytes() == word.as_slice()) {
                        kinds.entry(word.clone()).or_insert(Kind::Stop);
                    }
                }
                intros.insert(words.join(&b' '), intro);
            }
        }
        Ok(NameMatcher {
            given,
            surnames,
            kinds,
            weak_surnames: WEAK_SURNAMES.iter().map(|s| s.as_bytes()).collect(),
            intros,
            intro_last,
            particles: names::PARTICLES.iter().map(|s| s.as_bytes()).collect(),
            named_things: names::NAMED_THINGS
                .iter()
                .map(|t| t.split(' ').map(fold).collect::<Vec<_>>().join(&b' '))
                .collect(),
        })
    }

    /// The table's and the policy's flags of a word (a hyphenated one by its parts:
    /// given if its first part is, a surname if any part is), and its other kind.
    fn word(&self, word: &[u8]) -> (NameFlags, Option<Kind>) {
        let mut buf = [0u8; 64];
        let Some(folded) = nametable::fold(word, &mut buf) else { return (NameFlags::default(), None) };
        let kind = self.kinds.get(folded).copied();
        let mut flags = self.flags(folded);
        if !flags.known() && folded.contains(&b'-') {
            let mut parts = folded.split(|&b| b == b'-');
            let first = parts.next().map(|p| self.flags(p)).unwrap_or_default();
            let surname = first.surname() || parts.any(|p| self.flags(p).surname());
            flags = NameFlags::new(first.given(), surname, first.common_word());
        }
        (flags, kind)
    }

    fn flags(&self, folded: &[u8]) -> NameFlags {
        let mut flags = nametable::lookup(folded);
        if !self.given.is_empty() && self.given.contains(folded) {
            flags = flags.with(NameFlags::new(3, false, false)).without_common();
        }
        if !self.surnames.is_empty() && self.surnames.contains(folded) {
            flags = flags.with(NameFlags::new(0, true, false)).without_common();
        }
        flags
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
    fn intro_before(&self, text: &[u8], start: usize) -> Option<Intro> {
        let mut at = start;
        let mut words: Vec<Vec<u8>> = Vec::new();
        while words.len() < 4 {
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
            let folded = nametable::fold(raw, &mut buf)?;
            if words.is_empty() {
                if !self.intro_last.contains(folded) {
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
            words.insert(0, folded.to_vec());
            if let Some(intro) = self.intros.get(&words.join(&b' ')) {
                // The longest phrase wins ("sehr geehrte frau" over "frau").
                let mut best = *intro;
                let mut more = words.clone();
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
                        more.insert(0, w.to_vec());
                        if let Some(i) = self.intros.get(&more.join(&b' ')) {
                            best = best.max(*i);
                        }
                    }
                }
                return Some(best);
            }
        }
        None
    }

    /// Runs of capitalised words that are names (see the module's doc).
    pub(super) fn find(&self, prepared: &Text<'_>, rule: usize, confidence: f32, out: &mut Vec<Finding>) {
        let text = prepared.bytes();
        let mut at = 0;
        let mut run: Vec<(usize, usize, NameFlags)> = Vec::with_capacity(4);
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
            let Some(first_end) = capitalised_word(text, start) else { continue };
            at = first_end;
            let Some(first) = text.get(start..first_end) else { continue };
            let (flags, kind) = self.word(first);
            if kind.is_some() && !self.stop_word_as_given(text, start, first_end, flags, kind) {
                continue;
            }
            run.clear();
            run.push((start, first_end, flags));
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
                    if len > 0
                        && text.get(next + len) == Some(&b' ')
                        && text.get(next..next + len).is_some_and(|w| self.particles.contains(w))
                    {
                        next += len + 1;
                        particles += 1;
                    } else {
                        break;
                    }
                }
                let word_end = capitalised_word(text, next).or_else(|| joined_particle(text, next));
                let Some(word_end) = word_end else { break };
                let joined = particles > 0 || text.get(next).is_some_and(u8::is_ascii_lowercase);
                if text.get(word_end).is_some_and(|&b| b == b'\'' || b == b'-') {
                    break;
                }
                let Some(word) = text.get(next..word_end) else { break };
                let (flags, kind) = self.word(word);
                match kind {
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
                    && capitalised_word(text, word_end + 1).is_some()
                {
                    break;
                }
                run.push((next, word_end, flags));
                end = word_end;
            }
            let last_end = run.last().map_or(first_end, |w| w.1);
            at = at.max(last_end);
            if rejected {
                continue;
            }
            // Whether the run is a name first: most capitalised words of code and logs
            // are not (`Traceback`, `Merge`), and the checks for what else the run may
            // be (each a look at the words around it) are then not needed.
            let Some((s, e, both)) = self.decide(text, &run, after) else { continue };
            if Self::street_compound(text, &run)
                || self.street_before(text, start)
                || article_before(text, start)
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
    fn stop_word_as_given(&self, text: &[u8], start: usize, end: usize, flags: NameFlags, kind: Option<Kind>) -> bool {
        if kind != Some(Kind::Stop) || flags.given() == 0 || text.get(end) != Some(&b' ') {
            return false;
        }
        let Some(next_end) = capitalised_word(text, end + 1) else { return false };
        let (next, next_kind) = text.get(end + 1..next_end).map(|w| self.word(w)).unwrap_or_default();
        if next_kind.is_some() || !next.surname() {
            return false;
        }
        // The introducing words themselves ("Frau", "Pan") are titles, not given names.
        let mut buf = [0u8; 64];
        let intro_word =
            text.get(start..end).and_then(|w| nametable::fold(w, &mut buf)).is_none_or(|w| self.intro_last.contains(w));
        !intro_word && self.intro_before(text, start) == Some(Intro::Strong)
    }

    /// The run's first two words (or its one word and the next) name a firm, brand or
    /// title ("Morgan Stanley", "Harry Potter").
    fn named_thing(&self, text: &[u8], run: &[(usize, usize, NameFlags)]) -> bool {
        let Some(&(start, end, _)) = run.first() else { return false };
        // The pair is the run's first two words, or the word before it and its first
        // ("Pan Tadeusz", whose title word starts no run).
        let before = start.checked_sub(1).filter(|&b| text.get(b) == Some(&b' ')).map(|b| {
            let mut s = b;
            while s > 0 && text.get(s - 1).is_some_and(|&c| c.is_ascii_alphabetic() || c >= 0x80) {
                s -= 1;
            }
            (s, b)
        });
        let ((s1, e1), (s2, e2)) = match (run.get(1), before) {
            (Some(&(s2, e2, _)), _) => ((start, end), (s2, e2)),
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
        self.named_things.contains(&*joined)
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
        // Letters and dots ("B.V.", "S.A."), the dots dropped.
        let mut letters = [0u8; 64];
        let mut n = 0;
        let bytes = text.get(at..).unwrap_or_default().iter().take_while(|b| b.is_ascii_alphabetic() || **b == b'.');
        for (slot, &b) in letters.iter_mut().zip(bytes.filter(|b| **b != b'.')) {
            *slot = b;
            n += 1;
        }
        let word = letters.get(..n).unwrap_or_default();
        let mut buf = [0u8; 64];
        !word.is_empty() && nametable::fold(word, &mut buf).is_some_and(|w| self.kinds.get(w) == Some(&Kind::Company))
    }

    /// A run that ends in a street's compound name (`-straße`, `-weg`, `-singel`,
    /// `-gatan`, …) that the tables do not hold as a surname, with no known given name
    /// before it but a particle: a street ("aan De Coolsingel", "in der
    /// Lindenstraße"), not a person ("Jan Vanderlaan" keeps his given name).
    fn street_compound(text: &[u8], run: &[(usize, usize, NameFlags)]) -> bool {
        let Some((&(s, e, last), before)) = run.split_last() else { return false };
        // A capitalised particle ("De", "Van") may be a given name in the tables too.
        let particle = |&(ws, we, _): &(usize, usize, NameFlags)| {
            text.get(ws..we).is_some_and(|w| names::PARTICLES.iter().any(|p| w.eq_ignore_ascii_case(p.as_bytes())))
        };
        !last.surname()
            && last.given() == 0
            && super::address::street_compound(text, s, e)
            && before.iter().all(|w| w.2.given() == 0 || particle(w))
    }

    /// A street word right before the run ("Rue Victor Hugo", "ul. Jana Pawła").
    fn street_before(&self, text: &[u8], start: usize) -> bool {
        let end = start.saturating_sub(1);
        if start == 0 || text.get(end) != Some(&b' ') {
            return false;
        }
        let mut s = end;
        while s > 0 && text.get(s - 1).is_some_and(|&b| b.is_ascii_alphabetic() || b >= 0x80 || b == b'.') {
            s -= 1;
        }
        let Some(word) = text.get(s..end) else { return false };
        let word = word.strip_suffix(b".").unwrap_or(word);
        let mut buf = [0u8; 64];
        nametable::fold(word, &mut buf).is_some_and(|w| self.kinds.get(w) == Some(&Kind::Street))
    }

    /// The span of the run that is a name, and whether it is more than certain (two
    /// known names, or a name with its introduction).
    fn decide(&self, text: &[u8], run: &[(usize, usize, NameFlags)], after: bool) -> Option<(usize, usize, bool)> {
        let n = run.len();
        let (start, _, _) = *run.first()?;
        let (_, end, _) = *run.last()?;
        let strong_surname = |f: NameFlags, w: (usize, usize)| {
            f.surname()
                && !f.common_word()
                && !text.get(w.0..w.1).is_some_and(|t| {
                    let mut buf = [0u8; 64];
                    nametable::fold(t, &mut buf).is_some_and(|t| self.weak_surnames.contains(t))
                })
        };
        // By the dictionary alone: from the first word that begins a name.
        if n >= 2 {
            for (i, &(s, _, f)) in run.iter().enumerate().take(n - 1) {
                let rest = run.get(i + 1..).unwrap_or_default();
                let later_surname = rest.iter().any(|&(_, _, g)| g.surname() && !g.common_word());
                let both = later_surname && f.given() > 0;
                let begins = (f.given() >= 2 && !f.common_word())
                    || (f.given() >= 1 && later_surname)
                    || (!f.common_word() && rest.first().is_some_and(|&(s2, e2, g)| strong_surname(g, (s2, e2))));
                if begins {
                    return Some((s, end, both));
                }
            }
        }
        let any_known = run.iter().any(|&(_, _, f)| f.known());
        if !any_known && n < 2 && !after {
            // A single unknown word: only a case ending after an introduction can help.
            let intro = self.intro_before(text, start)?;
            let (s, e, _) = *run.first()?;
            let f = self.inflected(text.get(s..e)?);
            return (f.known() && (intro == Intro::Strong || !f.common_word())).then_some((s, e, true));
        }
        let intro = if after { Some(Intro::Strong) } else { self.intro_before(text, start) };
        match intro? {
            Intro::Strong => any_known.then_some((start, end, true)),
            Intro::Verb => {
                // A common word passes as a common given name ("called Will"), not as a
                // surname or rare name ("with Price").
                let known = run.iter().any(|&(s, e, f)| {
                    let f = if f.known() { f } else { text.get(s..e).map(|w| self.inflected(w)).unwrap_or_default() };
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
