//! The native module (`libveil.so`'s code, feature `native`) driven through its ABI by a
//! fake Envoy (`fake_envoy.rs`): a crash there takes the gateway down, so arbitrary
//! headers, bodies cut anywhere (empty hooks, one buffered body), content codings and
//! SSE responses split anywhere must never panic, never send a seeded value upstream,
//! and never lose or duplicate response bytes outside restored tokens.
//! `cargo test -p veil --features native --test native_abi`; the same cases from raw
//! bytes in `fuzz/fuzz_targets/native_abi.rs`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // a test harness

mod fake_envoy;

use fake_envoy::{check, gzip, run, Case, Cuts, Module, Piece, SEED};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

fn module() -> Module {
    Module::new(b"").expect("the default policy is accepted")
}

fn assert_case(module: &Module, case: &Case) -> fake_envoy::Outcome {
    let out = run(module, case);
    if let Err(e) = check(case, &out) {
        panic!("{e}");
    }
    out
}

/// A chat request holding the seed, forwarded or refused; its response with the token.
fn chat(body: &[u8], cuts: Cuts) -> Case {
    Case {
        request_headers: vec![
            (b":method".to_vec(), b"POST".to_vec()),
            (b":path".to_vec(), b"/v1/chat/completions".to_vec()),
            (b":authority".to_vec(), b"api.example.com".to_vec()),
            (b"content-type".to_vec(), b"application/json".to_vec()),
        ],
        request_body: body.to_vec(),
        request_cuts: cuts,
        request_trailers: None,
        response_headers: vec![
            (b":status".to_vec(), b"200".to_vec()),
            (b"content-type".to_vec(), b"text/event-stream".to_vec()),
        ],
        response_body: vec![
            Piece::Bytes(br#"data: {"choices":[{"index":0,"delta":{"content":"mail "#.to_vec()),
            Piece::Token,
            Piece::Bytes(b" now\"}}]}\n\ndata: [DONE]\n\n".to_vec()),
        ],
        response_cuts: Cuts::default(),
        seed: SEED.to_vec(),
    }
}

const BODY: &[u8] = br#"{"model":"m","messages":[{"role":"user","content":"write to jane.doe@example.com today"}]}"#;

#[test]
fn a_seeded_chat_request_is_tokenized_and_its_response_restored() {
    let module = module();
    assert!(module.counters() > 0, "the configuration defines its counters");
    let out = assert_case(&module, &chat(BODY, Cuts::default()));
    assert!(out.local_reply.is_none() && !out.token.is_empty(), "forwarded with a token");
    assert!(out.downstream_body.windows(SEED.len()).any(|w| w == SEED), "the value is restored for the client");
}

#[test]
fn a_body_cut_into_every_byte_with_empty_hooks_and_slices() {
    let module = module();
    let cuts = Cuts {
        hooks: (0..BODY.len()).collect(),
        slices: (0..BODY.len()).step_by(3).collect(),
        empty_hooks: vec![0, 7, 40],
        as_buffered: false,
    };
    let mut case = chat(BODY, cuts.clone());
    case.response_cuts = cuts;
    let out = assert_case(&module, &case);
    assert!(!out.token.is_empty(), "forwarded with a token");
}

#[test]
fn a_body_that_arrives_as_one_buffered_body() {
    let module = module();
    let cuts = Cuts { slices: vec![5, 30, 31, 60], as_buffered: true, ..Cuts::default() };
    let mut case = chat(BODY, cuts.clone());
    case.response_cuts = cuts;
    let out = assert_case(&module, &case);
    assert!(!out.token.is_empty(), "forwarded with a token");
}

#[test]
fn a_gzipped_request_is_scanned_decoded() {
    let module = module();
    let mut case = chat(&gzip(BODY), Cuts { hooks: vec![10, 20], ..Cuts::default() });
    case.request_headers.push((b"content-encoding".to_vec(), b"gzip".to_vec()));
    let out = assert_case(&module, &case);
    assert!(out.local_reply.is_none() && !out.token.is_empty(), "forwarded decoded, with a token");
}

#[test]
fn a_body_that_does_not_match_its_coding_is_refused() {
    let module = module();
    let mut case = chat(BODY, Cuts::default());
    case.request_headers.push((b"content-encoding".to_vec(), b"gzip".to_vec()));
    let out = assert_case(&module, &case);
    assert!(out.local_reply.is_some(), "refused");
}

#[test]
fn huge_duplicate_and_non_utf8_headers() {
    let module = module();
    let mut case = chat(BODY, Cuts { hooks: vec![3], ..Cuts::default() });
    case.request_headers.extend([
        (b"x-big".to_vec(), vec![b'a'; 200_000]),
        (b"content-type".to_vec(), b"\xff\xfe\x00".to_vec()),
        (b"X-\xc3\x28".to_vec(), b"\xe9t\xe9".to_vec()),
        (Vec::new(), Vec::new()),
    ]);
    case.response_headers.push((b"x-\xff".to_vec(), vec![0xff; 100_000]));
    assert_case(&module, &case);
}

#[test]
fn request_trailers_after_a_chunked_body() {
    let module = module();
    let mut case = chat(BODY, Cuts { hooks: vec![17, 50], ..Cuts::default() });
    case.request_trailers = Some(vec![(b"x-checksum".to_vec(), b"abc".to_vec())]);
    assert_case(&module, &case);
}

/// Arbitrary cases (`Case::from_bytes`, shared with the fuzz target); one configuration
/// for all of them, destroyed at the end. `PROPTEST_CASES` runs more.
#[test]
fn arbitrary_streams_through_the_abi() {
    let module = module();
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(256);
    let mut runner = TestRunner::new(Config { cases, failure_persistence: None, ..Config::default() });
    // What the cases reached: tokenized and forwarded, refused, restored for the client.
    let seen = std::cell::Cell::new([0u32; 3]);
    let result = runner.run(&proptest::collection::vec(any::<u8>(), 0..1000), |bytes| {
        let case = Case::from_bytes(&bytes);
        let out = run(&module, &case);
        check(&case, &out).map_err(TestCaseError::fail)?;
        let mut s = seen.get();
        s[0] += u32::from(!out.token.is_empty());
        s[1] += u32::from(out.local_reply.is_some());
        s[2] += u32::from(!case.seed.is_empty() && out.downstream_body.windows(SEED.len()).any(|w| w == SEED));
        seen.set(s);
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    let [tokenized, refused, restored] = seen.get();
    eprintln!("{cases} cases: {tokenized} tokenized, {refused} refused, {restored} restored");
    assert!(tokenized > 0 && refused > 0 && restored > 0, "the cases reach every outcome");
}

/// Found by the arbitrary cases (a fault of the harness, not the module): the filler
/// held a name that was tokenized too, and the response's token must be the seed's.
#[test]
fn regression_another_value_of_the_request_is_tokenized_too() {
    let mut bytes = vec![0u8; 279];
    for (i, b) in [
        (0, 4),
        (1, 56),
        (41, 198),
        (42, 162),
        (43, 2),
        (44, 150),
        (45, 198),
        (46, 94),
        (49, 130),
        (59, 54),
        (114, 2),
        (115, 117),
        (116, 10),
        (117, 52),
        (118, 22),
        (141, 90),
        (146, 220),
        (147, 23),
        (171, 30),
        (176, 241),
        (179, 131),
        (186, 66),
        (190, 10),
        (201, 13),
        (202, 2),
        (205, 47),
        (206, 25),
        (232, 115),
    ] {
        bytes[i] = b;
    }
    let module = module();
    let case = Case::from_bytes(&bytes);
    let out = run(&module, &case);
    assert!(veil::token::find_tokens(&out.upstream_body).iter().any(|t| t.category == "PERSON"));
    check(&case, &out).unwrap();
}

/// Found by the fuzz target (a fault of the harness): arbitrary header bytes spelled the
/// seed, which Veil does not look for in headers; generated bytes never hold an `@` now.
#[test]
fn regression_generated_headers_never_spell_the_seed() {
    let bytes = b"\0\0\x04\0\xf5\0\xf5\x01\xc6\n\xcb\n\x01\0(\x14jane.doe@example.com:";
    let case = Case::from_bytes(bytes);
    assert!(case.request_headers.iter().all(|(k, v)| !k.contains(&b'@') && !v.contains(&b'@')));
    let module = module();
    check(&case, &run(&module, &case)).unwrap();
}
