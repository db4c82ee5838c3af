"""Veil's Python tests and tools, one package rooted at the repository: run everything
from the repository root (`python -m pytest tests/e2e`, `python -m tests.tools.demo`).

  tests.rig    the harness: Envoy, the fake vendor and verifier, the control plane, SDK clients
  tests.e2e    pytest against the real Envoy + veil.wasm
  tests.tools  the demo and the benchmarks (scripts run with `python -m`)
"""
