use std::time::Duration;

use verity_model::ProviderError;

/// How failed provider calls are retried: plain data (seed 003 §4, nextest's retry policy).
///
/// Exponential backoff from `initial` doubling up to `max_delay`, with "equal jitter" (half the
/// delay fixed, half random) so concurrent samples that failed together do not retry together.
/// A `Retry-After` from the provider sets the least delay (capped at `max_delay`), and jitter is
/// added on top of it too: fifty samples told "retry after 1 s" must not return in the same
/// instant. Only errors the provider classifies as retryable are retried.
///
/// Rate limits are retried on time, not on count: a `429` is retried until `max_elapsed` has
/// passed since the sample's first attempt, and does not use up `max_retries`, which bounds the
/// other retryable errors (5xx, timeouts, broken connections). A rate limit says "later", not
/// "no": a storm should cost time, never samples.
#[derive(Clone, Debug, PartialEq)]
pub struct RetryPolicy {
    pub max_retries: u32,
    pub initial: Duration,
    pub max_delay: Duration,
    pub jitter: bool,
    /// How long a sample keeps retrying rate limits, from its first attempt.
    pub max_elapsed: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_retries: 5,
            initial: Duration::from_millis(500),
            max_delay: Duration::from_secs(30),
            jitter: true,
            max_elapsed: Duration::from_secs(120),
        }
    }
}

impl RetryPolicy {
    /// The delay before the next retry after `err`, or `None` when the error must not be
    /// retried or the retries are used up. `retry` is the 1-based number of this retry among
    /// those of its kind (rate limits are counted apart from other errors); `elapsed` is the
    /// time since the sample's first attempt.
    pub fn delay(
        &self,
        retry: u32,
        err: &ProviderError,
        elapsed: Duration,
        random: f64,
    ) -> Option<Duration> {
        if !err.is_retryable() {
            return None;
        }
        let rate_limited = is_rate_limit(err);
        if !rate_limited && retry > self.max_retries {
            return None;
        }
        let random = random.clamp(0.0, 1.0);
        let delay = match err.retry_after() {
            Some(after) => {
                let after = after.min(self.max_delay);
                if self.jitter {
                    // Spread over half the delay (at least half the initial backoff), so a
                    // `Retry-After: 0` storm does not come straight back either.
                    let spread = after.max(self.initial) / 2;
                    after + spread.mul_f64(random)
                } else {
                    after
                }
            }
            None => {
                let exp = self
                    .initial
                    .saturating_mul(1u32 << (retry.max(1) - 1).min(20));
                let base = exp.min(self.max_delay);
                if self.jitter {
                    let half = base / 2;
                    half + half.mul_f64(random)
                } else {
                    base
                }
            }
        };
        if rate_limited && elapsed.saturating_add(delay) > self.max_elapsed {
            return None;
        }
        Some(delay)
    }
}

/// Whether `err` is a rate limit (retried on time rather than on count).
pub(crate) fn is_rate_limit(err: &ProviderError) -> bool {
    matches!(
        err.kind,
        verity_model::ProviderErrorKind::RateLimited { .. }
    )
}

/// A cheap, non-cryptographic random number in [0, 1) for jitter.
pub(crate) fn jitter_random() -> f64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64),
    );
    (h.finish() >> 11) as f64 / (1u64 << 53) as f64
}

#[cfg(test)]
mod tests {
    use verity_model::ProviderErrorKind;

    use super::*;

    #[test]
    fn backoff_doubles_and_caps() {
        let p = RetryPolicy {
            jitter: false,
            ..RetryPolicy::default()
        };
        let e = ProviderError::new(ProviderErrorKind::Server { status: 503 }, "x");
        let d: Vec<_> = (1..=7)
            .map(|r| p.delay(r, &e, Duration::ZERO, 0.5))
            .collect();
        assert_eq!(d[0], Some(Duration::from_millis(500)));
        assert_eq!(d[1], Some(Duration::from_millis(1000)));
        assert_eq!(d[4], Some(Duration::from_millis(8000)));
        assert_eq!(d[5], None, "five retries at most");
        let capped = RetryPolicy {
            max_retries: 20,
            jitter: false,
            ..RetryPolicy::default()
        };
        assert_eq!(
            capped.delay(12, &e, Duration::ZERO, 0.0),
            Some(Duration::from_secs(30))
        );
    }

    #[test]
    fn jitter_stays_within_half_to_full() {
        let p = RetryPolicy::default();
        let e = ProviderError::new(ProviderErrorKind::Timeout, "t");
        assert_eq!(
            p.delay(2, &e, Duration::ZERO, 0.0),
            Some(Duration::from_millis(500))
        );
        assert_eq!(
            p.delay(2, &e, Duration::ZERO, 1.0),
            Some(Duration::from_millis(1000))
        );
        let r = jitter_random();
        assert!((0.0..1.0).contains(&r));
    }

    #[test]
    fn retry_after_wins_and_non_retryable_stop() {
        let p = RetryPolicy::default();
        let e = ProviderError::new(
            ProviderErrorKind::RateLimited {
                retry_after: Some(Duration::from_secs(2)),
            },
            "429",
        );
        // Retry-After is the least delay; jitter spreads up to half of it on top.
        assert_eq!(
            p.delay(1, &e, Duration::ZERO, 0.0),
            Some(Duration::from_secs(2))
        );
        assert_eq!(
            p.delay(1, &e, Duration::ZERO, 1.0),
            Some(Duration::from_secs(3))
        );
        let bad = ProviderError::new(ProviderErrorKind::Client { status: 400 }, "bad");
        assert_eq!(p.delay(1, &bad, Duration::ZERO, 0.3), None);
        let auth = ProviderError::new(ProviderErrorKind::Auth { status: 401 }, "no");
        assert_eq!(p.delay(1, &auth, Duration::ZERO, 0.3), None);
    }

    #[test]
    fn rate_limits_retry_on_time_not_count() {
        let p = RetryPolicy::default();
        let e = ProviderError::new(
            ProviderErrorKind::RateLimited {
                retry_after: Some(Duration::from_millis(50)),
            },
            "429",
        );
        // Far past max_retries, still retried while time is left…
        let d = p.delay(100, &e, Duration::from_secs(60), 0.5).unwrap();
        // …with jitter of at least half the initial backoff on a tiny Retry-After.
        assert!(
            d >= Duration::from_millis(50) && d <= Duration::from_millis(300),
            "{d:?}"
        );
        // …and not once the time budget is spent.
        assert_eq!(p.delay(2, &e, Duration::from_secs(120), 0.5), None);
        // Without Retry-After, exponential backoff, also bounded by time.
        let bare = ProviderError::new(ProviderErrorKind::RateLimited { retry_after: None }, "429");
        assert!(p.delay(30, &bare, Duration::from_secs(10), 0.5).is_some());
        assert_eq!(p.delay(30, &bare, Duration::from_secs(100), 0.5), None);
        // Other retryable errors keep their count.
        let five = ProviderError::new(ProviderErrorKind::Server { status: 503 }, "x");
        assert_eq!(p.delay(6, &five, Duration::ZERO, 0.5), None);
    }

    #[test]
    fn different_random_draws_spread_a_retry_after() {
        let p = RetryPolicy::default();
        let e = ProviderError::new(
            ProviderErrorKind::RateLimited {
                retry_after: Some(Duration::from_secs(1)),
            },
            "429",
        );
        let a = p.delay(1, &e, Duration::ZERO, 0.1).unwrap();
        let b = p.delay(1, &e, Duration::ZERO, 0.9).unwrap();
        assert!(b - a >= Duration::from_millis(300), "{a:?} {b:?}");
    }
}
