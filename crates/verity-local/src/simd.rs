//! Small `f32` vector helpers (attention, norms) vectorized with AVX2 + FMA when the CPU has
//! them (run-time detection through `pulp`, no `unsafe` here), with one fixed summation order
//! on every path so results never depend on the path or on batching.

const LANES: usize = 8;

/// [`dot`] without the dispatch, for use inside an already vectorized kernel.
#[inline(always)]
pub(crate) fn dot_lanes(a: &[f32], b: &[f32]) -> f32 {
    let n = a.len().min(b.len());
    let (ac, ar) = a[..n].as_chunks::<LANES>();
    let (bc, br) = b[..n].as_chunks::<LANES>();
    let mut acc = [0f32; LANES];
    for (x, y) in ac.iter().zip(bc) {
        for i in 0..LANES {
            acc[i] = x[i].mul_add(y[i], acc[i]);
        }
    }
    let mut tail = 0f32;
    for (x, y) in ar.iter().zip(br) {
        tail = x.mul_add(*y, tail);
    }
    ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7])) + tail
}

/// [`dot_lanes`] of `a` with four vectors at once, each result bit-identical to it.
#[inline(always)]
fn dot4_lanes(a: &[f32], b: [&[f32]; 4]) -> [f32; 4] {
    let n = b.iter().fold(a.len(), |n, v| n.min(v.len()));
    if !n.is_multiple_of(LANES) {
        return b.map(|v| dot_lanes(a, v));
    }
    let (ac, _) = a[..n].as_chunks::<LANES>();
    let bc = b.map(|v| v[..n].as_chunks::<LANES>().0);
    let mut acc = [[0f32; LANES]; 4];
    for (c, x) in ac.iter().enumerate() {
        for (acc, bc) in acc.iter_mut().zip(&bc) {
            for i in 0..LANES {
                acc[i] = x[i].mul_add(bc[c][i], acc[i]);
            }
        }
    }
    acc.map(|a| ((a[0] + a[4]) + (a[1] + a[5])) + ((a[2] + a[6]) + (a[3] + a[7])))
}

#[inline(always)]
fn axpy_lanes(y: &mut [f32], a: f32, x: &[f32]) {
    for (yv, xv) in y.iter_mut().zip(x) {
        *yv = a.mul_add(*xv, *yv);
    }
}

/// `e^x` in plain `f32` arithmetic (Cody–Waite range reduction and Cephes' `expf`
/// polynomial, within 2 ulp of the exact value), so that a loop of it vectorizes and gives
/// the same bits on every path. Inputs are clamped to `[-87, 88]`: below, the result is
/// `e^-87` (1.6e-38) instead of a smaller number or zero; above, `e^88`.
#[inline(always)]
pub fn exp(x: f32) -> f32 {
    const LOG2E: f32 = std::f32::consts::LOG2_E;
    const LN2_HI: f32 = 0.693_359_4;
    const LN2_LO: f32 = -2.121_944_4e-4;
    const MAGIC: f32 = 12_582_912.0; // 1.5 · 2^23: adding and removing it rounds to an integer
    let x = x.clamp(-87.0, 88.0);
    let n = (x * LOG2E + MAGIC) - MAGIC;
    let r = (x - n * LN2_HI) - n * LN2_LO;
    let mut p = 1.987_569_1e-4;
    p = p * r + 1.398_199_9e-3;
    p = p * r + 8.333_452e-3;
    p = p * r + 4.166_579_6e-2;
    p = p * r + 1.666_666_5e-1;
    p = p * r + 0.5;
    let e = p * (r * r) + r + 1.0;
    // 2^n for n in [-126, 127]: the exponent field of a normal float.
    let scale = f32::from_bits(((n as i32 + 127) as u32) << 23);
    e * scale
}

/// One attention head of one query: `out = Σ_p softmax(q·k_p · scale)_p · v_p` over the
/// first `n_keys` positions, key and value `p` at `keys[p·stride + at..][..q.len()]` (and
/// the same in `vals`). One dispatch for the whole head; `scores` is scratch.
#[allow(clippy::too_many_arguments)]
pub fn attend(
    q: &[f32],
    keys: &[f32],
    vals: &[f32],
    stride: usize,
    at: usize,
    n_keys: usize,
    scale: f32,
    scores: &mut Vec<f32>,
    out: &mut [f32],
) {
    #[cfg(target_arch = "x86_64")]
    if let Some(simd) = pulp::x86::V3::try_new() {
        simd.vectorize(
            #[inline(always)]
            || attend_lanes(q, keys, vals, stride, at, n_keys, scale, scores, out),
        );
        return;
    }
    attend_lanes(q, keys, vals, stride, at, n_keys, scale, scores, out)
}

#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn attend_lanes(
    q: &[f32],
    keys: &[f32],
    vals: &[f32],
    stride: usize,
    at: usize,
    n_keys: usize,
    scale: f32,
    scores: &mut Vec<f32>,
    out: &mut [f32],
) {
    let hd = q.len();
    scores.clear();
    let key = |p: usize| &keys[p * stride + at..p * stride + at + hd];
    // Four keys at a time: four independent chains of the same per-key arithmetic as
    // `dot_lanes` (one key's dot product is a chain of dependent multiply-adds).
    let mut p = 0;
    while p + 4 <= n_keys {
        let d = dot4_lanes(q, [key(p), key(p + 1), key(p + 2), key(p + 3)]);
        scores.extend(d.map(|v| v * scale));
        p += 4;
    }
    for p in p..n_keys {
        scores.push(dot_lanes(q, key(p)) * scale);
    }
    let max = scores.iter().fold(f32::NEG_INFINITY, |m, &v| m.max(v));
    for sc in scores.iter_mut() {
        *sc = exp(*sc - max);
    }
    let sum: f32 = scores.iter().sum();
    let inv = 1.0 / sum;
    out.fill(0.0);
    for (p, &w) in scores.iter().enumerate() {
        let v = &vals[p * stride + at..p * stride + at + hd];
        axpy_lanes(out, w * inv, v);
    }
}

/// `Σ a[i]·b[i]` over the shorter length.
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    #[cfg(target_arch = "x86_64")]
    if let Some(simd) = pulp::x86::V3::try_new() {
        return simd.vectorize(
            #[inline(always)]
            || dot_lanes(a, b),
        );
    }
    dot_lanes(a, b)
}

/// `y[i] += a·x[i]`.
pub fn axpy(y: &mut [f32], a: f32, x: &[f32]) {
    #[cfg(target_arch = "x86_64")]
    if let Some(simd) = pulp::x86::V3::try_new() {
        simd.vectorize(
            #[inline(always)]
            || axpy_lanes(y, a, x),
        );
        return;
    }
    axpy_lanes(y, a, x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_at_a_time_is_one_at_a_time() {
        let a: Vec<f32> = (0..64).map(|i| (i as f32 * 0.37).sin()).collect();
        let bs: Vec<Vec<f32>> = (0..4)
            .map(|j| (0..64).map(|i| ((i * 7 + j) as f32 * 0.11).cos()).collect())
            .collect();
        let four = dot4_lanes(&a, [&bs[0], &bs[1], &bs[2], &bs[3]]);
        for (f, b) in four.iter().zip(&bs) {
            assert_eq!(f.to_bits(), dot_lanes(&a, b).to_bits());
        }
    }

    #[test]
    fn exp_is_within_two_ulp_and_clamps() {
        let mut x = -87.0f32;
        while x <= 88.0 {
            let want = (x as f64).exp();
            let got = exp(x) as f64;
            let ulp = (want as f32).to_bits().abs_diff((got as f32).to_bits());
            assert!(ulp <= 2, "exp({x}) = {got}, want {want} ({ulp} ulp)");
            x += 0.0137;
        }
        assert_eq!(exp(0.0), 1.0);
        assert_eq!(exp(-1000.0), exp(-87.0));
        assert!(exp(-1000.0) > 0.0 && exp(1000.0).is_finite());
        assert!(exp(f32::NAN).is_nan());
    }

    #[test]
    fn dot_and_axpy_match_the_portable_order_exactly() {
        let a: Vec<f32> = (0..67).map(|i| (i as f32 * 0.37).sin()).collect();
        let b: Vec<f32> = (0..67).map(|i| (i as f32 * 0.11).cos()).collect();
        assert_eq!(dot(&a, &b).to_bits(), dot_lanes(&a, &b).to_bits());
        let naive: f64 = a.iter().zip(&b).map(|(x, y)| *x as f64 * *y as f64).sum();
        assert!((dot(&a, &b) as f64 - naive).abs() < 1e-4);
        let mut y1 = b.clone();
        let mut y2 = b.clone();
        axpy(&mut y1, 0.5, &a);
        axpy_lanes(&mut y2, 0.5, &a);
        assert_eq!(y1, y2);
    }
}
