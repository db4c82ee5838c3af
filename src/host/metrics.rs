//! The host side of metrics and audit lines: counters defined in Envoy on first use
//! (names from [`crate::metrics::Counter`]), increments and lines batched per worker
//! and written together ([`crate::audit::Outbox`]).

use std::cell::RefCell;

use super::host::Host;
use super::timing;
use crate::audit::Outbox;
use crate::metrics::Counter;

/// Counters exported as Envoy stats (`wasmcustom.veil.*` from Wasm; labels, written into the
/// names, are code-defined names only: `crate::metrics`) and the audit lines, written to Envoy together: at once when the
/// worker wrote nothing for `audit::FLUSH_MS`, else at most that much later, by a
/// later request or the root's tick (`audit::Outbox`).
pub(crate) struct Metrics {
    /// Increments not yet given to Envoy, by counter name.
    pending: RefCell<Vec<(String, u64)>>,
    pub(super) outbox: RefCell<Outbox>,
}

impl Metrics {
    pub(super) fn new() -> Metrics {
        Metrics { pending: RefCell::new(Vec::new()), outbox: RefCell::new(Outbox::default()) }
    }

    /// A counter's value across every worker, with this worker's increments that have
    /// not been written yet.
    pub(super) fn read(&self, host: &dyn Host, counter: Counter<'_>) -> u64 {
        let name = counter.name();
        let written = host.counter(&name);
        let waiting = self
            .pending
            .try_borrow()
            .map_or(0, |p| p.iter().filter(|(n, _)| n.as_str() == name.as_ref()).map(|(_, by)| *by).sum());
        written.saturating_add(waiting)
    }

    pub(super) fn increment(&self, counter: Counter<'_>, by: u64) {
        if by == 0 {
            return;
        }
        let name = counter.name();
        let Ok(mut pending) = self.pending.try_borrow_mut() else { return };
        match pending.iter_mut().find(|(n, _)| n.as_str() == name.as_ref()) {
            Some((_, n)) => *n = n.saturating_add(by),
            None => pending.push((name.into_owned(), by)),
        }
    }

    /// A request is done (its audit line, if any, is `line`): writes what waits if it
    /// is due. Returns when the rest is due, for the root's tick.
    pub(super) fn settle(&self, host: &dyn Host, line: Option<&str>, now: u64) -> Option<u64> {
        let due = {
            let Ok(mut outbox) = self.outbox.try_borrow_mut() else { return None };
            match line {
                Some(line) => outbox.push(line, now),
                None => outbox.touch(now),
            }
        };
        if due {
            self.flush(host, now);
            return None;
        }
        self.outbox.try_borrow().ok().and_then(|o| o.due_at())
    }

    /// Writes every waiting line (one log call) and increment.
    pub(super) fn flush(&self, host: &dyn Host, now: u64) {
        let lines = match self.outbox.try_borrow_mut() {
            Ok(mut outbox) => outbox.take(now),
            Err(_) => return,
        };
        if !lines.is_empty() {
            timing::span(timing::Slot::LogCall, || host.write_audit(lines));
        }
        let pending = match self.pending.try_borrow_mut() {
            Ok(mut pending) => std::mem::take(&mut *pending),
            Err(_) => return,
        };
        for (name, by) in pending {
            host.increment(&name, by);
        }
    }

    /// When what waits is due, if anything waits.
    pub(super) fn due_at(&self) -> Option<u64> {
        self.outbox.try_borrow().ok().and_then(|o| o.due_at())
    }

    #[cfg(target_family = "wasm")]
    /// Whether lines or increments wait.
    pub(super) fn waiting(&self) -> bool {
        self.due_at().is_some() || self.pending.try_borrow().is_ok_and(|p| !p.is_empty())
    }
}
