//! A model file read, verified and converted: weights, tokenizer and chat format.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};

use crate::cache::{self, CacheStatus, Verified};
use crate::constrain::Grammars;
use crate::gguf::Gguf;
use crate::model::Model;
use crate::tokenizer::{ChatFormat, Tokenizer};

/// Why a model file could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("cannot read {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(
        "{path} does not match its pinned sha256 (expected {expected}, got {actual}); \
         the file was removed — run `verity model pull` again"
    )]
    HashMismatch {
        path: PathBuf,
        expected: String,
        actual: String,
    },
    #[error("{path}: {message}")]
    Invalid { path: PathBuf, message: String },
}

/// Everything needed to generate with one model file.
pub struct Loaded {
    pub path: PathBuf,
    pub sha256: String,
    pub file_size: u64,
    pub model: Model,
    pub tokenizer: Arc<Tokenizer>,
    pub chat: ChatFormat,
    pub load_time: Duration,
    /// Whether the sha256 was computed on this load or taken from the record of an earlier
    /// one ([`cache`]).
    pub verified: Verified,
    /// Whether the weights came from the weights cache ([`cache`]).
    pub weights_cache: CacheStatus,
    /// Built on the first request with a `response_schema` (see [`Loaded::grammars`]).
    grammars: OnceLock<Result<Grammars, String>>,
}

impl std::fmt::Debug for Loaded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Loaded")
            .field("path", &self.path)
            .field("sha256", &self.sha256)
            .field("model", &self.model)
            .finish()
    }
}

pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The sha256 of everything `file` has from its current position on, read in chunks.
pub(crate) fn hash_file(mut file: &std::fs::File) -> Result<String, std::io::Error> {
    let mut hasher = Sha256::new();
    let mut chunk = vec![0u8; 8 << 20];
    loop {
        let n = file.read(&mut chunk)?;
        if n == 0 {
            break;
        }
        hasher.update(&chunk[..n]);
    }
    Ok(hex(&hasher.finalize()))
}

impl Loaded {
    /// Reads `path`, checks it against `expected_sha256` when given (removing a mismatching
    /// file), and builds the model, through the weights cache beside it ([`cache`]).
    pub fn load(path: &Path, expected_sha256: Option<&str>) -> Result<Loaded, LoadError> {
        Self::load_with(path, expected_sha256, true)
    }

    /// [`Loaded::load`], with the weights cache and the sha256 record used (and written)
    /// only when `use_cache` (without it: hash and convert, as a first load does).
    ///
    /// The file's sha256 is the one recorded beside it when the file has not changed since it
    /// was hashed ([`cache::recorded_sha256`]); otherwise it is read through one open handle
    /// and hashed. The header is then parsed from the same handle, and the weights come from
    /// the cache when it holds this sha256's conversion and passes its check, else each
    /// tensor is read and converted (memory holds the converted weights and at most a few
    /// tensors' bytes, never the whole file) and the cache rewritten. The handle keeps reading
    /// the file that was hashed: the store replaces files by renaming, which leaves an open
    /// file as it was.
    pub fn load_with(
        path: &Path,
        expected_sha256: Option<&str>,
        use_cache: bool,
    ) -> Result<Loaded, LoadError> {
        let start = Instant::now();
        let io = |source| LoadError::Io {
            path: path.to_owned(),
            source,
        };
        let file = std::fs::File::open(path).map_err(io)?;
        let md = file.metadata().map_err(io)?;
        let file_size = md.len();
        let recorded = use_cache
            .then(|| cache::recorded_sha256(path, &md))
            .flatten()
            // A record that disagrees with the pin is checked against the bytes before the
            // file is removed for it.
            .filter(|sha| expected_sha256.is_none_or(|e| e == sha));
        let (sha256, verified) = match recorded {
            Some(sha) => (sha, Verified::Recorded),
            None => {
                let sha = hash_file(&file).map_err(io)?;
                if use_cache && expected_sha256.is_none_or(|e| e == sha) {
                    let _ = cache::record_sha256(path, &md, &sha);
                }
                (sha, Verified::Hashed)
            }
        };
        if let Some(expected) = expected_sha256
            && expected != sha256
        {
            let _ = std::fs::remove_file(path);
            cache::remove(path);
            return Err(LoadError::HashMismatch {
                path: path.to_owned(),
                expected: expected.to_owned(),
                actual: sha256,
            });
        }
        let invalid = |message: String| LoadError::Invalid {
            path: path.to_owned(),
            message,
        };
        let len = usize::try_from(file_size)
            .map_err(|_| invalid("the file is too large for this machine".to_owned()))?;
        let g = Gguf::read_header(&file, len).map_err(|e| invalid(e.to_string()))?;
        let tokenizer = Tokenizer::from_gguf(&g).map_err(invalid)?;
        let chat = ChatFormat::from_gguf(&g, &tokenizer).map_err(invalid)?;
        let weights = use_cache.then(|| cache::weights_path(path));
        let (model, weights_cache) =
            cache::load_model(&g, &file, &sha256, weights.as_deref()).map_err(invalid)?;
        if tokenizer.vocab_size() > model.cfg.vocab {
            return Err(invalid(format!(
                "the tokenizer has {} tokens but the embeddings only {}",
                tokenizer.vocab_size(),
                model.cfg.vocab
            )));
        }
        Ok(Loaded {
            path: path.to_owned(),
            sha256,
            file_size,
            model,
            tokenizer: Arc::new(tokenizer),
            chat,
            load_time: start.elapsed(),
            verified,
            weights_cache,
            grammars: OnceLock::new(),
        })
    }

    /// The schema compiler of this model's vocabulary, built on first use (about a second
    /// for a 150k-token vocabulary) and kept.
    pub fn grammars(&self) -> Result<&Grammars, String> {
        self.grammars
            .get_or_init(|| Grammars::new(self.tokenizer.clone()))
            .as_ref()
            .map_err(Clone::clone)
    }
}
