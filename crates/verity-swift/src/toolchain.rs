//! The real-compiler syntax check: `swiftc -parse` (or `swift-frontend -frontend -parse`) on
//! the extracted code, in a scratch directory, with wall-clock, CPU-time and memory limits.
//!
//! The compiler runs in the `verity-process` sandbox ([`verity_process::Sandbox`]): no network,
//! the system and its own installation read-only, the scratch directory holding `main.swift`
//! its one writable directory, CPU-time, memory, process and file-size limits, in its own
//! process group, with a minimal environment and no standard input; at the deadline (and at
//! the end) the whole group is killed. Where no sandbox backend works the check is an error
//! naming what is missing, never an unsandboxed run. Diagnostics are kept verbatim;
//! `file:line:col: error:` lines are also parsed into positions.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Serialize;
use verity_process::{Capture, Exit, ProcessError, Sandbox, SandboxLimits, Spec, Stdin};

/// Which syntax checker to use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ToolchainChoice {
    /// A `swiftc` / `swift-frontend` on `PATH` if there is one, else tree-sitter.
    Auto,
    /// tree-sitter-swift only.
    TreeSitter,
    /// This compiler binary.
    Path(PathBuf),
}

impl ToolchainChoice {
    /// `auto`, `tree-sitter`, or a path.
    pub fn parse(s: &str) -> ToolchainChoice {
        match s.trim() {
            "" | "auto" => ToolchainChoice::Auto,
            "tree-sitter" | "treesitter" | "none" => ToolchainChoice::TreeSitter,
            p => ToolchainChoice::Path(PathBuf::from(p)),
        }
    }

    /// The compiler this choice runs, if any (`Auto` searches `PATH`).
    pub fn resolve(&self) -> Option<PathBuf> {
        match self {
            ToolchainChoice::TreeSitter => None,
            ToolchainChoice::Path(p) => {
                // a bare name is looked up on PATH
                match p.to_str() {
                    Some(name) if !name.contains('/') => {
                        find_on_path(&[name]).or_else(|| Some(p.clone()))
                    }
                    _ => Some(p.clone()),
                }
            }
            ToolchainChoice::Auto => find_on_path(&["swiftc", "swift-frontend"]),
        }
    }
}

/// Limits of one compiler run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    pub wall: Duration,
    pub cpu_seconds: u64,
    pub memory_mb: u64,
    /// Output beyond this many bytes (per stream) is dropped.
    pub max_output: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            wall: Duration::from_secs(30),
            cpu_seconds: 30,
            memory_mb: 4096,
            max_output: 256 * 1024,
        }
    }
}

/// One compiler diagnostic.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    pub line: Option<u32>,
    pub column: Option<u32>,
    /// `error`, `warning`, `note`.
    pub severity: String,
    /// The diagnostic line as the compiler printed it.
    pub text: String,
}

/// The result of a compiler run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CompilerRun {
    /// `swiftc -parse` and the binary's path.
    pub parser: String,
    pub exit_code: Option<i32>,
    pub timed_out: bool,
    pub diagnostics: Vec<Diagnostic>,
    /// Everything the compiler printed (stderr then stdout), verbatim (capped).
    pub output: String,
    /// The sandbox backend it ran in (`bubblewrap`, `unshare`).
    pub sandbox: String,
    /// What the sandbox stopped it at, if anything (`timeout`, `cpu_limit`, `memory_limit`…).
    pub contained: Option<String>,
}

impl CompilerRun {
    /// Passed: exited 0 and printed no error.
    pub fn ok(&self) -> bool {
        !self.timed_out
            && self.exit_code == Some(0)
            && !self.diagnostics.iter().any(|d| d.severity == "error")
    }
}

fn find_on_path(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    for name in names {
        for dir in std::env::split_paths(&path) {
            let p = dir.join(name);
            if is_executable(&p) {
                return Some(p);
            }
        }
    }
    None
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Parses `main.swift:3:5: error: expected expression` lines.
pub fn parse_diagnostics(output: &str) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for line in output.lines() {
        for sev in ["error", "warning", "note"] {
            let marker = format!(": {sev}: ");
            let Some(at) = line.find(&marker) else {
                continue;
            };
            let head = &line[..at];
            let mut nums = head.rsplitn(3, ':');
            let col = nums.next().and_then(|c| c.trim().parse::<u32>().ok());
            let ln = nums.next().and_then(|c| c.trim().parse::<u32>().ok());
            let (line_no, col) = match (ln, col) {
                (Some(l), Some(c)) => (Some(l), Some(c)),
                _ => (None, None),
            };
            out.push(Diagnostic {
                line: line_no,
                column: col,
                severity: sev.to_owned(),
                text: line.to_owned(),
            });
            break;
        }
    }
    out
}

/// What `swift-frontend --version` (or `swiftc --version`) says.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CompilerVersion {
    /// `swiftc` or `swift-frontend`.
    pub name: String,
    /// The first line it printed, verbatim (`Swift version 6.0.3 (swift-6.0.3-RELEASE)`).
    pub banner: String,
    /// The language version in the banner, if it has one.
    pub version: Option<crate::version::Version>,
}

/// The Swift version in a `--version` banner: the version after `Swift version` (Apple's
/// `Apple Swift version 5.10 (…)` too).
pub fn parse_version_banner(banner: &str) -> Option<crate::version::Version> {
    let at = banner.find("Swift version ")? + "Swift version ".len();
    let word = banner[at..].split_whitespace().next()?;
    // `6.1-dev`, `5.10.1`
    let digits: String = word
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    crate::version::Version::parse(digits.trim_end_matches('.'))
}

/// Asks `compiler` its version (`--version`), in the same sandbox and limits as a check.
pub fn compiler_version(compiler: &Path, limits: Limits) -> std::io::Result<CompilerVersion> {
    if !is_executable(compiler) {
        return Err(std::io::Error::new(
            std::io::ErrorKind::NotFound,
            format!("{} is not an executable file", compiler.display()),
        ));
    }
    let scratch = tempfile::Builder::new().prefix("verity-swift-").tempdir()?;
    {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(scratch.path(), std::fs::Permissions::from_mode(0o755))?;
    }
    let name = if is_frontend(compiler) {
        "swift-frontend"
    } else {
        "swiftc"
    };
    let run = sandboxed(compiler, &["--version".to_owned()], scratch.path(), limits)
        .run()
        .map_err(ProcessError::into_io)?;
    let mut text = run.stdout.text();
    text.push('\n');
    text.push_str(&run.stderr.text());
    let banner = text
        .lines()
        .map(str::trim)
        .find(|l| l.contains("Swift version"))
        .map(str::to_owned);
    match (run.exit.code(), banner) {
        (Some(0), Some(banner)) => Ok(CompilerVersion {
            name: name.to_owned(),
            version: parse_version_banner(&banner),
            banner,
        }),
        (code, _) => Err(std::io::Error::other(format!(
            "`{} --version` {}: {}",
            compiler.display(),
            code.map_or("was killed".to_owned(), |c| format!("exited {c}")),
            text.trim().chars().take(400).collect::<String>()
        ))),
    }
}

fn is_frontend(compiler: &Path) -> bool {
    compiler
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.contains("frontend"))
}

/// `compiler args…` in the sandbox, in `scratch`, with the limits and a minimal environment.
fn sandboxed(compiler: &Path, args: &[String], scratch: &Path, limits: Limits) -> Spec {
    let sandbox = Sandbox::new(scratch).limits(SandboxLimits {
        cpu_seconds: Some(limits.cpu_seconds),
        memory_mb: Some(limits.memory_mb),
        processes: Some(64),
        file_size_mb: Some(64),
    });
    Spec::new(compiler)
        .args(args)
        .sandbox(sandbox)
        .current_dir(scratch)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", scratch)
        .env("TMPDIR", scratch)
        .env("LANG", "C")
        .stdin(Stdin::Null)
        .stdout(Capture::Head(limits.max_output))
        .stderr(Capture::Head(limits.max_output))
        .timeout(limits.wall)
}

/// Runs `compiler` in parse-only mode on `source`.
pub fn run_compiler(compiler: &Path, source: &str, limits: Limits) -> std::io::Result<CompilerRun> {
    if !is_executable(compiler) {
        return Err(std::io::Error::new(
            std::io::ErrorKind::NotFound,
            format!("{} is not an executable file", compiler.display()),
        ));
    }
    let scratch = tempfile::Builder::new().prefix("verity-swift-").tempdir()?;
    // Readable by the unprivileged id the sandbox may run the compiler as.
    {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(scratch.path(), std::fs::Permissions::from_mode(0o755))?;
    }
    let file = scratch.path().join("main.swift");
    std::fs::write(&file, source)?;
    let frontend = is_frontend(compiler);
    let mut args: Vec<String> = Vec::new();
    if frontend {
        args.push("-frontend".into());
    }
    args.push("-parse".into());
    args.push("main.swift".into());
    let run = sandboxed(compiler, &args, scratch.path(), limits)
        .run()
        .map_err(ProcessError::into_io)?;
    let timed_out = matches!(run.exit, Exit::TimedOut(_));
    let contained = run.contained().map(|c| c.as_str().to_owned());
    let backend = run
        .sandbox
        .map(|s| s.backend.as_str().to_owned())
        .unwrap_or_default();
    let mut output = run.stderr.text();
    let so = run.stdout.text();
    if !so.trim().is_empty() {
        if !output.is_empty() && !output.ends_with('\n') {
            output.push('\n');
        }
        output.push_str(&so);
    }
    if timed_out {
        output.push_str(&format!(
            "\n[verity: killed after {}s wall-clock limit]",
            limits.wall.as_secs()
        ));
    }
    Ok(CompilerRun {
        parser: format!(
            "{} {} ({})",
            if frontend {
                "swift-frontend -frontend"
            } else {
                "swiftc"
            },
            "-parse",
            compiler.display()
        ),
        exit_code: run.exit.code(),
        timed_out,
        diagnostics: parse_diagnostics(&output),
        output,
        sandbox: backend,
        contained,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diagnostics_are_parsed() {
        let d = parse_diagnostics(
            "main.swift:3:12: error: expected expression\n  let x = \n         ^\nmain.swift:1:1: warning: w\n",
        );
        assert_eq!(d.len(), 2);
        assert_eq!((d[0].line, d[0].column), (Some(3), Some(12)));
        assert_eq!(d[0].severity, "error");
        assert_eq!(d[1].severity, "warning");
        assert!(parse_diagnostics("nothing here").is_empty());
    }

    #[test]
    fn version_banners() {
        let v = |s| parse_version_banner(s).map(|v| v.to_string());
        assert_eq!(
            v("Swift version 6.0.3 (swift-6.0.3-RELEASE)").as_deref(),
            Some("6.0.3")
        );
        assert_eq!(
            v("Apple Swift version 5.10 (swiftlang-5.10.0.13 clang-1500.3.9.4)").as_deref(),
            Some("5.10")
        );
        assert_eq!(
            v("Swift version 6.1-dev (LLVM abc)").as_deref(),
            Some("6.1")
        );
        assert_eq!(v("clang version 17"), None);
        assert_eq!(v("Swift version "), None);
    }

    #[test]
    fn choices() {
        assert_eq!(ToolchainChoice::parse("auto"), ToolchainChoice::Auto);
        assert_eq!(
            ToolchainChoice::parse("tree-sitter"),
            ToolchainChoice::TreeSitter
        );
        assert_eq!(
            ToolchainChoice::parse("/opt/swift/bin/swiftc"),
            ToolchainChoice::Path("/opt/swift/bin/swiftc".into())
        );
        assert_eq!(ToolchainChoice::TreeSitter.resolve(), None);
    }
}
