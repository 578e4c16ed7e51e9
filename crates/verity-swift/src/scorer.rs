//! `SwiftScorer`: the four Swift oracles as a verity [`Scorer`] (kind `swift`, scope Sample).
//!
//! Options (all optional):
//!
//! | key | value | default |
//! |---|---|---|
//! | `index` | `"default:ios17.4"` or a path to an index file (`verity symbols build DIR --out INDEX`) | the shipped index |
//! | `deprecations` | `"default"` or a path to a deprecation map (JSON) | the shipped map |
//! | `future_deprecations` | `"warn"` (pass with a warning) or `"fail"` | `"warn"` |
//! | `toolchain` | `"auto"`, `"tree-sitter"`, or a path to `swiftc` / `swift-frontend` | `"auto"` |
//! | `require_toolchain` | bool: the parse criterion is an error without a compiler | `false` |
//! | `target_platform` | default for tasks without `metadata.target_platform` (`ios17.0`) | the index's platform |
//! | `swift_version` | Swift language version for `@available(swift, …)` | `"5.10"` |
//! | `timeout_s`, `memory_mb` | limits of a compiler run | 30, 4096 |
//! | `criteria` | table renaming criteria: `{ parse = "compiles" }` | the four names |

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value};
use verity_model::{ConfigIssue, Response, Score, ScoreStatus, Scorer, Task};

use crate::check::{
    CheckOptions, CriterionReport, DEFAULT_INDEX_NAME, FutureMode, check_answer, default_index,
    default_map,
};
use crate::deprecations::DeprecationMap;
use crate::index::Index;
use crate::toolchain::{Limits, ToolchainChoice};
use crate::version::{Target, Version};

/// The option keys the `swift` scorer accepts (besides `name`).
pub const OPTION_KEYS: &[&str] = &[
    "index",
    "deprecations",
    "future_deprecations",
    "toolchain",
    "require_toolchain",
    "target_platform",
    "swift_version",
    "timeout_s",
    "memory_mb",
    "criteria",
];

/// The default criterion names, in order.
pub const CRITERIA: [&str; 4] = ["parse", "symbols_exist", "availability_ok", "no_deprecated"];

fn build_hint(path: &str) -> String {
    format!(
        "build it with `verity symbols build DIR --out {path}` (DIR holds *.symbols.json files)"
    )
}

/// Checks a `swift` scorer's option values (unknown keys are the catalog's job: see
/// [`OPTION_KEYS`]). Each issue names its key.
pub fn check_options(o: &Map<String, Value>) -> Vec<ConfigIssue> {
    let mut issues = Vec::new();
    let string = |k: &str, issues: &mut Vec<ConfigIssue>| -> Option<String> {
        match o.get(k) {
            None => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(_) => {
                issues.push(ConfigIssue::new(Some(k), format!("`{k}` must be a string")));
                None
            }
        }
    };
    if let Some(ix) = string("index", &mut issues)
        && !ix.starts_with("default")
    {
        let p = Path::new(&ix);
        if !p.is_file() {
            issues.push(ConfigIssue::new(
                Some("index"),
                format!("index file `{ix}` does not exist; {}", build_hint(&ix)),
            ));
        }
    } else if let Some(Value::String(ix)) = o.get("index")
        && ix != "default"
        && ix != DEFAULT_INDEX_NAME
    {
        issues.push(ConfigIssue::new(
            Some("index"),
            format!("unknown built-in index `{ix}` (known: {DEFAULT_INDEX_NAME})"),
        ));
    }
    if let Some(d) = string("deprecations", &mut issues)
        && d != "default"
    {
        match std::fs::read_to_string(&d) {
            Err(e) => issues.push(ConfigIssue::new(
                Some("deprecations"),
                format!("cannot read deprecation map `{d}`: {e}"),
            )),
            Ok(s) => {
                if !matches!(serde_json::from_str::<Value>(&s), Ok(Value::Object(_))) {
                    issues.push(ConfigIssue::new(
                        Some("deprecations"),
                        format!("deprecation map `{d}` is not a JSON object of entries"),
                    ));
                }
            }
        }
    }
    if let Some(f) = string("future_deprecations", &mut issues)
        && f != "warn"
        && f != "fail"
    {
        issues.push(ConfigIssue::new(
            Some("future_deprecations"),
            "`future_deprecations` must be \"warn\" or \"fail\"",
        ));
    }
    if let Some(t) = string("toolchain", &mut issues)
        && let ToolchainChoice::Path(p) = ToolchainChoice::parse(&t)
        && !p.is_file()
    {
        issues.push(ConfigIssue::new(
            Some("toolchain"),
            format!(
                "toolchain `{t}` is not a file (use \"auto\", \"tree-sitter\", or a path to swiftc / swift-frontend)"
            ),
        ));
    }
    if let Some(v) = o.get("require_toolchain")
        && !v.is_boolean()
    {
        issues.push(ConfigIssue::new(
            Some("require_toolchain"),
            "`require_toolchain` must be true or false",
        ));
    }
    if let Some(t) = string("target_platform", &mut issues)
        && Target::parse(&t).is_none()
    {
        issues.push(ConfigIssue::new(
            Some("target_platform"),
            format!("`{t}` is not a target platform (like ios17.0, macos14.0, watchos10.0, tvos17.0, visionos1.0)"),
        ));
    }
    if let Some(v) = string("swift_version", &mut issues)
        && Version::parse(&v).is_none()
    {
        issues.push(ConfigIssue::new(
            Some("swift_version"),
            format!("`{v}` is not a version (like 5.10)"),
        ));
    }
    for k in ["timeout_s", "memory_mb"] {
        if let Some(v) = o.get(k)
            && !v.as_f64().is_some_and(|x| x > 0.0 && x.is_finite())
        {
            issues.push(ConfigIssue::new(
                Some(k),
                format!("`{k}` must be a positive number"),
            ));
        }
    }
    match o.get("criteria") {
        None => {}
        Some(Value::Object(m)) => {
            for (k, v) in m {
                if !CRITERIA.contains(&k.as_str()) {
                    issues.push(ConfigIssue::new(
                        Some(&format!("criteria.{k}")),
                        format!("unknown criterion `{k}` (known: {})", CRITERIA.join(", ")),
                    ));
                } else if v.as_str().is_none_or(|s| s.trim().is_empty()) {
                    issues.push(ConfigIssue::new(
                        Some(&format!("criteria.{k}")),
                        "a criterion name must be a non-empty string",
                    ));
                }
            }
        }
        Some(_) => issues.push(ConfigIssue::new(
            Some("criteria"),
            "`criteria` must be a table of criterion = \"new name\"",
        )),
    }
    issues
}

/// Checks what a task gives the scorer: `metadata.target_platform`, if present, must parse.
pub fn check_task(task: &Task) -> Vec<ConfigIssue> {
    match task_target(task) {
        Some(Err(s)) => vec![ConfigIssue::new(
            Some("metadata.target_platform"),
            format!("`{s}` is not a target platform (like ios17.0, macos14.0)"),
        )],
        _ => Vec::new(),
    }
}

fn task_target(task: &Task) -> Option<Result<Target, String>> {
    let v = task
        .metadata
        .get("target_platform")
        .or_else(|| task.expect.get("target_platform"))?;
    let s = v.as_str().unwrap_or("").to_owned();
    Some(Target::parse(&s).ok_or(s))
}

/// The Swift oracles as one scorer emitting four criteria.
pub struct SwiftScorer {
    name: String,
    criteria: [String; 4],
    base: CheckOptions,
    default_target: Option<Target>,
}

impl std::fmt::Debug for SwiftScorer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SwiftScorer")
            .field("name", &self.name)
            .field("criteria", &self.criteria)
            .field("index", &self.base.index.meta().label)
            .finish()
    }
}

impl SwiftScorer {
    /// Builds the scorer from its options; the first problem is returned as a [`ConfigIssue`]
    /// (call [`check_options`] for all of them).
    pub fn from_options(name: &str, o: &Map<String, Value>) -> Result<SwiftScorer, ConfigIssue> {
        if let Some(i) = check_options(o).into_iter().next() {
            return Err(i);
        }
        let s = |k: &str| o.get(k).and_then(Value::as_str);
        let index: Arc<Index> =
            match s("index") {
                None | Some("default") => default_index_issue()?,
                Some(x) if x == DEFAULT_INDEX_NAME => default_index_issue()?,
                Some(p) => Arc::new(Index::load(Path::new(p)).map_err(|e| {
                    ConfigIssue::new(Some("index"), format!("{e}; {}", build_hint(p)))
                })?),
            };
        let shipped = s("index").is_none_or(|x| x.starts_with("default"));
        let deprecations = match s("deprecations") {
            None | Some("default") if shipped => {
                default_map().map_err(|e| ConfigIssue::new(Some("deprecations"), e.to_string()))?
            }
            None | Some("default") => Arc::new(DeprecationMap::default_for(&index)),
            Some(p) => Arc::new(
                DeprecationMap::load(Path::new(p), &index)
                    .map_err(|e| ConfigIssue::new(Some("deprecations"), e.to_string()))?,
            ),
        };
        let future = match s("future_deprecations") {
            Some("fail") => FutureMode::Fail,
            _ => FutureMode::Warn,
        };
        let toolchain = ToolchainChoice::parse(s("toolchain").unwrap_or("auto"));
        let default_target = s("target_platform").and_then(Target::parse);
        let swift = s("swift_version")
            .and_then(Version::parse)
            .unwrap_or(Version::new(5, 10, 0));
        let mut limits = Limits::default();
        if let Some(t) = o.get("timeout_s").and_then(Value::as_f64) {
            limits.wall = Duration::from_secs_f64(t.clamp(0.1, 3600.0));
            limits.cpu_seconds = t.ceil().clamp(1.0, 3600.0) as u64;
        }
        if let Some(m) = o.get("memory_mb").and_then(Value::as_f64) {
            limits.memory_mb = m.clamp(16.0, 1_048_576.0) as u64;
        }
        let mut criteria = CRITERIA.map(str::to_owned);
        if let Some(Value::Object(m)) = o.get("criteria") {
            for (i, c) in CRITERIA.iter().enumerate() {
                if let Some(n) = m.get(*c).and_then(Value::as_str) {
                    criteria[i] = n.to_owned();
                }
            }
        }
        let target = default_target
            .or(index.meta().platform)
            .unwrap_or(Target::new(
                crate::version::Domain::Ios,
                Version::new(17, 0, 0),
            ));
        Ok(SwiftScorer {
            name: name.to_owned(),
            criteria,
            base: CheckOptions {
                target,
                swift,
                index,
                deprecations,
                future,
                toolchain,
                require_toolchain: o
                    .get("require_toolchain")
                    .and_then(Value::as_bool)
                    .unwrap_or(false),
                limits,
            },
            default_target,
        })
    }

    /// The check options for a task (its `metadata.target_platform`, else the default).
    pub fn options_for(&self, task: &Task) -> Result<CheckOptions, String> {
        let mut o = self.base.clone();
        match task_target(task) {
            Some(Ok(t)) => o.target = t,
            Some(Err(s)) => {
                return Err(format!(
                    "task `{}`: `{s}` is not a target platform (like ios17.0)",
                    task.id
                ));
            }
            None => {
                if let Some(t) = self.default_target {
                    o.target = t;
                }
            }
        }
        Ok(o)
    }

    /// Entries of the deprecation map that the symbol graph contradicts for `target`.
    pub fn map_disagreements(&self, target: Target) -> Vec<crate::deprecations::MapDisagreement> {
        self.base
            .deprecations
            .disagreements(&self.base.index, target, self.base.swift)
    }
}

fn default_index_issue() -> Result<Arc<Index>, ConfigIssue> {
    default_index().map_err(|e| ConfigIssue::new(Some("index"), e.to_string()))
}

fn to_score(scorer: &str, criterion: &str, r: CriterionReport) -> Score {
    let mut s = Score::new(scorer, criterion, r.status).explain(r.explanation);
    s.evidence = r.evidence;
    s.metrics = r.metrics;
    match r.status {
        ScoreStatus::Pass => s.with_value(1.0),
        ScoreStatus::Fail => s.with_value(0.0),
        _ => s,
    }
}

impl Scorer for SwiftScorer {
    fn kind(&self) -> &str {
        "swift"
    }

    fn name(&self) -> &str {
        &self.name
    }

    fn score(&self, task: &Task, response: &Response) -> Vec<Score> {
        let opts = match self.options_for(task) {
            Ok(o) => o,
            Err(why) => {
                return self
                    .criteria
                    .iter()
                    .map(|c| Score::new(&self.name, c, ScoreStatus::Error).explain(why.clone()))
                    .collect();
            }
        };
        let report = check_answer(&response.text, &opts);
        let c = report.criteria;
        let mut scores = vec![
            to_score(&self.name, &self.criteria[0], c.parse),
            to_score(&self.name, &self.criteria[1], c.symbols_exist),
            to_score(&self.name, &self.criteria[2], c.availability_ok),
            to_score(&self.name, &self.criteria[3], c.no_deprecated),
        ];
        if let Some(first) = scores.first_mut() {
            first.explanation = Some(format!(
                "{} [parser: {}; target {}]",
                first.explanation.clone().unwrap_or_default(),
                report.parser,
                report.target_platform
            ));
        }
        scores
    }
}
