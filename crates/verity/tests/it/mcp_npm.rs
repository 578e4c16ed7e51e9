//! Grounding on the MCP project's own reference servers from npm
//! (`@modelcontextprotocol/server-filesystem` and `server-everything`, 2026.8.31), which
//! `.ci/run` installs into `$VERITY_MCP_NPM`: an explicit `inject-top-k` mapping, the
//! fallback refusing a tool that is not a search, the `tools`-mode allowlist, and a server
//! killed mid-run. The model is
//! the fake OpenAI server of `verity-testkit`.

use std::path::{Path, PathBuf};

use serde_json::Value;
use verity_testkit::{FakeConfig, FakeServer, FakeToolCall};

use crate::support::*;

/// The binary of reference server `name` (`mcp-server-filesystem`, `mcp-server-everything`)
/// from `$VERITY_MCP_NPM` (default `~/.cache/verity/npm-mcp`), or `None` to skip the test.
/// Under CI a missing server fails the test: `.ci/run` installs them.
fn reference_server(name: &str) -> Option<PathBuf> {
    let root = std::env::var_os("VERITY_MCP_NPM")
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache/verity/npm-mcp"))
        });
    let bin = root.map(|r| r.join("node_modules/.bin").join(name));
    match bin {
        Some(b) if b.is_file() => Some(b),
        other => {
            let why = format!(
                "the MCP reference server `{name}` is not installed (looked for {other:?}; `.ci/run` installs it with npm into $VERITY_MCP_NPM)"
            );
            assert!(std::env::var_os("CI").is_none(), "{why}");
            eprintln!("skipping: {why}");
            None
        }
    }
}

fn json_str(p: &Path) -> String {
    Value::String(p.display().to_string()).to_string()
}

/// A suite on the fake model at `base_url`, with `servers` (TOML) and one variant grounded
/// as `grounding` (TOML inline table).
fn suite_toml(base_url: &str, grounding: &str, servers: &str) -> String {
    format!(
        r#"name = "npm-grounding"
tasks = "tasks.jsonl"
[defaults]
provider = "openai"
model = "gpt-4o-mini"
base_url = "{base_url}"
api_key_env = "VERITY_IT_KEY"
[[variants]]
name = "grounded"
grounding = {grounding}
{servers}
[[scorers]]
kind = "contains"
"#
    )
}

fn report(dir: &Path) -> Value {
    serde_json::from_str(&stdout(&run_ok(
        verity(dir).args(["report", "latest", "--format", "json", "--db", "g.db"]),
    )))
    .unwrap()
}

/// The documents the filesystem server serves: two files in a tree.
fn docs_tree(dir: &Path) -> PathBuf {
    let data = dir.join("data");
    write_tree(
        &data,
        &[
            (
                "docs/networking/url_session.md",
                "URLSession coordinates network data transfer tasks.\n",
            ),
            (
                "docs/ui/navigation_stack.md",
                "NavigationStack presents views over a root view.\n",
            ),
        ],
    );
    data.canonicalize().unwrap()
}

#[test]
fn inject_top_k_calls_search_files_with_the_suites_arguments() {
    let Some(fs) = reference_server("mcp-server-filesystem") else {
        return;
    };
    let rt = tokio::runtime::Runtime::new().unwrap();
    let model = rt.block_on(FakeServer::start());
    let dir = tempfile::tempdir().unwrap();
    let data = docs_tree(dir.path());
    let servers = format!(
        r#"[servers.fs]
command = [{fs}, {data}]
startup_timeout = 60
call_timeout = 20
tool = "search_files"
arguments = {{ path = "{{{{ task.metadata.root }}}}", pattern = "**/*{{{{ task.metadata.keyword }}}}*" }}
"#,
        fs = json_str(&fs),
        data = json_str(&data),
    );
    let s = suite_toml(
        &model.base_url(),
        r#"{ server = "fs", mode = "inject-top-k", k = 3 }"#,
        &servers,
    );
    let task = |id: &str, keyword: &str| {
        serde_json::json!({
            "id": id, "input": format!("How do I use {keyword}?"), "target": "use",
            "metadata": {"root": data.display().to_string(), "keyword": keyword},
        })
        .to_string()
    };
    let tasks = format!(
        "{}\n{}\n",
        task("net", "url_session"),
        task("ui", "navigation")
    );
    write_tree(
        dir.path(),
        &[("s/suite.toml", &s), ("s/tasks.jsonl", &tasks)],
    );
    run_ok(verity(dir.path()).args(["validate", "s", "--check-servers"]));
    run_ok(
        verity(dir.path())
            .env("VERITY_IT_KEY", "sk-test")
            .args(["run", "s", "--quiet", "--db", "g.db"]),
    );
    // What the model was sent: the file the search found, in a system message before the
    // question, and not the other one.
    let sent: Vec<String> = model
        .requests()
        .iter()
        .map(|r| r.body["messages"].to_string())
        .collect();
    assert_eq!(sent.len(), 2, "{sent:?}");
    let net = sent.iter().find(|m| m.contains("url_session?")).unwrap();
    assert!(
        net.contains("docs/networking/url_session.md") && !net.contains("navigation_stack.md"),
        "{net}"
    );
    let ui = sent.iter().find(|m| m.contains("navigation?")).unwrap();
    assert!(ui.contains("docs/ui/navigation_stack.md"), "{ui}");
    let v = report(dir.path());
    for t in v["per_task"].as_array().unwrap() {
        let e = &t["variants"]["grounded"]["epochs"][0];
        let call = &e["tool_calls"][0];
        assert_eq!(call["name"], "search_files", "{e}");
        assert_eq!(call["arguments"]["path"], data.display().to_string());
        assert!(call.get("error").is_none(), "{call}");
    }
}

#[test]
fn the_fallback_refuses_server_everythings_research_tool_at_validate() {
    let Some(everything) = reference_server("mcp-server-everything") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let servers = format!(
        "[servers.everything]\ncommand = [{}]\n\n[servers.probe]\ncommand = [\"sh\", \"-c\", \"touch started\"]\n",
        json_str(&everything)
    );
    let s = suite_toml(
        "http://127.0.0.1:9/v1",
        r#"{ server = "everything", mode = "inject-top-k" }"#,
        &servers,
    );
    write_tree(
        dir.path(),
        &[
            ("s/suite.toml", &s),
            ("s/tasks.jsonl", "{\"id\": \"t\", \"input\": \"q\"}\n"),
        ],
    );
    // Without --check-servers nothing is started.
    run_ok(verity(dir.path()).args(["validate", "s"]));
    assert!(!dir.path().join("started").exists());
    let out = run_code(
        verity(dir.path()).args(["validate", "s", "--check-servers"]),
        2,
    );
    let err = stderr(&out);
    assert!(
        err.contains(
            "server `everything`: variant `grounded` (inject-top-k): the server has no search tool"
        ) && err.contains("`simulate-research-query`")
            && err.contains("set `tool` and `arguments`"),
        "{err}"
    );
    // The tools were listed, with their annotations and required arguments.
    let listing = stdout(&out);
    assert!(
        listing.contains("simulate-research-query (requires topic)")
            && listing.contains("echo [read-only] (requires message)"),
        "{listing}"
    );
    // The probe "server" exits at once: it did not start, and says so.
    assert!(
        listing.contains("server `probe`: did not start"),
        "{listing}"
    );
}

#[test]
fn tools_mode_offers_the_read_only_tools_and_refuses_write_file() {
    let Some(fs) = reference_server("mcp-server-filesystem") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let data = docs_tree(dir.path());
    let target = data.join("docs/networking/url_session.md");
    let written = data.join("planted.txt");
    let (target_s, written_s) = (target.display().to_string(), written.display().to_string());
    let config = FakeConfig::default().with_tool_calls(move |body| {
        let answered = body["messages"]
            .as_array()
            .is_some_and(|m| m.iter().any(|m| m["role"] == "tool"));
        if answered {
            return Vec::new();
        }
        vec![
            FakeToolCall::new(
                "write_file",
                serde_json::json!({"path": written_s, "content": "pwned"}).to_string(),
            ),
            FakeToolCall::new(
                "read_text_file",
                serde_json::json!({"path": target_s}).to_string(),
            ),
        ]
    });
    let rt = tokio::runtime::Runtime::new().unwrap();
    let model = rt.block_on(FakeServer::start_with(config));
    let servers = format!(
        "[servers.fs]\ncommand = [{}, {}]\n",
        json_str(&fs),
        json_str(&data)
    );
    let s = suite_toml(
        &model.base_url(),
        r#"{ server = "fs", mode = "tools" }"#,
        &servers,
    );
    write_tree(
        dir.path(),
        &[
            ("s/suite.toml", &s),
            (
                "s/tasks.jsonl",
                "{\"id\": \"t\", \"input\": \"What does URLSession do?\", \"target\": \"URLSession\"}\n",
            ),
        ],
    );
    run_ok(
        verity(dir.path())
            .env("VERITY_IT_KEY", "sk-test")
            .args(["run", "s", "--quiet", "--db", "g.db"]),
    );
    assert!(!written.exists(), "a refused write_file wrote its file");
    let requests = model.requests();
    let offered: Vec<&str> = requests[0].body["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["function"]["name"].as_str())
        .collect();
    assert!(
        offered.contains(&"read_text_file") && offered.contains(&"search_files"),
        "{offered:?}"
    );
    for destructive in ["write_file", "edit_file", "move_file", "create_directory"] {
        assert!(!offered.contains(&destructive), "{offered:?}");
    }
    // The model read why, and what the allowed call returned.
    let second = requests[1].body["messages"].to_string();
    assert!(
        second.contains("tool `write_file` is not available")
            && second.contains("URLSession coordinates network data transfer tasks"),
        "{second}"
    );
    let v = report(dir.path());
    let e = &v["per_task"][0]["variants"]["grounded"]["epochs"][0];
    let calls = e["tool_calls"].as_array().unwrap();
    assert_eq!(calls.len(), 2, "{e}");
    assert_eq!(calls[0]["name"], "write_file");
    assert_eq!(calls[0]["error"]["kind"], "tool_not_allowed");
    assert_eq!(calls[1]["name"], "read_text_file");
    assert!(calls[1].get("error").is_none(), "{}", calls[1]);
    assert!(
        calls[1]["result"]
            .to_string()
            .contains("URLSession coordinates"),
        "{}",
        calls[1]
    );
}

/// The filesystem server killed with SIGKILL while the run is under way: the grounded samples
/// after it fail with the reason, each failed search recorded with its error, the ungrounded
/// ones go on, and the run completes.
#[test]
fn the_filesystem_server_killed_mid_run_fails_grounded_samples_and_the_run_completes() {
    let Some(fs) = reference_server("mcp-server-filesystem") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let data = docs_tree(dir.path());
    let pid_file = dir.path().join("server.pid");
    // `exec`: the shell's pid becomes the server's, written before it starts.
    let servers = format!(
        r#"[servers.fs]
command = ["sh", "-c", "echo $$ > \"$0\"; exec \"$1\" \"$2\"", {pid}, {fs}, {data}]
startup_timeout = 60
call_timeout = 20
tool = "search_files"
arguments = {{ path = {data}, pattern = "**/*.md" }}
"#,
        pid = json_str(&pid_file),
        fs = json_str(&fs),
        data = json_str(&data),
    );
    let s = format!(
        r#"name = "npm-crash"
tasks = "tasks.jsonl"
[defaults]
provider = "mock"
options = {{ latency_ms = 250 }}
[[variants]]
name = "plain"
[[variants]]
name = "grounded"
grounding = {{ server = "fs", mode = "inject-top-k", k = 2 }}
{servers}
[[scorers]]
kind = "equals"
"#
    );
    let mut tasks = String::new();
    for i in 0..12 {
        tasks.push_str(&format!(
            "{{\"id\": \"t{i:02}\", \"input\": \"How do I fetch data? ({i})\", \"target\": \"ok\"}}\n"
        ));
    }
    write_tree(
        dir.path(),
        &[("s/suite.toml", &s), ("s/tasks.jsonl", &tasks)],
    );
    let run = verity(dir.path())
        .args(["run", "s", "--quiet", "-j", "1", "--db", "g.db"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until a few samples are stored, then kill the server.
    let db = dir.path().join("g.db");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    loop {
        assert!(
            std::time::Instant::now() < deadline,
            "the run stored no samples"
        );
        let done = verity_store::Store::open_read_only(&db)
            .ok()
            .and_then(|s| s.list_runs().ok())
            .and_then(|runs| runs.first().map(|r| r.completed))
            .unwrap_or(0);
        if done >= 4 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let pid = std::fs::read_to_string(&pid_file).unwrap();
    let pid = pid.trim();
    let killed = std::process::Command::new("kill")
        .args(["-9", pid])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = run.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));

    let v = report(dir.path());
    let (mut ok, mut failed) = (0, 0);
    for task in v["per_task"].as_array().unwrap() {
        assert_eq!(task["variants"]["plain"]["epochs"][0]["outcome"], "pass");
        let g = &task["variants"]["grounded"]["epochs"][0];
        let call = &g["tool_calls"][0];
        assert_eq!(call["name"], "search_files", "{g}");
        match g["outcome"].as_str().unwrap() {
            "pass" => {
                ok += 1;
                assert!(call.get("error").is_none(), "{g}");
            }
            "error" => {
                failed += 1;
                let kind = call["error"]["kind"].as_str().unwrap_or_default();
                assert!(kind.starts_with("mcp_"), "{g}");
                assert!(g["error"]["message"].as_str().is_some(), "{g}");
            }
            other => panic!("unexpected outcome {other}: {g}"),
        }
    }
    assert!(ok >= 1 && failed >= 1, "ok {ok}, failed {failed}");
    let store = verity_store::Store::open(&db).unwrap();
    assert_eq!(
        store.list_runs().unwrap()[0].status,
        verity_model::RunStatus::Completed
    );
}
