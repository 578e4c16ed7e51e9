//! Text, Markdown and JSON for comparisons and gate reports.

use std::fmt::Write as _;

use serde_json::{Value, json};

use super::diff::{Flip, FlipKind, MetricDelta, SideDiff, short};
use super::gates::{GateReport, GateStatus, num};

fn pct(v: Option<f64>) -> String {
    v.map(|v| format!("{:.1}%", v * 100.0))
        .unwrap_or_else(|| "-".into())
}

fn value(metric: &str, v: Option<f64>) -> String {
    match v {
        None => "-".into(),
        Some(v) if metric.starts_with("latency") => format!("{v:.0}"),
        Some(v) => format!("{v:.3}"),
    }
}

fn delta(m: &MetricDelta) -> String {
    match m.delta {
        None => "-".into(),
        Some(d) if d.abs() < 1e-12 => "=".into(),
        Some(d) if m.metric.starts_with("latency") => format!("{d:+.0}"),
        Some(d) => format!("{d:+.3}"),
    }
}

fn noise(m: &MetricDelta) -> String {
    let widest = m
        .noise
        .iter()
        .max_by(|a, b| a.half_width.total_cmp(&b.half_width));
    match (widest, m.beyond_noise, m.delta) {
        (None, _, _) => String::new(),
        (Some(w), b, d) => {
            let verdict = match (b, d) {
                (_, Some(d)) if d.abs() < 1e-12 => "",
                (Some(true), _) => ", beyond noise",
                (Some(false), _) => ", within noise",
                _ => "",
            };
            format!("±{} ({}){verdict}", num(w.half_width), w.method.describe())
        }
    }
}

fn side_line(label: &str, s: &super::diff::SideInfo) -> String {
    format!(
        "{label} = {} ({}, {}, prompt {}, {} tasks, {} epoch{}, {})",
        s.label(),
        s.model,
        s.date,
        short(&s.prompt_hash),
        s.tasks,
        s.epochs,
        if s.epochs == 1 { "" } else { "s" },
        s.status
    )
}

fn flip_lines(out: &mut String, f: &Flip, indent: &str) {
    let arrow = match f.kind {
        FlipKind::Regression => "pass → fail",
        FlipKind::Improvement => "fail → pass",
    };
    let cat = f
        .category
        .as_deref()
        .map(|c| format!(" [{c}]"))
        .unwrap_or_default();
    let flaky = if f.flaky { " (flaky)" } else { "" };
    let _ = writeln!(
        out,
        "{indent}{arrow}  {} {}{cat}{flaky}",
        f.task_id, f.variant
    );
    let reason = match f.kind {
        FlipKind::Regression => f.b_reason.as_deref().map(|r| ("now", r)),
        FlipKind::Improvement => f.a_reason.as_deref().map(|r| ("was", r)),
    };
    if let Some((when, r)) = reason {
        let _ = writeln!(out, "{indent}    {when}: {r}");
    }
    if let Some(r) = &f.rationale {
        let _ = writeln!(out, "{indent}    rationale: {r}");
    }
}

/// `verity compare` as text.
pub fn render_diff_table(diffs: &[SideDiff]) -> String {
    let mut out = String::new();
    for (i, d) in diffs.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let _ = writeln!(out, "{}", side_line("A", &d.a));
        let _ = writeln!(out, "{}", side_line("B", &d.b));
        for w in &d.warnings {
            let _ = writeln!(out, "WARNING: {w}");
        }
        let rate = |r: &super::diff::RateInfo| {
            let ci = r
                .ci95
                .map(|(lo, hi)| format!(" [{}, {}]", pct(Some(lo)), pct(Some(hi))))
                .unwrap_or_default();
            format!("{}{ci} ({}/{})", pct(r.value), r.successes, r.n)
        };
        let _ = writeln!(
            out,
            "\npass rate  A {}   B {}",
            rate(&d.rate_a),
            rate(&d.rate_b)
        );
        let [[both, a_only], [b_only, neither]] = d.contingency;
        let _ = writeln!(
            out,
            "paired on {} tasks: both pass {both}, A only {a_only}, B only {b_only}, neither {neither}; McNemar p = {:.4} ({}, two-sided)",
            d.n_pairs(),
            d.p_value,
            d.p_method.as_str()
        );
        if d.a.epochs > 1 || d.b.epochs > 1 {
            let [[sb, sa], [sbo, sn]] = d.sample_contingency;
            let _ = writeln!(
                out,
                "samples paired by task and epoch: both pass {sb}, A only {sa}, B only {sbo}, neither {sn}"
            );
        }
        let rows: Vec<[String; 5]> = d
            .metrics
            .iter()
            .map(|m| {
                [
                    m.metric.clone(),
                    value(&m.metric, m.a),
                    value(&m.metric, m.b),
                    delta(m),
                    noise(m),
                ]
            })
            .collect();
        if !rows.is_empty() {
            let w: Vec<usize> = (0..4)
                .map(|c| {
                    rows.iter()
                        .map(|r| r[c].chars().count())
                        .chain([["metric", "A", "B", "change"][c].len()])
                        .max()
                        .unwrap_or(0)
                })
                .collect();
            let _ = writeln!(
                out,
                "\n{:<w0$}  {:>w1$}  {:>w2$}  {:>w3$}  noise",
                "metric",
                "A",
                "B",
                "change",
                w0 = w[0],
                w1 = w[1],
                w2 = w[2],
                w3 = w[3]
            );
            for r in &rows {
                let _ = writeln!(
                    out,
                    "{:<w0$}  {:>w1$}  {:>w2$}  {:>w3$}  {}",
                    r[0],
                    r[1],
                    r[2],
                    r[3],
                    r[4],
                    w0 = w[0],
                    w1 = w[1],
                    w2 = w[2],
                    w3 = w[3]
                );
            }
        }
        if d.flips.is_empty() {
            let _ = writeln!(out, "\nno task flipped");
        } else {
            let _ = writeln!(out, "\nflipped tasks ({}):", d.flips.len());
            for f in &d.flips {
                flip_lines(&mut out, f, "  ");
            }
        }
        for (side, ids) in [("A", &d.only_a), ("B", &d.only_b)] {
            if !ids.is_empty() {
                let _ = writeln!(out, "only in {side} ({}): {}", ids.len(), list(ids, 10));
            }
        }
    }
    out
}

fn list(ids: &[String], max: usize) -> String {
    let mut s = ids.iter().take(max).cloned().collect::<Vec<_>>().join(", ");
    if ids.len() > max {
        let _ = write!(s, ", … {} more", ids.len() - max);
    }
    s
}

fn md_cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

/// `verity compare --format md`.
pub fn render_diff_markdown(diffs: &[SideDiff]) -> String {
    let mut out = String::from("# Comparison\n");
    for d in diffs {
        let _ = writeln!(out, "\n## `{}` → `{}`\n", d.a.label(), d.b.label());
        let _ = writeln!(out, "| | A | B |\n|---|---|---|");
        let _ = writeln!(out, "| run | `{}` | `{}` |", d.a.run_id, d.b.run_id);
        let _ = writeln!(out, "| variant | {} | {} |", d.a.variant, d.b.variant);
        let _ = writeln!(out, "| model | {} | {} |", d.a.model, d.b.model);
        let _ = writeln!(out, "| started | {} | {} |", d.a.date, d.b.date);
        let _ = writeln!(
            out,
            "| prompt | `{}` | `{}` |",
            short(&d.a.prompt_hash),
            short(&d.b.prompt_hash)
        );
        let _ = writeln!(
            out,
            "| suite | `{}` | `{}` |",
            short(&d.a.suite_hash),
            short(&d.b.suite_hash)
        );
        let _ = writeln!(out, "| tasks | {} | {} |", d.a.tasks, d.b.tasks);
        let _ = writeln!(
            out,
            "| pass rate | {} ({}/{}) | {} ({}/{}) |",
            pct(d.rate_a.value),
            d.rate_a.successes,
            d.rate_a.n,
            pct(d.rate_b.value),
            d.rate_b.successes,
            d.rate_b.n
        );
        if !d.warnings.is_empty() {
            out.push('\n');
            for w in &d.warnings {
                let _ = writeln!(out, "> **Warning:** {}", md_cell(w));
            }
        }
        let [[both, a_only], [b_only, neither]] = d.contingency;
        let _ = writeln!(
            out,
            "\nPaired on {} tasks: both pass {both}, A only {a_only}, B only {b_only}, neither {neither}. McNemar p = {:.4} ({}, two-sided).\n",
            d.n_pairs(),
            d.p_value,
            d.p_method.as_str()
        );
        if !d.metrics.is_empty() {
            let _ = writeln!(
                out,
                "| metric | A | B | change | noise |\n|---|---:|---:|---:|---|"
            );
            for m in &d.metrics {
                let _ = writeln!(
                    out,
                    "| {} | {} | {} | {} | {} |",
                    m.metric,
                    value(&m.metric, m.a),
                    value(&m.metric, m.b),
                    delta(m),
                    md_cell(&noise(m))
                );
            }
        }
        if !d.flips.is_empty() {
            let _ = writeln!(out, "\n### Flipped tasks ({})\n", d.flips.len());
            let _ = writeln!(
                out,
                "| task | change | category | evidence | rationale |\n|---|---|---|---|---|"
            );
            for f in &d.flips {
                let (arrow, why) = match f.kind {
                    FlipKind::Regression => ("pass → fail", f.b_reason.as_deref()),
                    FlipKind::Improvement => ("fail → pass", f.a_reason.as_deref()),
                };
                let _ = writeln!(
                    out,
                    "| `{}` | {arrow}{} | {} | {} | {} |",
                    f.task_id,
                    if f.flaky { " (flaky)" } else { "" },
                    md_cell(f.category.as_deref().unwrap_or("")),
                    md_cell(why.unwrap_or("")),
                    md_cell(f.rationale.as_deref().unwrap_or(""))
                );
            }
        }
        for (side, ids) in [("A", &d.only_a), ("B", &d.only_b)] {
            if !ids.is_empty() {
                let _ = writeln!(
                    out,
                    "\nOnly in {side} ({}): {}",
                    ids.len(),
                    md_cell(&list(ids, 50))
                );
            }
        }
    }
    out
}

/// `verity compare --format json`, and the report's `baseline_comparison`.
pub fn diff_json(diffs: &[SideDiff]) -> Value {
    json!({
        "comparisons": diffs.iter().map(|d| {
            let mut v = serde_json::to_value(d).unwrap_or(Value::Null);
            if let Some(o) = v.as_object_mut() {
                o.insert("n_pairs".into(), json!(d.n_pairs()));
                o.insert("p_method".into(), json!(d.p_method.as_str()));
                let m = &d.mcnemar;
                o.insert("mcnemar".into(), json!({
                    "a_only": m.b,
                    "b_only": m.c,
                    "chi2": m.chi2,
                    "p_chi2": m.p_chi2,
                    "p_exact_two_sided": m.p_exact_two_sided,
                    "p_mid": m.p_mid,
                    "exact_recommended": m.exact_recommended,
                }));
            }
            v
        }).collect::<Vec<_>>(),
    })
}

/// The report's `gates` section and `--format json` of a gate report.
pub fn gates_json(r: &GateReport) -> Value {
    serde_json::to_value(r).unwrap_or(Value::Null)
}

/// A gate report as text: the verdict, every gate with its value, threshold and status, and
/// the tasks that regressed, improved or flipped by chance.
pub fn render_gates(r: &GateReport) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "verdict: {}", r.verdict.as_str().to_uppercase());
    for g in &r.gates {
        let mark = match g.status {
            GateStatus::Pass => "ok  ",
            GateStatus::Skipped => "skip",
            GateStatus::Review => "look",
            GateStatus::Fail => "FAIL",
            GateStatus::Error => "ERR ",
        };
        let mut line = format!("  {mark} {} [{}]", g.gate, g.variant);
        if let Some(v) = g.value {
            let _ = write!(line, ": {}", num(v));
        }
        if let (Some(b), Some(d)) = (g.baseline_value, g.delta) {
            let _ = write!(
                line,
                " (baseline {}, {}{})",
                num(b),
                if d >= 0.0 { "+" } else { "" },
                num(d)
            );
        }
        if let Some(n) = g.noise {
            let _ = write!(line, ", noise ±{}", num(n));
        }
        if !g.note.is_empty() {
            let _ = write!(line, " — {}", g.note);
        }
        let _ = writeln!(out, "{line}  ({})", g.source);
    }
    for (title, flips) in [
        ("regressions", &r.regressions),
        ("flaky regressions (not counted)", &r.flaky),
        ("improvements", &r.improvements),
    ] {
        if !flips.is_empty() {
            let _ = writeln!(out, "{title} ({}):", flips.len());
            for f in flips {
                flip_lines(&mut out, f, "  ");
            }
        }
    }
    for n in &r.notes {
        let _ = writeln!(out, "note: {n}");
    }
    out
}

/// A cost in USD: four decimals under a dollar, two above.
pub fn usd(v: f64) -> String {
    if v < 1.0 {
        format!("${v:.4}")
    } else {
        format!("${v:.2}")
    }
}
