//! The `local` provider.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock, Weak};

use serde_json::{Value, json};
use verity_model::{
    BoxFuture, GenerateRequest, Generation, Provider, ProviderError, ProviderErrorKind,
    ProviderSpec, Usage,
};

use crate::constrain::Constraint;
use crate::engine::{Engine, EngineConfig, Job, JobError, Sampling};
use crate::loaded::{LoadError, Loaded};
use crate::store::{self, DEFAULT_MODEL, ModelStoreError};

/// Tokens generated when a request sets no `max_tokens`.
pub const DEFAULT_MAX_TOKENS: u32 = 512;
/// Sequences per forward pass when the spec sets no `batch`: 16, so that a run of up to 16
/// samples (the README's `--quick` run has 12) starts every answer at once and the longest one
/// never waits for a slot (BENCHMARKS.md, "Embedded model in a suite run").
pub const DEFAULT_BATCH: usize = 16;
/// Context (prompt + answer) when the spec sets no `max_context` (and the model allows it).
pub const DEFAULT_CONTEXT: usize = 4096;
/// MiB of prompt attention state kept for reuse when the spec sets no `prefix_cache_mb`
/// (Qwen 0.5B: 24 KiB per token, so a few thousand prompt tokens).
pub const DEFAULT_PREFIX_CACHE_MB: usize = 64;

/// Rows of a decode step that may carry guessed tokens when the spec sets no `draft_rows`: a
/// pass over up to about 8 rows streams the same weights as a pass over one and costs little
/// more (BENCHMARKS.md, "Guessed tokens").
pub const DEFAULT_DRAFT_ROWS: usize = 8;

/// Prompt tokens prefilled per step, over all sequences: a pass of a few hundred rows runs
/// the kernels near their best rate per row (BENCHMARKS.md, "Embedded model in a suite run").
const PREFILL_ROWS: usize = 256;

/// Runs a small instruct model in-process on the CPU.
///
/// `model`: a known model name ([`store::KNOWN_MODELS`], default [`DEFAULT_MODEL`]), pulled
/// into the models directory on first use, or `local:/path/to/model.gguf` (architectures
/// `llama` and `qwen2`, byte-level BPE tokenizer, ChatML template).
///
/// Options:
/// * `threads` — compute threads (default: the number of CPUs);
/// * `batch` — most sequences decoded together in one forward pass (default 16; 1 disables
///   batching);
/// * `max_context` — prompt + answer tokens per sequence (default 4096, at most the model's);
/// * `prefix_cache_mb` — MiB of recent prompts' attention state kept so that a prompt starting
///   like an earlier one (chat template, system prompt, shared instructions) prefills only the
///   rest (default 64; 0 turns it off); answers are bit-identical either way;
/// * `draft_rows` — while fewer sequences than this are decoding, the spare rows of each
///   step check tokens guessed from earlier text (prompt lookup decoding: what followed the
///   latest earlier occurrence of the answer's last few tokens, in the prompt or the answer)
///   for greedy requests without a `response_schema`; a guess is kept only if it is the token
///   the model gives there, so answers are bit-identical either way (default 8; 0 turns it
///   off);
/// * `models_dir` — where known models live (default `$VERITY_MODELS_DIR` or
///   `~/.cache/verity/models`);
/// * `pull` — fetch a known model that is absent (default true; false makes it an error).
///
/// Parameters: `temperature` absent or `0` is greedy (deterministic); above `0` samples with
/// `seed` (a random seed when absent) and `top_p`; `max_tokens` defaults to 512; `stop`
/// strings end the answer (and are not part of it). Tools are offered through the prompt in
/// the Qwen2.5 / Hermes format and the answer's `<tool_call>` blocks become tool calls
/// ([`crate::tools`]), so `tools`-mode grounding works. A `response_schema` (JSON Schema) is
/// enforced while decoding ([`crate::constrain`], llguidance): every token of that answer is
/// sampled from the tokens that keep it a prefix of a document the schema accepts, and the
/// answer ends when the document is complete, so it parses and validates unless `max_tokens`
/// (or the context) cuts it first (`finish_reason` `length`). Other requests in the same batch
/// are unaffected, and greedy answers stay the same alone or batched. A schema llguidance
/// cannot use (invalid, unsupported, `$ref`s outside the schema) is a
/// [`ProviderErrorKind::Config`] error naming the problem. With `tools` offered as well, the
/// grammar leaves no room for `<tool_call>` blocks: the answer is the document.
///
/// The model is loaded once per process: every variant naming the same file (with the same
/// `threads`, `batch` and `max_context`) shares one inference thread, so their requests batch
/// together.
pub struct LocalProvider {
    model: String,
    engine: Arc<Engine>,
    endpoint: String,
}

impl std::fmt::Debug for LocalProvider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LocalProvider")
            .field("model", &self.model)
            .field("endpoint", &self.endpoint)
            .finish()
    }
}

fn config(message: impl std::fmt::Display) -> ProviderError {
    ProviderError::new(
        ProviderErrorKind::Config,
        format!("provider `local`: {message}"),
    )
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct EngineKey {
    path: PathBuf,
    threads: usize,
    batch: usize,
    context: usize,
    prefix_cache_mb: usize,
    draft_rows: usize,
}

fn engines() -> &'static Mutex<HashMap<EngineKey, Weak<Engine>>> {
    static ENGINES: OnceLock<Mutex<HashMap<EngineKey, Weak<Engine>>>> = OnceLock::new();
    ENGINES.get_or_init(|| Mutex::new(HashMap::new()))
}

/// The settings a spec's options give.
#[derive(Clone, Debug, PartialEq)]
pub struct LocalOptions {
    pub threads: usize,
    pub batch: usize,
    pub max_context: usize,
    /// MiB of recent prompts' attention state kept so prompts that start the same way skip
    /// that part of their prefill (0: off). Answers are the same either way.
    pub prefix_cache_mb: usize,
    /// Rows of a decode step that may carry guessed tokens (prompt lookup decoding, 0: off).
    /// Answers are the same either way.
    pub draft_rows: usize,
    pub models_dir: PathBuf,
    pub pull: bool,
}

impl LocalOptions {
    /// The options this provider understands.
    pub const KNOWN: &'static [&'static str] = &[
        "threads",
        "batch",
        "max_context",
        "prefix_cache_mb",
        "draft_rows",
        "models_dir",
        "pull",
    ];

    pub fn from_spec(spec: &ProviderSpec) -> Result<LocalOptions, ProviderError> {
        if let Some(key) = spec
            .options
            .keys()
            .find(|k| !Self::KNOWN.contains(&k.as_str()))
        {
            return Err(config(format!(
                "unknown option `{key}` (expected one of: {})",
                Self::KNOWN.join(", ")
            )));
        }
        if spec.base_url.is_some() {
            return Err(config(
                "`base_url` does not apply: the model runs in-process",
            ));
        }
        if spec.api_key_env.is_some() {
            return Err(config(
                "`api_key_env` does not apply: the model needs no key",
            ));
        }
        let int = |key: &str, min: u64, max: u64| -> Result<Option<usize>, ProviderError> {
            match spec.options.get(key) {
                None => Ok(None),
                Some(v) => v
                    .as_u64()
                    .filter(|n| (min..=max).contains(n))
                    .map(|n| Some(n as usize))
                    .ok_or_else(|| {
                        config(format!(
                            "option `{key}` must be an integer from {min} to {max}"
                        ))
                    }),
            }
        };
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
        Ok(LocalOptions {
            threads: int("threads", 1, 256)?.unwrap_or(cpus),
            batch: int("batch", 1, 64)?.unwrap_or(DEFAULT_BATCH),
            max_context: int("max_context", 16, 1 << 20)?.unwrap_or(DEFAULT_CONTEXT),
            prefix_cache_mb: int("prefix_cache_mb", 0, 1 << 16)?.unwrap_or(DEFAULT_PREFIX_CACHE_MB),
            draft_rows: int("draft_rows", 0, 64)?.unwrap_or(DEFAULT_DRAFT_ROWS),
            models_dir: match spec.options.get("models_dir") {
                None => store::default_models_dir(),
                Some(Value::String(s)) if !s.is_empty() => PathBuf::from(s),
                Some(_) => return Err(config("option `models_dir` must be a non-empty string")),
            },
            pull: match spec.options.get("pull") {
                None => true,
                Some(Value::Bool(b)) => *b,
                Some(_) => return Err(config("option `pull` must be true or false")),
            },
        })
    }
}

/// How long one call may take by default: calls queue behind each other's compute (a batch of
/// long answers on two cores takes minutes), so this only catches a wedged engine.
pub const DEFAULT_CALL_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30 * 60);

impl LocalProvider {
    /// The options this provider understands.
    pub const OPTIONS: &'static [&'static str] = LocalOptions::KNOWN;

    /// Builds the provider a spec of kind `local` names: resolves (and on first use pulls) the
    /// model file, and loads it unless this process already has. Every failure is a
    /// [`ProviderErrorKind::Config`] error naming the cause. Progress of a pull goes to
    /// standard error.
    pub fn from_spec(spec: &ProviderSpec) -> Result<LocalProvider, ProviderError> {
        Self::from_spec_with_progress(spec, &mut |line| eprintln!("verity: {line}"))
    }

    /// [`from_spec`](Self::from_spec) reporting progress to `progress`.
    pub fn from_spec_with_progress(
        spec: &ProviderSpec,
        progress: &mut dyn FnMut(&str),
    ) -> Result<LocalProvider, ProviderError> {
        let opts = LocalOptions::from_spec(spec)?;
        let model = match spec.model.as_deref() {
            None => DEFAULT_MODEL.to_owned(),
            Some("") => return Err(config("`model` is empty")),
            Some(m) => m.to_owned(),
        };
        let path = if opts.pull {
            store::resolve(&model, &opts.models_dir, progress)
        } else {
            resolve_present(&model, &opts.models_dir)
        }
        .map_err(config)?;
        let expected = store::known(&model).map(|m| m.sha256);
        let engine = shared_engine(&path, expected, &opts).map_err(config)?;
        let endpoint = format!(
            "local:{}@{}",
            path.file_name().map_or_else(
                || path.display().to_string(),
                |f| f.to_string_lossy().into_owned()
            ),
            &engine.loaded.sha256[..12]
        );
        Ok(LocalProvider {
            model,
            engine,
            endpoint,
        })
    }

    /// The loaded model (architecture, sizes, tokenizer) behind this provider.
    pub fn loaded(&self) -> &Loaded {
        &self.engine.loaded
    }

    /// Compiles a `response_schema` for this model's vocabulary off the async threads (the
    /// first schema also builds the vocabulary's tables). A schema that cannot be used is a
    /// config error.
    async fn compile(&self, schema: Value) -> Result<Constraint, ProviderError> {
        let engine = self.engine.clone();
        let compiled = tokio::task::spawn_blocking(move || {
            let grammars = engine
                .loaded
                .grammars()
                .map_err(|e| format!("cannot constrain this model's output: {e}"))?;
            grammars
                .json_schema(&schema)
                .map_err(|e| format!("invalid `response_schema`: {e}"))
        })
        .await
        .map_err(|e| format!("compiling `response_schema`: {e}"))
        .and_then(|r| r);
        compiled.map_err(config)
    }
}

fn resolve_present(model: &str, dir: &Path) -> Result<PathBuf, ModelStoreError> {
    if model.starts_with("local:") {
        return store::resolve(model, dir, &mut |_| {});
    }
    let m = store::known(model).ok_or_else(|| ModelStoreError::UnknownModel {
        name: model.to_owned(),
        known: store::KNOWN_MODELS
            .iter()
            .map(|m| m.name)
            .collect::<Vec<_>>()
            .join(", "),
    })?;
    let p = dir.join(m.file_name());
    if p.is_file() {
        Ok(p)
    } else {
        Err(ModelStoreError::NoSuchFile(p))
    }
}

/// Why a model could not be made ready.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error(transparent)]
    Load(#[from] LoadError),
    #[error("starting the inference thread: {0}")]
    Thread(std::io::Error),
}

fn shared_engine(
    path: &Path,
    expected_sha256: Option<&str>,
    opts: &LocalOptions,
) -> Result<Arc<Engine>, EngineError> {
    let canonical = path.canonicalize().unwrap_or_else(|_| path.to_owned());
    let key = EngineKey {
        path: canonical,
        threads: opts.threads,
        batch: opts.batch,
        context: opts.max_context,
        prefix_cache_mb: opts.prefix_cache_mb,
        draft_rows: opts.draft_rows,
    };
    // Held while loading, so concurrent builders of the same model load it once.
    let mut map = engines().lock().unwrap_or_else(|e| e.into_inner());
    if let Some(e) = map.get(&key).and_then(Weak::upgrade) {
        return Ok(e);
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads)
        .thread_name(|i| format!("verity-local-{i}"))
        .build()
        .map_err(|e| EngineError::Thread(std::io::Error::other(e.to_string())))?;
    let loaded = pool.install(|| Loaded::load(path, expected_sha256))?;
    let context = opts.max_context.min(loaded.model.cfg.context).max(16);
    let cfg = EngineConfig {
        threads: opts.threads,
        batch: opts.batch,
        context,
        prefill_chunk: PREFILL_ROWS,
        prefix_cache_bytes: opts.prefix_cache_mb << 20,
        draft_rows: opts.draft_rows,
    };
    let engine = Arc::new(Engine::start(Arc::new(loaded), cfg, pool).map_err(EngineError::Thread)?);
    map.retain(|_, w| w.strong_count() > 0);
    map.insert(key, Arc::downgrade(&engine));
    Ok(engine)
}

fn random_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    h.finish()
}

impl Provider for LocalProvider {
    fn kind(&self) -> &str {
        "local"
    }

    fn model(&self) -> &str {
        &self.model
    }

    fn endpoint(&self) -> String {
        self.endpoint.clone()
    }

    fn default_call_timeout(&self) -> std::time::Duration {
        DEFAULT_CALL_TIMEOUT
    }

    fn preferred_concurrency(&self) -> Option<usize> {
        Some(self.engine.cfg.batch)
    }

    fn generate<'a>(
        &'a self,
        req: &'a GenerateRequest,
    ) -> BoxFuture<'a, Result<Generation, ProviderError>> {
        Box::pin(async move {
            let loaded = &self.engine.loaded;
            let messages = crate::tools::turns(
                &req.messages,
                &req.tools,
                loaded.chat.default_system.as_deref(),
            );
            let prompt = loaded
                .chat
                .prompt(&loaded.tokenizer, &messages)
                .map_err(|e| ProviderError::new(ProviderErrorKind::Client { status: 400 }, e))?;
            let p = &req.params;
            let temperature = p.temperature.unwrap_or(0.0);
            if !temperature.is_finite() || temperature < 0.0 {
                return Err(ProviderError::new(
                    ProviderErrorKind::Client { status: 400 },
                    format!("temperature must be 0 or more, got {temperature}"),
                ));
            }
            let sampling = Sampling {
                temperature,
                top_p: p.top_p.unwrap_or(1.0),
                seed: p.seed.unwrap_or_else(random_seed),
            };
            let constraint = match &p.response_schema {
                None => None,
                Some(schema) => Some(self.compile(schema.clone()).await?),
            };
            let (tx, rx) = tokio::sync::oneshot::channel();
            let job = Job {
                prompt,
                max_tokens: p.max_tokens.unwrap_or(DEFAULT_MAX_TOKENS).max(1) as usize,
                stop: p.stop.clone(),
                sampling,
                constraint,
                reply: tx,
            };
            let gone = || {
                ProviderError::new(
                    ProviderErrorKind::Server { status: 500 },
                    "the local inference thread has stopped",
                )
            };
            if !self.engine.submit(job) {
                return Err(gone());
            }
            let out = rx.await.map_err(|_| gone())?.map_err(|e| match e {
                JobError::PromptTooLong { .. } => {
                    ProviderError::new(ProviderErrorKind::Client { status: 413 }, e.to_string())
                }
                JobError::Constraint { .. } => {
                    ProviderError::new(ProviderErrorKind::Client { status: 422 }, e.to_string())
                }
            })?;
            let raw = json!({
                "text": out.text,
                "finish_reason": out.finish_reason,
                "prompt_tokens": out.prompt_tokens,
                "completion_tokens": out.tokens.len(),
                "queued_ms": out.queued.as_secs_f64() * 1e3,
                "prefill_ms": out.prefill.as_secs_f64() * 1e3,
                "decode_ms": out.decode.as_secs_f64() * 1e3,
                "max_batch": out.max_batch,
                "reused_prompt_tokens": out.reused_prompt_tokens,
                "mask_ms": out.mask.as_secs_f64() * 1e3,
                "guessed_tokens": out.guessed_tokens,
                "kept_guesses": out.kept_guesses,
            })
            .to_string();
            let (text, tool_calls) = if req.tools.is_empty() {
                (out.text, Vec::new())
            } else {
                crate::tools::parse_calls(&out.text)
            };
            Ok(Generation {
                usage: Usage {
                    input_tokens: out.prompt_tokens as u64,
                    output_tokens: out.tokens.len() as u64,
                },
                text,
                tool_calls,
                model: Some(self.model.clone()),
                finish_reason: Some(out.finish_reason.to_owned()),
                raw,
                artifacts: Vec::new(),
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(options: Value) -> ProviderSpec {
        ProviderSpec {
            kind: "local".into(),
            model: Some("smollm2-135m-instruct".into()),
            base_url: None,
            api_key_env: None,
            options: options.as_object().cloned().unwrap_or_default(),
        }
    }

    #[test]
    fn options_are_checked_strictly() {
        let o = LocalOptions::from_spec(&spec(
            json!({"threads": 3, "batch": 2, "models_dir": "/m", "pull": false}),
        ))
        .unwrap();
        assert_eq!((o.threads, o.batch, o.pull), (3, 2, false));
        assert_eq!(o.models_dir, PathBuf::from("/m"));
        for bad in [
            json!({"thread": 1}),
            json!({"threads": 0}),
            json!({"batch": "4"}),
            json!({"pull": 1}),
            json!({"models_dir": ""}),
        ] {
            let e = LocalOptions::from_spec(&spec(bad.clone())).unwrap_err();
            assert_eq!(e.kind, ProviderErrorKind::Config, "{bad}");
            assert!(e.message.starts_with("provider `local`:"), "{}", e.message);
        }
        let mut s = spec(json!({}));
        s.base_url = Some("http://x".into());
        assert!(
            LocalOptions::from_spec(&s)
                .unwrap_err()
                .message
                .contains("base_url")
        );
    }

    #[test]
    fn a_missing_model_without_pull_is_a_config_error_naming_the_pull_command() {
        let dir = tempfile::tempdir().unwrap();
        let s = spec(json!({"models_dir": dir.path().to_str().unwrap(), "pull": false}));
        let e = LocalProvider::from_spec(&s).unwrap_err();
        assert_eq!(e.kind, ProviderErrorKind::Config);
        assert!(e.message.contains("does not exist"), "{}", e.message);
        let mut s2 = s.clone();
        s2.model = Some("gpt-17".into());
        assert!(
            LocalProvider::from_spec(&s2)
                .unwrap_err()
                .message
                .contains("unknown model")
        );
    }

    #[test]
    fn a_corrupt_local_file_is_a_config_error() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("bad.gguf");
        std::fs::write(&p, b"GGUF\x03\x00\x00\x00garbage").unwrap();
        let mut s = spec(json!({}));
        s.model = Some(format!("local:{}", p.display()));
        let e = LocalProvider::from_spec(&s).unwrap_err();
        assert_eq!(e.kind, ProviderErrorKind::Config);
        assert!(e.message.contains("corrupt GGUF"), "{}", e.message);
    }
}
