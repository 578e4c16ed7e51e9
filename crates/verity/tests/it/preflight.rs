//! Before the first model call: the scorers' pre-flight (a required Swift toolchain that is
//! missing stops the run; the compiler's version against the tasks' `target_swift`), what it
//! records in the reports, and the warning before a run estimated to cost more than $5.

use std::path::Path;

use serde_json::Value;

use crate::support::*;

const ANSWER: &str = "Here:\n```swift\nimport SwiftUI\nlet t = Text(\"hi\")\n```\n";

/// A one-task Swift suite answered by `base_url`, with `scorer` as its `[[scorers]]` body.
fn swift_suite(dir: &Path, scorer: &str) {
    write_tree(
        dir,
        &[
            (
                "s/suite.toml",
                &format!(
                    "name = \"pf\"\ntasks = \"tasks/*.toml\"\n[defaults]\nprovider = \"openai\"\nmodel = \"m\"\n\n[[scorers]]\nkind = \"swift\"\n{scorer}\n"
                ),
            ),
            (
                "s/tasks/a.toml",
                "id = \"a\"\ncategory = \"c\"\nprompt = \"write a label\"\n\n[metadata]\ntarget_platform = \"ios17.0\"\ntarget_swift = \"6.0\"\n",
            ),
        ],
    );
}

/// A stand-in swift-frontend: answers `--version` with `banner` and passes every parse.
fn fake_frontend(dir: &Path, banner: &str) -> String {
    use std::os::unix::fs::PermissionsExt as _;
    let bin = dir.join("toolchain");
    std::fs::create_dir_all(&bin).unwrap();
    let p = bin.join("swift-frontend");
    std::fs::write(&p, format!("#!/bin/sh\necho '{banner}'\n")).unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    for d in [dir, bin.as_path()] {
        std::fs::set_permissions(d, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    p.display().to_string()
}

fn server() -> (tokio::runtime::Runtime, verity_testkit::FakeServer) {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let server = rt.block_on(verity_testkit::FakeServer::start_with(
        verity_testkit::FakeConfig::default().with_answer(|_| ANSWER.to_owned()),
    ));
    (rt, server)
}

fn run_args(url: &str) -> Vec<&str> {
    vec![
        "run",
        "s",
        "--db",
        "v.db",
        "--quiet",
        "--base-url",
        url,
        "-j",
        "1",
    ]
}

#[test]
fn a_missing_required_toolchain_fails_before_any_model_call() {
    let (_rt, server) = server();
    let dir = tempfile::tempdir().unwrap();
    swift_suite(dir.path(), "require_toolchain = true");
    // no swiftc or swift-frontend anywhere on PATH
    let empty = dir.path().join("empty-path");
    std::fs::create_dir_all(&empty).unwrap();
    let url = server.base_url();
    let out = run_code(
        verity(dir.path()).args(run_args(&url)).env("PATH", &empty),
        2,
    );
    let err = stderr(&out);
    assert!(
        err.contains("scorer `swift` pre-flight failed")
            && err.contains("require_toolchain")
            && err.contains("no swiftc or swift-frontend on PATH"),
        "{err}"
    );
    assert_eq!(server.stats().requests, 0, "no model call: {err}");
    // nothing was stored: the run never started
    let out = run_ok(verity(dir.path()).args(["runs", "--db", "v.db", "--format", "json"]));
    let runs: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(runs.as_array().map(Vec::len), Some(0), "{runs}");
}

#[test]
fn a_compiler_older_than_a_task_fails_a_run_that_requires_it() {
    let (_rt, server) = server();
    let dir = tempfile::tempdir().unwrap();
    let fe = fake_frontend(dir.path(), "Swift version 5.10 (swift-5.10-RELEASE)");
    swift_suite(
        dir.path(),
        &format!("toolchain = \"{fe}\"\nrequire_toolchain = true"),
    );
    let url = server.base_url();
    let out = run_code(verity(dir.path()).args(run_args(&url)), 2);
    let err = stderr(&out);
    assert!(
        err.contains("task `a` targets Swift 6.0 but the compiler (swift-frontend) is Swift 5.10"),
        "{err}"
    );
    assert_eq!(server.stats().requests, 0, "no model call: {err}");
}

#[test]
fn the_preflight_is_recorded_in_the_json_and_markdown_reports() {
    let (_rt, server) = server();
    let dir = tempfile::tempdir().unwrap();
    let fe = fake_frontend(dir.path(), "Swift version 5.10 (swift-5.10-RELEASE)");
    // a map entry the symbol graph contradicts: the audit says the map loses
    write_tree(
        dir.path(),
        &[(
            "map.json",
            r#"{"Text": {"alternative": "Label", "deprecated_since": "iOS 13.0", "sdk_symbol": "SwiftUI.Text"}}"#,
        )],
    );
    swift_suite(
        dir.path(),
        &format!(
            "toolchain = \"{fe}\"\ndeprecations = \"{}\"",
            dir.path().join("map.json").display()
        ),
    );
    let url = server.base_url();
    let mut args = run_args(&url);
    args.extend(["--format", "json"]);
    let out = run_ok(verity(dir.path()).args(&args));
    let err = stderr(&out);
    // said even with --quiet: the verdicts of task `a` come from an older parser
    assert!(
        err.contains(
            "warning: scorer `swift`: task `a` targets Swift 6.0 but the compiler (swift-frontend) is Swift 5.10"
        ),
        "{err}"
    );
    assert_eq!(server.stats().requests, 1);
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["toolchain"], "swift-frontend 5.10", "{}", v["run"]);
    let pf = &v["run"]["preflight"]["swift"];
    assert_eq!(pf["facts"]["toolchain_version"], "5.10");
    assert_eq!(pf["facts"]["toolchain_path"], fe.as_str());
    assert_eq!(pf["warnings"].as_array().map(Vec::len), Some(1), "{pf}");
    let notes = pf["notes"].to_string();
    assert!(
        notes.contains("`Text`") && notes.contains("the map loses"),
        "{notes}"
    );
    assert_eq!(
        v["seed_criteria"],
        serde_json::json!({
            "compile": "parse",
            "symbol_exists": "symbols_exist",
            "availability": "availability_ok",
            "no_deprecated": "no_deprecated",
        })
    );
    let epoch = &v["per_task"][0]["variants"]["default"]["epochs"][0];
    let code = epoch["code"].as_str().expect("the extracted code");
    assert!(
        code.contains("let t = Text(\"hi\")") && !code.contains("Here:"),
        "{code}"
    );
    assert_eq!(epoch["criteria"]["parse"], true, "{epoch}");
    assert!(
        epoch["scores"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s.get("extracted").is_none()),
        "the code appears once: {epoch}"
    );
    // the Markdown audit: the toolchain in the header, the warnings and the map's notes
    let out =
        run_ok(verity(dir.path()).args(["report", "latest", "--db", "v.db", "--format", "md"]));
    let md = stdout(&out);
    assert!(md.contains("| Toolchain | `swift-frontend 5.10` |"), "{md}");
    assert!(md.contains("## Pre-flight"), "{md}");
    assert!(
        md.contains("the map loses: the symbol graph decides"),
        "{md}"
    );
    // (Markdown-escaped: the task id's backticks are literal)
    assert!(
        md.contains("- warning: task \\`a\\` targets Swift 6.0"),
        "{md}"
    );
}

#[test]
fn a_tree_sitter_run_records_its_toolchain() {
    let (_rt, server) = server();
    let dir = tempfile::tempdir().unwrap();
    swift_suite(dir.path(), "toolchain = \"tree-sitter\"");
    let url = server.base_url();
    let mut args = run_args(&url);
    args.extend(["--format", "json"]);
    let out = run_ok(verity(dir.path()).args(&args));
    assert!(!stderr(&out).contains("warning"), "{}", stderr(&out));
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["toolchain"], "tree-sitter");
}

/// A dataset answered by the fake server at a price of $1 per token: two calls cost far more
/// than $5.
fn priced(dir: &Path, config: &str) {
    write_tree(
        dir,
        &[
            (
                "q.jsonl",
                "{\"id\": \"a\", \"input\": \"1 + 1\", \"target\": \"2\"}\n{\"id\": \"b\", \"input\": \"2 + 2\", \"target\": \"4\"}\n",
            ),
            (
                "verity.toml",
                &format!("[prices.\"m\"]\ninput = 1000000.0\noutput = 1000000.0\n{config}"),
            ),
        ],
    );
}

/// `verity run` of the priced one-question suite against the fake server.
fn priced_command(dir: &Path, url: &str, extra: &[&str]) -> std::process::Command {
    let mut c = verity(dir);
    c.args([
        "run",
        "q.jsonl",
        "--provider",
        "openai",
        "--model",
        "m",
        "--scorer",
        "equals",
        "--quiet",
        "--db",
        "v.db",
        "--base-url",
        url,
    ])
    .args(extra);
    c
}

fn priced_run(dir: &Path, url: &str, extra: &[&str]) -> String {
    stderr(&run_ok(&mut priced_command(dir, url, extra)))
}

#[test]
fn a_costly_run_is_announced_with_a_warning_it_does_not_block() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let server = rt.block_on(verity_testkit::FakeServer::start());
    let dir = tempfile::tempdir().unwrap();
    priced(dir.path(), "");
    let url = server.base_url();
    let err = priced_run(dir.path(), &url, &[]);
    assert!(
        err.contains("warning: this run is estimated to cost ~$")
            && err.contains("above the $5.00 cost warning")
            && err.contains("--cost-warning USD")
            && err.contains("cost_warning_usd"),
        "{err}"
    );
    assert_eq!(server.stats().requests, 2, "a warning, not a refusal");
    // a higher threshold on the command line: no warning
    let err = priced_run(dir.path(), &url, &["--cost-warning", "1e12"]);
    assert!(!err.contains("cost warning"), "{err}");
    // …or in verity.toml
    priced(dir.path(), "[run]\ncost_warning_usd = 1e12\n");
    let err = priced_run(dir.path(), &url, &[]);
    assert!(!err.contains("cost warning"), "{err}");
    // the flag wins over verity.toml
    let err = priced_run(dir.path(), &url, &["--cost-warning", "0.5"]);
    assert!(err.contains("above the $0.50 cost warning"), "{err}");
    // a budget still refuses
    let out = run_code(
        &mut priced_command(dir.path(), &url, &["--max-cost", "1"]),
        2,
    );
    assert!(
        stderr(&out).contains("refusing to start"),
        "{}",
        stderr(&out)
    );
    let bad = verity(dir.path())
        .args(["run", "q.jsonl", "--cost-warning", "-1"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2), "{}", stderr(&bad));
}

#[test]
fn a_suite_sets_its_own_cost_warning() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let server = rt.block_on(verity_testkit::FakeServer::start());
    let dir = tempfile::tempdir().unwrap();
    priced(dir.path(), "");
    write_tree(
        dir.path(),
        &[
            (
                "s/suite.toml",
                "name = \"s\"\ntasks = \"tasks/*.toml\"\n[defaults]\nprovider = \"openai\"\nmodel = \"m\"\n[[scorers]]\nkind = \"contains\"\n[run]\ncost_warning_usd = 1e12\n",
            ),
            (
                "s/tasks/a.toml",
                "id = \"a\"\nprompt = \"say hi\"\ntarget = \"hi\"\n",
            ),
        ],
    );
    let url = server.base_url();
    let run = |extra: &[&str]| {
        let out = run_ok(
            verity(dir.path())
                .args(["run", "s", "--quiet", "--db", "v.db", "--base-url", &url])
                .args(extra),
        );
        stderr(&out)
    };
    let err = run(&[]);
    assert!(!err.contains("cost warning"), "{err}");
    let err = run(&["--cost-warning", "0"]);
    assert!(err.contains("above the $0.00 cost warning"), "{err}");
}
