//! The options of the determinism scorers, `identical` and `similarity`: how answers are
//! normalized before epochs are compared (`normalize`, `ignore`, `sort_arrays`) and how
//! `similarity` splits an answer into resources and judges them (`resources`, `labels`,
//! `threshold`, the task's `metadata.similarity_threshold`).
//!
//! Every path is a JSONPath ([`crate::json_path`]); the checks here parse them the way the
//! scorers do, so a suite with a bad path never runs.

use serde_json::{Map, Value};
use verity_model::{ConfigIssue, Task};

use crate::json_path::{self, JsonPath};
use crate::text::string_list;

/// The option keys `identical` accepts.
pub const IDENTICAL_KEYS: &[&str] = &["normalize", "ignore", "sort_arrays"];

/// The option keys `similarity` accepts.
pub const SIMILARITY_KEYS: &[&str] = &["threshold", "resources", "labels", "ignore", "sort_arrays"];

/// The similarity a task must reach when neither the scorer nor the task says otherwise.
pub const DEFAULT_THRESHOLD: f64 = 0.9;

/// The keys whose string values are labels in a fingerprint when `labels` is not set.
pub const DEFAULT_LABELS: &[&str] = &["label", "title", "name"];

/// The task metadata key that relaxes (or tightens) `similarity`'s threshold for one task.
pub const TASK_THRESHOLD_KEY: &str = "similarity_threshold";

/// How `identical` compares answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Normalize {
    /// The text as it is.
    None,
    /// Leading and trailing whitespace removed.
    Trim,
    /// Parsed as JSON, object keys sorted (by code point), compact.
    Json,
    /// RFC 8785 (JSON Canonicalization Scheme): keys ordered by UTF-16 code units, numbers as
    /// ECMAScript prints them, minimal string escaping.
    Jcs,
}

impl Normalize {
    /// The mode `normalize` names; `None` for an unknown name.
    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "none" => Normalize::None,
            "trim" => Normalize::Trim,
            "json" => Normalize::Json,
            "jcs" => Normalize::Jcs,
            _ => return None,
        })
    }

    /// Whether answers are parsed as JSON.
    pub fn is_json(self) -> bool {
        matches!(self, Normalize::Json | Normalize::Jcs)
    }
}

/// The JSON normalization shared by `identical` and `similarity`: values dropped, arrays whose
/// order does not matter.
#[derive(Clone, Debug, Default)]
pub struct CanonOpts {
    /// Paths of values removed before comparing (ids, timestamps), with their source text.
    pub ignore: Vec<(String, JsonPath)>,
    /// Paths of arrays sorted by their elements' canonical text before comparing.
    pub sort_arrays: Vec<(String, JsonPath)>,
}

impl CanonOpts {
    /// The paths a scorer's table sets (invalid ones are skipped: [`crate::check_spec`] reports
    /// them).
    pub fn from_options(o: &Map<String, Value>) -> Self {
        CanonOpts {
            ignore: paths(o.get("ignore")),
            sort_arrays: paths(o.get("sort_arrays")),
        }
    }

    /// Whether there is anything to apply.
    pub fn is_empty(&self) -> bool {
        self.ignore.is_empty() && self.sort_arrays.is_empty()
    }
}

fn paths(v: Option<&Value>) -> Vec<(String, JsonPath)> {
    v.and_then(string_list)
        .unwrap_or_default()
        .into_iter()
        .filter_map(|p| json_path::parse(&p).ok().map(|jp| (p, jp)))
        .collect()
}

/// `similarity`'s options.
#[derive(Clone, Debug)]
pub struct SimilarityOpts {
    /// The lowest similarity that passes (a task's `metadata.similarity_threshold` wins).
    pub threshold: f64,
    /// The nodes that are the resources; `None`: the top-level keys.
    pub resources: Option<(String, JsonPath)>,
    /// Keys whose string values are labels.
    pub labels: Vec<String>,
    /// Values dropped and arrays sorted before fingerprinting.
    pub canon: CanonOpts,
}

impl SimilarityOpts {
    /// The options a scorer's table sets, defaults for the rest.
    pub fn from_options(o: &Map<String, Value>) -> Self {
        SimilarityOpts {
            threshold: o
                .get("threshold")
                .and_then(Value::as_f64)
                .unwrap_or(DEFAULT_THRESHOLD),
            resources: o
                .get("resources")
                .and_then(Value::as_str)
                .and_then(|p| json_path::parse(p).ok().map(|jp| (p.to_owned(), jp))),
            labels: o
                .get("labels")
                .and_then(string_list)
                .unwrap_or_else(|| DEFAULT_LABELS.iter().map(|s| (*s).to_owned()).collect()),
            canon: CanonOpts::from_options(o),
        }
    }

    /// The threshold for `task`: its `metadata.similarity_threshold` when it has a valid one.
    pub fn threshold_for(&self, task: &Task) -> f64 {
        task.metadata
            .get(TASK_THRESHOLD_KEY)
            .and_then(Value::as_f64)
            .filter(|t| (0.0..=1.0).contains(t))
            .unwrap_or(self.threshold)
    }
}

fn check_path_list(o: &Map<String, Value>, key: &str, issues: &mut Vec<ConfigIssue>) {
    let Some(v) = o.get(key) else { return };
    match string_list(v) {
        None => issues.push(ConfigIssue::new(
            Some(key),
            format!("`{key}` must be a JSONPath or a list of JSONPaths"),
        )),
        Some(list) => {
            for p in list {
                if let Err(e) = json_path::parse(&p) {
                    issues.push(ConfigIssue::new(Some(key), e));
                }
            }
        }
    }
}

fn check_threshold(v: &Value) -> bool {
    v.as_f64().is_some_and(|t| (0.0..=1.0).contains(&t))
}

/// Checks `identical`'s options.
pub fn check_identical(o: &Map<String, Value>) -> Vec<ConfigIssue> {
    let mut issues = Vec::new();
    let mode = match o.get("normalize") {
        None => Some(Normalize::Trim),
        Some(v) => {
            let m = v.as_str().and_then(Normalize::parse);
            if m.is_none() {
                issues.push(ConfigIssue::new(
                    Some("normalize"),
                    "`normalize` must be \"none\", \"trim\", \"json\" or \"jcs\"",
                ));
            }
            m
        }
    };
    for key in ["ignore", "sort_arrays"] {
        check_path_list(o, key, &mut issues);
        if o.contains_key(key) && mode.is_some_and(|m| !m.is_json()) {
            issues.push(ConfigIssue::new(
                Some(key),
                format!("`{key}` needs `normalize = \"json\"` or `\"jcs\"`: it names places in a JSON answer"),
            ));
        }
    }
    issues
}

/// Checks `similarity`'s options.
pub fn check_similarity(o: &Map<String, Value>) -> Vec<ConfigIssue> {
    let mut issues = Vec::new();
    if let Some(v) = o.get("threshold")
        && !check_threshold(v)
    {
        issues.push(ConfigIssue::new(
            Some("threshold"),
            "`threshold` must be a number from 0 to 1",
        ));
    }
    match o.get("resources") {
        None => {}
        Some(Value::String(p)) => {
            if let Err(e) = json_path::parse(p) {
                issues.push(ConfigIssue::new(Some("resources"), e));
            }
        }
        Some(_) => issues.push(ConfigIssue::new(
            Some("resources"),
            "`resources` must be a JSONPath, e.g. \"$.specs.*\"",
        )),
    }
    if let Some(v) = o.get("labels")
        && string_list(v).is_none_or(|l| l.iter().any(|k| k.is_empty()))
    {
        issues.push(ConfigIssue::new(
            Some("labels"),
            "`labels` must be a list of key names, e.g. [\"label\", \"title\", \"name\"]",
        ));
    }
    check_path_list(o, "ignore", &mut issues);
    check_path_list(o, "sort_arrays", &mut issues);
    issues
}

/// Checks what a task gives `similarity`: a `metadata.similarity_threshold` from 0 to 1.
pub fn check_similarity_task(task: &Task) -> Vec<ConfigIssue> {
    match task.metadata.get(TASK_THRESHOLD_KEY) {
        Some(v) if !check_threshold(v) => vec![ConfigIssue::new(
            Some(&format!("metadata.{TASK_THRESHOLD_KEY}")),
            format!("`{TASK_THRESHOLD_KEY}` must be a number from 0 to 1"),
        )],
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn opts(v: Value) -> Map<String, Value> {
        v.as_object().cloned().unwrap()
    }

    fn messages(issues: &[ConfigIssue]) -> Vec<(String, String)> {
        issues
            .iter()
            .map(|i| (i.key.clone().unwrap_or_default(), i.message.clone()))
            .collect()
    }

    #[test]
    fn identical_options_are_checked() {
        assert!(
            check_identical(&opts(
                json!({"normalize": "jcs", "ignore": ["$..id"], "sort_arrays": "$.views[*].fields"})
            ))
            .is_empty()
        );
        let bad = messages(&check_identical(&opts(
            json!({"normalize": "trim", "ignore": ["$..id", "$["], "sort_arrays": 3}),
        )));
        let keys: Vec<&str> = bad.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["ignore", "ignore", "sort_arrays", "sort_arrays"]);
        assert!(bad[0].1.contains("not a JSONPath"), "{bad:?}");
        assert!(bad[1].1.contains("needs `normalize"), "{bad:?}");
        assert!(bad[2].1.contains("must be a JSONPath"), "{bad:?}");
        // The default normalization (trim) has no JSON to point into.
        assert_eq!(check_identical(&opts(json!({"ignore": "$.a"}))).len(), 1);
        assert_eq!(
            messages(&check_identical(&opts(json!({"normalize": "yaml"}))))[0].0,
            "normalize"
        );
    }

    #[test]
    fn similarity_options_are_checked() {
        assert!(check_similarity(&opts(json!({"threshold": 0.8, "resources": "$.specs.*", "labels": ["title"], "ignore": "$..id"}))).is_empty());
        let bad = messages(&check_similarity(&opts(json!({
            "threshold": 1.5, "resources": "$.specs[", "labels": [""], "sort_arrays": ["$..["]
        }))));
        let keys: Vec<&str> = bad.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["threshold", "resources", "labels", "sort_arrays"]);
        let mut t = Task::prompt("t", "p");
        t.metadata.insert(TASK_THRESHOLD_KEY.into(), json!("high"));
        assert_eq!(
            check_similarity_task(&t)[0].key.as_deref(),
            Some("metadata.similarity_threshold")
        );
        t.metadata.insert(TASK_THRESHOLD_KEY.into(), json!(0.5));
        assert!(check_similarity_task(&t).is_empty());
        let o = SimilarityOpts::from_options(&opts(json!({"threshold": 0.95})));
        assert_eq!(o.threshold_for(&t), 0.5);
        assert_eq!(o.threshold_for(&Task::prompt("u", "p")), 0.95);
        assert_eq!(o.labels, DEFAULT_LABELS);
    }
}
