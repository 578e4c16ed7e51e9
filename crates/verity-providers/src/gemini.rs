//! The `gemini` provider: Google's Gemini API (`POST {base_url}/models/{model}:generateContent`).

use std::collections::{HashMap, VecDeque};
use std::time::Duration;

use reqwest::header::HeaderMap;
use reqwest::{StatusCode, Url};
use serde::Deserialize;
use serde_json::{Map, Value, json};
use verity_model::{
    BoxFuture, ChatMessage, GenerateRequest, Generation, Provider, ProviderError,
    ProviderErrorKind, ProviderSpec, Role, ToolCall, Usage,
};

use crate::http::{
    HttpCore, arguments_object, excerpt, function_tool, join_segments, key_env_name,
    parse_base_url, read_key, required_model, secret_header, status_kind, tool_content,
};
use crate::options::Options;
use crate::schema::to_gemini;

const DEFAULT_BASE_URL: &str = "https://generativelanguage.googleapis.com/v1beta";
const DEFAULT_KEY_ENV: &str = "GEMINI_API_KEY";

/// A driver for the Gemini API's `generateContent`.
///
/// The key is read at build time from `api_key_env` (default `GEMINI_API_KEY`; it is always
/// required) and sent as a sensitive `x-goog-api-key` header, never in the URL; it never
/// appears in `Debug` output, [`Provider::endpoint`] or an error. The model may be given with
/// or without its `models/` prefix.
///
/// # Requests
///
/// * `contents` holds the conversation with roles `user` and `model`; system messages
///   (wherever they are) are joined with a blank line into `systemInstruction`. Consecutive
///   messages of one role are merged into one turn.
/// * An assistant message's `tool_calls` become `functionCall` parts; a `tool` message becomes
///   a `functionResponse` part in a user turn, named after the call its `tool_call_id` answers
///   (or the oldest unanswered call of the previous assistant turn), its content parsed as
///   JSON and put under `result` unless it is a JSON object already.
/// * `generationConfig` carries `temperature`, `topP`, `maxOutputTokens`, `stopSequences` and
///   `seed` (which must fit in 32 bits) when set, and for a `response_schema`
///   `responseMimeType: "application/json"` plus `responseSchema`, converted to Gemini's
///   OpenAPI subset (see below; a schema that cannot be converted fails the call as a config
///   error, before anything is sent).
/// * Tools in OpenAI's function shape become one `functionDeclarations` entry, their
///   parameters converted the same way (an object schema without properties is left out, as
///   Gemini rejects it); tools of any other shape (such as `{"googleSearch": {}}`) are sent as
///   they are.
///
/// # Schema conversion
///
/// Gemini rejects keys outside its subset (`$schema`, `additionalProperties`, `$defs`, …), so
/// the conversion keeps what it understands and drops the rest:
///
/// * kept as they are: `description`, `title`, `nullable`, `required`, `minItems`, `maxItems`,
///   `minLength`, `maxLength`, `pattern`, `minimum`, `maximum`, `minProperties`,
///   `maxProperties`, `example`, `default`, `propertyOrdering`;
/// * `type` is upper-cased (`"string"` → `"STRING"`); a list of types loses `"null"` to
///   `nullable: true`, and several remaining types become an `anyOf` of one type each;
/// * `properties`, `items` and `anyOf` are converted recursively, and `propertyOrdering` is
///   added in the order the schema lists its properties (Gemini otherwise orders them
///   alphabetically);
/// * `oneOf` becomes `anyOf`; each `allOf` member is merged into its schema (keys it lacks,
///   `properties` and `required` joined);
/// * `const` of a string becomes a one-value `enum`; `enum` is kept when every value is a
///   string (Gemini's enums are strings) and dropped otherwise; `format` is kept only where
///   Gemini supports it (`enum` and `date-time` on strings, `int32`/`int64` on integers,
///   `float`/`double` on numbers);
/// * local references (`#/$defs/…`, `#/definitions/…`) are inlined, sibling keys taking
///   precedence; a recursive reference or any other `$ref` is an error, since Gemini's
///   schemas must be `$ref`-free;
/// * everything else (`$schema`, `$id`, `$defs`, `additionalProperties`, `examples`,
///   `multipleOf`, `exclusiveMinimum`, `not`, `if`/`then`/`else`, tuple `items`, …) is dropped,
///   so the model may be given a looser schema than the one a scorer checks.
///
/// # Responses
///
/// The text is the concatenation of the first candidate's `text` parts (thought parts
/// excluded); `functionCall` parts become tool calls; `finishReason` is the finish reason and
/// `modelVersion` the model. Input tokens are `promptTokenCount`; output tokens are
/// `candidatesTokenCount` plus `thoughtsTokenCount` (thinking is billed as output). A response
/// without candidates, or with `promptFeedback.blockReason`, is an invalid response naming the
/// reason. A candidate stopped for safety with no text is a (empty) answer, not an error.
///
/// # Errors
///
/// 429 (`RESOURCE_EXHAUSTED`) is rate limited, its delay from `Retry-After` or the body's
/// `RetryInfo.retryDelay`; 5xx (`UNAVAILABLE`, `INTERNAL`, …) are server errors; 401, 403
/// and a 400 whose reason is `API_KEY_INVALID` are auth errors; other statuses are client
/// errors quoting the API's `error.status` and `error.message`.
///
/// Options: `timeout_s` (per call, body included; default 60), `extra_body` (a table merged
/// into every request body, overriding), `headers` (extra request headers).
pub struct GeminiProvider {
    core: HttpCore,
    url: Url,
}

impl std::fmt::Debug for GeminiProvider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut d = f.debug_struct("GeminiProvider");
        self.core.debug_fields(&mut d);
        d.finish()
    }
}

impl GeminiProvider {
    /// The options this provider understands.
    pub const OPTIONS: &'static [&'static str] = crate::http::HTTP_OPTIONS;

    /// Builds the provider a spec of kind `gemini` names, reading its API key with `env`.
    pub fn from_spec(
        spec: &ProviderSpec,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<GeminiProvider, ProviderError> {
        let kind = spec.kind.as_str();
        let options = Options::new(spec, Self::OPTIONS)?;
        let model = required_model(spec)?;
        let model = match model.strip_prefix("models/") {
            Some(rest) if !rest.is_empty() => rest.to_owned(),
            _ => model,
        };
        let (base, endpoint) = parse_base_url(kind, spec.base_url.as_deref(), DEFAULT_BASE_URL)?;
        let url = join_segments(&base, &["models", &format!("{}:generateContent", model)]);
        let name = key_env_name(spec, Some(DEFAULT_KEY_ENV))?.unwrap_or(DEFAULT_KEY_ENV);
        let key = read_key(kind, name, env)?;
        let mut headers = HeaderMap::new();
        headers.insert("x-goog-api-key", secret_header(kind, name, &key)?);
        let core = HttpCore::new(kind, model, (&base, endpoint), headers, Some(key), &options)?;
        Ok(GeminiProvider { core, url })
    }

    async fn call(&self, req: &GenerateRequest) -> Result<Generation, ProviderError> {
        let body = request_body(req)
            .map_err(|detail| self.core.error(ProviderErrorKind::Config, &detail))?;
        let body = self.core.encode(body)?;
        let bytes = self.core.post(&self.url, body, classify).await?;
        parse_response(bytes)
            .map_err(|detail| self.core.error(ProviderErrorKind::InvalidResponse, &detail))
    }
}

impl Provider for GeminiProvider {
    fn kind(&self) -> &str {
        "gemini"
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

/// The shared status mapping, plus Google's details: a 400 for an invalid key is an auth
/// error, and a 429's delay may come from `RetryInfo` in the body.
fn classify(status: StatusCode, headers: &HeaderMap, body: &[u8]) -> ProviderErrorKind {
    let kind = status_kind(status, headers);
    let parsed: Option<Value> = serde_json::from_slice(body).ok();
    let details = parsed
        .as_ref()
        .and_then(|v| v.pointer("/error/details"))
        .and_then(Value::as_array);
    let detail_of_type = |suffix: &str| {
        details.into_iter().flatten().find(|d| {
            d.get("@type")
                .and_then(Value::as_str)
                .is_some_and(|t| t.ends_with(suffix))
        })
    };
    match kind {
        ProviderErrorKind::RateLimited { retry_after: None } => ProviderErrorKind::RateLimited {
            retry_after: detail_of_type("google.rpc.RetryInfo")
                .and_then(|d| d.get("retryDelay"))
                .and_then(Value::as_str)
                .and_then(parse_proto_duration),
        },
        ProviderErrorKind::Client { status: 400 }
            if detail_of_type("google.rpc.ErrorInfo")
                .and_then(|d| d.get("reason"))
                .and_then(Value::as_str)
                == Some("API_KEY_INVALID") =>
        {
            ProviderErrorKind::Auth { status: 400 }
        }
        other => other,
    }
}

/// A protobuf JSON duration: seconds with an `s` suffix (`"37s"`, `"0.5s"`).
fn parse_proto_duration(text: &str) -> Option<Duration> {
    let secs = text.trim().strip_suffix('s')?;
    if secs.is_empty() || !secs.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return None;
    }
    Duration::try_from_secs_f64(secs.parse().ok()?).ok()
}

/// The request body; the error is a description for a config error.
fn request_body(req: &GenerateRequest) -> Result<Value, String> {
    let params = &req.params;
    let mut body = Map::new();
    let (system, contents) = conversation(&req.messages);
    body.insert("contents".into(), Value::Array(contents));
    if let Some(system) = system {
        body.insert(
            "systemInstruction".into(),
            json!({"parts": [{"text": system}]}),
        );
    }
    let mut config = Map::new();
    if let Some(t) = params.temperature {
        config.insert("temperature".into(), json!(t));
    }
    if let Some(p) = params.top_p {
        config.insert("topP".into(), json!(p));
    }
    if let Some(n) = params.max_tokens {
        config.insert("maxOutputTokens".into(), json!(n));
    }
    if !params.stop.is_empty() {
        config.insert("stopSequences".into(), json!(params.stop));
    }
    if let Some(seed) = params.seed {
        let seed = i32::try_from(seed)
            .map_err(|_| format!("`seed` {} does not fit in Gemini's 32-bit seed", seed))?;
        config.insert("seed".into(), json!(seed));
    }
    if let Some(schema) = &params.response_schema {
        let converted =
            to_gemini(schema).map_err(|e| format!("`response_schema` for Gemini: {}", e))?;
        config.insert("responseMimeType".into(), json!("application/json"));
        config.insert("responseSchema".into(), converted);
    }
    if !config.is_empty() {
        body.insert("generationConfig".into(), Value::Object(config));
    }
    let mut declarations = Vec::new();
    let mut tools = Vec::new();
    for tool in &req.tools {
        match function_tool(tool) {
            None => tools.push(tool.clone()),
            Some(function) => {
                let function = function?;
                let mut d = Map::new();
                d.insert("name".into(), json!(function.name));
                if let Some(text) = function.description {
                    d.insert("description".into(), json!(text));
                }
                if let Some(parameters) = function.parameters.filter(|p| has_properties(p)) {
                    let converted = to_gemini(parameters)
                        .map_err(|e| format!("tool `{}` parameters: {}", function.name, e))?;
                    d.insert("parameters".into(), converted);
                }
                declarations.push(Value::Object(d));
            }
        }
    }
    if !declarations.is_empty() {
        tools.insert(0, json!({"functionDeclarations": declarations}));
    }
    if !tools.is_empty() {
        body.insert("tools".into(), Value::Array(tools));
    }
    Ok(Value::Object(body))
}

/// Whether a parameters schema is worth sending: anything but an object without properties.
fn has_properties(schema: &Value) -> bool {
    let is_object = schema.get("type").and_then(Value::as_str) == Some("object");
    let empty = schema
        .get("properties")
        .and_then(Value::as_object)
        .is_none_or(Map::is_empty);
    !(is_object && empty) && schema.as_object().is_some_and(|m| !m.is_empty())
}

/// The system text and the `contents` of a conversation.
fn conversation(messages: &[ChatMessage]) -> (Option<String>, Vec<Value>) {
    let mut system: Vec<&str> = Vec::new();
    let mut turns: Vec<(&'static str, Vec<Value>)> = Vec::new();
    // Function names by call id, and the last model turn's calls not answered yet.
    let mut names: HashMap<String, String> = HashMap::new();
    let mut unanswered: VecDeque<(Option<String>, String)> = VecDeque::new();
    let push = |turns: &mut Vec<(&'static str, Vec<Value>)>, role, parts: Vec<Value>| match turns
        .last_mut()
    {
        Some((last, existing)) if *last == role => existing.extend(parts),
        _ => turns.push((role, parts)),
    };
    for m in messages {
        match m.role {
            Role::System => system.push(&m.content),
            Role::User => push(&mut turns, "user", vec![json!({"text": m.content})]),
            Role::Assistant => {
                let mut parts = Vec::new();
                if !m.content.is_empty() || m.tool_calls.is_empty() {
                    parts.push(json!({"text": m.content}));
                }
                unanswered.clear();
                for call in &m.tool_calls {
                    if let Some(id) = &call.id {
                        names.insert(id.clone(), call.name.clone());
                    }
                    unanswered.push_back((call.id.clone(), call.name.clone()));
                    parts.push(json!({"functionCall": {
                        "name": call.name,
                        "args": arguments_object(&call.arguments),
                    }}));
                }
                push(&mut turns, "model", parts);
            }
            Role::Tool => {
                let name = match &m.tool_call_id {
                    Some(id) => {
                        unanswered.retain(|(u, _)| u.as_ref() != Some(id));
                        names.get(id).cloned().unwrap_or_else(|| id.clone())
                    }
                    None => unanswered.pop_front().map(|(_, n)| n).unwrap_or_default(),
                };
                let response = match tool_content(&m.content) {
                    object @ Value::Object(_) => object,
                    other => json!({"result": other}),
                };
                let part = json!({"functionResponse": {"name": name, "response": response}});
                push(&mut turns, "user", vec![part]);
            }
        }
    }
    let contents = turns
        .into_iter()
        .map(|(role, parts)| json!({"role": role, "parts": parts}))
        .collect();
    let system = (!system.is_empty()).then(|| system.join("\n\n"));
    (system, contents)
}

// ---------------------------------------------------------------------------------------------
// The response.

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct GenerateResponse {
    #[serde(default)]
    candidates: Option<Vec<Candidate>>,
    #[serde(default)]
    prompt_feedback: Option<PromptFeedback>,
    #[serde(default)]
    usage_metadata: Option<UsageMetadata>,
    #[serde(default)]
    model_version: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Candidate {
    #[serde(default)]
    content: Option<Content>,
    #[serde(default)]
    finish_reason: Option<String>,
}

#[derive(Deserialize)]
struct Content {
    #[serde(default)]
    parts: Option<Vec<Value>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PromptFeedback {
    #[serde(default)]
    block_reason: Option<String>,
    #[serde(default)]
    block_reason_message: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct UsageMetadata {
    #[serde(default)]
    prompt_token_count: Option<u64>,
    #[serde(default)]
    candidates_token_count: Option<u64>,
    #[serde(default)]
    thoughts_token_count: Option<u64>,
}

/// Reads a 2xx body; the error is a description for an `InvalidResponse`.
fn parse_response(bytes: Vec<u8>) -> Result<Generation, String> {
    let raw = String::from_utf8(bytes)
        .map_err(|e| format!("the response is not UTF-8 text: {}", excerpt(e.as_bytes())))?;
    let parsed: GenerateResponse = serde_json::from_str(&raw).map_err(|e| {
        format!(
            "the response is not a generateContent answer ({}): {}",
            e,
            excerpt(raw.as_bytes())
        )
    })?;
    if let Some(reason) = parsed.prompt_feedback.as_ref().and_then(|f| {
        f.block_reason
            .as_ref()
            .map(|r| (r, f.block_reason_message.as_deref()))
    }) {
        let mut detail = format!("the prompt was blocked: {}", reason.0);
        if let Some(message) = reason.1 {
            detail.push_str(&format!(" ({})", message));
        }
        return Err(detail);
    }
    let Some(candidate) = parsed.candidates.and_then(|cs| cs.into_iter().next()) else {
        return Err(format!(
            "the response has no candidates: {}",
            excerpt(raw.as_bytes())
        ));
    };
    let mut text = String::new();
    let mut tool_calls = Vec::new();
    let parts = candidate.content.and_then(|c| c.parts).unwrap_or_default();
    for part in parts {
        if part.get("thought").and_then(Value::as_bool) == Some(true) {
            continue;
        }
        if let Some(t) = part.get("text").and_then(Value::as_str) {
            text.push_str(t);
        } else if let Some(call) = part.get("functionCall") {
            let Some(name) = call.get("name").and_then(Value::as_str) else {
                return Err(format!("a `functionCall` part has no name: {}", part));
            };
            tool_calls.push(ToolCall {
                id: call.get("id").and_then(Value::as_str).map(str::to_owned),
                name: name.to_owned(),
                arguments: call.get("args").cloned().unwrap_or(json!({})),
                result: None,
                error: None,
            });
        }
    }
    let usage = parsed.usage_metadata.map_or(Usage::default(), |u| Usage {
        input_tokens: u.prompt_token_count.unwrap_or(0),
        output_tokens: u.candidates_token_count.unwrap_or(0) + u.thoughts_token_count.unwrap_or(0),
    });
    Ok(Generation {
        text,
        tool_calls,
        usage,
        model: parsed.model_version,
        finish_reason: candidate.finish_reason,
        raw,
        artifacts: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use reqwest::header::HeaderValue;

    use super::*;

    fn parse(v: Value) -> Result<Generation, String> {
        parse_response(serde_json::to_vec(&v).unwrap())
    }

    #[test]
    fn parts_and_usage() {
        let g = parse(json!({
            "candidates": [{
                "content": {"role": "model", "parts": [
                    {"text": "thinking…", "thought": true},
                    {"text": "It is "},
                    {"text": "42."},
                    {"functionCall": {"name": "lookup", "args": {"q": 1}}},
                    {"functionCall": {"id": "c9", "name": "bare"}},
                ]},
                "finishReason": "STOP",
            }, {"content": {"parts": [{"text": "second candidate"}]}}],
            "usageMetadata": {"promptTokenCount": 7, "candidatesTokenCount": 3,
                              "thoughtsTokenCount": 10, "totalTokenCount": 20},
            "modelVersion": "gemini-test-001",
        }))
        .unwrap();
        assert_eq!(g.text, "It is 42.");
        assert_eq!(
            g.usage,
            Usage {
                input_tokens: 7,
                output_tokens: 13
            }
        );
        assert_eq!(g.model.as_deref(), Some("gemini-test-001"));
        assert_eq!(g.finish_reason.as_deref(), Some("STOP"));
        let calls: Vec<_> = g
            .tool_calls
            .iter()
            .map(|c| (c.id.as_deref(), c.name.as_str(), c.arguments.clone()))
            .collect();
        assert_eq!(
            calls,
            vec![
                (None, "lookup", json!({"q": 1})),
                (Some("c9"), "bare", json!({}))
            ]
        );
    }

    #[test]
    fn a_safety_stop_without_content_is_an_empty_answer() {
        let g = parse(json!({"candidates": [{"finishReason": "SAFETY"}]})).unwrap();
        assert_eq!(g.text, "");
        assert_eq!(g.finish_reason.as_deref(), Some("SAFETY"));
        assert_eq!(g.usage, Usage::default());
    }

    #[test]
    fn blocked_and_empty_responses_are_described() {
        for (body, needle) in [
            (
                json!({"promptFeedback": {"blockReason": "SAFETY", "blockReasonMessage": "nope"}}),
                "the prompt was blocked: SAFETY (nope)",
            ),
            (
                json!({"candidates": [{"content": {"parts": [{"text": "x"}]}}],
                       "promptFeedback": {"blockReason": "OTHER"}}),
                "blocked: OTHER",
            ),
            (json!({"candidates": []}), "no candidates"),
            (json!({"usageMetadata": {}}), "no candidates"),
            (json!({"candidates": "x"}), "not a generateContent answer"),
            (
                json!({"candidates": [{"content": {"parts": [{"functionCall": {"args": {}}}]}}]}),
                "no name",
            ),
        ] {
            let err = parse(body.clone()).unwrap_err();
            assert!(err.contains(needle), "{body}: {err}");
        }
    }

    #[test]
    fn google_error_details_refine_the_kind() {
        let h = HeaderMap::new();
        let body = |v: Value| serde_json::to_vec(&v).unwrap();
        let quota = body(
            json!({"error": {"code": 429, "status": "RESOURCE_EXHAUSTED",
            "message": "Quota exceeded", "details": [
                {"@type": "type.googleapis.com/google.rpc.QuotaFailure"},
                {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "37s"},
            ]}}),
        );
        assert_eq!(
            classify(StatusCode::TOO_MANY_REQUESTS, &h, &quota),
            ProviderErrorKind::RateLimited {
                retry_after: Some(Duration::from_secs(37))
            }
        );
        // A header wins over the body.
        let mut with_header = HeaderMap::new();
        with_header.insert("retry-after", HeaderValue::from_static("2"));
        assert_eq!(
            classify(StatusCode::TOO_MANY_REQUESTS, &with_header, &quota),
            ProviderErrorKind::RateLimited {
                retry_after: Some(Duration::from_secs(2))
            }
        );
        assert_eq!(
            classify(StatusCode::TOO_MANY_REQUESTS, &h, b"not json"),
            ProviderErrorKind::RateLimited { retry_after: None }
        );
        let bad_key = body(json!({"error": {"code": 400, "status": "INVALID_ARGUMENT",
        "message": "API key not valid.", "details": [
            {"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "API_KEY_INVALID"},
        ]}}));
        assert_eq!(
            classify(StatusCode::BAD_REQUEST, &h, &bad_key),
            ProviderErrorKind::Auth { status: 400 }
        );
        let bad_arg = body(json!({"error": {"code": 400, "status": "INVALID_ARGUMENT"}}));
        assert_eq!(
            classify(StatusCode::BAD_REQUEST, &h, &bad_arg),
            ProviderErrorKind::Client { status: 400 }
        );
        assert_eq!(
            classify(StatusCode::SERVICE_UNAVAILABLE, &h, &bad_arg),
            ProviderErrorKind::Server { status: 503 }
        );
    }

    #[test]
    fn proto_durations() {
        assert_eq!(parse_proto_duration("37s"), Some(Duration::from_secs(37)));
        assert_eq!(
            parse_proto_duration("0.250s"),
            Some(Duration::from_millis(250))
        );
        for bad in ["37", "s", "-1s", "1e3s", "soon"] {
            assert_eq!(parse_proto_duration(bad), None, "{bad}");
        }
    }

    #[test]
    fn conversations_name_function_responses() {
        let call = |id: Option<&str>, name: &str| ToolCall {
            id: id.map(str::to_owned),
            name: name.into(),
            arguments: json!("{\"q\": 1}"),
            result: None,
            error: None,
        };
        let messages = vec![
            ChatMessage::new(Role::System, "be brief"),
            ChatMessage::new(Role::User, "hi"),
            ChatMessage {
                tool_calls: vec![call(Some("c1"), "search"), call(None, "clock")],
                ..ChatMessage::new(Role::Assistant, "checking")
            },
            ChatMessage {
                tool_call_id: Some("c1".into()),
                ..ChatMessage::new(Role::Tool, r#"{"hits": 2}"#)
            },
            ChatMessage::new(Role::Tool, "noon"),
            ChatMessage::new(Role::Assistant, "done"),
        ];
        let (system, contents) = conversation(&messages);
        assert_eq!(system.as_deref(), Some("be brief"));
        assert_eq!(
            Value::Array(contents),
            json!([
                {"role": "user", "parts": [{"text": "hi"}]},
                {"role": "model", "parts": [
                    {"text": "checking"},
                    {"functionCall": {"name": "search", "args": {"q": 1}}},
                    {"functionCall": {"name": "clock", "args": {"q": 1}}},
                ]},
                {"role": "user", "parts": [
                    {"functionResponse": {"name": "search", "response": {"hits": 2}}},
                    {"functionResponse": {"name": "clock", "response": {"result": "noon"}}},
                ]},
                {"role": "model", "parts": [{"text": "done"}]},
            ])
        );
    }

    #[test]
    fn parameters_worth_sending() {
        assert!(!has_properties(&json!({"type": "object"})));
        assert!(!has_properties(
            &json!({"type": "object", "properties": {}})
        ));
        assert!(!has_properties(&json!({})));
        assert!(has_properties(
            &json!({"type": "object", "properties": {"a": {"type": "string"}}})
        ));
        assert!(has_properties(&json!({"type": "string"})));
    }
}
