//! The servers' stdio framing: one JSON-RPC message per line, read and written here rather than
//! by rmcp's `AsyncRwTransport`, so that a server answers what rmcp would drop or die on:
//!
//! * a line that is not JSON gets `-32700` (Parse error, `id: null`) and the server reads on;
//! * JSON that is not one message object (a batch, a number, no `"jsonrpc": "2.0"`) gets
//!   `-32600` (Invalid Request), with the message's id when it has one; a request rmcp cannot
//!   read (parameters that are not an object) gets `-32602` with its id;
//! * before `initialize`, a request other than `initialize` or `ping` gets `-32600` saying to
//!   send `initialize` first, and notifications are dropped (rmcp would end the session), so a
//!   confused client can recover instead of finding the server gone. A request that carries the
//!   stateless lifecycle's inline `_meta` protocol version is rmcp's to answer, as before.
//!
//! Lines longer than [`MAX_LINE`] are refused the same way as unparsable ones. Replies go through
//! one writer task, in order with rmcp's own messages; the line reader keeps a partial line
//! across cancelled reads (rmcp polls `receive` inside `select!`).

use rmcp::RoleServer;
use rmcp::model::{JsonRpcMessage, ServerResult};
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use serde_json::{Value, json};
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::{mpsc, oneshot};

/// The longest line (one message) read: 16 MiB, as rmcp's own stdio transport.
pub const MAX_LINE: usize = 16 * 1024 * 1024;

/// The `_meta` key of the stateless lifecycle's inline protocol version.
const INLINE_VERSION: &str = "io.modelcontextprotocol/protocolVersion";

type Ack = oneshot::Sender<std::io::Result<()>>;

/// A server transport over a reader and a writer (stdin and stdout in `verity mcp serve`).
pub struct LineTransport<R> {
    read: BufReader<R>,
    line: Vec<u8>,
    /// Dropping the rest of a line longer than [`MAX_LINE`].
    discarding: bool,
    out: mpsc::UnboundedSender<(Vec<u8>, Option<Ack>)>,
    /// Whether the server has answered `initialize`.
    initialized: bool,
}

/// What one line holds, once looked at.
#[derive(Debug, PartialEq)]
enum Verdict {
    /// A message for rmcp.
    Pass(Value),
    /// An answer of our own (a JSON-RPC error object), nothing for rmcp.
    Reply(Value),
    /// Nothing to do (an empty line, a notification before `initialize`).
    Skip,
}

impl<R: AsyncRead + Send + Unpin + 'static> LineTransport<R> {
    /// Starts the writer task on the current tokio runtime.
    pub fn new<W: AsyncWrite + Send + Unpin + 'static>(read: R, write: W) -> LineTransport<R> {
        let (out, mut rx) = mpsc::unbounded_channel::<(Vec<u8>, Option<Ack>)>();
        tokio::spawn(async move {
            let mut write = write;
            let mut broken: Option<std::io::ErrorKind> = None;
            while let Some((bytes, ack)) = rx.recv().await {
                let result = match broken {
                    Some(kind) => Err(std::io::Error::from(kind)),
                    None => {
                        let r = async {
                            write.write_all(&bytes).await?;
                            write.flush().await
                        }
                        .await;
                        if let Err(e) = &r {
                            broken = Some(e.kind());
                        }
                        r
                    }
                };
                if let Some(ack) = ack {
                    let _ = ack.send(result);
                }
            }
        });
        LineTransport {
            read: BufReader::new(read),
            line: Vec::new(),
            discarding: false,
            out,
            initialized: false,
        }
    }

    fn reply(&self, message: &Value) {
        let mut bytes = message.to_string().into_bytes();
        bytes.push(b'\n');
        // The writer ends only when every sender is gone; a failed write shows on `send`.
        let _ = self.out.send((bytes, None));
    }
}

/// Reads one line into `line` (without its `\n`), at most `max` bytes. `Ok(true)`: a line;
/// `Ok(false)`: end of input. An over-long line is reported as `InvalidData` once, and its
/// rest skipped. Cancel-safe: a partial line stays in `line`.
async fn read_line<B: AsyncBufRead + Unpin>(
    read: &mut B,
    line: &mut Vec<u8>,
    discarding: &mut bool,
    max: usize,
) -> std::io::Result<bool> {
    loop {
        let available = read.fill_buf().await?;
        if available.is_empty() {
            return Ok(false);
        }
        let newline = available.iter().position(|b| *b == b'\n');
        let take = newline.map_or(available.len(), |i| i + 1);
        let mut too_long = false;
        if !*discarding {
            let piece = &available[..newline.unwrap_or(take)];
            if line.len() + piece.len() > max {
                line.clear();
                too_long = true;
            } else {
                line.extend_from_slice(piece);
            }
        }
        read.consume(take);
        if too_long {
            *discarding = newline.is_none();
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!("the message is longer than {} bytes", max),
            ));
        }
        if newline.is_some() {
            if *discarding {
                *discarding = false;
                continue;
            }
            return Ok(true);
        }
    }
}

fn error(code: i64, message: String, id: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

/// Looks at one line. `initialized`: whether the server has answered `initialize` already.
fn judge(line: &[u8], initialized: bool) -> Verdict {
    let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    if line.iter().all(u8::is_ascii_whitespace) {
        return Verdict::Skip;
    }
    let value: Value = match serde_json::from_slice(line) {
        Ok(value) => value,
        Err(e) => {
            return Verdict::Reply(error(
                -32700,
                format!(
                    "Parse error: {} (send one JSON-RPC message object per line)",
                    e
                ),
                Value::Null,
            ));
        }
    };
    let Value::Object(map) = &value else {
        let why = if value.is_array() {
            "batches are not part of MCP since 2025-06-18: send one message object per line"
                .to_owned()
        } else {
            format!(
                "a message is a JSON object, not {}",
                verity_model::json_type_phrase(&value)
            )
        };
        return Verdict::Reply(error(
            -32600,
            format!("Invalid Request: {}", why),
            Value::Null,
        ));
    };
    let id = map
        .get("id")
        .filter(|id| id.is_string() || id.is_number())
        .cloned();
    if map.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Verdict::Reply(error(
            -32600,
            "Invalid Request: `jsonrpc` must be \"2.0\"".to_owned(),
            id.unwrap_or(Value::Null),
        ));
    }
    if map.get("method").is_some_and(|m| !m.is_string()) {
        return Verdict::Reply(error(
            -32600,
            "Invalid Request: `method` must be a string".to_owned(),
            id.unwrap_or(Value::Null),
        ));
    }
    let method = map.get("method").and_then(Value::as_str);
    if !initialized {
        match (method, &id) {
            (Some("initialize" | "ping"), Some(_)) => {}
            (Some(_), Some(_))
                if map
                    .get("params")
                    .and_then(|p| p.get("_meta"))
                    .and_then(|m| m.get(INLINE_VERSION))
                    .is_some() => {}
            (Some(method), Some(id)) => {
                return Verdict::Reply(error(
                    -32600,
                    format!(
                        "Invalid Request: the session is not initialized, so `{}` cannot be \
                         answered yet. Send an `initialize` request first (with protocolVersion, \
                         capabilities and clientInfo), then the `notifications/initialized` \
                         notification, then `{}` again",
                        method, method
                    ),
                    id.clone(),
                ));
            }
            // Notifications and stray responses before `initialize` get no answer.
            _ => return Verdict::Skip,
        }
    }
    match serde_json::from_value::<RxJsonRpcMessage<RoleServer>>(value.clone()) {
        Ok(_) => Verdict::Pass(value),
        Err(e) => match (method, id) {
            (Some(method), Some(id)) => Verdict::Reply(error(
                -32602,
                format!("Invalid params for `{}`: {}", method, e),
                id,
            )),
            // A notification rmcp does not know, or a malformed one: nothing to answer.
            (Some(_), None) => Verdict::Skip,
            (None, id) => Verdict::Reply(error(
                -32600,
                format!(
                    "Invalid Request: not a JSON-RPC request, notification or response ({})",
                    e
                ),
                id.unwrap_or(Value::Null),
            )),
        },
    }
}

impl<R: AsyncRead + Send + Unpin + 'static> Transport<RoleServer> for LineTransport<R> {
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        // The session is initialized once the server has answered `initialize` (not when the
        // request came: rmcp may refuse it); rmcp reads the next line only after this answer.
        if let JsonRpcMessage::Response(response) = &item
            && matches!(response.result, ServerResult::InitializeResult(_))
        {
            self.initialized = true;
        }
        let out = self.out.clone();
        async move {
            let mut bytes = serde_json::to_vec(&item)?;
            bytes.push(b'\n');
            let (ack, done) = oneshot::channel();
            out.send((bytes, Some(ack))).map_err(|_| {
                std::io::Error::new(std::io::ErrorKind::NotConnected, "the output is closed")
            })?;
            done.await.map_err(|_| {
                std::io::Error::new(std::io::ErrorKind::NotConnected, "the output is closed")
            })?
        }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            let read = read_line(
                &mut self.read,
                &mut self.line,
                &mut self.discarding,
                MAX_LINE,
            )
            .await;
            let verdict = match read {
                Ok(true) => {
                    let v = judge(&self.line, self.initialized);
                    self.line.clear();
                    v
                }
                Ok(false) => return None,
                Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
                    Verdict::Reply(error(-32700, format!("Parse error: {}", e), Value::Null))
                }
                Err(e) => {
                    eprintln!("mcp: reading the input failed: {}", e);
                    return None;
                }
            };
            match verdict {
                Verdict::Pass(value) => match serde_json::from_value(value) {
                    Ok(message) => return Some(message),
                    Err(e) => eprintln!("mcp: dropped a message: {}", e),
                },
                Verdict::Reply(message) => self.reply(&message),
                Verdict::Skip => {}
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        // Wait until everything queued before is written.
        let (ack, done) = oneshot::channel();
        if self.out.send((Vec::new(), Some(ack))).is_ok() {
            let _ = done.await;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(v: &Verdict) -> Option<(i64, Value)> {
        match v {
            Verdict::Reply(m) => Some((m["error"]["code"].as_i64()?, m["id"].clone())),
            _ => None,
        }
    }

    #[test]
    fn unparsable_lines_get_parse_error_with_null_id() {
        for line in [&b"{not json"[..], b"{\"jsonrpc\":", b"\xff\xfe", b"nul"] {
            assert_eq!(code(&judge(line, true)), Some((-32700, Value::Null)));
        }
    }

    #[test]
    fn batches_and_scalars_are_invalid_requests() {
        assert_eq!(code(&judge(b"[]", true)), Some((-32600, Value::Null)));
        assert_eq!(code(&judge(b"42", true)), Some((-32600, Value::Null)));
        assert_eq!(judge(b"   \r", true), Verdict::Skip);
    }

    #[test]
    fn malformed_messages_are_invalid_requests_with_their_id() {
        for (line, want) in [
            (&br#"{"jsonrpc":"1.0","id":7,"method":"ping"}"#[..], -32600),
            (br#"{"id":7,"method":5}"#, -32600),
            (br#"{"jsonrpc":"2.0","id":7,"method":5}"#, -32600),
            (br#"{"jsonrpc":"2.0","id":7}"#, -32600),
            (
                br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":5}"#,
                -32602,
            ),
        ] {
            let v = judge(line, true);
            assert_eq!(
                code(&v),
                Some((want, json!(7))),
                "{}",
                String::from_utf8_lossy(line)
            );
        }
        let ok = br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"x"}}"#;
        assert!(matches!(judge(ok, true), Verdict::Pass(_)));
    }

    #[test]
    fn before_initialize_only_initialize_and_ping_pass() {
        let list = br#"{"jsonrpc":"2.0","id":"a","method":"tools/list"}"#;
        let v = judge(list, false);
        assert_eq!(code(&v), Some((-32600, json!("a"))));
        let Verdict::Reply(m) = v else { panic!() };
        let text = m["error"]["message"].as_str().unwrap_or("");
        assert!(
            text.contains("Send an `initialize` request first"),
            "{text}"
        );
        assert!(matches!(judge(list, true), Verdict::Pass(_)));
        assert!(matches!(
            judge(br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#, false),
            Verdict::Pass(_)
        ));
        assert_eq!(
            judge(
                br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
                false
            ),
            Verdict::Skip
        );
    }

    #[tokio::test]
    async fn long_lines_are_refused_and_the_next_one_read() {
        let input = format!("{}\nok\n", "x".repeat(100));
        let mut read = BufReader::with_capacity(8, input.as_bytes());
        let (mut line, mut discarding) = (Vec::new(), false);
        let e = read_line(&mut read, &mut line, &mut discarding, 10)
            .await
            .unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::InvalidData);
        assert!(
            read_line(&mut read, &mut line, &mut discarding, 10)
                .await
                .unwrap()
        );
        assert_eq!(line, b"ok");
        line.clear();
        assert!(
            !read_line(&mut read, &mut line, &mut discarding, 10)
                .await
                .unwrap()
        );
    }
}
