use std::path::Path;

use verity_suite::{Diagnostics, load};

use crate::write_files;

/// A suite with a defect of every kind, spread over its files.
const BROKEN: &[(&str, &str)] = &[
    (
        "suite.toml",
        r#"name = "broken"
tasks = ["tasks/*.toml", "tasks.jsonl"]

[defaults]
provider = "mock"
temperatur = 0.2
prompt = "prompts/missing.j2"

[[variants]]
name = "a"

[[variants]]
name = "b"
prompt = "prompts/bad.j2"

[[scorers]]
kind = "regex"
name = "bad_pattern"
pattern = "([a-z"

[[scorers]]
kind = "regex"
name = "per_task"
pattern = "."

[coverage]
geo = 3
"#,
    ),
    (
        "tasks/one.toml",
        r#"[[tasks]]
id = "t1"
category = "geo"
prompt = "Capital of France?"
target = "Paris"

[[tasks]]
id = "t2"
category = "geo"
prompt = "Capital of Peru?"

[tasks.expect]
regex = "(unclosed"
"#,
    ),
    (
        "tasks.jsonl",
        concat!(
            r#"{"id": "t1", "input": "again", "category": "geo"}"#,
            "\n",
            r#"{"id": "j2", "input": "x", "categroy": "geo"}"#,
            "\n\n",
            r#"{"id": "j3", "input": "x",, }"#,
            "\n",
            r#"{"id": "j4", "input": "fine", "category": "other"}"#,
            "\n",
        ),
    ),
    ("prompts/bad.j2", "Question:\n{{ prompt }\n"),
];

fn load_broken() -> (tempfile::TempDir, Diagnostics) {
    let dir = tempfile::tempdir().unwrap();
    write_files(dir.path(), BROKEN);
    let diags = load(dir.path()).expect_err("the broken suite must not load");
    (dir, diags)
}

fn strip(dir: &Path, text: &str) -> String {
    text.replace(&dir.to_string_lossy().into_owned(), "[SUITE]")
}

#[test]
fn every_defect_is_reported_at_its_place() {
    let (dir, diags) = load_broken();
    let found: Vec<(String, String)> = diags
        .0
        .iter()
        .map(|d| (d.code.to_owned(), strip(dir.path(), &d.location())))
        .collect();
    let expected = [
        ("unknown-key", "[SUITE]/suite.toml:6:1"),
        ("missing-file", "[SUITE]/suite.toml:7:10"),
        ("scorer", "[SUITE]/suite.toml:19:1"),
        ("scorer", "[SUITE]/tasks/one.toml:13:1"),
        ("duplicate-id", "[SUITE]/tasks.jsonl:1:2"),
        ("unknown-key", "[SUITE]/tasks.jsonl:2:28"),
        ("json-syntax", "[SUITE]/tasks.jsonl:4:27"),
        ("coverage", "[SUITE]/suite.toml:27:1"),
        ("template", "[SUITE]/prompts/bad.j2:2:11"),
    ];
    for (code, loc) in expected {
        assert!(
            found.iter().any(|(c, l)| c == code && l == loc),
            "missing {code} at {loc}; found {found:#?}"
        );
    }
    assert_eq!(found.len(), expected.len(), "{found:#?}");
    let d = |code: &str| diags.0.iter().find(|d| d.code == code).unwrap();
    assert_eq!(
        d("unknown-key").help.as_deref(),
        Some("did you mean `temperature`?")
    );
    assert!(
        d("duplicate-id")
            .note
            .as_deref()
            .unwrap()
            .ends_with("tasks/one.toml:1:1")
    );
    let scorer = diags
        .0
        .iter()
        .filter(|d| d.code == "scorer")
        .collect::<Vec<_>>();
    assert!(
        scorer.iter().all(|d| d.message.contains("invalid regex")),
        "{scorer:#?}"
    );
    assert_eq!(
        d("coverage").message,
        "category `geo` has 2 tasks; [coverage] requires at least 3"
    );
}

#[test]
fn rendered_diagnostics_snapshot() {
    let (dir, diags) = load_broken();
    insta::assert_snapshot!(strip(dir.path(), &diags.render(false)));
}
