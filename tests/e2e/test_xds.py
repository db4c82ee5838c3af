"""Policies pushed over xDS to a real Envoy: `veilctl xds serve` (ADS over gRPC, state
of the world and delta) and Envoy's file-based xDS. A policy change reaches new
requests within seconds, without a restart or a failed request; a stream in flight
finishes under the policy it started with; an invalid policy is never pushed, and one
that Envoy rejects is NACKed while the last good policy keeps protecting; the token
vault survives a reload.

The policies are the repository's own examples: `default` tokenizes an email address
on Chat Completions, `strict` masks it (`[EMAIL]`) and tokenizes private IPs.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import time
from pathlib import Path

import openai
import pytest
import yaml

from tests.rig import clients, rig

POLICIES = rig.ROOT / "policies"
STAT = "extension_config_discovery.http_filter.veil.default"
KEY = "33" * 32
API_KEY = "test-key-xds"
TOKENIZED = re.compile(r"^mail «token:EMAIL:[0-9a-f]+»$")
MASKED = "mail [EMAIL]"


def policy(name: str) -> str:
    return (POLICIES / f"{name}.yaml").read_text()


# The default policy with a field the filter's model does not know: `policy check`
# and the control plane reject it; pushed anyway (`--unchecked`), Envoy rejects it.
INVALID = policy("default") + "\nnot_a_policy_field: true\n"


def put(path: Path, text: str) -> None:
    """Replaces a file atomically, as a deploy or a `git checkout` does."""
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def vendor_saw(xds_gateway, vendor, text: str = "mail jane.doe@example.com", key: str = API_KEY) -> str:
    """Sends one chat message through the gateway; returns what the vendor received.
    Any failed request fails the test: a reload must not drop requests."""
    reply = clients.openai(xds_gateway, api_key=key).chat.completions.create(model="m", messages=[{"role": "user", "content": text}])
    received = [r for r in vendor.received() if r["path"] == "/v1/chat/completions"]
    sent = json.loads(received[-1]["body"])["messages"][0]["content"]
    # Tokens come back restored; masks stay masks.
    assert reply.choices[0].message.content == f"You said: {text if '«token:' in sent else sent}"
    return sent


def until(check, timeout: float = 30.0, interval: float = 0.05) -> float:
    """Seconds until `check()` is true (fails after `timeout`: a bounded wait for an
    eventual change, not a speed requirement — the figures are printed for the record)."""
    start = time.monotonic()
    while not check():
        if time.monotonic() - start > timeout:
            raise AssertionError(f"not true after {timeout}s")
        time.sleep(interval)
    return time.monotonic() - start


def last_push_acked(control_plane, after: int) -> str:
    """Waits for the ACK of the last version pushed past log offset `after`."""
    push = r"push (?:delta )?stream \d+ node=\S+ version=(\S+)"
    control_plane.wait_for(push, after=after)
    pushes = re.findall(push, control_plane.log()[after:])
    version = pushes[-1]
    acked = control_plane.wait_for(rf"ACK (?:delta )?stream \d+ node=\S+ version={re.escape(version)}", after=after)
    return acked.group(0)


@pytest.fixture(scope="module")
def control_plane(tmp_path_factory):
    policies = tmp_path_factory.mktemp("policies")
    (policies / "default.yaml").write_text(policy("default"))
    cp = rig.ControlPlane(policies)
    yield cp
    cp.stop()


@pytest.fixture(scope="module")
def xds_gateway(control_plane, vendor):
    config = rig.render_dynamic(
        listener_port=rig.free_port(), admin_port=rig.free_port(), vendor_port=vendor.port, xds_port=control_plane.port
    )
    envoy = rig.Envoy(config, concurrency=2, env={"VEIL_VAULT_KEY": KEY})
    yield envoy
    envoy.stop()


@pytest.fixture(scope="module")
def delta_xds_gateway(control_plane, vendor):
    """A second gateway of the fleet, on the same control plane, over delta ADS."""
    config = rig.render_dynamic(
        listener_port=rig.free_port(), admin_port=rig.free_port(), vendor_port=vendor.port,
        xds_port=control_plane.port, delta=True,
    )
    envoy = rig.Envoy(config, concurrency=1, env={"VEIL_VAULT_KEY": KEY})
    yield envoy
    envoy.stop()


def apply(control_plane, xds_gateway, vendor, name: str) -> None:
    """Makes `policies/<name>.yaml` the served `veil.default` and waits until it is in effect."""
    put(control_plane.policies / "default.yaml", policy(name))
    want = (lambda s: TOKENIZED.match(s) is not None) if name == "default" else (lambda s: s == MASKED)
    until(lambda: want(vendor_saw(xds_gateway, vendor)))


def test_the_first_policy_arrives_over_ads_and_is_acked(control_plane, xds_gateway, vendor):
    assert TOKENIZED.match(vendor_saw(xds_gateway, vendor))
    assert re.search(r"ACK stream \d+ node=veil-gateway version=1-[0-9a-f]{8} nonce=\S+", control_plane.log())
    assert xds_gateway.stats()[f"{STAT}.config_reload"] >= 1


def test_a_policy_change_reaches_every_gateway_within_seconds(control_plane, xds_gateway, delta_xds_gateway, vendor):
    apply(control_plane, xds_gateway, vendor, "default")
    until(lambda: TOKENIZED.match(vendor_saw(delta_xds_gateway, vendor)) is not None)
    reloads = xds_gateway.stats()[f"{STAT}.config_reload"]
    offset = len(control_plane.log())
    put(control_plane.policies / "default.yaml", policy("strict"))
    elapsed = until(lambda: vendor_saw(xds_gateway, vendor) == MASKED)
    print(f"\npolicy file change -> new policy in effect for new requests: {elapsed:.2f}s")
    until(lambda: vendor_saw(delta_xds_gateway, vendor) == MASKED)
    last_push_acked(control_plane, offset)
    control_plane.wait_for(r"ACK delta stream \d+ node=veil-gateway", after=offset)
    assert xds_gateway.stats()[f"{STAT}.config_reload"] == reloads + 1
    # Back again: the same way.
    put(control_plane.policies / "default.yaml", policy("default"))
    until(lambda: TOKENIZED.match(vendor_saw(xds_gateway, vendor)) is not None)
    until(lambda: TOKENIZED.match(vendor_saw(delta_xds_gateway, vendor)) is not None)


def test_a_stream_in_flight_during_a_push_completes_under_the_old_policy(control_plane, xds_gateway, vendor):
    apply(control_plane, xds_gateway, vendor, "default")
    text = "Please write to jane.doe@example.com about the quarterly report before Friday"
    stream = clients.openai(xds_gateway, api_key=API_KEY).chat.completions.create(
        model="m",
        stream=True,
        messages=[{"role": "user", "content": text}],
        extra_headers={"x-rig-event-interval-ms": "300"},
    )
    chunks = iter(stream)
    received = [next(chunks), next(chunks)]
    offset = len(control_plane.log())
    put(control_plane.policies / "default.yaml", policy("strict"))
    last_push_acked(control_plane, offset)
    # New requests already follow the new policy while the old stream is still open.
    until(lambda: vendor_saw(xds_gateway, vendor) == MASKED)
    rest = list(chunks)
    assert len(rest) > 3, "the stream ended before the push; it proves nothing"
    got = "".join(c.choices[0].delta.content or "" for c in received + rest if c.choices)
    assert got == f"You said: {text}"
    streamed = [json.loads(r["body"]) for r in vendor.received() if b'"stream"' in r["body"]]
    assert re.search(r"«token:EMAIL:[0-9a-f]+»", streamed[-1]["messages"][0]["content"])


def test_the_vault_survives_a_reload(control_plane, xds_gateway, vendor):
    apply(control_plane, xds_gateway, vendor, "strict")  # tokenizes private IPs
    key = "test-key-vault-reload"
    sent = vendor_saw(xds_gateway, vendor, "server 10.20.30.40 is down", key=key)
    token = re.fullmatch(r"server («token:PRIVATE_IP:[0-9a-f]+») is down", sent).group(1)
    restored = xds_gateway.stats().get("wasmcustom.veil.vault.restored_total", 0)
    apply(control_plane, xds_gateway, vendor, "default")
    # The token is not in this request: only the vault, kept across the reload, has it.
    reply = clients.openai(xds_gateway, api_key=key).chat.completions.create(
        model="m", messages=[{"role": "user", "content": f"Which server? {token}"}]
    )
    assert reply.choices[0].message.content == "You said: Which server? 10.20.30.40"
    assert xds_gateway.stats()["wasmcustom.veil.vault.restored_total"] > restored


def test_an_invalid_policy_is_never_pushed_and_the_last_good_one_stays(control_plane, xds_gateway, vendor):
    apply(control_plane, xds_gateway, vendor, "default")
    offset = len(control_plane.log())
    put(control_plane.policies / "default.yaml", INVALID)
    rejected = control_plane.wait_for(r"policy rejected: .*not_a_policy_field.*; keeping veil.default", after=offset)
    time.sleep(0.5)
    assert "push stream" not in control_plane.log()[offset:]
    assert TOKENIZED.match(vendor_saw(xds_gateway, vendor))
    assert "jane.doe" not in rejected.group(0)
    # Fixed: served again.
    put(control_plane.policies / "default.yaml", policy("strict"))
    until(lambda: vendor_saw(xds_gateway, vendor) == MASKED)


@pytest.mark.parametrize("delta", [False, True], ids=["sotw", "delta"])
def test_a_policy_envoy_rejects_is_nacked_and_the_last_good_one_keeps_protecting(tmp_path, vendor, delta):
    (tmp_path / "default.yaml").write_text(policy("default"))
    control_plane = rig.ControlPlane(tmp_path, unchecked=True)
    config = rig.render_dynamic(
        listener_port=rig.free_port(), admin_port=rig.free_port(), vendor_port=vendor.port,
        xds_port=control_plane.port, delta=delta,
    )
    envoy = rig.Envoy(config, concurrency=2)
    try:
        assert TOKENIZED.match(vendor_saw(envoy, vendor))
        offset = len(control_plane.log())
        put(tmp_path / "default.yaml", INVALID)
        nack = control_plane.wait_for(r"NACK (?:delta )?stream \d+ node=veil-gateway version=(\S+) nonce=\S+", after=offset)
        assert nack.group(1).startswith("2-")
        assert envoy.stats()[f"{STAT}.update_rejected"] >= 1
        assert "policy rejected" in envoy.log()  # the filter's own reason, in Envoy's log
        for _ in range(3):
            assert TOKENIZED.match(vendor_saw(envoy, vendor))
        # The next good policy is applied normally.
        put(tmp_path / "default.yaml", policy("strict"))
        until(lambda: vendor_saw(envoy, vendor) == MASKED)
        last_push_acked(control_plane, offset)
    finally:
        envoy.stop()
        control_plane.stop()
    assert '{"apiVersion"' not in control_plane.log()  # names, versions, digests: never the policy


@pytest.mark.parametrize("delta", [False, True], ids=["sotw", "delta"])
def test_a_control_plane_restart_keeps_the_policy_and_resumes_pushes(tmp_path, vendor, delta):
    (tmp_path / "default.yaml").write_text(policy("default"))
    control_plane = rig.ControlPlane(tmp_path)
    config = rig.render_dynamic(
        listener_port=rig.free_port(), admin_port=rig.free_port(), vendor_port=vendor.port, xds_port=control_plane.port,
        delta=delta,
    )
    envoy = rig.Envoy(config)
    try:
        assert TOKENIZED.match(vendor_saw(envoy, vendor))
        control_plane.stop()
        # No control plane: the last accepted policy keeps protecting.
        for _ in range(3):
            assert TOKENIZED.match(vendor_saw(envoy, vendor))
        put(tmp_path / "default.yaml", policy("strict"))
        control_plane = rig.ControlPlane(tmp_path, port=control_plane.port)
        # Envoy reconnects (backoff up to 2 s) and gets the current policy.
        until(lambda: vendor_saw(envoy, vendor) == MASKED, timeout=20)
        last_push_acked(control_plane, 0)
    finally:
        envoy.stop()
        control_plane.stop()


def test_without_a_control_plane_nothing_passes_unprotected(vendor):
    config = rig.render_dynamic(
        listener_port=rig.free_port(), admin_port=rig.free_port(), vendor_port=vendor.port,
        xds_port=rig.free_port(), initial_fetch_timeout="1s",
    )
    envoy = rig.Envoy(config)
    try:
        before = len(vendor.received())
        with pytest.raises(openai.InternalServerError):  # Envoy: no filter config, 500
            clients.openai(envoy, api_key=API_KEY).chat.completions.create(
                model="m", messages=[{"role": "user", "content": "mail jane.doe@example.com"}]
            )
        assert len(vendor.received()) == before
        assert envoy.stats()[f"{STAT}.init_fetch_timeout"] == 1
    finally:
        envoy.stop()


def xds_write(policy_file: Path, out: Path) -> None:
    subprocess.run(
        [str(rig.VEILCTL), "xds", "write", str(policy_file), "--name", "veil.default", "--out", str(out),
         *rig.filter_target()],
        check=True, capture_output=True, timeout=30,
    )


def test_file_based_xds_applies_an_atomically_replaced_file(tmp_path, vendor):
    ecds = tmp_path / "veil.default.yaml"
    xds_write(POLICIES / "default.yaml", ecds)
    config = rig.render_dynamic(
        rig.ENVOY_DIR / "gateway-file-xds.yaml",
        listener_port=rig.free_port(), admin_port=rig.free_port(), vendor_port=vendor.port, ecds_path=ecds,
    )
    envoy = rig.Envoy(config, concurrency=2)
    try:
        assert TOKENIZED.match(vendor_saw(envoy, vendor))
        xds_write(POLICIES / "strict.yaml", ecds)
        elapsed = until(lambda: vendor_saw(envoy, vendor) == MASKED)
        print(f"\nECDS file replaced -> new policy in effect: {elapsed:.2f}s")
            # A file with an invalid policy, written by hand: rejected, the last good one stays.
        doc = yaml.safe_load(ecds.read_text())
        cfg = rig.policy_of(doc["resources"][0])
        cfg["value"] = json.dumps({**json.loads(cfg["value"]), "not_a_policy_field": True})
        doc["version_info"] = "broken"
        put(ecds, yaml.safe_dump(doc))
        until(lambda: envoy.stats()[f"{STAT}.update_rejected"] >= 1)
        assert vendor_saw(envoy, vendor) == MASKED
    finally:
        envoy.stop()
