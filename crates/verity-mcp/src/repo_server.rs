//! The code-search server (`verity mcp serve --repo`): a [`RepoSource`] over MCP on stdin/stdout,
//! with the tools `search`, `read_lines` and `list_files`. Read-only: it answers from what it read
//! at start.
//!
//! Bad arguments (a missing query, `k` out of range, a path outside the repository, lines past
//! the end of a file) come back as tool results flagged `isError`, whose text says what to fix:
//! the model reads them and can try again. Only a tool that does not exist is a JSON-RPC error.
//!
//! Every served file is also a resource (`resources/list`, `resources/read`) under
//! [`REPO_URI_SCHEME`]: only what the walk found, so nothing outside it can be read.

use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    JsonObject, ListResourcesResult, ListToolsResult, PaginatedRequestParams,
    ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Resource,
    ResourceContents, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{Value, json};

use crate::McpError;
use crate::repo::{
    DEFAULT_HITS, DEFAULT_LIST, MAX_HITS, MAX_LIST, MAX_READ_LINES, RepoSource, SNIPPET_LINES,
};

/// The code-search server's MCP handler over a [`RepoSource`].
#[derive(Clone, Debug)]
pub struct RepoServer {
    source: Arc<RepoSource>,
}

/// Serves `source` over MCP on stdin/stdout until the client closes stdin.
pub async fn serve_repos_stdio(source: Arc<RepoSource>) -> Result<(), McpError> {
    let name = crate::DocSource::name(&*source).to_owned();
    crate::server::serve_handler_stdio(name, RepoServer::new(source)).await
}

/// A tool's answer: its text, or an error the model gets to read.
type Answer = Result<String, String>;

impl RepoServer {
    pub fn new(source: Arc<RepoSource>) -> RepoServer {
        RepoServer { source }
    }

    /// `search`, `read_lines` and `list_files`, annotated read-only.
    pub fn tools(&self) -> Vec<Tool> {
        let names: Vec<&str> = self.source.repos().iter().map(|r| r.name()).collect();
        let repo = |required: bool| {
            let mut d = format!(
                "The repository: one of {}.",
                names
                    .iter()
                    .map(|n| format!("`{}`", n))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            if !required {
                d.push_str(" Optional when the server has one repository.");
            }
            json!({"type": "string", "enum": names, "description": d})
        };
        crate::server::read_only(vec![
            Tool::new(
                "search",
                format!(
                    "Search the code of the repositories. Returns the best matches, best first, \
                     each headed `REPO:path:start-end` (a definition's whole line range, or the \
                     lines shown) with up to {} numbered lines. Put identifiers in backticks; \
                     definitions of a named identifier rank first. Naming a repository in the \
                     query (or in `repo`) searches that one only.",
                    SNIPPET_LINES
                ),
                object(json!({
                    "type": "object",
                    "properties": {
                        "query": {
                            "type": "string",
                            "description": "Identifiers (`parse_args`, `Parser.parse`) and words."
                        },
                        "repo": repo(false),
                        "k": {
                            "type": "integer",
                            "minimum": 1,
                            "maximum": MAX_HITS,
                            "default": DEFAULT_HITS,
                            "description": "How many hits to return."
                        }
                    },
                    "required": ["query"]
                })),
            ),
            Tool::new(
                "read_lines",
                format!(
                    "Read lines `start` to `end` (inclusive, 1-based, at most {}) of a file, \
                     numbered.",
                    MAX_READ_LINES
                ),
                object(json!({
                    "type": "object",
                    "properties": {
                        "repo": repo(false),
                        "path": {
                            "type": "string",
                            "description": "The file, relative to the repository root \
                                            (as `search` and `list_files` print it)."
                        },
                        "start": {"type": "integer", "minimum": 1},
                        "end": {"type": "integer", "minimum": 1}
                    },
                    "required": ["path", "start", "end"]
                })),
            ),
            Tool::new(
                "list_files",
                "List the repository's files (sorted, with their line counts), all of them or \
                 those under a path prefix (`src/`) or matching a glob (`**/*.py`).",
                object(json!({
                    "type": "object",
                    "properties": {
                        "repo": repo(false),
                        "pattern": {
                            "type": "string",
                            "description": "A path prefix, or a glob (with * ? [ or {)."
                        },
                        "limit": {
                            "type": "integer",
                            "minimum": 1,
                            "maximum": MAX_LIST,
                            "default": DEFAULT_LIST
                        }
                    }
                })),
            ),
        ])
    }

    /// Runs a tool. Bad arguments are an `isError` result; an unknown tool is `-32602`.
    pub async fn run_tool(
        &self,
        name: &str,
        arguments: Option<&JsonObject>,
    ) -> Result<CallToolResult, ErrorData> {
        let args = arguments.cloned().unwrap_or_default();
        let source = self.source.clone();
        let answer: Answer = match name {
            "search" | "read_lines" | "list_files" => {
                let tool = name.to_owned();
                tokio::task::spawn_blocking(move || run(&source, &tool, &args))
                    .await
                    .map_err(|e| {
                        ErrorData::internal_error(format!("{} failed: {}", name, e), None)
                    })?
            }
            other => {
                return Err(ErrorData::invalid_params(
                    format!(
                        "unknown tool `{}`: this server has `search`, `read_lines` and \
                         `list_files`",
                        other
                    ),
                    None,
                ));
            }
        };
        Ok(match answer {
            Ok(text) => CallToolResult::success(vec![ContentBlock::text(text)]),
            Err(why) => {
                CallToolResult::error(vec![ContentBlock::text(format!("{}: {}", name, why))])
            }
        })
    }
}

/// The URI scheme of the code-search server's resources: `verity-repo://NAME/PATH`, one per
/// file the walk served (PATH relative to the repository root, percent-encoded where a URI
/// path needs it).
pub const REPO_URI_SCHEME: &str = "verity-repo://";

/// The resource URI of file `path` of repository `repo`.
pub fn file_uri(repo: &str, path: &str) -> String {
    format!(
        "{}{}/{}",
        REPO_URI_SCHEME,
        crate::server::encode_path(repo),
        crate::server::encode_path(path)
    )
}

/// The repository and path of a [`file_uri`].
fn parse_file_uri(uri: &str) -> Option<(String, String)> {
    let rest = uri.strip_prefix(REPO_URI_SCHEME)?;
    let decoded = percent_encoding::percent_decode_str(rest)
        .decode_utf8()
        .ok()?;
    let (repo, path) = decoded.split_once('/')?;
    Some((repo.to_owned(), path.to_owned()))
}

/// A MIME type for a source file, by its extension; `text/plain` for the rest (the walk serves
/// text files only).
fn mime_type(path: &str) -> &'static str {
    match path.rsplit_once('.').map(|(_, ext)| ext) {
        Some("json") => "application/json",
        Some("md") => "text/markdown",
        Some("html" | "htm") => "text/html",
        Some("css") => "text/css",
        Some("js" | "mjs" | "cjs" | "jsx") => "text/javascript",
        Some("ts" | "tsx") => "text/x-typescript",
        Some("py") => "text/x-python",
        Some("rs") => "text/x-rust",
        Some("go") => "text/x-go",
        Some("swift") => "text/x-swift",
        Some("toml") => "application/toml",
        Some("yaml" | "yml") => "application/yaml",
        _ => "text/plain",
    }
}

fn run(source: &RepoSource, tool: &str, args: &JsonObject) -> Answer {
    match tool {
        "search" => {
            let query = string(args, "query")?.ok_or("`query` is required")?;
            let repo = string(args, "repo")?;
            let k = integer(args, "k", 1, MAX_HITS as u64)?.unwrap_or(DEFAULT_HITS as u64);
            let hits = source.search(&query, repo.as_deref(), k as usize)?;
            if hits.is_empty() {
                return Ok(format!("No matches for `{}`.", query.trim()));
            }
            Ok(hits
                .iter()
                .map(|h| h.render())
                .collect::<Vec<_>>()
                .join("\n"))
        }
        "read_lines" => {
            let repo = string(args, "repo")?;
            let path = string(args, "path")?.ok_or("`path` is required")?;
            let start =
                integer(args, "start", 1, u64::from(u32::MAX))?.ok_or("`start` is required")?;
            let end = integer(args, "end", 1, u64::from(u32::MAX))?.ok_or("`end` is required")?;
            let lines = source.read_lines(repo.as_deref(), &path, start as u32, end as u32)?;
            Ok(lines.render())
        }
        "list_files" => {
            let repo = string(args, "repo")?;
            let pattern = string(args, "pattern")?;
            let limit = integer(args, "limit", 1, MAX_LIST as u64)?.unwrap_or(DEFAULT_LIST as u64);
            let (page, total) =
                source.list_files(repo.as_deref(), pattern.as_deref(), limit as usize)?;
            if total == 0 {
                return Ok(match pattern {
                    Some(p) => format!("No files match `{}`.", p),
                    None => "The repository has no files this server serves.".to_owned(),
                });
            }
            let mut out: String = page
                .iter()
                .map(|(path, lines)| format!("{} ({} lines)\n", path, lines))
                .collect();
            if total > page.len() {
                out.push_str(&format!(
                    "… {} more (narrow `pattern` or raise `limit`)\n",
                    total - page.len()
                ));
            }
            Ok(out)
        }
        other => Err(format!("unknown tool `{}`", other)),
    }
}

/// An optional string argument.
fn string(args: &JsonObject, key: &str) -> Result<Option<String>, String> {
    match args.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => Err(format!("`{}` must be a string, not {}", key, other)),
    }
}

/// An optional integer argument from `min` to `max`.
fn integer(args: &JsonObject, key: &str, min: u64, max: u64) -> Result<Option<u64>, String> {
    match args.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => match v.as_u64() {
            Some(n) if (min..=max).contains(&n) => Ok(Some(n)),
            _ => Err(format!(
                "`{}` must be an integer from {} to {}, not {}",
                key, min, max, v
            )),
        },
    }
}

fn object(value: Value) -> JsonObject {
    match value {
        Value::Object(map) => map,
        _ => JsonObject::new(),
    }
}

impl ServerHandler for RepoServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .build(),
        )
        .with_server_info(Implementation::new(
            crate::DocSource::name(&*self.source).to_owned(),
            env!("CARGO_PKG_VERSION"),
        ))
        .with_instructions(
            "Code search over repositories: `search` finds definitions and code (hits are \
                 headed REPO:path:start-end), `read_lines` reads a file's lines, `list_files` \
                 lists files. Cite what you read as path:start-end.",
        )
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.tools().into_iter().find(|t| t.name == name)
    }

    /// Every served file of every repository, [`crate::server::RESOURCE_PAGE`] at a time.
    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let files: Vec<(&str, &str)> = self
            .source
            .repos()
            .iter()
            .flat_map(|r| r.paths().map(move |p| (r.name(), p)))
            .collect();
        let start = crate::server::page_start(request.as_ref(), files.len())?;
        let end = (start + crate::server::RESOURCE_PAGE).min(files.len());
        let resources = files[start..end]
            .iter()
            .map(|(repo, path)| {
                Resource::new(file_uri(repo, path), format!("{}:{}", repo, path))
                    .with_mime_type(mime_type(path))
            })
            .collect();
        let mut result = ListResourcesResult::with_all_items(resources);
        result.next_cursor = (end < files.len()).then(|| end.to_string());
        Ok(result)
    }

    /// A served file's whole text; anything else (another scheme, a path the walk did not
    /// serve, `..`) is not found.
    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let uri = request.uri;
        let text = parse_file_uri(&uri).and_then(|(repo, path)| {
            self.source
                .repos()
                .iter()
                .find(|r| r.name() == repo)
                .and_then(|r| r.file_text(&path))
                .map(|text| (text, path))
        });
        match text {
            Some((text, path)) => Ok(ReadResourceResult::new(vec![
                ResourceContents::text(text, uri).with_mime_type(mime_type(&path)),
            ])
            .into()),
            None => Err(ErrorData::resource_not_found(
                format!(
                    "no served file has the URI `{}`: resources/list gives them \
                     ({}REPO/PATH)",
                    uri, REPO_URI_SCHEME
                ),
                Some(json!({"uri": uri})),
            )),
        }
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
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
