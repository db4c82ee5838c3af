"""`cargo xtask bench`: Envoy without vs with veil.wasm, interleaved, reported as ratios.

Setup (all on loopback):

    wrk ──► gateway A: Envoy, no filter  ──┐
    wrk ──► gateway B: Envoy + veil.wasm ──┴─► upstream: Envoy direct_response
                                               (a fixed OpenAI chat completion)

Both gateways run at the same time with the same config but for the filter, and each
round measures A then B or B then A (alternating), so machine noise hits both alike.
For every body (1 KiB, 16 KiB, 128 KiB multi-turn chat requests, without PII and with
one synthetic value per KiB of text; `--pii 150` adds a dense worst case)
it reports, per gateway: p50/p99 latency with one connection (the added latency),
requests/s with several connections (throughput), and Envoy CPU time per request
(utime+stime from /proc: the most stable figure on a shared 2-core machine).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from tests.rig import rig

COMPLETION = {
    "id": "chatcmpl-bench",
    "object": "chat.completion",
    "created": 1700000000,
    "model": "gpt-4o-mini",
    "choices": [
        {
            "index": 0,
            "message": {"role": "assistant", "content": "Here is a short summary of the thread you sent. " * 8},
            "finish_reason": "stop",
        }
    ],
    "usage": {"prompt_tokens": 1000, "completion_tokens": 100, "total_tokens": 1100},
}

WORDS = (
    "the deployment pipeline failed again after the config change so we rolled back and "
    "opened an incident to track the root cause while customers reported slow checkout "
    "pages and the on call engineer paged the database team about replication lag"
).split()

PII = [
    "jane.doe@example.com",
    "(415) 555-0132",
    "123-45-6789",
    "4111 1111 1111 1111",
    "10.20.30.40",
    "http://wiki.corp/runbook",
    "AKIAIOSFODNN7EXAMPLE",
]


def chat_body(size: int, pii_every: int, seed: int = 7, workload: str = "repeat") -> bytes:
    """A multi-turn chat request of about `size` bytes. With `pii_every` > 0, one
    synthetic sensitive value per `pii_every` bytes of text (0: none). `workload`
    (see WORKLOADS) puts MARK, which `lua()` replaces per request, at the start of
    the last message (`turn`) or of every message but the system one (`unique`)."""
    rnd = random.Random(seed)
    messages = [{"role": "system", "content": "You are a helpful assistant for the platform team."}]
    total = 200
    turn = 0
    since_pii = 0
    while total < size:
        words = []
        length = 0
        while length < min(1500, size - total):
            if pii_every and since_pii >= pii_every:
                w = rnd.choice(PII)
                since_pii = 0
            else:
                w = rnd.choice(WORDS)
            since_pii += len(w) + 1
            words.append(w)
            length += len(w) + 1
        content = " ".join(words)
        messages.append({"role": "user" if turn % 2 == 0 else "assistant", "content": content})
        total += len(content) + 40
        turn += 1
    marked = {"repeat": [], "turn": messages[-1:], "unique": messages[1:]}[workload]
    for message in marked:
        message["content"] = f"{MARK} {message['content']}"
    return json.dumps({"model": "gpt-4o-mini", "messages": messages, "temperature": 0.2}).encode()


def upstream_config(port: int, admin: int) -> dict:
    return {
        "admin": {"address": {"socket_address": {"address": "127.0.0.1", "port_value": admin}}},
        "static_resources": {
            "listeners": [
                {
                    "name": "upstream",
                    "address": {"socket_address": {"address": "127.0.0.1", "port_value": port}},
                    "filter_chains": [
                        {
                            "filters": [
                                {
                                    "name": "envoy.filters.network.http_connection_manager",
                                    "typed_config": {
                                        "@type": "type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager",
                                        "stat_prefix": "upstream",
                                        "route_config": {
                                            "virtual_hosts": [
                                                {
                                                    "name": "all",
                                                    "domains": ["*"],
                                                    "routes": [
                                                        {
                                                            "match": {"prefix": "/"},
                                                            "direct_response": {
                                                                "status": 200,
                                                                "body": {"inline_string": json.dumps(COMPLETION)},
                                                            },
                                                            "response_headers_to_add": [
                                                                {"header": {"key": "content-type", "value": "application/json"}}
                                                            ],
                                                        }
                                                    ],
                                                }
                                            ]
                                        },
                                        "http_filters": [
                                            # A vendor reads the whole request before it
                                            # answers. A bare direct_response answers on the
                                            # headers and resets the rest: a new connection
                                            # per request, for plain Envoy and Veil alike.
                                            {
                                                "name": "envoy.filters.http.buffer",
                                                "typed_config": {
                                                    "@type": "type.googleapis.com/envoy.extensions.filters.http.buffer.v3.Buffer",
                                                    "max_request_bytes": 1 << 20,
                                                },
                                            },
                                            {
                                                "name": "envoy.filters.http.router",
                                                "typed_config": {
                                                    "@type": "type.googleapis.com/envoy.extensions.filters.http.router.v3.Router"
                                                },
                                            }
                                        ],
                                    },
                                }
                            ]
                        }
                    ],
                }
            ]
        },
    }


# Each request's body: the file's bytes, with every MARK replaced by a word new to
# this request (letters only, so no detector cares about it).
LUA = """
local f = io.open("{path}", "rb")
local body = f:read("*a")
f:close()
local pieces = {{}}
for piece in (body .. "{mark}"):gmatch("(.-){mark}") do table.insert(pieces, piece) end
wrk.method = "POST"
wrk.headers["content-type"] = "application/json"
wrk.headers["authorization"] = "Bearer bench-key"
local n = 0
local function word(k)
  local s = ""
  repeat s = s .. string.char(97 + k % 26); k = math.floor(k / 26) until k == 0
  return s
end
request = function()
  if #pieces == 1 then return wrk.format(nil, nil, nil, body) end
  n = n + 1
  return wrk.format(nil, nil, nil, table.concat(pieces, "turn" .. word(n)))
end
"""

MARK = "TURNMARK"

WORKLOADS = {
    "repeat": "the same body every time",
    "turn": "the history repeated, a new last message per request",
    "unique": "every message new per request",
}


def lua(path: Path) -> str:
    return LUA.format(path=path, mark=MARK)  # MARK has no Lua pattern characters


def to_ms(value: str, unit: str) -> float:
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}[unit]


def wrk(url: str, script: Path, connections: int, seconds: int) -> dict:
    out = subprocess.run(
        ["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--latency", "-s", str(script), url],
        capture_output=True,
        text=True,
        timeout=seconds + 60,
    ).stdout
    lat = {m.group(1): to_ms(m.group(2), m.group(3)) for m in re.finditer(r"^\s+(50|99)%\s+([\d.]+)(us|ms|s|m)\s*$", out, re.M)}
    rps = re.search(r"Requests/sec:\s+([\d.]+)", out)
    reqs = re.search(r"(\d+) requests in", out)
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if not rps or not reqs or "50" not in lat:
        raise RuntimeError(f"could not parse wrk output:\n{out}")
    if non2xx:
        raise RuntimeError(f"{non2xx.group(1)} non-2xx responses from {url}")
    return {"p50": lat["50"], "p99": lat.get("99", float("nan")), "rps": float(rps.group(1)), "requests": int(reqs.group(1))}


def measure(envoy: rig.Envoy, script: Path, connections: int, seconds: int) -> dict:
    url = f"{envoy.base_url}/v1/chat/completions"
    cpu0 = envoy.cpu_seconds()
    result = wrk(url, script, connections, seconds)
    result["cpu_us"] = (envoy.cpu_seconds() - cpu0) / max(result["requests"], 1) * 1e6
    return result


STREAM_BODY = json.dumps(
    {
        "model": "gpt-4o-mini",
        "stream": True,
        "messages": [{"role": "user", "content": "Summarise: " + " ".join(WORDS[:40]) + " mail jane.doe@example.com or call (415) 555-0132."}],
    }
).encode()


def stream_once(port: int, seed: int) -> tuple[float, float, int]:
    """One streamed chat completion over a fresh connection, the vendor sending one SSE
    event per millisecond: (seconds until the first complete event has arrived,
    seconds to the end, reads by the client)."""
    import socket
    import time as _t

    request = (
        f"POST /v1/chat/completions HTTP/1.1\r\nhost: bench\r\ncontent-type: application/json\r\n"
        f"authorization: Bearer bench-key\r\nx-rig-seed: {seed}\r\nx-rig-event-interval-ms: 1\r\ncontent-length: {len(STREAM_BODY)}\r\n\r\n"
    ).encode() + STREAM_BODY
    start = _t.perf_counter()
    first = None
    chunks = 0
    seen = b""
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(request)
        while True:
            data = sock.recv(65536)
            if not data:
                break
            chunks += 1
            seen += data
            if first is None and (b"\n\n" in seen.split(b"data:", 1)[-1] if b"data:" in seen else False):
                first = _t.perf_counter() - start
            if seen.endswith(b"0\r\n\r\n"):
                break
    return first or float("nan"), _t.perf_counter() - start, chunks


def stream_phase(gateways: dict, requests: int) -> dict:
    results = {name: {"first": [], "total": [], "chunks": [], "cpu": 0.0} for name in gateways}
    for i in range(requests):
        order = list(gateways) if i % 2 == 0 else list(reversed(gateways))
        for name in order:
            cpu0 = gateways[name].cpu_seconds()
            first, total, chunks = stream_once(gateways[name].port, seed=i)
            results[name]["cpu"] += gateways[name].cpu_seconds() - cpu0
            results[name]["first"].append(first * 1000)
            results[name]["total"].append(total * 1000)
            results[name]["chunks"].append(chunks)
    return {
        name: {
            "first_event_p50_ms": statistics.median(r["first"]),
            "first_event_p99_ms": sorted(r["first"])[int(len(r["first"]) * 0.99) - 1],
            "total_p50_ms": statistics.median(r["total"]),
            "chunks_p50": statistics.median(r["chunks"]),
            "cpu_us_per_stream": r["cpu"] / requests * 1e6,
        }
        for name, r in results.items()
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--seconds", type=int, default=2, help="per wrk run")
    parser.add_argument("--connections", type=int, default=8, help="for the throughput runs")
    parser.add_argument("--sizes", default="1024,16384,131072")
    parser.add_argument(
        "--pii",
        default="0,1024",
        help="PII densities to run: one value per N bytes of text (0 = none); e.g. 0,1024,150",
    )
    parser.add_argument(
        "--workloads",
        default="turn,unique",
        help="which bodies each request sends: " + "; ".join(f"{k}: {v}" for k, v in WORKLOADS.items()),
    )
    parser.add_argument("--streams", type=int, default=200, help="streamed requests per gateway (0: skip)")
    parser.add_argument("--json", type=Path, help="also write raw results here")
    args = parser.parse_args()
    unknown = set(args.workloads.split(",")) - set(WORKLOADS)
    if unknown:
        parser.error(f"unknown workloads {sorted(unknown)}; expected some of {', '.join(WORKLOADS)}")

    tmp = Path(tempfile.mkdtemp(prefix="veil-bench-"))
    up_port = rig.free_port()
    (tmp / "up").mkdir()
    upstream = rig.Envoy(upstream_config(up_port, rig.free_port()), concurrency=1, workdir=tmp / "up", log_level="error")
    gateways = {}
    for name, with_filter in (("envoy", False), ("envoy+veil", True)):
        (tmp / name).mkdir()
        cfg = rig.render(listener_port=rig.free_port(), admin_port=rig.free_port(), vendor_port=up_port, with_filter=with_filter)
        # The audit line is one log write per request; keep it, it is part of the cost.
        gateways[name] = rig.Envoy(cfg, concurrency=1, workdir=tmp / name, log_level="info")
    cases = []
    stream_results = None
    try:
        if args.streams:
            vendor_port = rig.free_port()
            vendor = subprocess.Popen(
                [sys.executable, "-m", "tests.rig.fake_vendor", "--port", str(vendor_port)],
                stdout=subprocess.DEVNULL,
                cwd=rig.ROOT,
            )
            stream_gws = {}
            try:
                for name, with_filter in (("envoy", False), ("envoy+veil", True)):
                    (tmp / f"s-{name}").mkdir()
                    cfg = rig.render(listener_port=rig.free_port(), admin_port=rig.free_port(), vendor_port=vendor_port, with_filter=with_filter)
                    stream_gws[name] = rig.Envoy(cfg, concurrency=1, workdir=tmp / f"s-{name}")
                stream_once(stream_gws["envoy"].port, 0)  # warm up
                stream_once(stream_gws["envoy+veil"].port, 0)
                stream_results = stream_phase(stream_gws, args.streams)
                print(stream_table(stream_results, args.streams), file=sys.stderr, flush=True)
            finally:
                for g in stream_gws.values():
                    g.stop()
                vendor.terminate()
        for size in [int(s) for s in args.sizes.split(",")]:
            for pii, workload in [(int(p), w) for p in args.pii.split(",") for w in args.workloads.split(",")]:
                body = chat_body(size, pii, workload=workload)
                body_path = tmp / f"body-{size}-{pii}-{workload}.json"
                body_path.write_bytes(body)
                script = tmp / f"post-{size}-{pii}-{workload}.lua"
                script.write_text(lua(body_path))
                runs = {name: {"lat": [], "tput": []} for name in gateways}
                for rnd in range(args.rounds):
                    order = list(gateways) if rnd % 2 == 0 else list(reversed(gateways))
                    for name in order:
                        runs[name]["lat"].append(measure(gateways[name], script, 1, args.seconds))
                    for name in reversed(order):
                        runs[name]["tput"].append(measure(gateways[name], script, args.connections, args.seconds))
                summary = {}
                for name, r in runs.items():
                    summary[name] = {
                        "p50_ms": statistics.median(x["p50"] for x in r["lat"]),
                        "p99_ms": statistics.median(x["p99"] for x in r["lat"]),
                        "rps": statistics.median(x["rps"] for x in r["tput"]),
                        "cpu_us_per_req": statistics.median(x["cpu_us"] for x in r["tput"]),
                    }
                case = {"size": size, "body_bytes": len(body), "pii": pii, "workload": workload, **summary}
                cases.append(case)
                print_case(case, flush=True)
    finally:
        for g in gateways.values():
            g.stop()
        upstream.stop()
    print()
    print(table(cases))
    streams = stream_results if args.streams else None
    if streams:
        print()
        print(stream_table(streams, args.streams))
    if args.json:
        args.json.write_text(json.dumps({"bodies": cases, "streams": streams}, indent=2))
    return 0


def stream_table(s: dict, n: int) -> str:
    a, b = s["envoy"], s["envoy+veil"]
    return "\n".join(
        [
            f"Streamed chat completion through the fake vendor (one SSE event per ms, tokens to restore in the text), {n} requests per gateway, interleaved:",
            "",
            "| | envoy | envoy+veil | added |",
            "|---|---:|---:|---:|",
            f"| first complete SSE event, p50 | {a['first_event_p50_ms']:.2f} ms | {b['first_event_p50_ms']:.2f} ms | {b['first_event_p50_ms'] - a['first_event_p50_ms']:+.2f} ms |",
            f"| first complete SSE event, p99 | {a['first_event_p99_ms']:.2f} ms | {b['first_event_p99_ms']:.2f} ms | {b['first_event_p99_ms'] - a['first_event_p99_ms']:+.2f} ms |",
            f"| whole stream, p50 | {a['total_p50_ms']:.2f} ms | {b['total_p50_ms']:.2f} ms | {b['total_p50_ms'] - a['total_p50_ms']:+.2f} ms |",
            f"| Envoy CPU per stream | {a['cpu_us_per_stream']:.0f} µs | {b['cpu_us_per_stream']:.0f} µs | {b['cpu_us_per_stream'] - a['cpu_us_per_stream']:+.0f} µs |",
        ]
    )


def print_case(case: dict, flush: bool = False) -> None:
    a, b = case["envoy"], case["envoy+veil"]
    print(
        f"{case['body_bytes']:>7} B pii/{case['pii']:<5} {case['workload']:<6}  p50 {a['p50_ms']:.3f} -> {b['p50_ms']:.3f} ms"
        f"  rps {a['rps']:.0f} -> {b['rps']:.0f}  cpu/req {a['cpu_us_per_req']:.0f} -> {b['cpu_us_per_req']:.0f} us",
        file=sys.stderr,
        flush=flush,
    )


def table(cases: list[dict]) -> str:
    lines = [
        "| body | PII every | bodies | p50 envoy | p50 +veil | added p50 | p99 envoy | p99 +veil | rps envoy | rps +veil | throughput ratio | CPU/req envoy | CPU/req +veil | CPU ratio |",
        "|---:|:---:|:---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for c in cases:
        a, b = c["envoy"], c["envoy+veil"]
        density = f"{c['pii']} B" if c["pii"] else "none"
        lines.append(
            f"| {c['body_bytes'] / 1024:.0f} KiB | {density} | {c['workload']} "
            f"| {a['p50_ms']:.3f} ms | {b['p50_ms']:.3f} ms | {b['p50_ms'] - a['p50_ms']:+.3f} ms "
            f"| {a['p99_ms']:.3f} ms | {b['p99_ms']:.3f} ms "
            f"| {a['rps']:.0f} | {b['rps']:.0f} | {b['rps'] / a['rps']:.2f} "
            f"| {a['cpu_us_per_req']:.0f} µs | {b['cpu_us_per_req']:.0f} µs | {b['cpu_us_per_req'] / a['cpu_us_per_req']:.2f} |"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
