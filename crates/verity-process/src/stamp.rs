//! Who a process is, in a way that outlives it: its pid, when it started (so a pid the system
//! gave to another process since is not mistaken for it), the boot it ran in and the machine.
//! A run records its owner's stamp, so a run whose process is gone (killed, crashed, the
//! machine rebooted) can be told from one that is still running.

use std::sync::OnceLock;

/// A process, as recorded while it ran.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProcessStamp {
    pub pid: u32,
    /// When it started, in clock ticks since boot (field 22 of `/proc/PID/stat`); `None` where
    /// that cannot be read.
    pub start_ticks: Option<u64>,
    /// The kernel's boot id (`/proc/sys/kernel/random/boot_id`): after a reboot every pid
    /// belongs to someone else.
    pub boot_id: Option<String>,
    /// The machine's host name.
    pub host: Option<String>,
}

/// Whether a stamped process still runs, as seen from here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StampState {
    /// It runs on this machine.
    Alive,
    /// It is gone: no process has its pid, the one that has started at another time, or the
    /// machine rebooted since.
    Gone,
    /// It ran on another machine (or nothing says which): this one cannot tell.
    Unknown,
}

/// What a process with a given pid looks like now: `None` when there is none, else its start
/// time (`None` inside when unreadable).
type Probe<'a> = &'a dyn Fn(u32) -> Option<Option<u64>>;

impl ProcessStamp {
    /// This process.
    pub fn current() -> ProcessStamp {
        let pid = std::process::id();
        ProcessStamp {
            pid,
            start_ticks: start_ticks(pid),
            boot_id: here().boot_id.clone(),
            host: here().host.clone(),
        }
    }

    /// Whether it still runs, as this machine sees it.
    pub fn state(&self) -> StampState {
        self.state_with(here(), &probe)
    }

    fn state_with(&self, here: &Here, probe: Probe<'_>) -> StampState {
        let same_host = match (&self.host, &here.host) {
            (Some(a), Some(b)) if a != b => return StampState::Unknown,
            (Some(_), Some(_)) => true,
            _ => false,
        };
        match (&self.boot_id, &here.boot_id) {
            (Some(a), Some(b)) if a != b => {
                // Rebooted since, if it is this machine; else another machine.
                return if same_host {
                    StampState::Gone
                } else {
                    StampState::Unknown
                };
            }
            (Some(_), Some(_)) => {}
            _ if !same_host => return StampState::Unknown,
            _ => {}
        }
        match probe(self.pid) {
            None => StampState::Gone,
            Some(now) => match (self.start_ticks, now) {
                (Some(then), Some(now)) if then != now => StampState::Gone,
                _ => StampState::Alive,
            },
        }
    }
}

/// This machine: its boot id and host name, read once.
#[derive(Debug)]
struct Here {
    boot_id: Option<String>,
    host: Option<String>,
}

fn here() -> &'static Here {
    static HERE: OnceLock<Here> = OnceLock::new();
    HERE.get_or_init(|| Here {
        boot_id: read_trimmed("/proc/sys/kernel/random/boot_id"),
        host: read_trimmed("/proc/sys/kernel/hostname")
            .or_else(|| read_trimmed("/etc/hostname"))
            .or_else(|| std::env::var("HOSTNAME").ok().filter(|h| !h.is_empty())),
    })
}

fn read_trimmed(path: &str) -> Option<String> {
    let text = std::fs::read_to_string(path).ok()?;
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_owned())
}

/// A process's start time in clock ticks since boot, from `/proc/PID/stat`.
fn start_ticks(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    parse_start_ticks(&stat)
}

/// Field 22 of a `/proc/PID/stat` line; the command name (field 2, in parentheses) may hold
/// spaces and parentheses, so fields are counted after its last `)`.
fn parse_start_ticks(stat: &str) -> Option<u64> {
    let (_, rest) = stat.rsplit_once(')')?;
    // `rest` starts at field 3 (the state): field 22 is its 20th.
    rest.split_whitespace().nth(19)?.parse().ok()
}

/// Whether a process with this pid exists, and when it started. A zombie (exited, not yet
/// reaped) counts as gone.
fn probe(pid: u32) -> Option<Option<u64>> {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => {
            let state = stat
                .rsplit_once(')')
                .and_then(|(_, rest)| rest.split_whitespace().next());
            if matches!(state, Some("Z" | "X")) {
                return None;
            }
            Some(parse_start_ticks(&stat))
        }
        Err(_) if std::path::Path::new("/proc/self/stat").exists() => None,
        // No /proc here: ask the system whether the pid exists; its start time is unknown.
        Err(_) => exists(pid).then_some(None),
    }
}

fn exists(pid: u32) -> bool {
    #[cfg(unix)]
    if let Some(pid) = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    {
        return match rustix::process::test_kill_process(pid) {
            Ok(()) => true,
            // It exists, owned by someone else.
            Err(e) => e == rustix::io::Errno::PERM,
        };
    }
    let _ = pid;
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stamp(host: Option<&str>, boot: Option<&str>, start: Option<u64>) -> ProcessStamp {
        ProcessStamp {
            pid: 4242,
            start_ticks: start,
            boot_id: boot.map(str::to_owned),
            host: host.map(str::to_owned),
        }
    }

    fn here(host: Option<&str>, boot: Option<&str>) -> Here {
        Here {
            boot_id: boot.map(str::to_owned),
            host: host.map(str::to_owned),
        }
    }

    #[test]
    fn a_stamp_is_alive_gone_or_unknown() {
        let running = |start: Option<u64>| move |pid: u32| (pid == 4242).then_some(start);
        let none = |_: u32| None;
        let h = here(Some("box"), Some("b1"));
        let s = stamp(Some("box"), Some("b1"), Some(100));
        assert_eq!(s.state_with(&h, &running(Some(100))), StampState::Alive);
        // The pid was given to another process since.
        assert_eq!(s.state_with(&h, &running(Some(999))), StampState::Gone);
        assert_eq!(s.state_with(&h, &none), StampState::Gone);
        // Unreadable start times: the pid alone decides.
        assert_eq!(s.state_with(&h, &running(None)), StampState::Alive);
        // Rebooted since: gone, whatever has the pid now.
        let rebooted = here(Some("box"), Some("b2"));
        assert_eq!(
            s.state_with(&rebooted, &running(Some(100))),
            StampState::Gone
        );
        // Another machine: cannot tell.
        let other = here(Some("elsewhere"), Some("b1"));
        assert_eq!(s.state_with(&other, &none), StampState::Unknown);
        let unnamed = stamp(None, Some("b0"), Some(100));
        assert_eq!(unnamed.state_with(&h, &none), StampState::Unknown);
        // Same boot, no host names: the pid decides.
        let anonymous = stamp(None, Some("b1"), Some(100));
        assert_eq!(
            anonymous.state_with(&here(None, Some("b1")), &none),
            StampState::Gone
        );
        // Nothing to compare: cannot tell.
        assert_eq!(
            stamp(None, None, None).state_with(&here(None, None), &none),
            StampState::Unknown
        );
    }

    #[test]
    fn start_ticks_are_read_past_odd_command_names() {
        let stat = "77 (a) b (c)) S 1 77 77 0 -1 4194560 100 0 0 0 0 0 0 0 20 0 1 0 123456 1000 10";
        assert_eq!(parse_start_ticks(stat), Some(123456));
        assert_eq!(parse_start_ticks("garbage"), None);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn this_process_is_alive_and_a_finished_one_is_gone() {
        let me = ProcessStamp::current();
        assert!(me.start_ticks.is_some() && me.boot_id.is_some());
        assert_eq!(me.state(), StampState::Alive);
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id();
        child.wait().unwrap();
        let gone = ProcessStamp { pid, ..me.clone() };
        assert_eq!(gone.state(), StampState::Gone);
        // The same pid with another start time: someone else.
        let recycled = ProcessStamp {
            start_ticks: me.start_ticks.map(|t| t + 1),
            ..me
        };
        assert_eq!(recycled.state(), StampState::Gone);
    }
}
