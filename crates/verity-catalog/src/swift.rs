//! The options of the `swift` scorer (the oracles live in `verity-swift`) and the checks of
//! their values: the platform names, versions and toolchain keywords the oracle parses are
//! defined here, once, and `verity-swift` parses with them.
//!
//! Options (all optional):
//!
//! | key | value | default |
//! |---|---|---|
//! | `index` | `"default:ios17.4"` or a path to an index file (`verity symbols build DIR --out INDEX`) | the shipped index |
//! | `deprecations` | `"default"` or a path to a deprecation map (JSON) | the shipped map |
//! | `future_deprecations` | `"fail"` or `"warn"` (pass with a warning) for APIs deprecated in a future release (`API_TO_BE_DEPRECATED`) | `"fail"` |
//! | `toolchain` | `"auto"`, `"tree-sitter"`, or a path to `swiftc` / `swift-frontend` | `"auto"` |
//! | `require_toolchain` | bool: a run needs a compiler; without one that runs (or with one older than a task's `metadata.target_swift`) its pre-flight fails before any model call (and the parse criterion is an error without one) | `false` |
//! | `target_platform` | default for tasks without `metadata.target_platform` (`ios17.0`) | the index's platform |
//! | `swift_version` | Swift language version for `@available(swift, …)`, for tasks without `metadata.target_swift` | `"5.10"` |
//! | `timeout_s`, `memory_mb` | limits of a compiler run | 30, 4096 |
//! | `criteria` | table renaming criteria: `{ parse = "compiles" }` | the four names |

use std::path::Path;

use serde_json::{Map, Value};
use verity_model::{ConfigIssue, Task};

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

/// The name of the shipped index in options (`index = "default:ios17.4"`).
pub const DEFAULT_INDEX_NAME: &str = "default:ios17.4";

/// `toolchain` values that mean "a compiler on `PATH` if there is one, else tree-sitter".
pub const TOOLCHAIN_AUTO: &[&str] = &["", "auto"];
/// `toolchain` values that mean "tree-sitter only".
pub const TOOLCHAIN_TREE_SITTER: &[&str] = &["tree-sitter", "treesitter", "none"];

/// The compiler path a `toolchain` value names (trimmed), or `None` for a keyword
/// ([`TOOLCHAIN_AUTO`], [`TOOLCHAIN_TREE_SITTER`]).
pub fn toolchain_path(s: &str) -> Option<&str> {
    let s = s.trim();
    (!TOOLCHAIN_AUTO.contains(&s) && !TOOLCHAIN_TREE_SITTER.contains(&s)).then_some(s)
}

/// How to build a missing index at `path`.
pub fn index_build_hint(path: &str) -> String {
    format!(
        "build it with `verity symbols build DIR --out {path}` (DIR holds *.symbols.json files)"
    )
}

/// An operating system a task can target (`ios17.0`): the platform part of a target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Platform {
    Ios,
    MacOs,
    WatchOs,
    TvOs,
    VisionOs,
    MacCatalyst,
}

impl Platform {
    /// The spelling of `#available` / `@available` platform names and of target platforms
    /// (case-insensitive), app-extension names included.
    pub fn from_source(s: &str) -> Option<Platform> {
        Some(match s.to_ascii_lowercase().as_str() {
            "ios" | "iosapplicationextension" => Platform::Ios,
            "macos" | "osx" | "macosapplicationextension" | "osxapplicationextension" => {
                Platform::MacOs
            }
            "watchos" | "watchosapplicationextension" => Platform::WatchOs,
            "tvos" | "tvosapplicationextension" => Platform::TvOs,
            "visionos" | "xros" | "visionosapplicationextension" => Platform::VisionOs,
            "maccatalyst" | "maccatalystapplicationextension" => Platform::MacCatalyst,
            _ => return None,
        })
    }
}

/// Parses a dotted version: `17`, `17.0`, `10.15.4` (at most three numeric components, nothing
/// else) as major, minor, patch.
pub fn parse_version(s: &str) -> Option<[u32; 3]> {
    let s = s.trim();
    if s.is_empty() {
        return None;
    }
    let mut parts = [0u32; 3];
    for (n, p) in s.split('.').enumerate() {
        if n == 3 || p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        parts[n] = p.parse().ok()?;
    }
    Some(parts)
}

/// Parses a target platform: `ios17.0`, `iOS 17`, `macos14.0`, `watchos10`, `tvos17.0`,
/// `visionos1.0`, `maccatalyst17.0`, `xros1.0`.
pub fn parse_target(s: &str) -> Option<(Platform, [u32; 3])> {
    let s = s.trim();
    let split = s.find(|c: char| c.is_ascii_digit())?;
    let (name, ver) = s.split_at(split);
    let name = name.trim().trim_end_matches(['-', '_', ' ']);
    Some((Platform::from_source(name)?, parse_version(ver)?))
}

/// Checks a `swift` scorer's option values (unknown keys are [`crate::check_spec`]'s job: see
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
                format!(
                    "index file `{ix}` does not exist; {}",
                    index_build_hint(&ix)
                ),
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
        && let Some(p) = toolchain_path(&t)
        && !Path::new(p).is_file()
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
        && parse_target(&t).is_none()
    {
        issues.push(ConfigIssue::new(
            Some("target_platform"),
            format!("`{t}` is not a target platform (like ios17.0, macos14.0, watchos10.0, tvos17.0, visionos1.0)"),
        ));
    }
    if let Some(v) = string("swift_version", &mut issues)
        && parse_version(&v).is_none()
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

/// The target platform a task names (`metadata.target_platform`, else
/// `expect.target_platform`), unparsed; a value that is not a string is `""`.
pub fn task_target(task: &Task) -> Option<&str> {
    let v = task
        .metadata
        .get("target_platform")
        .or_else(|| task.expect.get("target_platform"))?;
    Some(v.as_str().unwrap_or(""))
}

/// The Swift language version a task names (`metadata.target_swift`, else
/// `expect.target_swift`), unparsed; a value that is not a string is `""`.
pub fn task_swift(task: &Task) -> Option<&str> {
    let v = task
        .metadata
        .get("target_swift")
        .or_else(|| task.expect.get("target_swift"))?;
    Some(v.as_str().unwrap_or(""))
}

/// Checks what a task gives the scorer: `metadata.target_platform` and
/// `metadata.target_swift`, if present, must parse.
pub fn check_task(task: &Task) -> Vec<ConfigIssue> {
    let mut issues = Vec::new();
    if let Some(s) = task_target(task)
        && parse_target(s).is_none()
    {
        issues.push(ConfigIssue::new(
            Some("metadata.target_platform"),
            format!("`{s}` is not a target platform (like ios17.0, macos14.0)"),
        ));
    }
    if let Some(s) = task_swift(task)
        && parse_version(s).is_none()
    {
        issues.push(ConfigIssue::new(
            Some("metadata.target_swift"),
            format!("`{s}` is not a Swift language version (like 5.10, 6.0)"),
        ));
    }
    issues
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn versions_and_targets() {
        assert_eq!(parse_version("17"), Some([17, 0, 0]));
        assert_eq!(parse_version(" 10.15.4 "), Some([10, 15, 4]));
        for bad in ["", "1.2.3.4", "x", "17.", ".1", "1..2", "-1"] {
            assert_eq!(parse_version(bad), None, "{bad:?}");
        }
        assert_eq!(parse_target("ios17.0"), Some((Platform::Ios, [17, 0, 0])));
        assert_eq!(
            parse_target("macOS 14"),
            Some((Platform::MacOs, [14, 0, 0]))
        );
        assert_eq!(
            parse_target("xros-1.0"),
            Some((Platform::VisionOs, [1, 0, 0]))
        );
        for bad in ["android14", "ios", "swift5.10", "*17", "17.0", "ios17.x"] {
            assert_eq!(parse_target(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn toolchain_keywords() {
        for k in ["auto", " auto ", "", "tree-sitter", "treesitter", "none"] {
            assert_eq!(toolchain_path(k), None, "{k:?}");
        }
        assert_eq!(toolchain_path(" /usr/bin/swiftc "), Some("/usr/bin/swiftc"));
        assert_eq!(toolchain_path("swiftc"), Some("swiftc"));
    }

    #[test]
    fn option_checks_name_keys() {
        let o = json!({
            "index": "default:ios9",
            "future_deprecations": "sometimes",
            "toolchain": "tree-sitter",
            "target_platform": "android14",
            "swift_version": "five",
            "timeout_s": 0,
            "criteria": {"parse": "compiles", "bogus": "x", "symbols_exist": " "},
        });
        let issues = check_options(o.as_object().unwrap());
        let found: Vec<(String, String)> = issues
            .into_iter()
            .map(|i| (i.key.unwrap(), i.message))
            .collect();
        let expected = [
            (
                "index",
                "unknown built-in index `default:ios9` (known: default:ios17.4)",
            ),
            (
                "future_deprecations",
                "`future_deprecations` must be \"warn\" or \"fail\"",
            ),
            (
                "target_platform",
                "`android14` is not a target platform (like ios17.0, macos14.0, watchos10.0, tvos17.0, visionos1.0)",
            ),
            ("swift_version", "`five` is not a version (like 5.10)"),
            ("timeout_s", "`timeout_s` must be a positive number"),
            (
                "criteria.bogus",
                "unknown criterion `bogus` (known: parse, symbols_exist, availability_ok, no_deprecated)",
            ),
            (
                "criteria.symbols_exist",
                "a criterion name must be a non-empty string",
            ),
        ];
        let expected: Vec<(String, String)> = expected
            .iter()
            .map(|(k, m)| ((*k).to_owned(), (*m).to_owned()))
            .collect();
        assert_eq!(found, expected);
        let fine = json!({"index": "default", "toolchain": "auto", "target_platform": "iOS 17"});
        assert_eq!(check_options(fine.as_object().unwrap()), []);
    }

    #[test]
    fn task_targets() {
        let mut t = Task::prompt("t", "p");
        assert_eq!(check_task(&t), []);
        t.metadata.insert("target_platform".into(), json!(17));
        assert_eq!(
            check_task(&t)[0].message,
            "`` is not a target platform (like ios17.0, macos14.0)"
        );
        t.metadata.clear();
        t.expect.insert("target_platform".into(), json!("tvos17.0"));
        assert_eq!(task_target(&t), Some("tvos17.0"));
        assert_eq!(check_task(&t), []);
    }
}
