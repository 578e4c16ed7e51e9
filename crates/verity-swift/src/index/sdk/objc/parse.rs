//! The declarations of a preprocessed header: classes, categories, protocols and their
//! methods and properties, `NS_ENUM`-family enums, typedefs, structs, C functions and
//! globals, each with its C types (a small declarator parser) and its attribute macros
//! (availability, `NS_SWIFT_NAME`, `NS_REFINED_FOR_SWIFT`, …).

use super::avail::{self, AvailSet};
use super::lex::{Tok, is_macro_like};

/// Written nullability of a pointer (or `id`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum Null {
    #[default]
    Unspecified,
    Nullable,
    Nonnull,
}

/// A C / Objective-C type.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum CType {
    /// `NSInteger`, `unsigned long`, `NSArray<NSString *>`, `id<P>`, `instancetype`.
    Named {
        name: String,
        args: Vec<CType>,
        protocols: Vec<String>,
        is_const: bool,
        null: Null,
    },
    Pointer {
        inner: Box<CType>,
        null: Null,
    },
    /// `R (^)(P…)` (`func_ptr`: `R (*)(P…)`).
    Block {
        ret: Box<CType>,
        params: Vec<CParam>,
        null: Null,
        func_ptr: bool,
    },
    Array(Box<CType>),
}

impl CType {
    pub(super) fn named(name: &str) -> CType {
        CType::Named {
            name: name.to_owned(),
            args: Vec::new(),
            protocols: Vec::new(),
            is_const: false,
            null: Null::Unspecified,
        }
    }

    /// The base name under pointers (`NSString` for `NSString *`).
    pub(super) fn base(&self) -> Option<&str> {
        match self {
            CType::Named { name, .. } => Some(name),
            CType::Pointer { inner, .. } | CType::Array(inner) => inner.base(),
            CType::Block { .. } => None,
        }
    }

    /// The generic arguments under pointers (`NSIndexPath *` for `NSArray<NSIndexPath *> *`).
    pub(super) fn base_args(&self) -> &[CType] {
        match self {
            CType::Named { args, .. } => args,
            CType::Pointer { inner, .. } | CType::Array(inner) => inner.base_args(),
            CType::Block { .. } => &[],
        }
    }

    pub(super) fn null(&self) -> Null {
        match self {
            CType::Named { null, .. } | CType::Pointer { null, .. } | CType::Block { null, .. } => {
                *null
            }
            CType::Array(_) => Null::Unspecified,
        }
    }

    fn set_null(&mut self, n: Null) {
        match self {
            CType::Named { null, .. } | CType::Pointer { null, .. } | CType::Block { null, .. } => {
                *null = n
            }
            CType::Array(_) => {}
        }
    }

    /// `NSError **`.
    pub(super) fn is_error_out(&self) -> bool {
        matches!(self, CType::Pointer { inner, .. }
            if matches!(&**inner, CType::Pointer { inner, .. } if inner.base() == Some("NSError")))
    }
}

#[derive(Clone, Debug, PartialEq)]
pub(super) struct CParam {
    pub name: Option<String>,
    pub ty: CType,
}

/// What the attribute macros around a declaration said.
#[derive(Clone, Debug, Default)]
pub(super) struct Attrs {
    pub avail: AvailSet,
    pub swift_name: Option<String>,
    pub async_name: Option<String>,
    pub refined: bool,
    /// `NS_UNAVAILABLE`, `NS_SWIFT_UNAVAILABLE`, `__attribute__((unavailable))`.
    pub unavailable: bool,
    /// `NS_TYPED_ENUM` and its kin.
    pub typed_enum: bool,
    pub no_async: bool,
}

#[derive(Clone, Debug)]
pub(super) enum Member {
    Method {
        class_method: bool,
        selector: String,
        ret: CType,
        /// One per selector piece that takes an argument.
        params: Vec<CParam>,
        attrs: Attrs,
        optional: bool,
        audited: bool,
    },
    Property {
        name: String,
        ty: CType,
        /// `nonatomic`, `class`, `readonly`, `getter=isX`, `nullable`, …
        modifiers: Vec<String>,
        attrs: Attrs,
        optional: bool,
        audited: bool,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum EnumKind {
    Enum,
    Options,
    /// `NS_ERROR_ENUM(domain, name)`.
    Error,
}

#[derive(Clone, Debug)]
pub(super) enum Item {
    Class {
        name: String,
        superclass: Option<String>,
        protocols: Vec<String>,
        /// `Some` for a category or class extension.
        category: Option<String>,
        attrs: Attrs,
        members: Vec<Member>,
    },
    Protocol {
        name: String,
        protocols: Vec<String>,
        attrs: Attrs,
        members: Vec<Member>,
    },
    Enum {
        kind: EnumKind,
        name: String,
        cases: Vec<(String, Attrs)>,
        attrs: Attrs,
    },
    Typedef {
        name: String,
        ty: CType,
        attrs: Attrs,
        audited: bool,
    },
    Struct {
        name: String,
        attrs: Attrs,
    },
    Function {
        name: String,
        ret: CType,
        params: Vec<CParam>,
        attrs: Attrs,
        audited: bool,
    },
    Global {
        name: String,
        ty: CType,
        attrs: Attrs,
        audited: bool,
    },
}

pub(super) struct Parser<'a> {
    toks: &'a [Tok],
    i: usize,
    audited: bool,
    /// `API_AVAILABLE_BEGIN(…)` regions.
    regions: Vec<AvailSet>,
    pub items: Vec<Item>,
}

const QUALIFIERS: [&str; 14] = [
    "const",
    "volatile",
    "__kindof",
    "__strong",
    "__weak",
    "__unsafe_unretained",
    "__autoreleasing",
    "__restrict",
    "restrict",
    "__block",
    "_Atomic",
    "__covariant",
    "__contravariant",
    "register",
];

fn nullability(s: &str) -> Option<Null> {
    Some(match s {
        "nullable" | "_Nullable" | "__nullable" | "_Nullable_result" | "null_unspecified"
        | "_Null_unspecified" | "__null_unspecified" => {
            if s.contains("unspecified") {
                Null::Unspecified
            } else {
                Null::Nullable
            }
        }
        "nonnull" | "_Nonnull" | "__nonnull" => Null::Nonnull,
        _ => return None,
    })
}

impl<'a> Parser<'a> {
    pub(super) fn new(toks: &'a [Tok]) -> Parser<'a> {
        Parser {
            toks,
            i: 0,
            audited: false,
            regions: Vec::new(),
            items: Vec::new(),
        }
    }

    fn peek(&self) -> Option<&'a Tok> {
        self.toks.get(self.i)
    }
    fn peek_at(&self, k: usize) -> Option<&'a Tok> {
        self.toks.get(self.i + k)
    }
    fn peek_is(&self, c: char) -> bool {
        self.peek().is_some_and(|t| t.is(c))
    }
    fn peek_ident(&self) -> Option<&'a str> {
        self.peek().and_then(Tok::ident)
    }
    fn eat(&mut self, c: char) -> bool {
        if self.peek_is(c) {
            self.i += 1;
            true
        } else {
            false
        }
    }
    fn ident(&mut self) -> Option<String> {
        let s = self.peek_ident()?.to_owned();
        self.i += 1;
        Some(s)
    }

    /// Skips a balanced group starting at the current `open` token; returns its tokens.
    fn group(&mut self, open: char, close: char) -> &'a [Tok] {
        if !self.eat(open) {
            return &[];
        }
        let start = self.i;
        let mut depth = 1;
        while let Some(t) = self.peek() {
            if t.is(open) {
                depth += 1;
            } else if t.is(close) {
                depth -= 1;
                if depth == 0 {
                    let inner = &self.toks[start..self.i];
                    self.i += 1;
                    return inner;
                }
            }
            self.i += 1;
        }
        &self.toks[start..]
    }

    /// Skips to just after the next `;` at depth 0 (or a `{…}` body).
    fn skip_statement(&mut self) {
        while let Some(t) = self.peek() {
            if t.is(';') {
                self.i += 1;
                return;
            }
            if t.is('{') {
                self.group('{', '}');
                self.eat(';');
                return;
            }
            if t.is('(') {
                self.group('(', ')');
                continue;
            }
            if t.is('@') && self.peek_at(1).and_then(Tok::ident) == Some("end") {
                return;
            }
            self.i += 1;
        }
    }

    /// Whether the current token starts an attribute (macro or `__attribute__`).
    fn at_attr(&self) -> bool {
        let Some(s) = self.peek_ident() else {
            return false;
        };
        if matches!(
            s,
            "extern"
                | "static"
                | "inline"
                | "__inline"
                | "__inline__"
                | "__attribute__"
                | "__attribute"
                | "__unused"
                | "__deprecated"
                | "__unavailable"
                | "__dead2"
                | "__pure2"
                | "_Noreturn"
                | "__declspec"
                | "IBInspectable"
                | "IBOutlet"
        ) {
            return true;
        }
        is_macro_like(s)
            && !matches!(
                s,
                "NS_ENUM"
                    | "NS_OPTIONS"
                    | "NS_CLOSED_ENUM"
                    | "NS_ERROR_ENUM"
                    | "CF_ENUM"
                    | "CF_OPTIONS"
                    | "CF_CLOSED_ENUM"
                    | "NS_ASSUME_NONNULL_BEGIN"
                    | "NS_ASSUME_NONNULL_END"
                    | "CF_ASSUME_NONNULL_BEGIN"
                    | "CF_ASSUME_NONNULL_END"
                    | "CF_IMPLICIT_BRIDGING_ENABLED"
                    | "CF_IMPLICIT_BRIDGING_DISABLED"
                    | "NS_HEADER_AUDIT_BEGIN"
                    | "NS_HEADER_AUDIT_END"
                    | "CF_EXTERN_C_BEGIN"
                    | "CF_EXTERN_C_END"
                    | "NS_SWIFT_SENDABLE_BEGIN"
            )
            && !s.ends_with("_BEGIN")
            && !s.ends_with("_END")
    }

    /// Consumes attributes into `attrs`.
    fn attrs_into(&mut self, attrs: &mut Attrs) {
        while self.at_attr() {
            let name = self.ident().unwrap_or_default();
            let args: &[Tok] = if self.peek_is('(') {
                self.group('(', ')')
            } else {
                &[]
            };
            apply_attr(&name, args, attrs);
        }
    }

    fn attrs(&mut self) -> Attrs {
        let mut a = Attrs::default();
        self.attrs_into(&mut a);
        a
    }

    fn region_attrs(&self, mut a: Attrs) -> Attrs {
        for r in self.regions.iter().rev() {
            a.avail.inherit(r);
        }
        a
    }

    /// Parses the whole token list.
    pub(super) fn run(mut self) -> Vec<Item> {
        while self.i < self.toks.len() {
            let before = self.i;
            self.top_level();
            if self.i == before {
                self.i += 1;
            }
        }
        self.items
    }

    fn top_level(&mut self) {
        let Some(t) = self.peek() else { return };
        if t.is('@') {
            let kw = self.peek_at(1).and_then(Tok::ident).unwrap_or("");
            match kw {
                "interface" => {
                    self.i += 2;
                    self.interface(Attrs::default());
                }
                "protocol" => {
                    self.i += 2;
                    self.protocol(Attrs::default());
                }
                _ => {
                    self.i += 2;
                    if kw == "class" {
                        self.skip_statement();
                    }
                }
            }
            return;
        }
        if t.is('}') || t.is(';') {
            self.i += 1;
            return;
        }
        match t.ident().unwrap_or("") {
            "NS_ASSUME_NONNULL_BEGIN" | "CF_ASSUME_NONNULL_BEGIN" => {
                self.audited = true;
                self.i += 1;
                return;
            }
            "NS_ASSUME_NONNULL_END" | "CF_ASSUME_NONNULL_END" => {
                self.audited = false;
                self.i += 1;
                return;
            }
            "NS_HEADER_AUDIT_BEGIN" => {
                self.i += 1;
                let args = self.group('(', ')');
                if args.iter().any(|t| t.ident() == Some("nullability")) {
                    self.audited = true;
                }
                return;
            }
            "NS_HEADER_AUDIT_END" => {
                self.i += 1;
                self.group('(', ')');
                self.audited = false;
                return;
            }
            "extern" if self.peek_at(1).is_some_and(|t| matches!(t, Tok::Str(_))) => {
                // `extern "C" {`
                self.i += 2;
                self.eat('{');
                return;
            }
            s if s.ends_with("_BEGIN") && s.starts_with("API_") => {
                self.i += 1;
                let args = self.group('(', ')');
                let mut a = Attrs::default();
                apply_attr(&s.replace("_BEGIN", ""), args, &mut a);
                self.regions.push(a.avail);
                return;
            }
            s if s.ends_with("_END") && s.starts_with("API_") => {
                self.i += 1;
                self.regions.pop();
                return;
            }
            s if s.ends_with("_BEGIN") || s.ends_with("_END") => {
                self.i += 1;
                if self.peek_is('(') {
                    self.group('(', ')');
                }
                return;
            }
            // a region marker without arguments (`__BEGIN_DECLS`,
            // `CF_IMPLICIT_BRIDGING_ENABLED` before Security's `typedef CF_ENUM(uint32_t,
            // SecTrustResultType)`), not the type name of the declaration after it
            s if is_macro_like(s)
                && (s.ends_with("_ENABLED")
                    || s.ends_with("_DISABLED")
                    || s.ends_with("_DECLS"))
                && !self.peek_at(1).is_some_and(|t| t.is('(')) =>
            {
                self.i += 1;
                return;
            }
            _ => {}
        }
        // Attributes before an `@interface` / `@protocol` / declaration.
        let attrs = self.attrs();
        if self.peek_is('@') {
            let kw = self.peek_at(1).and_then(Tok::ident).unwrap_or("");
            self.i += 2;
            match kw {
                "interface" => self.interface(attrs),
                "protocol" => self.protocol(attrs),
                _ => self.skip_statement(),
            }
            return;
        }
        match self.peek_ident() {
            Some("typedef") => {
                self.i += 1;
                self.typedef(attrs);
            }
            Some("struct" | "union")
                if self.peek_at(2).is_some_and(|t| t.is('{'))
                    || self.peek_at(1).is_some_and(|t| t.is('{')) =>
            {
                self.i += 1;
                let name = if self.peek_is('{') {
                    None
                } else {
                    self.ident()
                };
                self.group('{', '}');
                let mut attrs = attrs;
                self.attrs_into(&mut attrs);
                if let Some(name) = name {
                    self.items.push(Item::Struct {
                        name,
                        attrs: self.region_attrs(attrs),
                    });
                }
                self.skip_statement();
            }
            Some("enum")
                if self.peek_at(1).is_some_and(|t| t.is('{'))
                    || self.peek_at(2).is_some_and(|t| t.is('{') || t.is(':')) =>
            {
                self.skip_statement();
            }
            Some(_) => self.declaration(attrs),
            None => self.skip_statement(),
        }
    }

    /// `<P1, P2>`.
    fn protocol_list(&mut self) -> Vec<String> {
        let toks = self.group('<', '>');
        toks.iter()
            .filter_map(Tok::ident)
            .map(str::to_owned)
            .collect()
    }

    fn interface(&mut self, mut attrs: Attrs) {
        let Some(name) = self.ident() else {
            self.skip_statement();
            return;
        };
        // Generic parameters `<ObjectType>` of the class.
        if self.peek_is('<') {
            self.group('<', '>');
        }
        let mut category = None;
        let mut superclass = None;
        if self.peek_is('(') {
            let inner = self.group('(', ')');
            category = Some(
                inner
                    .iter()
                    .filter_map(Tok::ident)
                    .next()
                    .unwrap_or("")
                    .to_owned(),
            );
        } else if self.eat(':') {
            superclass = self.ident();
            if self.peek_is('<') {
                // Superclass generic arguments `NSObject<…>` are rare; protocol list otherwise.
                let save = self.i;
                let list = self.group('<', '>');
                if list.iter().any(|t| t.is('*')) {
                    // Generic arguments: skip.
                } else {
                    self.i = save;
                }
            }
        }
        let protocols = if self.peek_is('<') {
            self.protocol_list()
        } else {
            Vec::new()
        };
        self.attrs_into(&mut attrs);
        // Instance variables.
        if self.peek_is('{') {
            self.group('{', '}');
        }
        let attrs = self.region_attrs(attrs);
        let members = self.members();
        self.items.push(Item::Class {
            name,
            superclass,
            protocols,
            category,
            attrs,
            members,
        });
    }

    fn protocol(&mut self, mut attrs: Attrs) {
        let Some(name) = self.ident() else {
            self.skip_statement();
            return;
        };
        if self.peek_is(';') || self.peek_is(',') {
            self.skip_statement();
            return;
        }
        let protocols = if self.peek_is('<') {
            self.protocol_list()
        } else {
            Vec::new()
        };
        self.attrs_into(&mut attrs);
        let attrs = self.region_attrs(attrs);
        let members = self.members();
        self.items.push(Item::Protocol {
            name,
            protocols,
            attrs,
            members,
        });
    }

    /// Members up to `@end`.
    fn members(&mut self) -> Vec<Member> {
        let mut out = Vec::new();
        let mut optional = false;
        while let Some(t) = self.peek() {
            let before = self.i;
            if t.is('@') {
                let kw = self.peek_at(1).and_then(Tok::ident).unwrap_or("");
                self.i += 2;
                match kw {
                    "end" => return out,
                    "optional" => optional = true,
                    "required" => optional = false,
                    "property" => {
                        if let Some(m) = self.property(optional) {
                            out.push(m);
                        }
                    }
                    _ => {}
                }
            } else if t.is('-') || t.is('+') {
                self.i += 1;
                if let Some(m) = self.method(t.is('+'), optional) {
                    out.push(m);
                }
            } else if let Some(s) = t.ident() {
                match s {
                    "NS_ASSUME_NONNULL_BEGIN" => {
                        self.audited = true;
                        self.i += 1;
                    }
                    "NS_ASSUME_NONNULL_END" => {
                        self.audited = false;
                        self.i += 1;
                    }
                    s if s.starts_with("API_") && s.ends_with("_BEGIN") => {
                        self.i += 1;
                        let args = self.group('(', ')');
                        let mut a = Attrs::default();
                        apply_attr(&s.replace("_BEGIN", ""), args, &mut a);
                        self.regions.push(a.avail);
                    }
                    s if s.starts_with("API_") && s.ends_with("_END") => {
                        self.i += 1;
                        self.regions.pop();
                    }
                    _ if self.at_attr() => {
                        let start = self.i;
                        self.attrs();
                        if self.peek_ident().is_some() {
                            // a C global declared between the methods (`FOUNDATION_EXPORT
                            // NSURLResourceKey const NSURLFileSizeKey`): a top-level
                            // declaration all the same
                            self.i = start;
                            self.top_level();
                        }
                    }
                    // a typedef between the methods (CIContext.h's `typedef NSString *
                    // CIContextOption NS_TYPED_ENUM;`) is a top-level declaration too
                    "typedef" => self.top_level(),
                    _ => self.skip_statement(),
                }
            } else {
                self.skip_statement();
            }
            if self.i == before {
                self.i += 1;
            }
        }
        out
    }

    fn property(&mut self, optional: bool) -> Option<Member> {
        let mut modifiers = Vec::new();
        if self.peek_is('(') {
            let inner = self.group('(', ')');
            for part in inner.split(|t| t.is(',')) {
                let s: String = part.iter().map(Tok::text).collect();
                if !s.is_empty() {
                    modifiers.push(s);
                }
            }
        }
        let mut attrs = self.attrs();
        let (mut ty, name) = self.declarator_decl(&mut attrs)?;
        self.attrs_into(&mut attrs);
        self.skip_statement();
        if ty.null() == Null::Unspecified
            && let Some(n) = modifiers.iter().find_map(|m| nullability(m))
        {
            ty.set_null(n);
        }
        Some(Member::Property {
            name: name?,
            ty,
            modifiers,
            attrs: self.region_attrs(attrs),
            optional,
            audited: self.audited,
        })
    }

    /// A method after its `-`/`+`.
    fn method(&mut self, class_method: bool, optional: bool) -> Option<Member> {
        let mut attrs = Attrs::default();
        let ret = if self.peek_is('(') {
            let inner = self.group('(', ')');
            type_of(inner, &mut attrs)
        } else {
            CType::named("id")
        };
        let mut selector = String::new();
        let mut params = Vec::new();
        loop {
            let piece = match self.peek() {
                Some(Tok::Ident(s))
                    if !self.at_attr() || self.peek_at(1).is_some_and(|t| t.is(':')) =>
                {
                    self.i += 1;
                    s.clone()
                }
                Some(t) if t.is(':') => String::new(),
                _ => break,
            };
            if !self.eat(':') {
                if params.is_empty() && selector.is_empty() {
                    selector = piece;
                }
                break;
            }
            selector.push_str(&piece);
            selector.push(':');
            let ty = if self.peek_is('(') {
                let inner = self.group('(', ')');
                type_of(inner, &mut attrs)
            } else {
                CType::named("id")
            };
            self.attrs_into(&mut attrs);
            let name = self.ident();
            params.push(CParam { name, ty });
            // Variadic `, ...`.
            if self.peek_is(',') {
                while self.eat(',') || self.eat('.') {}
            }
        }
        if selector.is_empty() {
            self.skip_statement();
            return None;
        }
        self.attrs_into(&mut attrs);
        self.skip_statement();
        Some(Member::Method {
            class_method,
            selector,
            ret,
            params,
            attrs: self.region_attrs(attrs),
            optional,
            audited: self.audited,
        })
    }

    fn typedef(&mut self, mut attrs: Attrs) {
        self.attrs_into(&mut attrs);
        let kw = self.peek_ident().unwrap_or("");
        let enum_kind = match kw {
            "NS_ENUM" | "NS_CLOSED_ENUM" | "CF_ENUM" | "CF_CLOSED_ENUM" => Some(EnumKind::Enum),
            "NS_OPTIONS" | "CF_OPTIONS" => Some(EnumKind::Options),
            "NS_ERROR_ENUM" => Some(EnumKind::Error),
            _ => None,
        };
        if let Some(kind) = enum_kind {
            self.i += 1;
            let args = self.group('(', ')');
            let names: Vec<&str> = args.iter().filter_map(Tok::ident).collect();
            let Some(name) = names.last().map(|s| (*s).to_owned()) else {
                self.skip_statement();
                return;
            };
            self.attrs_into(&mut attrs);
            let cases = self.enum_body();
            self.attrs_into(&mut attrs);
            self.skip_statement();
            let attrs = self.region_attrs(attrs);
            self.items.push(Item::Enum {
                kind,
                name,
                cases,
                attrs,
            });
            return;
        }
        if matches!(kw, "struct" | "union" | "enum") {
            let save = self.i;
            self.i += 1;
            let tag = if self.peek_is('{') {
                None
            } else {
                self.ident()
            };
            if self.peek_is(':') {
                // `typedef enum X : T {…} Y;`
                self.i += 1;
                while !self.peek_is('{') && !self.peek_is(';') && self.peek().is_some() {
                    self.i += 1;
                }
            }
            if self.peek_is('{') {
                let cases = if kw == "enum" {
                    self.enum_body()
                } else {
                    self.group('{', '}');
                    Vec::new()
                };
                self.attrs_into(&mut attrs);
                let name = self.ident().or(tag);
                self.attrs_into(&mut attrs);
                self.skip_statement();
                if let Some(name) = name {
                    let attrs = self.region_attrs(attrs);
                    if kw == "enum" {
                        self.items.push(Item::Enum {
                            kind: EnumKind::Enum,
                            name,
                            cases,
                            attrs,
                        });
                    } else {
                        self.items.push(Item::Struct { name, attrs });
                    }
                }
                return;
            }
            self.i = save;
        }
        let Some((ty, name)) = self.declarator_decl(&mut attrs) else {
            self.skip_statement();
            return;
        };
        self.attrs_into(&mut attrs);
        self.skip_statement();
        if let Some(name) = name {
            let attrs = self.region_attrs(attrs);
            self.items.push(Item::Typedef {
                name,
                ty,
                attrs,
                audited: self.audited,
            });
        }
    }

    /// `{ A = 1, B API_AVAILABLE(…), … }`.
    fn enum_body(&mut self) -> Vec<(String, Attrs)> {
        let body = self.group('{', '}');
        let mut out = Vec::new();
        for part in split_top(body, ',') {
            let mut p = Parser::new(part);
            let Some(name) = p.ident() else { continue };
            let mut a = p.attrs();
            if p.eat('=') {
                // The value, then trailing attributes.
                while p.peek().is_some() && !p.at_attr() {
                    if p.peek_is('(') {
                        p.group('(', ')');
                    } else {
                        p.i += 1;
                    }
                }
                p.attrs_into(&mut a);
            }
            let a = self.region_attrs(a);
            out.push((name, a));
        }
        out
    }

    /// A variable or function declaration at file scope.
    fn declaration(&mut self, mut attrs: Attrs) {
        let Some((ty, name)) = self.declarator_decl(&mut attrs) else {
            self.skip_statement();
            return;
        };
        self.attrs_into(&mut attrs);
        let Some(name) = name else {
            self.skip_statement();
            return;
        };
        let audited = self.audited;
        let attrs = self.region_attrs(attrs);
        self.skip_statement();
        match ty {
            CType::Block {
                ret,
                params,
                func_ptr: true,
                null: Null::Unspecified,
            } => {
                self.items.push(Item::Function {
                    name,
                    ret: *ret,
                    params: params
                        .into_iter()
                        .filter(|p| {
                            p.ty.base() != Some("void") || matches!(p.ty, CType::Pointer { .. })
                        })
                        .collect(),
                    attrs,
                    audited,
                });
            }
            ty => self.items.push(Item::Global {
                name,
                ty,
                attrs,
                audited,
            }),
        }
    }

    /// `specifiers declarator`: the type and the declared name (if any).
    fn declarator_decl(&mut self, attrs: &mut Attrs) -> Option<(CType, Option<String>)> {
        let start = self.i;
        // Find the end: `;` or `{` or `=` at depth 0.
        let mut depth = 0i32;
        let mut end = self.i;
        while let Some(t) = self.toks.get(end) {
            if t.is('(') || t.is('[') || t.is('<') {
                depth += 1;
            } else if t.is(')') || t.is(']') || t.is('>') {
                depth -= 1;
            } else if depth <= 0 && (t.is(';') || t.is('{') || t.is('=') || t.is('@')) {
                break;
            }
            end += 1;
        }
        let toks = &self.toks[start..end];
        let (ty, name, used) = parse_declaration(toks, attrs)?;
        self.i = start + used;
        Some((ty, name))
    }
}

/// Splits tokens at `sep` outside brackets.
pub(super) fn split_top(toks: &[Tok], sep: char) -> Vec<&[Tok]> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (k, t) in toks.iter().enumerate() {
        if t.is('(') || t.is('[') || t.is('<') || t.is('{') {
            depth += 1;
        } else if t.is(')') || t.is(']') || t.is('>') || t.is('}') {
            depth -= 1;
        } else if depth == 0 && t.is(sep) {
            out.push(&toks[start..k]);
            start = k + 1;
        }
    }
    if start < toks.len() {
        out.push(&toks[start..]);
    }
    out
}

/// The type written inside a method's `( … )`.
pub(super) fn type_of(toks: &[Tok], attrs: &mut Attrs) -> CType {
    parse_declaration(toks, attrs)
        .map(|(t, _, _)| t)
        .unwrap_or_else(|| CType::named("id"))
}

/// Parses `specifiers declarator` from `toks`; returns the type, the name, and how many tokens
/// were used. A function declarator `R f(P…)` is returned as a non-null `func_ptr` block.
pub(super) fn parse_declaration(
    toks: &[Tok],
    attrs: &mut Attrs,
) -> Option<(CType, Option<String>, usize)> {
    let mut p = Parser::new(toks);
    let base = p.specifiers(attrs)?;
    let (ty, name) = p.declarator(base, attrs);
    Some((ty, name, p.i))
}

impl Parser<'_> {
    /// Declaration specifiers: qualifiers, attributes and the base type.
    fn specifiers(&mut self, attrs: &mut Attrs) -> Option<CType> {
        let mut words: Vec<String> = Vec::new();
        let mut is_const = false;
        let mut null = Null::Unspecified;
        let mut args = Vec::new();
        let mut protocols = Vec::new();
        loop {
            if self.at_attr() && words.is_empty()
                || self.at_attr() && self.peek_ident().is_none_or(|s| s != "BOOL")
            {
                self.attrs_into(attrs);
                continue;
            }
            let Some(s) = self.peek_ident() else { break };
            if QUALIFIERS.contains(&s) {
                is_const |= s == "const";
                self.i += 1;
                continue;
            }
            if let Some(n) = nullability(s) {
                null = n;
                self.i += 1;
                continue;
            }
            if matches!(s, "struct" | "enum" | "union" | "typedef") {
                self.i += 1;
                continue;
            }
            let is_c_word = matches!(
                s,
                "unsigned" | "signed" | "long" | "short" | "int" | "char" | "double" | "float"
            );
            if !(words.is_empty() || is_c_word && words.iter().all(|w| is_c_scalar_word(w))) {
                break;
            }
            if !words.is_empty() && !is_c_word {
                break;
            }
            words.push(s.to_owned());
            self.i += 1;
            if !is_c_word && self.peek_is('<') {
                let inner = self.group('<', '>');
                if s == "id"
                    || s == "Class"
                    || !inner.iter().any(|t| t.is('*')) && !is_generic_class_arg(inner)
                {
                    protocols = inner
                        .iter()
                        .filter_map(Tok::ident)
                        .map(str::to_owned)
                        .collect();
                } else {
                    for part in split_top(inner, ',') {
                        let mut a = Attrs::default();
                        args.push(type_of(part, &mut a));
                    }
                }
            }
            if !is_c_word {
                // Trailing qualifiers handled by the loop; no more base words.
                while let Some(s) = self.peek_ident() {
                    if QUALIFIERS.contains(&s) {
                        is_const |= s == "const";
                        self.i += 1;
                    } else if let Some(n) = nullability(s) {
                        null = n;
                        self.i += 1;
                    } else if self.at_attr() {
                        self.attrs_into(attrs);
                    } else {
                        break;
                    }
                }
                break;
            }
        }
        if words.is_empty() {
            return None;
        }
        let name = normalize_c_words(&words);
        Some(CType::Named {
            name,
            args,
            protocols,
            is_const,
            null,
        })
    }

    /// Pointer stars, then a name, a parenthesized block / function-pointer declarator, a
    /// function parameter list, or array brackets.
    fn declarator(&mut self, mut ty: CType, attrs: &mut Attrs) -> (CType, Option<String>) {
        // `nullable NSString *`: a leading nullability qualifier applies to the outermost pointer.
        let leading = ty.null();
        loop {
            if self.eat('*') || self.eat('&') {
                ty = CType::Pointer {
                    inner: Box::new(ty),
                    null: Null::Unspecified,
                };
                continue;
            }
            let Some(s) = self.peek_ident() else { break };
            if let Some(n) = nullability(s) {
                ty.set_null(n);
                self.i += 1;
            } else if QUALIFIERS.contains(&s) {
                self.i += 1;
            } else if self.at_attr() {
                self.attrs_into(attrs);
            } else {
                break;
            }
        }
        if let CType::Pointer { null, .. } = &mut ty
            && *null == Null::Unspecified
        {
            *null = leading;
        }
        let mut name = None;
        if self.peek_is('(')
            && self.peek_at(1).is_some_and(|t| {
                t.is('^')
                    || t.is('*')
                    || t.ident()
                        .is_some_and(|s| is_macro_like(s) || nullability(s).is_some())
            })
        {
            // `( ^ nullability name )( params )`.
            let inner = self.group('(', ')');
            let mut q = Parser::new(inner);
            let mut is_block = false;
            let mut is_fp = false;
            let mut null = Null::Unspecified;
            while let Some(t) = q.peek() {
                if t.is('^') {
                    is_block = true;
                } else if t.is('*') {
                    is_fp = true;
                } else if let Some(s) = t.ident() {
                    if let Some(n) = nullability(s) {
                        null = n;
                    } else if q.at_attr() {
                        q.attrs_into(attrs);
                        continue;
                    } else if !QUALIFIERS.contains(&s) {
                        name = Some(s.to_owned());
                    }
                } else if t.is('(') {
                    // `(*(^name)(…))`: nested; give up on the inner shape.
                    q.group('(', ')');
                    continue;
                }
                q.i += 1;
            }
            let params = if self.peek_is('(') {
                let inner = self.group('(', ')');
                param_list(inner)
            } else {
                Vec::new()
            };
            ty = CType::Block {
                ret: Box::new(ty),
                params,
                null,
                func_ptr: is_fp && !is_block,
            };
            if !is_block && !is_fp {
                // `(name)(…)`: a parenthesized function name.
                if let CType::Block { func_ptr, .. } = &mut ty {
                    *func_ptr = true;
                }
            }
        } else if let Some(s) = self.peek_ident()
            && (!is_macro_like(s)
                || self.peek_at(1).is_some_and(|t| t.is('(') || t.is('[')) && !self.at_attr())
        {
            name = Some(s.to_owned());
            self.i += 1;
        }
        // Function parameters.
        if name.is_some() && self.peek_is('(') && !matches!(ty, CType::Block { .. }) {
            let inner = self.group('(', ')');
            ty = CType::Block {
                ret: Box::new(ty),
                params: param_list(inner),
                null: Null::Unspecified,
                func_ptr: true,
            };
        }
        while self.peek_is('[') {
            self.group('[', ']');
            ty = CType::Array(Box::new(ty));
        }
        // Trailing nullability on a block: `void (^name)(…) _Nullable` is rare; attributes.
        self.attrs_into(attrs);
        (ty, name)
    }
}

fn is_c_scalar_word(w: &str) -> bool {
    matches!(
        w,
        "unsigned" | "signed" | "long" | "short" | "int" | "char" | "double" | "float"
    )
}

/// `NSArray<NSString *>` has generic arguments; `id<P>`, `NSObject<P>` protocol lists.
/// Without a `*`, arguments are still generic when they name known non-protocol shapes such
/// as `ObjectType` parameters; protocol lists are the default.
fn is_generic_class_arg(inner: &[Tok]) -> bool {
    inner.iter().filter_map(Tok::ident).any(|s| {
        matches!(
            s,
            "ObjectType"
                | "KeyType"
                | "ValueType"
                | "id"
                | "UnitType"
                | "ItemIdentifierType"
                | "SectionIdentifierType"
                | "AnchorType"
        )
    })
}

fn normalize_c_words(words: &[String]) -> String {
    if words.len() == 1 {
        return words[0].clone();
    }
    let unsigned = words.iter().any(|w| w == "unsigned");
    let longs = words.iter().filter(|w| *w == "long").count();
    let base = if words.iter().any(|w| w == "char") {
        "char"
    } else if words.iter().any(|w| w == "short") {
        "short"
    } else if words.iter().any(|w| w == "double") {
        "double"
    } else if longs >= 2 {
        "long long"
    } else if longs == 1 {
        "long"
    } else {
        "int"
    };
    if unsigned {
        format!("unsigned {base}")
    } else {
        base.to_owned()
    }
}

fn param_list(toks: &[Tok]) -> Vec<CParam> {
    let mut out = Vec::new();
    for part in split_top(toks, ',') {
        if part.iter().all(|t| t.is('.')) {
            continue;
        }
        let mut a = Attrs::default();
        if let Some((ty, name, _)) = parse_declaration(part, &mut a) {
            if ty.base() == Some("void") && matches!(ty, CType::Named { .. }) && name.is_none() {
                continue;
            }
            out.push(CParam { name, ty });
        }
    }
    out
}

/// Folds one attribute macro into `attrs`.
pub(super) fn apply_attr(name: &str, args: &[Tok], attrs: &mut Attrs) {
    let text = || -> String {
        args.iter()
            .map(|t| match t {
                Tok::Str(s) => s.trim_matches('"').to_owned(),
                t => t.text(),
            })
            .collect()
    };
    match name {
        "NS_SWIFT_NAME" | "CF_SWIFT_NAME" => attrs.swift_name = Some(text()),
        "NS_SWIFT_ASYNC_NAME" => attrs.async_name = Some(text()),
        "NS_SWIFT_DISABLE_ASYNC" => attrs.no_async = true,
        "NS_REFINED_FOR_SWIFT" | "CF_REFINED_FOR_SWIFT" => attrs.refined = true,
        "NS_UNAVAILABLE"
        | "UNAVAILABLE_ATTRIBUTE"
        | "__unavailable"
        | "NS_SWIFT_UNAVAILABLE"
        | "CF_SWIFT_UNAVAILABLE"
        | "NS_SWIFT_UNAVAILABLE_FROM_ASYNC_NOT_REALLY" => attrs.unavailable = true,
        "NS_TYPED_ENUM"
        | "NS_TYPED_EXTENSIBLE_ENUM"
        | "NS_STRING_ENUM"
        | "NS_EXTENSIBLE_STRING_ENUM"
        | "CF_TYPED_ENUM"
        | "CF_TYPED_EXTENSIBLE_ENUM"
        | "CF_STRING_ENUM"
        | "CF_EXTENSIBLE_STRING_ENUM"
        | "NS_SWIFT_BRIDGED_TYPEDEF" => attrs.typed_enum = name != "NS_SWIFT_BRIDGED_TYPEDEF",
        "__attribute__" | "__attribute" => {
            let t = text();
            if t.contains("unavailable") {
                attrs.unavailable = true;
            }
            if let Some(i) = t.find("swift_name(") {
                let rest = &t[i + "swift_name(".len()..];
                attrs.swift_name = Some(rest.split(')').next().unwrap_or("").to_owned());
            }
            if t.contains("swift_private") {
                attrs.refined = true;
            }
        }
        _ => avail::apply(name, args, &mut attrs.avail),
    }
}
