//! The transformer (Llama and Qwen2 families) with one KV cache per sequence.
//!
//! [`Model::forward`] takes a *ragged batch*: any number of sequences, each with any number of
//! new tokens (a whole prompt, or the one token sampled last step). All rows of all sequences
//! go through each linear layer together — one pass over the weights for the whole batch — while
//! attention runs per sequence over its own cache. Every per-row computation (normalisation,
//! activation quantization, dot products, attention) is independent of the other rows, so a
//! sequence's logits are bit-for-bit the same alone or in any batch, and a prompt gives the
//! same result whether prefilled at once or in chunks.

use rayon::prelude::*;

use crate::gguf::{Gguf, GgufError, TensorBytes};
use crate::kernels::{QMat, QRows, matmul};
use crate::simd;

/// The architectures this module runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arch {
    Llama,
    Qwen2,
}

impl Arch {
    pub fn name(self) -> &'static str {
        match self {
            Arch::Llama => "llama",
            Arch::Qwen2 => "qwen2",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Config {
    pub arch: Arch,
    pub n_layer: usize,
    pub n_embd: usize,
    pub n_head: usize,
    pub n_kv_head: usize,
    pub head_dim: usize,
    pub n_ff: usize,
    pub eps: f32,
    pub rope_base: f32,
    pub context: usize,
    pub vocab: usize,
}

pub(crate) struct Layer {
    pub(crate) attn_norm: Vec<f32>,
    /// q, k and v stacked (`n_embd + 2·kv_dim` outputs).
    pub(crate) wqkv: QMat,
    pub(crate) bqkv: Option<Vec<f32>>,
    pub(crate) wo: QMat,
    pub(crate) ffn_norm: Vec<f32>,
    /// gate and up stacked (`2·n_ff` outputs).
    pub(crate) w_gate_up: QMat,
    pub(crate) w_down: QMat,
}

/// Loaded weights.
pub struct Model {
    pub cfg: Config,
    pub(crate) embd: QMat,
    pub(crate) layers: Vec<Layer>,
    pub(crate) out_norm: Vec<f32>,
    /// `None`: tied to the embeddings.
    pub(crate) output: Option<QMat>,
    inv_freq: Vec<f32>,
}

impl std::fmt::Debug for Model {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Model").field("cfg", &self.cfg).finish()
    }
}

/// The logits [`Model::forward_tails`] returns: one buffer holding each sequence's rows of
/// `vocab` values in turn (a decode step of 12 sequences: 7 MB), handed out as slices of it
/// rather than copied into a vector per sequence.
#[derive(Debug)]
pub struct Logits {
    data: Vec<f32>,
    /// Rows per sequence, in order.
    rows: Vec<usize>,
    vocab: usize,
}

impl Logits {
    /// Each sequence's rows, one after another (empty for a sequence that has none).
    pub fn per_seq(&mut self) -> Vec<&mut [f32]> {
        let mut rest = &mut self.data[..];
        self.rows
            .iter()
            .map(|&r| {
                let (mine, after) = std::mem::take(&mut rest).split_at_mut(r * self.vocab);
                rest = after;
                mine
            })
            .collect()
    }

    /// Each sequence's rows as a vector of its own (the buffer itself when only one sequence
    /// has rows).
    pub fn into_vecs(mut self) -> Vec<Vec<f32>> {
        let owners = self.rows.iter().filter(|&&r| r > 0).count();
        if owners == 1 {
            let rows = self.rows;
            let mut data = Some(self.data);
            return rows
                .iter()
                .map(|&r| {
                    if r > 0 {
                        data.take().unwrap_or_default()
                    } else {
                        Vec::new()
                    }
                })
                .collect();
        }
        self.per_seq().into_iter().map(|s| s.to_vec()).collect()
    }
}

/// One sequence's attention cache: per layer, `len` positions of `kv_dim` keys and values.
#[derive(Clone, Debug, Default)]
pub struct KvCache {
    k: Vec<Vec<f32>>,
    v: Vec<Vec<f32>>,
    pub len: usize,
}

impl KvCache {
    pub fn new(cfg: &Config) -> KvCache {
        KvCache {
            k: vec![Vec::new(); cfg.n_layer],
            v: vec![Vec::new(); cfg.n_layer],
            len: 0,
        }
    }

    /// The first `n` positions (at most `len`) as a cache of their own: the state after
    /// feeding only those tokens, since a position's keys and values depend on nothing after it.
    pub fn prefix(&self, n: usize) -> KvCache {
        let n = n.min(self.len);
        let cut = |rows: &Vec<Vec<f32>>| {
            rows.iter()
                .map(|r| {
                    let per = r.len().checked_div(self.len).unwrap_or(0);
                    r[..per * n].to_vec()
                })
                .collect()
        };
        KvCache {
            k: cut(&self.k),
            v: cut(&self.v),
            len: n,
        }
    }

    /// A cache of `len` positions with `per` values per position in each of `layers` layers
    /// (position `p` holds the value `p`), for tests.
    #[cfg(test)]
    pub(crate) fn filled(layers: usize, per: usize, len: usize) -> KvCache {
        let rows: Vec<Vec<f32>> = (0..layers)
            .map(|_| (0..len * per).map(|i| (i / per) as f32).collect())
            .collect();
        KvCache {
            k: rows.clone(),
            v: rows,
            len,
        }
    }

    /// Forgets every position from `len` on (the state after feeding only the first `len`
    /// tokens, as with [`KvCache::prefix`], in place): how the engine drops the positions of
    /// guessed tokens that turned out wrong.
    pub fn truncate(&mut self, len: usize) {
        if len >= self.len {
            return;
        }
        for rows in self.k.iter_mut().chain(self.v.iter_mut()) {
            let per = rows.len().checked_div(self.len).unwrap_or(0);
            rows.truncate(per * len);
        }
        self.len = len;
    }

    /// Bytes held.
    pub fn bytes(&self) -> usize {
        let f = |rows: &Vec<Vec<f32>>| rows.iter().map(|r| r.len() * 4).sum::<usize>();
        f(&self.k) + f(&self.v)
    }
}

fn stack(mats: &[QMat]) -> Result<QMat, String> {
    QMat::stack(&mats.iter().collect::<Vec<_>>())
}

impl Config {
    /// The architecture and sizes a parsed GGUF file's metadata and tensor directory give.
    pub fn from_gguf(g: &Gguf) -> Result<Config, String> {
        let arch_name = g.str("general.architecture").map_err(|e| e.to_string())?;
        let arch = match arch_name {
            "llama" => Arch::Llama,
            "qwen2" => Arch::Qwen2,
            other => {
                return Err(format!(
                    "unsupported architecture `{other}` (supported: llama, qwen2)"
                ));
            }
        };
        let e = |err: GgufError| err.to_string();
        let key = |k: &str| format!("{arch_name}.{k}");
        let n_embd = g.usize(&key("embedding_length")).map_err(e)?;
        let n_head = g.usize(&key("attention.head_count")).map_err(e)?;
        let n_kv_head = match g.metadata.get(&key("attention.head_count_kv")) {
            Some(_) => g.usize(&key("attention.head_count_kv")).map_err(e)?,
            None => n_head,
        };
        let n_layer = g.usize(&key("block_count")).map_err(e)?;
        let n_ff = g.usize(&key("feed_forward_length")).map_err(e)?;
        let eps = g.f64(&key("attention.layer_norm_rms_epsilon")).map_err(e)? as f32;
        let rope_base = match g.metadata.get(&key("rope.freq_base")) {
            Some(_) => g.f64(&key("rope.freq_base")).map_err(e)? as f32,
            None => 10_000.0,
        };
        let context = g.usize(&key("context_length")).unwrap_or(2048);
        if n_head == 0
            || n_kv_head == 0
            || n_layer == 0
            || n_embd % n_head != 0
            || n_head % n_kv_head != 0
        {
            return Err("inconsistent attention sizes in the GGUF metadata".to_owned());
        }
        let head_dim = n_embd / n_head;
        if head_dim % 2 != 0 || n_embd > 1 << 16 || n_ff > 1 << 18 || n_layer > 1024 {
            return Err("unsupported model dimensions".to_owned());
        }
        let embd_info = g.info("token_embd.weight").map_err(e)?;
        let vocab = *embd_info
            .dims
            .get(1)
            .ok_or("token_embd.weight is not a matrix")?;
        Ok(Config {
            arch,
            n_layer,
            n_embd,
            n_head,
            n_kv_head,
            head_dim,
            n_ff,
            eps,
            rope_base,
            context,
            vocab,
        })
    }

    /// Outputs of the stacked q, k and v projection.
    pub(crate) fn qkv_dim(&self) -> usize {
        self.n_embd + 2 * self.n_kv_head * self.head_dim
    }
}

impl Model {
    /// Reads the architecture and weights of a parsed GGUF file, its tensors from `src` (the
    /// file in memory, or the open file), converting every weight matrix.
    pub fn from_gguf(g: &Gguf, src: &(impl TensorBytes + ?Sized)) -> Result<Model, String> {
        let cfg = Config::from_gguf(g)?;
        let e = |err: GgufError| err.to_string();
        let (n_embd, n_ff, vocab) = (cfg.n_embd, cfg.n_ff, cfg.vocab);
        let kv_dim = cfg.n_kv_head * cfg.head_dim;
        let arch = cfg.arch;
        let mat = |name: &str, n: usize, k: usize| g.matrix(src, name, n, k).map_err(e);
        let vec = |name: &str, n: usize| g.vector(src, name, n).map_err(e);

        let embd = mat("token_embd.weight", vocab, n_embd)?;
        let output = if g.tensors.contains_key("output.weight") {
            Some(mat("output.weight", vocab, n_embd)?)
        } else {
            None
        };
        let layers = (0..cfg.n_layer)
            .into_par_iter()
            .map(|i| -> Result<Layer, String> {
                let p = |s: &str| format!("blk.{i}.{s}");
                let bqkv = if arch == Arch::Qwen2 {
                    let mut b = vec(&p("attn_q.bias"), n_embd)?;
                    b.extend(vec(&p("attn_k.bias"), kv_dim)?);
                    b.extend(vec(&p("attn_v.bias"), kv_dim)?);
                    Some(b)
                } else {
                    None
                };
                Ok(Layer {
                    attn_norm: vec(&p("attn_norm.weight"), n_embd)?,
                    wqkv: stack(&[
                        mat(&p("attn_q.weight"), n_embd, n_embd)?,
                        mat(&p("attn_k.weight"), kv_dim, n_embd)?,
                        mat(&p("attn_v.weight"), kv_dim, n_embd)?,
                    ])?,
                    bqkv,
                    wo: mat(&p("attn_output.weight"), n_embd, n_embd)?,
                    ffn_norm: vec(&p("ffn_norm.weight"), n_embd)?,
                    w_gate_up: stack(&[
                        mat(&p("ffn_gate.weight"), n_ff, n_embd)?,
                        mat(&p("ffn_up.weight"), n_ff, n_embd)?,
                    ])?,
                    w_down: mat(&p("ffn_down.weight"), n_embd, n_ff)?,
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let out_norm = vec("output_norm.weight", n_embd)?;
        Ok(Model::from_weights(cfg, embd, layers, out_norm, output))
    }

    /// A model from its configuration and converted weights (the shapes are the caller's to
    /// check: [`Model::from_gguf`] and the weights cache do).
    pub(crate) fn from_weights(
        cfg: Config,
        embd: QMat,
        layers: Vec<Layer>,
        out_norm: Vec<f32>,
        output: Option<QMat>,
    ) -> Model {
        let half = cfg.head_dim / 2;
        let inv_freq = (0..half)
            .map(|i| 1.0 / cfg.rope_base.powf((2 * i) as f32 / cfg.head_dim as f32))
            .collect();
        Model {
            cfg,
            embd,
            layers,
            out_norm,
            output,
            inv_freq,
        }
    }

    /// Bytes of weights held.
    pub fn size_bytes(&self) -> usize {
        let l: usize = self
            .layers
            .iter()
            .map(|l| {
                l.wqkv.size_bytes()
                    + l.wo.size_bytes()
                    + l.w_gate_up.size_bytes()
                    + l.w_down.size_bytes()
            })
            .sum();
        l + self.embd.size_bytes() + self.output.as_ref().map_or(0, QMat::size_bytes)
    }

    /// Rotates every head of `x` (query or key heads of one row) by position `pos`; `sc` is
    /// scratch for the position's sines and cosines, computed once for all heads.
    fn rope(&self, x: &mut [f32], pos: usize, sc: &mut Vec<(f32, f32)>) {
        let hd = self.cfg.head_dim;
        let half = hd / 2;
        sc.clear();
        sc.extend(
            self.inv_freq[..half]
                .iter()
                .map(|f| (pos as f32 * f).sin_cos()),
        );
        for head in x.chunks_exact_mut(hd) {
            for (i, &(sin, cos)) in sc.iter().enumerate() {
                let (a, b) = match self.cfg.arch {
                    // GGUF llama weights are permuted for interleaved pairs
                    Arch::Llama => (2 * i, 2 * i + 1),
                    Arch::Qwen2 => (i, i + half),
                };
                let (x0, x1) = (head[a], head[b]);
                head[a] = x0 * cos - x1 * sin;
                head[b] = x0 * sin + x1 * cos;
            }
        }
    }

    /// Runs `tokens[i]` (new tokens) of every sequence `caches[i]` through the model, appending
    /// to the caches, and returns the logits of each sequence's last new token.
    pub fn forward(&self, caches: &mut [&mut KvCache], tokens: &[&[u32]]) -> Vec<Vec<f32>> {
        let tails: Vec<usize> = tokens.iter().map(|t| usize::from(!t.is_empty())).collect();
        self.forward_tails(caches, tokens, &tails).into_vecs()
    }

    /// [`Model::forward`], returning for sequence `i` the logits of its last `tails[i]` new
    /// tokens (at most as many as it was fed), one row of `vocab` after another in order. Each
    /// row is bit for bit what feeding the tokens one at a time would give (rows are computed
    /// independently): how the engine checks several guessed tokens in one pass.
    pub fn forward_tails(
        &self,
        caches: &mut [&mut KvCache],
        tokens: &[&[u32]],
        tails: &[usize],
    ) -> Logits {
        assert_eq!(caches.len(), tokens.len());
        assert_eq!(tails.len(), tokens.len());
        let cfg = &self.cfg;
        let d = cfg.n_embd;
        let kv_dim = cfg.n_kv_head * cfg.head_dim;
        let qkv_dim = d + 2 * kv_dim;
        // Row r belongs to sequence seq_of[r] at position pos_of[r].
        let mut seq_of = Vec::new();
        let mut pos_of = Vec::new();
        for (s, (c, t)) in caches.iter().zip(tokens).enumerate() {
            for i in 0..t.len() {
                seq_of.push(s);
                pos_of.push(c.len + i);
            }
        }
        let rows = seq_of.len();
        if rows == 0 {
            return Logits {
                data: Vec::new(),
                rows: vec![0; caches.len()],
                vocab: cfg.vocab,
            };
        }
        let mut x = vec![0f32; rows * d];
        for (row, &t) in x
            .chunks_exact_mut(d)
            .zip(tokens.iter().flat_map(|t| t.iter()))
        {
            let t = (t as usize).min(cfg.vocab - 1);
            self.embd.dequantize_row(t, row);
        }
        let mut h = vec![0f32; rows * d];
        let mut qkv = vec![0f32; rows * qkv_dim];
        let mut att = vec![0f32; rows * d];
        let mut gu = vec![0f32; rows * 2 * cfg.n_ff];
        let mut act = vec![0f32; rows * cfg.n_ff];
        // Row ranges of each sequence.
        let mut starts = Vec::with_capacity(tokens.len() + 1);
        let mut acc = 0;
        for t in tokens {
            starts.push(acc);
            acc += t.len();
        }
        starts.push(acc);

        let mut sincos = Vec::new();
        for (li, layer) in self.layers.iter().enumerate() {
            rms_norm_rows(&x, &layer.attn_norm, cfg.eps, &mut h);
            matmul(&layer.wqkv, &QRows::quantize(&h, d), &mut qkv);
            if let Some(b) = &layer.bqkv {
                for row in qkv.chunks_exact_mut(qkv_dim) {
                    for (v, bv) in row.iter_mut().zip(b) {
                        *v += bv;
                    }
                }
            }
            for (r, row) in qkv.chunks_exact_mut(qkv_dim).enumerate() {
                let (q, kv) = row.split_at_mut(d);
                self.rope(q, pos_of[r], &mut sincos);
                self.rope(&mut kv[..kv_dim], pos_of[r], &mut sincos);
            }
            // Append the new keys and values to each sequence's cache.
            for (s, cache) in caches.iter_mut().enumerate() {
                for r in starts[s]..starts[s + 1] {
                    let row = &qkv[r * qkv_dim..(r + 1) * qkv_dim];
                    cache.k[li].extend_from_slice(&row[d..d + kv_dim]);
                    cache.v[li].extend_from_slice(&row[d + kv_dim..]);
                }
            }
            self.attention(li, caches, &starts, &pos_of, &qkv, &mut att);
            matmul(&layer.wo, &QRows::quantize(&att, d), &mut h);
            for (xv, hv) in x.iter_mut().zip(&h) {
                *xv += hv;
            }
            rms_norm_rows(&x, &layer.ffn_norm, cfg.eps, &mut h);
            matmul(&layer.w_gate_up, &QRows::quantize(&h, d), &mut gu);
            silu_mul_rows(&gu, cfg.n_ff, &mut act);
            matmul(&layer.w_down, &QRows::quantize(&act, cfg.n_ff), &mut h);
            for (xv, hv) in x.iter_mut().zip(&h) {
                *xv += hv;
            }
        }
        for (s, cache) in caches.iter_mut().enumerate() {
            cache.len += starts[s + 1] - starts[s];
        }
        // Logits of the last `tails[s]` new rows of each sequence.
        let wanted: Vec<usize> = (0..tokens.len())
            .map(|s| tails[s].min(starts[s + 1] - starts[s]))
            .collect();
        let last: Vec<usize> = (0..tokens.len())
            .flat_map(|s| starts[s + 1] - wanted[s]..starts[s + 1])
            .collect();
        let mut xl = vec![0f32; last.len() * d];
        for (dst, &r) in xl.chunks_exact_mut(d).zip(&last) {
            dst.copy_from_slice(&x[r * d..(r + 1) * d]);
        }
        let mut hl = vec![0f32; last.len() * d];
        rms_norm_rows(&xl, &self.out_norm, cfg.eps, &mut hl);
        let out = self.output.as_ref().unwrap_or(&self.embd);
        let mut logits = vec![0f32; last.len() * cfg.vocab];
        matmul(out, &QRows::quantize(&hl, d), &mut logits);
        Logits {
            data: logits,
            rows: wanted,
            vocab: cfg.vocab,
        }
    }

    /// Causal attention of every new row over its own sequence's cache.
    fn attention(
        &self,
        li: usize,
        caches: &[&mut KvCache],
        starts: &[usize],
        pos_of: &[usize],
        qkv: &[f32],
        out: &mut [f32],
    ) {
        let cfg = &self.cfg;
        let (d, hd) = (cfg.n_embd, cfg.head_dim);
        let kv_dim = cfg.n_kv_head * hd;
        let qkv_dim = d + 2 * kv_dim;
        let group = cfg.n_head / cfg.n_kv_head;
        let scale = 1.0 / (hd as f32).sqrt();
        // One task per (row, head): outputs are disjoint `hd`-wide slices of `out`.
        out.par_chunks_mut(hd).enumerate().for_each_init(
            Vec::new,
            |scores: &mut Vec<f32>, (idx, o)| {
                let (r, head) = (idx / cfg.n_head, idx % cfg.n_head);
                let s = starts.partition_point(|&st| st <= r) - 1;
                let cache = &caches[s];
                let kvh = head / group;
                let q = &qkv[r * qkv_dim + head * hd..r * qkv_dim + (head + 1) * hd];
                let n_keys = pos_of[r] + 1;
                simd::attend(
                    q,
                    &cache.k[li],
                    &cache.v[li],
                    kv_dim,
                    kvh * hd,
                    n_keys,
                    scale,
                    scores,
                    o,
                );
            },
        );
    }
}

/// `act[r][i] = silu(gate[r][i]) · up[r][i]` where row `r` of `gu` is `gate ‖ up`, rows in
/// parallel (a decode step's `exp`s were a visible share of its serial time).
fn silu_mul_rows(gu: &[f32], n_ff: usize, act: &mut [f32]) {
    act.par_chunks_exact_mut(n_ff)
        .zip(gu.par_chunks_exact(2 * n_ff))
        .for_each(|(a, g)| {
            let (gate, up) = g.split_at(n_ff);
            for ((o, &gv), &uv) in a.iter_mut().zip(gate).zip(up) {
                *o = gv / (1.0 + simd::exp(-gv)) * uv;
            }
        });
}

fn rms_norm_rows(x: &[f32], w: &[f32], eps: f32, out: &mut [f32]) {
    let d = w.len();
    for (xr, or) in x.chunks_exact(d).zip(out.chunks_exact_mut(d)) {
        let ss = simd::dot(xr, xr);
        let inv = 1.0 / (ss / d as f32 + eps).sqrt();
        for ((o, &xv), &wv) in or.iter_mut().zip(xr).zip(w) {
            *o = xv * inv * wv;
        }
    }
}
