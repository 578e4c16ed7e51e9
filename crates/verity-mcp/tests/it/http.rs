//! The client over Streamable HTTP against an rmcp HTTP server run in the test: the reference
//! docs server plus a `sleep` tool, behind a check of the `Authorization` header.

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt as _, Full};
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use hyper_util::server::graceful::GracefulShutdown;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ListToolsResult,
    PaginatedRequestParams, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{Value, json};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use verity_mcp::{Doc, DocServer, GroundingServer, McpError, StaticDocs};
use verity_model::ServerSpec;

use crate::CALL;

const SECRET: &str = "Bearer s3cr3t-7f1c9a";
const TOKEN_VAR: &str = "VERITY_TEST_MCP_TOKEN";
const STARTUP: Duration = Duration::from_secs(20);

/// The reference docs server plus `sleep` (answers after `ms` milliseconds).
#[derive(Clone)]
struct Handler {
    docs: DocServer,
}

impl ServerHandler for Handler {
    fn get_info(&self) -> ServerConfig {
        self.docs.get_info()
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let mut tools = DocServer::tools();
        let schema = json!({"type": "object", "properties": {"ms": {"type": "integer"}}});
        let Value::Object(schema) = schema else {
            unreachable!("a JSON object literal")
        };
        tools.push(Tool::new("sleep", "Waits `ms` milliseconds.", schema));
        Ok(ListToolsResult::with_all_items(tools))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if request.name == "sleep" {
            let ms = request
                .arguments
                .as_ref()
                .and_then(|a| a.get("ms"))
                .and_then(Value::as_u64)
                .unwrap_or(0);
            tokio::time::sleep(Duration::from_millis(ms)).await;
            return Ok(CallToolResult::success(vec![ContentBlock::text("slept")]).into());
        }
        self.docs.call_tool(request, context).await
    }
}

/// A server on 127.0.0.1:0 that wants `Authorization: SECRET`; counts the DELETEs it got.
struct TestHttp {
    url: String,
    deletes: Arc<AtomicUsize>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<()>,
}

impl TestHttp {
    async fn start() -> TestHttp {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let deletes = Arc::new(AtomicUsize::new(0));
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let counter = deletes.clone();
        let task = tokio::spawn(async move {
            serve(listener, counter, async {
                let _ = stopped.await;
            })
            .await
        });
        TestHttp {
            url: format!("http://{}/mcp", addr),
            deletes,
            stop: Some(stop),
            task,
        }
    }

    /// Stops the server: sessions end, connections close, the port is closed.
    async fn stop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        let _ = (&mut self.task).await;
    }
}

async fn serve(listener: TcpListener, deletes: Arc<AtomicUsize>, stop: impl Future<Output = ()>) {
    let docs = DocServer::new(Arc::new(StaticDocs::new(
        "http test docs",
        vec![Doc {
            id: "swiftui/observable".into(),
            title: "Observable()".into(),
            body: "Defines and implements conformance of the Observable protocol.".into(),
        }],
    )));
    let sessions = CancellationToken::new();
    let service = StreamableHttpService::new(
        move || Ok(Handler { docs: docs.clone() }),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default().with_cancellation_token(sessions.child_token()),
    );
    let graceful = GracefulShutdown::new();
    let mut stop = std::pin::pin!(stop);
    loop {
        let (stream, _) = tokio::select! {
            accepted = listener.accept() => accepted.unwrap(),
            () = &mut stop => break,
        };
        let service = service.clone();
        let deletes = deletes.clone();
        let route = hyper::service::service_fn(move |request: http::Request<Incoming>| {
            let service = service.clone();
            let deletes = deletes.clone();
            async move {
                let authorized = request
                    .headers()
                    .get(http::header::AUTHORIZATION)
                    .is_some_and(|v| v.as_bytes() == SECRET.as_bytes());
                if !authorized {
                    let mut response =
                        http::Response::new(Full::new(Bytes::from("no valid token\n")).boxed());
                    *response.status_mut() = http::StatusCode::UNAUTHORIZED;
                    return Ok::<_, Infallible>(response);
                }
                if request.method() == http::Method::DELETE {
                    deletes.fetch_add(1, Ordering::SeqCst);
                }
                Ok(service.handle(request).await)
            }
        });
        let connection = hyper::server::conn::http1::Builder::new()
            .serve_connection(TokioIo::new(stream), route);
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            let _ = connection.await;
        });
    }
    sessions.cancel();
    let _ = tokio::time::timeout(Duration::from_secs(3), graceful.shutdown()).await;
}

fn http_spec(url: &str, headers: &[(&str, &str)]) -> ServerSpec {
    ServerSpec {
        url: Some(url.to_owned()),
        headers: headers
            .iter()
            .map(|(h, v)| ((*h).to_owned(), (*v).to_owned()))
            .collect::<BTreeMap<_, _>>(),
        ..Default::default()
    }
}

/// The environment the client sees: only the token's variable.
fn env_with_token(variable: &str) -> Option<String> {
    (variable == TOKEN_VAR).then(|| SECRET.to_owned())
}

async fn connect(url: &str) -> GroundingServer {
    let spec = http_spec(url, &[("Authorization", TOKEN_VAR)]);
    match GroundingServer::start_with_env("docs", &spec, STARTUP, &env_with_token).await {
        Ok(server) => server,
        Err(e) => panic!("the HTTP server did not start: {}", e),
    }
}

fn assert_secret_absent(text: &str) {
    assert!(!text.contains("s3cr3t"), "the header value leaked: {text}");
}

#[tokio::test]
async fn handshake_tools_search_read_and_delete_over_http() {
    let mut http = TestHttp::start().await;
    let server = connect(&http.url).await;
    let names: Vec<&str> = server.tools().iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["search", "read", "sleep"]);
    assert_eq!(server.pid(), None);
    assert_eq!(server.url(), Some(http.url.as_str()));

    let found = server.search("Observable", 3, CALL).await.unwrap();
    assert!(
        found.text.starts_with("swiftui/observable — Observable()"),
        "{}",
        found.text
    );
    let doc = server
        .call("read", json!({"id": "swiftui/observable"}), CALL)
        .await
        .unwrap();
    assert!(doc.text.contains("Observable protocol"), "{}", doc.text);

    // Identity and Debug name the URL and the header, never its value.
    let identity: Value = serde_json::from_str(&server.identity()).unwrap();
    assert_eq!(identity["url"], http.url.as_str());
    assert_eq!(identity["headers"], json!(["Authorization"]));
    assert_secret_absent(&server.identity());
    let debug = format!("{:?}", server);
    assert!(
        debug.contains(&http.url) && debug.contains("Authorization"),
        "{debug}"
    );
    assert_secret_absent(&debug);

    server.shutdown().await;
    assert_eq!(
        http.deletes.load(Ordering::SeqCst),
        1,
        "shutdown ends the session with DELETE"
    );
    http.stop().await;
}

#[tokio::test]
async fn concurrent_calls_over_one_session() {
    let mut http = TestHttp::start().await;
    let server = Arc::new(connect(&http.url).await);
    let calls: Vec<_> = (0..8)
        .map(|i| {
            let server = server.clone();
            tokio::spawn(async move {
                let out = server
                    .call("sleep", json!({"ms": 20 * (i % 3)}), CALL)
                    .await
                    .unwrap();
                assert_eq!(out.text, "slept");
            })
        })
        .collect();
    for call in calls {
        call.await.unwrap();
    }
    Arc::into_inner(server).unwrap().shutdown().await;
    http.stop().await;
}

#[tokio::test]
async fn without_the_header_the_server_refuses_and_the_error_says_so() {
    let mut http = TestHttp::start().await;
    let no_header = http_spec(&http.url, &[]);
    let err = GroundingServer::start_with_env("docs", &no_header, STARTUP, &env_with_token)
        .await
        .unwrap_err();
    assert!(matches!(err, McpError::Start { .. }), "{err:?}");
    let message = err.to_string();
    assert!(message.contains("401"), "{message}");
    assert!(message.contains(&http.url), "{message}");

    // A wrong value: refused too, and the value sent is in no message.
    let wrong = |variable: &str| (variable == TOKEN_VAR).then(|| "Bearer s3cr3t-wrong".to_owned());
    let spec = http_spec(&http.url, &[("Authorization", TOKEN_VAR)]);
    let err = GroundingServer::start_with_env("docs", &spec, STARTUP, &wrong)
        .await
        .unwrap_err();
    assert!(err.to_string().contains("401"), "{err}");
    assert_secret_absent(&err.to_string());
    assert_secret_absent(&format!("{err:?}"));
    http.stop().await;
}

#[tokio::test]
async fn a_header_variable_that_is_not_set_is_a_start_error_naming_it() {
    let spec = http_spec(
        "http://127.0.0.1:9/mcp",
        &[("Authorization", "VERITY_TEST_NO_SUCH_VARIABLE")],
    );
    let err = GroundingServer::start_with_env("docs", &spec, STARTUP, &env_with_token)
        .await
        .unwrap_err();
    assert!(matches!(err, McpError::Start { .. }), "{err:?}");
    let message = err.to_string();
    assert!(
        message.contains("`VERITY_TEST_NO_SUCH_VARIABLE`") && message.contains("`Authorization`"),
        "{message}"
    );
    // Through the process environment too (`start`): the variable is not set there either.
    let err = GroundingServer::start("docs", &spec, STARTUP)
        .await
        .unwrap_err();
    assert!(err.to_string().contains("not set"), "{err}");
}

#[tokio::test]
async fn urls_that_are_not_http_do_not_start() {
    for (url, expected) in [
        ("not a url", "not a URL"),
        ("ftp://127.0.0.1/mcp", "scheme is `ftp`"),
    ] {
        let err = GroundingServer::start("docs", &http_spec(url, &[]), STARTUP)
            .await
            .unwrap_err();
        assert!(err.to_string().contains(expected), "{url}: {err}");
    }
}

/// A port nothing listens on: bound, then closed.
async fn closed_port() -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    drop(listener);
    addr
}

#[tokio::test]
async fn an_unreachable_server_does_not_start_and_credentials_are_redacted() {
    let addr = closed_port().await;
    let url = format!("http://user:pa55word@{}/mcp?token=t0ken", addr);
    let started = Instant::now();
    let err = GroundingServer::start("docs", &http_spec(&url, &[]), STARTUP)
        .await
        .unwrap_err();
    assert!(started.elapsed() < Duration::from_secs(10), "{err}");
    assert!(matches!(err, McpError::Start { .. }), "{err:?}");
    let message = err.to_string();
    assert!(
        message.to_lowercase().contains("connect"),
        "the cause is named: {message}"
    );
    assert!(message.contains(&addr.to_string()), "{message}");
    assert!(
        !message.contains("pa55word") && !message.contains("t0ken"),
        "{message}"
    );
    assert!(!message.contains("rmcp::"), "no type names: {message}");
}

#[tokio::test]
async fn a_server_that_fails_with_5xx_does_not_start() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let task = tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else {
                return;
            };
            let route = hyper::service::service_fn(|_request: http::Request<Incoming>| async {
                let mut response = http::Response::new(Full::new(Bytes::from("overloaded")));
                *response.status_mut() = http::StatusCode::SERVICE_UNAVAILABLE;
                Ok::<_, Infallible>(response)
            });
            tokio::spawn(
                hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), route),
            );
        }
    });
    let err = GroundingServer::start(
        "docs",
        &http_spec(&format!("http://{}/mcp", addr), &[]),
        STARTUP,
    )
    .await
    .unwrap_err();
    let message = err.to_string();
    assert!(
        message.contains("503") && message.contains("overloaded"),
        "{message}"
    );
    task.abort();
}

#[tokio::test]
async fn a_server_that_never_answers_the_handshake_times_out() {
    // Accepts connections and reads nothing.
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let task = tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((stream, _)) = listener.accept().await {
            held.push(stream);
        }
    });
    let started = Instant::now();
    let err = GroundingServer::start(
        "docs",
        &http_spec(&format!("http://{}/mcp", addr), &[]),
        Duration::from_millis(400),
    )
    .await
    .unwrap_err();
    assert!(started.elapsed() < Duration::from_secs(5), "{err}");
    assert!(
        err.to_string()
            .contains("did not complete the MCP handshake within 400ms"),
        "{err}"
    );
    task.abort();
}

#[tokio::test]
async fn a_slow_call_times_out_and_the_session_goes_on() {
    let mut http = TestHttp::start().await;
    let server = connect(&http.url).await;
    let started = Instant::now();
    let err = server
        .call("sleep", json!({"ms": 10_000}), Duration::from_millis(300))
        .await
        .unwrap_err();
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(matches!(err, McpError::Timeout { .. }), "{err:?}");
    let out = server.call("sleep", json!({"ms": 1}), CALL).await.unwrap();
    assert_eq!(out.text, "slept");
    server.shutdown().await;
    http.stop().await;
}

#[tokio::test]
async fn a_server_that_stops_mid_session_fails_the_calls_without_a_hang() {
    let mut http = TestHttp::start().await;
    let server = connect(&http.url).await;
    server.search("Observable", 1, CALL).await.unwrap();
    http.stop().await;
    for _ in 0..2 {
        let started = Instant::now();
        let err = server
            .call("read", json!({"id": "swiftui/observable"}), CALL)
            .await
            .unwrap_err();
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "took {:?}: {err}",
            started.elapsed()
        );
        assert!(
            matches!(err, McpError::Unreachable { .. }),
            "a clear error, not a timeout: {err:?}"
        );
        assert!(err.is_fatal());
        assert!(err.to_string().contains(&http.url), "{err}");
        assert!(
            err.to_string().contains("Connection refused"),
            "the cause is named: {err}"
        );
    }
    // Shutting down a session whose server is gone is bounded too.
    let started = Instant::now();
    server.shutdown().await;
    assert!(started.elapsed() < Duration::from_secs(10));
}
