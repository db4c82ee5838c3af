"""Where a request's time goes inside the filter: a `timing` build in one Envoy.

    cargo build --release --target wasm32-wasip1 -p veil --features timing
    .venv/bin/python -m tests.tools.timing target/wasm32-wasip1/release/veil.wasm --size 16384 --pii 1024

(`cargo xtask build` afterwards puts the normal build back.) Starts `bench.py`'s
upstream and one gateway with the given build, sends the benchmark's chat body with
one connection (so wall time is CPU time: nothing waits), and prints the filter's
`veil timing` lines: average wall time per request inside each callback, inside the
redaction, and inside the audit log call. These are the costs as a real request pays
them, cold caches included, which a loop in V8 (`cargo xtask bench-v8`) does not show.
"""

import argparse
import sys
import tempfile
from pathlib import Path

from tests.rig import rig
from tests.tools import bench


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("wasm", type=Path, help="a veil.wasm built with --features timing")
    parser.add_argument("--size", type=int, default=16384)
    parser.add_argument("--workload", default="turn", choices=list(bench.WORKLOADS), help="which body each request sends")
    parser.add_argument("--pii", type=int, default=1024, help="one value per N bytes of text (0: none)")
    parser.add_argument("--seconds", type=int, default=8)
    args = parser.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="veil-timing-"))
    (tmp / "up").mkdir()
    (tmp / "gw").mkdir()
    up_port = rig.free_port()
    upstream = rig.Envoy(bench.upstream_config(up_port, rig.free_port()), concurrency=1, workdir=tmp / "up", log_level="error")
    cfg = rig.render(
        listener_port=rig.free_port(), admin_port=rig.free_port(), vendor_port=up_port, with_filter=True, wasm=args.wasm.resolve()
    )
    gateway = rig.Envoy(cfg, concurrency=1, workdir=tmp / "gw", log_level="info")
    body = tmp / "body.json"
    body.write_bytes(bench.chat_body(args.size, args.pii, workload=args.workload))
    script = tmp / "post.lua"
    script.write_text(bench.lua(body))
    try:
        bench.measure(gateway, script, 1, 2)  # warm up (V8 compiles on first use)
        result = bench.measure(gateway, script, 1, args.seconds)
    finally:
        gateway.stop()
        upstream.stop()
    lines = [line[line.index("veil timing"):] for line in gateway.log().splitlines() if "veil timing" in line]
    if not lines:
        print("no `veil timing` lines: was the build made with --features timing?", file=sys.stderr)
        return 1
    print(f"body {len(body.read_bytes())} B, PII every {args.pii or 'none'}; {result['requests']} requests, "
          f"Envoy CPU {result['cpu_us']:.0f} us per request")
    # The first lines include the warm-up (first use compiles).
    for line in lines[1:] or lines:
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
