"""Fail closed, round two (issue 46), through real Envoy on the build under test, over
HTTP/1.1 and HTTP/2 where the transport matters: values written as JSON numbers, in
keys and ids, inside binary files, in JSON Lines batches, in the official SDKs' file
uploads, and split across the events of a stream no adapter names.

Every case asserts what the vendor received (read as a lenient parser would:
`lenient.leaks`) and what the client got back.
"""

from __future__ import annotations

import base64
import json
import zlib

import pytest

from tests.e2e.lenient import (
    VERSIONS,
    assert_audit,
    assert_clean,
    assert_refused,
    audit_for,
    leaks,
    new_id,
    only_request,
    post_json,
    tokens_in,
)
from tests.e2e.seeds import SEEDS, leaked
from tests.rig import clients

EMAIL = SEEDS["EMAIL"][0]
SSN = SEEDS["SSN"][0]
CARD = "4111111111111111"
ANY = {"x-rig-answer-any": "1"}
CHAT = "/v1/chat/completions"
GEMINI = "/v1beta/models/gemini-2.0-flash:generateContent"


def png_with_text(keyword: bytes, text: bytes) -> bytes:
    """A valid 1×1 PNG with a `tEXt` chunk (lengths and CRCs right)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return len(data).to_bytes(4, "big") + kind + data + zlib.crc32(kind + data).to_bytes(4, "big")

    ihdr = (1).to_bytes(4, "big") * 2 + bytes([8, 6, 0, 0, 0])
    idat = zlib.compress(b"\x00\x00\x00\x00\x00")
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"tEXt", keyword + b"\x00" + text) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


def png_is_whole(data: bytes) -> bool:
    """Every chunk's length and CRC are right."""
    at = 8
    while at < len(data):
        length = int.from_bytes(data[at : at + 4], "big")
        kind, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + length]
        crc = int.from_bytes(data[at + 8 + length : at + 12 + length], "big")
        if len(body) != length or zlib.crc32(kind + body) != crc:
            return False
        at += 12 + length
    return data.startswith(b"\x89PNG") and at == len(data)


@pytest.fixture(scope="module")
def pass_binary_gateway(gateways):
    return gateways({"limits": {"found_in_binary": "pass"}})


# --- JSON numbers, keys and ids ----------------------------------------------------


@pytest.mark.parametrize("version", VERSIONS)
def test_values_written_as_numbers_are_tokenized_as_strings(gateway, vendor, version):
    rid = new_id()
    body = (
        b'{"model":"gpt-4o-mini","messages":[{"role":"user","content":"look this up"}],'
        b'"metadata":{"ssn": 123456789, "card": 4.111111111111111e15, "card_again": 4111111111111111.0,'
        b'"max": 1024, "price": 19.99, "ok": true}}'
    )
    resp = post_json(gateway.port, CHAT, body, version=version, rid=rid)
    assert resp.status == 200, resp.body[:300]
    record = only_request(vendor, rid)
    assert_clean(record, [SSN, CARD])
    sent = json.loads(record["body"])["metadata"]
    assert sent["ssn"].startswith("«token:SSN:") and sent["card"].startswith("«token:CREDIT_CARD:")
    # The same number written two ways is two literals, two tokens; the rest as it was.
    assert sent["card_again"].startswith("«token:CREDIT_CARD:")
    assert (sent["max"], sent["price"], sent["ok"]) == (1024, 19.99, True)
    assert_audit(audit_for(gateway, rid), outcome="rewritten", categories=["SSN", "CREDIT_CARD"], values=[SSN, CARD])


@pytest.mark.parametrize("version", VERSIONS)
def test_numbers_in_tool_results_of_every_api(gateway, vendor, version):
    """A tool's result as structured JSON: Anthropic `tool_result` content, Gemini
    `functionResponse.response`, the Responses API's `function_call_output`."""
    cases = [
        ("/v1/messages", {"model": "claude", "max_tokens": 10, "messages": [
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_01", "content": [{"type": "text", "text": "ok"}]}]},
            {"role": "user", "content": "see"}], "metadata": {"user_ssn": 123456789}}),
        (GEMINI, {"contents": [{"role": "user", "parts": [{"functionResponse": {"name": "lookup", "response": {"ssn": 123456789, "card": 4111111111111111}}}]},
                               {"role": "user", "parts": [{"text": "see"}]}]}),
        ("/v1/responses", {"model": "gpt-4o", "input": [{"type": "function_call_output", "call_id": "call_1", "output": {"ssn": 123456789}}, {"role": "user", "content": "see"}]}),
    ]
    for path, obj in cases:
        rid = new_id()
        resp = post_json(gateway.port, path, obj, version=version, rid=rid, headers={"anthropic-version": "2023-06-01"})
        assert resp.status == 200, (path, resp.body[:300])
        record = only_request(vendor, rid)
        assert_clean(record, [SSN, CARD])
        assert "123456789" not in record["body"].decode(), path


@pytest.mark.parametrize("version", VERSIONS)
def test_keys_and_ids_that_hold_a_value_are_rewritten(gateway, vendor, version):
    rid = new_id()
    body = {
        "model": "gpt-4o-mini",
        "messages": [
            {"role": "assistant", "tool_calls": [{"id": "call-ssn-123-45-6789", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": "call-ssn-123-45-6789", "content": "done"},
            {"role": "user", "content": "next"},
        ],
        "metadata": {f"ssn:{SSN}": "x", f"owner {EMAIL}": 1},
    }
    resp = post_json(gateway.port, CHAT, body, version=version, rid=rid)
    assert resp.status == 200, resp.body[:300]
    record = only_request(vendor, rid)
    assert_clean(record, [SSN, EMAIL])
    sent = json.loads(record["body"])
    # One value, one token: the call id still pairs the call with its result.
    call_id = sent["messages"][0]["tool_calls"][0]["id"]
    assert call_id.startswith("call-ssn-«token:SSN:") and sent["messages"][1]["tool_call_id"] == call_id
    assert sent["model"] == "gpt-4o-mini" and sent["messages"][1]["role"] == "tool"


# --- binary media --------------------------------------------------------------------


@pytest.mark.parametrize("version", VERSIONS)
def test_a_value_inside_an_image_refuses_the_request_and_never_corrupts_it(gateway, pass_binary_gateway, vendor, version):
    png = png_with_text(b"Author", EMAIL.encode())
    assert png_is_whole(png)
    body = {"contents": [{"role": "user", "parts": [{"text": "describe"}, {"inlineData": {"mimeType": "image/png", "data": base64.b64encode(png).decode()}}]}]}
    rid = new_id()
    resp = post_json(gateway.port, GEMINI, body, version=version, rid=rid)
    assert_refused(resp, 400, "veil_value_in_binary", [EMAIL])
    assert vendor.received() == [] or all(r["headers"].get("x-request-id") != rid or r["body"] == b"" for r in vendor.received())
    assert_audit(audit_for(gateway, rid), outcome="unscannable_blocked", categories=["EMAIL"], values=[EMAIL])
    # `found_in_binary: pass`: forwarded byte for byte, the file whole, counted.
    rid = new_id()
    resp = post_json(pass_binary_gateway.port, GEMINI, body, version=version, rid=rid)
    assert resp.status == 200, resp.body[:300]
    sent = json.loads(only_request(vendor, rid)["body"])
    data = base64.b64decode(sent["contents"][0]["parts"][1]["inlineData"]["data"])
    assert data == png and png_is_whole(data)
    event = audit_for(pass_binary_gateway, rid)
    assert event["findings"].get("EMAIL") == 1 and event.get("unscannable")


# --- JSON Lines and uploads ----------------------------------------------------------


@pytest.mark.parametrize("content_type", ["application/json", "application/jsonl", None])
@pytest.mark.parametrize("version", VERSIONS)
def test_a_json_lines_batch_is_scanned_line_by_line(gateway, vendor, version, content_type):
    lines = [
        {"custom_id": "r1", "method": "POST", "url": "/v1/chat/completions", "body": {"model": "m", "messages": [{"role": "user", "content": f"mail {EMAIL}"}]}},
        {"custom_id": "r2", "method": "POST", "url": "/v1/chat/completions", "body": {"model": "m", "messages": [{"role": "user", "content": f"ssn {SSN}"}]}},
    ]
    body = "\n".join(json.dumps(line) for line in lines).encode() + b"\n"
    rid = new_id()
    resp = post_json(gateway.port, "/v1/some/batch/input", body, version=version, rid=rid, content_type=content_type, headers=ANY)
    assert resp.status == 200, resp.body[:300]
    record = only_request(vendor, rid)
    assert_clean(record, [EMAIL, SSN])
    sent = record["body"].decode().splitlines()
    assert [json.loads(line)["custom_id"] for line in sent] == ["r1", "r2"]
    assert audit_for(gateway, rid).get("body") == "json_lines"


def stored_files(vendor) -> list[bytes]:
    """The bodies of the file uploads the vendor stored (Gemini's upload chunks, the
    `file` parts of multipart uploads), as it received them."""
    return [r["body"] for r in vendor.received() if r["path"].startswith(("/upload/", "/v1/files"))]


def test_google_genai_uploads_text_json_and_jsonl_files_with_values_tokenized(gateway, vendor, tmp_path):
    client = clients.gemini(gateway)
    files = {
        "notes.txt": (f"Customer {EMAIL}, SSN {SSN}.\n", "text/plain"),
        "record.json": (json.dumps({"customer": {"email": EMAIL, "ssn": 123456789}}), "application/json"),
        "batch.jsonl": ("\n".join(json.dumps({"key": f"r{i}", "request": {"contents": [{"parts": [{"text": f"mail {EMAIL}"}]}]}}) for i in range(3)), "application/jsonl"),
        "brace.txt": ("{ not json: mail " + EMAIL + " }", "text/plain"),
    }
    for name, (text, mime) in files.items():
        path = tmp_path / name
        path.write_text(text)
        uploaded = client.files.upload(file=str(path), config={"mime_type": mime})
        assert uploaded.name.startswith("files/") and uploaded.state.name == "ACTIVE", name
    chunks = [b for b in stored_files(vendor) if b and not b.startswith(b'{"file"')]
    assert len(chunks) >= len(files)
    for chunk in chunks[-len(files):]:
        assert leaks(chunk, [EMAIL, SSN]) == [] and tokens_in(chunk), chunk[:200]
    # The JSON file is still JSON, the JSON Lines still one document a line.
    record = json.loads(chunks[-3])
    assert record["customer"]["email"].startswith("«token:EMAIL:") and record["customer"]["ssn"].startswith("«token:SSN:")
    assert all(json.loads(line) for line in chunks[-2].decode().splitlines())


def test_openai_batch_file_upload_and_download_restore_the_values(gateway, vendor, tmp_path):
    client = clients.openai(gateway)
    lines = [json.dumps({"custom_id": f"r{i}", "method": "POST", "url": "/v1/chat/completions",
                         "body": {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": f"mail {EMAIL} ssn {SSN}"}]}}) for i in range(3)]
    path = tmp_path / "batch.jsonl"
    path.write_text("\n".join(lines) + "\n")
    with path.open("rb") as f:
        uploaded = client.files.create(file=f, purpose="batch")
    assert uploaded.id.startswith("file-") and uploaded.purpose == "batch"
    sent = stored_files(vendor)[-1]
    assert leaks(sent, [EMAIL, SSN]) == [] and tokens_in(sent)
    # Downloaded later: the vendor holds tokens, the client gets its values back.
    content = client.files.content(uploaded.id).read().decode()
    assert content.splitlines() == lines


def test_anthropic_file_upload_has_values_tokenized(gateway, vendor):
    client = clients.anthropic(gateway)
    uploaded = client.beta.files.upload(file=("notes.txt", f"Customer {EMAIL}, SSN {SSN}.".encode(), "text/plain"))
    assert uploaded.id.startswith("file_")
    sent = stored_files(vendor)[-1]
    assert leaks(sent, [EMAIL, SSN]) == [] and tokens_in(sent)


# --- streams of APIs without an adapter ------------------------------------------------


def test_an_unlisted_openai_compatible_stream_rejoins_split_tokens(gateway):
    """Azure's v1 path (`/openai/v1/…`) has no adapter here: the generic path restores
    a token the vendor split across events, at random byte chunks."""
    client = clients.openai(gateway, path="/openai/v1")
    text = f"mail {EMAIL} and {SEEDS['EMAIL'][1]} or call {SEEDS['PHONE'][0]}"
    for seed in range(4):
        stream = client.chat.completions.create(
            model="gpt-4o-mini", messages=[{"role": "user", "content": text}], stream=True,
            extra_headers={"x-rig-seed": str(seed)},
        )
        got = "".join(c.choices[0].delta.content or "" for c in stream if c.choices)
        assert got == f"You said: {text}", got
        assert "«token" not in got


@pytest.mark.parametrize("version", VERSIONS)
def test_the_upload_header_reads_by_content_only_on_an_upload_path(gateway, vendor, version):
    """`x-goog-upload-command: upload` on a chat path changes nothing: lenient JSON
    there is still refused, not read as a file's text."""
    rid = new_id()
    body = b'{"model":"m","temperature":NaN,"messages":[{"role":"user","content":"mail ' + EMAIL.encode() + b'"}]}'
    resp = post_json(gateway.port, CHAT, body, version=version, rid=rid, headers={"x-goog-upload-command": "upload, finalize"})
    assert_refused(resp, 400, "veil_invalid_json", [EMAIL])


# Text in a legacy charset (read and written by encoding_rs) and in UTF-16: decoded,
# scanned, and written back in its own charset. Where the charset has no place for a
# token's marks (Shift_JIS, KOI8-R), the token goes without them.
LEGACY_TEXTS = {
    "windows-1251": "Клиент {email}, телефон в карточке",
    "koi8-r": "Клиент {email}, телефон в карточке",
    "shift_jis": "お客様 {email} への連絡",
    "gb18030": "客户 {email} 的邮箱",
    "big5": "客戶 {email} 的郵件",
    "euc-kr": "고객 {email} 메일",
    "iso-8859-15": "Client {email}, 5 € payés",
    "utf-16": "Kunde {email}, Grüße",
}


@pytest.mark.parametrize("charset", list(LEGACY_TEXTS))
@pytest.mark.parametrize("version", VERSIONS)
def test_text_in_another_charset_is_decoded_scanned_and_written_back(gateway, vendor, version, charset):
    text = LEGACY_TEXTS[charset].format(email=EMAIL)
    rid = new_id()
    ctype = f"text/plain; charset={charset}"
    resp = post_json(gateway.port, "/v1/notes", text.encode(charset), version=version, rid=rid, content_type=ctype, headers=ANY)
    assert resp.status == 200, resp.body[:300]
    sent = only_request(vendor, rid)["body"].decode(charset)
    assert EMAIL not in sent and "token:EMAIL:" in sent, sent
    before, after = LEGACY_TEXTS[charset].split("{email}")
    assert sent.startswith(before) and sent.endswith(after), sent
    assert_audit(audit_for(gateway, rid), outcome="rewritten", categories=["EMAIL"], values=[EMAIL])


@pytest.mark.parametrize("version", VERSIONS)
def test_an_address_in_look_alike_letters_is_tokenized_and_restored(gateway, vendor, version):
    # Cyrillic о, а, е and Greek ο inside a Latin address; Russian words around it.
    disguised = EMAIL.replace("o", "\u043e", 1).replace("a", "\u0430", 1).replace("e", "\u03bf", 1)
    assert disguised != EMAIL
    text = f"Напишите {disguised} сегодня"
    rid = new_id()
    body = {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": text}]}
    resp = post_json(gateway.port, CHAT, body, version=version, rid=rid)
    assert resp.status == 200, resp.body[:300]
    sent = json.loads(only_request(vendor, rid)["body"])["messages"][0]["content"]
    assert disguised not in sent and sent.startswith("Напишите «token:EMAIL:") and sent.endswith("» сегодня"), sent
    assert resp.json()["choices"][0]["message"]["content"] == f"You said: {text}"
