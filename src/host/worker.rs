//! What one worker holds per filter configuration, for both hosts: the policy, the
//! keys derived from the vault key, the vault, the metrics, the verifier environment
//! and the alarm; the vault sweep and the tick; and each request's state
//! ([`VeilHttp`]). The Wasm host keeps one per root context (one per worker and
//! plugin); the native host one per worker thread and filter configuration.

use std::cell::RefCell;
use std::rc::Rc;
#[cfg(target_family = "wasm")]
use std::rc::Weak;
use std::time::Duration;

use super::exchange::{now_ms, now_secs, Kind, RequestAlarm, VeilHttp};
use super::metrics::Metrics;
use super::state::{ResponseMode, VerifyEnv};
use super::{Host, Level};
use crate::metrics::Counter;
use crate::policy::{CompiledPolicy, ScopeKind};
use crate::token::{id_hex_len_for, TokenMap, TokenMinter, ID_HEX_LEN};
use crate::vault::{derive, Store, Vault, VaultConfig};

/// Environment variable holding the 32-byte vault key as 64 hex digits (Wasm: set
/// through `vm_config.environment_variables`; native: Envoy's own environment). Token
/// ids and the vault's sealing key derive from it, so it never travels in the policy.
pub(crate) const KEY_ENV: &str = "VEIL_VAULT_KEY";

/// The sweep cursor: which slot the next sweep starts at, claimed with CAS so that
/// each range is swept by one worker.
const SWEEP_CURSOR: &str = "veil/v1/sweep";
const SWEEP_PERIOD_SECS: u64 = 10;
const SWEEP_PERIOD_MS: u64 = SWEEP_PERIOD_SECS * 1000;

pub(crate) struct Worker {
    policy: Rc<CompiledPolicy>,
    minter: Rc<TokenMinter>,
    vault: Option<Rc<Vault>>,
    /// Keys the audit line's hash of a client-chosen request id.
    id_key: Rc<[u8; 32]>,
    pub(super) metrics: Rc<Metrics>,
    verify_env: Rc<VerifyEnv>,
    pub(super) alarm: RequestAlarm,
    /// When the vault is swept next (ms).
    next_sweep_ms: u64,
}

impl Default for Worker {
    fn default() -> Worker {
        Worker {
            policy: Rc::new(default_policy()),
            // Replaced in `configure`, once the vault key is known.
            minter: Rc::new(TokenMinter::new([0; 32])),
            vault: None,
            id_key: Rc::new([0; 32]),
            metrics: Rc::new(Metrics::new()),
            verify_env: Rc::new(VerifyEnv::new(std::iter::empty(), &[0; 32])),
            alarm: Rc::default(),
            next_sweep_ms: 0,
        }
    }
}

impl Worker {
    /// Applies a compiled policy under the vault key `key`.
    pub(crate) fn configure(&mut self, host: &dyn Host, policy: CompiledPolicy, key: &[u8; 32]) {
        let v = &policy.policy.vault;
        // With per-request scope nothing crosses requests: no vault to keep.
        let shared = v.enabled && v.scope != ScopeKind::Request;
        let auto = if shared { id_hex_len_for(v.max_entries) } else { ID_HEX_LEN };
        let id_len = policy.policy.tokens.id_length.unwrap_or(auto);
        self.minter = Rc::new(TokenMinter::new(derive(key, "veil/v1/token")).with_id_len(id_len));
        self.id_key = Rc::new(derive(key, "veil/v1/request-id"));
        self.vault = shared.then(|| {
            let config = VaultConfig { ttl_secs: v.ttl_seconds, max_entries: v.max_entries, max_bytes: v.max_bytes };
            let vault = Vault::new(key, config);
            ensure_slots(host.store(), &vault);
            Rc::new(vault)
        });
        let verification = policy.profiles().map(|p| &p.verification);
        self.verify_env = Rc::new(VerifyEnv::new(verification, key));
        if let Ok(mut outbox) = self.metrics.outbox.try_borrow_mut() {
            outbox.set_flush_ms(policy.policy.audit.flush_ms);
        }
        self.policy = Rc::new(policy);
        let now = now_ms(host);
        self.next_sweep_ms = now + SWEEP_PERIOD_MS;
        self.rearm(host, now);
    }

    /// A new request's state, known to the alarm under `id`.
    pub(crate) fn new_request(&self, id: u32, host: Box<dyn Host>) -> Rc<RefCell<VeilHttp>> {
        let http = Rc::new(RefCell::new(VeilHttp {
            host,
            id,
            alarm: Rc::clone(&self.alarm),
            policy: Rc::clone(&self.policy),
            minter: Rc::clone(&self.minter),
            vault: self.vault.clone(),
            metrics: Rc::clone(&self.metrics),
            id_key: Rc::clone(&self.id_key),
            kind: Kind::Passthrough,
            rule: None,
            codings: Vec::new(),
            content_type: String::new(),
            keep_length: false,
            started: std::time::SystemTime::UNIX_EPOCH,
            request_id: String::new(),
            scope: Vec::new(),
            tokens: TokenMap::default(),
            audit: None,
            response: ResponseMode::Pass,
            verify_env: Rc::clone(&self.verify_env),
            verify: None,
            model: None,
            callouts: Vec::new(),
        }));
        if let Ok(mut alarm) = self.alarm.try_borrow_mut() {
            alarm.add(id, Rc::downgrade(&http));
        }
        http
    }

    /// The request `id` is over: no wake-up or late verifier answer can find it.
    #[cfg(feature = "native")]
    pub(crate) fn forget(&self, id: u32) {
        if let Ok(mut alarm) = self.alarm.try_borrow_mut() {
            alarm.forget(id);
        }
    }

    /// Sets the tick for the earliest of: the next sweep, the earliest wake-up.
    pub(crate) fn rearm(&mut self, host: &dyn Host, now: u64) {
        if !host.has_timer() {
            return;
        }
        // A wall clock that went back must not postpone the sweep.
        if self.next_sweep_ms > now + SWEEP_PERIOD_MS {
            self.next_sweep_ms = now;
        }
        let next = self.metrics.due_at().map_or(self.next_sweep_ms, |at| at.min(self.next_sweep_ms));
        let Ok(mut alarm) = self.alarm.try_borrow_mut() else { return };
        let period = alarm.rearm(now, next);
        drop(alarm);
        host.set_tick(Duration::from_millis(period));
    }

    #[cfg(target_family = "wasm")]
    /// The tick: wakes the requests whose verifier retry is due (each through
    /// `as_request`, which runs it as that request), sweeps when due, writes what waits.
    pub(crate) fn tick(
        &mut self,
        host: &dyn Host,
        as_request: impl Fn(u32, &Weak<RefCell<VeilHttp>>, &dyn Fn(&mut VeilHttp)),
    ) {
        let now = now_ms(host);
        let due = self.alarm.try_borrow_mut().map(|mut a| a.take_due(now)).unwrap_or_default();
        for (id, request) in due {
            as_request(id, &request, &VeilHttp::verify_wake);
        }
        self.sweep_if_due(host, now);
        // Lines or increments of requests, or the sweep's own.
        if self.metrics.waiting() {
            self.metrics.flush(host, now);
        }
        self.rearm(host, now);
    }

    /// Sweeps the next batch of vault slots when the sweep period is over.
    pub(crate) fn sweep_if_due(&mut self, host: &dyn Host, now: u64) {
        if now < self.next_sweep_ms {
            return;
        }
        self.next_sweep_ms = now + SWEEP_PERIOD_MS;
        self.sweep(host);
    }

    /// Sweeps the next batch of vault slots (claimed with CAS, so one worker sweeps it).
    fn sweep(&self, host: &dyn Host) {
        let Some(vault) = self.vault.clone() else { return };
        let store = host.store();
        let slots = vault.config().slots();
        // Sweep every slot about once per TTL/8 (at least 64 per tick).
        let ticks_per_round = (vault.config().ttl_secs / 8 / SWEEP_PERIOD_SECS).max(1) as usize;
        let batch = slots.div_ceil(ticks_per_round).max(64).min(slots);
        let (cursor, cas) = match store.get(SWEEP_CURSOR) {
            Some((bytes, cas)) => {
                (std::str::from_utf8(&bytes).ok().and_then(|t| t.parse::<usize>().ok()).unwrap_or(0), cas)
            }
            None => (0, 0),
        };
        let next = (cursor + batch) % slots;
        if store.set(SWEEP_CURSOR, next.to_string().as_bytes(), Some(cas)).is_err() {
            return; // another worker took this range
        }
        let report = vault.sweep(store, cursor, batch, now_secs(host));
        self.metrics.increment(Counter::VaultExpired, u64::from(report.expired));
    }

    #[cfg(target_family = "wasm")]
    /// The configuration is going away: nothing may stay unwritten.
    pub(crate) fn done(&self, host: &dyn Host) {
        self.metrics.flush(host, now_ms(host));
    }
}

/// Creates every slot that does not exist yet, so that all vault writes can use
/// compare-and-swap (Envoy's shared data cannot create a key only if it is absent).
fn ensure_slots(store: &dyn Store, vault: &Vault) {
    let marker = format!("veil/v1/slots/{}", vault.config().slots());
    if store.get(&marker).is_some() {
        return;
    }
    for slot in 0..vault.config().slots() {
        let key = Vault::slot_key(slot);
        if store.get(&key).is_none() {
            let _ = store.set(&key, &[], None);
        }
    }
    let _ = store.set(&marker, b"1", None);
}

/// The vault key from `VEIL_VAULT_KEY`, else `shared_random()` (a random key the
/// workers share); `None` when there is none to be had.
pub(crate) fn vault_key(
    log: impl Fn(Level, &str),
    shared_random: impl FnOnce() -> Option<[u8; 32]>,
) -> Option<[u8; 32]> {
    let mut key = [0u8; 32];
    if std::env::var(KEY_ENV).ok().is_some_and(|hex| parse_hex_key(hex.trim(), &mut key)) {
        return Some(key);
    }
    if std::env::var(KEY_ENV).is_ok() {
        log(Level::Error, "veil: VEIL_VAULT_KEY is not 64 hex digits; ignoring it");
    }
    let key = shared_random()?;
    log(
        Level::Warn,
        "veil: VEIL_VAULT_KEY is not set; using a random key shared by this Envoy's workers: \
         tokens will change and the vault will not survive a restart",
    );
    Some(key)
}

/// Parses a policy for a host: the error, logged, names fields and rule ids only
/// (PolicyError's contract).
pub(crate) fn parse_policy(log: impl Fn(Level, &str), config: &[u8]) -> Option<CompiledPolicy> {
    match CompiledPolicy::from_json(config) {
        Ok(policy) => Some(policy),
        Err(err) => {
            log(Level::Error, &format!("veil: policy rejected: {err}"));
            None
        }
    }
}

fn default_policy() -> CompiledPolicy {
    match CompiledPolicy::new(crate::policy::Policy::default()) {
        Ok(p) => p,
        // The default policy is covered by unit tests; this cannot fail.
        Err(_) => std::process::abort(),
    }
}

fn parse_hex_key(hex: &str, key: &mut [u8; 32]) -> bool {
    if hex.len() != 64 {
        return false;
    }
    for (i, byte) in key.iter_mut().enumerate() {
        match hex.get(2 * i..2 * i + 2).and_then(|h| u8::from_str_radix(h, 16).ok()) {
            Some(b) => *byte = b,
            None => return false,
        }
    }
    true
}
