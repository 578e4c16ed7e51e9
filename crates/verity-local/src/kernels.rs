//! The hot loop: int8 matrix × int8 activations, in safe Rust.
//!
//! Every weight matrix of a model is converted at load time into one layout, [`QMat`]: `i8`
//! values, one `f32` scale per 16 values and optionally one `f32` offset per 16 values
//! (`w = scale · q + offset`). The GGUF formats the supported models use convert *exactly*
//! (Q8_0, Q5_0, Q4_0, Q4_1, Q5_1, Q4_K, Q5_K, Q6_K: their values are small integers times a
//! scale, plus a per-block minimum for the `_1`/`_K` kinds); see `gguf::to_qmat`.
//!
//! Activations are quantized per row into blocks of 32 `i8` with one `f32` scale ([`QRows`],
//! like ggml's Q8_0), plus exact `f32` sums per 16 values for the offset term.
//!
//! On x86-64 with AVX-512 (F + BW), else AVX2 + FMA (detected at run time; `VERITY_LOCAL_KERNEL`
//! can force `avx2` or `portable`), the dot products use ggml's `maddubs`/`madd` formulation
//! through `pulp`'s safe intrinsic wrappers; elsewhere a portable loop. Each (row, column) dot product is computed by the same instruction sequence whatever
//! the number of rows in the call, so a sequence's results do not depend on what it is batched
//! with (the batching tests check this bit for bit).

use rayon::prelude::*;

/// Values per activation block (one scale each).
pub const QK: usize = 32;
/// Values per weight scale / offset.
pub const QS: usize = 16;

/// A weight matrix of `n` output features by `k` input features, row `j` holding the weights
/// of output `j`.
#[derive(Clone)]
pub struct QMat {
    pub n: usize,
    pub k: usize,
    qs: Vec<i8>,
    scales: Vec<f32>,
    offsets: Option<Vec<f32>>,
}

impl std::fmt::Debug for QMat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("QMat")
            .field("n", &self.n)
            .field("k", &self.k)
            .field("offsets", &self.offsets.is_some())
            .finish()
    }
}

impl QMat {
    /// Assembles a matrix; `k` must be a multiple of [`QK`] and the slices of matching sizes.
    pub fn new(
        n: usize,
        k: usize,
        qs: Vec<i8>,
        scales: Vec<f32>,
        offsets: Option<Vec<f32>>,
    ) -> Result<QMat, String> {
        if k == 0 || !k.is_multiple_of(QK) {
            return Err(format!("input size {k} is not a positive multiple of {QK}"));
        }
        let groups = n * (k / QS);
        if qs.len() != n * k || scales.len() != groups {
            return Err(format!(
                "inconsistent quantized matrix: {} values, {} scales for {n}x{k}",
                qs.len(),
                scales.len()
            ));
        }
        if offsets.as_ref().is_some_and(|o| o.len() != groups) {
            return Err("inconsistent quantized matrix offsets".to_owned());
        }
        Ok(QMat {
            n,
            k,
            qs,
            scales,
            offsets,
        })
    }

    /// The rows of several matrices with the same input size, one after the other (one
    /// matmul instead of several: q/k/v, gate/up).
    pub fn stack(mats: &[&QMat]) -> Result<QMat, String> {
        let Some(first) = mats.first() else {
            return Err("nothing to stack".to_owned());
        };
        let k = first.k;
        if mats.iter().any(|m| m.k != k) {
            return Err("stacked matrices differ in input size".to_owned());
        }
        let n = mats.iter().map(|m| m.n).sum();
        let mut qs = Vec::with_capacity(n * k);
        let mut scales = Vec::with_capacity(n * k / QS);
        let any_offsets = mats.iter().any(|m| m.offsets.is_some());
        let mut offsets = Vec::with_capacity(if any_offsets { n * k / QS } else { 0 });
        for m in mats {
            qs.extend_from_slice(&m.qs);
            scales.extend_from_slice(&m.scales);
            if any_offsets {
                match &m.offsets {
                    Some(o) => offsets.extend_from_slice(o),
                    None => offsets.resize(offsets.len() + m.scales.len(), 0.0),
                }
            }
        }
        QMat::new(n, k, qs, scales, any_offsets.then_some(offsets))
    }

    /// Bytes held (for reports).
    pub fn size_bytes(&self) -> usize {
        self.qs.len() + 4 * self.scales.len() + self.offsets.as_ref().map_or(0, |o| 4 * o.len())
    }

    /// Row `j` as `f32` values (embedding look-ups).
    pub fn dequantize_row(&self, j: usize, out: &mut [f32]) {
        let k = self.k;
        let q = &self.qs[j * k..(j + 1) * k];
        let s = &self.scales[j * (k / QS)..(j + 1) * (k / QS)];
        let o = self
            .offsets
            .as_ref()
            .map(|o| &o[j * (k / QS)..(j + 1) * (k / QS)]);
        for (g, (oc, qc)) in out.chunks_exact_mut(QS).zip(q.chunks_exact(QS)).enumerate() {
            let off = o.map_or(0.0, |o| o[g]);
            for (y, &v) in oc.iter_mut().zip(qc) {
                *y = s[g] * v as f32 + off;
            }
        }
    }

    /// The whole matrix as `f32`, row-major `n × k`.
    pub fn dequantize(&self) -> Vec<f32> {
        let mut out = vec![0f32; self.n * self.k];
        out.par_chunks_mut(self.k)
            .enumerate()
            .for_each(|(j, row)| self.dequantize_row(j, row));
        out
    }
}

/// `m` activation rows of `k` values, quantized for [`matmul`].
#[derive(Clone, Debug)]
pub struct QRows {
    pub m: usize,
    pub k: usize,
    qs: Vec<i8>,
    d: Vec<f32>,
    sums: Vec<f32>,
    /// Per 64 values: the two block scales, each repeated 8 times (the lanes of the 512-bit
    /// kernel's partial sums). Empty when `k` is not a multiple of 64.
    d16: Vec<[f32; 16]>,
}

impl QRows {
    /// Quantizes `x` (`m × k`, row-major); `k` must be a multiple of [`QK`].
    pub fn quantize(x: &[f32], k: usize) -> QRows {
        debug_assert!(k.is_multiple_of(QK) && x.len().is_multiple_of(k));
        let m = x.len() / k;
        let mut qs = vec![0i8; m * k];
        let mut d = vec![0f32; m * k / QK];
        let mut sums = vec![0f32; m * k / QS];
        for ((xb, qb), db) in x
            .chunks_exact(QK)
            .zip(qs.chunks_exact_mut(QK))
            .zip(d.iter_mut())
        {
            let amax = xb.iter().fold(0f32, |a, v| a.max(v.abs()));
            let scale = amax / 127.0;
            *db = scale;
            let inv = if scale > 0.0 { 1.0 / scale } else { 0.0 };
            for (q, v) in qb.iter_mut().zip(xb) {
                *q = (v * inv).round().clamp(-127.0, 127.0) as i8;
            }
        }
        for (s, xg) in sums.iter_mut().zip(x.chunks_exact(QS)) {
            *s = xg.iter().sum();
        }
        let d16 = if k.is_multiple_of(2 * QK) {
            d.chunks_exact(2)
                .map(|p| {
                    let mut v = [p[0]; 16];
                    v[8..].fill(p[1]);
                    v
                })
                .collect()
        } else {
            Vec::new()
        };
        QRows {
            m,
            k,
            qs,
            d,
            sums,
            d16,
        }
    }
}

/// `out[r * n + j] = Σ_i x[r][i] · w[j][i]` for every activation row `r` and output `j`, on
/// `pool` (or the current rayon pool).
pub fn matmul(w: &QMat, x: &QRows, out: &mut [f32]) {
    assert_eq!(w.k, x.k, "matmul: input sizes differ");
    let (n, m) = (w.n, x.m);
    assert_eq!(out.len(), n * m, "matmul: output size");
    if m == 0 || n == 0 {
        return;
    }
    // Columns per task: enough tasks for load balancing on a shared machine, few enough that
    // scheduling stays cheap.
    let threads = rayon::current_num_threads().max(1);
    let chunk = n.div_ceil(threads * 8).clamp(16, 1024);
    let mut tmp = vec![0f32; n * m]; // column-major: [j][r]
    tmp.par_chunks_mut(chunk * m)
        .enumerate()
        .for_each(|(ci, dst)| {
            let j0 = ci * chunk;
            let cols = dst.len() / m;
            columns(w, x, j0, cols, dst);
        });
    transpose_into(&tmp, m, n, out);
}

/// Columns per tile of [`transpose_into`]: a tile of `tmp` (`TILE · m` values) stays in L1.
const TILE: usize = 64;

/// `out[r·n + j] = tmp[j·m + r]`, tile by tile. Copying column by column instead writes every
/// row at a stride of `n` values, a cache line and often a page per value: for a 41-row
/// prefill that took a tenth of the time. Here each tile of `tmp` is contiguous and each row
/// of the tile is written as one run.
fn transpose_into(tmp: &[f32], m: usize, n: usize, out: &mut [f32]) {
    for (t, tile) in tmp.chunks(TILE * m).enumerate() {
        let j0 = t * TILE;
        let cols = tile.len() / m;
        for r in 0..m {
            let row = &mut out[r * n + j0..r * n + j0 + cols];
            for (c, o) in row.iter_mut().enumerate() {
                *o = tile[c * m + r];
            }
        }
    }
}

/// Which kernel runs: the widest the CPU has, or the one named by `VERITY_LOCAL_KERNEL`
/// (`avx512`, `avx2`, `portable`; for benchmarks and for reproducing another machine's path).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    Avx512,
    Avx2,
    Portable,
}

/// The kernel this process uses.
pub fn kernel() -> Kernel {
    static K: std::sync::OnceLock<Kernel> = std::sync::OnceLock::new();
    *K.get_or_init(|| {
        let wanted = std::env::var("VERITY_LOCAL_KERNEL").unwrap_or_default();
        #[cfg(target_arch = "x86_64")]
        {
            let v4 = pulp::x86::V4::is_available();
            let v3 = pulp::x86::V3::is_available();
            match wanted.as_str() {
                "portable" => Kernel::Portable,
                "avx2" if v3 => Kernel::Avx2,
                _ if v4 && wanted != "avx2" => Kernel::Avx512,
                _ if v3 => Kernel::Avx2,
                _ => Kernel::Portable,
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = wanted;
            Kernel::Portable
        }
    })
}

/// Dot products of columns `j0..j0+cols` with every row, written `[j][r]`.
fn columns(w: &QMat, x: &QRows, j0: usize, cols: usize, dst: &mut [f32]) {
    #[cfg(target_arch = "x86_64")]
    {
        let k = kernel();
        if k == Kernel::Avx512
            && !x.d16.is_empty()
            && let Some(simd) = pulp::x86::V4::try_new()
        {
            simd.vectorize(
                #[inline(always)]
                || avx512::columns(simd, w, x, j0, cols, dst),
            );
            return;
        }
        if k != Kernel::Portable
            && let Some(simd) = pulp::x86::V3::try_new()
        {
            simd.vectorize(
                #[inline(always)]
                || avx2::columns(simd, w, x, j0, cols, dst),
            );
            return;
        }
    }
    portable_columns(w, x, j0, cols, dst);
}

#[inline(always)]
fn offset_term(w: &QMat, j: usize, x: &QRows, r: usize) -> f32 {
    let g = w.k / QS;
    match &w.offsets {
        None => 0.0,
        Some(o) => crate::simd::dot_lanes(&o[j * g..(j + 1) * g], &x.sums[r * g..(r + 1) * g]),
    }
}

fn portable_columns(w: &QMat, x: &QRows, j0: usize, cols: usize, dst: &mut [f32]) {
    let (k, m) = (w.k, x.m);
    let nb = k / QK;
    for c in 0..cols {
        let j = j0 + c;
        let wq = &w.qs[j * k..(j + 1) * k];
        let ws = &w.scales[j * (k / QS)..(j + 1) * (k / QS)];
        for r in 0..m {
            let xq = &x.qs[r * k..(r + 1) * k];
            let xd = &x.d[r * nb..(r + 1) * nb];
            let mut acc = 0f32;
            for b in 0..nb {
                let mut lo = 0i32;
                let mut hi = 0i32;
                for i in 0..QS {
                    lo += wq[b * QK + i] as i32 * xq[b * QK + i] as i32;
                    hi += wq[b * QK + QS + i] as i32 * xq[b * QK + QS + i] as i32;
                }
                acc += xd[b] * (ws[2 * b] * lo as f32 + ws[2 * b + 1] * hi as f32);
            }
            dst[c * m + r] = acc + offset_term(w, j, x, r);
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use core::arch::x86_64::{__m128, __m256, __m256i};

    use pulp::x86::V3;

    use super::{QK, QMat, QRows, QS, offset_term};

    /// Rows handled together per weight block (weights loaded once for all of them).
    const RB: usize = 4;
    /// Rows per tile (a multiple of `RB`).
    const ROW_TILE: usize = 16;

    #[inline(always)]
    fn load(v: &[i8; QK]) -> __m256i {
        bytemuck::cast(*v)
    }

    #[inline(always)]
    fn hsum(simd: V3, v: __m256) -> f32 {
        let lo: __m128 = simd.avx._mm256_castps256_ps128(v);
        let hi: __m128 = simd.avx._mm256_extractf128_ps::<1>(v);
        let s = simd.sse._mm_add_ps(lo, hi);
        let a: [f32; 4] = bytemuck::cast(s);
        (a[0] + a[1]) + (a[2] + a[3])
    }

    #[inline(always)]
    pub(super) fn columns(simd: V3, w: &QMat, x: &QRows, j0: usize, cols: usize, dst: &mut [f32]) {
        let (k, m) = (w.k, x.m);
        let nb = k / QK;
        let (xblocks, _) = x.qs.as_chunks::<QK>();
        let ones = simd.avx._mm256_set1_epi16(1);
        // Row tiles small enough for their quantized activations to stay in L1 while the
        // chunk's weight rows (in L2) are swept once per tile.
        let mut t0 = 0;
        while t0 < m {
            let t1 = (t0 + ROW_TILE).min(m);
            for c in 0..cols {
                let j = j0 + c;
                let (wblocks, _) = w.qs[j * k..(j + 1) * k].as_chunks::<QK>();
                let ws = &w.scales[j * (k / QS)..(j + 1) * (k / QS)];
                let mut r0 = t0;
                while r0 < t1 {
                    let rows = (t1 - r0).min(RB);
                    let mut acc = [simd.avx._mm256_setzero_ps(); RB];
                    for (b, wb) in wblocks.iter().enumerate() {
                        let wv = load(wb);
                        let aw = simd.avx2._mm256_sign_epi8(wv, wv);
                        let sv = simd.avx._mm256_set_m128(
                            simd.sse._mm_set1_ps(ws[2 * b + 1]),
                            simd.sse._mm_set1_ps(ws[2 * b]),
                        );
                        for (i, a) in acc.iter_mut().enumerate().take(rows) {
                            let r = r0 + i;
                            let xv = load(&xblocks[r * nb + b]);
                            let sx = simd.avx2._mm256_sign_epi8(xv, wv);
                            let p16 = simd.avx2._mm256_maddubs_epi16(aw, sx);
                            let p32 = simd.avx2._mm256_madd_epi16(p16, ones);
                            let pf = simd.avx._mm256_cvtepi32_ps(p32);
                            let scale = simd
                                .avx
                                ._mm256_mul_ps(sv, simd.avx._mm256_set1_ps(x.d[r * nb + b]));
                            *a = simd.fma._mm256_fmadd_ps(pf, scale, *a);
                        }
                    }
                    for (i, a) in acc.iter().enumerate().take(rows) {
                        let r = r0 + i;
                        dst[c * m + r] = hsum(simd, *a) + offset_term(w, j, x, r);
                    }
                    r0 += rows;
                }
            }
            t0 = t1;
        }
    }
}

/// The AVX-512 (F + BW) kernel: 64 values (two blocks) per instruction.
#[cfg(target_arch = "x86_64")]
mod avx512 {
    use core::arch::x86_64::{__m128, __m512, __m512i};

    use pulp::x86::V4;

    use super::{QK, QMat, QRows, QS, offset_term};

    const RB: usize = 8;
    const ROW_TILE: usize = 16;

    #[inline(always)]
    pub(super) fn columns(simd: V4, w: &QMat, x: &QRows, j0: usize, cols: usize, dst: &mut [f32]) {
        let (k, m) = (w.k, x.m);
        let nc = k / (2 * QK);
        let (xchunks, _) = x.qs.as_chunks::<64>();
        let ones = simd.avx512f._mm512_set1_epi16(1);
        let zero = simd.avx512f._mm512_setzero_si512();
        // lanes 4h..4h+4 take half-block scale h
        let spread: __m512i = bytemuck::cast([0i32, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3]);
        let mut t0 = 0;
        while t0 < m {
            let t1 = (t0 + ROW_TILE).min(m);
            for c in 0..cols {
                let j = j0 + c;
                let (wchunks, _) = w.qs[j * k..(j + 1) * k].as_chunks::<64>();
                let (ws4, _) = w.scales[j * (k / QS)..(j + 1) * (k / QS)].as_chunks::<4>();
                let mut r0 = t0;
                while r0 < t1 {
                    let rows = (t1 - r0).min(RB);
                    let mut acc = [simd.avx512f._mm512_setzero_ps(); RB];
                    for (ci, (wb, s4)) in wchunks.iter().zip(ws4).enumerate() {
                        let wv: __m512i = bytemuck::cast(*wb);
                        let aw = simd.avx512bw._mm512_abs_epi8(wv);
                        let neg = simd.avx512bw._mm512_movepi8_mask(wv);
                        let s128: __m128 = bytemuck::cast(*s4);
                        let wsv = simd.avx512f._mm512_permutexvar_ps(
                            spread,
                            simd.avx512f._mm512_castps128_ps512(s128),
                        );
                        for (i, a) in acc.iter_mut().enumerate().take(rows) {
                            let r = r0 + i;
                            let xv: __m512i = bytemuck::cast(xchunks[r * nc + ci]);
                            let sx = simd.avx512bw._mm512_mask_sub_epi8(xv, neg, zero, xv);
                            let p16 = simd.avx512bw._mm512_maddubs_epi16(aw, sx);
                            let p32 = simd.avx512bw._mm512_madd_epi16(p16, ones);
                            let pf = simd.avx512f._mm512_cvtepi32_ps(p32);
                            let xd: __m512 = bytemuck::cast(x.d16[r * nc + ci]);
                            let scale = simd.avx512f._mm512_mul_ps(wsv, xd);
                            *a = simd.avx512f._mm512_fmadd_ps(pf, scale, *a);
                        }
                    }
                    for (i, a) in acc.iter().enumerate().take(rows) {
                        let r = r0 + i;
                        let lanes: [f32; 16] = bytemuck::cast(*a);
                        let mut h = [0f32; 8];
                        for l in 0..8 {
                            h[l] = lanes[l] + lanes[l + 8];
                        }
                        let s = ((h[0] + h[4]) + (h[1] + h[5])) + ((h[2] + h[6]) + (h[3] + h[7]));
                        dst[c * m + r] = s + offset_term(w, j, x, r);
                    }
                    r0 += rows;
                }
            }
            t0 = t1;
        }
    }
}

#[cfg(test)]
mod transpose_tests {
    #[test]
    fn transpose_matches_the_definition_for_ragged_tiles() {
        for (m, n) in [(1, 5), (3, 64), (41, 130), (8, 1)] {
            let tmp: Vec<f32> = (0..m * n).map(|i| i as f32).collect();
            let mut out = vec![0f32; m * n];
            super::transpose_into(&tmp, m, n, &mut out);
            for r in 0..m {
                for j in 0..n {
                    assert_eq!(out[r * n + j], tmp[j * m + r], "m={m} n={n} r={r} j={j}");
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lcg(seed: &mut u64) -> f32 {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((*seed >> 33) as f32 / (1u64 << 31) as f32) * 2.0 - 1.0
    }

    fn random_qmat(n: usize, k: usize, offsets: bool, seed: &mut u64) -> QMat {
        let qs = (0..n * k).map(|_| (lcg(seed) * 127.0) as i8).collect();
        let scales = (0..n * k / QS).map(|_| lcg(seed).abs() * 0.01).collect();
        let offsets = offsets.then(|| (0..n * k / QS).map(|_| lcg(seed) * 0.01).collect());
        QMat::new(n, k, qs, scales, offsets).unwrap()
    }

    fn reference(w: &QMat, x: &[f32], m: usize) -> Vec<f32> {
        let wd = w.dequantize();
        let mut out = vec![0f32; m * w.n];
        for r in 0..m {
            for j in 0..w.n {
                out[r * w.n + j] = (0..w.k)
                    .map(|i| wd[j * w.k + i] as f64 * x[r * w.k + i] as f64)
                    .sum::<f64>() as f32;
            }
        }
        out
    }

    #[test]
    fn matmul_matches_f64_reference_within_activation_quantization_error() {
        let mut seed = 7;
        for &(n, k, m, off) in &[(40, 64, 1, false), (33, 96, 5, true), (100, 256, 9, true)] {
            let w = random_qmat(n, k, off, &mut seed);
            let x: Vec<f32> = (0..m * k).map(|_| lcg(&mut seed)).collect();
            let mut out = vec![0f32; m * n];
            matmul(&w, &QRows::quantize(&x, k), &mut out);
            let want = reference(&w, &x, m);
            let scale = want.iter().fold(0f32, |a, v| a.max(v.abs()));
            for (a, b) in out.iter().zip(&want) {
                assert!((a - b).abs() <= 0.02 * scale, "{a} vs {b} (scale {scale})");
            }
        }
    }

    #[test]
    fn a_row_gives_the_same_bits_alone_and_in_any_batch() {
        let mut seed = 11;
        let (n, k) = (70, 128);
        let w = random_qmat(n, k, true, &mut seed);
        let x: Vec<f32> = (0..7 * k).map(|_| lcg(&mut seed)).collect();
        let mut all = vec![0f32; 7 * n];
        matmul(&w, &QRows::quantize(&x, k), &mut all);
        for r in 0..7 {
            let mut one = vec![0f32; n];
            matmul(&w, &QRows::quantize(&x[r * k..(r + 1) * k], k), &mut one);
            assert_eq!(one, all[r * n..(r + 1) * n], "row {r}");
        }
    }

    #[test]
    fn the_portable_path_agrees_with_the_vector_path() {
        let mut seed = 5;
        for &(n, k, m) in &[(24, 160, 3), (40, 256, 6)] {
            let w = random_qmat(n, k, true, &mut seed);
            let x: Vec<f32> = (0..m * k).map(|_| lcg(&mut seed)).collect();
            let q = QRows::quantize(&x, k);
            let mut a = vec![0f32; n * m];
            let mut b = vec![0f32; n * m];
            columns(&w, &q, 0, n, &mut a);
            portable_columns(&w, &q, 0, n, &mut b);
            for (x, y) in a.iter().zip(&b) {
                assert!((x - y).abs() <= 1e-4 * (1.0 + y.abs()), "{x} vs {y}");
            }
        }
    }

    #[test]
    fn bad_shapes_are_errors() {
        assert!(QMat::new(2, 20, vec![0; 40], vec![0.0; 2], None).is_err());
        assert!(QMat::new(2, 32, vec![0; 63], vec![0.0; 4], None).is_err());
        assert!(QMat::new(2, 32, vec![0; 64], vec![0.0; 4], Some(vec![0.0; 3])).is_err());
    }
}
