//! Wake-ups for sessions that wait out a retry's backoff.
//!
//! A Proxy-Wasm HTTP context has no timer; its root context has one, the tick. So the
//! host keeps one `Alarm` per root context: a request whose [`super::Session`] waits
//! asks to be woken at [`super::Session::next_wakeup`] (and re-arms the tick when it
//! would come too late), the root's tick takes the requests that are due, and the
//! calls dispatched during a tick — whose answers Proxy-Wasm brings back to the root —
//! are traced back to their request. Generic over the handle the host keeps for a
//! request, so that the arithmetic is tested natively.

use std::collections::HashMap;

#[derive(Debug)]
pub struct Alarm<H> {
    /// Live requests: HTTP context id → (handle, when it wants to be woken, in ms).
    requests: HashMap<u32, (H, Option<u64>)>,
    /// Verifier calls out (token → request).
    calls: HashMap<u32, u32>,
    /// When the next tick comes (ms), as last armed.
    armed: Option<u64>,
}

impl<H> Default for Alarm<H> {
    fn default() -> Self {
        Alarm { requests: HashMap::new(), calls: HashMap::new(), armed: None }
    }
}

impl<H: Clone> Alarm<H> {
    pub fn add(&mut self, id: u32, handle: H) {
        self.requests.insert(id, (handle, None));
    }

    /// The request is gone (answered, or the client went away): nothing about it stays.
    pub fn forget(&mut self, id: u32) {
        self.requests.remove(&id);
        self.calls.retain(|_, owner| *owner != id);
    }

    /// A verifier call went out for request `id`.
    pub fn sent(&mut self, token: u32, id: u32) {
        self.calls.insert(token, id);
    }

    /// The request a call was made for, if it is still there (the call is forgotten).
    pub fn answered(&mut self, token: u32) -> Option<(u32, H)> {
        let id = self.calls.remove(&token)?;
        Some((id, self.requests.get(&id)?.0.clone()))
    }

    /// Request `id` wants to be woken at `at` (`None`: not at all). Returns the tick
    /// period (ms) to set now when the armed tick would come later than that.
    pub fn wake_at(&mut self, id: u32, at: Option<u64>, now: u64) -> Option<u64> {
        let request = self.requests.get_mut(&id)?;
        request.1 = at;
        let at = at?;
        if self.armed.is_some_and(|armed| armed <= at) {
            return None;
        }
        self.armed = Some(at);
        Some(at.saturating_sub(now).max(1))
    }

    /// The root itself has work at `at` (audit lines waiting). Returns the tick period
    /// (ms) to set now when the armed tick would come later than that.
    pub fn wake_root_at(&mut self, at: u64, now: u64) -> Option<u64> {
        if self.armed.is_some_and(|armed| armed <= at) {
            return None;
        }
        self.armed = Some(at);
        Some(at.saturating_sub(now).max(1))
    }

    /// The requests due at `now`; their wake-ups are used up.
    pub fn take_due(&mut self, now: u64) -> Vec<(u32, H)> {
        let mut due = Vec::new();
        for (id, (handle, at)) in &mut self.requests {
            if at.is_some_and(|at| at <= now) {
                *at = None;
                due.push((*id, handle.clone()));
            }
        }
        due
    }

    /// Arms the next tick: at the earliest wake-up, or at `otherwise` (the root's own
    /// next chore) if that is sooner. Returns the period (ms, at least 1) to set.
    pub fn rearm(&mut self, now: u64, otherwise: u64) -> u64 {
        let next = self.requests.values().filter_map(|r| r.1).min().map_or(otherwise, |at| at.min(otherwise));
        self.armed = Some(next.max(now + 1));
        next.saturating_sub(now).max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_earlier_wakeup_rearms_the_tick_a_later_one_does_not() {
        let mut alarm = Alarm::default();
        alarm.add(7, "seven");
        alarm.add(8, "eight");
        assert_eq!(alarm.rearm(0, 10_000), 10_000, "idle: the next sweep");
        assert_eq!(alarm.wake_at(7, Some(250), 50), Some(200));
        assert_eq!(alarm.wake_at(8, Some(400), 60), None, "the tick at 250 comes first");
        assert_eq!(alarm.wake_at(8, Some(100), 60), Some(40), "moved earlier");
        assert_eq!(alarm.wake_at(8, Some(90), 95), Some(1), "overdue: at once");
        assert_eq!(alarm.requests.values().filter(|r| r.1.is_some()).count(), 2);
        assert_eq!(alarm.wake_root_at(120, 100), None, "armed for 90");

        let mut root: Alarm<&str> = Alarm::default();
        assert_eq!(root.rearm(100, 10_000), 9_900);
        assert_eq!(root.wake_root_at(150, 100), Some(50), "audit lines wait until 150");
        assert_eq!(root.wake_root_at(170, 110), None, "armed for 150");
        // The tick at 150 re-arms for the sweep (the lines went out).
        assert_eq!(root.rearm(150, 10_000), 9_850);
    }

    #[test]
    fn a_tick_takes_what_is_due_and_arms_for_the_rest() {
        let mut alarm = Alarm::default();
        for id in [1, 2, 3] {
            alarm.add(id, id * 10);
        }
        alarm.rearm(0, 10_000);
        alarm.wake_at(1, Some(100), 0);
        alarm.wake_at(2, Some(300), 0);
        alarm.wake_at(3, Some(100), 0);
        assert!(alarm.take_due(99).is_empty());
        let mut due = alarm.take_due(101);
        due.sort();
        assert_eq!(due, [(1, 10), (3, 30)]);
        assert!(alarm.take_due(101).is_empty(), "used up");
        assert_eq!(alarm.rearm(101, 10_000), 199);
        assert_eq!(alarm.wake_at(1, Some(500), 150), None, "armed for 300");
        assert_eq!(alarm.take_due(300), [(2, 20)]);
        assert_eq!(alarm.rearm(300, 9_000), 200);
        assert_eq!(alarm.take_due(500), [(1, 10)]);
        assert_eq!(alarm.rearm(500, 9_000), 8_500, "nothing waits: back to the sweep");
        assert_eq!(alarm.wake_at(2, None, 500), None);
    }

    #[test]
    fn calls_find_their_request_and_a_gone_request_leaves_nothing() {
        let mut alarm = Alarm::default();
        alarm.add(4, 'a');
        alarm.add(5, 'b');
        alarm.sent(100, 4);
        alarm.sent(101, 4);
        alarm.sent(102, 5);
        alarm.rearm(0, 10_000);
        alarm.wake_at(4, Some(50), 0);
        assert_eq!(alarm.answered(100), Some((4, 'a')));
        assert_eq!(alarm.answered(100), None, "once");
        alarm.forget(4);
        assert_eq!(alarm.answered(101), None, "the client went away");
        assert!(alarm.take_due(1_000).is_empty());
        assert_eq!(alarm.wake_at(4, Some(60), 0), None, "a gone request cannot ask to be woken");
        assert_eq!(alarm.answered(102), Some((5, 'b')));
        alarm.forget(5);
        assert!(alarm.requests.is_empty() && alarm.calls.is_empty());
    }
}
