//! Micro-benchmark of the int8 kernel (`verity_local::kernels::matmul`) per shape and rows.
use std::time::Instant;

use verity_local::kernels::{QMat, QRows, matmul};

fn main() {
    let shapes = [
        (4864usize, 896usize),
        (896, 4864),
        (151936, 896),
        (1536, 576),
    ];
    let mut seed = 1u64;
    let mut rnd = move || {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
        (seed >> 40) as f32 / (1u64 << 24) as f32 - 0.5
    };
    for (n, k) in shapes {
        let qs: Vec<i8> = (0..n * k).map(|_| (rnd() * 250.0) as i8).collect();
        let mut sc: Vec<f32> = (0..n * k / 16).map(|_| rnd() * 0.01).collect();
        // Scales per 16 values (Q6_K), then per 32 (the other GGUF formats).
        let w16 = QMat::new(n, k, qs.clone(), sc.clone(), None).unwrap();
        for p in sc.chunks_exact_mut(2) {
            p[1] = p[0];
        }
        let w32 = QMat::new(n, k, qs, sc, None).unwrap();
        for (gs, w, m) in [1usize, 8, 41]
            .into_iter()
            .flat_map(|m| [(16, &w16, m), (32, &w32, m)])
        {
            let x: Vec<f32> = (0..m * k).map(|_| rnd()).collect();
            let mut out = vec![0f32; m * n];
            let reps = if n > 100_000 { 5 } else { 30 };
            let mut ts = Vec::new();
            for _ in 0..reps {
                let t = Instant::now();
                let q = QRows::quantize(&x, k);
                matmul(w, &q, &mut out);
                ts.push(t.elapsed().as_secs_f64());
            }
            ts.sort_by(f64::total_cmp);
            let med = ts[reps / 2];
            println!(
                "n={n} k={k} group={gs} m={m}: {:.3} ms, {:.1} GMAC/s, {:.1} GB/s",
                med * 1e3,
                (m * n * k) as f64 / med / 1e9,
                w.size_bytes() as f64 / med / 1e9
            );
        }
    }
}
