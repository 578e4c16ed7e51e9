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

/// Values `verity validate` used to accept, each now an error at its file:line:column: one
/// suite holds them all, and one validate reports every one.
const BAD_VALUES: &str = r#"name = "values"
epochs = 4294967297

[defaults]
provider = "skynet"
base_url = "not a url"
api_key_env = ""
temperature = inf
top_p = 1.5
max_tokens = 0
prompt_text = "{% for i in range(10000) %}{% for j in range(10000) %}.{% endfor %}{% endfor %}"

[[scorers]]
kind = "regex"

[outcome]
all = ["regex", "nope"]

[report]
json = "out/{nope}.json"
"#;

#[test]
fn validate_rejects_bad_values_at_their_place() {
    let dir = tempfile::tempdir().unwrap();
    let mut tasks = String::new();
    for i in 0..50 {
        tasks.push_str(&format!(
            "{{\"id\": \"j{i}\", \"input\": \"q\", \"expect\": {{\"regex\": \"a\"}}}}\n"
        ));
    }
    write_tree(
        dir.path(),
        &[
            ("suite.toml", BAD_VALUES),
            (
                "tasks/t.toml",
                "id = \"t\"\nprompt = \"p\"\n[expect]\nregex = \"([\"\n",
            ),
            ("tasks.jsonl", &tasks),
        ],
    );
    let start = std::time::Instant::now();
    let out = verity(dir.path()).args(["validate", "."]).output().unwrap();
    let took = start.elapsed();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "stderr:\n{err}");
    for (at, header) in [
        (
            "suite.toml:2:10",
            "error[bad-value]: `epochs` must be at most 4294967295",
        ),
        (
            "suite.toml:5:12",
            "error[bad-value]: unknown provider kind `skynet`",
        ),
        (
            "suite.toml:6:12",
            "error[bad-value]: `base_url` must be an absolute http:// or https:// URL",
        ),
        (
            "suite.toml:7:15",
            "error[bad-value]: `api_key_env` must not be empty",
        ),
        (
            "suite.toml:8:15",
            "error[bad-value]: `temperature` must be a finite number, found inf",
        ),
        (
            "suite.toml:9:9",
            "error[bad-value]: `top_p` must be between 0 and 1",
        ),
        (
            "suite.toml:10:14",
            "error[bad-value]: `max_tokens` must be at least 1",
        ),
        (
            "suite.toml:11:15",
            "error[template]: template `inline` fails to render task `t` (variant `default`): render budget exceeded",
        ),
        (
            "suite.toml:17:17",
            "error[unknown-criterion]: [outcome] names criterion `nope`, which no scorer reports",
        ),
        (
            "suite.toml:20:13",
            "error[bad-value]: `json`: unknown placeholder `{nope}` in a report path",
        ),
        (
            "tasks/t.toml:4:1",
            "error[scorer]: task `t` (scorer `regex`): invalid regex",
        ),
    ] {
        let found = err
            .split("\n\n")
            .any(|d| d.starts_with(header) && d.contains(&format!(" --> {at}\n")));
        assert!(found, "missing `{header}` at {at} in:\n{err}");
    }
    assert!(err.ends_with("11 errors\n"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    // One render budget spent, not one per task.
    assert!(took.as_secs_f64() < 10.0, "validate took {took:?}");
    filters().bind(|| insta::assert_snapshot!("validate_bad_values", err));
}

/// A suite without tasks validates, with a warning; so does an empty dataset.
#[test]
fn validate_warns_about_zero_tasks() {
    let dir = tempfile::tempdir().unwrap();
    write_tree(
        dir.path(),
        &[
            (
                "s/suite.toml",
                "name = \"s\"\n[defaults]\nprovider = \"mock\"\n",
            ),
            ("empty.jsonl", ""),
        ],
    );
    for target in ["s", "empty.jsonl"] {
        let out = run_ok(verity(dir.path()).args(["validate", target]));
        let err = stderr(&out);
        assert!(
            err.starts_with("warning[no-tasks]: the suite has no tasks\n"),
            "{target}: {err}"
        );
        assert!(stdout(&out).starts_with("ok: suite"), "{}", stdout(&out));
        // `run` refuses what validate only warns about.
        let out = verity(dir.path())
            .args([
                "run",
                target,
                "--provider",
                "mock",
                "--db",
                "v.db",
                "--quiet",
            ])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    }
}

/// A task file whose name is not UTF-8 is an error that names it, not a file skipped.
#[cfg(unix)]
#[test]
fn validate_rejects_task_files_whose_names_are_not_utf8() {
    use std::os::unix::ffi::OsStrExt;

    let dir = tempfile::tempdir().unwrap();
    write_tree(
        dir.path(),
        &[
            (
                "suite.toml",
                "name = \"s\"\n[defaults]\nprovider = \"mock\"\n",
            ),
            ("tasks/ok.toml", "id = \"ok\"\nprompt = \"p\"\n"),
        ],
    );
    let bad = dir
        .path()
        .join("tasks")
        .join(std::ffi::OsStr::from_bytes(b"caf\xe9.toml"));
    std::fs::write(bad, "id = \"x\"\nprompt = \"p\"\n").unwrap();
    let out = verity(dir.path()).args(["validate", "."]).output().unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.starts_with(
            "error[encoding]: the name of task file `tasks/caf\u{fffd}.toml` is not valid UTF-8, so it cannot be read\n --> tasks/caf\u{fffd}.toml\n"
        ),
        "{err}"
    );
}

/// `--scorer regex` on `verity run` checks every task's `expect.regex` while the suite
/// loads, in a bare dataset as in a suite: a bad one stops the run before any model call.
#[test]
fn run_checks_task_regexes_of_scorers_given_on_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let data = "{\"id\": \"a\", \"input\": \"hi\", \"expect\": {\"regex\": \"h\"}}\n{\"id\": \"b\", \"input\": \"hi\", \"expect\": {\"regex\": \"([\"}}\n";
    write_tree(
        dir.path(),
        &[
            ("data.jsonl", data),
            (
                "s/suite.toml",
                "name = \"s\"\ntasks = \"../data.jsonl\"\n[defaults]\nprovider = \"mock\"\n",
            ),
        ],
    );
    for (target, at) in [
        ("data.jsonl", "data.jsonl:2:39"),
        ("s", "s/../data.jsonl:2:39"),
    ] {
        run_ok(verity(dir.path()).args(["validate", target]));
        let out = verity(dir.path())
            .args([
                "run",
                target,
                "--provider",
                "mock",
                "--scorer",
                "regex",
                "--db",
                "v.db",
            ])
            .output()
            .unwrap();
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{target}: {err}");
        assert!(
            err.contains("error[scorer]: task `b` (scorer `regex`): invalid regex")
                && err.contains(&format!(" --> {at}\n")),
            "{target}: {err}"
        );
        assert!(!err.contains("samples"), "no sample ran: {err}");
    }
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
