//! The tests of [`super`]'s rules and checks.

use super::*;
use crate::engine::text::Text;

#[test]
fn uk_checks() {
    // NHS Digital's example number.
    assert!(uk_nhs(b"943 476 5919"));
    assert!(!uk_nhs(b"943 476 5910"));
    assert!(!uk_nhs(b"4444444444"));
    assert!(uk_nino(b"AB 12 34 56 C"));
    for bad in ["QQ 12 34 56 C", "GB123456A", "AO123456A", "DA123456A", "AB123456E"] {
        assert!(!uk_nino(bad.as_bytes()), "{bad}");
    }
    for good in ["SW1A 1AA", "EC1A 1BB", "W1A 0AX", "M1 1AE", "B33 8TH", "CR2 6XH", "DN55 1PT", "GIR 0AA"] {
        assert!(uk_address(good.as_bytes()), "{good}");
        assert!(uk_address(format!("1 Long Road, Town {good}").as_bytes()), "{good}");
    }
    for bad in ["QA1 1AA", "AI1 1AA", "SW1A 1AC", "W1L 0AX", "GIR 0AB"] {
        assert!(!uk_address(bad.as_bytes()), "{bad}");
    }
}

#[test]
fn german_checks() {
    // A widely published example identification number, and the specimen identity
    // card's number (Erika Mustermann: T22000129, check digit 3).
    assert!(de_steuer_id(b"86095742719"));
    assert!(!de_steuer_id(b"86095742718"));
    // Three equal digits in a row, or no digit repeated.
    assert!(!de_steuer_id(b"11123456780"));
    assert!(!de_steuer_id(b"01234567899"));
    assert_eq!(icao(b"T22000129"), Some(3));
    assert!(de_ausweis(b"T220001293"));
    assert!(!de_ausweis(b"T220001294"));
    assert!(de_rvnr(b"65 170839 J 003"));
    assert!(!de_rvnr(b"65 170839 J 004"));
    assert!(de_kvnr(b"A123456780"));
    assert!(!de_kvnr(b"A123456781"));
    assert!(de_steuernummer(b"9181081508155"));
    assert!(!de_steuernummer(b"9181181508155"));
}

#[test]
fn iberian_and_italian_checks() {
    // The DNI and NIE examples found throughout Spanish documentation.
    assert!(es_dni(b"12345678Z"));
    assert!(!es_dni(b"12345678A"));
    assert!(es_nie(b"X1234567L"));
    assert!(!es_nie(b"X1234567M"));
    // The textbook codice fiscale (Mario Rossi, a man born on 10 December 1985).
    assert!(it_codice_fiscale(b"RSSMRA85T10A562S"));
    assert!(!it_codice_fiscale(b"RSSMRA85T10A562T"));
    assert!(it_piva(b"01467300016"));
    assert!(!it_piva(b"01467300017"));
    assert!(pt_nif(b"110490495"));
    assert!(!pt_nif(b"110490496"));
}

#[test]
fn french_benelux_polish_checks() {
    assert!(fr_nir(b"1 85 05 78 006 084 91"));
    assert!(fr_nir(b"1 80 12 2A 004 031 20"));
    assert!(!fr_nir(b"1 80 12 2B 004 031 20"));
    assert!(fr_siren(b"152758926"));
    assert!(fr_siret(b"17850255517160"));
    // La Poste's establishments: digit sum divisible by 5.
    assert!(fr_siret(b"35600000000048"));
    // Test BSNs used in Dutch documentation.
    assert!(nl_bsn(b"123456782"));
    assert!(nl_bsn(b"111222333"));
    assert!(!nl_bsn(b"123456789"));
    assert!(be_nrn(b"85.07.30-033.28"));
    assert!(be_nrn(b"03021512318"));
    // PESEL's textbook example.
    assert!(pl_pesel(b"44051401359"));
    assert!(!pl_pesel(b"44051401358"));
    assert!(pl_nip(b"526-104-35-25"));
}

#[test]
fn nordic_and_other_checks() {
    // The usual Swedish example and DVV's published HETU example.
    assert!(se_personnummer(b"811218-9876"));
    assert!(se_personnummer(b"19811218-9876"));
    assert!(!se_personnummer(b"811218-9875"));
    assert!(se_personnummer(b"811278-9873"));
    assert!(se_orgnr(b"556703-7485"));
    assert!(!se_orgnr(b"811218-9876"));
    assert!(fi_hetu(b"131052-308T"));
    assert!(!fi_hetu(b"131052-308U"));
    assert!(dk_cpr(b"150585-1235"));
    assert!(!dk_cpr(b"320185-1234"));
    assert!(no_fnr(b"01010012356"));
    assert!(no_fnr(b"55058512337"));
    assert!(!no_fnr(b"01010012357"));
    // The example AHV number of the Swiss documentation.
    assert!(ch_ahv(b"756.1234.5678.97"));
    assert!(!ch_ahv(b"756.1234.5678.98"));
    assert!(ie_ppsn(b"7185133Q"));
    assert!(ie_ppsn(b"7420780SA"));
    assert!(at_svnr(b"1237 010180"));
    // The TCKN commonly used for testing.
    assert!(tr_tckn(b"10000000146"));
    assert!(!tr_tckn(b"10000000147"));
}

#[test]
fn vat_checks() {
    for good in [
        "DE410077285",
        "DE136695976",
        "ATU13585627",
        "BE0417091585",
        "FR96152758926",
        "IT01467300016",
        "ESB62819479",
        "ESB6281947I",
        "ESX1234567L",
        "NL317974051B01",
        "NL228173169B34",
        "PL5261043525",
        "SE556703748501",
        "DK13579245",
        "GB980780684",
        "IE6433435F",
        "IE3628451VA",
        "PT507283198",
        "FI27491639",
        "EL094817323",
        "HR38591207469",
        "HU12893746",
        "LU15027442",
        "MT12947127",
        "RO18547290",
        "SI50128477",
        "SK2022748970",
        "CZ25827367",
        "EE102345676",
        "BG123456789",
        "LT123456715",
    ] {
        assert!(eu_vat(good.as_bytes()), "{good}");
    }
    for bad in [
        "DE410077286",
        "ATU13585628",
        "BE0417091586",
        "FR97152758926",
        "IT01467300017",
        "ESB62819478",
        "NL317974052B01",
        "PL5261043526",
        "SE556703748601",
        "DK13579246",
        "GB980780685",
        "IE6433435G",
        "PT507283199",
        "FI27491630",
        "XX123456789",
    ] {
        assert!(!eu_vat(bad.as_bytes()), "{bad}");
    }
}

/// Text with numbers of every other kind: no finding of this file's rules.
#[test]
fn look_alikes_are_left_alone() {
    let engine = crate::engine::Engine::new(&crate::config::DetectorsConfig::default()).unwrap();
    let ours: Vec<&str> = RULES.iter().map(|r| r.id).collect();
    for text in [
        "Order 12345678 shipped on 2024-05-01 at 12:30, invoice INV-2024-000123.",
        "Call +49 30 12345678 or 020 7946 0958, fax 0300 311 2233.",
        "ISBN 978-3-16-148410-0, EAN 4006381333931, UPC 036000291452.",
        "Build 1.20.345.6789 released; commit 3F9A1C0DE1B2C3D4E5F6.",
        "SKU AB-123456-C, part no. XK 12 34 56 Z, model RTX 4090 Ti 24GB.",
        "Ticket JIRA-123456 and PR 4567890 merged; serial SN1234567890ABC.",
        "Tracking 1Z999AA10123456784, container MSCU1234565, flight LH 4567.",
        "Temperature 21.5 C, 1013 hPa, 55 % humidity, 12345 steps.",
        "Bestellung 4711-0815-1234 vom 03.05.2024, Rechnung 2024/05/1234567.",
        "Pedido 12345678 del 03/05/2024, total 1.234,56 EUR.",
        "UUID 123E4567-E89B-12D3-A456-426614174000 and ULID 01ARZ3NDEKTSV4RRFFQ69G5FAV.",
    ] {
        let found = engine.scan(text.as_bytes());
        let ids: Vec<&str> = found
            .iter()
            .filter_map(|f| engine.rule(f.rule))
            .map(|r| r.id.as_str())
            .filter(|id| ours.contains(id))
            .collect();
        assert!(ids.is_empty(), "{text}: {ids:?}");
    }
}

#[test]
fn id_runs_cover_tokens_with_letters() {
    let text = b"nino AB 12 34 56 C, and x 1234 y; CF RSSMRA85T10A562S.";
    let w = id_runs(&Text::new(text));
    let covers = |needle: &[u8]| {
        let at = text.windows(needle.len()).position(|x| x == needle).unwrap();
        w.iter().any(|&(s, e)| s < at && at + needle.len() < e)
    };
    assert!(covers(b"AB 12 34 56 C"));
    assert!(covers(b"RSSMRA85T10A562S"));
    assert!(!w.iter().any(|&(s, e)| s <= 27 && 27 < e), "{w:?}");
}
