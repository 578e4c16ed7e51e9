//! Baseline: candle-transformers' stock quantized models in a straightforward loop.
//! `cargo run --release -p verity-local --example stock -- PATH.gguf [prompt_tokens] [decode_tokens]`
use std::time::Instant;

use candle_core::quantized::gguf_file;
use candle_core::{Device, Tensor};
use candle_transformers::models::{quantized_llama, quantized_qwen2};

enum M {
    Q(quantized_qwen2::ModelWeights),
    L(quantized_llama::ModelWeights),
}
impl M {
    fn forward(&mut self, x: &Tensor, pos: usize) -> candle_core::Result<Tensor> {
        match self {
            M::Q(m) => m.forward(x, pos),
            M::L(m) => m.forward(x, pos),
        }
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let path = &args[1];
    let n_prompt: usize = args.get(2).map(|s| s.parse()).transpose()?.unwrap_or(41);
    let n_decode: usize = args.get(3).map(|s| s.parse()).transpose()?.unwrap_or(32);
    let t = Instant::now();
    let mut f = std::fs::File::open(path)?;
    let ct = gguf_file::Content::read(&mut f)?;
    let arch = ct.metadata["general.architecture"].to_string()?.clone();
    let dev = Device::Cpu;
    let mut m = if arch == "qwen2" {
        M::Q(quantized_qwen2::ModelWeights::from_gguf(ct, &mut f, &dev)?)
    } else {
        M::L(quantized_llama::ModelWeights::from_gguf(ct, &mut f, &dev)?)
    };
    println!("load {:.2}s", t.elapsed().as_secs_f64());
    let prompt: Vec<u32> = (0..n_prompt as u32).map(|i| 100 + i * 7).collect();
    for rep in 0..3 {
        let t = Instant::now();
        let x = Tensor::new(prompt.as_slice(), &dev)?.unsqueeze(0)?;
        let logits = m.forward(&x, 0)?;
        let mut next = logits.squeeze(0)?.argmax(0)?.to_scalar::<u32>()?;
        let pf = t.elapsed().as_secs_f64();
        let t = Instant::now();
        for i in 0..n_decode {
            let x = Tensor::new(&[next], &dev)?.unsqueeze(0)?;
            let logits = m.forward(&x, n_prompt + i)?;
            next = logits.squeeze(0)?.argmax(0)?.to_scalar::<u32>()?;
        }
        let dc = t.elapsed().as_secs_f64();
        println!(
            "rep {rep}: prefill {n_prompt} tok {:.3}s = {:.1} tok/s; decode {n_decode} tok {:.3}s = {:.1} tok/s",
            pf,
            n_prompt as f64 / pf,
            dc,
            n_decode as f64 / dc
        );
    }
    Ok(())
}
