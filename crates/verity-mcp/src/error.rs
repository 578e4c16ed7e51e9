use std::time::Duration;

use serde_json::Value;

/// What went wrong talking to (or serving) an MCP server.
///
/// In `tools` mode, [`McpError::Tool`] and [`McpError::Protocol`] are usually the model's doing
/// (a failed lookup, bad arguments, a tool that does not exist): send the message back to the
/// model as the tool's answer. [`McpError::Timeout`] and [`McpError::Exited`] are the
/// infrastructure's: the sample has no answer. [`McpError::Start`] aborts the run before any
/// sample.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum McpError {
    /// The server could not be started: the command is missing or not executable, it exited
    /// before or during the handshake, or the handshake and the tool listing took too long.
    #[error("MCP server `{server}` did not start: {message}")]
    Start { server: String, message: String },
    /// The server process is gone (or closed its output) while the run still needs it.
    #[error("MCP server `{server}` exited: {message}")]
    Exited { server: String, message: String },
    /// A server reached over HTTP (`url`) could not be reached, answered a request with an
    /// HTTP error, or no longer knows the session. `url` is the server's, credentials redacted.
    #[error("MCP server `{server}` at {url} is unreachable: {message}")]
    Unreachable {
        server: String,
        url: String,
        message: String,
    },
    /// No answer within the time allowed.
    #[error("MCP server `{server}`: {operation} timed out after {}", show_duration(*.timeout))]
    Timeout {
        server: String,
        operation: String,
        timeout: Duration,
    },
    /// The tool ran and reported an error (`isError`). `message` is its text, `result` the raw
    /// `CallToolResult`.
    #[error("MCP server `{server}`: tool `{tool}` reported an error: {message}")]
    Tool {
        server: String,
        tool: String,
        message: String,
        result: Box<Value>,
    },
    /// A JSON-RPC error (unknown tool, invalid arguments, …), an answer that is not valid MCP, or
    /// a server without what the caller needs (no search tool).
    #[error("MCP server `{server}`: {message}")]
    Protocol { server: String, message: String },
}

impl McpError {
    /// A stable, machine-readable kind, fit for `ResponseError::kind`.
    pub fn kind(&self) -> &'static str {
        match self {
            McpError::Start { .. } => "mcp_start",
            McpError::Exited { .. } => "mcp_exited",
            McpError::Unreachable { .. } => "mcp_unreachable",
            McpError::Timeout { .. } => "mcp_timeout",
            McpError::Tool { .. } => "mcp_tool",
            McpError::Protocol { .. } => "mcp_protocol",
        }
    }

    /// The server's name (the `[servers.NAME]` key).
    pub fn server(&self) -> &str {
        match self {
            McpError::Start { server, .. }
            | McpError::Exited { server, .. }
            | McpError::Unreachable { server, .. }
            | McpError::Timeout { server, .. }
            | McpError::Tool { server, .. }
            | McpError::Protocol { server, .. } => server,
        }
    }

    /// Whether the server can no longer answer anything (it did not start, or it is gone).
    pub fn is_fatal(&self) -> bool {
        matches!(
            self,
            McpError::Start { .. } | McpError::Exited { .. } | McpError::Unreachable { .. }
        )
    }

    /// Whether the error is the model's to see in a tool-call loop (a tool error or a rejected
    /// call), as opposed to an infrastructure failure.
    pub fn is_model_visible(&self) -> bool {
        matches!(self, McpError::Tool { .. } | McpError::Protocol { .. })
    }
}

/// `1.5s`, `250ms`, `30s`.
pub(crate) fn show_duration(d: Duration) -> String {
    let ms = d.as_millis();
    if ms < 1000 {
        format!("{}ms", ms)
    } else if ms.is_multiple_of(1000) {
        format!("{}s", ms / 1000)
    } else {
        format!("{:.1}s", d.as_secs_f64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_naturally() {
        assert_eq!(show_duration(Duration::from_millis(250)), "250ms");
        assert_eq!(show_duration(Duration::from_secs(30)), "30s");
        assert_eq!(show_duration(Duration::from_millis(1500)), "1.5s");
    }

    #[test]
    fn kinds_and_classes() {
        let exited = McpError::Exited {
            server: "docs".into(),
            message: "exited with status 3".into(),
        };
        assert_eq!(exited.kind(), "mcp_exited");
        assert_eq!(exited.server(), "docs");
        assert!(exited.is_fatal());
        assert!(!exited.is_model_visible());
        assert_eq!(
            exited.to_string(),
            "MCP server `docs` exited: exited with status 3"
        );
        let timeout = McpError::Timeout {
            server: "docs".into(),
            operation: "tool `search`".into(),
            timeout: Duration::from_millis(200),
        };
        assert_eq!(
            timeout.to_string(),
            "MCP server `docs`: tool `search` timed out after 200ms"
        );
        assert!(!timeout.is_fatal() && !timeout.is_model_visible());
        let tool = McpError::Tool {
            server: "docs".into(),
            tool: "read".into(),
            message: "no such doc".into(),
            result: Box::new(Value::Null),
        };
        assert_eq!(tool.kind(), "mcp_tool");
        assert!(tool.is_model_visible() && !tool.is_fatal());
    }
}
