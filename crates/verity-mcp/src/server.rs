//! The reference server: a [`DocSource`] served over MCP on stdin/stdout, with two tools,
//! `search` and `read`.

use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    JsonObject, ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
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
    serve_handler(name, DocServer::new(source)).await
}

/// Serves any handler over MCP on stdin/stdout until the client closes stdin; `name` is for
/// error messages.
pub(crate) async fn serve_handler<H: ServerHandler>(
    name: String,
    handler: H,
) -> Result<(), McpError> {
    let running = handler
        .serve(rmcp::transport::io::stdio())
        .await
        .map_err(|e| McpError::Protocol {
            server: name.clone(),
            message: format!("the MCP session did not start: {}", e),
        })?;
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

    /// The two tools: `search` and `read`.
    pub fn tools() -> Vec<Tool> {
        vec![
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
        ]
    }

    /// Runs one of the two tools. Unknown tools and invalid arguments are JSON-RPC errors
    /// (`-32602`); an unknown document id is a tool error the model gets to read.
    pub async fn run_tool(
        &self,
        name: &str,
        arguments: Option<&JsonObject>,
    ) -> Result<CallToolResult, ErrorData> {
        let empty = JsonObject::new();
        let args = arguments.unwrap_or(&empty);
        match name {
            "search" => {
                let query = required_string(args, "search", "query")?;
                if query.trim().is_empty() {
                    return Err(ErrorData::invalid_params(
                        "tool `search`: `query` must not be empty",
                        None,
                    ));
                }
                let limit = limit(args)?;
                let source = self.source.clone();
                let q = query.clone();
                let docs = tokio::task::spawn_blocking(move || source.search(&q, limit))
                    .await
                    .map_err(|e| {
                        ErrorData::internal_error(format!("search failed: {}", e), None)
                    })?;
                let docs: Vec<Doc> = docs.into_iter().take(limit).collect();
                Ok(CallToolResult::success(vec![ContentBlock::text(
                    search_text(&query, &docs),
                )]))
            }
            "read" => {
                let id = required_string(args, "read", "id")?;
                let source = self.source.clone();
                let wanted = id.clone();
                let doc = tokio::task::spawn_blocking(move || source.read(&wanted))
                    .await
                    .map_err(|e| ErrorData::internal_error(format!("read failed: {}", e), None))?;
                Ok(match doc {
                    Some(doc) => CallToolResult::success(vec![ContentBlock::text(format!(
                        "{} — {}\n\n{}",
                        doc.id, doc.title, doc.body
                    ))]),
                    None => CallToolResult::error(vec![ContentBlock::text(format!(
                        "There is no document with id `{}`. Use `search` to find ids.",
                        id
                    ))]),
                })
            }
            other => Err(ErrorData::invalid_params(
                format!(
                    "unknown tool `{}`: this server has `search` and `read`",
                    other
                ),
                None,
            )),
        }
    }
}

impl ServerHandler for DocServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
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

fn required_string(args: &JsonObject, tool: &str, key: &str) -> Result<String, ErrorData> {
    match args.get(key) {
        Some(Value::String(s)) => Ok(s.clone()),
        Some(other) => Err(ErrorData::invalid_params(
            format!("tool `{}`: `{}` must be a string, not {}", tool, key, other),
            None,
        )),
        None => Err(ErrorData::invalid_params(
            format!("tool `{}`: `{}` is required", tool, key),
            None,
        )),
    }
}

fn limit(args: &JsonObject) -> Result<usize, ErrorData> {
    let bad = |v: &Value| {
        ErrorData::invalid_params(
            format!(
                "tool `search`: `limit` must be an integer from 1 to {}, not {}",
                MAX_SEARCH_LIMIT, v
            ),
            None,
        )
    };
    match args.get("limit") {
        None | Some(Value::Null) => Ok(DEFAULT_SEARCH_LIMIT),
        Some(v) => match v.as_u64() {
            Some(n) if (1..=MAX_SEARCH_LIMIT as u64).contains(&n) => Ok(n as usize),
            _ => Err(bad(v)),
        },
    }
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
    async fn bad_arguments_are_invalid_params() {
        let s = server();
        for bad in [
            json!({}),
            json!({"query": 5}),
            json!({"query": "  "}),
            json!({"query": "x", "limit": 0}),
            json!({"query": "x", "limit": 51}),
            json!({"query": "x", "limit": 2.5}),
            json!({"query": "x", "limit": "3"}),
        ] {
            let e = s
                .run_tool("search", Some(&args(bad.clone())))
                .await
                .unwrap_err();
            assert_eq!(e.code, rmcp::model::ErrorCode::INVALID_PARAMS, "{}", bad);
        }
        let e = s.run_tool("read", None).await.unwrap_err();
        assert!(e.message.contains("`id` is required"), "{}", e.message);
        let e = s.run_tool("write", None).await.unwrap_err();
        assert_eq!(e.code, rmcp::model::ErrorCode::INVALID_PARAMS);
        assert!(e.message.contains("unknown tool `write`"), "{}", e.message);
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
