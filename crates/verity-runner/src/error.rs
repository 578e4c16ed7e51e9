//! The runner's errors, typed to the edge: each says its [`ErrorKind`], and the command line
//! turns kinds into exit codes in one table.

use verity_model::{ErrorKind, ProviderError};
use verity_store::StoreError;

use crate::stop::Stop;

/// Failures that stop a run (never a model's wrong answer: that is a score).
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("provider for variant `{variant}`: {source}")]
    Provider {
        variant: String,
        source: ProviderError,
    },
    #[error(transparent)]
    Plan(#[from] PlanError),
    #[error("the store writer stopped: {0}")]
    Writer(#[from] WriterError),
    #[error(transparent)]
    Grounding(#[from] GroundingError),
    /// The run stopped early on its own account; what is stored stays stored.
    #[error("{0}")]
    Stopped(Box<Stopped>),
}

impl RunError {
    pub fn kind(&self) -> ErrorKind {
        match self {
            RunError::Store(e) => e.kind(),
            RunError::Provider { source, .. } => source.error_kind(),
            RunError::Plan(e) => e.kind(),
            RunError::Writer(e) => e.kind(),
            RunError::Grounding(e) => e.kind(),
            RunError::Stopped(s) => s.stop.kind(),
        }
    }
}

/// What the user asked to run does not fit the suite (or a stored run). Found before any
/// sample is sent; nothing is stored.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    #[error("no variant `{name}` in suite `{suite}` (it has: {})", known.join(", "))]
    UnknownVariant {
        name: String,
        suite: String,
        known: Vec<String>,
    },
    #[error("suite `{suite}` has no variant to run; add [[variants]] or pass --provider")]
    NoVariant { suite: String },
    #[error(
        "suite `{suite}` declares no quick subset: add `quick = [\"task-id\", …]` to its suite.toml, or use --limit N"
    )]
    NoQuickSubset { suite: String },
    #[error("bad --filter glob `{glob}`: {message}")]
    BadFilter { glob: String, message: String },
    #[error("bad shard {}/{count}: K must be from 1 to N", index + 1)]
    BadShard { index: u32, count: u32 },
    #[error("--epochs must be at least 1")]
    ZeroEpochs,
    #[error("no task to run (check --filter / --category / --limit / --shard / --failed-in)")]
    NoTasks,
    #[error("run {run} has no failed task: nothing to run again")]
    NoFailures { run: String },
    #[error(
        "none of the {failed} tasks that failed in run {run} is in this suite (was that run of another suite, or were its tasks renamed?)"
    )]
    FailedNotInSuite { run: String, failed: usize },
    #[error("--category `{category}`: no task of the suite has it (categories: {})", known.join(", "))]
    UnknownCategory {
        category: String,
        known: Vec<String>,
    },
    #[error("no provider for variant `{variant}`")]
    NoProvider { variant: String },
    #[error("prompt templates: {0}")]
    Templates(String),
    #[error("scorer `{name}` ({at}): {message}")]
    Scorer {
        name: String,
        at: String,
        message: String,
    },
    #[error("stored sample {key} has no task in the suite")]
    MissingTask { key: String },
    /// A scorer's pre-flight ([`verity_model::Scorer::preflight`]) found its setup broken:
    /// every verdict would be an error, so the run does not start.
    #[error("scorer `{name}` pre-flight failed: {message}")]
    Preflight { name: String, message: String },
}

impl PlanError {
    pub fn kind(&self) -> ErrorKind {
        match self {
            PlanError::Templates(_)
            | PlanError::Scorer { .. }
            | PlanError::MissingTask { .. }
            | PlanError::Preflight { .. } => ErrorKind::Suite,
            _ => ErrorKind::Usage,
        }
    }
}

/// Why the single writer could not take or commit a run's results.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WriterError {
    /// A transaction failed (a full disk, an I/O error, a lock held past the busy timeout):
    /// the store's message.
    #[error("{0}")]
    Commit(String),
    /// The writer thread ended before the run did.
    #[error("the writer thread has stopped")]
    Stopped,
    #[error("the writer is closed")]
    Closed,
    #[error("the writer thread panicked")]
    Panicked,
    /// A sample task outlived the run's drain: a fault of the engine.
    #[error("sample tasks still hold the run context")]
    ContextHeld,
}

impl WriterError {
    pub fn kind(&self) -> ErrorKind {
        match self {
            WriterError::Panicked | WriterError::ContextHeld => ErrorKind::Internal,
            _ => ErrorKind::Store,
        }
    }
}

/// A grounding server a run needs could not be used; found before any sample is sent.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GroundingError {
    #[error(
        "variant `{variant}` is grounded on server `{server}`, which the suite does not define in [servers]"
    )]
    UnknownServer { variant: String, server: String },
    #[error("grounding server `{server}` did not start: {message}")]
    Start { server: String, message: String },
    #[error("grounding server `{server}` cannot serve inject-top-k: {message}")]
    NoSearch { server: String, message: String },
    #[error("grounding server `{server}` cannot serve tools mode: {message}")]
    Tools { server: String, message: String },
}

impl GroundingError {
    pub fn kind(&self) -> ErrorKind {
        match self {
            // The suite's mapping does not fit the server's tools: fix the suite.
            GroundingError::UnknownServer { .. }
            | GroundingError::NoSearch { .. }
            | GroundingError::Tools { .. } => ErrorKind::Suite,
            GroundingError::Start { .. } => ErrorKind::Provider,
        }
    }
}

/// A run cut short by a [`Stop`]: why, and exactly what it stored.
#[derive(Debug)]
pub struct Stopped {
    pub run_id: String,
    pub stop: Stop,
    /// Samples the run schedules in all.
    pub total: u64,
    /// Samples stored for the run (from before a resume too), or why they could not be counted.
    pub stored: Result<u64, String>,
    /// Samples that finished after the failure and were not stored (a `--resume` sends them
    /// again).
    pub unstored: u64,
    /// Whether the run could be marked `interrupted` (on a full disk even that may fail; the
    /// run then stays `running`, which `--resume` accepts as well).
    pub marked: Result<(), String>,
}

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "run {} stopped: {}", self.run_id, self.stop)?;
        match &self.stored {
            Ok(n) => write!(f, "{n} of {} samples are stored", self.total)?,
            Err(e) => write!(f, "the stored samples could not be counted ({e})")?,
        }
        if self.unstored > 0 {
            write!(
                f,
                "; {} answered after the failure could not be stored",
                self.unstored
            )?;
        }
        match &self.marked {
            Ok(()) => writeln!(f, "; the run is marked interrupted")?,
            Err(e) => writeln!(f, "; the run could not be marked interrupted ({e})")?,
        }
        let fix = match &self.stop {
            Stop::Store(_) => "free space or fix the database's file system",
            Stop::Provider { .. } => "fix the provider's key or configuration",
            Stop::Unreachable { .. } => "start the endpoint or fix its URL",
        };
        write!(
            f,
            "{fix}, then `verity run --resume {}` sends only the samples not stored",
            self.run_id
        )
    }
}
