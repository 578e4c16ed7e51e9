//! The guessed static type of an expression, and the types of locals in lexical scopes.

use tree_sitter::Node;

use super::labels::CallArgs;
use super::{Analyzer, capitalized, children, ident, named_children, nav_name};
use crate::builtins;
use crate::index::{NameComp, SymbolKind, TypeRef};

/// Prefixes the name of a type the source declares (it shadows any SDK type of that name):
/// `<source type>Event` is the source's `Event`, whose members are its stored and computed
/// properties with known types (see [`Analyzer::collect_source_members`]).
pub(super) const SOURCE_TYPE: &str = "<source type>";

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
        /// Generic arguments (`Bool` in `Binding<Bool>`, the element of an array).
        args: Vec<TypeRef>,
    },
}

impl Ty {
    pub(super) fn sdk(path: &str) -> Ty {
        Ty::Sdk {
            path: path.to_owned(),
            meta: false,
            also: None,
            args: Vec::new(),
        }
    }

    /// The type itself (`URLSession` in `URLSession.shared`).
    pub(super) fn meta(path: &str) -> Ty {
        Ty::Sdk {
            path: path.to_owned(),
            meta: true,
            also: None,
            args: Vec::new(),
        }
    }

    /// A type the source declares (`Event`), never an SDK type.
    pub(super) fn source(name: &str) -> Ty {
        Ty::sdk(&format!("{SOURCE_TYPE}{name}"))
    }

    /// The name of the source's own type this is (`Event`), if it is one.
    pub(super) fn source_name(&self) -> Option<&str> {
        match self {
            Ty::Sdk { path, .. } => path.strip_prefix(SOURCE_TYPE),
            Ty::Unknown => None,
        }
    }

    /// An instance of this type.
    pub(super) fn instance(self) -> Ty {
        match self {
            Ty::Sdk {
                path, also, args, ..
            } => Ty::Sdk {
                path,
                meta: false,
                also,
                args,
            },
            Ty::Unknown => Ty::Unknown,
        }
    }

    /// `T?`: the members of `Optional` apply too.
    pub(super) fn optional(self) -> Ty {
        match self {
            Ty::Sdk {
                path, meta, args, ..
            } => Ty::Sdk {
                path,
                meta,
                also: Some("Optional".into()),
                args,
            },
            Ty::Unknown => Ty::Unknown,
        }
    }

    /// The wrapped type of an optional (`if let`, `??`, `!`).
    pub(super) fn unwrapped(self) -> Ty {
        match self {
            Ty::Sdk {
                path,
                meta,
                also: Some(a),
                args,
            } if a == "Optional" => Ty::Sdk {
                path,
                meta,
                also: None,
                args,
            },
            t => t,
        }
    }

    /// The type as a [`TypeRef`] (for a generic argument).
    pub(super) fn to_ref(&self) -> Option<TypeRef> {
        let Ty::Sdk {
            path,
            meta: false,
            also,
            args,
        } = self
        else {
            return None;
        };
        let mut comps: Vec<NameComp> = path
            .split('.')
            .map(|c| NameComp {
                name: c.to_owned(),
                args: Vec::new(),
            })
            .collect();
        if let Some(last) = comps.last_mut() {
            last.args = args.clone();
        }
        let t = TypeRef::Named(comps);
        match also.as_deref() {
            None => Some(t),
            Some("Optional") => Some(TypeRef::Optional(Box::new(t))),
            Some(_) => None,
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

    /// A type written in the source as a [`TypeRef`]: module prefixes dropped, and the
    /// source's own types replaced by a name no SDK type has (they shadow SDK names).
    pub(super) fn source_type_ref(&self, n: Node<'_>) -> Option<TypeRef> {
        let ix = self.index;
        let t = TypeRef::parse_normalized(self.t(n), &|m| ix.has_module(m) && !ix.is_type(m))?;
        Some(self.mask_declared(t))
    }

    fn mask_declared(&self, t: TypeRef) -> TypeRef {
        let m = |x: TypeRef| self.mask_declared(x);
        let b = |x: TypeRef| Box::new(self.mask_declared(x));
        match t {
            TypeRef::Named(comps) => {
                if let Some(c) = comps.first()
                    && self.declared_type(&c.name)
                {
                    // a nested type of the source's own type is not tracked
                    return if comps.len() == 1 && c.args.is_empty() {
                        TypeRef::named(&format!("{SOURCE_TYPE}{}", c.name))
                    } else {
                        TypeRef::named(SOURCE_TYPE)
                    };
                }
                TypeRef::Named(
                    comps
                        .into_iter()
                        .map(|c| NameComp {
                            name: c.name,
                            args: c.args.into_iter().map(m).collect(),
                        })
                        .collect(),
                )
            }
            TypeRef::Optional(x) => TypeRef::Optional(b(*x)),
            TypeRef::Array(x) => TypeRef::Array(b(*x)),
            TypeRef::Dictionary(k, v) => TypeRef::Dictionary(b(*k), b(*v)),
            TypeRef::Opaque(x) => TypeRef::Opaque(b(*x)),
            TypeRef::Existential(x) => TypeRef::Existential(b(*x)),
            TypeRef::Metatype(x) => TypeRef::Metatype(b(*x)),
            // function types, tuples and compositions are never receivers of members
            other => other,
        }
    }

    pub(super) fn ty_of_type_node(&self, n: Node<'_>) -> Ty {
        match n.kind() {
            "user_type" | "optional_type" | "array_type" | "dictionary_type" | "metatype" => {
                match self.source_type_ref(n) {
                    Some(t) => self.ty_of_ref(&t, &Vec::new(), &Ty::Unknown, None, 0),
                    None => Ty::Unknown,
                }
            }
            // `some P & Q`: the members of both apply (three or more stay unknown)
            "protocol_composition_type" => {
                let parts: Vec<Ty> = n
                    .named_children(&mut n.walk())
                    .map(|c| self.ty_of_type_node(c))
                    .collect();
                match parts.as_slice() {
                    [
                        Ty::Sdk {
                            path,
                            meta: false,
                            also: None,
                            args,
                        },
                        Ty::Sdk {
                            path: second,
                            meta: false,
                            also: None,
                            args: args2,
                        },
                    ] if args.is_empty() && args2.is_empty() => Ty::Sdk {
                        path: path.clone(),
                        meta: false,
                        also: Some(second.clone()),
                        args: Vec::new(),
                    },
                    _ => Ty::Unknown,
                }
            }
            "opaque_type" | "existential_type" | "type_annotation" => n
                .named_children(&mut n.walk())
                .find(|c| c.kind() != "type_modifiers" && c.kind() != "attribute")
                .map_or(Ty::Unknown, |c| self.ty_of_type_node(c)),
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
        self.forget_local_fn(name);
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

    /// Binds a name in the innermost scope, replacing what it had (a closure's parameters).
    pub(super) fn bind_fresh(&mut self, name: &str, ty: Ty) {
        let name = ident(name);
        if name.is_empty() || name == "_" {
            return;
        }
        self.forget_local_fn(name);
        if let Some(scope) = self.scopes.last_mut() {
            scope.insert(name.to_owned(), ty);
        }
    }

    /// A name bound again in the innermost scope is no longer a function parameter bound
    /// there before (nor one of an earlier scope at that depth).
    fn forget_local_fn(&mut self, name: &str) {
        if !self.local_fns.is_empty() {
            let at = self.scopes.len().saturating_sub(1);
            self.local_fns.remove(&(at, name.to_owned()));
        }
    }

    /// The parameter types of the function-typed local `name` (the innermost binding).
    pub(super) fn local_fn(&self, name: &str) -> Option<&Vec<Ty>> {
        let at = self.scopes.iter().rposition(|s| s.contains_key(name))?;
        self.local_fns.get(&(at, name.to_owned()))
    }

    /// The type an implicit member expression starting at `n` must have, if known.
    pub(super) fn expected_at(&self, n: Node<'_>) -> Option<Ty> {
        self.expected.get(&n.start_byte()).cloned()
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
                        Some(p) => Ty::meta(&p),
                        None => Ty::Unknown,
                    };
                }
                if let Some(root) = self.implicit_root(n) {
                    // `.title` in `.title.bold()`: a member of the expected type, never a local
                    let name = name.to_owned();
                    return match self.expected_at(root) {
                        Some(Ty::Sdk { path, .. }) if !self.is_protocol(&path) => {
                            self.property_result(&Ty::meta(&path), &name)
                        }
                        // a protocol's: the one concrete type its constrained extensions give
                        Some(Ty::Sdk { .. }) => match self.implicit_candidates(n) {
                            Some(tys) if tys.len() == 1 => {
                                tys.into_iter().next().unwrap_or(Ty::Unknown)
                            }
                            _ => Ty::Unknown,
                        },
                        _ => Ty::Unknown,
                    };
                }
                match self.lookup_local(name) {
                    Some(t) => t,
                    // a property of the enclosing type, through implicit `self`
                    None if !self.type_scopes.is_empty() => {
                        let name = name.to_owned();
                        self.self_member(&name)
                    }
                    None => Ty::Unknown,
                }
            }
            "prefix_expression" => {
                let implicit = n
                    .child_by_field_name("operation")
                    .is_some_and(|o| self.t(o) == ".");
                match (implicit, n.child_by_field_name("target")) {
                    (true, Some(t)) if t.kind() == "simple_identifier" => {
                        let name = ident(self.t(t)).to_owned();
                        match self.expected_at(n) {
                            Some(Ty::Sdk { path, .. }) if !self.is_protocol(&path) => {
                                self.property_result(&Ty::meta(&path), &name)
                            }
                            _ => Ty::Unknown,
                        }
                    }
                    _ => Ty::Unknown,
                }
            }
            "call_expression" => {
                // `f(x) { … }` is one call of `f`
                let callee = match super::labels::trailing_of(n) {
                    Some(inner) => inner.named_child(0),
                    None => n.named_child(0),
                };
                let Some(callee) = callee else {
                    return Ty::Unknown;
                };
                if self.is_subscript(n) {
                    return self.subscript_result(n, callee, depth);
                }
                let args = self.call_args(n);
                if callee.kind() == "simple_identifier"
                    && let Some(root) = self.implicit_root(callee)
                {
                    let name = ident(self.t(callee)).to_owned();
                    return match self.expected_at(root) {
                        Some(Ty::Sdk { path, .. }) if !self.is_protocol(&path) => {
                            if name == "init" {
                                return Ty::sdk(&path);
                            }
                            self.call_result(&Ty::meta(&path), &name, &args)
                        }
                        _ => Ty::Unknown,
                    };
                }
                let own_type = ident(self.t(callee));
                if callee.kind() == "simple_identifier"
                    && capitalized(own_type)
                    && self.declared_type(own_type)
                    && !self.declared_value(own_type)
                {
                    // `StoreModel()`: an instance of the source's own type
                    return Ty::source(own_type);
                }
                match callee.kind() {
                    "simple_identifier" => match self.infer(callee, depth + 1) {
                        Ty::Sdk {
                            path,
                            meta: true,
                            args: targs,
                            ..
                        } => {
                            // `Array(xs.enumerated())`: its element is the sequence's
                            let nodes = super::expect::arg_nodes(n);
                            let given = match nodes.as_slice() {
                                [one]
                                    if targs.is_empty()
                                        && args.labels.len() == 1
                                        && args.labels[0] == "_"
                                        && args.trailing.is_empty() =>
                                {
                                    let t = self.infer(*one, depth + 1);
                                    self.init_generic_args(&path, &t)
                                }
                                _ => Vec::new(),
                            };
                            // `Double(text)`: an initializer the call may mean is failable,
                            // so the value may be an optional (`Optional.map` applies too)
                            let closure = self.closure_of(&path);
                            let inits = self.index.member_ids_in(&closure, "init");
                            let failable = self.compatible_ids(&inits, &args).iter().any(|&id| {
                                self.index.sym_type(id).is_some_and(|t| t.ends_with('?'))
                            });
                            let t = Ty::Sdk {
                                path,
                                meta: false,
                                also: None,
                                args: if given.is_empty() { targs } else { given },
                            };
                            if failable { t.optional() } else { t }
                        }
                        Ty::Sdk { .. } => Ty::Unknown,
                        Ty::Unknown => {
                            let name = ident(self.t(callee));
                            if self.lookup_local(name).is_none()
                                && let Some(t) = self.source_funcs.get(name)
                            {
                                // the source's own function: its written result type
                                return t.clone();
                            }
                            if capitalized(name)
                                || self.declared_value(name)
                                || self.lookup_local(name).is_some()
                            {
                                return Ty::Unknown;
                            }
                            let funcs = self.top_level_funcs(name);
                            let ids = self.compatible_ids(&funcs, &args);
                            self.agreed_ty(&Ty::Unknown, &ids)
                        }
                    },
                    "navigation_expression" => {
                        let Some(target) = callee.child_by_field_name("target") else {
                            return Ty::Unknown;
                        };
                        let Some(name) = nav_name(callee, self.src) else {
                            return Ty::Unknown;
                        };
                        let recv = self.infer(target, depth + 1);
                        if name == "init"
                            && let Ty::Sdk { meta: true, .. } = &recv
                        {
                            return recv.instance();
                        }
                        // `MKDirections.Request()`: a nested type's initializer
                        if let Ty::Sdk {
                            path, meta: true, ..
                        } = &recv
                            && capitalized(&name)
                            && self.index.is_type(&format!("{path}.{name}"))
                        {
                            return Ty::sdk(&format!("{path}.{name}"));
                        }
                        let r = self.call_result(&recv, &name, &args);
                        // `await X(…).m()` parses as `(await X(…)).m()`: still the awaited call
                        let awaited = |t: Node<'_>| t.kind() == "await_expression";
                        if r == Ty::Unknown
                            && (awaited(target)
                                || (target.kind() == "try_expression"
                                    && target.named_children(&mut target.walk()).any(awaited)))
                        {
                            return self.async_result(n, depth + 1);
                        }
                        r
                    }
                    "prefix_expression" => {
                        let implicit = callee
                            .child_by_field_name("operation")
                            .is_some_and(|o| self.t(o) == ".");
                        let target = callee.child_by_field_name("target");
                        if implicit
                            && let Some(nav) = target
                            && nav.kind() == "navigation_expression"
                            && let Some(inner) = nav.child_by_field_name("target")
                            && let Some(name) = nav_name(nav, self.src)
                        {
                            // `.title.bold()`
                            let recv = self.infer(inner, depth + 1);
                            return self.call_result(&recv, &name, &args);
                        }
                        match (implicit, target, self.expected_at(n)) {
                            (true, Some(t), Some(Ty::Sdk { path, .. }))
                                if t.kind() == "simple_identifier" && !self.is_protocol(&path) =>
                            {
                                let name = ident(self.t(t)).to_owned();
                                if name == "init" {
                                    return Ty::sdk(&path);
                                }
                                self.call_result(&Ty::meta(&path), &name, &args)
                            }
                            _ => Ty::Unknown,
                        }
                    }
                    _ => Ty::Unknown,
                }
            }
            "constructor_expression" => n
                .child_by_field_name("constructed_type")
                .map_or(Ty::Unknown, |t| self.ty_of_type_node(t).instance()),
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
                if target.kind() == "self_expression" {
                    return self.self_member(&name);
                }
                let recv = self.infer(target, depth + 1);
                let between = n
                    .child_by_field_name("suffix")
                    .and_then(|sfx| self.src.get(target.end_byte()..sfx.start_byte()))
                    .unwrap_or("");
                let optional_chain = between.contains('?') || self.t(target).ends_with('?');
                let r = self.property_result(&recv, &name);
                if optional_chain { r.optional() } else { r }
            }
            "postfix_expression" => {
                let inner = n
                    .child_by_field_name("target")
                    .map_or(Ty::Unknown, |c| self.infer(c, depth + 1));
                let op = n.child_by_field_name("operation").map(|o| self.t(o));
                match op {
                    Some("!") => inner.unwrapped(),
                    _ => inner,
                }
            }
            "try_expression" | "await_expression" => {
                let Some(inner) = n
                    .child_by_field_name("expr")
                    .or_else(|| n.child_by_field_name("target"))
                    .or_else(|| n.named_children(&mut n.walk()).last())
                else {
                    return Ty::Unknown;
                };
                let t = self.infer(inner, depth + 1);
                if t == Ty::Unknown && n.kind() == "await_expression" {
                    return self.async_result(inner, depth + 1);
                }
                t
            }
            "nil_coalescing_expression" => {
                let v = n
                    .child_by_field_name("value")
                    .or_else(|| n.named_child(0))
                    .map_or(Ty::Unknown, |c| self.infer(c, depth + 1));
                let alt = n
                    .child_by_field_name("if_nil")
                    .or_else(|| n.named_children(&mut n.walk()).last())
                    .map_or(Ty::Unknown, |c| self.infer(c, depth + 1));
                match (v.unwrapped(), alt) {
                    (a, b) if a == b => a,
                    (a, Ty::Unknown) => a,
                    _ => Ty::Unknown,
                }
            }
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
                match op {
                    "as?" => ty.optional(),
                    _ => ty,
                }
            }
            _ => Ty::Unknown,
        }
    }

    /// The one SDK supertype of the source's own type `own` that has a member `name` the
    /// source declares nowhere (`presentationDetents` of `View` for `struct Panel: View`).
    pub(super) fn source_super_for(&mut self, own: &str, name: &str) -> Option<String> {
        if self.declared_value(name) {
            return None;
        }
        let supers = self.source_supers.get(own).cloned().unwrap_or_default();
        let mut found = None;
        for p in supers {
            let closure = self.closure_of(&p);
            if !self.index.member_ids_in(&closure, name).is_empty() {
                if found.is_some() {
                    return None;
                }
                found = Some(p);
            }
        }
        found
    }

    /// `self.name`: a property the enclosing type declares (with its known type), else one
    /// of the SDK types it inherits or extends.
    fn self_member(&mut self, name: &str) -> Ty {
        let Some(&i) = self.type_scopes.last() else {
            return Ty::Unknown;
        };
        if let Some(t) = self.scopes.get(i).and_then(|s| s.get(name)) {
            return t.clone();
        }
        if self.declared_value(name) && !self.decls.only_funcs_with_params.contains(name) {
            return Ty::Unknown;
        }
        let supers = self.type_ctx.last().cloned().unwrap_or_default();
        let tys: Vec<Ty> = supers
            .iter()
            .map(|p| self.property_result(&Ty::sdk(p), name))
            .filter(|t| *t != Ty::Unknown)
            .collect();
        match tys.as_slice() {
            [t] => t.clone(),
            _ => Ty::Unknown,
        }
    }

    /// A bare `name` inside a type declaration that no local, parameter or declaration of
    /// the source names: a property the enclosing type inherits from its SDK supertypes
    /// through implicit `self` (`contentEdgeInsets = …` in a `UIButton` subclass), used for
    /// availability and deprecation. Never reported missing (it may be a global).
    pub(super) fn implicit_self_property(&mut self, name: &str, n: Node<'_>) {
        if self.type_scopes.is_empty()
            || self.lookup_local(name).is_some()
            || self.declared_value(name)
        {
            return;
        }
        let supers = self.type_ctx.last().cloned().unwrap_or_default();
        for p in supers {
            let closure = self.closure_of(&p);
            let ids: Vec<_> = self
                .index
                .member_ids_in(&closure, name)
                .into_iter()
                .filter(|&id| {
                    self.index
                        .sym(id)
                        .is_some_and(|s| s.kind == SymbolKind::Property)
                })
                .collect();
            if !ids.is_empty() {
                let key = super::RefKey {
                    recv: Some(p.clone()),
                    name: name.to_owned(),
                    ..super::RefKey::default()
                };
                self.used(format!("{p}.{name}"), ids, n, true, key);
                return;
            }
        }
    }

    /// `items[0]`: a call expression whose arguments are in brackets.
    pub(super) fn is_subscript(&self, call: Node<'_>) -> bool {
        children(call)
            .into_iter()
            .find(|c| c.kind() == "call_suffix")
            .and_then(|s| named_children(s).into_iter().next())
            .is_some_and(|a| a.kind() == "value_arguments" && self.t(a).starts_with('['))
    }

    /// The type of `recv.name` (no call): a nested type, else the type the index records for
    /// the member (an enum case is of its type); without recorded types, by convention,
    /// `shared` / `default` / `current` … and the colors and fonts of `Color`, `Font`,
    /// `UIColor`, `UIFont` are instances of the receiver's type.
    pub(super) fn property_result(&mut self, recv: &Ty, name: &str) -> Ty {
        let Ty::Sdk { path, meta, .. } = recv else {
            return Ty::Unknown;
        };
        if let Some(own) = recv.source_name() {
            if *meta {
                return Ty::Unknown;
            }
            return self
                .source_members
                .get(own)
                .and_then(|m| m.get(name))
                .cloned()
                .unwrap_or(Ty::Unknown);
        }
        if *meta {
            let nested = format!("{path}.{name}");
            if self.index.is_type(&nested) {
                return Ty::meta(&nested);
            }
        }
        let closure = self.closure_of_ty(recv);
        let ids: Vec<_> = self
            .index
            .member_ids_in(&closure, name)
            .into_iter()
            .filter(|&id| {
                self.index
                    .sym(id)
                    .is_some_and(|s| !s.kind.is_callable() || s.kind == SymbolKind::EnumCase)
            })
            .collect();
        let ids = self.prefer_staticness(ids, *meta);
        let own = self.own_first(recv, ids.clone());
        let typed = self.agreed_ty(recv, &own);
        if typed != Ty::Unknown {
            return typed;
        }
        if !*meta {
            return Ty::Unknown;
        }
        let self_typed = ids.iter().any(|&id| {
            self.index.sym(id).is_some_and(|s| {
                s.kind == SymbolKind::EnumCase
                    || (s.kind == SymbolKind::TypeProperty
                        && self.index.sym_type(id).is_none()
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

    /// The type of `recv.name(args)`: the return type the index records for the
    /// overloads the labels fit, when they agree; without recorded types a view modifier on
    /// a `View` gives some `View` (and the receiver's own modifiers, like `Text.bold()`,
    /// give the receiver's type).
    pub(super) fn call_result(&mut self, recv: &Ty, name: &str, args: &CallArgs) -> Ty {
        let Ty::Sdk {
            path, meta, also, ..
        } = recv
        else {
            return Ty::Unknown;
        };
        if let Some(own) = recv.source_name() {
            // a method of the source's own type: the written result type of the source's
            // functions of that name; one the source does not declare, its SDK supertypes'
            if *meta {
                return Ty::Unknown;
            }
            if let Some(t) = self.source_funcs.get(name) {
                return t.clone();
            }
            return match self.source_super_for(own, name) {
                Some(sup) => self.call_result(&Ty::sdk(&sup), name, args),
                None => Ty::Unknown,
            };
        }
        let closure = self.closure_of_ty(recv);
        let ids = self.index.member_ids_in(&closure, name);
        let ids = self.prefer_staticness(ids, *meta);
        let ids = self.compatible_ids(&ids, args);
        let own = self.own_first(recv, ids.clone());
        let typed = self.agreed_ty(recv, &own);
        if typed != Ty::Unknown {
            return typed;
        }
        if *meta || ids.iter().any(|&id| self.index.sym_type(id).is_some()) {
            return Ty::Unknown;
        }
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
                args: Vec::new(),
            };
        }
        if let Some(a) = also
            && a == "View"
        {
            return Ty::sdk("View");
        }
        Ty::Unknown
    }

    /// `await recv.name(args)` where only the completion-handler form is recorded: the
    /// importer's async variant of a method whose last parameter is a completion handler
    /// the call omits returns the handler's parameters but the error (`reverseGeocodeLocation(_:)
    /// async throws -> [CLPlacemark]` for `…(_:completionHandler: ([CLPlacemark]?, Error?) ->
    /// Void)`), unwrapped when optional. Candidates must agree.
    fn async_result(&mut self, call: Node<'_>, depth: usize) -> Ty {
        let inner = call.named_child(0);
        if call.kind() != "call_expression" || self.is_subscript(call) {
            if call.kind() == "try_expression" {
                return self.infer(call, depth);
            }
            return Ty::Unknown;
        }
        let args = self.call_args(call);
        if !args.trailing.is_empty() {
            return Ty::Unknown;
        }
        let Some(callee) = inner.filter(|c| c.kind() == "navigation_expression") else {
            return Ty::Unknown;
        };
        let (Some(target), Some(name)) = (
            callee.child_by_field_name("target"),
            nav_name(callee, self.src),
        ) else {
            return Ty::Unknown;
        };
        let recv = self.infer(target, depth + 1);
        if recv == Ty::Unknown || recv.source_name().is_some() {
            return Ty::Unknown;
        }
        let closure = self.closure_of_ty(&recv);
        let mut ids = self.index.member_ids_in(&closure, &name);
        if ids.is_empty() {
            // an imported method whose derived name kept a word the importer drops
            // (`calculateDirections(completionHandler:)` is `calculate(completionHandler:)`)
            ids = self.objc_near_callables(&closure, &name);
        }
        let mut out: Option<Ty> = None;
        for id in ids {
            let Some(params) = self.index.sym_params(id) else {
                continue;
            };
            let Some(((_, last, _), given)) = params.split_last() else {
                continue;
            };
            if given.len() != args.labels.len()
                || !given
                    .iter()
                    .zip(&args.labels)
                    .all(|((l, _, _), a)| super::labels::label_near(a, l, ""))
            {
                continue;
            }
            let Some(handler) = TypeRef::parse(last) else {
                continue;
            };
            let handler = match handler.unwrapped() {
                TypeRef::Named(_) => handler
                    .unwrapped()
                    .path()
                    .and_then(|p| self.resolve_alias_in(&p, id))
                    .unwrap_or(handler),
                _ => handler,
            };
            let TypeRef::Function {
                params: hps, ret, ..
            } = handler.unwrapped()
            else {
                continue;
            };
            let returns_void = match ret.as_ref() {
                TypeRef::Tuple(v) => v.is_empty(),
                r => r.path().as_deref() == Some("Void"),
            };
            if !returns_void {
                continue;
            }
            let values: Vec<&TypeRef> = hps
                .iter()
                .filter(|p| {
                    !matches!(
                        p.unwrapped().path().as_deref(),
                        Some("Error" | "NSError")
                    ) && !matches!(p.unwrapped(), TypeRef::Existential(e) if e.path().as_deref() == Some("Error"))
                })
                .collect();
            let t = match values.as_slice() {
                [one] => {
                    let subst = self.subst_for(&recv, Some(id));
                    let ctx = self
                        .index
                        .sym(id)
                        .map(|s| self.index.s(s.parent).to_owned());
                    self.ty_of_ref(one.unwrapped(), &subst, &recv, ctx.as_deref(), 0)
                }
                _ => Ty::Unknown,
            };
            if t == Ty::Unknown {
                return Ty::Unknown;
            }
            match &out {
                None => out = Some(t),
                Some(o) if *o == t => {}
                Some(_) => return Ty::Unknown,
            }
        }
        out.unwrap_or(Ty::Unknown)
    }

    /// A typealias named in a member's signature (`CLGeocodeCompletionHandler`,
    /// `MKDirections.DirectionsHandler`): looked up in the member's enclosing types first.
    fn resolve_alias_in(&self, path: &str, id: crate::index::SymId) -> Option<TypeRef> {
        let parent = self
            .index
            .sym(id)
            .map(|s| self.index.s(s.parent).to_owned())
            .unwrap_or_default();
        let mut ctx = parent.as_str();
        loop {
            if !ctx.is_empty()
                && let Some(t) = self.alias_of(&format!("{ctx}.{path}"))
            {
                return Some(t);
            }
            match ctx.rsplit_once('.') {
                Some((up, _)) => ctx = up,
                None if !ctx.is_empty() => ctx = "",
                None => break,
            }
        }
        self.alias_of(path)
    }

    /// The supertype closure of a type and of its `also` type.
    pub(super) fn closure_of_ty(&mut self, t: &Ty) -> Vec<u32> {
        let Ty::Sdk { path, also, .. } = t else {
            return Vec::new();
        };
        let mut closure = self.closure_of(path);
        if let Some(a) = also {
            for x in self.closure_of(a) {
                if !closure.contains(&x) {
                    closure.push(x);
                }
            }
        }
        closure
    }

    /// The properties with known types of every type the source declares or extends
    /// (`struct Event { let date: Date }`, `extension Event { var url: URL { … } }`), for
    /// `event.date` anywhere. A name declared twice with different types is unknown.
    pub(super) fn collect_source_members(&mut self, root: Node<'_>) {
        let mut stack = vec![root];
        while let Some(n) = stack.pop() {
            if n.kind() == "function_declaration"
                && let Some(name) = n.child_by_field_name("name")
            {
                let name = ident(self.t(name)).to_owned();
                let ty = self.declared_result(n);
                match self.source_funcs.get(&name) {
                    Some(prev) if *prev != ty => {
                        self.source_funcs.insert(name, Ty::Unknown);
                    }
                    Some(_) => {}
                    None => {
                        self.source_funcs.insert(name, ty);
                    }
                }
            }
            if n.kind() == "class_declaration"
                && let Some(name) = n.child_by_field_name("name")
            {
                let name = ident(self.t(name).trim()).to_owned();
                if self.declared_type(&name) {
                    let supers = self.supertypes_written(n);
                    let known = self.source_supers.entry(name).or_default();
                    for p in supers {
                        if !known.contains(&p) {
                            known.push(p);
                        }
                    }
                }
            }
            if n.kind() == "class_declaration"
                && let Some(name) = n.child_by_field_name("name")
                && let Some(body) = n.child_by_field_name("body")
            {
                let name = ident(self.t(name).trim()).to_owned();
                if self.declared_type(&name) {
                    for d in named_children(body) {
                        if d.kind() == "property_declaration" {
                            self.source_property(&name, d);
                        }
                    }
                }
            }
            let mut c = n.walk();
            stack.extend(n.named_children(&mut c));
        }
    }

    /// One property of the source's own type `owner`: its written type, or the type its
    /// initial value constructs.
    fn source_property(&mut self, owner: &str, d: Node<'_>) {
        let ann = children(d)
            .into_iter()
            .find(|c| c.kind() == "type_annotation")
            .map(|a| self.ty_of_type_node(a));
        let ty = match (ann, d.child_by_field_name("value")) {
            (Some(t), _) => t,
            (None, Some(v)) if matches!(v.kind(), "constructor_expression" | "call_expression") => {
                let t = self.infer(v, 0);
                if t.source_name().is_some() {
                    Ty::Unknown
                } else {
                    t
                }
            }
            _ => Ty::Unknown,
        };
        let Some(p) = d.child_by_field_name("name") else {
            return;
        };
        let Some(b) = p.child_by_field_name("bound_identifier") else {
            return;
        };
        let prop = ident(self.t(b)).to_owned();
        if prop.is_empty() {
            return;
        }
        let members = self.source_members.entry(owner.to_owned()).or_default();
        match members.get(&prop) {
            Some(prev) if *prev != ty => {
                members.insert(prop, Ty::Unknown);
            }
            Some(_) => {}
            None => {
                members.insert(prop, ty);
            }
        }
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

    /// A property wrapper attribute of a declaration: its name and node.
    fn wrapper<'t>(&self, d: Node<'t>) -> Option<(String, Node<'t>)> {
        let mods = children(d).into_iter().find(|c| c.kind() == "modifiers")?;
        named_children(mods).into_iter().find_map(|a| {
            if a.kind() != "attribute" {
                return None;
            }
            let ut = named_children(a)
                .into_iter()
                .find(|c| c.kind() == "user_type")?;
            let name = ident(self.t(ut)).to_owned();
            let name = name.rsplit('.').next().unwrap_or(&name).to_owned();
            (!self.declared_type(&name)).then_some((name, a))
        })
    }

    /// What `@Environment(\.key)` / `@Environment(Type.self)` gives.
    fn environment_ty(&mut self, attr: Node<'_>) -> Ty {
        for c in named_children(attr) {
            if c.kind() != "navigation_expression" {
                continue;
            }
            let Some(target) = c.child_by_field_name("target") else {
                continue;
            };
            let Some(member) = nav_name(c, self.src) else {
                continue;
            };
            if target.kind() == "key_path_expression" && self.t(target).trim() == "\\" {
                return self.property_result(&Ty::sdk("EnvironmentValues"), &member);
            }
            if member == "self" {
                return self.infer(target, 0).instance();
            }
        }
        Ty::Unknown
    }

    pub(super) fn bind_property(&mut self, d: Node<'_>) {
        let ann = children(d)
            .into_iter()
            .find(|c| c.kind() == "type_annotation")
            .map(|a| self.ty_of_type_node(a));
        let val = d.child_by_field_name("value");
        let wrapper = self.wrapper(d);
        let ty = match (ann, val, &wrapper) {
            (Some(t), _, _) if t != Ty::Unknown => t,
            (_, _, Some((w, a))) if w == "Environment" => self.environment_ty(*a),
            (_, Some(v), _) => self.infer(v, 0),
            _ => Ty::Unknown,
        };
        // `$name`: the projected value of `@State`, `@Binding`, `@AppStorage`,
        // `@SceneStorage` is a `Binding` of the wrapped type
        let projected = match &wrapper {
            Some((w, _))
                if matches!(
                    w.as_str(),
                    "State" | "Binding" | "AppStorage" | "SceneStorage"
                ) =>
            {
                match ty.to_ref() {
                    Some(r) if self.index.is_type("Binding") => Ty::Sdk {
                        path: "Binding".into(),
                        meta: false,
                        also: None,
                        args: vec![r],
                    },
                    _ => Ty::Unknown,
                }
            }
            _ => Ty::Unknown,
        };
        let Some(p) = d.child_by_field_name("name") else {
            return;
        };
        // `let (data, response) = try await session.data(from: url)`: each name gets its
        // element of the tuple the value has
        let parts = named_children(p);
        if p.child_by_field_name("bound_identifier").is_none()
            && parts.len() > 1
            && parts.iter().all(|x| x.kind() == "pattern")
        {
            let tys = val.and_then(|v| self.infer_tuple(v));
            for (i, part) in parts.iter().enumerate() {
                let name = part.child_by_field_name("bound_identifier").or_else(|| {
                    named_children(*part)
                        .into_iter()
                        .find(|c| c.kind() == "simple_identifier")
                });
                if let Some(nm) = name {
                    let ty = match &tys {
                        Some(t) if t.len() == parts.len() => t[i].clone(),
                        _ => Ty::Unknown,
                    };
                    let name = self.t(nm);
                    self.bind(name, ty);
                }
            }
            return;
        }
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
            if wrapper.is_some() {
                let dollar = format!("${}", ident(name));
                self.bind(
                    &dollar,
                    if single {
                        projected.clone()
                    } else {
                        Ty::Unknown
                    },
                );
            }
        }
    }

    /// An enum case pattern (`.verified(let purchase)`, `case let .unverified(_, error)`,
    /// given as the sibling nodes that spell it) matched against a value of type `subject`:
    /// each name it binds gets the case's payload type at its position (`Transaction` for
    /// `VerificationResult<Transaction>.verified(SignedType)`); unknown when the case, its
    /// payload or the positions cannot be worked out.
    pub(super) fn bind_case_pattern(&mut self, nodes: &[Node<'_>], subject: &Ty) {
        // the case name: the identifier after the (implicit member's) dot
        let Some(dot) = nodes.iter().position(|k| self.t(*k) == ".") else {
            return;
        };
        let Some(case) = nodes
            .get(dot + 1)
            .filter(|k| k.kind() == "simple_identifier")
        else {
            return;
        };
        let let_before = nodes[..dot]
            .iter()
            .any(|k| k.kind() == "value_binding_pattern");
        // the payload items, in order: a bound name (or none) each
        let items: Vec<Option<Node<'_>>> = nodes[dot + 2..]
            .iter()
            .filter(|k| k.kind() == "pattern")
            .map(|p| {
                p.child_by_field_name("bound_identifier").or_else(|| {
                    let kids = named_children(*p);
                    match kids.as_slice() {
                        [id] if let_before && id.kind() == "simple_identifier" => Some(*id),
                        _ => None,
                    }
                })
            })
            .collect();
        if items.iter().all(Option::is_none) {
            return;
        }
        let tys = match subject {
            Ty::Sdk {
                path,
                meta: false,
                also: None,
                ..
            } if subject.source_name().is_none() => {
                let name = ident(self.t(*case)).to_owned();
                let closure = self.closure_of(path);
                let cases: Vec<_> = self
                    .index
                    .member_ids_in(&closure, &name)
                    .into_iter()
                    .filter(|&id| {
                        self.index
                            .sym(id)
                            .is_some_and(|s| s.kind == SymbolKind::EnumCase)
                    })
                    .collect();
                match cases.as_slice() {
                    [id] => self.index.sym_params(*id).and_then(|ps| {
                        (ps.len() == items.len()).then(|| {
                            let ps: Vec<String> = ps.iter().map(|p| p.1.to_owned()).collect();
                            let subst = self.subst_for(subject, Some(*id));
                            ps.iter()
                                .map(|t| match TypeRef::parse(t) {
                                    Some(t) => {
                                        self.ty_of_ref(&t, &subst, subject, Some(path.as_str()), 0)
                                    }
                                    None => Ty::Unknown,
                                })
                                .collect::<Vec<Ty>>()
                        })
                    }),
                    _ => None,
                }
            }
            _ => None,
        };
        for (k, item) in items.iter().enumerate() {
            if let Some(nm) = item {
                let t = tys
                    .as_ref()
                    .and_then(|v| v.get(k).cloned())
                    .unwrap_or(Ty::Unknown);
                let name = self.t(*nm);
                self.bind(name, t);
            }
        }
    }

    /// The element types of a tuple a call returns (`URLSession.data(from:)` gives `(Data,
    /// URLResponse)`), when every candidate the labels fit agrees.
    pub(super) fn infer_tuple(&mut self, v: Node<'_>) -> Option<Vec<Ty>> {
        let mut v = v;
        while matches!(v.kind(), "try_expression" | "await_expression") {
            v = v
                .child_by_field_name("expr")
                .or_else(|| v.named_children(&mut v.walk()).last())?;
        }
        if v.kind() != "call_expression" || self.is_subscript(v) {
            return None;
        }
        let callee = v.named_child(0)?;
        if callee.kind() != "navigation_expression" {
            return None;
        }
        let target = callee.child_by_field_name("target")?;
        let name = nav_name(callee, self.src)?;
        let recv = self.infer(target, 0);
        if recv == Ty::Unknown || recv.source_name().is_some() {
            return None;
        }
        let args = self.call_args(v);
        let closure = self.closure_of_ty(&recv);
        let ids = self.index.member_ids_in(&closure, &name);
        let ids = self.prefer_staticness(ids, matches!(recv, Ty::Sdk { meta: true, .. }));
        let ids = self.compatible_ids(&ids, &args);
        let ids = self.own_first(&recv, ids);
        let mut out: Option<Vec<Ty>> = None;
        for id in ids {
            let TypeRef::Tuple(items) = TypeRef::parse(self.index.sym_type(id)?)? else {
                return None;
            };
            let subst = self.subst_for(&recv, Some(id));
            let ctx = self
                .index
                .sym(id)
                .map(|s| self.index.s(s.parent).to_owned());
            let tys: Vec<Ty> = items
                .iter()
                .map(|(_, t)| self.ty_of_ref(t, &subst, &recv, ctx.as_deref(), 0))
                .collect();
            match &out {
                None => out = Some(tys),
                Some(o) if *o == tys => {}
                Some(_) => return None,
            }
        }
        out
    }

    /// `xs[i]` with one integer index: an element of an array; `dict[key]` with a key of the
    /// dictionary's key type: its value, optional. Anything else (a range, a label, another
    /// collection) is not worked out.
    fn subscript_result(&mut self, call: Node<'_>, callee: Node<'_>, depth: usize) -> Ty {
        let args = self.call_args(call);
        let nodes = super::expect::arg_nodes(call);
        let [one] = nodes.as_slice() else {
            return Ty::Unknown;
        };
        if args.labels.len() != 1 || args.labels[0] != "_" || !args.trailing.is_empty() {
            return Ty::Unknown;
        }
        let recv = self.infer(callee, depth + 1);
        let Ty::Sdk {
            path,
            meta: false,
            also: None,
            args: targs,
        } = &recv
        else {
            return Ty::Unknown;
        };
        match (path.as_str(), targs.as_slice()) {
            ("Array" | "ArraySlice" | "ContiguousArray", [elem]) if self.is_int(*one, depth) => {
                self.ty_of_ref(elem, &Vec::new(), &Ty::Unknown, None, 0)
            }
            ("Dictionary", [key, value]) => {
                let k = self.infer(*one, depth + 1);
                if k.to_ref().as_ref() == Some(key) {
                    self.ty_of_ref(value, &Vec::new(), &Ty::Unknown, None, 0)
                        .optional()
                } else {
                    Ty::Unknown
                }
            }
            _ => Ty::Unknown,
        }
    }

    /// Whether an expression is an `Int`: typed so, or an integer literal, or integer
    /// arithmetic on such (`index - 1`).
    fn is_int(&mut self, n: Node<'_>, depth: usize) -> bool {
        if depth > 64 {
            return false;
        }
        match n.kind() {
            "integer_literal" => true,
            "additive_expression" | "multiplicative_expression" => {
                match (n.child_by_field_name("lhs"), n.child_by_field_name("rhs")) {
                    (Some(l), Some(r)) => self.is_int(l, depth + 1) && self.is_int(r, depth + 1),
                    _ => false,
                }
            }
            "tuple_expression" if n.named_child_count() == 1 => {
                n.named_child(0).is_some_and(|c| self.is_int(c, depth + 1))
            }
            _ => self.infer(n, depth + 1) == Ty::sdk("Int"),
        }
    }

    /// The element type of a collection (`for x in items`).
    pub(super) fn element_ty(&mut self, c: Node<'_>) -> Ty {
        if c.kind() == "range_expression" {
            // `1..<points.count`: integers
            let ints = match (c.child_by_field_name("start"), c.child_by_field_name("end")) {
                (Some(a), Some(b)) => self.is_int(a, 0) && self.is_int(b, 0),
                _ => false,
            };
            return if ints { Ty::sdk("Int") } else { Ty::Unknown };
        }
        match self.infer(c, 0) {
            Ty::Sdk {
                path,
                meta: false,
                also: None,
                args,
            } if matches!(path.as_str(), "Array" | "Set" | "ArraySlice") && args.len() == 1 => {
                self.ty_of_ref(&args[0], &Vec::new(), &Ty::Unknown, None, 0)
            }
            // a sequence (or async sequence) type whose `Element` typealias is recorded
            // (`NotificationCenter.Notifications`, `URL.AsyncBytes`)
            recv @ Ty::Sdk {
                meta: false,
                also: None,
                ..
            } => {
                let Ty::Sdk { path, .. } = &recv else {
                    return Ty::Unknown;
                };
                match self.alias_of(&format!("{path}.Element")) {
                    Some(t) => {
                        let subst = self.subst_for(&recv, None);
                        self.ty_of_ref(&t, &subst, &recv, Some(path), 0)
                    }
                    None => Ty::Unknown,
                }
            }
            _ => Ty::Unknown,
        }
    }

    /// The element types of a sequence whose element is a tuple (`for (i, x) in
    /// xs.enumerated()`, `for (key, value) in dict`), when known.
    pub(super) fn element_tuple(&mut self, c: Node<'_>) -> Option<Vec<Ty>> {
        let seq = self.infer(c, 0);
        if seq.source_name().is_some() {
            return None;
        }
        self.assoc_tuple(&seq, "Element", 0)
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
                        // a parameter of function type: what its calls' arguments must be
                        let fn_params = named_children(c)
                            .into_iter()
                            .find(|x| x.kind() == "function_type")
                            .and_then(|f| self.source_type_ref(f))
                            .and_then(|t| match t {
                                TypeRef::Function { params, .. } => Some(params),
                                _ => None,
                            });
                        if let Some(ps) = fn_params {
                            let tys = ps
                                .iter()
                                .map(|p| self.ty_of_ref(p, &Vec::new(), &Ty::Unknown, None, 0))
                                .collect();
                            let at = self.scopes.len().saturating_sub(1);
                            self.local_fns.insert((at, ident(name).to_owned()), tys);
                        }
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
