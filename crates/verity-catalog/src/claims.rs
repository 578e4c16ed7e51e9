//! The `claims` scorer's options and task expectations (seed 003): what a claim-extraction
//! fixture may say, checked before anything runs.
//!
//! A task gives the scorer `expect.must_contain` and `expect.must_not_contain` (lists of
//! `{subject, predicate, value, rationale?}`), and optionally `expect.weight` (≥ 0, default 1)
//! and `expect.min_confidence` (0..=1) — the fixture shape's `[expected]` and `[scoring]`.

use serde_json::{Map, Value};
use verity_model::{ConfigIssue, Task};

/// The criteria the scorer reports, in order.
pub const CRITERIA: [&str; 2] = ["must_contain", "must_not_contain"];

/// The options it takes.
pub const OPTION_KEYS: &[&str] = &[
    "min_confidence",
    "confidence_tolerance",
    "unexpected",
    "extract",
    "tail",
];

/// The scorer's options, resolved with their defaults.
#[derive(Clone, Debug, PartialEq)]
pub struct ClaimsOpts {
    /// Claims below this confidence (minus the tolerance) are dropped before matching; a task's
    /// `expect.min_confidence` replaces it. `None`: keep every claim.
    pub min_confidence: Option<f64>,
    pub confidence_tolerance: f64,
    /// Whether extracted claims that match no expected one count as false positives (`count`,
    /// the default) or not (`ignore`, for corpora whose expectations are deliberately partial).
    pub count_unexpected: bool,
    /// `auto`: the first fenced code block when there is one, else the whole answer; `raw`.
    pub raw: bool,
    /// How many trailing subject segments must agree (`/` or `.` separated); default 2.
    pub tail: usize,
}

impl Default for ClaimsOpts {
    fn default() -> Self {
        ClaimsOpts {
            min_confidence: None,
            confidence_tolerance: 0.0,
            count_unexpected: true,
            raw: false,
            tail: 2,
        }
    }
}

impl ClaimsOpts {
    /// The options of a checked spec (unchecked values fall back to the defaults).
    pub fn from_options(o: &Map<String, Value>) -> ClaimsOpts {
        let d = ClaimsOpts::default();
        ClaimsOpts {
            min_confidence: o.get("min_confidence").and_then(Value::as_f64),
            confidence_tolerance: o
                .get("confidence_tolerance")
                .and_then(Value::as_f64)
                .unwrap_or(d.confidence_tolerance),
            count_unexpected: o.get("unexpected").and_then(Value::as_str) != Some("ignore"),
            raw: o.get("extract").and_then(Value::as_str) == Some("raw"),
            tail: o
                .get("tail")
                .and_then(Value::as_u64)
                .map_or(d.tail, |t| t as usize),
        }
    }
}

fn fraction(o: &Map<String, Value>, key: &str, issues: &mut Vec<ConfigIssue>) {
    if let Some(v) = o.get(key)
        && !v.as_f64().is_some_and(|x| (0.0..=1.0).contains(&x))
    {
        issues.push(ConfigIssue::new(
            Some(key),
            format!("`{key}` must be a number from 0 to 1"),
        ));
    }
}

/// Checks the options' values.
pub fn check_options(o: &Map<String, Value>) -> Vec<ConfigIssue> {
    let mut issues = Vec::new();
    fraction(o, "min_confidence", &mut issues);
    fraction(o, "confidence_tolerance", &mut issues);
    match o.get("unexpected").map(Value::as_str) {
        None | Some(Some("count" | "ignore")) => {}
        _ => issues.push(ConfigIssue::new(
            Some("unexpected"),
            "`unexpected` must be \"count\" or \"ignore\"",
        )),
    }
    match o.get("extract").map(Value::as_str) {
        None | Some(Some("auto" | "raw")) => {}
        _ => issues.push(ConfigIssue::new(
            Some("extract"),
            "`extract` must be \"auto\" or \"raw\"",
        )),
    }
    if let Some(v) = o.get("tail")
        && !v.as_u64().is_some_and(|t| (1..=16).contains(&t))
    {
        issues.push(ConfigIssue::new(
            Some("tail"),
            "`tail` must be a whole number of subject segments from 1 to 16",
        ));
    }
    issues
}

/// Checks a task's expectations: every expected entry has a string `subject` and `predicate`
/// and a scalar `value`, and a string `rationale` if any; the weight and confidence are in
/// range. A task with neither list expects no claims at all (a negative fixture).
pub fn check_task(task: &Task) -> Vec<ConfigIssue> {
    let mut issues = Vec::new();
    for list in CRITERIA {
        let key = format!("expect.{list}");
        let Some(v) = task.expect.get(list) else {
            continue;
        };
        let Some(items) = v.as_array() else {
            issues.push(ConfigIssue::new(
                Some(&key),
                format!("`{list}` must be a list of {{subject, predicate, value}} tables"),
            ));
            continue;
        };
        for (i, item) in items.iter().enumerate() {
            let at = format!("{list}[{i}]");
            let Some(t) = item.as_object() else {
                issues.push(ConfigIssue::new(
                    Some(&key),
                    format!("{at} must be a table with subject, predicate and value"),
                ));
                continue;
            };
            for field in ["subject", "predicate"] {
                match t.get(field) {
                    Some(Value::String(s)) if !s.trim().is_empty() => {}
                    Some(Value::String(_)) => issues.push(ConfigIssue::new(
                        Some(&key),
                        format!("{at}: `{field}` is empty"),
                    )),
                    Some(_) => issues.push(ConfigIssue::new(
                        Some(&key),
                        format!("{at}: `{field}` must be a string"),
                    )),
                    None => issues.push(ConfigIssue::new(
                        Some(&key),
                        format!("{at}: missing `{field}`"),
                    )),
                }
            }
            match t.get("value") {
                Some(Value::Bool(_) | Value::Number(_) | Value::String(_)) => {}
                Some(_) => issues.push(ConfigIssue::new(
                    Some(&key),
                    format!("{at}: `value` must be a boolean, a number or a string"),
                )),
                None => issues.push(ConfigIssue::new(
                    Some(&key),
                    format!("{at}: missing `value`"),
                )),
            }
            if let Some(r) = t.get("rationale")
                && !r.is_string()
            {
                issues.push(ConfigIssue::new(
                    Some(&key),
                    format!("{at}: `rationale` must be a string"),
                ));
            }
            for k in t.keys() {
                if !["subject", "predicate", "value", "rationale"].contains(&k.as_str()) {
                    issues.push(ConfigIssue::new(
                        Some(&key),
                        format!(
                            "{at}: unknown key `{k}` (an expected claim has subject, predicate, value, rationale)"
                        ),
                    ));
                }
            }
        }
    }
    if let Some(w) = task.expect.get("weight")
        && !w.as_f64().is_some_and(|x| x.is_finite() && x >= 0.0)
    {
        issues.push(ConfigIssue::new(
            Some("expect.weight"),
            "`weight` must be a number, 0 or more",
        ));
    }
    if let Some(c) = task.expect.get("min_confidence")
        && !c.as_f64().is_some_and(|x| (0.0..=1.0).contains(&x))
    {
        issues.push(ConfigIssue::new(
            Some("expect.min_confidence"),
            "`min_confidence` must be a number from 0 to 1",
        ));
    }
    issues
}
