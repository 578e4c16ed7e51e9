//! rmcp's Streamable HTTP client trait over the workspace's reqwest (0.12, rustls + ring).
//!
//! rmcp ships this trait's implementation for reqwest 0.13 only. Moving the workspace to 0.13
//! would change every provider's TLS: its `rustls` feature brings aws-lc-rs (a large C build and
//! a licence the workspace does not allow), and its `rustls-no-provider` mode panics unless each
//! process installs a crypto provider first and trusts the platform's certificate store instead
//! of the bundled roots. So verity keeps one reqwest and implements the three requests of the
//! transport here: POST a JSON-RPC message (the answer is `202`, JSON or an SSE stream), GET the
//! server's SSE stream, DELETE the session. The session id, the protocol-version header and
//! reconnection are rmcp's worker's business.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;

use futures::StreamExt as _;
use futures::stream::BoxStream;
use http::{HeaderName, HeaderValue, StatusCode};
use rmcp::model::{ClientJsonRpcMessage, JsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_client::{
    StreamableHttpClient, StreamableHttpError, StreamableHttpPostResponse,
};
use sse_stream::{Error as SseError, Sse, SseStream};

const SESSION_ID: &str = "Mcp-Session-Id";
const LAST_EVENT_ID: &str = "Last-Event-Id";
const EVENT_STREAM: &str = "text/event-stream";
const JSON: &str = "application/json";
/// The largest JSON reply read (a tool result with long documents is far below it).
const MAX_JSON_BYTES: usize = 16 * 1024 * 1024;
/// How much of an error reply's body is read, and how much of it a message quotes.
const MAX_ERROR_BYTES: usize = 64 * 1024;
const ERROR_QUOTE_CHARS: usize = 300;

/// A reqwest error with its causes on one line ("error sending request: … Connection refused"),
/// without the URL (the caller names the server's URL once, its credentials redacted).
#[derive(Debug)]
pub(crate) struct HttpError(String);

impl std::fmt::Display for HttpError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for HttpError {}

impl From<reqwest::Error> for HttpError {
    fn from(e: reqwest::Error) -> HttpError {
        let e = e.without_url();
        let mut message = e.to_string();
        let mut source = std::error::Error::source(&e);
        while let Some(cause) = source {
            let text = cause.to_string();
            if !message.contains(&text) {
                message.push_str(": ");
                message.push_str(&text);
            }
            source = cause.source();
        }
        HttpError(message)
    }
}

type Failure = StreamableHttpError<HttpError>;

fn client_error(e: reqwest::Error) -> Failure {
    StreamableHttpError::Client(HttpError::from(e))
}

/// The HTTP client of one grounding server (its connection pool shared by every call).
#[derive(Clone, Debug)]
pub(crate) struct HttpClient {
    client: reqwest::Client,
}

impl HttpClient {
    pub(crate) fn new(client: reqwest::Client) -> HttpClient {
        HttpClient { client }
    }
}

fn with_headers(
    mut request: reqwest::RequestBuilder,
    auth_token: Option<String>,
    custom_headers: HashMap<HeaderName, HeaderValue>,
) -> reqwest::RequestBuilder {
    if let Some(token) = auth_token {
        request = request.bearer_auth(token);
    }
    for (name, value) in custom_headers {
        request = request.header(name, value);
    }
    request
}

/// Reads at most `limit` bytes of the body; `Err` when it is longer.
async fn read_bounded(mut response: reqwest::Response, limit: usize) -> Result<Vec<u8>, Failure> {
    if response.content_length().is_some_and(|n| n > limit as u64) {
        return Err(StreamableHttpError::ResponseBodyTooLarge { max_size: limit });
    }
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(client_error)? {
        if body.len() + chunk.len() > limit {
            return Err(StreamableHttpError::ResponseBodyTooLarge { max_size: limit });
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

fn content_type(response: &reqwest::Response) -> Option<String> {
    response
        .headers()
        .get(http::header::CONTENT_TYPE)
        .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
}

fn is(content_type: Option<&str>, mime: &str) -> bool {
    content_type.is_some_and(|ct| ct.trim_start().to_ascii_lowercase().starts_with(mime))
}

fn sse_stream(response: reqwest::Response) -> BoxStream<'static, Result<Sse, SseError>> {
    SseStream::from_bytes_stream(response.bytes_stream()).boxed()
}

/// `HTTP 503 Service Unavailable: <the start of the body>`.
fn status_message(status: StatusCode, body: &[u8]) -> String {
    let text = String::from_utf8_lossy(body);
    let text = text.trim();
    let mut message = format!("HTTP {}", status);
    if !text.is_empty() {
        let quoted: String = text.chars().take(ERROR_QUOTE_CHARS).collect();
        let more = if quoted.len() < text.len() { "…" } else { "" };
        message.push_str(&format!(": {}{}", quoted.replace('\n', " "), more));
    }
    message
}

impl StreamableHttpClient for HttpClient {
    type Error = HttpError;

    async fn post_message(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_token: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<StreamableHttpPostResponse, Failure> {
        let mut request = self
            .client
            .post(uri.as_ref())
            .header(http::header::ACCEPT, format!("{}, {}", JSON, EVENT_STREAM));
        request = with_headers(request, auth_token, custom_headers);
        let session_attached = session_id.is_some();
        if let Some(id) = session_id {
            request = request.header(SESSION_ID, id.as_ref());
        }
        let response = request.json(&message).send().await.map_err(client_error)?;
        let status = response.status();
        if matches!(status, StatusCode::ACCEPTED | StatusCode::NO_CONTENT) {
            return Ok(StreamableHttpPostResponse::Accepted);
        }
        if status == StatusCode::NOT_FOUND && session_attached {
            return Err(StreamableHttpError::SessionExpired);
        }
        let kind = content_type(&response);
        let new_session = response
            .headers()
            .get(SESSION_ID)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let expects_no_reply = !matches!(message, JsonRpcMessage::Request(_));
        if !status.is_success() {
            let body = read_bounded(response, MAX_ERROR_BYTES)
                .await
                .unwrap_or_default();
            // A JSON-RPC error in an error reply is the server's answer to the request.
            if is(kind.as_deref(), JSON)
                && !matches!(status, StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN)
                && let Ok(error @ JsonRpcMessage::Error(_)) =
                    serde_json::from_slice::<ServerJsonRpcMessage>(&body)
            {
                return Ok(StreamableHttpPostResponse::Json(error, new_session));
            }
            return Err(StreamableHttpError::UnexpectedServerResponse(Cow::Owned(
                status_message(status, &body),
            )));
        }
        if expects_no_reply && response.content_length() == Some(0) {
            // The spec asks for 202; some servers answer an empty 200.
            return Ok(StreamableHttpPostResponse::Accepted);
        }
        if is(kind.as_deref(), EVENT_STREAM) {
            return Ok(StreamableHttpPostResponse::Sse(
                sse_stream(response),
                new_session,
            ));
        }
        if is(kind.as_deref(), JSON) {
            let body = read_bounded(response, MAX_JSON_BYTES).await?;
            return match serde_json::from_slice::<ServerJsonRpcMessage>(&body) {
                Ok(reply) => Ok(StreamableHttpPostResponse::Json(reply, new_session)),
                Err(_) if expects_no_reply => Ok(StreamableHttpPostResponse::Accepted),
                Err(e) => Err(StreamableHttpError::UnexpectedServerResponse(Cow::Owned(
                    format!("the reply is not JSON-RPC ({}): {}", e, {
                        status_message(status, &body)
                    }),
                ))),
            };
        }
        if expects_no_reply {
            return Ok(StreamableHttpPostResponse::Accepted);
        }
        Err(StreamableHttpError::UnexpectedContentType(kind))
    }

    async fn delete_session(
        &self,
        uri: Arc<str>,
        session_id: Arc<str>,
        auth_token: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<(), Failure> {
        let request = with_headers(self.client.delete(uri.as_ref()), auth_token, custom_headers)
            .header(SESSION_ID, session_id.as_ref());
        let response = request.send().await.map_err(client_error)?;
        let status = response.status();
        // 405: the server does not let clients end sessions; 404: it has already ended it.
        if status.is_success()
            || matches!(
                status,
                StatusCode::METHOD_NOT_ALLOWED | StatusCode::NOT_FOUND
            )
        {
            return Ok(());
        }
        Err(StreamableHttpError::UnexpectedServerResponse(Cow::Owned(
            status_message(status, &[]),
        )))
    }

    async fn get_stream(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_token: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<BoxStream<'static, Result<Sse, SseError>>, Failure> {
        let mut request = self
            .client
            .get(uri.as_ref())
            .header(http::header::ACCEPT, format!("{}, {}", EVENT_STREAM, JSON));
        request = with_headers(request, auth_token, custom_headers);
        if let Some(id) = session_id {
            request = request.header(SESSION_ID, id.as_ref());
        }
        if let Some(id) = last_event_id {
            request = request.header(LAST_EVENT_ID, id);
        }
        let response = request.send().await.map_err(client_error)?;
        let status = response.status();
        if status == StatusCode::METHOD_NOT_ALLOWED {
            return Err(StreamableHttpError::ServerDoesNotSupportSse);
        }
        if !status.is_success() {
            let body = read_bounded(response, MAX_ERROR_BYTES)
                .await
                .unwrap_or_default();
            return Err(StreamableHttpError::UnexpectedServerResponse(Cow::Owned(
                status_message(status, &body),
            )));
        }
        let kind = content_type(&response);
        if !is(kind.as_deref(), EVENT_STREAM) {
            return Err(StreamableHttpError::UnexpectedContentType(kind));
        }
        Ok(sse_stream(response))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_messages_quote_the_start_of_the_body() {
        assert_eq!(
            status_message(StatusCode::SERVICE_UNAVAILABLE, b""),
            "HTTP 503 Service Unavailable"
        );
        assert_eq!(
            status_message(StatusCode::UNAUTHORIZED, b"missing\ntoken\n"),
            "HTTP 401 Unauthorized: missing token"
        );
        let long = "x".repeat(1000);
        let message = status_message(StatusCode::BAD_GATEWAY, long.as_bytes());
        assert!(message.ends_with('…'));
        assert!(message.len() < 400, "{message}");
    }

    #[test]
    fn content_types_match_with_parameters() {
        assert!(is(Some("application/json; charset=utf-8"), JSON));
        assert!(is(Some("Text/Event-Stream"), EVENT_STREAM));
        assert!(!is(Some("text/html"), JSON));
        assert!(!is(None, JSON));
    }
}
