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
    #[serde(default, rename = "x-objc-selector")]
    selector: Option<String>,
    #[serde(default, rename = "declarationFragments")]
    fragments: Option<Vec<GFragment>>,
    #[serde(default, rename = "functionSignature")]
    signature: Option<GSignature>,
    #[serde(default, rename = "swiftGenerics")]
    generics: Option<GGenerics>,
}

/// A token of a declaration as SymbolKit writes it.
#[derive(Deserialize)]
struct GFragment {
    #[serde(default)]
    kind: String,
    #[serde(default)]
    spelling: String,
}

#[derive(Deserialize)]
struct GSignature {
    #[serde(default)]
    parameters: Vec<GParam>,
    #[serde(default)]
    returns: Vec<GFragment>,
}

#[derive(Deserialize)]
struct GParam {
    #[serde(default, rename = "declarationFragments")]
    fragments: Vec<GFragment>,
}

#[derive(Deserialize)]
struct GGenerics {
    #[serde(default)]
    parameters: Vec<GGenericParam>,
    #[serde(default)]
    constraints: Vec<GConstraint>,
}

#[derive(Deserialize)]
struct GGenericParam {
    name: String,
}

#[derive(Deserialize)]
struct GConstraint {
    #[serde(default)]
    kind: String,
    #[serde(default)]
    lhs: String,
    #[serde(default)]
    rhs: String,
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
    Ok(read_graphs(dirs)?.into_index())
}

/// Reads every `*.symbols.json` under the given directories (or the files themselves) into
/// declarations.
pub fn read_graphs<P: AsRef<Path>>(dirs: &[P]) -> Result<DeclSet> {
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
    let mut b = GraphReader::default();
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
struct GraphReader {
    set: DeclSet,
    /// precise id → (index into the declarations)
    by_precise: HashMap<String, usize>,
    /// precise id of an extension block → extended type path
    ext_targets: HashMap<String, String>,
    rels: Vec<(String, String, Option<String>, bool)>,
    optional_reqs: Vec<String>,
    /// Module names seen so far (type spellings drop them).
    known_modules: BTreeSet<String>,
}

fn avail_of(a: &GAvail) -> Option<Availability> {
    let domain = match &a.domain {
        None => Domain::Any,
        Some(d) => Domain::from_graph(d)?,
    };
    Some(Availability {
        domain: Some(domain),
        introduced: a.introduced.map(Version::from),
        deprecated: a.deprecated.map(Version::from),
        obsoleted: a.obsoleted.map(Version::from),
        unavailable: a.uncond_unavailable,
        unconditionally_deprecated: a.uncond_deprecated,
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

/// Module names a type spelling may be qualified with, beyond the graphs' own: the
/// standard library's and the common Apple modules (a graph of one module names others).
const WELL_KNOWN_MODULES: &[&str] = &[
    "Swift",
    "_Concurrency",
    "_StringProcessing",
    "Foundation",
    "SwiftUI",
    "UIKit",
    "AppKit",
    "Combine",
    "CoreGraphics",
    "CoreFoundation",
    "ObjectiveC",
    "Darwin",
    "Dispatch",
    "Observation",
    "SwiftData",
    "CoreData",
    "os",
];

fn join_fragments(f: &[GFragment]) -> String {
    f.iter().map(|x| x.spelling.as_str()).collect()
}

/// Splits `text` at `sep` outside brackets (`()`, `[]`, `<>`; the `>` of a function arrow
/// `->` closes nothing) and outside string literals.
pub(crate) fn split_top_level(text: &str, sep: char) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    let mut in_str = false;
    let mut escaped = false;
    let mut prev = '\0';
    for (i, c) in text.char_indices() {
        if in_str {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_str = false;
            }
            prev = c;
            continue;
        }
        match c {
            '"' => in_str = true,
            '(' | '[' | '<' => depth += 1,
            '>' if prev == '-' => {}
            ')' | ']' | '>' => depth -= 1,
            c if c == sep && depth == 0 => {
                out.push(&text[start..i]);
                start = i + c.len_utf8();
            }
            _ => {}
        }
        prev = c;
    }
    out.push(&text[start..]);
    out
}

/// The text between the parentheses that follow the declaration's name (the parameter
/// list), from a joined declaration: `func f<T>(a: Int = 1) -> T` → `a: Int = 1`.
fn parameter_list(decl: &str, keyword_name: &str) -> Option<String> {
    let at = decl
        .find(keyword_name)
        .map_or(0, |i| i + keyword_name.len());
    let rest = &decl[at..];
    // skip a generic parameter clause
    let mut chars = rest.char_indices().peekable();
    let mut open = None;
    let mut angle = 0i32;
    for (i, c) in chars.by_ref() {
        match c {
            '<' => angle += 1,
            '>' if angle > 0 => angle -= 1,
            '(' if angle == 0 => {
                open = Some(i);
                break;
            }
            _ => {}
        }
    }
    let open = open?;
    let mut depth = 0i32;
    for (i, c) in rest[open..].char_indices() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => {
                depth -= 1;
                if depth == 0 {
                    return Some(rest[open + 1..open + i].to_owned());
                }
            }
            _ => {}
        }
    }
    None
}

/// Whether one parameter's declaration (`x: Int = 2`) has a default value.
fn has_default(param: &str) -> bool {
    split_top_level(param, '=').len() > 1
}

/// The type part of one parameter's declaration: `ext int: Int = 2` → `Int`.
fn param_type(param: &str) -> Option<&str> {
    let colon = split_top_level(param, ':');
    if colon.len() < 2 {
        return None;
    }
    let after = &param[colon[0].len() + 1..];
    Some(split_top_level(after, '=')[0].trim())
}

impl GraphReader {
    fn is_module(&self, m: &str) -> bool {
        self.known_modules.contains(m) || WELL_KNOWN_MODULES.contains(&m)
    }

    fn norm_type(&self, s: &str) -> Option<String> {
        let s = s.trim().trim_end_matches("...");
        if s.is_empty() {
            return None;
        }
        TypeRef::parse_normalized(s, &|m| self.is_module(m)).map(|t| t.to_string())
    }

    /// The types a symbol graph records: `functionSignature` (parameters aligned with the
    /// title's labels, defaults from the declaration), the property type after the name in
    /// `declarationFragments`, and `swiftGenerics`.
    fn types_of(&self, s: &GSymbol, kind: SymbolKind, name: &str, d: &mut Decl) {
        let decl = s.fragments.as_deref().map(join_fragments);
        if let Some(sig) = &s.signature {
            let labels = title_labels(name).unwrap_or_default();
            let listed: Vec<String> = decl
                .as_deref()
                .and_then(|t| {
                    let key = match kind {
                        SymbolKind::Init => "init",
                        SymbolKind::Subscript | SymbolKind::TypeSubscript => "subscript",
                        _ => base_name(name),
                    };
                    parameter_list(t, key)
                })
                .map(|l| {
                    split_top_level(&l, ',')
                        .into_iter()
                        .map(|p| p.trim().to_owned())
                        .filter(|p| !p.is_empty())
                        .collect()
                })
                .unwrap_or_default();
            let params: Vec<Param> = sig
                .parameters
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    let text = join_fragments(&p.fragments);
                    let ty = param_type(&text)
                        .and_then(|t| self.norm_type(t))
                        .unwrap_or_default();
                    let default =
                        listed.get(i).is_some_and(|l| has_default(l)) || has_default(&text);
                    Param {
                        label: labels.get(i).map_or("_", |l| *l).to_owned(),
                        ty,
                        default,
                    }
                })
                .collect();
            d.params = Some(params);
            if kind != SymbolKind::Init {
                let ret = join_fragments(&sig.returns);
                d.ty = if ret.trim().is_empty() || ret.trim() == "()" {
                    Some("Void".into())
                } else {
                    self.norm_type(&ret)
                };
            }
            if let Some(t) = &decl {
                let after_params = t.rsplit_once(')').map_or("", |(_, r)| r);
                d.throws = after_params.contains("throws") || after_params.contains("rethrows");
            }
        }
        if kind == SymbolKind::Init {
            d.ty = Some(if d.failable { "Self?" } else { "Self" }.into());
        }
        if matches!(
            kind,
            SymbolKind::Property | SymbolKind::TypeProperty | SymbolKind::Var
        ) && let Some(frags) = &s.fragments
        {
            // `var name: Type { get }`: the fragments after the identifier and ": "
            if let Some(i) = frags.iter().position(|f| f.kind == "identifier") {
                let rest = join_fragments(&frags[i + 1..]);
                let rest = rest.trim_start().strip_prefix(':').unwrap_or("");
                let rest = rest.split(" {").next().unwrap_or(rest);
                let rest = split_top_level(rest, '=')[0];
                d.ty = self.norm_type(rest);
            }
        }
        if kind == SymbolKind::Typealias
            && let Some(t) = &decl
            && let Some((_, rhs)) = t.split_once('=')
        {
            d.ty = self.norm_type(rhs);
        }
        if let Some(g) = &s.generics {
            let mut parts: Vec<String> = Vec::new();
            for p in &g.parameters {
                let cs: Vec<String> = g
                    .constraints
                    .iter()
                    .filter(|c| c.lhs == p.name && c.kind != "sameType")
                    .filter_map(|c| self.norm_type(&c.rhs))
                    .collect();
                if cs.is_empty() {
                    parts.push(p.name.clone());
                } else {
                    parts.push(format!("{}: {}", p.name, cs.join(" & ")));
                }
            }
            for c in &g.constraints {
                let own = g.parameters.iter().any(|p| p.name == c.lhs);
                if c.kind == "sameType" || !own {
                    let op = if c.kind == "sameType" { "==" } else { ":" };
                    if let Some(r) = self.norm_type(&c.rhs) {
                        parts.push(format!("{} {op} {r}", c.lhs));
                    }
                }
            }
            if !parts.is_empty() {
                d.generics = Some(parts.join(", "));
            }
        }
    }

    fn add(&mut self, g: Graph) {
        let module = g.module.name;
        self.set.modules.insert(module.clone());
        self.known_modules.insert(module.clone());
        if let Some(gen_) = g.metadata.and_then(|m| m.generator) {
            self.set.sources.insert(gen_);
        }
        if self.set.platform.is_none()
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
                self.set.platform = Some(Target::new(d, v.into()));
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
            if kind == SymbolKind::Extension {
                self.ext_targets
                    .insert(s.identifier.precise.clone(), s.path.join("."));
            }
            let mut path = s.path.clone();
            if matches!(kind, SymbolKind::Property | SymbolKind::TypeProperty)
                && s.identifier.precise.starts_with("c:objc(")
                && let Some(last) = path.last_mut()
                && last.starts_with(|c: char| c.is_ascii_uppercase())
            {
                // an Objective-C property's leading initialism is lowercased in Swift
                // (`NSPersistentStoreDescription.URL` is `url`)
                *last = super::sdk::objc::lowercase_initialisms(last);
            }
            let mut d = Decl {
                module: module.clone(),
                path,
                kind,
                availability: s.availability.iter().filter_map(avail_of).collect(),
                is_async: s.is_async,
                failable: s.failable,
                objc: s.identifier.precise.starts_with("c:"),
                approximate: s.approximate,
                synthesized: s.synthesized || kind == SymbolKind::Extension,
                actor: s.actor,
                constrained: s
                    .extension
                    .as_ref()
                    .is_some_and(|e| !e.constraints.is_empty()),
                selector: s.selector.clone(),
                c_name: objc_name(&s.identifier.precise, kind),
                ..Decl::default()
            };
            self.types_of(&s, kind, &name, &mut d);
            if s.signature.is_none() && !s.defaulted.is_empty() {
                // the facts-only graphs record which arguments have defaults, not their types
                let labels = title_labels(&name).unwrap_or_default();
                d.params = Some(
                    labels
                        .iter()
                        .enumerate()
                        .map(|(i, l)| Param {
                            label: (*l).to_owned(),
                            ty: String::new(),
                            default: s.defaulted.contains(&(i as u32)),
                        })
                        .collect(),
                );
            }
            d.alternates = s.alternates;
            self.by_precise
                .insert(s.identifier.precise.clone(), self.set.decls.len());
            self.set.decls.push(d);
        }
        for r in g.relationships {
            match r.kind.as_str() {
                "conformsTo" => self
                    .rels
                    .push((r.source, r.target, r.target_fallback, false)),
                "inheritsFrom" => self
                    .rels
                    .push((r.source, r.target, r.target_fallback, true)),
                "extensionTo" => {
                    let t = self
                        .by_precise
                        .get(&r.target)
                        .map(|&i| self.set.decls[i].joined())
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
            return Some(self.set.decls[i].joined());
        }
        fallback
            .and_then(path_from_fallback)
            .or_else(|| path_from_fallback(precise))
    }

    fn finish(mut self) -> DeclSet {
        for p in std::mem::take(&mut self.optional_reqs) {
            if let Some(&i) = self.by_precise.get(&p) {
                self.set.decls[i].optional_requirement = true;
            }
        }
        let mut edges = Vec::new();
        for (src, tgt, fb, inherits) in &self.rels {
            let (Some(s), Some(t)) = (
                self.type_path(src, None),
                self.type_path(tgt, fb.as_deref()),
            ) else {
                continue;
            };
            if s != t {
                edges.push(Relation {
                    source: s,
                    target: t,
                    inherits: *inherits,
                });
            }
        }
        self.set.relations = edges;
        self.set
    }
}

/// The C name of an imported global constant (`c:@NSURLFileSizeKey`), or the container and
/// name of an imported Objective-C property (`c:objc(cs)NSURL(py)path` → `NSURL(py)path`).
fn objc_name(precise: &str, kind: SymbolKind) -> Option<String> {
    match kind {
        SymbolKind::TypeProperty | SymbolKind::Var
            if let Some(n) = precise.strip_prefix("c:@")
                && !n.contains('@') =>
        {
            Some(n.to_owned())
        }
        SymbolKind::Property | SymbolKind::TypeProperty => {
            let rest = precise
                .strip_prefix("c:objc(cs)")
                .or_else(|| precise.strip_prefix("c:objc(pl)"))?;
            let (container, name) = rest.split_once("(py)")?;
            // a category's members: `NSURL(im)…` forms aside, the class is what counts
            let container = container.split('(').next().unwrap_or(container);
            Some(format!("{container}(py){name}"))
        }
        _ => None,
    }
}

/// The one way from declarations to an [`Index`]: the sorted string table, symbols sorted by
/// (parent, name, module, kind), availability, alternates, parameters, supertypes.
pub(super) fn index_from_decls(set: DeclSet) -> Index {
    let DeclSet {
        decls,
        relations,
        modules: module_names,
        platform,
        sources,
        header_imports: _,
        importable: _,
    } = set;
    let parents: Vec<String> = decls
        .iter()
        .map(|d| d.path[..d.path.len().saturating_sub(1)].join("."))
        .collect();
    let names: Vec<&str> = decls
        .iter()
        .map(|d| d.path.last().map_or("", String::as_str))
        .collect();
    let edges: BTreeSet<(&str, &str, u8)> = relations
        .iter()
        .filter(|r| r.source != r.target)
        .map(|r| (r.source.as_str(), r.target.as_str(), u8::from(r.inherits)))
        .collect();
    // The string table: every string any field refers to, sorted.
    let mut set: BTreeSet<&str> = BTreeSet::new();
    set.insert("");
    for (i, d) in decls.iter().enumerate() {
        set.insert(&d.module);
        set.insert(&parents[i]);
        set.insert(names[i]);
        set.insert(base_name(names[i]));
        for a in &d.alternates {
            set.insert(a);
            set.insert(base_name(a));
        }
        for a in &d.availability {
            if let Some(m) = &a.message {
                set.insert(m);
            }
            if let Some(m) = &a.renamed {
                set.insert(m);
            }
        }
        if let Some(t) = &d.ty {
            set.insert(t);
        }
        if let Some(g) = &d.generics {
            set.insert(g);
        }
        for p in d.params.iter().flatten() {
            set.insert(&p.label);
            set.insert(&p.ty);
        }
    }
    for (s, t, _) in &edges {
        set.insert(s);
        set.insert(t);
    }
    for m in &module_names {
        set.insert(m);
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

    let mut order: Vec<usize> = (0..decls.len()).collect();
    order.sort_by_key(|&i| {
        let d = &decls[i];
        (
            id(&parents[i]),
            id(names[i]),
            id(&d.module),
            d.kind.code(),
            i,
        )
    });
    let mut syms = Vec::with_capacity(order.len());
    let mut avail = Vec::new();
    let mut alts = Vec::new();
    let mut params = Vec::new();
    for &i in &order {
        let d = &decls[i];
        let alt_start = alts.len() as u32;
        for a in &d.alternates {
            alts.push(id(a));
        }
        let av_start = avail.len() as u32;
        for a in &d.availability {
            let mut flags = 0;
            if a.unavailable {
                flags |= A_UNAVAILABLE;
            }
            if a.unconditionally_deprecated {
                flags |= A_UNCOND_DEPRECATED;
            }
            if a.deprecated.is_some_and(Version::is_future) {
                flags |= A_FUTURE;
            }
            avail.push(Avail {
                domain: a.domain.unwrap_or(Domain::Any),
                flags,
                introduced: a.introduced,
                deprecated: a.deprecated,
                obsoleted: a.obsoleted,
                message: a.message.as_deref().map_or(NONE, id),
                renamed: a.renamed.as_deref().map_or(NONE, id),
            });
        }
        let par_start = params.len() as u32;
        let mut defaulted = 0u64;
        for (j, p) in d.params.iter().flatten().enumerate() {
            if p.default && j < 64 {
                defaulted |= 1 << j;
            }
            params.push(Par {
                label: id(&p.label),
                ty: if p.ty.is_empty() { NONE } else { id(&p.ty) },
                flags: u8::from(p.default),
            });
        }
        let mut flags = 0u16;
        for (on, bit) in [
            (d.approximate, F_APPROX),
            (d.synthesized, F_SYNTH),
            (d.is_async, F_ASYNC),
            (d.failable, F_FAILABLE),
            (d.objc, F_OBJC),
            (d.optional_requirement, F_OPTIONAL_REQ),
            (d.actor, F_ACTOR),
            (d.constrained, F_CONSTRAINED),
            (d.throws, F_THROWS),
            (d.params.is_some(), F_PARAMS),
            (d.merged, F_MERGED),
        ] {
            if on {
                flags |= bit;
            }
        }
        syms.push(Sym {
            module: id(&d.module),
            parent: id(&parents[i]),
            name: id(names[i]),
            base: id(base_name(names[i])),
            kind: d.kind,
            flags,
            defaulted,
            alt_start,
            alt_len: d.alternates.len() as u32,
            av_start,
            av_len: d.availability.len() as u32,
            ty: d.ty.as_deref().map_or(NONE, id),
            generics: d.generics.as_deref().map_or(NONE, id),
            par_start,
            par_len: d.params.as_ref().map_or(0, |p| p.len() as u32),
        });
    }
    let supers: Vec<(u32, u32, u8)> = edges.iter().map(|(s, t, k)| (id(s), id(t), *k)).collect();
    let modules: Vec<u32> = module_names.iter().map(|m| id(m)).collect();
    let label = match platform {
        Some(t) => format!("{} {}", t.domain, t.version),
        None => "symbol graphs".to_owned(),
    };
    let meta = IndexMeta {
        label,
        platform,
        source: sources.into_iter().collect::<Vec<_>>().join("; "),
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
        params,
        by_base: Vec::new(),
        alt_base: Vec::new(),
        supers,
        modules,
    };
    index.by_base = derive_by_base(&index.syms);
    index.alt_base = derive_alt_base(&index);
    index
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_outside_brackets_arrows_and_strings() {
        assert_eq!(
            split_top_level("f: (Int) -> Void = {}, n: [String: Int] = [:]", ','),
            vec!["f: (Int) -> Void = {}", " n: [String: Int] = [:]"]
        );
        assert!(has_default("handler: (Int) -> Void = { _ in }"));
        assert_eq!(
            param_type("handler: @escaping (Int) -> Void = { _ in }"),
            Some("@escaping (Int) -> Void")
        );
        assert_eq!(
            split_top_level(
                r#"iOS, deprecated: 17.0, message: "use a, \"b\" (or c)""#,
                ','
            ),
            vec![
                "iOS",
                " deprecated: 17.0",
                r#" message: "use a, \"b\" (or c)""#
            ]
        );
        assert_eq!(
            split_top_level("T: Decodable, U == Int", ','),
            vec!["T: Decodable", " U == Int"]
        );
    }
}
