//! TypeScript, TSX and JavaScript (one walker: the TypeScript grammars extend JavaScript's).

use tree_sitter::Node;
use verity_facts::{InheritanceKind, SymbolKind, TypeRole};

use crate::walker::{Lang, Resolve, ScopeKind, Walk, named_children, unquote};

pub(crate) struct Ts;

type Entered = Option<(ScopeKind, String, bool)>;

fn is_exported(n: Node<'_>) -> bool {
    n.parent().is_some_and(|p| p.kind() == "export_statement")
}

/// Private members: `private x()` or `#x()`.
fn is_private(w: &Walk<'_>, n: Node<'_>, name: &str) -> bool {
    name.starts_with('#')
        || named_children(n).any(|c| {
            c.kind() == "accessibility_modifier" && matches!(w.text(c), "private" | "protected")
        })
}

fn return_type(w: &Walk<'_>, n: Node<'_>) -> Option<String> {
    w.field_text(n, "return_type")
        .map(|t| t.trim().trim_start_matches(':').trim().to_string())
}

fn parameters(w: &mut Walk<'_>, f: Node<'_>) {
    let Some(params) = f.child_by_field_name("parameters") else {
        return;
    };
    for p in named_children(params) {
        if matches!(p.kind(), "required_parameter" | "optional_parameter")
            && let (Some(pat), Some(ty)) = (
                p.child_by_field_name("pattern"),
                p.child_by_field_name("type"),
            )
            && pat.kind() == "identifier"
        {
            let (name, ty) = (w.text(pat), w.text(ty));
            w.typed(name, ty, TypeRole::Parameter, p);
        }
    }
}

/// A function whose parameters' types belong to it: recorded with its scope pushed first.
fn function(
    w: &mut Walk<'_>,
    n: Node<'_>,
    name: &str,
    sig_start: usize,
    f: Node<'_>,
    exported: bool,
) -> Entered {
    let ret = return_type(w, f);
    let body = f.child_by_field_name("body");
    let scope = w.function(n, name, sig_start, body, ret, exported)?;
    // Parameters are typed inside the function: a temporary scope names it as their container.
    w.scopes
        .push(crate::walker::Scope::temporary(scope.1.clone()));
    parameters(w, f);
    w.scopes.pop();
    Some(scope)
}

fn member_exported(w: &Walk<'_>, n: Node<'_>, name: &str) -> bool {
    w.innermost().is_some_and(|s| s.exported) && !is_private(w, n, name)
}

impl Lang for Ts {
    fn enter(&mut self, w: &mut Walk<'_>, n: Node<'_>) -> Entered {
        match n.kind() {
            "function_declaration" | "generator_function_declaration" | "function_signature" => {
                let name = w.field_text(n, "name")?;
                let start = if is_exported(n) {
                    n.parent().map_or(n.start_byte(), |p| p.start_byte())
                } else {
                    n.start_byte()
                };
                function(w, n, name, start, n, is_exported(n))
            }
            "method_definition" | "method_signature" | "abstract_method_signature" => {
                let name = w.field_text(n, "name")?;
                let exported = member_exported(w, n, name);
                function(w, n, name, n.start_byte(), n, exported)
            }
            "class_declaration" | "abstract_class_declaration" | "class" => {
                let name = w.field_text(n, "name")?;
                let exported = is_exported(n);
                w.type_symbol(n, name, SymbolKind::Class, exported);
                for c in named_children(n).filter(|c| c.kind() == "class_heritage") {
                    for h in named_children(c) {
                        match h.kind() {
                            "extends_clause" => {
                                for v in named_children(h).filter(|v| v.kind() != "type_arguments")
                                {
                                    let parent = w.text(v);
                                    w.inherit(name, parent, InheritanceKind::Extends, h);
                                }
                            }
                            "implements_clause" => {
                                for v in named_children(h) {
                                    let parent = w.text(v);
                                    w.inherit(name, parent, InheritanceKind::Implements, h);
                                }
                            }
                            // JavaScript: `class A extends B` has the expression right here.
                            _ => {
                                let parent = w.text(h);
                                w.inherit(name, parent, InheritanceKind::Extends, c);
                            }
                        }
                    }
                }
                Some((ScopeKind::Type, name.to_string(), exported))
            }
            "interface_declaration" => {
                let name = w.field_text(n, "name")?;
                let exported = is_exported(n);
                w.type_symbol(n, name, SymbolKind::Interface, exported);
                for c in named_children(n).filter(|c| c.kind() == "extends_type_clause") {
                    for v in named_children(c) {
                        let parent = w.text(v);
                        w.inherit(name, parent, InheritanceKind::Extends, c);
                    }
                }
                Some((ScopeKind::Type, name.to_string(), exported))
            }
            "enum_declaration" => {
                let name = w.field_text(n, "name")?;
                w.type_symbol(n, name, SymbolKind::Enum, is_exported(n));
                None
            }
            "type_alias_declaration" => {
                let name = w.field_text(n, "name")?;
                w.type_symbol(n, name, SymbolKind::TypeAlias, is_exported(n));
                None
            }
            "public_field_definition" | "property_signature" => {
                let name = w.field_text(n, "name")?;
                if let Some(v) = n.child_by_field_name("value")
                    && matches!(v.kind(), "arrow_function" | "function_expression")
                {
                    let exported = member_exported(w, n, name);
                    return function(w, n, name, n.start_byte(), v, exported);
                }
                if let Some(ty) = w.field_text(n, "type") {
                    w.typed(name, ty, TypeRole::Field, n);
                }
                None
            }
            "variable_declarator" => self.declarator(w, n),
            "import_statement" => {
                let module = unquote(w.field_text(n, "source")?);
                let mut symbols = Vec::new();
                for c in named_children(n).filter(|c| c.kind() == "import_clause") {
                    for i in named_children(c) {
                        match i.kind() {
                            "identifier" => symbols.push(w.text(i).to_string()),
                            "namespace_import" => symbols.push("*".to_string()),
                            "named_imports" => {
                                for s in
                                    named_children(i).filter(|s| s.kind() == "import_specifier")
                                {
                                    if let Some(name) = w.field_text(s, "name") {
                                        symbols.push(unquote(name).to_string());
                                    }
                                }
                            }
                            _ => {}
                        }
                    }
                }
                w.import(module, symbols, n, resolve_kind(module));
                None
            }
            "export_statement" => {
                self.export_statement(w, n);
                None
            }
            "call_expression" => {
                let f = n.child_by_field_name("function")?;
                match f.kind() {
                    "identifier" => {
                        let name = w.text(f);
                        if name == "require"
                            && let Some(args) = n.child_by_field_name("arguments")
                            && let Some(first) = named_children(args).next()
                            && first.kind() == "string"
                        {
                            let module = unquote(w.text(first));
                            w.import(module, Vec::new(), n, resolve_kind(module));
                        }
                        w.call(name, n);
                    }
                    "member_expression" => {
                        if let Some(p) = w.field_text(f, "property") {
                            w.call(p, n);
                        }
                    }
                    _ => {}
                }
                None
            }
            "new_expression" => {
                let c = n.child_by_field_name("constructor")?;
                let name = match c.kind() {
                    "identifier" => w.text(c),
                    "member_expression" => w.field_text(c, "property")?,
                    _ => return None,
                };
                w.call(name, n);
                None
            }
            _ => None,
        }
    }
}

fn resolve_kind(module: &str) -> Resolve {
    if module.starts_with("./") || module.starts_with("../") || module == "." || module == ".." {
        Resolve::Js
    } else {
        Resolve::None
    }
}

impl Ts {
    fn declarator(&mut self, w: &mut Walk<'_>, n: Node<'_>) -> Entered {
        let name_node = n.child_by_field_name("name")?;
        if name_node.kind() != "identifier" {
            return None;
        }
        let name = w.text(name_node);
        let decl = n.parent()?;
        let exported = is_exported(decl);
        let stmt = if exported { decl.parent()? } else { decl };
        if let Some(ty) = w.field_text(n, "type") {
            w.typed(name, ty, TypeRole::Variable, n);
        }
        let value = n.child_by_field_name("value");
        if let Some(v) = value
            && matches!(
                v.kind(),
                "arrow_function" | "function_expression" | "generator_function"
            )
        {
            // `const f = (…) => …`: a function named `f`, its head from `const`.
            return function(w, n, name, stmt.start_byte(), v, exported);
        }
        if w.at_top()
            && !inside_function(decl)
            && matches!(decl.kind(), "lexical_declaration" | "variable_declaration")
        {
            w.type_symbol(n, name, SymbolKind::Constant, exported);
            // `const api = { get() {…} }`: the object's methods are `api.get`.
            if value.is_some_and(|v| v.kind() == "object") {
                return Some((ScopeKind::Type, name.to_string(), exported));
            }
        }
        None
    }

    fn export_statement(&mut self, w: &mut Walk<'_>, n: Node<'_>) {
        let source = w.field_text(n, "source").map(unquote);
        let is_default = (0..n.child_count())
            .filter_map(|i| n.child(i))
            .any(|c| c.kind() == "default");
        if let Some(d) = n.child_by_field_name("declaration") {
            if is_default {
                w.export("default", n);
                return;
            }
            match d.kind() {
                "lexical_declaration" | "variable_declaration" => {
                    for v in named_children(d).filter(|v| v.kind() == "variable_declarator") {
                        if let Some(name) = v.child_by_field_name("name") {
                            let name = w.text(name);
                            w.export(name, v);
                        }
                    }
                }
                _ => {
                    if let Some(name) = w.field_text(d, "name") {
                        w.export(name, n);
                    }
                }
            }
            return;
        }
        if is_default {
            w.export("default", n);
            return;
        }
        let mut imported = Vec::new();
        let mut any = false;
        for c in named_children(n) {
            match c.kind() {
                "export_clause" => {
                    for s in named_children(c).filter(|s| s.kind() == "export_specifier") {
                        let Some(name) = w.field_text(s, "name").map(unquote) else {
                            continue;
                        };
                        let shown = w.field_text(s, "alias").map_or(name, unquote);
                        w.export(shown, s);
                        imported.push(name.to_string());
                        any = true;
                    }
                }
                "namespace_export" => {
                    if let Some(id) = named_children(c).next() {
                        let id = unquote(w.text(id));
                        w.export(id, n);
                    }
                    imported.push("*".to_string());
                    any = true;
                }
                _ => {}
            }
        }
        if !any && source.is_some() {
            // `export * from './x'`
            w.export("*", n);
            imported.push("*".to_string());
        }
        if let Some(module) = source {
            w.import(module, imported, n, resolve_kind(module));
        }
    }
}

/// Is `n` inside a function body, named or not? Anonymous callbacks (`it("…", () => { const
/// parser = … })`) push no scope, but a constant inside one is a local, not a module symbol.
fn inside_function(n: Node<'_>) -> bool {
    let mut at = n.parent();
    while let Some(p) = at {
        if matches!(
            p.kind(),
            "arrow_function"
                | "function_expression"
                | "function_declaration"
                | "generator_function"
                | "generator_function_declaration"
                | "method_definition"
                | "class_static_block"
        ) {
            return true;
        }
        at = p.parent();
    }
    false
}
