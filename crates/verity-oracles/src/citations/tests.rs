use serde_json::{Value, json};
use verity_facts::*;
use verity_model::{GroupMember, Response, Scope, ScoreStatus, ScorerSpec, SourceLoc, Task};

use crate::build;

/// A small repository: `src/cli.py` defines `parse_args` (10-42) and `main` (44-60), which
/// calls `parse_args`; `src/models.py` has `class Parser(Base)` with a method `parse -> Ast`.
pub(crate) fn facts() -> Facts {
    let file = |path: &str, lines: u32, ids: &[&str]| FileFact {
        path: path.into(),
        language: Language::of_path(path),
        lines,
        bytes: 100,
        hash: format!("h-{path}"),
        identifiers: ids.iter().map(|s| (*s).to_owned()).collect(),
    };
    let sym =
        |name: &str, kind, file: &str, a, b, container: Option<&str>, ret: Option<&str>| Symbol {
            name: name.into(),
            kind,
            file: file.into(),
            start_line: a,
            end_line: b,
            container: container.map(Into::into),
            signature: None,
            return_type: ret.map(Into::into),
            exported: true,
        };
    let mut f = Facts {
        repo: RepoInfo {
            name: "tinyq".into(),
            extractor: "test".into(),
            ..RepoInfo::default()
        },
        files: vec![
            file("src/cli.py", 60, &["argparse", "main", "parse_args", "sys"]),
            file("src/models.py", 30, &["Ast", "Base", "Parser", "parse"]),
            file("README.md", 12, &[]),
        ],
        symbols: vec![
            sym(
                "parse_args",
                SymbolKind::Function,
                "src/cli.py",
                10,
                42,
                None,
                Some("Namespace"),
            ),
            sym(
                "main",
                SymbolKind::Function,
                "src/cli.py",
                44,
                60,
                None,
                None,
            ),
            sym(
                "Parser",
                SymbolKind::Class,
                "src/models.py",
                3,
                30,
                None,
                None,
            ),
            sym(
                "parse",
                SymbolKind::Method,
                "src/models.py",
                8,
                20,
                Some("Parser"),
                Some("Ast"),
            ),
        ],
        inherits: vec![Inheritance {
            child: "Parser".into(),
            parent: "Base".into(),
            kind: InheritanceKind::Extends,
            file: "src/models.py".into(),
            line: 3,
        }],
        imports: vec![Import {
            file: "src/cli.py".into(),
            module: "argparse".into(),
            resolved: None,
            symbols: vec!["ArgumentParser".into()],
            line: 1,
        }],
        exports: vec![Export {
            file: "src/models.py".into(),
            name: "Parser".into(),
            line: 3,
        }],
        calls: vec![Call {
            caller: "main".into(),
            callee: "parse_args".into(),
            file: "src/cli.py".into(),
            line: 45,
        }],
        commits: vec![Commit {
            id: "abcdef1234567890".into(),
            summary: "cli: add --verbose".into(),
            date: None,
            files: vec!["src/cli.py".into()],
        }],
        ..Facts::default()
    };
    f.normalize();
    f
}

fn spec(kind: &str, extra: Value) -> ScorerSpec {
    let mut options = extra.as_object().cloned().unwrap_or_default();
    options.insert(
        "facts_data".into(),
        json!({ "tinyq": serde_json::to_value(facts()).unwrap() }),
    );
    ScorerSpec {
        kind: kind.into(),
        name: None,
        options,
        source: SourceLoc::default(),
    }
}

fn task(id: &str, q: Value) -> Task {
    let mut t = Task::prompt(id, "q");
    t.metadata.insert("repo".into(), json!("tinyq"));
    if !q.is_null() {
        t.expect.insert("citations".into(), q);
    }
    t
}

fn resp(text: &str) -> Response {
    Response {
        text: text.into(),
        ..Response::default()
    }
}

/// (status, tp, fp, fn) of each criterion, in order.
fn run(t: &Task, answer: &str) -> Vec<(String, ScoreStatus, f64, f64, f64)> {
    let scorer = build(&spec("citations", json!({}))).unwrap();
    scorer
        .score(t, &resp(answer))
        .into_iter()
        .map(|s| {
            let m = |k: &str| s.metrics.get(k).copied().unwrap_or(0.0);
            (s.criterion.clone(), s.status, m("tp"), m("fp"), m("fn"))
        })
        .collect()
}

fn status(t: &Task, answer: &str) -> Vec<ScoreStatus> {
    run(t, answer).into_iter().map(|r| r.1).collect()
}

use ScoreStatus::{Fail, NotApplicable as Na, Pass};

#[test]
fn a_correct_defined_in_answer_passes_every_check() {
    let t = task(
        "d",
        json!({"relation": "defined_in", "subject": "parse_args"}),
    );
    let r = run(
        &t,
        "`parse_args` is defined in `src/cli.py:10-42` (it builds the `argparse` parser).",
    );
    assert_eq!(r[0], ("files_exist".into(), Pass, 1.0, 0.0, 0.0));
    assert_eq!(r[1], ("lines_valid".into(), Pass, 1.0, 0.0, 0.0));
    assert_eq!(r[2], ("identifiers_found".into(), Pass, 2.0, 0.0, 0.0));
    assert_eq!(r[3], ("structure_correct".into(), Pass, 1.0, 0.0, 0.0));
    assert_eq!(r[4].1, Na);
}

#[test]
fn each_v1_failure_has_its_type() {
    let scorer = build(&spec("citations", json!({}))).unwrap();
    let t = task("d", Value::Null);
    let s = scorer.score(
        &t,
        &resp("See src/nope.py:3, src/cli.py:50-90 and `tokenize` in src/cli.py. Also src/cli.py:9-2."),
    );
    assert_eq!(s[0].status, Fail);
    assert!(
        s[0].evidence[0]
            .message
            .starts_with("missing_file: `src/nope.py` names no file"),
        "{:?}",
        s[0].evidence
    );
    assert_eq!(s[0].evidence[0].line, Some(3));
    assert_eq!(s[0].metrics["tp"], 3.0);
    assert_eq!(s[0].metrics["fp"], 1.0);
    assert_eq!(s[1].status, Fail);
    assert_eq!(s[1].metrics["fp"], 2.0);
    assert!(
        s[1].evidence[0]
            .message
            .contains("invalid_line: src/cli.py:50-90: `src/cli.py` has 60 lines")
    );
    assert!(s[1].evidence[1].message.contains("starts after it ends"));
    assert_eq!(s[2].status, Fail);
    assert!(
        s[2].evidence[0]
            .message
            .starts_with("missing_identifier: `tokenize` does not occur in `src/cli.py`")
    );
    // Without a question, no structural claim is made.
    assert_eq!(s[3].status, Na);
}

#[test]
fn identifiers_cited_alone_are_looked_up_anywhere() {
    let t = task("d", Value::Null);
    assert_eq!(status(&t, "It uses `Parser.parse`.")[2], Pass);
    assert_eq!(status(&t, "It uses `Parser.tokenize`.")[2], Fail);
    // Cited with the wrong file: fails, though it exists elsewhere.
    let r = build(&spec("citations", json!({})))
        .unwrap()
        .score(&t, &resp("`Parser` lives in src/cli.py."));
    assert!(
        r[2].evidence[0]
            .message
            .contains("(it occurs elsewhere in the repository)")
    );
}

#[test]
fn no_citation_is_not_applicable_unless_the_question_needs_one() {
    let t = task(
        "c",
        json!({"relation": "calls", "subject": "main", "object": "parse_args"}),
    );
    assert_eq!(status(&t, "Yes, it does."), [Na, Na, Na, Pass, Na]);
    let t = task(
        "d",
        json!({"relation": "defined_in", "subject": "parse_args"}),
    );
    let r = run(&t, "It is somewhere in the CLI module.");
    assert_eq!(r[0], ("files_exist".into(), Fail, 0.0, 0.0, 1.0));
    assert_eq!(r[3], ("structure_correct".into(), Fail, 0.0, 0.0, 1.0));
}

#[test]
fn structure_from_the_question() {
    let d = task(
        "d",
        json!({"relation": "defined_in", "subject": "parse_args"}),
    );
    assert_eq!(status(&d, "In src/models.py:3-9.")[3], Fail);
    assert_eq!(status(&d, "See `src/cli.py` lines 50-55.")[3], Fail);
    assert_eq!(status(&d, "See cli.py#L12-L20.")[3], Pass);

    let c = task(
        "c",
        json!({"relation": "calls", "subject": "main", "object": "parse_args"}),
    );
    assert_eq!(status(&c, "No, `main` does not call it.")[3], Fail);
    let n = task(
        "n",
        json!({"relation": "calls", "subject": "parse_args", "object": "main"}),
    );
    assert_eq!(status(&n, "No.")[3], Pass);
    assert_eq!(status(&n, "I cannot tell.")[3], Fail);

    let e = task("e", json!({"relation": "extends", "subject": "Parser"}));
    assert_eq!(status(&e, "`Parser` derives from `Base`.")[3], Pass);
    assert_eq!(status(&e, "It derives from `Node`.")[3], Fail);
    // A method named beside the parent is not claimed as a parent.
    assert_eq!(
        status(&e, "It derives from `Base` and overrides `parse`.")[3],
        Pass
    );

    let r = task(
        "r",
        json!({"relation": "returns", "subject": "Parser.parse"}),
    );
    assert_eq!(status(&r, "It returns an `Ast`.")[3], Pass);
    assert_eq!(status(&r, "It returns `List[Ast]`.")[3], Fail);
    let m = task("m", json!({"relation": "returns", "subject": "main"}));
    // No return type written: not counted either way.
    assert_eq!(status(&m, "It returns `None`... or `int`.")[3], Na);

    let i = task(
        "i",
        json!({"relation": "imports", "subject": "src/cli.py", "object": "argparse"}),
    );
    assert_eq!(status(&i, "`ArgumentParser`.")[3], Pass);
    assert_eq!(status(&i, "`ArgumentParser` and `Namespace`.")[3], Fail);

    let x = task(
        "x",
        json!({"relation": "exports", "subject": "src/models.py"}),
    );
    assert_eq!(status(&x, "It exports `Parser`.")[3], Pass);

    let k = task("k", json!({"relation": "changes", "subject": "abcdef1"}));
    assert_eq!(status(&k, "It changed src/cli.py.")[3], Pass);
    assert_eq!(status(&k, "It changed src/models.py.")[3], Fail);
}

#[test]
fn sentence_claims_are_checked_without_a_question() {
    let t = task("s", Value::Null);
    let r = build(&spec("citations", json!({}))).unwrap().score(
        &t,
        &resp("`Parser` extends `Ast`. `main` calls `parse_args`."),
    );
    assert_eq!(r[3].status, Fail);
    assert_eq!(r[3].metrics["tp"], 1.0);
    assert_eq!(r[3].metrics["fp"], 1.0);
    assert!(
        r[3].evidence[0].message.starts_with(
            "wrong_structure: the answer says `Parser` extends `Ast`; `Parser` extends `Base`"
        ),
        "{:?}",
        r[3].evidence
    );
}

#[test]
fn json_mode() {
    let t = task("j", json!({"relation": "defined_in", "subject": "parse"}));
    let answer = json!({
        "answer": "It is a method of Parser.",
        "citations": [{"file": "src/models.py", "start_line": 8, "end_line": 20, "identifier": "parse"},
                      {"file": "src/gone.py"}],
        "claims": [{"relation": "defined_in", "subject": "Parser.parse", "object": "src/models.py"},
                   {"relation": "calls", "subject": "main", "object": "parse_args", "value": false},
                   {"relation": "function_returns", "subject": "tinyq.cli.parse_args", "args": [[]], "value": {}},
                   {"relation": "test_passes", "subject": "tests/test_cli.py::test_parse"}]
    })
    .to_string();
    let scorer = build(&spec("citations", json!({}))).unwrap();
    let s = scorer.score(&t, &resp(&answer));
    assert_eq!(s[0].status, Fail);
    assert_eq!(s[1].status, Pass);
    assert_eq!(s[2].status, Pass);
    assert_eq!(s[3].status, Fail);
    assert_eq!(s[3].metrics["tp"], 1.0);
    assert!(s[3].evidence[0].message.contains("the facts say it calls"));
    assert_eq!(s[4].status, Na);
    assert!(
        s[4].explanation
            .as_deref()
            .unwrap()
            .contains("2 behaviour claims need a repository checkout")
    );
    // Forced JSON mode on prose: files_exist fails? No: nothing to count, the problem is said.
    let forced = build(&spec("citations", json!({"mode": "json"}))).unwrap();
    let s = forced.score(&task("p", Value::Null), &resp("src/cli.py:1"));
    assert_eq!(s[0].status, Na);
    assert!(
        s[0].explanation
            .as_deref()
            .unwrap()
            .starts_with("the answer is not JSON")
    );
    // Text mode reads JSON as text.
    let text = build(&spec("citations", json!({"mode": "text"}))).unwrap();
    let s = text.score(&t, &resp(&answer));
    assert_eq!(s[0].status, Fail, "the quoted paths are read as text");
    assert_eq!(
        s[4].explanation.as_deref(),
        Some("the answer makes no behaviour claim")
    );
}

#[test]
fn unknown_repository_is_an_error_score() {
    let mut t = task("u", Value::Null);
    t.metadata.insert("repo".into(), json!("other"));
    let s = build(&spec("citations", json!({})))
        .unwrap()
        .score(&t, &resp("x"));
    assert!(s.iter().all(|s| s.status == ScoreStatus::Error));
}

fn para(id: &str, of: &str) -> Task {
    let mut t = task(
        id,
        json!({"relation": "defined_in", "subject": "parse_args"}),
    );
    t.metadata.insert("paraphrase_of".into(), json!(of));
    t
}

#[test]
fn consistency_over_paraphrases() {
    let scorer = build(&spec("citation-consistency", json!({}))).unwrap();
    assert_eq!(scorer.scope(), Scope::Group("paraphrase_of".into()));
    let (a, b, c) = (para("q", "q"), para("q~p1", "q"), para("q~p2", "q"));
    let same = resp("In `src/cli.py:10-42`.");
    let short = resp("In cli.py (lines 10-20).");
    let other = resp("In src/models.py:3.");
    let m = |t, r| GroupMember {
        task: t,
        epoch: 0,
        response: r,
    };
    let s = scorer.score_group(&[m(&a, &same), m(&b, &short)]);
    assert_eq!((s[0].status, s[1].status), (Pass, Pass), "{s:?}");
    let s = scorer.score_group(&[m(&a, &same), m(&b, &short), m(&c, &other)]);
    assert_eq!(s[0].status, Fail);
    assert_eq!(s[0].value, Some(0.0));
    assert!(
        s[0].evidence[0].message.starts_with(
            "`q~p2` (epoch 0) cites `src/models.py` where `q`, `q~p1` cite `src/cli.py`"
        ),
        "{:?}",
        s[0].evidence
    );
    assert_eq!(s[1].status, Fail);
    assert!(
        s[1].evidence[0]
            .message
            .contains("`q~p2` (epoch 0) says defined_in `parse_args` → `src/models.py`"),
        "{:?}",
        s[1].evidence
    );
    // A looser threshold.
    let loose = build(&spec("citation-consistency", json!({"min_jaccard": 0.5}))).unwrap();
    let two = resp("In src/cli.py:10 and README.md.");
    let s = loose.score_group(&[m(&a, &same), m(&b, &two)]);
    assert_eq!(s[0].status, Pass);
    assert_eq!(s[0].value, Some(0.5));
    // Errored members are left out; one answer is not enough.
    let errored = Response {
        error: Some(verity_model::ResponseError {
            kind: "timeout".into(),
            message: "x".into(),
        }),
        ..Response::default()
    };
    let s = scorer.score_group(&[m(&a, &same), m(&b, &errored)]);
    assert_eq!(s[0].status, Na);
    // Yes / no contradictions.
    let q = |id: &str| {
        let mut t = task(
            id,
            json!({"relation": "calls", "subject": "main", "object": "parse_args"}),
        );
        t.metadata.insert("paraphrase_of".into(), json!("c"));
        t
    };
    let (c1, c2) = (q("c"), q("c~p1"));
    let (yes, no) = (resp("Yes."), resp("No, never."));
    let s = scorer.score_group(&[m(&c1, &yes), m(&c2, &no)]);
    assert_eq!(s[0].status, Na);
    assert_eq!(s[1].status, Fail);
    // Without facts, paths compare as written.
    let bare = build(&ScorerSpec {
        kind: "citation-consistency".into(),
        name: None,
        options: Default::default(),
        source: SourceLoc::default(),
    })
    .unwrap();
    let s = bare.score_group(&[m(&a, &same), m(&b, &short)]);
    assert_eq!(s[0].status, Fail);
}
