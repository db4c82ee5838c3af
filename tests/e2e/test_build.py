"""The artifact and the Envoy configs shipped in envoy/."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

import rig

WASM_LIMIT = 2 * 1024 * 1024


def test_wasm_stays_under_two_mebibytes():
    size = rig.WASM.stat().st_size
    assert 0 < size < WASM_LIMIT, f"veil.wasm is {size} bytes"


@pytest.mark.parametrize("config", sorted(p.name for p in rig.ENVOY_DIR.glob("*.yaml")))
def test_envoy_validates_every_config(config):
    out = subprocess.run(
        [rig.envoy_binary(), "--mode", "validate", "-c", str(rig.ENVOY_DIR / config), "-l", "error"],
        cwd=rig.ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    assert "OK" in out.stdout
