//! [`RunView`]: everything a report shows, computed once from a stored run.
//!
//! The renderers only format what is here, which is what keeps the terminal table, the JSON
//! and the Markdown in agreement: a number is computed in exactly one place.
//!
//! `types` holds what a view exposes, `build` computes it from a stored run, and `detail` the
//! per-task and per-sample parts: task outcomes, failures, and a score's detail as one line.

mod build;
mod citations;
mod detail;
mod drift;
mod types;

pub use build::prf_of;
pub use detail::{evidence_location, full_detail, one_line, score_detail};
pub use types::{
    CategorySummary, CitationTarget, CitationVariant, Comparison, CriterionSummary, Discordant,
    DriftTask, DriftVariant, FailedCriterion, FailedSample, GroupCounts, GroupFailure,
    GroupSummary, Header, Latency, NO_CATEGORY, OutcomeCounts, PrfCounts, PrfSummary, Rate,
    RunView, SchemaInfo, StatusCounts, TaskOutcome, TaskVariant, TaskView, VariantInfo,
    VariantSummary, Winner, pass_rate,
};
