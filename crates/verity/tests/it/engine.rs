//! The run engine through the CLI: resume after crashes, retry of failed samples, shards and
//! merge, the cache and its maintenance commands, budgets.

use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::support::*;

fn slow_suite(dir: &std::path::Path, n: usize, latency_ms: u64) {
    let mut tasks = String::new();
    for i in 0..n {
        tasks.push_str(&format!(
            "{{\"id\": \"t{i:03}\", \"input\": \"{i} + 1\", \"target\": \"{}\"}}\n",
            i + 1
        ));
    }
    write_tree(
        dir,
        &[
            (
                "s/suite.toml",
                &format!(
                    "name = \"slow\"\ntasks = \"tasks.jsonl\"\n[defaults]\nprovider = \"mock\"\noptions = {{ latency_ms = {latency_ms} }}\n[[scorers]]\nkind = \"equals\"\n"
                ),
            ),
            ("s/tasks.jsonl", &tasks),
        ],
    );
}

fn completed(db: &std::path::Path) -> u64 {
    verity_store::Store::open(db)
        .ok()
        .and_then(|s| s.list_runs().ok())
        .and_then(|r| r.first().map(|r| r.completed))
        .unwrap_or(0)
}

/// Kill the run with SIGKILL at several points, resume each time, and finish: every sample is
/// stored exactly once and no completed sample was sent to the model twice.
#[test]
fn kill_and_resume_repeatedly_loses_and_duplicates_nothing() {
    let dir = tempfile::tempdir().unwrap();
    slow_suite(dir.path(), 240, 8);
    let db = dir.path().join("r.db");
    // Deterministic "random" kill points: after 15, 70 and 140 samples have been committed.
    for (round, at) in [15u64, 70, 140].into_iter().enumerate() {
        let mut cmd = verity(dir.path());
        if round == 0 {
            cmd.args(["run", "s"]);
        } else {
            cmd.args(["run", "--resume", "latest"]);
        }
        let mut child = cmd
            .args(["-j", "3", "--quiet", "--cache", "off", "--db"])
            .arg(&db)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let deadline = Instant::now() + Duration::from_secs(60);
        while completed(&db) < at {
            assert!(Instant::now() < deadline, "no progress in round {round}");
            assert!(
                child.try_wait().unwrap().is_none(),
                "finished before the kill in round {round}"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        child.kill().unwrap();
        child.wait().unwrap();
        let store = verity_store::Store::open(&db).unwrap();
        assert!(store.integrity_check().unwrap());
    }
    let out = run_ok(
        verity(dir.path())
            .args([
                "run", "--resume", "latest", "-j", "3", "--quiet", "--cache", "off", "--db",
            ])
            .arg(&db),
    );
    assert!(stdout(&out).is_empty());
    let store = verity_store::Store::open(&db).unwrap();
    let runs = store.list_runs().unwrap();
    assert_eq!(runs.len(), 1, "resume continues the same run");
    assert_eq!(runs[0].status, verity_model::RunStatus::Completed);
    let samples = store.load_samples(&runs[0].id, None).unwrap();
    assert_eq!(samples.len(), 240);
    assert!(
        samples
            .iter()
            .all(|s| s.outcome == verity_model::Outcome::Pass)
    );
    // Each sample was answered by exactly one stored call: nothing completed was re-sent.
    let mut per_key: HashMap<String, usize> = HashMap::new();
    for o in store.observations(&runs[0].id).unwrap() {
        *per_key.entry(o.key.to_string()).or_default() += 1;
    }
    assert_eq!(per_key.len(), 240);
    assert!(
        per_key.values().all(|n| *n == 1),
        "a completed sample was sent again"
    );
    // Resuming a finished run is a no-op.
    let out = run_ok(
        verity(dir.path())
            .args(["run", "--resume", "latest", "--db"])
            .arg(&db),
    );
    assert!(stderr(&out).contains("already complete"));
}

#[test]
fn retry_failed_reruns_only_errored_samples() {
    retry_failed_samples(false);
}

/// A retry of a rescored run stores its verdicts under the run's newest scoring, the one
/// reports read: under the first one, every retried sample would still show as an error.
#[test]
fn retry_after_a_rescore_stores_under_the_newest_scoring() {
    retry_failed_samples(true);
}

fn retry_failed_samples(rescore_first: bool) {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let server = rt.block_on(verity_testkit::FakeServer::start());
    let dir = tempfile::tempdir().unwrap();
    let mut data = String::new();
    for i in 0..12 {
        data.push_str(&format!(
            "{{\"id\": \"q{i:02}\", \"input\": \"{i} + {i}\", \"target\": \"{}\"}}\n",
            2 * i
        ));
    }
    write_tree(dir.path(), &[("q.jsonl", &data)]);
    // Three requests fail with a non-retryable 400.
    server.fail_next(3, verity_testkit::Fault::status(400));
    let base = [
        "run",
        "q.jsonl",
        "--provider",
        "openai",
        "--model",
        "m",
        "--scorer",
        "equals",
        "-j",
        "1",
        "--quiet",
        "--db",
        "v.db",
        "--base-url",
    ];
    run_ok(verity(dir.path()).args(base).arg(server.base_url()));
    let report = |dir: &std::path::Path| -> Value {
        serde_json::from_str(&stdout(&run_ok(
            verity(dir).args(["report", "latest", "--format", "json", "--db", "v.db"]),
        )))
        .unwrap()
    };
    let before = report(dir.path());
    let errors = |v: &Value| {
        v["per_task"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|t| t["variants"]["default"]["epochs"][0]["outcome"] == "error")
            .count()
    };
    assert_eq!(errors(&before), 3);
    if rescore_first {
        let out = run_ok(verity(dir.path()).args(["rescore", "latest", "--db", "v.db"]));
        assert!(stdout(&out).contains("scoring 2"), "{}", stdout(&out));
        assert_eq!(errors(&report(dir.path())), 3);
    }
    let requests = server.stats().requests;
    let out = verity(dir.path())
        .args(["retry", "latest", "--failed", "--quiet", "--db", "v.db"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("retrying 3 failed samples"),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        server.stats().requests,
        requests + 3,
        "only the failed samples were sent again"
    );
    let after = report(dir.path());
    assert_eq!(errors(&after), 0);
    let store = verity_store::Store::open(&dir.path().join("v.db")).unwrap();
    let id = store.resolve_run("latest").unwrap();
    assert_eq!(
        store.observations(&id).unwrap().len(),
        15,
        "the failed attempts stay as history"
    );
    assert_eq!(
        store.list_runs().unwrap()[0].status,
        verity_model::RunStatus::Completed
    );
    // Nothing left to retry.
    let out = run_ok(verity(dir.path()).args(["retry", "latest", "--failed", "--db", "v.db"]));
    assert!(stderr(&out).contains("nothing to retry"));
}

#[test]
fn shards_merge_into_the_same_results_as_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let root = repo_root();
    let suite = root.join("suites/example");
    let full = dir.path().join("full.db");
    run_ok(
        verity(dir.path())
            .arg("run")
            .arg(&suite)
            .args(["--quiet", "--db"])
            .arg(&full),
    );
    let mut shards = Vec::new();
    for k in 1..=3 {
        let db = dir.path().join(format!("shard{k}.db"));
        run_ok(
            verity(dir.path())
                .arg("run")
                .arg(&suite)
                .args(["--quiet", "--shard", &format!("{k}/3"), "--db"])
                .arg(&db),
        );
        shards.push(db);
    }
    let merged = dir.path().join("merged.db");
    let out = run_ok(
        verity(dir.path())
            .arg("merge")
            .args(&shards)
            .arg("--db")
            .arg(&merged),
    );
    assert!(stdout(&out).contains("merged 3 shards"), "{}", stdout(&out));
    let outcomes = |db: &std::path::Path| -> BTreeMap<String, String> {
        let v: Value = serde_json::from_str(&stdout(&run_ok(
            verity(dir.path())
                .args(["report", "latest", "--format", "json", "--db"])
                .arg(db),
        )))
        .unwrap();
        let mut m = BTreeMap::new();
        for t in v["per_task"].as_array().unwrap() {
            for (var, r) in t["variants"].as_object().unwrap() {
                m.insert(
                    format!("{}/{var}", t["id"].as_str().unwrap()),
                    r["epochs"][0]["outcome"].as_str().unwrap().to_owned(),
                );
            }
        }
        m
    };
    let (a, b) = (outcomes(&full), outcomes(&merged));
    assert_eq!(a.len(), 20);
    assert_eq!(a, b);
    // A missing shard is refused with a usage error.
    let out = verity(dir.path())
        .arg("merge")
        .args(&shards[..2])
        .arg("--db")
        .arg(dir.path().join("bad.db"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("3/3"), "{}", stderr(&out));
}

#[test]
fn cache_stats_prune_and_replay_from_the_cli() {
    let dir = tempfile::tempdir().unwrap();
    slow_suite(dir.path(), 6, 0);
    run_ok(verity(dir.path()).args(["run", "s", "--quiet", "--db", "c.db"]));
    let st = stdout(&run_ok(
        verity(dir.path()).args(["cache", "stats", "--db", "c.db"]),
    ));
    assert!(st.contains("6 entries"), "{st}");
    // Replay answers every sample from the cache.
    run_ok(verity(dir.path()).args([
        "run",
        "s",
        "--quiet",
        "--provider",
        "replay",
        "--db",
        "c.db",
        "--fail-under",
        "1",
    ]));
    let out = verity(dir.path())
        .args(["cache", "prune", "--db", "c.db"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "prune without a selection deletes nothing"
    );
    let out = run_ok(verity(dir.path()).args(["cache", "prune", "--all", "--db", "c.db"]));
    assert!(stdout(&out).contains("pruned 6"), "{}", stdout(&out));
    // With the cache empty, replay fails every sample as an error naming it: a run that
    // measured nothing is an infrastructure failure (exit 3), whatever the gate says.
    let out = verity(dir.path())
        .args([
            "run",
            "s",
            "--quiet",
            "--cache",
            "replay",
            "--db",
            "c.db",
            "--fail-under",
            "1",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("ended in an infrastructure error"),
        "{}",
        stderr(&out)
    );
    let v: Value = serde_json::from_str(&stdout(&run_ok(
        verity(dir.path()).args(["report", "latest", "--format", "json", "--db", "c.db"]),
    )))
    .unwrap();
    let e = &v["per_task"][0]["variants"]["default"]["epochs"][0]["error"];
    assert!(e.to_string().contains("cache_miss"), "{e}");
    let out = run_ok(verity(dir.path()).args([
        "observations",
        "prune",
        "--keep-last",
        "3",
        "--keep-days",
        "0",
        "--db",
        "c.db",
    ]));
    assert!(stdout(&out).contains("pruned"), "{}", stdout(&out));
}

#[test]
fn budget_and_config_file() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let server = rt.block_on(verity_testkit::FakeServer::start());
    let dir = tempfile::tempdir().unwrap();
    write_tree(
        dir.path(),
        &[(
            "q.jsonl",
            "{\"id\": \"a\", \"input\": \"1 + 1\", \"target\": \"2\"}\n{\"id\": \"b\", \"input\": \"2 + 2\", \"target\": \"4\"}\n",
        )],
    );
    let args = [
        "run",
        "q.jsonl",
        "--provider",
        "openai",
        "--model",
        "gpt-4o",
        "--scorer",
        "equals",
        "--db",
        "v.db",
        "--base-url",
    ];
    // gpt-4o list price: the estimate (2 calls x 256 output tokens) is above a tenth of a cent.
    let out = verity(dir.path())
        .args(args)
        .arg(server.base_url())
        .args(["--max-cost", "0.001"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("exceeds --max-cost"),
        "{}",
        stderr(&out)
    );
    let out = verity(dir.path())
        .args(args)
        .arg(server.base_url())
        .args(["--max-tokens", "10"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(server.stats().requests, 0, "refused before any call");
    // An unknown model price with --max-cost is refused too, naming the model.
    let out = verity(dir.path())
        .args([
            "run",
            "q.jsonl",
            "--provider",
            "openai",
            "--model",
            "house-model",
            "--scorer",
            "equals",
            "--db",
            "v.db",
            "--max-cost",
            "1",
            "--base-url",
        ])
        .arg(server.base_url())
        .output()
        .unwrap();
    assert!(stderr(&out).contains("house-model"), "{}", stderr(&out));
    // verity.toml prices it and sets the database path.
    write_tree(
        dir.path(),
        &[(
            "verity.toml",
            "[store]\npath = \"from-config.db\"\n[prices.\"house-model\"]\ninput = 0.0\noutput = 0.0\n",
        )],
    );
    let out = verity(dir.path())
        .args([
            "run",
            "q.jsonl",
            "--provider",
            "openai",
            "--model",
            "house-model",
            "--scorer",
            "equals",
            "--max-cost",
            "1",
            "--quiet",
            "--base-url",
        ])
        .arg(server.base_url())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(dir.path().join("from-config.db").exists());
    // A bad configuration is a usage error with its location.
    write_tree(dir.path(), &[("verity.toml", "[run]\nconcurrancy = 2\n")]);
    let out = verity(dir.path()).args(["runs"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("verity.toml") && stderr(&out).contains("line 2"),
        "{}",
        stderr(&out)
    );
}

fn task_rows(db: &std::path::Path) -> (i64, i64) {
    let c = rusqlite::Connection::open(db).unwrap();
    let q = |sql: &str| c.query_row(sql, [], |r| r.get::<_, i64>(0)).unwrap();
    (
        q("SELECT count(*) FROM tasks"),
        q("SELECT count(*) FROM runs"),
    )
}

/// A run streams its suite into the database a batch at a time: problems found in a later
/// batch (a duplicate id far down the file, a line that is not JSON) still fail the run with
/// their file:line:column, and nothing the load staged is left behind.
#[test]
fn a_streamed_suite_fails_whole_and_leaves_nothing_behind() {
    let dir = tempfile::tempdir().unwrap();
    slow_suite(dir.path(), 2500, 0);
    let tasks = dir.path().join("s/tasks.jsonl");
    let mut text = std::fs::read_to_string(&tasks).unwrap();
    let db = dir.path().join("v.db");
    // Writes the dataset, runs it, which must fail as bad input leaving no rows; its stderr.
    let fails = |text: &str| {
        std::fs::write(&tasks, text).unwrap();
        let out = verity(dir.path())
            .args(["run", "s", "--quiet", "--db"])
            .arg(&db)
            .output()
            .unwrap();
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert_eq!(task_rows(&db), (0, 0));
        err
    };
    // Line 2501 repeats the id of line 3, two batches later.
    text.push_str("{\"id\": \"t002\", \"input\": \"again\", \"target\": \"x\"}\n");
    let err = fails(&text);
    assert!(err.contains("duplicate task id `t002`"), "{err}");
    assert!(err.contains("tasks.jsonl:2501:"), "{err}");
    assert!(err.contains("first defined at s/tasks.jsonl:3:"), "{err}");

    // The same with the duplicate gone but a broken line near the end.
    text.truncate(text.rfind("{\"id\": \"t002\"").unwrap());
    text.push_str("{\"id\": \"late\", \"input\": oops}\n");
    let err = fails(&text);
    assert!(err.contains("tasks.jsonl:2501:"), "{err}");

    // A run that cannot start after its suite loaded (no API key) leaves no tasks either.
    text.truncate(text.rfind("{\"id\": \"late\"").unwrap());
    std::fs::write(&tasks, &text).unwrap();
    let out = verity(dir.path())
        .args([
            "run",
            "s",
            "--quiet",
            "--provider",
            "openai",
            "--model",
            "gpt-4o-mini",
        ])
        .env_remove("OPENAI_API_KEY")
        .arg("--db")
        .arg(&db)
        .output()
        .unwrap();
    assert_ne!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("OPENAI_API_KEY"), "{}", stderr(&out));
    assert_eq!(task_rows(&db), (0, 0));
}

/// The selection (`--filter`, `--limit`, `--shard`) is applied while the suite streams in;
/// the run stores only the tasks it takes, in suite order, and runs exactly those.
#[test]
fn a_streamed_run_stores_and_runs_only_its_selection() {
    let dir = tempfile::tempdir().unwrap();
    slow_suite(dir.path(), 2300, 0);
    let db = dir.path().join("v.db");
    run_ok(
        verity(dir.path())
            .args([
                "run", "s", "--quiet", "--filter", "t1*", "--limit", "700", "--shard", "2/3",
                "--db",
            ])
            .arg(&db),
    );
    // t1, t10…t19, t100…t199, t1000…t1999 in file order: the first 700 of those, every
    // third from the second.
    let matching: Vec<String> = (0..2300)
        .map(|i| format!("t{i:03}"))
        .filter(|id| id.starts_with("t1"))
        .take(700)
        .collect();
    let want: Vec<&String> = matching.iter().skip(1).step_by(3).collect();
    let c = rusqlite::Connection::open(&db).unwrap();
    let stored: Vec<String> = c
        .prepare("SELECT task_id FROM tasks ORDER BY idx")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(stored.iter().collect::<Vec<_>>(), want);
    let samples: i64 = c
        .query_row(
            "SELECT count(*) FROM scores WHERE outcome = 'pass'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(samples as usize, want.len());
    let total: i64 = c
        .query_row("SELECT total_samples FROM runs", [], |r| r.get(0))
        .unwrap();
    assert_eq!(total as usize, want.len());
}
