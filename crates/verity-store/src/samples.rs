//! Reading a run's samples, scorings and group scores back, and adding a new scoring.

use std::collections::{BTreeSet, HashSet};

use rusqlite::{OptionalExtension, params};
use verity_model::{
    GroupRecord, Outcome, Response, RunMeta, SampleKey, SampleRecord, Score, ScoreStatus,
};

use crate::{Result, Store, StoreError, json, parse};

/// Outcome counts of one variant of a run (samples without a verdict count as errors).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantCounts {
    pub variant: String,
    pub samples: u64,
    pub pass: u64,
    pub fail: u64,
    pub error: u64,
}

impl Store {
    /// The run's samples with the scores of `scoring` (the current one when `None`), in
    /// task, variant, epoch order.
    pub fn load_samples(&self, id: &str, scoring: Option<u32>) -> Result<Vec<SampleRecord>> {
        let scoring = match scoring {
            Some(s) => s,
            None => self.load_run(id)?.scoring,
        };
        let mut stmt = self.conn.prepare(
            "SELECT s.task_id, s.variant, s.epoch, s.response_json, s.completed_at, c.outcome, c.scores_json
             FROM samples s LEFT JOIN scores c
               ON c.run_id = s.run_id AND c.task_id = s.task_id AND c.variant = s.variant
              AND c.epoch = s.epoch AND c.scoring = ?2
             WHERE s.run_id = ?1
             ORDER BY s.task_id, s.variant, s.epoch",
        )?;
        let rows = stmt.query_map(params![id, scoring], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, u32>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, String>(4)?,
                r.get::<_, Option<String>>(5)?,
                r.get::<_, Option<String>>(6)?,
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (task_id, variant, epoch, resp, completed_at, outcome, scores) = row?;
            let response: Response = parse("sample response", &resp)?;
            let scores: Vec<Score> = match &scores {
                Some(s) => parse("sample scores", s)?,
                None => Vec::new(),
            };
            out.push(SampleRecord {
                key: SampleKey {
                    task_id,
                    variant,
                    epoch,
                },
                response,
                scores,
                outcome: outcome.as_deref().map_or(Outcome::Error, parse_outcome),
                completed_at,
            });
        }
        Ok(out)
    }

    /// The run's group scores under `scoring` (the current one when `None`).
    pub fn load_groups(&self, id: &str, scoring: Option<u32>) -> Result<Vec<GroupRecord>> {
        let scoring = match scoring {
            Some(s) => s,
            None => self.load_run(id)?.scoring,
        };
        let mut stmt = self.conn.prepare(
            "SELECT variant, scope, grp, task_ids_json, scores_json FROM group_scores
             WHERE run_id = ?1 AND scoring = ?2 ORDER BY variant, scope, grp",
        )?;
        let rows = stmt.query_map(params![id, scoring], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, String>(4)?,
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (variant, scope, group, task_ids, scores) = row?;
            out.push(GroupRecord {
                variant,
                scope,
                group,
                task_ids: parse("group task ids", &task_ids)?,
                scores: parse("group scores", &scores)?,
            });
        }
        Ok(out)
    }

    /// Per variant: stored samples, passes and errors under `scoring` — what a summary or a
    /// pass-rate gate needs, without loading any sample.
    pub fn outcome_counts(&self, id: &str, scoring: u32) -> Result<Vec<VariantCounts>> {
        let mut stmt = self.conn.prepare(
            "SELECT s.variant, COUNT(*),
                    SUM(CASE WHEN c.outcome = 'pass' THEN 1 ELSE 0 END),
                    SUM(CASE WHEN c.outcome = 'fail' THEN 1 ELSE 0 END)
             FROM samples s LEFT JOIN scores c
               ON c.run_id = s.run_id AND c.task_id = s.task_id AND c.variant = s.variant
              AND c.epoch = s.epoch AND c.scoring = ?2
             WHERE s.run_id = ?1 GROUP BY s.variant ORDER BY s.variant",
        )?;
        let rows = stmt.query_map(params![id, scoring], |r| {
            let n = r.get::<_, i64>(1)? as u64;
            let pass = r.get::<_, Option<i64>>(2)?.unwrap_or(0) as u64;
            let fail = r.get::<_, Option<i64>>(3)?.unwrap_or(0) as u64;
            Ok(VariantCounts {
                variant: r.get(0)?,
                samples: n,
                pass,
                fail,
                error: n - pass - fail,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The keys of every sample the run has stored (for resuming).
    pub fn completed_keys(&self, id: &str) -> Result<HashSet<SampleKey>> {
        let mut stmt = self
            .conn
            .prepare("SELECT task_id, variant, epoch FROM samples WHERE run_id = ?1")?;
        let rows = stmt.query_map([id], |r| {
            Ok(SampleKey {
                task_id: r.get(0)?,
                variant: r.get(1)?,
                epoch: r.get(2)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Stores a new scoring of a run's samples and makes it current, in one transaction.
    /// Returns the new scoring's number. The previous scorings stay in the database.
    pub fn add_scoring(
        &mut self,
        id: &str,
        samples: &[(SampleKey, Vec<Score>, Outcome)],
        groups: &[GroupRecord],
    ) -> Result<u32> {
        let tx = self.conn.transaction()?;
        let current: u32 = tx
            .query_row("SELECT scoring FROM runs WHERE id = ?1", [id], |r| r.get(0))
            .optional()?
            .ok_or_else(|| StoreError::NoSuchRun(id.to_owned()))?;
        let next = current + 1;
        {
            let mut score = tx.prepare(
                "INSERT INTO scores (run_id, scoring, task_id, variant, epoch, outcome, scores_json)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            )?;
            for (k, scores, outcome) in samples {
                score.execute(params![
                    id,
                    next,
                    k.task_id,
                    k.variant,
                    k.epoch,
                    outcome_str(*outcome),
                    json(scores)
                ])?;
            }
            let mut group = tx.prepare(
                "INSERT INTO group_scores (run_id, scoring, variant, scope, grp, task_ids_json, scores_json)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            )?;
            for g in groups {
                group.execute(params![
                    id,
                    next,
                    g.variant,
                    g.scope,
                    g.group,
                    json(&g.task_ids),
                    json(&g.scores)
                ])?;
            }
        }
        let meta_json: String =
            tx.query_row("SELECT meta_json FROM runs WHERE id = ?1", [id], |r| {
                r.get(0)
            })?;
        let mut meta: RunMeta = parse("run metadata", &meta_json)?;
        meta.scoring = next;
        tx.execute(
            "UPDATE runs SET scoring = ?2, meta_json = ?3 WHERE id = ?1",
            params![id, next, crate::runs::meta_json(&meta)],
        )?;
        tx.commit()?;
        Ok(next)
    }

    /// The ids of the tasks that failed in the run under its current scoring (what
    /// `verity run --failed-in RUN` runs again): a task with a sample whose outcome is `fail` or
    /// `error` (a sample without a verdict counts as an error), in any variant and epoch, and
    /// every task of a group score that failed or errored (all epochs of a task, or all the
    /// tasks sharing a metadata value: a group is judged again only with all its members).
    /// Tasks the run never reached are not failures. Sorted.
    pub fn failed_task_ids(&self, run_id: &str) -> Result<BTreeSet<String>> {
        let scoring = self.load_run_meta(run_id)?.scoring;
        let mut stmt = self.conn.prepare(
            "SELECT DISTINCT s.task_id FROM samples s LEFT JOIN scores c
               ON c.run_id = s.run_id AND c.task_id = s.task_id AND c.variant = s.variant
              AND c.epoch = s.epoch AND c.scoring = ?2
             WHERE s.run_id = ?1 AND (c.outcome IS NULL OR c.outcome != 'pass')",
        )?;
        let mut failed: BTreeSet<String> = stmt
            .query_map(params![run_id, scoring], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        for g in self.load_groups(run_id, Some(scoring))? {
            if g.scores
                .iter()
                .any(|s| matches!(s.status, ScoreStatus::Fail | ScoreStatus::Error))
            {
                failed.extend(g.task_ids);
            }
        }
        Ok(failed)
    }

    /// The keys of the run's stored samples whose response is an infrastructure error (the ones
    /// a retry runs again), in task, variant, epoch order.
    pub fn failed_keys(&self, run_id: &str) -> Result<Vec<SampleKey>> {
        let mut stmt = self.conn.prepare(
            "SELECT task_id, variant, epoch FROM samples
             WHERE run_id = ?1 AND error_kind IS NOT NULL
             ORDER BY task_id, variant, epoch",
        )?;
        let rows = stmt.query_map([run_id], |r| {
            Ok(SampleKey {
                task_id: r.get(0)?,
                variant: r.get(1)?,
                epoch: r.get(2)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}

pub(crate) fn outcome_str(o: Outcome) -> &'static str {
    o.as_str()
}

fn parse_outcome(s: &str) -> Outcome {
    match s {
        "pass" => Outcome::Pass,
        "fail" => Outcome::Fail,
        _ => Outcome::Error,
    }
}
