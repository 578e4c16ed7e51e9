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
use crate::retry::{RetryPolicy, jitter_random};
use crate::scoring::{Scorers, score_groups, score_sample};
use crate::writer::Writer;
use crate::{Plan, RunError};

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
        let meta = RunMeta {
            id: plan.run_id.clone(),
            suite_path: plan.suite_path.clone(),
            suite: Suite::default(),
            options: plan.options.clone(),
            started_at: now_rfc3339(),
            finished_at: None,
            status: RunStatus::Running,
            verity_version: env!("CARGO_PKG_VERSION").to_owned(),
            models: suite
                .variants
                .iter()
                .map(|v| {
                    let p = &ex.providers[&v.name];
                    (v.name.clone(), format!("{}/{}", p.kind(), p.model()))
                })
                .collect(),
            prompt_hashes: prompt_hashes
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
            total_samples: total,
            scoring: 1,
        };
        // The stored suite is the plan's own, moved in and back out: a large suite is never
        // held twice. Its tasks go to the `tasks` table with the run row (a plan whose tasks
        // were staged while the suite streamed in has none in hand).
        let mut meta = meta;
        meta.suite = std::mem::take(&mut plan.suite);
        let inserted = store.insert_run(&meta);
        plan.suite = meta.suite;
        inserted?;
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

    let writer = Writer::spawn(&ex.store_path)?;
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
            .or_insert_with(|| Arc::new(ProviderLimits::new(&spec)))
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
    let mut writer_error: Option<String> = None;
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
                    _ = shutdown.changed() => { interrupted = true; break 'schedule; }
                    p = sem.clone().acquire_owned() => match p { Ok(p) => p, Err(_) => break 'schedule },
                };
                while let Some(r) = set.try_join_next() {
                    if let Ok(Err(e)) = r {
                        writer_error.get_or_insert(e);
                    }
                }
                if writer_error.is_some() {
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
    if interrupted {
        let _ = ex.events.send(RunEvent::Draining);
    }
    // Drain in-flight samples; a second shutdown request aborts them.
    loop {
        tokio::select! {
            biased;
            _ = shutdown.changed(), if *shutdown.borrow() < 2 => {
                if *shutdown.borrow() >= 2 { set.abort_all(); }
                interrupted = true;
            }
            r = set.join_next() => match r {
                None => break,
                Some(Ok(Err(e))) => { writer_error.get_or_insert(e); }
                Some(_) => {}
            },
        }
    }
    if *shutdown.borrow() > 0 {
        interrupted = true;
    }
    let ctx = Arc::into_inner(ctx)
        .ok_or_else(|| RunError::Writer("sample tasks still hold the run context".into()))?;
    ctx.writer.flush().await.map_err(RunError::Writer)?;
    if let Some(e) = writer_error {
        return Err(RunError::Writer(e));
    }

    // Group scorers see the stored answers, after the last sample.
    let scoring = 1;
    if ctx.scorers.has_group_scorers() && !interrupted {
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
        ctx.writer.send(writes).map_err(RunError::Writer)?;
        ctx.writer.flush().await.map_err(RunError::Writer)?;
    }
    ctx.writer.close().map_err(RunError::Writer)?;
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

/// Runs one sample to completion and hands it to the writer. The only `Err` is a writer that
/// has stopped; everything a provider or scorer does wrong ends up in the stored sample.
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
    ctx.writer.send(writes)?;
    let _ = ctx.events.send(RunEvent::SampleFinished {
        key,
        outcome,
        latency_ms: began.elapsed().as_millis() as u64,
        cache_hit,
        error,
    });
    Ok(())
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
    let mut attempt = 0u32;
    loop {
        attempt += 1;
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
        drop(slot);
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
                let delay = if *ctx.abort.borrow() >= 2 {
                    None
                } else {
                    ctx.retry.delay(attempt, &e, jitter_random())
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
