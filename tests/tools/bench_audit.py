"""Envoy CPU per request with the audit event in Envoy's log vs in the access log.

    .venv/bin/python -m tests.tools.bench_audit --size 16384 --pii 1024 --rounds 9

One gateway per way of auditing, all in front of the same upstream as `bench.py`,
one worker each, interleaved (every round measures each gateway once, the order
reversed every other round); the figure is Envoy's utime+stime per request (`wrk`,
8 connections), the median of the rounds, and its difference to `log`:

- `envoy`: plain Envoy, no filter (gateway.yaml without veil);
- `log`: `audit.sink: log` (gateway.yaml): a line in Envoy's log, batched per worker;
- `log+access log`: the same with gateway-access-log.yaml's JSON access log, which then
  prints null for the event: what the access log itself costs;
- `access_log`: gateway-access-log.yaml as shipped (`audit.sink: access_log`): the event
  as filter state, printed by the access log, no log line;
- `both`: both sinks.

Every log and access log is a file in a temporary directory, as a gateway's would be.
"""

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

from tests.rig import rig
from tests.tools import bench

# name: (config, plugin configuration (None: the file's own), with the filter)
GATEWAYS = {
    "envoy": ("gateway.yaml", None, False),
    "log": ("gateway.yaml", None, True),
    "log+access log": ("gateway-access-log.yaml", {"audit": {"sink": "log"}}, True),
    "access_log": ("gateway-access-log.yaml", None, True),
    "both": ("gateway-access-log.yaml", {"audit": {"sink": "both"}}, True),
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=16384)
    parser.add_argument("--workload", default="turn", choices=list(bench.WORKLOADS))
    parser.add_argument("--pii", type=int, default=1024, help="one value per N bytes of text (0: none)")
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--seconds", type=int, default=2)
    args = parser.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="veil-audit-"))
    up_port = rig.free_port()
    (tmp / "up").mkdir()
    upstream = rig.Envoy(bench.upstream_config(up_port, rig.free_port()), concurrency=1, workdir=tmp / "up", log_level="error")
    body = tmp / "body.json"
    body.write_bytes(bench.chat_body(args.size, args.pii, workload=args.workload))
    script = tmp / "post.lua"
    script.write_text(bench.lua(body))
    gateways = {}
    try:
        for i, (name, (config, policy, with_filter)) in enumerate(GATEWAYS.items()):
            (tmp / str(i)).mkdir()
            cfg = rig.render(
                rig.ENVOY_DIR / config,
                listener_port=rig.free_port(),
                admin_port=rig.free_port(),
                vendor_port=up_port,
                with_filter=with_filter,
                plugin_config=policy,
                access_log_path=tmp / str(i) / "access.log",
            )
            gateways[name] = rig.Envoy(cfg, concurrency=1, workdir=tmp / str(i), log_level="info")
        cpu = {name: [] for name in gateways}
        for name, g in gateways.items():
            bench.measure(g, script, 8, 1)  # warm up
        for r in range(args.rounds):
            order = list(gateways) if r % 2 == 0 else list(reversed(gateways))
            for name in order:
                cpu[name].append(bench.measure(gateways[name], script, 8, args.seconds)["cpu_us"])
    finally:
        for g in gateways.values():
            g.stop()
        upstream.stop()
    print(f"body {body.stat().st_size} B, PII every {args.pii or 'none'}, workload {args.workload}, {args.rounds} rounds")
    base = statistics.median(cpu["log"])
    for name, values in cpu.items():
        m = statistics.median(values)
        print(f"{name:16s} {m:7.1f} µs/req  {m - base:+6.1f} vs log  rounds: {' '.join(str(round(v)) for v in values)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
