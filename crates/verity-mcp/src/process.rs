//! The server's process: spawning it in its own process group, keeping the end of its standard
//! error, noticing when it exits, and ending it.

use std::process::{ExitStatus, Stdio};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio::io::AsyncReadExt;
use tokio::process::{Child, ChildStderr, ChildStdin, ChildStdout};
use tokio::sync::{mpsc, watch};
use verity_model::ServerSpec;

/// How much of the end of standard error is kept.
const STDERR_KEEP_BYTES: usize = 8 * 1024;
/// How many of its last lines an error message quotes.
const STDERR_TAIL_LINES: usize = 8;
/// How many characters of standard error an error message quotes at most.
const STDERR_TAIL_CHARS: usize = 800;
/// How long to wait, once the process has ended, for the rest of its standard error (a
/// grandchild may hold the pipe open).
const STDERR_DRAIN: Duration = Duration::from_millis(500);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Sig {
    Term,
    Kill,
}

/// A running (or ended) server process. Dropping it kills the process group.
pub(crate) struct ServerProcess {
    pid: Option<u32>,
    stderr: Arc<StderrTail>,
    /// `None` while it runs; then how it ended ("exited with status 3").
    exit: watch::Receiver<Option<String>>,
    /// To the task that owns the child; dropping the sender kills the process.
    signals: mpsc::UnboundedSender<Sig>,
}

impl ServerProcess {
    /// Starts `spec.command` with `spec.env` added to verity's environment, its standard streams
    /// piped, in a new process group (so a Ctrl-C at the terminal reaches verity, which then
    /// ends the server itself, instead of killing the server under samples still in flight).
    pub(crate) fn spawn(spec: &ServerSpec) -> std::io::Result<(Self, ChildStdout, ChildStdin)> {
        let Some((program, args)) = spec.command.split_first() else {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "the command is empty",
            ));
        };
        let mut command = tokio::process::Command::new(program);
        command
            .args(args)
            .envs(&spec.env)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        #[cfg(unix)]
        command.process_group(0);
        let mut child = command.spawn()?;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            return Err(std::io::Error::other("the child's pipes were not set up"));
        };
        let pid = child.id();
        let tail = Arc::new(StderrTail::default());
        let stderr_task = tokio::spawn(read_stderr(stderr, tail.clone()));
        let (exit_tx, exit_rx) = watch::channel(None);
        let (sig_tx, sig_rx) = mpsc::unbounded_channel();
        tokio::spawn(monitor(child, pid, sig_rx, stderr_task, exit_tx));
        Ok((
            ServerProcess {
                pid,
                stderr: tail,
                exit: exit_rx,
                signals: sig_tx,
            },
            stdout,
            stdin,
        ))
    }

    pub(crate) fn pid(&self) -> Option<u32> {
        self.pid
    }

    /// How the process ended, if it has.
    pub(crate) fn exit_status(&self) -> Option<String> {
        self.exit.borrow().clone()
    }

    /// Resolves once the process has ended (or its monitor is gone), with how it ended.
    pub(crate) async fn exited(&self) -> String {
        let mut rx = self.exit.clone();
        match rx.wait_for(Option::is_some).await {
            Ok(status) => status.clone().unwrap_or_default(),
            Err(_) => "is no longer monitored".to_owned(),
        }
    }

    /// Waits up to `timeout` for the process to end; how it ended, if it did.
    pub(crate) async fn wait_exit(&self, timeout: Duration) -> Option<String> {
        tokio::time::timeout(timeout, self.exited()).await.ok()
    }

    pub(crate) fn signal(&self, sig: Sig) {
        // Fails only when the monitor is done, i.e. the process has been reaped already.
        let _ = self.signals.send(sig);
    }

    /// Kills the process group and waits (up to `timeout`) until the process is reaped.
    pub(crate) async fn kill(&self, timeout: Duration) {
        self.signal(Sig::Kill);
        let _ = self.wait_exit(timeout).await;
    }

    /// The last lines of standard error on one line (`a | b | c`), shortened; empty if none.
    pub(crate) fn stderr_tail(&self) -> String {
        self.stderr.tail()
    }

    /// `how`, followed by the end of standard error.
    pub(crate) fn describe(&self, how: &str) -> String {
        let tail = self.stderr_tail();
        if tail.is_empty() {
            format!("{} (nothing on standard error)", how)
        } else {
            format!("{}; its standard error ends: {}", how, tail)
        }
    }
}

/// Owns the child: waits for it, delivers signals while it has not been reaped (so a signal
/// never reaches a recycled process id), then publishes how it ended once its standard error
/// has been read to the end.
async fn monitor(
    mut child: Child,
    pid: Option<u32>,
    mut signals: mpsc::UnboundedReceiver<Sig>,
    stderr_task: tokio::task::JoinHandle<()>,
    exit_tx: watch::Sender<Option<String>>,
) {
    let status = loop {
        tokio::select! {
            biased;
            status = child.wait() => break status,
            sig = signals.recv() => match sig {
                Some(sig) => deliver(&mut child, pid, sig),
                None => {
                    // The owner is gone without shutting down: kill.
                    deliver(&mut child, pid, Sig::Kill);
                    break child.wait().await;
                }
            },
        }
    };
    let _ = tokio::time::timeout(STDERR_DRAIN, stderr_task).await;
    let how = match status {
        Ok(status) => describe_status(&status),
        Err(e) => format!("could not be waited for ({})", e),
    };
    let _ = exit_tx.send(Some(how));
}

fn deliver(child: &mut Child, pid: Option<u32>, sig: Sig) {
    #[cfg(unix)]
    {
        // The child leads its own process group (`process_group(0)`), whose id is its pid.
        if let Some(group) = pid
            .and_then(|id| i32::try_from(id).ok())
            .filter(|&id| id > 1)
            .and_then(rustix::process::Pid::from_raw)
        {
            let signal = match sig {
                Sig::Term => rustix::process::Signal::TERM,
                Sig::Kill => rustix::process::Signal::KILL,
            };
            if rustix::process::kill_process_group(group, signal).is_ok() {
                return;
            }
        }
    }
    #[cfg(not(unix))]
    let _ = pid;
    if sig == Sig::Kill {
        let _ = child.start_kill();
    }
}

pub(crate) fn describe_status(status: &ExitStatus) -> String {
    if let Some(code) = status.code() {
        return format!("exited with status {}", code);
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt as _;
        if let Some(signal) = status.signal() {
            return format!("was killed by signal {}", signal);
        }
    }
    format!("ended abnormally ({})", status)
}

async fn read_stderr(mut stderr: ChildStderr, tail: Arc<StderrTail>) {
    let mut buf = vec![0u8; 4096];
    loop {
        match stderr.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => tail.push(&buf[..n]),
        }
    }
}

/// The last [`STDERR_KEEP_BYTES`] of a stream.
#[derive(Default)]
pub(crate) struct StderrTail {
    bytes: Mutex<Vec<u8>>,
}

impl StderrTail {
    pub(crate) fn push(&self, chunk: &[u8]) {
        let mut bytes = self.bytes.lock().unwrap_or_else(PoisonError::into_inner);
        bytes.extend_from_slice(chunk);
        if bytes.len() > 2 * STDERR_KEEP_BYTES {
            let cut = bytes.len() - STDERR_KEEP_BYTES;
            bytes.drain(..cut);
        }
    }

    pub(crate) fn tail(&self) -> String {
        let bytes = self.bytes.lock().unwrap_or_else(PoisonError::into_inner);
        let start = bytes.len().saturating_sub(STDERR_KEEP_BYTES);
        format_tail(&bytes[start..])
    }
}

/// The last lines of `bytes` on one line, shortened from the front.
fn format_tail(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let start = lines.len().saturating_sub(STDERR_TAIL_LINES);
    let joined = lines[start..].join(" | ");
    let count = joined.chars().count();
    if count <= STDERR_TAIL_CHARS {
        return joined;
    }
    let mut cut = String::from("…");
    cut.extend(joined.chars().skip(count - STDERR_TAIL_CHARS));
    cut
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tail_keeps_the_last_lines() {
        let tail = StderrTail::default();
        for i in 0..20 {
            tail.push(format!("line {}\n", i).as_bytes());
        }
        tail.push(b"\n   \nlast words");
        assert_eq!(
            tail.tail(),
            "line 13 | line 14 | line 15 | line 16 | line 17 | line 18 | line 19 | last words"
        );
    }

    #[test]
    fn tail_is_bounded() {
        let tail = StderrTail::default();
        let line = "x".repeat(1000);
        for _ in 0..100 {
            tail.push(line.as_bytes());
            tail.push(b"\n");
        }
        assert!(tail.bytes.lock().map(|b| b.len()).unwrap_or(0) <= 2 * STDERR_KEEP_BYTES);
        let shown = tail.tail();
        assert!(shown.starts_with('…'));
        assert_eq!(shown.chars().count(), STDERR_TAIL_CHARS + 1);
    }

    #[test]
    fn empty_tail() {
        assert_eq!(StderrTail::default().tail(), "");
    }
}
