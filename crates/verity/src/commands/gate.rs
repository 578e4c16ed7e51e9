//! `--fail-under`: the gate a run or a report ends with.

use verity_model::ErrorPolicy;
use verity_store::Store;

use crate::{CliError, exit};

/// Pass rate per variant under the suite's error policy, from the store's counts.
pub(super) fn pass_rates(
    policy: ErrorPolicy,
    counts: &[verity_store::VariantCounts],
) -> Vec<(String, f64, u64)> {
    counts
        .iter()
        .map(|c| {
            let n = match policy {
                ErrorPolicy::Fail => c.samples,
                ErrorPolicy::Exclude => c.samples - c.error,
            };
            (
                c.variant.clone(),
                if n == 0 {
                    0.0
                } else {
                    c.pass as f64 / n as f64
                },
                n,
            )
        })
        .collect()
}

/// `--fail-under`: every variant's pass rate (under the current or given scoring) must reach it.
pub(super) fn gate(
    store: &Store,
    run_id: &str,
    scoring: Option<u32>,
    fail_under: Option<f64>,
) -> Result<u8, CliError> {
    let Some(min) = fail_under else {
        return Ok(exit::OK);
    };
    let meta = store.load_run_meta(run_id)?;
    let counts = store.outcome_counts(run_id, scoring.unwrap_or(meta.scoring))?;
    let mut failed = false;
    for (variant, rate, _) in pass_rates(meta.suite.outcome.errors, &counts) {
        if rate < min {
            eprintln!(
                "gate: variant `{variant}` pass rate {:.1}% is below --fail-under {:.1}%",
                rate * 100.0,
                min * 100.0
            );
            failed = true;
        }
    }
    Ok(if failed { exit::GATE_FAILED } else { exit::OK })
}
