"""The console page in a real browser (Debian's Chromium, driven by Playwright) through
real Envoy: paste, detect, check the highlights against the API's UTF-16 offsets
(emoji and combining characters before the values), anonymize, and keep a screenshot
(`target/artifacts/console.png`)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.e2e.lenient import new_id, send

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "target" / "artifacts"
API_POLICY = {"hold_headers": True, "api": {"enabled": True}}
TEXT = (
    "Hi 👋🏽 José́ here. Reach me at jane.doe@example.com or +44 20 7946 0958.\n"
    "My SSN is 123-45-6789 and the staging box is 10.20.30.40 — thanks 🙏"
)


def chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    raise AssertionError("no Chromium: `cargo xtask test` installs Debian's chromium package")


@pytest.fixture(scope="module")
def console_gateway(gateways):
    return gateways(API_POLICY)


@pytest.fixture(scope="module")
def page():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium(), args=["--no-sandbox"])
        context = browser.new_context(viewport={"width": 1366, "height": 860})
        yield context.new_page()
        browser.close()


def test_the_console_detects_highlights_and_anonymizes(console_gateway, vendor, page):
    # Waits go through locators, never a string evaluated in the page: the console's
    # content-security-policy forbids eval, and the test keeps it on.
    from playwright.sync_api import expect

    def to_vendor_under_prefix() -> int:
        return len([r for r in vendor.received() if r["path"].startswith("/veil")])

    before = to_vendor_under_prefix()
    page.goto(f"{console_gateway.base_url}/veil/console")
    assert page.title() == "Veil console"
    page.fill("#text", TEXT)
    # Keyboard: Ctrl+Enter in the text area detects.
    page.focus("#text")
    page.keyboard.press("Control+Enter")
    page.wait_for_selector("#highlighted mark")

    api = json.loads(
        send(
            console_gateway.port,
            "POST",
            "/veil/v1/pii/detect",
            headers={"content-type": "application/json", "x-request-id": new_id()},
            body=json.dumps({"text": TEXT}).encode(),
        ).body
    )
    marks = page.eval_on_selector_all(
        "#highlighted mark",
        "ms => ms.map(m => ({start: +m.dataset.start, end: +m.dataset.end, type: m.dataset.type,"
        " text: m.firstChild.textContent}))",
    )
    expected = [{"start": e["start"], "end": e["end"], "type": e["type"]} for e in api["entities"]]
    assert [{k: m[k] for k in ("start", "end", "type")} for m in marks] == expected
    units = TEXT.encode("utf-16-le")
    for m in marks:
        # What the page marked is the text's UTF-16 slice the API's offsets name.
        assert m["text"] == units[2 * m["start"] : 2 * m["end"]].decode("utf-16-le")
    types = {m["type"] for m in marks}
    assert {"EMAIL", "SSN"} <= types, types
    # The whole text is still there, in order, around the marks.
    assert page.inner_text("#highlighted").replace("\n", "").startswith("Hi 👋🏽 José́ here")
    rows = page.eval_on_selector_all("#entities tbody tr", "rs => rs.length")
    assert rows == len(marks)

    page.select_option("#mode", "placeholder")
    page.click("#anonymize")
    expect(page.locator("#anonymized")).to_contain_text("[EMAIL]")
    anonymized = page.inner_text("#anonymized")
    assert "[EMAIL]" in anonymized and "[SSN]" in anonymized
    assert "jane.doe@example.com" not in anonymized and "123-45-6789" not in anonymized
    assert page.is_enabled("#copy")

    page.click("#refresh")
    expect(page.locator("#requests")).to_contain_text("request")
    assert page.inner_text("#by-category").strip() != ""

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "console.png"), full_page=True)
    assert (ARTIFACTS / "console.png").stat().st_size > 10_000
    # Nothing the page sent reached the vendor.
    assert to_vendor_under_prefix() == before
