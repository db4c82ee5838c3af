//! Budget arithmetic: how long the response may still be held, and what timeout the
//! next verifier call gets.
//!
//! The budget starts when the response would otherwise be complete (the whole body,
//! or the end of a stream); every call's timeout is capped by what is left, so the
//! last answer — or Envoy's timeout of the last call — arrives by the deadline.
//! A retry waits out its backoff first, and is not made when that wait would leave
//! less than [`MIN_CALL_MS`] of the budget.

/// A call is not worth making with less than this left (ms).
pub const MIN_CALL_MS: u64 = 25;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    deadline_ms: u64,
}

impl Budget {
    pub fn start(now_ms: u64, budget_ms: u64) -> Budget {
        Budget { deadline_ms: now_ms.saturating_add(budget_ms) }
    }

    pub fn remaining(&self, now_ms: u64) -> u64 {
        self.deadline_ms.saturating_sub(now_ms)
    }

    pub fn expired(&self, now_ms: u64) -> bool {
        self.remaining(now_ms) < MIN_CALL_MS
    }

    /// The timeout for a call made now: the per-call timeout, capped by the
    /// remaining budget; `None` when too little is left to make a call.
    pub fn call_timeout(&self, now_ms: u64, per_call_ms: u64) -> Option<u64> {
        let left = self.remaining(now_ms);
        (left >= MIN_CALL_MS).then(|| per_call_ms.min(left))
    }
}

/// The wait before retry number `attempt` (1 = the first retry): `base_ms`·2^(attempt−1),
/// at most `max_ms`, plus `jitter` modulo a quarter of that (so answers that failed
/// together — a verifier restart resets every call at once — do not all retry in the
/// same millisecond). `base_ms` 0: no wait.
pub fn backoff_ms(base_ms: u64, max_ms: u64, attempt: u32, jitter: u64) -> u64 {
    if base_ms == 0 {
        return 0;
    }
    let doublings = attempt.saturating_sub(1).min(16);
    let wait = base_ms.saturating_mul(1 << doublings).min(max_ms.max(base_ms));
    wait + jitter % (wait / 4 + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_up_to_the_cap_with_at_most_a_quarter_of_jitter() {
        let waits: Vec<u64> = (1..=6).map(|attempt| backoff_ms(200, 2000, attempt, 0)).collect();
        assert_eq!(waits, [200, 400, 800, 1600, 2000, 2000]);
        assert_eq!(backoff_ms(200, 2000, 1, 50), 250, "jitter adds up to a quarter");
        assert_eq!(backoff_ms(200, 2000, 1, 51), 200, "and wraps within it");
        assert_eq!(backoff_ms(200, 2000, 5, 500), 2500);
        for jitter in [0, 1, 7, 12_345, u64::MAX] {
            let wait = backoff_ms(100, 1000, 2, jitter);
            assert!((200..=250).contains(&wait), "{jitter}: {wait}");
        }
        assert_eq!(backoff_ms(0, 2000, 3, 99), 0, "0: retry at once");
        assert_eq!(backoff_ms(500, 100, 1, 0), 500, "a cap under the base is the base");
        assert_eq!(backoff_ms(60_000, 60_000, u32::MAX, u64::MAX), 60_000 + u64::MAX % 15_001, "no overflow");
    }

    #[test]
    fn timeouts_are_capped_by_what_is_left() {
        let b = Budget::start(1_000, 5_000);
        assert_eq!(b.remaining(1_000), 5_000);
        assert_eq!(b.call_timeout(1_000, 3_000), Some(3_000));
        assert_eq!(b.call_timeout(4_000, 3_000), Some(2_000));
        assert_eq!(b.call_timeout(5_990, 3_000), None);
        assert!(b.expired(5_990));
        assert!(!b.expired(5_900));
        assert_eq!(b.remaining(9_000), 0);
        assert_eq!(b.call_timeout(9_000, 3_000), None);
    }

    #[test]
    fn no_overflow_at_the_edges() {
        let b = Budget::start(u64::MAX - 1, 5_000);
        assert_eq!(b.remaining(u64::MAX - 1), 1);
        assert_eq!(Budget::start(0, 0).call_timeout(0, 10), None);
    }
}
