//! Rust.

use tree_sitter::Node;
use verity_facts::{InheritanceKind, SymbolKind, TypeRole};

use crate::walker::{Lang, Resolve, Scope, ScopeKind, Walk, base_name, named_children};

pub(crate) struct Rust;

type Entered = Option<(ScopeKind, String, bool)>;

/// `pub` exactly (not `pub(crate)`, `pub(super)`).
fn is_pub(w: &Walk<'_>, n: Node<'_>) -> bool {
    named_children(n).any(|c| c.kind() == "visibility_modifier" && w.text(c) == "pub")
}

/// The name of an impl's type: `Parser` for `Parser<'a>`, `a::b::Parser`, `&Parser`.
fn type_name(w: &Walk<'_>, t: Node<'_>) -> String {
    match t.kind() {
        "generic_type" => t
            .child_by_field_name("type")
            .map_or_else(String::new, |c| type_name(w, c)),
        "scoped_type_identifier" => w.field_text(t, "name").unwrap_or("").to_string(),
        "reference_type" | "pointer_type" => t
            .child_by_field_name("type")
            .map_or_else(String::new, |c| type_name(w, c)),
        _ => base_name(w.text(t)),
    }
}

impl Lang for Rust {
    fn enter(&mut self, w: &mut Walk<'_>, n: Node<'_>) -> Entered {
        let kind = match n.kind() {
            "function_item" | "function_signature_item" => {
                let name = w.field_text(n, "name")?;
                let exported = is_pub(w, n)
                    || w.innermost()
                        .is_some_and(|s| s.kind == ScopeKind::Type && s.exported);
                if w.at_top() && is_pub(w, n) {
                    w.export(name, n);
                }
                let ret = w.field_text(n, "return_type").map(str::to_string);
                let body = n.child_by_field_name("body");
                let scope = w.function(n, name, n.start_byte(), body, ret, exported)?;
                w.scopes.push(Scope::temporary(scope.1.clone()));
                if let Some(params) = n.child_by_field_name("parameters") {
                    for p in named_children(params).filter(|p| p.kind() == "parameter") {
                        if let (Some(pat), Some(ty)) =
                            (w.field_text(p, "pattern"), w.field_text(p, "type"))
                        {
                            let pat = pat.trim_start_matches("mut ").trim();
                            w.typed(pat, ty, TypeRole::Parameter, p);
                        }
                    }
                }
                w.scopes.pop();
                return Some(scope);
            }
            "impl_item" => {
                let ty = n.child_by_field_name("type")?;
                let name = type_name(w, ty);
                if let Some(tr) = n.child_by_field_name("trait") {
                    let parent = w.text(tr);
                    w.inherit(&name, parent, InheritanceKind::Implements, n);
                }
                // Methods of an impl are exported by their own `pub`; an impl of a trait's
                // methods are as visible as the trait.
                let trait_impl = n.child_by_field_name("trait").is_some();
                return Some((ScopeKind::Type, name, trait_impl));
            }
            "trait_item" => {
                let name = w.field_text(n, "name")?;
                let exported = is_pub(w, n);
                if w.at_top() && exported {
                    w.export(name, n);
                }
                w.type_symbol(n, name, SymbolKind::Trait, exported);
                if let Some(bounds) = n.child_by_field_name("bounds") {
                    for b in named_children(bounds) {
                        if matches!(b.kind(), "lifetime" | "higher_ranked_trait_bound") {
                            continue;
                        }
                        let parent = w.text(b);
                        w.inherit(name, parent, InheritanceKind::Extends, b);
                    }
                }
                return Some((ScopeKind::Type, name.to_string(), true));
            }
            "struct_item" | "union_item" => SymbolKind::Struct,
            "enum_item" => SymbolKind::Enum,
            "type_item" => SymbolKind::TypeAlias,
            "const_item" | "static_item" => {
                let name = w.field_text(n, "name")?;
                if let Some(ty) = w.field_text(n, "type") {
                    w.typed(name, ty, TypeRole::Variable, n);
                }
                if w.scopes.iter().any(|s| s.kind == ScopeKind::Function) {
                    return None;
                }
                SymbolKind::Constant
            }
            "field_declaration" => {
                if let (Some(name), Some(ty)) = (w.field_text(n, "name"), w.field_text(n, "type")) {
                    w.typed(name, ty, TypeRole::Field, n);
                }
                return None;
            }
            "let_declaration" => {
                if let (Some(pat), Some(ty)) =
                    (n.child_by_field_name("pattern"), w.field_text(n, "type"))
                    && pat.kind() == "identifier"
                {
                    let pat = w.text(pat);
                    w.typed(pat, ty, TypeRole::Variable, n);
                }
                return None;
            }
            "mod_item" => {
                let name = w.field_text(n, "name")?;
                if w.at_top() && is_pub(w, n) {
                    w.export(name, n);
                }
                if n.child_by_field_name("body").is_none() {
                    w.import(name, Vec::new(), n, Resolve::RustMod);
                }
                return None;
            }
            "use_declaration" => {
                let arg = n.child_by_field_name("argument")?;
                let mut pairs: Vec<(String, Option<String>, Option<String>)> = Vec::new();
                flatten_use(w, arg, "", &mut pairs);
                let exported = w.at_top() && is_pub(w, n);
                let mut grouped: Vec<(String, Vec<String>)> = Vec::new();
                for (module, symbol, alias) in pairs {
                    if exported
                        && let Some(shown) = alias.as_ref().or(symbol.as_ref())
                        && shown != "*"
                        && shown != "self"
                    {
                        w.export(shown, n);
                    }
                    match grouped.iter_mut().find(|(m, _)| *m == module) {
                        Some((_, syms)) => syms.extend(symbol.filter(|s| s != "self")),
                        None => grouped
                            .push((module, symbol.into_iter().filter(|s| s != "self").collect())),
                    }
                }
                for (module, symbols) in grouped {
                    let resolve = if ["crate", "super", "self"]
                        .iter()
                        .any(|p| module == *p || module.starts_with(&format!("{p}::")))
                    {
                        Resolve::RustPath
                    } else {
                        Resolve::None
                    };
                    w.import(&module, symbols, n, resolve);
                }
                return None;
            }
            "call_expression" => {
                let f = n.child_by_field_name("function")?;
                if let Some(name) = callee(w, f) {
                    w.call(name, n);
                }
                return None;
            }
            _ => return None,
        };
        let name = w.field_text(n, "name")?;
        let exported = is_pub(w, n);
        if w.at_top() && exported {
            w.export(name, n);
        }
        w.type_symbol(n, name, kind, exported);
        matches!(kind, SymbolKind::Struct | SymbolKind::Enum)
            .then(|| (ScopeKind::Type, name.to_string(), exported))
    }
}

fn callee<'a>(w: &Walk<'a>, f: Node<'_>) -> Option<&'a str> {
    match f.kind() {
        "identifier" => Some(w.text(f)),
        "field_expression" => w.field_text(f, "field"),
        "scoped_identifier" => w.field_text(f, "name"),
        "generic_function" => callee(w, f.child_by_field_name("function")?),
        _ => None,
    }
}

fn join(prefix: &str, rest: &str) -> String {
    match (prefix.is_empty(), rest.is_empty()) {
        (true, _) => rest.to_string(),
        (_, true) => prefix.to_string(),
        _ => format!("{prefix}::{rest}"),
    }
}

/// A use tree as (module, symbol, alias) triples: `a::{b::C, d as e, f::*}` gives
/// (a::b, C), (a, d, e), (a::f, *).
fn flatten_use(
    w: &Walk<'_>,
    n: Node<'_>,
    prefix: &str,
    out: &mut Vec<(String, Option<String>, Option<String>)>,
) {
    match n.kind() {
        "scoped_identifier" => {
            let path = w.field_text(n, "path").unwrap_or("");
            let name = w.field_text(n, "name").unwrap_or("");
            out.push((join(prefix, path), Some(name.to_string()), None));
        }
        "identifier" | "crate" | "super" | "self" => {
            let name = w.text(n);
            if prefix.is_empty() {
                out.push((name.to_string(), None, None));
            } else {
                out.push((prefix.to_string(), Some(name.to_string()), None));
            }
        }
        "use_as_clause" => {
            let alias = w.field_text(n, "alias").map(str::to_string);
            if let Some(path) = n.child_by_field_name("path") {
                let mut inner = Vec::new();
                flatten_use(w, path, prefix, &mut inner);
                for (m, s, _) in inner {
                    out.push((m, s, alias.clone()));
                }
            }
        }
        "use_wildcard" => {
            let path = named_children(n).next().map_or("", |p| w.text(p));
            out.push((join(prefix, path), Some("*".to_string()), None));
        }
        "scoped_use_list" => {
            let path = w.field_text(n, "path").unwrap_or("");
            let prefix = join(prefix, path);
            if let Some(list) = n.child_by_field_name("list") {
                flatten_use(w, list, &prefix, out);
            }
        }
        "use_list" => {
            for c in named_children(n) {
                flatten_use(w, c, prefix, out);
            }
        }
        _ => {}
    }
}
