use crate::support::*;

/// Five kinds of defect spread over four files: every one is reported with file:line, and
/// validate exits 2.
#[test]
fn validate_reports_every_defect_with_its_location() {
    let dir = tempfile::tempdir().unwrap();
    write_tree(
        dir.path(),
        &[
            (
                "suite.toml",
                "name = \"defects\"\ntasks = [\"tasks/*.toml\", \"tasks.jsonl\"]\n\n[defaults]\nprovider = \"mock\"\nprompt = \"prompts/missing.j2\"\n\n[[scorers]]\nkind = \"regex\"\npattern = \"(unclosed\"\n\n[coverage]\ngeo = 3\n",
            ),
            (
                "tasks/a.toml",
                "id = \"a\"\ncategory = \"geo\"\nprompt = \"Capital of France?\"\npromtp = \"typo\"\n",
            ),
            (
                "tasks/b.toml",
                "id = \"a\"\ncategory = \"geo\"\nprompt = \"Capital of Peru?\"\n",
            ),
            (
                "tasks.jsonl",
                "{\"id\": \"j1\", \"input\": \"2 + 2\", \"target\": \"4\"}\n{\"id\": \"j2\", \"input\": \n",
            ),
        ],
    );
    let out = verity(dir.path()).args(["validate", "."]).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "stderr:\n{}", stderr(&out));
    let err = stderr(&out);
    for needle in [
        "suite.toml:6:",   // missing template file
        "suite.toml:10:",  // bad regex
        "suite.toml:13:",  // unmet coverage minimum
        "tasks/a.toml:4:", // unknown key
        "tasks/b.toml:1:", // duplicate id
        "tasks.jsonl:2:",  // malformed JSONL line
    ] {
        assert!(err.contains(needle), "missing `{needle}` in:\n{err}");
    }
    assert!(!err.contains("panicked"), "{err}");
    filters().bind(|| insta::assert_snapshot!("validate_defects", err));
}

#[test]
fn garbage_never_panics() {
    let dir = tempfile::tempdir().unwrap();
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("suite.toml", b"name = \"x\"\n[[[[[[\n\x00\xff\xfe".to_vec()),
        ("suite.toml", vec![0xff; 4096]),
        ("suite.toml", "name = [".repeat(2000).into_bytes()),
        (
            "tasks.jsonl",
            b"{\"id\": 1, \"input\": [{\"role\": \"wizard\", \"content\": 3}]}\n{{{{\n\xc3\x28\n"
                .to_vec(),
        ),
        ("tasks.jsonl", "[".repeat(100_000).into_bytes()),
        (
            "t.toml",
            b"id = \"x\"\nprompt = \"\"\"unterminated".to_vec(),
        ),
    ];
    for (i, (name, bytes)) in cases.iter().enumerate() {
        let d = dir.path().join(format!("case{i}"));
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join(name), bytes).unwrap();
        let target = if *name == "suite.toml" {
            d.clone()
        } else {
            d.join(name)
        };
        for cmd in ["validate", "list"] {
            let out = verity(&d).arg(cmd).arg(&target).output().unwrap();
            let err = stderr(&out);
            assert_eq!(out.status.code(), Some(2), "case {i} {cmd}: {err}");
            assert!(!err.contains("panicked"), "case {i} {cmd} panicked: {err}");
            assert!(
                err.contains("error"),
                "case {i} {cmd}: no error message: {err}"
            );
        }
    }
    // A path that does not exist, and a directory without suite.toml.
    for target in ["does-not-exist", "."] {
        let out = verity(dir.path())
            .args(["validate", target])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        assert!(!stderr(&out).contains("panicked"));
    }
}

#[test]
fn builtin_example_suite_validates_and_lists() {
    let root = repo_root();
    let out = run_ok(verity(&root).args(["validate", "suites/example"]));
    assert!(
        stdout(&out).starts_with("ok: suite `example`"),
        "{}",
        stdout(&out)
    );
    let out = run_ok(verity(&root).args(["list", "suites/example", "--format", "json"]));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert!(v.as_array().unwrap().len() >= 8);
}

#[test]
fn exit_code_docs_match_the_code() {
    let doc = std::fs::read_to_string(repo_root().join("docs/exit-codes.md")).unwrap();
    let out = run_ok(verity(&repo_root()).arg("exit-codes"));
    let codes: Vec<String> = stdout(&out)
        .lines()
        .map(|l| l.split_whitespace().next().unwrap().to_owned())
        .collect();
    assert_eq!(codes, ["0", "1", "2", "3", "130"]);
    for c in &codes {
        assert!(
            doc.contains(&format!("| {c} |")),
            "docs/exit-codes.md lacks code {c}"
        );
    }
}

#[test]
fn readme_test_command_is_what_ci_runs() {
    let root = repo_root();
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let ci = std::fs::read_to_string(root.join(".ci/run")).unwrap();
    let cmd = ci
        .lines()
        .rev()
        .find(|l| l.starts_with("cargo "))
        .expect("a cargo command in .ci/run");
    assert!(
        readme.contains(cmd),
        "README.md must show the exact test command .ci/run runs:\n{cmd}"
    );
}
