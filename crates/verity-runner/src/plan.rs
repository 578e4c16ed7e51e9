use globset::Glob;
use verity_model::{RunOptions, SampleKey, Shard, Suite};

use crate::RunError;

/// What the user asked to run, beyond the suite.
#[derive(Clone, Debug, Default)]
pub struct PlanOptions {
    /// Variant names; empty = all of the suite's.
    pub variants: Vec<String>,
    /// Overrides the suite's `epochs`.
    pub epochs: Option<u32>,
    /// Run only the first N tasks (after `filter`).
    pub limit: Option<usize>,
    /// A glob over task ids.
    pub filter: Option<String>,
    /// Only the suite's `quick` subset (before `filter` and `limit`).
    pub quick: bool,
    pub concurrency: usize,
    /// Run only this deterministic slice of the tasks.
    pub shard: Option<Shard>,
}

/// A run ready to execute: the suite narrowed to what will run, and where its tasks are.
#[derive(Clone, Debug)]
pub struct Plan {
    pub run_id: String,
    pub suite_path: String,
    /// The suite as it will run. Its `tasks` are the run's tasks unless `stored_tasks` says
    /// they are already in the store.
    pub suite: Suite,
    pub options: RunOptions,
    /// `Some(n)`: the run's `n` tasks are rows of the store's `tasks` table under `run_id`
    /// (staged while a large suite streamed in, or a stored run being resumed), and
    /// `suite.tasks` is empty.
    pub stored_tasks: Option<u64>,
}

impl Plan {
    pub fn task_count(&self) -> u64 {
        self.stored_tasks.unwrap_or(self.suite.tasks.len() as u64)
    }

    pub fn total(&self) -> u64 {
        self.task_count() * self.suite.variants.len() as u64 * u64::from(self.suite.epochs)
    }
}

/// The samples of some tasks, in the one order every run uses: task by task, then variant,
/// then epoch.
pub(crate) fn sample_keys<'a>(
    task_ids: impl Iterator<Item = &'a str> + 'a,
    variants: &'a [verity_model::Variant],
    epochs: u32,
) -> impl Iterator<Item = SampleKey> + 'a {
    task_ids.flat_map(move |id| {
        variants.iter().flat_map(move |v| {
            (0..epochs).map(move |epoch| SampleKey {
                task_id: id.to_owned(),
                variant: v.name.clone(),
                epoch,
            })
        })
    })
}

/// A fresh run id: UTC time to the second plus four random hex digits, so ids sort by start
/// time and two runs started in the same second do not collide.
pub fn new_run_id() -> String {
    let now = jiff::Timestamp::now();
    let stamp = now.strftime("%Y%m%d-%H%M%S");
    let r = (crate::retry::jitter_random() * 65536.0) as u32;
    format!("{stamp}-{r:04x}")
}

/// The plan of a stored run, to resume it or retry some of its samples: the stored suite is
/// already narrowed to what the run covers, and its `stored` tasks stay in the store.
pub fn plan_from_run(meta: &verity_model::RunMeta, stored: u64) -> Plan {
    let mut suite = meta.suite.clone();
    suite.tasks = Vec::new();
    Plan {
        run_id: meta.id.clone(),
        suite_path: meta.suite_path.clone(),
        suite,
        options: meta.options.clone(),
        stored_tasks: Some(stored),
    }
}

/// Which tasks of a suite a run takes, decided one task at a time in suite order, so the
/// same selection works on a list in memory and on a dataset streaming in: the quick subset,
/// then `--filter`, then `--limit`, then every N-th for `--shard`.
#[derive(Debug)]
pub struct TaskFilter {
    quick: Option<std::collections::HashSet<String>>,
    glob: Option<globset::GlobMatcher>,
    limit: Option<usize>,
    shard: Option<Shard>,
    /// Tasks past the quick subset and the glob.
    matched: usize,
}

impl TaskFilter {
    /// Checks the options against `suite` (its quick subset, the glob, the shard).
    pub fn new(suite: &Suite, opts: &PlanOptions) -> Result<TaskFilter, RunError> {
        let quick = if opts.quick {
            if suite.quick.is_empty() {
                return Err(RunError::Plan(format!(
                    "suite `{}` declares no quick subset: add `quick = [\"task-id\", …]` to its suite.toml, or use --limit N",
                    suite.name
                )));
            }
            Some(suite.quick.iter().cloned().collect())
        } else {
            None
        };
        let glob = match &opts.filter {
            Some(f) => Some(
                Glob::new(f)
                    .map_err(|e| RunError::Plan(format!("bad --filter glob `{f}`: {e}")))?
                    .compile_matcher(),
            ),
            None => None,
        };
        if let Some(sh) = opts.shard
            && (sh.count == 0 || sh.index >= sh.count)
        {
            return Err(RunError::Plan(format!(
                "bad shard {}/{}: K must be from 1 to N",
                sh.index + 1,
                sh.count
            )));
        }
        Ok(TaskFilter {
            quick,
            glob,
            limit: opts.limit,
            shard: opts.shard,
            matched: 0,
        })
    }

    /// Whether the run takes the next task of the suite, `id`.
    pub fn accept(&mut self, id: &str) -> bool {
        if self.quick.as_ref().is_some_and(|q| !q.contains(id)) {
            return false;
        }
        if self.glob.as_ref().is_some_and(|g| !g.is_match(id)) {
            return false;
        }
        if self.limit.is_some_and(|n| self.matched >= n) {
            return false;
        }
        let position = self.matched;
        self.matched += 1;
        self.shard
            .is_none_or(|sh| position % sh.count as usize == sh.index as usize)
    }
}

/// Narrows `suite` to the selected variants and fixes the epochs: everything about a plan
/// except which tasks it takes. `suite.tasks` is left as it is.
pub fn plan_variants(
    mut suite: Suite,
    suite_path: &str,
    opts: &PlanOptions,
) -> Result<(Plan, TaskFilter), RunError> {
    if !opts.variants.is_empty() {
        for name in &opts.variants {
            if suite.variant(name).is_none() {
                let known: Vec<&str> = suite.variants.iter().map(|v| v.name.as_str()).collect();
                return Err(RunError::Plan(format!(
                    "no variant `{name}` in suite `{}` (it has: {})",
                    suite.name,
                    known.join(", ")
                )));
            }
        }
        suite.variants.retain(|v| opts.variants.contains(&v.name));
    }
    if suite.variants.is_empty() {
        return Err(RunError::Plan(format!(
            "suite `{}` has no variant to run; add [[variants]] or pass --provider",
            suite.name
        )));
    }
    let filter = TaskFilter::new(&suite, opts)?;
    if let Some(e) = opts.epochs {
        if e == 0 {
            return Err(RunError::Plan("--epochs must be at least 1".into()));
        }
        suite.epochs = e;
    }
    let options = RunOptions {
        epochs: suite.epochs,
        limit: opts.limit,
        filter: opts.filter.clone(),
        quick: opts.quick,
        concurrency: opts.concurrency.max(1),
        variants: suite.variants.iter().map(|v| v.name.clone()).collect(),
        shard: opts.shard,
    };
    let plan = Plan {
        run_id: new_run_id(),
        suite_path: suite_path.to_owned(),
        suite,
        options,
        stored_tasks: None,
    };
    Ok((plan, filter))
}

/// The error when a selection leaves nothing to run.
pub fn no_task_error() -> RunError {
    RunError::Plan("no task to run (check --filter / --limit / --shard)".into())
}

/// Narrows `suite` (tasks in memory) to the selected variants and tasks and fixes the epochs.
pub fn plan(suite: Suite, suite_path: &str, opts: &PlanOptions) -> Result<Plan, RunError> {
    let (mut plan, mut filter) = plan_variants(suite, suite_path, opts)?;
    plan.suite.tasks.retain(|t| filter.accept(&t.id));
    if plan.suite.tasks.is_empty() {
        return Err(no_task_error());
    }
    Ok(plan)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use verity_model::{OutcomeRule, ProviderSpec, Task, Variant};

    use super::*;

    fn suite(n: usize) -> Suite {
        Suite {
            quick: Vec::new(),
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
            report: Default::default(),
            content_hash: "h".into(),
        }
    }

    #[test]
    fn shards_partition_the_tasks() {
        let mut seen = Vec::new();
        for index in 0..3 {
            let opts = PlanOptions {
                shard: Some(Shard { index, count: 3 }),
                ..PlanOptions::default()
            };
            let p = plan(suite(10), "x", &opts).unwrap();
            assert_eq!(p.total(), p.suite.tasks.len() as u64 * 2);
            seen.extend(p.suite.tasks.iter().map(|t| t.id.clone()));
        }
        seen.sort();
        let mut all: Vec<String> = (0..10).map(|i| format!("t{i}")).collect();
        all.sort();
        assert_eq!(seen, all);
        let bad = PlanOptions {
            shard: Some(Shard { index: 3, count: 3 }),
            ..PlanOptions::default()
        };
        assert!(plan(suite(10), "x", &bad).is_err());
    }

    #[test]
    fn quick_takes_the_declared_subset_in_suite_order() {
        let opts = PlanOptions {
            quick: true,
            ..PlanOptions::default()
        };
        let err = plan(suite(5), "x", &opts).unwrap_err().to_string();
        assert!(err.contains("declares no quick subset"), "{err}");
        let mut s = suite(5);
        s.quick = vec!["t3".into(), "t1".into()];
        let p = plan(s, "x", &opts).unwrap();
        let ids: Vec<&str> = p.suite.tasks.iter().map(|t| t.id.as_str()).collect();
        assert_eq!(ids, ["t1", "t3"]);
        assert!(p.options.quick);
    }

    #[test]
    fn filter_limit_and_epochs() {
        let opts = PlanOptions {
            filter: Some("t1*".into()),
            limit: Some(1),
            epochs: Some(3),
            ..PlanOptions::default()
        };
        let p = plan(suite(12), "x", &opts).unwrap();
        assert_eq!(p.suite.tasks.len(), 1);
        assert_eq!(p.total(), 3);
        assert!(
            plan(
                suite(2),
                "x",
                &PlanOptions {
                    epochs: Some(0),
                    ..PlanOptions::default()
                }
            )
            .is_err()
        );
        assert!(
            plan(
                suite(2),
                "x",
                &PlanOptions {
                    variants: vec!["nope".into()],
                    ..PlanOptions::default()
                }
            )
            .is_err()
        );
    }
}
