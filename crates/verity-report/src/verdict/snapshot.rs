//! A [`Snapshot`]: one variant of one run reduced to what comparisons, gates and baseline files
//! need — its metrics by name, each task's outcome with the reason it failed, and the identity
//! of what produced it (run, model, prompt, suite). Built from a stored run or read from a
//! suite's `baseline.toml`; both sides of every comparison are snapshots.

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};
use serde_json::Value;
use verity_model::{ErrorPolicy, Metric, Outcome, RunMeta, SampleRecord, Task};

use crate::view::{FailedSample, RunView, TaskOutcome, one_line, score_detail};

/// How long a stored failure reason may be (characters); longer ones are cut with `…`.
const REASON_CHARS: usize = 240;

/// One variant of one run, as comparisons and gates see it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    pub variant: String,
    pub run_id: String,
    /// `provider/model`.
    pub model: String,
    /// BLAKE3 of the variant's prompt template(s); `-` without one.
    pub prompt_hash: String,
    pub suite_name: String,
    pub suite_hash: String,
    pub verity_version: String,
    /// When the run started (RFC 3339, UTC).
    pub date: String,
    /// The run's status when the snapshot was taken (`completed`, `interrupted`…).
    pub status: String,
    pub epochs: u32,
    /// The suite's error policy, which every rate here follows.
    pub errors: ErrorPolicy,
    /// Every metric the run measured for the variant, by [`Metric`] name.
    pub metrics: BTreeMap<String, f64>,
    /// With two or more epochs: each metric computed on each epoch alone, in epoch order (the
    /// run-to-run spread of a one-epoch run).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub epoch_metrics: BTreeMap<String, Vec<f64>>,
    /// Each task's result, by task id.
    pub tasks: BTreeMap<String, TaskResult>,
}

/// One task's result under one variant.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TaskResult {
    /// Over its epochs: pass iff every counted epoch passed (as in the run's report).
    pub outcome: TaskOutcome,
    /// Each epoch's outcome, when the run had more than one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub epochs: Vec<Outcome>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
    /// The criteria that failed (or errored) in any epoch.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub failed: Vec<String>,
    /// Why the first failing epoch failed, on one line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Precision / recall counts per counting criterion, summed over epochs.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub counts: BTreeMap<String, Counts>,
    /// The task's rationale (its `rationale` metadata, or the rationales of a claim fixture's
    /// expected claims), taken from the suite the run used. Not stored in baseline files.
    #[serde(skip)]
    pub rationale: Option<String>,
    /// Where the task is defined in the suite the run used. Not stored in baseline files.
    #[serde(skip)]
    pub source: Option<verity_model::SourceLoc>,
}

/// True positives, false positives, false negatives.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Counts {
    pub tp: f64,
    pub fp: f64,
    #[serde(rename = "fn")]
    pub fn_: f64,
}

impl TaskResult {
    /// Whether the task's counted epochs disagree (some passed, some did not).
    pub fn is_flaky(&self, policy: ErrorPolicy) -> bool {
        let counted: Vec<bool> = self
            .epochs
            .iter()
            .filter(|o| !(policy == ErrorPolicy::Exclude && **o == Outcome::Error))
            .map(|o| *o == Outcome::Pass)
            .collect();
        counted.iter().any(|p| *p) && counted.iter().any(|p| !*p)
    }

    /// Each epoch's outcome in epoch order; a one-epoch result (whose `epochs` is empty) gives
    /// its outcome, an excluded one nothing.
    pub fn epoch_outcomes(&self) -> impl Iterator<Item = Outcome> + '_ {
        let single = match (self.epochs.is_empty(), self.outcome) {
            (true, TaskOutcome::Pass) => Some(Outcome::Pass),
            (true, TaskOutcome::Fail) => Some(Outcome::Fail),
            _ => None,
        };
        self.epochs.iter().copied().chain(single)
    }

    /// The task's share of the pass rate: (passing samples, counted samples).
    pub fn pass_parts(&self, policy: ErrorPolicy) -> (f64, f64) {
        if self.epochs.is_empty() {
            return match self.outcome {
                TaskOutcome::Pass => (1.0, 1.0),
                TaskOutcome::Fail => (0.0, 1.0),
                TaskOutcome::Excluded => (0.0, 0.0),
            };
        }
        self.epochs.iter().fold((0.0, 0.0), |(p, n), o| match o {
            Outcome::Pass => (p + 1.0, n + 1.0),
            Outcome::Fail => (p, n + 1.0),
            Outcome::Error if policy == ErrorPolicy::Fail => (p, n + 1.0),
            Outcome::Error => (p, n),
        })
    }
}

impl Snapshot {
    /// One snapshot per variant with stored samples, in the run's variant order. `samples`
    /// are the ones `view` was built from (the per-epoch metrics are computed from them).
    pub fn from_run(view: &RunView, meta: &RunMeta, samples: &[SampleRecord]) -> Vec<Snapshot> {
        let by_epoch: Vec<RunView> = if view.header.epochs >= 2 {
            let mut epochs: Vec<u32> = samples.iter().map(|s| s.key.epoch).collect();
            epochs.sort_unstable();
            epochs.dedup();
            epochs
                .into_iter()
                .map(|e| {
                    let of: Vec<SampleRecord> = samples
                        .iter()
                        .filter(|s| s.key.epoch == e)
                        .cloned()
                        .collect();
                    RunView::new(meta, &of, &[])
                })
                .collect()
        } else {
            Vec::new()
        };
        let suite_tasks: HashMap<&str, &Task> = meta
            .suite
            .tasks
            .iter()
            .map(|t| (t.id.as_str(), t))
            .collect();
        let failures: HashMap<(&str, &str, u32), &FailedSample> = view
            .failures
            .iter()
            .map(|f| {
                (
                    (f.key.task_id.as_str(), f.key.variant.as_str(), f.key.epoch),
                    f,
                )
            })
            .collect();
        view.per_variant
            .iter()
            .filter(|v| v.samples > 0)
            .map(|v| {
                let name = v.variant.as_str();
                let info = view.variants.iter().find(|i| i.name == name);
                let mut epoch_metrics: BTreeMap<String, Vec<f64>> = BTreeMap::new();
                for ev in &by_epoch {
                    for (k, x) in metrics_of(ev, name) {
                        if !k.starts_with("latency") {
                            epoch_metrics.entry(k).or_default().push(x);
                        }
                    }
                }
                epoch_metrics.retain(|_, xs| xs.len() == by_epoch.len());
                Snapshot {
                    variant: name.to_owned(),
                    run_id: view.header.run_id.clone(),
                    model: info.map(|i| i.model.clone()).unwrap_or_default(),
                    prompt_hash: info.map(|i| i.prompt_hash.clone()).unwrap_or_default(),
                    suite_name: view.header.suite_name.clone(),
                    suite_hash: view.header.suite_hash.clone(),
                    verity_version: view.header.verity_version.clone(),
                    date: view.header.started_at.clone(),
                    status: view.header.json_status().to_owned(),
                    epochs: view.header.epochs,
                    errors: view.error_policy(),
                    metrics: metrics_of(view, name),
                    epoch_metrics,
                    tasks: tasks_of(view, name, &suite_tasks, &failures),
                }
            })
            .collect()
    }

    /// The metric's value; `None` when the run did not measure it.
    pub fn metric(&self, m: &Metric) -> Option<f64> {
        self.metrics.get(&m.name()).copied()
    }

    /// The pass rate's counts over every task: (passing samples, counted samples).
    pub fn pass_counts(&self) -> (u64, u64) {
        let (p, n) = self
            .tasks
            .values()
            .map(|t| t.pass_parts(self.errors))
            .fold((0.0, 0.0), |(a, b), (p, n)| (a + p, b + n));
        (p as u64, n as u64)
    }

    /// `run:variant`, how commands name a side.
    pub fn label(&self) -> String {
        format!("{}:{}", self.run_id, self.variant)
    }
}

/// Every metric of `variant` in `view`, by name (see [`Metric`]); unmeasured ones are absent.
pub fn metrics_of(view: &RunView, variant: &str) -> BTreeMap<String, f64> {
    let mut m = BTreeMap::new();
    let mut put = |k: Metric, v: Option<f64>| {
        if let Some(v) = v.filter(|v| v.is_finite()) {
            m.insert(k.name(), v);
        }
    };
    let policy = view.error_policy();
    if let Some(s) = view.per_variant.iter().find(|s| s.variant == variant) {
        put(Metric::PassRate, s.rate.value());
        put(Metric::LatencyP50, s.latency.p50_ms.map(|x| x as f64));
        put(Metric::LatencyP95, s.latency.p95_ms.map(|x| x as f64));
    }
    for c in &view.per_criterion {
        if let Some((_, counts)) = c.per_variant.iter().find(|(v, _)| v == variant) {
            put(
                Metric::Criterion(c.key.clone()),
                counts.rate(policy).value(),
            );
        }
    }
    for c in &view.per_category {
        if let Some((_, counts)) = c.per_variant.iter().find(|(v, _)| v == variant) {
            put(
                Metric::Category(c.category.clone()),
                counts.rate(policy).value(),
            );
        }
    }
    let single = view.prf.len() == 1;
    for p in &view.prf {
        let Some((_, c)) = p.per_variant.iter().find(|(v, _)| v == variant) else {
            continue;
        };
        let Some(micro) = c.micro else { continue };
        let keys: Vec<Option<String>> = if single {
            vec![None, Some(p.key.clone())]
        } else {
            vec![Some(p.key.clone())]
        };
        for k in keys {
            put(Metric::Precision(k.clone()), Some(micro.precision));
            put(Metric::Recall(k.clone()), Some(micro.recall));
            put(Metric::F1(k.clone()), Some(micro.f1));
            put(Metric::MacroF1(k), c.macro_f1);
        }
    }
    let mut seen: Vec<&str> = Vec::new();
    for g in &view.groups {
        let Some((_, c)) = g.per_variant.iter().find(|(v, _)| v == variant) else {
            continue;
        };
        let name = if seen.contains(&g.criterion.as_str()) {
            format!("{}/{}", g.scorer, g.criterion)
        } else {
            g.criterion.clone()
        };
        seen.push(&g.criterion);
        put(Metric::Group(name.clone()), c.status.rate(policy).value());
        put(Metric::GroupMean(name), c.mean_value);
    }
    if let Some(c) = view.citations.iter().find(|c| c.variant == variant) {
        put(Metric::CitationAccuracy, c.citation_accuracy());
        put(Metric::StructuralAccuracy, c.structural_accuracy());
        put(Metric::ConsistencyRate, c.consistency_rate());
        put(Metric::HallucinationRate, c.hallucination_rate());
    }
    if let Some(c) = view.comparisons.iter().find(|c| c.treatment == variant)
        && let Some((p, _)) = c.quoted
    {
        put(Metric::McNemarP, Some(p));
    }
    m
}

fn tasks_of(
    view: &RunView,
    variant: &str,
    suite_tasks: &HashMap<&str, &Task>,
    failures: &HashMap<(&str, &str, u32), &FailedSample>,
) -> BTreeMap<String, TaskResult> {
    let multi = view.header.epochs > 1;
    let counting: Vec<(&str, &str, &str)> = view
        .prf
        .iter()
        .map(|p| (p.key.as_str(), p.scorer.as_str(), p.criterion.as_str()))
        .collect();
    let mut out = BTreeMap::new();
    for t in &view.tasks {
        let Some(tv) = t.variant(variant) else {
            continue;
        };
        let mut failed: Vec<String> = Vec::new();
        let mut reason = None;
        for s in &tv.epochs {
            if let Some(f) = failures.get(&(t.id.as_str(), variant, s.key.epoch)) {
                for c in &f.criteria {
                    if !failed.contains(&c.key) {
                        failed.push(c.key.clone());
                    }
                }
                if reason.is_none() {
                    reason = Some(reason_of(f));
                }
            }
        }
        let mut counts = BTreeMap::new();
        for (key, scorer, criterion) in &counting {
            let mut c = Counts::default();
            let mut found = false;
            for s in &tv.epochs {
                for sc in s.scores.iter().filter(|sc| {
                    sc.scorer == *scorer
                        && sc.criterion == *criterion
                        && ["tp", "fp", "fn"]
                            .iter()
                            .any(|m| sc.metrics.contains_key(*m))
                }) {
                    found = true;
                    let get = |n: &str| {
                        sc.metrics
                            .get(n)
                            .copied()
                            .filter(|v| v.is_finite() && *v > 0.0)
                            .unwrap_or(0.0)
                    };
                    c.tp += get("tp");
                    c.fp += get("fp");
                    c.fn_ += get("fn");
                }
            }
            if found {
                counts.insert((*key).to_owned(), c);
            }
        }
        out.insert(
            t.id.clone(),
            TaskResult {
                outcome: tv.outcome,
                epochs: if multi {
                    tv.epochs.iter().map(|s| s.outcome).collect()
                } else {
                    Vec::new()
                },
                category: t.category.clone(),
                failed,
                reason,
                counts,
                rationale: suite_tasks.get(t.id.as_str()).and_then(|t| rationale(t)),
                source: t.source.clone(),
            },
        );
    }
    out
}

/// One line saying why a sample did not pass, cut to [`REASON_CHARS`].
fn reason_of(f: &FailedSample) -> String {
    let text = if let Some(e) = &f.error {
        format!("error {}: {}", e.kind, one_line(&e.message))
    } else if f.criteria.is_empty() {
        "no outcome criterion applied".to_owned()
    } else {
        let names: Vec<&str> = f.criteria.iter().map(|c| c.key.as_str()).collect();
        match f.criteria.iter().find_map(|c| score_detail(&c.score)) {
            Some(d) => format!("{}: {d}", names.join(", ")),
            None => names.join(", "),
        }
    };
    cut(&text, REASON_CHARS)
}

fn cut(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_owned(),
    }
}

/// A task's rationale: its `rationale` metadata, else the `rationale`s of a claim fixture's
/// expected claims (`expect.must_contain` / `must_not_contain` entries), joined with `; `.
pub fn rationale(t: &Task) -> Option<String> {
    if let Some(r) = t.metadata.get("rationale").and_then(Value::as_str) {
        return Some(r.to_owned());
    }
    let found: Vec<&str> = ["must_contain", "must_not_contain"]
        .iter()
        .filter_map(|k| t.expect.get(*k).and_then(Value::as_array))
        .flatten()
        .filter_map(|c| c.get("rationale").and_then(Value::as_str))
        .collect();
    (!found.is_empty()).then(|| found.join("; "))
}
