"""Fixtures for the end-to-end tests: a real Envoy running the built veil.wasm in
front of the fake vendor, driven by the official SDKs."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.rig import rig


@pytest.fixture(scope="session", autouse=True)
def built_wasm() -> Path:
    if not rig.WASM.exists():
        pytest.exit("veil.wasm is not built: run `cargo xtask test`", returncode=2)
    return rig.WASM


@pytest.fixture(scope="session")
def vendor():
    v = rig.Vendor()
    yield v
    v.stop()


class GatewayFactory:
    def __init__(self, vendor):
        self.vendor = vendor
        self.started: list[rig.Envoy] = []

    def __call__(self, plugin_config: dict | None = None, *, concurrency: int = 2, with_filter: bool = True, env=None) -> rig.Envoy:
        config = rig.render(
            listener_port=rig.free_port(),
            admin_port=rig.free_port(),
            vendor_port=self.vendor.port,
            plugin_config=plugin_config,
            with_filter=with_filter,
            env=env,
        )
        envoy = rig.Envoy(config, concurrency=concurrency)
        self.started.append(envoy)
        return envoy

    def stop(self):
        for envoy in self.started:
            envoy.stop()


@pytest.fixture(scope="session")
def gateways(vendor):
    factory = GatewayFactory(vendor)
    yield factory
    factory.stop()


@pytest.fixture(scope="session")
def gateway(gateways) -> rig.Envoy:
    """Envoy with veil.wasm and no plugin configuration: the built-in default policy."""
    return gateways()


@pytest.fixture()
def openai_client(gateway):
    from openai import OpenAI

    return OpenAI(base_url=f"{gateway.base_url}/v1", api_key="test-key-alpha", max_retries=0, timeout=20)
