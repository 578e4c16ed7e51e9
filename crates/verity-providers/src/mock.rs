//! The `mock` provider: deterministic answers from the task itself, no network.

use std::time::Duration;

use serde_json::Value;
use verity_model::{
    BoxFuture, GenerateRequest, Generation, Provider, ProviderError, ProviderErrorKind,
    ProviderSpec, Role, Usage,
};

use crate::options::{Options, config_error};

/// Answers from the task, so suites and the runner can be exercised without a model.
///
/// The answer is, in order of preference:
/// 1. `task.metadata.mock_response` when it is a string;
/// 2. when it is a table: its entry for the sample's variant, else its `default` entry (string
///    entries only);
/// 3. the task's first `target`;
/// 4. the last user message of the request (an echo), or `""` without one.
///
/// `task.metadata.mock_error` set to an error kind name (`rate_limited`, `server_error`,
/// `client_error`, `auth`, `timeout`, `connection`, `invalid_response`, `config`) makes every
/// call fail with that kind instead, to exercise error paths.
///
/// Options: `latency_ms` (sleep this long before answering). The model is `spec.model`, or
/// `mock`. Usage is whitespace token counts of the request's messages and of the answer.
#[derive(Clone, Debug)]
pub struct MockProvider {
    model: String,
    latency: Duration,
}

impl MockProvider {
    /// The options this provider understands.
    pub const OPTIONS: &'static [&'static str] = &["latency_ms"];

    /// Builds a mock provider from a spec of kind `mock`.
    pub fn from_spec(spec: &ProviderSpec) -> Result<MockProvider, ProviderError> {
        let options = Options::new(spec, Self::OPTIONS)?;
        let latency = options
            .duration("latency_ms", 0.001, false)?
            .unwrap_or(Duration::ZERO);
        let model = match spec.model.as_deref() {
            None => "mock".to_owned(),
            Some("") => return Err(config_error(&spec.kind, "`model` is empty")),
            Some(m) => m.to_owned(),
        };
        Ok(MockProvider { model, latency })
    }

    fn answer(&self, req: &GenerateRequest) -> Result<Generation, ProviderError> {
        if let Some(requested) = req.task.metadata.get("mock_error") {
            return Err(requested_error(req, requested));
        }
        let text = mock_text(req);
        let input_tokens = req.messages.iter().map(|m| count_words(&m.content)).sum();
        let usage = Usage {
            input_tokens,
            output_tokens: count_words(&text),
        };
        Ok(Generation {
            raw: text.clone(),
            text,
            tool_calls: Vec::new(),
            usage,
            model: Some(self.model.clone()),
            finish_reason: Some("stop".to_owned()),
            artifacts: Vec::new(),
        })
    }
}

impl Provider for MockProvider {
    fn kind(&self) -> &str {
        "mock"
    }

    fn model(&self) -> &str {
        &self.model
    }

    fn endpoint(&self) -> String {
        "mock".to_owned()
    }

    /// The answer comes from the task's metadata and target, not from the messages.
    fn answer_depends_on_task(&self) -> bool {
        true
    }

    fn generate<'a>(
        &'a self,
        req: &'a GenerateRequest,
    ) -> BoxFuture<'a, Result<Generation, ProviderError>> {
        Box::pin(async move {
            if !self.latency.is_zero() {
                tokio::time::sleep(self.latency).await;
            }
            self.answer(req)
        })
    }
}

fn count_words(text: &str) -> u64 {
    text.split_whitespace().count() as u64
}

fn mock_text(req: &GenerateRequest) -> String {
    let task = &req.task;
    let configured = match task.metadata.get("mock_response") {
        Some(Value::String(s)) => Some(s.as_str()),
        Some(Value::Object(by_variant)) => by_variant
            .get(&req.sample.variant)
            .and_then(Value::as_str)
            .or_else(|| by_variant.get("default").and_then(Value::as_str)),
        _ => None,
    };
    if let Some(text) = configured.or(task.target.first().map(String::as_str)) {
        return text.to_owned();
    }
    req.messages
        .iter()
        .rev()
        .find(|m| m.role == Role::User)
        .map(|m| m.content.clone())
        .unwrap_or_default()
}

const MOCK_ERRORS: &[&str] = &[
    "rate_limited",
    "server_error",
    "client_error",
    "auth",
    "timeout",
    "connection",
    "invalid_response",
    "config",
];

fn requested_error(req: &GenerateRequest, requested: &Value) -> ProviderError {
    let kind = match requested.as_str() {
        Some("rate_limited") => ProviderErrorKind::RateLimited { retry_after: None },
        Some("server_error") => ProviderErrorKind::Server { status: 500 },
        Some("client_error") => ProviderErrorKind::Client { status: 400 },
        Some("auth") => ProviderErrorKind::Auth { status: 401 },
        Some("timeout") => ProviderErrorKind::Timeout,
        Some("connection") => ProviderErrorKind::Connection,
        Some("invalid_response") => ProviderErrorKind::InvalidResponse,
        Some("config") => ProviderErrorKind::Config,
        _ => {
            return ProviderError::new(
                ProviderErrorKind::Config,
                format!(
                    "task `{}`: `mock_error` must be one of {}, not {}",
                    req.task.id,
                    MOCK_ERRORS.join(", "),
                    requested
                ),
            );
        }
    };
    let message = format!("mock {} requested by task `{}`", kind.as_str(), req.task.id);
    ProviderError::new(kind, message)
}
