//! What the labelled-set tests share (`accuracy.rs` over `tests/corpus/`, `heldout.rs` over
//! `tests/heldout/`): loading a set's `manifest.json`, running a case through
//! `check_source` / `check_answer`, reading a verdict, the per-criterion confusion table
//! and the list of disagreements.
//!
//! Per criterion, a "positive" is a failing verdict (a violation found). An expected
//! criterion missing from a case's `expect` means `pass`.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use serde_json::Value;
use verity_model::ScoreStatus;
use verity_swift::{CheckOptions, CriterionReport, FileReport, Target, check_answer, check_source};

/// The four criteria, in report order.
pub const CRITERIA: [&str; 4] = ["parse", "symbols_exist", "availability_ok", "no_deprecated"];

/// One labelled snippet of a manifest.
pub struct Case {
    pub file: String,
    pub target: String,
    pub subset: String,
    /// The issue class the case exercises (held-out set); `None` when the manifest has none.
    pub class: Option<String>,
    /// Criterion → expected verdict (`pass`, `fail` or `na`).
    pub expect: BTreeMap<String, String>,
    /// Why the labels hold (the SDK facts).
    pub why: Option<String>,
}

impl Case {
    /// The expected verdict of `criterion` (`pass` when the manifest does not say).
    pub fn want(&self, criterion: &str) -> &str {
        self.expect
            .get(criterion)
            .map(String::as_str)
            .unwrap_or("pass")
    }
}

/// A labelled set: a directory under `tests/` with a `manifest.json`.
pub struct LabelledSet {
    pub dir: PathBuf,
    pub cases: Vec<Case>,
}

fn text(v: &Value, key: &str, at: usize) -> String {
    v[key]
        .as_str()
        .unwrap_or_else(|| panic!("manifest case {at}: `{key}` must be a string"))
        .to_owned()
}

fn optional_text(v: &Value, key: &str, at: usize) -> Option<String> {
    match &v[key] {
        Value::Null => None,
        Value::String(s) => Some(s.clone()),
        _ => panic!("manifest case {at}: `{key}` must be a string"),
    }
}

impl LabelledSet {
    /// Reads `tests/<name>/manifest.json`.
    pub fn load(name: &str) -> LabelledSet {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests")
            .join(name);
        let path = dir.join("manifest.json");
        let body = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
        let v: Value = serde_json::from_str(&body)
            .unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()));
        let cases = v["cases"]
            .as_array()
            .unwrap_or_else(|| panic!("{}: `cases` must be an array", path.display()))
            .iter()
            .enumerate()
            .map(|(at, c)| Case {
                file: text(c, "file", at),
                target: text(c, "target", at),
                subset: text(c, "subset", at),
                class: optional_text(c, "class", at),
                why: optional_text(c, "why", at),
                expect: c["expect"]
                    .as_object()
                    .unwrap_or_else(|| panic!("manifest case {at}: `expect` must be an object"))
                    .iter()
                    .map(|(k, v)| {
                        let verdict = v.as_str().unwrap_or_else(|| {
                            panic!("manifest case {at}: `expect.{k}` must be a string")
                        });
                        (k.clone(), verdict.to_owned())
                    })
                    .collect(),
            })
            .collect();
        LabelledSet { dir, cases }
    }

    /// Checks one case with `options` built for the case's target: a `.md` file is a model
    /// answer (`check_answer`), anything else Swift source (`check_source`).
    pub fn run(&self, case: &Case, options: &dyn Fn(Target) -> CheckOptions) -> FileReport {
        let path = self.dir.join(&case.file);
        let src = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
        let target = Target::parse(&case.target)
            .unwrap_or_else(|| panic!("{}: bad target {}", case.file, case.target));
        let opts = options(target);
        if case.file.ends_with(".md") {
            check_answer(&src, &opts)
        } else {
            check_source(&src, &opts)
        }
    }

    /// Runs every case and tallies the verdicts against the labels.
    pub fn evaluate(&self, options: &dyn Fn(Target) -> CheckOptions) -> Outcome {
        let mut out = Outcome {
            cases: self.cases.len(),
            ..Outcome::default()
        };
        for case in &self.cases {
            let report = self.run(case, options);
            for c in CRITERIA {
                let want = case.want(c);
                let got = verdict(&report, c);
                let kind = out.confusion.entry(c).or_default().record(want, got);
                if kind == Tally::FalsePositive && case.subset == "tricky" {
                    out.tricky_false_positives
                        .push(format!("{} {c}", case.file));
                }
                if want != got {
                    let r = criterion(&report, c);
                    out.disagreements.push(Disagreement {
                        file: case.file.clone(),
                        target: case.target.clone(),
                        class: case.class.clone(),
                        criterion: c,
                        expected: want.to_owned(),
                        got,
                        explanation: r.explanation.clone(),
                        evidence: r
                            .evidence
                            .iter()
                            .map(|e| match e.line {
                                Some(l) => format!("line {l}: {}", e.message),
                                None => e.message.clone(),
                            })
                            .collect(),
                        why: case.why.clone(),
                    });
                }
            }
        }
        out
    }
}

/// One criterion's report in a file report.
pub fn criterion<'a>(r: &'a FileReport, criterion: &str) -> &'a CriterionReport {
    match criterion {
        "parse" => &r.criteria.parse,
        "symbols_exist" => &r.criteria.symbols_exist,
        "availability_ok" => &r.criteria.availability_ok,
        "no_deprecated" => &r.criteria.no_deprecated,
        other => panic!("unknown criterion {other}"),
    }
}

/// One criterion's verdict as the manifests spell it.
pub fn verdict(r: &FileReport, c: &str) -> &'static str {
    match criterion(r, c).status {
        ScoreStatus::Pass => "pass",
        ScoreStatus::Fail => "fail",
        ScoreStatus::NotApplicable => "na",
        ScoreStatus::Error => "error",
    }
}

/// Where one (expected, got) pair lands in the confusion table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tally {
    TruePositive,
    FalsePositive,
    FalseNegative,
    TrueNegative,
    NaAgreed,
    NaWrong,
}

/// One criterion's confusion counts.
#[derive(Default, Debug)]
pub struct Confusion {
    pub tp: u32,
    pub fp: u32,
    pub fn_: u32,
    pub tn: u32,
    pub na_ok: u32,
    pub na_wrong: u32,
}

impl Confusion {
    /// Counts one verdict against its label.
    pub fn record(&mut self, want: &str, got: &str) -> Tally {
        let kind = match (want, got) {
            ("fail", "fail") => Tally::TruePositive,
            ("fail", _) => Tally::FalseNegative,
            ("na", "na") => Tally::NaAgreed,
            ("na", _) => Tally::NaWrong,
            (_, "fail") => Tally::FalsePositive,
            (_, "na") => Tally::NaWrong,
            _ => Tally::TrueNegative,
        };
        match kind {
            Tally::TruePositive => self.tp += 1,
            Tally::FalsePositive => self.fp += 1,
            Tally::FalseNegative => self.fn_ += 1,
            Tally::TrueNegative => self.tn += 1,
            Tally::NaAgreed => self.na_ok += 1,
            Tally::NaWrong => self.na_wrong += 1,
        }
        kind
    }

    /// TP / (TP + FP); 1 when nothing was flagged.
    pub fn precision(&self) -> f64 {
        if self.tp + self.fp == 0 {
            1.0
        } else {
            f64::from(self.tp) / f64::from(self.tp + self.fp)
        }
    }

    /// TP / (TP + FN); 1 when nothing was to be found.
    pub fn recall(&self) -> f64 {
        if self.tp + self.fn_ == 0 {
            1.0
        } else {
            f64::from(self.tp) / f64::from(self.tp + self.fn_)
        }
    }
}

/// A verdict that differs from its label.
pub struct Disagreement {
    pub file: String,
    pub target: String,
    pub class: Option<String>,
    pub criterion: &'static str,
    pub expected: String,
    pub got: &'static str,
    pub explanation: String,
    pub evidence: Vec<String>,
    pub why: Option<String>,
}

impl fmt::Display for Disagreement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} [{}", self.file, self.target)?;
        if let Some(class) = &self.class {
            write!(f, ", {class}")?;
        }
        write!(
            f,
            "] {}: expected {}, got {}: {}",
            self.criterion, self.expected, self.got, self.explanation
        )?;
        for e in &self.evidence {
            write!(f, "\n    evidence: {e}")?;
        }
        if let Some(why) = &self.why {
            write!(f, "\n    label: {why}")?;
        }
        Ok(())
    }
}

/// The verdicts of a whole set against its labels.
#[derive(Default)]
pub struct Outcome {
    pub cases: usize,
    pub confusion: BTreeMap<&'static str, Confusion>,
    pub disagreements: Vec<Disagreement>,
    /// `file criterion` of every false positive on a `tricky` case.
    pub tricky_false_positives: Vec<String>,
}

impl Outcome {
    /// One criterion's counts (all zero when no case was run).
    pub fn of(&self, criterion: &str) -> &Confusion {
        static EMPTY: Confusion = Confusion {
            tp: 0,
            fp: 0,
            fn_: 0,
            tn: 0,
            na_ok: 0,
            na_wrong: 0,
        };
        self.confusion.get(criterion).unwrap_or(&EMPTY)
    }

    /// The confusion table, one line per criterion in report order.
    pub fn table(&self) -> String {
        let mut s =
            String::from("criterion        TP  FP  FN  TN  n/a-ok  n/a-wrong  precision  recall\n");
        for c in CRITERIA {
            let e = self.of(c);
            s.push_str(&format!(
                "{c:<16} {:>3} {:>3} {:>3} {:>3} {:>7} {:>10}  {:>9.3}  {:>6.3}\n",
                e.tp,
                e.fp,
                e.fn_,
                e.tn,
                e.na_ok,
                e.na_wrong,
                e.precision(),
                e.recall()
            ));
        }
        s
    }

    /// Prints the table and every disagreement.
    pub fn print(&self, title: &str) {
        println!("{title}: {} snippets", self.cases);
        print!("{}", self.table());
        println!("disagreements: {}", self.disagreements.len());
        for d in &self.disagreements {
            println!("MISMATCH {d}");
        }
    }
}
