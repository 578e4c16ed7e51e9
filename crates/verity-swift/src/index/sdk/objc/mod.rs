//! The Objective-C side of an SDK: every framework's `Headers/*.h` and `.apinotes`, read as
//! Swift imports them, into typed [`Decl`]s (`objc = true`, methods carrying their selector).
//!
//! * `lex`: comments, a small preprocessor (iOS device build) and tokens;
//! * `parse`: declarations and C types;
//! * `avail`: availability macros;
//! * `apinotes`: Swift names from the notes;
//! * `names`: the importer's naming rules (omit-needless-words and friends);
//! * this file: Swift names, Swift types (bridging, nullability, blocks, default arguments)
//!   and the declarations.

mod apinotes;
mod avail;
mod lex;
mod names;

/// The importer's lowercasing of a leading word or initialism (`URL` → `url`, `HTTPBody` →
/// `httpBody`).
pub(crate) use names::lower_first as lowercase_initialisms;
mod parse;
#[cfg(test)]
mod tests;

use std::collections::{HashMap, HashSet};
use std::path::Path;

use apinotes::ApiNotes;
use avail::AvailSet;
use names::*;
use parse::{Attrs, CParam, CType, EnumKind, Item, Member, Null};

use crate::index::{
    Availability, Decl, DeclSet, IndexError, Param, Relation, Result, SymbolKind, TypeRef,
};
use crate::version::Domain;

/// Reads every `System/Library/Frameworks/*.framework` under an SDK root that has headers.
pub fn read_objc_sdk(dir: &Path) -> Result<DeclSet> {
    let fw_dir = dir.join("System/Library/Frameworks");
    let io = |path: &Path, source: std::io::Error| IndexError::Io {
        path: path.display().to_string(),
        source,
    };
    let mut entries: Vec<_> = std::fs::read_dir(&fw_dir)
        .map_err(|e| io(&fw_dir, e))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "framework"))
        .collect();
    entries.sort();
    let mut frameworks = Vec::new();
    let mut importable = std::collections::BTreeSet::new();
    for fw in entries {
        let name = fw
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let hdir = fw.join("Headers");
        let Ok(rd) = std::fs::read_dir(&hdir) else {
            continue;
        };
        let mut files: Vec<_> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
        files.sort();
        let mut headers = Vec::new();
        let mut notes = None;
        for f in files {
            let ext = f.extension().and_then(|x| x.to_str()).unwrap_or("");
            if ext == "h" {
                let bytes = std::fs::read(&f).map_err(|e| io(&f, e))?;
                let file = f
                    .file_name()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default();
                headers.push((file, String::from_utf8_lossy(&bytes).into_owned()));
            } else if ext == "apinotes" && f.file_stem().is_some_and(|s| s == name.as_str()) {
                let text = std::fs::read_to_string(&f).map_err(|e| io(&f, e))?;
                let parsed = ApiNotes::parse(&text).map_err(|m| IndexError::Graph {
                    path: f.display().to_string(),
                    message: format!("not API notes: {m}"),
                })?;
                notes = Some(parsed);
            }
        }
        if !headers.is_empty() {
            if fw.join("Modules/module.modulemap").is_file() {
                importable.insert(name.clone());
            }
            frameworks.push((name, headers, notes.unwrap_or_default()));
        }
    }
    if frameworks.is_empty() {
        return Err(IndexError::NoGraphs(format!(
            "{} (no framework headers)",
            fw_dir.display()
        )));
    }
    // the include roots: every public framework, and `usr/include`'s entries
    let mut roots: HashSet<String> = std::fs::read_dir(&fw_dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .filter_map(|e| {
                    let p = e.path();
                    (p.extension().is_some_and(|x| x == "framework"))
                        .then(|| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
                        .flatten()
                })
                .collect()
        })
        .unwrap_or_default();
    if let Ok(rd) = std::fs::read_dir(dir.join("usr/include")) {
        roots.extend(
            rd.filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned())),
        );
    }
    let mut out = read_all(frameworks, Some(roots));
    out.importable = importable;
    Ok(out)
}

/// Reads one framework's headers (file name, text) with its API notes (unparsable notes are
/// ignored). Types of other frameworks are not known, so they keep their ObjC names.
pub fn read_framework(name: &str, headers: &[(String, String)], apinotes: Option<&str>) -> DeclSet {
    let notes = apinotes
        .and_then(|t| ApiNotes::parse(t).ok())
        .unwrap_or_default();
    read_all(vec![(name.to_owned(), headers.to_vec(), notes)], None)
}

struct Framework {
    name: String,
    items: Vec<Item>,
}

/// One framework's name, headers (file name, text) and API notes.
type FrameworkInput = (String, Vec<(String, String)>, ApiNotes);

/// The frameworks a framework's headers import or include (`#import <UIKit/UIView.h>`),
/// itself left out.
fn header_imports(name: &str, headers: &[(String, String)]) -> std::collections::BTreeSet<String> {
    let mut out = std::collections::BTreeSet::new();
    for (_, text) in headers {
        for line in text.lines() {
            let Some(rest) = line.trim_start().strip_prefix('#') else {
                continue;
            };
            let rest = rest.trim_start();
            let Some(rest) = rest
                .strip_prefix("import")
                .or_else(|| rest.strip_prefix("include"))
            else {
                continue;
            };
            let Some(target) = rest.trim_start().strip_prefix('<') else {
                continue;
            };
            if let Some((fw, _)) = target.split_once('/')
                && !fw.is_empty()
                && fw != name
                && fw.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            {
                out.insert(fw.to_owned());
            }
        }
    }
    out
}

/// Reads the frameworks; `include_roots`: see [`lex::Macros::include_roots`].
fn read_all(input: Vec<FrameworkInput>, include_roots: Option<HashSet<String>>) -> DeclSet {
    let imports: Vec<(String, std::collections::BTreeSet<String>)> = input
        .iter()
        .map(|(name, headers, _)| (name.clone(), header_imports(name, headers)))
        .collect();
    // Pass 1: every framework's macros (attribute macros are often used across headers).
    let mut macros = lex::Macros::default();
    macros.include_roots = include_roots;
    let mut defined: Vec<Vec<Vec<String>>> = Vec::new();
    for (_, headers, _) in &input {
        let mut per_header = Vec::new();
        for (_, text) in headers {
            lex::preprocess(text, &mut macros);
            per_header.push(std::mem::take(&mut macros.last_defined));
        }
        defined.push(per_header);
    }
    let mut notes = ApiNotes::default();
    let mut frameworks = Vec::new();
    for ((name, headers, n), defined) in input.into_iter().zip(defined) {
        notes.merge(n);
        let mut items = Vec::new();
        for ((_, text), names) in headers.iter().zip(&defined) {
            // The header's own macros (its include guard above all) start undefined again.
            macros.forget(names);
            let toks = lex::preprocess(text, &mut macros);
            items.extend(parse::Parser::new(&toks).run());
        }
        frameworks.push(Framework { name, items });
    }
    let ctx = Ctx::new(&frameworks, notes);
    let mut out = DeclSet {
        header_imports: imports.into_iter().collect(),
        ..DeclSet::default()
    };
    out.sources
        .insert("Objective-C headers and API notes (verity objc reader)".to_owned());
    for fw in &frameworks {
        out.modules.insert(fw.name.clone());
        let mut e = Emitter {
            ctx: &ctx,
            module: &fw.name,
            out: &mut out,
            seen_types: HashSet::new(),
        };
        for item in &fw.items {
            e.item(item);
        }
    }
    out
}

/// What is known about ObjC type names across all frameworks read.
struct Ctx {
    notes: ApiNotes,
    /// ObjC name → Swift path (`UIViewContentMode` → `UIView.ContentMode`).
    swift: HashMap<String, String>,
    classes: HashSet<String>,
    protocols: HashSet<String>,
    /// Typedef name → its C type.
    typedefs: HashMap<String, CType>,
    options: HashSet<String>,
    typed_enums: HashSet<String>,
    enums: HashSet<String>,
    structs: HashSet<String>,
    /// Each class's and protocol's declared property names (its categories' included).
    properties: HashMap<String, HashSet<String>>,
    /// Each class's superclass.
    superclass: HashMap<String, String>,
}

fn class_bridge(name: &str) -> Option<&'static str> {
    Some(match name {
        "NSString" => "String",
        "NSURL" => "URL",
        "NSData" => "Data",
        "NSDate" => "Date",
        "NSUUID" => "UUID",
        "NSLocale" => "Locale",
        "NSTimeZone" => "TimeZone",
        "NSCalendar" => "Calendar",
        "NSIndexPath" => "IndexPath",
        "NSIndexSet" => "IndexSet",
        "NSURLRequest" => "URLRequest",
        "NSURLComponents" => "URLComponents",
        "NSNotification" => "Notification",
        "NSCharacterSet" => "CharacterSet",
        "NSDateComponents" => "DateComponents",
        "NSPersonNameComponents" => "PersonNameComponents",
        "NSDateInterval" => "DateInterval",
        "NSURLQueryItem" => "URLQueryItem",
        "NSAffineTransform" => "AffineTransform",
        _ => return None,
    })
}

impl Ctx {
    fn new(frameworks: &[Framework], notes: ApiNotes) -> Ctx {
        let mut c = Ctx {
            notes,
            swift: HashMap::new(),
            classes: HashSet::new(),
            protocols: HashSet::new(),
            typedefs: HashMap::new(),
            options: HashSet::new(),
            typed_enums: HashSet::new(),
            enums: HashSet::new(),
            structs: HashSet::new(),
            properties: HashMap::new(),
            superclass: HashMap::new(),
        };
        for fw in frameworks {
            for it in &fw.items {
                if let Item::Class { name, members, .. } | Item::Protocol { name, members, .. } = it
                {
                    let props = c.properties.entry(name.clone()).or_default();
                    for m in members {
                        if let Member::Property { name, .. } = m {
                            props.insert(name.clone());
                        }
                    }
                }
                if let Item::Class {
                    name,
                    superclass: Some(sup),
                    category: None,
                    ..
                } = it
                {
                    c.superclass.insert(name.clone(), sup.clone());
                }
                match it {
                    Item::Class {
                        name,
                        category: None,
                        ..
                    } => {
                        c.classes.insert(name.clone());
                    }
                    Item::Protocol { name, .. } => {
                        c.protocols.insert(name.clone());
                    }
                    Item::Typedef {
                        name, ty, attrs, ..
                    } => {
                        c.typedefs.insert(name.clone(), ty.clone());
                        if attrs.typed_enum {
                            c.typed_enums.insert(name.clone());
                        }
                    }
                    Item::Struct { name, .. } => {
                        c.structs.insert(name.clone());
                    }
                    Item::Enum { kind, name, .. } => {
                        c.enums.insert(name.clone());
                        if *kind == EnumKind::Options {
                            c.options.insert(name.clone());
                        }
                    }
                    _ => {}
                }
            }
        }
        // Swift names of types (written names first; dotted contexts remapped after).
        let mut raw: HashMap<String, String> = HashMap::new();
        for fw in frameworks {
            for it in &fw.items {
                let (name, attrs, is_proto) = match it {
                    Item::Class {
                        name,
                        attrs,
                        category: None,
                        ..
                    } => (name, attrs, false),
                    Item::Protocol { name, attrs, .. } => (name, attrs, true),
                    Item::Typedef {
                        name, attrs, ty, ..
                    } => {
                        if let Some(s) = cf_class_name(name, ty) {
                            raw.entry(name.clone()).or_insert(s);
                            continue;
                        }
                        (name, attrs, false)
                    }
                    Item::Enum {
                        name, attrs, kind, ..
                    } => {
                        if *kind == EnumKind::Error {
                            let s = c
                                .explicit_name(name, attrs, false)
                                .unwrap_or_else(|| error_struct_name(name));
                            raw.insert(name.clone(), format!("{s}.Code"));
                            continue;
                        }
                        (name, attrs, false)
                    }
                    Item::Struct { name, attrs } => (name, attrs, false),
                    _ => continue,
                };
                let s = c.explicit_name(name, attrs, is_proto).unwrap_or_else(|| {
                    if let Some(r) = foundation_rename(name) {
                        r.to_owned()
                    } else if is_proto && c.classes.contains(name) {
                        format!("{name}Protocol")
                    } else {
                        name.clone()
                    }
                });
                raw.entry(name.clone()).or_insert(s);
            }
        }
        // `UIWindowSceneGeometryPreferences.iOS` → `UIWindowScene.GeometryPreferences.iOS`.
        let mut swift = HashMap::new();
        for (k, v) in &raw {
            let mut v = v.clone();
            for _ in 0..4 {
                let Some((head, tail)) = v.split_once('.') else {
                    break;
                };
                match raw.get(head) {
                    Some(h) if h != head && !h.is_empty() => v = format!("{h}.{tail}"),
                    _ => break,
                }
            }
            swift.insert(k.clone(), v);
        }
        c.swift = swift;
        c
    }

    /// Whether `text` (`Input`), lowercased, or its plural names a property of `class` or of
    /// a superclass: the importer's `textMatchesPropertyName`, which keeps a type name in a
    /// method's base name (`canAddInput:` of AVCaptureSession, which has `inputs`, stays
    /// `canAddInput(_:)`; `addGestureRecognizer:` of UIView, with `gestureRecognizers`, too).
    fn matches_property(&self, class: &str, text: &str) -> bool {
        if text.is_empty() {
            return false;
        }
        let name = lower_first(text);
        let mut forms = vec![name.clone()];
        match name.strip_suffix('y') {
            Some(stem) => forms.push(format!("{stem}ies")),
            None => {
                forms.push(format!("{name}s"));
                forms.push(format!("{name}es"));
            }
        }
        let mut cur = Some(class);
        for _ in 0..32 {
            let Some(c) = cur else {
                break;
            };
            if self
                .properties
                .get(c)
                .is_some_and(|p| forms.iter().any(|f| p.contains(f)))
            {
                return true;
            }
            cur = self.superclass.get(c).map(String::as_str);
        }
        false
    }

    fn explicit_name(&self, name: &str, attrs: &Attrs, is_proto: bool) -> Option<String> {
        let note = if is_proto {
            self.notes.protocols.get(name).map(|c| &c.note)
        } else {
            self.notes
                .classes
                .get(name)
                .map(|c| &c.note)
                .or_else(|| self.notes.others.get(name))
        };
        note.and_then(|n| n.swift_name.clone())
            .filter(|s| !s.is_empty())
            .or_else(|| attrs.swift_name.clone())
    }

    /// The Swift path of an ObjC type name.
    fn swift_name(&self, name: &str) -> String {
        self.swift
            .get(name)
            .cloned()
            .or_else(|| foundation_rename(name).map(str::to_owned))
            .unwrap_or_else(|| name.to_owned())
    }

    fn is_object(&self, name: &str) -> bool {
        self.classes.contains(name)
            || class_bridge(name).is_some()
            || matches!(
                name,
                "NSArray"
                    | "NSDictionary"
                    | "NSSet"
                    | "NSError"
                    | "NSObject"
                    | "NSNumber"
                    | "NSMutableArray"
                    | "NSMutableDictionary"
                    | "NSMutableString"
                    | "NSMutableSet"
                    | "NSValue"
                    | "NSAttributedString"
            )
            || (!self.typedefs.contains_key(name)
                && !self.enums.contains(name)
                && name.starts_with(|c: char| c.is_ascii_uppercase())
                && !is_c_struct_name(name))
    }

    /// The type name omit-needless-words matches a parameter's name against: classes (bridged
    /// names), protocols, enums, option sets, structs and CF types, `Int` for `NSInteger`;
    /// `None` for scalars, typedefs of scalars, typed enums, block typedefs and `NSError`.
    fn omission_name(&self, t: &CType) -> Option<String> {
        let last = |s: String| s.rsplit('.').next().map(str::to_owned);
        match t {
            CType::Pointer { inner, .. } => match &**inner {
                CType::Named {
                    name, protocols, ..
                } if self.is_object(name) && scalar(name).is_none() => match name.as_str() {
                    "NSError" => None,
                    // `NSArray<NSIndexPath *>` reads as `IndexPaths`.
                    "NSArray" | "NSMutableArray" => match t.base_args().first() {
                        Some(a) => self
                            .omission_name(a)
                            .map(|n| format!("{n}s"))
                            .or(Some("Array".into())),
                        None => Some("Array".into()),
                    },
                    "NSDictionary" | "NSMutableDictionary" => Some("Dictionary".into()),
                    "NSSet" | "NSMutableSet" => Some("Set".into()),
                    "NSObject" if !protocols.is_empty() => last(self.swift_name(&protocols[0])),
                    n => class_bridge(n)
                        .map(str::to_owned)
                        .or_else(|| last(self.swift_name(n))),
                },
                _ => None,
            },
            CType::Named {
                name, protocols, ..
            } => match name.as_str() {
                "SEL" => Some("Selector".into()),
                "Class" => Some("Class".into()),
                "ObjectType" | "KeyType" | "ValueType" => Some("Object".into()),
                "id" => match protocols.first() {
                    Some(p) => last(self.swift_name(p)),
                    None => Some("Object".into()),
                },
                "NSInteger" | "NSUInteger" => Some("Int".into()),
                n if self.enums.contains(n) => last(self.swift_name(n)),
                // `NSRange` is an alias of `_NSRange`: the importer does not match it.
                "NSRange" => None,
                n if self.structs.contains(n) || is_c_struct_name(n) => last(self.swift_name(n)),
                n if cf_class_name(n, self.typedefs.get(n).unwrap_or(&CType::named("")))
                    .is_some() =>
                {
                    last(self.swift_name(n))
                }
                _ => None,
            },
            CType::Block {
                func_ptr: false, ..
            } => Some("Block".into()),
            _ => None,
        }
    }

    /// Whether a typedef name stands for a pointer-like value (object, block, CF reference).
    fn typedef_is_pointer(&self, name: &str, depth: u32) -> bool {
        match self.typedefs.get(name) {
            Some(
                CType::Pointer { .. }
                | CType::Block {
                    func_ptr: false, ..
                },
            ) => true,
            Some(CType::Named { name: n, .. }) if depth < 4 => {
                n == "id" || n == "instancetype" || self.typedef_is_pointer(n, depth + 1)
            }
            _ => false,
        }
    }
}

fn is_c_struct_name(name: &str) -> bool {
    matches!(
        name,
        "CGRect"
            | "CGSize"
            | "CGPoint"
            | "CGVector"
            | "CGAffineTransform"
            | "NSRange"
            | "UIEdgeInsets"
            | "NSDirectionalEdgeInsets"
            | "UIOffset"
            | "CATransform3D"
            | "CMTime"
            | "CMTimeRange"
            | "NSZone"
            | "CLLocationCoordinate2D"
    )
}

/// `typedef struct CGColor *CGColorRef` → `CGColor`.
fn cf_class_name(name: &str, ty: &CType) -> Option<String> {
    let stem = name.strip_suffix("Ref")?;
    match ty {
        CType::Pointer { inner, .. } => {
            let base = inner.base()?.trim_start_matches("__");
            (base == stem || base.trim_start_matches('_') == stem).then(|| stem.to_owned())
        }
        _ => None,
    }
}

/// `ARErrorCode` → `ARError`, `AVError` → `AVError`.
fn error_struct_name(name: &str) -> String {
    name.strip_suffix("Code").unwrap_or(name).to_owned()
}

fn named(s: &str) -> TypeRef {
    // Dotted Swift paths become one named type of several components.
    TypeRef::parse(s).unwrap_or_else(|| TypeRef::named(s))
}

fn optional(t: TypeRef) -> TypeRef {
    match t {
        TypeRef::Optional(_) => t,
        t => TypeRef::Optional(Box::new(t)),
    }
}

fn scalar(name: &str) -> Option<&'static str> {
    Some(match name {
        "BOOL" | "bool" | "_Bool" | "Boolean" => "Bool",
        "NSInteger" | "long" | "ssize_t" | "intptr_t" | "ptrdiff_t" | "CFIndex" => "Int",
        "NSUInteger" | "size_t" => "Int",
        "unsigned long" | "uintptr_t" => "UInt",
        "int" | "int32_t" | "SInt32" => "Int32",
        "unsigned int" | "uint32_t" | "UInt32" | "unsigned" => "UInt32",
        "long long" | "int64_t" | "SInt64" => "Int64",
        "unsigned long long" | "uint64_t" | "UInt64" => "UInt64",
        "short" | "int16_t" | "SInt16" => "Int16",
        "unsigned short" | "uint16_t" | "UInt16" | "unichar" => "UInt16",
        "char" | "int8_t" | "SInt8" => "CChar",
        "unsigned char" | "uint8_t" | "UInt8" => "UInt8",
        "float" | "Float32" => "Float",
        "double" | "Float64" => "Double",
        "CGFloat" => "CGFloat",
        "NSTimeInterval" => "TimeInterval",
        "void" => "Void",
        "SEL" => "Selector",
        "Class" => "AnyClass",
        "id" => "Any",
        "instancetype" => "Self",
        "NSZone" => "NSZone",
        _ => return None,
    })
}

/// Maps C types to normalized Swift spellings.
struct TypeMapper<'a> {
    ctx: &'a Ctx,
    audited: bool,
}

impl TypeMapper<'_> {
    fn wrap(&self, t: TypeRef, null: Null) -> TypeRef {
        match null {
            Null::Nullable => optional(t),
            Null::Nonnull => t,
            Null::Unspecified if self.audited => t,
            Null::Unspecified => optional(t),
        }
    }

    /// A top-level type (parameter, result, property).
    fn map(&self, t: &CType) -> TypeRef {
        match t {
            CType::Pointer { inner, null } => {
                let (base, _) = self.pointer(inner);
                self.wrap(base, *null)
            }
            CType::Named {
                name,
                protocols,
                null,
                ..
            } => {
                let pointerish = matches!(name.as_str(), "id" | "instancetype" | "Class" | "SEL")
                    || self.ctx.typedef_is_pointer(name, 0)
                    || cf_class_name(
                        name,
                        self.ctx.typedefs.get(name).unwrap_or(&CType::named("")),
                    )
                    .is_some();
                let base = self.value(name, protocols);
                if pointerish && name != "SEL" {
                    self.wrap(base, *null)
                } else {
                    base
                }
            }
            CType::Block {
                ret, params, null, ..
            } => self.wrap(self.function(ret, params), *null),
            CType::Array(inner) => TypeRef::Named(vec![crate::index::NameComp {
                name: "UnsafeMutablePointer".into(),
                args: vec![self.element(inner)],
            }]),
        }
    }

    fn function(&self, ret: &CType, params: &[CParam]) -> TypeRef {
        TypeRef::Function {
            params: params.iter().map(|p| self.map(&p.ty)).collect(),
            ret: Box::new(self.map(ret)),
            is_async: false,
            throws: false,
        }
    }

    /// A named non-pointer type: scalars, `id`, enums, typedefs, structs.
    fn value(&self, name: &str, protocols: &[String]) -> TypeRef {
        if name == "id" && !protocols.is_empty() {
            return self.existential(None, protocols);
        }
        if let Some(s) = scalar(name) {
            return named(s);
        }
        // A typedef of a bridged object pointer that is not a typed enum keeps its name unless
        // it is a plain alias of a class (`typedef NSString *Foo` without NS_TYPED_ENUM).
        if let Some(CType::Pointer { inner, .. }) = self.ctx.typedefs.get(name)
            && !self.ctx.typed_enums.contains(name)
            && !self.ctx.swift.contains_key(name)
            && let Some(b) = inner.base()
            && (class_bridge(b).is_some() || b == "NSArray" || b == "NSDictionary")
        {
            return named(name);
        }
        named(&self.ctx.swift_name(name))
    }

    fn existential(&self, class: Option<TypeRef>, protocols: &[String]) -> TypeRef {
        let mut parts: Vec<TypeRef> = class.into_iter().collect();
        for p in protocols {
            let s = if p == "NSObject" {
                "NSObjectProtocol".to_owned()
            } else {
                self.ctx.swift.get(p).cloned().unwrap_or_else(|| {
                    foundation_rename(p).map_or_else(|| p.clone(), str::to_owned)
                })
            };
            parts.push(named(&s));
        }
        if parts.len() == 1 {
            TypeRef::Existential(Box::new(parts.remove(0)))
        } else {
            TypeRef::Existential(Box::new(TypeRef::Composition(parts)))
        }
    }

    /// The Swift type of a pointer to `inner`; `true` when it is an object reference.
    fn pointer(&self, inner: &CType) -> (TypeRef, bool) {
        match inner {
            CType::Named {
                name,
                args,
                protocols,
                is_const,
                ..
            } => {
                if name == "char" {
                    let n = if *is_const {
                        "UnsafePointer"
                    } else {
                        "UnsafeMutablePointer"
                    };
                    return (generic(n, vec![named("CChar")]), false);
                }
                if name == "void" {
                    return (
                        named(if *is_const {
                            "UnsafeRawPointer"
                        } else {
                            "UnsafeMutableRawPointer"
                        }),
                        false,
                    );
                }
                if self.ctx.is_object(name) && scalar(name).is_none() {
                    return (self.object(name, args, protocols), true);
                }
                let n = if *is_const {
                    "UnsafePointer"
                } else {
                    "UnsafeMutablePointer"
                };
                let pointee = match scalar(name) {
                    Some("Bool") if name == "BOOL" => named("ObjCBool"),
                    _ => self.value(name, protocols),
                };
                (generic(n, vec![pointee]), false)
            }
            CType::Pointer { inner: inner2, .. } => {
                if inner2.base() == Some("NSError") {
                    return (named("NSErrorPointer"), false);
                }
                let (t, obj) = self.pointer(inner2);
                if obj {
                    (
                        generic("AutoreleasingUnsafeMutablePointer", vec![optional(t)]),
                        false,
                    )
                } else {
                    (generic("UnsafeMutablePointer", vec![optional(t)]), false)
                }
            }
            CType::Block { .. } => (self.map(inner), false),
            CType::Array(i) => (
                generic("UnsafeMutablePointer", vec![self.element(i)]),
                false,
            ),
        }
    }

    /// A collection element or generic argument: non-optional, bridged.
    fn element(&self, t: &CType) -> TypeRef {
        match self.map(t) {
            TypeRef::Optional(inner) => *inner,
            t => t,
        }
    }

    /// An object type: bridged value types, collections, classes, `Class<P> *`.
    fn object(&self, name: &str, args: &[CType], protocols: &[String]) -> TypeRef {
        let el = |k: usize, default: &str| {
            args.get(k)
                .map_or_else(|| named(default), |a| self.element(a))
        };
        let base = match name {
            "NSArray" => TypeRef::Array(Box::new(el(0, "Any"))),
            "NSDictionary" => {
                let key = match args.first() {
                    Some(CType::Named {
                        name, protocols, ..
                    }) if name == "id" && protocols.is_empty() => named("AnyHashable"),
                    _ => el(0, "AnyHashable"),
                };
                TypeRef::Dictionary(Box::new(key), Box::new(el(1, "Any")))
            }
            "NSSet" => generic(
                "Set",
                vec![match args.first() {
                    Some(CType::Named { name, .. }) if name == "id" => named("AnyHashable"),
                    Some(_) => el(0, "AnyHashable"),
                    None => named("AnyHashable"),
                }],
            ),
            "NSError" => TypeRef::Existential(Box::new(named("Error"))),
            n => match class_bridge(n) {
                Some(b) => named(b),
                None => {
                    let swift = self.ctx.swift_name(n);
                    let t = named(&swift);
                    if args.is_empty() {
                        t
                    } else {
                        // Lightweight generics keep class element types (`NSCache<NSString, UIImage>`).
                        let a = args
                            .iter()
                            .map(|a| match a.base() {
                                Some(b) if self.ctx.is_object(b) && scalar(b).is_none() => {
                                    named(&self.ctx.swift_name(b))
                                }
                                _ => self.element(a),
                            })
                            .collect();
                        generic(&swift, a)
                    }
                }
            },
        };
        if protocols.is_empty() || name == "id" {
            return base;
        }
        if name == "NSObject" {
            return self.existential(None, protocols);
        }
        self.existential(Some(base), protocols)
    }
}

fn generic(name: &str, args: Vec<TypeRef>) -> TypeRef {
    TypeRef::Named(vec![crate::index::NameComp {
        name: name.to_owned(),
        args,
    }])
}

/// A method's Swift name and shape.
struct MethodName {
    base: String,
    labels: Vec<String>,
    kind: SymbolKind,
    approximate: bool,
    /// The literal spelling with the first selector piece as the base name.
    alternate: Option<String>,
}

struct Emitter<'a> {
    ctx: &'a Ctx,
    module: &'a str,
    out: &'a mut DeclSet,
    seen_types: HashSet<String>,
}

fn split_path(s: &str) -> Vec<String> {
    s.split('.').map(str::to_owned).collect()
}

fn any_unavailable() -> Availability {
    Availability {
        domain: Some(Domain::Any),
        unavailable: true,
        ..Availability::default()
    }
}

impl Emitter<'_> {
    fn decl(&self, path: Vec<String>, kind: SymbolKind, avail: &AvailSet) -> Decl {
        Decl {
            module: self.module.to_owned(),
            path,
            kind,
            availability: avail.0.clone(),
            objc: true,
            ..Decl::default()
        }
    }

    fn push(&mut self, mut d: Decl, unavailable: bool) {
        if unavailable && !d.availability.iter().any(|a| a.domain == Some(Domain::Any)) {
            d.availability.push(any_unavailable());
        }
        self.out.decls.push(d);
    }

    fn item(&mut self, item: &Item) {
        match item {
            Item::Class {
                name,
                superclass,
                protocols,
                category,
                attrs,
                members,
            } => {
                let note = self.ctx.notes.classes.get(name);
                if attrs.refined || note.is_some_and(|n| n.note.private) {
                    return;
                }
                let swift = self.ctx.swift_name(name);
                if category.is_none() && self.seen_types.insert(swift.clone()) {
                    let mut d = self.decl(split_path(&swift), SymbolKind::Class, &attrs.avail);
                    d.approximate = false;
                    self.push(
                        d,
                        attrs.unavailable || note.is_some_and(|n| n.note.nonswift),
                    );
                    if let Some(s) = superclass {
                        self.out.relations.push(Relation {
                            source: swift.clone(),
                            target: self.ctx.swift_name(s),
                            inherits: true,
                        });
                    }
                }
                self.conformances_and_members(name, &swift, false, protocols, attrs, note, members);
            }
            Item::Protocol {
                name,
                protocols,
                attrs,
                members,
            } => {
                let note = self.ctx.notes.protocols.get(name);
                if attrs.refined || note.is_some_and(|n| n.note.private) {
                    return;
                }
                let swift = self.protocol_name(name);
                if !self.seen_types.insert(format!("protocol {swift}")) {
                    return;
                }
                let d = self.decl(split_path(&swift), SymbolKind::Protocol, &attrs.avail);
                self.push(
                    d,
                    attrs.unavailable || note.is_some_and(|n| n.note.nonswift),
                );
                self.conformances_and_members(name, &swift, true, protocols, attrs, note, members);
            }
            Item::Enum {
                kind,
                name,
                cases,
                attrs,
            } => self.enumeration(*kind, name, cases, attrs),
            Item::Typedef {
                name,
                ty,
                attrs,
                audited,
            } => self.typedef(name, ty, attrs, *audited),
            Item::Struct { name, attrs } => {
                if name.starts_with('_') || attrs.refined {
                    return;
                }
                let swift = self.ctx.swift_name(name);
                if self.seen_types.insert(swift.clone()) {
                    let d = self.decl(split_path(&swift), SymbolKind::Struct, &attrs.avail);
                    self.push(d, attrs.unavailable);
                }
            }
            Item::Function {
                name,
                ret,
                params,
                attrs,
                audited,
            } => self.function(name, ret, params, attrs, *audited),
            Item::Global {
                name,
                ty,
                attrs,
                audited,
            } => self.global(name, ty, attrs, *audited),
        }
    }

    fn protocol_name(&self, p: &str) -> String {
        if p == "NSObject" {
            return "NSObjectProtocol".to_owned();
        }
        self.ctx.swift_name(p)
    }

    /// A class's or protocol's adopted protocols (conformance edges) and its members.
    #[allow(clippy::too_many_arguments)]
    fn conformances_and_members(
        &mut self,
        objc: &str,
        swift: &str,
        in_protocol: bool,
        protocols: &[String],
        attrs: &Attrs,
        notes: Option<&apinotes::ContainerNotes>,
        members: &[Member],
    ) {
        for p in protocols {
            self.out.relations.push(Relation {
                source: swift.to_owned(),
                target: self.protocol_name(p),
                inherits: false,
            });
        }
        for m in members {
            self.member(objc, swift, in_protocol, attrs, notes, m);
        }
    }

    fn member(
        &mut self,
        class_objc: &str,
        parent: &str,
        in_protocol: bool,
        container: &Attrs,
        notes: Option<&apinotes::ContainerNotes>,
        m: &Member,
    ) {
        match m {
            Member::Property {
                name,
                ty,
                modifiers,
                attrs,
                optional,
                audited,
            } => {
                let note = notes.and_then(|n| n.properties.get(name));
                if attrs.refined || note.is_some_and(|n| n.private) {
                    return;
                }
                let is_class = modifiers.iter().any(|m| m == "class");
                let mapper = TypeMapper {
                    ctx: self.ctx,
                    audited: *audited,
                };
                let swift_ty = mapper.map(ty);
                let (title, approximate) = match note
                    .and_then(|n| n.swift_name.clone())
                    .or_else(|| attrs.swift_name.clone())
                {
                    Some(n) => (n, false),
                    None => self.property_name(class_objc, name, ty, modifiers, is_class),
                };
                let mut avail = attrs.avail.clone();
                avail.inherit(&container.avail);
                let mut path = split_path(parent);
                path.push(title);
                let kind = if is_class {
                    SymbolKind::TypeProperty
                } else {
                    SymbolKind::Property
                };
                let mut d = self.decl(path, kind, &avail);
                d.ty = Some(swift_ty.to_string());
                d.approximate = approximate;
                d.optional_requirement = in_protocol && *optional;
                d.c_name = Some(format!("{class_objc}(py){name}"));
                self.push(d, attrs.unavailable || note.is_some_and(|n| n.nonswift));
            }
            Member::Method {
                class_method,
                selector,
                ret,
                params,
                attrs,
                optional,
                audited,
            } => {
                let note = notes.and_then(|n| n.methods.get(&(selector.clone(), *class_method)));
                if attrs.refined || note.is_some_and(|n| n.private) {
                    return;
                }
                let mapper = TypeMapper {
                    ctx: self.ctx,
                    audited: *audited,
                };
                let throws = params.last().is_some_and(|p| p.ty.is_error_out());
                let kept: &[CParam] = if throws {
                    &params[..params.len() - 1]
                } else {
                    params
                };
                let explicit = note
                    .and_then(|n| n.swift_name.clone())
                    .or_else(|| attrs.swift_name.clone());
                let name = explicit
                    .and_then(|n| explicit_method_name(&n, kept.len(), *class_method))
                    .unwrap_or_else(|| {
                        self.method_name(class_objc, *class_method, selector, ret, kept, throws)
                    });
                let mut avail = attrs.avail.clone();
                avail.inherit(&container.avail);
                let pieces: Vec<&str> = selector.split(':').collect();
                let swift_params: Vec<Param> = kept
                    .iter()
                    .enumerate()
                    .map(|(k, p)| {
                        let label = name.labels.get(k).cloned().unwrap_or_else(|| "_".into());
                        let ty = mapper.map(&p.ty);
                        let default = self.has_default(
                            &p.ty,
                            &ty,
                            pieces.get(k).copied().unwrap_or(""),
                            p.name.as_deref(),
                            k + 1 == kept.len(),
                        );
                        Param {
                            label: if label.is_empty() { "_".into() } else { label },
                            ty: ty.to_string(),
                            default,
                        }
                    })
                    .collect();
                let ret_ty = if name.kind == SymbolKind::Init {
                    if ret.null() == Null::Nullable {
                        "Self?".to_owned()
                    } else {
                        "Self".to_owned()
                    }
                } else {
                    mapper.map(ret).to_string()
                };
                let failable = name.kind == SymbolKind::Init && ret.null() == Null::Nullable;
                let mut path = split_path(parent);
                path.push(title(&name.base, &name.labels));
                let mut d = self.decl(path.clone(), name.kind, &avail);
                d.ty = Some(ret_ty);
                d.params = Some(swift_params.clone());
                d.throws = throws;
                d.failable = failable;
                d.approximate = name.approximate;
                d.alternates = name.alternate.iter().cloned().collect();
                d.selector = Some(selector.clone());
                d.optional_requirement = in_protocol && *optional;
                let unavailable = attrs.unavailable || note.is_some_and(|n| n.nonswift);
                self.push(d.clone(), unavailable);
                // The async import of a completion-handler method.
                if let Some(a) = self.async_variant(&d, kept, attrs, &mapper) {
                    self.push(a, unavailable);
                }
            }
        }
    }

    fn property_name(
        &self,
        class_objc: &str,
        name: &str,
        ty: &CType,
        modifiers: &[String],
        is_class: bool,
    ) -> (String, bool) {
        if let Some(g) = modifiers.iter().find_map(|m| m.strip_prefix("getter="))
            && g.starts_with("is")
            && ty.base().is_some_and(|b| scalar(b) == Some("Bool"))
        {
            return (g.to_owned(), false);
        }
        if is_class
            && (ty.base() == Some(class_objc) || ty.base() == Some("instancetype"))
            && let Some(s) = strip_type_suffix(name, class_objc)
        {
            return (s, true);
        }
        // a leading initialism is lowercased (`URL` → `url`, `CGColor` → `cgColor`)
        (lower_first(name), false)
    }

    fn method_name(
        &self,
        class_objc: &str,
        class_method: bool,
        selector: &str,
        ret: &CType,
        params: &[CParam],
        throws: bool,
    ) -> MethodName {
        let pieces: Vec<&str> = selector.split(':').filter(|s| !s.is_empty()).collect();
        let first = pieces.first().copied().unwrap_or(selector);
        let ptypes: Vec<Option<String>> = params
            .iter()
            .map(|p| self.ctx.omission_name(&p.ty))
            .collect();
        let literal_labels: Vec<String> = std::iter::once("_".to_owned())
            .chain(
                pieces
                    .iter()
                    .skip(1)
                    .take(params.len().saturating_sub(1))
                    .map(|s| (*s).to_owned()),
            )
            .take(params.len())
            .collect();
        let literal = title(first, &literal_labels);
        let rest_labels = |from: usize| -> Vec<String> {
            (from..params.len())
                .map(|k| prune_label(pieces.get(k).copied().unwrap_or("_"), ptypes[k].as_deref()))
                .collect()
        };
        let mk = |base: String, labels: Vec<String>, kind: SymbolKind| {
            let t = title(&base, &labels);
            MethodName {
                alternate: (t != literal && kind != SymbolKind::Init).then(|| literal.clone()),
                base,
                labels,
                kind,
                approximate: true,
            }
        };
        // `init…With…`.
        if !class_method
            && let Some(rest) = first.strip_prefix("init")
            && (rest.is_empty() || rest.starts_with(|c: char| c.is_ascii_uppercase()))
        {
            if params.is_empty() {
                return mk("init".into(), Vec::new(), SymbolKind::Init);
            }
            let l = rest.strip_prefix("With").unwrap_or(rest);
            let l0 = if l.is_empty() {
                "_".to_owned()
            } else {
                prune_label(&lower_first(l), ptypes[0].as_deref())
            };
            let mut labels = vec![l0];
            labels.extend(rest_labels(1));
            return mk("init".into(), labels, SymbolKind::Init);
        }
        // Class factory methods.
        let returns_self = ret.base() == Some("instancetype") || ret.base() == Some(class_objc);
        if class_method
            && returns_self
            && !params.is_empty()
            && let Some(rest) = factory_rest(first, class_objc)
        {
            let l = rest.strip_prefix("With").unwrap_or(rest);
            if !l.is_empty() {
                let mut labels = vec![prune_label(&lower_first(l), ptypes[0].as_deref())];
                labels.extend(rest_labels(1));
                return mk("init".into(), labels, SymbolKind::Init);
            }
        }
        let kind = if class_method {
            SymbolKind::TypeMethod
        } else {
            SymbolKind::Method
        };
        if params.is_empty() {
            let mut base = first.to_owned();
            if class_method
                && returns_self
                && let Some(b) = strip_type_suffix(&base, class_objc)
            {
                base = b;
            }
            if throws {
                for suf in ["AndReturnError", "WithError", "Error"] {
                    if let Some(b) = base.strip_suffix(suf)
                        && !b.is_empty()
                    {
                        base = b.to_owned();
                        break;
                    }
                }
            }
            return mk(lower_first(&base), Vec::new(), kind);
        }
        // `stringByAppendingString:` → `appending(_:)`: an instance method named after its
        // receiver's type drops `<type>By`.
        let by_stripped;
        let first = match factory_rest(first, class_objc).and_then(|r| r.strip_prefix("By")) {
            Some(rest) if !rest.is_empty() && !class_method => {
                by_stripped = lower_first(rest);
                by_stripped.as_str()
            }
            _ => first,
        };
        let (base, l0) = match split_first_piece(first) {
            Some((b, l)) => {
                let l = drop_with_before_handler(&l);
                (b, prune_label(&l, ptypes[0].as_deref()))
            }
            None => match ptypes[0]
                .as_deref()
                .and_then(|t| strip_type_suffix(first, t))
                // the type words stay when they name a property of the class
                .filter(|b| {
                    !self
                        .ctx
                        .matches_property(class_objc, first.get(b.len()..).unwrap_or(""))
                }) {
                Some(b) => (b, "_".to_owned()),
                None => (first.to_owned(), "_".to_owned()),
            },
        };
        let mut labels = vec![l0];
        labels.extend(rest_labels(1));
        mk(lower_first(&base), labels, kind)
    }

    /// Default arguments as the importer gives them.
    fn has_default(
        &self,
        c: &CType,
        t: &TypeRef,
        piece: &str,
        name: Option<&str>,
        last: bool,
    ) -> bool {
        match c {
            CType::Block { .. } => last && matches!(t, TypeRef::Optional(_)),
            CType::Named { name: n, .. } if self.ctx.options.contains(n) => {
                words(n).last().is_some_and(|w| *w == "Options")
            }
            CType::Pointer { inner, null } if inner.base() == Some("NSDictionary") => {
                *null == Null::Nullable && {
                    let l = format!("{piece} {}", name.unwrap_or("")).to_ascii_lowercase();
                    l.contains("options") || l.contains("attributes") || l.contains("userinfo")
                }
            }
            _ => false,
        }
    }

    fn async_variant(
        &self,
        d: &Decl,
        kept: &[CParam],
        attrs: &Attrs,
        mapper: &TypeMapper<'_>,
    ) -> Option<Decl> {
        if attrs.no_async || d.kind == SymbolKind::Init {
            return None;
        }
        let last = kept.last()?;
        let CType::Block {
            ret,
            params,
            func_ptr: false,
            ..
        } = &last.ty
        else {
            return None;
        };
        if ret.base() != Some("void") || matches!(**ret, CType::Pointer { .. }) {
            return None;
        }
        let selector = d.selector.as_deref().unwrap_or("");
        let pieces: Vec<&str> = selector.split(':').filter(|s| !s.is_empty()).collect();
        let piece = pieces.get(kept.len() - 1).copied().unwrap_or("");
        if !is_handler_name(piece) && !last.name.as_deref().is_some_and(is_handler_name) {
            return None;
        }
        let title_now = d.path.last()?;
        let (base, labels) = split_swift_name(title_now);
        let mut labels = labels.unwrap_or_default();
        labels.pop();
        let (base, labels) = match &attrs.async_name {
            Some(n) => {
                let (b, l) = split_swift_name(n.trim_start_matches("getter:"));
                (b, l.unwrap_or_default())
            }
            None => {
                let b = match base.strip_prefix("get") {
                    Some(r) if r.starts_with(|c: char| c.is_ascii_uppercase()) => lower_first(r),
                    _ => base,
                };
                (b, labels)
            }
        };
        let has_error = params.iter().any(|p| p.ty.base() == Some("NSError"));
        let results: Vec<TypeRef> = params
            .iter()
            .filter(|p| p.ty.base() != Some("NSError"))
            .map(|p| {
                let t = mapper.map(&p.ty);
                match t {
                    TypeRef::Optional(inner) if has_error => *inner,
                    t => t,
                }
            })
            .collect();
        let ty = match results.len() {
            0 => TypeRef::void(),
            1 => results.into_iter().next().unwrap_or_else(TypeRef::void),
            _ => TypeRef::Tuple(results.into_iter().map(|t| (None, t)).collect()),
        };
        let mut a = d.clone();
        a.path.pop();
        a.path.push(title(&base, &labels));
        a.is_async = true;
        a.throws = d.throws || has_error;
        a.ty = Some(ty.to_string());
        if let Some(p) = a.params.as_mut() {
            p.pop();
        }
        a.alternates.clear();
        a.approximate = attrs.async_name.is_none();
        Some(a)
    }

    fn enumeration(
        &mut self,
        kind: EnumKind,
        name: &str,
        cases: &[(String, Attrs)],
        attrs: &Attrs,
    ) {
        let note = self.ctx.notes.others.get(name);
        if attrs.refined || note.is_some_and(|n| n.private) {
            return;
        }
        let swift = self.ctx.swift_name(name);
        let unavailable = attrs.unavailable || note.is_some_and(|n| n.nonswift);
        if !self.seen_types.insert(swift.clone()) {
            return;
        }
        let (container, case_kind) = match kind {
            EnumKind::Enum => (SymbolKind::Enum, SymbolKind::EnumCase),
            EnumKind::Options => (SymbolKind::Struct, SymbolKind::TypeProperty),
            EnumKind::Error => {
                let st = swift.strip_suffix(".Code").unwrap_or(&swift).to_owned();
                let d = self.decl(split_path(&st), SymbolKind::Struct, &attrs.avail);
                self.push(d, unavailable);
                (SymbolKind::Enum, SymbolKind::EnumCase)
            }
        };
        let d = self.decl(split_path(&swift), container, &attrs.avail);
        self.push(d, unavailable);
        let names: Vec<&str> = cases.iter().map(|(n, _)| n.as_str()).collect();
        let prefix = match names.as_slice() {
            // one case: the prefix it shares with the type's name (plurals matched)
            [one] => prefix_words_with_type(one, name),
            _ => common_prefix_words(&names),
        };
        for (case, cattrs) in cases {
            let cnote = self.ctx.notes.others.get(case);
            if cattrs.refined || cnote.is_some_and(|n| n.private) {
                continue;
            }
            let (cname, approximate) = match cnote
                .and_then(|n| n.swift_name.clone())
                .or_else(|| cattrs.swift_name.clone())
            {
                Some(n) => (n, false),
                None => (strip_case_prefix(case, prefix), true),
            };
            let mut avail = cattrs.avail.clone();
            avail.inherit(&attrs.avail);
            let mut path = split_path(&swift);
            path.push(cname);
            let mut d = self.decl(path, case_kind, &avail);
            d.approximate = approximate;
            if case_kind == SymbolKind::TypeProperty {
                d.ty = Some(named(&swift).to_string());
            }
            self.push(d, cattrs.unavailable || cnote.is_some_and(|n| n.nonswift));
        }
    }

    fn typedef(&mut self, name: &str, ty: &CType, attrs: &Attrs, audited: bool) {
        let note = self.ctx.notes.others.get(name);
        if attrs.refined || note.is_some_and(|n| n.private) || name.starts_with('_') {
            return;
        }
        // `typedef NS_ENUM` leaves no separate typedef; `typedef enum X X` neither.
        if self.ctx.enums.contains(name) {
            return;
        }
        let swift = self.ctx.swift_name(name);
        if !self.seen_types.insert(swift.clone()) {
            return;
        }
        let unavailable = attrs.unavailable || note.is_some_and(|n| n.nonswift);
        if cf_class_name(name, ty).is_some() {
            let d = self.decl(split_path(&swift), SymbolKind::Class, &attrs.avail);
            self.push(d, unavailable);
            return;
        }
        if attrs.typed_enum {
            let mut d = self.decl(split_path(&swift), SymbolKind::Struct, &attrs.avail);
            let mapper = TypeMapper {
                ctx: self.ctx,
                audited: true,
            };
            d.ty = None;
            let _ = mapper;
            self.push(d, unavailable);
            return;
        }
        let mapper = TypeMapper {
            ctx: self.ctx,
            audited,
        };
        let mut d = self.decl(split_path(&swift), SymbolKind::Typealias, &attrs.avail);
        let t = match mapper.map(ty) {
            // A typealias names the non-optional type.
            TypeRef::Optional(inner) => *inner,
            t => t,
        };
        d.ty = Some(t.to_string());
        self.push(d, unavailable);
    }

    fn function(
        &mut self,
        name: &str,
        ret: &CType,
        params: &[CParam],
        attrs: &Attrs,
        audited: bool,
    ) {
        let note = self.ctx.notes.others.get(name);
        if attrs.refined || note.is_some_and(|n| n.private) || name.starts_with('_') {
            return;
        }
        let mapper = TypeMapper {
            ctx: self.ctx,
            audited,
        };
        let unavailable = attrs.unavailable || note.is_some_and(|n| n.nonswift);
        let explicit = note
            .and_then(|n| n.swift_name.clone())
            .or_else(|| attrs.swift_name.clone());
        let ptys: Vec<TypeRef> = params.iter().map(|p| mapper.map(&p.ty)).collect();
        let ret_ty = mapper.map(ret);
        let Some(sn) = explicit else {
            let labels = vec!["_".to_owned(); params.len()];
            let mut d = self.decl(vec![title(name, &labels)], SymbolKind::Func, &attrs.avail);
            d.ty = Some(ret_ty.to_string());
            d.params = Some(
                ptys.iter()
                    .map(|t| Param {
                        label: "_".into(),
                        ty: t.to_string(),
                        default: false,
                    })
                    .collect(),
            );
            self.push(d, unavailable);
            return;
        };
        // `getter:Type.prop(self:)`, `Type.method(self:x:)`, `Type.init(x:)`, `name(x:)`.
        let (accessor, rest) = match sn.split_once(':') {
            Some((a @ ("getter" | "setter"), r)) => (Some(a), r.to_owned()),
            _ => (None, sn.clone()),
        };
        if accessor == Some("setter") {
            return;
        }
        let (full_base, labels) = split_swift_name(&rest);
        let labels = labels.unwrap_or_default();
        let mut path: Vec<String> = full_base.split('.').map(|s| s.to_owned()).collect();
        let member = path.pop().unwrap_or_default();
        if let Some(first) = path.first_mut() {
            *first = self.ctx.swift_name(first);
        }
        let parent: Vec<String> = path.iter().flat_map(|p| split_path(p)).collect();
        let self_at = labels.iter().position(|l| l == "self");
        let kept: Vec<(String, TypeRef)> = labels
            .iter()
            .zip(&ptys)
            .enumerate()
            .filter(|(k, _)| Some(*k) != self_at)
            .map(|(_, (l, t))| (l.clone(), t.clone()))
            .collect();
        let (kind, title_s) = if accessor == Some("getter") {
            let k = if parent.is_empty() {
                SymbolKind::Var
            } else if self_at.is_some() {
                SymbolKind::Property
            } else {
                SymbolKind::TypeProperty
            };
            (k, member.clone())
        } else if member == "init" {
            (
                SymbolKind::Init,
                title(
                    "init",
                    &kept.iter().map(|(l, _)| l.clone()).collect::<Vec<_>>(),
                ),
            )
        } else {
            let k = if parent.is_empty() {
                SymbolKind::Func
            } else if self_at.is_some() {
                SymbolKind::Method
            } else {
                SymbolKind::TypeMethod
            };
            (
                k,
                title(
                    &member,
                    &kept.iter().map(|(l, _)| l.clone()).collect::<Vec<_>>(),
                ),
            )
        };
        let mut p = parent;
        p.push(title_s);
        let mut d = self.decl(p, kind, &attrs.avail);
        if kind == SymbolKind::Init {
            d.ty = Some(
                if matches!(ret_ty, TypeRef::Optional(_)) {
                    "Self?"
                } else {
                    "Self"
                }
                .into(),
            );
        } else {
            d.ty = Some(ret_ty.to_string());
        }
        if !matches!(
            kind,
            SymbolKind::Property | SymbolKind::TypeProperty | SymbolKind::Var
        ) {
            d.params = Some(
                kept.iter()
                    .map(|(l, t)| Param {
                        label: if l.is_empty() { "_".into() } else { l.clone() },
                        ty: t.to_string(),
                        default: false,
                    })
                    .collect(),
            );
        }
        self.push(d, unavailable);
    }

    fn global(&mut self, name: &str, ty: &CType, attrs: &Attrs, audited: bool) {
        let note = self.ctx.notes.others.get(name);
        if attrs.refined || note.is_some_and(|n| n.private) || name.starts_with('_') {
            return;
        }
        let unavailable = attrs.unavailable || note.is_some_and(|n| n.nonswift);
        let mapper = TypeMapper {
            ctx: self.ctx,
            audited: true,
        };
        let _ = audited;
        let t = match mapper.map(ty) {
            TypeRef::Optional(i) if matches!(ty, CType::Pointer { .. }) && audited => {
                TypeRef::Optional(i)
            }
            t => t,
        };
        let explicit = note
            .and_then(|n| n.swift_name.clone())
            .or_else(|| attrs.swift_name.clone());
        let tname = match ty {
            CType::Named { name, .. } => Some(name.as_str()),
            _ => None,
        };
        let (path, kind, approximate) = if let Some(sn) = explicit {
            let mut parts = split_path(&sn);
            let last = parts.pop().unwrap_or_default();
            let wrapper = tname.filter(|n| self.ctx.typed_enums.contains(*n));
            if let (true, Some(tn)) = (parts.is_empty(), wrapper) {
                // a constant of a `swift_wrapper` type is a static member of that type
                // whatever its name (`kCIContextUseSoftwareRenderer`, named
                // `useSoftwareRenderer`, is `CIContextOption.useSoftwareRenderer`)
                let mut p = split_path(&self.ctx.swift_name(tn));
                p.push(last);
                (p, SymbolKind::TypeProperty, false)
            } else if parts.is_empty() {
                (vec![last], SymbolKind::Var, false)
            } else {
                let mut p = split_path(&self.ctx.swift_name(&parts.join(".")));
                p.push(last);
                (p, SymbolKind::TypeProperty, false)
            }
        } else if let Some(tn) = tname.filter(|n| self.ctx.typed_enums.contains(*n)) {
            let swift = self.ctx.swift_name(tn);
            if tn == "NSNotificationName" && name.ends_with("Notification") {
                // `UIApplicationDidBecomeActiveNotification` → `UIApplication.didBecomeActiveNotification`.
                let ws = words(name);
                let mut found = None;
                for k in (1..ws.len()).rev() {
                    let head = join_words(&ws[..k]);
                    if self.ctx.classes.contains(&head) {
                        found = Some((head, join_words(&ws[k..])));
                        break;
                    }
                }
                match found {
                    Some((cls, rest)) => {
                        let mut p = split_path(&self.ctx.swift_name(&cls));
                        p.push(lower_first(&rest));
                        (p, SymbolKind::TypeProperty, true)
                    }
                    None => {
                        let mut p = split_path(&swift);
                        p.push(lower_first(name));
                        (p, SymbolKind::TypeProperty, true)
                    }
                }
            } else {
                // `swift_wrapper` constants lose the word prefix they share with the
                // typedef's C name (a leading `k` set aside), nothing else:
                // `NSURLFileSizeKey` of `NSURLResourceKey` → `fileSizeKey`
                let bare = name
                    .strip_prefix('k')
                    .filter(|r| r.starts_with(|c: char| c.is_ascii_uppercase()))
                    .unwrap_or(name);
                let n = common_prefix_words(&[tn, bare]);
                let mut p = split_path(&swift);
                p.push(strip_case_prefix(bare, n));
                (p, SymbolKind::TypeProperty, true)
            }
        } else {
            (vec![name.to_owned()], SymbolKind::Var, false)
        };
        let mut d = self.decl(path, kind, &attrs.avail);
        d.ty = Some(t.to_string());
        d.approximate = approximate;
        d.c_name = Some(name.to_owned());
        self.push(d, unavailable);
    }
}

/// An explicit Swift name for a method (`do(a:b:)`, `init(x:)`); `None` when its arity does
/// not match the selector's, as the compiler ignores such names.
fn explicit_method_name(n: &str, arity: usize, class_method: bool) -> Option<MethodName> {
    let (base, labels) = split_swift_name(n);
    let labels = labels.unwrap_or_default();
    if labels.len() != arity || base.is_empty() || base.contains('.') {
        return None;
    }
    let kind = if base == "init" {
        SymbolKind::Init
    } else if class_method {
        SymbolKind::TypeMethod
    } else {
        SymbolKind::Method
    };
    let labels = labels
        .into_iter()
        .map(|l| if l == "_" { String::new() } else { l })
        .collect();
    Some(MethodName {
        base,
        labels,
        kind,
        approximate: false,
        alternate: None,
    })
}
