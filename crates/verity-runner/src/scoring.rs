//! Judging answers: the same code scores a fresh run and a rescored one.

use std::collections::{BTreeMap, HashMap};

use verity_model::{
    GroupMember, GroupRecord, Outcome, OutcomeRule, PreflightInfo, Response, SampleKey,
    SampleRecord, Scope, Score, ScoreStatus, Scorer, Suite, Task,
};
use verity_store::{Store, TaskPages};

use crate::{PlanError, RunError};

/// A suite's scorers, built once, split by scope, with its outcome rule.
pub struct Scorers {
    sample: Vec<Box<dyn Scorer>>,
    group: Vec<Box<dyn Scorer>>,
    rule: OutcomeRule,
}

impl std::fmt::Debug for Scorers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Scorers")
            .field(
                "sample",
                &self.sample.iter().map(|s| s.name()).collect::<Vec<_>>(),
            )
            .field(
                "group",
                &self.group.iter().map(|s| s.name()).collect::<Vec<_>>(),
            )
            .finish()
    }
}

impl Scorers {
    pub fn build(suite: &Suite) -> Result<Scorers, RunError> {
        let mut sample = Vec::new();
        let mut group = Vec::new();
        for spec in &suite.scorers {
            let s = verity_oracles::build(spec).map_err(|i| PlanError::Scorer {
                name: spec.instance_name().to_owned(),
                at: spec.source.to_string(),
                message: i.message,
            })?;
            if s.scope() == Scope::Sample {
                sample.push(s)
            } else {
                group.push(s)
            }
        }
        Ok(Scorers {
            sample,
            group,
            rule: suite.outcome.clone(),
        })
    }

    /// Every scorer's pre-flight, once before a run's first model call, then each task of the
    /// run (read from `store` a page at a time) against it. The first failure stops here
    /// ([`PlanError::Preflight`]); what the scorers found is keyed by scorer name (scorers
    /// that report nothing are left out).
    pub fn preflight(
        &self,
        store: &Store,
        run_id: &str,
    ) -> Result<BTreeMap<String, PreflightInfo>, RunError> {
        let all: Vec<&dyn Scorer> = self
            .sample
            .iter()
            .chain(&self.group)
            .map(|s| s.as_ref())
            .collect();
        let failed = |s: &dyn Scorer, message: String| PlanError::Preflight {
            name: s.name().to_owned(),
            message,
        };
        let mut found = Vec::with_capacity(all.len());
        for s in &all {
            found.push(s.preflight().map_err(|m| failed(*s, m))?);
        }
        let mut pages = TaskPages::new(run_id);
        while let Some(page) = pages.next(store)? {
            for task in &page {
                for (s, info) in all.iter().zip(found.iter_mut()) {
                    s.preflight_task(task, info).map_err(|m| failed(*s, m))?;
                }
            }
        }
        Ok(all
            .iter()
            .zip(found)
            .filter(|(_, info)| !info.is_empty())
            .map(|(s, info)| (s.name().to_owned(), info))
            .collect())
    }

    pub fn has_group_scorers(&self) -> bool {
        !self.group.is_empty()
    }

    pub fn rule(&self) -> &OutcomeRule {
        &self.rule
    }
}

/// Scores one sample with the per-sample scorers and evaluates the outcome rule on those
/// scores alone (group scores, if any, are folded in later by [`score_groups`]).
pub fn score_sample(scorers: &Scorers, task: &Task, response: &Response) -> (Vec<Score>, Outcome) {
    if response.is_error() {
        return (Vec::new(), Outcome::Error);
    }
    let scores: Vec<Score> = scorers
        .sample
        .iter()
        .flat_map(|s| s.score(task, response))
        .collect();
    let outcome = scorers.rule.evaluate(&scores, false);
    (scores, outcome)
}

/// Runs the group scorers over stored samples, and returns the group records plus every
/// sample outcome that changes once its groups' scores count.
pub fn score_groups<'a>(
    scorers: &Scorers,
    tasks: impl IntoIterator<Item = &'a Task>,
    samples: &[SampleRecord],
) -> (Vec<GroupRecord>, Vec<(SampleKey, Outcome)>) {
    if scorers.group.is_empty() {
        return (Vec::new(), Vec::new());
    }
    let tasks: HashMap<&str, &Task> = tasks.into_iter().map(|t| (t.id.as_str(), t)).collect();
    let mut records = Vec::new();
    // sample key -> scores of the groups it belongs to
    let mut extra: HashMap<&SampleKey, Vec<Score>> = HashMap::new();
    for scorer in &scorers.group {
        let scope = scorer.scope();
        let label = match &scope {
            Scope::Epochs => "epochs".to_owned(),
            Scope::Group(meta) => format!("group:{meta}"),
            Scope::Sample => continue,
        };
        // (variant, group) -> members
        let mut groups: BTreeMap<(&str, String), Vec<&SampleRecord>> = BTreeMap::new();
        for s in samples {
            let Some(task) = tasks.get(s.key.task_id.as_str()) else {
                continue;
            };
            if let Some(g) = group_key(&scope, task) {
                groups
                    .entry((s.key.variant.as_str(), g))
                    .or_default()
                    .push(s);
            }
        }
        for ((variant, group), members) in groups {
            // Every member, errored ones included: whether an errored sample counts against
            // the group (an invalid run, seed 004 §12) is each scorer's decision.
            let gm: Vec<GroupMember<'_>> = members
                .iter()
                .filter_map(|m| {
                    tasks.get(m.key.task_id.as_str()).map(|t| GroupMember {
                        task: t,
                        epoch: m.key.epoch,
                        response: &m.response,
                    })
                })
                .collect();
            if gm.is_empty() {
                continue;
            }
            let scores = scorer.score_group(&gm);
            let mut task_ids: Vec<String> = Vec::new();
            for m in &members {
                if !task_ids.contains(&m.key.task_id) {
                    task_ids.push(m.key.task_id.clone());
                }
            }
            for m in &members {
                extra
                    .entry(&m.key)
                    .or_default()
                    .extend(scores.iter().cloned());
            }
            records.push(GroupRecord {
                variant: variant.to_owned(),
                scope: label.clone(),
                group,
                task_ids,
                scores,
            });
        }
    }
    let mut changed = Vec::new();
    for s in samples {
        if let Some(more) = extra.get(&s.key) {
            let mut all = s.scores.clone();
            all.extend(more.iter().cloned());
            let outcome = scorers.rule.evaluate(&all, s.response.is_error());
            if outcome != s.outcome {
                changed.push((s.key.clone(), outcome));
            }
        }
    }
    (merge_records(records), changed)
}

/// One record per variant, scope and group, holding the scores of every group scorer that
/// judged it in scorer order: the store keeps one row per group, so two scorers of one scope
/// (`identical` and `stages` over the same epochs) must share it rather than replace each other.
fn merge_records(records: Vec<GroupRecord>) -> Vec<GroupRecord> {
    let mut merged: Vec<GroupRecord> = Vec::with_capacity(records.len());
    let mut at: HashMap<(String, String, String), usize> = HashMap::new();
    for r in records {
        let key = (r.variant.clone(), r.scope.clone(), r.group.clone());
        match at.get(&key) {
            Some(&i) => {
                let into = &mut merged[i];
                for t in r.task_ids {
                    if !into.task_ids.contains(&t) {
                        into.task_ids.push(t);
                    }
                }
                into.scores.extend(r.scores);
            }
            None => {
                at.insert(key, merged.len());
                merged.push(r);
            }
        }
    }
    merged
}

/// The group a task belongs to under a group scope: its id for `Epochs`, its value of the
/// metadata key for `Group` (none when it lacks the key).
fn group_key(scope: &Scope, task: &Task) -> Option<String> {
    match scope {
        Scope::Sample => None,
        Scope::Epochs => Some(task.id.clone()),
        Scope::Group(meta) => task.metadata.get(meta).map(|v| match v {
            serde_json::Value::String(s) => s.clone(),
            other => other.to_string(),
        }),
    }
}

/// What a rescore did.
#[derive(Clone, Debug, PartialEq)]
pub struct RescoreSummary {
    pub scoring: u32,
    pub samples: usize,
    pub changed: usize,
}

/// Re-judges every stored sample of a run without calling a model, with the run's own suite
/// (or `suite`, to apply edited scorers), and stores the result as a new scoring.
pub fn rescore(
    store: &mut Store,
    run_id: &str,
    suite: Option<Suite>,
) -> Result<RescoreSummary, RunError> {
    let mut meta = store.load_run(run_id)?;
    if let Some(s) = suite {
        // Keep the run's task selection; take scorers, outcome rule and expectations from the new suite.
        let mut merged = meta.suite.clone();
        merged.scorers = s.scorers.clone();
        merged.outcome = s.outcome.clone();
        for t in &mut merged.tasks {
            if let Some(nt) = s.task(&t.id) {
                t.expect = nt.expect.clone();
                t.target = nt.target.clone();
            }
        }
        meta.suite = merged;
    }
    let scorers = Scorers::build(&meta.suite)?;
    // A scorer that cannot judge here (a required compiler missing) stops before anything
    // is re-judged; what it found replaces the run's record with the new scoring.
    let preflight = scorers.preflight(store, run_id)?;
    let old = store.load_samples(run_id, None)?;
    let tasks: HashMap<&str, &Task> = meta
        .suite
        .tasks
        .iter()
        .map(|t| (t.id.as_str(), t))
        .collect();
    let mut fresh: Vec<SampleRecord> = Vec::with_capacity(old.len());
    for s in &old {
        let Some(task) = tasks.get(s.key.task_id.as_str()) else {
            return Err(PlanError::MissingTask {
                key: s.key.to_string(),
            }
            .into());
        };
        let (scores, outcome) = score_sample(&scorers, task, &s.response);
        fresh.push(SampleRecord {
            scores,
            outcome,
            ..s.clone()
        });
    }
    let (groups, changed_by_groups) = score_groups(&scorers, &meta.suite.tasks, &fresh);
    let overrides: HashMap<&SampleKey, Outcome> =
        changed_by_groups.iter().map(|(k, o)| (k, *o)).collect();
    let mut changed = 0;
    let rows: Vec<(SampleKey, Vec<Score>, Outcome)> = fresh
        .iter()
        .zip(&old)
        .map(|(f, o)| {
            let outcome = overrides.get(&f.key).copied().unwrap_or(f.outcome);
            if outcome != o.outcome || !same_verdicts(&f.scores, &o.scores) {
                changed += 1;
            }
            (f.key.clone(), f.scores.clone(), outcome)
        })
        .collect();
    let scoring = store.add_scoring(run_id, &rows, &groups)?;
    let stored = store.load_run(run_id)?;
    if meta.suite.scorers != stored.suite.scorers || preflight != stored.preflight {
        let mut m = stored;
        m.suite = meta.suite;
        m.preflight = preflight;
        store.update_run_meta(&m)?;
    }
    Ok(RescoreSummary {
        scoring,
        samples: rows.len(),
        changed,
    })
}

fn same_verdicts(a: &[Score], b: &[Score]) -> bool {
    let key = |s: &[Score]| -> Vec<(String, String, ScoreStatus)> {
        s.iter()
            .map(|x| (x.scorer.clone(), x.criterion.clone(), x.status))
            .collect()
    };
    key(a) == key(b)
}
