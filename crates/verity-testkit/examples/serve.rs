//! The fake OpenAI-compatible server as a standalone process, for benchmarks that want a mock
//! whose own overhead is negligible (the peer bench's Python mock adds ~5-15 ms per round at
//! concurrency 50 on 2 cores).
//!
//! usage: cargo run --release -p verity-testkit --example serve -- [LATENCY_MS]
//! Prints the base URL on standard output, then serves until killed.

use std::io::Write;
use std::time::Duration;

use verity_testkit::{FakeConfig, FakeServer};

#[tokio::main]
async fn main() {
    let latency_ms: u64 = match std::env::args().nth(1) {
        None => 0,
        Some(a) => match a.parse() {
            Ok(n) => n,
            Err(_) => {
                eprintln!("usage: serve [LATENCY_MS]  (got {a:?})");
                std::process::exit(2);
            }
        },
    };
    let server = match FakeServer::try_start_with(FakeConfig {
        latency: Duration::from_millis(latency_ms),
        record_requests: false,
        ..FakeConfig::default()
    })
    .await
    {
        Ok(s) => s,
        Err(e) => {
            eprintln!("serve: cannot listen on 127.0.0.1: {e}");
            std::process::exit(1);
        }
    };
    println!("{}", server.base_url());
    let _ = std::io::stdout().flush();
    let _ = tokio::signal::ctrl_c().await;
    let s = server.stats();
    eprintln!(
        "served {} requests ({} completed, at most {} in flight)",
        s.requests, s.completed, s.max_in_flight
    );
}
