//! The pages `verity view` writes itself (the list of runs, error pages) and what it adds to
//! the report pages verity-report renders (a way back to the list, a running run's progress).
//! Self-contained like the reports: inline style and script, nothing loaded.

use http::StatusCode;
use verity_report::{CONTENT_SECURITY_POLICY, html_escape as escape};

use super::{Listed, Progress, REFRESH_SECONDS, pass_rate};

/// The id of the element the view puts first in a report page's body (the way back to the
/// list, and a running run's progress).
pub const BANNER_ID: &str = "verity-view-banner";

const STYLE: &str = ":root{color-scheme:light dark;--line:#8884;--muted:#888}\
body{font:14px/1.45 system-ui,sans-serif;margin:1.5rem;max-width:80rem}\
h1{font-size:1.4rem;margin:0 0 .25rem}.muted{color:var(--muted)}\
.bar{display:flex;gap:.75rem;align-items:center;margin:1rem 0;flex-wrap:wrap}\
input[type=search]{font:inherit;padding:.35rem .5rem;min-width:22rem}\
button{font:inherit;padding:.35rem .8rem}\
table{border-collapse:collapse;width:100%}\
th,td{text-align:left;padding:.35rem .6rem;border-bottom:1px solid var(--line);vertical-align:top}\
th{font-weight:600}td.num{text-align:right;font-variant-numeric:tabular-nums}\
.status{font-weight:600}.s-completed{color:#2a8a3e}.s-failed{color:#c0392b}\
.s-interrupted{color:#c77c02}.s-running,.s-unknown{color:#2f6fcf}\
.variant{white-space:nowrap;margin-right:.8rem}code{font-size:.95em}";

/// The document around a page's body: the policy, the style, the title.
fn document(title: &str, body: &str) -> String {
    format!(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"{CONTENT_SECURITY_POLICY}\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <link rel=\"icon\" href=\"data:,\">\n<title>{}</title>\n<style>{STYLE}</style>\n\
         </head>\n<body>\n{body}</body>\n</html>\n",
        escape(title)
    )
}

/// `/`: every run, newest first, with a filter box and a way to compare two.
pub fn list_page(runs: &[Listed], db: &str) -> String {
    let mut rows = String::new();
    for l in runs {
        let r = &l.run;
        let shown = l.shown();
        let class = match shown {
            "running?" => "unknown",
            s => s,
        };
        let mut rates = String::new();
        let mut words = vec![
            r.id.clone(),
            r.suite_name.clone(),
            shown.to_owned(),
            r.started_at.clone(),
        ];
        for v in &l.variants {
            let rate = pass_rate(v)
                .map(|p| format!("{:.1}%", p * 100.0))
                .unwrap_or_else(|| "-".into());
            rates.push_str(&format!(
                "<span class=\"variant\"><code>{}</code> {rate} <span class=\"muted\">({}/{})</span></span>",
                escape(&v.variant),
                v.pass,
                v.samples
            ));
            words.push(v.variant.clone());
        }
        let search = words.join(" ").to_lowercase();
        rows.push_str(&format!(
            "<tr data-id=\"{id}\" data-search=\"{search}\">\
             <td><input type=\"checkbox\" class=\"pick\" value=\"{id}\" aria-label=\"pick run {id} to compare\"></td>\
             <td><a href=\"/runs/{id}\"><code>{id}</code></a></td>\
             <td>{suite}</td>\
             <td class=\"status s-{class}\">{shown}</td>\
             <td>{started}</td>\
             <td class=\"num\">{done}/{total}</td>\
             <td>{rates}</td></tr>\n",
            id = escape(&r.id),
            search = escape(&search),
            suite = escape(&r.suite_name),
            shown = escape(shown),
            started = escape(&r.started_at),
            done = r.completed,
            total = r.total,
        ));
    }
    let live = runs.iter().filter(|l| l.is_live()).count();
    let note = match live {
        0 => String::new(),
        n => format!(
            "<p id=\"live\" class=\"muted\" role=\"status\">{n} run{s} running: this list \
             reloads every {REFRESH_SECONDS} s until you type a filter or pick a run.</p>\n",
            s = if n == 1 { "" } else { "s" }
        ),
    };
    let count = match runs.len() {
        1 => "1 run".to_owned(),
        n => format!("{n} runs"),
    };
    let body = format!(
        "<h1>verity runs</h1>\n<p class=\"muted\">{db} · read-only</p>\n\
         <div class=\"bar\">\
         <input id=\"search\" type=\"search\" placeholder=\"Filter: suite, run id, status, variant\" aria-label=\"Filter the runs\" autofocus>\
         <button id=\"compare\" type=\"button\" disabled title=\"Pick two runs: the older one is the baseline\">Compare the two picked</button>\
         <span id=\"count\" class=\"muted\" aria-live=\"polite\">{count}</span></div>\n\
         {note}<table id=\"runs\" data-reload=\"{reload}\">\n<thead><tr><th scope=\"col\">Pick</th><th scope=\"col\">Run</th>\
         <th scope=\"col\">Suite</th><th scope=\"col\">Status</th><th scope=\"col\">Started</th>\
         <th scope=\"col\">Samples</th><th scope=\"col\">Pass rate per variant</th></tr></thead>\n\
         <tbody>\n{rows}</tbody>\n</table>\n\
         <p id=\"empty\" class=\"muted\"{hidden}>{empty}</p>\n<script>\n{SCRIPT}</script>\n",
        db = escape(db),
        reload = if live > 0 { REFRESH_SECONDS * 1000 } else { 0 },
        hidden = if runs.is_empty() { "" } else { " hidden" },
        empty = if runs.is_empty() {
            "No runs yet: <code>verity run SUITE</code> stores one."
        } else {
            "No run matches the filter."
        },
    );
    document("verity · runs", &body)
}

/// The list's behaviour: the filter (every word must appear), and comparing the two runs
/// picked (the older one as A, the baseline).
const SCRIPT: &str = r#"(() => {
  const search = document.getElementById('search');
  const button = document.getElementById('compare');
  const count = document.getElementById('count');
  const empty = document.getElementById('empty');
  const rows = Array.from(document.querySelectorAll('#runs tbody tr'));
  const filter = () => {
    const words = search.value.trim().toLowerCase().split(/\s+/).filter(Boolean);
    let shown = 0;
    for (const row of rows) {
      const hit = words.every((w) => row.dataset.search.includes(w));
      row.hidden = !hit;
      if (hit) shown += 1;
    }
    count.textContent = words.length ? `${shown} of ${rows.length} runs` : `${rows.length} run${rows.length === 1 ? '' : 's'}`;
    empty.hidden = rows.length > 0 && shown > 0;
  };
  const picked = () => rows.filter((row) => row.querySelector('.pick').checked);
  search.addEventListener('input', filter);
  document.getElementById('runs').addEventListener('change', () => {
    button.disabled = picked().length !== 2;
  });
  // While a run is running the list reloads itself, unless the reader is busy with it.
  const reload = Number(document.getElementById('runs').dataset.reload);
  if (reload > 0) {
    setInterval(() => {
      if (search.value === '' && picked().length === 0) window.location.reload();
    }, reload);
  }
  button.addEventListener('click', () => {
    const two = picked();
    if (two.length !== 2) return;
    // Rows are newest first: the older run is A.
    const [b, a] = two.map((row) => encodeURIComponent(row.dataset.id));
    window.location.href = `/compare/${a}/${b}`;
  });
})();
"#;

/// A page for a request that has none: its status and why.
pub fn error_page(status: StatusCode, message: &str) -> String {
    let code = status.as_u16();
    let reason = status.canonical_reason().unwrap_or("error");
    let body = format!(
        "<h1>{code} {reason}</h1>\n<p id=\"error\">{}</p>\n<p><a href=\"/\">All runs</a></p>\n",
        escape(message)
    );
    document(&format!("verity · {code} {reason}"), &body)
}

/// The banner of a report page: the way back to the list, and, while the run is running, how
/// far it has got (the page reloads every [`REFRESH_SECONDS`] until it ends).
pub fn banner(progress: Option<&Progress>) -> String {
    let mut out = format!(
        "<div id=\"{BANNER_ID}\" style=\"display:flex;gap:1rem;align-items:center;flex-wrap:wrap;\
         padding:.5rem .75rem;margin:0 0 1rem;border:1px solid #8886;border-radius:.4rem\">\
         <a href=\"/\">← All runs</a>"
    );
    if let Some(p) = progress {
        let percent = if p.total > 0 {
            format!(" ({:.0}%)", p.completed as f64 * 100.0 / p.total as f64)
        } else {
            String::new()
        };
        out.push_str(&format!(
            "<span role=\"status\" data-completed=\"{done}\" data-total=\"{total}\">\
             Run <code>{id}</code> is {status}: {done} of {total} samples stored{percent}. \
             This page reloads every {REFRESH_SECONDS} s until the run ends.</span>\
             <progress value=\"{done}\" max=\"{max}\"></progress>",
            id = escape(&p.id),
            status = escape(p.status.shown(p.liveness)),
            done = p.completed,
            total = p.total,
            max = p.total.max(1),
        ));
    }
    out.push_str("</div>\n");
    out
}

/// `page` with `banner` first in its body (right after the `<body …>` tag; at the end when the
/// page has no body tag).
pub fn with_banner(page: &str, banner: &str) -> String {
    let at = page
        .find("<body")
        .and_then(|start| page[start..].find('>').map(|end| start + end + 1));
    match at {
        Some(at) => {
            let mut out = String::with_capacity(page.len() + banner.len() + 1);
            out.push_str(&page[..at]);
            out.push('\n');
            out.push_str(banner);
            out.push_str(&page[at..]);
            out
        }
        None => format!("{page}{banner}"),
    }
}

#[cfg(test)]
mod tests {
    use verity_model::{Liveness, RunListing, RunStatus};
    use verity_store::VariantCounts;

    use super::*;

    fn listed(id: &str, suite: &str, status: RunStatus, liveness: Liveness) -> Listed {
        Listed {
            run: RunListing {
                id: id.into(),
                suite_name: suite.into(),
                status,
                started_at: "2026-11-25T09:00:00Z".into(),
                finished_at: None,
                completed: 3,
                total: 4,
                passed: 2,
                errors: 0,
                liveness,
            },
            variants: vec![VariantCounts {
                variant: "base".into(),
                samples: 3,
                pass: 2,
                fail: 1,
                error: 0,
            }],
        }
    }

    #[test]
    fn the_list_shows_each_run_escaped_with_its_shown_status_and_rates() {
        let page = list_page(
            &[
                listed("r1", "<b>x</b>", RunStatus::Running, Liveness::Gone),
                listed("r2", "s", RunStatus::Running, Liveness::Unknown),
            ],
            "db.sqlite",
        );
        assert!(page.contains("&lt;b&gt;x&lt;/b&gt;") && !page.contains("<b>x</b>"));
        assert!(page.contains("s-interrupted\">interrupted<"), "{page}");
        assert!(page.contains("s-unknown\">running?<"), "{page}");
        assert!(page.contains("<code>base</code> 66.7%"), "{page}");
        assert!(page.contains("href=\"/runs/r1\""));
        assert!(page.contains(CONTENT_SECURITY_POLICY));
        assert!(page.contains("2 runs"));
        assert!(page.contains("1 run running") && page.contains("data-reload=\"3000\""));
        let none = list_page(&[], "db");
        assert!(none.contains("No runs yet") && !none.contains("\" hidden>"));
        assert!(none.contains("data-reload=\"0\"") && !none.contains("id=\"live\""));
    }

    #[test]
    fn the_banner_goes_first_in_the_body() {
        let page = "<html><head></head><body class=\"x\"><h1>t</h1></body></html>";
        let out = with_banner(page, "<div id=\"b\"></div>");
        assert!(
            out.contains("<body class=\"x\">\n<div id=\"b\"></div><h1>"),
            "{out}"
        );
        assert_eq!(with_banner("<p>", "B"), "<p>B");
        let p = Progress {
            id: "r".into(),
            suite: "s".into(),
            status: RunStatus::Running,
            liveness: Liveness::Alive,
            completed: 5,
            total: 20,
            finished_at: None,
        };
        let b = banner(Some(&p));
        assert!(b.contains("5 of 20 samples stored (25%)"), "{b}");
        assert!(b.contains("<progress value=\"5\" max=\"20\">"), "{b}");
        assert!(!banner(None).contains("progress"));
    }

    #[test]
    fn error_pages_say_the_status_and_the_reason_escaped() {
        let page = error_page(StatusCode::NOT_FOUND, "no run <x>");
        assert!(page.contains("<h1>404 Not Found</h1>"));
        assert!(page.contains("no run &lt;x&gt;"));
    }
}
