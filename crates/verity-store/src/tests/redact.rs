//! Credentials never reach the database file: every way a URL is written strips them.

use std::path::Path;

use serde_json::json;
use verity_model::{
    Liveness, Outcome, ProviderSpec, Response, ResponseError, RunStatus, SampleKey, ServerSpec,
    Variant,
};

use crate::{Observation, Store, Write};

const PASSWORD: &str = "hunter2-planted-password";
const KEY: &str = "XYZ-planted-query-key";
const TOKEN: &str = "planted-token-in-a-command";

fn url() -> String {
    format!("http://user:{PASSWORD}@127.0.0.1:9/v1?api-version=2&api_key={KEY}")
}

fn bytes_of(dir: &Path) -> Vec<u8> {
    let mut all = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_file() {
            all.extend(std::fs::read(p).unwrap());
        }
    }
    all
}

fn contains(hay: &[u8], needle: &str) -> bool {
    hay.windows(needle.len()).any(|w| w == needle.as_bytes())
}

#[test]
fn no_credential_reaches_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v.db");
    let mut s = Store::open(&path).unwrap();
    // Nothing is checkpointed into the main file until the end: the WAL is checked too.
    s.conn
        .execute_batch("PRAGMA wal_autocheckpoint = 0")
        .unwrap();
    let mut meta = super::meta("r1", "2026-01-01T00:00:00Z");
    meta.suite.variants.push(Variant {
        name: "a".into(),
        provider: ProviderSpec {
            kind: "openai".into(),
            model: Some("m".into()),
            base_url: Some(url()),
            api_key_env: Some("KEY_VAR".into()),
            options: serde_json::from_value(json!({
                "command": format!("curl https://u:{PASSWORD}@h/x?token={TOKEN}"),
                "headers": {"x-trace": "plain"},
                "nested": [format!("see {}", url())],
            }))
            .unwrap(),
        },
        params: Default::default(),
        prompt: None,
        system: None,
        grounding: None,
    });
    meta.suite.servers.insert(
        "docs".into(),
        ServerSpec {
            command: vec!["serve".into(), format!("--upstream={}", url())],
            env: [("UPSTREAM".to_owned(), url())].into(),
            cwd: None,
            ..Default::default()
        },
    );
    s.insert_run(&meta).unwrap();
    meta.status = verity_model::RunStatus::Completed;
    s.update_run_meta(&meta).unwrap();
    let key = SampleKey {
        task_id: "t1".into(),
        variant: "a".into(),
        epoch: 0,
    };
    let mut sample = super::sample("t1", "a", "", Outcome::Error);
    sample.response = Response {
        error: Some(ResponseError {
            kind: "connect".into(),
            message: format!("error sending request for url ({}): refused", url()),
        }),
        ..Response::default()
    };
    s.write(&[
        Write::Observation(Observation {
            run_id: "r1".into(),
            key: key.clone(),
            attempt: 1,
            started_at: "2026-01-01T00:00:00Z".into(),
            provider: "openai".into(),
            model: "m".into(),
            endpoint: url(),
            prompt_hash: "p".into(),
            input_hash: "i".into(),
            raw_response: None,
            output_text: None,
            input_tokens: 0,
            output_tokens: 0,
            latency_ms: 1,
            cache_hit: false,
            error_kind: Some("connect".into()),
            error: Some(format!("POST {} failed", url())),
        }),
        Write::Sample {
            run_id: "r1".into(),
            scoring: 1,
            record: sample,
        },
    ])
    .unwrap();

    let bytes = bytes_of(dir.path());
    for secret in [PASSWORD, KEY, TOKEN] {
        assert!(
            !contains(&bytes, secret),
            "{secret} is in the database files"
        );
    }
    // What is kept: the endpoint without its credentials, the harmless parameters.
    let stored = s.load_run("r1").unwrap();
    let provider = &stored.suite.variants[0].provider;
    assert_eq!(
        provider.base_url.as_deref(),
        Some("http://127.0.0.1:9/v1?api-version=2&api_key=[redacted]")
    );
    assert_eq!(
        provider.options["command"],
        "curl https://h/x?token=[redacted]"
    );
    assert_eq!(provider.options["headers"]["x-trace"], "plain");
    assert_eq!(
        stored.suite.servers["docs"].env["UPSTREAM"],
        "http://127.0.0.1:9/v1?api-version=2&api_key=[redacted]"
    );
    let obs = s.observations("r1").unwrap();
    assert_eq!(
        obs[0].endpoint,
        "http://127.0.0.1:9/v1?api-version=2&api_key=[redacted]"
    );
    let samples = s.load_samples("r1", None).unwrap();
    let message = &samples[0].response.error.as_ref().unwrap().message;
    assert!(message.starts_with("error sending request for url (http://127.0.0.1:9/v1?"));
    assert!(message.ends_with("): refused"), "{message}");
    drop(s);
    let bytes = bytes_of(dir.path());
    for secret in [PASSWORD, KEY, TOKEN] {
        assert!(
            !contains(&bytes, secret),
            "{secret} is in the database file"
        );
    }
}

/// Redaction changes nothing else: a suite without credentials round-trips exactly.
#[test]
fn a_suite_without_credentials_is_stored_as_it_is() {
    let mut s = Store::open_in_memory().unwrap();
    let mut meta = super::meta("r1", "2026-01-01T00:00:00Z");
    meta.suite.variants.push(Variant {
        name: "a".into(),
        provider: ProviderSpec {
            kind: "openai".into(),
            model: Some("m".into()),
            base_url: Some("https://example.com/v1?api-version=2024-02-01".into()),
            api_key_env: None,
            options: serde_json::from_value(json!({"command": "run https://h/x?q=1"})).unwrap(),
        },
        params: Default::default(),
        prompt: None,
        system: None,
        grounding: None,
    });
    s.insert_run(&meta).unwrap();
    let mut loaded = s.load_run("r1").unwrap();
    // Not stored: worked out on load (this process owns the run).
    if loaded.status == RunStatus::Running {
        assert_eq!(loaded.liveness, Liveness::Alive);
    }
    loaded.liveness = meta.liveness;
    assert_eq!(loaded, meta);
}
