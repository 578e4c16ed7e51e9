//! The runner's writes: a batch of samples, scores, observations, group scores and cache
//! entries committed as one transaction.

use rusqlite::params;
use verity_model::{
    Generation, GroupRecord, Outcome, Response, SampleKey, SampleRecord, redact_urls,
};

use crate::samples::outcome_str;
use crate::{CACHE_NAMESPACE, Observation, Result, Store, json};

/// One write the runner hands the store; a batch of them commits as one transaction.
#[derive(Clone, Debug)]
pub enum Write {
    /// A finished sample with its scores under `scoring`. Writing a stored key again (a retry)
    /// replaces the sample and its scores: the rows of every scoring judged the old response,
    /// so they go with it (`ON DELETE CASCADE`); its observations stay, as history.
    Sample {
        run_id: String,
        scoring: u32,
        record: SampleRecord,
    },
    Observation(Observation),
    Group {
        run_id: String,
        scoring: u32,
        record: GroupRecord,
    },
    /// A stored sample's outcome under `scoring` changed (its group scores came in).
    Outcome {
        run_id: String,
        scoring: u32,
        key: SampleKey,
        outcome: Outcome,
    },
    /// A fresh generation for the response cache under [`CACHE_NAMESPACE`]; replaces an
    /// entry with the same key. `created_at` is RFC 3339.
    CachePut {
        key: String,
        provider: String,
        model: String,
        created_at: String,
        entry: Generation,
    },
}

impl Store {
    /// Commits `writes` as one transaction.
    pub fn write(&mut self, writes: &[Write]) -> Result<()> {
        let tx = self.conn.transaction()?;
        {
            let mut sample = tx.prepare_cached(
                "INSERT OR REPLACE INTO samples (run_id, task_id, variant, epoch, response_json, error_kind,
                     input_tokens, output_tokens, latency_ms, cache_hit, completed_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
            )?;
            let mut score = tx.prepare_cached(
                "INSERT OR REPLACE INTO scores (run_id, scoring, task_id, variant, epoch, outcome, scores_json)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            )?;
            let mut obs = tx.prepare_cached(
                "INSERT INTO observations (run_id, task_id, variant, epoch, attempt, started_at, provider, model,
                     endpoint, prompt_hash, input_hash, raw_response, output_text, input_tokens, output_tokens,
                     latency_ms, cache_hit, error_kind, error)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19)",
            )?;
            let mut group = tx.prepare_cached(
                "INSERT OR REPLACE INTO group_scores (run_id, scoring, variant, scope, grp, task_ids_json, scores_json)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            )?;
            let mut cache_put = tx.prepare_cached(
                "INSERT OR REPLACE INTO cache (namespace, key, provider, model, created_at, bytes, entry_json)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            )?;
            let mut set_outcome = tx.prepare_cached(
                "UPDATE scores SET outcome = ?6
                 WHERE run_id = ?1 AND scoring = ?2 AND task_id = ?3 AND variant = ?4 AND epoch = ?5",
            )?;
            for w in writes {
                match w {
                    Write::CachePut {
                        key,
                        provider,
                        model,
                        created_at,
                        entry,
                    } => {
                        let entry_json = json(entry);
                        cache_put.execute(params![
                            CACHE_NAMESPACE,
                            key,
                            provider,
                            model,
                            created_at,
                            entry_json.len() as i64,
                            entry_json,
                        ])?;
                    }
                    Write::Outcome {
                        run_id,
                        scoring,
                        key,
                        outcome,
                    } => {
                        set_outcome.execute(params![
                            run_id,
                            scoring,
                            key.task_id,
                            key.variant,
                            key.epoch,
                            outcome_str(*outcome)
                        ])?;
                    }
                    Write::Sample {
                        run_id,
                        scoring,
                        record,
                    } => {
                        let r = &record.response;
                        let k = &record.key;
                        sample.execute(params![
                            run_id,
                            k.task_id,
                            k.variant,
                            k.epoch,
                            response_json(r),
                            r.error.as_ref().map(|e| e.kind.as_str()),
                            r.usage.input_tokens as i64,
                            r.usage.output_tokens as i64,
                            r.latency_ms as i64,
                            r.cache_hit,
                            record.completed_at,
                        ])?;
                        score.execute(params![
                            run_id,
                            scoring,
                            k.task_id,
                            k.variant,
                            k.epoch,
                            outcome_str(record.outcome),
                            json(&record.scores),
                        ])?;
                    }
                    Write::Observation(o) => {
                        obs.execute(params![
                            o.run_id,
                            o.key.task_id,
                            o.key.variant,
                            o.key.epoch,
                            o.attempt,
                            o.started_at,
                            o.provider,
                            o.model,
                            redact_urls(&o.endpoint),
                            o.prompt_hash,
                            o.input_hash,
                            o.raw_response,
                            o.output_text,
                            o.input_tokens as i64,
                            o.output_tokens as i64,
                            o.latency_ms as i64,
                            o.cache_hit,
                            o.error_kind,
                            o.error.as_deref().map(redact_urls),
                        ])?;
                    }
                    Write::Group {
                        run_id,
                        scoring,
                        record,
                    } => {
                        group.execute(params![
                            run_id,
                            scoring,
                            record.variant,
                            record.scope,
                            record.group,
                            json(&record.task_ids),
                            json(&record.scores),
                        ])?;
                    }
                }
            }
        }
        tx.commit()?;
        Ok(())
    }
}

/// A sample's response as stored: an infrastructure error's message may name an endpoint, so
/// its URLs are stripped of credentials. The answer itself is stored as it came.
fn response_json(r: &Response) -> String {
    match &r.error {
        Some(e) if e.message.contains("://") => {
            let mut r = r.clone();
            if let Some(e) = &mut r.error {
                e.message = redact_urls(&e.message);
            }
            json(&r)
        }
        _ => json(r),
    }
}
