"""The model stage (`detectors.model`) through the real Envoy: veil.wasm asks the fake
detector model (OpenAI-compatible and Ollama shapes, scripted per test) for personal
data the rules do not find, keeps only proposals that check out, and merges them
before anything goes to the vendor; a model that fails follows the policy
(`rules_only` forwards what the rules redacted, `block` refuses).

The names here are written in lower case on purpose: the rules look for capitalised
names, so what the vendor does not receive, the model found."""

from __future__ import annotations

import itertools

import openai
import pytest

from tests.e2e.seeds import SEEDS, leaked
from tests.rig import clients, rig

EMAIL = SEEDS["EMAIL"][0]
NAME = "zorvath quillane"
ORG = "Velmora Tidewater Holdings"
FOREIGN_TOKEN = "\u00abtoken:EMAIL:0badc0de\u00bb"
SCRIPTED = [
    {"text": NAME, "category": "PERSON"},  # right
    {"text": ORG, "category": "ORGANIZATION", "shift": 4},  # wrong offsets, once in the text
    {"text": "Priya Natarajan", "category": "PERSON"},  # made up
    {"text": "order 5521", "category": "ORDER_ID"},  # a category the policy does not allow
    {"text": "token:EMAIL:0badc0de", "category": "PERSON"},  # inside a token
    {"text": "a", "category": "PERSON", "start": 0},  # wrong offsets, many times in the text
]
STRICT = {"x-veil-team": "strict"}

_unique = itertools.count()


def prompt() -> str:
    """A text no earlier test sent (the stage remembers answers per text)."""
    return f"Please ask {NAME} at {ORG} about order 5521 (case {next(_unique)}), cc {EMAIL}. Ref {FOREIGN_TOKEN}."


def model_policy(**model) -> dict:
    # Budgets with room for a loaded machine: the fake answers at once unless scripted slow.
    model = {"enabled": True, "cluster": "verifier", "model": "pii-detector", "budget_ms": 2500, **model}
    strict = {**model, "on_failure": "block", "budget_ms": 1500}
    return {
        "detectors": {"model": model},
        "rules": [
            {
                "name": "strict",
                "match": {"headers": [{"name": "x-veil-team", "exact": "strict"}]},
                "detectors": {"model": strict},
            }
        ],
    }


@pytest.fixture(scope="module")
def detector():
    d = rig.Detector()
    yield d
    d.stop()


@pytest.fixture(autouse=True)
def reset(detector, vendor):
    detector.reset()
    vendor.reset()


@pytest.fixture(scope="module")
def gateway(gateways, detector):
    # One worker: the memory of answers is the worker's, like the conversation memory.
    envoy = gateways(model_policy(), verifier_port=detector.port, concurrency=1)
    yield envoy
    envoy.stop()


def counter(envoy, name: str) -> int:
    return envoy.stats().get(f"wasmcustom.veil.{name}", 0)


def chat(envoy, text: str, headers: dict | None = None) -> str:
    client = clients.openai(envoy, api_key="test-key-model", headers=headers)
    reply = client.chat.completions.create(model="m", messages=[{"role": "user", "content": text}])
    return reply.choices[0].message.content


def sent(vendor) -> str:
    bodies = [r["body"].decode() for r in vendor.received()]
    assert len(bodies) == 1, bodies
    return bodies[0]


def test_checked_proposals_are_tokenized_before_the_vendor_sees_them_and_restored(gateway, detector, vendor):
    detector.script(spans=SCRIPTED)
    text = prompt()
    before = {k: counter(gateway, k) for k in ["outcome=.=answered;.;model.requests_total", "model.kept_total"]}
    assert chat(gateway, text) == f"You said: {text}"
    body = sent(vendor)
    assert NAME not in body and ORG not in body and leaked(body) == []
    # What failed the checks stays as it was: made up, not allowed, inside a token.
    assert "order 5521" in body and FOREIGN_TOKEN in body
    assert "\u00abtoken:PERSON:" in body and "\u00abtoken:ORGANIZATION:" in body
    # The model was asked about the text only, once, in the OpenAI shape.
    calls = detector.calls()
    assert [c["path"] for c in calls] == ["/v1/chat/completions"]
    assert calls[0]["text"] == text and calls[0]["body"]["model"] == "pii-detector"
    assert counter(gateway, "outcome=.=answered;.;model.requests_total") == before[
        "outcome=.=answered;.;model.requests_total"
    ] + 1
    assert counter(gateway, "model.kept_total") == before["model.kept_total"] + 2
    for reason in ["not_in_text", "category", "in_token", "ambiguous"]:
        assert counter(gateway, f"reason=.={reason};.;model.dropped_total") >= 1, reason
    event = [e for e in gateway.audit_events() if e.get("model")][-1]
    assert event["model"]["outcome"] == "answered"
    assert (event["model"]["texts"], event["model"]["kept"], event["model"]["dropped"]) == (1, 2, 4)
    assert event["findings"]["PERSON"] >= 1 and event["findings"]["ORGANIZATION"] == 1
    assert NAME not in str(event)


def test_an_answer_is_remembered_the_next_turn_does_not_ask_again(gateway, detector, vendor):
    detector.script(spans=SCRIPTED[:2])
    text = prompt()
    chat(gateway, text)
    first = sent(vendor)
    vendor.reset()
    cached = counter(gateway, "outcome=.=cached;.;model.requests_total")
    # The next turn repeats the first message: only the new one is asked about.
    client = clients.openai(gateway, api_key="test-key-model")
    messages = [
        {"role": "user", "content": text},
        {"role": "assistant", "content": "Noted."},
        {"role": "user", "content": text},
    ]
    client.chat.completions.create(model="m", messages=messages)
    assert len(detector.calls()) == 2  # the first turn, and "Noted." in the second
    assert detector.calls()[1]["text"] == "Noted."
    second = sent(vendor)
    assert NAME not in second and ORG not in second
    assert first.split('"content":')[1].split('"}')[0] in second  # the same tokens
    vendor.reset()
    # The same request again: nothing new to ask.
    client.chat.completions.create(model="m", messages=messages)
    assert len(detector.calls()) == 2
    assert NAME not in sent(vendor)
    assert counter(gateway, "outcome=.=cached;.;model.requests_total") == cached + 1


@pytest.mark.parametrize(
    "script, outcome",
    [
        ({"content": "I found: {spans: [zorvath,, 'x'"}, "unreadable"),
        ({"mode": "error"}, "error"),
        ({"mode": "drop"}, "error"),
        ({"mode": "slow", "delay_ms": 3500}, "timeout"),
    ],
)
def test_a_failed_model_forwards_what_the_rules_redacted_with_rules_only(gateway, detector, vendor, script, outcome):
    detector.script(spans=SCRIPTED, **script)
    before = counter(gateway, f"outcome=.={outcome};.;model.requests_total")
    text = prompt()
    assert chat(gateway, text) == f"You said: {text}"
    body = sent(vendor)
    assert leaked(body) == [] and NAME in body  # the rules' redaction, nothing more
    assert counter(gateway, f"outcome=.={outcome};.;model.requests_total") == before + 1
    event = [e for e in gateway.audit_events() if e.get("model")][-1]
    assert event["model"]["outcome"] == outcome and event["model"]["on_failure"] == "rules_only"
    assert event["outcome"] == "rewritten"


@pytest.mark.parametrize(
    "script, outcome",
    [({"mode": "slow", "delay_ms": 2500}, "timeout"), ({"mode": "error"}, "error"), ({"content": "no"}, "unreadable")],
)
def test_a_failed_model_refuses_the_request_with_block(gateway, detector, vendor, script, outcome):
    detector.script(spans=SCRIPTED, **script)
    with pytest.raises(openai.APIStatusError) as err:
        chat(gateway, prompt(), headers=STRICT)
    assert err.value.status_code == 503
    assert err.value.response.headers["x-veil-error"] == "veil_model_unavailable"
    assert "detector model" in err.value.body["message"]
    # The headers went upstream before the body (no `hold_headers`); no byte of it did.
    assert all(r["body"] == b"" for r in vendor.received())
    event = [e for e in gateway.audit_events() if e.get("model")][-1]
    assert (event["model"]["outcome"], event["model"]["on_failure"], event["rule"]) == (outcome, "block", "strict")
    assert event["outcome"] == "failed"


def test_block_still_forwards_when_the_model_answers(gateway, detector, vendor):
    detector.script(spans=SCRIPTED[:1])
    text = prompt()
    assert chat(gateway, text, headers=STRICT) == f"You said: {text}"
    assert NAME not in sent(vendor)


def test_the_ollama_api(gateways, detector, vendor):
    envoy = gateways(model_policy(api="ollama"), verifier_port=detector.port)
    try:
        detector.script(spans=SCRIPTED[:2])
        text = prompt()
        assert chat(envoy, text) == f"You said: {text}"
        body = sent(vendor)
        assert NAME not in body and ORG not in body
        call = detector.calls()[0]
        assert call["path"] == "/api/chat" and call["body"]["format"] == "json" and call["body"]["stream"] is False
    finally:
        envoy.stop()


@pytest.mark.parametrize(
    "model, message",
    [
        ({"budget_ms": 5}, "detectors.model.budget_ms: must be within 10..=60000, found 5"),
        ({"categories": ["PERSON", "person"]}, "detectors.model.categories[1]: must be 1-32 of A-Z, 0-9, _"),
        ({"on_failure": "open"}, "unknown variant `open`"),
        ({"budget": 100}, "unknown field `budget`"),
    ],
)
def test_an_invalid_model_section_is_rejected_by_envoy(gateways, model, message):
    with pytest.raises(RuntimeError) as err:
        gateways({"rules": [{"name": "r", "match": {"paths": ["/v1/**"]}, "detectors": {"model": model}}]})
    text = str(err.value)
    assert "veil: policy rejected" in text and message in text


def test_with_held_headers_the_length_follows_the_merge_and_block_sends_nothing(gateways, detector, vendor):
    """`hold_headers: true`: the headers wait with the body for the model; after the
    merge the vendor gets a true content-length, and a refusal sends it nothing."""
    envoy = gateways({"hold_headers": True, **model_policy()}, verifier_port=detector.port, concurrency=1)
    try:
        detector.script(spans=SCRIPTED[:2])
        text = prompt()
        assert chat(envoy, text) == f"You said: {text}"
        received = vendor.received()
        assert len(received) == 1 and NAME not in received[0]["body"].decode()
        assert int(received[0]["headers"]["content-length"]) == len(received[0]["body"])
        vendor.reset()
        detector.script(mode="error")
        with pytest.raises(openai.APIStatusError) as err:
            chat(envoy, prompt(), headers=STRICT)
        assert err.value.status_code == 503
        assert vendor.received() == []
    finally:
        envoy.stop()
