//! The reference server: a [`DocSource`] served over MCP on stdin/stdout, with two tools,
//! `search` and `read`.

use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    JsonObject, ListResourcesResult, ListToolsResult, PaginatedRequestParams,
    ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Resource,
    ResourceContents, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt as _};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::McpError;

/// `search` returns this many documents when the call does not say.
pub const DEFAULT_SEARCH_LIMIT: usize = 5;
/// The most documents one `search` returns.
pub const MAX_SEARCH_LIMIT: usize = 50;
/// How much of a document's body a search result shows.
const EXCERPT_CHARS: usize = 300;

/// A document collection the reference server serves.
pub trait DocSource: Send + Sync + 'static {
    /// What it is, e.g. `verity-apple-docs ios17.4`; the server introduces itself with it.
    fn name(&self) -> &str;
    /// The best `limit` documents for `query`, best first.
    fn search(&self, query: &str, limit: usize) -> Vec<Doc>;
    /// The document with this id.
    fn read(&self, id: &str) -> Option<Doc>;
    /// How many documents [`DocSource::doc_at`] lists (the server's `resources/list`); a
    /// source that cannot list its documents keeps the default, 0, and serves no resources.
    fn doc_count(&self) -> usize {
        0
    }
    /// The document at `i` in a fixed order, for `i` below [`DocSource::doc_count`].
    fn doc_at(&self, _i: usize) -> Option<Doc> {
        None
    }
}

/// The URI scheme of the reference server's resources: `verity-doc:///ID`, the document id
/// percent-encoded where a URI path needs it (`/` kept).
pub const DOC_URI_PREFIX: &str = "verity-doc:///";
/// `resources/list` returns at most this many resources per page (`nextCursor` for the rest).
pub const RESOURCE_PAGE: usize = 500;

/// The resource URI of document `id`.
pub fn doc_uri(id: &str) -> String {
    format!("{}{}", DOC_URI_PREFIX, encode_path(id))
}

/// The document id of a resource URI from [`doc_uri`].
pub fn doc_id(uri: &str) -> Option<String> {
    let rest = uri.strip_prefix(DOC_URI_PREFIX)?;
    percent_encoding::percent_decode_str(rest)
        .decode_utf8()
        .ok()
        .map(|s| s.into_owned())
}

/// Characters a URI path segment may not hold as they are (RFC 3986 `pchar`; `/` is kept as the
/// segment separator).
const PATH: &percent_encoding::AsciiSet = &percent_encoding::CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'[')
    .add(b'\\')
    .add(b']')
    .add(b'^')
    .add(b'`')
    .add(b'{')
    .add(b'|')
    .add(b'}');

pub(crate) fn encode_path(s: &str) -> String {
    percent_encoding::utf8_percent_encode(s, PATH).to_string()
}

/// The cursor of `resources/list`: the offset of the next page, as a decimal string.
pub(crate) fn page_start(
    request: Option<&PaginatedRequestParams>,
    total: usize,
) -> Result<usize, ErrorData> {
    let Some(cursor) = request.and_then(|r| r.cursor.as_deref()) else {
        return Ok(0);
    };
    match cursor.parse::<usize>() {
        Ok(n) if n <= total => Ok(n),
        _ => Err(ErrorData::invalid_params(
            format!(
                "invalid cursor `{}`: pass the `nextCursor` of the previous page, or none",
                cursor
            ),
            None,
        )),
    }
}

/// One document.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Doc {
    pub id: String,
    pub title: String,
    pub body: String,
}

/// The reference server's MCP handler over a [`DocSource`]. [`serve_stdio`] runs it; it is
/// public so that a server with more tools can wrap it.
#[derive(Clone)]
pub struct DocServer {
    source: Arc<dyn DocSource>,
}

impl std::fmt::Debug for DocServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DocServer")
            .field("source", &self.source.name())
            .finish()
    }
}

/// Serves `source` over MCP on stdin/stdout until the client closes stdin (or the session ends).
/// Nothing but protocol messages goes to stdout.
pub async fn serve_stdio(source: Arc<dyn DocSource>) -> Result<(), McpError> {
    let name = source.name().to_owned();
    serve_handler_stdio(name, DocServer::new(source)).await
}

/// Serves any handler (the reference servers, or one that wraps them) over MCP on stdin/stdout
/// until the client closes stdin; `name` is for error messages. The framing is `stdio.rs`'s
/// (`LineTransport`): unparsable lines and requests before `initialize` are answered there.
/// Input that ends before `initialize` is a client that went away, not an error.
pub async fn serve_handler_stdio<H: ServerHandler>(
    name: String,
    handler: H,
) -> Result<(), McpError> {
    let transport = crate::stdio::LineTransport::new(tokio::io::stdin(), tokio::io::stdout());
    let running = match handler.serve(transport).await {
        Ok(running) => running,
        Err(rmcp::service::ServerInitializeError::ConnectionClosed(_)) => {
            eprintln!("{}: the input closed before `initialize`", name);
            return Ok(());
        }
        Err(e) => {
            return Err(McpError::Protocol {
                server: name,
                message: format!("the MCP session did not start: {}", e),
            });
        }
    };
    running.waiting().await.map_err(|e| McpError::Protocol {
        server: name,
        message: format!("the MCP session ended abnormally: {}", e),
    })?;
    Ok(())
}

impl DocServer {
    pub fn new(source: Arc<dyn DocSource>) -> DocServer {
        DocServer { source }
    }

    /// The two tools: `search` and `read`, both annotated read-only (so `tools` mode offers
    /// them by default).
    pub fn tools() -> Vec<Tool> {
        read_only(vec![
            Tool::new(
                "search",
                "Search the documentation. Returns the best matching documents, best first, \
                 each as `id — title` and the start of its text; pass an id to `read` for the \
                 whole document.",
                schema(json!({
                    "type": "object",
                    "properties": {
                        "query": {
                            "type": "string",
                            "description": "What to look for: symbol names, API names or words."
                        },
                        "limit": {
                            "type": "integer",
                            "minimum": 1,
                            "maximum": MAX_SEARCH_LIMIT,
                            "default": DEFAULT_SEARCH_LIMIT,
                            "description": "How many documents to return."
                        }
                    },
                    "required": ["query"]
                })),
            ),
            Tool::new(
                "read",
                "Read one whole document by the id `search` gave.",
                schema(json!({
                    "type": "object",
                    "properties": {
                        "id": {"type": "string", "description": "The document's id."}
                    },
                    "required": ["id"]
                })),
            ),
        ])
    }

    /// Runs one of the two tools. Invalid arguments and an unknown document id are tool
    /// results flagged `isError`, whose text says what to fix (the model reads them and can
    /// try again); only an unknown tool is a JSON-RPC error (`-32602`).
    pub async fn run_tool(
        &self,
        name: &str,
        arguments: Option<&JsonObject>,
    ) -> Result<CallToolResult, ErrorData> {
        let empty = JsonObject::new();
        let args = arguments.unwrap_or(&empty);
        let answer: Result<String, String> = match name {
            "search" => match search_args(args) {
                Ok((query, limit)) => {
                    let source = self.source.clone();
                    let q = query.clone();
                    let docs = tokio::task::spawn_blocking(move || source.search(&q, limit))
                        .await
                        .map_err(|e| {
                            ErrorData::internal_error(format!("search failed: {}", e), None)
                        })?;
                    let docs: Vec<Doc> = docs.into_iter().take(limit).collect();
                    Ok(search_text(&query, &docs))
                }
                Err(why) => Err(why),
            },
            "read" => match required_string(args, "id") {
                Ok(id) => {
                    let source = self.source.clone();
                    let wanted = id.clone();
                    let doc = tokio::task::spawn_blocking(move || source.read(&wanted))
                        .await
                        .map_err(|e| {
                            ErrorData::internal_error(format!("read failed: {}", e), None)
                        })?;
                    match doc {
                        Some(doc) => Ok(doc_text(&doc)),
                        None => Err(format!(
                            "There is no document with id `{}`. Use `search` to find ids.",
                            id
                        )),
                    }
                }
                Err(why) => Err(why),
            },
            other => {
                return Err(ErrorData::invalid_params(
                    format!(
                        "unknown tool `{}`: this server has `search` and `read`",
                        other
                    ),
                    None,
                ));
            }
        };
        Ok(match answer {
            Ok(text) => CallToolResult::success(vec![ContentBlock::text(text)]),
            Err(why) => CallToolResult::error(vec![ContentBlock::text(format!(
                "tool `{}`: {}",
                name, why
            ))]),
        })
    }

    /// One page of `resources/list`: every document of the source, [`RESOURCE_PAGE`] at a
    /// time.
    pub fn list_resources_page(
        &self,
        request: Option<&PaginatedRequestParams>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let total = self.source.doc_count();
        let start = page_start(request, total)?;
        let end = (start + RESOURCE_PAGE).min(total);
        let resources = (start..end)
            .filter_map(|i| self.source.doc_at(i))
            .map(|doc| {
                Resource::new(doc_uri(&doc.id), doc.id.clone())
                    .with_title(doc.title.clone())
                    .with_mime_type("text/plain")
                    .with_size(doc_text(&doc).len() as u64)
            })
            .collect();
        let mut result = ListResourcesResult::with_all_items(resources);
        result.next_cursor = (end < total).then(|| end.to_string());
        Ok(result)
    }

    /// `resources/read` of a `verity-doc:///ID` URI.
    pub async fn read_resource_uri(&self, uri: &str) -> Result<ReadResourceResult, ErrorData> {
        let not_found = || {
            ErrorData::resource_not_found(
                format!(
                    "no document has the URI `{}`: resources/list gives them ({}ID)",
                    uri, DOC_URI_PREFIX
                ),
                Some(json!({"uri": uri})),
            )
        };
        let id = doc_id(uri).ok_or_else(not_found)?;
        let source = self.source.clone();
        let doc = tokio::task::spawn_blocking(move || source.read(&id))
            .await
            .map_err(|e| ErrorData::internal_error(format!("read failed: {}", e), None))?
            .ok_or_else(not_found)?;
        Ok(ReadResourceResult::new(vec![
            ResourceContents::text(doc_text(&doc), uri.to_owned()).with_mime_type("text/plain"),
        ]))
    }
}

/// A document as `read` and `resources/read` give it.
fn doc_text(doc: &Doc) -> String {
    format!("{} — {}\n\n{}", doc.id, doc.title, doc.body)
}

impl ServerHandler for DocServer {
    fn get_info(&self) -> ServerConfig {
        let capabilities = if self.source.doc_count() > 0 {
            ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .build()
        } else {
            ServerCapabilities::builder().enable_tools().build()
        };
        ServerConfig::new(capabilities)
            .with_server_info(Implementation::new(
                self.source.name().to_owned(),
                env!("CARGO_PKG_VERSION"),
            ))
            .with_instructions(
                "Documentation lookup: call `search` with a query, then `read` with an id from \
                 its results for the whole document.",
            )
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(DocServer::tools()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        DocServer::tools().into_iter().find(|t| t.name == name)
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        self.list_resources_page(request.as_ref())
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        self.read_resource_uri(&request.uri)
            .await
            .map(ReadResourceResponse::from)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // A client that gave up (timeout) cancels the request: stop waiting for the source, so
        // that nothing holds the server up when its input closes.
        tokio::select! {
            result = self.run_tool(&request.name, request.arguments.as_ref()) => {
                result.map(CallToolResponse::from)
            }
            _ = context.ct.cancelled() => {
                Err(ErrorData::internal_error("the request was cancelled", None))
            }
        }
    }
}

fn schema(value: Value) -> JsonObject {
    match value {
        Value::Object(map) => map,
        _ => JsonObject::new(),
    }
}

fn required_string(args: &JsonObject, key: &str) -> Result<String, String> {
    match args.get(key) {
        Some(Value::String(s)) => Ok(s.clone()),
        Some(other) => Err(format!(
            "`{}` must be a string, not {}",
            key,
            verity_model::json_type_phrase(other)
        )),
        None => Err(format!("`{}` is required", key)),
    }
}

/// `search`'s query and limit.
fn search_args(args: &JsonObject) -> Result<(String, usize), String> {
    let query = required_string(args, "query")?;
    if query.trim().is_empty() {
        return Err("`query` must not be empty: give symbol names, API names or words".to_owned());
    }
    let limit = match args.get("limit") {
        None | Some(Value::Null) => DEFAULT_SEARCH_LIMIT,
        Some(v) => match v.as_u64() {
            Some(n) if (1..=MAX_SEARCH_LIMIT as u64).contains(&n) => n as usize,
            _ => {
                return Err(format!(
                    "`limit` must be an integer from 1 to {}, not {}",
                    MAX_SEARCH_LIMIT, v
                ));
            }
        },
    };
    Ok((query, limit))
}

/// `id — title` and the start of the body, per document, separated by blank lines.
fn search_text(query: &str, docs: &[Doc]) -> String {
    if docs.is_empty() {
        return format!("No documents match `{}`.", query);
    }
    docs.iter()
        .map(|doc| format!("{} — {}\n{}", doc.id, doc.title, excerpt(&doc.body)))
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// The first [`EXCERPT_CHARS`] characters of `body` on one line, `…` where it was cut.
fn excerpt(body: &str) -> String {
    let flat = body.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= EXCERPT_CHARS {
        return flat;
    }
    let mut cut: String = flat.chars().take(EXCERPT_CHARS).collect();
    cut.push('…');
    cut
}

/// `tools` with the annotations of tools that only read: `readOnlyHint: true`,
/// `destructiveHint: false` (the reference servers never write).
pub(crate) fn read_only(tools: Vec<Tool>) -> Vec<Tool> {
    tools
        .into_iter()
        .map(|t| {
            t.annotate(
                rmcp::model::ToolAnnotations::new()
                    .read_only(true)
                    .destructive(false),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::StaticDocs;

    fn server() -> DocServer {
        DocServer::new(Arc::new(StaticDocs::new(
            "test docs",
            vec![
                Doc {
                    id: "a".into(),
                    title: "Alpha".into(),
                    body: "alpha body text".into(),
                },
                Doc {
                    id: "b".into(),
                    title: "Beta".into(),
                    body: "beta ".repeat(200),
                },
            ],
        )))
    }

    fn args(v: Value) -> JsonObject {
        schema(v)
    }

    fn text(result: &CallToolResult) -> String {
        result
            .content
            .iter()
            .filter_map(|c| c.as_text().map(|t| t.text.clone()))
            .collect()
    }

    #[tokio::test]
    async fn search_lists_id_title_and_excerpt() {
        let s = server();
        let r = s
            .run_tool("search", Some(&args(json!({"query": "beta"}))))
            .await
            .unwrap();
        assert_eq!(r.is_error, Some(false));
        let t = text(&r);
        assert!(t.starts_with("b — Beta\nbeta beta"), "{}", t);
        assert!(t.ends_with('…'), "a long body is cut: {}", t);
        assert!(!t.contains("Alpha"));
    }

    #[tokio::test]
    async fn search_respects_limit_and_reports_no_match() {
        let s = server();
        let r = s
            .run_tool(
                "search",
                Some(&args(json!({"query": "body beta", "limit": 1}))),
            )
            .await
            .unwrap();
        assert_eq!(text(&r).matches(" — ").count(), 1);
        let r = s
            .run_tool("search", Some(&args(json!({"query": "gamma"}))))
            .await
            .unwrap();
        assert_eq!(text(&r), "No documents match `gamma`.");
    }

    #[tokio::test]
    async fn bad_arguments_are_tool_errors_and_unknown_tools_invalid_params() {
        let s = server();
        for (bad, says) in [
            (json!({}), "`query` is required"),
            (
                json!({"query": 5}),
                "`query` must be a string, not a number",
            ),
            (json!({"query": "  "}), "`query` must not be empty"),
            (
                json!({"query": "x", "limit": 0}),
                "`limit` must be an integer from 1 to 50",
            ),
            (json!({"query": "x", "limit": 51}), "not 51"),
            (json!({"query": "x", "limit": 2.5}), "not 2.5"),
            (json!({"query": "x", "limit": "3"}), "not \"3\""),
        ] {
            let r = s
                .run_tool("search", Some(&args(bad.clone())))
                .await
                .unwrap();
            assert_eq!(r.is_error, Some(true), "{}", bad);
            assert!(text(&r).starts_with("tool `search`: "), "{}", text(&r));
            assert!(text(&r).contains(says), "{}: {}", bad, text(&r));
        }
        let r = s.run_tool("read", None).await.unwrap();
        assert_eq!(r.is_error, Some(true));
        assert!(text(&r).contains("`id` is required"), "{}", text(&r));
        let e = s.run_tool("write", None).await.unwrap_err();
        assert_eq!(e.code, rmcp::model::ErrorCode::INVALID_PARAMS);
        assert!(e.message.contains("unknown tool `write`"), "{}", e.message);
    }

    #[test]
    fn resource_uris_round_trip_and_encode_what_a_path_cannot_hold() {
        for id in ["a", "SwiftUI/View.task(priority:_:)", "x y#z?%", "Ünï/cødé"] {
            let uri = doc_uri(id);
            assert!(uri.starts_with("verity-doc:///"), "{uri}");
            assert!(!uri[14..].contains([' ', '#', '?']), "{uri}");
            assert_eq!(doc_id(&uri).as_deref(), Some(id));
        }
        assert_eq!(
            doc_uri("SwiftUI/View.task(priority:_:)"),
            "verity-doc:///SwiftUI/View.task(priority:_:)"
        );
        assert_eq!(doc_id("file:///a"), None);
    }

    #[tokio::test]
    async fn resources_list_every_document_in_pages_and_read_them() {
        let docs: Vec<Doc> = (0..RESOURCE_PAGE + 3)
            .map(|i| Doc {
                id: format!("d/{i}"),
                title: format!("Doc {i}"),
                body: format!("body {i}"),
            })
            .collect();
        let s = DocServer::new(Arc::new(StaticDocs::new("many", docs)));
        assert!(s.get_info().capabilities.resources.is_some());
        let first = s.list_resources_page(None).unwrap();
        assert_eq!(first.resources.len(), RESOURCE_PAGE);
        assert_eq!(first.resources[0].uri, "verity-doc:///d/0");
        assert_eq!(first.resources[0].name, "d/0");
        assert_eq!(first.resources[0].title.as_deref(), Some("Doc 0"));
        assert_eq!(first.resources[0].mime_type.as_deref(), Some("text/plain"));
        let cursor = first.next_cursor.clone().unwrap();
        let next = PaginatedRequestParams::default().with_cursor(Some(cursor));
        let second = s.list_resources_page(Some(&next)).unwrap();
        assert_eq!(second.resources.len(), 3);
        assert_eq!(second.next_cursor, None);
        let bad = PaginatedRequestParams::default().with_cursor(Some("zzz".to_owned()));
        let e = s.list_resources_page(Some(&bad)).unwrap_err();
        assert_eq!(e.code, rmcp::model::ErrorCode::INVALID_PARAMS);

        let read = s.read_resource_uri("verity-doc:///d/7").await.unwrap();
        let json = serde_json::to_value(&read).unwrap();
        assert_eq!(json["contents"][0]["text"], "d/7 — Doc 7\n\nbody 7");
        assert_eq!(json["contents"][0]["mimeType"], "text/plain");
        let e = s.read_resource_uri("verity-doc:///nope").await.unwrap_err();
        assert_eq!(e.code, rmcp::model::ErrorCode::RESOURCE_NOT_FOUND);
        assert!(e.message.contains("resources/list"), "{}", e.message);
    }

    #[tokio::test]
    async fn read_returns_the_whole_doc_or_a_tool_error() {
        let s = server();
        let r = s
            .run_tool("read", Some(&args(json!({"id": "a"}))))
            .await
            .unwrap();
        assert_eq!(text(&r), "a — Alpha\n\nalpha body text");
        let r = s
            .run_tool("read", Some(&args(json!({"id": "zzz"}))))
            .await
            .unwrap();
        assert_eq!(r.is_error, Some(true));
        assert!(text(&r).contains("no document with id `zzz`"));
    }

    #[test]
    fn info_names_the_source_and_enables_tools() {
        let info = server().get_info();
        assert_eq!(info.server_info.name, "test docs");
        assert!(info.capabilities.tools.is_some());
        let names: Vec<_> = DocServer::tools()
            .into_iter()
            .map(|t| t.name.into_owned())
            .collect();
        assert_eq!(names, ["search", "read"]);
    }
}
