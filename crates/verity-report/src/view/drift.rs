//! Seed 004's summary of a run with several epochs: per task and variant, did it pass, how many
//! epochs were valid, how similar they were, how many errored; and the same per variant (the
//! seed's `--json`: `{passed, validity, similarity, errors}` per fixture and overall).
//!
//! Validity is the share of a task's epochs that answered (no infrastructure error) and failed
//! none of their own per-sample criteria (a schema, an integrity rule); similarity is the
//! value of the task's `similarity` verdict (the minimum over resources and pairs of epochs),
//! identity that of its `identical` verdict. Which verdict is which is read from the scorer's
//! kind in the run's suite, so instance names do not matter.

use std::collections::HashMap;

use verity_model::{GroupRecord, ScoreStatus, Suite};

use super::types::{DriftTask, DriftVariant, TaskOutcome, TaskView};

/// The summary, one entry per variant; empty when the run has no epoch-scope verdicts.
pub(super) fn summarize(
    suite: &Suite,
    variants: &[String],
    tasks: &[TaskView],
    groups: &[GroupRecord],
) -> Vec<DriftVariant> {
    if !groups.iter().any(|g| g.scope == "epochs") {
        return Vec::new();
    }
    let kind_of: HashMap<&str, &str> = suite
        .scorers
        .iter()
        .map(|s| (s.instance_name(), s.kind.as_str()))
        .collect();
    // (variant, task) -> its epoch verdicts.
    let mut verdicts: HashMap<(&str, &str), &GroupRecord> = HashMap::new();
    for g in groups.iter().filter(|g| g.scope == "epochs") {
        verdicts.insert((g.variant.as_str(), g.group.as_str()), g);
    }
    variants
        .iter()
        .filter_map(|variant| {
            let rows: Vec<DriftTask> = tasks
                .iter()
                .filter_map(|t| {
                    let tv = t.variants.iter().find(|v| &v.variant == variant)?;
                    if tv.epochs.is_empty() {
                        return None;
                    }
                    let errors = tv.epochs.iter().filter(|s| s.response.is_error()).count();
                    let valid = tv
                        .epochs
                        .iter()
                        .filter(|s| {
                            !s.response.is_error()
                                && !s.scores.iter().any(|sc| {
                                    matches!(sc.status, ScoreStatus::Fail | ScoreStatus::Error)
                                })
                        })
                        .count();
                    let mut row = DriftTask {
                        task: t.id.clone(),
                        passed: tv.outcome == TaskOutcome::Pass,
                        epochs: tv.epochs.len() as u64,
                        valid: valid as u64,
                        errors: errors as u64,
                        similarity: None,
                        similarity_note: None,
                        identical: None,
                        byte_identical: None,
                    };
                    if let Some(g) = verdicts.get(&(variant.as_str(), t.id.as_str())) {
                        for sc in &g.scores {
                            // A scorer the stored suite no longer names: by its criterion.
                            let kind = kind_of
                                .get(sc.scorer.as_str())
                                .copied()
                                .unwrap_or(sc.criterion.as_str());
                            match kind {
                                // The weakest of several similarity verdicts.
                                "similarity"
                                    if row
                                        .similarity
                                        .is_none_or(|v| sc.value.unwrap_or(0.0) < v) =>
                                {
                                    row.similarity = Some(sc.value.unwrap_or(0.0));
                                    row.similarity_note = sc.explanation.clone();
                                }
                                "identical" => {
                                    row.identical = sc.value;
                                    row.byte_identical = sc.metrics.get("byte_identical").copied();
                                }
                                _ => {}
                            }
                        }
                    }
                    Some(row)
                })
                .collect();
            if rows.is_empty() {
                return None;
            }
            let epochs: u64 = rows.iter().map(|r| r.epochs).sum();
            let valid: u64 = rows.iter().map(|r| r.valid).sum();
            Some(DriftVariant {
                variant: variant.clone(),
                passed: rows.iter().all(|r| r.passed),
                tasks_passed: rows.iter().filter(|r| r.passed).count() as u64,
                validity: valid as f64 / epochs.max(1) as f64,
                similarity: rows
                    .iter()
                    .filter_map(|r| r.similarity)
                    .min_by(f64::total_cmp),
                errors: rows.iter().map(|r| r.errors).sum(),
                tasks: rows,
            })
        })
        .collect()
}
