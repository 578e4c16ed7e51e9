//! Swift (tree-sitter-swift 0.7).

use tree_sitter::Node;
use verity_facts::{InheritanceKind, SymbolKind, TypeRole};

use crate::walker::{
    Lang, Resolve, Scope, ScopeKind, SwiftBases, Walk, base_name, line, named_children,
};

pub(crate) struct Swift;

type Entered = Option<(ScopeKind, String, bool)>;

/// `public` or `open`.
fn is_public(w: &Walk<'_>, n: Node<'_>) -> bool {
    named_children(n)
        .filter(|c| c.kind() == "modifiers")
        .flat_map(named_children)
        .any(|m| m.kind() == "visibility_modifier" && matches!(w.text(m), "public" | "open"))
}

fn parents(w: &Walk<'_>, n: Node<'_>) -> Vec<String> {
    named_children(n)
        .filter(|c| c.kind() == "inheritance_specifier")
        .filter_map(|c| c.child_by_field_name("inherits_from"))
        .map(|t| base_name(w.text(t)))
        .filter(|p| !p.is_empty())
        .collect()
}

impl Lang for Swift {
    fn enter(&mut self, w: &mut Walk<'_>, n: Node<'_>) -> Entered {
        match n.kind() {
            "class_declaration" => {
                let decl = w.field_text(n, "declaration_kind")?;
                let name = base_name(w.field_text(n, "name")?);
                let exported = is_public(w, n);
                let kind = match decl {
                    "class" | "actor" => Some(SymbolKind::Class),
                    "struct" => Some(SymbolKind::Struct),
                    "enum" => Some(SymbolKind::Enum),
                    _ => None,
                };
                if let Some(kind) = kind {
                    w.type_symbol(n, &name, kind, exported);
                    if w.at_top() && exported {
                        w.export(&name, n);
                    }
                }
                let ps = parents(w, n);
                if !ps.is_empty() {
                    w.out.swift_bases.push(SwiftBases {
                        child: name.clone(),
                        may_extend: matches!(decl, "class" | "actor"),
                        parents: ps,
                        line: line(n),
                    });
                }
                // An extension's members belong to the type it extends.
                let visible = exported || decl == "extension";
                Some((ScopeKind::Type, name, visible))
            }
            "protocol_declaration" => {
                let name = w.field_text(n, "name")?.to_string();
                let exported = is_public(w, n);
                w.type_symbol(n, &name, SymbolKind::Protocol, exported);
                if w.at_top() && exported {
                    w.export(&name, n);
                }
                for p in parents(w, n) {
                    w.inherit(&name, &p, InheritanceKind::Extends, n);
                }
                Some((ScopeKind::Type, name, exported))
            }
            "function_declaration" | "protocol_function_declaration" | "init_declaration" => {
                let name = if n.kind() == "init_declaration" {
                    "init"
                } else {
                    w.field_text(n, "name")?
                };
                let exported = is_public(w, n)
                    || (n.kind() == "protocol_function_declaration"
                        && w.innermost().is_some_and(|s| s.exported));
                if w.at_top() && exported {
                    w.export(name, n);
                }
                let ret = w.field_text(n, "return_type").map(str::to_string);
                let body = n.child_by_field_name("body");
                let scope = w.function(n, name, n.start_byte(), body, ret, exported)?;
                w.scopes.push(Scope::temporary(scope.1.clone()));
                for p in named_children(n).filter(|c| c.kind() == "parameter") {
                    if let (Some(pn), Some(ty)) = (w.field_text(p, "name"), w.field_text(p, "type"))
                    {
                        w.typed(pn, ty, TypeRole::Parameter, p);
                    }
                }
                w.scopes.pop();
                Some(scope)
            }
            "typealias_declaration" => {
                let name = base_name(w.field_text(n, "name")?);
                let exported = is_public(w, n);
                w.type_symbol(n, &name, SymbolKind::TypeAlias, exported);
                if w.at_top() && exported {
                    w.export(&name, n);
                }
                None
            }
            "property_declaration" | "protocol_property_declaration" => {
                let pattern = n.child_by_field_name("name")?;
                let ident = pattern
                    .child_by_field_name("bound_identifier")
                    .map_or_else(|| w.text(pattern), |b| w.text(b));
                let ty = named_children(n)
                    .find(|c| c.kind() == "type_annotation")
                    .and_then(|t| t.child_by_field_name("type"))
                    .map(|t| w.text(t));
                if let Some(ty) = ty {
                    let role = match w.innermost() {
                        Some(s) if s.kind == ScopeKind::Type => TypeRole::Field,
                        _ => TypeRole::Variable,
                    };
                    w.typed(ident, ty, role, n);
                }
                if w.at_top() && is_public(w, n) {
                    w.export(ident, n);
                }
                None
            }
            "import_declaration" => {
                let module = named_children(n)
                    .find(|c| c.kind() == "identifier")
                    .map(|c| w.text(c))?;
                w.import(module, Vec::new(), n, Resolve::None);
                None
            }
            "call_expression" => {
                let name = callee(w, named_children(n).next()?)?;
                w.call(name, n);
                None
            }
            _ => None,
        }
    }
}

/// The called name: tree-sitter-swift parses `a * f(x)` as a call of `a * f`, so the callee is
/// the rightmost operand of an operator expression, or the last member of `a.b.f`.
fn callee<'a>(w: &Walk<'a>, mut f: Node<'_>) -> Option<&'a str> {
    loop {
        match f.kind() {
            "simple_identifier" => return Some(w.text(f)),
            "navigation_expression" => {
                let s = f
                    .child_by_field_name("suffix")?
                    .child_by_field_name("suffix")?;
                return (s.kind() == "simple_identifier").then(|| w.text(s));
            }
            _ => f = f.child_by_field_name("rhs")?,
        }
    }
}
