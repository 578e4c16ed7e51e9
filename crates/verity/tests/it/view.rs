//! `verity view`: the real binary serving a real store on a free port, read over HTTP (every
//! endpoint, their statuses and content types, 404s and 400s), its loopback stance, its clean
//! stop on SIGTERM, the live progress of a run going on beside it (which it never blocks: the
//! database is opened read-only), and the pages in headless Chromium.

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::support::*;

/// Two variants that disagree on one task: `b` misses `words`.
const SUITE: &str = r#"name = "viewed"
tasks = "tasks.jsonl"

[defaults]
provider = "mock"

[[scorers]]
kind = "equals"

[[variants]]
name = "a"

[[variants]]
name = "b"
prompt_text = "Tersely: {{ prompt }}"
"#;

const TASKS: &str = r#"{"id": "add", "input": "2 + 2", "target": "4"}
{"id": "words", "input": "say hi", "target": "hi", "metadata": {"mock_response": {"b": "hello", "default": "hi"}}}
{"id": "more", "input": "3 + 3", "target": "6"}
"#;

/// A `verity view ARGS…` process on a free port, killed when dropped; its URL without the
/// final `/`.
struct Viewer;

impl Viewer {
    fn start(dir: &Path, db: &Path, args: &[&str]) -> Listening {
        let mut cmd = verity(dir);
        cmd.args(["view", "--port", "0", "--db"]).arg(db).args(args);
        let mut l = Listening::start(cmd);
        l.url = l.url.trim_end_matches('/').to_owned();
        l
    }
}

/// A response read whole: status, content type, the `Refresh` header, body.
struct Got {
    status: u16,
    content_type: String,
    refresh: Option<String>,
    csp: Option<String>,
    length: Option<u64>,
    body: String,
}

impl Got {
    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }
}

struct Client {
    rt: tokio::runtime::Runtime,
    http: reqwest::Client,
}

impl Client {
    fn new() -> Client {
        Client {
            rt: tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap(),
            http: reqwest::Client::builder()
                .timeout(Duration::from_secs(60))
                .build()
                .unwrap(),
        }
    }

    fn request(&self, method: reqwest::Method, url: &str) -> Got {
        self.rt.block_on(async {
            let r = self.http.request(method, url).send().await.unwrap();
            let header = |name: &str| {
                r.headers()
                    .get(name)
                    .map(|v| v.to_str().unwrap().to_owned())
            };
            let (status, content_type, refresh, csp) = (
                r.status().as_u16(),
                header("content-type").unwrap_or_default(),
                header("refresh"),
                header("content-security-policy"),
            );
            let length = header("content-length").map(|l| l.parse().unwrap());
            Got {
                status,
                content_type,
                refresh,
                csp,
                length,
                body: r.text().await.unwrap(),
            }
        })
    }

    fn get(&self, url: &str) -> Got {
        self.request(reqwest::Method::GET, url)
    }
}

/// A store with two finished runs of the mock suite; their ids, oldest first.
fn store_with_runs(d: &Path) -> (std::path::PathBuf, Vec<String>) {
    write_tree(d, &[("s/suite.toml", SUITE), ("s/tasks.jsonl", TASKS)]);
    let db = d.join("v.db");
    for _ in 0..2 {
        run_ok(verity(d).args(["run", "s", "-q", "--db"]).arg(&db));
    }
    let out = run_ok(
        verity(d)
            .args(["runs", "--format", "json", "--db"])
            .arg(&db),
    );
    let runs: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let mut ids: Vec<String> = runs
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap().to_owned())
        .collect();
    ids.reverse();
    (db, ids)
}

/// The bytes and modification times of the database and of its write-ahead log (where a
/// write would land first), to show nothing wrote them.
fn fingerprint(db: &Path) -> Vec<(Vec<u8>, std::time::SystemTime)> {
    let wal = db.with_extension("db-wal");
    [db, wal.as_path()]
        .iter()
        .filter(|p| p.exists())
        .map(|p| {
            (
                std::fs::read(p).unwrap(),
                std::fs::metadata(p).unwrap().modified().unwrap(),
            )
        })
        .collect()
}

#[test]
fn view_serves_every_page_and_document_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (db, ids) = store_with_runs(d);
    let (old, new) = (&ids[0], &ids[1]);
    let before = fingerprint(&db);
    let viewer = Viewer::start(d, &db, &[]);
    assert!(
        viewer.url.starts_with("http://127.0.0.1:"),
        "{}",
        viewer.url
    );
    assert!(
        viewer.before.iter().all(|l| !l.contains("warning")),
        "{:?}",
        viewer.before
    );
    let c = Client::new();
    let u = |p: &str| format!("{}{p}", viewer.url);

    let list = c.get(&u("/"));
    assert_eq!(list.status, 200);
    assert_eq!(list.content_type, "text/html; charset=utf-8");
    assert_eq!(
        list.csp.as_deref(),
        Some(verity_report::CONTENT_SECURITY_POLICY)
    );
    for id in &ids {
        assert!(list.body.contains(&format!("href=\"/runs/{id}\"")), "{id}");
    }
    assert!(list.body.contains("id=\"search\""));
    assert!(list.body.contains(">completed<"));
    assert!(list.body.contains("<code>b</code> 66.7%"), "{}", list.body);
    assert!(!list.body.contains("src=\"http"), "nothing is loaded");

    let runs = c.get(&u("/api/runs"));
    assert_eq!(runs.status, 200);
    assert_eq!(runs.content_type, "application/json");
    let runs = runs.json();
    let runs = runs.as_array().unwrap();
    assert_eq!(runs.len(), 2);
    assert_eq!(runs[0]["id"], new.as_str());
    assert_eq!(runs[0]["status"], "completed");
    assert_eq!(runs[0]["completed"], 6);
    let b = runs[0]["variants"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["variant"] == "b")
        .unwrap();
    assert_eq!(
        (b["samples"].as_u64(), b["pass"].as_u64()),
        (Some(3), Some(2))
    );

    // The run page is `verity report --format html`'s page with the banner first in its body.
    let page = c.get(&u(&format!("/runs/{new}")));
    assert_eq!(page.status, 200);
    assert_eq!(page.content_type, "text/html; charset=utf-8");
    assert!(page.body.contains("id=\"verity-data\""));
    assert!(page.body.contains("id=\"verity-view-banner\""));
    assert!(
        page.refresh.is_none(),
        "a finished run's page does not reload"
    );
    let report = run_ok(
        verity(d)
            .args(["report", new, "--format", "html", "--db"])
            .arg(&db),
    );
    let data = |html: &str| -> Value {
        let start = html.find("id=\"verity-data\">").unwrap() + "id=\"verity-data\">".len();
        let end = start + html[start..].find("</script>").unwrap();
        serde_json::from_str(&html[start..end]).unwrap()
    };
    assert_eq!(data(&page.body), data(&stdout(&report)));

    // The JSON report is `verity report --format json`'s document.
    let doc = c.get(&u(&format!("/api/runs/{new}")));
    assert_eq!(doc.status, 200);
    assert_eq!(doc.content_type, "application/json");
    let report = run_ok(
        verity(d)
            .args(["report", new, "--format", "json", "--db"])
            .arg(&db),
    );
    assert_eq!(
        doc.json(),
        serde_json::from_str::<Value>(&stdout(&report)).unwrap()
    );
    // Prefixes and `latest` name runs here as on the command line.
    assert_eq!(c.get(&u("/api/runs/latest")).json(), doc.json());

    let progress = c.get(&u(&format!("/api/runs/{old}/progress"))).json();
    assert_eq!(progress["status"], "completed");
    assert_eq!(progress["running"], false);
    assert_eq!(
        (progress["completed"].as_u64(), progress["total"].as_u64()),
        (Some(6), Some(6))
    );
    assert_eq!(progress["fraction"], 1.0);

    // The comparison is `verity compare A B --format html`'s.
    let cmp = c.get(&u(&format!("/compare/{old}/{new}")));
    assert_eq!(cmp.status, 200);
    assert_eq!(cmp.content_type, "text/html; charset=utf-8");
    let cli = run_ok(
        verity(d)
            .args(["compare", old, new, "--format", "html", "--db"])
            .arg(&db),
    );
    assert_eq!(data(&cmp.body), data(&stdout(&cli)));
    let cmp = c.get(&u(&format!("/api/compare/{old}:a/{new}:b")));
    assert_eq!(cmp.status, 200);
    assert!(cmp.json().is_object());

    // Unknown runs and paths are 404s, bad ones 400s: as pages, or as JSON under /api.
    let missing = c.get(&u("/runs/19990101-000000-dead"));
    assert_eq!(missing.status, 404);
    assert_eq!(missing.content_type, "text/html; charset=utf-8");
    assert!(missing.body.contains("404 Not Found"), "{}", missing.body);
    let missing = c.get(&u("/api/runs/19990101-000000-dead/progress"));
    assert_eq!(missing.status, 404);
    assert!(
        missing.json()["error"]
            .as_str()
            .unwrap()
            .contains("19990101-000000-dead")
    );
    assert_eq!(c.get(&u("/compare/nope/latest")).status, 404);
    assert_eq!(c.get(&u("/no/such/page")).status, 404);
    assert_eq!(c.get(&u("/runs/%3Cscript%3E")).status, 400);
    assert_eq!(c.get(&u("/compare/only-one")).status, 400);
    let bad = c.get(&u("/api/runs/a%20b"));
    assert_eq!(bad.status, 400);
    assert!(bad.json()["error"].is_string());
    // Ambiguous prefix: both runs start with the date.
    assert_eq!(c.get(&u("/runs/2")).status, 400);
    assert_eq!(c.request(reqwest::Method::POST, &u("/")).status, 405);
    let head = c.request(reqwest::Method::HEAD, &u("/api/runs"));
    assert_eq!((head.status, head.body.as_str()), (200, ""));
    assert_eq!(
        head.length,
        Some(c.get(&u("/api/runs")).body.len() as u64),
        "HEAD says how long GET's body is"
    );

    // Concurrent requests are fine.
    let handles: Vec<_> = (0..8)
        .map(|i| {
            let url = if i % 2 == 0 {
                u(&format!("/runs/{old}"))
            } else {
                u("/api/runs")
            };
            std::thread::spawn(move || Client::new().get(&url).status)
        })
        .collect();
    for h in handles {
        assert_eq!(h.join().unwrap(), 200);
    }

    assert_eq!(viewer.terminate(), Some(0), "SIGTERM stops it cleanly");
    assert!(fingerprint(&db) == before, "the database was not written");
}

#[test]
fn view_binds_loopback_unless_told_otherwise_and_warns_then() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (db, _) = store_with_runs(d);
    let open = Viewer::start(d, &db, &["--host", "0.0.0.0"]);
    assert!(open.url.starts_with("http://0.0.0.0:"), "{}", open.url);
    assert!(
        open.before
            .iter()
            .any(|l| l.contains("warning") && l.contains("not a loopback address")),
        "{:?}",
        open.before
    );
    let port = open.url.rsplit(':').next().unwrap().to_owned();
    let c = Client::new();
    assert_eq!(
        c.get(&format!("http://127.0.0.1:{port}/api/runs")).status,
        200
    );
    assert_eq!(open.terminate(), Some(0));

    let quiet = Viewer::start(d, &db, &["--host", "localhost"]);
    assert!(
        quiet.before.iter().all(|l| !l.contains("warning")),
        "{:?}",
        quiet.before
    );
    assert_eq!(quiet.terminate(), Some(0));
}

#[test]
fn view_needs_an_existing_store_and_a_free_port() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let out = run_code(
        verity(d).args(["view", "--port", "0", "--db", "none.db"]),
        2,
    );
    assert!(
        stderr(&out).contains("no database at none.db"),
        "{}",
        stderr(&out)
    );
    assert!(!d.join("none.db").exists(), "nothing was created");
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let (db, _) = store_with_runs(d);
    let busy = verity(d)
        .args(["view", "--port", &port, "--db"])
        .arg(&db)
        .output()
        .unwrap();
    assert_ne!(busy.status.code(), Some(0));
    assert!(
        stderr(&busy).contains("cannot listen there"),
        "{}",
        stderr(&busy)
    );
}

#[test]
fn view_shows_a_running_run_progressing_until_it_finishes() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut tasks = String::new();
    for i in 0..60 {
        tasks.push_str(&format!(
            "{{\"id\": \"t{i:02}\", \"input\": \"{i} + 1\", \"target\": \"{}\"}}\n",
            i + 1
        ));
    }
    write_tree(
        d,
        &[
            (
                "slow/suite.toml",
                "name = \"slow\"\ntasks = \"tasks.jsonl\"\n[defaults]\nprovider = \"mock\"\n\
                 options = { latency_ms = 60 }\n[[scorers]]\nkind = \"equals\"\n",
            ),
            ("slow/tasks.jsonl", &tasks),
        ],
    );
    let db = d.join("live.db");
    // The viewer needs a store: a first, quick run makes it.
    write_tree(d, &[("s/suite.toml", SUITE), ("s/tasks.jsonl", TASKS)]);
    run_ok(verity(d).args(["run", "s", "-q", "--db"]).arg(&db));
    let viewer = Viewer::start(d, &db, &[]);
    let mut run = verity(d)
        .args(["run", "slow", "--concurrency", "1", "--quiet", "--db"])
        .arg(&db)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let c = Client::new();
    let u = |p: &str| format!("{}{p}", viewer.url);
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut seen: Vec<u64> = Vec::new();
    let mut saw_live_page = false;
    let finished = loop {
        assert!(
            Instant::now() < deadline,
            "no end of the run in sight: {seen:?}"
        );
        std::thread::sleep(Duration::from_millis(150));
        let latest = c.get(&u("/api/runs/latest/progress"));
        assert_eq!(latest.status, 200, "{}", latest.body);
        let p = latest.json();
        if p["suite"] != "slow" {
            continue; // not started yet
        }
        assert_eq!(p["total"], 60);
        let done = p["completed"].as_u64().unwrap();
        if p["running"] == true {
            assert_eq!(p["status"], "running");
            seen.push(done);
            if !saw_live_page && done > 0 {
                let page = c.get(&u("/runs/latest"));
                if page.status == 200 && page.refresh.is_some() {
                    assert_eq!(page.refresh.as_deref(), Some("3"));
                    assert!(page.body.contains("samples stored"), "{}", page.body);
                    saw_live_page = true;
                }
            }
        } else if p["status"] == "completed" {
            break p;
        }
    };
    let status = run.wait().unwrap();
    assert!(
        status.success(),
        "the run beside the viewer finished: {status:?}"
    );
    assert_eq!(finished["completed"], 60);
    assert_eq!(finished["fraction"], 1.0);
    assert!(
        saw_live_page,
        "the running run's page showed its progress: {seen:?}"
    );
    assert!(seen.windows(2).all(|w| w[0] <= w[1]), "{seen:?}");
    assert!(
        seen.first() < seen.last() && seen.len() >= 3,
        "progress went up while it ran: {seen:?}"
    );
    let page = c.get(&u("/runs/latest"));
    assert!(
        page.refresh.is_none(),
        "a finished run's page stops reloading"
    );
    assert!(!page.body.contains("samples stored"));
    assert_eq!(viewer.terminate(), Some(0));
}

#[test]
fn view_in_a_browser_filters_opens_and_compares() {
    let Some(chromium) = verity_testkit::browser::Chromium::find() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "chromium is missing (.ci/run installs Debian's chromium)"
        );
        eprintln!("skipping: no chromium on this machine (set VERITY_CHROMIUM)");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (db, ids) = store_with_runs(d);
    // A third run of another suite, for the filter to tell apart.
    write_tree(
        d,
        &[
            (
                "other/suite.toml",
                "name = \"another\"\ntasks = \"tasks.jsonl\"\n[defaults]\nprovider = \"mock\"\n\
                 [[scorers]]\nkind = \"equals\"\n",
            ),
            ("other/tasks.jsonl", TASKS),
        ],
    );
    run_ok(verity(d).args(["run", "other", "-q", "--db"]).arg(&db));
    let viewer = Viewer::start(d, &db, &[]);
    let browser = chromium.launch().unwrap();

    let page = browser.open(&format!("{}/", viewer.url)).unwrap();
    page.wait_for("#runs tbody tr").unwrap();
    let visible =
        "Array.from(document.querySelectorAll('#runs tbody tr')).filter(r => !r.hidden).length";
    assert_eq!(page.eval(visible).unwrap(), 3);
    page.type_into("#search", "another").unwrap();
    assert_eq!(page.eval(visible).unwrap(), 1);
    assert!(
        page.eval("document.getElementById('count').textContent")
            .unwrap()
            .as_str()
            .unwrap()
            .contains("1 of 3"),
    );
    page.eval("(() => { const s = document.getElementById('search'); s.value = ''; s.dispatchEvent(new Event('input')); })()")
        .unwrap();
    assert_eq!(page.eval(visible).unwrap(), 3);
    // Pick the two runs of `viewed` and compare them.
    assert_eq!(
        page.eval("document.getElementById('compare').disabled")
            .unwrap(),
        true
    );
    for id in &ids {
        page.click(&format!("tr[data-id=\"{id}\"] .pick")).unwrap();
    }
    assert_eq!(
        page.eval("document.getElementById('compare').disabled")
            .unwrap(),
        false
    );
    page.click("#compare").unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    // Mid-navigation the page may have no context to evaluate in: ask again.
    while !page
        .eval("location.pathname")
        .ok()
        .and_then(|p| p.as_str().map(|p| p.starts_with("/compare/")))
        .unwrap_or(false)
    {
        assert!(Instant::now() < deadline, "the compare button went nowhere");
        std::thread::sleep(Duration::from_millis(100));
    }
    page.wait_for("#verity-data").unwrap();
    assert_eq!(
        page.eval("location.pathname").unwrap(),
        format!("/compare/{}/{}", ids[0], ids[1]).as_str()
    );
    assert!(page.errors().is_empty(), "{:?}", page.errors());
    page.screenshot(&d.join("compare.png")).unwrap();

    let run = browser
        .open(&format!("{}/runs/{}", viewer.url, ids[1]))
        .unwrap();
    run.wait_for("#verity-data").unwrap();
    run.wait_for("#verity-view-banner a[href=\"/\"]").unwrap();
    let title = run.eval("document.title").unwrap();
    assert!(title.as_str().unwrap().contains(&ids[1]), "{title}");
    // Let the page's script run its course before looking for errors.
    std::thread::sleep(Duration::from_millis(500));
    assert!(run.errors().is_empty(), "{:?}", run.errors());
    let shot = d.join("run.png");
    run.screenshot(&shot).unwrap();
    assert_eq!(&std::fs::read(&shot).unwrap()[..8], b"\x89PNG\r\n\x1a\n");

    let missing = browser
        .open(&format!("{}/runs/19990101-000000-dead", viewer.url))
        .unwrap();
    missing.wait_for("#error").unwrap();
    assert_eq!(viewer.terminate(), Some(0));
}

#[test]
fn view_shows_a_killed_run_as_interrupted_and_stops_reloading_it() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut tasks = String::new();
    for i in 0..200 {
        tasks.push_str(&format!(
            "{{\"id\": \"t{i:03}\", \"input\": \"{i}\", \"target\": \"{i}\"}}\n"
        ));
    }
    write_tree(
        d,
        &[
            (
                "slow/suite.toml",
                "name = \"doomed\"\ntasks = \"tasks.jsonl\"\n[defaults]\nprovider = \"mock\"\n\
                 options = { latency_ms = 30 }\n[[scorers]]\nkind = \"equals\"\n",
            ),
            ("slow/tasks.jsonl", &tasks),
        ],
    );
    let db = d.join("k.db");
    let mut run = verity(d)
        .args(["run", "slow", "--concurrency", "1", "--quiet", "--db"])
        .arg(&db)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while verity_store::Store::open_read_only(&db)
        .ok()
        .and_then(|s| s.list_runs().ok())
        .and_then(|r| r.first().map(|r| r.completed))
        .unwrap_or(0)
        < 5
    {
        assert!(Instant::now() < deadline, "the run made no progress");
        std::thread::sleep(Duration::from_millis(50));
    }
    let viewer = Viewer::start(d, &db, &[]);
    let c = Client::new();
    let u = |p: &str| format!("{}{p}", viewer.url);
    let live = c.get(&u("/runs/latest"));
    assert_eq!(live.refresh.as_deref(), Some("3"));
    let list = c.get(&u("/")).body;
    assert!(
        list.contains(">running<") && list.contains("1 run running"),
        "{list}"
    );
    run.kill().unwrap(); // SIGKILL: the run stays stored as running, its process gone
    run.wait().unwrap();
    let list = c.get(&u("/"));
    assert!(
        list.body.contains("s-interrupted\">interrupted<"),
        "{}",
        list.body
    );
    assert!(
        list.body.contains("data-reload=\"0\""),
        "the list stops reloading"
    );
    assert_eq!(c.get(&u("/api/runs")).json()[0]["status"], "interrupted");
    let p = c.get(&u("/api/runs/latest/progress")).json();
    assert_eq!(
        (p["status"].as_str(), p["running"].as_bool()),
        (Some("interrupted"), Some(false))
    );
    assert!(p["completed"].as_u64().unwrap() < 200);
    let page = c.get(&u("/runs/latest"));
    assert_eq!(page.status, 200);
    assert!(
        page.refresh.is_none(),
        "an interrupted run's page does not reload"
    );
    assert_eq!(viewer.terminate(), Some(0));
}
