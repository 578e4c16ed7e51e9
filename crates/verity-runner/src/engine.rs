//! The scheduler: runs every sample of a plan under the concurrency limit and commits each as
//! it completes.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::{Semaphore, mpsc, watch};
use tokio::task::JoinSet;
use verity_model::{
    GenerateRequest, Outcome, Provider, Response, ResponseError, RunMeta, RunStatus, SampleKey,
    SampleRecord, Task, Variant,
};
use verity_store::{Observation, Store, Write};
use verity_suite::render::Renderer;

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
        error: Option<String>,
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
    /// Upper bound on one provider call, on top of the provider's own timeout.
    pub call_timeout: Duration,
    /// Continue a run already in the store instead of creating one: its stored samples are
    /// not sent again.
    pub resume: bool,
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
    tasks: HashMap<String, Arc<Task>>,
    variants: HashMap<String, Variant>,
    prompt_hashes: HashMap<String, String>,
    providers: HashMap<String, Arc<dyn Provider>>,
    renderer: Renderer,
    scorers: Scorers,
    retry: RetryPolicy,
    call_timeout: Duration,
    writer: Writer,
    events: mpsc::UnboundedSender<RunEvent>,
    abort: watch::Receiver<u8>,
}

fn now_rfc3339() -> String {
    jiff::Timestamp::now()
        .round(jiff::Unit::Millisecond)
        .unwrap_or_else(|_| jiff::Timestamp::now())
        .to_string()
}

fn blake3_hex(parts: &[&[u8]]) -> String {
    let mut h = blake3::Hasher::new();
    for p in parts {
        h.update(&(p.len() as u64).to_le_bytes());
        h.update(p);
    }
    h.finalize().to_hex().to_string()
}

/// The hash that identifies a variant's prompt templates (`-` without any).
pub(crate) fn prompt_hash(v: &Variant) -> String {
    match (&v.system, &v.prompt) {
        (None, None) => "-".into(),
        (s, p) => blake3_hex(&[
            s.as_ref().map_or(&b""[..], |t| t.hash.as_bytes()),
            p.as_ref().map_or(&b""[..], |t| t.hash.as_bytes()),
        ]),
    }
}

/// Runs a plan to the end (or until shut down) and returns how it went.
pub async fn execute(ex: Execution) -> Result<RunSummary, RunError> {
    let started = Instant::now();
    let plan = ex.plan;
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

    let done: HashSet<SampleKey> = if ex.resume {
        let mut meta = store.load_run(&plan.run_id)?;
        meta.status = RunStatus::Running;
        meta.finished_at = None;
        store.update_run_meta(&meta)?;
        store.completed_keys(&plan.run_id)?
    } else {
        let meta = RunMeta {
            id: plan.run_id.clone(),
            suite_path: plan.suite_path.clone(),
            suite: suite.clone(),
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
            total_samples: plan.total(),
            scoring: 1,
        };
        store.insert_run(&meta)?;
        HashSet::new()
    };
    let total = plan.total();
    let _ = ex.events.send(RunEvent::Started {
        run_id: plan.run_id.clone(),
        total,
        already_done: done.len() as u64,
    });

    let writer = Writer::spawn(&ex.store_path)?;
    let ctx = Arc::new(Ctx {
        run_id: plan.run_id.clone(),
        tasks: suite
            .tasks
            .iter()
            .map(|t| (t.id.clone(), Arc::new(t.clone())))
            .collect(),
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
    });

    let sem = Arc::new(Semaphore::new(plan.options.concurrency.max(1)));
    let mut set: JoinSet<Result<(), String>> = JoinSet::new();
    let mut shutdown = ex.shutdown.subscribe();
    let mut writer_error: Option<String> = None;
    let mut interrupted = false;
    'schedule: for key in plan.keys() {
        if done.contains(&key) {
            continue;
        }
        if *shutdown.borrow() > 0 {
            interrupted = true;
            break;
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
            break;
        }
        let ctx = ctx.clone();
        set.spawn(async move {
            let r = run_sample(&ctx, key).await;
            drop(permit);
            r
        });
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
        let samples = store.load_samples(&ctx.run_id, Some(scoring))?;
        let (groups, changed) = score_groups(&ctx.scorers, suite, &samples);
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

    let samples = store.load_samples(&plan.run_id, Some(scoring))?;
    let status = if interrupted && (samples.len() as u64) < total {
        RunStatus::Interrupted
    } else {
        RunStatus::Completed
    };
    store.set_run_status(&plan.run_id, status, Some(&now_rfc3339()))?;
    let count = |o: Outcome| samples.iter().filter(|s| s.outcome == o).count() as u64;
    let summary = RunSummary {
        run_id: plan.run_id.clone(),
        status,
        total,
        completed: samples.len() as u64,
        passed: count(Outcome::Pass),
        failed: count(Outcome::Fail),
        errors: count(Outcome::Error),
        elapsed: started.elapsed(),
    };
    let _ = ex.events.send(RunEvent::Finished(summary.clone()));
    Ok(summary)
}

/// Runs one sample to completion and hands it to the writer. The only `Err` is a writer that
/// has stopped; everything a provider or scorer does wrong ends up in the stored sample.
async fn run_sample(ctx: &Ctx, key: SampleKey) -> Result<(), String> {
    let began = Instant::now();
    let task = ctx.tasks[&key.task_id].clone();
    let variant = &ctx.variants[&key.variant];
    let provider = &ctx.providers[&key.variant];
    let mut writes: Vec<Write> = Vec::with_capacity(2);

    let response = match ctx.renderer.messages(&task, variant) {
        Err(e) => Response {
            error: Some(ResponseError {
                kind: "template".into(),
                message: e.to_string(),
            }),
            ..Response::default()
        },
        Ok(messages) => {
            let req = GenerateRequest {
                sample: key.clone(),
                task: task.clone(),
                messages,
                params: variant.params.clone(),
                tools: Vec::new(),
            };
            let input_hash = blake3_hex(&[
                serde_json::to_string(&req.messages)
                    .unwrap_or_default()
                    .as_bytes(),
                serde_json::to_string(&req.params)
                    .unwrap_or_default()
                    .as_bytes(),
            ]);
            call_with_retries(ctx, provider.as_ref(), &req, &input_hash, &mut writes).await
        }
    };
    let response = Response {
        latency_ms: began.elapsed().as_millis() as u64,
        ..response
    };
    let (scores, outcome) = score_sample(&ctx.scorers, &task, &response);
    let error = response
        .error
        .as_ref()
        .map(|e| format!("{}: {}", e.kind, e.message));
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
        error,
    });
    Ok(())
}

async fn call_with_retries(
    ctx: &Ctx,
    provider: &dyn Provider,
    req: &GenerateRequest,
    input_hash: &str,
    writes: &mut Vec<Write>,
) -> Response {
    let mut attempt = 0u32;
    loop {
        attempt += 1;
        let started_at = now_rfc3339();
        let t0 = Instant::now();
        let result = match tokio::time::timeout(ctx.call_timeout, provider.generate(req)).await {
            Ok(r) => r,
            Err(_) => Err(verity_model::ProviderError::new(
                verity_model::ProviderErrorKind::Timeout,
                format!("no answer within {:?}", ctx.call_timeout),
            )),
        };
        let latency_ms = t0.elapsed().as_millis() as u64;
        let mut obs = Observation {
            run_id: ctx.run_id.clone(),
            key: req.sample.clone(),
            attempt,
            started_at,
            provider: provider.kind().to_owned(),
            model: provider.model().to_owned(),
            endpoint: provider.endpoint(),
            prompt_hash: ctx
                .prompt_hashes
                .get(&req.sample.variant)
                .cloned()
                .unwrap_or_default(),
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
                obs.input_tokens = g.usage.input_tokens;
                obs.output_tokens = g.usage.output_tokens;
                obs.output_text = Some(g.text.clone());
                obs.raw_response = Some(g.raw);
                writes.push(Write::Observation(obs));
                return Response {
                    text: g.text,
                    tool_calls: g.tool_calls,
                    usage: g.usage,
                    latency_ms: 0,
                    cache_hit: false,
                    attempts: attempt,
                    model: g.model,
                    finish_reason: g.finish_reason,
                    error: None,
                };
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
                        return Response {
                            attempts: attempt,
                            error: Some(ResponseError {
                                kind: e.kind.as_str().to_owned(),
                                message,
                            }),
                            ..Response::default()
                        };
                    }
                }
            }
        }
    }
}
