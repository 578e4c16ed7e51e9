//! Go.

use tree_sitter::Node;
use verity_facts::{InheritanceKind, SymbolKind, TypeRole};

use crate::walker::{Lang, Resolve, Scope, ScopeKind, Walk, base_name, named_children, unquote};

pub(crate) struct Go;

type Entered = Option<(ScopeKind, String, bool)>;

fn exported(name: &str) -> bool {
    name.chars().next().is_some_and(char::is_uppercase)
}

fn parameters(w: &mut Walk<'_>, f: Node<'_>) {
    let Some(params) = f.child_by_field_name("parameters") else {
        return;
    };
    for p in named_children(params) {
        if !matches!(
            p.kind(),
            "parameter_declaration" | "variadic_parameter_declaration"
        ) {
            continue;
        }
        let Some(ty) = w.field_text(p, "type") else {
            continue;
        };
        let mut cursor = p.walk();
        let names: Vec<Node<'_>> = p.children_by_field_name("name", &mut cursor).collect();
        for name in names {
            let name = w.text(name);
            w.typed(name, ty, TypeRole::Parameter, p);
        }
    }
}

fn function(w: &mut Walk<'_>, n: Node<'_>, name: &str) -> Entered {
    let ret = w.field_text(n, "result").map(str::to_string);
    let body = n.child_by_field_name("body");
    let scope = w.function(n, name, n.start_byte(), body, ret, exported(name))?;
    w.scopes.push(Scope::temporary(scope.1.clone()));
    parameters(w, n);
    w.scopes.pop();
    Some(scope)
}

impl Lang for Go {
    fn enter(&mut self, w: &mut Walk<'_>, n: Node<'_>) -> Entered {
        match n.kind() {
            "function_declaration" => {
                let name = w.field_text(n, "name")?;
                if exported(name) {
                    w.export(name, n);
                }
                function(w, n, name)
            }
            "method_declaration" => {
                let name = w.field_text(n, "name")?;
                let receiver = n
                    .child_by_field_name("receiver")
                    .and_then(|r| named_children(r).find(|p| p.kind() == "parameter_declaration"))
                    .and_then(|p| p.child_by_field_name("type"))
                    .map(|t| base_name(w.text(t)))
                    .unwrap_or_default();
                // The method's container is its receiver type, whatever scope it appears in.
                w.scopes.push(Scope::temporary(receiver.clone()));
                if let Some(s) = w.scopes.last_mut() {
                    s.kind = ScopeKind::Type;
                }
                let scope = function(w, n, name);
                w.scopes.pop();
                scope
            }
            "type_spec" | "type_alias" => {
                let name = w.field_text(n, "name")?;
                let ty = n.child_by_field_name("type");
                let kind = match ty.map(|t| t.kind()) {
                    _ if n.kind() == "type_alias" => SymbolKind::TypeAlias,
                    Some("struct_type") => SymbolKind::Struct,
                    Some("interface_type") => SymbolKind::Interface,
                    _ => SymbolKind::TypeAlias,
                };
                if w.at_top() && exported(name) {
                    w.export(name, n);
                }
                w.type_symbol(n, name, kind, exported(name));
                if let Some(t) = ty {
                    self.members(w, name, t);
                }
                None
            }
            "var_spec" | "const_spec" => {
                let ty = w.field_text(n, "type");
                let mut cursor = n.walk();
                let names: Vec<Node<'_>> = n.children_by_field_name("name", &mut cursor).collect();
                for name_node in names {
                    let name = w.text(name_node);
                    if let Some(ty) = ty {
                        w.typed(name, ty, TypeRole::Variable, n);
                    }
                    if w.at_top() {
                        w.type_symbol(n, name, SymbolKind::Constant, exported(name));
                        if exported(name) {
                            w.export(name, n);
                        }
                    }
                }
                None
            }
            "import_spec" => {
                let path = unquote(w.field_text(n, "path")?);
                w.import(path, Vec::new(), n, Resolve::Go);
                None
            }
            "call_expression" => {
                let f = n.child_by_field_name("function")?;
                let name = match f.kind() {
                    "identifier" => w.text(f),
                    "selector_expression" => w.field_text(f, "field")?,
                    _ => return None,
                };
                w.call(name, n);
                None
            }
            _ => None,
        }
    }
}

impl Go {
    /// A struct's fields (typed; embedded ones extend it) or an interface's embedded interfaces.
    fn members(&mut self, w: &mut Walk<'_>, name: &str, t: Node<'_>) {
        w.scopes.push(Scope::temporary(name.to_string()));
        match t.kind() {
            "struct_type" => {
                for list in named_children(t).filter(|c| c.kind() == "field_declaration_list") {
                    for f in named_children(list).filter(|c| c.kind() == "field_declaration") {
                        let Some(ty) = w.field_text(f, "type") else {
                            continue;
                        };
                        let mut cursor = f.walk();
                        let names: Vec<Node<'_>> =
                            f.children_by_field_name("name", &mut cursor).collect();
                        if names.is_empty() {
                            w.inherit(name, ty, InheritanceKind::Extends, f);
                        }
                        for field in names {
                            let field = w.text(field);
                            w.typed(field, ty, TypeRole::Field, f);
                        }
                    }
                }
            }
            "interface_type" => {
                for e in named_children(t).filter(|c| c.kind() == "type_elem") {
                    let parent = w.text(e);
                    if !parent.contains('|') && !parent.starts_with('~') {
                        w.inherit(name, parent, InheritanceKind::Extends, e);
                    }
                }
            }
            _ => {}
        }
        w.scopes.pop();
    }
}
