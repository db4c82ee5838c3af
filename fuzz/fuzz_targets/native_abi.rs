//! The native module through its ABI, driven by the fake Envoy of
//! `tests/native_abi/fake_envoy.rs` (the same cases from bytes as the proptest there):
//! no panic or abort, no seeded value upstream (forwarded or refused), no response byte
//! lost or duplicated outside restored tokens, no misuse of Envoy's callbacks.
//! `cd fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz run -s none --features native native_abi`
#![no_main]
use libfuzzer_sys::fuzz_target;
// The module under test, linked for its `extern "C"` hooks (no Rust path names it).
use veil as _;

#[path = "../../tests/native_abi/fake_envoy.rs"]
mod fake_envoy;

thread_local! {
    // One filter configuration per policy for the whole run (`fake_envoy::POLICIES`:
    // the default, and one with the model stage and claim verification, whose
    // callouts the case's plans answer), as Envoy keeps one per listener.
    static MODULES: Vec<fake_envoy::Module> = {
        let modules: Vec<fake_envoy::Module> = fake_envoy::POLICIES
            .iter()
            .map(|p| fake_envoy::Module::new(p).expect("the module accepts the policy"))
            .collect();
        assert!(modules.iter().all(|m| m.counters() > 0), "the configurations define their counters");
        modules
    };
}

fuzz_target!(|data: &[u8]| {
    let case = fake_envoy::Case::from_bytes(data);
    MODULES.with(|modules| {
        let out = fake_envoy::run(&modules[case.policy], &case);
        if let Err(e) = fake_envoy::check(&case, &out) {
            panic!("{e}");
        }
    });
});
