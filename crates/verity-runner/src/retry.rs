use std::time::Duration;

use verity_model::ProviderError;

/// How failed provider calls are retried: plain data (seed 003 §4, nextest's retry policy).
///
/// Exponential backoff from `initial` doubling up to `max_delay`, with "equal jitter" (half the
/// delay fixed, half random) so concurrent samples that failed together do not retry together.
/// A `Retry-After` from the provider replaces the computed delay (capped at `max_delay`). Only
/// errors the provider classifies as retryable are retried.
#[derive(Clone, Debug, PartialEq)]
pub struct RetryPolicy {
    pub max_retries: u32,
    pub initial: Duration,
    pub max_delay: Duration,
    pub jitter: bool,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_retries: 5,
            initial: Duration::from_millis(500),
            max_delay: Duration::from_secs(30),
            jitter: true,
        }
    }
}

impl RetryPolicy {
    /// The delay before retry number `retry` (1-based) after `err`, or `None` when the error
    /// must not be retried or the retries are used up.
    pub fn delay(&self, retry: u32, err: &ProviderError, random: f64) -> Option<Duration> {
        if !err.is_retryable() || retry > self.max_retries {
            return None;
        }
        if let Some(after) = err.retry_after() {
            return Some(after.min(self.max_delay));
        }
        let exp = self.initial.saturating_mul(1u32 << (retry - 1).min(20));
        let base = exp.min(self.max_delay);
        if !self.jitter {
            return Some(base);
        }
        let half = base / 2;
        Some(half + half.mul_f64(random.clamp(0.0, 1.0)))
    }
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
        let d: Vec<_> = (1..=7).map(|r| p.delay(r, &e, 0.5)).collect();
        assert_eq!(d[0], Some(Duration::from_millis(500)));
        assert_eq!(d[1], Some(Duration::from_millis(1000)));
        assert_eq!(d[4], Some(Duration::from_millis(8000)));
        assert_eq!(d[5], None, "five retries at most");
        let capped = RetryPolicy {
            max_retries: 20,
            jitter: false,
            ..RetryPolicy::default()
        };
        assert_eq!(capped.delay(12, &e, 0.0), Some(Duration::from_secs(30)));
    }

    #[test]
    fn jitter_stays_within_half_to_full() {
        let p = RetryPolicy::default();
        let e = ProviderError::new(ProviderErrorKind::Timeout, "t");
        assert_eq!(p.delay(2, &e, 0.0), Some(Duration::from_millis(500)));
        assert_eq!(p.delay(2, &e, 1.0), Some(Duration::from_millis(1000)));
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
        assert_eq!(p.delay(1, &e, 0.3), Some(Duration::from_secs(2)));
        let bad = ProviderError::new(ProviderErrorKind::Client { status: 400 }, "bad");
        assert_eq!(p.delay(1, &bad, 0.3), None);
        let auth = ProviderError::new(ProviderErrorKind::Auth { status: 401 }, "no");
        assert_eq!(p.delay(1, &auth, 0.3), None);
    }
}
