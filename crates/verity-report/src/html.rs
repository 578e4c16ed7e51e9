//! `--format html`: one self-contained page per run (and per comparison of two runs).
//!
//! The page carries the JSON report itself as its data (`<script type="application/json"
//! id="verity-data">`), exactly what `--format json` prints for the same command, so the page
//! and the JSON never disagree. Nothing is fetched: no external script, style, font or image,
//! and a Content-Security-Policy that allows none (`default-src 'none'`), so the file opens
//! offline and no request leaves it.
//!
//! What the page is made of:
//!
//! * the charts, drawn here in Rust as inline SVG (`html/charts.rs`, plotters' SVG backend)
//!   from the numbers the [`RunView`] computed — pass rates with their Wilson intervals,
//!   failures per criterion, categories, latency and token distributions, P/R/F1, determinism,
//!   citation metrics — each with a `<title>`, a `<desc>` and its numbers as a table;
//! * the paired comparisons: the 2×2 table and McNemar's result in words;
//! * the task table and its detail panel (`html/page.js`, plain JavaScript): filters, sorting,
//!   paging, each task's prompt, answers, evidence at its line, tool calls and retrieved
//!   context — all read from the embedded JSON, no statistic computed in the browser.
//!
//! Every section has a stable element id (`run-header`, `verdict`, `summary`, `charts`,
//! `chart-<name>`, `comparisons`, `tasks`, `task-table`, `task-detail`); `verity view` serves
//! the same pages.

mod charts;

use std::collections::HashMap;
use std::fmt::Write as _;

use serde_json::Value;
use verity_model::Outcome;

use crate::fmt;
use crate::json::{Extras, to_json_with};
use crate::view::{Comparison, NO_CATEGORY, RunView};
use charts::{Bars, Chart, Histogram};

/// The run's report as one self-contained HTML page.
pub fn render_html(view: &RunView, extras: &Extras<'_>) -> String {
    let data = to_json_with(view, extras);
    let h = &view.header;
    let title = format!("verity · {} · run {}", h.suite_name, h.run_id);
    let mut body = String::with_capacity(64 * 1024);
    let _ = write!(
        body,
        "<header id=\"run-header\">\n<h1>{}</h1>\n<p class=\"meta\">suite <strong>{}</strong>{} · \
         status <strong>{}</strong> · started {} · took {} · {} of {} samples · {} task(s) · \
         {} epoch(s) · scoring {} · verity {}{}</p>\n</header>\n",
        escape(&title),
        escape(&h.suite_name),
        h.suite_description
            .as_deref()
            .map(|d| format!(" — {}", escape(d)))
            .unwrap_or_default(),
        escape(h.shown_status()),
        escape(&h.started_at),
        fmt::opt_duration(h.duration_ms),
        h.samples_completed,
        h.samples_total,
        view.tasks.len(),
        h.epochs,
        h.scoring,
        escape(&h.verity_version),
        h.toolchain
            .as_deref()
            .map(|t| format!(" · toolchain {}", escape(t)))
            .unwrap_or_default(),
    );
    let charts = run_charts(view, extras);
    body.push_str(&nav(&[
        ("verdict", "Verdict", data.get("gates").is_some()),
        ("summary", "Variants", true),
        ("charts", "Charts", !charts.is_empty()),
        ("comparisons", "Comparisons", !view.comparisons.is_empty()),
        ("tasks", "Tasks", true),
        ("notes", "Notes", !view.notes.is_empty()),
    ]));
    if let Some(g) = data.get("gates") {
        body.push_str(&gates_section(g));
    }
    body.push_str(&summary_section(view));
    if !charts.is_empty() {
        body.push_str("<section id=\"charts\">\n<h2>Charts</h2>\n");
        for c in &charts {
            body.push_str(&c.html());
        }
        body.push_str("</section>\n");
    }
    if !view.comparisons.is_empty() {
        body.push_str(
            "<section id=\"comparisons\">\n<h2>Paired comparisons</h2>\n<p class=\"note\">Tasks \
             are paired by id; a task passes for a variant when every counted epoch passed.</p>\n",
        );
        for c in &view.comparisons {
            body.push_str(&comparison_html(c));
        }
        body.push_str("</section>\n");
    }
    body.push_str(TASKS_SECTION);
    if !view.notes.is_empty() {
        body.push_str("<section id=\"notes\">\n<h2>Notes</h2>\n<ul>");
        for n in &view.notes {
            let _ = write!(body, "<li>{}</li>", escape(n));
        }
        body.push_str("</ul>\n</section>\n");
    }
    page(&title, "run", &body, &data)
}

/// A comparison of two runs (`verity compare A B --format html`): `data` is the document
/// `verity compare --format json` prints.
pub fn render_diff_html(data: &Value) -> String {
    let diffs: &[Value] = data
        .get("comparisons")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    let side = |d: &Value, s: &str| -> String {
        let run = str_at(d, &[s, "run_id"]);
        format!(
            "{} ({})",
            str_at(d, &[s, "variant"]),
            run.get(..8).unwrap_or(&run)
        )
    };
    let title = match diffs.first() {
        Some(d) => format!(
            "verity · comparison · {} → {}",
            str_at(d, &["a", "run_id"]).get(..8).unwrap_or("?"),
            str_at(d, &["b", "run_id"]).get(..8).unwrap_or("?")
        ),
        None => "verity · comparison".to_owned(),
    };
    let mut body = String::with_capacity(32 * 1024);
    let _ = write!(
        body,
        "<header id=\"run-header\">\n<h1>{}</h1>\n<p class=\"meta\">A is the reference, B the \
         candidate; changes are B − A.</p>\n</header>\n",
        escape(&title)
    );
    body.push_str(&nav(&[
        ("verdict", "Verdict", data.get("gates").is_some()),
        ("summary", "Sides", true),
        ("charts", "Charts", !diffs.is_empty()),
        ("comparisons", "Comparisons", !diffs.is_empty()),
        ("tasks", "Flipped tasks", true),
    ]));
    if let Some(g) = data.get("gates") {
        body.push_str(&gates_section(g));
    }
    body.push_str("<section id=\"summary\">\n<h2>Sides</h2>\n");
    let mut t = charts::DataTable {
        head: [
            "",
            "side",
            "run",
            "variant",
            "model",
            "suite",
            "date",
            "status",
            "tasks",
            "epochs",
            "pass rate",
            "95% interval",
        ]
        .map(String::from)
        .to_vec(),
        rows: Vec::new(),
    };
    for (i, d) in diffs.iter().enumerate() {
        for (s, r) in [("a", "rate_a"), ("b", "rate_b")] {
            let ci = d[r]["ci95"]
                .as_array()
                .map(|a| {
                    format!(
                        "{}–{}",
                        a[0].as_f64().map(fmt::pct).unwrap_or_default(),
                        a[1].as_f64().map(fmt::pct).unwrap_or_default()
                    )
                })
                .unwrap_or_else(|| "—".into());
            t.rows.push(vec![
                format!("#{}", i + 1),
                s.to_uppercase(),
                str_at(d, &[s, "run_id"]),
                str_at(d, &[s, "variant"]),
                str_at(d, &[s, "model"]),
                str_at(d, &[s, "suite_name"]),
                str_at(d, &[s, "date"]),
                str_at(d, &[s, "status"]),
                d[s]["tasks"].to_string(),
                d[s]["epochs"].to_string(),
                d[r]["value"].as_f64().map(fmt::pct).unwrap_or("—".into()),
                ci,
            ]);
        }
    }
    body.push_str(&t.html());
    for d in diffs {
        for w in d["warnings"].as_array().into_iter().flatten() {
            let _ = write!(
                body,
                "<p class=\"warning\">⚠ {}</p>",
                escape(w.as_str().unwrap_or_default())
            );
        }
    }
    body.push_str("</section>\n");
    if !diffs.is_empty() {
        body.push_str("<section id=\"charts\">\n<h2>Charts</h2>\n");
        for c in diff_charts(diffs, &side) {
            body.push_str(&c.html());
        }
        body.push_str("</section>\n<section id=\"comparisons\">\n<h2>Paired comparisons</h2>\n");
        for d in diffs {
            body.push_str(&diff_contingency(d, &side(d, "a"), &side(d, "b")));
        }
        body.push_str("</section>\n");
    }
    body.push_str(TASKS_SECTION);
    page(&title, "compare", &body, data)
}

/// The policy every page carries: nothing may be loaded from anywhere; inline styles and the
/// page's own inline script run, and images only from `data:` URLs.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; style-src 'unsafe-inline'; \
     script-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

/// The page's style: colours from the user's scheme (`prefers-color-scheme`), charts in
/// `currentColor`.
const STYLE: &str = include_str!("html/page.css");
/// The task table and its detail panel.
const SCRIPT: &str = include_str!("html/page.js");

/// The task table's controls; `page.js` fills the table, the pager and the detail panel.
const TASKS_SECTION: &str = "<section id=\"tasks\">\n<h2>Tasks</h2>\n\
<form id=\"task-filters\" class=\"filters\" role=\"search\" onsubmit=\"return false\">\n\
<label>Search <input id=\"filter-text\" type=\"search\" placeholder=\"id, prompt, answer, evidence\"></label>\n\
<label>Variant <select id=\"filter-variant\"><option value=\"\">all</option></select></label>\n\
<label>Outcome <select id=\"filter-outcome\"><option value=\"\">all</option></select></label>\n\
<label>Criterion <select id=\"filter-criterion\"><option value=\"\">all</option></select></label>\n\
<label>Category <select id=\"filter-category\"><option value=\"\">all</option></select></label>\n\
</form>\n\
<p id=\"task-count\" class=\"note\" aria-live=\"polite\"></p>\n\
<table id=\"task-table\" class=\"tasks\"><thead></thead><tbody></tbody></table>\n\
<nav id=\"task-pager\" class=\"pager\" aria-label=\"task pages\"></nav>\n\
<div id=\"task-detail\" class=\"detail\" hidden></div>\n\
</section>\n";

fn nav(items: &[(&str, &str, bool)]) -> String {
    let mut out = String::from("<nav id=\"toc\" aria-label=\"sections\">");
    for (id, label, shown) in items {
        if *shown {
            let _ = write!(out, "<a href=\"#{id}\">{label}</a>");
        }
    }
    out.push_str("</nav>\n");
    out
}

fn page(title: &str, kind: &str, body: &str, data: &Value) -> String {
    let json = embed_json(data);
    let mut out =
        String::with_capacity(body.len() + json.len() + STYLE.len() + SCRIPT.len() + 1024);
    out.push_str("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    let _ = writeln!(
        out,
        "<meta http-equiv=\"Content-Security-Policy\" content=\"{CONTENT_SECURITY_POLICY}\">"
    );
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    out.push_str("<meta name=\"color-scheme\" content=\"light dark\">\n");
    let _ = writeln!(out, "<title>{}</title>", escape(title));
    let _ = writeln!(out, "<style>\n{STYLE}</style>");
    let _ = writeln!(out, "</head>\n<body data-page=\"{kind}\">\n<main>");
    out.push_str(body);
    out.push_str("</main>\n<script type=\"application/json\" id=\"verity-data\">");
    out.push_str(&json);
    out.push_str("</script>\n<script>\n");
    out.push_str(SCRIPT);
    out.push_str("</script>\n</body>\n</html>\n");
    out
}

/// The verdict and each gate (`gates` of the JSON report or of `compare --format json`).
fn gates_section(g: &Value) -> String {
    let verdict = g["verdict"].as_str().unwrap_or("?");
    let mut out = format!(
        "<section id=\"verdict\">\n<h2>Verdict: <span class=\"badge {v}\">{V}</span></h2>\n",
        v = escape(verdict),
        V = escape(&verdict.to_uppercase()),
    );
    let mut t = charts::DataTable {
        head: [
            "gate", "variant", "status", "value", "baseline", "change", "noise ±", "note",
        ]
        .map(String::from)
        .to_vec(),
        rows: Vec::new(),
    };
    let num = |v: &Value| v.as_f64().map(fmt::num).unwrap_or_else(|| "—".into());
    for r in g["gates"].as_array().into_iter().flatten() {
        t.rows.push(vec![
            str_at(r, &["gate"]),
            str_at(r, &["variant"]),
            str_at(r, &["status"]),
            num(&r["value"]),
            num(&r["baseline_value"]),
            num(&r["delta"]),
            num(&r["noise"]),
            str_at(r, &["note"]),
        ]);
    }
    out.push_str(&t.html());
    for n in g["notes"].as_array().into_iter().flatten() {
        let _ = write!(
            out,
            "<p class=\"note\">{}</p>",
            escape(n.as_str().unwrap_or_default())
        );
    }
    out.push_str("</section>\n");
    out
}

fn summary_section(view: &RunView) -> String {
    let mut t = charts::DataTable {
        head: [
            "variant",
            "model",
            "grounding",
            "samples",
            "pass",
            "fail",
            "error",
            "pass rate",
            "95% interval",
            "latency p50",
            "latency p95",
            "tokens in / out",
        ]
        .map(String::from)
        .to_vec(),
        rows: Vec::new(),
    };
    for v in &view.per_variant {
        let info = view.variants.iter().find(|i| i.name == v.variant);
        t.rows.push(vec![
            v.variant.clone(),
            info.map(|i| i.model.clone()).unwrap_or_default(),
            fmt::grounding(info.and_then(|i| i.grounding.as_ref())),
            format!("{} / {}", v.samples, v.expected),
            v.counts.pass.to_string(),
            v.counts.fail.to_string(),
            v.counts.error.to_string(),
            fmt::rate(&v.rate),
            fmt::ci(&v.rate),
            fmt::opt_duration(v.latency.p50_ms),
            fmt::opt_duration(v.latency.p95_ms),
            format!("{} / {}", v.tokens_in, v.tokens_out),
        ]);
    }
    format!(
        "<section id=\"summary\">\n<h2>Variants</h2>\n<p class=\"note\">Outcome: {}.</p>\n{}\n</section>\n",
        escape(&fmt::outcome_rule(&view.header.outcome)),
        t.html()
    )
}

/// Every chart the run has data for, in the page's order.
fn run_charts(view: &RunView, extras: &Extras<'_>) -> Vec<Chart> {
    let mut out = Vec::new();
    let variants: Vec<String> = view.per_variant.iter().map(|v| v.variant.clone()).collect();
    if variants.is_empty() {
        return out;
    }
    let policy = view.error_policy();
    // The baseline's value of a metric for a variant, when the command compared with one.
    let baseline = |variant: &str, metric: &str| -> Option<f64> {
        extras
            .baseline?
            .iter()
            .find(|d| d.b.variant == variant)?
            .metrics
            .iter()
            .find(|m| m.metric == metric)?
            .a
    };
    let has_baseline = extras.baseline.is_some_and(|b| !b.is_empty());

    out.push(
        Bars {
            id: "pass-rate".into(),
            title: "Pass rate per variant".into(),
            desc: "Share of samples that passed, with its Wilson 95% interval as whiskers.".into(),
            rows: variants.clone(),
            series: vec!["pass rate".into()],
            values: view
                .per_variant
                .iter()
                .map(|v| vec![v.rate.value()])
                .collect(),
            intervals: Some(
                view.per_variant
                    .iter()
                    .map(|v| vec![v.rate.ci95()])
                    .collect(),
            ),
            marks: has_baseline.then(|| {
                variants
                    .iter()
                    .map(|v| vec![baseline(v, "pass_rate")])
                    .collect()
            }),
            mark_name: "baseline".into(),
            axis: "pass rate".into(),
            min: 0.0,
            max: 1.0,
            percent: true,
            extra: vec![(
                "passed / counted".into(),
                view.per_variant
                    .iter()
                    .map(|v| vec![format!("{} / {}", v.rate.successes, v.rate.n)])
                    .collect(),
            )],
        }
        .chart(),
    );

    if !view.per_criterion.is_empty() {
        let rows: Vec<String> = view.per_criterion.iter().map(|c| c.key.clone()).collect();
        let counts = |f: &dyn Fn(&crate::view::StatusCounts) -> String| -> Vec<Vec<String>> {
            view.per_criterion
                .iter()
                .map(|c| {
                    variants
                        .iter()
                        .map(|v| {
                            c.per_variant
                                .iter()
                                .find(|(n, _)| n == v)
                                .map(|(_, k)| f(k))
                                .unwrap_or_default()
                        })
                        .collect()
                })
                .collect()
        };
        out.push(
            Bars {
                id: "criteria".into(),
                title: "Failures per criterion".into(),
                desc: "Share of judged samples that failed each criterion (scorer errors count \
                       as failures under the `fail` error policy), per variant."
                    .into(),
                rows,
                series: variants.clone(),
                values: view
                    .per_criterion
                    .iter()
                    .map(|c| {
                        variants
                            .iter()
                            .map(|v| {
                                let (_, k) = c.per_variant.iter().find(|(n, _)| n == v)?;
                                k.rate(policy).value().map(|r| 1.0 - r)
                            })
                            .collect()
                    })
                    .collect(),
                intervals: None,
                marks: None,
                mark_name: String::new(),
                axis: "failure share".into(),
                min: 0.0,
                max: 1.0,
                percent: true,
                extra: vec![
                    ("fail".into(), counts(&|k| k.fail.to_string())),
                    ("error".into(), counts(&|k| k.error.to_string())),
                    (
                        "not applicable".into(),
                        counts(&|k| k.not_applicable.to_string()),
                    ),
                    ("pass".into(), counts(&|k| k.pass.to_string())),
                ],
            }
            .chart(),
        );
    }

    if view.per_category.len() > 1 || view.per_category.iter().any(|c| c.category != NO_CATEGORY) {
        let rate_of = |c: &crate::view::CategorySummary, v: &str| {
            c.per_variant
                .iter()
                .find(|(n, _)| n == v)
                .map(|(_, k)| k.rate(policy))
        };
        out.push(
            Bars {
                id: "categories".into(),
                title: "Pass rate per category".into(),
                desc: "Share of samples that passed in each task category, per variant, with \
                       Wilson 95% intervals."
                    .into(),
                rows: view
                    .per_category
                    .iter()
                    .map(|c| c.category.clone())
                    .collect(),
                series: variants.clone(),
                values: view
                    .per_category
                    .iter()
                    .map(|c| variants.iter().map(|v| rate_of(c, v)?.value()).collect())
                    .collect(),
                intervals: Some(
                    view.per_category
                        .iter()
                        .map(|c| variants.iter().map(|v| rate_of(c, v)?.ci95()).collect())
                        .collect(),
                ),
                marks: has_baseline.then(|| {
                    view.per_category
                        .iter()
                        .map(|c| {
                            variants
                                .iter()
                                .map(|v| baseline(v, &format!("category:{}", c.category)))
                                .collect()
                        })
                        .collect()
                }),
                mark_name: "baseline".into(),
                axis: "pass rate".into(),
                min: 0.0,
                max: 1.0,
                percent: true,
                extra: vec![(
                    "passed / counted".into(),
                    view.per_category
                        .iter()
                        .map(|c| {
                            variants
                                .iter()
                                .map(|v| {
                                    rate_of(c, v)
                                        .map(|r| format!("{} / {}", r.successes, r.n))
                                        .unwrap_or_default()
                                })
                                .collect()
                        })
                        .collect(),
                )],
            }
            .chart(),
        );
    }

    // Per-sample latencies and token counts, by variant.
    let mut latency: Vec<Vec<f64>> = vec![Vec::new(); variants.len()];
    let mut tokens: Vec<Vec<f64>> = vec![Vec::new(); variants.len()];
    for t in &view.tasks {
        for tv in &t.variants {
            let Some(i) = variants.iter().position(|v| v == &tv.variant) else {
                continue;
            };
            for s in &tv.epochs {
                latency[i].push(s.response.latency_ms as f64);
                if s.outcome != Outcome::Error || s.response.usage.output_tokens > 0 {
                    tokens[i].push(s.response.usage.output_tokens as f64);
                }
            }
        }
    }
    out.push(
        Histogram {
            id: "latency".into(),
            title: "Latency per sample".into(),
            desc: "How many samples took how long (milliseconds, cache hits included), per \
                   variant."
                .into(),
            series: variants.clone(),
            values: latency,
            axis: "latency".into(),
            unit: " ms".into(),
            bins: 20,
        }
        .chart(),
    );
    out.push(
        Histogram {
            id: "tokens".into(),
            title: "Output tokens per sample".into(),
            desc: "How many samples produced how many output tokens, per variant.".into(),
            series: variants.clone(),
            values: tokens,
            axis: "output tokens".into(),
            unit: String::new(),
            bins: 20,
        }
        .chart(),
    );

    for (n, p) in view.prf.iter().enumerate() {
        type Read = fn(&crate::view::PrfCounts) -> Option<f64>;
        let metrics: [(&str, Read); 3] = [
            ("precision", |k| k.micro.map(|m| m.precision)),
            ("recall", |k| k.micro.map(|m| m.recall)),
            ("F1", |k| k.micro.map(|m| m.f1)),
        ];
        let mut rows = Vec::new();
        let mut values = Vec::new();
        let mut marks = Vec::new();
        let mut counts = Vec::new();
        let single = view.prf.len() == 1;
        let mut push = |label: &str, per: &[(String, crate::view::PrfCounts)], all: bool| {
            for (m, f) in &metrics {
                rows.push(format!("{label} · {m}"));
                values.push(
                    variants
                        .iter()
                        .map(|v| per.iter().find(|(n, _)| n == v).and_then(|(_, k)| f(k)))
                        .collect::<Vec<_>>(),
                );
                marks.push(
                    variants
                        .iter()
                        .map(|v| {
                            if !all {
                                return None;
                            }
                            let name = m.to_lowercase();
                            baseline(v, &format!("{name}:{}", p.key))
                                .or_else(|| single.then(|| baseline(v, &name)).flatten())
                        })
                        .collect::<Vec<_>>(),
                );
                counts.push(
                    variants
                        .iter()
                        .map(|v| {
                            per.iter()
                                .find(|(n, _)| n == v)
                                .map(|(_, k)| {
                                    format!(
                                        "tp {} · fp {} · fn {} ({} samples)",
                                        fmt::count(k.tp),
                                        fmt::count(k.fp),
                                        fmt::count(k.fn_),
                                        k.samples
                                    )
                                })
                                .unwrap_or_default()
                        })
                        .collect::<Vec<_>>(),
                );
            }
        };
        push("all", &p.per_variant, true);
        for (cat, per) in &p.per_category {
            push(cat, per, false);
        }
        out.push(
            Bars {
                id: format!("prf-{n}"),
                title: format!("Precision, recall and F1 · {}", p.key),
                desc: format!(
                    "Micro precision, recall and F1 of `{}` over all tasks and per category, per \
                     variant{}.",
                    p.key,
                    if has_baseline {
                        "; the tick is the baseline's value"
                    } else {
                        ""
                    }
                ),
                rows,
                series: variants.clone(),
                values,
                intervals: None,
                marks: has_baseline.then_some(marks),
                mark_name: "baseline".into(),
                axis: "value".into(),
                min: 0.0,
                max: 1.0,
                percent: true,
                extra: vec![("counts".into(), counts)],
            }
            .chart(),
        );
    }

    if !view.determinism.is_empty() {
        // The weakest tasks first (the lower of validity and similarity under any variant);
        // a long run draws the 40 weakest.
        let mut weakest: HashMap<&str, f64> = HashMap::new();
        let mut tasks: Vec<&str> = Vec::new();
        for d in &view.determinism {
            for t in &d.tasks {
                let w = t.similarity.unwrap_or(1.0).min(t.validity());
                match weakest.get_mut(t.task.as_str()) {
                    Some(x) => *x = x.min(w),
                    None => {
                        weakest.insert(&t.task, w);
                        tasks.push(&t.task);
                    }
                }
            }
        }
        tasks.sort_by(|a, b| weakest[a].total_cmp(&weakest[b]));
        let shown = tasks.len().min(40);
        let series: Vec<String> = view
            .determinism
            .iter()
            .flat_map(|d| {
                [
                    format!("{} · validity", d.variant),
                    format!("{} · similarity", d.variant),
                ]
            })
            .collect();
        let cell = |task: &str| -> Vec<Option<&crate::view::DriftTask>> {
            view.determinism
                .iter()
                .map(|d| d.tasks.iter().find(|t| t.task == task))
                .collect()
        };
        out.push(
            Bars {
                id: "determinism".into(),
                title: "Determinism per fixture".into(),
                desc: format!(
                    "Validity (share of epochs that answered and passed their own criteria) and \
                     similarity (the weakest resource and pair of epochs) per task and variant{}.",
                    if shown < tasks.len() {
                        format!("; the {shown} weakest of {} tasks", tasks.len())
                    } else {
                        String::new()
                    }
                ),
                rows: tasks[..shown].iter().map(|t| t.to_string()).collect(),
                series,
                values: tasks[..shown]
                    .iter()
                    .map(|t| {
                        cell(t)
                            .into_iter()
                            .flat_map(|r| [r.map(|r| r.validity()), r.and_then(|r| r.similarity)])
                            .collect()
                    })
                    .collect(),
                intervals: None,
                marks: None,
                mark_name: String::new(),
                axis: "share".into(),
                min: 0.0,
                max: 1.0,
                percent: true,
                extra: vec![(
                    "weakest resource / epochs".into(),
                    tasks[..shown]
                        .iter()
                        .map(|t| {
                            cell(t)
                                .into_iter()
                                .flat_map(|r| {
                                    let note = r
                                        .and_then(|r| r.similarity_note.clone())
                                        .unwrap_or_default();
                                    let valid = r
                                        .map(|r| {
                                            format!(
                                                "{} of {} epochs valid, {} errored",
                                                r.valid, r.epochs, r.errors
                                            )
                                        })
                                        .unwrap_or_default();
                                    [valid, note]
                                })
                                .collect()
                        })
                        .collect(),
                )],
            }
            .chart(),
        );
    }

    if !view.citations.is_empty() {
        let targets = crate::view::CitationVariant::TARGETS;
        out.push(
            Bars {
                id: "citations".into(),
                title: "Citation verification against the targets".into(),
                desc: "The four verification metrics per variant; the tick is the target (above \
                       it for accuracy and consistency, below it for hallucinations)."
                    .into(),
                rows: targets.iter().map(|t| t.label.to_string()).collect(),
                series: view.citations.iter().map(|c| c.variant.clone()).collect(),
                values: targets
                    .iter()
                    .map(|t| view.citations.iter().map(|c| t.value(c)).collect())
                    .collect(),
                intervals: None,
                marks: Some(
                    targets
                        .iter()
                        .map(|t| view.citations.iter().map(|_| Some(t.bound)).collect())
                        .collect(),
                ),
                mark_name: "target".into(),
                axis: "share".into(),
                min: 0.0,
                max: 1.0,
                percent: true,
                extra: vec![(
                    "met (count)".into(),
                    targets
                        .iter()
                        .enumerate()
                        .map(|(i, t)| {
                            view.citations
                                .iter()
                                .map(|c| {
                                    let (num, den) = c.counts()[i];
                                    let met = match t.met(t.value(c)) {
                                        Some(true) => "met",
                                        Some(false) => "not met",
                                        None => "unmeasured",
                                    };
                                    format!("{met} {} ({num} / {den})", t.show())
                                })
                                .collect()
                        })
                        .collect(),
                )],
            }
            .chart(),
        );
    }
    out
}

/// The 2×2 table of a comparison and McNemar's result in words.
fn comparison_html(c: &Comparison) -> String {
    let [[a, b], [cc, d]] = c.contingency;
    let mut out = format!(
        "<article class=\"comparison\">\n<h3>{t} vs {k}</h3>\n",
        t = escape(&c.treatment),
        k = escape(&c.control)
    );
    out.push_str(&contingency_table(
        &c.control,
        &c.treatment,
        [[a, b], [cc, d]],
    ));
    let mut words = format!(
        "Of {} paired tasks, {a} passed with both and {d} failed with both; {cc} passed only \
         with {} and {b} only with {}.",
        c.n_pairs(),
        c.treatment,
        c.control
    );
    match (&c.mcnemar, c.quoted) {
        (Some(_), Some((p, method))) => {
            let _ = write!(
                words,
                " McNemar's test ({}, {}): p = {}. ",
                c.alternative,
                match method {
                    verity_stats::PMethod::Exact => "exact binomial",
                    verity_stats::PMethod::ChiSquare => "chi-square with continuity correction",
                },
                fmt::num(p)
            );
            words.push_str(&significance(p, cc, b, &c.treatment, &c.control));
        }
        _ => words.push_str(" No McNemar test was computed."),
    }
    let _ = writeln!(out, "<p class=\"words\">{}</p>", escape(&words));
    for n in &c.notes {
        let _ = write!(out, "<p class=\"note\">{}</p>", escape(n));
    }
    if !c.unpaired.is_empty() {
        let _ = write!(
            out,
            "<p class=\"note\">Unpaired tasks: {}</p>",
            escape(&c.unpaired.join(", "))
        );
    }
    out.push_str("</article>\n");
    out
}

/// A p-value in words at the 5% level: who did better, or that the difference may be chance.
fn significance(
    p: f64,
    treatment_only: u64,
    control_only: u64,
    treatment: &str,
    control: &str,
) -> String {
    if p < 0.05 {
        let (better, worse) = if treatment_only >= control_only {
            (treatment, control)
        } else {
            (control, treatment)
        };
        format!(
            "Significant at the 5% level: {better} passes more tasks than {worse}, beyond what \
             chance would explain."
        )
    } else {
        "Not significant at the 5% level: the difference may be chance.".to_owned()
    }
}

/// Rows: the control (A) pass / fail; columns: the treatment (B) pass / fail.
fn contingency_table(rows: &str, cols: &str, m: [[u64; 2]; 2]) -> String {
    format!(
        "<table class=\"contingency\"><caption>Paired tasks: rows {r}, columns {c}</caption>\
         <thead><tr><td></td><th scope=\"col\">{c} pass</th><th scope=\"col\">{c} fail</th></tr>\
         </thead><tbody><tr><th scope=\"row\">{r} pass</th><td>{}</td><td class=\"disc\">{}</td>\
         </tr><tr><th scope=\"row\">{r} fail</th><td class=\"disc\">{}</td><td>{}</td></tr>\
         </tbody></table>\n",
        m[0][0],
        m[0][1],
        m[1][0],
        m[1][1],
        r = escape(rows),
        c = escape(cols),
    )
}

fn diff_contingency(d: &Value, a: &str, b: &str) -> String {
    let cell = |i: usize, j: usize| d["contingency"][i][j].as_u64().unwrap_or(0);
    let m = [[cell(0, 0), cell(0, 1)], [cell(1, 0), cell(1, 1)]];
    let mut out = format!(
        "<article class=\"comparison\">\n<h3>B {} vs A {}</h3>\n",
        escape(b),
        escape(a)
    );
    out.push_str(&contingency_table(&format!("A {a}"), &format!("B {b}"), m));
    let n: u64 = m.iter().flatten().sum();
    let mut words = format!(
        "Of {n} tasks both sides ran, {} passed on both and {} failed on both; {} passed only on \
         B and {} only on A.",
        m[0][0], m[1][1], m[1][0], m[0][1]
    );
    if let Some(p) = d["p_value"].as_f64() {
        let method = match d["p_method"].as_str() {
            Some("exact") => "exact binomial",
            Some("chi2") => "chi-square with continuity correction",
            Some(other) => other,
            None => "?",
        };
        let _ = write!(
            words,
            " McNemar's test (two-sided, {method}): p = {}. ",
            fmt::num(p)
        );
        words.push_str(&significance(p, m[1][0], m[0][1], "B", "A"));
    }
    let _ = write!(
        out,
        "<p class=\"words\">{}</p>\n</article>\n",
        escape(&words)
    );
    out
}

/// The comparison's charts: each side's pass rate with its interval, and every metric's
/// change with its noise.
fn diff_charts(diffs: &[Value], side: &dyn Fn(&Value, &str) -> String) -> Vec<Chart> {
    let mut out = Vec::new();
    let mut rows = Vec::new();
    let mut values = Vec::new();
    let mut intervals = Vec::new();
    let mut counted = Vec::new();
    for d in diffs {
        for (s, r) in [("a", "rate_a"), ("b", "rate_b")] {
            rows.push(format!("{} {}", s.to_uppercase(), side(d, s)));
            values.push(vec![d[r]["value"].as_f64()]);
            intervals.push(vec![
                d[r]["ci95"]
                    .as_array()
                    .and_then(|a| Some((a.first()?.as_f64()?, a.get(1)?.as_f64()?))),
            ]);
            counted.push(vec![format!("{} / {}", d[r]["successes"], d[r]["n"])]);
        }
    }
    out.push(
        Bars {
            id: "pass-rate".into(),
            title: "Pass rate, A and B".into(),
            desc: "Each side's pass rate over its tasks, with its Wilson 95% interval.".into(),
            rows,
            series: vec!["pass rate".into()],
            values,
            intervals: Some(intervals),
            marks: None,
            mark_name: String::new(),
            axis: "pass rate".into(),
            min: 0.0,
            max: 1.0,
            percent: true,
            extra: vec![("passed / counted".into(), counted)],
        }
        .chart(),
    );
    // Shares only (rates, P/R/F1, group and citation metrics): latencies have another scale.
    let mut rows = Vec::new();
    let mut values = Vec::new();
    let mut intervals = Vec::new();
    let mut ab = Vec::new();
    let mut beyond = Vec::new();
    for d in diffs {
        let prefix = if diffs.len() > 1 {
            format!("{} · ", str_at(d, &["b", "variant"]))
        } else {
            String::new()
        };
        for m in d["metrics"].as_array().into_iter().flatten() {
            let name = m["metric"].as_str().unwrap_or_default();
            let share = |v: &Value| v.as_f64().is_none_or(|x| (0.0..=1.0).contains(&x));
            if name.starts_with("latency") || !share(&m["a"]) || !share(&m["b"]) {
                continue;
            }
            let Some(delta) = m["delta"].as_f64() else {
                continue;
            };
            let noise = m["noise"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|n| n["half_width"].as_f64())
                .fold(None, |acc: Option<f64>, x| {
                    Some(acc.map_or(x, |a| a.max(x)))
                });
            rows.push(format!("{prefix}{name}"));
            values.push(vec![Some(delta)]);
            intervals.push(vec![noise.map(|h| (-h, h))]);
            let show = |v: &Value| v.as_f64().map(fmt::pct).unwrap_or_else(|| "—".into());
            ab.push(vec![format!("{} → {}", show(&m["a"]), show(&m["b"]))]);
            beyond.push(vec![match m["beyond_noise"].as_bool() {
                Some(true) => "beyond noise".to_owned(),
                Some(false) => "within noise".to_owned(),
                None => "no estimate".to_owned(),
            }]);
        }
    }
    if !rows.is_empty() {
        out.push(
            Bars {
                id: "metric-changes".into(),
                title: "Metric changes, B − A".into(),
                desc: "Each metric's change from A to B; the whiskers around zero span the \
                       largest run-to-run noise estimate, so a bar that ends outside them moved \
                       beyond noise."
                    .into(),
                rows,
                series: vec!["change".into()],
                values,
                intervals: Some(intervals),
                marks: None,
                mark_name: String::new(),
                axis: "change (B − A)".into(),
                min: -1.0,
                max: 1.0,
                percent: true,
                extra: vec![("A → B".into(), ab), ("noise".into(), beyond)],
            }
            .chart(),
        );
    }
    out
}

/// The string at a path of keys, or empty.
fn str_at(v: &Value, path: &[&str]) -> String {
    let mut cur = v;
    for k in path {
        cur = &cur[*k];
    }
    match cur {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// JSON safe inside a `<script>` element: `<`, `>` and `&` as `\u` escapes (so no `</script>`
/// or `<!--` can end or change the element), and U+2028 / U+2029 escaped too.
pub fn embed_json(data: &Value) -> String {
    let text = serde_json::to_string(data).unwrap_or_else(|_| "null".into());
    let mut out = String::with_capacity(text.len() + 64);
    for c in text.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

/// Text safe in HTML element content and attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_json_cannot_close_its_script_element() {
        let v = serde_json::json!({"answer": "</script><script>alert(1)</script> & <!--"});
        let s = embed_json(&v);
        assert!(!s.contains('<') && !s.contains('>'), "{s}");
        let back: Value = serde_json::from_str(&s).unwrap();
        assert_eq!(back, v);
    }

    #[test]
    fn the_page_loads_nothing_from_outside() {
        let p = page("t <x>", "run", "", &serde_json::json!({"a": 1}));
        assert!(p.contains("default-src 'none'"));
        assert!(p.contains("<title>t &lt;x&gt;</title>"));
        assert!(!p.contains("src=\"http") && !p.contains("href=\"http"));
        assert!(!p.contains("<script src") && !p.contains("<link"));
    }

    #[test]
    fn significance_in_words() {
        let s = significance(0.01, 9, 1, "grounded", "alone");
        assert!(s.starts_with("Significant"), "{s}");
        assert!(s.contains("grounded passes more tasks than alone"), "{s}");
        let s = significance(0.01, 1, 9, "grounded", "alone");
        assert!(s.contains("alone passes more tasks than grounded"), "{s}");
        assert!(significance(0.2, 3, 1, "a", "b").starts_with("Not significant"));
    }

    #[test]
    fn a_comparison_page_from_its_json() {
        let data = serde_json::json!({"comparisons": [{
            "a": {"run_id": "aaaaaaaaaaaa", "variant": "v", "model": "m", "suite_name": "s",
                  "date": "d", "status": "completed", "tasks": 3, "epochs": 1},
            "b": {"run_id": "bbbbbbbbbbbb", "variant": "v", "model": "m", "suite_name": "s",
                  "date": "d", "status": "completed", "tasks": 3, "epochs": 1},
            "warnings": ["prompts differ"],
            "rate_a": {"successes": 2, "n": 3, "value": 0.667, "ci95": [0.2, 0.94]},
            "rate_b": {"successes": 1, "n": 3, "value": 0.333, "ci95": [0.06, 0.8]},
            "contingency": [[1, 1], [0, 1]],
            "p_value": 1.0, "p_method": "exact",
            "metrics": [{"metric": "pass_rate", "a": 0.667, "b": 0.333, "delta": -0.333,
                         "noise": [{"half_width": 0.1, "method": "bootstrap"}],
                         "beyond_noise": true, "comparable": true, "higher_is_better": true},
                        {"metric": "latency_p50_ms", "a": 10.0, "b": 12.0, "delta": 2.0,
                         "noise": [], "beyond_noise": null, "comparable": true,
                         "higher_is_better": false}],
            "flips": [{"task_id": "t<1>", "variant": "v", "kind": "regression",
                       "category": null, "a_reason": null, "b_reason": "compile failed",
                       "rationale": null, "flaky": false}]
        }], "gates": {"verdict": "regression", "gates": [{"gate": "pass_rate", "variant": "v",
            "status": "fail", "value": 0.333, "note": ""}], "notes": []}});
        let p = render_diff_html(&data);
        for id in [
            "run-header",
            "verdict",
            "summary",
            "chart-pass-rate",
            "chart-metric-changes",
            "comparisons",
            "tasks",
            "task-table",
            "task-detail",
            "verity-data",
        ] {
            assert!(p.contains(&format!("id=\"{id}\"")), "no #{id}");
        }
        assert!(p.contains("data-page=\"compare\""));
        assert!(p.contains("⚠ prompts differ"));
        assert!(p.contains("REGRESSION"));
        assert!(
            p.contains("passed only on B and 1 only on A"),
            "the 2×2 in words"
        );
        assert!(
            !p.contains("latency_p50_ms</th>"),
            "latencies are not drawn on a share axis"
        );
        // A flipped task's id reaches the page only through the escaped JSON.
        assert!(!p.contains("t<1>"));
        // An empty document still renders.
        let e = render_diff_html(&serde_json::json!({}));
        assert!(e.contains("id=\"task-table\""));
    }
}
