//! Credentials planted in a base URL reach the server and nothing verity writes.

use std::path::Path;

use crate::support::*;

const PASSWORD: &str = "pw-PLANTED-7d1c0ffee";
const QUERY_KEY: &str = "qk-PLANTED-0badcafe";
const ENV_KEY: &str = "sk-PLANTED-env-5eed";

/// Every file under `dir`, recursively, with its bytes.
fn files(dir: &Path) -> Vec<(std::path::PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(files(&p));
        } else {
            let bytes = std::fs::read(&p).unwrap();
            out.push((p, bytes));
        }
    }
    out
}

fn has(hay: &[u8], needle: &str) -> bool {
    hay.windows(needle.len()).any(|w| w == needle.as_bytes())
}

#[test]
fn credentials_in_a_base_url_are_stored_nowhere() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let server = rt.block_on(verity_testkit::FakeServer::start());
    let dir = tempfile::tempdir().unwrap();
    let mut tasks = String::new();
    for i in 0..6 {
        tasks.push_str(&format!(
            "{{\"id\": \"q{i}\", \"input\": \"What is {i} + {i}?\", \"target\": \"{}\"}}\n",
            2 * i
        ));
    }
    write_tree(
        dir.path(),
        &[
            (
                "s/suite.toml",
                "name = \"creds\"\ntasks = \"tasks.jsonl\"\n[[scorers]]\nkind = \"equals\"\n\
                 [report]\nmarkdown = \"out/audit.md\"\njson = \"out/{run}.json\"\ntoolcalls = true\n",
            ),
            ("s/tasks.jsonl", &tasks),
        ],
    );
    let base = server.base_url();
    let planted = format!(
        "http://verity-user:{PASSWORD}@{}?api-version=7&api_key={QUERY_KEY}",
        base.trim_start_matches("http://")
    );
    // The database exists and a connection holds it open while verity runs, so verity's
    // writes stay in the write-ahead log (SQLite deletes it when the last connection closes):
    // the log is searched too.
    let db = dir.path().join("v.db");
    drop(verity_store::Store::open(&db).unwrap());
    let holder = rusqlite::Connection::open(&db).unwrap();
    let _: i64 = holder
        .query_row("SELECT count(*) FROM runs", [], |r| r.get(0))
        .unwrap();

    let mut logs = Vec::new();
    let out = run_ok(
        verity(dir.path())
            .env("VERITY_IT_KEY", ENV_KEY)
            .args(["run", "s", "--provider", "openai", "--model", "gpt-4o-mini"])
            .args(["--base-url", &planted])
            .args(["--api-key-env", "VERITY_IT_KEY", "--db", "v.db"]),
    );
    logs.push(("run stdout", stdout(&out)));
    logs.push(("run stderr", stderr(&out)));
    for format in ["json", "md", "table"] {
        let out = run_ok(
            verity(dir.path()).args(["report", "latest", "--format", format, "--db", "v.db"]),
        );
        logs.push(("report", stdout(&out)));
    }
    let out = run_ok(verity(dir.path()).args(["runs", "--format", "json", "--db", "v.db"]));
    logs.push(("runs", stdout(&out)));

    // The credentials did their job: every request carried them.
    let reqs = server.requests();
    assert_eq!(reqs.len(), 6);
    for r in &reqs {
        assert!(
            r.query.as_deref().is_some_and(|q| q.contains(QUERY_KEY)),
            "{:?}",
            r.query
        );
    }

    let wal = dir.path().join("v.db-wal");
    let wal_len = std::fs::metadata(&wal).map(|m| m.len()).unwrap_or(0);
    assert!(
        wal_len > 0,
        "the run's writes should be in {}",
        wal.display()
    );
    let all = files(dir.path());
    for name in ["v.db", "v.db-wal", "out/audit.md"] {
        assert!(all.iter().any(|(p, _)| p.ends_with(name)), "{name} missing");
    }
    for suffix in [".json", "-toolcalls.jsonl"] {
        assert!(
            all.iter()
                .any(|(p, _)| p.to_string_lossy().ends_with(suffix)),
            "no {suffix} report"
        );
    }
    for secret in [PASSWORD, QUERY_KEY, ENV_KEY] {
        for (path, bytes) in &all {
            assert!(!has(bytes, secret), "{secret} is in {}", path.display());
        }
        for (what, text) in &logs {
            assert!(!text.contains(secret), "{secret} is in the {what} output");
        }
    }
    // What is kept of the URL: the endpoint and its harmless parameters.
    let meta: String = holder
        .query_row("SELECT meta_json FROM runs", [], |r| r.get(0))
        .unwrap();
    let shown = format!("{base}?api-version=7&api_key=[redacted]");
    assert!(meta.contains(&shown), "{meta}");
    // Resuming cannot send the stripped credentials: it says so before any request.
    holder
        .execute_batch(
            "UPDATE runs SET status = 'interrupted';
             DELETE FROM samples WHERE task_id = 'q0';",
        )
        .unwrap();
    let out = verity(dir.path())
        .args(["run", "--resume", "latest", "--db", "v.db"])
        .output()
        .unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("credentials") && err.contains("api_key_env"),
        "{err}"
    );
    assert_eq!(server.requests().len(), 6);
    for secret in [PASSWORD, QUERY_KEY, ENV_KEY] {
        assert!(!err.contains(secret));
    }
    drop(holder);
    // Closing the last connection folds the log into the file: still nothing.
    drop(verity_store::Store::open(&db).unwrap());
    let bytes = std::fs::read(&db).unwrap();
    for secret in [PASSWORD, QUERY_KEY, ENV_KEY] {
        assert!(
            !has(&bytes, secret),
            "{secret} is in the checkpointed database"
        );
    }
}
