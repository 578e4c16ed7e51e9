//! Providers against real HTTP and real processes: the `openai`, `anthropic` and `gemini`
//! providers talk to verity-testkit's fake server on 127.0.0.1; the `command` provider runs
//! small scripts written to a temporary directory; the `mock` provider needs no network. No
//! test touches the process environment: keys come from `build_with_env` lookups (or from
//! variables every process has).

mod anthropic;
mod command;
mod gemini;
mod mock;
mod openai;

use std::sync::Arc;

use serde_json::{Map, Value};
use verity_model::{ChatMessage, GenParams, GenerateRequest, ProviderSpec, Role, SampleKey, Task};

/// A request for `task` under `variant`, its messages being one user message.
fn request_for(task: Task, variant: &str, prompt: &str) -> GenerateRequest {
    GenerateRequest {
        sample: SampleKey {
            task_id: task.id.clone(),
            variant: variant.to_owned(),
            epoch: 0,
        },
        task: Arc::new(task),
        messages: vec![ChatMessage::new(Role::User, prompt)],
        params: GenParams::default(),
        tools: Vec::new(),
    }
}

fn request(prompt: &str) -> GenerateRequest {
    request_for(Task::prompt("t1", prompt), "base", prompt)
}

fn spec(kind: &str, model: Option<&str>, base_url: Option<String>, options: Value) -> ProviderSpec {
    ProviderSpec {
        kind: kind.to_owned(),
        model: model.map(str::to_owned),
        base_url,
        api_key_env: None,
        options: options.as_object().cloned().unwrap_or_else(Map::new),
    }
}

/// An environment with nothing in it.
fn no_env(_: &str) -> Option<String> {
    None
}

/// An environment holding one variable.
fn env_with(name: &'static str, value: &'static str) -> impl Fn(&str) -> Option<String> {
    move |n| (n == name).then(|| value.to_owned())
}
