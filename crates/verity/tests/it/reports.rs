//! The files a suite's `[report]` writes: never over an existing file unless the path names the
//! run (`{ts}`, `{run}`) or `--force` is given; relative paths stay inside the working or the
//! suite's directory. `--out` names its file explicitly and replaces it.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::support::*;

const TASKS: &str = r#"{"id": "add", "input": "2 + 2", "target": "4"}
{"id": "words", "input": "say hi", "target": "hi"}
"#;

/// A mock suite at `root/rel` whose `[report]` section is `report`.
fn suite(root: &Path, rel: &str, report: &str) {
    let toml = format!(
        "name = \"paths\"\ntasks = \"tasks.jsonl\"\n[defaults]\nprovider = \"mock\"\n\
         [[scorers]]\nkind = \"equals\"\n[report]\n{report}\n"
    );
    write_tree(
        root,
        &[
            (&format!("{rel}/suite.toml"), &toml),
            (&format!("{rel}/tasks.jsonl"), TASKS),
        ],
    );
}

fn run(cwd: &Path, suite: &str, extra: &[&str]) -> Output {
    verity(cwd)
        .args(["run", suite, "--quiet", "--db", "v.db"])
        .args(extra)
        .output()
        .unwrap()
}

fn stored_runs(cwd: &Path) -> usize {
    let out = run_ok(verity(cwd).args(["runs", "--format", "json", "--db", "v.db"]));
    serde_json::from_str::<serde_json::Value>(&stdout(&out))
        .unwrap()
        .as_array()
        .unwrap()
        .len()
}

fn run_ids(cwd: &Path) -> Vec<String> {
    let out = run_ok(verity(cwd).args(["runs", "--format", "json", "--db", "v.db"]));
    serde_json::from_str::<serde_json::Value>(&stdout(&out))
        .unwrap()
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap().to_owned())
        .collect()
}

fn listing(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default();
    v.sort();
    v
}

#[test]
fn an_existing_report_file_is_not_overwritten_without_force() {
    let dir = tempfile::tempdir().unwrap();
    let cwd = dir.path();
    suite(
        cwd,
        "s",
        "markdown = \"out/audit.md\"\njson = \"out/report.json\"",
    );
    let first = run(cwd, "s", &[]);
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    let md = std::fs::read(cwd.join("out/audit.md")).unwrap();
    let json = std::fs::read(cwd.join("out/report.json")).unwrap();

    // The second run refuses to start, before any call is paid for, rather than write over
    // the first run's files; it leaves no run behind.
    let second = run(cwd, "s", &[]);
    let err = stderr(&second);
    assert_eq!(second.status.code(), Some(2), "{err}");
    assert!(
        err.contains("refusing to start") && err.contains("out/audit.md"),
        "{err}"
    );
    assert!(err.contains("--force") && err.contains("{ts}"), "{err}");
    assert_eq!(std::fs::read(cwd.join("out/audit.md")).unwrap(), md);
    assert_eq!(std::fs::read(cwd.join("out/report.json")).unwrap(), json);
    assert_eq!(stored_runs(cwd), 1);

    // A file that appears while a run is going is not overwritten either: the run is stored
    // and the report refused (exit 3) — see `a_report_file_that_appears_mid_run_is_kept`.

    // --force replaces both, with the newest run.
    let third = run(cwd, "s", &["--force"]);
    assert_eq!(third.status.code(), Some(0), "{}", stderr(&third));
    let newest = &run_ids(cwd)[0];
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(cwd.join("out/report.json")).unwrap()).unwrap();
    assert_eq!(json["run"]["id"].as_str(), Some(newest.as_str()), "{json}");
    assert_ne!(std::fs::read(cwd.join("out/audit.md")).unwrap(), md);
}

/// A `[report]` file that did not exist when the run started but appears while it runs is not
/// overwritten either: the run is stored, and the report refused with exit 3.
#[test]
fn a_report_file_that_appears_mid_run_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let cwd = dir.path();
    let toml = "name = \"paths\"\ntasks = \"tasks.jsonl\"\n[defaults]\nprovider = \"mock\"\n\
                options = { latency_ms = 400 }\n[[scorers]]\nkind = \"equals\"\n\
                [report]\nmarkdown = \"audit.md\"\n";
    write_tree(cwd, &[("s/suite.toml", toml), ("s/tasks.jsonl", TASKS)]);
    let child = verity(cwd)
        .args(["run", "s", "--quiet", "--db", "v.db", "-j", "1"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Once the run has started (its row is stored, and a moment later its first call is on its
    // way), another program writes the file.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    let started = || {
        // The database may exist before it is a verity store: `runs` refuses it until then.
        let out = verity(cwd)
            .args(["runs", "--format", "json", "--db", "v.db"])
            .output()
            .unwrap();
        out.status.success() && stdout(&out).contains("\"id\"")
    };
    while !started() {
        assert!(
            std::time::Instant::now() < deadline,
            "the run never started"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    std::thread::sleep(std::time::Duration::from_millis(200));
    std::fs::write(cwd.join("audit.md"), "someone else's\n").unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("not writing the report audit.md")
            && stderr(&out).contains("The run is stored"),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        std::fs::read_to_string(cwd.join("audit.md")).unwrap(),
        "someone else's\n"
    );
    assert_eq!(stored_runs(cwd), 1);
}

#[test]
fn paths_that_name_the_run_may_be_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let cwd = dir.path();
    // `{ts}` has a resolution of one second: a second run may land on the same name, and
    // replaces it; `{run}` is unique, so an existing file is the run's own.
    suite(
        cwd,
        "s",
        "markdown = \"out/{ts}.md\"\njson = \"out/{run}.json\"",
    );
    for _ in 0..2 {
        let out = run(cwd, "s", &[]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    }
    let files = listing(&cwd.join("out"));
    assert!(files.len() >= 3, "{files:?}");
}

#[test]
fn out_names_its_file_and_replaces_it() {
    let dir = tempfile::tempdir().unwrap();
    let cwd = dir.path();
    suite(cwd, "s", "");
    std::fs::write(cwd.join("r.json"), "old").unwrap();
    std::fs::write(cwd.join("r.md"), "old").unwrap();
    let out = run(cwd, "s", &["--format", "json", "--out", "r.json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(cwd.join("r.json")).unwrap()).unwrap();
    assert_eq!(v["per_task"].as_array().unwrap().len(), 2);
    run_ok(verity(cwd).args([
        "report", "latest", "--format", "md", "--out", "r.md", "--db", "v.db",
    ]));
    assert!(
        std::fs::read_to_string(cwd.join("r.md"))
            .unwrap()
            .starts_with("# ")
    );
}

#[test]
fn format_without_out_prints_that_report_instead_of_the_table() {
    let dir = tempfile::tempdir().unwrap();
    let cwd = dir.path();
    suite(cwd, "s", "");
    let out = verity(cwd)
        .args(["run", "s", "--db", "v.db", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("stored in"), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    // Standard output is the JSON document alone: a CI step can parse it as it is.
    let v: serde_json::Value = serde_json::from_str(&text).expect("stdout is one JSON document");
    assert_eq!(v["per_task"].as_array().unwrap().len(), 2);
    // --out alone names no format.
    let out = run(cwd, "s", &["--out", "r.json"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

#[test]
fn relative_paths_may_not_climb_out() {
    let dir = tempfile::tempdir().unwrap();
    let cwd = dir.path().join("work");
    std::fs::create_dir(&cwd).unwrap();
    for (n, report) in [
        "markdown = \"../escape.md\"",
        "markdown = \"out/../../escape.md\"",
        // One bad path stops them all: nothing is written.
        "markdown = \"fine.md\"\njson = \"../escape.json\"",
    ]
    .iter()
    .enumerate()
    {
        let name = format!("s{n}");
        suite(&cwd, &name, report);
        let out = run(&cwd, &name, &[]);
        let err = stderr(&out);
        // Found before the run sends anything.
        assert_eq!(out.status.code(), Some(2), "{report}: {err}");
        assert!(err.contains("refusing to start"), "{err}");
        assert!(err.contains("`..`") && err.contains("escape"), "{err}");
        assert!(!cwd.join("fine.md").exists());
        assert_eq!(
            listing(dir.path()),
            vec![cwd.clone()],
            "{report}: something was written outside"
        );
    }
}

#[cfg(unix)]
#[test]
fn symbolic_links_may_not_lead_out() {
    use std::os::unix::fs::symlink;
    let dir = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    let cwd = dir.path();
    // A directory link and a file link that leave the working directory.
    symlink(outside.path(), cwd.join("elsewhere")).unwrap();
    std::fs::write(outside.path().join("target.md"), "theirs").unwrap();
    symlink(outside.path().join("target.md"), cwd.join("link.md")).unwrap();
    symlink(
        outside.path().join("nothing-yet.md"),
        cwd.join("dangling.md"),
    )
    .unwrap();
    for (n, (report, force)) in [
        ("markdown = \"elsewhere/audit.md\"", false),
        ("markdown = \"elsewhere/new/dir/audit.md\"", false),
        ("markdown = \"link.md\"", true),
        ("markdown = \"dangling.md\"", true),
    ]
    .iter()
    .enumerate()
    {
        let name = format!("s{n}");
        suite(cwd, &name, report);
        let out = run(cwd, &name, if *force { &["--force"] } else { &[] });
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{report}: {err}");
        assert!(err.contains("refusing to start"), "{err}");
    }
    assert_eq!(
        std::fs::read_to_string(outside.path().join("target.md")).unwrap(),
        "theirs"
    );
    assert_eq!(
        listing(outside.path()),
        vec![outside.path().join("target.md")]
    );

    // The suite's own directory is allowed, through a link too; so is any absolute path.
    let suites = tempfile::tempdir().unwrap();
    let report = format!(
        "markdown = \"to-suite/audit.md\"\njson = \"{}\"",
        outside.path().join("abs.json").display()
    );
    suite(suites.path(), "s", &report);
    let s = suites.path().join("s");
    std::fs::create_dir(s.join("reports")).unwrap();
    symlink(s.join("reports"), cwd.join("to-suite")).unwrap();
    let out = run(cwd, s.to_str().unwrap(), &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(s.join("reports/audit.md").is_file());
    assert!(outside.path().join("abs.json").is_file());
}
