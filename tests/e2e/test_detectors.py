"""The detection engine's policy inputs in real Envoy: dictionaries, internal
domains and the confidence threshold reach the filter and change what the vendor sees."""

from __future__ import annotations

import json

from tests.rig import clients


def test_policy_dictionaries_internal_domains_and_threshold(gateways, vendor):
    gateway = gateways(
        {
            "actions": {"CODE_NAME": "mask", "CUSTOMER_NAME": "mask", "PERSON": "mask", "INTERNAL_HOST": "mask"},
            "detectors": {
                "code_names": ["Project Nightjar", "Bluefin"],
                "customer_names": ["Vandelay Industries"],
                "given_names": ["Zebulon"],
                "surnames": ["Quist"],
                "internal_domains": [".acme-int.example"],
                "confidence_threshold": 0.85,
            },
        }
    )
    vendor.reset()
    text = (
        "project nightjar and BLUEFIN ship to Vandelay Industries; ask Zebulon Quist; "
        "build01.acme-int.example is down; bluefinch is a bird; x (415) 555-0132"
    )
    reply = clients.openai(gateway).chat.completions.create(model="m", messages=[{"role": "user", "content": text}])
    sent = json.loads(vendor.received()[0]["body"])["messages"][0]["content"]
    assert sent == (
        "[CODE_NAME] and [CODE_NAME] ship to [CUSTOMER_NAME]; ask [PERSON]; "
        "[INTERNAL_HOST] is down; bluefinch is a bird; x (415) 555-0132"
    )
    # A dictionary name scores 0.9 when both parts are known (0.75 with one); the phone
    # number without context scores 0.8: under this policy's threshold.
    assert reply.choices[0].message.content == f"You said: {sent}"
