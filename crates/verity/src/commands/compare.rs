//! `verity compare A B`: two stored runs (or two variants of runs) side by side — paired
//! statistics, every metric's change with its run-to-run noise, the tasks that flipped — and,
//! with `--gate` / `--fail-on-regression`, B gated against A as its baseline.

use verity_report::{
    Against, GateReport, SideDiff, Snapshot, diff_json, evaluate, gates_json, regression_gates,
    render_diff_github, render_diff_html, render_diff_junit, render_diff_markdown,
    render_diff_summary, render_diff_table,
};
use verity_store::Store;

use super::verdict::{cli_gates, conclude, history, like, load};
use super::{github_options, open_existing_read_only, write_out};
use crate::cli::{CompareArgs, GateFlags, Globals, ReportFormat};
use crate::config::Config;
use crate::{CliError, exit};

pub(super) fn compare(a: CompareArgs, config: &Config, g: &Globals) -> Result<u8, CliError> {
    let store = open_existing_read_only(&g.db.path(config))?;
    let compared = compare_runs(&store, &a.a, &a.b, &a.gating)?;
    let text = match a.format {
        ReportFormat::Table => render_diff_table(&compared.diffs),
        ReportFormat::Md => render_diff_markdown(&compared.diffs),
        ReportFormat::Json => {
            let mut s = serde_json::to_string_pretty(&compared.json()).unwrap_or_default();
            s.push('\n');
            s
        }
        ReportFormat::Html => render_diff_html(&compared.json()),
        ReportFormat::Junit => render_diff_junit(&compared.diffs, compared.gates.as_ref()),
        ReportFormat::Github => render_diff_github(
            &compared.diffs,
            compared.gates.as_ref(),
            &github_options(&compared.suite_b),
        ),
        ReportFormat::MdSummary => render_diff_summary(&compared.diffs, compared.gates.as_ref()),
    };
    write_out(&text, a.out.as_deref())?;
    match &compared.gates {
        Some(r) => conclude(r),
        None => Ok(exit::OK),
    }
}

/// Two runs (or variants of runs) compared: each pair of variants' differences, and B's gates
/// against A when `gating` asks for any.
pub(crate) struct Compared {
    pub(crate) diffs: Vec<SideDiff>,
    pub(crate) gates: Option<GateReport>,
    /// B's suite as its run was given it: where `--format github` points the flipped tasks.
    pub(crate) suite_b: String,
}

impl Compared {
    /// The document `verity compare --format json` prints (and `--format html` embeds).
    pub(crate) fn json(&self) -> serde_json::Value {
        let mut v = diff_json(&self.diffs);
        if let (Some(r), Some(o)) = (&self.gates, v.as_object_mut()) {
            o.insert("gates".into(), gates_json(r));
        }
        v
    }
}

/// Compares side `a` with side `b` (`RUN` or `RUN:VARIANT`, run specs as `verity compare`
/// takes them), B gated against A as its baseline by `gating`. `verity compare` and `verity
/// view` both compare through here.
pub(crate) fn compare_runs(
    store: &Store,
    a: &str,
    b: &str,
    gating: &GateFlags,
) -> Result<Compared, CliError> {
    let mut gates = cli_gates(gating)?;
    let (run_a, var_a) = split_side(a);
    let (run_b, var_b) = split_side(b);
    let (id_a, id_b) = (store.resolve_run(run_a)?, store.resolve_run(run_b)?);
    let side = |id: &str| -> Result<(Vec<Snapshot>, String), CliError> {
        let run = load(store, id, None)?;
        let view = run.view();
        Ok((run.snapshots(&view), run.meta.suite_path.clone()))
    };
    let (snaps_a, suite_a) = side(&id_a)?;
    let (snaps_b, suite_b) = if id_b == id_a {
        (snaps_a.clone(), suite_a)
    } else {
        side(&id_b)?
    };
    let pairs = pair(&id_a, &snaps_a, var_a, &id_b, &snaps_b, var_b)?;
    // B's history: the earlier runs of B's suite.
    let earlier = match pairs.first() {
        Some((_, y)) => history(store, &y.suite_hash, &y.run_id)?,
        None => Vec::new(),
    };
    let diffs: Vec<SideDiff> = pairs
        .iter()
        .map(|(x, y)| SideDiff::new(x, y, &like(&earlier, y)))
        .collect();
    let current: Vec<Snapshot> = pairs.iter().map(|(_, y)| (*y).clone()).collect();
    if gating.fail_on_regression {
        gates.extend(regression_gates(
            gating.threshold,
            &current,
            "--fail-on-regression",
        ));
    }
    let gates = (!gates.is_empty())
        .then(|| evaluate(&gates, &current, Against::Baseline(&diffs), &earlier));
    Ok(Compared {
        diffs,
        gates,
        suite_b,
    })
}

/// `RUN` or `RUN:VARIANT`. Run specs (`latest~1`, ids, prefixes) never hold a colon.
fn split_side(s: &str) -> (&str, Option<&str>) {
    match s.split_once(':') {
        Some((run, v)) if !v.is_empty() => (run, Some(v)),
        Some((run, _)) => (run, None),
        None => (s, None),
    }
}

/// The variants to compare: the ones named, else the same names on both sides, else the only
/// variant of each.
fn pair<'s>(
    id_a: &str,
    a: &'s [Snapshot],
    var_a: Option<&str>,
    id_b: &str,
    b: &'s [Snapshot],
    var_b: Option<&str>,
) -> Result<Vec<(&'s Snapshot, &'s Snapshot)>, CliError> {
    let find = |id: &str, snaps: &'s [Snapshot], v: &str| -> Result<&'s Snapshot, CliError> {
        snaps.iter().find(|s| s.variant == v).ok_or_else(|| {
            CliError::usage(format!(
                "run {id} has no stored samples of variant `{v}` (it has: {})",
                names(snaps)
            ))
        })
    };
    let other = |id: &str, snaps: &'s [Snapshot], v: &str| -> Result<&'s Snapshot, CliError> {
        match snaps {
            [only] => Ok(only),
            _ => find(id, snaps, v),
        }
    };
    if a.is_empty() || b.is_empty() {
        let empty = if a.is_empty() { id_a } else { id_b };
        return Err(CliError::usage(format!(
            "run {empty} has no stored samples"
        )));
    }
    Ok(match (var_a, var_b) {
        (Some(x), Some(y)) => vec![(find(id_a, a, x)?, find(id_b, b, y)?)],
        (Some(x), None) => {
            let sa = find(id_a, a, x)?;
            vec![(sa, other(id_b, b, x)?)]
        }
        (None, Some(y)) => {
            let sb = find(id_b, b, y)?;
            vec![(other(id_a, a, y)?, sb)]
        }
        (None, None) => {
            let common: Vec<_> = a
                .iter()
                .filter_map(|x| b.iter().find(|y| y.variant == x.variant).map(|y| (x, y)))
                .collect();
            match (common.is_empty(), a, b) {
                (false, _, _) => common,
                (true, [x], [y]) => vec![(x, y)],
                _ => {
                    return Err(CliError::usage(format!(
                        "runs {id_a} ({}) and {id_b} ({}) share no variant: name them, e.g. \
                         `verity compare {id_a}:{} {id_b}:{}`",
                        names(a),
                        names(b),
                        a[0].variant,
                        b[0].variant
                    )));
                }
            }
        }
    })
}

fn names(snaps: &[Snapshot]) -> String {
    snaps
        .iter()
        .map(|s| s.variant.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}
