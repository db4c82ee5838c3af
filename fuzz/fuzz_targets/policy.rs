//! Any configuration bytes: the policy parser never panics (it accepts or rejects).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = veil_core::policy::CompiledPolicy::from_json(data);
});
