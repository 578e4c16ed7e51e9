use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::{Outcome, Response, SampleKey, Score, Suite};

/// Where a run stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RunStatus {
    /// Started and not (yet) finished; a run killed mid-way stays here until resumed.
    Running,
    Completed,
    /// Stopped on purpose (Ctrl-C, a budget) with work left.
    Interrupted,
    /// Aborted by an infrastructure failure (a grounding server that would not start…).
    Failed,
}

impl RunStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            RunStatus::Running => "running",
            RunStatus::Completed => "completed",
            RunStatus::Interrupted => "interrupted",
            RunStatus::Failed => "failed",
        }
    }

    pub fn parse(s: &str) -> Option<RunStatus> {
        match s {
            "running" => Some(RunStatus::Running),
            "completed" => Some(RunStatus::Completed),
            "interrupted" => Some(RunStatus::Interrupted),
            "failed" => Some(RunStatus::Failed),
            _ => None,
        }
    }
}

impl RunStatus {
    /// As a person is shown it: a run stored as `running` whose process is gone (killed,
    /// crashed, the machine rebooted) is `interrupted`; one whose process this machine cannot
    /// check (it ran elsewhere, or an older verity recorded none) is `running?`.
    pub fn shown(self, liveness: Liveness) -> &'static str {
        match (self, liveness) {
            (RunStatus::Running, Liveness::Gone) => RunStatus::Interrupted.as_str(),
            (RunStatus::Running, Liveness::Unknown) => "running?",
            (status, _) => status.as_str(),
        }
    }

    /// [`RunStatus::shown`] for JSON: `unknown` instead of `running?`.
    pub fn shown_json(self, liveness: Liveness) -> &'static str {
        match (self, liveness) {
            (RunStatus::Running, Liveness::Unknown) => "unknown",
            (status, liveness) => status.shown(liveness),
        }
    }

    /// Whether the run is shown as interrupted (stored so, or its process is gone): it can be
    /// continued with `verity run --resume`.
    pub fn is_interrupted(self, liveness: Liveness) -> bool {
        self.shown(liveness) == RunStatus::Interrupted.as_str()
    }
}

/// Whether the process that owns a run stored as `running` is still there (the store records
/// the owner when a run starts or is resumed, and checks it when it loads the run). Not
/// stored: worked out on every load.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Liveness {
    /// Not checked: the run is not stored as running, or was not loaded from a store.
    #[default]
    Unchecked,
    /// Its process runs on this machine.
    Alive,
    /// Its process is gone: the run was interrupted.
    Gone,
    /// This machine cannot tell (the run's process is on another machine, or none was
    /// recorded).
    Unknown,
}

/// The options a run was started with, beyond the suite itself.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RunOptions {
    pub epochs: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filter: Option<String>,
    /// Only the suite's quick subset ran (`--quick`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub quick: bool,
    /// Only tasks of these categories ran (`--category`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub categories: Vec<String>,
    pub concurrency: usize,
    /// The variants run (all of the suite's when none were named).
    pub variants: Vec<String>,
    /// When this run is one slice of a larger one (`--shard K/N`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    /// Only the tasks that failed in this stored run ran (`--failed-in RUN`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failed_in: Option<String>,
}

/// One deterministic slice of a run: task number `i` (in suite order) belongs to shard
/// `i % count`. Every variant and epoch of a task stays in the same shard, so paired
/// comparisons never straddle shards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// 0-based.
    pub index: u32,
    pub count: u32,
}

/// Everything known about a run except its samples: what was run, with what, when.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunMeta {
    pub id: String,
    /// Where the suite was read from (a directory or a dataset file).
    pub suite_path: String,
    /// The resolved suite, exactly as run (tasks limited / filtered, overrides applied).
    pub suite: Suite,
    pub options: RunOptions,
    /// RFC 3339, UTC.
    pub started_at: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finished_at: Option<String>,
    pub status: RunStatus,
    pub verity_version: String,
    /// variant -> `provider/model`.
    pub models: BTreeMap<String, String>,
    /// variant -> BLAKE3 of its prompt template(s) (`-` when it has none).
    pub prompt_hashes: BTreeMap<String, String>,
    /// How many samples the run schedules in all.
    pub total_samples: u64,
    /// The current scoring (1 after the run; each `verity rescore` adds one).
    pub scoring: u32,
    /// What each scorer's pre-flight found before the first sample (scorer name → facts such
    /// as the Swift toolchain and its version, and warnings); empty when no scorer reported.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub preflight: BTreeMap<String, crate::PreflightInfo>,
    /// Whether the process that runs it is still there (see [`RunStatus::shown`]); set by the
    /// store on load, never stored.
    #[serde(skip)]
    pub liveness: Liveness,
}

/// One finished sample as stored: the raw response plus the current scoring's verdicts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SampleRecord {
    pub key: SampleKey,
    pub response: Response,
    pub scores: Vec<Score>,
    pub outcome: Outcome,
    /// RFC 3339, UTC.
    pub completed_at: String,
}

/// Scores a group scorer gave a set of samples together (all epochs of a task, or the tasks
/// that share a metadata value).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GroupRecord {
    pub variant: String,
    /// `epochs` or `group:<metadata key>`.
    pub scope: String,
    /// The task id (for `epochs`) or the shared metadata value.
    pub group: String,
    pub task_ids: Vec<String>,
    pub scores: Vec<Score>,
}

/// The scoring a run's first verdicts are stored under; `verity rescore` adds the next ones
/// beside it.
pub const FIRST_SCORING: u32 = 1;

/// Now, as RFC 3339 UTC to the millisecond: every time verity stores (runs, samples,
/// observations, cache entries) comes from here, so stored times compare as strings.
pub fn now_rfc3339() -> String {
    let now = jiff::Timestamp::now();
    now.round(jiff::Unit::Millisecond)
        .unwrap_or(now)
        .to_string()
}

/// A run as a list of runs shows it (`verity runs`): what it ran and how far it got.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunListing {
    pub id: String,
    #[serde(rename = "suite")]
    pub suite_name: String,
    pub status: RunStatus,
    pub started_at: String,
    pub finished_at: Option<String>,
    /// Samples stored.
    pub completed: u64,
    /// Samples the run schedules in all.
    pub total: u64,
    /// Stored samples that pass, and that ended in an infrastructure error, under the run's
    /// current scoring.
    pub passed: u64,
    pub errors: u64,
    /// Whether the process that runs it is still there (see [`RunStatus::shown`]).
    #[serde(skip)]
    pub liveness: Liveness,
}
