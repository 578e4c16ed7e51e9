//! Confidence intervals for a proportion.

/// The two-sided 95 % standard-normal quantile, Φ⁻¹(0.975).
pub const WILSON_Z95: f64 = 1.959_963_984_540_054;

/// The Wilson score interval (Wilson 1927) for `successes` out of `n`, at normal quantile `z`
/// (use [`WILSON_Z95`] for 95 %).
///
/// ```text
/// centre = (p̂ + z²/2n) / (1 + z²/n)
/// half   = z / (1 + z²/n) · sqrt(p̂(1 - p̂)/n + z²/4n²)
/// ```
///
/// The same formula as statsmodels' `proportion_confint(method="wilson")`. The bounds are
/// clamped to `[0, 1]` and are exactly 0 (resp. 1) when every trial failed (resp. passed).
/// Conventions for inputs outside the domain: `n = 0` gives `(0, 1)` (nothing is known);
/// `successes > n` is treated as `n`; a negative `z` is taken by its magnitude; a NaN `z` gives
/// `(0, 1)`.
pub fn wilson(successes: u64, n: u64, z: f64) -> (f64, f64) {
    if n == 0 || z.is_nan() {
        return (0.0, 1.0);
    }
    let s = successes.min(n);
    let z = z.abs();
    let nf = n as f64;
    let p = s as f64 / nf;
    let z2 = z * z;
    let denom = 1.0 + z2 / nf;
    let centre = (p + z2 / (2.0 * nf)) / denom;
    let half = z * (p * (1.0 - p) / nf + z2 / (4.0 * nf * nf)).sqrt() / denom;
    let lo = if s == 0 {
        0.0
    } else {
        (centre - half).clamp(0.0, 1.0)
    };
    let hi = if s == n {
        1.0
    } else {
        (centre + half).clamp(0.0, 1.0)
    };
    if lo.is_nan() || hi.is_nan() {
        // Only reachable with an infinite z: the interval is everything.
        return (0.0, 1.0);
    }
    (lo, hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edges() {
        assert_eq!(wilson(0, 0, WILSON_Z95), (0.0, 1.0));
        assert_eq!(wilson(3, 0, WILSON_Z95), (0.0, 1.0));
        assert_eq!(wilson(0, 10, WILSON_Z95).0, 0.0);
        assert_eq!(wilson(10, 10, WILSON_Z95).1, 1.0);
        assert_eq!(wilson(12, 10, WILSON_Z95), wilson(10, 10, WILSON_Z95));
        assert_eq!(wilson(3, 10, -WILSON_Z95), wilson(3, 10, WILSON_Z95));
        assert_eq!(wilson(3, 10, f64::NAN), (0.0, 1.0));
        assert_eq!(wilson(3, 10, f64::INFINITY), (0.0, 1.0));
        // z = 0 collapses to the point estimate.
        let (lo, hi) = wilson(3, 10, 0.0);
        assert!((lo - 0.3).abs() < 1e-15 && (hi - 0.3).abs() < 1e-15);
    }

    #[test]
    fn interval_contains_estimate_and_is_symmetric() {
        for n in 1..40u64 {
            for s in 0..=n {
                let (lo, hi) = wilson(s, n, WILSON_Z95);
                let p = s as f64 / n as f64;
                assert!(lo <= p && p <= hi && lo >= 0.0 && hi <= 1.0, "{s}/{n}");
                let (lo2, hi2) = wilson(n - s, n, WILSON_Z95);
                assert!((lo - (1.0 - hi2)).abs() < 1e-12 && (hi - (1.0 - lo2)).abs() < 1e-12);
            }
        }
    }
}
