//! Runner tests: real providers (mock in-process, openai over HTTP to the fake server), a real
//! SQLite store in a temp dir.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use verity_model::*;
use verity_runner::{
    Budget, CacheMode, Execution, LimitSpec, PlanOptions, Prices, RetryPolicy, RunEvent, Shutdown,
    execute, plan,
};
use verity_store::Store;
use verity_testkit::{FakeServer, Fault};

fn suite(n: usize, provider: ProviderSpec, scorers: Vec<ScorerSpec>, epochs: u32) -> Suite {
    let tasks = (0..n)
        .map(|i| {
            let mut t = Task::prompt(format!("t{i:03}"), format!("What is {i} + 1?"));
            t.target = vec![(i + 1).to_string()];
            t
        })
        .collect();
    Suite {
        quick: Vec::new(),
        name: "runner-test".into(),
        description: None,
        tasks,
        variants: vec![Variant {
            name: "v".into(),
            provider,
            params: GenParams::default(),
            prompt: None,
            system: None,
            grounding: None,
        }],
        scorers,
        outcome: OutcomeRule::default(),
        epochs,
        coverage: BTreeMap::new(),
        servers: BTreeMap::new(),
        compare: vec![],
        report: Default::default(),
        content_hash: "test".into(),
    }
}

fn scorer(kind: &str, options: serde_json::Value) -> ScorerSpec {
    ScorerSpec {
        kind: kind.into(),
        name: None,
        options: options.as_object().cloned().unwrap_or_default(),
        source: SourceLoc::default(),
    }
}

fn openai(server: &FakeServer) -> ProviderSpec {
    ProviderSpec {
        kind: "openai".into(),
        model: Some("gpt-4o-mini".into()),
        base_url: Some(server.base_url()),
        ..ProviderSpec::default()
    }
}

fn mock(latency_ms: u64) -> ProviderSpec {
    let mut options = serde_json::Map::new();
    options.insert("latency_ms".into(), json!(latency_ms));
    ProviderSpec {
        kind: "mock".into(),
        options,
        ..ProviderSpec::default()
    }
}

struct Ran {
    summary: verity_runner::RunSummary,
    store: Store,
    events: Vec<RunEvent>,
    _dir: tempfile::TempDir,
}

async fn run(
    s: Suite,
    concurrency: usize,
    retry: RetryPolicy,
    shutdown: Shutdown,
    stop_after: Option<usize>,
) -> Ran {
    run_with(
        s,
        concurrency,
        retry,
        shutdown,
        stop_after,
        Knobs::default(),
    )
    .await
}

#[derive(Default)]
struct Knobs {
    cache: Option<CacheMode>,
    limits: Option<LimitSpec>,
    budget: Option<Budget>,
    providers: Option<HashMap<String, Arc<dyn Provider>>>,
}

async fn run_with(
    s: Suite,
    concurrency: usize,
    retry: RetryPolicy,
    shutdown: Shutdown,
    stop_after: Option<usize>,
    knobs: Knobs,
) -> Ran {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("r.db");
    let p = plan(
        s,
        "mem",
        &PlanOptions {
            concurrency,
            ..PlanOptions::default()
        },
    )
    .unwrap();
    let providers: HashMap<String, Arc<dyn Provider>> = knobs.providers.unwrap_or_else(|| {
        p.suite
            .variants
            .iter()
            .map(|v| {
                (
                    v.name.clone(),
                    verity_providers::build(&v.provider).unwrap(),
                )
            })
            .collect()
    });
    let limits = p
        .suite
        .variants
        .iter()
        .map(|v| (v.name.clone(), knobs.limits.clone().unwrap_or_default()))
        .collect();
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let sd = shutdown.clone();
    let collector = tokio::spawn(async move {
        let mut evs = Vec::new();
        let mut finished = 0;
        while let Some(e) = rx.recv().await {
            if matches!(e, RunEvent::SampleFinished { .. }) {
                finished += 1;
                if Some(finished) == stop_after {
                    sd.request();
                }
            }
            evs.push(e);
        }
        evs
    });
    let summary = execute(Execution {
        plan: p,
        providers,
        store_path: db.clone(),
        retry,
        call_timeout: Some(Duration::from_secs(10)),
        resume: false,
        only: None,
        cache: knobs.cache.unwrap_or(CacheMode::Off),
        limits,
        budget: Arc::new(knobs.budget.unwrap_or_default()),
        prices: Prices::with_overrides(&BTreeMap::new()),
        events: tx,
        shutdown,
    })
    .await
    .unwrap();
    let events = collector.await.unwrap();
    Ran {
        summary,
        store: Store::open(&db).unwrap(),
        events,
        _dir: dir,
    }
}

fn fast_retry() -> RetryPolicy {
    RetryPolicy {
        max_retries: 5,
        initial: Duration::from_millis(2),
        max_delay: Duration::from_millis(20),
        jitter: true,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn retries_transient_faults_and_records_every_attempt() {
    let server = FakeServer::start().await;
    server.push_faults([
        Fault::status(503),
        Fault::rate_limited("0"),
        Fault::DropConnection,
        Fault::MalformedJson,
    ]);
    let r = run(
        suite(6, openai(&server), vec![scorer("equals", json!({}))], 1),
        1,
        fast_retry(),
        Shutdown::new(),
        None,
    )
    .await;
    assert_eq!(r.summary.status, RunStatus::Completed);
    assert_eq!((r.summary.completed, r.summary.passed), (6, 6));
    let obs = r.store.observations(&r.summary.run_id).unwrap();
    assert_eq!(obs.len(), 6 + 4, "every attempt is an observation");
    let failed: Vec<_> = obs.iter().filter_map(|o| o.error_kind.clone()).collect();
    assert_eq!(
        failed,
        [
            "server_error",
            "rate_limited",
            "connection",
            "invalid_response"
        ]
    );
    let samples = r.store.load_samples(&r.summary.run_id, None).unwrap();
    assert_eq!(samples[0].response.attempts, 5);
    assert!(samples[1..].iter().all(|s| s.response.attempts == 1));
    let retries = r
        .events
        .iter()
        .filter(|e| matches!(e, RunEvent::Retrying { .. }))
        .count();
    assert_eq!(retries, 4);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn client_errors_are_not_retried_and_exhaustion_is_recorded() {
    let server = FakeServer::start().await;
    server.push_faults([Fault::status(400)]);
    server.fail_next(3, Fault::status(500));
    let policy = RetryPolicy {
        max_retries: 2,
        ..fast_retry()
    };
    let r = run(
        suite(2, openai(&server), vec![scorer("equals", json!({}))], 1),
        1,
        policy,
        Shutdown::new(),
        None,
    )
    .await;
    let samples = r.store.load_samples(&r.summary.run_id, None).unwrap();
    let (first, second) = (&samples[0], &samples[1]);
    assert_eq!(first.outcome, Outcome::Error);
    assert_eq!(first.response.attempts, 1, "400 is not retried");
    assert_eq!(first.response.error.as_ref().unwrap().kind, "client_error");
    assert_eq!(second.outcome, Outcome::Error);
    assert_eq!(second.response.attempts, 3, "two retries, then give up");
    assert!(
        second
            .response
            .error
            .as_ref()
            .unwrap()
            .message
            .contains("after 2 retries")
    );
    assert_eq!(r.summary.errors, 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrency_limit_holds() {
    let server = FakeServer::start().await;
    server.set_latency(Duration::from_millis(40));
    let r = run(
        suite(24, openai(&server), vec![], 1),
        4,
        fast_retry(),
        Shutdown::new(),
        None,
    )
    .await;
    assert_eq!(r.summary.completed, 24);
    let st = server.stats();
    assert!(st.max_in_flight <= 4, "max in flight {}", st.max_in_flight);
    assert!(st.max_in_flight >= 2, "max in flight {}", st.max_in_flight);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_drains_in_flight_samples_and_keeps_them() {
    let r = run(
        suite(60, mock(30), vec![scorer("equals", json!({}))], 1),
        3,
        fast_retry(),
        Shutdown::new(),
        Some(5),
    )
    .await;
    assert_eq!(r.summary.status, RunStatus::Interrupted);
    let samples = r.store.load_samples(&r.summary.run_id, None).unwrap();
    assert!(
        samples.len() >= 5 && samples.len() < 60,
        "{}",
        samples.len()
    );
    assert!(
        samples
            .iter()
            .all(|s| s.outcome == Outcome::Pass && s.scores.len() == 1)
    );
    assert!(r.events.iter().any(|e| matches!(e, RunEvent::Draining)));
    let finished = r
        .events
        .iter()
        .filter(|e| matches!(e, RunEvent::SampleFinished { .. }))
        .count();
    assert_eq!(finished, samples.len(), "every finished sample is stored");
    assert_eq!(
        r.store.load_run(&r.summary.run_id).unwrap().status,
        RunStatus::Interrupted
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cross_epoch_scorer_sees_all_epochs_and_folds_into_outcomes() {
    // Epoch-dependent answers: the fake server answers the sum, except for task t001 where
    // every call returns a different text.
    let counter = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let c = counter.clone();
    let cfg = verity_testkit::FakeConfig::default().with_answer(move |req| {
        let text = verity_testkit::last_user_text(req);
        if text.contains("1 + 1") {
            format!(
                "{}",
                2 + c.fetch_add(1, std::sync::atomic::Ordering::SeqCst)
            )
        } else {
            verity_testkit::default_answer(req)
        }
    });
    let server = FakeServer::start_with(cfg).await;
    let r = run(
        suite(
            3,
            openai(&server),
            vec![scorer("equals", json!({})), scorer("identical", json!({}))],
            3,
        ),
        2,
        fast_retry(),
        Shutdown::new(),
        None,
    )
    .await;
    assert_eq!(r.summary.completed, 9);
    let groups = r.store.load_groups(&r.summary.run_id, None).unwrap();
    assert_eq!(groups.len(), 3);
    let g1 = groups.iter().find(|g| g.group == "t001").unwrap();
    assert_eq!(g1.scores[0].status, ScoreStatus::Fail);
    let samples = r.store.load_samples(&r.summary.run_id, None).unwrap();
    for s in &samples {
        let want = if s.key.task_id == "t001" {
            Outcome::Fail
        } else {
            Outcome::Pass
        };
        assert_eq!(s.outcome, want, "{}", s.key);
    }
    assert_eq!(r.summary.failed, 3);
    // Rescoring reproduces the same verdicts from the stored answers alone.
    let mut store = r.store;
    let before = server.stats().requests;
    let rs = verity_runner::rescore(&mut store, &r.summary.run_id, None).unwrap();
    assert_eq!((rs.scoring, rs.samples, rs.changed), (2, 9, 0));
    assert_eq!(server.stats().requests, before, "rescore calls no model");
    let again = store.load_samples(&r.summary.run_id, None).unwrap();
    assert_eq!(
        again.iter().map(|s| s.outcome).collect::<Vec<_>>(),
        samples.iter().map(|s| s.outcome).collect::<Vec<_>>()
    );
}

/// Stands in for a model API that fails `fail_first` times with a 503, then answers; records
/// when each call arrived on tokio's clock.
struct Flaky {
    fail_first: usize,
    calls: std::sync::Mutex<Vec<tokio::time::Instant>>,
}

impl Provider for Flaky {
    fn kind(&self) -> &str {
        "flaky"
    }
    fn model(&self) -> &str {
        "flaky-1"
    }
    fn endpoint(&self) -> String {
        "test://flaky".into()
    }
    fn generate<'a>(
        &'a self,
        req: &'a GenerateRequest,
    ) -> BoxFuture<'a, Result<Generation, ProviderError>> {
        Box::pin(async move {
            let n = {
                let mut c = self.calls.lock().unwrap();
                c.push(tokio::time::Instant::now());
                c.len()
            };
            if n <= self.fail_first {
                return Err(ProviderError::new(
                    ProviderErrorKind::Server { status: 503 },
                    "overloaded",
                ));
            }
            Ok(Generation {
                text: req.task.target[0].clone(),
                ..Generation::default()
            })
        })
    }
}

#[tokio::test(start_paused = true)]
async fn backoff_follows_the_policy_on_the_clock() {
    let flaky = Arc::new(Flaky {
        fail_first: 3,
        calls: std::sync::Mutex::new(Vec::new()),
    });
    let providers: HashMap<String, Arc<dyn Provider>> =
        HashMap::from([("v".to_owned(), flaky.clone() as Arc<dyn Provider>)]);
    let policy = RetryPolicy {
        jitter: false,
        ..RetryPolicy::default()
    };
    let r = run_with(
        suite(1, mock(0), vec![scorer("equals", json!({}))], 1),
        1,
        policy,
        Shutdown::new(),
        None,
        Knobs {
            providers: Some(providers),
            ..Knobs::default()
        },
    )
    .await;
    assert_eq!(r.summary.passed, 1);
    let calls = flaky.calls.lock().unwrap().clone();
    let gaps: Vec<u128> = calls
        .windows(2)
        .map(|w| (w[1] - w[0]).as_millis())
        .collect();
    assert_eq!(gaps, [500, 1000, 2000], "500 ms initial, doubling");
}

#[tokio::test(start_paused = true)]
async fn requests_per_minute_are_respected() {
    let limits = LimitSpec {
        rpm: Some(60),
        ..LimitSpec::default()
    };
    let t0 = tokio::time::Instant::now();
    let r = run_with(
        suite(70, mock(0), vec![], 1),
        8,
        fast_retry(),
        Shutdown::new(),
        None,
        Knobs {
            limits: Some(limits),
            ..Knobs::default()
        },
    )
    .await;
    assert_eq!(r.summary.completed, 70);
    let secs = t0.elapsed().as_secs_f64();
    // 60 at once, then one a second.
    assert!(
        (9.5..12.0).contains(&secs),
        "70 requests at 60/min took {secs:.1}s of tokio time"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn token_budget_stops_scheduling_and_keeps_finished_work() {
    let server = FakeServer::start().await;
    let r = run_with(
        suite(40, openai(&server), vec![scorer("equals", json!({}))], 1),
        1,
        fast_retry(),
        Shutdown::new(),
        None,
        Knobs {
            budget: Some(Budget::new(None, Some(60))),
            ..Knobs::default()
        },
    )
    .await;
    assert_eq!(r.summary.status, RunStatus::Interrupted);
    assert!(
        r.summary.completed > 0 && r.summary.completed < 40,
        "{}",
        r.summary.completed
    );
    assert!(
        r.events
            .iter()
            .any(|e| matches!(e, RunEvent::BudgetReached { tokens, .. } if *tokens >= 60))
    );
    let obs = r.store.observations(&r.summary.run_id).unwrap();
    let used: u64 = obs.iter().map(|o| o.input_tokens + o.output_tokens).sum();
    // The run stops within one in-flight call of the limit.
    let per_call = used / r.summary.completed;
    assert!(used >= 60 && used < 60 + 2 * per_call, "used {used} tokens");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cache_live_then_replay_calls_no_model() {
    let dir = tempfile::tempdir().unwrap();
    let server = FakeServer::start().await;
    let s = suite(5, openai(&server), vec![scorer("equals", json!({}))], 1);
    let db = dir.path().join("c.db");
    let go = |s: Suite, mode: CacheMode| {
        let db = db.clone();
        async move {
            let p = plan(
                s,
                "mem",
                &PlanOptions {
                    concurrency: 2,
                    ..PlanOptions::default()
                },
            )
            .unwrap();
            let providers: HashMap<String, Arc<dyn Provider>> = p
                .suite
                .variants
                .iter()
                .map(|v| {
                    (
                        v.name.clone(),
                        verity_providers::build(&v.provider).unwrap(),
                    )
                })
                .collect();
            let (tx, _rx) = tokio::sync::mpsc::unbounded_channel();
            execute(Execution {
                plan: p,
                providers,
                store_path: db,
                retry: fast_retry(),
                call_timeout: Some(Duration::from_secs(10)),
                resume: false,
                only: None,
                cache: mode,
                limits: HashMap::new(),
                budget: Arc::new(Budget::default()),
                prices: Prices::default(),
                events: tx,
                shutdown: Shutdown::new(),
            })
            .await
            .unwrap()
        }
    };
    let first = go(s.clone(), CacheMode::Live).await;
    assert_eq!(first.passed, 5);
    assert_eq!(server.stats().requests, 5);
    let second = go(s.clone(), CacheMode::Live).await;
    assert_eq!(second.passed, 5);
    assert_eq!(
        server.stats().requests,
        5,
        "live mode answered from the cache"
    );
    let store = Store::open(&db).unwrap();
    assert!(
        store
            .load_samples(&second.run_id, None)
            .unwrap()
            .iter()
            .all(|s| s.response.cache_hit)
    );
    let replay = go(s.clone(), CacheMode::Replay).await;
    assert_eq!(replay.passed, 5);
    // Another epoch is another answer: replay misses, naming the sample.
    let mut two = s.clone();
    two.epochs = 2;
    let r2 = go(two, CacheMode::Replay).await;
    assert_eq!((r2.passed, r2.errors), (5, 5));
    let missed = store
        .load_samples(&r2.run_id, None)
        .unwrap()
        .into_iter()
        .find(|s| s.response.is_error())
        .unwrap();
    let e = missed.response.error.unwrap();
    assert_eq!(e.kind, "cache_miss");
    assert!(e.message.contains(&missed.key.task_id), "{}", e.message);
    let refresh = go(s.clone(), CacheMode::Refresh).await;
    assert_eq!(refresh.passed, 5);
    assert_eq!(server.stats().requests, 10, "refresh calls the model again");
    assert_eq!(server.stats().requests, 10);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn survives_a_429_burst_where_every_request_fails_for_a_while() {
    let server = FakeServer::start().await;
    // The first 30 requests all get 429: with 10 samples in flight that is every request of
    // the first three rounds.
    server.fail_next(30, Fault::rate_limited("0"));
    let policy = RetryPolicy {
        max_retries: 10,
        ..fast_retry()
    };
    let r = run(
        suite(10, openai(&server), vec![scorer("equals", json!({}))], 1),
        10,
        policy,
        Shutdown::new(),
        None,
    )
    .await;
    assert_eq!(
        (r.summary.completed, r.summary.passed, r.summary.errors),
        (10, 10, 0)
    );
    let obs = r.store.observations(&r.summary.run_id).unwrap();
    assert_eq!(
        obs.iter()
            .filter(|o| o.error_kind.as_deref() == Some("rate_limited"))
            .count(),
        30
    );
    assert_eq!(server.pending_faults(), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn retry_after_is_honoured() {
    let server = FakeServer::start().await;
    server.push_faults([Fault::rate_limited("0.4")]);
    let t0 = std::time::Instant::now();
    let r = run(
        suite(1, openai(&server), vec![], 1),
        1,
        fast_retry(),
        Shutdown::new(),
        None,
    )
    .await;
    assert_eq!(r.summary.completed, 1);
    let e = t0.elapsed();
    // Retry-After is capped by the policy's max_delay (20 ms in fast_retry)…
    assert!(e < Duration::from_millis(350), "{e:?}");
    // …and honoured in full below the cap.
    let policy = RetryPolicy {
        max_delay: Duration::from_secs(5),
        ..fast_retry()
    };
    server.push_faults([Fault::rate_limited("0.4")]);
    let t1 = std::time::Instant::now();
    let r = run(
        suite(1, openai(&server), vec![], 1),
        1,
        policy,
        Shutdown::new(),
        None,
    )
    .await;
    assert_eq!(r.summary.passed + r.summary.failed, 1);
    assert!(
        t1.elapsed() >= Duration::from_millis(400),
        "waited only {:?}",
        t1.elapsed()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hanging_server_times_out_and_the_retry_succeeds() {
    let server = FakeServer::start().await;
    server.push_faults([
        Fault::Hang,
        Fault::Truncated,
        Fault::SlowBody {
            chunk_delay: Duration::from_millis(400),
        },
    ]);
    let mut spec = openai(&server);
    spec.options.insert("timeout_s".into(), json!(0.3));
    let t0 = std::time::Instant::now();
    let r = run(
        suite(2, spec, vec![scorer("equals", json!({}))], 1),
        1,
        fast_retry(),
        Shutdown::new(),
        None,
    )
    .await;
    assert_eq!(r.summary.passed, 2);
    assert!(
        t0.elapsed() < Duration::from_secs(5),
        "no hang: {:?}",
        t0.elapsed()
    );
    let kinds: Vec<_> = r
        .store
        .observations(&r.summary.run_id)
        .unwrap()
        .into_iter()
        .filter_map(|o| o.error_kind)
        .collect();
    assert_eq!(kinds, ["timeout", "connection", "timeout"]);
}
