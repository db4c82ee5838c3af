//! The detector catalog beyond the core rules of [`super::rules`], one file per family.
//!
//! Every entry is a [`BuiltinRule`]: id, category, finder (a pattern, or hand-written
//! code with the pattern it stands for), validator, gate, context words in the
//! languages of its country, severity, confidence, and its own examples and negatives,
//! which `tests::every_example_of_every_rule` runs. Adding a format is one entry.

use super::rule::{BuiltinRule, Severity};

pub mod core;
pub mod europe;
pub mod phones;
pub mod vendors;
pub mod world;

/// Every built-in rule, in catalog order (on equal spans and confidence the earlier
/// rule wins): the core rules, then vendor credentials, identifiers of European countries and of the
/// rest of the world, phones.
pub fn all() -> impl Iterator<Item = &'static BuiltinRule> {
    core::BUILTIN.iter().chain(vendors::RULES).chain(europe::RULES).chain(world::RULES).chain(phones::RULES)
}

/// What confirms a rule's match beyond its pattern, in words; `None` for the pattern
/// (or hand-written reader) alone.
fn validator(r: &BuiltinRule) -> Option<&'static str> {
    use super::validate::Validator;
    Some(match r.validator {
        Validator::None => return None,
        Validator::PaymentCard => "issuer prefix, length, Luhn",
        Validator::Ssn => "area, group, serial",
        Validator::Ipv4 => "octets",
        Validator::Phone => "digit count",
        Validator::Iban => "ISO 13616 mod 97",
        Validator::Jwt => "header decodes to JSON with `alg`",
        Validator::Mac => "one separator kind, not all 0/F",
        Validator::PublicIpv4 => "public range",
        Validator::PublicIpv6 => "parsed, global",
        Validator::PrivateIpv6 => "parsed, private",
        Validator::DocumentNumber => "length, digits",
        Validator::Date => "calendar date",
        Validator::Entropy => "entropy, character classes",
        Validator::Code(_) => "check digits / structure",
    })
}

/// One built-in rule as `veilctl rules` lists it: an id (or its category) that the
/// policy's `detectors.disable` accepts, and what the rule needs to report a match.
/// Names and keywords only: never a pattern, an example or a negative.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Summary {
    pub id: &'static str,
    pub category: &'static str,
    pub severity: Severity,
    /// Context words the rule only runs near (whole words, any case): its `Near`
    /// gate's. Empty for a rule that runs without them.
    pub near: &'static [&'static str],
    /// The word list a dictionary rule matches: `detectors.code_names`,
    /// `detectors.customer_names`, or the person-name dictionaries.
    pub dictionary: Option<&'static str>,
    /// What confirms a match beyond its pattern (a checksum, a structure); `None`
    /// for the pattern alone.
    pub validator: Option<&'static str>,
    /// The policy's `detectors.internal_domains` extend it.
    pub internal_domains: bool,
}

/// Every built-in rule, summarized, in catalog order.
pub fn summaries() -> impl Iterator<Item = Summary> {
    use super::rule::{Gate, PolicyList};
    all().map(|r| Summary {
        id: r.id,
        category: r.category,
        severity: r.severity,
        near: match r.gate {
            Gate::Near { words, .. } | Gate::InHostName(words) => words,
            _ => &[],
        },
        dictionary: match r.gate {
            Gate::PersonNames => Some("person names (built-in, detectors.given_names, detectors.surnames)"),
            Gate::PolicyWords(PolicyList::CodeNames) => Some("detectors.code_names"),
            Gate::PolicyWords(PolicyList::CustomerNames) => Some("detectors.customer_names"),
            _ => None,
        },
        validator: validator(r),
        internal_domains: r.domains.is_some(),
    })
}

/// The detector reference (`docs/detectors.md`), rendered from the catalog: one row per
/// rule with its category, label, severity, confidence, gate, validator and examples.
pub fn reference() -> String {
    use super::category::label;
    use super::rule::Gate;
    let mut out = String::from(
        "# Detector reference\n\n\
         Generated from the catalog (`veil-detect/src/catalog/`) by\n\
         `VEIL_BLESS=1 cargo test -p veil-detect detector_reference`; a unit test fails when this file\n\
         and the catalog disagree. Every rule's examples and negatives run as a unit test\n\
         (`every_example_of_every_rule`). A rule marked *any case near* also matches its\n\
         letters in lower or mixed case within 40 bytes before and 64 after one of those\n\
         labels (`codice fiscale: rssmra85t10a562s`), validated as if written in capitals.\n\
         Severity and the default action (`default_action`,\n\
         tokenize unless the policy says otherwise) apply per category.\n\n\
         | Rule id | Category | What | Severity | Confidence | Runs where | Confirmed by | Examples |\n\
         |---|---|---|---|---:|---|---|---:|\n",
    );
    for r in all() {
        let gate = match r.gate {
            Gate::Always => "everywhere".to_string(),
            Gate::Contains(n) => format!("text contains `{}`", String::from_utf8_lossy(n).trim()),
            Gate::Prefix(p) => {
                // Escaped: a prefix may end in a tab or a line break (`bearer\t`).
                let list: Vec<String> = p.iter().take(4).map(|x| format!("`{}`", x.escape_ascii())).collect();
                let more = if p.len() > 4 { format!(" +{}", p.len() - 4) } else { String::new() };
                format!("word start {}{more}", list.join(" "))
            }
            Gate::Word(p) => {
                let list: Vec<String> = p.iter().map(|x| format!("`{}`", String::from_utf8_lossy(x))).collect();
                format!("text has word {}", list.join(" "))
            }
            Gate::NumericRun { min_digits, .. } => format!("numeric runs of {min_digits}+ digits"),
            Gate::Test(_) => "cheap byte test".to_string(),
            Gate::AfterCountryCode { .. } => "after a country code".to_string(),
            Gate::Near { words, .. } => {
                let list: Vec<String> = words.iter().take(4).map(|w| format!("`{w}`")).collect();
                let more = if words.len() > 4 { format!(" +{}", words.len() - 4) } else { String::new() };
                format!("near {}{more}", list.join(" "))
            }
            Gate::InHostName(words) => {
                let list: Vec<String> = words.iter().take(4).map(|w| format!("`{w}`")).collect();
                let more = if words.len() > 4 { format!(" +{}", words.len() - 4) } else { String::new() };
                format!("host names with {}{more}", list.join(" "))
            }
            Gate::PersonNames => "capitalised words: name table, context in ten languages".to_string(),
            Gate::PolicyWords(_) => "policy dictionary".to_string(),
            Gate::Windows(_) => "own windows".to_string(),
        };
        let gate = match r.any_case {
            [] => gate,
            labels => {
                let list: Vec<String> = labels.iter().map(|w| format!("`{w}`")).collect();
                format!("{gate}; any case near {}", list.join(" "))
            }
        };
        let check = match (validator(r), r.finder.is_some() && r.pattern.is_empty()) {
            (Some(check), _) => check,
            (None, true) => "hand-written reader",
            (None, false) => "pattern",
        };
        let severity = r.severity.name();
        out.push_str(&format!(
            "| `{}` | `{}` | {} | {severity} | {:.2} | {} | {check} | {} |\n",
            r.id,
            r.category,
            label(r.category),
            r.confidence,
            gate.replace('|', "\\|"),
            r.examples.len()
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    /// One summary per rule, in catalog order, with what each needs.
    #[test]
    fn summaries_name_every_rule_and_what_it_needs() {
        let summaries: Vec<super::Summary> = super::summaries().collect();
        assert_eq!(summaries.len(), super::all().count());
        let by_id = |id: &str| summaries.iter().find(|s| s.id == id).copied().unwrap();
        let card = by_id("pii.credit_card.v1");
        assert_eq!((card.category, card.validator), ("CREDIT_CARD", Some("issuer prefix, length, Luhn")));
        assert!(by_id("pii.email.v1").validator.is_none() && by_id("pii.email.v1").near.is_empty());
        assert!(summaries.iter().any(|s| !s.near.is_empty()), "no rule with context words");
        assert!(summaries.iter().any(|s| s.dictionary == Some("detectors.code_names")));
        assert!(summaries.iter().any(|s| s.internal_domains));
    }

    /// A rule with labels for any case shows its twin at work: an example whose value
    /// holds a small letter (the rule's own pattern matches capitals only), and a
    /// pattern the twin can run (no hand-written finder, no policy domains).
    #[test]
    fn every_any_case_rule_has_a_lower_case_example() {
        for r in super::all().filter(|r| !r.any_case.is_empty()) {
            assert!(r.finder.is_none() && r.domains.is_none() && !r.pattern.is_empty(), "{}: no pattern", r.id);
            let lower = r.examples.iter().any(|e| {
                e.split('⟦')
                    .skip(1)
                    .filter_map(|v| v.split('⟧').next())
                    .any(|v| v.bytes().any(|b| b.is_ascii_lowercase()))
            });
            assert!(lower, "{}: no example in lower case", r.id);
        }
    }

    /// `docs/detectors.md` is the catalog, rendered; `VEIL_BLESS=1` rewrites it. (Not
    /// under WASI: the V8 runner gives the tests no file system.)
    #[cfg(not(target_family = "wasm"))]
    #[test]
    fn detector_reference_is_current() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/detectors.md");
        let want = super::reference();
        if std::env::var_os("VEIL_BLESS").is_some() {
            std::fs::write(&path, &want).unwrap();
        }
        let have = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            have == want,
            "docs/detectors.md is stale: run VEIL_BLESS=1 cargo test -p veil-detect detector_reference"
        );
    }
}
