//! `verity view`: the store's runs over HTTP, read-only — the list of runs, each run's report
//! page (what `verity report --format html` writes), a comparison of two runs (what `verity
//! compare --format html` writes), their JSON documents, and the progress of a running run.
//!
//! Every request opens the database on its own, read-only (`SQLITE_OPEN_READ_ONLY`), on a
//! blocking thread: requests run side by side, nothing is ever written, and a run writing the
//! same database goes on undisturbed (a WAL reader blocks no writer). Pages are
//! self-contained and carry the reports' Content-Security-Policy (nothing is loaded from
//! anywhere); a running run's page reloads itself (the `Refresh` header) until it ends.

mod pages;
mod route;

use std::convert::Infallible;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http::header::{CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE, HeaderValue};
use http::{Method, Response, StatusCode};
use http_body_util::Full;
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use hyper_util::server::graceful::GracefulShutdown;
use serde_json::{Value, json};
use tokio::net::TcpListener;
use verity_model::{ErrorKind, RunListing, RunStatus};
use verity_store::Store;

use crate::CliError;
use crate::cli::{GateArgs, GateFlags, ReportFormat};
use crate::commands::{compare_runs, render_stored};
use crate::config::Config;
pub use route::Route;

/// The port `verity view` listens on unless `--port` says otherwise.
pub const DEFAULT_PORT: u16 = 8178;

/// How often a running run's page reloads itself, in seconds.
pub const REFRESH_SECONDS: u32 = 3;

/// How long connections still open at shutdown may take to finish.
const DRAIN: Duration = Duration::from_secs(3);

/// What the server serves from: the database (opened anew, read-only, by every request) and
/// the configuration (prices for the costs).
pub struct Site {
    pub db: PathBuf,
    pub config: Config,
}

/// Serves `site` on `listener` until `shutdown` completes; then gives open connections
/// [`DRAIN`] to finish.
pub async fn serve(
    site: Arc<Site>,
    listener: TcpListener,
    shutdown: impl std::future::Future<Output = ()>,
) -> std::io::Result<()> {
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
        let site = Arc::clone(&site);
        let service = hyper::service::service_fn(move |request: http::Request<Incoming>| {
            let site = Arc::clone(&site);
            async move { Ok::<_, Infallible>(handle(site, request.method(), request.uri()).await) }
        });
        let connection = hyper::server::conn::http1::Builder::new()
            .serve_connection(TokioIo::new(stream), service);
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            // A client that hangs up mid-request is its own business.
            let _ = connection.await;
        });
    }
    let _ = tokio::time::timeout(DRAIN, graceful.shutdown()).await;
    Ok(())
}

/// One request: routed, answered on a blocking thread (SQLite), never a panic.
async fn handle(site: Arc<Site>, method: &Method, uri: &http::Uri) -> Response<Full<Bytes>> {
    if method != Method::GET && method != Method::HEAD {
        let mut r = plain(
            StatusCode::METHOD_NOT_ALLOWED,
            "verity view serves GET and HEAD only\n",
        );
        r.headers_mut()
            .insert(http::header::ALLOW, HeaderValue::from_static("GET, HEAD"));
        return r;
    }
    let route = match Route::parse(uri.path()) {
        Ok(route) => route,
        Err(e) => return e.response(uri.path().starts_with("/api/")),
    };
    let api = route.is_api();
    let answered = tokio::task::spawn_blocking(move || answer(&site, &route)).await;
    // For HEAD, hyper sends the headers (the body's length included) and leaves the body out.
    match answered {
        Ok(Ok(r)) => r,
        Ok(Err(e)) => e.response(api),
        Err(_) => Failure::internal("the request failed unexpectedly").response(api),
    }
}

/// Why a request got no page: the status and what to tell the reader.
#[derive(Debug, PartialEq)]
pub struct Failure {
    pub status: StatusCode,
    pub message: String,
}

impl Failure {
    pub(crate) fn new(status: StatusCode, message: impl Into<String>) -> Failure {
        Failure {
            status,
            message: message.into(),
        }
    }

    fn internal(message: impl Into<String>) -> Failure {
        Failure::new(StatusCode::INTERNAL_SERVER_ERROR, message)
    }

    /// As JSON (`{"error": …}`) for the API, else as a page.
    fn response(&self, api: bool) -> Response<Full<Bytes>> {
        if api {
            json_response(self.status, &json!({ "error": self.message }))
        } else {
            html(self.status, pages::error_page(self.status, &self.message))
        }
    }
}

impl From<CliError> for Failure {
    fn from(e: CliError) -> Failure {
        let status = match e.kind {
            ErrorKind::NotFound => StatusCode::NOT_FOUND,
            ErrorKind::Usage => StatusCode::BAD_REQUEST,
            _ => StatusCode::INTERNAL_SERVER_ERROR,
        };
        Failure::new(status, e.message)
    }
}

impl From<verity_store::StoreError> for Failure {
    fn from(e: verity_store::StoreError) -> Failure {
        CliError::from(e).into()
    }
}

fn answer(site: &Site, route: &Route) -> Result<Response<Full<Bytes>>, Failure> {
    if let Route::Favicon = route {
        // Browsers ask for one; the pages declare none, so there is nothing to send.
        return Ok(empty(StatusCode::NO_CONTENT));
    }
    let store = Store::open_read_only(&site.db)?;
    match route {
        Route::List => {
            let runs = list(&store)?;
            Ok(html(
                StatusCode::OK,
                pages::list_page(&runs, &site.db.display().to_string()),
            ))
        }
        Route::ApiRuns => {
            let runs = list(&store)?;
            Ok(json_response(StatusCode::OK, &runs_json(&runs)))
        }
        Route::Run(spec) => {
            let id = store.resolve_run(spec)?;
            let page = render(site, &store, &id, ReportFormat::Html)?;
            let progress = progress(&store, &id)?;
            let live = progress.is_live();
            let banner = pages::banner(live.then_some(&progress));
            let mut r = html(StatusCode::OK, pages::with_banner(&page, &banner));
            if live {
                r.headers_mut()
                    .insert(http::header::REFRESH, HeaderValue::from(REFRESH_SECONDS));
            }
            Ok(r)
        }
        Route::ApiRun(spec) => {
            let id = store.resolve_run(spec)?;
            let text = render(site, &store, &id, ReportFormat::Json)?;
            Ok(with_type(
                StatusCode::OK,
                "application/json",
                Bytes::from(text),
            ))
        }
        Route::ApiProgress(spec) => {
            let id = store.resolve_run(spec)?;
            Ok(json_response(
                StatusCode::OK,
                &progress(&store, &id)?.to_json(),
            ))
        }
        Route::Compare(a, b) => {
            let compared = compare_runs(&store, a, b, &GateFlags::default())?;
            let page = verity_report::render_diff_html(&compared.json());
            Ok(html(
                StatusCode::OK,
                pages::with_banner(&page, &pages::banner(None)),
            ))
        }
        Route::ApiCompare(a, b) => {
            let compared = compare_runs(&store, a, b, &GateFlags::default())?;
            Ok(json_response(StatusCode::OK, &compared.json()))
        }
        // Answered above, without the database.
        Route::Favicon => Ok(empty(StatusCode::NO_CONTENT)),
    }
}

/// The run's report as `verity report` renders it with no flags: the suite's gates, the
/// baseline when there is one, the costs.
fn render(site: &Site, store: &Store, id: &str, format: ReportFormat) -> Result<String, Failure> {
    let rendered = render_stored(
        store,
        id,
        None,
        &GateArgs::default(),
        &site.config,
        format,
        false,
    )?;
    Ok(rendered.text)
}

/// One run of the list: its listing and each variant's outcome counts.
pub struct Listed {
    pub run: RunListing,
    pub variants: Vec<verity_store::VariantCounts>,
}

impl Listed {
    /// The status as a person is shown it (`interrupted`, `running?`…).
    pub fn shown(&self) -> &'static str {
        self.run.status.shown(self.run.liveness)
    }

    /// Whether the run may still be going (see [`Progress::is_live`]).
    pub fn is_live(&self) -> bool {
        live(self.run.status, self.run.liveness)
    }
}

fn list(store: &Store) -> Result<Vec<Listed>, Failure> {
    let mut out = Vec::new();
    for run in store.list_runs()? {
        let scoring = store.load_run_meta(&run.id)?.scoring;
        let variants = store.outcome_counts(&run.id, scoring)?;
        out.push(Listed { run, variants });
    }
    Ok(out)
}

/// `/api/runs`: `verity runs --format json`'s objects, each with its variants' counts and
/// pass rates.
fn runs_json(runs: &[Listed]) -> Value {
    let listings: Vec<RunListing> = runs.iter().map(|l| l.run.clone()).collect();
    let mut doc = verity_report::runs_json(&listings);
    if let Some(items) = doc.as_array_mut() {
        for (item, listed) in items.iter_mut().zip(runs) {
            if let Some(o) = item.as_object_mut() {
                o.insert("variants".into(), variants_json(&listed.variants));
            }
        }
    }
    doc
}

fn variants_json(variants: &[verity_store::VariantCounts]) -> Value {
    variants
        .iter()
        .map(|v| {
            json!({
                "variant": v.variant,
                "samples": v.samples,
                "pass": v.pass,
                "fail": v.fail,
                "error": v.error,
                "pass_rate": pass_rate(v),
            })
        })
        .collect()
}

/// Passes over stored samples; `None` before any is stored.
pub fn pass_rate(v: &verity_store::VariantCounts) -> Option<f64> {
    (v.samples > 0).then(|| v.pass as f64 / v.samples as f64)
}

/// How far a run has got.
#[derive(Debug, Clone, PartialEq)]
pub struct Progress {
    pub id: String,
    pub suite: String,
    pub status: RunStatus,
    pub liveness: verity_model::Liveness,
    pub completed: u64,
    pub total: u64,
    pub finished_at: Option<String>,
}

impl Progress {
    /// Whether the run may still be going (stored as running, its process there or not
    /// checkable): its page keeps reloading.
    pub fn is_live(&self) -> bool {
        live(self.status, self.liveness)
    }

    fn to_json(&self) -> Value {
        json!({
            "id": self.id,
            "suite": self.suite,
            "status": self.status.shown_json(self.liveness),
            "running": self.is_live(),
            "completed": self.completed,
            "total": self.total,
            "fraction": (self.total > 0).then(|| self.completed as f64 / self.total as f64),
            "finished_at": self.finished_at,
        })
    }
}

/// Stored as running, and its process there or not checkable from here.
fn live(status: RunStatus, liveness: verity_model::Liveness) -> bool {
    status == RunStatus::Running && !status.is_interrupted(liveness)
}

fn progress(store: &Store, id: &str) -> Result<Progress, Failure> {
    let meta = store.load_run_meta(id)?;
    let completed = store
        .outcome_counts(id, meta.scoring)?
        .iter()
        .map(|v| v.samples)
        .sum();
    Ok(Progress {
        id: meta.id,
        suite: meta.suite.name,
        status: meta.status,
        liveness: meta.liveness,
        completed,
        total: meta.total_samples,
        finished_at: meta.finished_at,
    })
}

fn with_type(status: StatusCode, content_type: &'static str, body: Bytes) -> Response<Full<Bytes>> {
    let mut r = Response::new(Full::new(body));
    *r.status_mut() = status;
    let h = r.headers_mut();
    h.insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    // The runs change under a running run: never serve a stale copy.
    h.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert(
        "x-content-type-options",
        HeaderValue::from_static("nosniff"),
    );
    r
}

fn html(status: StatusCode, page: String) -> Response<Full<Bytes>> {
    let mut r = with_type(status, "text/html; charset=utf-8", Bytes::from(page));
    r.headers_mut().insert(
        CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(verity_report::CONTENT_SECURITY_POLICY),
    );
    r
}

fn json_response(status: StatusCode, v: &Value) -> Response<Full<Bytes>> {
    let mut text = serde_json::to_string_pretty(v).unwrap_or_else(|_| "null".into());
    text.push('\n');
    with_type(status, "application/json", Bytes::from(text))
}

fn plain(status: StatusCode, text: &'static str) -> Response<Full<Bytes>> {
    with_type(
        status,
        "text/plain; charset=utf-8",
        Bytes::from_static(text.as_bytes()),
    )
}

fn empty(status: StatusCode) -> Response<Full<Bytes>> {
    let mut r = Response::new(Full::new(Bytes::new()));
    *r.status_mut() = status;
    r
}
