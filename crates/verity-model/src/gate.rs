//! Gates: the conditions a CI job acts on. A gate reads one [`Metric`] of one variant (or of
//! every variant) and bounds it, either by a fixed value (`min` / `max`) or by the suite's
//! baseline (`max_drop`). Suites declare them as `[[gates]]`; the command line adds more
//! (`--gate 'f1>=0.8'`, `--fail-on-regression`, `--fail-under`).

use serde::{Deserialize, Serialize};

use crate::SourceLoc;

/// A number a gate or a comparison reads from a run's results, for one variant.
///
/// Written as text in suite.toml and on the command line: `pass_rate`, `criterion:NAME`,
/// `category:NAME`, `precision`, `recall`, `f1`, `macro_f1` (each optionally `:CRITERION`
/// when a suite has several counting criteria), `group:NAME` (the pass rate of a group
/// criterion), `group_mean:NAME` (its mean value), `latency_p50_ms`, `latency_p95_ms`,
/// `mcnemar_p` (the p-value of the declared comparison whose treatment is the variant),
/// `regressions` (tasks that passed in the baseline and fail now), and seed 002's verification
/// metrics of the `citations` scorers: `citation_accuracy`, `structural_accuracy`,
/// `consistency_rate` and `hallucination_rate`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum Metric {
    PassRate,
    Criterion(String),
    Category(String),
    Precision(Option<String>),
    Recall(Option<String>),
    F1(Option<String>),
    MacroF1(Option<String>),
    Group(String),
    GroupMean(String),
    LatencyP50,
    LatencyP95,
    McNemarP,
    Regressions,
    CitationAccuracy,
    StructuralAccuracy,
    ConsistencyRate,
    HallucinationRate,
}

/// The metric names without an argument, then the `name:ARG` forms, for help texts and
/// "did you mean" suggestions.
pub const METRIC_FORMS: &[&str] = &[
    "pass_rate",
    "precision",
    "recall",
    "f1",
    "macro_f1",
    "latency_p50_ms",
    "latency_p95_ms",
    "mcnemar_p",
    "regressions",
    "citation_accuracy",
    "structural_accuracy",
    "consistency_rate",
    "hallucination_rate",
    "criterion:NAME",
    "category:NAME",
    "precision:CRITERION",
    "recall:CRITERION",
    "f1:CRITERION",
    "macro_f1:CRITERION",
    "group:NAME",
    "group_mean:NAME",
];

impl Metric {
    /// Parses the text form (see [`Metric`]).
    pub fn parse(s: &str) -> Result<Metric, String> {
        let s = s.trim();
        let (head, arg) = match s.split_once(':') {
            Some((h, a)) => (h, Some(a)),
            None => (s, None),
        };
        let need = |what: &str| -> Result<String, String> {
            match arg {
                Some(a) if !a.trim().is_empty() => Ok(a.trim().to_owned()),
                _ => Err(format!("`{head}` needs a {what}: `{head}:NAME`")),
            }
        };
        let none = |m: Metric| -> Result<Metric, String> {
            match arg {
                None => Ok(m),
                Some(_) => Err(format!("`{head}` takes no `:` argument")),
            }
        };
        let opt = || arg.map(|a| a.trim().to_owned()).filter(|a| !a.is_empty());
        match head {
            "pass_rate" => none(Metric::PassRate),
            "criterion" => need("criterion").map(Metric::Criterion),
            "category" => need("category").map(Metric::Category),
            "precision" => Ok(Metric::Precision(opt())),
            "recall" => Ok(Metric::Recall(opt())),
            "f1" => Ok(Metric::F1(opt())),
            "macro_f1" => Ok(Metric::MacroF1(opt())),
            "group" => need("group criterion").map(Metric::Group),
            "group_mean" => need("group criterion").map(Metric::GroupMean),
            "latency_p50_ms" => none(Metric::LatencyP50),
            "latency_p95_ms" => none(Metric::LatencyP95),
            "mcnemar_p" => none(Metric::McNemarP),
            "regressions" => none(Metric::Regressions),
            "citation_accuracy" => none(Metric::CitationAccuracy),
            "structural_accuracy" => none(Metric::StructuralAccuracy),
            "consistency_rate" => none(Metric::ConsistencyRate),
            "hallucination_rate" => none(Metric::HallucinationRate),
            _ => Err(format!(
                "unknown metric `{s}`; metrics: {}",
                METRIC_FORMS.join(", ")
            )),
        }
    }

    /// The text form, as [`Metric::parse`] reads it.
    pub fn name(&self) -> String {
        let with = |h: &str, a: &Option<String>| match a {
            Some(a) => format!("{h}:{a}"),
            None => h.to_owned(),
        };
        match self {
            Metric::PassRate => "pass_rate".into(),
            Metric::Criterion(c) => format!("criterion:{c}"),
            Metric::Category(c) => format!("category:{c}"),
            Metric::Precision(a) => with("precision", a),
            Metric::Recall(a) => with("recall", a),
            Metric::F1(a) => with("f1", a),
            Metric::MacroF1(a) => with("macro_f1", a),
            Metric::Group(g) => format!("group:{g}"),
            Metric::GroupMean(g) => format!("group_mean:{g}"),
            Metric::LatencyP50 => "latency_p50_ms".into(),
            Metric::LatencyP95 => "latency_p95_ms".into(),
            Metric::McNemarP => "mcnemar_p".into(),
            Metric::Regressions => "regressions".into(),
            Metric::CitationAccuracy => "citation_accuracy".into(),
            Metric::StructuralAccuracy => "structural_accuracy".into(),
            Metric::ConsistencyRate => "consistency_rate".into(),
            Metric::HallucinationRate => "hallucination_rate".into(),
        }
    }

    /// Whether a larger value is better (false for latencies, p-values and regressions).
    pub fn higher_is_better(&self) -> bool {
        !matches!(
            self,
            Metric::LatencyP50
                | Metric::LatencyP95
                | Metric::McNemarP
                | Metric::Regressions
                | Metric::HallucinationRate
        )
    }

    /// Whether the value is a fraction in 0..=1 (a rate, a p-value, P/R/F1).
    pub fn is_fraction(&self) -> bool {
        !matches!(
            self,
            Metric::LatencyP50 | Metric::LatencyP95 | Metric::Regressions | Metric::GroupMean(_)
        )
    }

    /// Whether the metric exists only against a baseline.
    pub fn needs_baseline(&self) -> bool {
        matches!(self, Metric::Regressions)
    }
}

impl std::fmt::Display for Metric {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name())
    }
}

impl TryFrom<String> for Metric {
    type Error = String;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        Metric::parse(&s)
    }
}

impl From<Metric> for String {
    fn from(m: Metric) -> String {
        m.name()
    }
}

/// One gate (suite.toml `[[gates]]`, or the command line).
///
/// A fixed gate bounds the metric's value (`min`, `max`); a baseline gate (`baseline = true`)
/// bounds how far it may move in the bad direction from the baseline's value (`max_drop`, in
/// the metric's own units: 0.05 is five percentage points of a rate; a move of `max_drop` or
/// more fails, as seed 003's "detects a 5 % regression" asks). A gate may be both.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GateSpec {
    pub metric: Metric,
    /// The variant it reads; `None`: every variant of the run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<f64>,
    /// Judged against the suite's baseline.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub baseline: bool,
    /// With `baseline`: the move in the bad direction that fails the gate (this much or more).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_drop: Option<f64>,
    /// Where it was declared: `suite.toml:LINE:COL`, or `--gate` / `--fail-under` /
    /// `--fail-on-regression` (line 0) for the command line's.
    #[serde(default)]
    pub source: SourceLoc,
}

impl GateSpec {
    /// A gate from the command line (`--gate`): `METRIC OP VALUE`, where OP is `>=`, `>`,
    /// `<=` or `<` (a strict bound is kept as the non-strict one: metrics are compared with
    /// a tolerance of 1e-9 anyway), optionally `METRIC@VARIANT`. `pass_rate>=0.9`,
    /// `f1@grounded>=0.8`, `latency_p95_ms<=2000`.
    pub fn parse_expr(expr: &str, source: &str) -> Result<GateSpec, String> {
        let ops = [">=", "<=", ">", "<"];
        let (at, op) = ops
            .iter()
            .filter_map(|op| expr.find(op).map(|i| (i, *op)))
            .min_by_key(|(i, op)| (*i, std::cmp::Reverse(op.len())))
            .ok_or_else(|| {
                format!("`{expr}` is not a gate: write METRIC>=VALUE or METRIC<=VALUE")
            })?;
        let lhs = expr[..at].trim();
        let rhs = expr[at + op.len()..].trim();
        let value: f64 = rhs
            .parse()
            .ok()
            .filter(|v: &f64| v.is_finite())
            .ok_or_else(|| format!("`{rhs}` in `{expr}` is not a number"))?;
        let (metric, variant) = match lhs.rsplit_once('@') {
            Some((m, v)) if !v.trim().is_empty() => (m, Some(v.trim().to_owned())),
            Some(_) => return Err(format!("`{expr}`: a variant name follows `@`")),
            None => (lhs, None),
        };
        let metric = Metric::parse(metric)?;
        let mut gate = GateSpec {
            metric,
            variant,
            min: None,
            max: None,
            baseline: false,
            max_drop: None,
            source: SourceLoc {
                file: source.to_owned(),
                line: 0,
                column: 0,
            },
        };
        if op.starts_with('>') {
            gate.min = Some(value);
        } else {
            gate.max = Some(value);
        }
        gate.baseline = gate.metric.needs_baseline();
        gate.check()?;
        Ok(gate)
    }

    /// What is wrong with the gate's bounds, if anything: no bound at all, a `max_drop`
    /// without `baseline`, a negative drop, a fraction bound outside 0..=1, `min` above `max`.
    pub fn check(&self) -> Result<(), String> {
        let m = &self.metric;
        if self.min.is_none() && self.max.is_none() && self.max_drop.is_none() {
            return Err(format!(
                "the gate on `{m}` sets no bound: give `min`, `max` or (with `baseline = true`) `max_drop`"
            ));
        }
        if self.max_drop.is_some() && !self.baseline {
            return Err("`max_drop` is measured from the baseline: add `baseline = true`".into());
        }
        if let Some(d) = self.max_drop
            && !(d.is_finite() && d >= 0.0)
        {
            return Err(format!("`max_drop` must be 0 or more, got {d}"));
        }
        for (name, v) in [("min", self.min), ("max", self.max)] {
            if let Some(v) = v {
                if !v.is_finite() {
                    return Err(format!("`{name}` must be a finite number"));
                }
                if m.is_fraction() && !(0.0..=1.0).contains(&v) {
                    return Err(format!(
                        "`{m}` is a fraction from 0 to 1; `{name} = {v}` can never be decided by it"
                    ));
                }
                if !m.is_fraction() && v < 0.0 {
                    return Err(format!("`{m}` is never negative; `{name} = {v}`"));
                }
            }
        }
        if let (Some(lo), Some(hi)) = (self.min, self.max)
            && lo > hi
        {
            return Err(format!("`min = {lo}` is above `max = {hi}`"));
        }
        if m.needs_baseline() && !self.baseline {
            return Err(format!(
                "`{m}` is counted against the baseline: add `baseline = true`"
            ));
        }
        Ok(())
    }

    /// The gate in one line: `f1 >= 0.8`, `pass_rate drop < 0.05 from baseline`.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(v) = self.min {
            parts.push(format!(">= {}", fmt_num(v)));
        }
        if let Some(v) = self.max {
            parts.push(format!("<= {}", fmt_num(v)));
        }
        if let Some(d) = self.max_drop {
            parts.push(format!("drop < {} from baseline", fmt_num(d)));
        }
        format!("{} {}", self.metric, parts.join(", "))
    }
}

fn fmt_num(v: f64) -> String {
    let s = format!("{v:.6}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s.is_empty() || s == "-" {
        "0".into()
    } else {
        s.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metrics_round_trip_through_text() {
        for s in [
            "pass_rate",
            "criterion:parse",
            "category:SwiftUI",
            "precision",
            "recall:claims",
            "f1",
            "f1:claims",
            "macro_f1",
            "group:identical",
            "group_mean:similarity",
            "latency_p50_ms",
            "latency_p95_ms",
            "mcnemar_p",
            "regressions",
        ] {
            let m = Metric::parse(s).unwrap();
            assert_eq!(m.name(), s);
        }
        assert!(Metric::parse("criterion").unwrap_err().contains("needs"));
        assert!(Metric::parse("pass_rate:x").unwrap_err().contains("no `:`"));
        assert!(
            Metric::parse("accuracy")
                .unwrap_err()
                .contains("unknown metric")
        );
        assert!(Metric::F1(None).higher_is_better());
        assert!(!Metric::LatencyP95.higher_is_better());
    }

    #[test]
    fn gate_expressions() {
        let g = GateSpec::parse_expr("f1>=0.8", "--gate").unwrap();
        assert_eq!(
            (g.metric.clone(), g.min, g.max),
            (Metric::F1(None), Some(0.8), None)
        );
        assert_eq!(g.describe(), "f1 >= 0.8");
        let g = GateSpec::parse_expr(" criterion:parse@grounded <= 0.5 ", "--gate").unwrap();
        assert_eq!(g.metric, Metric::Criterion("parse".into()));
        assert_eq!(g.variant.as_deref(), Some("grounded"));
        assert_eq!(g.max, Some(0.5));
        let g = GateSpec::parse_expr("regressions<=0", "--gate").unwrap();
        assert!(g.baseline);
        assert!(GateSpec::parse_expr("f1=0.8", "--gate").is_err());
        assert!(GateSpec::parse_expr("f1>=x", "--gate").is_err());
        assert!(
            GateSpec::parse_expr("f1>=1.5", "--gate")
                .unwrap_err()
                .contains("fraction")
        );
        assert!(GateSpec::parse_expr("latency_p95_ms<=2000", "--gate").is_ok());
        assert!(GateSpec::parse_expr("f1@>=0.5", "--gate").is_err());
    }

    #[test]
    fn bounds_are_checked() {
        let mut g = GateSpec::parse_expr("f1>=0.8", "x").unwrap();
        g.min = None;
        assert!(g.check().unwrap_err().contains("no bound"));
        g.max_drop = Some(0.05);
        assert!(g.check().unwrap_err().contains("baseline = true"));
        g.baseline = true;
        assert!(g.check().is_ok());
        g.max_drop = Some(-1.0);
        assert!(g.check().is_err());
        let json = serde_json::to_string(&GateSpec::parse_expr("f1:c>=0.8", "x").unwrap()).unwrap();
        assert!(json.contains("\"metric\":\"f1:c\""), "{json}");
        let back: GateSpec = serde_json::from_str(&json).unwrap();
        assert_eq!(back.metric, Metric::F1(Some("c".into())));
    }
}
