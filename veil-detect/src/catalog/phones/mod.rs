//! Phone numbers written the national way (no `+CC`): `06 12 34 56 78`,
//! `090-1234-5678`, `0151 23456789`, `(11) 91234-5678`, and the `00` international
//! prefix (`0041 44 123 45 67`). `+CC …` stays with `pii.phone.e164.v1` and North
//! American numbers with `pii.phone.nanp.v1`.
//!
//! # Why hand-written plans, not a metadata library
//!
//! The `phonenumber` crate (0.3.10, libphonenumber metadata 9.0.33) builds for
//! `wasm32-wasip1`, but it does not fit: a scratch `cdylib` that uses `regex` alone
//! is 868,289 bytes in the release profile Veil uses (LTO, one codegen unit,
//! `opt-level = 3`). The same crate calling `phonenumber::parse` and `is_valid` is
//! 2,312,395 bytes, so the library adds 1,444,106 bytes (1.38 MiB). `veil.wasm` is
//! 2.29 MB today, so it would be about 3.73 MB with the library alone, over the
//! 3 MiB budget before any other rule is added. Its runtime cost is also high: it
//! compiles hundreds of regexes on first use.
//!
//! What is here instead is a table of national numbering plans ([`PLANS`]). The
//! data comes from each regulator's national E.164 plan (ARCEP, MIC, MIIT, ISA
//! Israel, NTC, BTK, BNetzA, Ofcom, CNMC, AGCOM, ACM, Anatel, IFT, TRAI/DoT, ACMA,
//! MSIT/KCC, IMDA, PTS, UKE, Minsvyaz, BIPT, BAKOM, RTR, ANACOM, ComReg, ICASA,
//! Kominfo, NCC Taiwan). Each plan gives the trunk prefix, the blocks of leading
//! digits of the national significant number (mobile and geographic), and the
//! groupings people write, as templates. On top of the table there is one finder
//! pattern and one validator. With this file, `veil.wasm` (release, wasm32-wasip1)
//! went from 2,294,035 to 2,323,394 bytes, 29,359 bytes more. The templates are
//! indexed by length once ([`by_length`]), so a candidate is compared with a dozen
//! of them, not with all 224.
//!
//! # How a number is found
//!
//! The pattern takes a whole *numeric token*: digit groups joined by one space,
//! dot or dash (or a `/` after the area code, in Germany and Austria), with a
//! parenthesised area code or `(0)`.
//! The token must not follow a digit group, a `+`, a letter or an id sign, and it
//! must not run on into a word. The regex is greedy, so a phone number followed by
//! ` 2024` becomes one long token that no plan accepts. The validator then fits
//! the token to the templates: `t` is the trunk prefix, `#` a digit of the
//! national significant number, a space is the token's one separator (space, or
//! what the plan allows: a dot or a dash), and `-`, `/`, `(`, `)` are literal.
//! The digits under the `#` must begin with one of the block's leading-digit
//! patterns. The template fixes the length.
//!
//! Precision is handled in tiers:
//! - `pii.phone.national.v1`: a template marked *alone* (a grouping distinctive for
//!   its country, with a valid trunk and leading digits) stands on its own at 0.75.
//! - `pii.phone.national.labeled.v1`: everything else the plans know, such as
//!   mobile numbers written as one run (`13812345678`, `09171234567`, `0612345678`)
//!   and Singapore's `8123 4567`. These count only when a phone label comes just
//!   before them, on the same line and in the same sentence. The label may be a
//!   Latin-script word ("Tel", "Handy", "móvil", "komórka", ...) or a word in
//!   another script (电话, 手机, 電話, 携帯, 전화, 휴대폰, телефон, טלפון). A window
//!   finder looks for runs of eight or more digits with such a label. It costs one
//!   pass over the digits, and the regex then runs only in the windows it finds.
//! - `pii.phone.national.slash.v1`: the German and Austrian `0151/23456789`. A slash
//!   splits the engine's numeric runs, so windows around `digit/digit` take these.
//! - `pii.phone.intl_prefix.v1`: `00` + an assigned country code + a national
//!   number that the country's plan accepts (when the table has that country).
//! - `pii.phone.intl_trunk.v1`: `+CC (0)…` with a one-digit first group
//!   (`+33 (0)6 12 34 56 78`), which the e164 pattern cannot take. Where e164 finds
//!   the same span, e164 wins (it comes earlier in the catalog).
//!
//! All rules lose 0.3 after an order, invoice or tracking word ("Bestellnummer",
//! "commande", "pedido", "订单", ...) or the name of another identifier (PESEL, CPF,
//! IBAN, ...). That puts them under the default threshold.
//!
//! Countries (28): FR, JP, CN, IL, PH, TR, DE, GB, ES, IT, NL, BR, MX, IN, AU, KR, SG,
//! SE, PL, RU, BE, CH, AT, PT, IE, ZA, ID, TW. Any assigned country code can follow
//! `00`.

mod plans;

/// The pattern of a numeric token, with a left guard. The token is group 1. The guard
/// is one of: start of line; a byte that cannot be part of a number or an id (`:`,
/// `=`, `,`, a quote, `(`, a non-ASCII byte, ...); or a letter, `.`, `-` or `/`
/// followed by a space ("Tel. 06 …", "Fax - 030 …"). Up to three spaces may come after the
/// guard. `$1` is the token's connector class.
macro_rules! token_pattern {
    ($connectors:literal) => {
        concat!(
            r"(?-u)(?:(?mR:^)|[^0-9A-Za-z_.+\-)/#$%@&~^`\\ \r\n]|[A-Za-z./\-] )[ ]{0,3}",
            r"((?:\(\d{1,5}\) ?)?\d{1,20}(?:(?:",
            $connectors,
            r"|\) ?| ?\()\d{1,20}){0,7})\b"
        )
    };
}

use crate::rule::{BuiltinRule, Gate, Severity, BASE};
use crate::validate::Validator;
use plans::*;

pub const RULES: &[BuiltinRule] = &[
    BuiltinRule {
        id: "pii.phone.national.v1",
        category: "PHONE",
        pattern: token_pattern!(r"[ .\-]"),
        group: 1,
        finder: Some(find_token),
        validator: Validator::Code(national),
        confidence: 0.75,
        gate: Gate::NumericRun { min_digits: 9, min_dashes: 0, min_dots: 0, plus: false },
        severity: Severity::Medium,
        context: Some(&CONTEXT),
        examples: &[
            "Appelez-moi au ⟦06 12 34 56 78⟧ ou au ⟦01.45.67.89.10⟧.",
            "携帯: ⟦090-1234-5678⟧、会社 ⟦03-1234-5678⟧",
            "手机 ⟦138 1234 5678⟧，座机 ⟦010-12345678⟧，深圳 ⟦(0755) 12345678⟧",
            "טלפון ⟦09-7625400⟧ או ⟦050-1234567⟧",
            "Globe: ⟦0917 123 4567⟧, office ⟦(02) 8123 4567⟧",
            "Cep: ⟦0532 123 45 67⟧ / ev: ⟦0 (532) 123 45 67⟧ / iş ⟦(0212) 123 45 67⟧",
            "Handy ⟦0151 23456789⟧, Büro ⟦030 12345678⟧, Köln ⟦0221 1234567⟧, Zentrale ⟦089 1234567-0⟧",
            "Mobile ⟦07700 900123⟧ or ⟦07700 900 456⟧; office ⟦020 7946 0958⟧; Leeds ⟦0113 496 0123⟧",
            "Móvil ⟦612 34 56 78⟧, fijo ⟦91 123 45 67⟧",
            "Cellulare ⟦333 123 4567⟧, ufficio ⟦06 1234 5678⟧",
            "Bel ⟦06-12345678⟧ of ⟦020-1234567⟧",
            "WhatsApp ⟦(11) 91234-5678⟧, fixo ⟦(21) 3123-4567⟧, ⟦11 91234-5678⟧",
            "Celular: ⟦55 1234 5678⟧",
            "Mobile ⟦98765 43210⟧, Delhi office ⟦011-2345 6789⟧",
            "Mobile ⟦0491 570 156⟧, Sydney ⟦(02) 5550 1234⟧",
            "휴대폰 ⟦010-1234-5678⟧, 서울 ⟦02-123-4567⟧",
            "Mobil ⟦070-123 45 67⟧, Stockholm ⟦08-123 456 78⟧",
            "Komórka ⟦512 345 678⟧, Warszawa ⟦22 123 45 67⟧",
            "Телефон ⟦8 (912) 345-67-89⟧ или ⟦8 912 345-67-89⟧",
            "{\"phone\":\"⟦06 12 34 56 78⟧\"}",
            "Tel. ⟦0151 23456789⟧ (mobil)",
            "GSM ⟦0471 12 34 56⟧, Natel ⟦079 123 45 67⟧",
        ],
        negatives: &[
            "Bestellnummer 0151 23456789 vom 3. Mai",
            "commande 06 12 34 56 78 expédiée",
            "invoice 030 12345678 paid",
            "released 2024-05-06 and 06.05.2024 at 12:30:45",
            "version 10.2.3.4 on 192.168.1.20",
            "ISBN 978-3-16-148410-0",
            "total 1 234 567,89 EUR",
            "card 4111 1111 1111 1111",
            "call (415) 555-0132 or 415-555-0133",
            "13812345678 and 0612345678 without a label",
            "06 12 34 56 78 90 is one long run",
            "+33 6 12 34 56 78 and +44 (0)20 7946 0958 are international",
            "x06 12 34 56 78 and 1234 8123 4567",
            "Paris 75001, Berlin 10115",
        ],
        ..BASE
    },
    BuiltinRule {
        id: "pii.phone.national.labeled.v1",
        category: "PHONE",
        pattern: token_pattern!(r"[ ./\-]"),
        group: 1,
        finder: Some(find_token_slash),
        validator: Validator::Code(labeled),
        confidence: 0.7,
        gate: Gate::Windows(LABEL_WINDOWS),
        severity: Severity::Medium,
        context: Some(&CONTEXT),
        examples: &[
            "Tel: ⟦13812345678⟧",
            "WhatsApp me on ⟦09171234567⟧ after six",
            "Téléphone : ⟦0612345678⟧",
            "Handynummer ⟦015123456789⟧",
            "call ⟦8123 4567⟧ (Singapore)",
            "mobile ⟦07700900123⟧",
            "Teléfono móvil ⟦612345678⟧",
            "Numero di cellulare ⟦3331234567⟧",
            "phone ⟦0041441234567⟧",
            "Contact: Anna, tel ⟦0412345678⟧",
            "Tel. ⟦0612345678⟧",
            "我的手机号是⟦13812345678⟧。",
            "電話番号：⟦09012345678⟧",
            "휴대폰 ⟦01012345678⟧으로 연락주세요",
            "телефон: ⟦89123456789⟧",
            "Handy (privat): ⟦015123456789⟧",
        ],
        negatives: &[
            "Bestellnummer 13812345678",
            "phone 12345678901 is not a number",
            "Tel: 1381234567 (ten digits)",
            "call order 13812345678 again",
            "Telefon 0000000000",
            "13812345678 with no label",
            "Ruf mich an. 13812345678 ist die Kundennummer",
            "订单号13812345678",
            "手机 12345678901",
            "电话 2024-05-06",
        ],
        ..BASE
    },
    BuiltinRule {
        id: "pii.phone.national.slash.v1",
        category: "PHONE",
        pattern: token_pattern!(r"[ ./\-]"),
        group: 1,
        finder: Some(find_token_slash),
        validator: Validator::Code(slashed),
        confidence: 0.75,
        gate: Gate::Windows(SLASH_WINDOWS),
        severity: Severity::Medium,
        context: Some(&CONTEXT),
        examples: &[
            "Handy: ⟦0151/23456789⟧",
            "Tel. ⟦030/12345678⟧, Fax ⟦030/12345679⟧",
            "Mobil ⟦0664/1234567⟧ (A1)",
            "Durchwahl ⟦0221/123456-78⟧",
        ],
        negatives: &["am 12/05/2024", "Bestellnummer 0151/23456789", "Seite 030/12345678/9", "1/2 and 3/4"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.phone.intl_prefix.v1",
        category: "PHONE",
        pattern: concat!(
            r"(?-u)(?:(?mR:^)|[^0-9A-Za-z_.+\-)/#$%@&~^`\\ \r\n]|[A-Za-z./\-] )[ ]{0,3}",
            r"(00 ?\d{1,20}(?:(?:[ .\-]|\) ?| ?\()\d{1,20}){0,7})\b"
        ),
        group: 1,
        validator: Validator::Code(intl_grouped),
        confidence: 0.75,
        gate: Gate::NumericRun { min_digits: 10, min_dashes: 0, min_dots: 0, plus: false },
        severity: Severity::Medium,
        context: Some(&CONTEXT),
        examples: &[
            "Zürich office: ⟦0041 44 123 45 67⟧",
            "Ruf an: ⟦0049 30 12345678⟧",
            "London ⟦0044 (0)20 7946 0958⟧",
            "portable ⟦00 33 6 12 34 56 78⟧",
            "call ⟦00 1 212 555 0123⟧ from abroad",
        ],
        negatives: &[
            "order 0049 30 12345678",
            "code 0099 12 345678",
            "0033612345678 ungrouped",
            "0049 99 1",
            "serial 00 44 20 7946 0958 12",
        ],
        ..BASE
    },
    BuiltinRule {
        id: "pii.phone.intl_trunk.v1",
        category: "PHONE",
        pattern: r"(?-u)\+\d{1,3} ?\(0\) ?\d{1,20}(?:[ .\-]\d{1,20}){0,7}\b",
        clean_left: true,
        validator: Validator::Code(intl_trunk),
        confidence: 0.75,
        gate: Gate::NumericRun { min_digits: 8, min_dashes: 0, min_dots: 0, plus: true },
        severity: Severity::Medium,
        context: Some(&CONTEXT),
        examples: &[
            "Tél. ⟦+33 (0)6 12 34 56 78⟧",
            "Mobiel ⟦+31 (0)6 12345678⟧",
            "Wien ⟦+43 (0)1 234 56 78⟧",
            "London ⟦+44 (0)20 7946 0958⟧",
            "Handy ⟦+49 (0)151 23456789⟧",
        ],
        negatives: &[
            "+33 (0)6 12 34 56 78 99 12",
            "+99 (0)6 12 34 56 78",
            "ref +33 (0)6 12 34 56 78",
            "+33 (0)8 12 34 56 78",
        ],
        ..BASE
    },
];

#[cfg(test)]
mod tests;
