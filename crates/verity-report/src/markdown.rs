//! The Markdown audit document (seed 000 §6.5): the summary tables, the comparisons with their
//! contingency tables and tests, the per-criterion breakdown, and then one section per
//! discordant or failing task with its prompt, every variant's answers, the verdicts with
//! their evidence, and the task's hints.

use std::fmt::Write as _;

use serde_json::Value;
use verity_model::{ErrorPolicy, SampleRecord, Score, ScoreStatus};

use crate::fmt;
use crate::json::JSON_SCHEMA_VERSION;
use crate::view::{
    Comparison, RunView, TaskView, Winner, evidence_location, full_detail, one_line,
};

/// Metadata keys shown as hint lists (seed 000 §6.1).
const HINT_KEYS: [(&str, &str); 2] = [
    ("success_hints", "Success hints"),
    ("failure_hints", "Failure hints"),
];

/// [`render_markdown`] followed by the gates' verdict and the comparison with the baseline,
/// when the command computed them.
pub fn render_markdown_with(view: &RunView, extras: &crate::json::Extras<'_>) -> String {
    let mut out = render_markdown(view);
    if let Some(costs) = extras.costs {
        let _ = writeln!(
            out,
            "\n## Cost\n\nAt list prices (verity.toml `[prices]` over the built-in table).\n"
        );
        let rows = view
            .per_variant
            .iter()
            .map(|v| {
                let usd = costs
                    .iter()
                    .find(|(n, _)| n == &v.variant)
                    .and_then(|(_, c)| *c)
                    .map_or_else(|| "unknown".to_owned(), crate::verdict::usd);
                vec![
                    code(&v.variant),
                    v.tokens_in.to_string(),
                    v.tokens_out.to_string(),
                    usd,
                ]
            })
            .collect();
        table(
            &mut out,
            &["Variant", "Input tokens", "Output tokens", "Cost (USD)"],
            &[false, true, true, true],
            rows,
        );
    }
    if let Some(g) = extras.gates {
        let _ = writeln!(
            out,
            "\n## Gates\n\nVerdict: **{}**\n\n```text\n{}```",
            g.verdict.as_str(),
            crate::verdict::render_gates(g)
        );
    }
    if let Some(d) = extras.baseline {
        let body = crate::verdict::render_diff_markdown(d);
        let body = body.strip_prefix("# Comparison\n").unwrap_or(&body);
        let _ = writeln!(
            out,
            "\n## Baseline comparison\n{}",
            body.replace("\n## ", "\n### ")
                .replace("\n### Flipped", "\n#### Flipped")
        );
    }
    out
}

/// Renders the run as a Markdown audit document.
pub fn render_markdown(view: &RunView) -> String {
    let mut out = String::new();
    let h = &view.header;
    let _ = writeln!(
        out,
        "# {} — run {}\n",
        escape_text(&h.suite_name),
        code(&h.run_id)
    );
    if let Some(d) = h
        .suite_description
        .as_deref()
        .filter(|d| !d.trim().is_empty())
    {
        let _ = writeln!(out, "{}\n", escape_text(d));
    }
    let _ = writeln!(
        out,
        "Rendered from stored results (report schema {JSON_SCHEMA_VERSION}); no model was \
         called to produce this report.\n"
    );
    run_header(view, &mut out);
    preflight(view, &mut out);
    pass_rates(view, &mut out);
    comparisons(view, &mut out);
    criteria(view, &mut out);
    categories(view, &mut out);
    prf(view, &mut out);
    groups(view, &mut out);
    determinism(view, &mut out);
    citations(view, &mut out);
    epoch_verdicts(view, &mut out);
    failures(view, &mut out);
    task_sections(view, &mut out);
    if !view.notes.is_empty() {
        out.push_str("## Notes\n\n");
        for n in &view.notes {
            let _ = writeln!(out, "- {}", escape_text(n));
        }
        out.push('\n');
    }
    let trimmed = out.trim_end().len();
    out.truncate(trimmed);
    out.push('\n');
    out
}

/// A Markdown table.
pub(crate) fn table(out: &mut String, head: &[&str], align_right: &[bool], rows: Vec<Vec<String>>) {
    let _ = writeln!(out, "| {} |", head.join(" | "));
    let seps: Vec<&str> = (0..head.len())
        .map(|i| {
            if align_right.get(i).copied().unwrap_or(false) {
                "---:"
            } else {
                "---"
            }
        })
        .collect();
    let _ = writeln!(out, "|{}|", seps.join("|"));
    for r in rows {
        let cells: Vec<String> = r.iter().map(|c| cell(c)).collect();
        let _ = writeln!(out, "| {} |", cells.join(" | "));
    }
    out.push('\n');
}

/// A table cell: on one line, with pipes escaped. Cells are otherwise taken as Markdown.
pub(crate) fn cell(s: &str) -> String {
    one_line(s).replace('|', "\\|")
}

/// Escapes text that is not meant as Markdown (names, messages) for use in running text.
pub(crate) fn escape_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        if matches!(ch, '\\' | '`' | '*' | '_' | '[' | ']' | '<') {
            out.push('\\');
        }
        out.push(ch);
    }
    out
}

/// An inline code span that survives backticks in `s`.
pub(crate) fn code(s: &str) -> String {
    let s = one_line(s);
    if s.is_empty() {
        return "` `".into();
    }
    let ticks = "`".repeat(longest_backtick_run(&s) + 1);
    if s.starts_with('`') || s.ends_with('`') {
        format!("{ticks} {s} {ticks}")
    } else {
        format!("{ticks}{s}{ticks}")
    }
}

fn longest_backtick_run(s: &str) -> usize {
    let (mut best, mut cur) = (0, 0);
    for ch in s.chars() {
        if ch == '`' {
            cur += 1;
            best = best.max(cur);
        } else {
            cur = 0;
        }
    }
    best
}

/// A fenced block that cannot be closed early by fences inside `body` (answers often hold
/// their own ```swift blocks).
fn fenced(out: &mut String, body: &str) {
    let fence = "`".repeat(longest_backtick_run(body).max(2) + 1);
    let _ = writeln!(out, "{fence}");
    out.push_str(body);
    if !body.ends_with('\n') {
        out.push('\n');
    }
    let _ = writeln!(out, "{fence}\n");
}

fn run_header(view: &RunView, out: &mut String) {
    let h = &view.header;
    out.push_str("## Run\n\n");
    let rows = vec![
        vec!["Run".into(), code(&h.run_id)],
        vec![
            "Suite".into(),
            format!("{} ({})", escape_text(&h.suite_name), code(&h.suite_path)),
        ],
        vec!["Status".into(), h.shown_status().into()],
        vec!["Started".into(), h.started_at.clone()],
        vec![
            "Finished".into(),
            h.finished_at.clone().unwrap_or_else(|| "-".into()),
        ],
        vec!["Duration".into(), fmt::opt_duration(h.duration_ms)],
        vec!["verity".into(), h.verity_version.clone()],
        vec!["Suite content hash".into(), code(&h.suite_hash)],
        vec!["Scoring".into(), h.scoring.to_string()],
        vec![
            "Samples".into(),
            format!(
                "{} / {} ({} epochs)",
                h.samples_completed, h.samples_total, h.epochs
            ),
        ],
        vec![
            "Outcome rule".into(),
            escape_text(&fmt::outcome_rule(&h.outcome)),
        ],
    ];
    let mut rows = rows;
    for s in &h.schemas {
        rows.push(vec![
            format!("Schema ({})", escape_text(&s.used_by)),
            match &s.file {
                Some(f) => format!("{} {}", code(f), code(&s.hash)),
                None => code(&s.hash),
            },
        ]);
    }
    if let Some(t) = &h.toolchain {
        rows.push(vec!["Toolchain".into(), code(t)]);
    }
    rows.push(vec!["Tasks".into(), escape_text(&fmt::task_list(view))]);
    table(out, &["Field", "Value"], &[], rows);
    if !view.variants.is_empty() {
        let rows = view
            .variants
            .iter()
            .map(|v| {
                vec![
                    code(&v.name),
                    code(&v.model),
                    code(&v.prompt_hash),
                    escape_text(&fmt::grounding(v.grounding.as_ref())),
                ]
            })
            .collect();
        table(
            out,
            &["Variant", "Model", "Prompt template hash", "Grounding"],
            &[],
            rows,
        );
    }
}

/// What the scorers' pre-flight found and said before the first sample: facts, warnings and
/// the audit's notes (the deprecation map's disagreements with the symbol graph).
fn preflight(view: &RunView, out: &mut String) {
    let pf = &view.header.preflight;
    if pf
        .values()
        .all(|p| p.warnings.is_empty() && p.notes.is_empty())
    {
        return;
    }
    out.push_str(
        "## Pre-flight

",
    );
    for (name, p) in pf {
        if p.warnings.is_empty() && p.notes.is_empty() {
            continue;
        }
        let facts: Vec<String> = p
            .facts
            .iter()
            .map(|(k, v)| format!("{k} {}", code(v)))
            .collect();
        let _ = writeln!(
            out,
            "Scorer {}{}
",
            code(name),
            if facts.is_empty() {
                String::new()
            } else {
                format!(": {}", facts.join(", "))
            }
        );
        for w in &p.warnings {
            let _ = writeln!(out, "- warning: {}", escape_text(w));
        }
        for n in &p.notes {
            let _ = writeln!(out, "- {}", escape_text(n));
        }
        out.push('\n');
    }
}

fn pass_rates(view: &RunView, out: &mut String) {
    out.push_str("## Pass rates\n\n");
    out.push_str(match view.error_policy() {
        ErrorPolicy::Fail => {
            "Errored samples count as failures. Intervals are Wilson 95 % score intervals.\n\n"
        }
        ErrorPolicy::Exclude => {
            "Errored samples are left out of the rates and counted apart. Intervals are Wilson \
             95 % score intervals.\n\n"
        }
    });
    if view.per_variant.is_empty() {
        out.push_str("No variants.\n\n");
        return;
    }
    let rows = view
        .per_variant
        .iter()
        .map(|v| {
            vec![
                code(&v.variant),
                format!("{} / {}", v.samples, v.expected),
                v.counts.pass.to_string(),
                v.counts.fail.to_string(),
                v.counts.error.to_string(),
                fmt::rate(&v.rate),
                fmt::ci(&v.rate),
                fmt::mean_ms(v.latency.mean_ms),
                fmt::opt_duration(v.latency.p50_ms),
                fmt::opt_duration(v.latency.p95_ms),
                v.tokens_in.to_string(),
                v.tokens_out.to_string(),
                v.cache_hits.to_string(),
            ]
        })
        .collect();
    table(
        out,
        &[
            "Variant",
            "Samples",
            "Pass",
            "Fail",
            "Error",
            "Pass rate",
            "95% CI",
            "Latency mean",
            "p50",
            "p95",
            "Tokens in",
            "Tokens out",
            "Cache hits",
        ],
        &[
            false, true, true, true, true, true, false, true, true, true, true, true, true,
        ],
        rows,
    );
}

fn comparisons(view: &RunView, out: &mut String) {
    if view.comparisons.is_empty() {
        return;
    }
    out.push_str("## Comparisons\n\n");
    out.push_str(
        "Tasks are paired by id. A task passes for a variant when every stored epoch of it \
         passed; the contingency table counts tasks, with rows for the control and columns for \
         the treatment.\n\n",
    );
    for c in &view.comparisons {
        comparison(c, out);
    }
}

fn comparison(c: &Comparison, out: &mut String) {
    let _ = writeln!(
        out,
        "### {} vs {}\n",
        escape_text(&c.treatment),
        escape_text(&c.control)
    );
    let origin = if c.declared {
        "declared in the suite"
    } else {
        "implicit: the run has exactly two variants and no `[[compare]]`"
    };
    let _ = writeln!(
        out,
        "Treatment {}, control {}; test {}, alternative {} ({origin}).\n",
        code(&c.treatment),
        code(&c.control),
        code(&c.test),
        code(&c.alternative)
    );
    let [[a, b], [cc, d]] = c.contingency;
    table(
        out,
        &[
            "",
            &format!("{} pass", escape_text(&c.treatment)),
            &format!("{} fail", escape_text(&c.treatment)),
        ],
        &[false, true, true],
        vec![
            vec![
                format!("**{} pass**", escape_text(&c.control)),
                a.to_string(),
                b.to_string(),
            ],
            vec![
                format!("**{} fail**", escape_text(&c.control)),
                cc.to_string(),
                d.to_string(),
            ],
        ],
    );
    let _ = writeln!(
        out,
        "- Paired tasks: {}; discordant: b = {b}, c = {cc}.",
        c.n_pairs()
    );
    if let Some(m) = &c.mcnemar {
        let _ = writeln!(
            out,
            "- McNemar χ² (continuity-corrected): {}, p = {}.",
            fmt::num(m.chi2),
            fmt::num(m.p_chi2)
        );
        let _ = writeln!(
            out,
            "- Exact binomial: two-sided p = {}; greater p = {}; less p = {}; mid-p = {}.",
            fmt::num(m.p_exact_two_sided),
            fmt::num(m.p_exact_greater),
            fmt::num(m.p_exact_less),
            fmt::num(m.p_mid)
        );
        if let Some((p, method)) = c.quoted {
            let one_sided = matches!(
                verity_stats::Alternative::parse(&c.alternative),
                Some(verity_stats::Alternative::Greater | verity_stats::Alternative::Less)
            );
            let why = match (method, one_sided) {
                (verity_stats::PMethod::Exact, true) => "exact, as one-sided p-values always are",
                (verity_stats::PMethod::Exact, false) => "exact, since b + c < 25",
                (verity_stats::PMethod::ChiSquare, _) => "chi-square, since b + c ≥ 25",
            };
            let _ = writeln!(
                out,
                "- **Quoted p = {}** ({}, {why}).",
                fmt::num(p),
                escape_text(&c.alternative)
            );
        }
    }
    if !c.unpaired.is_empty() {
        let ids: Vec<String> = c.unpaired.iter().map(|t| code(t)).collect();
        let _ = writeln!(
            out,
            "- Unpaired (missing or excluded in an arm): {}.",
            ids.join(", ")
        );
    }
    for n in &c.notes {
        let _ = writeln!(out, "- Note: {}", escape_text(n));
    }
    out.push('\n');
    if !c.discordant.is_empty() {
        let rows = c
            .discordant
            .iter()
            .map(|d| {
                let winner = match d.winner {
                    Winner::Treatment => &c.treatment,
                    Winner::Control => &c.control,
                };
                vec![
                    code(&d.task_id),
                    code(winner),
                    format!("{} (epoch {})", code(&d.failing_variant), d.failing_epoch),
                    escape_text(&d.reason),
                ]
            })
            .collect();
        table(
            out,
            &["Discordant task", "Passes", "Fails", "Reason"],
            &[],
            rows,
        );
    }
}

fn criteria(view: &RunView, out: &mut String) {
    if view.per_criterion.is_empty() {
        return;
    }
    out.push_str("## Per criterion\n\n");
    out.push_str(
        "Each criterion is reported on its own; verity never combines them into one score. \
         Not-applicable verdicts are left out of the rate; scorer errors follow the run's error \
         policy.\n\n",
    );
    let policy = view.error_policy();
    let mut rows = Vec::new();
    for c in &view.per_criterion {
        for (v, k) in &c.per_variant {
            rows.push(vec![
                code(&c.key),
                code(&c.scorer),
                if c.in_outcome { "yes" } else { "no" }.into(),
                code(v),
                k.pass.to_string(),
                k.fail.to_string(),
                k.not_applicable.to_string(),
                k.error.to_string(),
                fmt::rate(&k.rate(policy)),
            ]);
        }
    }
    table(
        out,
        &[
            "Criterion",
            "Scorer",
            "In outcome",
            "Variant",
            "Pass",
            "Fail",
            "N/A",
            "Error",
            "Pass rate",
        ],
        &[false, false, false, false, true, true, true, true, true],
        rows,
    );
}

fn categories(view: &RunView, out: &mut String) {
    if view.per_category.is_empty() {
        return;
    }
    out.push_str("## Per category\n\n");
    let policy = view.error_policy();
    let mut rows = Vec::new();
    for c in &view.per_category {
        for (v, k) in &c.per_variant {
            rows.push(vec![
                escape_text(&c.category),
                c.tasks.to_string(),
                code(v),
                k.pass.to_string(),
                k.fail.to_string(),
                k.error.to_string(),
                fmt::rate(&k.rate(policy)),
            ]);
        }
    }
    table(
        out,
        &[
            "Category",
            "Tasks",
            "Variant",
            "Pass",
            "Fail",
            "Error",
            "Pass rate",
        ],
        &[false, true, false, true, true, true, true],
        rows,
    );
}

fn prf(view: &RunView, out: &mut String) {
    if view.prf.is_empty() {
        return;
    }
    out.push_str("## Precision / recall / F1\n\n");
    out.push_str(
        "Micro values come from the `tp` / `fp` / `fn` counts summed over samples; macro values \
         are the means of the per-sample values.\n\n",
    );
    let opt = |x: Option<f64>| x.map(fmt::num).unwrap_or_else(|| "-".into());
    let row = |first: Vec<String>, k: &crate::view::PrfCounts| {
        let mut r = first;
        r.extend([
            k.samples.to_string(),
            fmt::count(k.tp),
            fmt::count(k.fp),
            fmt::count(k.fn_),
            opt(k.micro.map(|m| m.precision)),
            opt(k.micro.map(|m| m.recall)),
            opt(k.micro.map(|m| m.f1)),
            opt(k.macro_precision),
            opt(k.macro_recall),
            opt(k.macro_f1),
        ]);
        r
    };
    let numbers = [
        "Samples",
        "TP",
        "FP",
        "FN",
        "Precision",
        "Recall",
        "F1 (micro)",
        "P (macro)",
        "R (macro)",
        "F1 (macro)",
    ];
    let header = |lead: &[&'static str]| -> (Vec<&'static str>, Vec<bool>) {
        let h: Vec<&str> = lead.iter().copied().chain(numbers).collect();
        let right: Vec<bool> = lead
            .iter()
            .map(|_| false)
            .chain(numbers.iter().map(|_| true))
            .collect();
        (h, right)
    };
    let mut rows = Vec::new();
    for p in &view.prf {
        for (v, k) in &p.per_variant {
            rows.push(row(vec![code(&p.key), code(v)], k));
        }
    }
    let (h, right) = header(&["Criterion", "Variant"]);
    table(out, &h, &right, rows);
    if view.prf.iter().any(|p| p.per_category.len() > 1) {
        out.push_str("### By category\n\n");
        let mut rows = Vec::new();
        for p in &view.prf {
            for (c, per) in &p.per_category {
                for (v, k) in per {
                    rows.push(row(vec![code(&p.key), escape_text(c), code(v)], k));
                }
            }
        }
        let (h, right) = header(&["Criterion", "Category", "Variant"]);
        table(out, &h, &right, rows);
    }
    out.push_str("### By task\n\n");
    let mut rows = Vec::new();
    for t in &view.tasks {
        for tv in &t.variants {
            for p in &view.prf {
                let k = crate::view::prf_of(&tv.epochs, &p.scorer, &p.criterion);
                if k.samples > 0 {
                    rows.push(row(vec![code(&t.id), code(&p.key), code(&tv.variant)], &k));
                }
            }
        }
    }
    let (h, right) = header(&["Task", "Criterion", "Variant"]);
    table(out, &h, &right, rows);
}

/// How many evidence lines of a failing group verdict the Markdown report lists.
const GROUP_EVIDENCE_LINES: usize = 30;

fn groups(view: &RunView, out: &mut String) {
    if view.groups.is_empty() {
        return;
    }
    out.push_str("## Group scores\n\n");
    let mut rows = Vec::new();
    for g in &view.groups {
        for (v, k) in &g.per_variant {
            rows.push(vec![
                code(&g.scope),
                code(&format!("{}/{}", g.scorer, g.criterion)),
                code(v),
                k.groups.to_string(),
                k.status.pass.to_string(),
                k.status.fail.to_string(),
                k.status.not_applicable.to_string(),
                k.status.error.to_string(),
                k.mean_value.map(fmt::num).unwrap_or_else(|| "-".into()),
            ]);
        }
    }
    table(
        out,
        &[
            "Scope",
            "Criterion",
            "Variant",
            "Groups",
            "Pass",
            "Fail",
            "N/A",
            "Error",
            "Mean value",
        ],
        &[false, false, false, true, true, true, true, true, true],
        rows,
    );
    if !view.group_failures.is_empty() {
        let rows = view
            .group_failures
            .iter()
            .map(|f| {
                let tasks: Vec<String> = f.task_ids.iter().map(|t| code(t)).collect();
                vec![
                    code(&f.group),
                    code(&f.variant),
                    code(&format!("{}/{}", f.score.scorer, f.score.criterion)),
                    f.score.status.as_str().into(),
                    tasks.join(", "),
                    escape_text(&full_detail(&f.score)),
                ]
            })
            .collect();
        table(
            out,
            &[
                "Failing group",
                "Variant",
                "Criterion",
                "Verdict",
                "Tasks",
                "Detail",
            ],
            &[],
            rows,
        );
        // The table shows each verdict's first evidence; diffs between epochs have more lines.
        for f in view
            .group_failures
            .iter()
            .filter(|f| f.score.evidence.len() > 1)
        {
            let _ = writeln!(
                out,
                "Evidence for {} [{}] {}/{}:\n",
                code(&f.group),
                code(&f.variant),
                f.score.scorer,
                f.score.criterion
            );
            for e in f.score.evidence.iter().take(GROUP_EVIDENCE_LINES) {
                let _ = writeln!(out, "- {}", escape_text(&e.message));
            }
            let more = f.score.evidence.len().saturating_sub(GROUP_EVIDENCE_LINES);
            if more > 0 {
                let _ = writeln!(out, "- … and {more} more (see the JSON report)");
            }
            out.push('\n');
        }
    }
}

/// Each task's verdict from every scorer over its epochs (`identical`, `similarity`), passing
/// or not: its value and explanation (for `similarity`, the weakest resource and the pair of
/// epochs).
fn epoch_verdicts(view: &RunView, out: &mut String) {
    let rows: Vec<Vec<String>> = view
        .group_scores
        .iter()
        .filter(|g| g.scope == "epochs")
        .map(|g| {
            vec![
                code(&g.group),
                code(&g.variant),
                code(&format!("{}/{}", g.score.scorer, g.score.criterion)),
                g.score.status.as_str().into(),
                g.score.value.map(fmt::num).unwrap_or_else(|| "-".into()),
                escape_text(g.score.explanation.as_deref().unwrap_or("")),
            ]
        })
        .collect();
    if rows.is_empty() {
        return;
    }
    out.push_str("### Epoch verdicts per task\n\n");
    table(
        out,
        &[
            "Task",
            "Variant",
            "Criterion",
            "Verdict",
            "Value",
            "Explanation",
        ],
        &[false, false, false, false, true, false],
        rows,
    );
}

/// Seed 004's per-fixture results: each task across its epochs, per variant.
fn determinism(view: &RunView, out: &mut String) {
    if view.determinism.is_empty() {
        return;
    }
    out.push_str(
        "## Determinism\n\nEach task across its epochs: valid epochs (answered, no per-sample \
         criterion failed), the similarity verdict (the minimum over resources and pairs of \
         epochs) with its weakest resource, the share of epochs equal to the canonical answer \
         (after normalization, and byte for byte), and errored epochs.\n\n",
    );
    let opt = |v: Option<f64>| v.map(fmt::num).unwrap_or_else(|| "-".into());
    let mut rows = Vec::new();
    for v in &view.determinism {
        for t in &v.tasks {
            rows.push(vec![
                code(&v.variant),
                code(&t.task),
                if t.passed { "yes" } else { "**no**" }.into(),
                format!("{}/{}", t.valid, t.epochs),
                opt(t.similarity),
                opt(t.identical),
                opt(t.byte_identical),
                t.errors.to_string(),
                t.similarity_note
                    .as_deref()
                    .map(escape_text)
                    .unwrap_or_default(),
            ]);
        }
        rows.push(vec![
            code(&v.variant),
            "*all*".into(),
            format!("{}/{}", v.tasks_passed, v.tasks.len()),
            fmt::pct(v.validity),
            opt(v.similarity),
            String::new(),
            String::new(),
            v.errors.to_string(),
            String::new(),
        ]);
    }
    table(
        out,
        &[
            "Variant",
            "Task",
            "Passed",
            "Valid",
            "Similarity",
            "Identical",
            "Byte-identical",
            "Errors",
            "Weakest resource",
        ],
        &[false, false, false, true, true, true, true, true, false],
        rows,
    );
}

/// Seed 002's verification metrics per variant, against the seed's targets.
fn citations(view: &RunView, out: &mut String) {
    if view.citations.is_empty() {
        return;
    }
    out.push_str(
        "## Citations\n\nSeed 002's verification metrics: citations (cited files with their line \
         ranges, and backticked identifiers) passing V1, structural claims passing V2, paraphrase \
         groups citing the same files, and citations and claims failing, against the seed's \
         targets.\n\n",
    );
    let targets = crate::view::CitationVariant::TARGETS;
    let mut rows = Vec::new();
    let mut head = vec!["*target*".to_owned()];
    head.extend(targets.iter().map(|t| t.show()));
    rows.push(head);
    for v in &view.citations {
        let counts = v.counts();
        let mut row = vec![code(&v.variant)];
        for (t, (num, den)) in targets.iter().zip(counts) {
            let value = t.value(v);
            row.push(match (value, t.met(value)) {
                (Some(x), Some(true)) => format!("{} ({num}/{den})", fmt::pct(x)),
                (Some(x), _) => format!("**{}** ({num}/{den}, misses)", fmt::pct(x)),
                (None, _) => "-".into(),
            });
        }
        rows.push(row);
    }
    let head: Vec<&str> = std::iter::once("Variant")
        .chain(targets.iter().map(|t| t.label))
        .collect();
    table(out, &head, &[false, true, true, true, true], rows);
}

fn failures(view: &RunView, out: &mut String) {
    if view.failures.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "## Failures\n\n{} failing or errored samples.\n",
        view.failures.len()
    );
    let rows = view
        .failures
        .iter()
        .map(|f| {
            let mut detail: Vec<String> = Vec::new();
            if let Some(e) = &f.error {
                detail.push(format!(
                    "error {}: {}",
                    code(&e.kind),
                    escape_text(&e.message)
                ));
            }
            for c in &f.criteria {
                let d = full_detail(&c.score);
                let status = if c.score.status == ScoreStatus::Error {
                    " (scorer error)"
                } else {
                    ""
                };
                detail.push(if d.is_empty() {
                    format!("{}{status}", code(&c.key))
                } else {
                    format!("{}{status}: {}", code(&c.key), escape_text(&d))
                });
            }
            if detail.is_empty() {
                detail.push("no outcome criterion applied".into());
            }
            vec![
                code(&f.key.task_id),
                code(&f.key.variant),
                f.key.epoch.to_string(),
                f.outcome.as_str().into(),
                detail.join("<br>"),
            ]
        })
        .collect();
    table(
        out,
        &[
            "Task",
            "Variant",
            "Epoch",
            "Outcome",
            "Failing criteria / error",
        ],
        &[false, false, true],
        rows,
    );
}

fn task_sections(view: &RunView, out: &mut String) {
    let discordant: Vec<&TaskView> = view
        .tasks
        .iter()
        .filter(|t| {
            view.comparisons
                .iter()
                .any(|c| c.discordant.iter().any(|d| d.task_id == t.id))
        })
        .collect();
    if !discordant.is_empty() {
        out.push_str("## Discordant tasks\n\n");
        for t in &discordant {
            task_section(view, t, out);
        }
    }
    let failing: Vec<&TaskView> = view
        .tasks
        .iter()
        .filter(|t| t.has_failure() && !discordant.iter().any(|d| d.id == t.id))
        .collect();
    if !failing.is_empty() {
        out.push_str("## Failing tasks\n\n");
        if !discordant.is_empty() {
            out.push_str("Tasks already shown under Discordant tasks are not repeated.\n\n");
        }
        for t in failing {
            task_section(view, t, out);
        }
    }
}

fn task_section(view: &RunView, t: &TaskView, out: &mut String) {
    let _ = writeln!(out, "### Task {}\n", code(&t.id));
    let mut facts = vec![format!(
        "Category: {}.",
        escape_text(t.category.as_deref().unwrap_or(crate::view::NO_CATEGORY))
    )];
    for c in &view.comparisons {
        if let Some(d) = c.discordant.iter().find(|d| d.task_id == t.id) {
            let (w, l) = match d.winner {
                Winner::Treatment => (&c.treatment, &c.control),
                Winner::Control => (&c.control, &c.treatment),
            };
            facts.push(format!(
                "{} vs {}: {} passes, {} fails.",
                code(&c.treatment),
                code(&c.control),
                code(w),
                code(l)
            ));
        }
    }
    if !t.in_suite {
        facts.push("This task is not in the stored suite.".into());
    }
    let _ = writeln!(out, "{}\n", facts.join(" "));
    out.push_str("**Prompt**\n\n");
    fenced(out, &t.prompt);
    for (key, label) in HINT_KEYS {
        if let Some(v) = t.metadata.get(key) {
            let items: Vec<String> = match v {
                Value::Array(a) => a.iter().map(value_text).collect(),
                other => vec![value_text(other)],
            };
            let items: Vec<String> = items.iter().map(|i| code(i)).collect();
            let _ = writeln!(out, "**{label}:** {}\n", items.join(", "));
        }
    }
    let other: Vec<String> = t
        .metadata
        .iter()
        .filter(|(k, _)| !HINT_KEYS.iter().any(|(h, _)| h == k))
        .map(|(k, v)| format!("{} = {}", code(k), code(&value_text(v))))
        .collect();
    if !other.is_empty() {
        let _ = writeln!(out, "**Metadata:** {}\n", other.join(", "));
    }
    for v in &t.variants {
        let _ = writeln!(
            out,
            "#### {} — task {}\n",
            escape_text(&v.variant),
            v.outcome.as_str()
        );
        for s in &v.epochs {
            epoch_section(view, s, out);
        }
    }
}

fn epoch_section(view: &RunView, s: &SampleRecord, out: &mut String) {
    let _ = writeln!(out, "**Epoch {}: {}**\n", s.key.epoch, s.outcome.as_str());
    if let Some(e) = &s.response.error {
        let _ = writeln!(
            out,
            "No answer: error {} after {} attempt(s): {}\n",
            code(&e.kind),
            s.response.attempts,
            escape_text(&e.message)
        );
        // The calls made before it failed, the failed one included, show why.
        tool_calls_section(s, out);
        return;
    }
    if s.response.text.is_empty() {
        out.push_str("The answer is empty.\n\n");
    } else {
        fenced(out, &s.response.text);
    }
    tool_calls_section(s, out);
    if s.scores.is_empty() {
        return;
    }
    score_rows(view, s, out);
}

/// The sample's tool calls: each call, each failed call's reason, each result's text.
fn tool_calls_section(s: &SampleRecord, out: &mut String) {
    if !s.response.tool_calls.is_empty() {
        let calls: Vec<String> = s
            .response
            .tool_calls
            .iter()
            .map(|c| code(&format!("{}({})", c.name, c.arguments)))
            .collect();
        let _ = writeln!(out, "Tool calls: {}\n", calls.join(", "));
        // What the grounding returned (seed 000 G5: what the top-K said, where the answer
        // diverged), as the text the model was given, shortened.
        for c in &s.response.tool_calls {
            let Some(result) = &c.result else { continue };
            let text = tool_result_text(result);
            if text.trim().is_empty() {
                continue;
            }
            let _ = writeln!(out, "Result of {}:\n", code(&c.name));
            fenced(out, &shorten(&text, 2000));
        }
        for c in &s.response.tool_calls {
            if let Some(e) = &c.error {
                let _ = writeln!(
                    out,
                    "Call of {} failed ({}): {}\n",
                    code(&c.name),
                    code(&e.kind),
                    escape_text(&e.message)
                );
            }
        }
    }
}

/// The table of the sample's verdicts.
fn score_rows(view: &RunView, s: &SampleRecord, out: &mut String) {
    let key = |sc: &Score| {
        view.per_criterion
            .iter()
            .find(|c| c.scorer == sc.scorer && c.criterion == sc.criterion)
            .map(|c| c.key.clone())
            .unwrap_or_else(|| sc.criterion.clone())
    };
    let rows = s
        .scores
        .iter()
        .map(|sc| {
            let key = key(sc);
            let verdict = match sc.status {
                ScoreStatus::Pass => "pass",
                ScoreStatus::Fail => "**fail**",
                ScoreStatus::NotApplicable => "n/a",
                ScoreStatus::Error => "**error**",
            };
            let mut detail = sc
                .explanation
                .as_deref()
                .map(escape_text)
                .unwrap_or_default();
            if let Some(v) = sc.value.filter(|v| v.is_finite()) {
                if !detail.is_empty() {
                    detail.push_str("; ");
                }
                detail.push_str(&format!("value {}", fmt::num(v)));
            }
            vec![code(&key), verdict.into(), detail]
        })
        .collect();
    table(out, &["Criterion", "Verdict", "Detail"], &[], rows);
    let evidence: Vec<_> = s
        .scores
        .iter()
        .filter(|sc| matches!(sc.status, ScoreStatus::Fail | ScoreStatus::Error))
        .flat_map(|sc| sc.evidence.iter().map(move |e| (sc, e)))
        .collect();
    if !evidence.is_empty() {
        out.push_str("Evidence:\n\n");
        for (sc, e) in evidence {
            let at = evidence_location(e)
                .map(|l| format!(" (at {l})"))
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "- {}: {}{at}",
                code(&key(sc)),
                escape_text(&one_line(&e.message))
            );
            if let Some(snippet) = e.snippet.as_deref().filter(|s| !s.trim().is_empty()) {
                let _ = writeln!(out, "  {}", code(snippet));
            }
        }
        out.push('\n');
    }
}

/// A metadata value as plain text: strings without quotes, anything else as JSON.
fn value_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The text of a tool result: MCP `content` text parts joined, else the JSON itself.
fn tool_result_text(result: &serde_json::Value) -> String {
    let parts: Vec<&str> = result
        .get("content")
        .and_then(|c| c.as_array())
        .map(|a| {
            a.iter()
                .filter_map(|p| p.get("text").and_then(|t| t.as_str()))
                .collect()
        })
        .unwrap_or_default();
    if parts.is_empty() {
        result.to_string()
    } else {
        parts.join("\n")
    }
}

/// At most `max` characters, cut at a line end where possible, with a note of what was cut.
fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let cut: String = text.chars().take(max).collect();
    let cut = match cut.rfind('\n') {
        Some(i) if i > max / 2 => cut[..i].to_owned(),
        _ => cut,
    };
    format!(
        "{cut}\n… ({} more characters)",
        text.chars().count() - cut.chars().count()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_spans_survive_backticks() {
        assert_eq!(code("abc"), "`abc`");
        assert_eq!(code("a`b"), "``a`b``");
        assert_eq!(code("`x`"), "`` `x` ``");
        assert_eq!(code(""), "` `");
    }

    #[test]
    fn fences_outgrow_inner_fences() {
        let mut out = String::new();
        fenced(&mut out, "```swift\nlet x = 1\n```");
        assert!(out.starts_with("````\n```swift"));
        assert!(out.ends_with("```\n````\n\n"));
    }

    #[test]
    fn cells_are_single_line_and_pipe_safe() {
        assert_eq!(cell("a | b\nc"), "a \\| b c");
        assert_eq!(escape_text("a_b*c"), "a\\_b\\*c");
    }
}
