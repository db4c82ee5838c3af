"""The HTTP side shared by the rig's fake company-hosted models (`fake_verifier.py`,
`fake_detector.py`): an OpenAI-compatible and Ollama-shaped chat server whose answers
and failures a test scripts.

A subclass of `ScriptedChat` sets `prefix` (its rig endpoints: `{prefix}/calls`,
`{prefix}/script`, `{prefix}/reset`), `state` (a `State` with its default script),
`chat_id`, and `content(request, script)`, the assistant's text; `record(request)`
makes the call's entry in `calls`. Every script has `mode` (normal | error: HTTP 500 |
slow: sleep `delay_ms`, then normal | drop: close the connection without answering;
a subclass may add modes that `content` reads) and `delay_ms`.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler


class State:
    """A fake's script and the calls it received, behind one lock."""

    def __init__(self, default: dict):
        self.default = dict(default)
        self.script = dict(default)
        self.calls: list[dict] = []
        self.lock = threading.Lock()


class ScriptedChat(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    prefix = ""
    chat_id = "chatcmpl-fake"
    state: State

    def log_message(self, *args) -> None:
        pass

    def setup(self) -> None:
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def content(self, request: dict, script: dict) -> str:
        raise NotImplementedError

    def record(self, request: dict) -> dict:
        return {"path": self.path, "body": request}

    def mode(self, script: dict, number: int) -> str:
        """The mode of the `number`th call since the last reset."""
        return script["mode"]

    def _send(self, status: int, body: bytes) -> None:
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        if self.path == f"{self.prefix}/calls":
            with self.state.lock:
                return self._send(200, json.dumps(self.state.calls).encode())
        self._send(404, b"{}")

    def do_POST(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length) if length else b""
        state = self.state
        if self.path == f"{self.prefix}/reset":
            with state.lock:
                state.calls.clear()
                state.script = dict(state.default)
            return self._send(200, b"{}")
        if self.path == f"{self.prefix}/script":
            with state.lock:
                state.script.update(json.loads(raw or b"{}"))
            return self._send(200, b"{}")
        try:
            request = json.loads(raw)
        except ValueError:
            request = {}
        call = self.record(request)
        with state.lock:
            state.calls.append(call)
            number = len(state.calls)
            script = dict(state.script)
        try:
            self._answer(request, script, self.mode(script, number))
        finally:
            call["answered"] = time.monotonic()

    def _answer(self, request: dict, script: dict, mode: str) -> None:
        if mode == "slow":
            time.sleep(script["delay_ms"] / 1000)
        if mode == "drop":
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)
            return
        if mode == "error":
            return self._send(500, b'{"error": {"message": "synthetic failure"}}')
        content = self.content(request, script)
        model = request.get("model", "fake")
        if self.path == "/api/chat":
            body = {"model": model, "created_at": "2026-01-01T00:00:00Z", "message": {"role": "assistant", "content": content}, "done": True, "done_reason": "stop"}
        elif self.path == "/v1/chat/completions":
            body = {
                "id": self.chat_id,
                "object": "chat.completion",
                "created": 1731000000,
                "model": model,
                "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
            }
        else:
            return self._send(404, b'{"error": "unknown path"}')
        self._send(200, json.dumps(body).encode())
