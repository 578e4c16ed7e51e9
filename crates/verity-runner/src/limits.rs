//! Per-provider limits: concurrency, requests per minute and tokens per minute.
//!
//! Variants that talk to the same endpoint share one [`ProviderLimits`], so two variants of one
//! model cannot together exceed the provider's quota. Rate limits are token buckets that refill
//! continuously (`limit / 60` per second, up to one minute's worth), driven by tokio's clock so
//! tests can pause time.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{Mutex, OwnedSemaphorePermit, Semaphore};
use tokio::time::Instant;

/// Limits as configured (`verity.toml` `[providers.KIND]`, or a provider's options).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LimitSpec {
    /// Calls in flight to this provider at once (on top of the run's global limit).
    pub max_concurrent: Option<usize>,
    /// Requests per minute.
    pub rpm: Option<u32>,
    /// Tokens (input + output) per minute.
    pub tpm: Option<u64>,
}

/// A continuously refilling token bucket.
#[derive(Debug)]
pub struct RateLimiter {
    per_minute: f64,
    state: Mutex<(f64, Instant)>,
}

impl RateLimiter {
    pub fn per_minute(limit: u64) -> Self {
        let limit = limit.max(1) as f64;
        RateLimiter {
            per_minute: limit,
            state: Mutex::new((limit, Instant::now())),
        }
    }

    /// Waits until `amount` tokens are available and takes them. An amount larger than the
    /// bucket waits for a full bucket and takes it all (so one huge request is not stuck forever).
    pub async fn acquire(&self, amount: u64) {
        let want = (amount as f64).min(self.per_minute);
        loop {
            let wait = {
                let mut s = self.state.lock().await;
                let now = Instant::now();
                let refill = now.duration_since(s.1).as_secs_f64() * self.per_minute / 60.0;
                s.0 = (s.0 + refill).min(self.per_minute);
                s.1 = now;
                if s.0 >= want {
                    s.0 -= want;
                    return;
                }
                Duration::from_secs_f64((want - s.0) * 60.0 / self.per_minute)
            };
            tokio::time::sleep(wait).await;
        }
    }

    /// Takes `amount` more tokens after the fact (actual usage above the estimate); the bucket
    /// may go negative, which delays the next callers.
    pub async fn charge(&self, amount: u64) {
        let mut s = self.state.lock().await;
        s.0 -= amount as f64;
    }
}

/// The live limits of one provider endpoint.
#[derive(Debug, Default)]
pub struct ProviderLimits {
    concurrency: Option<Arc<Semaphore>>,
    rpm: Option<RateLimiter>,
    tpm: Option<RateLimiter>,
}

impl ProviderLimits {
    pub fn new(spec: &LimitSpec) -> Self {
        ProviderLimits {
            concurrency: spec
                .max_concurrent
                .map(|n| Arc::new(Semaphore::new(n.max(1)))),
            rpm: spec.rpm.map(|n| RateLimiter::per_minute(u64::from(n))),
            tpm: spec.tpm.map(RateLimiter::per_minute),
        }
    }

    /// Waits for a concurrency slot and the rate budget of one call estimated at
    /// `est_tokens`; the returned permit frees the slot when dropped.
    pub async fn admit(&self, est_tokens: u64) -> Option<OwnedSemaphorePermit> {
        let permit = match &self.concurrency {
            Some(s) => s.clone().acquire_owned().await.ok(),
            None => None,
        };
        if let Some(r) = &self.rpm {
            r.acquire(1).await;
        }
        if let Some(t) = &self.tpm {
            t.acquire(est_tokens).await;
        }
        permit
    }

    /// Accounts for the tokens a call really used beyond its estimate.
    pub async fn settle(&self, est_tokens: u64, actual_tokens: u64) {
        if let Some(t) = &self.tpm
            && actual_tokens > est_tokens
        {
            t.charge(actual_tokens - est_tokens).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn rpm_spaces_requests_after_the_burst() {
        let r = RateLimiter::per_minute(60); // one per second after a burst of 60
        let t0 = Instant::now();
        for _ in 0..60 {
            r.acquire(1).await;
        }
        assert!(
            t0.elapsed() < Duration::from_millis(1),
            "the first minute's worth goes at once"
        );
        r.acquire(1).await;
        r.acquire(1).await;
        let e = t0.elapsed();
        assert!(
            e >= Duration::from_millis(1990) && e <= Duration::from_millis(2100),
            "{e:?}"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn tpm_waits_for_tokens_and_charges_overruns() {
        let r = RateLimiter::per_minute(6000); // 100 tokens per second
        r.acquire(6000).await;
        let t0 = Instant::now();
        r.acquire(500).await; // 5 s of refill
        assert!(
            (t0.elapsed().as_secs_f64() - 5.0).abs() < 0.05,
            "{:?}",
            t0.elapsed()
        );
        r.charge(1000).await; // the call used 1000 more than estimated: 10 s of debt
        let t1 = Instant::now();
        r.acquire(100).await;
        assert!(
            (t1.elapsed().as_secs_f64() - 11.0).abs() < 0.05,
            "{:?}",
            t1.elapsed()
        );
        // An amount above the bucket takes a full bucket instead of waiting forever.
        let t2 = Instant::now();
        RateLimiter::per_minute(10).acquire(1_000_000).await;
        assert!(t2.elapsed() < Duration::from_millis(1));
    }

    #[tokio::test(start_paused = true)]
    async fn concurrency_slots_are_shared() {
        let l = Arc::new(ProviderLimits::new(&LimitSpec {
            max_concurrent: Some(2),
            ..LimitSpec::default()
        }));
        let a = l.admit(0).await;
        let b = l.admit(0).await;
        assert!(a.is_some() && b.is_some());
        let l2 = l.clone();
        let third = tokio::spawn(async move { l2.admit(0).await.is_some() });
        tokio::time::sleep(Duration::from_millis(10)).await;
        assert!(!third.is_finished(), "a third call waits for a slot");
        drop(a);
        assert!(third.await.unwrap());
    }
}
