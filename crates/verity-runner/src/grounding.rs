//! Grounding: the documentation / tool servers a run owns, and how a grounded sample uses them.
//!
//! Servers are started once, before any sample (a server that will not start aborts the run:
//! grounding that silently did nothing would make every grounded result meaningless), shared by
//! every sample of the variants that name them, and shut down after the last sample. A server
//! that dies mid-run fails the grounded samples that needed it, with the reason, and the run
//! goes on.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value};
use verity_mcp::{Allowlist, GroundingServer, McpError, SearchBinding, ToolOutput};
use verity_model::{
    ChatMessage, GroundingMode, GroundingSpec, ResponseError, ResultSpec, Role, ServerSpec, Suite,
    Task, ToolCall, Variant,
};

use crate::{GroundingError, RunError};

/// How long a server may take to start and answer the MCP handshake unless its
/// `startup_timeout` says otherwise: long enough for a first `npx -y` download.
pub const DEFAULT_STARTUP_TIMEOUT: Duration = Duration::from_secs(120);
/// How long one tool call may take unless the server's `call_timeout` says otherwise.
pub const DEFAULT_CALL_TIMEOUT: Duration = Duration::from_secs(60);
/// Tool-call rounds a `tools`-mode sample may take before its last answer counts.
pub(crate) const MAX_TOOL_ROUNDS: usize = 8;

/// The `ResponseError::kind` of a `tools`-mode call refused because the tool is not allowed.
pub const TOOL_NOT_ALLOWED: &str = "tool_not_allowed";
/// The `ResponseError::kind` of an `inject-top-k` call whose arguments did not render.
pub const ARGUMENTS_FAILED: &str = "grounding_arguments";
/// The `ResponseError::kind` of an `inject-top-k` result that `result.path` cannot read.
pub const RESULT_FAILED: &str = "grounding_result";

/// How `inject-top-k` calls its server.
#[derive(Clone, Debug)]
pub(crate) enum Search {
    /// The suite's `tool` with its `arguments` templates (none: no arguments).
    Explicit {
        tool: String,
        arguments: Map<String, Value>,
    },
    /// The documented fallback: the heuristic's choice of tool, query and count arguments.
    Fallback(SearchBinding),
}

/// A variant's grounding: its server and how it is used.
#[derive(Clone)]
pub(crate) struct Grounded {
    pub(crate) server: Arc<GroundingServer>,
    pub(crate) spec: GroundingSpec,
    /// How long one tool call may take.
    pub(crate) call_timeout: Duration,
    /// `inject-top-k`: the call and what of its result becomes the context.
    pub(crate) search: Option<Search>,
    pub(crate) result: ResultSpec,
    /// `tools`: what the model may call, and the tools as it is offered them.
    pub(crate) allowed: Allowlist,
    pub(crate) offered: Vec<Value>,
    /// What identifies the server's answers in cache keys: the suite's server entry as written
    /// (the tool mapping included), the server's reported name and version, its tools, the
    /// call `inject-top-k` makes and the tools `tools` mode offers.
    pub(crate) identity: String,
}

/// `verity` as a server command means this very binary, so a suite that names the reference
/// server works from any install (and serves with the same version that runs it).
pub fn spawnable(spec: &ServerSpec) -> ServerSpec {
    let mut s = spec.clone();
    if s.command.first().map(String::as_str) == Some("verity")
        && let Ok(exe) = std::env::current_exe()
    {
        s.command[0] = exe.display().to_string();
    }
    s
}

/// The server's start-up timeout (`startup_timeout`, else [`DEFAULT_STARTUP_TIMEOUT`]).
pub fn startup_timeout(spec: &ServerSpec) -> Duration {
    seconds(spec.startup_timeout).unwrap_or(DEFAULT_STARTUP_TIMEOUT)
}

/// The server's tool-call timeout (`call_timeout`, else [`DEFAULT_CALL_TIMEOUT`]).
pub fn call_timeout(spec: &ServerSpec) -> Duration {
    seconds(spec.call_timeout).unwrap_or(DEFAULT_CALL_TIMEOUT)
}

fn seconds(s: Option<f64>) -> Option<Duration> {
    s.and_then(|s| Duration::try_from_secs_f64(s).ok())
        .filter(|d| !d.is_zero())
}

/// Starts a server as a run does (this binary for `verity`, its start-up timeout).
pub async fn start_server(name: &str, spec: &ServerSpec) -> Result<GroundingServer, McpError> {
    GroundingServer::start(name, &spawnable(spec), startup_timeout(spec)).await
}

/// How `inject-top-k` calls `server` under `spec`: the suite's `tool` (which must exist), else
/// the fallback's choice, or why there is none.
pub fn search_mapping(spec: &ServerSpec, server: &GroundingServer) -> Result<String, String> {
    search_of(spec, server).map(|s| match s {
        Search::Explicit { tool, arguments } => {
            format!("tool `{tool}` with arguments {}", Value::Object(arguments))
        }
        Search::Fallback(b) => format!(
            "the fallback's choice: tool `{}`, the query in `{}`{}",
            b.tool,
            b.query_arg,
            b.limit_arg
                .as_deref()
                .map(|l| format!(", k in `{l}`"))
                .unwrap_or_default()
        ),
    })
}

fn search_of(spec: &ServerSpec, server: &GroundingServer) -> Result<Search, String> {
    match &spec.tool {
        Some(tool) => {
            if server.tool(tool).is_none() {
                return Err(format!(
                    "`tool` names `{tool}`, which the server does not have (it has {})",
                    verity_mcp::tool_list(server.tools())
                ));
            }
            Ok(Search::Explicit {
                tool: tool.clone(),
                arguments: spec.arguments.clone().unwrap_or_default(),
            })
        }
        None => SearchBinding::find(server.tools(), None)
            .map(Search::Fallback)
            .map_err(|why| format!("the server {why}")),
    }
}

/// Starts every server a variant of `suite` uses; returns variant -> grounding.
pub(crate) async fn start_servers(suite: &Suite) -> Result<HashMap<String, Grounded>, RunError> {
    let mut servers: HashMap<String, Arc<GroundingServer>> = HashMap::new();
    let mut out = HashMap::new();
    for v in &suite.variants {
        let Some(g) = &v.grounding else { continue };
        let Some(spec) = suite.servers.get(&g.server) else {
            return Err(GroundingError::UnknownServer {
                variant: v.name.clone(),
                server: g.server.clone(),
            }
            .into());
        };
        let server = match servers.get(&g.server) {
            Some(s) => s.clone(),
            None => {
                let s = start_server(&g.server, spec)
                    .await
                    .map_err(|e| GroundingError::Start {
                        server: g.server.clone(),
                        message: e.to_string(),
                    })?;
                let s = Arc::new(s);
                servers.insert(g.server.clone(), s.clone());
                s
            }
        };
        let search = match g.mode {
            GroundingMode::InjectTopK => {
                Some(
                    search_of(spec, &server).map_err(|message| GroundingError::NoSearch {
                        server: g.server.clone(),
                        message,
                    })?,
                )
            }
            GroundingMode::Tools => None,
        };
        let (allowed, offered) = match g.mode {
            GroundingMode::Tools => {
                let allowed = Allowlist::resolve(spec, server.tools()).map_err(|message| {
                    GroundingError::Tools {
                        server: g.server.clone(),
                        message,
                    }
                })?;
                let offered = server.openai_tools_allowed(&allowed);
                (allowed, offered)
            }
            GroundingMode::InjectTopK => (Allowlist::Only(Default::default()), Vec::new()),
        };
        let tools: Vec<(&str, &Value)> = server
            .tools()
            .iter()
            .map(|t| (t.name.as_str(), &t.input_schema))
            .collect();
        let mapping = match &search {
            Some(Search::Explicit { tool, arguments }) => {
                serde_json::json!({ "tool": tool, "arguments": arguments })
            }
            Some(Search::Fallback(b)) => serde_json::json!({
                "tool": b.tool, "query": b.query_arg, "limit": b.limit_arg,
                "fallback": true,
            }),
            None => Value::Null,
        };
        let identity = serde_json::json!({
            "server": spec,
            "version": server.server_version(),
            "tools": tools,
            "mode": g.mode,
            "k": g.k,
            "mapping": mapping,
            "result": spec.result,
            "offered": offered,
        })
        .to_string();
        out.insert(
            v.name.clone(),
            Grounded {
                server,
                spec: g.clone(),
                call_timeout: call_timeout(spec),
                search,
                result: spec.result.clone().unwrap_or_default(),
                allowed,
                offered,
                identity,
            },
        );
    }
    Ok(out)
}

/// Shuts the servers down (each once, however many variants share it).
pub(crate) async fn stop_servers(grounding: HashMap<String, Grounded>) {
    let mut seen: HashMap<String, Arc<GroundingServer>> = HashMap::new();
    for (_, g) in grounding {
        seen.entry(g.server.name().to_owned()).or_insert(g.server);
    }
    for (_, s) in seen {
        match Arc::try_unwrap(s) {
            Ok(s) => s.shutdown().await,
            // Still referenced (an aborted sample): dropping the last reference kills it.
            Err(s) => drop(s),
        }
    }
}

pub(crate) fn infra_error(e: &McpError) -> ResponseError {
    ResponseError {
        kind: e.kind().to_owned(),
        message: e.to_string(),
    }
}

/// `inject-top-k`: calls the server (the suite's tool with its rendered arguments, or the
/// fallback's search with the query) and puts the selected part of the result into the
/// context, as a system message just before the last user message. Returns the call as
/// recorded; a failed call comes back recorded too (its `error` set), with the reason the
/// sample fails.
pub(crate) async fn inject_top_k(
    g: &Grounded,
    task: &Task,
    variant: &Variant,
    messages: &mut Vec<ChatMessage>,
) -> Result<ToolCall, (ToolCall, ResponseError)> {
    let query = task.input.prompt_text();
    let failed = |name: &str, arguments: Value, error: ResponseError| {
        let call = ToolCall {
            id: None,
            name: name.to_owned(),
            arguments,
            result: None,
            error: Some(error.clone()),
        };
        (call, error)
    };
    let Some(search) = &g.search else {
        return Err(failed(
            "",
            Value::Null,
            ResponseError {
                kind: "grounding".into(),
                message: format!("variant `{}` has no search to call", variant.name),
            },
        ));
    };
    let outcome = match search {
        Search::Explicit { tool, arguments } => {
            let ctx = verity_suite::render::argument_context(query, g.spec.k, task, variant);
            let mut args = match verity_suite::render::render_arguments(arguments, &ctx) {
                Ok(args) => args,
                Err(message) => {
                    return Err(failed(
                        tool,
                        Value::Null,
                        ResponseError {
                            kind: ARGUMENTS_FAILED.into(),
                            message: format!(
                                "the arguments of tool `{tool}` of server `{}` did not render: {message}",
                                g.spec.server
                            ),
                        },
                    ));
                }
            };
            if let Some(info) = g.server.tool(tool) {
                verity_mcp::coerce_arguments(info, &mut args);
            }
            let args = Value::Object(args);
            (
                tool.clone(),
                args.clone(),
                g.server.call(tool, args, g.call_timeout).await,
            )
        }
        Search::Fallback(b) => {
            let args = b.arguments(query, g.spec.k);
            (
                b.tool.clone(),
                args.clone(),
                g.server.call(&b.tool, args, g.call_timeout).await,
            )
        }
    };
    let (tool, arguments, result) = outcome;
    let out = match result {
        Ok(out) => out,
        Err(e) => {
            let (mut call, error) = failed(&tool, arguments, infra_error(&e));
            if let McpError::Tool { result, .. } = &e {
                call.result = Some((**result).clone());
            }
            return Err((call, error));
        }
    };
    let text = match select(&g.result, g.spec.k, &out) {
        Ok(text) => text,
        Err(message) => {
            let error = ResponseError {
                kind: RESULT_FAILED.into(),
                message: format!(
                    "the result of tool `{tool}` of server `{}`: {message}",
                    g.spec.server
                ),
            };
            let mut call = out.to_tool_call(None);
            call.error = Some(error.clone());
            return Err((call, error));
        }
    };
    let context = ChatMessage::new(
        Role::System,
        format!("{}\n\n{}", g.spec.preamble_text(), text),
    );
    let at = messages
        .iter()
        .rposition(|m| m.role == Role::User)
        .unwrap_or(messages.len());
    messages.insert(at, context);
    Ok(out.to_tool_call(None))
}

/// What of a tool's result becomes the context: its text content, or with `result.path` each
/// match of the path in its structured content (else in its text parsed as JSON) as one item,
/// the first `result.top_k` (else the variant's `k`) of them.
pub(crate) fn select(spec: &ResultSpec, k: u32, out: &ToolOutput) -> Result<String, String> {
    let Some(path) = &spec.path else {
        return Ok(if out.text.trim().is_empty() {
            "(no results)".to_owned()
        } else {
            out.text.clone()
        });
    };
    let parsed = verity_catalog::json_path::parse(path)?;
    let root = match out.raw.get("structuredContent") {
        Some(v) if !v.is_null() => v.clone(),
        _ => serde_json::from_str::<Value>(&out.text).map_err(|e| {
            format!(
                "`result.path` needs JSON, but the result has no structured content and its text is not JSON ({e})"
            )
        })?,
    };
    let keep = spec.top_k.unwrap_or(k) as usize;
    let items: Vec<String> = parsed
        .query(&root)
        .all()
        .into_iter()
        .take(keep)
        .map(|v| match v {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        })
        .collect();
    if items.is_empty() {
        return Ok("(no results)".to_owned());
    }
    Ok(items
        .iter()
        .enumerate()
        .map(|(i, item)| format!("[{}] {item}", i + 1))
        .collect::<Vec<_>>()
        .join("\n\n"))
}

/// What `verity validate --check-servers` found about one `[servers.NAME]` entry.
#[derive(Clone, Debug)]
pub struct ServerCheck {
    /// The `[servers.NAME]` key.
    pub name: String,
    /// Why the server did not start, if it did not.
    pub start_error: Option<String>,
    /// "name version" as the server introduced itself.
    pub version: Option<String>,
    /// The tools it listed.
    pub tools: Vec<verity_mcp::ToolInfo>,
    /// How each variant grounded on it uses it (one line each).
    pub uses: Vec<String>,
    /// What does not fit: a tool the server lacks, arguments its schema rejects, a fallback
    /// that will not guess, an allowlist naming a missing tool.
    pub problems: Vec<String>,
}

/// Starts each server of `suite` as a run would, lists its tools and checks every grounded
/// variant's use of it against them (the tool exists; its `arguments` against the tool's
/// input schema; for the fallback, its choice or why there is none; for `tools` mode, the
/// allowlist), then shuts it down. Servers are checked one at a time.
pub async fn check_servers(suite: &Suite) -> Vec<ServerCheck> {
    let mut out = Vec::new();
    for (name, spec) in &suite.servers {
        let mut check = ServerCheck {
            name: name.clone(),
            start_error: None,
            version: None,
            tools: Vec::new(),
            uses: Vec::new(),
            problems: Vec::new(),
        };
        let server = match start_server(name, spec).await {
            Ok(s) => s,
            Err(e) => {
                check.start_error = Some(e.to_string());
                out.push(check);
                continue;
            }
        };
        check.version = server.server_version().map(str::to_owned);
        check.tools = server.tools().to_vec();
        let variants: Vec<(&Variant, &GroundingSpec)> = suite
            .variants
            .iter()
            .filter_map(|v| v.grounding.as_ref().map(|g| (v, g)))
            .filter(|(_, g)| &g.server == name)
            .collect();
        if spec.allow_tools.is_some()
            && let Err(why) = Allowlist::resolve(spec, server.tools())
        {
            check.problems.push(why);
        }
        if let Some(tool) = &spec.tool {
            match server.tool(tool) {
                None => check.problems.push(format!(
                    "`tool` names `{tool}`, which the server does not have (it has {})",
                    verity_mcp::tool_list(server.tools())
                )),
                Some(info) => check.problems.extend(verity_mcp::check_arguments(
                    info,
                    &spec.arguments.clone().unwrap_or_default(),
                )),
            }
        }
        for (v, g) in variants {
            match g.mode {
                GroundingMode::InjectTopK => match search_mapping(spec, &server) {
                    Ok(how) => check.uses.push(format!(
                        "variant `{}` (inject-top-k, k = {}): {how}",
                        v.name, g.k
                    )),
                    Err(why) => {
                        if spec.tool.is_none() {
                            check
                                .problems
                                .push(format!("variant `{}` (inject-top-k): {why}", v.name));
                        }
                    }
                },
                GroundingMode::Tools => match Allowlist::resolve(spec, server.tools()) {
                    Ok(a) => {
                        let offered: Vec<String> = a
                            .names(server.tools())
                            .into_iter()
                            .map(|n| format!("`{n}`"))
                            .collect();
                        check.uses.push(format!(
                            "variant `{}` (tools): offers {}",
                            v.name,
                            offered.join(", ")
                        ));
                    }
                    Err(why) => {
                        if spec.allow_tools.is_none() {
                            check
                                .problems
                                .push(format!("variant `{}` (tools): {why}", v.name));
                        }
                    }
                },
            }
        }
        server.shutdown().await;
        out.push(check);
    }
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn output(text: &str, structured: Option<Value>) -> ToolOutput {
        let mut raw = json!({"content": [{"type": "text", "text": text}]});
        if let Some(s) = structured {
            raw["structuredContent"] = s;
        }
        ToolOutput {
            tool: "t".into(),
            arguments: json!({}),
            text: text.into(),
            raw,
        }
    }

    #[test]
    fn the_text_content_is_the_default() {
        let spec = ResultSpec::default();
        assert_eq!(select(&spec, 3, &output("a\nb", None)).unwrap(), "a\nb");
        assert_eq!(
            select(&spec, 3, &output("  ", None)).unwrap(),
            "(no results)"
        );
    }

    #[test]
    fn a_path_selects_items_from_structured_content_or_json_text() {
        let spec = ResultSpec {
            path: Some("$.results[*].title".into()),
            top_k: None,
        };
        let structured = json!({"results": [{"title": "A"}, {"title": "B"}, {"title": "C"}]});
        assert_eq!(
            select(&spec, 2, &output("ignored", Some(structured))).unwrap(),
            "[1] A\n\n[2] B"
        );
        let spec = ResultSpec {
            path: Some("$.hits[*]".into()),
            top_k: Some(5),
        };
        let text = r#"{"hits": ["x", {"n": 1}]}"#;
        assert_eq!(
            select(&spec, 1, &output(text, None)).unwrap(),
            "[1] x\n\n[2] {\"n\":1}"
        );
        assert_eq!(
            select(&spec, 1, &output(r#"{"other": 1}"#, None)).unwrap(),
            "(no results)"
        );
        let err = select(&spec, 1, &output("not json", None)).unwrap_err();
        assert!(err.contains("its text is not JSON"), "{err}");
    }

    #[test]
    fn timeouts_default_and_take_fractions() {
        let spec = ServerSpec::default();
        assert_eq!(startup_timeout(&spec), Duration::from_secs(120));
        assert_eq!(call_timeout(&spec), Duration::from_secs(60));
        let spec = ServerSpec {
            startup_timeout: Some(2.5),
            call_timeout: Some(0.25),
            ..ServerSpec::default()
        };
        assert_eq!(startup_timeout(&spec), Duration::from_millis(2500));
        assert_eq!(call_timeout(&spec), Duration::from_millis(250));
    }
}
