//! The response cache: what identifies an answer, and how a run uses the cache.

use verity_model::{GenerateRequest, Provider};

/// How a run uses the response cache.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CacheMode {
    /// Read hits, write misses (the default: never pay twice for the same answer).
    #[default]
    Live,
    /// Answer only from the cache; a miss is an error naming the sample. No model is called.
    Replay,
    /// Call the model every time and overwrite what the cache holds.
    Refresh,
    /// Neither read nor write.
    Off,
}

impl CacheMode {
    pub fn parse(s: &str) -> Option<CacheMode> {
        match s {
            "live" => Some(CacheMode::Live),
            "replay" => Some(CacheMode::Replay),
            "refresh" => Some(CacheMode::Refresh),
            "off" => Some(CacheMode::Off),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            CacheMode::Live => "live",
            CacheMode::Replay => "replay",
            CacheMode::Refresh => "refresh",
            CacheMode::Off => "off",
        }
    }

    pub fn reads(self) -> bool {
        matches!(self, CacheMode::Live | CacheMode::Replay)
    }

    pub fn writes(self) -> bool {
        matches!(self, CacheMode::Live | CacheMode::Refresh)
    }
}

/// The cache key of one call: BLAKE3 over everything that changes the answer — the provider,
/// its endpoint and model, the full messages, the tools, the grounding server's identity and
/// configuration, the generation parameters, the prompt template hash and the epoch — and
/// nothing that does not (timeouts, concurrency, retries). Each part is length-prefixed so no
/// two different inputs hash alike by concatenation.
pub fn cache_key(
    provider: &dyn Provider,
    req: &GenerateRequest,
    prompt_hash: &str,
    grounding: Option<&str>,
) -> String {
    let mut h = blake3::Hasher::new();
    let mut part = |b: &[u8]| {
        h.update(&(b.len() as u64).to_le_bytes());
        h.update(b);
    };
    part(verity_store::CACHE_NAMESPACE.as_bytes());
    part(provider.kind().as_bytes());
    part(provider.endpoint().as_bytes());
    part(provider.model().as_bytes());
    part(
        serde_json::to_string(&req.messages)
            .unwrap_or_default()
            .as_bytes(),
    );
    part(
        serde_json::to_string(&req.tools)
            .unwrap_or_default()
            .as_bytes(),
    );
    part(
        serde_json::to_string(&req.params)
            .unwrap_or_default()
            .as_bytes(),
    );
    part(grounding.unwrap_or_default().as_bytes());
    part(prompt_hash.as_bytes());
    if provider.answer_depends_on_task() {
        part(
            serde_json::to_string(&*req.task)
                .unwrap_or_default()
                .as_bytes(),
        );
    }
    part(&req.sample.epoch.to_le_bytes());
    h.finalize().to_hex().to_string()
}
