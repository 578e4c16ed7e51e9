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

#[inline(always)]
fn axpy_lanes(y: &mut [f32], a: f32, x: &[f32]) {
    for (yv, xv) in y.iter_mut().zip(x) {
        *yv = a.mul_add(*xv, *yv);
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
