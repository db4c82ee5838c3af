"""A fake detector model: an OpenAI-compatible and Ollama-shaped chat server with
scripted answers, standing in for the company-hosted model that Veil's model stage
(`detectors.model`) asks for personal data in a request's text.

APIs:
  POST /v1/chat/completions   OpenAI-compatible (vLLM, llama.cpp server): choices[0].message.content
  POST /api/chat              Ollama native: message.content, done: true

The prompt is one user message, instructions first, the text after "\\n\\nText:\\n".
The answer is {"spans": [...]}: one per scripted span, in this order —
  {"text": T, "category": C}                 start/end: T's character offsets in the text
                                             (its first occurrence; absent if T is not there)
  {"text": T, "category": C, "shift": N}     the same offsets moved by N (wrong offsets)
  {"text": T, "category": C, "start": S, "end": E}   as given

Script (POST /__detector/script, JSON, every field optional; reset restores defaults):
  mode      normal | error (HTTP 500) | slow (sleep delay_ms, then normal) | drop (close
            the connection without answering)
  delay_ms  for slow
  spans     the scripted spans (default: none)
  content   when set, the assistant text verbatim instead of the spans (malformed JSON)
Rig endpoints:
  GET  /__detector/calls   -> [{path, body, text}] every call (text: what it was asked about)
  POST /__detector/reset   -> clears calls and script

Run (from the repository root): python -m tests.rig.fake_detector --port 18091
"""

from __future__ import annotations

import json

from tests.rig import serving
from tests.rig.scripted_chat import ScriptedChat, State

DEFAULT_SCRIPT = {"mode": "normal", "delay_ms": 0, "spans": [], "content": None}


def asked_text(request: dict) -> str:
    messages = request.get("messages") or []
    prompt = next((m.get("content", "") for m in messages if m.get("role") == "user"), "")
    return prompt.partition("\n\nText:\n")[2]


def answer_content(text: str, script: dict) -> str:
    if script.get("content") is not None:
        return script["content"]
    spans = []
    for span in script["spans"]:
        item = {"text": span["text"], "category": span["category"]}
        if "start" in span:
            item["start"], item["end"] = span["start"], span.get("end", span["start"] + len(span["text"]))
        else:
            at = text.find(span["text"])
            if at >= 0:
                shift = span.get("shift", 0)
                item["start"], item["end"] = at + shift, at + shift + len(span["text"])
        spans.append(item)
    return json.dumps({"spans": spans})


class Handler(ScriptedChat):
    server_version = "fake-detector/1"
    prefix = "/__detector"
    chat_id = "chatcmpl-detector"
    state = State(DEFAULT_SCRIPT)

    def record(self, request: dict) -> dict:
        return {"path": self.path, "body": request, "text": asked_text(request)}

    def content(self, request: dict, script: dict) -> str:
        return answer_content(asked_text(request), script)


def serve(port: int, host: str = "127.0.0.1"):
    return serving.serve(Handler, port, host)


if __name__ == "__main__":
    serving.main(Handler, what="fake detector", description=__doc__.splitlines()[0], default_port=18091)
