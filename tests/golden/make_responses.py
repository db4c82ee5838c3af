"""Writes each golden case's vendor response from its vendor.json, in the fake vendor's
wire format (the vendor echoes the tokens it received). Run after a bless of
vendor.json; then bless again to write client.*, and review the diff.

    python -m tests.golden.make_responses && VEIL_BLESS=1 cargo test --test it golden
"""

import json
import random
from pathlib import Path

from tests.rig import fake_vendor as fv

ROOT = Path(__file__).parent

API = {"openai_chat": "chat", "openai_responses": "responses", "anthropic_messages": "anthropic", "gemini": "gemini"}

for provider, api in API.items():
    for case in sorted((ROOT / provider).iterdir()):
        if not (case / "vendor.json").exists() or provider == "openai_chat" and case.name != "stream":
            continue
        request = json.loads((case / "vendor.json").read_bytes())
        text = fv.last_user_text(api, request)
        rnd = random.Random(case.name)
        for old in case.glob("response.*"):
            old.unlink()
        for old in case.glob("client.*"):
            old.unlink()
        if api == "chat":
            (case / "response.sse").write_bytes(fv.chat_stream(request, text, False, rnd))
        elif api == "responses":
            if request.get("stream"):
                (case / "response.sse").write_bytes(fv.responses_stream(request, text, False, rnd))
            else:
                (case / "response.json").write_text(json.dumps(fv.responses_json(request, text, False), ensure_ascii=False))
        elif api == "anthropic":
            if request.get("stream"):
                (case / "response.sse").write_bytes(fv.anthropic_stream(request, text, False, rnd))
            else:
                (case / "response.json").write_text(json.dumps(fv.anthropic_json(request, text, False)))
        else:
            chunks = fv.gemini_chunks(text, False, rnd)
            if case.name == "stream_sse":
                (case / "response.sse").write_bytes(b"".join(fv.sse(None, c) for c in chunks))
            elif case.name == "stream_array":
                (case / "response.jsonarray").write_bytes(b"[" + b"\n,\r\n".join(json.dumps(c, indent=2).encode() for c in chunks) + b"\n]")
            else:
                (case / "response.json").write_text(json.dumps(fv.gemini_json(text, False)))
        print("wrote", case.relative_to(ROOT))
