//! The `openai` provider: any server speaking OpenAI's `POST /v1/chat/completions`.

use reqwest::Url;
use reqwest::header::{AUTHORIZATION, HeaderMap};
use serde::de::{Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Serialize, Serializer};
use serde_json::Value;
use verity_model::{
    BoxFuture, ChatMessage, GenParams, GenerateRequest, Generation, Provider, ProviderError,
    ProviderErrorKind, ProviderSpec, ToolCall, Usage,
};

use crate::http::{
    HTTP_OPTIONS, HttpCore, excerpt, join_segments, key_env_name, parse_base_url, read_key,
    required_model, secret_header, status_kind,
};
use crate::options::Options;

const DEFAULT_BASE_URL: &str = "https://api.openai.com/v1";
const OPENAI_HOST: &str = "api.openai.com";
const DEFAULT_KEY_ENV: &str = "OPENAI_API_KEY";

/// A driver for OpenAI-compatible chat-completion APIs (OpenAI itself, vLLM, llama.cpp's
/// server, Ollama, LiteLLM, …).
///
/// One [`reqwest::Client`] per provider carries a connection pool shared by every call, with
/// `TCP_NODELAY` and unlimited idle connections per host, so a run at high concurrency
/// reuses warm connections. The API key, when there is one, is read from the environment when
/// the provider is built and lives only in a sensitive `Authorization` header value: it is
/// never part of `Debug` output, [`Provider::endpoint`], or an error message.
///
/// A key is needed for `api.openai.com` (`OPENAI_API_KEY` unless `api_key_env` names another
/// variable); other servers get one only when `api_key_env` is set.
///
/// Options: `timeout_s` (per call, body included; default 60), `json_mode` (ask for a JSON
/// object), `extra_body` (a table merged into every request body, overriding), `headers` (a
/// table of extra request headers).
pub struct OpenAiProvider {
    core: HttpCore,
    url: Url,
    json_mode: bool,
}

impl std::fmt::Debug for OpenAiProvider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut d = f.debug_struct("OpenAiProvider");
        self.core.debug_fields(&mut d);
        d.field("json_mode", &self.json_mode).finish()
    }
}

impl OpenAiProvider {
    /// The options this provider understands.
    pub const OPTIONS: &'static [&'static str] =
        &["timeout_s", "json_mode", "extra_body", "headers"];

    /// Builds the provider a spec of kind `openai` names, reading its API key with `env`.
    pub fn from_spec(
        spec: &ProviderSpec,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<OpenAiProvider, ProviderError> {
        debug_assert!(HTTP_OPTIONS.iter().all(|o| Self::OPTIONS.contains(o)));
        let kind = spec.kind.as_str();
        let options = Options::new(spec, Self::OPTIONS)?;
        let model = required_model(spec)?;
        let (base, endpoint) = parse_base_url(kind, spec.base_url.as_deref(), DEFAULT_BASE_URL)?;
        let url = join_segments(&base, &["chat", "completions"]);

        let default_env = (base.host_str() == Some(OPENAI_HOST)).then_some(DEFAULT_KEY_ENV);
        let mut headers = HeaderMap::new();
        let mut key = None;
        if let Some(name) = key_env_name(spec, default_env)? {
            let value = read_key(kind, name, env)?;
            headers.insert(
                AUTHORIZATION,
                secret_header(kind, name, &format!("Bearer {}", value))?,
            );
            key = Some(value);
        }
        let json_mode = options.bool("json_mode")?.unwrap_or(false);
        let core = HttpCore::new(kind, model, (&base, endpoint), headers, key, &options)?;
        Ok(OpenAiProvider {
            core,
            url,
            json_mode,
        })
    }

    async fn call(&self, req: &GenerateRequest) -> Result<Generation, ProviderError> {
        let body = serde_json::to_value(ChatRequest::new(&self.core.model, req, self.json_mode))
            .map_err(|e| {
                self.core.error(
                    ProviderErrorKind::Config,
                    &format!("cannot encode the request: {}", e),
                )
            })?;
        let body = self.core.encode(body)?;
        let bytes = self
            .core
            .post(&self.url, body, |status, headers, _| {
                status_kind(status, headers)
            })
            .await?;
        parse_response(bytes)
            .map_err(|detail| self.core.error(ProviderErrorKind::InvalidResponse, &detail))
    }
}

impl Provider for OpenAiProvider {
    fn kind(&self) -> &str {
        "openai"
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

// ---------------------------------------------------------------------------------------------
// The request, serialized straight from borrowed data.

#[derive(Serialize)]
struct ChatRequest<'a> {
    model: &'a str,
    messages: Messages<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    temperature: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    top_p: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    seed: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_tokens: Option<u32>,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    stop: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    response_format: Option<ResponseFormat<'a>>,
    #[serde(skip_serializing_if = "<[Value]>::is_empty")]
    tools: &'a [Value],
}

impl<'a> ChatRequest<'a> {
    fn new(model: &'a str, req: &'a GenerateRequest, json_mode: bool) -> Self {
        let GenParams {
            temperature,
            top_p,
            seed,
            max_tokens,
            stop,
            response_schema,
        } = &req.params;
        let response_format = match response_schema {
            Some(schema) => Some(ResponseFormat::JsonSchema {
                json_schema: JsonSchema {
                    name: "answer",
                    schema,
                    strict: true,
                },
            }),
            None if json_mode => Some(ResponseFormat::JsonObject),
            None => None,
        };
        ChatRequest {
            model,
            messages: Messages(&req.messages),
            temperature: *temperature,
            top_p: *top_p,
            seed: *seed,
            max_tokens: *max_tokens,
            stop,
            response_format,
            tools: &req.tools,
        }
    }
}

#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum ResponseFormat<'a> {
    JsonSchema { json_schema: JsonSchema<'a> },
    JsonObject,
}

#[derive(Serialize)]
struct JsonSchema<'a> {
    name: &'static str,
    schema: &'a Value,
    strict: bool,
}

/// The messages in OpenAI's wire shape (kept separate from the model crate's own serde).
struct Messages<'a>(&'a [ChatMessage]);

#[derive(Serialize)]
struct WireMessage<'a> {
    role: &'static str,
    /// Null for an assistant message that only calls tools, as OpenAI sends it.
    content: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tool_call_id: Option<&'a str>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tool_calls: Vec<Value>,
}

impl Serialize for Messages<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(|m| {
            // An assistant turn's tool calls, in OpenAI's shape: arguments as a JSON string.
            let tool_calls: Vec<Value> = m
                .tool_calls
                .iter()
                .enumerate()
                .map(|(i, call)| {
                    let arguments = match &call.arguments {
                        Value::String(s) => s.clone(),
                        other => other.to_string(),
                    };
                    serde_json::json!({
                        "id": call.id.clone().unwrap_or_else(|| format!("call_{}", i)),
                        "type": "function",
                        "function": {"name": call.name, "arguments": arguments},
                    })
                })
                .collect();
            let content = (tool_calls.is_empty() || !m.content.is_empty()).then_some(&*m.content);
            WireMessage {
                role: m.role.as_str(),
                content,
                tool_call_id: m.tool_call_id.as_deref(),
                tool_calls,
            }
        }))
    }
}

// ---------------------------------------------------------------------------------------------
// The response.

#[derive(Deserialize)]
struct ChatResponse {
    #[serde(default)]
    model: Option<String>,
    #[serde(default)]
    choices: Option<Vec<Choice>>,
    #[serde(default)]
    usage: Option<WireUsage>,
}

#[derive(Deserialize)]
struct Choice {
    #[serde(default)]
    message: Option<ResponseMessage>,
    #[serde(default)]
    finish_reason: Option<String>,
}

#[derive(Deserialize)]
struct ResponseMessage {
    #[serde(default, deserialize_with = "content_text")]
    content: String,
    #[serde(default)]
    tool_calls: Option<Vec<WireToolCall>>,
}

#[derive(Deserialize)]
struct WireToolCall {
    #[serde(default)]
    id: Option<String>,
    function: WireFunction,
}

#[derive(Deserialize)]
struct WireFunction {
    name: String,
    #[serde(default)]
    arguments: Value,
}

#[derive(Deserialize)]
struct WireUsage {
    #[serde(default)]
    prompt_tokens: Option<u64>,
    #[serde(default)]
    completion_tokens: Option<u64>,
}

/// Message content: a string, null (a tool-call answer), or a list of parts whose `text`
/// fields are concatenated.
fn content_text<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    struct ContentVisitor;

    impl<'de> Visitor<'de> for ContentVisitor {
        type Value = String;

        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a string, null, or a list of content parts")
        }

        fn visit_str<E>(self, v: &str) -> Result<String, E> {
            Ok(v.to_owned())
        }

        fn visit_string<E>(self, v: String) -> Result<String, E> {
            Ok(v)
        }

        fn visit_unit<E>(self) -> Result<String, E> {
            Ok(String::new())
        }

        fn visit_none<E>(self) -> Result<String, E> {
            Ok(String::new())
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<String, A::Error> {
            let mut out = String::new();
            while let Some(part) = seq.next_element::<Value>()? {
                match &part {
                    Value::String(s) => out.push_str(s),
                    other => {
                        if let Some(text) = other.get("text").and_then(Value::as_str) {
                            out.push_str(text);
                        }
                    }
                }
            }
            Ok(out)
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<String, A::Error> {
            // A single part given as an object.
            let mut out = String::new();
            while let Some(key) = map.next_key::<String>()? {
                if key == "text" {
                    if let Value::String(s) = map.next_value::<Value>()? {
                        out = s;
                    }
                } else {
                    map.next_value::<IgnoredAny>()?;
                }
            }
            Ok(out)
        }
    }

    d.deserialize_any(ContentVisitor)
}

/// Reads a 2xx body; the error is a description for an `InvalidResponse`.
pub(crate) fn parse_response(bytes: Vec<u8>) -> Result<Generation, String> {
    let raw = String::from_utf8(bytes)
        .map_err(|e| format!("the response is not UTF-8 text: {}", excerpt(e.as_bytes())))?;
    let parsed: ChatResponse = serde_json::from_str(&raw).map_err(|e| {
        format!(
            "the response is not a chat completion ({}): {}",
            e,
            excerpt(raw.as_bytes())
        )
    })?;
    let Some(choice) = parsed.choices.and_then(|cs| cs.into_iter().next()) else {
        return Err(format!(
            "the response has no `choices`: {}",
            excerpt(raw.as_bytes())
        ));
    };
    let Some(message) = choice.message else {
        return Err(format!(
            "the first choice has no `message`: {}",
            excerpt(raw.as_bytes())
        ));
    };
    let tool_calls = message
        .tool_calls
        .unwrap_or_default()
        .into_iter()
        .map(|call| ToolCall {
            id: call.id,
            name: call.function.name,
            arguments: match call.function.arguments {
                Value::String(s) => serde_json::from_str(&s).unwrap_or(Value::String(s)),
                other => other,
            },
            result: None,
            error: None,
        })
        .collect();
    let usage = parsed.usage.map_or(Usage::default(), |u| Usage {
        input_tokens: u.prompt_tokens.unwrap_or(0),
        output_tokens: u.completion_tokens.unwrap_or(0),
    });
    Ok(Generation {
        text: message.content,
        tool_calls,
        usage,
        model: parsed.model,
        finish_reason: choice.finish_reason,
        raw,
        artifacts: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn parse(v: Value) -> Result<Generation, String> {
        parse_response(serde_json::to_vec(&v).unwrap())
    }

    #[test]
    fn content_forms() {
        let with = |content: Value| {
            parse(json!({"choices": [{"message": {"role": "assistant", "content": content}}]}))
                .unwrap()
                .text
        };
        assert_eq!(with(json!("hi")), "hi");
        assert_eq!(with(json!(null)), "");
        assert_eq!(
            with(json!([{"type": "text", "text": "a"}, {"type": "image"}, "b"])),
            "ab"
        );
        assert_eq!(with(json!({"type": "text", "text": "single"})), "single");
        let missing = parse(json!({"choices": [{"message": {"role": "assistant"}}]})).unwrap();
        assert_eq!(missing.text, "");
        assert!(parse(json!({"choices": [{"message": {"content": 5}}]})).is_err());
    }

    #[test]
    fn tool_calls_parse_arguments_as_json_when_possible() {
        let g = parse(
            json!({"choices": [{"message": {"content": null, "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{\"a\": 1}"}},
            {"type": "function", "function": {"name": "g", "arguments": "not json"}},
            {"id": "c3", "type": "function", "function": {"name": "h", "arguments": {"b": 2}}},
        ]}, "finish_reason": "tool_calls"}]}),
        )
        .unwrap();
        let got: Vec<(Option<&str>, &str, &Value)> = g
            .tool_calls
            .iter()
            .map(|c| (c.id.as_deref(), c.name.as_str(), &c.arguments))
            .collect();
        assert_eq!(
            got,
            vec![
                (Some("c1"), "f", &json!({"a": 1})),
                (None, "g", &json!("not json")),
                (Some("c3"), "h", &json!({"b": 2})),
            ]
        );
        assert_eq!(g.finish_reason.as_deref(), Some("tool_calls"));
    }

    #[test]
    fn bad_shapes_are_described() {
        for (body, needle) in [
            (json!({"id": "x"}), "no `choices`"),
            (json!({"choices": []}), "no `choices`"),
            (
                json!({"choices": [{"finish_reason": "stop"}]}),
                "no `message`",
            ),
            (json!({"choices": "nope"}), "not a chat completion"),
            (json!([1, 2]), "not a chat completion"),
            (json!({"error": {"message": "overloaded"}}), "overloaded"),
        ] {
            let err = parse(body.clone()).unwrap_err();
            assert!(err.contains(needle), "{body}: {err}");
        }
        assert!(
            parse_response(vec![0xff, 0x00])
                .unwrap_err()
                .contains("not UTF-8")
        );
    }

    #[test]
    fn usage_tolerates_nulls_and_absence() {
        let base = json!({"choices": [{"message": {"content": "x"}}]});
        assert_eq!(parse(base.clone()).unwrap().usage, Usage::default());
        let mut with_nulls = base;
        with_nulls["usage"] = json!({"prompt_tokens": null, "completion_tokens": 4});
        assert_eq!(
            parse(with_nulls).unwrap().usage,
            Usage {
                input_tokens: 0,
                output_tokens: 4
            }
        );
    }
}
