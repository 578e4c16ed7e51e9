//! The on-disk format of an [`Index`]:
//!
//! ```text
//! "VIDX" | format version: u32 LE | payload length: u64 LE | zstd frame (with checksum)
//! payload = meta | strings | modules | symbols | availability | alternates | parameters
//!           | supertypes | by-base permutation | alternate-title index
//! ```
//!
//! Every integer in the payload is an unsigned LEB128 varint; strings are a length plus UTF-8
//! bytes; every array is a count plus its items. The string table is sorted, so string ids
//! compare like the strings, and symbols are stored sorted by (parent, name): a loaded index
//! is ready for binary searches without building any hash map. Decoding checks every length
//! and id, so a damaged file is an error, never a panic.

use super::*;

/// Bump when the payload layout changes.
pub const FORMAT_VERSION: u32 = 2;
const MAGIC: &[u8; 4] = b"VIDX";
/// Refuse payloads larger than this (a damaged or hostile length field).
const MAX_PAYLOAD: u64 = 1 << 30;

struct W(Vec<u8>);

impl W {
    fn u(&mut self, mut v: u64) {
        loop {
            let b = (v & 0x7f) as u8;
            v >>= 7;
            if v == 0 {
                self.0.push(b);
                return;
            }
            self.0.push(b | 0x80);
        }
    }
    fn str(&mut self, s: &str) {
        self.u(s.len() as u64);
        self.0.extend_from_slice(s.as_bytes());
    }
    fn ver(&mut self, v: Version) {
        self.u(u64::from(v.major));
        self.u(u64::from(v.minor));
        self.u(u64::from(v.patch));
    }
}

struct R<'a> {
    b: &'a [u8],
    at: usize,
}

fn bad(what: &str) -> IndexError {
    IndexError::Format(format!("damaged payload ({what})"))
}

impl<'a> R<'a> {
    #[inline(always)]
    fn u(&mut self) -> Result<u64> {
        let mut v = 0u64;
        let mut shift = 0;
        loop {
            let b = *self.b.get(self.at).ok_or_else(|| bad("truncated"))?;
            self.at += 1;
            if shift >= 64 {
                return Err(bad("varint too long"));
            }
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
            shift += 7;
        }
    }
    #[inline(always)]
    fn u32(&mut self) -> Result<u32> {
        u32::try_from(self.u()?).map_err(|_| bad("value out of range"))
    }
    #[inline]
    fn count(&mut self) -> Result<usize> {
        let n = self.u()?;
        // Every item takes at least one byte.
        if n > (self.b.len() - self.at.min(self.b.len())) as u64 {
            return Err(bad("count larger than the payload"));
        }
        Ok(n as usize)
    }
    #[inline]
    fn bytes(&mut self) -> Result<&'a [u8]> {
        let n = self.count()?;
        let s = self
            .b
            .get(self.at..self.at + n)
            .ok_or_else(|| bad("truncated"))?;
        self.at += n;
        Ok(s)
    }
    #[inline]
    fn str(&mut self) -> Result<&'a str> {
        std::str::from_utf8(self.bytes()?).map_err(|_| bad("invalid UTF-8"))
    }
    #[inline(always)]
    fn byte(&mut self) -> Result<u8> {
        let b = *self.b.get(self.at).ok_or_else(|| bad("truncated"))?;
        self.at += 1;
        Ok(b)
    }
    #[inline]
    fn ver(&mut self) -> Result<Version> {
        Ok(Version::new(self.u32()?, self.u32()?, self.u32()?))
    }
}

pub(super) fn encode(ix: &Index) -> Vec<u8> {
    let mut w = W(Vec::with_capacity(8 << 20));
    // meta
    w.str(&ix.meta.label);
    match ix.meta.platform {
        Some(t) => {
            w.u(1 + u64::from(t.domain.code()));
            w.ver(t.version);
        }
        None => w.u(0),
    }
    w.str(&ix.meta.source);
    // strings
    let n = ix.nstrings();
    w.u(n as u64);
    for i in 0..n {
        w.str(ix.s(i as u32));
    }
    // modules
    w.u(ix.modules.len() as u64);
    for &m in &ix.modules {
        w.u(u64::from(m));
    }
    // symbols, parent delta-coded (they are sorted by parent)
    w.u(ix.syms.len() as u64);
    let mut prev_parent = 0u32;
    for s in &ix.syms {
        w.u(u64::from(s.parent - prev_parent.min(s.parent)));
        prev_parent = s.parent;
        w.u(u64::from(s.name));
        w.u(u64::from(s.base));
        w.u(u64::from(s.module));
        w.0.push(s.kind.code());
        w.u(u64::from(s.flags));
        w.u(s.defaulted);
        w.u(u64::from(s.alt_len));
        w.u(u64::from(s.av_len));
        // optional string ids stored plus one (0 = none)
        w.u(if s.ty == NONE { 0 } else { u64::from(s.ty) + 1 });
        w.u(if s.generics == NONE {
            0
        } else {
            u64::from(s.generics) + 1
        });
        w.u(u64::from(s.par_len));
    }
    // availability, in symbol order
    w.u(ix.avail.len() as u64);
    for a in &ix.avail {
        w.0.push(a.domain.code());
        w.0.push(a.flags);
        let present = u8::from(a.introduced.is_some())
            | u8::from(a.deprecated.is_some()) << 1
            | u8::from(a.obsoleted.is_some()) << 2
            | u8::from(a.message != NONE) << 3
            | u8::from(a.renamed != NONE) << 4;
        w.0.push(present);
        for v in [a.introduced, a.deprecated, a.obsoleted]
            .into_iter()
            .flatten()
        {
            w.ver(v);
        }
        if a.message != NONE {
            w.u(u64::from(a.message));
        }
        if a.renamed != NONE {
            w.u(u64::from(a.renamed));
        }
    }
    // alternates
    w.u(ix.alts.len() as u64);
    for &a in &ix.alts {
        w.u(u64::from(a));
    }
    // parameters
    w.u(ix.params.len() as u64);
    for p in &ix.params {
        w.u(u64::from(p.label));
        w.u(if p.ty == NONE { 0 } else { u64::from(p.ty) + 1 });
        w.0.push(p.flags);
    }
    // supertypes
    w.u(ix.supers.len() as u64);
    for &(t, s, k) in &ix.supers {
        w.u(u64::from(t));
        w.u(u64::from(s));
        w.0.push(k);
    }
    // the by-base permutation and the alternate-title index (sorted arrays, stored so that
    // loading does not sort)
    w.u(ix.by_base.len() as u64);
    for &i in &ix.by_base {
        w.u(u64::from(i));
    }
    w.u(ix.alt_base.len() as u64);
    for &(b, i) in &ix.alt_base {
        w.u(u64::from(b));
        w.u(u64::from(i));
    }
    let payload = w.0;
    let compressed = compress(&payload);
    let mut out = Vec::with_capacity(compressed.len() + 16);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&compressed);
    out
}

fn compress(payload: &[u8]) -> Vec<u8> {
    let mut c = match zstd::bulk::Compressor::new(19) {
        Ok(c) => c,
        Err(_) => return Vec::new(),
    };
    let _ = c.include_checksum(true);
    c.compress(payload).unwrap_or_default()
}

pub(super) fn decode(bytes: &[u8]) -> Result<Index> {
    if bytes.len() < 16 || &bytes[..4] != MAGIC {
        return Err(IndexError::Format(
            "missing the VIDX header (build one with `verity symbols build DIR --out INDEX`)"
                .into(),
        ));
    }
    let mut v = [0u8; 4];
    v.copy_from_slice(&bytes[4..8]);
    let version = u32::from_le_bytes(v);
    if version != FORMAT_VERSION {
        return Err(IndexError::Format(format!(
            "index format {version}, this build reads format {FORMAT_VERSION}: rebuild it with `verity symbols build`"
        )));
    }
    let mut l = [0u8; 8];
    l.copy_from_slice(&bytes[8..16]);
    let len = u64::from_le_bytes(l);
    if len > MAX_PAYLOAD {
        return Err(bad("payload length"));
    }
    let payload = zstd::bulk::decompress(&bytes[16..], len as usize)
        .map_err(|e| IndexError::Format(format!("cannot decompress: {e}")))?;
    if payload.len() as u64 != len {
        return Err(bad("payload length mismatch"));
    }
    decode_payload(&payload)
}

fn decode_payload(p: &[u8]) -> Result<Index> {
    let mut r = R { b: p, at: 0 };
    let label = r.str()?.to_owned();
    let platform = match r.u()? {
        0 => None,
        d => {
            let domain = u8::try_from(d - 1)
                .ok()
                .and_then(Domain::from_code)
                .ok_or_else(|| bad("platform"))?;
            Some(Target::new(domain, r.ver()?))
        }
    };
    let source = r.str()?.to_owned();
    // strings
    let n = r.count()?;
    let mut blob = String::new();
    let mut offsets = Vec::with_capacity(n + 1);
    let mut prev: Option<&str> = None;
    for _ in 0..n {
        let s = r.str()?;
        if prev.is_some_and(|p| p >= s) {
            return Err(bad("string table not sorted"));
        }
        prev = Some(s);
        offsets.push(blob.len() as u32);
        blob.push_str(s);
    }
    offsets.push(blob.len() as u32);
    let ns = n as u32;
    let sid = |v: u32| if v < ns { Ok(v) } else { Err(bad("string id")) };
    // modules
    let nm = r.count()?;
    let mut modules = Vec::with_capacity(nm);
    for _ in 0..nm {
        modules.push(sid(r.u32()?)?);
    }
    // symbols
    let nsym = r.count()?;
    let mut syms = Vec::with_capacity(nsym);
    let mut parent = 0u32;
    let (mut alt_at, mut av_at, mut par_at) = (0u64, 0u64, 0u64);
    let opt_sid = |v: u32| if v == 0 { Ok(NONE) } else { sid(v - 1) };
    for _ in 0..nsym {
        parent = sid(parent.checked_add(r.u32()?).ok_or_else(|| bad("parent"))?)?;
        let name = sid(r.u32()?)?;
        let base = sid(r.u32()?)?;
        let module = sid(r.u32()?)?;
        let kind = SymbolKind::from_code(r.byte()?);
        let flags = u16::try_from(r.u()?).map_err(|_| bad("flags"))?;
        let defaulted = r.u()?;
        let alt_len = r.u32()?;
        let av_len = r.u32()?;
        let ty = opt_sid(r.u32()?)?;
        let generics = opt_sid(r.u32()?)?;
        let par_len = r.u32()?;
        syms.push(Sym {
            module,
            parent,
            name,
            base,
            kind,
            flags,
            defaulted,
            alt_start: u32::try_from(alt_at).map_err(|_| bad("alternates"))?,
            alt_len,
            av_start: u32::try_from(av_at).map_err(|_| bad("availability"))?,
            av_len,
            ty,
            generics,
            par_start: u32::try_from(par_at).map_err(|_| bad("parameters"))?,
            par_len,
        });
        alt_at += u64::from(alt_len);
        av_at += u64::from(av_len);
        par_at += u64::from(par_len);
    }
    // availability
    let na = r.count()?;
    if na as u64 != av_at {
        return Err(bad("availability count"));
    }
    let mut avail = Vec::with_capacity(na);
    for _ in 0..na {
        let domain = Domain::from_code(r.byte()?).ok_or_else(|| bad("domain"))?;
        let flags = r.byte()?;
        let present = r.byte()?;
        let introduced = if present & 1 != 0 {
            Some(r.ver()?)
        } else {
            None
        };
        let deprecated = if present & 2 != 0 {
            Some(r.ver()?)
        } else {
            None
        };
        let obsoleted = if present & 4 != 0 {
            Some(r.ver()?)
        } else {
            None
        };
        let message = if present & 8 != 0 {
            sid(r.u32()?)?
        } else {
            NONE
        };
        let renamed = if present & 16 != 0 {
            sid(r.u32()?)?
        } else {
            NONE
        };
        avail.push(Avail {
            domain,
            flags,
            introduced,
            deprecated,
            obsoleted,
            message,
            renamed,
        });
    }
    // alternates
    let nalt = r.count()?;
    if nalt as u64 != alt_at {
        return Err(bad("alternates count"));
    }
    let mut alts = Vec::with_capacity(nalt);
    for _ in 0..nalt {
        alts.push(sid(r.u32()?)?);
    }
    // parameters
    let np = r.count()?;
    if np as u64 != par_at {
        return Err(bad("parameters count"));
    }
    let mut params = Vec::with_capacity(np);
    for _ in 0..np {
        let label = sid(r.u32()?)?;
        let ty = opt_sid(r.u32()?)?;
        params.push(Par {
            label,
            ty,
            flags: r.byte()?,
        });
    }
    // supertypes
    let nsup = r.count()?;
    let mut supers = Vec::with_capacity(nsup);
    for _ in 0..nsup {
        let t = sid(r.u32()?)?;
        let s = sid(r.u32()?)?;
        supers.push((t, s, r.byte()?));
    }
    let nb = r.count()?;
    if nb != nsym {
        return Err(bad("by-base count"));
    }
    let mut by_base = Vec::with_capacity(nb);
    for _ in 0..nb {
        let i = r.u32()?;
        if i as usize >= nsym {
            return Err(bad("symbol id"));
        }
        by_base.push(i);
    }
    let nab = r.count()?;
    let mut alt_base = Vec::with_capacity(nab);
    for _ in 0..nab {
        let b = sid(r.u32()?)?;
        let i = r.u32()?;
        if i as usize >= nsym {
            return Err(bad("symbol id"));
        }
        alt_base.push((b, i));
    }
    if r.at != p.len() {
        return Err(bad("trailing bytes"));
    }
    if !supers.is_sorted()
        || !alt_base.is_sorted()
        || !syms.is_sorted_by_key(|s| (s.parent, s.name))
        || !by_base.is_sorted_by_key(|&i| syms[i as usize].base)
    {
        return Err(bad("arrays not sorted"));
    }
    Ok(Index {
        meta: IndexMeta {
            label,
            platform,
            source,
            symbols: nsym as u32,
            modules: nm as u32,
        },
        blob,
        offsets,
        syms,
        avail,
        alts,
        params,
        by_base,
        alt_base,
        supers,
        modules,
    })
}
