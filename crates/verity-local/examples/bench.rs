//! Benchmark of the embedded model (numbers for BENCHMARKS.md).
//!
//! ```text
//! cargo build --release -p verity-local --example bench
//! /usr/bin/time -v target/release/examples/bench qwen2.5-coder-0.5b-instruct [--reps 5] [--samples 60] [--batch 8] [--prefix-cache-mb 64]
//! ```
//!
//! Measures, with medians over `--reps` runs: load time; prefill tokens/s of a ~40-token and a
//! ~400-token chat prompt; single-stream greedy decode tokens/s (64 tokens, end of turn
//! ignored so every run decodes the same count); then the aggregate throughput of `--samples`
//! different prompts submitted at once through the provider (continuous batching, `--batch`
//! sequences per forward pass), against the same run with `batch = 1`; both with the prefix
//! cache of `--prefix-cache-mb` (0: off; it reports how many prompt tokens were reused). Peak
//! memory comes from `/usr/bin/time -v`.

mod common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use common::{arg, median};
use serde_json::json;
use verity_local::LocalProvider;
use verity_local::engine::argmax;
use verity_local::model::KvCache;
use verity_model::{
    ChatMessage, GenParams, GenerateRequest, Provider, ProviderSpec, Role, SampleKey, Task,
};

fn spec(model: &str, batch: usize, prefix_cache_mb: usize) -> ProviderSpec {
    ProviderSpec {
        kind: "local".into(),
        model: Some(model.into()),
        base_url: None,
        api_key_env: None,
        options: json!({"batch": batch, "prefix_cache_mb": prefix_cache_mb})
            .as_object()
            .cloned()
            .unwrap_or_default(),
    }
}

fn request(i: usize, prompt: String, max_tokens: u32) -> GenerateRequest {
    GenerateRequest {
        sample: SampleKey {
            task_id: format!("t{i}"),
            variant: "bench".into(),
            epoch: 1,
        },
        task: Arc::new(Task::prompt(format!("t{i}"), prompt.clone())),
        messages: vec![ChatMessage::new(Role::User, prompt)],
        params: GenParams {
            temperature: Some(0.0),
            max_tokens: Some(max_tokens),
            ..GenParams::default()
        },
        tools: Vec::new(),
    }
}

const TOPICS: &[&str] = &[
    "binary search",
    "a linked list",
    "quicksort",
    "a hash map",
    "Dijkstra's algorithm",
    "a stack",
    "a queue",
    "merge sort",
    "string reversal",
    "a palindrome check",
    "FizzBuzz",
    "the factorial",
    "Fibonacci numbers",
    "prime sieving",
    "matrix multiplication",
];
const LANGS: &[&str] = &["Python", "Rust", "Go", "JavaScript"];

/// 60 different small coding prompts, like a suite's.
fn suite_prompts(n: usize) -> Vec<String> {
    (0..n)
        .map(|i| {
            format!(
                "Write {} code for {}. Keep it short.",
                LANGS[i % LANGS.len()],
                TOPICS[i % TOPICS.len()]
            )
        })
        .collect()
}

/// Runs `reqs` all at once and returns (wall time, output tokens, mean max batch, prompt
/// tokens, prompt tokens reused from the prefix cache).
fn run_all(p: &LocalProvider, reqs: &[GenerateRequest]) -> (Duration, u64, f64, u64, u64) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let start = Instant::now();
    let gens = rt.block_on(async {
        // Futures are lazy: poll them all at once so the engine sees every request.
        futures::future::join_all(reqs.iter().map(|r| p.generate(r)))
            .await
            .into_iter()
            .map(|g| g.expect("generation"))
            .collect::<Vec<_>>()
    });
    let wall = start.elapsed();
    let tokens = gens.iter().map(|g| g.usage.output_tokens).sum();
    let raw = |g: &verity_model::Generation, key: &str| {
        serde_json::from_str::<serde_json::Value>(&g.raw).unwrap()[key]
            .as_f64()
            .unwrap_or(0.0)
    };
    let batch: f64 = gens.iter().map(|g| raw(g, "max_batch")).sum::<f64>() / gens.len() as f64;
    let prompt = gens.iter().map(|g| g.usage.input_tokens).sum();
    let reused = gens
        .iter()
        .map(|g| raw(g, "reused_prompt_tokens") as u64)
        .sum();
    (wall, tokens, batch, prompt, reused)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let model = args
        .get(1)
        .cloned()
        .unwrap_or_else(|| verity_local::DEFAULT_MODEL.into());
    let reps = arg(&args, "--reps", 5);
    let samples = arg(&args, "--samples", 60);
    let batch = arg(&args, "--batch", 8);
    let max_new = arg(&args, "--tokens", 64) as u32;
    let prefix_mb = arg(
        &args,
        "--prefix-cache-mb",
        verity_local::DEFAULT_PREFIX_CACHE_MB,
    );

    let t = Instant::now();
    let p = LocalProvider::from_spec(&spec(&model, batch, prefix_mb)).expect("load");
    let load = t.elapsed();
    let l = p.loaded();
    let m = &l.model;
    println!(
        "model {model}: {} layers, d={}, weights in memory {:.0} MB, file {:.0} MB, load {:.2} s (sha256 {:?}, weights cache {:?})",
        m.cfg.n_layer,
        m.cfg.n_embd,
        m.size_bytes() as f64 / 1e6,
        l.file_size as f64 / 1e6,
        load.as_secs_f64(),
        l.verified,
        l.weights_cache
    );
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("pool");

    let chat = |text: &str| {
        l.chat
            .prompt(&l.tokenizer, &[("user".into(), text.into())])
            .expect("prompt")
    };
    let short = chat("Write a Python function that returns the sum of a list.");
    let long_text: String = (0..30)
        .map(|i| format!("def f{i}(x):\n    return x * {i} + {}\n", i * i))
        .collect::<String>()
        + "\nExplain what these functions do.";
    let long = chat(&long_text);
    for (label, ids) in [("short", &short), ("long", &long)] {
        let mut rates = Vec::new();
        for _ in 0..reps + 1 {
            let mut c = KvCache::new(&m.cfg);
            let t = Instant::now();
            pool.install(|| m.forward(&mut [&mut c], &[ids]));
            rates.push(ids.len() as f64 / t.elapsed().as_secs_f64());
        }
        rates.remove(0); // warm-up
        println!(
            "prefill {label} prompt ({} tokens): median {:.1} tok/s (runs: {})",
            ids.len(),
            median(rates.clone()),
            rates
                .iter()
                .map(|r| format!("{r:.1}"))
                .collect::<Vec<_>>()
                .join(" ")
        );
    }
    let mut rates = Vec::new();
    for _ in 0..reps {
        let mut c = KvCache::new(&m.cfg);
        let mut next = argmax(&pool.install(|| m.forward(&mut [&mut c], &[&short]))[0]);
        let t = Instant::now();
        for _ in 0..max_new {
            next = argmax(&pool.install(|| m.forward(&mut [&mut c], &[&[next]]))[0]);
        }
        rates.push(max_new as f64 / t.elapsed().as_secs_f64());
    }
    let single = median(rates.clone());
    println!(
        "decode single stream ({max_new} tokens): median {single:.1} tok/s (runs: {})",
        rates
            .iter()
            .map(|r| format!("{r:.1}"))
            .collect::<Vec<_>>()
            .join(" ")
    );

    let reqs: Vec<GenerateRequest> = suite_prompts(samples)
        .into_iter()
        .enumerate()
        .map(|(i, p)| request(i, p, max_new))
        .collect();
    let (wall, tokens, mb, prompt, reused) = run_all(&p, &reqs);
    let agg = tokens as f64 / wall.as_secs_f64();
    println!(
        "aggregate, {samples} prompts at once, batch {batch}: {tokens} tokens in {:.1} s = {agg:.1} tok/s (mean max batch {mb:.1}; prefix cache {prefix_mb} MiB reused {reused} of {prompt} prompt tokens)",
        wall.as_secs_f64()
    );
    drop(p);
    let p1 = LocalProvider::from_spec(&spec(&model, 1, prefix_mb)).expect("load");
    let n1 = samples.min(12);
    let (wall1, tokens1, _, _, _) = run_all(&p1, &reqs[..n1]);
    let agg1 = tokens1 as f64 / wall1.as_secs_f64();
    println!(
        "aggregate, first {n1} prompts, batch 1: {tokens1} tokens in {:.1} s = {agg1:.1} tok/s; batching gain {:.2}x (vs single-stream decode {:.2}x)",
        wall1.as_secs_f64(),
        agg / agg1,
        agg / single
    );
}
