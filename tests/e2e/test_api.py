"""The gateway's own PII detection API (`api.enabled`) through real Envoy: the contract,
its errors and limits, the console page, the audit line, and that nothing reaches the
vendor."""

from __future__ import annotations

import json

import pytest

from tests.e2e.lenient import assert_nothing_forwarded, audit_for, new_id, send
from tests.e2e.seeds import SEEDS, leaked

API_POLICY = {"hold_headers": True, "api": {"enabled": True}, "limits": {"max_body_bytes": 64 * 1024}}

# Emoji (a surrogate pair in UTF-16, four bytes in UTF-8) and a combining accent
# before the values: UTF-16 and byte offsets differ from there on.
TEXT = "Hi 👋🏽 José́ here — mail jane.doe@example.com, SSN 123-45-6789, card 4111 1111 1111 1111."


@pytest.fixture(scope="module")
def api_gateway(gateways):
    return gateways(API_POLICY)


def post(gateway, path: str, body, *, rid: str | None = None, raw: bytes | None = None):
    data = raw if raw is not None else json.dumps(body).encode()
    headers = {"content-type": "application/json", "x-request-id": rid or new_id()}
    return send(gateway.port, "POST", path, headers=headers, body=data)


def utf16_slice(text: str, start: int, end: int) -> str:
    units = text.encode("utf-16-le")
    return units[2 * start : 2 * end].decode("utf-16-le")


def test_detect_answers_the_contract_and_nothing_reaches_the_vendor(api_gateway, vendor):
    rid = new_id()
    resp = post(api_gateway, "/veil/v1/pii/detect", {"text": TEXT}, rid=rid)
    assert resp.status == 200, resp.body
    assert resp.headers.get("x-veil-api") == "1"
    answer = resp.json()
    assert answer["document"] == {"length": len(TEXT.encode("utf-16-le")) // 2, "encoding": "utf16-index"}
    found = {(e["type"], utf16_slice(TEXT, e["start"], e["end"])) for e in answer["entities"]}
    assert ("EMAIL", "jane.doe@example.com") in found, found
    assert ("SSN", "123-45-6789") in found, found
    assert ("CREDIT_CARD", "4111 1111 1111 1111") in found, found
    for e in answer["entities"]:
        assert e["textPreview"] is None and e["source"] == "REGEX" and e["meta"]["ruleId"]
        assert e["severity"] in ("LOW", "MEDIUM", "HIGH") and 0 <= e["confidence"] <= 1
    stats = answer["stats"]
    assert stats["totalEntities"] == len(answer["entities"]) and stats["byType"]["EMAIL"] == 1
    assert answer["reliability"]["signals"]["llmEnabled"] is False
    assert leaked(json.dumps(answer), ["jane.doe@example.com", "123-45-6789"]) == []
    assert_nothing_forwarded(vendor, rid, strict=True)
    event = audit_for(api_gateway, rid)
    assert event["outcome"] == "answered" and event["provider"] == "api"
    assert event["findings"]["EMAIL"] == 1
    assert "jane.doe" not in api_gateway.log()


def test_anonymize_and_detect_and_anonymize(api_gateway, vendor):
    detected = post(api_gateway, "/veil/v1/pii/detect", {"text": TEXT}).json()
    entities = detected["entities"] + [
        {"type": "EMAIL", "start": 10_000, "end": 10_004},  # out of range
        {"type": "EMAIL", "start": 4, "end": 5},  # inside the emoji's surrogate pair
    ]
    rid = new_id()
    resp = post(api_gateway, "/veil/v1/pii/anonymize", {"text": TEXT, "entities": entities, "options": {"mode": "placeholder"}}, rid=rid)
    assert resp.status == 200, resp.body
    answer = resp.json()
    assert "[EMAIL]" in answer["anonymizedText"] and "[SSN]" in answer["anonymizedText"]
    assert answer["anonymizedText"].startswith("Hi 👋🏽 José́ here")
    assert answer["applied"]["totalApplied"] == len(detected["entities"])
    assert answer["applied"]["skipped"] == 2
    assert leaked(answer["anonymizedText"], ["jane.doe@example.com", "123-45-6789"]) == []
    assert_nothing_forwarded(vendor, rid, strict=True)
    both = post(api_gateway, "/veil/v1/pii/detect-and-anonymize", {"text": TEXT, "options": {"mode": "redact"}}).json()
    assert "****" in both["anonymizedText"] and both["entities"] and both["document"]["encoding"] == "utf16-index"


@pytest.mark.parametrize(
    "path,body,raw,status,code",
    [
        ("/veil/v1/pii/detect", None, b'{"text": "jane.doe@example.com', 400, "INVALID_INPUT"),
        ("/veil/v1/pii/detect", {"text": "jane.doe@example.com", "colour": "x"}, None, 400, "INVALID_INPUT"),
        ("/veil/v1/pii/detect", {"text": "jane.doe@example.com", "options": {"mode": "jane.doe@example.com"}}, None, 400, "INVALID_INPUT"),
        ("/veil/v1/pii/detect", {"text": "jane.doe@example.com " * 4000}, None, 413, "PAYLOAD_TOO_LARGE"),
        ("/veil/v1/pii/detect", {"text": "jane.doe@example.com", "options": {"maxPayloadBytes": 8}}, None, 413, "PAYLOAD_TOO_LARGE"),
        ("/veil/v1/pii/anonymize", {"text": "jane.doe@example.com"}, None, 400, "INVALID_INPUT"),
        ("/veil/v1/pii/nothing", {"text": "jane.doe@example.com"}, None, 404, "INVALID_INPUT"),
    ],
)
def test_errors_are_coded_and_never_echo_the_text(api_gateway, vendor, path, body, raw, status, code):
    rid = new_id()
    resp = post(api_gateway, path, body, raw=raw, rid=rid)
    assert resp.status == status, resp.body
    assert resp.json()["error"]["code"] == code
    assert b"jane" not in resp.body
    assert_nothing_forwarded(vendor, rid, strict=True)


def test_a_body_over_the_limit_is_refused_while_it_streams(api_gateway, vendor):
    rid = new_id()
    pieces = [b'{"text": "' + b"a" * 65536] * 8 + [b'"}']
    resp = send(api_gateway.port, "POST", "/veil/v1/pii/detect", headers={"x-request-id": rid}, body=pieces)
    assert resp.status == 413
    assert resp.json()["error"]["code"] == "PAYLOAD_TOO_LARGE"
    assert_nothing_forwarded(vendor, rid, strict=True)


def test_wrong_method_and_the_console(api_gateway, vendor):
    rid = new_id()
    resp = send(api_gateway.port, "GET", "/veil/v1/pii/detect", headers={"x-request-id": rid})
    assert resp.status == 405 and resp.json()["error"]["code"] == "INVALID_INPUT"
    page = send(api_gateway.port, "GET", "/veil/console")
    assert page.status == 200 and page.headers["content-type"].startswith("text/html")
    assert "default-src 'self'" in page.headers["content-security-policy"]
    html = page.text()
    assert "<title>Veil console</title>" in html
    assert "http://" not in html and "https://" not in html, "the console loads nothing from elsewhere"
    stats = send(api_gateway.port, "GET", "/veil/v1/stats").json()
    assert stats["requests"] >= 1 and isinstance(stats["findings"], dict) and "answered" in stats["outcomes"]
    assert_nothing_forwarded(vendor, rid, strict=True)


def test_without_the_setting_the_prefix_is_ordinary_vendor_traffic(gateway, vendor):
    """API off (the default): a request to the prefix is a request to a protected
    destination like any other — scanned and forwarded, not answered by the gateway."""
    rid = new_id()
    seed = SEEDS["EMAIL"][0]
    resp = post(gateway, "/veil/v1/pii/detect", {"text": f"mail {seed}"}, rid=rid)
    assert "x-veil-api" not in resp.headers
    got = [r for r in vendor.received() if r["headers"].get("x-request-id") == rid]
    assert len(got) == 1 and seed.encode() not in got[0]["body"]


def test_the_shipped_rbac_example_keeps_the_api_to_its_principals(vendor):
    """envoy/gateway-api.yaml: Envoy's RBAC filter before veil admits 127.0.0.1 (and the
    operators' network) to /veil/ and answers anyone else with 403, before the filter;
    vendor traffic from anywhere is untouched by it."""
    import http.client

    from tests.rig import rig

    config = rig.render(
        rig.ENVOY_DIR / "gateway-api.yaml",
        listener_port=rig.free_port(),
        admin_port=rig.free_port(),
        vendor_port=vendor.port,
    )
    config["static_resources"]["listeners"][0]["address"]["socket_address"]["address"] = "0.0.0.0"
    envoy = rig.Envoy(config)
    try:

        def get(source: str, path: str) -> int:
            conn = http.client.HTTPConnection("127.0.0.1", envoy.port, timeout=10, source_address=(source, 0))
            conn.request("GET", path)
            status = conn.getresponse().status
            conn.close()
            return status

        assert get("127.0.0.1", "/veil/console") == 200
        assert get("127.0.0.2", "/veil/console") == 403
        assert get("127.0.0.2", "/veil/v1/stats") == 403
        # Not under the prefix: RBAC lets it through to veil and the vendor.
        before = len([r for r in vendor.received() if r["path"] == "/v1/models"])
        assert get("127.0.0.2", "/v1/models") != 403
        assert len([r for r in vendor.received() if r["path"] == "/v1/models"]) == before + 1
    finally:
        envoy.stop()
