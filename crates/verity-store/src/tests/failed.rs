//! `failed_task_ids`: the tasks `verity run --failed-in RUN` runs again.

use verity_model::{GroupRecord, Outcome, Score, ScoreStatus};

use crate::{Store, StoreError, Write};

use super::{meta, sample};

fn put(run: &str, record: verity_model::SampleRecord) -> Write {
    Write::Sample {
        run_id: run.into(),
        scoring: 1,
        record,
    }
}

fn group(scope: &str, group: &str, tasks: &[&str], score: Score) -> Write {
    Write::Group {
        run_id: "r".into(),
        scoring: 1,
        record: GroupRecord {
            variant: "a".into(),
            scope: scope.into(),
            group: group.into(),
            task_ids: tasks.iter().map(|t| t.to_string()).collect(),
            scores: vec![score],
        },
    }
}

#[test]
fn failed_tasks_are_failed_or_errored_samples_and_failed_groups() {
    let mut s = Store::open_in_memory().unwrap();
    s.insert_run(&meta("r", "2026-01-01T00:00:00Z")).unwrap();
    let mut second_epoch = sample("mixed", "a", "x", Outcome::Fail);
    second_epoch.key.epoch = 1;
    s.write(&[
        put("r", sample("ok", "a", "4", Outcome::Pass)),
        put("r", sample("ok", "b", "4", Outcome::Pass)),
        put("r", sample("wrong", "b", "5", Outcome::Fail)),
        put("r", sample("broken", "a", "", Outcome::Error)),
        put("r", sample("mixed", "a", "4", Outcome::Pass)),
        put("r", second_epoch),
        put("r", sample("drifts", "a", "4", Outcome::Pass)),
        put("r", sample("para-1", "a", "4", Outcome::Pass)),
        put("r", sample("para-2", "a", "4", Outcome::Pass)),
        put("r", sample("stable", "a", "4", Outcome::Pass)),
        // All epochs of `drifts` differ; `stable`'s agree.
        group(
            "epochs",
            "drifts",
            &["drifts"],
            Score::fail("identical", "identical"),
        ),
        group(
            "epochs",
            "stable",
            &["stable"],
            Score::pass("identical", "identical"),
        ),
        // A paraphrase group that errored: both its members run again.
        group(
            "group:paraphrase_of",
            "p",
            &["para-1", "para-2"],
            Score::new("consistent", "consistent", ScoreStatus::Error),
        ),
    ])
    .unwrap();
    let failed: Vec<String> = s.failed_task_ids("r").unwrap().into_iter().collect();
    assert_eq!(
        failed,
        ["broken", "drifts", "mixed", "para-1", "para-2", "wrong"]
    );

    // The current scoring decides: after a rescore that passes everything, nothing failed.
    let keys: Vec<_> = s
        .load_samples("r", None)
        .unwrap()
        .into_iter()
        .map(|r| (r.key, vec![Score::pass("equals", "equals")], Outcome::Pass))
        .collect();
    assert_eq!(s.add_scoring("r", &keys, &[]).unwrap(), 2);
    assert!(s.failed_task_ids("r").unwrap().is_empty());

    assert!(matches!(
        s.failed_task_ids("nope"),
        Err(StoreError::NoSuchRun(_))
    ));
}
