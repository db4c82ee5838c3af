"""Latency of the gateway's detection API (`api.enabled`) for 1, 16 and 256 KiB texts:
`detect` and `detect-and-anonymize`, one connection, requests one after another, the
sizes interleaved round by round so machine noise hits them alike. Also the Envoy
process's CPU time per request (utime+stime from /proc; one worker).

The texts are chat-like prose with one synthetic value (an email, a phone number, an
SSN or a card number) per KiB, as in the A/B benchmark's bodies.

Run: .venv/bin/python -m tests.tools.bench_api [--rounds 5 --requests 20]
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import time

from tests.rig import rig
from tests.tools.bench_verify import pct

SIZES = [1024, 16 * 1024, 256 * 1024]
PROSE = (
    "We reviewed the quarterly figures with the regional leads and agreed to move the "
    "launch by two weeks while the supplier confirms the revised delivery dates. "
)
VALUES = ["jane.doe@example.com", "(415) 555-0132", "123-45-6789", "4111 1111 1111 1111"]


def text_of(size: int) -> str:
    out, i = [], 0
    while sum(len(p) for p in out) < size:
        chunk = (PROSE * 8)[: 1024 - 40]
        out.append(f"{chunk} Contact {VALUES[i % len(VALUES)]}. ")
        i += 1
    return "".join(out)[:size]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--requests", type=int, default=20, help="per size, endpoint and round")
    args = parser.parse_args()

    vendor = rig.Vendor()
    policy = {"hold_headers": True, "api": {"enabled": True}, "limits": {"max_body_bytes": 256 * 1024}}
    config = rig.render(listener_port=rig.free_port(), admin_port=rig.free_port(), vendor_port=vendor.port, plugin_config=policy)
    envoy = rig.Envoy(config, concurrency=1)
    texts = {size: text_of(size) for size in SIZES}
    endpoints = ["detect", "detect-and-anonymize"]
    latency: dict[tuple[str, int], list[float]] = {(e, s): [] for e in endpoints for s in SIZES}
    cpu: dict[tuple[str, int], float] = {(e, s): 0.0 for e in endpoints for s in SIZES}
    conn = http.client.HTTPConnection("127.0.0.1", envoy.port, timeout=60)
    try:
        for _ in range(args.rounds):
            for size in SIZES:
                for endpoint in endpoints:
                    body = json.dumps({"text": texts[size]})
                    before = envoy.cpu_seconds()
                    for _ in range(args.requests):
                        started = time.perf_counter()
                        conn.request("POST", f"/veil/v1/pii/{endpoint}", body, {"content-type": "application/json"})
                        response = conn.getresponse()
                        answer = response.read()
                        latency[(endpoint, size)].append((time.perf_counter() - started) * 1000)
                        assert response.status == 200, (response.status, answer[:200])
                    cpu[(endpoint, size)] += envoy.cpu_seconds() - before
    finally:
        conn.close()
        envoy.stop()
        vendor.stop()
    n = args.rounds * args.requests
    print(f"{args.rounds} rounds x {args.requests} requests per size and endpoint, one connection, one worker")
    print(f"{'endpoint':<22} {'text':>8} {'p50 ms':>8} {'p99 ms':>8} {'mean ms':>8} {'Envoy CPU ms/req':>17}")
    for endpoint in endpoints:
        for size in SIZES:
            values = latency[(endpoint, size)]
            print(
                f"{endpoint:<22} {size // 1024:>6} KiB {pct(values, 0.5):>8.2f} {pct(values, 0.99):>8.2f} "
                f"{statistics.mean(values):>8.2f} {cpu[(endpoint, size)] / n * 1000:>17.2f}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
