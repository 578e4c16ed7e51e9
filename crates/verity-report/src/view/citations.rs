//! Seed 002's verification metrics of a run with `citations` scorers, per variant, with the
//! seed's targets:
//!
//! - **Citation Accuracy** (> 95 %): citations passing V1 over all citations. A citation is a
//!   cited file (with its line range, if any) or a backticked identifier; a file citation passes
//!   when the file exists and its range is valid. From the scores' counts: verified =
//!   `files_exist.tp − lines_valid.fp + identifiers_found.tp` (a range is only checked in a file
//!   that exists), all = `files_exist.(tp + fp) + identifiers_found.(tp + fp)`.
//! - **Structural Accuracy** (> 90 %): `structure_correct.tp / (tp + fp)`.
//! - **Consistency Rate** (> 85 %): paraphrase groups whose `consistent` verdict passed, over
//!   the groups judged (not-applicable ones left out; errors count under the error policy).
//! - **Hallucination Rate** (< 5 %): failed citations and claims over all of them.
//!
//! Which scores are which is read from the scorer's kind in the run's suite, so instance names
//! do not matter.

use std::collections::HashMap;

use verity_model::{ErrorPolicy, GroupRecord, Score, Suite};

use super::types::{CitationVariant, StatusCounts, TaskView};

/// The criteria the summary reads (the catalog's names).
const FILES: &str = "files_exist";
const LINES: &str = "lines_valid";
const IDENTS: &str = "identifiers_found";
const STRUCTURE: &str = "structure_correct";
const CONSISTENT: &str = "consistent";

fn metric(s: &Score, name: &str) -> u64 {
    s.metrics
        .get(name)
        .copied()
        .filter(|v| v.is_finite() && *v > 0.0)
        .map_or(0, |v| v.round() as u64)
}

/// The summary, one entry per variant; empty when the run has no citation scorer.
pub(super) fn summarize(
    suite: &Suite,
    variants: &[String],
    tasks: &[TaskView],
    groups: &[GroupRecord],
    policy: ErrorPolicy,
) -> Vec<CitationVariant> {
    let kind_of: HashMap<&str, &str> = suite
        .scorers
        .iter()
        .map(|s| (s.instance_name(), s.kind.as_str()))
        .collect();
    if !kind_of
        .values()
        .any(|k| *k == "citations" || *k == "citation-consistency")
    {
        return Vec::new();
    }
    let is = |scorer: &str, kind: &str| kind_of.get(scorer).copied() == Some(kind);
    variants
        .iter()
        .map(|variant| {
            let mut v = CitationVariant {
                variant: variant.clone(),
                ..CitationVariant::default()
            };
            for t in tasks {
                let Some(tv) = t.variants.iter().find(|x| &x.variant == variant) else {
                    continue;
                };
                for s in &tv.epochs {
                    let of: Vec<&Score> = s
                        .scores
                        .iter()
                        .filter(|sc| is(&sc.scorer, "citations"))
                        .collect();
                    if of.is_empty() {
                        continue;
                    }
                    v.samples += 1;
                    let get = |criterion: &str, m: &str| -> u64 {
                        of.iter()
                            .filter(|sc| sc.criterion == criterion)
                            .map(|sc| metric(sc, m))
                            .sum()
                    };
                    let (ftp, ffp) = (get(FILES, "tp"), get(FILES, "fp"));
                    let (itp, ifp) = (get(IDENTS, "tp"), get(IDENTS, "fp"));
                    v.citations += ftp + ffp + itp + ifp;
                    v.citations_verified += ftp.saturating_sub(get(LINES, "fp")) + itp;
                    let (stp, sfp) = (get(STRUCTURE, "tp"), get(STRUCTURE, "fp"));
                    v.claims += stp + sfp;
                    v.claims_verified += stp;
                }
            }
            let mut c = StatusCounts::default();
            for g in groups.iter().filter(|g| &g.variant == variant) {
                for sc in &g.scores {
                    if sc.criterion == CONSISTENT && is(&sc.scorer, "citation-consistency") {
                        c.add(sc.status);
                    }
                }
            }
            let r = c.rate(policy);
            v.groups = r.n;
            v.groups_consistent = r.successes;
            v.groups_not_applicable = c.not_applicable;
            v
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_and_targets() {
        let v = CitationVariant {
            variant: "a".into(),
            samples: 4,
            citations: 40,
            citations_verified: 39,
            claims: 10,
            claims_verified: 9,
            groups: 4,
            groups_consistent: 3,
            groups_not_applicable: 1,
        };
        assert_eq!(v.citation_accuracy(), Some(0.975));
        assert_eq!(v.structural_accuracy(), Some(0.9));
        assert_eq!(v.consistency_rate(), Some(0.75));
        assert_eq!(v.hallucination_rate(), Some(2.0 / 50.0));
        let met: Vec<Option<bool>> = CitationVariant::TARGETS
            .iter()
            .map(|t| t.met(t.value(&v)))
            .collect();
        // 0.9 is not "> 90 %".
        assert_eq!(met, [Some(true), Some(false), Some(false), Some(true)]);
        assert_eq!(CitationVariant::default().citation_accuracy(), None);
    }
}
