//! The reference server, spoken to in raw JSON-RPC: stdout carries protocol messages only.

use std::process::Stdio;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::TEST_SERVER;

#[tokio::test]
async fn stdout_carries_only_protocol_messages() {
    let mut child = match tokio::process::Command::new(TEST_SERVER)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
    {
        Ok(child) => child,
        Err(e) => panic!("could not run the test server: {}", e),
    };
    let (Some(mut stdin), Some(mut stdout), Some(mut stderr)) =
        (child.stdin.take(), child.stdout.take(), child.stderr.take())
    else {
        panic!("pipes missing");
    };
    let messages = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "raw-test", "version": "0"}
        }}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
            "params": {"name": "search", "arguments": {"limit": "many"}}}),
        json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call",
            "params": {"name": "search", "arguments": {"query": "URLSession", "limit": 1}}}),
        json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call",
            "params": {"name": "no-such-tool", "arguments": {}}}),
    ];
    let io = async {
        for m in &messages {
            stdin.write_all(format!("{}\n", m).as_bytes()).await?;
            stdin.flush().await?;
            // Let the handshake finish before the requests that depend on it.
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        // Give the answers time to arrive, then close the input: the server must exit.
        tokio::time::sleep(Duration::from_millis(500)).await;
        drop(stdin);
        let mut out = String::new();
        stdout.read_to_string(&mut out).await?;
        let mut err = String::new();
        stderr.read_to_string(&mut err).await?;
        let status = child.wait().await?;
        Ok::<_, std::io::Error>((out, err, status))
    };
    let (out, err, status) = match tokio::time::timeout(Duration::from_secs(30), io).await {
        Ok(Ok(done)) => done,
        Ok(Err(e)) => panic!("talking to the server failed: {}", e),
        Err(_) => panic!("the server did not finish"),
    };
    assert!(status.success(), "{:?}; stderr: {}", status, err);
    assert!(
        err.contains("serving 6 documents"),
        "logs go to stderr: {}",
        err
    );

    let mut by_id = std::collections::BTreeMap::new();
    for line in out.lines() {
        let msg: Value = match serde_json::from_str(line) {
            Ok(msg) => msg,
            Err(e) => panic!("stdout has a line that is not JSON ({}): {:?}", e, line),
        };
        assert_eq!(msg["jsonrpc"], "2.0", "{}", line);
        if let Some(id) = msg["id"].as_u64() {
            by_id.insert(id, msg);
        }
    }
    assert_eq!(by_id.keys().copied().collect::<Vec<_>>(), [1, 2, 3, 4, 5]);
    assert_eq!(by_id[&1]["result"]["protocolVersion"], "2025-06-18");
    assert_eq!(
        by_id[&1]["result"]["serverInfo"]["name"],
        "verity-mcp test docs"
    );
    assert_eq!(
        by_id[&2]["result"]["tools"].as_array().map(Vec::len),
        Some(4)
    );
    // Invalid arguments are a tool result the model can read, not a protocol error.
    assert_eq!(by_id[&3]["result"]["isError"], true, "{}", by_id[&3]);
    assert!(
        by_id[&3]["result"]["content"][0]["text"]
            .as_str()
            .is_some_and(|m| m.contains("`query` is required")),
        "{}",
        by_id[&3]
    );
    let text = by_id[&4]["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or("");
    assert!(
        text.starts_with("foundation/urlsession — URLSession\n"),
        "{}",
        text
    );
    assert_eq!(by_id[&5]["error"]["code"], -32602);
}
