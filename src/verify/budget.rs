//! Budget arithmetic: how long the response may still be held, and what timeout the
//! next verifier call gets.
//!
//! The budget starts when the response would otherwise be complete (the whole body,
//! or the end of a stream); every call's timeout is capped by what is left, so the
//! last answer — or Envoy's timeout of the last call — arrives by the deadline.

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

#[cfg(test)]
mod tests {
    use super::*;

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
