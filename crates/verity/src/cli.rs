use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// verity measures whether language models tell the truth, with machines as the judges.
///
/// Point it at a suite (a directory with suite.toml and tasks) or a bare dataset (.jsonl), run
/// every task under every variant, and score each answer with mechanical oracles. Results go to
/// a SQLite store; reports, rescoring and comparisons read from there.
#[derive(Debug, Parser)]
#[command(
    name = "verity",
    version,
    propagate_version = true,
    max_term_width = 100
)]
#[command(
    after_help = "Exit codes: 0 ok, 1 gate failed, 2 usage or suite error, 3 infrastructure error, 130 interrupted.\nSee docs/exit-codes.md."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Args, Clone)]
pub struct DbArgs {
    /// The results database [default: $VERITY_DB, else .verity/verity.db]
    #[arg(long, global = true, value_name = "PATH")]
    pub db: Option<PathBuf>,
}

impl DbArgs {
    pub fn path(&self) -> PathBuf {
        self.db
            .clone()
            .or_else(|| {
                std::env::var_os("VERITY_DB")
                    .filter(|v| !v.is_empty())
                    .map(PathBuf::from)
            })
            .unwrap_or_else(|| PathBuf::from(".verity/verity.db"))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Table,
    Json,
    Md,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run a suite (or a bare dataset file) and store every sample.
    Run(RunArgs),
    /// Check a suite and report every problem with file:line:column.
    Validate(ValidateArgs),
    /// List a suite's tasks.
    List(ListArgs),
    /// Render a stored run as a table, JSON or a Markdown audit.
    Report(ReportArgs),
    /// List stored runs, newest first.
    Runs(RunsArgs),
    /// Re-score a stored run without calling any model.
    Rescore(RescoreArgs),
    /// Print the exit codes and what they mean.
    ExitCodes,
}

#[derive(Debug, Args)]
pub struct RunArgs {
    /// A suite directory, a suite.toml, or a dataset file (.jsonl / task .toml).
    pub suite: PathBuf,
    /// Run only this variant (repeatable).
    #[arg(long = "variant", value_name = "NAME")]
    pub variants: Vec<String>,
    /// Samples per task and variant (overrides the suite's `epochs`).
    #[arg(long)]
    pub epochs: Option<u32>,
    /// Run only the first N tasks (after --filter).
    #[arg(long)]
    pub limit: Option<usize>,
    /// Run only tasks whose id matches this glob.
    #[arg(long, value_name = "GLOB")]
    pub filter: Option<String>,
    /// How many samples are in flight at once.
    #[arg(long, short = 'j', default_value_t = 5)]
    pub concurrency: usize,
    /// Use this provider for every variant (mock, openai).
    #[arg(long, value_name = "KIND")]
    pub provider: Option<String>,
    /// Use this model for every variant.
    #[arg(long)]
    pub model: Option<String>,
    /// The provider's base URL (OpenAI-compatible servers: http://host:port/v1).
    #[arg(long, value_name = "URL")]
    pub base_url: Option<String>,
    /// The environment variable that holds the API key.
    #[arg(long, value_name = "VAR")]
    pub api_key_env: Option<String>,
    /// Add a scorer (equals, contains, regex, json-valid, identical); repeatable.
    #[arg(long = "scorer", value_name = "KIND")]
    pub scorers: Vec<String>,
    /// Fail (exit 1) when any variant's pass rate is below this fraction (0..=1).
    #[arg(long, value_name = "RATE")]
    pub fail_under: Option<f64>,
    /// Also write the report in this format to --out.
    #[arg(long, value_enum, requires = "out")]
    pub format: Option<Format>,
    /// Where --format writes.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Per-call time limit in seconds.
    #[arg(long, default_value_t = 60.0, value_name = "SECONDS")]
    pub timeout: f64,
    /// Retries of a failed call (429, 5xx, timeouts, broken connections).
    #[arg(long, default_value_t = 5)]
    pub retries: u32,
    /// No progress output and no summary table.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    #[command(flatten)]
    pub db: DbArgs,
}

#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// A suite directory, a suite.toml, or a dataset file.
    pub suite: PathBuf,
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
}

#[derive(Debug, Args)]
pub struct ListArgs {
    pub suite: PathBuf,
    /// Only tasks of this category.
    #[arg(long)]
    pub category: Option<String>,
    /// table or json.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
}

#[derive(Debug, Args)]
pub struct ReportArgs {
    /// A run id, a unique prefix of one, or `latest`.
    #[arg(default_value = "latest")]
    pub run: String,
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
    /// Write to this file instead of standard output.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Report an earlier scoring of the run (default: the current one).
    #[arg(long)]
    pub scoring: Option<u32>,
    /// Fail (exit 1) when any variant's pass rate is below this fraction (0..=1).
    #[arg(long, value_name = "RATE")]
    pub fail_under: Option<f64>,
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    #[command(flatten)]
    pub db: DbArgs,
}

#[derive(Debug, Args)]
pub struct RunsArgs {
    /// table or json.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
    #[command(flatten)]
    pub db: DbArgs,
}

#[derive(Debug, Args)]
pub struct RescoreArgs {
    /// A run id, a unique prefix of one, or `latest`.
    pub run: String,
    /// Score with this suite's scorers, outcome rule and expectations instead of the stored ones.
    #[arg(long, value_name = "PATH")]
    pub suite: Option<PathBuf>,
    #[command(flatten)]
    pub db: DbArgs,
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn cli_definition_is_consistent() {
        super::Cli::command().debug_assert();
    }
}
