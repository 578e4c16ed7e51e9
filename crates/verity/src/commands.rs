use std::collections::{HashMap, HashSet};
use std::io::{IsTerminal, Write as _};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use verity_model::{
    ErrorPolicy, Provider, ProviderErrorKind, ProviderSpec, RunStatus, SampleKey, SampleRecord,
    ScorerSpec, Shard, SourceLoc, Suite, Variant,
};
use verity_runner::{
    Budget, CacheMode, Execution, FailFast, LimitSpec, PlanOptions, RetryPolicy, RunEvent, Shutdown,
};
use verity_store::Store;

use crate::cli::{
    CacheCommand, CheckCommand, CheckSwiftArgs, Cli, ColorChoice, Command, ExecArgs, Format,
    ListArgs, McpCommand, McpServeArgs, MergeArgs, ModelCommand, ObservationsCommand, ReportArgs,
    RescoreArgs, RetryArgs, RunArgs, RunsArgs, SymbolsCommand, ValidateArgs,
};
use crate::config::Config;
use crate::{Failure, exit, progress};

pub fn dispatch(cli: Cli) -> Result<u8, Failure> {
    let config = Config::load(cli.config.as_deref())?;
    match cli.command {
        Command::Run(a) => run(*a, &config),
        Command::Validate(a) => validate(a),
        Command::List(a) => list(a),
        Command::Report(a) => report(a, &config),
        Command::Runs(a) => runs(a, &config),
        Command::Rescore(a) => rescore(a, &config),
        Command::Retry(a) => retry(a, &config),
        Command::Merge(a) => merge(a, &config),
        Command::Cache(c) => cache(c, &config),
        Command::Observations(c) => observations(c, &config),
        Command::Mcp(McpCommand::Serve(a)) => mcp_serve(a),
        Command::Check(CheckCommand::Swift(a)) => check_swift(a),
        Command::Symbols(c) => symbols(c),
        Command::Model(c) => model(c),
        Command::ExitCodes => {
            for (code, what) in exit::TABLE {
                println!("{code:>4}  {what}");
            }
            Ok(exit::OK)
        }
    }
}

fn use_color(c: ColorChoice, tty: bool) -> bool {
    match c {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => tty && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
    }
}

/// Loads a suite, printing its warnings; on errors prints every diagnostic and fails with the
/// usage exit code.
fn load_suite(path: &Path, color: bool) -> Result<Suite, Failure> {
    match verity_suite::load(path) {
        Ok(loaded) => {
            for w in &loaded.warnings {
                eprintln!("{}", w.render(color));
            }
            Ok(loaded.suite)
        }
        Err(diags) => {
            eprintln!("{}", diags.render(color));
            Err(Failure::silent(exit::USAGE))
        }
    }
}

fn validate(a: ValidateArgs) -> Result<u8, Failure> {
    let color = use_color(a.color, std::io::stderr().is_terminal());
    let suite = load_suite(&a.suite, color)?;
    let mut by_cat: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    for t in &suite.tasks {
        *by_cat
            .entry(t.category.as_deref().unwrap_or("(none)"))
            .or_default() += 1;
    }
    let cats: Vec<String> = by_cat.iter().map(|(c, n)| format!("{c} {n}")).collect();
    println!(
        "ok: suite `{}`: {} tasks ({}), {} variants, {} scorers, {} epoch(s)",
        suite.name,
        suite.tasks.len(),
        cats.join(", "),
        suite.variants.len(),
        suite.scorers.len(),
        suite.epochs
    );
    Ok(exit::OK)
}

fn list(a: ListArgs) -> Result<u8, Failure> {
    let suite = load_suite(
        &a.suite,
        use_color(ColorChoice::Auto, std::io::stderr().is_terminal()),
    )?;
    let tasks: Vec<_> = suite
        .tasks
        .iter()
        .filter(|t| {
            a.category
                .as_deref()
                .is_none_or(|c| t.category.as_deref() == Some(c))
        })
        .collect();
    let mut out = String::new();
    match a.format {
        Format::Json => {
            let v: Vec<_> = tasks
                .iter()
                .map(|t| {
                    json!({"id": t.id, "category": t.category, "prompt": t.input.prompt_text(), "target": t.target, "source": t.source.to_string()})
                })
                .collect();
            out = serde_json::to_string_pretty(&v).unwrap_or_default();
            out.push('\n');
        }
        Format::Table | Format::Md => {
            let idw = tasks
                .iter()
                .map(|t| t.id.chars().count())
                .max()
                .unwrap_or(2)
                .max(2);
            let cw = tasks
                .iter()
                .map(|t| t.category.as_deref().unwrap_or("-").chars().count())
                .max()
                .unwrap_or(8)
                .max(8);
            out.push_str(&format!("{:idw$}  {:cw$}  prompt\n", "id", "category"));
            for t in &tasks {
                let p: String = t
                    .input
                    .prompt_text()
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ");
                let p: String = if p.chars().count() > 70 {
                    format!("{}…", p.chars().take(69).collect::<String>())
                } else {
                    p
                };
                out.push_str(&format!(
                    "{:idw$}  {:cw$}  {}\n",
                    t.id,
                    t.category.as_deref().unwrap_or("-"),
                    p
                ));
            }
            out.push_str(&format!("{} tasks\n", tasks.len()));
        }
    }
    print!("{out}");
    Ok(exit::OK)
}

/// Applies the CLI's provider and scorer overrides to a loaded suite.
fn apply_overrides(suite: &mut Suite, a: &RunArgs) {
    if suite.variants.is_empty() {
        suite.variants.push(Variant {
            name: "default".into(),
            provider: ProviderSpec::default(),
            params: Default::default(),
            prompt: None,
            system: None,
            grounding: None,
        });
    }
    for v in &mut suite.variants {
        // `--provider replay` keeps each variant's provider (the cache key names it) and answers
        // from the cache only; see `run`.
        if let Some(p) = &a.provider
            && *p != v.provider.kind
            && p != "replay"
        {
            // A different provider kind: the suite's endpoint settings do not carry over.
            v.provider = ProviderSpec {
                kind: p.clone(),
                ..ProviderSpec::default()
            };
        }
        if let Some(m) = &a.model {
            v.provider.model = Some(m.clone());
        }
        if let Some(u) = &a.base_url {
            v.provider.base_url = Some(u.clone());
        }
        if let Some(k) = &a.api_key_env {
            v.provider.api_key_env = Some(k.clone());
        }
        if let Some(c) = &a.command {
            v.provider
                .options
                .insert("command".into(), serde_json::Value::String(c.clone()));
        }
        // A suite that names no provider runs on the embedded model (its default model unless
        // the suite or --model names one).
        if v.provider.kind.is_empty() {
            v.provider.kind = "local".into();
        }
    }
    for kind in &a.scorers {
        suite.scorers.push(ScorerSpec {
            kind: kind.clone(),
            name: None,
            options: Default::default(),
            source: SourceLoc {
                file: "--scorer".into(),
                line: 0,
                column: 0,
            },
        });
    }
}

/// Resolved execution settings: flags over verity.toml over defaults.
struct ExecSettings {
    concurrency: usize,
    /// Whether `concurrency` came from -j or verity.toml (else providers may raise it).
    concurrency_explicit: bool,
    /// `None`: each provider's own default (60 s for APIs, 30 min for the embedded model).
    timeout: Option<Duration>,
    retry: RetryPolicy,
    fail_fast: FailFast,
    cache: CacheMode,
    budget: Budget,
}

fn exec_settings(
    e: &ExecArgs,
    concurrency: Option<usize>,
    config: &Config,
) -> Result<ExecSettings, Failure> {
    let timeout = e.timeout.or(config.run.timeout_s);
    if timeout.is_some_and(|t| !(t > 0.0 && t.is_finite())) {
        return Err(Failure::usage(
            "--timeout must be a positive number of seconds",
        ));
    }
    let cache_s = e
        .cache
        .clone()
        .or_else(|| config.run.cache.clone())
        .unwrap_or_else(|| "live".into());
    let cache = CacheMode::parse(&cache_s).ok_or_else(|| {
        Failure::usage(format!(
            "--cache {cache_s:?}: expected live, replay, refresh or off"
        ))
    })?;
    if let Some(c) = e.max_cost
        && !(c >= 0.0 && c.is_finite())
    {
        return Err(Failure::usage(
            "--max-cost must be a non-negative number of USD",
        ));
    }
    let concurrency_explicit = concurrency.or(config.run.concurrency).is_some();
    let concurrency = concurrency.or(config.run.concurrency).unwrap_or(5);
    if concurrency == 0 {
        return Err(Failure::usage("--concurrency must be at least 1"));
    }
    if let Some(t) = config.run.retry_max_elapsed_s
        && !(t >= 0.0 && t.is_finite() && t <= 86_400.0)
    {
        return Err(Failure::usage(format!(
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
    })
}

fn parse_shard(s: &str) -> Result<Shard, Failure> {
    let bad = || {
        Failure::usage(format!(
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

/// Builds every variant's provider; a misconfiguration (missing key…) is a usage error.
fn build_providers(suite: &Suite) -> Result<HashMap<String, Arc<dyn Provider>>, Failure> {
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
            return Err(Failure::usage(format!(
                "variant `{}`: its base URL held credentials, which are never stored ({url}), so this stored run cannot send them again; give the key through an environment variable (`api_key_env`, --api-key-env) and start a new run",
                v.name
            )));
        }
        let p = verity_providers::build(&v.provider).map_err(|e| {
            let code = if e.kind == ProviderErrorKind::Config {
                exit::USAGE
            } else {
                exit::INFRA
            };
            Failure {
                code,
                message: format!("variant `{}`: {}", v.name, e.message),
            }
        })?;
        providers.insert(v.name.clone(), p);
    }
    Ok(providers)
}

fn run(a: RunArgs, config: &Config) -> Result<u8, Failure> {
    let err_tty = std::io::stderr().is_terminal();
    let color = use_color(a.color, err_tty);
    if let Some(r) = a.fail_under
        && !(0.0..=1.0).contains(&r)
    {
        return Err(Failure::usage(format!(
            "--fail-under takes a fraction from 0 to 1, got {r}"
        )));
    }
    let mut settings = exec_settings(&a.exec, a.concurrency, config)?;
    if a.provider.as_deref() == Some("replay") {
        if a.exec.cache.as_deref().is_some_and(|c| c != "replay") {
            return Err(Failure::usage(
                "--provider replay answers from the cache only; it cannot be combined with another --cache mode",
            ));
        }
        settings.cache = CacheMode::Replay;
    }
    let db = a.db.path(config);
    let (plan, resume) = match (&a.resume, &a.suite) {
        (Some(run), _) => {
            let store = open_existing(&db)?;
            let id = store.resolve_run(run)?;
            let meta = store.load_run_meta(&id)?;
            if meta.status == RunStatus::Completed {
                eprintln!("run {id} is already complete; nothing to resume");
                return Ok(exit::OK);
            }
            let mut plan = verity_runner::plan_from_run(&meta, store.task_count(&id)?);
            plan.options.concurrency = settings.concurrency;
            (plan, true)
        }
        (None, Some(path)) => {
            let shard = a.shard.as_deref().map(parse_shard).transpose()?;
            let opts = PlanOptions {
                variants: a.variants.clone(),
                epochs: a.epochs,
                limit: a.limit,
                filter: a.filter.clone(),
                quick: a.quick,
                concurrency: settings.concurrency,
                shard,
            };
            (stream_plan(path, &a, &opts, &db, color)?, false)
        }
        (None, None) => return Err(Failure::usage("name a suite to run, or --resume RUN")),
    };
    let run_id = plan.run_id.clone();
    let result = execute_plan(
        plan,
        settings,
        config,
        &db,
        resume,
        None,
        Output {
            quiet: a.quiet,
            color: a.color,
            err_tty,
            format: a.format,
            out: a.out.clone(),
            force: a.force,
        },
    );
    if result.is_err() && !resume {
        // A run that failed before it started (a missing key, a refused budget) leaves
        // nothing behind; one with any result stays, resumable.
        if let Ok(mut store) = Store::open(&db) {
            let _ = store.discard_unstarted_run(&run_id);
        }
    }
    let code = result?;
    if code != exit::OK {
        return Ok(code);
    }
    let store = Store::open(&db)?;
    gate(&store, &run_id, None, a.fail_under)
}

/// Loads the suite at `path` for a new run, streaming its tasks into the database as they
/// are read and checked (only those the run selects are kept), so a dataset of any size runs
/// in the same memory. On any problem nothing stays in the database.
fn stream_plan(
    path: &Path,
    a: &RunArgs,
    opts: &PlanOptions,
    db: &Path,
    color: bool,
) -> Result<verity_runner::Plan, Failure> {
    struct Sink<'a, 'd> {
        stage: verity_store::TaskStage<'d>,
        args: &'a RunArgs,
        opts: &'a PlanOptions,
        filter: Option<verity_runner::TaskFilter>,
    }
    impl verity_suite::TaskSink for Sink<'_, '_> {
        fn start(&mut self, suite: &mut Suite) -> Result<(), String> {
            apply_overrides(suite, self.args);
            self.filter =
                Some(verity_runner::TaskFilter::new(suite, self.opts).map_err(|e| e.to_string())?);
            Ok(())
        }
        fn put(&mut self, task: &verity_model::Task) -> Result<(), verity_suite::SinkError> {
            let keep = self.filter.as_mut().is_some_and(|f| f.accept(&task.id));
            match self.stage.put(task, keep) {
                Ok(()) => Ok(()),
                Err(verity_store::StageError::Duplicate { first, .. }) => {
                    Err(verity_suite::SinkError::Duplicate { first })
                }
                Err(verity_store::StageError::Store(e)) => {
                    Err(verity_suite::SinkError::Failed(e.to_string()))
                }
            }
        }
    }

    let mut store = Store::open(db)?;
    let run_id = verity_runner::new_run_id();
    let mut sink = Sink {
        stage: store.stage_tasks(&run_id)?,
        args: a,
        opts,
        filter: None,
    };
    let suite = match verity_suite::load_streaming(path, &mut sink) {
        Ok(loaded) => {
            for w in &loaded.warnings {
                eprintln!("{}", w.render(color));
            }
            loaded.suite
        }
        Err(diags) => {
            // Dropping the stage rolls back whatever was staged.
            eprintln!("{}", diags.render(color));
            return Err(Failure::silent(exit::USAGE));
        }
    };
    if sink.stage.is_empty() {
        return Err(Failure::usage(verity_runner::no_task_error().to_string()));
    }
    if suite.scorers.is_empty() {
        eprintln!(
            "warning: suite `{}` has no scorers; every answer will pass (add [[scorers]] or --scorer)",
            suite.name
        );
    }
    let (mut plan, _) = verity_runner::plan_variants(suite, &path.display().to_string(), opts)
        .map_err(|e| Failure::usage(e.to_string()))?;
    plan.run_id = run_id;
    plan.stored_tasks = Some(sink.stage.len());
    // The tasks and the run's row commit together: no task is ever stored without its run.
    sink.stage
        .commit_run(&verity_runner::staged_run_meta(&plan))?;
    Ok(plan)
}

struct Output {
    quiet: bool,
    color: ColorChoice,
    err_tty: bool,
    format: Option<Format>,
    out: Option<PathBuf>,
    /// `[report]` files may replace existing files (`--force`).
    force: bool,
}

/// Runs a plan with progress output, then prints the report. Returns OK or INTERRUPTED.
fn execute_plan(
    mut plan: verity_runner::Plan,
    settings: ExecSettings,
    config: &Config,
    db: &Path,
    resume: bool,
    only: Option<HashSet<SampleKey>>,
    out: Output,
) -> Result<u8, Failure> {
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
    let store = Store::open(db)?;
    let skip: HashSet<SampleKey> = if resume || only.is_some() {
        let done = store.completed_keys(&plan.run_id)?;
        match &only {
            Some(o) => done.into_iter().filter(|k| !o.contains(k)).collect(),
            None => done,
        }
    } else {
        HashSet::new()
    };
    let est = verity_runner::estimate(&plan, &providers, &prices, &skip, &store)
        .map_err(|e| Failure::usage(e.to_string()))?;
    if !plan.suite.report.is_empty() {
        check_suite_reports(&store.load_run_meta(&plan.run_id)?, out.force)?;
    }
    drop(store);
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
        settings
            .budget
            .admits(&est)
            .map_err(|m| Failure::usage(format!("refusing to start: {m}")))?;
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
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::infra(format!("cannot start the async runtime: {e}")))?;
    let shutdown = Shutdown::new();
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
            store_path: db.to_owned(),
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
        })
        .await;
        let _ = reporter.await;
        result
    });
    let summary = summary.map_err(|e| match e {
        verity_runner::RunError::Plan(m) => Failure::usage(m),
        other => Failure::infra(other.to_string()),
    })?;
    // A run in which no sample got an answer measured nothing: an infrastructure failure,
    // whatever its status says.
    let all_errored = summary.completed > 0 && summary.errors == summary.completed;

    let store = Store::open(db)?;
    let mut meta = store.load_run_meta(&run_id)?;
    // Rendering needs every task and sample in memory; a quiet run that writes no report files
    // does not load them, so its memory stays flat however large the run.
    let renders =
        !quiet || (out.format.is_some() && out.out.is_some()) || !meta.suite.report.is_empty();
    // The exit code, after saying how to finish an interrupted run.
    let finish = || {
        if summary.status == RunStatus::Interrupted {
            eprintln!(
                "interrupted: {} of {} samples stored; `verity run --resume {}` finishes the rest",
                summary.completed, summary.total, run_id
            );
            exit::INTERRUPTED
        } else if all_errored {
            eprintln!(
                "error: every one of the {} samples stored ended in an infrastructure error, so the \
                 run measured nothing; fix the cause, then `verity retry {} --failed`",
                summary.completed, run_id
            );
            exit::INFRA
        } else {
            exit::OK
        }
    };
    if !renders {
        return Ok(finish());
    }
    meta.suite.tasks = store.load_tasks(&run_id)?;
    let samples = store.load_samples(&run_id, None)?;
    let groups = store.load_groups(&run_id, None)?;
    let view = verity_report::RunView::new(&meta, &samples, &groups);
    if !quiet {
        let out_color = use_color(out.color, std::io::stdout().is_terminal());
        print!(
            "{}",
            verity_report::render_table(&view, &table_options(out_color))
        );
        let (cost, tokens) = budget.spent();
        if tokens > 0 {
            eprintln!("spent: {tokens} tokens, ${cost:.4} at list prices");
        }
        eprintln!(
            "run {} stored in {} (verity report {} --format json|md)",
            run_id,
            db.display(),
            run_id
        );
    }
    if let (Some(fmt), Some(path)) = (out.format, &out.out) {
        write_out(&render(&view, fmt, false), Some(path))?;
    }
    for written in write_suite_reports(&meta, &view, &samples, out.force)? {
        eprintln!("wrote {}", written.display());
    }
    Ok(finish())
}

fn table_options(color: bool) -> verity_report::TableOptions {
    verity_report::TableOptions {
        color,
        width: 100,
        max_failures: 20,
    }
}

fn render(view: &verity_report::RunView, fmt: Format, color: bool) -> String {
    match fmt {
        Format::Table => verity_report::render_table(view, &table_options(color)),
        Format::Json => {
            let mut s =
                serde_json::to_string_pretty(&verity_report::to_json(view)).unwrap_or_default();
            s.push('\n');
            s
        }
        Format::Md => verity_report::render_markdown(view),
    }
}

fn write_out(text: &str, out: Option<&Path>) -> Result<(), Failure> {
    match out {
        Some(p) => {
            if let Some(dir) = p.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir)
                    .map_err(|e| Failure::infra(format!("cannot create {}: {e}", dir.display())))?;
            }
            std::fs::write(p, text)
                .map_err(|e| Failure::infra(format!("cannot write {}: {e}", p.display())))
        }
        None => {
            let mut so = std::io::stdout().lock();
            // A closed pipe (`| head`) is not an error worth reporting.
            let _ = so.write_all(text.as_bytes());
            Ok(())
        }
    }
}

/// Pass rate per variant under the suite's error policy, from the store's counts.
pub fn pass_rates(
    policy: ErrorPolicy,
    counts: &[verity_store::OutcomeCounts],
) -> Vec<(String, f64, u64)> {
    counts
        .iter()
        .map(|c| {
            let n = match policy {
                ErrorPolicy::Fail => c.samples,
                ErrorPolicy::Exclude => c.samples - c.error,
            };
            (
                c.variant.clone(),
                if n == 0 {
                    0.0
                } else {
                    c.pass as f64 / n as f64
                },
                n,
            )
        })
        .collect()
}

/// `--fail-under`: every variant's pass rate (under the current or given scoring) must reach it.
fn gate(
    store: &Store,
    run_id: &str,
    scoring: Option<u32>,
    fail_under: Option<f64>,
) -> Result<u8, Failure> {
    let Some(min) = fail_under else {
        return Ok(exit::OK);
    };
    let meta = store.load_run_meta(run_id)?;
    let counts = store.outcome_counts(run_id, scoring.unwrap_or(meta.scoring))?;
    let mut failed = false;
    for (variant, rate, _) in pass_rates(meta.suite.outcome.errors, &counts) {
        if rate < min {
            eprintln!(
                "gate: variant `{variant}` pass rate {:.1}% is below --fail-under {:.1}%",
                rate * 100.0,
                min * 100.0
            );
            failed = true;
        }
    }
    Ok(if failed { exit::GATE_FAILED } else { exit::OK })
}

fn report(a: ReportArgs, config: &Config) -> Result<u8, Failure> {
    if let Some(r) = a.fail_under
        && !(0.0..=1.0).contains(&r)
    {
        return Err(Failure::usage(format!(
            "--fail-under takes a fraction from 0 to 1, got {r}"
        )));
    }
    let db = a.db.path(config);
    let store = open_existing_read_only(&db)?;
    let id = store.resolve_run(&a.run)?;
    let meta = store.load_run(&id)?;
    if let Some(s) = a.scoring
        && (s == 0 || s > meta.scoring)
    {
        return Err(Failure::usage(format!(
            "run {id} has scorings 1..={}, not {s}",
            meta.scoring
        )));
    }
    let samples = store.load_samples(&id, a.scoring)?;
    let groups = store.load_groups(&id, a.scoring)?;
    let view = verity_report::RunView::new(&meta, &samples, &groups);
    let color = a.out.is_none() && use_color(a.color, std::io::stdout().is_terminal());
    write_out(&render(&view, a.format, color), a.out.as_deref())?;
    gate(&store, &id, a.scoring, a.fail_under)
}

fn runs(a: RunsArgs, config: &Config) -> Result<u8, Failure> {
    let db = a.db.path(config);
    if is_missing(&db) {
        if a.format == Format::Json {
            println!("[]");
        } else {
            println!("no runs yet ({} does not exist)", db.display());
        }
        return Ok(exit::OK);
    }
    let store = Store::open_read_only(&db)?;
    let runs = store.list_runs()?;
    let mut out = String::new();
    if a.format == Format::Json {
        let v: Vec<_> = runs
            .iter()
            .map(|r| json!({"id": r.id, "suite": r.suite_name, "status": r.status.as_str(), "started_at": r.started_at,
                "finished_at": r.finished_at, "completed": r.completed, "total": r.total, "passed": r.passed, "errors": r.errors}))
            .collect();
        out = serde_json::to_string_pretty(&v).unwrap_or_default();
        out.push('\n');
    } else {
        let sw = runs
            .iter()
            .map(|r| r.suite_name.chars().count())
            .max()
            .unwrap_or(5)
            .max(5);
        out.push_str(&format!(
            "{:20}  {:sw$}  {:11}  {:20}  {:>11}  {:>7}\n",
            "run", "suite", "status", "started", "samples", "passed"
        ));
        for r in &runs {
            let started: String = r
                .started_at
                .chars()
                .take(19)
                .collect::<String>()
                .replace('T', " ");
            out.push_str(&format!(
                "{:20}  {:sw$}  {:11}  {:20}  {:>11}  {:>7}\n",
                r.id,
                r.suite_name,
                r.status.as_str(),
                started,
                format!("{}/{}", r.completed, r.total),
                r.passed
            ));
        }
        out.push_str(&format!("{} runs in {}\n", runs.len(), db.display()));
    }
    write_out(&out, None)?;
    Ok(exit::OK)
}

fn rescore(a: RescoreArgs, config: &Config) -> Result<u8, Failure> {
    let db = a.db.path(config);
    require_db(&db)?;
    let suite = match &a.suite {
        Some(p) => Some(load_suite(
            p,
            use_color(ColorChoice::Auto, std::io::stderr().is_terminal()),
        )?),
        None => None,
    };
    let mut store = Store::open(&db)?;
    let id = store.resolve_run(&a.run)?;
    let r = verity_runner::rescore(&mut store, &id, suite).map_err(|e| match e {
        verity_runner::RunError::Store(s) => Failure::from(s),
        verity_runner::RunError::Plan(m) => Failure::usage(m),
        other => Failure::infra(other.to_string()),
    })?;
    println!(
        "rescored run {id}: scoring {} over {} samples, {} changed verdicts (no model was called)",
        r.scoring, r.samples, r.changed
    );
    Ok(exit::OK)
}

/// Opens an existing database; a missing one is a usage error.
fn open_existing(db: &Path) -> Result<Store, Failure> {
    require_db(db)?;
    Ok(Store::open(db)?)
}

/// A missing database is a usage error for commands that need one.
fn require_db(db: &Path) -> Result<(), Failure> {
    if is_missing(db) {
        return Err(Failure::usage(format!(
            "no database at {} (pass --db, or run `verity run` first)",
            db.display()
        )));
    }
    Ok(())
}

/// Whether nothing is at `db`. A path that cannot be looked at (a directory on the way is
/// not searchable) is not missing: opening it says why it cannot be read.
fn is_missing(db: &Path) -> bool {
    matches!(db.try_exists(), Ok(false))
}

/// [`open_existing`] for commands that only read: opened read-only, so they work on a
/// read-only mount and can change nothing.
fn open_existing_read_only(db: &Path) -> Result<Store, Failure> {
    require_db(db)?;
    Ok(Store::open_read_only(db)?)
}

fn retry(a: RetryArgs, config: &Config) -> Result<u8, Failure> {
    let db = a.db.path(config);
    let store = open_existing(&db)?;
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
    // A retry exists to reach the model again: a cached answer cannot be an error, so reading
    // the cache is pointless, but fresh answers still go into it.
    if settings.cache == CacheMode::Live {
        settings.cache = CacheMode::Refresh;
    }
    let mut plan = verity_runner::plan_from_run(&meta, store.task_count(&id)?);
    plan.options.concurrency = settings.concurrency;
    drop(store);
    execute_plan(
        plan,
        settings,
        config,
        &db,
        true,
        Some(failed),
        Output {
            quiet: a.quiet,
            color: ColorChoice::Auto,
            err_tty: std::io::stderr().is_terminal(),
            format: None,
            out: None,
            force: a.force,
        },
    )
}

fn merge(a: MergeArgs, config: &Config) -> Result<u8, Failure> {
    let db = a.db.path(config);
    for s in &a.sources {
        if !s.is_file() {
            return Err(Failure::usage(format!(
                "no shard database at {}",
                s.display()
            )));
        }
    }
    let mut store = Store::open(&db)?;
    let id = verity_runner::new_run_id();
    let m = store.merge_shards(&a.sources, &id).map_err(|e| match e {
        verity_store::StoreError::Merge(_) => Failure::usage(e.to_string()),
        other => Failure::from(other),
    })?;
    println!(
        "merged {} shards into run {} in {}: {} samples, {} observations",
        m.shards,
        m.run_id,
        db.display(),
        m.samples,
        m.observations
    );
    if m.split_groups > 0 {
        eprintln!(
            "warning: {} cross-task groups were split across shards and judged in parts; `verity rescore {}` judges them whole",
            m.split_groups, m.run_id
        );
    }
    Ok(exit::OK)
}

fn now_rfc3339() -> String {
    jiff::Timestamp::now().to_string()
}

fn cache(c: CacheCommand, config: &Config) -> Result<u8, Failure> {
    match c {
        CacheCommand::Stats(a) => {
            let db = a.db.path(config);
            let store = open_existing_read_only(&db)?;
            let st = store.cache_stats()?;
            println!(
                "cache namespace {}: {} entries, {} bytes",
                st.namespace, st.entries, st.bytes
            );
            if let (Some(o), Some(n)) = (&st.oldest, &st.newest) {
                println!("  oldest {o}, newest {n}");
            }
            if st.other_namespaces > 0 {
                println!(
                    "  {} entries of older namespaces (verity cache prune --other-namespaces)",
                    st.other_namespaces
                );
            }
            for (provider, model, entries, bytes) in &st.by_model {
                println!("  {provider}/{model}: {entries} entries, {bytes} bytes");
            }
            Ok(exit::OK)
        }
        CacheCommand::Prune(a) => {
            if a.older_than.is_none() && a.model.is_none() && !a.other_namespaces && !a.all {
                return Err(Failure::usage(
                    "say what to prune: --older-than DAYS, --model M, --other-namespaces or --all",
                ));
            }
            let db = a.db.path(config);
            let mut store = open_existing(&db)?;
            let n = store.cache_prune(&verity_store::CachePrune {
                older_than_days: a.older_than,
                model: a.model.clone(),
                other_namespaces: a.other_namespaces,
                all: a.all,
                now: now_rfc3339(),
            })?;
            println!("pruned {n} cache entries");
            Ok(exit::OK)
        }
    }
}

fn observations(c: ObservationsCommand, config: &Config) -> Result<u8, Failure> {
    match c {
        ObservationsCommand::Prune(a) => {
            let db = a.db.path(config);
            let mut store = open_existing(&db)?;
            let keep_last = a.keep_last.unwrap_or(config.observations.keep_last);
            let keep_days = a.keep_days.unwrap_or(config.observations.keep_days);
            let n = store.prune_observations(keep_last, keep_days, &now_rfc3339())?;
            println!(
                "pruned {n} observations (kept the newest {keep_last} or the last {keep_days} days, whichever is more)"
            );
            Ok(exit::OK)
        }
    }
}

/// Reads a JSONL document file for `verity mcp serve --docs`.
fn read_docs(path: &Path) -> Result<Vec<verity_mcp::Doc>, Failure> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::usage(format!("cannot read {}: {e}", path.display())))?;
    let mut docs = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let at = || format!("{}:{}", path.display(), i + 1);
        let v: serde_json::Value =
            serde_json::from_str(line).map_err(|e| Failure::usage(format!("{}: {e}", at())))?;
        let field = |k: &str| -> Result<String, Failure> {
            v.get(k)
                .and_then(|x| x.as_str())
                .map(str::to_owned)
                .ok_or_else(|| {
                    Failure::usage(format!("{}: each document needs a string `{k}`", at()))
                })
        };
        docs.push(verity_mcp::Doc {
            id: field("id")?,
            title: field("title")?,
            body: field("body")?,
        });
    }
    Ok(docs)
}

fn mcp_serve(a: McpServeArgs) -> Result<u8, Failure> {
    let source: Arc<dyn verity_mcp::DocSource> = match &a.docs {
        Some(path) => {
            let name = format!("docs {}", path.display());
            Arc::new(verity_mcp::StaticDocs::new(name, read_docs(path)?))
        }
        None => match &a.index {
            Some(spec) => {
                let index = verity_swift::cli::load_index(spec).map_err(|e| {
                    Failure::usage(format!(
                        "index {spec}: {e} (build one with `verity symbols build DIR --out INDEX`)"
                    ))
                })?;
                let map = verity_swift::DeprecationMap::default_for(&index);
                let name = format!("verity-apple-docs {}", index.meta().label);
                Arc::new(crate::docs::SdkDocs::new(&index, &map, name))
            }
            None => {
                return Err(Failure::usage(
                    "name a documentation source: --docs FILE.jsonl or --index INDEX",
                ));
            }
        },
    };
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::infra(format!("cannot start the async runtime: {e}")))?;
    rt.block_on(verity_mcp::serve_stdio(source))
        .map_err(|e| Failure::infra(e.to_string()))?;
    Ok(exit::OK)
}

/// Expands a `[report]` path template of the run's suite, in one pass
/// ([`verity_model::ReportSpec::expand`]: a value is never expanded again). The values put in
/// never add a directory level: `/` and `\` in the suite's name become `_`.
fn expand_report_path(template: &str, meta: &verity_model::RunMeta) -> PathBuf {
    let ts: String = meta
        .started_at
        .chars()
        .filter(|c| c.is_ascii_digit())
        .take(14)
        .collect();
    let ts = if ts.len() == 14 {
        format!("{}-{}", &ts[..8], &ts[8..])
    } else {
        meta.id.clone()
    };
    let flat = |s: &str| s.replace(['/', '\\'], "_");
    PathBuf::from(verity_model::ReportSpec::expand(
        template,
        |name| match name {
            "ts" => Some(flat(&ts)),
            "run" => Some(flat(&meta.id)),
            "suite" => Some(flat(&meta.suite.name)),
            "tmp" => Some(std::env::temp_dir().display().to_string()),
            _ => None,
        },
    ))
}

/// Whether a `[report]` file may replace an existing one: its path names the run (`{ts}`,
/// `{run}`: an existing file is this run's own, from before a resume or retry), or `--force`.
fn may_replace(template: &str, force: bool) -> bool {
    force || template.contains("{ts}") || template.contains("{run}")
}

/// When a `[report]` file is checked: before the run sends anything, or after it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ReportCheck {
    BeforeRun,
    AfterRun,
}

/// The error for a `[report]` file that cannot be written: before the run, a usage error
/// (exit 2, nothing was sent); after it, exit 3 (the run itself is stored).
fn report_failure(
    path: &Path,
    why: impl std::fmt::Display,
    meta: &verity_model::RunMeta,
    when: ReportCheck,
) -> Failure {
    match when {
        ReportCheck::BeforeRun => Failure::usage(format!(
            "refusing to start: the report {} could not be written: {why}",
            path.display()
        )),
        ReportCheck::AfterRun => Failure::infra(format!(
            "not writing the report {}: {why}. The run is stored: `verity report {} --format md|json --out FILE` renders it",
            path.display(),
            meta.id
        )),
    }
}

/// Checks that a `[report]` file may be written at `path`: a relative path has no `..` and
/// lands, symbolic links followed, inside the working directory or the suite's directory (an
/// absolute path may go anywhere); an existing file is replaced only when `replace`.
fn check_report_target(
    path: &Path,
    replace: bool,
    meta: &verity_model::RunMeta,
    when: ReportCheck,
) -> Result<(), Failure> {
    use std::path::Component;
    let exists = std::fs::symlink_metadata(path).is_ok();
    if exists && !replace {
        return Err(report_failure(
            path,
            "the file exists and `[report]` paths never overwrite one unless they contain {ts} or {run}, or --force is given",
            meta,
            when,
        ));
    }
    if path.is_absolute() {
        return Ok(());
    }
    if path.components().any(|c| matches!(c, Component::ParentDir)) {
        return Err(report_failure(
            path,
            "a relative `[report]` path may not contain `..` (report files go inside the suite's or the working directory unless the path is absolute)",
            meta,
            when,
        ));
    }
    let cwd = std::env::current_dir()
        .map_err(|e| Failure::infra(format!("cannot read the working directory: {e}")))?;
    let suite = Path::new(&meta.suite_path);
    let suite_dir = if suite.is_dir() {
        suite
    } else {
        suite.parent().unwrap_or(Path::new("."))
    };
    let roots: Vec<PathBuf> = [cwd.as_path(), suite_dir]
        .iter()
        .filter_map(|r| std::fs::canonicalize(cwd.join(r)).ok())
        .collect();
    // The nearest part of the path that exists (a symbolic link counts, dangling or not),
    // resolved: what is missing below it is created as plain directories.
    let full = cwd.join(path);
    let mut probe = full.as_path();
    while std::fs::symlink_metadata(probe).is_err() {
        probe = probe.parent().unwrap_or(&cwd);
    }
    let resolved = std::fs::canonicalize(probe).map_err(|e| {
        report_failure(
            path,
            format_args!("{} cannot be resolved ({e})", probe.display()),
            meta,
            when,
        )
    })?;
    if !roots.iter().any(|r| resolved.starts_with(r)) {
        return Err(report_failure(
            path,
            format_args!(
                "it leads to {} through a symbolic link, outside the working directory and the suite's (use an absolute path to write there)",
                resolved.display()
            ),
            meta,
            when,
        ));
    }
    Ok(())
}

/// Writes one `[report]` file; without `replace` it is created only if absent (atomically,
/// so a file that appeared since the check is not overwritten either).
fn write_report_file(
    text: &str,
    path: &Path,
    replace: bool,
    meta: &verity_model::RunMeta,
) -> Result<(), Failure> {
    if replace {
        return write_out(text, Some(path));
    }
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| Failure::infra(format!("cannot create {}: {e}", dir.display())))?;
    }
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(|e| {
            if e.kind() == std::io::ErrorKind::AlreadyExists {
                report_failure(
                    path,
                    "the file exists (it appeared during the run)",
                    meta,
                    ReportCheck::AfterRun,
                )
            } else {
                Failure::infra(format!("cannot write {}: {e}", path.display()))
            }
        })?;
    f.write_all(text.as_bytes())
        .map_err(|e| Failure::infra(format!("cannot write {}: {e}", path.display())))
}

/// One file a suite's `[report]` asks for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ReportFile {
    Markdown,
    Json,
    ToolCalls,
}

/// The files a run's `[report]` asks for: what, where, and whether an existing file there may
/// be replaced.
fn report_files(meta: &verity_model::RunMeta, force: bool) -> Vec<(ReportFile, PathBuf, bool)> {
    let spec = &meta.suite.report;
    let mut files = Vec::new();
    if let Some(t) = &spec.markdown {
        files.push((
            ReportFile::Markdown,
            expand_report_path(t, meta),
            may_replace(t, force),
        ));
    }
    if let Some(t) = &spec.json {
        let p = expand_report_path(t, meta);
        let replace = may_replace(t, force);
        if spec.toolcalls {
            let stem = p.to_string_lossy().trim_end_matches(".json").to_owned();
            let tp = PathBuf::from(format!("{stem}-toolcalls.jsonl"));
            files.push((ReportFile::Json, p, replace));
            files.push((ReportFile::ToolCalls, tp, replace));
        } else {
            files.push((ReportFile::Json, p, replace));
        }
    }
    files
}

/// Checks, before a run sends anything, that its `[report]` files could be written: a path
/// that exists and may not be replaced, or that leads outside the allowed directories, is
/// found before any answer is paid for. (Paths with `{ts}` are checked again after the run.)
fn check_suite_reports(meta: &verity_model::RunMeta, force: bool) -> Result<(), Failure> {
    for (_, path, replace) in report_files(meta, force) {
        check_report_target(&path, replace, meta, ReportCheck::BeforeRun)?;
    }
    Ok(())
}

/// Writes the report files the suite's `[report]` asks for; returns their paths. Every path is
/// checked ([`check_report_target`]) before any file is written.
fn write_suite_reports(
    meta: &verity_model::RunMeta,
    view: &verity_report::RunView,
    samples: &[SampleRecord],
    force: bool,
) -> Result<Vec<PathBuf>, Failure> {
    let files = report_files(meta, force);
    for (_, path, replace) in &files {
        check_report_target(path, *replace, meta, ReportCheck::AfterRun)?;
    }
    let mut written = Vec::new();
    for (kind, path, replace) in files {
        let text = match kind {
            ReportFile::Markdown => verity_report::render_markdown(view),
            ReportFile::Json => render(view, Format::Json, false),
            ReportFile::ToolCalls => tool_call_lines(samples),
        };
        write_report_file(&text, &path, replace, meta)?;
        written.push(path);
    }
    Ok(written)
}

/// Every tool call of the run, one JSON object a line.
fn tool_call_lines(samples: &[SampleRecord]) -> String {
    let mut lines = String::new();
    for s in samples {
        for c in &s.response.tool_calls {
            let line = json!({
                "task_id": s.key.task_id,
                "variant": s.key.variant,
                "epoch": s.key.epoch,
                "tool": c.name,
                "id": c.id,
                "arguments": c.arguments,
                "result": c.result,
            });
            lines.push_str(&line.to_string());
            lines.push('\n');
        }
    }
    lines
}

fn model(c: ModelCommand) -> Result<u8, Failure> {
    let dir_or_default = |d: Option<PathBuf>| d.unwrap_or_else(verity_local::default_models_dir);
    match c {
        ModelCommand::Pull { name, models_dir } => {
            let dir = dir_or_default(models_dir);
            let name = name.as_deref().unwrap_or(verity_local::DEFAULT_MODEL);
            let path = verity_local::pull(name, &dir, &mut |line| eprintln!("verity: {line}"))
                .map_err(|e| match e {
                    verity_local::StoreError::UnknownModel { .. } => Failure::usage(e.to_string()),
                    e => Failure::infra(e.to_string()),
                })?;
            println!("{name}: {}", path.display());
            Ok(exit::OK)
        }
        ModelCommand::List { models_dir } => {
            let dir = dir_or_default(models_dir);
            println!("models directory: {}", dir.display());
            for m in verity_local::list(&dir) {
                let state = match (m.present, m.expected_size) {
                    (false, _) => "absent".to_owned(),
                    (true, Some(want)) if m.size != want => {
                        format!("incomplete ({} of {want} bytes)", m.size)
                    }
                    (true, _) => format!("{:.0} MB", m.size as f64 / 1e6),
                };
                let default = if m.name == verity_local::DEFAULT_MODEL {
                    " (default)"
                } else {
                    ""
                };
                println!("{:<32} {:<24} {}{default}", m.name, state, m.description);
            }
            Ok(exit::OK)
        }
    }
}

fn symbols(c: SymbolsCommand) -> Result<u8, Failure> {
    match c {
        SymbolsCommand::Build { dirs, out } => {
            let s =
                verity_swift::cli::build(&dirs, &out).map_err(|e| Failure::usage(e.to_string()))?;
            println!(
                "{} symbols from {} modules -> {} ({} bytes, {:.1}s)",
                s.symbols,
                s.modules,
                s.out.display(),
                s.bytes,
                s.elapsed.as_secs_f64()
            );
            Ok(exit::OK)
        }
        SymbolsCommand::Lookup { name, index, json } => {
            let ix = verity_swift::cli::load_index(&index)
                .map_err(|e| Failure::usage(format!("index {index}: {e}")))?;
            let found = verity_swift::cli::lookup(&ix, &name);
            if found.is_empty() {
                eprintln!(
                    "`{name}` is not in index {} ({} symbols)",
                    ix.meta().label,
                    ix.symbol_count()
                );
                return Ok(exit::GATE_FAILED);
            }
            for f in found {
                if json {
                    println!("{}", serde_json::to_string(&f).unwrap_or_default());
                } else {
                    println!("{}", verity_swift::cli::facts_line(&f));
                }
            }
            Ok(exit::OK)
        }
    }
}

fn check_swift(a: CheckSwiftArgs) -> Result<u8, Failure> {
    let target = verity_swift::Target::parse(&a.platform).ok_or_else(|| {
        Failure::usage(format!(
            "--platform {:?}: expected e.g. ios17.0, macos14.0",
            a.platform
        ))
    })?;
    let mut opts =
        verity_swift::cli::check_options_for(target, &a.index, a.deprecations.as_deref())
            .map_err(Failure::usage)?;
    opts.toolchain = verity_swift::ToolchainChoice::parse(&a.toolchain);
    opts.require_toolchain = a.require_toolchain;
    let mut all_ok = true;
    for f in &a.files {
        let report = if f.as_os_str() == "-" {
            let mut src = String::new();
            std::io::Read::read_to_string(&mut std::io::stdin(), &mut src)
                .map_err(|e| Failure::infra(format!("reading standard input: {e}")))?;
            verity_swift::check_source(&src, &opts)
        } else {
            verity_swift::cli::check_file(f, &opts)
                .map_err(|e| Failure::usage(format!("{}: {e}", f.display())))?
        };
        all_ok &= report.outcome;
        let mut v = serde_json::to_value(&report).unwrap_or_default();
        if let Some(o) = v.as_object_mut() {
            o.insert("file".into(), json!(f.display().to_string()));
        }
        match a.format {
            Format::Json | Format::Md => {
                println!("{}", serde_json::to_string(&v).unwrap_or_default())
            }
            Format::Table => {
                let mark = |b: bool| if b { "pass" } else { "FAIL" };
                println!(
                    "{}  parse {}  symbols {}  availability {}  deprecated {}  ({})",
                    f.display(),
                    mark(report.parse),
                    mark(report.symbols_exist),
                    mark(report.availability_ok),
                    mark(report.no_deprecated),
                    report.parser
                );
            }
        }
    }
    Ok(if all_ok { exit::OK } else { exit::GATE_FAILED })
}

#[cfg(test)]
#[path = "report_path_tests.rs"]
mod report_path_tests;
