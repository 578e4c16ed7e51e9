//! Weights loaded once: the converted int8 layout kept beside the model file, and the record of
//! its verified sha256.
//!
//! Loading a model file costs two passes over it: the sha256 check against the pin, then the
//! conversion of every tensor into [`QMat`]s. Both are done once per file:
//!
//! * **`<file>.verified`** (JSON) records the sha256 computed from the file together with what
//!   identifies that version of it — size, modification and status-change times, device and
//!   inode. A later load whose file still has all of these uses the recorded hash instead of
//!   reading the file again. Replacing or rewriting the file (the store's rename, a copy, an
//!   edit, `touch`) changes the status-change time or the inode, which the user cannot set
//!   back, so the file is hashed again. The record only proves the hash of a file nobody has
//!   touched since; it is not a defence against someone who can write the models directory
//!   (they could replace the file and its pin check alike).
//! * **`<file>.int8`** holds the converted weights, keyed by the file's sha256 and
//!   [`LAYOUT_VERSION`], with a BLAKE3 of the key and every byte after the header stored in
//!   the header. It is read straight into the weight buffers, hashing as it goes; a key that
//!   differs, a bad hash, a short or long file, or shapes that do not match the model's
//!   metadata make it unusable, and the weights are converted from the model file again and
//!   the cache rewritten. It is never used unchecked and never a panic.
//!
//! Both files are written to a temporary file in the same directory and renamed into place,
//! so a reader sees a whole file or none; failing to write them (a read-only directory) costs
//! only the time saved.

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde_json::json;

use crate::gguf::Gguf;
use crate::kernels::QMat;
use crate::model::{Arch, Config, Layer, Model};

/// The version of the converted layout (the [`QMat`] panels, scales and offsets, the
/// stacking of q/k/v and gate/up, the conversion of each GGUF block type, and this file's
/// record order). Bump it with any change that would convert a model file into different
/// bytes; `cache::tests::the_layout_of_a_fixed_model_is_pinned` fails until it is.
pub const LAYOUT_VERSION: u32 = 1;

const MAGIC: &[u8; 8] = b"VRTYINT8";
/// Written in native byte order: a cache from a machine of the other order is not read.
const ENDIAN: u32 = 0x0102_0304;
/// Magic, version, byte order, sha256 (64 hex digits), payload length, BLAKE3.
const HEADER: usize = 8 + 4 + 4 + 64 + 8 + 32;

/// What happened to the weights cache on a load.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CacheStatus {
    /// The weights came from the cache.
    Hit,
    /// Converted from the model file; the cache was (re)written. `why` says why it was not
    /// used: absent, another key, failed its check.
    Built { why: String },
    /// Converted from the model file; writing the cache failed (the load still succeeded).
    NotWritten { why: String, error: String },
    /// Not consulted (turned off by the caller).
    Off,
}

/// Where a model file's sha256 came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verified {
    /// Computed from the file's bytes on this load.
    Hashed,
    /// Recorded when the file was last hashed; the file has not changed since.
    Recorded,
}

/// `<file>.int8`: the converted weights of `model`.
pub fn weights_path(model: &Path) -> PathBuf {
    sibling(model, "int8")
}

/// `<file>.verified`: the record of `model`'s sha256.
pub fn record_path(model: &Path) -> PathBuf {
    sibling(model, "verified")
}

fn sibling(model: &Path, ext: &str) -> PathBuf {
    let mut name = model.file_name().unwrap_or_default().to_os_string();
    name.push(".");
    name.push(ext);
    model.with_file_name(name)
}

/// Removes both files kept for `model` (when the model file itself is removed).
pub fn remove(model: &Path) {
    let _ = std::fs::remove_file(weights_path(model));
    let _ = std::fs::remove_file(record_path(model));
}

/// What identifies one version of a file, besides its bytes.
fn stamp(md: &std::fs::Metadata) -> serde_json::Value {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        json!({
            "size": md.len(),
            "mtime": [md.mtime(), md.mtime_nsec()],
            "ctime": [md.ctime(), md.ctime_nsec()],
            "dev": md.dev(),
            "ino": md.ino(),
        })
    }
    #[cfg(not(unix))]
    {
        let mtime = md
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map(|d| d.as_nanos().to_string());
        json!({ "size": md.len(), "mtime": mtime })
    }
}

/// The sha256 recorded for the file `md` describes, if the record is there and the file has
/// not changed since.
pub fn recorded_sha256(model: &Path, md: &std::fs::Metadata) -> Option<String> {
    let text = std::fs::read_to_string(record_path(model)).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    let sha = v.get("sha256")?.as_str()?;
    let valid = sha.len() == 64 && sha.bytes().all(|b| b.is_ascii_hexdigit());
    (valid && v.get("file")? == &stamp(md)).then(|| sha.to_ascii_lowercase())
}

/// Records that the file `md` describes has the sha256 `sha256` (best effort).
pub fn record_sha256(model: &Path, md: &std::fs::Metadata, sha256: &str) -> std::io::Result<()> {
    let body = json!({ "sha256": sha256, "file": stamp(md) }).to_string();
    write_atomically(&record_path(model), Some(md.permissions()), |f| {
        f.write_all(body.as_bytes())
    })
}

/// Writes `path` through a temporary file in its directory renamed into place, with
/// `permissions` (those of the model file, so whoever may read the model may read what is kept
/// beside it; else the temporary file's own, owner only).
fn write_atomically(
    path: &Path,
    permissions: Option<std::fs::Permissions>,
    fill: impl FnOnce(&mut File) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut prefix = std::ffi::OsString::from(".");
    prefix.push(path.file_name().unwrap_or_default());
    prefix.push(".");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    if let Some(p) = permissions {
        builder.permissions(p);
    }
    let mut tmp = builder.tempfile_in(dir)?;
    fill(tmp.as_file_mut())?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// Writes `model`'s weights as the cache for the model file with sha256 `sha256`, with
/// `permissions` (the model file's) when given.
pub fn write(
    path: &Path,
    sha256: &str,
    model: &Model,
    permissions: Option<std::fs::Permissions>,
) -> std::io::Result<()> {
    write_atomically(path, permissions, |file| {
        let mut header = Vec::with_capacity(HEADER);
        header.extend_from_slice(MAGIC);
        header.extend(LAYOUT_VERSION.to_ne_bytes());
        header.extend(ENDIAN.to_ne_bytes());
        header.extend(key_bytes(sha256));
        let mut out = Sink {
            w: BufWriter::with_capacity(1 << 20, &*file),
            hash: blake3::Hasher::new(),
            len: 0,
        };
        // The payload length and hash are filled in once known.
        out.w.write_all(&header)?;
        out.w.write_all(&[0; 8 + 32])?;
        out.hash.update(&header);
        write_model(&mut out, model)?;
        let Sink { w, hash, len } = out;
        w.into_inner().map_err(|e| e.into_error())?;
        let mut f: &File = file;
        f.seek(SeekFrom::Start(header.len() as u64))?;
        f.write_all(&len.to_ne_bytes())?;
        f.write_all(hash.finalize().as_bytes())?;
        Ok(())
    })
}

/// The weights in the cache at `path` for the model file with sha256 `sha256` and
/// configuration `cfg`, or why they cannot be used.
pub fn read(path: &Path, sha256: &str, cfg: &Config) -> Result<Model, String> {
    let file = File::open(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => "no cache yet".to_owned(),
        _ => format!("cannot open the cache: {e}"),
    })?;
    let size = file
        .metadata()
        .map_err(|e| format!("cannot read the cache: {e}"))?
        .len();
    let mut r = Source {
        r: BufReader::with_capacity(1 << 20, file),
        hash: blake3::Hasher::new(),
    };
    let mut head = [0u8; HEADER];
    r.r.read_exact(&mut head)
        .map_err(|_| "the cache is shorter than its header".to_owned())?;
    let (magic, rest) = head.split_at(8);
    let (version, rest) = rest.split_at(4);
    let (endian, rest) = rest.split_at(4);
    let (key, rest) = rest.split_at(64);
    let (len, stored_hash) = rest.split_at(8);
    if magic != MAGIC {
        return Err("not a weights cache".to_owned());
    }
    let version = u32::from_ne_bytes(version.try_into().expect("4 bytes"));
    if u32::from_ne_bytes(endian.try_into().expect("4 bytes")) != ENDIAN {
        return Err("written on a machine of the other byte order".to_owned());
    }
    if version != LAYOUT_VERSION {
        return Err(format!(
            "layout version {version}, this build writes {LAYOUT_VERSION}"
        ));
    }
    if key != key_bytes(sha256).as_slice() {
        return Err("made from another model file (sha256 differs)".to_owned());
    }
    let len = u64::from_ne_bytes(len.try_into().expect("8 bytes"));
    if size != HEADER as u64 + len {
        return Err(format!(
            "the cache has {size} bytes, its header says {}",
            HEADER as u64 + len
        ));
    }
    r.hash.update(&head[..HEADER - 8 - 32]);
    let model = read_model(&mut r, cfg)?;
    if r.r.read(&mut [0u8; 1]).map_err(|e| e.to_string())? != 0 {
        return Err("the cache has bytes after its last record".to_owned());
    }
    if r.hash.finalize().as_bytes() != stored_hash {
        return Err("the cache fails its BLAKE3 check".to_owned());
    }
    Ok(model)
}

/// The header's key: the model file's sha256 as 64 lower-case hex digits.
fn key_bytes(sha256: &str) -> [u8; 64] {
    let mut key = [b'0'; 64];
    for (k, b) in key.iter_mut().zip(sha256.to_ascii_lowercase().bytes()) {
        *k = b;
    }
    key
}

struct Sink<'a> {
    w: BufWriter<&'a File>,
    hash: blake3::Hasher,
    len: u64,
}

impl Sink<'_> {
    fn bytes(&mut self, b: &[u8]) -> std::io::Result<()> {
        self.hash.update(b);
        self.len += b.len() as u64;
        self.w.write_all(b)
    }

    fn u64(&mut self, v: u64) -> std::io::Result<()> {
        self.bytes(&v.to_ne_bytes())
    }

    fn floats(&mut self, v: &[f32]) -> std::io::Result<()> {
        self.bytes(bytemuck::cast_slice(v))
    }

    fn mat(&mut self, m: &QMat) -> std::io::Result<()> {
        let s = m.stored();
        for v in [s.n, s.k, s.gs, usize::from(s.offsets.is_some())] {
            self.u64(v as u64)?;
        }
        self.bytes(s.qs)?;
        self.floats(s.scales)?;
        if let Some(o) = s.offsets {
            self.floats(o)?;
        }
        Ok(())
    }
}

struct Source {
    r: BufReader<File>,
    hash: blake3::Hasher,
}

fn short(e: std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::UnexpectedEof => "the cache is truncated".to_owned(),
        _ => format!("cannot read the cache: {e}"),
    }
}

impl Source {
    fn fill(&mut self, buf: &mut [u8]) -> Result<(), String> {
        self.r.read_exact(buf).map_err(short)?;
        self.hash.update(buf);
        Ok(())
    }

    fn u64(&mut self) -> Result<u64, String> {
        let mut b = [0u8; 8];
        self.fill(&mut b)?;
        Ok(u64::from_ne_bytes(b))
    }

    /// `len` floats (a length the caller knows, never one read from the file).
    fn floats(&mut self, len: usize) -> Result<Vec<f32>, String> {
        let mut v = vec![0f32; len];
        self.fill(bytemuck::cast_slice_mut(&mut v))?;
        Ok(v)
    }

    /// A matrix that must be `n × k`.
    fn mat(&mut self, what: &str, n: usize, k: usize) -> Result<QMat, String> {
        let (sn, sk, gs, has_offsets) = (self.u64()?, self.u64()?, self.u64()?, self.u64()?);
        if (sn, sk) != (n as u64, k as u64) || has_offsets > 1 {
            return Err(format!(
                "{what} is {sn}x{sk} in the cache, {n}x{k} in the model"
            ));
        }
        let (bytes, scales) = QMat::stored_lens(n, k, gs as usize)
            .ok_or_else(|| format!("{what}: impossible groups of {gs} in the cache"))?;
        let mut qs = vec![0u8; bytes];
        self.fill(&mut qs)?;
        let scales_v = self.floats(scales)?;
        let offsets = if has_offsets == 1 {
            Some(self.floats(scales)?)
        } else {
            None
        };
        QMat::from_stored(n, k, gs as usize, qs, scales_v, offsets)
    }

    fn flag(&mut self) -> Result<bool, String> {
        match self.u64()? {
            0 => Ok(false),
            1 => Ok(true),
            v => Err(format!("a flag of {v} in the cache")),
        }
    }
}

/// The configuration's fields, in a fixed order, as the cache's first record.
fn config_words(cfg: &Config) -> [u64; 11] {
    [
        match cfg.arch {
            Arch::Llama => 1,
            Arch::Qwen2 => 2,
        },
        cfg.n_layer as u64,
        cfg.n_embd as u64,
        cfg.n_head as u64,
        cfg.n_kv_head as u64,
        cfg.head_dim as u64,
        cfg.n_ff as u64,
        u64::from(cfg.eps.to_bits()),
        u64::from(cfg.rope_base.to_bits()),
        cfg.context as u64,
        cfg.vocab as u64,
    ]
}

fn write_model(out: &mut Sink<'_>, m: &Model) -> std::io::Result<()> {
    for w in config_words(&m.cfg) {
        out.u64(w)?;
    }
    out.mat(&m.embd)?;
    out.u64(u64::from(m.output.is_some()))?;
    if let Some(o) = &m.output {
        out.mat(o)?;
    }
    out.floats(&m.out_norm)?;
    for l in &m.layers {
        out.floats(&l.attn_norm)?;
        out.mat(&l.wqkv)?;
        out.u64(u64::from(l.bqkv.is_some()))?;
        if let Some(b) = &l.bqkv {
            out.floats(b)?;
        }
        out.mat(&l.wo)?;
        out.floats(&l.ffn_norm)?;
        out.mat(&l.w_gate_up)?;
        out.mat(&l.w_down)?;
    }
    Ok(())
}

fn read_model(r: &mut Source, cfg: &Config) -> Result<Model, String> {
    for (i, want) in config_words(cfg).into_iter().enumerate() {
        if r.u64()? != want {
            return Err(format!(
                "the cache's configuration differs from the model's (field {i})"
            ));
        }
    }
    let (d, ff, vocab) = (cfg.n_embd, cfg.n_ff, cfg.vocab);
    let qkv = cfg.qkv_dim();
    let embd = r.mat("token_embd", vocab, d)?;
    let output = if r.flag()? {
        Some(r.mat("output", vocab, d)?)
    } else {
        None
    };
    let out_norm = r.floats(d)?;
    let mut layers = Vec::with_capacity(cfg.n_layer);
    for i in 0..cfg.n_layer {
        let attn_norm = r.floats(d)?;
        let wqkv = r.mat(&format!("blk.{i}.qkv"), qkv, d)?;
        let bqkv = if r.flag()? {
            Some(r.floats(qkv)?)
        } else {
            None
        };
        if bqkv.is_some() != (cfg.arch == Arch::Qwen2) {
            return Err(format!("blk.{i}: biases do not match the architecture"));
        }
        layers.push(Layer {
            attn_norm,
            wqkv,
            bqkv,
            wo: r.mat(&format!("blk.{i}.attn_output"), d, d)?,
            ffn_norm: r.floats(d)?,
            w_gate_up: r.mat(&format!("blk.{i}.gate_up"), 2 * ff, d)?,
            w_down: r.mat(&format!("blk.{i}.ffn_down"), d, ff)?,
        });
    }
    Ok(Model::from_weights(
        cfg.clone(),
        embd,
        layers,
        out_norm,
        output,
    ))
}

/// The model in the file `g` describes (read from `src`), from the cache at `cache` when it
/// holds this file's (`sha256`) weights, else converted and the cache rewritten.
pub fn load_model(
    g: &Gguf,
    src: &File,
    sha256: &str,
    cache: Option<&Path>,
) -> Result<(Model, CacheStatus), String> {
    let Some(cache) = cache else {
        return Ok((Model::from_gguf(g, src)?, CacheStatus::Off));
    };
    let cfg = Config::from_gguf(g)?;
    let why = match read(cache, sha256, &cfg) {
        Ok(model) => return Ok((model, CacheStatus::Hit)),
        Err(why) => why,
    };
    let model = Model::from_gguf(g, src)?;
    let permissions = src.metadata().ok().map(|m| m.permissions());
    let status = match write(cache, sha256, &model, permissions) {
        Ok(()) => CacheStatus::Built { why },
        Err(e) => CacheStatus::NotWritten {
            why,
            error: e.to_string(),
        },
    };
    Ok((model, status))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::gguf::Value;
    use crate::gguf::tests::write_gguf;
    use crate::model::KvCache;

    /// A tiny llama or qwen2 GGUF (every matrix Q8_0 with scale `1/64`, values from `seed`;
    /// norms F32), enough to run [`Model::forward`].
    pub(crate) fn tiny_model(arch: &str, seed: u8) -> Vec<u8> {
        let (d, ff, vocab, layers) = (64usize, 96usize, 48usize, 2usize);
        let (heads, kv_heads) = (4usize, 2usize);
        let kv = d / heads * kv_heads;
        let q8 = |n: usize, k: usize, salt: usize| -> Vec<u8> {
            let mut out = Vec::new();
            for b in 0..n * k / 32 {
                out.extend(0x2400u16.to_le_bytes()); // 1/64 in f16
                out.extend((0..32).map(|i| {
                    let mut x =
                        (b * 32 + i) as u64 ^ ((salt as u64) << 32) ^ (u64::from(seed) << 48);
                    x = x.wrapping_mul(0x9e37_79b9_7f4a_7c15);
                    x ^= x >> 29;
                    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
                    x ^= x >> 32;
                    ((x % 41) as i8 - 20) as u8
                }));
            }
            out
        };
        let f32s = |n: usize, v: f32| -> Vec<u8> { (0..n).flat_map(|_| v.to_le_bytes()).collect() };
        let mut tensors: Vec<(String, Vec<usize>, u32, Vec<u8>)> = vec![
            (
                "token_embd.weight".into(),
                vec![d, vocab],
                8,
                q8(vocab, d, 1),
            ),
            ("output_norm.weight".into(), vec![d], 0, f32s(d, 1.0)),
        ];
        for l in 0..layers {
            let p = |s: &str| format!("blk.{l}.{s}");
            let salt = 10 * (l + 1);
            tensors.extend([
                (p("attn_norm.weight"), vec![d], 0, f32s(d, 1.0)),
                (p("attn_q.weight"), vec![d, d], 8, q8(d, d, salt + 1)),
                (p("attn_k.weight"), vec![d, kv], 8, q8(kv, d, salt + 2)),
                (p("attn_v.weight"), vec![d, kv], 8, q8(kv, d, salt + 3)),
                (p("attn_output.weight"), vec![d, d], 8, q8(d, d, salt + 4)),
                (p("ffn_norm.weight"), vec![d], 0, f32s(d, 0.5)),
                (p("ffn_gate.weight"), vec![d, ff], 8, q8(ff, d, salt + 5)),
                (p("ffn_up.weight"), vec![d, ff], 8, q8(ff, d, salt + 6)),
                (p("ffn_down.weight"), vec![ff, d], 8, q8(d, ff, salt + 7)),
            ]);
            if arch == "qwen2" {
                tensors.extend([
                    (p("attn_q.bias"), vec![d], 0, f32s(d, 0.01)),
                    (p("attn_k.bias"), vec![kv], 0, f32s(kv, -0.02)),
                    (p("attn_v.bias"), vec![kv], 0, f32s(kv, 0.03)),
                ]);
            }
        }
        let key = |k: &str| format!("{arch}.{k}");
        let meta = [
            (
                "general.architecture".to_owned(),
                Value::String(arch.into()),
            ),
            (key("embedding_length"), Value::U32(d as u32)),
            (key("attention.head_count"), Value::U32(heads as u32)),
            (key("attention.head_count_kv"), Value::U32(kv_heads as u32)),
            (key("block_count"), Value::U32(layers as u32)),
            (key("feed_forward_length"), Value::U32(ff as u32)),
            (key("attention.layer_norm_rms_epsilon"), Value::F32(1e-6)),
            (key("context_length"), Value::U32(256)),
        ];
        let meta: Vec<(&str, Value)> = meta.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
        let tensors: Vec<(&str, Vec<usize>, u32, Vec<u8>)> = tensors
            .iter()
            .map(|(n, d, t, b)| (n.as_str(), d.clone(), *t, b.clone()))
            .collect();
        write_gguf(&meta, &tensors)
    }

    fn open(path: &Path) -> (Gguf, File) {
        let f = File::open(path).unwrap();
        let len = f.metadata().unwrap().len() as usize;
        (Gguf::read_header(&f, len).unwrap(), f)
    }

    fn logits(m: &Model) -> Vec<u32> {
        let mut c = KvCache::new(&m.cfg);
        let out = m.forward(&mut [&mut c], &[&[1, 5, 9, 2, 40, 7]]);
        out[0].iter().map(|v| v.to_bits()).collect()
    }

    #[test]
    fn a_cache_hit_gives_the_cold_conversions_bits_and_a_bad_cache_is_rebuilt() {
        for arch in ["llama", "qwen2"] {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("m.gguf");
            std::fs::write(&path, tiny_model(arch, 1)).unwrap();
            let cache = weights_path(&path);
            assert_eq!(cache.file_name().unwrap(), "m.gguf.int8");
            let (g, f) = open(&path);
            let sha = "ab".repeat(32);
            let (cold, s) = load_model(&g, &f, &sha, None).unwrap();
            assert_eq!(s, CacheStatus::Off);
            let want = logits(&cold);

            let (built, s) = load_model(&g, &f, &sha, Some(&cache)).unwrap();
            assert_eq!(
                s,
                CacheStatus::Built {
                    why: "no cache yet".into()
                }
            );
            assert_eq!(logits(&built), want);
            let (hit, s) = load_model(&g, &f, &sha, Some(&cache)).unwrap();
            assert_eq!(s, CacheStatus::Hit, "{arch}");
            assert_eq!(logits(&hit), want, "{arch}: a hit must give the same bits");

            let good = std::fs::read(&cache).unwrap();
            // Any flipped byte (header or payload), a cut, an extra byte, another model's
            // key: never used, rebuilt, and the rebuilt cache is a hit again.
            let mut cases: Vec<(Vec<u8>, &str)> = Vec::new();
            for at in [
                0,
                9,
                20,
                HEADER - 1,
                HEADER + 3,
                good.len() / 2,
                good.len() - 1,
            ] {
                let mut b = good.clone();
                b[at] ^= 0x10;
                cases.push((b, ""));
            }
            cases.push((good[..good.len() - 100].to_vec(), ""));
            cases.push((good[..HEADER + 40].to_vec(), ""));
            cases.push((good[..10].to_vec(), "shorter than its header"));
            cases.push(([good.as_slice(), &[0]].concat(), ""));
            cases.push((Vec::new(), "shorter than its header"));
            for (i, (bytes, expect)) in cases.into_iter().enumerate() {
                std::fs::write(&cache, &bytes).unwrap();
                let err = read(&cache, &sha, &cold.cfg).map(|_| ()).unwrap_err();
                assert!(err.contains(expect), "case {i}: {err}");
                let (m, s) = load_model(&g, &f, &sha, Some(&cache)).unwrap();
                assert!(matches!(s, CacheStatus::Built { .. }), "case {i}: {s:?}");
                assert_eq!(logits(&m), want, "case {i}");
                assert_eq!(std::fs::read(&cache).unwrap(), good, "case {i}: rewritten");
            }
            // Another model file (another sha256) does not take this cache.
            let err = read(&cache, &"cd".repeat(32), &cold.cfg)
                .map(|_| ())
                .unwrap_err();
            assert!(err.contains("sha256 differs"), "{err}");
            // No temporary files are left behind.
            let names: Vec<_> = std::fs::read_dir(dir.path())
                .unwrap()
                .map(|e| e.unwrap().file_name().into_string().unwrap())
                .collect();
            assert_eq!(names.len(), 2, "{names:?}");
            // Readable by whoever may read the model file.
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
                assert_eq!(mode(&cache), mode(&path));
            }
        }
    }

    #[test]
    fn a_changed_model_file_invalidates_the_cache() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.gguf");
        let cache = weights_path(&path);
        std::fs::write(&path, tiny_model("qwen2", 1)).unwrap();
        let (g, f) = open(&path);
        let (old, _) = load_model(&g, &f, &"11".repeat(32), Some(&cache)).unwrap();
        // Same shapes, other weights, so another sha256: the old cache must not be used.
        std::fs::write(&path, tiny_model("qwen2", 2)).unwrap();
        let (g2, f2) = open(&path);
        let (cold, _) = load_model(&g2, &f2, "", None).unwrap();
        let (m, s) = load_model(&g2, &f2, &"22".repeat(32), Some(&cache)).unwrap();
        assert_eq!(
            s,
            CacheStatus::Built {
                why: "made from another model file (sha256 differs)".into()
            }
        );
        assert_eq!(logits(&m), logits(&cold));
        assert_ne!(logits(&m), logits(&old));
        // A cache it cannot write (its path is a directory) still loads the model.
        let blocked = dir.path().join("blocked.int8");
        std::fs::create_dir(&blocked).unwrap();
        let (m, s) = load_model(&g2, &f2, &"22".repeat(32), Some(&blocked)).unwrap();
        assert!(matches!(s, CacheStatus::NotWritten { .. }), "{s:?}");
        assert_eq!(logits(&m), logits(&cold));
    }

    #[test]
    fn the_sha256_record_holds_only_while_the_file_is_unchanged() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.gguf");
        std::fs::write(&path, b"first").unwrap();
        let md = std::fs::metadata(&path).unwrap();
        assert_eq!(recorded_sha256(&path, &md), None);
        record_sha256(&path, &md, &"AB".repeat(32)).unwrap();
        assert_eq!(recorded_sha256(&path, &md), Some("ab".repeat(32)));
        // Rewritten with the same length (a new status-change time), or replaced by rename
        // (a new inode): the record no longer applies.
        std::thread::sleep(std::time::Duration::from_millis(20));
        std::fs::write(&path, b"other").unwrap();
        assert_eq!(
            recorded_sha256(&path, &std::fs::metadata(&path).unwrap()),
            None
        );
        record_sha256(&path, &std::fs::metadata(&path).unwrap(), &"cd".repeat(32)).unwrap();
        let other = dir.path().join("n");
        std::fs::write(&other, b"other").unwrap();
        std::fs::rename(&other, &path).unwrap();
        assert_eq!(
            recorded_sha256(&path, &std::fs::metadata(&path).unwrap()),
            None
        );
        // A damaged record is no record.
        std::fs::write(record_path(&path), b"{\"sha256\": 3").unwrap();
        assert_eq!(
            recorded_sha256(&path, &std::fs::metadata(&path).unwrap()),
            None
        );
        remove(&path);
        assert!(!record_path(&path).exists());
    }

    /// The converted bytes of a fixed model: when this changes, so does what a model file
    /// converts to, and [`LAYOUT_VERSION`] must be bumped (then update the hash here).
    #[test]
    fn the_layout_of_a_fixed_model_is_pinned() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.gguf");
        std::fs::write(&path, tiny_model("qwen2", 3)).unwrap();
        let (g, f) = open(&path);
        let cache = weights_path(&path);
        load_model(&g, &f, &"00".repeat(32), Some(&cache)).unwrap();
        let bytes = std::fs::read(&cache).unwrap();
        let got = blake3::hash(&bytes[HEADER..]).to_hex().to_string();
        assert_eq!(
            (LAYOUT_VERSION, got.as_str()),
            (
                1,
                "25af08713c35f44037bf87580f96a4f71edd1966bd84fcd82dff22c92a97fa1d"
            ),
            "the converted layout changed: bump LAYOUT_VERSION and update this hash"
        );
    }
}
