use std::collections::HashSet;

use globset::Glob;
use verity_model::{RunOptions, SampleKey, Shard, Suite};

use crate::PlanError;

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
    /// Only tasks of these categories (seed 003's `--categories`); empty: every task.
    pub categories: Vec<String>,
    pub concurrency: usize,
    /// Run only this deterministic slice of the tasks.
    pub shard: Option<Shard>,
    /// Only the tasks that failed in a stored run (`--failed-in RUN`), intersected with every
    /// other selection.
    pub failed_in: Option<FailedIn>,
}

/// The tasks that failed in a stored run (`verity run SUITE --failed-in RUN`), read from the
/// store before the suite streams in.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FailedIn {
    /// The stored run.
    pub run_id: String,
    /// Its suite's content hash: when the suite's differs, its tasks may have changed.
    pub suite_hash: String,
    /// The ids of its tasks that failed ([`verity_store::Store::failed_task_ids`]).
    pub task_ids: HashSet<String>,
}

/// A run ready to execute: the suite narrowed to what will run, its tasks in the store.
///
/// A plan is made by [`crate::prepare`] (a new run: the selected tasks are staged and commit
/// with the run's row) or [`plan_from_run`] (a stored run to resume or retry). Either way the
/// run's tasks are rows of the store under `run_id`, read back a page at a time, and
/// `suite.tasks` is empty.
#[derive(Clone, Debug)]
pub struct Plan {
    pub run_id: String,
    pub suite_path: String,
    /// The suite as it will run, without its tasks.
    pub suite: Suite,
    pub options: RunOptions,
    /// How many tasks the run has in the store.
    pub task_count: u64,
}

impl Plan {
    /// Samples in all: tasks × variants × epochs.
    pub fn total(&self) -> u64 {
        self.task_count * self.suite.variants.len() as u64 * u64::from(self.suite.epochs)
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
/// already narrowed to what the run covers, and its `task_count` tasks stay in the store.
pub fn plan_from_run(meta: &verity_model::RunMeta, task_count: u64) -> Plan {
    let mut suite = meta.suite.clone();
    suite.tasks = Vec::new();
    Plan {
        run_id: meta.id.clone(),
        suite_path: meta.suite_path.clone(),
        suite,
        options: meta.options.clone(),
        task_count,
    }
}

/// Which tasks of a suite a run takes, decided one task at a time in suite order, so the
/// same selection works on a list in memory and on a dataset streaming in: the quick subset
/// and the failures of `--failed-in`, then `--category`, then `--filter`, then `--limit`, then
/// every N-th for `--shard`. Every selection narrows the others (an intersection).
#[derive(Debug)]
pub struct TaskFilter {
    quick: Option<HashSet<String>>,
    /// `--failed-in`: the run, its failed task ids, and how many of them the suite has.
    failed_in: Option<(String, HashSet<String>)>,
    failed_found: usize,
    categories: Option<std::collections::HashSet<String>>,
    /// Every category the suite's tasks have, to name a `--category` that matched none.
    seen_categories: std::collections::BTreeSet<String>,
    glob: Option<globset::GlobMatcher>,
    limit: Option<usize>,
    shard: Option<Shard>,
    /// Tasks past the quick subset and the glob.
    matched: usize,
}

impl TaskFilter {
    /// Checks the options against `suite` (its quick subset, the glob, the shard).
    pub fn new(suite: &Suite, opts: &PlanOptions) -> Result<TaskFilter, PlanError> {
        let quick = if opts.quick {
            if suite.quick.is_empty() {
                return Err(PlanError::NoQuickSubset {
                    suite: suite.name.clone(),
                });
            }
            Some(suite.quick.iter().cloned().collect())
        } else {
            None
        };
        if let Some(f) = &opts.failed_in
            && f.task_ids.is_empty()
        {
            return Err(PlanError::NoFailures {
                run: f.run_id.clone(),
            });
        }
        let glob = match &opts.filter {
            Some(f) => Some(
                Glob::new(f)
                    .map_err(|e| PlanError::BadFilter {
                        glob: f.clone(),
                        message: e.to_string(),
                    })?
                    .compile_matcher(),
            ),
            None => None,
        };
        if let Some(sh) = opts.shard
            && (sh.count == 0 || sh.index >= sh.count)
        {
            return Err(PlanError::BadShard {
                index: sh.index,
                count: sh.count,
            });
        }
        Ok(TaskFilter {
            quick,
            failed_in: opts
                .failed_in
                .as_ref()
                .map(|f| (f.run_id.clone(), f.task_ids.clone())),
            failed_found: 0,
            categories: (!opts.categories.is_empty())
                .then(|| opts.categories.iter().cloned().collect()),
            seen_categories: Default::default(),
            glob,
            limit: opts.limit,
            shard: opts.shard,
            matched: 0,
        })
    }

    /// Whether the run takes the next task of the suite.
    pub fn accept(&mut self, task: &verity_model::Task) -> bool {
        let id = task.id.as_str();
        if self.categories.is_some()
            && let Some(c) = &task.category
            && !self.seen_categories.contains(c)
        {
            self.seen_categories.insert(c.clone());
        }
        if let Some((_, failed)) = &self.failed_in {
            if !failed.contains(id) {
                return false;
            }
            self.failed_found += 1;
        }
        if self.quick.as_ref().is_some_and(|q| !q.contains(id)) {
            return false;
        }
        if let Some(cats) = &self.categories
            && !task.category.as_ref().is_some_and(|c| cats.contains(c))
        {
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

impl TaskFilter {
    /// After every task was offered: `--failed-in` whose failed tasks the suite has none of is
    /// an error (the run is of another suite, or its tasks were renamed). When only some are
    /// missing, the warning to show.
    pub fn check_failed_in(&self) -> Result<Option<String>, PlanError> {
        let Some((run, failed)) = &self.failed_in else {
            return Ok(None);
        };
        match (self.failed_found, failed.len()) {
            (0, n) => Err(PlanError::FailedNotInSuite {
                run: run.clone(),
                failed: n,
            }),
            (found, n) if found < n => Ok(Some(format!(
                "{} of the {n} tasks that failed in run {run} are not in the suite; the {found} that are run",
                n - found
            ))),
            _ => Ok(None),
        }
    }

    /// After every task was offered: a `--category` no task of the suite has is an error
    /// (a typo would otherwise drop part of the run silently).
    pub fn check_categories(&self) -> Result<(), PlanError> {
        let Some(wanted) = &self.categories else {
            return Ok(());
        };
        let mut unknown: Vec<&String> = wanted
            .iter()
            .filter(|c| !self.seen_categories.contains(*c))
            .collect();
        unknown.sort();
        match unknown.first() {
            None => Ok(()),
            Some(c) => Err(PlanError::UnknownCategory {
                category: (*c).clone(),
                known: self.seen_categories.iter().cloned().collect(),
            }),
        }
    }
}

/// Narrows `suite` to the selected variants and fixes its epochs, checking every option
/// against it: everything about a plan except which tasks it takes, decided before any task
/// is read. Returns the run's options and the filter that picks its tasks.
pub fn narrow(
    suite: &mut Suite,
    opts: &PlanOptions,
) -> Result<(RunOptions, TaskFilter), PlanError> {
    if !opts.variants.is_empty() {
        for name in &opts.variants {
            if suite.variant(name).is_none() {
                return Err(PlanError::UnknownVariant {
                    name: name.clone(),
                    suite: suite.name.clone(),
                    known: suite.variants.iter().map(|v| v.name.clone()).collect(),
                });
            }
        }
        suite.variants.retain(|v| opts.variants.contains(&v.name));
    }
    if suite.variants.is_empty() {
        return Err(PlanError::NoVariant {
            suite: suite.name.clone(),
        });
    }
    let filter = TaskFilter::new(suite, opts)?;
    if let Some(e) = opts.epochs {
        if e == 0 {
            return Err(PlanError::ZeroEpochs);
        }
        suite.epochs = e;
    } else if opts.quick
        && let Some(e) = suite.run.quick_epochs
    {
        // `--quick` runs with the suite's own epochs for it (`[run] quick_epochs`).
        suite.epochs = e;
    }
    let options = RunOptions {
        epochs: suite.epochs,
        limit: opts.limit,
        filter: opts.filter.clone(),
        quick: opts.quick,
        categories: opts.categories.clone(),
        concurrency: opts.concurrency.max(1),
        variants: suite.variants.iter().map(|v| v.name.clone()).collect(),
        shard: opts.shard,
        failed_in: opts.failed_in.as_ref().map(|f| f.run_id.clone()),
    };
    Ok((options, filter))
}
