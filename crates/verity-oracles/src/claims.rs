//! The `claims` scorer (seed 003): an extractor's claims against a fixture's expectations.
//!
//! The answer is JSON `{"claims": [{"subject", "predicate", "value", "confidence"?, "line"?}]}`
//! (in a fenced block or bare). Matching is seed 003 §7's: subjects agree on their last `tail`
//! segments (split on `/` and `.`), predicates are equal, values match with type coercion
//! (booleans, numbers within 0.001, strings; `"true"`, `"yes"`, `"on"`, `"enabled"`, `"1"` and
//! their negatives are booleans). Claims below the fixture's `min_confidence` (minus the
//! tolerance) are dropped first.
//!
//! Counts, each multiplied by the fixture's `weight`: tp = expected claims found, fn =
//! expected claims missing, fp = `must_not_contain` violations plus (unless `unexpected =
//! "ignore"`) extracted claims that match no expected claim. All three ride on the
//! `must_contain` score, so the report's precision / recall / F1 are the fixture's.

use serde_json::Value;
use verity_catalog::claims::ClaimsOpts;
use verity_model::{Evidence, Response, Score, ScoreStatus, Scorer, Task};

use crate::common::{excerpt, strip_fence};

/// One extracted claim.
#[derive(Clone, Debug, PartialEq)]
pub struct Claim {
    pub subject: String,
    pub predicate: String,
    pub value: Value,
    pub confidence: Option<f64>,
    /// The source line the extractor cites.
    pub line: Option<u64>,
}

impl Claim {
    fn show(&self) -> String {
        let line = self
            .line
            .map(|l| format!(" (line {l})"))
            .unwrap_or_default();
        format!("{} {} = {}{line}", self.subject, self.predicate, self.value)
    }
}

/// Why an answer is not a claim list, and where (1-based, in the whole answer).
#[derive(Clone, Debug, PartialEq)]
pub struct ParseProblem {
    pub message: String,
    pub line: Option<u32>,
    pub column: Option<u32>,
}

/// The claims of an answer: the first fenced block (unless `raw`), parsed as JSON, checked
/// against the claim-list shape.
pub fn parse_claims(answer: &str, raw: bool) -> Result<Vec<Claim>, ParseProblem> {
    let body = if raw {
        answer
    } else {
        strip_fence(answer, "json")
    };
    // Where `body` starts in the answer, to report positions in the answer's own lines.
    let offset = (body.as_ptr() as usize).saturating_sub(answer.as_ptr() as usize);
    let lines_before = answer[..offset.min(answer.len())].matches('\n').count() as u32;
    let v: Value = serde_json::from_str(body.trim_end()).map_err(|e| ParseProblem {
        message: format!("the answer is not JSON: {e}"),
        line: (e.line() > 0).then(|| e.line() as u32 + lines_before),
        column: (e.column() > 0).then(|| e.column() as u32),
    })?;
    let shape = |m: String| ParseProblem {
        message: format!("the answer is not a claim list: {m}"),
        line: None,
        column: None,
    };
    let list = v
        .get("claims")
        .and_then(Value::as_array)
        .ok_or_else(|| shape("expected an object with a `claims` array".into()))?;
    let mut out = Vec::with_capacity(list.len());
    for (i, c) in list.iter().enumerate() {
        let field = |k: &str| -> Result<String, ParseProblem> {
            match c.get(k) {
                Some(Value::String(s)) => Ok(s.trim().to_owned()),
                Some(_) => Err(shape(format!("claims[{i}].{k} must be a string"))),
                None => Err(shape(format!("claims[{i}] has no `{k}`"))),
            }
        };
        if !c.is_object() {
            return Err(shape(format!("claims[{i}] must be an object")));
        }
        let value = match c.get("value") {
            Some(v @ (Value::Bool(_) | Value::Number(_) | Value::String(_))) => v.clone(),
            Some(Value::Null) | None => {
                return Err(shape(format!("claims[{i}] has no `value`")));
            }
            Some(_) => {
                return Err(shape(format!(
                    "claims[{i}].value must be a boolean, a number or a string"
                )));
            }
        };
        let confidence = match c.get("confidence") {
            None | Some(Value::Null) => None,
            Some(v) => Some(
                v.as_f64()
                    .filter(|x| x.is_finite())
                    .ok_or_else(|| shape(format!("claims[{i}].confidence must be a number")))?,
            ),
        };
        let line = match c.get("line") {
            None | Some(Value::Null) => None,
            Some(v) => Some(
                v.as_u64()
                    .or_else(|| {
                        v.as_f64()
                            .filter(|x| *x >= 0.0 && x.fract() == 0.0)
                            .map(|x| x as u64)
                    })
                    .ok_or_else(|| shape(format!("claims[{i}].line must be a whole number")))?,
            ),
        };
        out.push(Claim {
            subject: field("subject")?,
            predicate: field("predicate")?,
            value,
            confidence,
            line,
        });
    }
    Ok(out)
}

/// The last `tail` segments of a subject path, split on `/` and `.`.
fn tail(subject: &str, n: usize) -> Vec<&str> {
    let segs: Vec<&str> = subject
        .split(['/', '.'])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    segs[segs.len().saturating_sub(n)..].to_vec()
}

/// Whether two claims say the same thing (seed §7): subjects agree on their last `n` segments,
/// predicates are equal (trimmed), values match with coercion. The scorer matches an extracted
/// claim against an expected one with it, and `stability` two extracted claims.
pub(crate) fn same_claim(
    (subject_a, predicate_a, value_a): (&str, &str, &Value),
    (subject_b, predicate_b, value_b): (&str, &str, &Value),
    n: usize,
) -> bool {
    tail(subject_a, n) == tail(subject_b, n)
        && predicate_a.trim() == predicate_b.trim()
        && value_matches(value_a, value_b)
}

/// A string as a boolean, the seed's way.
pub fn coerce_bool(s: &str) -> Option<bool> {
    match s.trim().to_ascii_lowercase().as_str() {
        "true" | "yes" | "on" | "enabled" | "1" => Some(true),
        "false" | "no" | "off" | "disabled" | "0" => Some(false),
        _ => None,
    }
}

/// Whether two claim values mean the same, with the seed's coercions (in both directions).
pub fn value_matches(got: &Value, want: &Value) -> bool {
    let num = |a: f64, b: f64| (a - b).abs() < 0.001;
    match (got, want) {
        (Value::Bool(a), Value::Bool(b)) => a == b,
        (Value::Number(a), Value::Number(b)) => match (a.as_f64(), b.as_f64()) {
            (Some(a), Some(b)) => num(a, b),
            _ => false,
        },
        (Value::String(a), Value::String(b)) => a.trim() == b.trim(),
        (Value::Bool(b), Value::String(s)) | (Value::String(s), Value::Bool(b)) => {
            coerce_bool(s) == Some(*b)
        }
        (Value::Number(n), Value::String(s)) | (Value::String(s), Value::Number(n)) => {
            match (n.as_f64(), s.trim().parse::<f64>()) {
                (Some(a), Ok(b)) => num(a, b),
                _ => false,
            }
        }
        (Value::Number(n), Value::Bool(b)) | (Value::Bool(b), Value::Number(n)) => n
            .as_f64()
            .is_some_and(|x| num(x, if *b { 1.0 } else { 0.0 })),
        _ => false,
    }
}

/// An expected (or forbidden) claim of a fixture.
struct Expected<'t> {
    subject: &'t str,
    predicate: &'t str,
    value: &'t Value,
    rationale: Option<&'t str>,
}

impl Expected<'_> {
    fn show(&self) -> String {
        format!("{} {} = {}", self.subject, self.predicate, self.value)
    }
}

fn expected<'t>(task: &'t Task, key: &str) -> Vec<Expected<'t>> {
    task.expect
        .get(key)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|e| {
            Some(Expected {
                subject: e.get("subject")?.as_str()?,
                predicate: e.get("predicate")?.as_str()?,
                value: e.get("value")?,
                rationale: e.get("rationale").and_then(Value::as_str),
            })
        })
        .collect()
}

pub(crate) struct Claims {
    pub(crate) name: String,
    pub(crate) opts: ClaimsOpts,
}

impl Claims {
    fn matches(&self, c: &Claim, e: &Expected<'_>) -> bool {
        same_claim(
            (&c.subject, &c.predicate, &c.value),
            (e.subject, e.predicate, e.value),
            self.opts.tail,
        )
    }
}

fn evidence(message: String, line: Option<u64>) -> Evidence {
    let mut e = Evidence::msg(message);
    e.line = line.and_then(|l| u32::try_from(l).ok());
    e
}

impl Scorer for Claims {
    fn kind(&self) -> &str {
        "claims"
    }
    fn name(&self) -> &str {
        &self.name
    }
    fn score(&self, task: &Task, response: &Response) -> Vec<Score> {
        let weight = task
            .expect
            .get("weight")
            .and_then(Value::as_f64)
            .filter(|w| w.is_finite() && *w >= 0.0)
            .unwrap_or(1.0);
        let want = expected(task, "must_contain");
        let forbidden = expected(task, "must_not_contain");
        let [must, must_not] = verity_catalog::claims::CRITERIA;
        let claims = match parse_claims(&response.text, self.opts.raw) {
            Ok(c) => c,
            Err(p) => {
                // Not an answer: every expected claim is missed, nothing is extracted.
                let mut ev = Evidence::msg(p.message.clone());
                ev.line = p.line;
                ev.column = p.column;
                ev.snippet = Some(excerpt(&response.text, 200));
                let fail = |criterion: &str| {
                    Score::fail(&self.name, criterion)
                        .explain(p.message.clone())
                        .with_evidence(ev.clone())
                };
                return vec![
                    fail(must)
                        .with_value(0.0)
                        .with_metric("tp", 0.0)
                        .with_metric("fp", 0.0)
                        .with_metric("fn", want.len() as f64 * weight),
                    fail(must_not),
                ];
            }
        };
        let floor = task
            .expect
            .get("min_confidence")
            .and_then(Value::as_f64)
            .or(self.opts.min_confidence)
            .map(|m| m - self.opts.confidence_tolerance);
        let (kept, dropped): (Vec<&Claim>, Vec<&Claim>) =
            claims.iter().partition(|c| match (floor, c.confidence) {
                (Some(f), Some(conf)) => conf >= f - 1e-12,
                _ => true,
            });
        let dropped_ev: Vec<Evidence> = dropped
            .iter()
            .map(|c| {
                evidence(
                    format!(
                        "dropped below min_confidence {:.2}: {} (confidence {:.2})",
                        floor.unwrap_or_default(),
                        c.show(),
                        c.confidence.unwrap_or_default()
                    ),
                    c.line,
                )
            })
            .collect();

        // must_contain: each expected claim found among the kept ones?
        let mut missing = Vec::new();
        let mut found = 0usize;
        for e in &want {
            if kept.iter().any(|c| self.matches(c, e)) {
                found += 1;
            } else {
                missing.push(e);
            }
        }
        // must_not_contain, and claims nobody expected.
        let mut violations = Vec::new();
        let mut unexpected = Vec::new();
        for c in &kept {
            if let Some(f) = forbidden.iter().find(|f| self.matches(c, f)) {
                violations.push((*c, f));
            } else if !want.iter().any(|e| self.matches(c, e)) {
                unexpected.push(*c);
            }
        }
        let counted_unexpected = if self.opts.count_unexpected {
            unexpected.len()
        } else {
            0
        };
        let (tp, fn_) = (found as f64 * weight, missing.len() as f64 * weight);
        let fp = (violations.len() + counted_unexpected) as f64 * weight;

        let mut must_score = if want.is_empty() {
            Score::new(&self.name, must, ScoreStatus::NotApplicable)
                .explain("the fixture expects no claims")
        } else if missing.is_empty() {
            Score::pass(&self.name, must)
                .explain(format!("found all {} expected claims", want.len()))
        } else {
            let first = missing[0];
            let why = first
                .rationale
                .map(|r| format!(" ({r})"))
                .unwrap_or_default();
            Score::fail(&self.name, must).explain(format!(
                "found {found} of {} expected claims; missing {}{why}",
                want.len(),
                first.show()
            ))
        };
        if !want.is_empty() {
            must_score = must_score.with_value(found as f64 / want.len() as f64);
        }
        for e in &missing {
            let why = e.rationale.map(|r| format!(": {r}")).unwrap_or_default();
            must_score =
                must_score.with_evidence(Evidence::msg(format!("missing {}{why}", e.show())));
        }
        for d in &dropped_ev {
            must_score = must_score.with_evidence(d.clone());
        }
        must_score = must_score
            .with_metric("tp", tp)
            .with_metric("fp", fp)
            .with_metric("fn", fn_);

        let bad = violations.len() + counted_unexpected;
        let mut not_score = if forbidden.is_empty() && !self.opts.count_unexpected {
            Score::new(&self.name, must_not, ScoreStatus::NotApplicable)
                .explain("nothing is forbidden and unexpected claims are ignored")
        } else if bad == 0 {
            Score::pass(&self.name, must_not).explain(format!(
                "no forbidden{} claim among {} extracted",
                if self.opts.count_unexpected {
                    " or unexpected"
                } else {
                    ""
                },
                kept.len()
            ))
        } else if let Some((c, _)) = violations.first() {
            Score::fail(&self.name, must_not).explain(format!(
                "{} forbidden claim{} extracted, first: {}",
                violations.len(),
                if violations.len() == 1 { "" } else { "s" },
                c.show()
            ))
        } else {
            Score::fail(&self.name, must_not).explain(format!(
                "{counted_unexpected} unexpected claim{} extracted, first: {}",
                if counted_unexpected == 1 { "" } else { "s" },
                unexpected[0].show()
            ))
        };
        for (c, f) in &violations {
            let why = f.rationale.map(|r| format!(" ({r})")).unwrap_or_default();
            not_score =
                not_score.with_evidence(evidence(format!("forbidden: {}{why}", c.show()), c.line));
        }
        if self.opts.count_unexpected {
            for c in &unexpected {
                not_score =
                    not_score.with_evidence(evidence(format!("unexpected: {}", c.show()), c.line));
            }
        }
        vec![must_score, not_score.with_value(bad as f64)]
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn coercion_follows_the_seed() {
        for (got, want) in [
            (json!(true), json!("true")),
            (json!("yes"), json!(true)),
            (json!("Enabled"), json!(true)),
            (json!("off"), json!(false)),
            (json!("0"), json!(false)),
            (json!(1.0004), json!(1)),
            (json!("443"), json!(443)),
            (json!(443), json!("443.0")),
            (json!(1), json!(true)),
            (json!("TLSv1.0"), json!(" TLSv1.0 ")),
        ] {
            assert!(value_matches(&got, &want), "{got} ~ {want}");
        }
        for (got, want) in [
            (json!(true), json!(false)),
            (json!("maybe"), json!(true)),
            (json!(1.002), json!(1)),
            (json!("abc"), json!(1)),
            (json!("true"), json!("yes")),
            (json!(2), json!(true)),
        ] {
            assert!(!value_matches(&got, &want), "{got} !~ {want}");
        }
    }

    #[test]
    fn subjects_match_on_their_tail() {
        assert_eq!(
            tail("app/config/tls/cert_verification", 2),
            ["tls", "cert_verification"]
        );
        assert_eq!(
            tail("config.tls.cert_verification", 2),
            ["tls", "cert_verification"]
        );
        assert_eq!(tail("cert_verification", 2), ["cert_verification"]);
        assert_eq!(tail("a//b/", 2), ["a", "b"]);
    }

    #[test]
    fn parse_errors_point_into_the_answer() {
        let e = parse_claims(
            "Here:\n```json\n{\"claims\": [\n  {\"subject\": }\n]}\n```",
            false,
        )
        .unwrap_err();
        assert!(e.message.starts_with("the answer is not JSON"), "{e:?}");
        assert_eq!(e.line, Some(4), "{e:?}");
        let e = parse_claims(
            "{\"claims\": [{\"subject\": \"a\", \"predicate\": 3, \"value\": 1}]}",
            false,
        )
        .unwrap_err();
        assert_eq!(
            e.message,
            "the answer is not a claim list: claims[0].predicate must be a string"
        );
        let e = parse_claims("[]", false).unwrap_err();
        assert!(e.message.contains("`claims` array"), "{e:?}");
        let ok = parse_claims("{\"claims\": [{\"subject\": \"a/b\", \"predicate\": \"p\", \"value\": false, \"confidence\": 0.9, \"line\": 3}]}", false).unwrap();
        assert_eq!(ok[0].line, Some(3));
        assert_eq!(ok[0].confidence, Some(0.9));
    }
}

#[cfg(test)]
mod scorer_tests {
    use serde_json::{Value, json};
    use verity_model::{Response, ScoreStatus, ScorerSpec, SourceLoc, Task};

    use crate::build;

    fn scorer(options: Value) -> Box<dyn verity_model::Scorer> {
        build(&ScorerSpec {
            kind: "claims".into(),
            name: None,
            options: options.as_object().cloned().unwrap_or_default(),
            source: SourceLoc::default(),
        })
        .unwrap()
    }

    /// Seed 003's tls-001 fixture.
    fn tls_001(weight: f64) -> Task {
        let mut t = Task::prompt("tls-001", "import requests ...");
        t.expect = json!({
            "must_contain": [
                {"subject": "tls/cert_verification", "predicate": "enabled", "value": false,
                 "rationale": "requests.get(verify=False) explicitly disables TLS verification"},
                {"subject": "http/client", "predicate": "library", "value": "requests"},
            ],
            "must_not_contain": [
                {"subject": "tls/cert_verification", "predicate": "enabled", "value": true},
            ],
            "weight": weight,
            "min_confidence": 0.8,
        })
        .as_object()
        .cloned()
        .unwrap();
        t
    }

    fn answer(claims: Value) -> Response {
        Response {
            text: format!("```json\n{}\n```", json!({ "claims": claims })),
            ..Response::default()
        }
    }

    fn counts(s: &verity_model::Score) -> (f64, f64, f64) {
        (s.metrics["tp"], s.metrics["fp"], s.metrics["fn"])
    }

    #[test]
    fn counts_are_weighted_and_coerced() {
        // Found: cert_verification (as the string "disabled", a deeper path). Missing: the
        // library. Extra: one unexpected claim. Dropped: a low-confidence one.
        let r = answer(json!([
            {"subject": "app.config.tls.cert_verification", "predicate": "enabled", "value": "disabled", "confidence": 0.95, "line": 5},
            {"subject": "net/timeout", "predicate": "seconds", "value": 30, "confidence": 0.9, "line": 6},
            {"subject": "http/client", "predicate": "library", "value": "requests", "confidence": 0.5},
        ]));
        let s = scorer(json!({})).score(&tls_001(2.0), &r);
        assert_eq!(s[0].criterion, "must_contain");
        assert_eq!(s[0].status, ScoreStatus::Fail);
        // tp 1·2, fp 1·2 (the unexpected timeout), fn 1·2 (the dropped library claim).
        assert_eq!(counts(&s[0]), (2.0, 2.0, 2.0));
        assert_eq!(s[0].value, Some(0.5));
        let ev: Vec<&str> = s[0].evidence.iter().map(|e| e.message.as_str()).collect();
        assert!(
            ev.iter()
                .any(|m| m.starts_with("missing http/client library = \"requests\"")),
            "{ev:?}"
        );
        assert!(
            ev.iter()
                .any(|m| m.starts_with("dropped below min_confidence 0.80")),
            "{ev:?}"
        );
        assert_eq!(s[1].criterion, "must_not_contain");
        assert_eq!(s[1].status, ScoreStatus::Fail);
        assert_eq!(s[1].evidence[0].line, Some(6));
        assert!(
            s[1].explanation
                .as_deref()
                .unwrap()
                .contains("1 unexpected claim")
        );

        // `unexpected = "ignore"`, and a tolerance that lowers the floor to 0.8 − 0.3 = 0.5, so
        // the library claim (confidence 0.5) is kept and found.
        let s = scorer(json!({"unexpected": "ignore", "confidence_tolerance": 0.3}))
            .score(&tls_001(1.0), &r);
        assert_eq!(counts(&s[0]), (2.0, 0.0, 0.0));
        assert_eq!(s[0].status, ScoreStatus::Pass);
        assert_eq!(s[1].status, ScoreStatus::Pass);
    }

    #[test]
    fn a_forbidden_claim_is_a_false_positive_with_its_line() {
        let r = answer(json!([
            {"subject": "tls/cert_verification", "predicate": "enabled", "value": "true", "confidence": 0.99, "line": 4},
        ]));
        let s = scorer(json!({})).score(&tls_001(1.0), &r);
        // Nothing expected found (2 missing), one forbidden claim.
        assert_eq!(counts(&s[0]), (0.0, 1.0, 2.0));
        assert_eq!(s[1].status, ScoreStatus::Fail);
        assert_eq!(s[1].evidence[0].line, Some(4));
        assert!(
            s[1].evidence[0]
                .message
                .starts_with("forbidden: tls/cert_verification enabled = \"true\"")
        );
    }

    #[test]
    fn a_negative_fixture_passes_on_no_claims_and_counts_extras() {
        let mut t = Task::prompt("neg-001", "x = os.environ['KEY']");
        t.expect = serde_json::Map::new();
        let s = scorer(json!({})).score(&t, &answer(json!([])));
        assert_eq!(s[0].status, ScoreStatus::NotApplicable);
        assert_eq!(counts(&s[0]), (0.0, 0.0, 0.0));
        assert_eq!(s[1].status, ScoreStatus::Pass);
        let s = scorer(json!({})).score(
            &t,
            &answer(json!([{"subject": "secrets/key", "predicate": "hardcoded", "value": true}])),
        );
        assert_eq!(counts(&s[0]), (0.0, 1.0, 0.0));
        assert_eq!(s[1].status, ScoreStatus::Fail);
    }

    #[test]
    fn a_broken_answer_fails_with_where() {
        let r = Response {
            text: "{\"claims\": [\n  {\"subject\": \"a\",}\n]}".into(),
            ..Response::default()
        };
        let s = scorer(json!({})).score(&tls_001(1.0), &r);
        assert_eq!(s[0].status, ScoreStatus::Fail);
        assert_eq!(s[1].status, ScoreStatus::Fail);
        assert_eq!(counts(&s[0]), (0.0, 0.0, 2.0));
        assert_eq!(s[0].evidence[0].line, Some(2));
        assert!(
            s[0].explanation
                .as_deref()
                .unwrap()
                .starts_with("the answer is not JSON")
        );
    }

    #[test]
    fn bad_expectations_are_found_before_a_run() {
        let mut t = Task::prompt("x", "p");
        t.expect = json!({
            "must_contain": [{"subject": "a", "value": [1]}, "nope", {"subject": "a", "predicate": "b", "value": 1, "rationale": 3, "why": "x"}],
            "weight": -1,
            "min_confidence": 2,
        })
        .as_object()
        .cloned()
        .unwrap();
        let spec = ScorerSpec {
            kind: "claims".into(),
            name: None,
            options: Default::default(),
            source: SourceLoc::default(),
        };
        let msgs: Vec<String> = verity_catalog::check_task(&spec, &t)
            .into_iter()
            .map(|i| format!("{}: {}", i.key.unwrap_or_default(), i.message))
            .collect();
        assert_eq!(
            msgs,
            [
                "expect.must_contain: must_contain[0]: missing `predicate`",
                "expect.must_contain: must_contain[0]: `value` must be a boolean, a number or a string",
                "expect.must_contain: must_contain[1] must be a table with subject, predicate and value",
                "expect.must_contain: must_contain[2]: `rationale` must be a string",
                "expect.must_contain: must_contain[2]: unknown key `why` (an expected claim has subject, predicate, value, rationale)",
                "expect.weight: `weight` must be a number, 0 or more",
                "expect.min_confidence: `min_confidence` must be a number from 0 to 1",
            ]
        );
        let bad = verity_catalog::check_spec(&ScorerSpec {
            options: json!({"unexpected": "drop", "tail": 0, "min_confidence": 1.5})
                .as_object()
                .cloned()
                .unwrap(),
            ..spec
        });
        assert_eq!(bad.len(), 3, "{bad:?}");
    }
}
