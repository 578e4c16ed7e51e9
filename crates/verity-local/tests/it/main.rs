//! Tests on the real models. They read the weights from `$VERITY_MODELS_DIR` (or
//! `~/.cache/verity/models`) and fail, naming the command to fix it, when they are absent:
//! CI pulls SmolLM2 first (`verity model pull smollm2-135m-instruct`). The Qwen tests are
//! ignored by default (the model is 491 MB); run them with `--run-ignored all` after
//! `verity model pull qwen2.5-coder-0.5b-instruct`.

mod generation;
mod schema;
mod tokenizer;
mod unsafe_code;

use std::path::PathBuf;
use std::sync::Arc;

use serde_json::json;
use verity_local::LocalProvider;
use verity_model::{
    ChatMessage, GenParams, GenerateRequest, Generation, Provider, ProviderSpec, Role, SampleKey,
    Task,
};

pub const SMOL: &str = "smollm2-135m-instruct";
pub const QWEN: &str = "qwen2.5-coder-0.5b-instruct";

/// The path of a pulled model, or a failure saying how to get it.
pub fn model_path(name: &str) -> PathBuf {
    let dir = verity_local::default_models_dir();
    let path = dir.join(format!("{name}.gguf"));
    assert!(
        path.is_file(),
        "{} is missing: run `verity model pull {name}` (or `cargo run -p verity-local --example \
         pull -- {name}`), or point VERITY_MODELS_DIR at a directory holding it",
        path.display()
    );
    path
}

pub fn provider(name: &str, batch: usize) -> LocalProvider {
    provider_with(name, json!({"batch": batch, "pull": false}))
}

/// A provider with these options.
pub fn provider_with(name: &str, options: serde_json::Value) -> LocalProvider {
    model_path(name);
    let spec = ProviderSpec {
        kind: "local".into(),
        model: Some(name.into()),
        base_url: None,
        api_key_env: None,
        options: options.as_object().cloned().unwrap_or_default(),
    };
    LocalProvider::from_spec(&spec).unwrap()
}

pub fn request(prompt: &str, params: GenParams) -> GenerateRequest {
    let task = Task::prompt("t", prompt);
    GenerateRequest {
        sample: SampleKey {
            task_id: "t".into(),
            variant: "v".into(),
            epoch: 1,
        },
        task: Arc::new(task),
        messages: vec![ChatMessage::new(Role::User, prompt)],
        params,
        tools: Vec::new(),
    }
}

pub fn greedy(max_tokens: u32) -> GenParams {
    GenParams {
        temperature: Some(0.0),
        max_tokens: Some(max_tokens),
        ..GenParams::default()
    }
}

/// Runs the requests concurrently (so the engine may batch them) and returns the answers in
/// order.
pub fn generate_all(p: &LocalProvider, reqs: &[GenerateRequest]) -> Vec<Generation> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let futs = reqs.iter().map(|r| p.generate(r));
        let mut out = Vec::new();
        for r in futures::future::join_all(futs).await {
            out.push(r.unwrap());
        }
        out
    })
}
