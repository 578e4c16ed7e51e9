//! Commands that only read (`runs`, `report`, `cache stats`) open the database read-only, and
//! every command says why a database cannot be opened.
//!
//! The read-only mount is real: a bind mount made read-only inside a private user and mount
//! namespace (`unshare -rm`, no privileges needed where unprivileged user namespaces are
//! allowed). Where `unshare` is missing or refused, those tests say so and pass without
//! checking. Permission errors need a user that permissions stop: when the tests run as root,
//! verity is started as `nobody` (65534) for them; otherwise as the current user.

use std::path::Path;
use std::process::{Command, Output};

use crate::support::*;

const SUITE: &str = "name = \"ro\"\ntasks = \"tasks.jsonl\"\n[defaults]\nprovider = \"mock\"\n\
                     [[scorers]]\nkind = \"equals\"\n";
const TASKS: &str = r#"{"id": "add", "input": "2 + 2", "target": "4"}
{"id": "words", "input": "say hi", "target": "hi"}
"#;

/// A directory `data/` under `root` holding `v.db` with one finished run.
fn database(root: &Path) -> std::path::PathBuf {
    write_tree(root, &[("s/suite.toml", SUITE), ("s/tasks.jsonl", TASKS)]);
    run_ok(verity(root).args(["run", "s", "--quiet", "--db", "data/v.db"]));
    let data = root.join("data");
    // SQLite removed its -wal and -shm files when verity closed the database.
    assert_eq!(
        std::fs::read_dir(&data).unwrap().count(),
        1,
        "{:?}",
        std::fs::read_dir(&data).unwrap().collect::<Vec<_>>()
    );
    data
}

/// Runs `verity ARGS` (in `cwd`) with `dir` mounted read-only over itself, or `None` when
/// this machine cannot make such a mount without privileges.
fn on_read_only_mount(cwd: &Path, dir: &Path, args: &[&str]) -> Option<Output> {
    let probe = Command::new("unshare")
        .args(["-rm", "sh", "-c"])
        .arg("mount --bind -o ro \"$1\" \"$1\" && ! touch \"$1/.probe\" 2>/dev/null")
        .arg("sh")
        .arg(dir)
        .output();
    if !probe.as_ref().is_ok_and(|o| o.status.success()) {
        eprintln!("skipped: no unprivileged read-only bind mount here ({probe:?})");
        return None;
    }
    let mut cmd = Command::new("unshare");
    cmd.current_dir(cwd)
        .env_remove("VERITY_DB")
        .env("NO_COLOR", "1")
        .args(["-rm", "sh", "-c"])
        .arg("mount --bind -o ro \"$1\" \"$1\" && shift && exec \"$@\"")
        .arg("sh")
        .arg(dir)
        .arg(bin())
        .args(args);
    Some(cmd.output().unwrap())
}

#[test]
fn reading_commands_work_on_a_read_only_mount() {
    let dir = tempfile::tempdir().unwrap();
    let data = database(dir.path());
    let Some(out) = on_read_only_mount(
        dir.path(),
        &data,
        &["runs", "--format", "json", "--db", "data/v.db"],
    ) else {
        return;
    };
    assert!(out.status.success(), "{}", stderr(&out));
    let runs: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(runs.as_array().unwrap().len(), 1, "{runs}");
    assert_eq!(runs[0]["completed"], 2);

    let out = on_read_only_mount(
        dir.path(),
        &data,
        &["report", "latest", "--format", "json", "--db", "data/v.db"],
    )
    .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(report["per_task"].as_array().unwrap().len(), 2);

    let out =
        on_read_only_mount(dir.path(), &data, &["cache", "stats", "--db", "data/v.db"]).unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("entries"), "{}", stdout(&out));

    // A command that writes says why it cannot.
    let out = on_read_only_mount(
        dir.path(),
        &data,
        &["run", "s", "--quiet", "--db", "data/v.db"],
    )
    .unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(
        err.contains("cannot open the database data/v.db") && err.contains("read-only file system"),
        "{err}"
    );
    // And nothing was left behind on the mount.
    assert_eq!(std::fs::read_dir(&data).unwrap().count(), 1);
}

/// A write-ahead log holding commits the database file lacks cannot be read on a read-only
/// mount without its shared-memory file; it is named, never silently skipped.
#[test]
fn a_pending_log_on_a_read_only_mount_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let data = database(dir.path());
    let copy = dir.path().join("copy");
    std::fs::create_dir(&copy).unwrap();
    {
        let c = rusqlite::Connection::open(data.join("v.db")).unwrap();
        c.execute_batch("PRAGMA wal_autocheckpoint = 0; UPDATE runs SET suite_name = 'changed'")
            .unwrap();
        for f in ["v.db", "v.db-wal"] {
            std::fs::copy(data.join(f), copy.join(f)).unwrap();
        }
    }
    let Some(out) = on_read_only_mount(dir.path(), &copy, &["runs", "--db", "copy/v.db"]) else {
        return;
    };
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(
        err.contains("write-ahead log") && err.contains("v.db-wal"),
        "{err}"
    );
    // Where it is writable, the log is read.
    let out = run_ok(verity(dir.path()).args(["runs", "--db", "copy/v.db"]));
    assert!(stdout(&out).contains("changed"), "{}", stdout(&out));
}

#[test]
fn reading_commands_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let data = database(dir.path());
    let before = std::fs::read(data.join("v.db")).unwrap();
    for args in [
        &["runs", "--db", "data/v.db"][..],
        &["report", "latest", "--format", "md", "--db", "data/v.db"],
        &["cache", "stats", "--db", "data/v.db"],
    ] {
        run_ok(verity(dir.path()).args(args));
    }
    assert_eq!(std::fs::read(data.join("v.db")).unwrap(), before);
    // A reader of a WAL database leaves the (empty) log and its index for the next writer to
    // clean up: it may not delete them.
    let wal = std::fs::metadata(data.join("v.db-wal")).map_or(0, |m| m.len());
    assert_eq!(wal, 0);
}

fn fails_with(cwd: &Path, args: &[&str], needles: &[&str]) {
    let out = verity(cwd).args(args).output().unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(3), "{args:?}: {err}");
    for n in needles {
        assert!(err.contains(n), "{args:?}: `{n}` not in: {err}");
    }
    assert!(!err.contains("unable to open database file"), "{err}");
}

#[test]
fn open_errors_name_their_cause() {
    let dir = tempfile::tempdir().unwrap();
    let cwd = dir.path();
    write_tree(cwd, &[("s/suite.toml", SUITE), ("s/tasks.jsonl", TASKS)]);
    std::fs::create_dir(cwd.join("a-dir.db")).unwrap();
    std::fs::write(cwd.join("junk.db"), b"not a database at all; ".repeat(200)).unwrap();
    std::fs::write(cwd.join("short.db"), b"x").unwrap();
    for db in ["a-dir.db"] {
        for args in [
            &["runs", "--db", db][..],
            &["report", "latest", "--db", db],
            &["cache", "stats", "--db", db],
            &["run", "s", "--quiet", "--db", db],
        ] {
            fails_with(
                cwd,
                args,
                &["cannot open the database a-dir.db", "is a directory"],
            );
        }
    }
    for db in ["junk.db", "short.db"] {
        for args in [
            &["runs", "--db", db][..],
            &["report", "latest", "--db", db],
            &["run", "s", "--quiet", "--db", db],
        ] {
            fails_with(cwd, args, &[db, "not a SQLite database"]);
        }
    }
    // An empty file is an empty SQLite database: the reading commands do not make it a store.
    std::fs::write(cwd.join("empty.db"), b"").unwrap();
    fails_with(
        cwd,
        &["report", "latest", "--db", "empty.db"],
        &["not a verity store"],
    );
    assert_eq!(std::fs::read(cwd.join("empty.db")).unwrap(), b"");
}

#[cfg(unix)]
#[test]
fn permission_errors_name_the_path() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    use std::os::unix::process::CommandExt;
    let dir = tempfile::tempdir().unwrap();
    let data = database(dir.path());
    let root = std::fs::metadata(&data).unwrap().uid() == 0;
    let as_user = |args: &[&str]| -> std::io::Result<Output> {
        let mut c = verity(Path::new("/"));
        c.args(args);
        if root {
            c.uid(65534).gid(65534);
        }
        c.output()
    };
    if !as_user(&["--version"]).is_ok_and(|o| o.status.success()) {
        eprintln!("skipped: verity cannot be run as an unprivileged user here");
        return;
    }
    let as_user = |args: &[&str]| as_user(args).unwrap();
    let db = data.join("v.db");
    let db = db.to_str().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::set_permissions(&data, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::set_permissions(data.join("v.db"), std::fs::Permissions::from_mode(0o600)).unwrap();
    let unreadable = as_user(&["runs", "--db", db]);
    let err = stderr(&unreadable);
    assert_eq!(unreadable.status.code(), Some(3), "{err}");
    assert!(
        err.contains("permission denied") && err.contains("cannot read"),
        "{err}"
    );

    std::fs::set_permissions(data.join("v.db"), std::fs::Permissions::from_mode(0o644)).unwrap();
    std::fs::set_permissions(&data, std::fs::Permissions::from_mode(0o700)).unwrap();
    for args in [&["runs", "--db", db][..], &["report", "latest", "--db", db]] {
        let out = as_user(args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(3), "{args:?}: {err}");
        assert!(
            err.contains("permission denied") && err.contains("cannot reach"),
            "{err}"
        );
    }
    // A directory the user may read but not write: reading works (read-only), writing says why.
    std::fs::set_permissions(&data, std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = as_user(&["runs", "--db", db]);
    assert!(out.status.success(), "{}", stderr(&out));
    std::fs::set_permissions(data.join("v.db"), std::fs::Permissions::from_mode(0o644)).unwrap();
    let suite = dir.path().join("s");
    std::fs::set_permissions(&suite, std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = as_user(&["run", suite.to_str().unwrap(), "--quiet", "--db", db]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(
        err.contains("permission denied") && err.contains("cannot write"),
        "{err}"
    );
}
