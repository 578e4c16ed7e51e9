//! Grounding over a real MCP server process: `verity mcp serve --docs` as the reference server.

use serde_json::Value;

use crate::support::*;

const DOCS: &str = r#"{"id": "swiftui/navigationstack", "title": "NavigationStack", "body": "A view that displays a root view and enables you to present additional views over the root view. iOS 16.0+"}
{"id": "foundation/urlsession", "title": "URLSession", "body": "An object that coordinates a group of related network data transfer tasks. Use data(from:) with async/await."}
{"id": "foundation/nsurlconnection", "title": "NSURLConnection (deprecated)", "body": "Deprecated since iOS 9.0. Use URLSession instead."}
"#;

fn suite(server_command: &str, latency_ms: u64, n: usize) -> (String, String) {
    let suite = format!(
        r#"name = "grounding"
tasks = "tasks.jsonl"
[defaults]
provider = "mock"
options = {{ latency_ms = {latency_ms} }}
[[variants]]
name = "plain"
[[variants]]
name = "grounded"
grounding = {{ server = "docs", mode = "inject-top-k", k = 2 }}
[servers.docs]
command = {server_command}
[[scorers]]
kind = "equals"
"#
    );
    let mut tasks = String::new();
    for i in 0..n {
        tasks.push_str(&format!("{{\"id\": \"t{i:02}\", \"input\": \"How do I fetch data with URLSession? ({i})\", \"target\": \"ok\"}}\n"));
    }
    (suite, tasks)
}

fn report(dir: &std::path::Path) -> Value {
    serde_json::from_str(&stdout(&run_ok(
        verity(dir).args(["report", "latest", "--format", "json", "--db", "g.db"]),
    )))
    .unwrap()
}

#[test]
fn inject_top_k_puts_search_results_in_context_and_records_the_call() {
    let dir = tempfile::tempdir().unwrap();
    let (s, t) = suite(
        r#"["verity", "mcp", "serve", "--docs", "docs.jsonl"]"#,
        0,
        3,
    );
    write_tree(
        dir.path(),
        &[
            ("docs.jsonl", DOCS),
            ("s/suite.toml", &s),
            ("s/tasks.jsonl", &t),
        ],
    );
    run_ok(verity(dir.path()).args(["run", "s", "--quiet", "--db", "g.db"]));
    let v = report(dir.path());
    for task in v["per_task"].as_array().unwrap() {
        let grounded = &task["variants"]["grounded"]["epochs"][0];
        let calls = grounded["tool_calls"]
            .as_array()
            .expect("grounded samples record their search");
        assert_eq!(calls.len(), 1, "{grounded}");
        assert_eq!(calls[0]["name"], "search");
        assert!(
            calls[0]["result"].to_string().contains("URLSession"),
            "{}",
            calls[0]
        );
        let plain = &task["variants"]["plain"]["epochs"][0];
        assert!(
            plain["tool_calls"].as_array().is_none_or(|c| c.is_empty()),
            "{plain}"
        );
        assert_eq!(grounded["outcome"], "pass");
    }
    // The injected context changed what the model was sent: the grounded prompt hash differs.
    let store = verity_store::Store::open(&dir.path().join("g.db")).unwrap();
    let id = store.resolve_run("latest").unwrap();
    let obs = store.observations(&id).unwrap();
    let hashes = |variant: &str| -> Vec<String> {
        obs.iter()
            .filter(|o| o.key.variant == variant)
            .map(|o| o.input_hash.clone())
            .collect()
    };
    assert!(
        hashes("grounded")
            .iter()
            .all(|h| !hashes("plain").contains(h))
    );
}

#[test]
fn a_server_that_does_not_start_aborts_the_run_before_any_sample() {
    let dir = tempfile::tempdir().unwrap();
    let (s, t) = suite(
        r#"["verity", "mcp", "serve", "--docs", "missing.jsonl"]"#,
        0,
        3,
    );
    write_tree(dir.path(), &[("s/suite.toml", &s), ("s/tasks.jsonl", &t)]);
    let out = verity(dir.path())
        .args(["run", "s", "--quiet", "--db", "g.db"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("did not start") && stderr(&out).contains("missing.jsonl"),
        "{}",
        stderr(&out)
    );
    let store = verity_store::Store::open(&dir.path().join("g.db")).unwrap();
    let runs = store.list_runs().unwrap();
    assert_eq!(runs[0].status, verity_model::RunStatus::Failed);
    assert_eq!(runs[0].completed, 0);
}

#[test]
fn a_server_crash_mid_run_fails_grounded_samples_and_the_run_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    // The server lives for one second; samples take 150 ms each, one at a time.
    let cmd = format!(
        r#"["sh", "-c", "exec timeout 1 \"$0\" mcp serve --docs docs.jsonl", "{}"]"#,
        bin().display()
    );
    let (s, t) = suite(&cmd, 150, 10);
    write_tree(
        dir.path(),
        &[
            ("docs.jsonl", DOCS),
            ("s/suite.toml", &s),
            ("s/tasks.jsonl", &t),
        ],
    );
    let out = verity(dir.path())
        .args(["run", "s", "--quiet", "-j", "1", "--db", "g.db"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v = report(dir.path());
    let (mut ok, mut crashed) = (0, 0);
    for task in v["per_task"].as_array().unwrap() {
        assert_eq!(task["variants"]["plain"]["epochs"][0]["outcome"], "pass");
        let g = &task["variants"]["grounded"]["epochs"][0];
        match g["outcome"].as_str().unwrap() {
            "pass" => ok += 1,
            "error" => {
                crashed += 1;
                assert!(g["error"].to_string().contains("mcp_"), "{g}");
                // The failed search is recorded, with why it failed.
                let call = &g["tool_calls"][0];
                assert_eq!(call["name"], "search", "{g}");
                assert!(
                    call["error"]["kind"]
                        .as_str()
                        .is_some_and(|k| k.starts_with("mcp_")),
                    "{g}"
                );
                assert_eq!(call["error"]["message"], g["error"]["message"], "{g}");
            }
            other => panic!("unexpected outcome {other}"),
        }
    }
    assert!(ok >= 1 && crashed >= 1, "ok {ok}, crashed {crashed}");
    let store = verity_store::Store::open(&dir.path().join("g.db")).unwrap();
    assert_eq!(
        store.list_runs().unwrap()[0].status,
        verity_model::RunStatus::Completed
    );
}

#[test]
fn suite_report_section_writes_audit_json_and_toolcalls() {
    let dir = tempfile::tempdir().unwrap();
    let (s, t) = suite(
        r#"["verity", "mcp", "serve", "--docs", "docs.jsonl"]"#,
        0,
        4,
    );
    let s = format!(
        "{s}\n[report]\nmarkdown = \"out/audit-{{ts}}.md\"\njson = \"out/{{suite}}-{{run}}.json\"\ntoolcalls = true\n"
    );
    write_tree(
        dir.path(),
        &[
            ("docs.jsonl", DOCS),
            ("s/suite.toml", &s),
            ("s/tasks.jsonl", &t),
        ],
    );
    let out = run_ok(verity(dir.path()).args(["run", "s", "--quiet", "--db", "g.db"]));
    let written: Vec<std::path::PathBuf> = std::fs::read_dir(dir.path().join("out"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(written.len(), 3, "{written:?}\n{}", stderr(&out));
    let find = |suffix: &str| {
        written
            .iter()
            .find(|p| p.to_string_lossy().ends_with(suffix))
            .unwrap()
            .clone()
    };
    let md = std::fs::read_to_string(find(".md")).unwrap();
    assert!(md.starts_with("# "), "{md}");
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(find(".json")).unwrap()).unwrap();
    assert_eq!(json["per_task"].as_array().unwrap().len(), 4);
    let calls = std::fs::read_to_string(find("-toolcalls.jsonl")).unwrap();
    let lines: Vec<Value> = calls
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4, "one search per grounded sample");
    assert!(
        lines
            .iter()
            .all(|l| l["variant"] == "grounded" && l["tool"] == "search")
    );
    assert!(
        find(".json")
            .file_name()
            .unwrap()
            .to_string_lossy()
            .starts_with("grounding-")
    );
}

/// Seed 000 N4: the run never writes to the grounding server's data. The reference server is
/// given an index file; after a grounded run its bytes and modification time are unchanged.
/// The audit shows what the grounding returned.
#[test]
fn grounded_run_leaves_the_index_unchanged_and_the_audit_shows_the_top_k() {
    let graphs = repo_root().join("../shared/data/apple-sdk-symbols/ios17.4");
    let dir = tempfile::tempdir().unwrap();
    let index = dir.path().join("w.vidx");
    if graphs.is_dir() {
        std::fs::create_dir_all(dir.path().join("g")).unwrap();
        std::fs::copy(
            graphs.join("WidgetKit.symbols.json"),
            dir.path().join("g/WidgetKit.symbols.json"),
        )
        .unwrap();
        run_ok(
            verity(dir.path())
                .args(["symbols", "build", "g", "--out"])
                .arg(&index),
        );
    } else {
        // Without ../shared, copy the shipped index out of the binary by building from nothing
        // is impossible; use a JSONL docs file instead so the property is still checked.
        std::fs::write(&index, DOCS).unwrap();
    }
    let flag = if graphs.is_dir() { "--index" } else { "--docs" };
    let (s, _) = suite(
        &format!(r#"["verity", "mcp", "serve", "{flag}", "w.vidx"]"#),
        0,
        3,
    );
    // The grounded answers differ, so the tasks are discordant and the audit details them.
    let t = "{\"id\": \"w1\", \"input\": \"Write a WidgetKit TimelineProvider\", \"target\": \"ok\", \"metadata\": {\"mock_response\": {\"grounded\": \"other\", \"default\": \"ok\"}}}\n";
    write_tree(dir.path(), &[("s/suite.toml", &s), ("s/tasks.jsonl", t)]);
    let before = (
        std::fs::read(&index).unwrap(),
        std::fs::metadata(&index).unwrap().modified().unwrap(),
    );
    run_ok(verity(dir.path()).args(["run", "s", "--quiet", "--db", "g.db"]));
    let after = (
        std::fs::read(&index).unwrap(),
        std::fs::metadata(&index).unwrap().modified().unwrap(),
    );
    assert!(
        before == after,
        "the grounding server's data changed during the run"
    );
    let md = stdout(&run_ok(
        verity(dir.path()).args(["report", "latest", "--format", "md", "--db", "g.db"]),
    ));
    assert!(md.contains("Result of `search`"), "{md}");
}

/// The `[servers.docs]` example of suites/README.md works as written: the server starts, its
/// tool mapping fits the tools it lists (`validate --check-servers`), and a grounded run on
/// it injects search results.
#[test]
fn the_readmes_server_example_starts_and_its_mapping_fits() {
    let readme = std::fs::read_to_string(repo_root().join("suites/README.md")).unwrap();
    let start = readme
        .find("[servers.docs]")
        .expect("the README has the example");
    let block: String = readme[start..]
        .lines()
        .take_while(|l| !l.trim().is_empty())
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(
        block.contains("tool = ") && block.contains("allow_tools"),
        "{block}"
    );
    let dir = tempfile::tempdir().unwrap();
    let s = format!(
        r#"name = "readme"
tasks = "tasks.jsonl"
[defaults]
provider = "mock"
[[variants]]
name = "inject"
grounding = {{ server = "docs", mode = "inject-top-k", k = 2 }}
[[variants]]
name = "tools"
grounding = {{ server = "docs", mode = "tools" }}
{block}
[[scorers]]
kind = "equals"
"#
    );
    let task = "{\"id\": \"t\", \"input\": \"NavigationStack\", \"target\": \"ok\"}\n";
    write_tree(dir.path(), &[("s/suite.toml", &s), ("s/tasks.jsonl", task)]);
    let out = run_ok(verity(dir.path()).args(["validate", "s", "--check-servers"]));
    let listing = stdout(&out);
    assert!(
        listing.contains("variant `inject` (inject-top-k, k = 2): tool `search`")
            && listing.contains("variant `tools` (tools): offers `search`, `read`"),
        "{listing}"
    );
    run_ok(verity(dir.path()).args(["run", "s", "--quiet", "--db", "g.db"]));
    let v = report(dir.path());
    let call = &v["per_task"][0]["variants"]["inject"]["epochs"][0]["tool_calls"][0];
    assert_eq!(
        call["arguments"],
        serde_json::json!({"query": "NavigationStack", "limit": 2})
    );
    assert!(
        call["result"].to_string().contains("NavigationStack"),
        "{call}"
    );
}

/// A mapping that does not fit the server's tools fails `validate --check-servers` with exit 2
/// and says what is wrong; a run on it fails before any sample, also with exit 2.
#[test]
fn a_wrong_mapping_is_reported_at_validate_and_stops_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let s = r#"name = "wrong"
tasks = "tasks.jsonl"
[defaults]
provider = "mock"
[[variants]]
name = "g"
grounding = { server = "docs", mode = "inject-top-k" }
[servers.docs]
command = ["verity", "mcp", "serve", "--docs", "docs.jsonl"]
tool = "search"
arguments = { q = "{{ query }}", limit = "two" }
[[scorers]]
kind = "equals"
"#;
    write_tree(
        dir.path(),
        &[
            ("docs.jsonl", DOCS),
            ("s/suite.toml", s),
            (
                "s/tasks.jsonl",
                "{\"id\": \"t\", \"input\": \"q\", \"target\": \"ok\"}\n",
            ),
        ],
    );
    let out = run_code(
        verity(dir.path()).args(["validate", "s", "--check-servers"]),
        2,
    );
    let err = stderr(&out);
    for want in [
        "argument `q` is not one of tool `search`'s (it takes `query`, `limit`)",
        "argument `limit` of tool `search` takes integer, but the suite gives a string",
        "tool `search` requires argument `query`, which `arguments` does not give",
    ] {
        assert!(err.contains(want), "missing {want:?} in\n{err}");
    }
    let listing = stdout(&out);
    assert!(
        listing.contains("search [read-only] (requires query)")
            || listing.contains("search (requires query)"),
        "{listing}"
    );
}
