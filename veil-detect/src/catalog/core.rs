//! The built-in detector catalog: stable ids, categories, patterns and validators.
//!
//! Patterns are byte regexes with Unicode off (`(?-u)`): they run over raw bytes,
//! so invalid UTF-8 cannot make them fail, and the ASCII classes keep the compiled
//! automata (and the wasm binary) small.

use crate::finders::card::find_card;
use crate::finders::digits::{find_itin, find_ssn};
use crate::finders::ip::{find_ipv4, find_private_ipv4, IPV6_WINDOWS};
use crate::finders::label::{find_labelled_name, find_titled_name, LABEL_WORDS};
use crate::finders::phone::find_nanp;
use crate::finders::windows::{
    bracketed_at, mac_like, pgpass_password, user_flag, CJK_BIRTH_WINDOWS, PASSWORD_CJK_WINDOWS,
    PASSWORD_LABEL_WINDOWS, PGPASS_WINDOWS, SCHEME_WINDOWS,
};
use crate::rule::*;
use crate::validate::Validator;

/// Whether a street address does not begin with a year (`2019 Oxford Street`).
fn not_a_year(m: &[u8]) -> bool {
    let year = matches!(m.get(..2), Some(b"19" | b"20"))
        && m.get(2..4).is_some_and(|d| d.iter().all(u8::is_ascii_digit))
        && m.get(4) == Some(&b' ');
    !year
}

const PHONE_CONTEXT: Context = Context {
    window: 32,
    words: &[
        "phone",
        "tel",
        "call",
        "mobile",
        "cell",
        "fax",
        "whatsapp",
        "text",
        "reach",
        "contact",
        "ring",
        "telefon",
        "telefonnummer",
        "handy",
        "mobil",
        "rufnummer",
        "téléphone",
        "tél",
        "portable",
        "teléfono",
        "móvil",
        "celular",
        "telefono",
        "cellulare",
        "telefoon",
        "mobiel",
        "telefone",
        "contato",
        "komórka",
        "numer",
        "mobilnummer",
        "cep",
        "numara",
    ],
    boost: 0.1,
    against: &["order", "invoice", "tracking", "ref", "isbn", "doi", "serial", "sku", "ticket", "build", "id"],
    // 0.8 - 0.25 stays above the default threshold: a stray "id" before a real number
    // must not hide it; a stricter policy (0.6 and up) drops these.
    penalty: 0.25,
};
const CARD_CONTEXT: Context = Context {
    window: 32,
    words: &[
        "card",
        "visa",
        "mastercard",
        "amex",
        "discover",
        "cc",
        "credit",
        "debit",
        "payment",
        "karte",
        "kreditkarte",
        "carte",
        "tarjeta",
        "carta",
        "cartão",
        "kaart",
        "karta",
        "kort",
        "kart",
        "kartennummer",
        "numéro",
    ],
    boost: 0.04,
    against: &[],
    penalty: 0.0,
};
const SSN_CONTEXT: Context = Context {
    window: 32,
    words: &["ssn", "social", "security"],
    boost: 0.09,
    against: &["order", "ticket", "invoice", "part", "sku"],
    penalty: 0.2,
};
const ITIN_CONTEXT: Context =
    Context { window: 32, words: &["itin", "taxpayer", "tax"], boost: 0.09, against: &[], penalty: 0.0 };
const IBAN_CONTEXT: Context = Context {
    window: 32,
    words: &[
        "iban",
        "account",
        "bank",
        "konto",
        "kontonummer",
        "compte",
        "cuenta",
        "conto",
        "conta",
        "rekening",
        "rachunek",
        "hesap",
        "bankverbindung",
    ],
    boost: 0.04,
    against: &[],
    penalty: 0.0,
};
const MAC_CONTEXT: Context = Context {
    window: 32,
    words: &["mac", "ether", "hwaddr", "nic", "wifi", "bssid"],
    boost: 0.15,
    against: &[],
    penalty: 0.0,
};
const IP_CONTEXT: Context = Context {
    window: 24,
    words: &["ip", "address", "host", "server", "from", "client", "addr"],
    boost: 0.1,
    // Not "v": "v1.2.3.4" never matches (no word boundary), and a lone "V" is as
    // likely an initial (regression: "V 10.20.30.40" went through unmasked).
    against: &["version", "release", "build", "ver", "firmware", "oid", "upgrade", "upgraded"],
    penalty: 0.45,
};

/// A private IPv4 address is lowered only by the words that name a version: "build
/// server 10.0.0.5", "upgrade 10.20.30.40" and "oid 10.1.2.3" are internal addresses (an
/// SNMP OID starts with 0, 1 or 2, never a private range), and missing an internal
/// address is the costlier mistake. "version 10.2.3.4" stays a version.
const PRIVATE_IP_CONTEXT: Context = Context { against: &["version", "release", "ver", "firmware"], ..IP_CONTEXT };

/// An e-mail address written to dodge an `@` search, its `at` written as `$at` reads:
/// `dot` as a word or in brackets, or a real dot; the domain ends in a common top-level
/// domain.
/// An e-mail address written to dodge an `@` search: a name, `$at`, a domain whose
/// labels are joined by `$dot`, and one of the top-level domains `$tlds`.
macro_rules! obfuscated_email_with {
    ($at:literal, $dot:literal, $tlds:literal) => {
        concat!(
            r"(?i-u)\b[a-z0-9_%+-]+(?:",
            $dot,
            r"[a-z0-9_%+-]+)*",
            $at,
            r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:",
            $dot,
            r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*",
            $dot,
            $tlds,
            r"\b"
        )
    };
}

/// [`obfuscated_email_with!`] with `dot` in words or brackets, or a real `.`, between
/// the labels, and the common top-level domains.
macro_rules! obfuscated_email {
    ($at:literal) => {
        obfuscated_email_with!(
            $at,
            r"(?:\s*[\[({<]\s*dot\s*[\])}>]\s*|[ \t]+dot[ \t]+|\.)",
            r"(?:com|org|net|edu|gov|mil|int|io|co|ai|dev|app|info|biz|me|us|uk|de|fr|es|it|nl|be|ch|at|se|no|dk|fi|pl|pt|br|mx|ar|ca|au|nz|jp|cn|kr|in|sg|hk|tw|ru|tr|za|ie|il|cz|gr|hu|ro)"
        )
    };
}

macro_rules! private_ipv4 {
    () => {
        r"(?:10(?:\.\d{1,3}){3}|172\.(?:1[6-9]|2\d|3[01])(?:\.\d{1,3}){2}|192\.168(?:\.\d{1,3}){2}|127(?:\.\d{1,3}){3}|169\.254(?:\.\d{1,3}){2})"
    };
}
const PRIVATE_IPV4: &str = private_ipv4!();

/// Host suffixes that only ever name internal machines (RFC 6762, RFC 8375, common use).
pub const INTERNAL_SUFFIXES: &[&str] =
    &["internal", "local", "localdomain", "corp", "lan", "intranet", "intra", "home.arpa"];

/// Labels that mark a zone of a public domain as internal (`db.corp.example.com`,
/// `api.int.example.net`, `mq.intra.example.de`): in the middle of a host name that
/// ends in a common top-level domain.
pub const INTERNAL_LABELS: &[&str] = &["corp", "int", "intra", "internal", "intranet", "lan", "priv"];

/// Top-level domains an internal zone is found under (a label such as `int` before an
/// unknown last label is as likely code: `obj.int.value`).
const COMMON_TLDS: &str = "com|net|org|io|co|dev|cloud|app|tech|biz|info|eu|de|uk|fr|nl|be|es|it|pt|ch|at|se|no|dk|fi|pl|cz|tr|br|mx|in|jp|kr|cn|au|nz|ca|us|sg|za|ie|example|test";

/// A host name in an internal zone: `(label.)+INTERNAL_LABEL(.label)*.TLD`.
fn internal_zone_host() -> String {
    format!(
        r"(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+(?:{})(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*\.(?:{COMMON_TLDS})",
        INTERNAL_LABELS.join("|")
    )
}

pub const BUILTIN: &[BuiltinRule] = &[
    BuiltinRule {
        id: "pii.email.v1",
        category: "EMAIL",
        // Letters of other scripts in the name and the domain too (RFC 6531, IDN:
        // `jürgen.weiß@exämple.de`), as UTF-8: a two-byte letter (lead byte C3 to DF:
        // Latin, Greek, Cyrillic, …) or a three-byte one (E3 to E9: kana, CJK), not
        // punctuation (`«`, `“` begin with C2 and E2). Without them `müller@…` gave
        // `ller@…`. The top-level domain stays ASCII.
        pattern: concat!(
            r"(?i-u)(?:\b[a-z0-9]|[\xc3-\xdf][\x80-\xbf]|[\xe3-\xe9][\x80-\xbf]{2})",
            r"(?:[a-z0-9._%+-]|[\xc3-\xdf][\x80-\xbf]|[\xe3-\xe9][\x80-\xbf]{2})*@",
            r"(?:(?:[a-z0-9]|[\xc3-\xdf][\x80-\xbf]|[\xe3-\xe9][\x80-\xbf]{2})",
            r"(?:(?:[a-z0-9-]|[\xc3-\xdf][\x80-\xbf]|[\xe3-\xe9][\x80-\xbf]{2})*(?:[a-z0-9]|[\xc3-\xdf][\x80-\xbf]|[\xe3-\xe9][\x80-\xbf]{2}))?\.)+",
            r"[a-z]{2,24}\b"
        ),
        confidence: 0.95,
        gate: Gate::Contains(b"@"),
        severity: Severity::Medium,
        examples: &[
            "⟦jane.doe@example.com⟧",
            "E-Mail: ⟦müller@example.de⟧, Kontakt: ⟦jürgen.weiß@example.de⟧",
            "⟦émile@exämple.fr⟧ «⟦anna@example.org⟧»",
        ],
        negatives: &["user@localhost", "a@b"],
        ..BASE
    },
    BuiltinRule {
        // `jane dot doe at example dot com`, `jane [at] example [dot] org`: an address
        // written so that it dodges an `@` search. Gated by the word `dot`; the domain
        // must end in a common top-level domain, so prose with `at` and `dot` in it
        // is not one. (`jane(at)example.org`, with no `dot`, is the next rule's.)
        id: "pii.email.obfuscated.v1",
        category: "EMAIL",
        pattern: obfuscated_email!(r"(?:\s*[\[({<]\s*at\s*[\])}>]\s*|[ \t]+at[ \t]+)"),
        confidence: 0.85,
        gate: Gate::Near { words: &["dot"], before: 96, after: 96 },
        severity: Severity::Medium,
        examples: &[
            "write to ⟦jane dot doe at example dot com⟧ please",
            "Kontakt: ⟦jane [at] example [dot] org⟧",
            "mail ⟦j.doe (at) mail (dot) example (dot) co (dot) uk⟧ for access",
            "⟦JANE AT EXAMPLE DOT COM⟧",
        ],
        negatives: &[
            "look at the example dot com website",
            "the meeting is at noon, dot the i's",
            "a dot at the end of the line",
            "jane at example dot unknowntld",
        ],
        ..BASE
    },
    BuiltinRule {
        id: "pii.email.obfuscated.words.v1",
        category: "EMAIL",
        // French `arobase` / `point` and German `[ät]` / `[punkt]` (in brackets, as the
        // German form is written; a bare `point` is an English word too, so the French
        // form needs `arobase`).
        pattern: obfuscated_email_with!(
            r"(?:[ \t]+arobase[ \t]+|[ \t]*[\[(][ \t]*(?:\xc3\xa4|\xc3\x84|ae|a)t[ \t]*[\])][ \t]*)",
            r"(?:[ \t]+point[ \t]+|[ \t]*[\[(][ \t]*(?:punkt|point|dot)[ \t]*[\])][ \t]*|\.)",
            r"(?:com|org|net|edu|gov|int|io|co|ai|dev|app|info|eu|de|fr|at|ch|be|lu|ca|uk|es|it|nl)"
        ),
        confidence: 0.85,
        gate: Gate::Near { words: &["arobase", "punkt"], before: 96, after: 96 },
        severity: Severity::Medium,
        examples: &[
            "écrivez à ⟦claire.dupont arobase exemple point fr⟧",
            "Kontakt: ⟦m.weber [ät] beispiel [punkt] de⟧",
            "⟦info (ät) firma (punkt) de⟧ oder telefonisch",
        ],
        negatives: &[
            "le point de vue arobase",
            "Punkt 3 der Tagesordnung, siehe [ät]",
            "claire arobase exemple point inconnu",
        ],
        ..BASE
    },
    BuiltinRule {
        id: "pii.email.obfuscated.labelled.v1",
        category: "EMAIL",
        // A bare ` at ` with real dots (`jane_doe at example.org`) only right after a
        // mail label and its verb (`my email is …`, `E-Mail: …`, `courriel : …`): in
        // prose `look at example.com` is no address.
        pattern: concat!(
            r"(?i-u)\b(?:e-?mail|mail|courriel|correo|posta)(?:[ \t]+(?:address|adresse|addr|id))?",
            r"[ \t]*(?:[:=]|[ \t](?:is|ist|est|es|è))[ \t]*",
            r"(\b[a-z0-9_%+-]+(?:\.[a-z0-9_%+-]+)*[ \t]+at[ \t]+",
            r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.",
            r"(?:com|org|net|edu|gov|io|co|ai|dev|app|info|me|us|uk|de|fr|es|it|nl|be|ch|at|se|no|dk|fi|pl|pt|br|mx|ca|au|nz|jp|cn|kr|in|sg|ie|za)\b)"
        ),
        group: 1,
        confidence: 0.85,
        gate: Gate::Near {
            words: &["email", "e-mail", "mail", "courriel", "correo", "posta"],
            before: 0,
            after: 96,
        },
        severity: Severity::Medium,
        examples: &[
            "my email is ⟦jane_doe at example.org⟧",
            "E-Mail: ⟦m.weber at beispiel.de⟧",
            "courriel : ⟦claire.dupont at exemple.fr⟧",
        ],
        negatives: &[
            "email me and look at example.com",
            "mail is at example.com's office",
            "my email is jane at example.unknowntld",
        ],
        ..BASE
    },
    BuiltinRule {
        // The same with `(at)` and real dots (`jane(at)example.org`, common on contact
        // pages), or `[at]`. Gated by a bracketed `at` after some `(` or `[` of the text
        // (marks: no pass of its own; a `memmem` pass for `(at)` cost ~1 µs per 16 KiB in V8, and missed
        // `( at )`); the word `at` as a keyword cost ~190 µs in 128 KiB of English that
        // says `at` often (each hit recorded and tested), even with only bracketed
        // hits kept.
        id: "pii.email.obfuscated.bracketed.v1",
        category: "EMAIL",
        // `at` only in brackets, blanks inside: what the keyword test keeps.
        pattern: obfuscated_email!(
            r"[ \t]*(?:\([ \t]*(?:at|\xc3[\xa4\x84]t)[ \t]*\)|\[[ \t]*(?:at|\xc3[\xa4\x84]t)[ \t]*\])[ \t]*"
        ),
        confidence: 0.85,
        gate: Gate::Test(bracketed_at),
        severity: Severity::Medium,
        examples: &[
            "Kontakt: ⟦info(at)beispiel-firma.de⟧",
            "write to ⟦jane.doe (at) example.org⟧",
            "⟦ops(at)mail.example.co.uk⟧",
            "Presse: ⟦presse( AT )example.de⟧",
            "contact ⟦jane [at] example.org⟧ or ⟦press[at]example.co.uk⟧",
            "Kontakt: ⟦m.weber [ät] beispiel.de⟧",
        ],
        negatives: &[
            "meet me (at) noon",
            "look at example.com (at) once",
            "jane(at)example.unknowntld",
            "rows[at] = example.value",
        ],
        ..BASE
    },
    BuiltinRule {
        id: "pii.ssn.v1",
        category: "SSN",
        pattern: r"(?-u)\b\d{3}-\d{2}-\d{4}\b",
        validator: Validator::Ssn,
        gate: Gate::NumericRun {
            min_digits: 9,
            min_dashes: 2,
            min_dots: 0,
            plus: false,
        },
        context: Some(&SSN_CONTEXT),
        finder: Some(find_ssn),
        examples: &[r##"ssn ⟦457-23-1896⟧."##, r##"SSN: ⟦318-62-7049⟧ on file"##],
        negatives: &[r##"ssn 000-12-3456 is invalid"##, r##"ssn 666-12-3456 and 123-00-4567"##],
        ..BASE
    },
    BuiltinRule {
        id: "pii.phone.nanp.v1",
        category: "PHONE",
        pattern: r"(?-u)(?:\+?1[ .-]?)?(?:\([2-9]\d{2}\)|[2-9]\d{2})[ .-]?[2-9]\d{2}[ .-]\d{4}\b",
        clean_left: true,
        validator: Validator::Phone,
        confidence: 0.8,
        gate: Gate::NumericRun {
            min_digits: 10,
            min_dashes: 0,
            min_dots: 0,
            plus: false,
        },
        severity: Severity::Medium,
        context: Some(&PHONE_CONTEXT),
        finder: Some(find_nanp),
        examples: &[r##"call ⟦(312) 847-2291⟧ today"##, r##"cell: ⟦646.392.0175⟧"##],
        negatives: &[r##"order 312-847 shipped"##, r##"extension 1234-5678"##],
        ..BASE
    },
    BuiltinRule {
        id: "pii.phone.e164.v1",
        category: "PHONE",
        pattern: r"(?-u)\+[1-9]\d{0,2}[ .-]?(?:\(\d{1,4}\)|\d{1,4})(?:[ .-]?\d{2,4}){1,5}\b",
        clean_left: true,
        validator: Validator::Phone,
        confidence: 0.8,
        gate: Gate::NumericRun {
            min_digits: 10,
            min_dashes: 0,
            min_dots: 0,
            plus: true,
        },
        severity: Severity::Medium,
        context: Some(&PHONE_CONTEXT),
        examples: &[r##"ring ⟦+44 20 7183 6645⟧"##, r##"WhatsApp ⟦+49 30 22739014⟧"##],
        negatives: &[r##"version +1.2.3"##, r##"score +12 points"##],
        ..BASE
    },
    BuiltinRule {
        id: "pii.credit_card.v1",
        category: "CREDIT_CARD",
        pattern: r"(?-u)\b(?:\d[ .-]?){12,18}\d\b",
        validator: Validator::PaymentCard,
        finder: Some(find_card),
        examples: &[r##"card ⟦4539 2742 4339 4114⟧ exp 04/29"##, r##"pan=⟦4539274243394114⟧"##],
        negatives: &[r##"order 4539 2742 4339 4115 shipped"##, r##"tracking 1234 5678 9012 3456"##],
        confidence: 0.95,
        gate: Gate::NumericRun {
            min_digits: 13,
            min_dashes: 0,
            min_dots: 0,
            plus: false,
        },
        context: Some(&CARD_CONTEXT),
        ..BASE
    },
    BuiltinRule {
        id: "secret.aws_access_key_id.v1",
        category: "AWS_ACCESS_KEY",
        pattern: r"(?-u)\b(?:AKIA|ASIA|ABIA|ACCA|AIDA|AROA|AIPA|ANPA|ANVA|AGPA)[A-Z0-9]{16}\b",
        confidence: 0.95,
        gate: Gate::Prefix(&[b"AKIA", b"ASIA", b"ABIA", b"ACCA", b"AIDA", b"AROA", b"AIPA", b"ANPA", b"ANVA", b"AGPA"]),
        examples: &[r##"key ⟦AKIAVC6MMMP6DZVEGPP2⟧ here"##],
        negatives: &[r##"AKIAXXXXXXXXXXXXXXXX"##, r##"the AKIA prefix marks a long-term key"##],
        ..BASE
    },
    BuiltinRule {
        id: "secret.anthropic_api_key.v1",
        category: "API_KEY",
        pattern: r"(?-u)\bsk-ant-[A-Za-z0-9_-]{20,}",
        confidence: 0.99,
        gate: Gate::Prefix(&[b"sk-ant-"]),
        examples: &[r##"k ⟦sk-ant-api03-pp4zqwH0dc-sn_vniemyF6-d2ZUO2M06DUK8_OXeSjojiqIs⟧"##],
        negatives: &[r##"sk-ant-your_key_here"##, r##"the sk-ant- prefix"##],
        ..BASE
    },
    BuiltinRule {
        id: "secret.openai_api_key.v1",
        category: "API_KEY",
        pattern: r"(?-u)\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}",
        confidence: 0.95,
        gate: Gate::Prefix(&[b"sk-"]),
        examples: &[r##"k=⟦sk-proj-OPA5kqzfxaA6OPS4jtr8VIeybc4kfMPsYmxkogxN⟧"##],
        negatives: &[r##"sk-your_key_here_from_the_dashboard"##, r##"the sk- prefix"##],
        ..BASE
    },
    BuiltinRule {
        id: "secret.github_token.v1",
        category: "GITHUB_TOKEN",
        pattern: r#"(?-u)\bgh[pousr]_[A-Za-z0-9]{36}\b"#,
        confidence: 0.99,
        gate: Gate::Prefix(&[b"ghp_", b"gho_", b"ghu_", b"ghs_", b"ghr_"]),
        examples: &[r##"t ⟦ghp_XwqwNYhg5ACjtB8jC0p6kOWFT9bGW7fTFs3Y⟧ x"##],
        negatives: &[r##"ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"##, r##"ghp_ is a personal access token"##],
        ..BASE
    },
    BuiltinRule {
        id: "secret.gitlab_token.v1",
        category: "GITLAB_TOKEN",
        // Classic (`glpat-` + 20) and routable tokens (`glpat-…` with `.`-separated parts).
        pattern: r#"(?-u)\bglpat-[A-Za-z0-9_-]{20,}(?:\.[A-Za-z0-9_-]{2,16}){0,3}"#,
        confidence: 0.99,
        gate: Gate::Prefix(&[b"glpat-"]),
        examples: &[r##"t ⟦glpat-SSw6JOoqAeZ7jXNtsJNm⟧ x"##],
        negatives: &[r##"glpat-xxxxxxxxxxxxxxxxxxxx"##, r##"glpat- prefix"##],
        ..BASE
    },
    BuiltinRule {
        id: "secret.slack_token.v1",
        category: "SLACK_TOKEN",
        pattern: r#"(?-u)\b(?:xox[abposr]-[A-Za-z0-9-]{10,}|https://hooks\.slack\.com/services/[A-Za-z0-9/_-]{20,})"#,
        confidence: 0.97,
        gate: Gate::Prefix(&[b"xoxa-", b"xoxb-", b"xoxp-", b"xoxo-", b"xoxs-", b"xoxr-", b"https://hooks.slack.com/"]),
        examples: &[r##"t ⟦xoxb-603023541967-hNZedTOVyknnVmd9pbsWta86⟧ x"##],
        negatives: &[r##"xoxb-your-bot-token"##, r##"xoxb- tokens are bot tokens"##],
        ..BASE
    },
    BuiltinRule {
        id: "secret.stripe_key.v1",
        category: "STRIPE_KEY",
        pattern: r#"(?-u)\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}\b"#,
        confidence: 0.98,
        gate: Gate::Prefix(&[b"sk_live_", b"sk_test_", b"rk_live_", b"rk_test_"]),
        examples: &[r##"t ⟦sk_live_54CQWH0VQc1pTsyLmc3mJdno⟧ x"##],
        negatives: &[r##"sk_live_xxxxxxxxxxxxxxxxxxxxxxxx"##, r##"use sk_test_ keys in CI"##],
        ..BASE
    },
    BuiltinRule {
        id: "secret.google_api_key.v1",
        category: "GOOGLE_API_KEY",
        pattern: r#"(?-u)\bAIza[0-9A-Za-z_-]{35}"#,
        confidence: 0.97,
        gate: Gate::Prefix(&[b"AIza"]),
        examples: &[r##"k ⟦AIzaco9BmVYRLu2vbBGBiuML8PI3Zynf7PtWm79⟧ x"##],
        negatives: &[r##"AIza is the prefix of Google API keys"##, r##"AIzaXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX"##],
        ..BASE
    },
    BuiltinRule {
        id: "secret.jwt.v1",
        category: "JWT",
        // Signed, or unsecured (`alg: none`, RFC 7519 §6: an empty third part).
        pattern: r#"(?-u)\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{4,}\.(?:[A-Za-z0-9_-]{8,})?"#,
        validator: Validator::Jwt,
        confidence: 0.95,
        gate: Gate::Contains(b".eyJ"),
        examples: &[
            "Authorization: Bearer ⟦eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1LTQyIn0.c2lnbmF0dXJlLXN5bnRoZXRpYw⟧",
            "unsigned ⟦eyJhbGciOiJub25lIn0.eyJzdWIiOiJ1LTQyIn0.⟧ token",
        ],

        negatives: &["eyJub3RoaW5nIjoxfQ.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJl"],
        ..BASE
    },
    BuiltinRule {
        id: "secret.private_key.v1",
        category: "PRIVATE_KEY",
        pattern: r#"(?s-u)-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----.*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----"#,
        validator: Validator::Code(crate::validate::pem_body),
        confidence: 0.99,
        gate: Gate::Word(&[b"PRIVATE KEY-----"]),
        examples: &[
            "⟦-----BEGIN RSA PRIVATE KEY-----\r\nMIIEowIBAAKCAQEAsynthetic0only\r\n-----END RSA PRIVATE KEY-----⟧\r\n",
            "key: |\n  ⟦-----BEGIN OPENSSH PRIVATE KEY-----\n  b3BlbnNzaC1rZXktdjEAsynthetic\n  -----END OPENSSH PRIVATE KEY-----⟧",
        ],

        negatives: &[
            "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----",
            "-----BEGIN PRIVATE KEY-----\n<your private key>\n-----END PRIVATE KEY-----",
            "\"private_key\": \"-----BEGIN PRIVATE KEY-----\\n...\\n-----END PRIVATE KEY-----\\n\"",
        ],
        ..BASE
    },
    BuiltinRule {
        id: "secret.connection_string.v1",
        category: "CONNECTION_STRING",
        // Any scheme (`postgres`, `mongodb+srv`, `amqps`, `https`, `ftp`, `smtp`, `git+ssh`,
        // `.git-credentials` lines): a user, a password and a host.
        // The user may be empty (`redis://:pw@host`) or hold an `@` (`%40`, decoded).
        pattern: r#"(?i-u)\b[a-z][a-z0-9+.-]{1,19}://[^\s:/'\"<>]*:[^\s@/'\"<>]+@[^\s/@'\"<>]+(?:/(?:[^\s'\"<>]*[^\s'\"<>.,;:!?)])?)?"#,
        confidence: 0.97,
        gate: Gate::Windows(SCHEME_WINDOWS),
        examples: &[r##"db ⟦postgres://app:CttaUHAfhOB2@db.example.com:5432/orders⟧ ok"##],
        negatives: &[r##"postgres://db.example.com:5432/orders"##, r##"postgres://localhost/test"##],
        ..BASE
    },
    BuiltinRule {
        id: "secret.basic_auth.v1",
        category: "PASSWORD",
        // `Authorization: Basic <base64 of user:password>`; the decoded text must be a
        // printable `user:password`.
        pattern: r"(?i-u)\bbasic[ \t]+([A-Za-z0-9+/]{8,180}={0,2})",
        group: 1,
        clean_right: true,
        validator: Validator::Code(crate::validate::basic_credentials),
        confidence: 0.9,
        gate: Gate::Near { words: &["basic"], before: 0, after: 200 },
        examples: &[
            "curl -H 'Authorization: Basic ⟦YWxpY2U6UzNjci10LVBhc3M=⟧' https://api.example.com",
            "authorization: basic ⟦c3ZjLWJ1aWxkOnE5WnR4LTQ0LVJtcA==⟧",
        ],
        negatives: &["Basic auth is enabled", "Authorization: Basic ${CREDS}", "Basic dGhpcyBpcyBub3QgaXQ="],
        ..BASE
    },
    BuiltinRule {
        // `Authorization: token <credential>` (GitHub's older scheme), `ApiKey`, `Key`,
        // `SSWS`, `GenieKey`, `Splunk`, `sso-key`: a scheme word the assignment reader
        // would take as the value, then the credential. `Bearer` and `Basic` have rules
        // of their own.
        id: "secret.authorization_scheme.v1",
        category: "BEARER_TOKEN",
        pattern: r#"(?i-u)\bauthorization["']?[ \t]*[:=][ \t]*["']?(?:token|api-?key|key|ssws|geniekey|splunk|sso-key)[ \t]+["']?([A-Za-z0-9._~+/:-]{16,}=*)"#,
        group: 1,
        validator: Validator::Code(crate::finders::assign::secret_value),
        confidence: 0.9,
        gate: Gate::Near { words: &["authorization"], before: 0, after: 200 },
        keep: Keep::Assignment,
        examples: &[
            "curl -H 'Authorization: token ⟦9f8e7d6c5b4a39281706f5e4d3c2b1a098765432⟧' https://api.github.com/user",
            "authorization: ApiKey ⟦a7Kq2Zp9Xw4Rt6Ym1Vb8Nc3L⟧",
            "{\"Authorization\": \"GenieKey ⟦3c9f2a71-8e4b-4d6a-b1f0-7a2e5c9d8b14⟧\"}",
        ],
        negatives: &[
            "Authorization: token ${GITHUB_TOKEN}",
            "Authorization: token <your-token>",
            "the authorization key is rotated monthly",
            "Authorization: token aaaaaaaaaaaaaaaaaaaaaaaa",
        ],
        ..BASE
    },
    BuiltinRule {
        // A password after its label in the languages whose word for it is not ASCII
        // (`contraseña:`, `hasło:`, `lösenord:`), which the assignment reader's names
        // (ASCII) do not reach; the value as the prose rule's (`assign::prose_password`).
        id: "secret.password_label.intl.v1",
        category: "PASSWORD",
        pattern: PASSWORD_LABEL_PATTERN,
        group: 1,
        validator: Validator::Code(crate::finders::assign::prose_password),
        confidence: 0.8,
        gate: Gate::Near {
            words: &["contraseña", "hasło", "lösenord", "parola", "parolam", "mot de passe", "mot_de_passe"],
            before: 0,
            after: 160,
        },
        examples: &[
            "mi contraseña: ⟦Verano2024!⟧",
            "hasło do wifi: ⟦Lato2024!x⟧",
            "lösenord = ⟦Sommar2024!⟧",
            "parola: ⟦Yaz2024!ab⟧",
            "Mot de passe : ⟦Azerty!2024x⟧",
            "mot_de_passe=⟦Azerty!2024x⟧",
        ],
        negatives: &["contraseña: requerida", "hasło - obowiązkowe", "parola: ${PAROLA}", "Mot de passe : oublié ?"],
        severity: Severity::High,
        ..BASE
    },
    BuiltinRule {
        // The same after the Russian and Turkish words (`пароль:`, `пароль — …`,
        // `şifre:`), which begin with a letter the start index does not read: windows
        // at them, found in texts with a byte of 0x80 and up.
        id: "secret.password_label.ru_tr.v1",
        category: "PASSWORD",
        pattern: PASSWORD_LABEL_PATTERN,
        group: 1,
        validator: Validator::Code(crate::finders::assign::prose_password),
        confidence: 0.8,
        gate: Gate::Windows(PASSWORD_LABEL_WINDOWS),
        examples: &[
            "Мой пароль — ⟦Qwerty2024!⟧",
            "пароль от почты: ⟦Zima2025#⟧",
            "Пароль: ⟦Vesna2024!⟧",
            "şifre: ⟦Yaz2024!⟧",
            "Şifrem: ⟦Kis2025#ab⟧",
        ],
        negatives: &["пароль: ********", "Пароль — минимум 12 символов", "şifre: ${SIFRE}", "şifre zorunludur"],
        severity: Severity::High,
        ..BASE
    },
    BuiltinRule {
        id: "secret.cli_user_password.v1",
        category: "PASSWORD",
        // `curl -u user:password`, `--user user:password`, `-u 'user:password'`.
        pattern: r#"(?-u)(?:^|[ \t])(?:-u|--user|--proxy-user)[ \t=]*['"]?([^\s:'"$<{]+:[^\s'"]{4,})"#,
        group: 1,
        validator: Validator::Code(crate::finders::assign::plausible_password),
        confidence: 0.85,
        gate: Gate::Test(user_flag),
        examples: &["curl -u ⟦deploy:Kq7-vR2x!m⟧ https://ci.example.com/api", "curl --user '⟦alice:Sw0rdf1sh-9⟧' -X POST https://h.example"],
        negatives: &["curl -u $USER:$PASS https://x", "ssh -u admin host", "curl -u alice: https://x"],
        ..BASE
    },
    BuiltinRule {
        id: "secret.cli_password.mysql.v1",
        category: "PASSWORD",
        // `mysql -u root -p'…'`, `mysqldump -pS3cret db`: the password glued to `-p`.
        pattern: r#"(?-u)\bmysql(?:dump|admin|sh|import|check)?\b[^\n]{0,200}?[ \t]-p['"]?([^\s'"-][^\s'"]{3,})"#,
        group: 1,
        validator: Validator::Code(crate::finders::assign::plausible_password),
        confidence: 0.9,
        gate: Gate::Near { words: &["mysql", "mysqldump", "mysqladmin", "mysqlsh", "mysqlimport", "mysqlcheck"], before: 0, after: 260 },
        examples: &["mysql -h db.example.com -u root -p'⟦Vx7#qL2mP9⟧' orders", "mysqldump -u backup -p⟦Kq7vR2xm11⟧ shop > shop.sql"],
        negatives: &["mysql -u root -p orders", "mysql -u root -p$MYSQL_PWD"],
        ..BASE
    },
    BuiltinRule {
        // The password flags of other clients: `sqlcmd -P`, `bcp`/`osql -P`,
        // `ldapsearch -w` (and the other OpenLDAP tools), `redis-cli -a`/`--pass`,
        // `ssh-keygen -N`/`-P` (a key's passphrase), `mongosh -p`/`--password`.
        id: "secret.cli_password.flags.v1",
        category: "PASSWORD",
        pattern: concat!(
            r#"(?-u)\b(?:(?:sqlcmd|bcp|osql)\b[^\n]{0,200}?[ \t]-P"#,
            r#"|ldap(?:search|modify|add|delete|passwd|whoami|compare|modrdn|exop)\b[^\n]{0,200}?[ \t]-w"#,
            r#"|redis-cli\b[^\n]{0,200}?[ \t](?:-a|--pass)"#,
            r#"|ssh-keygen\b[^\n]{0,200}?[ \t]-[NP]"#,
            r#"|mongo(?:sh|dump|restore|import|export)?\b[^\n]{0,200}?[ \t](?:-p|--password))"#,
            r#"(?:[ \t]+|=)['"]?([^\s'"-][^\s'"]{3,})"#
        ),
        group: 1,
        validator: Validator::Code(crate::finders::assign::plausible_password),
        confidence: 0.9,
        gate: Gate::Near {
            words: &[
                "sqlcmd",
                "bcp",
                "osql",
                "ldapsearch",
                "ldapmodify",
                "ldapadd",
                "ldapdelete",
                "ldappasswd",
                "ldapwhoami",
                "ldapcompare",
                "ldapmodrdn",
                "ldapexop",
                "redis-cli",
                "ssh-keygen",
                "mongo",
                "mongosh",
                "mongodump",
                "mongorestore",
                "mongoimport",
                "mongoexport",
            ],
            before: 0,
            after: 260,
        },
        examples: &[
            "sqlcmd -S sql01 -U sa -P '⟦Sq1!Pass77⟧' -Q \"SELECT 1\"",
            "ldapsearch -x -D \"cn=admin,dc=example,dc=org\" -w '⟦Ld4p!Adm1n⟧' -b dc=example,dc=org",
            "redis-cli -h cache01 -a ⟦R3dis!Pw9⟧ ping",
            "ssh-keygen -t ed25519 -N '⟦Ph4se!key⟧' -f id_ed25519",
            "mongosh \"mongodb://db01/admin\" -u admin -p ⟦M0ng0!Adm1n⟧",
        ],
        negatives: &[
            "sqlcmd -S sql01 -U sa -P $SQL_PASSWORD",
            "ssh-keygen -t ed25519 -N '' -f id_ed25519",
            "redis-cli -h cache01 -a \"$REDIS_PASSWORD\" ping",
            "ldapsearch -x -W -b dc=example,dc=org",
        ],
        ..BASE
    },
    BuiltinRule {
        // `net use \\server\share /user:DOMAIN\name PASSWORD` (Windows): the password
        // follows the user as an argument.
        id: "secret.cli_password.net_use.v1",
        category: "PASSWORD",
        pattern: r#"(?i-u)\bnet[ \t]+use\b[^\n]{0,200}?[ \t]/u(?:ser)?:[^\s]+[ \t]+['"]?([^\s'"/*][^\s'"]{3,})"#,
        group: 1,
        validator: Validator::Code(crate::finders::assign::plausible_password),
        confidence: 0.9,
        gate: Gate::Near { words: &["net use"], before: 0, after: 260 },
        examples: &["net use \\\\fs01\\share /user:CORP\\svc_backup ⟦P@ssw0rd!24⟧", "NET USE Z: \\\\srv01\\data /u:admin ⟦Adm1n#2024⟧ /persistent:no"],
        negatives: &["net use \\\\fs01\\share /user:CORP\\svc_backup *", "net use Z: /delete"],
        ..BASE
    },
    BuiltinRule {
        id: "secret.cli_password.htpasswd.v1",
        category: "PASSWORD",
        // `htpasswd -b [-c] FILE USER PASSWORD` (batch mode takes the password as an argument).
        pattern: r"(?-u)\bhtpasswd(?:[ \t]+-[a-zA-Z]+)*[ \t]+-[a-zA-Z]*b[a-zA-Z]*(?:[ \t]+-[a-zA-Z]+)*[ \t]+\S+[ \t]+\S+[ \t]+([^\s'\x22]+)",
        group: 1,
        validator: Validator::Code(crate::finders::assign::plausible_password),
        confidence: 0.9,
        gate: Gate::Near { words: &["htpasswd"], before: 0, after: 200 },
        examples: &["htpasswd -b -c .htpasswd admin ⟦Orange-1297_⟧", "htpasswd -bB /etc/nginx/users alice ⟦s3cr3t-Tr41l⟧"],
        negatives: &["htpasswd -c .htpasswd admin", "htpasswd -b file user $PASS"],
        ..BASE
    },
    BuiltinRule {
        id: "secret.cli_password.securestring.v1",
        category: "PASSWORD",
        // PowerShell: `ConvertTo-SecureString "…" -AsPlainText`.
        pattern: r#"(?i-u)\bconvertto-securestring[ \t]+(?:-string[ \t]+)?["']([^"'\n]{4,})["']"#,
        group: 1,
        validator: Validator::Code(crate::finders::assign::plausible_password),
        confidence: 0.9,
        gate: Gate::Near { words: &["convertto"], before: 0, after: 200 },
        examples: &["$pw = ConvertTo-SecureString \"⟦dK_F8CZ75FKs⟧\" -AsPlainText -Force"],
        negatives: &["ConvertTo-SecureString $plain -AsPlainText -Force", "ConvertTo-SecureString \"$env:PW\" -AsPlainText"],
        ..BASE
    },
    BuiltinRule {
        id: "secret.cli_password.flag.v1",
        category: "PASSWORD",
        // A password given as the next argument of a flag: `redis-server --requirepass …`,
        // `["--requirepass", "…"]`, `sshpass -p …`, `--password …`, `--db-password …`.
        pattern: r#"(?i-u)(?:--(?:requirepass|masterauth|password|passwd|db-password|admin-password|root-password)|\bsshpass[ \t]+-p)["']?(?:[ \t]+|[ \t]*,[ \t]*)["']?([^\s"',\]\)$<{-][^\s"',\]\)]{3,})"#,
        group: 1,
        validator: Validator::Code(crate::finders::assign::plausible_password),
        confidence: 0.88,
        // `--db-password`: "password" begins a word after the `-`, 16 bytes back covers
        // the flag's start; ordinary words ("root", "db") would open windows everywhere.
        gate: Gate::Near { words: &["requirepass", "masterauth", "password", "passwd", "sshpass"], before: 16, after: 120 },
        // Every match has its keyword in a flag: a `password` elsewhere (`db_password =`,
        // `password_min_length:`) opens no window.
        keep: Keep::Flag,
        examples: &[
            "command: [\"redis-server\", \"--requirepass\", \"⟦Sunset_maple.27⟧\"]",
            "redis-server --requirepass ⟦Harbor-copper_52⟧",
            "sshpass -p '⟦Tr0ub4dor-3x⟧' ssh deploy@host",
            "psql-wrapper --password ⟦Kq7vR2xm-11⟧ --host db",
        ],
        negatives: &["--password $DB_PASSWORD", "--password-file /run/secrets/db", "--password ${PW}"],
        ..BASE
    },
    BuiltinRule {
        id: "secret.netrc_password.v1",
        category: "PASSWORD",
        // `.netrc`: `machine HOST login USER password PASS`, on one line or several.
        pattern: r"(?-u)\bmachine[ \t]+\S+\s+login[ \t]+\S+\s+password[ \t]+(\S+)",
        group: 1,
        validator: Validator::Code(crate::finders::assign::plausible_password),
        confidence: 0.9,
        gate: Gate::Near { words: &["machine"], before: 0, after: 256 },
        examples: &[
            "machine api.example.com login alice password ⟦t0p-S3cret-77⟧",
            "machine git.example.org\n  login build-bot\n  password ⟦Hq2xV9-mm41⟧\n",
        ],
        negatives: &["the machine login password prompt", "machine api.example.com\n  login YOUR_USERNAME\n  password YOUR_PASSWORD\n"],
        ..BASE
    },
    BuiltinRule {
        id: "secret.pgpass_password.v1",
        category: "PASSWORD",
        // `~/.pgpass`: `hostname:port:database:username:password`, each field `*` or a
        // value; the password is the rest of the line. (The scan reads the view, in which
        // an escaped `\:` is a `:`: the password may hold colons.) The host is `*` or holds
        // a letter or a dot, as no MAC address or time of day does.
        pattern: r"(?m-u)^[ \t]*(?:\*|[A-Za-z0-9_\[\]-]*[A-Za-z.][A-Za-z0-9_.\[\]-]*):(?:\d{1,5}|\*):[^:\s]+:[^:\s]+:(\S+)[ \t]*\r?$",
        group: 1,
        validator: Validator::Code(pgpass_password),
        confidence: 0.9,
        gate: Gate::Windows(PGPASS_WINDOWS),
        examples: &[
            "db.internal.example:5432:orders:app_user:⟦Vx9#kLm2pQ7z⟧",
            "cat ~/.pgpass\n*:*:*:postgres:⟦Tr0ub4dor&3x⟧\nlocalhost:5433:analytics:etl:⟦pa\\:ss-w0rd⟧\n",
        ],
        negatives: &[
            "2024-05-01 10:00:00:123 INFO started",
            "00:11:22:33:44:55",
            "12:30:45:10:2024:rest-of-it",
            "db:5432:orders:app_user:${PGPASSWORD}",
            "host:5432:db:user",
        ],
        ..BASE
    },
    BuiltinRule {
        id: "secret.pgpass_quoted.v1",
        category: "PASSWORD",
        // A `.pgpass` record in quotes, as a script writes one (`echo 'h:5432:db:u:pw' >>
        // ~/.pgpass`, `RUN echo "*:*:*:app:pw" > /root/.pgpass`): the fifth field, up to
        // the closing quote.
        pattern: r"(?-u)['\x22](?:\*|[A-Za-z0-9_\[\]-]*[A-Za-z.][A-Za-z0-9_.\[\]-]*):(?:\d{1,5}|\*):[^:\s'\x22]+:[^:\s'\x22]+:([^\s'\x22]+)['\x22]",
        group: 1,
        validator: Validator::Code(pgpass_password),
        confidence: 0.9,
        gate: Gate::Windows(PGPASS_WINDOWS),
        examples: &[
            "$ echo 'analytics.internal.example:6432:warehouse:etl:⟦Qm4-vT9xL2pw⟧' >> ~/.pgpass",
            "RUN echo \"*:*:*:app:⟦s7Rk+2vXq9Lm⟧\" > /root/.pgpass && chmod 600 /root/.pgpass",
        ],
        negatives: &["echo '12:30:45:10:2024' >> times.txt", "echo \"$PGHOST:$PGPORT:$PGDATABASE:$PGUSER:$PGPASSWORD\" > ~/.pgpass"],
        ..BASE
    },
    BuiltinRule {
        id: "secret.kubernetes_secret.v1",
        category: "SECRET",
        // Every value under `data:` / `stringData:` of a `kind: Secret` manifest, whatever
        // its key is called (`config.json`, `tls.key`): base64 of a secret is a secret.
        pattern: "",
        confidence: 0.85,
        gate: Gate::Word(&[b"Secret"]),
        finder: Some(crate::finders::assign::find_kubernetes_secret),
        examples: &[
            "apiVersion: v1\nkind: Secret\nmetadata:\n  name: app\ntype: Opaque\ndata:\n  config.json: ⟦eyJ1cmwiOiJodHRwczovL3gifQ==⟧\n  tls.key: ⟦LS0tLS1CRUdJTiBQUklWQVRFIEtFWS0tLS0t⟧\n",
            "kind: Secret\nstringData:\n  username: ⟦svc-reporting⟧\n",
        ],
        negatives: &["kind: ConfigMap\ndata:\n  config.json: eyJ1cmwiOiJodHRwczovL3gifQ==\n", "kind: Secret\ndata: {}\n"],
        ..BASE
    },
    BuiltinRule {
        id: "secret.password_assignment.v1",
        category: "PASSWORD",
        // Hand-written (`assign.rs`): the value of a password-like name in any syntax
        // (`DB_PASSWORD=…`, `"password": "…"`, `<password>…</password>`, `dbPassword := "…"`).
        pattern: "",
        confidence: 0.85,
        finder: Some(crate::finders::assign::find_password),
        gate: Gate::Windows(crate::finders::assign::WINDOWS),
        examples: &[
            "DB_PASSWORD=⟦Tr0ub4dor&3⟧",
            "spring.datasource.password=⟦Vx7#qL2mP9⟧",
            "<password>⟦Vx7#qL2mP9⟧</password>",
            "String dbPassword = \"⟦Vx7#qL2mP9⟧\";",
            "mysql:\n  root_password: ⟦k8s-Root-2291⟧\n",
        ],
        negatives: &["password_length: 16", "DB_PASSWORD=${DB_PASSWORD}", "password = getpass", "Password: ********"],
        ..BASE
    },
    BuiltinRule {
        // `my password is Summer2024!`, `Mein Passwort lautet …`: a password said in
        // prose, in the languages of the gateway's users. A copula (or `changed to`)
        // after the word, up to four words between; the value is one token that is no
        // word (`assign::prose_password`). Colons and `=` are the assignment reader's.
        id: "secret.password_prose.v1",
        category: "PASSWORD",
        pattern: concat!(
            r#"(?i-u)(?:\b(?:password|passwd|passphrase|passcode|passwort|kennwort|contraseña|contrasena|senha|"#,
            r#"wachtwoord|mot[ \t]+de[ \t]+passe|hasło|haslo|parola|lösenord|losenord|sifre)\w{0,3}"#,
            r#"(?:[ \t]+[^\s=:]{1,24}){0,4}?[ \t]+"#,
            r#"(?:(?:(?:is|was|has[ \t]+been)[ \t]+)?(?:changed|set|reset|updated)[ \t]+to|is|was|ist|lautet|war|est|es|era|é|è|är|jest)"#,
            r#"|\bsalasana\w{0,3}(?:[ \t]+[^\s=:]{1,24}){0,3}?[ \t]+on"#,
            // `the wifi key is …`, `WPA2 key was changed to …`.
            r#"|\b(?:wi-?fi|wlan|wpa2?|wpa3)[ \t]+(?:key|passkey|pass)[ \t]+(?:(?:(?:is|was|has[ \t]+been)[ \t]+)?(?:changed|set|reset|updated)[ \t]+to|is|was))"#,
            // The value, without a sentence's `.`, `,`, `;` or `:` after it.
            r#"[ \t]*:?[ \t]+["'`]?((?-i)[^\s"'`]{5,63}[^\s"'`.,;:])"#
        ),
        group: 1,
        validator: Validator::Code(crate::finders::assign::prose_password),
        confidence: 0.8,
        gate: Gate::Near {
            words: &[
                "password",
                "passwords",
                "passwd",
                "passphrase",
                "passcode",
                "passwort",
                "kennwort",
                "contraseña",
                "contrasena",
                "senha",
                "wachtwoord",
                "mot",
                "hasło",
                "haslo",
                "parola",
                "lösenord",
                "losenord",
                "sifre",
                "salasana",
                "salasanani",
                "wifi",
                "wi-fi",
                "wlan",
                "wpa",
                "wpa2",
                "wpa3",
            ],
            before: 0,
            after: 160,
        },
        keep: Keep::Sentence,
        examples: &[
            "my password is ⟦Summer2024!⟧",
            "The password for the VPN is ⟦Xk9$mPq2⟧.",
            "Mein Passwort lautet ⟦Sommer2024!⟧",
            "Das Kennwort ist: ⟦Xy7#abc12⟧",
            "Mon mot de passe est ⟦Soleil#2024⟧, merci",
            "mi contraseña es ⟦Verano2024⟧",
            "minha senha é ⟦Praia2024!⟧",
            "het wachtwoord is ⟦Fiets2024!⟧",
            "moje hasło jest ⟦Lato2024!⟧",
            "la password è ⟦Estate2024!⟧",
            "mitt lösenord är ⟦Sommar2024!⟧",
            "salasanani on ⟦Kesa2024!⟧",
            "the admin password was changed to ⟦Qw7#rtY9⟧ yesterday",
            "wifi password is '⟦hunter22⟧'",
            "the door passcode is ⟦482913⟧",
            "the wifi key is ⟦Gr33nTea!42⟧",
            "WPA2 key was changed to ⟦Bl4ckCoffee#7⟧",
        ],
        negatives: &[
            "the password is required",
            "Password is incorrect!",
            "the password is case-sensitive",
            "your password is ********",
            "password is ${DB_PASSWORD}",
            "the password reset link is https://example.com/reset?t=abc123",
            "the password is at least 12 characters",
            "Passwort ist abgelaufen",
            "the password is the same as before",
            "password was changed on 12/05/2024",
            "passwords are stored as bcrypt hashes",
        ],
        severity: Severity::High,
        ..BASE
    },
    BuiltinRule {
        // `パスワードはSakura2024!です`, `密码是Abc12345`, `비밀번호는 Seoul2024!입니다`: the
        // word, its topic or copula particle, then an ASCII token (the sentence goes on
        // in the script right after it).
        id: "secret.password_prose.cjk.v1",
        category: "PASSWORD",
        pattern: concat!(
            r#"(?-u)(?:パスワード|暗証番号|密码|密碼|口令|비밀번호|암호)(?:は|が|是|为|為|는|은|:|：|[ \t])+"#,
            r#"(?:["'`]|「)?([!#-&(-_a-~]{5,63}[!#-&(-+\-/-9<-_a-~])"#
        ),
        group: 1,
        validator: Validator::Code(crate::finders::assign::prose_password),
        confidence: 0.8,
        gate: Gate::Windows(PASSWORD_CJK_WINDOWS),
        examples: &["パスワードは⟦Sakura2024!⟧です", "我的密码是⟦Abc12345⟧。", "비밀번호는 ⟦Seoul2024!⟧입니다"],
        negatives: &["パスワードは必須です", "密码是必填项", "비밀번호는 8자 이상"],
        severity: Severity::High,
        ..BASE
    },
    BuiltinRule {
        id: "secret.bearer_token.v1",
        category: "BEARER_TOKEN",
        pattern: r#"(?-u)\b[Bb]earer\s+([A-Za-z0-9._~+/-]{20,}=*)"#,
        group: 1,
        // `bearer` goes on with a space, which the start index reads as the end
        // of the word: it is found like a keyword (see `detect/engine/starts.rs`).
        gate: Gate::Prefix(&[b"Bearer", b"bearer ", b"bearer\t", b"bearer\n", b"bearer\x0b", b"bearer\x0c", b"bearer\r"]),
        examples: &[r##"Authorization: Bearer ⟦Q4UGkqiwD1vKsfHZppkFY2Q7be6T37wC⟧ end"##],
        negatives: &[r##"Authorization: Bearer <token>"##, r##"the bearer of this letter"##],
        ..BASE
    },
    BuiltinRule {
        id: "pii.iban.v1",
        category: "IBAN",
        pattern: r#"(?-u)\b[A-Z]{2} ?\d{2} ?(?:[A-Z0-9]{4} ?){2,7}[A-Z0-9]{1,4}\b"#,
        validator: Validator::Iban,
        confidence: 0.95,
        gate: Gate::AfterCountryCode { span: 48 },
        context: Some(&IBAN_CONTEXT),
        any_case: &["iban"],
        examples: &[
            "iban: ⟦de89 3704 0044 0532 0130 00⟧",
            "my iban is ⟦gb82west12345698765432⟧","IBAN ⟦DE89 3704 0044 0532 0130 00⟧", "Nr rachunku: ⟦PL 61 1090 1014 0000 0712 1981 2874⟧"],
        negatives: &["ref de89 3704 0044 0532 0130 00 in the log", "iban: de89 3704 0044 0532 0130 01", ],
        ..BASE
    },
    BuiltinRule {
        id: "net.mac_address.v1",
        category: "MAC_ADDRESS",
        pattern: r#"(?-u)\b(?:[0-9A-Fa-f]{2}(?:[:-][0-9A-Fa-f]{2}){5}|[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4})\b"#,
        validator: Validator::Mac,
        confidence: 0.8,
        gate: Gate::Test(mac_like),
        severity: Severity::Low,
        context: Some(&MAC_CONTEXT),
        examples: &["mac ⟦3c:22:fb:1a:9e:07⟧", "Cisco: ⟦0012.3456.789A⟧ on Gi0/1", "hwaddr ⟦3C-22-FB-1A-9E-07⟧"],
        negatives: &["release 2024.1105.1200", "00:00:00:00:00:00"],
        ..BASE
    },
    BuiltinRule {
        id: "net.private_ipv4.v1",
        category: "PRIVATE_IP",
        // Matched by `find_private_ipv4`, exactly as this pattern (a test compares them).
        pattern: concat!(r"(?-u)\b", private_ipv4!(), r"\b"),
        validator: Validator::Ipv4,
        gate: Gate::NumericRun {
            min_digits: 4,
            min_dashes: 0,
            min_dots: 3,
            plus: false,
        },
        severity: Severity::Low,
        context: Some(&PRIVATE_IP_CONTEXT),
        finder: Some(find_private_ipv4),
        examples: &[r##"host ⟦10.41.7.23⟧ down"##, r##"gw ⟦192.168.44.1⟧"##],
        negatives: &[r##"version 10.2.3 released"##, r##"10.0.0.300 is not an address"##],
        ..BASE
    },
    BuiltinRule {
        id: "net.internal_url.v1",
        category: "INTERNAL_URL",
        // Built from PRIVATE_IPV4, the internal host suffixes and the policy's domains.
        pattern: "",
        clean_right: true,
        // Around each `://`, to the next space: a URL's scheme is 5 bytes at most and no
        // match crosses a space, so the windows hold every match a search of the whole
        // text would find.
        gate: Gate::Windows(SCHEME_WINDOWS),
        severity: Severity::Low,
        domains: Some(Domains { pattern: internal_url_pattern, keywords: &[] }),
        examples: &[
            "see ⟦http://wiki.corp/runbook⟧ first",
            "BASE_URL = \"⟦https://grafana.intra:8443/app/discover#/⟧\"",
            "fetch(\"⟦https://mq.corp.example.com:8080/browse/OPS-1⟧\")",
            "UPSTREAM_URL: \"⟦http://confluence.int.example.net/api/v1/health⟧\"",
        ],
        negatives: &["https://www.example.com/docs", "https://int.example.com.evil/x"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.itin.v1",
        category: "ITIN",
        // IRS ITIN: 9XX-GG-XXXX with group 50–65, 70–88, 90–92 or 94–99.
        pattern: r"(?-u)\b9\d{2}-(?:5\d|6[0-5]|7\d|8[0-8]|9[0-24-9])-\d{4}\b",
        confidence: 0.9,
        gate: Gate::NumericRun {
            min_digits: 9,
            min_dashes: 2,
            min_dots: 0,
            plus: false,
        },
        context: Some(&ITIN_CONTEXT),
        finder: Some(find_itin),
        examples: &[r##"itin ⟦927-81-4406⟧ filed"##],
        negatives: &[r##"itin 927-93-4406 is not issued"##, r##"form 927-81 is new"##],
        ..BASE
    },
    BuiltinRule {
        id: "pii.passport.v1",
        category: "PASSPORT",
        pattern: r"(?i-u)passport[^\n\d]{0,28}?\b((?-i:[A-Z]{0,2}\d[A-Z0-9]{5,8}))\b",
        group: 1,
        validator: Validator::DocumentNumber,
        confidence: 0.85,
        gate: Gate::Near {
            words: &["passport"],
            before: 0,
            after: 48,
        },
        examples: &[r##"Passport number: ⟦K48273915⟧, issued 2019"##, r##"her passport no. ⟦C07162534⟧ expires soon"##],
        negatives: &[r##"passport office opens at 9"##, r##"passport photos: 2 copies"##],
        ..BASE
    },
    BuiltinRule {
        // A hospital's medical record number (`MRN 00234567`, `Medical record number:
        // 4829130`, `patient ID MR4829130`): six to ten digits, up to three capitals
        // before them, after the words that name it (HIPAA's identifiers list it).
        id: "pii.health_id.mrn.v1",
        category: "HEALTH_ID",
        pattern: concat!(
            r"(?i-u)\b(?:mrn|medical[ \t]+record(?:[ \t]+(?:number|no\.?|#))?|patient[ \t]+(?:id|number|no\.?|#))",
            r"[^\n\d]{0,16}?\b((?-i:[A-Z]{0,3})\d{6,10})\b"
        ),
        group: 1,
        confidence: 0.8,
        gate: Gate::Near { words: &["mrn", "medical", "patient"], before: 0, after: 64 },
        severity: Severity::High,
        examples: &[
            "Patient John Smith, MRN ⟦00234567⟧, diagnosed with type 2 diabetes",
            "Medical record number: ⟦4829130⟧",
            "patient ID ⟦MR4829130⟧ was discharged",
        ],
        negatives: &["MRN pending", "patient 12 in room 4", "medical record 2024 review", "patient ID: unknown"],
        ..BASE
    },
    BuiltinRule {
        // `ssn 123456789`, `social security number 123 45 6789`: without the dashes a
        // nine-digit run is anything, so only after the words that name it.
        id: "pii.ssn.context.v1",
        category: "SSN",
        // `my social is …`, `social: …`: the word alone only before `is`, `number`,
        // `no`, `#` or `:`.
        pattern: r"(?i-u)(?:\bssn|social(?:[ \t]+security|[ \t]+(?:is|number|no\.?)\b|[ \t]*[:#]))[^\n\d]{0,32}?\b(\d{3}[ .]?\d{2}[ .]?\d{4})\b",
        group: 1,
        validator: Validator::Ssn,
        confidence: 0.85,
        gate: Gate::Near {
            words: &["ssn", "ssns", "social"],
            before: 0,
            after: 64,
        },
        examples: &[
            "SSN: ⟦123456789⟧",
            "social security number ⟦123 45 6789⟧",
            "ssn ⟦123.45.6789⟧ on file",
            "my social is ⟦512 83 4097⟧",
        ],
        negatives: &["ssn 000456789", "social security office, room 123456789000", "social media reach 512 83 4097"],
        ..BASE
    },
    BuiltinRule {
        // `ITIN 912 78 1234`, `itin: 912781234`: the IRS groups, written without dashes.
        id: "pii.itin.context.v1",
        category: "ITIN",
        pattern: r"(?i-u)\b(?:itin|individual[ \t]+taxpayer)[^\n\d]{0,40}?\b(9\d{2}[ .-]?\d{2}[ .-]?\d{4})\b",
        group: 1,
        validator: Validator::Code(crate::validate::itin),
        confidence: 0.85,
        gate: Gate::Near {
            words: &["itin", "individual"],
            before: 0,
            after: 72,
        },
        examples: &["ITIN ⟦912 78 1234⟧", "my itin is ⟦912781234⟧", "Individual Taxpayer Identification Number: ⟦912.94.1234⟧"],
        negatives: &["ITIN 912 43 1234", "itin 812781234"],
        ..BASE
    },
    BuiltinRule {
        // Maestro cards can have 12 digits; a 12-digit run is anything, so only near a card word.
        id: "pii.credit_card.maestro12.v1",
        category: "CREDIT_CARD",
        pattern: r"(?-u)\b\d{4}[ -]?\d{4}[ -]?\d{4}\b",
        validator: Validator::Code(crate::validate::maestro12),
        confidence: 0.85,
        gate: Gate::Near {
            words: &["maestro", "card", "karte", "carte", "tarjeta", "carta", "cartao", "kaart", "kort", "karta", "kart"],
            before: 0,
            after: 48,
        },
        examples: &["Maestro card ⟦5018 0000 0009⟧ expires 08/27", "Karte: ⟦501800000009⟧"],
        negatives: &["card 5018 0000 0008", "order 501800000009 shipped"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.drivers_license.v1",
        category: "DRIVERS_LICENSE",
        pattern: r"(?i-u)(?:driver'?s?\s+licen[cs]e|driving\s+licen[cs]e|\bDL)[^\n\d]{0,24}?\b((?-i:[A-Z]{1,2}\d{5,12}|\d{7,12}|\d{3} \d{3} \d{3}|[A-Z]\d{3}-\d{4}-\d{4}(?:-\d{1,3})?|[A-Z]{5}\d{6}[A-Z0-9]{5}))\b",
        group: 1,
        validator: Validator::DocumentNumber,
        confidence: 0.85,
        gate: Gate::Near {
            words: &["driver", "drivers", "driving", "dl"],
            before: 0,
            after: 56,
        },
        // New York prints its nine digits in threes.
        examples: &["NY DL# ⟦482 917 365⟧", "Driver's License #: ⟦482917365⟧"],
        negatives: &[r##"the driver crashed at build 7"##, r##"driving licence renewal form"##],
        ..BASE
    },
    BuiltinRule {
        id: "pii.date_of_birth.v1",
        category: "DATE_OF_BIRTH",
        // After a birth word in ten languages; numeric dates, and month names in those
        // languages (`14 March 1985`, `14. März 1985`, `14 de marzo de 1985`, `né le 3 août 1990`).
        pattern: r"(?i-u)(?:born|dob|d\.o\.b|birth|birthday|birthdate|geboren|geb|geburtsdatum|geburtstag|naissance|n\xC3\xA9e?|nacimiento|nacid[oa]|nascita|nato|nata|nascimento|nasceu|nasci|geboortedatum|urodzon[ya]|urodzenia|f\xC3\xB6dd|f\xC3\xB6delsedatum|do\xC4\x9Fum|do\xC4\x9Fdu)[^\n\d]{0,28}?\b(\d{4}-\d{2}-\d{2}|\d{4}/\d{1,2}/\d{1,2}|\d{1,2}[/.-]\d{1,2}[/.-](?:\d{4}|\d{2})|[a-z][a-z\x80-\xFF]{2,11}\.? \d{1,2}(?:st|nd|rd|th)?,? \d{4}|\d{1,2}(?:st|nd|rd|th|\.)?(?: of| de)? [a-z\x80-\xFF]{3,12}\.?,?(?: de)? \d{4})\b",
        group: 1,
        validator: Validator::Date,
        confidence: 0.85,
        gate: Gate::Near {
            words: &[
                "born", "dob", "d.o.b", "birth", "birthday", "birthdate", "geboren", "geb", "geburtsdatum", "geburtstag",
                "naissance", "né", "née", "nacimiento", "nacido", "nacida", "nascita", "nato", "nata", "nascimento",
                "nasceu", "nasci", "geboortedatum", "urodzony", "urodzona", "urodzenia", "född", "födelsedatum", "doğum",
                "doğdu",
            ],
            before: 0,
            after: 64,
        },
        examples: &[
            "DOB: ⟦03/14/1985⟧",
            "Geburtsdatum: ⟦14.03.1985⟧",
            "geb. ⟦14. März 1985⟧ in Köln",
            "née le ⟦3 août 1990⟧ à Lyon",
            "Fecha de nacimiento: ⟦14 de marzo de 1985⟧",
            "data di nascita ⟦14 marzo 1985⟧",
            "data de nascimento: ⟦14/03/1985⟧",
            "geboortedatum ⟦14-03-1985⟧",
            "data urodzenia: ⟦14 marca 1985⟧",
            "född ⟦1985-03-14⟧",
            "Doğum tarihi: ⟦14 Mart 1985⟧",
            "born on ⟦March 14, 1985⟧",
        ],
        negatives: &["born in 1985", "Geburtsdatum: 31.02.1985", "birth of the project, release 2.3.4.5"],
        severity: Severity::Medium,
        ..BASE
    },
    BuiltinRule {
        // `生年月日：1980年10月24日`, `出生日期: 1985-03-14`, `생년월일 1985.03.14`.
        id: "pii.date_of_birth.cjk.v1",
        category: "DATE_OF_BIRTH",
        pattern: r"(?-u)(\d{4}(?:\xE5\xB9\xB4|\xEB\x85\x84 ?)\d{1,2}(?:\xE6\x9C\x88|\xEC\x9B\x94 ?)\d{1,2}(?:\xE6\x97\xA5|\xEC\x9D\xBC)?|\d{4}[-/.]\d{1,2}[-/.]\d{1,2})",
        group: 1,
        validator: Validator::Date,
        confidence: 0.85,
        gate: Gate::Windows(CJK_BIRTH_WINDOWS),
        severity: Severity::Medium,
        examples: &["生年月日：⟦1980年10月24日⟧", "出生日期: ⟦1985-03-14⟧", "생년월일 ⟦1985년 3월 14일⟧"],
        negatives: &["生年月日：1980年13月40日", "日付 2024年5月6日"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.address.us.v1",
        category: "ADDRESS",
        // "1600 Pennsylvania Avenue NW, Washington, DC 20500": number, 1–4 capitalised
        // words, a street suffix, optional unit, optional city, state and ZIP.
        pattern: r"(?-u)\b\d{1,6}[A-Z]? (?:(?:[NSEW]\.? )?(?:[A-Z][a-z]+|\d{1,3}(?:st|nd|rd|th)) ){1,4}(?:Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Court|Ct|Way|Place|Pl|Terrace|Ter|Parkway|Pkwy|Circle|Cir|Highway|Hwy|Square|Sq|Trail|Trl)\.?(?: (?:NW|NE|SW|SE|N|S|E|W)\b)?(?:,? (?:Apt|Apartment|Suite|Ste|Unit|#) ?#?[A-Z0-9-]{1,6})?(?:, (?:[A-Z][a-z]+ ){0,2}[A-Z][a-z]+,? [A-Z]{2}\b(?: \d{5}(?:-\d{4})?\b)?)?",
        // A year is no house number ("in 2019 Oxford Street was busy"); the
        // international finder reads such a number with its context.
        validator: Validator::Code(not_a_year),
        confidence: 0.8,
        gate: Gate::Near {
            words: &[
                "street",
                "st",
                "avenue",
                "ave",
                "road",
                "rd",
                "boulevard",
                "blvd",
                "lane",
                "ln",
                "drive",
                "dr",
                "court",
                "ct",
                "way",
                "place",
                "pl",
                "terrace",
                "ter",
                "parkway",
                "pkwy",
                "circle",
                "cir",
                "highway",
                "hwy",
                "square",
                "sq",
                "trail",
                "trl",
            ],
            before: 72,
            after: 80,
        },
        examples: &[
            "Ship to ⟦1600 Pennsylvania Avenue NW, Washington, DC 20500⟧ please",
            "lives at ⟦42 Oak Street⟧ today",
        ],
        negatives: &["In 2019 Oxford Street was busier than ever.", "We walked down Baker Street."],
        severity: Severity::Medium,
        ..BASE
    },
    BuiltinRule {
        id: "pii.address.intl.v1",
        category: "ADDRESS",
        // Hand-written (`address.rs`): a street and its house number in the grammars of
        // twelve locales, with units, postcode, city, state and country as one span.
        pattern: "",
        confidence: 0.8,
        finder: Some(crate::finders::address::find),
        gate: Gate::Windows(crate::finders::address::WINDOWS),
        examples: &[
            "Lieferadresse: ⟦Hauptstraße 5, 10115 Berlin⟧",
            "Envoyez-le au ⟦12 rue de la Paix, 75002 Paris⟧.",
            "Dirección: ⟦Calle Mayor 12, 3º B, 28013 Madrid⟧",
            "Indirizzo: ⟦Via Roma 10, 00184 Roma⟧",
            "Adres: ⟦Kerkstraat 330, 2596 AT Den Haag⟧",
            "Endereço: ⟦Rua Augusta, 982, apto 105, São Paulo - SP, 01305-100⟧",
            "Adres dostawy: ⟦ul. Kwiatowa 39/3, 18-097 Gdańsk⟧",
            "Leveransadress: ⟦Kungsgatan 40, 111 35 Stockholm⟧",
            "Teslimat adresi: ⟦Moda Cad. No: 12 D: 5, 34710 Kadıköy/İstanbul⟧",
            "Ship to: ⟦Flat 3, 14 Acacia Avenue, Leeds LS6 2AB⟧",
            "Address: ⟦House No. 45, MG Road, Bengaluru 560038⟧",
            "Ship to ⟦123 Main Street, Toronto, ON M5V 2T6⟧ by Friday.",
            "Mailing address: ⟦45 Queen St W, Ottawa ON K1A 0A6⟧",
            "Bitte schicken Sie es an ⟦Lindenweg 3 in 04109 Leipzig⟧.",
        ],
        negatives: &[
            "Die Hauptstraße ist heute gesperrt.",
            "Bestellung 4711 vom 12. März, Rechnung 2024-118",
            "sent via Slack 2 days ago",
            "auf Platz 2 der Charts, Version 3.2.1",
            "Route 66 and Windows 11",
            "Preis: 25,50 € bei Amazon",
        ],
        severity: Severity::Medium,
        ..BASE
    },
    BuiltinRule {
        id: "pii.address.cjk.v1",
        category: "ADDRESS",
        // Hand-written (`address.rs`): a Chinese or Japanese house number (`5号`, `13番`)
        // after two administrative units (`市`, `区`, `都`, …).
        pattern: "",
        confidence: 0.8,
        finder: Some(crate::finders::address::find_cjk),
        gate: Gate::Windows(crate::finders::address::CJK_WINDOWS),
        examples: &["地址：⟦北京市朝阳区望京街道5号院2号楼⟧。", "住所：⟦東京都世田谷区桜丘3丁目13番12号⟧。"],
        negatives: &["身份证号码：110105195702231125", "パスポート番号はYS9250599です", "第3号议案", "2024年5月6日"],
        severity: Severity::Medium,
        ..BASE
    },
    BuiltinRule {
        id: "net.ipv4.v1",
        category: "IP_ADDRESS",
        pattern: r"(?-u)\b\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\b",
        clean_right: true,
        validator: Validator::PublicIpv4,
        confidence: 0.75,
        gate: Gate::NumericRun {
            min_digits: 4,
            min_dashes: 0,
            min_dots: 3,
            plus: false,
        },
        severity: Severity::Low,
        context: Some(&IP_CONTEXT),
        finder: Some(find_ipv4),
        examples: &[r##"public ⟦81.169.145.92⟧ resolver"##],
        negatives: &[r##"release 1.20.3.4 is out"##, r##"v1.2.3.4 tag"##],
        ..BASE
    },
    BuiltinRule {
        id: "net.ipv6.v1",
        category: "IP_ADDRESS",
        pattern: r"(?i-u)(?:[0-9a-f]{0,4}:){2,6}\d{1,3}(?:\.\d{1,3}){3}|(?:[0-9a-f]{1,4}:){1,7}(?:(?::[0-9a-f]{1,4}){1,7}|[0-9a-f]{1,4}|:)|::(?:[0-9a-f]{1,4}:){0,6}[0-9a-f]{1,4}",
        clean_left: true,
        clean_right: true,
        validator: Validator::PublicIpv6,
        confidence: 0.85,
        gate: Gate::Windows(IPV6_WINDOWS),
        severity: Severity::Low,
        examples: &[
            "server at ⟦2001:db8:85a3::8a2e:370:7334⟧ now",
            "addr ⟦2001:0DB8:0000:0000:0000:FF00:0042:8329⟧",
            "client ⟦::ffff:8.8.8.8⟧ connected",
            "peer ⟦2a00:1450:4001:81c::200e⟧",
        ],
        negatives: &["use std::io::Read;", "at 12:30:45 today", "ab::cd"],
        ..BASE
    },
    BuiltinRule {
        id: "net.private_ipv6.v1",
        category: "PRIVATE_IP",
        pattern: r"(?i-u)(?:[0-9a-f]{0,4}:){2,6}\d{1,3}(?:\.\d{1,3}){3}|(?:[0-9a-f]{1,4}:){1,7}(?:(?::[0-9a-f]{1,4}){1,7}|[0-9a-f]{1,4}|:)|::(?:[0-9a-f]{1,4}:){0,6}[0-9a-f]{1,4}",
        clean_left: true,
        clean_right: true,
        validator: Validator::PrivateIpv6,
        confidence: 0.85,
        gate: Gate::Windows(IPV6_WINDOWS),
        severity: Severity::Low,
        examples: &["bind ⟦::1⟧ only", "link ⟦fe80::1ff:fe23:4567:890a⟧", "mapped ⟦::ffff:10.1.2.3⟧"],
        negatives: &["Vec::new()", "fn a::b"],
        ..BASE
    },
    BuiltinRule {
        id: "pii.person.title.v1",
        category: "PERSON",
        pattern: concat!(
            r"(?-u)\b(?:Mr|Mrs|Ms|Miss|Mx|Dr|Prof|Sir|Dame|Herr|Frau|Mme|Mlle|Sr|Sra|Srta)\.? ",
            r"((?:[A-Z]|\xC3[\x80-\x9E])(?:[a-z]|[\xC3-\xC5][\x80-\xBF])+(?:[ '-](?:[A-Z]\.|(?:[A-Z]|\xC3[\x80-\x9E])(?:[a-z]|[\xC3-\xC5][\x80-\xBF])+|[A-Z]'[A-Z][a-z]+)){0,2})"
        ),
        group: 1,
        confidence: 0.85,
        gate: Gate::Near {
            words: &[
                "mr", "mrs", "ms", "miss", "mx", "dr", "prof", "sir", "dame", "herr", "frau",
                "mme", "mlle", "sr", "sra", "srta",
            ],
            before: 0,
            after: 64,
        },
        // The pattern's titles are capitalised; each match begins at one.
        keep: Keep::Capitalised,
        severity: Severity::Medium,
        finder: Some(find_titled_name),
        examples: &[r##"ask Dr. ⟦Amara Okonkwo⟧ about it"##, r##"a letter to Mrs. ⟦Ingrid Halvorsen⟧"##],
        negatives: &[r##"ask the Dr. about it"##, r##"Mr. and Mrs. are titles"##],
        ..BASE
    },
    BuiltinRule {
        id: "pii.person.labeled.v1",
        category: "PERSON",
        pattern: concat!(
            // A field label needs its `:` ("Customer: …", not "Customer Success Team");
            // a greeting, sign-off or introduction does not.
            r"(?-u)(?:(?i:full name|name|patient|employee|customer|client|contact|applicant|cardholder|account holder|signed by)\s*[:\-]\s*",
            r"|(?i:dear|regards|sincerely|cheers)\s*,?\s+|(?i:my name is|i am|i'm|this is)\s+)",
            r"((?:[A-Z]|\xC3[\x80-\x9E])(?:[a-z]|[\xC3-\xC5][\x80-\xBF])+(?:[ '-](?:[A-Z]\.|(?:[A-Z]|\xC3[\x80-\x9E])(?:[a-z]|[\xC3-\xC5][\x80-\xBF])+|[A-Z]'[A-Z][a-z]+)){1,2})"
        ),
        group: 1,
        confidence: 0.8,
        gate: Gate::Near { words: &LABEL_WORDS, before: 0, after: 64 },
        severity: Severity::Medium,
        finder: Some(find_labelled_name),
        examples: &[r##"Name: ⟦Lindqvist Tamm⟧"##, r##"Full name: ⟦Tomasz Wierzbicki⟧"##],
        negatives: &[r##"Name: required field"##, r##"name: string"##],
        ..BASE
    },
    BuiltinRule {
        id: "pii.person.dictionary.v1",
        category: "PERSON",
        // Runs of capitalised words judged by the name table (`data/names/`, plus
        // `detectors.given_names` / `detectors.surnames`) and by the phrases of ten
        // languages that introduce a person (`person.rs`, `names.rs`).
        confidence: 0.75,
        gate: Gate::PersonNames,
        severity: Severity::Medium,
        examples: &[
            "Ich habe gestern mit ⟦Jürgen Mueller⟧ telefoniert",
            "Ik heet ⟦Joost de Vries⟧ en werk hier",
            "rozmawiałem z ⟦Tomaszem Nowakiem⟧ o tym",
            "my name is ⟦Dan⟧ and",
            "gebeld door ⟦Jan Vanderlaan⟧ gisteren",
            "scored by ⟦Virgil van Dijk⟧",
        ],
        negatives: &[
            "Will it rain? Mark the date.",
            "Take Baker Street to Park Lane",
            "Rue Victor Hugo",
            "Het kantoor ligt aan De Coolsingel in Rotterdam.",
            "We zitten aan De Keizersgracht.",
        ],
        ..BASE
    },
    BuiltinRule {
        id: "pii.person.cjk.v1",
        category: "PERSON",
        // Hand-written (`cjkname.rs`): Chinese, Japanese and Korean names after a
        // field label (`姓名：`, `氏名：`, `이름:`) or in a self-introduction (`我是`,
        // `です`, `입니다`), beginning with a common family name of the language.
        pattern: "",
        confidence: 0.8,
        finder: Some(crate::finders::cjkname::find),
        gate: Gate::Windows(crate::finders::cjkname::WINDOWS),
        examples: &[
            "姓名：⟦张伟⟧\n电话",
            "您好，我是⟦陈静⟧，想咨询一下。",
            "お世話になっております。⟦田中 さくら⟧です。",
            "안녕하세요, ⟦박지훈⟧입니다.",
        ],
        negatives: &["我是学生。", "姓名：请填写", "本日は晴天です。", "안녕하세요, 고객센터입니다.", "저는 선생님입니다"],
        severity: Severity::Medium,
        ..BASE
    },
    BuiltinRule {
        id: "secret.aws_secret_access_key.v1",
        category: "AWS_SECRET_KEY",
        // 40 base64 characters within a few words after "aws" / "secret".
        pattern: r"(?-u)[A-Za-z0-9/+]{40}",
        clean_left: true,
        clean_right: true,
        validator: Validator::Entropy,
        confidence: 0.9,
        gate: Gate::Near {
            words: &[
                "aws",
                "secret_access_key",
                "secretaccesskey",
                "aws_secret_access_key",
            ],
            before: 0,
            after: 96,
        },
        examples: &[r##"aws_secret_access_key = ⟦qd8dRoirss6B9jM0/rSCxQieY/EuyG4htlmeivyX⟧"##],
        negatives: &[r##"aws_secret_access_key = <your-secret-key>"##, r##"set aws_secret_access_key in the profile"##],
        ..BASE
    },
    BuiltinRule {
        id: "secret.github_fine_grained_token.v1",
        category: "GITHUB_TOKEN",
        pattern: r"(?-u)\bgithub_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59}\b",
        confidence: 0.99,
        gate: Gate::Prefix(&[b"github_pat_"]),
        examples: &[r##"t ⟦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⟧ x"##],
        negatives: &[r##"github_pat_ is the prefix of fine-grained tokens"##, r##"github_pat_XXXXXXXXXXXXXXXXXXXXXXXX"##],
        ..BASE
    },
    BuiltinRule {
        id: "secret.npm_token.v1",
        category: "NPM_TOKEN",
        pattern: r"(?-u)\bnpm_[A-Za-z0-9]{36}\b",
        confidence: 0.97,
        gate: Gate::Prefix(&[b"npm_"]),
        examples: &[r##"//registry.npmjs.org/:_authToken=⟦npm_6mlsmsn6dnjLrsY0CLn7LnEfaDOdL7mZAnIv⟧"##],
        negatives: &[r##"npm_token is unset"##, r##"run npm_config_cache=/tmp npm ci"##],
        ..BASE
    },
    BuiltinRule {
        id: "secret.pypi_token.v1",
        category: "PYPI_TOKEN",
        pattern: r"(?-u)\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}",
        confidence: 0.99,
        gate: Gate::Prefix(&[b"pypi-AgEIcHlwaS5vcmc"]),
        examples: &[r##"password = ⟦pypi-AgEIcHlwaS5vcmctI36rgxyF1DNAh9Bo2det4eEvtrZeEQqMuxgMdqb8O1tkehtF9nyhcOaw_gT4BVK⟧"##],
        negatives: &[r##"pypi-AgEIcHlwaS5vcmc is the prefix"##, r##"pip install from pypi-mirror"##],
        ..BASE
    },
    BuiltinRule {
        id: "secret.huggingface_token.v1",
        category: "HUGGINGFACE_TOKEN",
        pattern: r"(?-u)\bhf_[A-Za-z0-9]{34,40}\b",
        validator: Validator::Entropy,
        confidence: 0.95,
        gate: Gate::Prefix(&[b"hf_"]),
        examples: &[r##"HF_TOKEN=⟦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⟧"##],
        negatives: &[r##"hf_transfer is enabled"##, r##"hf_hub_download(repo_id)"##],
        ..BASE
    },
    BuiltinRule {
        id: "secret.sendgrid_key.v1",
        category: "SENDGRID_KEY",
        pattern: r"(?-u)\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}\b",
        confidence: 0.99,
        gate: Gate::Prefix(&[b"SG."]),
        examples: &[r##"SENDGRID_API_KEY=⟦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⟧"##],
        negatives: &[r##"SG.example.com is a host"##, r##"SG. is how keys begin"##],
        ..BASE
    },
    BuiltinRule {
        id: "secret.twilio_key.v1",
        category: "TWILIO_KEY",
        pattern: r"(?-u)\b(?:SK|AC)[0-9a-f]{32}\b",
        confidence: 0.9,
        gate: Gate::Prefix(&[b"SK", b"AC"]),
        examples: &[r##"sid ⟦SKddf06a1d3e33ad1a5dff3760fa459219⟧ x"##],
        negatives: &[r##"SKU 12345 in stock"##, r##"SK is the prefix of an API key sid"##],
        ..BASE
    },
    BuiltinRule {
        id: "secret.shopify_token.v1",
        category: "SHOPIFY_TOKEN",
        pattern: r"(?-u)\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b",
        confidence: 0.99,
        gate: Gate::Prefix(&[b"shpat_", b"shpca_", b"shppa_", b"shpss_"]),
        examples: &[r##"X-Shopify-Access-Token: ⟦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⟧"##],
        negatives: &[r##"shpat_ tokens are admin tokens"##, r##"shpat_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"##],
        ..BASE
    },
    BuiltinRule {
        id: "secret.azure_storage_connection.v1",
        category: "CONNECTION_STRING",
        pattern: r"(?-u)DefaultEndpointsProtocol=https?;AccountName=[A-Za-z0-9]{3,24};AccountKey=[A-Za-z0-9+/]{86}==(?:;[A-Za-z]+=[^;\s]+)*",
        confidence: 0.99,
        gate: Gate::Word(&[b"AccountKey="]),
        examples: &[r##"AZURE_STORAGE=⟦DefaultEndpointsProtocol=https;AccountName=acmeblobs;AccountKey=Ji83uEh8oCfbs3XW8ZQMRsyNi4AP1IvChFRX+Z/6BJWTrFeHwPCLmGneTiK+rGO01tm+RIO76C3Ik+OftqV7CM==;EndpointSuffix=core.windows.net⟧"##],
        negatives: &[r##"DefaultEndpointsProtocol=https;AccountName=acmeblobs;AccountKey=<key>"##, r##"UseDevelopmentStorage=true"##],
        ..BASE
    },
    BuiltinRule {
        id: "secret.high_entropy_assignment.v1",
        category: "SECRET",
        // Hand-written (`assign.rs`): a random-looking value, or a 32–64 digit hex key,
        // assigned to a secret-like name in any syntax (`SESSION_TOKEN=…`,
        // `signingKey: …`, `System.setProperty("X_TOKEN", "…")`, `$env:API_KEY = "…"`).
        pattern: "",
        confidence: 0.8,
        finder: Some(crate::finders::assign::find_secret),
        gate: Gate::Windows(crate::finders::assign::WINDOWS),
        examples: &[
            "SESSION_TOKEN=⟦Zx9vQ2mK7pL4rT8wY1nB6cF3hJ5dG0sA⟧",
            "const clientSecret = \"⟦Qm7_vT2xLp9RzK4wNc8sYb3H⟧\";",
            "System.setProperty(\"ACME_TOKEN\", \"⟦Zx9vQ2mK7pL4rT8wY1nB⟧\");",
            "ENCRYPTION_KEY=⟦9f86d081884c7d659a2feaa0c55ad015⟧",
            "<add key=\"AcmeApiKey\" value=\"⟦Zx9vQ2mK7pL4rT8wY1nB⟧\" />",
        ],
        negatives: &[
            "API_KEY=<your-api-key>",
            "api_key = var.api_key",
            "max_tokens: 4096",
            "commit: 3f9a1c0d2b4e6f8a0c1e3d5b7a9f2e4c6b8d0a1f",
            "token_url: https://auth.example.com/oauth/token",
        ],
        ..BASE
    },
    BuiltinRule {
        id: "net.internal_host.v1",
        category: "INTERNAL_HOST",
        // Built from the internal host suffixes and the policy's domains; a bare host
        // name (no scheme) such as `db01.prod.corp` or `build.acme-int.example`. It
        // runs near its suffixes and labels, which the policy's domains extend.
        clean_left: true,
        clean_right: true,
        confidence: 0.85,
        gate: Gate::InHostName(INTERNAL_SUFFIXES),
        domains: Some(Domains { pattern: internal_host_pattern, keywords: &[INTERNAL_LABELS] }),
        severity: Severity::Low,
        examples: &[
            "ssh ⟦db01.prod.corp⟧ now",
            "Server=⟦pg-primary.intra⟧;Database=crm",
            "mysql -h ⟦build.int.example.net⟧ -u root",
            "connection to server at \"⟦ldap.corp.example.com⟧\" failed",
        ],
        negatives: &["numpy.int.value", "see www.example.com", "int.example.com.evil"],
        ..BASE
    },
    BuiltinRule {
        id: "internal.code_name.v1",
        category: "CODE_NAME",
        // Matched from `detectors.code_names` (Aho-Corasick, case-insensitive, whole words).
        confidence: 0.9,
        gate: Gate::PolicyWords(PolicyList::CodeNames),
        severity: Severity::Medium,
        ..BASE
    },
    BuiltinRule {
        id: "internal.customer_name.v1",
        category: "CUSTOMER_NAME",
        // Matched from `detectors.customer_names` (Aho-Corasick, case-insensitive, whole words).
        confidence: 0.9,
        gate: Gate::PolicyWords(PolicyList::CustomerNames),
        severity: Severity::Medium,
        ..BASE
    },
];

/// The bare internal-host pattern: a dotted name ending in an internal suffix.
pub fn internal_host_pattern(extra_suffixes: &[String]) -> String {
    let mut suffixes: Vec<String> = INTERNAL_SUFFIXES.iter().map(|s| escape(s)).collect();
    suffixes.extend(extra_suffixes.iter().map(|s| escape(s.trim_start_matches('.'))));
    format!(
        // The zone form first: the regex takes the first alternative that matches, and
        // `ldap.corp` must not stop short of `ldap.corp.example.com`.
        r"(?i-u)\b(?:{}|(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+(?:{}))\b",
        internal_zone_host(),
        suffixes.join("|")
    )
}

/// The internal-URL pattern: a URL whose host is localhost, a private address, or ends
/// in one of `suffixes` (built-ins plus the policy's `internal_domains`). A trailing
/// `)` or sentence punctuation is not part of the URL.
pub fn internal_url_pattern(extra_suffixes: &[String]) -> String {
    let mut suffixes: Vec<String> = INTERNAL_SUFFIXES.iter().map(|s| escape(s)).collect();
    suffixes.extend(extra_suffixes.iter().map(|s| escape(s.trim_start_matches('.'))));
    format!(
        r#"(?i-u)\b(?:https?|wss?|ftp)://(?:[^\s/@"'<>]+@)?(?:localhost|{PRIVATE_IPV4}|{}|(?:[a-z0-9-]+\.)*(?:{}))(?::\d{{1,5}})?(?:[/?#](?:[^\s"'<>`()\[\]{{}}]*[^\s"'<>`()\[\]{{}}.,;:!?])?)?"#,
        internal_zone_host(),
        suffixes.join("|")
    )
}

fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if !c.is_ascii_alphanumeric() && c != '-' {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// A password after its label (`contraseña:`, `пароль —`, `şifre:`), up to three words
/// between (`пароль от почты:`, `contraseña del wifi:`); the value as the prose rule's.
const PASSWORD_LABEL_PATTERN: &str = concat!(
    r#"(?i-u)(?:\b(?:contraseña|hasło|lösenord|parolam?|mot[ \t_]de[ \t_]passe)|şifre(?:m|miz|si|niz)?|Şifre(?:m|miz|si|niz)?|пароль|пароля|паролем|Пароль)"#,
    r#"(?:[ \t]+[^\s=:]{1,24}){0,3}?[ \t]*(?::|=|—|–|-)[ \t]*["'`]?((?-i)[^\s"'`]{5,63}[^\s"'`.,;:])"#
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finders::label::LABELS;

    /// `pii.person.labeled.v1` runs only near its labels: the words of its `Near` gate
    /// are the labels its finder knows ([`LABELS`]), no more and no fewer (a label
    /// added to one list and not the other would be found nowhere, or gated nowhere).
    #[test]
    fn the_labelled_names_gate_words_are_the_finders_labels() {
        let rule = BUILTIN.iter().find(|r| r.id == "pii.person.labeled.v1");
        let Some(BuiltinRule { gate: Gate::Near { words, .. }, .. }) = rule else {
            panic!("pii.person.labeled.v1 is gated by the words near it");
        };
        let mut gate: Vec<&[u8]> = words.iter().map(|w| w.as_bytes()).collect();
        let mut labels: Vec<&[u8]> = LABELS.iter().map(|(label, _)| *label).collect();
        gate.sort_unstable();
        labels.sort_unstable();
        assert_eq!(gate, labels);
    }
}
