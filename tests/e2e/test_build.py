"""The artifact and the Envoy configs shipped in envoy/."""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import os
import re
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest
import yaml

from tests.rig import rig

# These tests check the repository's artifacts and configs, whichever build the suite
# runs: once, with the Wasm build (`cargo xtask test` runs the suite with both).
pytestmark = pytest.mark.skipif(rig.BUILD == "native", reason="checks files, not the build under test: run with wasm")

# The size budget (README, "Size"): 3 MiB. The request decoders take ~0.4 MB of it
# (brotli ~180 KB with its dictionary, zstd ~100 KB, gzip/deflate ~50 KB), the
# detector catalog beyond the core rules ~0.35 MB. The release build strips symbol names
# (0.27 MB); a `cargo xtask build --symbols` module is for debugging, not for this check.
WASM_LIMIT = 3 * 1024 * 1024


def test_wasm_stays_within_its_budget():
    # Wasm-specific: the size budget is veil.wasm's (what Envoy's V8 compiles per worker).
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


def veilctl(*args: str) -> str:
    assert rig.VEILCTL.exists(), f"{rig.VEILCTL} is not built: cargo build -p veilctl"
    out = subprocess.run([str(rig.VEILCTL), *args], cwd=rig.ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_veilctl_exit_codes_and_help():
    """0 with the usage on stdout for --help; 2 with the usage on stderr for a wrong
    command line; 1 when the command ran and found a problem."""
    assert rig.VEILCTL.exists(), f"{rig.VEILCTL} is not built: cargo build -p veilctl"

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([str(rig.VEILCTL), *args], cwd=rig.ROOT, capture_output=True, text=True, timeout=60)

    for args in (["--help"], ["scan", "--help"], ["policy", "--help"], ["xds", "serve", "-h"], ["rules", "--help"]):
        out = run(*args)
        assert (out.returncode, out.stderr) == (0, ""), args
        assert out.stdout.startswith("usage: veilctl") or "usage: veilctl" in out.stdout, args
    assert run("--version").stdout.startswith("veilctl ")
    out = run("scan", "--bogus")
    assert (out.returncode, out.stdout) == (2, "") and "usage: veilctl scan" in out.stderr
    out = run("policy", "check", "deploy/istio/egress.yaml")
    assert out.returncode == 1 and out.stdout == "" and "deploy/istio/egress.yaml:" in out.stderr


def test_veilctl_ends_quietly_when_its_reader_stops():
    """`veilctl rules --json | head -1` under pipefail: no panic, no message, exit 0."""
    veilctl_path = str(rig.VEILCTL)
    script = f"set -o pipefail; '{veilctl_path}' rules --json | head -1; '{veilctl_path}' rules | head -1"
    out = subprocess.run(["bash", "-c", script], cwd=rig.ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stderr == ""
    assert out.stdout.splitlines() == ["[", out.stdout.splitlines()[1]] and out.stdout.splitlines()[1].startswith("RULE ID")


def first_filter(envoy: dict) -> dict:
    hcm = envoy["static_resources"]["listeners"][0]["filter_chains"][0]["filters"][0]["typed_config"]
    return hcm["http_filters"][0]


def module_file(command: list[str]) -> Path:
    """The file a `python -m package.module ...` command runs, in this checkout."""
    assert command[:2] == ["python", "-m"], command
    return (rig.ROOT / command[2].replace(".", "/")).with_suffix(".py")


def test_compose_uses_the_rig_files_with_matching_ports():
    compose = yaml.safe_load((rig.ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    for name, service in services.items():
        for volume in service.get("volumes", []):
            source = volume.split(":")[0]
            if source.startswith("./target/") or not source.startswith("."):
                continue  # the build output (checked below) and named volumes
            assert (rig.ROOT / source).exists(), f"{name}: {source}"
    gateway = services["gateway"]["command"]
    local = rig.ROOT / gateway[gateway.index("-c") + 1].removeprefix("/work/")
    assert local.exists()
    envoy = yaml.safe_load(local.read_text())
    clusters = {c["name"]: c for c in envoy["static_resources"]["clusters"]}

    def port(cluster: str) -> int:
        ep = clusters[cluster]["load_assignment"]["endpoints"][0]["lb_endpoints"][0]["endpoint"]
        return ep["address"]["socket_address"]["port_value"]

    vendor = services["vendor"]["command"]
    assert module_file(vendor).exists()
    assert port("vendor") == int(vendor[vendor.index("--port") + 1])
    # The control plane: its port is the gateway's xDS cluster; it serves the policy
    # the gateway's filter names (veil.<stem> <- policies/<stem>.yaml); its wasm path
    # is inside the gateway's mounts.
    plane = services["control-plane"]["command"]
    assert plane[plane.index("serve") - 1] == "xds"
    assert port("xds_control_plane") == int(plane[plane.index("--listen") + 1].rsplit(":", 1)[1])
    policies = rig.ROOT / plane[plane.index("--policies") + 1]
    name = first_filter(envoy)["name"]
    assert "config_discovery" in first_filter(envoy)
    assert (policies / f"{name.removeprefix('veil.')}.yaml").exists(), name
    wasm = plane[plane.index("--wasm") + 1]
    mounted = [v.split(":")[1] for v in services["gateway"]["volumes"]]
    assert any(wasm.startswith(m) for m in mounted), wasm
    verifier = services["verifier"]["command"]
    assert module_file(verifier).exists()
    assert port("verifier") == int(verifier[verifier.index("--port") + 1])


def test_the_committed_ecds_file_is_the_rendered_default_policy(tmp_path):
    fresh = tmp_path / "veil.default.yaml"
    veilctl("xds", "write", "policies/default.yaml", "--out", str(fresh))
    committed = rig.ENVOY_DIR / "ecds" / "veil.default.yaml"
    assert yaml.safe_load(committed.read_text()) == yaml.safe_load(fresh.read_text()), (
        "stale: cargo run -q --release --bin veilctl -- xds write policies/default.yaml --out envoy/ecds/veil.default.yaml"
    )
    file_xds = yaml.safe_load((rig.ENVOY_DIR / "gateway-file-xds.yaml").read_text())
    source = first_filter(file_xds)["config_discovery"]["config_source"]["path_config_source"]
    assert rig.ROOT / source["path"] == committed


def test_the_istio_wasmplugin_carries_the_policy_it_names():
    plugin = yaml.safe_load((rig.ROOT / "deploy" / "istio" / "wasmplugin.yaml").read_text())
    named = plugin["metadata"]["annotations"]["veil/policy"]
    rendered = yaml.safe_load(veilctl("policy", "render", named, "--format", "istio"))
    assert plugin["spec"]["pluginConfig"] == rendered["spec"]["pluginConfig"], (
        f"stale: re-render with `veilctl policy render {named} --format istio` and paste pluginConfig"
    )
    assert plugin["spec"]["failStrategy"] == "FAIL_CLOSE"
    assert plugin["spec"]["phase"] == "AUTHN"
    assert {"name": "VEIL_VAULT_KEY", "valueFrom": "HOST"} in plugin["spec"]["vmConfig"]["env"]


def test_the_oci_image_is_the_built_veil_wasm_in_istios_format(tmp_path):
    """`cargo xtask package`, read back with Python's own tar, gzip and JSON readers:
    index.json -> manifest -> config and the one tar+gzip layer, each blob at its
    sha256 with its size; the layer's plugin.wasm is veil.wasm byte for byte; the
    rendered WasmPlugin carries the manifest digest the command printed."""
    out = subprocess.run(
        [os.environ.get("CARGO", "cargo"), "xtask", "package", "--out", str(tmp_path)],
        cwd=rig.ROOT,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    printed = out.stdout.strip()
    tars = list(tmp_path.glob("veil-*.tar"))
    assert len(tars) == 1, tars
    with tarfile.open(tars[0]) as layout:
        files = {m.name: layout.extractfile(m).read() for m in layout.getmembers() if m.isfile()}
        assert all(m.mtime == 0 for m in layout.getmembers())

    def blob(descriptor: dict, media_type: str) -> bytes:
        assert descriptor["mediaType"] == media_type
        algorithm, hex_digest = descriptor["digest"].split(":")
        data = files[f"blobs/{algorithm}/{hex_digest}"]
        assert algorithm == "sha256" and hashlib.sha256(data).hexdigest() == hex_digest
        assert descriptor["size"] == len(data)
        return data

    assert json.loads(files["oci-layout"]) == {"imageLayoutVersion": "1.0.0"}
    (entry,) = json.loads(files["index.json"])["manifests"]
    manifest = json.loads(blob(entry, "application/vnd.oci.image.manifest.v1+json"))
    assert entry["digest"] == printed
    assert manifest["annotations"]["module.wasm.image/variant"] == "compat"
    blob(manifest["config"], "application/vnd.oci.image.config.v1+json")
    (layer,) = manifest["layers"]
    layer_tar = gzip.decompress(blob(layer, "application/vnd.oci.image.layer.v1.tar+gzip"))
    with tarfile.open(fileobj=io.BytesIO(layer_tar)) as inner:
        (member,) = inner.getmembers()
        assert member.name == "plugin.wasm"
        assert inner.extractfile(member).read() == rig.WASM.read_bytes()
    plugin = yaml.safe_load((tmp_path / "wasmplugin.yaml").read_text())
    assert "sha256:" + plugin["spec"]["sha256"] == printed
    tag = entry["annotations"]["org.opencontainers.image.ref.name"]
    assert plugin["spec"]["url"].startswith("oci://") and plugin["spec"]["url"].endswith(":" + tag)


VENDORS = ["api.openai.com", "api.anthropic.com", "generativelanguage.googleapis.com"]


def test_the_istio_egress_originates_tls_to_every_vendor():
    docs = [d for d in yaml.safe_load_all((rig.ROOT / "deploy" / "istio" / "egress.yaml").read_text()) if d]
    plugin = yaml.safe_load((rig.ROOT / "deploy" / "istio" / "wasmplugin.yaml").read_text())
    by_kind: dict[str, list[dict]] = {}
    for d in docs:
        by_kind.setdefault(d["kind"], []).append(d)
    (entry,) = by_kind["ServiceEntry"]
    assert sorted(entry["spec"]["hosts"]) == sorted(VENDORS)
    (gateway,) = by_kind["Gateway"]
    # Veil runs on exactly the proxies the egress Gateway selects.
    assert gateway["spec"]["selector"] == plugin["spec"]["selector"]["matchLabels"]
    for host in VENDORS:
        (rule,) = [d for d in by_kind["DestinationRule"] if d["spec"]["host"] == host]
        (tls,) = [p["tls"] for p in rule["spec"]["trafficPolicy"]["portLevelSettings"] if p["port"]["number"] == 443]
        assert tls["mode"] == "SIMPLE" and tls["sni"] == host and tls["subjectAltNames"] == [host]
        assert tls["caCertificates"]
        (service,) = [d for d in by_kind["VirtualService"] if d["spec"]["hosts"] == [host]]
        out = [r for r in service["spec"]["http"] if r["match"][0]["gateways"] != ["mesh"]]
        assert out[0]["route"][0]["destination"] == {"host": host, "port": {"number": 443}}


@pytest.mark.parametrize("config", ["egress-gateway.yaml", "egress-gateway-xds.yaml"])
def test_the_egress_gateway_originates_tls_with_sni_and_certificate_checks(config):
    envoy = yaml.safe_load((rig.ENVOY_DIR / config).read_text())
    clusters = {c["name"]: c for c in envoy["static_resources"]["clusters"]}
    # Besides the vendors: the control plane (xDS variant) and the company's verifier.
    assert "verifier" in clusters
    clusters = {n: c for n, c in clusters.items() if n not in ("xds_control_plane", "verifier")}
    assert len(clusters) == len(VENDORS)
    for cluster in clusters.values():
        address = cluster["load_assignment"]["endpoints"][0]["lb_endpoints"][0]["endpoint"]["address"]["socket_address"]
        host = address["address"]
        assert host in VENDORS and address["port_value"] == 443
        tls = cluster["transport_socket"]["typed_config"]
        assert tls["sni"] == host
        validation = tls["common_tls_context"]["validation_context"]
        assert validation["trusted_ca"]["filename"]
        assert validation["match_typed_subject_alt_names"] == [{"san_type": "DNS", "matcher": {"exact": host}}]


def _circles(*args: str) -> subprocess.CompletedProcess:
    tool = rig.ROOT / "tests" / "tools" / "circles.py"
    return subprocess.run([sys.executable, str(tool), *args], capture_output=True, text=True, timeout=120)


def test_no_module_of_the_filter_imports_in_a_circle():
    """ARCHITECTURE's invariant: no import circle in `src/`, submodules included (a
    parent that only declares and re-exports its children is no link). Test modules
    aside; `tests/tools/circles.py` says which modules form one."""
    result = _circles()
    assert result.returncode == 0, result.stdout
    assert re.search(r"^\d+ modules, \d+ edges, 0 circles$", result.stdout, re.M), result.stdout


def test_the_circle_check_finds_a_circle_through_a_parent_and_its_child(tmp_path):
    """The check above can fail: a parent that uses an item of its child, whose child
    uses an item the parent defines, is a circle; the same parent re-exporting that
    item from a third module is none."""
    (tmp_path / "a").mkdir()
    (tmp_path / "lib.rs").write_text("mod a;\n")
    (tmp_path / "a" / "mod.rs").write_text("mod b;\nmod c;\npub struct Own;\nfn f() -> b::Thing { b::Thing }\n")
    (tmp_path / "a" / "b.rs").write_text("use super::Own;\npub struct Thing;\n")
    (tmp_path / "a" / "c.rs").write_text("pub struct Own;\n")
    found = _circles("--src", str(tmp_path))
    assert found.returncode == 1 and "circle of 2: a, a::b" in found.stdout, found.stdout
    (tmp_path / "a" / "mod.rs").write_text("mod b;\nmod c;\npub use c::Own;\nfn f() -> b::Thing { b::Thing }\n")
    clean = _circles("--src", str(tmp_path))
    assert clean.returncode == 0 and "0 circles" in clean.stdout, clean.stdout


def test_no_file_of_the_host_is_over_600_lines():
    """The host is flows over one exchange's state, each in its own file: none (the
    native binding and hooks included) grows past 600 lines."""
    sizes = {str(p.relative_to(rig.ROOT)): len(p.read_text().splitlines()) for p in (rig.ROOT / "src" / "host").rglob("*.rs")}
    assert len(sizes) > 15, sizes
    assert {p: n for p, n in sizes.items() if n > 600} == {}


def test_no_file_of_the_detection_crate_is_over_1500_lines_but_its_data_tables():
    """The detection crate is split by role: no file past 1,500 lines but the catalog's
    data tables (rules written as data, one entry after another)."""
    src = rig.ROOT / "veil-detect" / "src"
    sizes = {str(p.relative_to(src)): len(p.read_text().splitlines()) for p in src.rglob("*.rs")}
    assert len(sizes) > 40, sizes
    tables = {"catalog/core.rs", "catalog/vendors.rs", "catalog/world/mod.rs"}
    assert {p: n for p, n in sizes.items() if n > 1500 and p not in tables} == {}


CODEMAP_CRATES = ["src", "veil-core/src", "veil-detect/src", "veilctl/src", "xtask/src"]


def codemap(root: Path = rig.ROOT) -> tuple[set[str], set[str]]:
    """The paths ARCHITECTURE.md's codemap names (each entry's path, relative to its
    heading's folder), and the crate source files it must name."""
    text = (root / "ARCHITECTURE.md").read_text()
    section = text.split("\n## Codemap\n", 1)[1].split("\n## ", 1)[0]
    named: set[str] = set()
    folder = ""
    for line in section.splitlines():
        heading = re.match(r"^### `([^`]+)/`", line)
        if heading:
            folder = heading.group(1) + "/"
        elif line.startswith("### "):
            folder = ""
        entry = re.match(r"^- (`[^—]+`) — ", line)
        if entry:
            for path in re.findall(r"`([^`]+)`", entry.group(1)):
                named.add(folder + path)
    files = {
        str(p.relative_to(root))
        for crate in CODEMAP_CRATES
        for p in (root / crate).rglob("*")
        if p.is_file() and p.suffix in (".rs", ".html")
    }
    return named, files


def test_the_codemap_names_every_file_of_every_crate_and_nothing_that_is_gone():
    """ARCHITECTURE.md's codemap has a line for every source file of the five crates and
    for every top-level entry of the repository, and every path it names exists."""
    named, files = codemap()
    assert files - named == set(), "files missing from the codemap"
    tracked = subprocess.run(["git", "ls-files"], cwd=rig.ROOT, capture_output=True, text=True, check=True).stdout
    top = {line.split("/")[0] for line in tracked.splitlines() if not line.startswith(".")}
    top -= {"ARCHITECTURE.md", "BENCHMARKS.md", "README.md", "LICENSE", "Cargo.lock", "rustfmt.toml", "clippy.toml"}
    named_top = {n.split("/")[0] for n in named}
    assert top - named_top == set(), "top-level entries missing from the codemap"
    assert {n for n in named if not (rig.ROOT / n.rstrip("/")).exists()} == set(), "named but not in the tree"
    lines = len((rig.ROOT / "ARCHITECTURE.md").read_text().splitlines())
    assert lines <= 330, lines


def test_the_codemap_check_finds_a_missing_file(tmp_path):
    """The check above can fail: a source file the codemap does not name is reported,
    one it names is not."""
    (tmp_path / "veil-core" / "src").mkdir(parents=True)
    (tmp_path / "veil-core" / "src" / "lib.rs").write_text("")
    (tmp_path / "veil-core" / "src" / "new.rs").write_text("")
    (tmp_path / "ARCHITECTURE.md").write_text("# A\n\n## Codemap\n\n### `veil-core/src/` — core\n\n- `lib.rs` — modules.\n\n## Next\n")
    named, files = codemap(tmp_path)
    assert named == {"veil-core/src/lib.rs"}
    assert files - named == {"veil-core/src/new.rs"}
