"""Every provider API, streamed and not, through real Envoy + veil.wasm, driven by the
official SDKs. The fake vendor echoes the tokens it received and streams them split
at random bytes; each test asserts the client got the originals back and the vendor
saw none of them."""

from __future__ import annotations

import json

from tests.e2e.seeds import SEEDS, leaked
from tests.rig import clients

SECRET_TEXT = (
    f"mail {SEEDS['EMAIL'][0]}, call {SEEDS['PHONE'][0]}, ssn {SEEDS['SSN'][0]}, "
    f"card {SEEDS['CREDIT_CARD'][0]}, host {SEEDS['PRIVATE_IP'][0]}, key {SEEDS['API_KEY'][1]}"
)
TOOL_TEXT = f'record "{SEEDS["EMAIL"][1]}" and {SEEDS["INTERNAL_URL"][0]} [[tool]]'
EXPECTED = f"You said: {SECRET_TEXT}"


def assert_vendor_clean(vendor, calls: int = 1):
    received = vendor.received()
    assert len(received) == calls, [r["path"] for r in received]
    for r in received:
        assert leaked(r["body"]) == [], r["path"]
        assert b"\xc2\xabtoken:" in r["body"], "the request was not tokenized"


# --- OpenAI Chat Completions -------------------------------------------------------


def test_openai_chat_stream(vendor, openai_client):
    vendor.reset()
    stream = openai_client.chat.completions.create(
        model="gpt-4o-mini", messages=[{"role": "user", "content": SECRET_TEXT}], stream=True,
        stream_options={"include_usage": True},
    )
    chunks = list(stream)
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert text == EXPECTED
    assert chunks[-1].usage.total_tokens == 18
    assert_vendor_clean(vendor)


def test_openai_chat_stream_tool_call_arguments(vendor, openai_client):
    vendor.reset()
    stream = openai_client.chat.completions.create(
        model="gpt-4o-mini", messages=[{"role": "user", "content": TOOL_TEXT}], stream=True
    )
    args = "".join(
        (c.choices[0].delta.tool_calls[0].function.arguments or "")
        for c in stream
        if c.choices and c.choices[0].delta.tool_calls
    )
    assert json.loads(args) == {"text": TOOL_TEXT}
    assert_vendor_clean(vendor)


# --- OpenAI Responses --------------------------------------------------------------


def test_openai_responses(vendor, openai_client):
    vendor.reset()
    response = openai_client.responses.create(model="gpt-4o-mini", instructions=f"Reply to {SEEDS['EMAIL'][1]}.", input=SECRET_TEXT)
    assert response.output_text == EXPECTED
    sent = json.loads(vendor.received()[0]["body"])
    assert sent["instructions"].startswith("Reply to «token:EMAIL:")
    assert_vendor_clean(vendor)


def test_openai_responses_stream(vendor, openai_client):
    vendor.reset()
    stream = openai_client.responses.create(
        model="gpt-4o-mini", input=[{"role": "user", "content": [{"type": "input_text", "text": SECRET_TEXT}]}], stream=True
    )
    deltas, done_text, completed = [], None, None
    for event in stream:
        if event.type == "response.output_text.delta":
            deltas.append(event.delta)
        elif event.type == "response.output_text.done":
            done_text = event.text
        elif event.type == "response.completed":
            completed = event.response
    assert "".join(deltas) == EXPECTED
    assert done_text == EXPECTED
    assert completed.output_text == EXPECTED
    assert_vendor_clean(vendor)


def test_openai_responses_function_call_stream(vendor, openai_client):
    vendor.reset()
    stream = openai_client.responses.create(model="gpt-4o-mini", input=TOOL_TEXT, stream=True)
    deltas, done = [], None
    for event in stream:
        if event.type == "response.function_call_arguments.delta":
            deltas.append(event.delta)
        elif event.type == "response.function_call_arguments.done":
            done = event.arguments
    assert json.loads("".join(deltas)) == {"text": TOOL_TEXT}
    assert json.loads(done) == {"text": TOOL_TEXT}
    assert_vendor_clean(vendor)


# --- Anthropic Messages ------------------------------------------------------------


def test_anthropic_messages(vendor, anthropic_client):
    vendor.reset()
    message = anthropic_client.messages.create(
        model="claude-rig-1",
        max_tokens=200,
        system=f"Escalate to {SEEDS['EMAIL'][1]}.",
        messages=[{"role": "user", "content": SECRET_TEXT}],
    )
    assert message.content[0].text == EXPECTED
    sent = json.loads(vendor.received()[0]["body"])
    assert sent["system"].startswith("Escalate to «token:EMAIL:")
    assert_vendor_clean(vendor)


def test_anthropic_messages_stream(vendor, anthropic_client):
    vendor.reset()
    with anthropic_client.messages.stream(
        model="claude-rig-1", max_tokens=200, messages=[{"role": "user", "content": [{"type": "text", "text": SECRET_TEXT}]}]
    ) as stream:
        text = "".join(stream.text_stream)
        final = stream.get_final_message()
    assert text == EXPECTED
    assert final.content[0].text == EXPECTED
    assert_vendor_clean(vendor)


def test_anthropic_tool_use_stream_and_tool_results(vendor, anthropic_client):
    vendor.reset()
    with anthropic_client.messages.stream(
        model="claude-rig-1",
        max_tokens=200,
        messages=[
            {"role": "user", "content": "look it up"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "lookup", "input": {"who": SEEDS["SSN"][0]}}]},
            {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "toolu_1", "content": f"found {SEEDS['PHONE'][1]}"},
                {"type": "text", "text": TOOL_TEXT},
            ]},
        ],
    ) as stream:
        final = stream.get_final_message()
    assert final.content[0].input == {"text": TOOL_TEXT}
    sent = json.loads(vendor.received()[0]["body"])
    assert sent["messages"][1]["content"][0]["input"]["who"].startswith("«token:SSN:")
    assert sent["messages"][2]["content"][0]["tool_use_id"] == "toolu_1"
    assert_vendor_clean(vendor)


# --- Gemini ------------------------------------------------------------------------


def test_gemini_generate_content(vendor, gemini_client):
    from google.genai import types

    vendor.reset()
    response = gemini_client.models.generate_content(
        model="gemini-2.0-flash",
        contents=SECRET_TEXT,
        config=types.GenerateContentConfig(system_instruction=f"Escalate to {SEEDS['EMAIL'][1]}."),
    )
    assert response.text == EXPECTED
    sent = json.loads(vendor.received()[0]["body"])
    assert "«token:EMAIL:" in json.dumps(sent, ensure_ascii=False)
    assert_vendor_clean(vendor)


def test_gemini_generate_content_stream(vendor, gemini_client):
    vendor.reset()
    text = "".join(chunk.text or "" for chunk in gemini_client.models.generate_content_stream(model="gemini-2.0-flash", contents=SECRET_TEXT))
    assert text == EXPECTED
    assert "alt=sse" in vendor.received()[0]["path"]
    assert_vendor_clean(vendor)


def test_gemini_function_call(vendor, gemini_client):
    vendor.reset()
    response = gemini_client.models.generate_content(model="gemini-2.0-flash", contents=TOOL_TEXT)
    assert response.function_calls[0].args == {"text": TOOL_TEXT}
    assert_vendor_clean(vendor)


def test_gemini_streamed_json_array(gateway, vendor):
    """streamGenerateContent without alt=sse: one JSON array, delivered incrementally."""
    vendor.reset()
    body = json.dumps({"contents": [{"role": "user", "parts": [{"text": SECRET_TEXT}]}]}).encode()
    status, _, data, _ = clients.post_raw(
        gateway, "/v1beta/models/gemini-2.0-flash:streamGenerateContent", body, api_key=None,
        headers={"x-goog-api-key": clients.API_KEY},
    )
    assert status == 200
    chunks = json.loads(data)
    assert len(chunks) > 3
    text = "".join(c["candidates"][0]["content"]["parts"][0]["text"] for c in chunks)
    assert text == EXPECTED
    assert_vendor_clean(vendor)


def test_unknown_token_ids_stay_as_they_are(vendor, openai_client):
    vendor.reset()
    made_up = "«token:EMAIL:0badc0de»"
    stream = openai_client.chat.completions.create(model="m", messages=[{"role": "user", "content": f"x {made_up} y"}], stream=True)
    assert "".join(c.choices[0].delta.content or "" for c in stream if c.choices) == f"You said: x {made_up} y"
