//! Text scorers: equals, contains, regex, json-valid, and the cross-epoch `identical`.

use regex::Regex;
use serde_json::Value;
use verity_catalog::text::{TextOpts, string_list};
use verity_model::{Evidence, GroupMember, Response, Scope, Score, Scorer, Task};

use verity_catalog::determinism::{CanonOpts, Normalize};

use crate::canon::{self, parse_answer};
use crate::common::{excerpt, json_text, na, too_few_epochs};
use crate::json_diff;

/// `s` as the options compare it: trimmed, whitespace runs collapsed, lower-cased, as set.
fn norm(opts: &TextOpts, s: &str) -> String {
    let mut s = if opts.trim {
        s.trim().to_owned()
    } else {
        s.to_owned()
    };
    if opts.normalize_whitespace {
        s = s.split_whitespace().collect::<Vec<_>>().join(" ");
    }
    if opts.ignore_case {
        s = s.to_lowercase();
    }
    s
}

/// 1-based line and column of byte offset `at` in `text`.
fn line_col(text: &str, at: usize) -> (u32, u32) {
    let before = &text[..at.min(text.len())];
    let line = before.matches('\n').count() as u32 + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) as u32 + 1;
    (line, col)
}

pub(crate) struct Equals {
    pub(crate) name: String,
    pub(crate) criterion: String,
    pub(crate) opts: TextOpts,
}

impl Scorer for Equals {
    fn kind(&self) -> &str {
        "equals"
    }
    fn name(&self) -> &str {
        &self.name
    }
    fn score(&self, task: &Task, response: &Response) -> Vec<Score> {
        let targets = task
            .expect
            .get("equals")
            .and_then(string_list)
            .unwrap_or_else(|| task.target.clone());
        if targets.is_empty() {
            return vec![na(&self.name, &self.criterion, "the task has no target")];
        }
        let got = norm(&self.opts, &response.text);
        let hit = targets.iter().find(|t| norm(&self.opts, t) == got);
        let s = match hit {
            Some(t) => {
                Score::pass(&self.name, &self.criterion).explain(format!("answer equals {t:?}"))
            }
            None => Score::fail(&self.name, &self.criterion).explain(format!(
                "expected {}, got {:?}",
                fmt_targets(&targets),
                excerpt(&response.text, 120)
            )),
        };
        vec![s.with_value(if hit.is_some() { 1.0 } else { 0.0 })]
    }
}

fn fmt_targets(t: &[String]) -> String {
    if t.len() == 1 {
        format!("{:?}", t[0])
    } else {
        format!("one of {:?}", t)
    }
}

pub(crate) struct Contains {
    pub(crate) name: String,
    pub(crate) criterion: String,
    pub(crate) values: Option<Vec<String>>,
    pub(crate) opts: TextOpts,
}

impl Scorer for Contains {
    fn kind(&self) -> &str {
        "contains"
    }
    fn name(&self) -> &str {
        &self.name
    }
    fn score(&self, task: &Task, response: &Response) -> Vec<Score> {
        // `expect.contains` (or the scorer's `values`): every string must appear.
        // Otherwise the task's targets: any one must appear.
        let (needles, need_all) = match task.expect.get("contains").and_then(string_list) {
            Some(v) => (v, true),
            None => match &self.values {
                Some(v) => (v.clone(), true),
                None => (task.target.clone(), false),
            },
        };
        if needles.is_empty() {
            return vec![na(
                &self.name,
                &self.criterion,
                "nothing to look for: no `expect.contains` and no target",
            )];
        }
        let hay = if self.opts.ignore_case {
            response.text.to_lowercase()
        } else {
            response.text.clone()
        };
        let find = |n: &String| {
            let n = if self.opts.ignore_case {
                n.to_lowercase()
            } else {
                n.clone()
            };
            hay.find(&n)
        };
        let missing: Vec<&String> = needles.iter().filter(|n| find(n).is_none()).collect();
        let pass = if need_all {
            missing.is_empty()
        } else {
            missing.len() < needles.len()
        };
        let mut s = if pass {
            Score::pass(&self.name, &self.criterion)
        } else {
            Score::fail(&self.name, &self.criterion)
        };
        if pass {
            for n in &needles {
                if let Some(at) = find(n) {
                    let (l, c) = line_col(&hay, at);
                    s = s.with_evidence(Evidence::msg(format!("found {n:?}")).at(l, c));
                    if !need_all {
                        break;
                    }
                }
            }
        } else {
            for n in &missing {
                s = s.with_evidence(Evidence::msg(format!("missing {n:?}")));
            }
            s = s.explain(if need_all {
                format!(
                    "{} of {} required strings missing",
                    missing.len(),
                    needles.len()
                )
            } else {
                format!("none of {} found", fmt_targets(&needles))
            });
        }
        vec![s]
    }
}

pub(crate) struct RegexMatch {
    pub(crate) name: String,
    pub(crate) criterion: String,
    pub(crate) pattern: Option<Regex>,
    pub(crate) must_match: bool,
    pub(crate) opts: TextOpts,
}

impl Scorer for RegexMatch {
    fn kind(&self) -> &str {
        "regex"
    }
    fn name(&self) -> &str {
        &self.name
    }
    fn score(&self, task: &Task, response: &Response) -> Vec<Score> {
        let mut patterns: Vec<Regex> = Vec::new();
        if let Some(p) = &self.pattern {
            patterns.push(p.clone());
        }
        if let Some(list) = task.expect.get("regex").and_then(string_list) {
            for p in list {
                match self.opts.regex(&p) {
                    Ok(r) => patterns.push(r),
                    Err(e) => {
                        return vec![
                            Score::new(
                                &self.name,
                                &self.criterion,
                                verity_model::ScoreStatus::Error,
                            )
                            .explain(format!("task regex {p:?}: {e}")),
                        ];
                    }
                }
            }
        }
        if patterns.is_empty() {
            return vec![na(&self.name, &self.criterion, "no pattern for this task")];
        }
        let mut s = Score::pass(&self.name, &self.criterion);
        let mut failed = 0;
        for r in &patterns {
            match (r.find(&response.text), self.must_match) {
                (Some(m), true) => {
                    let (l, c) = line_col(&response.text, m.start());
                    s = s.with_evidence(
                        Evidence::msg(format!(
                            "/{}/ matched {:?}",
                            r.as_str(),
                            excerpt(m.as_str(), 80)
                        ))
                        .at(l, c),
                    );
                }
                (None, true) => {
                    failed += 1;
                    s = s.with_evidence(Evidence::msg(format!("/{}/ did not match", r.as_str())));
                }
                (Some(m), false) => {
                    failed += 1;
                    let (l, c) = line_col(&response.text, m.start());
                    s = s.with_evidence(
                        Evidence::msg(format!(
                            "/{}/ must not match but matched {:?}",
                            r.as_str(),
                            excerpt(m.as_str(), 80)
                        ))
                        .at(l, c),
                    );
                }
                (None, false) => {
                    s = s.with_evidence(Evidence::msg(format!(
                        "/{}/ absent, as required",
                        r.as_str()
                    )));
                }
            }
        }
        if failed > 0 {
            // The patterns that failed are the evidence that matters: list them first.
            s.evidence.sort_by_key(|e| {
                !(e.message.contains("did not match") || e.message.contains("must not match"))
            });
            s.status = verity_model::ScoreStatus::Fail;
            s = s.explain(format!("{failed} of {} patterns failed", patterns.len()));
        }
        vec![s]
    }
}

pub(crate) struct JsonValid {
    pub(crate) name: String,
    pub(crate) criterion: String,
    pub(crate) raw: bool,
}

impl Scorer for JsonValid {
    fn kind(&self) -> &str {
        "json-valid"
    }
    fn name(&self) -> &str {
        &self.name
    }
    fn score(&self, _task: &Task, response: &Response) -> Vec<Score> {
        let text = json_text(&response.text, self.raw);
        if text.trim().is_empty() {
            return vec![Score::fail(&self.name, &self.criterion).explain("empty answer: no JSON")];
        }
        match serde_json::from_str::<Value>(text) {
            Ok(v) => {
                let what = match v {
                    Value::Object(_) => "an object",
                    Value::Array(_) => "an array",
                    _ => "a scalar",
                };
                vec![
                    Score::pass(&self.name, &self.criterion)
                        .explain(format!("valid JSON ({what})")),
                ]
            }
            Err(e) => vec![
                Score::fail(&self.name, &self.criterion)
                    .explain(format!("invalid JSON: {e}"))
                    .with_evidence(
                        Evidence::msg(e.to_string()).at(e.line() as u32, e.column() as u32),
                    ),
            ],
        }
    }
}

/// Cross-epoch: passes when every epoch of a task gave the same answer after normalization
/// (`normalize`: none, trim, json, jcs; `ignore` and `sort_arrays` for the JSON modes).
///
/// The value is the share of epochs equal to the canonical answer (the most common normalized
/// answer; ties go to the earliest epoch). Metrics: `canonical_identical` (that share) and
/// `byte_identical` (the same share over the raw texts, before any normalization: 1 only
/// when every epoch answered byte for byte the same). Each epoch that differs gets evidence
/// lines locating its differences from the canonical answer (`json_diff`). An errored epoch is
/// an invalid run: the task fails, naming it.
pub(crate) struct Identical {
    pub(crate) name: String,
    pub(crate) criterion: String,
    pub(crate) normalize: Normalize,
    pub(crate) canon: CanonOpts,
}

/// One epoch's answer, normalized.
struct Normalized {
    text: String,
    /// The parsed and normalized answer, in the JSON modes when it parsed.
    json: Option<Value>,
    /// Why a JSON mode could not parse it.
    not_json: Option<String>,
}

impl Identical {
    fn normalized(&self, s: &str) -> Normalized {
        let plain = |text: String| Normalized {
            text,
            json: None,
            not_json: None,
        };
        match self.normalize {
            Normalize::None => plain(s.to_owned()),
            Normalize::Trim => plain(s.trim().to_owned()),
            Normalize::Json | Normalize::Jcs => match parse_answer(s) {
                Ok(mut v) => {
                    canon::apply(&self.canon, self.normalize, &mut v);
                    Normalized {
                        text: canon::canonical_text(self.normalize, &v),
                        json: Some(v),
                        not_json: None,
                    }
                }
                Err(e) => Normalized {
                    text: s.trim().to_owned(),
                    json: None,
                    not_json: Some(e.to_string()),
                },
            },
        }
    }
}

impl Scorer for Identical {
    fn kind(&self) -> &str {
        "identical"
    }
    fn name(&self) -> &str {
        &self.name
    }
    fn scope(&self) -> Scope {
        Scope::Epochs
    }
    fn score_group(&self, members: &[GroupMember<'_>]) -> Vec<Score> {
        if let Some(na) = too_few_epochs(&self.name, &self.criterion, members) {
            return na;
        }
        let errored = canon::errored_evidence(members);
        if !errored.is_empty() {
            let mut s = Score::fail(&self.name, &self.criterion)
                .explain(format!(
                    "{} of {} epochs errored: an errored epoch is an invalid run",
                    errored.len(),
                    members.len()
                ))
                .with_metric("invalid_epochs", errored.len() as f64);
            s.evidence = errored;
            return vec![s];
        }
        let norm: Vec<Normalized> = members
            .iter()
            .map(|m| self.normalized(&m.response.text))
            .collect();
        let texts: Vec<&str> = norm.iter().map(|n| n.text.as_str()).collect();
        let raw: Vec<&str> = members.iter().map(|m| m.response.text.as_str()).collect();
        let (modal, distinct) = canon::majority(&texts);
        let share = modal.len() as f64 / members.len() as f64;
        let byte = canon::modal_share(&raw);
        let modal_epochs: Vec<u32> = modal.iter().map(|&i| members[i].epoch).collect();
        let against = format!(
            "the canonical answer (epoch{} {})",
            if modal_epochs.len() == 1 { "" } else { "s" },
            json_diff::epoch_list(&modal_epochs)
        );
        let mut s = if distinct == 1 {
            Score::pass(&self.name, &self.criterion).explain(if byte < 1.0 {
                format!(
                    "all {} epochs identical after normalization; {} of them byte-identical",
                    members.len(),
                    canon::majority(&raw).0.len()
                )
            } else {
                format!("all {} epochs identical", members.len())
            })
        } else {
            Score::fail(&self.name, &self.criterion).explain(format!(
                "{distinct} distinct answers over {} epochs; {} match {against}",
                members.len(),
                modal.len()
            ))
        };
        let rep = &norm[modal[0]];
        for (m, n) in members.iter().zip(&norm) {
            if n.text == rep.text {
                continue;
            }
            if let Some(e) = &n.not_json {
                s = s.with_evidence(Evidence::msg(format!(
                    "epoch {} is not JSON ({}); compared as text",
                    m.epoch,
                    excerpt(e, 120)
                )));
            }
            let diff = match (&rep.json, &n.json) {
                (Some(a), Some(b)) => json_diff::diff_json(a, b, json_diff::DEFAULT_CAP),
                _ => json_diff::diff_text(&rep.text, &n.text, json_diff::DEFAULT_CAP),
            };
            s.evidence
                .extend(json_diff::differs_evidence(m.epoch, &against, &diff));
        }
        vec![
            s.with_value(share)
                .with_metric("canonical_identical", share)
                .with_metric("byte_identical", byte),
        ]
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use verity_model::{ScoreStatus, ScorerSpec, SourceLoc};

    use verity_catalog::{check_spec, check_task, criteria};

    use super::*;
    use crate::build;

    fn spec(kind: &str, options: Value) -> ScorerSpec {
        ScorerSpec {
            kind: kind.into(),
            name: None,
            options: options.as_object().cloned().unwrap_or_default(),
            source: SourceLoc::default(),
        }
    }

    fn resp(t: &str) -> Response {
        Response {
            text: t.into(),
            ..Response::default()
        }
    }

    fn task(target: &[&str], expect: Value) -> Task {
        let mut t = Task::prompt("t", "p");
        t.target = target.iter().map(|s| s.to_string()).collect();
        t.expect = expect.as_object().cloned().unwrap_or_default();
        t
    }

    fn run(kind: &str, opts: Value, t: &Task, answer: &str) -> Score {
        build(&spec(kind, opts))
            .unwrap()
            .score(t, &resp(answer))
            .remove(0)
    }

    #[test]
    fn equals_cases() {
        let t = task(&["42"], json!({}));
        assert_eq!(
            run("equals", json!({}), &t, " 42\n").status,
            ScoreStatus::Pass
        );
        assert_eq!(run("equals", json!({}), &t, "43").status, ScoreStatus::Fail);
        assert_eq!(
            run("equals", json!({"trim": false}), &t, " 42").status,
            ScoreStatus::Fail
        );
        let t2 = task(&["Paris"], json!({}));
        assert_eq!(
            run("equals", json!({"ignore_case": true}), &t2, "paris").status,
            ScoreStatus::Pass
        );
        assert_eq!(
            run("equals", json!({}), &task(&[], json!({})), "x").status,
            ScoreStatus::NotApplicable
        );
    }

    #[test]
    fn contains_cases() {
        let t = task(&[], json!({"contains": ["foo", "bar"]}));
        assert_eq!(
            run("contains", json!({}), &t, "foo and bar").status,
            ScoreStatus::Pass
        );
        let s = run("contains", json!({}), &t, "foo only");
        assert_eq!(s.status, ScoreStatus::Fail);
        assert_eq!(s.evidence[0].message, "missing \"bar\"");
        let any = task(&["x", "y"], json!({}));
        assert_eq!(
            run("contains", json!({}), &any, "has y").status,
            ScoreStatus::Pass
        );
    }

    #[test]
    fn regex_cases() {
        let t = task(&[], json!({"regex": "^ans: \\d+$"}));
        let s = run("regex", json!({}), &t, "intro\nans: 12");
        assert_eq!(s.status, ScoreStatus::Pass);
        assert_eq!(s.evidence[0].line, Some(2));
        assert_eq!(
            run("regex", json!({}), &t, "ans: x").status,
            ScoreStatus::Fail
        );
        let neg = task(&[], json!({}));
        assert_eq!(
            run(
                "regex",
                json!({"pattern": "TODO", "must_match": false}),
                &neg,
                "done"
            )
            .status,
            ScoreStatus::Pass
        );
        assert_eq!(
            run(
                "regex",
                json!({"pattern": "TODO", "must_match": false}),
                &neg,
                "a TODO"
            )
            .status,
            ScoreStatus::Fail
        );
    }

    #[test]
    fn json_valid_cases() {
        let t = task(&[], json!({}));
        assert_eq!(
            run("json-valid", json!({}), &t, "```json\n{\"a\": 1}\n```").status,
            ScoreStatus::Pass
        );
        let s = run("json-valid", json!({}), &t, "{\"a\": }");
        assert_eq!(s.status, ScoreStatus::Fail);
        assert_eq!(s.evidence[0].line, Some(1));
        assert_eq!(
            run(
                "json-valid",
                json!({"extract": "raw"}),
                &t,
                "```json\n{}\n```"
            )
            .status,
            ScoreStatus::Fail
        );
    }

    fn epochs<'a>(t: &'a Task, rs: &'a [Response]) -> Vec<GroupMember<'a>> {
        rs.iter()
            .enumerate()
            .map(|(e, r)| GroupMember {
                task: t,
                epoch: e as u32,
                response: r,
            })
            .collect()
    }

    fn messages(s: &Score) -> Vec<&str> {
        s.evidence.iter().map(|e| e.message.as_str()).collect()
    }

    #[test]
    fn identical_across_epochs() {
        let sc = build(&spec("identical", json!({"normalize": "json"}))).unwrap();
        assert_eq!(sc.scope(), Scope::Epochs);
        let t = task(&[], json!({}));
        let rs = [
            resp("{\"x\":1,\"y\":2}"),
            resp("{\"y\":2,\"x\":1}"),
            resp("{\"x\":3}"),
        ];
        let same = sc.score_group(&epochs(&t, &rs[..2]));
        assert_eq!(same[0].status, ScoreStatus::Pass);
        // Equal after normalization, not byte for byte.
        assert_eq!(same[0].metrics["canonical_identical"], 1.0);
        assert_eq!(same[0].metrics["byte_identical"], 0.5);
        let diff = sc.score_group(&epochs(&t, &rs));
        assert_eq!(diff[0].status, ScoreStatus::Fail);
        assert!((diff[0].value.unwrap() - 2.0 / 3.0).abs() < 1e-12);
        assert!((diff[0].metrics["byte_identical"] - 1.0 / 3.0).abs() < 1e-12);
        assert_eq!(
            messages(&diff[0]),
            [
                "epoch 2 differs from the canonical answer (epochs 0,1) at $.x: 1 → 3",
                "epoch 2 differs from the canonical answer (epochs 0,1) at $.y: removed 2",
            ]
        );
    }

    /// The canonical answer is the majority; a tie goes to the earliest epoch.
    #[test]
    fn identical_diffs_against_the_majority() {
        let sc = build(&spec("identical", json!({"normalize": "jcs"}))).unwrap();
        let t = task(&[], json!({}));
        let doc = |title: &str, n: usize| {
            resp(&json!({"views": [{"title": title, "fields": vec!["f"; n]}]}).to_string())
        };
        let rs = [
            doc("User list", 1),
            doc("Users", 2),
            doc("Users", 2),
            doc("Users", 2),
        ];
        let s = sc.score_group(&epochs(&t, &rs)).remove(0);
        assert_eq!(s.value, Some(0.75));
        assert_eq!(
            s.explanation.as_deref(),
            Some("2 distinct answers over 4 epochs; 3 match the canonical answer (epochs 1,2,3)")
        );
        assert_eq!(
            messages(&s),
            [
                "epoch 0 differs from the canonical answer (epochs 1,2,3) at $.views[0].title: \"Users\" → \"User list\"",
                "epoch 0 differs from the canonical answer (epochs 1,2,3) at $.views[0].fields: 2 → 1 elements",
            ]
        );
        let tie = sc.score_group(&epochs(&t, &rs[..2])).remove(0);
        assert!(
            messages(&tie)[0].starts_with("epoch 1 differs from the canonical answer (epoch 0)")
        );
        // Text answers get a line diff.
        let plain = build(&spec("identical", json!({}))).unwrap();
        let rs = [resp("a\nb\nc"), resp("a\nb\nc\n"), resp("a\nB\nc")];
        let s = plain.score_group(&epochs(&t, &rs)).remove(0);
        assert_eq!(s.metrics["byte_identical"], 1.0 / 3.0);
        assert_eq!(
            messages(&s),
            ["epoch 2 differs from the canonical answer (epochs 0,1) at line 2: \"b\" → \"B\""]
        );
    }

    #[test]
    fn identical_ignores_and_sorts_before_comparing() {
        let t = task(&[], json!({}));
        let rs = [
            resp(
                r#"{"id": 1, "meta": {"generated_at": "09:00"}, "views": [{"id": 5, "fields": ["a", "b"]}]}"#,
            ),
            resp(
                r#"{"id": 2, "meta": {"generated_at": "09:01"}, "views": [{"id": 6, "fields": ["b", "a"]}]}"#,
            ),
        ];
        let loose = build(&spec(
            "identical",
            json!({"normalize": "jcs", "ignore": ["$..id", "$.meta.generated_at"], "sort_arrays": ["$.views[*].fields"]}),
        ))
        .unwrap();
        let s = loose.score_group(&epochs(&t, &rs)).remove(0);
        assert_eq!(s.status, ScoreStatus::Pass, "{:?}", s.evidence);
        assert_eq!(s.metrics["byte_identical"], 0.5);
        let strict = build(&spec(
            "identical",
            json!({"normalize": "jcs", "ignore": ["$..id"]}),
        ))
        .unwrap();
        let s = strict.score_group(&epochs(&t, &rs)).remove(0);
        assert_eq!(s.status, ScoreStatus::Fail);
        assert_eq!(
            messages(&s),
            [
                "epoch 1 differs from the canonical answer (epoch 0) at $.meta.generated_at: \"09:00\" → \"09:01\"",
                "epoch 1 differs from the canonical answer (epoch 0) at $.views[0].fields[0]: \"a\" → \"b\"",
                "epoch 1 differs from the canonical answer (epoch 0) at $.views[0].fields[1]: \"b\" → \"a\"",
            ]
        );
    }

    #[test]
    fn identical_fails_on_an_errored_epoch() {
        let sc = build(&spec("identical", json!({"normalize": "jcs"}))).unwrap();
        let t = task(&[], json!({}));
        let mut broken = resp("");
        broken.error = Some(verity_model::ResponseError {
            kind: "timeout".into(),
            message: "no answer in 60 s".into(),
        });
        let rs = [resp("{}"), broken, resp("{}")];
        let s = sc.score_group(&epochs(&t, &rs)).remove(0);
        assert_eq!(s.status, ScoreStatus::Fail);
        assert_eq!(s.metrics["invalid_epochs"], 1.0);
        assert_eq!(
            messages(&s),
            ["epoch 1 errored (timeout): no answer in 60 s — an invalid run"]
        );
    }

    /// `criteria` names exactly what the built scorers report, named or not; the suite
    /// loader checks `[outcome]` against it.
    #[test]
    fn criteria_are_what_the_scorers_report() {
        let t = task(&["x"], json!({"regex": "x", "contains": "x"}));
        let r = resp("x");
        for kind in [
            "equals",
            "contains",
            "regex",
            "json-valid",
            "identical",
            "similarity",
        ] {
            for name in [None, Some("renamed")] {
                let mut sp = spec(kind, json!({}));
                sp.name = name.map(str::to_owned);
                let scorer = build(&sp).unwrap();
                let scores = match scorer.scope() {
                    verity_model::Scope::Sample => scorer.score(&t, &r),
                    _ => scorer.score_group(&[
                        verity_model::GroupMember {
                            task: &t,
                            epoch: 0,
                            response: &r,
                        },
                        verity_model::GroupMember {
                            task: &t,
                            epoch: 1,
                            response: &r,
                        },
                    ]),
                };
                let reported: Vec<String> = scores.into_iter().map(|s| s.criterion).collect();
                assert!(!reported.is_empty(), "{kind}");
                assert_eq!(Some(reported), criteria(&sp), "{kind} {name:?}");
            }
        }
        let swift = spec("swift", json!({"criteria": {"parse": "compiles"}}));
        assert_eq!(
            criteria(&swift).unwrap(),
            [
                "compiles",
                "symbols_exist",
                "availability_ok",
                "no_deprecated"
            ]
        );
        assert_eq!(criteria(&spec("nope", json!({}))), None);
    }

    #[test]
    fn config_checks_name_keys() {
        let bad = check_spec(&spec("regex", json!({"pattern": "((", "colour": 1})));
        let keys: Vec<_> = bad.iter().map(|i| i.key.clone().unwrap()).collect();
        assert_eq!(keys, ["colour", "pattern"]);
        assert!(
            check_spec(&spec("nope", json!({})))[0]
                .message
                .contains("unknown scorer kind")
        );
        let t = task(&[], json!({"regex": ["ok", "[unclosed"]}));
        let issues = check_task(&spec("regex", json!({})), &t);
        assert_eq!(issues.len(), 1);
        assert_eq!(issues[0].key.as_deref(), Some("expect.regex"));
        assert!(build(&spec("regex", json!({"pattern": "(("}))).is_err());
        let msg = &check_spec(&spec("regex", json!({"pattern": "ab(c"})))[0].message;
        assert_eq!(
            msg,
            "invalid regex: unclosed group at column 3 of the pattern"
        );
    }
}
