//! With the `timing` feature: wall time inside each callback (and inside the redaction
//! and the audit log call), averaged per request and logged every 1000 requests.
//! Durations only. Without the feature every call here is a no-op.

#[derive(Clone, Copy)]
#[allow(dead_code)] // the native host times fewer slots
pub(super) enum Slot {
    RequestHeaders,
    RequestBody,
    Redact,
    ResponseHeaders,
    ResponseBody,
    Log,
    LogCall,
}

#[cfg(feature = "timing")]
const NAMES: [&str; 7] =
    ["request_headers", "request_body", "(redact)", "response_headers", "response_body", "on_log", "(log call)"];

#[cfg(feature = "timing")]
thread_local! {
    static TOTALS: std::cell::RefCell<([u64; 7], u64)> = const { std::cell::RefCell::new(([0; 7], 0)) };
}

#[cfg(feature = "timing")]
fn now_ns() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX))
}

#[cfg(feature = "timing")]
pub(super) fn span<R>(slot: Slot, f: impl FnOnce() -> R) -> R {
    let start = now_ns();
    let r = f();
    let spent = now_ns().saturating_sub(start);
    TOTALS.with(|t| {
        if let Some(total) = t.borrow_mut().0.get_mut(slot as usize) {
            *total += spent;
        }
    });
    r
}

#[cfg(feature = "timing")]
pub(super) fn request_done(host: &dyn super::Host) {
    TOTALS.with(|t| {
        let mut t = t.borrow_mut();
        t.1 += 1;
        if t.1 >= 1000 {
            let mut line = format!("veil timing: {} requests, wall time inside the filter per request:", t.1);
            for (name, total) in NAMES.iter().zip(t.0) {
                line.push_str(&format!(" {name}={:.1}us", total as f64 / 1000.0 / t.1 as f64));
            }
            host.log(super::Level::Warn, &line);
            *t = ([0; 7], 0);
        }
    });
}

#[cfg(not(feature = "timing"))]
#[inline(always)]
pub(super) fn span<R>(_slot: Slot, f: impl FnOnce() -> R) -> R {
    f()
}

#[cfg(not(feature = "timing"))]
#[inline(always)]
pub(super) fn request_done(_host: &dyn super::Host) {}
