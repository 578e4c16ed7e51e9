//! The reference librarian: `verity mcp serve --repo` as a real process, spoken to with verity's
//! own MCP client, and a suite grounded on it.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use serde_json::{Value, json};
use verity_mcp::{GroundingServer, McpError};
use verity_model::ServerSpec;

use crate::support::*;

const STARTUP: Duration = Duration::from_secs(60);
const CALL: Duration = Duration::from_secs(30);

const CLI: &str = "import sys\n\nfrom .util import helper\n\n\ndef parse_args(argv):\n    \"\"\"Parse the command line.\"\"\"\n    opts = {}\n    for a in argv:\n        opts[a] = True\n    return opts\n\n\ndef main():\n    opts = parse_args(sys.argv)\n    return helper(opts)\n";
const UTIL: &str = "class Parser:\n    def parse(self, text):\n        return text.split()\n\n\ndef helper(opts):\n    return len(opts)\n";

/// A facts file for the fixture (the fields the server reads, in the `verity-facts/1` shape).
fn facts_json() -> String {
    let file = |path: &str, text: &str| {
        json!({"path": path, "language": "python", "lines": text.lines().count(),
               "bytes": text.len(), "hash": "0", "identifiers": []})
    };
    let files = vec![file("src/cli.py", CLI), file("src/util.py", UTIL)];
    let files_typed: Vec<verity_facts::FileFact> =
        serde_json::from_value(Value::Array(files.clone())).unwrap();
    json!({
        "format": "verity-facts/1",
        "repo": {"name": "tinyq", "content_hash": verity_facts::content_hash(&files_typed),
                 "extractor": "test"},
        "files": files,
        "symbols": [
            {"name": "parse_args", "kind": "function", "file": "src/cli.py", "start_line": 6,
             "end_line": 11, "signature": "def parse_args(argv)", "exported": true},
            {"name": "main", "kind": "function", "file": "src/cli.py", "start_line": 14,
             "end_line": 16, "exported": true},
            {"name": "Parser", "kind": "class", "file": "src/util.py", "start_line": 1,
             "end_line": 3, "exported": true},
            {"name": "parse", "kind": "method", "file": "src/util.py", "start_line": 2,
             "end_line": 3, "container": "Parser", "exported": true}
        ]
    })
    .to_string()
}

fn fixture(root: &Path) {
    let mut tests = String::from("from src.cli import parse_args\n\n");
    for i in 0..5 {
        tests.push_str(&format!(
            "def test_{i}():\n    assert parse_args(['{i}']) == parse_args(['{i}'])\n\n"
        ));
    }
    write_tree(
        root,
        &[
            ("tinyq/src/cli.py", CLI),
            ("tinyq/src/util.py", UTIL),
            ("tinyq/tests/test_cli.py", &tests),
            ("tinyq/.gitignore", "dist/\n"),
            ("tinyq/dist/bundle.py", "def parse_args(): pass\n"),
            ("outside.txt", "not in the repository\n"),
            ("facts/tinyq.json", &facts_json()),
        ],
    );
}

async fn start(args: &[&str]) -> Result<GroundingServer, McpError> {
    let mut command = vec![bin().display().to_string(), "mcp".into(), "serve".into()];
    command.extend(args.iter().map(|a| (*a).to_owned()));
    let spec = ServerSpec {
        command,
        env: BTreeMap::new(),
        cwd: None,
        ..Default::default()
    };
    GroundingServer::start("repo", &spec, STARTUP).await
}

/// A hit as the answer shows it: path, start, end and the numbered lines under its header.
type ShownHit = (String, u32, u32, Vec<(u32, String)>);

/// `NAME:path:start-end` headers in a search answer, with the numbered lines under each.
fn hits(text: &str) -> Vec<ShownHit> {
    let mut out: Vec<ShownHit> = Vec::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("tinyq:") {
            let loc = rest.split(' ').next().unwrap();
            let (path, range) = loc.rsplit_once(':').unwrap();
            let (s, e) = range.split_once('-').unwrap();
            out.push((
                path.into(),
                s.parse().unwrap(),
                e.parse().unwrap(),
                Vec::new(),
            ));
        } else if let Some((n, code)) = line.split_once(" | ") {
            let n: u32 = n.trim().parse().unwrap();
            out.last_mut().unwrap().3.push((n, code.to_owned()));
        }
    }
    out
}

fn file_line(root: &Path, path: &str, n: u32) -> String {
    let text = std::fs::read_to_string(root.join("tinyq").join(path)).unwrap();
    text.lines().nth((n - 1) as usize).unwrap().to_owned()
}

#[tokio::test]
async fn the_repo_server_searches_reads_and_lists_over_mcp() {
    let dir = tempfile::tempdir().unwrap();
    fixture(dir.path());
    let repo = dir.path().join("tinyq").display().to_string();
    let facts = dir.path().join("facts/tinyq.json").display().to_string();
    let server = match start(&["--repo", &repo, "--facts", &facts]).await {
        Ok(s) => s,
        Err(e) => panic!("the server did not start: {e}"),
    };
    let names: Vec<&str> = server.tools().iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["search", "read_lines", "list_files"]);
    assert!(
        server
            .server_version()
            .unwrap()
            .starts_with("verity-repo tinyq "),
        "{:?}",
        server.server_version()
    );

    // inject-top-k's way: the search tool found from the schema.
    let out = server
        .search("where is the function `parse_args` defined?", 4, CALL)
        .await
        .unwrap();
    assert_eq!(out.arguments["k"], 4, "{}", out.arguments);
    let found = hits(&out.text);
    assert!(!found.is_empty() && found.len() <= 4, "{}", out.text);
    assert_eq!(
        (found[0].0.as_str(), found[0].1, found[0].2),
        ("src/cli.py", 6, 11),
        "{}",
        out.text
    );
    assert!(
        out.text.contains("signature: def parse_args(argv)"),
        "{}",
        out.text
    );
    for (path, start, end, lines) in &found {
        assert!(!lines.is_empty(), "{}", out.text);
        assert!(path != "dist/bundle.py", "a gitignored file was served");
        for (n, code) in lines {
            assert!(start <= n && n <= end, "{}", out.text);
            assert_eq!(&file_line(dir.path(), path, *n), code, "{path}:{n}");
        }
    }

    let out = server
        .call(
            "read_lines",
            json!({"path": "src/util.py", "start": 2, "end": 3}),
            CALL,
        )
        .await
        .unwrap();
    assert_eq!(
        out.text,
        "tinyq:src/util.py:2-3 (the file has 7 lines)\n2 |     def parse(self, text):\n3 |         return text.split()\n"
    );

    let out = server
        .call("list_files", json!({"pattern": "**/*.py"}), CALL)
        .await
        .unwrap();
    assert_eq!(
        out.text,
        "src/cli.py (16 lines)\nsrc/util.py (7 lines)\ntests/test_cli.py (17 lines)\n"
    );

    // Bad arguments are tool errors the model can read, not protocol errors.
    for (tool, args, says) in [
        (
            "read_lines",
            json!({"path": "../outside.txt", "start": 1, "end": 1}),
            "`..`",
        ),
        (
            "read_lines",
            json!({"path": "/etc/passwd", "start": 1, "end": 1}),
            "absolute",
        ),
        (
            "read_lines",
            json!({"path": "dist/bundle.py", "start": 1, "end": 1}),
            "no file",
        ),
        (
            "read_lines",
            json!({"path": "src/cli.py", "start": 1, "end": 500}),
            "at most 200",
        ),
        (
            "read_lines",
            json!({"path": "src/cli.py", "start": 40, "end": 41}),
            "16 lines",
        ),
        (
            "read_lines",
            json!({"path": "src/cli.py"}),
            "`start` is required",
        ),
        ("search", json!({"query": "x", "k": 21}), "`k` must be"),
        ("search", json!({"query": "  "}), "must not be empty"),
        (
            "search",
            json!({"query": "x", "repo": "nope"}),
            "no repository `nope`",
        ),
        (
            "list_files",
            json!({"pattern": "[oops"}),
            "not a valid glob",
        ),
    ] {
        match server.call(tool, args.clone(), CALL).await {
            Err(McpError::Tool {
                message, result, ..
            }) => {
                assert!(message.contains(says), "{tool} {args}: {message}");
                assert_eq!(result["isError"], true, "{result}");
            }
            other => panic!("{tool} {args}: expected a tool error, got {other:?}"),
        }
    }
    server.shutdown().await;
}

#[test]
fn bad_repo_flags_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    fixture(dir.path());
    let out = run_code(
        verity(dir.path()).args(["mcp", "serve", "--repo", "missing-dir"]),
        2,
    );
    assert!(stderr(&out).contains("missing-dir"), "{}", stderr(&out));
    let out = run_code(
        verity(dir.path()).args([
            "mcp",
            "serve",
            "--repo",
            "other=tinyq",
            "--facts",
            "facts/tinyq.json",
        ]),
        2,
    );
    assert!(
        stderr(&out).contains("`tinyq` is none of the --repo names (`other`)"),
        "{}",
        stderr(&out)
    );
    // One kind of source per server.
    let out = verity(dir.path())
        .args(["mcp", "serve", "--repo", "tinyq", "--docs", "d.jsonl"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("cannot be used with"),
        "{}",
        stderr(&out)
    );
}

/// A suite whose `librarian` variant is grounded on the repository (inject-top-k): the answer
/// is the request the model was sent (the `command` provider echoing its input without the task,
/// whose `expect` would match itself), so the retrieved definition must be in it; the `local`
/// variant, without the server, must not have it.
#[test]
fn inject_top_k_puts_the_definition_in_the_prompt() {
    let dir = tempfile::tempdir().unwrap();
    fixture(dir.path());
    let suite = r#"name = "librarian"
tasks = "tasks.jsonl"
[defaults]
provider = "command"
options = { command = ["sh", "-c", "sed 's/,\"task\":.*$//'"] }
[[variants]]
name = "local"
[[variants]]
name = "librarian"
grounding = { server = "repo", mode = "inject-top-k", k = 3 }
[servers.repo]
command = ["verity", "mcp", "serve", "--repo", "tinyq=tinyq", "--facts", "facts/tinyq.json"]
[[scorers]]
kind = "contains"
"#;
    let tasks = r#"{"id": "where-parse-args", "input": "In the repository `tinyq`, where is the function `parse_args` defined? Cite the file and line range as path:start-end.", "expect": {"contains": ["tinyq:src/cli.py:6-11", "6 | def parse_args(argv):"]}}
{"id": "where-parse", "input": "In `tinyq`, where is the method `Parser.parse` defined?", "expect": {"contains": ["tinyq:src/util.py:2-3"]}}
"#;
    write_tree(
        dir.path(),
        &[("s/suite.toml", suite), ("s/tasks.jsonl", tasks)],
    );
    run_ok(verity(dir.path()).args(["run", "s", "--quiet", "--db", "g.db"]));
    let v: Value = serde_json::from_str(&stdout(&run_ok(
        verity(dir.path()).args(["report", "latest", "--format", "json", "--db", "g.db"]),
    )))
    .unwrap();
    let tasks = v["per_task"].as_array().unwrap();
    assert_eq!(tasks.len(), 2);
    for task in tasks {
        let grounded = &task["variants"]["librarian"]["epochs"][0];
        assert_eq!(grounded["outcome"], "pass", "{grounded}");
        let calls = grounded["tool_calls"].as_array().unwrap();
        assert_eq!(calls[0]["name"], "search", "{grounded}");
        let local = &task["variants"]["local"]["epochs"][0];
        assert_eq!(local["outcome"], "fail", "{local}");
    }
}
