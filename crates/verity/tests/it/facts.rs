//! `verity facts extract` through the real binary: a small repository with a .gitignore, the
//! facts written to a file and to standard output (the same bytes), the summary line, and the
//! exit codes of a bad REPO.

use crate::support::*;

fn repo(root: &std::path::Path) {
    write_tree(
        root,
        &[
            ("repo/.gitignore", "dist/\n"),
            ("repo/dist/bundle.js", "function bundled() {}\n"),
            (
                "repo/src/cli.py",
                "from .util import norm\n\n\ndef parse_args(argv: list[str]) -> dict:\n    return {a: norm(a) for a in argv}\n",
            ),
            ("repo/src/util.py", "def norm(s):\n    return s.strip()\n"),
            ("repo/src/__init__.py", ""),
            (
                "repo/web/app.ts",
                "import { x } from './lib';\nexport class App extends Base {\n  run(): void { x(); }\n}\n",
            ),
            ("repo/web/lib.ts", "export function x() {}\n"),
            ("repo/README.md", "# demo\n"),
        ],
    );
}

#[test]
fn extracts_to_a_file_and_to_stdout_with_a_summary() {
    let tmp = tempfile::tempdir().unwrap();
    repo(tmp.path());
    let out = run_ok(verity(tmp.path()).args([
        "facts",
        "extract",
        "repo",
        "--out",
        "facts.json",
        "--name",
        "tinyq",
        "--version",
        "1.0.0",
    ]));
    assert!(stdout(&out).is_empty(), "{}", stdout(&out));
    let summary = stderr(&out);
    assert!(
        summary.starts_with("tinyq: 6 files, ")
            && summary.contains(" symbols, ")
            && summary.contains("python 3")
            && summary.contains("typescript 2")
            && summary.trim_end().ends_with(" s"),
        "{summary}"
    );
    let text = std::fs::read_to_string(tmp.path().join("facts.json")).unwrap();
    let facts: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(facts["format"], "verity-facts/1");
    assert_eq!(facts["repo"]["name"], "tinyq");
    assert_eq!(facts["repo"]["version"], "1.0.0");
    let paths: Vec<&str> = facts["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert_eq!(
        paths,
        [
            "README.md",
            "src/__init__.py",
            "src/cli.py",
            "src/util.py",
            "web/app.ts",
            "web/lib.ts"
        ]
    );
    let parse = facts["symbols"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "parse_args")
        .unwrap();
    assert_eq!(
        (
            parse["file"].as_str(),
            parse["start_line"].as_u64(),
            parse["end_line"].as_u64()
        ),
        (Some("src/cli.py"), Some(4), Some(5))
    );
    assert_eq!(parse["return_type"], "dict");
    let imp = facts["imports"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["module"] == ".util")
        .unwrap();
    assert_eq!(imp["resolved"], "src/util.py");
    assert!(
        facts["calls"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["caller"] == "parse_args" && c["callee"] == "norm")
    );
    assert!(
        facts["inherits"]
            .as_array()
            .unwrap()
            .iter()
            .any(|i| i["child"] == "App" && i["parent"] == "Base" && i["kind"] == "extends")
    );

    // Standard output gets the same bytes: the extraction is deterministic.
    let again = run_ok(verity(tmp.path()).args([
        "facts",
        "extract",
        "repo",
        "--name",
        "tinyq",
        "--version",
        "1.0.0",
        "--no-git",
    ]));
    assert_eq!(stdout(&again), text);
}

#[test]
fn a_bad_repo_is_a_usage_error() {
    let tmp = tempfile::tempdir().unwrap();
    let out = run_code(verity(tmp.path()).args(["facts", "extract", "missing"]), 2);
    assert!(
        stderr(&out).contains("missing: no such directory"),
        "{}",
        stderr(&out)
    );
    std::fs::write(tmp.path().join("file"), "x").unwrap();
    let out = run_code(verity(tmp.path()).args(["facts", "extract", "file"]), 2);
    assert!(stderr(&out).contains("not a directory"), "{}", stderr(&out));
}
