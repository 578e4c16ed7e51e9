//! `baseline.toml`: a run's snapshots kept at the suite's root and reviewed in pull requests
//! like code. Per variant: the metrics, each task's outcome (with why it failed), the model,
//! prompt hash, verity version, run id and date. The suite loader never reads it, so saving a
//! baseline leaves the suite's content hash alone.
//!
//! Seed 003's manifest `[baseline]` (precision, recall, f1, prompt_version, model, measured_at)
//! is a subset: its numbers are `metrics.precision` / `recall` / `f1`, its model `model` and
//! its time `date`.

use serde::{Deserialize, Serialize};

use super::gates::num;
use super::snapshot::Snapshot;

/// The version of the baseline file's layout; a file of a newer one is refused.
pub const BASELINE_FORMAT: u32 = 1;

const HEADER: &str = "\
# verity baseline: the results a suite's runs are gated against (`verity run --baseline`,
# `[[gates]] baseline = true`). Written by `verity baseline save RUN`; review changes to it like
# code. verity's suite loader ignores this file: it is not part of the suite's content hash.
";

/// A baseline file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Baseline {
    pub format: u32,
    /// The suite's name when the baseline was saved.
    pub suite: String,
    /// When it was saved (RFC 3339, UTC), and by which verity.
    pub saved_at: String,
    pub saved_by: String,
    /// One snapshot per variant, in the run's variant order.
    #[serde(rename = "variant")]
    pub variants: Vec<Snapshot>,
}

impl Baseline {
    pub fn new(variants: Vec<Snapshot>, saved_at: String) -> Baseline {
        Baseline {
            format: BASELINE_FORMAT,
            suite: variants
                .first()
                .map(|s| s.suite_name.clone())
                .unwrap_or_default(),
            saved_at,
            saved_by: env!("CARGO_PKG_VERSION").to_owned(),
            variants,
        }
    }

    pub fn variant(&self, name: &str) -> Option<&Snapshot> {
        self.variants.iter().find(|s| s.variant == name)
    }

    /// The file's text.
    pub fn to_toml(&self) -> Result<String, String> {
        let body = toml::to_string(self).map_err(|e| e.to_string())?;
        Ok(format!("{HEADER}\n{body}"))
    }

    /// Reads a baseline file's text. The error says where (line and column) and what.
    pub fn from_toml(text: &str) -> Result<Baseline, String> {
        #[derive(Deserialize)]
        struct Probe {
            format: Option<u32>,
        }
        if let Ok(Probe { format: Some(f) }) = toml::from_str::<Probe>(text)
            && f > BASELINE_FORMAT
        {
            return Err(format!(
                "written in baseline format {f}; this verity reads format {BASELINE_FORMAT} (upgrade verity)"
            ));
        }
        toml::from_str(text).map_err(|e| e.to_string().trim_end().to_owned())
    }
}

/// `verity baseline show`: every variant's identity and metrics.
pub fn render_baseline(b: &Baseline) -> String {
    let mut out = format!(
        "Baseline of suite `{}`, saved {} by verity {}\n",
        b.suite, b.saved_at, b.saved_by
    );
    for s in &b.variants {
        let failing = s
            .tasks
            .values()
            .filter(|t| t.outcome == crate::TaskOutcome::Fail)
            .count();
        out.push_str(&format!(
            "\nvariant {}: run {} ({}), {}, prompt {}, {} tasks ({} failing), {} epoch{}\n",
            s.variant,
            s.run_id,
            s.date,
            s.model,
            super::diff::short(&s.prompt_hash),
            s.tasks.len(),
            failing,
            s.epochs,
            if s.epochs == 1 { "" } else { "s" }
        ));
        let width = s
            .metrics
            .keys()
            .map(|k| k.chars().count())
            .max()
            .unwrap_or(0);
        for (k, v) in &s.metrics {
            out.push_str(&format!("  {k:<width$}  {}\n", num(*v)));
        }
    }
    out
}

/// The old and the new baseline side by side (`verity baseline save` over an existing file).
pub fn render_baseline_change(old: &Baseline, new: &Baseline) -> String {
    let mut out = String::new();
    let mut names: Vec<&str> = old.variants.iter().map(|s| s.variant.as_str()).collect();
    for s in &new.variants {
        if !names.contains(&s.variant.as_str()) {
            names.push(&s.variant);
        }
    }
    for name in names {
        let (o, n) = (old.variant(name), new.variant(name));
        let id = |s: Option<&Snapshot>| {
            s.map(|s| format!("run {} ({}, {})", s.run_id, s.date, s.model))
                .unwrap_or_else(|| "-".into())
        };
        out.push_str(&format!(
            "variant {name}\n  old: {}\n  new: {}\n",
            id(o),
            id(n)
        ));
        let mut keys: Vec<&String> = o
            .iter()
            .chain(n.iter())
            .flat_map(|s| s.metrics.keys())
            .collect();
        keys.sort();
        keys.dedup();
        let width = keys
            .iter()
            .map(|k| k.chars().count())
            .max()
            .unwrap_or(6)
            .max(6);
        out.push_str(&format!(
            "  {:<width$}  {:>10}  {:>10}  {:>10}\n",
            "metric", "old", "new", "change"
        ));
        for k in keys {
            let (a, b) = (
                o.and_then(|s| s.metrics.get(k)).copied(),
                n.and_then(|s| s.metrics.get(k)).copied(),
            );
            let show = |v: Option<f64>| v.map(num).unwrap_or_else(|| "-".into());
            let delta = match (a, b) {
                (Some(a), Some(b)) if (b - a).abs() > 1e-12 => format!("{:+.4}", b - a),
                (Some(_), Some(_)) => "=".into(),
                _ => "-".into(),
            };
            out.push_str(&format!(
                "  {k:<width$}  {:>10}  {:>10}  {delta:>10}\n",
                show(a),
                show(b)
            ));
        }
        if let (Some(o), Some(n)) = (o, n) {
            let changed = o
                .tasks
                .iter()
                .filter(|(id, t)| n.tasks.get(*id).is_some_and(|u| u.outcome != t.outcome))
                .count();
            out.push_str(&format!("  tasks whose outcome changes: {changed}\n"));
        }
    }
    out
}
