//! Comparing two snapshots: pass rates with Wilson intervals, McNemar on the tasks both ran,
//! every metric's change with its noise, the tasks that flipped with each side's evidence, and
//! loud warnings when the two sides did not measure the same thing.
//!
//! `a` is the reference (a baseline, an older run) and `b` the candidate: deltas are b − a.

use serde::Serialize;
use verity_model::Metric;
use verity_stats::{Alternative, McNemar, PMethod, mcnemar};

use super::noise::{NoiseEstimate, beyond, estimate, on_tasks};
use super::snapshot::Snapshot;
use crate::view::{Rate, TaskOutcome};

/// One metric on both sides.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MetricDelta {
    pub metric: String,
    pub a: Option<f64>,
    pub b: Option<f64>,
    /// b − a, when both sides measured it.
    pub delta: Option<f64>,
    pub higher_is_better: bool,
    pub noise: Vec<NoiseEstimate>,
    /// Whether |delta| exceeds every noise estimate; `None` without an estimate.
    pub beyond_noise: Option<bool>,
    /// When the sides' task sets differ, rates, categories and P/R/F1 are computed on the
    /// tasks both ran (`a` and `b` are those values); other metrics cannot be, and have no
    /// `delta` (`false` here).
    pub comparable: bool,
}

impl MetricDelta {
    /// How far the metric moved in its bad direction (negative when it improved).
    pub fn worsening(&self) -> Option<f64> {
        self.delta
            .map(|d| if self.higher_is_better { -d } else { d })
    }
}

/// Which way a task flipped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FlipKind {
    /// Passed in `a`, fails in `b`.
    Regression,
    /// Failed in `a`, passes in `b`.
    Improvement,
}

/// A task whose outcome differs between the sides.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Flip {
    pub task_id: String,
    pub variant: String,
    pub kind: FlipKind,
    pub category: Option<String>,
    /// Why it failed in `a` (for an improvement) …
    pub a_reason: Option<String>,
    /// … or in `b` (for a regression).
    pub b_reason: Option<String>,
    /// The task's rationale, when the suite gives one.
    pub rationale: Option<String>,
    /// The task's epochs disagreed on either side, or its outcome varied across earlier runs:
    /// the flip may be chance.
    pub flaky: bool,
    /// Where the task is defined (b's suite, else a's); `None` when neither side knows (a
    /// baseline file does not record it).
    pub source: Option<verity_model::SourceLoc>,
}

/// `a` against `b` for one variant each.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SideDiff {
    pub a: SideInfo,
    pub b: SideInfo,
    /// Reasons the two sides may not be comparable (different suites, prompts, models…).
    pub warnings: Vec<String>,
    /// Tasks present on one side only, by id.
    pub only_a: Vec<String>,
    pub only_b: Vec<String>,
    /// Pass rates over every task of each side, with Wilson 95 % intervals.
    pub rate_a: RateInfo,
    pub rate_b: RateInfo,
    /// Tasks both sides ran (and did not exclude): `[[both pass, a only], [b only, neither]]`,
    /// rows a pass / fail, columns b pass / fail.
    pub contingency: [[u64; 2]; 2],
    /// The same table over samples, paired by task and epoch (epochs both sides ran and
    /// counted). Shown beside the task table; the test runs on tasks, whose epochs are not
    /// independent of each other.
    pub sample_contingency: [[u64; 2]; 2],
    #[serde(skip)]
    pub mcnemar: McNemar,
    /// The two-sided p-value and how it was computed.
    pub p_value: f64,
    #[serde(skip)]
    pub p_method: PMethod,
    pub metrics: Vec<MetricDelta>,
    /// Regressions first, then improvements, each in task id order.
    pub flips: Vec<Flip>,
}

/// What produced one side.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SideInfo {
    pub run_id: String,
    pub variant: String,
    pub model: String,
    pub prompt_hash: String,
    pub suite_name: String,
    pub suite_hash: String,
    pub date: String,
    pub status: String,
    pub epochs: u32,
    pub tasks: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct RateInfo {
    pub successes: u64,
    pub n: u64,
    pub value: Option<f64>,
    pub ci95: Option<(f64, f64)>,
}

impl SideInfo {
    fn of(s: &Snapshot) -> SideInfo {
        SideInfo {
            run_id: s.run_id.clone(),
            variant: s.variant.clone(),
            model: s.model.clone(),
            prompt_hash: s.prompt_hash.clone(),
            suite_name: s.suite_name.clone(),
            suite_hash: s.suite_hash.clone(),
            date: s.date.clone(),
            status: s.status.clone(),
            epochs: s.epochs,
            tasks: s.tasks.len(),
        }
    }

    /// `run:variant`.
    pub fn label(&self) -> String {
        format!("{}:{}", self.run_id, self.variant)
    }
}

fn rate_info(s: &Snapshot) -> RateInfo {
    let (successes, n) = s.pass_counts();
    let r = Rate { successes, n };
    RateInfo {
        successes,
        n,
        value: r.value(),
        ci95: r.ci95(),
    }
}

impl SideDiff {
    /// Compares `a` (the reference) with `b`. `history` holds earlier runs of b's suite,
    /// variant and model, for the noise estimates and flaky tasks; it may be empty.
    pub fn new(a: &Snapshot, b: &Snapshot, history: &[Snapshot]) -> SideDiff {
        let mut warnings = Vec::new();
        if a.suite_name != b.suite_name {
            warnings.push(format!(
                "different suites: `{}` vs `{}`",
                a.suite_name, b.suite_name
            ));
        }
        if a.suite_hash != b.suite_hash {
            warnings.push(format!(
                "the suite changed between the runs (content hash {} vs {}): tasks, prompts, \
                 scorers or settings differ",
                short(&a.suite_hash),
                short(&b.suite_hash)
            ));
        }
        if a.prompt_hash != b.prompt_hash {
            warnings.push(format!(
                "different prompts: hash {} vs {}",
                short(&a.prompt_hash),
                short(&b.prompt_hash)
            ));
        }
        if a.model != b.model {
            warnings.push(format!("different models: {} vs {}", a.model, b.model));
        }
        if a.epochs != b.epochs {
            warnings.push(format!("different epochs: {} vs {}", a.epochs, b.epochs));
        }
        if a.errors != b.errors {
            warnings.push("different error policies: the rates count errors differently".into());
        }
        for s in [a, b] {
            if s.status != "completed" {
                warnings.push(format!("run {} is {}, not completed", s.run_id, s.status));
            }
        }
        let only_a: Vec<String> = a
            .tasks
            .keys()
            .filter(|k| !b.tasks.contains_key(*k))
            .cloned()
            .collect();
        let only_b: Vec<String> = b
            .tasks
            .keys()
            .filter(|k| !a.tasks.contains_key(*k))
            .cloned()
            .collect();
        if !only_a.is_empty() || !only_b.is_empty() {
            warnings.push(format!(
                "different task sets: {} only in A, {} only in B (left out of the paired test; \
                 rates, categories and P/R/F1 compared on the common tasks, other metrics not \
                 compared)",
                only_a.len(),
                only_b.len()
            ));
        }

        let varied = |id: &str| {
            let seen: Vec<TaskOutcome> = history
                .iter()
                .filter_map(|h| h.tasks.get(id).map(|t| t.outcome))
                .filter(|o| *o != TaskOutcome::Excluded)
                .collect();
            seen.contains(&TaskOutcome::Pass) && seen.contains(&TaskOutcome::Fail)
        };
        let mut cells = [[0u64; 2]; 2];
        let mut sample_cells = [[0u64; 2]; 2];
        let mut flips = Vec::new();
        for (id, ta) in &a.tasks {
            let Some(tb) = b.tasks.get(id) else { continue };
            for (ea, eb) in ta.epoch_outcomes().zip(tb.epoch_outcomes()) {
                if let (Some(pa), Some(pb)) = (counted(ea, a.errors), counted(eb, b.errors)) {
                    sample_cells[usize::from(!pa)][usize::from(!pb)] += 1;
                }
            }
            if ta.outcome == TaskOutcome::Excluded || tb.outcome == TaskOutcome::Excluded {
                continue;
            }
            let (pa, pb) = (
                ta.outcome == TaskOutcome::Pass,
                tb.outcome == TaskOutcome::Pass,
            );
            cells[usize::from(!pa)][usize::from(!pb)] += 1;
            if pa != pb {
                flips.push(Flip {
                    task_id: id.clone(),
                    variant: b.variant.clone(),
                    kind: if pa {
                        FlipKind::Regression
                    } else {
                        FlipKind::Improvement
                    },
                    category: tb.category.clone().or_else(|| ta.category.clone()),
                    a_reason: ta.reason.clone(),
                    b_reason: tb.reason.clone(),
                    rationale: tb.rationale.clone().or_else(|| ta.rationale.clone()),
                    flaky: ta.is_flaky(a.errors) || tb.is_flaky(b.errors) || varied(id),
                    source: tb.source.clone().or_else(|| ta.source.clone()),
                });
            }
        }
        flips.sort_by(|x, y| {
            (x.kind != FlipKind::Regression, &x.task_id)
                .cmp(&(y.kind != FlipKind::Regression, &y.task_id))
        });
        // b = a-only passes (control), c = b-only passes (treatment): McNemar as in a run.
        let m = mcnemar(cells[0][1], cells[1][0]);
        let (p_value, p_method) = m.quoted(Alternative::TwoSided);

        let same_tasks = only_a.is_empty() && only_b.is_empty();
        let mut names: Vec<&String> = a.metrics.keys().chain(b.metrics.keys()).collect();
        names.sort_by_key(|n| (metric_rank(n), (*n).clone()));
        names.dedup();
        let metrics = names
            .into_iter()
            .filter_map(|n| Metric::parse(n).ok())
            .map(|m| {
                let (mut va, mut vb) = (a.metric(&m), b.metric(&m));
                let mut comparable = true;
                if same_tasks {
                    // Nothing to restrict.
                } else if let (Some(x), Some(y)) = (
                    on_tasks(&m, a, |id| b.tasks.contains_key(id)),
                    on_tasks(&m, b, |id| a.tasks.contains_key(id)),
                ) {
                    (va, vb) = (x, y);
                } else {
                    comparable = false;
                }
                let delta = if comparable {
                    va.zip(vb).map(|(x, y)| y - x)
                } else {
                    None
                };
                let noise = if delta.is_some() {
                    estimate(&m, a, b, history)
                } else {
                    Vec::new()
                };
                MetricDelta {
                    metric: m.name(),
                    a: va,
                    b: vb,
                    delta,
                    higher_is_better: m.higher_is_better(),
                    beyond_noise: delta.and_then(|d| beyond(d, &noise)),
                    noise,
                    comparable,
                }
            })
            .collect();
        SideDiff {
            a: SideInfo::of(a),
            b: SideInfo::of(b),
            warnings,
            only_a,
            only_b,
            rate_a: rate_info(a),
            rate_b: rate_info(b),
            contingency: cells,
            sample_contingency: sample_cells,
            mcnemar: m,
            p_value,
            p_method,
            metrics,
            flips,
        }
    }

    pub fn metric(&self, name: &str) -> Option<&MetricDelta> {
        self.metrics.iter().find(|m| m.metric == name)
    }

    /// Paired tasks.
    pub fn n_pairs(&self) -> u64 {
        self.contingency.iter().flatten().sum()
    }
}

/// Whether an epoch passed, or `None` when the error policy leaves it out.
fn counted(o: verity_model::Outcome, policy: verity_model::ErrorPolicy) -> Option<bool> {
    match o {
        verity_model::Outcome::Pass => Some(true),
        verity_model::Outcome::Fail => Some(false),
        verity_model::Outcome::Error => {
            (policy == verity_model::ErrorPolicy::Fail).then_some(false)
        }
    }
}

/// Report order: the pass rate, P/R/F1, criteria, categories, groups, the rest.
fn metric_rank(name: &str) -> u8 {
    let head = name.split(':').next().unwrap_or(name);
    match head {
        "pass_rate" => 0,
        "precision" | "recall" | "f1" | "macro_f1" => 1,
        "criterion" => 2,
        "category" => 3,
        "group" | "group_mean" => 4,
        _ => 5,
    }
}

/// The first 12 characters of a hash, for messages.
pub fn short(h: &str) -> &str {
    h.get(..12).unwrap_or(h)
}
