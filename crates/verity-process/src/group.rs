//! Signalling a child's process group.

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
    }
}
