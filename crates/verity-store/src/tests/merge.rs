use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use verity_model::{
    GroupRecord, Outcome, Response, RunMeta, RunOptions, RunStatus, SampleKey, SampleRecord, Score,
    Shard, Task,
};

use crate::{Observation, Store, StoreError, Write};

const TASKS: u32 = 7;
const COUNT: u32 = 3;
const EPOCHS: u32 = 2;
const VARIANTS: [&str; 2] = ["a", "b"];

struct ShardSpec {
    id: &'static str,
    index: u32,
    count: u32,
    hash: &'static str,
    started_at: &'static str,
    finished_at: Option<&'static str>,
    status: RunStatus,
}

fn spec(id: &'static str, index: u32) -> ShardSpec {
    ShardSpec {
        id,
        index,
        count: COUNT,
        hash: "suite-hash",
        started_at: "2026-01-01T00:00:02Z",
        finished_at: Some("2026-01-01T00:30:00Z"),
        status: RunStatus::Completed,
    }
}

fn shard_tasks(index: u32, count: u32) -> Vec<Task> {
    (0..TASKS)
        .filter(|i| i % count == index)
        .map(|i| Task::prompt(format!("t{i}"), format!("prompt {i}")))
        .collect()
}

fn shard_meta(sp: &ShardSpec) -> RunMeta {
    let mut m = super::meta(sp.id, sp.started_at);
    m.suite.tasks = shard_tasks(sp.index, sp.count);
    m.suite.content_hash = sp.hash.into();
    m.suite.epochs = EPOCHS;
    m.options = RunOptions {
        categories: Vec::new(),
        epochs: EPOCHS,
        concurrency: 4,
        variants: VARIANTS.iter().map(|v| v.to_string()).collect(),
        shard: Some(Shard {
            index: sp.index,
            count: sp.count,
        }),
        ..RunOptions::default()
    };
    m.models = BTreeMap::from([
        ("a".into(), "mock/m1".into()),
        ("b".into(), "mock/m2".into()),
    ]);
    m.prompt_hashes = BTreeMap::from([("a".into(), "-".into()), ("b".into(), "-".into())]);
    m.total_samples = m.suite.tasks.len() as u64 * VARIANTS.len() as u64 * u64::from(EPOCHS);
    m.status = sp.status;
    m.finished_at = sp.finished_at.map(str::to_owned);
    m
}

/// Runs one shard into `s`: every sample (variant `a` passes, `b` fails), one observation per
/// sample, an `epochs` group per task and variant, and a `group:topic` group `x` over t0 and t1,
/// which straddles shards 1/3 and 2/3.
fn run_shard(s: &mut Store, sp: &ShardSpec) {
    let m = shard_meta(sp);
    s.insert_run(&m).unwrap();
    let mut writes = Vec::new();
    for t in &m.suite.tasks {
        for v in VARIANTS {
            for epoch in 0..EPOCHS {
                let key = SampleKey {
                    task_id: t.id.clone(),
                    variant: v.into(),
                    epoch,
                };
                writes.push(Write::Observation(Observation {
                    run_id: sp.id.into(),
                    key: key.clone(),
                    attempt: 1,
                    started_at: sp.started_at.into(),
                    provider: "mock".into(),
                    model: "m".into(),
                    endpoint: "mock://".into(),
                    prompt_hash: "-".into(),
                    input_hash: format!("{}-{v}-{epoch}", t.id),
                    raw_response: Some("{}".into()),
                    output_text: Some(t.id.clone()),
                    input_tokens: 3,
                    output_tokens: 1,
                    latency_ms: 2,
                    cache_hit: false,
                    error_kind: None,
                    error: None,
                }));
                let pass = v == "a";
                writes.push(Write::Sample {
                    run_id: sp.id.into(),
                    scoring: 1,
                    record: SampleRecord {
                        key,
                        response: Response {
                            text: format!("{} answer", t.id),
                            attempts: 1,
                            ..Response::default()
                        },
                        scores: vec![if pass {
                            Score::pass("equals", "equals")
                        } else {
                            Score::fail("equals", "equals")
                        }],
                        outcome: if pass { Outcome::Pass } else { Outcome::Fail },
                        completed_at: "2026-01-01T00:10:00Z".into(),
                    },
                });
            }
            writes.push(Write::Group {
                run_id: sp.id.into(),
                scoring: 1,
                record: GroupRecord {
                    variant: v.into(),
                    scope: "epochs".into(),
                    group: t.id.clone(),
                    task_ids: vec![t.id.clone()],
                    scores: vec![Score::pass("identical", "identical")],
                },
            });
        }
    }
    let topic: Vec<String> = m
        .suite
        .tasks
        .iter()
        .map(|t| t.id.clone())
        .filter(|id| id == "t0" || id == "t1")
        .collect();
    if !topic.is_empty() {
        writes.push(Write::Group {
            run_id: sp.id.into(),
            scoring: 1,
            record: GroupRecord {
                variant: "a".into(),
                scope: "group:topic".into(),
                group: "x".into(),
                task_ids: topic,
                scores: vec![Score::pass("consistent", "consistent").explain("all agree")],
            },
        });
    }
    s.write(&writes).unwrap();
}

fn shard_db(dir: &Path, name: &str, sp: &ShardSpec) -> PathBuf {
    let path = dir.join(name);
    let mut s = Store::open(&path).unwrap();
    run_shard(&mut s, sp);
    path
}

fn three_shards(dir: &Path) -> Vec<PathBuf> {
    let mut s0 = spec("s0", 0);
    s0.started_at = "2026-01-01T00:00:00.500Z";
    s0.finished_at = Some("2026-01-01T01:00:00Z");
    let mut s1 = spec("s1", 1);
    // The earliest start and the latest finish, though neither sorts so as a string.
    s1.started_at = "2026-01-01T00:00:00Z";
    s1.finished_at = Some("2026-01-01T01:00:00.250Z");
    let s2 = spec("s2", 2);
    vec![
        shard_db(dir, "s0.db", &s0),
        shard_db(dir, "s1.db", &s1),
        shard_db(dir, "s2.db", &s2),
    ]
}

fn task_order(m: &RunMeta) -> Vec<String> {
    m.suite.tasks.iter().map(|t| t.id.clone()).collect()
}

fn all_tasks() -> Vec<String> {
    (0..TASKS).map(|i| format!("t{i}")).collect()
}

fn merge_error(r: crate::Result<crate::MergeSummary>) -> String {
    match r {
        Err(StoreError::Merge(m)) => m,
        other => panic!("expected a merge error, got {other:?}"),
    }
}

/// Nothing at all in the target: no run, no row of any table.
fn assert_untouched(s: &Store) {
    assert!(s.list_runs().unwrap().is_empty());
    for table in ["runs", "samples", "scores", "group_scores", "observations"] {
        let n: i64 = s
            .conn
            .query_row(&format!("SELECT COUNT(*) FROM {table}"), [], |r| r.get(0))
            .unwrap();
        assert_eq!(n, 0, "{table}");
    }
}

#[test]
fn three_shard_databases_merge_into_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let sources = three_shards(dir.path());
    // Shard 3/3 was rescored: its current scoring (2) fails everything.
    {
        let mut s2 = Store::open(&sources[2]).unwrap();
        let rescored: Vec<_> = s2
            .load_samples("s2", None)
            .unwrap()
            .into_iter()
            .map(|r| (r.key, vec![Score::fail("equals", "equals")], Outcome::Fail))
            .collect();
        let groups = s2.load_groups("s2", None).unwrap();
        assert_eq!(s2.add_scoring("s2", &rescored, &groups).unwrap(), 2);
    }

    let mut target = Store::open(&dir.path().join("merged.db")).unwrap();
    let summary = target.merge_shards(&sources, "merged").unwrap();
    let samples = u64::from(TASKS * EPOCHS) * VARIANTS.len() as u64;
    assert_eq!(
        summary,
        crate::MergeSummary {
            run_id: "merged".into(),
            shards: COUNT,
            samples,
            observations: samples,
            split_groups: 1,
        }
    );

    let m = target.load_run("merged").unwrap();
    assert_eq!(task_order(&m), all_tasks());
    assert_eq!(m.options.shard, None);
    assert_eq!(m.options.variants, ["a", "b"]);
    assert_eq!(m.suite.content_hash, "suite-hash");
    assert_eq!(m.total_samples, samples);
    assert_eq!(m.started_at, "2026-01-01T00:00:00Z");
    assert_eq!(m.finished_at.as_deref(), Some("2026-01-01T01:00:00.250Z"));
    assert_eq!(m.status, RunStatus::Completed);
    assert_eq!(m.scoring, 1);

    let loaded = target.load_samples("merged", None).unwrap();
    assert_eq!(loaded.len() as u64, samples);
    for r in &loaded {
        let in_rescored_shard = matches!(r.key.task_id.as_str(), "t2" | "t5");
        let expect = if r.key.variant == "a" && !in_rescored_shard {
            Outcome::Pass
        } else {
            Outcome::Fail
        };
        assert_eq!(r.outcome, expect, "{}", r.key);
        assert_eq!(r.scores.len(), 1);
        assert_eq!(r.response.text, format!("{} answer", r.key.task_id));
    }
    let run = target
        .list_runs()
        .unwrap()
        .into_iter()
        .find(|r| r.id == "merged")
        .unwrap();
    // Variant a passes on t0, t1, t3, t4, t6, for both epochs.
    assert_eq!(
        (run.completed, run.total, run.passed, run.errors),
        (samples, samples, 10, 0)
    );
    assert_eq!(target.observations("merged").unwrap().len() as u64, samples);

    let groups = target.load_groups("merged", None).unwrap();
    assert_eq!(groups.len(), 7 * 2 + 1);
    let x = groups.iter().find(|g| g.scope == "group:topic").unwrap();
    assert_eq!(x.task_ids, ["t0", "t1"]);
    assert_eq!(x.scores.len(), 2);
    for (score, shard) in x.scores.iter().zip(["1/3", "2/3"]) {
        let e = score.explanation.as_deref().unwrap();
        assert!(e.starts_with("all agree [partial"), "{e}");
        assert!(e.contains(&format!("shard {shard} only")), "{e}");
    }

    // The sources are left as they were.
    for (path, id) in sources.iter().zip(["s0", "s1", "s2"]) {
        let s = Store::open(path).unwrap();
        let runs = s.list_runs().unwrap();
        assert_eq!(runs.len(), 1);
        assert_eq!(runs[0].id, id);
    }
}

#[test]
fn an_unfinished_shard_makes_the_merge_interrupted() {
    let dir = tempfile::tempdir().unwrap();
    let mut s1 = spec("s1", 1);
    s1.status = RunStatus::Interrupted;
    s1.finished_at = None;
    let mut s2 = spec("s2", 2);
    s2.status = RunStatus::Failed;
    s2.finished_at = Some("2026-01-02T00:00:00Z");
    let sources = vec![
        shard_db(dir.path(), "a.db", &spec("s0", 0)),
        shard_db(dir.path(), "b.db", &s1),
        shard_db(dir.path(), "c.db", &s2),
    ];
    let mut target = Store::open(&dir.path().join("m.db")).unwrap();
    target.merge_shards(&sources, "m").unwrap();
    let m = target.load_run("m").unwrap();
    assert_eq!(m.status, RunStatus::Interrupted);
    assert_eq!(m.finished_at, None);

    // Finished but not all completed: still interrupted, finished at the latest finish.
    let dir = tempfile::tempdir().unwrap();
    let sources = vec![
        shard_db(dir.path(), "a.db", &spec("s0", 0)),
        shard_db(dir.path(), "b.db", &spec("s1", 1)),
        shard_db(dir.path(), "c.db", &s2),
    ];
    let mut target = Store::open(&dir.path().join("m.db")).unwrap();
    target.merge_shards(&sources, "m").unwrap();
    let m = target.load_run("m").unwrap();
    assert_eq!(m.status, RunStatus::Interrupted);
    assert_eq!(m.finished_at.as_deref(), Some("2026-01-02T00:00:00Z"));
}

#[test]
fn missing_mismatched_and_duplicate_shards_are_errors_that_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let sources = three_shards(d);
    let mut target = Store::open(&d.join("merged.db")).unwrap();

    let e = merge_error(target.merge_shards(&sources[..2], "m"));
    assert!(e.contains("missing shard 3/3"), "{e}");
    assert_untouched(&target);

    let e = merge_error(target.merge_shards(&sources[1..], "m"));
    assert!(e.contains("missing shard 1/3"), "{e}");

    let mut other = spec("s2x", 2);
    other.hash = "another-hash";
    let mismatched = shard_db(d, "mismatched.db", &other);
    let e = merge_error(target.merge_shards(
        &[sources[0].clone(), sources[1].clone(), mismatched.clone()],
        "m",
    ));
    assert!(e.contains("suite hash"), "{e}");
    assert!(e.contains("another-hash") && e.contains("s2x"), "{e}");
    assert_untouched(&target);

    let dup = shard_db(d, "dup.db", &spec("s1-again", 1));
    let mut with_dup = sources.clone();
    with_dup.push(dup);
    let e = merge_error(target.merge_shards(&with_dup, "m"));
    assert!(e.contains("shard 2/3 is claimed by two runs"), "{e}");
    assert!(e.contains("`s1`") && e.contains("`s1-again`"), "{e}");
    assert_untouched(&target);

    let mut four = spec("s3of4", 3);
    four.count = 4;
    let counts = shard_db(d, "four.db", &four);
    let mut with_four = sources.clone();
    with_four.push(counts);
    let e = merge_error(target.merge_shards(&with_four, "m"));
    assert!(
        e.contains("shard counts differ") && e.contains("4/4"),
        "{e}"
    );

    let mut variants = spec("s2v", 2);
    variants.hash = "suite-hash";
    let vpath = d.join("variants.db");
    {
        let mut s = Store::open(&vpath).unwrap();
        let mut m = shard_meta(&variants);
        m.models.insert("b".into(), "mock/other".into());
        s.insert_run(&m).unwrap();
    }
    let e = merge_error(target.merge_shards(&[sources[0].clone(), sources[1].clone(), vpath], "m"));
    assert!(e.contains("models"), "{e}");

    // Shards whose task counts cannot come from one suite (shard 3/3 larger than 1/3).
    let lopsided = d.join("lopsided.db");
    {
        let mut s = Store::open(&lopsided).unwrap();
        let mut m = shard_meta(&spec("s2l", 2));
        m.suite
            .tasks
            .extend(
                shard_tasks(0, 1)
                    .into_iter()
                    .skip(TASKS as usize - 2)
                    .map(|mut t| {
                        t.id = format!("{}-extra", t.id);
                        t
                    }),
            );
        s.insert_run(&m).unwrap();
    }
    let e =
        merge_error(target.merge_shards(&[sources[0].clone(), sources[1].clone(), lopsided], "m"));
    assert!(e.contains("cannot come from one suite split 3 ways"), "{e}");

    let plain = d.join("plain.db");
    Store::open(&plain)
        .unwrap()
        .insert_run(&super::meta("unsharded", "2026-01-01T00:00:00Z"))
        .unwrap();
    let e = merge_error(target.merge_shards(std::slice::from_ref(&plain), "m"));
    assert!(e.contains("no run started with --shard"), "{e}");

    let junk = d.join("junk.db");
    std::fs::write(
        &junk,
        b"not a database, only some bytes that go on and on and on",
    )
    .unwrap();
    assert!(target.merge_shards(&[junk], "m").is_err());
    assert!(
        target
            .merge_shards(&[d.join("does-not-exist.db")], "m")
            .is_err()
    );
    assert!(target.merge_shards(&[], "m").is_err());
    assert_untouched(&target);
}

#[test]
fn a_failure_mid_copy_rolls_everything_back() {
    let dir = tempfile::tempdir().unwrap();
    let sources = three_shards(dir.path());
    // The straddling group of shard 2/3 is corrupt: the merge fails after the run, the
    // samples of shard 1/3 and part of shard 2/3 were written inside the transaction.
    {
        let s = Store::open(&sources[1]).unwrap();
        s.conn
            .execute(
                "UPDATE group_scores SET scores_json = 'garbage' WHERE scope = 'group:topic'",
                [],
            )
            .unwrap();
    }
    let mut target = Store::open(&dir.path().join("merged.db")).unwrap();
    assert!(matches!(
        target.merge_shards(&sources, "m"),
        Err(StoreError::Corrupt { .. })
    ));
    assert_untouched(&target);
}

#[test]
fn shards_in_the_same_database_merge_there() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("verity.db");
    let mut s = Store::open(&path).unwrap();
    for i in 0..COUNT {
        let id = ["s0", "s1", "s2"][i as usize];
        run_shard(&mut s, &spec(id, i));
    }
    // The same file named twice is read once.
    let summary = s
        .merge_shards(
            &[path.clone(), dir.path().join(".").join("verity.db")],
            "merged",
        )
        .unwrap();
    assert_eq!(summary.samples, u64::from(TASKS * EPOCHS) * 2);
    let m = s.load_run("merged").unwrap();
    assert_eq!(task_order(&m), all_tasks());
    assert_eq!(s.list_runs().unwrap().len(), 4);
    assert_eq!(
        s.load_samples("merged", None).unwrap().len() as u64,
        summary.samples
    );
    // The merged run is not a shard, so the shards merge again under another id…
    s.merge_shards(std::slice::from_ref(&path), "again")
        .unwrap();
    // …but not under an id that exists.
    let e = merge_error(s.merge_shards(std::slice::from_ref(&path), "again"));
    assert!(e.contains("`again` already exists"), "{e}");
    let e = merge_error(s.merge_shards(std::slice::from_ref(&path), "s0"));
    assert!(e.contains("`s0` already exists"), "{e}");
    assert_eq!(s.list_runs().unwrap().len(), 5);
    assert!(s.integrity_check().unwrap());
}
