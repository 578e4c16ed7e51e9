//! `verity mcp serve --http`: the reference servers over Streamable HTTP, as real processes,
//! spoken to with verity's own client; and a grounded run against one (`[servers] url`).

use std::path::Path;
use std::time::Duration;

use serde_json::{Value, json};
use verity_mcp::{GroundingServer, McpError};
use verity_model::ServerSpec;

use crate::support::*;

const DOCS: &str = r#"{"id": "swiftui/navigationstack", "title": "NavigationStack", "body": "A view that displays a root view and enables you to present additional views over the root view. iOS 16.0+"}
{"id": "foundation/urlsession", "title": "URLSession", "body": "An object that coordinates a group of related network data transfer tasks. Use data(from:) with async/await."}
"#;

const STARTUP: Duration = Duration::from_secs(30);
const CALL: Duration = Duration::from_secs(20);

/// A `verity mcp serve --http 127.0.0.1:0 ARGS…` process, killed when dropped.
struct Served;

impl Served {
    fn start(dir: &Path, args: &[&str]) -> Listening {
        let mut cmd = verity(dir);
        cmd.args(["mcp", "serve", "--http", "127.0.0.1:0"])
            .args(args);
        Listening::start(cmd)
    }
}

fn url_spec(url: &str) -> ServerSpec {
    ServerSpec {
        url: Some(url.to_owned()),
        ..Default::default()
    }
}

#[test]
fn the_docs_server_over_http_handshakes_searches_and_reads() {
    let dir = tempfile::tempdir().unwrap();
    write_tree(dir.path(), &[("docs.jsonl", DOCS)]);
    let served = Served::start(dir.path(), &["--docs", "docs.jsonl"]);
    assert!(
        served.url.starts_with("http://127.0.0.1:") && served.url.ends_with("/mcp"),
        "{}",
        served.url
    );
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let server = GroundingServer::start("docs", &url_spec(&served.url), STARTUP)
            .await
            .unwrap();
        let names: Vec<&str> = server.tools().iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["search", "read"]);
        assert!(
            server
                .server_version()
                .is_some_and(|v| v.starts_with("docs docs.jsonl")),
            "{:?}",
            server.server_version()
        );
        let found = server.search("URLSession", 2, CALL).await.unwrap();
        assert!(
            found.text.contains("foundation/urlsession"),
            "{}",
            found.text
        );
        let doc = server
            .call("read", json!({"id": "swiftui/navigationstack"}), CALL)
            .await
            .unwrap();
        assert!(doc.text.contains("iOS 16.0+"), "{}", doc.text);
        server.shutdown().await;
    });
    // Another path is not the endpoint.
    let wrong = served.url.replace("/mcp", "/other");
    let err = rt
        .block_on(GroundingServer::start("docs", &url_spec(&wrong), STARTUP))
        .unwrap_err();
    assert!(err.to_string().contains("404"), "{err}");
    // SIGTERM stops it cleanly.
    assert_eq!(served.terminate(), Some(0));
}

#[test]
fn the_repo_server_over_http_and_a_stop_mid_session() {
    let dir = tempfile::tempdir().unwrap();
    write_tree(
        dir.path(),
        &[(
            "tiny/src/lib.rs",
            "/// Adds two numbers.\npub fn add_numbers(a: i32, b: i32) -> i32 {\n    a + b\n}\n",
        )],
    );
    let served = Served::start(dir.path(), &["--repo", "tiny"]);
    let url = served.url.clone();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let server = rt.block_on(async {
        let server = GroundingServer::start("code", &url_spec(&url), STARTUP)
            .await
            .unwrap();
        let names: Vec<&str> = server.tools().iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["search", "read_lines", "list_files"]);
        let hits = server
            .call("search", json!({"query": "add_numbers"}), CALL)
            .await
            .unwrap();
        assert!(hits.text.contains("tiny:src/lib.rs"), "{}", hits.text);
        let lines = server
            .call(
                "read_lines",
                json!({"path": "src/lib.rs", "start": 2, "end": 3}),
                CALL,
            )
            .await
            .unwrap();
        assert!(lines.text.contains("a + b"), "{}", lines.text);
        server
    });
    assert_eq!(served.terminate(), Some(0));
    rt.block_on(async {
        let started = std::time::Instant::now();
        let err = server
            .call("list_files", json!({}), CALL)
            .await
            .unwrap_err();
        assert!(started.elapsed() < Duration::from_secs(10), "{err}");
        assert!(matches!(err, McpError::Unreachable { .. }), "{err:?}");
        server.shutdown().await;
    });
}

#[test]
fn a_non_loopback_address_is_served_with_a_warning_and_bad_addresses_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    write_tree(dir.path(), &[("docs.jsonl", DOCS)]);
    // 0.0.0.0 binds every interface, yet only this machine's loopback is ever spoken to.
    let mut cmd = verity(dir.path());
    cmd.args([
        "mcp",
        "serve",
        "--docs",
        "docs.jsonl",
        "--http",
        "0.0.0.0:0",
    ]);
    let served = Listening::start(cmd);
    assert!(
        served
            .before
            .iter()
            .any(|l| l.contains("warning") && l.contains("without authentication")),
        "{:?}",
        served.before
    );
    assert!(served.url.starts_with("http://0.0.0.0:"), "{}", served.url);
    drop(served);

    let out = run_code(
        verity(dir.path()).args(["mcp", "serve", "--docs", "docs.jsonl", "--http", "nonsense"]),
        2,
    );
    assert!(stderr(&out).contains("--http nonsense"), "{}", stderr(&out));
}

/// A grounded run whose docs server is reached at `url` (`verity mcp serve --http`), the model
/// an OpenAI-compatible endpoint (the fake server): the search result reaches the prompt and the
/// call is recorded. Needs the suite loader to accept `[servers.NAME] url`.
#[test]
fn a_grounded_run_against_a_server_reached_over_http() {
    let dir = tempfile::tempdir().unwrap();
    write_tree(dir.path(), &[("docs.jsonl", DOCS)]);
    let served = Served::start(dir.path(), &["--docs", "docs.jsonl"]);
    let rt = tokio::runtime::Runtime::new().unwrap();
    let fake = rt.block_on(verity_testkit::FakeServer::start());
    let suite = format!(
        r#"name = "grounding-http"
tasks = "tasks.jsonl"
[defaults]
provider = "openai"
model = "gpt-4o-mini"
base_url = "{base}"
api_key_env = "VERITY_IT_KEY"
[[variants]]
name = "plain"
[[variants]]
name = "grounded"
grounding = {{ server = "docs", mode = "inject-top-k", k = 2 }}
[servers.docs]
url = "{url}"
[[scorers]]
kind = "contains"
"#,
        base = fake.base_url(),
        url = served.url
    );
    let tasks = "{\"id\": \"t1\", \"input\": \"How do I fetch data with URLSession?\", \"target\": \"URLSession\"}\n";
    write_tree(
        dir.path(),
        &[("s/suite.toml", &suite), ("s/tasks.jsonl", tasks)],
    );
    let out = verity(dir.path())
        .env("VERITY_IT_KEY", "sk-test")
        .args(["run", "s", "--quiet", "--db", "g.db"])
        .output()
        .unwrap();
    assert!(
        out.status.code().is_some_and(|c| c <= 1),
        "exit {:?}\n{}",
        out.status,
        stderr(&out)
    );
    let v: Value = serde_json::from_str(&stdout(&run_ok(
        verity(dir.path()).args(["report", "latest", "--format", "json", "--db", "g.db"]),
    )))
    .unwrap();
    let task = &v["per_task"][0];
    let grounded = &task["variants"]["grounded"]["epochs"][0];
    let calls = grounded["tool_calls"]
        .as_array()
        .expect("the search is recorded");
    assert_eq!(calls.len(), 1, "{grounded}");
    assert_eq!(calls[0]["name"], "search");
    assert!(
        calls[0]["result"]
            .to_string()
            .contains("foundation/urlsession"),
        "{}",
        calls[0]
    );
    // The grounded request carried the search result; the plain one did not.
    let bodies: Vec<String> = fake.requests().iter().map(|r| r.body.to_string()).collect();
    assert_eq!(bodies.len(), 2, "{bodies:?}");
    assert_eq!(
        bodies
            .iter()
            .filter(|b| b.contains("coordinates a group of related network"))
            .count(),
        1,
        "{bodies:?}"
    );
    assert_eq!(served.terminate(), Some(0));
}
