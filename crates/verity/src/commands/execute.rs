//! Running a plan, shared by `run` and `retry`: the execution settings (flags over
//! verity.toml over defaults), the providers, the estimate and budget check, the progress
//! output, signals, and the report once the run is stored.

use std::collections::{HashMap, HashSet};
use std::io::IsTerminal;
use std::sync::Arc;
use std::time::Duration;

use verity_model::{ErrorKind, Provider, RunSettings, RunStatus, SampleKey, Suite};
use verity_runner::{
    Budget, CacheMode, Execution, FailFast, LimitSpec, RetryPolicy, RunEvent, Shutdown,
};
use verity_store::Store;

use super::report_files::{check_suite_reports, write_suite_reports};
use super::verdict::{Loaded, conclude, judge, wanted};
use super::{costs, render, runtime, table_options, use_color, write_out};
use crate::cli::{ColorChoice, ExecArgs, GateArgs, ReportFormat};
use crate::config::Config;
use crate::{CliError, exit, progress};

/// The estimated cost in USD above which a run is announced with a warning (seed 000 N2:
/// a run should cost less than $5).
pub(super) const DEFAULT_COST_WARNING_USD: f64 = 5.0;

/// Resolved execution settings: flags over verity.toml over defaults.
pub(super) struct ExecSettings {
    pub(super) concurrency: usize,
    /// Whether `concurrency` came from -j or verity.toml (else providers may raise it).
    pub(super) concurrency_explicit: bool,
    /// `None`: each provider's own default (60 s for APIs, 30 min for the embedded model).
    pub(super) timeout: Option<Duration>,
    pub(super) retry: RetryPolicy,
    pub(super) fail_fast: FailFast,
    pub(super) cache: CacheMode,
    pub(super) budget: Budget,
    /// Warn before a run whose estimated cost exceeds this many USD.
    pub(super) cost_warning: f64,
    /// Whether `cost_warning` came from --cost-warning (else the suite's `[run]` may set it).
    cost_warning_explicit: bool,
    /// Whether `retry.max_retries` came from --retries (else the suite's `[run]` may set it).
    retries_explicit: bool,
    /// Whether `cache` came from --cache or --provider replay (else the suite's may set it).
    cache_explicit: bool,
}

impl ExecSettings {
    /// Applies the suite's `[run]` settings to what the command line left unset: they come
    /// after the command line and before verity.toml and the defaults.
    pub(super) fn apply_suite(&mut self, run: &RunSettings) {
        if !self.retries_explicit
            && let Some(n) = run.retries
        {
            self.retry.max_retries = n;
        }
        if !self.cache_explicit
            && let Some(mode) = run.cache
        {
            self.cache = mode;
        }
        if !self.cost_warning_explicit
            && let Some(usd) = run.cost_warning_usd
        {
            self.cost_warning = usd;
        }
    }
}

pub(super) fn exec_settings(
    e: &ExecArgs,
    concurrency: Option<usize>,
    config: &Config,
) -> Result<ExecSettings, CliError> {
    let timeout = e.timeout.or(config.run.timeout_s);
    if timeout.is_some_and(|t| !(t > 0.0 && t.is_finite())) {
        return Err(CliError::usage(
            "--timeout must be a positive number of seconds",
        ));
    }
    let cache_s = e
        .cache
        .clone()
        .or_else(|| config.run.cache.clone())
        .unwrap_or_else(|| "live".into());
    let cache = CacheMode::parse(&cache_s).ok_or_else(|| {
        CliError::usage(format!(
            "--cache {cache_s:?}: expected live, replay, refresh or off"
        ))
    })?;
    if let Some(c) = e.max_cost
        && !(c >= 0.0 && c.is_finite())
    {
        return Err(CliError::usage(
            "--max-cost must be a non-negative number of USD",
        ));
    }
    if let Some(c) = e.cost_warning
        && !(c >= 0.0 && c.is_finite())
    {
        return Err(CliError::usage(
            "--cost-warning must be a non-negative number of USD",
        ));
    }
    if let Some(c) = config.run.cost_warning_usd
        && !(c >= 0.0 && c.is_finite())
    {
        return Err(CliError::usage(format!(
            "[run] cost_warning_usd must be a non-negative number of USD, got {c}"
        )));
    }
    let concurrency_explicit = concurrency.or(config.run.concurrency).is_some();
    let concurrency = concurrency.or(config.run.concurrency).unwrap_or(5);
    if concurrency == 0 {
        return Err(CliError::usage("--concurrency must be at least 1"));
    }
    if let Some(t) = config.run.retry_max_elapsed_s
        && !(t >= 0.0 && t.is_finite() && t <= 86_400.0)
    {
        return Err(CliError::usage(format!(
            "[run] retry_max_elapsed_s must be a number of seconds from 0 to 86400, got {t}"
        )));
    }
    let d = RetryPolicy::default();
    Ok(ExecSettings {
        concurrency,
        concurrency_explicit,
        timeout: timeout.map(Duration::from_secs_f64),
        retry: RetryPolicy {
            max_retries: e.retries.or(config.run.retries).unwrap_or(d.max_retries),
            initial: config
                .run
                .backoff_initial_ms
                .map_or(d.initial, Duration::from_millis),
            max_delay: config
                .run
                .backoff_max_ms
                .map_or(d.max_delay, Duration::from_millis),
            jitter: true,
            max_elapsed: config
                .run
                .retry_max_elapsed_s
                .map_or(d.max_elapsed, Duration::from_secs_f64),
        },
        fail_fast: FailFast {
            connect_failures: config
                .run
                .max_connect_failures
                .unwrap_or(FailFast::default().connect_failures),
        },
        cache,
        budget: Budget::new(e.max_cost, e.max_tokens),
        cost_warning: e
            .cost_warning
            .or(config.run.cost_warning_usd)
            .unwrap_or(DEFAULT_COST_WARNING_USD),
        cost_warning_explicit: e.cost_warning.is_some(),
        retries_explicit: e.retries.is_some(),
        cache_explicit: e.cache.is_some(),
    })
}

/// The warning before a run whose estimated cost exceeds `threshold` USD, if it does.
pub(super) fn cost_warning(estimate: Option<f64>, threshold: f64) -> Option<String> {
    let cost = estimate.filter(|c| *c > threshold)?;
    Some(format!(
        "warning: this run is estimated to cost ~${cost:.2}, above the ${threshold:.2} cost warning \
         (a warning, not a limit: --max-cost USD refuses to start above a budget); change the \
         threshold with --cost-warning USD or `cost_warning_usd` in the [run] table of the suite \
         or verity.toml"
    ))
}

/// `--provider replay`: every variant keeps its provider and answers come from the cache
/// only, which no other `--cache` mode may contradict.
pub(super) fn replay_provider(
    provider: Option<&str>,
    exec: &ExecArgs,
    settings: &mut ExecSettings,
) -> Result<(), CliError> {
    if provider == Some("replay") {
        if exec.cache.as_deref().is_some_and(|c| c != "replay") {
            return Err(CliError::usage(
                "--provider replay answers from the cache only; it cannot be combined with another --cache mode",
            ));
        }
        settings.cache = CacheMode::Replay;
        settings.cache_explicit = true;
    }
    Ok(())
}

/// Builds every variant's provider; a misconfiguration (missing key…) is a usage error.
pub(super) fn build_providers(
    suite: &Suite,
) -> Result<HashMap<String, Arc<dyn Provider>>, CliError> {
    let mut providers: HashMap<String, Arc<dyn Provider>> = HashMap::new();
    for v in &suite.variants {
        // A stored run's suite has its URL credentials stripped: sending the placeholder
        // would only be refused by the server.
        if let Some(url) = v
            .provider
            .base_url
            .as_deref()
            .filter(|u| u.contains(verity_model::REDACTED))
        {
            return Err(CliError::usage(format!(
                "variant `{}`: its base URL held credentials, which are never stored ({url}), so this stored run cannot send them again; give the key through an environment variable (`api_key_env`, --api-key-env) and start a new run",
                v.name
            )));
        }
        let p = verity_providers::build(&v.provider).map_err(|e| {
            CliError::new(
                e.error_kind(),
                format!("variant `{}`: {}", v.name, e.message),
            )
        })?;
        providers.insert(v.name.clone(), p);
    }
    Ok(providers)
}

/// What a run shows and writes once it is stored.
pub(super) struct Output {
    pub(super) quiet: bool,
    pub(super) color: ColorChoice,
    pub(super) err_tty: bool,
    pub(super) format: Option<ReportFormat>,
    pub(super) out: Option<std::path::PathBuf>,
    /// `[report]` files may replace existing files (`--force`).
    pub(super) force: bool,
    /// The command line's gates (the suite's always apply).
    pub(super) gating: GateArgs,
    /// Print the results table (unless quiet); `corpus generate` prints its own summary.
    pub(super) table: bool,
}

/// Runs a plan whose tasks are in `store` with progress output, then prints the report and
/// judges the run by its gates. Returns OK, GATE_FAILED or INTERRUPTED.
pub(super) fn execute_plan(
    mut plan: verity_runner::Plan,
    settings: ExecSettings,
    config: &Config,
    store: &mut Store,
    resume: bool,
    only: Option<HashSet<SampleKey>>,
    out: Output,
) -> Result<u8, CliError> {
    let providers = build_providers(&plan.suite)?;
    if !settings.concurrency_explicit
        && let Some(p) = providers
            .values()
            .filter_map(|p| p.preferred_concurrency())
            .max()
    {
        // E.g. the embedded model batches concurrent calls into one forward pass.
        plan.options.concurrency = plan.options.concurrency.max(p);
    }
    let prices = config.prices();
    let skip: HashSet<SampleKey> = if resume || only.is_some() {
        let done = store.completed_keys(&plan.run_id)?;
        match &only {
            Some(o) => done.into_iter().filter(|k| !o.contains(k)).collect(),
            None => done,
        }
    } else {
        HashSet::new()
    };
    let est = verity_runner::estimate(&plan, &providers, &prices, &skip, store)?;
    if !plan.suite.report.is_empty() {
        check_suite_reports(&store.load_run_meta(&plan.run_id)?, out.force)?;
    }
    if settings.cache != CacheMode::Replay {
        let cost = match est.cost {
            Some(c) => format!("~${c:.4}"),
            None => format!("unknown (no price for {})", est.unpriced.join(", ")),
        };
        if !out.quiet || settings.budget.max_cost.is_some() || settings.budget.max_tokens.is_some()
        {
            eprintln!(
                "estimate: {} calls, ~{} input + ~{} output tokens, cost {cost} (before cache hits)",
                est.calls, est.input_tokens, est.output_tokens
            );
        }
        if let Some(w) = cost_warning(est.cost, settings.cost_warning) {
            // said even when quiet: it is about money
            eprintln!("{w}");
        }
        settings
            .budget
            .admits(&est)
            .map_err(|e| CliError::new(e.kind(), format!("refusing to start: {e}")))?;
    }
    let limits: HashMap<String, LimitSpec> = plan
        .suite
        .variants
        .iter()
        .map(|v| (v.name.clone(), config.limits(&v.name, &v.provider.kind)))
        .collect();

    let run_id = plan.run_id.clone();
    let total = plan.total();
    let quiet = out.quiet;
    let err_tty = out.err_tty;
    let rt = runtime()?;
    let shutdown = Shutdown::new();
    // Ctrl-C and SIGTERM drain the run from here on, instead of ending verity.
    crate::interrupt::command_handles_signals();
    let budget = Arc::new(settings.budget);
    let summary = rt.block_on(async {
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel::<RunEvent>();
        let sd = shutdown.clone();
        tokio::spawn(async move {
            while tokio::signal::ctrl_c().await.is_ok() {
                sd.request();
                if sd.level() == 1 {
                    eprintln!("\ninterrupt: finishing the samples in flight (press Ctrl-C again to abort them)");
                } else {
                    eprintln!("\ninterrupt: aborting the samples in flight");
                }
            }
        });
        #[cfg(unix)]
        {
            let sd = shutdown.clone();
            tokio::spawn(async move {
                if let Ok(mut term) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                    while term.recv().await.is_some() {
                        sd.request();
                    }
                }
            });
        }
        let reporter = tokio::spawn(progress::consume(rx, total, quiet, err_tty));
        let result = verity_runner::execute(Execution {
            plan,
            providers,
            retry: settings.retry,
            fail_fast: settings.fail_fast,
            call_timeout: settings.timeout,
            resume,
            only,
            cache: settings.cache,
            limits,
            budget: budget.clone(),
            prices,
            events: tx,
            shutdown: shutdown.clone(),
        }, store)
        .await;
        let _ = reporter.await;
        result
    });
    let summary = summary?;
    // A run in which no sample got an answer measured nothing: an infrastructure failure,
    // whatever its status says.
    let all_errored = summary.completed > 0 && summary.errors == summary.completed;

    let mut meta = store.load_run_meta(&run_id)?;
    // Rendering needs every task and sample in memory; a quiet run that writes no report files
    // does not load them, so its memory stays flat however large the run.
    let renders = !quiet
        || out.format.is_some()
        || !meta.suite.report.is_empty()
        || wanted(&meta, &out.gating);
    // The exit code, after saying how to finish an interrupted run.
    let finish = || {
        if summary.status == RunStatus::Interrupted {
            eprintln!(
                "interrupted: {} of {} samples stored; `verity run --resume {}` finishes the rest",
                summary.completed, summary.total, run_id
            );
            Ok(exit::INTERRUPTED)
        } else if all_errored {
            Err(CliError::new(
                ErrorKind::Provider,
                format!(
                    "every one of the {} samples stored ended in an infrastructure error, so the \
                     run measured nothing; fix the cause, then `verity retry {} --failed`",
                    summary.completed, run_id
                ),
            ))
        } else {
            Ok(exit::OK)
        }
    };
    if !renders {
        return finish();
    }
    meta.suite.tasks = store.load_tasks(&run_id)?;
    let run = Loaded {
        samples: store.load_samples(&run_id, None)?,
        groups: store.load_groups(&run_id, None)?,
        meta,
    };
    let view = run.view();
    // Judged before any report is written: the JSON and Markdown reports carry the verdict.
    // An interrupted run is not judged: its numbers are partial.
    let judged = match summary.status {
        RunStatus::Interrupted => None,
        _ => judge(store, &run, &view, &out.gating)?,
    };
    let costs = costs(&view, config);
    let mut extras = judged.as_ref().map(|j| j.extras()).unwrap_or_default();
    extras.costs = Some(&costs);
    // `--format` without `--out` prints that report on standard output instead of the table.
    let to_stdout = out.format.filter(|_| out.out.is_none());
    if !quiet {
        if out.table && to_stdout.is_none() {
            let out_color = use_color(out.color, std::io::stdout().is_terminal());
            print!(
                "{}",
                verity_report::render_table(&view, &table_options(out_color, &costs))
            );
        }
        let (cost, tokens) = budget.spent();
        if tokens > 0 {
            eprintln!("spent: {tokens} tokens, ${cost:.4} at list prices");
        }
        eprintln!(
            "run {} stored in {} (verity report {} --format json|md)",
            run_id,
            store.path().display(),
            run_id
        );
    }
    if let Some(fmt) = out.format {
        write_out(&render(&view, fmt, false, &extras), out.out.as_deref())?;
    }
    for written in write_suite_reports(&run.meta, &view, &run.samples, &extras, out.force)? {
        eprintln!("wrote {}", written.display());
    }
    let code = finish()?;
    match &judged {
        Some(j) if code == exit::OK => conclude(&j.report),
        _ => Ok(code),
    }
}
