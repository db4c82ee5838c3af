//! `veilctl`: the filter's engine and policy model, natively.
//!
//! Same detectors, same policy validation as `veil.wasm`, so what `veilctl scan` finds
//! and what `veilctl policy check` accepts is exactly what the gateway will do.
//!
//! Each command is a [`Spec`] (its options, help and when it exits 1) and a function
//! over the parsed [`Args`]; `cli` parses, prints help and maps results to exit codes.

mod cli;
mod corpus;
mod eval;
mod locate;
mod scan;
#[cfg(not(target_family = "wasm"))]
mod xds;

use std::io::{self, BufRead, Read};

use cli::{err, out, Args, Exit, Fallible, Opt, Spec, Takes};
use serde_json::{json, Value};
use veil_core::policy::{CompiledPolicy, Policy};
use veil_core::token::{TokenMap, TokenMinter};
use veil_detect::catalog;
use veil_detect::category::{self, Severity};

const POLICY_OPT: Opt = Opt {
    name: "policy",
    takes: Takes::Value("FILE"),
    help: "Use this policy's detectors (default: the built-in policy)",
};

const SCAN: Spec = Spec {
    name: "scan",
    summary: "Detect sensitive data in files; print where it is (JSON, text or SARIF), never the text",
    usage: "scan [FILE|-]... [--policy FILE] [--format json|text|sarif] [--fail-on LOW|MEDIUM|HIGH] [--jsonl]",
    about: "\
Detect sensitive data in files (default: standard input; `-` is standard input too).
What the policy allows (its action `allow`) is not reported. Never prints the matched
text. Formats:
  json   (default) one JSON result per input: entities (type, label, UTF-16 and byte
         offsets, line and column, confidence, severity, source, rule_id, the policy's
         action), stats and a reliability score; with several inputs, a JSON array of
         {\"path\": …, \"result\": …}
  text   one line per finding: path:line:column: SEVERITY CATEGORY (label) rule_id
         confidence action (columns in UTF-16 code units, as SARIF counts)
  sarif  a SARIF 2.1.0 log for code-scanning tools (GitHub, GitLab, IDEs): a result
         per finding with its region, a rule descriptor per rule that found one
With --jsonl, reads one JSON object per line with a \"text\" field and writes one JSON
result per line; a bad line yields {\"error\":{\"code\":\"invalid_json\"|\"missing_text\",
\"line\":N}} in its place. Positions are computed in one pass per input: a file with
tens of thousands of findings scans in linear time.",
    options: &[
        POLICY_OPT,
        Opt { name: "format", takes: Takes::Value("json|text|sarif"), help: "Output format (default json)" },
        Opt {
            name: "fail-on",
            takes: Takes::Value("SEVERITY"),
            help: "Exit 1 if a finding of this severity or higher is reported (LOW, MEDIUM, HIGH)",
        },
        Opt {
            name: "jsonl",
            takes: Takes::Nothing,
            help: "One {\"text\": …} object per line in, one JSON result per line out",
        },
    ],
    positional: &["[FILE|-]..."],
    fails: "the policy is invalid, an input cannot be read, or --fail-on is given and a finding at or above \
            its severity is reported",
};

const ANONYMIZE: Spec = Spec {
    name: "anonymize",
    summary: "Print a text with what was found redacted, masked or tokenized",
    usage: "anonymize [FILE|-] --mode redact|placeholder|tokenize [--policy FILE]",
    about: "\
Print the text (default: standard input) with every occurrence of a found value
replaced by ****, [CATEGORY] or «token:CATEGORY:id» (tokenize uses VEIL_VAULT_KEY, 64
hex digits, if set, else a random key).",
    options: &[
        Opt {
            name: "mode",
            takes: Takes::Value("MODE"),
            help: "redact (****), placeholder ([CATEGORY]) or tokenize (required)",
        },
        POLICY_OPT,
    ],
    positional: &["[FILE|-]"],
    fails: "the policy is invalid, the input cannot be read, or VEIL_VAULT_KEY is not hex",
};

const EVAL: Spec = Spec {
    name: "eval",
    summary: "The detection quality benchmarks: the seeded synthetic set, or the realistic corpus",
    usage: "eval [--seed N] [--docs N] [--json] [--export FILE]\n       veilctl eval --corpus [DIR] [--policy FILE] [--json] [--gate] [--gate-skip CAT,CAT]",
    about: "\
Without --corpus: generate the labeled synthetic evaluation set from the seed (2000
documents by default, plus 500 PII-free ones), scan it with the default policy plus
the set's code and customer names, and print recall per category, precision and false
positives on the PII-free documents. Exits 1 if a target is missed.

With --corpus: the realistic benchmark, documents written as people paste them
(configs, code, logs, mails in many languages) with every expected value marked
⟦CATEGORY|value⟧, and clean hard-negative documents (default DIR: the crate's eval/
directory). Prints recall per category and per carrier, precision, false positives per
1,000 clean documents (rule ids and file names, never values) and the largest classes
of misses. Exits 0 unless --gate is given and a category's recall < 0.95 or precision
< 0.98.",
    options: &[
        Opt { name: "seed", takes: Takes::Value("N"), help: "Seed of the synthetic set (default 42)" },
        Opt { name: "docs", takes: Takes::Value("N"), help: "Documents in the synthetic set (default 2000)" },
        Opt { name: "export", takes: Takes::Value("FILE"), help: "Also write the synthetic set as JSON lines" },
        Opt { name: "corpus", takes: Takes::Optional("DIR"), help: "Evaluate on the realistic corpus in DIR" },
        Opt { name: "policy", takes: Takes::Value("FILE"), help: "With --corpus: scan with this policy" },
        Opt { name: "gate", takes: Takes::Nothing, help: "With --corpus: exit 1 if a target is missed" },
        Opt { name: "gate-skip", takes: Takes::Value("CAT,CAT"), help: "With --gate: categories reported but not gated" },
        Opt { name: "json", takes: Takes::Nothing, help: "Print the report as JSON" },
    ],
    positional: &[],
    fails: "a quality target is missed (synthetic set), the gate is not met (--corpus --gate), or the corpus or policy cannot be read",
};

const RULES: Spec = Spec {
    name: "rules",
    summary: "List the built-in detector rules: every id detectors.disable accepts",
    usage: "rules [--json]",
    about: "\
List every built-in detector rule: its id, category, severity and what it needs to
report a match — the context words it only runs near, the dictionary it matches, the
check that confirms a match (Luhn, ISO 13616 mod 97, …), and whether the policy's
internal_domains extend it. Any id or category listed can go in a policy's
detectors.disable. With --json, a JSON array of objects with id, category, label,
severity, near, dictionary, validator and internal_domains.",
    options: &[Opt { name: "json", takes: Takes::Nothing, help: "Print a JSON array" }],
    positional: &[],
    fails: "standard output cannot be written",
};

const POLICY_CHECK: Spec = Spec {
    name: "policy check",
    summary: "Validate a policy; every issue with its line, column and field path",
    usage: "policy check FILE",
    about: "\
Validate a YAML (or JSON) policy with the filter's own model. A valid policy prints
`FILE: ok (…)` on standard output. Otherwise every issue goes to standard error, one
per line, as FILE:LINE:COLUMN: PATH: MESSAGE (`detectors.custom[0] (acme.id): invalid
pattern: …`), with \"did you mean\" for a misspelt field, value, rule id or category
(`veilctl rules` lists the rule ids). Messages quote names and numbers, never text a
policy holds (patterns, word lists, header values).",
    options: &[],
    positional: &["FILE"],
    fails: "the policy is invalid (every issue is listed), or the file cannot be read",
};

const POLICY_RENDER: Spec = Spec {
    name: "policy render",
    summary: "Render a policy as the filter's JSON, an ECDS resource or an Istio WasmPlugin",
    usage: "policy render FILE [--format json|ecds|istio]",
    about: "\
Render a policy as the filter's JSON configuration (default), an Envoy ECDS
TypedExtensionConfig, or an Istio WasmPlugin manifest, on standard output. The policy
is validated first; an invalid one is reported as `policy check` does.",
    options: &[Opt { name: "format", takes: Takes::Value("FORMAT"), help: "json (default), ecds or istio" }],
    positional: &["FILE"],
    fails: "the policy is invalid, or cannot be rendered for Istio (hold_headers: true)",
};

const XDS_SERVE: Spec = Spec {
    name: "xds serve",
    summary: "The xDS control plane: serve a directory of policies to Envoy over ADS",
    usage: "xds serve [--policies DIR] [--listen ADDR] [--wasm PATH | --native PATH] [--vm-id ID] [--poll-ms N] [--unchecked]",
    about: "\
An ADS control plane (gRPC, state of the world and delta) on ADDR. Watches DIR,
validates each policy, and serves DIR/NAME.yaml as the ECDS resource `veil.NAME` (the
filter with the policy as its configuration; code from PATH as Envoy sees it). Invalid
policies are never pushed; the last good one stays. Logs every push, ACK and NACK with
version and nonce on standard error. Runs until interrupted (Ctrl-C).",
    options: &[
        Opt { name: "policies", takes: Takes::Value("DIR"), help: "The policy directory (default policies/)" },
        Opt { name: "listen", takes: Takes::Value("ADDR"), help: "Address to listen on (default 127.0.0.1:18000)" },
        Opt {
            name: "wasm",
            takes: Takes::Value("PATH"),
            help: "The filter's code as Envoy sees it (default target/wasm32-wasip1/release/veil.wasm)",
        },
        Opt {
            name: "native",
            takes: Takes::Value("PATH"),
            help: "Serve the native module (libveil.so, Envoy's dynamic modules) at PATH instead",
        },
        Opt { name: "vm-id", takes: Takes::Value("ID"), help: "The Wasm VM id (default veil)" },
        Opt { name: "poll-ms", takes: Takes::Value("N"), help: "How often DIR is read, in ms (default 250)" },
        Opt {
            name: "unchecked",
            takes: Takes::Nothing,
            help: "Skip validation, to test Envoy's own rejection; never in production",
        },
    ],
    positional: &[],
    fails: "DIR is not a directory, ADDR cannot be bound, or the server fails",
};

const XDS_WRITE: Spec = Spec {
    name: "xds write",
    summary: "Write a policy as a DiscoveryResponse file for Envoy's file-based xDS",
    usage: "xds write FILE --out PATH [--wasm PATH | --native PATH] [--vm-id ID] [--name NAME]",
    about: "\
Validate FILE and write it as a DiscoveryResponse for Envoy's file-based xDS
(config_discovery with path_config_source), replacing PATH atomically.",
    options: &[
        Opt { name: "out", takes: Takes::Value("PATH"), help: "The file to write (required)" },
        Opt { name: "wasm", takes: Takes::Value("PATH"), help: "The filter's code as Envoy sees it" },
        Opt { name: "native", takes: Takes::Value("PATH"), help: "The native module (libveil.so) at PATH instead" },
        Opt { name: "vm-id", takes: Takes::Value("ID"), help: "The Wasm VM id (default veil)" },
        Opt { name: "name", takes: Takes::Value("NAME"), help: "The resource name (default veil.<file stem>)" },
    ],
    positional: &["FILE"],
    fails: "the policy is invalid, or PATH cannot be written",
};

/// Every command, in the order the overview lists them.
const COMMANDS: &[&Spec] = &[&SCAN, &ANONYMIZE, &EVAL, &RULES, &POLICY_CHECK, &POLICY_RENDER, &XDS_SERVE, &XDS_WRITE];

/// Commands that take a subcommand.
const GROUPS: &[&str] = &["policy", "xds"];

fn version() -> String {
    format!("veilctl {}\n", env!("CARGO_PKG_VERSION"))
}

/// `veilctl --help`.
fn overview() -> String {
    let mut text = format!(
        "veilctl {}: Veil's detectors and policy model on the command line, the same as the
filter's (what `scan` finds and `policy check` accepts is what the gateway does).

usage: veilctl COMMAND [ARGS] [OPTIONS]

commands:
",
        env!("CARGO_PKG_VERSION")
    );
    for spec in COMMANDS {
        text.push_str(&format!("  {:<15} {}\n", spec.name, spec.summary));
    }
    text.push_str(&format!("  {:<15} {}\n", "help [COMMAND]", "The help of a command (or: veilctl COMMAND --help)"));
    text.push_str(
        "
options:
  -h, --help      Print this help
  -V, --version   Print the version

",
    );
    text.push_str(cli::EXIT_CODES);
    text
}

/// `veilctl policy --help`.
fn group_help(group: &str) -> String {
    let specs: Vec<&&Spec> = COMMANDS.iter().filter(|s| s.name.split(' ').next() == Some(group)).collect();
    let names: Vec<&str> = specs.iter().filter_map(|s| s.name.split(' ').nth(1)).collect();
    let mut text = format!("usage: veilctl {group} {} ...\n\ncommands:\n", names.join("|"));
    for spec in specs {
        text.push_str(&format!("  {:<15} {}\n", spec.name, spec.summary));
    }
    text.push_str(&format!("\nRun `veilctl {group} COMMAND --help` for a command's arguments and options.\n\n"));
    text.push_str(cli::EXIT_CODES);
    text
}

fn main() -> std::process::ExitCode {
    let raw: Vec<String> = std::env::args().skip(1).collect();
    let (spec, result) = dispatch(&raw);
    cli::finish(result, spec)
}

/// The command a command line names, and its result.
fn dispatch(raw: &[String]) -> (Option<&'static Spec>, Fallible) {
    let word = |i: usize| raw.get(i).map(String::as_str);
    let (name, rest) = match word(0) {
        None => return (None, Err(Exit::Usage(format!("a command is needed\n\n{}", overview())))),
        Some("-h" | "--help") => return (None, Err(Exit::Help(overview()))),
        Some("-V" | "--version") => return (None, Err(Exit::Help(version()))),
        Some("help") => return (None, help(raw.get(1..).unwrap_or_default())),
        Some(group) if GROUPS.contains(&group) => match word(1) {
            None => return (None, Err(Exit::Usage(format!("{group} needs a command\n\n{}", group_help(group))))),
            Some("-h" | "--help") => return (None, Err(Exit::Help(group_help(group)))),
            Some(sub) => {
                match COMMANDS.iter().copied().find(|s| s.name.strip_prefix(group) == Some(&format!(" {sub}"))) {
                    Some(spec) => return (Some(spec), run(spec, raw.get(2..).unwrap_or_default())),
                    None => {
                        let subs = COMMANDS.iter().filter_map(|s| s.name.strip_prefix(group)?.strip_prefix(' '));
                        let hint = veil_detect::suggest::closest(sub, subs)
                            .map(|c| format!("; did you mean `{c}`?"))
                            .unwrap_or_default();
                        let message = format!("unknown {group} command {}{hint}", cli::shown(sub));
                        return (None, Err(Exit::Usage(message)));
                    }
                }
            }
        },
        Some(command) => (command.to_string(), raw.get(1..).unwrap_or_default()),
    };
    let Some(spec) = COMMANDS.iter().copied().find(|s| s.name == name) else {
        return (None, Err(unknown_command(&name)));
    };
    (Some(spec), run(spec, rest))
}

fn unknown_command(name: &str) -> Exit {
    let names = COMMANDS.iter().map(|s| s.name).filter(|n| !n.contains(' ')).chain(GROUPS.iter().copied());
    let hint = veil_detect::suggest::closest(name, names).map(|c| format!("; did you mean `{c}`?")).unwrap_or_default();
    Exit::Usage(format!("unknown command {}{hint}", cli::shown(name)))
}

/// `veilctl help [COMMAND]`.
fn help(words: &[String]) -> Fallible {
    let name = words.join(" ");
    if name.is_empty() {
        return Err(Exit::Help(overview()));
    }
    if GROUPS.contains(&name.as_str()) {
        return Err(Exit::Help(group_help(&name)));
    }
    match COMMANDS.iter().find(|s| s.name == name) {
        Some(spec) => Err(Exit::Help(spec.help())),
        None => Err(unknown_command(&name)),
    }
}

fn run(spec: &Spec, raw: &[String]) -> Fallible {
    let args = Args::parse(spec, raw)?;
    match spec.name {
        "scan" => scan(&args),
        "anonymize" => anonymize(&args),
        "eval" => evaluate(&args),
        "rules" => list_rules(&args),
        "policy check" => policy_check(&args),
        "policy render" => policy_render(&args),
        #[cfg(not(target_family = "wasm"))]
        "xds serve" => xds::serve(&args),
        #[cfg(not(target_family = "wasm"))]
        "xds write" => xds::write(&args),
        other => Err(Exit::Failed(format!("{other} is not available in this build"))),
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

/// Loads a policy file (YAML or JSON) with the filter's model. If it is invalid,
/// every issue is reported on standard error (see [`parse_policy`]).
fn load_policy(path: &str) -> Fallible<CompiledPolicy> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    parse_policy(path, &text).map_err(|issues| {
        let count = issues.len();
        for issue in issues {
            err(issue);
        }
        err(format_args!("veilctl: {path}: {count} {}; the policy is not valid", plural(count, "issue")));
        Exit::Reported
    })
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        word.to_string()
    } else {
        format!("{word}s")
    }
}

/// [`load_policy`] over text already read; `name` names it in the issues. Every
/// issue, one per line in the order of the text, as `NAME:LINE:COLUMN: PATH:
/// MESSAGE` (`NAME: PATH: MESSAGE` where the path is not in the text, a field left
/// to its default).
fn parse_policy(name: &str, text: &str) -> Result<CompiledPolicy, Vec<String>> {
    // Through YAML's own value first: it refuses a key repeated in one mapping, which a
    // JSON value would keep the last of (`API_KEY: block` then `API_KEY: allow`).
    let yaml: serde_norway::Value = serde_norway::from_str(text).map_err(|e| {
        let at = e.location().map(|l| format!(":{}:{}", l.line(), l.column())).unwrap_or_default();
        vec![format!("{name}{at}: not a YAML policy: {e}")]
    })?;
    let value = serde_json::to_value(yaml).map_err(|e| vec![format!("{name}: not a policy: {e}")])?;
    let e = match CompiledPolicy::from_value(value) {
        Ok(policy) => return Ok(policy),
        Err(e) => e,
    };
    let mut located: Vec<(Option<locate::Position>, String)> =
        e.issues.iter().map(|issue| (locate::locate(text, &issue.path), issue.to_string())).collect();
    // Stable: issues at one position keep the model's order.
    located.sort_by_key(|(at, _)| *at);
    Err(located
        .into_iter()
        .map(|(at, issue)| match at {
            Some(p) => format!("{name}:{}:{}: {issue}", p.line, p.column),
            None => format!("{name}: {issue}"),
        })
        .collect())
}

fn policy_or_default(args: &Args) -> Fallible<CompiledPolicy> {
    match args.get("policy") {
        Some(p) => load_policy(p),
        None => CompiledPolicy::from_json(b"").map_err(|e| Exit::Failed(e.to_string())),
    }
}

fn scan(args: &Args) -> Fallible {
    let policy = policy_or_default(args)?;
    let format = args.get("format").unwrap_or("json");
    if !matches!(format, "json" | "text" | "sarif") {
        return Err(Exit::Usage(format!("unknown --format {}: json, text or sarif", cli::shown(format))));
    }
    let fail_on = match args.get("fail-on").map(str::to_ascii_uppercase).as_deref() {
        None => None,
        Some("LOW") => Some(Severity::Low),
        Some("MEDIUM") => Some(Severity::Medium),
        Some("HIGH") => Some(Severity::High),
        Some(other) => {
            return Err(Exit::Usage(format!("unknown --fail-on {}: LOW, MEDIUM or HIGH", cli::shown(other))))
        }
    };
    if args.flag("jsonl") {
        if format != "json" || args.positional.len() > 1 {
            return Err(Exit::Usage("--jsonl reads one input and writes JSON".into()));
        }
        let reader: Box<dyn BufRead> = match args.positional(0) {
            None | Some("-") => Box::new(io::BufReader::new(io::stdin())),
            Some(p) => Box::new(io::BufReader::new(std::fs::File::open(p).map_err(|e| format!("{p}: {e}"))?)),
        };
        let mut failed = false;
        for (i, line) in reader.split(b'\n').enumerate() {
            let line = line.map_err(|e| format!("line {}: {e}", i + 1))?;
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let result = match serde_json::from_slice::<Value>(&line) {
                Ok(v) => match v.get("text").and_then(Value::as_str) {
                    Some(text) => {
                        let entities = scan::entities(&policy, text.as_bytes());
                        failed |= fail_on.is_some_and(|floor| entities.iter().any(|e| e.severity >= floor));
                        scan::json_result(text.as_bytes(), &entities)
                    }
                    None => json!({"error": {"code": "missing_text", "line": i + 1}}),
                },
                Err(e) => json!({"error": {"code": "invalid_json", "line": i + 1, "column": e.column()}}),
            };
            out(format!("{result}\n"))?;
        }
        return if failed { Err(Exit::Reported) } else { Ok(()) };
    }
    let paths: Vec<&str> =
        if args.positional.is_empty() { vec!["-"] } else { args.positional.iter().map(String::as_str).collect() };
    let mut files = Vec::with_capacity(paths.len());
    let mut texts = Vec::with_capacity(paths.len());
    for path in &paths {
        let text = read_input(Some(path))?;
        let name = if *path == "-" { "<stdin>".to_string() } else { (*path).to_string() };
        files.push((name, scan::entities(&policy, &text)));
        texts.push(text);
    }
    let failed = fail_on.is_some_and(|floor| files.iter().any(|(_, es)| es.iter().any(|e| e.severity >= floor)));
    match format {
        "text" => {
            let lines: String = files.iter().map(|(path, es)| scan::text_lines(path, es)).collect();
            out(lines)?;
        }
        "sarif" => {
            out(format!("{}\n", serde_json::to_string_pretty(&scan::sarif(&files)).map_err(|e| e.to_string())?))?
        }
        _ => {
            let result = match (files.as_slice(), texts.as_slice()) {
                ([(_, entities)], [text]) => scan::json_result(text, entities),
                _ => Value::Array(
                    files
                        .iter()
                        .zip(&texts)
                        .map(|((path, entities), text)| json!({"path": path, "result": scan::json_result(text, entities)}))
                        .collect(),
                ),
            };
            out(format!("{}\n", serde_json::to_string_pretty(&result).map_err(|e| e.to_string())?))?;
        }
    }
    if failed {
        Err(Exit::Reported)
    } else {
        Ok(())
    }
}

fn anonymize(args: &Args) -> Fallible {
    let mode = args.get("mode").ok_or_else(|| Exit::Usage("--mode redact|placeholder|tokenize is required".into()))?;
    if !matches!(mode, "redact" | "placeholder" | "tokenize") {
        return Err(Exit::Usage(format!("unknown --mode {}: redact, placeholder or tokenize", cli::shown(mode))));
    }
    let policy = policy_or_default(args)?;
    let text = read_input(args.positional(0))?;
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
    let minter = TokenMinter::new(veil_core::vault::derive(&key, "veil/v1/token"));
    let mut tokens = TokenMap::default();
    let anonymized = policy.engine().anonymize(&text, |rule, value| {
        match mode {
            "redact" => "****".to_string(),
            "placeholder" => format!("[{}]", rule.category),
            _ => tokens.issue(&minter, b"veilctl", &rule.category, value),
        }
        .into_bytes()
    });
    out(anonymized)
}

/// Options of `eval` that only apply with `--corpus`, and those only without it.
const CORPUS_ONLY: &[&str] = &["policy", "gate", "gate-skip"];
const SYNTHETIC_ONLY: &[&str] = &["seed", "docs", "export"];

fn evaluate(args: &Args) -> Fallible {
    let corpus = args.flag("corpus");
    let (wrong, why) = if corpus { (SYNTHETIC_ONLY, "without") } else { (CORPUS_ONLY, "with") };
    if let Some(name) = args.given().find(|n| wrong.contains(n)) {
        return Err(Exit::Usage(format!("--{name} only applies {why} --corpus")));
    }
    if corpus {
        return evaluate_corpus(args);
    }
    let number = |name: &str, default: u64| -> Fallible<u64> {
        args.get(name).map_or(Ok(default), |v| {
            v.parse().map_err(|_| Exit::Usage(format!("--{name} needs a whole number, found {}", cli::shown(v))))
        })
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
        out(format!("{}\n", serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?))?;
    } else {
        use std::fmt::Write as _;
        let mut text = String::new();
        let f = |p: &str| report.pointer(p).cloned().unwrap_or(Value::Null);
        let _ = writeln!(
            text,
            "seed {seed}: {} documents, {} PII-free, {} labels; scored in {:.0} ms",
            f("/documents"),
            f("/pii_free_documents"),
            f("/labels"),
            elapsed.as_secs_f64() * 1000.0
        );
        let _ = writeln!(text, "{:<20} {:>8} {:>8} {:>8}", "category", "recall", "found", "labels");
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
                let _ = writeln!(text, "{category:<20} {value:>8.4} {:>8} {:>8}{mark}", r["found"], r["labels"]);
            }
        }
        let _ = writeln!(
            text,
            "precision {} ({} true, {} false positives)",
            f("/precision"),
            f("/true_positives"),
            f("/false_positives")
        );
        let _ =
            writeln!(text, "false positives on PII-free documents: {}", f("/false_positives_on_pii_free_documents"));
        let _ = writeln!(text, "false positives by category: {}", f("/false_positives_by_category"));
        let _ = writeln!(
            text,
            "targets (structured recall >= {}, person >= {}, precision >= {}): {}",
            eval::STRUCTURED_RECALL,
            eval::PERSON_RECALL,
            eval::PRECISION,
            if met { "met" } else { "NOT met" }
        );
        out(text)?;
    }
    if met {
        Ok(())
    } else {
        Err("quality targets not met".into())
    }
}

/// `eval --corpus [DIR]`.
fn evaluate_corpus(args: &Args) -> Fallible {
    let dir = std::path::PathBuf::from(args.get("corpus").unwrap_or(concat!(env!("CARGO_MANIFEST_DIR"), "/eval")));
    let policy = policy_or_default(args)?;
    let (positive, clean) = corpus::load(&dir)?;
    let skip: Vec<String> =
        args.get("gate-skip").map(|s| s.split(',').map(|c| c.trim().to_string()).collect()).unwrap_or_default();
    let report = corpus::score(policy.engine(), &positive, &clean, &skip);
    if args.flag("json") {
        out(format!("{}\n", serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?))?;
    } else {
        out(corpus::render(&report, &dir))?;
    }
    if args.flag("gate") && !report.pointer("/gate/met").and_then(Value::as_bool).unwrap_or(false) {
        return Err("corpus gate not met".into());
    }
    Ok(())
}

/// `veilctl rules`: the catalog, one rule per line (or a JSON array).
fn list_rules(args: &Args) -> Fallible {
    let summaries: Vec<catalog::Summary> = catalog::summaries().collect();
    if args.flag("json") {
        /// One rule in `rules --json`, fields in this order.
        #[derive(serde::Serialize)]
        struct Listed<'a> {
            id: &'a str,
            category: &'a str,
            label: &'a str,
            severity: &'a str,
            near: &'a [&'a str],
            dictionary: Option<&'a str>,
            validator: Option<&'a str>,
            internal_domains: bool,
        }
        let list: Vec<Listed<'_>> = summaries
            .iter()
            .map(|r| Listed {
                id: r.id,
                category: r.category,
                label: category::label(r.category),
                severity: r.severity.name(),
                near: r.near,
                dictionary: r.dictionary,
                validator: r.validator,
                internal_domains: r.internal_domains,
            })
            .collect();
        return out(format!("{}\n", serde_json::to_string_pretty(&list).map_err(|e| e.to_string())?));
    }
    let id_width = summaries.iter().map(|r| r.id.len()).max().unwrap_or(0);
    let category_width = summaries.iter().map(|r| r.category.len()).max().unwrap_or(0);
    let mut text = format!("{:<id_width$}  {:<category_width$}  {:<8}  NEEDS\n", "RULE ID", "CATEGORY", "SEVERITY");
    for r in &summaries {
        text.push_str(&format!(
            "{:<id_width$}  {:<category_width$}  {:<8}  {}\n",
            r.id,
            r.category,
            r.severity.name(),
            needs(r)
        ));
    }
    out(text)
}

/// What a rule needs to report a match, in a few words: `-` for its pattern alone.
fn needs(r: &catalog::Summary) -> String {
    let mut parts = Vec::new();
    if !r.near.is_empty() {
        let shown: Vec<&str> = r.near.iter().take(5).copied().collect();
        let more = match r.near.len().saturating_sub(shown.len()) {
            0 => String::new(),
            n => format!(" +{n} more"),
        };
        parts.push(format!("near: {}{more}", shown.join(", ")));
    }
    if let Some(dictionary) = r.dictionary {
        parts.push(format!("dictionary: {dictionary}"));
    }
    if let Some(check) = r.validator {
        parts.push(format!("check: {check}"));
    }
    if r.internal_domains {
        parts.push("extended by detectors.internal_domains".to_string());
    }
    if parts.is_empty() {
        "-".to_string()
    } else {
        parts.join("; ")
    }
}

fn policy_check(args: &Args) -> Fallible {
    let path = args.positional(0).ok_or_else(|| Exit::Usage("missing FILE".into()))?;
    let policy = load_policy(path)?;
    out(format!(
        "{path}: ok ({} routes, {} rules, {} detectors, mode {:?})\n",
        policy.policy.routes.len(),
        policy.policy.rules.len(),
        // Distinct ids: an any-case twin shares its rule's id and is no detector of its own.
        policy.engine().rules().iter().map(|r| r.id.as_str()).collect::<std::collections::BTreeSet<_>>().len(),
        policy.policy.mode
    ))
}

fn policy_render(args: &Args) -> Fallible {
    let path = args.positional(0).ok_or_else(|| Exit::Usage("missing FILE".into()))?;
    let format = args.get("format").unwrap_or("json");
    if !matches!(format, "json" | "ecds" | "istio") {
        return Err(Exit::Usage(format!("unknown --format {}: json, ecds or istio", cli::shown(format))));
    }
    let policy = load_policy(path)?.policy;
    let rendered = match format {
        #[cfg(target_family = "wasm")]
        "ecds" => return Err("--format ecds needs the native build of veilctl (its xDS types are native-only)".into()),
        #[cfg(not(target_family = "wasm"))]
        "ecds" => {
            let config = serde_json::to_string(&policy).map_err(|e| e.to_string())?;
            let target = xds::FilterTarget { wasm: "/etc/envoy/veil.wasm".into(), vm_id: "veil".into(), native: None };
            serde_norway::to_string(&xds::resource_json("veil", &config, &target)).map_err(|e| e.to_string())?
        }
        "istio" if policy.hold_headers => {
            return Err(Exit::Failed(format!(
                "{path}: hold_headers: Istio's WasmPlugin cannot set allow_on_headers_stop_iteration, \
                 so requests would stall; use hold_headers: false with Istio"
            )))
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
        _ => serde_json::to_string_pretty(&policy).map_err(|e| e.to_string())?,
    };
    out(format!("{}\n", rendered.trim_end()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The README's CLI section and each command's usage line name every command
    /// and option the parser knows, and the section states the exit codes.
    #[test]
    fn every_command_and_option_is_documented() {
        let readme = include_str!("../../README.md");
        let section = readme.split("## The CLI: `veilctl`").nth(1).and_then(|s| s.split("\n## ").next()).unwrap();
        for spec in COMMANDS {
            assert!(section.contains(&format!("| `{}", spec.name)), "README: {}", spec.name);
            for option in spec.options {
                let flag = format!("--{}", option.name);
                assert!(section.contains(&flag), "README: {} {flag}", spec.name);
                assert!(spec.usage.contains(&flag), "usage of {}: {flag}", spec.name);
            }
        }
        for code in ["`0` success", "`1` the command ran", "`2` a usage error", "-h`/`--help", "--version"] {
            assert!(section.contains(code), "README: {code}");
        }
    }

    #[test]
    fn commands_and_groups_resolve() {
        let words = |line: &str| line.split(' ').map(String::from).collect::<Vec<_>>();
        for (line, want) in [
            ("rules --json", Some("rules")),
            ("policy check x.yaml", Some("policy check")),
            ("xds write x.yaml --out y", Some("xds write")),
            ("policy chek x", None),
            ("--version", None),
        ] {
            // Only resolution is checked: commands that would run are given --help.
            let mut args = words(line);
            args.push("--help".into());
            let (spec, _) = dispatch(&args);
            assert_eq!(spec.map(|s| s.name), want, "{line}");
        }
    }
}
