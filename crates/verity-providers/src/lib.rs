//! verity's model drivers: the only code that speaks to language models.
//!
//! [`build`] turns a [`ProviderSpec`] from a suite into a [`Provider`]. Everything that can be
//! wrong with a spec — an unknown kind, a missing model, an unknown option, a malformed base
//! URL, a program that cannot be found, and above all a missing API key — is found *there*, as
//! a [`ProviderErrorKind::Config`] error naming what is wrong, before any sample runs.
//!
//! Each provider makes exactly one attempt per call and classifies its own failures
//! ([`ProviderErrorKind`]); the runner owns retries, limits, caching and timing.
//!
//! Secrets: API keys are read from the environment variable a spec names (never stored in the
//! spec), and they never appear in `Debug` output, [`Provider::endpoint`], or error messages.
//!
//! Kinds ([`KINDS`]):
//! * `mock` ([`MockProvider`]): deterministic answers from the task, no network;
//! * `openai` ([`OpenAiProvider`]): any OpenAI-compatible `/v1/chat/completions` server;
//! * `anthropic` ([`AnthropicProvider`]): Anthropic's Messages API (`x-api-key`, structured
//!   output through a forced `answer` tool);
//! * `gemini` ([`GeminiProvider`]): the Gemini API's `generateContent` (`x-goog-api-key`,
//!   JSON schemas converted to Gemini's OpenAPI subset);
//! * `command` ([`CommandProvider`]): the user's own program, run once per call with the
//!   request as JSON on standard input and the answer read from standard output;
//! * `local` ([`LocalProvider`]): a small instruct model run in-process on the CPU (the
//!   `verity-local` crate); the default when a suite names no provider.
//!
//! The HTTP providers share their options: `timeout_s` (per call, default 60), `extra_body`
//! (merged over the request body) and `headers` (extra request headers).
//!
//! [`ProviderErrorKind`]: verity_model::ProviderErrorKind
//! [`ProviderErrorKind::Config`]: verity_model::ProviderErrorKind::Config

#![forbid(unsafe_code)]

mod anthropic;
mod command;
mod gemini;
mod http;
mod mock;
mod openai;
mod options;
mod schema;

use std::sync::Arc;

use verity_model::{Provider, ProviderError, ProviderSpec};

pub use crate::anthropic::AnthropicProvider;
pub use crate::command::{CommandProvider, VERITY_EXE};
pub use crate::gemini::GeminiProvider;
pub use crate::mock::MockProvider;
pub use crate::openai::OpenAiProvider;
use crate::options::config_error;
pub use verity_local::LocalProvider;

/// The provider kinds [`build`] knows: the model's list, which the suite loader checks
/// suites against.
pub const KINDS: &[&str] = verity_model::PROVIDER_KINDS;

/// Builds the provider a spec names.
///
/// API keys are read from the process environment *here*, so a missing key fails before any
/// sample starts, with a message naming the variable. Errors are of kind
/// [`ProviderErrorKind::Config`](verity_model::ProviderErrorKind::Config).
pub fn build(spec: &ProviderSpec) -> Result<Arc<dyn Provider>, ProviderError> {
    build_with_env(spec, &|name| {
        std::env::var_os(name).and_then(|v| v.into_string().ok())
    })
}

/// [`build`] with the environment given as a lookup function (for tests, and for callers that
/// resolve variables from somewhere else, such as a `.env` file). The lookup supplies API keys
/// and, for `command`, the `PATH` the program is searched on.
pub fn build_with_env(
    spec: &ProviderSpec,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Arc<dyn Provider>, ProviderError> {
    match spec.kind.as_str() {
        "mock" => Ok(Arc::new(MockProvider::from_spec(spec)?)),
        "openai" => Ok(Arc::new(OpenAiProvider::from_spec(spec, env)?)),
        "anthropic" => Ok(Arc::new(AnthropicProvider::from_spec(spec, env)?)),
        "gemini" => Ok(Arc::new(GeminiProvider::from_spec(spec, env)?)),
        "command" => Ok(Arc::new(CommandProvider::from_spec(spec, env)?)),
        "local" => Ok(Arc::new(LocalProvider::from_spec(spec)?)),
        other => Err(config_error(
            other,
            format!("unknown provider kind (known kinds: {})", KINDS.join(", ")),
        )),
    }
}
