//! The reference docs server over a fixed set of documents, plus two tools for tests: `crash`
//! (the process exits at once) and `sleep` (answers after a while). It serves MCP on
//! stdin/stdout until stdin closes.
//!
//! `--ignore-eof`: after the session ends, keep running until killed (a server that does not
//! exit when its input closes).

#![forbid(unsafe_code)]
#![deny(clippy::print_stdout)]

use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, JsonObject,
    ListResourcesResult, ListToolsResult, PaginatedRequestParams, ReadResourceRequestParams,
    ReadResourceResponse, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{Value, json};
use verity_mcp::{Doc, DocServer, StaticDocs};

struct TestServer {
    docs: DocServer,
}

impl ServerHandler for TestServer {
    fn get_info(&self) -> ServerConfig {
        self.docs.get_info()
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let mut tools = DocServer::tools();
        tools.push(Tool::new(
            "crash",
            "Exits the server process at once with status `code` (default 3).",
            object(json!({"type": "object", "properties": {"code": {"type": "integer"}}})),
        ));
        tools.push(Tool::new(
            "sleep",
            "Waits `ms` milliseconds, then answers.",
            object(
                json!({"type": "object", "properties": {"ms": {"type": "integer"}},
                "required": ["ms"]}),
            ),
        ));
        Ok(ListToolsResult::with_all_items(tools))
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        self.docs.list_resources(request, context).await
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        self.docs.read_resource(request, context).await
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let args = request.arguments.as_ref();
        let int = |key: &str| args.and_then(|a| a.get(key)).and_then(Value::as_u64);
        match request.name.as_ref() {
            "crash" => {
                let code = int("code").and_then(|c| i32::try_from(c).ok()).unwrap_or(3);
                eprintln!(
                    "verity-mcp-test-server: crashing on request (status {})",
                    code
                );
                std::process::exit(code)
            }
            "sleep" => {
                let ms =
                    int("ms").ok_or_else(|| ErrorData::invalid_params("`ms` is required", None))?;
                tokio::select! {
                    _ = tokio::time::sleep(Duration::from_millis(ms)) => {}
                    _ = context.ct.cancelled() => {
                        return Err(ErrorData::internal_error("cancelled", None));
                    }
                }
                Ok(
                    CallToolResult::success(vec![ContentBlock::text(format!("slept {} ms", ms))])
                        .into(),
                )
            }
            _ => self.docs.call_tool(request.clone(), context).await,
        }
    }
}

fn object(value: Value) -> JsonObject {
    match value {
        Value::Object(map) => map,
        _ => JsonObject::new(),
    }
}

fn doc(id: &str, title: &str, body: &str) -> Doc {
    Doc {
        id: id.into(),
        title: title.into(),
        body: body.into(),
    }
}

fn fixture() -> StaticDocs {
    StaticDocs::new(
        "verity-mcp test docs",
        vec![
            doc(
                "swiftui/observable",
                "Observable()",
                "Defines and implements conformance of the Observable protocol. Available in \
                 iOS 17.0 and later. Attach @Observable to a class so that SwiftUI views that \
                 read its properties update when they change.",
            ),
            doc(
                "swiftui/navigationstack",
                "NavigationStack",
                "A view that displays a root view and enables you to present additional views \
                 over the root view. Available in iOS 16.0 and later. Bind a NavigationPath and \
                 use navigationDestination(for:destination:) for programmatic navigation.",
            ),
            doc(
                "foundation/urlsession",
                "URLSession",
                "An object that coordinates a group of related network data transfer tasks. \
                 Call data(from:) with async/await to fetch the contents of a URL.",
            ),
            doc(
                "foundation/jsondecoder",
                "JSONDecoder",
                "An object that decodes instances of a data type from JSON objects. Set \
                 dateDecodingStrategy to decode dates in a custom format.",
            ),
            doc(
                "swift/task",
                "Task",
                "A unit of asynchronous work. Create a Task to call async code from a \
                 synchronous context.",
            ),
            doc(
                "swiftdata/model",
                "Model()",
                "Converts a Swift class into a stored model that SwiftData manages. Available \
                 in iOS 17.0 and later.",
            ),
        ],
    )
}

#[tokio::main]
async fn main() -> ExitCode {
    let mut ignore_eof = false;
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--ignore-eof" => ignore_eof = true,
            other => {
                eprintln!("verity-mcp-test-server: unknown argument `{}`", other);
                return ExitCode::from(2);
            }
        }
    }
    let docs = fixture();
    eprintln!(
        "verity-mcp-test-server: serving {} documents",
        docs.docs().len()
    );
    let server = TestServer {
        docs: DocServer::new(Arc::new(docs)),
    };
    let code = match verity_mcp::serve_handler_stdio("verity-mcp-test-server".into(), server).await
    {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("verity-mcp-test-server: {}", e);
            ExitCode::FAILURE
        }
    };
    if ignore_eof {
        eprintln!("verity-mcp-test-server: input closed; staying up until killed");
        loop {
            tokio::time::sleep(Duration::from_secs(3600)).await;
        }
    }
    code
}
