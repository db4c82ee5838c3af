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
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler

from tests.rig import serving

DEFAULT_SCRIPT = {"mode": "normal", "delay_ms": 0, "spans": [], "content": None}
_script = dict(DEFAULT_SCRIPT)
_calls: list[dict] = []
_lock = threading.Lock()


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


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "fake-detector/1"

    def log_message(self, *args) -> None:
        pass

    def setup(self) -> None:
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def _send(self, status: int, body: bytes) -> None:
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        if self.path == "/__detector/calls":
            with _lock:
                return self._send(200, json.dumps(_calls).encode())
        self._send(404, b"{}")

    def do_POST(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length) if length else b""
        if self.path == "/__detector/reset":
            with _lock:
                _calls.clear()
                _script.clear()
                _script.update(DEFAULT_SCRIPT)
            return self._send(200, b"{}")
        if self.path == "/__detector/script":
            with _lock:
                _script.update(json.loads(raw or b"{}"))
            return self._send(200, b"{}")
        try:
            request = json.loads(raw)
        except ValueError:
            request = {}
        text = asked_text(request)
        with _lock:
            _calls.append({"path": self.path, "body": request, "text": text})
            script = dict(_script)
        mode = script["mode"]
        if mode == "slow":
            time.sleep(script["delay_ms"] / 1000)
        if mode == "drop":
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)
            return
        if mode == "error":
            return self._send(500, b'{"error": {"message": "synthetic failure"}}')
        content = answer_content(text, script)
        model = request.get("model", "fake")
        if self.path == "/api/chat":
            body = {"model": model, "created_at": "2026-01-01T00:00:00Z", "message": {"role": "assistant", "content": content}, "done": True, "done_reason": "stop"}
        elif self.path == "/v1/chat/completions":
            body = {
                "id": "chatcmpl-detector",
                "object": "chat.completion",
                "created": 1731000000,
                "model": model,
                "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
            }
        else:
            return self._send(404, b'{"error": "unknown path"}')
        self._send(200, json.dumps(body).encode())


def serve(port: int, host: str = "127.0.0.1"):
    return serving.serve(Handler, port, host)


if __name__ == "__main__":
    serving.main(Handler, what="fake detector", description=__doc__.splitlines()[0], default_port=18091)
