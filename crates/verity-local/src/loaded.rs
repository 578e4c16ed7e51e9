//! A model file read, verified and converted: weights, tokenizer and chat format.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};

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
    pub tokenizer: Tokenizer,
    pub chat: ChatFormat,
    pub load_time: Duration,
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

/// Reads a whole file while hashing it.
pub(crate) fn read_hashed(path: &Path) -> Result<(Vec<u8>, String), std::io::Error> {
    let mut f = std::fs::File::open(path)?;
    let len = f.metadata()?.len();
    let mut buf = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
    let mut hasher = Sha256::new();
    let mut chunk = vec![0u8; 8 << 20];
    loop {
        let n = f.read(&mut chunk)?;
        if n == 0 {
            break;
        }
        hasher.update(&chunk[..n]);
        buf.extend_from_slice(&chunk[..n]);
    }
    Ok((buf, hex(&hasher.finalize())))
}

impl Loaded {
    /// Reads `path`, checks it against `expected_sha256` when given (removing a mismatching
    /// file), and builds the model. The file's bytes are dropped once converted.
    pub fn load(path: &Path, expected_sha256: Option<&str>) -> Result<Loaded, LoadError> {
        let start = Instant::now();
        let (buf, sha256) = read_hashed(path).map_err(|source| LoadError::Io {
            path: path.to_owned(),
            source,
        })?;
        if let Some(expected) = expected_sha256
            && expected != sha256
        {
            let _ = std::fs::remove_file(path);
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
        let g = Gguf::parse(&buf).map_err(|e| invalid(e.to_string()))?;
        let tokenizer = Tokenizer::from_gguf(&g).map_err(invalid)?;
        let chat = ChatFormat::from_gguf(&g, &tokenizer).map_err(invalid)?;
        let model = Model::from_gguf(&g, &buf).map_err(invalid)?;
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
            file_size: buf.len() as u64,
            model,
            tokenizer,
            chat,
            load_time: start.elapsed(),
        })
    }
}
