//! Ctrl-C and SIGTERM. Every child verity starts runs in its own process group (so the
//! terminal's Ctrl-C reaches verity alone, which then decides), so verity must end them itself:
//! a run drains and stops its own (`commands/execute.rs` takes the signals over while it runs),
//! `mcp serve --http` ends its sessions and exits 0 (`commands/mcp.rs`); any other command kills the groups of the children still running
//! ([`verity_process::kill_all`]: a `git` clone, a compiler, a grounding server being checked)
//! and exits 130 at once.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::exit;

/// Set while the command handles the signals itself.
static COMMAND_HANDLES_SIGNALS: AtomicBool = AtomicBool::new(false);

/// From now on the command handles Ctrl-C and SIGTERM itself (a run: a drain, then an abort;
/// a server: a clean stop).
pub fn command_handles_signals() {
    COMMAND_HANDLES_SIGNALS.store(true, Ordering::SeqCst);
}

/// Watches for Ctrl-C and SIGTERM on a thread of its own, for the life of the process.
pub fn install() {
    let spawned = std::thread::Builder::new()
        .name("signals".into())
        .spawn(|| {
            let Ok(rt) = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            else {
                return;
            };
            rt.block_on(watch());
        });
    // Without the thread the default disposition stays: verity dies of the signal.
    drop(spawned);
}

async fn watch() {
    #[cfg(unix)]
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).ok();
    loop {
        #[cfg(unix)]
        let received = async {
            match term.as_mut() {
                Some(term) => term.recv().await.is_some(),
                None => std::future::pending().await,
            }
        };
        #[cfg(not(unix))]
        let received = std::future::pending::<bool>();
        tokio::select! {
            r = tokio::signal::ctrl_c() => if r.is_err() { return },
            _ = received => {}
        }
        if COMMAND_HANDLES_SIGNALS.load(Ordering::SeqCst) {
            continue;
        }
        verity_process::kill_all();
        eprintln!("\ninterrupted");
        std::process::exit(i32::from(exit::INTERRUPTED));
    }
}
