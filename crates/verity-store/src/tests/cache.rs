use verity_model::{Artifact, Generation, ToolCall, Usage};

use crate::{CACHE_NAMESPACE, CachePrune, MIGRATIONS, Store, StoreError, Write};

fn entry(text: &str) -> Generation {
    Generation {
        text: text.into(),
        tool_calls: vec![ToolCall {
            id: Some("c1".into()),
            name: "search".into(),
            arguments: serde_json::json!({"q": text}),
            result: None,
            error: None,
        }],
        usage: Usage {
            input_tokens: 7,
            output_tokens: 3,
        },
        model: Some("m-2026".into()),
        finish_reason: Some("stop".into()),
        raw: format!("{{\"choices\":[{{\"text\":{text:?}}}]}}"),
        // A pipeline's stage results travel with the cached answer.
        artifacts: vec![Artifact::new("api_ir", serde_json::json!({"q": text}))],
    }
}

fn put(key: &str, provider: &str, model: &str, created_at: &str, text: &str) -> Write {
    Write::CachePut {
        key: key.into(),
        provider: provider.into(),
        model: model.into(),
        created_at: created_at.into(),
        entry: entry(text),
    }
}

/// Stores an entry under another namespace, as an older verity would have.
fn put_other_namespace(s: &Store, ns: &str, key: &str) {
    s.conn
        .execute(
            "INSERT INTO cache (namespace, key, provider, model, created_at, bytes, entry_json)
             VALUES (?1, ?2, 'openai', 'gpt', '2026-01-01T00:00:00Z', 2, '{}')",
            [ns, key],
        )
        .unwrap();
}

fn count(s: &Store) -> i64 {
    s.conn
        .query_row("SELECT COUNT(*) FROM cache", [], |r| r.get(0))
        .unwrap()
}

#[test]
fn put_then_get_replaces_and_ignores_other_namespaces() {
    let mut s = Store::open_in_memory().unwrap();
    assert_eq!(s.cache_get("k1").unwrap(), None);
    s.write(&[put("k1", "openai", "gpt", "2026-01-01T00:00:00Z", "first")])
        .unwrap();
    assert_eq!(s.cache_get("k1").unwrap(), Some(entry("first")));
    assert_eq!(s.cache_get("k2").unwrap(), None);

    // INSERT OR REPLACE: the same key holds the newest entry, once.
    s.write(&[put("k1", "openai", "gpt", "2026-01-02T00:00:00Z", "second")])
        .unwrap();
    assert_eq!(s.cache_get("k1").unwrap(), Some(entry("second")));
    assert_eq!(count(&s), 1);
    let bytes: i64 = s
        .conn
        .query_row(
            "SELECT bytes FROM cache WHERE key = 'k1' AND bytes = length(CAST(entry_json AS BLOB))",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(
        bytes as usize,
        serde_json::to_string(&entry("second")).unwrap().len()
    );

    // An entry of another namespace under the same key is never returned.
    put_other_namespace(&s, "gen-v0", "k9");
    assert_eq!(s.cache_get("k9").unwrap(), None);

    // A corrupt entry is an error, not a panic and not a silent hit.
    s.conn
        .execute(
            "UPDATE cache SET entry_json = 'not json' WHERE namespace = ?1 AND key = 'k1'",
            [CACHE_NAMESPACE],
        )
        .unwrap();
    assert!(matches!(s.cache_get("k1"), Err(StoreError::Corrupt { .. })));
}

#[test]
fn stats_count_the_current_namespace() {
    let mut s = Store::open_in_memory().unwrap();
    let empty = s.cache_stats().unwrap();
    assert_eq!(empty.namespace, CACHE_NAMESPACE);
    assert_eq!(
        (empty.entries, empty.bytes, empty.other_namespaces),
        (0, 0, 0)
    );
    assert_eq!((empty.oldest, empty.newest), (None, None));
    assert!(empty.by_model.is_empty());

    s.write(&[
        // Mixed precision: `…00.5Z` sorts before `…00Z` as a string, yet it is later.
        put("a", "openai", "gpt", "2026-01-01T00:00:00.5Z", "a"),
        put("b", "openai", "gpt", "2026-01-01T00:00:00Z", "bb"),
        put("c", "mock", "echo", "2026-01-03T10:00:00+02:00", "ccc"),
        put("d", "openai", "mini", "2026-01-03T07:00:00Z", "dddd"),
    ])
    .unwrap();
    put_other_namespace(&s, "gen-v0", "z1");
    put_other_namespace(&s, "gen-v0", "z2");
    let st = s.cache_stats().unwrap();
    let size = |t: &str| serde_json::to_string(&entry(t)).unwrap().len() as u64;
    assert_eq!(st.entries, 4);
    assert_eq!(
        st.bytes,
        size("a") + size("bb") + size("ccc") + size("dddd")
    );
    assert_eq!(st.other_namespaces, 2);
    assert_eq!(st.oldest.as_deref(), Some("2026-01-01T00:00:00Z"));
    // 10:00+02:00 is 08:00Z, later than 07:00Z.
    assert_eq!(st.newest.as_deref(), Some("2026-01-03T10:00:00+02:00"));
    assert_eq!(
        st.by_model,
        vec![
            ("mock".into(), "echo".into(), 1, size("ccc")),
            ("openai".into(), "gpt".into(), 2, size("a") + size("bb")),
            ("openai".into(), "mini".into(), 1, size("dddd")),
        ]
    );
}

#[test]
fn prune_by_age_model_namespace_and_all() {
    let mut s = Store::open_in_memory().unwrap();
    s.write(&[
        put("old-gpt", "openai", "gpt", "2026-01-01T00:00:00Z", "1"),
        put("edge-gpt", "openai", "gpt", "2026-01-21T00:00:00.000Z", "2"),
        put("new-gpt", "openai", "gpt", "2026-01-30T00:00:00Z", "3"),
        put("old-echo", "mock", "echo", "2025-12-01T00:00:00Z", "4"),
        put("new-echo", "mock", "echo", "2026-01-30T00:00:00Z", "5"),
        put("junk-time", "mock", "echo", "yesterday", "6"),
    ])
    .unwrap();
    put_other_namespace(&s, "gen-v0", "z1");
    let now = "2026-01-31T00:00:00Z".to_string();

    // Nothing selected: nothing deleted.
    let nothing = CachePrune {
        now: now.clone(),
        ..CachePrune::default()
    };
    assert_eq!(s.cache_prune(&nothing).unwrap(), 0);
    assert_eq!(count(&s), 7);

    // An unreadable `now` is an error when the age matters, and deletes nothing.
    let bad_now = CachePrune {
        older_than_days: Some(10),
        now: "soon".into(),
        ..CachePrune::default()
    };
    assert!(matches!(
        s.cache_prune(&bad_now),
        Err(StoreError::InvalidTime { .. })
    ));
    assert_eq!(count(&s), 7);

    // Age and model together: only entries matching both, in any namespace (the old entry
    // `z1` is openai/gpt too). Exactly 10 days old stays.
    let old_gpt = CachePrune {
        older_than_days: Some(10),
        model: Some("openai/gpt".into()),
        now: now.clone(),
        ..CachePrune::default()
    };
    assert_eq!(s.cache_prune(&old_gpt).unwrap(), 2);
    assert_eq!(s.cache_stats().unwrap().other_namespaces, 0);
    assert!(s.cache_get("old-gpt").unwrap().is_none());
    assert!(s.cache_get("edge-gpt").unwrap().is_some());
    assert!(s.cache_get("old-echo").unwrap().is_some());

    // Age alone: old entries of every model (and the unreadable time counts as old).
    let old = CachePrune {
        older_than_days: Some(5),
        now: now.clone(),
        ..CachePrune::default()
    };
    assert_eq!(s.cache_prune(&old).unwrap(), 3);
    for gone in ["edge-gpt", "old-echo", "junk-time"] {
        assert!(s.cache_get(gone).unwrap().is_none(), "{gone}");
    }

    // Model alone, by its bare name.
    let echo = CachePrune {
        model: Some("echo".into()),
        now: now.clone(),
        ..CachePrune::default()
    };
    assert_eq!(s.cache_prune(&echo).unwrap(), 1);
    assert!(s.cache_get("new-echo").unwrap().is_none());
    assert!(s.cache_get("new-gpt").unwrap().is_some());

    // Other namespaces only.
    put_other_namespace(&s, "gen-v0", "z2");
    let others = CachePrune {
        other_namespaces: true,
        now: now.clone(),
        ..CachePrune::default()
    };
    assert_eq!(s.cache_prune(&others).unwrap(), 1);
    assert_eq!(s.cache_stats().unwrap().other_namespaces, 0);
    assert_eq!(count(&s), 1);

    // All, across namespaces.
    put_other_namespace(&s, "gen-v2", "z3");
    let all = CachePrune {
        all: true,
        now,
        ..CachePrune::default()
    };
    assert_eq!(s.cache_prune(&all).unwrap(), 2);
    assert_eq!(count(&s), 0);
}

#[test]
fn reads_run_beside_the_writer() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v.db");
    let mut writer = Store::open(&path).unwrap();
    let reader = Store::open(&path).unwrap();
    const N: usize = 200;
    std::thread::scope(|scope| {
        let w = scope.spawn(move || {
            for i in 0..N {
                writer
                    .write(&[put(
                        &format!("k{i}"),
                        "openai",
                        "gpt",
                        "2026-01-01T00:00:00Z",
                        &format!("answer {i}"),
                    )])
                    .unwrap();
            }
        });
        // Each pass reads every key later than the previous pass did, so what it sees only
        // grows; the pass that starts after the writer finished sees everything.
        let mut last = 0;
        loop {
            let done = w.is_finished();
            let mut seen = 0;
            for i in 0..N {
                if let Some(e) = reader.cache_get(&format!("k{i}")).unwrap() {
                    assert_eq!(e, entry(&format!("answer {i}")));
                    seen += 1;
                }
            }
            assert!(seen >= last, "{seen} < {last}");
            last = seen;
            if done {
                break;
            }
        }
        assert_eq!(last, N);
        w.join().unwrap();
    });
    assert_eq!(reader.cache_stats().unwrap().entries, N as u64);
}

#[test]
fn an_old_database_gains_the_cache_and_keeps_its_runs() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v1.db");
    {
        let c = rusqlite::Connection::open(&path).unwrap();
        c.execute_batch(MIGRATIONS[0]).unwrap();
        c.execute_batch("PRAGMA user_version = 1").unwrap();
        // A run row as the first schema had it (no owner), stored as running.
        let meta = super::meta("old", "2026-01-01T00:00:00Z");
        c.execute(
            "INSERT INTO runs (id, suite_name, suite_path, suite_hash, status, started_at,
                               verity_version, scoring, total_samples, meta_json)
             VALUES ('old', 's', 'p', 'h', 'running', ?1, 'v', 1, 0, ?2)",
            rusqlite::params![meta.started_at, crate::runs::meta_json(&meta)],
        )
        .unwrap();
    }
    let mut s = Store::open(&path).unwrap();
    let v: i64 = s
        .conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(v, MIGRATIONS.len() as i64);
    let listed = &s.list_runs().unwrap()[0];
    assert_eq!(listed.id, "old");
    // Nothing says which process ran it: this machine cannot tell.
    assert_eq!(listed.liveness, verity_model::Liveness::Unknown);
    assert_eq!(listed.status.shown(listed.liveness), "running?");
    s.write(&[put("k", "openai", "gpt", "2026-01-01T00:00:00Z", "x")])
        .unwrap();
    assert_eq!(s.cache_get("k").unwrap(), Some(entry("x")));
}
