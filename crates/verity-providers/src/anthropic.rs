//! The `anthropic` provider: Anthropic's Messages API (`POST {base_url}/messages`).

use std::collections::VecDeque;

use reqwest::header::{HeaderMap, HeaderValue};
use reqwest::{StatusCode, Url};
use serde::Deserialize;
use serde_json::{Map, Value, json};
use verity_model::{
    BoxFuture, ChatMessage, GenerateRequest, Generation, Provider, ProviderError,
    ProviderErrorKind, ProviderSpec, Role, ToolCall, Usage,
};

use crate::http::{
    HttpCore, arguments_object, excerpt, function_tool, join_segments, key_env_name,
    parse_base_url, read_key, required_model, secret_header, status_kind,
};
use crate::options::Options;

const DEFAULT_BASE_URL: &str = "https://api.anthropic.com/v1";
const DEFAULT_KEY_ENV: &str = "ANTHROPIC_API_KEY";
const API_VERSION: &str = "2023-06-01";
/// The API requires `max_tokens`; this is sent when the variant sets none.
pub(crate) const DEFAULT_MAX_TOKENS: u32 = 1024;
/// The tool a `response_schema` becomes.
const ANSWER_TOOL: &str = "answer";

/// A driver for Anthropic's Messages API.
///
/// The key is read at build time from `api_key_env` (default `ANTHROPIC_API_KEY`; it is
/// always required) and sent as a sensitive `x-api-key` header, with `anthropic-version:
/// 2023-06-01`; it never appears in `Debug` output, [`Provider::endpoint`] or an error.
///
/// # Requests
///
/// * System messages (wherever they are in the conversation) are joined with a blank line
///   into the top-level `system` field.
/// * `max_tokens` is always sent: the variant's, else 1024. `temperature`, `top_p` and `stop`
///   (as `stop_sequences`) are sent when set; `seed` has no Anthropic equivalent and is not
///   sent.
/// * Tools given in OpenAI's function shape become `{name, description, input_schema}`; tools
///   of any other shape (Anthropic's own, such as server-side tools) are sent as they are.
/// * An assistant message's `tool_calls` become `tool_use` blocks after its text; `tool`
///   messages become `tool_result` blocks in a user turn. Consecutive messages of one role are
///   merged into one turn, so several tool results answer one assistant turn together. A
///   tool message without a `tool_call_id` answers the oldest unanswered call of the previous
///   assistant turn.
/// * `response_schema` has no native counterpart; it is sent the documented way, as a tool
///   named `answer` whose `input_schema` is the schema, forced with `tool_choice: {type:
///   "tool", name: "answer"}`. A schema whose root is not an object is wrapped as the `answer`
///   property of one. The answer's text is then the tool's input as compact JSON (unwrapped
///   again); the `answer` call is not reported among the tool calls.
///
/// # Responses
///
/// The text is the concatenation of the `text` blocks; `tool_use` blocks become tool calls;
/// `stop_reason` is the finish reason; input tokens include cache reads and writes.
///
/// # Errors
///
/// 429 is rate limited (with `retry-after`), 529 (overloaded) and other 5xx are server
/// errors (both retried by the runner); 401 and 403 are auth errors; other statuses are client
/// errors quoting the API's `error.type` and `error.message`.
///
/// Options: `timeout_s` (per call, body included; default 60), `extra_body` (a table merged
/// into every request body, overriding), `headers` (extra request headers, e.g.
/// `anthropic-beta`; they override the provider's own).
pub struct AnthropicProvider {
    core: HttpCore,
    url: Url,
}

impl std::fmt::Debug for AnthropicProvider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut d = f.debug_struct("AnthropicProvider");
        self.core.debug_fields(&mut d);
        d.finish()
    }
}

impl AnthropicProvider {
    /// The options this provider understands.
    pub const OPTIONS: &'static [&'static str] = crate::http::HTTP_OPTIONS;

    /// Builds the provider a spec of kind `anthropic` names, reading its API key with `env`.
    pub fn from_spec(
        spec: &ProviderSpec,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<AnthropicProvider, ProviderError> {
        let kind = spec.kind.as_str();
        let options = Options::new(spec, Self::OPTIONS)?;
        let model = required_model(spec)?;
        let (base, endpoint) = parse_base_url(kind, spec.base_url.as_deref(), DEFAULT_BASE_URL)?;
        let url = join_segments(&base, &["messages"]);
        let name = key_env_name(spec, Some(DEFAULT_KEY_ENV))?.unwrap_or(DEFAULT_KEY_ENV);
        let key = read_key(kind, name, env)?;
        let mut headers = HeaderMap::new();
        headers.insert("x-api-key", secret_header(kind, name, &key)?);
        headers.insert("anthropic-version", HeaderValue::from_static(API_VERSION));
        let core = HttpCore::new(kind, model, (&base, endpoint), headers, Some(key), &options)?;
        Ok(AnthropicProvider { core, url })
    }

    async fn call(&self, req: &GenerateRequest) -> Result<Generation, ProviderError> {
        let (body, answer) = request_body(&self.core.model, req)
            .map_err(|detail| self.core.error(ProviderErrorKind::Config, &detail))?;
        let body = self.core.encode(body)?;
        let bytes = self.core.post(&self.url, body, classify).await?;
        parse_response(bytes, answer)
            .map_err(|detail| self.core.error(ProviderErrorKind::InvalidResponse, &detail))
    }
}

impl Provider for AnthropicProvider {
    fn kind(&self) -> &str {
        "anthropic"
    }

    fn model(&self) -> &str {
        &self.core.model
    }

    fn endpoint(&self) -> String {
        self.core.endpoint.clone()
    }

    fn generate<'a>(
        &'a self,
        req: &'a GenerateRequest,
    ) -> BoxFuture<'a, Result<Generation, ProviderError>> {
        Box::pin(self.call(req))
    }
}

/// Anthropic's statuses: the shared mapping covers them (429, 401/403, 529 and 5xx).
fn classify(status: StatusCode, headers: &HeaderMap, _body: &[u8]) -> ProviderErrorKind {
    status_kind(status, headers)
}

/// How the answer comes back when a `response_schema` was turned into the `answer` tool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Answer {
    /// No schema: the text blocks are the answer.
    Text,
    /// The tool's input is the answer.
    Tool,
    /// The tool's input holds the answer under `answer` (a schema whose root is not an object).
    Wrapped,
}

/// The request body, and how to read the answer. The error is a description for a config
/// error (a tool that cannot be converted, a tool that clashes with `answer`).
fn request_body(model: &str, req: &GenerateRequest) -> Result<(Value, Answer), String> {
    let params = &req.params;
    let mut body = Map::new();
    body.insert("model".into(), json!(model));
    body.insert(
        "max_tokens".into(),
        json!(params.max_tokens.unwrap_or(DEFAULT_MAX_TOKENS)),
    );
    let (system, messages) = conversation(&req.messages);
    if let Some(system) = system {
        body.insert("system".into(), Value::String(system));
    }
    body.insert("messages".into(), Value::Array(messages));
    if let Some(t) = params.temperature {
        body.insert("temperature".into(), json!(t));
    }
    if let Some(p) = params.top_p {
        body.insert("top_p".into(), json!(p));
    }
    if !params.stop.is_empty() {
        body.insert("stop_sequences".into(), json!(params.stop));
    }
    let mut tools = req
        .tools
        .iter()
        .map(convert_tool)
        .collect::<Result<Vec<_>, _>>()?;
    let mut answer = Answer::Text;
    if let Some(schema) = &params.response_schema {
        if tools
            .iter()
            .any(|t| t.get("name").and_then(Value::as_str) == Some(ANSWER_TOOL))
        {
            return Err(format!(
                "a tool is named `{}`, the name a `response_schema` takes",
                ANSWER_TOOL
            ));
        }
        let is_object = schema.get("type").and_then(Value::as_str) == Some("object");
        let input_schema = if is_object {
            answer = Answer::Tool;
            schema.clone()
        } else {
            answer = Answer::Wrapped;
            json!({"type": "object", "properties": {ANSWER_TOOL: schema}, "required": [ANSWER_TOOL]})
        };
        tools.push(json!({
            "name": ANSWER_TOOL,
            "description": "Give the final answer in this structure.",
            "input_schema": input_schema,
        }));
        body.insert(
            "tool_choice".into(),
            json!({"type": "tool", "name": ANSWER_TOOL}),
        );
    }
    if !tools.is_empty() {
        body.insert("tools".into(), Value::Array(tools));
    }
    Ok((Value::Object(body), answer))
}

/// An OpenAI-function-shaped tool as Anthropic's `{name, description, input_schema}`; other
/// shapes as they are.
fn convert_tool(tool: &Value) -> Result<Value, String> {
    let Some(function) = function_tool(tool) else {
        return Ok(tool.clone());
    };
    let function = function?;
    let mut out = Map::new();
    out.insert("name".into(), json!(function.name));
    if let Some(d) = function.description {
        out.insert("description".into(), json!(d));
    }
    let schema = function
        .parameters
        .cloned()
        .unwrap_or_else(|| json!({"type": "object", "properties": {}}));
    out.insert("input_schema".into(), schema);
    Ok(Value::Object(out))
}

/// The system text and the turns of a conversation in Anthropic's shape.
fn conversation(messages: &[ChatMessage]) -> (Option<String>, Vec<Value>) {
    let mut system: Vec<&str> = Vec::new();
    // (role, blocks) with consecutive roles merged.
    let mut turns: Vec<(&'static str, Vec<Value>)> = Vec::new();
    // Ids of the last assistant turn's tool calls not answered yet.
    let mut unanswered: VecDeque<String> = VecDeque::new();
    let push = |turns: &mut Vec<(&'static str, Vec<Value>)>, role, blocks: Vec<Value>| match turns
        .last_mut()
    {
        Some((last, existing)) if *last == role => existing.extend(blocks),
        _ => turns.push((role, blocks)),
    };
    for m in messages {
        match m.role {
            Role::System => system.push(&m.content),
            Role::User => push(&mut turns, "user", vec![text_block(&m.content)]),
            Role::Assistant => {
                let mut blocks = Vec::new();
                if !m.content.is_empty() || m.tool_calls.is_empty() {
                    blocks.push(text_block(&m.content));
                }
                unanswered.clear();
                for (i, call) in m.tool_calls.iter().enumerate() {
                    let id = call.id.clone().unwrap_or_else(|| format!("toolu_{}", i));
                    unanswered.push_back(id.clone());
                    blocks.push(json!({
                        "type": "tool_use",
                        "id": id,
                        "name": call.name,
                        "input": arguments_object(&call.arguments),
                    }));
                }
                push(&mut turns, "assistant", blocks);
            }
            Role::Tool => {
                let id = match &m.tool_call_id {
                    Some(id) => {
                        unanswered.retain(|u| u != id);
                        id.clone()
                    }
                    None => unanswered.pop_front().unwrap_or_default(),
                };
                let block = json!({
                    "type": "tool_result",
                    "tool_use_id": id,
                    "content": m.content,
                });
                push(&mut turns, "user", vec![block]);
            }
        }
    }
    let messages = turns
        .into_iter()
        .map(|(role, mut blocks)| {
            // A turn that is one text block is sent as a plain string.
            let content = if blocks.len() == 1 && blocks[0]["type"] == "text" {
                blocks.swap_remove(0)["text"].take()
            } else {
                Value::Array(blocks)
            };
            json!({"role": role, "content": content})
        })
        .collect();
    let system = (!system.is_empty()).then(|| system.join("\n\n"));
    (system, messages)
}

fn text_block(text: &str) -> Value {
    json!({"type": "text", "text": text})
}

// ---------------------------------------------------------------------------------------------
// The response.

#[derive(Deserialize)]
struct MessagesResponse {
    #[serde(default, rename = "type")]
    kind: Option<String>,
    #[serde(default)]
    model: Option<String>,
    #[serde(default)]
    content: Option<Vec<Value>>,
    #[serde(default)]
    stop_reason: Option<String>,
    #[serde(default)]
    usage: Option<WireUsage>,
}

#[derive(Deserialize)]
struct WireUsage {
    #[serde(default)]
    input_tokens: Option<u64>,
    #[serde(default)]
    output_tokens: Option<u64>,
    #[serde(default)]
    cache_creation_input_tokens: Option<u64>,
    #[serde(default)]
    cache_read_input_tokens: Option<u64>,
}

/// Reads a 2xx body; the error is a description for an `InvalidResponse`.
fn parse_response(bytes: Vec<u8>, answer: Answer) -> Result<Generation, String> {
    let raw = String::from_utf8(bytes)
        .map_err(|e| format!("the response is not UTF-8 text: {}", excerpt(e.as_bytes())))?;
    let parsed: MessagesResponse = serde_json::from_str(&raw).map_err(|e| {
        format!(
            "the response is not a message ({}): {}",
            e,
            excerpt(raw.as_bytes())
        )
    })?;
    if parsed.kind.as_deref() == Some("error") {
        return Err(format!(
            "the API answered with an error: {}",
            excerpt(raw.as_bytes())
        ));
    }
    let Some(content) = parsed.content else {
        return Err(format!(
            "the response has no `content`: {}",
            excerpt(raw.as_bytes())
        ));
    };
    let mut text = String::new();
    let mut tool_calls = Vec::new();
    let mut structured: Option<Value> = None;
    for block in content {
        match block.get("type").and_then(Value::as_str) {
            Some("text") => {
                if let Some(t) = block.get("text").and_then(Value::as_str) {
                    text.push_str(t);
                }
            }
            Some("tool_use") => {
                let Some(name) = block.get("name").and_then(Value::as_str) else {
                    return Err(format!("a `tool_use` block has no name: {}", block));
                };
                let input = block.get("input").cloned().unwrap_or(Value::Null);
                if answer != Answer::Text && name == ANSWER_TOOL && structured.is_none() {
                    structured = Some(match answer {
                        Answer::Wrapped => input.get(ANSWER_TOOL).cloned().unwrap_or(input),
                        _ => input,
                    });
                    continue;
                }
                tool_calls.push(ToolCall {
                    id: block.get("id").and_then(Value::as_str).map(str::to_owned),
                    name: name.to_owned(),
                    arguments: input,
                    result: None,
                    error: None,
                });
            }
            // Thinking, redacted thinking, server tool results…: not part of the answer.
            _ => {}
        }
    }
    if let Some(value) = structured {
        text = value.to_string();
    }
    let usage = parsed.usage.map_or(Usage::default(), |u| Usage {
        input_tokens: u.input_tokens.unwrap_or(0)
            + u.cache_creation_input_tokens.unwrap_or(0)
            + u.cache_read_input_tokens.unwrap_or(0),
        output_tokens: u.output_tokens.unwrap_or(0),
    });
    Ok(Generation {
        text,
        tool_calls,
        usage,
        model: parsed.model,
        finish_reason: parsed.stop_reason,
        raw,
        artifacts: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(v: Value, answer: Answer) -> Result<Generation, String> {
        parse_response(serde_json::to_vec(&v).unwrap(), answer)
    }

    #[test]
    fn mixed_blocks_concatenate_text_and_collect_tool_uses() {
        let g = parse(
            json!({
                "type": "message", "model": "claude-x", "stop_reason": "tool_use",
                "content": [
                    {"type": "thinking", "thinking": "hmm", "signature": "s"},
                    {"type": "text", "text": "Let me "},
                    {"type": "text", "text": "look."},
                    {"type": "tool_use", "id": "toolu_1", "name": "search", "input": {"q": "x"}},
                ],
                "usage": {"input_tokens": 10, "output_tokens": 5,
                          "cache_read_input_tokens": 100, "cache_creation_input_tokens": null},
            }),
            Answer::Text,
        )
        .unwrap();
        assert_eq!(g.text, "Let me look.");
        assert_eq!(g.tool_calls.len(), 1);
        assert_eq!(g.tool_calls[0].id.as_deref(), Some("toolu_1"));
        assert_eq!(g.tool_calls[0].arguments, json!({"q": "x"}));
        assert_eq!(
            g.usage,
            Usage {
                input_tokens: 110,
                output_tokens: 5
            }
        );
        assert_eq!(g.finish_reason.as_deref(), Some("tool_use"));
        assert_eq!(g.model.as_deref(), Some("claude-x"));
    }

    #[test]
    fn the_answer_tool_becomes_the_text() {
        let body = json!({"content": [
            {"type": "tool_use", "id": "t", "name": "answer", "input": {"answer": [1, 2]}},
        ]});
        let g = parse(body.clone(), Answer::Wrapped).unwrap();
        assert_eq!(g.text, "[1,2]");
        assert!(g.tool_calls.is_empty());
        assert_eq!(
            parse(body.clone(), Answer::Tool).unwrap().text,
            r#"{"answer":[1,2]}"#
        );
        // Without a schema, a tool named `answer` is just a tool call.
        let g = parse(body, Answer::Text).unwrap();
        assert_eq!(g.text, "");
        assert_eq!(g.tool_calls[0].name, "answer");
    }

    #[test]
    fn bad_shapes_are_described() {
        for (body, needle) in [
            (json!({"id": "x"}), "no `content`"),
            (json!({"content": "text"}), "not a message"),
            (json!([1]), "not a message"),
            (
                json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}),
                "Overloaded",
            ),
            (
                json!({"content": [{"type": "tool_use", "input": {}}]}),
                "no name",
            ),
        ] {
            let err = parse(body.clone(), Answer::Text).unwrap_err();
            assert!(err.contains(needle), "{body}: {err}");
        }
        assert!(
            parse_response(vec![0xff], Answer::Text)
                .unwrap_err()
                .contains("not UTF-8")
        );
    }

    #[test]
    fn conversations_merge_turns_and_pair_tool_results() {
        let call = |id: Option<&str>, name: &str| ToolCall {
            id: id.map(str::to_owned),
            name: name.into(),
            arguments: json!({"q": name}),
            result: None,
            error: None,
        };
        let messages = vec![
            ChatMessage::new(Role::System, "one"),
            ChatMessage::new(Role::User, "hi"),
            ChatMessage {
                tool_calls: vec![call(Some("a"), "f"), call(None, "g")],
                ..ChatMessage::new(Role::Assistant, "")
            },
            ChatMessage {
                tool_call_id: Some("a".into()),
                ..ChatMessage::new(Role::Tool, "ra")
            },
            ChatMessage::new(Role::Tool, "rg"),
            ChatMessage::new(Role::User, "thanks"),
            ChatMessage::new(Role::System, "two"),
        ];
        let (system, turns) = conversation(&messages);
        assert_eq!(system.as_deref(), Some("one\n\ntwo"));
        assert_eq!(
            Value::Array(turns),
            json!([
                {"role": "user", "content": "hi"},
                {"role": "assistant", "content": [
                    {"type": "tool_use", "id": "a", "name": "f", "input": {"q": "f"}},
                    {"type": "tool_use", "id": "toolu_1", "name": "g", "input": {"q": "g"}},
                ]},
                {"role": "user", "content": [
                    {"type": "tool_result", "tool_use_id": "a", "content": "ra"},
                    {"type": "tool_result", "tool_use_id": "toolu_1", "content": "rg"},
                    {"type": "text", "text": "thanks"},
                ]},
            ])
        );
    }
}
