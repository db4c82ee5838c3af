//! The root context: one per worker and plugin. It reads the policy once per
//! configuration (`on_configure`), derives the keys, owns the vault and the metrics,
//! sweeps the vault on its tick, wakes requests whose verifier retry is due, and makes
//! each request's state.

use std::cell::RefCell;
use std::rc::{Rc, Weak};
use std::time::Duration;

use proxy_wasm::traits::{Context, HttpContext, RootContext};
use proxy_wasm::types::{ContextType, LogLevel};

use super::abi::{self, Buffer};
use super::metrics::Metrics;
use super::response::ResponseMode;
use super::shared::{ensure_slots, shared_random_key, SharedStore};
use super::verify::VerifyEnv;
use super::{log, now_ms, now_secs, Request, RequestAlarm, VeilHttp};
use crate::metrics::Counter;
use crate::policy::{CompiledPolicy, ScopeKind};
use crate::token::{id_hex_len_for, TokenMap, TokenMinter, ID_HEX_LEN};
use crate::vault::{derive, Store, Vault, VaultConfig};

/// Environment variable (set through `vm_config.environment_variables`) holding the
/// 32-byte vault key as 64 hex digits. Token ids and the vault's sealing key derive
/// from it, so it never travels in the policy.
const KEY_ENV: &str = "VEIL_VAULT_KEY";

/// The sweep cursor: which slot the next sweep starts at, claimed with CAS so that
/// each range is swept by one worker.
const SWEEP_CURSOR: &str = "veil/v1/sweep";
const SWEEP_PERIOD_SECS: u64 = 10;
const SWEEP_PERIOD_MS: u64 = SWEEP_PERIOD_SECS * 1000;

pub(super) struct VeilRoot {
    id: u32,
    policy: Rc<CompiledPolicy>,
    minter: Rc<TokenMinter>,
    vault: Option<Rc<Vault>>,
    vault_key: Option<[u8; 32]>,
    /// Keys the audit line's hash of a client-chosen request id.
    id_key: Rc<[u8; 32]>,
    metrics: Rc<Metrics>,
    verify_env: Rc<VerifyEnv>,
    alarm: RequestAlarm,
    /// When the vault is swept next (ms).
    next_sweep_ms: u64,
}

impl VeilRoot {
    pub(super) fn new(id: u32) -> VeilRoot {
        VeilRoot {
            id,
            policy: Rc::new(default_policy()),
            // Replaced in on_configure, once the vault key is known.
            minter: Rc::new(TokenMinter::new([0; 32])),
            vault: None,
            vault_key: None,
            id_key: Rc::new([0; 32]),
            metrics: Rc::new(Metrics::new()),
            verify_env: Rc::new(VerifyEnv::new(std::iter::empty(), &[0; 32])),
            alarm: Rc::default(),
            next_sweep_ms: 0,
        }
    }

    /// Sets the tick for the earliest of: the next sweep, the earliest wake-up.
    fn rearm(&mut self, now: u64) {
        // A wall clock that went back must not postpone the sweep.
        if self.next_sweep_ms > now + SWEEP_PERIOD_MS {
            self.next_sweep_ms = now;
        }
        let next = self.metrics.due_at().map_or(self.next_sweep_ms, |at| at.min(self.next_sweep_ms));
        let Ok(mut alarm) = self.alarm.try_borrow_mut() else { return };
        let period = alarm.rearm(now, next);
        drop(alarm);
        let _ = abi::set_tick_period(Duration::from_millis(period));
    }

    /// Sweeps the next batch of vault slots (claimed with CAS, so one worker sweeps it).
    fn sweep(&self) {
        let Some(vault) = self.vault.clone() else { return };
        let slots = vault.config().slots();
        // Sweep every slot about once per TTL/8 (at least 64 per tick).
        let ticks_per_round = (vault.config().ttl_secs / 8 / SWEEP_PERIOD_SECS).max(1) as usize;
        let batch = slots.div_ceil(ticks_per_round).max(64).min(slots);
        let (cursor, cas) = match SharedStore.get(SWEEP_CURSOR) {
            Some((bytes, cas)) => {
                (std::str::from_utf8(&bytes).ok().and_then(|t| t.parse::<usize>().ok()).unwrap_or(0), cas)
            }
            None => (0, 0),
        };
        let next = (cursor + batch) % slots;
        if SharedStore.set(SWEEP_CURSOR, next.to_string().as_bytes(), Some(cas)).is_err() {
            return; // another worker took this range
        }
        let report = vault.sweep(&SharedStore, cursor, batch, now_secs());
        self.metrics.increment(Counter::VaultExpired, u64::from(report.expired));
    }

    /// Wakes the requests whose verifier retry is due: each one's work is done as that
    /// request (effective context), so its calls, body and resume are its own.
    fn wake_requests(&self, now: u64) {
        let due = self.alarm.try_borrow_mut().map(|mut a| a.take_due(now)).unwrap_or_default();
        for (id, request) in due {
            self.as_request(id, &request, VeilHttp::verify_wake);
        }
    }

    /// Runs `f` on a request's state with the request as the effective context, then
    /// switches back. Nothing runs when the request is gone.
    fn as_request(&self, id: u32, request: &Weak<RefCell<VeilHttp>>, f: impl FnOnce(&mut VeilHttp)) {
        let Some(request) = request.upgrade() else { return };
        if abi::set_effective_context(id).is_err() {
            return;
        }
        if let Ok(mut http) = request.try_borrow_mut() {
            f(&mut http);
        }
        let _ = abi::set_effective_context(self.id);
    }

    /// The vault key: from `VEIL_VAULT_KEY`, else the one another worker already put
    /// in shared data, else a new random one (shared with the other workers); `None`
    /// when there is none to be had (no randomness or shared data).
    fn vault_key(&mut self) -> Option<[u8; 32]> {
        if let Some(key) = self.vault_key {
            return Some(key);
        }
        let mut key = [0u8; 32];
        let from_env = std::env::var(KEY_ENV).ok().is_some_and(|hex| parse_hex_key(hex.trim(), &mut key));
        if !from_env {
            if std::env::var(KEY_ENV).is_ok() {
                log(LogLevel::Error, "veil: VEIL_VAULT_KEY is not 64 hex digits; ignoring it");
            }
            key = shared_random_key()?;
            log(
                LogLevel::Warn,
                "veil: VEIL_VAULT_KEY is not set; using a random key shared by this Envoy's workers: \
                 tokens will change and the vault will not survive a restart",
            );
        }
        self.vault_key = Some(key);
        Some(key)
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

impl Context for VeilRoot {
    /// A verifier call dispatched during a tick: Proxy-Wasm brings its answer to the
    /// context that was active then, the root. It goes on to its request.
    fn on_http_call_response(&mut self, token_id: u32, num_headers: usize, body_size: usize, _num_trailers: usize) {
        let owner = self.alarm.try_borrow_mut().ok().and_then(|mut a| a.answered(token_id));
        if let Some((id, request)) = owner {
            self.as_request(id, &request, |http| http.verify_on_call_response(token_id, num_headers, body_size));
        }
    }

    /// The plugin is going away (a new policy, or Envoy stopping): nothing may stay
    /// unwritten.
    fn on_done(&mut self) -> bool {
        self.metrics.flush(now_ms());
        true
    }
}

impl RootContext for VeilRoot {
    fn on_configure(&mut self, _size: usize) -> bool {
        let config = abi::buffer(Buffer::PluginConfiguration, 0, usize::MAX).ok().flatten().unwrap_or_default();
        let policy = match CompiledPolicy::from_json(&config) {
            Ok(policy) => policy,
            Err(err) => {
                // The error names fields and rule ids only (PolicyError's contract).
                log(LogLevel::Error, &format!("veil: policy rejected: {err}"));
                return false;
            }
        };
        let Some(key) = self.vault_key() else {
            log(LogLevel::Critical, "veil: no vault key could be made; the policy is not applied");
            return false;
        };
        let v = &policy.policy.vault;
        // With per-request scope nothing crosses requests: no vault to keep.
        let shared = v.enabled && v.scope != ScopeKind::Request;
        let auto = if shared { id_hex_len_for(v.max_entries) } else { ID_HEX_LEN };
        let id_len = policy.policy.tokens.id_length.unwrap_or(auto);
        self.minter = Rc::new(TokenMinter::new(derive(&key, "veil/v1/token")).with_id_len(id_len));
        self.id_key = Rc::new(derive(&key, "veil/v1/request-id"));
        self.vault = shared.then(|| {
            let config = VaultConfig { ttl_secs: v.ttl_seconds, max_entries: v.max_entries, max_bytes: v.max_bytes };
            let vault = Vault::new(&key, config);
            ensure_slots(&vault);
            Rc::new(vault)
        });
        let verification = policy.profiles().map(|p| &p.verification);
        self.verify_env = Rc::new(VerifyEnv::new(verification, &key));
        if let Ok(mut outbox) = self.metrics.outbox.try_borrow_mut() {
            outbox.set_flush_ms(policy.policy.audit.flush_ms);
        }
        self.policy = Rc::new(policy);
        let now = now_ms();
        self.next_sweep_ms = now + SWEEP_PERIOD_MS;
        self.rearm(now);
        log(LogLevel::Info, "veil: policy loaded");
        true
    }

    /// The tick comes at the next sweep or at the earliest verifier retry, whichever is
    /// sooner (`rearm`), so retries do not change the sweep's cadence.
    fn on_tick(&mut self) {
        let now = now_ms();
        self.wake_requests(now);
        if now >= self.next_sweep_ms {
            self.next_sweep_ms = now + SWEEP_PERIOD_MS;
            self.sweep();
        }
        // Lines or increments of requests, or the sweep's own.
        if self.metrics.waiting() {
            self.metrics.flush(now);
        }
        self.rearm(now);
    }

    fn create_http_context(&self, context_id: u32) -> Option<Box<dyn HttpContext>> {
        let http = Rc::new(RefCell::new(VeilHttp {
            id: context_id,
            alarm: Rc::clone(&self.alarm),
            policy: Rc::clone(&self.policy),
            minter: Rc::clone(&self.minter),
            vault: self.vault.clone(),
            metrics: Rc::clone(&self.metrics),
            id_key: Rc::clone(&self.id_key),
            provider: None,
            rule: None,
            unscanned: false,
            scanned: false,
            exempt: false,
            codings: Vec::new(),
            content_type: String::new(),
            keep_length: false,
            started: std::time::SystemTime::UNIX_EPOCH,
            request_id: String::new(),
            scope: Vec::new(),
            tokens: TokenMap::default(),
            audit: None,
            response: ResponseMode::Pass,
            json_array_stream: false,
            verify_env: Rc::clone(&self.verify_env),
            verify: None,
            api: None,
            model: None,
        }));
        if let Ok(mut alarm) = self.alarm.try_borrow_mut() {
            alarm.add(context_id, Rc::downgrade(&http));
        }
        Some(Box::new(Request { id: context_id, http, alarm: Rc::clone(&self.alarm) }))
    }

    fn get_type(&self) -> Option<ContextType> {
        Some(ContextType::HttpContext)
    }
}
