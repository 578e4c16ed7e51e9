//! The real-compiler syntax check: `swiftc -parse` (or `swift-frontend -frontend -parse`) on
//! the extracted code, in a scratch directory, with wall-clock, CPU-time and memory limits.
//!
//! The compiler runs as `sh -c 'ulimit -v …; ulimit -t …; exec "$0" "$@"' swiftc -parse
//! main.swift` in its own process group, with a minimal environment and no standard input;
//! at the deadline the whole group is killed. Diagnostics are kept verbatim; `file:line:col:
//! error:` lines are also parsed into positions.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde::Serialize;

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

fn read_capped(mut r: impl Read, cap: usize) -> Vec<u8> {
    let mut out = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        match r.read(&mut buf) {
            Ok(0) | Err(_) => return out,
            Ok(n) => {
                let room = cap.saturating_sub(out.len());
                out.extend_from_slice(&buf[..n.min(room)]);
            }
        }
    }
}

/// Runs `compiler` in parse-only mode on `source`.
pub fn run_compiler(compiler: &Path, source: &str, limits: Limits) -> std::io::Result<CompilerRun> {
    use std::os::unix::process::CommandExt;

    if !is_executable(compiler) {
        return Err(std::io::Error::new(
            std::io::ErrorKind::NotFound,
            format!("{} is not an executable file", compiler.display()),
        ));
    }
    let scratch = tempfile::Builder::new().prefix("verity-swift-").tempdir()?;
    let file = scratch.path().join("main.swift");
    std::fs::write(&file, source)?;
    let frontend = compiler
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.contains("frontend"));
    let mut args: Vec<String> = Vec::new();
    if frontend {
        args.push("-frontend".into());
    }
    args.push("-parse".into());
    args.push("main.swift".into());
    let script = format!(
        "ulimit -v {} 2>/dev/null; ulimit -t {} 2>/dev/null; exec \"$0\" \"$@\"",
        limits.memory_mb.saturating_mul(1024),
        limits.cpu_seconds.max(1)
    );
    let mut cmd = Command::new("/bin/sh");
    cmd.arg("-c")
        .arg(script)
        .arg(compiler)
        .args(&args)
        .current_dir(scratch.path())
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", scratch.path())
        .env("TMPDIR", scratch.path())
        .env("LANG", "C")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let started = Instant::now();
    let mut child = cmd.spawn()?;
    let pid = child.id();
    let stdout = child.stdout.take();
    let stderr = child.stderr.take();
    let cap = limits.max_output;
    let out_t = std::thread::spawn(move || stdout.map(|s| read_capped(s, cap)).unwrap_or_default());
    let err_t = std::thread::spawn(move || stderr.map(|s| read_capped(s, cap)).unwrap_or_default());
    let mut timed_out = false;
    let status = loop {
        match child.try_wait()? {
            Some(s) => break Some(s),
            None if started.elapsed() >= limits.wall => {
                timed_out = true;
                kill_group(pid);
                let _ = child.kill();
                break child.wait().ok();
            }
            None => std::thread::sleep(Duration::from_millis(5)),
        }
    };
    // the compiler may have left children holding the pipes: end the group either way
    kill_group(pid);
    let stdout = out_t.join().unwrap_or_default();
    let stderr = err_t.join().unwrap_or_default();
    let mut output = String::from_utf8_lossy(&stderr).into_owned();
    let so = String::from_utf8_lossy(&stdout);
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
        exit_code: status.and_then(|s| s.code()),
        timed_out,
        diagnostics: parse_diagnostics(&output),
        output,
    })
}

fn kill_group(pid: u32) {
    if let Some(p) = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    {
        let _ = rustix::process::kill_process_group(p, rustix::process::Signal::KILL);
    }
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
