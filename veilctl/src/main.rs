//! `veilctl`: the filter's engine and policy model, natively.
//!
//! Same detectors, same policy validation as `veil.wasm`, so what `veilctl scan` finds
//! and what `veilctl policy check` accepts is exactly what the gateway will do.

mod corpus;
mod eval;

use std::io::{self, BufRead, Read, Write};
use std::process::ExitCode;

use serde_json::{json, Value};
use veil::detect::{rules, Source};
use veil::policy::{CompiledPolicy, Policy};
use veil::token::{TokenMap, TokenMinter};

#[cfg(not(target_family = "wasm"))]
mod xds;

const USAGE: &str = "\
veilctl <command>

  scan [FILE|-] [--policy FILE] [--jsonl]
      Detect sensitive data in a text (default: stdin). Prints a JSON result with
      entities (type, label, UTF-16 and byte offsets, confidence, severity, source,
      rule_id; never the matched text), stats and a reliability score. With --jsonl,
      reads one JSON object per line with a \"text\" field and writes one result per line.
  anonymize [FILE|-] --mode redact|placeholder|tokenize [--policy FILE]
      Print the text with findings replaced by ****, [CATEGORY] or «token:CATEGORY:id»
      (tokenize uses VEIL_VAULT_KEY if set, else a random key).
  eval [--seed N] [--docs N] [--json] [--export FILE]
      The detection quality benchmark: generate the labeled synthetic evaluation set
      from the seed (default 42; 2000 documents plus 500 PII-free ones), scan it with
      the default policy plus the set's code and customer names, and print recall per
      category, precision and false positives on the PII-free documents. Exit 1 if a
      target is missed. --export writes the set as JSON lines (for other tools).
  eval --corpus [DIR] [--policy FILE] [--json] [--gate] [--gate-skip CAT,CAT]
      The realistic benchmark: documents written as people paste them (configs, code,
      logs, mails in many languages) with every expected value marked ⟦CATEGORY|value⟧,
      and clean hard-negative documents (default DIR: the crate's eval/ directory).
      Prints recall per category and per carrier, precision, false positives per 1,000
      clean documents (rule ids and file names, never values) and the largest classes
      of misses. Exit 0 unless --gate: then exit 1 if a category's recall < 0.95 or
      precision < 0.98; --gate-skip names categories reported but not gated.
  policy check FILE
      Validate a YAML (or JSON) policy with the filter's own model. Exit 1 on error,
      with the field path: `detectors.custom[0].pattern: …`.
  policy render FILE [--format json|ecds|istio]
      Render a policy as the filter's JSON configuration (default), an Envoy ECDS
      TypedExtensionConfig, or an Istio WasmPlugin manifest.
  xds serve [--policies DIR] [--listen ADDR] [--wasm PATH] [--vm-id ID] [--poll-ms N] [--unchecked]
      An ADS control plane (gRPC, state of the world and delta) on ADDR (default
      127.0.0.1:18000). Watches DIR (default policies/), validates each policy, and
      serves DIR/NAME.yaml as the ECDS resource `veil.NAME` (the filter with the policy
      as its configuration; code from PATH as Envoy sees it, default
      target/wasm32-wasip1/release/veil.wasm). Invalid policies are never pushed; the
      last good one stays. Logs every push, ACK and NACK with version and nonce.
      --unchecked skips validation so that Envoy's own rejection can be tested:
      never use it in production.
  xds write FILE --out PATH [--wasm PATH] [--vm-id ID] [--name NAME]
      Validate FILE and write it as a DiscoveryResponse for Envoy's file-based xDS
      (config_discovery with path_config_source), replacing PATH atomically.
";

type Fallible<T = ()> = Result<T, String>;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let after = |n: usize| args.get(n..).unwrap_or_default();
    let result = match args.first().map(String::as_str) {
        Some("scan") => scan(after(1)),
        Some("anonymize") => anonymize(after(1)),
        Some("eval") => evaluate(after(1)),
        Some("policy") => match args.get(1).map(String::as_str) {
            Some("check") => policy_check(after(2)),
            Some("render") => policy_render(after(2)),
            _ => Err(format!("usage:\n{USAGE}")),
        },
        #[cfg(not(target_family = "wasm"))]
        Some("xds") => match args.get(1).map(String::as_str) {
            Some("serve") => xds::serve(after(2)),
            Some("write") => xds::write(after(2)),
            _ => Err(format!("usage:\n{USAGE}")),
        },
        Some("-h" | "--help" | "help") => {
            print!("{USAGE}");
            Ok(())
        }
        _ => Err(format!("usage:\n{USAGE}")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("veilctl: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `--name value` options and positional arguments.
struct Args {
    positional: Vec<String>,
    options: Vec<(String, Option<String>)>,
}

impl Args {
    fn parse(args: &[String], flags: &[&str]) -> Fallible<Args> {
        let mut positional = Vec::new();
        let mut options = Vec::new();
        let mut it = args.iter();
        while let Some(arg) = it.next() {
            if let Some(name) = arg.strip_prefix("--") {
                if flags.contains(&name) {
                    options.push((name.to_string(), None));
                } else {
                    let value = it.next().ok_or_else(|| format!("--{name} needs a value"))?;
                    options.push((name.to_string(), Some(value.clone())));
                }
            } else {
                positional.push(arg.clone());
            }
        }
        Ok(Args { positional, options })
    }

    fn get(&self, name: &str) -> Option<&str> {
        self.options.iter().find(|(n, _)| n == name).and_then(|(_, v)| v.as_deref())
    }

    fn flag(&self, name: &str) -> bool {
        self.options.iter().any(|(n, _)| n == name)
    }

    fn check(&self, allowed: &[&str]) -> Fallible {
        match self.options.iter().find(|(n, _)| !allowed.contains(&n.as_str())) {
            Some((n, _)) => Err(format!("unknown option --{n}")),
            None => Ok(()),
        }
    }
}

fn read_input(path: Option<&str>) -> Fallible<Vec<u8>> {
    let mut data = Vec::new();
    match path {
        None | Some("-") => {
            io::stdin().read_to_end(&mut data).map_err(|e| format!("stdin: {e}"))?;
        }
        Some(p) => data = std::fs::read(p).map_err(|e| format!("{p}: {e}"))?,
    }
    Ok(data)
}

/// Loads a policy file (YAML or JSON) with the filter's model; errors carry the path
/// of the offending field, one per line, every one of them.
fn load_policy(path: &str) -> Fallible<CompiledPolicy> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    parse_policy(path, &text)
}

/// [`load_policy`] over text already read; `path` only names it in errors.
fn parse_policy(path: &str, text: &str) -> Fallible<CompiledPolicy> {
    let value: serde_json::Value = serde_norway::from_str(text).map_err(|e| format!("{path}: {e}"))?;
    CompiledPolicy::from_value(value)
        .map_err(|e| e.issues.iter().map(|issue| format!("{path}: {issue}")).collect::<Vec<_>>().join("\n"))
}

fn policy_or_default(args: &Args) -> Fallible<CompiledPolicy> {
    match args.get("policy") {
        Some(p) => load_policy(p),
        None => CompiledPolicy::from_json(b"").map_err(|e| e.to_string()),
    }
}

/// One detection result in the shape of a detection API (never the matched text).
fn scan_result(policy: &CompiledPolicy, text: &[u8]) -> Value {
    let findings = policy.engine().scan(text);
    let lossy = String::from_utf8_lossy(text);
    let utf8_valid = std::str::from_utf8(text).is_ok();
    // UTF-16 offset of every byte offset that starts a finding or ends one.
    let utf16 = |byte: usize| -> usize {
        match std::str::from_utf8(text) {
            Ok(t) => t.get(..byte).map_or(0, |p| p.encode_utf16().count()),
            Err(_) => String::from_utf8_lossy(text.get(..byte).unwrap_or_default()).encode_utf16().count(),
        }
    };
    let mut entities = Vec::new();
    let mut by_type = serde_json::Map::new();
    let mut severities = [0u32; 3];
    let (mut min, mut max, mut sum) = (1.0f64, 0.0f64, 0.0f64);
    let mut validated = 0;
    for f in &findings {
        let Some(rule) = policy.engine().rule(f.rule) else { continue };
        let severity = rule.severity;
        // Rounded to two decimals before the stats, so that they agree with the entities.
        let confidence = (f64::from(f.confidence) * 100.0).round() / 100.0;
        min = min.min(confidence);
        max = max.max(confidence);
        sum += confidence;
        if let Some(count) = severities.get_mut(severity as usize) {
            *count += 1;
        }
        validated += usize::from(rule.source == Source::Validated);
        let count = by_type.entry(rule.category.clone()).or_insert(json!(0));
        *count = json!(count.as_u64().unwrap_or(0) + 1);
        entities.push(json!({
            "type": rule.category,
            "label": rules::label(&rule.category),
            "start": utf16(f.start),
            "end": utf16(f.end),
            "byte_start": f.start,
            "byte_end": f.end,
            "confidence": confidence,
            "severity": severity.name(),
            "source": rule.source.name(),
            "rule_id": rule.id,
        }));
    }
    let n = entities.len();
    let avg = if n == 0 { 1.0 } else { sum / n as f64 };
    let binary =
        text.iter().filter(|&&b| b < 0x09 || (0x0e..0x20).contains(&b)).count() as f64 / text.len().max(1) as f64;
    let score = avg * if utf8_valid { 1.0 } else { 0.8 } * (1.0 - binary.min(1.0) * 0.5);
    json!({
        "entities": entities,
        "stats": {
            "total": n,
            "by_type": by_type,
            "confidence": if n == 0 { json!(null) } else { json!({"min": min, "max": max, "avg": (avg * 1000.0).round() / 1000.0}) },
            "severity": {"LOW": severities[0], "MEDIUM": severities[1], "HIGH": severities[2]},
        },
        "reliability": {
            "score": (score * 1000.0).round() / 1000.0,
            "signals": {
                "utf8_valid": utf8_valid,
                "binary_ratio": (binary * 1000.0).round() / 1000.0,
                "avg_confidence": (avg * 1000.0).round() / 1000.0,
                "validated_share": if n == 0 { json!(null) } else { json!((validated as f64 / n as f64 * 1000.0).round() / 1000.0) },
                "bytes": text.len(),
                "utf16_units": lossy.encode_utf16().count(),
            }
        }
    })
}

fn scan(raw: &[String]) -> Fallible {
    let args = Args::parse(raw, &["jsonl"])?;
    args.check(&["policy", "jsonl"])?;
    let policy = policy_or_default(&args)?;
    let stdout = io::stdout();
    let mut out = stdout.lock();
    if args.flag("jsonl") {
        let reader: Box<dyn BufRead> = match args.positional.first().map(String::as_str) {
            None | Some("-") => Box::new(io::BufReader::new(io::stdin())),
            Some(p) => Box::new(io::BufReader::new(std::fs::File::open(p).map_err(|e| format!("{p}: {e}"))?)),
        };
        for (i, line) in reader.split(b'\n').enumerate() {
            let line = line.map_err(|e| format!("line {}: {e}", i + 1))?;
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let result = match serde_json::from_slice::<Value>(&line) {
                Ok(v) => match v.get("text").and_then(Value::as_str) {
                    Some(text) => scan_result(&policy, text.as_bytes()),
                    None => json!({"error": {"code": "missing_text", "line": i + 1}}),
                },
                Err(e) => json!({"error": {"code": "invalid_json", "line": i + 1, "column": e.column()}}),
            };
            writeln!(out, "{result}").map_err(|e| e.to_string())?;
        }
        return Ok(());
    }
    let text = read_input(args.positional.first().map(String::as_str))?;
    let result = scan_result(&policy, &text);
    writeln!(out, "{}", serde_json::to_string_pretty(&result).map_err(|e| e.to_string())?).map_err(|e| e.to_string())
}

fn anonymize(raw: &[String]) -> Fallible {
    let args = Args::parse(raw, &[])?;
    args.check(&["policy", "mode"])?;
    let policy = policy_or_default(&args)?;
    let mode = args.get("mode").ok_or("--mode redact|placeholder|tokenize is required")?;
    if !matches!(mode, "redact" | "placeholder" | "tokenize") {
        return Err(format!("unknown --mode {mode}: redact, placeholder or tokenize"));
    }
    let text = read_input(args.positional.first().map(String::as_str))?;
    let mut key = [0u8; 32];
    match std::env::var("VEIL_VAULT_KEY") {
        Ok(hex) if hex.len() == 64 => {
            for (i, b) in key.iter_mut().enumerate() {
                *b = u8::from_str_radix(hex.get(2 * i..2 * i + 2).unwrap_or("00"), 16)
                    .map_err(|_| "VEIL_VAULT_KEY is not hex")?;
            }
        }
        _ => {
            let seed = std::collections::hash_map::RandomState::new();
            for (i, chunk) in key.chunks_mut(8).enumerate() {
                use std::hash::{BuildHasher, Hasher};
                let mut h = seed.build_hasher();
                h.write_usize(i);
                chunk.copy_from_slice(&h.finish().to_le_bytes());
            }
        }
    }
    let minter = TokenMinter::new(veil::vault::derive(&key, "veil/v1/token"));
    let mut tokens = TokenMap::default();
    let out = policy.engine().anonymize(&text, |rule, value| {
        match mode {
            "redact" => "****".to_string(),
            "placeholder" => format!("[{}]", rule.category),
            _ => tokens.issue(&minter, b"veilctl", &rule.category, value),
        }
        .into_bytes()
    });
    io::stdout().write_all(&out).map_err(|e| e.to_string())
}

fn evaluate(raw: &[String]) -> Fallible {
    if raw.iter().any(|a| a == "--corpus") {
        return evaluate_corpus(raw);
    }
    let args = Args::parse(raw, &["json"])?;
    args.check(&["seed", "docs", "json", "export"])?;
    let number = |name: &str, default: u64| -> Fallible<u64> {
        args.get(name).map_or(Ok(default), |v| v.parse().map_err(|_| format!("--{name} needs a number")))
    };
    let seed = number("seed", 42)?;
    let docs = usize::try_from(number("docs", 2000)?).map_err(|e| e.to_string())?;
    let (positive, negative) = eval::generate(seed, docs);
    if let Some(path) = args.get("export") {
        let mut all = positive.clone();
        all.extend(negative.iter().cloned());
        std::fs::write(path, eval::export(&all)).map_err(|e| format!("{path}: {e}"))?;
    }
    let mut policy = Policy::default();
    policy.detectors.code_names = eval::CODE_NAMES.iter().map(|s| s.to_string()).collect();
    policy.detectors.customer_names = eval::CUSTOMERS.iter().map(|s| s.to_string()).collect();
    let policy = CompiledPolicy::new(policy).map_err(|e| e.to_string())?;
    let started = std::time::Instant::now();
    let report = eval::score(policy.engine(), &positive, &negative);
    let elapsed = started.elapsed();
    let met = report.pointer("/targets/met").and_then(Value::as_bool).unwrap_or(false);
    if args.flag("json") {
        println!("{}", serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?);
    } else {
        let f = |p: &str| report.pointer(p).cloned().unwrap_or(Value::Null);
        println!(
            "seed {seed}: {} documents, {} PII-free, {} labels; scored in {:.0} ms",
            f("/documents"),
            f("/pii_free_documents"),
            f("/labels"),
            elapsed.as_secs_f64() * 1000.0
        );
        println!("{:<20} {:>8} {:>8} {:>8}", "category", "recall", "found", "labels");
        if let Some(recall) = report.get("recall").and_then(Value::as_object) {
            for (category, r) in recall {
                let target = if eval::STRUCTURED.contains(&category.as_str()) {
                    eval::STRUCTURED_RECALL
                } else if category == "PERSON" {
                    eval::PERSON_RECALL
                } else {
                    0.0
                };
                let value = r.get("recall").and_then(Value::as_f64).unwrap_or(0.0);
                let mark = if value >= target { "" } else { "  < target" };
                println!("{category:<20} {value:>8.4} {:>8} {:>8}{mark}", r["found"], r["labels"]);
            }
        }
        println!(
            "precision {} ({} true, {} false positives)",
            f("/precision"),
            f("/true_positives"),
            f("/false_positives")
        );
        println!("false positives on PII-free documents: {}", f("/false_positives_on_pii_free_documents"));
        println!("false positives by category: {}", f("/false_positives_by_category"));
        println!(
            "targets (structured recall >= {}, person >= {}, precision >= {}): {}",
            eval::STRUCTURED_RECALL,
            eval::PERSON_RECALL,
            eval::PRECISION,
            if met { "met" } else { "NOT met" }
        );
    }
    if met {
        Ok(())
    } else {
        Err("quality targets not met".into())
    }
}

/// `eval --corpus [DIR]`: `--corpus` takes the next argument as DIR unless it is an option.
fn evaluate_corpus(raw: &[String]) -> Fallible {
    let mut rest = Vec::new();
    let mut dir = None;
    let mut it = raw.iter().peekable();
    while let Some(arg) = it.next() {
        if arg == "--corpus" {
            if let Some(next) = it.peek() {
                if !next.starts_with("--") {
                    dir = it.next().cloned();
                }
            }
        } else {
            rest.push(arg.clone());
        }
    }
    let args = Args::parse(&rest, &["json", "gate"])?;
    args.check(&["policy", "json", "gate", "gate-skip"])?;
    if let Some(p) = args.positional.first() {
        return Err(format!("unexpected argument {p}: the directory follows --corpus"));
    }
    let dir = std::path::PathBuf::from(dir.unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/eval").to_string()));
    let policy = policy_or_default(&args)?;
    let (positive, clean) = corpus::load(&dir)?;
    let skip: Vec<String> =
        args.get("gate-skip").map(|s| s.split(',').map(|c| c.trim().to_string()).collect()).unwrap_or_default();
    let report = corpus::score(policy.engine(), &positive, &clean, &skip);
    if args.flag("json") {
        println!("{}", serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?);
    } else {
        print!("{}", corpus::render(&report, &dir));
    }
    if args.flag("gate") && !report.pointer("/gate/met").and_then(Value::as_bool).unwrap_or(false) {
        return Err("corpus gate not met".into());
    }
    Ok(())
}

fn policy_check(raw: &[String]) -> Fallible {
    let args = Args::parse(raw, &[])?;
    args.check(&[])?;
    let path = args.positional.first().ok_or("policy check FILE")?;
    let policy = load_policy(path)?;
    println!(
        "{path}: ok ({} routes, {} rules, {} detectors, mode {:?})",
        policy.policy.routes.len(),
        policy.policy.rules.len(),
        policy.engine().rules().len(),
        policy.policy.mode
    );
    Ok(())
}

fn policy_render(raw: &[String]) -> Fallible {
    let args = Args::parse(raw, &[])?;
    args.check(&["format"])?;
    let path = args.positional.first().ok_or("policy render FILE")?;
    let policy = load_policy(path)?.policy;
    let rendered = match args.get("format").unwrap_or("json") {
        "json" => serde_json::to_string_pretty(&policy).map_err(|e| e.to_string())?,
        #[cfg(target_family = "wasm")]
        "ecds" => return Err("--format ecds needs the native build of veilctl (its xDS types are native-only)".into()),
        #[cfg(not(target_family = "wasm"))]
        "ecds" => {
            let config = serde_json::to_string(&policy).map_err(|e| e.to_string())?;
            let target = xds::FilterTarget { wasm: "/etc/envoy/veil.wasm".into(), vm_id: "veil".into() };
            serde_norway::to_string(&xds::resource_json("veil", &config, &target)).map_err(|e| e.to_string())?
        }
        "istio" if policy.hold_headers => {
            return Err(format!(
                "{path}: hold_headers: Istio's WasmPlugin cannot set allow_on_headers_stop_iteration, \
                 so requests would stall; use hold_headers: false with Istio"
            ))
        }
        "istio" => serde_norway::to_string(&json!({
            "apiVersion": "extensions.istio.io/v1alpha1",
            "kind": "WasmPlugin",
            "metadata": {"name": "veil", "namespace": "istio-system"},
            "spec": {
                "selector": {"matchLabels": {"istio": "egressgateway"}},
                "url": "oci://registry.example.com/veil:0.1.0",
                "phase": "AUTHN",
                "failStrategy": "FAIL_CLOSE",
                "vmConfig": {"env": [{"name": "VEIL_VAULT_KEY", "valueFrom": "HOST"}]},
                "pluginConfig": serde_json::to_value(&policy).map_err(|e| e.to_string())?,
            },
        }))
        .map_err(|e| e.to_string())?,
        other => return Err(format!("unknown --format {other}: json, ecds or istio")),
    };
    println!("{}", rendered.trim_end());
    Ok(())
}
