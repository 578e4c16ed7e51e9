//! Time of one forward pass per batch size, without scheduling, prefill or sampling: `m`
//! sequences with `--context` tokens each in their caches take one decode step together.
//! Reports median milliseconds per step and tokens/s for each `m`, and the gain over `m = 1`.
//!
//! With `--prefill N`, instead: the rate of prefilling an `N`-token prompt in chunks of 64 to
//! `N` rows per pass (the engine's rows-per-step budget for prompt tokens).
//!
//! cargo run --release -p verity-local --example step -- qwen2.5-coder-0.5b-instruct [--context 100] [--reps 20] [--prefill 1024]
mod common;

use std::time::Instant;

use common::{arg, median};

use verity_local::loaded::Loaded;
use verity_local::model::KvCache;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let model = args
        .get(1)
        .cloned()
        .unwrap_or_else(|| "qwen2.5-coder-0.5b-instruct".into());
    let context = arg(&args, "--context", 100);
    let reps = arg(&args, "--reps", 20);
    let threads = arg(&args, "--threads", 2);
    let dir = verity_local::default_models_dir();
    let path = verity_local::resolve(&model, &dir, &mut |m| eprintln!("{m}")).expect("model");
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("pool");
    let loaded = pool.install(|| Loaded::load(&path, None)).expect("load");
    let model = &loaded.model;
    let prompt: Vec<u32> = (0..context as u32).map(|i| 100 + i * 7).collect();
    let mut base = KvCache::new(&model.cfg);
    pool.install(|| model.forward(&mut [&mut base], &[&prompt]));
    let prefill = arg(&args, "--prefill", 0);
    if prefill > 0 {
        let prompt: Vec<u32> = (0..prefill as u32).map(|i| 100 + (i * 7) % 5000).collect();
        let mut chunk = 64;
        while chunk <= prefill {
            let mut ts = Vec::new();
            for _ in 0..reps.clamp(1, 5) + 1 {
                let mut c = KvCache::new(&model.cfg);
                let t = Instant::now();
                for part in prompt.chunks(chunk) {
                    pool.install(|| model.forward(&mut [&mut c], &[part]));
                }
                ts.push(t.elapsed().as_secs_f64());
            }
            ts.remove(0);
            let med = median(ts);
            println!(
                "prefill {prefill} tokens in chunks of {chunk}: {:.0} ms, {:.1} tok/s",
                med * 1e3,
                prefill as f64 / med
            );
            chunk *= 2;
        }
        return;
    }
    let mut one = 0.0;
    let only = arg(&args, "--only", 0);
    for m in [1usize, 2, 4, 8, 16] {
        if only != 0 && m != only && m != 1 {
            continue;
        }
        let mut ts = Vec::new();
        for rep in 0..reps + 2 {
            let mut caches: Vec<KvCache> = (0..m).map(|_| base.prefix(context)).collect();
            let mut refs: Vec<&mut KvCache> = caches.iter_mut().collect();
            let toks: Vec<[u32; 1]> = (0..m).map(|i| [200 + i as u32]).collect();
            let trefs: Vec<&[u32]> = toks.iter().map(|t| &t[..]).collect();
            // One untimed step first: it grows each cache's vectors past their copied size.
            pool.install(|| model.forward(&mut refs, &trefs));
            let t = Instant::now();
            pool.install(|| model.forward(&mut refs, &trefs));
            if rep >= 2 {
                ts.push(t.elapsed().as_secs_f64());
            }
        }
        let med = median(ts);
        let rate = m as f64 / med;
        if m == 1 {
            one = rate;
        }
        println!(
            "m={m}: {:.2} ms/step, {rate:.1} tok/s, {:.2}x m=1",
            med * 1e3,
            rate / one
        );
    }
}
