"""Hostile and sloppy clients through real Envoy + veil.wasm: the fail-closed
contract of issue 16.

Every request here is built to slip a seeded value past the filter: a body that
ends in trailers, a compressed body, JSON a lenient parser still reads, a field no
adapter names, a path spelled another way, a token lent between callers, Unicode
that hides a value from a naive regex, a request id that carries data, a transport
the filter cannot read. Each case is sent over HTTP/1.1 and HTTP/2 (h2c, prior
knowledge) where the transport matters, and asserts

* what the vendor received, read the way a lenient parser would (decompressed,
  escapes decoded, NFKC-folded, invisible characters dropped, separators ignored:
  `lenient.leaks`), and
* what the audit line says (outcome, provider, counts — never a value), matched to
  the request by the UUID the test sends as `x-request-id`.

The fake vendor answers unknown paths with `{}` when asked (`x-rig-answer-any`).
"""

from __future__ import annotations

import base64
import gzip
import inspect
import json
import re
import time
import urllib.parse

import pytest

from tests.e2e.lenient import (
    FIELD_SEEDS,
    H1,
    H2,
    SECRET_CATEGORIES,
    SECRET_TEXT,
    TOKEN,
    VERSIONS,
    assert_audit,
    assert_clean,
    assert_nothing_forwarded,
    assert_refused,
    at,
    audit_for,
    chat_body,
    encode,
    leaks,
    new_id,
    only_request,
    post_json,
    send,
    tokens_in,
)
from tests.e2e.seeds import SEEDS, leaked
from tests.rig import clients

S = FIELD_SEEDS
EMAIL, EMAIL2 = SEEDS["EMAIL"]
ANY = {"x-rig-answer-any": "1"}
CHAT = "/v1/chat/completions"
GEMINI = "/v1beta/models/gemini-2.0-flash:generateContent"
# Outcomes under which a body went to the vendor: a refusal must never say one.
PASSED = ("forwarded", "rewritten", "monitored", "oversize_passed", "failed_open", "unscannable_passed")
# Binary filler without ASCII runs (a run of digits would read as a seeded number).
PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89" + bytes(range(0x80, 0x100)) * 8
PDF_B64 = base64.b64encode(b"%PDF-1.4\n% a synthetic test document\n" * 4).decode()


@pytest.fixture(scope="module")
def held_headers_gateway(gateways):
    """`hold_headers: true`: nothing, not even the headers, goes upstream before the body is scanned."""
    return gateways({"hold_headers": True})


@pytest.fixture(scope="module")
def scan_text_gateway(gateways):
    return gateways({"limits": {"invalid_json": "scan_text"}})


@pytest.fixture(scope="module")
def block_unscannable_gateway(gateways):
    return gateways({"limits": {"unscannable": "block"}})


@pytest.fixture(scope="module")
def header_scope_gateway(gateways):
    return gateways({"vault": {"scope": "header"}})


@pytest.fixture(scope="module")
def trusted_header_scope_gateway(gateways):
    return gateways({"vault": {"scope": "header", "trusted_scope_header": True}})


POLICY_GATEWAYS = {"default": "gateway", "held": "held_headers_gateway"}


def pick(request, name: str):
    """The gateway for a policy name: the default one or the one holding headers."""
    return request.getfixturevalue(POLICY_GATEWAYS[name])


def chat_reply(resp) -> str:
    assert resp.status == 200, (resp.status, resp.body[:300])
    return resp.json()["choices"][0]["message"]["content"]


def sent_chat_text(record, index: int = 0) -> str:
    return json.loads(record["body"])["messages"][index]["content"]


def assert_scanned(gateway, vendor, rid, *, provider, categories=(), values=(), min_findings=1) -> dict:
    """The vendor got the request once, with no seeded value and with tokens; the
    audit line says it was rewritten. Returns what the vendor got."""
    record = only_request(vendor, rid)
    assert_clean(record, values)
    assert_audit(audit_for(gateway, rid), outcome="rewritten", provider=provider, categories=categories, min_findings=min_findings, values=values)
    return record


# --- 1. request trailers -----------------------------------------------------------


@pytest.mark.parametrize("policy", ["default", "held"])
@pytest.mark.parametrize("version", VERSIONS)
def test_a_body_followed_by_trailers_is_scanned_before_it_is_released(request, vendor, version, policy):
    gateway = pick(request, policy)
    rid = new_id()
    body = json.dumps(chat_body()).encode()
    # Split inside values, so no piece alone holds a whole seed.
    pieces = [body[:60], body[60:101], body[101:150], body[150:]]
    resp = post_json(gateway.port, CHAT, pieces, version=version, rid=rid, trailers={"x-checksum": "sha256-abc", "x-client-trace": "t1"})
    assert chat_reply(resp) == f"You said: {SECRET_TEXT}"
    record = assert_scanned(gateway, vendor, rid, provider="openai.chat", categories=SECRET_CATEGORIES)
    assert sent_chat_text(record).startswith("mail «token:EMAIL:")


@pytest.mark.parametrize("version", VERSIONS)
def test_an_invalid_body_followed_by_trailers_is_refused(gateway, vendor, version):
    rid = new_id()
    body = b'{"model":"m","temperature":NaN,"messages":[{"role":"user","content":"mail ' + EMAIL.encode() + b'"}]}'
    resp = post_json(gateway.port, CHAT, [body[:30], body[30:]], version=version, rid=rid, trailers={"x-checksum": "abc"})
    assert_refused(resp, 400, "veil_invalid_json")
    assert_nothing_forwarded(vendor, rid)
    assert_audit(audit_for(gateway, rid), outcome="invalid_json", provider="openai.chat")


@pytest.mark.parametrize("version", VERSIONS)
def test_a_body_in_one_byte_pieces_is_scanned_whole(gateway, vendor, version):
    """HTTP/1.1: one-byte chunks; HTTP/2: one-byte DATA frames."""
    rid = new_id()
    body = json.dumps(chat_body(f"mail {EMAIL} now")).encode()
    resp = post_json(gateway.port, CHAT, [body[i : i + 1] for i in range(len(body))], version=version, rid=rid)
    assert chat_reply(resp) == f"You said: mail {EMAIL} now"
    assert_scanned(gateway, vendor, rid, provider="openai.chat", categories=["EMAIL"])


# --- 2. compressed bodies ----------------------------------------------------------

CODINGS = {
    "gzip": (["gzip"], "gzip"),
    "deflate-zlib": (["deflate"], "deflate"),
    "deflate-raw": (["deflate-raw"], "deflate"),
    "br": (["br"], "br"),
    "zstd": (["zstd"], "zstd"),
    "gzip-then-br": (["gzip", "br"], "gzip, br"),
}


@pytest.mark.parametrize("coding", list(CODINGS))
@pytest.mark.parametrize("version", VERSIONS)
def test_a_compressed_body_is_decoded_scanned_and_forwarded_plain(gateway, vendor, version, coding):
    codings, header = CODINGS[coding]
    rid = new_id()
    plain = json.dumps(chat_body()).encode()
    resp = post_json(gateway.port, CHAT, encode(plain, codings), version=version, rid=rid, headers={"content-encoding": header})
    assert chat_reply(resp) == f"You said: {SECRET_TEXT}"
    record = assert_scanned(gateway, vendor, rid, provider="openai.chat", categories=SECRET_CATEGORIES)
    # Plain JSON, readable as it is, with no content-encoding left.
    assert "content-encoding" not in record["headers"]
    assert sent_chat_text(record).startswith("mail «token:EMAIL:")


@pytest.mark.parametrize("version", VERSIONS)
def test_a_coding_named_on_a_second_header_line_is_not_missed(gateway, vendor, version):
    """`content-encoding: identity` and then `content-encoding: gzip`: one list to the
    vendor (RFC 9110 § 5.3), so one list to the filter too."""
    rid = new_id()
    plain = json.dumps(chat_body()).encode()
    hdrs = [
        ("content-type", "application/json"),
        ("authorization", "Bearer test-key-alpha"),
        ("x-request-id", rid),
        ("content-encoding", "identity"),
        ("content-encoding", "gzip"),
    ]
    resp = send(gateway.port, "POST", CHAT, version=version, headers=hdrs, body=gzip.compress(plain))
    assert chat_reply(resp) == f"You said: {SECRET_TEXT}"
    record = assert_scanned(gateway, vendor, rid, provider="openai.chat", categories=SECRET_CATEGORIES)
    assert "content-encoding" not in record["headers"]


@pytest.mark.parametrize("inflated", [300 * 1024, 64 * 1024 * 1024], ids=["300KiB", "64MiB"])
@pytest.mark.parametrize("version", VERSIONS)
def test_a_decompression_bomb_is_refused_as_too_large(gateway, vendor, version, inflated):
    rid = new_id()
    head = b'{"model":"m","messages":[{"role":"user","content":"mail ' + EMAIL.encode() + b" "
    plain = head + b"a" * inflated + b'"}]}'
    bomb = gzip.compress(plain, compresslevel=9)
    assert len(bomb) < 256 * 1024 and len(plain) > 256 * 1024
    resp = post_json(gateway.port, CHAT, bomb, version=version, rid=rid, headers={"content-encoding": "gzip"})
    assert_refused(resp, 413, "veil_body_too_large")
    assert_nothing_forwarded(vendor, rid)
    assert_audit(audit_for(gateway, rid), outcome="too_large", provider="openai.chat")


@pytest.mark.parametrize("header", ["compress", "x-foo", "gzip, x-foo"])
@pytest.mark.parametrize("version", VERSIONS)
def test_an_unknown_content_encoding_is_refused(gateway, vendor, version, header):
    rid = new_id()
    # The body is plain JSON: a filter that ignores the header would read it fine,
    # the vendor (told it is encoded) would decode it into something else.
    body = json.dumps(chat_body()).encode()
    if header.startswith("gzip"):
        body = gzip.compress(body)
    resp = post_json(gateway.port, CHAT, body, version=version, rid=rid, headers={"content-encoding": header})
    assert_refused(resp, 415, "veil_unsupported_encoding")
    assert_nothing_forwarded(vendor, rid)
    assert audit_for(gateway, rid)["outcome"] not in PASSED


CORRUPT = {
    "gzip-truncated": ("gzip", lambda b: gzip.compress(b)[:-12]),
    "gzip-garbage": ("gzip", lambda b: b"\x1f\x8b\x08\x00" + b"\xff" * 40),
    "gzip-not-compressed": ("gzip", lambda b: b),
    "br-garbage": ("br", lambda b: b"\xff\xfe\xfd" * 20),
    "zstd-truncated": ("zstd", lambda b: encode(b, ["zstd"])[:-8]),
}


@pytest.mark.parametrize("case", list(CORRUPT))
@pytest.mark.parametrize("version", VERSIONS)
def test_a_corrupt_compressed_body_is_refused(gateway, vendor, version, case):
    header, corrupt = CORRUPT[case]
    rid = new_id()
    resp = post_json(gateway.port, CHAT, corrupt(json.dumps(chat_body()).encode()), version=version, rid=rid, headers={"content-encoding": header})
    assert_refused(resp, 400, "veil_invalid_encoding")
    assert_nothing_forwarded(vendor, rid)
    assert audit_for(gateway, rid)["outcome"] not in PASSED


# --- 3. lenient JSON ---------------------------------------------------------------

MAIL = f"mail {EMAIL}".encode()


def nested(depth: int) -> bytes:
    """A chat body with an extra field nested `depth` levels deep (the top-level
    object counts as one), a seeded value at the bottom."""
    return (
        b'{"model":"m","messages":[{"role":"user","content":"hello there"}],"x":'
        + b"[" * (depth - 1)
        + b'"' + MAIL + b'"'
        + b"]" * (depth - 1)
        + b"}"
    )


# (body, path, content type)
INVALID_JSON = {
    "nan": (b'{"model":"m","temperature":NaN,"messages":[{"role":"user","content":"' + MAIL + b'"}]}', CHAT, "application/json"),
    "infinity": (b'{"model":"m","temperature":-Infinity,"messages":[{"role":"user","content":"' + MAIL + b'"}]}', CHAT, "application/json"),
    "trailing-comma": (b'{"model":"m","messages":[{"role":"user","content":"' + MAIL + b'"},]}', CHAT, "application/json"),
    "block-comment": (b'{"model":"m", /* note */ "messages":[{"role":"user","content":"' + MAIL + b'"}]}', CHAT, "application/json"),
    "line-comment": (b'{"model":"m", // note\n"messages":[{"role":"user","content":"' + MAIL + b'"}]}', CHAT, "application/json"),
    "single-quotes": (b"{'model':'m','messages':[{'role':'user','content':'" + MAIL + b"'}]}", CHAT, "application/json"),
    "invalid-escape": (b'{"model":"m","messages":[{"role":"user","content":"\\q ' + MAIL + b'"}]}', CHAT, "application/json"),
    "truncated": (b'{"model":"m","messages":[{"role":"user","content":"' + MAIL + b'"}', CHAT, "application/json"),
    "invalid-utf8": (b'{"model":"m","messages":[{"role":"user","content":"caf\xff, ' + MAIL + b'"}]}', CHAT, "application/json"),
    "nesting-1100": (nested(1100), CHAT, "application/json"),
    "json-by-first-byte-text-plain": (b' \n{"temperature":NaN,"note":"' + MAIL + b'"}', "/v1/whatever", "text/plain"),
    "json-by-first-byte-no-type": (b'[{"note":"' + MAIL + b'"},]', "/v1/whatever", None),
    "generic-path": (b'{"note":"' + MAIL + b'",}', "/v2/whatever", "application/json"),
}


@pytest.mark.parametrize("case", list(INVALID_JSON))
@pytest.mark.parametrize("version", VERSIONS)
def test_json_a_strict_parser_refuses_is_refused(gateway, vendor, version, case):
    body, path, content_type = INVALID_JSON[case]
    rid = new_id()
    resp = post_json(gateway.port, path, body, version=version, rid=rid, content_type=content_type, headers=ANY)
    assert_refused(resp, 400, "veil_invalid_json")
    assert_nothing_forwarded(vendor, rid)
    assert_audit(audit_for(gateway, rid), outcome="invalid_json", provider="openai.chat" if path == CHAT else "generic")


@pytest.mark.parametrize("case", ["invalid-utf8", "nan"])
@pytest.mark.parametrize("version", VERSIONS)
def test_refused_json_with_held_headers_reaches_the_vendor_not_at_all(held_headers_gateway, vendor, version, case):
    body, path, content_type = INVALID_JSON[case]
    rid = new_id()
    resp = post_json(held_headers_gateway.port, path, body, version=version, rid=rid, content_type=content_type)
    assert_refused(resp, 400, "veil_invalid_json")
    assert_nothing_forwarded(vendor, rid, strict=True)


ACCEPTED_JSON = {
    "bom": (b"\xef\xbb\xbf" + json.dumps(chat_body(MAIL.decode())).encode(), "application/json"),
    "whitespace-then-json-no-type": (b"\r\n\t " + json.dumps(chat_body(MAIL.decode())).encode(), None),
    "nesting-900": (nested(900), "application/json"),
}


@pytest.mark.parametrize("case", list(ACCEPTED_JSON))
@pytest.mark.parametrize("version", VERSIONS)
def test_json_a_strict_parser_accepts_is_scanned_as_json(gateway, vendor, version, case):
    body, content_type = ACCEPTED_JSON[case]
    rid = new_id()
    resp = post_json(gateway.port, CHAT, body, version=version, rid=rid, content_type=content_type)
    assert resp.status == 200, (resp.status, resp.body[:300])
    record = assert_scanned(gateway, vendor, rid, provider="openai.chat", categories=["EMAIL"])
    assert tokens_in(record["body"]) == ["EMAIL"]
    assert audit_for(gateway, rid).get("body") == "json"


@pytest.mark.parametrize("version", VERSIONS)
def test_scan_text_policy_tokenizes_values_written_with_escapes_in_invalid_json(scan_text_gateway, vendor, version):
    rid = new_id()
    # `@` and `-` as JSON escapes: the text scan must decode them to see the values.
    body = (
        b'{"model":"m","temperature":NaN,"messages":[{"role":"user","content":'
        b'"mail jane.doe\\u0040example.com, ssn 123\\u002d45\\u002d6789"}]}'
    )
    resp = post_json(scan_text_gateway.port, CHAT, body, version=version, rid=rid)
    assert resp.status == 200, (resp.status, resp.body[:300])
    record = only_request(vendor, rid)
    assert_clean(record)
    assert b"NaN" in record["body"], "forwarded as the rewritten text, not re-serialized"
    assert sorted(tokens_in(record["body"])) == ["EMAIL", "SSN"]
    event = audit_for(scan_text_gateway, rid)
    assert_audit(event, outcome="rewritten", provider="openai.chat", categories=["EMAIL", "SSN"])


# --- 4. fields no adapter names ----------------------------------------------------


def sdk_kwargs(method, body: dict, rid: str) -> dict:
    """`body` as keyword arguments of an SDK method: the ones it names, the rest in
    `extra_body`."""
    params = inspect.signature(method).parameters
    kwargs = {k: v for k, v in body.items() if k in params}
    extra = {k: v for k, v in body.items() if k not in params}
    if extra:
        kwargs["extra_body"] = extra
    kwargs["extra_headers"] = {"x-request-id": rid}
    return kwargs


def assert_fields_tokenized(gateway, vendor, rid, provider, paths, untouched=()) -> dict:
    record = assert_scanned(gateway, vendor, rid, provider=provider, min_findings=len(paths))
    sent = json.loads(record["body"])
    for path in paths:
        value = at(sent, *path)
        assert TOKEN.search(value), f"{path}: {value!r}"
    for path, original in untouched:
        assert at(sent, *path) == original, f"{path} was changed"
    return sent


def test_openai_chat_fields_no_adapter_names_are_scanned(gateway, vendor):
    body = {
        "model": "gpt-4o-mini",
        "messages": [
            {"role": "system", "content": "Be brief."},
            {"role": "assistant", "content": [{"type": "refusal", "refusal": f"I cannot share {S[0]}"}]},
            {"role": "user", "content": "hello there"},
        ],
        "user": S[1],
        "metadata": {"customer": S[2], "ticket_note": f"escalate {S[3]}"},
        "prediction": {"type": "content", "content": f"ssn {S[4]}"},
        "tools": [
            {
                "type": "function",
                "function": {
                    "name": "lookup",
                    "description": f"Looks up {S[5]}",
                    "parameters": {"type": "object", "properties": {"who": {"type": "string", "description": f"e.g. {S[6]}"}}},
                },
            }
        ],
        "safety_identifier": S[7],
        "prompt_cache_key": S[8],
        "x_vendor_extension": {"notes": [S[9]]},  # extra_body
    }
    paths = [
        ("messages", 1, "content", 0, "refusal"),
        ("user",),
        ("metadata", "customer"),
        ("metadata", "ticket_note"),
        ("prediction", "content"),
        ("tools", 0, "function", "description"),
        ("tools", 0, "function", "parameters", "properties", "who", "description"),
        ("safety_identifier",),
        ("prompt_cache_key",),
        ("x_vendor_extension", "notes", 0),
    ]
    rid = new_id()
    c = clients.openai(gateway, headers=ANY)
    reply = c.chat.completions.create(**sdk_kwargs(c.chat.completions.create, body, rid))
    assert reply.choices[0].message.content == "You said: hello there"
    assert_fields_tokenized(gateway, vendor, rid, "openai.chat", paths)


def test_openai_responses_fields_no_adapter_names_are_scanned(gateway, vendor):
    body = {
        "model": "gpt-4o-mini",
        "input": [
            {"type": "reasoning", "id": "rs_rig_1", "summary": [{"type": "summary_text", "text": f"User is {S[0]}"}]},
            {"type": "custom_tool_call", "call_id": "call_rig_1", "name": "shell", "input": f"grep {S[1]} users.txt"},
            {"type": "custom_tool_call_output", "call_id": "call_rig_1", "output": f"found {S[2]}"},
            {"role": "user", "content": "hello there"},
        ],
        "prompt": {"id": "pmpt_rig_1", "variables": {"customer": S[3], "card": S[5]}},
        "metadata": {"ticket": S[4]},
        "user": S[7],
        "tools": [{"type": "function", "name": "lookup", "description": f"Looks up {S[8]}", "parameters": {"type": "object", "properties": {}}}],
    }
    paths = [
        ("input", 0, "summary", 0, "text"),
        ("input", 1, "input"),
        ("input", 2, "output"),
        ("prompt", "variables", "customer"),
        ("prompt", "variables", "card"),
        ("metadata", "ticket"),
        ("user",),
        ("tools", 0, "description"),
    ]
    rid = new_id()
    c = clients.openai(gateway, headers=ANY)
    reply = c.responses.create(**sdk_kwargs(c.responses.create, body, rid))
    assert reply.output_text == "You said: hello there"
    assert_fields_tokenized(gateway, vendor, rid, "openai.responses", paths, untouched=[(("prompt", "id"), "pmpt_rig_1")])


def test_anthropic_fields_no_adapter_names_are_scanned(gateway, vendor):
    body = {
        "model": "claude-rig-1",
        "max_tokens": 100,
        "metadata": {"user_id": S[0]},
        "system": [{"type": "text", "text": "Be brief.", "cache_control": {"type": "ephemeral"}}],
        "messages": [
            {
                "role": "user",
                "content": [
                    {
                        "type": "document",
                        "source": {"type": "text", "media_type": "text/plain", "data": f"Contract for {S[1]}"},
                        "title": f"Contract {S[2]}",
                        "context": f"Signed by {S[3]}",
                    },
                    {"type": "document", "source": {"type": "base64", "media_type": "application/pdf", "data": PDF_B64}},
                    {"type": "text", "text": "hello there"},
                ],
            }
        ],
        "tools": [{"name": "lookup", "description": f"Looks up {S[4]}", "input_schema": {"type": "object", "properties": {}}}],
    }
    paths = [
        ("metadata", "user_id"),
        ("messages", 0, "content", 0, "source", "data"),
        ("messages", 0, "content", 0, "title"),
        ("messages", 0, "content", 0, "context"),
        ("tools", 0, "description"),
    ]
    rid = new_id()
    c = clients.anthropic(gateway, headers=ANY)
    reply = c.messages.create(**sdk_kwargs(c.messages.create, body, rid))
    assert reply.content[0].text == "You said: hello there"
    # A base64 document is media: it passes byte for byte.
    assert_fields_tokenized(
        gateway, vendor, rid, "anthropic.messages", paths, untouched=[(("messages", 0, "content", 1, "source", "data"), PDF_B64)]
    )


def test_gemini_fields_no_adapter_names_are_scanned(gateway, vendor):
    from google.genai import types

    rid = new_id()
    client = clients.gemini(gateway, headers={"x-request-id": rid, **ANY})
    response = client.models.generate_content(
        model="gemini-2.0-flash",
        contents=[
            types.Content(
                role="user",
                parts=[
                    types.Part(text="hello there"),
                    types.Part(executable_code=types.ExecutableCode(code=f"send_mail('{S[0]}')", language="PYTHON")),
                    types.Part(code_execution_result=types.CodeExecutionResult(outcome="OUTCOME_OK", output=f"sent to {S[1]}")),
                    types.Part(inline_data=types.Blob(mime_type="image/png", data=PNG)),
                ],
            )
        ],
        config=types.GenerateContentConfig(
            tools=[types.Tool(function_declarations=[types.FunctionDeclaration(name="lookup", description=f"Looks up {S[2]}")])]
        ),
    )
    assert response.text == "You said: hello there"
    paths = [
        ("contents", 0, "parts", 1, "executableCode", "code"),
        ("contents", 0, "parts", 2, "codeExecutionResult", "output"),
        ("tools", 0, "functionDeclarations", 0, "description"),
    ]
    sent = assert_fields_tokenized(gateway, vendor, rid, "gemini", paths)
    # Inline media (the SDK writes base64url) passes byte for byte.
    assert base64.urlsafe_b64decode(at(sent, "contents", 0, "parts", 3, "inlineData", "data")) == PNG


def test_a_text_document_sent_as_base64_is_read_and_rewritten(gateway, vendor):
    """Base64 is an encoding, not a hiding place: Gemini reads a `text/plain` inline
    document, so the gateway decodes it, tokenizes it and re-encodes it; an image beside
    it goes on byte for byte and is counted as unscannable."""
    from google.genai import types

    rid = new_id()
    client = clients.gemini(gateway, headers={"x-request-id": rid, **ANY})
    document = f"Minutes. Attendees wrote from {S[0]} and {S[1]}.".encode()
    client.models.generate_content(
        model="gemini-2.0-flash",
        contents=[
            types.Content(
                role="user",
                parts=[
                    types.Part(text="summarise the attached notes"),
                    types.Part(inline_data=types.Blob(mime_type="text/plain", data=document)),
                    types.Part(inline_data=types.Blob(mime_type="image/png", data=PNG)),
                ],
            )
        ],
    )
    sent = json.loads(only_request(vendor, rid)["body"])
    text = base64.urlsafe_b64decode(at(sent, "contents", 0, "parts", 1, "inlineData", "data") + "==").decode()
    assert leaks(text) == [] and "«token:" in text, text
    assert base64.urlsafe_b64decode(at(sent, "contents", 0, "parts", 2, "inlineData", "data")) == PNG
    event = audit_for(gateway, rid)
    assert event["unscannable"] == 1 and event["outcome"] == "rewritten", event


@pytest.mark.parametrize("version", VERSIONS)
def test_duplicate_keys_model_and_ids_are_scanned(gateway, vendor, version):
    """A raw body no SDK would write: a duplicated key (parsers keep the first or the
    last), a seed in `model` and in a tool-call id."""
    body = (
        '{"model":"ft:gpt-4o-mini:acme:%s",'
        '"messages":[{"role":"user","content":"%s","content":"hello there"},'
        '{"role":"assistant","content":null,"tool_calls":[{"id":"%s","type":"function","function":{"name":"f","arguments":"{}"}}]},'
        '{"role":"tool","tool_call_id":"%s","content":"ok"},'
        '{"role":"user","content":"hello there"}]}'
    ) % (S[0], f"call {S[2]}", S[7], S[7])
    rid = new_id()
    resp = post_json(gateway.port, CHAT, body.encode(), version=version, rid=rid)
    assert chat_reply(resp) == "You said: hello there"
    record = assert_scanned(gateway, vendor, rid, provider="openai.chat", categories=["EMAIL", "PHONE", "AWS_ACCESS_KEY"])
    assert record["body"].count("«token:".encode()) >= 4


# --- 5. endpoints and path spellings -----------------------------------------------

CHAT_SPELLINGS = [
    "/v1/chat/completions/",
    "//v1//chat/completions",
    "/%761/chat/completions",
    "/v1/chat/%63ompletions",
    "/V1/Chat/Completions",
    "/v1/chat/completions;jsessionid=abc",
    "/v1;v=2/chat;x=y/completions",
    "/v1/./chat/completions",
    "/v1/models/../chat/completions",
    "/v1/chat/completions?api-version=1&x=%2F",
]


@pytest.mark.parametrize("path", CHAT_SPELLINGS)
@pytest.mark.parametrize("version", VERSIONS)
def test_chat_completions_spelled_otherwise_is_still_the_chat_route(gateway, vendor, version, path):
    rid = new_id()
    resp = post_json(gateway.port, path, chat_body(), version=version, rid=rid, headers=ANY)
    assert resp.status == 200, (resp.status, resp.body[:300])
    assert_scanned(gateway, vendor, rid, provider="openai.chat", categories=SECRET_CATEGORIES)


def gemini_body(text: str) -> dict:
    return {"contents": [{"role": "user", "parts": [{"text": text}]}]}


GEMINI_SPELLINGS = [
    "/v1beta/models/gemini-2.0-flash%3AgenerateContent",
    "/v1beta/models/gemini-2.0-flash%3agenerateContent",
    "/v1beta//models/gemini-2.0-flash:generateContent/",
    "/v1/models/gemini-2.0-flash:generateContent;x=1",
]


@pytest.mark.parametrize("path", GEMINI_SPELLINGS)
@pytest.mark.parametrize("version", VERSIONS)
def test_gemini_spelled_otherwise_is_still_the_gemini_route(gateway, vendor, version, path):
    rid = new_id()
    resp = post_json(gateway.port, path, gemini_body(SECRET_TEXT), version=version, rid=rid, auth=None, headers={"x-goog-api-key": "test-key-alpha", **ANY})
    assert resp.status == 200, (resp.status, resp.body[:300])
    assert_scanned(gateway, vendor, rid, provider="gemini", categories=SECRET_CATEGORIES)


# Routes the spec adds whose API has no adapter of its own (completions, embeddings,
# batches, embedContent, countTokens, cachedContents): the spec names no provider for
# their audit line, so their vendor's family or the generic walker.
OPENAI, ANTHROPIC, GEMINI_ANY = ("openai*", "generic"), ("anthropic*", "generic"), ("gemini*", "generic")

# Raw requests to routes the spec adds, and to no route at all: (path, body, headers, provider).
RAW_ROUTES = {
    "openai-completions": ("/v1/completions", {"model": "gpt-3.5-turbo-instruct", "prompt": SECRET_TEXT}, {}, OPENAI),
    "azure-chat": (
        "/openai/deployments/gpt4o/chat/completions?api-version=2024-10-21",
        chat_body(),
        {"api-key": "test-key-azure"},
        "openai.chat",
    ),
    "anthropic-batches": (
        "/v1/messages/batches",
        {"requests": [{"custom_id": "r1", "params": {"model": "claude-rig-1", "max_tokens": 10, "messages": [{"role": "user", "content": SECRET_TEXT}]}}]},
        {"x-api-key": "test-key-alpha"},
        ANTHROPIC,
    ),
    "gemini-embed": ("/v1beta/models/text-embedding-004:embedContent", {"content": {"parts": [{"text": SECRET_TEXT}]}}, {"x-goog-api-key": "k"}, GEMINI_ANY),
    "gemini-tuned": ("/v1beta/tunedModels/rig-tuned-1:generateContent", gemini_body(SECRET_TEXT), {"x-goog-api-key": "k"}, "gemini"),
    "vertex": (
        "/v1/projects/rig-project/locations/us-central1/publishers/google/models/gemini-2.0-flash:generateContent",
        gemini_body(SECRET_TEXT),
        {"authorization": "Bearer ya29.rig-test"},
        "gemini",
    ),
    "unknown-v2": ("/v2/whatever", {"anything": {"deep": [SECRET_TEXT]}}, {}, "generic"),
    "unknown-root": ("/", {"prompt": SECRET_TEXT}, {}, "generic"),
}


@pytest.mark.parametrize("route", list(RAW_ROUTES))
@pytest.mark.parametrize("version", VERSIONS)
def test_every_route_is_scanned_and_audited(gateway, vendor, version, route):
    path, body, headers, provider = RAW_ROUTES[route]
    rid = new_id()
    resp = post_json(gateway.port, path, body, version=version, rid=rid, headers={**headers, **ANY})
    assert resp.status == 200, (resp.status, resp.body[:300])
    assert_scanned(gateway, vendor, rid, provider=provider, categories=SECRET_CATEGORIES)


def test_openai_embeddings_through_the_sdk(gateway, vendor):
    rid = new_id()
    c = clients.openai(gateway, headers=ANY)
    # The same request as `embeddings.create`; the raw response spares the SDK from
    # decoding the fake vendor's `{}` (it raises on an answer without embeddings).
    c.embeddings.with_raw_response.create(
        model="text-embedding-3-small", input=[SECRET_TEXT, f"user {EMAIL2}"], user=S[7], extra_headers={"x-request-id": rid}
    )
    record = assert_scanned(gateway, vendor, rid, provider=OPENAI, categories=SECRET_CATEGORIES + ["AWS_ACCESS_KEY"])
    assert record["path"] == "/v1/embeddings"


def test_openai_completions_through_the_sdk(gateway, vendor):
    rid = new_id()
    c = clients.openai(gateway, headers=ANY)
    c.completions.create(model="gpt-3.5-turbo-instruct", prompt=SECRET_TEXT, extra_headers={"x-request-id": rid})
    assert_scanned(gateway, vendor, rid, provider=OPENAI, categories=SECRET_CATEGORIES)


def test_azure_chat_through_the_sdk(gateway, vendor):
    rid = new_id()
    c = clients.azure_openai(gateway, api_key="test-key-azure", headers=ANY)
    reply = c.chat.completions.create(model="gpt4o", messages=[{"role": "user", "content": SECRET_TEXT}], extra_headers={"x-request-id": rid})
    assert reply.choices[0].message.content == f"You said: {SECRET_TEXT}"
    record = assert_scanned(gateway, vendor, rid, provider="openai.chat", categories=SECRET_CATEGORIES)
    assert record["path"].startswith("/openai/deployments/gpt4o/chat/completions")


def test_anthropic_count_tokens_through_the_sdk(gateway, vendor):
    rid = new_id()
    clients.anthropic(gateway, headers=ANY).messages.count_tokens(
        model="claude-rig-1",
        system=f"Escalate to {EMAIL2}.",
        messages=[{"role": "user", "content": SECRET_TEXT}],
        extra_headers={"x-request-id": rid},
    )
    record = assert_scanned(gateway, vendor, rid, provider=ANTHROPIC, categories=SECRET_CATEGORIES)
    assert record["path"].startswith("/v1/messages/count_tokens")


def test_gemini_count_tokens_through_the_sdk(gateway, vendor):
    rid = new_id()
    client = clients.gemini(gateway, headers={"x-request-id": rid, **ANY})
    client.models.count_tokens(model="gemini-2.0-flash", contents=SECRET_TEXT)
    record = assert_scanned(gateway, vendor, rid, provider=GEMINI_ANY, categories=SECRET_CATEGORIES)
    assert ":countTokens" in record["path"]


def test_gemini_cached_contents_through_the_sdk(gateway, vendor):
    from google.genai import types

    rid = new_id()
    client = clients.gemini(gateway, headers={"x-request-id": rid, **ANY})
    client.caches.create(
        model="gemini-2.0-flash",
        config=types.CreateCachedContentConfig(
            contents=[types.Content(role="user", parts=[types.Part(text=SECRET_TEXT)])],
            system_instruction=f"Escalate to {EMAIL2}.",
            display_name="rig cache",
            ttl="300s",
        ),
    )
    record = assert_scanned(gateway, vendor, rid, provider=GEMINI_ANY, categories=SECRET_CATEGORIES)
    assert "cachedContents" in record["path"]


# --- 6. scopes ---------------------------------------------------------------------

# How each API carries its text, for the scope tests: path, request body, the text
# the vendor got, the text the client got back.
APIS = {
    "openai": (CHAT, chat_body, lambda j: j["messages"][0]["content"], lambda j: j["choices"][0]["message"]["content"]),
    "azure": (
        "/openai/deployments/gpt4o/chat/completions?api-version=2024-10-21",
        chat_body,
        lambda j: j["messages"][0]["content"],
        lambda j: j["choices"][0]["message"]["content"],
    ),
    "gemini": (GEMINI, gemini_body, lambda j: j["contents"][0]["parts"][0]["text"], lambda j: j["candidates"][0]["content"]["parts"][0]["text"]),
}


def ask(gateway, vendor, api: str, text: str, *, version=H1, query: str = "", headers=None) -> tuple[str, str]:
    """Sends `text` with exactly the credential in `headers` / `query`; returns
    (what the vendor got, what the client got back)."""
    path, body, sent, reply = APIS[api]
    if query:
        path += ("&" if "?" in path else "?") + query
    rid = new_id()
    resp = post_json(gateway.port, path, body(text), version=version, rid=rid, auth=None, headers=headers)
    assert resp.status == 200, (resp.status, resp.body[:300])
    return sent(json.loads(only_request(vendor, rid)["body"])), reply(resp.json())


def lend_a_token(gateway, vendor, api, owner: dict, borrower: dict, version=H1) -> tuple[str, str]:
    """The owner's request mints a token for EMAIL; the borrower sends it back.
    Returns (token, what the borrower got back)."""
    sent, reply = ask(gateway, vendor, api, f"I am {EMAIL}", version=version, **owner)
    assert reply == f"You said: I am {EMAIL}"
    token = sent.removeprefix("I am ")
    assert TOKEN.fullmatch(token), sent
    _, borrowed = ask(gateway, vendor, api, f"who is {token}?", version=version, **borrower)
    return token, borrowed


CREDENTIALS = {
    "gemini-query-key": ("gemini", {"query": "key=test-key-caller-a"}, {"query": "key=test-key-caller-b"}),
    "gemini-header-key": ("gemini", {"headers": {"x-goog-api-key": "test-key-caller-a"}}, {"headers": {"x-goog-api-key": "test-key-caller-b"}}),
    "azure-api-key": ("azure", {"headers": {"api-key": "test-key-caller-a"}}, {"headers": {"api-key": "test-key-caller-b"}}),
}


@pytest.mark.parametrize("credential", list(CREDENTIALS))
@pytest.mark.parametrize("version", VERSIONS)
def test_two_credentials_do_not_restore_each_others_tokens(gateway, vendor, version, credential):
    api, a, b = CREDENTIALS[credential]
    token, borrowed = lend_a_token(gateway, vendor, api, a, b, version)
    assert borrowed == f"You said: who is {token}?"
    assert EMAIL not in borrowed
    # The owner gets it back in a later request: the vault works, the scopes differ.
    _, own = ask(gateway, vendor, api, f"who is {token}?", version=version, **a)
    assert own == f"You said: who is {EMAIL}?"


@pytest.mark.parametrize("version", VERSIONS)
def test_requests_without_a_credential_do_not_share_tokens(gateway, vendor, version):
    token, borrowed = lend_a_token(gateway, vendor, "openai", {}, {}, version)
    assert borrowed == f"You said: who is {token}?"
    # Neither does an empty credential, nor a bare `?key=`.
    _, borrowed = ask(gateway, vendor, "openai", f"who is {token}?", version=version, headers={"authorization": ""})
    assert borrowed == f"You said: who is {token}?"
    _, borrowed = ask(gateway, vendor, "gemini", f"who is {token}?", version=version, query="key=")
    assert borrowed == f"You said: who is {token}?"


def test_a_scope_header_is_bound_to_the_credential(header_scope_gateway, vendor):
    a = {"headers": {"authorization": "Bearer test-key-caller-a", "x-veil-scope": "conversation-1"}}
    b = {"headers": {"authorization": "Bearer test-key-caller-b", "x-veil-scope": "conversation-1"}}
    token, borrowed = lend_a_token(header_scope_gateway, vendor, "openai", a, b)
    assert borrowed == f"You said: who is {token}?"
    # No credential and the same header value: still another scope.
    _, borrowed = ask(header_scope_gateway, vendor, "openai", f"who is {token}?", headers={"x-veil-scope": "conversation-1"})
    assert borrowed == f"You said: who is {token}?"
    _, own = ask(header_scope_gateway, vendor, "openai", f"who is {token}?", **a)
    assert own == f"You said: who is {EMAIL}?"


def test_a_trusted_scope_header_alone_names_the_scope(trusted_header_scope_gateway, vendor):
    a = {"headers": {"authorization": "Bearer test-key-caller-a", "x-veil-scope": "conversation-1"}}
    b = {"headers": {"authorization": "Bearer test-key-caller-b", "x-veil-scope": "conversation-1"}}
    c = {"headers": {"authorization": "Bearer test-key-caller-a", "x-veil-scope": "conversation-2"}}
    token, borrowed = lend_a_token(trusted_header_scope_gateway, vendor, "openai", a, b)
    assert borrowed == f"You said: who is {EMAIL}?"
    _, other = ask(trusted_header_scope_gateway, vendor, "openai", f"who is {token}?", **c)
    assert other == f"You said: who is {token}?"


# --- 7. Unicode --------------------------------------------------------------------

# (text before, the value as written, text after, category, what a lenient reader
# would make of the value)
UNICODE = {
    "zero-width-space-in-email": ("write to ", "jane.doe@exa\u200bmple.com", " today", "EMAIL", EMAIL),
    "soft-hyphen-in-email": ("write to ", "jane.\u00addoe@example.com", " today", "EMAIL", EMAIL),
    "word-joiner-in-email": ("write to ", "jane.doe\u2060@example.com", " today", "EMAIL", EMAIL),
    "zwnj-zwj-bom-in-email": ("write to ", "ja\u200cne.d\u200doe@example\ufeff.com", " today", "EMAIL", EMAIL),
    "bidi-controls-in-email": ("write to ", "jane.doe@\u202aexample\u202c.com", " today", "EMAIL", EMAIL),
    "fullwidth-phone": ("call me at ", "（４１５）５５５－０１３２", " please", "PHONE", SEEDS["PHONE"][0]),
    "nbsp-and-nb-hyphen-phone": ("call me at ", "(415)\u00a0555\u20110132", " please", "PHONE", SEEDS["PHONE"][0]),
    "fullwidth-ssn": ("my ssn is ", "１２３－４５－６７８９", " thanks", "SSN", SEEDS["SSN"][0]),
    "unicode-dash-ssn": ("my ssn is ", "123\u201045\u20136789", " thanks", "SSN", SEEDS["SSN"][0]),
    "fullwidth-at": ("mail ", "jane＠example.com", " now", "EMAIL", "jane@example.com"),
    "small-commercial-at": ("mail ", "jane﹫example.com", " now", "EMAIL", "jane@example.com"),
    "fullwidth-dots": ("mail ", "jane．doe@example。com", " now", "EMAIL", EMAIL),
    "card-with-dots": ("card ", "4111.1111.1111.1111", " please", "CREDIT_CARD", SEEDS["CREDIT_CARD"][0]),
    "ssn-without-separators": ("my ssn is ", "123456789", " thanks", "SSN", SEEDS["SSN"][0]),
    "ssn-with-spaces": ("my ssn is ", "123 45 6789", " thanks", "SSN", SEEDS["SSN"][0]),
    "social-security-with-spaces": ("social security number ", "123 45 6789", " thanks", "SSN", SEEDS["SSN"][0]),
    "html-entities-in-email": ("mail ", "jane.doe&#64;example&period;com", " now", "EMAIL", EMAIL),
    "percent-encoded-email": ("see https://x.example/?to=", "jane.doe%40example.com", " now", "EMAIL", EMAIL),
    "circled-digits-ssn": ("my ssn is ", "①②③-④⑤-⑥⑦⑧⑨", " thanks", "SSN", SEEDS["SSN"][0]),
    "tag-characters-email": ("mail ", "".join(chr(0xE0000 + ord(c)) for c in EMAIL), " now", "EMAIL", EMAIL),
}


@pytest.mark.parametrize("style", ["utf8", "escaped"])
@pytest.mark.parametrize("case", list(UNICODE))
def test_values_disguised_with_unicode_are_found_whole(gateway, vendor, case, style):
    before, value, after, category, reading = UNICODE[case]
    text = before + value + after
    rid = new_id()
    body = json.dumps(chat_body(text), ensure_ascii=style == "escaped").encode()
    resp = post_json(gateway.port, CHAT, body, rid=rid)
    # The token stood for the raw span, invisible characters included: the client
    # gets back exactly what it wrote.
    assert chat_reply(resp) == f"You said: {text}"
    record = assert_scanned(gateway, vendor, rid, provider="openai.chat", categories=[category], values=[reading, value])
    sent = sent_chat_text(record)
    pattern = re.escape(before) + r"«token:" + category + r":[0-9a-f]+»" + re.escape(after)
    assert re.fullmatch(pattern, sent), f"not the whole span replaced: {sent!r}"


# --- 8. audit ids ------------------------------------------------------------------

HOSTILE_IDS = {
    "email-and-words": f"{EMAIL} hello",
    "ssn": SEEDS["SSN"][0],
    "free-text": "ticket 4711 for the payroll migration",
    "uuid-with-suffix": "0b4c8d3e-5f6a-4b7c-8d9e-0f1a2b3c4d5e-" + SEEDS["PHONE"][0].replace(" ", ""),
    "braced-uuid": "{0b4c8d3e-5f6a-4b7c-8d9e-0f1a2b3c4d5e}",
}


@pytest.mark.parametrize("case", list(HOSTILE_IDS))
@pytest.mark.parametrize("version", VERSIONS)
def test_a_client_request_id_that_is_not_a_uuid_is_hashed_in_the_audit_line(gateway, vendor, version, case):
    hostile = HOSTILE_IDS[case]
    before = len(gateway.audit_events())
    resp = post_json(gateway.port, CHAT, chat_body(f"mail {EMAIL2}"), version=version, headers={"x-request-id": hostile})
    assert chat_reply(resp) == f"You said: mail {EMAIL2}"
    deadline = time.monotonic() + 5
    while len(new := gateway.audit_events()[before:]) < 1 and time.monotonic() < deadline:
        pass
    assert len(new) == 1, new
    event = new[0]
    assert re.fullmatch(r"h:[0-9a-f]{16}", event["request_id"]), event["request_id"]
    assert_audit(event, outcome="rewritten", provider="openai.chat", categories=["EMAIL"], values=[hostile])
    assert hostile not in json.dumps(event, ensure_ascii=False)
    assert hostile not in gateway.log()


@pytest.mark.parametrize("version", VERSIONS)
def test_a_uuid_request_id_appears_verbatim(gateway, vendor, version):
    rid = new_id()
    resp = post_json(gateway.port, CHAT, chat_body("hello there"), version=version, rid=rid)
    assert chat_reply(resp) == "You said: hello there"
    event = audit_for(gateway, rid)
    assert event["request_id"] == rid
    assert event["outcome"] == "forwarded" and event["findings"] == {}


# --- 9. transports the filter cannot read ------------------------------------------


@pytest.mark.parametrize("method", ["GET", "POST"])
def test_a_websocket_upgrade_is_refused(gateway, vendor, method):
    rid = new_id()
    headers = {
        "Connection": "Upgrade",
        "Upgrade": "websocket",
        "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
        "Sec-WebSocket-Version": "13",
        "Authorization": "Bearer test-key-alpha",
        "x-request-id": rid,
    }
    body = json.dumps(chat_body()).encode() if method == "POST" else b""
    if body:
        headers["Content-Type"] = "application/json"
    resp = send(gateway.port, method, "/v1/realtime?model=gpt-4o-realtime-preview", headers=headers, body=body)
    assert_refused(resp, 403, "veil_unscannable_transport")
    assert_nothing_forwarded(vendor, rid, strict=True)


@pytest.mark.parametrize("version", VERSIONS)
def test_connect_to_a_protected_destination_is_refused(gateway, vendor, version):
    headers = {"Host": "api.openai.com:443"} if version == H1 else {}
    resp = send(gateway.port, "CONNECT", "api.openai.com:443", version=version, headers=headers)
    assert_refused(resp, 403, "veil_unscannable_transport")


def test_an_http2_extended_connect_websocket_gets_nowhere(gateway, vendor):
    """RFC 8441 WebSocket over HTTP/2: refused by the filter (403) or reset by Envoy's
    codec before any filter runs; either way, nothing reaches the vendor."""
    rid = new_id()
    resp = send(
        gateway.port, "CONNECT", "/v1/realtime", version=H2,
        headers=[(":protocol", "websocket"), ("sec-websocket-version", "13"), ("x-request-id", rid)],
    )
    if not resp.reset:
        assert_refused(resp, 403, "veil_unscannable_transport")
    assert_nothing_forwarded(vendor, rid, strict=True)


# --- 10. bodies the filter cannot read, and text bodies ----------------------------

UNSCANNABLE = {"image/png": PNG, "application/octet-stream": bytes(range(0x80, 0x100)) * 16 + bytes(64), "audio/wav": b"RIFF\x24\x08\x00\x00WAVEfmt " + bytes(512)}


@pytest.mark.parametrize("content_type", list(UNSCANNABLE))
@pytest.mark.parametrize("version", VERSIONS)
def test_an_unscannable_body_passes_audited_by_default(gateway, vendor, version, content_type):
    body = UNSCANNABLE[content_type]
    rid = new_id()
    resp = post_json(gateway.port, "/v1/whatever", body, version=version, rid=rid, content_type=content_type, headers=ANY)
    assert resp.status == 200, (resp.status, resp.body[:300])
    assert only_request(vendor, rid)["body"] == body
    event = audit_for(gateway, rid)
    assert event.get("unscannable") == 1, event  # how many parts could not be read
    assert_audit(event, outcome="unscannable_passed", provider="generic")


@pytest.mark.parametrize("version", VERSIONS)
def test_an_unscannable_body_is_refused_when_the_policy_blocks(block_unscannable_gateway, vendor, version):
    rid = new_id()
    resp = post_json(block_unscannable_gateway.port, "/v1/whatever", PNG, version=version, rid=rid, content_type="image/png", headers=ANY)
    assert_refused(resp, 415, "veil_unscannable")
    assert_nothing_forwarded(vendor, rid)
    # A scannable body on the same gateway still goes through.
    rid = new_id()
    resp = post_json(block_unscannable_gateway.port, CHAT, chat_body(), version=version, rid=rid)
    assert chat_reply(resp) == f"You said: {SECRET_TEXT}"
    assert_scanned(block_unscannable_gateway, vendor, rid, provider="openai.chat", categories=SECRET_CATEGORIES)


TEXT_BODIES = {
    "text-plain": ("text/plain; charset=utf-8", SECRET_TEXT.encode()),
    "no-content-type": (None, SECRET_TEXT.encode()),
    # A sloppy client that does not escape: the values are there as written.
    "form-unescaped": ("application/x-www-form-urlencoded", f"subject=hello&note={SECRET_TEXT}".encode()),
    # What urlencode / requests / httpx send: `+` for spaces, `%40` for `@`. The spec
    # says "scanned as text"; any form parser the vendor runs reads the values back.
    "form-urlencoded": ("application/x-www-form-urlencoded", urllib.parse.urlencode({"subject": "hello", "note": SECRET_TEXT}).encode()),
    "markdown": ("text/markdown", f"# Ticket\n\n* {SECRET_TEXT}\n".encode()),
}


@pytest.mark.parametrize("case", list(TEXT_BODIES))
@pytest.mark.parametrize("version", VERSIONS)
def test_a_text_body_on_an_unknown_path_is_scanned_as_text(gateway, vendor, version, case):
    content_type, body = TEXT_BODIES[case]
    rid = new_id()
    resp = post_json(gateway.port, "/v1/notes", body, version=version, rid=rid, content_type=content_type, headers=ANY)
    assert resp.status == 200, (resp.status, resp.body[:300])
    assert_scanned(gateway, vendor, rid, provider="generic", categories=SECRET_CATEGORIES)
    assert audit_for(gateway, rid).get("body") == "text"


@pytest.mark.parametrize("version", VERSIONS)
def test_multipart_text_parts_are_scanned_and_binary_parts_kept(gateway, vendor, version):
    boundary = "rig-boundary-7MA4YWxkTrZu0gW"
    body = (
        f"--{boundary}\r\nContent-Disposition: form-data; name=\"purpose\"\r\n\r\n{SECRET_TEXT}\r\n"
        f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.png\"\r\nContent-Type: image/png\r\n\r\n"
    ).encode() + PNG + f"\r\n--{boundary}--\r\n".encode()
    rid = new_id()
    resp = post_json(
        gateway.port, "/v1/files", body, version=version, rid=rid, content_type=f"multipart/form-data; boundary={boundary}", headers=ANY
    )
    assert resp.status == 200, (resp.status, resp.body[:300])
    record = only_request(vendor, rid)
    assert_clean(record)
    assert PNG in record["body"], "the binary part was changed"
    event = audit_for(gateway, rid)
    assert_audit(event, outcome=("rewritten", "unscannable_passed"), provider="generic", categories=SECRET_CATEGORIES)


# --- last: the logs ------------------------------------------------------------------


def test_no_seeded_value_reaches_any_gateway_log(gateways):
    """Runs after every case above (pytest keeps a file's order): no Envoy started so
    far in the session — the hostile cases' gateways included — logged a seeded value,
    in the audit lines or anywhere else."""
    assert gateways.started
    for envoy in gateways.started:
        assert leaked(envoy.log()) == [], envoy.port
