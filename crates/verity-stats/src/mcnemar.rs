//! McNemar's test for paired binary outcomes (McNemar 1947; seed 000 §8.1).

use crate::binom::{binom_cdf, binom_pmf, binom_sf};
use crate::special::chi2_sf_1df;

/// Below this many discordant pairs the exact binomial test is the one to quote (seed 000
/// §8.1: "for small N (b + c < 25), use the exact binomial form").
const EXACT_BELOW: u64 = 25;

/// The alternative hypothesis of a paired comparison of a treatment against a control.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Alternative {
    /// The treatment and the control differ (either way).
    TwoSided,
    /// The treatment is better: c > b.
    Greater,
    /// The treatment is worse: c < b.
    Less,
}

impl Alternative {
    /// Parses the suite spelling: `two-sided` (also `two_sided`), `greater`, `less`.
    pub fn parse(s: &str) -> Option<Alternative> {
        match s {
            "two-sided" | "two_sided" => Some(Alternative::TwoSided),
            "greater" => Some(Alternative::Greater),
            "less" => Some(Alternative::Less),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Alternative::TwoSided => "two-sided",
            Alternative::Greater => "greater",
            Alternative::Less => "less",
        }
    }
}

/// Which computation a quoted p-value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PMethod {
    /// The exact binomial test on the discordant pairs.
    Exact,
    /// The continuity-corrected chi-square approximation.
    ChiSquare,
}

impl PMethod {
    pub fn as_str(self) -> &'static str {
        match self {
            PMethod::Exact => "exact",
            PMethod::ChiSquare => "chi2",
        }
    }
}

/// McNemar's test on the discordant counts of a paired 2×2 table.
///
/// `b` counts pairs where the control passed and the treatment failed, `c` pairs where the
/// treatment passed and the control failed (seed 000 §6.4). Under the null hypothesis each
/// discordant pair goes either way with probability ½, so with n = b + c and
/// X ~ Binomial(n, ½):
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct McNemar {
    pub b: u64,
    pub c: u64,
    /// The continuity-corrected statistic (|b - c| - 1)² / (b + c); 0 when b + c = 0.
    ///
    /// The formula is applied literally, as R's `mcnemar.test` and statsmodels do, so b = c
    /// gives 1 / (b + c) rather than 0.
    pub chi2: f64,
    /// P(χ²₁ ≥ chi2); 1 when b + c = 0.
    pub p_chi2: f64,
    /// min(1, 2 · min(P(X ≤ min(b, c)), P(X ≥ max(b, c)))), the same as
    /// `scipy.stats.binomtest(c, b + c, 0.5)`; 1 when b + c = 0.
    pub p_exact_two_sided: f64,
    /// P(X ≥ c): the exact one-sided p-value for "the treatment is better" (c > b).
    pub p_exact_greater: f64,
    /// P(X ≤ c): the exact one-sided p-value for "the treatment is worse" (c < b).
    pub p_exact_less: f64,
    /// The two-sided mid-p value (Fagerland, Lydersen & Laake 2013):
    /// min(1, 2 · [P(X ≤ min(b, c)) - ½ P(X = min(b, c))]); 1 when b + c = 0.
    pub p_mid: f64,
    /// b + c < 25: the chi-square approximation is poor and the exact test should be quoted.
    pub exact_recommended: bool,
}

/// Runs McNemar's test on the discordant counts `b` (control pass, treatment fail) and `c`
/// (treatment pass, control fail).
///
/// Accurate for any counts a test suite produces: the binomial tails are summed in a way that
/// stays accurate for b + c well beyond 100 000, and the chi-square survival function is good
/// to about 1e-15.
pub fn mcnemar(b: u64, c: u64) -> McNemar {
    let n = b.saturating_add(c);
    if n == 0 {
        return McNemar {
            b,
            c,
            chi2: 0.0,
            p_chi2: 1.0,
            p_exact_two_sided: 1.0,
            p_exact_greater: 1.0,
            p_exact_less: 1.0,
            p_mid: 1.0,
            exact_recommended: true,
        };
    }
    let diff = b.abs_diff(c) as f64 - 1.0;
    let chi2 = diff * diff / n as f64;
    let lo = b.min(c);
    let lower_tail = binom_cdf(lo, n, 0.5);
    McNemar {
        b,
        c,
        chi2,
        p_chi2: chi2_sf_1df(chi2),
        // By symmetry P(X ≥ max) = P(X ≤ min).
        p_exact_two_sided: (2.0 * lower_tail).min(1.0),
        p_exact_greater: binom_sf(c, n, 0.5),
        p_exact_less: binom_cdf(c, n, 0.5),
        p_mid: (2.0 * (lower_tail - 0.5 * binom_pmf(lo, n, 0.5))).clamp(0.0, 1.0),
        exact_recommended: n < EXACT_BELOW,
    }
}

impl McNemar {
    /// The p-value a report should quote for `alternative` (the suite's spelling; anything
    /// unrecognised is treated as two-sided): for two-sided, the exact p-value when
    /// [`exact_recommended`](Self::exact_recommended), else the chi-square p-value; one-sided
    /// p-values are always exact.
    pub fn p_for(&self, alternative: &str) -> f64 {
        self.quoted(Alternative::parse(alternative).unwrap_or(Alternative::TwoSided))
            .0
    }

    /// The quoted p-value for `alternative` and the method it comes from.
    pub fn quoted(&self, alternative: Alternative) -> (f64, PMethod) {
        match alternative {
            Alternative::Greater => (self.p_exact_greater, PMethod::Exact),
            Alternative::Less => (self.p_exact_less, PMethod::Exact),
            Alternative::TwoSided if self.exact_recommended => {
                (self.p_exact_two_sided, PMethod::Exact)
            }
            Alternative::TwoSided => (self.p_chi2, PMethod::ChiSquare),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_example_four_to_zero() {
        // Seed 000 §7.2's example numbers: b = 0, c = 4 gives chi2 = (4 - 1)² / 4 = 2.25 and
        // exact p = 2 · 0.5⁴ = 0.125 (the seed's 0.0625 is the one-sided value).
        let m = mcnemar(0, 4);
        assert_eq!(m.chi2, 2.25);
        assert!((m.p_exact_two_sided - 0.125).abs() < 1e-15);
        assert!((m.p_exact_greater - 0.0625).abs() < 1e-15);
        assert!((m.p_exact_less - 1.0).abs() < 1e-15);
        assert!(m.exact_recommended);
        assert_eq!(m.p_for("greater"), m.p_exact_greater);
        assert_eq!(m.p_for("two-sided"), m.p_exact_two_sided);
        assert_eq!(m.p_for("bogus"), m.p_exact_two_sided);
        assert_eq!(
            m.quoted(Alternative::Less),
            (m.p_exact_less, PMethod::Exact)
        );
    }

    #[test]
    fn large_counts_quote_chi_square_when_two_sided() {
        let m = mcnemar(20, 40);
        assert!(!m.exact_recommended);
        assert_eq!(
            m.quoted(Alternative::TwoSided),
            (m.p_chi2, PMethod::ChiSquare)
        );
        assert_eq!(
            m.quoted(Alternative::Greater),
            (m.p_exact_greater, PMethod::Exact)
        );
    }

    #[test]
    fn empty_and_saturating() {
        let m = mcnemar(0, 0);
        assert_eq!(
            (m.chi2, m.p_chi2, m.p_exact_two_sided, m.p_mid),
            (0.0, 1.0, 1.0, 1.0)
        );
        // Absurd counts must not panic or overflow.
        let m = mcnemar(u64::MAX, 1);
        assert!(m.p_exact_two_sided.is_finite());
    }

    #[test]
    fn parse_alternatives() {
        for a in [
            Alternative::TwoSided,
            Alternative::Greater,
            Alternative::Less,
        ] {
            assert_eq!(Alternative::parse(a.as_str()), Some(a));
        }
        assert_eq!(Alternative::parse("two_sided"), Some(Alternative::TwoSided));
        assert_eq!(Alternative::parse("more"), None);
    }
}
