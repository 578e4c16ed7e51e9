//! Every scorer kind verity knows, with its options, in one place: the kinds, the option keys
//! each accepts, the checks of their values and of what a task gives a scorer, and the criteria
//! each reports.
//!
//! The suite loader checks a suite with this crate before anything runs; `verity-oracles`
//! builds scorers from the specs checked here. The catalog depends on no oracle, so checking a
//! suite links no tree-sitter, no grammar and no symbol index: where a check needs what an
//! oracle also parses (Swift target platforms and versions), the list lives here and the oracle
//! uses it.

#![forbid(unsafe_code)]

pub mod citations;
pub mod claims;
pub mod determinism;
pub mod json_path;
pub mod schema;
pub mod swift;
pub mod text;

use serde_json::Value;
use verity_model::{ConfigIssue, ScorerSpec, Task};

use crate::text::{TextOpts, string_list};

/// The scorer kinds there are (`verity_oracles::build` builds each).
pub const KINDS: &[&str] = &[
    "equals",
    "contains",
    "regex",
    "json-valid",
    "json-schema",
    "identical",
    "similarity",
    "swift",
    "claims",
    "stability",
    "stages",
    "citations",
    "citation-consistency",
];

/// The option keys each kind accepts (every kind also takes `name`, handled by the loader).
fn allowed_options(kind: &str) -> &'static [&'static str] {
    match kind {
        "equals" => &["ignore_case", "trim", "normalize_whitespace"],
        "contains" => &["ignore_case", "values"],
        "regex" => &[
            "pattern",
            "ignore_case",
            "multiline",
            "dot_all",
            "must_match",
        ],
        "json-valid" => &["extract"],
        "json-schema" => schema::OPTION_KEYS,
        "identical" => determinism::IDENTICAL_KEYS,
        "similarity" => determinism::SIMILARITY_KEYS,
        "swift" => swift::OPTION_KEYS,
        "claims" => claims::OPTION_KEYS,
        "stability" => &["by", "compare", "tail"],
        "stages" => &["deterministic"],
        "citations" => citations::OPTION_KEYS,
        "citation-consistency" => citations::CONSISTENCY_KEYS,
        _ => &[],
    }
}

/// Checks a scorer's kind and options. Each issue names the offending key.
pub fn check_spec(spec: &ScorerSpec) -> Vec<ConfigIssue> {
    if !KINDS.contains(&spec.kind.as_str()) {
        return vec![ConfigIssue::new(
            Some("kind"),
            format!(
                "unknown scorer kind `{}` (known: {})",
                spec.kind,
                KINDS.join(", ")
            ),
        )];
    }
    let mut issues = Vec::new();
    let allowed = allowed_options(&spec.kind);
    for key in spec.options.keys() {
        if !allowed.contains(&key.as_str()) {
            let hint = if allowed.is_empty() {
                "it takes no options".to_owned()
            } else {
                format!("it takes: {}", allowed.join(", "))
            };
            issues.push(ConfigIssue::new(
                Some(key),
                format!("unknown option `{key}` for scorer `{}`; {hint}", spec.kind),
            ));
        }
    }
    if spec.kind == "swift" {
        issues.extend(swift::check_options(&spec.options));
        return issues;
    }
    if spec.kind == "claims" {
        issues.extend(claims::check_options(&spec.options));
        return issues;
    }
    if spec.kind == "json-schema" {
        issues.extend(schema::check_options(&spec.options));
        return issues;
    }
    if spec.kind == "citations" {
        issues.extend(citations::check_options(&spec.options));
        return issues;
    }
    if spec.kind == "citation-consistency" {
        issues.extend(citations::check_consistency_options(&spec.options));
        return issues;
    }
    if spec.kind == "identical" {
        issues.extend(determinism::check_identical(&spec.options));
        return issues;
    }
    if spec.kind == "similarity" {
        issues.extend(determinism::check_similarity(&spec.options));
        return issues;
    }
    let o = &spec.options;
    for b in [
        "ignore_case",
        "trim",
        "normalize_whitespace",
        "multiline",
        "dot_all",
        "must_match",
    ] {
        if let Some(v) = o.get(b)
            && !v.is_boolean()
        {
            issues.push(ConfigIssue::new(
                Some(b),
                format!("`{b}` must be true or false"),
            ));
        }
    }
    match spec.kind.as_str() {
        "regex" => match o.get("pattern") {
            None => {}
            Some(Value::String(p)) => {
                if let Err(e) = TextOpts::from_options(o).regex(p) {
                    issues.push(ConfigIssue::new(Some("pattern"), e));
                }
            }
            Some(_) => issues.push(ConfigIssue::new(
                Some("pattern"),
                "`pattern` must be a string",
            )),
        },
        "contains" => {
            if let Some(v) = o.get("values")
                && string_list(v).is_none()
            {
                issues.push(ConfigIssue::new(
                    Some("values"),
                    "`values` must be a string or a list of strings",
                ));
            }
        }
        "json-valid" => match o.get("extract").map(|v| v.as_str()) {
            None | Some(Some("auto" | "raw")) => {}
            _ => issues.push(ConfigIssue::new(
                Some("extract"),
                "`extract` must be \"auto\" or \"raw\"",
            )),
        },
        "stability" => {
            if let Some(v) = o.get("by")
                && v.as_str().is_none_or(|s| s.trim().is_empty())
            {
                issues.push(ConfigIssue::new(
                    Some("by"),
                    "`by` must name a metadata key (default \"perturbation_of\")",
                ));
            }
            match o.get("compare").map(|v| v.as_str()) {
                None | Some(Some("claims" | "json" | "text")) => {}
                _ => issues.push(ConfigIssue::new(
                    Some("compare"),
                    "`compare` must be \"claims\", \"json\" or \"text\"",
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
        }
        "stages" => {
            if let Some(v) = o.get("deterministic")
                && string_list(v).is_none_or(|names| names.iter().any(|n| n.trim().is_empty()))
            {
                issues.push(ConfigIssue::new(
                    Some("deterministic"),
                    "`deterministic` must be a stage name or a list of stage names (the keys of \
                     the pipeline's `artifacts`)",
                ));
            }
        }
        _ => {}
    }
    issues
}

/// Checks what a task gives a scorer: keys are `expect.<name>` paths.
pub fn check_task(spec: &ScorerSpec, task: &Task) -> Vec<ConfigIssue> {
    let mut issues = Vec::new();
    match spec.kind.as_str() {
        "swift" => issues.extend(swift::check_task(task)),
        "claims" => issues.extend(claims::check_task(task)),
        "citations" => issues.extend(citations::check_task(&spec.options, task)),
        "citation-consistency" => {
            issues.extend(citations::check_consistency_task(&spec.options, task))
        }
        "similarity" => issues.extend(determinism::check_similarity_task(task)),
        "regex" => {
            let opts = TextOpts::from_options(&spec.options);
            match task.expect.get("regex") {
                Some(v) => match string_list(v) {
                    Some(pats) => {
                        for p in pats {
                            if let Err(e) = opts.regex(&p) {
                                issues.push(ConfigIssue::new(Some("expect.regex"), e));
                            }
                        }
                    }
                    None => issues.push(ConfigIssue::new(
                        Some("expect.regex"),
                        "`regex` must be a string or a list of strings",
                    )),
                },
                None if !spec.options.contains_key("pattern") => issues.push(ConfigIssue::new(
                    None,
                    format!(
                        "scorer `{}` has no `pattern` and task `{}` has no `expect.regex`",
                        spec.instance_name(),
                        task.id
                    ),
                )),
                None => {}
            }
        }
        "contains" => {
            if let Some(v) = task.expect.get("contains")
                && string_list(v).is_none()
            {
                issues.push(ConfigIssue::new(
                    Some("expect.contains"),
                    "`contains` must be a string or a list of strings",
                ));
            }
        }
        "equals" => {
            if let Some(v) = task.expect.get("equals")
                && string_list(v).is_none()
            {
                issues.push(ConfigIssue::new(
                    Some("expect.equals"),
                    "`equals` must be a string or a list of strings",
                ));
            }
        }
        _ => {}
    }
    issues
}

/// The criteria a scorer built from `spec` reports, in order; `None` for an unknown kind. The
/// text scorers report one criterion, named after the scorer's `name` (or a default for the
/// kind); `swift` reports four, renamed by its `criteria` option.
pub fn criteria(spec: &ScorerSpec) -> Option<Vec<String>> {
    let default = match spec.kind.as_str() {
        "equals" => "equals",
        "contains" => "contains",
        "regex" => "regex",
        "json-valid" => "json_valid",
        "identical" => "identical",
        "similarity" => "similarity",
        "stability" => "stability",
        "stages" => "stages",
        "swift" => {
            let renames = spec.options.get("criteria").and_then(Value::as_object);
            return Some(
                swift::CRITERIA
                    .iter()
                    .map(|c| {
                        renames
                            .and_then(|m| m.get(*c))
                            .and_then(Value::as_str)
                            .unwrap_or(c)
                            .to_owned()
                    })
                    .collect(),
            );
        }
        "claims" => return Some(claims::CRITERIA.iter().map(|c| (*c).to_owned()).collect()),
        "citations" => {
            return Some(
                citations::CRITERIA
                    .iter()
                    .map(|c| (*c).to_owned())
                    .collect(),
            );
        }
        "citation-consistency" => {
            return Some(
                citations::CONSISTENCY_CRITERIA
                    .iter()
                    .map(|c| (*c).to_owned())
                    .collect(),
            );
        }
        // `integrity` only when there are rules to check.
        "json-schema" => {
            let rules = spec
                .options
                .get("rules")
                .and_then(Value::as_array)
                .is_some_and(|r| !r.is_empty());
            let n = if rules { 2 } else { 1 };
            return Some(
                schema::CRITERIA[..n]
                    .iter()
                    .map(|c| (*c).to_owned())
                    .collect(),
            );
        }
        _ => return None,
    };
    Some(vec![
        spec.name.clone().unwrap_or_else(|| default.to_owned()),
    ])
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use verity_model::SourceLoc;

    use super::*;

    fn spec(kind: &str, options: Value) -> ScorerSpec {
        ScorerSpec {
            kind: kind.into(),
            name: None,
            options: options.as_object().cloned().unwrap_or_default(),
            source: SourceLoc::default(),
        }
    }

    fn task(expect: Value) -> Task {
        let mut t = Task::prompt("t", "p");
        t.expect = expect.as_object().cloned().unwrap_or_default();
        t
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
        let t = task(json!({"regex": ["ok", "[unclosed"]}));
        let issues = check_task(&spec("regex", json!({})), &t);
        assert_eq!(issues.len(), 1);
        assert_eq!(issues[0].key.as_deref(), Some("expect.regex"));
        let msg = &check_spec(&spec("regex", json!({"pattern": "ab(c"})))[0].message;
        assert_eq!(
            msg,
            "invalid regex: unclosed group at column 3 of the pattern"
        );
    }

    #[test]
    fn every_kind_checks_with_no_options() {
        for kind in KINDS
            .iter()
            .filter(|k| !["json-schema", "citations"].contains(*k))
        {
            assert_eq!(check_spec(&spec(kind, json!({}))), [], "{kind}");
            assert!(criteria(&spec(kind, json!({}))).is_some(), "{kind}");
        }
        // `json-schema` alone needs an option: the schema (its criteria: `integrity` with rules).
        let bare = check_spec(&spec("json-schema", json!({})));
        assert_eq!(bare.len(), 1);
        assert!(bare[0].message.starts_with("`schema` is required"));
        let with_rules = spec(
            "json-schema",
            json!({"schema": {"type": "object"}, "rules": [{"exists": "$.a"}]}),
        );
        assert_eq!(check_spec(&with_rules), []);
        assert_eq!(criteria(&with_rules).unwrap(), ["schema", "integrity"]);
        let issues = check_spec(&spec("identical", json!({"trim": true})));
        assert_eq!(
            issues[0].message,
            "unknown option `trim` for scorer `identical`; it takes: normalize, ignore, sort_arrays"
        );
    }

    #[test]
    fn stages_takes_stage_names() {
        for ok in [
            json!({}),
            json!({"deterministic": "api_ir"}),
            json!({"deterministic": ["a", "b"]}),
        ] {
            assert_eq!(check_spec(&spec("stages", ok.clone())), [], "{ok}");
        }
        for bad in [
            json!({"deterministic": 1}),
            json!({"deterministic": ["a", ""]}),
        ] {
            let issues = check_spec(&spec("stages", bad.clone()));
            assert_eq!(issues.len(), 1, "{bad}");
            assert_eq!(issues[0].key.as_deref(), Some("deterministic"));
        }
        assert_eq!(criteria(&spec("stages", json!({}))).unwrap(), ["stages"]);
    }

    #[test]
    fn swift_criteria_are_renamed() {
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
        let mut named = spec("equals", json!({}));
        named.name = Some("exact".into());
        assert_eq!(criteria(&named).unwrap(), ["exact"]);
        assert_eq!(criteria(&spec("nope", json!({}))), None);
    }
}
