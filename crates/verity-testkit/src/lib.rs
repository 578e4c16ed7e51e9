//! Test support for verity: an in-process fake model server — OpenAI-compatible, and speaking
//! Anthropic's Messages API and Gemini's `generateContent` too — with fault injection.
//!
//! Tests across the workspace talk real HTTP to a [`FakeServer`] bound to `127.0.0.1:0`, so no
//! test ever reaches a real API and every failure a provider must classify can be produced on
//! demand:
//!
//! ```no_run
//! # async fn demo() {
//! use verity_testkit::{Fault, FakeServer};
//! let server = FakeServer::start().await;
//! server.fail_next(2, Fault::status(503));          // the next two calls fail…
//! let url = format!("{}/chat/completions", server.base_url()); // …the third one answers.
//! # let _ = url;
//! assert_eq!(server.stats().requests, 0);
//! # }
//! ```
//!
//! # Why a hand-written HTTP/1.1 server
//!
//! The faults that matter most to a client — a body cut short of its `Content-Length`, a
//! connection closed without a response, a request that is never answered, a body that
//! trickles in — are about bytes on a socket, which a framework hides. The server therefore
//! speaks HTTP/1.1 itself (`http.rs`: keep-alive, pipelining, `Content-Length` and chunked
//! request bodies, `Expect: 100-continue`) on a plain tokio [`TcpListener`], one task per
//! connection. It answers malformed requests with a 4xx status and never panics on them.
//!
//! # Behaviour
//!
//! * `POST /v1/chat/completions` (also `/chat/completions`): sleeps the configured latency,
//!   then answers with [`FakeConfig::answer`] (by default [`default_answer`]: the sum for the
//!   first `A + B` in the last user message, else that message) in the real OpenAI shape, with
//!   whitespace token counts as usage. `"stream": true` gets server-sent events.
//! * `POST /v1/messages` (also `/messages`; base URL [`FakeServer::anthropic_base_url`]):
//!   Anthropic's Messages API. The body must have `model`, a positive `max_tokens` and
//!   `messages` (else 400, as the real API answers). The answer is one `text` block, or one
//!   `tool_use` block per tool call from the hook (`stop_reason` `tool_use`). When
//!   `tool_choice` forces a tool (`{"type": "tool", "name": N}`) and the hook makes no call,
//!   the answer is a call of `N` whose input is the answer text if that is a JSON object, else
//!   `{"answer": <the text, as JSON where it parses>}`.
//! * `POST /v1beta/models/{model}:generateContent` (also `/v1/…`; base URL
//!   [`FakeServer::gemini_base_url`]): Gemini. The body must have non-empty `contents`. The
//!   answer is one candidate with one `text` part, or one `functionCall` part per tool call;
//!   `modelVersion` is the model of the path (or [`FakeConfig::model`]).
//! * The answer and tool-call hooks see every request as a chat-completions body: OpenAI's
//!   as it came, Anthropic's and Gemini's converted (system text as a leading system message,
//!   content blocks / parts as text parts, tool uses as `tool_calls`, tool results as `tool`
//!   messages, tools in the function shape), with `"api": "anthropic"` or `"gemini"` and the
//!   original body under `native`. So one answer rule serves every API.
//! * `GET /v1/models` (also `/models`): one model.
//! * Faults ([`FakeServer::push_faults`]) apply to the three answering routes, one per
//!   request, first in first out; `GET /v1/models` never consumes one. [`Fault::status`] and
//!   [`Fault::rate_limited`] answer with an error body in the shape of the route they hit;
//!   [`Fault::WrongShape`] leaves out what each API's answers must have (`choices`, `content`,
//!   `candidates`).
//! * Every request is recorded with its headers ([`FakeServer::requests`]) and counted
//!   ([`FakeServer::stats`]).
//!
//! Dropping the [`FakeServer`] closes the listener and ends every connection task; the
//! asynchronous [`FakeServer::shutdown`] also waits until they have ended.

#![forbid(unsafe_code)]

mod anthropic;
#[cfg(feature = "browser")]
pub mod browser;
mod gemini;
mod http;
mod openai;

use std::borrow::Cow;
use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::Value;
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::task::{JoinHandle, JoinSet};

use crate::http::{BodyFraming, Conn, ReadError, Request, encode_chunked, response_head};
use crate::openai::{Completion, error_body, models_body};
pub use crate::openai::{FakeToolCall, content_text, count_tokens, default_answer, last_user_text};

/// Computes the answer text from a chat-completions request body (Anthropic and Gemini
/// requests converted to one; see the crate documentation).
pub type AnswerFn = Arc<dyn Fn(&Value) -> String + Send + Sync>;

/// Computes the tool calls of an answer from a chat-completions request body; an empty list
/// means a plain text answer.
pub type ToolCallsFn = Arc<dyn Fn(&Value) -> Vec<FakeToolCall> + Send + Sync>;

/// How a [`FakeServer`] behaves when no fault is pending.
#[derive(Clone)]
pub struct FakeConfig {
    /// Slept before answering each chat-completion request (faults included, except
    /// [`Fault::Hang`] and [`Fault::DropConnection`], which act at once).
    pub latency: Duration,
    /// The answer's text. Default: [`default_answer`].
    pub answer: AnswerFn,
    /// The model id the server reports. Empty (the default): the request's `model`, or
    /// `fake-model` when the request names none.
    pub model: String,
    /// Tool calls to put in the answer. Default: none.
    pub tool_calls: Option<ToolCallsFn>,
    /// Whether to keep every request for [`FakeServer::requests`]. Default: true; turn it off
    /// for long load tests.
    pub record_requests: bool,
}

impl Default for FakeConfig {
    fn default() -> Self {
        FakeConfig {
            latency: Duration::ZERO,
            answer: Arc::new(default_answer),
            model: String::new(),
            tool_calls: None,
            record_requests: true,
        }
    }
}

impl FakeConfig {
    /// Replaces the answer function.
    pub fn with_answer(mut self, f: impl Fn(&Value) -> String + Send + Sync + 'static) -> Self {
        self.answer = Arc::new(f);
        self
    }

    /// Sets the tool-call hook.
    pub fn with_tool_calls(
        mut self,
        f: impl Fn(&Value) -> Vec<FakeToolCall> + Send + Sync + 'static,
    ) -> Self {
        self.tool_calls = Some(Arc::new(f));
        self
    }
}

impl std::fmt::Debug for FakeConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FakeConfig")
            .field("latency", &self.latency)
            .field("model", &self.model)
            .field("tool_calls", &self.tool_calls.is_some())
            .field("record_requests", &self.record_requests)
            .finish_non_exhaustive()
    }
}

/// A failure the server produces for one request (chat completion, message or
/// `generateContent`) instead of its answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// Answer with this status (any three-digit code), an optional `Retry-After` header and
    /// this body, exactly (sent as `application/json` when it parses as JSON, else
    /// `text/plain`). The connection stays open.
    Status {
        code: u16,
        retry_after: Option<String>,
        body: String,
    },
    /// Answer with this status, an optional `Retry-After` header and an error body in the
    /// shape of the route it hits: OpenAI's `{"error": {message, type}}`, Anthropic's
    /// `{"type": "error", "error": {type, message}}` (`overloaded_error` for 529), or Google's
    /// `{"error": {code, message, status}}` (`RESOURCE_EXHAUSTED`, `UNAVAILABLE`…, with a
    /// `RetryInfo` detail carrying a retry delay given in seconds). The message is
    /// `fake error <code>`. The connection stays open.
    Error {
        code: u16,
        retry_after: Option<String>,
    },
    /// Read the request and never answer; the connection closes when the client gives up.
    Hang,
    /// Send the real answer, its body in 16-byte pieces with `chunk_delay` before each.
    SlowBody { chunk_delay: Duration },
    /// Send headers announcing the full body, then half of it, then close the connection.
    Truncated,
    /// Answer 200 with a body that is not JSON.
    MalformedJson,
    /// Answer 200 with a JSON object that has no `choices`.
    WrongShape,
    /// Close the connection without sending anything.
    DropConnection,
}

impl Fault {
    /// An error status with an error body in the shape of the route it hits, and no
    /// `Retry-After` ([`Fault::Error`]).
    pub fn status(code: u16) -> Fault {
        Fault::Error {
            code,
            retry_after: None,
        }
    }

    /// A 429 with the given `Retry-After` header value and a route-shaped error body.
    pub fn rate_limited(retry_after: impl Into<String>) -> Fault {
        Fault::Error {
            code: 429,
            retry_after: Some(retry_after.into()),
        }
    }
}

fn error_type(code: u16) -> &'static str {
    match code {
        401 | 403 => "authentication_error",
        429 => "rate_limit_error",
        500..=599 => "server_error",
        _ => "invalid_request_error",
    }
}

/// One request as the server received it.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordedRequest {
    pub method: String,
    /// The path, without the query.
    pub path: String,
    /// The query string (after `?`), if any.
    pub query: Option<String>,
    /// Header names lowercased, in the order received.
    pub headers: Vec<(String, String)>,
    /// The body as JSON; a body that is not JSON as a JSON string of its (lossy UTF-8) text;
    /// no body as `null`.
    pub body: Value,
}

impl RecordedRequest {
    /// The first value of a header (`name` in lowercase).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Counters since the server started.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Requests read, whatever their path or fate.
    pub requests: u64,
    /// Answers (chat completions, messages, `generateContent`) sent in full with 200.
    pub completed: u64,
    /// Faults applied.
    pub faults: u64,
    /// Requests read and not yet fully answered (or given up on).
    pub in_flight: u64,
    /// The most requests ever in flight at once.
    pub max_in_flight: u64,
    /// TCP connections accepted (fewer than `requests` when clients keep connections alive).
    pub connections: u64,
}

/// State shared by the server's tasks and its handle.
struct Shared {
    config: FakeConfig,
    latency: Mutex<Duration>,
    faults: Mutex<VecDeque<Fault>>,
    /// A fault every answering request gets until the instant passes (a storm), after the
    /// queued faults.
    storm: Mutex<Option<(std::time::Instant, Fault)>>,
    requests: Mutex<Vec<RecordedRequest>>,
    n_requests: AtomicU64,
    completed: AtomicU64,
    faults_applied: AtomicU64,
    in_flight: AtomicU64,
    max_in_flight: AtomicU64,
    connections: AtomicU64,
}

/// Locks a mutex, recovering the data if a panicking test thread poisoned it.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// An in-process OpenAI-compatible server on `127.0.0.1`. Dropping it shuts it down.
pub struct FakeServer {
    addr: SocketAddr,
    shared: Arc<Shared>,
    shutdown: watch::Sender<bool>,
    task: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for FakeServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FakeServer")
            .field("addr", &self.addr)
            .finish_non_exhaustive()
    }
}

impl FakeServer {
    /// Starts a server with the default configuration.
    ///
    /// # Panics
    /// If no loopback port can be bound (see [`FakeServer::try_start_with`]).
    pub async fn start() -> FakeServer {
        FakeServer::start_with(FakeConfig::default()).await
    }

    /// Starts a server with `config`.
    ///
    /// # Panics
    /// If no loopback port can be bound (see [`FakeServer::try_start_with`]).
    pub async fn start_with(config: FakeConfig) -> FakeServer {
        match FakeServer::try_start_with(config).await {
            Ok(server) => server,
            Err(e) => panic!("verity-testkit: cannot bind 127.0.0.1:0: {e}"),
        }
    }

    /// Starts a server with `config`, reporting a failure to bind instead of panicking.
    pub async fn try_start_with(config: FakeConfig) -> std::io::Result<FakeServer> {
        let listener = TcpListener::bind((std::net::Ipv4Addr::LOCALHOST, 0)).await?;
        let addr = listener.local_addr()?;
        let shared = Arc::new(Shared {
            latency: Mutex::new(config.latency),
            config,
            faults: Mutex::new(VecDeque::new()),
            storm: Mutex::new(None),
            requests: Mutex::new(Vec::new()),
            n_requests: AtomicU64::new(0),
            completed: AtomicU64::new(0),
            faults_applied: AtomicU64::new(0),
            in_flight: AtomicU64::new(0),
            max_in_flight: AtomicU64::new(0),
            connections: AtomicU64::new(0),
        });
        let (shutdown, shutdown_rx) = watch::channel(false);
        let task = tokio::spawn(serve(listener, Arc::clone(&shared), shutdown_rx));
        Ok(FakeServer {
            addr,
            shared,
            shutdown,
            task: Some(task),
        })
    }

    /// `http://127.0.0.1:PORT/v1`, what an OpenAI client takes as its base URL.
    pub fn base_url(&self) -> String {
        format!("http://{}/v1", self.addr)
    }

    /// `http://127.0.0.1:PORT/v1`, what an Anthropic client takes as its base URL (requests go
    /// to `{base}/messages`).
    pub fn anthropic_base_url(&self) -> String {
        format!("http://{}/v1", self.addr)
    }

    /// `http://127.0.0.1:PORT/v1beta`, what a Gemini client takes as its base URL (requests go
    /// to `{base}/models/{model}:generateContent`).
    pub fn gemini_base_url(&self) -> String {
        format!("http://{}/v1beta", self.addr)
    }

    /// The socket address the server listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Queues faults for the next answering requests (any API), one per request, in order.
    pub fn push_faults(&self, faults: impl IntoIterator<Item = Fault>) {
        lock(&self.shared.faults).extend(faults);
    }

    /// Queues `fault` for each of the next `n` answering requests.
    pub fn fail_next(&self, n: usize, fault: Fault) {
        self.push_faults(std::iter::repeat_n(fault, n));
    }

    /// Gives `fault` to every answering request read in the next `duration` (once the queued
    /// faults are used up): a rate-limit storm, an outage. Replaces an earlier storm.
    pub fn fail_for(&self, duration: Duration, fault: Fault) {
        *lock(&self.shared.storm) = Some((std::time::Instant::now() + duration, fault));
    }

    /// How many queued faults have not been applied yet.
    pub fn pending_faults(&self) -> usize {
        lock(&self.shared.faults).len()
    }

    /// Changes the latency of the requests read from now on.
    pub fn set_latency(&self, latency: Duration) {
        *lock(&self.shared.latency) = latency;
    }

    /// Every request received so far, in the order they were read.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        lock(&self.shared.requests).clone()
    }

    /// The counters once at least `completed` responses have been written in full and no
    /// request is in flight, or after `timeout`, whichever is first. The server counts a
    /// response as completed when its write returns and leaves the in-flight count a moment
    /// later; both can happen after the client has read the answer, so a test that has all its
    /// answers must wait for the counters to settle rather than read them at once.
    pub async fn settled_stats(&self, completed: u64, timeout: Duration) -> Stats {
        let deadline = tokio::time::Instant::now() + timeout;
        while (self.shared.completed.load(Ordering::SeqCst) < completed
            || self.shared.in_flight.load(Ordering::SeqCst) > 0)
            && tokio::time::Instant::now() < deadline
        {
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        self.stats()
    }

    /// The counters so far.
    pub fn stats(&self) -> Stats {
        let s = &self.shared;
        Stats {
            requests: s.n_requests.load(Ordering::SeqCst),
            completed: s.completed.load(Ordering::SeqCst),
            faults: s.faults_applied.load(Ordering::SeqCst),
            in_flight: s.in_flight.load(Ordering::SeqCst),
            max_in_flight: s.max_in_flight.load(Ordering::SeqCst),
            connections: s.connections.load(Ordering::SeqCst),
        }
    }

    /// Stops accepting, ends every connection and waits until all of the server's tasks have
    /// finished.
    pub async fn shutdown(mut self) {
        let _ = self.shutdown.send(true);
        if let Some(task) = self.task.take() {
            let _ = task.await;
        }
    }
}

impl Drop for FakeServer {
    fn drop(&mut self) {
        // The accept loop sees this, drops the listener and aborts every connection task.
        let _ = self.shutdown.send(true);
    }
}

async fn serve(listener: TcpListener, shared: Arc<Shared>, mut shutdown: watch::Receiver<bool>) {
    let mut connections = JoinSet::new();
    loop {
        tokio::select! {
            // Also fires when the handle is gone (the sender dropped).
            _ = async { shutdown.wait_for(|stop| *stop).await.is_ok() } => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => {
                    shared.connections.fetch_add(1, Ordering::SeqCst);
                    connections.spawn(handle_connection(stream, Arc::clone(&shared)));
                }
                // Out of file descriptors and the like: wait a little instead of spinning.
                Err(_) => tokio::time::sleep(Duration::from_millis(5)).await,
            },
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
        }
    }
    drop(listener);
    connections.shutdown().await;
}

/// Counts a request as in flight for as long as it lives.
struct InFlight<'a>(&'a Shared);

impl<'a> InFlight<'a> {
    fn enter(shared: &'a Shared) -> Self {
        let now = shared.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
        shared.max_in_flight.fetch_max(now, Ordering::SeqCst);
        InFlight(shared)
    }
}

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        self.0.in_flight.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Whether the connection can carry another request after a response.
enum Next {
    KeepAlive,
    Close,
}

async fn handle_connection(stream: TcpStream, shared: Arc<Shared>) {
    let _ = stream.set_nodelay(true);
    let mut conn = Conn::new(stream);
    loop {
        let request = match conn.read_request().await {
            Ok(Some(request)) => request,
            Ok(None) | Err(ReadError::Io) => return,
            Err(ReadError::Bad(status, message)) => {
                let body = error_body(message, "invalid_request_error");
                let _ = write_full(&mut conn, status, &[], &body, false).await;
                return;
            }
        };
        let seq = shared.n_requests.fetch_add(1, Ordering::SeqCst) + 1;
        let _in_flight = InFlight::enter(&shared);
        let body = parse_body(&request.body);
        if shared.config.record_requests {
            lock(&shared.requests).push(record(&request, body.clone()));
        }
        let next = respond(&mut conn, &shared, &request, &body, seq).await;
        match next {
            Ok(Next::KeepAlive) if request.keep_alive => {}
            _ => {
                let _ = conn.stream.shutdown().await;
                return;
            }
        }
    }
}

fn parse_body(bytes: &[u8]) -> Value {
    if bytes.is_empty() {
        return Value::Null;
    }
    serde_json::from_slice(bytes)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(bytes).into_owned()))
}

fn record(request: &Request, body: Value) -> RecordedRequest {
    let (path, query) = match request.target.split_once('?') {
        Some((p, q)) => (p.to_owned(), Some(q.to_owned())),
        None => (request.target.clone(), None),
    };
    RecordedRequest {
        method: request.method.clone(),
        path,
        query,
        headers: request.headers.clone(),
        body,
    }
}

async fn respond(
    conn: &mut Conn,
    shared: &Shared,
    request: &Request,
    body: &Value,
    seq: u64,
) -> std::io::Result<Next> {
    let path = request.target.split('?').next().unwrap_or("");
    let keep_alive = request.keep_alive;
    let api = match path {
        "/v1/chat/completions" | "/chat/completions" => Some(Api::OpenAi),
        "/v1/messages" | "/messages" => Some(Api::Anthropic),
        _ => gemini::route_model(path).map(Api::Gemini),
    };
    if let Some(api) = api {
        if request.method != "POST" {
            return method_not_allowed(conn, "POST", keep_alive).await;
        }
        return answer(conn, shared, request, body, seq, api).await;
    }
    match path {
        "/v1/models" | "/models" => {
            if request.method != "GET" {
                return method_not_allowed(conn, "GET", keep_alive).await;
            }
            let model = if shared.config.model.is_empty() {
                "fake-model"
            } else {
                shared.config.model.as_str()
            };
            write_full(
                conn,
                200,
                &[("content-type", "application/json")],
                &models_body(model),
                keep_alive,
            )
            .await
        }
        _ => {
            let message = format!("no route for {} {}", request.method, path);
            let body = error_body(&message, "invalid_request_error");
            write_full(
                conn,
                404,
                &[("content-type", "application/json")],
                &body,
                keep_alive,
            )
            .await
        }
    }
}

async fn method_not_allowed(
    conn: &mut Conn,
    allow: &str,
    keep_alive: bool,
) -> std::io::Result<Next> {
    let body = error_body("method not allowed", "invalid_request_error");
    write_full(
        conn,
        405,
        &[("content-type", "application/json"), ("allow", allow)],
        &body,
        keep_alive,
    )
    .await
}

/// Writes a complete response with a `Content-Length` body.
async fn write_full(
    conn: &mut Conn,
    status: u16,
    headers: &[(&str, &str)],
    body: &[u8],
    keep_alive: bool,
) -> std::io::Result<Next> {
    let mut bytes = response_head(status, headers, BodyFraming::Length(body.len()), keep_alive);
    bytes.extend_from_slice(body);
    conn.stream.write_all(&bytes).await?;
    Ok(if keep_alive {
        Next::KeepAlive
    } else {
        Next::Close
    })
}

fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// Which API a request speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Api<'a> {
    OpenAi,
    Anthropic,
    /// With the model named in the path.
    Gemini(&'a str),
}

impl Api<'_> {
    /// An error body in this API's shape.
    fn error_body(self, code: u16, message: &str, retry_after: Option<&str>) -> Vec<u8> {
        match self {
            Api::OpenAi => error_body(message, error_type(code)),
            Api::Anthropic => anthropic::error_body(code, message),
            Api::Gemini(_) => gemini::error_body(code, message, retry_after),
        }
    }

    /// Why the API would reject this body, if it would.
    fn validate(self, body: &Value) -> Result<(), String> {
        match self {
            Api::OpenAi if !body.is_object() => {
                Err("the request body must be a JSON object".into())
            }
            Api::OpenAi if !body.get("messages").is_some_and(Value::is_array) => {
                Err("'messages' is a required array".into())
            }
            Api::OpenAi => Ok(()),
            Api::Anthropic => anthropic::validate(body),
            Api::Gemini(_) => gemini::validate(body),
        }
    }

    /// The body as the hooks see it: a chat-completions body.
    fn to_chat(self, body: &Value) -> Cow<'_, Value> {
        match self {
            Api::OpenAi => Cow::Borrowed(body),
            Api::Anthropic => Cow::Owned(anthropic::to_chat(body)),
            Api::Gemini(model) => Cow::Owned(gemini::to_chat(body, model)),
        }
    }
}

/// Builds the answer to a well-formed request, given as a chat-completions body.
fn completion(shared: &Shared, body: &Value, seq: u64) -> Completion {
    let config = &shared.config;
    let content = (config.answer)(body);
    let tool_calls = config
        .tool_calls
        .as_ref()
        .map(|f| f(body))
        .unwrap_or_default();
    let prompt_tokens = body
        .get("messages")
        .and_then(Value::as_array)
        .map_or(0, |ms| {
            ms.iter()
                .map(|m| count_tokens(&content_text(m.get("content"))))
                .sum()
        });
    let completion_tokens = count_tokens(&content);
    let model = if !config.model.is_empty() {
        config.model.clone()
    } else {
        body.get("model")
            .and_then(Value::as_str)
            .unwrap_or("fake-model")
            .to_owned()
    };
    Completion {
        id: format!("chatcmpl-{}", seq),
        created: unix_now(),
        model,
        content,
        tool_calls,
        prompt_tokens,
        completion_tokens,
    }
}

/// Answers one request of any API, applying the next fault if there is one.
async fn answer(
    conn: &mut Conn,
    shared: &Shared,
    request: &Request,
    body: &Value,
    seq: u64,
    api: Api<'_>,
) -> std::io::Result<Next> {
    let keep_alive = request.keep_alive;
    let fault = lock(&shared.faults).pop_front().or_else(|| {
        let mut storm = lock(&shared.storm);
        match &*storm {
            Some((until, f)) if std::time::Instant::now() < *until => Some(f.clone()),
            Some(_) => {
                *storm = None;
                None
            }
            None => None,
        }
    });
    if fault.is_some() {
        shared.faults_applied.fetch_add(1, Ordering::SeqCst);
    }
    match fault {
        Some(Fault::Hang) => {
            conn.wait_for_close().await;
            return Ok(Next::Close);
        }
        Some(Fault::DropConnection) => return Ok(Next::Close),
        _ => {}
    }
    let latency = *lock(&shared.latency);
    if !latency.is_zero() {
        tokio::time::sleep(latency).await;
    }
    let json = [("content-type", "application/json")];
    match fault {
        Some(Fault::Status {
            code,
            retry_after,
            body: text,
        }) => {
            let content_type = if serde_json::from_str::<Value>(&text).is_ok() {
                "application/json"
            } else {
                "text/plain; charset=utf-8"
            };
            let mut headers = vec![("content-type", content_type)];
            if let Some(value) = &retry_after {
                headers.push(("retry-after", value.as_str()));
            }
            return write_full(conn, code, &headers, text.as_bytes(), keep_alive).await;
        }
        Some(Fault::Error { code, retry_after }) => {
            let message = format!("fake error {}", code);
            let text = api.error_body(code, &message, retry_after.as_deref());
            let mut headers = vec![("content-type", "application/json")];
            if let Some(value) = &retry_after {
                headers.push(("retry-after", value.as_str()));
            }
            return write_full(conn, code, &headers, &text, keep_alive).await;
        }
        Some(Fault::MalformedJson) => {
            let text = b"{\"id\": \"chatcmpl-broken\", \"choices\": [{\"message\": <html>oops";
            return write_full(conn, 200, &json, text, keep_alive).await;
        }
        _ => {}
    }
    if let Err(message) = api.validate(body) {
        let error = api.error_body(400, &message, None);
        return write_full(conn, 400, &json, &error, keep_alive).await;
    }
    let chat = api.to_chat(body);
    let mut answer = completion(shared, &chat, seq);
    let forced = (api == Api::Anthropic && answer.tool_calls.is_empty())
        .then(|| anthropic::forced_tool(body))
        .flatten();
    if let Some(name) = forced {
        let input = anthropic::forced_input(&answer.content);
        answer.tool_calls = vec![FakeToolCall::new(name, input.to_string())];
    }
    if matches!(fault, Some(Fault::WrongShape)) {
        let wrong = match api {
            Api::OpenAi => answer.to_wrong_shape_json(),
            Api::Anthropic => anthropic::wrong_shape(&answer),
            Api::Gemini(_) => gemini::wrong_shape(&answer),
        };
        return write_full(conn, 200, &json, &wrong, keep_alive).await;
    }
    let streamed =
        api == Api::OpenAi && body.get("stream").and_then(Value::as_bool).unwrap_or(false);
    let (headers, framing, payload): (&[(&str, &str)], BodyFraming, Vec<u8>) = if streamed {
        let include_usage = body
            .pointer("/stream_options/include_usage")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        let events = answer.to_sse_events(include_usage);
        let encoded = encode_chunked(events.iter().map(Vec::as_slice));
        (
            &[
                ("content-type", "text/event-stream"),
                ("cache-control", "no-cache"),
            ],
            BodyFraming::Chunked,
            encoded,
        )
    } else {
        let bytes = match api {
            Api::OpenAi => answer.to_json(),
            Api::Anthropic => anthropic::response(&answer),
            Api::Gemini(_) => gemini::response(&answer),
        };
        (&json, BodyFraming::Length(bytes.len()), bytes)
    };
    match fault {
        Some(Fault::Truncated) => {
            let mut bytes = response_head(200, headers, framing, false);
            bytes.extend_from_slice(&payload[..payload.len() / 2]);
            conn.stream.write_all(&bytes).await?;
            Ok(Next::Close)
        }
        Some(Fault::SlowBody { chunk_delay }) => {
            conn.stream
                .write_all(&response_head(200, headers, framing, keep_alive))
                .await?;
            conn.stream.flush().await?;
            for piece in payload.chunks(16) {
                tokio::time::sleep(chunk_delay).await;
                conn.stream.write_all(piece).await?;
                conn.stream.flush().await?;
            }
            shared.completed.fetch_add(1, Ordering::SeqCst);
            Ok(if keep_alive {
                Next::KeepAlive
            } else {
                Next::Close
            })
        }
        _ => {
            let mut bytes = response_head(200, headers, framing, keep_alive);
            bytes.extend_from_slice(&payload);
            conn.stream.write_all(&bytes).await?;
            shared.completed.fetch_add(1, Ordering::SeqCst);
            Ok(if keep_alive {
                Next::KeepAlive
            } else {
                Next::Close
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn shutdown_ends_every_task_and_frees_the_port() {
        let server = FakeServer::start().await;
        server.push_faults([Fault::Hang]);
        let addr = server.addr();
        let shared = Arc::clone(&server.shared);
        // One connection with a hanging request, one idle keep-alive connection.
        let mut hung = TcpStream::connect(addr).await.unwrap();
        hung.write_all(b"POST /v1/chat/completions HTTP/1.1\r\ncontent-length: 2\r\n\r\n{}")
            .await
            .unwrap();
        let _idle = TcpStream::connect(addr).await.unwrap();
        let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
        while server.stats().in_flight < 1 || server.stats().connections < 2 {
            assert!(
                tokio::time::Instant::now() < deadline,
                "server never saw the requests"
            );
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        assert!(
            Arc::strong_count(&shared) >= 3,
            "connection tasks hold the state"
        );
        server.shutdown().await;
        assert_eq!(Arc::strong_count(&shared), 1, "a task outlived the server");
        assert!(
            TcpStream::connect(addr).await.is_err(),
            "the listener outlived the server"
        );
    }

    #[tokio::test]
    async fn drop_closes_the_listener() {
        let server = FakeServer::start().await;
        let addr = server.addr();
        let shared = Arc::clone(&server.shared);
        drop(server);
        let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
        while Arc::strong_count(&shared) > 1 {
            assert!(
                tokio::time::Instant::now() < deadline,
                "the accept loop never ended"
            );
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        assert!(TcpStream::connect(addr).await.is_err());
    }
}
