"""Fixtures for the end-to-end tests: a real Envoy running the built veil.wasm in
front of the fake vendor, driven by the official SDKs."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.rig import clients, rig


@pytest.fixture(scope="session", autouse=True)
def no_temporary_directory_left_behind():
    """Every Envoy and control plane removes its temporary directory when it stops, so
    none of this run's (`veil-*-<rig.RUN>-*`; a parallel run's are not counted) is
    left when the session ends, after every other fixture has stopped what it started.
    Any that is gets removed all the same, and fails the run."""
    before = set(rig.temp_dirs_left())
    yield
    left = [d for d in rig.temp_dirs_left() if d not in before]
    for d in left:
        shutil.rmtree(d, ignore_errors=True)
    assert not left, f"temporary directories left behind: {[d.name for d in left]}"


@pytest.fixture(scope="session", autouse=True)
def built_wasm() -> Path:
    """The build under test (`VEIL_BUILD`: wasm, the default, or native)."""
    built = rig.NATIVE if rig.BUILD == "native" else rig.WASM
    if not built.exists():
        pytest.exit(f"{built.name} is not built: run `cargo xtask test`", returncode=2)
    return built


@pytest.fixture(scope="session")
def vendor():
    v = rig.Vendor()
    yield v
    v.stop()


class GatewayFactory:
    """Starts gateways (Envoy + veil.wasm in front of the vendor) and stops them all at
    the end of the session; a test or module may stop one earlier."""

    def __init__(self, vendor):
        self.vendor = vendor
        self.started: list[rig.Envoy] = []

    def __call__(
        self,
        plugin_config: dict | None = None,
        *,
        concurrency: int = 2,
        with_filter: bool = True,
        env=None,
        verifier_port: int | None = None,
    ) -> rig.Envoy:
        """A new gateway with this plugin configuration (None: the built-in default
        policy); `verifier_port`: where its `verifier` cluster points (the fake verifier)."""
        config = rig.render(
            listener_port=rig.free_port(),
            admin_port=rig.free_port(),
            vendor_port=self.vendor.port,
            plugin_config=plugin_config,
            with_filter=with_filter,
            env=env,
            verifier_port=verifier_port,
        )
        return self.start(config, concurrency=concurrency)

    def start(self, config: dict, *, concurrency: int = 2) -> rig.Envoy:
        """A gateway from a config rendered (and changed) by the caller."""
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
    """The `openai` SDK's client for the default gateway."""
    return clients.openai(gateway)


@pytest.fixture()
def anthropic_client(gateway):
    """The `anthropic` SDK's client for the default gateway."""
    return clients.anthropic(gateway)


@pytest.fixture()
def gemini_client(gateway):
    """The `google-genai` SDK's client for the default gateway, referenced for the whole
    test (it closes its connection pool when collected)."""
    client = clients.gemini(gateway)
    yield client
