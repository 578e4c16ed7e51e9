//! Why a run stops before its end on its own account (not on a user's request, which is
//! [`crate::Shutdown`]): the store cannot take more results, or the provider will not answer
//! anything (a rejected key, an endpoint that refuses every connection). Either way more calls
//! would be paid for nothing, so scheduling stops at the first such failure and calls in flight
//! are abandoned; the run is left `interrupted`, resumable once the cause is fixed.

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

use tokio::sync::watch;
use verity_model::{ErrorKind, ProviderError, ProviderErrorKind};

use crate::WriterError;

/// What stopped a run early.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// A commit failed (a full disk, an I/O error, a database locked past the busy timeout).
    Store(WriterError),
    /// The provider rejected the credentials: every call would fail alike.
    Provider {
        variant: String,
        kind: String,
        message: String,
    },
    /// Every one of the first `failures` calls to the endpoint failed to connect.
    Unreachable {
        variant: String,
        endpoint: String,
        failures: u32,
        message: String,
    },
}

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stop::Store(m) => write!(f, "the store cannot be written: {m}"),
            Stop::Provider {
                variant,
                kind,
                message,
            } => write!(
                f,
                "variant `{variant}`: the provider refused the call ({kind}): {message}"
            ),
            Stop::Unreachable {
                variant,
                endpoint,
                failures,
                message,
            } => write!(
                f,
                "variant `{variant}`: {endpoint} refused or dropped the first {failures} connections \
                 and never answered: {message}"
            ),
        }
    }
}

impl Stop {
    /// The kind of failure that stopped the run: the store's, or the provider's.
    pub fn kind(&self) -> ErrorKind {
        match self {
            Stop::Store(e) => e.kind(),
            Stop::Provider { .. } | Stop::Unreachable { .. } => ErrorKind::Provider,
        }
    }
}

/// When a provider's errors stop a run: plain data, like [`crate::RetryPolicy`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FailFast {
    /// Stop after this many consecutive connection failures at an endpoint that has not yet
    /// answered once in the run (0: never). An endpoint that has answered may be flaky; one that
    /// never has is most likely down or mistyped.
    pub connect_failures: u32,
}

impl Default for FailFast {
    fn default() -> Self {
        FailFast {
            connect_failures: 10,
        }
    }
}

/// The run's first fatal failure, shared by the samples, the writer and the scheduler.
#[derive(Debug)]
pub(crate) struct FirstStop(watch::Sender<Option<Stop>>);

impl FirstStop {
    pub(crate) fn new() -> Self {
        FirstStop(watch::channel(None).0)
    }

    /// Records `stop` unless a failure was recorded before; true when this one is the first.
    pub(crate) fn raise(&self, stop: Stop) -> bool {
        self.0.send_if_modified(|cur| {
            if cur.is_some() {
                return false;
            }
            *cur = Some(stop);
            true
        })
    }

    pub(crate) fn get(&self) -> Option<Stop> {
        self.0.borrow().clone()
    }

    pub(crate) fn is_raised(&self) -> bool {
        self.0.borrow().is_some()
    }

    pub(crate) fn subscribe(&self) -> watch::Receiver<Option<Stop>> {
        self.0.subscribe()
    }
}

/// Whether an endpoint has ever answered, and how many connections in a row it has refused.
#[derive(Debug, Default)]
pub(crate) struct Health {
    answered: AtomicBool,
    connect_failures: AtomicU32,
}

impl Health {
    /// Records one call's result; returns the failure that should stop the run, if any.
    pub(crate) fn record(
        &self,
        result: Result<(), &ProviderError>,
        variant: &str,
        endpoint: impl FnOnce() -> String,
        policy: &FailFast,
    ) -> Option<Stop> {
        let e = match result {
            Ok(()) => {
                self.answered.store(true, Ordering::SeqCst);
                self.connect_failures.store(0, Ordering::SeqCst);
                return None;
            }
            Err(e) => e,
        };
        match e.kind {
            // A rejected key fails every call alike. (A `Config` error at call time can be one
            // request's own problem, e.g. content a provider cannot encode, so it stays a
            // sample's error.)
            ProviderErrorKind::Auth { .. } => Some(Stop::Provider {
                variant: variant.to_owned(),
                kind: e.kind.as_str().to_owned(),
                message: e.message.clone(),
            }),
            ProviderErrorKind::Connection => {
                let n = self.connect_failures.fetch_add(1, Ordering::SeqCst) + 1;
                (policy.connect_failures > 0
                    && n >= policy.connect_failures
                    && !self.answered.load(Ordering::SeqCst))
                .then(|| Stop::Unreachable {
                    variant: variant.to_owned(),
                    endpoint: endpoint(),
                    failures: n,
                    message: e.message.clone(),
                })
            }
            _ => {
                self.connect_failures.store(0, Ordering::SeqCst);
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(kind: ProviderErrorKind) -> ProviderError {
        ProviderError::new(kind, "boom")
    }

    #[test]
    fn auth_stops_at_once() {
        let h = Health::default();
        let p = FailFast::default();
        let s = h.record(
            Err(&err(ProviderErrorKind::Auth { status: 401 })),
            "v",
            || "e".into(),
            &p,
        );
        assert!(
            matches!(s, Some(Stop::Provider { ref kind, .. }) if kind == "auth"),
            "{s:?}"
        );
        let s = h.record(Err(&err(ProviderErrorKind::Config)), "v", || "e".into(), &p);
        assert_eq!(s, None, "one request's config error is that sample's");
        let s = h.record(
            Err(&err(ProviderErrorKind::Server { status: 503 })),
            "v",
            || "e".into(),
            &p,
        );
        assert_eq!(s, None);
    }

    #[test]
    fn connection_failures_stop_only_an_endpoint_that_never_answered() {
        let p = FailFast {
            connect_failures: 3,
        };
        let conn = err(ProviderErrorKind::Connection);
        let h = Health::default();
        assert_eq!(h.record(Err(&conn), "v", || "e".into(), &p), None);
        assert_eq!(h.record(Err(&conn), "v", || "e".into(), &p), None);
        let s = h.record(Err(&conn), "v", || "http://x".into(), &p);
        assert!(
            matches!(s, Some(Stop::Unreachable { failures: 3, .. })),
            "{s:?}"
        );

        let flaky = Health::default();
        assert_eq!(flaky.record(Ok(()), "v", || "e".into(), &p), None);
        for _ in 0..10 {
            assert_eq!(flaky.record(Err(&conn), "v", || "e".into(), &p), None);
        }

        let off = Health::default();
        let never = FailFast {
            connect_failures: 0,
        };
        for _ in 0..100 {
            assert_eq!(off.record(Err(&conn), "v", || "e".into(), &never), None);
        }
    }

    #[test]
    fn the_first_failure_wins() {
        let f = FirstStop::new();
        assert!(!f.is_raised());
        assert!(f.raise(Stop::Store(WriterError::Commit("disk full".into()))));
        assert!(!f.raise(Stop::Store(WriterError::Commit("later".into()))));
        assert_eq!(
            f.get(),
            Some(Stop::Store(WriterError::Commit("disk full".into())))
        );
    }
}
