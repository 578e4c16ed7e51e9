//! Binomial probabilities, accurate far into the tails.
//!
//! Each probability mass is computed with Loader's saddle-point expansion (C. Loader, "Fast and
//! Accurate Computation of Binomial Probabilities", 2000; the method behind R's `dbinom`):
//!
//! ```text
//! ln P(X = x) = δ(n) - δ(x) - δ(n - x) - D(x, np) - D(n - x, nq) - ½ ln(2π x (n - x) / n)
//! ```
//!
//! where δ is the Stirling-series remainder ln n! - ln(sqrt(2πn) (n/e)^n) and
//! D(x, m) = x ln(x/m) + m - x is the deviance term, evaluated by a series when x ≈ m so that
//! it does not cancel. No large terms cancel, so the relative error of a mass is a few ulps
//! times |ln P(X = x)| (the unavoidable cost of going through a logarithm): about 1e-15 near
//! the mode, 1e-14 at P ≈ 1e-35, 1e-13 at P ≈ 1e-220, whatever n is. By contrast
//! `lgamma(n + 1) - lgamma(k + 1) - lgamma(n - k + 1)` would lose five or six more digits to
//! cancellation at n = 100 000.
//!
//! For p = 1/2 and n ≤ 120 — every McNemar test a hand-curated suite produces — masses and
//! tails are instead computed exactly with integer binomial coefficients and rounded once.
//!
//! Tails are sums of masses taken from the mode outwards (the largest term first, the terms
//! decreasing monotonically after it) with Neumaier's compensated summation, stopping once a
//! term can no longer change the sum. The tail that contains the mode is computed as one minus
//! the other tail, which then holds at most about half the mass, so no small probability is ever
//! obtained by cancellation.

use std::f64::consts::PI;

/// δ(n) = ln n! - ln(sqrt(2πn) (n/e)^n) for n = 0..=15, computed with mpmath at 40 digits and
/// rounded to the nearest double
/// (`log(factorial(n)) - (n + 1/2) log(n) + n - log(2 pi) / 2`; δ(0) is unused and set to 0).
/// The same values as the integer entries of R's `sferr_halves`.
const STIRLERR_SMALL: [f64; 16] = [
    0.0,
    0.08106146679532726,
    0.0413406959554093,
    0.02767792568499834,
    0.020790672103765093,
    0.016644691189821193,
    0.013876128823070748,
    0.01189670994589177,
    0.010411265261972096,
    0.009255462182712733,
    0.00833056343336287,
    0.007573675487951841,
    0.00694284010720953,
    0.006408994188004207,
    0.0059513701127588475,
    0.005554733551962801,
];

/// δ(n): the table below 16, the asymptotic Stirling series above (Abramowitz & Stegun
/// 6.1.41; five terms suffice for n > 15 to reach double precision).
fn stirlerr(n: f64) -> f64 {
    const S0: f64 = 1.0 / 12.0;
    const S1: f64 = 1.0 / 360.0;
    const S2: f64 = 1.0 / 1260.0;
    const S3: f64 = 1.0 / 1680.0;
    const S4: f64 = 1.0 / 1188.0;
    if n <= 15.0 {
        // n is a non-negative integer here.
        return STIRLERR_SMALL[n as usize];
    }
    let nn = n * n;
    if n > 500.0 {
        (S0 - S1 / nn) / n
    } else if n > 80.0 {
        (S0 - (S1 - S2 / nn) / nn) / n
    } else if n > 35.0 {
        (S0 - (S1 - (S2 - S3 / nn) / nn) / nn) / n
    } else {
        (S0 - (S1 - (S2 - (S3 - S4 / nn) / nn) / nn) / nn) / n
    }
}

/// D(x, m) = x ln(x/m) + m - x, without cancellation when x ≈ m (Loader 2000, `bd0`).
fn bd0(x: f64, m: f64) -> f64 {
    if (x - m).abs() < 0.1 * (x + m) {
        let mut v = (x - m) / (x + m);
        let mut s = (x - m) * v;
        if s.abs() < f64::MIN_POSITIVE {
            return s;
        }
        let mut ej = 2.0 * x * v;
        v *= v;
        for j in 1..1000u32 {
            ej *= v;
            let s1 = s + ej / f64::from(2 * j + 1);
            if s1 == s {
                return s1;
            }
            s = s1;
        }
        s
    } else {
        x * (x / m).ln() + m - x
    }
}

/// ln P(X = k) for X ~ Binomial(n, p).
///
/// `k > n` gives `-inf`; `p` outside `[0, 1]` (or NaN) gives NaN.
pub fn ln_binom_pmf(k: u64, n: u64, p: f64) -> f64 {
    if !(0.0..=1.0).contains(&p) {
        return f64::NAN;
    }
    if k > n {
        return f64::NEG_INFINITY;
    }
    let q = 1.0 - p;
    if p == 0.0 {
        return if k == 0 { 0.0 } else { f64::NEG_INFINITY };
    }
    if q == 0.0 {
        return if k == n { 0.0 } else { f64::NEG_INFINITY };
    }
    if n == 0 {
        return 0.0;
    }
    let (x, nf) = (k as f64, n as f64);
    if k == 0 {
        return if p < 0.1 {
            -bd0(nf, nf * q) - nf * p
        } else {
            nf * q.ln()
        };
    }
    if k == n {
        return if q < 0.1 {
            -bd0(nf, nf * p) - nf * q
        } else {
            nf * p.ln()
        };
    }
    let nx = (n - k) as f64;
    let lc = stirlerr(nf) - stirlerr(x) - stirlerr(nx) - bd0(x, nf * p) - bd0(nx, nf * q);
    let lf = (2.0 * PI).ln() + x.ln() + (-x / nf).ln_1p();
    lc - 0.5 * lf
}

/// Up to this `n`, probabilities at p = 1/2 are computed exactly in integers and rounded
/// once: every binomial coefficient C(n, k) and their sum 2^n fit in a `u128`, and the running
/// product `C(n, i) · (n - i)` stays below 2^128.
const EXACT_HALF_MAX_N: u64 = 120;

/// Σ_{i=lo..=hi} C(n, i) exactly, for n ≤ [`EXACT_HALF_MAX_N`].
fn binom_coeff_sum(lo: u64, hi: u64, n: u64) -> u128 {
    let mut c: u128 = 1; // C(n, 0)
    let mut sum: u128 = 0;
    for i in 0..=hi.min(n) {
        if i >= lo {
            sum += c;
        }
        // C(n, i + 1) = C(n, i) · (n - i) / (i + 1), an exact division.
        c = c * u128::from(n - i) / u128::from(i + 1);
    }
    sum
}

/// `count / 2^n` for p = 1/2, rounded once (the scaling by a power of two is exact).
fn exact_half(count: u128, n: u64) -> f64 {
    // n ≤ 120, so the exponent is representable.
    (count as f64) * (-(n as f64)).exp2()
}

/// P(X = k) for X ~ Binomial(n, p). Zero for `k > n`; NaN for `p` outside `[0, 1]`.
///
/// For p = 1/2 and n ≤ 120 (the McNemar small-sample regime) the value is exact up to one
/// final rounding, so that e.g. P(X = 1) for n = 3 is exactly 0.375.
pub fn binom_pmf(k: u64, n: u64, p: f64) -> f64 {
    if p == 0.5 && n <= EXACT_HALF_MAX_N {
        return if k > n {
            0.0
        } else {
            exact_half(binom_coeff_sum(k, k, n), n)
        };
    }
    ln_binom_pmf(k, n, p).exp()
}

/// Neumaier's compensated sum.
#[derive(Default)]
struct Sum {
    sum: f64,
    comp: f64,
}

impl Sum {
    fn add(&mut self, x: f64) {
        let t = self.sum + x;
        if self.sum.abs() >= x.abs() {
            self.comp += (self.sum - t) + x;
        } else {
            self.comp += (x - t) + self.sum;
        }
        self.sum = t;
    }

    fn total(&self) -> f64 {
        self.sum + self.comp
    }

    /// Whether adding `term` (and anything smaller) can no longer change the total.
    fn negligible(&self, term: f64) -> bool {
        term == 0.0 || term < self.total() * (f64::EPSILON / 8.0)
    }
}

/// The mode of Binomial(n, p): masses are non-decreasing up to it and non-increasing after.
fn mode(n: u64, p: f64) -> u64 {
    let m = ((n as f64 + 1.0) * p).floor();
    if m >= n as f64 { n } else { m as u64 }
}

/// Σ_{i=0..=k} P(X = i) for k ≤ mode, summed from k downwards (largest term first).
fn lower_sum(k: u64, n: u64, p: f64) -> f64 {
    let mut s = Sum::default();
    let mut i = k;
    loop {
        let term = binom_pmf(i, n, p);
        if s.negligible(term) && i != k {
            break;
        }
        s.add(term);
        if term == 0.0 || i == 0 {
            break;
        }
        i -= 1;
    }
    s.total()
}

/// Σ_{i=k..=n} P(X = i) for k ≥ mode, summed from k upwards (largest term first).
fn upper_sum(k: u64, n: u64, p: f64) -> f64 {
    let mut s = Sum::default();
    let mut i = k;
    loop {
        let term = binom_pmf(i, n, p);
        if s.negligible(term) && i != k {
            break;
        }
        s.add(term);
        if term == 0.0 || i == n {
            break;
        }
        i += 1;
    }
    s.total()
}

/// P(X ≤ k) for X ~ Binomial(n, p). NaN for `p` outside `[0, 1]`.
///
/// A small tail is accurate in relative terms (see the module docs: about eps · |ln P|); a tail
/// that holds the mode is computed as one minus the other and is accurate to about 1e-15
/// absolute. The work is proportional to the number of terms that matter (a few standard
/// deviations' worth), not to `n`; for p = 1/2 and n ≤ 120 the result is exact up to one
/// rounding.
pub fn binom_cdf(k: u64, n: u64, p: f64) -> f64 {
    if !(0.0..=1.0).contains(&p) {
        return f64::NAN;
    }
    if k >= n {
        return 1.0;
    }
    if p == 0.5 && n <= EXACT_HALF_MAX_N {
        return exact_half(binom_coeff_sum(0, k, n), n);
    }
    let v = if k <= mode(n, p) {
        lower_sum(k, n, p)
    } else {
        1.0 - upper_sum(k + 1, n, p)
    };
    v.clamp(0.0, 1.0)
}

/// P(X ≥ k) for X ~ Binomial(n, p). NaN for `p` outside `[0, 1]`.
pub fn binom_sf(k: u64, n: u64, p: f64) -> f64 {
    if !(0.0..=1.0).contains(&p) {
        return f64::NAN;
    }
    if k == 0 {
        return 1.0;
    }
    if k > n {
        return 0.0;
    }
    if p == 0.5 && n <= EXACT_HALF_MAX_N {
        return exact_half(binom_coeff_sum(k, n, n), n);
    }
    let v = if k >= mode(n, p) {
        upper_sum(k, n, p)
    } else {
        1.0 - lower_sum(k - 1, n, p)
    };
    v.clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, rel: f64) -> bool {
        (a - b).abs() <= rel * b.abs()
    }

    #[test]
    fn stirlerr_table_agrees_with_series_at_the_seam() {
        // At n = 15 the five-term series is already good to ~1e-16; the table must agree.
        let nn = 225.0;
        let series = (1.0 / 12.0
            - (1.0 / 360.0 - (1.0 / 1260.0 - (1.0 / 1680.0 - 1.0 / 1188.0 / nn) / nn) / nn) / nn)
            / 15.0;
        assert!((series - STIRLERR_SMALL[15]).abs() < 1e-15);
    }

    #[test]
    fn pmf_small_cases_exact() {
        // Binomial(4, 1/2): 1, 4, 6, 4, 1 over 16.
        let expect = [1.0, 4.0, 6.0, 4.0, 1.0];
        for (k, e) in expect.iter().enumerate() {
            assert!(
                close(binom_pmf(k as u64, 4, 0.5), e / 16.0, 1e-14),
                "k = {k}"
            );
        }
        // Binomial(10, 0.3) at 3: 120 * 0.3^3 * 0.7^7.
        let e = 120.0 * 0.3f64.powi(3) * 0.7f64.powi(7);
        assert!(close(binom_pmf(3, 10, 0.3), e, 1e-14));
        assert_eq!(binom_pmf(5, 4, 0.5), 0.0);
        assert_eq!(binom_pmf(0, 0, 0.5), 1.0);
        assert_eq!(binom_pmf(0, 7, 0.0), 1.0);
        assert_eq!(binom_pmf(7, 7, 1.0), 1.0);
        assert_eq!(binom_pmf(3, 7, 1.0), 0.0);
        assert!(binom_pmf(1, 2, 1.5).is_nan());
    }

    #[test]
    fn tails_sum_to_one_and_are_complementary() {
        for &(n, p) in &[
            (1u64, 0.5),
            (9, 0.5),
            (40, 0.2),
            (1000, 0.5),
            (100_000, 0.5),
        ] {
            for &k in &[0, 1, n / 3, n / 2, n - 1, n] {
                let lo = binom_cdf(k, n, p);
                let hi = binom_sf(k + 1, n, p);
                assert!(
                    (lo + hi - 1.0).abs() < 1e-14,
                    "n={n} p={p} k={k}: {lo} + {hi}"
                );
            }
        }
    }

    #[test]
    fn exact_half_path_is_exact_and_agrees_with_loader() {
        // Small dyadic values come out exactly.
        assert_eq!(binom_sf(2, 3, 0.5), 0.5);
        assert_eq!(binom_cdf(2, 3, 0.5), 0.875);
        assert_eq!(binom_pmf(1, 3, 0.5), 0.375);
        assert_eq!(binom_pmf(4, 3, 0.5), 0.0);
        // At the seam the integer path and the saddle-point path agree to rounding.
        let n = EXACT_HALF_MAX_N;
        for k in [0, 1, 17, 59, 60, 61, 100, 120] {
            let exact = binom_pmf(k, n, 0.5);
            let loader = ln_binom_pmf(k, n, 0.5).exp();
            // The saddle-point path loses about eps · |ln P| (here P ≈ 1e-35 at k = 1).
            assert!(close(loader, exact, 1e-13), "k = {k}: {loader} vs {exact}");
            let lo = binom_cdf(k, n, 0.5);
            let lo_sum = if k <= mode(n, 0.5) {
                lower_sum(k, n, 0.5)
            } else {
                1.0 - upper_sum(k + 1, n, 0.5)
            };
            assert!(
                (lo - lo_sum).abs() <= 1e-14 * lo,
                "k = {k}: {lo} vs {lo_sum}"
            );
        }
        // C(120, 60) itself: the largest coefficient the integer path builds.
        assert_eq!(binom_coeff_sum(0, 120, 120), 1u128 << 120);
    }

    #[test]
    fn huge_n_extreme_tail_is_finite_and_tiny() {
        // P(X ≤ 0) for Binomial(100000, 1/2) = 2^-100000 underflows to zero, not NaN.
        assert_eq!(binom_cdf(0, 100_000, 0.5), 0.0);
        // 2^-1000, representable: ln = -1000 ln 2.
        let l = ln_binom_pmf(0, 1000, 0.5);
        assert!(close(l, -1000.0 * 2f64.ln(), 1e-15));
        assert!(close(
            binom_cdf(0, 1000, 0.5),
            (-1000.0 * 2f64.ln()).exp(),
            1e-13
        ));
    }
}
