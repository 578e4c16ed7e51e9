//! Statistics for eval results, written out by hand so that every number verity reports can be
//! traced to a formula in this crate.
//!
//! * [`wilson`]: the Wilson score interval for a pass rate. Unlike the normal ("Wald")
//!   interval it stays inside `[0, 1]` and behaves at 0 % and 100 %, which small eval suites
//!   hit all the time.
//! * [`mcnemar`]: McNemar's test for paired binary outcomes (seed 000 §8.1), with the
//!   continuity-corrected chi-square statistic, the exact binomial p-values (two-sided and both
//!   one-sided forms) and the mid-p value. [`McNemar::p_for`] picks the value a report should
//!   quote.
//! * [`prf`]: precision, recall and F1 from `tp` / `fp` / `fn` counts, with explicit
//!   conventions for the empty cases.
//! * The building blocks: binomial probabilities accurate far into the tails for `n` up to (and
//!   well beyond) 100 000 ([`binom_pmf`], [`binom_cdf`], [`binom_sf`]), and the chi-square
//!   survival function ([`chi2_sf`], [`chi2_sf_1df`]).
//!
//! The crate has no dependencies and performs no I/O. No function panics; functions that take
//! counts accept any `u64`.

#![forbid(unsafe_code)]

mod binom;
mod bootstrap;
mod interval;
mod mcnemar;
mod prf;
mod special;

pub use binom::{binom_cdf, binom_pmf, binom_sf, ln_binom_pmf};
pub use bootstrap::{BOOTSTRAP_RESAMPLES, bootstrap, quantile, sample_sd};
pub use interval::{WILSON_Z95, wilson};
pub use mcnemar::{Alternative, McNemar, PMethod, mcnemar};
pub use prf::{Prf, prf};
pub use special::{chi2_sf, chi2_sf_1df, ln_gamma};
