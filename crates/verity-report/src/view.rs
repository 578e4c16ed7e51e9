//! [`RunView`]: everything a report shows, computed once from a stored run.
//!
//! The renderers only format what is here, which is what keeps the terminal table, the JSON
//! and the Markdown in agreement: a number is computed in exactly one place.

use std::collections::{BTreeMap, HashMap};

use serde_json::{Map, Value};
use verity_model::{
    ErrorPolicy, Evidence, GroundingSpec, GroupRecord, Outcome, OutcomeRule, ResponseError,
    RunMeta, RunStatus, SampleKey, SampleRecord, Score, ScoreStatus,
};
use verity_stats::{Alternative, McNemar, PMethod, Prf, WILSON_Z95, mcnemar, prf, wilson};

/// The category bucket for tasks without one.
pub const NO_CATEGORY: &str = "(none)";

/// The metric names a score carries when it measures precision / recall.
const PRF_METRICS: [&str; 3] = ["tp", "fp", "fn"];

/// `successes` out of `n`, where `n` already reflects the error policy.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rate {
    pub successes: u64,
    pub n: u64,
}

impl Rate {
    /// The pass rate, or `None` when nothing was counted (never NaN).
    pub fn value(&self) -> Option<f64> {
        (self.n > 0).then(|| self.successes as f64 / self.n as f64)
    }

    /// The Wilson 95 % interval, or `None` when nothing was counted.
    pub fn ci95(&self) -> Option<(f64, f64)> {
        (self.n > 0).then(|| wilson(self.successes, self.n, WILSON_Z95))
    }
}

/// Outcome counts over samples.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OutcomeCounts {
    pub pass: u64,
    pub fail: u64,
    pub error: u64,
}

impl OutcomeCounts {
    fn add(&mut self, o: Outcome) {
        match o {
            Outcome::Pass => self.pass += 1,
            Outcome::Fail => self.fail += 1,
            Outcome::Error => self.error += 1,
        }
    }

    /// The pass rate under `policy`: with `fail`, errors are failures (they stay in the
    /// denominator); with `exclude`, they are left out.
    pub fn rate(&self, policy: ErrorPolicy) -> Rate {
        let n = match policy {
            ErrorPolicy::Fail => self.pass + self.fail + self.error,
            ErrorPolicy::Exclude => self.pass + self.fail,
        };
        Rate {
            successes: self.pass,
            n,
        }
    }

    pub fn total(&self) -> u64 {
        self.pass + self.fail + self.error
    }
}

/// Verdict counts of one criterion.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StatusCounts {
    pub pass: u64,
    pub fail: u64,
    pub not_applicable: u64,
    pub error: u64,
}

impl StatusCounts {
    fn add(&mut self, s: ScoreStatus) {
        match s {
            ScoreStatus::Pass => self.pass += 1,
            ScoreStatus::Fail => self.fail += 1,
            ScoreStatus::NotApplicable => self.not_applicable += 1,
            ScoreStatus::Error => self.error += 1,
        }
    }

    /// The pass rate under `policy`. `not_applicable` never counts; a scorer error counts as a
    /// failure under `fail` and is left out under `exclude`, as for outcomes.
    pub fn rate(&self, policy: ErrorPolicy) -> Rate {
        let n = match policy {
            ErrorPolicy::Fail => self.pass + self.fail + self.error,
            ErrorPolicy::Exclude => self.pass + self.fail,
        };
        Rate {
            successes: self.pass,
            n,
        }
    }
}

/// The run header.
#[derive(Clone, Debug, PartialEq)]
pub struct Header {
    pub run_id: String,
    pub suite_name: String,
    pub suite_path: String,
    pub suite_description: Option<String>,
    /// BLAKE3 over the suite's files.
    pub suite_hash: String,
    pub status: RunStatus,
    pub started_at: String,
    pub finished_at: Option<String>,
    /// `finished_at - started_at`, when both parse as RFC 3339 and are in order.
    pub duration_ms: Option<u64>,
    pub verity_version: String,
    pub scoring: u32,
    /// Stored samples.
    pub samples_completed: u64,
    /// Samples the run scheduled.
    pub samples_total: u64,
    pub epochs: u32,
    pub outcome: OutcomeRule,
}

/// One variant as the run used it.
#[derive(Clone, Debug, PartialEq)]
pub struct VariantInfo {
    pub name: String,
    /// `provider/model`.
    pub model: String,
    /// BLAKE3 of the prompt template(s); `-` without one.
    pub prompt_hash: String,
    pub grounding: Option<GroundingSpec>,
    /// False for a variant that only appears in the samples (not in the stored suite).
    pub in_suite: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Latency {
    pub mean_ms: Option<f64>,
    /// Nearest-rank percentiles.
    pub p50_ms: Option<u64>,
    pub p95_ms: Option<u64>,
}

/// Per-variant totals.
#[derive(Clone, Debug, PartialEq)]
pub struct VariantSummary {
    pub variant: String,
    /// Stored samples.
    pub samples: u64,
    /// Samples the suite asks for: tasks × epochs.
    pub expected: u64,
    pub counts: OutcomeCounts,
    /// Under the run's error policy.
    pub rate: Rate,
    /// Over every stored sample of the variant, errored ones included.
    pub latency: Latency,
    pub tokens_in: u64,
    pub tokens_out: u64,
    pub cache_hits: u64,
}

/// One `(scorer, criterion)` across variants.
#[derive(Clone, Debug, PartialEq)]
pub struct CriterionSummary {
    /// The name reports use: the criterion, or `scorer/criterion` when two scorers report a
    /// criterion of the same name.
    pub key: String,
    pub scorer: String,
    pub criterion: String,
    /// Whether the outcome rule looks at this criterion.
    pub in_outcome: bool,
    /// One entry per variant, in variant order.
    pub per_variant: Vec<(String, StatusCounts)>,
}

/// One task category across variants.
#[derive(Clone, Debug, PartialEq)]
pub struct CategorySummary {
    /// The category, or [`NO_CATEGORY`].
    pub category: String,
    /// Tasks of the category in the suite.
    pub tasks: u64,
    pub per_variant: Vec<(String, OutcomeCounts)>,
}

/// Precision / recall / F1 of one variant for one counting criterion.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PrfCounts {
    /// Samples whose score carried counts.
    pub samples: u64,
    pub tp: f64,
    pub fp: f64,
    pub fn_: f64,
    /// Micro: from the summed counts; `None` when no sample carried counts.
    pub micro: Option<Prf>,
    /// The mean of the per-sample F1 values; `None` when no sample carried counts.
    pub macro_f1: Option<f64>,
}

/// One counting `(scorer, criterion)` across variants.
#[derive(Clone, Debug, PartialEq)]
pub struct PrfSummary {
    pub key: String,
    pub scorer: String,
    pub criterion: String,
    pub per_variant: Vec<(String, PrfCounts)>,
}

/// Group verdict counts of one variant.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct GroupCounts {
    pub groups: u64,
    pub status: StatusCounts,
    /// Mean of the finite `value`s, when any score had one.
    pub mean_value: Option<f64>,
}

/// One group `(scope, scorer, criterion)` across variants.
#[derive(Clone, Debug, PartialEq)]
pub struct GroupSummary {
    /// `epochs` or `group:<metadata key>`.
    pub scope: String,
    pub scorer: String,
    pub criterion: String,
    pub per_variant: Vec<(String, GroupCounts)>,
}

/// A failing or errored group verdict.
#[derive(Clone, Debug, PartialEq)]
pub struct GroupFailure {
    pub variant: String,
    pub scope: String,
    pub group: String,
    pub task_ids: Vec<String>,
    pub score: Score,
}

/// A task's outcome under one variant, over its stored epochs: pass iff every counted epoch
/// passed. Under the `fail` policy an errored epoch counts (and fails the task); under
/// `exclude` errored epochs are dropped, and a task with nothing left is `Excluded`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TaskOutcome {
    Pass,
    Fail,
    Excluded,
}

impl TaskOutcome {
    pub fn as_str(self) -> &'static str {
        match self {
            TaskOutcome::Pass => "pass",
            TaskOutcome::Fail => "fail",
            TaskOutcome::Excluded => "excluded",
        }
    }
}

/// One task under one variant.
#[derive(Clone, Debug, PartialEq)]
pub struct TaskVariant {
    pub variant: String,
    pub outcome: TaskOutcome,
    /// The stored epochs, in epoch order.
    pub epochs: Vec<SampleRecord>,
}

/// One task with every variant's samples.
#[derive(Clone, Debug, PartialEq)]
pub struct TaskView {
    pub id: String,
    /// The prompt text (the last user message for chat inputs); empty for a task that is not
    /// in the stored suite.
    pub prompt: String,
    pub category: Option<String>,
    pub metadata: Map<String, Value>,
    pub in_suite: bool,
    /// Variants with at least one stored sample, in variant order.
    pub variants: Vec<TaskVariant>,
}

impl TaskView {
    pub fn variant(&self, name: &str) -> Option<&TaskVariant> {
        self.variants.iter().find(|v| v.variant == name)
    }

    /// Whether any stored sample of the task failed or errored.
    pub fn has_failure(&self) -> bool {
        self.variants
            .iter()
            .flat_map(|v| &v.epochs)
            .any(|s| s.outcome != Outcome::Pass)
    }
}

/// Which arm of a comparison passed a discordant task.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Winner {
    Treatment,
    Control,
}

impl Winner {
    pub fn as_str(self) -> &'static str {
        match self {
            Winner::Treatment => "treatment",
            Winner::Control => "control",
        }
    }
}

/// A task the two arms disagree on.
#[derive(Clone, Debug, PartialEq)]
pub struct Discordant {
    pub task_id: String,
    pub winner: Winner,
    /// The variant that failed the task.
    pub failing_variant: String,
    /// The first failing epoch of the failing side.
    pub failing_epoch: u32,
    /// Keys of the criteria that failed (or errored) in that epoch.
    pub failing_criteria: Vec<String>,
    /// One line: the failing criteria and the first explanation / evidence, or the error.
    pub reason: String,
}

/// One paired comparison.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    pub test: String,
    pub treatment: String,
    pub control: String,
    /// As declared (`two-sided` for an implicit comparison).
    pub alternative: String,
    /// False for the implicit comparison of a two-variant run without `[[compare]]`.
    pub declared: bool,
    /// `[[a, b], [c, d]]`: rows control pass / fail, columns treatment pass / fail.
    pub contingency: [[u64; 2]; 2],
    /// Tasks left out: missing from an arm, or excluded by the error policy.
    pub unpaired: Vec<String>,
    /// `None` when the test is not one verity implements.
    pub mcnemar: Option<McNemar>,
    /// The p-value to quote for `alternative`, and how it was computed.
    pub quoted: Option<(f64, PMethod)>,
    /// Discordant tasks in task order.
    pub discordant: Vec<Discordant>,
    /// Why the comparison is incomplete (an unknown test, a variant that did not run…).
    pub notes: Vec<String>,
}

impl Comparison {
    /// Paired tasks: a + b + c + d.
    pub fn n_pairs(&self) -> u64 {
        self.contingency.iter().flatten().sum()
    }
}

/// A failing criterion of a sample.
#[derive(Clone, Debug, PartialEq)]
pub struct FailedCriterion {
    pub key: String,
    pub score: Score,
}

/// A sample whose outcome is `fail` or `error`.
#[derive(Clone, Debug, PartialEq)]
pub struct Failure {
    pub key: SampleKey,
    pub outcome: Outcome,
    /// Set when the provider gave no answer.
    pub error: Option<ResponseError>,
    /// Scores with status `fail` or `error`, in the order the scorers reported them.
    pub criteria: Vec<FailedCriterion>,
}

/// Everything a report shows about one run, computed once.
#[derive(Clone, Debug, PartialEq)]
pub struct RunView {
    pub header: Header,
    pub variants: Vec<VariantInfo>,
    pub per_variant: Vec<VariantSummary>,
    pub per_criterion: Vec<CriterionSummary>,
    pub per_category: Vec<CategorySummary>,
    pub prf: Vec<PrfSummary>,
    pub groups: Vec<GroupSummary>,
    pub group_failures: Vec<GroupFailure>,
    pub comparisons: Vec<Comparison>,
    /// Suite tasks in suite order, then tasks known only from samples, by id.
    pub tasks: Vec<TaskView>,
    /// Failing and errored samples in task, variant, epoch order.
    pub failures: Vec<Failure>,
    /// Things a reader should know about the data (unknown tasks, an unfinished run…).
    pub notes: Vec<String>,
}

impl RunView {
    /// Computes every summary of a stored run.
    pub fn new(meta: &RunMeta, samples: &[SampleRecord], groups: &[GroupRecord]) -> RunView {
        Builder::new(meta, samples, groups).build()
    }

    pub fn error_policy(&self) -> ErrorPolicy {
        self.header.outcome.errors
    }

    /// The task with this id.
    pub fn task(&self, id: &str) -> Option<&TaskView> {
        // Tasks are in suite order, not sorted: a binary search does not apply, and the table
        // calls this once per listed failure (at most `max_failures`), so a scan is fine here.
        self.tasks.iter().find(|t| t.id == id)
    }
}

/// Formats where an evidence item points: `file:line:col`, `line:col` or `line`.
pub fn evidence_location(e: &Evidence) -> Option<String> {
    let pos = match (e.line, e.column) {
        (Some(l), Some(c)) => Some(format!("{l}:{c}")),
        (Some(l), None) => Some(l.to_string()),
        _ => None,
    };
    match (&e.file, pos) {
        (Some(f), Some(p)) => Some(format!("{f}:{p}")),
        (Some(f), None) => Some(f.clone()),
        (None, p) => p,
    }
}

/// A score's explanation, else its first evidence message, with the first evidence location.
pub fn score_detail(s: &Score) -> Option<String> {
    let first = s.evidence.first();
    let text = s
        .explanation
        .clone()
        .filter(|e| !e.trim().is_empty())
        .or_else(|| {
            first
                .map(|e| e.message.clone())
                .filter(|m| !m.trim().is_empty())
        });
    let loc = first.and_then(evidence_location);
    match (text, loc) {
        (Some(t), Some(l)) => Some(format!("{} (at {l})", one_line(&t))),
        (Some(t), None) => Some(one_line(&t)),
        (None, Some(l)) => Some(format!("at {l}")),
        (None, None) => None,
    }
}

/// A score's explanation and its first evidence (message and location), on one line:
/// `explanation — evidence (at 3:9)`. Empty when the score has neither.
pub fn full_detail(s: &Score) -> String {
    let mut parts = Vec::new();
    if let Some(e) = s
        .explanation
        .as_deref()
        .map(one_line)
        .filter(|e| !e.is_empty())
    {
        parts.push(e);
    }
    if let Some(ev) = s.evidence.first() {
        let msg = one_line(&ev.message);
        match (msg.is_empty(), evidence_location(ev)) {
            (false, Some(l)) => parts.push(format!("{msg} (at {l})")),
            (false, None) => parts.push(msg),
            (true, Some(l)) => parts.push(format!("at {l}")),
            (true, None) => {}
        }
    }
    parts.join(" — ")
}

/// Collapses every run of whitespace (newlines included) into one space.
pub fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

struct Builder<'a> {
    meta: &'a RunMeta,
    /// Suite tasks by id (a run may hold tens of thousands: never scan for one).
    suite_tasks: HashMap<&'a str, &'a verity_model::Task>,
    samples: Vec<&'a SampleRecord>,
    groups: &'a [GroupRecord],
    variant_names: Vec<String>,
    task_ids: Vec<String>,
    /// `(scorer, criterion)` -> report key.
    keys: HashMap<(String, String), String>,
    /// `(scorer, criterion)` in first-appearance order.
    criteria: Vec<(String, String)>,
    /// Task id -> category, for suite tasks that have one.
    categories: HashMap<String, String>,
    notes: Vec<String>,
}

impl<'a> Builder<'a> {
    fn new(meta: &'a RunMeta, samples: &'a [SampleRecord], groups: &'a [GroupRecord]) -> Self {
        let suite = &meta.suite;
        let mut notes = Vec::new();
        let suite_tasks: HashMap<&str, &verity_model::Task> =
            suite.tasks.iter().map(|t| (t.id.as_str(), t)).collect();

        // Variants: the ones the run was asked for (else the suite's), then strays from the
        // samples and groups.
        let mut variant_names: Vec<String> = if meta.options.variants.is_empty() {
            suite.variants.iter().map(|v| v.name.clone()).collect()
        } else {
            meta.options.variants.clone()
        };
        let mut stray_variants: Vec<String> = samples
            .iter()
            .map(|s| &s.key.variant)
            .chain(groups.iter().map(|g| &g.variant))
            .filter(|v| !variant_names.contains(v))
            .cloned()
            .collect();
        stray_variants.sort();
        stray_variants.dedup();
        if !stray_variants.is_empty() {
            notes.push(format!(
                "results for variants not in the run's variant list: {}",
                stray_variants.join(", ")
            ));
        }
        variant_names.extend(stray_variants);

        let mut task_ids: Vec<String> = suite.tasks.iter().map(|t| t.id.clone()).collect();
        let mut stray_tasks: Vec<String> = samples
            .iter()
            .map(|s| &s.key.task_id)
            .filter(|t| !suite_tasks.contains_key(t.as_str()))
            .cloned()
            .collect();
        stray_tasks.sort();
        stray_tasks.dedup();
        if !stray_tasks.is_empty() {
            notes.push(format!(
                "samples for tasks not in the stored suite: {}",
                stray_tasks.join(", ")
            ));
        }
        task_ids.extend(stray_tasks);

        // Canonical sample order: task, variant, epoch.
        let task_pos: HashMap<&str, usize> = task_ids
            .iter()
            .enumerate()
            .map(|(i, t)| (t.as_str(), i))
            .collect();
        let variant_pos: HashMap<&str, usize> = variant_names
            .iter()
            .enumerate()
            .map(|(i, v)| (v.as_str(), i))
            .collect();
        let mut sorted: Vec<&SampleRecord> = samples.iter().collect();
        sorted.sort_by_key(|s| {
            (
                task_pos
                    .get(s.key.task_id.as_str())
                    .copied()
                    .unwrap_or(usize::MAX),
                variant_pos
                    .get(s.key.variant.as_str())
                    .copied()
                    .unwrap_or(usize::MAX),
                s.key.epoch,
            )
        });

        // Criteria in first-appearance order; keys disambiguated when two scorers share a name.
        let mut criteria: Vec<(String, String)> = Vec::new();
        for s in &sorted {
            for sc in &s.scores {
                let pair = (sc.scorer.clone(), sc.criterion.clone());
                if !criteria.contains(&pair) {
                    criteria.push(pair);
                }
            }
        }
        let mut by_name: BTreeMap<&str, usize> = BTreeMap::new();
        for (_, c) in &criteria {
            *by_name.entry(c.as_str()).or_default() += 1;
        }
        let keys = criteria
            .iter()
            .map(|(s, c)| {
                let key = if by_name[c.as_str()] > 1 {
                    format!("{s}/{c}")
                } else {
                    c.clone()
                };
                ((s.clone(), c.clone()), key)
            })
            .collect();

        if meta.status != RunStatus::Completed {
            notes.push(format!(
                "the run is {}: {} of {} samples are stored and every figure covers stored \
                 samples only",
                meta.status.as_str(),
                samples.len(),
                meta.total_samples
            ));
        }

        Builder {
            meta,
            suite_tasks,
            samples: sorted,
            groups,
            variant_names,
            task_ids,
            keys,
            criteria,
            categories: suite
                .tasks
                .iter()
                .filter_map(|t| Some((t.id.clone(), t.category.clone()?)))
                .collect(),
            notes,
        }
    }

    fn policy(&self) -> ErrorPolicy {
        self.meta.suite.outcome.errors
    }

    fn key(&self, scorer: &str, criterion: &str) -> String {
        self.keys
            .get(&(scorer.to_owned(), criterion.to_owned()))
            .cloned()
            .unwrap_or_else(|| criterion.to_owned())
    }

    fn of_variant<'s>(&'s self, v: &'s str) -> impl Iterator<Item = &'a SampleRecord> + 's {
        self.samples
            .iter()
            .copied()
            .filter(move |s| s.key.variant == v)
    }

    fn build(mut self) -> RunView {
        let header = self.header();
        let variants = self.variant_infos();
        let per_variant = self.per_variant();
        let per_criterion = self.per_criterion();
        let per_category = self.per_category();
        let prf = self.prf();
        let (groups, group_failures) = self.groups();
        let tasks = self.tasks();
        let comparisons = self.comparisons(&tasks);
        let failures = self.failures();
        for c in &comparisons {
            self.notes.extend(c.notes.iter().cloned());
        }
        RunView {
            header,
            variants,
            per_variant,
            per_criterion,
            per_category,
            prf,
            groups,
            group_failures,
            comparisons,
            tasks,
            failures,
            notes: self.notes,
        }
    }

    fn header(&self) -> Header {
        let m = self.meta;
        Header {
            run_id: m.id.clone(),
            suite_name: m.suite.name.clone(),
            suite_path: m.suite_path.clone(),
            suite_description: m.suite.description.clone(),
            suite_hash: m.suite.content_hash.clone(),
            status: m.status,
            started_at: m.started_at.clone(),
            finished_at: m.finished_at.clone(),
            duration_ms: m
                .finished_at
                .as_deref()
                .and_then(|f| duration_ms(&m.started_at, f)),
            verity_version: m.verity_version.clone(),
            scoring: m.scoring,
            samples_completed: self.samples.len() as u64,
            samples_total: m.total_samples,
            epochs: m.suite.epochs,
            outcome: m.suite.outcome.clone(),
        }
    }

    fn variant_infos(&self) -> Vec<VariantInfo> {
        self.variant_names
            .iter()
            .map(|name| {
                let v = self.meta.suite.variant(name);
                VariantInfo {
                    name: name.clone(),
                    model: self
                        .meta
                        .models
                        .get(name)
                        .cloned()
                        .or_else(|| v.map(|v| v.provider.display_id()))
                        .unwrap_or_else(|| "-".into()),
                    prompt_hash: self
                        .meta
                        .prompt_hashes
                        .get(name)
                        .cloned()
                        .or_else(|| v.and_then(|v| v.prompt.as_ref()).map(|p| p.hash.clone()))
                        .unwrap_or_else(|| "-".into()),
                    grounding: v.and_then(|v| v.grounding.clone()),
                    in_suite: v.is_some(),
                }
            })
            .collect()
    }

    fn per_variant(&self) -> Vec<VariantSummary> {
        let expected = self.meta.suite.tasks.len() as u64 * u64::from(self.meta.suite.epochs);
        self.variant_names
            .iter()
            .map(|v| {
                let mut counts = OutcomeCounts::default();
                let mut latencies = Vec::new();
                let (mut tin, mut tout, mut hits) = (0u64, 0u64, 0u64);
                for s in self.of_variant(v) {
                    counts.add(s.outcome);
                    latencies.push(s.response.latency_ms);
                    tin = tin.saturating_add(s.response.usage.input_tokens);
                    tout = tout.saturating_add(s.response.usage.output_tokens);
                    hits += u64::from(s.response.cache_hit);
                }
                latencies.sort_unstable();
                let latency = Latency {
                    mean_ms: (!latencies.is_empty()).then(|| {
                        latencies.iter().map(|&l| l as f64).sum::<f64>() / latencies.len() as f64
                    }),
                    p50_ms: nearest_rank(&latencies, 0.50),
                    p95_ms: nearest_rank(&latencies, 0.95),
                };
                VariantSummary {
                    variant: v.clone(),
                    samples: counts.total(),
                    expected,
                    counts,
                    rate: counts.rate(self.policy()),
                    latency,
                    tokens_in: tin,
                    tokens_out: tout,
                    cache_hits: hits,
                }
            })
            .collect()
    }

    fn per_criterion(&self) -> Vec<CriterionSummary> {
        let rule = &self.meta.suite.outcome;
        self.criteria
            .iter()
            .map(|(scorer, criterion)| {
                let per_variant = self
                    .variant_names
                    .iter()
                    .map(|v| {
                        let mut c = StatusCounts::default();
                        for s in self.of_variant(v) {
                            for sc in &s.scores {
                                if &sc.scorer == scorer && &sc.criterion == criterion {
                                    c.add(sc.status);
                                }
                            }
                        }
                        (v.clone(), c)
                    })
                    .collect();
                CriterionSummary {
                    key: self.key(scorer, criterion),
                    scorer: scorer.clone(),
                    criterion: criterion.clone(),
                    in_outcome: rule.counts(criterion),
                    per_variant,
                }
            })
            .collect()
    }

    fn category_of(&self, task_id: &str) -> String {
        self.categories
            .get(task_id)
            .cloned()
            .unwrap_or_else(|| NO_CATEGORY.to_owned())
    }

    fn per_category(&self) -> Vec<CategorySummary> {
        let mut cats: BTreeMap<String, u64> = BTreeMap::new();
        for id in &self.task_ids {
            let in_suite = u64::from(self.suite_tasks.contains_key(id.as_str()));
            *cats.entry(self.category_of(id)).or_default() += in_suite;
        }
        // Alphabetical, with the no-category bucket last.
        let mut order: Vec<(String, u64)> = cats.into_iter().collect();
        order.sort_by_key(|(c, _)| (c == NO_CATEGORY, c.clone()));
        order
            .into_iter()
            .map(|(category, tasks)| {
                let per_variant = self
                    .variant_names
                    .iter()
                    .map(|v| {
                        let mut c = OutcomeCounts::default();
                        for s in self.of_variant(v) {
                            if self.category_of(&s.key.task_id) == category {
                                c.add(s.outcome);
                            }
                        }
                        (v.clone(), c)
                    })
                    .collect();
                CategorySummary {
                    category,
                    tasks,
                    per_variant,
                }
            })
            .collect()
    }

    fn prf(&self) -> Vec<PrfSummary> {
        let carries = |sc: &Score| PRF_METRICS.iter().any(|m| sc.metrics.contains_key(*m));
        let counting: Vec<&(String, String)> = self
            .criteria
            .iter()
            .filter(|(scorer, criterion)| {
                self.samples
                    .iter()
                    .flat_map(|s| &s.scores)
                    .any(|sc| &sc.scorer == scorer && &sc.criterion == criterion && carries(sc))
            })
            .collect();
        counting
            .into_iter()
            .map(|(scorer, criterion)| {
                let per_variant = self
                    .variant_names
                    .iter()
                    .map(|v| {
                        let (mut tp, mut fp, mut fn_) = (0.0, 0.0, 0.0);
                        let mut f1s = Vec::new();
                        for s in self.of_variant(v) {
                            let mut found = false;
                            let (mut stp, mut sfp, mut sfn) = (0.0, 0.0, 0.0);
                            for sc in &s.scores {
                                if &sc.scorer == scorer && &sc.criterion == criterion && carries(sc)
                                {
                                    found = true;
                                    stp += metric(sc, "tp");
                                    sfp += metric(sc, "fp");
                                    sfn += metric(sc, "fn");
                                }
                            }
                            if found {
                                tp += stp;
                                fp += sfp;
                                fn_ += sfn;
                                f1s.push(prf(stp, sfp, sfn).f1);
                            }
                        }
                        let samples = f1s.len() as u64;
                        let counts = PrfCounts {
                            samples,
                            tp,
                            fp,
                            fn_,
                            micro: (samples > 0).then(|| prf(tp, fp, fn_)),
                            macro_f1: (samples > 0)
                                .then(|| f1s.iter().sum::<f64>() / samples as f64),
                        };
                        (v.clone(), counts)
                    })
                    .collect();
                PrfSummary {
                    key: self.key(scorer, criterion),
                    scorer: scorer.clone(),
                    criterion: criterion.clone(),
                    per_variant,
                }
            })
            .collect()
    }

    fn groups(&self) -> (Vec<GroupSummary>, Vec<GroupFailure>) {
        let mut keys: Vec<(String, String, String)> = Vec::new();
        for g in self.groups {
            for sc in &g.scores {
                let k = (g.scope.clone(), sc.scorer.clone(), sc.criterion.clone());
                if !keys.contains(&k) {
                    keys.push(k);
                }
            }
        }
        let summaries = keys
            .into_iter()
            .map(|(scope, scorer, criterion)| {
                let per_variant = self
                    .variant_names
                    .iter()
                    .map(|v| {
                        let mut c = GroupCounts::default();
                        let mut values = Vec::new();
                        for g in self
                            .groups
                            .iter()
                            .filter(|g| &g.variant == v && g.scope == scope)
                        {
                            let mut seen = false;
                            for sc in &g.scores {
                                if sc.scorer == scorer && sc.criterion == criterion {
                                    seen = true;
                                    c.status.add(sc.status);
                                    values.extend(sc.value.filter(|x| x.is_finite()));
                                }
                            }
                            c.groups += u64::from(seen);
                        }
                        c.mean_value = (!values.is_empty())
                            .then(|| values.iter().sum::<f64>() / values.len() as f64);
                        (v.clone(), c)
                    })
                    .collect();
                GroupSummary {
                    scope,
                    scorer,
                    criterion,
                    per_variant,
                }
            })
            .collect();
        let variant_pos = |v: &str| self.variant_names.iter().position(|n| n == v);
        let mut failing: Vec<&GroupRecord> = self.groups.iter().collect();
        failing.sort_by_key(|g| (variant_pos(&g.variant), g.scope.clone(), g.group.clone()));
        let failures = failing
            .into_iter()
            .flat_map(|g| {
                g.scores
                    .iter()
                    .filter(|s| matches!(s.status, ScoreStatus::Fail | ScoreStatus::Error))
                    .map(move |s| GroupFailure {
                        variant: g.variant.clone(),
                        scope: g.scope.clone(),
                        group: g.group.clone(),
                        task_ids: g.task_ids.clone(),
                        score: s.clone(),
                    })
            })
            .collect();
        (summaries, failures)
    }

    fn tasks(&self) -> Vec<TaskView> {
        let policy = self.policy();
        // Samples are in canonical order, so each bucket is in epoch order.
        let mut by_pair: HashMap<(&str, &str), Vec<&SampleRecord>> = HashMap::new();
        for s in &self.samples {
            by_pair
                .entry((s.key.task_id.as_str(), s.key.variant.as_str()))
                .or_default()
                .push(s);
        }
        self.task_ids
            .iter()
            .map(|id| {
                let task = self.suite_tasks.get(id.as_str()).copied();
                let variants = self
                    .variant_names
                    .iter()
                    .filter_map(|v| {
                        let epochs: Vec<SampleRecord> = by_pair
                            .get(&(id.as_str(), v.as_str()))?
                            .iter()
                            .map(|s| (*s).clone())
                            .collect();
                        let outcome = task_outcome(&epochs, policy);
                        Some(TaskVariant {
                            variant: v.clone(),
                            outcome,
                            epochs,
                        })
                    })
                    .collect();
                TaskView {
                    id: id.clone(),
                    prompt: task
                        .map(|t| t.input.prompt_text().to_owned())
                        .unwrap_or_default(),
                    category: task.and_then(|t| t.category.clone()),
                    metadata: task.map(|t| t.metadata.clone()).unwrap_or_default(),
                    in_suite: task.is_some(),
                    variants,
                }
            })
            .collect()
    }

    fn comparisons(&self, tasks: &[TaskView]) -> Vec<Comparison> {
        let specs: Vec<(String, String, String, String, bool)> =
            if self.meta.suite.compare.is_empty() {
                if self.variant_names.len() == 2 {
                    // Implicit: the second variant against the first (the baseline), two-sided.
                    vec![(
                        "mcnemar".into(),
                        self.variant_names[1].clone(),
                        self.variant_names[0].clone(),
                        "two-sided".into(),
                        false,
                    )]
                } else {
                    Vec::new()
                }
            } else {
                self.meta
                    .suite
                    .compare
                    .iter()
                    .map(|c| {
                        let [t, ctl] = c.pair.clone();
                        (c.test.clone(), t, ctl, c.alternative.clone(), true)
                    })
                    .collect()
            };
        specs
            .into_iter()
            .map(|(test, treatment, control, alternative, declared)| {
                self.compare(tasks, test, treatment, control, alternative, declared)
            })
            .collect()
    }

    fn compare(
        &self,
        tasks: &[TaskView],
        test: String,
        treatment: String,
        control: String,
        alternative: String,
        declared: bool,
    ) -> Comparison {
        let policy = self.policy();
        let label = format!("comparison {treatment} vs {control}");
        let mut notes = Vec::new();
        for v in [&treatment, &control] {
            if !self.variant_names.contains(v) {
                notes.push(format!("{label}: variant `{v}` is not part of this run"));
            }
        }
        let alt = Alternative::parse(&alternative).unwrap_or_else(|| {
            notes.push(format!(
                "{label}: unknown alternative `{alternative}`; treated as two-sided"
            ));
            Alternative::TwoSided
        });
        let mut cells = [[0u64; 2]; 2];
        let mut unpaired = Vec::new();
        let mut discordant = Vec::new();
        for t in tasks {
            let (tv, cv) = (t.variant(&treatment), t.variant(&control));
            let (Some(tv), Some(cv)) = (tv, cv) else {
                unpaired.push(t.id.clone());
                continue;
            };
            if tv.outcome == TaskOutcome::Excluded || cv.outcome == TaskOutcome::Excluded {
                unpaired.push(t.id.clone());
                continue;
            }
            let tp = tv.outcome == TaskOutcome::Pass;
            let cp = cv.outcome == TaskOutcome::Pass;
            cells[usize::from(!cp)][usize::from(!tp)] += 1;
            let loser = match (cp, tp) {
                (true, false) => Some((Winner::Control, tv)),
                (false, true) => Some((Winner::Treatment, cv)),
                _ => None,
            };
            if let Some((winner, side)) = loser {
                let failing = side
                    .epochs
                    .iter()
                    .find(|s| counts_as_failure(s, policy))
                    .or_else(|| side.epochs.first());
                if let Some(s) = failing {
                    discordant.push(Discordant {
                        task_id: t.id.clone(),
                        winner,
                        failing_variant: side.variant.clone(),
                        failing_epoch: s.key.epoch,
                        failing_criteria: self.failing_keys(s),
                        reason: self.sample_reason(s),
                    });
                }
            }
        }
        let (mc, quoted) = if test == "mcnemar" {
            let m = mcnemar(cells[0][1], cells[1][0]);
            (Some(m), Some(m.quoted(alt)))
        } else {
            notes.push(format!(
                "{label}: test `{test}` is not implemented (only `mcnemar` is); the contingency \
                 table is shown without a test"
            ));
            (None, None)
        };
        Comparison {
            test,
            treatment,
            control,
            alternative,
            declared,
            contingency: cells,
            unpaired,
            mcnemar: mc,
            quoted,
            discordant,
            notes,
        }
    }

    fn failing_keys(&self, s: &SampleRecord) -> Vec<String> {
        s.scores
            .iter()
            .filter(|sc| matches!(sc.status, ScoreStatus::Fail | ScoreStatus::Error))
            .map(|sc| self.key(&sc.scorer, &sc.criterion))
            .collect()
    }

    /// One line saying why a sample did not pass.
    fn sample_reason(&self, s: &SampleRecord) -> String {
        if let Some(e) = &s.response.error {
            return format!("error {}: {}", e.kind, one_line(&e.message));
        }
        let failing: Vec<&Score> = s
            .scores
            .iter()
            .filter(|sc| matches!(sc.status, ScoreStatus::Fail | ScoreStatus::Error))
            .collect();
        if failing.is_empty() {
            return match s.outcome {
                Outcome::Pass => "passed".into(),
                _ => "no outcome criterion applied".into(),
            };
        }
        let names: Vec<String> = failing
            .iter()
            .map(|sc| {
                let k = self.key(&sc.scorer, &sc.criterion);
                if sc.status == ScoreStatus::Error {
                    format!("{k} (scorer error)")
                } else {
                    k
                }
            })
            .collect();
        match failing.iter().find_map(|sc| score_detail(sc)) {
            Some(d) => format!("{}: {d}", names.join(", ")),
            None => names.join(", "),
        }
    }

    fn failures(&self) -> Vec<Failure> {
        self.samples
            .iter()
            .filter(|s| s.outcome != Outcome::Pass)
            .map(|s| Failure {
                key: s.key.clone(),
                outcome: s.outcome,
                error: s.response.error.clone(),
                criteria: s
                    .scores
                    .iter()
                    .filter(|sc| matches!(sc.status, ScoreStatus::Fail | ScoreStatus::Error))
                    .map(|sc| FailedCriterion {
                        key: self.key(&sc.scorer, &sc.criterion),
                        score: sc.clone(),
                    })
                    .collect(),
            })
            .collect()
    }
}

/// Whether a sample makes its task fail under `policy`.
fn counts_as_failure(s: &SampleRecord, policy: ErrorPolicy) -> bool {
    match s.outcome {
        Outcome::Pass => false,
        Outcome::Fail => true,
        Outcome::Error => policy == ErrorPolicy::Fail,
    }
}

/// A task's outcome under one variant; see [`TaskOutcome`].
fn task_outcome(epochs: &[SampleRecord], policy: ErrorPolicy) -> TaskOutcome {
    let counted: Vec<&SampleRecord> = epochs
        .iter()
        .filter(|s| !(policy == ErrorPolicy::Exclude && s.outcome == Outcome::Error))
        .collect();
    if counted.is_empty() {
        TaskOutcome::Excluded
    } else if counted.iter().all(|s| s.outcome == Outcome::Pass) {
        TaskOutcome::Pass
    } else {
        TaskOutcome::Fail
    }
}

/// A `tp` / `fp` / `fn` metric; missing, negative or non-finite values count as 0.
fn metric(s: &Score, name: &str) -> f64 {
    s.metrics
        .get(name)
        .copied()
        .filter(|v| v.is_finite() && *v > 0.0)
        .unwrap_or(0.0)
}

/// The nearest-rank percentile of sorted values: the smallest value with at least `q` of the
/// data at or below it.
fn nearest_rank(sorted: &[u64], q: f64) -> Option<u64> {
    if sorted.is_empty() {
        return None;
    }
    let rank = (q * sorted.len() as f64).ceil() as usize;
    Some(sorted[rank.clamp(1, sorted.len()) - 1])
}

/// Milliseconds between two RFC 3339 timestamps, when both parse and `end >= start`.
fn duration_ms(start: &str, end: &str) -> Option<u64> {
    let s: jiff::Timestamp = start.parse().ok()?;
    let e: jiff::Timestamp = end.parse().ok()?;
    u64::try_from(e.as_millisecond() - s.as_millisecond()).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_percentiles() {
        assert_eq!(nearest_rank(&[], 0.5), None);
        assert_eq!(nearest_rank(&[7], 0.95), Some(7));
        let v: Vec<u64> = (1..=20).collect();
        assert_eq!(nearest_rank(&v, 0.50), Some(10));
        assert_eq!(nearest_rank(&v, 0.95), Some(19));
        assert_eq!(nearest_rank(&[1, 2, 3, 4], 0.5), Some(2));
    }

    #[test]
    fn durations() {
        assert_eq!(
            duration_ms("2026-05-20T10:00:00Z", "2026-05-20T10:01:23.5Z"),
            Some(83_500)
        );
        assert_eq!(
            duration_ms("2026-05-20T10:00:00+02:00", "2026-05-20T08:00:01Z"),
            Some(1000)
        );
        assert_eq!(
            duration_ms("2026-05-20T10:00:01Z", "2026-05-20T10:00:00Z"),
            None
        );
        assert_eq!(duration_ms("yesterday", "2026-05-20T10:00:00Z"), None);
    }

    #[test]
    fn rates_follow_the_error_policy() {
        let c = OutcomeCounts {
            pass: 3,
            fail: 1,
            error: 2,
        };
        assert_eq!(c.rate(ErrorPolicy::Fail), Rate { successes: 3, n: 6 });
        assert_eq!(c.rate(ErrorPolicy::Exclude), Rate { successes: 3, n: 4 });
        assert_eq!(Rate::default().value(), None);
        assert_eq!(Rate::default().ci95(), None);
        let s = StatusCounts {
            pass: 1,
            fail: 1,
            not_applicable: 5,
            error: 1,
        };
        assert_eq!(s.rate(ErrorPolicy::Fail), Rate { successes: 1, n: 3 });
        assert_eq!(s.rate(ErrorPolicy::Exclude), Rate { successes: 1, n: 2 });
    }

    #[test]
    fn details_and_locations() {
        let e = Evidence::msg("`Foo` is not in the SDK").at(3, 9);
        assert_eq!(evidence_location(&e).as_deref(), Some("3:9"));
        let mut f = Evidence::msg("x");
        f.file = Some("a.swift".into());
        f.line = Some(4);
        assert_eq!(evidence_location(&f).as_deref(), Some("a.swift:4"));
        assert_eq!(evidence_location(&Evidence::msg("x")), None);
        let s = Score::fail("swift", "symbols_exist").with_evidence(e);
        assert_eq!(
            score_detail(&s).as_deref(),
            Some("`Foo` is not in the SDK (at 3:9)")
        );
        let s = Score::fail("swift", "parse").explain("line one\n  line two");
        assert_eq!(score_detail(&s).as_deref(), Some("line one line two"));
        assert_eq!(score_detail(&Score::fail("a", "b")), None);
        let s = Score::fail("swift", "symbols_exist")
            .explain("1 unknown symbol")
            .with_evidence(Evidence::msg("`Foo`").at(2, 5));
        assert_eq!(full_detail(&s), "1 unknown symbol — `Foo` (at 2:5)");
        assert_eq!(full_detail(&Score::fail("a", "b")), "");
    }
}
