//! Audit lines of one configuration, written to Envoy's log together.
//!
//! The Wasm host batches a worker's lines on the worker's tick (`audit::Outbox`); a
//! dynamic module has no worker timer, and a stream's scheduler dies with its stream.
//! So the native host keeps one [`Outbox`] per configuration, shared by the worker
//! threads, with the same rule: a line goes out at once when nothing was written for
//! `audit.flush_ms`, otherwise it waits at most that long or until
//! [`crate::audit::FLUSH_LINES`] lines wait. A worker whose line makes the batch due
//! writes it itself (one log call, outside the lock); a writer thread writes what
//! became due with no later line to carry it. Nothing is dropped: without a writer
//! thread every line is due at once, and dropping the batch (the configuration's
//! teardown) writes what waits.

use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::audit::Outbox;

/// Where batched lines go (Envoy's log; a test's buffer).
pub(super) type Sink = fn(&str);

struct Inner {
    state: Mutex<State>,
    wake: Condvar,
    sink: Sink,
}

struct State {
    outbox: Outbox,
    /// The batch was dropped: the writer thread ends.
    closed: bool,
}

/// One configuration's waiting audit lines, and its writer thread.
pub(super) struct AuditBatch(Arc<Inner>, Option<JoinHandle<()>>);

/// Milliseconds on a monotonic clock (a wall clock set back must not hold lines).
fn now_ms() -> u64 {
    static START: OnceLock<Instant> = OnceLock::new();
    let start = *START.get_or_init(Instant::now);
    u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX)
}

impl AuditBatch {
    /// A batch whose lines wait at most `flush_ms`, written to `sink`; with no interval,
    /// or if no writer thread can be started, every line is written as it comes.
    pub(super) fn new(flush_ms: u64, sink: Sink) -> AuditBatch {
        let inner = Arc::new(Inner {
            state: Mutex::new(State { outbox: Outbox::new(flush_ms), closed: false }),
            wake: Condvar::new(),
            sink,
        });
        let mut handle = None;
        if flush_ms > 0 {
            let writer = Arc::clone(&inner);
            handle = std::thread::Builder::new().name("veil-audit".into()).spawn(move || writer.run()).ok();
            if handle.is_none() {
                if let Ok(mut state) = inner.state.lock() {
                    state.outbox.set_flush_ms(0);
                }
            }
        }
        AuditBatch(inner, handle)
    }

    /// Adds lines (joined by newlines); writes the batch now when it is due.
    pub(super) fn push(&self, lines: &str) {
        let now = now_ms();
        let Ok(mut state) = self.0.state.lock() else {
            // Only a panic while holding the lock poisons it, and panics abort.
            (self.0.sink)(lines);
            return;
        };
        let was_waiting = state.outbox.due_at().is_some();
        if state.outbox.push(lines, now) {
            let batch = state.outbox.take(now);
            drop(state);
            (self.0.sink)(&batch);
        } else if !was_waiting {
            // The writer learns when this batch is due.
            drop(state);
            self.0.wake.notify_one();
        }
    }
}

impl Inner {
    /// The writer thread: sleeps until what waits is due, writes it, until closed.
    fn run(&self) {
        let Ok(mut state) = self.state.lock() else { return };
        loop {
            if state.closed {
                return;
            }
            let now = now_ms();
            state = match state.outbox.due_at() {
                None => match self.wake.wait(state) {
                    Ok(s) => s,
                    Err(_) => return,
                },
                Some(at) if at <= now => {
                    let batch = state.outbox.take(now);
                    drop(state);
                    if !batch.is_empty() {
                        (self.sink)(&batch);
                    }
                    match self.state.lock() {
                        Ok(s) => s,
                        Err(_) => return,
                    }
                }
                Some(at) => match self.wake.wait_timeout(state, Duration::from_millis(at - now)) {
                    Ok((s, _)) => s,
                    Err(_) => return,
                },
            };
        }
    }
}

impl Drop for AuditBatch {
    /// The configuration is gone: the writer ends (a write it is making is finished
    /// first: no log call outlives the configuration), and what waits is written now.
    fn drop(&mut self) {
        let batch = match self.0.state.lock() {
            Ok(mut state) => {
                state.closed = true;
                state.outbox.take(now_ms())
            }
            Err(_) => String::new(),
        };
        self.0.wake.notify_one();
        if let Some(writer) = self.1.take() {
            let _ = writer.join();
        }
        if !batch.is_empty() {
            (self.0.sink)(&batch);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static WRITTEN: Mutex<Vec<String>> = Mutex::new(Vec::new());

    fn sink(lines: &str) {
        WRITTEN.lock().unwrap().push(lines.to_string());
    }

    fn written() -> Vec<String> {
        WRITTEN.lock().unwrap().clone()
    }

    // One test (the sink is process-wide): the behaviours in order.
    #[test]
    fn lines_wait_together_and_none_is_lost() {
        // No interval: each line is its own write, at once.
        let batch = AuditBatch::new(0, sink);
        batch.push("a");
        batch.push("b");
        assert_eq!(written(), ["a", "b"]);
        drop(batch);
        WRITTEN.lock().unwrap().clear();

        // Idle: the first line at once; the next ones wait for the writer thread, which
        // writes them together with no later request to carry them.
        let batch = AuditBatch::new(500, sink);
        batch.push("1");
        assert_eq!(written(), ["1"]);
        batch.push("2");
        batch.push("3");
        let deadline = Instant::now() + Duration::from_secs(10);
        while written().len() < 2 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(written(), ["1", "2\n3"]);
        drop(batch);
        WRITTEN.lock().unwrap().clear();

        // The bound: the line that fills the batch writes it, without waiting; the
        // teardown writes what waits.
        let batch = AuditBatch::new(10_000, sink);
        batch.push("first");
        for i in 0..crate::audit::FLUSH_LINES {
            batch.push(&i.to_string());
        }
        batch.push("last");
        let out = written();
        assert_eq!(out.len(), 2);
        assert_eq!(out[1].lines().count(), crate::audit::FLUSH_LINES);
        drop(batch);
        assert_eq!(written().last().map(String::as_str), Some("last"));
        assert_eq!(written().len(), 3);
    }
}
