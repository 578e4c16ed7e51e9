//! Runner tests: real providers (mock in-process, openai over HTTP to the fake server), a real
//! SQLite store in a temp dir.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use verity_model::*;
use verity_runner::{
    Budget, CacheMode, Execution, LimitSpec, PlanOptions, Prices, RetryPolicy, RunEvent,
    RunRequest, Shutdown, execute,
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
        perturb: None,
        run: Default::default(),
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
        gates: Vec::new(),
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
    let p = plan_in(
        &db,
        s,
        PlanOptions {
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
    let summary = execute(
        Execution {
            plan: p,
            providers,
            retry,
            fail_fast: verity_runner::FailFast::default(),
            call_timeout: Some(Duration::from_secs(10)),
            resume: false,
            only: None,
            cache: knobs.cache.unwrap_or(CacheMode::Off),
            limits,
            budget: Arc::new(knobs.budget.unwrap_or_default()),
            prices: Prices::with_overrides(&BTreeMap::new()),
            events: tx,
            shutdown,
        },
        &mut Store::open(&db).unwrap(),
    )
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
        max_elapsed: Duration::from_secs(30),
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

/// Seed 004 §12: a sample whose call failed is an invalid run. The epochs scorer gets the
/// errored epoch with the others (it used to be dropped before group scoring), so a task whose
/// answers agree but whose one epoch errored fails, and the group names the epoch and the error.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_errored_epoch_reaches_the_epochs_scorer_and_fails_the_task() {
    let server = FakeServer::start().await;
    // The first call gets a 503 and is not retried: that epoch's sample is an error.
    server.fail_next(1, Fault::status(503));
    let no_retry = RetryPolicy {
        max_retries: 0,
        ..fast_retry()
    };
    let r = run(
        suite(
            1,
            openai(&server),
            vec![scorer("equals", json!({})), scorer("identical", json!({}))],
            3,
        ),
        1,
        no_retry,
        Shutdown::new(),
        None,
    )
    .await;
    let samples = r.store.load_samples(&r.summary.run_id, None).unwrap();
    assert_eq!(samples.len(), 3);
    let errored: Vec<&SampleRecord> = samples.iter().filter(|s| s.response.is_error()).collect();
    assert_eq!(errored.len(), 1, "one epoch errored");
    let groups = r.store.load_groups(&r.summary.run_id, None).unwrap();
    assert_eq!(groups.len(), 1);
    let g = &groups[0];
    assert_eq!(g.task_ids, ["t000"]);
    assert_eq!(g.scores[0].status, ScoreStatus::Fail);
    let want = format!("epoch {} errored (", errored[0].key.epoch);
    assert!(
        g.scores[0].evidence[0].message.starts_with(&want),
        "{:?}",
        g.scores[0].evidence
    );
    // The epochs that answered (correctly, and alike) fail with their task; the errored one is
    // an error.
    for s in &samples {
        let want = if s.response.is_error() {
            Outcome::Error
        } else {
            Outcome::Fail
        };
        assert_eq!(s.outcome, want, "{}", s.key);
        if !s.response.is_error() {
            assert!(
                s.scores
                    .iter()
                    .any(|x| x.criterion == "equals" && x.status == ScoreStatus::Pass)
            );
        }
    }
    // Rescoring from the store reaches the same verdicts.
    let mut store = r.store;
    let rs = verity_runner::rescore(&mut store, &r.summary.run_id, None).unwrap();
    assert_eq!(rs.changed, 0);
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
            let p = plan_in(
                &db,
                s,
                PlanOptions {
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
            execute(
                Execution {
                    plan: p,
                    providers,
                    retry: fast_retry(),
                    fail_fast: verity_runner::FailFast::default(),
                    call_timeout: Some(Duration::from_secs(10)),
                    resume: false,
                    only: None,
                    cache: mode,
                    limits: HashMap::new(),
                    budget: Arc::new(Budget::default()),
                    prices: Prices::default(),
                    events: tx,
                    shutdown: Shutdown::new(),
                },
                &mut Store::open(&db).unwrap(),
            )
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

/// A model API that counts the calls it answers (the outside world, stood in by the mock).
struct Counting {
    inner: Arc<dyn Provider>,
    calls: Arc<std::sync::atomic::AtomicU64>,
}

impl Provider for Counting {
    fn kind(&self) -> &str {
        self.inner.kind()
    }
    fn model(&self) -> &str {
        self.inner.model()
    }
    fn endpoint(&self) -> String {
        self.inner.endpoint()
    }
    fn answer_depends_on_task(&self) -> bool {
        self.inner.answer_depends_on_task()
    }
    fn generate<'a>(
        &'a self,
        req: &'a GenerateRequest,
    ) -> BoxFuture<'a, Result<Generation, ProviderError>> {
        self.calls.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        self.inner.generate(req)
    }
}

fn counting(spec: &ProviderSpec) -> (Arc<dyn Provider>, Arc<std::sync::atomic::AtomicU64>) {
    let calls = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let p: Arc<dyn Provider> = Arc::new(Counting {
        inner: verity_providers::build(spec).unwrap(),
        calls: calls.clone(),
    });
    (p, calls)
}

/// Executes `p` against the database at `db`, collecting the events.
async fn execute_at(
    p: verity_runner::Plan,
    db: &std::path::Path,
    provider: Arc<dyn Provider>,
    resume: bool,
) -> (
    Result<verity_runner::RunSummary, verity_runner::RunError>,
    Vec<RunEvent>,
) {
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let collector = tokio::spawn(async move {
        let mut evs = Vec::new();
        while let Some(e) = rx.recv().await {
            evs.push(e);
        }
        evs
    });
    let providers = HashMap::from([("v".to_owned(), provider)]);
    let result = execute(
        Execution {
            plan: p,
            providers,
            retry: fast_retry(),
            fail_fast: verity_runner::FailFast::default(),
            call_timeout: Some(Duration::from_secs(10)),
            resume,
            only: None,
            cache: CacheMode::Off,
            limits: HashMap::new(),
            budget: Arc::new(Budget::default()),
            prices: Prices::with_overrides(&BTreeMap::new()),
            events: tx,
            shutdown: Shutdown::new(),
        },
        &mut Store::open(db).unwrap(),
    )
    .await;
    (result, collector.await.unwrap())
}

fn finished_keys(events: &[RunEvent]) -> Vec<SampleKey> {
    events
        .iter()
        .filter_map(|e| match e {
            RunEvent::SampleFinished { key, .. } => Some(key.clone()),
            _ => None,
        })
        .collect()
}

/// A commit that fails (here a real SQLite error, raised by a trigger on one sample's row, as a
/// full disk would raise one on any) stops the run at once: nothing is announced as finished
/// unless it is stored, the run is left interrupted and says exactly what it stored, and a
/// resume sends only what is missing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_commit_stops_the_run_and_resume_sends_only_what_is_missing() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("r.db");
    drop(Store::open(&db).unwrap());
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch(
        "CREATE TRIGGER inject BEFORE INSERT ON samples WHEN NEW.task_id = 't300'
         BEGIN SELECT RAISE(ABORT, 'injected write error'); END;",
    )
    .unwrap();
    let n = 600u64;
    let s = suite(n as usize, mock(0), vec![scorer("equals", json!({}))], 1);
    let p = plan_in(
        &db,
        s,
        PlanOptions {
            concurrency: 8,
            ..PlanOptions::default()
        },
    )
    .unwrap();
    let run_id = p.run_id.clone();
    let (provider, calls) = counting(&mock(0));
    let (result, events) = execute_at(p, &db, provider, false).await;
    let stopped = match result {
        Err(verity_runner::RunError::Stopped(s)) => s,
        other => panic!("expected a stopped run, got {other:?}"),
    };
    assert!(
        matches!(&stopped.stop, verity_runner::Stop::Store(m) if m.to_string().contains("injected write error")),
        "{:?}",
        stopped.stop
    );
    let store = Store::open(&db).unwrap();
    let stored = store.completed_keys(&run_id).unwrap();
    assert_eq!(stopped.stored.as_ref().ok(), Some(&(stored.len() as u64)));
    // Samples finish out of order, so a few of those scheduled after t300 (at most the
    // concurrency) may have committed before it.
    assert!(
        stored.len() < 300 + 8,
        "nothing after the failed batch is stored ({})",
        stored.len()
    );
    assert!(!stored.iter().any(|k| k.task_id == "t300"));
    // Announced as finished ⇔ stored.
    let announced = finished_keys(&events);
    assert_eq!(announced.len(), stored.len());
    assert!(announced.iter().all(|k| stored.contains(k)));
    assert!(
        events
            .iter()
            .any(|e| matches!(e, RunEvent::Stopping(verity_runner::Stop::Store(_))))
    );
    assert_eq!(
        store.load_run_meta(&run_id).unwrap().status,
        RunStatus::Interrupted
    );
    assert!(stopped.marked.is_ok());
    let first_calls = calls.load(std::sync::atomic::Ordering::SeqCst);
    assert!(
        first_calls < n,
        "scheduling stopped at the failure ({first_calls} calls)"
    );
    assert!(
        stopped
            .to_string()
            .contains(&format!("verity run --resume {run_id}"))
    );

    // The cause fixed, a resume sends exactly the samples that are not stored.
    conn.execute_batch("DROP TRIGGER inject").unwrap();
    let meta = store.load_run_meta(&run_id).unwrap();
    let p = verity_runner::plan_from_run(&meta, store.task_count(&run_id).unwrap());
    let (provider, calls) = counting(&mock(0));
    let (result, events) = execute_at(p, &db, provider, true).await;
    let summary = result.unwrap();
    assert_eq!(summary.status, RunStatus::Completed);
    assert_eq!(summary.completed, n);
    assert_eq!(
        calls.load(std::sync::atomic::Ordering::SeqCst),
        n - stored.len() as u64
    );
    assert_eq!(finished_keys(&events).len() as u64, n - stored.len() as u64);
}

/// When SQLite falls behind (here another connection holds the write lock for seconds),
/// finished samples wait for the writer instead of piling up in memory: the provider is asked
/// for at most what the bounded queue, one batch and the calls in flight can hold.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_writer_slower_than_the_provider_holds_the_provider_back() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("r.db");
    // Enough samples that the run cannot finish before the lock is taken, even on a loaded
    // machine where the locking thread starts late (at 6,000 it once had, at 4,448 answered).
    let n = 20_000u64;
    let concurrency = 16u64;
    let s = suite(n as usize, mock(0), vec![], 1);
    let p = plan_in(
        &db,
        s,
        PlanOptions {
            concurrency: concurrency as usize,
            ..PlanOptions::default()
        },
    )
    .unwrap();
    let (provider, calls) = counting(&mock(0));
    let run = tokio::spawn({
        let db = db.clone();
        async move { execute_at(p, &db, provider, false).await }
    });
    // Once the run is going, take the write lock from another connection and hold it.
    while calls.load(std::sync::atomic::Ordering::SeqCst) < 100 {
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    let (locked_tx, locked_rx) = std::sync::mpsc::channel();
    let locker = std::thread::spawn({
        let db = db.clone();
        let calls = calls.clone();
        move || {
            let conn = rusqlite::Connection::open(&db).unwrap();
            conn.busy_timeout(Duration::from_secs(30)).unwrap();
            conn.execute_batch("BEGIN IMMEDIATE").unwrap();
            let at_lock = calls.load(std::sync::atomic::Ordering::SeqCst);
            locked_tx.send(()).unwrap();
            std::thread::sleep(Duration::from_secs(3));
            let at_release = calls.load(std::sync::atomic::Ordering::SeqCst);
            conn.execute_batch("COMMIT").unwrap();
            (at_lock, at_release)
        }
    });
    locked_rx.recv().unwrap();
    let (at_lock, at_release) = locker.join().unwrap();
    let (result, events) = run.await.unwrap();
    let summary = result.unwrap();
    assert_eq!(summary.completed, n, "every sample is stored in the end");
    assert_eq!(finished_keys(&events).len() as u64, n);
    // The writer holds at most one batch of 512 writes (a sample is a few writes) while the
    // queue holds 1,024 samples and `concurrency` more are in flight.
    let bound = 1024 + 512 + concurrency;
    assert!(
        at_release - at_lock <= bound,
        "{} calls answered while nothing could be stored (bound {bound})",
        at_release - at_lock
    );
    assert!(
        at_release < n,
        "the provider answered every sample while the store was locked: no back-pressure"
    );
}

/// A run of `s` prepared in the database at `db`: its tasks staged and committed with its row,
/// as `verity run` prepares one.
fn plan_in(
    db: &std::path::Path,
    s: Suite,
    options: PlanOptions,
) -> Result<verity_runner::Plan, verity_runner::PrepareError> {
    let mut store = Store::open(db)?;
    verity_runner::prepare_suite(
        s,
        "mem",
        &RunRequest {
            options,
            ..RunRequest::default()
        },
        &mut store,
    )
}
