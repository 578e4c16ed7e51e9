//! Run-to-run noise: how far a metric moves between two runs that differ in nothing but
//! chance, so a comparison can say whether a change exceeds it. Three estimates, each used
//! when its data exists (the method is documented in `docs/gates.md`):
//!
//! * **epochs** — with two or more epochs, each epoch is a replicate of a one-epoch run: the
//!   spread (sample sd) of the metric across epochs, pooled over the sides that have it, gives
//!   the half-width 1.96 · sd · √(1/Eₐ + 1/E_b) for the difference of two run-level values;
//! * **history** — earlier stored runs of the same suite (content hash), variant and model:
//!   the sd of their values gives 1.96 · sd · √2 (the difference of two independent runs);
//! * **bootstrap** — resampling the tasks both sides ran, with replacement, 2,000 times
//!   (seeded by the two run ids and the metric): half the width of the 95 % percentile
//!   interval of the paired difference. Rates, categories and precision / recall / F1 only
//!   (their per-task shares are stored); it measures how much the difference rests on a few
//!   tasks.
//!
//! A change *exceeds the noise* when its size is larger than every available half-width.

use serde::Serialize;
use verity_model::{ErrorPolicy, Metric};
use verity_stats::{BOOTSTRAP_RESAMPLES, bootstrap, sample_sd};

use super::snapshot::{Snapshot, TaskResult};

/// z for a two-sided 95 % interval.
const Z95: f64 = 1.959_963_984_540_054;

/// How an estimate was made.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "method", rename_all = "snake_case")]
pub enum NoiseMethod {
    Epochs { epochs_a: u32, epochs_b: u32 },
    History { runs: usize },
    Bootstrap { tasks: usize, resamples: usize },
}

impl NoiseMethod {
    pub fn describe(&self) -> String {
        match self {
            NoiseMethod::Epochs { epochs_a, epochs_b } => {
                format!("spread across epochs ({epochs_a} vs {epochs_b})")
            }
            NoiseMethod::History { runs } => format!("{runs} earlier runs"),
            NoiseMethod::Bootstrap { tasks, .. } => format!("bootstrap over {tasks} tasks"),
        }
    }
}

/// One estimate: a change smaller than `half_width` is within this kind of noise.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NoiseEstimate {
    pub half_width: f64,
    #[serde(flatten)]
    pub method: NoiseMethod,
}

/// Every estimate available for `metric` between `a` and `b`; `history` holds earlier runs of
/// b's suite, variant and model (possibly including a's run).
pub fn estimate(
    metric: &Metric,
    a: &Snapshot,
    b: &Snapshot,
    history: &[Snapshot],
) -> Vec<NoiseEstimate> {
    let name = metric.name();
    let mut out = Vec::new();
    // Epochs: pooled variance of the sides that have per-epoch values.
    let sds: Vec<f64> = [a, b]
        .iter()
        .filter_map(|s| s.epoch_metrics.get(&name).and_then(|v| sample_sd(v)))
        .collect();
    if !sds.is_empty() {
        let pooled = (sds.iter().map(|s| s * s).sum::<f64>() / sds.len() as f64).sqrt();
        let (ea, eb) = (a.epochs.max(1), b.epochs.max(1));
        out.push(NoiseEstimate {
            half_width: Z95 * pooled * (1.0 / f64::from(ea) + 1.0 / f64::from(eb)).sqrt(),
            method: NoiseMethod::Epochs {
                epochs_a: ea,
                epochs_b: eb,
            },
        });
    }
    let values: Vec<f64> = history.iter().filter_map(|s| s.metric(metric)).collect();
    if let Some(sd) = sample_sd(&values) {
        out.push(NoiseEstimate {
            half_width: Z95 * sd * 2f64.sqrt(),
            method: NoiseMethod::History { runs: values.len() },
        });
    }
    if let Some(e) = paired_bootstrap(metric, a, b) {
        out.push(e);
    }
    out
}

/// The noise of one run's value of `metric` (for a fixed bound): the wider of 1.96 · sd / √E
/// over its epochs and 1.96 · sd over earlier runs of the same suite, variant and model.
pub fn value_noise(metric: &Metric, s: &Snapshot, history: &[Snapshot]) -> Option<f64> {
    let epochs = s
        .epoch_metrics
        .get(&metric.name())
        .and_then(|v| sample_sd(v))
        .map(|sd| Z95 * sd / f64::from(s.epochs.max(1)).sqrt());
    let values: Vec<f64> = history
        .iter()
        .filter(|h| h.variant == s.variant && h.model == s.model && h.suite_hash == s.suite_hash)
        .filter_map(|h| h.metric(metric))
        .collect();
    let runs = sample_sd(&values).map(|sd| Z95 * sd);
    match (epochs, runs) {
        (Some(a), Some(b)) => Some(a.max(b)),
        (a, b) => a.or(b),
    }
}

/// Whether `delta` exceeds every estimate; `None` without any.
pub fn beyond(delta: f64, estimates: &[NoiseEstimate]) -> Option<bool> {
    let widest = estimates
        .iter()
        .map(|e| e.half_width)
        .fold(None, |m: Option<f64>, w| Some(m.map_or(w, |m| m.max(w))))?;
    Some(delta.abs() > widest + 1e-12)
}

/// A task's share of a metric: (numerator, denominator). `None` for metrics without shares.
type Share = fn(&TaskResult, ErrorPolicy, &str) -> Option<(f64, f64)>;

fn share_of(metric: &Metric) -> Option<(Share, String)> {
    fn prf_key(k: &Option<String>) -> String {
        k.clone().unwrap_or_default()
    }
    Some(match metric {
        Metric::PassRate => (|t, p, _| Some(t.pass_parts(p)), String::new()),
        // Tasks of other categories have no share (`None`), so only the category's own tasks
        // are resampled: a bootstrap stratified by category.
        Metric::Category(c) => (
            |t, p, c| {
                (t.category.as_deref().unwrap_or(crate::NO_CATEGORY) == c).then(|| t.pass_parts(p))
            },
            c.clone(),
        ),
        Metric::Precision(k) => (
            |t, _, k| counts(t, k).map(|c| (c.tp, c.tp + c.fp)),
            prf_key(k),
        ),
        Metric::Recall(k) => (
            |t, _, k| counts(t, k).map(|c| (c.tp, c.tp + c.fn_)),
            prf_key(k),
        ),
        Metric::F1(k) => (
            |t, _, k| counts(t, k).map(|c| (2.0 * c.tp, 2.0 * c.tp + c.fp + c.fn_)),
            prf_key(k),
        ),
        _ => return None,
    })
}

/// The task's counts for a counting criterion; `""` means the only one.
fn counts<'t>(t: &'t TaskResult, key: &str) -> Option<&'t super::snapshot::Counts> {
    if key.is_empty() {
        (t.counts.len() == 1)
            .then(|| t.counts.values().next())
            .flatten()
    } else {
        t.counts.get(key)
    }
}

/// A ratio of summed shares, with P/R/F1's convention: nothing counted at all is 1.
fn ratio(num: f64, den: f64, prf: bool) -> Option<f64> {
    if den > 0.0 {
        Some(num / den)
    } else if prf {
        Some(1.0)
    } else {
        None
    }
}

/// The metric recomputed over the tasks `keep` accepts, from the tasks' shares; the outer
/// `None` for a metric without per-task shares (criteria, groups, latencies, p-values).
pub(super) fn on_tasks(
    metric: &Metric,
    s: &Snapshot,
    keep: impl Fn(&str) -> bool,
) -> Option<Option<f64>> {
    let (share, key) = share_of(metric)?;
    let prf = !matches!(metric, Metric::PassRate | Metric::Category(_));
    let (mut num, mut den, mut any) = (0.0, 0.0, false);
    for (id, t) in &s.tasks {
        if !keep(id) {
            continue;
        }
        if let Some((n, d)) = share(t, s.errors, &key) {
            num += n;
            den += d;
            any = true;
        }
    }
    Some(if any { ratio(num, den, prf) } else { None })
}

fn paired_bootstrap(metric: &Metric, a: &Snapshot, b: &Snapshot) -> Option<NoiseEstimate> {
    let (share, key) = share_of(metric)?;
    let prf = !matches!(metric, Metric::PassRate | Metric::Category(_));
    let mut pairs: Vec<((f64, f64), (f64, f64))> = Vec::new();
    for (id, ta) in &a.tasks {
        let Some(tb) = b.tasks.get(id) else { continue };
        // A task without a share on either side (another category, no counts) is left out.
        let (Some(sa), Some(sb)) = (share(ta, a.errors, &key), share(tb, b.errors, &key)) else {
            continue;
        };
        pairs.push((sa, sb));
    }
    if pairs.len() < 2 {
        return None;
    }
    let seed = {
        let h = blake3::hash(format!("{}\0{}\0{}", a.label(), b.label(), metric).as_bytes());
        let mut first = [0u8; 8];
        first.copy_from_slice(&h.as_bytes()[..8]);
        u64::from_le_bytes(first)
    };
    let (lo, hi) = bootstrap(pairs.len(), BOOTSTRAP_RESAMPLES, seed, |idx| {
        let (mut an, mut ad, mut bn, mut bd) = (0.0, 0.0, 0.0, 0.0);
        for &i in idx {
            let ((x, y), (u, v)) = pairs[i];
            an += x;
            ad += y;
            bn += u;
            bd += v;
        }
        Some(ratio(bn, bd, prf)? - ratio(an, ad, prf)?)
    })?;
    Some(NoiseEstimate {
        half_width: (hi - lo) / 2.0,
        method: NoiseMethod::Bootstrap {
            tasks: pairs.len(),
            resamples: BOOTSTRAP_RESAMPLES,
        },
    })
}
