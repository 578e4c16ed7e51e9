//! A small stored run built in code: two variants (ungrounded = control, grounded =
//! treatment), four tasks in two categories plus one without, two epochs, a `swift` scorer
//! whose criteria include `not_applicable` verdicts, a `claims` scorer that carries
//! `tp` / `fp` / `fn` counts (and is outside the outcome rule), one errored sample and a
//! `determinism` group scorer.
//!
//! Per-task outcomes (error policy `fail`):
//!
//! | task         | ungrounded            | grounded            |
//! |--------------|-----------------------|---------------------|
//! | swiftui-list | pass, pass → pass     | pass, fail → fail   |
//! | url-fetch    | fail, fail → fail     | pass, pass → pass   |
//! | date-format  | pass, error → fail    | pass, pass → pass   |
//! | misc         | fail, fail → fail     | fail, fail → fail   |
//!
//! so the contingency table is [[0, 1], [2, 1]]; with `exclude`, date-format's control epoch 1
//! is dropped and the table becomes [[1, 1], [1, 1]].

use serde_json::{Map, Value, json};
use verity_model::{
    CompareSpec, Evidence, GroundingMode, GroundingSpec, GroupRecord, OutcomeRule, PromptTemplate,
    ProviderSpec, Response, ResponseError, RunMeta, RunOptions, RunStatus, SampleKey, SampleRecord,
    Score, ScoreStatus, ScorerSpec, SourceLoc, Suite, Task, ToolCall, Usage, Variant,
};

pub const UNGROUNDED: &str = "ungrounded";
pub const GROUNDED: &str = "grounded";

fn task(id: &str, prompt: &str, category: Option<&str>, meta: Value) -> Task {
    let mut t = Task::prompt(id, prompt);
    t.category = category.map(str::to_owned);
    if let Value::Object(m) = meta {
        t.metadata = m;
    }
    t.source = SourceLoc {
        file: format!("tasks/{id}.toml"),
        line: 1,
        column: 1,
    };
    t
}

fn variant(name: &str, grounded: bool) -> Variant {
    Variant {
        name: name.into(),
        provider: ProviderSpec {
            kind: "mock".into(),
            model: Some("coder-0.5b".into()),
            ..Default::default()
        },
        params: Default::default(),
        prompt: Some(PromptTemplate {
            source: "Write Swift for {{ prompt }}".into(),
            origin: "prompts/swift-task.j2".into(),
            hash: "b3a1c2d3e4f5a6b7c8d9e0f1a2b3c4d5".into(),
        }),
        system: None,
        grounding: grounded.then(|| GroundingSpec {
            server: "docs".into(),
            mode: GroundingMode::InjectTopK,
            k: 5,
            preamble: None,
        }),
    }
}

pub fn suite() -> Suite {
    Suite {
        quick: Vec::new(),
        perturb: None,
        run: Default::default(),
        gates: Vec::new(),
        name: "swift-anti-hallucination".into(),
        description: Some("Seed 000 in miniature.".into()),
        tasks: vec![
            task(
                "swiftui-list",
                "Make a SwiftUI view that lists the items of an @Observable model.",
                Some("SwiftUI"),
                json!({
                    "target_platform": "ios17.4",
                    "success_hints": ["List", "@Observable"],
                    "failure_hints": ["ObservableObject"],
                }),
            ),
            task(
                "url-fetch",
                "Fetch a URL with URLSession and async/await.",
                Some("Foundation"),
                json!({ "success_hints": ["URLSession.shared.data(from:)"], "failure_hints": ["NSURLConnection"] }),
            ),
            task(
                "date-format",
                "Format a Date for the user's locale.",
                Some("Foundation"),
                json!({}),
            ),
            task(
                "misc",
                "Explain what a `Sendable` type is, with code.",
                None,
                json!({}),
            ),
        ],
        variants: vec![variant(UNGROUNDED, false), variant(GROUNDED, true)],
        scorers: vec![
            ScorerSpec {
                kind: "swift".into(),
                name: None,
                options: Map::new(),
                source: SourceLoc::default(),
            },
            ScorerSpec {
                kind: "claims".into(),
                name: None,
                options: Map::new(),
                source: SourceLoc::default(),
            },
        ],
        outcome: OutcomeRule {
            criteria: Some(vec![
                "parse".into(),
                "symbols_exist".into(),
                "no_deprecated".into(),
            ]),
            ..Default::default()
        },
        epochs: 2,
        coverage: Default::default(),
        servers: Default::default(),
        compare: vec![CompareSpec {
            test: "mcnemar".into(),
            pair: [GROUNDED.into(), UNGROUNDED.into()],
            alternative: "greater".into(),
        }],
        report: Default::default(),
        content_hash: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08".into(),
    }
}

pub fn meta() -> RunMeta {
    let suite = suite();
    RunMeta {
        id: "run-0001".into(),
        suite_path: "suites/swift".into(),
        options: RunOptions {
            quick: false,
            categories: Vec::new(),
            epochs: 2,
            limit: None,
            filter: None,
            concurrency: 4,
            variants: Vec::new(),
            shard: None,
            failed_in: None,
        },
        started_at: "2026-05-20T10:00:00Z".into(),
        finished_at: Some("2026-05-20T10:02:05Z".into()),
        status: RunStatus::Completed,
        verity_version: "0.1.0".into(),
        models: [
            (UNGROUNDED, "mock/coder-0.5b"),
            (GROUNDED, "mock/coder-0.5b"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect(),
        prompt_hashes: [
            (UNGROUNDED, "b3a1c2d3e4f5a6b7c8d9e0f1a2b3c4d5"),
            (GROUNDED, "b3a1c2d3e4f5a6b7c8d9e0f1a2b3c4d5"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect(),
        total_samples: 16,
        scoring: 1,
        preflight: Default::default(),
        liveness: Default::default(),
        suite,
    }
}

/// The swift scorer's verdicts: `P` pass, `F` fail, `N` not applicable, for parse,
/// symbols_exist and no_deprecated.
fn swift(parse: char, symbols: char, deprecated: char) -> Vec<Score> {
    let st = |c: char| match c {
        'P' => ScoreStatus::Pass,
        'F' => ScoreStatus::Fail,
        'N' => ScoreStatus::NotApplicable,
        _ => ScoreStatus::Error,
    };
    let mut p = Score::new("swift", "parse", st(parse));
    if parse == 'F' {
        p = p.explain("no Swift code block in the answer");
    }
    let mut s = Score::new("swift", "symbols_exist", st(symbols));
    if symbols == 'F' {
        s = s.explain("1 unknown symbol").with_evidence({
            let mut e = Evidence::msg("`URLSession.fetch(_:)` is not in the iOS 17.4 SDK").at(3, 9);
            e.snippet = Some("let data = try await URLSession.shared.fetch(url)".into());
            e
        });
    }
    let mut d = Score::new("swift", "no_deprecated", st(deprecated));
    if deprecated == 'F' {
        d = d.explain("uses a deprecated API").with_evidence(
            Evidence::msg("`ObservableObject` is superseded by `@Observable`").at(1, 20),
        );
    }
    vec![p, s, d]
}

fn claims(tp: f64, fp: f64, fn_: f64) -> Score {
    let f1 = if tp + fp + fn_ == 0.0 {
        1.0
    } else {
        2.0 * tp / (2.0 * tp + fp + fn_)
    };
    let status = if f1 >= 0.5 {
        ScoreStatus::Pass
    } else {
        ScoreStatus::Fail
    };
    Score::new("claims", "claims", status)
        .with_value(f1)
        .with_metric("tp", tp)
        .with_metric("fp", fp)
        .with_metric("fn", fn_)
}

struct S {
    task: &'static str,
    variant: &'static str,
    epoch: u32,
    text: &'static str,
    scores: Vec<Score>,
    latency: u64,
    cache: bool,
}

fn record(s: S) -> SampleRecord {
    let rule = suite().outcome;
    let tool_calls = if s.variant == GROUNDED {
        vec![ToolCall {
            id: Some("call-1".into()),
            name: "search".into(),
            arguments: json!({ "query": s.task }),
            result: Some(json!(["doc-1", "doc-2"])),
            error: None,
        }]
    } else {
        Vec::new()
    };
    // A grounded sample also reports a pipeline stage, so the report shows artifacts.
    let artifacts = if tool_calls.is_empty() {
        Vec::new()
    } else {
        vec![verity_model::Artifact::new(
            "retrieved",
            json!({ "query": s.task, "docs": ["doc-1", "doc-2"] }),
        )]
    };
    let response = Response {
        text: s.text.into(),
        tool_calls,
        usage: Usage {
            input_tokens: 120 + u64::from(s.epoch),
            output_tokens: 80,
        },
        latency_ms: s.latency,
        cache_hit: s.cache,
        attempts: 1,
        model: Some("coder-0.5b".into()),
        finish_reason: Some("stop".into()),
        error: None,
        artifacts,
    };
    let outcome = rule.evaluate(&s.scores, false);
    SampleRecord {
        key: SampleKey {
            task_id: s.task.into(),
            variant: s.variant.into(),
            epoch: s.epoch,
        },
        response,
        scores: s.scores,
        outcome,
        completed_at: format!("2026-05-20T10:01:{:02}Z", s.latency / 100),
    }
}

const LIST_OK: &str = "```swift\nimport SwiftUI\n\nstruct ItemsView: View {\n    let model: Model\n    var body: some View { List(model.items) { Text($0.name) } }\n}\n```";
const LIST_OLD: &str = "```swift\nfinal class Model: ObservableObject {}\n```";
const FETCH_BAD: &str = "```swift\nfunc load(url: URL) async throws -> Data {\n    let data = try await URLSession.shared.fetch(url)\n    return data\n}\n```";
const FETCH_OK: &str = "```swift\nfunc load(url: URL) async throws -> Data {\n    try await URLSession.shared.data(from: url).0\n}\n```";
const DATE_OK: &str = "```swift\nlet s = date.formatted(date: .abbreviated, time: .shortened)\n```";
const PROSE: &str = "A Sendable type can be shared across concurrency domains.";

/// Every sample of the run, deliberately out of order (the view sorts them).
pub fn samples() -> Vec<SampleRecord> {
    let mut v = vec![
        // grounded
        S {
            task: "swiftui-list",
            variant: GROUNDED,
            epoch: 0,
            text: LIST_OK,
            scores: [swift('P', 'P', 'P'), vec![claims(2.0, 0.0, 0.0)]].concat(),
            latency: 900,
            cache: false,
        },
        S {
            task: "swiftui-list",
            variant: GROUNDED,
            epoch: 1,
            text: LIST_OLD,
            scores: [swift('P', 'P', 'F'), vec![claims(2.0, 0.0, 1.0)]].concat(),
            latency: 1100,
            cache: false,
        },
        S {
            task: "url-fetch",
            variant: GROUNDED,
            epoch: 0,
            text: FETCH_OK,
            scores: [swift('P', 'P', 'P'), vec![claims(2.0, 0.0, 0.0)]].concat(),
            latency: 1000,
            cache: true,
        },
        S {
            task: "url-fetch",
            variant: GROUNDED,
            epoch: 1,
            text: FETCH_OK,
            scores: [swift('P', 'P', 'P'), vec![claims(2.0, 0.0, 0.0)]].concat(),
            latency: 1200,
            cache: false,
        },
        S {
            task: "date-format",
            variant: GROUNDED,
            epoch: 0,
            text: DATE_OK,
            scores: [swift('P', 'P', 'P'), vec![claims(1.0, 0.0, 0.0)]].concat(),
            latency: 800,
            cache: false,
        },
        S {
            task: "date-format",
            variant: GROUNDED,
            epoch: 1,
            text: DATE_OK,
            scores: [swift('P', 'P', 'P'), vec![claims(1.0, 0.0, 0.0)]].concat(),
            latency: 850,
            cache: false,
        },
        S {
            task: "misc",
            variant: GROUNDED,
            epoch: 0,
            text: PROSE,
            scores: [swift('F', 'N', 'N'), vec![claims(1.0, 1.0, 0.0)]].concat(),
            latency: 700,
            cache: false,
        },
        S {
            task: "misc",
            variant: GROUNDED,
            epoch: 1,
            text: PROSE,
            scores: [swift('F', 'N', 'N'), vec![claims(1.0, 1.0, 0.0)]].concat(),
            latency: 750,
            cache: false,
        },
        // ungrounded
        S {
            task: "swiftui-list",
            variant: UNGROUNDED,
            epoch: 1,
            text: LIST_OK,
            scores: [swift('P', 'P', 'P'), vec![claims(2.0, 1.0, 0.0)]].concat(),
            latency: 450,
            cache: false,
        },
        S {
            task: "swiftui-list",
            variant: UNGROUNDED,
            epoch: 0,
            text: LIST_OK,
            scores: [swift('P', 'P', 'P'), vec![claims(2.0, 0.0, 0.0)]].concat(),
            latency: 400,
            cache: true,
        },
        S {
            task: "url-fetch",
            variant: UNGROUNDED,
            epoch: 0,
            text: FETCH_BAD,
            scores: [swift('P', 'F', 'P'), vec![claims(1.0, 1.0, 1.0)]].concat(),
            latency: 500,
            cache: false,
        },
        S {
            task: "url-fetch",
            variant: UNGROUNDED,
            epoch: 1,
            text: FETCH_BAD,
            scores: [swift('P', 'F', 'P'), vec![claims(1.0, 0.0, 1.0)]].concat(),
            latency: 520,
            cache: false,
        },
        S {
            task: "date-format",
            variant: UNGROUNDED,
            epoch: 0,
            text: DATE_OK,
            scores: [swift('P', 'P', 'P'), vec![claims(0.0, 0.0, 0.0)]].concat(),
            latency: 300,
            cache: false,
        },
        S {
            task: "misc",
            variant: UNGROUNDED,
            epoch: 0,
            text: PROSE,
            scores: [swift('F', 'N', 'N'), vec![claims(0.0, 2.0, 1.0)]].concat(),
            latency: 350,
            cache: false,
        },
        S {
            task: "misc",
            variant: UNGROUNDED,
            epoch: 1,
            text: PROSE,
            scores: [swift('F', 'N', 'N'), vec![claims(0.0, 0.0, 2.0)]].concat(),
            latency: 380,
            cache: false,
        },
    ]
    .into_iter()
    .map(record)
    .collect::<Vec<_>>();
    // The errored sample: the provider timed out after three attempts; no scores.
    let rule = suite().outcome;
    v.push(SampleRecord {
        key: SampleKey {
            task_id: "date-format".into(),
            variant: UNGROUNDED.into(),
            epoch: 1,
        },
        response: Response {
            text: String::new(),
            latency_ms: 30_000,
            attempts: 3,
            error: Some(ResponseError {
                kind: "timeout".into(),
                message: "no response within 10s (3 attempts)".into(),
            }),
            ..Default::default()
        },
        scores: Vec::new(),
        outcome: rule.evaluate(&[], true),
        completed_at: "2026-05-20T10:01:59Z".into(),
    });
    v
}

/// The determinism scorer's verdicts over each task's two epochs.
pub fn groups() -> Vec<GroupRecord> {
    let g =
        |variant: &str, task: &str, status: ScoreStatus, value: Option<f64>, why: Option<&str>| {
            let mut s = Score::new("determinism", "identical", status);
            s.value = value;
            s.explanation = why.map(str::to_owned);
            GroupRecord {
                variant: variant.into(),
                scope: "epochs".into(),
                group: task.into(),
                task_ids: vec![task.into()],
                scores: vec![s],
            }
        };
    vec![
        g(
            UNGROUNDED,
            "swiftui-list",
            ScoreStatus::Pass,
            Some(1.0),
            None,
        ),
        g(
            UNGROUNDED,
            "url-fetch",
            ScoreStatus::Fail,
            Some(0.5),
            Some("epochs 0 and 1 differ in 1 of 5 lines"),
        ),
        g(
            UNGROUNDED,
            "date-format",
            ScoreStatus::NotApplicable,
            None,
            Some("only one epoch has an answer"),
        ),
        g(UNGROUNDED, "misc", ScoreStatus::Pass, Some(1.0), None),
        g(
            GROUNDED,
            "swiftui-list",
            ScoreStatus::Fail,
            Some(0.8),
            Some("epochs 0 and 1 differ"),
        ),
        g(GROUNDED, "url-fetch", ScoreStatus::Pass, Some(1.0), None),
        g(GROUNDED, "date-format", ScoreStatus::Pass, Some(1.0), None),
        g(GROUNDED, "misc", ScoreStatus::Pass, Some(1.0), None),
    ]
}
