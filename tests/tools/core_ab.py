"""The core of two builds, natively and in V8, alternated (BENCHMARKS.md §2).

    python -m tests.tools.core_ab BASE_COMMIT [--rounds 2]

Checks BASE_COMMIT out into a git worktree (target/core-ab/base), copies this
checkout's examples/core_speed.rs into it so both builds time the same workloads,
builds the example natively and for wasm32-wasip1 in both, then runs base, this
checkout, base, this checkout, ... natively and under Node's WASI (V8), and prints
each row of core_speed's table with the better of the rounds for each build and the
ratio this/base (below 1: this build is faster).
"""

import argparse
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WORK = os.path.join(ROOT, "target", "core-ab")


# glibc's malloc gives the top of its heap back to the OS when a large free leaves
# more than its trim threshold there, and the next 128 KiB scan faults those pages in
# again: natively that was most of a 128 KiB redaction's time (about 240 µs with a pad,
# 550-750 µs without; BENCHMARKS.md §2 session 27), and it depends on how many large
# buffers a scan frees in which order, not on the code's work. The wasm filter's
# allocator never gives memory back, and Envoy's official builds replace malloc with
# tcmalloc (not measured here): a pad kept at the heap's top times the code.
NATIVE_ENV = dict(os.environ, MALLOC_TOP_PAD_=str(16 << 20))


def sh(*args, cwd=ROOT, env=None):
    return subprocess.run(args, cwd=cwd, env=env, check=True, capture_output=True, text=True).stdout


def build(tree, target_dir):
    env = dict(os.environ, CARGO_TARGET_DIR=target_dir)
    # The example is veil-core's since the three crates, the `veil` crate's before.
    package = "veil-core" if os.path.exists(os.path.join(tree, "veil-core")) else "veil"
    sh("cargo", "build", "--quiet", "--release", "-p", package, "--example", "core_speed", cwd=tree, env=env)
    sh("cargo", "build", "--quiet", "--release", "-p", package, "--target", "wasm32-wasip1",
       "--example", "core_speed", cwd=tree, env=env)
    return (os.path.join(target_dir, "release", "examples", "core_speed"),
            os.path.join(target_dir, "wasm32-wasip1", "release", "examples", "core_speed.wasm"))


def rows(output):
    """`| runtime | workload … | value unit |` rows: {(runtime, workload): (value, unit)}."""
    out = {}
    for line in output.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 3 or cells[0] in ("runtime", "---"):
            continue
        timed = [(i, re.match(r"([0-9.]+) (µs|ms)$", c)) for i, c in enumerate(cells)]
        timed = [(i, m) for i, m in timed if m]
        workload = " / ".join(c for c in cells[1:] if c and not re.match(r"[0-9.]+ (µs|ms)$", c))
        for n, (i, m) in enumerate(timed):
            # core_speed's columns: `redact body` then `scan text`; single-value rows scan.
            what = "scan" if n == len(timed) - 1 else "redact"
            out[(cells[0], f"{workload}, {what}")] = (float(m.group(1)), m.group(2))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("base")
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    base_tree = os.path.join(WORK, "base")
    if os.path.exists(base_tree):
        sh("git", "worktree", "remove", "--force", base_tree)
    sh("git", "worktree", "add", "--detach", base_tree, args.base)
    example = open(os.path.join(ROOT, "examples", "core_speed.rs"), encoding="utf-8").read()
    if not os.path.exists(os.path.join(base_tree, "veil-core")):
        # A base from before the three crates: everything is the `veil` crate's.
        example = example.replace("veil_detect::", "veil::detect::").replace("veil_core::", "veil::")
        policy_rs = os.path.join(base_tree, "src", "policy.rs")
    else:
        policy_rs = os.path.join(base_tree, "veil-core", "src", "policy.rs")
    with open(policy_rs, encoding="utf-8") as f:
        if "pub fn engine(" not in f.read():
            # A base from before session 13 has the engine as a field and a Redactor
            # that takes the whole policy: the same workloads, written its way.
            example = (re.sub(r"\b(\w+)\.engine\(\)", r"\1.engine", example)
                       .replace("profile: policy.profile(None),", "policy: &policy,"))
    with open(os.path.join(base_tree, "examples", "core_speed.rs"), "w", encoding="utf-8") as f:
        f.write(example)
    print(f"building {args.base} and this checkout (native and wasm32-wasip1)", file=sys.stderr)
    builds = {"base": build(base_tree, os.path.join(WORK, "target-base")),
              "this": build(ROOT, os.path.join(WORK, "target-this"))}
    best = {"base": {}, "this": {}}
    for r in range(args.rounds):
        for name in ("base", "this"):
            native, wasm = builds[name]
            print(f"round {r + 1}: {name}", file=sys.stderr)
            for out in (sh(native, env=NATIVE_ENV),
                        sh("node", "--no-warnings", os.path.join(ROOT, "tests", "rig", "wasi_run.cjs"), wasm)):
                for key, value in rows(out).items():
                    if key not in best[name] or value[0] < best[name][key][0]:
                        best[name][key] = value
    print(f"| runtime | workload | {args.base[:7]} | this | this/base |")
    print("|---|---|---:|---:|---:|")
    for key, (value, unit) in best["this"].items():
        if key in best["base"]:
            b, bunit = best["base"][key]
            ratio = value / b if unit == bunit and b else float("nan")
            print(f"| {key[0]} | {key[1]} | {b:.1f} {bunit} | {value:.1f} {unit} | {ratio:.2f} |")
    sh("git", "worktree", "remove", "--force", base_tree)


if __name__ == "__main__":
    main()
