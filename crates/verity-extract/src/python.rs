//! Python.

use tree_sitter::Node;
use verity_facts::{InheritanceKind, SymbolKind, TypeRole};

use crate::walker::{Lang, Resolve, Scope, ScopeKind, Walk, line, named_children, unquote};

#[derive(Default)]
pub(crate) struct Python {
    /// `__all__` when the module lists it: (names, line).
    all: Option<Vec<(String, u32)>>,
    /// Top-level public names, in order: the exports when there is no `__all__`.
    public: Vec<(String, u32)>,
}

type Entered = Option<(ScopeKind, String, bool)>;

fn public(name: &str) -> bool {
    !name.starts_with('_')
}

impl Lang for Python {
    fn enter(&mut self, w: &mut Walk<'_>, n: Node<'_>) -> Entered {
        match n.kind() {
            "function_definition" => {
                let name = w.field_text(n, "name")?;
                let exported = public(name)
                    && w.scopes
                        .iter()
                        .all(|s| s.exported && s.kind == ScopeKind::Type);
                if w.at_top() && public(name) {
                    self.public.push((name.to_string(), line(n)));
                }
                let ret = w.field_text(n, "return_type").map(str::to_string);
                let body = n.child_by_field_name("body");
                let scope = w.function(n, name, n.start_byte(), body, ret, exported)?;
                w.scopes.push(Scope::temporary(scope.1.clone()));
                if let Some(params) = n.child_by_field_name("parameters") {
                    for p in named_children(params) {
                        let name = match p.kind() {
                            "typed_parameter" => named_children(p)
                                .find(|c| c.kind() == "identifier")
                                .map(|c| w.text(c)),
                            "typed_default_parameter" => w.field_text(p, "name"),
                            _ => None,
                        };
                        if let (Some(name), Some(ty)) = (name, w.field_text(p, "type")) {
                            w.typed(name, ty, TypeRole::Parameter, p);
                        }
                    }
                }
                w.scopes.pop();
                Some(scope)
            }
            "class_definition" => {
                let name = w.field_text(n, "name")?;
                let exported = public(name) && w.scopes.iter().all(|s| s.exported);
                if w.at_top() && public(name) {
                    self.public.push((name.to_string(), line(n)));
                }
                w.type_symbol(n, name, SymbolKind::Class, exported);
                if let Some(args) = n.child_by_field_name("superclasses") {
                    for a in named_children(args) {
                        let parent = match a.kind() {
                            "identifier" | "attribute" => w.text(a),
                            "subscript" => w.field_text(a, "value").unwrap_or(""),
                            _ => continue,
                        };
                        w.inherit(name, parent, InheritanceKind::Extends, a);
                    }
                }
                Some((ScopeKind::Type, name.to_string(), exported))
            }
            "import_statement" => {
                for c in named_children(n) {
                    let module = match c.kind() {
                        "dotted_name" => w.text(c),
                        "aliased_import" => w.field_text(c, "name").unwrap_or(""),
                        _ => continue,
                    };
                    w.import(module, Vec::new(), n, Resolve::PyAbsolute);
                }
                None
            }
            "import_from_statement" => {
                let m = n.child_by_field_name("module_name")?;
                let module = w.text(m);
                let mut symbols = Vec::new();
                let mut cursor = n.walk();
                let package = w.file == "__init__.py" || w.file.ends_with("/__init__.py");
                for s in n.children_by_field_name("name", &mut cursor) {
                    let (name, alias) = match s.kind() {
                        "aliased_import" => (
                            w.field_text(s, "name").unwrap_or(""),
                            w.field_text(s, "alias"),
                        ),
                        _ => (w.text(s), None),
                    };
                    if name.is_empty() {
                        continue;
                    }
                    symbols.push(name.to_string());
                    // Re-exports: `from x import a as a` (PEP 484's explicit form) anywhere, and
                    // any public name a package's __init__.py imports.
                    let local = alias.unwrap_or(name);
                    if w.at_top()
                        && public(local)
                        && !local.contains('.')
                        && (alias == Some(name) || package)
                        && !self.public.iter().any(|(p, _)| p == local)
                    {
                        self.public.push((local.to_string(), line(s)));
                    }
                }
                if named_children(n).any(|c| c.kind() == "wildcard_import") {
                    symbols.push("*".to_string());
                }
                let resolve = if m.kind() == "relative_import" {
                    let level = module.chars().take_while(|&c| c == '.').count();
                    Resolve::PyRelative {
                        level,
                        rest: module[level..].to_string(),
                    }
                } else {
                    Resolve::PyAbsolute
                };
                w.import(module, symbols, n, resolve);
                None
            }
            "call" => {
                let f = n.child_by_field_name("function")?;
                let name = match f.kind() {
                    "identifier" => w.text(f),
                    "attribute" => w.field_text(f, "attribute")?,
                    _ => return None,
                };
                w.call(name, n);
                None
            }
            "assignment" => {
                let left = n.child_by_field_name("left")?;
                let target = match left.kind() {
                    "identifier" => w.text(left),
                    // `self.x: int = …` in a method: a field of the class.
                    "attribute" => w.field_text(left, "attribute")?,
                    _ => return None,
                };
                if let Some(ty) = w.field_text(n, "type") {
                    let role = match w.innermost() {
                        Some(s) if s.kind == ScopeKind::Type => TypeRole::Field,
                        _ if left.kind() == "attribute" => TypeRole::Field,
                        _ => TypeRole::Variable,
                    };
                    w.typed(target, ty, role, n);
                }
                if w.at_top() && left.kind() == "identifier" {
                    if target == "__all__" {
                        if let Some(r) = n.child_by_field_name("right")
                            && matches!(r.kind(), "list" | "tuple")
                        {
                            let names = named_children(r)
                                .filter(|s| s.kind() == "string")
                                .map(|s| (unquote(w.text(s)).to_string(), line(s)))
                                .collect();
                            self.all = Some(names);
                        }
                    } else if public(target) && !self.public.iter().any(|(p, _)| p == target) {
                        self.public.push((target.to_string(), line(n)));
                        w.type_symbol(n, target, SymbolKind::Constant, true);
                    }
                }
                None
            }
            _ => None,
        }
    }

    fn finish(&mut self, w: &mut Walk<'_>) {
        let names = self
            .all
            .take()
            .unwrap_or_else(|| std::mem::take(&mut self.public));
        for (name, l) in names {
            w.out.exports.push(verity_facts::Export {
                file: w.file.to_string(),
                name,
                line: l,
            });
        }
    }
}
