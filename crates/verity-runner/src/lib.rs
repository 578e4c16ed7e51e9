//! The run engine.
//!
//! [`execute`] takes a planned run ([`Plan`]), the providers of its variants and its scorers, and
//! runs every sample under a global concurrency limit: render the prompt, call the provider
//! (retrying what its error classification allows, [`RetryPolicy`]), score the answer, and hand
//! the sample with its scores and observations to a single writer thread that commits them to the
//! store as they complete. It reports progress as a stream of [`RunEvent`]s and renders nothing:
//! reporters consume events, they never schedule.
//!
//! Memory stays flat in the number of samples: at most `concurrency` samples are in flight, and
//! finished ones live only in the store. Scorers that need several samples at once
//! ([`verity_model::Scope::Epochs`], [`verity_model::Scope::Group`]) run after the last sample,
//! reading the answers back from the store — the same path [`rescore`] takes, so a rescored run
//! and a fresh one are judged by the same code.

mod budget;
mod cache;
mod engine;
mod grounding;
mod limits;
mod plan;
mod retry;
mod scoring;
mod stop;
mod writer;

pub use budget::{Budget, DEFAULT_PRICES, Estimate, Price, Prices};
pub use cache::{CacheMode, cache_key};
pub use engine::{Execution, RunEvent, RunSummary, Shutdown, estimate, execute, staged_run_meta};
pub use limits::{LimitSpec, ProviderLimits, RateLimiter};
pub use plan::{
    Plan, PlanOptions, TaskFilter, new_run_id, no_task_error, plan, plan_from_run, plan_variants,
};
pub use retry::RetryPolicy;
pub use scoring::{RescoreSummary, Scorers, rescore, score_groups, score_sample};
pub use stop::{FailFast, Stop};

use verity_model::ProviderError;
use verity_store::StoreError;

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
    #[error("{0}")]
    Plan(String),
    #[error("the store writer stopped: {0}")]
    Writer(String),
    #[error("{0}")]
    Grounding(String),
    /// The run stopped early on its own account; what is stored stays stored.
    #[error("{0}")]
    Stopped(Box<Stopped>),
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
