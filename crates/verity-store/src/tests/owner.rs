//! The process that owns a run: recorded when it starts and when it is claimed again, and
//! checked on every load, so a run stored as running whose process is gone shows as
//! interrupted while its stored status stays as it is.

use verity_model::{Liveness, RunStatus};

use crate::Store;

#[test]
fn a_run_is_owned_by_its_process_and_interrupted_once_that_is_gone() {
    let mut s = Store::open_in_memory().unwrap();
    let mut meta = super::meta("r1", "2026-01-01T00:00:00Z");
    meta.status = RunStatus::Running;
    s.insert_run(&meta).unwrap();
    // Inserted by this (live) process.
    assert_eq!(s.list_runs().unwrap()[0].liveness, Liveness::Alive);
    assert_eq!(s.load_run_meta("r1").unwrap().liveness, Liveness::Alive);

    // Its owner exits: a finished child's pid stands in for a killed verity.
    let mut child = std::process::Command::new("true").spawn().unwrap();
    let pid = child.id();
    child.wait().unwrap();
    s.conn
        .execute("UPDATE runs SET owner_pid = ?1 WHERE id = 'r1'", [pid])
        .unwrap();
    let listed = &s.list_runs().unwrap()[0];
    assert_eq!(listed.status, RunStatus::Running, "the stored status stays");
    assert_eq!(listed.liveness, Liveness::Gone);
    assert_eq!(listed.status.shown(listed.liveness), "interrupted");
    let meta = s.load_run_meta("r1").unwrap();
    assert_eq!(
        (meta.status, meta.liveness),
        (RunStatus::Running, Liveness::Gone)
    );

    // Resumed: this process claims it again.
    s.claim_run("r1").unwrap();
    assert_eq!(s.list_runs().unwrap()[0].liveness, Liveness::Alive);

    // Recorded on another machine: cannot tell.
    s.conn
        .execute(
            "UPDATE runs SET owner_host = 'another-machine' WHERE id = 'r1'",
            [],
        )
        .unwrap();
    let listed = &s.list_runs().unwrap()[0];
    assert_eq!(listed.liveness, Liveness::Unknown);
    assert_eq!(listed.status.shown(listed.liveness), "running?");

    // Finished runs are not checked.
    s.set_run_status("r1", RunStatus::Completed, Some("2026-01-01T00:01:00Z"))
        .unwrap();
    assert_eq!(s.list_runs().unwrap()[0].liveness, Liveness::Unchecked);
    assert!(matches!(
        s.claim_run("missing"),
        Err(crate::StoreError::NoSuchRun(_))
    ));
}
