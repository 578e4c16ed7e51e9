//! A strict GGUF (v2/v3) reader, and the exact conversion of its quantized tensors into the
//! kernels' layout ([`QMat`]). The header is parsed from memory (the whole file, or a prefix of
//! it: [`Gguf::read_header`]); tensors are read from any [`TensorBytes`] — the file in memory,
//! or the open file one tensor at a time, so loading never holds the whole file.
//!
//! Every length and offset is checked against the file before use, so a truncated or corrupt
//! file is a [`GgufError`], never a panic or a huge allocation.

use std::borrow::Cow;
use std::collections::HashMap;
use std::ops::Range;

use crate::kernels::{QK, QMat, QS};

/// What can be wrong with a GGUF file.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum GgufError {
    #[error("not a GGUF file (bad magic)")]
    BadMagic,
    #[error("unsupported GGUF version {0} (supported: 2, 3)")]
    Version(u32),
    #[error("corrupt GGUF file: {0}")]
    Corrupt(String),
    #[error("GGUF metadata `{0}` is missing")]
    Missing(String),
    #[error("GGUF metadata `{key}` has the wrong type (expected {expected})")]
    WrongType { key: String, expected: &'static str },
    #[error("tensor `{name}`: {message}")]
    Tensor { name: String, message: String },
}

fn corrupt(msg: impl Into<String>) -> GgufError {
    GgufError::Corrupt(msg.into())
}

/// A metadata value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    U8(u8),
    I8(i8),
    U16(u16),
    I16(i16),
    U32(u32),
    I32(i32),
    U64(u64),
    I64(i64),
    F32(f32),
    F64(f64),
    Bool(bool),
    String(String),
    Array(Vec<Value>),
}

impl Value {
    pub fn as_u64(&self) -> Option<u64> {
        match *self {
            Value::U8(v) => Some(v as u64),
            Value::U16(v) => Some(v as u64),
            Value::U32(v) => Some(v as u64),
            Value::U64(v) => Some(v),
            Value::I8(v) => u64::try_from(v).ok(),
            Value::I16(v) => u64::try_from(v).ok(),
            Value::I32(v) => u64::try_from(v).ok(),
            Value::I64(v) => u64::try_from(v).ok(),
            _ => None,
        }
    }
    pub fn as_f64(&self) -> Option<f64> {
        match *self {
            Value::F32(v) => Some(v as f64),
            Value::F64(v) => Some(v),
            _ => self.as_u64().map(|v| v as f64),
        }
    }
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }
}

/// The ggml tensor types this reader knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DType {
    F32,
    F16,
    BF16,
    Q4_0,
    Q4_1,
    Q5_0,
    Q5_1,
    Q8_0,
    Q4K,
    Q5K,
    Q6K,
}

impl DType {
    fn from_id(id: u32) -> Option<DType> {
        Some(match id {
            0 => DType::F32,
            1 => DType::F16,
            2 => DType::Q4_0,
            3 => DType::Q4_1,
            6 => DType::Q5_0,
            7 => DType::Q5_1,
            8 => DType::Q8_0,
            12 => DType::Q4K,
            13 => DType::Q5K,
            14 => DType::Q6K,
            30 => DType::BF16,
            _ => return None,
        })
    }
    /// (values per block, bytes per block)
    fn block(self) -> (usize, usize) {
        match self {
            DType::F32 => (1, 4),
            DType::F16 | DType::BF16 => (1, 2),
            DType::Q4_0 => (32, 18),
            DType::Q4_1 => (32, 20),
            DType::Q5_0 => (32, 22),
            DType::Q5_1 => (32, 24),
            DType::Q8_0 => (32, 34),
            DType::Q4K => (256, 144),
            DType::Q5K => (256, 176),
            DType::Q6K => (256, 210),
        }
    }
}

/// One tensor's description; `dims[0]` is the innermost (contiguous) dimension.
#[derive(Clone, Debug)]
pub struct TensorInfo {
    pub dims: Vec<usize>,
    pub dtype: DType,
    /// Absolute byte range in the file.
    pub range: std::ops::Range<usize>,
}

/// A parsed GGUF file (metadata and tensor directory), borrowing nothing.
/// Where a tensor's bytes come from: a whole file in memory, or an open file (read one range
/// at a time, from any thread).
pub trait TensorBytes: Sync {
    /// The bytes of `range` (absolute file offsets).
    fn bytes(&self, range: Range<usize>) -> Result<Cow<'_, [u8]>, String>;
}

impl TensorBytes for [u8] {
    fn bytes(&self, range: Range<usize>) -> Result<Cow<'_, [u8]>, String> {
        self.get(range.clone())
            .map(Cow::Borrowed)
            .ok_or_else(|| format!("bytes {range:?} are past the end of the file"))
    }
}

impl TensorBytes for Vec<u8> {
    fn bytes(&self, range: Range<usize>) -> Result<Cow<'_, [u8]>, String> {
        self.as_slice().bytes(range)
    }
}

impl TensorBytes for std::fs::File {
    fn bytes(&self, range: Range<usize>) -> Result<Cow<'_, [u8]>, String> {
        let mut buf = vec![0u8; range.len()];
        read_at(self, &mut buf, range.start as u64)
            .map_err(|e| format!("cannot read bytes {range:?}: {e}"))?;
        Ok(Cow::Owned(buf))
    }
}

/// Fills `buf` from `file` at `offset` without moving a shared cursor (so threads can read
/// different tensors at once).
#[cfg(unix)]
fn read_at(file: &std::fs::File, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, offset)
}

#[cfg(windows)]
fn read_at(file: &std::fs::File, mut buf: &mut [u8], mut offset: u64) -> std::io::Result<()> {
    while !buf.is_empty() {
        match std::os::windows::fs::FileExt::seek_read(file, buf, offset)? {
            0 => return Err(std::io::ErrorKind::UnexpectedEof.into()),
            n => {
                buf = &mut buf[n..];
                offset += n as u64;
            }
        }
    }
    Ok(())
}

#[cfg(not(any(unix, windows)))]
fn read_at(_: &std::fs::File, _: &mut [u8], _: u64) -> std::io::Result<()> {
    Err(std::io::Error::other(
        "reading a file at an offset is not supported on this platform",
    ))
}

#[derive(Debug)]
pub struct Gguf {
    pub version: u32,
    pub metadata: HashMap<String, Value>,
    pub tensors: HashMap<String, TensorInfo>,
}

struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], GgufError> {
        let end = self
            .pos
            .checked_add(n)
            .filter(|&e| e <= self.buf.len())
            .ok_or_else(|| corrupt(format!("unexpected end of file at byte {}", self.pos)))?;
        let s = &self.buf[self.pos..end];
        self.pos = end;
        Ok(s)
    }
    fn array<const N: usize>(&mut self) -> Result<[u8; N], GgufError> {
        let s = self.take(N)?;
        let mut a = [0u8; N];
        a.copy_from_slice(s);
        Ok(a)
    }
    fn u32(&mut self) -> Result<u32, GgufError> {
        Ok(u32::from_le_bytes(self.array()?))
    }
    fn u64(&mut self) -> Result<u64, GgufError> {
        Ok(u64::from_le_bytes(self.array()?))
    }
    /// A count that must fit in what is left of the file at `min_size` bytes per item.
    fn count(&mut self, min_size: usize) -> Result<usize, GgufError> {
        let n = self.u64()?;
        let left = (self.buf.len() - self.pos) as u64;
        if n.saturating_mul(min_size.max(1) as u64) > left {
            return Err(corrupt(format!(
                "count {n} at byte {} exceeds the file",
                self.pos - 8
            )));
        }
        Ok(n as usize)
    }
    fn string(&mut self) -> Result<String, GgufError> {
        let n = self.count(1)?;
        let bytes = self.take(n)?;
        String::from_utf8(bytes.to_vec())
            .map_err(|_| corrupt(format!("invalid UTF-8 string before byte {}", self.pos)))
    }
    fn value(&mut self, ty: u32, depth: usize) -> Result<Value, GgufError> {
        Ok(match ty {
            0 => Value::U8(self.array::<1>()?[0]),
            1 => Value::I8(self.array::<1>()?[0] as i8),
            2 => Value::U16(u16::from_le_bytes(self.array()?)),
            3 => Value::I16(i16::from_le_bytes(self.array()?)),
            4 => Value::U32(self.u32()?),
            5 => Value::I32(i32::from_le_bytes(self.array()?)),
            6 => Value::F32(f32::from_le_bytes(self.array()?)),
            7 => Value::Bool(self.array::<1>()?[0] != 0),
            8 => Value::String(self.string()?),
            9 => {
                if depth > 2 {
                    return Err(corrupt("arrays nested too deeply"));
                }
                let inner = self.u32()?;
                let min = match inner {
                    0 | 1 | 7 => 1,
                    2 | 3 => 2,
                    4..=6 => 4,
                    _ => 8,
                };
                let n = self.count(min)?;
                let mut v = Vec::with_capacity(n);
                for _ in 0..n {
                    v.push(self.value(inner, depth + 1)?);
                }
                Value::Array(v)
            }
            10 => Value::U64(self.u64()?),
            11 => Value::I64(i64::from_le_bytes(self.array()?)),
            12 => Value::F64(f64::from_le_bytes(self.array()?)),
            other => return Err(corrupt(format!("unknown metadata value type {other}"))),
        })
    }
}

impl Gguf {
    /// Parses the header, metadata and tensor directory of `buf` (the whole file).
    pub fn parse(buf: &[u8]) -> Result<Gguf, GgufError> {
        Gguf::parse_prefix(buf, buf.len())
    }

    /// Parses the header from the first bytes of an open file of `file_len` bytes, reading a
    /// larger prefix while the one read is too short (16 MiB holds the pinned models' headers,
    /// tokenizer included). A corrupt file is found corrupt once the prefix is the whole file.
    pub fn read_header(file: &std::fs::File, file_len: usize) -> Result<Gguf, GgufError> {
        let mut want = file_len.min(16 << 20);
        loop {
            let mut prefix = vec![0u8; want];
            read_at(file, &mut prefix, 0)
                .map_err(|e| corrupt(format!("cannot read the header: {e}")))?;
            match Gguf::parse_prefix(&prefix, file_len) {
                Err(_) if want < file_len => want = file_len.min(want.saturating_mul(4)),
                parsed => return parsed,
            }
        }
    }

    /// [`Gguf::parse`] of `buf`, the first bytes of a file of `file_len` bytes: the header
    /// must lie within `buf`; tensors are checked against `file_len`.
    pub fn parse_prefix(buf: &[u8], file_len: usize) -> Result<Gguf, GgufError> {
        let mut r = Reader { buf, pos: 0 };
        if r.take(4).map_err(|_| GgufError::BadMagic)? != b"GGUF" {
            return Err(GgufError::BadMagic);
        }
        let version = r.u32()?;
        if !(2..=3).contains(&version) {
            return Err(GgufError::Version(version));
        }
        let n_tensors = r.count(24)?;
        let n_kv = r.count(12)?;
        let mut metadata = HashMap::with_capacity(n_kv);
        for _ in 0..n_kv {
            let key = r.string()?;
            let ty = r.u32()?;
            let value = r.value(ty, 0)?;
            metadata.insert(key, value);
        }
        let mut infos = Vec::with_capacity(n_tensors);
        for _ in 0..n_tensors {
            let name = r.string()?;
            let n_dims = r.u32()? as usize;
            if n_dims == 0 || n_dims > 4 {
                return Err(corrupt(format!("tensor `{name}` has {n_dims} dimensions")));
            }
            let mut dims = Vec::with_capacity(n_dims);
            for _ in 0..n_dims {
                let d = r.u64()?;
                dims.push(
                    usize::try_from(d)
                        .ok()
                        .filter(|&d| d > 0 && d < (1 << 40))
                        .ok_or_else(|| corrupt(format!("tensor `{name}` has dimension {d}")))?,
                );
            }
            let type_id = r.u32()?;
            let offset = r.u64()?;
            infos.push((name, dims, type_id, offset));
        }
        let alignment = match metadata.get("general.alignment") {
            None => 32,
            Some(v) => v
                .as_u64()
                .filter(|a| *a > 0 && *a <= 1 << 20)
                .ok_or_else(|| corrupt("bad general.alignment"))? as usize,
        };
        let data_start = r.pos.div_ceil(alignment) * alignment;
        let mut tensors = HashMap::with_capacity(infos.len());
        for (name, dims, type_id, offset) in infos {
            let Some(dtype) = DType::from_id(type_id) else {
                // Unknown types are only an error if the model needs the tensor.
                continue;
            };
            let (bs, bytes) = dtype.block();
            let count = dims
                .iter()
                .try_fold(1usize, |a, &d| a.checked_mul(d))
                .ok_or_else(|| corrupt(format!("tensor `{name}` is too large")))?;
            if !dims[0].is_multiple_of(bs) {
                return Err(corrupt(format!(
                    "tensor `{name}`: row of {} values is not a whole number of {bs}-value blocks",
                    dims[0]
                )));
            }
            let size = count / bs * bytes;
            let start = usize::try_from(offset)
                .ok()
                .and_then(|o| o.checked_add(data_start))
                .ok_or_else(|| corrupt(format!("tensor `{name}` has a bad offset")))?;
            let end = start
                .checked_add(size)
                .filter(|&e| e <= file_len)
                .ok_or_else(|| {
                    corrupt(format!("tensor `{name}` extends past the end of the file"))
                })?;
            tensors.insert(
                name,
                TensorInfo {
                    dims,
                    dtype,
                    range: start..end,
                },
            );
        }
        Ok(Gguf {
            version,
            metadata,
            tensors,
        })
    }

    pub fn get(&self, key: &str) -> Result<&Value, GgufError> {
        self.metadata
            .get(key)
            .ok_or_else(|| GgufError::Missing(key.to_owned()))
    }

    pub fn str(&self, key: &str) -> Result<&str, GgufError> {
        self.get(key)?.as_str().ok_or(GgufError::WrongType {
            key: key.to_owned(),
            expected: "a string",
        })
    }

    pub fn usize(&self, key: &str) -> Result<usize, GgufError> {
        self.get(key)?
            .as_u64()
            .and_then(|v| usize::try_from(v).ok())
            .ok_or(GgufError::WrongType {
                key: key.to_owned(),
                expected: "an unsigned integer",
            })
    }

    pub fn f64(&self, key: &str) -> Result<f64, GgufError> {
        self.get(key)?.as_f64().ok_or(GgufError::WrongType {
            key: key.to_owned(),
            expected: "a number",
        })
    }

    pub fn strings(&self, key: &str) -> Result<Vec<&str>, GgufError> {
        let wrong = || GgufError::WrongType {
            key: key.to_owned(),
            expected: "an array of strings",
        };
        match self.get(key)? {
            Value::Array(items) => items.iter().map(|v| v.as_str().ok_or_else(wrong)).collect(),
            _ => Err(wrong()),
        }
    }

    pub fn info(&self, name: &str) -> Result<&TensorInfo, GgufError> {
        self.tensors.get(name).ok_or_else(|| GgufError::Tensor {
            name: name.to_owned(),
            message: "missing (or of an unsupported type)".to_owned(),
        })
    }

    /// A 1-D tensor (norm weights, biases) of `len` values as `f32`.
    pub fn vector(
        &self,
        src: &(impl TensorBytes + ?Sized),
        name: &str,
        len: usize,
    ) -> Result<Vec<f32>, GgufError> {
        let info = self.info(name)?;
        let count: usize = info.dims.iter().product();
        if count != len {
            return Err(GgufError::Tensor {
                name: name.to_owned(),
                message: format!("has {count} values, expected {len}"),
            });
        }
        let data = src
            .bytes(info.range.clone())
            .map_err(|message| GgufError::Tensor {
                name: name.to_owned(),
                message,
            })?;
        let mut out = vec![0f32; len];
        dequantize(info.dtype, &data, &mut out);
        Ok(out)
    }

    /// A 2-D weight tensor of `n` rows by `k` columns as a [`QMat`] (exact for the quantized
    /// types; `F32`/`F16`/`BF16` matrices are quantized to 8 bits per 16 values).
    pub fn matrix(
        &self,
        src: &(impl TensorBytes + ?Sized),
        name: &str,
        n: usize,
        k: usize,
    ) -> Result<QMat, GgufError> {
        let info = self.info(name)?;
        let terr = |message: String| GgufError::Tensor {
            name: name.to_owned(),
            message,
        };
        if info.dims.len() != 2 || info.dims[0] != k || info.dims[1] != n {
            return Err(terr(format!(
                "has shape {:?}, expected [{k}, {n}]",
                info.dims
            )));
        }
        if !k.is_multiple_of(QK) {
            return Err(terr(format!(
                "rows of {k} values are not a multiple of {QK}"
            )));
        }
        let data = src.bytes(info.range.clone()).map_err(terr)?;
        to_qmat(info.dtype, &data, n, k).map_err(terr)
    }
}

/// IEEE half to single precision.
pub fn f16_to_f32(h: u16) -> f32 {
    let sign = ((h >> 15) as u32) << 31;
    let exp = ((h >> 10) & 0x1f) as u32;
    let mant = (h & 0x3ff) as u32;
    let bits = match (exp, mant) {
        (0, 0) => sign,
        (0, m) => {
            // subnormal: normalise
            let mut e = 127 - 15 + 1;
            let mut m = m;
            while m & 0x400 == 0 {
                m <<= 1;
                e -= 1;
            }
            sign | ((e as u32) << 23) | ((m & 0x3ff) << 13)
        }
        (0x1f, m) => sign | 0x7f80_0000 | (m << 13),
        (e, m) => sign | ((e + 127 - 15) << 23) | (m << 13),
    };
    f32::from_bits(bits)
}

fn h(b: &[u8], at: usize) -> f32 {
    f16_to_f32(u16::from_le_bytes([b[at], b[at + 1]]))
}

fn scale_min_k4(j: usize, q: &[u8]) -> (u8, u8) {
    if j < 4 {
        (q[j] & 63, q[j + 4] & 63)
    } else {
        (
            (q[j + 4] & 0xf) | ((q[j - 4] >> 6) << 4),
            (q[j + 4] >> 4) | ((q[j] >> 6) << 4),
        )
    }
}

/// Decodes one block into integer values, one scale per 16 values and optional offsets per 16
/// values, such that `value = scale · q + offset` exactly.
fn decode_block(
    dtype: DType,
    b: &[u8],
    q: &mut [i8],
    scales: &mut [f32],
    offsets: &mut [f32],
) -> bool {
    let mut has_offsets = false;
    match dtype {
        DType::Q4_0 | DType::Q4_1 | DType::Q5_0 | DType::Q5_1 | DType::Q8_0 => {
            let d = h(b, 0);
            let (m, rest) = match dtype {
                DType::Q4_1 | DType::Q5_1 => (Some(h(b, 2)), &b[4..]),
                _ => (None, &b[2..]),
            };
            match dtype {
                DType::Q8_0 => {
                    for (o, &v) in q.iter_mut().zip(&rest[..32]) {
                        *o = v as i8;
                    }
                }
                DType::Q4_0 | DType::Q4_1 => {
                    let bias = if m.is_some() { 0 } else { 8 };
                    for j in 0..16 {
                        q[j] = (rest[j] & 0xf) as i8 - bias;
                        q[j + 16] = (rest[j] >> 4) as i8 - bias;
                    }
                }
                _ => {
                    let qh = u32::from_le_bytes([rest[0], rest[1], rest[2], rest[3]]);
                    let qs = &rest[4..];
                    let bias = if m.is_some() { 0 } else { 16 };
                    for j in 0..16 {
                        let lo = (qs[j] & 0xf) | ((((qh >> j) & 1) as u8) << 4);
                        let hi = (qs[j] >> 4) | ((((qh >> (j + 16)) & 1) as u8) << 4);
                        q[j] = lo as i8 - bias;
                        q[j + 16] = hi as i8 - bias;
                    }
                }
            }
            scales[..2].fill(d);
            if let Some(m) = m {
                offsets[..2].fill(m);
                has_offsets = true;
            }
        }
        DType::Q4K | DType::Q5K => {
            let d = h(b, 0);
            let dmin = h(b, 2);
            let sc = &b[4..16];
            let (qh, qs) = if dtype == DType::Q5K {
                (Some(&b[16..48]), &b[48..176])
            } else {
                (None, &b[16..144])
            };
            for j in 0..4 {
                let (s1, m1) = scale_min_k4(2 * j, sc);
                let (s2, m2) = scale_min_k4(2 * j + 1, sc);
                let ql = &qs[32 * j..32 * j + 32];
                for l in 0..32 {
                    let (mut lo, mut hi) = (ql[l] & 0xf, ql[l] >> 4);
                    if let Some(qh) = qh {
                        lo |= ((qh[l] >> (2 * j)) & 1) << 4;
                        hi |= ((qh[l] >> (2 * j + 1)) & 1) << 4;
                    }
                    q[64 * j + l] = lo as i8;
                    q[64 * j + 32 + l] = hi as i8;
                }
                scales[4 * j..4 * j + 2].fill(d * s1 as f32);
                scales[4 * j + 2..4 * j + 4].fill(d * s2 as f32);
                offsets[4 * j..4 * j + 2].fill(-dmin * m1 as f32);
                offsets[4 * j + 2..4 * j + 4].fill(-dmin * m2 as f32);
            }
            has_offsets = true;
        }
        DType::Q6K => {
            let ql = &b[0..128];
            let qh = &b[128..192];
            let sc = &b[192..208];
            let d = h(b, 208);
            for half in 0..2 {
                let (ql, qh) = (&ql[64 * half..], &qh[32 * half..]);
                let base = 128 * half;
                for l in 0..32 {
                    let q1 = (ql[l] & 0xf) | ((qh[l] & 3) << 4);
                    let q2 = (ql[l + 32] & 0xf) | (((qh[l] >> 2) & 3) << 4);
                    let q3 = (ql[l] >> 4) | (((qh[l] >> 4) & 3) << 4);
                    let q4 = (ql[l + 32] >> 4) | (((qh[l] >> 6) & 3) << 4);
                    q[base + l] = q1 as i8 - 32;
                    q[base + l + 32] = q2 as i8 - 32;
                    q[base + l + 64] = q3 as i8 - 32;
                    q[base + l + 96] = q4 as i8 - 32;
                }
                for g in 0..8 {
                    scales[8 * half + g] = d * (sc[8 * half + g] as i8) as f32;
                }
            }
        }
        DType::F32 | DType::F16 | DType::BF16 => unreachable!("float types are not blocks"),
    }
    has_offsets
}

fn float_values(dtype: DType, data: &[u8], out: &mut [f32]) {
    match dtype {
        DType::F32 => {
            for (o, c) in out.iter_mut().zip(data.chunks_exact(4)) {
                *o = f32::from_le_bytes([c[0], c[1], c[2], c[3]]);
            }
        }
        DType::F16 => {
            for (o, c) in out.iter_mut().zip(data.chunks_exact(2)) {
                *o = f16_to_f32(u16::from_le_bytes([c[0], c[1]]));
            }
        }
        DType::BF16 => {
            for (o, c) in out.iter_mut().zip(data.chunks_exact(2)) {
                *o = f32::from_bits((u16::from_le_bytes([c[0], c[1]]) as u32) << 16);
            }
        }
        _ => unreachable!("only float types"),
    }
}

/// Dequantizes `data` of `dtype` into `out` (whose length is the number of values).
pub fn dequantize(dtype: DType, data: &[u8], out: &mut [f32]) {
    if matches!(dtype, DType::F32 | DType::F16 | DType::BF16) {
        float_values(dtype, data, out);
        return;
    }
    let (bs, bytes) = dtype.block();
    let mut q = vec![0i8; bs];
    let mut s = vec![0f32; bs / QS];
    let mut o = vec![0f32; bs / QS];
    for (blk, y) in data.chunks_exact(bytes).zip(out.chunks_exact_mut(bs)) {
        o.fill(0.0);
        decode_block(dtype, blk, &mut q, &mut s, &mut o);
        for (g, (yc, qc)) in y.chunks_exact_mut(QS).zip(q.chunks_exact(QS)).enumerate() {
            for (v, &qv) in yc.iter_mut().zip(qc) {
                *v = s[g] * qv as f32 + o[g];
            }
        }
    }
}

/// Converts a row-major `n × k` tensor of `dtype` into a [`QMat`].
pub fn to_qmat(dtype: DType, data: &[u8], n: usize, k: usize) -> Result<QMat, String> {
    let mut qs = vec![0i8; n * k];
    let mut scales = vec![0f32; n * k / QS];
    let mut offsets = vec![0f32; n * k / QS];
    let mut any_offset = false;
    if matches!(dtype, DType::F32 | DType::F16 | DType::BF16) {
        let mut row = vec![0f32; k];
        let vb = data.len() / (n * k);
        for j in 0..n {
            float_values(dtype, &data[j * k * vb..(j + 1) * k * vb], &mut row);
            for (g, xg) in row.chunks_exact(QS).enumerate() {
                let amax = xg.iter().fold(0f32, |a, v| a.max(v.abs()));
                let d = amax / 127.0;
                let inv = if d > 0.0 { 1.0 / d } else { 0.0 };
                scales[j * (k / QS) + g] = d;
                for (i, v) in xg.iter().enumerate() {
                    qs[j * k + g * QS + i] = (v * inv).round().clamp(-127.0, 127.0) as i8;
                }
            }
        }
    } else {
        let (bs, bytes) = dtype.block();
        if data.len() != n * k / bs * bytes {
            return Err(format!(
                "holds {} bytes, expected {}",
                data.len(),
                n * k / bs * bytes
            ));
        }
        for (((blk, q), s), o) in data
            .chunks_exact(bytes)
            .zip(qs.chunks_exact_mut(bs))
            .zip(scales.chunks_exact_mut(bs / QS))
            .zip(offsets.chunks_exact_mut(bs / QS))
        {
            any_offset |= decode_block(dtype, blk, q, s, o);
        }
    }
    QMat::new(n, k, qs, scales, any_offset.then_some(offsets))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A tiny GGUF writer for tests.
    pub(crate) fn write_gguf(
        meta: &[(&str, Value)],
        tensors: &[(&str, Vec<usize>, u32, Vec<u8>)],
    ) -> Vec<u8> {
        fn s(out: &mut Vec<u8>, v: &str) {
            out.extend((v.len() as u64).to_le_bytes());
            out.extend(v.as_bytes());
        }
        fn val(out: &mut Vec<u8>, v: &Value) {
            match v {
                Value::U32(x) => out.extend(x.to_le_bytes()),
                Value::I32(x) => out.extend(x.to_le_bytes()),
                Value::F32(x) => out.extend(x.to_le_bytes()),
                Value::Bool(b) => out.push(*b as u8),
                Value::String(x) => s(out, x),
                Value::Array(items) => {
                    let ty = match items.first() {
                        Some(Value::I32(_)) => 5u32,
                        Some(Value::U32(_)) => 4,
                        _ => 8,
                    };
                    out.extend(ty.to_le_bytes());
                    out.extend((items.len() as u64).to_le_bytes());
                    for i in items {
                        val(out, i);
                    }
                }
                other => panic!("test writer: unsupported {other:?}"),
            }
        }
        fn ty(v: &Value) -> u32 {
            match v {
                Value::U32(_) => 4,
                Value::I32(_) => 5,
                Value::F32(_) => 6,
                Value::Bool(_) => 7,
                Value::String(_) => 8,
                Value::Array(_) => 9,
                _ => panic!("test writer"),
            }
        }
        let mut out = b"GGUF".to_vec();
        out.extend(3u32.to_le_bytes());
        out.extend((tensors.len() as u64).to_le_bytes());
        out.extend((meta.len() as u64).to_le_bytes());
        for (k, v) in meta {
            s(&mut out, k);
            out.extend(ty(v).to_le_bytes());
            val(&mut out, v);
        }
        let mut offset = 0u64;
        for (name, dims, t, data) in tensors {
            s(&mut out, name);
            out.extend((dims.len() as u32).to_le_bytes());
            for d in dims {
                out.extend((*d as u64).to_le_bytes());
            }
            out.extend(t.to_le_bytes());
            out.extend(offset.to_le_bytes());
            offset += (data.len() as u64).div_ceil(32) * 32;
        }
        while !out.len().is_multiple_of(32) {
            out.push(0);
        }
        for (_, _, _, data) in tensors {
            out.extend(data);
            while !out.len().is_multiple_of(32) {
                out.push(0);
            }
        }
        out
    }

    #[test]
    fn f16_conversion_covers_normals_subnormals_and_specials() {
        assert_eq!(f16_to_f32(0x3c00), 1.0);
        assert_eq!(f16_to_f32(0xc000), -2.0);
        assert_eq!(f16_to_f32(0x0001), 5.960_464_5e-8);
        assert_eq!(f16_to_f32(0x7c00), f32::INFINITY);
        assert!(f16_to_f32(0x7e00).is_nan());
        assert_eq!(f16_to_f32(0x8000).to_bits(), (-0.0f32).to_bits());
    }

    #[test]
    fn parses_metadata_and_tensors_and_converts_q8_0_exactly() {
        // One Q8_0 row of 32 values: d = 0.5, q = -16..16.
        let mut blk = 0x3800u16.to_le_bytes().to_vec();
        blk.extend((0..32).map(|i| (i as i8 - 16) as u8));
        let file = write_gguf(
            &[
                ("general.architecture", Value::String("llama".into())),
                ("n", Value::U32(7)),
                (
                    "arr",
                    Value::Array(vec![Value::String("a".into()), Value::String("b".into())]),
                ),
            ],
            &[
                ("w", vec![32, 1], 8, blk),
                (
                    "v",
                    vec![2],
                    0,
                    [1.5f32.to_le_bytes(), 2.5f32.to_le_bytes()].concat(),
                ),
            ],
        );
        let g = Gguf::parse(&file).unwrap();
        assert_eq!(g.str("general.architecture").unwrap(), "llama");
        assert_eq!(g.usize("n").unwrap(), 7);
        assert_eq!(g.strings("arr").unwrap(), ["a", "b"]);
        assert_eq!(g.vector(&file, "v", 2).unwrap(), [1.5, 2.5]);
        let m = g.matrix(&file, "w", 1, 32).unwrap();
        let mut row = vec![0f32; 32];
        m.dequantize_row(0, &mut row);
        let want: Vec<f32> = (0..32).map(|i| (i as f32 - 16.0) * 0.5).collect();
        assert_eq!(row, want);
        assert!(matches!(
            g.matrix(&file, "w", 2, 32),
            Err(GgufError::Tensor { .. })
        ));
        assert!(matches!(g.usize("missing"), Err(GgufError::Missing(_))));

        // The same, read from the open file: the header from a prefix, tensors one by one.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.gguf");
        std::fs::write(&path, &file).unwrap();
        let f = std::fs::File::open(&path).unwrap();
        let from_file = Gguf::read_header(&f, file.len()).unwrap();
        assert_eq!(from_file.metadata, g.metadata);
        assert_eq!(from_file.tensors["w"].range, g.tensors["w"].range);
        assert_eq!(from_file.vector(&f, "v", 2).unwrap(), [1.5, 2.5]);
        let mut row2 = vec![0f32; 32];
        from_file
            .matrix(&f, "w", 1, 32)
            .unwrap()
            .dequantize_row(0, &mut row2);
        assert_eq!(row2, want);
        // A prefix ending where the tensor data starts is the whole header; one cut inside the
        // header is an error, and so is a tensor past the file's stated length.
        let data_start = g.tensors.values().map(|t| t.range.start).min().unwrap();
        assert!(Gguf::parse_prefix(&file[..data_start], file.len()).is_ok());
        assert!(Gguf::parse_prefix(&file[..data_start - 40], file.len()).is_err());
        assert!(Gguf::parse_prefix(&file, data_start + 8).is_err());
        // Reading past the end of the file is an error, not a panic.
        assert!(f.bytes(file.len() - 4..file.len() + 4).is_err());
        assert!(file.bytes(file.len() - 4..file.len() + 4).is_err());
    }

    #[test]
    fn corrupt_files_are_errors_not_panics() {
        assert_eq!(Gguf::parse(b"").unwrap_err(), GgufError::BadMagic);
        assert_eq!(Gguf::parse(b"GGML....").unwrap_err(), GgufError::BadMagic);
        let mut v1 = b"GGUF".to_vec();
        v1.extend(1u32.to_le_bytes());
        assert_eq!(Gguf::parse(&v1).unwrap_err(), GgufError::Version(1));
        let good = write_gguf(
            &[("general.architecture", Value::String("llama".into()))],
            &[("w", vec![32, 1], 8, vec![0u8; 34])],
        );
        // Every truncation that cuts into the tensor data (or before) is an error.
        let end = Gguf::parse(&good).unwrap().tensors["w"].range.end;
        for cut in 0..end {
            assert!(Gguf::parse(&good[..cut]).is_err(), "cut at {cut}");
        }
        // An absurd count is refused without allocating.
        let mut huge = b"GGUF".to_vec();
        huge.extend(3u32.to_le_bytes());
        huge.extend(u64::MAX.to_le_bytes());
        huge.extend(0u64.to_le_bytes());
        assert!(matches!(Gguf::parse(&huge), Err(GgufError::Corrupt(_))));
        // Random garbage after a valid header.
        let mut seed = 3u64;
        for _ in 0..200 {
            let mut f = good.clone();
            for _ in 0..4 {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
                let at = (seed >> 33) as usize % f.len();
                f[at] = (seed >> 20) as u8;
            }
            let _ = Gguf::parse(&f).map(|g| g.matrix(&f, "w", 1, 32));
        }
    }

    /// Reference dequantizers written straight from ggml's C, to check the block decoders.
    #[allow(clippy::needless_range_loop)]
    fn ggml_q4k(b: &[u8]) -> Vec<f32> {
        let d = h(b, 0);
        let dmin = h(b, 2);
        let sc = &b[4..16];
        let qs = &b[16..144];
        let mut y = Vec::new();
        let mut is = 0;
        for j in 0..4 {
            let q = &qs[32 * j..];
            let (s1, m1) = scale_min_k4(is, sc);
            let (s2, m2) = scale_min_k4(is + 1, sc);
            for l in 0..32 {
                y.push(d * s1 as f32 * (q[l] & 0xf) as f32 - dmin * m1 as f32);
            }
            for l in 0..32 {
                y.push(d * s2 as f32 * (q[l] >> 4) as f32 - dmin * m2 as f32);
            }
            is += 2;
        }
        y
    }

    #[allow(clippy::needless_range_loop)]
    fn ggml_q6k(b: &[u8]) -> Vec<f32> {
        let d = h(b, 208);
        let mut y = vec![0f32; 256];
        for n in 0..2 {
            let ql = &b[64 * n..];
            let qh = &b[128 + 32 * n..];
            let sc = &b[192 + 8 * n..];
            for l in 0..32 {
                let is = l / 16;
                let q1 = ((ql[l] & 0xf) | ((qh[l] & 3) << 4)) as i32 - 32;
                let q2 = ((ql[l + 32] & 0xf) | (((qh[l] >> 2) & 3) << 4)) as i32 - 32;
                let q3 = ((ql[l] >> 4) | (((qh[l] >> 4) & 3) << 4)) as i32 - 32;
                let q4 = ((ql[l + 32] >> 4) | (((qh[l] >> 6) & 3) << 4)) as i32 - 32;
                y[128 * n + l] = d * (sc[is] as i8) as f32 * q1 as f32;
                y[128 * n + l + 32] = d * (sc[is + 2] as i8) as f32 * q2 as f32;
                y[128 * n + l + 64] = d * (sc[is + 4] as i8) as f32 * q3 as f32;
                y[128 * n + l + 96] = d * (sc[is + 6] as i8) as f32 * q4 as f32;
            }
        }
        y
    }

    #[test]
    fn k_quant_blocks_decode_like_ggml() {
        let mut seed = 99u64;
        let mut rb = |n: usize| -> Vec<u8> {
            (0..n)
                .map(|_| {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
                    (seed >> 33) as u8
                })
                .collect()
        };
        for _ in 0..20 {
            let mut b = rb(144);
            b[0..2].copy_from_slice(&0x2e66u16.to_le_bytes());
            b[2..4].copy_from_slice(&0x2a00u16.to_le_bytes());
            let mut y = vec![0f32; 256];
            dequantize(DType::Q4K, &b, &mut y);
            assert_eq!(y, ggml_q4k(&b));
            let mut b = rb(210);
            b[208..210].copy_from_slice(&0x2e66u16.to_le_bytes());
            dequantize(DType::Q6K, &b, &mut y);
            assert_eq!(y, ggml_q6k(&b));
        }
    }

    #[test]
    fn q5_0_and_q4_1_blocks_decode_like_ggml() {
        // Q5_0: d = 1.0, qh with bit pattern, qs counting.
        let mut b = 0x3c00u16.to_le_bytes().to_vec();
        let qh: u32 = 0xa5a5_0f0f;
        b.extend(qh.to_le_bytes());
        b.extend((0..16).map(|i| (i as u8) | ((15 - i as u8) << 4)));
        let mut y = vec![0f32; 32];
        dequantize(DType::Q5_0, &b, &mut y);
        for j in 0..16 {
            let lo = (j as u32 | (((qh >> j) & 1) << 4)) as f32 - 16.0;
            let hi = ((15 - j as u32) | (((qh >> (j + 16)) & 1) << 4)) as f32 - 16.0;
            assert_eq!((y[j], y[j + 16]), (lo, hi));
        }
        // Q4_1: d = 0.5, m = -1.0
        let mut b = 0x3800u16.to_le_bytes().to_vec();
        b.extend(0xbc00u16.to_le_bytes());
        b.extend((0..16).map(|i| (i as u8) | ((i as u8) << 4)));
        dequantize(DType::Q4_1, &b, &mut y);
        for j in 0..16 {
            assert_eq!(y[j], 0.5 * j as f32 - 1.0);
            assert_eq!(y[j + 16], 0.5 * j as f32 - 1.0);
        }
    }
}
