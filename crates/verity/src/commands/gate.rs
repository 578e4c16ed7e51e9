//! `--fail-under`: the gate a run or a report ends with.

use verity_store::Store;

use crate::{CliError, exit};

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
    for c in &counts {
        // The report's pass rate, computed by the same function.
        let rate = verity_report::pass_rate(c.pass, c.fail, c.error, meta.suite.outcome.errors)
            .value()
            .unwrap_or(0.0);
        if rate < min {
            eprintln!(
                "gate: variant `{}` pass rate {:.1}% is below --fail-under {:.1}%",
                c.variant,
                rate * 100.0,
                min * 100.0
            );
            failed = true;
        }
    }
    Ok(if failed { exit::GATE_FAILED } else { exit::OK })
}
