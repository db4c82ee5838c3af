"""Observability through a real Envoy: Veil's counters as Prometheus reads them, held
to what deploy/observability/ (alert rules, Grafana dashboard) expects, and the audit
event in Envoy's access log (`audit.sink`).

The metrics check is the CI check of issue 22: one gateway runs a policy that makes
every counter the rules and panels use count (findings, blocks, refusals, unscannable
and exempt requests, vault evictions, verification with a failing verifier, file-based
ECDS); its /stats/prometheus is scraped and every selector of every alert expression
and panel query must name a metric that is there, with the labels it groups and
filters by, and values the code spells that way. No Veil metric name may carry a
provider, outcome, category, code or reason: those are labels.
"""

from __future__ import annotations

import json
import urllib.parse
import re
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import yaml

from tests.e2e.seeds import ALL, SEEDS, leaked
from tests.rig import rig

OBSERVABILITY = rig.ROOT / "deploy" / "observability"
SRC = rig.ROOT / "src"
CORE = rig.ROOT / "veil-core" / "src"

# Every label a Veil counter carries (veil-core/src/metrics.rs TAGS) and how its values are spelled.
CATEGORY = re.compile(r"[A-Z0-9_]{1,32}")


def spellings() -> dict[str, set[str]]:
    """The values each label can take, read from the code that names them."""

    def arms(path: Path, enum: str) -> set[str]:
        return set(re.findall(rf'{enum}::\w+ => "([a-z0-9_.]+)"', path.read_text()))

    restore = set()
    for path in (SRC / "host").glob("*.rs"):
        restore |= set(re.findall(r'RestoreSkipped\("(\w+)"\)', path.read_text()))
    values = {
        # Each API's adapter declares its name (`name: "openai.chat"`).
        "provider": {n for path in (CORE / "provider").glob("*.rs") for n in re.findall(r'^    name: "([a-z0-9_.]+)",$', path.read_text(), re.M)},
        "outcome": arms(CORE / "audit.rs", "Outcome"),
        "code": arms(CORE / "redact.rs", "Refusal"),
        "reason": arms(CORE / "verify" / "session.rs", "SkipReason") | restore,
    }
    assert all(values.values()), values
    assert {"openai.chat", "rewritten", "veil_invalid_json", "verifier_error", "encoded"} <= set().union(*values.values())
    return values


SPELLINGS = spellings()


def valid_value(label: str, value: str) -> bool:
    if label == "category":
        return bool(CATEGORY.fullmatch(value))
    return value in SPELLINGS.get(label, set())


# --- Prometheus text and PromQL, read just enough -------------------------------------

SAMPLE = re.compile(r"^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$")
LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"')


def parse_exposition(text: str) -> dict[str, list[dict[str, str]]]:
    """Metric name → the label sets of its samples (histogram series by their family)."""
    families: dict[str, list[dict[str, str]]] = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        match = SAMPLE.match(line)
        assert match, line
        families.setdefault(match.group(1), []).append(dict(LABEL.findall(match.group(2) or "")))
    return families


KEYWORDS = {"by", "without", "on", "ignoring", "group_left", "group_right", "bool", "and", "or", "unless", "offset"}
NAME = r"[a-zA-Z_:][a-zA-Z0-9_:]*"
MATCHER = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)\s*(=~|!~|!=|=)\s*"((?:[^"\\]|\\.)*)"')


def selectors(expr: str) -> tuple[list[tuple[str | None, list[tuple[str, str, str]]]], set[str]]:
    """The vector selectors of a PromQL expression — (metric name or None, matchers) —
    and the labels its aggregations group by."""
    expr = re.sub(r"\$__\w+", "5m", expr)  # Grafana's range variables
    grouping = re.compile(r"\b(?:by|without)\s*\(([^)]*)\)")
    by = {label.strip() for m in grouping.finditer(expr) for label in m.group(1).split(",") if label.strip()}
    rest = grouping.sub(" ", expr)
    found = []
    braces = re.compile(rf"({NAME})?\{{([^}}]*)\}}")
    for m in braces.finditer(rest):
        found.append((m.group(1), MATCHER.findall(m.group(2))))
    rest = braces.sub(" ", rest)
    rest = re.sub(r"\[[^\]]*\]", " ", rest)
    rest = re.sub(r'"(?:[^"\\]|\\.)*"', " ", rest)
    for m in re.finditer(rf"(?<![\w.])({NAME})(\s*\()?", rest):
        if m.group(2) or m.group(1) in KEYWORDS:
            continue
        found.append((m.group(1), []))
    return found, by


def check_expression(expr: str, families: dict[str, list[dict[str, str]]], where: str) -> list[str]:
    """What `expr` uses that the scrape does not have (empty: all there)."""
    problems = []
    found, by = selectors(expr)
    if not found:
        return [f"{where}: no selector in {expr!r}"]
    series = []
    for name, matchers in found:
        names = [name] if name else []
        for label, op, value in matchers:
            if label == "__name__":
                assert op == "=~", f"{where}: {op}"
                names += [n for n in families if re.fullmatch(value, n)]
        names = [n for n in names if n in families]
        if not names:
            problems.append(f"{where}: no metric {name or matchers} in the scrape")
            continue
        mine = [labels for n in names for labels in families[n]]
        series += mine
        for label, op, value in matchers:
            if label == "__name__":
                continue
            if not any(label in labels for labels in mine):
                problems.append(f"{where}: {names[0]} has no label {label}")
            values = value.split("|") if op in ("=~", "!~") else [value]
            for v in values:
                if not valid_value(label, v):
                    problems.append(f"{where}: {label}={v!r} is not a value the code spells")
    for label in by:
        if not any(label in labels for labels in series):
            problems.append(f"{where}: grouped by {label}, which none of its metrics has")
    return problems


# --- the gateway under every counter --------------------------------------------------

POLICY = {
    "apiVersion": "veil/v1",
    "actions": {"SSN": "block"},
    "exempt": [{"paths": ["/v1/models"]}],
    # One slot of eight records: a request with more values evicts.
    "vault": {"max_entries": 8, "max_bytes": 4096},
    "verification": {"enabled": True, "retries": 0},
}

EMAILS = [f"user{i}.obs@example.com" for i in range(10)]


def post(envoy: rig.Envoy, path: str, body: bytes, content_type: str = "application/json") -> int:
    return exchange(envoy, path, body, content_type)[0]


def exchange(envoy: rig.Envoy, path: str, body: bytes, content_type: str = "application/json") -> tuple[int, bytes]:
    req = urllib.request.Request(
        f"{envoy.base_url}{path}",
        data=body,
        headers={"content-type": content_type, "authorization": "Bearer test-key-obs"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def chat(text: str, **extra) -> bytes:
    return json.dumps({"model": "gpt-4o-mini", "messages": [{"role": "user", "content": text}], **extra}).encode()


def scrape(envoy: rig.Envoy, query: str = "/stats/prometheus") -> str:
    with urllib.request.urlopen(f"http://127.0.0.1:{envoy.admin_port}{query}", timeout=10) as r:
        return rig.prometheus_names(r.read().decode())


def wait_for(condition, what: str, timeout: float = 15.0):
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


@pytest.fixture(scope="module")
def servers():
    vendor, verifier = rig.Vendor(), rig.Verifier()
    yield vendor, verifier
    vendor.stop()
    verifier.stop()


@pytest.fixture(scope="module")
def families(servers, tmp_path_factory):
    """/stats/prometheus of a file-xds gateway after traffic that makes every counter
    the rules and the dashboard use count."""
    vendor, verifier = servers
    tmp = tmp_path_factory.mktemp("obs")
    policy, ecds = tmp / "policy.yaml", tmp / "veil.default.yaml"
    policy.write_text(yaml.safe_dump(POLICY))
    subprocess.run(
        [str(rig.VEILCTL), "xds", "write", str(policy), "--name", "veil.default", "--out", str(ecds), *rig.filter_target()],
        check=True, capture_output=True, timeout=60,
    )
    config = rig.render_dynamic(
        rig.ENVOY_DIR / "gateway-file-xds.yaml",
        listener_port=rig.free_port(), admin_port=rig.free_port(), vendor_port=vendor.port,
        verifier_port=verifier.port, ecds_path=ecds,
    )
    envoy = rig.Envoy(config, concurrency=1)
    try:
        verifier.reset()
        claims = "The Moon is made of green cheese. Paris is the capital of France."
        assert post(envoy, "/v1/chat/completions", chat(f"Mail {', '.join(EMAILS)}. {claims}")) == 200
        assert post(envoy, "/v1/messages", json.dumps({
            "model": "claude-3-5-haiku", "max_tokens": 64,
            "messages": [{"role": "user", "content": f"Call {SEEDS['PHONE'][0]} please"}],
        }).encode()) == 200
        # A token from an earlier turn comes back in an answer: restored from the vault.
        status, first = exchange(envoy, "/v1/responses", json.dumps({
            "model": "gpt-4o-mini", "input": f"My card is {SEEDS['CREDIT_CARD'][0]}"}).encode())
        assert status == 200
        assert post(envoy, "/v1/responses", json.dumps({
            "model": "gpt-4o-mini", "input": "What was my card?", "previous_response_id": json.loads(first)["id"],
        }).encode()) == 200
        assert post(envoy, "/v1/chat/completions", chat(f"my ssn is {SEEDS['SSN'][0]}")) == 403
        assert post(envoy, "/v1/chat/completions", b'{"model": "m", "messages": [') == 400
        post(envoy, "/v1/chat/completions", bytes(range(256)) * 4, "application/octet-stream")
        try:
            urllib.request.urlopen(f"{envoy.base_url}/v1/models", timeout=10).close()
        except urllib.error.HTTPError:
            pass  # the fake vendor has no models list; the request was exempted all the same
        verifier.script(mode="error")
        assert post(envoy, "/v1/chat/completions", chat(f"Again: {claims}")) == 200
        verifier.reset()

        def ready():
            text = scrape(envoy)
            fams = parse_exposition(text)
            done = sum(int(float(line.split()[-1])) for line in text.splitlines() if line.startswith("veil_requests_total{"))
            return fams if done >= 8 and "veil_verify_skipped_total" in fams and "veil_exempt_total" in fams else None

        fams = wait_for(ready, "the counters of the traffic")
        focused = scrape(envoy, "/stats?filter=veil").splitlines()
        yield fams, focused
    finally:
        envoy.stop()


def test_veil_metrics_are_names_with_labels(families):
    fams, _ = families
    veil = {name: series for name, series in fams.items() if name.startswith("veil_")}
    expected_labels = {
        "veil_requests_total": {"provider", "outcome"},
        "veil_findings_total": {"category"},
        "veil_refused_total": {"code"},
        "veil_verify_skipped_total": {"reason"},
        "veil_restore_skipped_total": {"reason"},
    }
    for name, labels in expected_labels.items():
        assert name in veil or name == "veil_restore_skipped_total", sorted(veil)
        assert all(set(s) == labels for s in veil.get(name, [])), (name, veil[name])
    for name, series in veil.items():
        assert name.endswith("_total"), name
        if name not in expected_labels:
            assert series == [{}], (name, series)
        for labels in series:
            for label, value in labels.items():
                assert valid_value(label, value), (name, label, value)
    outcomes = {s["outcome"] for s in veil["veil_requests_total"]}
    assert {"rewritten", "blocked", "invalid_json", "unscannable_passed"} <= outcomes
    assert {s["provider"] for s in veil["veil_requests_total"]} >= {"openai.chat", "openai.responses", "anthropic.messages"}
    assert {"EMAIL", "SSN", "PHONE"} <= {s["category"] for s in veil["veil_findings_total"]}
    # No name carries what a label says: not veil_findings_email, not veil_outcome_blocked.
    values = set().union(*SPELLINGS.values()) | {s["category"] for s in veil["veil_findings_total"]}
    for name in veil:
        bare = name.removeprefix("veil_")  # the namespace; codes begin with it too
        for value in values:
            token = "_" + re.sub(r"[^a-z0-9_]", "_", value.lower()) + "_"
            assert token not in f"_{bare}_", f"{name} carries {value}"


def test_stats_filter_veil_is_focused(families):
    """`/stats?filter=veil`: Veil's counters, its VM's and its policy's ECDS stats;
    no cluster named after it (the xDS cluster is `xds_control_plane`)."""
    _, focused = families
    prefixes = ("wasmcustom.veil.", "wasm.veil.", f"{rig.NATIVE_STATS}veil.", "extension_config_discovery.http_filter.veil.")
    assert focused and all(line.startswith(prefixes) for line in focused), [
        line for line in focused if not line.startswith(prefixes)
    ]


def test_every_alert_rule_reads_metrics_the_gateway_exports(families):
    fams, _ = families
    rules = yaml.safe_load((OBSERVABILITY / "alerts.yaml").read_text())
    alerts = [rule for group in rules["groups"] for rule in group["rules"]]
    names = {rule["alert"] for rule in alerts}
    for expected in ("VeilUnscannableBodies", "VeilRequestsBlocked", "VeilVerifierFailing", "VeilVaultEvicting", "VeilPolicyRejected"):
        assert expected in names
    problems = [p for rule in alerts for p in check_expression(rule["expr"], fams, rule["alert"])]
    assert problems == []


def test_every_dashboard_panel_reads_metrics_the_gateway_exports(families):
    fams, _ = families
    dashboard = json.loads((OBSERVABILITY / "grafana-dashboard.json").read_text())
    panels = [p for p in dashboard["panels"] if p["type"] != "row"]
    assert len(panels) >= 10
    problems = []
    for panel in panels:
        assert panel["targets"], panel["title"]
        for target in panel["targets"]:
            where = f"{panel['title']} {target['refId']}"
            problems += check_expression(target["expr"], fams, where)
            _, by = selectors(target["expr"])
            for label in re.findall(r"\{\{\s*(\w+)\s*\}\}", target.get("legendFormat", "")):
                if label not in by:
                    problems.append(f"{where}: legend {{{{{label}}}}} is not grouped by")
    assert problems == []


def test_the_checker_finds_what_is_missing(families):
    """The checks above fail on a missing metric, label or spelling."""
    fams, _ = families
    assert check_expression("sum(rate(veil_findings_total[5m]))", fams, "ok") == []
    assert check_expression("rate(veil_findings_email[5m])", fams, "x")
    assert check_expression('sum by (outcome) (rate(veil_findings_total[5m]))', fams, "x")
    assert check_expression('veil_requests_total{outcome="redacted"}', fams, "x")
    assert check_expression('{__name__=~"envoy_nothing_.*"}', fams, "x")
    assert check_expression('veil_requests_total{outcome=~"blocked|rewritten"}', fams, "ok") == []


# --- the audit event in the access log ------------------------------------------------


# Command operators that print what a client can put a value in: the query string, or a
# request header other than the method.
LEAKY_OPERATORS = re.compile(r"%(PATH\((WQ)?(:[A-Z]+)?\)|PATH%|REQ\((?!:METHOD\))|REQUEST_HEADER\((?!:METHOD\))|REQ_WITHOUT_QUERY)")


def test_no_shipped_config_logs_a_query_string_or_a_request_header():
    """Every access log the kit ships prints the path without its query (`%PATH(NQ)%`)
    and no request header but the method: a query string (Gemini's `?key=`, a tool's
    `?email=`) or a header can carry a value."""
    roots = [rig.ENVOY_DIR, rig.ROOT / "deploy", rig.ROOT / "docker-compose.yml"]
    files = [p for root in roots for p in ([root] if root.is_file() else root.rglob("*.yaml"))]
    assert len(files) > 10
    found = [(p.name, m.group(0)) for p in files for m in LEAKY_OPERATORS.finditer(p.read_text())]
    assert found == []
    assert LEAKY_OPERATORS.search('path: "%PATH(WQ)%"') and LEAKY_OPERATORS.search("%REQ(USER-AGENT)%")
    assert LEAKY_OPERATORS.search("%PATH%") and not LEAKY_OPERATORS.search('"%PATH(NQ)%" "%REQ(:METHOD)%"')


def access_gateway(vendor: rig.Vendor, log: Path, plugin_config: dict | None = None) -> rig.Envoy:
    config = rig.render(
        rig.ENVOY_DIR / "gateway-access-log.yaml",
        listener_port=rig.free_port(), admin_port=rig.free_port(), vendor_port=vendor.port,
        access_log_path=log, plugin_config=plugin_config,
    )
    return rig.Envoy(config, concurrency=1)


def read_access_log(log: Path) -> list[dict]:
    return [json.loads(line) for line in log.read_text().splitlines() if line.strip()]


def test_the_audit_event_is_in_the_access_log_with_no_seeded_value(servers, tmp_path):
    """envoy/gateway-access-log.yaml as shipped (`audit.sink: access_log`).

    The filter writes the event to the filter state only in `on_log`, and the access
    log line carries it with figures final only at the end of the response — tokens
    restored in the last chunks of a stream, the status, the duration: Envoy 1.40 runs
    the filter's `on_log` before the HCM's access loggers, so `on_log` is late enough
    (had it run after them, `veil_audit` would be null)."""
    vendor, _ = servers
    log = tmp_path / "access.log"
    envoy = access_gateway(vendor, log)
    everything = "; ".join(ALL)
    try:
        assert post(envoy, "/v1/chat/completions", chat(f"Please keep: {everything}")) == 200
        # A value in the query string never reaches the log: the path is logged without it.
        query = "?" + urllib.parse.urlencode({"trace": SEEDS["EMAIL"][0]})
        assert post(envoy, "/v1/chat/completions" + query, chat(f"Mail {SEEDS['EMAIL'][0]} now", stream=True)) == 200
    finally:
        envoy.stop()  # flushes the access log
    text = log.read_text()
    lines = read_access_log(log)
    assert len(lines) == 2
    events = [json.loads(line["veil_audit"]) for line in lines]
    assert leaked(text) == [] and leaked(json.dumps(events)) == []
    for line, event in zip(lines, events):
        assert event["event"] == "veil.audit" and event["provider"] == "openai.chat"
        assert event["outcome"] == "rewritten"
        assert event["response_status"] == line["status"] == 200
        assert line["method"] == "POST" and line["path"] == "/v1/chat/completions"
        assert event["tokens_restored"] >= event["tokens_issued"] >= 1
        assert re.fullmatch(r"[0-9a-f-]{36}", event["request_id"])
    assert {"EMAIL", "SSN", "CREDIT_CARD", "PHONE"} <= set(events[0]["findings"])
    assert events[1]["findings"] == {"EMAIL": 1}
    # access_log alone: nothing in Envoy's log, and no seeded value there either.
    assert envoy.audit_events() == []
    assert leaked(envoy.log()) == []


@pytest.mark.parametrize("sink", ["log", "both"])
def test_the_sink_decides_where_the_event_goes(servers, tmp_path, sink):
    vendor, _ = servers
    log = tmp_path / "access.log"
    envoy = access_gateway(vendor, log, {"audit": {"sink": sink}})
    try:
        assert post(envoy, "/v1/chat/completions", chat(f"Mail {SEEDS['EMAIL'][1]}")) == 200
        logged = wait_for(envoy.audit_events, "the audit line in Envoy's log")
    finally:
        envoy.stop()
    (line,) = read_access_log(log)
    assert [e["findings"] for e in logged] == [{"EMAIL": 1}]
    if sink == "log":
        assert line["veil_audit"] is None
    else:
        assert json.loads(line["veil_audit"]) == logged[0]
    assert leaked(log.read_text()) == [] and leaked(envoy.log()) == []
