use crate::{Response, Score, Task};

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

    /// Scores a group of samples together. Called only for [`Scope::Epochs`] and
    /// [`Scope::Group`] scorers; members whose response is an error are left out.
    fn score_group(&self, members: &[GroupMember<'_>]) -> Vec<Score> {
        let _ = members;
        Vec::new()
    }
}
