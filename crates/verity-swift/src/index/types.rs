//! Swift type spellings, as the index stores them: parsed from what an interface, a header
//! translation or a symbol graph's fragments write (`Swift.Optional<SwiftUI.Font.Weight>`,
//! `@escaping (Swift.Int) async throws -> ()`), and printed in one normalized form
//! (`Font.Weight?`, `(Int) async throws -> Void`): module qualifiers dropped, sugar for
//! optionals, arrays and dictionaries, attributes and ownership modifiers left out (they do
//! not change which members a value has).
//!
//! The analyzer parses the stored strings back with the same parser, so a type is one
//! [`TypeRef`] whichever source it came from.

use std::fmt;

/// One component of a named type: `Font`, `Binding<Bool>`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct NameComp {
    pub name: String,
    pub args: Vec<TypeRef>,
}

/// A Swift type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TypeRef {
    /// `Font.Weight`, `Binding<Bool>`, `Self`, `T` (a generic parameter is a name too).
    Named(Vec<NameComp>),
    /// `T?` (and `T!`).
    Optional(Box<TypeRef>),
    /// `[T]`.
    Array(Box<TypeRef>),
    /// `[K: V]`.
    Dictionary(Box<TypeRef>, Box<TypeRef>),
    /// `(a: A, B)`; the empty tuple is `Void`.
    Tuple(Vec<(Option<String>, TypeRef)>),
    /// `(A, B) async throws -> R`.
    Function {
        params: Vec<TypeRef>,
        ret: Box<TypeRef>,
        is_async: bool,
        throws: bool,
    },
    /// `some P`.
    Opaque(Box<TypeRef>),
    /// `any P`.
    Existential(Box<TypeRef>),
    /// `A & B`.
    Composition(Vec<TypeRef>),
    /// `T.Type` / `T.Protocol`.
    Metatype(Box<TypeRef>),
}

impl TypeRef {
    /// A named type of one component without arguments.
    pub fn named(name: &str) -> TypeRef {
        TypeRef::Named(vec![NameComp {
            name: name.to_owned(),
            args: Vec::new(),
        }])
    }

    /// Parses a spelling; `None` when it is not a type this parser understands.
    pub fn parse(s: &str) -> Option<TypeRef> {
        let toks = lex(s)?;
        let mut p = Parser { toks, at: 0 };
        let t = p.ty(0)?;
        (p.at == p.toks.len()).then_some(t)
    }

    /// Parses and normalizes: module qualifiers removed (`is_module` says which first
    /// components are module names), `Optional<T>` / `Array<T>` / `Dictionary<K, V>` /
    /// `Void` sugared.
    pub fn parse_normalized(s: &str, is_module: &dyn Fn(&str) -> bool) -> Option<TypeRef> {
        TypeRef::parse(s).map(|t| t.normalized(is_module))
    }

    /// The normalized form (see [`TypeRef::parse_normalized`]).
    pub fn normalized(self, is_module: &dyn Fn(&str) -> bool) -> TypeRef {
        let n = |t: TypeRef| t.normalized(is_module);
        let b = |t: TypeRef| Box::new(t.normalized(is_module));
        match self {
            TypeRef::Named(mut comps) => {
                while comps.len() > 1 && comps[0].args.is_empty() && is_module(&comps[0].name) {
                    comps.remove(0);
                }
                let mut comps: Vec<NameComp> = comps
                    .into_iter()
                    .map(|c| NameComp {
                        name: c.name,
                        args: c.args.into_iter().map(n).collect(),
                    })
                    .collect();
                if comps.len() == 1 {
                    let c = &mut comps[0];
                    match (c.name.as_str(), c.args.len()) {
                        ("Optional" | "ImplicitlyUnwrappedOptional", 1) => {
                            return TypeRef::Optional(Box::new(c.args.remove(0)));
                        }
                        ("Array", 1) => return TypeRef::Array(Box::new(c.args.remove(0))),
                        ("Dictionary", 2) => {
                            let k = c.args.remove(0);
                            let v = c.args.remove(0);
                            return TypeRef::Dictionary(Box::new(k), Box::new(v));
                        }
                        ("Void", 0) => return TypeRef::Tuple(Vec::new()),
                        _ => {}
                    }
                }
                TypeRef::Named(comps)
            }
            TypeRef::Optional(t) => TypeRef::Optional(b(*t)),
            TypeRef::Array(t) => TypeRef::Array(b(*t)),
            TypeRef::Dictionary(k, v) => TypeRef::Dictionary(b(*k), b(*v)),
            TypeRef::Tuple(items) => {
                if items.len() == 1 && items[0].0.is_none() {
                    let (_, t) = items.into_iter().next().unwrap_or((None, TypeRef::void()));
                    return n(t);
                }
                TypeRef::Tuple(items.into_iter().map(|(l, t)| (l, n(t))).collect())
            }
            TypeRef::Function {
                params,
                ret,
                is_async,
                throws,
            } => TypeRef::Function {
                params: params.into_iter().map(n).collect(),
                ret: b(*ret),
                is_async,
                throws,
            },
            TypeRef::Opaque(t) => TypeRef::Opaque(b(*t)),
            TypeRef::Existential(t) => TypeRef::Existential(b(*t)),
            TypeRef::Composition(ts) => TypeRef::Composition(ts.into_iter().map(n).collect()),
            TypeRef::Metatype(t) => TypeRef::Metatype(b(*t)),
        }
    }

    /// `Void`.
    pub fn void() -> TypeRef {
        TypeRef::Tuple(Vec::new())
    }

    /// The dotted path of a named type without generic arguments (`Font.Weight` for
    /// `Font.Weight`, `Binding` for `Binding<Bool>`).
    pub fn path(&self) -> Option<String> {
        match self {
            TypeRef::Named(comps) => Some(
                comps
                    .iter()
                    .map(|c| c.name.as_str())
                    .collect::<Vec<_>>()
                    .join("."),
            ),
            _ => None,
        }
    }

    /// The generic arguments of the last component of a named type.
    pub fn args(&self) -> &[TypeRef] {
        match self {
            TypeRef::Named(comps) => comps.last().map_or(&[], |c| c.args.as_slice()),
            _ => &[],
        }
    }

    /// The type without one level of optionality.
    pub fn unwrapped(&self) -> &TypeRef {
        match self {
            TypeRef::Optional(t) => t,
            t => t,
        }
    }
}

/// `(T)` is `T` (a one-element tuple without a label is a parenthesized type).
fn ungroup(t: TypeRef) -> TypeRef {
    match t {
        TypeRef::Tuple(mut items) if items.len() == 1 && items[0].0.is_none() => {
            items.pop().map_or(TypeRef::Tuple(Vec::new()), |(_, t)| t)
        }
        t => t,
    }
}

impl fmt::Display for TypeRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TypeRef::Named(comps) => {
                for (i, c) in comps.iter().enumerate() {
                    if i > 0 {
                        f.write_str(".")?;
                    }
                    f.write_str(&c.name)?;
                    if !c.args.is_empty() {
                        f.write_str("<")?;
                        for (j, a) in c.args.iter().enumerate() {
                            if j > 0 {
                                f.write_str(", ")?;
                            }
                            write!(f, "{a}")?;
                        }
                        f.write_str(">")?;
                    }
                }
                Ok(())
            }
            TypeRef::Optional(t) => match **t {
                TypeRef::Function { .. }
                | TypeRef::Composition(_)
                | TypeRef::Opaque(_)
                | TypeRef::Existential(_) => write!(f, "({t})?"),
                _ => write!(f, "{t}?"),
            },
            TypeRef::Array(t) => write!(f, "[{t}]"),
            TypeRef::Dictionary(k, v) => write!(f, "[{k}: {v}]"),
            TypeRef::Tuple(items) if items.is_empty() => f.write_str("Void"),
            TypeRef::Tuple(items) => {
                f.write_str("(")?;
                for (i, (l, t)) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    if let Some(l) = l {
                        write!(f, "{l}: ")?;
                    }
                    write!(f, "{t}")?;
                }
                f.write_str(")")
            }
            TypeRef::Function {
                params,
                ret,
                is_async,
                throws,
            } => {
                f.write_str("(")?;
                for (i, p) in params.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{p}")?;
                }
                f.write_str(")")?;
                if *is_async {
                    f.write_str(" async")?;
                }
                if *throws {
                    f.write_str(" throws")?;
                }
                write!(f, " -> {ret}")
            }
            TypeRef::Opaque(t) => write!(f, "some {t}"),
            TypeRef::Existential(t) => write!(f, "any {t}"),
            TypeRef::Composition(ts) => {
                for (i, t) in ts.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" & ")?;
                    }
                    write!(f, "{t}")?;
                }
                Ok(())
            }
            TypeRef::Metatype(t) => match **t {
                TypeRef::Named(_) | TypeRef::Tuple(_) | TypeRef::Array(_) => {
                    write!(f, "{t}.Type")
                }
                _ => write!(f, "({t}).Type"),
            },
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Ident(String),
    Punct(char),
    Arrow,
    /// `@attribute` (with its parenthesized argument skipped).
    Attr,
}

/// Splits a type spelling into tokens; attributes become [`Tok::Attr`] (their arguments
/// dropped); `None` on characters no type contains.
fn lex(s: &str) -> Option<Vec<Tok>> {
    let chars: Vec<char> = s.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c == '-' && chars.get(i + 1) == Some(&'>') {
            out.push(Tok::Arrow);
            i += 2;
        } else if c == '@' {
            i += 1;
            while i < chars.len() && (chars[i].is_alphanumeric() || matches!(chars[i], '_' | '.')) {
                i += 1;
            }
            // an attribute's argument: `@convention(c)`, `@_opaqueReturnTypeOf("…", 0)`
            if chars.get(i) == Some(&'(') {
                let mut depth = 0;
                while i < chars.len() {
                    match chars[i] {
                        '(' => depth += 1,
                        ')' => {
                            depth -= 1;
                            if depth == 0 {
                                i += 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                    i += 1;
                }
            }
            out.push(Tok::Attr);
        } else if c.is_alphanumeric() || c == '_' || c == '$' || c == '`' {
            let start = i;
            while i < chars.len()
                && (chars[i].is_alphanumeric() || matches!(chars[i], '_' | '$' | '`'))
            {
                i += 1;
            }
            let word: String = chars[start..i].iter().filter(|&&c| c != '`').collect();
            out.push(Tok::Ident(word));
        } else if "<>()[],:.?!&=~".contains(c) {
            out.push(Tok::Punct(c));
            i += 1;
        } else {
            return None;
        }
    }
    Some(out)
}

struct Parser {
    toks: Vec<Tok>,
    at: usize,
}

/// Words before a type that do not change it.
const MODIFIERS: &[&str] = &[
    "inout",
    "__owned",
    "__shared",
    "consuming",
    "borrowing",
    "sending",
    "isolated",
    "each",
    "repeat",
    "__isolated",
    "nonisolated",
];

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.at)
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(&Tok::Punct(c)) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn eat_word(&mut self, w: &str) -> bool {
        if matches!(self.peek(), Some(Tok::Ident(x)) if x == w) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    /// A type, with `&` compositions and function arrows.
    fn ty(&mut self, depth: u32) -> Option<TypeRef> {
        if depth > 64 {
            return None;
        }
        loop {
            match self.peek() {
                Some(Tok::Attr) => self.at += 1,
                Some(Tok::Ident(w)) if MODIFIERS.contains(&w.as_str()) => {
                    // `each T` and `inout T` are modifiers only when a type follows
                    if matches!(
                        self.toks.get(self.at + 1),
                        Some(Tok::Ident(_) | Tok::Punct('(' | '[')) | Some(Tok::Attr)
                    ) {
                        self.at += 1;
                    } else {
                        break;
                    }
                }
                _ => break,
            }
        }
        let first = self.composed(depth)?;
        // function type: `(A, B) async throws -> R` (the parameter list parsed as a tuple)
        let mut is_async = false;
        let mut throws = false;
        let save = self.at;
        loop {
            if self.eat_word("async") {
                is_async = true;
            } else if self.eat_word("throws") || self.eat_word("rethrows") {
                throws = true;
                // typed throws: `throws(E)`
                if self.peek() == Some(&Tok::Punct('(')) {
                    self.at += 1;
                    self.ty(depth + 1)?;
                    if !self.eat(')') {
                        return None;
                    }
                }
            } else {
                break;
            }
        }
        if self.peek() == Some(&Tok::Arrow) {
            self.at += 1;
            let ret = self.ty(depth + 1)?;
            let params = match first {
                TypeRef::Tuple(items) => items.into_iter().map(|(_, t)| t).collect(),
                other => vec![other],
            };
            return Some(TypeRef::Function {
                params,
                ret: Box::new(ret),
                is_async,
                throws,
            });
        }
        self.at = save;
        Some(first)
    }

    fn composed(&mut self, depth: u32) -> Option<TypeRef> {
        let first = self.postfix(depth)?;
        if self.peek() != Some(&Tok::Punct('&')) {
            return Some(first);
        }
        let mut parts = vec![first];
        while self.eat('&') {
            parts.push(self.postfix(depth + 1)?);
        }
        Some(TypeRef::Composition(parts))
    }

    fn postfix(&mut self, depth: u32) -> Option<TypeRef> {
        let mut t = self.primary(depth)?;
        loop {
            if self.eat('?') || self.eat('!') {
                // `((A) -> B)?`: the parentheses only group
                t = TypeRef::Optional(Box::new(ungroup(t)));
            } else if self.peek() == Some(&Tok::Punct('.'))
                && matches!(self.toks.get(self.at + 1), Some(Tok::Ident(w)) if w == "Type" || w == "Protocol")
            {
                self.at += 2;
                t = TypeRef::Metatype(Box::new(ungroup(t)));
            } else if self.peek() == Some(&Tok::Punct('.')) && !matches!(t, TypeRef::Named(_)) {
                // a member type of a non-nominal (`(T).Element`): keep as unknown path
                return None;
            } else {
                return Some(t);
            }
        }
    }

    fn primary(&mut self, depth: u32) -> Option<TypeRef> {
        match self.peek()?.clone() {
            Tok::Punct('~') => {
                // `~Copyable`: a suppressed conformance, a constraint rather than a type
                self.at += 1;
                self.primary(depth + 1)
            }
            Tok::Ident(w) if w == "some" || w == "any" => {
                self.at += 1;
                let inner = self.composed(depth + 1)?;
                Some(if w == "some" {
                    TypeRef::Opaque(Box::new(inner))
                } else {
                    TypeRef::Existential(Box::new(inner))
                })
            }
            Tok::Ident(_) => self.named(depth),
            Tok::Punct('[') => {
                self.at += 1;
                let k = self.ty(depth + 1)?;
                if self.eat(':') {
                    let v = self.ty(depth + 1)?;
                    if !self.eat(']') {
                        return None;
                    }
                    Some(TypeRef::Dictionary(Box::new(k), Box::new(v)))
                } else if self.eat(']') {
                    Some(TypeRef::Array(Box::new(k)))
                } else {
                    None
                }
            }
            Tok::Punct('(') => {
                self.at += 1;
                let mut items = Vec::new();
                if self.eat(')') {
                    return Some(TypeRef::Tuple(items));
                }
                loop {
                    // `label: T` or `_ name: T` (parameter lists of function types)
                    let mut label = None;
                    if let (Some(Tok::Ident(a)), Some(Tok::Punct(':'))) =
                        (self.toks.get(self.at), self.toks.get(self.at + 1))
                    {
                        label = Some(a.clone());
                        self.at += 2;
                    } else if let (
                        Some(Tok::Ident(a)),
                        Some(Tok::Ident(_)),
                        Some(Tok::Punct(':')),
                    ) = (
                        self.toks.get(self.at),
                        self.toks.get(self.at + 1),
                        self.toks.get(self.at + 2),
                    ) {
                        label = (a != "_").then(|| a.clone());
                        self.at += 3;
                    }
                    let t = self.ty(depth + 1)?;
                    // a default in a parameter list of a stored function type is not a type
                    items.push((label, t));
                    // variadic `T...`
                    while self.eat('.') {}
                    if self.eat(')') {
                        break;
                    }
                    if !self.eat(',') {
                        return None;
                    }
                }
                Some(TypeRef::Tuple(items))
            }
            _ => None,
        }
    }

    fn named(&mut self, depth: u32) -> Option<TypeRef> {
        let mut comps = Vec::new();
        loop {
            let Some(Tok::Ident(name)) = self.peek().cloned() else {
                return None;
            };
            self.at += 1;
            let mut args = Vec::new();
            if self.eat('<') {
                loop {
                    args.push(self.ty(depth + 1)?);
                    if self.eat('>') {
                        break;
                    }
                    if !self.eat(',') {
                        return None;
                    }
                }
            }
            comps.push(NameComp { name, args });
            if self.peek() == Some(&Tok::Punct('.'))
                && matches!(self.toks.get(self.at + 1), Some(Tok::Ident(w)) if w != "Type" && w != "Protocol")
            {
                self.at += 1;
                continue;
            }
            return Some(TypeRef::Named(comps));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn norm(s: &str) -> String {
        let modules = ["Swift", "SwiftUI", "Foundation", "_Concurrency"];
        TypeRef::parse_normalized(s, &|m| modules.contains(&m))
            .map(|t| t.to_string())
            .unwrap_or_else(|| "<none>".into())
    }

    #[test]
    fn normalizes_interface_spellings() {
        assert_eq!(norm("Swift.Optional<SwiftUI.Font.Weight>"), "Font.Weight?");
        assert_eq!(norm("SwiftUI.Font.Weight?"), "Font.Weight?");
        assert_eq!(norm("Swift.Array<Swift.String>"), "[String]");
        assert_eq!(norm("[Swift.String : Any]"), "[String: Any]");
        assert_eq!(
            norm("@escaping @Sendable (Swift.Int) async throws -> ()"),
            "(Int) async throws -> Void"
        );
        assert_eq!(norm("some SwiftUI.View"), "some View");
        assert_eq!(norm("any Swift.Error"), "any Error");
        assert_eq!(norm("(any Swift.Error)?"), "(any Error)?");
        assert_eq!(norm("Swift.Void"), "Void");
        assert_eq!(norm("SwiftUI.Binding<Swift.Bool>"), "Binding<Bool>");
        assert_eq!(norm("T.Type"), "T.Type");
        assert_eq!(norm("inout Swift.String"), "String");
        assert_eq!(
            norm("(_ data: Foundation.Data, response: Foundation.URLResponse)"),
            "(Data, response: URLResponse)"
        );
        assert_eq!(norm("Swift.Codable & Swift.Hashable"), "Codable & Hashable");
        assert_eq!(norm("(Swift.Int)"), "Int");
        assert_eq!(
            norm("@_Concurrency.MainActor @escaping () -> Swift.Void"),
            "() -> Void"
        );
        assert_eq!(
            norm("() throws(CancellationError) -> Int"),
            "() throws -> Int"
        );
        assert_eq!(norm("Swift.String..."), "<none>");
        assert_eq!(norm("ImplicitlyUnwrappedOptional<Int>"), "Int?");
        assert_eq!(norm("Int!"), "Int?");
        assert_eq!(norm("#garbage"), "<none>");
        assert_eq!(norm("Foo<"), "<none>");
    }

    #[test]
    fn parentheses_only_group() {
        // an optional closure type: the optional of a function, not of a one-element tuple
        let t = TypeRef::parse("((UIAlertAction) -> Void)?").expect("parses");
        assert!(matches!(t.unwrapped(), TypeRef::Function { .. }), "{t:?}");
        assert_eq!(t.to_string(), "((UIAlertAction) -> Void)?");
        let m = TypeRef::parse("(Int).Type").expect("parses");
        assert_eq!(m, TypeRef::Metatype(Box::new(TypeRef::named("Int"))));
    }

    #[test]
    fn accessors() {
        let t = TypeRef::parse("Binding<Bool>?").expect("parses");
        assert_eq!(t.unwrapped().path().as_deref(), Some("Binding"));
        assert_eq!(t.unwrapped().args(), &[TypeRef::named("Bool")]);
        let deep = "[".repeat(200) + "Int" + &"]".repeat(200);
        assert!(TypeRef::parse(&deep).is_none());
    }
}
