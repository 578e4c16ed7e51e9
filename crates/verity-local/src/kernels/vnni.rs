//! The VNNI kernels: `vpdpbusd` adds four `u8 × i8` products into each 32-bit lane, 64
//! multiply-adds per AVX-512 instruction (one step of a panel, see the parent module), 32 per
//! 256-bit AVX-VNNI one ([`ymm`], half a step).
//!
//! `pulp` does not wrap VNNI, so this module holds the crate's only `unsafe`: for each kernel,
//! one call of its `#[target_feature]` function after run-time detection of every feature it
//! enables. Inside them the intrinsics are safe calls (none takes a pointer) and every load
//! is a `bytemuck` cast of a checked slice.
#![allow(unsafe_code)]

use core::arch::x86_64::{
    __m512, __m512i, _mm512_cvtepi32_ps, _mm512_dpbusd_epi32, _mm512_fmadd_ps, _mm512_mul_ps,
    _mm512_set1_epi32, _mm512_set1_ps, _mm512_setzero_ps,
};

use super::{PANEL, Panel, QK, QMat, QRows, Row, STEP};

/// Whether this CPU runs the kernel (AVX-512 F, BW and VNNI).
pub(super) fn available() -> bool {
    std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512bw")
        && std::arch::is_x86_feature_detected!("avx512vnni")
}

/// Panels `p0..` (as many as `dst` holds) against every row, written `[p][r][16]`.
///
/// # Panics
/// If the CPU lacks a feature the kernel needs (callers check [`available`] first).
pub(super) fn panels(w: &QMat, x: &QRows, p0: usize, dst: &mut [f32]) {
    assert!(
        available(),
        "the VNNI kernel needs AVX-512 F, BW and VNNI, which this CPU lacks"
    );
    // SAFETY: `panels_vnni` has no requirement but its target features, and the CPU has each
    // of them: checked just above.
    unsafe { panels_vnni(w, x, p0, dst) }
}

#[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
fn panels_vnni(w: &QMat, x: &QRows, p0: usize, dst: &mut [f32]) {
    let m = x.m;
    // Panel by panel, the whole of each at once: the weights stream through in order, which
    // measured faster than blocking `k` to keep a slice of each panel in L1 (the prefetcher
    // restarts on every slice).
    for (pi, out) in dst.chunks_exact_mut(PANEL * m).enumerate() {
        let panel = w.panel(p0 + pi);
        let (out, _) = out.as_chunks_mut::<PANEL>();
        let mut r0 = 0;
        while r0 < m {
            r0 += match (m - r0, w.gs / STEP) {
                (8.., 4) => rows::<8, 4>(&panel, x, r0, out),
                (4.., 4) => rows::<4, 4>(&panel, x, r0, out),
                (2.., 4) => rows::<2, 4>(&panel, x, r0, out),
                (_, 4) => rows::<1, 4>(&panel, x, r0, out),
                (8.., _) => rows::<8, 8>(&panel, x, r0, out),
                (4.., _) => rows::<4, 8>(&panel, x, r0, out),
                (2.., _) => rows::<2, 8>(&panel, x, r0, out),
                _ => rows::<1, 8>(&panel, x, r0, out),
            };
        }
    }
}

/// Rows `r0..r0 + R` against one panel, `S` steps per group: a group's steps are loaded
/// once for all `R` rows, whose accumulators stay in registers. Returns `R`.
#[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
#[inline]
fn rows<const R: usize, const S: usize>(
    panel: &Panel<'_>,
    x: &QRows,
    r0: usize,
    out: &mut [[f32; PANEL]],
) -> usize {
    let rows: [Row<'_>; R] = core::array::from_fn(|i| x.row(r0 + i, panel.gs));
    let mut acc = [_mm512_setzero_ps(); R];
    let (groups, _) = panel.qs.as_chunks::<S>();
    for (gi, steps) in groups.iter().enumerate() {
        let sc: __m512 = bytemuck::cast(panel.scales[gi]);
        // Integer sums, four steps at a time (four weight registers live, not eight).
        let mut t: [__m512i; R] = core::array::from_fn(|i| _mm512_set1_epi32(rows[i].corr[gi]));
        for (h, quad) in steps.as_chunks::<4>().0.iter().enumerate() {
            let w: [__m512i; 4] = core::array::from_fn(|s| bytemuck::cast(quad[s]));
            unrolled::<R>(
                #[inline(always)]
                |i| {
                    let at = gi * S + 4 * h;
                    let xq: &[i32; 4] = rows[i].q4[at..].first_chunk().unwrap_or(&[0; 4]);
                    for (wv, &x4) in w.iter().zip(xq) {
                        t[i] = _mm512_dpbusd_epi32(t[i], *wv, _mm512_set1_epi32(x4));
                    }
                },
            );
        }
        unrolled::<R>(
            #[inline(always)]
            |i| {
                let scale = _mm512_mul_ps(sc, _mm512_set1_ps(rows[i].d[gi * S * STEP / QK]));
                acc[i] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(t[i]), scale, acc[i]);
            },
        );
        if let Some(off) = panel.offsets {
            let ov: __m512 = bytemuck::cast(off[gi]);
            unrolled::<R>(
                #[inline(always)]
                |i| acc[i] = _mm512_fmadd_ps(ov, _mm512_set1_ps(rows[i].sums[gi]), acc[i]),
            );
        }
    }
    for (o, a) in out[r0..r0 + R].iter_mut().zip(acc) {
        *o = bytemuck::cast(a);
    }
    R
}

/// `f(0)`, …, `f(R - 1)` written out, for `R` up to 8: with constant indices the row
/// accumulators stay in registers (a loop over them kept them on the stack).
#[inline(always)]
fn unrolled<const R: usize>(mut f: impl FnMut(usize)) {
    const { assert!(R <= 8) };
    if R > 0 {
        f(0);
    }
    if R > 1 {
        f(1);
    }
    if R > 2 {
        f(2);
    }
    if R > 3 {
        f(3);
    }
    if R > 4 {
        f(4);
    }
    if R > 5 {
        f(5);
    }
    if R > 6 {
        f(6);
    }
    if R > 7 {
        f(7);
    }
}

/// The 256-bit AVX-VNNI kernel (Intel cores from Alder Lake on, which have no AVX-512):
/// `vpdpbusd` on `ymm`, a panel as two halves of 8 features, otherwise the same arithmetic
/// in the same order as the 512-bit kernel.
pub(super) mod ymm {
    use core::arch::x86_64::{
        __m256, __m256i, _mm256_cvtepi32_ps, _mm256_dpbusd_avx_epi32, _mm256_fmadd_ps,
        _mm256_mul_ps, _mm256_set1_epi32, _mm256_set1_ps, _mm256_setzero_ps,
    };

    use super::super::{PANEL, Panel, QK, QMat, QRows, Row, STEP};
    use super::unrolled;

    /// Whether this CPU runs the kernel (AVX2, FMA and AVX-VNNI).
    pub(in crate::kernels) fn available() -> bool {
        std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("fma")
            && std::arch::is_x86_feature_detected!("avxvnni")
    }

    /// Panels `p0..` (as many as `dst` holds) against every row, written `[p][r][16]`.
    ///
    /// # Panics
    /// If the CPU lacks a feature the kernel needs (callers check [`available`] first).
    pub(in crate::kernels) fn panels(w: &QMat, x: &QRows, p0: usize, dst: &mut [f32]) {
        assert!(
            available(),
            "the AVX-VNNI kernel needs AVX2, FMA and AVX-VNNI, which this CPU lacks"
        );
        // SAFETY: `panels_avxvnni` has no requirement but its target features, and the CPU
        // has each of them: checked just above.
        unsafe { panels_avxvnni(w, x, p0, dst) }
    }

    #[target_feature(enable = "avx2,fma,avxvnni")]
    fn panels_avxvnni(w: &QMat, x: &QRows, p0: usize, dst: &mut [f32]) {
        let m = x.m;
        for (pi, out) in dst.chunks_exact_mut(PANEL * m).enumerate() {
            let panel = w.panel(p0 + pi);
            let (out, _) = out.as_chunks_mut::<PANEL>();
            for half in 0..2 {
                let mut r0 = 0;
                while r0 < m {
                    r0 += match (m - r0, w.gs / STEP) {
                        (4.., 4) => rows::<4, 4>(&panel, x, r0, half, out),
                        (2.., 4) => rows::<2, 4>(&panel, x, r0, half, out),
                        (_, 4) => rows::<1, 4>(&panel, x, r0, half, out),
                        (4.., _) => rows::<4, 8>(&panel, x, r0, half, out),
                        (2.., _) => rows::<2, 8>(&panel, x, r0, half, out),
                        _ => rows::<1, 8>(&panel, x, r0, half, out),
                    };
                }
            }
        }
    }

    /// Rows `r0..r0 + R` against features `8·half..8·half + 8` of one panel, `S` steps per
    /// group. Returns `R`.
    #[target_feature(enable = "avx2,fma,avxvnni")]
    #[inline]
    fn rows<const R: usize, const S: usize>(
        panel: &Panel<'_>,
        x: &QRows,
        r0: usize,
        half: usize,
        out: &mut [[f32; PANEL]],
    ) -> usize {
        let rows: [Row<'_>; R] = core::array::from_fn(|i| x.row(r0 + i, panel.gs));
        let mut acc = [_mm256_setzero_ps(); R];
        let (groups, _) = panel.qs.as_chunks::<S>();
        for (gi, steps) in groups.iter().enumerate() {
            let sc: __m256 = bytemuck::cast(panel.scales[gi].as_chunks::<8>().0[half]);
            let mut t: [__m256i; R] = core::array::from_fn(|i| _mm256_set1_epi32(rows[i].corr[gi]));
            for (h, quad) in steps.as_chunks::<4>().0.iter().enumerate() {
                let w: [__m256i; 4] =
                    core::array::from_fn(|s| bytemuck::cast(quad[s].as_chunks::<32>().0[half]));
                unrolled::<R>(
                    #[inline(always)]
                    |i| {
                        let at = gi * S + 4 * h;
                        let xq: &[i32; 4] = rows[i].q4[at..].first_chunk().unwrap_or(&[0; 4]);
                        for (wv, &x4) in w.iter().zip(xq) {
                            t[i] = _mm256_dpbusd_avx_epi32(t[i], *wv, _mm256_set1_epi32(x4));
                        }
                    },
                );
            }
            unrolled::<R>(
                #[inline(always)]
                |i| {
                    let xd = _mm256_set1_ps(rows[i].d[gi * S * STEP / QK]);
                    let scale = _mm256_mul_ps(sc, xd);
                    acc[i] = _mm256_fmadd_ps(_mm256_cvtepi32_ps(t[i]), scale, acc[i]);
                },
            );
            if let Some(off) = panel.offsets {
                let ov: __m256 = bytemuck::cast(off[gi].as_chunks::<8>().0[half]);
                unrolled::<R>(
                    #[inline(always)]
                    |i| {
                        let xs = _mm256_set1_ps(rows[i].sums[gi]);
                        acc[i] = _mm256_fmadd_ps(ov, xs, acc[i]);
                    },
                );
            }
        }
        for (o, a) in out[r0..r0 + R].iter_mut().zip(acc) {
            let lanes: [f32; 8] = bytemuck::cast(a);
            o[8 * half..8 * half + 8].copy_from_slice(&lanes);
        }
        R
    }
}
