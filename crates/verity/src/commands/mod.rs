//! One file per subcommand, glue only: each parses nothing (clap did), calls the library
//! crates, prints, and returns an exit code or a [`CliError`] whose kind decides the code.

mod baseline;
mod cache;
mod check;
mod compare;
mod corpus;
mod execute;
mod facts;
mod list;
mod mcp;
mod merge;
mod model;
mod observations;
mod report;
mod report_files;
mod rescore;
mod retry;
mod run;
mod runs;
mod symbols;
mod validate;
mod verdict;
mod view;

use std::io::Write as _;
use std::path::Path;

use verity_model::{ErrorKind, Suite};
use verity_store::Store;

use crate::cli::{CheckCommand, Cli, ColorChoice, Command, FactsCommand, McpCommand, ReportFormat};
use crate::config::Config;
use crate::{CliError, exit};
use baseline::baseline;
use cache::cache;
use check::{check_citations, check_swift};
use compare::compare;
use corpus::corpus;
use facts::facts_extract;
use list::list;
use mcp::mcp_serve;
use merge::merge;
use model::model;
use observations::observations;
use report::report;
use rescore::rescore;
use retry::retry;
use run::run;
use runs::runs;
use symbols::symbols;
use validate::validate;
use view::view;

pub(crate) use compare::compare_runs;
pub(crate) use report::render_stored;

pub fn dispatch(cli: Cli) -> Result<u8, CliError> {
    let g = &cli.global;
    let config = Config::load(g.config.as_deref())?;
    match cli.command {
        Command::Run(a) => run(*a, &config, g),
        Command::Validate(a) => validate(a, g),
        Command::List(a) => list(a, g),
        Command::Report(a) => report(a, &config, g),
        Command::Runs(a) => runs(a, &config, g),
        Command::Compare(a) => compare(a, &config, g),
        Command::View(a) => view(a, config, g),
        Command::Baseline(c) => baseline(c, &config, g),
        Command::Rescore(a) => rescore(a, &config, g),
        Command::Retry(a) => retry(a, &config, g),
        Command::Merge(a) => merge(a, &config, g),
        Command::Cache(c) => cache(c, &config, g),
        Command::Observations(c) => observations(c, &config, g),
        Command::Mcp(McpCommand::Serve(a)) => mcp_serve(a),
        Command::Check(CheckCommand::Swift(a)) => check_swift(a),
        Command::Check(CheckCommand::Citations(a)) => check_citations(a),
        Command::Symbols(c) => symbols(c),
        Command::Model(c) => model(c),
        Command::Corpus(c) => corpus(c, &config, g),
        Command::Facts(FactsCommand::Extract(a)) => facts_extract(a),
        Command::ExitCodes => {
            for (code, what) in exit::TABLE {
                println!("{code:>4}  {what}");
            }
            Ok(exit::OK)
        }
    }
}

pub(super) fn use_color(c: ColorChoice, tty: bool) -> bool {
    match c {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => tty && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
    }
}

/// Loads a suite, printing its warnings; on errors prints every diagnostic and fails with the
/// usage exit code.
pub(super) fn load_suite(path: &Path, color: bool) -> Result<Suite, CliError> {
    match verity_suite::load(path) {
        Ok(loaded) => {
            for w in &loaded.warnings {
                eprintln!("{}", w.render(color));
            }
            Ok(loaded.suite)
        }
        Err(diags) => {
            eprintln!("{}", diags.render(color));
            Err(CliError::silent(ErrorKind::Suite))
        }
    }
}

pub(super) fn table_options(
    color: bool,
    costs: &[(String, Option<f64>)],
) -> verity_report::TableOptions {
    verity_report::TableOptions {
        color,
        width: 100,
        max_failures: 20,
        costs: costs.to_vec(),
    }
}

/// Each variant's cost in USD at list prices (verity.toml `[prices]` over the built-in
/// table), from the tokens the run stored; `None` when no price is known for its model.
pub(super) fn costs(view: &verity_report::RunView, config: &Config) -> Vec<(String, Option<f64>)> {
    let prices = config.prices();
    view.per_variant
        .iter()
        .map(|v| {
            let model = view
                .variants
                .iter()
                .find(|i| i.name == v.variant)
                .map(|i| i.model.as_str())
                .unwrap_or("-");
            let (provider, name) = model.split_once('/').unwrap_or(("", model));
            let usd = prices
                .lookup(provider, name)
                .map(|p| p.cost(v.tokens_in, v.tokens_out));
            (v.variant.clone(), usd)
        })
        .collect()
}

pub(super) fn render(
    view: &verity_report::RunView,
    fmt: ReportFormat,
    color: bool,
    extras: &verity_report::Extras<'_>,
) -> String {
    match fmt {
        ReportFormat::Table => verity_report::render_table(
            view,
            &table_options(color, extras.costs.unwrap_or_default()),
        ),
        ReportFormat::Json => {
            let mut s = serde_json::to_string_pretty(&verity_report::to_json_with(view, extras))
                .unwrap_or_default();
            s.push('\n');
            s
        }
        ReportFormat::Md => verity_report::render_markdown_with(view, extras),
        ReportFormat::Html => verity_report::render_html(view, extras),
        ReportFormat::Junit => verity_report::render_junit(view, extras),
        ReportFormat::Github => {
            verity_report::render_github(view, extras, &github_options(&view.header.suite_path))
        }
        ReportFormat::MdSummary => verity_report::render_summary(view, extras),
    }
}

/// Where `--format github` points: task files are recorded relative to the suite's root (the
/// suite directory, or the folder of its suite.toml or dataset file), so annotations name
/// `ROOT/FILE`, with ROOT as the run was given it — made relative to `$GITHUB_WORKSPACE` (else
/// the working directory) when it is absolute, since GitHub resolves annotation paths against
/// the repository.
pub(super) fn github_options(suite_path: &str) -> verity_report::GithubOptions {
    let p = Path::new(suite_path);
    let is_file = match std::fs::metadata(p) {
        Ok(m) => !m.is_dir(),
        // Not here any more: a name with an extension was a file.
        Err(_) => p.extension().is_some(),
    };
    let root = if is_file {
        p.parent().unwrap_or(Path::new(""))
    } else {
        p
    };
    let workspace = std::env::var_os("GITHUB_WORKSPACE")
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::current_dir().ok());
    let rel = match (&workspace, root.is_absolute()) {
        (Some(w), true) => root.strip_prefix(w).unwrap_or(root),
        _ => root,
    };
    let base = rel.to_string_lossy().replace('\\', "/");
    let base = base.strip_prefix("./").unwrap_or(&base).to_owned();
    verity_report::GithubOptions { base }
}

/// The async runtime a command that calls providers or serves MCP runs on.
pub(super) fn runtime() -> Result<tokio::runtime::Runtime, CliError> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| {
            CliError::new(
                ErrorKind::Internal,
                format!("cannot start the async runtime: {e}"),
            )
        })
}

pub(super) fn write_out(text: &str, out: Option<&Path>) -> Result<(), CliError> {
    match out {
        Some(p) => {
            if let Some(dir) = p.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir)
                    .map_err(|e| CliError::io(format!("cannot create {}: {e}", dir.display())))?;
            }
            std::fs::write(p, text)
                .map_err(|e| CliError::io(format!("cannot write {}: {e}", p.display())))
        }
        None => {
            let mut so = std::io::stdout().lock();
            // A closed pipe (`| head`) is not an error worth reporting.
            let _ = so.write_all(text.as_bytes());
            Ok(())
        }
    }
}

/// Opens an existing database; a missing one is a usage error.
pub(super) fn open_existing(db: &Path) -> Result<Store, CliError> {
    require_db(db)?;
    Ok(Store::open(db)?)
}

/// A missing database is a usage error for commands that need one.
pub(super) fn require_db(db: &Path) -> Result<(), CliError> {
    if is_missing(db) {
        return Err(CliError::usage(format!(
            "no database at {} (pass --db, or run `verity run` first)",
            db.display()
        )));
    }
    Ok(())
}

/// Whether nothing is at `db`. A path that cannot be looked at (a directory on the way is
/// not searchable) is not missing: opening it says why it cannot be read.
pub(super) fn is_missing(db: &Path) -> bool {
    matches!(db.try_exists(), Ok(false))
}

/// [`open_existing`] for commands that only read: opened read-only, so they work on a
/// read-only mount and can change nothing.
pub(super) fn open_existing_read_only(db: &Path) -> Result<Store, CliError> {
    require_db(db)?;
    Ok(Store::open_read_only(db)?)
}
