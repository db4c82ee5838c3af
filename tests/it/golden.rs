//! Golden files: recorded-shape bodies and their exact rewrites, one runner for all.
//!
//! Each case is a folder under `tests/golden/<provider>/` with
//!   request.json   what the client sent
//!   vendor.json    what the vendor must receive (byte for byte)
//!   response.json  what the vendor answered (may contain the tokens it received)
//!   client.json    what the client must get back (byte for byte)
//! Tokens are derived with a fixed test key, so they are stable. `VEIL_BLESS=1`
//! rewrites vendor.json and client.json from the current code (review the diff!).

use std::path::Path;

use veil::policy::CompiledPolicy;
use veil::provider::Provider;
use veil::redact::{Redactor, Verdict};
use veil::restore::restore_json;
use veil::token::TokenMinter;

const KEY: [u8; 32] = [0x11; 32];

fn check(dir: &Path, provider: Provider) {
    let read = |name: &str| std::fs::read(dir.join(name)).unwrap_or_else(|e| panic!("{}/{name}: {e}", dir.display()));
    let policy = CompiledPolicy::from_json(b"").unwrap();
    let minter = TokenMinter::new(KEY);
    let redactor = Redactor { policy: &policy, provider, minter: &minter, scope: b"golden" };
    let request = read("request.json");
    let redaction = redactor.redact(&request);
    let vendor = match redaction.verdict {
        Verdict::Forward => request.clone(),
        Verdict::Rewrite(body) => body,
        Verdict::Block { category } => panic!("{}: blocked on {category}", dir.display()),
    };
    let response = read("response.json");
    let restored = restore_json(provider, &response, &redaction.tokens).unwrap();
    let client = restored.body.unwrap_or(response);
    if std::env::var_os("VEIL_BLESS").is_some() {
        std::fs::write(dir.join("vendor.json"), &vendor).unwrap();
        std::fs::write(dir.join("client.json"), &client).unwrap();
        return;
    }
    assert_eq!(String::from_utf8_lossy(&vendor), String::from_utf8_lossy(&read("vendor.json")), "{}: vendor view", dir.display());
    assert_eq!(String::from_utf8_lossy(&client), String::from_utf8_lossy(&read("client.json")), "{}: client view", dir.display());
}

#[test]
fn openai_chat_golden_cases() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/openai_chat");
    let mut cases = 0;
    for entry in std::fs::read_dir(&root).unwrap() {
        let dir = entry.unwrap().path();
        if dir.is_dir() {
            check(&dir, Provider::OpenAiChat);
            cases += 1;
        }
    }
    assert!(cases >= 4, "found {cases} golden cases");
}
