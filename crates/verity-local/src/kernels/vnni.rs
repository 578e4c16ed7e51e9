//! The AVX-512 VNNI kernel: `vpdpbusd` adds four `u8 × i8` products into each 32-bit lane, 64
//! multiply-adds per instruction, which is one step of a panel (see the parent module).
//!
//! `pulp` does not wrap VNNI, so this module holds the crate's only `unsafe`: one call of the
//! `#[target_feature]` function after run-time detection of every feature it enables. Inside
//! it the intrinsics are safe calls (none takes a pointer) and every load is a `bytemuck`
//! cast of a checked slice.
#![allow(unsafe_code)]

use core::arch::x86_64::{
    __m512, __m512i, _mm512_cvtepi32_ps, _mm512_dpbusd_epi32, _mm512_fmadd_ps, _mm512_mul_ps,
    _mm512_set1_epi32, _mm512_set1_ps, _mm512_setzero_ps,
};

use super::{PANEL, Panel, QMat, QRows, Row, STEPS};

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

/// Groups of 16 inputs per pass over the panels: a pass's slice of a panel (16 KiB) and of
/// eight activation rows stay in L1 while every row block uses them. Accumulators are stored
/// to `dst` between passes and loaded back, so the arithmetic is the same sequence.
const PASS_GROUPS: usize = 64;

#[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
fn panels_vnni(w: &QMat, x: &QRows, p0: usize, dst: &mut [f32]) {
    let m = x.m;
    let groups = w.k / super::QS;
    let mut g0 = 0;
    while g0 < groups {
        let pass = g0..(g0 + PASS_GROUPS).min(groups);
        for (pi, out) in dst.chunks_exact_mut(PANEL * m).enumerate() {
            let panel = w.panel(p0 + pi);
            let (out, _) = out.as_chunks_mut::<PANEL>();
            let mut r0 = 0;
            while r0 < m {
                let span = (&panel, pass.clone(), &mut *out);
                r0 += match m - r0 {
                    8.. => rows::<8>(span, x, r0),
                    4.. => rows::<4>(span, x, r0),
                    2.. => rows::<2>(span, x, r0),
                    _ => rows::<1>(span, x, r0),
                };
            }
        }
        g0 = pass.end;
    }
}

/// Rows `r0..r0 + R` against groups `pass` of one panel: a group's four steps are loaded
/// once for all `R` rows, whose accumulators stay in registers (starting from zero on the
/// first pass, from `out` after). Returns `R`.
#[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
#[inline]
fn rows<const R: usize>(
    (panel, pass, out): (&Panel<'_>, std::ops::Range<usize>, &mut [[f32; PANEL]]),
    x: &QRows,
    r0: usize,
) -> usize {
    let rows: [Row<'_>; R] = core::array::from_fn(|i| x.row(r0 + i));
    let mut acc: [__m512; R] = if pass.start == 0 {
        [_mm512_setzero_ps(); R]
    } else {
        core::array::from_fn(|i| bytemuck::cast(out[r0 + i]))
    };
    let (groups, _) = panel.qs.as_chunks::<STEPS>();
    for gi in pass {
        let steps = &groups[gi];
        let w: [__m512i; STEPS] = core::array::from_fn(|s| bytemuck::cast(steps[s]));
        let sc: __m512 = bytemuck::cast(panel.scales[gi]);
        for (a, row) in acc.iter_mut().zip(&rows) {
            let xq = row.q4[gi];
            let mut t = _mm512_set1_epi32(row.corr[gi]);
            for (wv, &x4) in w.iter().zip(&xq) {
                t = _mm512_dpbusd_epi32(t, *wv, _mm512_set1_epi32(x4));
            }
            let scale = _mm512_mul_ps(sc, _mm512_set1_ps(row.d[gi / 2]));
            *a = _mm512_fmadd_ps(_mm512_cvtepi32_ps(t), scale, *a);
        }
        if let Some(off) = panel.offsets {
            let ov: __m512 = bytemuck::cast(off[gi]);
            for (a, row) in acc.iter_mut().zip(&rows) {
                *a = _mm512_fmadd_ps(ov, _mm512_set1_ps(row.sums[gi]), *a);
            }
        }
    }
    for (o, a) in out[r0..r0 + R].iter_mut().zip(acc) {
        *o = bytemuck::cast(a);
    }
    R
}
