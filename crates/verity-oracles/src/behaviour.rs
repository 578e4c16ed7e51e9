//! Behavioural verification (seed 002, V3): does a claim about what code *does* hold when the
//! code runs? Three claims ([`BehaviourClaim`]): a declared test passes, a function returns a
//! value for given arguments, a piece of code throws an error of a given class. One call,
//! [`check`], runs the claim in the `verity-process` sandbox and returns a verdict with
//! evidence; it never returns an `Err` (a claim that cannot be judged is an `error` verdict
//! saying why).
//!
//! Everything runs sandboxed ([`verity_process::Sandbox`]): the repository read-only, a fresh
//! scratch directory writable (also `HOME` and `TMPDIR`), `PYTHONDONTWRITEBYTECODE=1`, no
//! network, a wall timeout (default 20 s), CPU time (10 s), address space (1 GiB) and 64
//! processes. Where no sandbox backend works, the verdict is an `error` naming what is
//! missing ([`BehaviourVerdict::config_error`]): nothing runs unsandboxed.
//!
//! Languages: Python (`python3`; the function named `pkg.mod.fn`, `pkg.mod.Class.method` or
//! `pkg.mod:fn`, imported with the repository root — and its `src/` when there is one — first
//! on `sys.path`) and JavaScript (`node`; `path/to/file.js:name`, `path/to/file:Class.method` or
//! `path.to.file.name`, loaded with dynamic `import()`, so CommonJS and ES modules alike).
//! TypeScript only where node strips types itself (node ≥ 22.6 with
//! `--experimental-strip-types`); with an older node a TypeScript claim is an `error` saying a
//! build step is needed. Arguments and the expected value travel to a fixed driver program as
//! JSON on standard input, never spliced into code; results are compared as JSON (tuples become
//! lists; in Python `1 == 1.0`). A `throws` claim's code is the claim itself and is compiled as
//! written (Python: the top-level names it uses are imported first); the error class matches
//! the raised exception's class or any class it inherits from (the MRO; in JavaScript the
//! prototype chain), by bare or qualified name.
//!
//! The limits of the verdict: the code runs in the same interpreter as the driver, so code
//! written to deceive it (introspecting the driver to forge a result) is out of scope; the
//! sandbox keeps such code from doing harm, not from lying.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use serde_json::{Value, json};
pub use verity_process::{BackendChoice, Contained};
use verity_process::{
    Capture, Exit, Output, ProcessError, Quote, Sandbox, SandboxLimits, Spec, Stdin,
};

const PYTHON_DRIVER: &str = include_str!("behaviour_python.py");
const NODE_DRIVER: &str = include_str!("behaviour_node.js");

/// A claim about behaviour.
#[derive(Clone, Debug, PartialEq)]
pub enum BehaviourClaim {
    /// The declared test command passes for this test (`tests/test_x.py::test_y`).
    TestPasses { test: String },
    /// `function(*args)` returns `value` (compared as JSON).
    FunctionReturns {
        function: String,
        args: Vec<Value>,
        value: Value,
    },
    /// Running `code` raises an error of class `error` (or of a subclass of it).
    Throws { code: String, error: String },
}

impl BehaviourClaim {
    /// From a structured citation claim (`{"relation": "function_returns", "subject":
    /// "pkg.mod.fn", "args": [1, 2], "value": 3}`, `{"relation": "test_passes", "subject":
    /// "tests/test_x.py::test_y"}`, `{"relation": "throws", "code": "pkg.mod.fn(None)",
    /// "object": "TypeError"}`; `testPasses`, `functionReturns`, `codeThrows` accepted as
    /// relation names too). `None` when it is not a behaviour claim; `Some(Err)` when it is one
    /// with a missing or mistyped field.
    pub fn from_json(claim: &Value) -> Option<Result<BehaviourClaim, String>> {
        let relation = claim.get("relation")?.as_str()?;
        let text = |key: &str| -> Result<String, String> {
            claim
                .get(key)
                .and_then(Value::as_str)
                .map(str::to_owned)
                .ok_or_else(|| format!("a {relation} claim needs a string \"{key}\""))
        };
        Some(match relation {
            "test_passes" | "testPasses" => {
                text("subject").map(|test| BehaviourClaim::TestPasses { test })
            }
            "function_returns" | "functionReturns" => (|| {
                let function = text("subject")?;
                let args = match claim.get("args") {
                    None | Some(Value::Null) => Vec::new(),
                    Some(Value::Array(a)) => a.clone(),
                    Some(_) => return Err("\"args\" must be an array".to_owned()),
                };
                let value = claim
                    .get("value")
                    .cloned()
                    .ok_or("a function_returns claim needs a \"value\"")?;
                Ok(BehaviourClaim::FunctionReturns {
                    function,
                    args,
                    value,
                })
            })(),
            "throws" | "code_throws" | "codeThrows" => (|| {
                let code = text("code").or_else(|_| text("subject"))?;
                let error = text("object").or_else(|_| text("error"))?;
                Ok(BehaviourClaim::Throws { code, error })
            })(),
            _ => return None,
        })
    }
}

/// The language of the code a claim is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Language {
    Python,
    JavaScript,
    TypeScript,
}

impl Language {
    /// `python` / `py`, `javascript` / `js`, `typescript` / `ts` (case-insensitive).
    pub fn parse(name: &str) -> Option<Language> {
        match name.trim().to_ascii_lowercase().as_str() {
            "python" | "py" => Some(Language::Python),
            "javascript" | "js" | "node" => Some(Language::JavaScript),
            "typescript" | "ts" => Some(Language::TypeScript),
            _ => None,
        }
    }
}

/// The limits of one behaviour check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BehaviourLimits {
    /// Wall clock (default 20 s).
    pub wall: Duration,
    /// CPU time in seconds (default 10).
    pub cpu_seconds: u64,
    /// Address space in MiB (default 1024).
    pub memory_mb: u64,
    /// Processes (default 64).
    pub processes: u64,
    /// Bytes kept of standard output and of standard error (the end; default 64 KiB).
    pub max_output: usize,
}

impl Default for BehaviourLimits {
    fn default() -> Self {
        BehaviourLimits {
            wall: Duration::from_secs(20),
            cpu_seconds: 10,
            memory_mb: 1024,
            processes: 64,
            max_output: 64 * 1024,
        }
    }
}

/// Where and how claims run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BehaviourEnv {
    /// The repository (seen read-only, at the same path; the current directory of a test).
    pub repo_dir: PathBuf,
    pub language: Language,
    /// The test command, `{test}` replaced by the test named in the claim, as one argument
    /// (e.g. `["python3", "-m", "pytest", "-q", "{test}"]`). Without one, `test_passes` claims
    /// are `error`s.
    pub test_command: Option<Vec<String>>,
    pub limits: BehaviourLimits,
    /// Which sandbox backend (tests force the fallback with [`BackendChoice::Unshare`]).
    pub backend: BackendChoice,
}

impl BehaviourEnv {
    pub fn new(repo_dir: impl AsRef<Path>, language: Language) -> BehaviourEnv {
        BehaviourEnv {
            repo_dir: repo_dir.as_ref().to_owned(),
            language,
            test_command: None,
            limits: BehaviourLimits::default(),
            backend: BackendChoice::Auto,
        }
    }

    pub fn test_command<I: IntoIterator<Item = S>, S: Into<String>>(mut self, command: I) -> Self {
        self.test_command = Some(command.into_iter().map(Into::into).collect());
        self
    }
}

/// How a check came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BehaviourStatus {
    /// The claim holds.
    Pass,
    /// The claim does not hold (a wrong value, another error, a failing test, a function that
    /// does not exist).
    Fail,
    /// It could not be judged (no sandbox, no interpreter, stopped at a limit, a harness fault).
    Error,
}

impl BehaviourStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            BehaviourStatus::Pass => "pass",
            BehaviourStatus::Fail => "fail",
            BehaviourStatus::Error => "error",
        }
    }
}

/// What a check saw.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BehaviourEvidence {
    /// The expected value (`function_returns`) or error class (`throws`).
    pub expected: Option<Value>,
    /// What happened: the value returned, or the error raised (`{"error": …, "message": …}`).
    pub actual: Option<Value>,
    /// The end of the program's standard output and standard error, on one line each.
    pub stdout_tail: String,
    pub stderr_tail: String,
    /// What the sandbox stopped or denied, if anything ([`Contained::as_str`]).
    pub contained: Option<Contained>,
    /// The sandbox backend it ran in (`bubblewrap`, `unshare`).
    pub backend: Option<String>,
    /// How the program ended (`exited with status 1`…).
    pub exit: Option<String>,
}

/// The verdict on one claim.
#[derive(Clone, Debug, PartialEq)]
pub struct BehaviourVerdict {
    pub status: BehaviourStatus,
    /// One sentence for a person.
    pub message: String,
    pub evidence: BehaviourEvidence,
    /// The error is the machine's configuration (no sandbox backend, no interpreter): report it
    /// as `ErrorKind::Config` where errors have kinds.
    pub config_error: bool,
}

impl BehaviourVerdict {
    fn new(status: BehaviourStatus, message: impl Into<String>) -> BehaviourVerdict {
        BehaviourVerdict {
            status,
            message: message.into(),
            evidence: BehaviourEvidence::default(),
            config_error: false,
        }
    }

    fn config(message: impl Into<String>) -> BehaviourVerdict {
        BehaviourVerdict {
            config_error: true,
            ..BehaviourVerdict::new(BehaviourStatus::Error, message)
        }
    }
}

/// Runs `claim` in the sandbox described by `env` and judges it.
pub fn check(claim: &BehaviourClaim, env: &BehaviourEnv) -> BehaviourVerdict {
    if !env.repo_dir.is_dir() {
        return BehaviourVerdict::config(format!(
            "the repository {} is not a directory",
            env.repo_dir.display()
        ));
    }
    let repo = match std::fs::canonicalize(&env.repo_dir) {
        Ok(repo) => repo,
        Err(e) => {
            return BehaviourVerdict::config(format!(
                "cannot resolve {}: {e}",
                env.repo_dir.display()
            ));
        }
    };
    match claim {
        BehaviourClaim::TestPasses { test } => test_passes(test, &repo, env),
        BehaviourClaim::FunctionReturns {
            function,
            args,
            value,
        } => {
            let request =
                json!({"mode": "returns", "function": function, "args": args, "value": value});
            let mut verdict = drive(request, &repo, env);
            verdict.evidence.expected = Some(value.clone());
            verdict
        }
        BehaviourClaim::Throws { code, error } => {
            let request = json!({"mode": "throws", "code": code, "error": error});
            let mut verdict = drive(request, &repo, env);
            verdict.evidence.expected = Some(Value::String(error.clone()));
            verdict
        }
    }
}

/// A scratch directory the sandbox may write, removed afterwards.
fn scratch() -> std::io::Result<tempfile::TempDir> {
    let dir = tempfile::Builder::new()
        .prefix("verity-behaviour-")
        .tempdir()?;
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755))?;
    Ok(dir)
}

/// A Python interpreter: its own path (`sys.executable`: a pyenv shim is a script needing
/// pyenv's whole tree) and its prefixes (a virtual environment's, and the installation it is
/// based on), which the sandbox shows read-only.
#[derive(Clone, Debug)]
struct Python {
    executable: PathBuf,
    prefixes: Vec<PathBuf>,
}

/// Found once by running `python3` outside the sandbox with a fixed one-liner.
fn python() -> Result<Python, String> {
    static PYTHON: OnceLock<Result<Python, String>> = OnceLock::new();
    PYTHON
        .get_or_init(|| {
            let out = Spec::new("python3")
                .args([
                    "-c",
                    "import sys; print(sys.executable); print(sys.prefix); print(sys.base_prefix)",
                ])
                .stdout(Capture::UpTo(4096))
                .stderr(Capture::Tail(4096))
                .timeout(Duration::from_secs(20))
                .run()
                .and_then(Output::into_result)
                .map_err(|e| format!("python3 is not usable here: {e}"))?;
            let text = out.stdout.text();
            let mut lines = text.lines().map(|l| PathBuf::from(l.trim()));
            let executable = lines.next().unwrap_or_default();
            if !executable.is_file() {
                return Err(format!(
                    "python3 names no interpreter ({})",
                    executable.display()
                ));
            }
            let prefixes = lines
                .filter(|p| p.is_dir() && !p.starts_with("/usr"))
                .collect();
            Ok(Python {
                executable,
                prefixes,
            })
        })
        .clone()
}

fn node() -> Result<PathBuf, String> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .map(|d| d.join("node"))
        .find(|p| p.is_file())
        .and_then(|p| std::fs::canonicalize(p).ok())
        .ok_or_else(|| "node is not installed".to_owned())
}

/// node's major and minor version (`v20.20.2`).
fn node_version(node: &Path) -> Option<(u32, u32)> {
    let out = Spec::new(node)
        .arg("--version")
        .stdout(Capture::UpTo(256))
        .timeout(Duration::from_secs(20))
        .run()
        .ok()?;
    let text = out.stdout.text();
    let mut parts = text.trim().trim_start_matches('v').split('.');
    Some((parts.next()?.parse().ok()?, parts.next()?.parse().ok()?))
}

fn nonce() -> String {
    static N: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or_default();
    format!(
        "verity-behaviour-result-{:x}-{:x}-{:x}",
        nanos,
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    )
}

/// The sandboxed spec of `program args` for `env`, with `scratch` writable.
fn sandboxed(
    program: &Path,
    visible: &[PathBuf],
    scratch: &Path,
    repo: &Path,
    env: &BehaviourEnv,
) -> Spec {
    let limits = SandboxLimits {
        cpu_seconds: Some(env.limits.cpu_seconds),
        memory_mb: Some(env.limits.memory_mb),
        processes: Some(env.limits.processes),
        file_size_mb: Some(64),
    };
    let mut sandbox = Sandbox::new(scratch)
        .read_only(repo)
        .limits(limits)
        .backend(env.backend);
    for dir in visible {
        sandbox = sandbox.read_only(dir);
    }
    let mut path = OsPath::new();
    if let Some(dir) = program.parent() {
        path.push(dir);
    }
    for dir in ["/usr/local/bin", "/usr/bin", "/bin"] {
        path.push(Path::new(dir));
    }
    Spec::new(program)
        .env_clear()
        .env("PATH", path.join())
        .env("HOME", scratch)
        .env("TMPDIR", scratch)
        .env("LANG", "C.UTF-8")
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .env("PYTHONUNBUFFERED", "1")
        .env("NO_COLOR", "1")
        .stdout(Capture::Tail(env.limits.max_output))
        .stderr(Capture::Tail(env.limits.max_output))
        .quote(Quote {
            lines: 12,
            chars: 1500,
        })
        .timeout(env.limits.wall)
        .sandbox(sandbox)
}

/// A `PATH` value being built.
struct OsPath(Vec<PathBuf>);

impl OsPath {
    fn new() -> OsPath {
        OsPath(Vec::new())
    }

    fn push(&mut self, dir: &Path) {
        if !self.0.iter().any(|d| d == dir) {
            self.0.push(dir.to_owned());
        }
    }

    fn join(&self) -> std::ffi::OsString {
        std::env::join_paths(&self.0).unwrap_or_default()
    }
}

/// Runs a spec; a sandbox that is not there is a configuration error.
fn run(spec: &Spec) -> Result<Output, Box<BehaviourVerdict>> {
    spec.run().map_err(|e| {
        Box::new(match e {
            e @ ProcessError::SandboxUnavailable { .. } => BehaviourVerdict::config(e.to_string()),
            e => BehaviourVerdict::config(format!(
                "cannot run {}: {e}",
                Path::new(spec.program()).display()
            )),
        })
    })
}

fn evidence_of(output: &Output) -> BehaviourEvidence {
    BehaviourEvidence {
        stdout_tail: output.stdout.quote(Quote {
            lines: 12,
            chars: 1500,
        }),
        stderr_tail: output.stderr_tail(),
        contained: output
            .contained()
            .filter(|c| *c != Contained::OutputLimit || !output.exit.success()),
        backend: output.sandbox.map(|s| s.backend.as_str().to_owned()),
        exit: Some(output.exit.to_string()),
        ..BehaviourEvidence::default()
    }
}

fn test_passes(test: &str, repo: &Path, env: &BehaviourEnv) -> BehaviourVerdict {
    let Some(command) = env.test_command.as_ref().filter(|c| !c.is_empty()) else {
        return BehaviourVerdict::config(
            "no test command is declared for this repository: a test_passes claim cannot be checked",
        );
    };
    let args: Vec<String> = command.iter().map(|a| a.replace("{test}", test)).collect();
    let (program, visible) = match args[0].as_str() {
        "python" | "python3" => match python() {
            Ok(p) => (p.executable, p.prefixes),
            Err(why) => return BehaviourVerdict::config(why),
        },
        "node" => match node() {
            Ok(p) => (p, Vec::new()),
            Err(why) => return BehaviourVerdict::config(why),
        },
        other => (PathBuf::from(other), Vec::new()),
    };
    let scratch = match scratch() {
        Ok(s) => s,
        Err(e) => {
            return BehaviourVerdict::config(format!("cannot create a scratch directory: {e}"));
        }
    };
    let spec = sandboxed(&program, &visible, scratch.path(), repo, env)
        .args(&args[1..])
        .env("PYTHONPATH", repo)
        .current_dir(repo);
    let output = match run(&spec) {
        Ok(o) => o,
        Err(v) => return *v,
    };
    let evidence = evidence_of(&output);
    let shown = args.join(" ");
    let mut verdict = if output.exit.success() {
        BehaviourVerdict::new(BehaviourStatus::Pass, format!("`{shown}` passed"))
    } else if let Some(reason) = evidence.contained.filter(|c| {
        matches!(
            c,
            Contained::Timeout
                | Contained::CpuLimit
                | Contained::MemoryLimit
                | Contained::ProcessLimit
        )
    }) {
        BehaviourVerdict::new(
            BehaviourStatus::Error,
            format!("`{shown}` was {reason} ({})", output.exit),
        )
    } else if output.exit == Exit::Code(127) || output.exit == Exit::Code(126) {
        BehaviourVerdict::config(format!(
            "`{shown}` could not start its program ({}): {}",
            output.exit,
            output.stderr_tail()
        ))
    } else {
        BehaviourVerdict::new(
            BehaviourStatus::Fail,
            format!("`{shown}` failed: it {}", output.exit),
        )
    };
    verdict.evidence = evidence;
    verdict
}

/// Runs the language's driver on `request` and judges its result.
fn drive(mut request: Value, repo: &Path, env: &BehaviourEnv) -> BehaviourVerdict {
    let mut visible = Vec::new();
    let (program, args): (PathBuf, Vec<String>) = match env.language {
        Language::Python => match python() {
            Ok(p) => {
                visible = p.prefixes;
                (
                    p.executable,
                    vec!["-I".into(), "-B".into(), "-c".into(), PYTHON_DRIVER.into()],
                )
            }
            Err(why) => return BehaviourVerdict::config(why),
        },
        Language::JavaScript | Language::TypeScript => {
            let node = match node() {
                Ok(p) => p,
                Err(why) => return BehaviourVerdict::config(why),
            };
            let mut args = Vec::new();
            if env.language == Language::TypeScript {
                match node_version(&node) {
                    Some(v) if v >= (22, 6) => args.push("--experimental-strip-types".into()),
                    v => {
                        return BehaviourVerdict::config(format!(
                            "TypeScript needs a build step here: node {} cannot run .ts files (node 22.6 or later strips types)",
                            v.map_or("of unknown version".into(), |(a, b)| format!("{a}.{b}"))
                        ));
                    }
                }
            }
            args.extend(["-e".into(), NODE_DRIVER.into()]);
            (node, args)
        }
    };
    let nonce = nonce();
    request["nonce"] = Value::String(nonce.clone());
    request["root"] = Value::String(repo.to_string_lossy().into_owned());
    let scratch = match scratch() {
        Ok(s) => s,
        Err(e) => {
            return BehaviourVerdict::config(format!("cannot create a scratch directory: {e}"));
        }
    };
    let spec = sandboxed(&program, &visible, scratch.path(), repo, env)
        .args(&args)
        .stdin(Stdin::Bytes(request.to_string().into_bytes()));
    let output = match run(&spec) {
        Ok(o) => o,
        Err(v) => return *v,
    };
    let mut evidence = evidence_of(&output);
    let result = result_of(&output.stdout.text(), &nonce);
    let Some(result) = result else {
        let message = match evidence.contained {
            Some(reason) => format!("the code was {reason} ({})", output.exit),
            None => format!("the check gave no result: the program {}", output.exit),
        };
        let mut verdict = BehaviourVerdict::new(BehaviourStatus::Error, message);
        verdict.evidence = evidence;
        return verdict;
    };
    let outcome = result.get("outcome").and_then(Value::as_str).unwrap_or("");
    let text = |key: &str| {
        result
            .get(key)
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned()
    };
    let raised = || json!({"error": text("error"), "message": text("message")});
    let (status, message) = match (outcome, &request["mode"]) {
        ("returned", _) => {
            let actual = result.get("actual").cloned().unwrap_or(Value::Null);
            evidence.actual = Some(actual.clone());
            if result.get("equal").and_then(Value::as_bool) == Some(true) {
                (
                    BehaviourStatus::Pass,
                    format!("returned {actual} as claimed"),
                )
            } else {
                (
                    BehaviourStatus::Fail,
                    format!("expected {}, got {actual}", request["value"]),
                )
            }
        }
        ("missing", _) => (
            BehaviourStatus::Fail,
            format!("wrong_structure: {}", text("message")),
        ),
        ("unrepresentable", _) => (
            BehaviourStatus::Fail,
            format!(
                "expected {}, got a value JSON cannot represent: {}",
                request["value"],
                text("repr")
            ),
        ),
        ("raised", Value::String(mode)) if mode == "returns" => {
            evidence.actual = Some(raised());
            (
                BehaviourStatus::Fail,
                format!(
                    "expected {}, but it raised {}: {}",
                    request["value"],
                    text("error"),
                    text("message")
                ),
            )
        }
        ("raised", _) => {
            evidence.actual = Some(raised());
            if result.get("matches").and_then(Value::as_bool) == Some(true) {
                (
                    BehaviourStatus::Pass,
                    format!("raised {} as claimed", text("error")),
                )
            } else {
                (
                    BehaviourStatus::Fail,
                    format!(
                        "expected {}, but it raised {}: {}",
                        request["error"].as_str().unwrap_or_default(),
                        text("error"),
                        text("message")
                    ),
                )
            }
        }
        ("no_exception", _) => (
            BehaviourStatus::Fail,
            format!(
                "expected {}, but nothing was raised",
                request["error"].as_str().unwrap_or_default()
            ),
        ),
        ("bad_code", _) => (
            BehaviourStatus::Fail,
            format!("the claimed code does not compile: {}", text("message")),
        ),
        _ => (
            BehaviourStatus::Error,
            format!("the check failed: {}", text("message")),
        ),
    };
    let mut verdict = BehaviourVerdict::new(status, message);
    verdict.evidence = evidence;
    verdict
}

/// The JSON after the last nonce line of standard output.
fn result_of(stdout: &str, nonce: &str) -> Option<Value> {
    let at = stdout.rfind(&format!("\n{nonce}\n"))?;
    let rest = &stdout[at + nonce.len() + 2..];
    serde_json::from_str(rest.lines().next()?).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claims_are_read_from_citation_json() {
        let c = BehaviourClaim::from_json(
            &json!({"relation": "function_returns", "subject": "pkg.mod.fn", "args": [1, 2], "value": 3}),
        );
        assert_eq!(
            c,
            Some(Ok(BehaviourClaim::FunctionReturns {
                function: "pkg.mod.fn".into(),
                args: vec![json!(1), json!(2)],
                value: json!(3)
            }))
        );
        let t = BehaviourClaim::from_json(
            &json!({"relation": "throws", "code": "f(None)", "object": "TypeError"}),
        );
        assert_eq!(
            t,
            Some(Ok(BehaviourClaim::Throws {
                code: "f(None)".into(),
                error: "TypeError".into()
            }))
        );
        assert_eq!(
            BehaviourClaim::from_json(&json!({"relation": "test_passes", "subject": "t::x"})),
            Some(Ok(BehaviourClaim::TestPasses {
                test: "t::x".into()
            }))
        );
        assert_eq!(
            BehaviourClaim::from_json(&json!({"relation": "calls"})),
            None
        );
        assert!(matches!(
            BehaviourClaim::from_json(&json!({"relation": "function_returns", "subject": "f"})),
            Some(Err(_))
        ));
        assert!(matches!(
            BehaviourClaim::from_json(
                &json!({"relation": "function_returns", "subject": "f", "args": 1, "value": 1})
            ),
            Some(Err(_))
        ));
    }

    #[test]
    fn the_result_is_the_json_after_the_last_nonce() {
        let out = "noise\nN\n{\"outcome\": \"forged\"}\nmore\nN\n{\"outcome\": \"returned\"}\n";
        assert_eq!(result_of(out, "N"), Some(json!({"outcome": "returned"})));
        assert_eq!(result_of("nothing", "N"), None);
    }

    #[test]
    fn languages_parse() {
        assert_eq!(Language::parse("Python"), Some(Language::Python));
        assert_eq!(Language::parse("js"), Some(Language::JavaScript));
        assert_eq!(Language::parse("ts"), Some(Language::TypeScript));
        assert_eq!(Language::parse("cobol"), None);
    }
}
