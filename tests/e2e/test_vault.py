"""The token vault in real Envoy with several workers: deterministic scoped tokens,
restoration across requests, isolation between scopes, expiry and restarts."""

from __future__ import annotations

import concurrent.futures
import json
import time

import openai
import pytest

from tests.e2e.seeds import leaked
from tests.rig import clients, rig

KEY_A = "11" * 32
KEY_B = "22" * 32


@pytest.fixture(scope="module")
def four_worker_gateway(gateways):
    """Four workers, a fixed vault key."""
    return gateways(concurrency=4, env={"VEIL_VAULT_KEY": KEY_A})


def sent_user_texts(vendor) -> list[str]:
    body = json.loads(vendor.received()[-1]["body"])
    return [m["content"] for m in body["messages"]]


def test_a_multi_turn_conversation_shows_the_vendor_the_same_tokens(four_worker_gateway, vendor):
    vendor.reset()
    c = clients.openai(four_worker_gateway)
    first = c.chat.completions.create(model="m", messages=[{"role": "user", "content": "I am jane.doe@example.com"}])
    turn1 = sent_user_texts(vendor)[0]
    token = turn1.removeprefix("I am ")
    assert token.startswith("«token:EMAIL:")
    # Turn 2 resends the history as the client knows it: detokenized.
    c.chat.completions.create(
        model="m",
        messages=[
            {"role": "user", "content": "I am jane.doe@example.com"},
            {"role": "assistant", "content": first.choices[0].message.content},
            {"role": "user", "content": "Write to jane.doe@example.com again"},
        ],
    )
    turn2 = sent_user_texts(vendor)
    assert turn2[0] == turn1
    assert turn2[1] == f"You said: I am {token}"
    assert turn2[2] == f"Write to {token} again"


def test_previous_response_id_restores_a_token_from_an_earlier_turn(four_worker_gateway, vendor):
    vendor.reset()
    c = clients.openai(four_worker_gateway)
    first = c.responses.create(model="gpt-4o-mini", input="My card is 4111 1111 1111 1111")
    second = c.responses.create(model="gpt-4o-mini", previous_response_id=first.id, input="What was my card?")
    # The second request never carried the card; the vendor's answer refers to the
    # token from turn 1, and the vault restores it.
    assert json.loads(vendor.received()[-1]["body"])["input"] == "What was my card?"
    assert second.output_text == "You said: What was my card? | earlier: My card is 4111 1111 1111 1111"
    stats = four_worker_gateway.stats()
    assert stats["wasmcustom.veil.vault.restored_total"] >= 1
    assert all(leaked(r["body"]) == [] for r in vendor.received())


def test_a_streamed_answer_restores_vault_tokens_too(four_worker_gateway, vendor):
    vendor.reset()
    c = clients.openai(four_worker_gateway)
    first = c.responses.create(model="gpt-4o-mini", input="Call me at (415) 555-0132")
    stream = c.responses.create(model="gpt-4o-mini", previous_response_id=first.id, input="Number?", stream=True)
    text = "".join(e.delta for e in stream if e.type == "response.output_text.delta")
    assert text == "You said: Number? | earlier: Call me at (415) 555-0132"


def test_parallel_requests_across_workers_never_lose_or_cross_values(four_worker_gateway, vendor):
    vendor.reset()

    def one(i: int) -> tuple[int, str]:
        c = clients.openai(four_worker_gateway, api_key=f"tenant-{i % 3}")
        r = c.chat.completions.create(model="m", messages=[{"role": "user", "content": f"user{i}@example.com ssn 123-45-{6000 + i}"}])
        return i, r.choices[0].message.content

    with concurrent.futures.ThreadPoolExecutor(max_workers=12) as pool:
        results = list(pool.map(one, range(60)))
    for i, content in results:
        assert content == f"You said: user{i}@example.com ssn 123-45-{6000 + i}"
    for r in vendor.received():
        assert b"@example.com" not in r["body"]


def test_two_tenants_get_different_tokens_and_cannot_restore_each_other(four_worker_gateway, vendor):
    vendor.reset()
    a, b = clients.openai(four_worker_gateway, api_key="tenant-alpha"), clients.openai(four_worker_gateway, api_key="tenant-bravo")
    a.chat.completions.create(model="m", messages=[{"role": "user", "content": "jane.doe@example.com"}])
    b.chat.completions.create(model="m", messages=[{"role": "user", "content": "jane.doe@example.com"}])
    token_a, token_b = (json.loads(r["body"])["messages"][0]["content"] for r in vendor.received())
    assert token_a != token_b
    # B pastes A's token: B's scope has no such entry; it comes back as it went.
    reply = b.chat.completions.create(model="m", messages=[{"role": "user", "content": f"who is {token_a}?"}])
    assert reply.choices[0].message.content == f"You said: who is {token_a}?"
    # A gets its own token restored from the vault, in a request that did not carry it.
    reply = a.chat.completions.create(model="m", messages=[{"role": "user", "content": f"who is {token_a}?"}])
    assert reply.choices[0].message.content == "You said: who is jane.doe@example.com?"


def test_a_restart_with_the_same_key_keeps_tokens_stable(gateways, vendor):
    def token_with(key: str | None) -> str:
        gateway = gateways(concurrency=2, env={"VEIL_VAULT_KEY": key} if key else None)
        try:
            vendor.reset()
            clients.openai(gateway).chat.completions.create(model="m", messages=[{"role": "user", "content": "jane.doe@example.com"}])
            return json.loads(vendor.received()[0]["body"])["messages"][0]["content"]
        finally:
            gateway.stop()

    first, again, other = token_with(KEY_B), token_with(KEY_B), token_with(KEY_A)
    assert first == again
    assert first != other
    # Without a key each Envoy makes its own, and says so.
    random1, random2 = token_with(None), token_with(None)
    assert random1 != random2


def test_a_random_key_is_shared_by_all_workers_and_logged_as_such(gateways, vendor):
    gateway = gateways(concurrency=4)
    tokens = set()
    for _ in range(12):
        vendor.reset()
        clients.openai(gateway).chat.completions.create(model="m", messages=[{"role": "user", "content": "jane.doe@example.com"}])
        tokens.add(json.loads(vendor.received()[0]["body"])["messages"][0]["content"])
    assert len(tokens) == 1
    assert "VEIL_VAULT_KEY is not set" in gateway.log()


def test_header_scope_separates_conversations_of_one_credential(gateways, vendor):
    gateway = gateways({"vault": {"scope": "header"}}, env={"VEIL_VAULT_KEY": KEY_A})
    tokens = {}
    for conv in ("c1", "c2", "c1"):
        vendor.reset()
        clients.openai(gateway, headers={"x-veil-scope": conv}).chat.completions.create(
            model="m", messages=[{"role": "user", "content": "jane.doe@example.com"}]
        )
        tokens.setdefault(conv, set()).add(json.loads(vendor.received()[0]["body"])["messages"][0]["content"])
    assert len(tokens["c1"]) == 1
    assert tokens["c1"] != tokens["c2"]


def test_request_scope_never_restores_across_requests(gateways, vendor):
    gateway = gateways({"vault": {"scope": "request"}})
    c = clients.openai(gateway)
    vendor.reset()
    c.chat.completions.create(model="m", messages=[{"role": "user", "content": "jane.doe@example.com"}])
    token = json.loads(vendor.received()[0]["body"])["messages"][0]["content"]
    reply = c.chat.completions.create(model="m", messages=[{"role": "user", "content": f"who is {token}?"}])
    assert reply.choices[0].message.content == f"You said: who is {token}?"


def test_expired_entries_are_not_restored(gateways, vendor):
    gateway = gateways({"vault": {"ttl_seconds": 1}}, env={"VEIL_VAULT_KEY": KEY_A})
    c = clients.openai(gateway)
    first = c.responses.create(model="gpt-4o-mini", input="My ssn is 123-45-6789")
    time.sleep(2.2)
    second = c.responses.create(model="gpt-4o-mini", previous_response_id=first.id, input="ssn?")
    assert "123-45-6789" not in second.output_text
    assert "«token:SSN:" in second.output_text


def _certificates(tmp_path):
    """A CA, a server certificate for 127.0.0.1, and two client certificates whose URI
    SANs are SPIFFE ids, as Istio issues them to workloads."""
    import datetime
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    now = datetime.datetime.now(datetime.timezone.utc)

    def issue(name, issuer_key=None, issuer_name=None, *, ca=False, san=None):
        key = ec.generate_private_key(ec.SECP256R1())
        subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
        builder = (
            x509.CertificateBuilder()
            .subject_name(subject)
            .issuer_name(issuer_name or subject)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
        )
        if san:
            builder = builder.add_extension(x509.SubjectAlternativeName(san), critical=False)
        cert = builder.sign(issuer_key or key, hashes.SHA256())
        paths = (tmp_path / f"{name}.crt", tmp_path / f"{name}.key")
        paths[0].write_bytes(cert.public_bytes(serialization.Encoding.PEM))
        paths[1].write_bytes(
            key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
        )
        return key, subject, paths

    ca_key, ca_name, (ca_crt, _) = issue("veil-test-ca", ca=True)
    _, _, server = issue("gateway", ca_key, ca_name, san=[x509.IPAddress(ipaddress.ip_address("127.0.0.1"))])
    workloads = {
        who: issue(who, ca_key, ca_name, san=[x509.UniformResourceIdentifier(f"spiffe://cluster.local/ns/apps/sa/{who}")])[2]
        for who in ("alpha", "bravo")
    }
    return ca_crt, server, workloads


def test_peer_scope_is_the_callers_mtls_identity(gateways, vendor, tmp_path):
    """`scope: peer`: tokens are shared by one workload (its certificate's URI SAN),
    whatever API key it sends, and never with another workload using the same key."""
    import ssl

    import httpx2

    ca_crt, (server_crt, server_key), workloads = _certificates(tmp_path)
    config = rig.render(
        listener_port=rig.free_port(),
        admin_port=rig.free_port(),
        vendor_port=vendor.port,
        plugin_config={"vault": {"scope": "peer"}},
        env={"VEIL_VAULT_KEY": KEY_A},
    )
    config["static_resources"]["listeners"][0]["filter_chains"][0]["transport_socket"] = {
        "name": "envoy.transport_sockets.tls",
        "typed_config": {
            "@type": "type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.DownstreamTlsContext",
            "require_client_certificate": True,
            "common_tls_context": {
                "tls_certificates": [{"certificate_chain": {"filename": str(server_crt)}, "private_key": {"filename": str(server_key)}}],
                "validation_context": {"trusted_ca": {"filename": str(ca_crt)}},
            },
        },
    }
    gateway = gateways.start(config, concurrency=2)

    def caller(who: str) -> openai.OpenAI:
        context = ssl.create_default_context(cafile=str(ca_crt))
        context.load_cert_chain(*(str(p) for p in workloads[who]))
        return clients.openai(
            gateway, api_key="one-shared-key", base_url=f"https://127.0.0.1:{gateway.port}/v1", http_client=httpx2.Client(verify=context)
        )

    alpha, bravo = caller("alpha"), caller("bravo")
    vendor.reset()
    alpha.chat.completions.create(model="m", messages=[{"role": "user", "content": "jane.doe@example.com"}])
    token = json.loads(vendor.received()[0]["body"])["messages"][0]["content"]
    assert token.startswith("«token:EMAIL:")
    # The same workload restores it in a later request; another one, with the same API
    # key, does not.
    reply = alpha.chat.completions.create(model="m", messages=[{"role": "user", "content": f"who is {token}?"}])
    assert reply.choices[0].message.content == "You said: who is jane.doe@example.com?"
    reply = bravo.chat.completions.create(model="m", messages=[{"role": "user", "content": f"who is {token}?"}])
    assert reply.choices[0].message.content == f"You said: who is {token}?"
