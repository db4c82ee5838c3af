"""Helpers for the hostile-input suite (test_hostile.py).

Two halves:

* A client that sends exactly the bytes a sloppy or hostile client would, over
  HTTP/1.1 (a raw socket: chunked bodies with trailers, odd paths, any header) or
  HTTP/2 (h2c with prior knowledge, the `h2` package: DATA frames, trailers,
  CONNECT), and returns one `Response` shape for both.
* A *lenient reader* of what the vendor received: it decompresses, decodes JSON
  escapes (also nested ones) and percent-escapes, folds Unicode the way a tolerant
  parser or a model would (NFKC, invisible format characters removed, dashes and
  spaces folded), and then looks for any seeded value, also written without its
  separators (`123456789` for `123-45-6789`). A value the vendor can read back in
  any of these ways counts as leaked.
"""

from __future__ import annotations

import gzip
import http.client
import json
import re
import socket
import time
import unicodedata
import urllib.parse
import uuid
import zlib
from dataclasses import dataclass, field

from tests.e2e.seeds import ALL, SEEDS

H1, H2 = "h1", "h2"
VERSIONS = [H1, H2]


# --- requests ----------------------------------------------------------------------


@dataclass
class Response:
    status: int
    headers: dict[str, str]
    body: bytes
    trailers: dict[str, str] = field(default_factory=dict)
    # HTTP/2: the stream (or connection) was reset instead of answered.
    reset: bool = False

    def json(self):
        return json.loads(self.body)

    def text(self) -> str:
        return self.body.decode("utf-8", "replace")


def new_id() -> str:
    """A canonical UUID for x-request-id: the audit line carries it verbatim, and
    Envoy passes it to the vendor, so both can be matched to one request."""
    return str(uuid.uuid4())


def send(
    port: int,
    method: str,
    path: str,
    *,
    version: str = H1,
    headers: dict[str, str] | list[tuple[str, str]] | None = None,
    body: bytes | list[bytes] = b"",
    trailers: dict[str, str] | None = None,
    chunked: bool | None = None,
    timeout: float = 20,
) -> Response:
    """Sends one request and reads the whole answer.

    `body` may be a list of pieces: HTTP/1.1 sends them as chunks of a chunked body,
    HTTP/2 as separate DATA frames. `trailers` makes an HTTP/1.1 body chunked (with a
    `Trailer` header and a trailer section) and sends an HTTP/2 trailing HEADERS frame."""
    pieces = body if isinstance(body, list) else ([body] if body else [])
    hdrs = list(headers.items()) if isinstance(headers, dict) else list(headers or [])
    if version == H1:
        return _send_h1(port, method, path, hdrs, pieces, trailers, chunked, timeout)
    if version == H2:
        return _send_h2(port, method, path, hdrs, pieces, trailers, timeout)
    raise ValueError(version)


def _send_h1(port, method, path, hdrs, pieces, trailers, chunked, timeout) -> Response:
    names = {k.lower() for k, _ in hdrs}
    if chunked is None:
        chunked = trailers is not None or len(pieces) > 1
    head = [f"{method} {path} HTTP/1.1"]
    if "host" not in names:
        head.append(f"Host: 127.0.0.1:{port}")
    for k, v in hdrs:
        head.append(f"{k}: {v}")
    if chunked:
        head.append("Transfer-Encoding: chunked")
        if trailers:
            head.append("Trailer: " + ", ".join(trailers))
    elif "content-length" not in names and (pieces or method in ("POST", "PUT", "PATCH")):
        head.append(f"Content-Length: {sum(len(p) for p in pieces)}")
    if "connection" not in names:
        head.append("Connection: close")
    wire = ("\r\n".join(head) + "\r\n\r\n").encode("utf-8")
    if chunked:
        for p in pieces:
            if p:
                # A chunk extension, as some clients send: must be ignored.
                wire += b"%x;ext=1\r\n%s\r\n" % (len(p), p)
        wire += b"0\r\n"
        for k, v in (trailers or {}).items():
            wire += f"{k}: {v}\r\n".encode()
        wire += b"\r\n"
    else:
        wire += b"".join(pieces)
    sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    try:
        try:
            sock.sendall(wire)
        except OSError:
            pass  # answered (and closed) before the whole body went: read the answer
        resp = http.client.HTTPResponse(sock, method=method)
        try:
            resp.begin()
        except (http.client.RemoteDisconnected, ConnectionResetError) as e:
            return Response(0, {}, repr(e).encode(), reset=True)
        headers: dict[str, str] = {}
        for k, v in resp.getheaders():
            k = k.lower()
            headers[k] = f"{headers[k]}, {v}" if k in headers else v
        if method == "CONNECT" and 200 <= resp.status < 300:
            data = b""  # a tunnel: nothing more to read as HTTP
        else:
            try:
                data = resp.read()
            except http.client.IncompleteRead as e:
                data = e.partial
        return Response(resp.status, headers, data)
    finally:
        sock.close()


def _send_h2(port, method, path, hdrs, pieces, trailers, timeout) -> Response:
    import h2.config
    import h2.connection
    import h2.events
    import h2.exceptions

    sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    conn = h2.connection.H2Connection(
        config=h2.config.H2Configuration(client_side=True, header_encoding=None, validate_outbound_headers=False)
    )
    conn.initiate_connection()
    sock.sendall(conn.data_to_send())
    sid = conn.get_next_available_stream_id()
    if method == "CONNECT" and not path.startswith("/"):
        pseudo = [(":method", method), (":authority", path)]  # a tunnel to host:port
    else:
        pseudo = [(":method", method), (":scheme", "http"), (":authority", f"127.0.0.1:{port}"), (":path", path)]
    # HTTP/2 header names are lower case; a connection-specific header is sent only
    # when a test asks for it (validate_outbound_headers=False).
    request_headers = [(k.encode(), v.encode()) for k, v in pseudo] + [(k.lower().encode(), v.encode()) for k, v in hdrs]
    out = Response(0, {}, b"")
    done = False
    body = bytearray()

    def pump(block: bool) -> None:
        """Reads what the server sent (waiting for it if `block`) and handles it."""
        nonlocal done
        if not block:
            sock.setblocking(False)
        try:
            data = sock.recv(65536)
        except (BlockingIOError, InterruptedError):
            return
        except (ConnectionResetError, OSError):
            data = b""
        finally:
            sock.setblocking(True)
            sock.settimeout(timeout)
        if not data:
            done = True
            if not out.status:
                out.reset = True
            return
        for event in conn.receive_data(data):
            if isinstance(event, h2.events.ResponseReceived) and event.stream_id == sid:
                for k, v in event.headers:
                    k, v = k.decode(), v.decode("utf-8", "replace")
                    if k == ":status":
                        out.status = int(v)
                    else:
                        out.headers[k] = f"{out.headers[k]}, {v}" if k in out.headers else v
            elif isinstance(event, h2.events.DataReceived) and event.stream_id == sid:
                body.extend(event.data)
                conn.acknowledge_received_data(event.flow_controlled_length, sid)
            elif isinstance(event, h2.events.TrailersReceived) and event.stream_id == sid:
                out.trailers = {k.decode(): v.decode("utf-8", "replace") for k, v in event.headers}
            elif isinstance(event, h2.events.StreamEnded) and event.stream_id == sid:
                done = True
            elif isinstance(event, h2.events.StreamReset) and event.stream_id == sid:
                out.reset = True
                done = True
            elif isinstance(event, h2.events.ConnectionTerminated):
                if not out.status:
                    out.reset = True
                done = True
        pending = conn.data_to_send()
        if pending:
            try:
                sock.sendall(pending)
            except OSError:
                done = True

    try:
        end_on_headers = not pieces and not trailers
        conn.send_headers(sid, request_headers, end_stream=end_on_headers)
        sock.sendall(conn.data_to_send())
        for i, piece in enumerate(pieces):
            last = i == len(pieces) - 1
            view = memoryview(piece)
            while not done:
                room = min(conn.local_flow_control_window(sid), conn.max_outbound_frame_size, len(view))
                if room == 0 and len(view):
                    pump(block=True)  # wait for a WINDOW_UPDATE
                    continue
                rest = view[room:]
                try:
                    conn.send_data(sid, bytes(view[:room]), end_stream=last and not rest and not trailers)
                except h2.exceptions.StreamClosedError:
                    done = True
                    break
                sock.sendall(conn.data_to_send())
                view = rest
                pump(block=False)
                if not len(view):
                    break
            if done:
                break
        if trailers and not done:
            try:
                conn.send_headers(sid, [(k.lower().encode(), v.encode()) for k, v in trailers.items()], end_stream=True)
                sock.sendall(conn.data_to_send())
            except h2.exceptions.StreamClosedError:
                pass
        deadline = time.monotonic() + timeout
        while not done and time.monotonic() < deadline:
            pump(block=True)
        out.body = bytes(body)
        try:
            conn.close_connection()
            sock.sendall(conn.data_to_send())
        except Exception:  # noqa: BLE001 — the server may have gone already
            pass
        return out
    finally:
        sock.close()


def post_json(
    port: int,
    path: str,
    obj,
    *,
    version: str = H1,
    rid: str | None = None,
    auth: str | None = "Bearer test-key-alpha",
    content_type: str | None = "application/json",
    headers=None,
    **kw,
) -> Response:
    """POSTs `obj` (JSON-encoded unless it is bytes or a list of byte pieces).
    `auth=None` sends no credential; `content_type=None` no content type."""
    hdrs = {}
    if content_type:
        hdrs["content-type"] = content_type
    if auth:
        hdrs["authorization"] = auth
    if rid:
        hdrs["x-request-id"] = rid
    hdrs.update(headers or {})
    body = obj if isinstance(obj, (bytes, list)) else json.dumps(obj).encode()
    return send(port, "POST", path, version=version, headers=hdrs, body=body, **kw)


# --- content codings ---------------------------------------------------------------


def _raw_deflate(data: bytes) -> bytes:
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    return c.compress(data) + c.flush()


def _raw_inflate(data: bytes) -> bytes:
    return zlib.decompress(data, -15)


def _inflate(data: bytes) -> bytes:
    """`deflate` as servers read it: zlib-wrapped, or raw when the header is absent."""
    try:
        return zlib.decompress(data)
    except zlib.error:
        return _raw_inflate(data)


def _brotli(data: bytes) -> bytes:
    import brotli

    return brotli.compress(data)


def _unbrotli(data: bytes) -> bytes:
    import brotli

    return brotli.decompress(data)


def _zstd(data: bytes) -> bytes:
    import zstandard

    return zstandard.ZstdCompressor().compress(data)


def _unzstd(data: bytes) -> bytes:
    import zstandard

    return zstandard.ZstdDecompressor().decompressobj().decompress(data)


ENCODERS = {
    "gzip": gzip.compress,
    "x-gzip": gzip.compress,
    "deflate": zlib.compress,
    "deflate-raw": _raw_deflate,  # sent as `deflate`: raw DEFLATE without the zlib header
    "br": _brotli,
    "zstd": _zstd,
}
DECODERS = {
    "gzip": gzip.decompress,
    "x-gzip": gzip.decompress,
    "deflate": _inflate,
    "br": _unbrotli,
    "zstd": _unzstd,
    "identity": lambda d: d,
}


def encode(data: bytes, codings: list[str]) -> bytes:
    """Applies `codings` in order (as `Content-Encoding: a, b` says: a first)."""
    for c in codings:
        data = ENCODERS[c](data)
    return data


def decode(data: bytes, content_encoding: str | None) -> bytes:
    """Undoes a `Content-Encoding` list (last coding first)."""
    codings = [c.strip().lower() for c in (content_encoding or "").split(",") if c.strip()]
    for c in reversed(codings):
        data = DECODERS[c](data)
    return data


# --- the lenient reader ------------------------------------------------------------

_ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|.)", re.S)
_SIMPLE = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "/": "/", "\\": "\\", '"': '"', "'": "'"}


def unescape_json(text: str) -> str:
    """Decodes JSON string escapes wherever they are (`\\u0040` -> `@`, surrogate
    pairs joined), repeated for JSON nested in JSON strings."""
    for _ in range(4):
        decoded = _ESCAPE.sub(lambda m: chr(int(m.group(1)[1:], 16)) if m.group(1)[0] == "u" and len(m.group(1)) == 5 else _SIMPLE.get(m.group(1), m.group(1)), text)
        decoded = decoded.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
        if decoded == text:
            break
        text = decoded
    return text


# Folded by detectors that read text the way people and models do: format characters
# (zero-width space/joiners, word joiner, BOM, soft hyphen, bidi controls, tag
# characters — Unicode category Cf) vanish; NFKC turns full-width letters, digits and
# `＠` / `﹫` into ASCII; dashes and spaces of every kind become `-` and ` `.
_EXTRA_FOLDS = {"\u3002": ".", "\uff61": "."}


def fold(text: str) -> str:
    text = unicodedata.normalize("NFKC", text)
    out = []
    for ch in text:
        cat = unicodedata.category(ch)
        if 0xE0020 <= ord(ch) <= 0xE007E:
            # Tag characters spell ASCII invisibly ("ASCII smuggling"); a model reads them.
            out.append(chr(ord(ch) - 0xE0000))
            continue
        if cat == "Cf":
            continue
        if cat == "Pd" or ch in "\u2212":
            out.append("-")
        elif cat == "Zs":
            out.append(" ")
        else:
            out.append(_EXTRA_FOLDS.get(ch, ch))
    return "".join(out)


def views(body: bytes, content_encoding: str | None = None) -> list[str]:
    """Every reading of `body` a lenient parser could make."""
    try:
        body = decode(body, content_encoding)
    except Exception:  # noqa: BLE001 — an undecodable body is read as it is
        pass
    text = body.decode("utf-8", "replace")
    unescaped = unescape_json(text)
    readings = [text, unescaped, urllib.parse.unquote_plus(unescaped)]
    return [fold(r) for r in readings]


_SEPARATORS = re.compile(r"[\s\-.()/+_:]")


def _compact(value: str) -> str:
    return _SEPARATORS.sub("", fold(value))


def leaks(body: bytes | str, values=(), *, content_encoding: str | None = None) -> list[str]:
    """The seeded values (and `values`) a lenient reader finds in `body`: as written,
    folded, or without separators (`4111111111111111`, `4155550132`)."""
    data = body.encode("utf-8") if isinstance(body, str) else body
    found = []
    readings = views(data, content_encoding)
    compacts = [_SEPARATORS.sub("", r) for r in readings]
    for value in list(ALL) + list(values):
        folded = fold(value)
        compact = _compact(value)
        if any(folded in r for r in readings):
            found.append(value)
        elif len(compact) >= 9 and any(compact in c for c in compacts):
            found.append(value)
    return found


TOKEN = re.compile(r"«token:([A-Z_]+):[0-9a-f]+»")


def tokens_in(body: bytes) -> list[str]:
    """Categories of the tokens in `body` (raw or JSON-escaped)."""
    return TOKEN.findall(unescape_json(body.decode("utf-8", "replace")))


# --- what the vendor got, what the audit says --------------------------------------


def received_by(vendor, rid: str, settle: float = 0.0) -> list[dict]:
    """The requests the vendor recorded with this x-request-id."""
    if settle:
        time.sleep(settle)
    return [r for r in vendor.received() if r["headers"].get("x-request-id") == rid]


def only_request(vendor, rid: str) -> dict:
    got = received_by(vendor, rid)
    assert len(got) == 1, f"the vendor got {len(got)} requests with x-request-id {rid}"
    return got[0]


def assert_clean(record: dict, values=(), *, tokenized: bool = True) -> None:
    """What the vendor got carries no seeded value in any reading, is not compressed
    any more, and (when `tokenized`) holds tokens in their place."""
    body = record["body"]
    coding = record["headers"].get("content-encoding")
    assert coding in (None, "", "identity"), f"forwarded still encoded: content-encoding {coding!r}"
    found = leaks(body, values)
    assert found == [], f"the vendor could read {found} in {record['path']}"
    length = record["headers"].get("content-length")
    if length is not None:
        assert int(length) == len(body), f"content-length {length} for a {len(body)}-byte body"
    if tokenized:
        assert tokens_in(body), f"no token in what the vendor got at {record['path']}: {body[:300]!r}"


def assert_nothing_forwarded(vendor, rid: str, *, strict: bool = False) -> None:
    """No body byte of the request reached the vendor (with `strict`: not even the
    headers — held headers, or a refusal at the headers)."""
    got = received_by(vendor, rid, settle=0.3)
    if strict:
        assert got == [], f"the vendor got {len(got)} request(s): {[(r['method'], r['path']) for r in got]}"
    else:
        assert all(r["body"] == b"" for r in got), f"the vendor got body bytes: {[r['body'][:80] for r in got]}"


def audit_for(gateway, rid: str, timeout: float = 5.0) -> dict:
    """The audit line of the request with this x-request-id."""
    deadline = time.monotonic() + timeout
    while True:
        mine = [e for e in gateway.audit_events() if e.get("request_id") == rid]
        if mine:
            assert len(mine) == 1, f"{len(mine)} audit lines for one request"
            return mine[0]
        assert time.monotonic() < deadline, f"no audit line with request_id {rid}"


def assert_audit(
    event: dict,
    *,
    outcome: str | tuple[str, ...],
    provider: str | tuple[str, ...] | None = None,
    categories=(),
    min_findings: int = 0,
    values=(),
) -> None:
    """The audit line says what happened, with counts and never a value. `provider`:
    a name or several, each may end with `*` (a prefix: `openai*`)."""
    outcomes = (outcome,) if isinstance(outcome, str) else outcome
    assert event["outcome"] in outcomes, event
    if provider is not None:
        names = (provider,) if isinstance(provider, str) else provider
        assert any(
            event["provider"].startswith(n[:-1]) if n.endswith("*") else event["provider"] == n for n in names
        ), event
    for category in categories:
        assert event["findings"].get(category, 0) >= 1, (category, event["findings"])
    assert sum(event["findings"].values()) >= min_findings, event["findings"]
    line = json.dumps(event, ensure_ascii=False)
    assert leaks(line, values) == [], "the audit line carries a value"
    assert "«token:" not in line


def error_code(resp: Response) -> str | None:
    """The Veil error code of a vendor-shaped error (OpenAI `error.code`, Anthropic
    `error.veil_code`, Gemini `error.details[].reason`)."""
    try:
        err = resp.json().get("error") or {}
    except ValueError:
        return None
    if isinstance(err.get("code"), str):
        return err["code"]
    if err.get("veil_code"):
        return err["veil_code"]
    for detail in err.get("details") or []:
        if detail.get("domain") == "veil":
            return detail.get("reason")
    return None


def assert_refused(resp: Response, status: int, code: str, values=()) -> None:
    assert resp.status == status, (resp.status, resp.headers, resp.body[:300])
    assert resp.headers.get("x-veil-error") == code, resp.headers
    assert error_code(resp) == code, resp.body[:300]
    assert leaks(resp.body, values) == [], "the error message carries a value"


# --- seeds -------------------------------------------------------------------------

# Values the default policy finds with no context words, one per field of a request
# that carries several (each field gets its own, so a leak names its field).
FIELD_SEEDS = [
    SEEDS["EMAIL"][0],
    SEEDS["EMAIL"][1],
    SEEDS["PHONE"][0],
    SEEDS["PHONE"][1],
    SEEDS["SSN"][0],
    SEEDS["CREDIT_CARD"][0],
    SEEDS["CREDIT_CARD"][1],
    SEEDS["AWS_ACCESS_KEY"][0],
    SEEDS["API_KEY"][0],
    SEEDS["API_KEY"][1],
    SEEDS["GITHUB_TOKEN"][0],
    SEEDS["GITLAB_TOKEN"][0],
    SEEDS["STRIPE_KEY"][0],
    SEEDS["IBAN"][0],
    SEEDS["ITIN"][0],
    SEEDS["PRIVATE_IP"][0],
    SEEDS["INTERNAL_URL"][0],
    SEEDS["SLACK_TOKEN"][0],
    SEEDS["JWT"][0],
    SEEDS["MAC_ADDRESS"][0],
]

SECRET_TEXT = (
    f"mail {SEEDS['EMAIL'][0]}, call {SEEDS['PHONE'][0]}, ssn {SEEDS['SSN'][0]}, "
    f"card {SEEDS['CREDIT_CARD'][0]}, key {SEEDS['API_KEY'][1]}"
)
SECRET_CATEGORIES = ["EMAIL", "PHONE", "SSN", "CREDIT_CARD", "API_KEY"]


def chat_body(text: str = SECRET_TEXT, **extra) -> dict:
    return {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": text}], **extra}


def at(obj, *path):
    for p in path:
        obj = obj[p]
    return obj
