//! The reference servers over Streamable HTTP (`verity mcp serve --http ADDR`): rmcp's tower
//! service (sessions, JSON or SSE replies, `DELETE` to end a session) on a hyper HTTP/1.1
//! server, at [`HTTP_PATH`]. The handlers are the ones stdio serves, unchanged.

use std::convert::Infallible;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt as _, Full};
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use hyper_util::server::graceful::GracefulShutdown;
use rmcp::ServerHandler;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use crate::RepoSource;
use crate::repo_server::RepoServer;
use crate::server::{DocServer, DocSource};

/// The path the MCP endpoint is served at (`http://ADDR/mcp`); any other path is a 404.
pub const HTTP_PATH: &str = "/mcp";

/// How long connections still open at shutdown (an SSE stream a client keeps) may take to close.
const DRAIN: Duration = Duration::from_secs(3);

/// Serves the docs server over `source` on `listener` until `shutdown` completes.
pub async fn serve_http(
    source: Arc<dyn DocSource>,
    listener: TcpListener,
    shutdown: impl Future<Output = ()>,
) -> std::io::Result<()> {
    serve_handler_http(DocServer::new(source), listener, shutdown).await
}

/// Serves the code-search server over `source` on `listener` until `shutdown` completes.
pub async fn serve_repos_http(
    source: Arc<RepoSource>,
    listener: TcpListener,
    shutdown: impl Future<Output = ()>,
) -> std::io::Result<()> {
    serve_handler_http(RepoServer::new(source), listener, shutdown).await
}

/// Serves `handler` (one clone per MCP session) on `listener` at [`HTTP_PATH`] until `shutdown`
/// completes; then ends every session and gives open connections [`DRAIN`] to close.
///
/// Bound to a loopback address, only requests whose `Host` is a loopback name are served (rmcp's
/// defence against DNS rebinding); bound to another address, which the caller chose on purpose,
/// any `Host` is.
pub(crate) async fn serve_handler_http<H>(
    handler: H,
    listener: TcpListener,
    shutdown: impl Future<Output = ()>,
) -> std::io::Result<()>
where
    H: ServerHandler + Clone + Send + Sync + 'static,
{
    let local = listener.local_addr()?;
    let sessions = CancellationToken::new();
    let mut config =
        StreamableHttpServerConfig::default().with_cancellation_token(sessions.child_token());
    if !local.ip().is_loopback() {
        config = config.disable_allowed_hosts();
    }
    let service = StreamableHttpService::new(
        move || Ok(handler.clone()),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    let graceful = GracefulShutdown::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut shutdown => break,
        };
        let stream = match accepted {
            Ok((stream, _)) => stream,
            // Out of file descriptors and the like: the listener itself is fine; try again
            // shortly instead of spinning.
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let service = service.clone();
        let route = hyper::service::service_fn(move |request: http::Request<Incoming>| {
            let service = service.clone();
            async move {
                if request.uri().path() != HTTP_PATH {
                    let mut response = http::Response::new(
                        Full::new(Bytes::from(format!(
                            "not found: the MCP endpoint is {}\n",
                            HTTP_PATH
                        )))
                        .boxed(),
                    );
                    *response.status_mut() = http::StatusCode::NOT_FOUND;
                    return Ok::<_, Infallible>(response);
                }
                Ok(service.handle(request).await)
            }
        });
        let connection = hyper::server::conn::http1::Builder::new()
            .serve_connection(TokioIo::new(stream), route);
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            // A client that hangs up mid-request is its own business.
            let _ = connection.await;
        });
    }
    sessions.cancel();
    let _ = tokio::time::timeout(DRAIN, graceful.shutdown()).await;
    Ok(())
}
