//! verity-report over a run built in code (see `fixture.rs` for its shape and the expected
//! per-task outcomes). The counts below were worked out by hand from the fixture.

mod ci;
mod fixture;
mod html;
mod verdict;

use fixture::{GROUNDED, UNGROUNDED, groups, meta, samples};
use verity_model::{
    CompareSpec, ErrorPolicy, Outcome, RunStatus, SampleKey, SampleRecord, Score, ScoreStatus,
};
use verity_report::{
    JSON_SCHEMA_VERSION, NO_CATEGORY, OutcomeCounts, Rate, RunView, StatusCounts, TableOptions,
    TaskOutcome, Winner, render_markdown, render_table, to_json,
};
use verity_stats::{PMethod, WILSON_Z95, mcnemar, wilson};

fn view() -> RunView {
    RunView::new(&meta(), &samples(), &groups())
}

fn view_with(policy: ErrorPolicy) -> RunView {
    let mut m = meta();
    m.suite.outcome.errors = policy;
    RunView::new(&m, &samples(), &groups())
}

fn plain(width: usize, max_failures: usize) -> TableOptions {
    TableOptions {
        color: false,
        width,
        max_failures,
        costs: Vec::new(),
    }
}

#[test]
fn per_variant_counts_and_wilson_bounds() {
    let v = view();
    let names: Vec<&str> = v.per_variant.iter().map(|s| s.variant.as_str()).collect();
    assert_eq!(names, [UNGROUNDED, GROUNDED]);
    let u = &v.per_variant[0];
    assert_eq!(
        u.counts,
        OutcomeCounts {
            pass: 3,
            fail: 4,
            error: 1
        }
    );
    assert_eq!((u.samples, u.expected), (8, 8));
    assert_eq!(u.rate, Rate { successes: 3, n: 8 });
    assert_eq!(u.rate.ci95(), Some(wilson(3, 8, WILSON_Z95)));
    // Wilson 95 % for 3/8, from statsmodels' proportion_confint(3, 8, method="wilson").
    let (lo, hi) = u.rate.ci95().unwrap();
    assert!((lo - 0.136_844_285_823_597_37).abs() < 1e-12, "{lo}");
    assert!((hi - 0.694_257_605_397_372_8).abs() < 1e-12, "{hi}");
    assert_eq!(u.latency.mean_ms, Some(4112.5));
    assert_eq!(
        (u.latency.p50_ms, u.latency.p95_ms),
        (Some(400), Some(30_000))
    );
    assert_eq!((u.tokens_in, u.tokens_out, u.cache_hits), (843, 560, 1));
    let g = &v.per_variant[1];
    assert_eq!(
        g.counts,
        OutcomeCounts {
            pass: 5,
            fail: 3,
            error: 0
        }
    );
    assert_eq!(g.rate, Rate { successes: 5, n: 8 });
    assert_eq!(g.latency.mean_ms, Some(912.5));
    assert_eq!(
        (g.latency.p50_ms, g.latency.p95_ms),
        (Some(850), Some(1200))
    );
    assert_eq!((g.tokens_in, g.tokens_out, g.cache_hits), (964, 640, 1));
}

#[test]
fn error_policy_exclude_leaves_errors_out_of_rates_and_pairs() {
    let v = view_with(ErrorPolicy::Exclude);
    let u = &v.per_variant[0];
    assert_eq!(u.counts.error, 1, "errors are still counted apart");
    assert_eq!(u.rate, Rate { successes: 3, n: 7 });
    let c = &v.comparisons[0];
    assert_eq!(c.contingency, [[1, 1], [1, 1]]);
    let date = v.task("date-format").unwrap();
    assert_eq!(date.variant(UNGROUNDED).unwrap().outcome, TaskOutcome::Pass);
    // Under `fail` the same errored epoch fails the task.
    let v = view_with(ErrorPolicy::Fail);
    let date = v.task("date-format").unwrap();
    assert_eq!(date.variant(UNGROUNDED).unwrap().outcome, TaskOutcome::Fail);
    assert_eq!(v.per_variant[0].rate, Rate { successes: 3, n: 8 });
}

#[test]
fn a_task_whose_every_epoch_errored_is_unpaired_under_exclude() {
    let mut m = meta();
    m.suite.outcome.errors = ErrorPolicy::Exclude;
    let mut s = samples();
    for r in s
        .iter_mut()
        .filter(|r| r.key.task_id == "misc" && r.key.variant == GROUNDED)
    {
        r.outcome = Outcome::Error;
    }
    let v = RunView::new(&m, &s, &[]);
    assert_eq!(
        v.task("misc").unwrap().variant(GROUNDED).unwrap().outcome,
        TaskOutcome::Excluded
    );
    let c = &v.comparisons[0];
    assert_eq!(c.unpaired, ["misc"]);
    assert_eq!(c.contingency, [[1, 1], [1, 0]]);
}

#[test]
fn contingency_mcnemar_and_discordant_tasks() {
    let v = view();
    assert_eq!(v.comparisons.len(), 1);
    let c = &v.comparisons[0];
    assert_eq!(
        (c.treatment.as_str(), c.control.as_str()),
        (GROUNDED, UNGROUNDED)
    );
    assert!(c.declared);
    // Rows: control pass / fail; columns: treatment pass / fail.
    assert_eq!(c.contingency, [[0, 1], [2, 1]]);
    assert_eq!(c.n_pairs(), 4);
    assert!(c.unpaired.is_empty());
    let m = c.mcnemar.unwrap();
    assert_eq!(m, mcnemar(1, 2));
    // P(X ≥ 2) for X ~ Binomial(3, 1/2) = 4/8.
    let (p, method) = c.quoted.unwrap();
    assert!((p - 0.5).abs() < 1e-15 && method == PMethod::Exact, "{p}");
    let d: Vec<(&str, Winner, &str, u32)> = c
        .discordant
        .iter()
        .map(|d| {
            (
                d.task_id.as_str(),
                d.winner,
                d.failing_variant.as_str(),
                d.failing_epoch,
            )
        })
        .collect();
    assert_eq!(
        d,
        [
            ("swiftui-list", Winner::Control, GROUNDED, 1),
            ("url-fetch", Winner::Treatment, UNGROUNDED, 0),
            ("date-format", Winner::Treatment, UNGROUNDED, 1),
        ]
    );
    assert_eq!(
        c.discordant[0].failing_criteria,
        ["no_deprecated", "identical"]
    );
    assert_eq!(
        c.discordant[0].reason,
        "no_deprecated, identical: uses a deprecated API (at 1:20)"
    );
    assert_eq!(
        c.discordant[1].reason,
        "symbols_exist, identical: 1 unknown symbol (at 3:9)"
    );
    assert_eq!(
        c.discordant[2].reason,
        "error timeout: no response within 10s (3 attempts)"
    );
    assert!(c.discordant[2].failing_criteria.is_empty());
}

#[test]
fn implicit_comparison_and_unsupported_tests() {
    let mut m = meta();
    m.suite.compare.clear();
    let v = RunView::new(&m, &samples(), &[]);
    let c = &v.comparisons[0];
    assert!(!c.declared);
    assert_eq!(
        (
            c.treatment.as_str(),
            c.control.as_str(),
            c.alternative.as_str()
        ),
        (GROUNDED, UNGROUNDED, "two-sided")
    );
    assert_eq!(
        c.quoted,
        Some((mcnemar(1, 2).p_exact_two_sided, PMethod::Exact))
    );

    m.suite.compare = vec![CompareSpec {
        test: "sign".into(),
        pair: [GROUNDED.into(), "absent".into()],
        alternative: "sideways".into(),
    }];
    let v = RunView::new(&m, &samples(), &[]);
    let c = &v.comparisons[0];
    assert!(c.mcnemar.is_none() && c.quoted.is_none());
    assert_eq!(c.n_pairs(), 0);
    assert_eq!(c.unpaired.len(), 4);
    assert_eq!(c.notes.len(), 3, "{:?}", c.notes);
    assert!(
        v.notes
            .iter()
            .any(|n| n.contains("`absent` is not part of this run"))
    );
    assert!(
        v.notes
            .iter()
            .any(|n| n.contains("unknown alternative `sideways`"))
    );
    assert!(
        v.notes
            .iter()
            .any(|n| n.contains("test `sign` is not implemented"))
    );
}

#[test]
fn per_criterion_counts_keep_not_applicable_apart() {
    let v = view();
    let keys: Vec<&str> = v.per_criterion.iter().map(|c| c.key.as_str()).collect();
    assert_eq!(keys, ["parse", "symbols_exist", "no_deprecated", "claims"]);
    let get = |k: &str, i: usize| {
        v.per_criterion
            .iter()
            .find(|c| c.key == k)
            .unwrap()
            .per_variant[i]
            .1
    };
    let sc = |pass, fail, not_applicable| StatusCounts {
        pass,
        fail,
        not_applicable,
        error: 0,
    };
    assert_eq!(get("parse", 0), sc(5, 2, 0));
    assert_eq!(get("parse", 1), sc(6, 2, 0));
    assert_eq!(get("symbols_exist", 0), sc(3, 2, 2));
    assert_eq!(get("symbols_exist", 1), sc(6, 0, 2));
    assert_eq!(get("no_deprecated", 0), sc(5, 0, 2));
    assert_eq!(get("no_deprecated", 1), sc(5, 1, 2));
    assert_eq!(get("claims", 0), sc(5, 2, 0));
    assert_eq!(get("claims", 1), sc(8, 0, 0));
    assert_eq!(
        get("symbols_exist", 0).rate(ErrorPolicy::Fail),
        Rate { successes: 3, n: 5 }
    );
    assert!(
        v.per_criterion
            .iter()
            .find(|c| c.key == "parse")
            .unwrap()
            .in_outcome
    );
    assert!(
        !v.per_criterion
            .iter()
            .find(|c| c.key == "claims")
            .unwrap()
            .in_outcome
    );
}

#[test]
fn categories_bucket_tasks_without_one() {
    let v = view();
    let cats: Vec<(&str, u64)> = v
        .per_category
        .iter()
        .map(|c| (c.category.as_str(), c.tasks))
        .collect();
    assert_eq!(cats, [("Foundation", 2), ("SwiftUI", 1), (NO_CATEGORY, 1)]);
    let f = &v.per_category[0];
    assert_eq!(
        f.per_variant[0].1,
        OutcomeCounts {
            pass: 1,
            fail: 2,
            error: 1
        }
    );
    assert_eq!(
        f.per_variant[1].1,
        OutcomeCounts {
            pass: 4,
            fail: 0,
            error: 0
        }
    );
    assert_eq!(
        v.per_category[1].per_variant[1].1,
        OutcomeCounts {
            pass: 1,
            fail: 1,
            error: 0
        }
    );
    assert_eq!(
        v.per_category[2].per_variant[0].1.rate(ErrorPolicy::Fail),
        Rate { successes: 0, n: 2 }
    );
}

#[test]
fn precision_recall_f1_micro_and_macro() {
    let v = view();
    assert_eq!(v.prf.len(), 1);
    let p = &v.prf[0];
    assert_eq!(p.key, "claims");
    let u = p.per_variant[0].1;
    assert_eq!((u.samples, u.tp, u.fp, u.fn_), (7, 6.0, 4.0, 5.0));
    let m = u.micro.unwrap();
    assert!((m.precision - 0.6).abs() < 1e-15);
    assert!((m.recall - 6.0 / 11.0).abs() < 1e-15);
    assert!((m.f1 - 4.0 / 7.0).abs() < 1e-15);
    assert!((u.macro_f1.unwrap() - 17.0 / 30.0).abs() < 1e-12);
    let g = p.per_variant[1].1;
    assert_eq!((g.samples, g.tp, g.fp, g.fn_), (8, 12.0, 2.0, 1.0));
    assert!((g.micro.unwrap().f1 - 8.0 / 9.0).abs() < 1e-15);
    assert!((g.macro_f1.unwrap() - 107.0 / 120.0).abs() < 1e-12);
}

#[test]
fn group_scores_are_summarised() {
    let v = view();
    assert_eq!(v.groups.len(), 1);
    let g = &v.groups[0];
    assert_eq!(
        (g.scope.as_str(), g.scorer.as_str(), g.criterion.as_str()),
        ("epochs", "determinism", "identical")
    );
    let u = g.per_variant[0].1;
    assert_eq!(u.groups, 4);
    assert_eq!(
        u.status,
        StatusCounts {
            pass: 2,
            fail: 1,
            not_applicable: 1,
            error: 0
        }
    );
    assert!((u.mean_value.unwrap() - 2.5 / 3.0).abs() < 1e-15);
    let gr = g.per_variant[1].1;
    assert_eq!(
        gr.status,
        StatusCounts {
            pass: 3,
            fail: 1,
            not_applicable: 0,
            error: 0
        }
    );
    assert!((gr.mean_value.unwrap() - 0.95).abs() < 1e-15);
    let failing: Vec<(&str, &str)> = v
        .group_failures
        .iter()
        .map(|f| (f.variant.as_str(), f.group.as_str()))
        .collect();
    assert_eq!(
        failing,
        [(UNGROUNDED, "url-fetch"), (GROUNDED, "swiftui-list")]
    );
}

#[test]
fn failures_are_listed_in_task_variant_epoch_order() {
    let v = view();
    let keys: Vec<String> = v.failures.iter().map(|f| f.key.to_string()).collect();
    assert_eq!(
        keys,
        [
            "swiftui-list [grounded] #1",
            "url-fetch [ungrounded] #0",
            "url-fetch [ungrounded] #1",
            "date-format [ungrounded] #1",
            "misc [ungrounded] #0",
            "misc [ungrounded] #1",
            "misc [grounded] #0",
            "misc [grounded] #1",
        ]
    );
    let timeout = &v.failures[3];
    assert_eq!(timeout.outcome, Outcome::Error);
    assert_eq!(timeout.error.as_ref().unwrap().kind, "timeout");
    let misc: Vec<&str> = v.failures[4]
        .criteria
        .iter()
        .map(|c| c.key.as_str())
        .collect();
    assert_eq!(misc, ["parse", "claims"]);
}

#[test]
fn table_caps_failures_and_cuts_long_lines() {
    let v = view();
    let t = render_table(&v, &plain(60, 2));
    assert!(t.contains("… and 6 more failing samples"), "{t}");
    // Free-text lines (discordant reasons, failure details) are cut; tables are not.
    let free: Vec<&str> = t
        .lines()
        .filter(|l| {
            l.starts_with("    + ")
                || l.starts_with("    - ")
                || ["no_deprecated fail", "symbols_exist fail", "error timeout"]
                    .iter()
                    .any(|p| l.starts_with(&format!("      {p}")))
        })
        .collect();
    assert!(free.len() >= 4, "{t}");
    assert!(free.iter().all(|l| l.chars().count() <= 60), "{free:#?}");
    assert!(free.iter().any(|l| l.ends_with('…')));
    let all = render_table(&v, &plain(0, usize::MAX));
    assert!(!all.contains("more failing samples"));
    assert!(all.contains("misc [grounded] #1"));
}

#[test]
fn color_only_adds_escapes() {
    let v = view();
    let colored = render_table(
        &v,
        &TableOptions {
            color: true,
            ..plain(100, 3)
        },
    );
    assert!(colored.contains("\x1b[31m"), "failures are red");
    assert!(colored.contains("\x1b[32m"), "passes are green");
    let stripped = strip_ansi(&colored);
    // Padding is computed on the visible text, so stripping the escapes gives the plain table
    // (up to trailing spaces the plain renderer trims).
    let plain_lines: Vec<String> = render_table(&v, &plain(100, 3))
        .lines()
        .map(|l| l.trim_end().to_owned())
        .collect();
    let stripped_lines: Vec<String> = stripped.lines().map(|l| l.trim_end().to_owned()).collect();
    assert_eq!(stripped_lines, plain_lines);
    assert!(!render_table(&v, &plain(100, 3)).contains('\x1b'));
}

fn strip_ansi(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            for c in chars.by_ref() {
                if c == 'm' {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[test]
fn json_matches_the_view() {
    let v = view();
    let j = to_json(&v);
    assert_eq!(j["schema_version"], JSON_SCHEMA_VERSION);
    assert_eq!(j["harness"], "verity");
    assert_eq!(j["n_tasks"], 4);
    let c = &j["aggregate"]["comparisons"][0];
    assert_eq!(c["contingency"], serde_json::json!([[0, 1], [2, 1]]));
    assert!((c["p_quoted"].as_f64().unwrap() - 0.5).abs() < 1e-15);
    assert_eq!(c["mcnemar_p_exact_one_sided"], c["p_quoted"]);
    assert_eq!(c["p_method"], "exact");
    let task = &j["per_task"][1];
    assert_eq!(task["id"], "url-fetch");
    let epoch0 = &task["variants"][UNGROUNDED]["epochs"][0];
    assert_eq!(epoch0["criteria"]["symbols_exist"], false);
    assert_eq!(epoch0["criteria"]["parse"], true);
    let misc = &j["per_task"][3]["variants"][GROUNDED]["epochs"][0];
    assert!(
        misc["criteria"]["no_deprecated"].is_null(),
        "not_applicable is null"
    );
    assert_eq!(j["failures"].as_array().unwrap().len(), 8);
    let rate = &j["aggregate"]["per_variant"][0]["rate"];
    assert_eq!(rate["n"], 8);
    assert_eq!(rate["ci95"][0], wilson(3, 8, WILSON_Z95).0);
}

#[test]
fn colliding_criterion_names_are_qualified_by_scorer() {
    let m = meta();
    let mut s = samples();
    s[0].scores
        .push(Score::new("other", "parse", ScoreStatus::Pass));
    let v = RunView::new(&m, &s, &[]);
    let keys: Vec<&str> = v.per_criterion.iter().map(|c| c.key.as_str()).collect();
    assert!(
        keys.contains(&"swift/parse") && keys.contains(&"other/parse"),
        "{keys:?}"
    );
    let j = to_json(&v);
    let crit = &j["per_task"][0]["variants"][GROUNDED]["epochs"][0]["criteria"];
    assert_eq!(crit["swift/parse"], true);
    assert_eq!(crit["other/parse"], true);
}

#[test]
fn stray_samples_and_unfinished_runs_are_noted() {
    let mut m = meta();
    m.status = RunStatus::Interrupted;
    m.finished_at = None;
    let mut s = samples();
    let mut stray = s[0].clone();
    stray.key = SampleKey {
        task_id: "gone".into(),
        variant: "old-variant".into(),
        epoch: 0,
    };
    s.push(stray);
    let v = RunView::new(&m, &s, &[]);
    assert_eq!(v.header.duration_ms, None);
    assert!(
        v.notes.iter().any(|n| n.contains("the run is interrupted")),
        "{:?}",
        v.notes
    );
    assert!(
        v.notes
            .iter()
            .any(|n| n.contains("tasks not in the stored suite: gone"))
    );
    assert!(
        v.notes
            .iter()
            .any(|n| n.contains("variants not in the run's variant list: old-variant"))
    );
    assert_eq!(v.tasks.last().unwrap().id, "gone");
    assert!(!v.tasks.last().unwrap().in_suite);
    // Three variants now: no implicit comparison would apply, but the declared one still does.
    assert_eq!(v.comparisons.len(), 1);
    for out in [render_table(&v, &plain(100, 5)), render_markdown(&v)] {
        assert!(out.contains("gone"));
    }
}

#[test]
fn empty_runs_render() {
    // No tasks, no variants, no samples.
    let mut m = meta();
    m.suite.tasks.clear();
    m.suite.variants.clear();
    m.suite.compare.clear();
    m.models.clear();
    m.prompt_hashes.clear();
    m.total_samples = 0;
    let v = RunView::new(&m, &[], &[]);
    assert!(v.per_variant.is_empty() && v.comparisons.is_empty() && v.failures.is_empty());
    let t = render_table(&v, &TableOptions::default());
    assert!(t.contains("(no variants)"), "{t}");
    insta::assert_snapshot!("table_empty", t);
    let md = render_markdown(&v);
    assert!(md.contains("No variants."));
    insta::assert_snapshot!("markdown_empty", md);
    let j = to_json(&v);
    assert_eq!(j["n_tasks"], 0);
    assert!(!serde_json::to_string(&j).unwrap().contains("NaN"));

    // Variants and tasks but nothing stored yet: rates are absent, not NaN, and the
    // comparison runs on an empty table.
    let mut m = meta();
    m.status = RunStatus::Running;
    m.finished_at = None;
    let v = RunView::new(&m, &[], &[]);
    assert_eq!(v.per_variant[0].rate, Rate { successes: 0, n: 0 });
    assert_eq!(v.per_variant[0].rate.value(), None);
    assert_eq!(v.per_variant[0].latency.mean_ms, None);
    assert_eq!(v.comparisons[0].contingency, [[0, 0], [0, 0]]);
    assert_eq!(v.comparisons[0].quoted, Some((1.0, PMethod::Exact)));
    let t = render_table(
        &v,
        &TableOptions {
            width: 0,
            max_failures: 0,
            color: true,
            costs: Vec::new(),
        },
    );
    assert!(t.contains("0/8"));
    let j = to_json(&v);
    assert!(j["aggregate"]["per_variant"][0]["rate"]["value"].is_null());
    let md = render_markdown(&v);
    assert!(md.contains("| `ungrounded` | 0 / 8 |"), "{md}");
}

#[test]
fn odd_inputs_do_not_panic() {
    let m = meta();
    let mut s: Vec<SampleRecord> = samples();
    // NaN values and negative counts from a misbehaving scorer.
    s[0].scores.push(
        Score::new("claims", "claims", ScoreStatus::Pass)
            .with_value(f64::NAN)
            .with_metric("tp", f64::NAN)
            .with_metric("fp", -3.0)
            .with_metric("fn", f64::INFINITY),
    );
    s[1].response.text = "````\nnested ``` fences\n````".into();
    s[1].key.task_id = "with `ticks` | and pipes".into();
    let v = RunView::new(&m, &s, &groups());
    let j = serde_json::to_string(&to_json(&v)).unwrap();
    assert!(!j.contains("NaN") && !j.contains("inf"));
    let md = render_markdown(&v);
    assert!(
        md.contains("`````\n````\nnested"),
        "answer fences grow past the answer's own"
    );
    render_table(
        &v,
        &TableOptions {
            color: true,
            width: 1,
            max_failures: 1,
            costs: Vec::new(),
        },
    );
    for p in &v.prf {
        for (_, k) in &p.per_variant {
            assert!(k.tp.is_finite() && k.fp.is_finite() && k.fn_.is_finite());
            assert!(k.micro.is_none_or(|m| m.f1.is_finite()));
        }
    }
}

#[test]
fn snapshot_table() {
    insta::assert_snapshot!("table", render_table(&view(), &plain(120, 5)));
}

#[test]
fn snapshot_markdown() {
    insta::assert_snapshot!("markdown", render_markdown(&view()));
}

#[test]
fn snapshot_json() {
    let pretty = serde_json::to_string_pretty(&to_json(&view())).unwrap();
    insta::assert_snapshot!("json", pretty);
}

/// Every key the JSON report emits is documented in docs/report-schema.md.
#[test]
fn every_json_key_is_documented() {
    let doc = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/report-schema.md"
    ));
    assert!(doc.contains(&format!("**schema version {JSON_SCHEMA_VERSION}**")));
    let mut keys = std::collections::BTreeSet::new();
    collect_keys(&to_json(&view()), None, &mut keys);
    let documented = |k: &str| {
        [
            format!("`{k}`"),
            format!(".{k}`"),
            format!("`{k}."),
            format!("{{{k}"),
            format!(" {k},"),
            format!(" {k}?"),
            format!(" {k}}}"),
            format!(".{k}[]"),
        ]
        .iter()
        .any(|p| doc.contains(p.as_str()))
    };
    let missing: Vec<&String> = keys.iter().filter(|k| !documented(k)).collect();
    assert!(missing.is_empty(), "undocumented JSON keys: {missing:?}");
    assert!(keys.len() > 60, "the walk found the keys ({})", keys.len());
}

/// Object keys, skipping maps whose keys are data (variant names, criterion keys, metadata,
/// tool arguments and results).
fn collect_keys(
    v: &serde_json::Value,
    parent: Option<&str>,
    out: &mut std::collections::BTreeSet<String>,
) {
    use serde_json::Value;
    match v {
        Value::Object(m) => {
            let data_keys = matches!(
                parent,
                Some("variants" | "criteria" | "metrics" | "categories" | "prf")
            );
            for (k, child) in m {
                if matches!(k.as_str(), "metadata" | "arguments" | "result") {
                    out.insert(k.clone());
                    continue;
                }
                if data_keys {
                    // A category's value is again a map by variant.
                    let inner = (parent == Some("categories")).then_some("variants");
                    collect_keys(child, inner, out);
                } else {
                    out.insert(k.clone());
                    collect_keys(child, Some(k), out);
                }
            }
        }
        Value::Array(a) => {
            for child in a {
                collect_keys(child, None, out);
            }
        }
        _ => {}
    }
}

/// A determinism verdict's value and explanation (the weakest resource) reach every report,
/// passing or not; a failing one's diff lines are listed in Markdown, capped.
#[test]
fn epoch_verdicts_show_the_weakest_resource_and_the_diff() {
    let mut groups = groups();
    let mut pass = Score::new("similarity", "similarity", ScoreStatus::Pass);
    pass.value = Some(0.97);
    pass.explanation =
        Some("weakest resource `users`: 0.97 between epochs 0 and 2 (≥ 0.90)".into());
    pass.metrics.insert("similarity_min".into(), 0.97);
    groups[1].scores.push(pass);
    let mut fail = Score::new("similarity", "similarity", ScoreStatus::Fail);
    fail.value = Some(0.5);
    fail.explanation =
        Some("weakest resource `orders`: 0.50 between epochs 1 and 3 (< 0.90)".into());
    for i in 0..35 {
        fail.evidence.push(verity_model::Evidence::msg(format!(
            "epoch 3 differs from epoch 1 at $.orders.fields[{i}].type: \"string\" → \"number\""
        )));
    }
    groups[2].scores.push(fail);
    let v = RunView::new(&meta(), &samples(), &groups);
    let j = to_json(&v);
    let sims: Vec<&serde_json::Value> = j["group_scores"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["scorer"] == "similarity")
        .collect();
    assert_eq!(sims.len(), 2);
    let passing = sims.iter().find(|g| g["status"] == "pass").unwrap();
    assert_eq!(passing["value"], 0.97);
    assert_eq!(passing["metrics"]["similarity_min"], 0.97);
    let failing = sims.iter().find(|g| g["status"] == "fail").unwrap();
    assert!(
        failing["explanation"]
            .as_str()
            .unwrap()
            .starts_with("weakest resource `orders`")
    );
    let md = render_markdown(&v);
    assert!(md.contains("### Epoch verdicts per task"));
    // Running text is escaped Markdown: it renders as the scorer wrote it.
    assert!(md.contains(r"weakest resource \`users\`: 0.97 between epochs 0 and 2"));
    assert!(md.contains(r"- epoch 3 differs from epoch 1 at $.orders.fields\[29\].type"));
    assert!(!md.contains(r"fields\[30\]"));
    assert!(md.contains("- … and 5 more (see the JSON report)"));
    let table = render_table(&v, &plain(200, 20));
    assert!(table.contains("weakest resource `orders`: 0.50 between epochs 1 and 3"));
}
