use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::{Response, Score, Task};

/// What a scorer's pre-flight found ([`Scorer::preflight`]), recorded with the run
/// (`RunMeta::preflight`) and shown in its report.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PreflightInfo {
    /// Facts about the scorer's setup that a reader of the results needs (the `swift` scorer:
    /// `toolchain` = `tree-sitter` or `swift-frontend`, `toolchain_version`, `toolchain_path`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub facts: BTreeMap<String, String>,
    /// What the user should know before the first sample (a task whose language version is
    /// newer than the compiler's…); printed before the run and kept with it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    /// What the run's audit should say about the scorer's data (the `swift` scorer: where its
    /// deprecation map and the symbol graph disagree, and which one decides); kept with the
    /// run and shown in its Markdown report, not printed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

impl PreflightInfo {
    pub fn fact(mut self, key: &str, value: impl Into<String>) -> Self {
        self.facts.insert(key.to_owned(), value.into());
        self
    }

    pub fn is_empty(&self) -> bool {
        self.facts.is_empty() && self.warnings.is_empty() && self.notes.is_empty()
    }
}

/// Which samples a scorer sees at once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Scope {
    /// One sample at a time (code oracles, equals, claims P/R).
    Sample,
    /// Every epoch of one task under one variant (determinism).
    Epochs,
    /// Every sample of one variant whose task shares a value of this metadata key
    /// (consistency across paraphrases, seed 002 V4).
    Group(String),
}

/// One member of a group handed to a [`Scope::Epochs`] or [`Scope::Group`] scorer.
#[derive(Clone, Copy, Debug)]
pub struct GroupMember<'a> {
    pub task: &'a Task,
    pub epoch: u32,
    pub response: &'a Response,
}

/// Turns answers into scores, mechanically. Scorers never call a model and never fail: a
/// broken answer is a failing score with evidence; a scorer that cannot judge says
/// [`crate::ScoreStatus::Error`] in a score.
pub trait Scorer: Send + Sync {
    /// The scorer's kind (`equals`, `regex`, `swift`, …).
    fn kind(&self) -> &str;

    /// The instance name scores carry (the suite's `name`, else the kind).
    fn name(&self) -> &str;

    fn scope(&self) -> Scope {
        Scope::Sample
    }

    /// Scores one sample. Called only for [`Scope::Sample`] scorers, and only for responses
    /// that are not errors.
    fn score(&self, task: &Task, response: &Response) -> Vec<Score> {
        let _ = (task, response);
        Vec::new()
    }

    /// Checks, once before a run's first model call, what the scorer needs from the machine
    /// (a compiler, a file…). An `Err` is a setup problem that would make every verdict an
    /// error: the run does not start. The default needs nothing.
    fn preflight(&self) -> Result<PreflightInfo, String> {
        Ok(PreflightInfo::default())
    }

    /// Checks one task of the run against what [`Scorer::preflight`] found (called after it,
    /// for every task, with its result): warnings and notes it adds are kept with the run; an
    /// `Err` stops the run before it starts, like a failed pre-flight.
    fn preflight_task(&self, task: &Task, info: &mut PreflightInfo) -> Result<(), String> {
        let _ = (task, info);
        Ok(())
    }

    /// Scores a group of samples together. Called only for [`Scope::Epochs`] and
    /// [`Scope::Group`] scorers; members whose response is an error are left out.
    fn score_group(&self, members: &[GroupMember<'_>]) -> Vec<Score> {
        let _ = members;
        Vec::new()
    }
}
