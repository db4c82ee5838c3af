"""Claim verification through the verifier cluster: real Envoy + veil.wasm, the fake
vendor, and the fake verifier (OpenAI-compatible and Ollama shapes) scripted per
test, driven by the official SDKs.

The vendor echoes "You said: <prompt>"; the verifier extracts the sentences of the
text it is given and scores a claim 20 when it mentions the moon (else 95). Every
failure of the verifier must leave the answer exactly as it would be without
verification, within the budget, with the reason counted."""

from __future__ import annotations

import json
import time

import pytest

from tests.e2e.seeds import SEEDS
from tests.rig import clients, rig

EMAIL = SEEDS["EMAIL"][0]
PROMPT = f"The moon is made of green cheese. Paris is the capital of France. Write to {EMAIL} today."
PLAIN = f"You said: {PROMPT}"
MARK = "\u26a0\ufe0f [Confidence: 20%] Synthetic check: contradicts the reference set."
INLINE = PLAIN.replace("green cheese. ", f"green cheese. {MARK} ")
APPENDED = f"{PLAIN}\n\n{MARK} (\u201cYou said: The moon is made of green cheese.\u201d)"

POLICY = {"verification": {"enabled": True}}
# The client settings of this file: its own credential, and room for a verifier's answer.
VERIFY = {"api_key": "test-key-verify", "timeout": 30}


@pytest.fixture(scope="module")
def verifier():
    v = rig.Verifier()
    yield v
    v.stop()


@pytest.fixture(autouse=True)
def reset_verifier_and_vendor(verifier, vendor):
    """Each test starts with the verifier's normal script and empty call logs."""
    verifier.reset()
    vendor.reset()


@pytest.fixture(scope="module")
def verifying_gateways(gateways, verifier):
    """Gateways whose `verifier` cluster is the fake verifier, one per name: started by
    the first test that asks for it, shared by the module's tests, stopped after them."""
    started: dict[str, rig.Envoy] = {}

    def get(name: str, policy: dict, *, verifier_port: int | None = None) -> rig.Envoy:
        if name not in started:
            started[name] = gateways(policy, verifier_port=verifier_port or verifier.port)
        return started[name]

    yield get
    for envoy in started.values():
        envoy.stop()


@pytest.fixture()
def verifying_gateway(verifying_gateways):
    """The gateway with verification on, through the fake verifier."""
    return verifying_gateways("default", POLICY)




def chat(envoy, prompt: str = PROMPT) -> str:
    reply = clients.openai(envoy, **VERIFY).chat.completions.create(model="gpt-4o-mini", messages=[{"role": "user", "content": prompt}])
    return reply.choices[0].message.content


def stat(envoy, name: str) -> int:
    return envoy.stats().get(f"wasmcustom.veil.{name}", 0)


def wait_stat(envoy, name: str, at_least: int, timeout: float = 3.0) -> int:
    deadline = time.monotonic() + timeout
    while True:
        value = stat(envoy, name)
        if value >= at_least or time.monotonic() > deadline:
            return value
        time.sleep(0.05)


# --- the normal path ---------------------------------------------------------------


def test_doubtful_claim_is_marked_inline_after_its_sentence(verifying_gateway, verifier):
    before = stat(verifying_gateway, "verify.warnings_total")
    assert chat(verifying_gateway) == INLINE
    assert stat(verifying_gateway, "verify.warnings_total") == before + 1
    kinds = [c["body"]["messages"][0]["content"].split(".")[0] for c in verifier.calls()]
    assert kinds[0] == "You extract checkable factual claims from a text"
    assert len(kinds) == 4, "one extraction, three claims scored"
    body = verifier.calls()[0]["body"]
    assert body["response_format"]["type"] == "json_object"
    assert body["response_format"]["schema"]["required"] == ["claims"]
    assert body["temperature"] == 0.0


def test_verifier_sees_tokens_never_the_personal_data(verifying_gateway, verifier):
    assert EMAIL in chat(verifying_gateway)
    calls = json.dumps([c["body"] for c in verifier.calls()], ensure_ascii=False)
    assert EMAIL not in calls
    assert "\u00abtoken:EMAIL:" in calls


def test_audit_and_log_carry_counts_not_claims(verifying_gateway):
    chat(verifying_gateway)
    time.sleep(0.3)
    event = verifying_gateway.audit_events()[-1]
    assert event["verification"]["claims"] == 3
    assert event["verification"]["warnings"] == 1
    log = verifying_gateway.log()
    assert "green cheese" not in log
    assert "capital of France" not in log
    assert EMAIL not in log


def test_scores_are_cached(verifying_gateway, verifier):
    chat(verifying_gateway)
    hits = stat(verifying_gateway, "verify.cache_hits_total")
    verifier.reset()
    assert chat(verifying_gateway) == INLINE
    assert stat(verifying_gateway, "verify.cache_hits_total") >= hits + 3
    assert len(verifier.calls()) == 1, "only the extraction"


def test_answers_in_prose_and_code_fences_are_read(verifying_gateway, verifier):
    verifier.script(mode="prose")
    assert chat(verifying_gateway, PROMPT.replace("Paris", "Lyon")) == INLINE.replace("Paris", "Lyon")


def test_ollama_endpoint(verifying_gateways, verifier):
    envoy = verifying_gateways("ollama", {"verification": {"enabled": True, "endpoint": "ollama", "model": "llama3.2:1b", "annotate": "append"}})
    assert chat(envoy, PROMPT + " Ollama.") == APPENDED.replace("today.", "today. Ollama.")
    call = verifier.calls()[0]
    assert call["path"] == "/api/chat"
    assert call["body"]["format"] == "json"
    assert call["body"]["model"] == "llama3.2:1b"
    assert call["body"]["stream"] is False


def test_verification_is_off_by_default(gateway, verifier):
    assert chat(gateway) == PLAIN
    assert verifier.calls() == []


# --- every API shape, streamed and not ------------------------------------------------


def responses_text(envoy, stream: bool) -> str:
    client = clients.openai(envoy, **VERIFY)
    if not stream:
        return client.responses.create(model="gpt-4o-mini", input=PROMPT).output_text
    events = list(client.responses.create(model="gpt-4o-mini", input=PROMPT, stream=True))
    assert events[-1].type == "response.completed"
    return "".join(e.delta for e in events if e.type == "response.output_text.delta")


def chat_text(envoy, stream: bool) -> str:
    if not stream:
        return chat(envoy)
    chunks = list(clients.openai(envoy, **VERIFY).chat.completions.create(model="gpt-4o-mini", messages=[{"role": "user", "content": PROMPT}], stream=True))
    return "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)


def anthropic_text(envoy, stream: bool) -> str:
    client = clients.anthropic(envoy, **VERIFY)
    if not stream:
        message = client.messages.create(model="claude-x", max_tokens=100, messages=[{"role": "user", "content": PROMPT}])
        return message.content[0].text
    with client.messages.stream(model="claude-x", max_tokens=100, messages=[{"role": "user", "content": PROMPT}]) as s:
        final = s.get_final_message()
    assert final.stop_reason == "end_turn"
    return final.content[0].text


def gemini_text(envoy, stream: bool) -> str:
    client = clients.gemini(envoy, **VERIFY)
    if not stream:
        return client.models.generate_content(model="gemini-2.0-flash", contents=PROMPT).text
    return "".join(c.text or "" for c in client.models.generate_content_stream(model="gemini-2.0-flash", contents=PROMPT))


SHAPES = {"openai_chat": chat_text, "openai_responses": responses_text, "anthropic": anthropic_text, "gemini": gemini_text}


@pytest.mark.parametrize("shape", SHAPES)
def test_every_shape_whole_body(verifying_gateway, shape):
    assert SHAPES[shape](verifying_gateway, False) == INLINE


@pytest.mark.parametrize("shape", SHAPES)
def test_every_shape_stream_gets_one_more_event(verifying_gateway, shape):
    assert SHAPES[shape](verifying_gateway, True) == APPENDED


@pytest.mark.parametrize("style", ["inline", "append", "headers"])
def test_responses_stream_whole_text_repeats_match_what_was_sent(verifying_gateways, style):
    """The Responses API repeats the whole text after its deltas (output_text.done,
    content_part.done, output_item.done, response.completed). The marks event comes
    before the first repeat, and every repeat holds the text plus the marks, so the
    SDK's final response is what the client was streamed."""
    envoy = verifying_gateways(f"style-{style}", {"verification": {"enabled": True, "annotate": style}})
    expected = PLAIN if style == "headers" else APPENDED
    client = clients.openai(envoy, **VERIFY)
    events = list(client.responses.create(model="gpt-4o-mini", input=PROMPT, stream=True))
    types = [e.type for e in events]
    deltas = [e.delta for e in events if e.type == "response.output_text.delta"]
    assert "".join(deltas) == expected
    last_delta = max(i for i, t in enumerate(types) if t == "response.output_text.delta")
    assert last_delta < types.index("response.output_text.done"), types
    by_type = {e.type: e for e in events}
    assert by_type["response.output_text.done"].text == expected
    assert by_type["response.content_part.done"].part.text == expected
    assert by_type["response.output_item.done"].item.content[0].text == expected
    assert by_type["response.completed"].response.output_text == expected
    with client.responses.stream(model="gpt-4o-mini", input=PROMPT) as stream:
        assert stream.get_final_response().output_text == expected


STREAM_REQUESTS = {
    "openai_chat": ("/v1/chat/completions", {"model": "m", "stream": True, "messages": [{"role": "user", "content": PROMPT}]}),
    "openai_responses": ("/v1/responses", {"model": "m", "stream": True, "input": PROMPT}),
    "anthropic": ("/v1/messages", {"model": "claude-x", "max_tokens": 100, "stream": True, "messages": [{"role": "user", "content": PROMPT}]}),
    "gemini_sse": ("/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse", {"contents": [{"role": "user", "parts": [{"text": PROMPT}]}]}),
    "gemini_array": ("/v1beta/models/gemini-2.0-flash:streamGenerateContent", {"contents": [{"role": "user", "parts": [{"text": PROMPT}]}]}),
}


@pytest.mark.parametrize("shape", STREAM_REQUESTS)
def test_stream_summary_is_a_trailer_and_in_the_audit_line(verifying_gateway, shape):
    """A stream's headers leave before its text: the summary follows it as a trailer
    (HTTP/1.1 chunked trailers; envoy/ configs set enable_trailers) and is in the audit line."""
    path, body = STREAM_REQUESTS[shape]
    status, _, data, trailers = clients.post_raw(verifying_gateway, path, body, **VERIFY)
    assert status == 200
    assert "Confidence: 20%" in data.decode()
    assert trailers == {"x-veil-verification": "claims=3; verified=3; warnings=1"}
    time.sleep(0.3)
    summary = verifying_gateway.audit_events()[-1]["verification"]
    assert (summary["claims"], summary["verified"], summary["warnings"], summary.get("skipped")) == (3, 3, 1, None)


def test_whole_answer_summary_is_a_trailer_when_headers_are_not_held(verifying_gateway, verifier):
    """Without `hold_headers` a whole answer's headers leave before its body is read:
    the summary follows the body as a trailer, as for a stream (and the SDK still reads
    the body as usual)."""
    body = {"model": "m", "messages": [{"role": "user", "content": PROMPT}]}
    status, _, data, trailers = clients.post_raw(verifying_gateway, "/v1/chat/completions", body, **VERIFY)
    assert status == 200
    assert "Confidence: 20%" in json.loads(data)["choices"][0]["message"]["content"]
    assert trailers == {"x-veil-verification": "claims=3; verified=3; warnings=1"}
    verifier.script(mode="error")
    status, _, data, trailers = clients.post_raw(verifying_gateway, "/v1/chat/completions", body, **VERIFY)
    assert status == 200 and json.loads(data)["choices"][0]["message"]["content"] == PLAIN
    assert trailers == {"x-veil-verification": "claims=0; verified=0; warnings=0; skipped=verifier_error"}


def test_stream_trailer_says_why_verification_failed_open(verifying_gateway, verifier):
    verifier.script(mode="error")
    status, _, data, trailers = clients.post_raw(verifying_gateway, *STREAM_REQUESTS["openai_chat"], **VERIFY)
    assert status == 200 and "Confidence" not in data.decode()
    assert trailers == {"x-veil-verification": "claims=0; verified=0; warnings=0; skipped=verifier_error"}
    time.sleep(0.3)
    assert verifying_gateway.audit_events()[-1]["verification"]["skipped"] == "verifier_error"


def test_unverified_streams_get_no_trailer(gateway):
    status, _, data, trailers = clients.post_raw(gateway, *STREAM_REQUESTS["openai_chat"], **VERIFY)
    assert status == 200 and data.rstrip().endswith(b"data: [DONE]")
    assert trailers == {}


# --- failing open ---------------------------------------------------------------------

FAILURES = {
    "error": ("verifier_error", {"mode": "error"}),
    "malformed": ("verifier_garbage", {"mode": "malformed"}),
    "drop": ("verifier_unavailable", {"mode": "drop"}),
}


@pytest.mark.parametrize("stream", [False, True], ids=["whole", "stream"])
@pytest.mark.parametrize("failure", FAILURES)
def test_verifier_failures_leave_the_answer_untouched(verifying_gateway, verifier, failure, stream):
    reason, script = FAILURES[failure]
    verifier.script(**script)
    before = stat(verifying_gateway, f"reason=.={reason};.;verify.skipped_total")
    errors = stat(verifying_gateway, "verify.errors_total")
    assert chat_text(verifying_gateway, stream) == PLAIN
    assert wait_stat(verifying_gateway, f"reason=.={reason};.;verify.skipped_total", before + 1) == before + 1
    assert stat(verifying_gateway, "verify.errors_total") == errors + 1
    assert len(verifier.calls()) == 2, "one call, one retry"


@pytest.mark.parametrize("stream", [False, True], ids=["whole", "stream"])
def test_slow_verifier_is_cut_off_by_the_budget(verifying_gateways, verifier, stream):
    envoy = verifying_gateways("tight", {"verification": {"enabled": True, "budget_ms": 800, "call_timeout_ms": 500}})
    # The verifier would answer after 10 s; the budget is 0.8 s. The answer must come
    # back before the verifier's (an order of events, not a timing: load cannot flake it).
    verifier.script(mode="slow", delay_ms=10_000)
    before = stat(envoy, "reason=.=verifier_timeout;.;verify.skipped_total")
    assert chat_text(envoy, stream) == PLAIN
    assert [c for c in verifier.calls() if "answered" in c] == [], "the answer waited for the slow verifier"
    assert wait_stat(envoy, "reason=.=verifier_timeout;.;verify.skipped_total", before + 1) == before + 1
    assert len(verifier.calls()) == 1, "a timeout is not retried"


@pytest.mark.parametrize("stream", [False, True], ids=["whole", "stream"])
def test_refused_connection(verifying_gateways, stream):
    envoy = verifying_gateways("refused", POLICY, verifier_port=rig.free_port())
    before = stat(envoy, "reason=.=verifier_unavailable;.;verify.skipped_total")
    assert chat_text(envoy, stream) == PLAIN
    assert wait_stat(envoy, "reason=.=verifier_unavailable;.;verify.skipped_total", before + 1) == before + 1


def test_stream_first_bytes_do_not_wait_for_the_verifier(verifying_gateways, verifier):
    """With a slow verifier, the stream's text arrives at vendor speed; only the end waits."""
    envoy = verifying_gateways("tight", {"verification": {"enabled": True, "budget_ms": 800, "call_timeout_ms": 500}})
    verifier.script(mode="slow", delay_ms=10_000)
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", envoy.port, timeout=30)
    body = json.dumps({"model": "m", "stream": True, "messages": [{"role": "user", "content": PROMPT * 4}]})
    conn.request("POST", "/v1/chat/completions", body, {"content-type": "application/json", "authorization": "Bearer k"})
    response = conn.getresponse()
    first = response.read1(64)
    # Orders of events, not timings: the first bytes came while the verifier's call was
    # still out (sent during the stream, answered 10 s later), and so did the end.
    assert first and [c for c in verifier.calls() if "answered" in c] == [], "the first bytes waited for the verifier"
    rest = response.read()
    assert (first + rest).rstrip().endswith(b"data: [DONE]")
    assert verifier.calls(), "claims went to the verifier during the stream"
    assert [c for c in verifier.calls() if "answered" in c] == [], "the end waited for the slow verifier"


# --- retries with backoff -------------------------------------------------------------

BACKOFF_MS = 400


@pytest.mark.parametrize("stream", [False, True], ids=["whole", "stream"])
@pytest.mark.parametrize("failure", ["error", "drop"])
def test_a_failed_call_is_retried_after_its_backoff(verifying_gateways, verifier, failure, stream):
    """The verifier fails the extraction once (500, or a dropped connection): the retry
    comes after the backoff (the root's tick wakes the waiting request) and the answer
    gets its marks."""
    envoy = verifying_gateways("backoff", {"hold_headers": True, "verification": {
        "enabled": True, "retry_backoff_ms": BACKOFF_MS, "retry_backoff_max_ms": BACKOFF_MS, "cache_entries": 0}})
    verifier.script(mode=failure, fail_calls=1)
    retries, errors = stat(envoy, "verify.retries_total"), stat(envoy, "verify.errors_total")
    if stream:
        assert chat_text(envoy, True) == APPENDED
    else:
        # The held headers get the summary, set as the request by the root's tick.
        raw = clients.openai(envoy, **VERIFY).chat.completions.with_raw_response.create(
            model="gpt-4o-mini", messages=[{"role": "user", "content": PROMPT}])
        assert raw.parse().choices[0].message.content == INLINE
        assert raw.headers.get("x-veil-verification") == "claims=3; verified=3; warnings=1"
    calls = verifier.calls()
    assert len(calls) == 5, "the failed extraction, its retry, three claims scored"
    assert calls[0]["body"] == calls[1]["body"], "the retry repeats the call"
    gap_ms = (calls[1]["received"] - calls[0]["answered"]) * 1000
    print(f"retry {gap_ms:.0f} ms after the failure ({failure}, {'stream' if stream else 'whole'}; backoff {BACKOFF_MS} ms)")
    # Not before the backoff (a lower bound the filter enforces; load can only lengthen
    # the gap, so no upper bound is asserted: how late is for the benchmarks).
    assert BACKOFF_MS <= gap_ms, f"retry {gap_ms:.0f} ms after the failure"
    assert wait_stat(envoy, "verify.retries_total", retries + 1) == retries + 1
    assert stat(envoy, "verify.errors_total") == errors


def warm(envoy, verifier) -> None:
    """One answer through a new gateway before a timed one (V8 compiles the filter's
    functions on first use), then a clean verifier log."""
    chat(envoy)
    verifier.reset()


def unmarked_answer_time(envoy, stream: bool, reason: str) -> float:
    """Seconds until the answer came back unmarked; a whole one says why in its header."""
    started = time.monotonic()
    if stream:
        assert chat_text(envoy, True) == PLAIN
    else:
        raw = clients.openai(envoy, **VERIFY).chat.completions.with_raw_response.create(
            model="gpt-4o-mini", messages=[{"role": "user", "content": PROMPT}])
        assert raw.parse().choices[0].message.content == PLAIN
        assert raw.headers.get("x-veil-verification") == f"claims=0; verified=0; warnings=0; skipped={reason}"
    return time.monotonic() - started


@pytest.mark.parametrize("stream", [False, True], ids=["whole", "stream"])
def test_a_backoff_past_the_budget_fails_open_at_once(verifying_gateways, verifier, stream):
    """A retry that could not start within the budget is not waited for: the answer goes
    on unmarked right away, with the failure as the reason."""
    policy = {"hold_headers": True, "verification": {
        "enabled": True, "budget_ms": 1000, "call_timeout_ms": 800, "retry_backoff_ms": 1500, "retry_backoff_max_ms": 1500}}
    envoy = verifying_gateways("backoff-past-budget", policy)
    warm(envoy, verifier)
    verifier.script(mode="error")
    before = stat(envoy, "reason=.=verifier_error;.;verify.skipped_total")
    held = unmarked_answer_time(envoy, stream, "verifier_error")
    # Not waited for: the reason is the call's failure, not the budget's end (which
    # would say verifier_timeout), and no retry went out. (The time, for the record.)
    print(f"unmarked answer after {held:.2f}s (budget 1 s, backoff 1.5 s)")
    assert len(verifier.calls()) == 1, "no retry"
    assert wait_stat(envoy, "reason=.=verifier_error;.;verify.skipped_total", before + 1) == before + 1
    time.sleep(0.3)
    summary = envoy.audit_events()[-1]["verification"]
    assert (summary["skipped"], summary["errors"], summary["retries"]) == ("verifier_error", 1, 0)


def test_a_client_gone_while_a_retry_waits_leaves_nothing_behind(gateways, verifier):
    """The client hangs up while its verification waits out a backoff: the request is
    forgotten (no retry is sent for it), nothing panics, and the worker goes on serving."""
    import http.client

    policy = {"verification": {"enabled": True, "retry_backoff_ms": 1500, "retry_backoff_max_ms": 1500}}
    envoy = gateways(policy, concurrency=1, verifier_port=verifier.port)
    try:
        verifier.script(mode="error", fail_calls=1)
        conn = http.client.HTTPConnection("127.0.0.1", envoy.port, timeout=10)
        body = json.dumps({"model": "m", "messages": [{"role": "user", "content": PROMPT}]})
        conn.request("POST", "/v1/chat/completions", body, {"content-type": "application/json", "authorization": "Bearer k"})
        deadline = time.monotonic() + 3
        while not verifier.calls() and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(0.2)
        conn.sock.shutdown(2)
        conn.close()
        time.sleep(2.0)  # past the backoff: a retry for the gone request would have arrived
        assert len(verifier.calls()) == 1, "no retry for a request whose client went away"
        assert chat(envoy) == INLINE, "the same worker still verifies"
        log = envoy.log()
        assert "panicked" not in log and "Wasm VM failed" not in log
    finally:
        envoy.stop()


# --- modes ----------------------------------------------------------------------------


def test_restored_text_mode_sends_values_and_marks_the_restored_answer(verifying_gateways, verifier):
    envoy = verifying_gateways("restored", {"verification": {"enabled": True, "text": "restored"}})
    assert chat(envoy) == INLINE
    users = json.dumps([c["body"]["messages"][0]["content"].partition("\n\n")[2] for c in verifier.calls()], ensure_ascii=False)
    assert EMAIL in users, "restored mode: the verifier sees the values"
    assert "\u00abtoken:" not in users


def test_headers_style_changes_nothing_but_counts(verifying_gateways):
    envoy = verifying_gateways("headers", {"verification": {"enabled": True, "annotate": "headers"}})
    before = stat(envoy, "verify.warnings_total")
    assert chat(envoy) == PLAIN
    assert chat_text(envoy, True) == PLAIN
    assert stat(envoy, "verify.warnings_total") == before + 2


@pytest.mark.parametrize("stream", [False, True], ids=["whole", "stream"])
def test_unknown_cluster_fails_open_at_once(verifying_gateways, verifier, stream):
    """A verifier cluster Envoy does not know: dispatch_http_call is refused. That is a
    configuration error, so it is not retried after the backoff (2 s here): the answer
    goes on unmarked at once, with its own reason in the header, audit and counters."""
    policy = {"hold_headers": True, "verification": {
        "enabled": True, "cluster": "no-such-cluster", "retry_backoff_ms": 2000, "retry_backoff_max_ms": 2000}}
    envoy = verifying_gateways("nocluster", policy)
    warm(envoy, verifier)
    before = stat(envoy, "reason=.=verifier_misconfigured;.;verify.skipped_total")
    held = unmarked_answer_time(envoy, stream, "verifier_misconfigured")
    # Not retried (one call, no retry in the summary below), so nothing was waited for.
    print(f"unmarked answer after {held:.2f}s (backoff 2 s)")
    if stream:
        # Nothing was left to wait for at the end: the trailer went out final at once.
        _, _, _, trailers = clients.post_raw(envoy, *STREAM_REQUESTS["openai_chat"], **VERIFY)
        assert trailers == {"x-veil-verification": "claims=0; verified=0; warnings=0; skipped=verifier_misconfigured"}
        before += 1
    assert wait_stat(envoy, "reason=.=verifier_misconfigured;.;verify.skipped_total", before + 1) == before + 1
    assert verifier.calls() == []
    time.sleep(0.3)
    summary = envoy.audit_events()[-1]["verification"]
    assert (summary["skipped"], summary["errors"], summary["retries"], summary["calls"]) == ("verifier_misconfigured", 1, 0, 1)


def test_gemini_json_array_stream_gets_one_more_element(verifying_gateway):
    body = {"contents": [{"role": "user", "parts": [{"text": PROMPT}]}]}
    _, _, data, _ = clients.post_raw(verifying_gateway, "/v1beta/models/gemini-2.0-flash:streamGenerateContent", body, api_key=None,
                                     headers={"x-goog-api-key": "k"}, timeout=30)
    elements = json.loads(data)
    texts = [e["candidates"][0]["content"]["parts"][0]["text"] for e in elements]
    assert "".join(texts) == APPENDED
    assert texts[-1] == APPENDED[len(PLAIN):], "the marks are one element of their own"


def test_long_stream_is_verified_while_it_flows(verifying_gateway, verifier):
    """Twelve sentences: claims are extracted in batches while the stream flows, up to
    max_claims (8); the rest of the text is not verified and the stream still ends."""
    prompt = " ".join(f"The moon is made of cheese number {i}. Paris is the capital of France {i}." for i in range(6))
    chunks = list(clients.openai(verifying_gateway, **VERIFY).chat.completions.create(model="m", messages=[{"role": "user", "content": prompt}], stream=True))
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    head, _, marks = text.partition("\n\n")
    assert head == f"You said: {prompt}"
    assert 1 <= marks.count("[Confidence: 20%]") <= 4
    extractions = [c for c in verifier.calls() if c["body"]["messages"][0]["content"].startswith("You extract")]
    assert len(extractions) >= 2, "extracted in batches while streaming"
    assert len(verifier.calls()) - len(extractions) == 8, "max_claims scored"


def test_skip_known_at_header_time_is_in_the_header(verifying_gateway, verifier):
    body = {"model": "m", "messages": [{"role": "user", "content": "Plain text please [[plain]]"}]}
    _, headers, data, _ = clients.post_raw(verifying_gateway, "/v1/chat/completions", body, api_key="k", timeout=30)
    assert data == b"You said: Plain text please [[plain]]"
    assert headers.get("x-veil-verification") == "claims=0; verified=0; warnings=0; skipped=no_text"
    assert verifier.calls() == []
    time.sleep(0.3)
    assert verifying_gateway.audit_events()[-1]["verification"]["skipped"] == "no_text"


def test_chat_stream_usage_chunk_stays_last(verifying_gateway):
    chunks = list(clients.openai(verifying_gateway, **VERIFY).chat.completions.create(
        model="m", messages=[{"role": "user", "content": PROMPT}], stream=True, stream_options={"include_usage": True},
    ))
    assert chunks[-1].usage.total_tokens == 18
    assert [c.choices[0].finish_reason for c in chunks if c.choices][-1] == "stop"
    assert "".join(c.choices[0].delta.content or "" for c in chunks if c.choices) == APPENDED


def test_held_headers_carry_the_summary_of_a_whole_answer(verifying_gateways, verifier):
    """`hold_headers: true` (gateway.yaml sets allow_on_headers_stop_iteration): the
    response headers wait for the verdict, so the summary header is complete."""
    envoy = verifying_gateways("held", {"hold_headers": True, "verification": {"enabled": True}})
    raw = clients.openai(envoy, **VERIFY).chat.completions.with_raw_response.create(
        model="gpt-4o-mini", messages=[{"role": "user", "content": PROMPT}]
    )
    assert raw.parse().choices[0].message.content == INLINE
    summary = raw.headers.get("x-veil-verification")
    assert summary is not None and summary.startswith("claims=") and "warnings=1" in summary, summary
    assert "skipped" not in summary
    # Fail open still holds: a verifier that errors leaves the answer as it was, and
    # the header says why.
    verifier.script(mode="error")
    raw = clients.openai(envoy, **VERIFY).chat.completions.with_raw_response.create(
        model="gpt-4o-mini", messages=[{"role": "user", "content": PROMPT}]
    )
    assert raw.parse().choices[0].message.content == PLAIN
    assert "skipped=verifier_error" in raw.headers.get("x-veil-verification", "")
    # Streams are not held: they still flow, marks at the end.
    verifier.script(mode="normal")
    assert chat_text(envoy, True) == APPENDED


def test_a_rule_turns_verification_on_with_its_own_verifier_key(gateways, verifier):
    policy = {
        "rules": [
            {
                "name": "verified",
                "match": {"headers": [{"name": "x-verify", "present": True}]},
                "verification": {"enabled": True, "api_key_env": "VERIFIER_KEY"},
            }
        ]
    }
    envoy = gateways(policy, concurrency=1, env={"VERIFIER_KEY": "vk-synthetic-1"}, verifier_port=verifier.port)
    try:
        plain = clients.openai(envoy, api_key="k", timeout=30)
        reply = plain.chat.completions.create(model="m", messages=[{"role": "user", "content": PROMPT}])
        assert reply.choices[0].message.content == PLAIN
        assert verifier.calls() == []
        verified = clients.openai(envoy, api_key="k", timeout=30, headers={"x-verify": "1"})
        reply = verified.chat.completions.create(model="m", messages=[{"role": "user", "content": PROMPT}])
        assert reply.choices[0].message.content == INLINE
        calls = verifier.calls()
        assert calls and all(c["authorization"] == "Bearer vk-synthetic-1" for c in calls)
        time.sleep(0.3)
        assert envoy.audit_events()[-1]["rule"] == "verified"
        assert "vk-synthetic-1" not in envoy.log()
    finally:
        envoy.stop()
