//! `verity mcp serve` spoken to in raw JSON lines, as a client that gets things wrong would:
//! unparsable input, requests before `initialize`, bad tool arguments, resources.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::{Value, json};

use crate::support::*;

/// Sends `lines` to `verity mcp serve ARGS`, reads messages until `answers` of them have come
/// (or 60 s pass), closes the input and returns the messages, the exit code and stderr.
fn session(args: &[&str], lines: &[String], answers: usize) -> (Vec<Value>, Option<i32>, String) {
    let mut child = Command::new(bin())
        .args(["mcp", "serve"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("verity mcp serve starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    for line in lines {
        stdin
            .write_all(format!("{}\n", line).as_bytes())
            .expect("write");
    }
    stdin.flush().expect("flush");
    let mut out = Vec::new();
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    while out.len() < answers {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        match rx.recv_timeout(left) {
            Ok(line) => match serde_json::from_str::<Value>(&line) {
                Ok(v) => out.push(v),
                Err(e) => panic!("stdout has a line that is not JSON ({e}): {line:?}"),
            },
            Err(_) => break,
        }
    }
    drop(stdin);
    let output = child.wait_with_output().expect("wait");
    let err = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(
        out.len() >= answers,
        "{} of {} answers: {:?}\nstderr: {}",
        out.len(),
        answers,
        out,
        err
    );
    (out, output.status.code(), err)
}

fn by_id(messages: &[Value], id: Value) -> &Value {
    messages
        .iter()
        .find(|m| m["id"] == id)
        .unwrap_or_else(|| panic!("no answer to id {id}: {messages:?}"))
}

fn initialize(id: u64) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "raw", "version": "0"}
    }})
    .to_string()
}

fn request(id: u64, method: &str, params: Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string()
}

const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;

fn docs_file(dir: &Path) -> String {
    let path = dir.join("docs.jsonl");
    let docs = [
        json!({"id": "swiftui/text", "title": "Text", "body": "A view that displays text."}),
        json!({"id": "a b/c#d", "title": "Odd id", "body": "An id a URI must encode."}),
    ];
    let text: String = docs.iter().map(|d| format!("{}\n", d)).collect();
    std::fs::write(&path, text).expect("write docs");
    path.display().to_string()
}

#[test]
fn the_docs_server_answers_bad_input_and_keeps_serving() {
    let dir = tempfile::tempdir().expect("tempdir");
    let docs = docs_file(dir.path());
    let lines = vec![
        // Before initialize: a request gets a clear error, a notification nothing.
        request(1, "tools/list", json!({})),
        INITIALIZED.to_owned(),
        "{this is not json".to_owned(),
        initialize(2),
        INITIALIZED.to_owned(),
        "[1, 2]".to_owned(),
        request(
            3,
            "tools/call",
            json!({"name": "search", "arguments": {"limit": 3}}),
        ),
        request(4, "tools/call", json!({"name": "nope", "arguments": {}})),
        request(
            5,
            "tools/call",
            json!({"name": "read", "arguments": {"id": "zzz"}}),
        ),
        request(6, "resources/list", json!({})),
        request(
            7,
            "resources/read",
            json!({"uri": "verity-doc:///a%20b/c%23d"}),
        ),
        request(8, "resources/read", json!({"uri": "verity-doc:///zzz"})),
        request(
            9,
            "tools/call",
            json!({"name": "search", "arguments": {"query": "Text"}}),
        ),
        "\u{feff}{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"ping\"}".to_owned(),
    ];
    let (out, code, err) = session(&["--docs", &docs], &lines, 12);
    assert_eq!(code, Some(0), "stderr: {err}");

    let early = by_id(&out, json!(1));
    assert_eq!(early["error"]["code"], -32600, "{early}");
    let message = early["error"]["message"].as_str().unwrap_or("");
    assert!(message.contains("not initialized"), "{message}");
    assert!(message.contains("`initialize`"), "{message}");

    let nulls: Vec<&Value> = out.iter().filter(|m| m["id"].is_null()).collect();
    assert_eq!(nulls.len(), 2, "{nulls:?}");
    assert_eq!(nulls[0]["error"]["code"], -32700, "{}", nulls[0]);
    assert_eq!(nulls[1]["error"]["code"], -32600, "{}", nulls[1]);

    let init = by_id(&out, json!(2));
    assert_eq!(init["result"]["protocolVersion"], "2025-11-25");
    assert!(
        init["result"]["capabilities"]["tools"].is_object(),
        "{init}"
    );
    assert!(
        init["result"]["capabilities"]["resources"].is_object(),
        "{init}"
    );

    let bad = &by_id(&out, json!(3))["result"];
    assert_eq!(bad["isError"], true, "{bad}");
    let text = bad["content"][0]["text"].as_str().unwrap_or("");
    assert!(text.contains("`query` is required"), "{text}");

    assert_eq!(by_id(&out, json!(4))["error"]["code"], -32602);
    let unknown = &by_id(&out, json!(5))["result"];
    assert_eq!(unknown["isError"], true, "{unknown}");

    let list = &by_id(&out, json!(6))["result"]["resources"];
    assert_eq!(list[0]["uri"], "verity-doc:///swiftui/text", "{list}");
    assert_eq!(list[0]["name"], "swiftui/text");
    assert_eq!(list[0]["mimeType"], "text/plain");
    assert_eq!(list[1]["uri"], "verity-doc:///a%20b/c%23d", "{list}");

    let read = &by_id(&out, json!(7))["result"]["contents"][0];
    assert_eq!(read["text"], "a b/c#d — Odd id\n\nAn id a URI must encode.");
    assert_eq!(by_id(&out, json!(8))["error"]["code"], -32002);

    let found = by_id(&out, json!(9))["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or("")
        .to_owned();
    assert!(found.starts_with("swiftui/text — Text"), "{found}");
    assert!(by_id(&out, json!(10))["result"].is_object());
}

#[test]
fn a_refused_initialize_leaves_the_session_uninitialized() {
    let dir = tempfile::tempdir().expect("tempdir");
    let docs = docs_file(dir.path());
    let lines = vec![
        request(1, "initialize", json!({"protocolVersion": 5})),
        request(2, "tools/list", json!({})),
        initialize(3),
        request(4, "tools/list", json!({})),
    ];
    let (out, code, err) = session(&["--docs", &docs], &lines, 4);
    assert_eq!(code, Some(0), "stderr: {err}");
    assert!(by_id(&out, json!(1))["error"].is_object(), "{out:?}");
    let early = by_id(&out, json!(2));
    assert_eq!(early["error"]["code"], -32600, "{early}");
    assert!(by_id(&out, json!(3))["result"].is_object(), "{out:?}");
    assert!(
        by_id(&out, json!(4))["result"]["tools"].is_array(),
        "{out:?}"
    );
}

#[test]
fn input_that_ends_before_initialize_is_a_clean_exit() {
    let dir = tempfile::tempdir().expect("tempdir");
    let docs = docs_file(dir.path());
    let (out, code, err) = session(&["--docs", &docs], &["{oops".to_owned()], 1);
    assert_eq!(out[0]["error"]["code"], -32700);
    assert_eq!(code, Some(0), "stderr: {err}");
    assert!(err.contains("before `initialize`"), "{err}");
}

#[test]
fn the_code_search_server_serves_its_files_as_resources_and_no_others() {
    let dir = tempfile::tempdir().expect("tempdir");
    write_tree(
        dir.path(),
        &[
            ("repo/src/main.py", "def main():\n    return 1\n"),
            ("repo/README.md", "# Tiny\n"),
            ("secret.txt", "outside the walk\n"),
        ],
    );
    let repo = format!("tiny={}", dir.path().join("repo").display());
    let lines = vec![
        "not json at all".to_owned(),
        initialize(1),
        INITIALIZED.to_owned(),
        request(2, "resources/list", json!({})),
        request(
            3,
            "resources/read",
            json!({"uri": "verity-repo://tiny/src/main.py"}),
        ),
        request(
            4,
            "resources/read",
            json!({"uri": "verity-repo://tiny/../secret.txt"}),
        ),
        request(
            5,
            "tools/call",
            json!({"name": "read_lines", "arguments": {"path": "src/main.py", "start": 9, "end": 3}}),
        ),
    ];
    let (out, code, err) = session(&["--repo", &repo], &lines, 6);
    assert_eq!(code, Some(0), "stderr: {err}");
    assert_eq!(
        out.iter()
            .find(|m| m["id"].is_null())
            .map(|m| m["error"]["code"].clone()),
        Some(json!(-32700))
    );
    let init = by_id(&out, json!(1));
    assert!(
        init["result"]["capabilities"]["resources"].is_object(),
        "{init}"
    );
    let list = by_id(&out, json!(2))["result"]["resources"].clone();
    let uris: Vec<&str> = list
        .as_array()
        .map(|a| a.iter().filter_map(|r| r["uri"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(
        uris,
        [
            "verity-repo://tiny/README.md",
            "verity-repo://tiny/src/main.py"
        ]
    );
    assert_eq!(list[0]["mimeType"], "text/markdown");
    let read = &by_id(&out, json!(3))["result"]["contents"][0];
    assert_eq!(read["text"], "def main():\n    return 1\n");
    assert_eq!(read["mimeType"], "text/x-python");
    assert_eq!(by_id(&out, json!(4))["error"]["code"], -32002);
    assert_eq!(by_id(&out, json!(5))["result"]["isError"], true);
}
