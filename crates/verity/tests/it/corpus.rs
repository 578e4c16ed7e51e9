//! `verity corpus generate` (seed 003 §10) through the real binary: a small codebase read by
//! the built-in claims suite's prompt with a `command` provider standing in for the model,
//! fixtures written per category for review, and never an existing file replaced without
//! --force.

use std::path::Path;

use crate::support::*;

/// The stand-in extractor: answers by the marker in the file it is shown (the request carries
/// the rendered prompt, whose vocabulary names real patterns, so markers are unambiguous).
const EXTRACT: &str = r#"req=$(cat)
case "$req" in
  *MARK_TLS*) echo '{"claims": [{"subject": "tls/cert_verification", "predicate": "enabled", "value": false, "confidence": 0.9, "line": 3}]}' ;;
  *MARK_JWT*) printf '%s\n' '```json' '{"claims": [{"subject": "jwt/algorithm", "predicate": "value", "value": "none", "confidence": 0.8, "line": 2}, {"subject": "jwt/secret", "predicate": "hardcoded", "value": true, "confidence": 0.7, "line": 4}, {"subject": "secrets/api_key", "predicate": "hardcoded", "value": true, "confidence": 0.6, "line": 4}]}' '```' ;;
  *MARK_BAD*) echo 'I would rather not say.' ;;
  *) echo '{"claims": []}' ;;
esac
"#;

fn codebase(root: &Path) {
    write_tree(
        root,
        &[
            ("extract.sh", EXTRACT),
            ("code/.gitignore", "vendor/\n*.local.py\n"),
            (
                "code/src/client.py",
                "import requests\n# MARK_TLS\nrequests.get(url, verify=False)\n",
            ),
            (
                "code/src/auth.go",
                "package auth\n// MARK_JWT\nimport \"jwt\"\nconst secret = \"hunter2\"\n",
            ),
            ("code/web/app.js", "export const answer = 42;\n"),
            ("code/web/odd.js", "// MARK_BAD\nexport {};\n"),
            // Ignored by .gitignore, and hidden: never read.
            ("code/vendor/lib.py", "# MARK_TLS\n"),
            ("code/src/settings.local.py", "# MARK_TLS\n"),
            ("code/.hidden/x.py", "# MARK_TLS\n"),
            ("code/README.md", "# not source\n"),
        ],
    );
    // Too large, and binary.
    std::fs::write(
        root.join("code/src/big.py"),
        format!("# MARK_TLS\n{}\n", "x = 1\n".repeat(400)),
    )
    .unwrap();
    std::fs::write(root.join("code/src/blob.c"), [0xffu8, 0xfe, 0, 1, 2]).unwrap();
}

fn generate(root: &Path, out: &str, extra: &[&str]) -> std::process::Command {
    let mut c = verity(root);
    c.args(["corpus", "generate", "--scan-path", "code", "--out", out])
        .arg("--suite")
        .arg(repo_root().join("suites/claims-security"))
        .args(["--provider", "command", "--command"])
        .arg(format!("sh {}", root.join("extract.sh").display()))
        .args(["--db", "db.sqlite", "--max-file-bytes", "1000"])
        .args(extra);
    c
}

fn read(p: impl AsRef<Path>) -> String {
    std::fs::read_to_string(p.as_ref()).unwrap_or_else(|e| panic!("{}: {e}", p.as_ref().display()))
}

#[test]
fn corpus_generate_writes_fixtures_by_category_for_review() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    codebase(root);

    let o = run_ok(&mut generate(root, "out", &[]));
    let so = stdout(&o);
    assert!(
        so.contains(
            "4 source files (go 1, javascript 2, python 1); skipped 2 (1 larger than 1000 bytes, 1 binary or not UTF-8); 1 file in no known language"
        ),
        "{so}"
    );
    assert!(
        so.contains("3 answers read as claims, 1 unparseable, 0 errors"),
        "{so}"
    );
    assert!(
        so.contains("unparseable web-odd-js: the answer is not JSON"),
        "{so}"
    );
    assert!(so.contains("wrote 3 fixtures"), "{so}");

    // One fixture per category; the ignored, hidden, large, binary and unparseable files
    // gave none.
    let out = root.join("out");
    let mut files: Vec<String> = Vec::new();
    for cat in std::fs::read_dir(&out).unwrap() {
        let cat = cat.unwrap().path();
        if cat.is_dir() {
            for f in std::fs::read_dir(&cat).unwrap() {
                let f = f.unwrap().path();
                files.push(f.strip_prefix(&out).unwrap().display().to_string());
            }
        }
    }
    files.sort();
    assert_eq!(
        files,
        [
            "jwt/src-auth-go.toml",
            "negative/web-app-js.toml",
            "tls/src-client-py.toml"
        ]
    );
    let tls = read(out.join("tls/src-client-py.toml"));
    assert!(tls.contains(r#"id = "tls-gen-001""#), "{tls}");
    assert!(tls.contains(r#"source = "src/client.py""#), "{tls}");
    assert!(
        tls.contains(
            r#"{ subject = "tls/cert_verification", predicate = "enabled", value = false, rationale = "auto-generated — requires human review (line 3, confidence 0.9, by command)" }"#
        ),
        "{tls}"
    );
    let readme = read(out.join("README.md"));
    for f in &files {
        assert!(readme.contains(&format!("`{f}`")), "{readme}");
    }
    assert!(readme.contains("Review workflow"), "{readme}");

    // The fixtures are tasks of a suite: they validate, and load with what was extracted.
    write_tree(
        root,
        &[(
            "s/suite.toml",
            "name = \"generated\"\ntasks = \"../out/**/*.toml\"\n\n[defaults]\nprovider = \"mock\"\n\n[[scorers]]\nkind = \"claims\"\n",
        )],
    );
    let v = run_ok(verity(root).args(["validate", "s"]));
    assert!(
        stdout(&v).contains("3 tasks (jwt 1, negative 1, tls 1)"),
        "{}",
        stdout(&v)
    );
    let suite = verity_suite::load(&root.join("s")).unwrap().suite;
    let jwt = suite.task("jwt-gen-001").expect("jwt fixture");
    assert_eq!(jwt.category.as_deref(), Some("jwt"));
    assert_eq!(jwt.metadata["language"], "go");
    assert_eq!(jwt.metadata["source"], "src/auth.go");
    let must = jwt.expect["must_contain"].as_array().unwrap();
    // Categorised by the most frequent subject (jwt 2, secrets 1), every claim kept.
    assert_eq!(must.len(), 3);
    assert_eq!(must[0]["value"], "none");
    assert!(must.iter().all(|c| {
        c["rationale"]
            .as_str()
            .unwrap()
            .starts_with("auto-generated")
    }));
    let neg = suite.task("negative-gen-001").expect("negative fixture");
    assert_eq!(neg.expect["must_contain"].as_array().unwrap().len(), 0);
    assert_eq!(
        neg.input,
        verity_model::Input::Prompt("export const answer = 42;\n".into())
    );

    // The run is stored like any other.
    let runs = stdout(&run_ok(verity(root).args(["runs", "--db", "db.sqlite"])));
    assert!(runs.contains("claims-security-corpus"), "{runs}");
    assert!(runs.contains("completed"), "{runs}");
    assert!(runs.contains("4/4"), "{runs}");

    // A second batch into the same directory is refused before anything runs…
    std::fs::write(out.join("tls/src-client-py.toml"), "reviewed\n").unwrap();
    let again = run_code(&mut generate(root, "out", &[]), 2);
    assert!(
        stderr(&again).contains("already holds generated fixtures"),
        "{}",
        stderr(&again)
    );
    // …and without the README, after the run, listing every file it would replace.
    std::fs::remove_file(out.join("README.md")).unwrap();
    let again = run_code(&mut generate(root, "out", &[]), 2);
    let e = stderr(&again);
    assert!(e.contains("refusing to replace 3 existing files"), "{e}");
    assert!(e.contains("src-client-py.toml"), "{e}");
    assert_eq!(read(out.join("tls/src-client-py.toml")), "reviewed\n");
    assert!(!out.join("README.md").exists());

    // --force replaces them.
    run_ok(&mut generate(root, "out", &["--force", "-q"]));
    assert!(read(out.join("tls/src-client-py.toml")).contains("tls-gen-001"));
    assert!(out.join("README.md").exists());
}

#[test]
fn the_sample_takes_categories_round_robin() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    codebase(root);
    // Three more negatives: with two picks, jwt and negative (name order) still get one each.
    write_tree(
        root,
        &[
            ("code/a.py", "a = 1\n"),
            ("code/b.py", "b = 2\n"),
            ("code/c.rs", "fn c() {}\n"),
        ],
    );
    let o = run_ok(&mut generate(
        root,
        "two",
        &["--sample-size", "2", "--seed", "3"],
    ));
    let so = stdout(&o);
    assert!(so.contains("wrote 2 fixtures"), "{so}");
    assert!(so.contains("negative              4        1"), "{so}");
    let out = root.join("two");
    assert!(out.join("jwt/src-auth-go.toml").exists());
    assert_eq!(std::fs::read_dir(out.join("negative")).unwrap().count(), 1);
    assert!(!out.join("tls").exists());
    // The same seed picks the same files.
    let first: Vec<_> = std::fs::read_dir(out.join("negative"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    run_ok(&mut generate(
        root,
        "again",
        &["--sample-size", "2", "--seed", "3", "-q"],
    ));
    let second: Vec<_> = std::fs::read_dir(root.join("again/negative"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(first, second);
}
