use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The provider kinds a suite may name (`replay` is a command-line mode, not a provider).
/// `verity-providers` builds exactly these.
pub const PROVIDER_KINDS: &[&str] = &["local", "mock", "openai", "anthropic", "gemini", "command"];

/// Which provider answers a variant's samples, and how to reach it.
///
/// `kind` names a provider implementation (`mock`, `openai`, `anthropic`, `gemini`, `command`,
/// `local`; `replay` on the command line). Keys that only one provider understands live in `options`.
/// API keys are never stored here: only the *name* of the environment variable holding one.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ProviderSpec {
    pub kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_key_env: Option<String>,
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub options: Map<String, Value>,
}

impl ProviderSpec {
    /// `kind/model`, the identifier reports use.
    pub fn display_id(&self) -> String {
        match &self.model {
            Some(m) => format!("{}/{}", self.kind, m),
            None => self.kind.clone(),
        }
    }
}

/// Generation parameters. `None` means "the provider's default" and is left out of requests.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct GenParams {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub temperature: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub top_p: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_tokens: Option<u32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stop: Vec<String>,
    /// A JSON schema the answer must follow (structured output), where the provider supports it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response_schema: Option<Value>,
}

impl GenParams {
    /// Fills every unset field of `self` from `base` (variant settings over suite defaults).
    pub fn or(mut self, base: &GenParams) -> GenParams {
        self.temperature = self.temperature.or(base.temperature);
        self.top_p = self.top_p.or(base.top_p);
        self.seed = self.seed.or(base.seed);
        self.max_tokens = self.max_tokens.or(base.max_tokens);
        if self.stop.is_empty() {
            self.stop = base.stop.clone();
        }
        if self.response_schema.is_none() {
            self.response_schema = base.response_schema.clone();
        }
        self
    }
}

/// A prompt template: its source text, where it came from and the BLAKE3 hash of the source.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PromptTemplate {
    pub source: String,
    /// A path relative to the suite, or `inline`.
    pub origin: String,
    pub hash: String,
}

/// How a variant is grounded on a documentation / tool server.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GroundingSpec {
    /// The name of a `[servers.NAME]` entry of the suite.
    pub server: String,
    pub mode: GroundingMode,
    /// For `inject-top-k`: how many search results go into the context.
    #[serde(default = "default_k")]
    pub k: u32,
    /// For `inject-top-k`: the sentence that introduces the results in the context message
    /// (`{server}` and `{k}` are replaced). `None`: [`DEFAULT_GROUNDING_PREAMBLE`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preamble: Option<String>,
}

/// How `inject-top-k` introduces search results unless the variant's `preamble` says otherwise.
pub const DEFAULT_GROUNDING_PREAMBLE: &str = "Documentation search results from `{server}` (top {k} for the request below). Use them to choose APIs that exist and are available:";

impl GroundingSpec {
    /// The preamble with `{server}` and `{k}` filled in.
    pub fn preamble_text(&self) -> String {
        self.preamble
            .as_deref()
            .unwrap_or(DEFAULT_GROUNDING_PREAMBLE)
            .replace("{server}", &self.server)
            .replace("{k}", &self.k.to_string())
    }
}

fn default_k() -> u32 {
    5
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GroundingMode {
    /// Call the server's search tool with the task prompt and put the top K results in context.
    InjectTopK,
    /// Hand the server's tools to the model and run a bounded tool-call loop.
    Tools,
}

/// One arm of a comparison.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Variant {
    pub name: String,
    pub provider: ProviderSpec,
    #[serde(default)]
    pub params: GenParams,
    /// The user-message template; without one the task's input goes to the model as it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt: Option<PromptTemplate>,
    /// A system message (itself a template) put before the task's messages.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system: Option<PromptTemplate>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grounding: Option<GroundingSpec>,
}
