//! Any bytes, any of a few policies: the detector never panics, its findings are in
//! bounds, ordered, non-overlapping and above the threshold.
#![no_main]
use libfuzzer_sys::fuzz_target;
use veil_detect::Engine;
use veil_core::policy::DetectorsConfig;

fn engines() -> &'static [Engine] {
    static ENGINES: std::sync::OnceLock<Vec<Engine>> = std::sync::OnceLock::new();
    ENGINES.get_or_init(|| {
        let mut with_words = DetectorsConfig::default();
        with_words.code_names = vec!["Bluefin".into(), "Project Nightjar".into()];
        with_words.customer_names = vec!["Globex".into()];
        with_words.given_names = vec!["Zebulon".into()];
        with_words.internal_domains = vec![".corp.example.com".into()];
        let mut strict = with_words.clone();
        strict.confidence_threshold = 0.9;
        let mut loose = DetectorsConfig::default();
        loose.confidence_threshold = 0.0;
        [DetectorsConfig::default(), with_words, strict, loose]
            .iter()
            .map(|c| Engine::new(c).expect("valid config"))
            .collect()
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, text)) = data.split_first() else { return };
    let engines = engines();
    let engine = &engines[selector as usize % engines.len()];
    let mut last = 0;
    for f in engine.scan(text) {
        assert!(f.start >= last && f.start < f.end && f.end <= text.len());
        assert!((0.0..=1.0).contains(&f.confidence));
        assert!(engine.rule(f.rule).is_some());
        last = f.end;
    }
});
