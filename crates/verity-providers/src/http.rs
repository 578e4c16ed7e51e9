//! Pieces every HTTP provider needs: the shared client core ([`HttpCore`]: connection pool,
//! timeouts, extra headers and body fields, key scrubbing), base URLs, API keys, classifying
//! transport failures and statuses, reading `Retry-After`, and quoting an error body briefly.

use std::error::Error as _;
use std::time::{Duration, SystemTime};

use reqwest::header::{CONTENT_TYPE, HeaderMap, HeaderName, HeaderValue};
use reqwest::{Client, StatusCode, Url};
use serde_json::{Map, Value};
use verity_model::{ProviderError, ProviderErrorKind, ProviderSpec};

use crate::options::{Options, config_error};

/// The options every HTTP provider understands.
pub(crate) const HTTP_OPTIONS: &[&str] = &["timeout_s", "extra_body", "headers"];

/// The per-call timeout when `timeout_s` is not set.
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// What every HTTP provider shares: one [`Client`] (a connection pool reused by every call,
/// with `TCP_NODELAY` and unlimited idle connections per host), the endpoint shown in reports,
/// the per-call timeout, the `extra_body` and `headers` options, and the API key, kept only to
/// scrub it from error messages should a server echo it back.
pub(crate) struct HttpCore {
    client: Client,
    pub model: String,
    /// The base URL without credentials, query or trailing slash.
    pub endpoint: String,
    timeout: Duration,
    extra_body: Option<Map<String, Value>>,
    extra_header_names: Vec<String>,
    key: Option<String>,
}

impl HttpCore {
    /// Builds the client. `headers` are the provider's own (authentication, API version); the
    /// `headers` option is added over them. Reads the [`HTTP_OPTIONS`] from `options`.
    pub fn new(
        kind: &str,
        model: String,
        (base, endpoint): (&Url, String),
        mut headers: HeaderMap,
        key: Option<String>,
        options: &Options<'_>,
    ) -> Result<HttpCore, ProviderError> {
        let timeout = options
            .duration("timeout_s", 1.0, true)?
            .unwrap_or(DEFAULT_TIMEOUT);
        let extra_body = options
            .object("extra_body")?
            .filter(|m| !m.is_empty())
            .cloned();
        headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
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
        if is_loopback(base) {
            // A proxy from the environment must not capture calls to a local server.
            builder = builder.no_proxy();
        }
        let client = builder.build().map_err(|e| {
            config_error(
                kind,
                format!("cannot build an HTTP client: {}", describe(e)),
            )
        })?;
        Ok(HttpCore {
            client,
            model,
            endpoint,
            timeout,
            extra_body,
            extra_header_names,
            key,
        })
    }

    /// The fields `Debug` shows: never the key, only whether there is one.
    pub fn debug_fields(&self, d: &mut std::fmt::DebugStruct<'_, '_>) {
        d.field("model", &self.model)
            .field("endpoint", &self.endpoint)
            .field("timeout", &self.timeout)
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
            );
    }

    /// An error whose message names the endpoint and never contains the key.
    pub fn error(&self, kind: ProviderErrorKind, detail: &str) -> ProviderError {
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

    /// Serializes a request body, with the `extra_body` option merged over its top level.
    pub fn encode(&self, body: Value) -> Result<Vec<u8>, ProviderError> {
        let mut body = body;
        if let (Some(extra), Value::Object(map)) = (&self.extra_body, &mut body) {
            for (k, v) in extra {
                map.insert(k.clone(), v.clone());
            }
        }
        serde_json::to_vec(&body).map_err(|e| {
            self.error(
                ProviderErrorKind::Config,
                &format!("cannot encode the request: {}", e),
            )
        })
    }

    /// POSTs `body` to `url` and returns the body of a 2xx answer. Any other status becomes an
    /// error of the kind `classify` picks from the status, the headers and the body, with the
    /// detail `HTTP <status>: <what the API said>`.
    pub async fn post(
        &self,
        url: &Url,
        body: Vec<u8>,
        classify: fn(StatusCode, &HeaderMap, &[u8]) -> ProviderErrorKind,
    ) -> Result<Vec<u8>, ProviderError> {
        let response = self
            .client
            .post(url.clone())
            .body(body)
            .send()
            .await
            .map_err(|e| self.transport_error("request", e))?;
        let status = response.status();
        if !status.is_success() {
            let headers = response.headers().clone();
            // The status says what happened; a body that fails to arrive only loses the detail.
            let body = response.bytes().await.unwrap_or_default();
            let kind = classify(status, &headers, &body);
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
        Ok(bytes.into())
    }
}

/// The `model` a spec names, required and non-blank.
pub(crate) fn required_model(spec: &ProviderSpec) -> Result<String, ProviderError> {
    match spec.model.as_deref().map(str::trim) {
        Some(m) if !m.is_empty() => Ok(m.to_owned()),
        _ => Err(config_error(&spec.kind, "`model` is required")),
    }
}

/// The name of the variable holding the API key: `api_key_env`, else `default` (when the
/// provider needs a key); `None` when no key is needed.
pub(crate) fn key_env_name<'a>(
    spec: &'a ProviderSpec,
    default: Option<&'a str>,
) -> Result<Option<&'a str>, ProviderError> {
    match spec.api_key_env.as_deref() {
        Some(name) if name.trim().is_empty() => {
            Err(config_error(&spec.kind, "`api_key_env` is empty"))
        }
        Some(name) => Ok(Some(name)),
        None => Ok(default),
    }
}

/// Reads the API key from the variable `name` (trimmed); unset or blank is a config error
/// naming the variable.
pub(crate) fn read_key(
    kind: &str,
    name: &str,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<String, ProviderError> {
    match env(name).filter(|v| !v.trim().is_empty()) {
        Some(value) => Ok(value.trim().to_owned()),
        None => Err(config_error(
            kind,
            format!(
                "the API key environment variable `{}` is not set or empty",
                name
            ),
        )),
    }
}

/// A header value holding a secret: marked sensitive, and a key that cannot be a header value
/// is a config error naming the variable (never quoting the key).
pub(crate) fn secret_header(
    kind: &str,
    var_name: &str,
    value: &str,
) -> Result<HeaderValue, ProviderError> {
    let mut value = HeaderValue::from_str(value).map_err(|_| {
        config_error(
            kind,
            format!(
                "the API key in `{}` has characters not allowed in a header",
                var_name
            ),
        )
    })?;
    value.set_sensitive(true);
    Ok(value)
}

/// Parses and checks a base URL (`default` when the spec gives none); returns it with its
/// path's trailing slash removed, and the endpoint string (no credentials, query or fragment).
pub(crate) fn parse_base_url(
    kind: &str,
    base_url: Option<&str>,
    default: &str,
) -> Result<(Url, String), ProviderError> {
    let text = base_url.map(str::trim).unwrap_or(default);
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

/// `base` with `segments` appended to its path, each percent-encoded as one segment (the
/// query is kept).
pub(crate) fn join_segments(base: &Url, segments: &[&str]) -> Url {
    let mut url = base.clone();
    if let Ok(mut path) = url.path_segments_mut() {
        path.pop_if_empty().extend(segments);
    }
    url
}

pub(crate) fn is_loopback(url: &Url) -> bool {
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

/// Tool arguments as a JSON object, as Anthropic's `input` and Gemini's `args` must be: an
/// object as it is, a string holding a JSON object parsed, anything else under `arguments`.
pub(crate) fn arguments_object(arguments: &Value) -> Value {
    match arguments {
        Value::Object(_) => arguments.clone(),
        Value::String(s) => match serde_json::from_str::<Value>(s) {
            Ok(v @ Value::Object(_)) => v,
            _ => serde_json::json!({ "arguments": arguments }),
        },
        Value::Null => Value::Object(Map::new()),
        other => serde_json::json!({ "arguments": other }),
    }
}

/// An OpenAI-function-shaped tool (`{"type": "function", "function": {name, description,
/// parameters}}`), or a flat `{name, description, parameters | input_schema}` (with no `type`
/// or `"type": "function"`), as its three parts; `None` when the tool has neither shape (a
/// provider-native tool such as a server-side search, passed through as it is).
pub(crate) fn function_tool(tool: &Value) -> Option<Result<FunctionTool<'_>, String>> {
    let function = match tool.get("function") {
        Some(f) => f,
        None => {
            let ty = tool.get("type").and_then(Value::as_str);
            if matches!(ty, None | Some("function")) && tool.get("name").is_some() {
                tool
            } else {
                return None;
            }
        }
    };
    let Some(name) = function.get("name").and_then(Value::as_str) else {
        return Some(Err(format!("a tool has no function name: {}", tool)));
    };
    Some(Ok(FunctionTool {
        name,
        description: function.get("description").and_then(Value::as_str),
        parameters: function
            .get("parameters")
            .or_else(|| function.get("input_schema")),
    }))
}

/// The parts of a function tool.
pub(crate) struct FunctionTool<'a> {
    pub name: &'a str,
    pub description: Option<&'a str>,
    pub parameters: Option<&'a Value>,
}

/// A tool message's content as a JSON value: JSON text parsed, anything else as a string.
pub(crate) fn tool_content(content: &str) -> Value {
    serde_json::from_str(content).unwrap_or_else(|_| Value::String(content.to_owned()))
}

/// How long a quoted error body may be, in characters.
const EXCERPT_CHARS: usize = 300;

/// The kind of a failure to get a response (or its body) at all.
pub(crate) fn transport_kind(e: &reqwest::Error) -> ProviderErrorKind {
    if e.is_timeout() {
        ProviderErrorKind::Timeout
    } else if e.is_builder() {
        ProviderErrorKind::Config
    } else {
        // Connect failures, resets, connections closed mid-response, bodies cut short.
        ProviderErrorKind::Connection
    }
}

/// A reqwest error and its causes as one line, without the URL (callers name the endpoint
/// themselves, without anything secret in it).
pub(crate) fn describe(e: reqwest::Error) -> String {
    let e = e.without_url();
    let mut parts: Vec<String> = vec![e.to_string()];
    let mut source = e.source();
    while let Some(cause) = source {
        let text = cause.to_string();
        if parts.last() != Some(&text) {
            parts.push(text);
        }
        source = cause.source();
    }
    parts.join(": ")
}

/// The kind of a non-success status.
pub(crate) fn status_kind(status: StatusCode, headers: &HeaderMap) -> ProviderErrorKind {
    let code = status.as_u16();
    match code {
        429 => ProviderErrorKind::RateLimited {
            retry_after: retry_after(headers, SystemTime::now()),
        },
        401 | 403 => ProviderErrorKind::Auth { status: code },
        500..=599 => ProviderErrorKind::Server { status: code },
        _ => ProviderErrorKind::Client { status: code },
    }
}

/// The delay a response asks for: `retry-after-ms` (sent by some OpenAI-compatible servers)
/// when valid, else `Retry-After` as delta-seconds (integer or fractional) or an HTTP-date.
pub(crate) fn retry_after(headers: &HeaderMap, now: SystemTime) -> Option<Duration> {
    let ms = headers
        .get("retry-after-ms")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| parse_seconds(v.trim()))
        .map(|d| d / 1000);
    ms.or_else(|| {
        let value = headers.get(reqwest::header::RETRY_AFTER)?.to_str().ok()?;
        parse_retry_after(value, now)
    })
}

/// Parses a `Retry-After` value; a date in the past means "now".
pub(crate) fn parse_retry_after(value: &str, now: SystemTime) -> Option<Duration> {
    let value = value.trim();
    if let Some(d) = parse_seconds(value) {
        return Some(d);
    }
    let at = httpdate::parse_http_date(value).ok()?;
    Some(at.duration_since(now).unwrap_or(Duration::ZERO))
}

/// A non-negative number of seconds, integer or fractional.
fn parse_seconds(value: &str) -> Option<Duration> {
    if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return None;
    }
    if value.bytes().all(|b| b.is_ascii_digit()) {
        return value.parse().ok().map(Duration::from_secs);
    }
    let secs: f64 = value.parse().ok()?;
    Duration::try_from_secs_f64(secs).ok()
}

/// A short quote of an error body: the API's own message where the body has one (OpenAI's
/// `error.message`, or `error` / `message` / `detail` as a string), else the start of the text.
/// The message is labelled with Google's `error.status` (`RESOURCE_EXHAUSTED: …`) or, in
/// Anthropic's `{"type": "error"}` envelope, with `error.type` (`overloaded_error: …`).
pub(crate) fn excerpt(body: &[u8]) -> String {
    let from_json = serde_json::from_slice::<Value>(body).ok().and_then(|v| {
        let message = v
            .pointer("/error/message")
            .or_else(|| v.get("error"))
            .or_else(|| v.get("message"))
            .or_else(|| v.get("detail"))?
            .as_str()?;
        let label = v
            .pointer("/error/status")
            .and_then(Value::as_str)
            .or_else(|| {
                (v.get("type").and_then(Value::as_str) == Some("error"))
                    .then(|| v.pointer("/error/type").and_then(Value::as_str))
                    .flatten()
            });
        Some(match label {
            Some(label) if !label.is_empty() => format!("{}: {}", label, message),
            _ => message.to_owned(),
        })
    });
    let text = from_json.unwrap_or_else(|| String::from_utf8_lossy(body).into_owned());
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.chars().count() <= EXCERPT_CHARS {
        return text;
    }
    let mut cut: String = text.chars().take(EXCERPT_CHARS).collect();
    cut.push('…');
    cut
}

#[cfg(test)]
mod tests {
    use reqwest::header::HeaderValue;

    use super::*;

    #[test]
    fn base_urls_are_normalized_and_shown_without_secrets() {
        let default = "https://api.openai.com/v1";
        let ok = |u: Option<&str>| parse_base_url("openai", u, default).unwrap();
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
            let err = parse_base_url("openai", Some(bad), default).unwrap_err();
            assert_eq!(err.kind, ProviderErrorKind::Config, "{bad}");
            assert!(err.message.contains("base_url"), "{}", err.message);
        }
    }

    #[test]
    fn segments_are_joined_and_encoded() {
        let join = |base: &str, segs: &[&str]| {
            let (url, _) = parse_base_url("k", Some(base), "http://x").unwrap();
            join_segments(&url, segs).to_string()
        };
        assert_eq!(
            join("http://h/v1/", &["chat", "completions"]),
            "http://h/v1/chat/completions"
        );
        assert_eq!(join("http://h", &["messages"]), "http://h/messages");
        assert_eq!(
            join("http://h/v1beta?k=1", &["models", "a/b c:generateContent"]),
            "http://h/v1beta/models/a%2Fb%20c:generateContent?k=1"
        );
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

    #[test]
    fn tool_shapes() {
        let f = serde_json::json!({"type": "function", "function": {"name": "s", "description": "d", "parameters": {"type": "object"}}});
        let t = function_tool(&f).unwrap().unwrap();
        assert_eq!((t.name, t.description), ("s", Some("d")));
        assert_eq!(t.parameters, Some(&serde_json::json!({"type": "object"})));
        let flat = serde_json::json!({"name": "s", "input_schema": {"type": "object"}});
        assert!(function_tool(&flat).unwrap().unwrap().parameters.is_some());
        let typed_flat = serde_json::json!({"type": "function", "name": "s"});
        assert!(function_tool(&typed_flat).unwrap().is_ok());
        let native = serde_json::json!({"type": "web_search_20250305", "name": "web_search"});
        assert!(function_tool(&native).is_none());
        assert!(function_tool(&serde_json::json!({"googleSearch": {}})).is_none());
        let nameless = serde_json::json!({"type": "function", "function": {"parameters": {}}});
        assert!(function_tool(&nameless).unwrap().is_err());
    }

    #[test]
    fn arguments_become_objects() {
        use serde_json::json;
        assert_eq!(arguments_object(&json!({"a": 1})), json!({"a": 1}));
        assert_eq!(arguments_object(&json!("{\"a\": 1}")), json!({"a": 1}));
        assert_eq!(
            arguments_object(&json!("not json")),
            json!({"arguments": "not json"})
        );
        assert_eq!(arguments_object(&json!([1])), json!({"arguments": [1]}));
        assert_eq!(arguments_object(&json!(null)), json!({}));
        assert_eq!(tool_content("{\"x\": 2}"), json!({"x": 2}));
        assert_eq!(tool_content("plain"), json!("plain"));
    }

    #[test]
    fn retry_after_forms() {
        let now = httpdate::parse_http_date("Sun, 06 Nov 1994 08:49:37 GMT").unwrap();
        let cases: &[(&str, Option<Duration>)] = &[
            ("1", Some(Duration::from_secs(1))),
            (" 120 ", Some(Duration::from_secs(120))),
            ("0", Some(Duration::ZERO)),
            ("1.5", Some(Duration::from_millis(1500))),
            ("0.25", Some(Duration::from_millis(250))),
            (
                "Sun, 06 Nov 1994 08:49:47 GMT",
                Some(Duration::from_secs(10)),
            ),
            (
                "Sunday, 06-Nov-94 08:50:37 GMT",
                Some(Duration::from_secs(60)),
            ),
            ("Sun Nov  6 08:49:39 1994", Some(Duration::from_secs(2))),
            ("Sun, 06 Nov 1994 08:00:00 GMT", Some(Duration::ZERO)),
            ("-1", None),
            ("1e3", None),
            ("inf", None),
            ("NaN", None),
            ("1.2.3", None),
            ("soon", None),
            ("", None),
            ("99999999999999999999999", None),
        ];
        for (value, want) in cases {
            assert_eq!(parse_retry_after(value, now), *want, "{value:?}");
        }
    }

    #[test]
    fn retry_after_ms_wins_when_valid() {
        let now = SystemTime::now();
        let mut h = HeaderMap::new();
        h.insert("retry-after", HeaderValue::from_static("3"));
        assert_eq!(retry_after(&h, now), Some(Duration::from_secs(3)));
        h.insert("retry-after-ms", HeaderValue::from_static("250"));
        assert_eq!(retry_after(&h, now), Some(Duration::from_millis(250)));
        h.insert("retry-after-ms", HeaderValue::from_static("bogus"));
        assert_eq!(retry_after(&h, now), Some(Duration::from_secs(3)));
        assert_eq!(retry_after(&HeaderMap::new(), now), None);
    }

    #[test]
    fn statuses_map_to_kinds() {
        let h = HeaderMap::new();
        let kind = |code: u16| status_kind(StatusCode::from_u16(code).unwrap(), &h);
        assert_eq!(
            kind(429),
            ProviderErrorKind::RateLimited { retry_after: None }
        );
        assert_eq!(kind(500), ProviderErrorKind::Server { status: 500 });
        assert_eq!(kind(503), ProviderErrorKind::Server { status: 503 });
        assert_eq!(kind(401), ProviderErrorKind::Auth { status: 401 });
        assert_eq!(kind(403), ProviderErrorKind::Auth { status: 403 });
        assert_eq!(kind(400), ProviderErrorKind::Client { status: 400 });
        assert_eq!(kind(404), ProviderErrorKind::Client { status: 404 });
        assert_eq!(kind(302), ProviderErrorKind::Client { status: 302 });
    }

    #[test]
    fn excerpts_prefer_the_api_message_and_stay_short() {
        assert_eq!(
            excerpt(br#"{"error":{"message":"Bad model","type":"x"}}"#),
            "Bad model"
        );
        assert_eq!(excerpt(br#"{"error":"plain"}"#), "plain");
        assert_eq!(
            excerpt(br#"{"error":{"code":429,"message":"Quota","status":"RESOURCE_EXHAUSTED"}}"#),
            "RESOURCE_EXHAUSTED: Quota"
        );
        assert_eq!(
            excerpt(
                br#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#
            ),
            "overloaded_error: Overloaded"
        );
        assert_eq!(excerpt(br#"{"detail":"nope"}"#), "nope");
        assert_eq!(
            excerpt(b"<html>\n  gateway\n</html>"),
            "<html> gateway </html>"
        );
        assert_eq!(
            excerpt(br#"{"error":{"code":1}}"#),
            r#"{"error":{"code":1}}"#
        );
        let long = "é".repeat(1000);
        let cut = excerpt(long.as_bytes());
        assert_eq!(cut.chars().count(), EXCERPT_CHARS + 1);
        assert!(cut.ends_with('…'));
        assert_eq!(excerpt(&[0xff, 0xfe]), "\u{fffd}\u{fffd}");
    }
}
