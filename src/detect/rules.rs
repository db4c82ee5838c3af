//! The built-in detector catalog: stable ids, categories, patterns and validators.
//!
//! Patterns are byte regexes with Unicode off (`(?-u)`): they run over raw bytes,
//! so invalid UTF-8 cannot make them fail, and the ASCII classes keep the compiled
//! automata (and the wasm binary) small.

use super::validate::Validator;

/// A cheap test that decides where a rule's regex must run at all. Most chat text
/// has no `@`, no `://` and few digits, so most rules never touch most bytes.
#[derive(Debug, Clone, Copy)]
pub enum Gate {
    /// Run over the whole text.
    Always,
    /// Run over the whole text only if it contains this byte string.
    Contains(&'static [u8]),
    /// Run only inside numeric runs (digits and `+ ( ) - . space`) with at least these
    /// many digits, dashes and dots (and a `+` if asked); every match of the rule lies
    /// inside one such run, so the regex never sees the rest of the text.
    NumericRun { min_digits: usize, min_dashes: usize, min_dots: usize, plus: bool },
    /// Run over the whole text only if this cheap test of the text passes.
    Test(fn(&[u8]) -> bool),
    /// Run only at numeric runs right after two upper-case letters (an IBAN's country
    /// code and check digits), over the next `span` bytes.
    AfterCountryCode { span: usize },
}

/// MAC gate: six hex pairs joined by one separator kind, anywhere (`hh:hh:hh:hh:hh:hh`).
pub fn mac_like(text: &[u8]) -> bool {
    let hex = |i: usize| text.get(i).is_some_and(u8::is_ascii_hexdigit);
    let mut from = 0;
    while let Some(rel) = text.get(from..).and_then(|t| memchr::memchr2(b':', b'-', t)) {
        let at = from + rel;
        let sep = text.get(at).copied();
        let full = at >= 2
            && hex(at - 2)
            && hex(at - 1)
            && (0..5).all(|k| text.get(at + 3 * k).copied() == sep && hex(at + 3 * k + 1) && hex(at + 3 * k + 2));
        if full {
            return true;
        }
        from = at + 1;
    }
    false
}

/// Slack gate: a token prefix or the webhook host.
pub fn slack_like(text: &[u8]) -> bool {
    memchr::memmem::find(text, b"xox").is_some() || memchr::memmem::find(text, b"hooks.slack.com").is_some()
}

/// A built-in rule before compilation.
#[derive(Debug, Clone, Copy)]
pub struct BuiltinRule {
    /// Stable identifier, `family.name.vN`; referenced by policies and audit events.
    pub id: &'static str,
    pub category: &'static str,
    pub pattern: &'static str,
    /// Capture group that is the finding (0 = whole match). Captures are slow; prefer
    /// `clean_left` / `clean_right`.
    pub group: usize,
    /// The byte before a match must not be a letter, digit, `+` or `_` (a look-behind
    /// the regex crate does not have; checked in code, which is also much cheaper
    /// than a capture group).
    pub clean_left: bool,
    /// The match must not run on into a host name or word: the next byte is not a
    /// letter, digit, `_` or `-`, nor a `.` followed by one (a look-ahead, in code).
    pub clean_right: bool,
    pub validator: Validator,
    pub confidence: f32,
    pub gate: Gate,
}

const PRIVATE_IPV4: &str = r"(?:10(?:\.\d{1,3}){3}|172\.(?:1[6-9]|2\d|3[01])(?:\.\d{1,3}){2}|192\.168(?:\.\d{1,3}){2}|127(?:\.\d{1,3}){3}|169\.254(?:\.\d{1,3}){2})";

/// Host suffixes that only ever name internal machines (RFC 6762, RFC 8375, common use).
pub const INTERNAL_SUFFIXES: &[&str] = &["internal", "local", "localdomain", "corp", "lan", "intranet", "home.arpa"];

pub const BUILTIN: &[BuiltinRule] = &[
    BuiltinRule {
        id: "pii.email.v1",
        category: "EMAIL",
        pattern: r"(?i-u)\b[a-z0-9][a-z0-9._%+-]*@[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*\.[a-z]{2,24}\b",
        group: 0,
        clean_left: false,
        clean_right: false,
        validator: Validator::None,
        confidence: 0.95,
        gate: Gate::Contains(b"@"),
    },
    BuiltinRule {
        id: "pii.ssn.v1",
        category: "SSN",
        pattern: r"(?-u)\b\d{3}-\d{2}-\d{4}\b",
        group: 0,
        clean_left: false,
        clean_right: false,
        validator: Validator::Ssn,
        confidence: 0.9,
        gate: Gate::NumericRun { min_digits: 9, min_dashes: 2, min_dots: 0, plus: false },
    },
    BuiltinRule {
        id: "pii.phone.nanp.v1",
        category: "PHONE",
        pattern: r"(?-u)(?:\+?1[ .-]?)?(?:\([2-9]\d{2}\)|[2-9]\d{2})[ .-]?[2-9]\d{2}[ .-]\d{4}\b",
        group: 0,
        clean_left: true,
        clean_right: false,
        validator: Validator::Phone,
        confidence: 0.8,
        gate: Gate::NumericRun { min_digits: 10, min_dashes: 0, min_dots: 0, plus: false },
    },
    BuiltinRule {
        id: "pii.phone.e164.v1",
        category: "PHONE",
        pattern: r"(?-u)\+[1-9]\d{0,2}[ .-]?(?:\(\d{1,4}\)|\d{1,4})(?:[ .-]?\d{2,4}){1,5}\b",
        group: 0,
        clean_left: true,
        clean_right: false,
        validator: Validator::Phone,
        confidence: 0.8,
        gate: Gate::NumericRun { min_digits: 10, min_dashes: 0, min_dots: 0, plus: true },
    },
    BuiltinRule {
        id: "pii.credit_card.v1",
        category: "CREDIT_CARD",
        pattern: r"(?-u)\b(?:\d[ -]?){12,18}\d\b",
        group: 0,
        clean_left: false,
        clean_right: false,
        validator: Validator::PaymentCard,
        confidence: 0.95,
        gate: Gate::NumericRun { min_digits: 13, min_dashes: 0, min_dots: 0, plus: false },
    },
    BuiltinRule {
        id: "secret.aws_access_key_id.v1",
        category: "AWS_ACCESS_KEY",
        pattern: r"(?-u)\b(?:AKIA|ASIA|ABIA|ACCA|AIDA|AROA|AIPA|ANPA|ANVA|AGPA)[A-Z0-9]{16}\b",
        group: 0,
        clean_left: false,
        clean_right: false,
        validator: Validator::None,
        confidence: 0.95,
        gate: Gate::Always,
    },
    BuiltinRule {
        id: "secret.anthropic_api_key.v1",
        category: "API_KEY",
        pattern: r"(?-u)\bsk-ant-[A-Za-z0-9_-]{20,}",
        group: 0,
        clean_left: false,
        clean_right: false,
        validator: Validator::None,
        confidence: 0.99,
        gate: Gate::Contains(b"sk-ant-"),
    },
    BuiltinRule {
        id: "secret.openai_api_key.v1",
        category: "API_KEY",
        pattern: r"(?-u)\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}",
        group: 0,
        clean_left: false,
        clean_right: false,
        validator: Validator::None,
        confidence: 0.95,
        gate: Gate::Contains(b"sk-"),
    },
    BuiltinRule {
        id: "secret.github_token.v1",
        category: "GITHUB_TOKEN",
        pattern: r#"(?-u)\b(?:gh[pousr]_[A-Za-z0-9]{36}|github_pat_[A-Za-z0-9_]{82})\b"#,
        group: 0,
        clean_left: false,
        clean_right: false,
        validator: Validator::None,
        confidence: 0.99,
        gate: Gate::Contains(b"_"),
    },
    BuiltinRule {
        id: "secret.gitlab_token.v1",
        category: "GITLAB_TOKEN",
        pattern: r#"(?-u)\bglpat-[A-Za-z0-9_-]{20,}"#,
        group: 0,
        clean_left: false,
        clean_right: false,
        validator: Validator::None,
        confidence: 0.99,
        gate: Gate::Contains(b"glpat-"),
    },
    BuiltinRule {
        id: "secret.slack_token.v1",
        category: "SLACK_TOKEN",
        pattern: r#"(?-u)\b(?:xox[abposr]-[A-Za-z0-9-]{10,}|https://hooks\.slack\.com/services/[A-Za-z0-9/_-]{20,})"#,
        group: 0,
        clean_left: false,
        clean_right: false,
        validator: Validator::None,
        confidence: 0.97,
        gate: Gate::Test(slack_like),
    },
    BuiltinRule {
        id: "secret.stripe_key.v1",
        category: "STRIPE_KEY",
        pattern: r#"(?-u)\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}\b"#,
        group: 0,
        clean_left: false,
        clean_right: false,
        validator: Validator::None,
        confidence: 0.98,
        gate: Gate::Contains(b"k_"),
    },
    BuiltinRule {
        id: "secret.google_api_key.v1",
        category: "GOOGLE_API_KEY",
        pattern: r#"(?-u)\bAIza[0-9A-Za-z_-]{35}"#,
        group: 0,
        clean_left: false,
        clean_right: false,
        validator: Validator::None,
        confidence: 0.97,
        gate: Gate::Contains(b"AIza"),
    },
    BuiltinRule {
        id: "secret.jwt.v1",
        category: "JWT",
        pattern: r#"(?-u)\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{8,}"#,
        group: 0,
        clean_left: false,
        clean_right: false,
        validator: Validator::Jwt,
        confidence: 0.95,
        gate: Gate::Contains(b"eyJ"),
    },
    BuiltinRule {
        id: "secret.private_key.v1",
        category: "PRIVATE_KEY",
        pattern: r#"(?s-u)-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----.*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----"#,
        group: 0,
        clean_left: false,
        clean_right: false,
        validator: Validator::None,
        confidence: 0.99,
        gate: Gate::Contains(b"PRIVATE KEY-----"),
    },
    BuiltinRule {
        id: "secret.connection_string.v1",
        category: "CONNECTION_STRING",
        pattern: r#"(?i-u)\b(?:postgres(?:ql)?|mysql|mariadb|mongodb(?:\+srv)?|redis|rediss|amqps?|mssql|sqlserver)://[^\s:/@'\"]+:[^\s@/'\"]+@[^\s/'\"]+(?:/[^\s'\"]*)?"#,
        group: 0,
        clean_left: false,
        clean_right: false,
        validator: Validator::None,
        confidence: 0.97,
        gate: Gate::Contains(b"://"),
    },
    BuiltinRule {
        id: "secret.password_assignment.v1",
        category: "PASSWORD",
        pattern: r#"(?i-u)\b(?:password|passwd|pwd|secret|client_secret|api[_-]?key|access[_-]?key)\s*[:=]\s*[\"']?([^\s\"',;]{6,})"#,
        group: 1,
        clean_left: false,
        clean_right: false,
        validator: Validator::None,
        confidence: 0.85,
        gate: Gate::Contains(b"="),
    },
    BuiltinRule {
        id: "secret.bearer_token.v1",
        category: "BEARER_TOKEN",
        pattern: r#"(?-u)\b[Bb]earer\s+([A-Za-z0-9._~+/-]{20,}=*)"#,
        group: 1,
        clean_left: false,
        clean_right: false,
        validator: Validator::None,
        confidence: 0.9,
        gate: Gate::Contains(b"earer"),
    },
    BuiltinRule {
        id: "pii.iban.v1",
        category: "IBAN",
        pattern: r#"(?-u)\b[A-Z]{2}\d{2} ?(?:[A-Z0-9]{4} ?){2,7}[A-Z0-9]{1,4}\b"#,
        group: 0,
        clean_left: false,
        clean_right: false,
        validator: Validator::Iban,
        confidence: 0.95,
        gate: Gate::AfterCountryCode { span: 48 },
    },
    BuiltinRule {
        id: "net.mac_address.v1",
        category: "MAC_ADDRESS",
        pattern: r#"(?-u)\b[0-9A-Fa-f]{2}(?:[:-][0-9A-Fa-f]{2}){5}\b"#,
        group: 0,
        clean_left: false,
        clean_right: false,
        validator: Validator::Mac,
        confidence: 0.8,
        gate: Gate::Test(mac_like),
    },
    BuiltinRule {
        id: "net.private_ipv4.v1",
        category: "PRIVATE_IP",
        // Built from PRIVATE_IPV4 in `Engine::new`; kept here for the catalog listing.
        pattern: "",
        group: 0,
        clean_left: false,
        clean_right: false,
        validator: Validator::Ipv4,
        confidence: 0.9,
        gate: Gate::NumericRun { min_digits: 4, min_dashes: 0, min_dots: 3, plus: false },
    },
    BuiltinRule {
        id: "net.internal_url.v1",
        category: "INTERNAL_URL",
        // Built in `Engine::new` from PRIVATE_IPV4 and the internal host suffixes.
        pattern: "",
        group: 0,
        clean_left: false,
        clean_right: true,
        validator: Validator::None,
        confidence: 0.9,
        gate: Gate::Contains(b"://"),
    },
];

/// The private-IPv4 pattern (RFC 1918, loopback, link-local).
pub fn private_ipv4_pattern() -> String {
    format!(r"(?-u)\b{PRIVATE_IPV4}\b")
}

/// The internal-URL pattern: a URL whose host is localhost, a private address, or ends
/// in one of `suffixes` (built-ins plus the policy's `internal_domains`). A trailing
/// `)` or sentence punctuation is not part of the URL.
pub fn internal_url_pattern(extra_suffixes: &[String]) -> String {
    let mut suffixes: Vec<String> = INTERNAL_SUFFIXES.iter().map(|s| escape(s)).collect();
    suffixes.extend(extra_suffixes.iter().map(|s| escape(s.trim_start_matches('.'))));
    format!(
        r#"(?i-u)\b(?:https?|wss?|ftp)://(?:[^\s/@"'<>]+@)?(?:localhost|{PRIVATE_IPV4}|(?:[a-z0-9-]+\.)*(?:{}))(?::\d{{1,5}})?(?:[/?#](?:[^\s"'<>`()\[\]{{}}]*[^\s"'<>`()\[\]{{}}.,;:!?])?)?"#,
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

/// How bad a leak of this category is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Low,
    Medium,
    High,
}

impl Severity {
    pub fn name(self) -> &'static str {
        match self {
            Severity::Low => "LOW",
            Severity::Medium => "MEDIUM",
            Severity::High => "HIGH",
        }
    }
}

/// Severity of a category: secrets and government or payment numbers are high;
/// contact data medium; internal network details low. Custom categories: medium.
pub fn severity(category: &str) -> Severity {
    match category {
        "SSN" | "CREDIT_CARD" | "AWS_ACCESS_KEY" | "API_KEY" | "GITHUB_TOKEN" | "GITLAB_TOKEN" | "SLACK_TOKEN"
        | "STRIPE_KEY" | "GOOGLE_API_KEY" | "JWT" | "PRIVATE_KEY" | "CONNECTION_STRING" | "PASSWORD"
        | "BEARER_TOKEN" | "IBAN" => Severity::High,
        "PRIVATE_IP" | "INTERNAL_URL" | "MAC_ADDRESS" => Severity::Low,
        _ => Severity::Medium,
    }
}

/// A human label for a category.
pub fn label(category: &str) -> &str {
    match category {
        "EMAIL" => "Email address",
        "PHONE" => "Phone number",
        "SSN" => "US Social Security number",
        "CREDIT_CARD" => "Payment card number",
        "AWS_ACCESS_KEY" => "AWS access key id",
        "API_KEY" => "LLM API key",
        "PRIVATE_IP" => "Private IP address",
        "INTERNAL_URL" => "Internal URL",
        "GITHUB_TOKEN" => "GitHub token",
        "GITLAB_TOKEN" => "GitLab token",
        "SLACK_TOKEN" => "Slack token or webhook",
        "STRIPE_KEY" => "Stripe key",
        "GOOGLE_API_KEY" => "Google API key",
        "JWT" => "JSON Web Token",
        "PRIVATE_KEY" => "PEM private key",
        "CONNECTION_STRING" => "Connection string with credentials",
        "PASSWORD" => "Password or secret assignment",
        "BEARER_TOKEN" => "Bearer token",
        "IBAN" => "IBAN",
        "MAC_ADDRESS" => "MAC address",
        other => other,
    }
}

/// Whether a rule's findings are confirmed by a checksum or structural validator.
pub fn validated(id: &str) -> bool {
    BUILTIN.iter().any(|r| r.id == id && r.validator != Validator::None)
}
