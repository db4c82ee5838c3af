//! Identifiers of countries outside Europe, bank and routing numbers, health and
//! provider numbers, cryptocurrency addresses, and passports and driving licences
//! labelled in languages other than English.
//!
//! Numbers that are only digits (a SIN, a TFN, an ABA routing number, an account
//! number) run only after the words that name them (`Gate::Near`), and their patterns
//! begin with those words, so a window cut at its end never makes a match. Values whose
//! shape alone is distinctive (a CURP, a GSTIN, an NRIC, a Bitcoin address) run inside
//! the word-like runs that contain a digit ([`id_token_windows`]), shared by all of them.
//! Every check digit is computed from the matched bytes alone, without allocation.

pub(crate) mod checks;

use crate::rule::{BuiltinRule, Context, Gate, Severity, BASE};
use crate::validate::{luhn, Validator};
use checks::*;

const PAN_CONTEXT: Context = Context {
    window: 48,
    words: &["pan", "permanent", "income", "tax", "itr", "kyc"],
    boost: 0.2,
    against: &["order", "sku", "ref", "invoice", "ticket", "part", "model", "serial"],
    penalty: 0.3,
};

const ZA_CONTEXT: Context = Context {
    window: 48,
    words: &["id", "identity", "identiteitsnommer", "rsa", "sa"],
    boost: 0.1,
    against: &["order", "invoice", "ean", "barcode", "gtin", "isbn", "sku", "tracking", "ref"],
    penalty: 0.4,
};

const MEXICO_CONTEXT: Context = Context {
    window: 48,
    words: &["curp", "rfc", "sat", "fiscal", "contribuyente", "renapo"],
    boost: 0.1,
    against: &["sku", "serial", "modelo", "model"],
    penalty: 0.3,
};

const MBI_CONTEXT: Context = Context {
    window: 48,
    words: &["mbi", "medicare", "beneficiary", "cms"],
    boost: 0.15,
    against: &["sku", "serial", "model", "part"],
    penalty: 0.3,
};

/// Cloud and application accounts have numbers too (an AWS account is twelve digits).
const ACCOUNT_CONTEXT: Context = Context {
    window: 48,
    words: &["bank", "iban", "bic", "swift", "routing", "sort", "blz", "banco", "banque", "bancaria", "wire"],
    boost: 0.1,
    against: &[
        "aws", "iam", "arn", "gcp", "azure", "cloud", "user", "login", "customer", "billing", "order", "ticket", "game",
    ],
    penalty: 0.4,
};

/// Forty hex digits after `0x` named as something other than an address.
const HEX_CONTEXT: Context = Context {
    window: 48,
    words: &[],
    boost: 0.0,
    against: &[
        "hash",
        "txhash",
        "txid",
        "tx",
        "transaction",
        "commit",
        "sha",
        "sha1",
        "digest",
        "block",
        "topic",
        "storage",
        "slot",
        "salt",
        "nonce",
        "signature",
        "selector",
        "ripemd160",
        "hash160",
        "checksum",
        "fingerprint",
    ],
    penalty: 0.4,
};

const LICENCE_CONTEXT: Context = Context {
    window: 48,
    words: &[],
    boost: 0.0,
    against: &[
        "key",
        "keys",
        "software",
        "product",
        "serial",
        "activation",
        "mit",
        "apache",
        "gpl",
        "bsd",
        "seat",
        "seats",
    ],
    penalty: 0.5,
};

/// US EIN: nine digits whose first two are one of the prefixes the IRS assigns (its
/// list of valid EIN prefixes by campus: none is 00, 07–09, 17–19, 28, 29, 49, 69, 70,
/// 78, 79, 89, 96 or 97).
fn us_ein(value: &[u8]) -> bool {
    let Some(d) = digit_values::<9>(value) else { return false };
    let prefix = number(d.get(..2).unwrap_or_default());
    !all_same(&d)
        && matches!(prefix, 1..=6 | 10..=16 | 20..=27 | 30..=48 | 50..=68 | 71..=77 | 80..=88 | 90..=95 | 98 | 99)
}

/// US DEA registration number: a registrant-type letter, a letter (the registrant's
/// last name's, or `9`), seven digits; the last is the sum of the 1st, 3rd and 5th plus
/// twice the sum of the 2nd, 4th and 6th, modulo 10.
fn us_dea(value: &[u8]) -> bool {
    let [kind, second, digits @ ..] = value else { return false };
    let Some(d) = digit_values::<7>(digits) else { return false };
    let sum = |i: [usize; 3]| i.iter().map(|&i| u32::from(d.get(i).copied().unwrap_or(0))).sum::<u32>();
    b"ABCDEFGHJKLMPRSTUX".contains(kind)
        && (second.is_ascii_uppercase() || *second == b'9')
        && (sum([0, 2, 4]) + 2 * sum([1, 3, 5])) % 10 == u32::from(d.get(6).copied().unwrap_or(10))
}

/// Thai national ID: thirteen digits, the first 1–8; the last is (11 − Σ dᵢ × (14 − i)
/// mod 11) mod 10 over the first twelve.
fn th_id(value: &[u8]) -> bool {
    let Some(d) = digit_values::<13>(value) else { return false };
    let sum = weighted(&d, &[13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
    matches!(d.first(), Some(1..=8)) && (11 - sum % 11) % 10 == u32::from(d.get(12).copied().unwrap_or(10))
}

/// A vehicle identification number (ISO 3779): seventeen characters of digits and
/// capitals without `I`, `O` and `Q`, with a letter, the last four digits; the check
/// digit in position 9 (North America's and China's; required there) must hold for a
/// VIN whose first character is a digit 1–5 or `L` (those regions), and is not asked of
/// the others (Europe's VINs need not carry one).
fn vin(value: &[u8]) -> bool {
    let letter_value = |c: u8| -> Option<u32> {
        Some(match c {
            b'0'..=b'9' => u32::from(c - b'0'),
            b'A'..=b'H' => u32::from(c - b'A') + 1,
            b'J'..=b'N' => u32::from(c - b'J') + 1,
            b'P' => 7,
            b'R' => 9,
            b'S'..=b'Z' => u32::from(c - b'S') + 2,
            _ => return None,
        })
    };
    if value.len() != 17 || !value.iter().any(u8::is_ascii_uppercase) {
        return false;
    }
    if !value.get(13..).is_some_and(|tail| tail.iter().all(u8::is_ascii_digit)) {
        return false;
    }
    let weights = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2];
    let sum = value.iter().zip(weights).try_fold(0u32, |sum, (&c, w)| Some(sum + letter_value(c)? * w));
    let Some(sum) = sum else { return false };
    let remainder = sum % 11;
    let check = if remainder == 10 { b'X' } else { b'0' + remainder as u8 };
    let checked_region = matches!(value.first(), Some(b'1'..=b'5' | b'L'));
    !checked_region || value.get(8) == Some(&check)
}

/// An IMEI: fifteen digits (separators allowed), Luhn over all of them.
fn imei(value: &[u8]) -> bool {
    digit_values::<15>(value).is_some_and(|d| !all_same(&d) && luhn(&d))
}

// ---------------------------------------------------------------------------
// The rules
// ---------------------------------------------------------------------------

pub const RULES: &[BuiltinRule] = &[
    // --- Canada ---
    BuiltinRule {
        id: "pii.national_id.ca_sin.v1",
        category: "NATIONAL_ID",
        pattern: r"(?i-u)\b(?:sin|social insurance(?: number| no\.?)?|nas|assurance sociale)\b[^\n\d]{0,24}?\b(\d{3}[ -]?\d{3}[ -]?\d{3})\b",
        group: 1,
        clean_right: true,
        validator: Validator::Code(ca_sin),
        confidence: 0.9,
        gate: Gate::Near { words: &["sin", "social insurance", "nas", "assurance sociale"], before: 0, after: 96 },
        examples: &[
            "My SIN is ⟦987 789 328⟧.",
            "Numéro d'assurance sociale (NAS) : ⟦992-174-219⟧",
            "SIN: ⟦196792907⟧",
            "SIN ⟦046 454 286⟧ is the sample on the form",
            "Please update the social insurance number ⟦200 339 075⟧ on file.",
        ],
        negatives: &["SIN: 987 789 329", "order 987789328 shipped", "sin(x) = 0.5 for x = 123456782"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.address.ca_postcode.v1",
        category: "ADDRESS",
        // A Canadian postal code after its label (Canada Post: `A9A 9A9`, never D, F, I,
        // O, Q or U, never W or Z first); in an address the street grammar takes it.
        pattern: r"(?-u)\b[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z][ -]?\d[ABCEGHJ-NPRSTV-Z]\d\b",
        clean_right: true,
        confidence: 0.85,
        gate: Gate::Near { words: &["postal code", "postcode", "code postal"], before: 0, after: 48 },
        severity: Severity::Medium,
        any_case: &["postal code", "code postal"],
        examples: &["my postal code is ⟦M5V 2T6⟧", "Code postal : ⟦H2X 1Y4⟧", "postal code: ⟦k1a 0a6⟧"],
        negatives: &["postal code: D5V 2T6", "postal code field, part M5V2T6X", "postal code 90210"],
        ..BASE
    },
    // --- Australia ---
    BuiltinRule {
        id: "pii.tax_id.au_tfn.v1",
        category: "TAX_ID",
        pattern: r"(?i-u)\b(?:tfn|tax file (?:number|no\.?))\b[^\n\d]{0,24}?\b(\d{3}[ -]?\d{3}[ -]?\d{2,3})\b",
        group: 1,
        clean_right: true,
        validator: Validator::Code(au_tfn),
        confidence: 0.9,
        gate: Gate::Near { words: &["tfn", "tax file number", "tax file no"], before: 0, after: 96 },
        examples: &[
            "TFN: ⟦730 024 589⟧",
            "My tax file number is ⟦476803601⟧.",
            "Tax File Number ⟦295-482-659⟧",
            "old eight-digit TFN ⟦89693504⟧",
        ],
        negatives: &["TFN: 730 024 580", "invoice 730024589 attached", "tfn pending, ref 2024 05 01"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.company_id.au_abn.v1",
        category: "COMPANY_ID",
        pattern: r"(?i-u)\b(?:abn|australian business number)\b[^\n\d]{0,24}?\b(\d{2} ?\d{3} ?\d{3} ?\d{3})\b",
        group: 1,
        clean_right: true,
        validator: Validator::Code(au_abn),
        confidence: 0.9,
        gate: Gate::Near { words: &["abn", "australian business number"], before: 0, after: 96 },
        severity: Severity::Medium,
        examples: &[
            "ABN: ⟦77 028 619 625⟧",
            "Our Australian Business Number is ⟦31726761751⟧.",
            "Invoice from Example Pty Ltd (ABN ⟦30 692 881 682⟧)",
        ],
        negatives: &["ABN: 77 028 619 626", "order 77028619625 (no ABN yet)"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.company_id.au_acn.v1",
        category: "COMPANY_ID",
        pattern: r"(?i-u)\b(?:acn|arbn|australian company number)\b[^\n\d]{0,24}?\b(\d{3} ?\d{3} ?\d{3})\b",
        group: 1,
        clean_right: true,
        validator: Validator::Code(au_acn),
        confidence: 0.9,
        gate: Gate::Near { words: &["acn", "arbn", "australian company number"], before: 0, after: 96 },
        severity: Severity::Medium,
        examples: &[
            "ACN ⟦937 557 161⟧",
            "Australian Company Number: ⟦673327743⟧",
            "Registered as Example Pty Ltd, ACN: ⟦390 193 021⟧.",
        ],
        negatives: &["ACN 937 557 162", "ACN 000 000 000", "acn shipment 2024 01"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.health_id.au_medicare.v1",
        category: "HEALTH_ID",
        pattern: r"(?i-u)\bmedicare\b[^\n\d]{0,24}?\b([2-6]\d{3} ?\d{5} ?\d(?:[ /-]?\d)?)\b",
        group: 1,
        clean_right: true,
        validator: Validator::Code(au_medicare),
        confidence: 0.9,
        gate: Gate::Near { words: &["medicare"], before: 0, after: 96 },
        examples: &[
            "Medicare card number: ⟦2537 73821 5⟧",
            "medicare no ⟦2101108014⟧",
            "Her Medicare number is ⟦4975 27895 4/1⟧ (IRN 1).",
            "Medicare: ⟦2123 45670 1⟧",
        ],
        negatives: &["Medicare number 2537 73822 5", "medicare claim 1234567890"],
        ..BASE
    },
    // --- India ---
    BuiltinRule {
        id: "pii.national_id.in_aadhaar.v1",
        category: "NATIONAL_ID",
        pattern: r"(?i-u)\b(?:aadhaar|aadhar|adhaar|uidai|uid)\b[^\n\d]{0,24}?\b([2-9]\d{3}[ -]?\d{4}[ -]?\d{4})\b",
        group: 1,
        clean_right: true,
        validator: Validator::Code(in_aadhaar),
        confidence: 0.9,
        gate: Gate::Near { words: &["aadhaar", "aadhar", "adhaar", "uidai", "uid"], before: 0, after: 96 },
        examples: &[
            "Aadhaar: ⟦3832 9844 0561⟧",
            "मेरा आधार नंबर (Aadhaar no.) ⟦940764165656⟧ है",
            "UID ⟦3856-3507-4823⟧ linked to the account",
            "आधार संख्या: ⟦9946 0359 8683⟧",
        ],
        negatives: &["Aadhaar 3832 9844 0562", "aadhaar 1234 5678 9012", "order 3832 9844 0561"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.tax_id.in_pan.v1",
        category: "TAX_ID",
        // Five letters (the fourth the holder type: person, company, HUF, firm, AOP,
        // trust, BOI, local authority, juridical person, government), four digits, a letter.
        pattern: r"(?-u)\b[A-Z]{3}[ABCFGHJLPT][A-Z]\d{4}[A-Z]\b",
        clean_left: true,
        clean_right: true,
        confidence: 0.75,
        gate: Gate::Windows(ID_TOKEN_WINDOWS),
        context: Some(&PAN_CONTEXT),
        any_case: &["pan", "permanent account number"],
        examples: &[
            "my pan is ⟦nqzpl8177t⟧",
            "PAN: ⟦NQZPL8177T⟧",
            "My PAN card number is ⟦IYJPN9715E⟧ for the ITR.",
            "पैन कार्ड ⟦SUDPM3202R⟧",
            "Company PAN ⟦JLXCA7208Y⟧",
        ],
        negatives: &[
            "session nqzpl8177t expired",
            "pan: abcde1234f",
            "part ABCPD1234E in stock",
            "NQZXL8177T has an unknown holder type",
            "SKU NQZPL8177T",
        ],
        ..BASE
    },
    BuiltinRule {
        id: "pii.vat.in_gstin.v1",
        category: "VAT_NUMBER",
        pattern: r"(?-u)\b(?:0[1-9]|[12]\d|3[0-8]|97|99)[A-Z]{3}[ABCFGHJLPT][A-Z]\d{4}[A-Z][1-9A-Z]Z[0-9A-Z]\b",
        clean_left: true,
        clean_right: true,
        validator: Validator::Code(in_gstin),
        confidence: 0.95,
        gate: Gate::Windows(ID_TOKEN_WINDOWS),
        severity: Severity::Medium,
        any_case: &["gstin", "gst"],
        examples: &[
            "gstin ⟦27aapfu0939f1zv⟧",
            "GSTIN: ⟦27AAPFU0939F1ZV⟧",
            "GST number ⟦30COHCA8378A3Z2⟧ on the invoice",
            "जीएसटीआईएन ⟦34QFHCC3489P8Z3⟧",
            "Please bill ⟦27UUSCS7678L4ZD⟧.",
        ],
        negatives: &["GSTIN: 27AAPFU0939F1ZW", "ref 45AAPFU0939F1ZV"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.national_id.in_epic.v1",
        category: "NATIONAL_ID",
        pattern: r"(?i-u)\b(?:epic|voter(?:'s)?(?: id| card| identity card)?|electoral photo identity card|elector'?s photo identity card)\b[^\n\d]{0,24}?\b((?-i:[A-Z]{3}\d{7}))\b",
        group: 1,
        clean_right: true,
        validator: Validator::Code(in_epic),
        confidence: 0.85,
        gate: Gate::Near {
            words: &["epic", "voter", "voter's", "electoral", "elector", "elector's"],
            before: 0,
            after: 96,
        },
        examples: &[
            "Voter ID: ⟦ABC1234567⟧",
            "EPIC number ⟦XYZ7654321⟧",
            "मतदाता पहचान पत्र (voter card): ⟦KLM2468013⟧",
        ],
        negatives: &["Voter ID: ABC0000000", "epic win ABC1234567890", "voter turnout 12345678"],
        ..BASE
    },
    // --- Brazil ---
    BuiltinRule {
        id: "pii.tax_id.br_cpf.v1",
        category: "TAX_ID",
        pattern: r"(?-u)\b\d{3}\.\d{3}\.\d{3}-\d{2}\b",
        clean_left: true,
        clean_right: true,
        validator: Validator::Code(br_cpf),
        confidence: 0.95,
        gate: Gate::NumericRun { min_digits: 11, min_dashes: 1, min_dots: 2, plus: false },
        examples: &[
            "CPF: ⟦392.869.563-04⟧",
            "O cliente informou o documento ⟦240.257.587-50⟧ no cadastro.",
            "Taxpayer number ⟦123.456.789-09⟧",
        ],
        negatives: &["CPF 392.869.563-05", "CPF 111.111.111-11", "version 123.456.789-10"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.tax_id.br_cpf.context.v1",
        category: "TAX_ID",
        pattern: r"(?i-u)\bcpf\b[^\n\d]{0,24}?\b(\d{3}\.?\d{3}\.?\d{3}[-.]?\d{2})\b",
        group: 1,
        clean_right: true,
        validator: Validator::Code(br_cpf),
        confidence: 0.9,
        gate: Gate::Near { words: &["cpf"], before: 0, after: 96 },
        examples: &["CPF ⟦16908967794⟧", "Meu CPF é ⟦845346388-33⟧, obrigado.", "cpf: ⟦392.869.563-04⟧"],
        negatives: &["CPF 16908967795", "cpf 00000000000"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.company_id.br_cnpj.v1",
        category: "COMPANY_ID",
        pattern: r"(?-u)\b\d{2}\.\d{3}\.\d{3}/\d{4}-\d{2}\b",
        clean_left: true,
        clean_right: true,
        validator: Validator::Code(br_cnpj),
        confidence: 0.95,
        gate: Gate::Windows(SLASH_WINDOWS),
        severity: Severity::Medium,
        examples: &[
            "CNPJ: ⟦65.404.782/0001-70⟧",
            "A empresa ⟦11.402.145/0001-35⟧ emitiu a nota.",
            "Company registration ⟦11.222.333/0001-81⟧",
        ],
        negatives: &["CNPJ 65.404.782/0001-71", "CNPJ 00.000.000/0000-00", "ratio 12.345.678/0001-00"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.company_id.br_cnpj.context.v1",
        category: "COMPANY_ID",
        pattern: r"(?i-u)\bcnpj\b[^\n\d]{0,24}?\b(\d{2}\.?\d{3}\.?\d{3}/?\d{4}-?\d{2})\b",
        group: 1,
        clean_right: true,
        validator: Validator::Code(br_cnpj),
        confidence: 0.9,
        gate: Gate::Near { words: &["cnpj"], before: 0, after: 96 },
        severity: Severity::Medium,
        examples: &[
            "CNPJ ⟦89281637000107⟧",
            "cnpj: ⟦54274099000149⟧ (matriz)",
            "O CNPJ da loja é ⟦65.404.782/0001-70⟧.",
        ],
        negatives: &["CNPJ 89281637000108", "cnpj 11111111111111"],
        ..BASE
    },
    // --- Mexico ---
    BuiltinRule {
        id: "pii.national_id.mx_curp.v1",
        category: "NATIONAL_ID",
        pattern: r"(?-u)\b[A-Z][AEIOUX][A-Z]{2}\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])[HMX](?:AS|BC|BS|CC|CL|CM|CS|CH|DF|DG|GT|GR|HG|JC|MC|MN|MS|NT|NL|OC|PL|QT|QR|SP|SL|SR|TC|TS|TL|VZ|YN|ZS|NE)[B-DF-HJ-NP-TV-Z]{3}[A-Z0-9]\d\b",
        clean_left: true,
        clean_right: true,
        validator: Validator::Code(mx_curp),
        confidence: 0.95,
        gate: Gate::Windows(ID_TOKEN_WINDOWS),
        context: Some(&MEXICO_CONTEXT),
        any_case: &["curp"],
        examples: &[
            "mi curp es ⟦hujy850220mjcptc02⟧",
            "CURP: ⟦HUJY850220MJCPTC02⟧",
            "Mi CURP es ⟦NOHG980921HNLGYW09⟧.",
            "curp=⟦LITQ650802MSPPWX07⟧",
            "Example from the instructivo: ⟦SABC560626MDFLRN01⟧",
        ],
        negatives: &[
            "id hujy850220mjcptc02 in the cache",
            "CURP: HUJY850220MJCPTC03",
            "CURP HUJY851320MJCPTC02",
            "serial HUJY850220MJCPTC0",
        ],
        ..BASE
    },
    BuiltinRule {
        id: "pii.tax_id.mx_rfc.v1",
        category: "TAX_ID",
        pattern: r"(?-u)\b[A-Z]{4}\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])[A-Z0-9]{2}[0-9A]\b",
        clean_left: true,
        clean_right: true,
        validator: Validator::Code(mx_rfc),
        confidence: 0.85,
        gate: Gate::Windows(ID_TOKEN_WINDOWS),
        context: Some(&MEXICO_CONTEXT),
        any_case: &["rfc"],
        examples: &[
            "rfc: ⟦neyi620213a99⟧",
            "RFC: ⟦NEYI620213A99⟧",
            "Mi RFC es ⟦PYXM581012W63⟧ para la factura.",
            "Tax id (RFC) ⟦JWLY950407N75⟧",
        ],
        negatives: &["RFC: NEYI620213A98", "RFC genérico XAXX010101000", "RFC NEYI621313A99"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.company_id.mx_rfc_moral.v1",
        category: "COMPANY_ID",
        pattern: r"(?-u)\b[A-Z]{3}\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])[A-Z0-9]{2}[0-9A]\b",
        clean_left: true,
        clean_right: true,
        validator: Validator::Code(mx_rfc),
        confidence: 0.85,
        gate: Gate::Windows(ID_TOKEN_WINDOWS),
        severity: Severity::Medium,
        context: Some(&MEXICO_CONTEXT),
        any_case: &["rfc"],
        examples: &[
            "rfc de la empresa ⟦hkj730406f79⟧",
            "RFC de la empresa: ⟦HKJ730406F79⟧",
            "Facturar a ⟦WCJ720523F78⟧, S.A. de C.V.",
            "Company tax id ⟦GDX810513P70⟧",
        ],
        negatives: &["RFC HKJ730406F78", "model ABC991332XY0"],
        ..BASE
    },
    // --- Singapore ---
    BuiltinRule {
        id: "pii.national_id.sg_nric.v1",
        category: "NATIONAL_ID",
        pattern: r"(?-u)\b[STFGM]\d{7}[A-Z]\b",
        clean_left: true,
        clean_right: true,
        validator: Validator::Code(sg_nric),
        confidence: 0.9,
        gate: Gate::Windows(ID_TOKEN_WINDOWS),
        any_case: &["nric"],
        examples: &[
            "nric ⟦s6950716f⟧",
            "NRIC: ⟦S6950716F⟧",
            "My IC number is ⟦T0701253A⟧.",
            "FIN ⟦F9269734R⟧ / ⟦G8455530X⟧",
            "New FIN ⟦M8157190W⟧",
            "Sample ⟦S1234567D⟧",
        ],
        negatives: &["NRIC S6950716G", "ticket T0701253B", "M1234567N"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.company_id.sg_uen.v1",
        category: "COMPANY_ID",
        pattern: r"(?i-u)\b(?:uen|unique entity number|acra)\b[^\n\d]{0,24}?\b((?-i:\d{8}[A-Z]|\d{9}[A-Z]|[STR]\d{2}[A-Z]{2}\d{4}[A-Z]))\b",
        group: 1,
        clean_right: true,
        validator: Validator::Code(sg_uen),
        confidence: 0.85,
        gate: Gate::Near { words: &["uen", "unique entity number", "acra"], before: 0, after: 96 },
        severity: Severity::Medium,
        examples: &["UEN: ⟦201912345K⟧", "Our Unique Entity Number is ⟦53123456A⟧.", "ACRA registration ⟦T09LL0001B⟧"],
        negatives: &["UEN 123456789K", "UEN T09ZZ0001B"],
        ..BASE
    },
    // --- South Korea ---
    BuiltinRule {
        id: "pii.national_id.kr_rrn.v1",
        category: "NATIONAL_ID",
        pattern: r"(?-u)\b\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])-[1-8]\d{6}\b",
        clean_left: true,
        clean_right: true,
        validator: Validator::Code(kr_rrn),
        confidence: 0.9,
        gate: Gate::NumericRun { min_digits: 13, min_dashes: 1, min_dots: 0, plus: false },
        examples: &[
            "주민등록번호: ⟦850315-1264326⟧",
            "RRN ⟦920704-2641500⟧",
            "Resident registration number of the applicant: ⟦010228-4821716⟧.",
            "신생아 주민등록번호 ⟦210315-3123456⟧",
        ],
        negatives: &["RRN 850315-1264327", "ref 851315-1264326", "850315-9264326"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.national_id.kr_rrn.context.v1",
        category: "NATIONAL_ID",
        pattern: r"(?i-u)\b(?:rrn|resident registration(?: number| no\.?)?|jumin(?: ?deungnok)?(?: ?beonho)?)\b[^\n\d]{0,24}?\b(\d{13})\b",
        group: 1,
        clean_right: true,
        validator: Validator::Code(kr_rrn),
        confidence: 0.9,
        gate: Gate::Near { words: &["rrn", "resident registration", "jumin"], before: 0, after: 96 },
        examples: &[
            "RRN ⟦7709111827245⟧",
            "Resident registration number: ⟦8503151264326⟧",
            "jumin beonho ⟦9207042641500⟧",
        ],
        negatives: &["RRN 7709111827246", "rrn 8513151264326"],
        ..BASE
    },
    // --- Korea, Japan, China, India: the names in their own scripts ---
    BuiltinRule {
        id: "pii.national_id.cjk_labelled.v1",
        category: "NATIONAL_ID",
        pattern: concat!(
            r"(?-u)(?:주민등록번호|주민번호|マイナンバー|個人番号|身份证|身分證|公民身份号码|आधार)[^\n\d]{0,40}?",
            r"\b(\d{6}-?\d{7}|\d{4}[ -]?\d{4}[ -]?\d{4}|\d{17}[\dXx])\b"
        ),
        group: 1,
        clean_right: true,
        validator: Validator::Code(cjk_national_id),
        confidence: 0.9,
        gate: Gate::Windows(NATIONAL_ID_WINDOWS),
        examples: &[
            "주민등록번호 ⟦7709111827245⟧",
            "マイナンバー：⟦6888 4540 0638⟧",
            "個人番号は⟦168821746823⟧です",
            "身份证号码：⟦11010519850315567X⟧",
            "आधार नंबर ⟦3832-9844-0561⟧",
        ],
        negatives: &["マイナンバー：6888 4540 0639", "身份证号码：440301199207040509", "주민번호 없음 2024"],
        ..BASE
    },
    // --- Japan ---
    BuiltinRule {
        id: "pii.national_id.jp_my_number.v1",
        category: "NATIONAL_ID",
        pattern: r"(?i-u)\b(?:my ?number|individual number|kojin ?bango)\b[^\n\d]{0,24}?\b(\d{4}[ -]?\d{4}[ -]?\d{4})\b",
        group: 1,
        clean_right: true,
        validator: Validator::Code(jp_my_number),
        confidence: 0.9,
        gate: Gate::Near { words: &["my number", "mynumber", "individual number", "kojin"], before: 0, after: 96 },
        examples: &[
            "My Number: ⟦6888 4540 0638⟧",
            "Individual Number (kojin bango) ⟦492712778008⟧",
            "Her my number card shows ⟦1234-5678-9018⟧.",
        ],
        negatives: &["My Number: 6888 4540 0639", "my number is 492712778009"],
        ..BASE
    },
    // --- China ---
    BuiltinRule {
        id: "pii.national_id.cn_resident_id.v1",
        category: "NATIONAL_ID",
        pattern: r"(?-u)\b[1-8]\d{5}(?:18|19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\d{3}[\dXx]\b",
        clean_left: true,
        clean_right: true,
        validator: Validator::Code(cn_resident_id),
        confidence: 0.96,
        gate: Gate::Windows(ID_TOKEN_WINDOWS),
        examples: &[
            "身份证号：⟦440301199207040508⟧",
            "Resident ID ⟦310104200102280649⟧ verified",
            "ID: ⟦33010619880101870X⟧",
            "GB 11643 example ⟦11010519491231002X⟧",
        ],
        negatives: &["ID 440301199207040509", "order 440301199213040508", "tracking 910104200102280649"],
        ..BASE
    },
    BuiltinRule {
        // The same in its three groups, as forms and people write it (the ungrouped
        // number is the rule above's): between the groups a space or a dash.
        id: "pii.national_id.cn_resident_id.grouped.v1",
        category: "NATIONAL_ID",
        pattern: r"(?-u)\b[1-8]\d{5}[ -](?:18|19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])[ -]\d{3}[\dX]\b",
        clean_left: true,
        clean_right: true,
        validator: Validator::Code(cn_resident_id_grouped),
        confidence: 0.94,
        gate: Gate::Windows(super::europe::checks::ID_RUNS),
        examples: &[
            "ID card: ⟦320102 19900807 421X⟧",
            "身份证号：⟦320102-19900807-421X⟧",
            "Resident ID ⟦310104 20010228 0649⟧ verified",
        ],
        negatives: &["ID 440301 19920704 0509", "order 440301 19921304 0508", "320102 19900807 4210"],
        ..BASE
    },
    // --- South Africa ---
    BuiltinRule {
        id: "pii.national_id.za_id.v1",
        category: "NATIONAL_ID",
        // Written whole or in its three parts (`800101 5009 087`: date of birth, sequence,
        // citizenship and check), as the green ID book prints it.
        pattern: r"(?-u)\b\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])[ -]?\d{4}[ -]?[012][89]\d\b",
        clean_left: true,
        clean_right: true,
        validator: Validator::Code(za_id),
        confidence: 0.85,
        gate: Gate::NumericRun { min_digits: 13, min_dashes: 0, min_dots: 0, plus: false },
        context: Some(&ZA_CONTEXT),
        examples: &[
            "ID number: ⟦8503157672184⟧",
            "My SA ID is ⟦9207049724182⟧.",
            "Identiteitsnommer ⟦7709119883089⟧",
            "⟦8001015009087⟧",
            "SA ID: ⟦800101 5009 087⟧",
            "ID no. ⟦850315-7672-184⟧",
        ],
        negatives: &["ID 8503157672185", "ID 800101 5009 088", "EAN barcode 8503157672184", "ref 8513157672184"],
        ..BASE
    },
    // --- Nigeria ---
    BuiltinRule {
        id: "pii.national_id.ng_nin.v1",
        category: "NATIONAL_ID",
        pattern: r"(?i-u)\b(?:nin|national identification number|nimc)\b[^\n\d]{0,24}?\b(\d{11})\b",
        group: 1,
        clean_right: true,
        validator: Validator::Code(ng_nin),
        confidence: 0.85,
        gate: Gate::Near { words: &["nin", "national identification number", "nimc"], before: 0, after: 96 },
        examples: &[
            "NIN: ⟦48213957026⟧",
            "My National Identification Number is ⟦70519384216⟧.",
            "NIMC slip ⟦31572048693⟧",
        ],
        negatives: &["NIN: 11111111111", "nin 1234567", "order 48213957026"],
        ..BASE
    },
    // --- Philippines ---
    BuiltinRule {
        id: "pii.tax_id.ph_tin.v1",
        category: "TAX_ID",
        pattern: r"(?i-u)\b(?:tin|tax(?:payer)? identification (?:number|no\.?))\b[^\n\d]{0,24}?\b(\d{3}-?\d{3}-?\d{3}(?:-?\d{3}(?:\d{2})?)?)\b",
        group: 1,
        clean_right: true,
        validator: Validator::Code(ph_tin),
        confidence: 0.85,
        gate: Gate::Near { words: &["tin", "taxpayer identification", "tax identification"], before: 0, after: 96 },
        examples: &[
            "TIN: ⟦123-456-789-000⟧",
            "BIR Taxpayer Identification Number ⟦987654321⟧",
            "TIN no. ⟦246-813-579-00000⟧ for the branch",
        ],
        negatives: &["TIN: 000-000-000-000", "tin can 12345", "tin 1234-5678"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.national_id.ph_philsys.v1",
        category: "NATIONAL_ID",
        pattern: r"(?i-u)\b(?:philsys|psn|philid|pcn|umid|crn)\b[^\n\d]{0,24}?\b(\d{4}-?\d{4}-?\d{4}-?\d{4}|\d{4}-?\d{7}-?\d)\b",
        group: 1,
        clean_right: true,
        validator: Validator::Code(ph_philsys),
        confidence: 0.85,
        gate: Gate::Near { words: &["philsys", "psn", "philid", "pcn", "umid", "crn"], before: 0, after: 96 },
        examples: &[
            "PhilSys Card Number (PCN): ⟦4821-3957-0261-7053⟧",
            "PSN ⟦7051938421653094⟧",
            "UMID CRN ⟦0028-1215160-9⟧",
        ],
        negatives: &["PSN 0000-0000-0000-0000", "crn 12345"],
        ..BASE
    },
    // --- United States: employer identification and DEA numbers; Thailand ---
    BuiltinRule {
        id: "pii.tax_id.us_ein.v1",
        category: "TAX_ID",
        // `EIN` and `FEIN` in capitals, found as case-sensitive prefixes: German's `ein`
        // as a keyword opened a window at every article (+390 µs in 128 KiB of German
        // prose in V8).
        pattern: r"(?-u)\bF?EIN\b[^\n\d]{0,24}?\b(\d{2}-?\d{7})\b",
        group: 1,
        clean_right: true,
        validator: Validator::Code(us_ein),
        confidence: 0.85,
        gate: Gate::Prefix(&[b"EIN", b"FEIN"]),
        examples: &["EIN: ⟦12-3456789⟧", "FEIN ⟦27-0418826⟧ on the W-9"],
        negatives: &["EIN: 07-3456789", "ein 12-3456789 ist keine Nummer", "EIN 00-0000000", "EIN: 12-345678"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.tax_id.us_ein.words.v1",
        category: "TAX_ID",
        pattern: r"(?i-u)\b(?:employer identification (?:number|no\.?)|federal (?:tax|employer) id(?:entification)?(?: number| no\.?)?)\b[^\n\d]{0,24}?\b(\d{2}-?\d{7})\b",
        group: 1,
        clean_right: true,
        validator: Validator::Code(us_ein),
        confidence: 0.85,
        gate: Gate::Near {
            words: &[
                "employer identification",
                "federal tax id",
                "federal tax identification",
                "federal employer id",
                "federal employer identification",
            ],
            before: 0,
            after: 96,
        },
        examples: &["Our federal tax ID is ⟦94-7021835⟧.", "Employer Identification Number ⟦463918275⟧"],
        negatives: &["employer identification number: pending", "federal tax ID 07-3456789"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.health_id.us_dea.v1",
        category: "HEALTH_ID",
        pattern: r"(?-u)\bDEA\b[^\n\d]{0,24}?\b([A-Z][A-Z9]\d{7})\b",
        group: 1,
        clean_right: true,
        validator: Validator::Code(us_dea),
        confidence: 0.85,
        gate: Gate::Near { words: &["dea"], before: 0, after: 96 },
        examples: &["DEA# ⟦BJ6139453⟧", "Prescriber DEA number: ⟦AS1234563⟧", "DEA reg. ⟦FM4930219⟧ expires 2027"],
        negatives: &["DEA# BJ6139454", "DEA ZZ1234563", "the dea form AB12"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.national_id.th_id.v1",
        category: "NATIONAL_ID",
        pattern: r"(?i-u)\b(?:thai (?:national )?id(?:entification)?(?: card)?(?: number| no\.?)?|thailand id)\b[^\n\d]{0,24}?\b(\d[ -]?\d{4}[ -]?\d{5}[ -]?\d{2}[ -]?\d)\b",
        group: 1,
        clean_right: true,
        validator: Validator::Code(th_id),
        confidence: 0.9,
        gate: Gate::Near {
            words: &["thai id", "thai national id", "thai identification", "thailand id"],
            before: 0,
            after: 120,
        },
        examples: &["Thai ID: ⟦1-1017-00230-70-8⟧", "Thai national ID number ⟦3 1099 00456 12 6⟧"],
        negatives: &["Thai ID: 1-1017-00230-70-9", "thai id 9101700230708"],
        ..BASE
    },
    BuiltinRule {
        // The same number after its Thai label (a script the start index does not
        // split into words): windows at the labels, found in texts with a wide character.
        id: "pii.national_id.th_id.thai.v1",
        category: "NATIONAL_ID",
        pattern: r"(?-u)(?:เลขประจำตัวประชาชน|เลขบัตรประชาชน|บัตรประชาชน)[^\n\d]{0,24}?(\d[ -]?\d{4}[ -]?\d{5}[ -]?\d{2}[ -]?\d)\b",
        group: 1,
        clean_right: true,
        validator: Validator::Code(th_id),
        confidence: 0.9,
        gate: Gate::Windows(THAI_ID_WINDOWS),
        examples: &["เลขประจำตัวประชาชน ⟦3500100123457⟧", "บัตรประชาชนเลขที่ ⟦1-1017-00230-70-8⟧"],
        negatives: &["เลขประจำตัวประชาชน 3500100123458"],
        ..BASE
    },
    // --- United States: banking and health ---
    BuiltinRule {
        id: "pii.routing.us_aba.v1",
        category: "ROUTING_NUMBER",
        pattern: r"(?i-u)\b(?:routing|aba|rtn|transit)\b[^\n\d]{0,24}?\b(\d{9})\b",
        group: 1,
        clean_right: true,
        validator: Validator::Code(us_aba),
        confidence: 0.9,
        gate: Gate::Near { words: &["routing", "aba", "rtn", "transit"], before: 0, after: 96 },
        examples: &[
            "Routing number: ⟦070576030⟧",
            "ABA ⟦672929166⟧, account 123456789",
            "Please wire to RTN ⟦321570798⟧.",
            "ABA/transit no. ⟦011000015⟧",
        ],
        negatives: &["routing number 070576031", "transit time 123456789 ms", "ABA 990000005"],
        ..BASE
    },
    BuiltinRule {
        // Poland's account number (NRB) is its IBAN without `PL`, written so on every
        // invoice (`61 1090 1014 0000 0712 1981 2874`): 26 digits with the IBAN's check,
        // one in 97 by chance, so no label is needed.
        id: "pii.bank_account.pl_nrb.v1",
        category: "BANK_ACCOUNT",
        pattern: r"(?-u)\b\d{2}(?: ?\d{4}){6}\b",
        clean_left: true,
        clean_right: true,
        validator: Validator::Code(pl_nrb),
        confidence: 0.85,
        gate: Gate::NumericRun { min_digits: 26, min_dashes: 0, min_dots: 0, plus: false },
        examples: &["Nr rachunku: ⟦61 1090 1014 0000 0712 1981 2874⟧", "numer konta: ⟦61109010140000071219812874⟧"],
        negatives: &["61 1090 1014 0000 0712 1981 2875", "order 12345678901234567890123456"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.bank_account.labelled.v1",
        category: "BANK_ACCOUNT",
        pattern: concat!(
            r"(?i-u)\b(?:account(?: number| no\.?| #|#)|acct(?: no\.?| #|#)?|bank account(?: number| no\.?)?",
            r"|kontonummer|konto-?nr\.?|num(?-i:é|É|e)ro de compte|n(?-i:ú|u)mero de cuenta|numero di conto",
            r"|n(?-i:ú|u)mero da conta|conta(?: corrente| poupan(?-i:ç|c)a)?|rekening(?:nummer)?|konto|hesap(?: no\.?| numaras)?)",
            r"[^\n\d]{0,16}?\b(\d{4}(?: \d{4}){1,3}(?: \d{1,4})?|\d{4,17}(?:-\d{1,10}){0,2})\b"
        ),
        group: 1,
        clean_right: true,
        validator: Validator::Code(bank_account),
        confidence: 0.8,
        context: Some(&ACCOUNT_CONTEXT),
        gate: Gate::Near {
            words: &[
                "account",
                "acct",
                "bank account",
                "kontonummer",
                "konto-nr",
                "kontonr",
                "numéro de compte",
                "numero de compte",
                "número de cuenta",
                "numero de cuenta",
                "numero di conto",
                "número da conta",
                "numero da conta",
                "conta",
                "rekeningnummer",
                "rekening",
                "konto",
                "hesap",
            ],
            before: 0,
            after: 112,
        },
        examples: &[
            "Account number: ⟦000123456789⟧",
            "Kontonummer ⟦0532013000⟧, BLZ 37040044",
            "Numéro de compte : ⟦12345678901⟧",
            "Número de cuenta ⟦0049 1500 0512 3456⟧",
            "Banco 341, agência 1234, conta corrente ⟦12345-6⟧",
            "acct# ⟦9876543210⟧",
            "Hesap numarası: ⟦12345678⟧ (Ziraat)",
            "rekening ⟦482019375⟧ t.n.v. J. de Vries",
            "Konto ⟦1502837465⟧ bei der Sparkasse",
        ],
        negatives: &[
            "account number of users: 12",
            "account created 2024-05-01",
            "acct 000000000",
            "AWS account number 123456789012",
            "account: admin, user id 12345678901",
        ],
        ..BASE
    },
    BuiltinRule {
        id: "pii.health_id.us_npi.v1",
        category: "HEALTH_ID",
        pattern: r"(?i-u)\b(?:npi|national provider identifier)\b[^\n\d]{0,24}?\b([12]\d{9})\b",
        group: 1,
        clean_right: true,
        validator: Validator::Code(us_npi),
        confidence: 0.9,
        gate: Gate::Near { words: &["npi", "national provider identifier"], before: 0, after: 96 },
        examples: &[
            "NPI: ⟦1036939720⟧",
            "Dr. Doe's National Provider Identifier is ⟦1911042905⟧.",
            "npi ⟦2484422813⟧ (organization)",
            "CMS example NPI ⟦1234567893⟧",
        ],
        negatives: &["NPI: 1036939721", "npi 3036939720"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.health_id.us_mbi.v1",
        category: "HEALTH_ID",
        // CMS MBI: positions 1 4 7 10 11 digits (1 never 0), 2 5 8 9 letters, 3 and 6
        // either; letters exclude S L O I B Z.
        pattern: r"(?-u)\b[1-9][AC-HJKMNP-RT-Y][AC-HJKMNP-RT-Y\d]\d-?[AC-HJKMNP-RT-Y][AC-HJKMNP-RT-Y\d]\d-?[AC-HJKMNP-RT-Y]{2}\d{2}\b",
        clean_left: true,
        clean_right: true,
        validator: Validator::Code(us_mbi),
        confidence: 0.8,
        gate: Gate::Windows(ID_TOKEN_WINDOWS),
        context: Some(&MBI_CONTEXT),
        any_case: &["mbi", "medicare beneficiary identifier"],
        examples: &[
            "mbi: ⟦1eg4-te5-mk73⟧",
            "Medicare Beneficiary Identifier: ⟦1EG4-TE5-MK73⟧",
            "MBI ⟦6PF0DQ7HE80⟧",
            "The patient's new Medicare number is ⟦5PD8-DA8-YN27⟧.",
        ],
        negatives: &["MBI 1EG4-TE5MK73", "part 1SG4TE5MK73", "MBI 0EG4TE5MK73"],
        ..BASE
    },
    // --- Cryptocurrency addresses ---
    BuiltinRule {
        id: "crypto.base58_address.v1",
        category: "CRYPTO_WALLET",
        pattern: r"(?-u)\b[13LMD][1-9A-HJ-NP-Za-km-z]{25,34}\b",
        clean_left: true,
        clean_right: true,
        validator: Validator::Code(base58check_address),
        confidence: 0.95,
        gate: Gate::Windows(ID_TOKEN_WINDOWS),
        severity: Severity::Medium,
        examples: &[
            "Send 0.1 BTC to ⟦15zLWBoZMZpozq4LuqVES7sErhkZ8pjErL⟧ please",
            "multisig: ⟦3Dywk9WNuEJ3apSoUXkcBL5yVVjV9qyHAB⟧",
            "LTC address ⟦Lf7hNzXnQvhNBV9xhY9vukm8e7vR5sSuAa⟧ and ⟦M8sad8SjgmnrQQLDxqzYBg9kqVsVxRFVei⟧",
            "Dogecoin: ⟦DStSv9qrt4U6deJJ12J65GbLn5EPiAqLPV⟧",
        ],
        negatives: &[
            "wallet 15zLWBoZMZpozq4LuqVES7sErhkZ8pjErM",
            "git 3f9a1c0de1b2c3d4e5f60718293a4b5c6d7e8f90",
            "id 1AbCdEfGhJkLmNpQrStUvWxYz123456",
        ],
        ..BASE
    },
    BuiltinRule {
        id: "crypto.segwit_address.v1",
        category: "CRYPTO_WALLET",
        pattern: r"(?i-u)\b(?:bc|ltc)1[ac-hj-np-z02-9]{8,87}\b",
        clean_left: true,
        clean_right: true,
        validator: Validator::Code(segwit_address),
        confidence: 0.95,
        gate: Gate::Windows(ID_TOKEN_WINDOWS),
        severity: Severity::Medium,
        examples: &[
            "Pay to ⟦bc1qft2pe6shsmrzw0qa5m68rev045ypqfprld6cmt⟧ today",
            "Taproot: ⟦bc1pfrcdgq60jt2t9nlt0nv2kfgztw23sl99z9alcqwjj40xkn6yv03ss5g6qp⟧",
            "P2WSH ⟦bc1q6fagkwsv7qzhpf8cx5mwjrx6z498gg07u2c89r6ce320t685vgusuavmml⟧",
            "BIP-173: ⟦BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4⟧",
            "Litecoin ⟦ltc1ql40z3pwct50hn8tkn58r7qs2rn0nrtk9k7986t⟧",
        ],
        negatives: &[
            "bc1qft2pe6shsmrzw0qa5m68rev045ypqfprld6cmu",
            "bc1qFT2pe6shsmrzw0qa5m68rev045ypqfprld6cmt",
            "bc1zw508d6qejxtdg4y5r3zarvaryvqyzf3du",
        ],
        ..BASE
    },
    BuiltinRule {
        id: "crypto.segwit_testnet_address.v1",
        category: "CRYPTO_WALLET",
        pattern: r"(?i-u)\b(?:testnet|tbtc|signet|bitcoin|btc|wallet|address|faucet)\b[^\n]{0,48}?\b((?:tb|TB)1[ac-hj-np-z02-9]{8,87})\b",
        group: 1,
        clean_right: true,
        validator: Validator::Code(segwit_address),
        confidence: 0.9,
        gate: Gate::Near {
            words: &["testnet", "tbtc", "signet", "bitcoin", "btc", "wallet", "address", "faucet"],
            before: 0,
            after: 192,
        },
        severity: Severity::Medium,
        examples: &[
            "testnet address ⟦tb1qqap4ey6pe3vzpwuxt5wlpg9ag3n55mp6f032yw⟧",
            "Send tBTC to ⟦tb1qqap4ey6pe3vzpwuxt5wlpg9ag3n55mp6f032yw⟧ from the faucet",
            "wallet: ⟦tb1qqap4ey6pe3vzpwuxt5wlpg9ag3n55mp6f032yw⟧",
        ],
        negatives: &[
            "tb1qqap4ey6pe3vzpwuxt5wlpg9ag3n55mp6f032yw",
            "testnet tb1qqap4ey6pe3vzpwuxt5wlpg9ag3n55mp6f032yx",
        ],
        ..BASE
    },
    BuiltinRule {
        id: "crypto.eth_checksummed.v1",
        category: "CRYPTO_WALLET",
        pattern: r"(?-u)\b0x[0-9a-fA-F]{40}\b",
        clean_left: true,
        clean_right: true,
        validator: Validator::Code(eth_checksummed),
        confidence: 0.95,
        gate: Gate::Windows(ID_TOKEN_WINDOWS),
        severity: Severity::Medium,
        examples: &[
            "Send the USDC to ⟦0x457C769F39D8644199c0E5bDbcFbC85B37cE91cb⟧",
            "recipient=⟦0xDe1fc1B0ea6b44f130436Dd729fe69BD9e8CEbA6⟧",
            "EIP-55: ⟦0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed⟧",
        ],
        negatives: &[
            "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD",
            "commit 9fceb02d0ae598e95dc970b74767f19372d61af8",
            "hash 0x3b6aa1e68d682728f610fb1c7fd92d5fa2e81478",
        ],
        ..BASE
    },
    BuiltinRule {
        id: "crypto.eth_address.v1",
        category: "CRYPTO_WALLET",
        pattern: r"(?i-u)\b(?:eth|ether|ethereum|wallet|address|erc-?20|metamask|polygon|usdt|usdc)\b[^\n]{0,32}?\b(0x[0-9a-f]{40})\b",
        group: 1,
        clean_right: true,
        validator: Validator::Code(eth_address),
        confidence: 0.9,
        gate: Gate::Near {
            words: &[
                "eth", "ether", "ethereum", "wallet", "address", "erc20", "erc-20", "metamask", "polygon", "usdt",
                "usdc",
            ],
            before: 0,
            after: 160,
        },
        severity: Severity::Medium,
        examples: &[
            "ETH address: ⟦0x3b6aa1e68d682728f610fb1c7fd92d5fa2e81478⟧",
            "My MetaMask wallet is ⟦0x3B6AA1E68D682728F610FB1C7FD92D5FA2E81478⟧.",
            "Ethereum ⟦0xa07d1dec25b1b087efe26c07ff0d21d7db0b3377⟧",
        ],
        negatives: &[
            "tx hash 0x3b6aa1e68d682728f610fb1c7fd92d5fa2e81478",
            "wallet 0x0000000000000000000000000000000000000000",
            "const ADDRESS = 0xdeadbeefdeadbeefdeadbeefdeadbeefdeadbeef;",
            "address 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD",
        ],
        ..BASE
    },
    // --- Passports and driving licences in other languages ---
    BuiltinRule {
        id: "pii.passport.intl.v1",
        category: "PASSPORT",
        pattern: concat!(
            r"(?i-u)(?:\b(?:reisepass(?:nummer|-?nr\.?)?|passnummer|passeport|pasaporte|passaporto|paszport(?:u)?",
            r"|paspoort(?:nummer)?|passaporte|pasaport|passports|passport(?:-?nr\.?|-?no\.?)?)\b[^\n\d]{0,28}?",
            r"|\bpass(?:-?nr\.?|[ -]?nummer|[ -]no\.?)[^\n\d]{0,12}?|\bpass[ \t]*[:#][ \t]*)",
            r"\b((?-i:[A-Z]{0,3}\d[A-Z0-9]{5,8}))\b"
        ),
        group: 1,
        clean_right: true,
        validator: Validator::Code(document_number),
        // Above a password assignment (0.85): "Pass: C01X00T47" is a German passport.
        confidence: 0.88,
        gate: Gate::Near {
            words: &[
                "reisepass",
                "reisepassnummer",
                "passnummer",
                "pass",
                "passeport",
                "pasaporte",
                "passaporto",
                "paszport",
                "paszportu",
                "paspoort",
                "paspoortnummer",
                "passaporte",
                "pasaport",
                "passports",
                "passport",
            ],
            before: 0,
            after: 96,
        },
        examples: &[
            "Reisepass-Nr.: ⟦C01X00T47⟧",
            "Numéro de passeport : ⟦12AB34567⟧",
            "Número de pasaporte: ⟦PAA123456⟧",
            "Pass: ⟦C01X00T47⟧",
            "numer paszportu ⟦EA1234567⟧",
            "Pasaport no: ⟦U12345678⟧",
            "Passports: ⟦X1234567⟧ (expired)",
            "paspoortnummer ⟦NXC3F1234⟧",
            "Il numero di passaporto è ⟦YA1234567⟧.",
        ],
        negatives: &[
            "I will pass 3 arguments to the function",
            "Reisepass gültig bis 2031-05-01",
            "the test will pass: CASE123456",
            "passeport: voir pièce jointe",
        ],
        ..BASE
    },
    BuiltinRule {
        id: "pii.passport.cjk.v1",
        category: "PASSPORT",
        pattern: r"(?-u)(?:여권|パスポート|旅券|护照|護照)[^\n\d]{0,36}?\b([A-Z]{0,3}\d[A-Z0-9]{5,8})\b",
        group: 1,
        clean_right: true,
        validator: Validator::Code(document_number),
        confidence: 0.85,
        gate: Gate::Windows(PASSPORT_CJK_WINDOWS),
        examples: &[
            "여권번호: ⟦M12345678⟧",
            "パスポート番号は⟦TK1234567⟧です",
            "护照号码：⟦E12345678⟧",
            "旅券番号 ⟦TZ7654321⟧",
        ],
        negatives: &["パスポートの写真", "护照 2024年", "여권 사진 첨부"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.drivers_license.intl.v1",
        category: "DRIVERS_LICENSE",
        pattern: concat!(
            r"(?i-u)\b(?:f(?-i:ü|Ü)hrerschein(?:nummer|-?nr\.?)?|fuehrerschein(?:nummer)?|permis de conduire",
            r"|carnet de conducir|licencia de conduc(?:ir|ci(?-i:ó)n|cion)|patente(?: di guida)?|prawo jazdy|prawa jazdy",
            r"|rijbewijs(?:nummer)?|carteira de motorista|carteira nacional de habilita|cnh",
            r"|k(?-i:ö|Ö)rkort(?:snummer)?|korkort|ehliyet|s(?-i:ü)r(?-i:ü)c(?-i:ü) belgesi",
            r"|driv(?:ing|ers?|er's) licen[cs]e|licen[cs]e(?: no\.?| number| nr\.?|#| #|:)|dl(?:#| no\.?| nr\.?))",
            r"[^\n\d]{0,24}?\b((?-i:\d{3,6}/\d{2}/\d{3,5}|\d{6,8}-\d{4}|[A-Z9]{5}\d{6}[A-Z9]{2}\d[A-Z0-9]{2}",
            r"|[A-Z]\d{3}-\d{3}-\d{2}-\d{3}-\d|[A-Z]{2}\d{2}[ -]?\d{11}|[A-Z]{0,3}\d[A-Z0-9]{5,14}))\b"
        ),
        group: 1,
        clean_right: true,
        validator: Validator::Code(document_number),
        confidence: 0.85,
        gate: Gate::Near {
            words: &[
                "führerschein",
                "führerscheinnummer",
                "fuehrerschein",
                "fuehrerscheinnummer",
                "permis de conduire",
                "carnet de conducir",
                "licencia de conducir",
                "licencia de conducción",
                "licencia de conduccion",
                "patente",
                "prawo jazdy",
                "prawa jazdy",
                "rijbewijs",
                "rijbewijsnummer",
                "carteira de motorista",
                "carteira nacional de habilitação",
                "cnh",
                "körkort",
                "körkortsnummer",
                "korkort",
                "ehliyet",
                "sürücü belgesi",
                "licence",
                "license",
                "driving",
                "driver",
                "drivers",
                "driver's",
                "dl",
            ],
            before: 0,
            after: 112,
        },
        context: Some(&LICENCE_CONTEXT),
        examples: &[
            "Führerscheinnummer: ⟦B072RRE2I55⟧",
            "Numéro de permis de conduire ⟦123456789012⟧",
            "Carnet de conducir nº ⟦B1234567⟧",
            "Patente di guida n. ⟦MI1234567A⟧",
            "numer prawa jazdy ⟦00123/15/1234⟧",
            "Rijbewijsnummer ⟦5012345678⟧",
            "CNH nº ⟦01234567890⟧",
            "Körkortsnummer ⟦850315-1234⟧",
            "Ehliyet no ⟦123456⟧",
            "Licence no. ⟦MORGA753116SM9IJ⟧",
            "DL# ⟦D1234567⟧",
            "driver's license ⟦P109-853-03-245-4⟧ (FL)",
            "Mera driving licence ⟦GJ33 20037006867⟧ hai",
            "the driver will be Marcus Thornton (licence no. ⟦THORN703099M999H⟧)",
        ],
        negatives: &[
            "license key: 7XH9K2LQ3M",
            "License: Apache-2.0",
            "Licence no. pending",
            "the MIT license 2024 edition",
        ],
        ..BASE
    },
    BuiltinRule {
        id: "pii.drivers_license.cjk.v1",
        category: "DRIVERS_LICENSE",
        pattern: concat!(
            r"(?-u)(?:운전면허|運転免許|驾驶证|駕駛執照|驾照|駕照)[^\n\d]{0,40}?",
            r"\b(\d{2}-\d{2}-\d{6}-\d{2}|\d{12}|[1-8]\d{16}[\dX]|[A-Z]{0,3}\d[A-Z0-9]{5,13})\b"
        ),
        group: 1,
        clean_right: true,
        validator: Validator::Code(document_number),
        confidence: 0.85,
        gate: Gate::Windows(LICENCE_CJK_WINDOWS),
        examples: &[
            "운전면허번호: ⟦11-12-345678-90⟧",
            "運転免許証番号 ⟦123456789012⟧",
            "驾驶证档案编号 ⟦510100123456⟧",
        ],
        negatives: &["運転免許の更新", "驾照 2024年", "운전면허 시험 1회"],
        ..BASE
    },
    // --- Routing numbers of other countries, and accounts written after them ---
    BuiltinRule {
        id: "pii.routing.uk_sort_code.v1",
        category: "ROUTING_NUMBER",
        pattern: r"(?i-u)\bsort ?code\b[^\n\d]{0,16}?\b(\d{2}-\d{2}-\d{2}|\d{2} \d{2} \d{2}|\d{6})\b",
        group: 1,
        clean_right: true,
        validator: Validator::Code(six_digit_branch),
        confidence: 0.9,
        gate: Gate::Near { words: &["sort", "sortcode"], before: 0, after: 64 },
        examples: &[
            "Sort code ⟦32-48-42⟧, account 28122402 for the refund.",
            "sortcode: ⟦401276⟧",
            "Bank details - sort code ⟦20 45 77⟧, account number 73901846",
        ],
        negatives: &["sort code 00-00-00", "sort code pending, ext 12-34", "sort by code 12-34-56"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.routing.au_bsb.v1",
        category: "ROUTING_NUMBER",
        pattern: r"(?i-u)\bbsb\b[^\n\d]{0,16}?\b(\d{3}-?\d{3})\b",
        group: 1,
        clean_right: true,
        validator: Validator::Code(six_digit_branch),
        confidence: 0.9,
        gate: Gate::Near { words: &["bsb"], before: 0, after: 64 },
        examples: &["BSB ⟦062-914⟧, account 10482937", "BSB number: ⟦733158⟧"],
        negatives: &["BSB 000-000", "BSB lookup 12-345"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.routing.in_ifsc.v1",
        category: "ROUTING_NUMBER",
        pattern: r"(?i-u)\bifsc\b[^\n\d]{0,16}?\b((?-i:[A-Z]{4}0[A-Z0-9]{6}))\b",
        group: 1,
        clean_right: true,
        validator: Validator::Code(in_ifsc),
        confidence: 0.9,
        gate: Gate::Near { words: &["ifsc"], before: 0, after: 64 },
        examples: &["Bank account 778608749453, IFSC ⟦SBIN07LTG1B⟧.", "IFSC code: ⟦HDFC0001234⟧", "ifsc=⟦ICIC0QBZM25⟧"],
        negatives: &["IFSC SBIN17LTG1B", "IFSC code lookup ABCD", "ifsc hdfc0001234"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.routing.br_agencia.v1",
        category: "ROUTING_NUMBER",
        pattern: r"(?i-u)\b(?:ag(?-i:ê|Ê)ncia|agencia)\b[^\n\d]{0,12}?\b(\d{4}(?:-[\dxX])?)\b",
        group: 1,
        clean_right: true,
        validator: Validator::Code(br_agencia),
        confidence: 0.85,
        gate: Gate::Near { words: &["agência", "agencia"], before: 0, after: 48 },
        examples: &[
            "transferência para a conta 625314-5, agência ⟦4753⟧.",
            "Banco 341, Agência: ⟦1234-5⟧, conta corrente 12345-6",
            "Agencia ⟦0001⟧, conta 98765-4",
        ],
        negatives: &["agência 0000", "agência de viagens 24h", "agência 12", "Müller AG. 1234 Mitarbeiter"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.bank_account.after_routing.v1",
        category: "BANK_ACCOUNT",
        pattern: concat!(
            r"(?i-u)\b(?:routing|aba|rtn|sort ?code|ifsc|bsb|transit|ag(?-i:ê|Ê)ncia|agencia|blz|swift|bic)\b[^\n]{0,48}?",
            r"\b(?:account|acct|a/c|konto|compte|cuenta)\b(?: number| no\.?| #|#)?[^\n\d]{0,8}?",
            r"\b(\d{4}(?: \d{4}){1,3}|\d{6,17}(?:-\d{1,2})?)\b"
        ),
        group: 1,
        clean_right: true,
        validator: Validator::Code(bank_account),
        // Above the labelled account rule: a routing number before it makes it a bank's.
        confidence: 0.85,
        gate: Gate::Near {
            words: &[
                "routing", "aba", "rtn", "sort", "sortcode", "ifsc", "bsb", "transit", "agência", "agencia", "blz",
                "swift", "bic",
            ],
            before: 0,
            after: 128,
        },
        context: Some(&ACCOUNT_CONTEXT),
        examples: &[
            "Refund to routing 021000021, account ⟦916808298⟧.",
            "Bank: routing 121000358, account ⟦9999175048⟧",
            "Sort code 32-48-42, account ⟦28122402⟧ for the refund.",
            "BSB 062-914, acct ⟦10482937⟧",
        ],
        negatives: &[
            "routing 021000021, account pending",
            "routing table updated, account 2024-05-01",
            "routing 021000021, account 00000000",
        ],
        ..BASE
    },
    BuiltinRule {
        id: "pii.bank_account.before_routing.v1",
        category: "BANK_ACCOUNT",
        pattern: concat!(
            r"(?i-u)\b(?:account|acct|a/c)\b(?: number| no\.?| #|#)?[^\n\d]{0,8}?\b(\d{6,17})\b",
            r"[^\n]{0,32}?\b(?:routing|aba|sort ?code|ifsc|bsb|transit)\b"
        ),
        group: 1,
        clean_right: true,
        validator: Validator::Code(bank_account),
        confidence: 0.85,
        gate: Gate::Near { words: &["account", "acct", "a/c"], before: 0, after: 112 },
        context: Some(&ACCOUNT_CONTEXT),
        examples: &["Pay into account ⟦28122402⟧, sort code 32-48-42.", "acct ⟦4829103756⟧ / routing 071000013"],
        negatives: &["account 00000000, sort code 32-48-42", "account 12345 routing"],
        ..BASE
    },
    // --- Brazil: identity card and health card ---
    BuiltinRule {
        id: "pii.national_id.br_rg.v1",
        category: "NATIONAL_ID",
        pattern: r"(?i-u)\b(?:rg|registro geral|carteira de identidade|identidade)\b[^\n\d]{0,24}?\b(\d{2}\.?\d{3}\.?\d{3}-?[\dXx])\b",
        group: 1,
        clean_right: true,
        validator: Validator::Code(br_rg),
        confidence: 0.9,
        gate: Gate::Near { words: &["rg", "registro geral", "identidade"], before: 0, after: 96 },
        examples: &[
            "CPF: 392.869.563-04\nRG: ⟦29.465.327-2⟧",
            "Meu RG é ⟦40318275X⟧.",
            "carteira de identidade nº ⟦55.102.938-9⟧",
        ],
        negatives: &["RG: 29.465.327-3", "rg 11.111.111-1", "RG pendente, pedido 123456789"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.health_id.br_cns.v1",
        category: "HEALTH_ID",
        pattern: concat!(
            r"(?i-u)\b(?:cns|sus|cart(?-i:ã|Ã)o nacional de sa(?-i:ú|Ú)de|cartao nacional de saude)\b[^\n\d]{0,24}?",
            r"\b([1-27-9]\d{2} ?\d{4} ?\d{4} ?\d{4})\b"
        ),
        group: 1,
        clean_right: true,
        validator: Validator::Code(br_cns),
        confidence: 0.9,
        gate: Gate::Near {
            words: &["cns", "sus", "cartão nacional de saúde", "cartao nacional de saude"],
            before: 0,
            after: 96,
        },
        examples: &[
            "Oi, meu cartão do SUS é ⟦752 6018 1590 8302⟧ e o passaporte HN771307.",
            "CNS: ⟦816613186091391⟧",
            "Cartão Nacional de Saúde ⟦209 9603 0824 6282⟧",
        ],
        negatives: &["CNS 752 6018 1590 8303", "SUS 000 0000 0000 0000", "cartão do SUS 123"],
        ..BASE
    },
    // --- Ethereum addresses in lower case, and passports of letters and digits ---
    BuiltinRule {
        id: "crypto.eth_address.lower.v1",
        category: "CRYPTO_WALLET",
        pattern: r"(?-u)\b0x[0-9a-f]{40}\b",
        clean_left: true,
        clean_right: true,
        validator: Validator::Code(eth_lower),
        // 20 bytes after `0x` is an account or contract address; hashes are 32 bytes.
        confidence: 0.8,
        gate: Gate::Windows(ID_TOKEN_WINDOWS),
        severity: Severity::Medium,
        context: Some(&HEX_CONTEXT),
        examples: &[
            "Send the refund to ⟦0x16fdaeeb975729fae923d5a4fd12aabfe228f219⟧ please.",
            "payout_address: ⟦0xe9cb0eb53f16947ccf25ec84d8dbc74254770f58⟧",
            "\"withdrawAddress\": \"⟦0x904dba41ecccc3fc1626e53a13043b026c48bbf3⟧\",",
        ],
        negatives: &[
            "tx hash 0x3feff9243a8f506b40928b5b7a767c76fb008f86",
            "0x0000000000000000000000000000000000000001",
            "storage slot 0x3feff9243a8f506b40928b5b7a767c76fb008f86",
            "0x3feff9243a8f506b40928b5b7a767c76fb008f86aa",
        ],
        ..BASE
    },
    BuiltinRule {
        id: "pii.passport.intl_alnum.v1",
        category: "PASSPORT",
        pattern: concat!(
            r"(?i-u)\b(?:reisepass(?:nummer)?|passnummer|passeport|pasaporte|passaporto|paszport(?:u)?|paspoort(?:nummer)?",
            r"|passaporte|pasaport|passport(?: number| no\.?)?)\b[^\n\d]{0,28}?\b((?-i:[A-Z][A-Z0-9]{7,8}))\b"
        ),
        group: 1,
        clean_right: true,
        validator: Validator::Code(passport_alnum),
        confidence: 0.88,
        gate: Gate::Near {
            words: &[
                "reisepass",
                "reisepassnummer",
                "passnummer",
                "passeport",
                "pasaporte",
                "passaporto",
                "paszport",
                "paszportu",
                "paspoort",
                "paspoortnummer",
                "passaporte",
                "pasaport",
                "passport",
            ],
            before: 0,
            after: 96,
        },
        examples: &[
            "Reisepassnummer ⟦CFPP80VYZ⟧, geboren am 08.05.1993",
            "Mijn paspoortnummer is ⟦PYZWYTQS1⟧ en mijn rijbewijsnummer 8166631576.",
            "paspoort ⟦XUDNC4T51⟧",
        ],
        negatives: &["Reisepassnummer ABGELAUFEN", "passport number REQUIRED", "Reisepass gültig bis 2031"],
        ..BASE
    },
    // --- Vehicles, devices, card security codes ---
    BuiltinRule {
        id: "pii.vehicle_id.vin.v1",
        category: "VEHICLE_ID",
        pattern: r"(?i-u)\b(?:vin|vehicle identification (?:number|no\.?)|chassis (?:number|no\.?)|fahrgestellnummer|fahrzeug-identifizierungsnummer|num(?:é|e)ro de s(?:é|e)rie du v(?:é|e)hicule|n(?:ú|u)mero de bastidor|numero di telaio|chassinummer)\b[^\n\d]{0,24}?\b((?-i)[A-HJ-NPR-Z0-9]{17})\b",
        group: 1,
        clean_right: true,
        validator: Validator::Code(vin),
        confidence: 0.85,
        gate: Gate::Near {
            words: &[
                "vin",
                "vehicle identification",
                "chassis number",
                "chassis no",
                "fahrgestellnummer",
                "fahrzeug-identifizierungsnummer",
                "numéro de série du véhicule",
                "numero de serie du vehicule",
                "número de bastidor",
                "numero de bastidor",
                "numero di telaio",
                "chassinummer",
            ],
            before: 0,
            after: 96,
        },
        severity: Severity::Medium,
        examples: &[
            "VIN: ⟦1ABCD23EXFG123456⟧",
            "vehicle identification number ⟦4T3ZK3BB4GU000042⟧",
            "Fahrgestellnummer ⟦WVWZZZ1JZXW000001⟧",
            "número de bastidor: ⟦VF1RFB00X56000123⟧",
        ],
        negatives: &[
            "VIN: 1ABCD23E0FG123456",
            "VIN: ABCDEFGHJKLMNPRST",
            "vin 12345678901234567",
            "VIN: WVWZZZ1JZXW00000A",
        ],
        ..BASE
    },
    BuiltinRule {
        id: "pii.device_id.imei.v1",
        category: "DEVICE_ID",
        pattern: r"(?i-u)\bimei(?:[ -]?(?:number|no\.?|nummer|numéro|número))?\b[^\n\d]{0,24}?\b(\d{2}[ -]?\d{6}[ -]?\d{6}[ -]?\d)\b",
        group: 1,
        clean_right: true,
        validator: Validator::Code(imei),
        confidence: 0.9,
        gate: Gate::Near { words: &["imei"], before: 0, after: 96 },
        severity: Severity::Medium,
        examples: &[
            "IMEI: ⟦352099001761481⟧",
            "imei number ⟦86-720604-123456-3⟧",
            "IMEI ⟦49 015420 323751 8⟧ reported stolen",
        ],
        negatives: &["IMEI: 352099001761482", "IMEI 000000000000000", "imei 12345"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.credit_card.security_code.v1",
        category: "CREDIT_CARD",
        // A card's security code right after its name: `CVV: 123`, `CVC2 4321`.
        pattern: r"(?i-u)\b(?:cvv2?|cvc2?|card security code|card verification (?:value|code)|kartenprüfnummer|cryptogramme visuel|código de seguridad)(?:[ \t]*(?:is|:|=|#|-))?[ \t]*(\d{3,4})\b",
        group: 1,
        confidence: 0.85,
        gate: Gate::Near {
            words: &[
                "cvv",
                "cvv2",
                "cvc",
                "cvc2",
                "card security code",
                "card verification",
                "kartenprüfnummer",
                "cryptogramme visuel",
                "código de seguridad",
            ],
            before: 0,
            after: 48,
        },
        examples: &[
            "Card 4111 1111 1111 1111, exp 12/27, CVV: ⟦123⟧",
            "cvc2 ⟦4821⟧",
            "the CVV is ⟦907⟧",
            "Kartenprüfnummer ⟦318⟧",
        ],
        negatives: &["the CVV field is required", "CVV length: 3 or 4 digits", "cvv 12345"],
        ..BASE
    },
];

#[cfg(test)]
mod tests;
