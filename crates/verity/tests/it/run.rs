use std::collections::BTreeMap;

use serde_json::Value;

use crate::support::*;

const SUITE: &str = r#"name = "known"
tasks = "tasks.jsonl"

[defaults]
provider = "mock"

[[variants]]
name = "a"

[[variants]]
name = "b"
prompt_text = "Answer tersely: {{ prompt }}"

[[scorers]]
kind = "equals"

[[scorers]]
kind = "regex"
name = "digits"
pattern = '^\d+$'
"#;

const TASKS: &str = r#"{"id": "add", "input": "2 + 2", "target": "4", "metadata": {"category_hint": "math"}}
{"id": "wrong-b", "input": "3 + 3", "target": "6", "metadata": {"mock_response": {"b": "7", "default": "6"}}}
{"id": "words", "input": "say hi", "target": "hi"}
{"id": "err", "input": "x", "target": "1", "metadata": {"mock_error": "client_error"}}
"#;

/// (task, variant) -> outcome, as the scorers must decide them under the mock provider.
fn expected() -> BTreeMap<(String, String), String> {
    let mut m = BTreeMap::new();
    for (t, a, b) in [
        ("add", "pass", "pass"),
        ("wrong-b", "pass", "fail"),
        ("words", "fail", "fail"),
        ("err", "error", "error"),
    ] {
        m.insert((t.to_owned(), "a".to_owned()), a.to_owned());
        m.insert((t.to_owned(), "b".to_owned()), b.to_owned());
    }
    m
}

fn outcomes(report: &Value) -> BTreeMap<(String, String), String> {
    let mut m = BTreeMap::new();
    for t in report["per_task"].as_array().expect("per_task") {
        let id = t["id"].as_str().unwrap().to_owned();
        for (variant, v) in t["variants"].as_object().unwrap() {
            let epochs = v["epochs"].as_array().unwrap();
            assert_eq!(epochs.len(), 1);
            m.insert(
                (id.clone(), variant.clone()),
                epochs[0]["outcome"].as_str().unwrap().to_owned(),
            );
        }
    }
    m
}

fn report_json(dir: &std::path::Path, extra: &[&str]) -> Value {
    let out = run_ok(
        verity(dir)
            .args(["report", "latest", "--format", "json", "--db", "v.db"])
            .args(extra),
    );
    serde_json::from_str(&stdout(&out)).expect("report json")
}

#[test]
fn run_report_rescore_on_mock() {
    let dir = tempfile::tempdir().unwrap();
    write_tree(
        dir.path(),
        &[("s/suite.toml", SUITE), ("s/tasks.jsonl", TASKS)],
    );
    let out = run_ok(verity(dir.path()).args(["run", "s", "--db", "v.db"]));
    let table = stdout(&out);
    assert!(table.contains("known"), "{table}");
    filters().bind(|| insta::assert_snapshot!("run_table", table));

    let json = report_json(dir.path(), &[]);
    assert_eq!(json["schema_version"], 1);
    assert_eq!(outcomes(&json), expected());
    // The regex criterion is reported on its own (no composite score).
    let words_a = &json["per_task"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == "words")
        .unwrap()["variants"]["a"]["epochs"][0];
    assert_eq!(words_a["criteria"]["equals"], true);
    assert_eq!(words_a["criteria"]["digits"], false);

    // The stored prompt for variant b went through its template.
    let md = stdout(&run_ok(
        verity(dir.path()).args(["report", "latest", "--format", "md", "--db", "v.db"]),
    ));
    assert!(md.contains("# "), "{md}");
    assert!(md.contains("wrong-b"), "{md}");

    // Rescore reproduces every verdict without a model (the mock would answer the same, so
    // check the stored answers are what is judged: the rescored report is identical).
    let out = run_ok(verity(dir.path()).args(["rescore", "latest", "--db", "v.db"]));
    assert!(
        stdout(&out).contains("scoring 2 over 8 samples, 0 changed"),
        "{}",
        stdout(&out)
    );
    let again = report_json(dir.path(), &[]);
    assert_eq!(outcomes(&again), expected());
    assert_eq!(again["per_task"], json["per_task"]);

    // Rescoring with an edited suite (no regex scorer) changes verdicts; the old scoring stays.
    write_tree(
        dir.path(),
        &[
            (
                "s2/suite.toml",
                &SUITE.replace(
                    "[[scorers]]\nkind = \"regex\"\nname = \"digits\"\npattern = '^\\d+$'\n",
                    "",
                ),
            ),
            ("s2/tasks.jsonl", TASKS),
        ],
    );
    let out =
        run_ok(verity(dir.path()).args(["rescore", "latest", "--suite", "s2", "--db", "v.db"]));
    assert!(stdout(&out).contains("scoring 3"), "{}", stdout(&out));
    let third = outcomes(&report_json(dir.path(), &[]));
    assert_eq!(third[&("words".to_owned(), "a".to_owned())], "pass");
    let first = outcomes(&report_json(dir.path(), &["--scoring", "1"]));
    assert_eq!(first, expected());

    // runs lists it; --fail-under gates.
    let runs = stdout(&run_ok(verity(dir.path()).args(["runs", "--db", "v.db"])));
    assert!(
        runs.contains("known") && runs.contains("completed") && runs.contains("8/8"),
        "{runs}"
    );
    let gated = verity(dir.path())
        .args(["report", "latest", "--fail-under", "0.9", "--db", "v.db"])
        .output()
        .unwrap();
    assert_eq!(gated.status.code(), Some(1), "{}", stderr(&gated));
    assert!(
        stderr(&gated).contains("FAIL pass_rate >= 0.9 [a]")
            && stderr(&gated).contains("(--fail-under)"),
        "{}",
        stderr(&gated)
    );
    let unknown = verity(dir.path())
        .args(["report", "nope", "--db", "v.db"])
        .output()
        .unwrap();
    assert_eq!(unknown.status.code(), Some(2));
}

#[test]
fn example_suite_runs_end_to_end() {
    let dir = tempfile::tempdir().unwrap();
    let root = repo_root();
    let db = dir.path().join("e.db");
    let out = run_ok(
        verity(&root)
            .args([
                "run",
                "suites/example",
                "--quiet",
                "--format",
                "json",
                "--out",
            ])
            .arg(dir.path().join("r.json"))
            .arg("--db")
            .arg(&db),
    );
    assert!(
        stdout(&out).is_empty(),
        "--quiet prints nothing: {}",
        stdout(&out)
    );
    let v: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("r.json")).unwrap()).unwrap();
    let n = v["per_task"].as_array().unwrap().len();
    assert!(n >= 8, "{n} tasks");
    // Each sample's outcome agrees with its criteria under the default all-pass rule.
    for t in v["per_task"].as_array().unwrap() {
        for (_, var) in t["variants"].as_object().unwrap() {
            for e in var["epochs"].as_array().unwrap() {
                let crit = e["criteria"].as_object().unwrap();
                let all = crit.values().all(|c| c != &Value::Bool(false));
                let outcome = e["outcome"].as_str().unwrap();
                assert_eq!(outcome == "pass", all, "{t}");
            }
        }
    }
}

#[test]
fn bare_dataset_with_cli_scorer() {
    let dir = tempfile::tempdir().unwrap();
    write_tree(
        dir.path(),
        &[(
            "d.jsonl",
            "{\"id\": 1, \"input\": \"1 + 1\", \"target\": \"2\"}\n{\"id\": 2, \"input\": \"2 + 5\", \"target\": \"8\", \"metadata\": {\"mock_response\": \"7\"}}\n",
        )],
    );
    let out = run_ok(verity(dir.path()).args([
        "run",
        "d.jsonl",
        "--provider",
        "mock",
        "--scorer",
        "equals",
        "--db",
        "v.db",
        "--quiet",
    ]));
    assert!(stdout(&out).is_empty());
    let v = report_json(dir.path(), &[]);
    let o = outcomes(&v);
    assert_eq!(o[&("1".to_owned(), "default".to_owned())], "pass");
    assert_eq!(o[&("2".to_owned(), "default".to_owned())], "fail");
    // Without a provider the run uses the embedded model (SmolLM2 here: CI pulls it; the
    // default model is larger).
    let out = run_ok(verity(dir.path()).args([
        "run",
        "d.jsonl",
        "--scorer",
        "equals",
        "--model",
        "smollm2-135m-instruct",
        "--db",
        "v.db",
        "--quiet",
    ]));
    assert!(stdout(&out).is_empty());
    let v = report_json(dir.path(), &[]);
    assert_eq!(
        v["variants"][0]["model"], "local/smollm2-135m-instruct",
        "{:#}",
        v["variants"]
    );
    assert_eq!(v["per_task"].as_array().map(Vec::len), Some(2));
    for t in v["per_task"].as_array().unwrap() {
        let e = &t["variants"]["default"]["epochs"][0];
        assert!(e["error"].is_null(), "{e:#}");
        assert!(e["usage"]["output_tokens"].as_u64().unwrap() > 0, "{e:#}");
    }
    // An unknown scorer kind is a usage error.
    let out = verity(dir.path())
        .args([
            "run",
            "d.jsonl",
            "--provider",
            "mock",
            "--scorer",
            "nope",
            "--db",
            "v.db",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}
