//! `--format html` end to end: a real run on the mock provider (two variants, one grounded on
//! the reference docs server, failures with evidence at a line), its page opened in headless
//! Chromium — charts drawn, the task table filled, filters and the detail panel working, no
//! console error — and the same for a comparison of two runs. Screenshots land in the test's
//! temporary directory.

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use verity_testkit::browser::{Chromium, Page};

use crate::support::*;

const DOCS: &str = r#"{"id": "foundation/urlsession", "title": "URLSession", "body": "Use data(from:) with async/await."}
{"id": "foundation/nsurlconnection", "title": "NSURLConnection (deprecated)", "body": "Deprecated since iOS 9.0. Use URLSession instead."}
"#;

const SUITE: &str = r#"name = "pages"
tasks = "tasks.jsonl"
[defaults]
provider = "mock"
[[variants]]
name = "plain"
[[variants]]
name = "grounded"
grounding = { server = "docs", mode = "inject-top-k", k = 2 }
[servers.docs]
command = ["verity", "mcp", "serve", "--docs", "docs.jsonl"]
[[scorers]]
kind = "contains"
[[scorers]]
name = "no-legacy"
kind = "regex"
pattern = "NSURLConnection"
must_match = false
"#;

/// Six tasks: the plain variant answers three of them with the deprecated API on line 2
/// (failing both criteria), the grounded one fails one task its own way.
fn tasks(grounded_fails: &[usize]) -> String {
    let mut out = String::new();
    for i in 0..6 {
        let plain = if i % 2 == 0 {
            "import Foundation\nlet c = NSURLConnection(request: r, delegate: nil)".to_owned()
        } else {
            format!("Use URLSession.shared.data(from: url) ({i})")
        };
        let grounded = if grounded_fails.contains(&i) {
            "I am not sure.".to_owned()
        } else {
            format!("let (data, _) = try await URLSession.shared.data(from: url) // {i}")
        };
        let category = if i < 3 { "Foundation" } else { "Networking" };
        let task = json!({
            "id": format!("fetch-{i}"),
            "input": format!("How do I download a file with Swift? ({i})"),
            "target": "URLSession",
            "category": category,
            "metadata": {"mock_response": {"plain": plain, "grounded": grounded}},
        });
        out.push_str(&task.to_string());
        out.push('\n');
    }
    out
}

fn chromium() -> Option<Chromium> {
    let found = Chromium::find();
    if found.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "chromium is missing (.ci/run installs Debian's chromium)"
        );
        eprintln!("skipping: no chromium on this machine (set VERITY_CHROMIUM)");
    }
    found
}

/// Waits until `expr` evaluates to true.
fn until(page: &Page<'_>, expr: &str) {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if page.eval(expr).unwrap() == json!(true) {
            return;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {expr}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn rows(page: &Page<'_>) -> u64 {
    page.eval("document.querySelectorAll('#task-table tbody tr').length")
        .unwrap()
        .as_u64()
        .unwrap()
}

fn choose(page: &Page<'_>, select: &str, value: &str) {
    page.eval(&format!(
        "(() => {{ const s = document.getElementById('{select}'); s.value = '{value}'; \
         s.dispatchEvent(new Event('change')); return s.value; }})()"
    ))
    .unwrap();
}

fn setup(d: &Path) {
    write_tree(
        d,
        &[
            ("docs.jsonl", DOCS),
            ("s/suite.toml", SUITE),
            ("s/tasks.jsonl", &tasks(&[3])),
        ],
    );
}

#[test]
fn a_runs_html_report_renders_filters_and_opens_a_task_in_chromium() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    setup(d);
    run_ok(verity(d).args([
        "run", "s", "-q", "--db", "v.db", "--format", "html", "--out", "run.html",
    ]));
    run_ok(verity(d).args([
        "report",
        "latest",
        "--db",
        "v.db",
        "--format",
        "html",
        "--out",
        "report.html",
    ]));
    let html = std::fs::read_to_string(d.join("report.html")).unwrap();
    assert_eq!(
        html,
        std::fs::read_to_string(d.join("run.html")).unwrap(),
        "run --format html and report --format html write the same page"
    );
    // The page's data is the JSON report.
    let json: Value = serde_json::from_slice(
        &run_ok(verity(d).args(["report", "latest", "--db", "v.db", "--format", "json"])).stdout,
    )
    .unwrap();
    let embedded = html
        .split("<script type=\"application/json\" id=\"verity-data\">")
        .nth(1)
        .and_then(|r| r.split("</script>").next())
        .unwrap();
    assert_eq!(serde_json::from_str::<Value>(embedded).unwrap(), json);
    let calls = &json["per_task"][0]["variants"]["grounded"]["epochs"][0]["tool_calls"];
    assert!(
        calls.as_array().is_some_and(|c| !c.is_empty()),
        "the grounded variant searched the docs: {calls}"
    );

    let Some(chromium) = chromium() else { return };
    let browser = chromium.launch().unwrap();
    let page = browser
        .open(&format!("file://{}", d.join("report.html").display()))
        .unwrap();
    page.wait_for("body[data-ready='true']").unwrap();
    // Charts: accessible SVG images, each with a title and its data table.
    let charts = page
        .eval(
            "[...document.querySelectorAll('figure.chart svg[role=img]')]\
             .filter(s => s.querySelector('title') && s.getBoundingClientRect().height > 50).length",
        )
        .unwrap();
    assert!(charts.as_u64().unwrap() >= 4, "charts drawn: {charts}");
    assert_eq!(
        page.eval("!!document.querySelector('#chart-pass-rate rect')")
            .unwrap(),
        json!(true)
    );
    assert_eq!(
        page.eval("document.querySelector('#comparisons table.contingency') !== null")
            .unwrap(),
        json!(true)
    );
    // The table: twelve rows (six tasks × two variants), flipped tasks first.
    assert_eq!(rows(&page), 12);
    let first = page
        .eval("document.querySelector('#task-table tbody tr td.flipped').textContent")
        .unwrap();
    assert_eq!(first, json!("⇄"), "a flipped task comes first");

    // The free-text filter.
    page.type_into("#filter-text", "fetch-5").unwrap();
    until(
        &page,
        "document.querySelectorAll('#task-table tbody tr').length === 2",
    );
    page.eval(
        "(() => { const t = document.getElementById('filter-text'); t.value = ''; \
         t.dispatchEvent(new Event('input')); })()",
    )
    .unwrap();
    until(
        &page,
        "document.querySelectorAll('#task-table tbody tr').length === 12",
    );
    // The outcome filter: the failing rows only (plain fails 0, 2, 4; grounded fails 3).
    choose(&page, "filter-outcome", "fail");
    assert_eq!(rows(&page), 4);
    choose(&page, "filter-variant", "plain");
    assert_eq!(rows(&page), 3);
    choose(&page, "filter-criterion", "regex");
    assert_eq!(rows(&page), 3);
    choose(&page, "filter-category", "Networking");
    assert_eq!(rows(&page), 1);
    choose(&page, "filter-category", "");

    // Sorting by task, descending.
    page.click("#task-table thead button[data-sort='task']")
        .unwrap();
    page.click("#task-table thead button[data-sort='task']")
        .unwrap();
    assert_eq!(
        page.eval("document.querySelector('#task-table tbody tr').dataset.task")
            .unwrap(),
        json!("fetch-4")
    );

    // Opening a task shows its prompt, both variants and the evidence at its line.
    page.click("#task-table tbody tr[data-task='fetch-0']")
        .unwrap();
    until(&page, "!document.getElementById('task-detail').hidden");
    let detail = page
        .eval("document.getElementById('task-detail').textContent")
        .unwrap();
    let detail = detail.as_str().unwrap();
    assert!(
        detail.contains("How do I download a file with Swift? (0)"),
        "{detail}"
    );
    assert!(detail.contains("must not match"), "{detail}");
    assert_eq!(
        page.eval("document.querySelector('#task-detail .variant[data-variant=plain] span.ln.hit').dataset.line")
            .unwrap(),
        json!("2"),
        "the deprecated call is marked at line 2"
    );
    assert!(
        detail.contains("search"),
        "the grounded variant's tool call: {detail}"
    );
    assert!(
        detail.contains("Deprecated since iOS 9.0") || detail.contains("data(from:)"),
        "the retrieved context: {detail}"
    );

    // The reader's view lives in the address: the same page opened again at it (as `verity
    // view` reloads a running run's page) has the same filters, sort and open task.
    let hash = page.eval("location.hash").unwrap();
    let hash = hash.as_str().unwrap().to_owned();
    for part in [
        "outcome=fail",
        "variant=plain",
        "sort=task",
        "desc=1",
        "task=fetch-0",
    ] {
        assert!(hash.contains(part), "{part} in {hash}");
    }
    let again = browser
        .open(&format!("file://{}{hash}", d.join("report.html").display()))
        .unwrap();
    again.wait_for("body[data-ready='true']").unwrap();
    assert_eq!(
        rows(&again),
        3,
        "outcome fail, variant plain, criterion regex"
    );
    assert_eq!(
        again
            .eval("document.getElementById('filter-outcome').value")
            .unwrap(),
        json!("fail")
    );
    assert_eq!(
        again
            .eval("document.querySelector('#task-table tbody tr').dataset.task")
            .unwrap(),
        json!("fetch-4"),
        "sorted by task, descending"
    );
    assert_eq!(
        again
            .eval("document.getElementById('task-detail').hidden")
            .unwrap(),
        json!(false),
        "the open task is open again"
    );
    assert!(again.errors().is_empty(), "{:?}", again.errors());
    drop(again);

    // Legible in light and dark mode: the text and a chart's ink (currentColor) against the
    // page's background, WCAG's contrast ratio ≥ 4.5 in both schemes, and the schemes differ.
    let contrast = r#"(() => {
        const rgb = s => s.match(/[0-9.]+/g).slice(0, 3).map(Number);
        const lum = c => { const [r, g, b] = rgb(c).map(v => { v /= 255;
            return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
            return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
        const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
            return (x + 0.05) / (y + 0.05); };
        const bg = getComputedStyle(document.body).backgroundColor;
        const text = getComputedStyle(document.body).color;
        const ink = getComputedStyle(document.querySelector('#charts svg')).color;
        return { bg, text: ratio(text, bg), ink: ratio(ink, bg) };
    })()"#;
    let mut backgrounds = Vec::new();
    for dark in [false, true] {
        page.set_color_scheme(dark).unwrap();
        let c = page.eval(contrast).unwrap();
        for key in ["text", "ink"] {
            let r = c[key].as_f64().unwrap();
            assert!(
                r >= 4.5,
                "dark mode {dark}: {key} contrast {r:.2} < 4.5 ({c})"
            );
        }
        backgrounds.push(c["bg"].clone());
    }
    assert_ne!(
        backgrounds[0], backgrounds[1],
        "the dark scheme changes the page"
    );
    page.set_color_scheme(false).unwrap();

    let errors = page.errors();
    assert!(errors.is_empty(), "console errors: {errors:?}");
    let shot = d.join("report.png");
    page.screenshot(&shot).unwrap();
    assert_eq!(&std::fs::read(&shot).unwrap()[..8], b"\x89PNG\r\n\x1a\n");
}

#[test]
fn a_comparisons_html_page_lists_the_flipped_tasks_in_chromium() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    setup(d);
    run_ok(verity(d).args(["run", "s", "-q", "--db", "v.db"]));
    // The grounded variant now fails two more tasks: regressions.
    std::fs::write(d.join("s/tasks.jsonl"), tasks(&[1, 3, 5])).unwrap();
    run_ok(verity(d).args(["run", "s", "-q", "--db", "v.db"]));
    run_ok(verity(d).args([
        "compare", "latest~1", "latest", "--db", "v.db", "--format", "html", "--out", "cmp.html",
    ]));
    let html = std::fs::read_to_string(d.join("cmp.html")).unwrap();
    assert!(html.contains("data-page=\"compare\""));

    let Some(chromium) = chromium() else { return };
    let browser = chromium.launch().unwrap();
    let page = browser
        .open(&format!("file://{}", d.join("cmp.html").display()))
        .unwrap();
    page.wait_for("body[data-ready='true']").unwrap();
    let charts = page
        .eval("document.querySelectorAll('figure.chart svg[role=img]').length")
        .unwrap();
    assert!(charts.as_u64().unwrap() >= 2, "{charts}");
    assert_eq!(rows(&page), 2, "two regressions of the grounded variant");
    // Only the outcomes present are offered.
    assert_eq!(
        page.eval("[...document.querySelectorAll('#filter-outcome option')].map(o => o.value)")
            .unwrap(),
        json!(["", "regression"])
    );
    choose(&page, "filter-outcome", "regression");
    assert_eq!(rows(&page), 2);
    page.type_into("#filter-text", "fetch-5").unwrap();
    until(
        &page,
        "document.querySelectorAll('#task-table tbody tr').length === 1",
    );
    page.click("#task-table tbody tr[data-task='fetch-5']")
        .unwrap();
    until(&page, "!document.getElementById('task-detail').hidden");
    let detail = page
        .eval("document.getElementById('task-detail').textContent")
        .unwrap();
    assert!(detail.as_str().unwrap().contains("regression"), "{detail}");
    let errors = page.errors();
    assert!(errors.is_empty(), "console errors: {errors:?}");
    page.screenshot(&d.join("compare.png")).unwrap();
}

/// Not a check: writes the README's screenshot of a stored run's page (`docs/report.png`),
/// its first 1,700 pixels at 1,280 wide, with the first failing task opened.
///
/// `VERITY_SCREENSHOT_HTML=report.html VERITY_SCREENSHOT_PNG=docs/report.png cargo nextest run
/// -p verity --test it --run-ignored only -E 'test(/screenshot_for_the_readme/)'`
#[test]
#[ignore = "writes a screenshot for the README; needs VERITY_SCREENSHOT_HTML and _PNG"]
fn screenshot_for_the_readme() {
    let html = std::env::var("VERITY_SCREENSHOT_HTML").expect("VERITY_SCREENSHOT_HTML");
    let png = std::env::var("VERITY_SCREENSHOT_PNG").expect("VERITY_SCREENSHOT_PNG");
    let html = std::fs::canonicalize(html).unwrap();
    let chromium = Chromium::find().expect("chromium (set VERITY_CHROMIUM)");
    let browser = chromium.launch().unwrap();
    let page = browser.open(&format!("file://{}", html.display())).unwrap();
    page.set_viewport(1280, 900).unwrap();
    page.wait_for("body[data-ready='true']").unwrap();
    // The time to first table (BENCHMARKS.md), from the navigation's start.
    let ready = page.eval("document.body.dataset.readyMs").unwrap();
    eprintln!("{}: table first drawn after {ready} ms", html.display());
    choose(&page, "filter-outcome", "fail");
    page.eval(
        "(() => { const r = document.querySelector('#task-table tbody tr'); if (r) r.click(); \
         const h = document.documentElement; h.style.height = '1700px'; h.style.overflow = 'hidden'; \
         document.body.style.height = '1700px'; document.body.style.overflow = 'hidden'; \
         window.scrollTo(0, 0); return true; })()",
    )
    .unwrap();
    assert!(page.errors().is_empty(), "{:?}", page.errors());
    page.screenshot(Path::new(&png)).unwrap();
}
