use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::{GateSpec, OutcomeRule, PerturbSpec, RunSettings, SourceLoc, Task, Variant};

/// A scorer as the suite configures it: a kind plus the kind's own options.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ScorerSpec {
    pub kind: String,
    /// Instance name; defaults to the kind. Scores carry it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub options: Map<String, Value>,
    #[serde(default)]
    pub source: SourceLoc,
}

impl ScorerSpec {
    pub fn instance_name(&self) -> &str {
        self.name.as_deref().unwrap_or(&self.kind)
    }
}

/// A grounding server the run owns: a process it starts (`command`, MCP over stdio) or an
/// endpoint it connects to (`url`, MCP Streamable HTTP), and how grounded variants use it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ServerSpec {
    /// The program and its arguments (stdio transport). Empty exactly when `url` is set.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub command: Vec<String>,
    /// Environment variables added to the server process's environment.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub env: BTreeMap<String, String>,
    /// The server's working directory; the loader makes a relative one absolute against the
    /// suite directory. `None`: verity's own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    /// The Streamable HTTP endpoint (instead of `command`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// HTTP headers sent with every request to `url`: header name -> the *name* of the
    /// environment variable holding its value (values are read at connect time, never stored).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub headers: BTreeMap<String, String>,
    /// Seconds the server may take to start and finish the MCP handshake (`None`: the default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub startup_timeout: Option<f64>,
    /// Seconds one tool call may take (`None`: the default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call_timeout: Option<f64>,
    /// `inject-top-k`: the tool to call (`None`: the documented heuristic picks one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// `inject-top-k`: the tool's arguments; string values are minijinja templates over
    /// `query`, `k`, `task` and `variant` (`None`: the heuristic's query and limit arguments).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<Map<String, Value>>,
    /// `inject-top-k`: which part of the tool's result becomes the context.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<ResultSpec>,
    /// `tools` mode: the tools the model is offered (`["*"]`: all of them). `None`: the default
    /// (the tools the suite names, and those the server marks read-only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allow_tools: Option<Vec<String>>,
}

impl ServerSpec {
    /// Whether the server is reached over HTTP (`url`) rather than started (`command`).
    pub fn is_http(&self) -> bool {
        self.url.is_some()
    }
}

/// Which part of a tool result `inject-top-k` puts into the context.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResultSpec {
    /// A JSONPath (RFC 9535) into the result's structured content, or into its text parsed as
    /// JSON; each match becomes one item of the context. `None`: the result's text content.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// Keep at most this many items (`None`: the variant's `k`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub top_k: Option<u32>,
}

/// A paired comparison the reports compute.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompareSpec {
    /// `mcnemar` for now.
    pub test: String,
    /// `[treatment, control]`.
    pub pair: [String; 2],
    /// `two-sided` (default), `greater` (treatment better) or `less`.
    #[serde(default = "two_sided")]
    pub alternative: String,
}

fn two_sided() -> String {
    "two-sided".into()
}

/// Report files a run of the suite writes by itself (suite.toml `[report]`). Paths may use
/// `{ts}` (UTC start time, `YYYYMMDD-HHMMSS`), `{run}` (the run id), `{suite}` (the suite
/// name) and `{tmp}` (the system temporary directory) — [`REPORT_PLACEHOLDERS`], and no
/// others; relative paths are taken from the working directory verity runs in.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReportSpec {
    /// A Markdown audit document.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub markdown: Option<String>,
    /// The JSON report.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub json: Option<String>,
    /// Also write every tool call (grounding searches, tool-loop calls) as JSON lines beside the
    /// JSON report (`<json stem>-toolcalls.jsonl`).
    #[serde(default)]
    pub toolcalls: bool,
}

/// The placeholders a `[report]` path may use (see [`ReportSpec`]), without their braces.
pub const REPORT_PLACEHOLDERS: &[&str] = &["ts", "run", "suite", "tmp"];

impl ReportSpec {
    pub fn is_empty(&self) -> bool {
        self.markdown.is_none() && self.json.is_none()
    }

    /// Every `{name}` in `template` (a name is ASCII letters, digits, `_` and `-`), with the
    /// byte range it covers, braces included. Other braces are plain text.
    pub fn placeholders(template: &str) -> Vec<(std::ops::Range<usize>, &str)> {
        let mut out = Vec::new();
        let mut from = 0;
        while let Some(open) = template[from..].find('{').map(|i| from + i) {
            let name_len = template[open + 1..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
                .unwrap_or(template.len() - open - 1);
            let close = open + 1 + name_len;
            if name_len > 0 && template[close..].starts_with('}') {
                out.push((open..close + 1, &template[open + 1..close]));
                from = close + 1;
            } else {
                from = open + 1;
            }
        }
        out
    }

    /// `template` with each placeholder replaced by `value(name)`, in one pass (a value is
    /// never expanded again); a placeholder without a value stays as written.
    pub fn expand(template: &str, value: impl Fn(&str) -> Option<String>) -> String {
        let mut out = String::with_capacity(template.len());
        let mut at = 0;
        for (range, name) in ReportSpec::placeholders(template) {
            if let Some(v) = value(name) {
                out.push_str(&template[at..range.start]);
                out.push_str(&v);
                at = range.end;
            }
        }
        out.push_str(&template[at..]);
        out
    }
}

/// A whole suite, resolved: every path read, every default applied, every variant complete.
///
/// A `Suite` is self-contained, which is why a run stores it: reports, rescoring and
/// comparisons work from the store even after the suite's files change.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Suite {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default)]
    pub tasks: Vec<Task>,
    pub variants: Vec<Variant>,
    pub scorers: Vec<ScorerSpec>,
    #[serde(default)]
    pub outcome: OutcomeRule,
    /// Samples per task and variant.
    pub epochs: u32,
    /// Minimum task counts per category, checked by `verity validate`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub coverage: BTreeMap<String, u32>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub servers: BTreeMap<String, ServerSpec>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub compare: Vec<CompareSpec>,
    /// The conditions a run must meet (suite.toml `[[gates]]`); the command line adds more.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub gates: Vec<GateSpec>,
    #[serde(default, skip_serializing_if = "ReportSpec::is_empty")]
    pub report: ReportSpec,
    /// Task ids of the suite's quick subset (`verity run --quick`): a few tasks across its
    /// categories, for a first look or a smoke test.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub quick: Vec<String>,
    /// Perturbed copies of the tasks (`[perturb]`); the loader has already added them to
    /// `tasks`, so this records how they were made.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub perturb: Option<PerturbSpec>,
    /// How the suite runs unless the command line says otherwise (`[run]`: retries, cache,
    /// the epochs of `--quick`).
    #[serde(default, skip_serializing_if = "RunSettings::is_empty")]
    pub run: RunSettings,
    /// BLAKE3 over every file the suite was read from, in a stable order.
    pub content_hash: String,
}

impl Suite {
    pub fn variant(&self, name: &str) -> Option<&Variant> {
        self.variants.iter().find(|v| v.name == name)
    }

    pub fn task(&self, id: &str) -> Option<&Task> {
        self.tasks.iter().find(|t| t.id == id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn report_placeholders_are_found_and_expanded_once() {
        let t = "{tmp}/x-{ts}-{nope}{}{ {a b}{run}.json";
        let found: Vec<&str> = ReportSpec::placeholders(t)
            .into_iter()
            .map(|(r, n)| {
                assert_eq!(&t[r.clone()], format!("{{{n}}}"));
                n
            })
            .collect();
        assert_eq!(found, ["tmp", "ts", "nope", "run"]);
        let value = |n: &str| match n {
            "ts" => Some("{run}".to_owned()),
            "run" => Some("R".to_owned()),
            "tmp" => Some("/t".to_owned()),
            _ => None,
        };
        assert_eq!(
            ReportSpec::expand(t, value),
            "/t/x-{run}-{nope}{}{ {a b}R.json"
        );
        assert_eq!(ReportSpec::expand("{", value), "{");
        assert_eq!(ReportSpec::expand("é{ts}}", value), "é{run}}");
    }

    /// A suite stored before `[perturb]` existed loads, and one without it stores as before.
    #[test]
    fn suites_without_perturb_store_and_load_as_before() {
        let old = serde_json::json!({
            "name": "s", "variants": [], "scorers": [], "epochs": 1, "content_hash": "h"
        });
        let suite: Suite = serde_json::from_value(old).unwrap();
        assert_eq!(suite.perturb, None);
        assert!(
            serde_json::to_value(&suite)
                .unwrap()
                .get("perturb")
                .is_none()
        );
        let with = Suite {
            perturb: Some(crate::PerturbSpec::default()),
            ..suite
        };
        let back: Suite = serde_json::from_str(&serde_json::to_string(&with).unwrap()).unwrap();
        assert_eq!(back, with);
    }
}
