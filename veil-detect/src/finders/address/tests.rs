//! The tests of [`super`].

use super::*;

fn found(text: &str) -> Vec<&str> {
    crate::tests::every_match(find, text)
}

#[test]
fn streets_of_every_locale() {
    let cases = [
        ("Lieferadresse: Hauptstraße 5, 10115 Berlin.", "Hauptstraße 5, 10115 Berlin"),
        // Australia Post: the state or territory and the postcode after the city.
        ("He lives at 42 Wallaby Way, Sydney NSW 2000", "42 Wallaby Way, Sydney NSW 2000"),
        (
            "Office: 12 Collins Street, Melbourne VIC 3000, Australia",
            "12 Collins Street, Melbourne VIC 3000, Australia",
        ),
        ("ship to 5 Smith St, Perth WA 6000", "5 Smith St, Perth WA 6000"),
        (
            "Send it to 1600 Amphitheatre Parkway Mountain View CA 94043 please",
            "1600 Amphitheatre Parkway Mountain View CA 94043",
        ),
        (
            "bitte an Berliner Str. 12a, D-60311 Frankfurt am Main schicken",
            "Berliner Str. 12a, D-60311 Frankfurt am Main",
        ),
        ("J'habite 12 rue de la Paix, 75002 Paris depuis mai.", "12 rue de la Paix, 75002 Paris"),
        ("Envío a C/ Alcalá, 45, 2º izda., 28014 Madrid", "C/ Alcalá, 45, 2º izda., 28014 Madrid"),
        ("Indirizzo: Via Roma 10, 00184 Roma RM", "Via Roma 10, 00184 Roma RM"),
        ("Adres: Kalverstraat 92, 1012 PH Amsterdam", "Kalverstraat 92, 1012 PH Amsterdam"),
        (
            "Rua das Acácias, 215, apto 97, Botafogo, Rio de Janeiro - RJ, 22290-030",
            "Rua das Acácias, 215, apto 97, Botafogo, Rio de Janeiro - RJ, 22290-030",
        ),
        ("ul. Marszałkowska 10/12 m. 5, 00-590 Warszawa", "ul. Marszałkowska 10/12 m. 5, 00-590 Warszawa"),
        ("Storgatan 12, 111 45 Stockholm", "Storgatan 12, 111 45 Stockholm"),
        (
            "Caferağa Mah. Moda Cad. No: 12 D: 5, 34710 Kadıköy/İstanbul",
            "Caferağa Mah. Moda Cad. No: 12 D: 5, 34710 Kadıköy/İstanbul",
        ),
        ("Flat 3, 14 Acacia Avenue, Leeds LS6 2AB", "Flat 3, 14 Acacia Avenue, Leeds LS6 2AB"),
        (
            "House No. 45, MG Road, Indiranagar, Bengaluru 560038",
            "House No. 45, MG Road, Indiranagar, Bengaluru 560038",
        ),
        ("1600 Pennsylvania Avenue NW, Washington, DC 20500", "1600 Pennsylvania Avenue NW, Washington, DC 20500"),
        ("Unter den Linden 77, 10117 Berlin", "Unter den Linden 77, 10117 Berlin"),
    ];
    let wrong: Vec<_> =
        cases.iter().filter(|(text, want)| found(text) != vec![*want]).map(|(text, _)| (text, found(text))).collect();
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// The masks' shortcut ([`no_street`]) never changes what the grammar finds at a
/// number: every digit of the address evaluation's letters, of the same letters in
/// lower case, and of word salads of street words, names and numbers gives the same
/// address with the shortcut as without it.
#[test]
fn the_lower_case_shortcut_never_changes_an_address() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../veilctl/eval-addresses");
    let mut texts: Vec<Vec<u8>> = Vec::new();
    // The letters are files: read natively (the tests in V8 have no file system).
    let native = cfg!(not(target_family = "wasm"));
    let mut folders = if native { vec![std::path::PathBuf::from(dir)] } else { Vec::new() };
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap().map(Result::unwrap) {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "txt") {
                let text = std::fs::read(&path).unwrap();
                texts.push(text.to_ascii_lowercase());
                texts.push(text);
            }
        }
    }
    assert!(!native || texts.len() > 40, "the evaluation's letters are there");
    const WORDS: &[&str] = &[
        "rue",
        "Rue",
        "via",
        "street",
        "Street",
        "road",
        "Main",
        "main",
        "5th",
        "2nd",
        "cross",
        "de",
        "la",
        "Paix",
        "avenue",
        "calle",
        "Mayor",
        "straße",
        "Hauptstraße",
        "no",
        "Nr.",
        ",",
        ".",
        "\n",
        "Flat",
        "apt",
        "Éire",
        "über",
        "12",
        "45",
        "7b",
        "2019",
        "10115",
        "Berlin",
        "berlin",
        "the",
        "at",
        "to",
        "C/",
        "ul.",
        "mah.",
    ];
    let mut seed = 11u64;
    for _ in 0..3000 {
        let picks = crate::engine::text::sample(&mut seed, 9, &(0..WORDS.len() as u8).collect::<Vec<_>>());
        texts.push(picks.iter().map(|&i| WORDS[usize::from(i)]).collect::<Vec<_>>().join(" ").into_bytes());
    }
    let mut checked = 0;
    for h in &texts {
        let t = Text::new(h);
        for d in (0..h.len()).filter(|&d| h[d].is_ascii_digit()) {
            let plain = address_at(h, d, |_, _| true);
            assert_eq!(address_at(h, d, |a, b| t.any_capital(a, b)), plain, "{}", String::from_utf8_lossy(h));
            checked += usize::from(plain.is_some());
        }
    }
    assert!(checked > 100, "addresses were found ({checked})");
}

/// A digit the masks leave out ([`NumberStarts`]) is one [`house_number`] refuses:
/// after every byte, and after `:` with a digit or a letter before it, at every
/// offset of a block.
#[test]
fn the_masks_leave_out_only_refused_numbers() {
    let mut seed = 23u64;
    let mut refused = 0;
    for len in [2, 63, 64, 65, 130, 400] {
        for _ in 0..60 {
            let h = crate::engine::text::sample(&mut seed, len, b"12 a.=@/:-_+$&,(Z\xc3\xa9\n");
            let t = Text::new(&h);
            let starts = NumberStarts::new(&t);
            for d in (0..h.len()).filter(|&d| h[d].is_ascii_digit()) {
                if starts.at(d / 64) >> (d % 64) & 1 == 0 {
                    assert_eq!(house_number(&h, d), None, "{d} in {}", String::from_utf8_lossy(&h));
                    refused += 1;
                }
            }
        }
    }
    assert!(refused > 1000, "{refused}");
}

/// [`compound`] (one lookup per stem length) agrees with comparing the word's end
/// with every suffix, on every suffix after prefixes of zero to three bytes, in
/// three cases, with and without a dot after, and on their near misses.
#[test]
fn compound_agrees_with_every_suffix_compared() {
    let by_list = |h: &[u8], s: usize, e: usize| {
        let w = &h[s..e];
        SUFFIXES.iter().find_map(|suffix| {
            let (stem, dot) = match suffix.strip_suffix('.') {
                Some(stem) => (stem.as_bytes(), true),
                None => (suffix.as_bytes(), false),
            };
            let tail = w.len().checked_sub(stem.len())?;
            let fits = tail >= 2 && w[tail..].eq_ignore_ascii_case(stem) && (!dot || byte(h, e) == b'.');
            fits.then_some(if dot { e + 1 } else { e })
        })
    };
    let mut checked = 0;
    for suffix in SUFFIXES {
        let stem = suffix.trim_end_matches('.');
        for word in [stem.to_string(), stem.to_uppercase(), stem[..stem.len() - 1].to_string()] {
            for prefix in ["", "H", "Ha", "Hau", "ÄÖ"] {
                for after in ["", ".", " 5", ". 5"] {
                    let text = format!("{prefix}{word}{after}");
                    let e = prefix.len() + word.len();
                    let (h, want) = (text.as_bytes(), by_list(text.as_bytes(), 0, e));
                    assert_eq!(compound(h, 0, e), want, "{text}");
                    checked += usize::from(want.is_some());
                }
            }
        }
    }
    assert!(checked > 100, "{checked}");
}

#[test]
fn look_alikes_are_not_addresses() {
    let wrong = [
        "Die Hauptstraße ist gesperrt.",
        "Version 2.3.1 of Baker Street app",
        "Bestellung 4711 vom 12. März",
        "sent via Slack 2 days ago",
        "Smith et al. 2019 showed",
        "auf Platz 2 der Charts",
        "Route 66 is long",
        "Windows 11 and Office 365",
        "Spring 2024 release",
        "Preis: 25,50 € bei Amazon",
        "Zimmer 12, 3. Stock",
        "in 2019 Oxford Street was busy",
    ]
    .iter()
    .filter(|t| !found(t).is_empty())
    .map(|t| (t, found(t)))
    .collect::<Vec<_>>();
    assert!(wrong.is_empty(), "{wrong:#?}");
}
