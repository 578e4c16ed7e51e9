use serde::{Deserialize, Serialize};

use crate::{Score, ScoreStatus};

/// A sample's overall verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Pass,
    Fail,
    /// No answer to judge (the provider failed after its retries) or a scorer errored.
    Error,
}

impl Outcome {
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Pass => "pass",
            Outcome::Fail => "fail",
            Outcome::Error => "error",
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OutcomeMode {
    /// Every named criterion must pass (the default, seed 000 §6.3.5).
    #[default]
    All,
    /// At least one named criterion must pass.
    Any,
}

/// How infrastructure errors count in pass rates and comparisons.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorPolicy {
    /// An errored sample counts as a failure (conservative; seed 000 §10).
    #[default]
    Fail,
    /// Errored samples are left out of pass rates (and reported apart).
    Exclude,
}

/// Turns a sample's scores into an [`Outcome`].
///
/// `criteria = None` means every criterion any scorer reported. `not_applicable` never decides
/// an outcome: it is neither a pass nor a fail.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct OutcomeRule {
    #[serde(default)]
    pub mode: OutcomeMode,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub criteria: Option<Vec<String>>,
    #[serde(default)]
    pub errors: ErrorPolicy,
}

impl OutcomeRule {
    /// Whether `criterion` takes part in the outcome.
    pub fn counts(&self, criterion: &str) -> bool {
        self.criteria
            .as_ref()
            .is_none_or(|c| c.iter().any(|x| x == criterion))
    }

    /// The outcome of one sample. `response_failed` is true when the provider gave no answer.
    pub fn evaluate(&self, scores: &[Score], response_failed: bool) -> Outcome {
        if response_failed {
            return Outcome::Error;
        }
        let relevant: Vec<&Score> = scores
            .iter()
            .filter(|s| self.counts(&s.criterion))
            .collect();
        if relevant.iter().any(|s| s.status == ScoreStatus::Error) {
            return Outcome::Error;
        }
        let decisive: Vec<&&Score> = relevant
            .iter()
            .filter(|s| s.status != ScoreStatus::NotApplicable)
            .collect();
        if decisive.is_empty() {
            // Nothing applied: with named criteria that is a failure to meet them; with none
            // named there is nothing to fail.
            return if self.criteria.is_some() {
                Outcome::Fail
            } else {
                Outcome::Pass
            };
        }
        let pass = match self.mode {
            OutcomeMode::All => decisive.iter().all(|s| s.status == ScoreStatus::Pass),
            OutcomeMode::Any => decisive.iter().any(|s| s.status == ScoreStatus::Pass),
        };
        if pass { Outcome::Pass } else { Outcome::Fail }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(c: &str, st: ScoreStatus) -> Score {
        Score::new("x", c, st)
    }

    #[test]
    fn all_mode_needs_every_criterion() {
        let r = OutcomeRule::default();
        assert_eq!(
            r.evaluate(
                &[s("a", ScoreStatus::Pass), s("b", ScoreStatus::Pass)],
                false
            ),
            Outcome::Pass
        );
        assert_eq!(
            r.evaluate(
                &[s("a", ScoreStatus::Pass), s("b", ScoreStatus::Fail)],
                false
            ),
            Outcome::Fail
        );
        assert_eq!(
            r.evaluate(&[s("a", ScoreStatus::Pass)], true),
            Outcome::Error
        );
    }

    #[test]
    fn not_applicable_is_neutral_and_named_criteria_filter() {
        let r = OutcomeRule {
            criteria: Some(vec!["a".into()]),
            ..Default::default()
        };
        assert_eq!(
            r.evaluate(
                &[s("a", ScoreStatus::Pass), s("b", ScoreStatus::Fail)],
                false
            ),
            Outcome::Pass
        );
        assert_eq!(
            r.evaluate(&[s("a", ScoreStatus::NotApplicable)], false),
            Outcome::Fail
        );
        let any = OutcomeRule {
            mode: OutcomeMode::Any,
            ..Default::default()
        };
        assert_eq!(
            any.evaluate(
                &[s("a", ScoreStatus::Fail), s("b", ScoreStatus::Pass)],
                false
            ),
            Outcome::Pass
        );
        assert_eq!(
            any.evaluate(&[s("a", ScoreStatus::Error)], false),
            Outcome::Error
        );
    }
}
