//! Gates, baselines and comparisons: the glue between the store, a suite's `baseline.toml` and
//! verity-report's verdict. `run`, `report`, `compare` and `baseline` all judge through here.

use std::path::{Path, PathBuf};

use verity_model::{ErrorKind, GateSpec, GroupRecord, RunMeta, SampleRecord};
use verity_report::{
    Against, Baseline, GateReport, RunView, SideDiff, Snapshot, Verdict, evaluate,
    regression_gates, render_gates,
};
use verity_store::Store;

use crate::cli::{GateArgs, GateFlags};
use crate::{CliError, exit};

/// The file a suite's baseline lives in, at the suite's root.
pub(super) const BASELINE_FILE: &str = verity_suite::BASELINE_FILE;

/// How many earlier runs of the same suite, variant and model the noise estimates read.
const HISTORY_RUNS: usize = 10;

/// A stored run, loaded whole.
pub(super) struct Loaded {
    pub(super) meta: RunMeta,
    pub(super) samples: Vec<SampleRecord>,
    pub(super) groups: Vec<GroupRecord>,
}

impl Loaded {
    pub(super) fn view(&self) -> RunView {
        RunView::new(&self.meta, &self.samples, &self.groups)
    }

    pub(super) fn snapshots(&self, view: &RunView) -> Vec<Snapshot> {
        Snapshot::from_run(view, &self.meta, &self.samples)
    }
}

/// Loads run `id` with every task and sample, under `scoring` (default: the current one).
pub(super) fn load(store: &Store, id: &str, scoring: Option<u32>) -> Result<Loaded, CliError> {
    let meta = store.load_run(id)?;
    if let Some(s) = scoring
        && (s == 0 || s > meta.scoring)
    {
        return Err(CliError::usage(format!(
            "run {id} has scorings 1..={}, not {s}",
            meta.scoring
        )));
    }
    Ok(Loaded {
        samples: store.load_samples(id, scoring)?,
        groups: store.load_groups(id, scoring)?,
        meta,
    })
}

/// Earlier completed runs of the suite `run_id` ran (same content hash; at most the last ten
/// looked at), newest first, one snapshot per variant: the store's record of how much results move from run to run.
pub(super) fn history(
    store: &Store,
    suite_hash: &str,
    run_id: &str,
) -> Result<Vec<Snapshot>, CliError> {
    let mut out = Vec::new();
    for id in store.earlier_runs(suite_hash, run_id, HISTORY_RUNS)? {
        let run = load(store, &id, None)?;
        // A partial run's numbers would pass for noise.
        if run.meta.status != verity_model::RunStatus::Completed {
            continue;
        }
        let view = run.view();
        out.extend(run.snapshots(&view));
    }
    Ok(out)
}

/// The snapshots of `history` with `s`'s variant and model.
pub(super) fn like(history: &[Snapshot], s: &Snapshot) -> Vec<Snapshot> {
    history
        .iter()
        .filter(|h| h.variant == s.variant && h.model == s.model)
        .cloned()
        .collect()
}

/// The directory a suite was read from: the path itself, or the folder of its suite.toml.
/// `None` for a bare dataset file, which has no root to keep a baseline in.
pub(super) fn suite_root(suite_path: &Path) -> Option<PathBuf> {
    if suite_path.is_dir() {
        return Some(suite_path.to_path_buf());
    }
    (suite_path.file_name()? == "suite.toml").then(|| {
        suite_path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."))
            .to_path_buf()
    })
}

/// Where the baseline of a suite read from `suite_path` is: `explicit` (a file, or a directory
/// holding baseline.toml) when given, else baseline.toml at the suite's root.
pub(super) fn baseline_path(
    suite_path: &Path,
    explicit: Option<&Path>,
) -> Result<PathBuf, CliError> {
    if let Some(p) = explicit {
        return Ok(if p.is_dir() {
            p.join(BASELINE_FILE)
        } else {
            p.to_path_buf()
        });
    }
    suite_root(suite_path)
        .map(|root| root.join(BASELINE_FILE))
        .ok_or_else(|| {
            CliError::usage(format!(
                "{} is a dataset file, not a suite directory: it has no root to keep {BASELINE_FILE} in \
                 (name the file with --baseline-file FILE, or use a suite directory)",
                suite_path.display()
            ))
        })
}

/// Reads a baseline file; `None` when there is none.
pub(super) fn read_baseline(path: &Path) -> Result<Option<Baseline>, CliError> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(CliError::io(format!("cannot read {}: {e}", path.display()))),
    };
    Baseline::from_toml(&text).map(Some).map_err(|e| {
        CliError::new(
            ErrorKind::Config,
            format!("{} is not a verity baseline: {e}", path.display()),
        )
    })
}

/// The gates the command line adds: `--gate` expressions and `--fail-under` (and checks
/// `--threshold`); `--fail-on-regression`'s depend on what the run measured
/// ([`regression_gates`]).
pub(super) fn cli_gates(f: &GateFlags) -> Result<Vec<GateSpec>, CliError> {
    check_threshold(f.threshold)?;
    let mut out = Vec::new();
    for g in &f.gates {
        out.push(
            GateSpec::parse_expr(g, "--gate")
                .map_err(|e| CliError::usage(format!("--gate {g:?}: {e}")))?,
        );
    }
    if let Some(r) = f.fail_under {
        if !(0.0..=1.0).contains(&r) {
            return Err(CliError::usage(format!(
                "--fail-under takes a fraction from 0 to 1, got {r}"
            )));
        }
        out.push(
            GateSpec::parse_expr(&format!("pass_rate>={r}"), "--fail-under")
                .map_err(CliError::usage)?,
        );
    }
    Ok(out)
}

fn check_threshold(t: f64) -> Result<(), CliError> {
    if (0.0..=1.0).contains(&t) {
        Ok(())
    } else {
        Err(CliError::usage(format!(
            "--threshold takes a fraction from 0 to 1 (0.05 is five points), got {t}"
        )))
    }
}

/// Checks, before a run sends anything, what the gates will need: the flags, and a baseline
/// that `--baseline` or `--fail-on-regression` asks for.
pub(super) fn preflight(suite_path: &Path, a: &GateArgs) -> Result<(), CliError> {
    cli_gates(&a.flags)?;
    if a.wants_baseline() {
        let path = baseline_path(suite_path, a.baseline_file.as_deref())?;
        if read_baseline(&path)?.is_none() {
            return Err(no_baseline(&path));
        }
    }
    Ok(())
}

fn no_baseline(path: &Path) -> CliError {
    CliError::new(
        ErrorKind::NotFound,
        format!(
            "no baseline at {} (save one with `verity baseline save RUN`)",
            path.display()
        ),
    )
}

/// A run judged: its gates' report and, when there was a baseline, the comparison with it.
pub(super) struct Judgement {
    pub(super) report: GateReport,
    pub(super) baseline: Option<Vec<SideDiff>>,
}

impl Judgement {
    pub(super) fn extras(&self) -> verity_report::Extras<'_> {
        verity_report::Extras {
            gates: Some(&self.report),
            baseline: self.baseline.as_deref(),
            costs: None,
        }
    }
}

impl GateArgs {
    /// Whether the command line asks for the baseline (a missing one is then an error).
    pub(super) fn wants_baseline(&self) -> bool {
        self.baseline || self.baseline_file.is_some() || self.flags.fail_on_regression
    }
}

/// Whether judging the run can have anything to say.
pub(super) fn wanted(meta: &RunMeta, a: &GateArgs) -> bool {
    !meta.suite.gates.is_empty()
        || !a.flags.gates.is_empty()
        || a.flags.fail_under.is_some()
        || a.wants_baseline()
}

/// Applies the suite's gates and the command line's to a stored run, against the suite's
/// baseline when there is one (and it is asked for or a gate needs it). `None` when there is
/// nothing to judge.
pub(super) fn judge(
    store: &Store,
    run: &Loaded,
    view: &RunView,
    a: &GateArgs,
) -> Result<Option<Judgement>, CliError> {
    if !wanted(&run.meta, a) {
        return Ok(None);
    }
    let mut gates = run.meta.suite.gates.clone();
    gates.extend(cli_gates(&a.flags)?);
    let current = run.snapshots(view);
    let required = a.wants_baseline();
    let needed = required || gates.iter().any(|g| g.baseline);
    let mut diffs = None;
    let mut missing = String::new();
    let earlier = history(store, &run.meta.suite.content_hash, &run.meta.id)?;
    if needed {
        let path = baseline_path(Path::new(&run.meta.suite_path), a.baseline_file.as_deref())?;
        match read_baseline(&path)? {
            Some(b) => {
                let mut d = Vec::new();
                for s in &current {
                    if let Some(old) = b.variant(&s.variant) {
                        d.push(SideDiff::new(old, s, &like(&earlier, s)));
                    }
                }
                diffs = Some(d);
            }
            None if required => return Err(no_baseline(&path)),
            None => {
                missing = format!(
                    "no baseline at {} (save one with `verity baseline save {}`)",
                    path.display(),
                    run.meta.id
                )
            }
        }
    }
    if a.flags.fail_on_regression {
        gates.extend(regression_gates(
            a.flags.threshold,
            &current,
            "--fail-on-regression",
        ));
    }
    let against = match &diffs {
        Some(d) => Against::Baseline(d),
        None => Against::Nothing(&missing),
    };
    Ok(Some(Judgement {
        report: evaluate(&gates, &current, against, &earlier),
        baseline: diffs,
    }))
}

/// Prints the gates' report (standard error) and turns the verdict into the exit code.
pub(super) fn conclude(report: &GateReport) -> Result<u8, CliError> {
    eprint!("{}", render_gates(report));
    match report.verdict {
        Verdict::Pass | Verdict::Review => Ok(exit::OK),
        Verdict::Regression => Ok(exit::GATE_FAILED),
        Verdict::Error => Err(CliError::new(
            ErrorKind::Config,
            "a gate could not be evaluated (see ERR above): it names a metric or variant the run did not measure",
        )),
    }
}
