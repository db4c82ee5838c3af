"""Envoy CPU per request with different builds of the filter, interleaved in one run.

    .venv/bin/python -m tests.tools.bench_builds --size 16384 --pii 1024 old.wasm new.wasm
    .venv/bin/python -m tests.tools.bench_builds --sizes 1024,16384,131072 --pii 1024 \
        target/wasm32-wasip1/release/veil.wasm target/native/libveil.so
    .venv/bin/python -m tests.tools.bench_builds new.wasm new.wasm@policies/hold.yaml
    .venv/bin/python -m tests.tools.bench_builds --workload repeat new.wasm new.wasm+gzip

For comparing two builds of the filter (say, main before and after a change) on this
shared machine: one gateway per build plus plain Envoy, all in front of the same
upstream as `bench.py`, one worker each; every round measures each gateway once, the
order reversed every other round; the figure is Envoy's utime+stime per request
(`wrk`, 8 connections), median of the rounds, and its ratio to plain Envoy. A build
ending in `.so` is the native module (Envoy's dynamic modules) rather than a Wasm
filter. A build named `WASM@POLICY` runs with that policy file (YAML or JSON) as its plugin
configuration instead of the embedded default. A build named `WASM+gzip` (or `+br`,
`+zstd`, after any `@POLICY`) is sent the same body compressed that way, with its
`content-encoding` (only with `--workload repeat`: a compressed body cannot take a new
last message per request).
"""

import argparse
import gzip
import statistics
import sys
import tempfile
from pathlib import Path

import yaml

from tests.rig import rig
from tests.tools import bench


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("wasm", nargs="+", help="builds to compare (veil.wasm or libveil.so, each optionally @POLICY)")
    parser.add_argument("--size", type=int, default=16384)
    parser.add_argument("--sizes", help="several body sizes, comma-separated (overrides --size), each its own interleaved run")
    parser.add_argument("--workload", default="turn", choices=list(bench.WORKLOADS), help="which body each request sends")
    parser.add_argument("--pii", type=int, default=0, help="one value per N bytes of text (0: none)")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seconds", type=int, default=2)
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")] if args.sizes else [args.size]
    for size in sizes:
        run(parser, args, size)
    return 0


def run(parser, args, size: int) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="veil-builds-"))
    up_port = rig.free_port()
    (tmp / "up").mkdir()
    upstream = rig.Envoy(bench.upstream_config(up_port, rig.free_port()), concurrency=1, workdir=tmp / "up", log_level="error")
    gateways = {}
    plain = bench.chat_body(size, args.pii, workload=args.workload)
    scripts = {}
    for i, build in enumerate([None, *args.wasm]):
        name = "envoy" if build is None else f"{i}: {build}"
        (tmp / str(i)).mkdir()
        build_only, _, coding = (build or "").partition("+")
        wasm, _, policy = build_only.partition("@")
        if coding and args.workload != "repeat":
            parser.error("a compressed body needs --workload repeat")
        body = tmp / f"body{i}"
        body.write_bytes(compress(plain, coding))
        script = tmp / f"post{i}.lua"
        text = bench.lua(body)
        if coding:
            text = text.replace('wrk.method = "POST"', f'wrk.method = "POST"\nwrk.headers["content-encoding"] = "{coding}"')
        script.write_text(text)
        scripts[name] = script
        cfg = rig.render(
            listener_port=rig.free_port(),
            admin_port=rig.free_port(),
            vendor_port=up_port,
            with_filter=build is not None,
            plugin_config=yaml.safe_load(Path(policy).read_text()) if policy else None,
            **({"wasm": Path(wasm).resolve()} if build and not wasm.endswith(".so") else {}),
            **({"build": "native", "native": Path(wasm).resolve()} if wasm.endswith(".so") else {"build": "wasm"}),
        )
        gateways[name] = rig.Envoy(cfg, concurrency=1, workdir=tmp / str(i), log_level="info")
    cpu = {name: [] for name in gateways}
    try:
        for name, g in gateways.items():
            bench.measure(g, scripts[name], 8, 1)  # warm up
        for r in range(args.rounds):
            order = list(gateways) if r % 2 == 0 else list(reversed(gateways))
            for name in order:
                cpu[name].append(bench.measure(gateways[name], scripts[name], 8, args.seconds)["cpu_us"])
    finally:
        for g in gateways.values():
            g.stop()
        upstream.stop()
    base = statistics.median(cpu["envoy"])
    print(f"body {len(plain)} B, PII every {args.pii or 'none'}, workload {args.workload}, {args.rounds} rounds")
    for name, values in cpu.items():
        m = statistics.median(values)
        print(f"{name:40s} {m:7.1f} µs/req  ×{m / base:.2f}  rounds: {' '.join(str(round(v)) for v in values)}", flush=True)


def compress(body: bytes, coding: str) -> bytes:
    if not coding:
        return body
    if coding == "gzip":
        return gzip.compress(body)
    if coding == "br":
        import brotli

        return brotli.compress(body)
    if coding == "zstd":
        import zstandard

        return zstandard.ZstdCompressor().compress(body)
    raise SystemExit(f"unknown coding {coding!r}")


if __name__ == "__main__":
    sys.exit(main())
