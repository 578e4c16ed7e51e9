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

#![forbid(unsafe_code)]

mod cache;
mod kind;
mod merge;
mod observations;
mod runs;
mod samples;
mod schema;
mod tasks;
mod write;

use std::path::{Path, PathBuf};

use rusqlite::Connection;

pub use cache::{CACHE_NAMESPACE, CachePrune, CacheStats};
pub use merge::MergeSummary;
pub use observations::Observation;
pub use samples::VariantCounts;
pub use schema::{MIGRATIONS, OpenCause};
pub use tasks::{StageError, TASK_PAGE, TaskPages, TaskStage};
pub use write::Write;

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
    #[error(
        "`{0}` is not a run: write `latest`, `latest~N` (N runs before the newest), an id or a prefix of one"
    )]
    BadRunSpec(String),
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

impl Store {
    pub fn path(&self) -> &Path {
        &self.path
    }
}

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

fn json<T: serde::Serialize>(v: &T) -> String {
    // Serializing the model's plain data cannot fail (no maps with non-string keys, no
    // non-finite floats reach here unless a scorer made one, which serde_json writes as null).
    serde_json::to_string(v)
        .unwrap_or_else(|e| format!("{{\"serialization_error\":{:?}}}", e.to_string()))
}

fn parse<T: serde::de::DeserializeOwned>(what: &str, s: &str) -> Result<T> {
    serde_json::from_str(s).map_err(|source| StoreError::Corrupt {
        what: what.to_owned(),
        source,
    })
}

#[cfg(test)]
mod tests;
