//! Observations (every provider call, retries included) read back, and their retention.

use rusqlite::params;
use verity_model::{Generation, Provider, ProviderError, SampleKey};

use crate::{DAY_MS, Result, Store, ms_sql, time_ms};

/// One provider call, successful or not: what was sent (by hash), what came back, how long it
/// took. Every attempt is an observation, retries included (seed 003 §1).
#[derive(Clone, Debug, PartialEq)]
pub struct Observation {
    pub run_id: String,
    pub key: SampleKey,
    /// 1-based.
    pub attempt: u32,
    pub started_at: String,
    pub provider: String,
    pub model: String,
    pub endpoint: String,
    pub prompt_hash: String,
    pub input_hash: String,
    pub raw_response: Option<String>,
    pub output_text: Option<String>,
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub latency_ms: u64,
    pub cache_hit: bool,
    pub error_kind: Option<String>,
    pub error: Option<String>,
}

impl Observation {
    /// Attempt `attempt` of sample `key` at `provider`, started at `started_at`: who was asked,
    /// with what (by hash). What came back is added by [`Observation::answered`],
    /// [`Observation::failed`] or [`Observation::cache_hit`].
    pub fn new(
        run_id: &str,
        key: &SampleKey,
        attempt: u32,
        started_at: String,
        provider: &dyn Provider,
        prompt_hash: &str,
        input_hash: &str,
    ) -> Observation {
        Observation {
            run_id: run_id.to_owned(),
            key: key.clone(),
            attempt,
            started_at,
            provider: provider.kind().to_owned(),
            model: provider.model().to_owned(),
            endpoint: provider.endpoint(),
            prompt_hash: prompt_hash.to_owned(),
            input_hash: input_hash.to_owned(),
            raw_response: None,
            output_text: None,
            input_tokens: 0,
            output_tokens: 0,
            latency_ms: 0,
            cache_hit: false,
            error_kind: None,
            error: None,
        }
    }

    /// The provider answered `g` after `latency_ms`.
    pub fn answered(self, g: &Generation, latency_ms: u64) -> Observation {
        Observation {
            raw_response: Some(g.raw.clone()),
            output_text: Some(g.text.clone()),
            input_tokens: g.usage.input_tokens,
            output_tokens: g.usage.output_tokens,
            latency_ms,
            ..self
        }
    }

    /// The call failed with `e` after `latency_ms`.
    pub fn failed(self, e: &ProviderError, latency_ms: u64) -> Observation {
        Observation {
            error_kind: Some(e.kind.as_str().to_owned()),
            error: Some(e.message.clone()),
            latency_ms,
            ..self
        }
    }

    /// The cache answered `g`: no call was made (no raw body, no latency).
    pub fn cache_hit(self, g: &Generation) -> Observation {
        Observation {
            output_text: Some(g.text.clone()),
            input_tokens: g.usage.input_tokens,
            output_tokens: g.usage.output_tokens,
            cache_hit: true,
            ..self
        }
    }
}

impl Store {
    /// Every observation of a run, in the order they were recorded.
    pub fn observations(&self, run_id: &str) -> Result<Vec<Observation>> {
        let mut stmt = self.conn.prepare(
            "SELECT task_id, variant, epoch, attempt, started_at, provider, model, endpoint, prompt_hash, input_hash,
                    raw_response, output_text, input_tokens, output_tokens, latency_ms, cache_hit, error_kind, error
             FROM observations WHERE run_id = ?1 ORDER BY id",
        )?;
        let rows = stmt.query_map([run_id], |r| {
            Ok(Observation {
                run_id: run_id.to_owned(),
                key: SampleKey {
                    task_id: r.get(0)?,
                    variant: r.get(1)?,
                    epoch: r.get(2)?,
                },
                attempt: r.get(3)?,
                started_at: r.get(4)?,
                provider: r.get(5)?,
                model: r.get(6)?,
                endpoint: r.get(7)?,
                prompt_hash: r.get(8)?,
                input_hash: r.get(9)?,
                raw_response: r.get(10)?,
                output_text: r.get(11)?,
                input_tokens: r.get::<_, i64>(12)? as u64,
                output_tokens: r.get::<_, i64>(13)? as u64,
                latency_ms: r.get::<_, i64>(14)? as u64,
                cache_hit: r.get(15)?,
                error_kind: r.get(16)?,
                error: r.get(17)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Applies the observation retention policy (seed 003 §1): an observation survives if it is
    /// among the newest `keep_last` (by `started_at`, then insertion order) or started at most
    /// `keep_days` days before `now` (RFC 3339); every other one is deleted, in one transaction.
    /// Times compare as instants, whatever their precision. An observation whose `started_at` is
    /// not a time counts as the oldest. Returns how many were deleted.
    pub fn prune_observations(&mut self, keep_last: u64, keep_days: u32, now: &str) -> Result<u64> {
        let cutoff = time_ms(&self.conn, "now", now)? - i64::from(keep_days) * DAY_MS;
        let keep_last = i64::try_from(keep_last).unwrap_or(i64::MAX);
        let started = ms_sql("started_at");
        let tx = self.conn.transaction()?;
        let n = tx.execute(
            &format!(
                "DELETE FROM observations
                 WHERE ({started} IS NULL OR {started} < ?1)
                   AND id NOT IN (SELECT id FROM observations ORDER BY {started} DESC, id DESC LIMIT ?2)"
            ),
            params![cutoff, keep_last],
        )?;
        tx.commit()?;
        Ok(n as u64)
    }
}
