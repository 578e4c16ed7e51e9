//! The `stability` group scorer (seed 003 §8, robust mode): a task and its perturbed copies
//! (`[perturb]` in suite.toml gives each copy `metadata.perturbation_of = <original id>`, and
//! the original its own id) should get the same answer. Per group, the share of perturbed
//! samples whose answer equals the original's at the same epoch, and how many flipped.
//!
//! Answers are compared as claim sets by default (`compare = "claims"`: the claims scorer's
//! matching, every claim of one set matching one of the other, lines and confidences ignored
//! since a perturbation may move lines), or as JSON (`json`: key order ignored) or text
//! (`text`: trimmed). An answer that does not parse is its own state: equal only to another
//! answer that does not parse.

use serde_json::Value;
use verity_model::{Evidence, GroupMember, Scope, Score, Scorer};

use crate::claims::{Claim, parse_claims, same_claim};
use crate::common::na;

pub(crate) struct Stability {
    pub(crate) name: String,
    pub(crate) criterion: String,
    pub(crate) by: String,
    pub(crate) compare: String,
    pub(crate) tail: usize,
}

/// An answer as the comparison sees it.
enum Form {
    Claims(Vec<Claim>),
    Json(Value),
    Text(String),
    Unparsed,
}

impl Stability {
    fn form(&self, text: &str) -> Form {
        match self.compare.as_str() {
            "json" => serde_json::from_str(crate::strip_fence(text, "json").trim())
                .map_or(Form::Unparsed, Form::Json),
            "text" => Form::Text(text.trim().to_owned()),
            _ => parse_claims(text, false).map_or(Form::Unparsed, Form::Claims),
        }
    }

    fn same_claim(&self, a: &Claim, b: &Claim) -> bool {
        same_claim(
            (&a.subject, &a.predicate, &a.value),
            (&b.subject, &b.predicate, &b.value),
            self.tail,
        )
    }

    fn equal(&self, a: &Form, b: &Form) -> bool {
        match (a, b) {
            (Form::Claims(x), Form::Claims(y)) => {
                x.iter().all(|c| y.iter().any(|d| self.same_claim(c, d)))
                    && y.iter().all(|d| x.iter().any(|c| self.same_claim(c, d)))
            }
            (Form::Json(x), Form::Json(y)) => x == y,
            (Form::Text(x), Form::Text(y)) => x == y,
            (Form::Unparsed, Form::Unparsed) => true,
            _ => false,
        }
    }
}

impl Scorer for Stability {
    fn kind(&self) -> &str {
        "stability"
    }
    fn name(&self) -> &str {
        &self.name
    }
    fn scope(&self) -> Scope {
        Scope::Group(self.by.clone())
    }
    fn score_group(&self, members: &[GroupMember<'_>]) -> Vec<Score> {
        // Robustness is a claim about answers: a sample whose call failed (its response is an
        // infrastructure error) has no answer to compare, so it is left out here, where an
        // epochs scorer like `identical` counts it as an invalid run.
        let members: Vec<GroupMember<'_>> = members
            .iter()
            .filter(|m| !m.response.is_error())
            .copied()
            .collect();
        let members = members.as_slice();
        // The group's key value is the original's id: the member whose task id it is.
        let original_id = members.iter().find_map(|m| {
            let of = m.task.metadata.get(&self.by)?.as_str()?;
            (of == m.task.id).then_some(of)
        });
        let Some(original_id) = original_id else {
            return vec![na(
                &self.name,
                &self.criterion,
                "the original task has no answer to compare its perturbations with",
            )];
        };
        let originals: Vec<(u32, Form)> = members
            .iter()
            .filter(|m| m.task.id == original_id)
            .map(|m| (m.epoch, self.form(&m.response.text)))
            .collect();
        let mut compared = 0usize;
        let mut flipped = Vec::new();
        for m in members.iter().filter(|m| m.task.id != original_id) {
            let Some((_, orig)) = originals.iter().find(|(e, _)| *e == m.epoch) else {
                continue;
            };
            compared += 1;
            if !self.equal(orig, &self.form(&m.response.text)) {
                flipped.push(m);
            }
        }
        if compared == 0 {
            return vec![na(
                &self.name,
                &self.criterion,
                "no perturbed copy has an answer to compare",
            )];
        }
        let stable = compared - flipped.len();
        let share = stable as f64 / compared as f64;
        let mut s = if flipped.is_empty() {
            Score::pass(&self.name, &self.criterion).explain(format!(
                "all {compared} perturbed answers of `{original_id}` equal the original's"
            ))
        } else {
            Score::fail(&self.name, &self.criterion).explain(format!(
                "{} of {compared} perturbed answers of `{original_id}` differ from the original's",
                flipped.len()
            ))
        };
        for m in &flipped {
            let how = m
                .task
                .metadata
                .get("perturbation")
                .and_then(Value::as_str)
                .unwrap_or("perturbed");
            s = s.with_evidence(Evidence::msg(format!(
                "`{}` ({how}, epoch {}) changed the answer",
                m.task.id, m.epoch
            )));
        }
        vec![
            s.with_value(share)
                .with_metric("perturbations", compared as f64)
                .with_metric("flips", flipped.len() as f64),
        ]
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use verity_model::{Response, ScoreStatus, ScorerSpec, SourceLoc, Task};

    use super::*;
    use crate::build;

    fn task(id: &str, of: &str, how: &str) -> Task {
        let mut t = Task::prompt(id, "code");
        t.metadata.insert("perturbation_of".into(), json!(of));
        t.metadata.insert("perturbation".into(), json!(how));
        t
    }

    fn resp(claims: Value) -> Response {
        Response {
            text: json!({ "claims": claims }).to_string(),
            ..Response::default()
        }
    }

    #[test]
    fn stability_is_the_share_of_unchanged_claim_sets() {
        let scorer = build(&ScorerSpec {
            kind: "stability".into(),
            name: None,
            options: Default::default(),
            source: SourceLoc::default(),
        })
        .unwrap();
        assert_eq!(scorer.scope(), Scope::Group("perturbation_of".into()));
        let orig = task("tls-001", "tls-001", "");
        let ws = task("tls-001~ws", "tls-001", "trailing-whitespace");
        let cm = task("tls-001~comment", "tls-001", "comment");
        let nc = task("tls-001~nocomment", "tls-001", "no-comments");
        let a = resp(
            json!([{"subject": "tls/verify", "predicate": "enabled", "value": false, "line": 4}]),
        );
        // The same claim on another line, with a coerced value: equal.
        let same = resp(
            json!([{"subject": "x.tls.verify", "predicate": "enabled", "value": "off", "line": 5}]),
        );
        let other = resp(json!([]));
        let broken = Response {
            text: "not json".into(),
            ..Response::default()
        };
        let m = |t, r| GroupMember {
            task: t,
            epoch: 0,
            response: r,
        };
        let s = scorer.score_group(&[m(&orig, &a), m(&ws, &same), m(&cm, &other), m(&nc, &broken)]);
        assert_eq!(s[0].status, ScoreStatus::Fail);
        assert!((s[0].value.unwrap() - 1.0 / 3.0).abs() < 1e-12);
        assert_eq!(s[0].metrics["flips"], 2.0);
        assert_eq!(s[0].metrics["perturbations"], 3.0);
        assert!(
            s[0].evidence[0]
                .message
                .contains("`tls-001~comment` (comment, epoch 0)")
        );
        let s = scorer.score_group(&[m(&orig, &a), m(&ws, &same)]);
        assert_eq!(s[0].status, ScoreStatus::Pass);
        assert_eq!(s[0].value, Some(1.0));
        // Without the original there is nothing to compare with.
        let s = scorer.score_group(&[m(&ws, &same)]);
        assert_eq!(s[0].status, ScoreStatus::NotApplicable);
        // A copy whose call errored has no answer: left out, not a flip (its text, empty, would
        // be an unparsed answer unlike the original's).
        let errored = Response {
            error: Some(verity_model::ResponseError {
                kind: "timeout".into(),
                message: "no answer".into(),
            }),
            ..Response::default()
        };
        let s = scorer.score_group(&[m(&orig, &a), m(&ws, &same), m(&cm, &errored)]);
        assert_eq!(s[0].status, ScoreStatus::Pass);
        assert_eq!(s[0].metrics["perturbations"], 1.0);
        // An errored original: nothing to compare with.
        let s = scorer.score_group(&[m(&orig, &errored), m(&ws, &same)]);
        assert_eq!(s[0].status, ScoreStatus::NotApplicable);
    }
}
