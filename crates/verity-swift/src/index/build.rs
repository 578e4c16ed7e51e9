//! Reads SymbolKit symbol graphs (`*.symbols.json`) into an [`Index`].
//!
//! Accepts the facts-only graphs of `shared/data/apple-sdk-symbols/` (format 0.6.0, synthetic
//! `sgx:` identifiers, `x-` extras) and graphs as `swift symbolgraph-extract` writes them
//! (mangled USRs, `Module@Extended.symbols.json` extension files, extension-block symbols with
//! `extensionTo` relationships).

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::*;

#[derive(Deserialize)]
struct Graph {
    #[serde(default)]
    metadata: Option<GMeta>,
    module: GModule,
    #[serde(default)]
    symbols: Vec<GSymbol>,
    #[serde(default)]
    relationships: Vec<GRel>,
}

#[derive(Deserialize)]
struct GMeta {
    #[serde(default)]
    generator: Option<String>,
}

#[derive(Deserialize)]
struct GModule {
    name: String,
    #[serde(default)]
    platform: Option<GPlatform>,
}

#[derive(Deserialize)]
struct GPlatform {
    #[serde(default, rename = "operatingSystem")]
    os: Option<GOs>,
}

#[derive(Deserialize)]
struct GOs {
    name: String,
    #[serde(default, rename = "minimumVersion")]
    minimum: Option<GVersion>,
}

#[derive(Deserialize, Clone, Copy)]
struct GVersion {
    #[serde(default)]
    major: u32,
    #[serde(default)]
    minor: u32,
    #[serde(default)]
    patch: u32,
}

impl From<GVersion> for Version {
    fn from(v: GVersion) -> Version {
        Version::new(v.major, v.minor, v.patch)
    }
}

#[derive(Deserialize)]
struct GKind {
    identifier: String,
}

#[derive(Deserialize)]
struct GIdent {
    precise: String,
}

#[derive(Deserialize)]
struct GSymbol {
    kind: GKind,
    identifier: GIdent,
    #[serde(rename = "pathComponents")]
    path: Vec<String>,
    #[serde(default, rename = "accessLevel")]
    access: Option<String>,
    #[serde(default)]
    availability: Vec<GAvail>,
    #[serde(default, rename = "swiftExtension")]
    extension: Option<GExtension>,
    #[serde(default, rename = "x-approximate-name")]
    approximate: bool,
    #[serde(default, rename = "x-alternateTitles")]
    alternates: Vec<String>,
    #[serde(default, rename = "x-async")]
    is_async: bool,
    #[serde(default, rename = "x-failable")]
    failable: bool,
    #[serde(default, rename = "x-defaultedArgs")]
    defaulted: Vec<u32>,
    #[serde(default, rename = "x-synthesized")]
    synthesized: bool,
    #[serde(default, rename = "x-actor")]
    actor: bool,
}

#[derive(Deserialize)]
struct GExtension {
    #[serde(default)]
    constraints: Vec<serde_json::Value>,
}

#[derive(Deserialize)]
struct GAvail {
    #[serde(default)]
    domain: Option<String>,
    #[serde(default)]
    introduced: Option<GVersion>,
    #[serde(default)]
    deprecated: Option<GVersion>,
    #[serde(default)]
    obsoleted: Option<GVersion>,
    #[serde(default)]
    message: Option<String>,
    #[serde(default)]
    renamed: Option<String>,
    #[serde(default, rename = "isUnconditionallyDeprecated")]
    uncond_deprecated: bool,
    #[serde(default, rename = "isUnconditionallyUnavailable")]
    uncond_unavailable: bool,
}

#[derive(Deserialize)]
struct GRel {
    kind: String,
    source: String,
    target: String,
    #[serde(default, rename = "targetFallback")]
    target_fallback: Option<String>,
}

struct RawAvail {
    domain: Domain,
    flags: u8,
    introduced: Option<Version>,
    deprecated: Option<Version>,
    obsoleted: Option<Version>,
    message: Option<String>,
    renamed: Option<String>,
}

struct RawSym {
    module: String,
    parent: String,
    name: String,
    kind: SymbolKind,
    flags: u16,
    defaulted: u64,
    alts: Vec<String>,
    avail: Vec<RawAvail>,
}

/// Finds `*.symbols.json` files under `dir` (recursively, a few levels deep), sorted.
fn graph_files(dir: &Path, depth: u32, out: &mut Vec<PathBuf>) -> Result<()> {
    let rd = std::fs::read_dir(dir).map_err(|e| IndexError::Io {
        path: dir.display().to_string(),
        source: e,
    })?;
    let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            if depth < 4 {
                graph_files(&p, depth + 1, out)?;
            }
        } else if p
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.ends_with(".symbols.json"))
        {
            out.push(p);
        }
    }
    Ok(())
}

/// Builds an index from every `*.symbols.json` under the given directories (or the files
/// themselves, when a path is a file).
pub fn build_index<P: AsRef<Path>>(dirs: &[P]) -> Result<Index> {
    let mut files = Vec::new();
    for d in dirs {
        let d = d.as_ref();
        if d.is_file() {
            files.push(d.to_path_buf());
        } else {
            graph_files(d, 0, &mut files)?;
        }
    }
    if files.is_empty() {
        let names: Vec<String> = dirs
            .iter()
            .map(|d| d.as_ref().display().to_string())
            .collect();
        return Err(IndexError::NoGraphs(names.join(", ")));
    }
    let mut b = Builder::default();
    for f in &files {
        let bytes = std::fs::read(f).map_err(|e| IndexError::Io {
            path: f.display().to_string(),
            source: e,
        })?;
        let g: Graph = serde_json::from_slice(&bytes).map_err(|e| IndexError::Graph {
            path: f.display().to_string(),
            message: e.to_string(),
        })?;
        b.add(g);
    }
    Ok(b.finish())
}

#[derive(Default)]
struct Builder {
    syms: Vec<RawSym>,
    /// precise id → (index into syms)
    by_precise: HashMap<String, usize>,
    /// precise id of an extension block → extended type path
    ext_targets: HashMap<String, String>,
    rels: Vec<(String, String, Option<String>, u8)>,
    optional_reqs: Vec<String>,
    modules: BTreeSet<String>,
    platform: Option<Target>,
    generators: BTreeSet<String>,
}

fn avail_of(a: &GAvail) -> Option<RawAvail> {
    let domain = match &a.domain {
        None => Domain::Any,
        Some(d) => Domain::from_graph(d)?,
    };
    let mut flags = 0;
    if a.uncond_unavailable {
        flags |= A_UNAVAILABLE;
    }
    if a.uncond_deprecated {
        flags |= A_UNCOND_DEPRECATED;
    }
    let deprecated = a.deprecated.map(Version::from);
    if deprecated.is_some_and(Version::is_future) {
        flags |= A_FUTURE;
    }
    Some(RawAvail {
        domain,
        flags,
        introduced: a.introduced.map(Version::from),
        deprecated,
        obsoleted: a.obsoleted.map(Version::from),
        message: a.message.clone().filter(|m| !m.is_empty()),
        renamed: a.renamed.clone().filter(|m| !m.is_empty()),
    })
}

/// `Swift.String` → `String`; `sgx:SwiftUI.View` → `View`.
fn path_from_fallback(s: &str) -> Option<String> {
    let s = s.strip_prefix("sgx:").unwrap_or(s);
    if s.contains('#') || s.contains(':') {
        return None;
    }
    let (_, rest) = s.split_once('.')?;
    (!rest.is_empty()).then(|| rest.to_owned())
}

impl Builder {
    fn add(&mut self, g: Graph) {
        let module = g.module.name;
        self.modules.insert(module.clone());
        if let Some(gen_) = g.metadata.and_then(|m| m.generator) {
            self.generators.insert(gen_);
        }
        if self.platform.is_none()
            && let Some(os) = g.module.platform.and_then(|p| p.os)
        {
            let name = match os.name.as_str() {
                "ios" => Some(Domain::Ios),
                "macosx" | "macos" => Some(Domain::MacOs),
                "watchos" => Some(Domain::WatchOs),
                "tvos" => Some(Domain::TvOs),
                "xros" | "visionos" => Some(Domain::VisionOs),
                _ => None,
            };
            if let (Some(d), Some(v)) = (name, os.minimum) {
                self.platform = Some(Target::new(d, v.into()));
            }
        }
        for s in g.symbols {
            if matches!(
                s.access.as_deref(),
                Some("private" | "fileprivate" | "internal" | "package")
            ) || s.path.is_empty()
            {
                continue;
            }
            if self.by_precise.contains_key(&s.identifier.precise) {
                continue;
            }
            let kind = SymbolKind::from_identifier(&s.kind.identifier);
            let name = s.path[s.path.len() - 1].clone();
            let parent = s.path[..s.path.len() - 1].join(".");
            let mut flags = 0u16;
            if s.approximate {
                flags |= F_APPROX;
            }
            if s.synthesized || kind == SymbolKind::Extension {
                flags |= F_SYNTH;
            }
            if s.is_async {
                flags |= F_ASYNC;
            }
            if s.failable {
                flags |= F_FAILABLE;
            }
            if s.identifier.precise.starts_with("c:") {
                flags |= F_OBJC;
            }
            if s.actor {
                flags |= F_ACTOR;
            }
            if s.extension
                .as_ref()
                .is_some_and(|e| !e.constraints.is_empty())
            {
                flags |= F_CONSTRAINED;
            }
            let defaulted = s
                .defaulted
                .iter()
                .filter(|&&i| i < 64)
                .fold(0u64, |acc, &i| acc | 1 << i);
            if kind == SymbolKind::Extension {
                self.ext_targets
                    .insert(s.identifier.precise.clone(), s.path.join("."));
            }
            self.by_precise
                .insert(s.identifier.precise.clone(), self.syms.len());
            self.syms.push(RawSym {
                module: module.clone(),
                parent,
                name,
                kind,
                flags,
                defaulted,
                alts: s.alternates,
                avail: s.availability.iter().filter_map(avail_of).collect(),
            });
        }
        for r in g.relationships {
            match r.kind.as_str() {
                "conformsTo" => self.rels.push((r.source, r.target, r.target_fallback, 0)),
                "inheritsFrom" => self.rels.push((r.source, r.target, r.target_fallback, 1)),
                "extensionTo" => {
                    let t = self
                        .by_precise
                        .get(&r.target)
                        .map(|&i| joined(&self.syms[i]))
                        .or_else(|| r.target_fallback.as_deref().and_then(path_from_fallback));
                    if let Some(t) = t {
                        self.ext_targets.insert(r.source, t);
                    }
                }
                "optionalRequirementOf" => self.optional_reqs.push(r.source),
                _ => {}
            }
        }
    }

    fn type_path(&self, precise: &str, fallback: Option<&str>) -> Option<String> {
        if let Some(t) = self.ext_targets.get(precise) {
            return Some(t.clone());
        }
        if let Some(&i) = self.by_precise.get(precise) {
            return Some(joined(&self.syms[i]));
        }
        fallback
            .and_then(path_from_fallback)
            .or_else(|| path_from_fallback(precise))
    }

    fn finish(mut self) -> Index {
        for p in std::mem::take(&mut self.optional_reqs) {
            if let Some(&i) = self.by_precise.get(&p) {
                self.syms[i].flags |= F_OPTIONAL_REQ;
            }
        }
        let mut edges: BTreeSet<(String, String, u8)> = BTreeSet::new();
        for (src, tgt, fb, kind) in &self.rels {
            let (Some(s), Some(t)) = (
                self.type_path(src, None),
                self.type_path(tgt, fb.as_deref()),
            ) else {
                continue;
            };
            if s != t {
                edges.insert((s, t, *kind));
            }
        }
        // The string table: every string any field refers to, sorted.
        let mut set: BTreeSet<&str> = BTreeSet::new();
        set.insert("");
        for s in &self.syms {
            set.insert(&s.module);
            set.insert(&s.parent);
            set.insert(&s.name);
            set.insert(base_name(&s.name));
            for a in &s.alts {
                set.insert(a);
                set.insert(base_name(a));
            }
            for a in &s.avail {
                if let Some(m) = &a.message {
                    set.insert(m);
                }
                if let Some(m) = &a.renamed {
                    set.insert(m);
                }
            }
        }
        for (s, t, _) in &edges {
            set.insert(s);
            set.insert(t);
        }
        let strings: Vec<&str> = set.into_iter().collect();
        let ids: HashMap<&str, u32> = strings
            .iter()
            .enumerate()
            .map(|(i, s)| (*s, i as u32))
            .collect();
        let id = |s: &str| ids.get(s).copied().unwrap_or(0);
        let mut blob = String::new();
        let mut offsets = Vec::with_capacity(strings.len() + 1);
        for s in &strings {
            offsets.push(blob.len() as u32);
            blob.push_str(s);
        }
        offsets.push(blob.len() as u32);

        let mut order: Vec<usize> = (0..self.syms.len()).collect();
        order.sort_by_key(|&i| {
            let s = &self.syms[i];
            (id(&s.parent), id(&s.name), id(&s.module), s.kind.code(), i)
        });
        let mut syms = Vec::with_capacity(order.len());
        let mut avail = Vec::new();
        let mut alts = Vec::new();
        for &i in &order {
            let r = &self.syms[i];
            let alt_start = alts.len() as u32;
            for a in &r.alts {
                alts.push(id(a));
            }
            let av_start = avail.len() as u32;
            for a in &r.avail {
                avail.push(Avail {
                    domain: a.domain,
                    flags: a.flags,
                    introduced: a.introduced,
                    deprecated: a.deprecated,
                    obsoleted: a.obsoleted,
                    message: a.message.as_deref().map_or(NONE, id),
                    renamed: a.renamed.as_deref().map_or(NONE, id),
                });
            }
            syms.push(Sym {
                module: id(&r.module),
                parent: id(&r.parent),
                name: id(&r.name),
                base: id(base_name(&r.name)),
                kind: r.kind,
                flags: r.flags,
                defaulted: r.defaulted,
                alt_start,
                alt_len: r.alts.len() as u32,
                av_start,
                av_len: r.avail.len() as u32,
            });
        }
        let supers: Vec<(u32, u32, u8)> =
            edges.iter().map(|(s, t, k)| (id(s), id(t), *k)).collect();
        let modules: Vec<u32> = self.modules.iter().map(|m| id(m)).collect();
        let label = match self.platform {
            Some(t) => format!("{} {}", t.domain, t.version),
            None => "symbol graphs".to_owned(),
        };
        let meta = IndexMeta {
            label,
            platform: self.platform,
            source: self.generators.into_iter().collect::<Vec<_>>().join("; "),
            symbols: syms.len() as u32,
            modules: modules.len() as u32,
        };
        let mut index = Index {
            meta,
            blob,
            offsets,
            syms,
            avail,
            alts,
            by_base: Vec::new(),
            alt_base: Vec::new(),
            supers,
            modules,
        };
        index.by_base = derive_by_base(&index.syms);
        index.alt_base = derive_alt_base(&index);
        index
    }
}

fn joined(s: &RawSym) -> String {
    if s.parent.is_empty() {
        s.name.clone()
    } else {
        format!("{}.{}", s.parent, s.name)
    }
}

pub(super) fn derive_by_base(syms: &[Sym]) -> Vec<u32> {
    let mut v: Vec<u32> = (0..syms.len() as u32).collect();
    v.sort_by_key(|&i| (syms[i as usize].base, i));
    v
}

pub(super) fn derive_alt_base(index: &Index) -> Vec<(u32, u32)> {
    let mut v = Vec::new();
    for (i, s) in index.syms.iter().enumerate() {
        for &a in index.alt_ids(s) {
            if let Some(b) = index.str_id(base_name(index.s(a))) {
                v.push((b, i as u32));
            }
        }
    }
    v.sort_unstable();
    v.dedup();
    v
}
