//! Every counter the filter keeps, named in one place. Envoy shows each as
//! `wasmcustom.veil.<name>` (`/stats`, Prometheus). A counter of something the audit
//! line reports has the audit field's spelling: `outcome.<outcome>` is the line's
//! `outcome` (`outcome.oversize_passed`), `verify.skipped.<reason>` its
//! `verification.skipped`. No name holds a payload or a matched value: a category, an
//! outcome, a refusal code and a skip reason are names from the code.

use std::borrow::Cow;

use crate::audit::Outcome;

/// A counter of the filter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Counter<'a> {
    /// Protected requests scanned (not exempt).
    Requests,
    /// Requests the policy exempts from scanning.
    Exempt,
    /// Requests by outcome, as the audit line's `outcome`.
    Outcome(Outcome),
    /// Requests refused, by the error code of the refusal (`veil_invalid_json`, …).
    Refused(&'static str),
    /// Bodies over `limits.max_body_bytes` forwarded unscanned (`on_oversize: pass`).
    OversizePassed,
    /// Findings, by category.
    Findings(&'a str),
    /// Strings whose scan was remembered from an earlier request (not scanned again).
    ScanRemembered,
    /// Parts of bodies that cannot be read as text.
    Unscannable,
    /// Tokens written into requests.
    TokensIssued,
    /// Tokens restored in responses.
    TokensRestored,
    /// Responses not restored because they are encoded (`content-encoding`).
    RestoreSkippedEncoded,
    /// Responses not restored because they exceed the restore limit.
    RestoreSkippedLarge,
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

impl Counter<'_> {
    /// The counter's name after `veil.`.
    pub fn name(&self) -> Cow<'static, str> {
        let fixed = match *self {
            Counter::Requests => "requests",
            Counter::Exempt => "exempt",
            Counter::OversizePassed => "oversize_passed",
            Counter::ScanRemembered => "scan.remembered",
            Counter::Unscannable => "unscannable",
            Counter::TokensIssued => "tokens_issued",
            Counter::TokensRestored => "tokens_restored",
            Counter::RestoreSkippedEncoded => "restore_skipped_encoded",
            Counter::RestoreSkippedLarge => "restore_skipped_large",
            Counter::VaultWrites => "vault.writes",
            Counter::VaultEvicted => "vault.evicted",
            Counter::VaultWriteFailures => "vault.write_failures",
            Counter::VaultRestored => "vault.restored",
            Counter::VaultExpired => "vault.expired",
            Counter::Verify(v) => match v {
                Verify::Responses => "verify.responses",
                Verify::Claims => "verify.claims",
                Verify::Verified => "verify.verified",
                Verify::Warnings => "verify.warnings",
                Verify::Errors => "verify.errors",
                Verify::CacheHits => "verify.cache_hits",
                Verify::Calls => "verify.calls",
                Verify::Retries => "verify.retries",
                Verify::DroppedClaims => "verify.dropped_claims",
                Verify::LatencyMsTotal => "verify.latency_ms_total",
            },
            Counter::Outcome(outcome) => return Cow::Owned(format!("outcome.{}", outcome.as_str())),
            Counter::Refused(code) => return Cow::Owned(format!("refused.{code}")),
            Counter::Findings(category) => return Cow::Owned(format!("findings.{category}")),
            Counter::VerifySkipped(reason) => return Cow::Owned(format!("verify.skipped.{reason}")),
        };
        Cow::Borrowed(fixed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The outcome counters are spelled as the audit line spells the outcome.
    #[test]
    fn outcome_counters_match_the_audit_line() {
        for outcome in Outcome::ALL {
            let audit = serde_json::to_value(outcome).unwrap();
            assert_eq!(Counter::Outcome(*outcome).name(), format!("outcome.{}", audit.as_str().unwrap()));
        }
        assert_eq!(Counter::Outcome(Outcome::OversizePassed).name(), "outcome.oversize_passed");
    }

    #[test]
    fn names_are_distinct() {
        let all = [
            Counter::Requests,
            Counter::Exempt,
            Counter::OversizePassed,
            Counter::ScanRemembered,
            Counter::Unscannable,
            Counter::TokensIssued,
            Counter::TokensRestored,
            Counter::RestoreSkippedEncoded,
            Counter::RestoreSkippedLarge,
            Counter::VaultWrites,
            Counter::VaultEvicted,
            Counter::VaultWriteFailures,
            Counter::VaultRestored,
            Counter::VaultExpired,
            Counter::Verify(Verify::Responses),
            Counter::Verify(Verify::Claims),
            Counter::Verify(Verify::Verified),
            Counter::Verify(Verify::Warnings),
            Counter::Verify(Verify::Errors),
            Counter::Verify(Verify::CacheHits),
            Counter::Verify(Verify::Calls),
            Counter::Verify(Verify::Retries),
            Counter::Verify(Verify::DroppedClaims),
            Counter::Verify(Verify::LatencyMsTotal),
        ];
        let mut names: Vec<_> = all.iter().map(Counter::name).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), all.len());
    }
}
