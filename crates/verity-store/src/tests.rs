use std::collections::BTreeMap;

use verity_model::*;

use super::*;

mod cache;
mod failed;
mod merge;
mod open;
mod owner;
mod redact;
mod retention;
mod retry;
mod tasks;

fn meta(id: &str, started: &str) -> RunMeta {
    RunMeta {
        id: id.into(),
        suite_path: "suites/x".into(),
        suite: Suite {
            quick: Vec::new(),
            perturb: None,
            run: Default::default(),
            name: "x".into(),
            description: None,
            tasks: vec![Task::prompt("t1", "hi")],
            variants: vec![],
            scorers: vec![],
            outcome: OutcomeRule::default(),
            epochs: 1,
            coverage: BTreeMap::new(),
            servers: BTreeMap::new(),
            compare: vec![],
            gates: Vec::new(),
            report: Default::default(),
            content_hash: "h".into(),
        },
        options: RunOptions::default(),
        started_at: started.into(),
        finished_at: None,
        status: RunStatus::Running,
        verity_version: "0.1.0".into(),
        models: BTreeMap::new(),
        prompt_hashes: BTreeMap::new(),
        total_samples: 2,
        scoring: 1,
        preflight: Default::default(),
        liveness: Default::default(),
    }
}

fn sample(task: &str, variant: &str, text: &str, outcome: Outcome) -> SampleRecord {
    SampleRecord {
        key: SampleKey {
            task_id: task.into(),
            variant: variant.into(),
            epoch: 0,
        },
        response: Response {
            text: text.into(),
            attempts: 1,
            ..Response::default()
        },
        scores: vec![Score::pass("equals", "equals")],
        outcome,
        completed_at: "2026-01-01T00:00:01Z".into(),
    }
}

#[test]
fn run_lifecycle_and_rescore_keep_history() {
    let mut s = Store::open_in_memory().unwrap();
    s.insert_run(&meta("r1", "2026-01-01T00:00:00Z")).unwrap();
    s.write(&[
        Write::Sample {
            run_id: "r1".into(),
            scoring: 1,
            record: sample("t1", "a", "4", Outcome::Pass),
        },
        Write::Sample {
            run_id: "r1".into(),
            scoring: 1,
            record: sample("t1", "b", "5", Outcome::Fail),
        },
        Write::Group {
            run_id: "r1".into(),
            scoring: 1,
            record: GroupRecord {
                variant: "a".into(),
                scope: "epochs".into(),
                group: "t1".into(),
                task_ids: vec!["t1".into()],
                scores: vec![Score::pass("identical", "identical")],
            },
        },
    ])
    .unwrap();
    let loaded = s.load_samples("r1", None).unwrap();
    assert_eq!(loaded.len(), 2);
    assert_eq!(loaded[0].response.text, "4");
    assert_eq!(loaded[1].outcome, Outcome::Fail);
    assert_eq!(s.load_groups("r1", None).unwrap().len(), 1);

    let rescored: Vec<_> = loaded
        .iter()
        .map(|r| {
            (
                r.key.clone(),
                vec![Score::fail("equals", "equals")],
                Outcome::Fail,
            )
        })
        .collect();
    assert_eq!(s.add_scoring("r1", &rescored, &[]).unwrap(), 2);
    assert_eq!(s.load_run("r1").unwrap().scoring, 2);
    assert!(
        s.load_samples("r1", None)
            .unwrap()
            .iter()
            .all(|r| r.outcome == Outcome::Fail)
    );
    // The first scoring is still there.
    assert_eq!(
        s.load_samples("r1", Some(1)).unwrap()[0].outcome,
        Outcome::Pass
    );
    assert!(s.load_groups("r1", None).unwrap().is_empty());

    s.set_run_status("r1", RunStatus::Completed, Some("2026-01-01T00:00:05Z"))
        .unwrap();
    let runs = s.list_runs().unwrap();
    assert_eq!(runs[0].status, RunStatus::Completed);
    assert_eq!(
        (runs[0].completed, runs[0].total, runs[0].passed),
        (2, 2, 0)
    );
    assert_eq!(s.completed_keys("r1").unwrap().len(), 2);
}

#[test]
fn resolve_by_prefix_and_latest() {
    let mut s = Store::open_in_memory().unwrap();
    s.insert_run(&meta("20260101-000000-aaaa", "2026-01-01T00:00:00Z"))
        .unwrap();
    s.insert_run(&meta("20260102-000000-bbbb", "2026-01-02T00:00:00Z"))
        .unwrap();
    assert_eq!(s.resolve_run("latest").unwrap(), "20260102-000000-bbbb");
    assert_eq!(s.resolve_run("latest~0").unwrap(), "20260102-000000-bbbb");
    assert_eq!(s.resolve_run("latest~1").unwrap(), "20260101-000000-aaaa");
    assert!(matches!(
        s.resolve_run("latest~2"),
        Err(StoreError::NoSuchRun(_))
    ));
    assert!(matches!(
        s.resolve_run("latest~x"),
        Err(StoreError::BadRunSpec(_))
    ));
    assert_eq!(s.resolve_run("20260101").unwrap(), "20260101-000000-aaaa");
    // Both runs share the test suite's hash: the earlier one is the newer one's history.
    let hash = s
        .load_run_meta("20260102-000000-bbbb")
        .unwrap()
        .suite
        .content_hash;
    assert_eq!(
        s.earlier_runs(&hash, "20260102-000000-bbbb", 10).unwrap(),
        ["20260101-000000-aaaa"]
    );
    assert!(
        s.earlier_runs(&hash, "20260101-000000-aaaa", 10)
            .unwrap()
            .is_empty()
    );
    assert!(
        s.earlier_runs("other", "20260102-000000-bbbb", 10)
            .unwrap()
            .is_empty()
    );
    assert!(matches!(
        s.resolve_run("2026"),
        Err(StoreError::AmbiguousRun { .. })
    ));
    assert!(matches!(
        s.resolve_run("nope"),
        Err(StoreError::NoSuchRun(_))
    ));
    assert!(matches!(
        s.set_run_status("nope", RunStatus::Failed, None),
        Err(StoreError::NoSuchRun(_))
    ));
}

#[test]
fn observations_round_trip_and_reopen_is_idempotent() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sub/verity.db");
    {
        let mut s = Store::open(&path).unwrap();
        s.insert_run(&meta("r", "2026-01-01T00:00:00Z")).unwrap();
        let o = Observation {
            run_id: "r".into(),
            key: SampleKey {
                task_id: "t1".into(),
                variant: "a".into(),
                epoch: 0,
            },
            attempt: 2,
            started_at: "2026-01-01T00:00:00Z".into(),
            provider: "openai".into(),
            model: "m".into(),
            endpoint: "http://127.0.0.1:1/v1".into(),
            prompt_hash: "p".into(),
            input_hash: "i".into(),
            raw_response: None,
            output_text: None,
            input_tokens: 0,
            output_tokens: 0,
            latency_ms: 12,
            cache_hit: false,
            error_kind: Some("rate_limited".into()),
            error: Some("429".into()),
        };
        s.write(&[Write::Observation(o.clone())]).unwrap();
        assert_eq!(s.observations("r").unwrap(), vec![o]);
    }
    let s = Store::open(&path).unwrap();
    assert_eq!(s.list_runs().unwrap().len(), 1);
    assert!(s.integrity_check().unwrap());
}

#[test]
fn refuses_a_newer_schema() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v.db");
    drop(Store::open(&path).unwrap());
    let c = rusqlite::Connection::open(&path).unwrap();
    c.execute_batch("PRAGMA user_version = 99").unwrap();
    drop(c);
    assert!(matches!(
        Store::open(&path),
        Err(StoreError::TooNew { found: 99, .. })
    ));
}

#[test]
fn garbage_file_is_an_error_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("junk.db");
    std::fs::write(
        &path,
        b"this is not a database, just some bytes that go on and on ......",
    )
    .unwrap();
    assert!(Store::open(&path).is_err());
}

/// A pipeline's stage results are stored with its sample and load back; rows stored before
/// there were artifacts load with none.
#[test]
fn artifacts_round_trip_and_old_rows_load_without_them() {
    let mut s = Store::open_in_memory().unwrap();
    s.insert_run(&meta("r1", "2026-01-01T00:00:00Z")).unwrap();
    let mut with = sample("t1", "a", "{}", Outcome::Pass);
    with.response.artifacts = vec![
        Artifact::new(
            "api_ir",
            serde_json::json!({"paths": ["/users"], "version": "3.1"}),
        ),
        Artifact::new("ui_plan", serde_json::json!("list users")),
    ];
    s.write(&[
        Write::Sample {
            run_id: "r1".into(),
            scoring: 1,
            record: with.clone(),
        },
        Write::Sample {
            run_id: "r1".into(),
            scoring: 1,
            record: sample("t1", "b", "4", Outcome::Pass),
        },
    ])
    .unwrap();
    // A response without artifacts is stored as before: no `artifacts` key.
    let stored: String = s
        .conn
        .query_row(
            "SELECT response_json FROM samples WHERE variant = 'b'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(!stored.contains("artifacts"));
    // Variant `b`'s row as an earlier verity stored it: no `artifacts` key at all.
    s.conn
        .execute(
            "UPDATE samples SET response_json = ?1 WHERE variant = 'b'",
            [r#"{"text":"4","usage":{"input_tokens":0,"output_tokens":0},"latency_ms":3,"cache_hit":false,"attempts":1}"#],
        )
        .unwrap();
    let loaded = s.load_samples("r1", None).unwrap();
    assert_eq!(loaded[0].response, with.response);
    assert_eq!(loaded[0].response.artifacts[1].name, "ui_plan");
    assert_eq!(loaded[1].response.text, "4");
    assert_eq!(loaded[1].response.latency_ms, 3);
    assert!(loaded[1].response.artifacts.is_empty());
}
