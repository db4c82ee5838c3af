"""What the model stage (`detectors.model`) adds to a request's latency: Envoy +
veil.wasm with the stage off vs on, both in front of the same fake vendor and the fake
detector model (answering at once with one span), interleaved round by round so
machine noise hits both alike.

Gateways:
  - off: the rules alone;
  - on: every request has a new text, so every request waits for one model call;
  - on+cache: every request repeats one text, answered from the memory of answers.

Reports p50/p99 of a whole chat request's latency (one connection per request, one
worker per gateway), the difference to `off`, and Envoy CPU time per request
(utime+stime from /proc). With a real model the call's own time adds to `on`.

Run: .venv/bin/python -m tests.tools.bench_model [--rounds 6 --requests 50]
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import sys
import time

from tests.rig import rig
from tests.tools.bench_verify import pct

PROMPT = "Please ask zorvath quillane at Velmora Tidewater Holdings about the order, cc jane.doe@example.com."


def once(port: int, seed: int) -> float:
    """Total ms for one request on a fresh connection."""
    body = json.dumps({"model": "m", "messages": [{"role": "user", "content": f"{PROMPT} Run {seed}."}]})
    headers = {"content-type": "application/json", "authorization": "Bearer bench"}
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    started = time.perf_counter()
    conn.request("POST", "/v1/chat/completions", body, headers)
    response = conn.getresponse()
    data = response.read()
    total = time.perf_counter() - started
    conn.close()
    assert response.status == 200 and b"zorvath" in data, response.status
    return total * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--requests", type=int, default=50, help="per gateway and round")
    args = parser.parse_args()

    vendor, detector = rig.Vendor(), rig.Detector()
    detector.script(spans=[{"text": "zorvath quillane", "category": "PERSON"}])
    model = {"enabled": True, "cluster": "verifier", "budget_ms": 2000}
    policies = {"off": {}, "on": {"detectors": {"model": model}}, "on+cache": {"detectors": {"model": model}}}
    gateways = {}
    try:
        for name, policy in policies.items():
            config = rig.render(
                listener_port=rig.free_port(), admin_port=rig.free_port(), vendor_port=vendor.port,
                verifier_port=detector.port, plugin_config=policy,
            )
            gateways[name] = rig.Envoy(config, concurrency=1)
        results: dict[str, list[float]] = {name: [] for name in gateways}
        cpu = {name: 0.0 for name in gateways}
        seed = 0
        for r in range(args.rounds):
            order = list(gateways) if r % 2 == 0 else list(reversed(gateways))
            for name in order:
                cpu_before = gateways[name].cpu_seconds()
                for _ in range(args.requests):
                    seed += 1
                    results[name].append(once(gateways[name].port, 0 if name == "on+cache" else seed))
                cpu[name] += gateways[name].cpu_seconds() - cpu_before
        n = args.rounds * args.requests
        base50, base99 = statistics.median(results["off"]), pct(results["off"], 0.99)
        print(f"{args.rounds} rounds x {args.requests} requests per gateway, interleaved; ms\n")
        print("| gateway | p50 | p99 | p50 added | p99 added | Envoy CPU/req |")
        print("|---|---|---|---|---|---|")
        for name, values in results.items():
            p50, p99 = statistics.median(values), pct(values, 0.99)
            print(f"| {name} | {p50:.2f} | {p99:.2f} | {p50 - base50:+.2f} | {p99 - base99:+.2f} "
                  f"| {cpu[name] / n * 1e6:.0f} µs |")
        stats = {name: g.stats() for name, g in gateways.items()}
        answered = stats["on"].get("wasmcustom.veil.outcome=.=answered;.;model.requests_total", 0)
        cached = stats["on+cache"].get("wasmcustom.veil.outcome=.=cached;.;model.requests_total", 0)
        print(f"\nmodel calls answered ('on'): {answered}; answered from memory ('on+cache'): {cached}; "
              f"detector calls: {len(detector.calls())}")
        return 0
    finally:
        for envoy in gateways.values():
            envoy.stop()
        vendor.stop()
        detector.stop()


if __name__ == "__main__":
    sys.exit(main())
