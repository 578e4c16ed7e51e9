//! The domain model every other verity crate speaks.
//!
//! verity's vocabulary follows inspect_ai's split, adapted to mechanical oracles:
//!
//! * a [`Suite`] holds [`Task`]s (inputs plus free-form expectations) and [`Variant`]s (the arms
//!   being compared: provider + model + generation parameters + prompt template + grounding);
//! * a *sample* is one task under one variant at one epoch ([`SampleKey`]); the [`Provider`]
//!   turns it into a [`Response`], which is stored raw;
//! * [`Scorer`]s turn responses into [`Score`]s — one per criterion, with [`Evidence`]. Some
//!   scorers see one sample ([`Scope::Sample`]), some see every epoch of a task together
//!   ([`Scope::Epochs`]) or every task that shares a metadata value ([`Scope::Group`]);
//! * an [`OutcomeRule`] turns a sample's scores into an [`Outcome`].
//!
//! This crate deliberately knows nothing about files, HTTP, SQLite or tokio: it is plain data
//! plus two traits, so that suites can be built in memory, stored, reloaded and re-scored.
//!
//! A wrong answer from a model is a [`Score`] with [`ScoreStatus::Fail`], never an `Err`:
//! errors are reserved for the infrastructure (a provider that cannot be reached, a store that
//! cannot be written).

#![forbid(unsafe_code)]

mod artifact;
mod error;
mod gate;
mod outcome;
mod perturb;
mod provider;
mod redact;
mod response;
mod run;
mod score;
mod scorer;
mod settings;
mod suite;
mod task;
mod variant;

pub use artifact::{
    Artifact, MAX_ARTIFACT_VALUE_BYTES, canonical_hash, canonical_json, canonical_text,
    json_type_phrase,
};
pub use error::ErrorKind;
pub use gate::{GateSpec, METRIC_FORMS, Metric};
pub use outcome::{ErrorPolicy, Outcome, OutcomeMode, OutcomeRule};
pub use perturb::{PERTURBATION, PERTURBATION_OF, PerturbKind, PerturbOn, PerturbSpec};
pub use provider::{
    BoxFuture, GenerateRequest, Generation, Provider, ProviderError, ProviderErrorKind,
};
pub use redact::{REDACTED, is_secret_param, redact_url, redact_urls};
pub use response::{Response, ResponseError, SampleKey, ToolCall, Usage};
pub use run::{
    FIRST_SCORING, GroupRecord, Liveness, RunListing, RunMeta, RunOptions, RunStatus, SampleRecord,
    Shard, now_rfc3339,
};
pub use score::{Evidence, Score, ScoreStatus};
pub use scorer::{GroupMember, PreflightInfo, Scope, Scorer};
pub use settings::{CacheMode, RunSettings};
pub use suite::{
    CompareSpec, REPORT_PLACEHOLDERS, ReportSpec, ResultSpec, ScorerSpec, ServerSpec, Suite,
};
pub use task::{ChatMessage, Input, Role, SourceLoc, Task};
pub use variant::{
    DEFAULT_GROUNDING_PREAMBLE, GenParams, GroundingMode, GroundingSpec, PROVIDER_KINDS,
    PromptTemplate, ProviderSpec, Variant,
};

/// The version of verity's on-disk formats (JSON report schema, stored run config).
///
/// Bump it when a stored or emitted structure changes incompatibly.
pub const FORMAT_VERSION: u32 = 1;

/// A problem with a scorer's configuration or a task's expectations, found before any sample
/// runs. `key` is the dotted path of the offending key (`options.pattern`, `expect.regex`) so
/// the suite loader can point at its file, line and column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigIssue {
    pub key: Option<String>,
    pub message: String,
}

impl ConfigIssue {
    pub fn new(key: Option<&str>, message: impl Into<String>) -> Self {
        ConfigIssue {
            key: key.map(str::to_owned),
            message: message.into(),
        }
    }
}
