use verity_model::{ChatMessage, ErrorPolicy, GroundingSpec, Input, OutcomeMode, Role};
use verity_suite::{Renderer, check, load, render};

use crate::{copy_dir, example_dir};

#[test]
fn example_suite_loads_with_everything_resolved() {
    let loaded = load(&example_dir()).unwrap_or_else(|e| panic!("{e}"));
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    let s = loaded.suite;
    assert_eq!(s.name, "example");
    assert_eq!(s.epochs, 1);
    let ids: Vec<&str> = s.tasks.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "add-small",
            "mul-two-digit",
            "sub-negative",
            "div-exact",
            "power-of-two",
            "capital-france",
            "fact-water",
            "fact-planet",
            "fact-continents",
            "fact-author",
        ]
    );
    let cats = |c: &str| {
        s.tasks
            .iter()
            .filter(|t| t.category.as_deref() == Some(c))
            .count()
    };
    assert_eq!((cats("arithmetic"), cats("facts")), (5, 5));

    let mul = s.task("mul-two-digit").unwrap();
    assert_eq!(mul.input, Input::Prompt("What is 17 * 23?".into()));
    assert_eq!(mul.target, ["391"]);
    assert_eq!(mul.metadata["mock_response"]["terse"], "381");
    assert_eq!(mul.source.to_string(), "tasks/arithmetic.toml:9:1");
    let power = s.task("power-of-two").unwrap();
    assert_eq!(power.expect["regex"], "^\\d+$");
    let capital = s.task("capital-france").unwrap();
    assert_eq!(
        capital.source.to_string(),
        "tasks/capital-of-france.toml:2:1"
    );
    let planet = s.task("fact-planet").unwrap();
    assert_eq!(planet.source.to_string(), "tasks.jsonl:2:1");
    match &planet.input {
        Input::Messages(ms) => {
            assert_eq!(ms.len(), 3);
            assert_eq!(ms[1].role, Role::Assistant);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(s.task("fact-continents").unwrap().target, ["7", "seven"]);

    let names: Vec<&str> = s.variants.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(names, ["terse", "verbose"]);
    for v in &s.variants {
        assert_eq!(v.provider.kind, "mock");
        assert_eq!(v.provider.model.as_deref(), Some("mock-1"));
        assert_eq!(v.params.temperature, Some(0.0));
        assert_eq!(v.params.seed, Some(7));
        assert_eq!(v.params.max_tokens, Some(64));
        assert_eq!(v.system.as_ref().unwrap().origin, "inline");
        assert_eq!(v.grounding, None::<GroundingSpec>);
    }
    let terse = s.variant("terse").unwrap().prompt.as_ref().unwrap();
    assert_eq!(terse.origin, "prompts/terse.j2");
    assert_eq!(
        terse.hash,
        blake3::hash(terse.source.as_bytes()).to_hex().to_string()
    );
    assert_ne!(
        terse.hash,
        s.variant("verbose").unwrap().prompt.as_ref().unwrap().hash
    );

    let scorers: Vec<(&str, &str)> = s
        .scorers
        .iter()
        .map(|x| (x.kind.as_str(), x.instance_name()))
        .collect();
    assert_eq!(scorers, [("equals", "exact"), ("regex", "short")]);
    assert_eq!(s.scorers[1].options["pattern"], "\\A[^\\n]{1,40}\\z");
    assert_eq!(s.scorers[1].source.to_string(), "suite.toml:30:1");
    assert_eq!(s.outcome.mode, OutcomeMode::All);
    assert_eq!(
        s.outcome.criteria.as_deref(),
        Some(&["exact".to_owned(), "short".to_owned()][..])
    );
    assert_eq!(s.outcome.errors, ErrorPolicy::Fail);
    assert_eq!(s.coverage.get("arithmetic"), Some(&5));
    assert_eq!(s.compare.len(), 1);
    assert_eq!(
        s.compare[0].pair,
        ["verbose".to_owned(), "terse".to_owned()]
    );

    // A loaded suite passes the in-memory checks too.
    assert!(check(&s).is_empty(), "{:?}", check(&s));
}

#[test]
fn content_hash_is_stable_and_follows_the_files() {
    let a = load(&example_dir()).unwrap().suite.content_hash;
    let b = load(&example_dir()).unwrap().suite.content_hash;
    assert_eq!(a, b);
    assert_eq!(a.len(), 64);
    // The hash covers relative paths, so a copy elsewhere hashes the same…
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&example_dir(), dir.path());
    assert_eq!(load(dir.path()).unwrap().suite.content_hash, a);
    // …and any change to a task file, a template or suite.toml changes it.
    let mut seen = vec![a.clone()];
    for (file, extra) in [
        ("tasks.jsonl", "\n"),
        ("prompts/terse.j2", " "),
        ("suite.toml", "# c\n"),
    ] {
        let p = dir.path().join(file);
        let mut text = std::fs::read_to_string(&p).unwrap();
        text.push_str(extra);
        std::fs::write(&p, text).unwrap();
        let h = load(dir.path()).unwrap().suite.content_hash;
        assert!(!seen.contains(&h), "{file} did not change the hash");
        seen.push(h);
    }
}

#[test]
fn example_prompts_render_per_variant() {
    let s = load(&example_dir()).unwrap().suite;
    let r = Renderer::new(&s).unwrap();
    let mul = s.task("mul-two-digit").unwrap();
    let system = ChatMessage::new(
        Role::System,
        "You are taking a short arithmetic quiz. Reply with the answer only.",
    );
    assert_eq!(
        r.messages(mul, s.variant("terse").unwrap()).unwrap(),
        vec![
            system.clone(),
            ChatMessage::new(
                Role::User,
                "What is 17 * 23?\nAnswer with the answer alone."
            )
        ]
    );
    assert_eq!(
        r.messages(mul, s.variant("verbose").unwrap()).unwrap(),
        vec![
            system,
            ChatMessage::new(
                Role::User,
                "Here is a question about arithmetic (multiplication).\n\nWhat is 17 * 23?\n\nTake your time and think it through before you answer."
            ),
        ]
    );
    // A conversation keeps its turns; the template rewrites the last user message.
    let planet = s.task("fact-planet").unwrap();
    let got = r.messages(planet, s.variant("terse").unwrap()).unwrap();
    let roles: Vec<Role> = got.iter().map(|m| m.role).collect();
    assert_eq!(
        roles,
        [Role::System, Role::User, Role::Assistant, Role::User]
    );
    assert_eq!(got[1].content, "Let's do a quiz.");
    assert_eq!(
        got[3].content,
        "Which planet is closest to the Sun?\nAnswer with the answer alone."
    );
    // The one-off form agrees with the renderer.
    for t in &s.tasks {
        for v in &s.variants {
            assert_eq!(render::messages(t, v).unwrap(), r.messages(t, v).unwrap());
        }
    }
}

#[test]
fn suite_toml_path_and_bare_datasets_load() {
    let via_file = load(&example_dir().join("suite.toml")).unwrap().suite;
    assert_eq!(via_file.name, "example");
    assert_eq!(via_file.tasks.len(), 10);

    let jsonl = load(&example_dir().join("tasks.jsonl")).unwrap().suite;
    assert_eq!(jsonl.name, "tasks");
    assert_eq!(jsonl.tasks.len(), 4);
    assert!(jsonl.variants.is_empty() && jsonl.scorers.is_empty());
    assert_eq!(jsonl.epochs, 1);
    assert_eq!(jsonl.tasks[0].source.to_string(), "tasks.jsonl:1:1");

    let toml = load(&example_dir().join("tasks/arithmetic.toml"))
        .unwrap()
        .suite;
    assert_eq!(toml.name, "arithmetic");
    assert_eq!(toml.tasks.len(), 5);
    assert_eq!(toml.tasks[0].source.file, "arithmetic.toml");
}

/// The mock provider's documented rule: `metadata.mock_response` (a string, or a table by
/// variant name with a `default`), else the first target, else an echo of the last user
/// message.
fn mock_answer(task: &verity_model::Task, variant: &str, messages: &[ChatMessage]) -> String {
    let configured = match task.metadata.get("mock_response") {
        Some(serde_json::Value::String(s)) => Some(s.clone()),
        Some(serde_json::Value::Object(m)) => m
            .get(variant)
            .or_else(|| m.get("default"))
            .and_then(|v| v.as_str())
            .map(str::to_owned),
        _ => None,
    };
    configured
        .or_else(|| task.target.first().cloned())
        .or_else(|| {
            messages
                .iter()
                .rev()
                .find(|m| m.role == Role::User)
                .map(|m| m.content.clone())
        })
        .unwrap_or_default()
}

#[test]
fn under_mock_some_samples_fail_on_purpose() {
    use verity_model::{Outcome, Response};

    let s = load(&example_dir()).unwrap().suite;
    let r = Renderer::new(&s).unwrap();
    let scorers: Vec<_> = s
        .scorers
        .iter()
        .map(|spec| verity_oracles::build(spec).unwrap())
        .collect();
    let mut failed: Vec<(String, String)> = Vec::new();
    for v in &s.variants {
        for t in &s.tasks {
            let messages = r.messages(t, v).unwrap();
            let response = Response {
                text: mock_answer(t, &v.name, &messages),
                ..Default::default()
            };
            let scores: Vec<_> = scorers
                .iter()
                .flat_map(|sc| sc.score(t, &response))
                .collect();
            assert_eq!(scores.len(), 2, "{scores:?}");
            if s.outcome.evaluate(&scores, false) == Outcome::Fail {
                failed.push((v.name.clone(), t.id.clone()));
            }
        }
    }
    let expect = |v: &str, t: &str| (v.to_owned(), t.to_owned());
    assert_eq!(
        failed,
        [
            expect("terse", "mul-two-digit"),
            expect("terse", "power-of-two"),
            expect("terse", "fact-planet"),
            expect("verbose", "div-exact"),
            expect("verbose", "fact-continents"),
        ]
    );
}
