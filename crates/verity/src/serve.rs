//! What verity's HTTP servers share (`verity mcp serve --http`, `verity view`): binding an
//! address with the loopback stance, the `listening on` line, and a clean stop on Ctrl-C or
//! SIGTERM.
//!
//! The servers have no authentication, so they listen on loopback unless the user named an
//! address explicitly: a non-loopback address that was not given on the command line is
//! refused, and one that was is served after a warning on standard error.

use std::net::SocketAddr;

use verity_model::ErrorKind;

use crate::CliError;

/// Where a server may listen: `addr` bound, refused, or accepted with a warning to print.
/// `explicit`: the user gave the host on the command line (`--host`, `--http ADDR`).
pub fn check_bind(who: &str, local: SocketAddr, explicit: bool) -> Result<Option<String>, String> {
    if local.ip().is_loopback() {
        return Ok(None);
    }
    if !explicit {
        return Err(format!(
            "{who}: refusing to serve on {local}, which is not a loopback address: there is no \
             authentication; name the address explicitly (--host) to serve it anyway"
        ));
    }
    Ok(Some(format!(
        "{who}: warning: serving on {local}, which is not a loopback address, without \
         authentication: anyone who can reach it can use the server"
    )))
}

/// Binds `addr` (`HOST:PORT`; port 0: any free one) for the server `who` (`verity view`), as
/// [`check_bind`] allows, and prints `listening on http://HOST:PORT{path}` on standard error
/// (after the warning, when there is one). `flag` names the option the address came from, for
/// the errors.
pub async fn bind(
    who: &str,
    flag: &str,
    addr: &str,
    explicit: bool,
    path: &str,
) -> Result<tokio::net::TcpListener, CliError> {
    let listener = tokio::net::TcpListener::bind(addr).await.map_err(|e| {
        let kind = if e.kind() == std::io::ErrorKind::AddrInUse {
            ErrorKind::Io
        } else {
            ErrorKind::Usage
        };
        CliError::new(
            kind,
            format!("{flag} {addr}: cannot listen there: {e} (give HOST:PORT, e.g. 127.0.0.1:0)"),
        )
    })?;
    let local = listener
        .local_addr()
        .map_err(|e| CliError::io(format!("{flag} {addr}: {e}")))?;
    match check_bind(who, local, explicit) {
        Ok(Some(warning)) => eprintln!("{warning}"),
        Ok(None) => {}
        Err(refused) => return Err(CliError::usage(refused)),
    }
    eprintln!("listening on http://{local}{path}");
    Ok(listener)
}

/// A future that completes at the first Ctrl-C (SIGINT) or SIGTERM, which from this call on
/// stop the server `who` cleanly (exit 0) instead of `interrupt`'s exit 130. Call it before
/// saying where the server listens (inside the runtime): the signals are caught from then on,
/// so one sent as soon as the address is known is not lost.
pub fn stop_signal(who: &str) -> impl Future<Output = ()> + use<> {
    crate::interrupt::command_handles_signals();
    let who = who.to_owned();
    #[cfg(unix)]
    let streams = {
        use tokio::signal::unix::{SignalKind, signal};
        (
            signal(SignalKind::interrupt()).ok(),
            signal(SignalKind::terminate()).ok(),
        )
    };
    async move {
        #[cfg(unix)]
        {
            let (mut int, mut term) = streams;
            tokio::select! {
                () = next(int.as_mut()) => {}
                () = next(term.as_mut()) => {}
            }
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
        }
        eprintln!("{who}: stopping");
    }
}

/// The next signal on `stream`; never, without one.
#[cfg(unix)]
async fn next(stream: Option<&mut tokio::signal::unix::Signal>) {
    match stream {
        Some(s) => {
            s.recv().await;
        }
        None => std::future::pending().await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_is_served_without_a_word() {
        for a in ["127.0.0.1:8178", "[::1]:0", "127.1.2.3:1"] {
            assert_eq!(check_bind("v", a.parse().unwrap(), false), Ok(None), "{a}");
        }
    }

    #[test]
    fn another_address_is_refused_unless_explicit_and_then_warned_about() {
        let any: SocketAddr = "0.0.0.0:8178".parse().unwrap();
        let refused = check_bind("verity view", any, false).unwrap_err();
        assert!(
            refused.contains("refusing") && refused.contains("--host"),
            "{refused}"
        );
        let warned = check_bind("verity view", any, true).unwrap().unwrap();
        assert!(
            warned.contains("warning") && warned.contains("0.0.0.0:8178"),
            "{warned}"
        );
        let lan: SocketAddr = "192.168.1.4:80".parse().unwrap();
        assert!(check_bind("v", lan, false).is_err());
    }
}
