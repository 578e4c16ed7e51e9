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

/// A run ready to execute: the suite narrowed to what will run, and every sample key in order.
#[derive(Clone, Debug)]
pub struct Plan {
    pub run_id: String,
    pub suite_path: String,
    pub suite: Suite,
    pub options: RunOptions,
}

impl Plan {
    /// Every sample, task by task, then variant, then epoch.
    pub fn keys(&self) -> impl Iterator<Item = SampleKey> + '_ {
        sample_keys(
            self.suite.tasks.iter().map(|t| t.id.as_str()),
            &self.suite.variants,
            self.suite.epochs,
        )
    }

    pub fn total(&self) -> u64 {
        self.suite.tasks.len() as u64
            * self.suite.variants.len() as u64
            * u64::from(self.suite.epochs)
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
/// already narrowed to what the run covers.
pub fn plan_from_run(meta: &verity_model::RunMeta) -> Plan {
    Plan {
        run_id: meta.id.clone(),
        suite_path: meta.suite_path.clone(),
        suite: meta.suite.clone(),
        options: meta.options.clone(),
    }
}

/// Narrows `suite` to the selected variants and tasks and fixes the epochs.
pub fn plan(mut suite: Suite, suite_path: &str, opts: &PlanOptions) -> Result<Plan, RunError> {
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
    if opts.quick {
        if suite.quick.is_empty() {
            return Err(RunError::Plan(format!(
                "suite `{}` declares no quick subset: add `quick = [\"task-id\", …]` to its suite.toml, or use --limit N",
                suite.name
            )));
        }
        let quick = std::mem::take(&mut suite.quick);
        suite.tasks.retain(|t| quick.contains(&t.id));
        suite.quick = quick;
    }
    if let Some(f) = &opts.filter {
        let m = Glob::new(f)
            .map_err(|e| RunError::Plan(format!("bad --filter glob `{f}`: {e}")))?
            .compile_matcher();
        suite.tasks.retain(|t| m.is_match(&t.id));
    }
    if let Some(n) = opts.limit {
        suite.tasks.truncate(n);
    }
    if let Some(sh) = opts.shard {
        if sh.count == 0 || sh.index >= sh.count {
            return Err(RunError::Plan(format!(
                "bad shard {}/{}: K must be from 1 to N",
                sh.index + 1,
                sh.count
            )));
        }
        let mut i = 0u32;
        suite.tasks.retain(|_| {
            let keep = i % sh.count == sh.index;
            i += 1;
            keep
        });
    }
    if suite.tasks.is_empty() {
        return Err(RunError::Plan(
            "no task to run (check --filter / --limit / --shard)".into(),
        ));
    }
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
    Ok(Plan {
        run_id: new_run_id(),
        suite_path: suite_path.to_owned(),
        suite,
        options,
    })
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
        assert_eq!(p.keys().count(), 3);
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
