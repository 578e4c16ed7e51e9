//! The `.swiftinterface` reader: every public declaration of one module's textual interface,
//! with its availability and — what the facts-only symbol graphs lack — its types.
//!
//! The interface is parsed with tree-sitter-swift. Only facts are kept: names, kinds,
//! availability, normalized type spellings ([`TypeRef`]); never bodies, doc comments or
//! declaration text. Titles follow `swift symbolgraph-extract`
//! (`navigationDestination(for:destination:)`, `==(_:_:)`, `subscript(_:)`), and so does the
//! availability inheritance from enclosing types and extensions (see `inherit`).

use std::collections::BTreeSet;

use tree_sitter::{Node, Parser};

use crate::index::{
    Availability, Decl, DeclSet, Param, Relation, SymbolKind, TypeRef, split_top_level,
};
use crate::version::{Domain, Version};

/// Module names a type spelling may be qualified with even when the interface does not
/// import them (they come in through re-exports).
const ALWAYS_MODULES: &[&str] = &[
    "Swift",
    "_Concurrency",
    "_StringProcessing",
    "Foundation",
    "ObjectiveC",
    "Darwin",
    "Dispatch",
    "CoreFoundation",
    "CoreGraphics",
];

/// Reads one module's interface. Type spellings are normalized with the module itself, the
/// modules it imports and the standard library's modules as the module names to drop.
pub fn read_interface(module: &str, text: &str) -> DeclSet {
    read_interface_in(module, text, &BTreeSet::new())
}

/// [`read_interface`], with more module names to drop from qualified types (the SDK's
/// module set).
pub(crate) fn read_interface_in(module: &str, text: &str, modules: &BTreeSet<String>) -> DeclSet {
    let text = prepare(text);
    let mut known: BTreeSet<String> = modules.clone();
    known.insert(module.to_owned());
    known.extend(ALWAYS_MODULES.iter().map(|s| (*s).to_owned()));
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        if let Some(i) = words.iter().position(|w| *w == "import")
            && let Some(m) = words.get(i + 1)
        {
            // `import struct Foundation.URL` → Foundation
            let m = if matches!(
                *m,
                "struct" | "class" | "enum" | "protocol" | "func" | "var" | "typealias"
            ) {
                words.get(i + 2).copied().unwrap_or("")
            } else {
                m
            };
            if let Some(first) = m.split('.').next()
                && !first.is_empty()
            {
                known.insert(first.to_owned());
            }
        }
    }
    let mut r = Reader {
        module: module.to_owned(),
        src: text.as_bytes(),
        known,
        set: DeclSet::default(),
    };
    r.set.modules.insert(module.to_owned());
    r.set.sources.insert("swiftinterface".to_owned());
    let mut parser = Parser::new();
    let lang: tree_sitter::Language = tree_sitter_swift::LANGUAGE.into();
    if parser.set_language(&lang).is_err() {
        return r.set;
    }
    let Some(tree) = parser.parse(&text, None) else {
        return r.set;
    };
    let ctx = Ctx::default();
    r.body(tree.root_node(), &ctx);
    r.set
}

/// Prepares an interface for tree-sitter-swift, line by line: keeps the first branch of every
/// `#if` block (`#if compiler(>=5.3) && $Feature`, as the compiler that wrote the interface
/// reads it), drops the bodies of inlinable functions and accessors (code is not API and
/// trips the grammar), gives body-less functions an empty body (the grammar wants one outside
/// protocols) and drops every attribute but `@available` and `@_spi`.
pub fn prepare(text: &str) -> String {
    // per open `#if`: whether the current branch is kept
    let mut stack: Vec<bool> = Vec::new();
    let mut out = String::with_capacity(text.len());
    // inside a dropped body: its brace depth
    let mut skipping = 0i32;
    for line in text.lines() {
        let t = line.trim_start();
        let directive = if t.starts_with("#if") {
            stack.push(true);
            true
        } else if t.starts_with("#elseif") || t.starts_with("#else") {
            if let Some(top) = stack.last_mut() {
                *top = false;
            }
            true
        } else if t.starts_with("#endif") {
            stack.pop();
            true
        } else {
            false
        };
        if directive || stack.iter().any(|k| !k) {
            out.push('\n');
            continue;
        }
        if skipping > 0 {
            skipping += brace_balance(line);
            out.push('\n');
            continue;
        }
        // ownership spellings the grammar does not know (the types stay the same)
        let cleaned;
        let line = if line.contains("__") {
            cleaned = line
                .replace("__owned ", "")
                .replace("__shared ", "")
                .replace("__consuming ", "");
            cleaned.as_str()
        } else {
            line
        };
        let (kept_attrs, rest) = split_attributes(line);
        let keyword = decl_keyword(rest);
        let code = strip_comment(rest).trim_end();
        out.push_str(&kept_attrs);
        match keyword {
            Some("func" | "init" | "deinit") if code.ends_with('{') => {
                out.push_str(code);
                out.push('}');
                skipping = brace_balance(code);
            }
            Some("func" | "init" | "deinit") if !code.ends_with('}') && !code.ends_with(',') => {
                out.push_str(code);
                out.push_str(" {}");
            }
            Some("var" | "let" | "subscript") if code.ends_with('{') => {
                out.push_str(code);
                out.push_str(" get }");
                skipping = brace_balance(code);
            }
            _ if rest.trim_start().starts_with("associatedtype ") => {
                // the grammar does not take a `where` clause here (constraints are not kept)
                out.push_str(rest.split(" where ").next().unwrap_or(rest));
            }
            _ => out.push_str(rest),
        }
        out.push('\n');
    }
    out
}

/// `{` minus `}` outside string literals and comments.
fn brace_balance(line: &str) -> i32 {
    let mut n = 0;
    let mut in_str = false;
    let mut prev = ' ';
    for c in strip_comment(line).chars() {
        match c {
            '"' if prev != '\\' => in_str = !in_str,
            '{' if !in_str => n += 1,
            '}' if !in_str => n -= 1,
            _ => {}
        }
        prev = c;
    }
    n
}

/// The line without a trailing `// comment` (outside string literals).
fn strip_comment(line: &str) -> &str {
    let mut in_str = false;
    let mut prev = ' ';
    for (i, c) in line.char_indices() {
        match c {
            '"' if prev != '\\' => in_str = !in_str,
            '/' if !in_str && prev == '/' => return &line[..i - 1],
            _ => {}
        }
        prev = c;
    }
    line
}

/// Splits the leading attributes off a line: the `@available` / `@_spi` ones (kept, with a
/// trailing space) and the rest of the line.
fn split_attributes(line: &str) -> (String, &str) {
    let mut kept = String::new();
    let indent = line.len() - line.trim_start().len();
    kept.push_str(&line[..indent]);
    let mut rest = &line[indent..];
    while let Some(r) = rest.strip_prefix('@') {
        let end = r
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
            .unwrap_or(r.len());
        let name = &r[..end];
        let mut len = 1 + end;
        let after = &r[end..];
        if after.starts_with('(') {
            let mut depth = 0i32;
            let mut in_str = false;
            let mut prev = ' ';
            for (i, c) in after.char_indices() {
                match c {
                    '"' if prev != '\\' => in_str = !in_str,
                    '(' if !in_str => depth += 1,
                    ')' if !in_str => {
                        depth -= 1;
                        if depth == 0 {
                            len += i + 1;
                            break;
                        }
                    }
                    _ => {}
                }
                prev = c;
            }
            if depth != 0 {
                // an attribute continued on the next line: leave the line alone
                return (String::new(), line);
            }
        }
        if name == "available" || name == "_spi" {
            kept.push_str(&rest[..len]);
            kept.push(' ');
        }
        rest = rest[len..].trim_start();
    }
    (kept, rest)
}

/// Words that may precede the keyword of a declaration.
const DECL_MODIFIERS: &[&str] = &[
    "public",
    "open",
    "internal",
    "package",
    "private",
    "fileprivate",
    "static",
    "class",
    "final",
    "override",
    "required",
    "convenience",
    "mutating",
    "nonmutating",
    "dynamic",
    "optional",
    "nonisolated",
    "isolated",
    "prefix",
    "postfix",
    "infix",
    "__consuming",
    "consuming",
    "borrowing",
    "distributed",
    "lazy",
    "weak",
    "unowned",
];

/// The declaration keyword of a line without its attributes: `func`, `init` (also
/// `init?` / `init!` / `init<`), `deinit`, `var`, `let`, `subscript`.
fn decl_keyword(rest: &str) -> Option<&'static str> {
    let mut rest = rest;
    loop {
        rest = rest.trim_start();
        let word_end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        let word = &rest[..word_end];
        let next = rest[word_end..].chars().next();
        if DECL_MODIFIERS.contains(&word) && word != "class"
            || word == "class" && next.is_some_and(char::is_whitespace) && {
                let after = rest[word_end..].trim_start();
                ["func", "var", "let", "subscript"]
                    .iter()
                    .any(|k| after.starts_with(k))
                    || DECL_MODIFIERS.iter().any(|k| after.starts_with(k))
            }
        {
            rest = &rest[word_end..];
            // `nonisolated(unsafe)`, `private(set)`
            if rest.starts_with('(')
                && let Some(close) = rest.find(')')
            {
                rest = &rest[close + 1..];
            }
            continue;
        }
        return match word {
            "func" if next.is_some_and(char::is_whitespace) => Some("func"),
            "init" if matches!(next, Some('(' | '?' | '!' | '<')) => Some("init"),
            "deinit" => Some("deinit"),
            "var" if next.is_some_and(char::is_whitespace) => Some("var"),
            "let" if next.is_some_and(char::is_whitespace) => Some("let"),
            "subscript" if matches!(next, Some('(' | '<')) => Some("subscript"),
            _ => None,
        };
    }
}

/// What a declaration inherits from the declarations around it.
#[derive(Clone, Default)]
struct Ctx {
    path: Vec<String>,
    availability: Vec<Availability>,
    in_protocol: bool,
    /// `public extension X { … }`: members are public without saying so.
    public_members: bool,
    /// Inside an extension: the extended type's module when it is qualified, and whether
    /// the extension has a `where` clause.
    in_extension: bool,
    constrained: bool,
    /// Inside an enum: its cases are as public as it is.
    in_enum: bool,
}

struct Reader<'a> {
    module: String,
    src: &'a [u8],
    known: BTreeSet<String>,
    set: DeclSet,
}

/// The attributes and modifiers of a declaration.
#[derive(Default)]
struct Mods {
    public: bool,
    is_static: bool,
    spi: bool,
    availability: Vec<Availability>,
    /// `@available(*, unavailable)` and friends, kept to drop unavailable conformances.
    unavailable_everywhere: bool,
}

impl Reader<'_> {
    fn text(&self, n: Node<'_>) -> &str {
        n.utf8_text(self.src).unwrap_or("")
    }

    fn norm(&self, s: &str) -> Option<String> {
        let s = s.trim();
        let s = s.strip_suffix("...").unwrap_or(s).trim();
        if s.is_empty() {
            return None;
        }
        TypeRef::parse_normalized(s, &|m| self.known.contains(m)).map(|t| t.to_string())
    }

    fn norm_ref(&self, s: &str) -> Option<TypeRef> {
        TypeRef::parse_normalized(s.trim(), &|m| self.known.contains(m))
    }

    /// The declarations directly inside `node` (a source file or a type's body).
    fn body(&mut self, node: Node<'_>, ctx: &Ctx) {
        let mut c = node.walk();
        let children: Vec<Node<'_>> = node.named_children(&mut c).collect();
        for ch in children {
            if ch.kind() == "ERROR" {
                // a region the grammar could not parse: the declarations inside it still count
                self.body(ch, ctx);
            } else {
                self.decl(ch, ctx);
            }
        }
    }

    fn mods(&self, node: Node<'_>) -> Mods {
        let mut m = Mods::default();
        let mut c = node.walk();
        for ch in node.children(&mut c) {
            match ch.kind() {
                "modifiers" => {
                    let mut c2 = ch.walk();
                    for x in ch.children(&mut c2) {
                        self.modifier(x, &mut m);
                    }
                }
                "attribute" => self.modifier(ch, &mut m),
                _ => {}
            }
        }
        m
    }

    fn modifier(&self, x: Node<'_>, m: &mut Mods) {
        let t = self.text(x);
        match x.kind() {
            "visibility_modifier" if t.starts_with("public") || t.starts_with("open") => {
                m.public = true;
            }
            "property_modifier" if t == "static" || t == "class" => {
                m.is_static = true;
            }
            "attribute" => {
                if t.starts_with("@_spi") {
                    m.spi = true;
                } else if let Some(args) = t
                    .strip_prefix("@available")
                    .map(str::trim_start)
                    .and_then(|a| a.strip_prefix('('))
                    .and_then(|a| a.trim_end().strip_suffix(')'))
                {
                    let before = m.availability.len();
                    parse_available(args, &mut m.availability);
                    if m.availability[before..]
                        .iter()
                        .any(|a| a.domain == Some(Domain::Any) && a.unavailable)
                    {
                        m.unavailable_everywhere = true;
                    }
                }
            }
            _ => {}
        }
    }

    fn field_text(&self, n: Node<'_>, field: &str) -> Option<String> {
        n.child_by_field_name(field)
            .map(|x| self.text(x).to_owned())
    }

    fn push(&mut self, ctx: &Ctx, name: String, kind: SymbolKind, mods: &Mods) -> usize {
        let mut path = ctx.path.clone();
        path.push(name);
        let d = Decl {
            module: self.module.clone(),
            path,
            kind,
            availability: inherit(&mods.availability, &ctx.availability),
            constrained: ctx.constrained,
            ..Decl::default()
        };
        self.set.decls.push(d);
        self.set.decls.len() - 1
    }

    /// Whether a member declaration with these modifiers is public API.
    fn visible(&self, mods: &Mods, ctx: &Ctx) -> bool {
        !mods.spi && (mods.public || ctx.in_protocol || ctx.public_members)
    }

    fn decl(&mut self, n: Node<'_>, ctx: &Ctx) {
        match n.kind() {
            "class_declaration" | "protocol_declaration" => self.type_decl(n, ctx),
            "function_declaration" | "protocol_function_declaration" => {
                let mods = self.mods(n);
                if !self.visible(&mods, ctx) {
                    return;
                }
                self.function(n, ctx, &mods);
            }
            "init_declaration" => {
                let mods = self.mods(n);
                if !self.visible(&mods, ctx) || ctx.path.is_empty() {
                    return;
                }
                let params = self.params(n, false);
                let title = titled("init", &params);
                let i = self.push(ctx, title, SymbolKind::Init, &mods);
                let mut c = n.walk();
                let failable = n
                    .children(&mut c)
                    .take_while(|x| x.kind() != "parameter" && x.kind() != "(")
                    .any(|x| x.kind() == "?");
                let (throws, is_async) = self.effects(n);
                let generics = self.generics(n);
                let d = &mut self.set.decls[i];
                d.failable = failable;
                d.ty = Some(if failable { "Self?" } else { "Self" }.into());
                d.params = Some(params);
                d.throws = throws;
                d.is_async = is_async;
                d.generics = generics;
            }
            "property_declaration" | "protocol_property_declaration" => {
                let mods = self.mods(n);
                if !self.visible(&mods, ctx) {
                    return;
                }
                let kind = if ctx.path.is_empty() {
                    SymbolKind::Var
                } else if mods.is_static {
                    SymbolKind::TypeProperty
                } else {
                    SymbolKind::Property
                };
                let mut c = n.walk();
                let mut names: Vec<(String, Option<String>)> = Vec::new();
                for ch in n.children(&mut c) {
                    match ch.kind() {
                        "pattern" => {
                            let name = ch
                                .child_by_field_name("bound_identifier")
                                .map_or_else(|| self.text(ch).to_owned(), |b| self.text(b).into());
                            names.push((name.trim_matches('`').to_owned(), None));
                        }
                        "type_annotation" => {
                            if let Some(last) = names.last_mut() {
                                last.1 = ch
                                    .child_by_field_name("type")
                                    .and_then(|t| self.norm(self.text(t)));
                            }
                        }
                        _ => {}
                    }
                }
                for (name, ty) in names {
                    if name.starts_with('_') || name.is_empty() {
                        continue;
                    }
                    let i = self.push(ctx, name, kind, &mods);
                    self.set.decls[i].ty = ty;
                }
            }
            "subscript_declaration" => {
                let mods = self.mods(n);
                if !self.visible(&mods, ctx) {
                    return;
                }
                let params = self.params(n, true);
                let title = titled("subscript", &params);
                let kind = if mods.is_static {
                    SymbolKind::TypeSubscript
                } else {
                    SymbolKind::Subscript
                };
                let i = self.push(ctx, title, kind, &mods);
                let ret = n
                    .child_by_field_name("return_type")
                    .and_then(|t| self.norm(self.text(t)));
                let generics = self.generics(n);
                let d = &mut self.set.decls[i];
                d.params = Some(params);
                d.ty = ret;
                d.generics = generics;
            }
            "typealias_declaration" => {
                let mods = self.mods(n);
                if !self.visible(&mods, ctx) {
                    return;
                }
                let Some(name) = self.field_text(n, "name") else {
                    return;
                };
                if name.starts_with('_') {
                    return;
                }
                let ty = n
                    .child_by_field_name("value")
                    .and_then(|t| self.norm(self.text(t)));
                let generics = self.generics(n);
                let i = self.push(ctx, name, SymbolKind::Typealias, &mods);
                self.set.decls[i].ty = ty;
                self.set.decls[i].generics = generics;
            }
            "associatedtype_declaration" => {
                let mods = self.mods(n);
                if !ctx.in_protocol || mods.spi {
                    return;
                }
                let Some(name) = self.field_text(n, "name") else {
                    return;
                };
                if !name.starts_with('_') {
                    self.push(ctx, name, SymbolKind::AssociatedType, &mods);
                }
            }
            "enum_entry" => {
                let mods = self.mods(n);
                if !ctx.in_enum || mods.spi {
                    return;
                }
                let mut c = n.walk();
                let mut cases: Vec<(String, Option<Vec<Param>>)> = Vec::new();
                for (k, ch) in n.children(&mut c).enumerate() {
                    match n.field_name_for_child(k as u32) {
                        Some("name") => cases.push((self.text(ch).trim_matches('`').into(), None)),
                        Some("data_contents") => {
                            if let Some(last) = cases.last_mut() {
                                last.1 = Some(self.payload(ch));
                            }
                        }
                        _ => {}
                    }
                }
                for (name, payload) in cases {
                    if name.starts_with('_') {
                        continue;
                    }
                    let title = match &payload {
                        Some(p) => titled(&name, p),
                        None => name,
                    };
                    let i = self.push(ctx, title, SymbolKind::EnumCase, &mods);
                    self.set.decls[i].params = payload;
                }
            }
            "macro_declaration" => {
                let mods = self.mods(n);
                if !self.visible(&mods, ctx) {
                    return;
                }
                let mut c = n.walk();
                let Some(name) = n
                    .children(&mut c)
                    .find(|x| x.kind() == "simple_identifier")
                    .map(|x| self.text(x).to_owned())
                else {
                    return;
                };
                if name.starts_with('_') {
                    return;
                }
                let params = self.params(n, false);
                let title = titled(&name, &params);
                let i = self.push(ctx, title, SymbolKind::Macro, &mods);
                let generics = self.generics(n);
                let mut c = n.walk();
                let ret = n
                    .children(&mut c)
                    .skip_while(|x| x.kind() != "->")
                    .find(|x| x.is_named() && is_type_node(x.kind()))
                    .and_then(|t| self.norm(self.text(t)));
                let d = &mut self.set.decls[i];
                d.ty = ret.or_else(|| Some("Void".to_owned()));
                d.params = Some(params);
                d.generics = generics;
            }
            _ => {}
        }
    }

    fn function(&mut self, n: Node<'_>, ctx: &Ctx, mods: &Mods) {
        let Some(name_node) = n.child_by_field_name("name") else {
            return;
        };
        let name = self.text(name_node).trim_matches('`').to_owned();
        if name.starts_with('_') || name.is_empty() {
            return;
        }
        let operator = !name
            .chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_');
        let mut params = self.params(n, false);
        if operator {
            // operators take no argument labels
            for p in &mut params {
                p.label = "_".to_owned();
            }
        }
        let title = titled(&name, &params);
        let kind = if operator {
            SymbolKind::Operator
        } else if ctx.path.is_empty() {
            SymbolKind::Func
        } else if mods.is_static {
            SymbolKind::TypeMethod
        } else {
            SymbolKind::Method
        };
        let i = self.push(ctx, title, kind, mods);
        let ret = match n.child_by_field_name("return_type") {
            Some(t) => self.norm(self.text(t)),
            None => Some("Void".to_owned()),
        };
        let (throws, is_async) = self.effects(n);
        let generics = self.generics(n);
        let d = &mut self.set.decls[i];
        d.params = Some(params);
        d.ty = ret;
        d.throws = throws;
        d.is_async = is_async;
        d.generics = generics;
    }

    /// `throws` / `rethrows` / `throws(E)` and `async` after the parameter list.
    fn effects(&self, n: Node<'_>) -> (bool, bool) {
        let mut throws = false;
        let mut is_async = false;
        let mut c = n.walk();
        for ch in n.children(&mut c) {
            match ch.kind() {
                "throws" | "throws_clause" => throws = true,
                "async" => is_async = true,
                _ => {}
            }
        }
        (throws, is_async)
    }

    /// The parameters of a function, initializer, subscript or macro, with their argument
    /// labels (`_` when none; a subscript's parameters are unlabeled unless they say so).
    fn params(&self, n: Node<'_>, subscript: bool) -> Vec<Param> {
        let mut out: Vec<Param> = Vec::new();
        let mut c = n.walk();
        for (k, ch) in n.children(&mut c).enumerate() {
            if ch.kind() == "parameter" {
                let external = ch
                    .child_by_field_name("external_name")
                    .map(|x| self.text(x).trim_matches('`').to_owned());
                let internal = ch
                    .child_by_field_name("name")
                    .map(|x| self.text(x).trim_matches('`').to_owned());
                let label = match (external, subscript) {
                    (Some(e), _) => e,
                    (None, true) => "_".to_owned(),
                    (None, false) => internal.unwrap_or_else(|| "_".to_owned()),
                };
                // everything after the label's colon: attributes (`@escaping`) and
                // modifiers are separate nodes of the grammar
                let ty = self
                    .text(ch)
                    .split_once(':')
                    .and_then(|(_, t)| self.norm(t))
                    .unwrap_or_default();
                out.push(Param {
                    label,
                    ty,
                    default: false,
                });
            } else if n.field_name_for_child(k as u32) == Some("default_value")
                && let Some(last) = out.last_mut()
            {
                last.default = true;
            }
        }
        out
    }

    /// An enum case's payload: `(Int, label: String)`.
    fn payload(&self, n: Node<'_>) -> Vec<Param> {
        let mut out: Vec<Param> = Vec::new();
        let mut c = n.walk();
        let mut label: Option<String> = None;
        for (k, ch) in n.children(&mut c).enumerate() {
            match (n.field_name_for_child(k as u32), ch.kind()) {
                (None, "simple_identifier") => {
                    label = Some(self.text(ch).trim_matches('`').to_owned());
                }
                (Some("name"), kind) if is_type_node(kind) => {
                    out.push(Param {
                        label: label
                            .take()
                            .filter(|l| !l.is_empty())
                            .unwrap_or_else(|| "_".to_owned()),
                        ty: self.norm(self.text(ch)).unwrap_or_default(),
                        default: false,
                    });
                }
                (None, "=") => {
                    if let Some(last) = out.last_mut() {
                        last.default = true;
                    }
                }
                _ => {}
            }
        }
        out
    }

    /// `T: Decodable, U == Int`: the generic parameters with their constraints, then the
    /// `where` clause's other requirements.
    fn generics(&self, n: Node<'_>) -> Option<String> {
        let mut params: Vec<(String, Vec<String>)> = Vec::new();
        let mut extra: Vec<String> = Vec::new();
        let mut c = n.walk();
        for ch in n.children(&mut c) {
            match ch.kind() {
                "type_parameters" => {
                    let mut c2 = ch.walk();
                    for tp in ch.named_children(&mut c2) {
                        match tp.kind() {
                            "type_parameter" => {
                                let t = self.text(tp);
                                let (name, bound) = match t.split_once(':') {
                                    Some((a, b)) => (a.trim(), self.norm(b)),
                                    None => (t.trim(), None),
                                };
                                let name = name.trim_start_matches("each ").to_owned();
                                params.push((name, bound.into_iter().collect()));
                            }
                            "type_constraints" => {
                                self.constraints(tp, &mut params, &mut extra);
                            }
                            _ => {}
                        }
                    }
                }
                "type_constraints" => self.constraints(ch, &mut params, &mut extra),
                _ => {}
            }
        }
        let mut parts: Vec<String> = params
            .into_iter()
            .map(|(name, bounds)| {
                if bounds.is_empty() {
                    name
                } else {
                    format!("{name}: {}", bounds.join(" & "))
                }
            })
            .collect();
        parts.extend(extra);
        (!parts.is_empty()).then(|| parts.join(", "))
    }

    fn constraints(
        &self,
        n: Node<'_>,
        params: &mut [(String, Vec<String>)],
        extra: &mut Vec<String>,
    ) {
        let mut c = n.walk();
        for tc in n.named_children(&mut c) {
            if tc.kind() != "type_constraint" {
                continue;
            }
            let Some(inner) = tc.named_child(0) else {
                continue;
            };
            let lhs = inner
                .child_by_field_name("constrained_type")
                .map(|x| self.text(x).trim().to_owned())
                .unwrap_or_default();
            let lhs = self.norm(&lhs).unwrap_or(lhs);
            match inner.kind() {
                "inheritance_constraint" => {
                    let Some(rhs) = inner
                        .child_by_field_name("inherits_from")
                        .and_then(|x| self.norm(self.text(x)))
                    else {
                        continue;
                    };
                    if let Some(p) = params.iter_mut().find(|p| p.0 == lhs) {
                        p.1.push(rhs);
                    } else {
                        extra.push(format!("{lhs}: {rhs}"));
                    }
                }
                "equality_constraint" => {
                    if let Some(rhs) = inner
                        .child_by_field_name("must_equal")
                        .and_then(|x| self.norm(self.text(x)))
                    {
                        extra.push(format!("{lhs} == {rhs}"));
                    }
                }
                _ => {}
            }
        }
    }

    /// A struct, class, enum, actor, protocol or extension, and what it declares.
    fn type_decl(&mut self, n: Node<'_>, ctx: &Ctx) {
        let mods = self.mods(n);
        let kw = n
            .child_by_field_name("declaration_kind")
            .map(|k| self.text(k).to_owned())
            .unwrap_or_default();
        let Some(name_node) = n.child_by_field_name("name") else {
            return;
        };
        let raw_name = self.text(name_node).to_owned();
        let mut inner = Ctx {
            path: ctx.path.clone(),
            availability: inherit(&mods.availability, &ctx.availability),
            ..Ctx::default()
        };
        let type_path: String;
        if kw == "extension" {
            if mods.spi {
                return;
            }
            // `extension Swift.Array<Int>`: the path without module and arguments
            let Some(t) = self.norm_ref(&raw_name) else {
                return;
            };
            let Some(p) = t.path() else {
                return;
            };
            if p.split('.').any(|c| c.starts_with('_')) {
                return;
            }
            inner.path = p.split('.').map(str::to_owned).collect();
            inner.in_extension = true;
            inner.public_members = mods.public;
            inner.constrained = n
                .children(&mut n.walk())
                .any(|c| c.kind() == "type_constraints");
            inner.in_enum = true;
            type_path = p;
        } else {
            if !mods.public && !ctx.in_protocol && !ctx.public_members || mods.spi {
                return;
            }
            let name = raw_name.trim_matches('`').to_owned();
            if name.starts_with('_') {
                return;
            }
            let kind = match kw.as_str() {
                "struct" => SymbolKind::Struct,
                "class" | "actor" => SymbolKind::Class,
                "enum" => SymbolKind::Enum,
                _ if n.kind() == "protocol_declaration" => SymbolKind::Protocol,
                _ => return,
            };
            let i = self.push(ctx, name.clone(), kind, &mods);
            let generics = self.generics(n);
            let d = &mut self.set.decls[i];
            d.actor = kw == "actor";
            d.generics = generics;
            inner.path.push(name);
            inner.in_protocol = kind == SymbolKind::Protocol;
            inner.in_enum = kind == SymbolKind::Enum;
            type_path = inner.path.join(".");
        }
        // conformances and superclasses
        if !mods.unavailable_everywhere {
            let mut c = n.walk();
            for ch in n.children(&mut c) {
                if ch.kind() != "inheritance_specifier" {
                    continue;
                }
                let Some(t) = ch
                    .child_by_field_name("inherits_from")
                    .and_then(|x| self.norm_ref(self.text(x)))
                else {
                    continue;
                };
                let targets = match t {
                    TypeRef::Composition(ts) => ts,
                    t => vec![t],
                };
                for t in targets {
                    if let Some(target) = t.path()
                        && target != type_path
                    {
                        self.set.relations.push(Relation {
                            source: type_path.clone(),
                            target,
                            inherits: false,
                        });
                    }
                }
            }
        }
        if let Some(body) = n.child_by_field_name("body") {
            self.body(body, &inner);
        }
    }
}

fn is_type_node(kind: &str) -> bool {
    matches!(
        kind,
        "user_type"
            | "array_type"
            | "dictionary_type"
            | "optional_type"
            | "function_type"
            | "tuple_type"
            | "metatype"
            | "opaque_type"
            | "existential_type"
            | "protocol_composition_type"
            | "type_modifiers"
            | "bracket_qualified_type"
            | "type_pack_expansion"
            | "type_parameter_pack"
            | "suppressed_constraint"
    )
}

/// `name(a:_:)` from the parameters' labels.
fn titled(name: &str, params: &[Param]) -> String {
    let mut s = String::with_capacity(name.len() + 2 + params.len() * 4);
    s.push_str(name);
    s.push('(');
    for p in params {
        s.push_str(&p.label);
        s.push(':');
    }
    s.push(')');
    s
}

/// The string of a `"…"` literal (simple escapes resolved).
fn string_literal(s: &str) -> Option<String> {
    let inner = s.trim().strip_prefix('"')?.strip_suffix('"')?;
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some(c) => out.push(c),
                None => {}
            }
        } else {
            out.push(c);
        }
    }
    Some(out)
}

/// The domain of an `@available` platform name; app-extension domains are not kept.
fn domain(name: &str) -> Option<Domain> {
    Domain::from_graph(name).or_else(|| match name {
        "swift" => Some(Domain::Swift),
        "iOSApplicationExtension"
        | "macOSApplicationExtension"
        | "macCatalystApplicationExtension"
        | "tvOSApplicationExtension"
        | "watchOSApplicationExtension"
        | "visionOSApplicationExtension" => None,
        _ => Domain::from_source(name),
    })
}

/// One `@available(…)`'s arguments, in any of its three forms, added to `out` (entries of a
/// domain already there are merged).
fn parse_available(args: &str, out: &mut Vec<Availability>) {
    let parts: Vec<&str> = split_top_level(args, ',')
        .into_iter()
        .map(str::trim)
        .collect();
    let Some(first) = parts.first() else {
        return;
    };
    let long = parts.len() > 1
        && !first.contains(' ')
        && parts[1..].iter().all(|p| {
            let key = p.split(':').next().unwrap_or("").trim();
            matches!(
                key,
                "introduced"
                    | "deprecated"
                    | "obsoleted"
                    | "message"
                    | "renamed"
                    | "unavailable"
                    | "noasync"
            )
        });
    if long {
        let Some(dom) = domain(first) else {
            return;
        };
        let mut a = Availability {
            domain: Some(dom),
            ..Availability::default()
        };
        for p in &parts[1..] {
            let (key, value) = match p.split_once(':') {
                Some((k, v)) => (k.trim(), Some(v.trim())),
                None => (p.trim(), None),
            };
            match (key, value) {
                ("introduced", Some(v)) => a.introduced = Version::parse(v),
                ("deprecated", Some(v)) => a.deprecated = Version::parse(v),
                ("deprecated", None) => a.unconditionally_deprecated = true,
                ("obsoleted", Some(v)) => a.obsoleted = Version::parse(v),
                ("unavailable", None) => a.unavailable = true,
                ("message", Some(v)) => a.message = string_literal(v).filter(|m| !m.is_empty()),
                ("renamed", Some(v)) => a.renamed = string_literal(v).filter(|m| !m.is_empty()),
                _ => {}
            }
        }
        merge_into(out, a);
    } else {
        // shorthand: `iOS 13.0, macOS 10.15, *`
        for p in parts {
            let mut w = p.split_whitespace();
            let (Some(name), Some(v)) = (w.next(), w.next()) else {
                continue;
            };
            if let (Some(dom), Some(v)) = (domain(name), Version::parse(v)) {
                merge_into(
                    out,
                    Availability {
                        domain: Some(dom),
                        introduced: Some(v),
                        ..Availability::default()
                    },
                );
            }
        }
    }
}

fn merge_into(out: &mut Vec<Availability>, a: Availability) {
    if let Some(e) = out.iter_mut().find(|e| e.domain == a.domain) {
        e.introduced = a.introduced.or(e.introduced);
        e.deprecated = a.deprecated.or(e.deprecated);
        e.obsoleted = a.obsoleted.or(e.obsoleted);
        e.unavailable |= a.unavailable;
        e.unconditionally_deprecated |= a.unconditionally_deprecated;
        if a.message.is_some() {
            e.message = a.message;
        }
        if a.renamed.is_some() {
            e.renamed = a.renamed;
        }
    } else {
        out.push(a);
    }
}

/// A declaration's availability given its enclosing declaration's, with
/// `swift symbolgraph-extract`'s rules: the child's `introduced` wins, the earlier
/// `deprecated` / `obsoleted` wins, unconditional deprecation and unavailability propagate,
/// a domain only the parent names is inherited, and `message` / `renamed` are not inherited.
pub(crate) fn inherit(own: &[Availability], parent: &[Availability]) -> Vec<Availability> {
    let mut out: Vec<Availability> = own.to_vec();
    for p in parent {
        let min = |a: Option<Version>, b: Option<Version>| match (a, b) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        if let Some(e) = out.iter_mut().find(|e| e.domain == p.domain) {
            e.introduced = e.introduced.or(p.introduced);
            e.deprecated = min(e.deprecated, p.deprecated);
            e.obsoleted = min(e.obsoleted, p.obsoleted);
            e.unavailable |= p.unavailable;
            e.unconditionally_deprecated |= p.unconditionally_deprecated;
        } else {
            out.push(Availability {
                message: None,
                renamed: None,
                ..p.clone()
            });
        }
    }
    out
}
