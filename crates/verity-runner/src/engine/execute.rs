//! [`execute`] in its phases: start the run, set up the endpoints' limits, schedule and drain
//! the samples, score the stored groups, then finish the run (or stop it, on a [`Stop`]).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use tokio::sync::Semaphore;
use tokio::task::JoinSet;
use verity_model::{FIRST_SCORING, Provider, RunMeta, RunStatus, SampleKey, now_rfc3339};
use verity_store::{Store, TaskPages, Write};
use verity_suite::render::Renderer;

use super::sample::run_sample;
use super::{Ctx, Execution, RunEvent, RunSummary, prompt_hash};
use crate::grounding::{Grounded, start_servers, stop_servers};
use crate::limits::{LimitSpec, ProviderLimits};
use crate::scoring::{Scorers, score_groups};
use crate::stop::{FirstStop, Stop};
use crate::writer::Writer;
use crate::{Plan, PlanError, RunError, Stopped, WriterError};

/// Runs a plan to the end (or until shut down) and returns how it went. The plan's tasks are
/// in `store` (see [`crate::prepare`] and [`crate::plan_from_run`]); the run's writer thread
/// and cache reader get their own connections to the same database ([`Store::sibling`]).
pub async fn execute(ex: Execution, store: &mut Store) -> Result<RunSummary, RunError> {
    let started = Instant::now();
    let Execution {
        plan,
        providers,
        retry,
        fail_fast,
        call_timeout,
        resume,
        only,
        cache,
        limits,
        budget,
        prices,
        events,
        shutdown,
    } = ex;
    let total = plan.total();
    if let Some(v) = plan
        .suite
        .variants
        .iter()
        .find(|v| !providers.contains_key(&v.name))
    {
        return Err(PlanError::NoProvider {
            variant: v.name.clone(),
        }
        .into());
    }
    let scorers = Scorers::build(&plan.suite)?;
    let renderer = Renderer::new(&plan.suite).map_err(|e| PlanError::Templates(e.to_string()))?;
    // Before any model call: a scorer that cannot judge (a required compiler missing) stops
    // the run here rather than erring on every sample.
    let preflight = scorers.preflight(store, &plan.run_id)?;
    for (scorer, info) in &preflight {
        let _ = events.send(RunEvent::Preflight {
            scorer: scorer.clone(),
            info: info.clone(),
        });
    }
    let Started {
        done,
        scoring,
        prompt_hashes,
    } = start_run(
        &plan,
        &providers,
        resume || only.is_some(),
        preflight,
        store,
    )?;
    let already_done = match &only {
        Some(only) => done
            .len()
            .saturating_sub(only.iter().filter(|k| done.contains(*k)).count()),
        None => done.len(),
    };
    let _ = events.send(RunEvent::Started {
        run_id: plan.run_id.clone(),
        total,
        already_done: already_done as u64,
    });

    let failure = Arc::new(FirstStop::new());
    let writer = Writer::spawn(store.sibling()?, events.clone(), failure.clone())?;
    let cache_reader = if cache.reads() {
        Some(Mutex::new(store.sibling()?))
    } else {
        None
    };
    let endpoint_limits = endpoint_limits(&plan, &providers, &limits);
    // Grounding servers start before any sample; one that will not start aborts the run.
    let grounding = match start_servers(&plan.suite).await {
        Ok(g) => g,
        Err(e) => {
            drop(writer);
            store.set_run_status(&plan.run_id, RunStatus::Failed, Some(&now_rfc3339()))?;
            return Err(e);
        }
    };
    let ctx = Arc::new(Ctx {
        run_id: plan.run_id.clone(),
        scoring,
        variants: plan
            .suite
            .variants
            .iter()
            .map(|v| (v.name.clone(), v.clone()))
            .collect(),
        prompt_hashes,
        providers,
        renderer,
        scorers,
        retry,
        fail_fast,
        failure: failure.clone(),
        call_timeout,
        writer,
        events: events.clone(),
        abort: shutdown.subscribe(),
        shutdown: shutdown.clone(),
        cache,
        cache_reader,
        limits: endpoint_limits,
        budget,
        prices,
        grounding,
        budget_hit: AtomicBool::new(false),
    });

    let scheduled = schedule(&ctx, &plan, store, &done, only.as_ref()).await?;
    let interrupted = scheduled.interrupted;
    let ctx = Arc::into_inner(ctx).ok_or(WriterError::ContextHeld)?;
    // Everything queued commits before the group scorers read the store.
    if !failure.is_raised()
        && let Err(e) = ctx.writer.flush().await
    {
        failure.raise(Stop::Store(e));
    }
    if !interrupted && !failure.is_raised() {
        score_stored_groups(&ctx, store).await?;
    }
    if let Some(stop) = failure.get() {
        // A failure raised after the drain (at the last flush, or by the group scores) is
        // announced here; one raised while scheduling was announced then.
        if !scheduled.announced {
            let _ = events.send(RunEvent::Stopping(stop));
        }
        let (e, servers) = stop_run(ctx, store, total, &failure);
        stop_servers(servers).await;
        return Err(e);
    }
    finish_run(ctx, store, &plan, interrupted, started).await
}

/// Starts the run in the store: a new run's row (written with its tasks by
/// [`crate::prepare`]) gets the options it runs with and the providers' own names of their
/// models; a continued run is
/// marked running again. Either is claimed by this process ([`Store::claim_run`]). Either records what the scorers' pre-flight found (a continued run
/// may run on another machine: the latest pre-flight is the one its new samples ran under).
fn start_run(
    plan: &Plan,
    providers: &HashMap<String, Arc<dyn Provider>>,
    continued: bool,
    preflight: BTreeMap<String, verity_model::PreflightInfo>,
    store: &mut Store,
) -> Result<Started, RunError> {
    // This process runs it now: should it die without finishing, the run shows as interrupted.
    store.claim_run(&plan.run_id)?;
    let mut meta = store.load_run_meta(&plan.run_id)?;
    meta.preflight = preflight;
    if continued {
        meta.status = RunStatus::Running;
        meta.finished_at = None;
        store.update_run_meta(&meta)?;
        return Ok(Started {
            done: store.completed_keys(&plan.run_id)?,
            scoring: meta.scoring,
            prompt_hashes: meta.prompt_hashes,
        });
    }
    // The options as they run (the concurrency may have been raised to a provider's batch
    // size since the row was written).
    meta.options = plan.options.clone();
    meta.models = plan
        .suite
        .variants
        .iter()
        .map(|v| {
            let p = &providers[&v.name];
            (v.name.clone(), format!("{}/{}", p.kind(), p.model()))
        })
        .collect();
    store.update_run_meta(&meta)?;
    Ok(Started {
        done: HashSet::new(),
        scoring: meta.scoring,
        prompt_hashes: meta.prompt_hashes,
    })
}

/// A run as it starts, from its stored row.
struct Started {
    /// Samples already stored (none for a new run).
    done: HashSet<SampleKey>,
    /// The scoring this run's verdicts are stored under.
    scoring: u32,
    /// Each variant's prompt hash, as the row recorded it when the run was prepared.
    prompt_hashes: BTreeMap<String, String>,
}

/// Each variant's provider limits; variants that reach the same endpoint share them.
fn endpoint_limits(
    plan: &Plan,
    providers: &HashMap<String, Arc<dyn Provider>>,
    specs: &HashMap<String, LimitSpec>,
) -> HashMap<String, Arc<ProviderLimits>> {
    let mut by_endpoint: HashMap<String, Arc<ProviderLimits>> = HashMap::new();
    let mut limits = HashMap::new();
    for v in &plan.suite.variants {
        let p = &providers[&v.name];
        let spec = specs.get(&v.name).cloned().unwrap_or_default();
        let shared = by_endpoint
            .entry(format!("{}|{}", p.kind(), p.endpoint()))
            .or_insert_with(|| {
                Arc::new(ProviderLimits::new(&spec, plan.options.concurrency.max(1)))
            })
            .clone();
        limits.insert(v.name.clone(), shared);
    }
    limits
}

/// Schedules every sample not yet done (or only those of `only`) under the concurrency limit,
/// reading the tasks back from the store a page at a time so memory does not depend on how
/// many there are; then drains the samples in flight. A shutdown request stops scheduling (a
/// second one aborts the samples in flight); a [`Stop`] stops it, is announced
/// ([`RunEvent::Stopping`]) and abandons them.
///
/// The store is taken `&mut`, like everywhere in a run's future, so that the future stays
/// `Send`: a `&Store` held across an await would need the connection to be `Sync`.
async fn schedule(
    ctx: &Arc<Ctx>,
    plan: &Plan,
    store: &mut Store,
    done: &HashSet<SampleKey>,
    only: Option<&HashSet<SampleKey>>,
) -> Result<Scheduled, RunError> {
    let suite = &plan.suite;
    let failure = &ctx.failure;
    let sem = Arc::new(Semaphore::new(plan.options.concurrency.max(1)));
    let mut set: JoinSet<Result<(), WriterError>> = JoinSet::new();
    let mut shutdown = ctx.shutdown.subscribe();
    let mut stopping = failure.subscribe();
    let mut interrupted = false;
    let mut pages = TaskPages::new(&plan.run_id);
    'schedule: while let Some(page) = pages.next(store)? {
        for task in page {
            let task = Arc::new(task);
            let keys = crate::plan::sample_keys(
                std::iter::once(task.id.as_str()),
                &suite.variants,
                suite.epochs,
            );
            for key in keys {
                match only {
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
        let _ = ctx.events.send(RunEvent::Draining);
    }
    // Drain in-flight samples; a second shutdown request aborts them, and so does a failure
    // that stops the run (their answers could not be stored, or would fail alike).
    let mut announced = false;
    loop {
        if let Some(stop) = failure.get().filter(|_| !announced) {
            announced = true;
            let _ = ctx.events.send(RunEvent::Stopping(stop));
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
    Ok(Scheduled {
        interrupted: interrupted || *shutdown.borrow() > 0,
        announced,
    })
}

/// How scheduling ended.
struct Scheduled {
    /// A shutdown was requested: not every sample was scheduled.
    interrupted: bool,
    /// A [`Stop`] was raised, and announced, while scheduling.
    announced: bool,
}

/// Runs the group scorers over the stored answers, after the last sample, and commits their
/// scores with the outcomes they change. Group scoring sees every task and answer at once;
/// only suites with group scorers pay for loading them. A failed commit raises a [`Stop`].
async fn score_stored_groups(ctx: &Ctx, store: &mut Store) -> Result<(), RunError> {
    if !ctx.scorers.has_group_scorers() {
        return Ok(());
    }
    let samples = store.load_samples(&ctx.run_id, Some(ctx.scoring))?;
    let tasks = store.load_tasks(&ctx.run_id)?;
    let (groups, changed) = score_groups(&ctx.scorers, tasks.iter(), &samples);
    let mut writes: Vec<Write> = groups
        .into_iter()
        .map(|record| Write::Group {
            run_id: ctx.run_id.clone(),
            scoring: ctx.scoring,
            record,
        })
        .collect();
    writes.extend(changed.into_iter().map(|(key, outcome)| Write::Outcome {
        run_id: ctx.run_id.clone(),
        scoring: ctx.scoring,
        key,
        outcome,
    }));
    let sent = match ctx.writer.send(writes, None).await {
        Ok(()) => ctx.writer.flush().await,
        Err(e) => Err(e),
    };
    if let Err(e) = sent {
        ctx.failure.raise(Stop::Store(e));
    }
    Ok(())
}

/// Ends a run that went to its end or was interrupted on request: closes the writer, stops
/// the grounding servers, and records the run's status from what is stored.
async fn finish_run(
    ctx: Ctx,
    store: &mut Store,
    plan: &Plan,
    interrupted: bool,
    started: Instant,
) -> Result<RunSummary, RunError> {
    let total = plan.total();
    if let Some(e) = ctx.writer.close().error {
        // The group scores did not commit; every sample did (the flush said so).
        stop_servers(ctx.grounding).await;
        return Err(e.into());
    }
    stop_servers(ctx.grounding).await;
    let counts = store.outcome_counts(&plan.run_id, ctx.scoring)?;
    let sum = |f: fn(&verity_store::VariantCounts) -> u64| counts.iter().map(f).sum::<u64>();
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
    let _ = ctx.events.send(RunEvent::Finished(summary.clone()));
    Ok(summary)
}

/// The row of a new run, written with its tasks in the staging transaction
/// ([`verity_store::TaskStage::commit_run`]) so that tasks never exist without their run:
/// status `running`, the suite without its tasks, models named as the suite names them
/// ([`execute`] replaces them with the providers' own names when the run starts).
pub fn staged_run_meta(plan: &Plan) -> RunMeta {
    let mut suite = plan.suite.clone();
    suite.tasks = Vec::new();
    let models: BTreeMap<String, String> = plan
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
        scoring: FIRST_SCORING,
        preflight: Default::default(),
        liveness: Default::default(),
    }
}

/// Ends a run that a [`Stop`] cut short: waits for the writer to finish what it can, marks the
/// run `interrupted` (resumable once the cause is fixed) and says exactly what is stored.
/// The grounding servers are handed back for the caller to stop (an await that must not
/// hold the store).
fn stop_run(
    ctx: Ctx,
    store: &Store,
    total: u64,
    failure: &FirstStop,
) -> (RunError, HashMap<String, Grounded>) {
    let report = ctx.writer.close();
    let stop = failure
        .get()
        .unwrap_or_else(|| Stop::Store(report.error.clone().unwrap_or(WriterError::Stopped)));
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
