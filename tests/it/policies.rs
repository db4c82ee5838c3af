//! Every policy in `policies/` is valid, and `default.yaml` is the built-in default.

use std::path::Path;

use veil_core::policy::{CompiledPolicy, Policy};

fn load(path: &Path) -> Policy {
    let text = std::fs::read_to_string(path).unwrap();
    serde_norway::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn every_policy_file_compiles() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../policies");
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "yaml") {
            CompiledPolicy::new(load(&path)).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            seen += 1;
        }
    }
    assert!(seen >= 3, "expected the example policies, found {seen}");
}

#[test]
fn default_yaml_is_the_built_in_default() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../policies/default.yaml");
    assert_eq!(load(&path), Policy::default());
}

#[test]
fn a_typo_in_a_yaml_policy_is_an_error() {
    let err = serde_norway::from_str::<Policy>("apiVersion: veil/v1\nlimits:\n  max_body_byte: 5\n").unwrap_err();
    assert!(err.to_string().contains("unknown field `max_body_byte`"), "{err}");
}
