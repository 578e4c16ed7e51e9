//! The `json-schema` scorer (seed 004, validity): does the answer satisfy a JSON Schema
//! (criterion `schema`), and do the suite's declared integrity rules hold on it (criterion
//! `integrity`, only when there are rules)? Options, the rule language and the schema's
//! compilation are `verity_catalog::schema`'s.
//!
//! Every schema error and every broken rule is one piece of evidence naming the JSON path of
//! the offending value (`$.views[2].fields[0]`); at most [`MAX_EVIDENCE`] per criterion, and
//! the last says how many more there were. An answer that is not JSON fails both criteria with
//! the parse error at its line and column.

use std::collections::HashMap;
use std::path::Path;

use serde_json::Value;
use verity_catalog::json_path::{self, Location};
use verity_catalog::schema::{Check, Rule};
use verity_model::canonical_json;
use verity_model::{Evidence, Response, Score, ScoreStatus, Scorer, Task};
use verity_process::{Capture, Exit, Quote, Spec, Stdin};

use crate::common::{excerpt, json_text};

/// The most evidence one criterion carries; the rest is counted.
pub const MAX_EVIDENCE: usize = 20;

/// How much of a `command` rule's standard error is kept, and quoted.
const STDERR_TAIL_BYTES: usize = 8 * 1024;
const STDERR_QUOTE: Quote = Quote {
    lines: 5,
    chars: 600,
};

pub(crate) struct JsonSchema {
    pub(crate) name: String,
    /// Compiled once, when the scorer is built.
    pub(crate) validator: jsonschema::Validator,
    pub(crate) raw: bool,
    pub(crate) rules: Vec<Rule>,
}

/// Evidence gathered under a cap.
struct Found {
    evidence: Vec<Evidence>,
    total: usize,
}

impl Found {
    fn new() -> Found {
        Found {
            evidence: Vec::new(),
            total: 0,
        }
    }

    fn push(&mut self, e: Evidence) {
        self.total += 1;
        if self.evidence.len() < MAX_EVIDENCE {
            self.evidence.push(e);
        }
    }

    /// The evidence, with a last line counting what was left out.
    fn into_evidence(mut self) -> Vec<Evidence> {
        if self.total > self.evidence.len() {
            let more = self.total - self.evidence.len();
            self.evidence.push(Evidence::msg(format!(
                "… and {more} more (only the first {MAX_EVIDENCE} are shown)"
            )));
        }
        self.evidence
    }
}

/// Evidence at `loc`: the path first, the value as the snippet.
fn at(loc: &Location, root: &Value, message: String) -> Evidence {
    let mut e = Evidence::msg(format!("{loc}: {message}"));
    e.snippet = loc.get(root).map(|v| excerpt(&v.to_string(), 120));
    e
}

/// `base` followed by `rel`.
fn join(base: &Location, rel: &Location) -> Location {
    Location(base.0.iter().chain(&rel.0).cloned().collect())
}

impl JsonSchema {
    fn schema_score(&self, doc: &Value) -> Score {
        let mut found = Found::new();
        for err in self.validator.iter_errors(doc) {
            let loc = Location::from_pointer(err.instance_path().as_str());
            let schema_at = err.schema_path().as_str();
            found.push(at(&loc, doc, format!("{err} (schema: #{schema_at})")));
        }
        if found.total == 0 {
            return Score::pass(&self.name, "schema")
                .explain("the answer satisfies the schema")
                .with_value(1.0);
        }
        let n = found.total;
        let mut s = Score::fail(&self.name, "schema")
            .explain(format!("{n} schema error{}", if n == 1 { "" } else { "s" }))
            .with_value(0.0);
        s.evidence = found.into_evidence();
        s
    }

    fn integrity_score(&self, doc: &Value, text: &str) -> Score {
        let mut found = Found::new();
        let mut broken = Vec::new();
        let mut cannot_judge = None;
        for rule in &self.rules {
            let before = found.total;
            if let Err(why) = check_rule(rule, doc, text, &mut found) {
                cannot_judge.get_or_insert(format!("rule `{}`: {why}", rule.name));
            }
            if found.total > before {
                broken.push(format!("`{}`", rule.name));
            }
        }
        if let Some(why) = cannot_judge {
            let mut s = Score::new(&self.name, "integrity", ScoreStatus::Error).explain(why);
            s.evidence = found.into_evidence();
            return s;
        }
        if broken.is_empty() {
            return Score::pass(&self.name, "integrity")
                .explain(format!("all {} rules hold", self.rules.len()))
                .with_value(1.0);
        }
        let mut s = Score::fail(&self.name, "integrity")
            .explain(format!(
                "{} of {} rules broken: {}",
                broken.len(),
                self.rules.len(),
                broken.join(", ")
            ))
            .with_value(0.0);
        s.evidence = found.into_evidence();
        s
    }
}

/// Checks one rule, adding a piece of evidence per violation. `Err` only when the rule could
/// not be judged at all (its command could not start).
fn check_rule(rule: &Rule, root: &Value, text: &str, found: &mut Found) -> Result<(), String> {
    if let Check::Command { argv, dir, timeout } = &rule.check {
        return run_command(rule, argv, dir.as_deref(), *timeout, text, found);
    }
    let nodes: Vec<Location> = match &rule.for_each {
        None => vec![Location::root()],
        Some(t) => match t.resolve(root) {
            Ok(p) => json_path::locate(&p, root),
            Err(why) => {
                found.push(at(
                    &Location::root(),
                    root,
                    format!("rule `{}`: `for_each`: {why}", rule.name),
                ));
                return Ok(());
            }
        },
    };
    for loc in nodes {
        let Some(node) = loc.get(root) else { continue };
        let fail = |found: &mut Found, at_loc: &Location, msg: String| {
            found.push(at(at_loc, root, format!("rule `{}`: {msg}", rule.name)));
        };
        let resolve = |t: &verity_catalog::schema::PathTemplate| {
            t.resolve(node)
                .map_err(|why| format!("`{}`: {why}", t.source()))
        };
        match &rule.check {
            Check::Members {
                each,
                among,
                among_node,
            } => {
                let (each_p, among_p) = match (resolve(each), resolve(among)) {
                    (Ok(e), Ok(a)) => (e, a),
                    (Err(why), _) | (_, Err(why)) => {
                        fail(found, &loc, why);
                        continue;
                    }
                };
                let allowed: Vec<&Value> =
                    among_p.query(if *among_node { node } else { root }).all();
                for rel in json_path::locate(&each_p, node) {
                    let Some(v) = rel.get(node) else { continue };
                    if !allowed.contains(&v) {
                        fail(
                            found,
                            &join(&loc, &rel),
                            format!(
                                "{} is not among the {} value{} of `{}`",
                                excerpt(&v.to_string(), 80),
                                allowed.len(),
                                if allowed.len() == 1 { "" } else { "s" },
                                among.source()
                            ),
                        );
                    }
                }
            }
            Check::Unique(path) => {
                let p = match resolve(path) {
                    Ok(p) => p,
                    Err(why) => {
                        fail(found, &loc, why);
                        continue;
                    }
                };
                let mut first: HashMap<String, Location> = HashMap::new();
                for rel in json_path::locate(&p, node) {
                    let Some(v) = rel.get(node) else { continue };
                    let abs = join(&loc, &rel);
                    match first.get(&canonical_json(v)) {
                        Some(earlier) => fail(
                            found,
                            &abs,
                            format!(
                                "{} repeats the value at {earlier}",
                                excerpt(&v.to_string(), 80)
                            ),
                        ),
                        None => {
                            first.insert(canonical_json(v), abs);
                        }
                    }
                }
            }
            Check::Exists(path) => match resolve(path) {
                Ok(p) if p.query(node).is_empty() => {
                    fail(found, &loc, format!("`{}` selects nothing", path.source()))
                }
                Ok(_) => {}
                Err(why) => fail(found, &loc, why),
            },
            Check::Count { path, min, max } => match resolve(path) {
                Ok(p) => {
                    let n = p.query(node).len() as u64;
                    let low = min.is_some_and(|m| n < m);
                    let high = max.is_some_and(|m| n > m);
                    if low || high {
                        let want = match (min, max) {
                            (Some(lo), Some(hi)) => format!("between {lo} and {hi}"),
                            (Some(lo), None) => format!("at least {lo}"),
                            (None, Some(hi)) => format!("at most {hi}"),
                            (None, None) => unreachable!("a count has a bound"),
                        };
                        fail(
                            found,
                            &loc,
                            format!("`{}` selects {n}, expected {want}", path.source()),
                        );
                    }
                }
                Err(why) => fail(found, &loc, why),
            },
            Check::Command { .. } => {}
        }
    }
    Ok(())
}

/// Runs a `command` rule under `verity-process` (its own process group, killed with it on
/// timeout) with the answer's JSON on standard input.
fn run_command(
    rule: &Rule,
    argv: &[String],
    dir: Option<&str>,
    timeout: std::time::Duration,
    text: &str,
    found: &mut Found,
) -> Result<(), String> {
    let (program, args) = argv.split_first().ok_or("an empty command")?;
    // A program named by a path runs from the rule's directory; a bare name is looked up on PATH.
    let program = match dir {
        Some(d) if program.contains('/') && !Path::new(program).is_absolute() => {
            Path::new(d).join(program).into_os_string()
        }
        _ => program.into(),
    };
    let mut spec = Spec::new(&program)
        .args(args)
        .stdin(Stdin::Bytes(text.as_bytes().to_vec()))
        .stdout(Capture::Null)
        .stderr(Capture::Tail(STDERR_TAIL_BYTES))
        .quote(STDERR_QUOTE)
        .timeout(timeout);
    if let Some(d) = dir {
        spec = spec.current_dir(d);
    }
    let out = spec
        .run()
        .map_err(|e| format!("`{}` {e}", argv.join(" ")))?;
    let tail = out.stderr_tail();
    let said = if tail.is_empty() {
        "nothing on standard error".to_owned()
    } else {
        format!("standard error ends: {tail}")
    };
    let msg = match &out.exit {
        Exit::Code(0) => return Ok(()),
        Exit::TimedOut(t) => format!("`{}` did not finish within {t:?}; {said}", argv.join(" ")),
        other => format!("`{}` {other}; {said}", argv.join(" ")),
    };
    found.push(Evidence::msg(format!("rule `{}`: {msg}", rule.name)));
    Ok(())
}

impl Scorer for JsonSchema {
    fn kind(&self) -> &str {
        "json-schema"
    }
    fn name(&self) -> &str {
        &self.name
    }
    fn score(&self, _task: &Task, response: &Response) -> Vec<Score> {
        let text = json_text(&response.text, self.raw);
        let doc = match serde_json::from_str::<Value>(text) {
            Ok(doc) => doc,
            Err(e) => {
                // The line within the whole answer, not within the fence.
                let offset = text.as_ptr() as usize - response.text.as_ptr() as usize;
                let line = e.line() as u32 + response.text[..offset].matches('\n').count() as u32;
                let why = if text.trim().is_empty() {
                    "the answer is empty: no JSON".to_owned()
                } else {
                    format!("the answer is not JSON: {e}")
                };
                let fail = |criterion: &str| {
                    Score::fail(&self.name, criterion)
                        .explain(why.clone())
                        .with_value(0.0)
                        .with_evidence(Evidence::msg(e.to_string()).at(line, e.column() as u32))
                };
                let mut scores = vec![fail("schema")];
                if !self.rules.is_empty() {
                    scores.push(fail("integrity"));
                }
                return scores;
            }
        };
        let mut scores = vec![self.schema_score(&doc)];
        if !self.rules.is_empty() {
            scores.push(self.integrity_score(&doc, text));
        }
        scores
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use serde_json::json;
    use verity_model::{ScorerSpec, SourceLoc};

    use super::*;
    use crate::build;

    fn scorer(options: Value) -> Box<dyn Scorer> {
        build(&ScorerSpec {
            kind: "json-schema".into(),
            name: None,
            options: options.as_object().cloned().unwrap(),
            source: SourceLoc::default(),
        })
        .unwrap()
    }

    fn judge(s: &dyn Scorer, answer: &str) -> Vec<Score> {
        let r = Response {
            text: answer.into(),
            ..Response::default()
        };
        s.score(&Task::prompt("t", "p"), &r)
    }

    fn ui_schema() -> Value {
        json!({
            "type": "object",
            "required": ["views", "resources"],
            "properties": {
                "views": {"type": "array", "items": {
                    "type": "object",
                    "required": ["resource", "fields"],
                    "properties": {
                        "resource": {"type": "string"},
                        "fields": {"type": "array", "items": {"type": "string"}}
                    }
                }},
                "resources": {"type": "array"}
            }
        })
    }

    fn ui(views: Value) -> String {
        json!({
            "resources": [
                {"name": "users", "fields": [{"name": "id"}, {"name": "email"}]},
                {"name": "products", "fields": [{"name": "sku"}]}
            ],
            "views": views
        })
        .to_string()
    }

    #[test]
    fn schema_errors_name_the_json_path() {
        let s = scorer(json!({"schema": ui_schema()}));
        let good = judge(&*s, &ui(json!([{"resource": "users", "fields": ["id"]}])));
        assert_eq!(good.len(), 1, "no rules: no integrity criterion");
        assert_eq!(good[0].status, ScoreStatus::Pass);
        assert_eq!(good[0].value, Some(1.0));
        let bad = judge(
            &*s,
            &ui(
                json!([{"resource": "users", "fields": ["id"]}, {"resource": "products", "fields": ["sku", 7]}, {"fields": []}]),
            ),
        );
        assert_eq!(bad[0].status, ScoreStatus::Fail);
        assert_eq!(bad[0].value, Some(0.0));
        let msgs: Vec<&str> = bad[0].evidence.iter().map(|e| e.message.as_str()).collect();
        assert_eq!(msgs.len(), 2, "{msgs:?}");
        assert!(
            msgs.iter().any(
                |m| m.starts_with("$.views[1].fields[1]: 7 is not of type \"string\"")
                    && m.contains(
                        "(schema: #/properties/views/items/properties/fields/items/type)"
                    )
            ),
            "{msgs:?}"
        );
        assert!(
            msgs.iter()
                .any(|m| m.starts_with("$.views[2]: \"resource\" is a required property")),
            "{msgs:?}"
        );
        let seven = bad[0]
            .evidence
            .iter()
            .find(|e| e.message.contains("[1].fields[1]"))
            .unwrap();
        assert_eq!(seven.snippet.as_deref(), Some("7"));
    }

    #[test]
    fn evidence_is_capped_and_counted() {
        let s = scorer(json!({"schema": {"type": "array", "items": {"type": "string"}}}));
        let answer = serde_json::to_string(&(0..30).collect::<Vec<u32>>()).unwrap();
        let scores = judge(&*s, &answer);
        assert_eq!(scores[0].explanation.as_deref(), Some("30 schema errors"));
        assert_eq!(scores[0].evidence.len(), MAX_EVIDENCE + 1);
        assert!(
            scores[0].evidence[0]
                .message
                .starts_with("$[0]: 0 is not of type")
        );
        assert_eq!(
            scores[0].evidence[MAX_EVIDENCE].message,
            "… and 10 more (only the first 20 are shown)"
        );
    }

    #[test]
    fn drafts_differ_as_declared() {
        // Draft 7's tuple `items` checks position 0 only; 2020-12 spells it `prefixItems`.
        let tuple7 = json!({"$schema": "http://json-schema.org/draft-07/schema#",
                            "type": "array", "items": [{"type": "string"}]});
        let s7 = scorer(json!({"schema": tuple7}));
        assert_eq!(judge(&*s7, r#"["a", 1]"#)[0].status, ScoreStatus::Pass);
        assert_eq!(judge(&*s7, r#"[1, "a"]"#)[0].status, ScoreStatus::Fail);
        // The `draft` option when the schema declares none.
        let plain = json!({"type": "array", "items": [{"type": "string"}]});
        let by_option = scorer(json!({"schema": plain, "draft": "7"}));
        assert_eq!(judge(&*by_option, r#"[1]"#)[0].status, ScoreStatus::Fail);
        // 2020-12 (the default): `prefixItems`, and `items` for the rest.
        let s2020 = scorer(
            json!({"schema": {"type": "array", "prefixItems": [{"type": "string"}], "items": {"type": "integer"}}}),
        );
        assert_eq!(
            judge(&*s2020, r#"["a", 1, 2]"#)[0].status,
            ScoreStatus::Pass
        );
        let bad = judge(&*s2020, r#"["a", 1, "b"]"#);
        assert_eq!(bad[0].status, ScoreStatus::Fail);
        assert!(
            bad[0].evidence[0].message.starts_with("$[2]: "),
            "{:?}",
            bad[0].evidence
        );
        // The same schema read as draft 7 ignores `prefixItems`: every item must be an integer.
        let as7 = scorer(
            json!({"schema": {"type": "array", "prefixItems": [{"type": "string"}], "items": {"type": "integer"}}, "draft": "7"}),
        );
        assert_eq!(judge(&*as7, r#"["a", 1, 2]"#)[0].status, ScoreStatus::Fail);
    }

    #[test]
    fn not_json_fails_with_line_and_column_and_fences_are_read() {
        let s = scorer(json!({"schema": {"type": "object"}, "rules": [{"exists": "$.a"}]}));
        let bad = judge(&*s, "Here it is:\n```json\n{\"a\": 1,\n  \"b\": }\n```\n");
        assert_eq!(bad.len(), 2);
        for score in &bad {
            assert_eq!(score.status, ScoreStatus::Fail);
            assert!(
                score
                    .explanation
                    .as_deref()
                    .unwrap()
                    .starts_with("the answer is not JSON")
            );
            assert_eq!(score.evidence[0].line, Some(4), "line in the whole answer");
            assert_eq!(score.evidence[0].column, Some(8));
        }
        let fenced = judge(&*s, "```json\n{\"a\": 1}\n```");
        assert!(
            fenced.iter().all(|s| s.status == ScoreStatus::Pass),
            "{fenced:?}"
        );
        let raw = scorer(json!({"schema": {"type": "object"}, "extract": "raw"}));
        assert_eq!(
            judge(&*raw, "```json\n{}\n```")[0].status,
            ScoreStatus::Fail
        );
        assert_eq!(judge(&*raw, "{}")[0].status, ScoreStatus::Pass);
        assert_eq!(
            judge(&*raw, "  ")[0].explanation.as_deref(),
            Some("the answer is empty: no JSON")
        );
    }

    fn with_rules(rules: Value) -> Box<dyn Scorer> {
        scorer(json!({"schema": true, "rules": rules}))
    }

    fn integrity(s: &dyn Scorer, answer: &str) -> Score {
        let scores = judge(s, answer);
        assert_eq!(scores[1].criterion, "integrity");
        scores[1].clone()
    }

    #[test]
    fn view_fields_must_exist_in_their_resource() {
        let s = with_rules(json!([{
            "name": "view fields exist",
            "for_each": "$.views[*]",
            "each": "$.fields[*]",
            "in": "$.resources[?@.name == '{resource}'].fields[*].name",
        }]));
        let ok = integrity(
            &*s,
            &ui(
                json!([{"resource": "users", "fields": ["id", "email"]}, {"resource": "products", "fields": ["sku"]}]),
            ),
        );
        assert_eq!(ok.status, ScoreStatus::Pass, "{ok:?}");
        // `sku` is a products field, not a users one; `name` is no field at all.
        let bad = integrity(
            &*s,
            &ui(
                json!([{"resource": "users", "fields": ["id", "sku"]}, {"resource": "products", "fields": ["name"]}]),
            ),
        );
        assert_eq!(bad.status, ScoreStatus::Fail);
        assert_eq!(
            bad.explanation.as_deref(),
            Some("1 of 1 rules broken: `view fields exist`")
        );
        let msgs: Vec<&str> = bad.evidence.iter().map(|e| e.message.as_str()).collect();
        assert_eq!(
            msgs,
            [
                "$.views[0].fields[1]: rule `view fields exist`: \"sku\" is not among the 2 values of `$.resources[?@.name == '{resource}'].fields[*].name`",
                "$.views[1].fields[0]: rule `view fields exist`: \"name\" is not among the 1 value of `$.resources[?@.name == '{resource}'].fields[*].name`",
            ]
        );
        // A view without the member its rule needs is a broken rule, not a crash.
        let missing = integrity(&*s, &ui(json!([{"fields": ["id"]}])));
        assert_eq!(missing.status, ScoreStatus::Fail);
        assert!(
            missing.evidence[0]
                .message
                .starts_with("$.views[0]: rule `view fields exist`: ")
        );
        assert!(missing.evidence[0].message.contains("no member `resource`"));
    }

    #[test]
    fn in_written_with_at_is_evaluated_on_the_node() {
        // Resources keyed by slug: each resource's views may name only its own fields.
        let s = with_rules(json!([{
            "name": "view fields exist",
            "for_each": "$.resources.*",
            "each": "$.views[*].fields[*]",
            "in": "@.fields[*].name",
        }]));
        let doc = |users_view: Value| {
            json!({"resources": {
                "users": {"fields": [{"name": "id"}, {"name": "email"}], "views": [{"fields": users_view}]},
                "products": {"fields": [{"name": "sku"}], "views": [{"fields": ["sku"]}]},
            }})
            .to_string()
        };
        let ok = integrity(&*s, &doc(json!(["id", "email"])));
        assert_eq!(ok.status, ScoreStatus::Pass, "{ok:?}");
        // `sku` exists, but in another resource: relative to the node, it is not allowed.
        let bad = integrity(&*s, &doc(json!(["id", "sku"])));
        assert_eq!(bad.status, ScoreStatus::Fail);
        let msgs: Vec<&str> = bad.evidence.iter().map(|e| e.message.as_str()).collect();
        assert_eq!(
            msgs,
            [
                "$.resources.users.views[0].fields[1]: rule `view fields exist`: \"sku\" is not among the 2 values of `@.fields[*].name`"
            ]
        );
    }

    #[test]
    fn unique_exists_and_count() {
        let s = with_rules(json!([
            {"name": "ids unique", "unique": "$.items[*].id"},
            {"name": "has a title", "exists": "$.title"},
            {"name": "two to three items", "count": "$.items[*]", "min": 2, "max": 3},
            {"name": "names unique per group", "for_each": "$.groups[*]", "unique": "$.names[*]"},
        ]));
        let ok = integrity(
            &*s,
            r#"{"title": "t", "items": [{"id": 1}, {"id": 2}], "groups": [{"names": ["a", "b"]}, {"names": ["a"]}]}"#,
        );
        assert_eq!(ok.status, ScoreStatus::Pass, "{ok:?}");
        assert_eq!(ok.explanation.as_deref(), Some("all 4 rules hold"));
        let bad = integrity(
            &*s,
            r#"{"items": [{"id": 1}, {"id": 2}, {"id": 1}, {"id": 1}], "groups": [{"names": ["a", "b"]}, {"names": ["c", "c"]}]}"#,
        );
        assert_eq!(bad.status, ScoreStatus::Fail);
        let msgs: Vec<&str> = bad.evidence.iter().map(|e| e.message.as_str()).collect();
        assert_eq!(
            msgs,
            [
                "$.items[2].id: rule `ids unique`: 1 repeats the value at $.items[0].id",
                "$.items[3].id: rule `ids unique`: 1 repeats the value at $.items[0].id",
                "$: rule `has a title`: `$.title` selects nothing",
                "$: rule `two to three items`: `$.items[*]` selects 4, expected between 2 and 3",
                "$.groups[1].names[1]: rule `names unique per group`: \"c\" repeats the value at $.groups[1].names[0]",
            ]
        );
        assert_eq!(
            bad.explanation.as_deref(),
            Some(
                "4 of 4 rules broken: `ids unique`, `has a title`, `two to three items`, `names unique per group`"
            )
        );
    }

    fn script(dir: &Path, name: &str, body: &str) {
        std::fs::write(dir.join(name), body).unwrap();
    }

    #[test]
    fn command_rules_run_the_users_program() {
        let dir = tempfile::tempdir().unwrap();
        // Reads the answer on stdin: passes when it has a `views` key.
        script(
            dir.path(),
            "check.sh",
            "#!/bin/sh\nif grep -q '\"views\"'; then exit 0; fi\necho 'first line' >&2\necho \"no views in the answer\" >&2\nexit 1\n",
        );
        script(dir.path(), "slow.sh", "#!/bin/sh\nsleep 30\n");
        let d = dir.path().to_str().unwrap();
        let s = with_rules(json!([
            {"name": "has views", "command": ["sh", "check.sh"], "dir": d},
        ]));
        assert_eq!(integrity(&*s, r#"{"views": []}"#).status, ScoreStatus::Pass);
        let bad = integrity(&*s, r#"{"other": 1}"#);
        assert_eq!(bad.status, ScoreStatus::Fail);
        assert_eq!(
            bad.evidence[0].message,
            "rule `has views`: `sh check.sh` exited with status 1; standard error ends: first line | no views in the answer"
        );
        let slow = with_rules(json!([
            {"name": "slow", "command": ["sh", "slow.sh"], "dir": d, "timeout": 0.3},
        ]));
        let started = Instant::now();
        let timed_out = integrity(&*slow, "{}");
        assert!(started.elapsed() < Duration::from_secs(10));
        assert_eq!(timed_out.status, ScoreStatus::Fail);
        assert!(
            timed_out.evidence[0]
                .message
                .starts_with("rule `slow`: `sh slow.sh` did not finish within 300ms"),
            "{:?}",
            timed_out.evidence
        );
        // A program that cannot start: the scorer cannot judge, and says so.
        let absent = with_rules(json!([{"command": ["./no-such-program"], "dir": d}]));
        let err = integrity(&*absent, "{}");
        assert_eq!(err.status, ScoreStatus::Error);
        assert!(err.explanation.unwrap().contains("no-such-program"));
    }
}
