use crate::support::*;

/// A bare dataset against an OpenAI-compatible endpoint over real HTTP, with the API key read
/// from a variable the CLI names; the key never reaches the database or a report.
#[test]
fn openai_endpoint_end_to_end_without_leaking_the_key() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let server = rt.block_on(verity_testkit::FakeServer::start());
    let dir = tempfile::tempdir().unwrap();
    let mut data = String::new();
    for i in 0..30 {
        data.push_str(&format!(
            "{{\"id\": \"q{i}\", \"input\": \"What is {i} + {}?\", \"target\": \"{}\"}}\n",
            i * 3,
            i * 4
        ));
    }
    write_tree(dir.path(), &[("q.jsonl", &data)]);
    let key = "sk-planted-verity-test-0123456789";
    let out = run_ok(
        verity(dir.path())
            .env("VERITY_IT_KEY", key)
            .args([
                "run",
                "q.jsonl",
                "--provider",
                "openai",
                "--model",
                "gpt-4o-mini",
                "--base-url",
            ])
            .arg(server.base_url())
            .args([
                "--api-key-env",
                "VERITY_IT_KEY",
                "--scorer",
                "equals",
                "--concurrency",
                "8",
                "--db",
                "v.db",
            ]),
    );
    let table = stdout(&out);
    let log = stderr(&out);
    let v: serde_json::Value = serde_json::from_str(&stdout(&run_ok(
        verity(dir.path()).args(["report", "latest", "--format", "json", "--db", "v.db"]),
    )))
    .unwrap();
    let tasks = v["per_task"].as_array().unwrap();
    assert_eq!(tasks.len(), 30);
    for t in tasks {
        assert_eq!(
            t["variants"]["default"]["epochs"][0]["outcome"], "pass",
            "{t}"
        );
    }
    let reqs = server.requests();
    assert_eq!(reqs.len(), 30);
    assert!(
        reqs.iter()
            .all(|r| r.header("authorization") == Some(format!("Bearer {key}").as_str()))
    );
    // The key appears nowhere verity wrote.
    let md = stdout(&run_ok(
        verity(dir.path()).args(["report", "latest", "--format", "md", "--db", "v.db"]),
    ));
    for (what, text) in [
        ("table", table),
        ("log", log),
        ("markdown", md),
        ("json", v.to_string()),
    ] {
        assert!(!text.contains(key), "the key leaked into the {what} report");
    }
    for f in std::fs::read_dir(dir.path()).unwrap() {
        let p = f.unwrap().path();
        if p.is_file() {
            let bytes = std::fs::read(&p).unwrap();
            assert!(
                !bytes.windows(key.len()).any(|w| w == key.as_bytes()),
                "the key leaked into {}",
                p.display()
            );
        }
    }
    // A missing key variable fails before any request, naming the variable.
    let before = server.requests().len();
    let out = verity(dir.path())
        .env_remove("VERITY_IT_MISSING")
        .args([
            "run",
            "q.jsonl",
            "--provider",
            "openai",
            "--model",
            "m",
            "--base-url",
        ])
        .arg(server.base_url())
        .args([
            "--api-key-env",
            "VERITY_IT_MISSING",
            "--scorer",
            "equals",
            "--db",
            "v.db",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("VERITY_IT_MISSING"),
        "{}",
        stderr(&out)
    );
    assert_eq!(server.requests().len(), before);
}
