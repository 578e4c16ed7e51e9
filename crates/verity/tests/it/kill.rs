use std::time::{Duration, Instant};

use crate::support::*;

/// A run killed with SIGKILL halfway leaves a readable database holding every sample that had
/// completed, each with its scores; `verity runs` and the report show it as interrupted (its
/// process is gone) with the command that finishes it, and that command finishes it without
/// losing a stored sample.
#[test]
fn sigkill_mid_run_keeps_every_completed_sample() {
    let dir = tempfile::tempdir().unwrap();
    let mut tasks = String::new();
    for i in 0..400 {
        tasks.push_str(&format!(
            "{{\"id\": \"t{i:03}\", \"input\": \"{i} + 1\", \"target\": \"{}\"}}\n",
            i + 1
        ));
    }
    write_tree(
        dir.path(),
        &[
            (
                "s/suite.toml",
                "name = \"slow\"\ntasks = \"tasks.jsonl\"\n[defaults]\nprovider = \"mock\"\noptions = { latency_ms = 15 }\n[[scorers]]\nkind = \"equals\"\n",
            ),
            ("s/tasks.jsonl", &tasks),
        ],
    );
    let db = dir.path().join("k.db");
    let mut child = verity(dir.path())
        .args(["run", "s", "--concurrency", "2", "--quiet", "--db"])
        .arg(&db)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Wait until some samples are committed, then kill without warning.
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        std::thread::sleep(Duration::from_millis(50));
        let n = verity_store::Store::open(&db)
            .ok()
            .and_then(|s| s.list_runs().ok())
            .and_then(|r| r.first().map(|r| r.completed))
            .unwrap_or(0);
        if n >= 40 {
            break;
        }
        assert!(Instant::now() < deadline, "the run made no progress");
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run finished before it could be killed"
        );
    }
    // While its process runs, it is running, and nobody else may resume it.
    let live = verity_store::Store::open_read_only(&db)
        .unwrap()
        .list_runs()
        .unwrap();
    assert_eq!(live[0].liveness, verity_model::Liveness::Alive);
    let refused = run_code(
        verity(dir.path())
            .args(["run", "--resume", "latest", "--quiet", "--db"])
            .arg(&db),
        2,
    );
    assert!(
        stderr(&refused).contains("is still running in another verity process"),
        "{}",
        stderr(&refused)
    );
    child.kill().unwrap(); // SIGKILL on Unix
    child.wait().unwrap();

    let store = verity_store::Store::open(&db).expect("the database opens after kill -9");
    assert!(store.integrity_check().unwrap());
    let runs = store.list_runs().unwrap();
    assert_eq!(runs.len(), 1);
    assert_eq!(
        runs[0].status,
        verity_model::RunStatus::Running,
        "killed runs stay `running`"
    );
    let samples = store.load_samples(&runs[0].id, None).unwrap();
    assert!(
        samples.len() >= 40 && samples.len() < 400,
        "{} samples",
        samples.len()
    );
    for s in &samples {
        assert_eq!(s.scores.len(), 1, "sample {} lost its scores", s.key);
        assert_eq!(s.outcome, verity_model::Outcome::Pass, "{}", s.key);
        assert!(!s.response.text.is_empty());
    }
    // Every completed sample also has its observation.
    assert!(store.observations(&runs[0].id).unwrap().len() >= samples.len());
    let id = runs[0].id.clone();
    // Stored as running, shown as interrupted: its process is gone.
    assert_eq!(runs[0].liveness, verity_model::Liveness::Gone);
    let listed = run_ok(
        verity(dir.path())
            .args(["runs", "--color", "never", "--db"])
            .arg(&db),
    );
    let listed = stdout(&listed);
    let row = listed.lines().nth(1).unwrap_or_default();
    assert!(
        row.starts_with(&id) && row.contains("  interrupted  "),
        "{listed}"
    );
    assert!(
        listed.contains(&format!(
            "1 interrupted: `verity run --resume {id}` finishes it"
        )),
        "{listed}"
    );
    let json = run_ok(
        verity(dir.path())
            .args(["runs", "--format", "json", "--db"])
            .arg(&db),
    );
    let json: serde_json::Value = serde_json::from_str(&stdout(&json)).unwrap();
    assert_eq!(json[0]["status"], "interrupted");
    // And the CLI reads it.
    let out = run_ok(
        verity(dir.path())
            .args(["report", "latest", "--format", "json", "--db"])
            .arg(&db),
    );
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let run_tasks = v["per_task"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| {
            t["variants"]["default"]["epochs"]
                .as_array()
                .is_some_and(|e| !e.is_empty())
        })
        .count();
    assert_eq!(run_tasks, samples.len());
    assert_eq!(v["run"]["status"], "interrupted");

    // The hint's command finishes it: only the missing samples run, the stored ones stay.
    let before: std::collections::BTreeMap<String, String> = samples
        .iter()
        .map(|s| (s.key.to_string(), s.completed_at.clone()))
        .collect();
    drop(store);
    run_ok(
        verity(dir.path())
            .args([
                "run", "--resume", &id, "--quiet", "--color", "never", "--db",
            ])
            .arg(&db),
    );
    let store = verity_store::Store::open(&db).unwrap();
    let runs = store.list_runs().unwrap();
    assert_eq!(runs.len(), 1);
    assert_eq!(runs[0].status, verity_model::RunStatus::Completed);
    assert_eq!(runs[0].completed, 400);
    let after = store.load_samples(&id, None).unwrap();
    assert_eq!(after.len(), 400);
    for s in &after {
        if let Some(at) = before.get(&s.key.to_string()) {
            assert_eq!(&s.completed_at, at, "sample {} was run again", s.key);
        }
        assert_eq!(s.outcome, verity_model::Outcome::Pass, "{}", s.key);
    }
    let listed = run_ok(verity(dir.path()).args(["runs", "--db"]).arg(&db));
    assert!(
        stdout(&listed).contains("  completed  "),
        "{}",
        stdout(&listed)
    );
    assert!(!stdout(&listed).contains("interrupted"));
}

/// Ctrl-C outside a run: verity kills the processes it started (each in its own process group,
/// which the terminal's signal does not reach) and exits 130. Here `corpus fetch` runs a `git`
/// that starts a background sleeper and waits.
#[cfg(target_os = "linux")]
#[test]
fn ctrl_c_outside_a_run_takes_the_processes_verity_started_along() {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let git = bin.join("git");
    std::fs::write(
        &git,
        "#!/bin/sh\nsleep 60 </dev/null >/dev/null 2>&1 &\necho $! > \"$FAKE_GIT_PIDS.tmp\"\nmv \"$FAKE_GIT_PIDS.tmp\" \"$FAKE_GIT_PIDS\"\nwait\n",
    )
    .unwrap();
    std::fs::set_permissions(&git, std::fs::Permissions::from_mode(0o755)).unwrap();
    write_tree(
        dir.path(),
        &[(
            "s/repos.toml",
            "[contamination]\nmodel_cutoff = \"2024-06-30\"\n\n[repos.g]\nlanguage = \"rust\"\nsource = \"git:file:///nonexistent/r.git#0123456789abcdef0123456789abcdef01234567\"\nlicense = \"MIT\"\nfork = false\nfirst_release = \"2025-01-01\"\n",
        )],
    );
    let pids = dir.path().join("pids");
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut child = verity(&dir.path().join("s"))
        .args(["corpus", "fetch", ".", "--cache-dir"])
        .arg(dir.path().join("cache"))
        .env("PATH", path)
        .env("FAKE_GIT_PIDS", &pids)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    let sleeper: u32 = loop {
        if let Some(pid) = std::fs::read_to_string(&pids)
            .ok()
            .and_then(|s| s.trim().parse().ok())
        {
            break pid;
        }
        assert!(Instant::now() < deadline, "the fake git never ran");
        assert!(child.try_wait().unwrap().is_none(), "verity ended early");
        std::thread::sleep(Duration::from_millis(20));
    };
    let interrupted = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(interrupted.success());
    let deadline = Instant::now() + Duration::from_secs(20);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(Instant::now() < deadline, "verity did not end on Ctrl-C");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(130));
    let deadline = Instant::now() + Duration::from_secs(5);
    while std::fs::read_to_string(format!("/proc/{sleeper}/stat")).is_ok_and(|stat| {
        !stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with(['Z', 'X']))
    }) {
        assert!(
            Instant::now() < deadline,
            "git's sleeper {sleeper} outlived verity"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}
