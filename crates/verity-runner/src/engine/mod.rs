//! The scheduler: runs every sample of a plan under the concurrency limit and commits each as
//! it completes.
//!
//! - `execute.rs`: [`execute`] in its phases: start the run, set up the endpoints' limits,
//!   schedule and drain the samples, score the stored groups, finish (or stop) the run;
//! - `sample.rs`: one sample: render, ground, answer from the cache or the provider (retries,
//!   tool rounds), score, hand to the writer;
//! - `estimate.rs`: what a plan would cost, before it runs.

mod estimate;
mod execute;
mod sample;

pub use estimate::estimate;
pub use execute::{execute, staged_run_meta};

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{mpsc, watch};
use verity_model::{Outcome, Provider, RunStatus, SampleKey, Variant};
use verity_store::Store;
use verity_suite::render::Renderer;

use crate::Plan;
use crate::budget::{Budget, Prices};
use crate::cache::{CacheMode, framed_blake3};
use crate::grounding::Grounded;
use crate::limits::{LimitSpec, ProviderLimits};
use crate::retry::RetryPolicy;
use crate::scoring::Scorers;
use crate::stop::{FailFast, FirstStop, Stop};
use crate::writer::Writer;

/// What the runner tells whoever watches it (a progress bar, a log). Reporters consume these;
/// they never drive the run.
#[derive(Clone, Debug, PartialEq)]
pub enum RunEvent {
    /// What a scorer's pre-flight found (sent before [`RunEvent::Started`], only for scorers
    /// that reported something): its facts and warnings, also recorded in the run.
    Preflight {
        scorer: String,
        info: verity_model::PreflightInfo,
    },
    Started {
        run_id: String,
        total: u64,
        already_done: u64,
    },
    Retrying {
        key: SampleKey,
        attempt: u32,
        delay: Duration,
        error: String,
    },
    /// A sample is stored: sent once its transaction has committed, never before.
    SampleFinished {
        key: SampleKey,
        outcome: Outcome,
        latency_ms: u64,
        cache_hit: bool,
        error: Option<String>,
    },
    /// `--max-cost` / `--max-tokens` reached: no new samples are scheduled.
    BudgetReached {
        cost: f64,
        tokens: u64,
    },
    /// Scheduling stopped on request; in-flight samples are finishing.
    Draining,
    /// The run stops early on its own account (see [`Stop`]): no new samples, and the ones in
    /// flight are abandoned (a later `--resume` sends them again).
    Stopping(Stop),
    Finished(RunSummary),
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq)]
pub struct RunSummary {
    pub run_id: String,
    pub status: RunStatus,
    pub total: u64,
    /// Samples stored for the run (including ones from before a resume).
    pub completed: u64,
    pub passed: u64,
    pub failed: u64,
    pub errors: u64,
    pub elapsed: Duration,
}

/// Asks a run to stop: the first request drains (no new samples; in-flight ones finish and are
/// stored), the second aborts in-flight calls. The database stays consistent either way.
#[derive(Clone, Debug)]
pub struct Shutdown(watch::Sender<u8>);

impl Default for Shutdown {
    fn default() -> Self {
        Shutdown(watch::channel(0).0)
    }
}

impl Shutdown {
    pub fn new() -> Self {
        Self::default()
    }

    /// Escalates: none → drain → abort.
    pub fn request(&self) {
        self.0.send_modify(|l| *l = (*l + 1).min(2));
    }

    /// Asks for a drain without escalating an earlier request.
    pub fn drain(&self) {
        self.0.send_modify(|l| *l = (*l).max(1));
    }

    pub fn level(&self) -> u8 {
        *self.0.borrow()
    }

    fn subscribe(&self) -> watch::Receiver<u8> {
        self.0.subscribe()
    }
}

/// Everything [`execute`] needs.
pub struct Execution {
    pub plan: Plan,
    /// variant name → its provider.
    pub providers: HashMap<String, Arc<dyn Provider>>,
    pub retry: RetryPolicy,
    /// When a provider's errors stop the run instead of being stored sample by sample.
    pub fail_fast: FailFast,
    /// Upper bound on one provider call, on top of the provider's own timeout; `None` takes
    /// each provider's [`Provider::default_call_timeout`].
    pub call_timeout: Option<Duration>,
    /// Continue a run already in the store instead of creating one: its stored samples are
    /// not sent again.
    pub resume: bool,
    /// Run only these samples (e.g. `verity retry --failed`), even when already stored: the new
    /// result replaces the stored one.
    pub only: Option<HashSet<SampleKey>>,
    pub cache: CacheMode,
    /// Per-variant provider limits; variants reaching the same endpoint share them.
    pub limits: HashMap<String, LimitSpec>,
    pub budget: Arc<Budget>,
    pub prices: Prices,
    pub events: mpsc::UnboundedSender<RunEvent>,
    pub shutdown: Shutdown,
}

impl std::fmt::Debug for Execution {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Execution")
            .field("run_id", &self.plan.run_id)
            .finish_non_exhaustive()
    }
}

/// What every sample of a run shares.
struct Ctx {
    run_id: String,
    /// The scoring the run's verdicts are stored under: the first for a new run, the run's
    /// current one when a rescored run is resumed or retried.
    scoring: u32,
    variants: HashMap<String, Variant>,
    prompt_hashes: std::collections::BTreeMap<String, String>,
    providers: HashMap<String, Arc<dyn Provider>>,
    renderer: Renderer,
    scorers: Scorers,
    retry: RetryPolicy,
    fail_fast: FailFast,
    failure: Arc<FirstStop>,
    call_timeout: Option<Duration>,
    writer: Writer,
    events: mpsc::UnboundedSender<RunEvent>,
    abort: watch::Receiver<u8>,
    shutdown: Shutdown,
    cache: CacheMode,
    /// A read connection for cache lookups (the writer owns the write connection).
    cache_reader: Option<Mutex<Store>>,
    /// variant -> the limits of its provider endpoint.
    limits: HashMap<String, Arc<ProviderLimits>>,
    budget: Arc<Budget>,
    prices: Prices,
    grounding: HashMap<String, Grounded>,
    budget_hit: std::sync::atomic::AtomicBool,
}

/// The hash that identifies a variant's prompt templates (`-` without any).
pub(crate) fn prompt_hash(v: &Variant) -> String {
    match (&v.system, &v.prompt) {
        (None, None) => "-".into(),
        (s, p) => framed_blake3([
            s.as_ref().map_or(&b""[..], |t| t.hash.as_bytes()),
            p.as_ref().map_or(&b""[..], |t| t.hash.as_bytes()),
        ]),
    }
}
