//! Client tests against real server processes: the test server binary (the reference docs
//! server plus `crash` and `sleep`), commands that fail, and raw JSON-RPC on its stdio.

mod client;
#[cfg(target_os = "linux")]
mod groups;
mod http;
mod stdio;

use std::collections::BTreeMap;
use std::time::Duration;

use verity_mcp::GroundingServer;
use verity_model::ServerSpec;

/// Generous: the machine running the tests may be busy.
pub const STARTUP: Duration = Duration::from_secs(30);
pub const CALL: Duration = Duration::from_secs(20);

pub const TEST_SERVER: &str = env!("CARGO_BIN_EXE_verity-mcp-test-server");

pub fn spec(args: &[&str]) -> ServerSpec {
    let mut command = vec![TEST_SERVER.to_owned()];
    command.extend(args.iter().map(|a| (*a).to_owned()));
    ServerSpec {
        command,
        env: BTreeMap::new(),
        cwd: None,
        ..Default::default()
    }
}

pub fn shell(script: &str) -> ServerSpec {
    ServerSpec {
        command: vec!["sh".into(), "-c".into(), script.into()],
        env: BTreeMap::new(),
        cwd: None,
        ..Default::default()
    }
}

pub async fn start_test_server() -> GroundingServer {
    match GroundingServer::start("docs", &spec(&[]), STARTUP).await {
        Ok(server) => server,
        Err(e) => panic!("the test server did not start: {}", e),
    }
}

/// Whether a process with this id still exists (not counting one we have reaped).
#[cfg(unix)]
pub fn alive(pid: u32) -> bool {
    let Some(pid) = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    else {
        return false;
    };
    rustix::process::test_kill_process(pid).is_ok()
}

#[cfg(unix)]
pub async fn wait_gone(pid: u32, within: Duration) -> bool {
    let deadline = tokio::time::Instant::now() + within;
    while tokio::time::Instant::now() < deadline {
        if !alive(pid) {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    !alive(pid)
}
