//! The run engine.
//!
//! [`prepare`] is the one way a new run begins: it loads a suite (streaming its tasks into the
//! store), applies the command line's [`Overrides`], checks the [`RunRequest`] against the
//! configured suite before any task is read, and commits the selected tasks with the run's row,
//! returning a [`Plan`]; [`plan_from_run`] is the plan of a stored run to resume or retry.
//!
//! [`execute`] takes a plan, the providers of its variants and its scorers, and
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

#![forbid(unsafe_code)]

mod budget;
mod cache;
mod engine;
mod error;
pub mod grounding;
mod limits;
mod plan;
mod prepare;
mod retry;
mod scoring;
mod stop;
mod writer;

pub use budget::{Budget, DEFAULT_PRICES, Estimate, OverBudget, Price, Prices};
pub use cache::{CacheMode, cache_key};
pub use engine::{Execution, RunEvent, RunSummary, Shutdown, estimate, execute, staged_run_meta};
pub use error::{GroundingError, PlanError, RunError, Stopped, WriterError};
pub use limits::{LimitSpec, ProviderLimits, RateLimiter};
pub use plan::{FailedIn, Plan, PlanOptions, TaskFilter, narrow, new_run_id, plan_from_run};
pub use prepare::{Overrides, PrepareError, Prepared, RunRequest, prepare, prepare_suite};
pub use retry::RetryPolicy;
pub use scoring::{RescoreSummary, Scorers, rescore, score_groups, score_sample};
pub use stop::{FailFast, Stop};
