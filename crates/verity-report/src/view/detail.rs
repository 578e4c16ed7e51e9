//! Per-task and per-sample detail: each task's outcome under each variant, the failing samples,
//! why a sample did not pass, and a score's explanation and evidence as one line of text.

use std::collections::HashMap;

use verity_model::{ErrorPolicy, Evidence, Outcome, SampleRecord, Score, ScoreStatus};

use super::build::Builder;
use super::types::{FailedCriterion, FailedSample, TaskOutcome, TaskVariant, TaskView};

impl<'a> Builder<'a> {
    pub(super) fn tasks(&self) -> Vec<TaskView> {
        let policy = self.policy();
        // Samples are in canonical order, so each bucket is in epoch order.
        let mut by_pair: HashMap<(&str, &str), Vec<&SampleRecord>> = HashMap::new();
        for s in &self.samples {
            by_pair
                .entry((s.key.task_id.as_str(), s.key.variant.as_str()))
                .or_default()
                .push(s);
        }
        self.task_ids
            .iter()
            .map(|id| {
                let task = self.suite_tasks.get(id.as_str()).copied();
                let variants = self
                    .variant_names
                    .iter()
                    .filter_map(|v| {
                        let epochs: Vec<SampleRecord> = by_pair
                            .get(&(id.as_str(), v.as_str()))?
                            .iter()
                            .map(|s| (*s).clone())
                            .collect();
                        let outcome = task_outcome(&epochs, policy);
                        Some(TaskVariant {
                            variant: v.clone(),
                            outcome,
                            epochs,
                        })
                    })
                    .collect();
                TaskView {
                    id: id.clone(),
                    prompt: task
                        .map(|t| t.input.prompt_text().to_owned())
                        .unwrap_or_default(),
                    category: task.and_then(|t| t.category.clone()),
                    metadata: task.map(|t| t.metadata.clone()).unwrap_or_default(),
                    in_suite: task.is_some(),
                    // A task built in code has no file: no location then.
                    source: task
                        .map(|t| t.source.clone())
                        .filter(|s| !s.file.is_empty()),
                    variants,
                }
            })
            .collect()
    }

    pub(super) fn failures(&self) -> Vec<FailedSample> {
        self.samples
            .iter()
            .filter(|s| s.outcome != Outcome::Pass)
            .map(|s| FailedSample {
                key: s.key.clone(),
                outcome: s.outcome,
                error: s.response.error.clone(),
                criteria: self
                    .failing_scores(s)
                    .into_iter()
                    .map(|sc| FailedCriterion {
                        key: self.key(&sc.scorer, &sc.criterion),
                        score: sc.clone(),
                    })
                    .collect(),
            })
            .collect()
    }

    pub(super) fn failing_keys(&self, s: &SampleRecord) -> Vec<String> {
        self.failing_scores(s)
            .into_iter()
            .map(|sc| self.key(&sc.scorer, &sc.criterion))
            .collect()
    }

    /// The sample's failing or errored scores, then those of the groups its task is in (a
    /// drift across epochs fails every epoch of the task).
    fn failing_scores<'s>(&'s self, s: &'s SampleRecord) -> Vec<&'s Score> {
        let own = s
            .scores
            .iter()
            .filter(|sc| matches!(sc.status, ScoreStatus::Fail | ScoreStatus::Error));
        let groups = self
            .group_fails
            .get(&(s.key.variant.as_str(), s.key.task_id.as_str()))
            .into_iter()
            .flatten()
            .copied();
        own.chain(groups).collect()
    }

    /// One line saying why a sample did not pass.
    pub(super) fn sample_reason(&self, s: &SampleRecord) -> String {
        if let Some(e) = &s.response.error {
            return format!("error {}: {}", e.kind, one_line(&e.message));
        }
        let failing = self.failing_scores(s);
        if failing.is_empty() {
            return match s.outcome {
                Outcome::Pass => "passed".into(),
                _ => "no outcome criterion applied".into(),
            };
        }
        let names: Vec<String> = failing
            .iter()
            .map(|sc| {
                let k = self.key(&sc.scorer, &sc.criterion);
                if sc.status == ScoreStatus::Error {
                    format!("{k} (scorer error)")
                } else {
                    k
                }
            })
            .collect();
        match failing.iter().find_map(|sc| score_detail(sc)) {
            Some(d) => format!("{}: {d}", names.join(", ")),
            None => names.join(", "),
        }
    }
}

/// Whether a sample makes its task fail under `policy`.
pub(super) fn counts_as_failure(s: &SampleRecord, policy: ErrorPolicy) -> bool {
    match s.outcome {
        Outcome::Pass => false,
        Outcome::Fail => true,
        Outcome::Error => policy == ErrorPolicy::Fail,
    }
}

/// A task's outcome under one variant; see [`TaskOutcome`].
fn task_outcome(epochs: &[SampleRecord], policy: ErrorPolicy) -> TaskOutcome {
    let counted: Vec<&SampleRecord> = epochs
        .iter()
        .filter(|s| !(policy == ErrorPolicy::Exclude && s.outcome == Outcome::Error))
        .collect();
    if counted.is_empty() {
        TaskOutcome::Excluded
    } else if counted.iter().all(|s| s.outcome == Outcome::Pass) {
        TaskOutcome::Pass
    } else {
        TaskOutcome::Fail
    }
}

/// Formats where an evidence item points: `file:line:col`, `line:col` or `line`.
pub fn evidence_location(e: &Evidence) -> Option<String> {
    let pos = match (e.line, e.column) {
        (Some(l), Some(c)) => Some(format!("{l}:{c}")),
        (Some(l), None) => Some(l.to_string()),
        _ => None,
    };
    match (&e.file, pos) {
        (Some(f), Some(p)) => Some(format!("{f}:{p}")),
        (Some(f), None) => Some(f.clone()),
        (None, p) => p,
    }
}

/// A score's explanation, else its first evidence message, with the first evidence location.
pub fn score_detail(s: &Score) -> Option<String> {
    let first = s.evidence.first();
    let text = s
        .explanation
        .clone()
        .filter(|e| !e.trim().is_empty())
        .or_else(|| {
            first
                .map(|e| e.message.clone())
                .filter(|m| !m.trim().is_empty())
        });
    let loc = first.and_then(evidence_location);
    match (text, loc) {
        (Some(t), Some(l)) => Some(format!("{} (at {l})", one_line(&t))),
        (Some(t), None) => Some(one_line(&t)),
        (None, Some(l)) => Some(format!("at {l}")),
        (None, None) => None,
    }
}

/// A score's explanation and its first evidence (message and location), on one line:
/// `explanation — evidence (at 3:9)`. Empty when the score has neither.
pub fn full_detail(s: &Score) -> String {
    let mut parts = Vec::new();
    if let Some(e) = s
        .explanation
        .as_deref()
        .map(one_line)
        .filter(|e| !e.is_empty())
    {
        parts.push(e);
    }
    if let Some(ev) = s.evidence.first() {
        let msg = one_line(&ev.message);
        match (msg.is_empty(), evidence_location(ev)) {
            (false, Some(l)) => parts.push(format!("{msg} (at {l})")),
            (false, None) => parts.push(msg),
            (true, Some(l)) => parts.push(format!("at {l}")),
            (true, None) => {}
        }
    }
    parts.join(" — ")
}

/// Collapses every run of whitespace (newlines included) into one space.
pub fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn details_and_locations() {
        let e = Evidence::msg("`Foo` is not in the SDK").at(3, 9);
        assert_eq!(evidence_location(&e).as_deref(), Some("3:9"));
        let mut f = Evidence::msg("x");
        f.file = Some("a.swift".into());
        f.line = Some(4);
        assert_eq!(evidence_location(&f).as_deref(), Some("a.swift:4"));
        assert_eq!(evidence_location(&Evidence::msg("x")), None);
        let s = Score::fail("swift", "symbols_exist").with_evidence(e);
        assert_eq!(
            score_detail(&s).as_deref(),
            Some("`Foo` is not in the SDK (at 3:9)")
        );
        let s = Score::fail("swift", "parse").explain("line one\n  line two");
        assert_eq!(score_detail(&s).as_deref(), Some("line one line two"));
        assert_eq!(score_detail(&Score::fail("a", "b")), None);
        let s = Score::fail("swift", "symbols_exist")
            .explain("1 unknown symbol")
            .with_evidence(Evidence::msg("`Foo`").at(2, 5));
        assert_eq!(full_detail(&s), "1 unknown symbol — `Foo` (at 2:5)");
        assert_eq!(full_detail(&Score::fail("a", "b")), "");
    }
}
