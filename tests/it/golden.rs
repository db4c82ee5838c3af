//! Golden files: recorded-shape bodies and their exact rewrites, one runner for all.
//!
//! Each case is a folder under `tests/golden/<provider>/` with
//!   request.json   what the client sent
//!   vendor.json    what the vendor must receive (byte for byte)
//!   response.EXT   what the vendor answered (may contain the tokens it received)
//!   client.EXT     what the client must get back (byte for byte)
//! where EXT is `json` (a whole body), `sse` (an event stream) or `jsonarray`
//! (Gemini's streamed array). Streams are fed in 7-byte chunks.
//! Tokens are derived with a fixed test key, so they are stable. `VEIL_BLESS=1`
//! rewrites vendor.json and client.json from the current code (review the diff!).

use std::path::Path;

use veil_core::policy::CompiledPolicy;
use veil_core::provider::Provider;
use veil_core::redact::{Redactor, Verdict};
use veil_core::restore::restore_json;
use veil_core::stream::{Framing, ResponseStream};
use veil_core::token::TokenMinter;

const KEY: [u8; 32] = [0x11; 32];

fn check(dir: &Path, provider: Provider) {
    let read = |name: &str| std::fs::read(dir.join(name)).unwrap_or_else(|e| panic!("{}/{name}: {e}", dir.display()));
    let policy = CompiledPolicy::from_json(b"").unwrap();
    let minter = TokenMinter::new(KEY);
    let redactor =
        Redactor { profile: policy.profile(None), provider, minter: &minter, scope: b"golden", taken: &|_, _| false };
    let request = read("request.json");
    let redaction = redactor.redact(&request);
    let vendor = match redaction.verdict {
        Verdict::Forward => request.clone(),
        Verdict::Rewrite(body) => body,
        Verdict::Block { category } => panic!("{}: blocked on {category}", dir.display()),
        Verdict::Refuse(refusal) => panic!("{}: refused ({})", dir.display(), refusal.code()),
    };
    let ext = ["json", "sse", "jsonarray"]
        .into_iter()
        .find(|e| dir.join(format!("response.{e}")).exists())
        .unwrap_or_else(|| panic!("{}: no response.*", dir.display()));
    let response = read(&format!("response.{ext}"));
    let client = match ext {
        "json" => restore_json(provider, &response, &redaction.tokens).unwrap().body.unwrap_or(response),
        _ => {
            let framing = if ext == "sse" { Framing::Sse } else { Framing::JsonArray };
            let mut restorer = ResponseStream::new(provider, framing);
            let chunks: Vec<&[u8]> = response.chunks(7).collect();
            let mut out = Vec::new();
            for (i, chunk) in chunks.iter().enumerate() {
                out.extend(restorer.feed(chunk, i + 1 == chunks.len(), &redaction.tokens));
            }
            out
        }
    };
    if std::env::var_os("VEIL_BLESS").is_some() {
        std::fs::write(dir.join("vendor.json"), &vendor).unwrap();
        std::fs::write(dir.join(format!("client.{ext}")), &client).unwrap();
        return;
    }
    assert_eq!(
        String::from_utf8_lossy(&vendor),
        String::from_utf8_lossy(&read("vendor.json")),
        "{}: vendor view",
        dir.display()
    );
    assert_eq!(
        String::from_utf8_lossy(&client),
        String::from_utf8_lossy(&read(&format!("client.{ext}"))),
        "{}: client view",
        dir.display()
    );
}

fn run_provider(dir: &str, provider: Provider, at_least: usize) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/golden").join(dir);
    let mut cases = 0;
    for entry in std::fs::read_dir(&root).unwrap() {
        let dir = entry.unwrap().path();
        if dir.is_dir() {
            check(&dir, provider);
            cases += 1;
        }
    }
    assert!(cases >= at_least, "{}: found {cases} golden cases", root.display());
}

#[test]
fn openai_chat_golden_cases() {
    run_provider("openai_chat", Provider::OpenAiChat, 5);
}

#[test]
fn openai_responses_golden_cases() {
    run_provider("openai_responses", Provider::OpenAiResponses, 2);
}

#[test]
fn anthropic_messages_golden_cases() {
    run_provider("anthropic_messages", Provider::Anthropic, 2);
}

#[test]
fn gemini_golden_cases() {
    run_provider("gemini", Provider::Gemini, 3);
}
