//! Baselines, comparisons and gates through the real binary and a real store: a suite on the
//! mock provider whose answers a test edits to make tasks regress.

use std::path::Path;
use std::process::Output;

use serde_json::Value;

use crate::support::*;

const SUITE: &str = r#"name = "gated"
tasks = "tasks.jsonl"

[defaults]
provider = "mock"

[[scorers]]
kind = "equals"
"#;

/// Four tasks; the mock answers with each target, so all pass.
const TASKS: &str = r#"{"id": "add", "input": "2 + 2", "target": "4", "metadata": {"rationale": "the simplest sum"}}
{"id": "mul", "input": "3 * 3", "target": "9"}
{"id": "sub", "input": "5 - 3", "target": "2"}
{"id": "hello", "input": "say hi", "target": "hi"}
"#;

fn stderr_has(o: &Output, want: &str) {
    let text = stderr(o);
    assert!(text.contains(want), "no {want:?} in:\n{text}");
}

fn stdout_has(o: &Output, want: &str) {
    let text = stdout(o);
    assert!(text.contains(want), "no {want:?} in:\n{text}");
}

fn suite(dir: &Path) {
    write_tree(dir, &[("s/suite.toml", SUITE), ("s/tasks.jsonl", TASKS)]);
}

fn json_report(dir: &Path, run: &str) -> Value {
    let out = run_ok(verity(dir).args(["report", run, "--format", "json", "--db", "v.db"]));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn a_saved_baseline_catches_a_regressed_task_and_compare_names_it() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    suite(d);
    run_ok(verity(d).args(["run", "s", "-q", "--db", "v.db"]));
    let hash_before = json_report(d, "latest")["run"]["suite"]["content_hash"].clone();

    // Saved at the suite's root, shown, and not part of the suite's hash.
    let saved = run_ok(verity(d).args(["baseline", "save", "latest", "--db", "v.db"]));
    stderr_has(&saved, "wrote s/baseline.toml");
    let shown = run_ok(verity(d).args(["baseline", "show", "s"]));
    let pass_rate = stdout(&shown)
        .lines()
        .find(|l| l.trim_start().starts_with("pass_rate "))
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "));
    assert_eq!(
        pass_rate.as_deref(),
        Some("pass_rate 1"),
        "{}",
        stdout(&shown)
    );
    run_ok(verity(d).args([
        "run",
        "s",
        "-q",
        "--db",
        "v.db",
        "--baseline",
        "--fail-on-regression",
    ]));
    assert_eq!(
        json_report(d, "latest")["run"]["suite"]["content_hash"],
        hash_before
    );

    // The baseline is not replaced without --force; the refusal shows old and new.
    let again = run_code(
        verity(d).args(["baseline", "save", "latest", "--db", "v.db"]),
        2,
    );
    stderr_has(&again, "--force");
    stderr_has(&again, "metric");

    // The model now gets `add` wrong: the suite changes, and the task regresses.
    let broken = TASKS.replace(
        r#""metadata": {"rationale""#,
        r#""metadata": {"mock_response": "5", "rationale""#,
    );
    write_tree(d, &[("s/tasks.jsonl", &broken)]);
    let gated = run_code(
        verity(d).args([
            "run",
            "s",
            "-q",
            "--db",
            "v.db",
            "--baseline",
            "--fail-on-regression",
            "--format",
            "json",
            "--out",
            "r.json",
        ]),
        1,
    );
    let err = stderr(&gated);
    assert!(err.contains("verdict: REGRESSION"), "{err}");
    assert!(err.contains("FAIL regressions <= 0 [default]: 1"), "{err}");
    assert!(err.contains("pass → fail  add default"), "{err}");
    assert!(err.contains("rationale: the simplest sum"), "{err}");
    assert!(
        err.contains("FAIL pass_rate drop < 0.05 from baseline [default]: 0.75"),
        "{err}"
    );
    // The JSON report carries both sections.
    let r: Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("r.json")).unwrap()).unwrap();
    assert_eq!(r["gates"]["verdict"], "regression");
    assert_eq!(r["gates"]["regressions"][0]["task_id"], "add");
    let cmp = &r["baseline_comparison"]["comparisons"][0];
    assert_eq!(cmp["contingency"], serde_json::json!([[3, 1], [0, 0]]));
    assert!(
        cmp["warnings"].to_string().contains("the suite changed"),
        "{cmp}"
    );

    // compare says the suite changed, and names the flipped task with its evidence.
    let c = run_ok(verity(d).args(["compare", "latest~1", "latest", "--db", "v.db"]));
    let text = stdout(&c);
    assert!(
        text.contains("WARNING: the suite changed between the runs"),
        "{text}"
    );
    assert!(text.contains("pass → fail  add default"), "{text}");
    assert!(
        text.contains(r#"now: equals: expected "4", got "5""#),
        "{text}"
    );
    let row = text
        .lines()
        .find(|l| l.starts_with("pass_rate "))
        .map(|l| l.split_whitespace().take(4).collect::<Vec<_>>().join(" "));
    assert_eq!(
        row.as_deref(),
        Some("pass_rate 1.000 0.750 -0.250"),
        "{text}"
    );
    // …and gates like a run would.
    let cg = run_code(
        verity(d).args([
            "compare",
            "latest~1",
            "latest",
            "--db",
            "v.db",
            "--fail-on-regression",
            "--format",
            "json",
        ]),
        1,
    );
    let j: Value = serde_json::from_slice(&cg.stdout).unwrap();
    assert_eq!(j["gates"]["verdict"], "regression");
    assert_eq!(j["comparisons"][0]["flips"][0]["kind"], "regression");
    // Markdown too.
    let md = run_ok(verity(d).args([
        "compare", "latest~1", "latest", "--db", "v.db", "--format", "md",
    ]));
    stdout_has(&md, "| `add` | pass → fail |");

    // `report` judges a stored run the same way.
    run_code(
        verity(d).args([
            "report",
            "latest",
            "--db",
            "v.db",
            "--baseline",
            "--fail-on-regression",
        ]),
        1,
    );

    // Replacing the baseline on purpose shows both sides; then the run passes again.
    let forced = run_ok(verity(d).args(["baseline", "save", "latest", "--db", "v.db", "--force"]));
    let e = stderr(&forced);
    assert!(e.contains("pass_rate"), "{e}");
    assert!(e.contains("-0.2500"), "{e}");
    assert!(e.contains("replaced s/baseline.toml"), "{e}");
    run_ok(verity(d).args([
        "run",
        "s",
        "-q",
        "--db",
        "v.db",
        "--baseline",
        "--fail-on-regression",
    ]));
}

#[test]
fn suite_gates_and_command_line_gates_decide_the_exit_code() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let tasks = TASKS.replace(
        r#""target": "hi"}"#,
        r#""target": "hi", "metadata": {"mock_response": "hello"}}"#,
    );
    let gated = format!("{SUITE}\n[[gates]]\nmetric = \"pass_rate\"\nmin = 0.9\n");
    write_tree(d, &[("s/suite.toml", &gated), ("s/tasks.jsonl", &tasks)]);
    // 3 of 4 pass: the suite's gate fails (exit 1) and says where it was declared.
    let out = run_code(verity(d).args(["run", "s", "-q", "--db", "v.db"]), 1);
    assert!(
        stderr(&out)
            .contains("FAIL pass_rate >= 0.9 [default]: 0.75 — below 0.9  (suite.toml:10:1)"),
        "{}",
        stderr(&out)
    );

    // A stored run keeps the gates it ran with.
    write_tree(d, &[("s/suite.toml", SUITE)]);
    run_code(verity(d).args(["report", "latest", "--db", "v.db"]), 1);
    // Without the suite's gate, --fail-under is one gate like any other.
    run_ok(verity(d).args(["run", "s", "-q", "--db", "v.db"]));
    let fu = run_code(
        verity(d).args(["report", "latest", "--db", "v.db", "--fail-under", "0.8"]),
        1,
    );
    stderr_has(&fu, "(--fail-under)");
    let ok = run_code(
        verity(d).args([
            "report",
            "latest",
            "--db",
            "v.db",
            "--gate",
            "pass_rate>=0.75",
            "--gate",
            "criterion:equals@default>=0.7",
        ]),
        0,
    );
    stderr_has(&ok, "verdict: PASS");
    // A metric the run did not measure cannot be judged: exit 2, verdict error.
    let f1 = run_code(
        verity(d).args(["report", "latest", "--db", "v.db", "--gate", "f1>=0.5"]),
        2,
    );
    stderr_has(&f1, "verdict: ERROR");
    // A malformed gate is a usage error.
    let bad = run_code(
        verity(d).args(["report", "latest", "--db", "v.db", "--gate", "f1=0.5"]),
        2,
    );
    stderr_has(&bad, "METRIC>=VALUE");
}

#[test]
fn a_missing_baseline_stops_a_run_before_it_starts() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    suite(d);
    let out = run_code(
        verity(d).args(["run", "s", "-q", "--db", "v.db", "--baseline"]),
        2,
    );
    stderr_has(&out, "no baseline at s/baseline.toml");
    assert!(!d.join("v.db").exists(), "nothing was stored");
    // A baseline that is not one says where.
    write_tree(d, &[("s/baseline.toml", "format = 1\nsuite = [\n")]);
    let bad = run_code(
        verity(d).args(["run", "s", "-q", "--db", "v.db", "--baseline"]),
        2,
    );
    stderr_has(&bad, "is not a verity baseline");
    stderr_has(&bad, "line 2");
}

#[test]
fn compare_names_sides_and_refuses_what_it_cannot_pair() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let two = format!(
        "{SUITE}\n[[variants]]\nname = \"a\"\n\n[[variants]]\nname = \"b\"\nprompt_text = \"Tersely: {{{{ prompt }}}}\"\n"
    );
    write_tree(d, &[("s/suite.toml", &two), ("s/tasks.jsonl", TASKS)]);
    run_ok(verity(d).args(["run", "s", "-q", "--db", "v.db"]));
    // Two variants of one run.
    let c = run_ok(verity(d).args(["compare", "latest:a", "latest:b", "--db", "v.db"]));
    stdout_has(&c, "WARNING: different prompts");
    let unknown = run_code(
        verity(d).args(["compare", "latest:a", "latest:zz", "--db", "v.db"]),
        2,
    );
    stderr_has(
        &unknown,
        "has no stored samples of variant `zz` (it has: a, b)",
    );
    let gone = run_code(
        verity(d).args(["compare", "latest~3", "latest", "--db", "v.db"]),
        2,
    );
    stderr_has(&gone, "no run matches `latest~3`");
}

/// The example suite ships its baseline: a run of it from a clean clone passes its gates (a
/// change to the example's tasks or scorers that changes an outcome must save a new one).
#[test]
fn the_example_suite_passes_against_its_shipped_baseline() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("v.db");
    let out = run_ok(
        verity(&repo_root())
            .args([
                "run",
                "suites/example",
                "-q",
                "--baseline",
                "--fail-on-regression",
                "--db",
            ])
            .arg(&db),
    );
    let err = stderr(&out);
    assert!(err.contains("verdict: PASS"), "{err}");
    assert!(err.contains("regressions <= 0 [verbose]: 0"), "{err}");
}
