//! Any stream, any chunking, any provider: the restorer never panics, holds back a
//! bounded amount, and gives the same bytes however the input is split.
#![no_main]
use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use veil_core::provider::Provider;
use veil_core::stream::{Framing, ResponseStream};
use veil_core::token::{TokenMap, TokenMinter};

#[derive(Debug, Arbitrary)]
struct Input {
    provider: u8,
    array: bool,
    cuts: Vec<u16>,
    stream: Vec<u8>,
}

fn run(provider: Provider, framing: Framing, stream: &[u8], cuts: &[usize], map: &TokenMap) -> Vec<u8> {
    let mut r = ResponseStream::new(provider, framing);
    let mut bounds: Vec<usize> = cuts.iter().map(|c| c % (stream.len() + 1)).collect();
    bounds.extend([0, stream.len()]);
    bounds.sort_unstable();
    bounds.dedup();
    let mut out = Vec::new();
    if bounds.len() == 1 {
        return r.feed(b"", true, map);
    }
    for (i, w) in bounds.windows(2).enumerate() {
        out.extend(r.feed(&stream[w[0]..w[1]], i + 2 == bounds.len(), map));
    }
    out
}

fuzz_target!(|input: Input| {
    let provider = [Provider::OpenAiChat, Provider::OpenAiResponses, Provider::Anthropic, Provider::Gemini, Provider::Generic]
        [input.provider as usize % 5];
    let framing = if input.array { Framing::JsonArray } else { Framing::Sse };
    let mut map = TokenMap::default();
    map.issue(&TokenMinter::new([1; 32]), b"s", "EMAIL", b"jane@example.com");
    let cuts: Vec<usize> = input.cuts.iter().map(|&c| c as usize).collect();
    let whole = run(provider, framing, &input.stream, &[], &map);
    let split = run(provider, framing, &input.stream, &cuts, &map);
    assert_eq!(whole, split);
});
