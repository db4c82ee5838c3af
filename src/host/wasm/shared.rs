//! Envoy shared data (one key-value store per `vm_id`, shared by every worker) behind
//! the core's traits: the vault's [`Store`], the verifier's score [`Cache`], and the
//! random vault key the workers agree on when none is configured.

use super::abi::{self, SetShared};
use crate::host::{Host, Level};
use crate::vault::{CasMismatch, Store};
use crate::verify::Cache;

/// Envoy shared data as the vault's store.
pub(super) struct SharedStore;

impl Store for SharedStore {
    fn get(&self, key: &str) -> Option<(Vec<u8>, u32)> {
        abi::shared_data(key).ok().flatten()
    }

    /// A host error counts as a lost race: the vault treats the write as not done.
    fn set(&self, key: &str, value: &[u8], cas: Option<u32>) -> Result<(), CasMismatch> {
        abi::set_shared_data(key, value, cas.filter(|&c| c != 0)).map_err(|_| CasMismatch)
    }
}

/// Envoy shared data as the score cache.
pub(super) struct SharedCache;

impl Cache for SharedCache {
    fn load(&self, slot: &str) -> Option<Vec<u8>> {
        abi::shared_data(slot).ok().flatten().map(|(value, _)| value)
    }

    fn store(&self, slot: &str, value: &[u8]) {
        let _ = abi::set_shared_data(slot, value, None);
    }
}

const SHARED_KEY: &str = "veil/v1/key";

/// A random vault key shared by this Envoy's workers: the one another worker stored,
/// else a new one (and whichever won the race to store it). `None` without randomness
/// or shared data: the filter then refuses its configuration rather than run keyless.
pub(super) fn shared_random_key(host: &dyn Host) -> Option<[u8; 32]> {
    let stored = || match abi::shared_data(SHARED_KEY) {
        Ok(Some((value, _))) => <[u8; 32]>::try_from(value.as_slice()).ok(),
        _ => None,
    };
    if let Some(key) = stored() {
        return Some(key);
    }
    let mut key = [0u8; 32];
    if getrandom::getrandom(&mut key).is_err() {
        host.log(Level::Critical, "veil: no randomness for the vault key");
        return None;
    }
    match abi::set_shared_data(SHARED_KEY, &key, None) {
        Ok(()) | Err(SetShared::CasMismatch) => {}
        Err(SetShared::Failed(_)) => return None,
    }
    // Another worker may have won the race: use whatever is stored now.
    Some(stored().unwrap_or(key))
}
