//! Runs a built-in suite's per-sample scorers on local models, to choose the default model by
//! measurement (pass rate versus time). Grounded variants are skipped.
//!
//! `cargo run --release -p verity-local --example suite_eval -- suites/example [MODEL…]`
use std::sync::Arc;
use std::time::Instant;

use serde_json::json;
use verity_local::LocalProvider;
use verity_model::{GenerateRequest, Outcome, Provider, ProviderSpec, Response, SampleKey, Scope};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let dir = args
        .get(1)
        .cloned()
        .unwrap_or_else(|| "suites/example".into());
    let models: Vec<String> = if args.len() > 2 {
        args[2..].to_vec()
    } else {
        verity_local::KNOWN_MODELS
            .iter()
            .map(|m| m.name.to_owned())
            .collect()
    };
    let suite = verity_suite::load(std::path::Path::new(&dir))
        .expect("suite")
        .suite;
    let renderer = verity_suite::render::Renderer::new(&suite).expect("templates");
    let scorers: Vec<_> = suite
        .scorers
        .iter()
        .map(|s| verity_oracles::build(s).expect("scorer"))
        .filter(|s| s.scope() == Scope::Sample)
        .collect();
    for model in models {
        let spec = ProviderSpec {
            kind: "local".into(),
            model: Some(model.clone()),
            base_url: None,
            api_key_env: None,
            options: json!({}).as_object().cloned().unwrap_or_default(),
        };
        let p = LocalProvider::from_spec(&spec).expect("model");
        let mut reqs = Vec::new();
        for v in suite.variants.iter().filter(|v| v.grounding.is_none()) {
            for t in &suite.tasks {
                reqs.push(GenerateRequest {
                    sample: SampleKey {
                        task_id: t.id.clone(),
                        variant: v.name.clone(),
                        epoch: 1,
                    },
                    task: Arc::new(t.clone()),
                    messages: renderer.messages(t, v).expect("render"),
                    params: v.params.clone(),
                    tools: Vec::new(),
                });
            }
        }
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        let start = Instant::now();
        let gens = rt.block_on(async {
            futures::future::join_all(reqs.iter().map(|r| p.generate(r))).await
        });
        let wall = start.elapsed();
        let (mut pass, mut tokens) = (0, 0);
        for (r, g) in reqs.iter().zip(&gens) {
            let g = g.as_ref().expect("generation");
            tokens += g.usage.output_tokens;
            let resp = Response {
                text: g.text.clone(),
                usage: g.usage,
                finish_reason: g.finish_reason.clone(),
                attempts: 1,
                ..Response::default()
            };
            let scores: Vec<_> = scorers
                .iter()
                .flat_map(|s| s.score(&r.task, &resp))
                .collect();
            let outcome = suite.outcome.evaluate(&scores, false);
            if outcome == Outcome::Pass {
                pass += 1;
            }
            if std::env::var_os("SHOW").is_some() {
                println!(
                    "  [{:?}] {} / {}: {:?}",
                    outcome, r.sample.task_id, r.sample.variant, g.text
                );
            }
        }
        println!(
            "{model}: {pass}/{} samples pass ({:.0}%), {:.1} s wall, {tokens} output tokens",
            reqs.len(),
            100.0 * pass as f64 / reqs.len() as f64,
            wall.as_secs_f64()
        );
    }
}
