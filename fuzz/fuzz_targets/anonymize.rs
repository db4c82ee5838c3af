//! Any bytes: anonymization never panics, and its output contains no value (of 4 or
//! more bytes, without `*`, `[` or `]`, which the placeholders are made of) that the
//! detector found in the input.
#![no_main]
use libfuzzer_sys::fuzz_target;
use veil_detect::Engine;
use veil_core::policy::DetectorsConfig;

fuzz_target!(|data: &[u8]| {
    let Some((&mode, text)) = data.split_first() else { return };
    static ENGINE: std::sync::OnceLock<Engine> = std::sync::OnceLock::new();
    let engine = ENGINE.get_or_init(|| Engine::new(&DetectorsConfig::default()).expect("default detectors"));
    let out = engine.anonymize(text, |rule, _| {
        if mode % 2 == 0 { b"****".to_vec() } else { format!("[{}]", rule.category).into_bytes() }
    });
    for f in engine.scan(text) {
        let value = &text[f.start..f.end];
        if value.len() >= 4 && !value.iter().any(|b| matches!(b, b'*' | b'[' | b']')) {
            assert!(memchr::memmem::find(&out, value).is_none(), "a detected value survived anonymization");
        }
    }
});
