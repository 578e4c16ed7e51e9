//! The HTML page over the fixture run: its embedded data is the JSON report, and its structure
//! (sections, charts, their accessible names) is snapshotted — not the SVG bytes.

use verity_report::{Extras, RunView, render_html, to_json_with};

use crate::fixture::{groups, meta, samples};

fn page() -> (RunView, String) {
    let view = RunView::new(&meta(), &samples(), &groups());
    let html = render_html(&view, &Extras::default());
    (view, html)
}

/// The text between `start` and the next `end` after it.
fn between<'a>(s: &'a str, start: &str, end: &str) -> Option<&'a str> {
    let i = s.find(start)? + start.len();
    let j = s[i..].find(end)?;
    Some(&s[i..i + j])
}

/// The page's outline: every element id, and each chart's title and description.
fn outline(html: &str) -> String {
    let mut out = String::new();
    let mut rest = html;
    while let Some(i) = rest.find(" id=\"") {
        rest = &rest[i + 5..];
        let id = &rest[..rest.find('"').unwrap()];
        out.push_str(&format!("#{id}\n"));
        if let Some(name) = id.strip_suffix("-title").or(id.strip_suffix("-desc")) {
            let tag = if id.ends_with("-title") {
                "title"
            } else {
                "desc"
            };
            let text = between(rest, "\">", &format!("</{tag}>")).unwrap();
            out.push_str(&format!("  {name} {tag}: {text}\n"));
        }
    }
    out
}

#[test]
fn the_page_embeds_the_json_report() {
    let (view, html) = page();
    let embedded = between(
        &html,
        "<script type=\"application/json\" id=\"verity-data\">",
        "</script>",
    )
    .unwrap();
    // Byte for byte the JSON report, with `<`, `>` and `&` escaped for the script element.
    let expected = serde_json::to_string(&to_json_with(&view, &Extras::default())).unwrap();
    let unescaped = embedded
        .replace("\\u003c", "<")
        .replace("\\u003e", ">")
        .replace("\\u0026", "&");
    assert_eq!(unescaped, expected);
    // The value itself, not the text parsed back: serde_json parses floats exactly only with
    // its `float_roundtrip` feature, which a workspace build and a one-crate build resolve
    // differently (the last digit of a Wilson bound changed between the two).
    insta::assert_json_snapshot!("html_data", to_json_with(&view, &Extras::default()));
}

#[test]
fn snapshot_html_structure() {
    let (_, html) = page();
    insta::assert_snapshot!("html_structure", outline(&html));
}

#[test]
fn every_chart_is_an_accessible_image_with_a_table() {
    let (_, html) = page();
    let figures = html.matches("<figure class=\"chart\"").count();
    assert!(
        figures >= 4,
        "pass rate, criteria, latency, tokens at least: {figures}"
    );
    assert_eq!(html.matches("role=\"img\"").count(), figures);
    assert_eq!(
        html.matches("<summary>Data table</summary>").count(),
        figures
    );
    assert!(!html.contains("#000000"), "ink follows the colour scheme");
    // The fixture's comparison is described in words.
    assert!(html.contains("McNemar&#39;s test"), "McNemar in words");
    assert!(html.contains("<table class=\"contingency\">"));
}

#[test]
fn a_page_renders_for_an_empty_run() {
    let view = RunView::new(&meta(), &[], &[]);
    let html = render_html(&view, &Extras::default());
    assert!(html.contains("id=\"task-table\""));
    assert!(html.contains("id=\"verity-data\""));
}
