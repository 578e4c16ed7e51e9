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
        if q.len() == x86::HD {
            simd.vectorize(
                #[inline(always)]
                || x86::attend(simd, q, keys, vals, stride, at, n_keys, scale, scores, out),
            );
        } else {
            simd.vectorize(
                #[inline(always)]
                || attend_lanes(q, keys, vals, stride, at, n_keys, scale, scores, out),
            );
        }
        return;
    }
    attend_lanes(q, keys, vals, stride, at, n_keys, scale, scores, out)
}

/// [`attend_lanes`] written out in AVX2 for heads of 64 (both shipped models), with the
/// same arithmetic in the same order, so the same bits: eight keys' dot products at a time,
/// each in its own register and reduced in `dot4_lanes`' tree (`(a0+a4)+(a1+a5)` and
/// `(a2+a6)+(a3+a7)`, then their sum) by two 128-bit-lane swaps and three horizontal adds
/// for all eight; the weighted sum of the values kept in eight registers instead of being
/// loaded and stored once per key. The compiler's own vectorization of the scalar loops
/// transposed the four-key products through 128-bit shuffles and spilled the output.
#[cfg(target_arch = "x86_64")]
mod x86 {
    use core::arch::x86_64::__m256;

    use pulp::x86::V3;

    use super::{LANES, scores_from, softmax_unscaled};

    /// The head size this path is written for.
    pub(super) const HD: usize = 64;
    const C: usize = HD / LANES;

    /// The head at `m[at..at + HD]`, as `C` vectors.
    #[inline(always)]
    fn head(m: &[f32], at: usize) -> &[[f32; LANES]; C] {
        bytemuck::cast_ref(m[at..at + HD].first_chunk::<HD>().expect("a head"))
    }

    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn attend(
        simd: V3,
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
        let (avx, avx2, fma) = (simd.avx, simd.avx2, simd.fma);
        let row = |m, p: usize| head(m, p * stride + at);
        let q = head(q, 0);
        let qv: [__m256; C] = q.map(bytemuck::cast);
        scores.clear();
        scores.reserve(n_keys);
        let sv = avx._mm256_set1_ps(scale);
        // `[k0, k2, k4, k6, k1, k3, k5, k7]` (the horizontal adds' order) back to key order.
        let order = avx._mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
        let mut p = 0;
        while p + 8 <= n_keys {
            let acc: [__m256; 8] = core::array::from_fn(|j| {
                let k = row(keys, p + j);
                let mut a = avx._mm256_setzero_ps();
                for c in 0..C {
                    a = fma._mm256_fmadd_ps(qv[c], bytemuck::cast(k[c]), a);
                }
                a
            });
            // Lanes i and i + 4 of each key added, two keys per register.
            let half = |j: usize| {
                let lo = avx._mm256_permute2f128_ps::<0x20>(acc[j], acc[j + 1]);
                let hi = avx._mm256_permute2f128_ps::<0x31>(acc[j], acc[j + 1]);
                avx._mm256_add_ps(lo, hi)
            };
            let x0 = avx._mm256_hadd_ps(half(0), half(2));
            let x1 = avx._mm256_hadd_ps(half(4), half(6));
            let s = avx._mm256_mul_ps(avx._mm256_hadd_ps(x0, x1), sv);
            let s: [f32; 8] = bytemuck::cast(avx2._mm256_permutevar8x32_ps(s, order));
            scores.extend_from_slice(&s);
            p += 8;
        }
        // The rest exactly as `attend_lanes` does it.
        scores_from(q.as_flattened(), keys, stride, at, p, n_keys, scale, scores);
        let inv = softmax_unscaled(scores);
        let mut o = [avx._mm256_setzero_ps(); C];
        for (p, &w) in scores.iter().enumerate() {
            let v = row(vals, p);
            let wv = avx._mm256_set1_ps(w * inv);
            for c in 0..C {
                o[c] = fma._mm256_fmadd_ps(wv, bytemuck::cast(v[c]), o[c]);
            }
        }
        let o: [[f32; LANES]; C] = o.map(bytemuck::cast);
        out[..HD].copy_from_slice(o.as_flattened());
    }
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
    scores_from(q, keys, stride, at, 0, n_keys, scale, scores);
    let inv = softmax_unscaled(scores);
    out.fill(0.0);
    for (p, &w) in scores.iter().enumerate() {
        let v = &vals[p * stride + at..p * stride + at + hd];
        axpy_lanes(out, w * inv, v);
    }
}

/// The scaled scores of keys `p..n_keys` appended to `scores`: four keys at a time (four
/// independent chains of the same per-key arithmetic as `dot_lanes`, one key's dot product
/// being a chain of dependent multiply-adds), then one at a time.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn scores_from(
    q: &[f32],
    keys: &[f32],
    stride: usize,
    at: usize,
    mut p: usize,
    n_keys: usize,
    scale: f32,
    scores: &mut Vec<f32>,
) {
    let hd = q.len();
    let key = |p: usize| &keys[p * stride + at..p * stride + at + hd];
    while p + 4 <= n_keys {
        let d = dot4_lanes(q, [key(p), key(p + 1), key(p + 2), key(p + 3)]);
        scores.extend(d.map(|v| v * scale));
        p += 4;
    }
    for p in p..n_keys {
        scores.push(dot_lanes(q, key(p)) * scale);
    }
}

/// `scores` replaced by `e^(score − max)`; returns `1 / Σ` of them (the softmax's scale,
/// applied by the caller to each weight).
#[inline(always)]
fn softmax_unscaled(scores: &mut [f32]) -> f32 {
    let max = scores.iter().fold(f32::NEG_INFINITY, |m, &v| m.max(v));
    for sc in scores.iter_mut() {
        *sc = exp(*sc - max);
    }
    let sum: f32 = scores.iter().sum();
    1.0 / sum
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
    fn attention_gives_the_portable_bits() {
        // Every remainder of 8 and of 4 keys, keys interleaved with other heads' (a stride
        // and an offset), and the scores' signs and sizes varied.
        let (hd, stride) = (64, 3 * 64);
        let f = |i: usize, s: f32| ((i as f32 * s).sin() * 3.0).powi(3);
        let keys: Vec<f32> = (0..40 * stride).map(|i| f(i, 0.37)).collect();
        let vals: Vec<f32> = (0..40 * stride).map(|i| f(i, 0.11)).collect();
        for at in [0, hd] {
            for n_keys in 1..=40 {
                let q: Vec<f32> = (0..hd).map(|i| f(i + n_keys, 0.23)).collect();
                let (mut s1, mut s2) = (Vec::new(), Vec::new());
                let (mut o1, mut o2) = (vec![0f32; hd], vec![0f32; hd]);
                attend(
                    &q, &keys, &vals, stride, at, n_keys, 0.125, &mut s1, &mut o1,
                );
                attend_lanes(
                    &q, &keys, &vals, stride, at, n_keys, 0.125, &mut s2, &mut o2,
                );
                let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(&s1), bits(&s2), "weights, {n_keys} keys at {at}");
                assert_eq!(bits(&o1), bits(&o2), "output, {n_keys} keys at {at}");
            }
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
