//! The response cache: generations stored under a key the runner computes from everything
//! that determines a model's answer, so a repeated request is answered without calling the
//! model. Entries are written by the single writer ([`crate::Write::CachePut`]) and read
//! through [`Store::cache_get`], one indexed lookup that WAL lets run beside the writer.

use rusqlite::{OptionalExtension, params};
use serde::Serialize;
use verity_model::Generation;

use crate::{DAY_MS, Result, Store, ms_sql, parse, time_ms};

/// The cache's namespace version; bump when the meaning of a stored
/// [`verity_model::Generation`] changes. Entries of
/// another namespace are never returned (and `cache_prune` can drop them).
pub const CACHE_NAMESPACE: &str = "gen-v1";

/// What the cache holds.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct CacheStats {
    /// The current namespace ([`CACHE_NAMESPACE`]); `entries`, `bytes`, `oldest`, `newest` and
    /// `by_model` count only its entries.
    pub namespace: String,
    pub entries: u64,
    /// The total size of the stored entries (their JSON).
    pub bytes: u64,
    /// How many entries other namespaces hold (unreachable; `cache_prune` can drop them).
    pub other_namespaces: u64,
    /// The earliest and latest `created_at` (RFC 3339), as stored.
    pub oldest: Option<String>,
    pub newest: Option<String>,
    /// `(provider, model, entries, bytes)`, sorted by provider then model.
    pub by_model: Vec<(String, String, u64, u64)>,
}

/// Which cache entries `cache_prune` deletes.
///
/// `all` deletes every entry of every namespace. Otherwise an entry is deleted when
/// `other_namespaces` is set and it belongs to another namespace, or when at least one of
/// `older_than_days` / `model` is given and it matches every one given (whatever its
/// namespace). With nothing selected nothing is deleted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CachePrune {
    /// Entries created more than this many days before `now`. An entry whose `created_at` is
    /// not a time counts as old.
    pub older_than_days: Option<u32>,
    /// Entries of this model, named as the model (`gpt-4o`) or as `provider/model`.
    pub model: Option<String>,
    pub other_namespaces: bool,
    pub all: bool,
    /// RFC 3339; only read with `older_than_days`.
    pub now: String,
}

impl Store {
    /// The cached generation under `key` in the current namespace. Read-only: one lookup on
    /// the primary key, safe beside the writer (WAL).
    pub fn cache_get(&self, key: &str) -> Result<Option<Generation>> {
        let mut stmt = self
            .conn
            .prepare_cached("SELECT entry_json FROM cache WHERE namespace = ?1 AND key = ?2")?;
        let entry: Option<String> = stmt
            .query_row(params![CACHE_NAMESPACE, key], |r| r.get(0))
            .optional()?;
        entry.map(|e| parse("cache entry", &e)).transpose()
    }

    /// Counts the cache's entries and bytes, from one consistent snapshot.
    pub fn cache_stats(&self) -> Result<CacheStats> {
        let tx = self.conn.unchecked_transaction()?;
        let (entries, bytes): (i64, i64) = tx.query_row(
            "SELECT COUNT(*), COALESCE(SUM(bytes), 0) FROM cache WHERE namespace = ?1",
            [CACHE_NAMESPACE],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?;
        let other: i64 = tx.query_row(
            "SELECT COUNT(*) FROM cache WHERE namespace <> ?1",
            [CACHE_NAMESPACE],
            |r| r.get(0),
        )?;
        let created = ms_sql("created_at");
        let edge = |order: &str| -> Result<Option<String>> {
            Ok(tx
                .query_row(
                    &format!(
                        "SELECT created_at FROM cache WHERE namespace = ?1
                         ORDER BY {created} {order}, created_at {order} LIMIT 1"
                    ),
                    [CACHE_NAMESPACE],
                    |r| r.get(0),
                )
                .optional()?)
        };
        // NULLs (not a time) sort first: they are the oldest, never the newest unless alone.
        let oldest = edge("ASC")?;
        let newest = edge("DESC")?;
        let by_model = {
            let mut stmt = tx.prepare(
                "SELECT provider, model, COUNT(*), COALESCE(SUM(bytes), 0) FROM cache
                 WHERE namespace = ?1 GROUP BY provider, model ORDER BY provider, model",
            )?;
            let rows = stmt.query_map([CACHE_NAMESPACE], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, i64>(2)? as u64,
                    r.get::<_, i64>(3)? as u64,
                ))
            })?;
            rows.collect::<Result<Vec<_>, _>>()?
        };
        tx.finish()?;
        Ok(CacheStats {
            namespace: CACHE_NAMESPACE.to_owned(),
            entries: entries as u64,
            bytes: bytes as u64,
            other_namespaces: other as u64,
            oldest,
            newest,
            by_model,
        })
    }

    /// Deletes the entries `p` selects (see [`CachePrune`]) in one transaction; returns how many.
    pub fn cache_prune(&mut self, p: &CachePrune) -> Result<u64> {
        let filtered = p.older_than_days.is_some() || p.model.is_some();
        if !p.all && !p.other_namespaces && !filtered {
            return Ok(0);
        }
        let cutoff = match p.older_than_days {
            Some(days) => Some(time_ms(&self.conn, "now", &p.now)? - i64::from(days) * DAY_MS),
            None => None,
        };
        let created = ms_sql("created_at");
        let tx = self.conn.transaction()?;
        let n = if p.all {
            tx.execute("DELETE FROM cache", [])?
        } else {
            tx.execute(
                &format!(
                    "DELETE FROM cache WHERE
                       (?1 AND namespace <> ?2)
                       OR (?3
                           AND (?4 IS NULL OR {created} IS NULL OR {created} < ?4)
                           AND (?5 IS NULL OR model = ?5 OR provider || '/' || model = ?5))"
                ),
                params![
                    p.other_namespaces,
                    CACHE_NAMESPACE,
                    filtered,
                    cutoff,
                    p.model
                ],
            )?
        };
        tx.commit()?;
        Ok(n as u64)
    }
}
