//! Benchmarks of the Swift oracles (run in release):
//! `cargo run --release -p verity-swift --example bench [-- SYMBOL_GRAPH_DIR]`
//!
//! Prints the index load time, the index build time (when the symbol-graph directory exists;
//! default `../shared/data/apple-sdk-symbols/ios17.4`), and the four-oracle path
//! (tree-sitter parse, symbols, availability, deprecations) over the labelled corpus on one
//! thread, in snippets per second.
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// CPU time of this process (user + system) from /proc, in seconds: on a shared machine the
/// per-core rate is what the CPU time says, not the wall clock.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let utime: f64 = f.get(11)?.parse().ok()?;
    let stime: f64 = f.get(12)?.parse().ok()?;
    Some((utime + stime) / 100.0)
}

fn main() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let graphs = std::env::args()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| manifest.join("../../../shared/data/apple-sdk-symbols/ios17.4"));

    // index load: decode the shipped bytes (what a fresh process does once)
    let bytes = verity_swift::check::DEFAULT_INDEX_BYTES;
    let mut best = Duration::MAX;
    let mut total = Duration::ZERO;
    let runs = 20;
    let load_cpu0 = cpu_seconds();
    for _ in 0..runs {
        let t = Instant::now();
        let ix = verity_swift::Index::load_bytes(bytes);
        let e = t.elapsed();
        assert!(ix.is_ok());
        best = best.min(e);
        total += e;
    }
    println!(
        "index load ({} KB file, {} symbols): best {:.1} ms, mean {:.1} ms over {runs} runs",
        bytes.len() / 1024,
        verity_swift::default_index()
            .map(|i| i.symbol_count())
            .unwrap_or(0),
        best.as_secs_f64() * 1e3,
        total.as_secs_f64() * 1e3 / f64::from(runs)
    );
    if let (Some(a), Some(b)) = (load_cpu0, cpu_seconds()) {
        println!(
            "index load CPU time: {:.1} ms per load",
            (b - a) * 1e3 / f64::from(runs)
        );
    }

    if graphs.is_dir() {
        let c0 = cpu_seconds();
        let t = Instant::now();
        match verity_swift::build_index(&[graphs.as_path()]) {
            Ok(ix) => println!(
                "index build from {} ({} symbols): {:.2} s wall, {:.2} s CPU",
                graphs.display(),
                ix.symbol_count(),
                t.elapsed().as_secs_f64(),
                match (c0, cpu_seconds()) {
                    (Some(a), Some(b)) => b - a,
                    _ => f64::NAN,
                }
            ),
            Err(e) => println!("index build failed: {e}"),
        }
    } else {
        println!("index build: skipped ({} not present)", graphs.display());
    }

    // the four-oracle path over the corpus
    let corpus = manifest.join("tests/corpus");
    let mut snippets: Vec<(String, verity_swift::Target, bool)> = Vec::new();
    let text = std::fs::read_to_string(corpus.join("manifest.json")).unwrap_or_default();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
    for c in v["cases"].as_array().into_iter().flatten() {
        let file = c["file"].as_str().unwrap_or_default();
        let Some(target) = c["target"].as_str().and_then(verity_swift::Target::parse) else {
            continue;
        };
        if let Ok(src) = std::fs::read_to_string(corpus.join(file)) {
            snippets.push((src, target, file.ends_with(".md")));
        }
    }
    let opts: Vec<verity_swift::CheckOptions> = snippets
        .iter()
        .filter_map(|(_, t, _)| verity_swift::CheckOptions::new(*t).ok())
        .collect();
    // warm up (index decode, map resolution)
    for ((src, _, md), o) in snippets.iter().zip(&opts) {
        let _ = if *md {
            verity_swift::check_answer(src, o)
        } else {
            verity_swift::check_source(src, o)
        };
    }
    let rounds = 30;
    let t = Instant::now();
    for _ in 0..rounds {
        for (src, _, _) in &snippets {
            std::hint::black_box(verity_swift::syntax::parse(src));
        }
    }
    println!(
        "tree-sitter parse alone: {:.0} snippets/s",
        (rounds * snippets.len()) as f64 / t.elapsed().as_secs_f64()
    );
    let cpu0 = cpu_seconds();
    let t = Instant::now();
    let mut n = 0usize;
    for _ in 0..rounds {
        for ((src, _, md), o) in snippets.iter().zip(&opts) {
            let r = if *md {
                verity_swift::check_answer(src, o)
            } else {
                verity_swift::check_source(src, o)
            };
            std::hint::black_box(r);
            n += 1;
        }
    }
    let secs = t.elapsed().as_secs_f64();
    let cpu = match (cpu0, cpu_seconds()) {
        (Some(a), Some(b)) if b > a => b - a,
        _ => secs,
    };
    let lines: usize = snippets.iter().map(|(s, _, _)| s.lines().count()).sum();
    println!(
        "four-oracle path: {n} snippets ({} distinct, {:.0} lines on average) in {secs:.2} s on one thread: {:.0} snippets/s ({:.0} µs each)",
        snippets.len(),
        lines as f64 / snippets.len().max(1) as f64,
        n as f64 / secs,
        secs * 1e6 / n as f64
    );
    println!(
        "four-oracle path per core (CPU time {cpu:.2} s): {:.0} snippets/s ({:.0} µs of CPU each)",
        n as f64 / cpu,
        cpu * 1e6 / n as f64
    );
}
