//! The client side: a grounding server a run owns.

use std::collections::BTreeMap;
use std::future::Future;
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig, ContentBlock,
    Implementation, ProtocolVersion, ResourceContents,
};
use rmcp::service::{RunningService, ServiceError};
use rmcp::{RoleClient, ServiceExt as _};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use verity_model::{ServerSpec, ToolCall};

use tokio::process::{ChildStdin, ChildStdout};
use verity_process::{AsyncProcess, Capture, Quote, Signal, Spec, Stdin};

use crate::error::show_duration;
use crate::{McpError, SearchBinding};

/// How long to wait, after the connection broke, for the process's exit status.
const EXIT_GRACE: Duration = Duration::from_secs(2);
/// Shutdown: how long the server gets to exit after its input closes, then after `SIGTERM`.
const SHUTDOWN_WAIT: Duration = Duration::from_secs(3);
/// How long closing the MCP session may take.
const CLOSE_WAIT: Duration = Duration::from_secs(3);
/// How much of the end of the server's standard error is kept.
const STDERR_KEEP_BYTES: usize = 8 * 1024;
/// How much of it an error message quotes: its last lines, at most so many characters.
const STDERR_QUOTE: Quote = Quote {
    lines: 8,
    chars: 800,
};

/// A tool the server offers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ToolInfo {
    pub name: String,
    /// Empty when the server gives none.
    pub description: String,
    /// The JSON Schema of its arguments, as the server sent it.
    pub input_schema: Value,
}

/// What a tool call returned.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ToolOutput {
    /// The tool that was called.
    pub tool: String,
    /// The arguments it was called with (for [`GroundingServer::search`]: the discovered ones).
    pub arguments: Value,
    /// The result's text parts (and embedded text resources) joined by newlines; the structured
    /// content as JSON when there is no text.
    pub text: String,
    /// The whole `CallToolResult` as JSON.
    pub raw: Value,
}

impl ToolOutput {
    /// The call as the response records it (`result` is the raw result).
    pub fn to_tool_call(&self, id: Option<String>) -> ToolCall {
        ToolCall {
            id,
            name: self.tool.clone(),
            arguments: self.arguments.clone(),
            result: Some(self.raw.clone()),
            error: None,
        }
    }
}

/// A running MCP server process owned by a run (spawned from a [`ServerSpec`]: command + env),
/// shared by all samples: methods take `&self` and are safe to call concurrently (share it in an
/// `Arc`). Every call has a timeout; a server that dies turns every call into
/// [`McpError::Exited`] at once, with the end of its standard error.
///
/// Drop kills the server's process group; [`GroundingServer::shutdown`] ends it gracefully.
pub struct GroundingServer {
    name: String,
    command: Vec<String>,
    env: BTreeMap<String, String>,
    /// "name version" as the server introduced itself.
    server_version: Option<String>,
    tools: Vec<ToolInfo>,
    search: Result<SearchBinding, String>,
    service: RunningService<RoleClient, ClientConfig>,
    process: AsyncProcess,
}

impl std::fmt::Debug for GroundingServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // `env` may hold values the user would rather not see in logs: names only.
        f.debug_struct("GroundingServer")
            .field("name", &self.name)
            .field("command", &self.command)
            .field("env", &self.env.keys().collect::<Vec<_>>())
            .field("pid", &self.process.pid())
            .field(
                "tools",
                &self.tools.iter().map(|t| &t.name).collect::<Vec<_>>(),
            )
            .finish()
    }
}

impl GroundingServer {
    /// Spawns the command, performs the MCP handshake and lists its tools. A server that fails
    /// to start, exits, or does not complete the handshake and the tool listing within
    /// `startup_timeout` is an [`McpError::Start`] (the run aborts before any sample), with the
    /// end of the server's standard error in the message.
    pub async fn start(
        name: &str,
        spec: &ServerSpec,
        startup_timeout: Duration,
    ) -> Result<GroundingServer, McpError> {
        let fail = |message: String| McpError::Start {
            server: name.to_owned(),
            message,
        };
        let command_line = spec.command.join(" ");
        let (process, stdout, stdin) =
            spawn(spec).map_err(|e| fail(format!("could not run `{}`: {}", command_line, e)))?;

        let handshake = async {
            let service = client_config()
                .serve((stdout, stdin))
                .await
                .map_err(|e| format!("the MCP handshake failed: {}", e))?;
            let tools = service
                .peer()
                .list_all_tools()
                .await
                .map_err(|e| format!("listing its tools failed: {}", e))?;
            Ok::<_, String>((service, tools))
        };
        let outcome = tokio::select! {
            biased;
            done = tokio::time::timeout(startup_timeout, handshake) => match done {
                Ok(Ok(ready)) => Ok(ready),
                Ok(Err(failure)) => match process.wait_exit(EXIT_GRACE).await {
                    Some(how) => Err(format!("it {} during the MCP handshake", how)),
                    None => Err(failure),
                },
                Err(_) => Err(format!(
                    "it did not complete the MCP handshake within {}",
                    show_duration(startup_timeout)
                )),
            },
            how = process.exited() => Err(format!("it {} during the MCP handshake", how)),
        };
        let (service, tools) = match outcome {
            Ok(ready) => ready,
            Err(why) => {
                process.kill(EXIT_GRACE).await;
                return Err(fail(format!(
                    "`{}`: {}",
                    command_line,
                    describe(&process, &why)
                )));
            }
        };

        let tools: Vec<ToolInfo> = tools
            .into_iter()
            .map(|t| ToolInfo {
                name: t.name.into_owned(),
                description: t.description.map(|d| d.into_owned()).unwrap_or_default(),
                input_schema: Value::Object((*t.input_schema).clone()),
            })
            .collect();
        let server_version = service.peer().peer_info().and_then(|info| {
            info.server_info
                .as_ref()
                .map(|i| format!("{} {}", i.name, i.version))
        });
        Ok(GroundingServer {
            name: name.to_owned(),
            command: spec.command.clone(),
            env: spec.env.clone(),
            server_version,
            search: SearchBinding::find(&tools, None),
            tools,
            service,
            process,
        })
    }

    /// The server's name (the `[servers.NAME]` key).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The tools the server listed at start.
    pub fn tools(&self) -> &[ToolInfo] {
        &self.tools
    }

    /// The tools as OpenAI function-calling JSON
    /// (`{"type":"function","function":{"name","description","parameters"}}`), for `tools` mode.
    pub fn openai_tools(&self) -> Vec<Value> {
        self.tools.iter().map(openai_tool).collect()
    }

    /// "name version" as the server introduced itself in the handshake.
    pub fn server_version(&self) -> Option<&str> {
        self.server_version.as_deref()
    }

    /// The server's process id (for logs).
    pub fn pid(&self) -> Option<u32> {
        self.process.pid()
    }

    /// The last lines of the server's standard error on one line (empty if it wrote none).
    pub fn stderr_tail(&self) -> String {
        self.process.stderr_tail()
    }

    /// Calls a tool; returns its content as text plus the raw result JSON. `arguments` must be a
    /// JSON object (or null for none). A tool the server did not list, invalid arguments and
    /// other JSON-RPC errors are [`McpError::Protocol`]; a result flagged `isError` is
    /// [`McpError::Tool`].
    pub async fn call(
        &self,
        tool: &str,
        arguments: Value,
        timeout: Duration,
    ) -> Result<ToolOutput, McpError> {
        if !self.tools.iter().any(|t| t.name == tool) {
            return Err(self.protocol(format!(
                "there is no tool `{}` (tools: {})",
                tool,
                self.tool_names()
            )));
        }
        let mut params = CallToolRequestParams::new(tool.to_owned());
        match &arguments {
            Value::Object(map) => params = params.with_arguments(map.clone()),
            Value::Null => {}
            other => {
                return Err(self.protocol(format!(
                    "the arguments of tool `{}` must be a JSON object, not {}",
                    tool, other
                )));
            }
        }
        let operation = format!("tool `{}`", tool);
        let result = self
            .guarded(&operation, timeout, self.service.peer().call_tool(params))
            .await?;
        let text = result_text(&result);
        let raw = serde_json::to_value(&result).unwrap_or(Value::Null);
        if result.is_error == Some(true) {
            return Err(McpError::Tool {
                server: self.name.clone(),
                tool: tool.to_owned(),
                message: if text.is_empty() {
                    "(no message)".to_owned()
                } else {
                    text
                },
                result: Box::new(raw),
            });
        }
        Ok(ToolOutput {
            tool: tool.to_owned(),
            arguments,
            text,
            raw,
        })
    }

    /// For `inject-top-k`: calls the search tool (see [`SearchBinding::find`]; change it with
    /// [`GroundingServer::set_search_tool`]) with the query and `k` and returns the results.
    /// A server without a fitting tool is an [`McpError::Protocol`]; check
    /// [`GroundingServer::search_binding`] at start to fail before any sample.
    pub async fn search(
        &self,
        query: &str,
        k: u32,
        timeout: Duration,
    ) -> Result<ToolOutput, McpError> {
        let binding = self.search_binding()?;
        let arguments = binding.arguments(query, k);
        self.call(&binding.tool, arguments, timeout).await
    }

    /// The tool and arguments [`GroundingServer::search`] uses, or why there are none.
    pub fn search_binding(&self) -> Result<&SearchBinding, McpError> {
        self.search
            .as_ref()
            .map_err(|why| self.protocol(format!("the server {}", why)))
    }

    /// Uses the tool named `tool` for [`GroundingServer::search`] instead of the default choice.
    pub fn set_search_tool(&mut self, tool: &str) -> Result<&SearchBinding, McpError> {
        self.search = SearchBinding::find(&self.tools, Some(tool));
        self.search_binding()
    }

    /// A stable identity for cache keys: the command line, the environment it adds, the name
    /// and version the server gave, and every tool's name, description and input schema (a
    /// description is part of what a model is shown in `tools` mode). It holds the `env`
    /// values as written in the suite: hash it, do not log it.
    pub fn identity(&self) -> String {
        let tools: Vec<Value> = self
            .tools
            .iter()
            .map(|t| {
                json!({
                    "name": t.name,
                    "description": t.description,
                    "input_schema": t.input_schema,
                })
            })
            .collect();
        json!({
            "command": self.command,
            "env": self.env,
            "server": self.server_version,
            "tools": tools,
        })
        .to_string()
    }

    /// Ends the session and the process: closes its input, waits for it to exit, then sends
    /// `SIGTERM`, then kills its process group. Bounded (about 10 s at worst).
    pub async fn shutdown(self) {
        let GroundingServer {
            service, process, ..
        } = self;
        if process.exit().is_none() {
            // Closing the session closes the server's standard input.
            let _ = tokio::time::timeout(CLOSE_WAIT, service.cancel()).await;
        } else {
            drop(service);
        }
        if process.wait_exit(SHUTDOWN_WAIT).await.is_some() {
            return;
        }
        process.signal(Signal::Term);
        if process.wait_exit(SHUTDOWN_WAIT).await.is_some() {
            return;
        }
        process.kill(SHUTDOWN_WAIT).await;
    }

    /// Runs `request` with a timeout, failing at once when the process ends.
    async fn guarded<T>(
        &self,
        operation: &str,
        timeout: Duration,
        request: impl Future<Output = Result<T, ServiceError>>,
    ) -> Result<T, McpError> {
        if let Some(how) = self.process.exit() {
            return Err(self.exited(&how));
        }
        let outcome = tokio::select! {
            biased;
            outcome = tokio::time::timeout(timeout, request) => outcome,
            how = self.process.exited() => return Err(self.exited(&how)),
        };
        match outcome {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(e)) => Err(self.service_error(operation, e).await),
            Err(_) => match self.process.exit() {
                Some(how) => Err(self.exited(&how)),
                None => Err(McpError::Timeout {
                    server: self.name.clone(),
                    operation: operation.to_owned(),
                    timeout,
                }),
            },
        }
    }

    async fn service_error(&self, operation: &str, e: ServiceError) -> McpError {
        match e {
            ServiceError::McpError(data) => {
                let mut message = format!(
                    "{} was rejected: {} (JSON-RPC error {})",
                    operation, data.message, data.code.0
                );
                if let Some(detail) = data.data {
                    message.push_str(&format!("; {}", detail));
                }
                self.protocol(message)
            }
            ServiceError::TransportClosed | ServiceError::TransportSend(_) => {
                match self.process.wait_exit(EXIT_GRACE).await {
                    Some(how) => self.exited(&how),
                    None => self.exited("closed the connection but is still running"),
                }
            }
            ServiceError::Timeout { timeout } => McpError::Timeout {
                server: self.name.clone(),
                operation: operation.to_owned(),
                timeout,
            },
            ServiceError::UnexpectedResponse => {
                self.protocol(format!("{} got an answer of the wrong type", operation))
            }
            other => self.protocol(format!("{} failed: {}", operation, other)),
        }
    }

    fn exited(&self, how: impl std::fmt::Display) -> McpError {
        McpError::Exited {
            server: self.name.clone(),
            message: describe(&self.process, &format!("the server {}", how)),
        }
    }

    fn protocol(&self, message: String) -> McpError {
        McpError::Protocol {
            server: self.name.clone(),
            message,
        }
    }

    fn tool_names(&self) -> String {
        self.tools
            .iter()
            .map(|t| format!("`{}`", t.name))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Starts `spec.command` under the supervisor with `spec.env` added to verity's environment, its
/// standard input and output piped (the MCP transport), the end of its standard error kept, in
/// a new process group (so a Ctrl-C at the terminal reaches verity, which then ends the server
/// itself, instead of killing the server under samples still in flight). Dropping the process
/// kills its group.
fn spawn(spec: &ServerSpec) -> std::io::Result<(AsyncProcess, ChildStdout, ChildStdin)> {
    let Some((program, args)) = spec.command.split_first() else {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "the command is empty",
        ));
    };
    let mut process = Spec::new(program).args(args).envs(&spec.env);
    if let Some(dir) = &spec.cwd {
        process = process.current_dir(dir);
    }
    let mut process = process
        .stdin(Stdin::Piped)
        .stdout(Capture::Piped)
        .stderr(Capture::Tail(STDERR_KEEP_BYTES))
        .quote(STDERR_QUOTE)
        .spawn_async()
        .map_err(verity_process::ProcessError::into_io)?;
    let (Some(stdout), Some(stdin)) = (process.take_stdout(), process.take_stdin()) else {
        return Err(std::io::Error::other("the child's pipes were not set up"));
    };
    Ok((process, stdout, stdin))
}

/// `how`, followed by the end of the server's standard error.
fn describe(process: &AsyncProcess, how: &str) -> String {
    let tail = process.stderr_tail();
    if tail.is_empty() {
        format!("{} (nothing on standard error)", how)
    } else {
        format!("{}; its standard error ends: {}", how, tail)
    }
}

fn client_config() -> ClientConfig {
    // The newest protocol revision that still has the `initialize` handshake, which every
    // stdio server in the wild speaks.
    ClientConfig::new(
        ClientCapabilities::default(),
        Implementation::new("verity", env!("CARGO_PKG_VERSION")),
    )
    .with_protocol_version(ProtocolVersion::LATEST_WITH_INITIALIZE)
}

fn openai_tool(tool: &ToolInfo) -> Value {
    let mut parameters = match &tool.input_schema {
        Value::Object(schema) => schema.clone(),
        _ => Map::new(),
    };
    // OpenAI wants an object schema with properties, which MCP does not insist on.
    parameters
        .entry("type")
        .or_insert_with(|| Value::String("object".into()));
    parameters
        .entry("properties")
        .or_insert_with(|| Value::Object(Map::new()));
    let mut function = Map::new();
    function.insert("name".into(), Value::String(tool.name.clone()));
    if !tool.description.is_empty() {
        function.insert(
            "description".into(),
            Value::String(tool.description.clone()),
        );
    }
    function.insert("parameters".into(), Value::Object(parameters));
    json!({ "type": "function", "function": function })
}

/// The text parts and embedded text resources, joined by newlines; else the structured content.
fn result_text(result: &CallToolResult) -> String {
    let parts: Vec<&str> = result
        .content
        .iter()
        .filter_map(|block| match block {
            ContentBlock::Text(text) => Some(text.text.as_str()),
            ContentBlock::Resource(resource) => match &resource.resource {
                ResourceContents::TextResourceContents { text, .. } => Some(text.as_str()),
                _ => None,
            },
            _ => None,
        })
        .collect();
    if parts.is_empty()
        && let Some(structured) = &result.structured_content
    {
        return structured.to_string();
    }
    parts.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openai_shape() {
        let tool = ToolInfo {
            name: "search".into(),
            description: "Search the docs".into(),
            input_schema: json!({"type": "object", "properties": {"query": {"type": "string"}},
                "required": ["query"]}),
        };
        assert_eq!(
            openai_tool(&tool),
            json!({"type": "function", "function": {
                "name": "search",
                "description": "Search the docs",
                "parameters": {"type": "object", "properties": {"query": {"type": "string"}},
                    "required": ["query"]}
            }})
        );
        let bare = ToolInfo {
            name: "ping".into(),
            description: String::new(),
            input_schema: json!({}),
        };
        assert_eq!(
            openai_tool(&bare),
            json!({"type": "function", "function": {
                "name": "ping",
                "parameters": {"type": "object", "properties": {}}
            }})
        );
    }

    #[test]
    fn result_text_joins_text_parts() {
        let result: CallToolResult = serde_json::from_value(json!({
            "content": [
                {"type": "text", "text": "first"},
                {"type": "image", "data": "AAAA", "mimeType": "image/png"},
                {"type": "resource", "resource": {"uri": "doc://x", "text": "second"}}
            ]
        }))
        .unwrap();
        assert_eq!(result_text(&result), "first\nsecond");
        let structured: CallToolResult = serde_json::from_value(json!({
            "content": [], "structuredContent": {"hits": 2}
        }))
        .unwrap();
        assert_eq!(result_text(&structured), r#"{"hits":2}"#);
    }

    #[test]
    fn to_tool_call_keeps_the_raw_result() {
        let out = ToolOutput {
            tool: "search".into(),
            arguments: json!({"query": "x"}),
            text: "t".into(),
            raw: json!({"content": []}),
        };
        let call = out.to_tool_call(Some("c1".into()));
        assert_eq!(call.id.as_deref(), Some("c1"));
        assert_eq!(call.name, "search");
        assert_eq!(call.arguments, json!({"query": "x"}));
        assert_eq!(call.result, Some(json!({"content": []})));
    }
}
