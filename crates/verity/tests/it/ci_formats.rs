//! The CI formats through the real binary and a real store: `--format junit` (validated against
//! the xunit plugin's JUnit schema with xmllint), `--format github` and `--format md-summary`,
//! for `verity run`, `verity report` and `verity compare`, on a mock suite whose two variants
//! disagree on one task, fail another and error on a third.

use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};

use crate::support::*;

const SUITE: &str = r#"name = "ci"
tasks = "tasks.jsonl"

[defaults]
provider = "mock"

# Two models, so the cache does not hand one variant the other's answer.
[[variants]]
name = "good"
model = "m-good"

[[variants]]
name = "bad"
model = "m-bad"

[[scorers]]
kind = "equals"
"#;

/// `add` passes for both; `hello` passes for `good` only; `shout` fails for both with an
/// answer full of markup and a terminal escape; `down` gets no answer (a client error).
const TASKS: &str = r#"{"id": "add", "input": "2 + 2", "target": "4"}
{"id": "hello", "input": "say hi", "target": "hi", "metadata": {"mock_response": {"bad": "bye", "default": "hi"}}}
{"id": "shout", "input": "shout", "target": "HI", "metadata": {"mock_response": "\u001b[31m<b>hi</b> & ]]>\u0000"}}
{"id": "down", "input": "anything", "target": "x", "metadata": {"mock_error": "client_error"}}
"#;

fn suite(dir: &Path) {
    write_tree(dir, &[("s/suite.toml", SUITE), ("s/tasks.jsonl", TASKS)]);
}

/// Validates `xml` against `tests/data/junit-10.xsd` with xmllint (Debian libxml2-utils,
/// installed by .ci/run): under `CI` a missing xmllint fails the test.
fn assert_valid_junit(xml: &str) {
    let xsd = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/junit-10.xsd");
    let mut child = match Command::new("xmllint")
        .args(["--noout", "--schema", xsd, "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    {
        Ok(c) => c,
        Err(e) => {
            assert!(
                std::env::var_os("CI").is_none(),
                "xmllint is required under CI (Debian libxml2-utils, installed by .ci/run): {e}"
            );
            eprintln!("xmllint not found ({e}): the JUnit schema check is skipped");
            return;
        }
    };
    child
        .stdin
        .take()
        .unwrap()
        .write_all(xml.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "not valid against junit-10.xsd:\n{}\n{xml}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_run_in_junit_validates_and_carries_the_evidence() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    suite(d);
    let out = run_ok(verity(d).args([
        "run", "s", "-q", "--db", "v.db", "--format", "junit", "--out", "r.xml",
    ]));
    assert!(stdout(&out).is_empty(), "{}", stdout(&out));
    let xml = std::fs::read_to_string(d.join("r.xml")).unwrap();
    assert_valid_junit(&xml);
    assert!(
        xml.contains(
            "<testsuite name=\"ci/good\" tests=\"4\" failures=\"1\" errors=\"1\" skipped=\"0\""
        ),
        "{xml}"
    );
    assert!(
        xml.contains(
            "<testsuite name=\"ci/bad\" tests=\"4\" failures=\"2\" errors=\"1\" skipped=\"0\""
        ),
        "{xml}"
    );
    assert!(
        xml.contains("<testcase name=\"hello\" classname=\"ci/bad\""),
        "{xml}"
    );
    assert!(xml.contains("type=\"client_error\""), "{xml}");
    // The answer's markup is escaped (the equals scorer already quotes its escape and NUL;
    // raw control characters are the renderer's unit tests').
    assert!(!xml.contains('\u{1b}') && !xml.contains('\u{0}'), "{xml}");
    assert!(
        xml.contains("got &quot;\\u{1b}[31m&lt;b&gt;hi&lt;/b&gt; &amp; ]]&gt;\\0&quot;"),
        "{xml}"
    );
    assert!(
        xml.contains("<property name=\"verity.model\" value=\"mock/"),
        "{xml}"
    );

    // `verity report` renders the same document from the store.
    let again = run_ok(verity(d).args(["report", "latest", "--format", "junit", "--db", "v.db"]));
    assert_eq!(stdout(&again), xml);
}

#[test]
fn github_annotations_point_at_the_tasks_lines() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    suite(d);
    run_ok(verity(d).args(["run", "s", "-q", "--db", "v.db"]));
    let out = run_ok(verity(d).args(["report", "latest", "--format", "github", "--db", "v.db"]));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.iter().all(|l| l.starts_with("::")), "{text}");
    assert!(
        lines[0].starts_with("::notice title=verity ci (run "),
        "{text}"
    );
    // hello is line 2 of the dataset, shout line 3, down line 4.
    let hello = lines
        .iter()
        .find(|l| l.contains("hello failed"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        hello.starts_with("::error file=s/tasks.jsonl,line=2,col=1,title=verity%3A hello failed "),
        "{hello}"
    );
    assert!(
        hello.ends_with("[bad]") || hello.contains("[bad]::"),
        "{hello}"
    );
    assert!(!text.contains("hello failed equals [good]"), "{text}");
    let shout: Vec<&&str> = lines
        .iter()
        .filter(|l| l.contains("shout failed"))
        .collect();
    assert_eq!(shout.len(), 2, "{text}");
    assert!(
        shout[0].starts_with("::error file=s/tasks.jsonl,line=3,col=1,"),
        "{text}"
    );
    let down: Vec<&&str> = lines
        .iter()
        .filter(|l| l.contains("down errored"))
        .collect();
    assert_eq!(down.len(), 2, "{text}");
    assert!(
        down[0].starts_with("::error file=s/tasks.jsonl,line=4,col=1,"),
        "{text}"
    );
    assert!(
        down[0].contains("::infrastructure error client_error"),
        "{text}"
    );
    // No raw newline inside an annotation: each is one line.
    assert_eq!(lines.len(), 1 + 1 + 2 + 2, "{text}");
}

#[test]
fn a_step_summary_and_a_comparison_in_every_ci_format() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    suite(d);
    run_ok(verity(d).args(["run", "s", "-q", "--db", "v.db"]));
    let md = stdout(&run_ok(verity(d).args([
        "report",
        "latest",
        "--format",
        "md-summary",
        "--db",
        "v.db",
    ])));
    assert!(md.starts_with("## verity: ci — run `"), "{md}");
    assert!(md.contains("No gates were checked."), "{md}");
    assert!(
        md.contains("| good | mock/m-good | 2/4 | 50.0% | [15.0%, 85.0%] | 1 |"),
        "{md}"
    );
    assert!(md.contains("### Comparisons"), "{md}");
    assert!(md.contains("McNemar's test gives p = "), "{md}");
    assert!(md.contains("### Failing tasks (5)"), "{md}");
    assert!(md.contains("--format html --out report.html`"), "{md}");

    // bad against good, gated: hello regressed, so the verdict is a regression (exit 1).
    let args = |fmt: &'static str| {
        [
            "compare",
            "latest:good",
            "latest:bad",
            "--fail-on-regression",
            "--format",
            fmt,
            "--db",
            "v.db",
        ]
    };
    let xml = stdout(&run_code(verity(d).args(args("junit")), 1));
    assert_valid_junit(&xml);
    assert!(
        xml.contains("<testcase name=\"hello\" classname=\"ci/bad\""),
        "{xml}"
    );
    assert!(xml.contains("type=\"regression\""), "{xml}");
    assert!(
        xml.contains("<property name=\"verity.verdict\" value=\"regression\"/>"),
        "{xml}"
    );
    let gh = stdout(&run_code(verity(d).args(args("github")), 1));
    assert!(
        gh.lines().any(|l| l.starts_with(
            "::error file=s/tasks.jsonl,line=2,col=1,title=verity%3A hello regressed [bad]::passed in "
        )),
        "{gh}"
    );
    assert!(gh.contains("Verdict: regression."), "{gh}");
    let md = stdout(&run_code(verity(d).args(args("md-summary")), 1));
    assert!(md.contains("**Verdict: regression**"), "{md}");
    assert!(md.contains("- pass → fail `hello` [bad]"), "{md}");
    assert!(md.contains("### Flipped tasks (1)"), "{md}");
}

/// A failing gate declared in suite.toml is an error annotation at its line there, and the
/// JUnit's gates suite fails it.
#[test]
fn a_failing_suite_gate_points_at_its_declaration() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let gated = format!("{SUITE}\n[[gates]]\nmetric = \"pass_rate\"\nmin = 0.9\n");
    let line = gated.lines().position(|l| l == "[[gates]]").unwrap() + 1;
    write_tree(d, &[("s/suite.toml", &gated), ("s/tasks.jsonl", TASKS)]);
    let xml = stdout(&run_code(
        verity(d).args(["run", "s", "-q", "--db", "v.db", "--format", "junit"]),
        1,
    ));
    assert_valid_junit(&xml);
    assert!(
        xml.contains("<testsuite name=\"ci/gates\" tests=\"2\" failures=\"2\""),
        "{xml}"
    );
    let gh = stdout(&run_code(
        verity(d).args(["report", "latest", "--format", "github", "--db", "v.db"]),
        1,
    ));
    let want = format!("::error file=s/suite.toml,line={line},col=1,title=verity gate fail%3A ");
    assert_eq!(
        gh.lines().filter(|l| l.starts_with(&want)).count(),
        2,
        "one per variant, at line {line}:\n{gh}"
    );
}
