"""End-to-end tests: the real Envoy running the built veil.wasm in front of the fake vendor,
driven by the official SDKs (fixtures in `conftest.py`)."""
