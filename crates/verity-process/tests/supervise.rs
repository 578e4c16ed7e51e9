//! The supervisor against real `sh` processes: process groups killed (grandchildren included)
//! on timeout and on drop, bounded capture, and every exit classification, in both forms.

use std::io::BufRead as _;
use std::path::Path;
use std::time::{Duration, Instant};

use verity_process::{Capture, Exit, Limits, ProcessError, Quote, Signal, Spec, Stdin};

/// Short: every test that waits for a timeout waits this long.
const TIMEOUT: Duration = Duration::from_millis(200);

fn sh(script: &str) -> Spec {
    Spec::new("sh").arg("-c").arg(script)
}

/// Whether `kill -0` still finds the process. A zombie nobody has reaped yet counts as gone:
/// it was killed, and reaping a grandchild is its new parent's business, not ours.
fn alive(pid: u32) -> bool {
    let Some(p) = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    else {
        return false;
    };
    if rustix::process::test_kill_process(p).is_err() {
        return false;
    }
    !std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        stat.rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with(['Z', 'X']))
    })
}

/// Waits (a little: SIGKILL is quick) until the process is gone.
fn assert_gone(pid: u32) {
    let deadline = Instant::now() + Duration::from_secs(5);
    while alive(pid) {
        assert!(
            Instant::now() < deadline,
            "process {pid} outlived its group"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn read_pid(file: &Path) -> u32 {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        if let Some(pid) = std::fs::read_to_string(file)
            .ok()
            .filter(|s| s.ends_with('\n'))
            .and_then(|s| s.trim().parse().ok())
        {
            return pid;
        }
        assert!(Instant::now() < deadline, "no pid in {}", file.display());
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The grandchild's pid on the first line of standard output, then it waits for it.
const SPAWNER: &str = "sleep 60 & echo $!; wait";
/// The same, the pid in the file named by `$0`.
const SPAWNER_TO_FILE: &str = "sleep 60 & echo $! > \"$0\"; wait";

fn first_line_pid(text: &str) -> u32 {
    match text.lines().next().and_then(|l| l.trim().parse().ok()) {
        Some(pid) => pid,
        None => panic!("no pid in {text:?}"),
    }
}

#[test]
fn a_timeout_kills_the_grandchild() {
    let started = Instant::now();
    let out = sh(SPAWNER)
        .stdout(Capture::Tail(1024))
        .timeout(TIMEOUT)
        .run()
        .unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(out.exit, Exit::TimedOut(TIMEOUT));
    assert_gone(first_line_pid(&out.stdout.text()));
    let err = out.into_result().unwrap_err();
    assert!(matches!(err, ProcessError::TimedOut { .. }), "{err:?}");
    assert!(
        err.to_string()
            .starts_with("did not finish within 200ms; the process group was killed"),
        "{err}"
    );
}

#[test]
fn dropping_the_process_kills_the_grandchild() {
    let mut process = sh(SPAWNER).stdout(Capture::Piped).spawn().unwrap();
    let pid = process.pid();
    let mut line = String::new();
    std::io::BufReader::new(process.take_stdout().unwrap())
        .read_line(&mut line)
        .unwrap();
    let grandchild = first_line_pid(&line);
    assert!(alive(grandchild));
    drop(process);
    assert_gone(grandchild);
    assert_gone(pid);
}

#[test]
fn leftovers_die_at_the_end() {
    // The background process does not hold standard output: the run ends with the shell.
    let out = sh("sleep 60 >/dev/null 2>&1 </dev/null & echo $!")
        .stdout(Capture::UpTo(1024))
        .timeout(Duration::from_secs(20))
        .run()
        .unwrap()
        .into_result()
        .unwrap();
    assert_gone(first_line_pid(&out.stdout.text()));
}

#[test]
fn head_and_tail_capture_are_bounded() {
    let script = "i=0; while [ $i -lt 1000 ]; do echo line$i; i=$((i+1)); done";
    let total = (0..1000)
        .map(|i| format!("line{i}\n").len() as u64)
        .sum::<u64>();
    let out = sh(script).stdout(Capture::Head(12)).run().unwrap();
    assert!(out.success());
    assert_eq!(out.stdout.text(), "line0\nline1\n");
    assert_eq!(out.stdout.dropped, total - 12);

    let out = sh(&format!("{script} >&2"))
        .stderr(Capture::Tail(16))
        .quote(Quote { lines: 1, chars: 5 })
        .run()
        .unwrap();
    assert_eq!(out.stderr.text(), "line998\nline999\n");
    assert_eq!(out.stderr.dropped, total - 16);
    assert_eq!(out.stderr_tail(), "…ne999");

    let out = sh(script)
        .stdout(Capture::UpTo(total as usize))
        .run()
        .unwrap();
    assert!(out.success());
    assert_eq!(out.stdout.bytes.len() as u64, total);
    assert_eq!(out.stdout.dropped, 0);
}

#[test]
fn output_over_its_limit_kills_the_group() {
    let started = Instant::now();
    let out = sh("while :; do echo xxxxxxxxxxxxxxxx; done; sleep 60")
        .stdout(Capture::UpTo(1000))
        .timeout(Duration::from_secs(20))
        .run()
        .unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(out.stdout.over_limit, Some(1000));
    assert_eq!(out.stdout.bytes.len(), 1000);
    let err = out.into_result().unwrap_err();
    assert!(
        matches!(err, ProcessError::OutputTooLarge { limit: 1000, .. }),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        "standard output exceeds 1000 bytes; the process group was killed"
    );
}

#[test]
fn exits_are_classified() {
    let fail = || {
        sh("echo partial; for i in 1 2 3; do echo \"noise $i\" >&2; done; echo 'boom' >&2; exit 3")
            .stdout(Capture::Tail(1024))
            .stderr(Capture::Tail(1024))
            .quote(Quote {
                lines: 2,
                chars: 100,
            })
    };
    let err = fail().run().unwrap().into_result().unwrap_err();
    assert!(
        matches!(err, ProcessError::Exited { code: 3, .. }),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        "exited with status 3; standard error ends: noise 3 | boom"
    );

    let err = sh("kill -9 $$").run().unwrap().into_result().unwrap_err();
    assert!(
        matches!(err, ProcessError::Signaled { signal: 9, .. }),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        "was killed by signal 9 (nothing on standard error)"
    );

    let err = Spec::new("/nonexistent/verity-no-such-program")
        .run()
        .unwrap_err();
    assert!(matches!(err, ProcessError::NotFound { .. }), "{err:?}");
    assert!(
        err.to_string()
            .starts_with("cannot start /nonexistent/verity-no-such-program: "),
        "{err}"
    );
    assert!(err.is_start());

    let dir = std::env::temp_dir().join(format!("verity-process-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let plain = dir.join("not-executable");
    std::fs::write(&plain, "#!/bin/sh\nexit 0\n").unwrap();
    let err = Spec::new(&plain).run().unwrap_err();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        matches!(err, ProcessError::PermissionDenied { .. }),
        "{err:?}"
    );

    let out = Spec::new("cat")
        .stdin(Stdin::Bytes(b"hello\n".to_vec()))
        .stdout(Capture::UpTo(100))
        .run()
        .unwrap()
        .into_result()
        .unwrap();
    assert_eq!(out.stdout.text(), "hello\n");
    assert_eq!(out.exit, Exit::Code(0));
}

#[test]
fn the_environment_directory_and_limits_apply() {
    let dir = std::env::temp_dir();
    let out = sh("echo \"$VERITY_PROCESS_TEST:${HOME:-unset}\"; pwd; ulimit -v; ulimit -t")
        .env_clear()
        .env("VERITY_PROCESS_TEST", "set")
        .current_dir(&dir)
        .limits(Limits {
            memory_mb: Some(512),
            cpu_seconds: Some(7),
        })
        .stdout(Capture::UpTo(1000))
        .run()
        .unwrap()
        .into_result()
        .unwrap();
    let text = out.stdout.text();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "set:unset");
    assert_eq!(
        Path::new(lines[1]).canonicalize().unwrap(),
        dir.canonicalize().unwrap()
    );
    assert_eq!(lines[2..], ["524288", "7"]);
}

#[tokio::test]
async fn async_timeout_kills_the_grandchild() {
    let started = Instant::now();
    let out = sh(SPAWNER)
        .stdout(Capture::Tail(1024))
        .stderr(Capture::Tail(1024))
        .timeout(TIMEOUT)
        .run_async()
        .await
        .unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(out.exit, Exit::TimedOut(TIMEOUT));
    assert_gone(first_line_pid(&out.stdout.text()));
}

#[tokio::test]
async fn dropping_an_async_run_kills_the_grandchild() {
    let dir = std::env::temp_dir().join(format!("verity-process-drop-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pid_file = dir.join("pid");
    let spec = sh(SPAWNER_TO_FILE).arg(&pid_file);
    let abandoned = tokio::time::timeout(TIMEOUT, spec.run_async()).await;
    assert!(abandoned.is_err(), "the run should still be running");
    let grandchild = read_pid(&pid_file);
    let _ = std::fs::remove_dir_all(&dir);
    assert_gone(grandchild);
}

#[tokio::test]
async fn async_exits_are_classified() {
    let err = sh("echo 'bad input' >&2; exit 4")
        .stderr(Capture::Tail(1024))
        .run_async()
        .await
        .unwrap()
        .into_result()
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "exited with status 4; standard error ends: bad input"
    );
    let err = sh("kill -9 $$")
        .run_async()
        .await
        .unwrap()
        .into_result()
        .unwrap_err();
    assert!(
        matches!(err, ProcessError::Signaled { signal: 9, .. }),
        "{err:?}"
    );
    let err = Spec::new("/nonexistent/verity-no-such-program")
        .run_async()
        .await
        .unwrap_err();
    assert!(matches!(err, ProcessError::NotFound { .. }), "{err:?}");
    let err = sh("while :; do echo xxxxxxxxxxxxxxxx; done")
        .stdout(Capture::UpTo(1000))
        .run_async()
        .await
        .unwrap()
        .into_result()
        .unwrap_err();
    assert!(
        matches!(err, ProcessError::OutputTooLarge { limit: 1000, .. }),
        "{err:?}"
    );
    let out = Spec::new("cat")
        .stdin(Stdin::Bytes(b"echo\n".to_vec()))
        .stdout(Capture::UpTo(100))
        .run_async()
        .await
        .unwrap()
        .into_result()
        .unwrap();
    assert_eq!(out.stdout.text(), "echo\n");
}

#[tokio::test]
async fn a_spawned_process_hands_over_its_pipes_and_is_watched() {
    use tokio::io::{AsyncBufReadExt as _, AsyncWriteExt as _};
    let mut process = sh("echo started >&2; read line; echo \"got $line\"; echo 'bye' >&2; exit 2")
        .stdin(Stdin::Piped)
        .stdout(Capture::Piped)
        .stderr(Capture::Tail(1024))
        .spawn_async()
        .unwrap();
    let mut stdin = process.take_stdin().unwrap();
    let mut stdout = tokio::io::BufReader::new(process.take_stdout().unwrap());
    stdin.write_all(b"ping\n").await.unwrap();
    let mut line = String::new();
    stdout.read_line(&mut line).await.unwrap();
    assert_eq!(line, "got ping\n");
    let exit = process.exited().await;
    assert_eq!(exit, Exit::Code(2));
    assert_eq!(exit.to_string(), "exited with status 2");
    assert_eq!(process.exit(), Some(Exit::Code(2)));
    assert_eq!(process.stderr_tail(), "started | bye");
}

#[tokio::test]
async fn a_spawned_process_is_signalled_timed_out_and_killed_on_drop() {
    let process = sh("trap 'exit 5' TERM; sleep 60 & wait")
        .spawn_async()
        .unwrap();
    assert_eq!(process.wait_exit(Duration::from_millis(50)).await, None);
    process.signal(Signal::Term);
    assert_eq!(
        process.wait_exit(Duration::from_secs(5)).await,
        Some(Exit::Code(5))
    );

    let process = sh(SPAWNER)
        .stdout(Capture::Tail(1024))
        .timeout(TIMEOUT)
        .spawn_async()
        .unwrap();
    assert_eq!(
        process.wait_exit(Duration::from_secs(5)).await,
        Some(Exit::TimedOut(TIMEOUT))
    );
    assert_gone(first_line_pid(&process.stdout().text()));

    let mut process = sh(SPAWNER).stdout(Capture::Piped).spawn_async().unwrap();
    let pid = process.pid().unwrap();
    let mut line = String::new();
    tokio::io::AsyncBufReadExt::read_line(
        &mut tokio::io::BufReader::new(process.take_stdout().unwrap()),
        &mut line,
    )
    .await
    .unwrap();
    let grandchild = first_line_pid(&line);
    assert!(alive(grandchild));
    drop(process);
    assert_gone(grandchild);
    assert_gone(pid);
}

/// The shell prints its background sleeper's pid, which keeps standard output open, and exits.
const LEAVES_A_SLEEPER: &str = "sleep 60 & echo $!";

#[test]
fn a_leader_that_exits_takes_its_group_along() {
    // The sleeper holds standard output open: without the group killed when the shell exits,
    // the run would wait for it until the timeout.
    let started = Instant::now();
    let out = sh(LEAVES_A_SLEEPER)
        .stdout(Capture::UpTo(1024))
        .timeout(Duration::from_secs(30))
        .run()
        .unwrap();
    assert_eq!(out.exit, Exit::Code(0));
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    assert_gone(first_line_pid(&out.stdout.text()));
}

#[tokio::test]
async fn an_async_leader_that_exits_takes_its_group_along() {
    let started = Instant::now();
    let out = sh(LEAVES_A_SLEEPER)
        .stdout(Capture::UpTo(1024))
        .timeout(Duration::from_secs(30))
        .run_async()
        .await
        .unwrap();
    assert_eq!(out.exit, Exit::Code(0));
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    assert_gone(first_line_pid(&out.stdout.text()));
}

#[tokio::test]
async fn a_spawned_leader_that_exits_crashes_or_is_killed_takes_its_group_along() {
    // Exits on its own.
    let process = sh(LEAVES_A_SLEEPER)
        .stdout(Capture::UpTo(1024))
        .spawn_async()
        .unwrap();
    assert_eq!(
        process.wait_exit(Duration::from_secs(10)).await,
        Some(Exit::Code(0))
    );
    let sleeper = first_line_pid(&process.stdout().text());
    assert_gone(sleeper);

    // Crashes (a signal of its own) while its sleeper runs.
    let process = sh("sleep 60 & echo $!; sleep 0.2; kill -SEGV $$")
        .stdout(Capture::UpTo(1024))
        .spawn_async()
        .unwrap();
    assert_eq!(
        process.wait_exit(Duration::from_secs(10)).await,
        Some(Exit::Signal(11))
    );
    assert_gone(first_line_pid(&process.stdout().text()));

    // Killed from outside — the leader alone, not its group — while the handle lives on: the
    // owner does nothing, the supervisor kills the rest.
    let mut process = sh(SPAWNER).stdout(Capture::Piped).spawn_async().unwrap();
    let leader = process.pid().unwrap();
    let mut line = String::new();
    tokio::io::AsyncBufReadExt::read_line(
        &mut tokio::io::BufReader::new(process.take_stdout().unwrap()),
        &mut line,
    )
    .await
    .unwrap();
    let sleeper = first_line_pid(&line);
    assert!(alive(sleeper));
    let pid = rustix::process::Pid::from_raw(i32::try_from(leader).unwrap()).unwrap();
    rustix::process::kill_process(pid, rustix::process::Signal::KILL).unwrap();
    assert_eq!(
        process.wait_exit(Duration::from_secs(10)).await,
        Some(Exit::Signal(9))
    );
    assert_gone(sleeper);
    drop(process);
}
