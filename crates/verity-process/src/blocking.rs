//! The blocking form: [`Spec::spawn`], [`Spec::run`].

use std::process::{Child, ChildStdin, ChildStdout, Stdio};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::capture::{Buffer, read_blocking};
use crate::group::{Group, Signal};
use crate::{
    Capture, DRAIN, Exit, Output, ProcessError, Quote, SandboxRun, Spec, Stdin, sandbox_exit,
};

/// How often a blocking wait looks at the child and its readers.
const POLL: Duration = Duration::from_millis(5);

/// A running child (blocking form). Dropping it kills its process group and reaps it.
pub struct Process {
    child: Child,
    group: Group,
    started: Instant,
    timeout: Option<Duration>,
    quote: Quote,
    sandbox: Option<SandboxRun>,
    stdin: Option<ChildStdin>,
    stdout_pipe: Option<ChildStdout>,
    stdout: Arc<Buffer>,
    stderr: Arc<Buffer>,
    threads: Vec<JoinHandle<()>>,
    /// Reaped, and its group killed: nothing left to do on drop.
    done: bool,
}

impl Spec {
    /// Starts the child (blocking form); its output is read by threads as the spec says.
    pub fn spawn(&self) -> Result<Process, ProcessError> {
        let (mut command, backend) = self.command()?;
        command
            .stdin(match self.stdin {
                Stdin::Null => Stdio::null(),
                Stdin::Bytes(_) | Stdin::Piped => Stdio::piped(),
            })
            .stdout(self.stdout.stdio())
            .stderr(self.stderr.stdio());
        let mut child = command.spawn().map_err(|e| self.start_error(e))?;
        let group = Group(Some(child.id())).started();
        let mut threads = Vec::new();
        let mut stdin = child.stdin.take();
        if let Stdin::Bytes(bytes) = &self.stdin
            && let Some(mut pipe) = stdin.take()
        {
            let bytes = bytes.clone();
            threads.push(std::thread::spawn(move || {
                // A program that does not read its input closes the pipe: not an error.
                let _ = std::io::Write::write_all(&mut pipe, &bytes);
            }));
        }
        let stdout = Arc::new(Buffer::new(self.stdout));
        let stderr = Arc::new(Buffer::new(self.stderr));
        let mut stdout_pipe = child.stdout.take();
        if self.stdout.is_read()
            && let Some(pipe) = stdout_pipe.take()
        {
            let buffer = stdout.clone();
            threads.push(std::thread::spawn(move || {
                read_blocking(pipe, &buffer, || group.kill())
            }));
        }
        if self.stderr.is_read()
            && let Some(pipe) = child.stderr.take()
        {
            let buffer = stderr.clone();
            threads.push(std::thread::spawn(move || {
                read_blocking(pipe, &buffer, || group.kill())
            }));
        }
        if self.stdin != Stdin::Piped {
            drop(stdin.take());
        }
        if self.stdout != Capture::Piped {
            drop(stdout_pipe.take());
        }
        Ok(Process {
            child,
            group,
            started: Instant::now(),
            timeout: self.timeout,
            quote: self.quote,
            sandbox: self.sandbox_run(backend),
            stdin,
            stdout_pipe,
            stdout,
            stderr,
            threads,
            done: false,
        })
    }

    /// Runs the child to its end: it exited, or its timeout struck (then [`Output::exit`] is
    /// [`Exit::TimedOut`]). The group is killed at the end either way — once the child (the
    /// group's leader) has exited, nothing it started outlives it — and what was written to the
    /// output pipes is then read to their end (bounded by a short drain).
    /// `Err` only when it could not be started or waited for; see [`Output::into_result`].
    pub fn run(&self) -> Result<Output, ProcessError> {
        self.spawn()?.wait()
    }
}

impl Process {
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Its standard input, with [`Stdin::Piped`].
    pub fn take_stdin(&mut self) -> Option<ChildStdin> {
        self.stdin.take()
    }

    /// Its standard output, with [`Capture::Piped`].
    pub fn take_stdout(&mut self) -> Option<ChildStdout> {
        self.stdout_pipe.take()
    }

    /// Signals its process group.
    pub fn signal(&self, signal: Signal) {
        if !self.done {
            self.group.signal(signal);
        }
    }

    /// Waits for the end (see [`Spec::run`]).
    pub fn wait(mut self) -> Result<Output, ProcessError> {
        // Whatever it was not given is closed, so that it sees the end of its input.
        drop(self.stdin.take());
        drop(self.stdout_pipe.take());
        let mut status = None;
        let exit = loop {
            if status.is_none() {
                status = self.child.try_wait().map_err(|source| ProcessError::Io {
                    context: "waiting for the program",
                    source,
                })?;
            }
            if let Some(status) = &status {
                // The leader is gone: the rest of its group goes with it (below), and what
                // it wrote is read to the end within the drain.
                break sandbox_exit(Exit::from_status(status), self.sandbox.is_some());
            }
            if let Some(timeout) = self.timeout
                && self.started.elapsed() >= timeout
            {
                self.group.kill();
                let _ = self.child.kill();
                let _ = self.child.wait();
                break Exit::TimedOut(timeout);
            }
            std::thread::sleep(POLL);
        };
        // Its leftovers end with it.
        self.group.kill();
        self.group.ended();
        self.done = true;
        let drained = Instant::now() + DRAIN;
        while !self.threads.iter().all(JoinHandle::is_finished) && Instant::now() < drained {
            std::thread::sleep(POLL);
        }
        let elapsed = self.started.elapsed();
        Ok(Output {
            exit,
            sandbox: self.sandbox,
            elapsed,
            stdout: self.stdout.snapshot(),
            stderr: self.stderr.snapshot(),
            quote: self.quote,
        })
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        if self.done {
            return;
        }
        self.group.kill();
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.group.ended();
    }
}
