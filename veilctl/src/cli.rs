//! The command line itself: each command's options and help, the parser, exit codes,
//! and output that survives a closed pipe.
//!
//! Hand-written rather than `clap`: eight commands with a few options each, help
//! texts that document exit codes and output formats in prose, and no dependency
//! (clap with derive costs more to build than the rest of this crate on a 2-core
//! machine). Options are `--name VALUE`, `--name=VALUE` or `--name`; `--` ends them;
//! `-h`/`--help` anywhere prints the command's help.

use std::io::{self, Write};
use std::process::ExitCode;

/// How a command ends, when not with success.
#[derive(Debug)]
pub enum Exit {
    /// Print this on standard output and exit 0 (`--help`, `--version`).
    Help(String),
    /// The command line is wrong: the message, the command's usage line and a hint
    /// on standard error, exit 2.
    Usage(String),
    /// The command ran and failed or found a problem: the message on standard
    /// error, exit 1.
    Failed(String),
    /// The command ran and found problems it has already reported on standard
    /// error (every issue of a policy): exit 1.
    Reported,
    /// Standard output was closed by its reader (`veilctl rules | head -1`): stop
    /// quietly with exit 0, as a command killed by SIGPIPE would say nothing.
    Closed,
}

impl From<String> for Exit {
    fn from(message: String) -> Exit {
        Exit::Failed(message)
    }
}

impl From<&str> for Exit {
    fn from(message: &str) -> Exit {
        Exit::Failed(message.to_string())
    }
}

pub type Fallible<T = ()> = Result<T, Exit>;

/// Success.
pub const OK: u8 = 0;
/// The command ran and failed or found a problem.
pub const FAILED: u8 = 1;
/// A usage error.
pub const USAGE: u8 = 2;

/// The exit codes, as every help text states them.
pub const EXIT_CODES: &str = "\
exit status:
  0  success
  1  the command ran and failed or found a problem (see the command's help)
  2  usage error: an unknown command or option, a missing or bad argument
";

/// Writes `text` to standard output and flushes it. A closed pipe is
/// [`Exit::Closed`] (`println!` would panic); any other error fails the command.
pub fn out(text: impl AsRef<[u8]>) -> Fallible {
    let mut stdout = io::stdout().lock();
    stdout.write_all(text.as_ref()).and_then(|()| stdout.flush()).map_err(|e| match e.kind() {
        io::ErrorKind::BrokenPipe => Exit::Closed,
        _ => Exit::Failed(format!("standard output: {e}")),
    })
}

/// Writes one line to standard error; if that fails there is nowhere left to say
/// so, and the command goes on (`eprintln!` would panic).
pub fn err(line: impl std::fmt::Display) {
    let _ = writeln!(io::stderr().lock(), "{line}");
}

/// What an option takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Takes {
    /// A switch: `--json`.
    Nothing,
    /// A value, always: `--policy FILE`.
    Value(&'static str),
    /// A value if the next argument is not an option: `--corpus [DIR]`.
    Optional(&'static str),
}

/// One option of a command.
#[derive(Debug, Clone, Copy)]
pub struct Opt {
    pub name: &'static str,
    pub takes: Takes,
    pub help: &'static str,
}

/// One command: how it is called, what it does, its options and positional
/// arguments, and when it exits 1.
#[derive(Debug, Clone, Copy)]
pub struct Spec {
    /// `scan`, `policy check`.
    pub name: &'static str,
    /// One line for the command list.
    pub summary: &'static str,
    /// The usage line after `veilctl `: `scan [FILE|-] [--policy FILE] [--jsonl]`.
    pub usage: &'static str,
    /// What it does and prints, in prose.
    pub about: &'static str,
    pub options: &'static [Opt],
    /// Names of the positional arguments: `FILE` (required) or `[FILE]` (optional).
    pub positional: &'static [&'static str],
    /// When it exits 1.
    pub fails: &'static str,
}

impl Spec {
    /// The command's help text.
    pub fn help(&self) -> String {
        let mut out = format!("usage: veilctl {}\n\n{}\n", self.usage, self.about.trim_end());
        let rows: Vec<(String, &str)> = self
            .options
            .iter()
            .map(|o| {
                let flag = match o.takes {
                    Takes::Nothing => format!("--{}", o.name),
                    Takes::Value(v) => format!("--{} {v}", o.name),
                    Takes::Optional(v) => format!("--{} [{v}]", o.name),
                };
                (flag, o.help)
            })
            .chain(std::iter::once(("-h, --help".to_string(), "Print this help")))
            .collect();
        let width = rows.iter().map(|(f, _)| f.len()).max().unwrap_or(0);
        out.push_str("\noptions:\n");
        for (flag, help) in rows {
            out.push_str(&format!("  {flag:<width$}  {help}\n"));
        }
        out.push('\n');
        out.push_str(EXIT_CODES);
        out.push_str(&format!("  (1 here: {})\n", self.fails));
        out
    }

    fn option(&self, name: &str) -> Option<&Opt> {
        self.options.iter().find(|o| o.name == name)
    }

    /// How many positional arguments the command takes: unbounded when the last one's
    /// name ends in `...` (`[FILE|-]...`).
    fn max_positional(&self) -> usize {
        match self.positional.last() {
            Some(last) if last.ends_with("...") => usize::MAX,
            _ => self.positional.len(),
        }
    }

    fn required_positional(&self) -> impl Iterator<Item = &&'static str> {
        self.positional.iter().filter(|p| !p.starts_with('['))
    }
}

/// A parsed command line: positional arguments and the options given.
#[derive(Debug, Default)]
pub struct Args {
    pub positional: Vec<String>,
    options: Vec<(&'static str, Option<String>)>,
}

impl Args {
    /// Parses `raw` (the arguments after the command's name) against `spec`.
    /// `-h`/`--help` before any `--` wins over everything else.
    pub fn parse(spec: &Spec, raw: &[String]) -> Fallible<Args> {
        let before_end = raw.iter().take_while(|a| a.as_str() != "--");
        if before_end.clone().any(|a| a == "-h" || a == "--help") {
            return Err(Exit::Help(spec.help()));
        }
        let mut args = Args::default();
        let mut it = raw.iter().peekable();
        let mut only_positional = false;
        while let Some(arg) = it.next() {
            if only_positional || arg == "-" || !arg.starts_with('-') {
                args.positional.push(arg.clone());
                continue;
            }
            if arg == "--" {
                only_positional = true;
                continue;
            }
            let Some(long) = arg.strip_prefix("--") else {
                return Err(Exit::Usage(format!("unknown option {}", shown(arg))));
            };
            let (name, inline) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (long, None),
            };
            let Some(opt) = spec.option(name) else {
                let known = spec.options.iter().map(|o| o.name);
                let hint = veil_detect::suggest::closest(name, known)
                    .map(|c| format!("; did you mean --{c}?"))
                    .unwrap_or_default();
                return Err(Exit::Usage(format!("unknown option {}{hint}", shown(&format!("--{name}")))));
            };
            if args.options.iter().any(|(n, _)| *n == opt.name) {
                return Err(Exit::Usage(format!("--{} is given twice", opt.name)));
            }
            let value = match (opt.takes, inline) {
                (Takes::Nothing, Some(_)) => return Err(Exit::Usage(format!("--{} takes no value", opt.name))),
                (Takes::Nothing, None) => None,
                (Takes::Value(_) | Takes::Optional(_), Some(v)) => Some(v),
                (Takes::Value(meta), None) => match it.next_if(|next| !next.starts_with("--")) {
                    Some(v) => Some(v.clone()),
                    None => return Err(Exit::Usage(format!("--{} needs a value: --{} {meta}", opt.name, opt.name))),
                },
                (Takes::Optional(_), None) => it.next_if(|next| !next.starts_with('-')).cloned(),
            };
            args.options.push((opt.name, value));
        }
        if let Some(extra) = args.positional.get(spec.max_positional()) {
            return Err(Exit::Usage(format!("unexpected argument {}", shown(extra))));
        }
        if let Some(missing) = spec.required_positional().nth(args.positional.len()) {
            return Err(Exit::Usage(format!("missing {missing}")));
        }
        Ok(args)
    }

    /// The value of `--name`, if given with one.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.options.iter().find(|(n, _)| *n == name).and_then(|(_, v)| v.as_deref())
    }

    /// Whether `--name` was given (with or without a value).
    pub fn flag(&self, name: &str) -> bool {
        self.options.iter().any(|(n, _)| *n == name)
    }

    /// The options given, by name.
    pub fn given(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.options.iter().map(|(n, _)| *n)
    }

    /// Positional argument `i`.
    pub fn positional(&self, i: usize) -> Option<&str> {
        self.positional.get(i).map(String::as_str)
    }
}

/// An argument as a message may quote it: as typed if it looks like a name or a
/// path, else only as "an argument" (it could be text meant for standard input).
pub fn shown(arg: &str) -> String {
    let path_like = !arg.is_empty()
        && arg.len() <= 256
        && arg
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-' | b'/' | b'=' | b',' | b':'));
    if path_like {
        format!("`{arg}`")
    } else {
        "(not shown)".to_string()
    }
}

/// The process's exit code for a command's result; prints what goes with it.
/// `command` is the spec of the command that ran, if the command line got that far.
pub fn finish(result: Fallible, command: Option<&Spec>) -> ExitCode {
    let code = match result {
        Ok(()) => OK,
        Err(Exit::Help(text)) => match out(text) {
            Ok(()) | Err(Exit::Closed) => OK,
            Err(_) => FAILED,
        },
        Err(Exit::Closed) => OK,
        Err(Exit::Reported) => FAILED,
        Err(Exit::Failed(message)) => {
            err(format_args!("veilctl: {message}"));
            FAILED
        }
        Err(Exit::Usage(message)) => {
            match command {
                Some(spec) => {
                    err(format_args!("veilctl {}: {message}", spec.name));
                    err(format_args!("usage: veilctl {}", spec.usage));
                    err(format_args!("Run `veilctl {} --help` for more.", spec.name));
                }
                None => {
                    err(format_args!("veilctl: {message}"));
                    err("Run `veilctl --help` for the commands.");
                }
            }
            USAGE
        }
    };
    ExitCode::from(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPEC: Spec = Spec {
        name: "demo",
        summary: "A demo",
        usage: "demo FILE [OUT] [--policy FILE] [--json] [--corpus [DIR]]",
        about: "Does nothing.",
        options: &[
            Opt { name: "policy", takes: Takes::Value("FILE"), help: "A policy" },
            Opt { name: "json", takes: Takes::Nothing, help: "JSON" },
            Opt { name: "corpus", takes: Takes::Optional("DIR"), help: "A corpus" },
        ],
        positional: &["FILE", "[OUT]"],
        fails: "never",
    };

    fn parse(args: &[&str]) -> Fallible<Args> {
        Args::parse(&SPEC, &args.iter().map(|a| a.to_string()).collect::<Vec<_>>())
    }

    /// What each command line parses to, or the usage error it is.
    #[test]
    fn command_lines() {
        type Want = Result<(&'static [&'static str], &'static [(&'static str, Option<&'static str>)]), &'static str>;
        let table: &[(&[&str], Want)] = &[
            (&["a"], Ok((&["a"], &[]))),
            (&["a", "b", "--json"], Ok((&["a", "b"], &[("json", None)]))),
            (&["--policy", "p.yaml", "a"], Ok((&["a"], &[("policy", Some("p.yaml"))]))),
            (&["--policy=p.yaml", "a"], Ok((&["a"], &[("policy", Some("p.yaml"))]))),
            (&["-", "--corpus"], Ok((&["-"], &[("corpus", None)]))),
            (&["a", "--corpus", "dir"], Ok((&["a"], &[("corpus", Some("dir"))]))),
            (&["a", "--corpus", "--json"], Ok((&["a"], &[("corpus", None), ("json", None)]))),
            (&["--", "--json"], Ok((&["--json"], &[]))),
            (&[], Err("missing FILE")),
            (&["a", "b", "c"], Err("unexpected argument `c`")),
            (&["a", "--jsn"], Err("unknown option `--jsn`; did you mean --json?")),
            (&["a", "-x"], Err("unknown option `-x`")),
            (&["a", "--policy"], Err("--policy needs a value: --policy FILE")),
            (&["a", "--policy", "--json"], Err("--policy needs a value")),
            (&["a", "--json=yes"], Err("--json takes no value")),
            (&["a", "--json", "--json"], Err("--json is given twice")),
            (&["a", "b", "jane doe@example.com"], Err("unexpected argument (not shown)")),
        ];
        for (args, want) in table {
            match (parse(args), want) {
                (Ok(got), Ok((positional, options))) => {
                    assert_eq!(&got.positional, positional, "{args:?}");
                    let got_options: Vec<(&str, Option<&str>)> =
                        got.options.iter().map(|(n, v)| (*n, v.as_deref())).collect();
                    assert_eq!(&got_options, options, "{args:?}");
                }
                (Err(Exit::Usage(message)), Err(want)) => assert!(message.starts_with(want), "{args:?}: {message}"),
                (got, want) => panic!("{args:?}: {got:?}, want {want:?}"),
            }
        }
    }

    #[test]
    fn help_wins_anywhere_before_the_end_of_options() {
        for args in [&["--help"][..], &["-h"], &["a", "--nope", "--help"], &["--policy", "-h"]] {
            match parse(args) {
                Err(Exit::Help(text)) => {
                    assert!(text.starts_with("usage: veilctl demo FILE"), "{text}");
                    for want in [
                        "--policy FILE",
                        "--corpus [DIR]",
                        "-h, --help",
                        "exit status:",
                        "2  usage error",
                        "(1 here: never)",
                    ] {
                        assert!(text.contains(want), "{want}: {text}");
                    }
                }
                other => panic!("{args:?}: {other:?}"),
            }
        }
        // After `--`, `--help` is an argument like any other.
        assert!(parse(&["a", "--", "--help"]).is_ok_and(|a| a.positional == ["a", "--help"]));
    }

    #[test]
    fn exit_codes() {
        assert_eq!(finish(Ok(()), None), ExitCode::from(OK));
        assert_eq!(finish(Err(Exit::Closed), None), ExitCode::from(OK));
        assert_eq!(finish(Err(Exit::Reported), None), ExitCode::from(FAILED));
        assert_eq!(finish(Err(Exit::Failed("x".into())), Some(&SPEC)), ExitCode::from(FAILED));
        assert_eq!(finish(Err(Exit::Usage("x".into())), Some(&SPEC)), ExitCode::from(USAGE));
    }
}
