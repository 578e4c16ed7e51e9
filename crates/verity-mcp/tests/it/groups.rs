//! A grounding server's process group: when its leader exits, crashes or is killed mid-run, the
//! rest of its group (here a background `sleep` the wrapping shell started, and the server
//! itself, a child of that shell) is gone promptly, as with a server started by `npx` or
//! `sh -c`.

use std::path::Path;
use std::time::Duration;

use serde_json::json;
use verity_mcp::{GroundingServer, McpError};
use verity_model::ServerSpec;

use crate::{CALL, STARTUP, TEST_SERVER};

/// How long the rest of a group may outlive its leader.
const PROMPTLY: Duration = Duration::from_secs(5);

/// `sh` starts a sleeper in the background (its pid in `pid_file`), then the test server as its
/// child (not `exec`: the shell stays the group's leader), and exits with the server's status.
fn wrapped(pid_file: &Path) -> ServerSpec {
    let script = "sleep 60 </dev/null >/dev/null 2>&1 & echo $! > \"$0\"; \"$1\"; exit $?";
    ServerSpec {
        command: vec![
            "sh".into(),
            "-c".into(),
            script.into(),
            pid_file.display().to_string(),
            TEST_SERVER.into(),
        ],
        ..Default::default()
    }
}

/// Whether the process exists and is not a zombie (a zombie was killed; reaping it is its new
/// parent's business).
fn running(pid: u32) -> bool {
    crate::alive(pid)
        && !std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
            stat.rsplit_once(')')
                .is_some_and(|(_, rest)| rest.trim_start().starts_with(['Z', 'X']))
        })
}

async fn gone(pid: u32) -> bool {
    let deadline = tokio::time::Instant::now() + PROMPTLY;
    while running(pid) {
        if tokio::time::Instant::now() >= deadline {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    true
}

fn read_pid(file: &Path) -> u32 {
    match std::fs::read_to_string(file)
        .ok()
        .and_then(|s| s.trim().parse().ok())
    {
        Some(pid) => pid,
        None => panic!("no pid in {}", file.display()),
    }
}

/// The test server's pid: the one child of the shell that is not the sleeper.
fn server_pid(shell: u32, sleeper: u32) -> u32 {
    let children =
        std::fs::read_to_string(format!("/proc/{shell}/task/{shell}/children")).unwrap_or_default();
    let found = children
        .split_whitespace()
        .filter_map(|p| p.parse::<u32>().ok())
        .find(|&p| p != sleeper);
    match found {
        Some(pid) => pid,
        None => panic!("the shell {shell} has no server child ({children:?})"),
    }
}

async fn start(pid_file: &Path) -> (GroundingServer, u32, u32) {
    let server = match GroundingServer::start("wrapped", &wrapped(pid_file), STARTUP).await {
        Ok(server) => server,
        Err(e) => panic!("the wrapped test server did not start: {}", e),
    };
    let sleeper = read_pid(pid_file);
    let leader = server.pid().unwrap();
    let child = server_pid(leader, sleeper);
    assert!(running(sleeper) && running(child));
    (server, sleeper, child)
}

#[tokio::test]
async fn a_server_whose_leader_exits_leaves_nothing_running() {
    let dir = tempfile::tempdir().unwrap();
    let (server, sleeper, child) = start(&dir.path().join("pid")).await;
    // The server exits; the shell, its leader, exits with it; the sleeper must go too.
    let err = server
        .call("crash", json!({"code": 3}), CALL)
        .await
        .unwrap_err();
    assert!(matches!(err, McpError::Exited { .. }), "{:?}", err);
    assert!(gone(child).await, "the server {child} is still running");
    assert!(
        gone(sleeper).await,
        "the sleeper {sleeper} outlived its group"
    );
    server.shutdown().await;
}

#[tokio::test]
async fn a_server_whose_leader_is_killed_mid_run_leaves_nothing_running() {
    let dir = tempfile::tempdir().unwrap();
    let (server, sleeper, child) = start(&dir.path().join("pid")).await;
    let leader = server.pid().unwrap();
    // Only the leader is killed (as the OOM killer or a stray `kill -9` would), while the run
    // still holds the server: its server child and the sleeper must not run on.
    let pid = rustix::process::Pid::from_raw(i32::try_from(leader).unwrap()).unwrap();
    rustix::process::kill_process(pid, rustix::process::Signal::KILL).unwrap();
    assert!(gone(child).await, "the server {child} outlived its leader");
    assert!(
        gone(sleeper).await,
        "the sleeper {sleeper} outlived its leader"
    );
    let err = server
        .search("Observable", 1, CALL)
        .await
        .expect_err("the server is gone");
    assert!(err.is_fatal(), "{:?}", err);
    server.shutdown().await;
}

#[tokio::test]
async fn a_server_shut_down_or_dropped_leaves_nothing_running() {
    let dir = tempfile::tempdir().unwrap();
    let (server, sleeper, child) = start(&dir.path().join("pid")).await;
    server.shutdown().await;
    assert!(gone(child).await && gone(sleeper).await);

    let (server, sleeper, child) = start(&dir.path().join("pid2")).await;
    drop(server);
    assert!(gone(child).await && gone(sleeper).await);
}
