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


def test_compose_uses_the_rig_files_with_matching_ports():
    import yaml

    compose = yaml.safe_load((rig.ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    for name, service in services.items():
        for volume in service.get("volumes", []):
            source = volume.split(":")[0]
            if source.startswith("./target/"):
                continue  # the build output; the wasm test above checks it exists
            assert (rig.ROOT / source).exists(), f"{name}: {source}"
    gateway_config = services["gateway"]["command"][services["gateway"]["command"].index("-c") + 1]
    local = rig.ROOT / gateway_config.removeprefix("/work/")
    assert local.exists()
    envoy = yaml.safe_load(local.read_text())
    vendor_cmd = services["vendor"]["command"]
    assert (rig.ROOT / vendor_cmd[1]).exists()
    vendor_port = int(vendor_cmd[vendor_cmd.index("--port") + 1])
    cluster = next(c for c in envoy["static_resources"]["clusters"] if c["name"] == "vendor")
    endpoint = cluster["load_assignment"]["endpoints"][0]["lb_endpoints"][0]["endpoint"]["address"]["socket_address"]
    assert endpoint["port_value"] == vendor_port
    wasm = envoy["static_resources"]["listeners"][0]["filter_chains"][0]["filters"][0]["typed_config"]["http_filters"][0]
    filename = wasm["typed_config"]["config"]["vm_config"]["code"]["local"]["filename"]
    mounted = [v.split(":")[1] for v in services["gateway"]["volumes"]]
    assert any(f"/work/{filename}".startswith(m) for m in mounted), filename
