//! Expected types: what a call's callee says each argument must be (an implicit member
//! argument is looked up in the parameter's type; a closure argument's parameters get the
//! function type's parameter types), and the same for an assignment to a property of known
//! type, a `return` in a function with a declared SDK result, and `case` patterns of a
//! `switch` over a value of known type.

use tree_sitter::Node;

use super::labels::{CallArgs, trailing_of};
use super::types::Ty;
use super::{Analyzer, capitalized, children, ident, named_children, nav_name};
use crate::builtins;
use crate::index::{F_APPROX, SymId, SymbolKind, TypeRef};

/// Where each argument goes: the parameter index of each parenthesized argument, then of
/// each trailing closure; `None` when the labels do not line up with the parameters.
pub(super) fn align(params: &[(&str, &str, bool)], args: &CallArgs) -> Option<Vec<usize>> {
    let mut out = Vec::new();
    let mut pi = 0usize;
    let mut last: Option<usize> = None;
    for a in &args.labels {
        let mut j = pi;
        let mut found = None;
        while j < params.len() {
            if params[j].0 == a {
                found = Some(j);
                break;
            }
            if !params[j].2 {
                break;
            }
            j += 1;
        }
        match (found, last) {
            (Some(j), _) => {
                out.push(j);
                pi = j + 1;
                last = Some(j);
            }
            // more arguments of a variadic parameter
            (None, Some(l)) if a == "_" => out.push(l),
            _ => return None,
        }
    }
    for (ti, t) in args.trailing.iter().enumerate() {
        let mut j = pi;
        let mut found = None;
        while j < params.len() {
            let is_fn = matches!(
                TypeRef::parse(params[j].1).as_ref().map(TypeRef::unwrapped),
                Some(TypeRef::Function { .. })
            );
            if (ti == 0 && is_fn) || (ti > 0 && params[j].0 == t) {
                found = Some(j);
                break;
            }
            if !params[j].2 && ti > 0 {
                break;
            }
            j += 1;
        }
        let j = found?;
        out.push(j);
        pi = j + 1;
    }
    Some(out)
}

/// The value nodes of a call's arguments (parenthesized, then trailing closures).
pub(super) fn arg_nodes<'t>(call: Node<'t>) -> Vec<Node<'t>> {
    let mut out = match trailing_of(call) {
        Some(inner) => arg_nodes(inner),
        None => Vec::new(),
    };
    let Some(suffix) = children(call)
        .into_iter()
        .find(|c| matches!(c.kind(), "call_suffix" | "constructor_suffix"))
    else {
        return out;
    };
    for c in children(suffix) {
        match c.kind() {
            "value_arguments" => {
                for v in named_children(c) {
                    if v.kind() != "value_argument" {
                        continue;
                    }
                    // the value is the last named child (after the label)
                    if let Some(val) = v
                        .child_by_field_name("value")
                        .or_else(|| named_children(v).into_iter().last())
                    {
                        out.push(val);
                    }
                }
            }
            "lambda_literal" => out.push(c),
            _ => {}
        }
    }
    out
}

/// One type all candidates agree on. Candidates that differ only in optionality
/// (`design: Font.Design? = nil` beside an older `design: Font.Design = .default`) agree on
/// the optional: an implicit member there is one of the wrapped type's (or `Optional`'s).
pub(super) fn agree(tys: Vec<Ty>) -> Ty {
    let mut it = tys.into_iter();
    let Some(first) = it.next() else {
        return Ty::Unknown;
    };
    let mut optional = matches!(&first, Ty::Sdk { also: Some(a), .. } if a == "Optional");
    let base = first.unwrapped();
    for t in it {
        optional |= matches!(&t, Ty::Sdk { also: Some(a), .. } if a == "Optional");
        if t.unwrapped() != base {
            return Ty::Unknown;
        }
    }
    if optional { base.optional() } else { base }
}

impl<'a> Analyzer<'a> {
    /// A call's receiver and the callee declarations its labels fit.
    pub(super) fn callee(&mut self, call: Node<'_>, args: &CallArgs) -> Option<(Ty, Vec<SymId>)> {
        let callee = match trailing_of(call) {
            Some(inner) => inner.named_child(0)?,
            None => call.named_child(0)?,
        };
        if self.is_subscript(call) {
            return None;
        }
        let (recv, ids) = match callee.kind() {
            "simple_identifier" => {
                let name = ident(self.t(callee));
                if self.declared_value(name) || self.declared_type(name) || self.is_local(name) {
                    return None;
                }
                if capitalized(name) {
                    let p = self.sdk_type_path(&[name])?;
                    let closure = self.closure_of(&p);
                    (Ty::meta(&p), self.index.member_ids_in(&closure, "init"))
                } else if let Some(sup) = self.implicit_self_method(name) {
                    // `run(.sequence(…))` in an `SKScene` subclass: `self.run`, a method of
                    // the one SDK supertype that has it (members win over globals)
                    let closure = self.closure_of(&sup);
                    (Ty::sdk(&sup), self.index.member_ids_in(&closure, name))
                } else {
                    (Ty::Unknown, self.top_level_funcs(name))
                }
            }
            "navigation_expression" => {
                let target = callee.child_by_field_name("target")?;
                if target.kind() == "key_path_expression" {
                    return None;
                }
                let name = nav_name(callee, self.src)?;
                let mut recv = self.infer(target, 0);
                if recv == Ty::Unknown {
                    return None;
                }
                // the source's own type: a member it does not declare is its SDK supertype's
                let own = recv.source_name().map(str::to_owned);
                if let Some(own) = own
                    && matches!(recv, Ty::Sdk { meta: false, .. })
                {
                    let sup = self.source_super_for(&own, &name)?;
                    recv = Ty::sdk(&sup);
                }
                let closure = self.closure_of_ty(&recv);
                let ids = self.index.member_ids_in(&closure, &name);
                let meta = matches!(recv, Ty::Sdk { meta: true, .. });
                (recv, self.prefer_staticness(ids, meta || name == "init"))
            }
            "prefix_expression" => {
                let t = callee.child_by_field_name("target")?;
                let implicit = callee
                    .child_by_field_name("operation")
                    .is_some_and(|o| self.t(o) == ".");
                if implicit
                    && t.kind() == "navigation_expression"
                    && let Some(inner) = t.child_by_field_name("target")
                    && let Some(name) = nav_name(t, self.src)
                {
                    // `.dateTime.weekday(.wide)`: a method of the chain's receiver
                    let recv = self.infer(inner, 0);
                    if !matches!(recv, Ty::Sdk { meta: false, .. }) || recv.source_name().is_some()
                    {
                        return None;
                    }
                    let closure = self.closure_of_ty(&recv);
                    let ids = self.index.member_ids_in(&closure, &name);
                    let ids = self.prefer_staticness(ids, false);
                    let ids = self.compatible_ids(&ids, args);
                    return (!ids.is_empty()).then_some((recv, ids));
                }
                if !implicit || t.kind() != "simple_identifier" {
                    return None;
                }
                let Some(Ty::Sdk { path, .. }) = self.expected_at(call) else {
                    return None;
                };
                let name = ident(self.t(t)).to_owned();
                let recv = Ty::meta(&path);
                let closure = self.closure_of(&path);
                let ids = self.index.member_ids_in(&closure, &name);
                (recv, self.prefer_staticness(ids, true))
            }
            _ => return None,
        };
        let ids = self.compatible_ids(&ids, args);
        (!ids.is_empty()).then_some((recv, ids))
    }

    /// The one SDK supertype of the enclosing type declaration with a method `name` (called
    /// through implicit `self`).
    fn implicit_self_method(&mut self, name: &str) -> Option<String> {
        if self.type_scopes.is_empty() {
            return None;
        }
        let supers = self.type_ctx.last().cloned().unwrap_or_default();
        let mut found = None;
        for p in supers {
            let closure = self.closure_of(&p);
            let has = self.index.member_ids_in(&closure, name).iter().any(|&id| {
                self.index
                    .sym(id)
                    .is_some_and(|s| s.kind == SymbolKind::Method)
            });
            if has {
                if found.is_some() {
                    return None;
                }
                found = Some(p);
            }
        }
        found
    }

    fn is_local(&self, name: &str) -> bool {
        self.scopes.iter().any(|s| s.contains_key(name))
    }

    /// Records what each argument of a call must be: the type of an implicit member
    /// argument, the parameter types of a closure argument.
    pub(super) fn expect_args(&mut self, call: Node<'_>, args: &CallArgs) {
        let nodes = arg_nodes(call);
        if nodes.is_empty() || !nodes.iter().any(|n| wants_type(*n, self.src)) {
            return;
        }
        let Some((recv, ids)) = self.callee(call, args) else {
            self.expect_local_fn_args(call, args, &nodes);
            return;
        };

        // a candidate none of whose recorded parameters can be a function cannot take a
        // trailing closure (`AsyncImage(url:scale:)` beside `init(url:scale:transaction:content:)`)
        let ids: Vec<SymId> = if args.trailing.is_empty() {
            ids
        } else {
            ids.into_iter()
                .filter(|&id| !self.takes_no_closure(id))
                .collect()
        };
        let aligned: Vec<(SymId, Vec<usize>)> = ids
            .iter()
            .filter_map(|&id| {
                let params = self.index.sym_params(id)?;
                let n = args.labels.len() + args.trailing.len();
                align(&params, args)
                    .or_else(|| {
                        // a trailing closure for a parameter typed by a typealias of a
                        // function type (`CMDeviceMotionHandler`)
                        if args.trailing.is_empty() {
                            return None;
                        }
                        let expanded: Vec<String> = params
                            .iter()
                            .map(|p| self.function_alias(id, p.1))
                            .collect();
                        let params: Vec<(&str, &str, bool)> = params
                            .iter()
                            .zip(&expanded)
                            .map(|(p, t)| (p.0, t.as_str(), p.2))
                            .collect();
                        align(&params, args)
                    })
                    .or_else(|| {
                        // an imported method whose labels the index only derives, called
                        // with as many arguments and labels near the derived ones
                        // (`quantitySamplePredicate:` for the derived `quantitySample:`):
                        // argument by argument
                        (params.len() == n
                            && self.index.sym(id).is_some_and(|s| s.flags & F_APPROX != 0)
                            && self.labels_near(id, args))
                        .then(|| (0..n).collect())
                    })
                    .map(|a| (id, a))
            })
            .collect();
        // every candidate must say where each argument goes
        if aligned.is_empty() || aligned.len() != ids.len() {
            self.expect_element_closure(&nodes, &recv, &ids);
            return;
        }
        for (ai, node) in nodes.iter().enumerate() {
            if !wants_type(*node, self.src) {
                continue;
            }
            if node.kind() == "lambda_literal" {
                let mut per: Vec<Option<Vec<Ty>>> = Vec::new();
                let arity = explicit_arity(*node);
                for (id, a) in &aligned {
                    let bound = self.bound_generics(*id, a, &nodes);
                    per.push(
                        a.get(ai)
                            .and_then(|&pi| self.closure_param_tys(&recv, *id, pi, &bound, arity)),
                    );
                }
                // a closure that lists its parameters cannot be passed where a function of
                // another arity is expected (`AsyncStream { continuation in … }` is not
                // `init(unfolding:onCancel:)`, whose function takes none)
                if let Some(n) = explicit_arity(*node) {
                    let fits: Vec<Option<Vec<Ty>>> = per
                        .iter()
                        .filter(|p| p.as_ref().is_none_or(|t| t.len() == n))
                        .cloned()
                        .collect();
                    if !fits.is_empty() {
                        per = fits;
                    }
                }
                if let Some(tys) = agree_each(per) {
                    self.closure_params.insert(node.start_byte(), tys);
                }
                continue;
            }
            let mut tys: Vec<Ty> = aligned
                .iter()
                .map(|(id, a)| match a.get(ai) {
                    Some(&pi) => self.param_ty(&recv, *id, pi).0,
                    None => Ty::Unknown,
                })
                .collect();
            if let Some(t) = self.memberwise_field_ty(&recv, args, ai) {
                tys.push(t);
            }
            let t = agree(tys.clone());
            if t != Ty::Unknown {
                if aligned
                    .iter()
                    .all(|(id, a)| a.get(ai).is_some_and(|&pi| self.param_is_generic(*id, pi)))
                {
                    self.generic_expected.insert(node.start_byte());
                }
                self.expected.insert(node.start_byte(), t);
            } else if tys
                .iter()
                .all(|t| matches!(t, Ty::Sdk { meta: false, .. }) && t.source_name().is_none())
                // every overload is known (none stands for several)
                && !aligned.iter().any(|(id, _)| self.sym_merged(*id))
            {
                // overloads that disagree (`seek(to: Date)`, `seek(to: CMTime)`): an implicit
                // member there is one of some overload's parameter type
                let mut distinct: Vec<Ty> = Vec::new();
                for t in tys {
                    if !distinct.contains(&t) {
                        distinct.push(t);
                    }
                }
                if aligned
                    .iter()
                    .all(|(id, a)| a.get(ai).is_some_and(|&pi| self.param_is_generic(*id, pi)))
                {
                    self.generic_expected.insert(node.start_byte());
                }
                self.expected_any.insert(node.start_byte(), distinct);
            }
        }
    }

    /// Whether parameter `pi` of `id` is typed by one of its generic parameters (`S` in
    /// `buttonStyle<S>(_ style: S) where S : PrimitiveButtonStyle`).
    fn param_is_generic(&self, id: SymId, pi: usize) -> bool {
        // a symbol standing for several overloads: another may take a concrete type there
        if self.sym_merged(id) {
            return false;
        }
        let Some(params) = self.index.sym_params(id) else {
            return false;
        };
        let Some(t) = params.get(pi).and_then(|p| TypeRef::parse(p.1)) else {
            return false;
        };
        let TypeRef::Named(comps) = t.unwrapped() else {
            return false;
        };
        let [c] = comps.as_slice() else {
            return false;
        };
        // … and decided by that argument alone: a generic parameter another parameter
        // mentions (`focused(_: FocusState<Value>.Binding, equals: Value)`) is bound there
        let mentioned_elsewhere = params.iter().enumerate().any(|(k, p)| {
            k != pi
                && p.1
                    .split(|ch: char| !(ch.is_alphanumeric() || ch == '_'))
                    .any(|w| w == c.name)
        });
        c.args.is_empty()
            && !mentioned_elsewhere
            && self
                .index
                .sym_generics(id)
                .is_some_and(|g| super::typing::generic_names(g).contains(&c.name))
    }

    /// `completionHandler([.alert, .sound])` where `completionHandler` is a parameter of
    /// function type: each argument must have that function's parameter type.
    fn expect_local_fn_args(&mut self, call: Node<'_>, args: &CallArgs, nodes: &[Node<'_>]) {
        let callee = match trailing_of(call) {
            Some(inner) => inner.named_child(0),
            None => call.named_child(0),
        };
        let Some(callee) = callee.filter(|c| c.kind() == "simple_identifier") else {
            return;
        };
        let name = ident(self.t(callee)).to_owned();
        let Some(params) = self.local_fn(&name).cloned() else {
            return;
        };
        // a function value's call has no argument labels
        if args.labels.iter().any(|l| l != "_")
            || args.labels.len() + args.trailing.len() != params.len()
            || nodes.len() != params.len()
        {
            return;
        }
        for (node, t) in nodes.iter().zip(params) {
            if node.kind() != "lambda_literal"
                && wants_type(*node, self.src)
                && matches!(t, Ty::Sdk { meta: false, .. })
                && t.source_name().is_none()
            {
                self.expected.insert(node.start_byte(), t);
            }
        }
    }

    /// An imported C struct has a memberwise initializer the facts do not list
    /// (`CGSize(width:height:)` with `CGFloat`s beside the overlay's `Int` and `Double`
    /// ones): the type of the field that argument `ai`'s label names (unknown when not
    /// recorded), when the call constructs such a struct and every label names a field.
    fn memberwise_field_ty(&mut self, recv: &Ty, args: &CallArgs, ai: usize) -> Option<Ty> {
        let Ty::Sdk {
            path, meta: true, ..
        } = recv
        else {
            return None;
        };
        let c_struct = self.index.type_syms(path).iter().any(|&id| {
            self.index
                .sym(id)
                .is_some_and(|s| s.kind == SymbolKind::Struct && self.sym_is_objc(id))
        });
        if !c_struct || !args.trailing.is_empty() {
            return None;
        }
        args.labels.get(ai)?;
        let inst = Ty::sdk(path);
        let closure = self.closure_of(path);
        let mut field = None;
        for (i, l) in args.labels.iter().enumerate() {
            let is_field = self.index.member_ids_in(&closure, l).iter().any(|&id| {
                self.index
                    .sym(id)
                    .is_some_and(|s| s.kind == SymbolKind::Property)
            });
            if !is_field {
                return None;
            }
            if i == ai {
                // its type when recorded; else unknown, which decides nothing either
                field = Some(self.property_result(&inst, l));
            }
        }
        field
    }

    /// The closure passed last to a standard-library sequence method the index has no
    /// signature for (`items.sorted { $0.date < $1.date }`): its parameters are elements,
    /// when every candidate agrees on that shape.
    fn expect_element_closure(&mut self, nodes: &[Node<'_>], recv: &Ty, ids: &[SymId]) {
        let Some(last) = nodes.last() else {
            return;
        };
        if last.kind() != "lambda_literal"
            || nodes[..nodes.len() - 1]
                .iter()
                .any(|n| n.kind() == "lambda_literal")
        {
            return;
        }
        let Ty::Sdk {
            path,
            meta: false,
            also: None,
            args,
        } = recv
        else {
            return;
        };
        let ([elem], true) = (
            args.as_slice(),
            matches!(path.as_str(), "Array" | "Set" | "ArraySlice"),
        ) else {
            return;
        };
        let mut arity: Option<usize> = None;
        for &id in ids {
            // a candidate whose recorded parameters take no function cannot take the closure
            // (`sorted(using:)` beside `sorted(by:)`)
            if let Some(params) = self.index.sym_params(id)
                && !params.iter().any(|(_, t, _)| {
                    TypeRef::parse(t)
                        .is_some_and(|t| matches!(t.unwrapped(), TypeRef::Function { .. }))
                })
            {
                continue;
            }
            let Some(s) = self.index.sym(id) else {
                return;
            };
            let title = self.index.s(s.name);
            let Some(&(_, k)) = builtins::ELEMENT_CLOSURES.iter().find(|(t, _)| *t == title) else {
                return;
            };
            if self.index.s(s.module) != "Swift" || arity.is_some_and(|a| a != k) {
                return;
            }
            arity = Some(k);
        }
        let Some(k) = arity else {
            return;
        };
        let t = self.ty_of_ref(elem, &Vec::new(), &Ty::Unknown, None, 0);
        if t == Ty::Unknown {
            return;
        }
        self.closure_params.insert(last.start_byte(), vec![t; k]);
    }

    /// Whether every recorded parameter of `id` names an SDK struct, enum or class (optional
    /// or not): none can be a closure.
    fn takes_no_closure(&self, id: SymId) -> bool {
        let Some(params) = self.index.sym_params(id) else {
            return false;
        };
        params.iter().all(|(_, t, _)| {
            let Some(t) = TypeRef::parse(t) else {
                return false;
            };
            let TypeRef::Named(comps) = t.unwrapped() else {
                return false;
            };
            if comps.iter().any(|c| !c.args.is_empty()) {
                return false;
            }
            let path = comps
                .iter()
                .map(|c| c.name.as_str())
                .collect::<Vec<_>>()
                .join(".");
            let kinds: Vec<SymbolKind> = self
                .index
                .type_syms(&path)
                .iter()
                .filter_map(|&i| self.index.sym(i).map(|s| s.kind))
                .collect();
            // a nominal type of that name (an Objective-C typealias beside it is the same type)
            kinds
                .iter()
                .any(|k| matches!(k, SymbolKind::Struct | SymbolKind::Enum | SymbolKind::Class))
        })
    }

    /// The method's generic parameters an argument decides (`V` in `onChange(of: phase)`,
    /// whose parameter is `of: V`): the argument's known SDK type.
    fn bound_generics(
        &mut self,
        id: SymId,
        aligned: &[usize],
        nodes: &[Node<'_>],
    ) -> Vec<(String, TypeRef)> {
        let mut out: Vec<(String, TypeRef)> = Vec::new();
        let Some(params) = self.index.sym_params(id) else {
            return out;
        };
        let mut generics: Vec<String> = self
            .index
            .sym_generics(id)
            .map(super::typing::generic_names)
            .unwrap_or_default();
        // an initializer's arguments decide its type's generic parameters too (`Data` of
        // `ForEach.init(_ data: Data, content:)`)
        if let Some(s) = self.index.sym(id)
            && s.kind == SymbolKind::Init
        {
            let parent = self.index.s(s.parent).to_owned();
            generics.extend(self.type_generic_names(&parent));
        }
        if generics.is_empty() {
            return out;
        }
        let params: Vec<String> = params.iter().map(|(_, t, _)| (*t).to_owned()).collect();
        for (ai, node) in nodes.iter().enumerate() {
            let Some(p) = aligned.get(ai).and_then(|&pi| params.get(pi)) else {
                continue;
            };
            if !generics.iter().any(|g| g == p) || wants_type(*node, self.src) {
                continue;
            }
            let t = self.infer(*node, 0);
            if t.source_name().is_some() {
                continue;
            }
            if let Ty::Sdk { meta: false, .. } = t
                && let Some(r) = t.to_ref()
            {
                match out.iter().find(|(g, _)| g == p) {
                    Some((_, prev)) if *prev != r => {
                        out.retain(|(g, _)| g != p);
                    }
                    Some(_) => {}
                    None => out.push((p.clone(), r)),
                }
            }
        }
        out
    }

    /// The parameter types of the function type parameter `pi` of `id` expects. A closure
    /// listing `arity` > 1 parameters where the function takes one tuple (`{ index, row in }`
    /// for an `enumerated()` element, `{ key, value in }` for a dictionary's) takes the
    /// tuple's elements.
    fn closure_param_tys(
        &self,
        recv: &Ty,
        id: SymId,
        pi: usize,
        bound: &[(String, TypeRef)],
        arity: Option<usize>,
    ) -> Option<Vec<Ty>> {
        let params = self.index.sym_params(id)?;
        // a typealias of a function type (`CMDeviceMotionHandler`) is that function type
        let t = TypeRef::parse(&self.function_alias(id, params.get(pi)?.1))?;
        let TypeRef::Function { params: fps, .. } = t.unwrapped() else {
            return None;
        };
        let mut subst = self.subst_for(recv, Some(id));
        for (name, arg) in subst.iter_mut() {
            if arg.is_none()
                && let Some((_, t)) = bound.iter().find(|(b, _)| b == name)
            {
                *arg = Some(t.clone());
            }
        }
        let ctx = self
            .index
            .sym(id)
            .map(|s| self.index.s(s.parent).to_owned())
            .filter(|c| !c.is_empty());
        if let (Some(n), [one]) = (arity, fps.as_slice())
            && n > 1
        {
            return self
                .tuple_of_ref(one, &subst, recv, ctx.as_deref(), 0)
                .filter(|t| t.len() == n);
        }
        Some(
            fps.iter()
                .map(|p| self.ty_of_ref(p, &subst, recv, ctx.as_deref(), 0))
                .collect(),
        )
    }

    /// A parameter type of `id` spelled as a typealias of a function type
    /// (`CMDeviceMotionHandler`, optional or not): the function type it stands for; any other
    /// spelling, and a generic parameter of the member or its type (`Comparator` of
    /// `sorted(using:)` is not Foundation's `Comparator` typealias), as it is.
    fn function_alias(&self, id: SymId, ty: &str) -> String {
        let Some(t) = TypeRef::parse(ty) else {
            return ty.to_owned();
        };
        let optional = matches!(t, TypeRef::Optional(_));
        if let TypeRef::Named(comps) = t.unwrapped()
            && comps.iter().all(|c| c.args.is_empty())
            && !self.is_generic_of(id, &comps[0].name)
        {
            let path: Vec<&str> = comps.iter().map(|c| c.name.as_str()).collect();
            if let Some(a) = self.alias_of(&path.join("."))
                && matches!(a.unwrapped(), TypeRef::Function { .. })
            {
                let f = a.unwrapped().clone();
                return if optional {
                    TypeRef::Optional(Box::new(f)).to_string()
                } else {
                    f.to_string()
                };
            }
        }
        ty.to_owned()
    }

    /// Whether `name` is a generic parameter of `id` or of the type it belongs to.
    fn is_generic_of(&self, id: SymId, name: &str) -> bool {
        if self
            .index
            .sym_generics(id)
            .is_some_and(|g| super::typing::generic_names(g).iter().any(|n| n == name))
        {
            return true;
        }
        let parent = self
            .index
            .sym(id)
            .map(|s| self.index.s(s.parent).to_owned())
            .unwrap_or_default();
        !parent.is_empty() && self.type_generic_names(&parent).iter().any(|n| n == name)
    }

    /// Binds a closure's parameters (named or `$0`…) to the types its callee gives them.
    pub(super) fn bind_closure_params(&mut self, lambda: Node<'_>) {
        // an enclosing closure's `$0` is not this one's
        if self.scopes.iter().any(|s| {
            s.keys()
                .any(|k| k.starts_with('$') && k[1..].parse::<u8>().is_ok())
        }) {
            for i in 0..10 {
                self.bind_fresh(&format!("${i}"), Ty::Unknown);
            }
        }
        let Some(tys) = self.closure_params.get(&lambda.start_byte()).cloned() else {
            return;
        };
        let mut names: Vec<Option<String>> = Vec::new();
        for c in named_children(lambda) {
            if c.kind() != "lambda_function_type" {
                continue;
            }
            for p in named_children(c) {
                if p.kind() != "lambda_function_type_parameters" {
                    continue;
                }
                for lp in named_children(p) {
                    if lp.kind() != "lambda_parameter" {
                        continue;
                    }
                    // a written type wins (bound already)
                    let typed = named_children(lp)
                        .into_iter()
                        .any(|x| x.kind() != "simple_identifier");
                    let name = named_children(lp)
                        .into_iter()
                        .rfind(|x| x.kind() == "simple_identifier")
                        .map(|x| ident(self.t(x)).to_owned());
                    names.push(if typed { None } else { name });
                }
            }
        }
        if names.is_empty() {
            for (i, t) in tys.iter().enumerate() {
                self.bind_fresh(&format!("${i}"), t.clone());
            }
            return;
        }
        if names.len() != tys.len() {
            return;
        }
        for (name, t) in names.into_iter().zip(tys) {
            if let Some(n) = name {
                self.bind_fresh(&n, t);
            }
        }
    }

    /// `value = .member` / `x.prop = .member`: the target's type is expected.
    pub(super) fn expect_assignment(&mut self, n: Node<'_>) {
        let (Some(target), Some(value)) = (
            n.child_by_field_name("target"),
            n.child_by_field_name("result"),
        ) else {
            return;
        };
        if !wants_type(value, self.src) {
            return;
        }
        let Some(expr) = named_children(target).into_iter().next() else {
            return;
        };
        let t = self.infer(expr, 0);
        if let Ty::Sdk { meta: false, .. } = t {
            self.expected.insert(value.start_byte(), t);
        }
    }

    /// `value == .member` / `value != .member` (either side): the other operand's type is
    /// expected.
    pub(super) fn expect_comparison(&mut self, n: Node<'_>) {
        let (Some(lhs), Some(op), Some(rhs)) = (
            n.child_by_field_name("lhs"),
            n.child_by_field_name("op"),
            n.child_by_field_name("rhs"),
        ) else {
            return;
        };
        if !matches!(self.t(op), "==" | "!=") {
            return;
        }
        for (value, other) in [(rhs, lhs), (lhs, rhs)] {
            if value.kind() == "lambda_literal"
                || !wants_type(value, self.src)
                || wants_type(other, self.src)
            {
                continue;
            }
            let t = self.infer(other, 0);
            if let Ty::Sdk { meta: false, .. } = t {
                self.expected.insert(value.start_byte(), t);
            }
        }
    }

    /// `[.a, .b]` where a collection is expected: each implicit member element has the
    /// element type (`Array`'s or `Set`'s argument, or the option set type itself).
    pub(super) fn expect_elements(&mut self, n: Node<'_>) {
        let Some(t) = self.expected_at(n) else {
            return;
        };
        let elem = match &t {
            Ty::Sdk {
                path,
                meta: false,
                args,
                ..
            } if matches!(path.as_str(), "Array" | "Set" | "ArraySlice") => match args.as_slice() {
                [a] => self.ty_of_ref(a, &Vec::new(), &Ty::Unknown, None, 0),
                _ => Ty::Unknown,
            },
            Ty::Sdk {
                path, meta: false, ..
            } if args_free(&t) && {
                let c = self.closure_of(path);
                self.closure_has(&c, "OptionSet")
            } =>
            {
                Ty::sdk(path)
            }
            _ => Ty::Unknown,
        };
        if let Ty::Sdk { meta: false, .. } = elem {
            for e in named_children(n) {
                if wants_type(e, self.src) && e.kind() != "lambda_literal" {
                    self.expected.insert(e.start_byte(), elem.clone());
                }
            }
        }
    }

    /// `let x: T = .member`: the annotated type is expected.
    pub(super) fn expect_property(&mut self, n: Node<'_>) {
        let Some(value) = n.child_by_field_name("value") else {
            return;
        };
        if !wants_type(value, self.src) || value.kind() == "lambda_literal" {
            return;
        }
        let Some(ann) = children(n)
            .into_iter()
            .find(|c| c.kind() == "type_annotation")
        else {
            return;
        };
        if let t @ Ty::Sdk { meta: false, .. } = self.ty_of_type_node(ann) {
            self.expected.insert(value.start_byte(), t);
        }
    }

    /// `return .member` in a function whose declared result is an SDK type.
    pub(super) fn expect_return(&mut self, n: Node<'_>) {
        if !self.t(n).starts_with("return") {
            return;
        }
        let (Some(value), Some(t)) = (n.child_by_field_name("result"), self.returns.last()) else {
            return;
        };
        if let Ty::Sdk { meta: false, .. } = t
            && wants_type(value, self.src)
        {
            let t = t.clone();
            self.expected.insert(value.start_byte(), t);
        }
    }

    /// `switch value { case .a: … }`: each implicit member pattern has the value's type.
    pub(super) fn expect_cases(&mut self, n: Node<'_>) {
        let Some(expr) = n.child_by_field_name("expr") else {
            return;
        };
        let t = self.infer(expr, 0);
        let Ty::Sdk { meta: false, .. } = t else {
            return;
        };
        for entry in named_children(n) {
            if entry.kind() != "switch_entry" {
                continue;
            }
            for sp in named_children(entry) {
                if sp.kind() != "switch_pattern" {
                    continue;
                }
                for p in named_children(sp) {
                    // `.a`, `.a(let x)`: the pattern starts with an implicit member
                    if !self.t(p).starts_with('.') {
                        continue;
                    }
                    self.expected.insert(p.start_byte(), t.clone());
                    // `case .a:` is a pattern, not an expression the walk checks
                    if let Some(id) = p.named_child(0)
                        && id.kind() == "simple_identifier"
                    {
                        let name = ident(self.t(id)).to_owned();
                        self.check_implicit_typed(&t, &name, None, id);
                    }
                }
            }
        }
    }

    /// The declared result type of a function declaration.
    pub(super) fn declared_result(&self, n: Node<'_>) -> Ty {
        let kids = children(n);
        let Some(arrow) = kids.iter().position(|c| c.kind() == "->") else {
            return Ty::Unknown;
        };
        match kids[arrow + 1..].iter().find(|c| c.is_named()) {
            Some(r) => self.ty_of_type_node(*r).instance(),
            None => Ty::Unknown,
        }
    }

    /// The implicit member expression (`.title.bold()`: tree-sitter reads the dot as
    /// applying to `title.bold`) whose first name `n` is, if any.
    pub(super) fn implicit_root<'t>(&self, n: Node<'t>) -> Option<Node<'t>> {
        let mut cur = n;
        for _ in 0..64 {
            let p = cur.parent()?;
            let first = match p.kind() {
                "navigation_expression" => p.child_by_field_name("target"),
                "call_expression" => p.named_child(0),
                "prefix_expression" => {
                    let dot = p
                        .child_by_field_name("operation")
                        .is_some_and(|o| self.t(o) == ".");
                    return (dot && p.child_by_field_name("target") == Some(cur)).then_some(p);
                }
                _ => return None,
            };
            if first != Some(cur) {
                return None;
            }
            cur = p;
        }
        None
    }
}

/// Whether an expression's meaning depends on the type expected of it (it starts with an
/// implicit member, is a closure, or is an array literal with such an element).
fn wants_type(n: Node<'_>, src: &str) -> bool {
    n.kind() == "lambda_literal"
        || src
            .get(n.start_byte()..n.end_byte())
            .is_some_and(|t| t.starts_with('.'))
        || (n.kind() == "array_literal"
            && named_children(n).into_iter().any(|e| wants_type(e, src)))
}

/// The number of parameters a closure literal lists (`a, b in`), if it lists them.
fn explicit_arity(lambda: Node<'_>) -> Option<usize> {
    for c in named_children(lambda) {
        if c.kind() != "lambda_function_type" {
            continue;
        }
        for p in named_children(c) {
            if p.kind() == "lambda_function_type_parameters" {
                return Some(
                    named_children(p)
                        .into_iter()
                        .filter(|x| x.kind() == "lambda_parameter")
                        .count(),
                );
            }
        }
    }
    None
}

/// A type without generic arguments (an option set is never generic).
fn args_free(t: &Ty) -> bool {
    matches!(t, Ty::Sdk { args, .. } if args.is_empty())
}

/// Element-wise agreement of the closure parameter types several candidates give.
fn agree_each(per: Vec<Option<Vec<Ty>>>) -> Option<Vec<Ty>> {
    let mut it = per.into_iter();
    let first = it.next()??;
    let mut out = first;
    for other in it {
        let other = other?;
        if other.len() != out.len() {
            return None;
        }
        for (a, b) in out.iter_mut().zip(other) {
            if *a != b {
                *a = Ty::Unknown;
            }
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::super::labels::test_args as args;
    use super::*;

    #[test]
    fn arguments_line_up_with_parameters() {
        let p = [
            ("date", "Date.FormatStyle.DateStyle", false),
            ("time", "Date.FormatStyle.TimeStyle", false),
        ];
        assert_eq!(align(&p, &args(&["date", "time"], &[])), Some(vec![0, 1]));
        assert_eq!(align(&p, &args(&["time"], &[])), None);
        let p = [
            ("of", "T.Type", false),
            ("returning", "R.Type", true),
            (
                "body",
                "(inout ThrowingTaskGroup<T, any Error>) async throws -> R",
                false,
            ),
        ];
        assert_eq!(align(&p, &args(&["of"], &["_"])), Some(vec![0, 2]));
        let p = [("_", "Any", false), ("separator", "String", true)];
        assert_eq!(align(&p, &args(&["_", "_"], &[])), Some(vec![0, 0]));
    }
}
