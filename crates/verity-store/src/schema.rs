//! Opening the database: the numbered migrations, the pragmas every connection gets, read-only
//! opens, and the cause named when an open fails.

use std::path::{Path, PathBuf};

use rusqlite::{Connection, ErrorCode, OpenFlags};

use crate::{Result, Store, StoreError};

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
pub(crate) enum Access {
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
    // 4: the process that owns a run while it runs (`verity_process::ProcessStamp`): its pid,
    // its start time in clock ticks since boot, the boot id and the host name, written when the
    // run starts or is resumed. A run stored as running whose owner is gone is shown as
    // interrupted. Older runs have none (shown as `running?` while stored as running).
    r#"
    ALTER TABLE runs ADD COLUMN owner_pid INTEGER;
    ALTER TABLE runs ADD COLUMN owner_start INTEGER;
    ALTER TABLE runs ADD COLUMN owner_boot TEXT;
    ALTER TABLE runs ADD COLUMN owner_host TEXT;
    "#,
];

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

pub(crate) fn diagnose(path: &Path, err: rusqlite::Error, access: Access) -> OpenCause {
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

/// More connections to a store that is already open: SQLite wants one connection per
/// thread, and a run has three users of its database at once (the scheduler, the single
/// writer thread and the cache reader). They share the file the first open checked and
/// migrated.
impl Store {
    /// Another connection to this store's database file, for another thread. The file was
    /// checked, and migrated, when `self` was opened: this opens it again with the same
    /// settings (busy timeout, `synchronous = NORMAL`, foreign keys) and nothing else.
    pub fn sibling(&self) -> Result<Store> {
        let path = &self.path;
        let conn = Connection::open(path).map_err(|e| open_error(path, e, Access::ReadWrite))?;
        conn.busy_timeout(std::time::Duration::from_secs(30))?;
        conn.execute_batch("PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;")?;
        Ok(Store {
            conn,
            path: path.clone(),
        })
    }
}
