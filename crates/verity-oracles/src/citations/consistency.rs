//! The `citation-consistency` group scorer (seed 002 V4): a question and its paraphrases
//! (the tasks sharing `metadata.paraphrase_of`, the original carrying its own id) should cite
//! the same files and never contradict each other.
//!
//! - `consistent`: per epoch, every two members' sets of cited files (resolved against the
//!   facts when the scorer has them, so `cli.py` and `src/cli.py` are one file) have a
//!   Jaccard index of at least `min_jaccard` (default 1: the same set). Its value is the
//!   lowest index. Not applicable when no member cites a file.
//! - `no_contradictions`: no two members make claims with the same relation and subject and a
//!   different object (`defined_in`, `returns`: one answer each) or the opposite yes/no (`calls`,
//!   `extends`, … with the same object). Claims are those the citations scorer reads, the
//!   question's own relation included. Not applicable when no member makes a claim.
//!
//! Members whose call errored have no answer: they are left out (as in `stability`).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;
use verity_catalog::citations::Mode;
use verity_facts::FactsIndex;
use verity_model::{Evidence, GroupMember, Scope, Score, Scorer};

use super::parse::Claim;
use super::repo_for;
use super::verify::{Question, claims_of, read};
use crate::MAX_EVIDENCE;
use crate::common::na;

pub(crate) struct Consistency {
    pub(crate) name: String,
    pub(crate) by: String,
    pub(crate) min_jaccard: f64,
    pub(crate) mode: Mode,
    /// Empty without `facts`: paths are then compared as written (normalized).
    pub(crate) repos: BTreeMap<String, FactsIndex>,
}

/// One member's answer as the comparison sees it.
struct Reading {
    id: String,
    epoch: u32,
    files: BTreeSet<String>,
    /// (relation, subject and object key; the value asserted; the claim shown).
    claims: Vec<(String, String, String)>,
}

fn jaccard(a: &BTreeSet<String>, b: &BTreeSet<String>) -> f64 {
    let union = a.union(b).count();
    if union == 0 {
        return 1.0;
    }
    a.intersection(b).count() as f64 / union as f64
}

fn show_set(s: &BTreeSet<String>) -> String {
    if s.is_empty() {
        "no file".to_owned()
    } else {
        s.iter()
            .map(|f| format!("`{f}`"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

fn norm_path(p: &str) -> String {
    p.trim()
        .trim_start_matches("./")
        .trim_start_matches('/')
        .to_owned()
}

/// A claim as (key, value): claims with the same key contradict when their values differ.
fn claim_key(c: &Claim, ix: Option<&FactsIndex>) -> ((String, String, String), String) {
    let resolve = |o: &str| {
        ix.and_then(|ix| ix.resolve(o))
            .map(|f| f.path.clone())
            .unwrap_or_else(|| norm_path(o))
    };
    let obj = c.object.clone().unwrap_or_default();
    match c.relation.as_str() {
        // One answer each: the object is the value.
        "defined_in" => (
            (c.relation.clone(), c.subject.clone(), String::new()),
            resolve(&obj),
        ),
        "returns" => (
            (c.relation.clone(), c.subject.clone(), String::new()),
            obj.chars().filter(|c| !c.is_whitespace()).collect(),
        ),
        // Yes / no about a pair.
        _ => {
            let mut o = if c.relation == "changes" {
                resolve(&obj)
            } else {
                obj.trim().to_owned()
            };
            if let Some(Value::String(sym)) = &c.value
                && c.relation == "imports"
            {
                o = format!("{o}#{sym}");
            }
            (
                (c.relation.clone(), c.subject.clone(), o),
                if c.truth() { "yes" } else { "no" }.to_owned(),
            )
        }
    }
}

impl Consistency {
    fn read(&self, m: &GroupMember<'_>) -> Reading {
        let ix = repo_for(&self.repos, m.task).ok();
        let parsed = read(
            &m.response.text,
            self.mode,
            ix.map(|ix| ix.facts().repo.name.as_str()),
        );
        let files = parsed
            .files
            .iter()
            .map(|f| {
                ix.and_then(|ix| ix.resolve(&f.cited))
                    .map(|f| f.path.clone())
                    .unwrap_or_else(|| norm_path(&f.cited))
            })
            .collect();
        let question = Question::of_task(m.task);
        let (claims, _) = claims_of(&parsed, question.as_ref(), ix);
        let claims = claims
            .iter()
            .filter(|c| !c.is_behaviour())
            .map(|c| {
                let ((r, s, o), v) = claim_key(c, ix);
                (format!("{r}\u{1f}{s}\u{1f}{o}"), v, c.show())
            })
            .collect();
        Reading {
            id: m.task.id.clone(),
            epoch: m.epoch,
            files,
            claims,
        }
    }

    fn consistent(&self, readings: &[Reading]) -> Score {
        let criterion = verity_catalog::citations::CONSISTENCY_CRITERIA[0];
        if readings.iter().all(|r| r.files.is_empty()) {
            return na(&self.name, criterion, "no paraphrase cites a file");
        }
        let mut lowest = 1.0f64;
        let mut pairs = 0usize;
        let mut evidence = Vec::new();
        let epochs: BTreeSet<u32> = readings.iter().map(|r| r.epoch).collect();
        for e in epochs {
            let of: Vec<&Reading> = readings.iter().filter(|r| r.epoch == e).collect();
            // The most common set is the reference the others are compared with in evidence.
            let mut counts: Vec<(&BTreeSet<String>, usize)> = Vec::new();
            for r in &of {
                match counts.iter_mut().find(|(s, _)| *s == &r.files) {
                    Some((_, n)) => *n += 1,
                    None => counts.push((&r.files, 1)),
                }
            }
            let common = counts
                .iter()
                .max_by_key(|(_, n)| *n)
                .map(|(s, _)| *s)
                .cloned()
                .unwrap_or_default();
            for (i, a) in of.iter().enumerate() {
                for b in &of[i + 1..] {
                    pairs += 1;
                    lowest = lowest.min(jaccard(&a.files, &b.files));
                }
            }
            for r in &of {
                let j = jaccard(&r.files, &common);
                if j + 1e-9 < self.min_jaccard {
                    let holders: Vec<&str> = of
                        .iter()
                        .filter(|o| o.files == common)
                        .map(|o| o.id.as_str())
                        .collect();
                    evidence.push(Evidence::msg(format!(
                        "`{}` (epoch {e}) cites {} where {} cite{} {} (Jaccard {j:.2})",
                        r.id,
                        show_set(&r.files),
                        holders
                            .iter()
                            .map(|h| format!("`{h}`"))
                            .collect::<Vec<_>>()
                            .join(", "),
                        if holders.len() == 1 { "s" } else { "" },
                        show_set(&common),
                    )));
                }
            }
        }
        if pairs == 0 {
            return na(
                &self.name,
                criterion,
                "fewer than two paraphrases have an answer",
            );
        }
        let ok = lowest + 1e-9 >= self.min_jaccard;
        let mut s = if ok {
            Score::pass(&self.name, criterion).explain(format!(
                "{} answers cite the same files (lowest Jaccard {lowest:.2})",
                readings.len()
            ))
        } else {
            Score::fail(&self.name, criterion).explain(format!(
                "the paraphrases cite different files: lowest Jaccard {lowest:.2} < {:.2}",
                self.min_jaccard
            ))
        };
        for e in evidence.into_iter().take(MAX_EVIDENCE) {
            s = s.with_evidence(e);
        }
        s.with_value(lowest)
            .with_metric("members", readings.len() as f64)
    }

    fn no_contradictions(&self, readings: &[Reading]) -> Score {
        let criterion = verity_catalog::citations::CONSISTENCY_CRITERIA[1];
        let total: usize = readings.iter().map(|r| r.claims.len()).sum();
        if total == 0 {
            return na(&self.name, criterion, "no paraphrase makes a claim");
        }
        let mut found: Vec<String> = Vec::new();
        for (i, a) in readings.iter().enumerate() {
            for b in &readings[i + 1..] {
                for (ka, va, sa) in &a.claims {
                    for (kb, vb, sb) in &b.claims {
                        if ka == kb && va != vb {
                            found.push(format!(
                                "`{}` (epoch {}) says {sa}; `{}` (epoch {}) says {sb}",
                                a.id, a.epoch, b.id, b.epoch
                            ));
                        }
                    }
                }
            }
        }
        found.dedup();
        let mut s = if found.is_empty() {
            Score::pass(&self.name, criterion).explain(format!(
                "{total} claims across {} answers, none contradicting another",
                readings.len()
            ))
        } else {
            Score::fail(&self.name, criterion).explain(format!(
                "{} contradiction{}; first: {}",
                found.len(),
                if found.len() == 1 { "" } else { "s" },
                found[0]
            ))
        };
        for f in found.iter().take(MAX_EVIDENCE) {
            s = s.with_evidence(Evidence::msg(f.clone()));
        }
        s.with_metric("claims", total as f64)
            .with_metric("contradictions", found.len() as f64)
    }
}

impl Scorer for Consistency {
    fn kind(&self) -> &str {
        "citation-consistency"
    }
    fn name(&self) -> &str {
        &self.name
    }
    fn scope(&self) -> Scope {
        Scope::Group(self.by.clone())
    }
    fn score_group(&self, members: &[GroupMember<'_>]) -> Vec<Score> {
        let readings: Vec<Reading> = members
            .iter()
            .filter(|m| !m.response.is_error())
            .map(|m| self.read(m))
            .collect();
        let [c, n] = verity_catalog::citations::CONSISTENCY_CRITERIA;
        if readings.len() < 2 {
            let why = "fewer than two paraphrases have an answer";
            return vec![na(&self.name, c, why), na(&self.name, n, why)];
        }
        vec![
            self.consistent(&readings),
            self.no_contradictions(&readings),
        ]
    }
}
