//! What kind of failure an error is. Every library error that can reach the command line says
//! its kind (`kind()`), and the binary maps kinds to exit codes in one table
//! (`crates/verity/src/exit.rs`), so no call site picks an exit code by hand.

/// The kinds of failure, from the user's side: what they did wrong, or what around them failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// A bad flag, option or request (an unknown variant, `--epochs 0`, a bad glob).
    Usage,
    /// A suite that does not validate; its diagnostics point at file:line:column.
    Suite,
    /// Something named does not exist: a run id, a database, a model, a file.
    NotFound,
    /// A provider or server is misconfigured (a missing API key variable, an unknown kind).
    Config,
    /// verity refuses to start: over budget, a report file that may not be replaced.
    Refused,
    /// The store could not be opened, read or written.
    Store,
    /// A file outside the store could not be read or written.
    Io,
    /// A provider or grounding server failed the run: a refused key, an endpoint that never
    /// answered, a server that would not start, every sample an infrastructure error.
    Provider,
    /// A fault of verity itself (the engine lost a task, the runtime would not start).
    Internal,
}

impl ErrorKind {
    /// Every kind, in the order `docs/exit-codes.md` lists them.
    pub const ALL: [ErrorKind; 9] = [
        ErrorKind::Usage,
        ErrorKind::Suite,
        ErrorKind::NotFound,
        ErrorKind::Config,
        ErrorKind::Refused,
        ErrorKind::Store,
        ErrorKind::Io,
        ErrorKind::Provider,
        ErrorKind::Internal,
    ];

    /// The kind's name as documented (`not_found`).
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::Usage => "usage",
            ErrorKind::Suite => "suite",
            ErrorKind::NotFound => "not_found",
            ErrorKind::Config => "config",
            ErrorKind::Refused => "refused",
            ErrorKind::Store => "store",
            ErrorKind::Io => "io",
            ErrorKind::Provider => "provider",
            ErrorKind::Internal => "internal",
        }
    }
}

impl std::fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
