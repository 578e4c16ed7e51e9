//! Micro-benchmark of the int8 kernel (`verity_local::kernels::matmul`) per shape, group size
//! and number of rows (the activations quantized beforehand). Each shape has enough copies to fill 256 MB, used in turn as a model's
//! layers are, so the weights stream from memory as in a forward pass instead of sitting in
//! the L3 cache.
//!
//! cargo run --release -p verity-local --example kbench [-- --rows 1,8,41]
mod common;

use std::time::Instant;

use common::median;

use verity_local::kernels::{QMat, QRows, matmul};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rows: Vec<usize> = args
        .iter()
        .position(|a| a == "--rows")
        .and_then(|i| args.get(i + 1))
        .map(|v| v.split(',').filter_map(|r| r.parse().ok()).collect())
        .unwrap_or_else(|| vec![1, 8, 41]);
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
        let copies = (256 << 20) / (n * k * 5 / 4);
        let qs: Vec<i8> = (0..n * k).map(|_| (rnd() * 250.0) as i8).collect();
        let mut sc: Vec<f32> = (0..n * k / 16).map(|_| rnd() * 0.01).collect();
        // Scales per 16 values (Q6_K), then per 32 (the other GGUF formats).
        let w16 = QMat::new(n, k, qs.clone(), sc.clone(), None).unwrap();
        for p in sc.chunks_exact_mut(2) {
            p[1] = p[0];
        }
        let w32 = QMat::new(n, k, qs, sc, None).unwrap();
        let layers = |w: &QMat| vec![w.clone(); copies.max(1)];
        let (l16, l32) = (layers(&w16), layers(&w32));
        for (gs, ws, m) in rows.iter().flat_map(|&m| [(16, &l16, m), (32, &l32, m)]) {
            let x: Vec<f32> = (0..m * k).map(|_| rnd()).collect();
            let mut out = vec![0f32; m * n];
            let q = QRows::quantize(&x, k);
            let reps = 7 * ws.len().max(1);
            let mut ts = Vec::new();
            for rep in 0..reps {
                let t = Instant::now();
                matmul(&ws[rep % ws.len()], &q, &mut out);
                ts.push(t.elapsed().as_secs_f64());
            }
            let med = median(ts);
            println!(
                "n={n} k={k} group={gs} m={m}: {:.3} ms, {:.1} GMAC/s, {:.1} GB/s",
                med * 1e3,
                (m * n * k) as f64 / med / 1e9,
                ws[0].size_bytes() as f64 / med / 1e9
            );
        }
    }
}
