//! Comparisons, noise, gates and baseline files over runs built in code: a claim-extraction
//! suite of ten tasks whose scorer carries tp / fp / fn counts.

use verity_model::{
    GateSpec, Metric, Outcome, OutcomeRule, Response, RunMeta, RunOptions, RunStatus, SampleKey,
    SampleRecord, Score, ScoreStatus, SourceLoc, Suite, Task,
};
use verity_report::{
    Against, Baseline, FlipKind, GateStatus, NoiseMethod, RunView, SideDiff, Snapshot, Verdict,
    evaluate, render_diff_markdown, render_diff_table, render_gates,
};

/// Per task: (tp, fp, fn) for each epoch.
type Counts = Vec<Vec<(f64, f64, f64)>>;

fn run(id: &str, hash: &str, counts: &Counts) -> (RunMeta, Vec<SampleRecord>) {
    let mut suite = Suite {
        name: "claims".into(),
        epochs: counts[0].len() as u32,
        content_hash: hash.into(),
        outcome: OutcomeRule::default(),
        ..Default::default()
    };
    suite.variants = vec![verity_model::Variant {
        name: "default".into(),
        provider: verity_model::ProviderSpec {
            kind: "mock".into(),
            model: Some("m".into()),
            ..Default::default()
        },
        params: Default::default(),
        prompt: None,
        system: None,
        grounding: None,
    }];
    let mut samples = Vec::new();
    for (i, epochs) in counts.iter().enumerate() {
        let mut t = Task::prompt(format!("t{i:02}"), "extract the claims");
        t.category = Some(if i % 2 == 0 { "tls" } else { "jwt" }.into());
        if i == 3 {
            t.metadata.insert(
                "rationale".into(),
                "alg:none bypasses signature verification".into(),
            );
        }
        suite.tasks.push(t);
        for (e, &(tp, fp, fn_)) in epochs.iter().enumerate() {
            let status = if fp + fn_ == 0.0 {
                ScoreStatus::Pass
            } else {
                ScoreStatus::Fail
            };
            let score = Score::new("claims", "claims", status)
                .with_metric("tp", tp)
                .with_metric("fp", fp)
                .with_metric("fn", fn_)
                .explain(format!("missed {fn_} claims, {fp} extra"));
            let outcome = suite.outcome.evaluate(std::slice::from_ref(&score), false);
            samples.push(SampleRecord {
                key: SampleKey {
                    task_id: format!("t{i:02}"),
                    variant: "default".into(),
                    epoch: e as u32,
                },
                response: Response {
                    text: "claims".into(),
                    ..Default::default()
                },
                scores: vec![score],
                outcome,
                completed_at: "2026-05-20T10:01:00Z".into(),
            });
        }
    }
    let meta = RunMeta {
        id: id.into(),
        suite_path: "suites/claims".into(),
        options: RunOptions {
            quick: false,
            categories: Vec::new(),
            epochs: suite.epochs,
            limit: None,
            filter: None,
            concurrency: 1,
            variants: Vec::new(),
            shard: None,
            failed_in: None,
        },
        started_at: format!("2026-05-20T10:00:0{}Z", id.len() % 10),
        finished_at: Some("2026-05-20T10:02:00Z".into()),
        status: RunStatus::Completed,
        verity_version: "0.1.0".into(),
        models: [("default".to_owned(), "mock/m".to_owned())].into(),
        prompt_hashes: [("default".to_owned(), "-".to_owned())].into(),
        total_samples: samples.len() as u64,
        scoring: 1,
        preflight: Default::default(),
        liveness: Default::default(),
        suite,
    };
    (meta, samples)
}

fn snapshot(id: &str, hash: &str, counts: &Counts) -> Snapshot {
    let (meta, samples) = run(id, hash, counts);
    let view = RunView::new(&meta, &samples, &[]);
    let mut s = Snapshot::from_run(&view, &meta, &samples);
    assert_eq!(s.len(), 1);
    s.remove(0)
}

/// Ten tasks of one epoch each; every task (4, 1, 1): tp 40, fp 10, fn 10, F1 = 80 / 100.
fn baseline_counts() -> Counts {
    (0..10).map(|_| vec![(4.0, 1.0, 1.0)]).collect()
}

/// F1 = 0.75: tp 30 (3 per task), fp 10, fn 10 -> 60 / 80.
fn five_point_drop() -> Counts {
    (0..10).map(|_| vec![(3.0, 1.0, 1.0)]).collect()
}

/// F1 = 0.76: tp 38 (two tasks find 3), fp 10, fn 14 (four tasks miss 2) -> 76 / 100.
fn four_point_drop() -> Counts {
    (0..10)
        .map(|i| {
            let tp = if i < 2 { 3.0 } else { 4.0 };
            let fn_ = if i < 4 { 2.0 } else { 1.0 };
            vec![(tp, 1.0, fn_)]
        })
        .collect()
}

fn f1_gate(max_drop: f64) -> GateSpec {
    GateSpec {
        metric: Metric::F1(None),
        variant: None,
        min: None,
        max: None,
        baseline: true,
        max_drop: Some(max_drop),
        source: SourceLoc {
            file: "suite.toml".into(),
            line: 12,
            column: 1,
        },
    }
}

#[test]
fn a_five_point_f1_drop_fails_the_gate_and_a_four_point_one_is_review() {
    let base = snapshot("base", "h1", &baseline_counts());
    assert_eq!(base.metric(&Metric::F1(None)), Some(0.8));
    // 0.80 -> 0.75: 2·30 / (60 + 20).
    let five = snapshot("five", "h1", &five_point_drop());
    assert!((five.metric(&Metric::F1(None)).unwrap() - 0.75).abs() < 1e-12);
    // 0.80 -> 0.76: 2·38 / (76 + 24).
    let four = snapshot("four", "h1", &four_point_drop());
    assert!((four.metric(&Metric::F1(None)).unwrap() - 0.76).abs() < 1e-12);

    let gates = [f1_gate(0.05)];
    let d5 = SideDiff::new(&base, &five, &[]);
    let r5 = evaluate(
        &gates,
        std::slice::from_ref(&five),
        Against::Baseline(&[d5]),
        &[],
    );
    assert_eq!(
        r5.gates[0].status,
        GateStatus::Fail,
        "{}",
        render_gates(&r5)
    );
    assert_eq!(r5.verdict, Verdict::Regression);
    assert!((r5.gates[0].delta.unwrap() + 0.05).abs() < 1e-12);
    assert!(render_gates(&r5).contains("FAIL f1 drop < 0.05 from baseline [default]"));

    let d4 = SideDiff::new(&base, &four, &[]);
    let r4 = evaluate(
        &gates,
        std::slice::from_ref(&four),
        Against::Baseline(&[d4]),
        &[],
    );
    assert_eq!(
        r4.gates[0].status,
        GateStatus::Review,
        "{}",
        render_gates(&r4)
    );
    assert_eq!(r4.verdict, Verdict::Review);

    // Unchanged: pass.
    let same = snapshot("same", "h1", &baseline_counts());
    let d = SideDiff::new(&base, &same, &[]);
    let r = evaluate(
        &gates,
        std::slice::from_ref(&same),
        Against::Baseline(&[d]),
        &[],
    );
    assert_eq!(r.verdict, Verdict::Pass, "{}", render_gates(&r));
}

#[test]
fn a_flipped_task_is_named_with_its_evidence_and_rationale() {
    let base = snapshot("base", "h1", &baseline_counts());
    // Task 3 loses every claim; task 5 becomes perfect.
    let mut c = baseline_counts();
    c[3][0] = (0.0, 1.0, 5.0);
    c[5][0] = (5.0, 0.0, 0.0);
    let mut base_c = baseline_counts();
    base_c[3][0] = (5.0, 0.0, 0.0);
    let base = Snapshot {
        tasks: snapshot("base", "h1", &base_c).tasks,
        ..base
    };
    let cur = snapshot("cur", "h1", &c);
    let d = SideDiff::new(&base, &cur, &[]);
    let reg: Vec<&str> = d
        .flips
        .iter()
        .filter(|f| f.kind == FlipKind::Regression)
        .map(|f| f.task_id.as_str())
        .collect();
    assert_eq!(reg, ["t03"]);
    let imp: Vec<&str> = d
        .flips
        .iter()
        .filter(|f| f.kind == FlipKind::Improvement)
        .map(|f| f.task_id.as_str())
        .collect();
    assert_eq!(imp, ["t05"]);
    let t03 = &d.flips[0];
    assert_eq!(
        t03.rationale.as_deref(),
        Some("alg:none bypasses signature verification")
    );
    assert!(t03.b_reason.as_deref().unwrap().contains("missed 5 claims"));
    // A regressed task with a `regressions` gate fails it.
    let gate = GateSpec::parse_expr("regressions<=0", "--fail-on-regression").unwrap();
    let r = evaluate(
        &[gate],
        std::slice::from_ref(&cur),
        Against::Baseline(std::slice::from_ref(&d)),
        &[],
    );
    assert_eq!(r.verdict, Verdict::Regression);
    assert_eq!(r.gates[0].value, Some(1.0));
    let text = render_gates(&r);
    assert!(text.contains("pass → fail  t03 default [jwt]"), "{text}");
    assert!(text.contains("rationale: alg:none bypasses"), "{text}");
    assert!(text.contains("improvements (1)"), "{text}");
    let table = render_diff_table(std::slice::from_ref(&d));
    assert!(table.contains("A only 1, B only 1"), "{table}");
    let md = render_diff_markdown(&[d]);
    assert!(md.contains("| `t03` | pass → fail |"), "{md}");
}

#[test]
fn improvements_alone_ask_for_review() {
    let perfect: Counts = (0..10).map(|_| vec![(4.0, 0.0, 0.0)]).collect();
    let mut c = perfect.clone();
    c[2][0] = (1.0, 4.0, 4.0);
    let base = snapshot("base", "h1", &c);
    let cur = snapshot("cur", "h1", &perfect);
    let d = SideDiff::new(&base, &cur, &[]);
    let r = evaluate(
        &[f1_gate(0.05)],
        std::slice::from_ref(&cur),
        Against::Baseline(&[d]),
        &[],
    );
    assert_eq!(r.gates[0].status, GateStatus::Pass);
    assert_eq!(r.improvements.len(), 1);
    assert_eq!(r.verdict, Verdict::Review);
}

#[test]
fn noise_comes_from_epochs_history_and_the_bootstrap() {
    // Two epochs that disagree on task 0: the run-to-run spread is visible.
    let mut c: Counts = (0..10)
        .map(|_| vec![(4.0, 0.0, 0.0), (4.0, 0.0, 0.0)])
        .collect();
    c[0][1] = (0.0, 2.0, 4.0);
    c[1][0] = (2.0, 0.0, 2.0);
    let a = snapshot("a", "h1", &c);
    assert_eq!(a.epoch_metrics["pass_rate"].len(), 2);
    assert!(a.tasks["t00"].is_flaky(a.errors));
    let mut c2 = c.clone();
    c2[0] = vec![(0.0, 2.0, 4.0), (0.0, 2.0, 4.0)];
    let b = snapshot("b", "h1", &c2);
    let history = vec![snapshot("h1", "h1", &c), snapshot("h2", "h1", &c2)];
    let d = SideDiff::new(&a, &b, &history);
    // Tasks t00 and t01 fail in both (one epoch each fails), so the task table is concordant;
    // by samples, t00's first epoch passed in `a` only.
    assert_eq!(d.contingency, [[8, 0], [0, 2]]);
    assert_eq!(d.sample_contingency, [[17, 1], [0, 2]]);
    assert!(
        render_diff_table(std::slice::from_ref(&d))
            .contains("samples paired by task and epoch: both pass 17, A only 1")
    );
    let f1 = d.metric("f1").unwrap();
    let methods: Vec<&NoiseMethod> = f1.noise.iter().map(|n| &n.method).collect();
    assert!(
        methods.iter().any(|m| matches!(
            m,
            NoiseMethod::Epochs {
                epochs_a: 2,
                epochs_b: 2
            }
        )),
        "{methods:?}"
    );
    assert!(
        methods
            .iter()
            .any(|m| matches!(m, NoiseMethod::History { runs: 2 })),
        "{methods:?}"
    );
    assert!(
        methods
            .iter()
            .any(|m| matches!(m, NoiseMethod::Bootstrap { tasks: 10, .. })),
        "{methods:?}"
    );
    assert!(f1.beyond_noise.is_some());
    // Task 0 failed in `a` already (its epochs disagree) and fails in `b`: no flip.
    assert!(d.flips.is_empty(), "{:?}", d.flips);
    // The same data gives the same bootstrap interval (seeded).
    let again = SideDiff::new(&a, &b, &history);
    assert_eq!(again.metric("f1").unwrap().noise, f1.noise);
}

#[test]
fn a_baseline_file_round_trips() {
    let mut c: Counts = (0..4)
        .map(|_| vec![(4.0, 1.0, 1.0), (4.0, 0.0, 0.0)])
        .collect();
    c[1][0] = (1.0, 0.0, 0.0);
    let s = snapshot("20260520-100000-abcd", "h1", &c);
    let b = Baseline::new(vec![s], "2026-05-21T08:00:00Z".into());
    let text = b.to_toml().unwrap();
    assert!(text.starts_with("# verity baseline"), "{text}");
    assert!(text.contains("[[variant]]"), "{text}");
    let back = Baseline::from_toml(&text).unwrap();
    // The rationale is the suite's, not stored in the file.
    let mut expected = b.clone();
    for v in &mut expected.variants {
        for t in v.tasks.values_mut() {
            t.rationale = None;
        }
    }
    assert_eq!(back, expected);
    assert_eq!(
        back.variants[0].tasks["t00"].epochs,
        [Outcome::Fail, Outcome::Pass]
    );
    assert_eq!(
        back.variants[0].tasks["t01"].epochs,
        [Outcome::Pass, Outcome::Pass]
    );
    // Errors say where.
    let err = Baseline::from_toml("format = 1\nsuite = 3\n").unwrap_err();
    assert!(err.contains("line 2"), "{err}");
    let newer = Baseline::from_toml("format = 99\n").unwrap_err();
    assert!(newer.contains("format 99"), "{newer}");
}

#[test]
fn a_flaky_regression_is_listed_for_review_not_counted() {
    // Baseline: every task passes both epochs. Now task 4 passes one epoch of two.
    let perfect: Counts = (0..10).map(|_| vec![(4.0, 0.0, 0.0); 2]).collect();
    let mut c = perfect.clone();
    c[4][1] = (3.0, 0.0, 1.0);
    let base = snapshot("base", "h1", &perfect);
    let cur = snapshot("cur", "h1", &c);
    let d = SideDiff::new(&base, &cur, &[]);
    assert_eq!(d.flips.len(), 1);
    assert!(d.flips[0].flaky);
    let gate = GateSpec::parse_expr("regressions<=0", "--fail-on-regression").unwrap();
    // A fixed bound the run meets only by less than its epoch spread is flagged.
    let fixed = GateSpec::parse_expr("pass_rate>=0.9", "--gate").unwrap();
    let r = evaluate(
        &[gate, fixed],
        std::slice::from_ref(&cur),
        Against::Baseline(&[d]),
        &[],
    );
    assert_eq!(r.gates[0].value, Some(0.0));
    assert_eq!(r.flaky.len(), 1);
    assert!(r.regressions.is_empty());
    assert_eq!(r.verdict, Verdict::Review, "{}", render_gates(&r));
    // pass_rate 0.95 per run, epochs 1.0 and 0.9: sd 0.0707, noise 1.96 · 0.0707 / √2 = 0.098.
    let fixed = &r.gates[1];
    assert_eq!(fixed.status, GateStatus::Pass);
    assert!((fixed.noise.unwrap() - 0.098).abs() < 1e-3, "{fixed:?}");
    assert_eq!(fixed.beyond_noise, Some(false));
    assert!(
        fixed.note.contains("within noise of the bound"),
        "{fixed:?}"
    );
    assert!(render_gates(&r).contains("flaky regressions (not counted) (1)"));
}

#[test]
fn a_subset_run_is_compared_on_the_common_tasks() {
    // The baseline ran ten fixtures (F1 0.8: every one (4, 1, 1)); a `--quick`-style run only
    // four, all perfect except one. Rates and F1 come from those four on both sides; a
    // criterion's rate, which has no per-task share, is not compared.
    let base = snapshot("base", "h1", &baseline_counts());
    let mut c: Counts = (0..4).map(|_| vec![(4.0, 1.0, 1.0)]).collect();
    c[0][0] = (5.0, 0.0, 0.0);
    let cur = snapshot("cur", "h1", &c);
    let d = SideDiff::new(&base, &cur, &[]);
    assert_eq!(d.only_a.len(), 6);
    assert!(
        d.warnings.iter().any(|w| w.contains("6 only in A")),
        "{:?}",
        d.warnings
    );
    let f1 = d.metric("f1").unwrap();
    assert!(f1.comparable);
    assert!((f1.a.unwrap() - 0.8).abs() < 1e-12);
    // Current: tp 17, fp 3, fn 3 -> 34 / 40.
    assert!((f1.b.unwrap() - 0.85).abs() < 1e-12, "{f1:?}");
    let crit = d
        .metric("criterion:must_contain")
        .or(d.metric("criterion:claims"));
    if let Some(c) = crit {
        assert!(!c.comparable);
        assert_eq!(c.delta, None);
    }
    let mut gate = f1_gate(0.05);
    gate.metric = Metric::Criterion("claims".into());
    let r = evaluate(
        &[f1_gate(0.05), gate],
        std::slice::from_ref(&cur),
        Against::Baseline(&[d]),
        &[],
    );
    assert_eq!(r.gates[0].status, GateStatus::Pass, "{}", render_gates(&r));
    assert_eq!(
        r.gates[1].status,
        GateStatus::Skipped,
        "{}",
        render_gates(&r)
    );
}
