//! Every counter the filter keeps, named in one place.
//!
//! Proxy-Wasm counters have a name and no tags, so a counter's labels are written into
//! its name, each as `<tag>=.=<value>;.;`, and Envoy takes them out again with one
//! `stats_config.stats_tags` entry per tag (`(<tag>=\.=(.*?);\.;)`: the outer capture is
//! removed from the name, the inner one is the value). That is the encoding Istio's
//! `extraStatTags` extracts, so a mesh needs no bootstrap patch, only that list
//! ([`TAGS`]). Envoy shows a counter as `wasmcustom.<name>` in `/stats` and, tags
//! taken out and the `wasmcustom.` namespace dropped, as a Prometheus metric:
//! `veil.category=.=EMAIL;.;findings_total` is `veil_findings_total{category="EMAIL"}`.
//!
//! A label has the audit line's spelling: `outcome` is the line's `outcome`
//! (`oversize_passed`), `reason` of a verification skip its `verification.skipped`,
//! `category` a key of its `findings`. No name holds a payload or a matched value: a
//! provider, a category, an outcome, a refusal code and a skip reason are names from
//! the code (a custom category is `A-Z`, `0-9` and `_`), and none holds `;`.

use std::borrow::Cow;

use crate::audit::Outcome;

/// The tags counters carry, in the order Envoy's `stats_tags` list them. Each is one
/// `stats_tags` entry, `{tag_name: <tag>, regex: tag_regex(<tag>)}`, in every Envoy
/// config shipped here (a test reads them), and one `extraStatTags` entry for Istio.
pub const TAGS: &[&str] = &["provider", "outcome", "category", "code", "reason"];

/// The `stats_tags` regex that takes `tag` out of a counter's name: the first capture
/// is removed from the name, the second is the value (Istio's `extraStatTags` form).
pub fn tag_regex(tag: &str) -> String {
    format!(r"({tag}=\.=(.*?);\.;)")
}

/// A counter of the filter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Counter<'a> {
    /// Protected requests at their end, by provider and outcome (the audit line's).
    Requests {
        provider: &'static str,
        outcome: Outcome,
    },
    /// Requests the policy exempts from scanning.
    Exempt,
    /// Requests refused, by the error code of the refusal (`veil_invalid_json`, …).
    Refused(&'static str),
    /// Findings, by category.
    Findings(&'a str),
    /// Strings whose scan was remembered from an earlier request (not scanned again).
    ScanRemembered,
    /// Parts of bodies that cannot be read as text.
    UnscannableParts,
    /// Tokens written into requests.
    TokensIssued,
    /// Tokens restored in responses.
    TokensRestored,
    /// Responses not restored, by reason: `encoded` (a `content-encoding`), `large`
    /// (over the restore limit).
    RestoreSkipped(&'static str),
    /// Vault records written, evicted by size, failed to write, found for a restore,
    /// and expired by the sweep.
    VaultWrites,
    VaultEvicted,
    VaultWriteFailures,
    VaultRestored,
    VaultExpired,
    /// Verification, per response (see [`Verify`]).
    Verify(Verify),
    /// Verification skipped, by reason (the audit line's `verification.skipped`).
    VerifySkipped(&'static str),
    /// Requests through the model stage (`detectors.model`), by its outcome (the
    /// audit line's `model.outcome`: `answered`, `cached`, `timeout`, …).
    Model(&'static str),
    /// Model proposals kept as findings.
    ModelKept,
    /// Model proposals dropped, by reason (`not_in_text`, `category`, …).
    ModelDropped(&'static str),
}

/// The counters of verification, one increment per response by its summary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verify {
    Responses,
    Claims,
    Verified,
    Warnings,
    Errors,
    CacheHits,
    Calls,
    Retries,
    DroppedClaims,
    LatencyMsTotal,
}

impl<'a> Counter<'a> {
    /// The metric's name without its labels; with `.` as `_`, its Prometheus name
    /// (`veil.vault.writes_total`: `veil_vault_writes_total`).
    pub fn metric(&self) -> &'static str {
        match *self {
            Counter::Requests { .. } => "veil.requests_total",
            Counter::Exempt => "veil.exempt_total",
            Counter::Refused(_) => "veil.refused_total",
            Counter::Findings(_) => "veil.findings_total",
            Counter::ScanRemembered => "veil.scan.remembered_total",
            Counter::UnscannableParts => "veil.unscannable_parts_total",
            Counter::TokensIssued => "veil.tokens.issued_total",
            Counter::TokensRestored => "veil.tokens.restored_total",
            Counter::RestoreSkipped(_) => "veil.restore.skipped_total",
            Counter::VaultWrites => "veil.vault.writes_total",
            Counter::VaultEvicted => "veil.vault.evicted_total",
            Counter::VaultWriteFailures => "veil.vault.write_failures_total",
            Counter::VaultRestored => "veil.vault.restored_total",
            Counter::VaultExpired => "veil.vault.expired_total",
            Counter::Verify(v) => match v {
                Verify::Responses => "veil.verify.responses_total",
                Verify::Claims => "veil.verify.claims_total",
                Verify::Verified => "veil.verify.verified_total",
                Verify::Warnings => "veil.verify.warnings_total",
                Verify::Errors => "veil.verify.errors_total",
                Verify::CacheHits => "veil.verify.cache_hits_total",
                Verify::Calls => "veil.verify.calls_total",
                Verify::Retries => "veil.verify.retries_total",
                Verify::DroppedClaims => "veil.verify.dropped_claims_total",
                Verify::LatencyMsTotal => "veil.verify.latency_milliseconds_total",
            },
            Counter::VerifySkipped(_) => "veil.verify.skipped_total",
            Counter::Model(_) => "veil.model.requests_total",
            Counter::ModelKept => "veil.model.kept_total",
            Counter::ModelDropped(_) => "veil.model.dropped_total",
        }
    }

    /// The labels, each a tag of [`TAGS`] and its value.
    pub fn labels(&self) -> [Option<(&'static str, &'a str)>; 2] {
        match *self {
            Counter::Requests { provider, outcome } => {
                [Some(("provider", provider)), Some(("outcome", outcome.as_str()))]
            }
            Counter::Refused(code) => [Some(("code", code)), None],
            Counter::Findings(category) => [Some(("category", category)), None],
            Counter::RestoreSkipped(reason) | Counter::VerifySkipped(reason) | Counter::ModelDropped(reason) => {
                [Some(("reason", reason)), None]
            }
            Counter::Model(outcome) => [Some(("outcome", outcome)), None],
            _ => [None, None],
        }
    }

    /// The counter's name in Envoy (which shows it as `wasmcustom.` and this):
    /// [`Counter::metric`] with each label as `<tag>=.=<value>;.;` after `veil.`.
    pub fn name(&self) -> Cow<'static, str> {
        let metric = self.metric();
        let labels = self.labels();
        if labels.iter().all(Option::is_none) {
            return Cow::Borrowed(metric);
        }
        let mut name = String::from("veil.");
        for (tag, value) in labels.into_iter().flatten() {
            name.push_str(tag);
            name.push_str("=.=");
            name.push_str(value);
            name.push_str(";.;");
        }
        name.push_str(metric.strip_prefix("veil.").unwrap_or(metric));
        Cow::Owned(name)
    }
}

/// The label values the filter can write, for a host that must define every counter
/// before it counts (Envoy's dynamic modules define them with the configuration).
/// The providers' are every adapter's name ([`crate::provider::ADAPTERS`]), then `api`
/// (the gateway's own API) and `none`.
#[allow(clippy::indexing_slicing)] // evaluated by the compiler: `i` counts the adapters
pub const PROVIDERS: [&str; crate::provider::ADAPTERS.len() + 2] = {
    let adapters = crate::provider::ADAPTERS;
    let mut out = [""; crate::provider::ADAPTERS.len() + 2];
    let mut i = 0;
    while i < adapters.len() {
        out[i] = adapters[i].name;
        i += 1;
    }
    out[i] = "api";
    out[i + 1] = "none";
    out
};
pub const REFUSAL_CODES: &[&str] = &[
    "veil_invalid_json",
    "veil_unscannable",
    "veil_body_too_large",
    "veil_unsupported_encoding",
    "veil_invalid_encoding",
    "veil_unscannable_transport",
];
pub const RESTORE_SKIPS: &[&str] = &["encoded", "large"];
pub const VERIFY_SKIPS: &[&str] = &[
    "too_short",
    "no_text",
    "encoded",
    "budget",
    "verifier_timeout",
    "verifier_unavailable",
    "verifier_error",
    "verifier_garbage",
    "verifier_misconfigured",
];
/// The model stage's outcomes (`veil_model_requests_total{outcome}`, the audit line's
/// `model.outcome`): the texts were answered from memory, the model answered, or the
/// stage failed (the request too large to send, no such cluster, a call error or a
/// 5xx, Envoy's timeout, an unreadable answer).
pub mod model_outcome {
    pub const CACHED: &str = "cached";
    pub const ANSWERED: &str = "answered";
    pub const TOO_LARGE: &str = "too_large";
    pub const NO_CLUSTER: &str = "no_cluster";
    pub const ERROR: &str = "error";
    pub const TIMEOUT: &str = "timeout";
    pub const UNREADABLE: &str = "unreadable";
    pub const ALL: [&str; 7] = [CACHED, ANSWERED, TOO_LARGE, NO_CLUSTER, ERROR, TIMEOUT, UNREADABLE];
}

const VERIFY_ALL: [Verify; 10] = [
    Verify::Responses,
    Verify::Claims,
    Verify::Verified,
    Verify::Warnings,
    Verify::Errors,
    Verify::CacheHits,
    Verify::Calls,
    Verify::Retries,
    Verify::DroppedClaims,
    Verify::LatencyMsTotal,
];

impl<'a> Counter<'a> {
    /// Every counter the filter can write under a policy whose rules have `categories`.
    pub fn every(categories: &[&'a str]) -> Vec<Counter<'a>> {
        let mut all = vec![
            Counter::Exempt,
            Counter::ScanRemembered,
            Counter::UnscannableParts,
            Counter::TokensIssued,
            Counter::TokensRestored,
            Counter::VaultWrites,
            Counter::VaultEvicted,
            Counter::VaultWriteFailures,
            Counter::VaultRestored,
            Counter::VaultExpired,
        ];
        all.extend(REFUSAL_CODES.iter().map(|c| Counter::Refused(c)));
        all.extend(categories.iter().map(|c| Counter::Findings(c)));
        all.extend(RESTORE_SKIPS.iter().map(|r| Counter::RestoreSkipped(r)));
        all.extend(VERIFY_SKIPS.iter().map(|r| Counter::VerifySkipped(r)));
        all.extend(VERIFY_ALL.iter().map(|v| Counter::Verify(*v)));
        all.push(Counter::ModelKept);
        all.extend(model_outcome::ALL.iter().map(|o| Counter::Model(o)));
        all.extend(crate::model_stage::Dropped::ALL.iter().map(|d| Counter::ModelDropped(d.name())));
        for provider in PROVIDERS {
            all.extend(Outcome::ALL.iter().map(|&outcome| Counter::Requests { provider, outcome }));
        }
        all
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One counter of each kind (labelled ones with a sample of their values).
    fn every_counter() -> Vec<Counter<'static>> {
        let mut all = vec![
            Counter::Exempt,
            Counter::Refused("veil_invalid_json"),
            Counter::Findings("EMAIL"),
            Counter::Findings("AWS_ACCESS_KEY"),
            Counter::ScanRemembered,
            Counter::UnscannableParts,
            Counter::TokensIssued,
            Counter::TokensRestored,
            Counter::RestoreSkipped("encoded"),
            Counter::RestoreSkipped("large"),
            Counter::VaultWrites,
            Counter::VaultEvicted,
            Counter::VaultWriteFailures,
            Counter::VaultRestored,
            Counter::VaultExpired,
            Counter::VerifySkipped("verifier_timeout"),
            Counter::Model("answered"),
            Counter::Model("timeout"),
            Counter::ModelKept,
            Counter::ModelDropped("not_in_text"),
        ];
        all.extend(VERIFY_ALL.iter().map(|v| Counter::Verify(*v)));
        for provider in ["openai.chat", "anthropic.messages", "gemini", "generic"] {
            all.extend(Outcome::ALL.iter().map(|&outcome| Counter::Requests { provider, outcome }));
        }
        all
    }

    /// What Envoy makes of a counter's name with the `stats_tags` of [`TAGS`]: each
    /// regex searched in the whole name, its first capture removed and its second the
    /// tag's value; then `wasmcustom.` dropped and `.` made `_` for Prometheus.
    fn envoy_extracts(name: &str) -> (String, Vec<(String, String)>) {
        let full = format!("wasmcustom.{name}");
        let mut removed = Vec::new();
        let mut tags = Vec::new();
        for tag in TAGS {
            let re = regex::Regex::new(&tag_regex(tag)).unwrap();
            if let Some(c) = re.captures(&full) {
                let outer = c.get(1).unwrap();
                removed.push(outer.range());
                tags.push((tag.to_string(), c.get(2).unwrap().as_str().to_string()));
            }
        }
        let kept: String =
            full.char_indices().filter(|(i, _)| !removed.iter().any(|r| r.contains(i))).map(|(_, c)| c).collect();
        let prometheus = kept.strip_prefix("wasmcustom.").unwrap().replace('.', "_");
        (prometheus, tags)
    }

    #[test]
    fn every_lists_each_code_the_core_writes() {
        use crate::redact::Refusal;
        use crate::verify::SkipReason;
        let every = Counter::every(&["EMAIL"]);
        for r in [
            Refusal::InvalidJson,
            Refusal::Unscannable,
            Refusal::TooLarge,
            Refusal::UnsupportedEncoding,
            Refusal::InvalidEncoding,
            Refusal::Transport,
        ] {
            assert!(every.contains(&Counter::Refused(r.code())), "{r:?}");
        }
        for s in [
            SkipReason::TooShort,
            SkipReason::NoText,
            SkipReason::Encoded,
            SkipReason::Budget,
            SkipReason::VerifierTimeout,
            SkipReason::VerifierUnavailable,
            SkipReason::VerifierError,
            SkipReason::VerifierGarbage,
            SkipReason::VerifierMisconfigured,
        ] {
            assert!(every.contains(&Counter::VerifySkipped(s.code())), "{s:?}");
        }
        for p in [
            crate::provider::Provider::OpenAiChat,
            crate::provider::Provider::OpenAiResponses,
            crate::provider::Provider::Anthropic,
            crate::provider::Provider::Gemini,
            crate::provider::Provider::Generic,
        ] {
            assert!(PROVIDERS.contains(&p.name()), "{p:?}");
        }
        assert!(every.contains(&Counter::Findings("EMAIL")));
    }

    #[test]
    fn envoy_turns_every_name_into_a_metric_and_its_labels() {
        for counter in every_counter() {
            let (prometheus, tags) = envoy_extracts(&counter.name());
            assert_eq!(prometheus, counter.metric().replace('.', "_"), "{counter:?}");
            assert!(prometheus.starts_with("veil_") && prometheus.ends_with("_total"), "{prometheus}");
            let labels: Vec<(String, String)> =
                counter.labels().into_iter().flatten().map(|(t, v)| (t.to_string(), v.to_string())).collect();
            let mut sorted = tags.clone();
            sorted.sort();
            let mut expected = labels.clone();
            expected.sort();
            assert_eq!(sorted, expected, "{counter:?}");
            // No label value in the metric's name.
            for (_, value) in &labels {
                assert!(!prometheus.contains(&value.replace('.', "_")), "{prometheus} holds {value}");
            }
        }
        assert_eq!(
            Counter::Findings("EMAIL").name(),
            "veil.category=.=EMAIL;.;findings_total",
            "Prometheus: veil_findings_total{{category=\"EMAIL\"}}"
        );
        assert_eq!(
            Counter::Requests { provider: "openai.chat", outcome: Outcome::Rewritten }.name(),
            "veil.provider=.=openai.chat;.;outcome=.=rewritten;.;requests_total"
        );
    }

    /// The `outcome` label is spelled as the audit line spells the outcome.
    #[test]
    fn outcome_labels_match_the_audit_line() {
        for outcome in Outcome::ALL {
            let audit = serde_json::to_value(outcome).unwrap();
            let counter = Counter::Requests { provider: "gemini", outcome: *outcome };
            assert_eq!(counter.labels()[1], Some(("outcome", audit.as_str().unwrap())));
        }
        let counter = Counter::Requests { provider: "gemini", outcome: Outcome::OversizePassed };
        assert_eq!(envoy_extracts(&counter.name()).1[1], ("outcome".into(), "oversize_passed".into()));
    }

    #[test]
    fn metrics_are_distinct_and_tags_known() {
        let all = every_counter();
        let mut metrics: Vec<_> = all.iter().map(Counter::metric).collect();
        metrics.sort();
        metrics.dedup();
        let kinds = all.iter().map(std::mem::discriminant).collect::<std::collections::HashSet<_>>().len() + 9; // Verify(_) is one discriminant for ten metrics.
        assert_eq!(metrics.len(), kinds);
        // A label's value is never part of a metric's name (`veil_findings_email`).
        let values: Vec<&str> = all.iter().flat_map(|c| c.labels().into_iter().flatten().map(|(_, v)| v)).collect();
        for metric in &metrics {
            let name = format!("_{}_", metric.trim_start_matches("veil.").replace('.', "_"));
            for value in &values {
                assert!(!name.contains(&format!("_{}_", value.replace('.', "_"))), "{metric} holds {value}");
            }
        }
        for counter in &all {
            for (tag, value) in counter.labels().into_iter().flatten() {
                assert!(TAGS.contains(&tag), "{tag}");
                assert!(!value.contains(';') && !value.contains('='), "{value}");
            }
        }
    }

    /// Every Envoy config shipped here extracts exactly [`TAGS`], and the Istio patch
    /// asks for them as `extraStatTags` (and includes veil's counters). Not under WASI:
    /// the V8 runner gives the tests no file system.
    #[cfg(not(target_family = "wasm"))]
    #[test]
    fn shipped_configs_extract_these_tags() {
        let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
        let expected: Vec<(String, String)> = TAGS.iter().map(|t| (t.to_string(), tag_regex(t))).collect();
        let mut checked = 0;
        for entry in std::fs::read_dir(root.join("envoy")).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "yaml") {
                continue;
            }
            let config: serde_json::Value = serde_norway::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            let tags: Vec<(String, String)> = config["stats_config"]["stats_tags"]
                .as_array()
                .unwrap_or_else(|| panic!("{}: no stats_config.stats_tags", path.display()))
                .iter()
                .map(|t| (t["tag_name"].as_str().unwrap().into(), t["regex"].as_str().unwrap().into()))
                .collect();
            assert_eq!(tags, expected, "{}", path.display());
            checked += 1;
        }
        assert!(checked >= 5);
        let patch = std::fs::read_to_string(root.join("deploy/istio/egressgateway-stats.yaml")).unwrap();
        let patch: serde_json::Value = serde_norway::from_str(&patch).unwrap();
        let annotation =
            patch["spec"]["template"]["metadata"]["annotations"]["proxy.istio.io/config"].as_str().unwrap();
        let proxy: serde_json::Value = serde_norway::from_str(annotation).unwrap();
        assert_eq!(proxy["extraStatTags"], serde_json::json!(TAGS));
        assert_eq!(proxy["proxyStatsMatcher"]["inclusionPrefixes"][0], "wasmcustom.veil.");
    }
}
