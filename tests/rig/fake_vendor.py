"""A fake LLM vendor that speaks the real wire formats of OpenAI, Anthropic and Gemini.

It stands in for the vendors' servers in the demo and the tests: it answers like the
real APIs (JSON bodies, SSE streams, Gemini's streamed JSON array, error objects),
streams in random small byte chunks with pauses, and records every request it
receives, so a test can assert that no seeded value ever reached the vendor.

APIs (answers echo the last user text: "You said: <text>"):
  POST /v1/chat/completions                          OpenAI Chat Completions (stream or not)
  POST /v1/responses                                 OpenAI Responses (stream or not)
  POST /v1/messages                                  Anthropic Messages (stream or not)
  POST /v1beta/models/{m}:generateContent            Gemini
  POST /v1beta/models/{m}:streamGenerateContent      Gemini stream (alt=sse: SSE; else a JSON array)
  POST /upload/v1beta/files                          Gemini Files, resumable protocol (`x-goog-upload-*`):
                                                     `start` answers the upload URL (on the Host the
                                                     request came to), `upload, finalize` stores the bytes
  POST /v1/files                                     OpenAI Files / Anthropic Files (`anthropic-version`
                                                     header): a multipart upload, stored
  GET  /v1/files/{id}/content                        the stored file's bytes (application/octet-stream)

Markers in the user text:
  [[tool]]   the answer is a tool/function call whose arguments hold the text
  [[plain]]  (chat) the answer is text/plain instead of JSON

Any other POST path: 404 (recorded all the same); with the request header
`x-rig-answer-any: 1`, 200 `{}` instead (tests/e2e/test_hostile.py).

Rig endpoints (not part of any vendor API):
  GET  /__rig/received   -> JSON list of {method, path, headers, body_b64} (every POST
                            and every other GET)
  POST /__rig/reset      -> clears the list

Run (from the repository root): python -m tests.rig.fake_vendor --port 18080
"""

from __future__ import annotations

import base64
import email.parser
import email.policy
import hashlib
import json
import random
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from tests.rig import serving

_received: list[dict] = []
_lock = threading.Lock()
# Responses API state: response id -> the user text of that turn (as the vendor saw it).
_memory: dict[str, str] = {}
_next_id = iter(range(1, 1_000_000_000))
# Files stored by the upload APIs: id -> (bytes, the upload's declared metadata).
_files: dict[str, bytes] = {}

CREATED = 1731000000


def _text_of_parts(parts) -> str:
    out = []
    for p in parts or []:
        if isinstance(p, dict) and isinstance(p.get("text"), str) and p.get("type", "text") in ("text", "input_text"):
            out.append(p["text"])
    return " ".join(out)


def last_user_text(api: str, request: dict) -> str:
    if api in ("chat", "anthropic"):
        for message in reversed(request.get("messages") or []):
            if message.get("role") == "user":
                content = message.get("content")
                return content if isinstance(content, str) else _text_of_parts(content)
        return ""
    if api == "responses":
        items = request.get("input")
        if isinstance(items, str):
            return items
        for item in reversed(items or []):
            if item.get("role") == "user":
                content = item.get("content")
                return content if isinstance(content, str) else _text_of_parts(content)
        return ""
    if api == "gemini":
        for content in reversed(request.get("contents") or []):
            if content.get("role", "user") == "user":
                return " ".join(p["text"] for p in content.get("parts", []) if "text" in p)
        return ""
    return ""


def pieces(text: str, rnd: random.Random) -> list[str]:
    """Splits text into small deltas (1-6 characters), as models stream."""
    out, i = [], 0
    while i < len(text):
        n = rnd.randint(1, 6)
        out.append(text[i : i + n])
        i += n
    return out or [""]


def sse(event: str | None, data) -> bytes:
    payload = data if isinstance(data, str) else json.dumps(data)
    head = f"event: {event}\n" if event else ""
    return f"{head}data: {payload}\n\n".encode()


# --- OpenAI Chat Completions -------------------------------------------------------

def chat_json(request: dict, text: str, tool: bool) -> dict:
    if tool:
        message = {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"id": "call_rig_1", "type": "function", "function": {"name": "record", "arguments": json.dumps({"text": text})}}],
        }
        finish = "tool_calls"
    else:
        message = {"role": "assistant", "content": f"You said: {text}", "refusal": None}
        finish = "stop"
    return {
        "id": "chatcmpl-rig0001",
        "object": "chat.completion",
        "created": CREATED,
        "model": request.get("model", "gpt-4o-mini"),
        "choices": [{"index": 0, "message": message, "logprobs": None, "finish_reason": finish}],
        "usage": {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18},
        "system_fingerprint": "fp_rig",
    }


def chat_stream(request: dict, text: str, tool: bool, rnd: random.Random) -> bytes:
    base = {"id": "chatcmpl-rig0001", "object": "chat.completion.chunk", "created": CREATED, "model": request.get("model", "m"), "system_fingerprint": "fp_rig"}

    def chunk(delta, finish=None):
        return sse(None, {**base, "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}]})

    out = [chunk({"role": "assistant", "content": "", "refusal": None})]
    if tool:
        out.append(chunk({"tool_calls": [{"index": 0, "id": "call_rig_1", "type": "function", "function": {"name": "record", "arguments": ""}}]}))
        for piece in pieces(json.dumps({"text": text}), rnd):
            out.append(chunk({"tool_calls": [{"index": 0, "function": {"arguments": piece}}]}))
        out.append(chunk({}, "tool_calls"))
    else:
        for piece in pieces(f"You said: {text}", rnd):
            out.append(chunk({"content": piece}))
        out.append(chunk({}, "stop"))
    if (request.get("stream_options") or {}).get("include_usage"):
        out.append(sse(None, {**base, "choices": [], "usage": {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18}}))
    out.append(sse(None, "[DONE]"))
    return b"".join(out)


# --- OpenAI Responses --------------------------------------------------------------

def responses_output(text: str, tool: bool) -> list[dict]:
    if tool:
        return [{"type": "function_call", "id": "fc_rig_1", "call_id": "call_rig_1", "name": "record", "arguments": json.dumps({"text": text}), "status": "completed"}]
    return [{"type": "message", "id": "msg_rig_1", "status": "completed", "role": "assistant", "content": [{"type": "output_text", "text": f"You said: {text}", "annotations": []}]}]


def responses_json(request: dict, text: str, tool: bool, status: str = "completed", output=None, rid: str = "resp_rig_1") -> dict:
    return {
        "id": rid,
        "object": "response",
        "created_at": CREATED,
        "status": status,
        "model": request.get("model", "gpt-4o-mini"),
        "output": responses_output(text, tool) if output is None else output,
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
        "usage": {"input_tokens": 11, "output_tokens": 7, "total_tokens": 18, "input_tokens_details": {"cached_tokens": 0}, "output_tokens_details": {"reasoning_tokens": 0}},
    }


def responses_stream(request: dict, text: str, tool: bool, rnd: random.Random) -> bytes:
    seq = iter(range(1_000_000))
    out = []

    def ev(kind, **fields):
        out.append(sse(kind, {"type": kind, "sequence_number": next(seq), **fields}))

    ev("response.created", response=responses_json(request, text, tool, "in_progress", []))
    final = responses_output(text, tool)[0]
    if tool:
        ev("response.output_item.added", output_index=0, item={**final, "arguments": "", "status": "in_progress"})
        for piece in pieces(final["arguments"], rnd):
            ev("response.function_call_arguments.delta", item_id="fc_rig_1", output_index=0, delta=piece)
        ev("response.function_call_arguments.done", item_id="fc_rig_1", output_index=0, arguments=final["arguments"])
    else:
        full = final["content"][0]["text"]
        ev("response.output_item.added", output_index=0, item={**final, "status": "in_progress", "content": []})
        ev("response.content_part.added", item_id="msg_rig_1", output_index=0, content_index=0, part={"type": "output_text", "text": "", "annotations": []})
        for piece in pieces(full, rnd):
            ev("response.output_text.delta", item_id="msg_rig_1", output_index=0, content_index=0, delta=piece)
        ev("response.output_text.done", item_id="msg_rig_1", output_index=0, content_index=0, text=full)
        ev("response.content_part.done", item_id="msg_rig_1", output_index=0, content_index=0, part=final["content"][0])
    ev("response.output_item.done", output_index=0, item=final)
    ev("response.completed", response=responses_json(request, text, tool))
    return b"".join(out)


# --- Anthropic Messages ------------------------------------------------------------

def anthropic_json(request: dict, text: str, tool: bool) -> dict:
    if tool:
        content = [{"type": "tool_use", "id": "toolu_rig_1", "name": "record", "input": {"text": text}}]
        stop = "tool_use"
    else:
        content = [{"type": "text", "text": f"You said: {text}"}]
        stop = "end_turn"
    return {
        "id": "msg_rig_1",
        "type": "message",
        "role": "assistant",
        "model": request.get("model", "claude-rig-1"),
        "content": content,
        "stop_reason": stop,
        "stop_sequence": None,
        "usage": {"input_tokens": 11, "output_tokens": 7},
    }


def anthropic_stream(request: dict, text: str, tool: bool, rnd: random.Random) -> bytes:
    message = anthropic_json(request, text, tool)
    out = [sse("message_start", {"type": "message_start", "message": {**message, "content": [], "stop_reason": None, "usage": {"input_tokens": 11, "output_tokens": 1}}})]
    if tool:
        block = message["content"][0]
        out.append(sse("content_block_start", {"type": "content_block_start", "index": 0, "content_block": {**block, "input": {}}}))
        for piece in pieces(json.dumps(block["input"]), rnd):
            out.append(sse("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": piece}}))
    else:
        out.append(sse("content_block_start", {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}))
        out.append(sse("ping", {"type": "ping"}))
        for piece in pieces(message["content"][0]["text"], rnd):
            out.append(sse("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": piece}}))
    out.append(sse("content_block_stop", {"type": "content_block_stop", "index": 0}))
    out.append(sse("message_delta", {"type": "message_delta", "delta": {"stop_reason": message["stop_reason"], "stop_sequence": None}, "usage": {"output_tokens": 7}}))
    out.append(sse("message_stop", {"type": "message_stop"}))
    return b"".join(out)


# --- Gemini ------------------------------------------------------------------------

def gemini_chunk(parts: list[dict], finish: str | None) -> dict:
    candidate = {"content": {"parts": parts, "role": "model"}, "index": 0}
    if finish:
        candidate["finishReason"] = finish
    return {
        "candidates": [candidate],
        "usageMetadata": {"promptTokenCount": 11, "candidatesTokenCount": 7, "totalTokenCount": 18},
        "modelVersion": "gemini-2.0-flash",
        "responseId": "rig-resp-1",
    }


def gemini_json(text: str, tool: bool) -> dict:
    if tool:
        return gemini_chunk([{"functionCall": {"name": "record", "args": {"text": text}}}], "STOP")
    return gemini_chunk([{"text": f"You said: {text}"}], "STOP")


def gemini_chunks(text: str, tool: bool, rnd: random.Random) -> list[dict]:
    if tool:
        return [gemini_json(text, tool)]
    parts = pieces(f"You said: {text}", rnd)
    return [gemini_chunk([{"text": p}], "STOP" if i == len(parts) - 1 else None) for i, p in enumerate(parts)]


# --- HTTP --------------------------------------------------------------------------

class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "fake-vendor/2"

    def log_message(self, *args) -> None:  # quiet: the tests read the recorded requests
        pass

    def setup(self) -> None:
        super().setup()
        # Like the vendors' front ends: no Nagle delay on small stream writes.
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

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
        # A connection the gateway reset meanwhile is the server's `handle_error`'s
        # concern (`serving.py`).
        self.end_headers()
        self.wfile.write(body)

    def _stream(self, body: bytes, content_type: str, rnd: random.Random) -> None:
        """Sends `body` chunked, in random 1-24 byte pieces with short pauses, so that
        events and tokens are split at arbitrary bytes on the wire. With the header
        `x-rig-event-interval-ms: N` it sends each SSE event whole, N ms apart instead
        (a steady pace, for latency measurements)."""
        self.send_response(200)
        self.send_header("content-type", content_type)
        self.send_header("transfer-encoding", "chunked")
        self.send_header("cache-control", "no-cache")
        self.end_headers()
        interval = self.headers.get("x-rig-event-interval-ms")
        if interval is not None:
            self.wfile.flush()
            for event in body.split(b"\n\n"):
                if event:
                    piece = event + b"\n\n"
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
                    self.wfile.flush()
                    time.sleep(float(interval) / 1000)
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()
            return
        i = 0
        while i < len(body):
            n = rnd.randint(1, 24)
            piece = body[i : i + n]
            self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
            self.wfile.flush()
            i += n
            if rnd.random() < 0.2:
                time.sleep(0.002)
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    def _record(self, method: str, body: bytes) -> None:
        with _lock:
            _received.append(
                {
                    "method": method,
                    "path": self.path,
                    "headers": {k.lower(): v for k, v in self.headers.items()},
                    "body_b64": base64.b64encode(body).decode(),
                }
            )

    def do_GET(self) -> None:
        if self.path == "/__rig/received":
            with _lock:
                body = json.dumps(_received).encode()
            return self._send(200, body)
        path = self.path.partition("?")[0]
        if path.startswith("/v1/files/") and path.endswith("/content"):
            self._record("GET", b"")
            with _lock:
                stored = _files.get(path.split("/")[3])
            if stored is None:
                return self._error("chat", 404, "No such File object", None)
            return self._send(200, stored, "application/octet-stream")
        # Recorded too: a request the gateway should have refused (a WebSocket
        # upgrade) must show up here if it got through.
        self._record("GET", b"")
        self._error("chat", 404, "Unknown path", "not_found")

    def do_POST(self) -> None:
        body = self._read_body()
        if self.path == "/__rig/reset":
            with _lock:
                _received.clear()
            return self._send(200, b"{}")
        self._record("POST", body)
        path, _, query = self.path.partition("?")
        if path.startswith("/upload/") and path.endswith("/files"):
            return self._gemini_upload(body, query)
        if path == "/v1/files":
            return self._file_upload(body)
        api = {"/v1/chat/completions": "chat", "/v1/responses": "responses", "/v1/messages": "anthropic"}.get(path)
        if api is None and path.endswith("/chat/completions"):  # OpenAI-compatible proxies
            api = "chat"
        if api is None and (path.endswith(":generateContent") or path.endswith(":streamGenerateContent")):
            api = "gemini"
        if api is None:
            if self.headers.get("x-rig-answer-any"):
                # Asked for by the hostile-input tests: any other path (count_tokens,
                # embeddings, cachedContents, made-up ones) is recorded above and answered
                # with an empty JSON object, whatever the body is (compressed, not JSON).
                return self._send(200, b"{}")
            return self._error("chat", 404, f"Unknown path {path}", "unknown_url")
        try:
            request = json.loads(body)
        except ValueError:
            return self._error(api, 400, "We could not parse the JSON body of your request.", "invalid_json")
        text = last_user_text(api, request)
        tool = "[[tool]]" in text
        rnd = random.Random(self.headers.get("x-rig-seed") or random.random())
        if api == "chat":
            if request.get("stream"):
                return self._stream(chat_stream(request, text, tool, rnd), "text/event-stream; charset=utf-8", rnd)
            if "[[plain]]" in text:
                return self._send(200, f"You said: {text}".encode(), "text/plain; charset=utf-8")
            return self._send(200, json.dumps(chat_json(request, text, tool)).encode())
        if api == "responses":
            # Stateful API: remember this turn; with previous_response_id, answer from
            # the earlier turn (which the request itself no longer carries).
            with _lock:
                rid = f"resp_rig_{next(_next_id)}"
                earlier = _memory.get(request.get("previous_response_id") or "")
                _memory[rid] = text
            if earlier is not None:
                text = f"{text} | earlier: {earlier}"
            if not request.get("stream"):
                return self._send(200, json.dumps(responses_json(request, text, tool, rid=rid)).encode())
            if request.get("stream"):
                return self._stream(responses_stream(request, text, tool, rnd), "text/event-stream; charset=utf-8", rnd)
            return self._send(200, json.dumps(responses_json(request, text, tool)).encode())
        if api == "anthropic":
            if request.get("stream"):
                return self._stream(anthropic_stream(request, text, tool, rnd), "text/event-stream; charset=utf-8", rnd)
            return self._send(200, json.dumps(anthropic_json(request, text, tool)).encode())
        # Gemini
        if path.endswith(":streamGenerateContent"):
            chunks = gemini_chunks(text, tool, rnd)
            if "alt=sse" in query:
                return self._stream(b"".join(sse(None, c) for c in chunks), "text/event-stream", rnd)
            array = b"[" + b"\n,\r\n".join(json.dumps(c, indent=2).encode() for c in chunks) + b"\n]"
            return self._stream(array, "application/json; charset=UTF-8", rnd)
        return self._send(200, json.dumps(gemini_json(text, tool)).encode())

    def _gemini_upload(self, body: bytes, query: str) -> None:
        """The resumable protocol as the Files API speaks it: `start` (metadata JSON)
        answers `x-goog-upload-url` and `x-goog-upload-status: active`; `upload,
        finalize` takes the bytes and answers the File with status `final`."""
        command = self.headers.get("x-goog-upload-command", "").replace(" ", "").split(",")
        if "start" in command:
            with _lock:
                upload_id = f"rig-upload-{next(_next_id)}"
            meta = json.loads(body or b"{}").get("file", {})
            with _lock:
                _memory[upload_id] = json.dumps(meta)
            host = self.headers.get("host", "127.0.0.1")
            self.send_response(200)
            self.send_header("x-goog-upload-url", f"http://{host}{self.path.partition('?')[0]}?upload_id={upload_id}&upload_protocol=resumable")
            self.send_header("x-goog-upload-status", "active")
            self.send_header("x-goog-upload-chunk-granularity", "8388608")
            self.send_header("content-length", "0")
            self.end_headers()
            return
        upload_id = dict(p.split("=", 1) for p in query.split("&") if "=" in p).get("upload_id", "")
        with _lock:
            meta = json.loads(_memory.get(upload_id, "{}"))
            name = f"files/rig{next(_next_id)}"
            _files[name.split("/")[1]] = body
        file = {
            "name": name,
            "displayName": meta.get("displayName", ""),
            "mimeType": meta.get("mimeType", self.headers.get("content-type", "")),
            "sizeBytes": str(len(body)),
            "createTime": "2026-12-02T00:00:00.000000Z",
            "updateTime": "2026-12-02T00:00:00.000000Z",
            "expirationTime": "2026-12-04T00:00:00.000000Z",
            "sha256Hash": base64.b64encode(hashlib.sha256(body).hexdigest().encode()).decode(),
            "uri": f"https://generativelanguage.googleapis.com/v1beta/{name}",
            "state": "ACTIVE",
            "source": "UPLOADED",
        }
        data = json.dumps({"file": file}).encode()
        self.send_response(200)
        self.send_header("x-goog-upload-status", "final")
        self.send_header("content-type", "application/json; charset=UTF-8")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _file_upload(self, body: bytes) -> None:
        """OpenAI's `POST /v1/files` and Anthropic's (with `anthropic-version`): a
        multipart/form-data upload; the `file` part is stored and its id answered."""
        message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
            b"content-type: " + self.headers.get("content-type", "").encode() + b"\r\n\r\n" + body
        )
        fields: dict[str, bytes] = {}
        filename = ""
        for part in message.iter_parts():
            name = part.get_param("name", header="content-disposition")
            fields[name] = part.get_payload(decode=True) or b""
            if name == "file":
                filename = part.get_filename() or ""
        data = fields.get("file", b"")
        with _lock:
            n = next(_next_id)
        if self.headers.get("anthropic-version"):
            fid = f"file_rig{n:020d}"
            with _lock:
                _files[fid] = data
            answer = {"type": "file", "id": fid, "filename": filename, "mime_type": "text/plain",
                      "size_bytes": len(data), "created_at": "2026-12-02T00:00:00Z", "downloadable": False}
        else:
            fid = f"file-rig{n}"
            with _lock:
                _files[fid] = data
            answer = {"id": fid, "object": "file", "bytes": len(data), "created_at": CREATED,
                      "filename": filename, "purpose": fields.get("purpose", b"").decode(), "status": "processed",
                      "expires_at": None, "status_details": None}
        self._send(200, json.dumps(answer).encode())

    def _error(self, api: str, status: int, message: str, code: str | None) -> None:
        if api == "anthropic":
            err = {"type": "error", "error": {"type": "invalid_request_error", "message": message}}
        elif api == "gemini":
            err = {"error": {"code": status, "message": message, "status": "INVALID_ARGUMENT"}}
        else:
            err = {"error": {"message": message, "type": "invalid_request_error", "param": None, "code": code}}
        self._send(status, json.dumps(err).encode())


def serve(port: int, host: str = "127.0.0.1") -> ThreadingHTTPServer:
    return serving.serve(Handler, port, host)


if __name__ == "__main__":
    serving.main(Handler, what="fake vendor", description=__doc__.splitlines()[0], default_port=18080)
