//! GitHub Actions workflow commands (`--format github`): printed in a step, each line becomes
//! an annotation on the run's page and, when it names a file of the repository, on that file's
//! line in the pull request.
//!
//! * `::notice` — the summary first: each variant's pass rate with its interval, the verdict.
//! * `::error` / `::warning` — each gate that failed / errored (error) or asks for review
//!   (warning), at the line of `suite.toml` that declares it.
//! * `::error` — for a run, one per failing task × variant × criterion, at the task's
//!   `file:line` (its definition in the suite), titled with the task, variant and criterion,
//!   with the explanation and evidence as the message; one per task × variant whose
//!   infrastructure errors count (`warning` when the error policy excludes them).
//! * For a comparison, one per flipped task: `error` for a regression, `warning` for a flaky
//!   one, `notice` for an improvement.
//!
//! GitHub shows at most 10 annotations of each kind per step (and 50 per job) on the run's
//! page; the log keeps every line. verity prints every annotation (the most important first:
//! gates, then tasks in suite order) and, past 10 errors, a last `::notice` saying how many
//! there were and how to see them all.
//!
//! Files are given relative to the repository: `base` (the suite's directory as the run was
//! given it, made relative by the binary) joined with the path the task records, which is
//! relative to the suite's root.
//!
//! Escaping follows GitHub's toolkit (`@actions/core` `issueCommand`): in the message `%`,
//! `\r`, `\n` become `%25`, `%0D`, `%0A`; in property values also `:` and `,` (`%3A`, `%2C`).

use std::fmt::Write as _;

use verity_model::ScoreStatus;

use crate::ci::{
    MESSAGE_CHARS, cut, epochs_phrase, evidence_lines, failure_index, fold, join_base, split_source,
};
use crate::fmt;
use crate::json::Extras;
use crate::verdict::{FlipKind, GateReport, GateStatus, SideDiff, gate_num};
use crate::view::{RunView, TaskOutcome};

/// How many annotations of one kind GitHub shows for a step.
pub const GITHUB_SHOWN_PER_STEP: usize = 10;

/// Where the annotations point.
#[derive(Clone, Debug, Default)]
pub struct GithubOptions {
    /// The directory task and suite files are relative to, as a path relative to the
    /// repository (the suite's directory); empty: the paths as recorded.
    pub base: String,
}

/// The message part of a workflow command.
pub fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A property value of a workflow command (`file`, `title`).
pub fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// One annotation.
#[derive(Debug)]
struct Annotation {
    level: &'static str,
    file: Option<String>,
    line: Option<u32>,
    col: Option<u32>,
    title: String,
    message: String,
}

impl Annotation {
    fn new(level: &'static str, title: String, message: String) -> Annotation {
        Annotation {
            level,
            file: None,
            line: None,
            col: None,
            title,
            message,
        }
    }

    fn at(mut self, file: String, line: u32, col: u32) -> Annotation {
        self.file = Some(file);
        if line > 0 {
            self.line = Some(line);
            if col > 0 {
                self.col = Some(col);
            }
        }
        self
    }

    fn write(&self, out: &mut String) {
        let mut props = Vec::new();
        if let Some(f) = &self.file {
            props.push(format!("file={}", escape_property(f)));
        }
        if let Some(l) = self.line {
            props.push(format!("line={l}"));
        }
        if let Some(c) = self.col {
            props.push(format!("col={c}"));
        }
        props.push(format!("title={}", escape_property(&self.title)));
        let _ = writeln!(
            out,
            "::{} {}::{}",
            self.level,
            props.join(","),
            escape_data(&self.message)
        );
    }
}

fn render(annotations: &[Annotation], see_all: &str) -> String {
    let mut out = String::new();
    for a in annotations {
        a.write(&mut out);
    }
    let errors = annotations.iter().filter(|a| a.level == "error").count();
    if errors > GITHUB_SHOWN_PER_STEP {
        Annotation::new(
            "notice",
            "verity: more annotations than GitHub shows".into(),
            format!(
                "{errors} error annotations: GitHub shows the first {GITHUB_SHOWN_PER_STEP} of \
                 a step on the run's page; every one is in this step's log, and {see_all} shows \
                 them all."
            ),
        )
        .write(&mut out);
    }
    out
}

fn gate_annotations(out: &mut Vec<Annotation>, g: &GateReport, base: &str) {
    for r in &g.gates {
        let level = match r.status {
            GateStatus::Fail | GateStatus::Error => "error",
            GateStatus::Review => "warning",
            GateStatus::Pass | GateStatus::Skipped => continue,
        };
        let value = r.value.map(gate_num).unwrap_or_else(|| "-".into());
        let mut message = format!("{} for `{}`: {value}", r.gate, r.variant);
        if let Some(b) = r.baseline_value {
            let _ = write!(message, " (baseline {})", gate_num(b));
        }
        if !r.note.is_empty() {
            let _ = write!(message, "; {}", r.note);
        }
        let title = format!(
            "verity gate {}: {} [{}]",
            r.status.as_str(),
            r.gate,
            r.variant
        );
        let a = Annotation::new(level, title, message);
        out.push(match split_source(&r.source) {
            Some((file, line, col)) => a.at(join_base(base, file), line, col),
            None => a,
        });
    }
}

/// A stored run as workflow commands; see the module documentation.
pub fn render_github(view: &RunView, extras: &Extras<'_>, opts: &GithubOptions) -> String {
    let h = &view.header;
    let mut out = Vec::new();
    // The summary.
    let rates: Vec<String> = view
        .per_variant
        .iter()
        .map(|v| {
            format!(
                "{} {}/{} passed ({}, 95% CI {})",
                v.variant,
                v.rate.successes,
                v.rate.n,
                fmt::rate(&v.rate),
                fmt::ci(&v.rate)
            )
        })
        .collect();
    let mut summary = if rates.is_empty() {
        "no stored samples".to_owned()
    } else {
        rates.join("; ")
    };
    if let Some(g) = extras.gates {
        let _ = write!(summary, ". Verdict: {}", g.verdict.as_str());
    }
    let _ = write!(
        summary,
        ". `verity report {} --format html --out report.html` shows every answer with its evidence.",
        h.run_id
    );
    out.push(Annotation::new(
        "notice",
        format!(
            "verity {} (run {}, {})",
            h.suite_name,
            h.run_id,
            h.json_status()
        ),
        summary,
    ));
    if let Some(g) = extras.gates {
        gate_annotations(&mut out, g, &opts.base);
    }
    let index = failure_index(view);
    for t in &view.tasks {
        for tv in &t.variants {
            if tv.outcome == TaskOutcome::Pass {
                continue;
            }
            let f = fold(view, &index, t, tv);
            let place = |a: Annotation| match &t.source {
                Some(s) => a.at(join_base(&opts.base, &s.file), s.line, s.column),
                None => a,
            };
            for c in &f.criteria {
                if !c.counts {
                    continue;
                }
                let what = if c.status == ScoreStatus::Error {
                    "scorer error on"
                } else {
                    "failed"
                };
                let title = format!("verity: {} {what} {} [{}]", t.id, c.key, tv.variant);
                let message = cut(&evidence_lines(c, f.epochs).join("\n"), 4 * MESSAGE_CHARS);
                out.push(place(Annotation::new("error", title, message)));
            }
            for e in &f.errors {
                let level = if e.counts && tv.outcome == TaskOutcome::Fail {
                    "error"
                } else {
                    "warning"
                };
                let ep = epochs_phrase(&e.epochs, f.epochs);
                let title = format!("verity: {} errored [{}]", t.id, tv.variant);
                let mut message = format!("infrastructure error {}: {}", e.kind, e.message);
                if !ep.is_empty() {
                    let _ = write!(message, " ({ep})");
                }
                if level == "warning" {
                    message.push_str("; not counted: the suite's error policy excludes errors");
                }
                out.push(place(Annotation::new(level, title, message)));
            }
        }
    }
    render(&out, &format!("`verity report {}`", h.run_id))
}

/// A comparison (`verity compare`) as workflow commands; see the module documentation.
pub fn render_diff_github(
    diffs: &[SideDiff],
    gates: Option<&GateReport>,
    opts: &GithubOptions,
) -> String {
    let mut out = Vec::new();
    for d in diffs {
        let regressions = d
            .flips
            .iter()
            .filter(|f| f.kind == FlipKind::Regression)
            .count();
        let mut message = format!(
            "{}: {}; {}: {}. {}",
            d.a.label(),
            rate(&d.rate_a),
            d.b.label(),
            rate(&d.rate_b),
            crate::summary::mcnemar_words(
                d.contingency[0][1],
                d.contingency[1][0],
                d.n_pairs(),
                d.p_value,
                "A",
                "B"
            )
        );
        let _ = write!(
            message,
            " {regressions} regressed, {} improved.",
            d.flips.len() - regressions
        );
        for w in &d.warnings {
            let _ = write!(message, " Warning: {w}.");
        }
        if let Some(g) = gates {
            let _ = write!(message, " Verdict: {}.", g.verdict.as_str());
        }
        out.push(Annotation::new(
            "notice",
            format!("verity compare {} → {}", d.a.label(), d.b.label()),
            message,
        ));
    }
    if let Some(g) = gates {
        gate_annotations(&mut out, g, &opts.base);
    }
    for d in diffs {
        for f in &d.flips {
            let (level, what, reason) = match (f.kind, f.flaky) {
                (FlipKind::Regression, false) => ("error", "regressed", &f.b_reason),
                (FlipKind::Regression, true) => ("warning", "regressed (flaky)", &f.b_reason),
                (FlipKind::Improvement, _) => ("notice", "improved", &f.a_reason),
            };
            let title = format!("verity: {} {what} [{}]", f.task_id, f.variant);
            let mut message = match f.kind {
                FlipKind::Regression => format!(
                    "passed in {}, fails in {}: {}",
                    d.a.label(),
                    d.b.label(),
                    reason.as_deref().unwrap_or("-")
                ),
                FlipKind::Improvement => format!(
                    "failed in {} ({}), passes in {}",
                    d.a.label(),
                    reason.as_deref().unwrap_or("-"),
                    d.b.label()
                ),
            };
            if f.flaky {
                message.push_str(
                    "\nflaky: its epochs or earlier runs disagree, so the gates do not count it",
                );
            }
            if let Some(r) = &f.rationale {
                let _ = write!(message, "\nrationale: {r}");
            }
            let a = Annotation::new(level, title, message);
            out.push(match &f.source {
                Some(s) => a.at(join_base(&opts.base, &s.file), s.line, s.column),
                None => a,
            });
        }
    }
    let see_all = match diffs.first() {
        Some(d) => format!("`verity compare {} {}`", d.a.label(), d.b.label()),
        None => "`verity compare`".into(),
    };
    render(&out, &see_all)
}

fn rate(r: &crate::verdict::RateInfo) -> String {
    let ci = r
        .ci95
        .map(|(lo, hi)| format!(", 95% CI [{}, {}]", fmt::pct(lo), fmt::pct(hi)))
        .unwrap_or_default();
    format!(
        "{}/{} passed ({}{ci})",
        r.successes,
        r.n,
        r.value.map(fmt::pct).unwrap_or_else(|| "-".into())
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_follows_the_toolkit() {
        assert_eq!(escape_data("100% a\r\nb: c, d"), "100%25 a%0D%0Ab: c, d");
        assert_eq!(
            escape_property("tasks/a,b.toml: 100%\n"),
            "tasks/a%2Cb.toml%3A 100%25%0A"
        );
        // `%` first, so an escape already in the text is not decoded by GitHub.
        assert_eq!(escape_data("%0A"), "%250A");
    }

    #[test]
    fn an_annotation_line() {
        let mut out = String::new();
        Annotation::new("error", "t: x, y".into(), "line 1\nline 2".into())
            .at("suites/s/tasks.jsonl".into(), 3, 1)
            .write(&mut out);
        assert_eq!(
            out,
            "::error file=suites/s/tasks.jsonl,line=3,col=1,title=t%3A x%2C y::line 1%0Aline 2\n"
        );
        let mut out = String::new();
        Annotation::new("notice", "n".into(), "m".into())
            .at("--gate".into(), 0, 0)
            .write(&mut out);
        assert_eq!(out, "::notice file=--gate,title=n::m\n");
    }

    #[test]
    fn past_ten_errors_a_notice_says_so() {
        let many: Vec<Annotation> = (0..12)
            .map(|i| Annotation::new("error", format!("t{i}"), "m".into()))
            .collect();
        let out = render(&many, "`verity report r`");
        assert_eq!(out.lines().count(), 13);
        assert!(
            out.lines()
                .last()
                .unwrap()
                .starts_with("::notice title=verity%3A more")
        );
        assert!(out.contains("12 error annotations"));
        let out = render(&many[..10], "`verity report r`");
        assert_eq!(out.lines().count(), 10);
    }
}
