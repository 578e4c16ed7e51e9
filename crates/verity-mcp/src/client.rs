//! The client side: a grounding server a run owns.

use std::collections::{BTreeMap, HashMap};
use std::future::Future;
use std::time::Duration;

use http::{HeaderName, HeaderValue};
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig, ContentBlock,
    Implementation, ProtocolVersion, ResourceContents,
};
use rmcp::service::{ClientInitializeError, RunningService, ServiceError};
use rmcp::transport::DynamicTransportError;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{RoleClient, ServiceExt as _};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use verity_model::{ServerSpec, ToolCall, redact_url, redact_urls};

use tokio::process::{ChildStdin, ChildStdout};
use verity_process::{AsyncProcess, Capture, Quote, Signal, Spec, Stdin};

use crate::error::show_duration;
use crate::http_client::HttpClient;
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

/// The tools' names for a message: `` `a`, `b` ``, or `no tools`.
pub fn tool_list(tools: &[ToolInfo]) -> String {
    if tools.is_empty() {
        return "no tools".to_owned();
    }
    tools
        .iter()
        .map(|t| format!("`{}`", t.name))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A tool the server offers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ToolInfo {
    pub name: String,
    /// Empty when the server gives none.
    pub description: String,
    /// The JSON Schema of its arguments, as the server sent it.
    pub input_schema: Value,
    /// The server's `readOnlyHint` annotation: the tool does not change its environment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_only_hint: Option<bool>,
    /// The server's `destructiveHint` annotation: the tool may destroy or overwrite data.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destructive_hint: Option<bool>,
}

impl ToolInfo {
    /// A tool with these name and input schema, no description and no annotations.
    pub fn new(name: impl Into<String>, input_schema: Value) -> ToolInfo {
        ToolInfo {
            name: name.into(),
            description: String::new(),
            input_schema,
            read_only_hint: None,
            destructive_hint: None,
        }
    }

    /// Whether the server marks the tool read-only and not destructive: what `tools` mode
    /// offers a model unless the suite says otherwise.
    pub fn is_read_only(&self) -> bool {
        self.read_only_hint == Some(true) && self.destructive_hint != Some(true)
    }

    /// The `properties` of its input schema (`None` when the schema has none).
    pub fn properties(&self) -> Option<&Map<String, Value>> {
        self.input_schema
            .get("properties")
            .and_then(Value::as_object)
    }

    /// The names of the arguments its schema requires.
    pub fn required(&self) -> Vec<&str> {
        self.input_schema
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default()
    }
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

/// An MCP server a run uses, shared by all samples: a process the run owns (spawned from a
/// [`ServerSpec`]'s `command` + `env`, the MCP session over its pipes) or a server reached over
/// Streamable HTTP (`url` + `headers`). Methods take `&self` and are safe to call concurrently
/// (share it in an `Arc`). Every call has a timeout; a process that dies turns every call into
/// [`McpError::Exited`] at once, with the end of its standard error; an HTTP server that cannot
/// be reached, fails or forgets the session turns the calls into [`McpError::Unreachable`].
///
/// Drop kills the server's process group; [`GroundingServer::shutdown`] ends it gracefully (and
/// ends an HTTP session with `DELETE`).
pub struct GroundingServer {
    name: String,
    endpoint: Endpoint,
    /// "name version" as the server introduced itself.
    server_version: Option<String>,
    tools: Vec<ToolInfo>,
    search: Result<SearchBinding, String>,
    service: RunningService<RoleClient, ClientConfig>,
    /// The server's process (`None` over HTTP).
    process: Option<AsyncProcess>,
}

/// How the server is reached, as far as logs and the identity may show it.
enum Endpoint {
    Command {
        command: Vec<String>,
        env: BTreeMap<String, String>,
    },
    Http {
        /// The URL with any credentials in it redacted.
        url: String,
        /// The names of the headers sent (never their values).
        headers: Vec<String>,
    },
}

impl std::fmt::Debug for GroundingServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // `env` may hold values the user would rather not see in logs, and header values are
        // credentials: names only.
        let mut out = f.debug_struct("GroundingServer");
        out.field("name", &self.name);
        match &self.endpoint {
            Endpoint::Command { command, env } => out
                .field("command", command)
                .field("env", &env.keys().collect::<Vec<_>>())
                .field("pid", &self.pid()),
            Endpoint::Http { url, headers } => out.field("url", url).field("headers", headers),
        };
        out.field(
            "tools",
            &self.tools.iter().map(|t| &t.name).collect::<Vec<_>>(),
        )
        .finish()
    }
}

impl GroundingServer {
    /// Connects to the server `spec` describes, performs the MCP handshake and lists its tools:
    /// `spec.command` is spawned and spoken to over its pipes (stdio), `spec.url` is reached
    /// over Streamable HTTP with `spec.headers` (each header's value read from the environment
    /// variable it names, now). A server that fails to start or cannot be reached, exits, or does
    /// not complete the handshake and the tool listing within `startup_timeout` is an
    /// [`McpError::Start`] (the run aborts before any sample), with the end of the server's
    /// standard error in the message for a process, the HTTP failure for a URL.
    pub async fn start(
        name: &str,
        spec: &ServerSpec,
        startup_timeout: Duration,
    ) -> Result<GroundingServer, McpError> {
        Self::start_with_env(name, spec, startup_timeout, &|variable| {
            std::env::var_os(variable).map(|v| v.to_string_lossy().into_owned())
        })
        .await
    }

    /// [`GroundingServer::start`] with the environment variables `spec.headers` names looked
    /// up through `env` instead of the process's environment (for tests and embedders).
    pub async fn start_with_env(
        name: &str,
        spec: &ServerSpec,
        startup_timeout: Duration,
        env: &(dyn Fn(&str) -> Option<String> + Sync),
    ) -> Result<GroundingServer, McpError> {
        match &spec.url {
            Some(url) => Self::start_http(name, url, &spec.headers, startup_timeout, env).await,
            None => Self::start_stdio(name, spec, startup_timeout).await,
        }
    }

    async fn start_http(
        name: &str,
        url: &str,
        headers: &BTreeMap<String, String>,
        startup_timeout: Duration,
        env: &(dyn Fn(&str) -> Option<String> + Sync),
    ) -> Result<GroundingServer, McpError> {
        let shown = redact_url(url);
        let fail = |message: String| McpError::Start {
            server: name.to_owned(),
            message: format!("{}: {}", shown, message),
        };
        let parsed = reqwest::Url::parse(url).map_err(|e| fail(format!("not a URL: {}", e)))?;
        if !matches!(parsed.scheme(), "http" | "https") {
            return Err(fail(format!(
                "the URL's scheme is `{}`; MCP's HTTP transport needs http or https",
                parsed.scheme()
            )));
        }
        let values = header_values(headers, env).map_err(fail)?;
        // A connection that cannot be made in the start-up time fails the start; each call's own
        // timeout bounds everything after.
        let client = reqwest::Client::builder()
            .connect_timeout(startup_timeout)
            .build()
            .map_err(|e| fail(format!("cannot build the HTTP client: {}", e)))?;
        let config = StreamableHttpClientTransportConfig::with_uri(url)
            .custom_headers(values)
            // A server that forgot the session (it restarted) may have other tools or data
            // now: the run's calls fail instead of quietly starting a new session.
            .reinit_on_expired_session(false);
        let transport = StreamableHttpClientTransport::with_client(HttpClient::new(client), config);
        let handshake = async {
            let service = client_config().serve(transport).await.map_err(|e| {
                let why = match &e {
                    ClientInitializeError::TransportError { error, .. } => transport_cause(error),
                    other => other.to_string(),
                };
                format!("the MCP handshake failed: {}", why)
            })?;
            let tools = match service.peer().list_all_tools().await {
                Ok(tools) => tools,
                Err(e) => {
                    let why = match &e {
                        ServiceError::TransportSend(error) => transport_cause(error),
                        other => other.to_string(),
                    };
                    let _ = tokio::time::timeout(CLOSE_WAIT, service.cancel()).await;
                    return Err(format!("listing its tools failed: {}", why));
                }
            };
            Ok::<_, String>((service, tools))
        };
        let (service, tools) = match tokio::time::timeout(startup_timeout, handshake).await {
            Ok(Ok(ready)) => ready,
            Ok(Err(why)) => return Err(fail(redact_urls(&why))),
            Err(_) => {
                return Err(fail(format!(
                    "the server did not complete the MCP handshake within {}",
                    show_duration(startup_timeout)
                )));
            }
        };
        Ok(Self::ready(
            name,
            Endpoint::Http {
                url: shown,
                headers: headers.keys().cloned().collect(),
            },
            service,
            tools,
            None,
        ))
    }

    async fn start_stdio(
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

        Ok(Self::ready(
            name,
            Endpoint::Command {
                command: spec.command.clone(),
                env: spec.env.clone(),
            },
            service,
            tools,
            Some(process),
        ))
    }

    fn ready(
        name: &str,
        endpoint: Endpoint,
        service: RunningService<RoleClient, ClientConfig>,
        tools: Vec<rmcp::model::Tool>,
        process: Option<AsyncProcess>,
    ) -> GroundingServer {
        let tools: Vec<ToolInfo> = tools
            .into_iter()
            .map(|t| ToolInfo {
                read_only_hint: t.annotations.as_ref().and_then(|a| a.read_only_hint),
                destructive_hint: t.annotations.as_ref().and_then(|a| a.destructive_hint),
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
        GroundingServer {
            name: name.to_owned(),
            endpoint,
            server_version,
            search: SearchBinding::find(&tools, None),
            tools,
            service,
            process,
        }
    }

    /// The server's name (the `[servers.NAME]` key).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The tools the server listed at start.
    pub fn tools(&self) -> &[ToolInfo] {
        &self.tools
    }

    /// The tool named `name`, if the server listed one.
    pub fn tool(&self, name: &str) -> Option<&ToolInfo> {
        self.tools.iter().find(|t| t.name == name)
    }

    /// The tools as OpenAI function-calling JSON
    /// (`{"type":"function","function":{"name","description","parameters"}}`), for `tools` mode.
    pub fn openai_tools(&self) -> Vec<Value> {
        self.tools.iter().map(openai_tool).collect()
    }

    /// [`GroundingServer::openai_tools`] for the tools `allowed` admits only.
    pub fn openai_tools_allowed(&self, allowed: &crate::Allowlist) -> Vec<Value> {
        self.tools
            .iter()
            .filter(|t| allowed.admits(&t.name))
            .map(openai_tool)
            .collect()
    }

    /// "name version" as the server introduced itself in the handshake.
    pub fn server_version(&self) -> Option<&str> {
        self.server_version.as_deref()
    }

    /// The server's process id (for logs; `None` over HTTP).
    pub fn pid(&self) -> Option<u32> {
        self.process.as_ref().and_then(AsyncProcess::pid)
    }

    /// The last lines of the server's standard error on one line (empty if it wrote none, and
    /// over HTTP).
    pub fn stderr_tail(&self) -> String {
        self.process
            .as_ref()
            .map(AsyncProcess::stderr_tail)
            .unwrap_or_default()
    }

    /// The server's URL, credentials redacted (`None` for a process).
    pub fn url(&self) -> Option<&str> {
        match &self.endpoint {
            Endpoint::Http { url, .. } => Some(url),
            Endpoint::Command { .. } => None,
        }
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
                tool_list(&self.tools)
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

    /// A stable identity for cache keys: the command line and the environment it adds (or the
    /// URL, credentials redacted, and the names of the headers sent — never their values), the
    /// name and version the server gave, and every tool's name, description and input schema (a
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
        match &self.endpoint {
            Endpoint::Command { command, env } => json!({
                "command": command,
                "env": env,
                "server": self.server_version,
                "tools": tools,
            }),
            Endpoint::Http { url, headers } => json!({
                "url": url,
                "headers": headers,
                "server": self.server_version,
                "tools": tools,
            }),
        }
        .to_string()
    }

    /// Ends the session and the process: closes its input, waits for it to exit, then sends
    /// `SIGTERM`, then kills its process group. Over HTTP: ends the session (`DELETE`). Bounded
    /// (about 10 s at worst).
    pub async fn shutdown(self) {
        let GroundingServer {
            service, process, ..
        } = self;
        let Some(process) = process else {
            // Cancelling the session's worker sends the DELETE that ends the session.
            let _ = tokio::time::timeout(CLOSE_WAIT, service.cancel()).await;
            return;
        };
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

    /// How the process ended, if it did (never, over HTTP).
    fn process_exit(&self) -> Option<verity_process::Exit> {
        self.process.as_ref().and_then(AsyncProcess::exit)
    }

    /// Completes when the process ends (never, over HTTP).
    async fn process_exited(&self) -> verity_process::Exit {
        match &self.process {
            Some(process) => process.exited().await,
            None => std::future::pending().await,
        }
    }

    /// Runs `request` with a timeout, failing at once when the process ends.
    async fn guarded<T>(
        &self,
        operation: &str,
        timeout: Duration,
        request: impl Future<Output = Result<T, ServiceError>>,
    ) -> Result<T, McpError> {
        if let Some(how) = self.process_exit() {
            return Err(self.exited(&how));
        }
        if self.process.is_none() && self.service.is_closed() {
            return Err(self.unreachable("the MCP session has ended".to_owned()));
        }
        let outcome = tokio::select! {
            biased;
            outcome = tokio::time::timeout(timeout, request) => outcome,
            how = self.process_exited() => return Err(self.exited(&how)),
        };
        match outcome {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(e)) => Err(self.service_error(operation, e).await),
            Err(_) => match self.process_exit() {
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
            ServiceError::TransportClosed | ServiceError::TransportSend(_)
                if self.process.is_none() =>
            {
                let why = match &e {
                    ServiceError::TransportSend(cause) => redact_urls(&transport_cause(cause)),
                    _ => "the MCP session has ended".to_owned(),
                };
                self.unreachable(format!("{} failed: {}", operation, why))
            }
            ServiceError::TransportClosed | ServiceError::TransportSend(_) => {
                let exit = match &self.process {
                    Some(process) => process.wait_exit(EXIT_GRACE).await,
                    None => None,
                };
                match exit {
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
        let how = format!("the server {}", how);
        McpError::Exited {
            server: self.name.clone(),
            message: match &self.process {
                Some(process) => describe(process, &how),
                None => how,
            },
        }
    }

    /// An HTTP server that cannot be reached, failed the request or ended the session.
    fn unreachable(&self, message: String) -> McpError {
        McpError::Unreachable {
            server: self.name.clone(),
            url: self.url().unwrap_or_default().to_owned(),
            message,
        }
    }

    fn protocol(&self, message: String) -> McpError {
        McpError::Protocol {
            server: self.name.clone(),
            message,
        }
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

/// The values of the headers sent to an HTTP server, each read from the environment variable
/// its spec names (through `env`). A variable that is not set (or not a valid header value) is
/// an error naming the variable and the header, never the value; values are marked sensitive.
fn header_values(
    headers: &BTreeMap<String, String>,
    env: &(dyn Fn(&str) -> Option<String> + Sync),
) -> Result<HashMap<HeaderName, HeaderValue>, String> {
    let mut values = HashMap::with_capacity(headers.len());
    for (header, variable) in headers {
        let name = HeaderName::from_bytes(header.as_bytes())
            .map_err(|_| format!("`{}` is not a valid HTTP header name", header))?;
        let value = env(variable).ok_or_else(|| {
            format!(
                "header `{}` takes its value from the environment variable `{}`, which is not set",
                header, variable
            )
        })?;
        let mut value = HeaderValue::from_str(&value).map_err(|_| {
            format!(
                "the environment variable `{}` (header `{}`) holds characters an HTTP header cannot carry",
                variable, header
            )
        })?;
        value.set_sensitive(true);
        values.insert(name, value);
    }
    Ok(values)
}

/// What went wrong in an HTTP transport, without rmcp's wrapping (its type names).
fn transport_cause(error: &DynamicTransportError) -> String {
    let text = error.error.to_string();
    match text.strip_prefix("Client error: ") {
        Some(cause) => cause.to_owned(),
        None => text,
    }
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
            description: "Search the docs".into(),
            ..ToolInfo::new(
                "search",
                json!({"type": "object", "properties": {"query": {"type": "string"}},
                    "required": ["query"]}),
            )
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
        let bare = ToolInfo::new("ping", json!({}));
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
