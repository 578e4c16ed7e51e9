//! Builds a symbol index from symbol-graph directories and reports timings:
//! `cargo run --release -p verity-swift --example build_index -- DIR... --out FILE`.
use std::path::PathBuf;
use std::time::Instant;

fn main() {
    let mut dirs = Vec::new();
    let mut out = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--out" {
            out = args.next().map(PathBuf::from);
        } else {
            dirs.push(PathBuf::from(a));
        }
    }
    let t = Instant::now();
    let index = match verity_swift::build_index(&dirs) {
        Ok(i) => i,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    };
    let built = t.elapsed();
    let bytes = index.to_bytes();
    println!(
        "built {} symbols from {} modules in {:.2?}; encoded {} bytes",
        index.symbol_count(),
        index.meta().modules,
        built,
        bytes.len()
    );
    let mut best = std::time::Duration::MAX;
    let mut equal = false;
    for _ in 0..5 {
        let t = Instant::now();
        let loaded = verity_swift::Index::load_bytes(&bytes);
        best = best.min(t.elapsed());
        equal = loaded.as_ref().is_ok_and(|l| *l == index);
    }
    println!("load_bytes: best of 5 {best:.2?} (equal: {equal})");
    if let Some(out) = out
        && let Err(e) = std::fs::write(&out, &bytes)
    {
        eprintln!("error: {}: {e}", out.display());
        std::process::exit(1);
    }
}
