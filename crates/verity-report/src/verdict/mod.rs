//! One verdict mechanism for every suite: [`Snapshot`]s of stored runs (or of a suite's
//! `baseline.toml`), [`SideDiff`]s between two of them with run-to-run noise, and the gates
//! that turn them into a [`Verdict`].

mod baseline;
mod diff;
mod gates;
mod noise;
mod render;
mod snapshot;

pub use baseline::{BASELINE_FORMAT, Baseline, render_baseline, render_baseline_change};
pub use diff::{Flip, FlipKind, MetricDelta, RateInfo, SideDiff, SideInfo, short};
pub(crate) use gates::num as gate_num;
pub use gates::{Against, GateReport, GateResult, GateStatus, Verdict, evaluate, regression_gates};
pub use noise::{NoiseEstimate, NoiseMethod};
pub use render::{
    diff_json, gates_json, render_diff_markdown, render_diff_table, render_gates, usd,
};
pub use snapshot::{Counts, Snapshot, TaskResult, metrics_of, rationale};
