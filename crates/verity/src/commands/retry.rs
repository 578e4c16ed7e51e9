//! `verity retry RUN --failed`: sends again only the samples whose stored answer is an
//! infrastructure error, replacing them.

use std::collections::HashSet;
use std::io::IsTerminal;

use verity_model::SampleKey;
use verity_runner::CacheMode;

use super::execute::{Output, exec_settings, execute_plan};
use super::open_existing;
use crate::cli::{ColorChoice, Globals, RetryArgs};
use crate::config::Config;
use crate::{CliError, exit};

pub(super) fn retry(a: RetryArgs, config: &Config, g: &Globals) -> Result<u8, CliError> {
    let db = g.db.path(config);
    let mut store = open_existing(&db)?;
    let id = store.resolve_run(&a.run)?;
    let meta = store.load_run_meta(&id)?;
    let failed: HashSet<SampleKey> = store.failed_keys(&id)?.into_iter().collect();
    if failed.is_empty() {
        eprintln!(
            "run {id} has no samples that ended in an infrastructure error; nothing to retry"
        );
        return Ok(exit::OK);
    }
    eprintln!("retrying {} failed samples of run {id}", failed.len());
    let mut settings = exec_settings(&a.exec, a.concurrency, config)?;
    settings.apply_suite(&meta.suite.run);
    // A retry exists to reach the model again: a cached answer cannot be an error, so reading
    // the cache is pointless, but fresh answers still go into it.
    if settings.cache == CacheMode::Live {
        settings.cache = CacheMode::Refresh;
    }
    let mut plan = verity_runner::plan_from_run(&meta, store.task_count(&id)?);
    plan.options.concurrency = settings.concurrency;
    execute_plan(
        plan,
        settings,
        config,
        &mut store,
        true,
        Some(failed),
        Output {
            quiet: g.quiet,
            color: ColorChoice::Auto,
            err_tty: std::io::stderr().is_terminal(),
            format: None,
            out: None,
            force: a.force,
            // The suite's gates still apply; a retry adds none of its own.
            gating: Default::default(),
            table: true,
        },
    )
}
