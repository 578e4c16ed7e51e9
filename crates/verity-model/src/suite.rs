use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::{OutcomeRule, SourceLoc, Task, Variant};

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

/// A long-lived helper process the run owns (an MCP grounding server).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ServerSpec {
    pub command: Vec<String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub env: BTreeMap<String, String>,
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
/// name) and `{tmp}` (the system temporary directory); relative paths are taken from the
/// working directory verity runs in.
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

impl ReportSpec {
    pub fn is_empty(&self) -> bool {
        self.markdown.is_none() && self.json.is_none()
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
    #[serde(default, skip_serializing_if = "ReportSpec::is_empty")]
    pub report: ReportSpec,
    /// Task ids of the suite's quick subset (`verity run --quick`): a few tasks across its
    /// categories, for a first look or a smoke test.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub quick: Vec<String>,
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
