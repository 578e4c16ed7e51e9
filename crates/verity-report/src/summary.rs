//! A short Markdown summary for a CI step (`--format md-summary`), meant to be appended to
//! `$GITHUB_STEP_SUMMARY`: the verdict, each gate with its status, each variant's pass rate
//! with its 95 % interval, McNemar's test in words, and the failing (or, against a baseline or
//! in a comparison, the flipped) tasks with their evidence — at most [`MAX_LISTED`] of them,
//! then "and N more". It has no links; its last line says how to see the rest (`verity report
//! RUN --format html`).
//!
//! GitHub takes at most 1 MiB of summary per step ([`SUMMARY_LIMIT`]): evidence is cut to a
//! few hundred characters per task, and a summary that would still be larger is cut at a line
//! with a note saying so.

use std::fmt::Write as _;

use crate::ci::{cut, epochs_phrase, failure_index, fold, headline, place};
use crate::fmt;
use crate::json::Extras;
use crate::markdown::{cell, code, escape_text, table};
use crate::verdict::{Flip, FlipKind, GateReport, SideDiff, gate_num};
use crate::view::{Comparison, RunView, TaskOutcome};

/// GitHub's limit on one step's summary, in bytes.
pub const SUMMARY_LIMIT: usize = 1024 * 1024;
/// How many failing or flipped tasks a summary lists.
pub const MAX_LISTED: usize = 20;
/// How many characters of evidence one listed task gets.
const EVIDENCE_CHARS: usize = 300;

/// McNemar's test in words: on `n` paired tasks, `second` passed `second_only` that `first`
/// failed and failed `first_only` that `first` passed, and what the p-value says at the 5 %
/// level. `sided` says how `p` was computed (`exact, two-sided`).
pub(crate) fn mcnemar_words(
    first_only: u64,
    second_only: u64,
    n: u64,
    p: f64,
    first: &str,
    second: &str,
) -> String {
    if n == 0 {
        return format!(
            "{first} and {second} share no paired task: McNemar's test does not apply."
        );
    }
    if first_only + second_only == 0 {
        return format!(
            "On {n} paired tasks {first} and {second} agree on every one: no evidence of a \
             difference."
        );
    }
    let verdict = if p < 0.05 {
        let better = if second_only > first_only {
            second
        } else {
            first
        };
        format!("a difference unlikely to be chance at the 5% level ({better} is better)")
    } else {
        "no significant difference at the 5% level".to_owned()
    };
    format!(
        "On {n} paired tasks, {second} passed {second_only} that {first} failed and failed \
         {first_only} that {first} passed; McNemar's test gives p = {}: {verdict}.",
        fmt::num(p)
    )
}

fn see_rest(out: &mut String, command: &str) {
    let kept = out.trim_end().len();
    out.truncate(kept);
    let _ = writeln!(
        out,
        "\n\nEvery answer with its evidence: `{command}` (then open the file)."
    );
}

/// Cuts a summary over [`SUMMARY_LIMIT`] at a line, saying so.
fn bounded(mut out: String, command: &str) -> String {
    if out.len() <= SUMMARY_LIMIT {
        return out;
    }
    let note = format!(
        "\n\n… the summary was cut at GitHub's 1 MiB limit; `{command}` shows everything.\n"
    );
    let mut end = SUMMARY_LIMIT - note.len();
    while !out.is_char_boundary(end) {
        end -= 1;
    }
    let end = out[..end].rfind('\n').unwrap_or(end);
    out.truncate(end);
    out.push_str(&note);
    out
}

fn verdict_line(out: &mut String, gates: Option<&GateReport>) {
    match gates {
        Some(g) => {
            let _ = writeln!(out, "**Verdict: {}**\n", g.verdict.as_str());
        }
        None => {
            let _ = writeln!(out, "No gates were checked.\n");
        }
    }
}

fn gates_table(out: &mut String, g: &GateReport) {
    if g.gates.is_empty() {
        return;
    }
    let _ = writeln!(out, "### Gates\n");
    table(
        out,
        &["status", "gate", "variant", "value", "baseline", "note"],
        &[false, false, false, true, true, false],
        g.gates
            .iter()
            .map(|r| {
                vec![
                    format!("**{}**", r.status.as_str()),
                    code(&r.gate),
                    escape_text(&r.variant),
                    r.value.map(gate_num).unwrap_or_else(|| "-".into()),
                    r.baseline_value.map(gate_num).unwrap_or_else(|| "-".into()),
                    escape_text(&r.note),
                ]
            })
            .collect(),
    );
    for n in &g.notes {
        let _ = writeln!(out, "- {}", escape_text(n));
    }
    if !g.notes.is_empty() {
        out.push('\n');
    }
}

fn flip_list(out: &mut String, flips: &[&Flip], heading: &str) {
    if flips.is_empty() {
        return;
    }
    let _ = writeln!(out, "### {heading} ({})\n", flips.len());
    for f in flips.iter().take(MAX_LISTED) {
        let (arrow, reason) = match f.kind {
            FlipKind::Regression => ("pass → fail", f.b_reason.as_deref()),
            FlipKind::Improvement => ("fail → pass", f.a_reason.as_deref()),
        };
        let mut line = format!(
            "- {arrow} {} [{}]",
            code(&f.task_id),
            escape_text(&f.variant)
        );
        match (f.flaky, f.kind) {
            (true, FlipKind::Regression) => line.push_str(" (flaky: not counted by the gates)"),
            (true, FlipKind::Improvement) => line.push_str(" (flaky)"),
            (false, _) => {}
        }
        if let Some(r) = reason {
            let _ = write!(line, ": {}", cell(&cut(r, EVIDENCE_CHARS)));
        }
        if let Some(s) = &f.source {
            let _ = write!(line, " — {}", code(&s.to_string()));
        }
        let _ = writeln!(out, "{line}");
    }
    if flips.len() > MAX_LISTED {
        let _ = writeln!(out, "- … and {} more", flips.len() - MAX_LISTED);
    }
    out.push('\n');
}

fn comparison_line(c: &Comparison) -> String {
    let (p, how) = match c.quoted {
        Some((p, m)) => (p, format!("{}, {}", m.as_str(), c.alternative)),
        None => {
            return format!(
                "- **{}** vs **{}**: {}",
                escape_text(&c.treatment),
                escape_text(&c.control),
                escape_text(&c.notes.join("; "))
            );
        }
    };
    format!(
        "- **{}** vs **{}** ({how}): {}",
        escape_text(&c.treatment),
        escape_text(&c.control),
        escape_text(&mcnemar_words(
            c.contingency[0][1],
            c.contingency[1][0],
            c.n_pairs(),
            p,
            &c.control,
            &c.treatment
        ))
    )
}

/// A stored run as a CI step summary; see the module documentation.
pub fn render_summary(view: &RunView, extras: &Extras<'_>) -> String {
    let h = &view.header;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "## verity: {} — run {}\n",
        escape_text(&h.suite_name),
        code(&h.run_id)
    );
    verdict_line(&mut out, extras.gates);
    let _ = writeln!(
        out,
        "{} tasks × {} variant{} × {} epoch{}; status {}; suite hash {}.\n",
        view.tasks.len(),
        view.per_variant.len(),
        if view.per_variant.len() == 1 { "" } else { "s" },
        h.epochs,
        if h.epochs == 1 { "" } else { "s" },
        h.shown_status(),
        code(&fmt::short_hash(&h.suite_hash))
    );
    if let Some(g) = extras.gates {
        gates_table(&mut out, g);
    }
    if view.per_variant.is_empty() {
        let _ = writeln!(out, "The run stored no samples.\n");
    } else {
        let _ = writeln!(out, "### Pass rates\n");
        table(
            &mut out,
            &[
                "variant",
                "model",
                "samples passed",
                "pass rate",
                "95% CI",
                "errors",
            ],
            &[false, false, true, true, false, true],
            view.per_variant
                .iter()
                .map(|v| {
                    let model = view
                        .variants
                        .iter()
                        .find(|i| i.name == v.variant)
                        .map(|i| i.model.clone())
                        .unwrap_or_default();
                    vec![
                        escape_text(&v.variant),
                        escape_text(&model),
                        format!("{}/{}", v.rate.successes, v.rate.n),
                        fmt::rate(&v.rate),
                        fmt::ci(&v.rate),
                        v.counts.error.to_string(),
                    ]
                })
                .collect(),
        );
    }
    if !view.comparisons.is_empty() {
        let _ = writeln!(out, "### Comparisons\n");
        for c in &view.comparisons {
            let _ = writeln!(out, "{}", comparison_line(c));
        }
        out.push('\n');
    }
    if let Some(diffs) = extras.baseline {
        let flips: Vec<&Flip> = diffs.iter().flat_map(|d| &d.flips).collect();
        flip_list(&mut out, &flips, "Flipped against the baseline");
    }
    // The failing tasks, folded across epochs.
    let index = failure_index(view);
    let mut failing = Vec::new();
    for t in &view.tasks {
        for tv in &t.variants {
            if tv.outcome != TaskOutcome::Fail {
                continue;
            }
            failing.push((t, tv));
        }
    }
    if !failing.is_empty() {
        let _ = writeln!(out, "### Failing tasks ({})\n", failing.len());
        for (t, tv) in failing.iter().take(MAX_LISTED) {
            let f = fold(view, &index, t, tv);
            let mut line = format!("- {} [{}]", code(&t.id), escape_text(&tv.variant));
            let mut why = Vec::new();
            for c in f.criteria.iter().filter(|c| c.counts) {
                let mut w = format!(
                    "{} {}",
                    code(&c.key),
                    escape_text(&cut(&headline(c), EVIDENCE_CHARS))
                );
                if let Some(loc) = c.score.and_then(|s| s.evidence.first()).and_then(place) {
                    let _ = write!(w, " ({})", escape_text(&loc));
                }
                let ep = epochs_phrase(&c.epochs, f.epochs);
                if !ep.is_empty() {
                    let _ = write!(w, ", {ep}");
                }
                why.push(w);
            }
            for e in f.errors.iter().filter(|e| e.counts) {
                why.push(format!(
                    "error {}: {}",
                    code(&e.kind),
                    escape_text(&cut(&e.message, EVIDENCE_CHARS))
                ));
            }
            if !why.is_empty() {
                let _ = write!(line, ": {}", why.join("; "));
            }
            if let Some(s) = &t.source {
                let _ = write!(line, " — {}", code(&s.to_string()));
            }
            let _ = writeln!(out, "{}", crate::view::one_line(&line));
        }
        if failing.len() > MAX_LISTED {
            let _ = writeln!(out, "- … and {} more", failing.len() - MAX_LISTED);
        }
        out.push('\n');
    }
    for n in &view.notes {
        let _ = writeln!(out, "> {}", escape_text(n));
    }
    let command = format!("verity report {} --format html --out report.html", h.run_id);
    see_rest(&mut out, &command);
    bounded(out, &command)
}

/// A comparison (`verity compare`) as a CI step summary; see the module documentation.
pub fn render_diff_summary(diffs: &[SideDiff], gates: Option<&GateReport>) -> String {
    let mut out = String::new();
    let title = match diffs.first() {
        Some(d) => format!("{} → {}", code(&d.a.run_id), code(&d.b.run_id)),
        None => "nothing compared".into(),
    };
    let _ = writeln!(out, "## verity compare: {title}\n");
    verdict_line(&mut out, gates);
    if let Some(g) = gates {
        gates_table(&mut out, g);
    }
    for d in diffs {
        let _ = writeln!(
            out,
            "### {} → {}\n",
            escape_text(&d.a.label()),
            escape_text(&d.b.label())
        );
        for w in &d.warnings {
            let _ = writeln!(out, "> **Warning:** {}", escape_text(w));
        }
        if !d.warnings.is_empty() {
            out.push('\n');
        }
        let rate = |r: &crate::verdict::RateInfo| {
            [
                format!("{}/{}", r.successes, r.n),
                r.value.map(fmt::pct).unwrap_or_else(|| "-".into()),
                r.ci95
                    .map(|(lo, hi)| format!("[{}, {}]", fmt::pct(lo), fmt::pct(hi)))
                    .unwrap_or_else(|| "-".into()),
            ]
        };
        let [pa, ra, ca] = rate(&d.rate_a);
        let [pb, rb, cb] = rate(&d.rate_b);
        table(
            &mut out,
            &["side", "run", "model", "passed", "pass rate", "95% CI"],
            &[false, false, false, true, true, false],
            vec![
                vec![
                    "A".into(),
                    code(&d.a.label()),
                    escape_text(&d.a.model),
                    pa,
                    ra,
                    ca,
                ],
                vec![
                    "B".into(),
                    code(&d.b.label()),
                    escape_text(&d.b.model),
                    pb,
                    rb,
                    cb,
                ],
            ],
        );
        let _ = writeln!(
            out,
            "{}\n",
            escape_text(&mcnemar_words(
                d.contingency[0][1],
                d.contingency[1][0],
                d.n_pairs(),
                d.p_value,
                "A",
                "B"
            ))
        );
        let flips: Vec<&Flip> = d.flips.iter().collect();
        flip_list(&mut out, &flips, "Flipped tasks");
    }
    let command = match diffs.first() {
        Some(d) => format!(
            "verity compare {} {} --format html --out compare.html",
            d.a.label(),
            d.b.label()
        ),
        None => "verity compare A B --format html --out compare.html".into(),
    };
    see_rest(&mut out, &command);
    bounded(out, &command)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mcnemar_in_words() {
        let w = mcnemar_words(1, 9, 20, 0.0215, "bare", "grounded");
        assert!(
            w.contains("grounded passed 9 that bare failed and failed 1"),
            "{w}"
        );
        assert!(
            w.contains("unlikely to be chance at the 5% level (grounded is better)"),
            "{w}"
        );
        let w = mcnemar_words(3, 4, 20, 1.0, "A", "B");
        assert!(w.contains("no significant difference"), "{w}");
        assert!(mcnemar_words(0, 0, 5, 1.0, "A", "B").contains("agree on every one"));
        assert!(mcnemar_words(0, 0, 0, 1.0, "A", "B").contains("share no paired task"));
    }

    #[test]
    fn a_long_summary_is_cut_at_a_line_under_the_limit() {
        let line = "x".repeat(99) + "\n";
        let big = line.repeat(SUMMARY_LIMIT / 100 + 50);
        let out = bounded(big, "verity report r --format html --out report.html");
        assert!(out.len() <= SUMMARY_LIMIT, "{}", out.len());
        assert!(out.ends_with("shows everything.\n"));
        assert!(out.contains("\n\n… the summary was cut"));
        let small = bounded("a\n".into(), "c");
        assert_eq!(small, "a\n");
    }
}
