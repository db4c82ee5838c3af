//! `veilctl xds`: policies delivered to Envoy as ECDS resources.
//!
//! `serve` is an aggregated (ADS) xDS control plane over gRPC, state of the world and
//! incremental (delta): it watches a policy directory, validates every file with the
//! filter's own model, and serves each as an ECDS `TypedExtensionConfig` named
//! `veil.<file stem>` that wraps the Wasm filter with the policy JSON as its plugin
//! configuration. `write` renders the same resource as a `DiscoveryResponse` file for
//! Envoy's file-based xDS and replaces the file atomically.
//!
//! The VM part of the resource (`vm_id`, code, runtime, environment) is the same in
//! every push, so Envoy keeps the running VM and its shared data (the token vault);
//! only the plugin configuration changes. A policy that fails validation is never
//! pushed: the last good version of that resource keeps being served. Logs name
//! files, resources, versions, nonces and digests, never a policy's or a request's
//! content.

use std::collections::{BTreeMap, HashMap};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use envoy_types::pb::envoy::config::core::v3::{
    async_data_source, data_source, AsyncDataSource, DataSource, TypedExtensionConfig,
};
use envoy_types::pb::envoy::extensions::dynamic_modules::v3::DynamicModuleConfig;
use envoy_types::pb::envoy::extensions::filters::http::dynamic_modules::v3::DynamicModuleFilter;
use envoy_types::pb::envoy::extensions::filters::http::wasm::v3::Wasm;
use envoy_types::pb::envoy::extensions::wasm::v3::{plugin_config, EnvironmentVariables, PluginConfig, VmConfig};
use envoy_types::pb::envoy::service::discovery::v3::aggregated_discovery_service_server::{
    AggregatedDiscoveryService, AggregatedDiscoveryServiceServer,
};
use envoy_types::pb::envoy::service::discovery::v3::{
    DeltaDiscoveryRequest, DeltaDiscoveryResponse, DiscoveryRequest, DiscoveryResponse, Resource,
};
use envoy_types::pb::google::protobuf::{Any, BoolValue, StringValue};
use prost::Message;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use tokio::sync::{mpsc, watch};
use tokio_stream::wrappers::{ReceiverStream, TcpListenerStream};
use tonic::{Request, Response, Status, Streaming};

use crate::cli::{self, Args, Exit, Fallible};

/// The ECDS resource type: an extension config, here always the Wasm HTTP filter.
pub const ECDS_TYPE: &str = "type.googleapis.com/envoy.config.core.v3.TypedExtensionConfig";
const WASM_TYPE: &str = "type.googleapis.com/envoy.extensions.filters.http.wasm.v3.Wasm";
const NATIVE_TYPE: &str = "type.googleapis.com/envoy.extensions.filters.http.dynamic_modules.v3.DynamicModuleFilter";
/// The native module's counters' namespace (`veilcustom.veil.*`), as in envoy/gateway-native.yaml.
const NATIVE_METRICS_NAMESPACE: &str = "veilcustom";
const STRING_TYPE: &str = "type.googleapis.com/google.protobuf.StringValue";
/// Relative to Envoy's working directory, as in `envoy/gateway.yaml`.
pub const DEFAULT_WASM: &str = "target/wasm32-wasip1/release/veil.wasm";

/// The parts of the filter's Wasm config that stay the same across pushes: changing
/// any of them makes Envoy start a new VM (and lose the vault's shared data).
#[derive(Debug, Clone)]
pub struct FilterTarget {
    pub wasm: String,
    pub vm_id: String,
    /// The native module (`libveil.so`, Envoy's dynamic modules) instead of the Wasm
    /// filter: its path as Envoy sees it.
    pub native: Option<String>,
}

impl FilterTarget {
    fn from_args(args: &Args) -> FilterTarget {
        FilterTarget {
            wasm: args.get("wasm").unwrap_or(DEFAULT_WASM).to_string(),
            vm_id: args.get("vm-id").unwrap_or("veil").to_string(),
            native: args.get("native").map(str::to_string),
        }
    }
}

/// The ECDS resource name of a policy file: `policies/strict.yaml` → `veil.strict`.
pub fn resource_name(path: &Path) -> Option<String> {
    let stem = path.file_stem()?.to_str()?;
    Some(format!("veil.{stem}"))
}

/// The ECDS resource as JSON (the shape of Envoy's YAML/JSON config), for files.
pub fn resource_json(name: &str, policy_json: &str, target: &FilterTarget) -> Value {
    if let Some(module) = &target.native {
        return json!({
            "name": name,
            "typed_config": {
                "@type": NATIVE_TYPE,
                "dynamic_module_config": {
                    "name": "veil",
                    "module": {"local": {"filename": module}},
                    "metrics_namespace": NATIVE_METRICS_NAMESPACE,
                },
                "filter_name": "veil",
                "filter_config": {"@type": STRING_TYPE, "value": policy_json},
            },
        });
    }
    json!({
        "name": name,
        "typed_config": {
            "@type": WASM_TYPE,
            "config": {
                "name": "veil",
                "root_id": "veil",
                // Lets `hold_headers: true` policies hold a request's headers until
                // its body is inspected; harmless for the others.
                "allow_on_headers_stop_iteration": true,
                "configuration": {"@type": STRING_TYPE, "value": policy_json},
                "vm_config": {
                    "vm_id": target.vm_id,
                    "runtime": "envoy.wasm.runtime.v8",
                    "environment_variables": {"host_env_keys": ["VEIL_VAULT_KEY"]},
                    "code": {"local": {"filename": target.wasm}},
                },
            },
        },
    })
}

/// The same resource as protobuf, for the gRPC server.
fn resource_proto(name: &str, policy_json: &str, target: &FilterTarget) -> Any {
    let configuration =
        Any { type_url: STRING_TYPE.into(), value: StringValue { value: policy_json.into() }.encode_to_vec() };
    if let Some(module) = &target.native {
        let filter = DynamicModuleFilter {
            dynamic_module_config: Some(DynamicModuleConfig {
                name: "veil".into(),
                metrics_namespace: NATIVE_METRICS_NAMESPACE.into(),
                module: Some(AsyncDataSource {
                    specifier: Some(async_data_source::Specifier::Local(DataSource {
                        specifier: Some(data_source::Specifier::Filename(module.clone())),
                        ..Default::default()
                    })),
                }),
                ..Default::default()
            }),
            filter_name: "veil".into(),
            filter_config: Some(configuration),
            ..Default::default()
        };
        let extension = TypedExtensionConfig {
            name: name.into(),
            typed_config: Some(Any { type_url: NATIVE_TYPE.into(), value: filter.encode_to_vec() }),
        };
        return Any { type_url: ECDS_TYPE.into(), value: extension.encode_to_vec() };
    }
    let vm = VmConfig {
        vm_id: target.vm_id.clone(),
        runtime: "envoy.wasm.runtime.v8".into(),
        environment_variables: Some(EnvironmentVariables {
            host_env_keys: vec!["VEIL_VAULT_KEY".into()],
            ..Default::default()
        }),
        code: Some(AsyncDataSource {
            specifier: Some(async_data_source::Specifier::Local(DataSource {
                specifier: Some(data_source::Specifier::Filename(target.wasm.clone())),
                ..Default::default()
            })),
        }),
        ..Default::default()
    };
    let wasm = Wasm {
        config: Some(PluginConfig {
            name: "veil".into(),
            root_id: "veil".into(),
            allow_on_headers_stop_iteration: Some(BoolValue { value: true }),
            configuration: Some(configuration),
            vm: Some(plugin_config::Vm::VmConfig(vm)),
            ..Default::default()
        }),
    };
    let extension = TypedExtensionConfig {
        name: name.into(),
        typed_config: Some(Any { type_url: WASM_TYPE.into(), value: wasm.encode_to_vec() }),
    };
    Any { type_url: ECDS_TYPE.into(), value: extension.encode_to_vec() }
}

/// A policy file turned into the filter's JSON configuration: validated with the
/// filter's model, or (`unchecked`, for tests of Envoy's own rejection) only parsed
/// as YAML, so that an invalid policy reaches Envoy and is NACKed there.
/// The error is every issue, each `FILE:LINE:COLUMN: PATH: MESSAGE`.
fn policy_json(path: &Path, text: &str, unchecked: bool) -> Result<String, Vec<String>> {
    if unchecked {
        let value: Value =
            serde_norway::from_str(text).map_err(|e| vec![format!("{}: not YAML: {e}", path.display())])?;
        return serde_json::to_string(&value).map_err(|e| vec![e.to_string()]);
    }
    let compiled = crate::parse_policy(&path.display().to_string(), text)?;
    serde_json::to_string(&compiled.policy).map_err(|e| vec![e.to_string()])
}

fn digest(text: &str) -> String {
    let hash = Sha256::digest(text.as_bytes());
    hash.iter().take(4).map(|b| format!("{b:02x}")).collect()
}

fn log(msg: std::fmt::Arguments<'_>) {
    let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default();
    cli::err(format_args!("{}.{:03} veilctl xds: {msg}", now.as_secs(), now.subsec_millis()));
}

macro_rules! log {
    ($($t:tt)*) => { log(format_args!($($t)*)) };
}

/// One served resource: its policy JSON's digest and the encoded resource.
#[derive(Debug, Clone)]
struct Served {
    digest: String,
    resource: Any,
}

/// Everything being served, under one version; a new snapshot per push.
#[derive(Debug, Default)]
struct Snapshot {
    version: String,
    resources: BTreeMap<String, Served>,
}

/// Watches the policy directory (polling: portable, no inotify limits, and a policy
/// repository changes rarely) and publishes a snapshot when a rendered policy changes.
struct Watcher {
    dir: PathBuf,
    target: FilterTarget,
    unchecked: bool,
    /// Last bytes read per file, so an unchanged file is not re-validated.
    seen: HashMap<PathBuf, Vec<u8>>,
    /// The last good policy JSON per resource.
    good: BTreeMap<String, String>,
    pushes: u64,
}

impl Watcher {
    fn files(&self) -> Vec<PathBuf> {
        let mut files: Vec<PathBuf> = std::fs::read_dir(&self.dir)
            .map(|entries| entries.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        // Editors' and atomic writers' temporary files are hidden or end in `~`.
        files.retain(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or(".");
            !name.starts_with('.')
                && !name.ends_with('~')
                && matches!(p.extension().and_then(|e| e.to_str()), Some("yaml" | "yml" | "json"))
        });
        files.sort();
        files
    }

    /// Reads every changed file; returns a snapshot when what is served changed.
    fn poll(&mut self) -> Option<Snapshot> {
        let mut changed = false;
        let files = self.files();
        for path in &files {
            let Ok(bytes) = std::fs::read(path) else { continue };
            if self.seen.get(path) == Some(&bytes) {
                continue;
            }
            self.seen.insert(path.clone(), bytes.clone());
            let Some(name) = resource_name(path) else { continue };
            let text = String::from_utf8_lossy(&bytes);
            match policy_json(path, &text, self.unchecked) {
                Ok(json) if self.good.get(&name) == Some(&json) => {
                    log!("{}: no change to {name} (digest {})", path.display(), digest(&json));
                }
                Ok(json) => {
                    let how = if self.unchecked { "parsed (UNCHECKED)" } else { "valid" };
                    log!("{}: {how}; {name} digest {}", path.display(), digest(&json));
                    self.good.insert(name, json);
                    changed = true;
                }
                Err(issues) => {
                    let kept = match self.good.get(&name) {
                        Some(json) => format!("keeping {name} digest {}", digest(json)),
                        None => format!("{name} not served"),
                    };
                    // One log line: every issue, `; ` between them.
                    log!("policy rejected: {}; {kept}", issues.join("; "));
                }
            }
        }
        let gone: Vec<PathBuf> = self.seen.keys().filter(|p| !files.contains(p)).cloned().collect();
        for path in gone {
            self.seen.remove(&path);
            // Deleting a file never removes protection: the last good version stays.
            log!("{}: removed; its last good policy is still served", path.display());
        }
        if !changed {
            return None;
        }
        self.pushes += 1;
        let all: String = self.good.values().map(|j| digest(j)).collect();
        let version = format!("{}-{}", self.pushes, digest(&all));
        let resources = self
            .good
            .iter()
            .map(|(name, json)| {
                (name.clone(), Served { digest: digest(json), resource: resource_proto(name, json, &self.target) })
            })
            .collect();
        log!(
            "version {version}: {}",
            self.good.iter().map(|(n, j)| format!("{n}@{}", digest(j))).collect::<Vec<_>>().join(" ")
        );
        Some(Snapshot { version, resources })
    }
}

/// The ADS service: one task per Envoy stream, fed by the snapshot channel.
struct Ads {
    snapshots: watch::Receiver<Arc<Snapshot>>,
    streams: AtomicU64,
}

/// What a stream last sent, to match ACKs and NACKs to a version.
#[derive(Default)]
struct Sent {
    nonce: String,
    version: String,
    digests: BTreeMap<String, String>,
}

fn node_id(node: &Option<envoy_types::pb::envoy::config::core::v3::Node>) -> Option<String> {
    node.as_ref().map(|n| if n.id.is_empty() { "-".to_string() } else { n.id.clone() })
}

/// Envoy's rejection reason, one line and bounded (it names the filter and the
/// failure, e.g. "Unable to create Wasm plugin veil").
fn reason(status: &Option<envoy_types::pb::google::rpc::Status>) -> String {
    let msg = status.as_ref().map(|s| s.message.as_str()).unwrap_or("");
    msg.lines().next().unwrap_or("").chars().take(200).collect()
}

#[tonic::async_trait]
impl AggregatedDiscoveryService for Ads {
    type StreamAggregatedResourcesStream = ReceiverStream<Result<DiscoveryResponse, Status>>;
    type DeltaAggregatedResourcesStream = ReceiverStream<Result<DeltaDiscoveryResponse, Status>>;

    async fn stream_aggregated_resources(
        &self,
        request: Request<Streaming<DiscoveryRequest>>,
    ) -> Result<Response<Self::StreamAggregatedResourcesStream>, Status> {
        let id = self.streams.fetch_add(1, Ordering::Relaxed) + 1;
        let (tx, rx) = mpsc::channel(8);
        tokio::spawn(sotw_stream(id, request.into_inner(), self.snapshots.clone(), tx));
        Ok(Response::new(ReceiverStream::new(rx)))
    }

    async fn delta_aggregated_resources(
        &self,
        request: Request<Streaming<DeltaDiscoveryRequest>>,
    ) -> Result<Response<Self::DeltaAggregatedResourcesStream>, Status> {
        let id = self.streams.fetch_add(1, Ordering::Relaxed) + 1;
        let (tx, rx) = mpsc::channel(8);
        tokio::spawn(delta_stream(id, request.into_inner(), self.snapshots.clone(), tx));
        Ok(Response::new(ReceiverStream::new(rx)))
    }
}

/// State-of-the-world ADS: every response carries every subscribed resource.
async fn sotw_stream(
    id: u64,
    mut incoming: Streaming<DiscoveryRequest>,
    mut snapshots: watch::Receiver<Arc<Snapshot>>,
    tx: mpsc::Sender<Result<DiscoveryResponse, Status>>,
) {
    let mut node = String::from("?");
    let mut subscribed: Option<Vec<String>> = None;
    let mut sent = Sent::default();
    let mut nonces = 0u64;
    loop {
        let force = tokio::select! {
            message = incoming.message() => {
                let req = match message {
                    Ok(Some(req)) => req,
                    Ok(None) => { log!("stream {id} node={node}: closed"); return; }
                    Err(status) => { log!("stream {id} node={node}: ended: {}", status.code()); return; }
                };
                if let Some(n) = node_id(&req.node) {
                    node = n;
                }
                if req.type_url != ECDS_TYPE {
                    log!("stream {id} node={node}: type {} is not served", req.type_url);
                    continue;
                }
                if !req.response_nonce.is_empty() {
                    if req.response_nonce != sent.nonce {
                        continue; // stale: answers an older response; Envoy will catch up
                    }
                    if req.error_detail.is_some() {
                        log!("NACK stream {id} node={node} version={} nonce={} (Envoy keeps version {:?}): {}",
                            sent.version, req.response_nonce, req.version_info, reason(&req.error_detail));
                    } else {
                        log!("ACK stream {id} node={node} version={} nonce={}", req.version_info, req.response_nonce);
                    }
                }
                let mut names = req.resource_names.clone();
                names.sort();
                let first = req.response_nonce.is_empty();
                if subscribed.as_ref() == Some(&names) && !first {
                    continue; // an ACK or NACK: nothing new to send
                }
                log!("stream {id} node={node}: subscribes to [{}]", names.join(" "));
                subscribed = Some(names);
                true
            }
            changed = snapshots.changed() => {
                if changed.is_err() { return; }
                false
            }
        };
        let Some(names) = &subscribed else { continue };
        let snapshot = snapshots.borrow_and_update().clone();
        let mut resources = Vec::new();
        let mut digests = BTreeMap::new();
        for name in names {
            match snapshot.resources.get(name) {
                Some(served) => {
                    resources.push(served.resource.clone());
                    digests.insert(name.clone(), served.digest.clone());
                }
                None if force => log!("stream {id} node={node}: no policy file for {name}"),
                None => {}
            }
        }
        if resources.is_empty() || (!force && digests == sent.digests) {
            continue;
        }
        nonces += 1;
        let nonce = format!("{id}.{nonces}");
        let response = DiscoveryResponse {
            version_info: snapshot.version.clone(),
            resources,
            type_url: ECDS_TYPE.into(),
            nonce: nonce.clone(),
            ..Default::default()
        };
        log!("push stream {id} node={node} version={} nonce={nonce} [{}]", snapshot.version, describe(&digests));
        sent = Sent { nonce, version: snapshot.version.clone(), digests };
        if tx.send(Ok(response)).await.is_err() {
            return;
        }
    }
}

fn describe(digests: &BTreeMap<String, String>) -> String {
    digests.iter().map(|(n, d)| format!("{n}@{d}")).collect::<Vec<_>>().join(" ")
}

/// Incremental (delta) ADS: responses carry only resources whose version changed.
async fn delta_stream(
    id: u64,
    mut incoming: Streaming<DeltaDiscoveryRequest>,
    mut snapshots: watch::Receiver<Arc<Snapshot>>,
    tx: mpsc::Sender<Result<DeltaDiscoveryResponse, Status>>,
) {
    let mut node = String::from("?");
    let mut subscribed: Vec<String> = Vec::new();
    // Resource name → the digest (= resource version) Envoy has or was last sent.
    let mut known: BTreeMap<String, String> = BTreeMap::new();
    let mut pending: HashMap<String, String> = HashMap::new(); // nonce → version
    let mut nonces = 0u64;
    loop {
        tokio::select! {
            message = incoming.message() => {
                let req = match message {
                    Ok(Some(req)) => req,
                    Ok(None) => { log!("delta stream {id} node={node}: closed"); return; }
                    Err(status) => { log!("delta stream {id} node={node}: ended: {}", status.code()); return; }
                };
                if let Some(n) = node_id(&req.node) {
                    node = n;
                }
                if req.type_url != ECDS_TYPE {
                    log!("delta stream {id} node={node}: type {} is not served", req.type_url);
                    continue;
                }
                if !req.response_nonce.is_empty() {
                    let version = pending.remove(&req.response_nonce).unwrap_or_default();
                    if req.error_detail.is_some() {
                        log!("NACK delta stream {id} node={node} version={version} nonce={}: {}", req.response_nonce, reason(&req.error_detail));
                    } else {
                        log!("ACK delta stream {id} node={node} version={version} nonce={}", req.response_nonce);
                    }
                }
                for (name, version) in &req.initial_resource_versions {
                    known.insert(name.clone(), version.clone());
                }
                for name in &req.resource_names_unsubscribe {
                    subscribed.retain(|n| n != name);
                    known.remove(name);
                }
                let mut added = false;
                for name in &req.resource_names_subscribe {
                    if !subscribed.contains(name) {
                        subscribed.push(name.clone());
                        added = true;
                    }
                }
                if !added && req.initial_resource_versions.is_empty() {
                    continue;
                }
                log!("delta stream {id} node={node}: subscribes to [{}]", subscribed.join(" "));
            }
            changed = snapshots.changed() => {
                if changed.is_err() { return; }
            }
        }
        let snapshot = snapshots.borrow_and_update().clone();
        let mut resources = Vec::new();
        for name in &subscribed {
            let Some(served) = snapshot.resources.get(name) else { continue };
            if known.get(name) == Some(&served.digest) {
                continue;
            }
            known.insert(name.clone(), served.digest.clone());
            resources.push(Resource {
                name: name.clone(),
                version: served.digest.clone(),
                resource: Some(served.resource.clone()),
                ..Default::default()
            });
        }
        if resources.is_empty() {
            continue;
        }
        nonces += 1;
        let nonce = format!("d{id}.{nonces}");
        let names: Vec<String> = resources.iter().map(|r| format!("{}@{}", r.name, r.version)).collect();
        log!("push delta stream {id} node={node} version={} nonce={nonce} [{}]", snapshot.version, names.join(" "));
        pending.insert(nonce.clone(), snapshot.version.clone());
        let response = DeltaDiscoveryResponse {
            system_version_info: snapshot.version.clone(),
            resources,
            type_url: ECDS_TYPE.into(),
            nonce,
            ..Default::default()
        };
        if tx.send(Ok(response)).await.is_err() {
            return;
        }
    }
}

/// `veilctl xds serve`.
pub fn serve(args: &Args) -> Fallible {
    let listen: SocketAddr = args
        .get("listen")
        .unwrap_or("127.0.0.1:18000")
        .parse()
        .map_err(|e| Exit::Usage(format!("--listen needs an address such as 127.0.0.1:18000: {e}")))?;
    let poll = Duration::from_millis(
        args.get("poll-ms")
            .unwrap_or("250")
            .parse()
            .map_err(|_| Exit::Usage("--poll-ms needs a whole number of milliseconds".into()))?,
    );
    let dir = PathBuf::from(args.get("policies").unwrap_or("policies"));
    if !dir.is_dir() {
        return Err(format!("{}: not a directory", dir.display()).into());
    }
    let unchecked = args.flag("unchecked");
    if unchecked {
        log!("--unchecked: policies are NOT validated before they are pushed (for testing Envoy's rejection only)");
    }
    let mut watcher = Watcher {
        dir,
        target: FilterTarget::from_args(args),
        unchecked,
        seen: HashMap::new(),
        good: BTreeMap::new(),
        pushes: 0,
    };
    let first = watcher.poll().unwrap_or_default();
    let (publish, snapshots) = watch::channel(Arc::new(first));
    std::thread::spawn(move || loop {
        std::thread::sleep(poll);
        if let Some(snapshot) = watcher.poll() {
            if publish.send(Arc::new(snapshot)).is_err() {
                return;
            }
        }
    });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("tokio: {e}"))?;
    let served: Result<(), String> = runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(listen).await.map_err(|e| format!("{listen}: {e}"))?;
        log!(
            "ADS (gRPC, state of the world and delta) listening on {}",
            listener.local_addr().map_err(|e| e.to_string())?
        );
        let ads = Ads { snapshots, streams: AtomicU64::new(0) };
        let shutdown = async {
            let _ = tokio::signal::ctrl_c().await;
        };
        tonic::transport::Server::builder()
            .http2_keepalive_interval(Some(Duration::from_secs(30)))
            .serve_with_incoming_shutdown(
                AggregatedDiscoveryServiceServer::new(ads),
                TcpListenerStream::new(listener),
                shutdown,
            )
            .await
            .map_err(|e| format!("gRPC server: {e}"))
    });
    served.map_err(Exit::Failed)
}

/// `veilctl xds write FILE --out PATH`: the file for Envoy's file-based xDS
/// (`config_discovery` with a `path_config_source`), replaced atomically.
pub fn write(args: &Args) -> Fallible {
    let path = PathBuf::from(args.positional(0).ok_or_else(|| Exit::Usage("missing FILE".into()))?);
    let out = PathBuf::from(args.get("out").ok_or_else(|| Exit::Usage("--out PATH is required".into()))?);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let json = policy_json(&path, &text, false).map_err(|issues| {
        for issue in issues {
            cli::err(issue);
        }
        Exit::Reported
    })?;
    let name = match args.get("name") {
        Some(n) => n.to_string(),
        None => resource_name(&path).ok_or("policy file name")?,
    };
    let mut resource = resource_json(&name, &json, &FilterTarget::from_args(args));
    if let Some(obj) = resource.as_object_mut() {
        obj.insert("@type".into(), json!(ECDS_TYPE));
    }
    let version = digest(&json);
    let response = json!({"version_info": version, "resources": [resource]});
    let header = format!(
        "# The ECDS resource {name} for Envoy's file-based xDS, from {}.\n# Written by `veilctl xds write`; edit the policy, not this file.\n",
        path.display()
    );
    let rendered = header + &serde_norway::to_string(&response).map_err(|e| e.to_string())?;
    // Write beside the target, then rename over it: Envoy never reads half a file.
    let file_name = out.file_name().and_then(|n| n.to_str()).ok_or("--out needs a file name")?;
    let tmp = out.with_file_name(format!(".{file_name}.tmp"));
    std::fs::write(&tmp, rendered).map_err(|e| format!("{}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, &out).map_err(|e| format!("{}: {e}", out.display()))?;
    cli::err(format_args!("{}: {name} version {version} -> {}", path.display(), out.display()));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEFAULT: &str = include_str!("../../policies/default.yaml");
    const STRICT: &str = include_str!("../../policies/strict.yaml");

    fn target() -> FilterTarget {
        FilterTarget { wasm: "/opt/veil.wasm".into(), vm_id: "veil".into(), native: None }
    }

    fn scratch(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("veilctl-xds-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn watcher(dir: &Path, unchecked: bool) -> Watcher {
        Watcher { dir: dir.into(), target: target(), unchecked, seen: HashMap::new(), good: BTreeMap::new(), pushes: 0 }
    }

    #[test]
    fn the_grpc_resource_says_what_the_file_resource_says() {
        let json = r#"{"mode":"monitor"}"#;
        let any = resource_proto("veil.x", json, &target());
        assert_eq!(any.type_url, ECDS_TYPE);
        let ext = TypedExtensionConfig::decode(any.value.as_slice()).unwrap();
        let typed = ext.typed_config.unwrap();
        let config = Wasm::decode(typed.value.as_slice()).unwrap().config.unwrap();
        let configuration = config.configuration.unwrap();
        let Some(plugin_config::Vm::VmConfig(vm)) = config.vm else { panic!("no vm_config") };
        let Some(async_data_source::Specifier::Local(local)) = vm.code.unwrap().specifier else { panic!("no code") };
        let Some(data_source::Specifier::Filename(filename)) = local.specifier else { panic!("no filename") };

        let file = resource_json("veil.x", json, &target());
        let c = &file["typed_config"]["config"];
        assert_eq!(ext.name, file["name"]);
        assert_eq!(typed.type_url, file["typed_config"]["@type"]);
        assert_eq!(
            (config.name.as_str(), config.root_id.as_str()),
            (c["name"].as_str().unwrap(), c["root_id"].as_str().unwrap())
        );
        assert_eq!(configuration.type_url, c["configuration"]["@type"]);
        assert_eq!(StringValue::decode(configuration.value.as_slice()).unwrap().value, json);
        assert_eq!(vm.vm_id, c["vm_config"]["vm_id"]);
        assert_eq!(vm.runtime, c["vm_config"]["runtime"]);
        assert_eq!(filename, c["vm_config"]["code"]["local"]["filename"]);
        assert_eq!(vm.environment_variables.unwrap().host_env_keys, ["VEIL_VAULT_KEY"]);
    }

    #[test]
    fn a_resource_is_named_after_its_file() {
        assert_eq!(resource_name(Path::new("policies/strict.yaml")).as_deref(), Some("veil.strict"));
    }

    #[test]
    fn the_watcher_pushes_valid_changes_only_and_keeps_the_last_good_policy() {
        let dir = scratch("watch");
        let file = dir.join("default.yaml");
        let mut w = watcher(&dir, false);
        assert!(w.poll().is_none(), "nothing to serve yet");
        std::fs::write(&file, DEFAULT).unwrap();
        let first = w.poll().unwrap();
        assert!(first.version.starts_with("1-"));
        assert_eq!(first.resources.keys().collect::<Vec<_>>(), ["veil.default"]);
        assert!(w.poll().is_none(), "unchanged");
        // Same policy, other spelling: nothing new to push.
        std::fs::write(&file, format!("# a comment\n{DEFAULT}")).unwrap();
        assert!(w.poll().is_none());
        // Invalid: not pushed; the last good JSON stays.
        std::fs::write(&file, format!("{DEFAULT}\nnot_a_policy_field: 1\n")).unwrap();
        assert!(w.poll().is_none());
        assert_eq!(w.good["veil.default"], policy_json(&file, DEFAULT, false).unwrap());
        // Temporary files of editors and atomic writers are ignored.
        std::fs::write(dir.join(".strict.yaml.tmp"), STRICT).unwrap();
        std::fs::write(dir.join("strict.yaml~"), STRICT).unwrap();
        assert!(w.poll().is_none());
        std::fs::write(&file, STRICT).unwrap();
        let second = w.poll().unwrap();
        assert!(second.version.starts_with("2-"));
        assert_ne!(second.resources["veil.default"].digest, first.resources["veil.default"].digest);
        // Deleting the file does not remove protection.
        std::fs::remove_file(&file).unwrap();
        assert!(w.poll().is_none());
        assert!(w.good.contains_key("veil.default"));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn unchecked_pushes_what_validation_would_reject() {
        let dir = scratch("unchecked");
        std::fs::write(dir.join("default.yaml"), format!("{DEFAULT}\nnot_a_policy_field: 1\n")).unwrap();
        let snapshot = watcher(&dir, true).poll().unwrap();
        assert!(snapshot.resources.contains_key("veil.default"));
        assert!(watcher(&dir, false).poll().is_none());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
