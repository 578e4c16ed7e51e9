//! The labelled accuracy set: every snippet of `tests/corpus/` against its expected verdicts
//! in `tests/corpus/manifest.json`. Per criterion, a "positive" is a failing verdict (a
//! violation found); precision and recall must both be at least 0.95, the tricky-clean subset
//! must have no false positive at all, and every `na` expectation must be met exactly.

mod common;

use std::path::Path;

use common::LabelledSet;
use verity_swift::{CheckOptions, Target, check_answer};

#[test]
fn labelled_set_precision_and_recall() {
    let set = LabelledSet::load("corpus");
    assert!(
        set.cases.len() >= 60,
        "the labelled set has {} snippets",
        set.cases.len()
    );
    let out = set.evaluate(&|target| CheckOptions::new(target).expect("default index"));
    out.print("labelled Swift snippets");
    let failed: Vec<&str> = common::CRITERIA
        .into_iter()
        .filter(|c| {
            let e = out.of(c);
            e.precision() < 0.95 || e.recall() < 0.95 || e.na_wrong > 0 || e.tp == 0
        })
        .collect();
    assert!(
        out.tricky_false_positives.is_empty(),
        "false positives on tricky clean snippets: {:?}",
        out.tricky_false_positives
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
