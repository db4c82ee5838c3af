//! National identifiers of European countries: identity, social-insurance, health and
//! tax numbers of persons, company registration numbers and VAT numbers, each with
//! the check its issuer publishes (check digits, dates of birth, allocation rules).
//!
//! Numbers that are only digits and whose check passes one time in ten or so (a
//! nine-digit BSN, an eleven-digit PESEL) run only near the words that name them
//! (`Gate::Near`); formats that carry letters or a fixed prefix (a NINO, a codice
//! fiscale, a VAT number, AHV's `756`) run wherever the text has such a token
//! ([`id_runs`], `Gate::NumericRun`). Every value in the examples is synthetic (check
//! digits computed for this file) or a specimen its issuer publishes.

pub(crate) mod checks;

use crate::rule::{BuiltinRule, Context, Gate, Severity, BASE};
use crate::validate::Validator;
use checks::*;

/// Words that make a number a reference of some other kind, in the catalog's
/// languages.
const NOT_AN_ID: &[&str] = &[
    "order",
    "invoice",
    "ref",
    "tracking",
    "sku",
    "ticket",
    "serial",
    "part",
    "item",
    "bestellung",
    "bestellnummer",
    "rechnung",
    "auftrag",
    "artikel",
    "pedido",
    "factura",
    "ordine",
    "fattura",
    "commande",
    "facture",
    "bestelling",
    "factuur",
    "tilaus",
    "lasku",
    "faktura",
    "ordre",
    "zamowienie",
];

const UK_NINO_CONTEXT: Context = Context {
    window: 48,
    words: &["national", "insurance", "nino", "ni", "nin", "hmrc"],
    boost: 0.1,
    against: NOT_AN_ID,
    penalty: 0.4,
};

const DE_SV_CONTEXT: Context = Context {
    window: 48,
    words: &[
        "sozialversicherungsnummer",
        "rentenversicherungsnummer",
        "versicherungsnummer",
        "sozialversicherung",
        "rentenversicherung",
        "svnr",
        "rvnr",
        "social",
        "insurance",
        "pension",
    ],
    boost: 0.1,
    against: NOT_AN_ID,
    penalty: 0.4,
};

const ES_CONTEXT: Context = Context {
    window: 48,
    words: &["dni", "nif", "nie", "documento", "identidad", "extranjero", "identity", "spanish", "id"],
    boost: 0.05,
    against: NOT_AN_ID,
    penalty: 0.45,
};

const IT_CONTEXT: Context =
    Context { window: 48, words: &["codice", "fiscale", "cf", "tax", "code"], boost: 0.04, against: &[], penalty: 0.0 };

const FR_CONTEXT: Context = Context {
    window: 48,
    words: &["nir", "sécurité", "securite", "sociale", "social", "security", "insee", "secu", "vitale"],
    boost: 0.05,
    against: NOT_AN_ID,
    penalty: 0.45,
};

const FI_CONTEXT: Context = Context {
    window: 48,
    words: &["hetu", "henkilötunnus", "henkilotunnus", "sotu", "personbeteckning", "identity", "finnish"],
    boost: 0.04,
    against: NOT_AN_ID,
    penalty: 0.45,
};

const CH_CONTEXT: Context = Context {
    window: 48,
    words: &["ahv", "avs", "sozialversicherungsnummer", "social", "security", "assurance"],
    boost: 0.04,
    against: &[],
    penalty: 0.0,
};

/// For numbers found after their names: a reference word before them wins.
const LABELLED_CONTEXT: Context = Context { window: 48, words: &[], boost: 0.0, against: NOT_AN_ID, penalty: 0.45 };

const VAT_CONTEXT: Context = Context {
    window: 48,
    words: &[
        "vat",
        "ust",
        "ustid",
        "umsatzsteuer",
        "tva",
        "iva",
        "btw",
        "mwst",
        "moms",
        "alv",
        "dph",
        "dic",
        "pvm",
        "pvn",
        "nip",
        "afm",
        "ddv",
        "pdv",
        "nif",
        "cif",
        "intracommunautaire",
        "tax",
    ],
    boost: 0.05,
    against: &["order", "invoice", "tracking", "sku", "ticket", "serial", "part", "bestellnummer"],
    penalty: 0.45,
};

// ---------------------------------------------------------------------------------
// Rules
// ---------------------------------------------------------------------------------

/// A UK street line (house number, one to three capitalised words, a street type),
/// an optional town, then the postcode; or the postcode alone after a label.
const UK_ADDRESS: &str = concat!(
    r"(?-u)\b(?:\d{1,4}[A-Z]?,? (?:[A-Z][a-z]+ ){1,3}",
    r"(?:Street|St|Road|Rd|Lane|Avenue|Ave|Close|Drive|Way|Court|Crescent|Gardens|Place|Square|Terrace|Grove|Hill|Park|Row|Mews|Walk|Parade|Green)\.?",
    r"(?:,? ?\r?\n[ \t]*|, ?| )",
    r"(?:[A-Z][a-z]+(?:[ -][A-Z][a-z]+){0,2}(?:,? ?\r?\n[ \t]*|, ?| ))?)?",
    r"(?:[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}|GIR ?0AA)\b",
);

/// EU VAT numbers in the VIES formats, with an optional space after the country code
/// and the usual groupings.
const EU_VAT: &str = concat!(
    r"(?-u)\b(?:",
    r"AT ?U ?\d{8}",
    r"|BE ?[01]\d{3}[ .]?\d{3}[ .]?\d{3}",
    r"|BG ?\d{9,10}",
    r"|CY ?\d{8}[A-Z]",
    r"|CZ ?\d{8,10}",
    r"|DE ?\d{3} ?\d{3} ?\d{3}",
    r"|DK ?\d{2} ?\d{2} ?\d{2} ?\d{2}",
    r"|EE ?\d{9}",
    r"|(?:EL|GR) ?\d{9}",
    r"|ES ?[0-9A-Z]\d{7}[0-9A-Z]",
    r"|FI ?\d{8}",
    r"|FR ?[0-9A-HJ-NP-Z]{2} ?\d{3} ?\d{3} ?\d{3}",
    r"|(?:GB|XI) ?\d{3} ?\d{4} ?\d{2}(?: ?\d{3})?",
    r"|HR ?\d{11}",
    r"|HU ?\d{8}",
    r"|IE ?(?:\d{7}[A-W][A-IW]?|\d[A-Z+]\d{5}[A-W])",
    r"|IT ?\d{11}",
    r"|LT ?(?:\d{12}|\d{9})",
    r"|LU ?\d{8}",
    r"|LV ?\d{11}",
    r"|MT ?\d{8}",
    r"|NL ?\d{9} ?B ?\d{2}",
    r"|PL ?\d{3}[ -]?\d{3}[ -]?\d{2}[ -]?\d{2}",
    r"|PT ?\d{9}",
    r"|RO ?[1-9]\d{5,9}",
    r"|SE ?\d{10}01",
    r"|SI ?\d{8}",
    r"|SK ?\d{10}",
    r")\b",
);

pub const RULES: &[BuiltinRule] = &[
    // ----------------------------------------------------------------- United Kingdom
    BuiltinRule {
        id: "pii.health_id.uk_nhs.v1",
        category: "HEALTH_ID",
        pattern: r"(?-u)\b\d{3}[ -]?\d{3}[ -]?\d{4}\b",
        clean_right: true,
        validator: Validator::Code(uk_nhs),
        // Above a phone number of the same digits (0.8, 0.9 with "call").
        confidence: 0.95,
        gate: Gate::Near { words: &["nhs", "nhsno", "nhsnumber"], before: 0, after: 64 },
        severity: Severity::High,
        examples: &[
            "NHS number: ⟦943 476 5919⟧",
            "The patient's NHS No. is ⟦9877893282⟧, please update the record.",
            "nhs_number=⟦992-174-2183⟧",
            "Rhif GIG / NHS number ⟦496 792 9087⟧ (Cymru)",
        ],
        negatives: &[
            "NHS number: 943 476 5918",
            "Call NHS 111 or 0300 311 2233 for advice",
            "NHS order 4444444444 for supplies",
        ],
        ..BASE
    },
    BuiltinRule {
        id: "pii.national_id.uk_nino.v1",
        category: "NATIONAL_ID",
        pattern: r"(?-u)\b[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D]\b",
        clean_right: true,
        validator: Validator::Code(uk_nino),
        confidence: 0.85,
        gate: Gate::Windows(ID_RUNS),
        severity: Severity::High,
        context: Some(&UK_NINO_CONTEXT),
        any_case: &["nino", "national insurance", "ni number", "ni no"],
        examples: &[
            "my ni number is ⟦ab123456c⟧",
            "national insurance no. ⟦jg 10 37 59 a⟧",
            "National Insurance number: ⟦JG 10 37 59 A⟧",
            "My NI number is ⟦AB123456C⟧.",
            "nino=⟦KM 65 43 21 D⟧",
            "Employee NINO ⟦PR 48 21 07 B⟧ starts on Monday",
        ],
        negatives: &[
            "HMRC's specimen QQ 12 34 56 C never belongs to anyone",
            "GB 12 34 56 A is not allocated",
            "part SN 12 34 56 E in stock",
            "order AB123456C shipped",
        ],
        ..BASE
    },
    BuiltinRule {
        id: "pii.address.uk_postcode.v1",
        category: "ADDRESS",
        pattern: UK_ADDRESS,
        clean_right: true,
        validator: Validator::Code(uk_address),
        confidence: 0.85,
        gate: Gate::Near {
            words: &[
                "postcode",
                "post code",
                "postal",
                "address",
                "street",
                "st",
                "road",
                "rd",
                "lane",
                "avenue",
                "ave",
                "close",
                "drive",
                "way",
                "court",
                "crescent",
                "gardens",
                "place",
                "square",
                "terrace",
                "grove",
                "hill",
                "park",
                "row",
                "mews",
                "walk",
                "parade",
                "green",
            ],
            before: 64,
            after: 96,
        },
        severity: Severity::Medium,
        examples: &[
            "Postcode: ⟦LS6 2AB⟧",
            "Send it to ⟦14 Elm Grove, Leeds LS6 2AB⟧ please.",
            "Address: ⟦42 Station Road\nCambridge\nCB1 2JH⟧",
            "Our office is at ⟦7 Mill Lane, Oxford OX1 4AB⟧.",
            "post code ⟦EC1A 1BB⟧ for the London office",
        ],
        negatives: &[
            "Postcode: QX1 2AB",
            "the address field is optional",
            "walk 3 miles in the park",
            "address line SW1A 1CI is malformed",
        ],
        ..BASE
    },
    // ----------------------------------------------------------------- Germany
    BuiltinRule {
        id: "pii.tax_id.de_steuer_id.v1",
        category: "TAX_ID",
        pattern: r"(?-u)\b\d{2} ?\d{3} ?\d{3} ?\d{3}\b",
        clean_right: true,
        validator: Validator::Code(de_steuer_id),
        confidence: 0.9,
        gate: Gate::Near {
            words: &[
                "steuer",
                "steuerid",
                "steueridentifikationsnummer",
                "identifikationsnummer",
                "idnr",
                "tin",
                "tax",
            ],
            before: 0,
            after: 64,
        },
        severity: Severity::High,
        examples: &[
            "Meine Steuer-ID ist ⟦94 706 382 107⟧.",
            "Steueridentifikationsnummer: ⟦92871453643⟧",
            "German tax ID (TIN): ⟦72383409564⟧",
            "IdNr. ⟦86095742719⟧ laut Lohnsteuerbescheinigung",
        ],
        negatives: &[
            "Steuer-ID: 94706382108",
            "Steuer-ID 10234567893 ist ungültig",
            "Steuer 2024: Bestellnummer 12345678903",
        ],
        ..BASE
    },
    BuiltinRule {
        id: "pii.tax_id.de_steuernummer.v1",
        category: "TAX_ID",
        pattern: r"(?-u)\b(?:\d{2,3}/\d{3,4}/\d{4,5}|\d{3} \d{3} \d{5}|\d{13})\b",
        clean_right: true,
        validator: Validator::Code(de_steuernummer),
        // Above a 13-digit card number of the same digits.
        confidence: 0.96,
        gate: Gate::Near { words: &["steuernummer", "stnr", "st", "steuer", "finanzamt"], before: 0, after: 64 },
        severity: Severity::High,
        examples: &[
            "Steuernummer: ⟦21/815/08150⟧",
            "St.-Nr. ⟦181/815/08155⟧ beim Finanzamt München",
            "German tax number (Steuernummer, ELSTER form): ⟦9181081508155⟧",
            "Steuernummer ⟦013 815 08153⟧ (Hessen)",
        ],
        negatives: &[
            "Steuernummer folgt am 12/05/2024",
            "Steuer-Rechnung 2893181508152",
            "Steuernummer: 6181081508155",
        ],
        ..BASE
    },
    BuiltinRule {
        id: "pii.national_id.de_personalausweis.v1",
        category: "NATIONAL_ID",
        pattern: r"(?-u)\b[CFGHJ-NPRTV-Z][CFGHJ-NPRTV-Z0-9]{8}\d?\b",
        clean_right: true,
        validator: Validator::Code(de_ausweis),
        confidence: 0.9,
        gate: Gate::Near {
            words: &[
                "personalausweis",
                "personalausweisnummer",
                "ausweis",
                "ausweisnummer",
                "ausweisnr",
                "perso",
                "dokumentennummer",
                "id card",
                "identity card",
            ],
            before: 0,
            after: 64,
        },
        severity: Severity::High,
        examples: &[
            "Personalausweis-Nr.: ⟦T220001293⟧",
            "Ausweisnummer ⟦L5GPRN3145⟧",
            "German ID card number: ⟦LJ80XPCZ94⟧",
            "Dokumentennummer: ⟦V2226NR70⟧",
        ],
        negatives: &["Personalausweis: T220001294", "Ausweis bitte mitbringen, Vorgang 1234567890", "Ausweis GESPERRT"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.national_id.de_svnr.v1",
        category: "NATIONAL_ID",
        pattern: r"(?-u)\b\d{2} ?\d{6} ?[A-Z] ?\d{2} ?\d\b",
        clean_right: true,
        validator: Validator::Code(de_rvnr),
        confidence: 0.85,
        gate: Gate::Windows(ID_RUNS),
        severity: Severity::High,
        context: Some(&DE_SV_CONTEXT),
        any_case: &[
            "sozialversicherungsnummer",
            "rentenversicherungsnummer",
            "svnr",
            "sv-nummer",
            "versicherungsnummer",
        ],
        examples: &[
            "sv-nummer: ⟦65 170839 j 003⟧",
            "Sozialversicherungsnummer: ⟦65 170839 J 003⟧",
            "Rentenversicherungsnummer ⟦12150385M515⟧",
            "My German social insurance number is ⟦53 010203 K 029⟧.",
        ],
        negatives: &[
            "Sozialversicherungsnummer 65170839J004",
            "Rentenversicherungsnummer 65 173239 J 003",
            "Bestellnummer 12150385M515",
        ],
        ..BASE
    },
    BuiltinRule {
        id: "pii.health_id.de_kvnr.v1",
        category: "HEALTH_ID",
        pattern: r"(?-u)\b[A-Z]\d{9}\b",
        clean_right: true,
        validator: Validator::Code(de_kvnr),
        confidence: 0.9,
        gate: Gate::Near {
            words: &[
                "krankenversichertennummer",
                "versichertennummer",
                "versichertennr",
                "kvnr",
                "krankenkasse",
                "gesundheitskarte",
                "egk",
                "health insurance number",
                "insurance number",
            ],
            before: 0,
            after: 64,
        },
        severity: Severity::High,
        examples: &[
            "Krankenversichertennummer: ⟦A123456780⟧",
            "Versichertennummer ⟦T405711391⟧ laut Gesundheitskarte",
            "German health insurance number: ⟦Q820173458⟧",
        ],
        negatives: &[
            "Krankenversichertennummer A123456781",
            "health insurance policy A123456780",
            "Krankenkasse Rechnung R000000000",
        ],
        ..BASE
    },
    // ----------------------------------------------------------------- Spain
    BuiltinRule {
        id: "pii.national_id.es_dni.v1",
        category: "NATIONAL_ID",
        // Also with the thousands dots of the printed card (`05.839.271-P`).
        pattern: r"(?-u)\b(?:\d{8}|\d{2}\.\d{3}\.\d{3})[ -]?[A-HJ-NP-TV-Z]\b",
        clean_right: true,
        validator: Validator::Code(es_dni),
        confidence: 0.9,
        gate: Gate::Windows(ID_RUNS),
        severity: Severity::High,
        context: Some(&ES_CONTEXT),
        any_case: &["dni"],
        examples: &[
            "mi dni es ⟦95597297-m⟧",
            "DNI: ⟦12345678Z⟧",
            "Mi DNI es ⟦95597297-M⟧.",
            "Spanish ID card (DNI) ⟦92622439 J⟧",
            "⟦33283679B⟧",
            "con D.N.I. nº ⟦95.597.297-M⟧ y NIF ⟦12.345.678Z⟧",
        ],
        negatives: &["DNI: 12345678A", "pedido 33283679B enviado", "tel 91 234 56 78 ext B"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.national_id.es_nie.v1",
        category: "NATIONAL_ID",
        pattern: r"(?-u)\b[XYZ][ -]?\d{7}[ -]?[A-HJ-NP-TV-Z]\b",
        clean_right: true,
        validator: Validator::Code(es_nie),
        confidence: 0.9,
        gate: Gate::Windows(ID_RUNS),
        severity: Severity::High,
        context: Some(&ES_CONTEXT),
        any_case: &["nie"],
        examples: &[
            "nie ⟦x1234567l⟧",
            "NIE: ⟦X1234567L⟧",
            "Número de identidad de extranjero ⟦Y-4364697-R⟧",
            "foreigner ID (NIE) ⟦Z4821237M⟧",
        ],
        negatives: &["NIE X1234567M", "modelo Z4821237A"],
        ..BASE
    },
    // ----------------------------------------------------------------- Italy
    BuiltinRule {
        id: "pii.tax_id.it_codice_fiscale.v1",
        category: "TAX_ID",
        pattern: r"(?-u)\b[A-Z]{6}[0-9L-NP-V]{2}[A-EHLMPR-T][0-9L-NP-V]{2}[A-Z][0-9L-NP-V]{3}[A-Z]\b",
        clean_right: true,
        validator: Validator::Code(it_codice_fiscale),
        confidence: 0.95,
        gate: Gate::Windows(ID_RUNS),
        severity: Severity::High,
        context: Some(&IT_CONTEXT),
        any_case: &["codice fiscale", "cf"],
        examples: &[
            "il mio codice fiscale è ⟦rssmra85t10a562s⟧",
            "⟦bnclra92e52f205y⟧ is my codice fiscale",
            "Codice fiscale: ⟦RSSMRA85T10A562S⟧",
            "Il mio codice fiscale è ⟦BNCLRA92E52F205Y⟧.",
            "Italian tax code ⟦RSSMRA85T10A56NH⟧ (omocodia)",
            "cf=⟦VRDGPP80A01H501U⟧",
        ],
        negatives: &[
            "build rssmra85t10a562s passed",
            "codice fiscale: rssmra85t10a562t",
            "RSSMRA85T10A562T",
            "RSSMRA85Z10A562S",
            "RSSMRA85T92A562S",
        ],
        ..BASE
    },
    BuiltinRule {
        id: "pii.vat.it_partita_iva.v1",
        category: "VAT_NUMBER",
        pattern: r"(?-u)\b\d{11}\b",
        clean_right: true,
        validator: Validator::Code(it_piva),
        confidence: 0.9,
        gate: Gate::Near { words: &["iva", "partita", "piva", "vat"], before: 0, after: 48 },
        severity: Severity::Medium,
        examples: &[
            "Partita IVA: ⟦01467300016⟧",
            "P.IVA ⟦02458920010⟧ - Sede legale Milano",
            "Italian VAT number (partita IVA) ⟦89914330017⟧",
        ],
        negatives: &["Partita IVA 01467300017", "IVA 22% sul totale, ordine 12345678901"],
        ..BASE
    },
    // ----------------------------------------------------------------- France
    BuiltinRule {
        id: "pii.national_id.fr_nir.v1",
        category: "NATIONAL_ID",
        pattern: r"(?-u)\b[1-478] ?\d{2} ?\d{2} ?(?:\d{2}|2[AB]) ?\d{3} ?\d{3} ?\d{2}\b",
        clean_right: true,
        validator: Validator::Code(fr_nir),
        confidence: 0.9,
        gate: Gate::Windows(ID_RUNS),
        severity: Severity::High,
        context: Some(&FR_CONTEXT),
        examples: &[
            "Numéro de sécurité sociale : ⟦1 85 05 78 006 084 91⟧",
            "NIR ⟦292027512345620⟧",
            "French social security number: ⟦1 80 12 2A 004 031 20⟧",
        ],
        negatives: &["NIR 1 85 05 78 006 084 92", "commande 185057800608400", "1 85 13 78 006 084 91"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.company_id.fr_siren.v1",
        category: "COMPANY_ID",
        pattern: r"(?-u)\b\d{3} ?\d{3} ?\d{3}\b",
        clean_right: true,
        validator: Validator::Code(fr_siren),
        confidence: 0.85,
        gate: Gate::Near { words: &["siren", "rcs"], before: 0, after: 48 },
        severity: Severity::Medium,
        examples: &[
            "SIREN : ⟦152 758 926⟧",
            "numéro SIREN ⟦900754003⟧",
            "company registration (SIREN, RCS Paris) ⟦917 145 211⟧",
        ],
        negatives: &["SIREN 152 758 927", "SIREN: voir commande 123 456 789"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.company_id.fr_siret.v1",
        category: "COMPANY_ID",
        pattern: r"(?-u)\b\d{3} ?\d{3} ?\d{3} ?\d{5}\b",
        clean_right: true,
        validator: Validator::Code(fr_siret),
        // Above a 14-digit card number of the same digits.
        confidence: 0.97,
        gate: Gate::Near { words: &["siret"], before: 0, after: 48 },
        severity: Severity::Medium,
        examples: &[
            "SIRET : ⟦178 502 555 17160⟧",
            "N° SIRET ⟦07909669909116⟧",
            "French establishment number (SIRET) ⟦11465697877811⟧",
        ],
        negatives: &["SIRET 178 502 555 17161", "SIRET 12345678901234"],
        ..BASE
    },
    // ----------------------------------------------------------------- Benelux
    BuiltinRule {
        id: "pii.national_id.nl_bsn.v1",
        category: "NATIONAL_ID",
        pattern: r"(?-u)\b(?:\d{4}\.\d{2}\.\d{3}|\d{3} \d{3} \d{3}|\d{9})\b",
        clean_right: true,
        validator: Validator::Code(nl_bsn),
        confidence: 0.9,
        gate: Gate::Near {
            words: &["bsn", "burgerservicenummer", "sofinummer", "sofi", "citizen service number"],
            before: 0,
            after: 64,
        },
        severity: Severity::High,
        examples: &[
            "BSN: ⟦317974051⟧",
            "Mijn burgerservicenummer is ⟦4293.82.571⟧.",
            "Dutch citizen service number (BSN) ⟦735 643 635⟧",
        ],
        negatives: &["BSN 317974052", "BSN ontbreekt, ordernummer 123456789"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.national_id.be_nrn.v1",
        category: "NATIONAL_ID",
        pattern: r"(?-u)\b\d{2}\.?\d{2}\.?\d{2}[ -]?\d{3}\.?\d{2}\b",
        clean_right: true,
        validator: Validator::Code(be_nrn),
        confidence: 0.9,
        gate: Gate::Near {
            words: &[
                "rijksregisternummer",
                "rijksregister",
                "registre",
                "insz",
                "niss",
                "rrn",
                "identificatienummer",
                "national number",
                "national register",
                "nationaal",
                "national",
            ],
            before: 0,
            after: 64,
        },
        severity: Severity::High,
        examples: &[
            "Rijksregisternummer: ⟦85.07.30-033.28⟧",
            "Numéro de registre national ⟦03021512318⟧",
            "Belgian national number: ⟦90.01.01-245.70⟧",
        ],
        negatives: &["Rijksregisternummer 85.07.30-033.29", "numéro de registre 85.13.30-033.28"],
        ..BASE
    },
    // ----------------------------------------------------------------- Poland
    BuiltinRule {
        id: "pii.national_id.pl_pesel.v1",
        category: "NATIONAL_ID",
        pattern: r"(?-u)\b\d{11}\b",
        clean_right: true,
        validator: Validator::Code(pl_pesel),
        confidence: 0.95,
        gate: Gate::Near { words: &["pesel"], before: 0, after: 48 },
        severity: Severity::High,
        examples: &["PESEL: ⟦44051401359⟧", "Numer PESEL ⟦85061401230⟧", "Polish national ID (PESEL) ⟦03220512344⟧"],
        negatives: &["PESEL 44051401358", "PESEL 85133101234"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.tax_id.pl_nip.v1",
        category: "TAX_ID",
        pattern: r"(?-u)\b(?:\d{3}-\d{3}-\d{2}-\d{2}|\d{3}-\d{2}-\d{2}-\d{3}|\d{10})\b",
        clean_right: true,
        validator: Validator::Code(pl_nip),
        confidence: 0.9,
        gate: Gate::Near { words: &["nip"], before: 0, after: 48 },
        severity: Severity::High,
        examples: &["NIP: ⟦526-104-35-25⟧", "Numer NIP ⟦7773142183⟧", "Polish tax number (NIP) ⟦777-31-42-183⟧"],
        negatives: &["NIP 5261043526", "NIP: zamówienie 1234567890"],
        ..BASE
    },
    // ----------------------------------------------------------------- Nordic countries
    BuiltinRule {
        id: "pii.national_id.se_personnummer.v1",
        category: "NATIONAL_ID",
        pattern: r"(?-u)\b(?:\d{2})?\d{6}[-+ ]?\d{4}\b",
        clean_right: true,
        validator: Validator::Code(se_personnummer),
        confidence: 0.9,
        gate: Gate::Near {
            words: &["personnummer", "personnr", "pnr", "samordningsnummer", "personal identity number", "swedish"],
            before: 0,
            after: 64,
        },
        severity: Severity::High,
        examples: &[
            "Personnummer: ⟦811218-9876⟧",
            "Mitt personnummer är ⟦198112189876⟧.",
            "Swedish personal identity number ⟦640823-3234⟧",
            "samordningsnummer ⟦811278-9873⟧",
        ],
        negatives: &["personnummer 811218-9875", "Personnummer saknas; order 240501-1234"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.company_id.se_orgnr.v1",
        category: "COMPANY_ID",
        pattern: r"(?-u)\b\d{6}-?\d{4}\b",
        clean_right: true,
        validator: Validator::Code(se_orgnr),
        confidence: 0.9,
        gate: Gate::Near {
            words: &["organisationsnummer", "orgnr", "org.nr", "organisation number", "organization number"],
            before: 0,
            after: 48,
        },
        severity: Severity::Medium,
        examples: &[
            "Organisationsnummer: ⟦556703-7485⟧",
            "Org.nr ⟦8024517370⟧",
            "Swedish organisation number ⟦559128-3048⟧",
        ],
        negatives: &["Organisationsnummer 556703-7486", "orgnr 811218-9876", "see example.org/u/5567037485"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.national_id.fi_hetu.v1",
        category: "NATIONAL_ID",
        pattern: r"(?-u)\b\d{6}[-+A-FU-Y]\d{3}[0-9A-FHJ-NPR-Y]\b",
        clean_right: true,
        validator: Validator::Code(fi_hetu),
        confidence: 0.95,
        gate: Gate::Windows(ID_RUNS),
        severity: Severity::High,
        context: Some(&FI_CONTEXT),
        examples: &[
            "Henkilötunnus: ⟦131052-308T⟧",
            "HETU ⟦010305A4562⟧",
            "Finnish personal identity code ⟦150398-123B⟧",
        ],
        negatives: &["Henkilötunnus 131052-308U", "tilaus 241182-911X", "311352-308T"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.national_id.dk_cpr.v1",
        category: "NATIONAL_ID",
        pattern: r"(?-u)\b\d{6}-?\d{4}\b",
        clean_right: true,
        validator: Validator::Code(dk_cpr),
        confidence: 0.85,
        gate: Gate::Near { words: &["cpr", "cprnr", "personnummer", "danish"], before: 0, after: 48 },
        severity: Severity::High,
        examples: &["CPR-nummer: ⟦150585-1235⟧", "CPR ⟦2304911457⟧", "Danish CPR number ⟦071168-2208⟧"],
        negatives: &["CPR: 320185-1234", "CPR 011385-1234"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.national_id.no_fnr.v1",
        category: "NATIONAL_ID",
        pattern: r"(?-u)\b\d{6} ?\d{5}\b",
        clean_right: true,
        validator: Validator::Code(no_fnr),
        confidence: 0.9,
        gate: Gate::Near {
            words: &[
                "fødselsnummer",
                "fodselsnummer",
                "fødselsnr",
                "fodselsnr",
                "f.nr",
                "personnummer",
                "dnummer",
                "fnr",
                "norwegian",
                "national identity number",
            ],
            before: 0,
            after: 64,
        },
        severity: Severity::High,
        examples: &[
            "Fødselsnummer: ⟦15058512343⟧",
            "fnr ⟦231299 34514⟧",
            "Norwegian national identity number ⟦11089032174⟧",
            "D-nummer / fødselsnummer ⟦55058512337⟧",
            "fødselsnr. ⟦150585 12343⟧, f.nr. ⟦11089032174⟧",
        ],
        negatives: &["Fødselsnummer 15058512344", "fnr 32058512343"],
        ..BASE
    },
    // ----------------------------------------------------------------- Switzerland
    BuiltinRule {
        id: "pii.national_id.ch_ahv.v1",
        category: "NATIONAL_ID",
        pattern: r"(?-u)\b756\.?\d{4}\.?\d{4}\.?\d{2}\b",
        clean_right: true,
        validator: Validator::Code(ch_ahv),
        confidence: 0.95,
        gate: Gate::NumericRun { min_digits: 13, min_dashes: 0, min_dots: 0, plus: false },
        severity: Severity::High,
        context: Some(&CH_CONTEXT),
        examples: &[
            "AHV-Nr.: ⟦756.1234.5678.97⟧",
            "Numéro AVS ⟦7563639532272⟧",
            "Swiss social security number (AHV/AVS) ⟦756.5014.2177.43⟧",
        ],
        negatives: &["AHV 756.1234.5678.98", "Artikel 756.1234.5678"],
        ..BASE
    },
    // ----------------------------------------------------------------- Portugal, Ireland
    BuiltinRule {
        id: "pii.tax_id.pt_nif.v1",
        category: "TAX_ID",
        pattern: r"(?-u)\b\d{3} ?\d{3} ?\d{3}\b",
        clean_right: true,
        validator: Validator::Code(pt_nif),
        confidence: 0.9,
        gate: Gate::Near { words: &["nif", "contribuinte", "nipc", "fiscal"], before: 0, after: 48 },
        severity: Severity::High,
        examples: &[
            "NIF: ⟦110490495⟧",
            "Número de contribuinte ⟦254 902 677⟧",
            "Portuguese tax number (NIF) ⟦530432013⟧",
        ],
        negatives: &["NIF 110490496", "NIF 012345678"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.national_id.ie_ppsn.v1",
        category: "NATIONAL_ID",
        pattern: r"(?-u)\b\d{7}[A-W][A-IW]?\b",
        clean_right: true,
        validator: Validator::Code(ie_ppsn),
        confidence: 0.9,
        gate: Gate::Near { words: &["ppsn", "pps", "ppsno", "psp", "personal public service"], before: 0, after: 48 },
        severity: Severity::High,
        examples: &["PPSN: ⟦7185133Q⟧", "My PPS number is ⟦7420780SA⟧.", "Uimhir PSP / PPS No. ⟦2345888T⟧"],
        negatives: &["PPSN 7185133R", "PPS 1234567"],
        ..BASE
    },
    // ----------------------------------------------------------------- Austria, Turkey
    BuiltinRule {
        id: "pii.national_id.at_svnr.v1",
        category: "NATIONAL_ID",
        pattern: r"(?-u)\b\d{4} ?\d{6}\b",
        clean_right: true,
        validator: Validator::Code(at_svnr),
        confidence: 0.9,
        gate: Gate::Near {
            words: &["sozialversicherungsnummer", "svnr", "versicherungsnummer", "sozialversicherung", "austrian"],
            before: 0,
            after: 64,
        },
        severity: Severity::High,
        examples: &[
            "Sozialversicherungsnummer: ⟦1237 010180⟧",
            "SVNR ⟦4584150392⟧",
            "Austrian social security number ⟦7323 291166⟧",
        ],
        negatives: &["SVNR 1238 010180", "SVNR 0237 010180"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.national_id.tr_tckn.v1",
        category: "NATIONAL_ID",
        pattern: r"(?-u)\b[1-9]\d{10}\b",
        clean_right: true,
        validator: Validator::Code(tr_tckn),
        confidence: 0.9,
        gate: Gate::Near { words: &["kimlik", "tckn", "tcno", "tc", "turkish"], before: 0, after: 48 },
        severity: Severity::High,
        examples: &["T.C. Kimlik No: ⟦36316627778⟧", "TCKN ⟦40689857502⟧", "Turkish identity number ⟦10000000146⟧"],
        negatives: &["TCKN 36316627779", "Kimlik no 01234567890"],
        ..BASE
    },
    // ----------------------------------------------------------------- Found after their names
    BuiltinRule {
        id: "pii.national_id.es_nss.v1",
        category: "NATIONAL_ID",
        pattern: r"(?-u)\b\d{2}[ /-]?\d{8}[ /-]?\d{2}\b",
        clean_right: true,
        validator: Validator::Code(es_nss),
        confidence: 0.9,
        gate: Gate::Near {
            words: &["seguridad", "nss", "naf", "afiliación", "afiliacion", "social security"],
            before: 0,
            after: 64,
        },
        context: Some(&LABELLED_CONTEXT),
        examples: &[
            "Nº de la Seguridad Social: ⟦281234567840⟧",
            "Número de afiliación (NAF) ⟦28/12345678/40⟧",
            "Spanish social security number ⟦08 40123456 54⟧",
            "NSS: ⟦463123456725⟧",
        ],
        negatives: &[
            "Nº de la Seguridad Social: 281234567841",
            "Seguridad Social: pedido 281234567840",
            "NSS 990000000000",
        ],
        ..BASE
    },
    BuiltinRule {
        id: "pii.tax_id.es_nif.v1",
        category: "TAX_ID",
        pattern: r"(?i-u)\bnif\b[^\n\d]{0,32}?\b((?-i:\d{8}[ -]?[A-HJ-NP-TV-Z]|[XYZ][ -]?\d{7}[ -]?[A-HJ-NP-TV-Z]|[KLM]\d{7}[A-HJ-NP-TV-Z]))\b",
        group: 1,
        clean_right: true,
        validator: Validator::Code(es_nif),
        // Above the DNI / NIE rules (0.95 with "nif" nearby): named NIF, it is the tax number.
        confidence: 0.97,
        gate: Gate::Near { words: &["nif"], before: 0, after: 64 },
        any_case: &["nif"],
        examples: &[
            "mi nif: ⟦20481736-y⟧",
            "Me llamo Lucía y mi NIF ⟦73815294Z⟧.",
            "NIF: ⟦20481736-Y⟧",
            "NIF del trabajador extranjero ⟦Y2837465S⟧",
        ],
        negatives: &["NIF 73815294A", "NIF-IVA ESB62819479", "mi DNI 73815294Z"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.company_id.es_cif.v1",
        category: "COMPANY_ID",
        pattern: r"(?-u)\b[ABCDEFGHJNPQRSUVW]-?\d{7}-?[0-9A-J]\b",
        clean_right: true,
        validator: Validator::Code(es_cif),
        confidence: 0.9,
        gate: Gate::Near { words: &["cif", "nif"], before: 0, after: 48 },
        severity: Severity::Medium,
        context: Some(&LABELLED_CONTEXT),
        examples: &[
            "Construcciones Levante S.L., CIF ⟦B62819479⟧, NIF-IVA ESB62819479.",
            "CIF: ⟦A12345674⟧",
            "NIF de la sociedad ⟦Q2826000H⟧",
            "cif=⟦B-1234567-4⟧",
        ],
        negatives: &["CIF B62819478", "CIF pendiente, pedido A1234567", "CIF X1234567L"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.health_id.fr_vitale.v1",
        category: "HEALTH_ID",
        pattern: r"(?i-u)\bvitale\b[^\n\d]{0,24}?\b((?-i:[1-478] ?\d{2} ?\d{2} ?(?:\d{2}|2[AB]) ?\d{3} ?\d{3} ?\d{2}))\b",
        group: 1,
        clean_right: true,
        validator: Validator::Code(fr_nir),
        // Above the NIR rule (0.95 with "vitale" nearby): the number of a carte Vitale.
        confidence: 0.97,
        gate: Gate::Near { words: &["vitale"], before: 0, after: 64 },
        examples: &[
            "Pour la mutuelle, ma carte Vitale : ⟦1 84 03 75 123 456 90⟧.",
            "carte vitale n° ⟦291016938802172⟧",
            "Vitale: ⟦1 80 12 2A 004 031 20⟧",
        ],
        negatives: &["carte Vitale : 1 84 03 75 123 456 91", "Vitale 2024 commande 184037512345690 x"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.tax_id.fr_spi.v1",
        category: "TAX_ID",
        pattern: r"(?-u)\b[0-3]\d ?\d{2} ?\d{3} ?\d{3} ?\d{3}\b",
        clean_right: true,
        validator: Validator::Code(fr_spi),
        confidence: 0.9,
        gate: Gate::Near { words: &["fiscal", "fiscale", "spi"], before: 0, after: 64 },
        context: Some(&LABELLED_CONTEXT),
        examples: &[
            "Numéro fiscal : ⟦3023217600053⟧",
            "numéro d'identification fiscale (SPI) ⟦30 23 217 600 053⟧",
            "French tax number (numéro fiscal de référence): ⟦0748312659171⟧",
        ],
        negatives: &[
            "Numéro fiscal : 3023217600054",
            "numéro fiscal 5023217600053",
            "fiscal 2024: commande 1234567890066 x",
        ],
        ..BASE
    },
    BuiltinRule {
        id: "pii.national_id.it_cie.v1",
        category: "NATIONAL_ID",
        // Carta d'identità elettronica (CIE 3.0: two letters, five digits, two letters)
        // and the paper card (two letters, seven digits).
        pattern: r"(?-u)\b(?:[A-Z]{2}\d{5}[A-Z]{2}|[A-Z]{2} ?\d{7})\b",
        clean_right: true,
        validator: Validator::Code(registered_number),
        confidence: 0.85,
        gate: Gate::Near { words: &["identità", "identita", "cie"], before: 0, after: 64 },
        context: Some(&LABELLED_CONTEXT),
        examples: &[
            "Carta d'identità n. ⟦CA48213KX⟧",
            "numero della carta di identità: ⟦AY 4821390⟧",
            "Italian identity card (CIE) ⟦CB12938ZT⟧",
        ],
        negatives: &[
            "Carta d'identità n. CA00000AA",
            "carta d'identità scaduta nel 2023",
            "identità IT60X0542811101000000123456",
        ],
        ..BASE
    },
    BuiltinRule {
        id: "pii.company_id.it_rea.v1",
        category: "COMPANY_ID",
        pattern: r"(?i-u)\b(?:rea\b|r\.e\.a\.?)[^\n\d]{0,24}?\b((?-i:[A-Z]{2})[ -]?\d{4,7})\b",
        group: 1,
        clean_right: true,
        validator: Validator::Code(registered_number),
        confidence: 0.85,
        gate: Gate::Near { words: &["rea", "r.e.a"], before: 0, after: 64 },
        severity: Severity::Medium,
        examples: &[
            "P.IVA IT01467300016, REA ⟦MI-1849068⟧.",
            "Numero R.E.A. ⟦TO 1102938⟧",
            "iscritta al REA di Roma con il n. ⟦RM-1473820⟧",
        ],
        negatives: &["REA MI-0000000", "la rea confessa", "REA n. 2024"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.health_id.it_tessera_sanitaria.v1",
        category: "HEALTH_ID",
        pattern: r"(?-u)\b80380\d{15}\b",
        clean_left: true,
        clean_right: true,
        validator: Validator::Code(it_tessera),
        confidence: 0.9,
        gate: Gate::NumericRun { min_digits: 20, min_dashes: 0, min_dots: 0, plus: false },
        examples: &[
            "Tessera sanitaria del titolare: ⟦80380004839201756349⟧.",
            "numero di identificazione della tessera (TEAM) ⟦80380001072648395124⟧",
        ],
        negatives: &["Tessera sanitaria 80380004839201756348", "id 80390004839201756349"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.company_id.nl_kvk.v1",
        category: "COMPANY_ID",
        pattern: r"(?-u)\b\d{8}\b",
        clean_right: true,
        validator: Validator::Code(registered_number),
        confidence: 0.85,
        gate: Gate::Near {
            words: &["kvk", "kvknummer", "kamer van koophandel", "handelsregister"],
            before: 0,
            after: 48,
        },
        severity: Severity::Medium,
        context: Some(&LABELLED_CONTEXT),
        examples: &[
            "Bakkerij De Molen B.V., KvK-nummer ⟦60482913⟧, btw-id NL317974051B01.",
            "ingeschreven bij de Kamer van Koophandel onder nummer ⟦34129087⟧",
            "KvK: ⟦09182736⟧",
        ],
        negatives: &["KvK-nummer 00000000", "KvK 2024 jaarverslag", "KvK 1234567"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.national_id.pl_dowod.v1",
        category: "NATIONAL_ID",
        pattern: r"(?-u)\b[A-Z]{3} ?\d{6}\b",
        clean_right: true,
        validator: Validator::Code(pl_dowod),
        confidence: 0.9,
        gate: Gate::Near {
            words: &["dowód", "dowodu", "dowod", "dowodem", "osobisty", "osobistego", "identity card", "id card"],
            before: 0,
            after: 64,
        },
        examples: &[
            "Mój numer dowodu osobistego to ⟦ABA430055⟧.",
            "Dowód osobisty: ⟦XYZ 712345⟧",
            "Polish identity card ⟦CAE848213⟧",
        ],
        negatives: &["dowód osobisty ABA430056", "dowód zakupu FV 123456", "numer dowodu ABA 43005"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.company_id.pl_regon.v1",
        category: "COMPANY_ID",
        pattern: r"(?-u)\b\d{9}(?:\d{5})?\b",
        clean_right: true,
        validator: Validator::Code(pl_regon),
        confidence: 0.9,
        gate: Gate::Near { words: &["regon"], before: 0, after: 48 },
        severity: Severity::Medium,
        context: Some(&LABELLED_CONTEXT),
        examples: &[
            "Usługi Budowlane Nowak Sp. z o.o., REGON ⟦123456785⟧, NIP UE PL5261043525.",
            "REGON: ⟦730819427⟧",
            "REGON jednostki lokalnej ⟦12345678512347⟧",
        ],
        negatives: &["REGON 123456786", "REGON 000000000", "REGON: zamówienie 12345678"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.company_id.de_handelsregister.v1",
        category: "COMPANY_ID",
        pattern: r"(?-u)\bHR[AB] ?\d{1,6}(?: B)?\b",
        clean_right: true,
        validator: Validator::Code(registered_number),
        confidence: 0.85,
        gate: Gate::Prefix(&[b"HRA", b"HRB"]),
        severity: Severity::Medium,
        examples: &[
            "Müller & Söhne GmbH, Amtsgericht Charlottenburg ⟦HRB 268799⟧",
            "Registergericht: Amtsgericht München, ⟦HRB 123456⟧",
            "eingetragen im Handelsregister unter ⟦HRA 40281⟧",
            "Amtsgericht Charlottenburg ⟦HRB 98765 B⟧",
        ],
        negatives: &["HRB 000000", "HRB 12", "HRBX 268799", "HR 268799"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.company_id.uk_companies_house.v1",
        category: "COMPANY_ID",
        pattern: concat!(
            r"(?i-u)\b(?:companies house|company (?:registration )?(?:number|no)|registered (?:number|no)",
            r"|registered in (?:england|scotland|wales|northern ireland)|crn)\b[^\n\d]{0,32}?\b((?-i:[A-Z]{2}\d{6}|\d{8}))\b"
        ),
        group: 1,
        clean_right: true,
        validator: Validator::Code(uk_company),
        confidence: 0.85,
        gate: Gate::Near {
            words: &[
                "companies house",
                "company number",
                "company no",
                "company registration",
                "registered number",
                "registered no",
                "registered in",
                "crn",
            ],
            before: 0,
            after: 112,
        },
        severity: Severity::Medium,
        examples: &[
            "Our company details for the invoice: Companies House no. ⟦09482713⟧, VAT reg GB980780684.",
            "Registered in England and Wales, company number ⟦SC482913⟧.",
            "Company registration number: ⟦OC301947⟧",
        ],
        negatives: &["Companies House no. 00000000", "company number 1234567", "company no. XX123456"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.tax_id.tr_vkn.v1",
        category: "TAX_ID",
        pattern: r"(?i-u)\b(?:vergi kimlik|vkn)\b[^\n\d]{0,32}?\b(\d{10})\b",
        group: 1,
        clean_right: true,
        validator: Validator::Code(tr_vkn),
        confidence: 0.9,
        gate: Gate::Near { words: &["vergi", "vkn"], before: 0, after: 64 },
        examples: &[
            "Pasaport numaram U12345678, vergi kimlik numaram ⟦4820193752⟧.",
            "Vergi Kimlik No: ⟦7301846254⟧",
            "VKN ⟦0157392843⟧",
        ],
        negatives: &["vergi kimlik numaram 4820193753", "VKN 0000000000", "vergi kimlik 12345"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.vat.tr_vkn.v1",
        category: "VAT_NUMBER",
        pattern: r"(?i-u)\bvergi (?:no\b|numaras)[^\n\d]{0,32}?\b(\d{10})\b",
        group: 1,
        clean_right: true,
        validator: Validator::Code(tr_vkn),
        confidence: 0.9,
        gate: Gate::Near { words: &["vergi"], before: 0, after: 64 },
        severity: Severity::Medium,
        examples: &[
            "Fatura bilgileri: Yıldız Tekstil A.Ş., Vergi No ⟦7301846254⟧.",
            "Vergi numarası: ⟦0157392843⟧ (Kadıköy V.D.)",
        ],
        negatives: &["Vergi No 7301846255", "vergi no. 2024 beyanı"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.company_id.tr_mersis.v1",
        category: "COMPANY_ID",
        pattern: r"(?i-u)\b(?:mersis|ticaret sicil|sicil)\b[^\n\d]{0,24}?\b(\d{16}|\d{5,7})\b",
        group: 1,
        clean_right: true,
        validator: Validator::Code(tr_company),
        confidence: 0.85,
        gate: Gate::Near { words: &["mersis", "sicil"], before: 0, after: 64 },
        severity: Severity::Medium,
        examples: &[
            "Vergi No 7301846254, Mersis kayıt ⟦563241⟧.",
            "MERSIS No: ⟦0482019375600015⟧",
            "Ticaret sicil no ⟦104382⟧",
        ],
        negatives: &["Mersis no 1482019375600015", "sicil no 000000", "Mersis kaydı 2024 yılında 12"],
        ..BASE
    },
    // ----------------------------------------------------------------- EU VAT numbers
    BuiltinRule {
        id: "pii.vat.eu.v1",
        category: "VAT_NUMBER",
        pattern: EU_VAT,
        clean_right: true,
        validator: Validator::Code(eu_vat),
        confidence: 0.9,
        gate: Gate::Windows(ID_RUNS),
        severity: Severity::Medium,
        context: Some(&VAT_CONTEXT),
        examples: &[
            "USt-IdNr.: ⟦DE410077285⟧",
            "Umsatzsteuer-ID ⟦DE 287 319 062⟧, Finanzamt Köln",
            "N° TVA intracommunautaire : ⟦FR96152758926⟧",
            "Partita IVA ⟦IT01467300016⟧ e ⟦ESB62819479⟧",
            "BTW-nummer ⟦NL317974051B01⟧ or ⟦NL228173169B34⟧",
            "VAT: ⟦BE0417091585⟧, ⟦ATU13585627⟧, ⟦PL5261043525⟧",
            "Momsregistreringsnummer ⟦SE556703748501⟧ and ⟦DK13579245⟧",
            "VAT numbers ⟦GB980780684⟧ ⟦IE6433435F⟧ ⟦IE3628451VA⟧ ⟦PT507283198⟧ ⟦FI27491639⟧",
            "⟦EL094817323⟧ ⟦HR38591207469⟧ ⟦HU12893746⟧ ⟦LU15027442⟧ ⟦MT12947127⟧",
            "⟦RO18547290⟧ ⟦SI50128477⟧ ⟦SK2022748970⟧ ⟦CZ25827367⟧ ⟦EE102345676⟧ ⟦ESX1234567L⟧",
        ],
        negatives: &[
            "USt-IdNr.: DE410077286",
            "FR97152758926",
            "order DE123456789 shipped",
            "IT01467300017",
            "NL317974052B01",
        ],
        ..BASE
    },
];

#[cfg(test)]
mod tests;
