use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;

use crate::{ChatMessage, GenParams, SampleKey, Task, ToolCall, Usage};

/// A boxed, sendable future: what [`Provider::generate`] returns, so providers can be used as
/// trait objects without this crate depending on an async runtime.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Everything a provider needs to answer one call.
#[derive(Clone, Debug)]
pub struct GenerateRequest {
    pub sample: SampleKey,
    /// The task itself: the `mock` provider answers from it; real providers ignore it.
    pub task: Arc<Task>,
    pub messages: Vec<ChatMessage>,
    pub params: GenParams,
    /// Tools offered to the model, as JSON schemas in the OpenAI function shape.
    pub tools: Vec<Value>,
}

/// One successful provider call. The response cache stores it as it is (JSON), so its
/// serialized form is the cache's format: a change of meaning bumps the cache's namespace.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Generation {
    pub text: String,
    #[serde(default)]
    pub tool_calls: Vec<ToolCall>,
    #[serde(default)]
    pub usage: Usage,
    /// The model id the provider reported.
    #[serde(default)]
    pub model: Option<String>,
    #[serde(default)]
    pub finish_reason: Option<String>,
    /// The raw response body, kept for observations.
    pub raw: String,
    /// Named intermediate results (the `command` provider's `artifacts`), in stage order;
    /// absent from cache entries that have none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub artifacts: Vec<crate::Artifact>,
}

/// What went wrong with a provider call, classified so the runner knows whether to retry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProviderErrorKind {
    /// HTTP 429; `retry_after` from the `Retry-After` header where given.
    RateLimited {
        retry_after: Option<Duration>,
    },
    /// HTTP 5xx.
    Server {
        status: u16,
    },
    /// Other non-success HTTP statuses (400, 404, 422…): the request itself is wrong.
    Client {
        status: u16,
    },
    /// HTTP 401 / 403.
    Auth {
        status: u16,
    },
    Timeout,
    /// Could not connect, or the connection broke mid-response.
    Connection,
    /// The provider answered 200 with a body verity cannot read.
    InvalidResponse,
    /// The provider is misconfigured (missing key, unknown model, bad URL): fail before the run.
    Config,
}

impl ProviderErrorKind {
    pub fn as_str(&self) -> &'static str {
        match self {
            ProviderErrorKind::RateLimited { .. } => "rate_limited",
            ProviderErrorKind::Server { .. } => "server_error",
            ProviderErrorKind::Client { .. } => "client_error",
            ProviderErrorKind::Auth { .. } => "auth",
            ProviderErrorKind::Timeout => "timeout",
            ProviderErrorKind::Connection => "connection",
            ProviderErrorKind::InvalidResponse => "invalid_response",
            ProviderErrorKind::Config => "config",
        }
    }
}

/// A failed provider call.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ProviderError {
    pub kind: ProviderErrorKind,
    pub message: String,
}

impl ProviderError {
    /// What kind of failure this is for the run as a whole: a misconfiguration is the user's
    /// to fix before anything runs; every other error is the provider's.
    pub fn error_kind(&self) -> crate::ErrorKind {
        match self.kind {
            ProviderErrorKind::Config => crate::ErrorKind::Config,
            _ => crate::ErrorKind::Provider,
        }
    }

    pub fn new(kind: ProviderErrorKind, message: impl Into<String>) -> Self {
        ProviderError {
            kind,
            message: message.into(),
        }
    }

    /// Whether trying the same call again may succeed: rate limits, server errors, timeouts
    /// and broken connections are; malformed requests, auth failures and config are not.
    pub fn is_retryable(&self) -> bool {
        matches!(
            self.kind,
            ProviderErrorKind::RateLimited { .. }
                | ProviderErrorKind::Server { .. }
                | ProviderErrorKind::Timeout
                | ProviderErrorKind::Connection
                | ProviderErrorKind::InvalidResponse
        )
    }

    /// The delay the provider asked for, if any.
    pub fn retry_after(&self) -> Option<Duration> {
        match self.kind {
            ProviderErrorKind::RateLimited { retry_after } => retry_after,
            _ => None,
        }
    }
}

/// Something that answers prompts: an HTTP API, an in-process model, a user's command, a cache.
///
/// Implementations classify their own errors ([`ProviderError::is_retryable`]); the runner owns
/// retries, limits, caching and timing, so a provider makes exactly one attempt per call.
pub trait Provider: Send + Sync {
    /// The provider kind (`mock`, `openai`, …).
    fn kind(&self) -> &str;

    /// The model id requests go to, as configured.
    fn model(&self) -> &str;

    /// A stable description of the endpoint (base URL, command line…) for cache keys and
    /// reports. Never contains a secret.
    fn endpoint(&self) -> String;

    /// What identifies this provider's answers in the response cache key, beyond its kind,
    /// model and the request: by default [`endpoint`](Self::endpoint). A provider whose
    /// answers also depend on local state (a program's files, its environment) includes a
    /// digest of that state here, so a changed pipeline never gets an old answer. Never a
    /// secret in clear.
    fn cache_identity(&self) -> String {
        self.endpoint()
    }

    /// Whether the answer depends on the task itself beyond the messages sent (true for the
    /// `mock` provider, which answers from task fields). The cache key then includes the task.
    fn answer_depends_on_task(&self) -> bool {
        false
    }

    /// How long one call may take when the user sets no `--timeout` / `timeout_s`: 60 s for a
    /// remote API (a hung connection must not stall a run), longer for an in-process model whose
    /// calls queue behind each other's compute.
    fn default_call_timeout(&self) -> std::time::Duration {
        std::time::Duration::from_secs(60)
    }

    /// How many calls this provider wants in flight to work at its best, when the user sets no
    /// concurrency: `None` (the default) leaves the run's default; the embedded model asks for
    /// its batch size, since concurrent calls share its forward passes.
    fn preferred_concurrency(&self) -> Option<usize> {
        None
    }

    /// Makes one attempt at answering `req`.
    fn generate<'a>(
        &'a self,
        req: &'a GenerateRequest,
    ) -> BoxFuture<'a, Result<Generation, ProviderError>>;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cache entry of namespace `gen-v1`, as stored before the cache stored `Generation`
    /// itself, still reads; one without the optional fields too.
    #[test]
    fn a_stored_gen_v1_cache_entry_reads_as_a_generation() {
        let stored = r#"{"text":"4","tool_calls":[{"id":"c1","name":"search","arguments":{"q":"x"}}],"usage":{"input_tokens":3,"output_tokens":1},"model":"m-1","finish_reason":"stop","raw":"{}"}"#;
        let g: Generation = serde_json::from_str(stored).unwrap();
        assert_eq!(g.text, "4");
        assert_eq!(g.tool_calls[0].name, "search");
        assert_eq!((g.usage.input_tokens, g.usage.output_tokens), (3, 1));
        assert_eq!(g.model.as_deref(), Some("m-1"));
        assert_eq!(g.finish_reason.as_deref(), Some("stop"));
        let back: serde_json::Value = serde_json::to_value(&g).unwrap();
        assert_eq!(
            back,
            serde_json::from_str::<serde_json::Value>(stored).unwrap()
        );
        let bare: Generation = serde_json::from_str(r#"{"text":"x","raw":""}"#).unwrap();
        assert_eq!(
            bare,
            Generation {
                text: "x".into(),
                ..Generation::default()
            }
        );
    }
}
