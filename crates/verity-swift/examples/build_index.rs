//! Builds a symbol index from symbol-graph directories and/or an SDK directory and reports
//! timings: `cargo run --release -p verity-swift --example build_index -- [DIR]... [--sdk SDK]
//! --out FILE` (what `verity symbols build` does, plus the load time of the result).
use std::path::PathBuf;
use std::time::Instant;

fn main() {
    let mut dirs = Vec::new();
    let mut out = None;
    let mut sdk = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--out" {
            out = args.next().map(PathBuf::from);
        } else if a == "--sdk" {
            sdk = args.next().map(PathBuf::from);
        } else {
            dirs.push(PathBuf::from(a));
        }
    }
    let Some(out) = out else {
        eprintln!("usage: build_index [DIR]... [--sdk SDK_DIR] --out FILE");
        std::process::exit(2);
    };
    let summary = match verity_swift::cli::build(&dirs, sdk.as_deref(), &out) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    };
    if let Some(m) = &summary.merge {
        print!("{m}");
    }
    println!(
        "built {} symbols ({} typed) from {} modules in {:.2?}; wrote {} bytes to {}",
        summary.symbols,
        summary.typed,
        summary.modules,
        summary.elapsed,
        summary.bytes,
        out.display()
    );
    let bytes = match std::fs::read(&out) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("error: {}: {e}", out.display());
            std::process::exit(1);
        }
    };
    let mut best = std::time::Duration::MAX;
    for _ in 0..5 {
        let t = Instant::now();
        let loaded = verity_swift::Index::load_bytes(&bytes);
        best = best.min(t.elapsed());
        if let Err(e) = loaded {
            eprintln!("error: reloading: {e}");
            std::process::exit(1);
        }
    }
    println!("load_bytes: best of 5 {best:.2?}");
}
