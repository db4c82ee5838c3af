"""`cargo xtask demo`: Envoy + veil.wasm + a fake vendor, one request, both views.

Starts the gateway with the built-in default policy plus claim verification (against
the fake verifier), sends a chat request full of synthetic personal data through the
official `openai` SDK, and shows what the vendor received next to what the client got
back; then a question whose answer holds a doubtful claim, marked by the verifier.
Then it keeps the gateway
running on 127.0.0.1 for you to point your own SDK at, until Ctrl-C (or exits with
--once).

With --xds the filter's policy comes from `veilctl xds serve` watching policies/
(ECDS over ADS, as in envoy/gateway-xds.yaml): edit policies/default.yaml while the
demo runs and the next request follows it; an invalid edit is rejected and the last
good policy stays. (policies/default.yaml leaves verification off: the demo then shows
no verification step; turn `verification.enabled` on in the file to see it.)
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import textwrap
import time

from tests.rig import rig

PROMPT = (
    "Hi, I'm Jane Doe. Reach me at jane.doe@example.com or (415) 555-0132. "
    "My SSN is 123-45-6789 and my card is 4111 1111 1111 1111. "
    "Our staging box is 10.20.30.40 (http://wiki.corp/runbook) and the AWS key "
    "AKIAIOSFODNN7EXAMPLE leaked. Can you summarise this?"
)
# The fake vendor echoes the prompt; the fake verifier doubts claims about the moon.
FACTS = "The Moon is made of green cheese. Paris is the capital of France. Thanks, jane.doe@example.com"
# The demo policy: the built-in default, with verification through the `verifier` cluster.
POLICY = {"verification": {"enabled": True}}


def wrap(text: str) -> str:
    return textwrap.indent(textwrap.fill(text, 88), "    ")


def verifying(plane) -> bool:
    """Whether the gateway's policy verifies claims: the demo's own policy does; over
    xDS, policies/default.yaml says."""
    if not plane:
        return bool(POLICY.get("verification", {}).get("enabled"))
    import yaml

    policy = yaml.safe_load((rig.ROOT / "policies" / "default.yaml").read_text()) or {}
    return bool((policy.get("verification") or {}).get("enabled"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--once", action="store_true", help="exit after the demo request")
    parser.add_argument("--port", type=int, default=10000, help="gateway listener port")
    parser.add_argument("--admin-port", type=int, default=9901)
    parser.add_argument("--vendor-port", type=int, default=18080)
    parser.add_argument("--verifier-port", type=int, default=18090)
    parser.add_argument("--xds", action="store_true", help="take the policy from `veilctl xds serve` watching policies/")
    parser.add_argument("--native", action="store_true", help="run the native module (libveil.so) instead of veil.wasm")
    args = parser.parse_args()
    if args.native:
        rig.BUILD = "native"
    # SIGTERM stops the demo like Ctrl-C: through `finally`, which stops Envoy and the
    # control plane too.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))

    from openai import OpenAI

    vendor = rig.Vendor(args.vendor_port)
    verifier = rig.Verifier(args.verifier_port)
    plane = None
    try:
        if args.xds:
            plane = rig.ControlPlane(rig.ROOT / "policies", poll_ms=250)
            config = rig.render_dynamic(
                listener_port=args.port,
                admin_port=args.admin_port,
                vendor_port=args.vendor_port,
                verifier_port=args.verifier_port,
                xds_port=plane.port,
            )
        else:
            config = rig.render(
                listener_port=args.port,
                admin_port=args.admin_port,
                vendor_port=args.vendor_port,
                verifier_port=args.verifier_port,
                plugin_config=POLICY,
            )
        envoy = rig.Envoy(config, concurrency=2)
    except Exception as err:  # noqa: BLE001 - shown to the user as is
        vendor.stop()
        verifier.stop()
        if plane:
            plane.stop()
        print(f"could not start Envoy: {err}", file=sys.stderr)
        return 1
    try:
        client = OpenAI(base_url=f"{envoy.base_url}/v1", api_key="demo-key")
        source = "policies/default.yaml over xDS" if plane else "default policy + verification"
        print(
            f"Veil demo: Envoy {envoy.base_url} ({'libveil.so' if args.native else 'veil.wasm'}, {source}) -> fake vendor {vendor.base_url}, "
            f"fake verifier :{verifier.port}\n"
        )
        print("1. The application sends (openai SDK, base_url only changed):")
        print(wrap(PROMPT))
        reply = client.chat.completions.create(model="gpt-4o-mini", messages=[{"role": "user", "content": PROMPT}])
        seen = json.loads(vendor.received()[-1]["body"])["messages"][0]["content"]
        print("\n2. What the vendor received (tokens instead of values):")
        print(wrap(seen))
        print("\n3. What the application got back (the vendor echoed the tokens; Veil restored them):")
        print(wrap(reply.choices[0].message.content))
        time.sleep(0.2)
        events = envoy.audit_events()
        if events:
            print("\n4. The audit line Envoy logged (counts only, never values):")
            print(wrap(json.dumps(events[-1])))
        # Only the steps the running policy does: policies/default.yaml (over xDS) leaves
        # verification off unless you turn it on.
        if verifying(plane):
            print("\n5. Claim verification: the application asks, the vendor answers with a doubtful claim:")
            print(wrap(FACTS))
            reply = client.chat.completions.create(model="gpt-4o-mini", messages=[{"role": "user", "content": FACTS}])
            print("   The verifier (fed the tokenized text) scored each claim; the application got:")
            print(wrap(reply.choices[0].message.content))
        if args.once:
            return 0
        print(
            f"\nThe gateway keeps running. Point your SDK at it:\n"
            f"    OpenAI(base_url=\"{envoy.base_url}/v1\", api_key=\"anything\")\n"
            f"Stats: http://127.0.0.1:{args.admin_port}/stats?filter=veil   Envoy log: {envoy.log_path}\n"
            f"Ctrl-C to stop."
        )
        if plane:
            print(
                f"\nLive policy: edit policies/default.yaml (e.g. `actions: {{EMAIL: mask}}`) and send\n"
                f"the request again; the control plane's log ({plane.log_path}) shows each push and\n"
                f"Envoy's ACK, or why an edit was rejected (the last good policy stays)."
            )
        while envoy.proc.poll() is None:
            time.sleep(1)
        return 1
    except KeyboardInterrupt:
        return 0
    finally:
        envoy.stop()
        vendor.stop()
        verifier.stop()
        if plane:
            plane.stop()


if __name__ == "__main__":
    sys.exit(main())
