"""The harness: start a real Envoy with veil.wasm, the fake vendor and verifier and the
control plane on loopback (`rig`), and talk to them (`clients`).

`fake_vendor`, `fake_verifier` and `serving` use the standard library only
(`docker-compose.yml` runs them in a bare Python image as `python -m tests.rig.fake_vendor`);
nothing here imports the others on package import."""
