//! The `openai` provider: any server speaking OpenAI's `POST /v1/chat/completions`.

use std::time::Duration;

use reqwest::header::{AUTHORIZATION, CONTENT_TYPE, HeaderMap, HeaderName, HeaderValue};
use reqwest::{Client, Url};
use serde::de::{Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Serialize, Serializer};
use serde_json::{Map, Value};
use verity_model::{
    BoxFuture, ChatMessage, GenParams, GenerateRequest, Generation, Provider, ProviderError,
    ProviderErrorKind, ProviderSpec, ToolCall, Usage,
};

use crate::http::{describe, excerpt, status_kind, transport_kind};
use crate::options::{Options, config_error};

const DEFAULT_BASE_URL: &str = "https://api.openai.com/v1";
const OPENAI_HOST: &str = "api.openai.com";
const DEFAULT_KEY_ENV: &str = "OPENAI_API_KEY";
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// A driver for OpenAI-compatible chat-completion APIs (OpenAI itself, vLLM, llama.cpp's
/// server, Ollama, LiteLLM, …).
///
/// One [`reqwest::Client`] per provider carries a connection pool shared by every call, with
/// `TCP_NODELAY` and unlimited idle connections per host, so a run at high concurrency
/// reuses warm connections. The API key, when there is one, is read from the environment when
/// the provider is built and lives only in a sensitive `Authorization` header value: it is
/// never part of `Debug` output, [`Provider::endpoint`], or an error message.
///
/// Options: `timeout_s` (per call, body included; default 60), `json_mode` (ask for a JSON
/// object), `extra_body` (a table merged into every request body, overriding), `headers` (a
/// table of extra request headers).
pub struct OpenAiProvider {
    client: Client,
    model: String,
    /// The base URL without credentials, query or trailing slash.
    endpoint: String,
    url: Url,
    timeout: Duration,
    json_mode: bool,
    extra_body: Option<Map<String, Value>>,
    extra_header_names: Vec<String>,
    /// Kept only to scrub it from error messages, should a server echo it back.
    key: Option<String>,
}

impl std::fmt::Debug for OpenAiProvider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenAiProvider")
            .field("model", &self.model)
            .field("endpoint", &self.endpoint)
            .field("timeout", &self.timeout)
            .field("json_mode", &self.json_mode)
            .field(
                "extra_body",
                &self
                    .extra_body
                    .as_ref()
                    .map(|m| m.keys().collect::<Vec<_>>()),
            )
            .field("extra_headers", &self.extra_header_names)
            .field(
                "api_key",
                &if self.key.is_some() {
                    "<redacted>"
                } else {
                    "<none>"
                },
            )
            .finish()
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
        let kind = spec.kind.as_str();
        let options = Options::new(spec, Self::OPTIONS)?;
        let model = match spec.model.as_deref().map(str::trim) {
            Some(m) if !m.is_empty() => m.to_owned(),
            _ => return Err(config_error(kind, "`model` is required")),
        };
        let (base, endpoint) = parse_base_url(kind, spec.base_url.as_deref())?;
        let mut url = base.clone();
        url.set_path(&format!(
            "{}/chat/completions",
            base.path().trim_end_matches('/')
        ));

        let key_env = match spec.api_key_env.as_deref() {
            Some(name) if name.trim().is_empty() => {
                return Err(config_error(kind, "`api_key_env` is empty"));
            }
            Some(name) => Some(name),
            None if base.host_str() == Some(OPENAI_HOST) => Some(DEFAULT_KEY_ENV),
            None => None,
        };
        let key = match key_env {
            None => None,
            Some(name) => match env(name).filter(|v| !v.trim().is_empty()) {
                Some(value) => Some(value.trim().to_owned()),
                None => {
                    return Err(config_error(
                        kind,
                        format!(
                            "the API key environment variable `{}` is not set or empty",
                            name
                        ),
                    ));
                }
            },
        };

        let timeout = options
            .duration("timeout_s", 1.0, true)?
            .unwrap_or(DEFAULT_TIMEOUT);
        let json_mode = options.bool("json_mode")?.unwrap_or(false);
        let extra_body = options
            .object("extra_body")?
            .filter(|m| !m.is_empty())
            .cloned();

        let mut headers = HeaderMap::new();
        headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        if let (Some(key), Some(name)) = (&key, key_env) {
            let mut value = HeaderValue::from_str(&format!("Bearer {}", key)).map_err(|_| {
                config_error(
                    kind,
                    format!(
                        "the API key in `{}` has characters not allowed in a header",
                        name
                    ),
                )
            })?;
            value.set_sensitive(true);
            headers.insert(AUTHORIZATION, value);
        }
        let mut extra_header_names = Vec::new();
        for (name, value) in options.object("headers")?.into_iter().flatten() {
            let header = HeaderName::from_bytes(name.as_bytes()).map_err(|_| {
                config_error(kind, format!("`headers`: `{}` is not a header name", name))
            })?;
            let mut value = value
                .as_str()
                .and_then(|v| HeaderValue::from_str(v).ok())
                .ok_or_else(|| {
                    config_error(
                        kind,
                        format!("`headers.{}` must be a string valid in a header", name),
                    )
                })?;
            value.set_sensitive(true);
            headers.insert(header, value);
            extra_header_names.push(name.clone());
        }

        let mut builder = Client::builder()
            .default_headers(headers)
            .user_agent(concat!("verity/", env!("CARGO_PKG_VERSION")))
            .timeout(timeout)
            .connect_timeout(timeout.min(Duration::from_secs(30)))
            .tcp_nodelay(true)
            .tcp_keepalive(Duration::from_secs(60))
            .pool_max_idle_per_host(usize::MAX)
            .pool_idle_timeout(Duration::from_secs(90))
            .redirect(reqwest::redirect::Policy::none());
        if is_loopback(&base) {
            // A proxy from the environment must not capture calls to a local server.
            builder = builder.no_proxy();
        }
        let client = builder.build().map_err(|e| {
            config_error(
                kind,
                format!("cannot build an HTTP client: {}", describe(e)),
            )
        })?;

        Ok(OpenAiProvider {
            client,
            model,
            endpoint,
            url,
            timeout,
            json_mode,
            extra_body,
            extra_header_names,
            key,
        })
    }

    /// An error whose message names the endpoint and never contains the key.
    fn error(&self, kind: ProviderErrorKind, detail: &str) -> ProviderError {
        let mut message = format!("{} ({}): {}", self.endpoint, self.model, detail);
        if let Some(key) = &self.key {
            message = message.replace(key.as_str(), "[redacted]");
        }
        ProviderError::new(kind, message)
    }

    /// A failure while sending the request, or (`stage`) while reading the response body.
    fn transport_error(&self, stage: &str, e: reqwest::Error) -> ProviderError {
        let kind = transport_kind(&e);
        let detail = if kind == ProviderErrorKind::Timeout {
            format!(
                "no complete response within {:?} ({})",
                self.timeout,
                describe(e)
            )
        } else {
            format!("{} failed: {}", stage, describe(e))
        };
        self.error(kind, &detail)
    }

    fn request_body(&self, req: &GenerateRequest) -> Result<Vec<u8>, ProviderError> {
        let body = ChatRequest::new(&self.model, req, self.json_mode);
        let bytes = match &self.extra_body {
            None => serde_json::to_vec(&body),
            Some(extra) => serde_json::to_value(&body).and_then(|mut value| {
                if let Value::Object(map) = &mut value {
                    for (k, v) in extra {
                        map.insert(k.clone(), v.clone());
                    }
                }
                serde_json::to_vec(&value)
            }),
        };
        bytes.map_err(|e| {
            self.error(
                ProviderErrorKind::Config,
                &format!("cannot encode the request: {}", e),
            )
        })
    }

    async fn call(&self, req: &GenerateRequest) -> Result<Generation, ProviderError> {
        let body = self.request_body(req)?;
        let response = self
            .client
            .post(self.url.clone())
            .body(body)
            .send()
            .await
            .map_err(|e| self.transport_error("request", e))?;
        let status = response.status();
        if !status.is_success() {
            let kind = status_kind(status, response.headers());
            // The status says what happened; a body that fails to arrive only loses the detail.
            let body = response.bytes().await.unwrap_or_default();
            let mut detail = format!("HTTP {}", status);
            let quoted = excerpt(&body);
            if !quoted.is_empty() {
                detail.push_str(": ");
                detail.push_str(&quoted);
            }
            return Err(self.error(kind, &detail));
        }
        let bytes = response
            .bytes()
            .await
            .map_err(|e| self.transport_error("reading the response", e))?;
        parse_response(bytes.into())
            .map_err(|detail| self.error(ProviderErrorKind::InvalidResponse, &detail))
    }
}

impl Provider for OpenAiProvider {
    fn kind(&self) -> &str {
        "openai"
    }

    fn model(&self) -> &str {
        &self.model
    }

    fn endpoint(&self) -> String {
        self.endpoint.clone()
    }

    fn generate<'a>(
        &'a self,
        req: &'a GenerateRequest,
    ) -> BoxFuture<'a, Result<Generation, ProviderError>> {
        Box::pin(self.call(req))
    }
}

/// Parses and checks the base URL; returns it with its path's trailing slash removed, and the
/// endpoint string (no credentials, query or fragment).
fn parse_base_url(kind: &str, base_url: Option<&str>) -> Result<(Url, String), ProviderError> {
    let text = base_url.map(str::trim).unwrap_or(DEFAULT_BASE_URL);
    let mut url = Url::parse(text)
        .map_err(|e| config_error(kind, format!("`base_url` is not a valid URL ({})", e)))?;
    if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none() {
        return Err(config_error(
            kind,
            "`base_url` must be an http:// or https:// URL with a host",
        ));
    }
    let path = url.path().trim_end_matches('/').to_owned();
    url.set_path(&path);
    url.set_fragment(None);
    let mut shown = url.clone();
    let _ = shown.set_username("");
    let _ = shown.set_password(None);
    shown.set_query(None);
    let endpoint = shown.as_str().trim_end_matches('/').to_owned();
    Ok((url, endpoint))
}

fn is_loopback(url: &Url) -> bool {
    match url.host_str() {
        Some(host) => {
            host.eq_ignore_ascii_case("localhost")
                || host
                    .trim_start_matches('[')
                    .trim_end_matches(']')
                    .parse::<std::net::IpAddr>()
                    .is_ok_and(|ip| ip.is_loopback())
        }
        None => false,
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
    content: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    tool_call_id: Option<&'a str>,
}

impl Serialize for Messages<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(|m| WireMessage {
            role: m.role.as_str(),
            content: &m.content,
            tool_call_id: m.tool_call_id.as_deref(),
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
fn parse_response(bytes: Vec<u8>) -> Result<Generation, String> {
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
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn base_urls_are_normalized_and_shown_without_secrets() {
        let ok = |u: Option<&str>| parse_base_url("openai", u).unwrap();
        assert_eq!(ok(None).1, "https://api.openai.com/v1");
        assert_eq!(
            ok(Some("http://127.0.0.1:8080/v1/")).1,
            "http://127.0.0.1:8080/v1"
        );
        assert_eq!(ok(Some("http://127.0.0.1:8080/v1/")).0.path(), "/v1");
        let (url, shown) = ok(Some(
            "https://user:pw@example.com/openai/v1?api-version=2#x",
        ));
        assert_eq!(shown, "https://example.com/openai/v1");
        assert_eq!(url.query(), Some("api-version=2"));
        assert_eq!(ok(Some("http://localhost:1")).1, "http://localhost:1");
        for bad in [
            "not a url",
            "ftp://example.com/v1",
            "file:///tmp/x",
            "http://",
        ] {
            let err = parse_base_url("openai", Some(bad)).unwrap_err();
            assert_eq!(err.kind, ProviderErrorKind::Config, "{bad}");
            assert!(err.message.contains("base_url"), "{}", err.message);
        }
    }

    #[test]
    fn loopback_hosts() {
        for (u, want) in [
            ("http://127.0.0.1:1/v1", true),
            ("http://127.8.0.1/v1", true),
            ("http://[::1]:9/v1", true),
            ("http://LOCALHOST/v1", true),
            ("https://api.openai.com/v1", false),
            ("http://10.0.0.1/v1", false),
        ] {
            assert_eq!(is_loopback(&Url::parse(u).unwrap()), want, "{u}");
        }
    }

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
