"""Policies given as the filter's configuration, in real Envoy."""

from __future__ import annotations

import json
import time

import openai
import pytest

from tests.e2e.seeds import leaked
from tests.rig import clients, rig


def test_block_action_returns_a_vendor_shaped_403_the_sdk_surfaces(gateways, vendor):
    gateway = gateways({"actions": {"API_KEY": "block"}})
    vendor.reset()
    with pytest.raises(openai.PermissionDeniedError) as err:
        clients.openai(gateway).chat.completions.create(
            model="m", messages=[{"role": "user", "content": "my key is sk-proj-T3stOnlyAbCdEfGhIjKlMnOpQrSt"}]
        )
    assert err.value.body["code"] == "veil_blocked"
    assert "API_KEY" in err.value.body["message"]
    assert all(leaked(r["body"]) == [] for r in vendor.received())
    assert gateway.audit_events()[-1]["outcome"] == "blocked"


def test_mask_redact_and_custom_patterns(gateways, vendor):
    gateway = gateways(
        {
            "actions": {"EMAIL": "mask", "SSN": "redact"},
            "detectors": {"custom": [{"id": "acme.employee_id", "category": "EMPLOYEE_ID", "pattern": r"\bEMP-\d{6}\b"}]},
        }
    )
    vendor.reset()
    reply = clients.openai(gateway).chat.completions.create(
        model="m", messages=[{"role": "user", "content": "jane.doe@example.com 123-45-6789 EMP-004217"}]
    )
    sent = json.loads(vendor.received()[0]["body"])["messages"][0]["content"]
    assert sent.startswith("[EMAIL] **** «token:EMPLOYEE_ID:")
    # Masked and redacted values are gone for good; the token comes back.
    assert reply.choices[0].message.content == "You said: [EMAIL] **** EMP-004217"


def test_monitor_mode_forwards_unchanged_and_audits(gateways, vendor):
    gateway = gateways({"mode": "monitor"})
    vendor.reset()
    body = {"model": "m", "messages": [{"role": "user", "content": "jane.doe@example.com"}]}
    clients.openai(gateway).chat.completions.create(**body)
    assert json.loads(vendor.received()[0]["body"]) == body
    event = gateway.audit_events()[-1]
    assert event["outcome"] == "monitored" and event["findings"] == {"EMAIL": 1}
    assert leaked(gateway.log()) == []


def test_smaller_body_limit_from_policy(gateways, vendor):
    gateway = gateways({"limits": {"max_body_bytes": 1024}})
    vendor.reset()
    with pytest.raises(openai.APIStatusError) as err:
        clients.openai(gateway).chat.completions.create(model="m", messages=[{"role": "user", "content": "x" * 2000}])
    assert err.value.status_code == 413
    assert "1024" in err.value.body["message"]


@pytest.mark.parametrize(
    "policy, message",
    [
        ({"limits": {"max_body_byte": 10}}, "unknown field `max_body_byte`"),
        ({"detectors": {"custom": [{"id": "bad", "category": "X", "pattern": "(unclosed"}]}}, "detectors.custom[0] (bad): invalid pattern"),
        ({"actions": {"EMAIL": "shred"}}, "unknown variant `shred`"),
    ],
)
def test_an_invalid_policy_is_rejected_by_envoy(gateways, policy, message):
    with pytest.raises(RuntimeError) as err:
        gateways(policy)
    text = str(err.value)
    assert "veil: policy rejected" in text and message in text


def load_policy(name: str) -> dict:
    import yaml

    return yaml.safe_load((rig.ROOT / "policies" / name).read_text())


def test_the_strict_example_policy_blocks_secrets_and_masks_pii(gateways, vendor):
    gateway = gateways(load_policy("strict.yaml"))
    vendor.reset()
    with pytest.raises(openai.PermissionDeniedError):
        clients.openai(gateway).chat.completions.create(model="m", messages=[{"role": "user", "content": "AKIAIOSFODNN7EXAMPLE"}])
    reply = clients.openai(gateway).chat.completions.create(
        model="m", messages=[{"role": "user", "content": "jane.doe@example.com at 10.20.30.40"}]
    )
    assert reply.choices[0].message.content == "You said: [EMAIL] at 10.20.30.40"
    assert all(leaked(r["body"]) == [] for r in vendor.received())


def tenant_client(gateway, tenant: str | None):
    return clients.openai(gateway, headers={"x-tenant": tenant} if tenant else None)


@pytest.fixture(scope="module")
def per_tenant_gateway(gateways):
    return gateways(load_policy("per-tenant.yaml"))


def test_per_tenant_rules_pick_the_right_policy(per_tenant_gateway, vendor):
    gateway = per_tenant_gateway
    key = "sk-proj-T3stOnlyAbCdEfGhIjKlMnOpQrSt"
    card = "4111 1111 1111 1111"
    # payments: API keys are blocked, with the vendor's error shape the SDK raises.
    vendor.reset()
    with pytest.raises(openai.PermissionDeniedError) as err:
        tenant_client(gateway, "payments").chat.completions.create(
            model="m", messages=[{"role": "user", "content": f"use {key}"}]
        )
    assert err.value.body["code"] == "veil_blocked"
    # Headers may have gone upstream before the body was read (README, known
    # limits); the body never does.
    assert all(r["body"] == b"" for r in vendor.received())
    assert gateway.audit_events()[-1]["rule"] == "payments"
    # payments: a card is tokenized and, by that rule, not restored in the answer.
    reply = tenant_client(gateway, "payments").chat.completions.create(
        model="m", messages=[{"role": "user", "content": f"card {card}, mail jane.doe@example.com"}]
    )
    text = reply.choices[0].message.content
    assert "«token:CREDIT_CARD:" in text and card not in text
    assert "jane.doe@example.com" in text
    # research: monitor only — forwarded unchanged, audited with its findings.
    vendor.reset()
    body = {"model": "m", "messages": [{"role": "user", "content": f"use {key}"}]}
    tenant_client(gateway, "research").chat.completions.create(**body)
    assert json.loads(vendor.received()[0]["body"]) == body
    event = gateway.audit_events()[-1]
    assert event["rule"] == "research" and event["outcome"] == "monitored"
    # No tenant: the top-level settings (tokenize, restore everything).
    vendor.reset()
    reply = tenant_client(gateway, None).chat.completions.create(
        model="m", messages=[{"role": "user", "content": f"use {key}"}]
    )
    assert leaked(vendor.received()[0]["body"]) == []
    assert reply.choices[0].message.content == f"You said: use {key}"
    assert "rule" not in gateway.audit_events()[-1]
    assert leaked(gateway.log()) == []


def test_a_rule_names_the_api_shape_of_a_path_the_routes_do_not_know(per_tenant_gateway, vendor):
    gateway = per_tenant_gateway
    vendor.reset()
    c = clients.openai(gateway, api_key="k", path="/proxy/openai/v1", headers={"host": "llm.corp.example.com"})
    reply = c.chat.completions.create(model="m", messages=[{"role": "user", "content": "jane.doe@example.com"}])
    assert leaked(vendor.received()[0]["body"]) == []
    assert reply.choices[0].message.content == "You said: jane.doe@example.com"
    assert gateway.audit_events()[-1]["rule"] == "batch-proxy"
    # The same path on another host has no rule and no route: still scanned, with
    # the generic walker.
    vendor.reset()
    c = clients.openai(gateway, api_key="k", path="/proxy/openai/v1")
    c.chat.completions.create(model="m", messages=[{"role": "user", "content": "jane.doe@example.com"}])
    assert leaked(vendor.received()[0]["body"]) == []
    assert [e["provider"] for e in gateway.audit_events()].count("generic") == 1


def test_oversize_pass_forwards_unscanned_and_audits_it(gateways, vendor):
    gateway = gateways({"limits": {"max_body_bytes": 1024, "on_oversize": "pass"}})
    vendor.reset()
    content = "jane.doe@example.com " + "x" * 2000
    clients.openai(gateway).chat.completions.create(model="m", messages=[{"role": "user", "content": content}])
    assert json.loads(vendor.received()[0]["body"])["messages"][0]["content"] == content
    assert gateway.audit_events()[-1]["outcome"] == "oversize_passed"
    # Small bodies are still protected.
    vendor.reset()
    clients.openai(gateway).chat.completions.create(model="m", messages=[{"role": "user", "content": "jane.doe@example.com"}])
    assert leaked(vendor.received()[0]["body"]) == []


@pytest.fixture(scope="module")
def held_headers_gateway(gateways):
    """`hold_headers: true` (gateway.yaml sets allow_on_headers_stop_iteration)."""
    return gateways({"hold_headers": True, "actions": {"API_KEY": "block"}})


def test_held_headers_a_blocked_request_never_reaches_the_vendor(held_headers_gateway, vendor):
    vendor.reset()
    with pytest.raises(openai.PermissionDeniedError) as err:
        clients.openai(held_headers_gateway).chat.completions.create(
            model="m", messages=[{"role": "user", "content": "my key is sk-proj-T3stOnlyAbCdEfGhIjKlMnOpQrSt"}]
        )
    assert err.value.body["code"] == "veil_blocked"
    time.sleep(0.2)
    assert vendor.received() == []  # not even the headers
    with pytest.raises(openai.APIStatusError) as err:
        clients.openai(held_headers_gateway).chat.completions.create(model="m", messages=[{"role": "user", "content": "x" * 300_000}])
    assert err.value.status_code == 413
    time.sleep(0.2)
    assert vendor.received() == []


def test_held_headers_keep_a_true_content_length(held_headers_gateway, vendor):
    vendor.reset()
    reply = clients.openai(held_headers_gateway).chat.completions.create(
        model="m", messages=[{"role": "user", "content": "mail jane.doe@example.com"}]
    )
    assert reply.choices[0].message.content == "You said: mail jane.doe@example.com"
    rewritten = vendor.received()[-1]
    assert leaked(rewritten["body"]) == []
    assert int(rewritten["headers"]["content-length"]) == len(rewritten["body"])
    assert "transfer-encoding" not in rewritten["headers"]
    # Nothing to change: body and length exactly as the client sent them.
    body = {"model": "m", "messages": [{"role": "user", "content": "hello there"}]}
    clients.openai(held_headers_gateway).chat.completions.create(**body)
    untouched = vendor.received()[-1]
    assert json.loads(untouched["body"]) == body
    assert int(untouched["headers"]["content-length"]) == len(untouched["body"])
    # Streams are unaffected.
    chunks = clients.openai(held_headers_gateway).chat.completions.create(
        model="m", messages=[{"role": "user", "content": "mail jane.doe@example.com"}], stream=True
    )
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert text == "You said: mail jane.doe@example.com"
