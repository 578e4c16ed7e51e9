//! Precision, recall and F1 from counts.

/// Precision, recall and F1 of one set of counts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Prf {
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
}

/// Precision = tp / (tp + fp), recall = tp / (tp + fn), F1 = 2tp / (2tp + fp + fn) (the
/// harmonic mean of the two, written so it is defined whenever either is).
///
/// Conventions, so that the result is never NaN:
///
/// * nothing predicted and nothing expected (`tp = fp = fn = 0`): a perfect answer, so
///   precision = recall = F1 = 1;
/// * otherwise any 0/0 is 0 (no predictions but something expected: precision 0; predictions
///   but nothing expected: recall 0);
/// * counts are taken as given (they may be fractional, e.g. weighted); a negative or
///   non-finite count is treated as 0.
pub fn prf(tp: f64, fp: f64, fn_: f64) -> Prf {
    let clean = |x: f64| if x.is_finite() && x > 0.0 { x } else { 0.0 };
    let (tp, fp, fn_) = (clean(tp), clean(fp), clean(fn_));
    if tp + fp + fn_ == 0.0 {
        return Prf {
            precision: 1.0,
            recall: 1.0,
            f1: 1.0,
        };
    }
    let ratio = |num: f64, den: f64| if den > 0.0 { num / den } else { 0.0 };
    Prf {
        precision: ratio(tp, tp + fp),
        recall: ratio(tp, tp + fn_),
        f1: ratio(2.0 * tp, 2.0 * tp + fp + fn_),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conventions() {
        assert_eq!(
            prf(0.0, 0.0, 0.0),
            Prf {
                precision: 1.0,
                recall: 1.0,
                f1: 1.0
            }
        );
        assert_eq!(
            prf(0.0, 0.0, 3.0),
            Prf {
                precision: 0.0,
                recall: 0.0,
                f1: 0.0
            }
        );
        assert_eq!(
            prf(0.0, 2.0, 0.0),
            Prf {
                precision: 0.0,
                recall: 0.0,
                f1: 0.0
            }
        );
        assert_eq!(prf(f64::NAN, -1.0, f64::INFINITY), prf(0.0, 0.0, 0.0));
    }

    #[test]
    fn ordinary_counts() {
        let r = prf(6.0, 2.0, 4.0);
        assert_eq!(r.precision, 0.75);
        assert_eq!(r.recall, 0.6);
        // Harmonic mean: 2 · 0.75 · 0.6 / 1.35 = 2/3.
        assert!((r.f1 - 2.0 / 3.0).abs() < 1e-15);
        let hm = 2.0 * r.precision * r.recall / (r.precision + r.recall);
        assert!((r.f1 - hm).abs() < 1e-15);
    }
}
