//! Gates and the verdict: every gate checked against a run's snapshots (and its baseline, when
//! there is one), each with its value, threshold, noise and status, and one verdict a CI job
//! acts on: `pass`, `review`, `regression` or `error`.
//!
//! * A fixed bound (`min` / `max`) fails when the value is outside it.
//! * A baseline bound (`max_drop`) fails when the metric moved in its bad direction by
//!   `max_drop` or more (a 0.05 drop at `max_drop = 0.05` fails: the seed's "detects a 5 %
//!   regression"); a smaller bad move is `review`.
//! * `regressions` counts the tasks that passed in the baseline and fail now, leaving out the
//!   flaky ones (epochs that disagree, outcomes that vary across earlier runs), which are
//!   listed for review instead.
//!
//! Comparisons use a tolerance of 1e-9, so 0.8 − 0.75 counts as 0.05.
//!
//! The verdict: `error` when a gate could not be evaluated (a metric the run did not measure,
//! a variant it did not run); else `regression` when a gate failed; else `review` when a gate
//! moved the wrong way within its bounds, or tasks flipped only in ways that need a look
//! (improvements — the baseline is stale — or flaky regressions); else `pass`.

use serde::Serialize;
use verity_model::{GateSpec, Metric};

use super::diff::{Flip, FlipKind, SideDiff};
use super::snapshot::Snapshot;

const TOLERANCE: f64 = 1e-9;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GateStatus {
    Pass,
    /// Not evaluated: a baseline gate without a baseline, a variant the baseline lacks.
    Skipped,
    Review,
    Fail,
    Error,
}

impl GateStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            GateStatus::Pass => "pass",
            GateStatus::Skipped => "skipped",
            GateStatus::Review => "review",
            GateStatus::Fail => "fail",
            GateStatus::Error => "error",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    Pass,
    Review,
    Regression,
    Error,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Pass => "pass",
            Verdict::Review => "review",
            Verdict::Regression => "regression",
            Verdict::Error => "error",
        }
    }
}

/// One gate on one variant.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GateResult {
    /// The gate as written (`f1 >= 0.8`, `pass_rate drop < 0.05 from baseline`).
    pub gate: String,
    pub metric: String,
    pub variant: String,
    /// Where the gate was declared (`suite.toml:12:1`, `--gate`).
    pub source: String,
    pub value: Option<f64>,
    pub min: Option<f64>,
    pub max: Option<f64>,
    pub max_drop: Option<f64>,
    pub baseline_value: Option<f64>,
    /// value − baseline.
    pub delta: Option<f64>,
    /// The widest run-to-run noise estimate of the change, and whether the change exceeds it.
    pub noise: Option<f64>,
    pub beyond_noise: Option<bool>,
    pub status: GateStatus,
    /// Why, in a few words.
    pub note: String,
}

/// Every gate's result and the verdict.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GateReport {
    pub verdict: Verdict,
    pub gates: Vec<GateResult>,
    /// Against the baseline: tasks that passed there and fail now (not flaky).
    pub regressions: Vec<Flip>,
    /// Tasks that failed in the baseline and pass now.
    pub improvements: Vec<Flip>,
    /// Regressions of flaky tasks: listed for review, not counted.
    pub flaky: Vec<Flip>,
    pub notes: Vec<String>,
}

/// The baseline a run is gated against, if any.
#[derive(Clone, Copy, Debug)]
pub enum Against<'a> {
    /// One comparison per variant the baseline and the run share.
    Baseline(&'a [SideDiff]),
    /// No baseline; the reason is shown beside the skipped baseline gates.
    Nothing(&'a str),
}

/// Checks `gates` against the run's `current` snapshots (one per variant). `history` holds
/// earlier runs of the suite (any variant; each is matched by variant and model), for the
/// noise of fixed bounds.
pub fn evaluate(
    gates: &[GateSpec],
    current: &[Snapshot],
    against: Against<'_>,
    history: &[Snapshot],
) -> GateReport {
    let mut results = Vec::new();
    let mut notes = Vec::new();
    for g in gates {
        let variants: Vec<&Snapshot> = match &g.variant {
            Some(v) => match current.iter().find(|s| &s.variant == v) {
                Some(s) => vec![s],
                None => {
                    results.push(row(
                        g,
                        v,
                        GateStatus::Error,
                        format!("variant `{v}` did not run"),
                    ));
                    continue;
                }
            },
            None => current.iter().collect(),
        };
        if variants.is_empty() {
            results.push(row(
                g,
                "-",
                GateStatus::Error,
                "the run stored no samples".into(),
            ));
        }
        for s in variants {
            results.push(check(g, s, against, history));
        }
    }
    let (mut regressions, mut improvements, mut flaky) = (Vec::new(), Vec::new(), Vec::new());
    if let Against::Baseline(diffs) = against {
        for d in diffs {
            for f in &d.flips {
                match (f.kind, f.flaky) {
                    (FlipKind::Regression, false) => regressions.push(f.clone()),
                    (FlipKind::Regression, true) => flaky.push(f.clone()),
                    (FlipKind::Improvement, _) => improvements.push(f.clone()),
                }
            }
            for w in &d.warnings {
                notes.push(format!("{}: {w}", d.b.variant));
            }
        }
    }
    let worst = results.iter().map(|r| r.status).max();
    let verdict = match worst {
        Some(GateStatus::Error) => Verdict::Error,
        Some(GateStatus::Fail) => Verdict::Regression,
        _ if worst == Some(GateStatus::Review)
            || !improvements.is_empty()
            || !flaky.is_empty()
            // A regressed task with no `regressions` gate still asks for a look.
            || !regressions.is_empty() =>
        {
            Verdict::Review
        }
        _ => Verdict::Pass,
    };
    GateReport {
        verdict,
        gates: results,
        regressions,
        improvements,
        flaky,
        notes,
    }
}

/// The gates `--fail-on-regression` adds: against the baseline, a drop of `threshold` or more
/// in the pass rate — and in precision, recall and F1 where the run measured them — fails, and
/// so does any task that passed in the baseline and fails now (flaky tasks aside).
pub fn regression_gates(threshold: f64, current: &[Snapshot], source: &str) -> Vec<GateSpec> {
    let at = verity_model::SourceLoc {
        file: source.to_owned(),
        line: 0,
        column: 0,
    };
    let mut metrics = vec![Metric::PassRate];
    for m in [
        Metric::Precision(None),
        Metric::Recall(None),
        Metric::F1(None),
    ] {
        if current.iter().any(|s| s.metric(&m).is_some()) {
            metrics.push(m);
        }
    }
    let mut gates: Vec<GateSpec> = metrics
        .into_iter()
        .map(|metric| GateSpec {
            metric,
            variant: None,
            min: None,
            max: None,
            baseline: true,
            max_drop: Some(threshold),
            source: at.clone(),
        })
        .collect();
    gates.push(GateSpec {
        metric: Metric::Regressions,
        variant: None,
        min: None,
        max: Some(0.0),
        baseline: true,
        max_drop: None,
        source: at,
    });
    gates
}

fn row(g: &GateSpec, variant: &str, status: GateStatus, note: String) -> GateResult {
    GateResult {
        gate: g.describe(),
        metric: g.metric.name(),
        variant: variant.to_owned(),
        source: source(g),
        value: None,
        min: g.min,
        max: g.max,
        max_drop: g.max_drop,
        baseline_value: None,
        delta: None,
        noise: None,
        beyond_noise: None,
        status,
        note,
    }
}

fn source(g: &GateSpec) -> String {
    if g.source.line == 0 {
        g.source.file.clone()
    } else {
        g.source.to_string()
    }
}

fn check(g: &GateSpec, s: &Snapshot, against: Against<'_>, history: &[Snapshot]) -> GateResult {
    let mut r = row(g, &s.variant, GateStatus::Pass, String::new());
    let diff = match against {
        Against::Baseline(diffs) => diffs.iter().find(|d| d.b.variant == s.variant),
        Against::Nothing(_) => None,
    };
    if g.baseline && diff.is_none() {
        r.status = GateStatus::Skipped;
        r.note = match against {
            Against::Nothing(why) => why.to_owned(),
            Against::Baseline(_) => format!("variant `{}` is not in the baseline", s.variant),
        };
        if g.metric.needs_baseline() {
            return r;
        }
    }
    // The value.
    if g.metric == Metric::Regressions {
        let Some(d) = diff else { return r };
        let n = d
            .flips
            .iter()
            .filter(|f| f.kind == FlipKind::Regression && !f.flaky)
            .count();
        r.value = Some(n as f64);
        r.baseline_value = Some(0.0);
        r.delta = Some(n as f64);
    } else {
        r.value = s.metric(&g.metric);
        if r.value.is_none() {
            r.status = GateStatus::Error;
            r.note = format!("the run did not measure `{}` for `{}`", g.metric, s.variant);
            return r;
        }
    }
    let value = r.value.unwrap_or_default();
    let mut status = if r.status == GateStatus::Skipped {
        GateStatus::Skipped
    } else {
        GateStatus::Pass
    };
    let mut why = Vec::new();
    if let Some(lo) = g.min
        && value < lo - TOLERANCE
    {
        status = GateStatus::Fail;
        why.push(format!("below {}", num(lo)));
    }
    if let Some(hi) = g.max
        && value > hi + TOLERANCE
    {
        status = GateStatus::Fail;
        why.push(format!("above {}", num(hi)));
    }
    if g.baseline
        && g.metric != Metric::Regressions
        && let Some(d) = diff
    {
        match d.metric(&g.metric.name()) {
            Some(m) if !m.comparable => {
                if status == GateStatus::Pass {
                    status = GateStatus::Skipped;
                }
                why.push(format!(
                    "the runs' task sets differ and `{}` cannot be compared on the common tasks",
                    g.metric
                ));
            }
            Some(m) if m.delta.is_some() => {
                r.baseline_value = m.a;
                r.delta = m.delta;
                r.noise = m
                    .noise
                    .iter()
                    .map(|e| e.half_width)
                    .fold(None, |w: Option<f64>, x| Some(w.map_or(x, |w| w.max(x))));
                r.beyond_noise = m.beyond_noise;
                let bad = m.worsening().unwrap_or(0.0);
                if let Some(limit) = g.max_drop {
                    if bad >= limit - TOLERANCE {
                        status = GateStatus::Fail;
                        why.push(format!("dropped {} (limit {})", num(bad), num(limit)));
                    } else if bad > TOLERANCE && status != GateStatus::Fail {
                        status = GateStatus::Review;
                        why.push(format!(
                            "dropped {}, under the limit {}",
                            num(bad),
                            num(limit)
                        ));
                    }
                }
            }
            _ => {
                status = GateStatus::Error;
                why.push(format!("the baseline did not measure `{}`", g.metric));
            }
        }
    }
    if let Some(b) = r.beyond_noise
        && r.delta.is_some_and(|d| d.abs() > TOLERANCE)
    {
        why.push(if b {
            "beyond noise".into()
        } else {
            "within noise".into()
        });
    } else if r.noise.is_none()
        && g.metric != Metric::Regressions
        && let Some(n) = super::noise::value_noise(&g.metric, s, history)
    {
        // A fixed bound: is the value clear of it by more than the run-to-run noise?
        r.noise = Some(n);
        let margin = [g.min, g.max]
            .into_iter()
            .flatten()
            .map(|bound| (value - bound).abs())
            .fold(f64::INFINITY, f64::min);
        if margin.is_finite() {
            let clear = margin > n + TOLERANCE;
            r.beyond_noise = Some(clear);
            if !clear {
                why.push("within noise of the bound".into());
            }
        }
    }
    r.status = status;
    if !why.is_empty() {
        r.note = why.join("; ");
    }
    r
}

/// A number for a note: up to four decimals, no trailing zeros.
pub fn num(v: f64) -> String {
    let s = format!("{v:.4}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.to_owned() }
}
