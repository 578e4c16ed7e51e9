//! `verity run --failed-in RUN` and a suite's `[run]` settings (retries, cache, quick epochs)
//! against the command line's, on the mock provider.

use serde_json::Value;
use verity_store::Store;

use crate::support::{run_code, run_ok, stderr, verity, write_tree};

/// Tasks `pass-1` and `pass-2` pass, `wrong` fails, `broken` errors (a client error, never
/// retried).
const TASKS: &str = r#"{"id": "pass-1", "input": "one", "target": "1", "metadata": {"mock_response": "1"}}
{"id": "wrong", "input": "two", "target": "2", "metadata": {"mock_response": "3"}}
{"id": "broken", "input": "three", "target": "3", "metadata": {"mock_error": "client_error"}}
{"id": "pass-2", "input": "four", "target": "4", "metadata": {"mock_response": "4"}}
"#;

const SUITE: &str =
    "name = \"s\"\n[defaults]\nprovider = \"mock\"\n[[scorers]]\nkind = \"equals\"\n";

fn report(dir: &std::path::Path, run: &str) -> Value {
    let out = run_ok(verity(dir).args(["report", run, "--format", "json", "--db", "v.db"]));
    serde_json::from_slice(&out.stdout).expect("report json")
}

/// The task ids of a stored run, in run order.
fn task_ids(dir: &std::path::Path, run: &str) -> Vec<String> {
    report(dir, run)["per_task"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap().to_owned())
        .collect()
}

fn latest(dir: &std::path::Path) -> String {
    let store = Store::open(&dir.join("v.db")).unwrap();
    store.resolve_run("latest").unwrap()
}

fn run_count(dir: &std::path::Path) -> usize {
    Store::open(&dir.join("v.db"))
        .unwrap()
        .list_runs()
        .unwrap()
        .len()
}

#[test]
fn failed_in_reruns_exactly_the_failed_tasks() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_tree(d, &[("s/suite.toml", SUITE), ("s/tasks.jsonl", TASKS)]);
    run_ok(verity(d).args(["run", "s", "--db", "v.db", "--quiet"]));
    let first = latest(d);

    // Only the failed and the errored task run again, in suite order.
    let out = run_ok(verity(d).args(["run", "s", "--failed-in", "latest", "--db", "v.db"]));
    assert!(
        stderr(&out).contains(&format!(
            "running again the 2 tasks that failed in run {first}"
        )),
        "{}",
        stderr(&out)
    );
    let second = latest(d);
    assert_ne!(second, first);
    assert_eq!(task_ids(d, &second), ["wrong", "broken"]);
    let meta = Store::open(&d.join("v.db"))
        .unwrap()
        .load_run_meta(&second)
        .unwrap();
    assert_eq!(meta.options.failed_in.as_deref(), Some(first.as_str()));

    // Combined with another selection: their intersection. `latest~1` names the first run.
    run_ok(verity(d).args([
        "run",
        "s",
        "--failed-in",
        "latest~1",
        "--filter",
        "w*",
        "--db",
        "v.db",
        "--quiet",
    ]));
    assert_eq!(task_ids(d, "latest"), ["wrong"]);

    // A run without failures: nothing to run, said, exit 0, nothing stored.
    run_ok(verity(d).args(["run", "s", "--filter", "pass-*", "--db", "v.db", "--quiet"]));
    let runs = run_count(d);
    let out = run_ok(verity(d).args(["run", "s", "--failed-in", "latest", "--db", "v.db"]));
    assert!(
        stderr(&out).contains("has no failed task; nothing to run again"),
        "{}",
        stderr(&out)
    );
    assert_eq!(run_count(d), runs);

    // An unknown run, or no database: usage errors (2), nothing stored.
    let out = run_code(
        verity(d).args(["run", "s", "--failed-in", "nope", "--db", "v.db"]),
        2,
    );
    assert!(stderr(&out).contains("nope"), "{}", stderr(&out));
    run_code(
        verity(d).args(["run", "s", "--failed-in", "latest", "--db", "other.db"]),
        2,
    );
    assert!(!d.join("other.db").exists());
    assert_eq!(run_count(d), runs);

    // Another suite with none of the failed tasks: an error naming the run.
    write_tree(
        d,
        &[
            ("t/suite.toml", SUITE),
            (
                "t/tasks.jsonl",
                "{\"id\": \"other\", \"input\": \"x\", \"target\": \"x\"}\n",
            ),
        ],
    );
    let out = run_code(
        verity(d).args(["run", "t", "--failed-in", &first, "--db", "v.db"]),
        2,
    );
    assert!(
        stderr(&out).contains(&format!(
            "none of the 2 tasks that failed in run {first} is in this suite"
        )),
        "{}",
        stderr(&out)
    );
    assert_eq!(run_count(d), runs);

    // The suite changed since: a warning, and the failed tasks that remain run.
    write_tree(
        d,
        &[(
            "s/tasks.jsonl",
            &TASKS.replace("{\"id\": \"broken\"", "{\"id\": \"renamed\""),
        )],
    );
    let out =
        run_ok(verity(d).args(["run", "s", "--failed-in", &first, "--db", "v.db", "--quiet"]));
    let err = stderr(&out);
    assert!(
        err.contains(&format!(
            "run {first} was of a different version of this suite"
        )),
        "{err}"
    );
    assert!(
        err.contains(&format!(
            "1 of the 2 tasks that failed in run {first} are not in the suite"
        )),
        "{err}"
    );
    assert_eq!(task_ids(d, "latest"), ["wrong"]);

    // --resume takes no selection.
    run_code(
        verity(d).args([
            "run",
            "--resume",
            "latest",
            "--failed-in",
            "latest",
            "--db",
            "v.db",
        ]),
        2,
    );
}

/// Per epoch of the latest run's task `id`: (cache hit, attempts).
fn epochs_of(dir: &std::path::Path, id: &str) -> Vec<(bool, u64)> {
    let r = report(dir, "latest");
    let task = r["per_task"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == id)
        .unwrap_or_else(|| panic!("no task {id} in {r:#}"))
        .clone();
    task["variants"]["default"]["epochs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["cache_hit"].as_bool().unwrap(),
                e["attempts"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// `[run]` fills in what the command line leaves unset, before verity.toml: `--quick` runs
/// `quick_epochs`, the cache stays off, and `retries` bounds the retries of a 5xx.
#[test]
fn suite_run_settings_yield_to_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let tasks = "{\"id\": \"ok\", \"input\": \"a\", \"target\": \"a\"}\n{\"id\": \"flaky\", \"input\": \"b\", \"metadata\": {\"mock_error\": \"server_error\"}}\n";
    write_tree(
        d,
        &[
            (
                "s/suite.toml",
                "name = \"s\"\nepochs = 2\nquick = [\"ok\"]\n[defaults]\nprovider = \"mock\"\n[[scorers]]\nkind = \"equals\"\n[run]\ncache = \"off\"\nretries = 0\nquick_epochs = 3\n",
            ),
            ("s/tasks.jsonl", tasks),
            // verity.toml says 4 retries and the cache on; the suite's [run] comes first.
            (
                "verity.toml",
                "[run]\nretries = 4\ncache = \"live\"\nbackoff_initial_ms = 1\nbackoff_max_ms = 2\n",
            ),
        ],
    );
    let run = |extra: &[&str]| {
        run_ok(
            verity(d)
                .args(["run", "s", "--db", "v.db", "--quiet"])
                .args(extra),
        );
    };
    let epochs = || {
        Store::open(&d.join("v.db"))
            .unwrap()
            .load_run_meta(&latest(d))
            .unwrap()
            .options
            .epochs
    };

    // --quick: the quick subset with quick_epochs; --epochs wins; a full run keeps `epochs`.
    run(&["--quick"]);
    assert_eq!(epochs(), 3);
    assert_eq!(epochs_of(d, "ok").len(), 3);
    run(&["--quick", "--epochs", "1"]);
    assert_eq!(epochs(), 1);
    run(&[]);
    assert_eq!(epochs(), 2);

    // The suite's cache = "off": a second run is answered afresh, though verity.toml says live.
    run(&["--quick"]);
    assert!(epochs_of(d, "ok").iter().all(|(hit, _)| !hit));
    // --cache live overrides it: the first run fills the cache, the second reads it.
    run(&["--quick", "--cache", "live"]);
    run(&["--quick", "--cache", "live"]);
    assert!(epochs_of(d, "ok").iter().all(|(hit, _)| *hit));

    // retries = 0: a 5xx is tried once, though verity.toml says 4; --retries 2 tries it 3 times.
    run(&[]);
    assert!(
        epochs_of(d, "flaky")
            .iter()
            .all(|(_, attempts)| *attempts == 1)
    );
    run(&["--retries", "2"]);
    assert!(
        epochs_of(d, "flaky")
            .iter()
            .all(|(_, attempts)| *attempts == 3)
    );
    // Without [run] retries, verity.toml's apply.
    let plain = std::fs::read_to_string(d.join("s/suite.toml"))
        .unwrap()
        .replace("retries = 0\n", "");
    write_tree(d, &[("s/suite.toml", &plain)]);
    run(&[]);
    assert!(
        epochs_of(d, "flaky")
            .iter()
            .all(|(_, attempts)| *attempts == 5)
    );
}
