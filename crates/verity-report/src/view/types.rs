//! The data a [`RunView`] exposes: counts, rates, summaries per variant, criterion, category
//! and group, tasks, comparisons and failures. Plain values; computing them is `build`'s job.

use std::collections::BTreeMap;

use serde_json::{Map, Value};
use verity_model::{
    ErrorPolicy, GroundingSpec, GroupRecord, Outcome, OutcomeRule, ResponseError, RunMeta,
    RunStatus, SampleKey, SampleRecord, Score, ScoreStatus,
};
use verity_stats::{McNemar, PMethod, Prf, WILSON_Z95, wilson};

use super::build::Builder;

/// The category bucket for tasks without one.
pub const NO_CATEGORY: &str = "(none)";

/// `successes` out of `n`, where `n` already reflects the error policy.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rate {
    pub successes: u64,
    pub n: u64,
}

/// The pass rate under the error policy, the one place it is computed (the report's outcomes
/// and criteria, and the `--fail-under` gate): with `fail`, errors are failures and stay in
/// the denominator; with `exclude`, they are left out.
pub fn pass_rate(pass: u64, fail: u64, error: u64, policy: ErrorPolicy) -> Rate {
    let n = match policy {
        ErrorPolicy::Fail => pass + fail + error,
        ErrorPolicy::Exclude => pass + fail,
    };
    Rate { successes: pass, n }
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
    pub(super) fn add(&mut self, o: Outcome) {
        match o {
            Outcome::Pass => self.pass += 1,
            Outcome::Fail => self.fail += 1,
            Outcome::Error => self.error += 1,
        }
    }

    /// The pass rate under `policy`: with `fail`, errors are failures (they stay in the
    /// denominator); with `exclude`, they are left out.
    pub fn rate(&self, policy: ErrorPolicy) -> Rate {
        pass_rate(self.pass, self.fail, self.error, policy)
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
    pub(super) fn add(&mut self, s: ScoreStatus) {
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
        pass_rate(self.pass, self.fail, self.error, policy)
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
    /// As stored; see [`Header::shown_status`] for what is shown.
    pub status: RunStatus,
    /// Whether the process of a run stored as running is still there.
    pub liveness: verity_model::Liveness,
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
    /// The JSON Schemas of the run (variants' `response_schema`, `json-schema` scorers'), with
    /// their hashes: the seed-004 report header's "schema hash".
    pub schemas: Vec<SchemaInfo>,
    /// What each scorer's pre-flight found (the Swift toolchain and its version, warnings,
    /// the audit's notes), by scorer name; empty for a run from before pre-flights.
    pub preflight: BTreeMap<String, verity_model::PreflightInfo>,
    /// The toolchain the `swift` scorer's pre-flight found, as one string (`swift-frontend
    /// 6.0.3`, `tree-sitter`): seed 000 §7.2's `toolchain`. `None` without one.
    pub toolchain: Option<String>,
}

impl Header {
    /// The status as shown: a run stored as running whose process is gone is `interrupted`,
    /// one this machine cannot check `running?` ([`RunStatus::shown`]).
    pub fn shown_status(&self) -> &'static str {
        self.status.shown(self.liveness)
    }

    /// [`Header::shown_status`] for JSON (`unknown` instead of `running?`).
    pub fn json_status(&self) -> &'static str {
        self.status.shown_json(self.liveness)
    }
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
    /// The means of the per-sample values; `None` when no sample carried counts.
    pub macro_precision: Option<f64>,
    pub macro_recall: Option<f64>,
    pub macro_f1: Option<f64>,
}

/// One counting `(scorer, criterion)` across variants.
#[derive(Clone, Debug, PartialEq)]
pub struct PrfSummary {
    pub key: String,
    pub scorer: String,
    pub criterion: String,
    pub per_variant: Vec<(String, PrfCounts)>,
    /// The same per task category ([`NO_CATEGORY`] for tasks without one), categories in
    /// name order.
    pub per_category: Vec<(String, Vec<(String, PrfCounts)>)>,
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
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
    /// Where the task is defined (its file relative to the suite's root, line, column);
    /// `None` for a task that is not in the stored suite.
    pub source: Option<verity_model::SourceLoc>,
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
pub struct FailedSample {
    pub key: SampleKey,
    pub outcome: Outcome,
    /// Set when the provider gave no answer.
    pub error: Option<ResponseError>,
    /// Scores with status `fail` or `error`, in the order the scorers reported them.
    pub criteria: Vec<FailedCriterion>,
}

/// One task of one variant across its epochs (seed 004's per-fixture result).
#[derive(Clone, Debug, PartialEq)]
pub struct DriftTask {
    pub task: String,
    /// The task's outcome passed (every epoch valid and the epochs' verdicts passed).
    pub passed: bool,
    pub epochs: u64,
    /// Epochs that answered and failed none of their own criteria.
    pub valid: u64,
    /// Epochs whose call errored (invalid runs).
    pub errors: u64,
    /// The `similarity` verdict's value (the minimum over resources and pairs of epochs).
    pub similarity: Option<f64>,
    /// Its explanation: the weakest resource and pair of epochs.
    pub similarity_note: Option<String>,
    /// The `identical` verdict's value (share of epochs equal to the canonical answer).
    pub identical: Option<f64>,
    /// The same share over the raw texts.
    pub byte_identical: Option<f64>,
}

impl DriftTask {
    pub fn validity(&self) -> f64 {
        self.valid as f64 / self.epochs.max(1) as f64
    }
}

/// One variant's determinism summary: its tasks and the overall figures.
#[derive(Clone, Debug, PartialEq)]
pub struct DriftVariant {
    pub variant: String,
    /// Every task passed.
    pub passed: bool,
    pub tasks_passed: u64,
    /// Valid epochs over all epochs.
    pub validity: f64,
    /// The lowest task similarity.
    pub similarity: Option<f64>,
    pub errors: u64,
    pub tasks: Vec<DriftTask>,
}

/// One variant's seed-002 verification counts (`citations` and `citation-consistency`
/// scorers); `view/citations.rs` says how each is computed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CitationVariant {
    pub variant: String,
    /// Samples with a `citations` score.
    pub samples: u64,
    /// Cited files (with their ranges) and identifiers, and those passing V1.
    pub citations: u64,
    pub citations_verified: u64,
    /// Structural claims checked (V2), and those verified.
    pub claims: u64,
    pub claims_verified: u64,
    /// Paraphrase groups judged by `consistent` (under the error policy), and those passing.
    pub groups: u64,
    pub groups_consistent: u64,
    /// Groups where `consistent` did not apply (no member cites a file).
    pub groups_not_applicable: u64,
}

/// A seed-002 target: a metric and the bound it must beat.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CitationTarget {
    /// The metric's name (as gates and the JSON report name it).
    pub metric: &'static str,
    /// As the seed names it.
    pub label: &'static str,
    pub bound: f64,
    /// `true`: the value must be above the bound; `false`: below.
    pub above: bool,
}

impl CitationTarget {
    /// The target's metric of `v`.
    pub fn value(&self, v: &CitationVariant) -> Option<f64> {
        match self.metric {
            "citation_accuracy" => v.citation_accuracy(),
            "structural_accuracy" => v.structural_accuracy(),
            "consistency_rate" => v.consistency_rate(),
            _ => v.hallucination_rate(),
        }
    }

    /// Whether `value` meets the target (strictly, as the seed writes it); `None` unmeasured.
    pub fn met(&self, value: Option<f64>) -> Option<bool> {
        value.map(|x| {
            if self.above {
                x > self.bound
            } else {
                x < self.bound
            }
        })
    }

    /// `> 95%`, `< 5%`.
    pub fn show(&self) -> String {
        format!(
            "{} {}%",
            if self.above { ">" } else { "<" },
            (self.bound * 100.0).round()
        )
    }
}

fn ratio(num: u64, den: u64) -> Option<f64> {
    (den > 0).then(|| num as f64 / den as f64)
}

impl CitationVariant {
    /// (numerator, denominator) of each of the four metrics, in [`Self::TARGETS`]' order:
    /// verified / all citations, verified / all claims, consistent / judged groups, failed /
    /// all citations and claims.
    pub fn counts(&self) -> [(u64, u64); 4] {
        [
            (self.citations_verified, self.citations),
            (self.claims_verified, self.claims),
            (self.groups_consistent, self.groups),
            (
                self.citations + self.claims - self.citations_verified - self.claims_verified,
                self.citations + self.claims,
            ),
        ]
    }

    /// The seed's four verification metrics and their targets, in the seed's order.
    pub const TARGETS: [CitationTarget; 4] = [
        CitationTarget {
            metric: "citation_accuracy",
            label: "Citation Accuracy",
            bound: 0.95,
            above: true,
        },
        CitationTarget {
            metric: "structural_accuracy",
            label: "Structural Accuracy",
            bound: 0.90,
            above: true,
        },
        CitationTarget {
            metric: "consistency_rate",
            label: "Consistency Rate",
            bound: 0.85,
            above: true,
        },
        CitationTarget {
            metric: "hallucination_rate",
            label: "Hallucination Rate",
            bound: 0.05,
            above: false,
        },
    ];

    /// Citations passing V1 over all citations.
    pub fn citation_accuracy(&self) -> Option<f64> {
        ratio(self.citations_verified, self.citations)
    }

    /// Structural claims passing V2 over all checked.
    pub fn structural_accuracy(&self) -> Option<f64> {
        ratio(self.claims_verified, self.claims)
    }

    /// Paraphrase groups consistent over all judged.
    pub fn consistency_rate(&self) -> Option<f64> {
        ratio(self.groups_consistent, self.groups)
    }

    /// Citations and claims failing over all of them.
    pub fn hallucination_rate(&self) -> Option<f64> {
        let all = self.citations + self.claims;
        ratio(all - self.citations_verified - self.claims_verified, all)
    }
}

/// A JSON Schema the run checked answers against or constrained decoding with.
#[derive(Clone, Debug, PartialEq)]
pub struct SchemaInfo {
    /// `variant NAME` (its `response_schema`) or `scorer NAME` (a `json-schema` scorer).
    pub used_by: String,
    /// The file as the suite names it, when known.
    pub file: Option<String>,
    /// BLAKE3 of the schema's canonical JSON (keys sorted).
    pub hash: String,
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
    /// Every group verdict, whatever its status (the same shape as `group_failures`), in the
    /// same order: each task's determinism verdict (`identical`, `similarity`) with its value
    /// and explanation, e.g. the weakest resource.
    pub group_scores: Vec<GroupFailure>,
    pub comparisons: Vec<Comparison>,
    /// Suite tasks in suite order, then tasks known only from samples, by id.
    pub tasks: Vec<TaskView>,
    /// Failing and errored samples in task, variant, epoch order.
    pub failures: Vec<FailedSample>,
    /// Things a reader should know about the data (unknown tasks, an unfinished run…).
    pub notes: Vec<String>,
    /// Per variant, each task across its epochs (empty without epoch verdicts).
    pub determinism: Vec<DriftVariant>,
    /// Per variant, seed 002's verification metrics (empty without citation scorers).
    pub citations: Vec<CitationVariant>,
    /// Seed 000's criterion names (`compile`, `symbol_exists`, `availability`,
    /// `no_deprecated`) → the report key of the `swift` scorer's criterion that implements
    /// each; empty without a `swift` scorer.
    pub seed_criteria: Vec<(String, String)>,
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
