use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::Artifact;

/// Identifies one sample: a task under a variant at an epoch (0-based).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct SampleKey {
    pub task_id: String,
    pub variant: String,
    pub epoch: u32,
}

impl std::fmt::Display for SampleKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} [{}] #{}", self.task_id, self.variant, self.epoch)
    }
}

/// A tool call the model asked for (or a grounding call made on its behalf).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    pub name: String,
    pub arguments: Value,
    /// The tool's answer, where verity ran the tool itself (grounding).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<Value>,
    /// Why the call failed, where verity ran it and it did (timeout, protocol error, a result
    /// flagged `isError`, the server gone): failed calls are recorded like the others.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<ResponseError>,
}

/// Token usage as the provider reported it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    pub input_tokens: u64,
    pub output_tokens: u64,
}

/// Why a sample has no answer: the infrastructure failed, not the model.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ResponseError {
    /// A stable, machine-readable kind (`rate_limited`, `timeout`, `http_status`, …).
    pub kind: String,
    pub message: String,
}

/// What one sample produced. Stored raw, so a run can be re-scored without calling a model.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Response {
    /// The answer's text (empty when `error` is set).
    pub text: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<ToolCall>,
    #[serde(default)]
    pub usage: Usage,
    /// Wall time of the whole sample, retries included.
    #[serde(default)]
    pub latency_ms: u64,
    #[serde(default)]
    pub cache_hit: bool,
    /// How many provider calls it took (1 without retries).
    #[serde(default)]
    pub attempts: u32,
    /// The model id the provider reported, where it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finish_reason: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<ResponseError>,
    /// Named intermediate results of a pipeline, in the order its stages ran (the `command`
    /// provider's `artifacts`); empty for every other provider, and absent from rows stored
    /// before there were artifacts.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub artifacts: Vec<Artifact>,
}

impl Response {
    pub fn is_error(&self) -> bool {
        self.error.is_some()
    }
}
