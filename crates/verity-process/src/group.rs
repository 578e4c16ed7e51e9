//! Signalling a child's process group, and the groups of the children that have not ended yet
//! (so a verity about to exit on a signal can take them along: [`kill_all`]).

use std::collections::BTreeSet;
use std::sync::Mutex;

/// The process groups of the children started and not yet ended (their group killed).
static LIVE: Mutex<BTreeSet<u32>> = Mutex::new(BTreeSet::new());

fn live() -> std::sync::MutexGuard<'static, BTreeSet<u32>> {
    LIVE.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Kills the process group of every child verity started that has not ended yet, and returns
/// how many there were. For a program about to exit without running destructors (on Ctrl-C or
/// SIGTERM, `std::process::exit`): each child runs in its own process group, so the terminal's
/// signal does not reach it, and nothing else would end it.
pub fn kill_all() -> usize {
    let groups: Vec<u32> = std::mem::take(&mut *live()).into_iter().collect();
    for &id in &groups {
        Group(Some(id)).kill();
    }
    groups.len()
}

/// A signal for a process group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Signal {
    /// `SIGTERM`: please end.
    Term,
    /// `SIGKILL`.
    Kill,
}

/// The process group a child leads (`process_group(0)`: its id is the child's pid).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Group(pub(crate) Option<u32>);

impl Group {
    /// Counts the group among the live ones ([`kill_all`]) until [`Group::ended`].
    pub(crate) fn started(self) -> Group {
        if let Some(id) = self.0 {
            live().insert(id);
        }
        self
    }

    /// Its leader has been reaped and the group killed: no longer live.
    pub(crate) fn ended(self) {
        if let Some(id) = self.0 {
            live().remove(&id);
        }
    }

    /// Signals every process of the group; false if there is none (gone already, the usual
    /// and happy case at the end of a run).
    pub(crate) fn signal(self, signal: Signal) -> bool {
        #[cfg(unix)]
        if let Some(group) = self
            .0
            .and_then(|id| i32::try_from(id).ok())
            .filter(|&id| id > 1)
            .and_then(rustix::process::Pid::from_raw)
        {
            let signal = match signal {
                Signal::Term => rustix::process::Signal::TERM,
                Signal::Kill => rustix::process::Signal::KILL,
            };
            return rustix::process::kill_process_group(group, signal).is_ok();
        }
        let _ = signal;
        false
    }

    pub(crate) fn kill(self) {
        self.signal(Signal::Kill);
    }
}

/// Kills the group when dropped: however a run ends, nothing it started outlives it.
pub(crate) struct KillOnDrop(pub(crate) Group);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        self.0.kill();
        self.0.ended();
    }
}
