//! The native module (`libveil.so`'s code, feature `native`) driven through its ABI by a
//! fake Envoy (`fake_envoy.rs`): a crash there takes the gateway down, so arbitrary
//! headers, bodies cut anywhere (empty hooks, one buffered body), content codings and
//! SSE responses split anywhere must never panic, never send a seeded value upstream,
//! and never lose or duplicate response bytes outside restored tokens.
//! `cargo test -p veil --features native --test native_abi`; the same cases from raw
//! bytes in `fuzz/fuzz_targets/native_abi.rs`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // a test harness

// The module under test: its `extern "C"` hooks are what `fake_envoy` calls, so the
// filter crate must be linked in although no Rust path names it.
use veil as _;

mod fake_envoy;

use fake_envoy::{check, gzip, run, Bytes, CalloutPlan, Case, Cuts, Module, Piece, Reply, Start, When, SEED};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

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
        policy: 0,
        callouts: Vec::new(),
        abandon: false,
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

/// Arbitrary cases (`Case::from_bytes`, shared with the fuzz target) under the default
/// policy (the callouts policies: `arbitrary_callouts_through_the_abi`); one
/// configuration for all of them, destroyed at the end. `PROPTEST_CASES` runs more.
#[test]
fn arbitrary_streams_through_the_abi() {
    let module = module();
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(256);
    let mut runner = TestRunner::new(Config { cases, failure_persistence: None, ..Config::default() });
    // What the cases reached: tokenized and forwarded, refused, restored for the client.
    let seen = std::cell::Cell::new([0u32; 3]);
    let result = runner.run(&proptest::collection::vec(any::<u8>(), 0..1000), |bytes| {
        let case = Case { policy: 0, ..Case::from_bytes(&bytes) };
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
    assert!(veil_core::token::find_tokens(&out.upstream_body).iter().any(|t| t.category == "PERSON"));
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

// ------------------------------- callouts -------------------------------------------

/// The callouts policy (`fake_envoy::POLICIES[1]`: the model stage, refusing on its
/// failure, and claim verification) with a JSON chat response.
fn with_callouts(plans: Vec<CalloutPlan>) -> Case {
    let mut case = chat(BODY, Cuts::default());
    case.policy = 1;
    case.callouts = plans;
    case.response_headers =
        vec![(b":status".to_vec(), b"200".to_vec()), (b"content-type".to_vec(), b"application/json".to_vec())];
    case.response_body = vec![
        Piece::Bytes(br#"{"choices":[{"index":0,"message":{"role":"assistant","content":"Paris is the capital of France. Write to "#.to_vec()),
        Piece::Token,
        Piece::Bytes(br#" again."}}]}"#.to_vec()),
    ];
    case
}

fn plan(start: Start, when: When, result: u32, status: &[u8], reply: Reply) -> CalloutPlan {
    CalloutPlan { start, when, result, status: status.to_vec(), reply }
}

fn answered(when: When, reply: Reply) -> CalloutPlan {
    plan(Start::Started, when, 0, b"200", reply)
}

/// A configuration with the callouts policy.
fn callouts_module() -> Module {
    Module::new(fake_envoy::POLICIES[1]).expect("the callouts policy is accepted")
}

fn a_model_answer_comes_later_and_the_request_goes_on(module: &Module) {
    // The model proposes "today" (a slice of the body) as a PERSON, three hooks later;
    // then the verifier scores each claim.
    let from = BODY.windows(5).position(|w| w == b"today").unwrap() as u16;
    let mut plans = vec![answered(When::Steps(3), Reply::Span { from, len: 5, category: 0 })];
    plans.extend((0..4).map(|_| answered(When::Steps(1), Reply::Score(90))));
    let case = with_callouts(plans);
    let out = run(module, &case);
    check(&case, &out).unwrap();
    assert!(out.local_reply.is_none() && !out.token.is_empty(), "forwarded with a token");
    assert!(out.callouts >= 2 && out.answered >= 2, "the model and the verifier were asked and answered");
    // The headers went on before the body could be read: the summary follows the held
    // body as a trailer, which the module sends itself.
    assert!(out.response_complete, "the held end went on");
    let summary = out.downstream_trailers.iter().find(|(k, _)| k == b"x-veil-verification");
    assert!(summary.is_some_and(|(_, v)| v.starts_with(b"claims=")), "{:?}", out.downstream_trailers);
}

fn the_model_failing_refuses_the_request(module: &Module) {
    for failed in [
        plan(Start::Started, When::Steps(0), 1, b"", Reply::Score(0)),
        plan(Start::Started, When::Steps(2), 2, b"", Reply::Score(0)),
        plan(Start::Started, When::Steps(0), 0, b"500", Reply::Raw(b"oops".to_vec())),
        answered(When::Steps(1), Reply::Raw(b"\xff not json".to_vec())),
        plan(Start::Failed, When::Steps(0), 0, b"", Reply::Score(0)),
        plan(Start::Refused, When::Steps(0), 0, b"", Reply::Score(0)),
    ] {
        let case = with_callouts(vec![failed]);
        let out = run(module, &case);
        check(&case, &out).unwrap();
        let status = out.local_reply.as_ref().map(|r| r.0);
        assert_eq!(status, Some(503), "refused: the policy blocks when the model fails");
    }
}

fn a_failed_verifier_call_is_retried_after_a_wake_up(module: &Module) {
    let model = answered(When::Steps(0), Reply::Span { from: 0, len: 0, category: 3 });
    let failed = plan(Start::Started, When::Steps(1), 0, b"503", Reply::Raw(Vec::new()));
    let mut plans = vec![model];
    plans.extend((0..3).map(|_| failed.clone()));
    plans.extend((0..6).map(|_| answered(When::Steps(0), Reply::Score(10))));
    let case = with_callouts(plans);
    let out = run(module, &case);
    check(&case, &out).unwrap();
    assert!(out.woken > 0, "a retry was woken through the scheduler");
    assert!(out.response_complete, "the held response went on");
}

fn answers_between_the_streams_end_and_its_destroy(module: &Module) {
    let model = answered(When::Steps(0), Reply::Span { from: 0, len: 0, category: 3 });
    let late = answered(When::AfterEnd, Reply::Score(50));
    let mut plans = vec![model];
    plans.extend((0..4).map(|_| late.clone()));
    let case = with_callouts(plans);
    let out = run(module, &case);
    check(&case, &out).unwrap();
}

/// The callout scenarios above, on one configuration (each builds its own otherwise,
/// and the suite is to stay quick).
#[test]
fn callouts_answered_late_failing_retried_and_after_the_end() {
    let module = callouts_module();
    a_model_answer_comes_later_and_the_request_goes_on(&module);
    the_model_failing_refuses_the_request(&module);
    a_failed_verifier_call_is_retried_after_a_wake_up(&module);
    answers_between_the_streams_end_and_its_destroy(&module);
}

/// Arbitrary cases under the callouts policy, with arbitrary callout plans: answers of
/// every kind at any point of the stream, failures, retries woken by the scheduler.
#[test]
fn arbitrary_callouts_through_the_abi() {
    let modules = [callouts_module(), Module::new(fake_envoy::POLICIES[2]).expect("the policy is accepted")];
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(128);
    // A fixed seed: the coverage asserted below (wake-ups are a few percent of the
    // cases) must not depend on the draw; `PROPTEST_CASES` and the fuzz target explore.
    let config = Config { cases, failure_persistence: None, ..Config::default() };
    let mut runner = TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha));
    let seen = std::cell::Cell::new([0u32; 4]);
    let strategy = (proptest::collection::vec(any::<u8>(), 0..600), proptest::collection::vec(any::<u8>(), 0..200));
    let result = runner.run(&strategy, |(mut bytes, plans)| {
        let b = &mut Bytes::new(&plans);
        // Half the cases are chat requests whose model call is answered with a span,
        // so that the verifier (on the response) is reached often.
        let model_answers = b.bool();
        if model_answers && !bytes.is_empty() {
            bytes[0] &= !3;
        }
        let mut case = Case::from_bytes(&bytes);
        case.policy = 1 + usize::from(b.bool());
        if model_answers {
            // … with a chat answer the verifier reads (whole or streamed).
            let answer = if b.bool() { with_callouts(Vec::new()) } else { chat(BODY, Cuts::default()) };
            (case.response_headers, case.response_body) = (answer.response_headers, answer.response_body);
        }
        // The first callout is the model's: answered with a span in those cases.
        case.callouts.clear();
        if model_answers {
            let when = When::Steps(b.u8() % 4);
            case.callouts.push(answered(when, Reply::Span { from: b.u16(), len: b.u8() % 30, category: b.u8() }));
            // The verifier's extraction, then, quotes a part of the answer; it is scored
            // (or the verifier is unavailable: a retry, woken through the scheduler).
            let when = When::Steps(b.u8() % 4);
            case.callouts.push(answered(when, Reply::Claims { from: u16::from(b.u8() % 8), len: 8 + b.u8() % 32 }));
            let when = When::Steps(b.u8() % 4);
            let status: &[u8] = if b.bool() { b"503" } else { b"200" };
            case.callouts.push(plan(Start::Started, when, 0, status, Reply::Score(b.u8() % 100)));
        }
        case.callouts.extend((0..1 + b.u8() % 8).map(|_| CalloutPlan::from_bytes(b)));
        let out = run(&modules[case.policy - 1], &case);
        check(&case, &out).map_err(TestCaseError::fail)?;
        let mut s = seen.get();
        s[3] += u32::from(out.downstream_body.windows(11).any(|w| w == b"Confidence:"));
        s[0] += u32::from(out.answered > 0);
        s[1] += u32::from(out.woken > 0);
        s[2] += u32::from(out.local_reply.is_none() && out.response_complete);
        seen.set(s);
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    // Marks are rarer (a low score under the second policy): `a_doubtful_claim_is_marked_inline`.
    let [answered, woken, through, marked] = seen.get();
    eprintln!("{cases} cases: {answered} with answers, {woken} woken, {through} through, {marked} marked");
    assert!(answered > 0 && woken > 0 && through > 0, "the cases reach answers, wake-ups and a forwarded response");
}

/// Found by the callout cases: the client went away while the request waited for the
/// model; the model's failure, answered after the stream's end, made the module send a
/// local reply (`on_failure: block`) to a stream that was over. (Envoy 1.40 destroys a
/// filter right after its stream completes, cancelling its callouts, so this needs an
/// answer in that gap; the module now ignores answers and wake-ups after the end.)
#[test]
fn regression_an_answer_after_the_streams_end_does_nothing() {
    let module = callouts_module();
    for reply in [Reply::Raw(b"x".to_vec()), Reply::Span { from: 0, len: 20, category: 0 }] {
        let mut case = with_callouts(vec![answered(When::AfterEnd, reply)]);
        case.abandon = true;
        let out = run(&module, &case);
        check(&case, &out).unwrap();
        assert!(out.local_reply.is_none() && !out.request_complete, "the request waited for the model");
    }
}

/// The second callouts policy (`POLICIES[2]`): claims the verifier doubts are marked
/// after their sentence; the rest of the body is the upstream's.
#[test]
fn a_doubtful_claim_is_marked_inline() {
    let module = Module::new(fake_envoy::POLICIES[2]).expect("the policy is accepted");
    let model = answered(When::Steps(0), Reply::Span { from: 0, len: 0, category: 3 });
    // The extraction quotes the answer's first sentence (after "Text:\n"), scored 10.
    let claim = answered(When::Steps(1), Reply::Claims { from: 6, len: 31 });
    let mut case = with_callouts(vec![model, claim, answered(When::Steps(2), Reply::Score(10))]);
    case.policy = 2;
    let out = run(&module, &case);
    check(&case, &out).unwrap();
    let body = String::from_utf8_lossy(&out.downstream_body);
    assert!(body.contains("France. \u{26a0}\u{fe0f} [Confidence: 10%] r Write"), "marked after its sentence");
}
