//! Preparing a run: from a suite and what the user asked to a [`Plan`] whose tasks are in the
//! store. The one way a new run begins, whether the suite streams in from a directory
//! ([`prepare`]) or is held in memory ([`prepare_suite`]).
//!
//! Everything that can be wrong with the request (an unknown variant, `--epochs 0`, a quick
//! subset the suite lacks, a bad glob or shard) is found against the configured suite before
//! its first task is read, and nothing is stored then. The selected tasks are staged as they
//! stream in and commit in one transaction with the run's row, so a run's tasks never exist
//! without their run and a suite that fails to load leaves nothing behind.

use std::path::Path;

use verity_model::{ErrorKind, ProviderSpec, ScorerSpec, SourceLoc, Suite, Task, Variant};
use verity_store::{StageError, Store, StoreError, TaskStage};
use verity_suite::{Diagnostic, Diagnostics, SinkError, TaskSink};

use crate::plan::{FailedIn, PlanOptions, TaskFilter, narrow, new_run_id};
use crate::{Plan, PlanError, staged_run_meta};

/// Command-line overrides of a suite's providers and scorers.
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    /// Every variant's provider kind. `replay` keeps each variant's provider (the cache key
    /// names it); the caller then answers from the cache only. A different kind drops the
    /// suite's endpoint settings, which do not carry over.
    pub provider: Option<String>,
    pub model: Option<String>,
    pub base_url: Option<String>,
    pub api_key_env: Option<String>,
    /// The `command` provider's program.
    pub command: Option<String>,
    /// Scorer kinds added to the suite's, with default options.
    pub scorers: Vec<String>,
}

impl Overrides {
    /// Applies the overrides to a configured suite. A suite without variants gets one,
    /// `default`; a variant that names no provider runs on the embedded model (`local`).
    pub fn apply(&self, suite: &mut Suite) {
        if suite.variants.is_empty() {
            suite.variants.push(Variant {
                name: "default".into(),
                provider: ProviderSpec::default(),
                params: Default::default(),
                prompt: None,
                system: None,
                grounding: None,
            });
        }
        for v in &mut suite.variants {
            if let Some(p) = &self.provider
                && *p != v.provider.kind
                && p != "replay"
            {
                v.provider = ProviderSpec {
                    kind: p.clone(),
                    ..ProviderSpec::default()
                };
            }
            if let Some(m) = &self.model {
                v.provider.model = Some(m.clone());
            }
            if let Some(u) = &self.base_url {
                v.provider.base_url = Some(u.clone());
            }
            if let Some(k) = &self.api_key_env {
                v.provider.api_key_env = Some(k.clone());
            }
            if let Some(c) = &self.command {
                v.provider
                    .options
                    .insert("command".into(), serde_json::Value::String(c.clone()));
            }
            if v.provider.kind.is_empty() {
                v.provider.kind = "local".into();
            }
        }
        for kind in &self.scorers {
            suite.scorers.push(ScorerSpec {
                kind: kind.clone(),
                name: None,
                options: Default::default(),
                source: SourceLoc {
                    file: "--scorer".into(),
                    line: 0,
                    column: 0,
                },
            });
        }
    }
}

/// What to run of a suite: which part of it, and what the command line overrides.
#[derive(Clone, Debug, Default)]
pub struct RunRequest {
    pub options: PlanOptions,
    pub overrides: Overrides,
}

/// Why a run could not be prepared. Nothing is stored in any case.
#[derive(Debug, thiserror::Error)]
pub enum PrepareError {
    /// The suite does not load; every problem is a diagnostic at file:line:column.
    #[error("the suite does not load:\n{}", .0.render(false))]
    Suite(Diagnostics),
    #[error(transparent)]
    Plan(#[from] PlanError),
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl PrepareError {
    pub fn kind(&self) -> ErrorKind {
        match self {
            PrepareError::Suite(_) => ErrorKind::Suite,
            PrepareError::Plan(e) => e.kind(),
            PrepareError::Store(e) => e.kind(),
        }
    }
}

/// A prepared run, and the suite's warnings for the caller to show.
#[derive(Debug)]
pub struct Prepared {
    pub plan: Plan,
    pub warnings: Vec<Diagnostic>,
}

/// Prepares a new run of the suite at `path`: loads it, streaming its tasks into `store` as
/// they are read and checked (only those the run selects are kept, so a dataset of any size
/// runs in the same memory), and commits them with the run's row.
pub fn prepare(path: &Path, req: &RunRequest, store: &mut Store) -> Result<Prepared, PrepareError> {
    let run_id = new_run_id();
    let mut sink = Sink {
        stage: store.stage_tasks(&run_id)?,
        req,
        selection: None,
        refused: None,
    };
    let loaded = verity_suite::load_streaming(path, &mut sink);
    // A request the suite refused is the request's error, not the suite's (the loader only
    // saw a message); dropping the stage rolls back whatever was staged.
    if let Some(e) = sink.refused.take() {
        return Err(e.into());
    }
    let loaded = loaded.map_err(PrepareError::Suite)?;
    let Some((options, filter)) = sink.selection.take() else {
        return Err(PlanError::NoVariant {
            suite: loaded.suite.name,
        }
        .into());
    };
    filter.check_categories()?;
    let mut warnings = loaded.warnings;
    warnings.extend(failed_in_warnings(
        &filter,
        req.options.failed_in.as_ref(),
        &loaded.suite,
    )?);
    let plan = Plan {
        run_id,
        suite_path: path.display().to_string(),
        suite: loaded.suite,
        options,
        task_count: 0,
    };
    let plan = commit(sink.stage, plan)?;
    Ok(Prepared { plan, warnings })
}

/// What `--failed-in` makes of a loaded suite: an error when the suite has none of the run's
/// failed tasks; warnings when it lacks some of them, or when its content differs from the
/// run's (the tasks may have changed since they failed).
fn failed_in_warnings(
    filter: &TaskFilter,
    failed_in: Option<&FailedIn>,
    suite: &Suite,
) -> Result<Vec<Diagnostic>, PlanError> {
    let mut out = Vec::new();
    if let Some(missing) = filter.check_failed_in()? {
        out.push(Diagnostic::warning("failed-in", missing));
    }
    if let Some(f) = failed_in
        && f.suite_hash != suite.content_hash
    {
        out.push(
            Diagnostic::warning(
                "failed-in",
                format!(
                    "run {} was of a different version of this suite (content hash {} then, {} now): its failed tasks may have changed since",
                    f.run_id,
                    short(&f.suite_hash),
                    short(&suite.content_hash)
                ),
            )
            .with_help("the tasks are selected by id; compare the suite's files with that run's"),
        );
    }
    Ok(out)
}

/// The first 12 characters of a hash, as run listings show it.
fn short(hash: &str) -> &str {
    hash.get(..12).unwrap_or(hash)
}

/// [`prepare`] for a suite held in memory (a library caller's, a test's): the same checks and
/// overrides, the selected tasks staged and committed with the run's row.
pub fn prepare_suite(
    mut suite: Suite,
    suite_path: &str,
    req: &RunRequest,
    store: &mut Store,
) -> Result<Plan, PrepareError> {
    req.overrides.apply(&mut suite);
    let (options, mut filter) = narrow(&mut suite, &req.options)?;
    let tasks = std::mem::take(&mut suite.tasks);
    let run_id = new_run_id();
    let mut stage = store.stage_tasks(&run_id)?;
    for task in &tasks {
        let keep = filter.accept(task);
        stage.put(task, keep).map_err(|e| match e {
            StageError::Store(e) => PrepareError::Store(e),
            StageError::Duplicate { first, .. } => {
                PrepareError::Suite(Diagnostics::new(vec![Diagnostic::error(
                    "duplicate-id",
                    format!("task id `{}` is already used at {first}", task.id),
                )]))
            }
        })?;
    }
    filter.check_categories()?;
    filter.check_failed_in()?;
    let plan = Plan {
        run_id,
        suite_path: suite_path.to_owned(),
        suite,
        options,
        task_count: 0,
    };
    commit(stage, plan)
}

/// Commits the staged tasks with the run's row; a selection that took no task is an error and
/// stores nothing.
fn commit(stage: TaskStage<'_>, mut plan: Plan) -> Result<Plan, PrepareError> {
    if stage.is_empty() {
        return Err(PlanError::NoTasks.into());
    }
    plan.task_count = stage.len();
    stage.commit_run(&staged_run_meta(&plan))?;
    Ok(plan)
}

/// Takes a streaming suite's tasks: applies the overrides and checks the request when the
/// configured suite arrives, then stages each task the selection keeps.
struct Sink<'r, 's> {
    stage: TaskStage<'s>,
    req: &'r RunRequest,
    selection: Option<(verity_model::RunOptions, TaskFilter)>,
    /// The request did not fit the suite: no task was read.
    refused: Option<PlanError>,
}

impl TaskSink for Sink<'_, '_> {
    fn start(&mut self, suite: &mut Suite) -> Result<(), SinkError> {
        self.req.overrides.apply(suite);
        match narrow(suite, &self.req.options) {
            Ok(selection) => {
                self.selection = Some(selection);
                Ok(())
            }
            Err(e) => {
                self.refused = Some(e.clone());
                Err(SinkError::Refused(Box::new(e)))
            }
        }
    }

    fn put(&mut self, task: &Task) -> Result<(), SinkError> {
        let keep = self.selection.as_mut().is_some_and(|(_, f)| f.accept(task));
        self.stage.put(task, keep).map_err(|e| match e {
            StageError::Duplicate { first, .. } => SinkError::Duplicate { first },
            StageError::Store(e) => SinkError::Failed(Box::new(e)),
        })
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use verity_model::{OutcomeRule, Shard};

    use super::*;

    fn suite(n: usize) -> Suite {
        Suite {
            quick: Vec::new(),
            perturb: None,
            run: Default::default(),
            name: "s".into(),
            description: None,
            tasks: (0..n).map(|i| Task::prompt(format!("t{i}"), "p")).collect(),
            variants: vec![Variant {
                name: "v".into(),
                provider: ProviderSpec {
                    kind: "mock".into(),
                    ..ProviderSpec::default()
                },
                params: Default::default(),
                prompt: None,
                system: None,
                grounding: None,
            }],
            scorers: vec![],
            outcome: OutcomeRule::default(),
            epochs: 2,
            coverage: BTreeMap::new(),
            servers: BTreeMap::new(),
            compare: vec![],
            gates: Vec::new(),
            report: Default::default(),
            content_hash: "h".into(),
        }
    }

    fn request(options: PlanOptions) -> RunRequest {
        RunRequest {
            options,
            ..RunRequest::default()
        }
    }

    /// Prepares `s` in a fresh in-memory store; returns the plan and its stored task ids.
    fn prepared(s: Suite, options: PlanOptions) -> Result<(Plan, Vec<String>), PrepareError> {
        let mut store = Store::open_in_memory().unwrap();
        let plan = prepare_suite(s, "x", &request(options), &mut store)?;
        let ids = store
            .load_tasks(&plan.run_id)
            .unwrap()
            .into_iter()
            .map(|t| t.id)
            .collect();
        Ok((plan, ids))
    }

    #[test]
    fn shards_partition_the_tasks() {
        let mut seen = Vec::new();
        for index in 0..3 {
            let opts = PlanOptions {
                shard: Some(Shard { index, count: 3 }),
                ..PlanOptions::default()
            };
            let (p, ids) = prepared(suite(10), opts).unwrap();
            assert_eq!(p.task_count, ids.len() as u64);
            assert_eq!(p.total(), ids.len() as u64 * 2);
            seen.extend(ids);
        }
        seen.sort();
        let mut all: Vec<String> = (0..10).map(|i| format!("t{i}")).collect();
        all.sort();
        assert_eq!(seen, all);
        let bad = PlanOptions {
            shard: Some(Shard { index: 3, count: 3 }),
            ..PlanOptions::default()
        };
        assert!(matches!(
            prepared(suite(10), bad),
            Err(PrepareError::Plan(PlanError::BadShard {
                index: 3,
                count: 3
            }))
        ));
    }

    #[test]
    fn quick_takes_the_declared_subset_in_suite_order() {
        let opts = PlanOptions {
            quick: true,
            ..PlanOptions::default()
        };
        let err = prepared(suite(5), opts.clone()).unwrap_err().to_string();
        assert!(err.contains("declares no quick subset"), "{err}");
        let mut s = suite(5);
        s.quick = vec!["t3".into(), "t1".into()];
        let (p, ids) = prepared(s, opts).unwrap();
        assert_eq!(ids, ["t1", "t3"]);
        assert!(p.options.quick);
    }

    fn failed(run: &str, ids: &[&str]) -> Option<FailedIn> {
        Some(FailedIn {
            run_id: run.into(),
            suite_hash: "h".into(),
            task_ids: ids.iter().map(|i| i.to_string()).collect(),
        })
    }

    /// `--failed-in` takes the failed tasks the suite has, in suite order, and narrows (and is
    /// narrowed by) every other selection.
    #[test]
    fn failed_in_selects_the_failed_tasks_and_intersects() {
        let only = |opts: PlanOptions| prepared(suite(10), opts);
        let (p, ids) = only(PlanOptions {
            failed_in: failed("r1", &["t7", "t1", "t3", "gone"]),
            ..PlanOptions::default()
        })
        .unwrap();
        assert_eq!(ids, ["t1", "t3", "t7"]);
        assert_eq!(p.options.failed_in.as_deref(), Some("r1"));
        // --limit counts the tasks past --failed-in; --filter and --quick intersect.
        let (_, ids) = only(PlanOptions {
            failed_in: failed("r1", &["t7", "t1", "t3"]),
            limit: Some(2),
            ..PlanOptions::default()
        })
        .unwrap();
        assert_eq!(ids, ["t1", "t3"]);
        let (_, ids) = only(PlanOptions {
            failed_in: failed("r1", &["t7", "t1", "t3"]),
            filter: Some("t[3-9]".into()),
            ..PlanOptions::default()
        })
        .unwrap();
        assert_eq!(ids, ["t3", "t7"]);
        let mut s = suite(10);
        s.quick = vec!["t3".into(), "t4".into()];
        let (_, ids) = prepared(
            s,
            PlanOptions {
                failed_in: failed("r1", &["t7", "t1", "t3"]),
                quick: true,
                ..PlanOptions::default()
            },
        )
        .unwrap();
        assert_eq!(ids, ["t3"]);
        // Failed tasks the other selections all drop: nothing to run.
        assert!(matches!(
            only(PlanOptions {
                failed_in: failed("r1", &["t7"]),
                filter: Some("t1*".into()),
                ..PlanOptions::default()
            }),
            Err(PrepareError::Plan(PlanError::NoTasks))
        ));
        // None of the failed tasks in the suite, or no failed task at all: usage errors.
        let e = only(PlanOptions {
            failed_in: failed("r1", &["x", "y"]),
            ..PlanOptions::default()
        })
        .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Usage);
        assert!(
            matches!(&e, PrepareError::Plan(PlanError::FailedNotInSuite { run, failed: 2 }) if run == "r1"),
            "{e:?}"
        );
        let e = only(PlanOptions {
            failed_in: failed("r1", &[]),
            ..PlanOptions::default()
        })
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "run r1 has no failed task: nothing to run again"
        );
    }

    /// `[run] quick_epochs` is the epochs of `--quick`, unless `--epochs` says otherwise.
    #[test]
    fn quick_runs_with_the_suites_quick_epochs() {
        let mut s = suite(4);
        s.quick = vec!["t1".into()];
        s.run.quick_epochs = Some(3);
        let epochs = |quick: bool, epochs: Option<u32>| {
            let (p, ids) = prepared(
                s.clone(),
                PlanOptions {
                    quick,
                    epochs,
                    ..PlanOptions::default()
                },
            )
            .unwrap();
            assert_eq!(p.suite.epochs, p.options.epochs);
            assert_eq!(p.total(), ids.len() as u64 * u64::from(p.suite.epochs));
            p.suite.epochs
        };
        assert_eq!(epochs(true, None), 3);
        assert_eq!(epochs(true, Some(1)), 1, "--epochs wins over quick_epochs");
        assert_eq!(
            epochs(false, None),
            2,
            "a full run keeps the suite's epochs"
        );
        assert_eq!(epochs(false, Some(5)), 5);
    }

    #[test]
    fn categories_select_tasks_and_a_missing_one_is_named() {
        let mut s = suite(6);
        for (i, t) in s.tasks.iter_mut().enumerate() {
            t.category = Some(["tls", "jwt", "negative"][i % 3].into());
        }
        let opts = PlanOptions {
            categories: vec!["tls".into(), "negative".into()],
            ..PlanOptions::default()
        };
        let (_, ids) = prepared(s.clone(), opts).unwrap();
        assert_eq!(ids, ["t0", "t2", "t3", "t5"]);
        let typo = PlanOptions {
            categories: vec!["tls".into(), "jtw".into()],
            ..PlanOptions::default()
        };
        let e = prepared(s, typo).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Usage);
        assert_eq!(
            e.to_string(),
            "--category `jtw`: no task of the suite has it (categories: jwt, negative, tls)"
        );
    }

    #[test]
    fn filter_limit_and_epochs() {
        let opts = PlanOptions {
            filter: Some("t1*".into()),
            limit: Some(1),
            epochs: Some(3),
            ..PlanOptions::default()
        };
        let (p, ids) = prepared(suite(12), opts).unwrap();
        assert_eq!(ids, ["t1"]);
        assert_eq!(p.total(), 3);
        let zero = PlanOptions {
            epochs: Some(0),
            ..PlanOptions::default()
        };
        assert!(matches!(
            prepared(suite(2), zero),
            Err(PrepareError::Plan(PlanError::ZeroEpochs))
        ));
        let unknown = PlanOptions {
            variants: vec!["nope".into()],
            ..PlanOptions::default()
        };
        let e = prepared(suite(2), unknown).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Usage);
        assert_eq!(
            e.to_string(),
            "no variant `nope` in suite `s` (it has: v)",
            "{e:?}"
        );
        let none = PlanOptions {
            filter: Some("zzz*".into()),
            ..PlanOptions::default()
        };
        assert!(matches!(
            prepared(suite(2), none),
            Err(PrepareError::Plan(PlanError::NoTasks))
        ));
    }

    #[test]
    fn overrides_replace_the_provider_or_keep_it_for_replay() {
        let mut s = suite(1);
        s.variants[0].provider.base_url = Some("http://127.0.0.1:9/v1".into());
        let mut replay = s.clone();
        Overrides {
            provider: Some("openai".into()),
            model: Some("m".into()),
            scorers: vec!["equals".into()],
            ..Overrides::default()
        }
        .apply(&mut s);
        let p = &s.variants[0].provider;
        assert_eq!((p.kind.as_str(), p.model.as_deref()), ("openai", Some("m")));
        assert_eq!(
            p.base_url, None,
            "another kind's endpoint does not carry over"
        );
        assert_eq!(s.scorers[0].kind, "equals");
        Overrides {
            provider: Some("replay".into()),
            ..Overrides::default()
        }
        .apply(&mut replay);
        assert_eq!(replay.variants[0].provider.kind, "mock");
        let mut bare = suite(1);
        bare.variants.clear();
        Overrides::default().apply(&mut bare);
        assert_eq!(bare.variants[0].name, "default");
        assert_eq!(bare.variants[0].provider.kind, "local");
    }

    /// A suite of two tasks (`t1`, `t2`, then `more` lines) on the mock provider, in `dir/s`.
    fn mock_suite(dir: &Path, more: &str) -> std::path::PathBuf {
        let suite_dir = dir.join("s");
        std::fs::create_dir(&suite_dir).unwrap();
        std::fs::write(
            suite_dir.join("suite.toml"),
            "name = \"s\"\n\n[[variants]]\nname = \"a\"\nprovider = \"mock\"\n",
        )
        .unwrap();
        std::fs::write(
            suite_dir.join("tasks.jsonl"),
            format!(
                "{{\"id\": \"t1\", \"input\": \"one\"}}\n{{\"id\": \"t2\", \"input\": \"two\"}}\n{more}"
            ),
        )
        .unwrap();
        suite_dir
    }

    /// From a suite streaming in, `--failed-in` warns about failed tasks the suite no longer
    /// has and about a suite whose content changed since the failing run.
    #[test]
    fn failed_in_warns_about_missing_tasks_and_a_changed_suite() {
        let dir = tempfile::tempdir().unwrap();
        let suite_dir = mock_suite(dir.path(), "");
        let mut store = Store::open(&dir.path().join("r.db")).unwrap();
        let hash = verity_suite::load(&suite_dir).unwrap().suite.content_hash;
        let mut opts = PlanOptions {
            failed_in: failed("r0", &["t2", "t9"]),
            ..PlanOptions::default()
        };
        opts.failed_in.as_mut().unwrap().suite_hash = hash.clone();
        let p = prepare(&suite_dir, &request(opts.clone()), &mut store).unwrap();
        assert_eq!(store.load_tasks(&p.plan.run_id).unwrap()[0].id, "t2");
        assert_eq!(p.plan.task_count, 1);
        let said: Vec<&str> = p.warnings.iter().map(|w| w.message.as_str()).collect();
        assert_eq!(
            said,
            ["1 of the 2 tasks that failed in run r0 are not in the suite; the 1 that are run"]
        );
        opts.failed_in.as_mut().unwrap().suite_hash = "0123456789abcdef".into();
        opts.failed_in.as_mut().unwrap().task_ids = ["t1".to_owned()].into();
        let p = prepare(&suite_dir, &request(opts), &mut store).unwrap();
        let said: Vec<&str> = p.warnings.iter().map(|w| w.message.as_str()).collect();
        assert_eq!(said.len(), 1, "{said:?}");
        assert!(
            said[0].starts_with(&format!(
                "run r0 was of a different version of this suite (content hash 0123456789ab then, {} now)",
                &hash[..12]
            )),
            "{said:?}"
        );
    }

    /// A request the suite refuses is found when the configured suite arrives, before the
    /// dataset is read: its broken third line is never reached, and nothing is stored.
    #[test]
    fn a_refused_request_stops_before_any_task_streams() {
        let dir = tempfile::tempdir().unwrap();
        // A broken third line, never reached.
        let suite_dir = mock_suite(dir.path(), "{ not json\n");
        let db = dir.path().join("r.db");
        let mut store = Store::open(&db).unwrap();
        let unknown = request(PlanOptions {
            variants: vec!["b".into()],
            ..PlanOptions::default()
        });
        match prepare(&suite_dir, &unknown, &mut store) {
            Err(PrepareError::Plan(PlanError::UnknownVariant { name, known, .. })) => {
                assert_eq!((name.as_str(), known), ("b", vec!["a".to_owned()]));
            }
            other => panic!("expected an unknown variant, got {other:?}"),
        }
        assert!(store.list_runs().unwrap().is_empty());
        // The same suite with a request it takes reads the dataset and finds the broken line.
        match prepare(&suite_dir, &request(PlanOptions::default()), &mut store) {
            Err(PrepareError::Suite(d)) => {
                let shown = d.render(false);
                assert!(shown.contains("tasks.jsonl:3"), "{shown}");
            }
            other => panic!("expected the suite's diagnostics, got {other:?}"),
        }
        assert!(store.list_runs().unwrap().is_empty());
        // Without the broken line the run is prepared, its tasks stored with its row.
        std::fs::write(
            suite_dir.join("tasks.jsonl"),
            "{\"id\": \"t1\", \"input\": \"one\"}\n{\"id\": \"t2\", \"input\": \"two\"}\n",
        )
        .unwrap();
        let p = prepare(&suite_dir, &request(PlanOptions::default()), &mut store)
            .unwrap()
            .plan;
        assert_eq!(p.task_count, 2);
        assert_eq!(store.task_count(&p.run_id).unwrap(), 2);
        assert_eq!(store.list_runs().unwrap().len(), 1);
    }
}
