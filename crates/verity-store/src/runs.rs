//! Runs: recording one, its status and metadata (stripped of credentials on the way in),
//! listing and resolving them.

use rusqlite::{Connection, OptionalExtension, Row, params};
use verity_model::{Liveness, RunListing, RunMeta, RunStatus, redact_url, redact_urls};
use verity_process::{ProcessStamp, StampState};

use crate::tasks::insert_tasks_on;
use crate::{Result, Store, StoreError, json, ms_sql, parse};

impl Store {
    /// Records a new run (status `running`) with the tasks of `meta.suite`, in one
    /// transaction. A run whose tasks were staged while its suite loaded passes a suite without
    /// tasks: the staged rows are already its tasks.
    pub fn insert_run(&mut self, meta: &RunMeta) -> Result<()> {
        let tx = self.conn.transaction()?;
        insert_run_on(&tx, meta)?;
        insert_tasks_on(&tx, &meta.id, 0, &meta.suite.tasks)?;
        tx.commit()?;
        Ok(())
    }

    /// Sets a run's status (and finish time).
    pub fn set_run_status(
        &self,
        id: &str,
        status: RunStatus,
        finished_at: Option<&str>,
    ) -> Result<()> {
        let n = self.conn.execute(
            "UPDATE runs SET status = ?2, finished_at = ?3 WHERE id = ?1",
            params![id, status.as_str(), finished_at],
        )?;
        if n == 0 {
            return Err(StoreError::NoSuchRun(id.to_owned()));
        }
        Ok(())
    }

    /// Records this process as the owner of a run it starts or continues (see
    /// [`Liveness`]): while it runs, the run is `running`; once it is gone without finishing
    /// the run, the run is shown as interrupted.
    pub fn claim_run(&self, id: &str) -> Result<()> {
        let me = ProcessStamp::current();
        let n = self.conn.execute(
            "UPDATE runs SET owner_pid = ?2, owner_start = ?3, owner_boot = ?4, owner_host = ?5
             WHERE id = ?1",
            params![
                id,
                me.pid,
                me.start_ticks.map(|t| t as i64),
                me.boot_id,
                me.host
            ],
        )?;
        if n == 0 {
            return Err(StoreError::NoSuchRun(id.to_owned()));
        }
        Ok(())
    }

    /// Every run, newest first, with its progress and pass count under its current scoring,
    /// and whether the process of a run stored as running is still there.
    pub fn list_runs(&self) -> Result<Vec<RunListing>> {
        // By time, not by the text of the time: `…:01.5Z` must sort before `…:01.512Z`.
        let mut stmt = self.conn.prepare(&format!(
            "SELECT r.id, r.suite_name, r.status, r.started_at, r.finished_at, r.total_samples,
                    (SELECT COUNT(*) FROM samples s WHERE s.run_id = r.id),
                    (SELECT COUNT(*) FROM scores c WHERE c.run_id = r.id AND c.scoring = r.scoring AND c.outcome = 'pass'),
                    (SELECT COUNT(*) FROM scores c WHERE c.run_id = r.id AND c.scoring = r.scoring AND c.outcome = 'error'),
                    r.owner_pid, r.owner_start, r.owner_boot, r.owner_host
             FROM runs r ORDER BY {} DESC, r.id DESC",
            ms_sql("r.started_at")
        ))?;
        let rows = stmt.query_map([], |r| {
            let status = RunStatus::parse(&r.get::<_, String>(2)?).unwrap_or(RunStatus::Failed);
            Ok(RunListing {
                id: r.get(0)?,
                suite_name: r.get(1)?,
                status,
                started_at: r.get(3)?,
                finished_at: r.get(4)?,
                total: r.get::<_, i64>(5)? as u64,
                completed: r.get::<_, i64>(6)? as u64,
                passed: r.get::<_, i64>(7)? as u64,
                errors: r.get::<_, i64>(8)? as u64,
                liveness: liveness(status, owner(r, 9)?),
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Resolves `latest` (or `last`), `latest~N` (the N-th run before the newest, by start
    /// time), a full run id, or a unique prefix of one.
    pub fn resolve_run(&self, spec: &str) -> Result<String> {
        if let Some(back) = latest_offset(spec) {
            let back = back.ok_or_else(|| StoreError::BadRunSpec(spec.to_owned()))?;
            return self
                .conn
                .query_row(
                    &format!(
                        "SELECT id FROM runs ORDER BY {} DESC, id DESC LIMIT 1 OFFSET ?1",
                        ms_sql("started_at")
                    ),
                    [back],
                    |r| r.get(0),
                )
                .optional()?
                .ok_or_else(|| StoreError::NoSuchRun(spec.to_owned()));
        }
        let mut stmt = self.conn.prepare(
            "SELECT id FROM runs WHERE id = ?1 OR substr(id, 1, length(?1)) = ?1 ORDER BY id",
        )?;
        let ids: Vec<String> = stmt
            .query_map([spec], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        if ids.iter().any(|i| i == spec) {
            return Ok(spec.to_owned());
        }
        match ids.len() {
            0 => Err(StoreError::NoSuchRun(spec.to_owned())),
            1 => Ok(ids.into_iter().next().unwrap_or_default()),
            _ => Err(StoreError::AmbiguousRun {
                spec: spec.to_owned(),
                candidates: ids.join(", "),
            }),
        }
    }

    /// Up to `limit` runs of the suite with content hash `suite_hash` that started before
    /// `run_id` did, newest first (the store's history for run-to-run noise).
    pub fn earlier_runs(
        &self,
        suite_hash: &str,
        run_id: &str,
        limit: usize,
    ) -> Result<Vec<String>> {
        let mut stmt = self.conn.prepare(&format!(
            "SELECT r.id FROM runs r, runs me
             WHERE me.id = ?2 AND r.suite_hash = ?1 AND r.id != me.id
               AND ({r} < {me} OR ({r} = {me} AND r.id < me.id))
             ORDER BY {r} DESC, r.id DESC LIMIT ?3",
            r = ms_sql("r.started_at"),
            me = ms_sql("me.started_at"),
        ))?;
        let ids = stmt
            .query_map(params![suite_hash, run_id, limit as i64], |r| r.get(0))?
            .collect::<std::result::Result<_, _>>()?;
        Ok(ids)
    }

    /// A run's metadata, with its live status, finish time and scoring, and its suite with
    /// every task.
    pub fn load_run(&self, id: &str) -> Result<RunMeta> {
        let mut meta = self.load_run_meta(id)?;
        meta.suite.tasks = self.load_tasks(id)?;
        Ok(meta)
    }

    /// [`Store::load_run`] without the tasks (`suite.tasks` is empty): for a runner that pages
    /// them with [`Store::task_page`].
    pub fn load_run_meta(&self, id: &str) -> Result<RunMeta> {
        type Row = (String, String, Option<String>, u32, Option<ProcessStamp>);
        let row: Option<Row> = self
            .conn
            .query_row(
                "SELECT meta_json, status, finished_at, scoring,
                        owner_pid, owner_start, owner_boot, owner_host
                 FROM runs WHERE id = ?1",
                [id],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, owner(r, 4)?)),
            )
            .optional()?;
        let (meta_json, status, finished_at, scoring, owner) =
            row.ok_or_else(|| StoreError::NoSuchRun(id.to_owned()))?;
        let mut meta: RunMeta = parse("run metadata", &meta_json)?;
        meta.status = RunStatus::parse(&status).unwrap_or(RunStatus::Failed);
        meta.finished_at = finished_at;
        meta.scoring = scoring;
        meta.liveness = liveness(meta.status, owner);
        Ok(meta)
    }

    /// Replaces a run's stored metadata (status, finish time and scoring columns included).
    /// Its tasks are not touched: they live in their own table.
    pub fn update_run_meta(&self, meta: &RunMeta) -> Result<()> {
        self.conn.execute(
            "UPDATE runs SET status = ?2, finished_at = ?3, scoring = ?4, total_samples = ?5, meta_json = ?6 WHERE id = ?1",
            params![
                meta.id,
                meta.status.as_str(),
                meta.finished_at,
                meta.scoring,
                meta.total_samples as i64,
                meta_json(meta)
            ],
        )?;
        Ok(())
    }
}

/// The owner recorded in a run row's four owner columns, from column `at` on; `None` for a run
/// an older verity recorded.
fn owner(r: &Row<'_>, at: usize) -> rusqlite::Result<Option<ProcessStamp>> {
    let Some(pid) = r.get::<_, Option<i64>>(at)? else {
        return Ok(None);
    };
    let start: Option<i64> = r.get(at + 1)?;
    let boot_id: Option<String> = r.get(at + 2)?;
    let host: Option<String> = r.get(at + 3)?;
    Ok(u32::try_from(pid).ok().map(|pid| ProcessStamp {
        pid,
        start_ticks: start.and_then(|t| u64::try_from(t).ok()),
        boot_id,
        host,
    }))
}

/// Whether the owner of a run stored as running is still there; only such runs are checked.
fn liveness(status: RunStatus, owner: Option<ProcessStamp>) -> Liveness {
    if status != RunStatus::Running {
        return Liveness::Unchecked;
    }
    match owner.map(|o| o.state()) {
        Some(StampState::Alive) => Liveness::Alive,
        Some(StampState::Gone) => Liveness::Gone,
        Some(StampState::Unknown) | None => Liveness::Unknown,
    }
}

/// Inserts a run's row, owned by this process (see [`Store::claim_run`]).
pub(crate) fn insert_run_on(conn: &Connection, meta: &RunMeta) -> Result<()> {
    let me = ProcessStamp::current();
    conn.execute(
        "INSERT INTO runs (id, suite_name, suite_path, suite_hash, status, started_at, finished_at,
                           verity_version, scoring, total_samples, meta_json,
                           owner_pid, owner_start, owner_boot, owner_host)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",
        params![
            meta.id,
            meta.suite.name,
            meta.suite_path,
            meta.suite.content_hash,
            meta.status.as_str(),
            meta.started_at,
            meta.finished_at,
            meta.verity_version,
            meta.scoring,
            meta.total_samples as i64,
            meta_json(meta),
            me.pid,
            me.start_ticks.map(|t| t as i64),
            me.boot_id,
            me.host,
        ],
    )?;
    Ok(())
}

/// The run row's JSON: the metadata with the suite's tasks left out (they are rows of `tasks`).
/// Every URL a provider or server of the suite holds is stripped of credentials first
/// ([`redact_suite`]): this is the one way a run's metadata reaches the database.
pub(crate) fn meta_json(meta: &RunMeta) -> String {
    let mut v = match serde_json::to_value(meta) {
        Ok(v) => v,
        Err(_) => return json(meta),
    };
    if let Some(suite) = v.get_mut("suite").and_then(|s| s.as_object_mut()) {
        // Only in-memory callers (tests, merges) have tasks here; a run's own path has none.
        if !meta.suite.tasks.is_empty() {
            suite.insert("tasks".into(), serde_json::Value::Array(Vec::new()));
        }
    }
    if let Some(suite) = v.get_mut("suite") {
        redact_suite(suite);
    }
    v.to_string()
}

/// Strips credentials from the URLs of a serialized suite: each variant's `base_url`
/// ([`redact_url`]), every string in its provider `options` (a command line may hold a URL)
/// and in its grounding servers' commands and environment ([`redact_urls`]). Prompts, scorer
/// options and tasks are the suite's content and stay as written.
fn redact_suite(suite: &mut serde_json::Value) {
    use serde_json::Value;
    fn strings(v: &mut Value) {
        match v {
            Value::String(s) if s.contains("://") => *s = redact_urls(s),
            Value::Array(a) => a.iter_mut().for_each(strings),
            Value::Object(o) => o.values_mut().for_each(strings),
            _ => {}
        }
    }
    if let Some(variants) = suite.get_mut("variants").and_then(Value::as_array_mut) {
        for provider in variants.iter_mut().filter_map(|v| v.get_mut("provider")) {
            if let Some(Value::String(url)) = provider.get_mut("base_url") {
                *url = redact_url(url);
            }
            if let Some(options) = provider.get_mut("options") {
                strings(options);
            }
        }
    }
    if let Some(servers) = suite.get_mut("servers") {
        strings(servers);
    }
}

/// `Some(Some(n))` for `latest~n` (`latest` and `last` are `latest~0`), `Some(None)` for a
/// malformed `latest~…`, `None` for anything else.
fn latest_offset(spec: &str) -> Option<Option<i64>> {
    let rest = spec
        .strip_prefix("latest")
        .or_else(|| spec.strip_prefix("last"))?;
    if rest.is_empty() {
        return Some(Some(0));
    }
    let n = rest.strip_prefix('~')?;
    Some(n.parse::<u32>().ok().map(i64::from))
}
