//! The `citations` scorer (seed 002, V1 existence, V2 structure, V3 behaviour) and the
//! `citation-consistency` group scorer (V4): their options, the checks of their values, and
//! the checks of what a task gives them (`expect.citations`, `metadata.repo`).
//!
//! The suite loader reads the facts a scorer's `facts` option names (a facts file, or a
//! directory of `*.json` facts files) into its options — `facts_data` (repository name → the
//! facts), `facts_files` (the files as read) and `facts_hash` — so a stored run rescores from
//! the database alone. The checks here only look at those keys' shapes; parsing the facts is
//! the oracle's (`verity-facts` is not linked here).

use serde_json::{Map, Value};
use verity_model::{ConfigIssue, Task};

/// The criteria `citations` reports, in order.
pub const CRITERIA: [&str; 5] = [
    "files_exist",
    "lines_valid",
    "identifiers_found",
    "structure_correct",
    "behaviour",
];

/// The criteria `citation-consistency` reports, in order.
pub const CONSISTENCY_CRITERIA: [&str; 2] = ["consistent", "no_contradictions"];

/// The keys the loader sets from `facts` (never written in suite.toml).
pub const LOADED_KEYS: [&str; 3] = ["facts_data", "facts_files", "facts_hash"];

/// The options `citations` takes.
pub const OPTION_KEYS: &[&str] = &[
    "facts",
    "mode",
    "checkouts",
    "test_command",
    "facts_data",
    "facts_files",
    "facts_hash",
];

/// The options `citation-consistency` takes.
pub const CONSISTENCY_KEYS: &[&str] = &[
    "group_by",
    "min_jaccard",
    "mode",
    "facts",
    "facts_data",
    "facts_files",
    "facts_hash",
];

/// The relations a task may ask about (`expect.citations.relation`) and a structured answer
/// may claim.
pub const RELATIONS: &[&str] = &[
    "defined_in",
    "imports",
    "exports",
    "calls",
    "extends",
    "implements",
    "returns",
    "changes",
];

/// The behaviour (V3) relations a structured answer may claim.
pub const BEHAVIOUR_RELATIONS: &[&str] = &["function_returns", "test_passes", "throws"];

/// Relations whose question names an object besides the subject.
const NEEDS_OBJECT: &[&str] = &["imports", "calls"];

/// The metadata key `citation-consistency` groups by, unless `group_by` says otherwise.
pub const DEFAULT_GROUP_BY: &str = "paraphrase_of";

/// How an answer is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Free text: `path:12-30`, `path#L12`, bare paths, backticked identifiers.
    Text,
    /// A JSON object `{"answer", "citations": [...], "claims": [...]}`.
    Json,
    /// JSON when the answer is such an object, else text.
    Auto,
}

impl Mode {
    pub fn parse(s: &str) -> Option<Mode> {
        match s {
            "text" => Some(Mode::Text),
            "json" => Some(Mode::Json),
            "auto" => Some(Mode::Auto),
            _ => None,
        }
    }

    /// The mode of checked options (`auto` by default).
    pub fn from_options(o: &Map<String, Value>) -> Mode {
        o.get("mode")
            .and_then(Value::as_str)
            .and_then(Mode::parse)
            .unwrap_or(Mode::Auto)
    }
}

/// `min_jaccard` of checked options (default 1: the same files).
pub fn min_jaccard(o: &Map<String, Value>) -> f64 {
    o.get("min_jaccard").and_then(Value::as_f64).unwrap_or(1.0)
}

/// `group_by` of checked options.
pub fn group_by(o: &Map<String, Value>) -> &str {
    o.get("group_by")
        .and_then(Value::as_str)
        .unwrap_or(DEFAULT_GROUP_BY)
}

/// The repository names the loaded facts cover (empty when none are loaded).
pub fn loaded_repos(o: &Map<String, Value>) -> Vec<&str> {
    o.get("facts_data")
        .and_then(Value::as_object)
        .map(|m| m.keys().map(String::as_str).collect())
        .unwrap_or_default()
}

/// Checks the facts keys shared by both kinds; `required`: the scorer cannot work without.
fn check_facts(o: &Map<String, Value>, required: bool, issues: &mut Vec<ConfigIssue>) {
    match o.get("facts") {
        None => {}
        Some(Value::String(s)) if !s.trim().is_empty() => {}
        Some(_) => issues.push(ConfigIssue::new(
            Some("facts"),
            "`facts` must be the path of a facts file or of a directory of *.json facts files, \
             relative to the suite",
        )),
    }
    match o.get("facts_data") {
        None => {
            if required && !o.contains_key("facts") {
                issues.push(ConfigIssue::new(
                    None,
                    "`facts` is required: a facts file or a directory of *.json facts files \
                     (from `verity facts extract`), relative to the suite",
                ));
            }
        }
        Some(Value::Object(m)) => {
            if let Some((name, _)) = m.iter().find(|(_, v)| !v.is_object()) {
                issues.push(ConfigIssue::new(
                    Some("facts_data"),
                    format!("`facts_data.{name}` must be a facts object"),
                ));
            }
        }
        Some(_) => issues.push(ConfigIssue::new(
            Some("facts_data"),
            "`facts_data` must be a table of repository name → facts (the loader sets it from \
             `facts`)",
        )),
    }
    if let Some(v) = o.get("facts_files")
        && !v.as_array().is_some_and(|a| a.iter().all(Value::is_string))
    {
        issues.push(ConfigIssue::new(
            Some("facts_files"),
            "`facts_files` must be a list of paths",
        ));
    }
    if let Some(v) = o.get("facts_hash")
        && !v.is_string()
    {
        issues.push(ConfigIssue::new(
            Some("facts_hash"),
            "`facts_hash` must be a string",
        ));
    }
    match o.get("mode").map(Value::as_str) {
        None | Some(Some("text" | "json" | "auto")) => {}
        _ => issues.push(ConfigIssue::new(
            Some("mode"),
            "`mode` must be \"text\", \"json\" or \"auto\"",
        )),
    }
}

/// Checks `citations` options.
pub fn check_options(o: &Map<String, Value>) -> Vec<ConfigIssue> {
    let mut issues = Vec::new();
    check_facts(o, true, &mut issues);
    if let Some(v) = o.get("checkouts")
        && v.as_str().is_none_or(|s| s.trim().is_empty())
    {
        issues.push(ConfigIssue::new(
            Some("checkouts"),
            "`checkouts` must be a directory holding each repository's checkout as NAME/ \
             (relative to the suite), e.g. \"repos\"",
        ));
    }
    if let Some(v) = o.get("test_command") {
        let ok = v.as_array().is_some_and(|a| {
            !a.is_empty()
                && a.iter().all(Value::is_string)
                && a.iter()
                    .any(|s| s.as_str().is_some_and(|s| s.contains("{test}")))
        });
        if !ok {
            issues.push(ConfigIssue::new(
                Some("test_command"),
                "`test_command` must be a program and its arguments, one of them containing \
                 {test} (e.g. [\"python3\", \"-m\", \"pytest\", \"-q\", \"{test}\"])",
            ));
        }
    }
    issues
}

/// Checks `citation-consistency` options.
pub fn check_consistency_options(o: &Map<String, Value>) -> Vec<ConfigIssue> {
    let mut issues = Vec::new();
    check_facts(o, false, &mut issues);
    if let Some(v) = o.get("group_by")
        && v.as_str().is_none_or(|s| s.trim().is_empty())
    {
        issues.push(ConfigIssue::new(
            Some("group_by"),
            "`group_by` must name a metadata key (default \"paraphrase_of\")",
        ));
    }
    if let Some(v) = o.get("min_jaccard")
        && !v.as_f64().is_some_and(|x| (0.0..=1.0).contains(&x))
    {
        issues.push(ConfigIssue::new(
            Some("min_jaccard"),
            "`min_jaccard` must be a number from 0 to 1 (1: every paraphrase cites the same files)",
        ));
    }
    issues
}

/// Checks `metadata.repo` against the loaded repositories: a task must name one of them,
/// unless exactly one is loaded (then it is the default).
fn check_repo(o: &Map<String, Value>, task: &Task, issues: &mut Vec<ConfigIssue>) {
    let repos = loaded_repos(o);
    if repos.is_empty() {
        return;
    }
    match task.metadata.get("repo") {
        None if repos.len() > 1 => issues.push(ConfigIssue::new(
            Some("metadata.repo"),
            format!(
                "the task names no repository (`metadata.repo`) and the facts cover several: {}",
                repos.join(", ")
            ),
        )),
        None => {}
        Some(Value::String(r)) if repos.contains(&r.as_str()) => {}
        Some(Value::String(r)) => issues.push(ConfigIssue::new(
            Some("metadata.repo"),
            format!(
                "`metadata.repo` names `{r}`, a repository no loaded facts file describes \
                 (loaded: {})",
                repos.join(", ")
            ),
        )),
        Some(_) => issues.push(ConfigIssue::new(
            Some("metadata.repo"),
            "`metadata.repo` must be a repository name",
        )),
    }
}

/// Checks what a task gives `citations`: `expect.citations` (when present) names a known
/// relation with its fields, and `metadata.repo` a loaded repository.
pub fn check_task(o: &Map<String, Value>, task: &Task) -> Vec<ConfigIssue> {
    let mut issues = Vec::new();
    check_repo(o, task, &mut issues);
    let Some(v) = task.expect.get("citations") else {
        return issues;
    };
    let key = Some("expect.citations");
    let Some(t) = v.as_object() else {
        issues.push(ConfigIssue::new(
            key,
            "`citations` must be a table with `relation` and `subject`",
        ));
        return issues;
    };
    let relation = match t.get("relation") {
        Some(Value::String(r)) if RELATIONS.contains(&r.as_str()) => Some(r.as_str()),
        Some(Value::String(r)) => {
            issues.push(ConfigIssue::new(
                key,
                format!("unknown relation `{r}` (known: {})", RELATIONS.join(", ")),
            ));
            None
        }
        Some(_) => {
            issues.push(ConfigIssue::new(key, "`relation` must be a string"));
            None
        }
        None => {
            issues.push(ConfigIssue::new(key, "missing `relation`"));
            None
        }
    };
    let nonempty = |k: &str| matches!(t.get(k), Some(Value::String(s)) if !s.trim().is_empty());
    if !nonempty("subject") {
        issues.push(ConfigIssue::new(
            key,
            "`subject` must be a non-empty string (the symbol, file or commit asked about)",
        ));
    }
    if let Some(r) = relation
        && NEEDS_OBJECT.contains(&r)
        && !nonempty("object")
    {
        issues.push(ConfigIssue::new(
            key,
            format!("relation `{r}` needs an `object` (a non-empty string)"),
        ));
    }
    if let Some(o) = t.get("object")
        && !o.is_string()
    {
        issues.push(ConfigIssue::new(key, "`object` must be a string"));
    }
    if let Some(tr) = t.get("truth")
        && !tr.is_object()
    {
        issues.push(ConfigIssue::new(key, "`truth` must be a table"));
    }
    for k in t.keys() {
        if !["relation", "subject", "object", "truth"].contains(&k.as_str()) {
            issues.push(ConfigIssue::new(
                key,
                format!("unknown key `{k}` (expected relation, subject, object, truth)"),
            ));
        }
    }
    issues
}

/// Checks what a task gives `citation-consistency`: `metadata.repo`.
pub fn check_consistency_task(o: &Map<String, Value>, task: &Task) -> Vec<ConfigIssue> {
    let mut issues = Vec::new();
    check_repo(o, task, &mut issues);
    issues
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn opts(v: Value) -> Map<String, Value> {
        v.as_object().cloned().unwrap()
    }

    fn task(expect: Value, meta: Value) -> Task {
        let mut t = Task::prompt("t", "p");
        t.expect = opts(expect);
        t.metadata = opts(meta);
        t
    }

    #[test]
    fn options() {
        assert_eq!(check_options(&opts(json!({"facts": "facts"}))), []);
        assert_eq!(
            check_options(&opts(json!({"facts_data": {"a": {}}, "mode": "json"}))),
            []
        );
        let missing = check_options(&opts(json!({})));
        assert!(missing[0].message.starts_with("`facts` is required"));
        let bad = check_options(&opts(json!({"facts": 1, "mode": "xml"})));
        let keys: Vec<_> = bad.iter().map(|i| i.key.clone().unwrap()).collect();
        assert_eq!(keys, ["facts", "mode"]);
        assert_eq!(check_consistency_options(&opts(json!({}))), []);
        let bad = check_consistency_options(&opts(json!({"min_jaccard": 2, "group_by": ""})));
        assert_eq!(bad.len(), 2);
    }

    #[test]
    fn tasks() {
        let o = opts(json!({"facts_data": {"tinyq": {}, "other": {}}}));
        let good = task(
            json!({"citations": {"relation": "calls", "subject": "a", "object": "b",
                   "truth": {"value": true}}}),
            json!({"repo": "tinyq"}),
        );
        assert_eq!(check_task(&o, &good), []);
        let bad = task(
            json!({"citations": {"relation": "calls", "subject": "", "colour": 1}}),
            json!({"repo": "nope"}),
        );
        let msgs: Vec<String> = check_task(&o, &bad)
            .into_iter()
            .map(|i| i.message)
            .collect();
        assert!(
            msgs[0].contains("`nope`, a repository no loaded"),
            "{msgs:?}"
        );
        assert!(msgs.iter().any(|m| m.contains("`subject`")));
        assert!(msgs.iter().any(|m| m.contains("needs an `object`")));
        assert!(msgs.iter().any(|m| m.contains("unknown key `colour`")));
        let unknown = task(
            json!({"citations": {"relation": "owns", "subject": "x"}}),
            json!({}),
        );
        let msgs: Vec<String> = check_task(&o, &unknown)
            .into_iter()
            .map(|i| i.message)
            .collect();
        assert!(msgs[0].contains("names no repository"), "{msgs:?}");
        assert!(msgs[1].starts_with("unknown relation `owns`"), "{msgs:?}");
        // One repository loaded: `metadata.repo` may be left out.
        let one = opts(json!({"facts_data": {"tinyq": {}}}));
        let t = task(
            json!({"citations": {"relation": "defined_in", "subject": "x"}}),
            json!({}),
        );
        assert_eq!(check_task(&one, &t), []);
    }
}
