use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Where a definition came from: a file and a 1-based line, for messages that point back at
/// the suite.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourceLoc {
    pub file: String,
    pub line: u32,
    pub column: u32,
}

impl std::fmt::Display for SourceLoc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

/// A chat role, as the OpenAI-style APIs (and inspect_ai's datasets) name them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    System,
    User,
    Assistant,
    Tool,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::System => "system",
            Role::User => "user",
            Role::Assistant => "assistant",
            Role::Tool => "tool",
        }
    }

    pub fn parse(s: &str) -> Option<Role> {
        match s {
            "system" => Some(Role::System),
            "user" => Some(Role::User),
            "assistant" => Some(Role::Assistant),
            "tool" => Some(Role::Tool),
            _ => None,
        }
    }
}

/// One chat message.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChatMessage {
    pub role: Role,
    pub content: String,
    /// For `tool` messages: the id of the call this answers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
    /// For `assistant` messages in a tool-call loop: the calls the model asked for.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<crate::ToolCall>,
}

impl ChatMessage {
    pub fn new(role: Role, content: impl Into<String>) -> Self {
        ChatMessage {
            role,
            content: content.into(),
            tool_call_id: None,
            tool_calls: Vec::new(),
        }
    }
}

/// What a task gives the model: a single prompt or a whole conversation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Input {
    Prompt(String),
    Messages(Vec<ChatMessage>),
}

impl Input {
    /// The text of the last user message (or the prompt): what a template calls `prompt`.
    pub fn prompt_text(&self) -> &str {
        match self {
            Input::Prompt(p) => p,
            Input::Messages(ms) => ms
                .iter()
                .rev()
                .find(|m| m.role == Role::User)
                .map(|m| m.content.as_str())
                .unwrap_or(""),
        }
    }
}

/// One task of a suite: an input plus what its scorers expect.
///
/// `expect` is free-form on purpose: each scorer reads the keys it understands (`must_contain`,
/// `regex`, `success_hints`, a facts reference, a schema…) and the core only routes them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Task {
    pub id: String,
    pub input: Input,
    /// inspect_ai's `target`: the reference answer(s), used by `equals` / `contains` by default.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub target: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
    /// Free-form metadata (language, target platform, hints…); templates see it as `metadata`.
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub metadata: Map<String, Value>,
    /// Free-form expectations read by scorers.
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub expect: Map<String, Value>,
    /// Where the task was defined.
    #[serde(default)]
    pub source: SourceLoc,
}

impl Task {
    /// A task with just an id and a prompt; handy for tests and quick runs.
    pub fn prompt(id: impl Into<String>, prompt: impl Into<String>) -> Self {
        Task {
            id: id.into(),
            input: Input::Prompt(prompt.into()),
            target: Vec::new(),
            category: None,
            metadata: Map::new(),
            expect: Map::new(),
            source: SourceLoc::default(),
        }
    }
}
