//! The tests of [`super`]'s rules and checks.

use super::*;
use crate::engine::text::Text;
use crate::rule::push_window;

#[test]
fn verhoeff_worked_example() {
    // The textbook example: 236 takes the check digit 3.
    assert!(verhoeff(&[2, 3, 6, 3]));
    assert!(!verhoeff(&[2, 3, 6, 4]));
    assert!(in_aadhaar(b"3832 9844 0561"));
    assert!(!in_aadhaar(b"1832 9844 0561"));
}

#[test]
fn canada_and_australia() {
    // CRA's sample SIN passes Luhn but starts with 0, which is never issued.
    assert!(luhn(&[0, 4, 6, 4, 5, 4, 2, 8, 6]));
    assert!(ca_sin(b"046 454 286"));
    assert!(!ca_sin(b"846 454 288"), "a business number");
    assert!(ca_sin(b"987-789-328"));
    // The ATO's specimen TFN, the ABR's ABN and ASIC's ACN examples.
    assert!(au_tfn(b"123 456 782"));
    assert!(!au_tfn(b"123 456 783"));
    assert!(au_tfn(b"89693504"));
    assert!(au_abn(b"51 824 753 556"));
    assert!(!au_abn(b"51 824 753 557"));
    assert!(au_acn(b"004 085 616"));
    assert!(au_acn(b"010 499 966"));
    assert!(!au_acn(b"004 085 617"));
    assert!(au_medicare(b"2123 45670 1"));
    assert!(au_medicare(b"2123 45670 1/1"));
    assert!(!au_medicare(b"2123 45671 1"));
    assert!(!au_medicare(b"7123 45670 1"));
}

#[test]
fn india() {
    // The GSTIN commonly used as the format's example.
    assert!(in_gstin(b"27AAPFU0939F1ZV"));
    assert!(!in_gstin(b"27AAPFU0939F1ZW"));
}

#[test]
fn brazil() {
    assert!(br_cpf(b"123.456.789-09"));
    assert!(!br_cpf(b"123.456.789-10"));
    assert!(!br_cpf(b"111.111.111-11"));
    assert!(br_cnpj(b"11.222.333/0001-81"));
    assert!(!br_cnpj(b"11.222.333/0001-82"));
    assert!(!br_cnpj(b"00000000000000"));
}

#[test]
fn mexico() {
    // The instructivo's worked example of the CURP check digit.
    assert!(mx_curp(b"SABC560626MDFLRN01"));
    assert!(!mx_curp(b"SABC560626MDFLRN02"));
    assert!(!mx_curp(b"SABC561326MDFLRN01"));
    assert!(mx_rfc(b"NEYI620213A99"));
    assert!(mx_rfc(b"HKJ730406F79"));
    assert!(!mx_rfc(b"HKJ730406F78"));
    // The generic RFC for sales to the public is a placeholder without a valid check digit.
    assert!(!mx_rfc(b"XAXX010101000"));
}

#[test]
fn singapore() {
    assert!(sg_nric(b"S1234567D"));
    assert!(!sg_nric(b"S1234567A"));
    // GovTech FormSG's M-series vector; N was the letter before the +3 start constant.
    assert!(sg_nric(b"M1234567K"));
    assert!(!sg_nric(b"M1234567N"));
    assert!(sg_nric(b"T0701253A"));
    assert!(sg_nric(b"G8455530X"));
    assert!(sg_uen(b"201912345K"));
    assert!(sg_uen(b"T09LL0001B"));
    assert!(!sg_uen(b"T09ZZ0001B"));
}

#[test]
fn korea_japan_china_south_africa() {
    assert!(kr_rrn(b"850315-1264326"));
    assert!(!kr_rrn(b"850315-1264327"));
    assert!(kr_rrn(b"210315-3123456"));
    assert!(!kr_rrn(b"850230-1264326"));
    // The My Number check digit of 12345678901 is 8.
    assert!(jp_my_number(b"123456789018"));
    assert!(!jp_my_number(b"123456789017"));
    // GB 11643-1999's example.
    assert!(cn_resident_id(b"11010519491231002X"));
    assert!(!cn_resident_id(b"110105194912310021"));
    assert!(za_id(b"8001015009087"));
    assert!(!za_id(b"8001015009088"));
}

#[test]
fn us_banking_and_health() {
    // The Federal Reserve Bank of Boston's routing number, and CMS's NPI example.
    assert!(us_aba(b"011000015"));
    assert!(!us_aba(b"011000016"));
    assert!(!us_aba(b"990000005"));
    assert!(us_npi(b"1234567893"));
    assert!(!us_npi(b"1234567894"));
    assert!(us_mbi(b"1EG4-TE5-MK73"));
    assert!(us_mbi(b"1EG4TE5MK73"));
    assert!(!us_mbi(b"1EG4-TE5MK73"));
    assert!(bank_account(b"0532013000"));
    assert!(!bank_account(b"2024-05-01"));
    assert!(!bank_account(b"00000000"));
}

#[test]
fn base58check() {
    // The Bitcoin wiki's P2PKH example and BIP-13's P2SH example.
    assert!(base58check_address(b"1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2"));
    assert!(base58check_address(b"3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy"));
    assert!(!base58check_address(b"1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3"));
    assert!(!base58check_address(b"3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLz"));
    assert!(!base58check_address(b"11111111111111111111111111"));
}

#[test]
fn bech32_and_bech32m() {
    // BIP-173 and BIP-350 test vectors.
    assert!(segwit_address(b"BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4"));
    assert!(segwit_address(b"tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7"));
    assert!(segwit_address(b"bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0"));
    // v1+ with a bech32 (not bech32m) checksum, a v0 with bech32m, mixed case, bad checksum.
    assert!(!segwit_address(b"bc1zw508d6qejxtdg4y5r3zarvaryvqyzf3du"));
    assert!(!segwit_address(b"bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh"));
    assert!(!segwit_address(b"tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sL5k7"));
    assert!(!segwit_address(b"bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5"));
}

#[test]
fn keccak_and_eip55() {
    let empty = keccak256_short(b"").unwrap();
    let hex: String = empty.iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(hex, "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470");
    // EIP-55's own test cases.
    for address in [
        "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
        "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
        "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
        "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
    ] {
        assert!(eth_checksummed(address.as_bytes()), "{address}");
    }
    assert!(!eth_checksummed(b"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD"));
    assert!(!eth_checksummed(b"0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed"));
    assert!(eth_address(b"0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed"));
    assert!(!eth_address(b"0xdeadbeefdeadbeefdeadbeefdeadbeefdeadbeef"));
}

/// The gates of this file only skip work: with every gate but `Near` replaced by
/// `Always`, the examples and negatives, glued to letters, digits, `_`, `-`, `.` and
/// non-ASCII bytes on either side, give the same findings.
#[test]
fn gates_of_this_file_never_change_findings() {
    use crate::engine::compiled::CompiledGate;
    use crate::engine::Engine;
    let config = crate::config::DetectorsConfig::default();
    let gated = Engine::new(&config).unwrap();
    let mut always = Engine::new(&config).unwrap();
    // This file's gates only: another file's window may be a context gate (the
    // phone labels in other scripts), which does change findings by design.
    for rule in &mut always.rules {
        let ours = RULES.iter().any(|r| r.id == rule.id);
        if ours && matches!(rule.gate, CompiledGate::Windows { .. } | CompiledGate::NumericRun { .. }) {
            rule.gate = CompiledGate::Always;
        }
    }
    // The rules to visit follow the gates (a finder's rules are left out where it
    // finds nothing).
    always.visits = crate::engine::visit::Visits::new(&always.rules, config.confidence_threshold);
    let glue = ["", " ", "_", "x", "9", "-", ".", "é", "\n", ":", "/"];
    let mut count = 0;
    for rule in RULES {
        for text in rule.examples.iter().chain(rule.negatives) {
            let text: String = text.chars().filter(|c| !matches!(c, '⟦' | '⟧')).collect();
            for (i, before) in glue.iter().enumerate() {
                let after = glue[(i + 3) % glue.len()];
                let glued = format!("{before}{text}{after}");
                let (a, b) = (gated.scan(glued.as_bytes()), always.scan(glued.as_bytes()));
                assert_eq!(a, b, "{}: {glued:?}", rule.id);
                count += a.len();
            }
        }
    }
    assert!(count > 500, "{count}");
}

#[test]
fn token_windows_are_the_long_runs_and_the_runs_with_digits() {
    // The definition, byte by byte.
    fn naive(text: &[u8]) -> Vec<(usize, usize)> {
        let token = |b: &u8| b.is_ascii_alphanumeric() || *b == b'_' || *b == b'-';
        let mut windows = Vec::new();
        let mut at = 0;
        while at < text.len() {
            let len = text[at..].iter().take_while(|b| token(b)).count();
            if len == 0 {
                at += 1;
                continue;
            }
            let run = &text[at..at + len];
            if len >= 25 || (len >= 9 && run.iter().any(u8::is_ascii_digit)) {
                push_window(&mut windows, at, (at + len + 2).min(text.len()));
            }
            at += len;
        }
        windows
    }
    let parts =
        ["abc", "12345678", "x1", "-", "_", " ", ".", "\n", "é", "ABCDEFGHIJKLMNOPQRSTUVWXY", "9", "token_value-"];
    let mut seed = 5u64;
    for _ in 0..3000 {
        let mut text = String::new();
        for _ in 0..(seed % 17) {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            text.push_str(parts[(seed >> 33) as usize % parts.len()]);
        }
        seed = seed.wrapping_add(1);
        assert_eq!(id_token_windows(&Text::new(text.as_bytes())), naive(text.as_bytes()), "{text:?}");
    }
}

#[test]
fn windows_cover_their_tokens() {
    let text = b"id S1234567D and 1EG4-TE5-MK73, word words";
    let w = id_token_windows(&Text::new(text));
    assert_eq!(w.len(), 2);
    assert_eq!(w.first().copied(), Some((3, 14)));
    let w = slash_windows(&Text::new(b"CNPJ 11.222.333/0001-81"));
    assert_eq!(w, vec![(4, 23)]);
}
