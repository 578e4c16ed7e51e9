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

use verity_mcp::{GroundingServer, McpError};
use verity_model::{
    ChatMessage, GroundingMode, GroundingSpec, ResponseError, Role, ServerSpec, Suite, ToolCall,
};

use crate::{GroundingError, RunError};

/// How long a server may take to start and answer the MCP handshake.
pub(crate) const STARTUP_TIMEOUT: Duration = Duration::from_secs(30);
/// How long one tool call may take.
pub(crate) const CALL_TIMEOUT: Duration = Duration::from_secs(60);
/// Tool-call rounds a `tools`-mode sample may take before its last answer counts.
pub(crate) const MAX_TOOL_ROUNDS: usize = 8;

/// A variant's grounding: its server and how it is used.
#[derive(Clone)]
pub(crate) struct Grounded {
    pub(crate) server: Arc<GroundingServer>,
    pub(crate) spec: GroundingSpec,
    /// What identifies the server's answers in cache keys: the suite's server entry as written,
    /// the server's reported name and version, and its tools.
    pub(crate) identity: String,
}

/// `verity` as a server command means this very binary, so a suite that names the reference
/// server works from any install (and serves with the same version that runs it).
fn spawnable(spec: &ServerSpec) -> ServerSpec {
    let mut s = spec.clone();
    if s.command.first().map(String::as_str) == Some("verity")
        && let Ok(exe) = std::env::current_exe()
    {
        s.command[0] = exe.display().to_string();
    }
    s
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
                let s = GroundingServer::start(&g.server, &spawnable(spec), STARTUP_TIMEOUT)
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
        if g.mode == GroundingMode::InjectTopK {
            server
                .search_binding()
                .map_err(|e| GroundingError::NoSearch {
                    server: g.server.clone(),
                    message: e.to_string(),
                })?;
        }
        let tools: Vec<(&str, &serde_json::Value)> = server
            .tools()
            .iter()
            .map(|t| (t.name.as_str(), &t.input_schema))
            .collect();
        let identity = serde_json::json!({
            "server": spec,
            "version": server.server_version(),
            "tools": tools,
            "mode": g.mode,
            "k": g.k,
        })
        .to_string();
        out.insert(
            v.name.clone(),
            Grounded {
                server,
                spec: g.clone(),
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

/// `inject-top-k`: searches the server with the task's prompt and puts the results into the
/// context, as a system message just before the last user message.
pub(crate) async fn inject_top_k(
    g: &Grounded,
    query: &str,
    messages: &mut Vec<ChatMessage>,
) -> Result<ToolCall, ResponseError> {
    let out = g
        .server
        .search(query, g.spec.k, CALL_TIMEOUT)
        .await
        .map_err(|e| infra_error(&e))?;
    let context = ChatMessage::new(
        Role::System,
        format!("{}\n\n{}", g.spec.preamble_text(), out.text),
    );
    let at = messages
        .iter()
        .rposition(|m| m.role == Role::User)
        .unwrap_or(messages.len());
    messages.insert(at, context);
    Ok(out.to_tool_call(None))
}
