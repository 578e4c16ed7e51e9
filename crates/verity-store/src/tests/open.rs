//! Opening: read-only opens, and open errors that name their cause.
//!
//! The tests run as root in CI, where file permissions stop nothing, so causes are produced
//! by the path itself (a missing directory, a directory, garbage) and read-only-ness is
//! checked by SQLite refusing writes, not by the file system. The read-only *mount* case is
//! an integration test of the CLI (crates/verity/tests/it/store.rs), under `unshare`.

use std::path::Path;

use verity_model::{Outcome, RunStatus};

use crate::{MIGRATIONS, OpenCause, Store, StoreError, Write};

fn cause(r: crate::Result<Store>) -> (OpenCause, String) {
    match r {
        Err(e @ StoreError::Open { .. }) => {
            let message = e.to_string();
            let StoreError::Open { cause, .. } = e else {
                unreachable!()
            };
            (cause, message)
        }
        Err(e) => panic!("expected an open error, got {e}"),
        Ok(s) => panic!("expected an open error, got {s:?}"),
    }
}

fn stored_run(path: &Path) {
    let mut s = Store::open(path).unwrap();
    s.insert_run(&super::meta("r1", "2026-01-01T00:00:00Z"))
        .unwrap();
    s.write(&[Write::Sample {
        run_id: "r1".into(),
        scoring: 1,
        record: super::sample("t1", "a", "4", Outcome::Pass),
    }])
    .unwrap();
}

fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn read_only_reads_and_refuses_every_write() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v.db");
    stored_run(&path);
    let before = std::fs::read(&path).unwrap();

    let mut s = Store::open_read_only(&path).unwrap();
    let runs = s.list_runs().unwrap();
    assert_eq!((runs.len(), runs[0].completed), (1, 1));
    assert_eq!(s.load_samples("r1", None).unwrap()[0].response.text, "4");
    assert_eq!(s.resolve_run("latest").unwrap(), "r1");

    let readonly = |e: StoreError| {
        let StoreError::Sql(e) = e else { panic!("{e}") };
        assert_eq!(e.sqlite_error_code(), Some(rusqlite::ErrorCode::ReadOnly));
    };
    readonly(
        s.set_run_status("r1", RunStatus::Completed, None)
            .unwrap_err(),
    );
    readonly(
        s.insert_run(&super::meta("r2", "2026-01-02T00:00:00Z"))
            .unwrap_err(),
    );
    readonly(
        s.write(&[Write::Sample {
            run_id: "r1".into(),
            scoring: 1,
            record: super::sample("t2", "a", "5", Outcome::Pass),
        }])
        .unwrap_err(),
    );
    readonly(
        s.prune_observations(0, 0, "2030-01-01T00:00:00Z")
            .unwrap_err(),
    );
    drop(s);
    assert_eq!(std::fs::read(&path).unwrap(), before, "the file changed");
    assert_eq!(Store::open(&path).unwrap().list_runs().unwrap().len(), 1);
}

#[test]
fn read_only_sees_what_a_live_writer_committed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v.db");
    stored_run(&path);
    let mut writer = Store::open(&path).unwrap();
    writer
        .insert_run(&super::meta("r2", "2026-01-02T00:00:00Z"))
        .unwrap();
    let reader = Store::open_read_only(&path).unwrap();
    assert_eq!(reader.list_runs().unwrap().len(), 2);
}

#[test]
fn read_only_creates_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let missing_dir = dir.path().join("nope/deeper");
    let (c, m) = cause(Store::open_read_only(&missing_dir.join("v.db")));
    assert!(
        matches!(&c, OpenCause::MissingDir(d) if d == &missing_dir),
        "{c:?}"
    );
    assert!(
        m.contains(&format!(
            "the directory {} does not exist",
            missing_dir.display()
        )),
        "{m}"
    );
    assert!(!dir.path().join("nope").exists());

    let (c, m) = cause(Store::open_read_only(&dir.path().join("v.db")));
    assert!(matches!(c, OpenCause::Missing), "{c:?}");
    assert!(m.contains("does not exist"), "{m}");
    assert!(listing(dir.path()).is_empty(), "{:?}", listing(dir.path()));
}

#[test]
fn a_directory_in_place_of_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v.db");
    std::fs::create_dir(&path).unwrap();
    for r in [Store::open(&path), Store::open_read_only(&path)] {
        let (c, m) = cause(r);
        assert!(matches!(c, OpenCause::IsDirectory), "{c:?}");
        assert!(m.contains("is a directory"), "{m}");
        assert!(m.contains(&path.display().to_string()), "{m}");
    }
}

#[test]
fn garbage_is_not_a_database_and_stays_untouched() {
    let dir = tempfile::tempdir().unwrap();
    for (name, bytes) in [
        ("long.db", vec![b'x'; 8192]),
        // SQLite itself takes a single byte for an empty database.
        ("byte.db", vec![b'x']),
        ("short.db", b"SQLite format".to_vec()),
        (
            "text.db",
            b"this is not a database, just some words".repeat(30),
        ),
        (
            "header.db",
            b"SQLite format 3\0 but the rest is garbage"
                .iter()
                .copied()
                .chain(std::iter::repeat_n(0xA5, 4000))
                .collect(),
        ),
    ] {
        let path = dir.path().join(name);
        std::fs::write(&path, &bytes).unwrap();
        for r in [Store::open_read_only(&path), Store::open(&path)] {
            let (c, m) = cause(r);
            assert!(matches!(c, OpenCause::NotADatabase), "{name}: {c:?}");
            assert!(m.contains("not a SQLite database"), "{m}");
        }
        assert_eq!(std::fs::read(&path).unwrap(), bytes, "{name} was changed");
    }
}

#[test]
fn read_only_refuses_what_is_not_a_verity_store() {
    let dir = tempfile::tempdir().unwrap();
    // An empty file is an empty SQLite database: no verity schema.
    let empty = dir.path().join("empty.db");
    std::fs::write(&empty, b"").unwrap();
    let (c, m) = cause(Store::open_read_only(&empty));
    assert!(matches!(c, OpenCause::NotVerity), "{c:?}");
    assert!(m.contains("not a verity store"), "{m}");
    assert_eq!(std::fs::read(&empty).unwrap(), b"");

    let other = dir.path().join("other.db");
    rusqlite::Connection::open(&other)
        .unwrap()
        .execute_batch("CREATE TABLE t (x)")
        .unwrap();
    let (c, _) = cause(Store::open_read_only(&other));
    assert!(matches!(c, OpenCause::NotVerity), "{c:?}");
}

#[test]
fn read_only_refuses_to_migrate_or_read_a_newer_schema() {
    let dir = tempfile::tempdir().unwrap();
    let old = dir.path().join("old.db");
    {
        let c = rusqlite::Connection::open(&old).unwrap();
        c.execute_batch(MIGRATIONS[0]).unwrap();
        c.execute_batch("PRAGMA user_version = 1").unwrap();
    }
    let (c, m) = cause(Store::open_read_only(&old));
    assert!(
        matches!(c, OpenCause::NeedsMigration { found: 1, known } if known == MIGRATIONS.len() as i64),
        "{c:?}"
    );
    assert!(m.contains("older verity") && m.contains("upgraded"), "{m}");
    let version: i64 = rusqlite::Connection::open(&old)
        .unwrap()
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, 1, "a read-only open migrated the database");
    // A read-write open still upgrades it.
    drop(Store::open(&old).unwrap());
    assert!(Store::open_read_only(&old).is_ok());

    let new = dir.path().join("new.db");
    drop(Store::open(&new).unwrap());
    rusqlite::Connection::open(&new)
        .unwrap()
        .execute_batch("PRAGMA user_version = 99")
        .unwrap();
    assert!(matches!(
        Store::open_read_only(&new),
        Err(StoreError::TooNew { found: 99, .. })
    ));
}

/// A WAL database whose directory cannot hold its shared-memory file: SQLite then reads the
/// log through heap memory, or (with no log, on a read-only mount) only `immutable`. Here, as
/// root, a directory squatting on the `-shm` name stands in for the read-only directory; the
/// real read-only mount is tested through the CLI.
#[test]
fn read_only_without_a_shared_memory_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v.db");
    stored_run(&path);
    assert!(!dir.path().join("v.db-wal").exists());
    std::fs::create_dir(dir.path().join("v.db-shm")).unwrap();
    let s = Store::open_read_only(&path).unwrap();
    assert_eq!(s.list_runs().unwrap().len(), 1);
    assert!(s.set_run_status("r1", RunStatus::Failed, None).is_err());
    drop(s);

    // A log with commits not yet in the database file: copy the pair while a writer holds it.
    let live = tempfile::tempdir().unwrap();
    let live_path = live.path().join("v.db");
    stored_run(&live_path);
    let mut writer = Store::open(&live_path).unwrap();
    writer
        .conn
        .execute_batch("PRAGMA wal_autocheckpoint = 0")
        .unwrap();
    writer
        .insert_run(&super::meta("r2", "2026-01-02T00:00:00Z"))
        .unwrap();
    let copy = tempfile::tempdir().unwrap();
    for f in ["v.db", "v.db-wal"] {
        std::fs::copy(live.path().join(f), copy.path().join(f)).unwrap();
    }
    drop(writer);
    let copied = copy.path().join("v.db");
    assert!(
        std::fs::metadata(copy.path().join("v.db-wal"))
            .unwrap()
            .len()
            > 0
    );
    std::fs::create_dir(copy.path().join("v.db-shm")).unwrap();
    // Both runs: the one in the file and the one only in the log.
    let s = Store::open_read_only(&copied).unwrap();
    assert_eq!(s.list_runs().unwrap().len(), 2);
    drop(s);

    // Where SQLite cannot open it at all (a read-only mount without `-shm`), a pending log
    // is named, never skipped: `immutable` would read the file without it.
    let cant_open = || rusqlite::Error::SqliteFailure(rusqlite::ffi::Error::new(14), None);
    let c = crate::schema::diagnose(&copied, cant_open(), crate::schema::Access::ReadOnly);
    assert!(
        matches!(&c, OpenCause::UnreadableWal(w) if w.ends_with("v.db-wal")),
        "{c:?}"
    );
    assert!(c.to_string().contains("write-ahead log"), "{c}");
    // Without a pending log the same failure is SQLite's own message.
    let c = crate::schema::diagnose(&path, cant_open(), crate::schema::Access::ReadOnly);
    assert!(matches!(c, OpenCause::Sqlite(_)), "{c:?}");
}
