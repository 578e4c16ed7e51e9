//! The async (tokio) forms: [`Spec::run_async`], [`Spec::spawn_async`].

use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;

use tokio::io::AsyncWriteExt as _;
use tokio::process::{Child, ChildStdin, ChildStdout};
use tokio::sync::{mpsc, watch};

use crate::capture::{Buffer, read_async};
use crate::group::{Group, KillOnDrop, Signal};
use crate::{
    Backend, Captured, DRAIN, Exit, Output, ProcessError, Quote, Spec, Stdin, sandbox_exit,
};

impl Spec {
    fn tokio_command(&self) -> Result<(tokio::process::Command, Option<Backend>), ProcessError> {
        let (command, backend) = self.command()?;
        let mut command = tokio::process::Command::from(command);
        command
            .stdin(match self.stdin {
                Stdin::Null => Stdio::null(),
                Stdin::Bytes(_) | Stdin::Piped => Stdio::piped(),
            })
            .stdout(self.stdout.stdio())
            .stderr(self.stderr.stdio())
            .kill_on_drop(true);
        Ok((command, backend))
    }

    /// [`Spec::run`] on tokio: writes the input, reads the outputs and waits for the child, all
    /// within the timeout. However it ends — the child exited (its group is killed then, and
    /// the outputs read to their end within a short drain), timed out, or the future dropped —
    /// the whole process group is killed.
    pub async fn run_async(&self) -> Result<Output, ProcessError> {
        let (mut command, backend) = self.tokio_command()?;
        let started = std::time::Instant::now();
        let mut child = command.spawn().map_err(|e| self.start_error(e))?;
        let group = Group(child.id()).started();
        // From here on, however the call ends, the whole group dies with this guard.
        let guard = KillOnDrop(group);
        let stdin = child.stdin.take();
        let stdout = child.stdout.take();
        let stderr = child.stderr.take();
        let out_buf = Buffer::new(self.stdout);
        let err_buf = Buffer::new(self.stderr);

        let run = async {
            let write = async move {
                if let (Stdin::Bytes(bytes), Some(mut stdin)) = (&self.stdin, stdin) {
                    // A program that does not read its input closes the pipe: not an error.
                    let _ = stdin.write_all(bytes).await;
                    let _ = stdin.shutdown().await;
                }
            };
            let read_out = async {
                if let Some(pipe) = stdout.filter(|_| self.stdout.is_read()) {
                    // Over its limit: stop the program now, so that standard error ends too.
                    read_async(pipe, &out_buf, || group.kill()).await;
                }
            };
            let read_err = async {
                if let Some(pipe) = stderr.filter(|_| self.stderr.is_read()) {
                    read_async(pipe, &err_buf, || group.kill()).await;
                }
            };
            let io = async {
                tokio::join!(write, read_out, read_err);
            };
            let mut io = std::pin::pin!(io);
            let mut io_done = false;
            let status = loop {
                tokio::select! {
                    status = child.wait() => break status,
                    () = &mut io, if !io_done => io_done = true,
                }
            };
            // The leader is gone: the rest of its group goes with it, and what they wrote is
            // read to the end within the drain.
            group.kill();
            if !io_done {
                let _ = tokio::time::timeout(DRAIN, &mut io).await;
            }
            status
        };
        let finished = match self.timeout {
            Some(timeout) => tokio::time::timeout(timeout, run).await.ok(),
            None => Some(run.await),
        };
        let exit = match finished {
            Some(Ok(status)) => sandbox_exit(Exit::from_status(&status), backend.is_some()),
            Some(Err(source)) => {
                return Err(ProcessError::Io {
                    context: "waiting for the program",
                    source,
                });
            }
            None => {
                group.kill();
                let _ = tokio::time::timeout(DRAIN, child.wait()).await;
                Exit::TimedOut(self.timeout.unwrap_or_default())
            }
        };
        drop(guard);
        Ok(Output {
            exit,
            sandbox: self.sandbox_run(backend),
            elapsed: started.elapsed(),
            stdout: out_buf.snapshot(),
            stderr: err_buf.snapshot(),
            quote: self.quote,
        })
    }

    /// Starts a long-lived child on tokio (call it within a runtime). Its piped standard input
    /// and output go to the caller; standard output and error are otherwise captured as the spec
    /// says, readable meanwhile. A task owns the child: it delivers signals while the child has
    /// not been reaped (so a signal never reaches a recycled process id), kills the group at
    /// the timeout, kills the rest of the group as soon as the child (its leader) exits,
    /// crashes or is killed — a server started by `sh -c` or `npx` leaves no grandchildren
    /// behind —, and publishes how the child ended once its output has been read.
    pub fn spawn_async(&self) -> Result<AsyncProcess, ProcessError> {
        let (mut command, backend) = self.tokio_command()?;
        let mut child = command.spawn().map_err(|e| self.start_error(e))?;
        let pid = child.id();
        let group = Group(pid).started();
        let mut stdin = child.stdin.take();
        let mut stdout_pipe = child.stdout.take();
        let stderr_pipe = child.stderr.take();
        let mut readers = Vec::new();
        if let Stdin::Bytes(bytes) = &self.stdin
            && let Some(mut pipe) = stdin.take()
        {
            let bytes = bytes.clone();
            readers.push(tokio::spawn(async move {
                let _ = pipe.write_all(&bytes).await;
                let _ = pipe.shutdown().await;
            }));
        }
        let stdout = Arc::new(Buffer::new(self.stdout));
        let stderr = Arc::new(Buffer::new(self.stderr));
        if self.stdout.is_read()
            && let Some(pipe) = stdout_pipe.take()
        {
            let buffer = stdout.clone();
            readers.push(tokio::spawn(async move {
                read_async(pipe, &buffer, || group.kill()).await
            }));
        }
        if self.stderr.is_read()
            && let Some(pipe) = stderr_pipe
        {
            let buffer = stderr.clone();
            readers.push(tokio::spawn(async move {
                read_async(pipe, &buffer, || group.kill()).await
            }));
        }
        let (exit_tx, exit_rx) = watch::channel(None);
        let (sig_tx, sig_rx) = mpsc::unbounded_channel();
        tokio::spawn(monitor(
            child,
            group,
            self.timeout,
            sig_rx,
            readers,
            exit_tx,
            backend.is_some(),
        ));
        Ok(AsyncProcess {
            pid,
            group,
            quote: self.quote,
            // Left only when piped: the others were taken above.
            stdin,
            stdout_pipe,
            stdout,
            stderr,
            exit: exit_rx,
            signals: sig_tx,
        })
    }
}

/// A running (or ended) child started by [`Spec::spawn_async`]. Dropping it kills the process
/// group.
pub struct AsyncProcess {
    pid: Option<u32>,
    group: Group,
    quote: Quote,
    stdin: Option<ChildStdin>,
    stdout_pipe: Option<ChildStdout>,
    stdout: Arc<Buffer>,
    stderr: Arc<Buffer>,
    /// `None` while it runs; then how it ended.
    exit: watch::Receiver<Option<Exit>>,
    /// To the task that owns the child; dropping the sender kills the process.
    signals: mpsc::UnboundedSender<Signal>,
}

impl AsyncProcess {
    pub fn pid(&self) -> Option<u32> {
        self.pid
    }

    /// Its standard input, with [`Stdin::Piped`].
    pub fn take_stdin(&mut self) -> Option<ChildStdin> {
        self.stdin.take()
    }

    /// Its standard output, with [`Capture::Piped`](crate::Capture::Piped).
    pub fn take_stdout(&mut self) -> Option<ChildStdout> {
        self.stdout_pipe.take()
    }

    /// How it ended, if it has.
    pub fn exit(&self) -> Option<Exit> {
        self.exit.borrow().clone()
    }

    /// Resolves once it has ended (or its monitor is gone), with how it ended.
    pub async fn exited(&self) -> Exit {
        let mut rx = self.exit.clone();
        match rx.wait_for(Option::is_some).await {
            Ok(exit) => exit
                .clone()
                .unwrap_or_else(|| Exit::Other("is no longer monitored".to_owned())),
            Err(_) => Exit::Other("is no longer monitored".to_owned()),
        }
    }

    /// Waits up to `timeout` for it to end; how it ended, if it did.
    pub async fn wait_exit(&self, timeout: Duration) -> Option<Exit> {
        tokio::time::timeout(timeout, self.exited()).await.ok()
    }

    /// Signals its process group (nothing once it has been reaped).
    pub fn signal(&self, signal: Signal) {
        // Fails only when the monitor is done, i.e. the process has been reaped already.
        let _ = self.signals.send(signal);
    }

    /// Kills the process group and waits (up to `timeout`) until the process is reaped.
    pub async fn kill(&self, timeout: Duration) {
        self.signal(Signal::Kill);
        let _ = self.wait_exit(timeout).await;
    }

    /// The end of its standard error so far on one line, as the spec's [`Quote`] says.
    pub fn stderr_tail(&self) -> String {
        self.stderr.quote(self.quote)
    }

    /// What was captured of its standard error so far.
    pub fn stderr(&self) -> Captured {
        self.stderr.snapshot()
    }

    /// What was captured of its standard output so far.
    pub fn stdout(&self) -> Captured {
        self.stdout.snapshot()
    }
}

impl Drop for AsyncProcess {
    fn drop(&mut self) {
        // At once, runtime or not; the monitor then reaps the child (the closed channel).
        self.group.kill();
        self.group.ended();
    }
}

async fn monitor(
    mut child: Child,
    group: Group,
    timeout: Option<Duration>,
    mut signals: mpsc::UnboundedReceiver<Signal>,
    readers: Vec<tokio::task::JoinHandle<()>>,
    exit_tx: watch::Sender<Option<Exit>>,
    sandboxed: bool,
) {
    let deadline = async {
        match timeout {
            Some(timeout) => tokio::time::sleep(timeout).await,
            None => std::future::pending().await,
        }
    };
    tokio::pin!(deadline);
    let mut timed_out = None;
    let status = loop {
        tokio::select! {
            biased;
            status = child.wait() => break status,
            sig = signals.recv() => match sig {
                Some(sig) => deliver(&mut child, group, sig),
                None => {
                    // The owner is gone without shutting down: kill.
                    deliver(&mut child, group, Signal::Kill);
                    break child.wait().await;
                }
            },
            () = &mut deadline, if timed_out.is_none() => {
                timed_out = timeout;
                deliver(&mut child, group, Signal::Kill);
            }
        }
    };
    // The leader is gone: the rest of its group goes with it. Just reaped, its id cannot have
    // been given to another process while any member of its group lives (the group keeps the
    // id); with none left this finds nothing.
    group.kill();
    group.ended();
    let _ = tokio::time::timeout(DRAIN, async {
        for reader in readers {
            let _ = reader.await;
        }
    })
    .await;
    let exit = match (timed_out, status) {
        (Some(timeout), _) => Exit::TimedOut(timeout),
        (None, Ok(status)) => sandbox_exit(Exit::from_status(&status), sandboxed),
        (None, Err(e)) => Exit::Other(format!("could not be waited for ({})", e)),
    };
    let _ = exit_tx.send(Some(exit));
}

fn deliver(child: &mut Child, group: Group, signal: Signal) {
    if !group.signal(signal) && signal == Signal::Kill {
        let _ = child.start_kill();
    }
}
