//! The terminal report: plain text, aligned columns, no boxes (in the manner of cargo and
//! nextest), optional ANSI color for verdicts. The output is a pure function of the view and
//! the options, so it can be snapshot-tested.

use std::fmt::Write as _;

use verity_model::{ErrorPolicy, Outcome, ScoreStatus};

use crate::fmt;
use crate::view::{Comparison, RunView, TaskOutcome, Winner, full_detail, one_line};

/// How [`render_table`] lays out its output.
#[derive(Clone, Debug, PartialEq)]
pub struct TableOptions {
    /// Color verdicts with ANSI escapes.
    pub color: bool,
    /// Free-text lines (reasons, explanations) are cut to this many characters; 0 = no limit.
    /// Tables are never cut.
    pub width: usize,
    /// Failing samples listed in full; the rest are counted. Markdown and JSON list them all.
    pub max_failures: usize,
    /// Each variant's cost in USD at list prices (`None`: no price known); shown when given.
    pub costs: Vec<(String, Option<f64>)>,
}

impl Default for TableOptions {
    fn default() -> Self {
        TableOptions {
            color: false,
            width: 100,
            max_failures: 20,
            costs: Vec::new(),
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Paint {
    Plain,
    Green,
    Red,
    Yellow,
    Bold,
}

impl Paint {
    fn code(self) -> Option<&'static str> {
        match self {
            Paint::Plain => None,
            Paint::Green => Some("32"),
            Paint::Red => Some("31"),
            Paint::Yellow => Some("33"),
            Paint::Bold => Some("1"),
        }
    }

    fn for_outcome(o: Outcome) -> Paint {
        match o {
            Outcome::Pass => Paint::Green,
            Outcome::Fail => Paint::Red,
            Outcome::Error => Paint::Yellow,
        }
    }

    fn for_status(s: ScoreStatus) -> Paint {
        match s {
            ScoreStatus::Pass => Paint::Green,
            ScoreStatus::Fail => Paint::Red,
            ScoreStatus::Error => Paint::Yellow,
            ScoreStatus::NotApplicable => Paint::Plain,
        }
    }

    /// Paint for a count cell: colored only when the count is not zero.
    fn count(self, n: u64) -> Paint {
        if n == 0 { Paint::Plain } else { self }
    }
}

struct Styler {
    color: bool,
}

impl Styler {
    fn paint(&self, s: &str, p: Paint) -> String {
        match (self.color, p.code()) {
            (true, Some(code)) => format!("\x1b[{code}m{s}\x1b[0m"),
            _ => s.to_owned(),
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Align {
    Left,
    Right,
}

struct Cell {
    text: String,
    paint: Paint,
}

impl From<String> for Cell {
    fn from(text: String) -> Self {
        Cell {
            text,
            paint: Paint::Plain,
        }
    }
}

impl From<&str> for Cell {
    fn from(text: &str) -> Self {
        Cell {
            text: text.to_owned(),
            paint: Paint::Plain,
        }
    }
}

fn painted(text: impl Into<String>, paint: Paint) -> Cell {
    Cell {
        text: text.into(),
        paint,
    }
}

/// Aligned columns separated by two spaces; an empty header row is left out.
struct Grid {
    columns: Vec<(&'static str, Align)>,
    rows: Vec<Vec<Cell>>,
}

impl Grid {
    fn new(columns: Vec<(&'static str, Align)>) -> Self {
        Grid {
            columns,
            rows: Vec::new(),
        }
    }

    fn row(&mut self, cells: Vec<Cell>) {
        self.rows.push(cells);
    }

    fn render(&self, out: &mut String, st: &Styler) {
        let n = self.columns.len();
        let mut widths: Vec<usize> = self
            .columns
            .iter()
            .map(|(h, _)| h.chars().count())
            .collect();
        for r in &self.rows {
            for (i, c) in r.iter().enumerate().take(n) {
                widths[i] = widths[i].max(c.text.chars().count());
            }
        }
        let line = |cells: Vec<(&str, Paint)>, out: &mut String| {
            let mut s = String::from("  ");
            for (i, (text, paint)) in cells.into_iter().enumerate() {
                if i > 0 {
                    s.push_str("  ");
                }
                let pad = widths[i].saturating_sub(text.chars().count());
                let body = st.paint(text, paint);
                match self.columns[i].1 {
                    Align::Left => {
                        s.push_str(&body);
                        s.push_str(&" ".repeat(pad));
                    }
                    Align::Right => {
                        s.push_str(&" ".repeat(pad));
                        s.push_str(&body);
                    }
                }
            }
            out.push_str(s.trim_end());
            out.push('\n');
        };
        if self.columns.iter().any(|(h, _)| !h.is_empty()) {
            line(
                self.columns
                    .iter()
                    .map(|(h, _)| (*h, Paint::Bold))
                    .collect(),
                out,
            );
        }
        for r in &self.rows {
            line(
                r.iter()
                    .take(n)
                    .map(|c| (c.text.as_str(), c.paint))
                    .collect(),
                out,
            );
        }
    }
}

use Align::{Left as L, Right as R};

/// Renders the run as a terminal report.
pub fn render_table(view: &RunView, opts: &TableOptions) -> String {
    let st = Styler { color: opts.color };
    let mut out = String::new();
    header(view, &st, &mut out);
    variants(view, &st, &mut out);
    pass_rates(view, &opts.costs, &st, &mut out);
    comparisons(view, opts, &st, &mut out);
    criteria(view, &st, &mut out);
    categories(view, &st, &mut out);
    prf(view, &st, &mut out);
    groups(view, opts, &st, &mut out);
    determinism(view, opts, &st, &mut out);
    citations(view, &st, &mut out);
    failures(view, opts, &st, &mut out);
    if !view.notes.is_empty() {
        section(&mut out, &st, "Notes");
        for n in &view.notes {
            let _ = writeln!(out, "  - {}", fmt::fit(n, opts.width, 4));
        }
    }
    out
}

fn section(out: &mut String, st: &Styler, title: &str) {
    if !out.is_empty() {
        out.push('\n');
    }
    out.push_str(&st.paint(title, Paint::Bold));
    out.push('\n');
}

fn header(view: &RunView, st: &Styler, out: &mut String) {
    let h = &view.header;
    section(out, st, &format!("Run {}", h.run_id));
    let mut g = Grid::new(vec![("", L), ("", L)]);
    g.row(vec![
        "suite".into(),
        format!("{} ({})", h.suite_name, h.suite_path).into(),
    ]);
    g.row(vec!["status".into(), h.shown_status().into()]);
    g.row(vec!["started".into(), h.started_at.as_str().into()]);
    g.row(vec![
        "finished".into(),
        h.finished_at.as_deref().unwrap_or("-").into(),
    ]);
    g.row(vec![
        "duration".into(),
        fmt::opt_duration(h.duration_ms).into(),
    ]);
    g.row(vec!["verity".into(), h.verity_version.as_str().into()]);
    g.row(vec![
        "suite hash".into(),
        fmt::short_hash(&h.suite_hash).into(),
    ]);
    g.row(vec!["scoring".into(), h.scoring.to_string().into()]);
    g.row(vec![
        "samples".into(),
        format!(
            "{} / {} ({} epochs)",
            h.samples_completed, h.samples_total, h.epochs
        )
        .into(),
    ]);
    g.row(vec!["outcome".into(), fmt::outcome_rule(&h.outcome).into()]);
    for s in &h.schemas {
        g.row(vec![
            "schema".into(),
            format!(
                "{} {}({})",
                fmt::short_hash(&s.hash),
                s.file
                    .as_deref()
                    .map(|f| format!("{f} "))
                    .unwrap_or_default(),
                s.used_by
            )
            .into(),
        ]);
    }
    if let Some(t) = &h.toolchain {
        g.row(vec!["toolchain".into(), t.as_str().into()]);
    }
    g.row(vec!["tasks".into(), fmt::task_list(view).into()]);
    g.render(out, st);
}

/// Seed 004's per-fixture view: each task across its epochs, per variant, then the variant.
fn determinism(view: &RunView, opts: &TableOptions, st: &Styler, out: &mut String) {
    if view.determinism.is_empty() {
        return;
    }
    section(out, st, "Determinism (each task across its epochs)");
    let mut g = Grid::new(vec![
        ("variant", L),
        ("task", L),
        ("passed", L),
        ("valid", R),
        ("similarity", R),
        ("identical", R),
        ("byte-identical", R),
        ("errors", R),
    ]);
    let opt = |v: Option<f64>| v.map(fmt::num).unwrap_or_else(|| "-".into());
    for v in &view.determinism {
        for (i, t) in v.tasks.iter().enumerate() {
            g.row(vec![
                if i == 0 { v.variant.as_str() } else { "" }.into(),
                t.task.as_str().into(),
                painted(
                    if t.passed { "yes" } else { "no" },
                    if t.passed { Paint::Green } else { Paint::Red },
                ),
                format!("{}/{}", t.valid, t.epochs).into(),
                opt(t.similarity).into(),
                opt(t.identical).into(),
                opt(t.byte_identical).into(),
                painted(t.errors.to_string(), Paint::Yellow.count(t.errors)),
            ]);
        }
        g.row(vec![
            "".into(),
            "(all)".into(),
            painted(
                format!("{}/{}", v.tasks_passed, v.tasks.len()),
                if v.passed { Paint::Green } else { Paint::Red },
            ),
            fmt::pct(v.validity).into(),
            opt(v.similarity).into(),
            "".into(),
            "".into(),
            v.errors.to_string().into(),
        ]);
    }
    g.render(out, st);
    // The weakest resource of each task whose similarity is below 1.
    for v in &view.determinism {
        for t in v
            .tasks
            .iter()
            .filter(|t| t.similarity.is_some_and(|s| s < 1.0))
        {
            if let Some(note) = &t.similarity_note {
                let line = format!("{} [{}]: {}", t.task, v.variant, note);
                let _ = writeln!(out, "  {}", fmt::fit(&line, opts.width, 2));
            }
        }
    }
}

/// Seed 002's verification metrics per variant, against the seed's targets.
fn citations(view: &RunView, st: &Styler, out: &mut String) {
    if view.citations.is_empty() {
        return;
    }
    section(out, st, "Citations (seed 002 verification metrics)");
    let targets = crate::view::CitationVariant::TARGETS;
    let mut g = Grid::new(vec![
        ("variant", L),
        ("citation accuracy", R),
        ("structural accuracy", R),
        ("consistency rate", R),
        ("hallucination rate", R),
    ]);
    let mut head = vec![Cell::from("target")];
    head.extend(targets.iter().map(|t| Cell::from(t.show())));
    g.row(head);
    for v in &view.citations {
        let counts = v.counts();
        let mut row = vec![Cell::from(v.variant.as_str())];
        for (t, (num, den)) in targets.iter().zip(counts) {
            let value = t.value(v);
            row.push(match value {
                None => "-".into(),
                Some(x) => painted(
                    format!("{} ({num}/{den})", fmt::pct(x)),
                    if t.met(value) == Some(true) {
                        Paint::Green
                    } else {
                        Paint::Red
                    },
                ),
            });
        }
        g.row(row);
    }
    g.render(out, st);
}

fn variants(view: &RunView, st: &Styler, out: &mut String) {
    if view.variants.is_empty() {
        return;
    }
    section(out, st, "Variants");
    let mut g = Grid::new(vec![
        ("variant", L),
        ("model", L),
        ("prompt", L),
        ("grounding", L),
    ]);
    for v in &view.variants {
        g.row(vec![
            v.name.as_str().into(),
            v.model.as_str().into(),
            fmt::short_hash(&v.prompt_hash).into(),
            fmt::grounding(v.grounding.as_ref()).into(),
        ]);
    }
    g.render(out, st);
}

fn pass_rates(view: &RunView, costs: &[(String, Option<f64>)], st: &Styler, out: &mut String) {
    let title = match view.error_policy() {
        ErrorPolicy::Fail => "Pass rates (errors count as failures)",
        ErrorPolicy::Exclude => "Pass rates (errors excluded)",
    };
    section(out, st, title);
    if view.per_variant.is_empty() {
        out.push_str("  (no variants)\n");
        return;
    }
    let mut g = Grid::new(vec![
        ("variant", L),
        ("samples", R),
        ("pass", R),
        ("fail", R),
        ("error", R),
        ("pass rate", R),
        ("95% CI", L),
        ("mean", R),
        ("p50", R),
        ("p95", R),
        ("tokens in", R),
        ("tokens out", R),
        ("cache hits", R),
    ]);
    if !costs.is_empty() {
        g.columns.push(("cost", R));
    }
    for v in &view.per_variant {
        let c = v.counts;
        let mut cells: Vec<Cell> = vec![
            v.variant.as_str().into(),
            format!("{}/{}", v.samples, v.expected).into(),
            painted(c.pass.to_string(), Paint::Green.count(c.pass)),
            painted(c.fail.to_string(), Paint::Red.count(c.fail)),
            painted(c.error.to_string(), Paint::Yellow.count(c.error)),
            fmt::rate(&v.rate).into(),
            fmt::ci(&v.rate).into(),
            fmt::mean_ms(v.latency.mean_ms).into(),
            fmt::opt_duration(v.latency.p50_ms).into(),
            fmt::opt_duration(v.latency.p95_ms).into(),
            v.tokens_in.to_string().into(),
            v.tokens_out.to_string().into(),
            v.cache_hits.to_string().into(),
        ];
        if !costs.is_empty() {
            let cost = costs
                .iter()
                .find(|(n, _)| n == &v.variant)
                .and_then(|(_, c)| *c)
                .map_or_else(|| "?".to_owned(), crate::verdict::usd);
            cells.push(cost.into());
        }
        g.row(cells);
    }
    g.render(out, st);
}

fn comparisons(view: &RunView, opts: &TableOptions, st: &Styler, out: &mut String) {
    for c in &view.comparisons {
        comparison(c, opts, st, out);
    }
}

fn comparison(c: &Comparison, opts: &TableOptions, st: &Styler, out: &mut String) {
    let declared = if c.declared { "" } else { ", implicit" };
    section(
        out,
        st,
        &format!(
            "Comparison {} (treatment) vs {} (control): {}, {}{declared}",
            c.treatment, c.control, c.test, c.alternative
        ),
    );
    let tp = format!("{} pass", c.treatment);
    let tf = format!("{} fail", c.treatment);
    // Column headers are static in Grid; build this 2×2 by hand with the same spacing rules.
    let rows = [
        (format!("{} pass", c.control), c.contingency[0]),
        (format!("{} fail", c.control), c.contingency[1]),
    ];
    let w0 = rows
        .iter()
        .map(|(l, _)| l.chars().count())
        .max()
        .unwrap_or(0);
    let w1 = tp.chars().count().max(1);
    let w2 = tf.chars().count().max(1);
    let _ = writeln!(
        out,
        "  {:w0$}  {}  {}",
        "",
        st.paint(&tp, Paint::Bold),
        st.paint(&tf, Paint::Bold)
    );
    for (label, [p, f]) in &rows {
        let _ = writeln!(out, "  {label:w0$}  {p:>w1$}  {f:>w2$}");
    }
    let [[_, b], [cc, _]] = c.contingency;
    let _ = writeln!(
        out,
        "  paired tasks {} · discordant b = {b}, c = {cc}",
        c.n_pairs()
    );
    if let Some(m) = &c.mcnemar {
        let _ = writeln!(
            out,
            "  chi2 (continuity-corrected) {}  p {}",
            fmt::num(m.chi2),
            fmt::num(m.p_chi2)
        );
        let _ = writeln!(
            out,
            "  exact binomial  two-sided p {}  greater p {}  less p {}  mid-p {}",
            fmt::num(m.p_exact_two_sided),
            fmt::num(m.p_exact_greater),
            fmt::num(m.p_exact_less),
            fmt::num(m.p_mid)
        );
    }
    if let Some((p, method)) = c.quoted {
        let _ = writeln!(
            out,
            "  {} ({}, {})",
            st.paint(&format!("quoted p {}", fmt::num(p)), Paint::Bold),
            method.as_str(),
            c.alternative
        );
    }
    if !c.unpaired.is_empty() {
        let line = format!(
            "  unpaired (missing or excluded in an arm): {}",
            c.unpaired.join(", ")
        );
        let _ = writeln!(out, "{}", fmt::truncate(&line, opts.width));
    }
    if !c.discordant.is_empty() {
        out.push_str("  discordant tasks:\n");
        for d in &c.discordant {
            let (mark, paint, winner) = match d.winner {
                Winner::Treatment => ("+", Paint::Green, &c.treatment),
                Winner::Control => ("-", Paint::Red, &c.control),
            };
            let text = format!(
                "{} {winner} passes; {} fails (epoch {}): {}",
                d.task_id, d.failing_variant, d.failing_epoch, d.reason
            );
            let text = fmt::fit(&text, opts.width, 6);
            let _ = writeln!(out, "    {} {text}", st.paint(mark, paint));
        }
    }
}

fn criteria(view: &RunView, st: &Styler, out: &mut String) {
    if view.per_criterion.is_empty() {
        return;
    }
    section(out, st, "Per criterion");
    let mut g = Grid::new(vec![
        ("criterion", L),
        ("variant", L),
        ("pass", R),
        ("fail", R),
        ("n/a", R),
        ("error", R),
        ("pass rate", R),
    ]);
    let policy = view.error_policy();
    let mut any_outside = false;
    for c in &view.per_criterion {
        any_outside |= !c.in_outcome;
        for (i, (v, k)) in c.per_variant.iter().enumerate() {
            let name = match (i, c.in_outcome) {
                (0, true) => c.key.clone(),
                (0, false) => format!("{} *", c.key),
                _ => String::new(),
            };
            g.row(vec![
                name.into(),
                v.as_str().into(),
                painted(k.pass.to_string(), Paint::Green.count(k.pass)),
                painted(k.fail.to_string(), Paint::Red.count(k.fail)),
                k.not_applicable.to_string().into(),
                painted(k.error.to_string(), Paint::Yellow.count(k.error)),
                fmt::rate(&k.rate(policy)).into(),
            ]);
        }
    }
    g.render(out, st);
    if any_outside {
        out.push_str("  * not part of the outcome rule\n");
    }
}

fn categories(view: &RunView, st: &Styler, out: &mut String) {
    if view.per_category.is_empty() {
        return;
    }
    section(out, st, "Per category");
    let mut g = Grid::new(vec![
        ("category", L),
        ("tasks", R),
        ("variant", L),
        ("pass", R),
        ("fail", R),
        ("error", R),
        ("pass rate", R),
    ]);
    let policy = view.error_policy();
    for c in &view.per_category {
        for (i, (v, k)) in c.per_variant.iter().enumerate() {
            let (name, tasks) = if i == 0 {
                (c.category.clone(), c.tasks.to_string())
            } else {
                (String::new(), String::new())
            };
            g.row(vec![
                name.into(),
                tasks.into(),
                v.as_str().into(),
                painted(k.pass.to_string(), Paint::Green.count(k.pass)),
                painted(k.fail.to_string(), Paint::Red.count(k.fail)),
                painted(k.error.to_string(), Paint::Yellow.count(k.error)),
                fmt::rate(&k.rate(policy)).into(),
            ]);
        }
    }
    g.render(out, st);
}

fn prf(view: &RunView, st: &Styler, out: &mut String) {
    if view.prf.is_empty() {
        return;
    }
    section(out, st, "Precision / recall / F1");
    let mut g = Grid::new(vec![
        ("criterion", L),
        ("variant", L),
        ("samples", R),
        ("tp", R),
        ("fp", R),
        ("fn", R),
        ("precision", R),
        ("recall", R),
        ("F1 micro", R),
        ("F1 macro", R),
    ]);
    for p in &view.prf {
        for (i, (v, k)) in p.per_variant.iter().enumerate() {
            let opt = |x: Option<f64>| x.map(fmt::num).unwrap_or_else(|| "-".into());
            g.row(vec![
                if i == 0 { p.key.clone() } else { String::new() }.into(),
                v.as_str().into(),
                k.samples.to_string().into(),
                fmt::count(k.tp).into(),
                fmt::count(k.fp).into(),
                fmt::count(k.fn_).into(),
                opt(k.micro.map(|m| m.precision)).into(),
                opt(k.micro.map(|m| m.recall)).into(),
                opt(k.micro.map(|m| m.f1)).into(),
                opt(k.macro_f1).into(),
            ]);
        }
    }
    g.render(out, st);
    // By category, when there is more than one.
    if view.prf.iter().all(|p| p.per_category.len() < 2) {
        return;
    }
    section(out, st, "Precision / recall / F1 by category");
    let mut g = Grid::new(vec![
        ("criterion", L),
        ("category", L),
        ("variant", L),
        ("samples", R),
        ("precision", R),
        ("recall", R),
        ("F1 micro", R),
    ]);
    for p in &view.prf {
        for (ci, (c, per)) in p.per_category.iter().enumerate() {
            for (vi, (v, k)) in per.iter().enumerate() {
                let opt = |x: Option<f64>| x.map(fmt::num).unwrap_or_else(|| "-".into());
                g.row(vec![
                    if ci == 0 && vi == 0 {
                        p.key.clone()
                    } else {
                        String::new()
                    }
                    .into(),
                    if vi == 0 { c.clone() } else { String::new() }.into(),
                    v.as_str().into(),
                    k.samples.to_string().into(),
                    opt(k.micro.map(|m| m.precision)).into(),
                    opt(k.micro.map(|m| m.recall)).into(),
                    opt(k.micro.map(|m| m.f1)).into(),
                ]);
            }
        }
    }
    g.render(out, st);
}

fn groups(view: &RunView, opts: &TableOptions, st: &Styler, out: &mut String) {
    if view.groups.is_empty() {
        return;
    }
    section(out, st, "Group scores");
    let mut g = Grid::new(vec![
        ("scope", L),
        ("criterion", L),
        ("variant", L),
        ("groups", R),
        ("pass", R),
        ("fail", R),
        ("n/a", R),
        ("error", R),
        ("mean value", R),
    ]);
    for s in &view.groups {
        for (i, (v, k)) in s.per_variant.iter().enumerate() {
            let (scope, crit) = if i == 0 {
                (s.scope.clone(), format!("{}/{}", s.scorer, s.criterion))
            } else {
                (String::new(), String::new())
            };
            let c = k.status;
            g.row(vec![
                scope.into(),
                crit.into(),
                v.as_str().into(),
                k.groups.to_string().into(),
                painted(c.pass.to_string(), Paint::Green.count(c.pass)),
                painted(c.fail.to_string(), Paint::Red.count(c.fail)),
                c.not_applicable.to_string().into(),
                painted(c.error.to_string(), Paint::Yellow.count(c.error)),
                k.mean_value
                    .map(fmt::num)
                    .unwrap_or_else(|| "-".into())
                    .into(),
            ]);
        }
    }
    g.render(out, st);
    for f in view.group_failures.iter().take(opts.max_failures) {
        let head = format!(
            "{} [{}] {}: {}/{} {}",
            f.group,
            f.variant,
            f.scope,
            f.score.scorer,
            f.score.criterion,
            f.score.status.as_str()
        );
        let _ = writeln!(
            out,
            "  {}",
            st.paint(&head, Paint::for_status(f.score.status))
        );
        let detail = full_detail(&f.score);
        if !detail.is_empty() {
            let _ = writeln!(out, "      {}", fmt::fit(&detail, opts.width, 6));
        }
    }
    let hidden = view.group_failures.len().saturating_sub(opts.max_failures);
    if hidden > 0 {
        let _ = writeln!(
            out,
            "  … and {hidden} more failing group verdicts (see the Markdown or JSON report)"
        );
    }
}

fn failures(view: &RunView, opts: &TableOptions, st: &Styler, out: &mut String) {
    if view.failures.is_empty() {
        return;
    }
    let excluded = match view.error_policy() {
        ErrorPolicy::Exclude => " (errored samples are excluded from rates)",
        ErrorPolicy::Fail => "",
    };
    section(
        out,
        st,
        &format!("Failures ({} samples){excluded}", view.failures.len()),
    );
    for f in view.failures.iter().take(opts.max_failures) {
        let outcome = st.paint(f.outcome.as_str(), Paint::for_outcome(f.outcome));
        let task_outcome = view
            .task(&f.key.task_id)
            .and_then(|t| t.variant(&f.key.variant))
            .map(|v| v.outcome)
            .filter(|o| *o != TaskOutcome::Fail)
            .map(|o| format!(" (task {})", o.as_str()))
            .unwrap_or_default();
        let _ = writeln!(out, "  {}  {outcome}{task_outcome}", f.key);
        if let Some(e) = &f.error {
            let line = format!("error {}: {}", e.kind, one_line(&e.message));
            let _ = writeln!(out, "      {}", fmt::fit(&line, opts.width, 6));
        }
        for c in &f.criteria {
            let detail = full_detail(&c.score);
            let status = st.paint(c.score.status.as_str(), Paint::for_status(c.score.status));
            let text = if detail.is_empty() {
                String::new()
            } else {
                let used = 6 + c.key.chars().count() + 1 + c.score.status.as_str().len() + 2;
                format!(": {}", fmt::fit(&detail, opts.width, used))
            };
            let _ = writeln!(out, "      {} {status}{text}", c.key);
        }
        if f.error.is_none() && f.criteria.is_empty() {
            let _ = writeln!(out, "      no outcome criterion applied");
        }
    }
    let hidden = view.failures.len().saturating_sub(opts.max_failures);
    if hidden > 0 {
        let _ = writeln!(
            out,
            "  … and {hidden} more failing samples (see the Markdown or JSON report)"
        );
    }
}
