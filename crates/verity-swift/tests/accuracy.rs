//! The labelled accuracy set: every snippet of `tests/corpus/` against its expected verdicts
//! in `tests/corpus/manifest.json`. Per criterion, a "positive" is a failing verdict (a
//! violation found); precision and recall must both be at least 0.95, the tricky-clean subset
//! must have no false positive at all, and every `na` expectation must be met exactly.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;
use verity_model::ScoreStatus;
use verity_swift::{CheckOptions, FileReport, Target, check_answer, check_source};

const CRITERIA: [&str; 4] = ["parse", "symbols_exist", "availability_ok", "no_deprecated"];

struct Case {
    file: String,
    target: String,
    subset: String,
    expect: BTreeMap<String, String>,
}

fn cases() -> Vec<Case> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let text = std::fs::read_to_string(dir.join("manifest.json")).expect("manifest");
    let v: Value = serde_json::from_str(&text).expect("manifest JSON");
    v["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .map(|c| Case {
            file: c["file"].as_str().expect("file").to_owned(),
            target: c["target"].as_str().expect("target").to_owned(),
            subset: c["subset"].as_str().expect("subset").to_owned(),
            expect: c["expect"]
                .as_object()
                .expect("expect")
                .iter()
                .map(|(k, v)| (k.clone(), v.as_str().expect("verdict").to_owned()))
                .collect(),
        })
        .collect()
}

fn run(case: &Case) -> FileReport {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let src = std::fs::read_to_string(dir.join(&case.file)).expect("snippet");
    let target = Target::parse(&case.target).expect("target");
    let opts = CheckOptions::new(target).expect("default index");
    if case.file.ends_with(".md") {
        check_answer(&src, &opts)
    } else {
        check_source(&src, &opts)
    }
}

fn verdict(r: &FileReport, criterion: &str) -> &'static str {
    let c = match criterion {
        "parse" => &r.criteria.parse,
        "symbols_exist" => &r.criteria.symbols_exist,
        "availability_ok" => &r.criteria.availability_ok,
        _ => &r.criteria.no_deprecated,
    };
    match c.status {
        ScoreStatus::Pass => "pass",
        ScoreStatus::Fail => "fail",
        ScoreStatus::NotApplicable => "na",
        ScoreStatus::Error => "error",
    }
}

#[derive(Default, Debug)]
struct Confusion {
    tp: u32,
    fp: u32,
    fn_: u32,
    tn: u32,
    na_ok: u32,
    na_wrong: u32,
}

#[test]
fn labelled_set_precision_and_recall() {
    let cases = cases();
    assert!(
        cases.len() >= 60,
        "the labelled set has {} snippets",
        cases.len()
    );
    let mut conf: BTreeMap<&str, Confusion> = BTreeMap::new();
    let mut tricky_fp = Vec::new();
    let mut wrong = Vec::new();
    for case in &cases {
        let r = run(case);
        for c in CRITERIA {
            let want = case.expect.get(c).map(String::as_str).unwrap_or("pass");
            let got = verdict(&r, c);
            let e = conf.entry(c).or_default();
            match (want, got) {
                ("fail", "fail") => e.tp += 1,
                ("fail", _) => e.fn_ += 1,
                ("na", "na") => e.na_ok += 1,
                ("na", _) => e.na_wrong += 1,
                (_, "fail") => {
                    e.fp += 1;
                    if case.subset == "tricky" {
                        tricky_fp.push(format!("{} {c}", case.file));
                    }
                }
                (_, "na") => e.na_wrong += 1,
                _ => e.tn += 1,
            }
            if want != got {
                wrong.push(format!(
                    "{} [{}] {c}: expected {want}, got {got}: {}",
                    case.file,
                    case.target,
                    serde_json::to_string(&r.criteria).unwrap_or_default()
                ));
            }
        }
    }
    println!("labelled Swift snippets: {}", cases.len());
    println!("criterion        TP  FP  FN  TN  n/a-ok  n/a-wrong  precision  recall");
    let mut failed = Vec::new();
    for (c, e) in &conf {
        let p = if e.tp + e.fp == 0 {
            1.0
        } else {
            f64::from(e.tp) / f64::from(e.tp + e.fp)
        };
        let rc = if e.tp + e.fn_ == 0 {
            1.0
        } else {
            f64::from(e.tp) / f64::from(e.tp + e.fn_)
        };
        println!(
            "{c:<16} {:>3} {:>3} {:>3} {:>3} {:>7} {:>10}  {p:>9.3}  {rc:>6.3}",
            e.tp, e.fp, e.fn_, e.tn, e.na_ok, e.na_wrong
        );
        if p < 0.95 || rc < 0.95 || e.na_wrong > 0 || e.tp == 0 {
            failed.push(*c);
        }
    }
    for w in &wrong {
        println!("MISMATCH {w}");
    }
    assert!(
        tricky_fp.is_empty(),
        "false positives on tricky clean snippets: {tricky_fp:?}"
    );
    assert!(
        failed.is_empty(),
        "criteria below 0.95 precision/recall: {failed:?}"
    );
}

#[test]
fn answer_evidence_points_into_the_answer() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let answer = std::fs::read_to_string(dir.join("answer_01_multi_block.md")).expect("answer");
    let line = answer
        .lines()
        .position(|l| l.contains("fetchJSON"))
        .expect("fetchJSON line") as u32
        + 1;
    let opts = CheckOptions::new(Target::parse("ios17.0").expect("t")).expect("index");
    let r = check_answer(&answer, &opts);
    let ev = &r.criteria.symbols_exist.evidence;
    assert_eq!(ev.len(), 1, "{ev:?}");
    assert_eq!(ev[0].line, Some(line));
    assert!(ev[0].message.contains("fetchJSON"));
    let col = answer
        .lines()
        .nth(line as usize - 1)
        .expect("line")
        .find("fetchJSON")
        .expect("col");
    assert_eq!(ev[0].column, Some(col as u32 + 1));
}
