//! Times loading a model: `cargo run --release -p verity-local --example load -- NAME|PATH
//! [--no-cache] [--reps N]`.
//!
//! Each rep is one [`Loaded::load_with`]: the sha256 (recorded or computed), the header and
//! tokenizer, the weights (from the cache beside the file, or converted). `--no-cache` is a
//! first load every time (hash and convert, nothing read or written beside the file). Evict the
//! files from the page cache beforehand for a cold-cache figure, e.g.
//! `python3 -c 'import os,sys; [os.posix_fadvise(os.open(f, os.O_RDONLY), 0, 0, os.POSIX_FADV_DONTNEED) for f in sys.argv[1:]]' MODEL.gguf MODEL.gguf.int8`.
use std::path::PathBuf;
use std::time::Instant;

use verity_local::loaded::Loaded;

fn main() {
    let mut args = std::env::args().skip(1);
    let mut model = None;
    let mut use_cache = true;
    let mut reps = 1usize;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--no-cache" => use_cache = false,
            "--reps" => reps = args.next().and_then(|v| v.parse().ok()).expect("--reps N"),
            _ => model = Some(a),
        }
    }
    let model = model.unwrap_or_else(|| verity_local::DEFAULT_MODEL.to_owned());
    let (path, pin) = match verity_local::store::known(&model) {
        Some(m) => (
            verity_local::default_models_dir().join(m.file_name()),
            Some(m.sha256),
        ),
        None => (PathBuf::from(&model), None),
    };
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("thread pool");
    for _ in 0..reps {
        let t = Instant::now();
        let l = pool
            .install(|| Loaded::load_with(&path, pin, use_cache))
            .unwrap_or_else(|e| {
                eprintln!("error: {e}");
                std::process::exit(1)
            });
        println!(
            "load {:.3} s: sha256 {:?}, weights cache {:?}",
            t.elapsed().as_secs_f64(),
            l.verified,
            l.weights_cache
        );
    }
}
