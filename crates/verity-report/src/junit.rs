//! JUnit XML (`--format junit`) for CI servers' test reports: Jenkins, GitLab, Azure
//! Pipelines and the GitHub test-report actions all read it. The output validates against the
//! xunit plugin's `junit-10.xsd` (the schema Jenkins' JUnit support reads; verity's tests check
//! every document against it with `xmllint --schema`).
//!
//! * A run: one `<testsuite>` per variant (named `suite/variant`), one `<testcase>` per task
//!   × variant (`classname` `suite/variant`, `name` the task id). Epochs are folded as the
//!   report folds them: a task passes when every counted epoch passed. A failing criterion is
//!   one `<failure type="CRITERION">` (its epochs, explanation, evidence with where it points in
//!   the answer and its snippet); an infrastructure error, or a scorer error, that counts under
//!   the error policy is an `<error type="KIND">`; a task every epoch of which errored under
//!   the `exclude` policy, or with no stored sample, is `<skipped>`. `time` is the summed latency
//!   of the task's epochs. Each suite's `<properties>` carry the run id, suite hash, model,
//!   prompt hash, epochs, error policy and pass rate; with gates, a `suite/gates` testsuite
//!   holds one testcase per gate.
//! * A comparison: one `<testsuite>` per pair of sides, one `<testcase>` per flipped task (a
//!   regression is a `<failure type="regression">`, a flaky regression `<skipped>` — the gates
//!   do not count it — and an improvement passes with its note); tasks both sides agree on are
//!   not tests of a comparison. The gates' testsuite as for a run.
//!
//! Text is made safe for XML 1.0: characters it does not allow (C0 controls other than tab,
//! line feed and carriage return; U+FFFE, U+FFFF) are written as `\u{XX}`; quick-xml escapes
//! the rest.

use std::borrow::Cow;
use std::io;

use quick_xml::Writer;
use quick_xml::events::{BytesDecl, BytesText, Event};
use verity_model::ScoreStatus;

use crate::ci::{MESSAGE_CHARS, cut, epochs_phrase, evidence_lines, failure_index, fold, headline};
use crate::fmt;
use crate::json::Extras;
use crate::verdict::{FlipKind, GateReport, GateStatus, SideDiff};
use crate::view::{RunView, TaskOutcome, one_line};

type W = Writer<Vec<u8>>;

/// A stored run as JUnit XML; see the module documentation.
pub fn render_junit(view: &RunView, extras: &Extras<'_>) -> String {
    let mut w = Writer::new_with_indent(Vec::new(), b' ', 2);
    // Writing into a Vec cannot fail: the result is the whole document.
    let _ = run_document(&mut w, view, extras);
    finish(w)
}

/// A comparison (`verity compare`) as JUnit XML; see the module documentation.
pub fn render_diff_junit(diffs: &[SideDiff], gates: Option<&GateReport>) -> String {
    let mut w = Writer::new_with_indent(Vec::new(), b' ', 2);
    let _ = diff_document(&mut w, diffs, gates);
    finish(w)
}

fn finish(w: W) -> String {
    let mut s = String::from_utf8_lossy(&w.into_inner()).into_owned();
    s.push('\n');
    s
}

/// Text XML 1.0 allows: `\t`, `\n`, `\r`, U+0020–U+D7FF, U+E000–U+FFFD, U+10000 and up.
/// Anything else is written as `\u{XX}`.
pub(crate) fn xml_safe(s: &str) -> Cow<'_, str> {
    fn allowed(c: char) -> bool {
        matches!(c, '\t' | '\n' | '\r')
            || ('\u{20}'..='\u{D7FF}').contains(&c)
            || ('\u{E000}'..='\u{FFFD}').contains(&c)
            || c >= '\u{10000}'
    }
    if s.chars().all(allowed) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if allowed(c) {
            out.push(c);
        } else {
            out.push_str(&format!("\\u{{{:X}}}", c as u32));
        }
    }
    Cow::Owned(out)
}

/// Seconds with three decimals (the schema's `SUREFIRE_TIME`).
fn secs(ms: u64) -> String {
    format!("{}.{:03}", ms / 1000, ms % 1000)
}

/// An attribute value: on one line, XML-safe, at most [`MESSAGE_CHARS`] characters.
fn attr(s: &str) -> String {
    xml_safe(&cut(&one_line(s), MESSAGE_CHARS)).into_owned()
}

/// One test case as written.
struct Case {
    classname: String,
    name: String,
    time_ms: u64,
    /// (`failure` | `error` | `skipped`, type, message, body).
    children: Vec<(&'static str, String, String, String)>,
    system_out: Option<String>,
}

impl Case {
    fn has(&self, kind: &str) -> bool {
        self.children.iter().any(|c| c.0 == kind)
    }
}

#[derive(Default)]
struct Totals {
    tests: usize,
    failures: usize,
    errors: usize,
    skipped: usize,
    time_ms: u64,
}

impl Totals {
    fn of(cases: &[Case]) -> Totals {
        let mut t = Totals::default();
        for c in cases {
            t.tests += 1;
            t.time_ms += c.time_ms;
            // One count per test case: a failure wins over an error, either over a skip.
            if c.has("failure") {
                t.failures += 1;
            } else if c.has("error") {
                t.errors += 1;
            } else if c.has("skipped") {
                t.skipped += 1;
            }
        }
        t
    }
}

struct Suite {
    name: String,
    timestamp: Option<String>,
    properties: Vec<(String, String)>,
    cases: Vec<Case>,
    system_out: Option<String>,
}

fn document(w: &mut W, name: &str, time_ms: Option<u64>, suites: &[Suite]) -> io::Result<()> {
    w.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)))?;
    let mut all = Totals::default();
    for s in suites {
        let t = Totals::of(&s.cases);
        all.tests += t.tests;
        all.failures += t.failures;
        all.errors += t.errors;
        all.time_ms += t.time_ms;
    }
    let (tests, failures, errors) = (
        all.tests.to_string(),
        all.failures.to_string(),
        all.errors.to_string(),
    );
    let time = secs(time_ms.unwrap_or(all.time_ms));
    let name = attr(name);
    w.create_element("testsuites")
        .with_attribute(("name", name.as_str()))
        .with_attribute(("tests", tests.as_str()))
        .with_attribute(("failures", failures.as_str()))
        .with_attribute(("errors", errors.as_str()))
        .with_attribute(("time", time.as_str()))
        .write_inner_content(|w| {
            for (i, s) in suites.iter().enumerate() {
                suite(w, i, s)?;
            }
            Ok(())
        })?;
    Ok(())
}

fn suite(w: &mut W, id: usize, s: &Suite) -> io::Result<()> {
    let t = Totals::of(&s.cases);
    let (name, id) = (attr(&s.name), id.to_string());
    let (tests, failures, errors, skipped, time) = (
        t.tests.to_string(),
        t.failures.to_string(),
        t.errors.to_string(),
        t.skipped.to_string(),
        secs(t.time_ms),
    );
    let mut el = w
        .create_element("testsuite")
        .with_attribute(("name", name.as_str()))
        .with_attribute(("tests", tests.as_str()))
        .with_attribute(("failures", failures.as_str()))
        .with_attribute(("errors", errors.as_str()))
        .with_attribute(("skipped", skipped.as_str()))
        .with_attribute(("time", time.as_str()))
        .with_attribute(("id", id.as_str()));
    let ts = s.timestamp.as_deref().map(attr);
    if let Some(ts) = &ts {
        el = el.with_attribute(("timestamp", ts.as_str()));
    }
    el.write_inner_content(|w| {
        if !s.properties.is_empty() {
            w.create_element("properties").write_inner_content(|w| {
                for (k, v) in &s.properties {
                    let (k, v) = (attr(k), attr(v));
                    w.create_element("property")
                        .with_attribute(("name", k.as_str()))
                        .with_attribute(("value", v.as_str()))
                        .write_empty()?;
                }
                Ok(())
            })?;
        }
        for c in &s.cases {
            case(w, c)?;
        }
        if let Some(out) = &s.system_out {
            w.create_element("system-out")
                .write_text_content(BytesText::new(&xml_safe(out)))?;
        }
        Ok(())
    })?;
    Ok(())
}

fn case(w: &mut W, c: &Case) -> io::Result<()> {
    let (name, classname, time) = (attr(&c.name), attr(&c.classname), secs(c.time_ms));
    let el = w
        .create_element("testcase")
        .with_attribute(("name", name.as_str()))
        .with_attribute(("classname", classname.as_str()))
        .with_attribute(("time", time.as_str()));
    if c.children.is_empty() && c.system_out.is_none() {
        el.write_empty()?;
        return Ok(());
    }
    el.write_inner_content(|w| {
        for (kind, ty, message, body) in &c.children {
            let (ty, message) = (attr(ty), attr(message));
            let mut child = w
                .create_element(*kind)
                .with_attribute(("message", message.as_str()));
            if !ty.is_empty() {
                child = child.with_attribute(("type", ty.as_str()));
            }
            if body.is_empty() {
                child.write_empty()?;
            } else {
                child.write_text_content(BytesText::new(&xml_safe(body)))?;
            }
        }
        if let Some(out) = &c.system_out {
            w.create_element("system-out")
                .write_text_content(BytesText::new(&xml_safe(out)))?;
        }
        Ok(())
    })?;
    Ok(())
}

fn run_document(w: &mut W, view: &RunView, extras: &Extras<'_>) -> io::Result<()> {
    let h = &view.header;
    let policy = view.error_policy();
    let index = failure_index(view);
    let mut suites = Vec::new();
    for vs in &view.per_variant {
        let info = view.variants.iter().find(|v| v.name == vs.variant);
        let classname = format!("{}/{}", h.suite_name, vs.variant);
        let mut cases = Vec::new();
        for t in &view.tasks {
            let Some(tv) = t.variant(&vs.variant) else {
                cases.push(Case {
                    classname: classname.clone(),
                    name: t.id.clone(),
                    time_ms: 0,
                    children: vec![(
                        "skipped",
                        String::new(),
                        "not run: no stored sample of this task for this variant".into(),
                        String::new(),
                    )],
                    system_out: None,
                });
                continue;
            };
            let f = fold(view, &index, t, tv);
            let mut children = Vec::new();
            let mut notes = Vec::new();
            for c in &f.criteria {
                let body = evidence_lines(c, f.epochs).join("\n");
                let ep = epochs_phrase(&c.epochs, f.epochs);
                let message = if ep.is_empty() {
                    format!("{}: {}", c.key, headline(c))
                } else {
                    format!("{} ({ep}): {}", c.key, headline(c))
                };
                match (c.counts, c.status) {
                    (true, ScoreStatus::Error) => {
                        children.push(("error", c.key.clone(), message, body));
                    }
                    (true, _) => children.push(("failure", c.key.clone(), message, body)),
                    (false, _) => notes.push(format!("not counted (error policy exclude): {body}")),
                }
            }
            for e in &f.errors {
                let ep = epochs_phrase(&e.epochs, f.epochs);
                let message = if ep.is_empty() {
                    format!("{}: {}", e.kind, e.message)
                } else {
                    format!("{} ({ep}): {}", e.kind, e.message)
                };
                if e.counts && f.outcome != TaskOutcome::Excluded {
                    children.push(("error", e.kind.clone(), message, String::new()));
                } else {
                    notes.push(format!(
                        "infrastructure error, not counted (error policy exclude): {message}"
                    ));
                }
            }
            if f.outcome == TaskOutcome::Excluded {
                children.push((
                    "skipped",
                    String::new(),
                    "excluded: every epoch ended in an infrastructure error, which the suite's \
                     error policy leaves out"
                        .into(),
                    String::new(),
                ));
            }
            if let Some(src) = t
                .source
                .as_ref()
                .filter(|_| !children.is_empty() || !notes.is_empty())
            {
                notes.insert(0, format!("task defined at {src}"));
            }
            cases.push(Case {
                classname: classname.clone(),
                name: t.id.clone(),
                time_ms: f.latency_ms,
                children,
                system_out: (!notes.is_empty()).then(|| notes.join("\n")),
            });
        }
        let mut properties = vec![
            ("verity.run_id".to_owned(), h.run_id.clone()),
            ("verity.suite".to_owned(), h.suite_name.clone()),
            ("verity.suite_hash".to_owned(), h.suite_hash.clone()),
            ("verity.variant".to_owned(), vs.variant.clone()),
        ];
        if let Some(i) = info {
            properties.push(("verity.model".into(), i.model.clone()));
            properties.push(("verity.prompt_hash".into(), i.prompt_hash.clone()));
        }
        properties.extend([
            ("verity.epochs".to_owned(), h.epochs.to_string()),
            (
                "verity.error_policy".to_owned(),
                match policy {
                    verity_model::ErrorPolicy::Fail => "fail".to_owned(),
                    verity_model::ErrorPolicy::Exclude => "exclude".to_owned(),
                },
            ),
            (
                "verity.pass_rate".to_owned(),
                format!(
                    "{} ({}/{}), 95% CI {}",
                    fmt::rate(&vs.rate),
                    vs.rate.successes,
                    vs.rate.n,
                    fmt::ci(&vs.rate)
                ),
            ),
            ("verity.status".to_owned(), h.json_status().to_owned()),
            ("verity.version".to_owned(), h.verity_version.clone()),
        ]);
        if let Some(g) = extras.gates {
            properties.push(("verity.verdict".into(), g.verdict.as_str().into()));
        }
        suites.push(Suite {
            name: classname,
            timestamp: Some(h.started_at.clone()),
            properties,
            cases,
            system_out: (!view.notes.is_empty()).then(|| view.notes.join("\n")),
        });
    }
    if let Some(g) = extras.gates {
        suites.push(gate_suite(&h.suite_name, Some(&h.run_id), g));
    }
    let name = format!("verity {} (run {})", h.suite_name, h.run_id);
    document(w, &name, h.duration_ms, &suites)
}

fn gate_suite(suite_name: &str, run_id: Option<&str>, g: &GateReport) -> Suite {
    let classname = format!("{suite_name}/gates");
    let cases = g
        .gates
        .iter()
        .map(|r| {
            let value = r.value.map(crate::verdict::gate_num).unwrap_or("-".into());
            let message = if r.note.is_empty() {
                format!("{}: {value} ({})", r.gate, r.status.as_str())
            } else {
                format!("{}: {value} ({}; {})", r.gate, r.status.as_str(), r.note)
            };
            let body = format!("declared at {}", r.source);
            let children = match r.status {
                GateStatus::Fail => vec![("failure", "gate".into(), message, body)],
                GateStatus::Error => vec![("error", "gate".into(), message, body)],
                GateStatus::Skipped => vec![("skipped", String::new(), message, String::new())],
                GateStatus::Pass | GateStatus::Review => Vec::new(),
            };
            Case {
                classname: classname.clone(),
                name: format!("{} [{}]", r.gate, r.variant),
                time_ms: 0,
                system_out: (r.status == GateStatus::Review).then(|| format!("review: {}", r.note)),
                children,
            }
        })
        .collect();
    let mut properties = vec![("verity.verdict".to_owned(), g.verdict.as_str().to_owned())];
    if let Some(id) = run_id {
        properties.insert(0, ("verity.run_id".into(), id.into()));
    }
    Suite {
        name: classname,
        timestamp: None,
        properties,
        cases,
        system_out: (!g.notes.is_empty()).then(|| g.notes.join("\n")),
    }
}

fn diff_document(w: &mut W, diffs: &[SideDiff], gates: Option<&GateReport>) -> io::Result<()> {
    let mut suites = Vec::new();
    for d in diffs {
        let classname = format!("{}/{}", d.b.suite_name, d.b.variant);
        let cases = d
            .flips
            .iter()
            .map(|f| {
                let at = f
                    .source
                    .as_ref()
                    .map(|s| format!("\ntask defined at {s}"))
                    .unwrap_or_default();
                let children = match (f.kind, f.flaky) {
                    (FlipKind::Regression, false) => vec![(
                        "failure",
                        "regression".to_owned(),
                        format!(
                            "regression: passed in {}, fails in {}: {}",
                            d.a.label(),
                            d.b.label(),
                            f.b_reason.as_deref().unwrap_or("-")
                        ),
                        format!(
                            "now: {}{}{at}",
                            f.b_reason.as_deref().unwrap_or("-"),
                            f.rationale
                                .as_deref()
                                .map(|r| format!("\nrationale: {r}"))
                                .unwrap_or_default()
                        ),
                    )],
                    (FlipKind::Regression, true) => vec![(
                        "skipped",
                        String::new(),
                        format!(
                            "flaky regression (its epochs or earlier runs disagree), for review: \
                             {}",
                            f.b_reason.as_deref().unwrap_or("-")
                        ),
                        String::new(),
                    )],
                    (FlipKind::Improvement, _) => Vec::new(),
                };
                let system_out = (f.kind == FlipKind::Improvement).then(|| {
                    format!(
                        "improvement: failed in {} ({}), passes in {}{at}",
                        d.a.label(),
                        f.a_reason.as_deref().unwrap_or("-"),
                        d.b.label()
                    )
                });
                Case {
                    classname: classname.clone(),
                    name: f.task_id.clone(),
                    time_ms: 0,
                    children,
                    system_out,
                }
            })
            .collect();
        let rate = |r: &crate::verdict::RateInfo| {
            let ci = r
                .ci95
                .map(|(lo, hi)| format!(", 95% CI [{}, {}]", fmt::pct(lo), fmt::pct(hi)))
                .unwrap_or_default();
            format!(
                "{} ({}/{}){ci}",
                r.value.map(fmt::pct).unwrap_or("-".into()),
                r.successes,
                r.n
            )
        };
        let properties = vec![
            ("verity.a.run_id".to_owned(), d.a.run_id.clone()),
            ("verity.a.variant".to_owned(), d.a.variant.clone()),
            ("verity.a.model".to_owned(), d.a.model.clone()),
            ("verity.a.suite_hash".to_owned(), d.a.suite_hash.clone()),
            ("verity.a.pass_rate".to_owned(), rate(&d.rate_a)),
            ("verity.b.run_id".to_owned(), d.b.run_id.clone()),
            ("verity.b.variant".to_owned(), d.b.variant.clone()),
            ("verity.b.model".to_owned(), d.b.model.clone()),
            ("verity.b.suite_hash".to_owned(), d.b.suite_hash.clone()),
            ("verity.b.pass_rate".to_owned(), rate(&d.rate_b)),
            (
                "verity.mcnemar_p".to_owned(),
                format!(
                    "{} ({}, two-sided)",
                    fmt::num(d.p_value),
                    d.p_method.as_str()
                ),
            ),
        ];
        suites.push(Suite {
            name: format!("{} → {}", d.a.label(), d.b.label()),
            timestamp: Some(d.b.date.clone()),
            properties,
            cases,
            system_out: (!d.warnings.is_empty()).then(|| d.warnings.join("\n")),
        });
    }
    if let Some(g) = gates {
        let name = diffs
            .first()
            .map(|d| d.b.suite_name.as_str())
            .unwrap_or("-");
        suites.push(gate_suite(name, None, g));
    }
    let name = match diffs.first() {
        Some(d) => format!("verity compare {} {}", d.a.run_id, d.b.run_id),
        None => "verity compare".into(),
    };
    document(w, &name, None, &suites)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_xml_does_not_allow_is_replaced() {
        assert_eq!(xml_safe("plain <&>"), "plain <&>");
        assert!(matches!(xml_safe("plain"), Cow::Borrowed(_)));
        assert_eq!(xml_safe("a\u{1b}[31mb\u{0}c"), "a\\u{1B}[31mb\\u{0}c");
        assert_eq!(xml_safe("tab\tnl\ncr\r"), "tab\tnl\ncr\r");
        assert_eq!(
            xml_safe("\u{FFFE}\u{FFFF}\u{FFFD}"),
            "\\u{FFFE}\\u{FFFF}\u{FFFD}"
        );
        assert_eq!(xml_safe("😀"), "😀");
    }

    #[test]
    fn times_are_seconds_with_three_decimals() {
        assert_eq!(secs(0), "0.000");
        assert_eq!(secs(1234), "1.234");
        assert_eq!(secs(60_005), "60.005");
    }
}
