"""A/B figures for claim verification: Envoy + veil.wasm with verification off vs on,
both in front of the same fake vendor and the fake verifier (answering at once),
interleaved round by round so machine noise hits both alike.

Reports, per gateway and as ratios:
  - whole (non-streaming) chat responses: p50/p90 latency with one connection — the
    difference is what verification adds when the verifier answers instantly
    (1 extraction + 3 claim scores per answer, no cache; and with the cache warm);
  - streamed chat responses: time to first byte and to the last byte (the vendor
    sends one event every 5 ms); the first byte must not wait for the verifier;
  - Envoy CPU time per request (utime+stime from /proc; one worker per gateway).

Run: .venv/bin/python -m tests.tools.bench_verify [--rounds 6 --requests 20]
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import sys
import time

from tests.rig import rig

PROMPT = "The moon is made of green cheese. Paris is the capital of France. Water boils at 100 degrees at sea level."


def once(port: int, stream: bool, seed: int) -> tuple[float, float]:
    """(time to first body byte, total) in ms for one request on a fresh connection."""
    body = json.dumps({"model": "m", "stream": stream, "messages": [{"role": "user", "content": f"{PROMPT} Run {seed}."}]})
    headers = {"content-type": "application/json", "authorization": "Bearer bench", "x-rig-event-interval-ms": "5"}
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    started = time.perf_counter()
    conn.request("POST", "/v1/chat/completions", body, headers)
    response = conn.getresponse()
    first = response.read1(1)
    first_at = time.perf_counter() - started
    rest = response.read()
    total = time.perf_counter() - started
    conn.close()
    assert response.status == 200 and (first + rest), response.status
    return first_at * 1000, total * 1000


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(p * len(values)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--requests", type=int, default=20, help="per gateway, case and round")
    args = parser.parse_args()

    vendor, verifier = rig.Vendor(), rig.Verifier()
    policies = {
        "off": {},
        "on": {"verification": {"enabled": True, "cache_entries": 0}},
        "on+cache": {"verification": {"enabled": True}},
    }
    gateways = {}
    try:
        for name, policy in policies.items():
            config = rig.render(
                listener_port=rig.free_port(), admin_port=rig.free_port(), vendor_port=vendor.port,
                verifier_port=verifier.port, plugin_config=policy,
            )
            gateways[name] = rig.Envoy(config, concurrency=1)
        results = {(name, stream): ([], []) for name in gateways for stream in (False, True)}
        cpu = {key: 0.0 for key in results}
        seed = 0
        for r in range(args.rounds):
            order = list(gateways) if r % 2 == 0 else list(reversed(gateways))
            for stream in (False, True):
                for name in order:
                    cpu_before = gateways[name].cpu_seconds()
                    for i in range(args.requests):
                        # The cached gateway repeats one text (warm cache); the others never repeat.
                        seed += 1
                        first, total = once(gateways[name].port, stream, 0 if name == "on+cache" else seed)
                        results[(name, stream)][0].append(first)
                        results[(name, stream)][1].append(total)
                    cpu[(name, stream)] += gateways[name].cpu_seconds() - cpu_before
            verifier.reset()
        print(f"{args.rounds} rounds x {args.requests} requests per gateway and case, interleaved; ms\n")
        print("| case | gateway | first byte p50 | p90 | total p50 | p90 | total p50 vs off | Envoy CPU/req | CPU vs off |")
        print("|---|---|---|---|---|---|---|---|---|")
        for stream in (False, True):
            base = statistics.median(results[("off", stream)][1])
            n = args.rounds * args.requests
            base_cpu = cpu[("off", stream)] / n
            for name in gateways:
                first, total = results[(name, stream)]
                per_req = cpu[(name, stream)] / n
                print(
                    f"| {'stream' if stream else 'whole'} | {name} | {statistics.median(first):.1f} | {pct(first, 0.9):.1f} "
                    f"| {statistics.median(total):.1f} | {pct(total, 0.9):.1f} | {statistics.median(total) / base:.2f}x "
                    f"| {per_req * 1e6:.0f} µs | {per_req / base_cpu if base_cpu else 0:.2f}x |"
                )
        stats = gateways["on"].stats()
        calls = stats.get("wasmcustom.veil.verify.calls_total", 0)
        latency = stats.get("wasmcustom.veil.verify.latency_milliseconds_total", 0)
        print(f"\nverifier calls (gateway 'on'): {calls}, mean call latency {latency / max(calls, 1):.2f} ms")
        return 0
    finally:
        for envoy in gateways.values():
            envoy.stop()
        vendor.stop()
        verifier.stop()


if __name__ == "__main__":
    sys.exit(main())
