//! The hot loop: int8 weights × int8 activations.
//!
//! Every weight matrix of a model is converted at load time into one layout, [`QMat`]: `i8`
//! values, one `f32` scale per 16 values and optionally one `f32` offset per 16 values
//! (`w = scale · q + offset`). The GGUF formats the supported models use convert *exactly*
//! (Q8_0, Q5_0, Q4_0, Q4_1, Q5_1, Q4_K, Q5_K, Q6_K: their values are small integers times a
//! scale, plus a per-block minimum for the `_1`/`_K` kinds); see `gguf::to_qmat`.
//!
//! **Groups.** Most formats scale per 32 values (all but Q6_K); when every pair of 16-value
//! scales (and offsets) of a matrix is equal, [`QMat::new`] keeps one per 32 inputs, so the
//! float work below is done half as often and half the scales are streamed.
//!
//! **Panels.** The values are stored in panels of [`PANEL`] = 16 output features, in steps of
//! 64 bytes, each holding 4 consecutive inputs of all 16 features. One step is one vector
//! register; one 32-bit lane of it is one feature's 4 inputs. So a single multiply-add
//! instruction (`vpdpbusd`) adds 4 products into each of 16 features' integer sums, one
//! activation's 4 bytes broadcast to every lane, and the 16 features' results land in one
//! register, in output order: no horizontal sums, and the float work is done once per group
//! for 16 features at a time. Values are stored biased by 128 (`u8`), the operand `vpdpbusd`
//! wants unsigned. A panel is streamed whole, row blocks of up to 8 activation rows sharing
//! each load of its weights.
//!
//! Activations are quantized per row into blocks of 32 `i8` with one `f32` scale ([`QRows`],
//! like ggml's Q8_0), plus exact `f32` sums per group for the offset term.
//!
//! **One arithmetic on every path.** For each activation row and output feature:
//!
//! ```text
//! acc = 0
//! for each group g (16 or 32 inputs):
//!     i   = Σ q_w · q_x                            (exact, i32)
//!     acc = fma(i as f32, scale_w[g] · scale_x[g], acc)
//!     acc = fma(offset_w[g], Σ x over g, acc)      (matrices with offsets)
//! ```
//!
//! Integer sums are exact on every path (with VNNI the bias is taken back out exactly:
//! `Σ (q_w + 128) · q_x − 128 · Σ q_x`), and the float steps are the same operations in the
//! same order, so every path — AVX-512 VNNI, AVX2 through `pulp`'s safe wrappers, the
//! portable loop — gives the same bits, and a row's results never depend on which rows it
//! is batched with (tests check both bit for bit). `VERITY_LOCAL_KERNEL` (`vnni`, `avxvnni`, `avx2`,
//! `portable`) forces a path, for benchmarks and for reproducing another machine's run.

use rayon::prelude::*;

#[cfg(target_arch = "x86_64")]
mod vnni;

/// Values per activation block (one scale each).
pub const QK: usize = 32;
/// Values per weight scale / offset in [`QMat::new`]'s input (one group).
pub const QS: usize = 16;
/// Output features per panel.
pub const PANEL: usize = 16;
/// Inputs per lane of one step.
const STEP: usize = 4;
/// Bytes of one step: [`STEP`] inputs of each of the [`PANEL`] features.
const STEP_BYTES: usize = STEP * PANEL;
/// The bias of stored values: stored = `q + BIAS` as `u8`.
const BIAS: i32 = 128;

/// A weight matrix of `n` output features by `k` input features, in panels.
#[derive(Clone)]
pub struct QMat {
    pub n: usize,
    pub k: usize,
    /// Inputs per scale: 16, or 32 when every pair of 16-groups has the same scale and
    /// offset (most GGUF formats scale per 32), which halves the float work and the scales.
    gs: usize,
    /// Step `t` (inputs `4t..4t + 4`) of panel `p` is bytes `(p·k/4 + t)·64..`, lane `c`
    /// (4 bytes) holding feature `16p + c`, each value `q + 128`; features past `n` in the
    /// last panel are zero.
    qs: Vec<u8>,
    /// `(p·G + g)·16 + c`, `G = k / gs`: the scale of feature `16p + c` over group `g`.
    scales: Vec<f32>,
    /// Indexed like `scales`.
    offsets: Option<Vec<f32>>,
}

/// A [`QMat`]'s fields as it holds them ([`QMat::stored`]).
pub(crate) struct Stored<'a> {
    pub n: usize,
    pub k: usize,
    /// Inputs per group.
    pub gs: usize,
    pub qs: &'a [u8],
    pub scales: &'a [f32],
    pub offsets: Option<&'a [f32]>,
}

impl std::fmt::Debug for QMat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("QMat")
            .field("n", &self.n)
            .field("k", &self.k)
            .field("group", &self.gs)
            .field("offsets", &self.offsets.is_some())
            .finish()
    }
}

impl QMat {
    /// Assembles a matrix from row-major values (`qs[j·k + i]`), scales and offsets per 16
    /// values (`[j·k/16 + g]`); `k` must be a multiple of [`QK`] and the slices of matching
    /// sizes.
    pub fn new(
        n: usize,
        k: usize,
        qs: Vec<i8>,
        scales: Vec<f32>,
        offsets: Option<Vec<f32>>,
    ) -> Result<QMat, String> {
        if k == 0 || !k.is_multiple_of(QK) {
            return Err(format!("input size {k} is not a positive multiple of {QK}"));
        }
        let groups = n * (k / QS);
        if qs.len() != n * k || scales.len() != groups {
            return Err(format!(
                "inconsistent quantized matrix: {} values, {} scales for {n}x{k}",
                qs.len(),
                scales.len()
            ));
        }
        if offsets.as_ref().is_some_and(|o| o.len() != groups) {
            return Err("inconsistent quantized matrix offsets".to_owned());
        }
        let pairs_equal = |v: &[f32]| {
            v.as_chunks::<2>()
                .0
                .iter()
                .all(|p| p[0].to_bits() == p[1].to_bits())
        };
        let gs = if pairs_equal(&scales) && offsets.as_deref().is_none_or(pairs_equal) {
            2 * QS
        } else {
            QS
        };
        let np = n.div_ceil(PANEL);
        let mut pq = vec![BIAS as u8; np * k * PANEL];
        pq.par_chunks_mut(k * PANEL)
            .enumerate()
            .for_each(|(p, panel)| {
                for c in 0..PANEL.min(n - p * PANEL) {
                    let row = &qs[(p * PANEL + c) * k..(p * PANEL + c + 1) * k];
                    let (lanes, _) = row.as_chunks::<STEP>();
                    for (t, lane) in lanes.iter().enumerate() {
                        let at = t * STEP_BYTES + c * STEP;
                        for (d, &q) in panel[at..at + STEP].iter_mut().zip(lane) {
                            *d = (q as u8) ^ 0x80;
                        }
                    }
                }
            });
        // Per 16 in, per `gs` out (the first of each pair when `gs` is 32).
        let (g16, g) = (k / QS, k / gs);
        let spread = |v: &[f32]| {
            let mut out = vec![0f32; np * g * PANEL];
            for j in 0..n {
                let (p, c) = (j / PANEL, j % PANEL);
                for gi in 0..g {
                    out[(p * g + gi) * PANEL + c] = v[j * g16 + gi * gs / QS];
                }
            }
            out
        };
        Ok(QMat {
            n,
            k,
            gs,
            qs: pq,
            scales: spread(&scales),
            offsets: offsets.as_deref().map(spread),
        })
    }

    /// The stored form (panels, scales and offsets as [`QMat`] holds them), for the weights
    /// cache.
    pub(crate) fn stored(&self) -> Stored<'_> {
        Stored {
            n: self.n,
            k: self.k,
            gs: self.gs,
            qs: &self.qs,
            scales: &self.scales,
            offsets: self.offsets.as_deref(),
        }
    }

    /// The lengths of the stored form of an `n × k` matrix with `gs` inputs per group:
    /// `(panel bytes, scales)` (offsets, when present, as many as scales); `None` for a shape
    /// [`QMat::new`] would not build.
    pub(crate) fn stored_lens(n: usize, k: usize, gs: usize) -> Option<(usize, usize)> {
        if n == 0 || k == 0 || !k.is_multiple_of(QK) || !(gs == QS || gs == 2 * QS) {
            return None;
        }
        let np = n.div_ceil(PANEL);
        let bytes = np.checked_mul(k)?.checked_mul(PANEL)?;
        let scales = np.checked_mul(k / gs)?.checked_mul(PANEL)?;
        Some((bytes, scales))
    }

    /// A matrix from its stored form ([`QMat::stored`]), the lengths checked.
    pub(crate) fn from_stored(
        n: usize,
        k: usize,
        gs: usize,
        qs: Vec<u8>,
        scales: Vec<f32>,
        offsets: Option<Vec<f32>>,
    ) -> Result<QMat, String> {
        let (bytes, ns) = QMat::stored_lens(n, k, gs)
            .ok_or_else(|| format!("impossible matrix shape {n}x{k}, groups of {gs}"))?;
        if qs.len() != bytes
            || scales.len() != ns
            || offsets.as_ref().is_some_and(|o| o.len() != ns)
        {
            return Err(format!("inconsistent stored matrix {n}x{k}"));
        }
        Ok(QMat {
            n,
            k,
            gs,
            qs,
            scales,
            offsets,
        })
    }

    /// The quantized value of feature `j`, input `i`.
    fn value(&self, j: usize, i: usize) -> i8 {
        let (p, c) = (j / PANEL, j % PANEL);
        let at = (p * self.k / STEP + i / STEP) * STEP_BYTES + c * STEP + i % STEP;
        (self.qs[at] ^ 0x80) as i8
    }

    /// Index in `scales` / `offsets` of feature `j`, input `i`.
    fn scale_at(&self, j: usize, i: usize) -> usize {
        let (p, c) = (j / PANEL, j % PANEL);
        (p * (self.k / self.gs) + i / self.gs) * PANEL + c
    }

    /// Row `j`'s values, scales and offsets in the row-major form [`QMat::new`] takes.
    fn row_parts(&self, j: usize) -> (Vec<i8>, Vec<f32>, Option<Vec<f32>>) {
        let q = (0..self.k).map(|i| self.value(j, i)).collect();
        let pick = |v: &[f32]| {
            (0..self.k / QS)
                .map(|g| v[self.scale_at(j, g * QS)])
                .collect()
        };
        (q, pick(&self.scales), self.offsets.as_deref().map(pick))
    }

    /// The rows of several matrices with the same input size, one after the other (one
    /// matmul instead of several: q/k/v, gate/up).
    pub fn stack(mats: &[&QMat]) -> Result<QMat, String> {
        let Some(first) = mats.first() else {
            return Err("nothing to stack".to_owned());
        };
        let k = first.k;
        if mats.iter().any(|m| m.k != k) {
            return Err("stacked matrices differ in input size".to_owned());
        }
        let n = mats.iter().map(|m| m.n).sum();
        let any_offsets = mats.iter().any(|m| m.offsets.is_some());
        if mats
            .iter()
            .all(|m| m.n.is_multiple_of(PANEL) && m.gs == first.gs)
        {
            // Whole panels with one group size: stacking rows is concatenating panels.
            let zeros = |m: &QMat| vec![0.0; m.scales.len()];
            return Ok(QMat {
                n,
                k,
                gs: first.gs,
                qs: mats.iter().flat_map(|m| m.qs.iter().copied()).collect(),
                scales: mats.iter().flat_map(|m| m.scales.iter().copied()).collect(),
                offsets: any_offsets.then(|| {
                    mats.iter()
                        .flat_map(|m| m.offsets.clone().unwrap_or_else(|| zeros(m)))
                        .collect()
                }),
            });
        }
        let mut qs = Vec::with_capacity(n * k);
        let mut scales = Vec::with_capacity(n * k / QS);
        let mut offsets = Vec::with_capacity(if any_offsets { n * k / QS } else { 0 });
        for m in mats {
            for j in 0..m.n {
                let (q, s, o) = m.row_parts(j);
                qs.extend(q);
                scales.extend(s);
                if any_offsets {
                    offsets.extend(o.unwrap_or_else(|| vec![0.0; k / QS]));
                }
            }
        }
        QMat::new(n, k, qs, scales, any_offsets.then_some(offsets))
    }

    /// Bytes held (for reports).
    pub fn size_bytes(&self) -> usize {
        self.qs.len() + 4 * self.scales.len() + self.offsets.as_ref().map_or(0, |o| 4 * o.len())
    }

    /// Row `j` as `f32` values (embedding look-ups).
    pub fn dequantize_row(&self, j: usize, out: &mut [f32]) {
        for (i, y) in out[..self.k].iter_mut().enumerate() {
            let at = self.scale_at(j, i);
            let off = self.offsets.as_ref().map_or(0.0, |o| o[at]);
            *y = self.scales[at] * self.value(j, i) as f32 + off;
        }
    }

    /// The whole matrix as `f32`, row-major `n × k`.
    pub fn dequantize(&self) -> Vec<f32> {
        let mut out = vec![0f32; self.n * self.k];
        out.par_chunks_mut(self.k)
            .enumerate()
            .for_each(|(j, row)| self.dequantize_row(j, row));
        out
    }
}

/// `m` activation rows of `k` values, quantized for [`matmul`].
#[derive(Clone, Debug)]
pub struct QRows {
    pub m: usize,
    pub k: usize,
    /// Per row: the quantized values, four `i8` to each `i32` (one per step).
    q4: Vec<i32>,
    /// Per row and block of 32: the scale.
    d: Vec<f32>,
    /// Per row and group of 16, then of 32: the exact sum of the unquantized values (for
    /// offsets; the 32-sum is the two 16-sums added).
    sums16: Vec<f32>,
    sums32: Vec<f32>,
    /// Per row and group of 16, then of 32: `−128 · Σ q`, which takes the weights' bias out.
    corr16: Vec<i32>,
    corr32: Vec<i32>,
}

impl QRows {
    /// Quantizes `x` (`m × k`, row-major); `k` must be a multiple of [`QK`]. Rows are
    /// quantized in parallel, each exactly as it would be alone.
    pub fn quantize(x: &[f32], k: usize) -> QRows {
        debug_assert!(k.is_multiple_of(QK) && x.len().is_multiple_of(k));
        let m = x.len() / k;
        let mut q = QRows {
            m,
            k,
            q4: vec![0; m * k / STEP],
            d: vec![0.0; m * k / QK],
            sums16: vec![0.0; m * k / QS],
            sums32: vec![0.0; m * k / QK],
            corr16: vec![0; m * k / QS],
            corr32: vec![0; m * k / QK],
        };
        let rows = x
            .par_chunks_exact(k)
            .zip(q.q4.par_chunks_exact_mut(k / STEP))
            .zip(q.d.par_chunks_exact_mut(k / QK))
            .zip(q.sums16.par_chunks_exact_mut(k / QS))
            .zip(q.sums32.par_chunks_exact_mut(k / QK))
            .zip(q.corr16.par_chunks_exact_mut(k / QS))
            .zip(q.corr32.par_chunks_exact_mut(k / QK));
        // Small inputs (a decode step) are not worth a task per row.
        let min_len = if m * k < 1 << 16 { m.max(1) } else { 1 };
        rows.with_min_len(min_len)
            .for_each(|((((((x, q4), d), s16), s32), c16), c32)| {
                // Compiled for the CPU's vector extensions; the same results on every path.
                pulp::Arch::new().dispatch(
                    #[inline(always)]
                    || quantize_row(x, q4, d, [s16, s32], [c16, c32]),
                )
            });
        q
    }

    /// Row `r`'s data for weights grouped by `gs` inputs.
    #[inline(always)]
    fn row(&self, r: usize, gs: usize) -> Row<'_> {
        let k = self.k;
        let (sums, corr) = if gs == QS {
            (&self.sums16, &self.corr16)
        } else {
            (&self.sums32, &self.corr32)
        };
        Row {
            q4: &self.q4[r * k / STEP..(r + 1) * k / STEP],
            d: &self.d[r * k / QK..(r + 1) * k / QK],
            sums: &sums[r * k / gs..(r + 1) * k / gs],
            corr: &corr[r * k / gs..(r + 1) * k / gs],
        }
    }
}

/// `y` (in `[-127, 127]`, or NaN) rounded to the nearest integer, ties to even, as `i8` (NaN:
/// 0). Adding `1.5 · 2^23` leaves the rounded integer in the low mantissa bits, read as a byte:
/// plain float and integer arithmetic, so the loop vectorizes on any CPU (a saturating float
/// to `i8` cast, or `f32::round_ties_even` without SSE4.1, does not).
#[inline(always)]
fn round_to_i8(y: f32) -> i8 {
    const MAGIC: f32 = 12_582_912.0;
    (y + MAGIC).to_bits() as u8 as i8
}

/// The sum of 16 values in a fixed tree order (halves, then quarters, …) that vectorizes,
/// where a running sum is a chain of 16 dependent additions.
#[inline(always)]
fn sum16(x: &[f32]) -> f32 {
    let mut a = [0f32; 8];
    for (i, v) in a.iter_mut().enumerate() {
        *v = x[i] + x[i + 8];
    }
    let b = [a[0] + a[4], a[1] + a[5], a[2] + a[6], a[3] + a[7]];
    (b[0] + b[2]) + (b[1] + b[3])
}

/// One row of [`QRows::quantize`]: per block of 32 the scale `max |x| / 127` and the values
/// rounded to nearest (ties to even); per group of 16 and of 32 the exact sum and the bias
/// correction.
#[inline(always)]
fn quantize_row(
    x: &[f32],
    q4: &mut [i32],
    d: &mut [f32],
    [s16, s32]: [&mut [f32]; 2],
    [c16, c32]: [&mut [i32]; 2],
) {
    let (blocks, _) = x.as_chunks::<QK>();
    let (qblocks, _) = q4.as_chunks_mut::<{ QK / STEP }>();
    for ((xb, qb), db) in blocks.iter().zip(qblocks).zip(d.iter_mut()) {
        // Lane-wise maxima, then their maximum (exact in any order): vectorizes.
        let mut lanes = [0f32; 8];
        for c in xb.as_chunks::<8>().0 {
            for (l, v) in lanes.iter_mut().zip(c) {
                *l = l.max(v.abs());
            }
        }
        let amax = lanes.iter().fold(0f32, |a, &v| a.max(v));
        let scale = amax / 127.0;
        *db = scale;
        let inv = if scale > 0.0 { 1.0 / scale } else { 0.0 };
        let mut q = [0i8; QK];
        for (q, v) in q.iter_mut().zip(xb) {
            *q = round_to_i8((v * inv).clamp(-127.0, 127.0));
        }
        *qb = bytemuck::cast(q);
    }
    let (qgroups, _) = q4.as_chunks::<{ QS / STEP }>();
    for (((s, xg), c), q) in s16
        .iter_mut()
        .zip(x.chunks_exact(QS))
        .zip(c16.iter_mut())
        .zip(qgroups)
    {
        *s = sum16(xg);
        let q: [i8; QS] = bytemuck::cast(*q);
        *c = -BIAS * q.iter().map(|&v| v as i32).sum::<i32>();
    }
    for (i, (s, c)) in s32.iter_mut().zip(c32.iter_mut()).enumerate() {
        *s = s16[2 * i] + s16[2 * i + 1];
        *c = c16[2 * i] + c16[2 * i + 1];
    }
}

/// `out[r * n + j] = Σ_i x[r][i] · w[j][i]` for every activation row `r` and output `j`, on
/// the current rayon pool.
pub fn matmul(w: &QMat, x: &QRows, out: &mut [f32]) {
    assert_eq!(w.k, x.k, "matmul: input sizes differ");
    let (n, m) = (w.n, x.m);
    assert_eq!(out.len(), n * m, "matmul: output size");
    if m == 0 || n == 0 {
        return;
    }
    let np = n.div_ceil(PANEL);
    // Panels per task: enough tasks for load balancing on a shared machine, few enough that
    // scheduling stays cheap.
    let threads = rayon::current_num_threads().max(1);
    let chunk = np.div_ceil(threads * 8).clamp(1, 64);
    let kernel = kernel();
    let run = |dst: &mut [f32]| {
        dst.par_chunks_mut(chunk * PANEL * m)
            .enumerate()
            .for_each(|(ci, d)| panels(kernel, w, x, ci * chunk, d));
    };
    // Results come out panel by panel, `[p][r][16]`: for one row and whole panels that is
    // already the output; otherwise they go through a scratch buffer, kept per thread up to
    // `SCRATCH_KEEP` values so that decode steps do not page in fresh memory every time.
    if m == 1 && n.is_multiple_of(PANEL) {
        run(out);
        return;
    }
    let len = np * PANEL * m;
    SCRATCH.with(|cell| {
        // Busy only if this thread, waiting inside a matmul, picked up another one.
        let mut kept = cell.try_borrow_mut().ok().filter(|_| len <= SCRATCH_KEEP);
        let mut fresh = Vec::new();
        let tmp = match kept.as_deref_mut() {
            Some(scratch) => {
                if scratch.len() < len {
                    scratch.resize(len, 0.0);
                }
                &mut scratch[..len]
            }
            None => {
                fresh.resize(len, 0.0);
                &mut fresh[..]
            }
        };
        run(tmp);
        scatter(tmp, m, n, out);
    });
}

/// The most scratch values [`matmul`] keeps per thread (16 MiB): a batch of decode steps'
/// logits fits, a long prefill's feed-forward does not and allocates.
const SCRATCH_KEEP: usize = 4 << 20;

thread_local! {
    static SCRATCH: std::cell::RefCell<Vec<f32>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// `out[r·n + 16p + c] = tmp[(p·m + r)·16 + c]`, one 64-byte run at a time.
fn scatter(tmp: &[f32], m: usize, n: usize, out: &mut [f32]) {
    let (panels, _) = tmp.as_chunks::<PANEL>();
    for (r, row) in out.chunks_exact_mut(n).enumerate() {
        // Whole runs as fixed-size copies (a few vector moves each, not a `memmove` call per
        // 64 bytes: the output matrix's 9,496 runs per row), then the ragged last one.
        let (whole, last) = row.as_chunks_mut::<PANEL>();
        for (p, o) in whole.iter_mut().enumerate() {
            *o = panels[p * m + r];
        }
        if !last.is_empty() {
            let p = whole.len();
            last.copy_from_slice(&panels[p * m + r][..last.len()]);
        }
    }
}

/// Which kernel runs: the best the CPU has, or the one named by `VERITY_LOCAL_KERNEL`
/// (`vnni`, `avxvnni`, `avx2`, `portable`) when the CPU has it. All give the same bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// AVX-512 F + BW + VNNI: `vpdpbusd`, 64 multiply-adds per instruction.
    Vnni,
    /// AVX-VNNI (256-bit `vpdpbusd`, Intel cores without AVX-512).
    AvxVnni,
    /// AVX2 + FMA through `pulp`'s safe wrappers (`maddubs`/`madd`).
    Avx2,
    Portable,
}

impl Kernel {
    /// The kernels this CPU can run, best first.
    pub fn available() -> Vec<Kernel> {
        let mut all = Vec::new();
        #[cfg(target_arch = "x86_64")]
        {
            if vnni::available() {
                all.push(Kernel::Vnni);
            }
            if vnni::ymm::available() {
                all.push(Kernel::AvxVnni);
            }
            if pulp::x86::V3::is_available() {
                all.push(Kernel::Avx2);
            }
        }
        all.push(Kernel::Portable);
        all
    }
}

/// The kernel this process uses.
pub fn kernel() -> Kernel {
    static K: std::sync::OnceLock<Kernel> = std::sync::OnceLock::new();
    *K.get_or_init(|| {
        let wanted = std::env::var("VERITY_LOCAL_KERNEL").unwrap_or_default();
        let available = Kernel::available();
        let named = match wanted.as_str() {
            "vnni" => Some(Kernel::Vnni),
            "avxvnni" => Some(Kernel::AvxVnni),
            "avx2" => Some(Kernel::Avx2),
            "portable" => Some(Kernel::Portable),
            _ => None,
        };
        named
            .filter(|k| available.contains(k))
            .unwrap_or(available[0])
    })
}

/// Panels `p0..` (as many as `dst` holds) against every row, written `[p][r][16]`, on
/// `kernel`, one of [`Kernel::available`] (the VNNI kernels check their features again and
/// panic without them).
fn panels(kernel: Kernel, w: &QMat, x: &QRows, p0: usize, dst: &mut [f32]) {
    match kernel {
        #[cfg(target_arch = "x86_64")]
        Kernel::Vnni => vnni::panels(w, x, p0, dst),
        #[cfg(target_arch = "x86_64")]
        Kernel::AvxVnni => vnni::ymm::panels(w, x, p0, dst),
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx2 if let Some(simd) = pulp::x86::V3::try_new() => simd.vectorize(
            #[inline(always)]
            || avx2::panels(simd, w, x, p0, dst),
        ),
        _ => portable_panels(w, x, p0, dst),
    }
}

/// The views of one panel the kernels read.
struct Panel<'a> {
    /// Inputs per group.
    gs: usize,
    /// `[t]`: step `t` (inputs `4t..4t + 4`).
    qs: &'a [[u8; STEP_BYTES]],
    /// `[g]`: the 16 features' scales over group `g`.
    scales: &'a [[f32; PANEL]],
    offsets: Option<&'a [[f32; PANEL]]>,
}

impl QMat {
    fn panel(&self, p: usize) -> Panel<'_> {
        let g = self.k / self.gs;
        let span = p * g * PANEL..(p + 1) * g * PANEL;
        Panel {
            gs: self.gs,
            qs: self.qs[p * self.k * PANEL..(p + 1) * self.k * PANEL]
                .as_chunks()
                .0,
            scales: self.scales[span.clone()].as_chunks().0,
            offsets: self.offsets.as_ref().map(|o| o[span].as_chunks().0),
        }
    }
}

/// One row's activation data: `q4` per step, `d` per block of 32, the rest per group.
struct Row<'a> {
    q4: &'a [i32],
    d: &'a [f32],
    sums: &'a [f32],
    corr: &'a [i32],
}

/// Any CPU: the module's arithmetic in plain loops over a step's 64 bytes and a panel's 16
/// features, which the compiler vectorizes for whatever the CPU has (NEON on ARM); compiled
/// through `pulp`'s dispatch so that `mul_add` is an instruction where the CPU has one.
fn portable_panels(w: &QMat, x: &QRows, p0: usize, dst: &mut [f32]) {
    pulp::Arch::new().dispatch(
        #[inline(always)]
        || portable_lanes(w, x, p0, dst),
    )
}

#[inline(always)]
fn portable_lanes(w: &QMat, x: &QRows, p0: usize, dst: &mut [f32]) {
    let m = x.m;
    let steps = w.gs / STEP;
    for (pi, out) in dst.chunks_exact_mut(PANEL * m).enumerate() {
        let panel = w.panel(p0 + pi);
        for (r, o) in out.chunks_exact_mut(PANEL).enumerate() {
            let row = x.row(r, w.gs);
            let mut acc = [0f32; PANEL];
            for gi in 0..w.k / w.gs {
                // Integer sums of the 16 features, biased weights × signed activations, then
                // the bias taken out: exactly the signed sums.
                let mut isum = [row.corr[gi]; PANEL];
                for t in gi * steps..(gi + 1) * steps {
                    let xq = row.q4[t].to_le_bytes().map(|b| b as i8 as i32);
                    let wq = &panel.qs[t];
                    for (c, s) in isum.iter_mut().enumerate() {
                        let lane = &wq[c * STEP..c * STEP + STEP];
                        *s += lane[0] as i32 * xq[0]
                            + lane[1] as i32 * xq[1]
                            + lane[2] as i32 * xq[2]
                            + lane[3] as i32 * xq[3];
                    }
                }
                let xd = row.d[gi * w.gs / QK];
                for (c, a) in acc.iter_mut().enumerate() {
                    *a = (isum[c] as f32).mul_add(panel.scales[gi][c] * xd, *a);
                }
                if let Some(off) = panel.offsets {
                    for (c, a) in acc.iter_mut().enumerate() {
                        *a = off[gi][c].mul_add(row.sums[gi], *a);
                    }
                }
            }
            o.copy_from_slice(&acc);
        }
    }
}

/// AVX2: a panel as two halves of 8 features (one 256-bit register each), and ggml's
/// `maddubs`/`madd` formulation of the exact signed dot product (no bias to take out).
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use core::arch::x86_64::{__m256, __m256i};

    use pulp::x86::V3;

    use super::{PANEL, Panel, QK, QMat, QRows, STEP};

    /// Rows per block: their accumulators stay in registers while a group's weights are
    /// loaded once for all of them.
    const RB: usize = 4;

    #[inline(always)]
    pub(super) fn panels(simd: V3, w: &QMat, x: &QRows, p0: usize, dst: &mut [f32]) {
        let m = x.m;
        for (pi, out) in dst.chunks_exact_mut(PANEL * m).enumerate() {
            let panel = w.panel(p0 + pi);
            for half in 0..2 {
                let mut r0 = 0;
                while r0 < m {
                    let rows = (m - r0).min(RB);
                    let acc = match panel.gs / STEP {
                        4 => block::<4>(simd, &panel, x, r0, rows, half),
                        _ => block::<8>(simd, &panel, x, r0, rows, half),
                    };
                    for (i, a) in acc.iter().enumerate().take(rows) {
                        let lanes: [f32; 8] = bytemuck::cast(*a);
                        let at = (r0 + i) * PANEL + half * 8;
                        out[at..at + 8].copy_from_slice(&lanes);
                    }
                    r0 += rows;
                }
            }
        }
    }

    /// Rows `r0..r0 + rows` against the 8 features of one half of a panel, `S` steps per
    /// group.
    #[inline(always)]
    fn block<const S: usize>(
        simd: V3,
        panel: &Panel<'_>,
        x: &QRows,
        r0: usize,
        rows: usize,
        half: usize,
    ) -> [__m256; RB] {
        let ones = simd.avx._mm256_set1_epi16(1);
        let flip = simd.avx._mm256_set1_epi8(-128);
        let mut acc = [simd.avx._mm256_setzero_ps(); RB];
        for (gi, steps) in panel.qs.as_chunks::<S>().0.iter().enumerate() {
            // Signed weights and their magnitudes, for the 8 features of this half.
            let sw: [__m256i; S] = core::array::from_fn(|s| {
                let v: __m256i = bytemuck::cast(steps[s].as_chunks::<32>().0[half]);
                simd.avx2._mm256_xor_si256(v, flip)
            });
            let aw: [__m256i; S] = core::array::from_fn(|s| simd.avx2._mm256_abs_epi8(sw[s]));
            let sc: __m256 = bytemuck::cast(panel.scales[gi].as_chunks::<8>().0[half]);
            let off: Option<__m256> = panel
                .offsets
                .map(|o| bytemuck::cast(o[gi].as_chunks::<8>().0[half]));
            for (i, a) in acc.iter_mut().enumerate().take(rows) {
                let row = x.row(r0 + i, panel.gs);
                let mut isum = simd.avx._mm256_setzero_si256();
                for (s, (sw, aw)) in sw.iter().zip(&aw).enumerate() {
                    let xv = simd.avx._mm256_set1_epi32(row.q4[gi * S + s]);
                    let sx = simd.avx2._mm256_sign_epi8(xv, *sw);
                    let p16 = simd.avx2._mm256_maddubs_epi16(*aw, sx);
                    let p32 = simd.avx2._mm256_madd_epi16(p16, ones);
                    isum = simd.avx2._mm256_add_epi32(isum, p32);
                }
                let xd = simd.avx._mm256_set1_ps(row.d[gi * S * STEP / QK]);
                let scale = simd.avx._mm256_mul_ps(sc, xd);
                let f = simd.avx._mm256_cvtepi32_ps(isum);
                *a = simd.fma._mm256_fmadd_ps(f, scale, *a);
                if let Some(ov) = off {
                    let xs = simd.avx._mm256_set1_ps(row.sums[gi]);
                    *a = simd.fma._mm256_fmadd_ps(ov, xs, *a);
                }
            }
        }
        acc
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lcg(seed: &mut u64) -> f32 {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((*seed >> 33) as f32 / (1u64 << 31) as f32) * 2.0 - 1.0
    }

    fn random_parts(
        n: usize,
        k: usize,
        offsets: bool,
        seed: &mut u64,
    ) -> (Vec<i8>, Vec<f32>, Option<Vec<f32>>) {
        // The full i8 range, -128 included (Q8_0 files may hold it).
        let qs = (0..n * k)
            .map(|_| (lcg(seed) * 128.0).floor().clamp(-128.0, 127.0) as i8)
            .collect();
        let scales = (0..n * k / QS).map(|_| lcg(seed).abs() * 0.01).collect();
        let offsets = offsets.then(|| (0..n * k / QS).map(|_| lcg(seed) * 0.01).collect());
        (qs, scales, offsets)
    }

    fn random_qmat(n: usize, k: usize, offsets: bool, seed: &mut u64) -> QMat {
        let (q, s, o) = random_parts(n, k, offsets, seed);
        QMat::new(n, k, q, s, o).unwrap()
    }

    /// Like [`random_qmat`] with scales and offsets per 32 values (each 16-pair equal), as
    /// most GGUF formats have: stored with 32-input groups.
    fn random_qmat32(n: usize, k: usize, offsets: bool, seed: &mut u64) -> QMat {
        let (q, mut s, mut o) = random_parts(n, k, offsets, seed);
        let pair = |v: &mut Vec<f32>| {
            for p in v.chunks_exact_mut(2) {
                p[1] = p[0];
            }
        };
        pair(&mut s);
        if let Some(o) = o.as_mut() {
            pair(o);
        }
        let w = QMat::new(n, k, q, s, o).unwrap();
        assert_eq!(w.gs, 32);
        w
    }

    fn reference(w: &QMat, x: &[f32], m: usize) -> Vec<f32> {
        let wd = w.dequantize();
        let mut out = vec![0f32; m * w.n];
        for r in 0..m {
            for j in 0..w.n {
                out[r * w.n + j] = (0..w.k)
                    .map(|i| wd[j * w.k + i] as f64 * x[r * w.k + i] as f64)
                    .sum::<f64>() as f32;
            }
        }
        out
    }

    /// The reference: the module's arithmetic written out one value at a time, one feature
    /// at a time, for the tests.
    pub(super) fn reference_panels(w: &QMat, x: &QRows, p0: usize, dst: &mut [f32]) {
        let m = x.m;
        let steps = w.gs / STEP;
        for (pi, out) in dst.chunks_exact_mut(PANEL * m).enumerate() {
            let panel = w.panel(p0 + pi);
            for (r, o) in out.chunks_exact_mut(PANEL).enumerate() {
                let row = x.row(r, w.gs);
                for (c, y) in o.iter_mut().enumerate() {
                    let mut acc = 0f32;
                    for gi in 0..w.k / w.gs {
                        let mut i = 0i32;
                        for t in gi * steps..(gi + 1) * steps {
                            let xq: [i8; STEP] = row.q4[t].to_le_bytes().map(|b| b as i8);
                            for (b, &xv) in xq.iter().enumerate() {
                                let wq = panel.qs[t][c * STEP + b];
                                i += ((wq ^ 0x80) as i8 as i32) * xv as i32;
                            }
                        }
                        let scale = panel.scales[gi][c] * row.d[gi * w.gs / QK];
                        acc = (i as f32).mul_add(scale, acc);
                        if let Some(off) = panel.offsets {
                            acc = off[gi][c].mul_add(row.sums[gi], acc);
                        }
                    }
                    *y = acc;
                }
            }
        }
    }

    /// `matmul` on one named path.
    fn matmul_on(kernel: Kernel, w: &QMat, x: &QRows) -> Vec<f32> {
        on(w, x, |p, d| panels(kernel, w, x, p, d))
    }

    /// `matmul` through [`reference_panels`].
    fn reference_on(w: &QMat, x: &QRows) -> Vec<f32> {
        on(w, x, |p, d| reference_panels(w, x, p, d))
    }

    fn on(w: &QMat, x: &QRows, mut panels: impl FnMut(usize, &mut [f32])) -> Vec<f32> {
        let np = w.n.div_ceil(PANEL);
        let mut tmp = vec![0f32; np * PANEL * x.m];
        for (p, d) in tmp.chunks_exact_mut(PANEL * x.m).enumerate() {
            panels(p, d);
        }
        let mut out = vec![0f32; w.n * x.m];
        scatter(&tmp, x.m, w.n, &mut out);
        out
    }

    #[test]
    fn matmul_matches_f64_reference_within_activation_quantization_error() {
        let mut seed = 7;
        for &(n, k, m, off) in &[(40, 64, 1, false), (33, 96, 5, true), (100, 256, 9, true)] {
            let w = random_qmat(n, k, off, &mut seed);
            let x: Vec<f32> = (0..m * k).map(|_| lcg(&mut seed)).collect();
            let mut out = vec![0f32; m * n];
            matmul(&w, &QRows::quantize(&x, k), &mut out);
            let want = reference(&w, &x, m);
            let scale = want.iter().fold(0f32, |a, v| a.max(v.abs()));
            for (a, b) in out.iter().zip(&want) {
                assert!((a - b).abs() <= 0.02 * scale, "{a} vs {b} (scale {scale})");
            }
        }
    }

    #[test]
    fn a_row_gives_the_same_bits_alone_and_in_any_batch() {
        let mut seed = 11;
        let (n, k) = (70, 128);
        let w = random_qmat(n, k, true, &mut seed);
        let x: Vec<f32> = (0..13 * k).map(|_| lcg(&mut seed)).collect();
        let mut all = vec![0f32; 13 * n];
        matmul(&w, &QRows::quantize(&x, k), &mut all);
        for r in 0..13 {
            let mut one = vec![0f32; n];
            matmul(&w, &QRows::quantize(&x[r * k..(r + 1) * k], k), &mut one);
            assert_eq!(one, all[r * n..(r + 1) * n], "row {r}");
        }
    }

    #[test]
    fn every_kernel_this_cpu_has_gives_the_reference_bits() {
        let mut seed = 5;
        let kernels = Kernel::available();
        eprintln!("kernels here: {kernels:?}");
        // Ragged panels, every row-block remainder, with and without offsets, one pass and
        // several (k > 1024), groups of 16 and of 32.
        for &(n, k, m, off) in &[
            (24, 160, 3, true),
            (40, 256, 6, false),
            (17, 64, 13, true),
            (1, 32, 1, false),
            (48, 96, 8, true),
            (32, 1536, 9, true),
        ] {
            for w in [
                random_qmat(n, k, off, &mut seed),
                random_qmat32(n, k, off, &mut seed),
            ] {
                let x: Vec<f32> = (0..m * k).map(|_| lcg(&mut seed) * 3.0).collect();
                let q = QRows::quantize(&x, k);
                let want = reference_on(&w, &q);
                let gs = w.gs;
                for &kernel in &kernels {
                    let got = matmul_on(kernel, &w, &q);
                    let same = got
                        .iter()
                        .zip(&want)
                        .all(|(a, b)| a.to_bits() == b.to_bits());
                    assert!(
                        same,
                        "{kernel:?} differs from the reference: {n}x{k}/{gs}, {m} rows"
                    );
                }
                let mut out = vec![0f32; n * m];
                matmul(&w, &q, &mut out);
                assert_eq!(out, want, "matmul at {n}x{k}/{gs}, {m} rows");
                let scale = want.iter().fold(0f32, |a, v| a.max(v.abs()));
                for (a, b) in out.iter().zip(reference(&w, &x, m)) {
                    assert!((a - b).abs() <= 0.02 * scale, "{a} vs {b} at {n}x{k}/{gs}");
                }
            }
        }
    }

    #[test]
    fn panels_hold_exactly_the_rows_given() {
        let mut seed = 3;
        let (n, k) = (21, 64);
        let (q, s, o) = random_parts(n, k, true, &mut seed);
        let w = QMat::new(n, k, q.clone(), s.clone(), o.clone()).unwrap();
        let o = o.unwrap();
        let mut row = vec![0f32; k];
        for j in 0..n {
            let (rq, rs, ro) = w.row_parts(j);
            assert_eq!(rq, q[j * k..(j + 1) * k]);
            assert_eq!(rs, s[j * k / QS..(j + 1) * k / QS]);
            assert_eq!(ro.unwrap(), o[j * k / QS..(j + 1) * k / QS]);
            w.dequantize_row(j, &mut row);
            for (i, v) in row.iter().enumerate() {
                let g = j * k / QS + i / QS;
                assert_eq!(*v, s[g] * q[j * k + i] as f32 + o[g]);
            }
        }
        // Stacking is concatenating rows; a matrix without offsets gets zero ones.
        let plain = random_qmat(5, k, false, &mut seed);
        let st = QMat::stack(&[&w, &plain]).unwrap();
        assert_eq!(st.n, n + 5);
        for j in 0..5 {
            let (pq, ps, _) = plain.row_parts(j);
            let (sq, ss, so) = st.row_parts(n + j);
            assert_eq!((pq, ps), (sq, ss));
            assert_eq!(so.unwrap(), vec![0.0; k / QS]);
        }
        // Per-32 scales round-trip too.
        let w32 = random_qmat32(n, k, true, &mut seed);
        let (mut q32, mut s32, mut o32) = (vec![], vec![], vec![]);
        for j in 0..n {
            let (q, s, o) = w32.row_parts(j);
            q32.extend(q);
            s32.extend(s);
            o32.extend(o.unwrap());
        }
        let again = QMat::new(n, k, q32, s32, Some(o32)).unwrap();
        assert_eq!(again.gs, 32);
        assert_eq!((&again.qs, &again.scales), (&w32.qs, &w32.scales));
        // Whole panels are concatenated instead: the same rows.
        let a = random_qmat(32, k, false, &mut seed);
        let b = random_qmat(16, k, true, &mut seed);
        let st = QMat::stack(&[&a, &b]).unwrap();
        for (j, (m, mj)) in (0..32)
            .map(|j| (&a, j))
            .chain((0..16).map(|j| (&b, j)))
            .enumerate()
        {
            let (q, s, o) = m.row_parts(mj);
            let o = o.unwrap_or_else(|| vec![0.0; k / QS]);
            assert_eq!(st.row_parts(j), (q, s, Some(o)), "row {j}");
        }
    }

    #[test]
    fn rounding_to_i8_is_round_ties_even() {
        for i in -127 * 8..=127 * 8 {
            let y = i as f32 / 8.0;
            assert_eq!(round_to_i8(y), y.round_ties_even() as i8, "{y}");
        }
        assert_eq!(round_to_i8(f32::NAN), 0);
        assert_eq!(round_to_i8(-0.0), 0);
    }

    #[test]
    fn bad_shapes_are_errors() {
        assert!(QMat::new(2, 20, vec![0; 40], vec![0.0; 2], None).is_err());
        assert!(QMat::new(2, 32, vec![0; 63], vec![0.0; 4], None).is_err());
        assert!(QMat::new(2, 32, vec![0; 64], vec![0.0; 4], Some(vec![0.0; 3])).is_err());
    }
}
