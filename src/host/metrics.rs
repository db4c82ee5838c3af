//! The host side of metrics and audit lines: counters defined in Envoy on first use
//! (names from [`crate::metrics::Counter`]), increments and lines batched per worker
//! and written together ([`crate::audit::Outbox`]).

use std::cell::RefCell;
use std::collections::HashMap;

use proxy_wasm::types::LogLevel;

use super::{abi, log, timing};
use crate::audit::Outbox;
use crate::metrics::Counter;

/// Counters exported as Envoy stats (`wasmcustom.veil.*`; labels, written into the
/// names, are code-defined names only: `crate::metrics`) and the audit lines, written to Envoy together: at once when the
/// worker wrote nothing for `audit::FLUSH_MS`, else at most that much later, by a
/// later request or the root's tick (`audit::Outbox`).
pub(super) struct Metrics {
    ids: RefCell<HashMap<String, u32>>,
    /// Increments not yet given to Envoy, by metric id.
    pending: RefCell<Vec<(u32, u64)>>,
    pub(super) outbox: RefCell<Outbox>,
}

impl Metrics {
    pub(super) fn new() -> Metrics {
        Metrics {
            ids: RefCell::new(HashMap::new()),
            pending: RefCell::new(Vec::new()),
            outbox: RefCell::new(Outbox::default()),
        }
    }

    /// The counter's id in Envoy, defined on first use (defining it again in another
    /// worker gives the same counter).
    fn id(&self, counter: Counter<'_>) -> Option<u32> {
        let name = counter.name();
        let name = name.as_ref();
        let mut ids = self.ids.try_borrow_mut().ok()?;
        match ids.get(name) {
            Some(id) => Some(*id),
            None => {
                let id = abi::define_counter(name).ok()?;
                ids.insert(name.to_string(), id);
                Some(id)
            }
        }
    }

    /// A counter's value across every worker, with this worker's increments that have
    /// not been written yet.
    pub(super) fn read(&self, counter: Counter<'_>) -> u64 {
        let Some(id) = self.id(counter) else { return 0 };
        let written = abi::metric(id).unwrap_or(0);
        let waiting =
            self.pending.try_borrow().map_or(0, |p| p.iter().filter(|(i, _)| *i == id).map(|(_, n)| *n).sum());
        written.saturating_add(waiting)
    }

    pub(super) fn increment(&self, counter: Counter<'_>, by: u64) {
        if by == 0 {
            return;
        }
        let Some(id) = self.id(counter) else { return };
        let mut pending = self.pending.borrow_mut();
        match pending.iter_mut().find(|(i, _)| *i == id) {
            Some((_, n)) => *n = n.saturating_add(by),
            None => pending.push((id, by)),
        }
    }

    /// A request is done (its audit line, if any, is `line`): writes what waits if it
    /// is due. Returns when the rest is due, for the root's tick.
    pub(super) fn settle(&self, line: Option<&str>, now: u64) -> Option<u64> {
        let due = {
            let Ok(mut outbox) = self.outbox.try_borrow_mut() else { return None };
            match line {
                Some(line) => outbox.push(line, now),
                None => outbox.touch(now),
            }
        };
        if due {
            self.flush(now);
            return None;
        }
        self.outbox.try_borrow().ok().and_then(|o| o.due_at())
    }

    /// Writes every waiting line (one log call) and increment.
    pub(super) fn flush(&self, now: u64) {
        let lines = match self.outbox.try_borrow_mut() {
            Ok(mut outbox) => outbox.take(now),
            Err(_) => return,
        };
        if !lines.is_empty() {
            timing::span(timing::Slot::LogCall, || log(LogLevel::Info, &lines));
        }
        for (id, by) in self.pending.borrow_mut().drain(..) {
            let _ = abi::increment(id, by);
        }
    }

    /// When what waits is due, if anything waits.
    pub(super) fn due_at(&self) -> Option<u64> {
        self.outbox.try_borrow().ok().and_then(|o| o.due_at())
    }

    /// Whether lines or increments wait.
    pub(super) fn waiting(&self) -> bool {
        self.due_at().is_some() || self.pending.try_borrow().is_ok_and(|p| !p.is_empty())
    }
}
