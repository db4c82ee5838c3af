"""A fake claim verifier: an OpenAI-compatible and Ollama-shaped chat server with
scripted behaviour, standing in for the company-hosted LLM that Veil asks to extract
and score the claims of an answer.

APIs:
  POST /v1/chat/completions   OpenAI-compatible (vLLM, llama.cpp server): choices[0].message.content
  POST /api/chat              Ollama native: message.content, done: true

It tells the two calls apart by the prompt (one user message, instructions first):
extraction ("You extract …")
answers {"claims": [{"text": <sentence>}, …]} with the sentences of the user text;
verification answers {"score": S, "reasoning": …} with S = 20 when the claim holds
one of the script's `low` markers, else 95.

Script (POST /__verifier/script, JSON, every field optional; reset restores defaults):
  mode      normal | prose (code fence, leading prose, trailing comma) | malformed |
            error (HTTP 500) | slow (sleep delay_ms, then normal) | drop (close the
            connection without answering)
  delay_ms  for slow
  fail_calls  only the first N calls (since the last reset) follow `mode`; later ones
            answer normally (0: every call follows it)
  low       list of substrings that make a claim doubtful (default: ["moon", "Atlantis"])
Rig endpoints:
  GET  /__verifier/calls   -> [{path, body, authorization, received, answered}] every
                              call; `received`/`answered` are time.monotonic() seconds
                              (this process's clock) when it arrived and was answered
  POST /__verifier/reset   -> clears calls and script

Run (from the repository root): python -m tests.rig.fake_verifier --port 18090
"""

from __future__ import annotations

import json
import re
import time
from http.server import ThreadingHTTPServer

from tests.rig import serving
from tests.rig.scripted_chat import ScriptedChat, State

DEFAULT_SCRIPT = {"mode": "normal", "delay_ms": 0, "low": ["moon", "Atlantis"], "fail_calls": 0}


def sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?])\s+", text.strip()) if len(s) >= 10]


def answer_content(request: dict, script: dict) -> str:
    messages = request.get("messages") or []
    prompt = next((m.get("content", "") for m in messages if m.get("role") == "user"), "")
    if prompt.startswith("You extract"):
        value = {"claims": [{"text": s} for s in sentences(prompt.partition("\n\nText:\n")[2])]}
    else:
        claim = prompt.partition("\n\nClaim: ")[2]
        low = any(marker.lower() in claim.lower() for marker in script["low"])
        value = {"score": 20 if low else 95, "reasoning": "Synthetic check: contradicts the reference set." if low else "Synthetic check: consistent."}
    text = json.dumps(value)
    if script["mode"] == "prose":
        return "Sure, here is the JSON you asked for:\n```json\n" + text[:-1] + ",}\n```\nAnything else?"
    if script["mode"] == "malformed":
        return "I think the answer is {claims: [moon, 'paris',, score = high} (" + "x" * 40
    return text


class Handler(ScriptedChat):
    server_version = "fake-verifier/1"
    prefix = "/__verifier"
    chat_id = "chatcmpl-verifier"
    state = State(DEFAULT_SCRIPT)

    def record(self, request: dict) -> dict:
        return {"path": self.path, "body": request, "authorization": self.headers.get("authorization"), "received": time.monotonic()}

    def mode(self, script: dict, number: int) -> str:
        return "normal" if 0 < script["fail_calls"] < number else script["mode"]

    def content(self, request: dict, script: dict) -> str:
        return answer_content(request, script)


def serve(port: int, host: str = "127.0.0.1") -> ThreadingHTTPServer:
    return serving.serve(Handler, port, host)


if __name__ == "__main__":
    serving.main(Handler, what="fake verifier", description=__doc__.splitlines()[0], default_port=18090)
