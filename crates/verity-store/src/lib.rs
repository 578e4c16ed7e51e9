//! verity's store: one SQLite database (WAL) holding runs, samples, scores and observations.
//!
//! This is the only crate that speaks SQL. Its promises:
//!
//! * **Nothing finished is lost.** Every write is a transaction; a sample, its scores and its
//!   observations commit together, so a process killed at any instant leaves a readable
//!   database holding every sample that had completed (WAL, `synchronous = NORMAL`: durable
//!   against a crash of the process, which is what `kill -9` is).
//! * **Raw output is kept.** The response of every sample is stored as it came, so
//!   `verity rescore` re-judges a run without calling a model. A rescore adds a new *scoring*
//!   beside the old ones instead of overwriting them.
//! * **Schema changes are migrations**, numbered in [`MIGRATIONS`] and recorded in the
//!   database, so an old database opens with a new verity.
//! * **No credential is stored.** Every URL a run's suite gives its providers and servers, and
//!   every observation's endpoint and error, is passed through
//!   [`verity_model::redact_url`] on the way in: userinfo and key / token / signature query
//!   values never reach the file.
//! * **Readers only read.** [`Store::open_read_only`] never creates, migrates or writes (a
//!   read-only mount is fine); an open that fails says why ([`OpenCause`]).
//!
//! Beside runs it keeps a content-addressed response cache ([`Store::cache_get`],
//! [`Write::CachePut`]), prunes old observations ([`Store::prune_observations`]) and merges the
//! shards of a run into one ([`Store::merge_shards`]).

mod cache;
mod connection;
mod kind;
mod merge;

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use rusqlite::{Connection, ErrorCode, OpenFlags, OptionalExtension, params};
use verity_model::{
    Generation, GroupRecord, Outcome, Response, RunListing, RunMeta, RunStatus, SampleKey,
    SampleRecord, Score, Task, redact_url, redact_urls,
};

pub use cache::{CACHE_NAMESPACE, CachePrune, CacheStats};
pub use merge::MergeSummary;

/// Failures of the store itself (never of a model).
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("cannot open the database {path}: {cause}")]
    Open { path: PathBuf, cause: OpenCause },
    #[error("cannot create the directory {path}: {source}")]
    CreateDir {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("database error: {0}")]
    Sql(#[from] rusqlite::Error),
    #[error("stored data is corrupt ({what}): {source}")]
    Corrupt {
        what: String,
        source: serde_json::Error,
    },
    #[error("no run matches `{0}` (see `verity runs`)")]
    NoSuchRun(String),
    #[error("`{spec}` matches several runs: {candidates}")]
    AmbiguousRun { spec: String, candidates: String },
    #[error(
        "the database was written by a newer verity (schema {found}, this verity knows up to {known})"
    )]
    TooNew { found: i64, known: i64 },
    #[error("{what} `{value}` is not an RFC 3339 time (like 2026-01-31T12:00:00Z)")]
    InvalidTime { what: &'static str, value: String },
    #[error("cannot merge the shards: {0}")]
    Merge(String),
}

pub type Result<T, E = StoreError> = std::result::Result<T, E>;

/// Why a database could not be opened, found by looking at the path after SQLite failed (its
/// own "unable to open database file" never says why).
#[derive(Debug, thiserror::Error)]
pub enum OpenCause {
    #[error("the directory {0} does not exist")]
    MissingDir(PathBuf),
    #[error("the file does not exist")]
    Missing,
    #[error("it is a directory, not a file")]
    IsDirectory,
    #[error("permission denied ({0})")]
    PermissionDenied(String),
    #[error(
        "{0} is on a read-only file system (only `verity runs`, `report` and `cache stats` can read it there)"
    )]
    ReadOnlyFs(PathBuf),
    #[error("it is not a SQLite database")]
    NotADatabase,
    #[error("it is an empty or foreign SQLite database, not a verity store")]
    NotVerity,
    #[error(
        "it was written by an older verity (schema {found}, this verity reads {known}) and must be upgraded first, which a read-only open cannot do: run a command that writes to it once (`verity run`, `verity rescore`, `verity cache prune`…)"
    )]
    NeedsMigration { found: i64, known: i64 },
    #[error(
        "it has a write-ahead log ({0}) that cannot be read without creating its shared-memory file beside it, and that directory is not writable; copy the database, or open it once where it is writable"
    )]
    UnreadableWal(PathBuf),
    #[error("{0}")]
    Sqlite(#[source] rusqlite::Error),
}

/// How a connection is opened, for telling why it could not be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Access {
    ReadWrite,
    ReadOnly,
}

/// Schema migrations, applied in order; the database records how many ran.
pub const MIGRATIONS: &[&str] = &[
    // 1: runs, samples, scorings, group scores, observations.
    r#"
    CREATE TABLE runs (
        id             TEXT PRIMARY KEY,
        suite_name     TEXT NOT NULL,
        suite_path     TEXT NOT NULL,
        suite_hash     TEXT NOT NULL,
        status         TEXT NOT NULL,
        started_at     TEXT NOT NULL,
        finished_at    TEXT,
        verity_version TEXT NOT NULL,
        scoring        INTEGER NOT NULL,
        total_samples  INTEGER NOT NULL,
        meta_json      TEXT NOT NULL
    );
    CREATE TABLE samples (
        run_id        TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        task_id       TEXT NOT NULL,
        variant       TEXT NOT NULL,
        epoch         INTEGER NOT NULL,
        response_json TEXT NOT NULL,
        error_kind    TEXT,
        input_tokens  INTEGER NOT NULL,
        output_tokens INTEGER NOT NULL,
        latency_ms    INTEGER NOT NULL,
        cache_hit     INTEGER NOT NULL,
        completed_at  TEXT NOT NULL,
        PRIMARY KEY (run_id, task_id, variant, epoch)
    );
    CREATE TABLE scores (
        run_id      TEXT NOT NULL,
        scoring     INTEGER NOT NULL,
        task_id     TEXT NOT NULL,
        variant     TEXT NOT NULL,
        epoch       INTEGER NOT NULL,
        outcome     TEXT NOT NULL,
        scores_json TEXT NOT NULL,
        PRIMARY KEY (run_id, scoring, task_id, variant, epoch),
        FOREIGN KEY (run_id, task_id, variant, epoch)
            REFERENCES samples(run_id, task_id, variant, epoch) ON DELETE CASCADE
    );
    CREATE TABLE group_scores (
        run_id        TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        scoring       INTEGER NOT NULL,
        variant       TEXT NOT NULL,
        scope         TEXT NOT NULL,
        grp           TEXT NOT NULL,
        task_ids_json TEXT NOT NULL,
        scores_json   TEXT NOT NULL,
        PRIMARY KEY (run_id, scoring, variant, scope, grp)
    );
    CREATE TABLE observations (
        id            INTEGER PRIMARY KEY,
        run_id        TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        task_id       TEXT NOT NULL,
        variant       TEXT NOT NULL,
        epoch         INTEGER NOT NULL,
        attempt       INTEGER NOT NULL,
        started_at    TEXT NOT NULL,
        provider      TEXT NOT NULL,
        model         TEXT NOT NULL,
        endpoint      TEXT NOT NULL,
        prompt_hash   TEXT NOT NULL,
        input_hash    TEXT NOT NULL,
        raw_response  TEXT,
        output_text   TEXT,
        input_tokens  INTEGER NOT NULL,
        output_tokens INTEGER NOT NULL,
        latency_ms    INTEGER NOT NULL,
        cache_hit     INTEGER NOT NULL,
        error_kind    TEXT,
        error         TEXT
    );
    CREATE INDEX observations_by_run ON observations(run_id, task_id, variant, epoch);
    CREATE INDEX observations_by_time ON observations(started_at);
    "#,
    // 2: the response cache, content-addressed by a key the runner computes. `bytes` is the
    // length of `entry_json` (a `Generation`); entries of another namespace are never
    // returned.
    r#"
    CREATE TABLE cache (
        namespace  TEXT NOT NULL,
        key        TEXT NOT NULL,
        provider   TEXT NOT NULL,
        model      TEXT NOT NULL,
        created_at TEXT NOT NULL,
        bytes      INTEGER NOT NULL,
        entry_json TEXT NOT NULL,
        PRIMARY KEY (namespace, key)
    );
    "#,
    // 3: a run's tasks in their own table, one row each, in run order. The run row keeps the
    // suite without its tasks, so it stays small however large the dataset, and a runner pages
    // the tasks back instead of holding them all. There is no foreign key on purpose: a
    // streaming run writes its tasks while the suite loads, before its run row exists (see
    // `Store::stage_tasks`). Existing runs move their tasks over.
    r#"
    CREATE TABLE tasks (
        run_id    TEXT NOT NULL,
        idx       INTEGER NOT NULL,
        task_id   TEXT NOT NULL,
        task_json TEXT NOT NULL,
        PRIMARY KEY (run_id, idx)
    );
    CREATE UNIQUE INDEX tasks_by_id ON tasks(run_id, task_id);
    INSERT INTO tasks (run_id, idx, task_id, task_json)
        SELECT r.id, CAST(j.key AS INTEGER), json_extract(j.value, '$.id'), j.value
        FROM runs r, json_each(r.meta_json, '$.suite.tasks') j;
    UPDATE runs SET meta_json = json_set(meta_json, '$.suite.tasks', json('[]'));
    "#,
];

/// How many tasks [`Store::task_page`] callers usually ask for at once: enough that paging
/// costs nothing next to the samples, few enough that memory does not depend on the dataset.
pub const TASK_PAGE: usize = 512;

/// SQL for the integer milliseconds since the Unix epoch of an RFC 3339 column or parameter
/// (NULL when it is not a time). Comparing these, rather than the strings, is right whatever the
/// fractional-second precision or offset; SQLite keeps milliseconds exactly.
fn ms_sql(expr: &str) -> String {
    format!("CAST(round((julianday({expr}) - 2440587.5) * 86400000.0) AS INTEGER)")
}

/// Milliseconds since the Unix epoch of the RFC 3339 time `value`, or `InvalidTime`.
fn time_ms(conn: &Connection, what: &'static str, value: &str) -> Result<i64> {
    let ms: Option<i64> =
        conn.query_row(&format!("SELECT {}", ms_sql("?1")), [value], |r| r.get(0))?;
    ms.ok_or_else(|| StoreError::InvalidTime {
        what,
        value: value.to_owned(),
    })
}

const DAY_MS: i64 = 86_400_000;

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

/// Outcome counts of one variant of a run (samples without a verdict count as errors).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantCounts {
    pub variant: String,
    pub samples: u64,
    pub pass: u64,
    pub fail: u64,
    pub error: u64,
}

/// A connection to the store. Open one per thread.
pub struct Store {
    conn: Connection,
    path: PathBuf,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store").field("path", &self.path).finish()
    }
}

fn json<T: serde::Serialize>(v: &T) -> String {
    // Serializing the model's plain data cannot fail (no maps with non-string keys, no
    // non-finite floats reach here unless a scorer made one, which serde_json writes as null).
    serde_json::to_string(v)
        .unwrap_or_else(|e| format!("{{\"serialization_error\":{:?}}}", e.to_string()))
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

fn parse<T: serde::de::DeserializeOwned>(what: &str, s: &str) -> Result<T> {
    serde_json::from_str(s).map_err(|source| StoreError::Corrupt {
        what: what.to_owned(),
        source,
    })
}

fn outcome_str(o: Outcome) -> &'static str {
    o.as_str()
}

fn parse_outcome(s: &str) -> Outcome {
    match s {
        "pass" => Outcome::Pass,
        "fail" => Outcome::Fail,
        _ => Outcome::Error,
    }
}

impl Store {
    /// Opens (creating if needed) the database at `path`, applying pending migrations. When
    /// it cannot, the error names why ([`OpenCause`]).
    pub fn open(path: &Path) -> Result<Store> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|source| StoreError::CreateDir {
                path: dir.to_owned(),
                source,
            })?;
        }
        check_header(path)?;
        let conn = Connection::open(path).map_err(|e| open_error(path, e, Access::ReadWrite))?;
        // SQLite opens lazily: a file it cannot use fails at the first statement.
        Store::init(conn, path.to_owned()).map_err(|e| match e {
            StoreError::Sql(e) => open_error(path, e, Access::ReadWrite),
            other => other,
        })
    }

    /// Opens an existing database for reading only (`SQLITE_OPEN_READ_ONLY`): nothing is
    /// created, migrated or written, so it works on a read-only mount, and any write through
    /// the returned store fails. A database an older verity wrote is refused
    /// ([`OpenCause::NeedsMigration`]): upgrading it is a write.
    ///
    /// A WAL database normally needs its shared-memory file (`-shm`) beside it, which SQLite
    /// creates on first use; where the directory cannot be written and no write-ahead log is
    /// pending, the database is opened `immutable` instead (nothing can change it there).
    pub fn open_read_only(path: &Path) -> Result<Store> {
        let conn = connect_read_only(path)?;
        let version: i64 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .map_err(|e| open_error(path, e, Access::ReadOnly))?;
        let known = MIGRATIONS.len() as i64;
        let cause = match version {
            v if v > known => return Err(StoreError::TooNew { found: v, known }),
            v if v == known => None,
            v if v <= 0 => Some(OpenCause::NotVerity),
            found => Some(OpenCause::NeedsMigration { found, known }),
        };
        if let Some(cause) = cause {
            return Err(StoreError::Open {
                path: path.to_owned(),
                cause,
            });
        }
        Ok(Store {
            conn,
            path: path.to_owned(),
        })
    }

    /// A private in-memory database, for tests.
    pub fn open_in_memory() -> Result<Store> {
        Store::init(Connection::open_in_memory()?, PathBuf::from(":memory:"))
    }

    fn init(conn: Connection, path: PathBuf) -> Result<Store> {
        conn.busy_timeout(std::time::Duration::from_secs(30))?;
        // journal_mode returns a row; query it rather than execute.
        let _mode: String = conn.query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))?;
        conn.execute_batch("PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;")?;
        let store = Store { conn, path };
        store.migrate()?;
        Ok(store)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    fn migrate(&self) -> Result<()> {
        let known = MIGRATIONS.len() as i64;
        let version: i64 = self
            .conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))?;
        if version > known {
            return Err(StoreError::TooNew {
                found: version,
                known,
            });
        }
        if version == known {
            return Ok(());
        }
        // Take the write lock first and read the version again: two processes opening a new
        // database at once must not both run the migrations.
        let tx = rusqlite::Transaction::new_unchecked(
            &self.conn,
            rusqlite::TransactionBehavior::Immediate,
        )?;
        let version: i64 = tx.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        for (i, sql) in MIGRATIONS.iter().enumerate().skip(version.max(0) as usize) {
            tx.execute_batch(sql)?;
            tx.execute_batch(&format!("PRAGMA user_version = {}", i + 1))?;
        }
        tx.commit()?;
        Ok(())
    }

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

    /// Starts writing the tasks of a run that does not exist yet, as its suite loads: one
    /// transaction until [`TaskStage::commit_run`] adds the run's row, so a load that fails or
    /// a process that dies leaves nothing behind. Dropping the stage without committing rolls it back.
    pub fn stage_tasks(&mut self, run_id: &str) -> Result<TaskStage<'_>> {
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        // Every id seen, kept or not, for finding duplicates; private to this connection.
        tx.execute_batch(
            "CREATE TEMP TABLE IF NOT EXISTS staged_ids (
                 task_id TEXT PRIMARY KEY, file TEXT NOT NULL, line INTEGER NOT NULL, col INTEGER NOT NULL
             );
             DELETE FROM temp.staged_ids;",
        )?;
        Ok(TaskStage {
            tx,
            run_id: run_id.to_owned(),
            next: 0,
        })
    }

    /// Removes a run that never started: its row and tasks, when it is still `running` with no
    /// samples and no observations (what a streaming run staged before failing to start, e.g.
    /// on a missing API key or a refused budget). A run with any result, or one the engine
    /// marked (`failed`, `interrupted`), is left alone. Returns how many tasks were removed.
    pub fn discard_unstarted_run(&mut self, run_id: &str) -> Result<u64> {
        let tx = self.conn.transaction()?;
        let started: bool = tx.query_row(
            "SELECT EXISTS (SELECT 1 FROM samples WHERE run_id = ?1)
                 OR EXISTS (SELECT 1 FROM observations WHERE run_id = ?1)
                 OR EXISTS (SELECT 1 FROM runs WHERE id = ?1 AND status != 'running')",
            [run_id],
            |r| r.get(0),
        )?;
        if started {
            return Ok(0);
        }
        let n = tx.execute("DELETE FROM tasks WHERE run_id = ?1", [run_id])?;
        tx.execute("DELETE FROM runs WHERE id = ?1", [run_id])?;
        tx.commit()?;
        Ok(n as u64)
    }

    /// How many tasks the run has.
    pub fn task_count(&self, run_id: &str) -> Result<u64> {
        let n: i64 = self.conn.query_row(
            "SELECT count(*) FROM tasks WHERE run_id = ?1",
            [run_id],
            |r| r.get(0),
        )?;
        Ok(n as u64)
    }

    /// Up to `limit` of the run's tasks after position `after` (`None`: from the start), in
    /// run order, each with its position.
    pub fn task_page(
        &self,
        run_id: &str,
        after: Option<u64>,
        limit: usize,
    ) -> Result<Vec<(u64, Task)>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT idx, task_json FROM tasks WHERE run_id = ?1 AND idx > ?2 ORDER BY idx LIMIT ?3",
        )?;
        let after = after.map_or(-1, |a| a as i64);
        let mut rows = stmt.query(params![run_id, after, limit as i64])?;
        let mut out = Vec::with_capacity(limit.min(TASK_PAGE));
        while let Some(r) = rows.next()? {
            let idx: i64 = r.get(0)?;
            let text: String = r.get(1)?;
            out.push((idx as u64, parse("stored task", &text)?));
        }
        Ok(out)
    }

    /// Every task of the run, in run order.
    pub fn load_tasks(&self, run_id: &str) -> Result<Vec<Task>> {
        read_tasks(&self.conn, run_id)
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

    /// Every run, newest first, with its progress and pass count under its current scoring.
    pub fn list_runs(&self) -> Result<Vec<RunListing>> {
        // By time, not by the text of the time: `…:01.5Z` must sort before `…:01.512Z`.
        let mut stmt = self.conn.prepare(&format!(
            "SELECT r.id, r.suite_name, r.status, r.started_at, r.finished_at, r.total_samples,
                    (SELECT COUNT(*) FROM samples s WHERE s.run_id = r.id),
                    (SELECT COUNT(*) FROM scores c WHERE c.run_id = r.id AND c.scoring = r.scoring AND c.outcome = 'pass'),
                    (SELECT COUNT(*) FROM scores c WHERE c.run_id = r.id AND c.scoring = r.scoring AND c.outcome = 'error')
             FROM runs r ORDER BY {} DESC, r.id DESC",
            ms_sql("r.started_at")
        ))?;
        let rows = stmt.query_map([], |r| {
            Ok(RunListing {
                id: r.get(0)?,
                suite_name: r.get(1)?,
                status: RunStatus::parse(&r.get::<_, String>(2)?).unwrap_or(RunStatus::Failed),
                started_at: r.get(3)?,
                finished_at: r.get(4)?,
                total: r.get::<_, i64>(5)? as u64,
                completed: r.get::<_, i64>(6)? as u64,
                passed: r.get::<_, i64>(7)? as u64,
                errors: r.get::<_, i64>(8)? as u64,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Resolves `latest`, a full run id, or a unique prefix of one.
    pub fn resolve_run(&self, spec: &str) -> Result<String> {
        if spec == "latest" || spec == "last" {
            return self
                .conn
                .query_row(
                    &format!(
                        "SELECT id FROM runs ORDER BY {} DESC, id DESC LIMIT 1",
                        ms_sql("started_at")
                    ),
                    [],
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
        let row: Option<(String, String, Option<String>, u32)> = self
            .conn
            .query_row(
                "SELECT meta_json, status, finished_at, scoring FROM runs WHERE id = ?1",
                [id],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
            )
            .optional()?;
        let (meta_json, status, finished_at, scoring) =
            row.ok_or_else(|| StoreError::NoSuchRun(id.to_owned()))?;
        let mut meta: RunMeta = parse("run metadata", &meta_json)?;
        meta.status = RunStatus::parse(&status).unwrap_or(RunStatus::Failed);
        meta.finished_at = finished_at;
        meta.scoring = scoring;
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
            params![id, next, crate::meta_json(&meta)],
        )?;
        tx.commit()?;
        Ok(next)
    }

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

    /// Checks the database file's integrity (`PRAGMA integrity_check`).
    pub fn integrity_check(&self) -> Result<bool> {
        let r: String = self
            .conn
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))?;
        Ok(r == "ok")
    }
}

/// A read-only connection to the existing database at `path` whose file has been read once
/// (SQLite opens lazily), falling back to an `immutable` open where a WAL database cannot get
/// its shared-memory file (see [`Store::open_read_only`]). Errors name their cause.
pub(crate) fn connect_read_only(path: &Path) -> Result<Connection> {
    check_header(path)?;
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let first = match try_read_only(path, flags) {
        Ok(conn) => return Ok(conn),
        Err(e) => e,
    };
    let wal = sidecar(path, "-wal");
    let wal_pending = std::fs::metadata(&wal).is_ok_and(|m| m.len() > 0);
    if path.is_file()
        && !wal_pending
        && matches!(
            first.sqlite_error_code(),
            Some(ErrorCode::CannotOpen | ErrorCode::ReadOnly)
        )
        && let Some(uri) = immutable_uri(path)
        && let Ok(conn) = try_read_only(Path::new(&uri), flags | OpenFlags::SQLITE_OPEN_URI)
    {
        return Ok(conn);
    }
    Err(open_error(path, first, Access::ReadOnly))
}

/// Refuses a file that is not empty and does not start like a SQLite database before SQLite
/// sees it: SQLite takes a file of a single byte for an empty database, and a read-write open
/// would then write a store over it. Anything that cannot be read is left to SQLite (and
/// [`diagnose`]).
fn check_header(path: &Path) -> Result<()> {
    use std::io::Read;
    const MAGIC: &[u8; 16] = b"SQLite format 3\0";
    let Ok(f) = std::fs::File::open(path) else {
        return Ok(());
    };
    let mut head = Vec::with_capacity(16);
    if f.take(16).read_to_end(&mut head).is_err() || head.is_empty() || head == MAGIC {
        return Ok(());
    }
    Err(StoreError::Open {
        path: path.to_owned(),
        cause: OpenCause::NotADatabase,
    })
}

fn try_read_only(name: &Path, flags: OpenFlags) -> rusqlite::Result<Connection> {
    let conn = Connection::open_with_flags(name, flags)?;
    conn.busy_timeout(std::time::Duration::from_secs(30))?;
    conn.query_row("SELECT count(*) FROM sqlite_schema", [], |r| {
        r.get::<_, i64>(0)
    })?;
    Ok(conn)
}

/// `path` with `suffix` appended to its file name (`x.db` -> `x.db-wal`).
fn sidecar(path: &Path, suffix: &str) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

/// `file:PATH?immutable=1`, the path percent-encoded as SQLite's URI filenames want.
#[cfg(unix)]
fn immutable_uri(path: &Path) -> Option<String> {
    use std::os::unix::ffi::OsStrExt;
    let mut uri = String::from("file:");
    for &b in path.as_os_str().as_bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'/' | b'.' | b'_' | b'-' | b'~') {
            uri.push(char::from(b));
        } else {
            uri.push_str(&format!("%{b:02X}"));
        }
    }
    // `file://host/…` would name a host: keep a leading `//` a path.
    if uri.starts_with("file://") {
        uri.insert_str(5, "//");
    }
    uri.push_str("?immutable=1");
    Some(uri)
}

#[cfg(not(unix))]
fn immutable_uri(_path: &Path) -> Option<String> {
    None
}

/// The open error for `path` after SQLite failed with `err`, with the cause found by looking
/// at the path.
fn open_error(path: &Path, err: rusqlite::Error, access: Access) -> StoreError {
    StoreError::Open {
        path: path.to_owned(),
        cause: diagnose(path, err, access),
    }
}

fn diagnose(path: &Path, err: rusqlite::Error, access: Access) -> OpenCause {
    use std::io::ErrorKind;
    let code = err.sqlite_error_code();
    if code == Some(ErrorCode::NotADatabase) {
        return OpenCause::NotADatabase;
    }
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == ErrorKind::NotFound => {
            return match std::fs::metadata(dir) {
                Err(e) if e.kind() == ErrorKind::NotFound => OpenCause::MissingDir(dir.to_owned()),
                Err(e) if e.kind() == ErrorKind::PermissionDenied => OpenCause::PermissionDenied(
                    format!("cannot enter the directory {}", dir.display()),
                ),
                Ok(m) if !m.is_dir() => {
                    OpenCause::PermissionDenied(format!("{} is not a directory", dir.display()))
                }
                Ok(_) if access == Access::ReadOnly => OpenCause::Missing,
                _ => dir_cause(dir).unwrap_or(OpenCause::Sqlite(err)),
            };
        }
        Err(e) if e.kind() == ErrorKind::PermissionDenied => {
            return OpenCause::PermissionDenied(format!(
                "cannot reach {} (a directory on its path is not searchable)",
                path.display()
            ));
        }
        Err(_) => return OpenCause::Sqlite(err),
    };
    if meta.is_dir() {
        return OpenCause::IsDirectory;
    }
    if let Err(e) = std::fs::File::open(path)
        && e.kind() == ErrorKind::PermissionDenied
    {
        return OpenCause::PermissionDenied(format!("cannot read {}", path.display()));
    }
    let cannot_write = matches!(code, Some(ErrorCode::CannotOpen | ErrorCode::ReadOnly));
    match access {
        Access::ReadWrite => {
            match std::fs::OpenOptions::new().write(true).open(path) {
                Err(e) if e.kind() == ErrorKind::ReadOnlyFilesystem => {
                    return OpenCause::ReadOnlyFs(path.to_owned());
                }
                Err(e) if e.kind() == ErrorKind::PermissionDenied => {
                    return OpenCause::PermissionDenied(format!("cannot write {}", path.display()));
                }
                _ => {}
            }
            // The file can be written: SQLite also creates its -wal and -shm files beside it.
            if cannot_write && let Some(cause) = dir_cause(dir) {
                return cause;
            }
        }
        Access::ReadOnly => {
            let wal = sidecar(path, "-wal");
            if cannot_write && std::fs::metadata(&wal).is_ok_and(|m| m.len() > 0) {
                return OpenCause::UnreadableWal(wal);
            }
        }
    }
    OpenCause::Sqlite(err)
}

/// Why no file can be created in `dir`, found by creating (and removing) an empty one.
fn dir_cause(dir: &Path) -> Option<OpenCause> {
    use std::io::ErrorKind;
    let probe = dir.join(format!(".verity-probe-{}", std::process::id()));
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
    {
        Ok(_) => {
            let _ = std::fs::remove_file(&probe);
            None
        }
        Err(e) if e.kind() == ErrorKind::ReadOnlyFilesystem => {
            Some(OpenCause::ReadOnlyFs(dir.to_owned()))
        }
        Err(e) if e.kind() == ErrorKind::PermissionDenied => Some(OpenCause::PermissionDenied(
            format!("cannot create files in {}", dir.display()),
        )),
        Err(_) => None,
    }
}

fn insert_run_on(conn: &Connection, meta: &RunMeta) -> Result<()> {
    conn.execute(
        "INSERT INTO runs (id, suite_name, suite_path, suite_hash, status, started_at, finished_at,
                           verity_version, scoring, total_samples, meta_json)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
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
        ],
    )?;
    Ok(())
}

/// The run row's JSON: the metadata with the suite's tasks left out (they are rows of `tasks`).
/// Every URL a provider or server of the suite holds is stripped of credentials first
/// ([`redact_suite`]): this is the one way a run's metadata reaches the database.
fn meta_json(meta: &RunMeta) -> String {
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

/// Inserts `tasks` as positions `first…` of `run_id`.
fn insert_tasks_on(conn: &Connection, run_id: &str, first: u64, tasks: &[Task]) -> Result<()> {
    let mut stmt = conn.prepare_cached(
        "INSERT INTO tasks (run_id, idx, task_id, task_json) VALUES (?1, ?2, ?3, ?4)",
    )?;
    for (i, t) in tasks.iter().enumerate() {
        stmt.execute(params![run_id, (first + i as u64) as i64, t.id, json(t)])?;
    }
    Ok(())
}

/// Every task of `run_id` in run order.
pub(crate) fn read_tasks(conn: &Connection, run_id: &str) -> Result<Vec<Task>> {
    let mut stmt =
        conn.prepare_cached("SELECT task_json FROM tasks WHERE run_id = ?1 ORDER BY idx")?;
    let mut rows = stmt.query([run_id])?;
    let mut out = Vec::new();
    while let Some(r) = rows.next()? {
        let text: String = r.get(0)?;
        out.push(parse("stored task", &text)?);
    }
    Ok(out)
}

/// A run's tasks read back a page of [`TASK_PAGE`] at a time, in run order. It keeps only its
/// position between pages, not a borrow of the store, so an async runner can hold it across
/// `.await`s.
#[derive(Debug)]
pub struct TaskPages {
    run_id: String,
    after: Option<u64>,
}

impl TaskPages {
    pub fn new(run_id: &str) -> TaskPages {
        TaskPages {
            run_id: run_id.to_owned(),
            after: None,
        }
    }

    /// The next page, or `None` after the last task.
    pub fn next(&mut self, store: &Store) -> Result<Option<Vec<Task>>> {
        let page = store.task_page(&self.run_id, self.after, TASK_PAGE)?;
        let Some(&(last, _)) = page.last() else {
            return Ok(None);
        };
        self.after = Some(last);
        Ok(Some(page.into_iter().map(|(_, t)| t).collect()))
    }
}

/// A run's tasks being written while its suite loads (see [`Store::stage_tasks`]).
pub struct TaskStage<'a> {
    tx: rusqlite::Transaction<'a>,
    run_id: String,
    next: u64,
}

/// Why a staged task was not stored.
#[derive(Debug, thiserror::Error)]
pub enum StageError {
    /// The run already has a task with this id; `first` is where that one was defined.
    #[error("duplicate task id `{id}`")]
    Duplicate {
        id: String,
        first: verity_model::SourceLoc,
    },
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl TaskStage<'_> {
    /// Offers the suite's next task: its id is checked against every id offered before (a
    /// duplicate is refused, naming where the first was defined), and the task is appended
    /// to the run when `keep` (the run's selection takes it).
    pub fn put(&mut self, task: &Task, keep: bool) -> Result<(), StageError> {
        // One statement in the common case; the lookup only for a duplicate.
        let inserted = self
            .tx
            .prepare_cached(
                "INSERT INTO temp.staged_ids (task_id, file, line, col) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (task_id) DO NOTHING",
            )
            .and_then(|mut s| {
                s.execute(params![
                    task.id,
                    task.source.file,
                    task.source.line,
                    task.source.column
                ])
            })
            .map_err(StoreError::from)?;
        if inserted == 0 {
            let first = self
                .tx
                .query_row(
                    "SELECT file, line, col FROM temp.staged_ids WHERE task_id = ?1",
                    [&task.id],
                    |r| {
                        Ok(verity_model::SourceLoc {
                            file: r.get(0)?,
                            line: r.get(1)?,
                            column: r.get(2)?,
                        })
                    },
                )
                .map_err(StoreError::from)?;
            return Err(StageError::Duplicate {
                id: task.id.clone(),
                first,
            });
        }
        if keep {
            insert_tasks_on(
                &self.tx,
                &self.run_id,
                self.next,
                std::slice::from_ref(task),
            )?;
            self.next += 1;
        }
        Ok(())
    }

    /// How many tasks are kept.
    pub fn len(&self) -> u64 {
        self.next
    }

    pub fn is_empty(&self) -> bool {
        self.next == 0
    }

    /// Makes the staged tasks durable together with their run's row (`meta`, whose suite
    /// carries no tasks: the staged rows are its tasks), in the one transaction the stage
    /// began: a process killed at any moment leaves either nothing or a run that `--resume`
    /// finds. Returns how many tasks the run has.
    pub fn commit_run(self, meta: &RunMeta) -> Result<u64> {
        let n = self.next;
        debug_assert_eq!(meta.id, self.run_id);
        insert_run_on(&self.tx, meta)?;
        self.tx.execute_batch("DELETE FROM temp.staged_ids")?;
        self.tx.commit()?;
        Ok(n)
    }
}

#[cfg(test)]
mod tests;
