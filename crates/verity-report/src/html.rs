//! `--format html`: one self-contained page per run (and per comparison of two runs).
//!
//! The page carries the JSON report itself as its data (`<script type="application/json"
//! id="verity-data">`), exactly what `--format json` prints for the same command, so the page
//! and the JSON never disagree; everything the page shows is drawn from that document. Nothing
//! is fetched: no external script, style, font or image, and a Content-Security-Policy that
//! allows none (`default-src 'none'`), so the file opens offline and no request leaves it.

use serde_json::Value;

use crate::json::{Extras, to_json_with};
use crate::view::RunView;

/// The run's report as one self-contained HTML page.
pub fn render_html(view: &RunView, extras: &Extras<'_>) -> String {
    let data = to_json_with(view, extras);
    let title = format!(
        "verity · {} · run {}",
        view.header.suite_name, view.header.run_id
    );
    page(&title, &data)
}

/// A comparison of two runs (`verity compare A B --format html`): `data` is the document
/// `verity compare --format json` prints.
pub fn render_diff_html(data: &Value) -> String {
    page("verity · comparison", data)
}

/// The policy every page carries: nothing may be loaded from anywhere; inline styles and the
/// page's own inline script run, and images only from `data:` URLs.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; style-src 'unsafe-inline'; \
     script-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

fn page(title: &str, data: &Value) -> String {
    let mut out = String::with_capacity(16 * 1024);
    out.push_str("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.push_str(&format!(
        "<meta http-equiv=\"Content-Security-Policy\" content=\"{CONTENT_SECURITY_POLICY}\">\n"
    ));
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    out.push_str(&format!("<title>{}</title>\n", escape(title)));
    out.push_str("<style>:root{color-scheme:light dark}body{font:14px/1.4 system-ui,sans-serif;margin:1.5rem}</style>\n");
    out.push_str("</head>\n<body>\n");
    out.push_str(&format!("<h1>{}</h1>\n", escape(title)));
    out.push_str("<pre id=\"summary\"></pre>\n");
    out.push_str("<script type=\"application/json\" id=\"verity-data\">");
    out.push_str(&embed_json(data));
    out.push_str("</script>\n<script>\n");
    out.push_str(
        "const data = JSON.parse(document.getElementById('verity-data').textContent);\n\
         document.getElementById('summary').textContent = JSON.stringify(data, null, 2);\n",
    );
    out.push_str("</script>\n</body>\n</html>\n");
    out
}

/// JSON safe inside a `<script>` element: `<`, `>` and `&` as `\u` escapes (so no `</script>`
/// or `<!--` can end or change the element), and U+2028 / U+2029 escaped too.
pub fn embed_json(data: &Value) -> String {
    let text = serde_json::to_string(data).unwrap_or_else(|_| "null".into());
    let mut out = String::with_capacity(text.len() + 64);
    for c in text.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

/// Text safe in HTML element content and attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_json_cannot_close_its_script_element() {
        let v = serde_json::json!({"answer": "</script><script>alert(1)</script> & <!--"});
        let s = embed_json(&v);
        assert!(!s.contains('<') && !s.contains('>'), "{s}");
        let back: Value = serde_json::from_str(&s).unwrap();
        assert_eq!(back, v);
    }

    #[test]
    fn the_page_loads_nothing_from_outside() {
        let p = page("t <x>", &serde_json::json!({"a": 1}));
        assert!(p.contains("default-src 'none'"));
        assert!(p.contains("<title>t &lt;x&gt;</title>"));
        assert!(!p.contains("src=\"http") && !p.contains("href=\"http"));
    }
}
