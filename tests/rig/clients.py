"""Clients pointed at a gateway (`rig.Envoy`, or anything with `base_url` and `port`):
one helper per official SDK, with the settings every test wants (the synthetic
credential, no retries, a timeout), and `post_raw` for a request written by hand.

Each SDK is imported when its helper is first called: a test file pays only for the
SDKs it uses.
"""

from __future__ import annotations

import json
import socket
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from anthropic import Anthropic
    from google.genai import Client as GeminiClient
    from openai import AzureOpenAI, OpenAI

# The credential the tests send unless they test credentials: synthetic, never a real key.
API_KEY = "test-key-alpha"
# Seconds.
TIMEOUT = 20


def openai(gateway, *, api_key: str = API_KEY, headers: dict[str, str] | None = None, path: str = "/v1",
           timeout: float = TIMEOUT, **kw) -> OpenAI:
    """The `openai` SDK's client for the gateway's `path` (`/v1`); `headers` go on
    every request; `kw` to the client (`http_client`, `base_url` …)."""
    from openai import OpenAI

    kw.setdefault("base_url", f"{gateway.base_url}{path}")
    return OpenAI(api_key=api_key, max_retries=0, timeout=timeout, default_headers=headers or None, **kw)


def azure_openai(gateway, *, api_key: str = API_KEY, headers: dict[str, str] | None = None,
                 timeout: float = TIMEOUT) -> AzureOpenAI:
    """The `openai` SDK's Azure client: deployment paths under `/openai/deployments/`."""
    from openai import AzureOpenAI

    return AzureOpenAI(azure_endpoint=gateway.base_url, api_key=api_key, api_version="2024-10-21", max_retries=0,
                       timeout=timeout, default_headers=headers or None)


def anthropic(gateway, *, api_key: str = API_KEY, headers: dict[str, str] | None = None,
              timeout: float = TIMEOUT) -> Anthropic:
    """The `anthropic` SDK's client."""
    from anthropic import Anthropic

    return Anthropic(base_url=gateway.base_url, api_key=api_key, max_retries=0, timeout=timeout,
                     default_headers=headers or None)


def gemini(gateway, *, api_key: str = API_KEY, headers: dict[str, str] | None = None,
           timeout: float = TIMEOUT) -> GeminiClient:
    """The `google-genai` SDK's client. Keep it referenced while it is used: it closes
    its connection pool when collected."""
    from google import genai
    from google.genai import types

    options = types.HttpOptions(base_url=gateway.base_url, timeout=int(timeout * 1000), headers=headers or None)
    return genai.Client(api_key=api_key, http_options=options)


class Raw(NamedTuple):
    """A whole answer to `post_raw`: header and trailer names lowercased."""

    status: int
    headers: dict[str, str]
    body: bytes
    trailers: dict[str, str]


def post_raw(gateway, path: str, body: bytes | dict, *, api_key: str | None = API_KEY,
             headers: dict[str, str] | None = None, chunked: bool = False, timeout: float = TIMEOUT) -> Raw:
    """POSTs `body` as written (a dict: as JSON) over a fresh HTTP/1.1 connection and
    reads the whole answer, its trailers included (which the SDKs do not hand out).

    It sends what `http.client` would: Host, `Accept-Encoding: identity`, and a
    Content-Length or, `chunked`, the body in 8 KiB chunks; then a JSON content type and
    the bearer credential (`api_key=None`: none). `headers` add to those or replace
    them (`host` too). The answer is parsed by h11, the SDKs' own HTTP/1.1 parser."""
    import h11

    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    fields = {"host": f"127.0.0.1:{gateway.port}", "accept-encoding": "identity", "content-type": "application/json"}
    if api_key is not None:
        fields["authorization"] = f"Bearer {api_key}"
    fields.update({k.lower(): v for k, v in (headers or {}).items()})
    if chunked:
        fields["transfer-encoding"] = "chunked"
        pieces = [data[i : i + 8192] for i in range(0, len(data), 8192)]
    else:
        fields["content-length"] = str(len(data))
        pieces = [data] if data else []
    conn = h11.Connection(h11.CLIENT)
    wire = conn.send(h11.Request(method="POST", target=path, headers=list(fields.items())))
    wire += b"".join(conn.send(h11.Data(data=p)) for p in pieces) + conn.send(h11.EndOfMessage())
    status, answer, chunks, trailers = 0, {}, [], {}
    with socket.create_connection(("127.0.0.1", gateway.port), timeout=timeout) as sock:
        try:
            sock.sendall(wire)
        except OSError:
            pass  # answered (and closed) before the whole body went: read the answer
        while True:
            event = conn.next_event()
            if event is h11.NEED_DATA:
                conn.receive_data(sock.recv(65536))
            elif isinstance(event, h11.Response):
                status = event.status_code
                answer = {k.decode(): v.decode() for k, v in event.headers}
            elif isinstance(event, h11.Data):
                chunks.append(event.data)
            elif isinstance(event, h11.EndOfMessage):
                trailers = {k.decode(): v.decode() for k, v in event.headers}
                break
    return Raw(status, answer, b"".join(chunks), trailers)
