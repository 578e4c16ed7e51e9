//! The response cache: what identifies an answer, and how a run uses the cache.

use verity_model::{GenerateRequest, Provider};

/// How a run uses the response cache (defined with the suite's `[run]` settings, which name one).
pub use verity_model::CacheMode;

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
    let mut parts: Vec<Vec<u8>> = vec![
        verity_store::CACHE_NAMESPACE.into(),
        provider.kind().into(),
        provider.cache_identity().into(),
        provider.model().into(),
        serde_json::to_vec(&req.messages).unwrap_or_default(),
        serde_json::to_vec(&req.tools).unwrap_or_default(),
        serde_json::to_vec(&req.params).unwrap_or_default(),
        grounding.unwrap_or_default().into(),
        prompt_hash.into(),
    ];
    if provider.answer_depends_on_task() {
        parts.push(serde_json::to_vec(&*req.task).unwrap_or_default());
    }
    parts.push(req.sample.epoch.to_le_bytes().to_vec());
    framed_blake3(parts.iter().map(Vec::as_slice))
}

/// BLAKE3 (hex) over parts, each prefixed by its length, so no two different part lists hash
/// alike by concatenation.
pub(crate) fn framed_blake3<'a>(parts: impl IntoIterator<Item = &'a [u8]>) -> String {
    let mut h = blake3::Hasher::new();
    for p in parts {
        h.update(&(p.len() as u64).to_le_bytes());
        h.update(p);
    }
    h.finalize().to_hex().to_string()
}
