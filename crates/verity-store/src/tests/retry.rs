use verity_model::{Outcome, ResponseError, SampleKey, SampleRecord, Score};

use crate::{Store, Write};

use super::{meta, sample};

fn errored(task: &str, variant: &str) -> SampleRecord {
    let mut r = sample(task, variant, "", Outcome::Error);
    r.response.error = Some(ResponseError {
        kind: "timeout".into(),
        message: "no answer in 30s".into(),
    });
    r.scores = vec![];
    r
}

fn key(task: &str, variant: &str) -> SampleKey {
    SampleKey {
        task_id: task.into(),
        variant: variant.into(),
        epoch: 0,
    }
}

fn obs(task: &str, variant: &str, attempt: u32, error: bool) -> Write {
    Write::Observation(crate::Observation {
        run_id: "r".into(),
        key: key(task, variant),
        attempt,
        started_at: "2026-01-01T00:00:00Z".into(),
        provider: "mock".into(),
        model: "m".into(),
        endpoint: "mock://".into(),
        prompt_hash: "p".into(),
        input_hash: "i".into(),
        raw_response: None,
        output_text: None,
        input_tokens: 0,
        output_tokens: 0,
        latency_ms: 5,
        cache_hit: false,
        error_kind: error.then(|| "timeout".into()),
        error: None,
    })
}

fn rows(s: &Store, table: &str, k: &SampleKey) -> Vec<i64> {
    let col = if table == "scores" {
        "scoring"
    } else {
        "epoch"
    };
    let mut stmt = s
        .conn
        .prepare(&format!(
            "SELECT {col} FROM {table} WHERE run_id = 'r' AND task_id = ?1 AND variant = ?2 ORDER BY 1"
        ))
        .unwrap();
    stmt.query_map([&k.task_id, &k.variant], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

fn sample_write(scoring: u32, record: SampleRecord) -> Write {
    Write::Sample {
        run_id: "r".into(),
        scoring,
        record,
    }
}

#[test]
fn failed_keys_and_a_retry_replace_the_sample_and_keep_the_history() {
    let mut s = Store::open_in_memory().unwrap();
    let mut m = meta("r", "2026-01-01T00:00:00Z");
    m.total_samples = 4;
    s.insert_run(&m).unwrap();
    s.write(&[
        sample_write(1, sample("t2", "a", "4", Outcome::Pass)),
        obs("t2", "a", 1, false),
        sample_write(1, errored("t2", "b")),
        obs("t2", "b", 1, true),
        obs("t2", "b", 2, true),
        sample_write(1, errored("t1", "b")),
        obs("t1", "b", 1, true),
        sample_write(1, sample("t1", "a", "5", Outcome::Fail)),
    ])
    .unwrap();
    assert_eq!(
        s.failed_keys("r").unwrap(),
        vec![key("t1", "b"), key("t2", "b")]
    );
    assert!(s.failed_keys("other").unwrap().is_empty());
    let before = &s.list_runs().unwrap()[0];
    assert_eq!(
        (before.completed, before.total, before.passed, before.errors),
        (4, 4, 1, 2)
    );

    // The retry of t2/b succeeds: one batch with its new observation and the new sample.
    s.write(&[
        obs("t2", "b", 1, false),
        sample_write(1, sample("t2", "b", "4", Outcome::Pass)),
    ])
    .unwrap();
    let k = key("t2", "b");
    assert_eq!(rows(&s, "samples", &k), vec![0]);
    assert_eq!(rows(&s, "scores", &k), vec![1]);
    // The failed attempts stay as history beside the new one.
    let history: Vec<Option<String>> = s
        .observations("r")
        .unwrap()
        .into_iter()
        .filter(|o| o.key == k)
        .map(|o| o.error_kind)
        .collect();
    assert_eq!(
        history,
        vec![Some("timeout".into()), Some("timeout".into()), None]
    );
    let loaded = s.load_samples("r", None).unwrap();
    let t2b = loaded.iter().find(|r| r.key == k).unwrap();
    assert_eq!(
        (t2b.response.text.as_str(), t2b.outcome),
        ("4", Outcome::Pass)
    );
    assert!(t2b.response.error.is_none());
    assert_eq!(s.failed_keys("r").unwrap(), vec![key("t1", "b")]);
    let after = &s.list_runs().unwrap()[0];
    assert_eq!(
        (after.completed, after.total, after.passed, after.errors),
        (4, 4, 2, 1)
    );
}

#[test]
fn a_retry_after_a_rescore_leaves_one_score_row() {
    let mut s = Store::open_in_memory().unwrap();
    s.insert_run(&meta("r", "2026-01-01T00:00:00Z")).unwrap();
    s.write(&[
        sample_write(1, errored("t1", "a")),
        sample_write(1, sample("t1", "b", "4", Outcome::Pass)),
    ])
    .unwrap();
    let rescored = vec![
        (key("t1", "a"), vec![], Outcome::Error),
        (
            key("t1", "b"),
            vec![Score::pass("equals", "equals")],
            Outcome::Pass,
        ),
    ];
    assert_eq!(s.add_scoring("r", &rescored, &[]).unwrap(), 2);
    // The retry is scored under the run's current scoring. The scoring-1 verdict judged the
    // old (errored) response, which is gone, so it goes with it.
    s.write(&[sample_write(2, sample("t1", "a", "4", Outcome::Pass))])
        .unwrap();
    let k = key("t1", "a");
    assert_eq!(rows(&s, "samples", &k), vec![0]);
    assert_eq!(rows(&s, "scores", &k), vec![2]);
    // The untouched sample keeps both scorings.
    assert_eq!(rows(&s, "scores", &key("t1", "b")), vec![1, 2]);
    let run = &s.list_runs().unwrap()[0];
    assert_eq!((run.completed, run.passed, run.errors), (2, 2, 0));
    assert!(s.failed_keys("r").unwrap().is_empty());
}
