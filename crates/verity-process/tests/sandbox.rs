//! The sandbox contains what it promises to, with each backend this machine has: a network
//! call, a fork bomb, a memory hog, an endless loop, a write outside the scratch directory,
//! a write into the read-only repository view; and reports each as such.

#![cfg(target_os = "linux")]

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use verity_process::{
    Backend, BackendChoice, Capture, Contained, Exit, ProcessError, Sandbox, SandboxLimits, Spec,
};

/// The backends that work here. With `VERITY_SANDBOX_REQUIRED=1` (CI) a missing bubblewrap
/// fails the test instead of skipping it (the unshare fallback needs user namespaces, which
/// some CI machines refuse: it is skipped there, with a message).
fn backends() -> Vec<BackendChoice> {
    let mut out = Vec::new();
    for choice in [BackendChoice::Bubblewrap, BackendChoice::Unshare] {
        match Sandbox::new("/").backend(choice).resolve_backend() {
            Ok(_) => out.push(choice),
            Err(why) => {
                assert!(
                    std::env::var_os("VERITY_SANDBOX_REQUIRED").is_none()
                        || choice == BackendChoice::Unshare,
                    "{choice:?} unavailable: {why}"
                );
                eprintln!("skipping {choice:?}: {why}");
            }
        }
    }
    out
}

fn expected_backend(choice: BackendChoice) -> Backend {
    match choice {
        BackendChoice::Unshare => Backend::Unshare,
        _ => Backend::Bubblewrap,
    }
}

/// A directory readable by anyone (the sandbox may run as an unprivileged id).
fn open_dir(dir: &Path) {
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).unwrap();
}

struct Dirs {
    _tmp: tempfile::TempDir,
    scratch: PathBuf,
    repo: PathBuf,
}

fn dirs() -> Dirs {
    let tmp = tempfile::tempdir().unwrap();
    open_dir(tmp.path());
    let scratch = tmp.path().join("scratch");
    let repo = tmp.path().join("repo");
    std::fs::create_dir(&scratch).unwrap();
    std::fs::create_dir(&repo).unwrap();
    std::fs::write(repo.join("README"), "hello from the repository\n").unwrap();
    open_dir(&scratch);
    open_dir(&repo);
    Dirs {
        _tmp: tmp,
        scratch,
        repo,
    }
}

fn sh(script: &str, sandbox: Sandbox) -> verity_process::Output {
    Spec::new("sh")
        .args(["-c", script])
        .env("LANG", "C")
        .stdout(Capture::Tail(64 * 1024))
        .stderr(Capture::Tail(64 * 1024))
        .timeout(Duration::from_secs(30))
        .sandbox(sandbox)
        .run()
        .unwrap()
}

fn python() -> Option<PathBuf> {
    // The interpreter itself (a pyenv shim is a script that needs pyenv's whole tree).
    let out = Spec::new("python3")
        .args(["-c", "import sys; print(sys.executable)"])
        .stdout(Capture::UpTo(4096))
        .timeout(Duration::from_secs(20))
        .run()
        .ok()?
        .into_result()
        .ok()?;
    let path = PathBuf::from(out.stdout.text().trim());
    path.is_file().then_some(path)
}

#[test]
fn the_program_runs_and_the_backend_is_recorded() {
    for choice in backends() {
        let d = dirs();
        let out = sh(
            "echo out; echo err >&2; pwd",
            Sandbox::new(&d.scratch).backend(choice),
        );
        assert!(
            out.success(),
            "{choice:?}: {:?} {}",
            out.exit,
            out.stderr.text()
        );
        assert_eq!(
            out.stdout.text(),
            format!("out\n{}\n", d.scratch.display()),
            "{choice:?}"
        );
        assert_eq!(out.stderr.text(), "err\n");
        let run = out.sandbox.expect("a sandboxed run records its sandbox");
        assert_eq!(run.backend, expected_backend(choice));
        assert_eq!(run.limits, SandboxLimits::default());
        assert_eq!(out.contained(), None);
    }
}

#[test]
fn standard_input_reaches_the_program() {
    for choice in backends() {
        let d = dirs();
        let out = Spec::new("cat")
            .stdin(verity_process::Stdin::Bytes(b"piped in".to_vec()))
            .stdout(Capture::UpTo(1024))
            .timeout(Duration::from_secs(30))
            .sandbox(Sandbox::new(&d.scratch).backend(choice))
            .run()
            .unwrap()
            .into_result()
            .unwrap();
        assert_eq!(out.stdout.text(), "piped in", "{choice:?}");
    }
}

#[test]
fn a_network_call_fails_and_is_reported_as_denied() {
    for choice in backends() {
        let d = dirs();
        // bash's /dev/tcp when there is a bash; python's socket too when there is a python.
        let mut scripts = vec![];
        if Path::new("/bin/bash").exists() || Path::new("/usr/bin/bash").exists() {
            scripts.push((
                "bash",
                vec![
                    "-c".to_owned(),
                    "exec 3<>/dev/tcp/1.1.1.1/80 && echo connected".to_owned(),
                ],
            ));
        }
        let py = python();
        if let Some(py) = &py {
            scripts.push((
                py.to_str().unwrap(),
                vec![
                    "-c".to_owned(),
                    "import socket; socket.create_connection(('1.1.1.1', 80), timeout=3); print('connected')".to_owned(),
                ],
            ));
        }
        assert!(!scripts.is_empty(), "neither bash nor python3 here");
        for (program, args) in scripts {
            let out = Spec::new(program)
                .args(&args)
                .stdout(Capture::UpTo(4096))
                .stderr(Capture::Tail(4096))
                .timeout(Duration::from_secs(30))
                .sandbox(Sandbox::new(&d.scratch).backend(choice))
                .run()
                .unwrap();
            assert!(
                !out.stdout.text().contains("connected"),
                "{choice:?} {program}"
            );
            assert!(!out.success());
            assert_eq!(
                out.contained(),
                Some(Contained::NetworkDenied),
                "{choice:?} {program}: {:?} {}",
                out.exit,
                out.stderr.text()
            );
            let err = out.into_result().unwrap_err();
            assert!(
                matches!(
                    err,
                    ProcessError::Contained {
                        reason: Contained::NetworkDenied,
                        ..
                    }
                ),
                "{err}"
            );
            assert!(err.to_string().contains("denied the network"), "{err}");
        }
    }
}

/// The number of processes of this machine, from `/proc`.
fn process_count() -> usize {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .bytes()
                .all(|b| b.is_ascii_digit())
        })
        .count()
}

#[test]
fn a_fork_bomb_is_contained_and_leaves_nothing_behind() {
    for choice in backends() {
        let d = dirs();
        let before = process_count();
        let limits = SandboxLimits {
            processes: Some(16),
            ..SandboxLimits::default()
        };
        let started = Instant::now();
        // Forks until fork fails, then reports it; the loop bounds it in time too.
        let out = Spec::new("sh")
            .args([
                "-c",
                "bomb() { bomb | bomb & }; i=0; while [ $i -lt 200 ]; do sleep 5 & i=$((i+1)); done; bomb; wait",
            ])
            .stderr(Capture::Tail(16 * 1024))
            .timeout(Duration::from_secs(8))
            .sandbox(Sandbox::new(&d.scratch).limits(limits).backend(choice))
            .run()
            .unwrap();
        let contained = out.contained();
        assert!(
            contained == Some(Contained::ProcessLimit),
            "{choice:?}: {contained:?} {:?} {}",
            out.exit,
            out.stderr.text()
        );
        assert!(started.elapsed() < Duration::from_secs(20));
        // The whole sandbox is gone with its namespace.
        let deadline = Instant::now() + Duration::from_secs(5);
        while process_count() > before + 8 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
        }
        let after = process_count();
        assert!(
            after <= before + 8,
            "{choice:?}: {before} processes before, {after} after"
        );
    }
}

#[test]
fn a_memory_hog_is_stopped_at_the_memory_limit() {
    let Some(py) = python() else {
        eprintln!("no python3: skipped");
        return;
    };
    for choice in backends() {
        let d = dirs();
        let limits = SandboxLimits {
            memory_mb: Some(256),
            ..SandboxLimits::default()
        };
        let out = Spec::new(&py)
            .args([
                "-c",
                "chunks = []\nwhile True: chunks.append(bytearray(16 * 1024 * 1024))",
            ])
            .stderr(Capture::Tail(16 * 1024))
            .timeout(Duration::from_secs(30))
            .sandbox(Sandbox::new(&d.scratch).limits(limits).backend(choice))
            .run()
            .unwrap();
        assert_eq!(
            out.contained(),
            Some(Contained::MemoryLimit),
            "{choice:?}: {:?} {}",
            out.exit,
            out.stderr.text()
        );
        assert!(out.stderr.text().contains("MemoryError"));
    }
}

#[test]
fn an_endless_loop_hits_the_cpu_limit() {
    for choice in backends() {
        let d = dirs();
        let limits = SandboxLimits {
            cpu_seconds: Some(1),
            ..SandboxLimits::default()
        };
        let started = Instant::now();
        let out = Spec::new("sh")
            .args(["-c", "while :; do :; done"])
            .stderr(Capture::Tail(4096))
            .timeout(Duration::from_secs(20))
            .sandbox(Sandbox::new(&d.scratch).limits(limits).backend(choice))
            .run()
            .unwrap();
        assert_eq!(
            out.contained(),
            Some(Contained::CpuLimit),
            "{choice:?}: {:?} {}",
            out.exit,
            out.stderr.text()
        );
        assert!(started.elapsed() < Duration::from_secs(15));
        let err = out.into_result().unwrap_err();
        assert!(err.to_string().contains("CPU-time limit"), "{err}");
    }
}

#[test]
fn a_sleeping_loop_hits_the_wall_timeout() {
    for choice in backends() {
        let d = dirs();
        let started = Instant::now();
        let out = Spec::new("sh")
            .args(["-c", "while :; do sleep 1; done"])
            .timeout(Duration::from_millis(1500))
            .sandbox(Sandbox::new(&d.scratch).backend(choice))
            .run()
            .unwrap();
        assert!(matches!(out.exit, Exit::TimedOut(_)), "{:?}", out.exit);
        assert_eq!(out.contained(), Some(Contained::Timeout));
        assert!(started.elapsed() < Duration::from_secs(10));
    }
}

#[test]
fn writes_go_to_the_scratch_directory_only() {
    for choice in backends() {
        let d = dirs();
        let out = sh(
            "echo kept > result.txt && echo outside > /etc/verity-sandbox-test",
            Sandbox::new(&d.scratch).backend(choice),
        );
        assert!(!Path::new("/etc/verity-sandbox-test").exists());
        assert_eq!(
            std::fs::read_to_string(d.scratch.join("result.txt")).unwrap(),
            "kept\n",
            "{choice:?}: the write inside is seen by the caller"
        );
        assert_eq!(
            out.contained(),
            Some(Contained::WriteDenied),
            "{choice:?}: {:?} {}",
            out.exit,
            out.stderr.text()
        );
        // Nothing outside the view exists at all (the caller's own home, say).
        let hidden = sh(
            &format!("ls {}", d.scratch.parent().unwrap().join("..").display()),
            Sandbox::new(&d.scratch).backend(choice),
        );
        assert!(
            !hidden.stdout.text().contains(".cargo"),
            "{}",
            hidden.stdout.text()
        );
    }
}

#[test]
fn the_repository_view_is_readable_not_writable() {
    for choice in backends() {
        let d = dirs();
        let sandbox = Sandbox::new(&d.scratch)
            .read_only(&d.repo)
            .read_only_at(&d.repo, "/repo")
            .backend(choice);
        let read = sh(
            &format!("cat {}/README /repo/README", d.repo.display()),
            sandbox.clone(),
        );
        assert!(read.success(), "{choice:?}: {}", read.stderr.text());
        assert_eq!(
            read.stdout.text(),
            "hello from the repository\nhello from the repository\n"
        );
        let write = sh(
            &format!("echo changed > {}/README", d.repo.display()),
            sandbox.clone(),
        );
        assert_eq!(
            write.contained(),
            Some(Contained::WriteDenied),
            "{choice:?}: {:?} {}",
            write.exit,
            write.stderr.text()
        );
        let create = sh("touch /repo/new", sandbox);
        assert_eq!(create.contained(), Some(Contained::WriteDenied));
        assert_eq!(
            std::fs::read_to_string(d.repo.join("README")).unwrap(),
            "hello from the repository\n"
        );
        assert!(!d.repo.join("new").exists());
    }
}

#[test]
fn a_large_file_is_stopped_at_the_file_size_limit() {
    for choice in backends() {
        let d = dirs();
        let limits = SandboxLimits {
            file_size_mb: Some(1),
            ..SandboxLimits::default()
        };
        let out = sh(
            "head -c 4000000 /dev/zero > big",
            Sandbox::new(&d.scratch).limits(limits).backend(choice),
        );
        assert_eq!(
            out.contained(),
            Some(Contained::OutputLimit),
            "{choice:?}: {:?} {}",
            out.exit,
            out.stderr.text()
        );
        assert!(std::fs::metadata(d.scratch.join("big")).unwrap().len() <= 1024 * 1024);
    }
}

#[test]
fn captured_output_stays_bounded() {
    for choice in backends() {
        let d = dirs();
        let out = Spec::new("sh")
            .args(["-c", "yes verity"])
            .stdout(Capture::UpTo(64 * 1024))
            .timeout(Duration::from_secs(20))
            .sandbox(Sandbox::new(&d.scratch).backend(choice))
            .run()
            .unwrap();
        assert_eq!(out.contained(), Some(Contained::OutputLimit), "{choice:?}");
        assert!(matches!(
            out.into_result(),
            Err(ProcessError::OutputTooLarge { .. })
        ));
    }
}

#[test]
fn a_missing_backend_is_a_configuration_error_and_nothing_runs() {
    // The backends are found on verity's PATH: this test runs itself again with a PATH that
    // has none of the tools, where the sandboxed run must refuse to start.
    if std::env::var_os("VERITY_SANDBOX_TEST_CHILD").is_some() {
        let d = dirs();
        let err = Spec::new("/bin/sh")
            .args(["-c", "touch ran"])
            .sandbox(Sandbox::new(&d.scratch))
            .run()
            .unwrap_err();
        assert!(err.is_config(), "{err}");
        assert!(matches!(err, ProcessError::SandboxUnavailable { .. }));
        let message = err.to_string();
        assert!(message.starts_with("cannot run sandboxed: "), "{message}");
        assert!(message.contains("bwrap is not installed"), "{message}");
        assert!(message.contains("unshare is not installed"), "{message}");
        assert!(!d.scratch.join("ran").exists(), "it ran unsandboxed");
        return;
    }
    let me = std::env::current_exe().unwrap();
    let out = Spec::new(me)
        .args([
            "a_missing_backend_is_a_configuration_error_and_nothing_runs",
            "--exact",
            "--test-threads=1",
        ])
        .env("PATH", "/nonexistent")
        .env("VERITY_SANDBOX_TEST_CHILD", "1")
        .stdout(Capture::Tail(16 * 1024))
        .stderr(Capture::Tail(16 * 1024))
        .timeout(Duration::from_secs(60))
        .run()
        .unwrap();
    assert!(
        out.exit.success() && out.stdout.text().contains("1 passed"),
        "{}\n{}",
        out.stdout.text(),
        out.stderr.text()
    );
}
