//! The run under faults of the outside world: a disk that fills, a key that is refused, an
//! endpoint that is down, rate-limit storms. Real binary, real SQLite file, real HTTP to the
//! fake server. The rule they check: a paid answer is never lost, and a run that cannot
//! succeed stops before paying for more.

use std::time::{Duration, Instant};

use crate::support::*;

/// A bare dataset of `n` arithmetic questions, each answered correctly by the fake server.
fn dataset(dir: &std::path::Path, n: usize) {
    let mut data = String::new();
    for i in 0..n {
        data.push_str(&format!(
            "{{\"id\": \"q{i:04}\", \"input\": \"What is {i} + 1?\", \"target\": \"{}\"}}\n",
            i + 1
        ));
    }
    write_tree(dir, &[("q.jsonl", &data)]);
}

/// `verity run q.jsonl` against `base_url` (OpenAI-compatible), with the key in a variable.
fn run_args(base_url: &str, concurrency: usize) -> Vec<String> {
    [
        "run",
        "q.jsonl",
        "--provider",
        "openai",
        "--model",
        "gpt-4o-mini",
        "--base-url",
        base_url,
        "--api-key-env",
        "VERITY_IT_KEY",
        "--scorer",
        "equals",
        "--cache",
        "off",
        "--db",
        "v.db",
        "--concurrency",
        &concurrency.to_string(),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

fn count(db: &std::path::Path, sql: &str) -> u64 {
    let c = rusqlite::Connection::open(db).unwrap();
    c.query_row(sql, [], |r| r.get::<_, i64>(0)).unwrap() as u64
}

fn status(db: &std::path::Path) -> String {
    let c = rusqlite::Connection::open(db).unwrap();
    c.query_row("SELECT status FROM runs", [], |r| r.get(0))
        .unwrap()
}

/// The largest `N/TOTAL samples` count the plain progress lines printed.
fn most_progress(log: &str) -> u64 {
    log.lines()
        .filter_map(|l| l.split_once("/").map(|(a, _)| a.trim()))
        .filter_map(|a| a.parse::<u64>().ok())
        .max()
        .unwrap_or(0)
}

/// A disk that fills mid-run (a real write failure: the file-size limit of `ulimit -f`, whose
/// `write` errors SQLite reports as it would a full disk) stops the run at the first failed
/// commit: exit 3, progress never counted more than was stored, the run says how many samples
/// it stored and is resumable, and the resume sends exactly the others.
#[test]
fn a_disk_that_fills_mid_run_loses_no_stored_sample_and_resume_pays_only_for_the_rest() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let server = rt.block_on(verity_testkit::FakeServer::start_with(
        verity_testkit::FakeConfig {
            record_requests: false,
            ..verity_testkit::FakeConfig::default()
        },
    ));
    let dir = tempfile::tempdir().unwrap();
    let n = 2000;
    dataset(dir.path(), n);
    // 1.5 MiB per file: the staged tasks fit, the samples of 2,000 answers do not.
    let mut cmd = std::process::Command::new("bash");
    cmd.current_dir(dir.path())
        .env("NO_COLOR", "1")
        .env_remove("VERITY_DB")
        .env("VERITY_IT_KEY", "sk-test")
        .arg("-c")
        .arg("trap '' XFSZ; ulimit -f 1536; exec \"$0\" \"$@\"")
        .arg(bin())
        .args(run_args(&server.base_url(), 20));
    let out = cmd.output().unwrap();
    let log = stderr(&out);
    assert_eq!(out.status.code(), Some(3), "{log}");
    assert!(
        log.contains("stopped: the store cannot be written"),
        "{log}"
    );
    let db = dir.path().join("v.db");
    let stored = count(&db, "SELECT count(*) FROM samples");
    assert!(stored > 0 && stored < n as u64, "stored {stored}");
    assert!(
        log.contains(&format!("{stored} of {n} samples are stored")),
        "the message names exactly what is stored ({stored}):\n{log}"
    );
    assert!(
        most_progress(&log) <= stored,
        "progress showed {} finished, {stored} stored:\n{log}",
        most_progress(&log)
    );
    assert!(log.contains("verity run --resume"), "{log}");
    let first = rt.block_on(server.settled_stats(0, Duration::from_secs(5)));
    let wasted = first.requests - stored;
    assert!(
        wasted <= 1024 + 512 + 20,
        "{wasted} answers were paid for and not stored"
    );
    assert!(
        first.requests < n as u64,
        "scheduling went on after the failure"
    );

    // Space again: the resume sends exactly the samples that are not stored.
    let out = run_ok(
        verity(dir.path())
            .env("VERITY_IT_KEY", "sk-test")
            .args(["run", "--resume", "latest", "--db", "v.db", "--quiet"]),
    );
    drop(out);
    let after = rt.block_on(server.settled_stats(0, Duration::from_secs(5)));
    assert_eq!(after.requests - first.requests, n as u64 - stored);
    assert_eq!(count(&db, "SELECT count(*) FROM samples"), n as u64);
    assert_eq!(
        count(&db, "SELECT count(*) FROM scores WHERE outcome = 'pass'"),
        n as u64
    );
    assert_eq!(status(&db), "completed");
}

/// A refused key fails every call alike: the run stops at the first refusal (exit 3 with the
/// provider's message), stores no sample for it (the attempts stay as observations), and a
/// resume after the fix runs everything.
#[test]
fn a_rejected_key_stops_the_run_before_more_calls_are_paid() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let server = rt.block_on(verity_testkit::FakeServer::start());
    server.fail_for(Duration::from_secs(600), verity_testkit::Fault::status(401));
    let dir = tempfile::tempdir().unwrap();
    dataset(dir.path(), 200);
    let out = verity(dir.path())
        .env("VERITY_IT_KEY", "sk-wrong")
        .args(run_args(&server.base_url(), 10))
        .output()
        .unwrap();
    let log = stderr(&out);
    assert_eq!(out.status.code(), Some(3), "{log}");
    assert!(log.contains("refused the call (auth)"), "{log}");
    assert!(
        log.contains("fake error 401"),
        "the provider's message: {log}"
    );
    let db = dir.path().join("v.db");
    assert_eq!(count(&db, "SELECT count(*) FROM samples"), 0);
    assert!(
        count(
            &db,
            "SELECT count(*) FROM observations WHERE error_kind = 'auth'"
        ) >= 1
    );
    assert_eq!(status(&db), "interrupted");
    let calls = server.stats().requests;
    assert!(calls <= 10, "{calls} calls after the first refusal's batch");

    server.fail_for(Duration::ZERO, verity_testkit::Fault::status(401));
    run_ok(
        verity(dir.path())
            .env("VERITY_IT_KEY", "sk-right")
            .args(["run", "--resume", "latest", "--db", "v.db", "--quiet"]),
    );
    assert_eq!(
        count(&db, "SELECT count(*) FROM scores WHERE outcome = 'pass'"),
        200
    );
    assert_eq!(status(&db), "completed");
}

/// An endpoint that refuses every connection from the start stops the run after
/// `max_connect_failures` (here the default, 10), not after every sample's retries.
#[test]
fn a_dead_endpoint_stops_the_run_after_a_few_refused_connections() {
    // A port nothing listens on: bind one, then let it go.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let dir = tempfile::tempdir().unwrap();
    dataset(dir.path(), 200);
    let t0 = Instant::now();
    let out = verity(dir.path())
        .env("VERITY_IT_KEY", "sk-test")
        .args(run_args(&format!("http://127.0.0.1:{port}/v1"), 10))
        .output()
        .unwrap();
    let log = stderr(&out);
    assert_eq!(out.status.code(), Some(3), "{log}");
    assert!(
        log.contains("refused or dropped the first 10 connections"),
        "{log}"
    );
    assert!(t0.elapsed() < Duration::from_secs(20), "{:?}", t0.elapsed());
    let db = dir.path().join("v.db");
    assert_eq!(count(&db, "SELECT count(*) FROM samples"), 0);
    assert_eq!(status(&db), "interrupted");
}

/// A run in which every sample ended in an infrastructure error measured nothing: exit 3.
#[test]
fn a_run_whose_samples_all_errored_exits_3() {
    let dir = tempfile::tempdir().unwrap();
    let mut data = String::new();
    for i in 0..5 {
        data.push_str(&format!(
            "{{\"id\": \"e{i}\", \"input\": \"x\", \"target\": \"1\", \"metadata\": {{\"mock_error\": \"server_error\"}}}}\n"
        ));
    }
    write_tree(dir.path(), &[("e.jsonl", &data)]);
    let out = verity(dir.path())
        .args([
            "run",
            "e.jsonl",
            "--provider",
            "mock",
            "--scorer",
            "equals",
            "--retries",
            "0",
            "--db",
            "v.db",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("every one of the 5 samples stored ended in an infrastructure error"),
        "{}",
        stderr(&out)
    );
}

/// Storms of 429s cost time, never samples: retries on a time budget, Retry-After plus
/// jitter, and the endpoint's window shrinking and growing back.
fn storm(n: usize, setup: impl FnOnce(&verity_testkit::FakeServer)) -> (String, Duration) {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let server = rt.block_on(verity_testkit::FakeServer::start_with(
        verity_testkit::FakeConfig {
            latency: Duration::from_millis(5),
            ..verity_testkit::FakeConfig::default()
        },
    ));
    let dir = tempfile::tempdir().unwrap();
    dataset(dir.path(), n);
    setup(&server);
    let t0 = Instant::now();
    let out = run_ok(
        verity(dir.path())
            .env("VERITY_IT_KEY", "sk-test")
            .args(run_args(&server.base_url(), 50)),
    );
    let took = t0.elapsed();
    let db = dir.path().join("v.db");
    assert_eq!(count(&db, "SELECT count(*) FROM samples"), n as u64);
    assert_eq!(
        count(&db, "SELECT count(*) FROM scores WHERE outcome = 'error'"),
        0,
        "a storm cost samples:\n{}",
        stderr(&out)
    );
    assert!(
        count(
            &db,
            "SELECT count(*) FROM observations WHERE error_kind = 'rate_limited'"
        ) > 0,
        "the storm never hit"
    );
    (stderr(&out), took)
}

#[test]
fn a_burst_of_60_rate_limits_costs_no_sample() {
    storm(600, |s| {
        s.fail_next(60, verity_testkit::Fault::rate_limited("0.05"));
    });
}

#[test]
fn a_ten_second_storm_with_retry_after_costs_no_sample() {
    let (_, took) = storm(100, |s| {
        s.fail_for(
            Duration::from_secs(10),
            verity_testkit::Fault::rate_limited("1"),
        );
    });
    assert!(took >= Duration::from_secs(10), "{took:?}");
}

#[test]
fn a_ten_second_storm_without_retry_after_costs_no_sample() {
    let (_, took) = storm(100, |s| {
        s.fail_for(Duration::from_secs(10), verity_testkit::Fault::status(429));
    });
    assert!(took >= Duration::from_secs(10), "{took:?}");
}
