//! Types from the index: a symbol's recorded type (a property's type, a method's result, a
//! parameter's type) turned into a [`Ty`] relative to its receiver — the receiver's generic
//! arguments substituted (`Binding<Bool>.wrappedValue` is `Bool`), `Self` the receiver,
//! relative names of nested types found in the enclosing types, generic parameters the call
//! does not pin down left unknown.

use crate::index::{SymId, SymbolKind, TypeRef, split_top_level};

use super::Analyzer;
use super::types::{SOURCE_TYPE, Ty};

/// Generic parameters in scope for one symbol: the receiver type's (with the argument the
/// receiver supplies, when known) and the symbol's own (never known).
pub(super) type Subst = Vec<(String, Option<TypeRef>)>;

/// The generic parameter names of a recorded generic signature (`T: Decodable, U`:
/// parameters are written `Name` or `Name: Constraint`; other requirements are written
/// `lhs : rhs` or `lhs == rhs`).
pub(super) fn generic_names(sig: &str) -> Vec<String> {
    split_top_level(sig, ',')
        .into_iter()
        .filter_map(|p| {
            let p = p.trim();
            let name = p.split(':').next().unwrap_or("");
            let ok = !name.is_empty()
                && !p.contains("==")
                && name.chars().all(|c| c.is_alphanumeric() || c == '_');
            ok.then(|| name.to_owned())
        })
        .collect()
}

/// The single protocol a generic parameter is constrained to in a signature (`S` in
/// `S: ShapeStyle`, or in a where clause's `S : FormatStyle`), when that is its only
/// conformance requirement.
fn generic_constraint(sig: &str, name: &str) -> Option<String> {
    let mut found: Option<String> = None;
    for p in split_top_level(sig, ',') {
        let Some((lhs, rhs)) = p.trim().split_once(':') else {
            continue;
        };
        if lhs.trim() != name || lhs.contains("==") {
            continue;
        }
        let rhs = rhs.trim();
        if rhs.contains('&') || rhs.contains('<') || found.as_deref().is_some_and(|f| f != rhs) {
            return None;
        }
        found = Some(rhs.to_owned());
    }
    found
}

impl<'a> Analyzer<'a> {
    /// The generic parameter names of an SDK type.
    pub(super) fn type_generic_names(&self, path: &str) -> Vec<String> {
        self.index
            .type_syms(path)
            .into_iter()
            .find_map(|id| self.index.sym_generics(id))
            .map(generic_names)
            .unwrap_or_default()
    }

    /// The generic parameters a member of `recv` sees.
    pub(super) fn subst_for(&self, recv: &Ty, member: Option<SymId>) -> Subst {
        let mut s: Subst = Vec::new();
        if let Ty::Sdk { path, args, .. } = recv {
            let names = self.type_generic_names(path);
            for (i, n) in names.into_iter().enumerate() {
                s.push((n, args.get(i).cloned()));
            }
        }
        if let Some(sig) = member.and_then(|m| self.index.sym_generics(m)) {
            for n in generic_names(sig) {
                if !s.iter().any(|(x, _)| *x == n) {
                    s.push((n, None));
                }
            }
        }
        s
    }

    /// A named type's path as the index knows it: relative names are looked up in the
    /// enclosing types of `context` first (the innermost wins, as in Swift).
    fn resolve_path(&self, path: &str, context: Option<&str>) -> Option<String> {
        if let Some(ctx) = context {
            let mut c: &str = ctx;
            loop {
                let cand = format!("{c}.{path}");
                if self.index.is_type(&cand) {
                    return Some(cand);
                }
                match c.rsplit_once('.') {
                    Some((up, _)) => c = up,
                    None => break,
                }
            }
        }
        self.index.is_type(path).then(|| path.to_owned())
    }

    /// A recorded type as a [`Ty`]: `subst` the generic parameters in scope, `self_ty` what
    /// `Self` means, `context` the declaring type (for relative names).
    pub(super) fn ty_of_ref(
        &self,
        t: &TypeRef,
        subst: &Subst,
        self_ty: &Ty,
        context: Option<&str>,
        depth: usize,
    ) -> Ty {
        if depth > 8 {
            return Ty::Unknown;
        }
        match t {
            TypeRef::Named(comps) => {
                let Some(first) = comps.first() else {
                    return Ty::Unknown;
                };
                if first.name == "Self" {
                    return match (comps.len(), self_ty) {
                        (1, Ty::Sdk { .. }) => self_ty.clone().instance(),
                        // `Self.Element` of a protocol extension's member: the receiver's
                        // generic parameter or typealias of that name
                        (2, Ty::Sdk { .. }) if comps[1].args.is_empty() => {
                            self.assoc_of(self_ty, &comps[1].name, depth + 1)
                        }
                        _ => Ty::Unknown,
                    };
                }
                if let Some(own) = first.name.strip_prefix(SOURCE_TYPE)
                    && !own.is_empty()
                {
                    return if comps.len() == 1 {
                        Ty::source(own)
                    } else {
                        Ty::Unknown
                    };
                }
                if let Some((_, arg)) = subst.iter().find(|(n, _)| *n == first.name) {
                    return match (arg, comps.len()) {
                        (Some(a), 1) => {
                            self.ty_of_ref(a, &Vec::new(), &Ty::Unknown, None, depth + 1)
                        }
                        // `Data.Element` where `Data` is bound to `[Product]`
                        (Some(a), 2) if comps[1].args.is_empty() => {
                            let base =
                                self.ty_of_ref(a, &Vec::new(), &Ty::Unknown, None, depth + 1);
                            self.assoc_of(&base, &comps[1].name, depth + 1)
                        }
                        _ => Ty::Unknown,
                    };
                }
                let path = comps
                    .iter()
                    .map(|c| c.name.as_str())
                    .collect::<Vec<_>>()
                    .join(".");
                let Some(p) = self.resolve_path(&path, context) else {
                    return Ty::Unknown;
                };
                if t.args().is_empty()
                    && let Some(aliased) = self.alias_of(&p)
                {
                    return self.ty_of_ref(&aliased, &Vec::new(), &Ty::Unknown, None, depth + 1);
                }
                // `EnumeratedSequence<Self>` of a protocol extension's member: the receiver
                let with_self;
                let subst = match self_ty.to_ref() {
                    Some(r) if t.args().iter().any(mentions_self) => {
                        with_self = subst
                            .iter()
                            .cloned()
                            .chain(std::iter::once(("Self".to_owned(), Some(r))))
                            .collect::<Subst>();
                        &with_self
                    }
                    _ => subst,
                };
                Ty::Sdk {
                    path: p,
                    meta: false,
                    also: None,
                    args: t.args().iter().map(|a| substitute(a, subst)).collect(),
                }
            }
            TypeRef::Optional(inner) => self
                .ty_of_ref(inner, subst, self_ty, context, depth + 1)
                .optional(),
            TypeRef::Array(e) => Ty::Sdk {
                path: "Array".into(),
                meta: false,
                also: None,
                args: vec![self.self_assoc(substitute(e, subst), self_ty)],
            },
            TypeRef::Dictionary(k, v) => Ty::Sdk {
                path: "Dictionary".into(),
                meta: false,
                also: None,
                args: vec![
                    self.self_assoc(substitute(k, subst), self_ty),
                    self.self_assoc(substitute(v, subst), self_ty),
                ],
            },
            TypeRef::Opaque(p) | TypeRef::Existential(p) => {
                self.ty_of_ref(p, subst, self_ty, context, depth + 1)
            }
            // `CIFilter & CIGaussianBlur`: the one part that inherits all the others (the
            // protocol `CIGaussianBlur` refines `CIFilter`); none such: unknown
            TypeRef::Composition(parts) => {
                let tys: Vec<Ty> = parts
                    .iter()
                    .map(|p| self.ty_of_ref(p, subst, self_ty, context, depth + 1))
                    .collect();
                let paths: Vec<&str> = tys
                    .iter()
                    .filter_map(|t| match t {
                        Ty::Sdk {
                            path,
                            meta: false,
                            also: None,
                            ..
                        } => Some(path.as_str()),
                        _ => None,
                    })
                    .collect();
                if paths.len() != tys.len() {
                    return Ty::Unknown;
                }
                let found = tys.iter().zip(&paths).find(|(_, p)| {
                    let supers = self.index.supertypes(p);
                    paths
                        .iter()
                        .all(|q| q == *p || supers.iter().any(|s| s == q))
                });
                found.map_or(Ty::Unknown, |(t, _)| t.clone())
            }
            TypeRef::Metatype(inner) => {
                match self.ty_of_ref(inner, subst, self_ty, context, depth + 1) {
                    Ty::Sdk { path, args, .. } => Ty::Sdk {
                        path,
                        meta: true,
                        also: None,
                        args,
                    },
                    Ty::Unknown => Ty::Unknown,
                }
            }
            _ => Ty::Unknown,
        }
    }

    /// The element types of a tuple type `t` names, through typealiases and associated
    /// types (`(offset: Int, element: Base.Element)` for `EnumeratedSequence<[String]>.Element`,
    /// `(key: Key, value: Value)` for a dictionary's), each resolved as [`Self::ty_of_ref`]
    /// would; `None` when `t` is not known to be a tuple.
    pub(super) fn tuple_of_ref(
        &self,
        t: &TypeRef,
        subst: &Subst,
        self_ty: &Ty,
        context: Option<&str>,
        depth: usize,
    ) -> Option<Vec<Ty>> {
        if depth > 8 {
            return None;
        }
        match t {
            TypeRef::Tuple(items) if items.len() > 1 => Some(
                items
                    .iter()
                    .map(|(_, x)| self.ty_of_ref(x, subst, self_ty, context, depth + 1))
                    .collect(),
            ),
            TypeRef::Named(comps) => {
                let first = comps.first()?;
                if first.name == "Self" {
                    return match comps.len() {
                        2 if comps[1].args.is_empty() => {
                            self.assoc_tuple(self_ty, &comps[1].name, depth + 1)
                        }
                        _ => None,
                    };
                }
                if let Some((_, arg)) = subst.iter().find(|(n, _)| *n == first.name) {
                    let a = arg.as_ref()?;
                    return match comps.len() {
                        1 => self.tuple_of_ref(a, &Vec::new(), &Ty::Unknown, None, depth + 1),
                        2 if comps[1].args.is_empty() => {
                            let base =
                                self.ty_of_ref(a, &Vec::new(), &Ty::Unknown, None, depth + 1);
                            self.assoc_tuple(&base, &comps[1].name, depth + 1)
                        }
                        _ => None,
                    };
                }
                let path = comps
                    .iter()
                    .map(|c| c.name.as_str())
                    .collect::<Vec<_>>()
                    .join(".");
                let p = self.resolve_path(&path, context)?;
                let aliased = self.alias_of(&p)?;
                let ctx = p.rsplit_once('.').map(|(up, _)| up.to_owned());
                self.tuple_of_ref(&aliased, subst, self_ty, ctx.as_deref(), depth + 1)
            }
            _ => None,
        }
    }

    /// A generic argument `Self.Element` of a protocol extension's member (`[Self.Element]`
    /// of `Sequence.sorted(by:)`) as the receiver's element, when known; else unchanged.
    fn self_assoc(&self, t: TypeRef, self_ty: &Ty) -> TypeRef {
        if let TypeRef::Named(comps) = &t
            && let [first, member] = comps.as_slice()
            && first.name == "Self"
            && first.args.is_empty()
            && member.args.is_empty()
            && let Some(r) = self.assoc_ref(self_ty, &member.name)
        {
            return r;
        }
        t
    }

    /// `base.name` as a type argument (a tuple when it is one), when every part is known.
    pub(super) fn assoc_ref(&self, base: &Ty, name: &str) -> Option<TypeRef> {
        if let Some(items) = self.assoc_tuple(base, name, 0) {
            let items: Option<Vec<(Option<String>, TypeRef)>> = items
                .iter()
                .map(|t| t.to_ref().map(|r| (None, r)))
                .collect();
            return items.map(TypeRef::Tuple);
        }
        self.assoc_of(base, name, 0).to_ref()
    }

    /// The generic arguments `T(x)` gives a generic type `path` through an initializer
    /// `init<S>(_: S) where Element == S.Element` (`Array(xs.enumerated())` is an array of
    /// the sequence's elements): each of the type's generic parameters the initializer's
    /// requirements tie to a member type of the argument's type, when all its overloads of
    /// that shape agree. Empty when any is unknown.
    pub(super) fn init_generic_args(&self, path: &str, arg: &Ty) -> Vec<TypeRef> {
        let names = self.type_generic_names(path);
        if names.is_empty() || !matches!(arg, Ty::Sdk { meta: false, .. }) {
            return Vec::new();
        }
        let closure = self
            .index
            .str_id(path)
            .map(|id| self.index.type_closure(id));
        let Some(closure) = closure else {
            return Vec::new();
        };
        let mut out: Option<Vec<TypeRef>> = None;
        for id in self.index.member_ids_in(&closure, "init(_:)") {
            let (Some(params), Some(sig)) =
                (self.index.sym_params(id), self.index.sym_generics(id))
            else {
                continue;
            };
            let [(_, pty, _)] = params.as_slice() else {
                continue;
            };
            let mut args: Vec<TypeRef> = Vec::new();
            for n in &names {
                // `Element == S.Element` (or `Self.Element == S.Element`)
                let want = split_top_level(sig, ',').into_iter().find_map(|req| {
                    let (l, r) = req.split_once("==")?;
                    let l = l.trim();
                    let l = l.strip_prefix("Self.").unwrap_or(l);
                    let (base, member) = r.trim().split_once('.')?;
                    (l == n && base == *pty).then(|| member.to_owned())
                });
                match want.and_then(|m| self.assoc_ref(arg, &m)) {
                    Some(r) => args.push(r),
                    None => break,
                }
            }
            if args.len() != names.len() {
                continue;
            }
            match &out {
                None => out = Some(args),
                Some(o) if *o == args => {}
                Some(_) => return Vec::new(),
            }
        }
        out.unwrap_or_default()
    }

    /// [`Self::tuple_of_ref`] for `base.name` (a sequence's `Element`).
    pub(super) fn assoc_tuple(&self, base: &Ty, name: &str, depth: usize) -> Option<Vec<Ty>> {
        let Ty::Sdk {
            path,
            meta: false,
            also: None,
            args,
        } = base
        else {
            return None;
        };
        if name == "Element"
            && matches!(path.as_str(), "Array" | "Set" | "ArraySlice")
            && let [e] = args.as_slice()
        {
            return self.tuple_of_ref(e, &Vec::new(), &Ty::Unknown, None, depth + 1);
        }
        let own = self.subst_for(base, None);
        if let Some((_, arg)) = own.iter().find(|(n, _)| n == name) {
            let a = arg.as_ref()?;
            return self.tuple_of_ref(a, &Vec::new(), &Ty::Unknown, None, depth + 1);
        }
        let aliased = self.alias_of(&format!("{path}.{name}"))?;
        self.tuple_of_ref(&aliased, &own, base, Some(path), depth + 1)
    }

    /// `T.name` for a known type `T`: the element of an array or set (`Element`), else `T`'s
    /// generic parameter or typealias of that name (`Self.Element`, `Data.Element`).
    fn assoc_of(&self, base: &Ty, name: &str, depth: usize) -> Ty {
        let Ty::Sdk {
            path,
            meta: false,
            also: None,
            args,
        } = base
        else {
            return Ty::Unknown;
        };
        if name == "Element"
            && matches!(path.as_str(), "Array" | "Set" | "ArraySlice")
            && let [e] = args.as_slice()
        {
            return self.ty_of_ref(e, &Vec::new(), &Ty::Unknown, None, depth + 1);
        }
        let own = self.subst_for(base, None);
        if let Some((_, arg)) = own.iter().find(|(n, _)| n == name) {
            return match arg {
                Some(a) => self.ty_of_ref(a, &Vec::new(), &Ty::Unknown, None, depth + 1),
                None => Ty::Unknown,
            };
        }
        let nested = format!("{path}.{name}");
        match self.alias_of(&nested) {
            Some(a) => self.ty_of_ref(&a, &own, base, Some(path), depth + 1),
            // a nested type of that name is the associated type's witness
            // (`DragGesture.Value` for `Gesture.Value`)
            None if args.is_empty() && self.index.is_type(&nested) => Ty::sdk(&nested),
            None => Ty::Unknown,
        }
    }

    /// The type a use of `id` on `recv` has: an enum case or initializer the receiver's
    /// type, anything else its recorded type.
    pub(super) fn member_ty(&self, recv: &Ty, id: SymId) -> Ty {
        let Some(s) = self.index.sym(id) else {
            return Ty::Unknown;
        };
        let parent = self.index.s(s.parent).to_owned();
        match s.kind {
            SymbolKind::EnumCase => {
                return match recv {
                    Ty::Sdk { .. } => recv.clone().instance(),
                    Ty::Unknown => Ty::Unknown,
                };
            }
            k if k.is_type() => return Ty::Unknown,
            _ => {}
        }
        let Some(t) = self.index.sym_type(id).and_then(TypeRef::parse) else {
            return Ty::Unknown;
        };
        let subst = self.subst_for(recv, Some(id));
        let ctx = (!parent.is_empty()).then_some(parent.as_str());
        self.ty_of_ref(&t, &subst, recv, ctx, 0)
    }

    /// The one type all candidates agree on. Candidates that agree on the type but not on
    /// its generic arguments (`Sequence.filter` gives `[Self.Element]`,
    /// `RangeReplaceableCollection.filter` gives `Self`; the two `flatMap`s give arrays of
    /// different elements) agree on the type with its arguments unknown: its members are
    /// known, the element's are not.
    pub(super) fn agreed_ty(&self, recv: &Ty, ids: &[SymId]) -> Ty {
        let mut out: Option<Ty> = None;
        for &id in ids {
            let t = self.member_ty(recv, id);
            if t == Ty::Unknown {
                return Ty::Unknown;
            }
            match &mut out {
                None => out = Some(t),
                Some(o) if *o == t => {}
                Some(Ty::Sdk {
                    path,
                    meta,
                    also,
                    args,
                }) => match &t {
                    Ty::Sdk {
                        path: p,
                        meta: m,
                        also: a,
                        ..
                    } if p == path && m == meta && a == also => args.clear(),
                    _ => return Ty::Unknown,
                },
                Some(Ty::Unknown) => return Ty::Unknown,
            }
        }
        out.unwrap_or(Ty::Unknown)
    }

    /// The recorded type of parameter `pi` of a callee (`id`) on `recv`, as the type an
    /// argument there must have: a generic parameter constrained to one protocol stands for
    /// that protocol (its static members, and those of its constrained extensions, are the
    /// valid implicit members).
    pub(super) fn param_ty(&self, recv: &Ty, id: SymId, pi: usize) -> (Ty, Option<TypeRef>) {
        let Some(params) = self.index.sym_params(id) else {
            return (Ty::Unknown, None);
        };
        let Some((_, ty, _)) = params.get(pi) else {
            return (Ty::Unknown, None);
        };
        let Some(t) = TypeRef::parse(ty) else {
            return (Ty::Unknown, None);
        };
        let s = self.index.sym(id);
        let ctx = s.map(|s| self.index.s(s.parent).to_owned());
        let ctx = ctx.as_deref().filter(|c| !c.is_empty());
        let subst = self.subst_for(recv, Some(id));
        // `S` where `S: ShapeStyle`
        if let TypeRef::Named(comps) = t.unwrapped()
            && comps.len() == 1
            && let Some(sig) = self.index.sym_generics(id)
            && let Some(p) = generic_constraint(sig, &comps[0].name)
            && let Some(proto) = self.resolve_path(&p, None)
        {
            let ty = Ty::sdk(&proto);
            let ty = if matches!(t, TypeRef::Optional(_)) {
                ty.optional()
            } else {
                ty
            };
            return (ty, Some(t));
        }
        let ty = self.ty_of_ref(&t, &subst, recv, ctx, 0);
        (ty, Some(substitute(&t, &subst)))
    }

    /// The type a typealias stands for (`TimeInterval` → `Double`), when every declaration
    /// of that path is a typealias with a recorded type.
    pub(super) fn alias_of(&self, path: &str) -> Option<TypeRef> {
        let ids = self.index.type_syms(path);
        let mut out: Option<TypeRef> = None;
        for id in ids {
            let s = self.index.sym(id)?;
            if s.kind != SymbolKind::Typealias {
                return None;
            }
            let t = TypeRef::parse(self.index.sym_type(id)?)?;
            match &out {
                Some(o) if *o != t => return None,
                _ => out = Some(t),
            }
        }
        out
    }

    /// Candidates declared on the receiver's own type win over inherited ones (Swift picks
    /// the most specific overload: `Text.font(_:)` over `View.font(_:)` on a `Text`).
    pub(super) fn own_first(&self, recv: &Ty, ids: Vec<SymId>) -> Vec<SymId> {
        let Ty::Sdk { path, .. } = recv else {
            return ids;
        };
        let own: Vec<SymId> = ids
            .iter()
            .copied()
            .filter(|&id| {
                self.index
                    .sym(id)
                    .is_some_and(|s| self.index.s(s.parent) == path)
            })
            .collect();
        if own.is_empty() { ids } else { own }
    }

    /// Whether a path is an SDK protocol.
    pub(super) fn is_protocol(&self, path: &str) -> bool {
        self.index.type_syms(path).iter().any(|&id| {
            self.index
                .sym(id)
                .is_some_and(|s| s.kind == SymbolKind::Protocol)
        })
    }
}

/// Whether `t` names `Self` (alone or as a prefix: `Self.Element`).
fn mentions_self(t: &TypeRef) -> bool {
    match t {
        TypeRef::Named(comps) => {
            comps.first().is_some_and(|c| c.name == "Self")
                || comps.iter().any(|c| c.args.iter().any(mentions_self))
        }
        TypeRef::Optional(x) | TypeRef::Array(x) | TypeRef::Metatype(x) => mentions_self(x),
        TypeRef::Dictionary(k, v) => mentions_self(k) || mentions_self(v),
        _ => false,
    }
}

/// `t` with the known generic arguments put in.
fn substitute(t: &TypeRef, subst: &Subst) -> TypeRef {
    match t {
        TypeRef::Named(comps) => {
            if comps.len() == 1
                && comps[0].args.is_empty()
                && let Some((_, Some(a))) = subst.iter().find(|(n, _)| *n == comps[0].name)
            {
                return a.clone();
            }
            TypeRef::Named(
                comps
                    .iter()
                    .map(|c| crate::index::NameComp {
                        name: c.name.clone(),
                        args: c.args.iter().map(|a| substitute(a, subst)).collect(),
                    })
                    .collect(),
            )
        }
        TypeRef::Optional(x) => TypeRef::Optional(Box::new(substitute(x, subst))),
        TypeRef::Array(x) => TypeRef::Array(Box::new(substitute(x, subst))),
        TypeRef::Dictionary(k, v) => TypeRef::Dictionary(
            Box::new(substitute(k, subst)),
            Box::new(substitute(v, subst)),
        ),
        TypeRef::Tuple(items) => TypeRef::Tuple(
            items
                .iter()
                .map(|(l, x)| (l.clone(), substitute(x, subst)))
                .collect(),
        ),
        TypeRef::Function {
            params,
            ret,
            is_async,
            throws,
        } => TypeRef::Function {
            params: params.iter().map(|p| substitute(p, subst)).collect(),
            ret: Box::new(substitute(ret, subst)),
            is_async: *is_async,
            throws: *throws,
        },
        TypeRef::Opaque(x) => TypeRef::Opaque(Box::new(substitute(x, subst))),
        TypeRef::Existential(x) => TypeRef::Existential(Box::new(substitute(x, subst))),
        TypeRef::Composition(xs) => {
            TypeRef::Composition(xs.iter().map(|x| substitute(x, subst)).collect())
        }
        TypeRef::Metatype(x) => TypeRef::Metatype(Box::new(substitute(x, subst))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generic_signatures() {
        assert_eq!(generic_names("T: Decodable, U"), vec!["T", "U"]);
        assert_eq!(
            generic_names("Value, Self == Binding<Bool>, Value : Equatable"),
            vec!["Value"]
        );
        assert_eq!(
            generic_constraint("S: ShapeStyle", "S").as_deref(),
            Some("ShapeStyle")
        );
        // a where clause's requirement on the parameter itself is the same constraint
        assert_eq!(
            generic_constraint(
                "S, S : FormatStyle, S.FormatInput : BinaryFloatingPoint",
                "S"
            )
            .as_deref(),
            Some("FormatStyle")
        );
        assert_eq!(generic_constraint("S: A & B", "S"), None);
        assert_eq!(generic_constraint("S: A, S : B", "S"), None);
    }
}
