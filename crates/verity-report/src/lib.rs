//! Renderers over a stored run: a terminal table, a versioned JSON document, a Markdown audit
//! document, a self-contained HTML page, and the CI formats — JUnit XML (`junit.rs`), GitHub
//! Actions workflow commands (`github.rs`) and a step summary in Markdown (`summary.rs`), for
//! runs and comparisons alike.
//!
//! Reports read results and nothing else. They never schedule a sample, never call a model and
//! do no I/O: each renderer returns a `String` (or a [`serde_json::Value`]) that the binary
//! prints or writes. That is what lets `verity report` run on any stored run, years later,
//! offline.
//!
//! All the arithmetic happens once, in [`RunView::new`]; the three renderers only format the
//! view, so they cannot disagree about a number. The view is also where the reporting rules
//! live:
//!
//! * pass rates follow the suite's error policy (`[outcome] errors`): with `fail`, an errored
//!   sample is a failure and stays in the denominator; with `exclude`, it is left out of the
//!   rate and counted apart;
//! * every criterion is reported on its own (seed 000 NG6: never a composite score);
//! * comparisons pair tasks by id, and a task passes for a variant when every stored epoch of
//!   it passed (under `exclude`, errored epochs are dropped first; a task with no epoch left
//!   is unpaired). The 2×2 table is `[[a, b], [c, d]]` with rows for the control (pass, fail)
//!   and columns for the treatment (pass, fail), as in seed 000 §6.4, so McNemar's test runs
//!   on `b` (control-only passes) and `c` (treatment-only passes);
//! * a run with no declared `[[compare]]` and exactly two variants compares the second
//!   against the first, two-sided.
//!
//! The JSON layout is documented field by field in `docs/report-schema.md` and versioned by
//! [`JSON_SCHEMA_VERSION`].
//!
//! Comparisons and gates (`docs/gates.md`) work on [`Snapshot`]s — one variant of one run, from
//! a [`RunView`] or a suite's [`Baseline`] file — so comparing with a baseline and comparing
//! two stored runs are one computation ([`SideDiff`]), and every command's verdict comes from
//! [`evaluate`].

#![forbid(unsafe_code)]

mod ci;
mod fmt;
mod github;
mod html;
mod json;
mod junit;
mod listing;
mod markdown;
mod summary;
mod table;
mod verdict;
mod view;

pub use github::{
    GITHUB_SHOWN_PER_STEP, GithubOptions, escape_data, escape_property, render_diff_github,
    render_github,
};
pub use html::{CONTENT_SECURITY_POLICY, escape as html_escape, render_diff_html, render_html};
pub use json::{Extras, JSON_SCHEMA_VERSION, to_json, to_json_with};
pub use junit::{render_diff_junit, render_junit};
pub use listing::{render_runs, render_task_list, runs_json, task_list_json};
pub use markdown::{render_markdown, render_markdown_with};
pub use summary::{MAX_LISTED, SUMMARY_LIMIT, render_diff_summary, render_summary};
pub use table::{TableOptions, render_table};
pub use verdict::{
    Against, BASELINE_FORMAT, Baseline, Counts, Flip, FlipKind, GateReport, GateResult, GateStatus,
    MetricDelta, NoiseEstimate, NoiseMethod, RateInfo, SideDiff, SideInfo, Snapshot, TaskResult,
    Verdict, diff_json, evaluate, gates_json, metrics_of, rationale, regression_gates,
    render_baseline, render_baseline_change, render_diff_markdown, render_diff_table, render_gates,
    short,
};
pub use view::{
    CategorySummary, CitationTarget, CitationVariant, Comparison, CriterionSummary, Discordant,
    DriftTask, DriftVariant, FailedCriterion, FailedSample, GroupCounts, GroupFailure,
    GroupSummary, Header, Latency, NO_CATEGORY, OutcomeCounts, PrfCounts, PrfSummary, Rate,
    RunView, SchemaInfo, StatusCounts, TaskOutcome, TaskVariant, TaskView, VariantInfo,
    VariantSummary, Winner, evidence_location, full_detail, one_line, pass_rate, prf_of,
    score_detail,
};
