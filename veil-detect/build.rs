//! Compiles the committed name lists (`data/names/`) into the name table that
//! `src/finders/nametable.rs` reads with `include_bytes!`: one hashed bucket per
//! folded name, a 16-bit fingerprint and four bits of flags (given-name frequency
//! class, surname, common word) per entry. No network: the lists are in the repository
//! (`data/names/SOURCES.md` says where they come from and under which licences).

use std::collections::BTreeMap;
use std::io::Read;
use std::path::Path;

include!("src/finders/namehash.rs");

const DATA: &str = "../data/names";
/// Flag bits of an entry (the layout `nametable.rs` reads).
const GIVEN_CLASS: u8 = 0b0011;
const SURNAME: u8 = 0b0100;
const COMMON_WORD: u8 = 0b1000;

fn read(path: &Path) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if path.extension().is_some_and(|e| e == "gz") {
        let mut text = String::new();
        flate2::read::GzDecoder::new(bytes.as_slice())
            .read_to_string(&mut text)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(text)
    } else {
        String::from_utf8(bytes).map_err(|e| format!("{}: {e}", path.display()))
    }
}

/// Lower case without apostrophes, as `nametable::fold` does at run time.
fn fold(word: &str) -> String {
    word.chars()
        .filter(|c| *c != '\'' && *c != '\u{2019}')
        .flat_map(|c| if c == '\u{130}' { 'i'.to_lowercase() } else { c.to_lowercase() })
        .collect()
}

/// The ASCII spellings of a folded name with diacritics (`müller`: `mueller`,
/// `muller`), as `extract.py` writes them for the downloaded lists.
fn ascii_spellings(folded: &str) -> Vec<String> {
    if folded.is_ascii() {
        return Vec::new();
    }
    let plain = |c: char, expand: bool| -> String {
        let s = match c {
            'ä' | 'æ' if expand => "ae",
            'ö' | 'ø' | 'œ' if expand => "oe",
            'ü' if expand => "ue",
            'å' if expand => "aa",
            'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' | 'ā' | 'ă' | 'ą' => "a",
            'æ' => "ae",
            'ç' | 'ć' | 'č' => "c",
            'ď' | 'đ' | 'ð' => "d",
            'è' | 'é' | 'ê' | 'ë' | 'ē' | 'ė' | 'ę' | 'ě' => "e",
            'ğ' => "g",
            'ì' | 'í' | 'î' | 'ï' | 'ı' | 'ī' | 'į' => "i",
            'ł' | 'ľ' | 'ĺ' => "l",
            'ñ' | 'ń' | 'ň' => "n",
            'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ø' | 'ō' | 'ő' => "o",
            'œ' => "oe",
            'ř' | 'ŕ' => "r",
            'ś' | 'š' | 'ş' | 'ș' => "s",
            'ß' => "ss",
            'ť' | 'ţ' | 'ț' => "t",
            'þ' => "th",
            'ù' | 'ú' | 'û' | 'ü' | 'ū' | 'ů' | 'ű' | 'ų' => "u",
            'ý' | 'ÿ' => "y",
            'ź' | 'ż' | 'ž' => "z",
            _ => return c.to_string(),
        };
        s.to_string()
    };
    let mut out: Vec<String> =
        [true, false].iter().map(|&expand| folded.chars().map(|c| plain(c, expand)).collect()).collect();
    out.dedup();
    out
}

fn lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#'))
}

fn build() -> Result<(), String> {
    let dir = Path::new(DATA);
    for file in ["given.txt.gz", "surnames.txt.gz", "curated-given.txt", "curated-surnames.txt", "common-words.txt"] {
        println!("cargo::rerun-if-changed={DATA}/{file}");
    }
    println!("cargo::rerun-if-changed=src/finders/namehash.rs");
    let mut flags: BTreeMap<String, u8> = BTreeMap::new();
    for line in lines(&read(&dir.join("given.txt.gz"))?) {
        let (name, class) = line.split_once('\t').ok_or_else(|| format!("given: bad line {line:?}"))?;
        let class: u8 = class.parse().map_err(|_| format!("given: bad class {line:?}"))?;
        let f = flags.entry(name.to_string()).or_default();
        *f = (*f & !GIVEN_CLASS) | (*f & GIVEN_CLASS).max(class.min(3));
    }
    for line in lines(&read(&dir.join("surnames.txt.gz"))?) {
        let name = line.split('\t').next().unwrap_or(line);
        *flags.entry(name.to_string()).or_default() |= SURNAME;
    }
    for name in lines(&read(&dir.join("curated-given.txt"))?) {
        let folded = fold(name);
        for form in ascii_spellings(&folded).into_iter().chain([folded]) {
            let f = flags.entry(form).or_default();
            *f = (*f & !GIVEN_CLASS) | (*f & GIVEN_CLASS).max(2);
        }
    }
    let curated = read(&dir.join("curated-surnames.txt"))?;
    for name in lines(&curated).flat_map(str::split_whitespace) {
        let folded = fold(name);
        for form in ascii_spellings(&folded).into_iter().chain([folded]) {
            *flags.entry(form).or_default() |= SURNAME;
        }
    }
    for line in lines(&read(&dir.join("common-words.txt"))?) {
        for word in line.split_whitespace() {
            // A common word that is no name needs no entry.
            if let Some(f) = flags.get_mut(&fold(word)) {
                *f |= COMMON_WORD;
            }
        }
    }

    // About eight entries a bucket; a power of two so the bucket is the hash's top bits.
    let bits = (flags.len() / 8).max(1).next_power_of_two().trailing_zeros().max(1);
    let buckets = 1usize << bits;
    let mut table: Vec<Vec<(u16, u8)>> = vec![Vec::new(); buckets];
    for (name, f) in &flags {
        let h = name_hash(name.as_bytes());
        let bucket = usize::try_from(h >> (64 - bits)).map_err(|e| e.to_string())?;
        if let Some(b) = table.get_mut(bucket) {
            b.push((h as u16, *f));
        }
    }
    let n = flags.len();
    let mut out = Vec::with_capacity(8 + (buckets + 1) * 4 + n * 3);
    out.extend_from_slice(&bits.to_le_bytes());
    out.extend_from_slice(&u32::try_from(n).map_err(|e| e.to_string())?.to_le_bytes());
    let mut at = 0u32;
    for b in &mut table {
        b.sort_unstable();
        out.extend_from_slice(&at.to_le_bytes());
        at += u32::try_from(b.len()).map_err(|e| e.to_string())?;
    }
    out.extend_from_slice(&at.to_le_bytes());
    let entries: Vec<(u16, u8)> = table.into_iter().flatten().collect();
    for (fp, _) in &entries {
        out.extend_from_slice(&fp.to_le_bytes());
    }
    for pair in entries.chunks(2) {
        let lo = pair.first().map_or(0, |e| e.1);
        let hi = pair.get(1).map_or(0, |e| e.1);
        out.push(lo | hi << 4);
    }
    let out_dir = std::env::var("OUT_DIR").map_err(|e| e.to_string())?;
    std::fs::write(Path::new(&out_dir).join("names.bin"), out).map_err(|e| e.to_string())
}

fn main() {
    if let Err(e) = build() {
        eprintln!("name table: {e}");
        std::process::exit(1);
    }
}
