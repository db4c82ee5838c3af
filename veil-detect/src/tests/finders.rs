//! The hand-written finders against the patterns they stand for: every shape, the
//! edges of names, and random texts.

use super::*;

/// The payment-card rule searches with the fused card search, not its finder and
/// validator one start at a time (which would still find the same, slowly).
#[test]
fn the_card_rule_uses_the_fused_search() {
    let e = engine();
    let cards: Vec<&Rule> =
        e.rules.iter().filter(|r| matches!(r.validator, validate::Validator::PaymentCard)).collect();
    assert!(!cards.is_empty());
    assert!(cards.iter().all(|r| matches!(r.matcher, Matcher::Cards)));
}

/// The NANP finder matches where its pattern does, from every offset, on every way of
/// writing the number's parts (and the near misses of each).
#[test]
fn nanp_finder_agrees_with_its_pattern_on_every_shape() {
    let regex = RegexBuilder::new(catalog::all().find(|r| r.id == "pii.phone.nanp.v1").unwrap().pattern)
        .unicode(false)
        .build()
        .unwrap();
    let mut checked = 0;
    for prefix in ["", "+1", "+1 ", "1", "1-", "1.", "+", "+2", "x", "a1 ", "11 "] {
        for area in ["415", "(415)", "(415", "115", "41"] {
            for sep in ["", " ", "-", ".", "  "] {
                for exchange in ["555", "155", "55"] {
                    for sep2 in [" ", "-", ".", ""] {
                        for line in ["0132", "013", "01323", "0132a", "0132_", "0132."] {
                            let text = format!("{prefix}{area}{sep}{exchange}{sep2}{line}");
                            let text = text.as_bytes();
                            for from in 0..=text.len() {
                                let want = regex.find_at(text, from).map(|m| (m.start(), m.end()));
                                assert_eq!(
                                    phone::find_nanp(text, from),
                                    want,
                                    "{:?} from {from}",
                                    String::from_utf8_lossy(text)
                                );
                                checked += usize::from(want.is_some());
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(checked > 1000, "the shapes must hold numbers: {checked}");
}

use proptest::strategy::Strategy as _;

/// Every hand-written finder with a pattern matches exactly where its pattern does in
/// `text`, from every starting offset.
fn finders_agree(text: &[u8]) -> Result<(), proptest::test_runner::TestCaseError> {
    for builtin in catalog::all() {
        let Some(find) = builtin.finder else { continue };
        // Hand-written without a pattern (`assign.rs` has its own tests).
        if builtin.pattern.is_empty() {
            continue;
        }
        let regex = RegexBuilder::new(builtin.pattern).unicode(false).build().unwrap();
        for from in 0..=text.len() {
            // A rule with a group reports the group's span (the phone tokens and the
            // person patterns: the group ends the pattern, so its end is the match's).
            let want = match builtin.group {
                0 => regex.find_at(text, from).map(|m| (m.start(), m.end())),
                g => regex.captures_at(text, from).and_then(|c| c.get(g)).map(|m| (m.start(), m.end())),
            };
            proptest::prop_assert_eq!(find(text, from), want, "{} from {}", builtin.id, from);
        }
    }
    Ok(())
}

/// The person finders on the shapes where a hand-written reading of their patterns
/// can go wrong: the `\b` before a title, a title's `.`, every ASCII white space
/// (with the vertical tab) around a label, a greeting's `,`, the bytes at the edges of
/// the capitals and small letters, and each kind of word after the first.
#[test]
fn finders_agree_with_their_patterns_on_the_edges_of_names() {
    let texts: &[&[u8]] = &[
        b"Dear,John Smith",
        b"Dear ,John Smith",
        b"Dear, John Smith",
        b"Dear John Smith",
        b"Dear,\tJohn Smith",
        b"dearJohn Smith",
        b"regards , Ann Lee",
        b"cheers,\r\nAnn Lee",
        b"Mr.Smith",
        b"Mr. Smith",
        b"xMr Smith",
        b"_Mr Smith",
        b"7Mr Smith",
        b"\xC3\xA9Mr Smith",
        b"Mrs. Ann Lee",
        b"Mrs Ann",
        b"Sra \xC3\x91u\xC3\xB1o",
        b"Srta. Mar\xC3\xADa Jos\xC3\xA9",
        b"Sr.Sra Lee",
        b"Mr \xC3\x9Fmith",
        b"Mr \xC3\x9Emith",
        b"Mr \xC3\x80\xC3\xA9",
        b"Mr A\xC6\x80",
        b"Mr Ab\xC3",
        b"Mr Ab\xC5\xBF",
        b"Mr Ab\xC6\x80",
        b"name\x0b: Ann Lee",
        b"name:\x0bAnn Lee",
        b"name\x0c- Ann Lee",
        b"Name - Ann Lee",
        b"name -- Ann Lee",
        b"FULL NAME:Ann Lee",
        b"full  name: Ann Lee",
        b"Account Holder: Ann J. Lee",
        b"I'm Ann O'Neil",
        b"I am Ann O'N",
        b"I'm Ann O'Neil-Smith Lee",
        b"my name is Ann",
        b"my name is Ann Lee Ray Day",
        b"this is\nAnn Lee",
        b"this isAnn Lee",
        b"Mr Ann-Lee",
        b"Mr Ann--Lee",
        b"Mr Ann 'Lee",
        b"Mr Ann A.B",
        b"Mr Ann AB",
        b"Mr Ann A'bc",
        b"Mr Ann A'Bc",
        b"Mr Ann A'B",
        b"Signed by:Ann Lee",
        b"Mr Mrs Ann Lee",
        b"Dr Dr Ann",
        b"Customer:Ann\x0bLee",
        b"patient: ann Lee",
    ];
    // And every label once.
    let labels: &[&[u8]] = &[
        b"Patient: Ann Lee",
        b"employee: Ann Lee",
        b"client:Ann Lee",
        b"contact - Ann Lee",
        b"applicant: Ann Lee",
        b"cardholder: Ann Lee",
        b"Sincerely, Ann Lee",
        b"cheers Ann Lee",
        b"Full Name: Ann Lee",
        b"Customer: Ann Lee",
    ];
    for text in texts.iter().chain(labels) {
        finders_agree(text).unwrap();
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

    /// Every hand-written finder matches exactly where its rule's pattern does,
    /// from every starting offset, on text made of the bytes that matter to it.
    #[test]
    fn finders_agree_with_their_patterns(
        pieces in proptest::collection::vec(proptest::prelude::prop_oneof![
            8 => proptest::prelude::Just(&b"4"[..]), 8 => proptest::prelude::Just(&b"1"[..]),
            4 => proptest::prelude::Just(&b"9"[..]), 2 => proptest::prelude::Just(&b"0"[..]),
            2 => proptest::prelude::Just(&b"5"[..]), 2 => proptest::prelude::Just(&b"6"[..]),
            1 => proptest::prelude::Just(&b"3"[..]), 1 => proptest::prelude::Just(&b"8"[..]),
            1 => proptest::prelude::Just(&b"2"[..]), 1 => proptest::prelude::Just(&b"7"[..]),
            2 => proptest::prelude::Just(&b" "[..]), 3 => proptest::prelude::Just(&b"-"[..]),
            1 => proptest::prelude::Just(&b"a"[..]), 1 => proptest::prelude::Just(&b"_"[..]),
            3 => proptest::prelude::Just(&b"."[..]), 1 => proptest::prelude::Just(&b"\xe9"[..]),
            // The literal parts of the private ranges and of an SSN or ITIN.
            1 => proptest::prelude::Just(&b"10."[..]), 1 => proptest::prelude::Just(&b"127."[..]),
            1 => proptest::prelude::Just(&b"172."[..]), 1 => proptest::prelude::Just(&b"192.168."[..]),
            1 => proptest::prelude::Just(&b"169.254."[..]), 1 => proptest::prelude::Just(&b"16"[..]),
            1 => proptest::prelude::Just(&b"31"[..]), 1 => proptest::prelude::Just(&b"123-45-6789"[..]),
            1 => proptest::prelude::Just(&b"912-73-1234"[..]), 1 => proptest::prelude::Just(&b"912-93-1234"[..]),
            1 => proptest::prelude::Just(&b"172.32."[..]), 1 => proptest::prelude::Just(&b"172.15."[..]),
            // What the phone tokens' guard and groupings read.
            2 => proptest::prelude::Just(&b"("[..]), 2 => proptest::prelude::Just(&b")"[..]),
            1 => proptest::prelude::Just(&b"/"[..]), 1 => proptest::prelude::Just(&b"\n"[..]),
            1 => proptest::prelude::Just(&b"\r"[..]), 1 => proptest::prelude::Just(&b"+"[..]),
            1 => proptest::prelude::Just(&b"Tel "[..]), 1 => proptest::prelude::Just(&b":"[..]),
            1 => proptest::prelude::Just(&b"  "[..]), 1 => proptest::prelude::Just(&b"   "[..]),
            1 => proptest::prelude::Just(&b"#"[..]),
            // The parts of a North American number.
            1 => proptest::prelude::Just(&b"555-0132"[..]), 1 => proptest::prelude::Just(&b"(415)"[..]),
            1 => proptest::prelude::Just(&b"+1 "[..]), 1 => proptest::prelude::Just(&b"1-212"[..]),
            1 => proptest::prelude::Just(&b"646.555"[..]),
        ], 0..40),
    ) {
        finders_agree(&pieces.concat())?;
    }

    /// The same on text made of what the person patterns read: titles, labels in
    /// any case, capitals and small letters in ASCII and in Latin-1 and Latin
    /// Extended-A (and bytes just outside those ranges), `.`, `'`, `-`, `:`, `,`
    /// and every ASCII white space.
    #[test]
    fn finders_agree_with_their_patterns_on_names(
        pieces in proptest::collection::vec(proptest::prelude::prop_oneof![
            2 => proptest::prelude::Just(&b"Mr"[..]), 1 => proptest::prelude::Just(&b"Mrs"[..]),
            1 => proptest::prelude::Just(&b"Miss"[..]), 1 => proptest::prelude::Just(&b"Dr"[..]),
            1 => proptest::prelude::Just(&b"Prof"[..]), 1 => proptest::prelude::Just(&b"Sr"[..]),
            1 => proptest::prelude::Just(&b"Sra"[..]), 1 => proptest::prelude::Just(&b"Srta"[..]),
            1 => proptest::prelude::Just(&b"Mlle"[..]), 1 => proptest::prelude::Just(&b"Herr"[..]),
            1 => proptest::prelude::Just(&b"name"[..]), 1 => proptest::prelude::Just(&b"Name"[..]),
            1 => proptest::prelude::Just(&b"FULL NAME"[..]), 1 => proptest::prelude::Just(&b"Account Holder"[..]),
            1 => proptest::prelude::Just(&b"signed by"[..]), 1 => proptest::prelude::Just(&b"Dear"[..]),
            1 => proptest::prelude::Just(&b"regards"[..]), 1 => proptest::prelude::Just(&b"I'm"[..]),
            1 => proptest::prelude::Just(&b"i am"[..]), 1 => proptest::prelude::Just(&b"My name is"[..]),
            1 => proptest::prelude::Just(&b"this is"[..]), 1 => proptest::prelude::Just(&b"Customer"[..]),
            6 => proptest::prelude::Just(&b" "[..]), 2 => proptest::prelude::Just(&b"."[..]),
            2 => proptest::prelude::Just(&b"'"[..]), 2 => proptest::prelude::Just(&b"-"[..]),
            2 => proptest::prelude::Just(&b":"[..]), 2 => proptest::prelude::Just(&b","[..]),
            1 => proptest::prelude::Just(&b"\t"[..]), 1 => proptest::prelude::Just(&b"\n"[..]),
            1 => proptest::prelude::Just(&b"\x0b"[..]), 1 => proptest::prelude::Just(&b"\x0c"[..]),
            1 => proptest::prelude::Just(&b"\r"[..]), 1 => proptest::prelude::Just(&b"_"[..]),
            1 => proptest::prelude::Just(&b"7"[..]), 3 => proptest::prelude::Just(&b"a"[..]),
            2 => proptest::prelude::Just(&b"ann"[..]), 3 => proptest::prelude::Just(&b"J"[..]),
            2 => proptest::prelude::Just(&b"O"[..]), 2 => proptest::prelude::Just(&b"John"[..]),
            2 => proptest::prelude::Just(&b"Smith"[..]),
            // Ñ, É, À (capitals), ß (a small letter just past the capitals), é, ł,
            // a lone lead byte, and a letter of Latin Extended-B.
            1 => proptest::prelude::Just(&b"\xC3\x91"[..]), 1 => proptest::prelude::Just(&b"\xC3\x89"[..]),
            1 => proptest::prelude::Just(&b"\xC3\x80"[..]), 1 => proptest::prelude::Just(&b"\xC3\x9F"[..]),
            1 => proptest::prelude::Just(&b"\xC3\xA9"[..]), 1 => proptest::prelude::Just(&b"\xC5\x82"[..]),
            1 => proptest::prelude::Just(&b"\xC3"[..]), 1 => proptest::prelude::Just(&b"\xC6\x80"[..]),
        ], 0..40),
    ) {
        finders_agree(&pieces.concat())?;
    }

    /// The fused card search finds, from every offset, what the search loop found
    /// with the card finder and the validator one start at a time: the first start
    /// whose match the validator accepts, to the end of the prefix it accepts. On
    /// digit chains of every length with issuers' prefixes, separators, and the bytes
    /// that end a chain or a word.
    #[test]
    fn card_search_agrees_with_the_finder_and_validator(
        pieces in proptest::collection::vec(proptest::prelude::prop_oneof![
            6 => proptest::prelude::Just(&b"1"[..]), 3 => proptest::prelude::Just(&b"0"[..]),
            2 => proptest::prelude::Just(&b"4"[..]), 1 => proptest::prelude::Just(&b"5"[..]),
            1 => proptest::prelude::Just(&b"3"[..]), 1 => proptest::prelude::Just(&b"6"[..]),
            1 => proptest::prelude::Just(&b"7"[..]), 1 => proptest::prelude::Just(&b"9"[..]),
            4 => proptest::prelude::Just(&b" "[..]), 4 => proptest::prelude::Just(&b"-"[..]),
            1 => proptest::prelude::Just(&b"."[..]), 1 => proptest::prelude::Just(&b"a"[..]),
            1 => proptest::prelude::Just(&b"_"[..]), 1 => proptest::prelude::Just(&b","[..]),
            // Card numbers, and their first digits at every issuer's prefix.
            2 => proptest::prelude::Just(&b"4111 1111 1111 1111"[..]),
            2 => proptest::prelude::Just(&b"4111111111111111"[..]),
            1 => proptest::prelude::Just(&b"378282246310005"[..]),
            1 => proptest::prelude::Just(&b"5555-5555-5555-4444"[..]),
            1 => proptest::prelude::Just(&b"6011 1111 1111 1117"[..]),
            1 => proptest::prelude::Just(&b"100000000000009"[..]),
            1 => proptest::prelude::Just(&b"2221"[..]), 1 => proptest::prelude::Just(&b"3528"[..]),
            1 => proptest::prelude::Just(&b"5019"[..]), 1 => proptest::prelude::Just(&b"506099"[..]),
            1 => proptest::prelude::Just(&b"62"[..]), 1 => proptest::prelude::Just(&b"65"[..]),
        ], 0..48),
    ) {
        let text = pieces.concat();
        let looped = |from: usize| {
            let mut at = from;
            while let Some((start, end)) = card::find_card(&text, at) {
                if let Some(len) = validate::Validator::PaymentCard.accept(&text[start..end]) {
                    return Some((start, start + len));
                }
                at = start + 1;
            }
            None
        };
        for from in 0..=text.len() {
            proptest::prop_assert_eq!(card::next_card(&text, from), looped(from), "from {}", from);
        }
    }

    /// Scanning a request's parts together finds exactly what scanning them one
    /// by one does: no context, keyword or match reaches across parts (or, for a
    /// pattern that can, the parts are scanned one by one).
    #[test]
    fn scanning_parts_together_equals_scanning_each(
        parts in proptest::collection::vec(
            proptest::collection::vec(proptest::prelude::prop_oneof![
                proptest::prelude::Just("jane.doe@example.com".to_string()),
                proptest::prelude::Just("(415) 555-0132".to_string()),
                proptest::prelude::Just("123-45-6789".to_string()),
                proptest::prelude::Just("Dr. Amara Okonkwo".to_string()),
                proptest::prelude::Just("password=".to_string()),
                proptest::prelude::Just("Zx9vQ2mK7pL4wR8tY6uI3oP1aS5dF0gH2jK4lZ6x".to_string()),
                proptest::prelude::Just("passport".to_string()),
                proptest::prelude::Just("X1234567".to_string()),
                proptest::prelude::Just("born".to_string()),
                proptest::prelude::Just("1985-03-14".to_string()),
                proptest::prelude::Just("aws".to_string()),
                proptest::prelude::Just("12 Main Street".to_string()),
                proptest::prelude::Just("BEGIN".to_string()),
                proptest::prelude::Just("END".to_string()),
                "[ -~]{0,20}",
                "[0-9 .:-]{0,16}",
            ], 0..6).prop_map(|words: Vec<String>| words.join(" ")),
            0..6),
    ) {
        static ENGINES: std::sync::OnceLock<[Engine; 2]> = std::sync::OnceLock::new();
        let engines = ENGINES.get_or_init(|| {
            let mut config = DetectorsConfig::default();
            config.custom.push(CustomPattern {
                id: "test.multiline".into(),
                category: "BLOCK".into(),
                pattern: r"(?s)BEGIN.*?END".into(),
                confidence: 0.9,
                severity: None,
            });
            [engine(), Engine::new(&config).unwrap()]
        });
        for e in engines {
            let parts: Vec<&[u8]> = parts.iter().map(|p| p.as_bytes()).collect();
            // One-letter parts find nothing (asserted once, not scanned 40,000 times).
    assert!(e.scan(b"a").is_empty());
    let each: Vec<Vec<Finding>> = parts.iter().map(|p| if *p == b"a" { Vec::new() } else { e.scan(p) }).collect();
            proptest::prop_assert_eq!(e.scan_parts(&parts), each.clone());
            // Remembered answers (the engines live across cases) are the answers.
            for _ in 0..2 {
                proptest::prop_assert_eq!(e.scan_parts_remembered(b"scope", &parts).0, each.clone());
            }
        }
    }

    /// Findings are in bounds, ordered, non-overlapping and above the threshold;
    /// anonymized output contains no detected value.
    #[test]
    fn findings_are_well_formed_and_anonymized_away(
        parts in proptest::collection::vec(proptest::prelude::prop_oneof![
            proptest::prelude::Just("jane.doe@example.com".to_string()),
            proptest::prelude::Just("(415) 555-0132".to_string()),
            proptest::prelude::Just("4111 1111 1111 1111".to_string()),
            proptest::prelude::Just("Dr. Amara Okonkwo".to_string()),
            proptest::prelude::Just("password=Zx9vQ2mK7pL4".to_string()),
            proptest::prelude::Just("born 1985-03-14".to_string()),
            proptest::prelude::Just("10.1.2.3".to_string()),
            "[ -~]{0,40}",
            "[0-9 .:-]{0,24}",
        ], 0..12)
    ) {
        let text = parts.join(" ");
        let e = engine();
        let found = e.scan(text.as_bytes());
        let mut last = 0;
        for f in &found {
            proptest::prop_assert!(f.start >= last && f.start < f.end && f.end <= text.len());
            proptest::prop_assert!(f.confidence >= 0.5);
            last = f.end;
        }
        let out = e.anonymize(text.as_bytes(), |rule, _| format!("[{}]", rule.category).into_bytes());
        for f in &found {
            let value = &text.as_bytes()[f.start..f.end];
            if value.len() >= 4 {
                proptest::prop_assert!(memchr::memmem::find(&out, value).is_none());
            }
        }
    }
}
