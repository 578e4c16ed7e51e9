//! The one supervisor of the child processes verity starts: the MCP grounding servers, the
//! `command` provider's program and the Swift compiler.
//!
//! A [`Spec`] says what to run and under which limits; [`Spec::command_line`] is the one place
//! where the program and its arguments are decided (the memory and CPU limits wrap it in
//! `sh -c 'ulimit …; exec "$0" "$@"'`; a sandbox would wrap it there too). Every child runs in
//! its own process group (`process_group(0)`), and the whole group — grandchildren included —
//! is killed with `SIGKILL` on timeout, when its handle (or the future running it) is dropped,
//! and at the end of a run: as soon as the child, the group's leader, exits, crashes or is
//! killed, the rest of its group goes too (a program started by `sh -c` or `npx` leaves
//! nothing running behind it).
//!
//! Three forms:
//!
//! * [`Spec::run`]: blocking, to the end (the process exited and its output pipes closed, or
//!   the timeout struck); the output captured within bounds ([`Capture`]).
//! * [`Spec::run_async`]: the same on tokio; dropping the future kills the group.
//! * [`Spec::spawn_async`]: a long-lived process ([`AsyncProcess`]) whose standard input and
//!   output are handed to the caller (the MCP client's transport), watched by a task that
//!   publishes how it ended; its standard error is captured meanwhile.
//!
//! [`Output::into_result`] classifies how a run ended into a [`ProcessError`].

#![forbid(unsafe_code)]

mod blocking;
mod capture;
mod group;
mod nonblocking;
mod sandbox;
mod stamp;

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::time::Duration;

pub use blocking::Process;
pub use capture::{Capture, Captured, Quote, quote_tail};
pub use group::{Signal, kill_all};
pub use nonblocking::AsyncProcess;
pub use sandbox::{Backend, BackendChoice, Sandbox, SandboxLimits};
pub use stamp::{ProcessStamp, StampState};

/// How long to wait, once the run is over and its group killed, for the rest of its output (a
/// process outside the group, e.g. one that started its own session, may hold a pipe open).
const DRAIN: Duration = Duration::from_millis(500);

/// What a child's standard input is.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Stdin {
    /// `/dev/null`.
    #[default]
    Null,
    /// These bytes are written, then the pipe is closed. A program that does not read them is
    /// not an error.
    Bytes(Vec<u8>),
    /// A pipe handed to the caller ([`AsyncProcess::take_stdin`], [`Process::take_stdin`]); the
    /// run forms close it at once.
    Piped,
}

/// Resource limits applied through the shell's `ulimit` (see [`Spec::command_line`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Virtual memory, in MiB (`ulimit -v`).
    pub memory_mb: Option<u64>,
    /// CPU time, in seconds (`ulimit -t`; at least 1).
    pub cpu_seconds: Option<u64>,
}

/// What to run, and how.
#[derive(Clone, Debug)]
pub struct Spec {
    program: OsString,
    args: Vec<OsString>,
    arg0: Option<OsString>,
    env: Vec<(OsString, OsString)>,
    env_clear: bool,
    cwd: Option<PathBuf>,
    stdin: Stdin,
    stdout: Capture,
    stderr: Capture,
    timeout: Option<Duration>,
    limits: Limits,
    quote: Quote,
    sandbox: Option<Sandbox>,
}

/// The program and arguments a [`Spec`] runs, as decided by [`Spec::command_line`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandLine {
    pub program: OsString,
    pub args: Vec<OsString>,
    /// What the program sees as its name (`argv[0]`), when not the program itself.
    pub arg0: Option<OsString>,
    /// The sandbox backend it runs in, when the spec has a [`Sandbox`].
    pub sandbox: Option<Backend>,
}

impl Spec {
    /// `program` (a path, or a name looked up on `PATH`) with no arguments, verity's
    /// environment, no standard input, output discarded, no timeout and no limits.
    pub fn new(program: impl AsRef<OsStr>) -> Spec {
        Spec {
            program: program.as_ref().to_owned(),
            args: Vec::new(),
            arg0: None,
            env: Vec::new(),
            env_clear: false,
            cwd: None,
            stdin: Stdin::Null,
            stdout: Capture::Null,
            stderr: Capture::Null,
            timeout: None,
            limits: Limits::default(),
            quote: Quote::default(),
            sandbox: None,
        }
    }

    pub fn arg(mut self, arg: impl AsRef<OsStr>) -> Spec {
        self.args.push(arg.as_ref().to_owned());
        self
    }

    pub fn args<I: IntoIterator<Item = S>, S: AsRef<OsStr>>(mut self, args: I) -> Spec {
        self.args
            .extend(args.into_iter().map(|a| a.as_ref().to_owned()));
        self
    }

    /// The name the program sees as `argv[0]` (ignored under [`Limits`], whose shell `exec`
    /// cannot set it).
    pub fn arg0(mut self, arg0: impl AsRef<OsStr>) -> Spec {
        self.arg0 = Some(arg0.as_ref().to_owned());
        self
    }

    /// Adds a variable to the environment.
    pub fn env(mut self, key: impl AsRef<OsStr>, value: impl AsRef<OsStr>) -> Spec {
        self.env
            .push((key.as_ref().to_owned(), value.as_ref().to_owned()));
        self
    }

    pub fn envs<I, K, V>(mut self, vars: I) -> Spec
    where
        I: IntoIterator<Item = (K, V)>,
        K: AsRef<OsStr>,
        V: AsRef<OsStr>,
    {
        for (k, v) in vars {
            self = self.env(k, v);
        }
        self
    }

    /// Starts from an empty environment instead of verity's (the variables of
    /// [`Spec::env`] are still set).
    pub fn env_clear(mut self) -> Spec {
        self.env_clear = true;
        self
    }

    pub fn current_dir(mut self, dir: impl AsRef<Path>) -> Spec {
        self.cwd = Some(dir.as_ref().to_owned());
        self
    }

    pub fn stdin(mut self, stdin: Stdin) -> Spec {
        self.stdin = stdin;
        self
    }

    pub fn stdout(mut self, capture: Capture) -> Spec {
        self.stdout = capture;
        self
    }

    pub fn stderr(mut self, capture: Capture) -> Spec {
        self.stderr = capture;
        self
    }

    /// How long the run may take; at the deadline the group is killed.
    pub fn timeout(mut self, timeout: Duration) -> Spec {
        self.timeout = Some(timeout);
        self
    }

    pub fn limits(mut self, limits: Limits) -> Spec {
        self.limits = limits;
        self
    }

    /// Runs the program in this sandbox (see [`Sandbox`]): no network, read-only views, one
    /// writable scratch directory, CPU / memory / process / file-size limits. The current
    /// directory ([`Spec::current_dir`]) is then a path inside the sandbox (the scratch
    /// directory when unset), [`Spec::arg0`] is ignored, and the [`Limits`] are applied by the
    /// sandbox (the lower of the two where both set one). If no sandbox backend works here, the
    /// run fails with [`ProcessError::SandboxUnavailable`]: it never runs unsandboxed.
    pub fn sandbox(mut self, sandbox: Sandbox) -> Spec {
        self.sandbox = Some(sandbox);
        self
    }

    /// How standard error is quoted in errors ([`ProcessError`], [`Output::stderr_tail`]).
    pub fn quote(mut self, quote: Quote) -> Spec {
        self.quote = quote;
        self
    }

    /// The program as given, for messages.
    pub fn program(&self) -> &OsStr {
        &self.program
    }

    /// The one place where what runs is decided: the program and its arguments, wrapped in
    /// `/bin/sh -c 'ulimit -v …; ulimit -t …; exec "$0" "$@"' PROGRAM ARGS…` when there are
    /// [`Limits`], or in `bwrap …` / `unshare …` when there is a [`Sandbox`] (then an error if
    /// no sandbox backend works here).
    pub fn command_line(&self) -> Result<CommandLine, ProcessError> {
        if let Some(sandbox) = &self.sandbox {
            let unavailable = |missing: String| ProcessError::SandboxUnavailable { missing };
            let backend = sandbox.resolve_backend().map_err(unavailable)?;
            let path = self
                .env
                .iter()
                .rev()
                .find(|(k, _)| k == "PATH")
                .map(|(_, v)| v.as_os_str());
            let program = sandbox::find_program(&self.program, path)
                .unwrap_or_else(|| PathBuf::from(&self.program));
            let extra = sandbox::ExtraLimits {
                cpu_seconds: self.limits.cpu_seconds,
                memory_mb: self.limits.memory_mb,
            };
            let (program, args) = sandbox
                .wrap(backend, &program, &self.args, self.cwd.as_deref(), extra)
                .map_err(unavailable)?;
            return Ok(CommandLine {
                program,
                args,
                arg0: None,
                sandbox: Some(backend),
            });
        }
        let mut script = String::new();
        if let Some(mb) = self.limits.memory_mb {
            script.push_str(&format!(
                "ulimit -v {} 2>/dev/null; ",
                mb.saturating_mul(1024)
            ));
        }
        if let Some(seconds) = self.limits.cpu_seconds {
            script.push_str(&format!("ulimit -t {} 2>/dev/null; ", seconds.max(1)));
        }
        if script.is_empty() {
            return Ok(CommandLine {
                program: self.program.clone(),
                args: self.args.clone(),
                arg0: self.arg0.clone(),
                sandbox: None,
            });
        }
        script.push_str("exec \"$0\" \"$@\"");
        let mut args: Vec<OsString> = vec!["-c".into(), script.into(), self.program.clone()];
        args.extend(self.args.iter().cloned());
        Ok(CommandLine {
            program: "/bin/sh".into(),
            args,
            arg0: None,
            sandbox: None,
        })
    }

    /// The command, in its own process group, and the sandbox backend it runs in; standard
    /// streams are set by each form.
    fn command(&self) -> Result<(std::process::Command, Option<Backend>), ProcessError> {
        let line = self.command_line()?;
        let mut command = std::process::Command::new(&line.program);
        command.args(&line.args);
        if self.env_clear {
            command.env_clear();
        }
        command.envs(self.env.iter().map(|(k, v)| (k, v)));
        // In a sandbox the directory is a path inside it, set by the sandbox.
        if let Some(dir) = self.cwd.as_ref().filter(|_| line.sandbox.is_none()) {
            command.current_dir(dir);
        }
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt as _;
            if let Some(arg0) = &line.arg0 {
                command.arg0(arg0);
            }
            command.process_group(0);
        }
        Ok((command, line.sandbox))
    }

    /// What an [`Output`] records of the sandbox it ran in.
    fn sandbox_run(&self, backend: Option<Backend>) -> Option<SandboxRun> {
        let sandbox = self.sandbox.as_ref()?;
        let limits = sandbox.sandbox_limits();
        Some(SandboxRun {
            backend: backend?,
            limits: SandboxLimits {
                cpu_seconds: sandbox_min(limits.cpu_seconds, self.limits.cpu_seconds),
                memory_mb: sandbox_min(limits.memory_mb, self.limits.memory_mb),
                ..limits
            },
        })
    }

    fn start_error(&self, source: std::io::Error) -> ProcessError {
        let program = Path::new(&self.program).display().to_string();
        match source.kind() {
            std::io::ErrorKind::NotFound => ProcessError::NotFound { program, source },
            std::io::ErrorKind::PermissionDenied => {
                ProcessError::PermissionDenied { program, source }
            }
            _ => ProcessError::Start { program, source },
        }
    }
}

/// How a process ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Exit {
    /// It exited with this status.
    Code(i32),
    /// A signal ended it.
    Signal(i32),
    /// It ran past its timeout; its group was killed.
    TimedOut(Duration),
    /// Anything else ("could not be waited for (…)").
    Other(String),
}

impl Exit {
    pub fn from_status(status: &std::process::ExitStatus) -> Exit {
        if let Some(code) = status.code() {
            return Exit::Code(code);
        }
        #[cfg(unix)]
        {
            use std::os::unix::process::ExitStatusExt as _;
            if let Some(signal) = status.signal() {
                return Exit::Signal(signal);
            }
        }
        Exit::Other(format!("ended abnormally ({})", status))
    }

    /// The exit status, if it exited.
    pub fn code(&self) -> Option<i32> {
        match self {
            Exit::Code(code) => Some(*code),
            _ => None,
        }
    }

    pub fn success(&self) -> bool {
        *self == Exit::Code(0)
    }
}

impl std::fmt::Display for Exit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Exit::Code(code) => write!(f, "exited with status {}", code),
            Exit::Signal(signal) => write!(f, "was killed by signal {}", signal),
            Exit::TimedOut(timeout) => write!(f, "did not finish within {:?}", timeout),
            Exit::Other(how) => f.write_str(how),
        }
    }
}

/// Which output stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    Stdout,
    Stderr,
}

impl std::fmt::Display for Stream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Stream::Stdout => "standard output",
            Stream::Stderr => "standard error",
        })
    }
}

/// Why a process did not do its job. `stderr` fields hold the end of its standard error on one
/// line ([`quote_tail`]), empty if it wrote none.
#[derive(Debug, thiserror::Error)]
pub enum ProcessError {
    #[error("cannot start {program}: {source}")]
    NotFound {
        program: String,
        source: std::io::Error,
    },
    #[error("cannot start {program}: {source}")]
    PermissionDenied {
        program: String,
        source: std::io::Error,
    },
    #[error("cannot start {program}: {source}")]
    Start {
        program: String,
        source: std::io::Error,
    },
    #[error("did not finish within {timeout:?}; the process group was killed{}", and_stderr(.stderr))]
    TimedOut { timeout: Duration, stderr: String },
    #[error("was killed by signal {signal}{}", and_stderr(.stderr))]
    Signaled { signal: i32, stderr: String },
    #[error("exited with status {code}{}", and_stderr(.stderr))]
    Exited { code: i32, stderr: String },
    #[error("{how}{}", and_stderr(.stderr))]
    Ended { how: String, stderr: String },
    #[error("{stream} exceeds {}; the process group was killed", show_size(*.limit))]
    OutputTooLarge { stream: Stream, limit: usize },
    #[error("{context} failed: {source}")]
    Io {
        context: &'static str,
        source: std::io::Error,
    },
    /// A sandboxed spec cannot run here: no sandbox backend works (a configuration problem of
    /// the machine; callers report it as one). Nothing ran.
    #[error("cannot run sandboxed: {missing}")]
    SandboxUnavailable { missing: String },
    /// The sandbox stopped the program at one of its limits, or it was denied something the
    /// sandbox forbids ([`Output::contained`]).
    #[error("{reason} ({how}){}", and_stderr(.stderr))]
    Contained {
        reason: Contained,
        how: String,
        stderr: String,
    },
}

impl ProcessError {
    /// As an `io::Error`: a start failure is the error the system gave.
    pub fn into_io(self) -> std::io::Error {
        match self {
            ProcessError::NotFound { source, .. }
            | ProcessError::PermissionDenied { source, .. }
            | ProcessError::Start { source, .. } => source,
            other => std::io::Error::other(other),
        }
    }

    /// Whether the process never ran.
    pub fn is_start(&self) -> bool {
        matches!(
            self,
            ProcessError::NotFound { .. }
                | ProcessError::PermissionDenied { .. }
                | ProcessError::Start { .. }
                | ProcessError::SandboxUnavailable { .. }
        )
    }

    /// Whether it is the machine's configuration that is at fault (no sandbox backend): an
    /// error of kind `Config` for callers that classify errors.
    pub fn is_config(&self) -> bool {
        matches!(self, ProcessError::SandboxUnavailable { .. })
    }
}

/// `how` followed by the end of standard error: `how; standard error ends: a | b`, or
/// `how (nothing on standard error)`.
pub fn with_stderr(how: &str, tail: &str) -> String {
    format!("{}{}", how, and_stderr(tail))
}

fn and_stderr(tail: &str) -> String {
    if tail.is_empty() {
        " (nothing on standard error)".to_owned()
    } else {
        format!("; standard error ends: {}", tail)
    }
}

fn sandbox_min(a: Option<u64>, b: Option<u64>) -> Option<u64> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// A sandbox's wrapper (bubblewrap, the unshare prologue's shell) reports a program killed by
/// signal `n` as status `128 + n`: turned back into the signal.
pub(crate) fn sandbox_exit(exit: Exit, sandboxed: bool) -> Exit {
    match exit {
        Exit::Code(code) if sandboxed && (129..=128 + 64).contains(&code) => {
            Exit::Signal(code - 128)
        }
        other => other,
    }
}

fn show_size(bytes: usize) -> String {
    const MIB: usize = 1024 * 1024;
    if bytes >= MIB && bytes.is_multiple_of(MIB) {
        format!("{} MiB", bytes / MIB)
    } else {
        format!("{} bytes", bytes)
    }
}

/// The sandbox a run happened in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SandboxRun {
    /// Which backend ran it.
    pub backend: Backend,
    /// The limits it ran under (the sandbox's, lowered by the spec's [`Limits`]).
    pub limits: SandboxLimits,
}

/// What a sandbox stopped or denied ([`Output::contained`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Contained {
    /// The wall-clock timeout struck; the group was killed.
    Timeout,
    /// The CPU-time limit (`SIGXCPU`, or `SIGKILL` once at least that much time went by).
    CpuLimit,
    /// The memory (address-space) limit: an allocation failed, or it died of it.
    MemoryLimit,
    /// The process limit: `fork` failed with `EAGAIN`.
    ProcessLimit,
    /// The output limit: a captured stream went over its bound, or a file over the file-size
    /// limit (`SIGXFSZ`, `EFBIG`).
    OutputLimit,
    /// A network access failed: the sandbox has no network.
    NetworkDenied,
    /// A write outside the scratch directory failed (`EROFS`, `EACCES`).
    WriteDenied,
}

impl Contained {
    /// `timeout`, `cpu_limit`, `memory_limit`, `process_limit`, `output_limit`,
    /// `network_denied`, `write_denied`.
    pub fn as_str(self) -> &'static str {
        match self {
            Contained::Timeout => "timeout",
            Contained::CpuLimit => "cpu_limit",
            Contained::MemoryLimit => "memory_limit",
            Contained::ProcessLimit => "process_limit",
            Contained::OutputLimit => "output_limit",
            Contained::NetworkDenied => "network_denied",
            Contained::WriteDenied => "write_denied",
        }
    }
}

impl std::fmt::Display for Contained {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Contained::Timeout => "stopped at the wall-clock timeout",
            Contained::CpuLimit => "stopped at the CPU-time limit",
            Contained::MemoryLimit => "stopped at the memory limit",
            Contained::ProcessLimit => "stopped at the process limit",
            Contained::OutputLimit => "stopped at the output limit",
            Contained::NetworkDenied => "denied the network",
            Contained::WriteDenied => "denied a write outside its scratch directory",
        })
    }
}

const SIGKILL: i32 = 9;
const SIGSEGV: i32 = 11;
const SIGABRT: i32 = 6;
const SIGXCPU: i32 = 24;
const SIGXFSZ: i32 = 25;

/// What standard error says when an allocation failed (Python, C, C++, V8, Rust, the shell).
const MEMORY_MESSAGES: [&str; 7] = [
    "MemoryError",
    "Cannot allocate memory",
    "out of memory",
    "Out of memory",
    "std::bad_alloc",
    "memory allocation of",
    "Failed to reserve virtual memory",
];
/// What standard error says when `fork` failed at the process limit.
const PROCESS_MESSAGES: [&str; 4] = [
    "Resource temporarily unavailable",
    "Cannot fork",
    "can't fork",
    "fork: retry",
];
/// What standard error says when a connection or a name lookup failed for want of a network.
const NETWORK_MESSAGES: [&str; 8] = [
    "Network is unreachable",
    "ENETUNREACH",
    "Temporary failure in name resolution",
    "EAI_AGAIN",
    "Name or service not known",
    "Could not resolve host",
    "getaddrinfo",
    "Connection refused",
];
/// What standard error says when a write was refused.
const WRITE_MESSAGES: [&str; 4] = [
    "Read-only file system",
    "EROFS",
    "Permission denied",
    "EACCES",
];
const FILE_SIZE_MESSAGES: [&str; 2] = ["File too large", "EFBIG"];

/// What a run left behind.
#[derive(Debug)]
pub struct Output {
    pub exit: Exit,
    pub stdout: Captured,
    pub stderr: Captured,
    /// The sandbox it ran in, if any (which backend, under which limits).
    pub sandbox: Option<SandboxRun>,
    /// How long it ran (wall clock).
    pub elapsed: Duration,
    quote: Quote,
}

impl Output {
    /// Exited with status 0, nothing over its limit, nothing failed to read.
    pub fn success(&self) -> bool {
        self.exit.success() && self.problem().is_none()
    }

    /// The end of standard error on one line, as the spec's [`Quote`] says.
    pub fn stderr_tail(&self) -> String {
        self.stderr.quote(self.quote)
    }

    fn problem(&self) -> Option<ProcessError> {
        for (stream, captured) in [
            (Stream::Stdout, &self.stdout),
            (Stream::Stderr, &self.stderr),
        ] {
            if let Some(limit) = captured.over_limit {
                return Some(ProcessError::OutputTooLarge { stream, limit });
            }
        }
        for (context, captured) in [
            ("reading standard output", &self.stdout),
            ("reading standard error", &self.stderr),
        ] {
            if let Some(e) = &captured.error {
                return Some(ProcessError::Io {
                    context,
                    source: std::io::Error::new(e.kind(), e.to_string()),
                });
            }
        }
        None
    }

    /// What the sandbox stopped or denied, judged from how the run ended and what its
    /// standard error says, in this order: the wall timeout, a captured stream over its bound
    /// (also a [`Capture::Head`] / [`Capture::Tail`] that dropped bytes), the CPU limit, the
    /// memory limit, the file-size limit, the process limit, the network, a write. Outside a
    /// sandbox only the first two. A run that exited 0 is contained only by the first two.
    ///
    /// The limits of detection: a signal is read from the exit (bubblewrap and the unshare
    /// backend report a signal `n` as status `128 + n`, turned back into [`Exit::Signal`]); a
    /// `SIGKILL` counts as the CPU limit only when at least the CPU limit went by; a `SIGKILL`,
    /// `SIGSEGV` or `SIGABRT` counts as the memory limit when there is one (a program that
    /// crashes on its own under a memory limit is reported so too); a failure the program
    /// reports in its own words
    /// is recognised only by the usual messages (`MemoryError`, `Cannot allocate memory`,
    /// `Resource temporarily unavailable`, `Network is unreachable`, `Read-only file
    /// system`, `Permission denied`…) on its standard error, which must be captured.
    pub fn contained(&self) -> Option<Contained> {
        if matches!(self.exit, Exit::TimedOut(_)) {
            return Some(Contained::Timeout);
        }
        let truncated = [&self.stdout, &self.stderr]
            .iter()
            .any(|c| c.over_limit.is_some() || c.dropped > 0);
        if truncated {
            return Some(Contained::OutputLimit);
        }
        let run = self.sandbox?;
        if self.exit.success() {
            return None;
        }
        let stderr = self.stderr.text();
        let says = |messages: &[&str]| messages.iter().any(|m| stderr.contains(m));
        let signal = match self.exit {
            Exit::Signal(signal) => Some(signal),
            _ => None,
        };
        if let Some(cpu) = run.limits.cpu_seconds {
            let spent = self.elapsed >= Duration::from_secs(cpu.max(1));
            if signal == Some(SIGXCPU) || (signal == Some(SIGKILL) && spent) {
                return Some(Contained::CpuLimit);
            }
        }
        if run.limits.memory_mb.is_some()
            && (says(&MEMORY_MESSAGES)
                || matches!(signal, Some(SIGKILL) | Some(SIGSEGV) | Some(SIGABRT)))
        {
            return Some(Contained::MemoryLimit);
        }
        if run.limits.file_size_mb.is_some()
            && (signal == Some(SIGXFSZ) || says(&FILE_SIZE_MESSAGES))
        {
            return Some(Contained::OutputLimit);
        }
        if run.limits.processes.is_some() && says(&PROCESS_MESSAGES) {
            return Some(Contained::ProcessLimit);
        }
        if says(&NETWORK_MESSAGES) {
            return Some(Contained::NetworkDenied);
        }
        if says(&WRITE_MESSAGES) {
            return Some(Contained::WriteDenied);
        }
        None
    }

    /// The output if the process succeeded; else why not, in this order: it timed out, an
    /// output was over its limit, reading an output failed, the sandbox contained it
    /// ([`ProcessError::Contained`]), it exited non-zero or by a signal.
    pub fn into_result(self) -> Result<Output, ProcessError> {
        if let Exit::TimedOut(timeout) = self.exit {
            return Err(ProcessError::TimedOut {
                timeout,
                stderr: self.stderr_tail(),
            });
        }
        if let Some(problem) = self.problem() {
            return Err(problem);
        }
        if !self.exit.success()
            && let Some(reason) = self.contained()
        {
            return Err(ProcessError::Contained {
                reason,
                how: self.exit.to_string(),
                stderr: self.stderr_tail(),
            });
        }
        match self.exit.clone() {
            Exit::Code(0) => Ok(self),
            Exit::Code(code) => Err(ProcessError::Exited {
                code,
                stderr: self.stderr_tail(),
            }),
            Exit::Signal(signal) => Err(ProcessError::Signaled {
                signal,
                stderr: self.stderr_tail(),
            }),
            Exit::TimedOut(_) | Exit::Other(_) => Err(ProcessError::Ended {
                how: self.exit.to_string(),
                stderr: self.stderr_tail(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_wrap_the_command_line() {
        let spec = Spec::new("swiftc").args(["-parse", "main.swift"]);
        assert_eq!(
            spec.command_line().unwrap(),
            CommandLine {
                program: "swiftc".into(),
                args: vec!["-parse".into(), "main.swift".into()],
                arg0: None,
                sandbox: None,
            }
        );
        let limited = spec.limits(Limits {
            memory_mb: Some(4096),
            cpu_seconds: Some(0),
        });
        let line = limited.command_line().unwrap();
        assert_eq!(line.program, "/bin/sh");
        assert_eq!(
            line.args,
            [
                "-c",
                "ulimit -v 4194304 2>/dev/null; ulimit -t 1 2>/dev/null; exec \"$0\" \"$@\"",
                "swiftc",
                "-parse",
                "main.swift"
            ]
        );
    }

    #[test]
    fn errors_read_well() {
        let exited = ProcessError::Exited {
            code: 3,
            stderr: "a | b".into(),
        };
        assert_eq!(
            exited.to_string(),
            "exited with status 3; standard error ends: a | b"
        );
        let killed = ProcessError::Signaled {
            signal: 9,
            stderr: String::new(),
        };
        assert_eq!(
            killed.to_string(),
            "was killed by signal 9 (nothing on standard error)"
        );
        let large = ProcessError::OutputTooLarge {
            stream: Stream::Stdout,
            limit: 16 * 1024 * 1024,
        };
        assert_eq!(
            large.to_string(),
            "standard output exceeds 16 MiB; the process group was killed"
        );
        let small = ProcessError::OutputTooLarge {
            stream: Stream::Stderr,
            limit: 10,
        };
        assert_eq!(
            small.to_string(),
            "standard error exceeds 10 bytes; the process group was killed"
        );
        let timeout = ProcessError::TimedOut {
            timeout: Duration::from_millis(200),
            stderr: "slow".into(),
        };
        assert_eq!(
            timeout.to_string(),
            "did not finish within 200ms; the process group was killed; standard error ends: slow"
        );
    }
}
