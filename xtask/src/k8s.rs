//! The YAML we ship, read strictly, and the Kubernetes/Istio manifests in `deploy/`
//! checked against a hand-written schema of their kinds, offline.
//!
//! Strict: `serde_norway` refuses a mapping with a repeated key ("duplicate entry with
//! key …") where PyYAML and Envoy keep the last value and `kubectl apply` fails; every
//! document of a multi-document file is read that way.
//!
//! The schema is a subset of each API (Istio's `extensions.istio.io/v1alpha1`
//! `WasmPlugin` and `networking.istio.io` `Gateway`, `VirtualService`, `ServiceEntry`,
//! `DestinationRule`; core `Secret`; the Deployment patch we ship): the fields listed
//! here are fields of the API reference with their types and enum values, and any other
//! field fails, a real one we have not listed included (add it here after checking the
//! reference), so a misspelt or invented field never reaches a cluster.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;
use serde_norway::Value;

/// Every document of `text`, with duplicate keys refused; empty documents are skipped.
pub fn documents(text: &str) -> Result<Vec<Value>, String> {
    let mut docs = Vec::new();
    for document in serde_norway::Deserializer::from_str(text) {
        let value = Value::deserialize(document).map_err(|e| e.to_string())?;
        if !value.is_null() {
            docs.push(value);
        }
    }
    Ok(docs)
}

/// A field's type.
#[derive(Clone, Copy)]
pub enum Ty {
    Str,
    Int,
    Bool,
    /// 1..=65535.
    Port,
    /// A DNS-1123 subdomain: a Kubernetes object name.
    Name,
    /// Empty, or 64 lowercase hex digits (the WasmPlugin's `sha256`).
    Sha256,
    /// A protobuf duration as Istio takes it: `600s`, `1.5s`, `100ms`, `1h`.
    Duration,
    Enum(&'static [&'static str]),
    /// A mapping with exactly these fields (unknown ones fail).
    Obj(&'static [Field]),
    List(&'static Ty),
    /// A mapping from any string to values of one type (labels, annotations).
    Map(&'static Ty),
    /// A mapping not checked here (the WasmPlugin's `pluginConfig`: the filter's policy,
    /// checked by its own model in the tests).
    AnyMap,
}

#[derive(Clone, Copy)]
pub struct Field {
    pub name: &'static str,
    pub ty: Ty,
    pub required: bool,
}

const fn opt(name: &'static str, ty: Ty) -> Field {
    Field { name, ty, required: false }
}

const fn req(name: &'static str, ty: Ty) -> Field {
    Field { name, ty, required: true }
}

const STRS: Ty = Ty::List(&Ty::Str);
const LABELS: Ty = Ty::Map(&Ty::Str);

const METADATA: Ty =
    Ty::Obj(&[req("name", Ty::Name), opt("namespace", Ty::Name), opt("labels", LABELS), opt("annotations", LABELS)]);

// extensions.istio.io/v1alpha1 WasmPlugin (istio/api extensions/v1alpha1/wasm.proto).
const WASM_PLUGIN: &[Field] = &[
    opt("selector", Ty::Obj(&[opt("matchLabels", LABELS)])),
    opt(
        "targetRefs",
        Ty::List(&Ty::Obj(&[
            req("kind", Ty::Str),
            req("name", Ty::Str),
            opt("group", Ty::Str),
            opt("namespace", Ty::Str),
        ])),
    ),
    req("url", Ty::Str),
    opt("sha256", Ty::Sha256),
    opt("imagePullPolicy", Ty::Enum(&["UNSPECIFIED_POLICY", "IfNotPresent", "Always"])),
    opt("imagePullSecret", Ty::Name),
    opt("pluginConfig", Ty::AnyMap),
    opt("pluginName", Ty::Str),
    opt("phase", Ty::Enum(&["UNSPECIFIED_PHASE", "AUTHN", "AUTHZ", "STATS"])),
    opt("priority", Ty::Int),
    opt("failStrategy", Ty::Enum(&["FAIL_CLOSE", "FAIL_OPEN", "FAIL_RELOAD"])),
    opt(
        "vmConfig",
        Ty::Obj(&[opt(
            "env",
            Ty::List(&Ty::Obj(&[
                req("name", Ty::Str),
                opt("value", Ty::Str),
                opt("valueFrom", Ty::Enum(&["INLINE", "HOST"])),
            ])),
        )]),
    ),
    opt(
        "match",
        Ty::List(&Ty::Obj(&[
            opt("mode", Ty::Enum(&["UNDEFINED", "CLIENT", "SERVER", "CLIENT_AND_SERVER"])),
            opt("ports", Ty::List(&Ty::Obj(&[req("number", Ty::Port)]))),
        ])),
    ),
    opt("type", Ty::Enum(&["UNSPECIFIED_PLUGIN_TYPE", "HTTP", "NETWORK"])),
];

// networking.istio.io (istio/api networking/v1alpha3/*.proto; v1 and v1beta1 serve the
// same messages).
const PROTOCOL: Ty = Ty::Enum(&["HTTP", "HTTPS", "GRPC", "HTTP2", "MONGO", "TCP", "TLS"]);

const GATEWAY: &[Field] = &[
    opt("selector", LABELS),
    req(
        "servers",
        Ty::List(&Ty::Obj(&[
            req(
                "port",
                Ty::Obj(&[
                    req("number", Ty::Port),
                    req("protocol", PROTOCOL),
                    opt("name", Ty::Str),
                    opt("targetPort", Ty::Port),
                ]),
            ),
            req("hosts", STRS),
            opt("bind", Ty::Str),
            opt("name", Ty::Str),
            opt("defaultEndpoint", Ty::Str),
            opt(
                "tls",
                Ty::Obj(&[
                    opt("httpsRedirect", Ty::Bool),
                    opt(
                        "mode",
                        Ty::Enum(&[
                            "PASSTHROUGH",
                            "SIMPLE",
                            "MUTUAL",
                            "AUTO_PASSTHROUGH",
                            "ISTIO_MUTUAL",
                            "OPTIONAL_MUTUAL",
                        ]),
                    ),
                    opt("serverCertificate", Ty::Str),
                    opt("privateKey", Ty::Str),
                    opt("caCertificates", Ty::Str),
                    opt("credentialName", Ty::Str),
                    opt("subjectAltNames", STRS),
                ]),
            ),
        ])),
    ),
];

const STRING_MATCH: Ty = Ty::Obj(&[opt("exact", Ty::Str), opt("prefix", Ty::Str), opt("regex", Ty::Str)]);

const DESTINATION: Ty =
    Ty::Obj(&[req("host", Ty::Str), opt("subset", Ty::Str), opt("port", Ty::Obj(&[req("number", Ty::Port)]))]);

const HTTP_ROUTE: Ty = Ty::Obj(&[
    opt("name", Ty::Str),
    opt(
        "match",
        Ty::List(&Ty::Obj(&[
            opt("name", Ty::Str),
            opt("uri", STRING_MATCH),
            opt("scheme", STRING_MATCH),
            opt("method", STRING_MATCH),
            opt("authority", STRING_MATCH),
            opt("headers", Ty::Map(&STRING_MATCH)),
            opt("port", Ty::Port),
            opt("sourceLabels", LABELS),
            opt("gateways", STRS),
            opt("ignoreUriCase", Ty::Bool),
            opt("sourceNamespace", Ty::Str),
        ])),
    ),
    opt("route", Ty::List(&Ty::Obj(&[req("destination", DESTINATION), opt("weight", Ty::Int)]))),
    opt("timeout", Ty::Duration),
    opt("retries", Ty::Obj(&[opt("attempts", Ty::Int), opt("perTryTimeout", Ty::Duration), opt("retryOn", Ty::Str)])),
    opt("rewrite", Ty::Obj(&[opt("uri", Ty::Str), opt("authority", Ty::Str)])),
]);

const VIRTUAL_SERVICE: &[Field] =
    &[opt("hosts", STRS), opt("gateways", STRS), opt("http", Ty::List(&HTTP_ROUTE)), opt("exportTo", STRS)];

const SERVICE_ENTRY: &[Field] = &[
    req("hosts", STRS),
    opt("addresses", STRS),
    opt(
        "ports",
        Ty::List(&Ty::Obj(&[
            req("number", Ty::Port),
            req("name", Ty::Str),
            opt("protocol", PROTOCOL),
            opt("targetPort", Ty::Port),
        ])),
    ),
    opt("location", Ty::Enum(&["MESH_EXTERNAL", "MESH_INTERNAL"])),
    opt("resolution", Ty::Enum(&["NONE", "STATIC", "DNS", "DNS_ROUND_ROBIN"])),
    opt("exportTo", STRS),
    opt("subjectAltNames", STRS),
    opt("workloadSelector", Ty::Obj(&[opt("labels", LABELS)])),
];

const CLIENT_TLS: Ty = Ty::Obj(&[
    opt("mode", Ty::Enum(&["DISABLE", "SIMPLE", "MUTUAL", "ISTIO_MUTUAL"])),
    opt("clientCertificate", Ty::Str),
    opt("privateKey", Ty::Str),
    opt("caCertificates", Ty::Str),
    opt("credentialName", Ty::Str),
    opt("subjectAltNames", STRS),
    opt("sni", Ty::Str),
    opt("insecureSkipVerify", Ty::Bool),
    opt("caCrl", Ty::Str),
]);

const LOAD_BALANCER: Ty = Ty::Obj(&[opt(
    "simple",
    Ty::Enum(&["UNSPECIFIED", "RANDOM", "PASSTHROUGH", "ROUND_ROBIN", "LEAST_REQUEST", "LEAST_CONN"]),
)]);

const TRAFFIC_POLICY: Ty = Ty::Obj(&[
    opt("loadBalancer", LOAD_BALANCER),
    opt("tls", CLIENT_TLS),
    opt(
        "portLevelSettings",
        Ty::List(&Ty::Obj(&[
            req("port", Ty::Obj(&[req("number", Ty::Port)])),
            opt("loadBalancer", LOAD_BALANCER),
            opt("tls", CLIENT_TLS),
        ])),
    ),
]);

const DESTINATION_RULE: &[Field] = &[
    req("host", Ty::Str),
    opt("trafficPolicy", TRAFFIC_POLICY),
    opt(
        "subsets",
        Ty::List(&Ty::Obj(&[req("name", Ty::Str), opt("labels", LABELS), opt("trafficPolicy", TRAFFIC_POLICY)])),
    ),
    opt("exportTo", STRS),
    opt("workloadSelector", Ty::Obj(&[opt("matchLabels", LABELS)])),
];

// core/v1 EnvVar, as in a container of a Deployment's pod template.
const KEY_REF: Ty = Ty::Obj(&[req("key", Ty::Str), opt("name", Ty::Name), opt("optional", Ty::Bool)]);
const ENV_VAR: Ty = Ty::Obj(&[
    req("name", Ty::Str),
    opt("value", Ty::Str),
    opt(
        "valueFrom",
        Ty::Obj(&[
            opt("secretKeyRef", KEY_REF),
            opt("configMapKeyRef", KEY_REF),
            opt("fieldRef", Ty::Obj(&[req("fieldPath", Ty::Str), opt("apiVersion", Ty::Str)])),
        ]),
    ),
]);

/// The strategic-merge patch of a Deployment that adds environment to its containers.
const DEPLOYMENT_ENV_PATCH: Ty = Ty::Obj(&[req(
    "spec",
    Ty::Obj(&[req(
        "template",
        Ty::Obj(&[req(
            "spec",
            Ty::Obj(&[req("containers", Ty::List(&Ty::Obj(&[req("name", Ty::Name), req("env", Ty::List(&ENV_VAR))])))]),
        )]),
    )]),
)]);

/// The strategic-merge patch of a Deployment that annotates its pod template.
const DEPLOYMENT_ANNOTATION_PATCH: Ty = Ty::Obj(&[req(
    "spec",
    Ty::Obj(&[req("template", Ty::Obj(&[req("metadata", Ty::Obj(&[req("annotations", LABELS)]))]))]),
)]);

/// The fields of Istio's `ProxyConfig` (mesh/v1alpha1/proxy.proto) that the
/// `proxy.istio.io/config` annotation we ship sets.
const PROXY_CONFIG: Ty = Ty::Obj(&[
    opt(
        "proxyStatsMatcher",
        Ty::Obj(&[opt("inclusionPrefixes", STRS), opt("inclusionSuffixes", STRS), opt("inclusionRegexps", STRS)]),
    ),
    opt("extraStatTags", STRS),
]);

/// A kind of manifest: the apiVersions it is served as and its fields besides
/// `apiVersion`, `kind` and `metadata`.
pub struct Kind {
    pub api_versions: &'static [&'static str],
    pub kind: &'static str,
    pub fields: &'static [Field],
}

const ISTIO_NETWORKING: &[&str] =
    &["networking.istio.io/v1", "networking.istio.io/v1beta1", "networking.istio.io/v1alpha3"];

pub const KINDS: &[Kind] = &[
    Kind {
        api_versions: &["extensions.istio.io/v1alpha1"],
        kind: "WasmPlugin",
        fields: &[req("spec", Ty::Obj(WASM_PLUGIN))],
    },
    Kind { api_versions: ISTIO_NETWORKING, kind: "Gateway", fields: &[req("spec", Ty::Obj(GATEWAY))] },
    Kind { api_versions: ISTIO_NETWORKING, kind: "VirtualService", fields: &[req("spec", Ty::Obj(VIRTUAL_SERVICE))] },
    Kind { api_versions: ISTIO_NETWORKING, kind: "ServiceEntry", fields: &[req("spec", Ty::Obj(SERVICE_ENTRY))] },
    Kind { api_versions: ISTIO_NETWORKING, kind: "DestinationRule", fields: &[req("spec", Ty::Obj(DESTINATION_RULE))] },
    Kind {
        api_versions: &["v1"],
        kind: "Secret",
        fields: &[opt("type", Ty::Str), opt("data", LABELS), opt("stringData", LABELS), opt("immutable", Ty::Bool)],
    },
];

/// The files under `deploy/` that are patches, not manifests: (path from the root,
/// schema). Every other document there must be one of [`KINDS`].
pub const PATCHES: &[(&str, Ty)] = &[
    ("deploy/istio/egressgateway-vault-key.yaml", DEPLOYMENT_ENV_PATCH),
    ("deploy/istio/egressgateway-stats.yaml", DEPLOYMENT_ANNOTATION_PATCH),
];

/// The directories under `deploy/` that hold no Kubernetes manifests (Prometheus rule
/// and scrape files, a Grafana dashboard: `tests/e2e/test_observability.py` checks
/// them against a running gateway).
pub const NOT_MANIFESTS: &[&str] = &["deploy/observability"];

/// What is wrong with a manifest: its kind, every field against the kind's schema, and
/// the rules the API states beside its types. Empty when it is valid.
pub fn check_manifest(doc: &Value) -> Vec<String> {
    let mut errors = Vec::new();
    let api_version = doc.get("apiVersion").and_then(Value::as_str).unwrap_or_default();
    let kind_name = doc.get("kind").and_then(Value::as_str).unwrap_or_default();
    let Some(kind) = KINDS.iter().find(|k| k.kind == kind_name) else {
        return vec![format!("kind `{kind_name}` is not one this schema knows")];
    };
    if !kind.api_versions.contains(&api_version) {
        errors.push(format!("apiVersion `{api_version}` does not serve {kind_name} (one of {:?})", kind.api_versions));
    }
    let mut fields = vec![req("apiVersion", Ty::Str), req("kind", Ty::Str), req("metadata", METADATA)];
    fields.extend_from_slice(kind.fields);
    check_fields(&fields, doc, "", &mut errors);
    if kind_name == "WasmPlugin" {
        wasm_plugin_rules(doc, &mut errors);
    }
    errors
}

/// Every document of every YAML file under `root/deploy`, read strictly and checked:
/// a patch of [`PATCHES`] against its schema, anything else with [`check_manifest`].
/// Gives how many documents of each kind there are (patches as `patch`), or every error.
pub fn check_deploy(root: &Path) -> Result<BTreeMap<String, usize>, Vec<String>> {
    let mut files = Vec::new();
    let mut dirs = vec![root.join("deploy")];
    while let Some(dir) = dirs.pop() {
        let entries = std::fs::read_dir(&dir).map_err(|e| vec![format!("{}: {e}", dir.display())])?;
        for entry in entries {
            let path = entry.map_err(|e| vec![format!("{}: {e}", dir.display())])?.path();
            let rel = path.strip_prefix(root).unwrap_or(&path).to_string_lossy().replace('\\', "/");
            if path.is_dir() {
                if !NOT_MANIFESTS.contains(&rel.as_str()) {
                    dirs.push(path);
                }
            } else if path.extension().is_some_and(|e| e == "yaml" || e == "yml") {
                files.push(path);
            }
        }
    }
    files.sort();
    let (mut kinds, mut errors) = (BTreeMap::new(), Vec::new());
    for path in files {
        let name = path.strip_prefix(root).unwrap_or(&path).to_string_lossy().replace('\\', "/");
        let docs = std::fs::read_to_string(&path).map_err(|e| e.to_string()).and_then(|text| documents(&text));
        let docs = match docs {
            Ok(docs) => docs,
            Err(e) => {
                errors.push(format!("{name}: {e}"));
                continue;
            }
        };
        for doc in docs {
            let (what, found) = match PATCHES.iter().find(|(p, _)| *p == name) {
                Some((_, ty)) => {
                    let mut found = Vec::new();
                    check(*ty, &doc, "", &mut found);
                    proxy_config_rules(&doc, &mut found);
                    ("patch".to_string(), found)
                }
                None => (doc.get("kind").and_then(Value::as_str).unwrap_or("?").to_string(), check_manifest(&doc)),
            };
            errors.extend(found.into_iter().map(|e| format!("{name} ({what}): {e}")));
            *kinds.entry(what).or_default() += 1;
        }
    }
    if errors.is_empty() {
        Ok(kinds)
    } else {
        Err(errors)
    }
}

/// A pod template's `proxy.istio.io/config` annotation is a ProxyConfig in YAML: read
/// strictly and checked against [`PROXY_CONFIG`].
fn proxy_config_rules(doc: &Value, errors: &mut Vec<String>) {
    let annotation = doc
        .get("spec")
        .and_then(|s| s.get("template"))
        .and_then(|t| t.get("metadata"))
        .and_then(|m| m.get("annotations"))
        .and_then(|a| a.get("proxy.istio.io/config"));
    let Some(annotation) = annotation else { return };
    let path = "spec.template.metadata.annotations.proxy.istio.io/config";
    let Some(text) = annotation.as_str() else { return };
    match documents(text) {
        Ok(docs) => {
            for config in docs {
                check(PROXY_CONFIG, &config, path, errors);
            }
        }
        Err(e) => errors.push(format!("{path}: {e}")),
    }
}

/// The rules of wasm.proto beyond types: one of `selector` and `targetRefs`; `value`
/// only for an INLINE variable; a url scheme Istio fetches.
fn wasm_plugin_rules(doc: &Value, errors: &mut Vec<String>) {
    let spec = doc.get("spec");
    let field = |name: &str| spec.and_then(|s| s.get(name));
    if field("selector").is_some() && field("targetRefs").is_some() {
        errors.push("spec: only one of targetRefs or selector can be set".into());
    }
    let env = field("vmConfig").and_then(|v| v.get("env")).and_then(Value::as_sequence);
    for (i, var) in env.into_iter().flatten().enumerate() {
        if var.get("valueFrom").and_then(Value::as_str) == Some("HOST") && var.get("value").is_some() {
            errors.push(format!("spec.vmConfig.env[{i}]: value may only be set when valueFrom is INLINE"));
        }
    }
    if let Some(url) = field("url").and_then(Value::as_str) {
        let scheme = url.split_once("://").map(|(s, _)| s);
        if !matches!(scheme, None | Some("oci" | "http" | "https" | "file")) || url.is_empty() {
            errors.push(format!("spec.url: `{url}` must be an oci://, http(s):// or file:// url"));
        }
    }
}

fn check_fields(fields: &[Field], value: &Value, path: &str, errors: &mut Vec<String>) {
    let Some(map) = value.as_mapping() else {
        errors.push(format!("{}: expected a mapping", shown(path)));
        return;
    };
    for (key, item) in map {
        let Some(key) = key.as_str() else {
            errors.push(format!("{}: a key that is not a string", shown(path)));
            continue;
        };
        let here = if path.is_empty() { key.to_string() } else { format!("{path}.{key}") };
        match fields.iter().find(|f| f.name == key) {
            Some(field) => check(field.ty, item, &here, errors),
            None => errors.push(format!("{here}: unknown field")),
        }
    }
    for field in fields.iter().filter(|f| f.required && !map.contains_key(f.name)) {
        errors.push(format!("{}: missing required field `{}`", shown(path), field.name));
    }
}

fn shown(path: &str) -> &str {
    if path.is_empty() {
        "(document)"
    } else {
        path
    }
}

fn check(ty: Ty, value: &Value, path: &str, errors: &mut Vec<String>) {
    let text = value.as_str();
    let bad = |what: &str| format!("{path}: expected {what}, found {}", describe(value));
    match ty {
        Ty::Str if text.is_none() => errors.push(bad("a string")),
        Ty::Int if value.as_i64().is_none() => errors.push(bad("an integer")),
        Ty::Bool if value.as_bool().is_none() => errors.push(bad("true or false")),
        Ty::Port if !value.as_u64().is_some_and(|p| (1..=65535).contains(&p)) => errors.push(bad("a port number")),
        Ty::Name if !text.is_some_and(is_dns_subdomain) => errors.push(bad("a DNS-1123 name")),
        Ty::Sha256 if !text.is_some_and(|t| t.is_empty() || is_sha256_hex(t)) => {
            errors.push(bad("64 lowercase hex digits"))
        }
        Ty::Duration if !text.is_some_and(is_duration) => errors.push(bad("a duration such as 600s")),
        Ty::Enum(values) if !text.is_some_and(|t| values.contains(&t)) => {
            errors.push(bad(&format!("one of {values:?}")))
        }
        Ty::Obj(fields) => check_fields(fields, value, path, errors),
        Ty::List(item) => match value.as_sequence() {
            Some(items) => {
                for (i, v) in items.iter().enumerate() {
                    check(*item, v, &format!("{path}[{i}]"), errors);
                }
            }
            None => errors.push(bad("a list")),
        },
        Ty::Map(item) => match value.as_mapping() {
            Some(map) => {
                for (k, v) in map {
                    match k.as_str() {
                        Some(k) => check(*item, v, &format!("{path}.{k}"), errors),
                        None => errors.push(format!("{path}: a key that is not a string")),
                    }
                }
            }
            None => errors.push(bad("a mapping")),
        },
        Ty::AnyMap if value.as_mapping().is_none() => errors.push(bad("a mapping")),
        _ => {}
    }
}

fn describe(value: &Value) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => format!("{s:?}"),
        Value::Sequence(_) => "a list".into(),
        Value::Mapping(_) => "a mapping".into(),
        Value::Tagged(t) => format!("a value tagged {}", t.tag),
    }
}

pub fn is_sha256_hex(text: &str) -> bool {
    text.len() == 64 && text.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

fn is_dns_subdomain(name: &str) -> bool {
    let label_ok = |label: &str| {
        !label.is_empty()
            && label.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
            && !label.starts_with('-')
            && !label.ends_with('-')
    };
    name.len() <= 253 && name.split('.').all(label_ok)
}

/// `([0-9]+(\.[0-9]+)?(h|m|s|ms))+`.
fn is_duration(text: &str) -> bool {
    let mut rest = text;
    if rest.is_empty() {
        return false;
    }
    while !rest.is_empty() {
        let digits = rest.bytes().take_while(|b| b.is_ascii_digit() || *b == b'.').count();
        let (number, after) = rest.split_at(digits);
        let mut parts = number.split('.');
        let whole_ok = parts.next().is_some_and(|w| !w.is_empty());
        let fraction_ok = parts.next().is_none_or(|f| !f.is_empty()) && parts.next().is_none();
        let after_unit = ["ms", "h", "m", "s"].into_iter().find_map(|u| after.strip_prefix(u));
        match after_unit {
            Some(after_unit) if whole_ok && fraction_ok => rest = after_unit,
            _ => return false,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn root() -> PathBuf {
        crate::root()
    }

    /// Directories that hold data, not configuration we ship: the build output, the
    /// detector evaluation corpus (configs with planted secrets, some deliberately
    /// odd), the test data. Hidden directories are skipped, `.github` excepted.
    const NOT_SHIPPED: &[&str] = &["target", "veilctl/eval", "tests", "fuzz/target", "fuzz/corpus", "fuzz/artifacts"];

    fn shipped_yaml(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let rel = path.strip_prefix(root()).unwrap().to_string_lossy().replace('\\', "/");
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let meta = std::fs::symlink_metadata(&path).unwrap();
            if meta.is_dir() {
                let hidden = name.starts_with('.') && name != ".github";
                if !hidden && !NOT_SHIPPED.contains(&rel.as_str()) {
                    shipped_yaml(&path, out);
                }
            } else if meta.is_file() && (name.ends_with(".yaml") || name.ends_with(".yml")) {
                out.push(path);
            }
        }
    }

    fn all_shipped_yaml() -> Vec<(String, String)> {
        let mut paths = Vec::new();
        shipped_yaml(&root(), &mut paths);
        paths.sort();
        paths
            .into_iter()
            .map(|p| {
                let rel = p.strip_prefix(root()).unwrap().to_string_lossy().replace('\\', "/");
                (rel, std::fs::read_to_string(&p).unwrap())
            })
            .collect()
    }

    #[test]
    fn every_shipped_yaml_file_parses_with_no_repeated_key() {
        let files = all_shipped_yaml();
        let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
        for expected in [
            "deploy/istio/wasmplugin.yaml",
            "deploy/istio/egress.yaml",
            "deploy/istio/egressgateway-vault-key.yaml",
            "deploy/istio/egressgateway-stats.yaml",
            "deploy/observability/alerts.yaml",
            "envoy/gateway.yaml",
            "envoy/ecds/veil.default.yaml",
            "policies/default.yaml",
            "docker-compose.yml",
        ] {
            assert!(names.contains(&expected), "{expected} not found among {names:?}");
        }
        let failures: Vec<String> =
            files.iter().filter_map(|(name, text)| documents(text).err().map(|e| format!("{name}: {e}"))).collect();
        assert!(failures.is_empty(), "{failures:#?}");
    }

    #[test]
    fn a_repeated_key_fails_at_any_depth_and_in_any_document() {
        assert!(documents("a: 1\nb: 2\n").is_ok());
        let err = documents("a: 1\nb: 2\na: 3\n").unwrap_err();
        assert!(err.contains("duplicate"), "{err}");
        assert!(documents("spec:\n  url: x\n  selector: {}\n  url: y\n").is_err());
        assert!(documents("kind: A\n---\nkind: B\nx: {a: 1, a: 2}\n").is_err());
        assert_eq!(documents("kind: A\n---\n---\nkind: B\n").unwrap().len(), 2);
        // The WasmPlugin as it was shipped before: selector, url and vmConfig twice.
        let old = "spec:\n  selector: {matchLabels: {istio: egressgateway}}\n  url: oci://r/veil:1\n  \
                   pluginConfig: {}\n  selector: {matchLabels: {istio: egressgateway}}\n";
        assert!(documents(old).is_err());
    }

    #[test]
    fn every_document_under_deploy_matches_its_schema() {
        let kinds = check_deploy(&root()).unwrap_or_else(|errors| panic!("{errors:#?}"));
        let expected: Vec<(String, usize)> = [
            ("DestinationRule", 3),
            ("Gateway", 1),
            ("ServiceEntry", 1),
            ("VirtualService", 3),
            ("WasmPlugin", 1),
            ("patch", 2),
        ]
        .map(|(k, n)| (k.to_string(), n))
        .into();
        assert_eq!(kinds.into_iter().collect::<Vec<_>>(), expected);
    }

    #[test]
    fn the_vault_key_patch_takes_the_variable_the_wasmplugin_reads_from_a_secret() {
        let text = std::fs::read_to_string(root().join("deploy/istio/egressgateway-vault-key.yaml")).unwrap();
        let patch = documents(&text).unwrap().remove(0);
        let container = &patch["spec"]["template"]["spec"]["containers"][0];
        assert_eq!(container["name"].as_str(), Some("istio-proxy"));
        let var = &container["env"][0];
        assert_eq!(var["name"].as_str(), Some("VEIL_VAULT_KEY"));
        assert!(var["valueFrom"]["secretKeyRef"]["name"].as_str().is_some());
        let text = std::fs::read_to_string(root().join("deploy/istio/wasmplugin.yaml")).unwrap();
        let plugin = documents(&text).unwrap().remove(0);
        let env = plugin["spec"]["vmConfig"]["env"].as_sequence().unwrap();
        assert!(env
            .iter()
            .any(|v| v["name"].as_str() == Some("VEIL_VAULT_KEY") && v["valueFrom"].as_str() == Some("HOST")));
    }

    const PLUGIN: &str = "apiVersion: extensions.istio.io/v1alpha1\nkind: WasmPlugin\n\
                          metadata: {name: veil, namespace: istio-system}\n\
                          spec:\n  selector: {matchLabels: {istio: egressgateway}}\n  url: oci://r.example/veil:1.0.0\n  \
                          phase: AUTHN\n  failStrategy: FAIL_CLOSE\n  vmConfig: {env: [{name: K, valueFrom: HOST}]}\n  \
                          pluginConfig: {mode: enforce}\n";

    fn errors_of(yaml: &str) -> Vec<String> {
        check_manifest(&documents(yaml).unwrap().remove(0))
    }

    #[test]
    fn the_schema_refuses_what_the_api_does_not_have() {
        assert_eq!(errors_of(PLUGIN), Vec::<String>::new());
        let cases: &[(&str, &str, &str)] = &[
            ("  phase: AUTHN\n", "  phase: AUTHN\n  vmconfig: {}\n", "spec.vmconfig: unknown field"),
            ("FAIL_CLOSE", "FAIL_CLOSED", "spec.failStrategy"),
            ("valueFrom: HOST}", "valueFrom: HOST, value: x}", "value may only be set"),
            ("  phase: AUTHN\n", "  phase: AUTHN\n  sha256: sha256:abc\n", "spec.sha256"),
            ("  phase: AUTHN\n", "  phase: AUTHN\n  targetRefs: [{kind: Gateway, name: g}]\n", "only one of"),
            ("  url: oci://r.example/veil:1.0.0\n", "", "missing required field `url`"),
            ("url: oci://", "url: ftp://", "spec.url"),
            ("extensions.istio.io/v1alpha1", "networking.istio.io/v1", "apiVersion"),
            ("name: veil,", "name: Veil_Plugin,", "metadata.name"),
            ("pluginConfig: {mode: enforce}", "pluginConfig: [enforce]", "spec.pluginConfig"),
        ];
        for (from, to, expected) in cases {
            assert!(PLUGIN.contains(from), "{from}");
            let errors = errors_of(&PLUGIN.replacen(from, to, 1));
            assert!(errors.iter().any(|e| e.contains(expected)), "{to}: {errors:?}");
        }
        let rule = "apiVersion: networking.istio.io/v1\nkind: DestinationRule\nmetadata: {name: r}\n\
                    spec:\n  host: api.openai.com\n  trafficPolicy:\n    portLevelSettings:\n    \
                    - port: {number: 443}\n      tls: {mode: SIMPLE, sni: api.openai.com}\n";
        assert_eq!(errors_of(rule), Vec::<String>::new());
        for (from, to, expected) in [
            ("number: 443", "number: \"443\"", "expected a port number"),
            ("mode: SIMPLE", "mode: TLS", "tls.mode"),
            ("sni:", "serverName:", "tls.serverName: unknown field"),
            ("kind: DestinationRule", "kind: DestinationRules", "not one this schema knows"),
        ] {
            let errors = errors_of(&rule.replacen(from, to, 1));
            assert!(errors.iter().any(|e| e.contains(expected)), "{to}: {errors:?}");
        }
        let secret = "apiVersion: v1\nkind: Secret\nmetadata: {name: veil-vault-key, namespace: istio-system}\n\
                      type: Opaque\nstringData: {VEIL_VAULT_KEY: x}\n";
        assert_eq!(errors_of(secret), Vec::<String>::new());
        assert!(errors_of(&format!("{secret}spec: {{}}\n")).iter().any(|e| e.contains("spec: unknown field")));
    }

    #[test]
    fn the_proxy_config_annotation_has_only_proxy_config_fields() {
        let patch = |config: &str| {
            let yaml = format!(
                "spec:\n  template:\n    metadata:\n      annotations:\n        proxy.istio.io/config: '{config}'\n"
            );
            let doc = documents(&yaml).unwrap().remove(0);
            let mut errors = Vec::new();
            check(DEPLOYMENT_ANNOTATION_PATCH, &doc, "", &mut errors);
            proxy_config_rules(&doc, &mut errors);
            errors
        };
        assert_eq!(patch("{extraStatTags: [a], proxyStatsMatcher: {inclusionPrefixes: [x.]}}"), Vec::<String>::new());
        assert!(patch("{extraStatTag: [a]}").iter().any(|e| e.contains("extraStatTag: unknown field")));
        assert!(patch("{proxyStatsMatcher: {inclusionPrefix: [x]}}").iter().any(|e| e.contains("unknown field")));
        assert!(patch("{extraStatTags: a}").iter().any(|e| e.contains("extraStatTags")));
    }

    #[test]
    fn durations_and_names() {
        for ok in ["600s", "1.5s", "100ms", "1h30m", "0s"] {
            assert!(is_duration(ok), "{ok}");
        }
        for bad in ["", "600", "s", "1.s", ".5s", "10 s", "5d", "1..2s"] {
            assert!(!is_duration(bad), "{bad}");
        }
        assert!(is_dns_subdomain("istio-system") && is_dns_subdomain("veil.v1"));
        assert!(!is_dns_subdomain("-a") && !is_dns_subdomain("A") && !is_dns_subdomain("a..b"));
    }
}
