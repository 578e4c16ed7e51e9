use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// The verdict of one criterion on one sample (or one group of samples).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ScoreStatus {
    Pass,
    Fail,
    /// The criterion does not apply (no code to check, no target to compare with…).
    NotApplicable,
    /// The scorer itself could not decide (a broken schema file, a missing index…).
    Error,
}

impl ScoreStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            ScoreStatus::Pass => "pass",
            ScoreStatus::Fail => "fail",
            ScoreStatus::NotApplicable => "not_applicable",
            ScoreStatus::Error => "error",
        }
    }

    pub fn parse(s: &str) -> Option<ScoreStatus> {
        match s {
            "pass" => Some(ScoreStatus::Pass),
            "fail" => Some(ScoreStatus::Fail),
            "not_applicable" => Some(ScoreStatus::NotApplicable),
            "error" => Some(ScoreStatus::Error),
            _ => None,
        }
    }
}

/// Why a criterion passed or failed, pointing into the answer (or a cited file) where it can.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Evidence {
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub column: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub snippet: Option<String>,
}

impl Evidence {
    pub fn msg(message: impl Into<String>) -> Self {
        Evidence {
            message: message.into(),
            ..Evidence::default()
        }
    }

    pub fn at(mut self, line: u32, column: u32) -> Self {
        self.line = Some(line);
        self.column = Some(column);
        self
    }
}

/// One criterion's verdict.
///
/// `value` carries a number where the criterion has one (a similarity, an F1); `metrics` carries
/// counts that reports aggregate across samples (`tp`, `fp`, `fn` for precision / recall).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Score {
    /// The scorer instance's name (its `name` in the suite, else its kind).
    pub scorer: String,
    pub criterion: String,
    pub status: ScoreStatus,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub explanation: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub evidence: Vec<Evidence>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub metrics: BTreeMap<String, f64>,
    /// The part of the answer the scorer judged, when it judged an extract of it (the `swift`
    /// scorer: the Swift code taken from the answer's fenced blocks, on its first criterion
    /// only, with the answer's line numbers).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extracted: Option<String>,
}

impl Score {
    pub fn new(
        scorer: impl Into<String>,
        criterion: impl Into<String>,
        status: ScoreStatus,
    ) -> Self {
        Score {
            scorer: scorer.into(),
            criterion: criterion.into(),
            status,
            value: None,
            explanation: None,
            evidence: Vec::new(),
            metrics: BTreeMap::new(),
            extracted: None,
        }
    }

    pub fn pass(scorer: impl Into<String>, criterion: impl Into<String>) -> Self {
        Score::new(scorer, criterion, ScoreStatus::Pass)
    }

    pub fn fail(scorer: impl Into<String>, criterion: impl Into<String>) -> Self {
        Score::new(scorer, criterion, ScoreStatus::Fail)
    }

    pub fn with_value(mut self, v: f64) -> Self {
        self.value = Some(v);
        self
    }

    pub fn explain(mut self, e: impl Into<String>) -> Self {
        self.explanation = Some(e.into());
        self
    }

    pub fn with_evidence(mut self, e: Evidence) -> Self {
        self.evidence.push(e);
        self
    }

    pub fn with_metric(mut self, name: impl Into<String>, v: f64) -> Self {
        self.metrics.insert(name.into(), v);
        self
    }
}
