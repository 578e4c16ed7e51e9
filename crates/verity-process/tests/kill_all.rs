//! `kill_all`: the groups of every child not yet ended are killed (what verity does before it
//! exits on Ctrl-C), and an ended child's group is no longer counted. Alone in its test binary:
//! it kills every child this process started.

use std::io::BufRead as _;
use std::time::{Duration, Instant};

use verity_process::{Capture, Spec, kill_all};

fn gone(pid: u32) -> bool {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let running = std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
            !stat
                .rsplit_once(')')
                .is_some_and(|(_, rest)| rest.trim_start().starts_with(['Z', 'X']))
        });
        if !running {
            return true;
        }
        if Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn first_line(reader: impl std::io::Read) -> u32 {
    let mut line = String::new();
    std::io::BufReader::new(reader)
        .read_line(&mut line)
        .unwrap();
    line.trim().parse().unwrap()
}

#[cfg(target_os = "linux")]
#[tokio::test]
async fn kill_all_takes_every_live_group_along() {
    // Ended children are not counted.
    Spec::new("true").run().unwrap();
    assert_eq!(kill_all(), 0);

    let script = "sleep 60 & echo $!; wait";
    let mut blocking = Spec::new("sh")
        .args(["-c", script])
        .stdout(Capture::Piped)
        .spawn()
        .unwrap();
    let first = first_line(blocking.take_stdout().unwrap());
    let mut spawned = Spec::new("sh")
        .args(["-c", script])
        .stdout(Capture::Piped)
        .spawn_async()
        .unwrap();
    let mut line = String::new();
    tokio::io::AsyncBufReadExt::read_line(
        &mut tokio::io::BufReader::new(spawned.take_stdout().unwrap()),
        &mut line,
    )
    .await
    .unwrap();
    let second: u32 = line.trim().parse().unwrap();

    assert_eq!(kill_all(), 2);
    assert!(
        gone(first),
        "the blocking child's sleeper outlived kill_all"
    );
    assert!(
        gone(second),
        "the spawned child's sleeper outlived kill_all"
    );
    assert!(spawned.wait_exit(Duration::from_secs(5)).await.is_some());
    drop(blocking);
    drop(spawned);
    assert_eq!(kill_all(), 0);
}
