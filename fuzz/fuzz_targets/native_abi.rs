//! The native module through its ABI, driven by the fake Envoy of
//! `tests/native_abi/fake_envoy.rs` (the same cases from bytes as the proptest there):
//! no panic or abort, no seeded value upstream (forwarded or refused), no response byte
//! lost or duplicated outside restored tokens, no misuse of Envoy's callbacks.
//! `cd fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz run -s none --features native native_abi`
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "../../tests/native_abi/fake_envoy.rs"]
mod fake_envoy;

thread_local! {
    // One filter configuration for the whole run, as Envoy keeps one per listener.
    static MODULE: fake_envoy::Module = {
        let module = fake_envoy::Module::new(b"").expect("the default policy is accepted");
        assert!(module.counters() > 0, "the configuration defines its counters");
        module
    };
}

fuzz_target!(|data: &[u8]| {
    let case = fake_envoy::Case::from_bytes(data);
    MODULE.with(|module| {
        let out = fake_envoy::run(module, &case);
        if let Err(e) = fake_envoy::check(&case, &out) {
            panic!("{e}");
        }
    });
});
