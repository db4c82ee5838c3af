//! What the native module keeps per process, as Envoy's shared data is for the Wasm
//! workers: the store of vault slots and verifier scores, and the random vault key.

use std::sync::OnceLock;

use crate::vault::{ShardedStore, Store};
use crate::verify::Cache;

/// The process-wide store (vault slots, sweep cursor, verifier score cache).
pub(super) fn store() -> &'static ShardedStore {
    static STORE: OnceLock<ShardedStore> = OnceLock::new();
    STORE.get_or_init(|| ShardedStore::new(64))
}

/// The random vault key this process uses when `VEIL_VAULT_KEY` is not set: one for
/// every worker and configuration, as Envoy's shared data gives the Wasm workers.
pub(super) fn process_key() -> Option<[u8; 32]> {
    static KEY: OnceLock<Option<[u8; 32]>> = OnceLock::new();
    *KEY.get_or_init(|| {
        let mut key = [0u8; 32];
        getrandom::getrandom(&mut key).ok().map(|()| key)
    })
}

pub(super) struct NativeCache;

impl Cache for NativeCache {
    fn load(&self, slot: &str) -> Option<Vec<u8>> {
        store().get(slot).map(|(value, _)| value)
    }

    fn store(&self, slot: &str, value: &[u8]) {
        let current = store().get(slot).map(|(_, cas)| cas);
        let _ = store().set(slot, value, current);
    }
}
