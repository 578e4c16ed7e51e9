//! Per-provider limits: concurrency, requests per minute and tokens per minute.
//!
//! Variants that talk to the same endpoint share one [`ProviderLimits`], so two variants of one
//! model cannot together exceed the provider's quota. Rate limits are token buckets that refill
//! continuously (`limit / 60` per second, up to one minute's worth), driven by tokio's clock so
//! tests can pause time.
//!
//! The concurrency limit adapts, as TCP's congestion window does (additive increase,
//! multiplicative decrease): it starts at the configured maximum (`max_concurrent`, else the
//! run's concurrency), halves when a call is rate limited (`429`), at most once per window of
//! calls, since the calls already in flight were sent under the old limit, and grows back by
//! one call per window of successes. A rate-limit storm therefore slows the run down to what
//! the endpoint accepts instead of spending every sample's retries at once.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{Mutex, Notify};
use tokio::time::Instant;

use crate::stop::Health;

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
#[derive(Debug)]
pub struct ProviderLimits {
    window: Arc<Window>,
    rpm: Option<RateLimiter>,
    tpm: Option<RateLimiter>,
    pub(crate) health: Health,
}

impl Default for ProviderLimits {
    fn default() -> Self {
        ProviderLimits::new(&LimitSpec::default(), 1)
    }
}

impl ProviderLimits {
    /// The limits of an endpoint that the run reaches with at most `run_concurrency` calls.
    pub fn new(spec: &LimitSpec, run_concurrency: usize) -> Self {
        let max = spec.max_concurrent.unwrap_or(run_concurrency).max(1);
        ProviderLimits {
            window: Arc::new(Window::new(max)),
            rpm: spec.rpm.map(|n| RateLimiter::per_minute(u64::from(n))),
            tpm: spec.tpm.map(RateLimiter::per_minute),
            health: Health::default(),
        }
    }

    /// Waits for a place in the concurrency window and the rate budget of one call estimated
    /// at `est_tokens`. The slot frees its place when dropped; tell it how the call went.
    pub async fn admit(&self, est_tokens: u64) -> Slot {
        let generation = self.window.enter().await;
        let slot = Slot {
            window: self.window.clone(),
            generation,
        };
        if let Some(r) = &self.rpm {
            r.acquire(1).await;
        }
        if let Some(t) = &self.tpm {
            t.acquire(est_tokens).await;
        }
        slot
    }

    /// Accounts for the tokens a call really used beyond its estimate.
    pub async fn settle(&self, est_tokens: u64, actual_tokens: u64) {
        if let Some(t) = &self.tpm
            && actual_tokens > est_tokens
        {
            t.charge(actual_tokens - est_tokens).await;
        }
    }

    /// The current concurrency limit (calls in flight at once).
    pub fn window(&self) -> usize {
        self.window.current()
    }
}

/// The adaptive concurrency window of one endpoint.
#[derive(Debug)]
struct Window {
    state: std::sync::Mutex<WindowState>,
    changed: Notify,
}

#[derive(Debug)]
struct WindowState {
    /// Calls allowed in flight (its floor, at least 1).
    limit: f64,
    max: f64,
    in_flight: usize,
    /// Bumped at each decrease: a call admitted before it cannot decrease again.
    generation: u64,
}

impl Window {
    fn new(max: usize) -> Self {
        Window {
            state: std::sync::Mutex::new(WindowState {
                limit: max as f64,
                max: max as f64,
                in_flight: 0,
                generation: 0,
            }),
            changed: Notify::new(),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, WindowState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn current(&self) -> usize {
        (self.lock().limit as usize).max(1)
    }

    async fn enter(&self) -> u64 {
        loop {
            let notified = self.changed.notified();
            tokio::pin!(notified);
            // Registered before the check, so a place freed in between is not missed.
            notified.as_mut().enable();
            {
                let mut s = self.lock();
                if s.in_flight < (s.limit as usize).max(1) {
                    s.in_flight += 1;
                    return s.generation;
                }
            }
            notified.await;
        }
    }
}

/// A call's place in its endpoint's window.
#[derive(Debug)]
pub struct Slot {
    window: Arc<Window>,
    generation: u64,
}

impl Slot {
    /// The call was rate limited: halve the window, unless a call admitted at the same time
    /// already did.
    pub fn rate_limited(&self) {
        let mut s = self.window.lock();
        if s.generation == self.generation {
            s.limit = (s.limit / 2.0).max(1.0);
            s.generation += 1;
        }
    }

    /// The call succeeded: grow the window by one call per window of successes.
    pub fn succeeded(&self) {
        let grew = {
            let mut s = self.window.lock();
            let before = s.limit as usize;
            s.limit = (s.limit + 1.0 / s.limit).min(s.max);
            s.limit as usize > before
        };
        if grew {
            self.window.changed.notify_waiters();
        }
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.window.lock().in_flight -= 1;
        self.window.changed.notify_waiters();
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
        let l = Arc::new(ProviderLimits::new(
            &LimitSpec {
                max_concurrent: Some(2),
                ..LimitSpec::default()
            },
            50,
        ));
        let a = l.admit(0).await;
        let _b = l.admit(0).await;
        let l2 = l.clone();
        let third = tokio::spawn(async move {
            let _s = l2.admit(0).await;
        });
        tokio::time::sleep(Duration::from_millis(10)).await;
        assert!(!third.is_finished(), "a third call waits for a slot");
        drop(a);
        third.await.unwrap();
    }

    #[tokio::test(start_paused = true)]
    async fn the_window_halves_once_per_window_and_grows_back_additively() {
        let l = ProviderLimits::new(&LimitSpec::default(), 16);
        assert_eq!(l.window(), 16);
        // Sixteen calls in flight all rate limited: one halving, not sixteen.
        let slots: Vec<Slot> = futures_admit(&l, 16).await;
        for s in &slots {
            s.rate_limited();
        }
        assert_eq!(l.window(), 8);
        drop(slots);
        // A call admitted after the decrease may decrease again.
        let s = l.admit(0).await;
        s.rate_limited();
        assert_eq!(l.window(), 4);
        drop(s);
        for _ in 0..10 {
            l.admit(0).await.rate_limited();
        }
        assert_eq!(l.window(), 1, "never below one call");
        // Recovery: one more call per window of successes.
        let mut successes = 0;
        while l.window() < 16 {
            l.admit(0).await.succeeded();
            successes += 1;
            assert!(successes < 1000, "the window does not recover");
        }
        // 1 + 2 + … + 15 successes to climb from 1 to 16, give or take rounding.
        assert!((110..=135).contains(&successes), "{successes}");
        for _ in 0..100 {
            l.admit(0).await.succeeded();
        }
        assert_eq!(l.window(), 16, "never above the maximum");
    }

    #[tokio::test(start_paused = true)]
    async fn a_smaller_window_holds_callers_back_until_a_place_frees() {
        let l = Arc::new(ProviderLimits::new(&LimitSpec::default(), 4));
        let first = l.admit(0).await;
        first.rate_limited();
        first.rate_limited();
        assert_eq!(l.window(), 2);
        let second = l.admit(0).await;
        let l2 = l.clone();
        let third = tokio::spawn(async move {
            let _s = l2.admit(0).await;
        });
        tokio::time::sleep(Duration::from_millis(10)).await;
        assert!(!third.is_finished(), "two in flight fill a window of two");
        drop(first);
        third.await.unwrap();
        drop(second);
    }

    async fn futures_admit(l: &ProviderLimits, n: usize) -> Vec<Slot> {
        let mut v = Vec::new();
        for _ in 0..n {
            v.push(l.admit(0).await);
        }
        v
    }
}
