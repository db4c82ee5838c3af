//! The tests of [`super`]'s rules and checks.

use super::*;
use crate::config::DetectorsConfig;
use crate::engine::text::Text;
use crate::engine::Engine;

/// `(rule id, value)` of every finding in `text`.
fn found(text: &str) -> Vec<(String, String)> {
    let e = Engine::new(&DetectorsConfig::default()).unwrap();
    e.scan(text.as_bytes())
        .into_iter()
        .map(|f| (e.rule(f.rule).unwrap().id.clone(), text[f.start..f.end].to_string()))
        .collect()
}

#[test]
fn leading_digit_patterns() {
    assert!(leads(b"7[1-4]", b"712345678"));
    assert!(!leads(b"7[1-4]", b"752345678"));
    assert!(leads(b"[5789]0", b"9012345678"));
    assert!(leads(b"2[12478]9", b"21912345678"));
    assert!(!leads(b"2[12478]9", b"23912345678"));
    assert!(!leads(b"123", b"12"));
}

#[test]
fn templates_fit_exactly() {
    assert!(national(b"06 12 34 56 78"));
    assert!(national(b"06.12.34.56.78"));
    assert!(!national(b"06 12.34 56 78"), "one separator throughout");
    assert!(!national(b"00 12 34 56 78"), "FR: no leading 0 after the trunk");
    assert!(!national(b"08 12 34 56 78"), "FR: 08 is not personal");
    assert!(national(b"0 (532) 123 45 67"));
    assert!(national(b"(11) 91234-5678"));
    assert!(!national(b"(11) 81234-5678"), "BR: a mobile begins with 9");
    assert!(!national(b"13812345678"), "ungrouped needs a label");
    assert!(labeled(b"13812345678"));
    assert!(!labeled(b"12812345678"));
    assert!(!national(b"123-45-6789"));
    assert!(!national(b"(415) 555-0132"));
    assert!(national(b"030 1234567-89"), "DE: a direct-dial extension");
    assert!(!national(b"0151 23456789-12"), "DE: no extension on a mobile");
    assert!(!national(b"030 1234567-12345"));
    assert!(!labeled(b"1234567890"), "a bare run needs a mobile or trunk prefix");
    assert!(!labeled(b"951234567"), "ES: a bare fixed-line run is not enough");
    assert!(labeled(b"612345678"));
}

/// `any_plan` compares a token's digit positions with each template's before any
/// byte: sound only if a template's digits are exactly its `#` and `t` (a trunk
/// prefix is a digit, a separator never is) and every template fits in one word.
#[test]
fn templates_have_their_digits_in_one_word() {
    for plan in PLANS {
        assert!(plan.trunk == 0 || plan.trunk.is_ascii_digit(), "{}", plan.country);
        assert!(!plan.seps.iter().any(u8::is_ascii_digit), "{}", plan.country);
        for block in plan.blocks {
            for template in block.alone.iter().chain(block.near) {
                assert!(template.len() <= 64, "{template}");
                assert!(!template.bytes().any(|b| b.is_ascii_digit()), "{template}: a literal digit");
            }
        }
    }
    assert_eq!(digit_bits(b"t# ## ##", |b| matches!(b, b'#' | b't')), 0b11011011);
    assert_eq!(digit_bits(b"06 12 34", |b| b.is_ascii_digit()), 0b11011011);
    assert_eq!(digit_bits(b"(11) 9", |b| b.is_ascii_digit()), 0b100110);
}

/// Numbers that are not phone numbers, as they come in prompts and logs: none of
/// the rules here flags them.
#[test]
fn look_alikes_are_left_alone() {
    for text in [
        "epoch 1715000000 and 1715000000123 ms",
        "call stack at 0x7ffd 1234567890",
        "Kontonummer 0532 1234 56, BLZ 370 400 44",
        "NIP 123-456-78-90 i PESEL 85010112345",
        "CPF 123.456.789-09, CNPJ 12.345.678/0001-95, CEP 01310-100",
        "IBAN DE89 3704 0044 0532 0130 00",
        "Aadhaar 2345 6789 0123",
        "RRN 900101-1234567",
        "personnummer 850101-1234",
        "coordinates 48.8566 2.3522, 40.7128 -74.0060",
        "log 2024-05-06 12:30:45.123 took 06 05 2024",
        "IPs 192.168.100.200 and 10.20.30.40",
        "population 67 391 582, area 551 695",
        "numer zamówienia 512345678",
        "número de pedido 612 34 56 78",
        "SKU 0151 23456789",
        "ZIP 90210-1234 and 12345-6789",
        "1 2 3 4 5 6 7 8 9 10 11 12",
        "Angebot 2024 0612 3456 789",
    ] {
        let f: Vec<_> = found(text).into_iter().filter(|(id, _)| RULES.iter().any(|r| r.id == id)).collect();
        assert_eq!(f, vec![], "{text}");
    }
}

#[test]
fn international_prefix() {
    assert!(intl_grouped(b"0041 44 123 45 67"));
    assert!(intl_grouped(b"0044 (0)20 7946 0958"));
    assert!(intl_grouped(b"0049 030 12345678"));
    assert!(!intl_grouped(b"0049301234567"), "ungrouped: only after a label");
    assert!(labeled(b"0049301234567"));
    assert!(!intl_grouped(b"0099 12 345678"), "99 is no country code");
    assert!(!intl_grouped(b"0033 8 12 34 56 78"), "FR has no 8 block here");
    assert!(!intl_grouped(b"004 930 12345678"), "the country code ends a group");
    assert!(intl_trunk(b"+33 (0)6 12 34 56 78"));
    assert!(intl_trunk(b"+33(0)612345678"));
    assert!(!intl_trunk(b"+33 (0)6 12 34 56"));
    assert!(!intl_trunk(b"+333 (0)6 12 34 56 78"));
}

#[test]
fn every_template_is_well_formed() {
    let mut fewest = usize::MAX;
    for plan in PLANS {
        assert!(COUNTRY_CODES.contains(&plan.cc), "{}", plan.country);
        for block in plan.blocks {
            assert!(!block.lead.is_empty(), "{}", plan.country);
            for t in block.alone.iter().chain(block.near) {
                let ok = t.bytes().all(|b| b"#t -/()".contains(&b));
                assert!(ok && (plan.trunk != 0 || !t.contains('t')), "{}: {t}", plan.country);
                let digits = t.bytes().filter(|b| *b == b'#' || *b == b't').count();
                assert!((8..=12).contains(&digits), "{}: {t}", plan.country);
            }
            for t in block.alone {
                fewest = fewest.min(t.bytes().filter(|b| *b == b'#' || *b == b't').count());
                // A template that stands alone has a group separator.
                assert!(t.bytes().any(|b| !b.is_ascii_alphanumeric() && b != b'#'), "{}: {t}", plan.country);
            }
        }
    }
    // The national rule's gate asks for this many digits in a run.
    assert!(fewest >= 9, "{fewest}");
}

#[test]
fn a_number_is_the_whole_token() {
    let national =
        |t: &str| found(t).into_iter().filter(|(id, _)| id.starts_with("pii.phone.national")).collect::<Vec<_>>();
    assert_eq!(national("06 12 34 56 78 2024"), vec![]);
    assert_eq!(national("06 12 34 56 78, 06 98 76 54 32").len(), 2);
    assert_eq!(national("joignable au 06 12 34 56 78 de 9h à 18h").len(), 1);
    assert_eq!(national("06 12 34 56 78\n07 98 76 54 32").len(), 2);
    assert_eq!(national("(06 12 34 56 78)").len(), 1);
    assert_eq!(national("Tel. 030 12345678 / Fax 030 12345679").len(), 2);
    assert_eq!(national("ref-06 12 34 56 78"), vec![]);
    assert_eq!(national("06 12 34 56 78-12"), vec![]);
}

#[test]
fn nanp_numbers_keep_their_span() {
    for text in ["call 347 555 1234 now", "call (415) 555-0132", "tel 212-555-0123"] {
        let f = found(text);
        assert_eq!(f.len(), 1, "{text}: {f:?}");
        assert!(f.iter().all(|(id, _)| id == "pii.phone.nanp.v1"), "{text}: {f:?}");
    }
}

#[test]
fn e164_numbers_are_left_to_e164() {
    for text in ["+33 6 12 34 56 78", "+44 (0)20 7946 0958", "+49 151 23456789", "+86 138 1234 5678"] {
        let f = found(text);
        assert!(!f.is_empty() && f.iter().all(|(id, _)| id == "pii.phone.e164.v1"), "{text}: {f:?}");
    }
}

#[test]
fn label_windows_need_a_label_just_before() {
    let w = |t: &str| label_windows(&Text::new(t.as_bytes()));
    assert_eq!(w("Tel: 13812345678 ok"), vec![(3, 18)]);
    assert_eq!(w("13812345678"), vec![]);
    assert_eq!(w("tel 1234567"), vec![], "eight digits at least");
    assert_eq!(w("Tel. 13812345678").len(), 1, "an abbreviation's dot");
    assert_eq!(w("WhatsApp me at 13812345678").len(), 1);
    assert_eq!(w("by phone. 13812345678"), vec![], "another sentence");
    assert_eq!(w("phone\n13812345678"), vec![], "another line");
    assert_eq!(w("telephone of the main office building 13812345678"), vec![], "too many words between");
    assert_eq!(w("我的手机号是13812345678").len(), 1);
    assert_eq!(w("telefonu 13812345678"), vec![], "whole words");
    assert_eq!(w("Handy: 0151/23456789 ok"), vec![(5, 22)], "through a slash");
    // Merged when two labelled runs touch.
    assert_eq!(w("tel 13812345678,13812345679").len(), 1);
}

#[test]
fn slash_windows_cover_the_number_around_the_slash() {
    let w = |t: &str| slash_windows(&Text::new(t.as_bytes()));
    assert_eq!(w("Handy 0151/23456789."), vec![(4, 20)]);
    assert_eq!(w("a/b 1/ /2"), vec![]);
    assert_eq!(w("1/2 3/4").len(), 1);
}
