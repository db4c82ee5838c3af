"""A fake LLM vendor that speaks OpenAI's Chat Completions wire format.

It stands in for api.openai.com in the demo and the tests: it answers like the real
API (JSON bodies, error objects) and records every request it receives, so a test can
assert that no seeded value ever reached the vendor.

Behaviour, driven by the last user message:
  * default: the assistant echoes it: "You said: <text>".
  * contains "[[tool]]": the answer is a tool call whose arguments hold the text.
  * contains "[[plain]]": the answer is text/plain instead of JSON.

Rig endpoints (not part of any vendor API):
  GET  /__rig/received   -> JSON list of {method, path, headers, body_b64}
  POST /__rig/reset      -> clears the list

Run: python fake_vendor.py --port 18080
"""

from __future__ import annotations

import argparse
import base64
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

_received: list[dict] = []
_lock = threading.Lock()


def _last_user_text(request: dict) -> str:
    for message in reversed(request.get("messages") or []):
        if message.get("role") != "user":
            continue
        content = message.get("content")
        if isinstance(content, str):
            return content
        if isinstance(content, list):
            return " ".join(p["text"] for p in content if isinstance(p, dict) and p.get("type") == "text")
    return ""


def chat_completion(request: dict) -> dict:
    text = _last_user_text(request)
    message: dict = {"role": "assistant", "content": f"You said: {text}", "refusal": None}
    finish = "stop"
    if "[[tool]]" in text:
        message = {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_rig_1",
                    "type": "function",
                    "function": {"name": "record", "arguments": json.dumps({"text": text})},
                }
            ],
        }
        finish = "tool_calls"
    return {
        "id": "chatcmpl-rig0001",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": request.get("model", "gpt-4o-mini"),
        "choices": [{"index": 0, "message": message, "logprobs": None, "finish_reason": finish}],
        "usage": {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18},
        "system_fingerprint": "fp_rig",
    }


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "fake-vendor/1"

    def log_message(self, *args) -> None:  # quiet: the tests read the recorded requests
        pass

    def _read_body(self) -> bytes:
        if self.headers.get("transfer-encoding", "").lower() == "chunked":
            chunks = []
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    return b"".join(chunks)
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
        length = int(self.headers.get("content-length") or 0)
        return self.rfile.read(length) if length else b""

    def _send(self, status: int, body: bytes, content_type: str = "application/json") -> None:
        self.send_response(status)
        self.send_header("content-type", content_type)
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        if self.path == "/__rig/received":
            with _lock:
                body = json.dumps(_received).encode()
            return self._send(200, body)
        self._error(404, "Unknown path", "not_found")

    def do_POST(self) -> None:
        body = self._read_body()
        if self.path == "/__rig/reset":
            with _lock:
                _received.clear()
            return self._send(200, b"{}")
        with _lock:
            _received.append(
                {
                    "method": "POST",
                    "path": self.path,
                    "headers": {k.lower(): v for k, v in self.headers.items()},
                    "body_b64": base64.b64encode(body).decode(),
                }
            )
        if self.path.split("?")[0] != "/v1/chat/completions":
            return self._error(404, f"Unknown path {self.path.split('?')[0]}", "unknown_url")
        try:
            request = json.loads(body)
        except ValueError:
            return self._error(400, "We could not parse the JSON body of your request.", None)
        if request.get("stream"):
            return self._error(400, "This fake vendor does not stream yet.", "unsupported")
        answer = chat_completion(request)
        if "[[plain]]" in _last_user_text(request):
            return self._send(200, answer["choices"][0]["message"]["content"].encode(), "text/plain; charset=utf-8")
        self._send(200, json.dumps(answer).encode())

    def _error(self, status: int, message: str, code: str | None) -> None:
        err = {"error": {"message": message, "type": "invalid_request_error", "param": None, "code": code}}
        self._send(status, json.dumps(err).encode())


def serve(port: int, host: str = "127.0.0.1") -> ThreadingHTTPServer:
    server = ThreadingHTTPServer((host, port), Handler)
    server.daemon_threads = True
    return server


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=18080)
    args = parser.parse_args()
    server = serve(args.port)
    print(f"fake vendor on http://127.0.0.1:{args.port}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
