//! The CI formats (JUnit XML, GitHub workflow commands, the step summary) over the fixture run
//! (`fixture.rs`: two variants, two epochs, an errored sample, a drift group verdict), an
//! empty run, a run with many failures, and comparisons with gates.

use std::io::Write as _;
use std::process::{Command, Stdio};

use verity_model::{ErrorPolicy, Evidence, GateSpec, RunStatus, SampleRecord, Score, ScoreStatus};
use verity_report::{
    Against, Extras, GithubOptions, MAX_LISTED, RunView, SUMMARY_LIMIT, SideDiff, Snapshot,
    evaluate, render_diff_github, render_diff_junit, render_diff_summary, render_github,
    render_junit, render_summary,
};

use crate::fixture::{GROUNDED, UNGROUNDED, groups, meta, samples};

fn view() -> RunView {
    RunView::new(&meta(), &samples(), &groups())
}

fn opts() -> GithubOptions {
    GithubOptions {
        base: "suites/swift".into(),
    }
}

/// Validates `xml` against the xunit plugin's JUnit schema (vendored in the binary's test
/// data) with `xmllint`. Under `CI` a missing xmllint fails the test; elsewhere it is skipped
/// with a note.
pub fn assert_valid_junit(xml: &str) {
    let xsd = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../verity/tests/data/junit-10.xsd"
    );
    let child = Command::new("xmllint")
        .args(["--noout", "--schema", xsd, "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
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
        "the JUnit XML does not validate against junit-10.xsd:\n{}\n{xml}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The `<testcase …>` element (up to its end) of `name` in the suite `classname`.
fn testcase<'x>(xml: &'x str, classname: &str, name: &str) -> &'x str {
    let open = format!("<testcase name=\"{name}\" classname=\"{classname}\"");
    let start = xml
        .find(&open)
        .unwrap_or_else(|| panic!("no {open} in\n{xml}"));
    let rest = &xml[start..];
    let first_close = rest.find('>').unwrap();
    if rest[..=first_close].ends_with("/>") {
        &rest[..=first_close]
    } else {
        &rest[..rest.find("</testcase>").unwrap() + "</testcase>".len()]
    }
}

#[test]
fn junit_has_a_suite_per_variant_and_a_case_per_task() {
    let xml = render_junit(&view(), &Extras::default());
    assert_valid_junit(&xml);
    assert!(xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"));
    // Fixture outcomes: ungrounded passes 1 of 4 tasks (url-fetch and misc fail, date-format
    // fails on its errored epoch), grounded 2 (swiftui-list drifts, misc fails).
    assert!(
        xml.contains(
            "<testsuite name=\"swift-anti-hallucination/ungrounded\" tests=\"4\" failures=\"2\" errors=\"1\" skipped=\"0\""
        ),
        "{xml}"
    );
    assert!(
        xml.contains(
            "<testsuite name=\"swift-anti-hallucination/grounded\" tests=\"4\" failures=\"2\" errors=\"0\" skipped=\"0\""
        ),
        "{xml}"
    );
    assert!(xml.contains("<testsuites name=\"verity swift-anti-hallucination (run run-0001)\" tests=\"8\" failures=\"4\" errors=\"1\" time=\"125.000\">"), "{xml}");
    // The failing criterion with its evidence: where it points in the answer, the snippet.
    let c = testcase(&xml, "swift-anti-hallucination/ungrounded", "url-fetch");
    assert!(c.contains("<failure message=\"symbols_exist (epochs #0, #1 of 2): 1 unknown symbol\" type=\"symbols_exist\">"), "{c}");
    assert!(
        c.contains(
            "evidence: `URLSession.fetch(_:)` is not in the iOS 17.4 SDK (answer line 3, column 9)"
        ),
        "{c}"
    );
    assert!(
        c.contains("    let data = try await URLSession.shared.fetch(url)"),
        "{c}"
    );
    assert!(
        c.contains("task defined at tasks/url-fetch.toml:1:1"),
        "{c}"
    );
    // The errored epoch is an <error>, its kind the type; time is the epochs' latency.
    let c = testcase(&xml, "swift-anti-hallucination/ungrounded", "date-format");
    assert!(c.contains("<error message=\"timeout (epoch #1 of 2): no response within 10s (3 attempts)\" type=\"timeout\"/>"), "{c}");
    assert!(!c.contains("<failure"), "{c}");
    // A passing task has no child.
    let c = testcase(&xml, "swift-anti-hallucination/grounded", "url-fetch");
    assert!(c.ends_with("/>"), "{c}");
    // The properties.
    for p in [
        "<property name=\"verity.run_id\" value=\"run-0001\"/>",
        "<property name=\"verity.model\" value=\"mock/coder-0.5b\"/>",
        "<property name=\"verity.suite_hash\" value=\"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08\"/>",
        "<property name=\"verity.epochs\" value=\"2\"/>",
    ] {
        assert!(xml.contains(p), "{p} in\n{xml}");
    }
}

#[test]
fn junit_snapshot() {
    insta::assert_snapshot!("junit", render_junit(&view(), &Extras::default()));
}

#[test]
fn junit_under_exclude_skips_what_only_errored() {
    let mut m = meta();
    m.suite.outcome.errors = ErrorPolicy::Exclude;
    // Both epochs of date-format errored for ungrounded: the task is excluded.
    let mut s = samples();
    let errored = s
        .iter()
        .find(|x| x.response.error.is_some())
        .unwrap()
        .clone();
    s.retain(|x| !(x.key.task_id == "date-format" && x.key.variant == UNGROUNDED));
    for epoch in 0..2 {
        let mut e = errored.clone();
        e.key.epoch = epoch;
        s.push(e);
    }
    let v = RunView::new(&m, &s, &groups());
    let xml = render_junit(&v, &Extras::default());
    assert_valid_junit(&xml);
    let c = testcase(&xml, "swift-anti-hallucination/ungrounded", "date-format");
    assert!(
        c.contains("<skipped message=\"excluded: every epoch ended in an infrastructure error"),
        "{c}"
    );
    assert!(!c.contains("<error"), "{c}");
    assert!(c.contains("not counted (error policy exclude)"), "{c}");
    assert!(
        xml.contains("tests=\"4\" failures=\"2\" errors=\"0\" skipped=\"1\""),
        "{xml}"
    );
}

/// Text XML 1.0 does not allow is replaced; markup characters are escaped; the document
/// still validates.
#[test]
fn junit_escapes_markup_and_control_characters() {
    let mut s = samples();
    let target = s
        .iter_mut()
        .find(|x| x.key.task_id == "url-fetch" && x.key.variant == UNGROUNDED)
        .unwrap();
    for sc in &mut target.scores {
        if sc.criterion == "symbols_exist" {
            sc.explanation = Some("bad \u{1b}[31mred\u{1b}[0m <tag> & \"q\" ]]> \u{0}".into());
            let mut e = Evidence::msg("a\u{8}b <![CDATA[ x ]]>");
            e.snippet = Some("if a < b && c > d {\u{c}}".into());
            sc.evidence = vec![e];
        }
    }
    let mut m = meta();
    m.suite.tasks[1].id = "url-fetch".into();
    let v = RunView::new(&m, &s, &groups());
    let xml = render_junit(&v, &Extras::default());
    assert_valid_junit(&xml);
    assert!(!xml.contains('\u{1b}') && !xml.contains('\u{0}') && !xml.contains('\u{8}'));
    assert!(
        xml.contains("bad \\u{1B}[31mred\\u{1B}[0m &lt;tag&gt; &amp; &quot;q&quot; ]]&gt; \\u{0}"),
        "{xml}"
    );
    assert!(
        xml.contains("if a &lt; b &amp;&amp; c &gt; d {\\u{C}}"),
        "{xml}"
    );
}

#[test]
fn an_empty_run_renders_in_every_ci_format() {
    let mut m = meta();
    m.status = RunStatus::Interrupted;
    let v = RunView::new(&m, &[], &[]);
    let xml = render_junit(&v, &Extras::default());
    assert_valid_junit(&xml);
    // Every task is a skipped test: none was run.
    assert!(
        xml.contains("tests=\"4\" failures=\"0\" errors=\"0\" skipped=\"4\""),
        "{xml}"
    );
    assert!(
        xml.contains(
            "<skipped message=\"not run: no stored sample of this task for this variant\"/>"
        ),
        "{xml}"
    );
    let gh = render_github(&v, &Extras::default(), &opts());
    assert_eq!(gh.lines().count(), 1, "{gh}");
    assert!(
        gh.starts_with("::notice title=verity swift-anti-hallucination (run run-0001%2C "),
        "{gh}"
    );
    assert!(
        gh.contains("::ungrounded 0/0 passed (-%2C 95%25 CI -)")
            || gh.contains("::ungrounded 0/0 passed (-, 95%25 CI -)"),
        "{gh}"
    );
    let md = render_summary(&v, &Extras::default());
    assert!(
        md.contains("| ungrounded | mock/coder-0.5b | 0/0 | - | - | 0 |"),
        "{md}"
    );
    assert!(
        md.contains("`verity report run-0001 --format html --out report.html`"),
        "{md}"
    );
}

#[test]
fn github_annotations_point_at_the_task_definitions() {
    let gh = render_github(&view(), &Extras::default(), &opts());
    let lines: Vec<&str> = gh.lines().collect();
    assert!(lines.iter().all(|l| l.starts_with("::")), "{gh}");
    assert!(lines[0].starts_with("::notice title=verity swift-anti-hallucination (run run-0001%2C completed)::ungrounded 3/8 passed (37.5%25, 95%25 CI [13.7%25, 69.4%25]); grounded 5/8"), "{gh}");
    // One error per failing task × variant × criterion, at the task's file and line.
    let url = lines
        .iter()
        .find(|l| l.contains("url-fetch failed symbols_exist [ungrounded]"))
        .unwrap();
    assert!(url.starts_with("::error file=suites/swift/tasks/url-fetch.toml,line=1,col=1,title=verity%3A url-fetch failed symbols_exist [ungrounded]::criterion: symbols_exist (scorer swift, fail), epochs #0, #1 of 2%0Aexplanation: 1 unknown symbol%0Aevidence: "), "{url}");
    // The infrastructure error, counted under the `fail` policy.
    let err = lines
        .iter()
        .find(|l| l.contains("date-format errored [ungrounded]"))
        .unwrap();
    assert!(
        err.starts_with("::error file=suites/swift/tasks/date-format.toml,line=1,col=1,"),
        "{err}"
    );
    assert!(
        err.contains(
            "::infrastructure error timeout: no response within 10s (3 attempts) (epoch #1 of 2)"
        ),
        "{err}"
    );
    // Under `exclude` the same error is a warning and says it is not counted.
    let mut m = meta();
    m.suite.outcome.errors = ErrorPolicy::Exclude;
    let v = RunView::new(&m, &samples(), &groups());
    let gh = render_github(&v, &Extras::default(), &opts());
    assert!(
        !gh.contains("date-format errored"),
        "date-format passes on its counted epoch: {gh}"
    );
    // Nothing passing is annotated.
    assert!(
        !gh.contains("url-fetch failed symbols_exist [grounded]"),
        "{gh}"
    );
}

#[test]
fn github_snapshot() {
    insta::assert_snapshot!(
        "github",
        render_github(&view(), &Extras::default(), &opts())
    );
}

/// A run whose every task fails: every annotation is printed, then a notice that GitHub shows
/// ten; the summary lists [`MAX_LISTED`] tasks and "and N more", and stays under 1 MiB.
#[test]
fn many_failures_are_all_annotated_and_capped_in_the_summary() {
    let mut m = meta();
    let template = m.suite.tasks[1].clone();
    let base: Vec<SampleRecord> = samples()
        .into_iter()
        .filter(|s| s.key.task_id == "url-fetch" && s.key.variant == UNGROUNDED)
        .collect();
    m.suite.tasks.clear();
    m.suite.variants.truncate(1);
    m.suite.compare.clear();
    let mut s = Vec::new();
    for i in 0..30 {
        let mut t = template.clone();
        t.id = format!("task-{i:02}");
        t.source.line = i + 1;
        m.suite.tasks.push(t);
        for b in &base {
            let mut x = b.clone();
            x.key.task_id = format!("task-{i:02}");
            // A long explanation, to check the summary cuts evidence.
            for sc in &mut x.scores {
                if sc.status == ScoreStatus::Fail {
                    sc.explanation = Some("why ".repeat(500));
                }
            }
            s.push(x);
        }
    }
    let v = RunView::new(&m, &s, &[]);
    let gh = render_github(&v, &Extras::default(), &opts());
    let errors = gh.lines().filter(|l| l.starts_with("::error ")).count();
    assert_eq!(errors, 30, "{gh}");
    let last = gh.lines().last().unwrap();
    assert!(
        last.starts_with(
            "::notice title=verity%3A more annotations than GitHub shows::30 error annotations"
        ),
        "{last}"
    );
    assert!(
        gh.contains("file=suites/swift/tasks/url-fetch.toml,line=30,"),
        "{gh}"
    );
    let md = render_summary(&v, &Extras::default());
    assert!(md.contains("### Failing tasks (30)"), "{md}");
    assert_eq!(
        md.lines().filter(|l| l.starts_with("- `task-")).count(),
        MAX_LISTED,
        "{md}"
    );
    assert!(
        md.contains(&format!("- … and {} more", 30 - MAX_LISTED)),
        "{md}"
    );
    assert!(md.len() < SUMMARY_LIMIT);
    assert!(
        md.lines().all(|l| l.chars().count() < 900),
        "evidence is cut:\n{md}"
    );
    let xml = render_junit(&v, &Extras::default());
    assert_valid_junit(&xml);
}

#[test]
fn summary_snapshot() {
    insta::assert_snapshot!("summary", render_summary(&view(), &Extras::default()));
}

#[test]
fn summary_says_mcnemar_in_words() {
    let md = render_summary(&view(), &Extras::default());
    assert!(md.contains("No gates were checked."), "{md}");
    assert!(
        md.contains("| ungrounded | mock/coder-0.5b | 3/8 | 37.5% | [13.7%, 69.4%] | 1 |"),
        "{md}"
    );
    assert!(md.contains("- **grounded** vs **ungrounded** (exact, greater): On 4 paired tasks, grounded passed 2 that ungrounded failed and failed 1 that ungrounded passed; McNemar's test gives p = "), "{md}");
    assert!(
        md.contains("no significant difference at the 5% level"),
        "{md}"
    );
    assert!(md.contains("### Failing tasks (5)"), "{md}");
}

/// The comparison of the fixture's two variants as two sides, gated on regressions.
fn comparison() -> (Vec<SideDiff>, verity_report::GateReport) {
    let m = meta();
    let s = samples();
    let v = RunView::new(&m, &s, &groups());
    let snaps = Snapshot::from_run(&v, &m, &s);
    // A = grounded, B = ungrounded: url-fetch regresses (both of its epochs pass in A and fail
    // in B), date-format regresses on B's errored epoch (flaky: B's epochs disagree), and
    // swiftui-list improves.
    let a = snaps
        .iter()
        .find(|x| x.variant == GROUNDED)
        .unwrap()
        .clone();
    let b = snaps
        .iter()
        .find(|x| x.variant == UNGROUNDED)
        .unwrap()
        .clone();
    let d = SideDiff::new(&a, &b, &[]);
    let gates = [GateSpec::parse_expr("regressions<=0", "--gate").unwrap()];
    let r = evaluate(
        &gates,
        std::slice::from_ref(&b),
        Against::Baseline(std::slice::from_ref(&d)),
        &[],
    );
    (vec![d], r)
}

#[test]
fn a_comparison_in_every_ci_format() {
    let (diffs, gates) = comparison();
    let xml = render_diff_junit(&diffs, Some(&gates));
    assert_valid_junit(&xml);
    assert!(xml.contains("<testsuite name=\"run-0001:grounded → run-0001:ungrounded\" tests=\"3\" failures=\"1\" errors=\"0\" skipped=\"1\""), "{xml}");
    let c = testcase(&xml, "swift-anti-hallucination/ungrounded", "url-fetch");
    assert!(c.contains("<failure message=\"regression: passed in run-0001:grounded, fails in run-0001:ungrounded: symbols_exist, identical: 1 unknown symbol (at 3:9)\""), "{c}");
    assert!(c.contains("type=\"regression\""), "{c}");
    let c = testcase(&xml, "swift-anti-hallucination/ungrounded", "date-format");
    assert!(c.contains("<skipped message=\"flaky regression"), "{c}");
    let c = testcase(&xml, "swift-anti-hallucination/ungrounded", "swiftui-list");
    assert!(
        c.contains("<system-out>improvement: failed in run-0001:grounded"),
        "{c}"
    );
    assert!(xml.contains("<testcase name=\"regressions &lt;= 0 [ungrounded]\" classname=\"swift-anti-hallucination/gates\""), "{xml}");
    assert!(
        xml.contains("<property name=\"verity.verdict\" value=\"regression\"/>"),
        "{xml}"
    );

    let gh = render_diff_github(&diffs, Some(&gates), &opts());
    assert!(
        gh.starts_with(
            "::notice title=verity compare run-0001%3Agrounded → run-0001%3Aungrounded::"
        ),
        "{gh}"
    );
    assert!(
        gh.contains("1 regressed, 2 improved") || gh.contains("2 regressed, 1 improved"),
        "{gh}"
    );
    assert!(gh.contains("Verdict: regression."), "{gh}");
    let reg = gh
        .lines()
        .find(|l| l.contains("url-fetch regressed"))
        .unwrap();
    assert!(reg.starts_with("::error file=suites/swift/tasks/url-fetch.toml,line=1,col=1,title=verity%3A url-fetch regressed [ungrounded]::passed in "), "{reg}");
    assert!(gh.lines().any(|l| l.starts_with("::warning file=suites/swift/tasks/date-format.toml,line=1,col=1,title=verity%3A date-format regressed (flaky)")), "{gh}");
    assert!(
        gh.lines()
            .any(|l| l.starts_with("::notice file=suites/swift/tasks/swiftui-list.toml")),
        "{gh}"
    );
    // The gate has no file (it came from --gate): an error without a location.
    assert!(
        gh.lines()
            .any(|l| l
                .starts_with("::error title=verity gate fail%3A regressions <= 0 [ungrounded]::")),
        "{gh}"
    );

    let md = render_diff_summary(&diffs, Some(&gates));
    assert!(md.contains("**Verdict: regression**"), "{md}");
    assert!(
        md.contains("| **fail** | `regressions <= 0` | ungrounded |"),
        "{md}"
    );
    assert!(md.contains("### Flipped tasks (3)"), "{md}");
    assert!(md.contains("- pass → fail `url-fetch` [ungrounded]: symbols_exist, identical: 1 unknown symbol (at 3:9) — `tasks/url-fetch.toml:1:1`"), "{md}");
    assert!(md.contains("McNemar's test gives p = "), "{md}");
    assert!(md.contains("`verity compare run-0001:grounded run-0001:ungrounded --format html --out compare.html`"), "{md}");
    insta::assert_snapshot!("diff_summary", md);
}

#[test]
fn a_run_with_gates_has_a_gates_suite_and_annotations() {
    let (diffs, gates) = comparison();
    let extras = Extras {
        gates: Some(&gates),
        baseline: Some(&diffs),
        costs: None,
    };
    let v = view();
    let xml = render_junit(&v, &extras);
    assert_valid_junit(&xml);
    assert!(
        xml.contains(
            "<testsuite name=\"swift-anti-hallucination/gates\" tests=\"1\" failures=\"1\""
        ),
        "{xml}"
    );
    let md = render_summary(&v, &extras);
    assert!(md.contains("**Verdict: regression**"), "{md}");
    assert!(md.contains("### Flipped against the baseline (3)"), "{md}");
    let gh = render_github(&v, &extras, &opts());
    assert!(gh.contains("Verdict: regression."), "{gh}");
}

/// Scores with a scorer error count as errors, not failures.
#[test]
fn a_scorer_error_is_an_error() {
    let mut s = samples();
    let m = meta();
    let x = s
        .iter_mut()
        .find(|x| x.key.task_id == "misc" && x.key.variant == GROUNDED && x.key.epoch == 0)
        .unwrap();
    x.scores =
        vec![Score::new("swift", "parse", ScoreStatus::Error).explain("the compiler crashed")];
    x.outcome = m.suite.outcome.evaluate(&x.scores, false);
    let v = RunView::new(&m, &s, &groups());
    let xml = render_junit(&v, &Extras::default());
    assert_valid_junit(&xml);
    let c = testcase(&xml, "swift-anti-hallucination/grounded", "misc");
    assert!(c.contains("<error message=\"parse (epoch #0 of 2): scorer error: the compiler crashed\" type=\"parse\">"), "{c}");
}
