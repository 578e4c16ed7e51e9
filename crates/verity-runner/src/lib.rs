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
mod writer;

pub use budget::{Budget, DEFAULT_PRICES, Estimate, Price, Prices};
pub use cache::{CacheMode, cache_key};
pub use engine::{Execution, RunEvent, RunSummary, Shutdown, estimate, execute};
pub use limits::{LimitSpec, ProviderLimits, RateLimiter};
pub use plan::{
    Plan, PlanOptions, TaskFilter, new_run_id, no_task_error, plan, plan_from_run, plan_variants,
};
pub use retry::RetryPolicy;
pub use scoring::{RescoreSummary, Scorers, rescore, score_groups, score_sample};

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
}
