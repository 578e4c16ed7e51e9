//! A compact, read-only index of SymbolKit symbol graphs: every public symbol's module, kind,
//! path, title and per-domain availability, plus the conformance / inheritance edges needed to
//! find members a type gets from its superclasses and protocols.
//!
//! Everything lives in sorted arrays over one sorted string table (string ids compare like the
//! strings), so a lookup is a few binary searches and loading is a decompression plus a linear
//! decode: no hash maps are built at load time.

mod build;
mod format;
mod raw;
pub mod sdk;
mod status;
mod types;

use std::collections::BTreeSet;
use std::fmt;
use std::path::Path;

use serde::{Deserialize, Serialize};

pub(crate) use build::split_top_level;
pub use build::{build_index, read_graphs};
pub use format::FORMAT_VERSION;
pub use raw::{Decl, DeclSet, Param, Relation};
pub use sdk::{read_objc_framework, read_objc_sdk};
pub use status::{Deprecation, SymbolStatus};
pub use types::{NameComp, TypeRef};

use crate::version::{Domain, Target, Version};

/// Why an index could not be built, read or written.
#[derive(Debug, thiserror::Error)]
pub enum IndexError {
    #[error("{path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: not a symbol graph: {message}")]
    Graph { path: String, message: String },
    #[error("no `*.symbols.json` file found under {0}")]
    NoGraphs(String),
    #[error(
        "no `.swiftinterface` file found under {0} (expected an SDK directory: System/Library/Frameworks/*.framework/Modules/*.swiftmodule/ or usr/lib/swift/*.swiftmodule/)"
    )]
    NoInterfaces(String),
    #[error("not a verity symbol index: {0}")]
    Format(String),
}

pub type Result<T, E = IndexError> = std::result::Result<T, E>;

/// A symbol's kind, as the symbol graph's `kind.identifier` names it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SymbolKind {
    Struct,
    Class,
    Enum,
    Protocol,
    EnumCase,
    Func,
    Operator,
    Method,
    TypeMethod,
    Property,
    TypeProperty,
    Var,
    Init,
    Subscript,
    TypeSubscript,
    Typealias,
    AssociatedType,
    Macro,
    /// An extension block, or a placeholder for a type known only through extensions.
    Extension,
    Deinit,
    #[default]
    Other,
}

impl SymbolKind {
    const ALL: [SymbolKind; 21] = [
        SymbolKind::Struct,
        SymbolKind::Class,
        SymbolKind::Enum,
        SymbolKind::Protocol,
        SymbolKind::EnumCase,
        SymbolKind::Func,
        SymbolKind::Operator,
        SymbolKind::Method,
        SymbolKind::TypeMethod,
        SymbolKind::Property,
        SymbolKind::TypeProperty,
        SymbolKind::Var,
        SymbolKind::Init,
        SymbolKind::Subscript,
        SymbolKind::TypeSubscript,
        SymbolKind::Typealias,
        SymbolKind::AssociatedType,
        SymbolKind::Macro,
        SymbolKind::Extension,
        SymbolKind::Deinit,
        SymbolKind::Other,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            SymbolKind::Struct => "swift.struct",
            SymbolKind::Class => "swift.class",
            SymbolKind::Enum => "swift.enum",
            SymbolKind::Protocol => "swift.protocol",
            SymbolKind::EnumCase => "swift.enum.case",
            SymbolKind::Func => "swift.func",
            SymbolKind::Operator => "swift.func.op",
            SymbolKind::Method => "swift.method",
            SymbolKind::TypeMethod => "swift.type.method",
            SymbolKind::Property => "swift.property",
            SymbolKind::TypeProperty => "swift.type.property",
            SymbolKind::Var => "swift.var",
            SymbolKind::Init => "swift.init",
            SymbolKind::Subscript => "swift.subscript",
            SymbolKind::TypeSubscript => "swift.type.subscript",
            SymbolKind::Typealias => "swift.typealias",
            SymbolKind::AssociatedType => "swift.associatedtype",
            SymbolKind::Macro => "swift.macro",
            SymbolKind::Extension => "swift.extension",
            SymbolKind::Deinit => "swift.deinit",
            SymbolKind::Other => "other",
        }
    }

    pub fn from_identifier(s: &str) -> SymbolKind {
        SymbolKind::ALL
            .iter()
            .copied()
            .find(|k| k.as_str() == s)
            .unwrap_or(SymbolKind::Other)
    }

    /// Declares a type name (something `Foo` in `let x: Foo` can denote).
    pub fn is_type(self) -> bool {
        matches!(
            self,
            SymbolKind::Struct
                | SymbolKind::Class
                | SymbolKind::Enum
                | SymbolKind::Protocol
                | SymbolKind::Typealias
                | SymbolKind::AssociatedType
                | SymbolKind::Extension
        )
    }

    /// Something that can be called with arguments (`f(x:)`).
    pub fn is_callable(self) -> bool {
        matches!(
            self,
            SymbolKind::Func
                | SymbolKind::Operator
                | SymbolKind::Method
                | SymbolKind::TypeMethod
                | SymbolKind::Init
                | SymbolKind::Macro
                | SymbolKind::EnumCase
        )
    }

    fn code(self) -> u8 {
        SymbolKind::ALL
            .iter()
            .position(|k| *k == self)
            .unwrap_or(20) as u8
    }

    fn from_code(c: u8) -> SymbolKind {
        SymbolKind::ALL
            .get(usize::from(c))
            .copied()
            .unwrap_or(SymbolKind::Other)
    }
}

impl fmt::Display for SymbolKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for SymbolKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for SymbolKind {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Ok(SymbolKind::from_identifier(&s))
    }
}

// Symbol flags.
pub(crate) const F_APPROX: u16 = 1;
pub(crate) const F_SYNTH: u16 = 1 << 1;
pub(crate) const F_ASYNC: u16 = 1 << 2;
pub(crate) const F_FAILABLE: u16 = 1 << 3;
pub(crate) const F_OBJC: u16 = 1 << 4;
pub(crate) const F_OPTIONAL_REQ: u16 = 1 << 5;
pub(crate) const F_ACTOR: u16 = 1 << 6;
pub(crate) const F_CONSTRAINED: u16 = 1 << 7;
pub(crate) const F_THROWS: u16 = 1 << 8;
/// The symbol's parameters are recorded (possibly none).
pub(crate) const F_PARAMS: u16 = 1 << 9;
/// The symbol stands for several overloads of one name (see [`Decl::merged`]).
pub(crate) const F_MERGED: u16 = 1 << 10;

// Availability entry flags.
pub(crate) const A_UNAVAILABLE: u8 = 1;
pub(crate) const A_UNCOND_DEPRECATED: u8 = 1 << 1;
pub(crate) const A_FUTURE: u8 = 1 << 2;

const NONE: u32 = u32::MAX;

/// One availability entry of a symbol, for one domain.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Availability {
    pub domain: Option<Domain>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub introduced: Option<Version>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deprecated: Option<Version>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub obsoleted: Option<Version>,
    /// `isUnconditionallyUnavailable`: not usable on this domain at all.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unavailable: bool,
    /// `isUnconditionallyDeprecated`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unconditionally_deprecated: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub renamed: Option<String>,
}

/// Everything the index knows about one symbol.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SymbolFacts {
    pub module: String,
    pub kind: SymbolKind,
    /// `["View", "navigationDestination(for:destination:)"]`.
    pub path: Vec<String>,
    /// The symbol graph's `names.title`: the dotted path for types, the last component otherwise.
    pub title: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub availability: Vec<Availability>,
    /// The Swift spelling of an imported Objective-C name was derived heuristically.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub approximate_name: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub alternate_titles: Vec<String>,
    /// A placeholder for a type known only through extensions (no kind or availability).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub synthesized: bool,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub objc: bool,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub is_async: bool,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub failable: bool,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub optional_requirement: bool,
    /// 0-based indexes of parameters with default values.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub defaulted_args: Vec<u8>,
    /// A property's type, a callable's return type, an initializer's `Self` / `Self?`, a
    /// typealias's aliased type (normalized, see [`TypeRef`]).
    #[serde(default, skip_serializing_if = "Option::is_none", rename = "type")]
    pub ty: Option<String>,
    /// A callable's parameters (an enum case's payload), when recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub params: Option<Vec<Param>>,
    /// Generic parameters and constraints: `T: Decodable, U == Int`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generics: Option<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub throws: bool,
}

impl SymbolFacts {
    /// `View.navigationDestination(for:destination:)`.
    pub fn dotted_path(&self) -> String {
        self.path.join(".")
    }

    /// The entry for `domain`, if the symbol has one.
    pub fn availability_for(&self, domain: Domain) -> Option<&Availability> {
        self.availability.iter().find(|a| a.domain == Some(domain))
    }
}

/// Where an index came from and what it covers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct IndexMeta {
    /// A short label (`iOS 17.4`).
    pub label: String,
    /// The SDK the graphs describe: the platform a miss is authoritative for.
    pub platform: Option<Target>,
    /// Free text: the generator(s) of the graphs.
    pub source: String,
    pub symbols: u32,
    pub modules: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Sym {
    pub(crate) module: u32,
    /// The joined parent path (`Font` for `Font.Design`; the empty string at top level).
    pub(crate) parent: u32,
    /// The last path component (`navigationDestination(for:destination:)`, `Design`).
    pub(crate) name: u32,
    /// The name without argument labels (`navigationDestination`, `init`).
    pub(crate) base: u32,
    pub(crate) kind: SymbolKind,
    pub(crate) flags: u16,
    pub(crate) defaulted: u64,
    pub(crate) alt_start: u32,
    pub(crate) alt_len: u32,
    pub(crate) av_start: u32,
    pub(crate) av_len: u32,
    /// The type string (see [`SymbolFacts::ty`]), or `NONE`.
    pub(crate) ty: u32,
    /// The generic signature string, or `NONE`.
    pub(crate) generics: u32,
    pub(crate) par_start: u32,
    pub(crate) par_len: u32,
}

/// One parameter of a symbol: label and type string ids (`ty` may be `NONE`), flags
/// (`1`: has a default value).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Par {
    pub(crate) label: u32,
    pub(crate) ty: u32,
    pub(crate) flags: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Avail {
    pub(crate) domain: Domain,
    pub(crate) flags: u8,
    pub(crate) introduced: Option<Version>,
    pub(crate) deprecated: Option<Version>,
    pub(crate) obsoleted: Option<Version>,
    pub(crate) message: u32,
    pub(crate) renamed: u32,
}

/// A symbol's position in the index.
pub type SymId = u32;

/// The index itself. Cheap to share behind an `Arc`; immutable once built or loaded.
#[derive(Clone, PartialEq, Eq)]
pub struct Index {
    pub(crate) meta: IndexMeta,
    /// All strings, sorted, concatenated.
    pub(crate) blob: String,
    /// `strings[i] = blob[offsets[i]..offsets[i + 1]]`.
    pub(crate) offsets: Vec<u32>,
    /// Sorted by (parent, name, module, kind).
    pub(crate) syms: Vec<Sym>,
    pub(crate) avail: Vec<Avail>,
    pub(crate) alts: Vec<u32>,
    /// Parameters, in symbol order.
    pub(crate) params: Vec<Par>,
    /// Symbol ids sorted by (base string, id).
    pub(crate) by_base: Vec<u32>,
    /// (base of an alternate title, symbol id), sorted.
    pub(crate) alt_base: Vec<(u32, u32)>,
    /// (type path, supertype path, 0 = conformsTo / 1 = inheritsFrom), sorted.
    pub(crate) supers: Vec<(u32, u32, u8)>,
    /// Module name string ids, sorted.
    pub(crate) modules: Vec<u32>,
}

impl fmt::Debug for Index {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Index")
            .field("meta", &self.meta)
            .field("strings", &self.offsets.len().saturating_sub(1))
            .field("symbols", &self.syms.len())
            .finish()
    }
}

/// The base name of a title: `navigationDestination(for:destination:)` → `navigationDestination`.
pub fn base_name(title: &str) -> &str {
    match title.find('(') {
        Some(0) | None => title,
        Some(i) => &title[..i],
    }
}

/// The argument labels of a title: `f(_:label:)` → `["_", "label"]`; `None` without parentheses.
pub fn title_labels(title: &str) -> Option<Vec<&str>> {
    let open = title.find('(')?;
    let inner = title[open + 1..].strip_suffix(')')?;
    if inner.is_empty() {
        return Some(Vec::new());
    }
    Some(
        inner
            .split(':')
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>(),
    )
}

/// Splits a dotted reference into components, keeping operators and labels intact:
/// `View.navigationDestination(for:destination:)` → `["View", "navigationDestination(for:destination:)"]`.
pub fn split_path(name: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let bytes = name.as_bytes();
    let mut start = 0;
    let mut depth = 0i32;
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'(' => depth += 1,
            b')' => depth -= 1,
            b'.' if depth == 0 && i > start => {
                let prev = bytes[i - 1];
                let next = bytes.get(i + 1).copied().unwrap_or(b'.');
                let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80;
                if (ident(prev) || prev == b')') && (ident(next) || next == b'`') {
                    out.push(&name[start..i]);
                    start = i + 1;
                }
            }
            _ => {}
        }
    }
    out.push(&name[start..]);
    out
}

impl Index {
    // ---- strings -------------------------------------------------------------------------

    pub(crate) fn nstrings(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }

    pub(crate) fn s(&self, id: u32) -> &str {
        let i = id as usize;
        match (self.offsets.get(i), self.offsets.get(i + 1)) {
            (Some(&a), Some(&b)) => self.blob.get(a as usize..b as usize).unwrap_or(""),
            _ => "",
        }
    }

    pub(crate) fn opt_s(&self, id: u32) -> Option<&str> {
        (id != NONE).then(|| self.s(id))
    }

    /// The id of `s` in the string table.
    pub(crate) fn str_id(&self, s: &str) -> Option<u32> {
        let (mut lo, mut hi) = (0usize, self.nstrings());
        while lo < hi {
            let mid = (lo + hi) / 2;
            match self.s(mid as u32).cmp(s) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return Some(mid as u32),
            }
        }
        None
    }

    // ---- raw access ----------------------------------------------------------------------

    pub(crate) fn sym(&self, id: SymId) -> Option<&Sym> {
        self.syms.get(id as usize)
    }

    pub(crate) fn avails(&self, s: &Sym) -> &[Avail] {
        let a = s.av_start as usize;
        self.avail.get(a..a + s.av_len as usize).unwrap_or_default()
    }

    pub(crate) fn pars(&self, s: &Sym) -> &[Par] {
        let a = s.par_start as usize;
        self.params
            .get(a..a + s.par_len as usize)
            .unwrap_or_default()
    }

    /// The recorded type of a symbol (see [`SymbolFacts::ty`]).
    pub fn sym_type(&self, id: SymId) -> Option<&str> {
        self.sym(id).and_then(|s| self.opt_s(s.ty))
    }

    /// The recorded parameters of a symbol: (label, type or "", has a default); `None`
    /// when the source did not record them.
    pub fn sym_params(&self, id: SymId) -> Option<Vec<(&str, &str, bool)>> {
        let s = self.sym(id)?;
        if s.flags & F_PARAMS == 0 {
            return None;
        }
        Some(
            self.pars(s)
                .iter()
                .map(|p| {
                    (
                        self.s(p.label),
                        self.opt_s(p.ty).unwrap_or(""),
                        p.flags & 1 != 0,
                    )
                })
                .collect(),
        )
    }

    /// The recorded generic signature of a symbol.
    pub fn sym_generics(&self, id: SymId) -> Option<&str> {
        self.sym(id).and_then(|s| self.opt_s(s.generics))
    }

    pub(crate) fn alt_ids(&self, s: &Sym) -> &[u32] {
        let a = s.alt_start as usize;
        self.alts.get(a..a + s.alt_len as usize).unwrap_or_default()
    }

    /// Symbol ids whose parent path is `parent` (a string id).
    pub(crate) fn children(&self, parent: u32) -> std::ops::Range<u32> {
        let lo = self.syms.partition_point(|s| s.parent < parent);
        let hi = self.syms.partition_point(|s| s.parent <= parent);
        lo as u32..hi as u32
    }

    /// Symbol ids that are children of `parent` named `name` (string ids).
    pub(crate) fn children_named(&self, parent: u32, name: u32) -> std::ops::Range<u32> {
        let lo = self
            .syms
            .partition_point(|s| (s.parent, s.name) < (parent, name));
        let hi = self
            .syms
            .partition_point(|s| (s.parent, s.name) <= (parent, name));
        lo as u32..hi as u32
    }

    /// Symbol ids whose base name is `base` (a string id).
    pub(crate) fn with_base(&self, base: u32) -> &[u32] {
        let syms = &self.syms;
        let key = |id: &u32| syms.get(*id as usize).map_or(u32::MAX, |s| s.base);
        let lo = self.by_base.partition_point(|id| key(id) < base);
        let hi = self.by_base.partition_point(|id| key(id) <= base);
        &self.by_base[lo..hi]
    }

    /// Symbol ids with an alternate title whose base is `base`.
    pub(crate) fn with_alt_base(&self, base: u32) -> impl Iterator<Item = u32> + '_ {
        let lo = self.alt_base.partition_point(|&(b, _)| b < base);
        self.alt_base[lo..]
            .iter()
            .take_while(move |&&(b, _)| b == base)
            .map(|&(_, id)| id)
    }

    /// Type-declaring symbols for a dotted type path (`URLSession`, `Font.Design`).
    pub(crate) fn type_syms(&self, path: &str) -> Vec<SymId> {
        let (parent, name) = match path.rfind('.') {
            Some(i) => (&path[..i], &path[i + 1..]),
            None => ("", path),
        };
        let (Some(p), Some(n)) = (self.str_id(parent), self.str_id(name)) else {
            return Vec::new();
        };
        self.children_named(p, n)
            .filter(|&id| self.syms[id as usize].kind.is_type())
            .collect()
    }

    /// Direct supertypes (conformances and superclasses) of a type path id.
    pub(crate) fn direct_supers(&self, path: u32) -> impl Iterator<Item = (u32, u8)> + '_ {
        let lo = self.supers.partition_point(|&(t, _, _)| t < path);
        self.supers[lo..]
            .iter()
            .take_while(move |&&(t, _, _)| t == path)
            .map(|&(_, s, k)| (s, k))
    }

    /// The type itself followed by every supertype reachable through `conformsTo` /
    /// `inheritsFrom`, breadth first (string ids of type paths).
    pub(crate) fn type_closure(&self, path: u32) -> Vec<u32> {
        let mut out = vec![path];
        let mut i = 0;
        while i < out.len() && out.len() < 512 {
            let t = out[i];
            for (s, _) in self.direct_supers(t) {
                if !out.contains(&s) {
                    out.push(s);
                }
            }
            i += 1;
        }
        out
    }

    pub(crate) fn facts(&self, id: SymId) -> Option<SymbolFacts> {
        let s = self.sym(id)?;
        let parent = self.s(s.parent);
        let name = self.s(s.name);
        let mut path: Vec<String> = if parent.is_empty() {
            Vec::new()
        } else {
            parent.split('.').map(str::to_owned).collect()
        };
        path.push(name.to_owned());
        let title = if s.kind.is_type() {
            path.join(".")
        } else {
            name.to_owned()
        };
        let availability = self
            .avails(s)
            .iter()
            .map(|a| Availability {
                domain: Some(a.domain),
                introduced: a.introduced,
                deprecated: a.deprecated,
                obsoleted: a.obsoleted,
                unavailable: a.flags & A_UNAVAILABLE != 0,
                unconditionally_deprecated: a.flags & A_UNCOND_DEPRECATED != 0,
                message: self.opt_s(a.message).map(str::to_owned),
                renamed: self.opt_s(a.renamed).map(str::to_owned),
            })
            .collect();
        Some(SymbolFacts {
            module: self.s(s.module).to_owned(),
            kind: s.kind,
            path,
            title,
            availability,
            approximate_name: s.flags & F_APPROX != 0,
            alternate_titles: self
                .alt_ids(s)
                .iter()
                .map(|&a| self.s(a).to_owned())
                .collect(),
            synthesized: s.flags & F_SYNTH != 0,
            objc: s.flags & F_OBJC != 0,
            is_async: s.flags & F_ASYNC != 0,
            failable: s.flags & F_FAILABLE != 0,
            optional_requirement: s.flags & F_OPTIONAL_REQ != 0,
            defaulted_args: (0..64u8).filter(|i| s.defaulted >> i & 1 == 1).collect(),
            ty: self.opt_s(s.ty).map(str::to_owned),
            params: (s.flags & F_PARAMS != 0).then(|| {
                self.pars(s)
                    .iter()
                    .map(|p| Param {
                        label: self.s(p.label).to_owned(),
                        ty: self.opt_s(p.ty).unwrap_or("").to_owned(),
                        default: p.flags & 1 != 0,
                    })
                    .collect()
            }),
            generics: self.opt_s(s.generics).map(str::to_owned),
            throws: s.flags & F_THROWS != 0,
        })
    }

    // ---- public queries ------------------------------------------------------------------

    pub fn meta(&self) -> &IndexMeta {
        &self.meta
    }

    /// Every symbol's facts, in index order (for building search indexes over the SDK).
    pub fn iter(&self) -> impl Iterator<Item = SymbolFacts> + '_ {
        (0..self.syms.len()).filter_map(move |i| self.facts(i as SymId))
    }

    pub fn symbol_count(&self) -> usize {
        self.syms.len()
    }

    /// The module names the graphs came from, sorted.
    pub fn modules(&self) -> Vec<&str> {
        self.modules.iter().map(|&m| self.s(m)).collect()
    }

    pub fn has_module(&self, name: &str) -> bool {
        self.str_id(name)
            .is_some_and(|id| self.modules.binary_search(&id).is_ok())
    }

    /// Whether `path` (`URLSession`, `Font.Design`) names a type in the index.
    pub fn is_type(&self, path: &str) -> bool {
        !self.type_syms(path).is_empty()
    }

    /// The type path followed by all its supertypes (conformances, superclasses, and their
    /// supertypes), as the graphs record them.
    pub fn supertypes(&self, type_path: &str) -> Vec<String> {
        match self.str_id(type_path) {
            Some(id) => self
                .type_closure(id)
                .into_iter()
                .skip(1)
                .map(|t| self.s(t).to_owned())
                .collect(),
            None => Vec::new(),
        }
    }

    /// Every member of a type: its own, then those of its supertypes (protocol extension
    /// members included), each once. `SymbolFacts::path` tells where a member is declared.
    pub fn members(&self, type_path: &str) -> Vec<SymbolFacts> {
        let Some(id) = self.str_id(type_path) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for t in self.type_closure(id) {
            for m in self.children(t) {
                if let Some(f) = self.facts(m) {
                    out.push(f);
                }
            }
        }
        out
    }

    /// Member symbols of `type_path` (and its supertypes) matching `member`: an exact title
    /// (`data(from:)`), an alternate title, or — when `member` has no parentheses — a base name.
    pub(crate) fn member_ids(&self, type_path: &str, member: &str) -> Vec<SymId> {
        let Some(t) = self.str_id(type_path) else {
            return Vec::new();
        };
        let closure = self.type_closure(t);
        self.member_ids_in(&closure, member)
    }

    pub(crate) fn member_ids_in(&self, closure: &[u32], member: &str) -> Vec<SymId> {
        let want_base = !member.contains('(');
        let base = base_name(member);
        let mut out = Vec::new();
        let base_id = self.str_id(base);
        let exact_id = self.str_id(member);
        for &t in closure {
            if want_base {
                if let Some(b) = base_id {
                    for id in self.children(t) {
                        if self.syms[id as usize].base == b {
                            out.push(id);
                        }
                    }
                }
            } else if let Some(n) = exact_id {
                out.extend(self.children_named(t, n));
            }
        }
        // Alternate titles (imported Objective-C spellings).
        if let Some(b) = base_id {
            for id in self.with_alt_base(b) {
                let s = &self.syms[id as usize];
                if !closure.contains(&s.parent) || out.contains(&id) {
                    continue;
                }
                if want_base || self.alt_ids(s).iter().any(|&a| self.s(a) == member) {
                    out.push(id);
                }
            }
        }
        out
    }

    /// Looks a name up: a type or top-level name (`URLSession`, `print`), a member
    /// (`URLSession.shared`, `View.navigationDestination(for:destination:)`, members inherited
    /// from supertypes included), a bare member title or base name anywhere
    /// (`navigationDestination(for:destination:)`), optionally module-qualified
    /// (`SwiftUI.View.padding`).
    pub fn lookup(&self, name: &str) -> Vec<SymbolFacts> {
        self.lookup_ids(name)
            .into_iter()
            .filter_map(|id| self.facts(id))
            .collect()
    }

    pub(crate) fn lookup_ids(&self, name: &str) -> Vec<SymId> {
        let name = name.trim();
        if name.is_empty() {
            return Vec::new();
        }
        let mut parts = split_path(name);
        let mut module = None;
        if parts.len() > 1 && self.has_module(parts[0]) && !self.is_type(parts[0]) {
            module = self.str_id(parts[0]);
            parts.remove(0);
        }
        let last = parts[parts.len() - 1];
        let mut ids: Vec<SymId> = if parts.len() == 1 {
            // A top-level name, a type, or a member title / base name anywhere.
            let exact = last.contains('(');
            let name_id = self.str_id(last);
            let mut v: BTreeSet<SymId> = BTreeSet::new();
            if let Some(b) = self.str_id(base_name(last)) {
                for &id in self.with_base(b) {
                    if !exact || Some(self.syms[id as usize].name) == name_id {
                        v.insert(id);
                    }
                }
                for id in self.with_alt_base(b) {
                    let s = &self.syms[id as usize];
                    if !exact || self.alt_ids(s).iter().any(|&a| self.s(a) == last) {
                        v.insert(id);
                    }
                }
            }
            v.into_iter().collect()
        } else {
            let parent = parts[..parts.len() - 1].join(".");
            let mut v = self.member_ids(&parent, last);
            // A nested type written in full (`Font.Design`).
            for id in self.type_syms(&format!("{parent}.{last}")) {
                if !v.contains(&id) {
                    v.push(id);
                }
            }
            v
        };
        if let Some(m) = module {
            let filtered: Vec<SymId> = ids
                .iter()
                .copied()
                .filter(|&id| self.syms[id as usize].module == m)
                .collect();
            if !filtered.is_empty() {
                ids = filtered;
            }
        }
        ids
    }

    /// Reads an index file written by [`Index::save`].
    pub fn load(path: &Path) -> Result<Index> {
        let bytes = std::fs::read(path).map_err(|e| IndexError::Io {
            path: path.display().to_string(),
            source: e,
        })?;
        Index::load_bytes(&bytes)
    }

    /// Decodes an index from the bytes of an index file.
    pub fn load_bytes(bytes: &[u8]) -> Result<Index> {
        format::decode(bytes)
    }

    /// Encodes the index (zstd-compressed).
    pub fn to_bytes(&self) -> Vec<u8> {
        format::encode(self)
    }

    pub fn save(&self, path: &Path) -> Result<()> {
        std::fs::write(path, self.to_bytes()).map_err(|e| IndexError::Io {
            path: path.display().to_string(),
            source: e,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(
            base_name("navigationDestination(for:destination:)"),
            "navigationDestination"
        );
        assert_eq!(base_name("==(_:_:)"), "==");
        assert_eq!(base_name("(x)"), "(x)");
        assert_eq!(title_labels("f(_:label:)"), Some(vec!["_", "label"]));
        assert_eq!(title_labels("f()"), Some(vec![]));
        assert_eq!(title_labels("f"), None);
        assert_eq!(
            split_path("View.navigationDestination(for:destination:)"),
            vec!["View", "navigationDestination(for:destination:)"]
        );
        assert_eq!(split_path("Font.Design"), vec!["Font", "Design"]);
        assert_eq!(split_path("..<(_:_:)"), vec!["..<(_:_:)"]);
        assert_eq!(split_path("Range...(_:)"), vec!["Range...(_:)"]);
        assert_eq!(split_path("a(b.c:)"), vec!["a(b.c:)"]);
    }
}
