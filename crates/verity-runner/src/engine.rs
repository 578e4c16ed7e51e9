//! The scheduler: runs every sample of a plan under the concurrency limit and commits each as
//! it completes.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use std::sync::Mutex;

use tokio::sync::{Semaphore, mpsc, watch};
use tokio::task::JoinSet;
use verity_model::{
    ChatMessage, GenerateRequest, GroundingMode, Outcome, Provider, Response, ResponseError, Role,
    RunMeta, RunStatus, SampleKey, SampleRecord, Suite, Task, ToolCall, Usage, Variant,
};
use verity_store::{CachedGeneration, Observation, Store, TaskPages, Write};
use verity_suite::render::Renderer;

use crate::budget::{Budget, Estimate, Prices, estimate_tokens};
use crate::cache::{CacheMode, cache_key, framed_blake3};
use crate::grounding::{
    CALL_TIMEOUT, Grounded, MAX_TOOL_ROUNDS, infra_error, inject_top_k, start_servers, stop_servers,
};
use crate::limits::{LimitSpec, ProviderLimits};
use crate::retry::{RetryPolicy, is_rate_limit, jitter_random};
use crate::scoring::{Scorers, score_groups, score_sample};
use crate::stop::{FailFast, Failure, Stop};
use crate::writer::Writer;
use crate::{Plan, RunError, Stopped};

/// What the runner tells whoever watches it (a progress bar, a log). Reporters consume these;
/// they never drive the run.
#[derive(Clone, Debug, PartialEq)]
pub enum RunEvent {
    Started {
        run_id: String,
        total: u64,
        already_done: u64,
    },
    Retrying {
        key: SampleKey,
        attempt: u32,
        delay: Duration,
        error: String,
    },
    /// A sample is stored: sent once its transaction has committed, never before.
    SampleFinished {
        key: SampleKey,
        outcome: Outcome,
        latency_ms: u64,
        cache_hit: bool,
        error: Option<String>,
    },
    /// `--max-cost` / `--max-tokens` reached: no new samples are scheduled.
    BudgetReached {
        cost: f64,
        tokens: u64,
    },
    /// Scheduling stopped on request; in-flight samples are finishing.
    Draining,
    /// The run stops early on its own account (see [`Stop`]): no new samples, and the ones in
    /// flight are abandoned (a later `--resume` sends them again).
    Stopping(Stop),
    Finished(RunSummary),
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq)]
pub struct RunSummary {
    pub run_id: String,
    pub status: RunStatus,
    pub total: u64,
    /// Samples stored for the run (including ones from before a resume).
    pub completed: u64,
    pub passed: u64,
    pub failed: u64,
    pub errors: u64,
    pub elapsed: Duration,
}

/// Asks a run to stop: the first request drains (no new samples; in-flight ones finish and are
/// stored), the second aborts in-flight calls. The database stays consistent either way.
#[derive(Clone, Debug)]
pub struct Shutdown(watch::Sender<u8>);

impl Default for Shutdown {
    fn default() -> Self {
        Shutdown(watch::channel(0).0)
    }
}

impl Shutdown {
    pub fn new() -> Self {
        Self::default()
    }

    /// Escalates: none → drain → abort.
    pub fn request(&self) {
        self.0.send_modify(|l| *l = (*l + 1).min(2));
    }

    /// Asks for a drain without escalating an earlier request.
    pub fn drain(&self) {
        self.0.send_modify(|l| *l = (*l).max(1));
    }

    pub fn level(&self) -> u8 {
        *self.0.borrow()
    }

    fn subscribe(&self) -> watch::Receiver<u8> {
        self.0.subscribe()
    }
}

/// Everything [`execute`] needs.
pub struct Execution {
    pub plan: Plan,
    /// variant name → its provider.
    pub providers: HashMap<String, Arc<dyn Provider>>,
    pub store_path: PathBuf,
    pub retry: RetryPolicy,
    /// When a provider's errors stop the run instead of being stored sample by sample.
    pub fail_fast: FailFast,
    /// Upper bound on one provider call, on top of the provider's own timeout; `None` takes
    /// each provider's [`Provider::default_call_timeout`].
    pub call_timeout: Option<Duration>,
    /// Continue a run already in the store instead of creating one: its stored samples are
    /// not sent again.
    pub resume: bool,
    /// Run only these samples (e.g. `verity retry --failed`), even when already stored: the new
    /// result replaces the stored one.
    pub only: Option<HashSet<SampleKey>>,
    pub cache: CacheMode,
    /// Per-variant provider limits; variants reaching the same endpoint share them.
    pub limits: HashMap<String, LimitSpec>,
    pub budget: Arc<Budget>,
    pub prices: Prices,
    pub events: mpsc::UnboundedSender<RunEvent>,
    pub shutdown: Shutdown,
}

impl std::fmt::Debug for Execution {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Execution")
            .field("run_id", &self.plan.run_id)
            .finish_non_exhaustive()
    }
}

struct Ctx {
    run_id: String,
    variants: HashMap<String, Variant>,
    prompt_hashes: HashMap<String, String>,
    providers: HashMap<String, Arc<dyn Provider>>,
    renderer: Renderer,
    scorers: Scorers,
    retry: RetryPolicy,
    fail_fast: FailFast,
    failure: Arc<Failure>,
    call_timeout: Option<Duration>,
    writer: Writer,
    events: mpsc::UnboundedSender<RunEvent>,
    abort: watch::Receiver<u8>,
    shutdown: Shutdown,
    cache: CacheMode,
    /// A read connection for cache lookups (the writer owns the write connection).
    cache_reader: Option<Mutex<Store>>,
    /// variant -> the limits of its provider endpoint.
    limits: HashMap<String, Arc<ProviderLimits>>,
    budget: Arc<Budget>,
    prices: Prices,
    grounding: HashMap<String, Grounded>,
    budget_hit: std::sync::atomic::AtomicBool,
}

fn now_rfc3339() -> String {
    jiff::Timestamp::now()
        .round(jiff::Unit::Millisecond)
        .unwrap_or_else(|_| jiff::Timestamp::now())
        .to_string()
}

/// The hash that identifies a variant's prompt templates (`-` without any).
pub(crate) fn prompt_hash(v: &Variant) -> String {
    match (&v.system, &v.prompt) {
        (None, None) => "-".into(),
        (s, p) => framed_blake3([
            s.as_ref().map_or(&b""[..], |t| t.hash.as_bytes()),
            p.as_ref().map_or(&b""[..], |t| t.hash.as_bytes()),
        ]),
    }
}

/// Runs a plan to the end (or until shut down) and returns how it went.
pub async fn execute(ex: Execution) -> Result<RunSummary, RunError> {
    let started = Instant::now();
    let mut plan = ex.plan;
    let total = plan.total();
    let suite = &plan.suite;
    for v in &suite.variants {
        if !ex.providers.contains_key(&v.name) {
            return Err(RunError::Plan(format!(
                "no provider for variant `{}`",
                v.name
            )));
        }
    }
    let scorers = Scorers::build(suite)?;
    let renderer =
        Renderer::new(suite).map_err(|e| RunError::Plan(format!("prompt templates: {e}")))?;
    let store = Store::open(&ex.store_path)?;
    let prompt_hashes: HashMap<String, String> = suite
        .variants
        .iter()
        .map(|v| (v.name.clone(), prompt_hash(v)))
        .collect();

    let mut store = store;
    let done: HashSet<SampleKey> = if ex.resume || ex.only.is_some() {
        let mut meta = store.load_run_meta(&plan.run_id)?;
        meta.status = RunStatus::Running;
        meta.finished_at = None;
        store.update_run_meta(&meta)?;
        store.completed_keys(&plan.run_id)?
    } else {
        let models = suite
            .variants
            .iter()
            .map(|v| {
                let p = &ex.providers[&v.name];
                (v.name.clone(), format!("{}/{}", p.kind(), p.model()))
            })
            .collect();
        // The stored suite is the plan's own, moved in and back out: a large suite is never
        // held twice. Its tasks go to the `tasks` table with the run row. A plan whose tasks
        // were staged while the suite streamed in has none in hand, and its row was written
        // with them ([`staged_run_meta`]): it gets the providers' own names of their models.
        let mut meta = new_run_meta(&plan, Suite::default(), models);
        meta.suite = std::mem::take(&mut plan.suite);
        let written = if plan.stored_tasks.is_some() {
            store.update_run_meta(&meta)
        } else {
            store.insert_run(&meta)
        };
        plan.suite = meta.suite;
        written?;
        HashSet::new()
    };
    // From here on the tasks are read back from the store a page at a time: memory does not
    // depend on how many there are.
    plan.suite.tasks = Vec::new();
    let suite = &plan.suite;
    let already_done = match &ex.only {
        Some(only) => done
            .len()
            .saturating_sub(only.iter().filter(|k| done.contains(*k)).count()),
        None => done.len(),
    };
    let _ = ex.events.send(RunEvent::Started {
        run_id: plan.run_id.clone(),
        total,
        already_done: already_done as u64,
    });

    let failure = Arc::new(Failure::new());
    let writer = Writer::spawn(&ex.store_path, ex.events.clone(), failure.clone())?;
    let cache_reader = if ex.cache.reads() {
        Some(Mutex::new(Store::open(&ex.store_path)?))
    } else {
        None
    };
    // Variants that reach the same endpoint share its limits.
    let mut by_endpoint: HashMap<String, Arc<ProviderLimits>> = HashMap::new();
    let mut limits = HashMap::new();
    for v in &suite.variants {
        let p = &ex.providers[&v.name];
        let spec = ex.limits.get(&v.name).cloned().unwrap_or_default();
        let shared = by_endpoint
            .entry(format!("{}|{}", p.kind(), p.endpoint()))
            .or_insert_with(|| {
                Arc::new(ProviderLimits::new(&spec, plan.options.concurrency.max(1)))
            })
            .clone();
        limits.insert(v.name.clone(), shared);
    }
    // Grounding servers start before any sample; one that will not start aborts the run.
    let grounding = match start_servers(suite).await {
        Ok(g) => g,
        Err(e) => {
            drop(writer);
            store.set_run_status(&plan.run_id, RunStatus::Failed, Some(&now_rfc3339()))?;
            return Err(e);
        }
    };
    let ctx = Arc::new(Ctx {
        run_id: plan.run_id.clone(),
        variants: suite
            .variants
            .iter()
            .map(|v| (v.name.clone(), v.clone()))
            .collect(),
        prompt_hashes,
        providers: ex.providers,
        renderer,
        scorers,
        retry: ex.retry,
        fail_fast: ex.fail_fast,
        failure: failure.clone(),
        call_timeout: ex.call_timeout,
        writer,
        events: ex.events.clone(),
        abort: ex.shutdown.subscribe(),
        shutdown: ex.shutdown.clone(),
        cache: ex.cache,
        cache_reader,
        limits,
        budget: ex.budget.clone(),
        prices: ex.prices.clone(),
        grounding,
        budget_hit: std::sync::atomic::AtomicBool::new(false),
    });

    let sem = Arc::new(Semaphore::new(plan.options.concurrency.max(1)));
    let mut set: JoinSet<Result<(), String>> = JoinSet::new();
    let mut shutdown = ex.shutdown.subscribe();
    let mut stopping = failure.subscribe();
    let mut interrupted = false;
    let mut pages = TaskPages::new(&plan.run_id);
    'schedule: while let Some(page) = pages.next(&store)? {
        for task in page {
            let task = Arc::new(task);
            let keys = crate::plan::sample_keys(
                std::iter::once(task.id.as_str()),
                &suite.variants,
                suite.epochs,
            );
            for key in keys {
                match &ex.only {
                    Some(only) if !only.contains(&key) => continue,
                    None if done.contains(&key) => continue,
                    _ => {}
                }
                if *shutdown.borrow() > 0 {
                    interrupted = true;
                    break 'schedule;
                }
                let permit = tokio::select! {
                    biased;
                    _ = stopping.changed() => break 'schedule,
                    _ = shutdown.changed() => { interrupted = true; break 'schedule; }
                    p = sem.clone().acquire_owned() => match p { Ok(p) => p, Err(_) => break 'schedule },
                };
                while let Some(r) = set.try_join_next() {
                    if let Ok(Err(e)) = r {
                        failure.raise(Stop::Store(e));
                    }
                }
                if failure.is_raised() {
                    break 'schedule;
                }
                let ctx = ctx.clone();
                let task = task.clone();
                set.spawn(async move {
                    let r = run_sample(&ctx, key, &task).await;
                    drop(permit);
                    r
                });
            }
        }
    }
    if interrupted && !failure.is_raised() {
        let _ = ex.events.send(RunEvent::Draining);
    }
    // Drain in-flight samples; a second shutdown request aborts them, and so does a failure
    // that stops the run (their answers could not be stored, or would fail alike).
    let mut announced = false;
    loop {
        if let Some(stop) = failure.get().filter(|_| !announced) {
            announced = true;
            let _ = ex.events.send(RunEvent::Stopping(stop));
            set.abort_all();
        }
        tokio::select! {
            biased;
            _ = stopping.changed(), if !announced => {}
            _ = shutdown.changed(), if *shutdown.borrow() < 2 => {
                if *shutdown.borrow() >= 2 { set.abort_all(); }
                interrupted = true;
            }
            r = set.join_next() => match r {
                None => break,
                Some(Ok(Err(e))) => { failure.raise(Stop::Store(e)); }
                Some(_) => {}
            },
        }
    }
    if *shutdown.borrow() > 0 {
        interrupted = true;
    }
    let ctx = Arc::into_inner(ctx)
        .ok_or_else(|| RunError::Writer("sample tasks still hold the run context".into()))?;
    // Everything queued commits before the group scorers read the store.
    if !failure.is_raised()
        && let Err(e) = ctx.writer.flush().await
    {
        failure.raise(Stop::Store(e));
    }

    // Group scorers see the stored answers, after the last sample.
    let scoring = 1;
    if ctx.scorers.has_group_scorers() && !interrupted && !failure.is_raised() {
        // Group scoring sees every task and answer at once; only suites with group scorers
        // pay for loading them.
        let samples = store.load_samples(&ctx.run_id, Some(scoring))?;
        let tasks = store.load_tasks(&ctx.run_id)?;
        let (groups, changed) = score_groups(&ctx.scorers, tasks.iter(), &samples);
        let mut writes: Vec<Write> = groups
            .into_iter()
            .map(|record| Write::Group {
                run_id: ctx.run_id.clone(),
                scoring,
                record,
            })
            .collect();
        writes.extend(changed.into_iter().map(|(key, outcome)| Write::Outcome {
            run_id: ctx.run_id.clone(),
            scoring,
            key,
            outcome,
        }));
        let sent = match ctx.writer.send(writes, None).await {
            Ok(()) => ctx.writer.flush().await,
            Err(e) => Err(e),
        };
        if let Err(e) = sent {
            failure.raise(Stop::Store(e));
        }
    }
    if failure.is_raised() {
        let (e, servers) = stop_run(ctx, &store, total, failure.as_ref());
        stop_servers(servers).await;
        return Err(e);
    }
    if let Some(e) = ctx.writer.close().error {
        // The group scores did not commit; every sample did (the flush above said so).
        stop_servers(ctx.grounding).await;
        return Err(RunError::Writer(e));
    }
    stop_servers(ctx.grounding).await;

    let counts = store.outcome_counts(&plan.run_id, scoring)?;
    let sum = |f: fn(&verity_store::OutcomeCounts) -> u64| counts.iter().map(f).sum::<u64>();
    let completed = sum(|c| c.samples);
    let status = if interrupted && completed < total {
        RunStatus::Interrupted
    } else {
        RunStatus::Completed
    };
    store.set_run_status(&plan.run_id, status, Some(&now_rfc3339()))?;
    let summary = RunSummary {
        run_id: plan.run_id.clone(),
        status,
        total,
        completed,
        passed: sum(|c| c.pass),
        failed: sum(|c| c.fail),
        errors: sum(|c| c.error),
        elapsed: started.elapsed(),
    };
    let _ = ex.events.send(RunEvent::Finished(summary.clone()));
    Ok(summary)
}

/// The row a new run starts with: status `running`, `suite` as given (the caller decides
/// whether it carries tasks), `models` naming each variant's `provider/model`.
pub(crate) fn new_run_meta(
    plan: &Plan,
    suite: Suite,
    models: std::collections::BTreeMap<String, String>,
) -> RunMeta {
    RunMeta {
        id: plan.run_id.clone(),
        suite_path: plan.suite_path.clone(),
        suite,
        options: plan.options.clone(),
        started_at: now_rfc3339(),
        finished_at: None,
        status: RunStatus::Running,
        verity_version: env!("CARGO_PKG_VERSION").to_owned(),
        models,
        prompt_hashes: plan
            .suite
            .variants
            .iter()
            .map(|v| (v.name.clone(), prompt_hash(v)))
            .collect(),
        total_samples: plan.total(),
        scoring: 1,
    }
}

/// The row of a run whose tasks are being staged as its suite streams in, written in the
/// staging transaction ([`verity_store::TaskStage::commit_run`]) so that tasks never exist
/// without their run. Models are named as the suite names them; [`execute`] replaces them
/// with the providers' own names when the run starts.
pub fn staged_run_meta(plan: &Plan) -> RunMeta {
    let mut suite = plan.suite.clone();
    suite.tasks = Vec::new();
    let models = plan
        .suite
        .variants
        .iter()
        .map(|v| {
            (
                v.name.clone(),
                format!(
                    "{}/{}",
                    v.provider.kind,
                    v.provider.model.as_deref().unwrap_or("default")
                ),
            )
        })
        .collect();
    new_run_meta(plan, suite, models)
}

/// Ends a run that a [`Stop`] cut short: waits for the writer to finish what it can, marks the
/// run `interrupted` (resumable once the cause is fixed) and says exactly what is stored.
/// The grounding servers are handed back for the caller to stop (an await that must not
/// hold the store).
fn stop_run(
    ctx: Ctx,
    store: &Store,
    total: u64,
    failure: &Failure,
) -> (RunError, HashMap<String, Grounded>) {
    let report = ctx.writer.close();
    let stop = failure
        .get()
        .unwrap_or_else(|| Stop::Store(report.error.clone().unwrap_or_default()));
    let stored = store
        .completed_keys(&ctx.run_id)
        .map(|k| k.len() as u64)
        .map_err(|e| e.to_string());
    let marked = store
        .set_run_status(&ctx.run_id, RunStatus::Interrupted, Some(&now_rfc3339()))
        .map_err(|e| e.to_string());
    let error = RunError::Stopped(Box::new(Stopped {
        run_id: ctx.run_id,
        stop,
        total,
        stored,
        unstored: report.dropped_samples,
        marked,
    }));
    (error, ctx.grounding)
}

/// Runs one sample to completion and hands it to the writer. The only `Err` is a writer that
/// has stopped; everything a provider or scorer does wrong ends up in the stored sample, except
/// an error that arrives after the run was told to stop: that sample stays unstored (its
/// attempts are kept as observations), so `--resume` sends it again once the cause is fixed.
async fn run_sample(ctx: &Ctx, key: SampleKey, task: &Arc<Task>) -> Result<(), String> {
    let began = Instant::now();
    let variant = &ctx.variants[&key.variant];
    let provider = &ctx.providers[&key.variant];
    let mut writes: Vec<Write> = Vec::with_capacity(3);

    let response = match ctx.renderer.messages(task, variant) {
        Err(e) => Response {
            error: Some(ResponseError {
                kind: "template".into(),
                message: e.to_string(),
            }),
            ..Response::default()
        },
        Ok(mut messages) => {
            let grounded = ctx.grounding.get(&key.variant);
            let mut recorded = Vec::new();
            let mut failed = None;
            if let Some(g) = grounded
                && g.spec.mode == GroundingMode::InjectTopK
            {
                match inject_top_k(g, task.input.prompt_text(), &mut messages).await {
                    Ok(call) => recorded.push(call),
                    Err(e) => failed = Some(e),
                }
            }
            match failed {
                Some(e) => Response {
                    error: Some(e),
                    ..Response::default()
                },
                None => {
                    let tools = grounded
                        .filter(|g| g.spec.mode == GroundingMode::Tools)
                        .map(|g| g.server.openai_tools())
                        .unwrap_or_default();
                    let req = GenerateRequest {
                        sample: key.clone(),
                        task: task.clone(),
                        messages,
                        params: variant.params.clone(),
                        tools,
                    };
                    let mut r = answer(ctx, provider.as_ref(), &req, &mut writes, grounded).await;
                    recorded.append(&mut r.tool_calls);
                    r.tool_calls = recorded;
                    r
                }
            }
        }
    };
    let response = Response {
        latency_ms: began.elapsed().as_millis() as u64,
        ..response
    };
    let (scores, outcome) = score_sample(&ctx.scorers, task, &response);
    let error = response
        .error
        .as_ref()
        .map(|e| format!("{}: {}", e.kind, e.message));
    let cache_hit = response.cache_hit;
    if response.is_error() && ctx.failure.is_raised() {
        return ctx.writer.send(writes, None).await;
    }
    writes.push(Write::Sample {
        run_id: ctx.run_id.clone(),
        scoring: 1,
        record: SampleRecord {
            key: key.clone(),
            response,
            scores,
            outcome,
            completed_at: now_rfc3339(),
        },
    });
    let finished = RunEvent::SampleFinished {
        key,
        outcome,
        latency_ms: began.elapsed().as_millis() as u64,
        cache_hit,
        error,
    };
    ctx.writer.send(writes, Some(finished)).await
}

/// Answers one request: from the cache where the mode allows, else from the provider (with
/// retries), storing fresh answers in the cache where the mode allows.
async fn answer(
    ctx: &Ctx,
    provider: &dyn Provider,
    req: &GenerateRequest,
    writes: &mut Vec<Write>,
    grounded: Option<&Grounded>,
) -> Response {
    let prompt_hash = ctx
        .prompt_hashes
        .get(&req.sample.variant)
        .cloned()
        .unwrap_or_default();
    let input_hash = framed_blake3([
        serde_json::to_string(&req.messages)
            .unwrap_or_default()
            .as_bytes(),
        serde_json::to_string(&req.params)
            .unwrap_or_default()
            .as_bytes(),
    ]);
    let key = (ctx.cache != CacheMode::Off).then(|| {
        cache_key(
            provider,
            req,
            &prompt_hash,
            ctx.grounding
                .get(&req.sample.variant)
                .map(|g| g.identity.as_str()),
        )
    });
    if let (Some(key), Some(reader)) = (&key, &ctx.cache_reader) {
        let hit = reader
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .cache_get(key);
        match hit {
            Ok(Some(g)) => {
                writes.push(Write::Observation(Observation {
                    run_id: ctx.run_id.clone(),
                    key: req.sample.clone(),
                    attempt: 1,
                    started_at: now_rfc3339(),
                    provider: provider.kind().to_owned(),
                    model: provider.model().to_owned(),
                    endpoint: provider.endpoint(),
                    prompt_hash,
                    input_hash,
                    raw_response: None,
                    output_text: Some(g.text.clone()),
                    input_tokens: g.usage.input_tokens,
                    output_tokens: g.usage.output_tokens,
                    latency_ms: 0,
                    cache_hit: true,
                    error_kind: None,
                    error: None,
                }));
                return Response {
                    text: g.text,
                    tool_calls: g.tool_calls,
                    usage: g.usage,
                    latency_ms: 0,
                    cache_hit: true,
                    attempts: 0,
                    model: g.model,
                    finish_reason: g.finish_reason,
                    error: None,
                };
            }
            Ok(None) => {}
            Err(e) if ctx.cache == CacheMode::Replay => {
                return Response {
                    error: Some(ResponseError {
                        kind: "cache".into(),
                        message: format!("cache read failed: {e}"),
                    }),
                    ..Response::default()
                };
            }
            // A cache that cannot be read in live mode is a miss: the model is asked instead.
            Err(_) => {}
        }
    }
    if ctx.cache == CacheMode::Replay {
        return Response {
            error: Some(ResponseError {
                kind: "cache_miss".into(),
                message: format!(
                    "no cached answer for sample {} (cache mode replay calls no model)",
                    req.sample
                ),
            }),
            ..Response::default()
        };
    }
    let (response, generation) = generate_with_tools(
        ctx,
        provider,
        req,
        &prompt_hash,
        &input_hash,
        writes,
        grounded,
    )
    .await;
    if let (Some(g), Some(key)) = (generation, key)
        && ctx.cache.writes()
    {
        writes.push(Write::CachePut {
            key,
            provider: provider.kind().to_owned(),
            model: provider.model().to_owned(),
            created_at: now_rfc3339(),
            entry: g,
        });
    }
    response
}

/// In `tools` grounding mode, runs the bounded tool-call loop: the model's tool calls go to
/// the grounding server and its answers back to the model, until the model answers without
/// calling a tool (or `MAX_TOOL_ROUNDS` is reached). Without it, one call with retries.
async fn generate_with_tools(
    ctx: &Ctx,
    provider: &dyn Provider,
    req: &GenerateRequest,
    prompt_hash: &str,
    input_hash: &str,
    writes: &mut Vec<Write>,
    grounded: Option<&Grounded>,
) -> (Response, Option<CachedGeneration>) {
    let Some(g) = grounded.filter(|g| g.spec.mode == GroundingMode::Tools) else {
        return call_with_retries(ctx, provider, req, prompt_hash, input_hash, writes).await;
    };
    let mut req = req.clone();
    let mut recorded: Vec<ToolCall> = Vec::new();
    let mut usage = Usage::default();
    let mut attempts = 0;
    let mut round = 0;
    loop {
        let (mut resp, generation) =
            call_with_retries(ctx, provider, &req, prompt_hash, input_hash, writes).await;
        usage.input_tokens += resp.usage.input_tokens;
        usage.output_tokens += resp.usage.output_tokens;
        attempts += resp.attempts;
        if resp.is_error() || resp.tool_calls.is_empty() || round == MAX_TOOL_ROUNDS {
            // The last answer counts; tool calls it still asked for are recorded unanswered.
            recorded.append(&mut resp.tool_calls);
            resp.tool_calls = recorded;
            resp.usage = usage;
            resp.attempts = attempts;
            let cached = generation.filter(|_| !resp.is_error()).map(|mut c| {
                c.tool_calls = resp.tool_calls.clone();
                c.usage = usage;
                c
            });
            return (resp, cached);
        }
        round += 1;
        req.messages.push(ChatMessage {
            role: Role::Assistant,
            content: resp.text.clone(),
            tool_call_id: None,
            tool_calls: resp.tool_calls.clone(),
        });
        for call in &resp.tool_calls {
            let content = match g
                .server
                .call(&call.name, call.arguments.clone(), CALL_TIMEOUT)
                .await
            {
                Ok(out) => {
                    recorded.push(out.to_tool_call(call.id.clone()));
                    out.text
                }
                // A tool error or a bad call: the model reads the message and may try again.
                Err(e) if e.is_model_visible() => {
                    recorded.push(ToolCall {
                        result: Some(serde_json::json!({ "error": e.to_string() })),
                        ..call.clone()
                    });
                    e.to_string()
                }
                // The server died or timed out: this grounded sample fails with the reason.
                Err(e) => {
                    return (
                        Response {
                            error: Some(infra_error(&e)),
                            tool_calls: recorded,
                            usage,
                            attempts,
                            ..Response::default()
                        },
                        None,
                    );
                }
            };
            req.messages.push(ChatMessage {
                role: Role::Tool,
                content,
                tool_call_id: call.id.clone(),
                tool_calls: Vec::new(),
            });
        }
    }
}

/// Calls the provider until it answers or the retry policy gives up. Returns the response and,
/// on success, the generation to cache.
async fn call_with_retries(
    ctx: &Ctx,
    provider: &dyn Provider,
    req: &GenerateRequest,
    prompt_hash: &str,
    input_hash: &str,
    writes: &mut Vec<Write>,
) -> (Response, Option<CachedGeneration>) {
    let limits = ctx
        .limits
        .get(&req.sample.variant)
        .cloned()
        .unwrap_or_default();
    let est_tokens = estimate_tokens(req.messages.iter().map(|m| m.content.len()).sum())
        + u64::from(req.params.max_tokens.unwrap_or(256));
    let price = ctx.prices.lookup(provider.kind(), provider.model());
    let first_attempt = Instant::now();
    let mut attempt = 0u32;
    // Retries are counted per kind: rate limits on time, the others on count (RetryPolicy).
    let (mut rate_limit_retries, mut other_retries) = (0u32, 0u32);
    loop {
        attempt += 1;
        if let Some(stop) = ctx.failure.get() {
            return (stopped_response(&stop, attempt - 1), None);
        }
        let slot = limits.admit(est_tokens).await;
        let started_at = now_rfc3339();
        let t0 = Instant::now();
        let call_timeout = ctx
            .call_timeout
            .unwrap_or_else(|| provider.default_call_timeout());
        let result = match tokio::time::timeout(call_timeout, provider.generate(req)).await {
            Ok(r) => r,
            Err(_) => Err(verity_model::ProviderError::new(
                verity_model::ProviderErrorKind::Timeout,
                format!("no answer within {call_timeout:?}"),
            )),
        };
        match &result {
            Ok(_) => slot.succeeded(),
            Err(e) if is_rate_limit(e) => slot.rate_limited(),
            Err(_) => {}
        }
        drop(slot);
        if let Some(stop) = limits.health.record(
            result.as_ref().map(|_| ()),
            &req.sample.variant,
            || provider.endpoint(),
            &ctx.fail_fast,
        ) {
            ctx.failure.raise(stop);
        }
        let latency_ms = t0.elapsed().as_millis() as u64;
        let mut obs = Observation {
            run_id: ctx.run_id.clone(),
            key: req.sample.clone(),
            attempt,
            started_at,
            provider: provider.kind().to_owned(),
            model: provider.model().to_owned(),
            endpoint: provider.endpoint(),
            prompt_hash: prompt_hash.to_owned(),
            input_hash: input_hash.to_owned(),
            raw_response: None,
            output_text: None,
            input_tokens: 0,
            output_tokens: 0,
            latency_ms,
            cache_hit: false,
            error_kind: None,
            error: None,
        };
        match result {
            Ok(g) => {
                let tokens = g.usage.input_tokens + g.usage.output_tokens;
                limits.settle(est_tokens, tokens).await;
                let cost =
                    price.map_or(0.0, |p| p.cost(g.usage.input_tokens, g.usage.output_tokens));
                if ctx.budget.spend(cost, tokens)
                    && !ctx
                        .budget_hit
                        .swap(true, std::sync::atomic::Ordering::SeqCst)
                {
                    let (cost, tokens) = ctx.budget.spent();
                    let _ = ctx.events.send(RunEvent::BudgetReached { cost, tokens });
                    ctx.shutdown.drain();
                }
                obs.input_tokens = g.usage.input_tokens;
                obs.output_tokens = g.usage.output_tokens;
                obs.output_text = Some(g.text.clone());
                obs.raw_response = Some(g.raw.clone());
                writes.push(Write::Observation(obs));
                let response = Response {
                    text: g.text.clone(),
                    tool_calls: g.tool_calls.clone(),
                    usage: g.usage,
                    latency_ms: 0,
                    cache_hit: false,
                    attempts: attempt,
                    model: g.model.clone(),
                    finish_reason: g.finish_reason.clone(),
                    error: None,
                };
                let cached = CachedGeneration {
                    text: g.text,
                    tool_calls: g.tool_calls,
                    usage: g.usage,
                    model: g.model,
                    finish_reason: g.finish_reason,
                    raw: g.raw,
                };
                return (response, Some(cached));
            }
            Err(e) => {
                obs.error_kind = Some(e.kind.as_str().to_owned());
                obs.error = Some(e.message.clone());
                writes.push(Write::Observation(obs));
                let retry = if is_rate_limit(&e) {
                    rate_limit_retries += 1;
                    rate_limit_retries
                } else {
                    other_retries += 1;
                    other_retries
                };
                let delay = if *ctx.abort.borrow() >= 2 || ctx.failure.is_raised() {
                    None
                } else {
                    ctx.retry
                        .delay(retry, &e, first_attempt.elapsed(), jitter_random())
                };
                match delay {
                    Some(d) => {
                        let _ = ctx.events.send(RunEvent::Retrying {
                            key: req.sample.clone(),
                            attempt,
                            delay: d,
                            error: e.message.clone(),
                        });
                        tokio::time::sleep(d).await;
                    }
                    None => {
                        let retries = attempt - 1;
                        let message = if retries > 0 {
                            format!("{} (after {retries} retries)", e.message)
                        } else {
                            e.message.clone()
                        };
                        return (
                            Response {
                                attempts: attempt,
                                error: Some(ResponseError {
                                    kind: e.kind.as_str().to_owned(),
                                    message,
                                }),
                                ..Response::default()
                            },
                            None,
                        );
                    }
                }
            }
        }
    }
}

/// The answer of a call not made because the run is stopping.
fn stopped_response(stop: &Stop, attempts: u32) -> Response {
    Response {
        attempts,
        error: Some(ResponseError {
            kind: "stopped".into(),
            message: format!("not sent: the run is stopping ({stop})"),
        }),
        ..Response::default()
    }
}

/// What running `plan` would cost: every sample not in `skip` rendered and counted. Output
/// tokens are estimated at the variant's `max_tokens`, or 256 when it sets none. A plan whose
/// tasks are in the store reads them from `store` a page at a time.
pub fn estimate(
    plan: &Plan,
    providers: &HashMap<String, Arc<dyn Provider>>,
    prices: &Prices,
    skip: &HashSet<SampleKey>,
    store: &Store,
) -> Result<Estimate, RunError> {
    let renderer =
        Renderer::new(&plan.suite).map_err(|e| RunError::Plan(format!("prompt templates: {e}")))?;
    let mut e = Estimate {
        cost: Some(0.0),
        ..Estimate::default()
    };
    let variants: Vec<_> = plan
        .suite
        .variants
        .iter()
        .filter_map(|v| {
            let p = providers.get(&v.name)?;
            let price = prices.lookup(p.kind(), p.model());
            if price.is_none() {
                e.unpriced.push(format!("{}/{}", p.kind(), p.model()));
            }
            Some((v, price, u64::from(v.params.max_tokens.unwrap_or(256))))
        })
        .collect();
    let mut count = |task: &Task| {
        for (v, price, out_per_call) in &variants {
            let mut chars = None;
            for epoch in 0..plan.suite.epochs {
                let key = SampleKey {
                    task_id: task.id.clone(),
                    variant: v.name.clone(),
                    epoch,
                };
                if skip.contains(&key) {
                    continue;
                }
                let chars = *chars.get_or_insert_with(|| match renderer.messages(task, v) {
                    Ok(ms) => ms.iter().map(|m| m.content.len()).sum(),
                    Err(_) => 0,
                });
                let input = estimate_tokens(chars);
                e.calls += 1;
                e.input_tokens += input;
                e.output_tokens += out_per_call;
                e.cost = match (e.cost, price) {
                    (Some(c), Some(p)) => Some(c + p.cost(input, *out_per_call)),
                    _ => None,
                };
            }
        }
    };
    if plan.stored_tasks.is_some() {
        let mut pages = TaskPages::new(&plan.run_id);
        while let Some(page) = pages.next(store)? {
            page.iter().for_each(&mut count);
        }
    } else {
        plan.suite.tasks.iter().for_each(&mut count);
    }
    e.unpriced.sort();
    e.unpriced.dedup();
    Ok(e)
}
