//! Micro-benchmark of candle's CPU quantized matmul per dtype and shape.
use std::time::Instant;

use candle_core::quantized::{GgmlDType, QMatMul, QTensor};
use candle_core::{Device, Module, Tensor};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dev = Device::Cpu;
    let cases: &[(GgmlDType, usize, usize)] = &[
        (GgmlDType::Q8_0, 4864, 896),
        (GgmlDType::Q5_0, 4864, 896),
        (GgmlDType::Q4_1, 1536, 576),
        (GgmlDType::Q8_0, 1536, 576),
        (GgmlDType::Q4K, 896, 4864),
        (GgmlDType::Q6K, 896, 4864),
        (GgmlDType::Q8_0, 896, 4864),
        (GgmlDType::Q8_0, 4864, 1024),
        (GgmlDType::Q8_0, 151936, 896),
    ];
    for &(dt, n, k) in cases {
        let w = Tensor::randn(0f32, 0.05, (n, k), &dev)?;
        let q = QTensor::quantize(&w, dt)?;
        let bytes = q.storage_size_in_bytes();
        let mm = QMatMul::from_qtensor(q)?;
        for m in [1usize, 4, 41] {
            let x = Tensor::randn(0f32, 1.0, (m, k), &dev)?;
            let _ = mm.forward(&x)?;
            let reps = if n > 100000 { 5 } else { 30 };
            let mut ts = Vec::new();
            for _ in 0..reps {
                let t = Instant::now();
                let _ = mm.forward(&x)?;
                ts.push(t.elapsed().as_secs_f64());
            }
            ts.sort_by(|a, b| a.total_cmp(b));
            let med = ts[ts.len() / 2];
            println!(
                "{dt:?} n={n} k={k} m={m}: {:.3} ms, {:.1} GB/s weights, {:.1} GMAC/s",
                med * 1e3,
                bytes as f64 / med / 1e9,
                (m * n * k) as f64 / med / 1e9
            );
        }
    }
    // f32 gemm
    for m in [1usize, 41, 400] {
        let w = Tensor::randn(0f32, 0.05, (896, 4864), &dev)?;
        let x = Tensor::randn(0f32, 1.0, (m, 896), &dev)?;
        let _ = x.matmul(&w)?;
        let mut ts = Vec::new();
        for _ in 0..20 {
            let t = Instant::now();
            let _ = x.matmul(&w)?;
            ts.push(t.elapsed().as_secs_f64());
        }
        ts.sort_by(|a, b| a.total_cmp(b));
        let med = ts[ts.len() / 2];
        println!(
            "f32 gemm m={m} 896x4864: {:.3} ms {:.1} GMAC/s",
            med * 1e3,
            (m * 896 * 4864) as f64 / med / 1e9
        );
    }
    Ok(())
}
