//! `SwiftScorer`: the four Swift oracles as a verity [`Scorer`] (kind `swift`, scope Sample).
//!
//! Its options and their checks are the catalog's ([`verity_catalog::swift`], re-exported
//! here): a suite is checked without building the scorer, and [`SwiftScorer::from_options`]
//! runs the same checks before it builds.

use std::collections::HashSet;
use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use serde_json::{Map, Value};
use verity_catalog::swift::index_build_hint;
use verity_model::{ConfigIssue, PreflightInfo, Response, Score, ScoreStatus, Scorer, Task};

use crate::check::{
    CheckOptions, CriterionReport, DEFAULT_INDEX_NAME, FutureMode, check_answer, default_index,
    default_map,
};
use crate::deprecations::DeprecationMap;
use crate::extract::extract_code;
use crate::index::Index;
use crate::toolchain::{CompilerVersion, Limits, ToolchainChoice, compiler_version};
use crate::version::{Target, Version};

pub use verity_catalog::swift::{CRITERIA, OPTION_KEYS, check_options, check_task};

fn task_target(task: &Task) -> Option<Result<Target, String>> {
    let s = verity_catalog::swift::task_target(task)?;
    Some(Target::parse(s).ok_or_else(|| s.to_owned()))
}

fn task_swift(task: &Task) -> Option<Result<Version, String>> {
    let s = verity_catalog::swift::task_swift(task)?;
    Some(Version::parse(s).ok_or_else(|| s.to_owned()))
}

/// The Swift oracles as one scorer emitting four criteria.
pub struct SwiftScorer {
    name: String,
    criteria: [String; 4],
    base: CheckOptions,
    default_target: Option<Target>,
    /// The compiler's version as the pre-flight read it (unset before it ran; `None` inside
    /// when no compiler will run).
    compiler: OnceLock<Option<CompilerVersion>>,
    /// The (target, language version) pairs whose map disagreements the pre-flight noted.
    audited: Mutex<HashSet<(Target, Version)>>,
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
        let index: Arc<Index> = match s("index") {
            None | Some("default") => default_index_issue()?,
            Some(x) if x == DEFAULT_INDEX_NAME => default_index_issue()?,
            Some(p) => Arc::new(Index::load(Path::new(p)).map_err(|e| {
                ConfigIssue::new(Some("index"), format!("{e}; {}", index_build_hint(p)))
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
        // checked above: absent or "warn" / "fail"
        let future = s("future_deprecations")
            .and_then(FutureMode::parse)
            .unwrap_or_default();
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
            compiler: OnceLock::new(),
            audited: Mutex::new(HashSet::new()),
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
        match task_swift(task) {
            Some(Ok(v)) => o.swift = v,
            Some(Err(s)) => {
                return Err(format!(
                    "task `{}`: `{s}` is not a Swift language version (like 5.10, 6.0)",
                    task.id
                ));
            }
            None => {}
        }
        Ok(o)
    }

    /// The compiler the parse criterion will run and its version: `Ok(Err(why))` when none
    /// will (`why`: a compiler was named or found but does not run); `Err` when
    /// `require_toolchain` cannot be met.
    #[allow(clippy::type_complexity)]
    fn find_compiler(
        &self,
    ) -> Result<Result<(std::path::PathBuf, CompilerVersion), Option<String>>, String> {
        let required = self.base.require_toolchain;
        let Some(path) = self.base.toolchain.resolve() else {
            if required {
                return Err(match self.base.toolchain {
                    ToolchainChoice::TreeSitter => "`require_toolchain = true` needs a compiler, but `toolchain` says tree-sitter; set `toolchain` to \"auto\" or a path".to_owned(),
                    _ => "a Swift toolchain is required (`require_toolchain = true`) but none was found: no swiftc or swift-frontend on PATH; install one (`scripts/fetch-swift-toolchain.sh` prints the path of a swift-frontend) and set `toolchain` to its path, or drop `require_toolchain` to parse with tree-sitter".to_owned(),
                });
            }
            return Ok(Err(None));
        };
        match compiler_version(&path, self.base.limits) {
            Ok(v) => Ok(Ok((path, v))),
            Err(e) if required => Err(format!(
                "a Swift toolchain is required (`require_toolchain = true`) but {} does not run: {e}",
                path.display()
            )),
            Err(e) => Ok(Err(Some(format!(
                "{} does not run ({e}); the parse criterion falls back to tree-sitter",
                path.display()
            )))),
        }
    }

    /// Entries of the deprecation map that the symbol graph contradicts for `target`.
    pub fn map_disagreements(&self, target: Target) -> Vec<crate::deprecations::MapDisagreement> {
        self.base
            .deprecations
            .disagreements(&self.base.index, target, self.base.swift)
    }
}

/// One line of the run's audit for a map entry the symbol graph contradicts.
fn disagreement_note(d: &crate::deprecations::MapDisagreement, target: Target) -> String {
    let decides = if d.graph_says == "not in the index" {
        "the map decides (the index does not know the symbol)"
    } else {
        "the map loses: the symbol graph decides"
    };
    format!(
        "deprecation map vs symbol graph on {target}: `{}`: the map says {}, the symbol graph says {}; {decides}",
        d.key, d.map_says, d.graph_says
    )
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

    /// Finds the compiler the parse criterion will run and reads its version once: with
    /// `require_toolchain`, a missing or broken one fails here, before any model call. The
    /// facts recorded: `toolchain` (`tree-sitter`, `swiftc` or `swift-frontend`),
    /// `toolchain_version`, `toolchain_banner`, `toolchain_path`.
    fn preflight(&self) -> Result<PreflightInfo, String> {
        let mut info = PreflightInfo::default();
        let compiler = match self.find_compiler()? {
            Err(why) => {
                info = info.fact("toolchain", "tree-sitter");
                info.warnings.extend(why);
                None
            }
            Ok((path, v)) => {
                info = info
                    .fact("toolchain", v.name.clone())
                    .fact("toolchain_banner", v.banner.clone())
                    .fact("toolchain_path", path.display().to_string());
                if let Some(ver) = v.version {
                    info = info.fact("toolchain_version", ver.to_string());
                }
                Some(v)
            }
        };
        let _ = self.compiler.set(compiler);
        Ok(info)
    }

    /// A task whose `target_swift` is newer than the compiler's language version: its parse
    /// verdict comes from an older parser. A warning; with `require_toolchain` (the run asked
    /// for the compiler's verdicts) the run does not start. Also notes, once per target and
    /// language version, where the deprecation map and the symbol graph disagree (the audit
    /// says which one decides).
    fn preflight_task(&self, task: &Task, info: &mut PreflightInfo) -> Result<(), String> {
        let Ok(opts) = self.options_for(task) else {
            // a bad target is the task's verdicts' error (and `verity validate`'s)
            return Ok(());
        };
        if self
            .audited
            .lock()
            .map(|mut seen| seen.insert((opts.target, opts.swift)))
            .unwrap_or(false)
        {
            // two map entries for one name (a type and one of its members spelled alike)
            // make the same note: each once
            for note in self
                .base
                .deprecations
                .disagreements(&self.base.index, opts.target, opts.swift)
                .into_iter()
                .map(|d| disagreement_note(&d, opts.target))
            {
                if !info.notes.contains(&note) {
                    info.notes.push(note);
                }
            }
        }
        let Some(Some(CompilerVersion {
            name,
            version: Some(have),
            ..
        })) = self.compiler.get()
        else {
            return Ok(());
        };
        let Some(Ok(want)) = task_swift(task) else {
            return Ok(());
        };
        if want <= *have {
            return Ok(());
        }
        let msg = format!(
            "task `{}` targets Swift {want} but the compiler ({name}) is Swift {have}: its parse verdict comes from an older language version",
            task.id
        );
        if self.base.require_toolchain {
            return Err(format!(
                "{msg}; install a newer toolchain, or lower the task's `target_swift`, or drop `require_toolchain`"
            ));
        }
        info.warnings.push(msg);
        Ok(())
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
            // the code the four criteria judged, for the audit (seed 000 §7.2 `code`)
            let code = extract_code(&response.text);
            if !code.is_empty() {
                first.extracted = Some(code.source);
            }
        }
        scores
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use verity_catalog::swift::{TOOLCHAIN_AUTO, TOOLCHAIN_TREE_SITTER, toolchain_path};

    use crate::toolchain::ToolchainChoice;

    /// The catalog checks `toolchain` with its keyword lists; `ToolchainChoice::parse` has its
    /// own: they must agree, or a suite would be checked by other rules than it runs by.
    #[test]
    fn toolchain_keywords_agree_with_the_catalog() {
        for k in TOOLCHAIN_AUTO {
            assert_eq!(ToolchainChoice::parse(k), ToolchainChoice::Auto, "{k:?}");
            assert_eq!(toolchain_path(k), None, "{k:?}");
        }
        for k in TOOLCHAIN_TREE_SITTER {
            assert_eq!(
                ToolchainChoice::parse(k),
                ToolchainChoice::TreeSitter,
                "{k:?}"
            );
            assert_eq!(toolchain_path(k), None, "{k:?}");
        }
        for s in [
            " auto ",
            "AUTO",
            "tree_sitter",
            "Tree-Sitter",
            "treesitter ",
            "swiftc",
            " /usr/bin/swiftc",
            "./swift-frontend",
            "none\n",
        ] {
            let expected = match toolchain_path(s) {
                None if TOOLCHAIN_AUTO.contains(&s.trim()) => ToolchainChoice::Auto,
                None => ToolchainChoice::TreeSitter,
                Some(p) => ToolchainChoice::Path(PathBuf::from(p)),
            };
            assert_eq!(ToolchainChoice::parse(s), expected, "{s:?}");
        }
    }
}
