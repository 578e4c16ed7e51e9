//! Every scorer kind verity knows, with its options, in one place.

use serde_json::{Map, Value};
use verity_model::{ConfigIssue, Scorer, ScorerSpec, Task};

use crate::text::{Contains, Equals, Identical, JsonValid, RegexMatch, TextOpts};

/// The scorer kinds [`build`] accepts.
pub const KINDS: &[&str] = &[
    "equals",
    "contains",
    "regex",
    "json-valid",
    "identical",
    "swift",
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
        "identical" => &["normalize"],
        "swift" => verity_swift::OPTION_KEYS,
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
        issues.extend(verity_swift::check_options(&spec.options));
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
        "identical" => match o.get("normalize").map(|v| v.as_str()) {
            None | Some(Some("none" | "trim" | "json")) => {}
            _ => issues.push(ConfigIssue::new(
                Some("normalize"),
                "`normalize` must be \"none\", \"trim\" or \"json\"",
            )),
        },
        _ => {}
    }
    issues
}

/// Checks what a task gives a scorer: keys are `expect.<name>` paths.
pub fn check_task(spec: &ScorerSpec, task: &Task) -> Vec<ConfigIssue> {
    let mut issues = Vec::new();
    match spec.kind.as_str() {
        "swift" => issues.extend(verity_swift::check_task(task)),
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
        "swift" => {
            let renames = spec.options.get("criteria").and_then(Value::as_object);
            return Some(
                verity_swift::CRITERIA
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
        _ => return None,
    };
    Some(vec![
        spec.name.clone().unwrap_or_else(|| default.to_owned()),
    ])
}

/// Builds a scorer from its spec. Call [`check_spec`] first for all issues at once; this stops
/// at the first.
pub fn build(spec: &ScorerSpec) -> Result<Box<dyn Scorer>, ConfigIssue> {
    if let Some(issue) = check_spec(spec).into_iter().next() {
        return Err(issue);
    }
    let name = spec.instance_name().to_owned();
    // The text scorers' one criterion, as `criteria` names it.
    let criterion = criteria(spec)
        .and_then(|c| c.into_iter().next())
        .unwrap_or_else(|| name.clone());
    let o = &spec.options;
    let opts = TextOpts::from_options(o);
    Ok(match spec.kind.as_str() {
        "equals" => Box::new(Equals {
            name,
            criterion,
            opts,
        }),
        "contains" => Box::new(Contains {
            name,
            criterion,
            values: o.get("values").and_then(string_list),
            opts,
        }),
        "regex" => {
            let pattern = match o.get("pattern").and_then(Value::as_str) {
                Some(p) => Some(
                    opts.regex(p)
                        .map_err(|e| ConfigIssue::new(Some("pattern"), e))?,
                ),
                None => None,
            };
            let must_match = o.get("must_match").and_then(Value::as_bool).unwrap_or(true);
            Box::new(RegexMatch {
                name,
                criterion,
                pattern,
                must_match,
                opts,
            })
        }
        "json-valid" => Box::new(JsonValid {
            name,
            criterion,
            raw: o.get("extract").and_then(Value::as_str) == Some("raw"),
        }),
        "swift" => Box::new(verity_swift::SwiftScorer::from_options(&name, o)?),
        "identical" => Box::new(Identical {
            name,
            criterion,
            normalize: o
                .get("normalize")
                .and_then(Value::as_str)
                .unwrap_or("trim")
                .to_owned(),
        }),
        other => {
            return Err(ConfigIssue::new(
                Some("kind"),
                format!("unknown scorer kind `{other}`"),
            ));
        }
    })
}

/// A string or a list of strings, as a list.
pub(crate) fn string_list(v: &Value) -> Option<Vec<String>> {
    match v {
        Value::String(s) => Some(vec![s.clone()]),
        Value::Array(items) => items
            .iter()
            .map(|i| i.as_str().map(str::to_owned))
            .collect(),
        _ => None,
    }
}

pub(crate) fn flag(o: &Map<String, Value>, key: &str, default: bool) -> bool {
    o.get(key).and_then(Value::as_bool).unwrap_or(default)
}
