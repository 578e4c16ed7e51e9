//! `verity run`: a new run of a suite, or the rest of an interrupted one (`--resume`).

use std::io::IsTerminal;
use std::path::Path;

use verity_model::{ErrorKind, Liveness, RunStatus, Shard};
use verity_runner::{FailedIn, Overrides, PlanOptions, PrepareError, RunRequest};
use verity_store::Store;

use super::execute::{Output, exec_settings, execute_plan, replay_provider};
use super::verdict::preflight;
use super::{open_existing, use_color};
use crate::cli::{Globals, RunArgs};
use crate::config::Config;
use crate::{CliError, exit};

pub(super) fn run(a: RunArgs, config: &Config, g: &Globals) -> Result<u8, CliError> {
    let err_tty = std::io::stderr().is_terminal();
    let color = use_color(g.color, err_tty);
    let mut settings = exec_settings(&a.exec, a.concurrency, config)?;
    replay_provider(a.provider.as_deref(), &a.exec, &mut settings)?;
    let db = g.db.path(config);
    // The run's one handle on its database: preparing, estimating, executing, reporting and
    // the gates all go through it.
    let (mut store, plan, resume) = match (&a.resume, &a.suite) {
        (Some(run), _) => {
            let store = open_existing(&db)?;
            let id = store.resolve_run(run)?;
            let meta = store.load_run_meta(&id)?;
            preflight(Path::new(&meta.suite_path), &a.gating)?;
            if meta.status == RunStatus::Completed {
                eprintln!("run {id} is already complete; nothing to resume");
                return Ok(exit::OK);
            }
            // Two processes must not run the same samples into one run.
            if meta.status == RunStatus::Running && meta.liveness == Liveness::Alive {
                return Err(CliError::usage(format!(
                    "run {id} is still running in another verity process; wait for it, or stop \
                     it (Ctrl-C) and resume then"
                )));
            }
            let mut plan = verity_runner::plan_from_run(&meta, store.task_count(&id)?);
            plan.options.concurrency = settings.concurrency;
            (store, plan, true)
        }
        (None, Some(path)) => {
            // The gates' flags and the baseline they need are checked before anything runs.
            preflight(path, &a.gating)?;
            let (mut store, failed_in) = match &a.failed_in {
                Some(run) => {
                    let store = open_existing(&db)?;
                    match failed_tasks_of(&store, run, g.quiet)? {
                        Some(f) => (store, Some(f)),
                        None => return Ok(exit::OK),
                    }
                }
                None => (Store::open(&db)?, None),
            };
            let plan = prepare(path, &a, failed_in, settings.concurrency, &mut store, color)?;
            (store, plan, false)
        }
        (None, None) => return Err(CliError::usage("name a suite to run, or --resume RUN")),
    };
    // The suite's `[run]` settings fill in what the command line left unset.
    settings.apply_suite(&plan.suite.run);
    let run_id = plan.run_id.clone();
    let result = execute_plan(
        plan,
        settings,
        config,
        &mut store,
        resume,
        None,
        Output {
            quiet: g.quiet,
            color: g.color,
            err_tty,
            format: a.format,
            out: a.out.clone(),
            force: a.force,
            gating: a.gating.clone(),
            table: true,
        },
    );
    if result.is_err() && !resume {
        // A run that failed before it started (a missing key, a refused budget) leaves
        // nothing behind; one with any result stays, resumable.
        let _ = store.discard_unstarted_run(&run_id);
    }
    result
}

/// The tasks that failed in the stored run `run` (`--failed-in`), or `None` when none did:
/// then there is nothing to run, which is said (even when `quiet`), and the command succeeds.
fn failed_tasks_of(store: &Store, run: &str, quiet: bool) -> Result<Option<FailedIn>, CliError> {
    let id = store.resolve_run(run)?;
    let task_ids = store.failed_task_ids(&id)?;
    if task_ids.is_empty() {
        eprintln!("run {id} has no failed task; nothing to run again");
        return Ok(None);
    }
    let meta = store.load_run_meta(&id)?;
    if !quiet {
        eprintln!(
            "running again the {} task{} that failed in run {id}",
            task_ids.len(),
            if task_ids.len() == 1 { "" } else { "s" }
        );
    }
    Ok(Some(FailedIn {
        run_id: id,
        suite_hash: meta.suite.content_hash,
        task_ids: task_ids.into_iter().collect(),
    }))
}

/// Prepares a new run of the suite at `path` in `store` ([`verity_runner::prepare`]), printing
/// the suite's warnings, or its diagnostics when it does not load.
fn prepare(
    path: &Path,
    a: &RunArgs,
    failed_in: Option<FailedIn>,
    concurrency: usize,
    store: &mut Store,
    color: bool,
) -> Result<verity_runner::Plan, CliError> {
    let request = RunRequest {
        options: PlanOptions {
            categories: a.categories.clone(),
            variants: a.variants.clone(),
            epochs: a.epochs,
            limit: a.limit,
            filter: a.filter.clone(),
            quick: a.quick,
            concurrency,
            shard: a.shard.as_deref().map(parse_shard).transpose()?,
            failed_in,
        },
        overrides: Overrides {
            provider: a.provider.clone(),
            model: a.model.clone(),
            base_url: a.base_url.clone(),
            api_key_env: a.api_key_env.clone(),
            command: a.command.clone(),
            scorers: a.scorers.clone(),
        },
    };
    let prepared = match verity_runner::prepare(path, &request, store) {
        Ok(p) => p,
        Err(PrepareError::Suite(diags)) => {
            eprintln!("{}", diags.render(color));
            return Err(CliError::silent(ErrorKind::Suite));
        }
        Err(e) => return Err(e.into()),
    };
    for w in &prepared.warnings {
        eprintln!("{}", w.render(color));
    }
    let plan = prepared.plan;
    if plan.suite.scorers.is_empty() {
        eprintln!(
            "warning: suite `{}` has no scorers; every answer will pass (add [[scorers]] or --scorer)",
            plan.suite.name
        );
    }
    Ok(plan)
}

fn parse_shard(s: &str) -> Result<Shard, CliError> {
    let bad = || {
        CliError::usage(format!(
            "--shard {s:?}: expected K/N with 1 <= K <= N, e.g. 2/4"
        ))
    };
    let (k, n) = s.split_once('/').ok_or_else(bad)?;
    let (k, n): (u32, u32) = (
        k.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if k == 0 || n == 0 || k > n {
        return Err(bad());
    }
    Ok(Shard {
        index: k - 1,
        count: n,
    })
}
