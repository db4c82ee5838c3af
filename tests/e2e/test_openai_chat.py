"""OpenAI Chat Completions through real Envoy + veil.wasm, driven by the official SDK."""

from __future__ import annotations

import http.client
import json
import time
import uuid

import openai
import pytest

from tests.e2e.seeds import SEEDS, lead_in, leaked
from tests.rig import clients, rig

CHAT = "/v1/chat/completions"


def sentence() -> str:
    return "; ".join(f"{lead_in(cat)} {value}" for cat, values in SEEDS.items() for value in values)


def test_seeded_values_never_reach_the_vendor_and_come_back(gateway, vendor, openai_client):
    vendor.reset()
    text = f"Please check: {sentence()}."
    completion = openai_client.chat.completions.create(
        model="gpt-4o-mini",
        messages=[
            {"role": "system", "content": f"Escalate to {SEEDS['EMAIL'][1]} if needed."},
            {"role": "user", "content": text},
        ],
    )
    assert completion.choices[0].message.content == f"You said: {text}"
    received = vendor.received()
    assert len(received) == 1
    body = received[0]["body"]
    assert leaked(body) == []
    sent = json.loads(body)
    # Every value became a token of its category.
    user = sent["messages"][1]["content"]
    for category in SEEDS:
        assert f"«token:{category}:" in user, category
    assert sent["messages"][0]["content"].startswith("Escalate to «token:EMAIL:")
    assert sent["model"] == "gpt-4o-mini"


def test_content_parts_and_tool_results_are_scanned_but_media_is_not(gateway, vendor, openai_client):
    vendor.reset()
    image = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk4111111111111"
    completion = openai_client.chat.completions.create(
        model="gpt-4o-mini",
        messages=[
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": "call_1", "type": "function", "function": {"name": "lookup", "arguments": json.dumps({"ssn": "123-45-6789"})}}
            ]},
            {"role": "tool", "tool_call_id": "call_1", "content": "record for jane.doe@example.com found"},
            {"role": "user", "content": [
                {"type": "text", "text": "card 4111 1111 1111 1111 on file"},
                {"type": "image_url", "image_url": {"url": image}},
            ]},
        ],
    )
    assert completion.choices[0].message.content == "You said: card 4111 1111 1111 1111 on file"
    body = vendor.received()[0]["body"]
    assert leaked(body) == []
    sent = json.loads(body)
    assert sent["messages"][2]["content"][1]["image_url"]["url"] == image
    assert json.loads(sent["messages"][0]["tool_calls"][0]["function"]["arguments"])["ssn"].startswith("«token:SSN:")
    assert sent["messages"][1]["tool_call_id"] == "call_1"


def test_tool_call_arguments_are_restored(gateway, vendor, openai_client):
    vendor.reset()
    text = 'send "hi" to jane.doe@example.com [[tool]]'
    completion = openai_client.chat.completions.create(
        model="gpt-4o-mini", messages=[{"role": "user", "content": text}]
    )
    call = completion.choices[0].message.tool_calls[0]
    assert json.loads(call.function.arguments) == {"text": text}
    assert leaked(vendor.received()[0]["body"]) == []


def test_nothing_to_change_reaches_the_vendor_byte_identical(gateway, vendor):
    vendor.reset()
    body = b'{ "model":"gpt-4o-mini",\n  "messages":[{"role":"user","content":"caf\\u00e9 \xe2\x98\x95 1.50e1"}], "temperature":0.70 }'
    status, _, data, _ = clients.post_raw(gateway, CHAT, body)
    assert status == 200, data
    received = vendor.received()[0]
    assert received["body"] == body
    assert received["headers"]["accept-encoding"] == "identity"


def test_same_value_gets_the_same_token_across_messages(gateway, vendor, openai_client):
    vendor.reset()
    openai_client.chat.completions.create(
        model="m",
        messages=[
            {"role": "user", "content": "I am jane.doe@example.com"},
            {"role": "assistant", "content": "Hello jane.doe@example.com"},
            {"role": "user", "content": "Email jane.doe@example.com and ops-team+alerts@corp.example.org"},
        ],
    )
    sent = json.loads(vendor.received()[0]["body"])
    first = sent["messages"][0]["content"].split("I am ")[1]
    assert sent["messages"][1]["content"] == f"Hello {first}"
    third = sent["messages"][2]["content"]
    assert third.count(first) == 1 and third.count("«token:EMAIL:") == 2


def test_oversize_body_is_rejected_with_a_vendor_shaped_413(gateway, vendor, openai_client):
    vendor.reset()
    filler = "lorem ipsum " * 23000  # ~270 KiB > 256 KiB default
    with pytest.raises(openai.APIStatusError) as err:
        openai_client.chat.completions.create(
            model="m", messages=[{"role": "user", "content": f"{filler} jane.doe@example.com"}]
        )
    assert err.value.status_code == 413
    assert err.value.body["code"] == "veil_body_too_large"
    assert "262144" in err.value.body["message"]
    assert vendor.received() == []


def test_oversize_chunked_body_without_length_is_rejected(gateway, vendor):
    vendor.reset()
    body = json.dumps({"model": "m", "messages": [{"role": "user", "content": "x" * 300_000 + " 123-45-6789"}]}).encode()
    status, headers, data, _ = clients.post_raw(gateway, CHAT, body, chunked=True)
    assert status == 413
    assert json.loads(data)["error"]["code"] == "veil_body_too_large"
    assert headers["x-veil-error"] == "veil_body_too_large"
    assert all(leaked(r["body"]) == [] for r in vendor.received())


def bodies_received(vendor) -> list[bytes]:
    """The request bodies the vendor got (a refused request's headers may have gone
    ahead of its body; its body never does)."""
    return [r["body"] for r in vendor.received() if r["body"]]


def test_malformed_json_is_refused(gateway, vendor):
    vendor.reset()
    body = b'{"model":"m","messages":[{"role":"user","content":"ssn 123-45-6789 mail jane.doe@example.com"}'  # truncated
    request_id = str(uuid.uuid4())
    status, headers, data, _ = clients.post_raw(gateway, CHAT, body, headers={"x-request-id": request_id})
    assert status == 400
    assert headers["x-veil-error"] == "veil_invalid_json"
    assert json.loads(data)["error"]["code"] == "veil_invalid_json"
    assert bodies_received(vendor) == []
    # Matched by id: under load, workers write their lines in batches, in any order.
    (event,) = [e for e in gateway.audit_events() if e["request_id"] == request_id]
    assert event["outcome"] == "invalid_json"


def test_malformed_json_is_scanned_as_text_when_the_policy_says_so(gateways, vendor):
    gateway = gateways({"limits": {"invalid_json": "scan_text"}})
    vendor.reset()
    body = b'{"model":"m","messages":[{"role":"user","content":"ssn 123-45-6789 mail jane.doe\\u0040example.com"}'  # truncated
    status, _, data, _ = clients.post_raw(gateway, CHAT, body)
    assert status == 400  # the vendor's own parse error, passed through
    assert json.loads(data)["error"]["message"].startswith("We could not parse")
    received = vendor.received()[0]["body"]
    assert leaked(received) == [] and b"example.com" not in received
    assert b"\xc2\xabtoken:SSN:" in received and b"\xc2\xabtoken:EMAIL:" in received


def test_invalid_utf8_does_not_break_the_filter(gateway, vendor, openai_client):
    vendor.reset()
    body = b'{"model":"m","messages":[{"role":"user","content":"\xff\xfe bad bytes 123-45-6789 \xc3"}]}'
    status, headers, _, _ = clients.post_raw(gateway, CHAT, body)
    assert status == 400 and headers["x-veil-error"] == "veil_invalid_json"
    assert bodies_received(vendor) == []
    # The worker that saw it still serves.
    ok = openai_client.chat.completions.create(model="m", messages=[{"role": "user", "content": "still there?"}])
    assert ok.choices[0].message.content == "You said: still there?"


def test_plain_text_response_is_restored(gateway, vendor):
    vendor.reset()
    body = json.dumps({"model": "m", "messages": [{"role": "user", "content": "mail jane.doe@example.com [[plain]]"}]}).encode()
    status, headers, data, _ = clients.post_raw(gateway, CHAT, body)
    assert status == 200
    assert headers["content-type"].startswith("text/plain")
    assert data.decode() == "You said: mail jane.doe@example.com [[plain]]"


def test_a_token_from_another_credential_is_not_restored(gateway, vendor, openai_client):
    vendor.reset()
    openai_client.chat.completions.create(model="m", messages=[{"role": "user", "content": "I am jane.doe@example.com"}])
    token = json.loads(vendor.received()[0]["body"])["messages"][0]["content"].removeprefix("I am ")
    assert token.startswith("«token:EMAIL:")
    other = clients.openai(gateway, api_key="test-key-bravo")
    reply = other.chat.completions.create(model="m", messages=[{"role": "user", "content": f"who is {token}?"}])
    assert reply.choices[0].message.content == f"You said: who is {token}?"


def test_paths_no_route_names_are_scanned_too(gateway, vendor):
    vendor.reset()
    body = b'{"input":"not a chat route: 10.20.30.40"}'
    clients.post_raw(gateway, "/v1/embeddings", body)
    received = vendor.received()[0]["body"]
    assert b"10.20.30.40" not in received and b"\xc2\xabtoken:PRIVATE_IP:" in received
    assert any(e["provider"] == "generic" and e["findings"] == {"PRIVATE_IP": 1} for e in gateway.audit_events())


def test_exempt_requests_and_other_destinations_pass_untouched(gateways, vendor):
    gateway = gateways({"destinations": ["127.0.0.1", "api.openai.com"], "exempt": [{"paths": ["/v1/embeddings"]}]})
    body = b'{"input":"exempt: 10.20.30.40"}'
    for path, headers in [("/v1/embeddings", {}), ("/v1/chat/completions", {"host": "elsewhere.example"})]:
        vendor.reset()
        clients.post_raw(gateway, path, body, headers=headers)
        assert vendor.received()[0]["body"] == body, path
    assert gateway.stats().get("wasmcustom.veil.exempt_total") == 1


def test_audit_lines_and_stats_carry_counts_never_values(gateway, vendor, openai_client):
    vendor.reset()
    raw = openai_client.chat.completions.with_raw_response.create(
        model="m", messages=[{"role": "user", "content": "jane.doe@example.com 123-45-6789 jane.doe@example.com"}]
    )
    request_id = raw.headers.get("x-request-id")
    events = gateway.audit_events()
    assert events, "no audit line"
    mine = [e for e in events if e["findings"] == {"EMAIL": 2, "SSN": 1}]
    assert mine, events[-3:]
    event = mine[-1]
    assert event["provider"] == "openai.chat"
    assert event["outcome"] == "rewritten"
    assert event["tokens_issued"] == 2 and event["tokens_restored"] == 3
    assert event["request_bytes_out"] > event["request_bytes_in"] > 0
    assert event["response_status"] == 200
    assert len(event["request_id"]) >= 16
    if request_id:
        assert event["request_id"] == request_id
    stats = gateway.stats()
    assert stats["wasmcustom.veil.category=.=EMAIL;.;findings_total"] >= 2
    assert stats["wasmcustom.veil.provider=.=openai.chat;.;outcome=.=rewritten;.;requests_total"] >= 1
    assert stats["wasmcustom.veil.tokens.restored_total"] >= 2
    # Nothing this suite seeded ever shows up in Envoy's log, at any point.
    assert leaked(gateway.log()) == []


@pytest.mark.parametrize("memory", [True, False], ids=["memory", "no-memory"])
def test_the_next_turn_of_a_conversation_rescans_only_its_new_message(gateways, vendor, memory):
    # One worker, so that both turns meet the same worker's memory. Without memory
    # (`detectors.memory: false`) the history is scanned again, to the same tokens.
    gateway = gateways(concurrency=1) if memory else gateways({"detectors": {"memory": False}}, concurrency=1)
    client = clients.openai(gateway)
    system = f"You help the platform team. Escalate to {SEEDS['EMAIL'][1]} if a customer's data is involved."
    first = f"Please check: {sentence()}."
    messages = [{"role": "system", "content": system}, {"role": "user", "content": first}]
    vendor.reset()
    reply = client.chat.completions.create(model="m", messages=messages).choices[0].message.content
    assert reply == f"You said: {first}"
    assert "wasmcustom.veil.scan.remembered_total" not in gateway.stats()

    second = f"Also, the card on file is {SEEDS['CREDIT_CARD'][0]}; call {SEEDS['PHONE'][0]} to confirm it."
    messages += [{"role": "assistant", "content": reply}, {"role": "user", "content": second}]
    again = client.chat.completions.create(model="m", messages=messages).choices[0].message.content
    assert again == f"You said: {second}"
    bodies = [json.loads(r["body"]) for r in vendor.received()]
    assert len(bodies) == 2 and all(leaked(json.dumps(b)) == [] for b in bodies)
    # The history went out with the same tokens as in the first turn; the new messages
    # were scanned (the restored reply carries the values again).
    assert [m["content"] for m in bodies[1]["messages"][:2]] == [m["content"] for m in bodies[0]["messages"]]
    assert "«token:CREDIT_CARD:" in bodies[1]["messages"][3]["content"]
    assert "«token:PHONE:" in bodies[1]["messages"][3]["content"]
    assert bodies[1]["messages"][2]["content"].count("«token:") == bodies[0]["messages"][1]["content"].count("«token:")
    if memory:
        assert gateway.stats()["wasmcustom.veil.scan.remembered_total"] == 2
    else:
        assert "wasmcustom.veil.scan.remembered_total" not in gateway.stats()


def burst(gateway, n: int) -> None:
    """`n` protected requests back to back on one connection."""
    body = json.dumps({"model": "m", "messages": [{"role": "user", "content": "mail jane.doe@example.com"}]}).encode()
    conn = http.client.HTTPConnection("127.0.0.1", gateway.port, timeout=20)
    for _ in range(n):
        conn.request("POST", CHAT, body=body, headers={"content-type": "application/json", "authorization": "Bearer test-key-alpha"})
        assert conn.getresponse().read()
    conn.close()


def test_audit_lines_waiting_to_be_written_are_not_lost_when_envoy_stops(gateways):
    # A burst: after the first line, the others wait (at most 100 ms) to be written
    # together; Envoy stops before the root's tick would write them.
    gateway = gateways(concurrency=1)
    burst(gateway, 30)
    gateway.stop()
    lines = [line for line in gateway.log().splitlines() if '"event":"veil.audit"' in line]
    assert len(lines) == 30


def test_under_a_burst_audit_lines_are_written_together(gateways):
    # Both builds batch: Wasm on the worker's tick, native through the configuration's
    # batch (a writer thread for what no later request carries). No line is lost.
    gateway = gateways(concurrency=1)
    burst(gateway, 30)
    lines = [line for line in gateway.log().splitlines() if '"event":"veil.audit"' in line]
    deadline = time.monotonic() + 5
    while len(lines) < 30 and time.monotonic() < deadline:
        time.sleep(0.05)
        lines = [line for line in gateway.log().splitlines() if '"event":"veil.audit"' in line]
    assert len(lines) == 30
    calls = sum(rig.LOG_MARK in line for line in lines)
    assert 1 <= calls < 30


def test_with_no_flush_interval_each_audit_line_is_written_as_its_request_ends(gateways):
    gateway = gateways({"audit": {"flush_ms": 0}}, concurrency=1)
    burst(gateway, 10)
    # Read at once (no settling wait): every line is there, each in its own log call.
    deadline = time.monotonic() + 2
    while True:
        lines = [line for line in gateway.log().splitlines() if '"event":"veil.audit"' in line]
        if len(lines) >= 10 or time.monotonic() > deadline:
            break
        time.sleep(0.01)
    assert len(lines) == 10
    assert all(rig.LOG_MARK in line for line in lines)
