//! The guessed static type of an expression, and the types of locals in lexical scopes.

use tree_sitter::Node;

use super::{Analyzer, capitalized, children, ident, named_children, nav_name};
use crate::builtins;
use crate::index::SymbolKind;

/// A guessed static type of an expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Ty {
    Unknown,
    /// An SDK type: `meta` for the type itself (`URLSession` in `URLSession.shared`);
    /// `also` a second type whose members also apply (`Optional`, or `View` for the result
    /// of a view modifier).
    Sdk {
        path: String,
        meta: bool,
        also: Option<String>,
    },
}

impl Ty {
    pub(super) fn sdk(path: &str) -> Ty {
        Ty::Sdk {
            path: path.to_owned(),
            meta: false,
            also: None,
        }
    }
}

impl<'a> Analyzer<'a> {
    /// The SDK type path a written type name denotes (module prefix removed), if any.
    pub(super) fn sdk_type_path(&self, comps: &[&str]) -> Option<String> {
        let mut comps: Vec<&str> = comps.to_vec();
        if comps.len() > 1 && self.index.has_module(comps[0]) && !self.index.is_type(comps[0]) {
            comps.remove(0);
        }
        let path = comps.join(".");
        self.index.is_type(&path).then_some(path)
    }

    pub(super) fn ty_of_type_node(&self, n: Node<'_>) -> Ty {
        match n.kind() {
            "user_type" => {
                let comps: Vec<&str> = named_children(n)
                    .into_iter()
                    .filter(|c| c.kind() == "type_identifier")
                    .map(|c| ident(self.t(c)))
                    .collect();
                let Some(first) = comps.first() else {
                    return Ty::Unknown;
                };
                if self.declared_type(first) {
                    return Ty::Unknown;
                }
                if comps.len() == 1 && *first == "Optional" {
                    // Optional<T>
                    if let Some(args) = named_children(n)
                        .into_iter()
                        .find(|c| c.kind() == "type_arguments")
                        && let Some(inner) = named_children(args).into_iter().next()
                        && let Ty::Sdk { path, meta, .. } = self.ty_of_type_node(inner)
                    {
                        return Ty::Sdk {
                            path,
                            meta,
                            also: Some("Optional".into()),
                        };
                    }
                    return Ty::sdk("Optional");
                }
                match self.sdk_type_path(&comps) {
                    Some(p) => Ty::sdk(&p),
                    None => Ty::Unknown,
                }
            }
            "optional_type" => match n.named_child(0).map(|c| self.ty_of_type_node(c)) {
                Some(Ty::Sdk { path, meta, .. }) => Ty::Sdk {
                    path,
                    meta,
                    also: Some("Optional".into()),
                },
                _ => Ty::Unknown,
            },
            "array_type" => Ty::sdk("Array"),
            "dictionary_type" => Ty::sdk("Dictionary"),
            "opaque_type" | "existential_type" | "type_annotation" => n
                .named_children(&mut n.walk())
                .find(|c| c.kind() != "type_modifiers" && c.kind() != "attribute")
                .map_or(Ty::Unknown, |c| self.ty_of_type_node(c)),
            "metatype" => match n.named_child(0).map(|c| self.ty_of_type_node(c)) {
                Some(Ty::Sdk { path, .. }) => Ty::Sdk {
                    path,
                    meta: true,
                    also: None,
                },
                _ => Ty::Unknown,
            },
            _ => Ty::Unknown,
        }
    }

    fn lookup_local(&self, name: &str) -> Option<Ty> {
        self.scopes.iter().rev().find_map(|s| s.get(name).cloned())
    }

    pub(super) fn bind(&mut self, name: &str, ty: Ty) {
        let name = ident(name);
        if name.is_empty() || name == "_" {
            return;
        }
        if let Some(scope) = self.scopes.last_mut() {
            match scope.get(name) {
                Some(prev) if *prev != ty => {
                    scope.insert(name.to_owned(), Ty::Unknown);
                }
                _ => {
                    scope.insert(name.to_owned(), ty);
                }
            }
        }
    }

    /// The guessed type of an expression.
    pub(super) fn infer(&mut self, n: Node<'_>, depth: usize) -> Ty {
        if depth > 64 {
            return Ty::Unknown;
        }
        match n.kind() {
            "simple_identifier" => {
                let name = ident(self.t(n));
                if capitalized(name) {
                    if self.declared_type(name) || self.declared_value(name) {
                        return Ty::Unknown;
                    }
                    return match self.sdk_type_path(&[name]) {
                        Some(p) => Ty::Sdk {
                            path: p,
                            meta: true,
                            also: None,
                        },
                        None => Ty::Unknown,
                    };
                }
                self.lookup_local(name).unwrap_or(Ty::Unknown)
            }
            "call_expression" => {
                let Some(callee) = n.named_child(0) else {
                    return Ty::Unknown;
                };
                match callee.kind() {
                    "simple_identifier" => match self.infer(callee, depth + 1) {
                        Ty::Sdk {
                            path, meta: true, ..
                        } => Ty::sdk(&path),
                        _ => Ty::Unknown,
                    },
                    "navigation_expression" => {
                        let Some(target) = callee.child_by_field_name("target") else {
                            return Ty::Unknown;
                        };
                        let name = nav_name(callee, self.src);
                        let recv = self.infer(target, depth + 1);
                        if name.as_deref() == Some("init")
                            && let Ty::Sdk {
                                path, meta: true, ..
                            } = &recv
                        {
                            return Ty::sdk(path);
                        }
                        self.call_result(&recv)
                    }
                    _ => Ty::Unknown,
                }
            }
            "constructor_expression" => n
                .child_by_field_name("constructed_type")
                .map_or(Ty::Unknown, |t| self.ty_of_type_node(t)),
            "navigation_expression" => {
                let Some(target) = n.child_by_field_name("target") else {
                    return Ty::Unknown;
                };
                if target.kind() == "key_path_expression" {
                    return Ty::Unknown;
                }
                let Some(name) = nav_name(n, self.src) else {
                    return Ty::Unknown;
                };
                let recv = self.infer(target, depth + 1);
                self.property_result(&recv, &name)
            }
            "postfix_expression" | "try_expression" | "await_expression" => n
                .child_by_field_name("target")
                .or_else(|| n.child_by_field_name("expr"))
                .map_or(Ty::Unknown, |c| self.infer(c, depth + 1)),
            "tuple_expression" if n.named_child_count() == 1 => n
                .named_child(0)
                .map_or(Ty::Unknown, |c| self.infer(c, depth + 1)),
            "line_string_literal" | "multi_line_string_literal" | "raw_string_literal" => {
                Ty::sdk("String")
            }
            "integer_literal" | "hex_literal" | "oct_literal" | "bin_literal" => Ty::sdk("Int"),
            "real_literal" => Ty::sdk("Double"),
            "boolean_literal" => Ty::sdk("Bool"),
            "array_literal" => Ty::sdk("Array"),
            "dictionary_literal" => Ty::sdk("Dictionary"),
            "as_expression" => {
                let op = children(n)
                    .into_iter()
                    .find(|c| c.kind() == "as_operator")
                    .map(|c| self.t(c))
                    .unwrap_or("as");
                let ty = n
                    .child_by_field_name("name")
                    .map_or(Ty::Unknown, |t| self.ty_of_type_node(t));
                match (op, ty) {
                    ("as?", Ty::Sdk { path, meta, .. }) => Ty::Sdk {
                        path,
                        meta,
                        also: Some("Optional".into()),
                    },
                    (_, t) => t,
                }
            }
            _ => Ty::Unknown,
        }
    }

    /// The type of `recv.name` (no call): nested types, enum cases and, by convention,
    /// `shared` / `default` / `current` … and the colors and fonts of `Color`, `Font`,
    /// `UIColor`, `UIFont` are instances of the receiver's type; anything else is unknown
    /// (the index records no property types).
    fn property_result(&mut self, recv: &Ty, name: &str) -> Ty {
        let Ty::Sdk { path, meta, .. } = recv else {
            return Ty::Unknown;
        };
        if !*meta {
            return Ty::Unknown;
        }
        let nested = format!("{path}.{name}");
        if self.index.is_type(&nested) {
            return Ty::Sdk {
                path: nested,
                meta: true,
                also: None,
            };
        }
        let ids = self.index.member_ids(path, name);
        let self_typed = ids.iter().any(|&id| {
            self.index.sym(id).is_some_and(|s| {
                s.kind == SymbolKind::EnumCase
                    || (s.kind == SymbolKind::TypeProperty
                        && (builtins::SELF_STATIC_NAMES.contains(&name)
                            || builtins::SELF_STATIC_TYPES.contains(&path.as_str())))
            })
        });
        if self_typed {
            Ty::sdk(path)
        } else {
            Ty::Unknown
        }
    }

    /// The type of `recv.method(...)`: a view modifier on a `View` gives some `View` (and
    /// the receiver's own modifiers, like `Text.bold()`, give the receiver's type).
    fn call_result(&mut self, recv: &Ty) -> Ty {
        let Ty::Sdk {
            path,
            meta: false,
            also,
        } = recv
        else {
            return Ty::Unknown;
        };
        let is_view = |me: &mut Self, p: &str| {
            let c = me.closure_of(p);
            me.closure_has(&c, "View")
        };
        if path == "View" {
            return Ty::sdk("View");
        }
        if is_view(self, path) {
            return Ty::Sdk {
                path: "View".into(),
                meta: false,
                also: Some(path.clone()),
            };
        }
        if let Some(a) = also
            && a == "View"
        {
            return Ty::sdk("View");
        }
        Ty::Unknown
    }

    /// Declarations of a body are visible throughout it (members, top-level code).
    pub(super) fn prescan(&mut self, body: Node<'_>) {
        for c in named_children(body) {
            let decl = if c.kind() == "statements" {
                named_children(c)
            } else {
                vec![c]
            };
            for d in decl {
                if d.kind() == "property_declaration" {
                    self.bind_property(d);
                }
            }
        }
    }

    pub(super) fn bind_property(&mut self, d: Node<'_>) {
        let ann = children(d)
            .into_iter()
            .find(|c| c.kind() == "type_annotation")
            .map(|a| self.ty_of_type_node(a));
        let val = d.child_by_field_name("value");
        let ty = match (ann, val) {
            (Some(t), _) if t != Ty::Unknown => t,
            (_, Some(v)) => self.infer(v, 0),
            _ => Ty::Unknown,
        };
        let Some(p) = d.child_by_field_name("name") else {
            return;
        };
        let names: Vec<Node<'_>> = match p.child_by_field_name("bound_identifier") {
            Some(b) => vec![b],
            None => named_children(p)
                .into_iter()
                .filter(|c| c.kind() == "simple_identifier")
                .collect(),
        };
        let single = names.len() == 1 && p.child_by_field_name("bound_identifier").is_some();
        for nm in names {
            let name = self.t(nm);
            self.bind(name, if single { ty.clone() } else { Ty::Unknown });
        }
    }

    /// The first known type among `nodes` that are not plain identifiers (a parameter's
    /// labels and names sit beside its type node).
    fn first_type<'t>(&mut self, nodes: impl IntoIterator<Item = Node<'t>>) -> Ty {
        nodes
            .into_iter()
            .filter(|x| x.kind() != "simple_identifier")
            .map(|t| self.ty_of_type_node(t))
            .find(|t| *t != Ty::Unknown)
            .unwrap_or(Ty::Unknown)
    }

    pub(super) fn bind_params(&mut self, n: Node<'_>) {
        for c in named_children(n) {
            match c.kind() {
                "parameter" => {
                    let ty = self.first_type(
                        c.child_by_field_name("name")
                            .into_iter()
                            .chain(named_children(c)),
                    );
                    // the internal name is the last simple identifier
                    if let Some(name) = named_children(c)
                        .into_iter()
                        .rfind(|x| x.kind() == "simple_identifier")
                    {
                        let name = self.t(name);
                        self.bind(name, ty);
                    }
                }
                "lambda_function_type" => {
                    for p in named_children(c) {
                        if p.kind() == "lambda_function_type_parameters" {
                            for lp in named_children(p) {
                                let ty = self.first_type(named_children(lp));
                                if let Some(name) = named_children(lp)
                                    .into_iter()
                                    .find(|x| x.kind() == "simple_identifier")
                                {
                                    let name = self.t(name);
                                    self.bind(name, ty);
                                }
                            }
                        }
                    }
                }
                "capture_list" => {
                    for item in named_children(c) {
                        for x in named_children(item) {
                            if x.kind() == "simple_identifier" {
                                let name = self.t(x);
                                self.bind(name, Ty::Unknown);
                            }
                        }
                    }
                }
                _ => {}
            }
        }
    }
}
