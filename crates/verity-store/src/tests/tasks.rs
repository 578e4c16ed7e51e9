//! The `tasks` table: runs keep their tasks there, streaming runs stage them, old databases
//! move theirs over.

use super::*;

fn task_at(id: &str, line: u32) -> Task {
    let mut t = Task::prompt(id, format!("prompt of {id}"));
    t.source = SourceLoc {
        file: "data.jsonl".into(),
        line,
        column: 1,
    };
    t
}

#[test]
fn a_run_row_holds_no_tasks_and_load_run_brings_them_back() {
    let mut s = Store::open_in_memory().unwrap();
    let mut m = meta("r1", "2026-01-01T00:00:00Z");
    m.suite.tasks = (0..5).map(|i| task_at(&format!("t{i}"), i + 1)).collect();
    s.insert_run(&m).unwrap();
    let row: String = s
        .conn
        .query_row("SELECT meta_json FROM runs WHERE id = 'r1'", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert!(!row.contains("prompt of"), "{row}");
    assert_eq!(s.load_run("r1").unwrap().suite.tasks, m.suite.tasks);
    assert!(s.load_run_meta("r1").unwrap().suite.tasks.is_empty());
    assert_eq!(s.task_count("r1").unwrap(), 5);

    // Paging returns every task once, in order.
    let mut seen = Vec::new();
    let mut after = None;
    loop {
        let page = s.task_page("r1", after, 2).unwrap();
        let Some((last, _)) = page.last() else { break };
        after = Some(*last);
        seen.extend(page.into_iter().map(|(_, t)| t));
    }
    assert_eq!(seen, m.suite.tasks);

    // A metadata update does not touch the tasks.
    let mut m2 = s.load_run_meta("r1").unwrap();
    m2.status = RunStatus::Completed;
    s.update_run_meta(&m2).unwrap();
    assert_eq!(s.load_run("r1").unwrap().suite.tasks, m.suite.tasks);
}

#[test]
fn staged_tasks_refuse_duplicates_and_vanish_unless_committed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v.db");
    let mut s = Store::open(&path).unwrap();
    {
        let mut stage = s.stage_tasks("r1").unwrap();
        stage.put(&task_at("a", 1), true).unwrap();
        // Not kept, but its id still counts.
        stage.put(&task_at("b", 2), false).unwrap();
        match stage.put(&task_at("b", 7), true) {
            Err(StageError::Duplicate { id, first }) => {
                assert_eq!(id, "b");
                assert_eq!(first.line, 2);
            }
            other => panic!("{other:?}"),
        }
        match stage.put(&task_at("a", 7), false) {
            Err(StageError::Duplicate { id, first }) => {
                assert_eq!(id, "a");
                assert_eq!(first.line, 1);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(stage.len(), 1);
        // Dropped without commit: rolled back.
    }
    assert_eq!(s.task_count("r1").unwrap(), 0);

    let mut stage = s.stage_tasks("r1").unwrap();
    stage.put(&task_at("a", 1), true).unwrap();
    stage.put(&task_at("b", 2), true).unwrap();
    let mut m1 = meta("r1", "2026-01-01T00:00:00Z");
    m1.suite.tasks.clear();
    assert_eq!(stage.commit_run(&m1).unwrap(), 2);
    // Another connection sees the run and its tasks once committed, together.
    let other = Store::open(&path).unwrap();
    assert_eq!(other.task_count("r1").unwrap(), 2);
    assert_eq!(other.resolve_run("latest").unwrap(), "r1");

    // A run that never started (no samples, no observations) can be discarded whole.
    assert_eq!(s.discard_unstarted_run("r1").unwrap(), 2);
    assert!(matches!(
        s.load_run_meta("r1"),
        Err(StoreError::NoSuchRun(_))
    ));
    assert_eq!(s.task_count("r1").unwrap(), 0);
    // A second stage on the same connection starts with no ids seen; a run with a result
    // is never discarded.
    let mut stage = s.stage_tasks("r2").unwrap();
    stage.put(&task_at("a", 1), true).unwrap();
    let mut m = meta("r2", "2026-01-01T00:00:00Z");
    m.suite.tasks.clear();
    stage.commit_run(&m).unwrap();
    s.write(&[Write::Sample {
        run_id: "r2".into(),
        scoring: 1,
        record: sample("a", "v", "x", Outcome::Pass),
    }])
    .unwrap();
    assert_eq!(s.discard_unstarted_run("r2").unwrap(), 0);
    assert_eq!(s.load_run("r2").unwrap().suite.tasks, vec![task_at("a", 1)]);
}

#[test]
fn an_old_database_moves_its_tasks_out_of_the_run_row() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v2.db");
    let mut m = meta("old", "2026-01-01T00:00:00Z");
    m.suite.tasks = vec![task_at("x", 3), task_at("y", 4)];
    {
        // A run row as schema 2 wrote it: the whole suite, tasks included.
        let c = rusqlite::Connection::open(&path).unwrap();
        c.execute_batch(MIGRATIONS[0]).unwrap();
        c.execute_batch(MIGRATIONS[1]).unwrap();
        c.execute_batch("PRAGMA user_version = 2").unwrap();
        c.execute(
            "INSERT INTO runs (id, suite_name, suite_path, suite_hash, status, started_at,
                               verity_version, scoring, total_samples, meta_json)
             VALUES ('old', 'x', 'suites/x', 'h', 'completed', '2026-01-01T00:00:00Z',
                     '0.1.0', 1, 2, ?1)",
            [serde_json::to_string(&m).unwrap()],
        )
        .unwrap();
    }
    let s = Store::open(&path).unwrap();
    assert_eq!(s.load_run("old").unwrap().suite.tasks, m.suite.tasks);
    let row: String = s
        .conn
        .query_row("SELECT meta_json FROM runs", [], |r| r.get(0))
        .unwrap();
    assert!(!row.contains("prompt of"), "{row}");
}

/// "latest" is the run that started last in time, whatever the fractional digits of the
/// stored times: `…:01.5Z` (500 ms) is before `…:01.512Z`, and `…:01Z` before both.
#[test]
fn latest_compares_times_not_their_text() {
    let mut s = Store::open_in_memory().unwrap();
    for (id, at) in [
        ("20260101-000001-ffff", "2026-01-01T00:00:01Z"),
        ("20260101-000001-0000", "2026-01-01T00:00:01.512Z"),
        ("20260101-000001-aaaa", "2026-01-01T00:00:01.5Z"),
    ] {
        s.insert_run(&meta(id, at)).unwrap();
    }
    assert_eq!(s.resolve_run("latest").unwrap(), "20260101-000001-0000");
    let order: Vec<String> = s.list_runs().unwrap().into_iter().map(|r| r.id).collect();
    assert_eq!(
        order,
        [
            "20260101-000001-0000",
            "20260101-000001-aaaa",
            "20260101-000001-ffff"
        ]
    );
}
