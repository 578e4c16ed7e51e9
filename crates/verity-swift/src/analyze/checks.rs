//! Each reference resolved against the index: type names, free functions, initializers,
//! members, implicit members and macros are used (with their candidates) or reported missing.

use tree_sitter::Node;

use super::labels::CallArgs;
use super::types::Ty;
use super::{
    Analyzer, MAX_NAME_CANDIDATES, RefKey, capitalized, ident, member_text, named_children,
};
use crate::builtins;
use crate::index::{
    F_APPROX, F_MERGED, F_OBJC, Index, SymId, SymbolKind, base_name, split_path, title_labels,
};

impl<'a> Analyzer<'a> {
    /// A miss, unless the facts cannot decide it (see [`crate::check`]): recorded either way,
    /// the checker decides whether it is verifiable.
    pub(super) fn unresolved_or_miss(&mut self, message: String, n: Node<'_>) {
        self.miss(message, n);
    }

    fn nested_type_exists(&self, name: &str) -> bool {
        let (Some(b), Some(empty)) = (self.index.str_id(name), self.index.str_id("")) else {
            return false;
        };
        self.index.with_base(b).iter().any(|&id| {
            self.index
                .sym(id)
                .is_some_and(|s| s.parent != empty && s.kind.is_type())
        })
    }

    pub(super) fn check_type_name(&mut self, comps: &[&str], n: Node<'_>) {
        let Some(first) = comps.first().copied() else {
            return;
        };
        if first.is_empty()
            || first.starts_with('$')
            || self.declared_type(first)
            || self.declared_value(first)
            || builtins::TYPES.contains(&first)
            || (first.len() == 1 && capitalized(first))
        {
            return;
        }
        if comps.len() == 1 && self.index.has_module(first) {
            return;
        }
        match self.sdk_type_path(comps) {
            Some(p) => {
                let ids = self.index.type_syms(&p);
                let key = RefKey {
                    name: p.rsplit('.').next().unwrap_or(&p).to_owned(),
                    recv: p.rsplit_once('.').map(|(a, _)| a.to_owned()),
                    is_type: true,
                    ..RefKey::default()
                };
                self.used(p.clone(), ids, n, true, key);
            }
            None => {
                if comps.len() == 1 {
                    if let Some(ids) = self.contextual_type(first) {
                        let key = RefKey {
                            name: first.to_owned(),
                            is_type: true,
                            ..RefKey::default()
                        };
                        self.used(first.to_owned(), ids, n, true, key);
                        return;
                    }
                    if self.in_type > 0 && self.nested_type_exists(first) {
                        return;
                    }
                }
                // a nested name under a known type whose members are incomplete
                if comps.len() > 1
                    && let Some(p) = self.sdk_type_path(&comps[..1])
                    && (self.roots_incomplete(&[p.as_str()])
                        || self.declared_type(comps[comps.len() - 1]))
                {
                    return;
                }
                // a top-level function or constant with a capitalized name
                // (`NSLocalizedString`, `NSNotFound`, `M_PI`)
                if comps.len() == 1 && self.top_level_value(first) {
                    return;
                }
                self.out.references += 1;
                self.unresolved_or_miss(
                    format!("type `{}` is not in the SDK index", comps.join(".")),
                    n,
                );
            }
        }
    }

    pub(super) fn check_user_type(&mut self, n: Node<'_>) {
        let comps: Vec<&str> = named_children(n)
            .into_iter()
            .filter(|c| c.kind() == "type_identifier")
            .map(|c| ident(self.t(c)))
            .collect();
        self.check_type_name(&comps, n);
    }

    fn top_level_value(&self, name: &str) -> bool {
        let (Some(b), Some(empty)) = (self.index.str_id(name), self.index.str_id("")) else {
            return false;
        };
        self.index.with_base(b).iter().any(|&id| {
            self.index
                .sym(id)
                .is_some_and(|s| s.parent == empty && !s.kind.is_type())
        })
    }

    pub(super) fn top_level_funcs(&self, name: &str) -> Vec<SymId> {
        let Some(b) = self.index.str_id(name) else {
            return Vec::new();
        };
        let Some(empty) = self.index.str_id("") else {
            return Vec::new();
        };
        self.index
            .with_base(b)
            .iter()
            .copied()
            .filter(|&id| {
                self.index.sym(id).is_some_and(|s| {
                    s.parent == empty && matches!(s.kind, SymbolKind::Func | SymbolKind::Operator)
                })
            })
            .collect()
    }

    pub(super) fn check_free_call(&mut self, name: &str, args: &CallArgs, n: Node<'_>) {
        if name.is_empty() || name.starts_with('$') || builtins::KEYWORDS.contains(&name) {
            return;
        }
        if self.declared_value(name) || self.declared_type(name) {
            return;
        }
        if capitalized(name) {
            // `Foo(...)`: an initializer, unless a capitalized function (`NSLocalizedString`)
            if let Some(p) = self.sdk_type_path(&[name]) {
                let ids = self.index.type_syms(&p);
                let key = RefKey {
                    name: p.clone(),
                    is_type: true,
                    ..RefKey::default()
                };
                self.used(p.clone(), ids, n, true, key);
                self.check_init(&p, args, n);
                return;
            }
            let funcs = self.top_level_funcs(name);
            if funcs.is_empty() {
                self.check_type_name(&[name], n);
            } else {
                let key = RefKey {
                    name: name.to_owned(),
                    labels: Some(args.all_labels()),
                    ..RefKey::default()
                };
                self.used(format!("{name}{}", args.display()), funcs, n, true, key);
            }
            return;
        }
        if builtins::FUNCTIONS.contains(&name) {
            return;
        }
        let funcs = self.top_level_funcs(name);
        let key = RefKey {
            name: name.to_owned(),
            labels: Some(args.all_labels()),
            ..RefKey::default()
        };
        if funcs.is_empty() {
            if self.in_type == 0 {
                self.out.references += 1;
                self.unresolved_or_miss(format!("function `{name}` is not in the SDK index"), n);
            }
            return;
        }
        let compat = self.compatible_ids(&funcs, args);
        let ids = if compat.is_empty() { funcs } else { compat };
        self.used(format!("{name}{}", args.display()), ids, n, true, key);
    }

    pub(super) fn check_init(&mut self, path: &str, args: &CallArgs, n: Node<'_>) {
        let closure = self.closure_of(path);
        let inits = self.index.member_ids_in(&closure, "init");
        let key = RefKey {
            recv: Some(path.to_owned()),
            name: path.rsplit('.').next().unwrap_or(path).to_owned(),
            labels: Some(args.all_labels()),
            is_init: true,
            ..RefKey::default()
        };
        let what = format!("{path}{}", args.display());
        if inits.is_empty() {
            return;
        }
        let compat = self.compatible_ids(&inits, args);
        if !compat.is_empty() {
            self.used(
                format!("{path}.init{}", args.display()),
                compat,
                n,
                true,
                key,
            );
            return;
        }
        let lenient = self.roots_incomplete(&[path])
            || inits.iter().any(|&i| self.sym_is_objc(i))
            || self
                .index
                .type_syms(path)
                .iter()
                .any(|&i| self.sym_is_objc(i))
            || (args.labels.is_empty()
                && args.trailing.is_empty()
                && self.closure_has(&closure, "NSObject"))
            || self
                .decls
                .ext_inits
                .contains(path.rsplit('.').next().unwrap_or(path));
        if lenient {
            return;
        }
        self.out.references += 1;
        let known = self.some_titles(&inits);
        self.unresolved_or_miss(
            format!("no initializer `{what}` in the SDK index (known: {known})"),
            n,
        );
    }

    pub(super) fn check_member(
        &mut self,
        recv: &Ty,
        name: &str,
        call: Option<&CallArgs>,
        n: Node<'_>,
        display: &str,
    ) {
        if name.is_empty() || name.chars().all(|c| c.is_ascii_digit()) {
            return;
        }
        let Ty::Sdk { path, also, .. } = recv else {
            self.name_only(name, call, n);
            return;
        };
        if recv.source_name().is_some() {
            // the source's own type: only its typed properties are tracked
            self.name_only(name, call, n);
            return;
        }
        let mut roots: Vec<&str> = vec![path.as_str()];
        if let Some(a) = also {
            roots.push(a.as_str());
        }
        let mut closure = self.closure_of(path);
        if let Some(a) = also {
            for t in self.closure_of(a) {
                if !closure.contains(&t) {
                    closure.push(t);
                }
            }
        }
        let ids = self.index.member_ids_in(&closure, name);
        let ids = self.prefer_staticness(ids, matches!(recv, Ty::Sdk { meta: true, .. }));
        let key = RefKey::member(Some(path), name, call);
        let what = member_text(path, name, call);
        if ids.is_empty() {
            if self.declared_value_sdk_could_have(name)
                || matches!(
                    name,
                    "rawValue" | "hashValue" | "hash" | "description" | "debugDescription"
                )
                || self.roots_incomplete(&roots)
                || self.has_dynamic_members(&closure)
                || (self.closure_has(&closure, "NSObject")
                    && builtins::NSOBJECT_MEMBERS.contains(&name))
                || self.objc_near(&closure, name)
            {
                return;
            }
            self.out.references += 1;
            self.unresolved_or_miss(
                format!("`{display}` has no member `{name}` in the SDK index"),
                n,
            );
            return;
        }
        match call {
            Some(args) => {
                let compat = self.compatible_ids(&ids, args);
                if !compat.is_empty() {
                    self.used(what, compat, n, true, key);
                    return;
                }
                // an imported method whose labels the call could really have (the index
                // derives them; unrecorded defaults) is not judged; a call with more
                // arguments than such a method has labels is not near it when another
                // overload takes that many (`open(_:options:completion:)` against
                // `open(_:options:)` and `open(_:options:completionHandler:)`)
                let n_args = args.labels.len() + args.trailing.len();
                let longest = self.longest_title(&ids);
                let lenient = self.declared_value(name)
                    || ids.iter().any(|&i| {
                        self.sym_is_objc(i)
                            && (longest < n_args || self.title_len(i) >= n_args)
                            && self.labels_near(i, args)
                    })
                    || self.roots_incomplete(&roots);
                if lenient {
                    return;
                }
                self.out.references += 1;
                let known = self.some_titles(&ids);
                self.unresolved_or_miss(
                    format!(
                        "no `{name}` overload on `{display}` takes the labels {} (known: {known})",
                        args.display()
                    ),
                    n,
                );
            }
            None => {
                // `url.path` without a call is the property, not `path(percentEncoded:)`
                let ids = self.uncalled(ids);
                self.used(what, ids, n, true, key)
            }
        }
    }

    /// The candidates a member reference without a call means: its properties, cases and
    /// nested types when it has any (a method of that base name would need a call), else all.
    pub(super) fn uncalled(&self, ids: Vec<SymId>) -> Vec<SymId> {
        let values: Vec<SymId> = ids
            .iter()
            .copied()
            .filter(|&id| {
                self.index
                    .sym(id)
                    .is_some_and(|s| !s.kind.is_callable() || s.kind == SymbolKind::EnumCase)
            })
            .collect();
        if values.is_empty() { ids } else { values }
    }

    /// `Type.member` means a static member (or a nested type, a case, an initializer) and
    /// `value.member` an instance member, when the candidates include such.
    pub(super) fn prefer_staticness(&self, ids: Vec<SymId>, meta: bool) -> Vec<SymId> {
        let is_static = |k: SymbolKind| {
            matches!(
                k,
                SymbolKind::TypeMethod
                    | SymbolKind::TypeProperty
                    | SymbolKind::TypeSubscript
                    | SymbolKind::EnumCase
                    | SymbolKind::Init
            ) || k.is_type()
        };
        let preferred: Vec<SymId> = ids
            .iter()
            .copied()
            .filter(|&id| {
                self.index
                    .sym(id)
                    .is_some_and(|s| is_static(s.kind) == meta)
            })
            .collect();
        if preferred.is_empty() { ids } else { preferred }
    }

    /// A member of a receiver of unknown type: no existence check; the candidates with that
    /// name anywhere still decide availability and deprecation when they all agree.
    fn name_only(&mut self, name: &str, call: Option<&CallArgs>, n: Node<'_>) {
        if self.declared_value(name) || matches!(name, "init" | "self") {
            self.out.references += 1;
            return;
        }
        // A property of an unknown receiver may be a tuple label or a member of a type the
        // source never names: only calls (whose labels narrow the candidates) are used.
        let what = match call {
            Some(a) => format!("`{name}{}`: the receiver's type is unknown", a.display()),
            None => format!("`{name}`: the receiver's type is unknown"),
        };
        let Some(args) = call else {
            self.unverifiable(what, n);
            return;
        };
        let ids = self.members_named(name, true);
        if ids.len() > MAX_NAME_CANDIDATES {
            // a name this common (`map`, `append`) cannot be pinned down by name alone
            self.unverifiable(what, n);
            return;
        }
        let ids = self.compatible_ids(&ids, args);
        // the receiver's type must match first: a candidate on a type the source never names
        // (nor a subtype of it) says nothing about this call (`session.setActive(true)` on an
        // AVAudioSession the index lacks is not UISearchDisplayController's deprecated one)
        let ids = self.on_named_types(ids);
        if ids.is_empty() {
            self.unverifiable(what, n);
            return;
        }
        let key = RefKey {
            name: name.to_owned(),
            labels: Some(args.all_labels()),
            ..RefKey::default()
        };
        self.used(format!("{name}{}", args.display()), ids, n, false, key);
    }

    /// The candidates whose parent type is one the source names, or a supertype of one.
    fn on_named_types(&mut self, ids: Vec<SymId>) -> Vec<SymId> {
        if self.named_closure.is_none() {
            let mut names: Vec<&str> = self
                .src
                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .filter(|w| w.starts_with(|c: char| c.is_ascii_uppercase()))
                .collect();
            names.sort_unstable();
            names.dedup();
            let mut set = std::collections::HashSet::new();
            for name in names {
                if self.index.is_type(name) {
                    set.extend(self.closure_of(name));
                }
            }
            self.named_closure = Some(set);
        }
        let named = self.named_closure.as_ref().expect("built above");
        ids.into_iter()
            .filter(|&id| {
                self.index
                    .sym(id)
                    .is_some_and(|s| named.contains(&s.parent))
            })
            .collect()
    }

    /// Members (not top-level symbols) with this base name, callable or not.
    fn members_named(&self, name: &str, callable: bool) -> Vec<SymId> {
        let Some(b) = self.index.str_id(name) else {
            return Vec::new();
        };
        let empty = self.index.str_id("");
        let mut ids: Vec<SymId> = self
            .index
            .with_base(b)
            .iter()
            .copied()
            .filter(|&id| {
                self.index.sym(id).is_some_and(|s| {
                    Some(s.parent) != empty
                        && !s.kind.is_type()
                        && (callable || !matches!(s.kind, SymbolKind::Method | SymbolKind::Init))
                })
            })
            .collect();
        for id in self.index.with_alt_base(b) {
            if !ids.contains(&id) {
                ids.push(id);
            }
        }
        ids.truncate(2000);
        ids
    }

    /// The generic type `A` when the implicit member expression `expr` is really the
    /// `.C` of `A<B>.C`, which tree-sitter-swift reads as the comparisons `A < (B > .C)`
    /// (both sides type names).
    fn specialized_generic_base(&self, expr: Node<'_>) -> Option<String> {
        let mut cur = expr;
        while let Some(p) = cur.parent() {
            if p.kind() == "call_expression" && p.named_child(0) == Some(cur) {
                cur = p;
            } else {
                break;
            }
        }
        let type_name = |x: Node<'_>| x.kind() == "simple_identifier" && capitalized(self.t(x));
        let gt = cur
            .parent()
            .filter(|p| p.kind() == "comparison_expression")?;
        let lt = gt
            .parent()
            .filter(|p| p.kind() == "comparison_expression")?;
        let op = |c: Node<'_>| c.child_by_field_name("op").map(|o| self.t(o));
        (op(gt) == Some(">")
            && gt.child_by_field_name("rhs") == Some(cur)
            && gt.child_by_field_name("lhs").is_some_and(type_name)
            && op(lt) == Some("<")
            && lt.child_by_field_name("rhs") == Some(gt))
        .then_some(())?;
        let base = lt.child_by_field_name("lhs").filter(|x| type_name(*x))?;
        Some(self.t(base).to_owned())
    }

    /// An implicit member expression (`.bold`, `.rect(cornerRadius:)`). With the type the
    /// expression must have (`n` is the whole expression, for [`Self::expected_at`]), it is
    /// looked up in that type — a local of the same name never matters; without it, or when
    /// that type is a protocol and has no such member (a conforming type may), by name.
    pub(super) fn check_implicit(
        &mut self,
        name: &str,
        call: Option<&CallArgs>,
        n: Node<'_>,
        expr: Node<'_>,
    ) {
        if name.is_empty() || matches!(name, "init" | "self") {
            return;
        }
        if let Some(base) = self.specialized_generic_base(expr) {
            // `Measurement<UnitTemperature>.FormatStyle(…)` parses as `Measurement <
            // (UnitTemperature > .FormatStyle(…))`: a nested type of the generic type
            let nested = self
                .sdk_type_path(&[base.as_str()])
                .map(|p| format!("{p}.{name}"));
            let base_path = self.sdk_type_path(&[base.as_str()]);
            if nested.is_some_and(|p| self.index.is_type(&p)) {
                self.out.references += 1;
                self.out.resolved += 1;
            } else if let Some(path) = base_path.filter(|p| {
                !self
                    .index
                    .member_ids_in(&self.closure_of(p), name)
                    .is_empty()
            }) {
                // `Activity<Attributes>.request(…)`: a static member of the generic type,
                // checked like `Activity.request(…)` (its availability and deprecation too)
                self.check_member(&Ty::meta(&path), name, call, n, &format!("{base}<…>"));
            } else {
                self.unverifiable(
                    format!("unverifiable: `{base}<…>.{name}`: a generic type's member"),
                    n,
                );
            }
            return;
        }
        if let Some(expected) = self.expected_at(expr) {
            if self.check_implicit_typed(&expected, name, call, n) {
                return;
            }
            if self.generic_expected.contains(&expr.start_byte())
                && self.missing_static_of_protocol(&expected, name, n)
            {
                return;
            }
        }
        if let Some(tys) = self.expected_any.get(&expr.start_byte()).cloned() {
            let generic = self.generic_expected.contains(&expr.start_byte());
            if self.check_implicit_overloads(&tys, name, call, n, generic) {
                return;
            }
        }
        if self.declared_value(name) {
            return;
        }
        let all = self.members_named(name, true);
        let key = RefKey::member(None, name, call);
        if all.is_empty() {
            // near spellings of approximated Objective-C names (`.scaleAspectFit`)
            if self.approx_anywhere(name) {
                return;
            }
            self.out.references += 1;
            self.unresolved_or_miss(format!("no SDK member named `.{name}`"), n);
            return;
        }
        if all.len() > MAX_NAME_CANDIDATES {
            self.unverifiable(
                format!("`.{name}`: the expected type is unknown and the name is common"),
                n,
            );
            return;
        }
        match call {
            None => {
                let vals: Vec<SymId> = all
                    .iter()
                    .copied()
                    .filter(|&id| {
                        self.index.sym(id).is_some_and(|s| {
                            matches!(
                                s.kind,
                                SymbolKind::EnumCase
                                    | SymbolKind::TypeProperty
                                    | SymbolKind::Property
                                    | SymbolKind::Var
                            )
                        })
                    })
                    .collect();
                self.used(format!(".{name}"), vals, n, false, key);
            }
            Some(args) => {
                let compat = self.compatible_ids(&all, args);
                if compat.is_empty() {
                    if all.iter().any(|&i| self.sym_is_objc(i)) {
                        return;
                    }
                    // the expected type is unknown: the members of that name are other
                    // types' (SwiftUI's `Animation.repeatForever(autoreverses:)` for
                    // SpriteKit's `SKAction.repeatForever(_:)`), so their labels decide
                    // nothing
                    let known = self.some_titles(&all);
                    self.unverifiable(
                        format!(
                            "`.{name}{}`: the expected type is unknown and no SDK member of \
                             that name takes these labels (known: {known})",
                            args.display()
                        ),
                        n,
                    );
                    return;
                }
                self.used(format!(".{name}{}", args.display()), compat, n, false, key);
            }
        }
    }

    /// The members `name` of the known type `t` whose labels fit `call` (static ones first
    /// when `meta`), and whether `t` leaves the question open: it has no member of that name
    /// but `open_if_absent` holds, or the member lists of `roots` may be incomplete, or the type
    /// has dynamic members or an Objective-C name near `name`; or it has some, but none takes
    /// those labels (they may fit another member of that name).
    fn members_fitting(
        &mut self,
        t: &Ty,
        roots: &[&str],
        name: &str,
        call: Option<&CallArgs>,
        meta: bool,
        open_if_absent: bool,
    ) -> (Vec<SymId>, bool) {
        let closure = self.closure_of_ty(t);
        let ids = self.index.member_ids_in(&closure, name);
        let ids = self.prefer_staticness(ids, meta);
        if ids.is_empty() {
            let open = open_if_absent
                || self.roots_incomplete(roots)
                || self.has_dynamic_members(&closure)
                || self.objc_near(&closure, name);
            return (ids, open);
        }
        let ids = match call {
            Some(args) => self.compatible_ids(&ids, args),
            None => ids,
        };
        let open = ids.is_empty();
        (ids, open)
    }

    /// An implicit member where a call's overloads expect different types (`seek(to: .zero)`
    /// with `seek(to: Date)` and `seek(to: CMTime)`): the overload whose parameter type has
    /// the member is the one called (used); a member none of them has is missing, when every
    /// type's members are known. False when that cannot decide (the caller falls back to the
    /// name).
    pub(super) fn check_implicit_overloads(
        &mut self,
        tys: &[Ty],
        name: &str,
        call: Option<&CallArgs>,
        n: Node<'_>,
        generic: bool,
    ) -> bool {
        let mut found: Vec<SymId> = Vec::new();
        let mut undecidable = self.decls.ext_members.contains(name);
        for t in tys {
            let Ty::Sdk { path, also, .. } = t else {
                return false;
            };
            let mut roots = vec![path.as_str()];
            if let Some(a) = also {
                roots.push(a.as_str());
            }
            // a protocol's conforming types may have it, unless a generic parameter
            // constrained to it is expected (see `missing_static_of_protocol`)
            let open = self.is_protocol(path) && !generic;
            let (ids, open) = self.members_fitting(t, &roots, name, call, true, open);
            undecidable |= open;
            found.extend(ids);
        }
        let display = tys
            .iter()
            .filter_map(|t| match t {
                Ty::Sdk { path, .. } => Some(format!("`{path}`")),
                Ty::Unknown => None,
            })
            .collect::<Vec<_>>()
            .join(", ");
        if !found.is_empty() {
            let key = RefKey::member(None, name, call);
            let what = member_text("", name, call);
            self.used(what, found, n, true, key);
            return true;
        }
        if undecidable {
            return false;
        }
        self.out.references += 1;
        self.unresolved_or_miss(
            format!("`.{name}` is not a member of any type expected here ({display})"),
            n,
        );
        true
    }

    /// An implicit member where a generic parameter constrained to a protocol is expected
    /// (`buttonStyle(.elevated)`, `S: PrimitiveButtonStyle`): Swift looks it up among the
    /// protocol's static members only (`extension PrimitiveButtonStyle where Self ==
    /// BorderedButtonStyle { static var bordered }`), never a conforming type's, so a name
    /// the protocol and its supertypes lack is missing — unless their members may be
    /// incomplete or the source extends something with that name. True when reported.
    fn missing_static_of_protocol(&mut self, expected: &Ty, name: &str, n: Node<'_>) -> bool {
        let Ty::Sdk { path, also, .. } = expected else {
            return false;
        };
        if !self.is_protocol(path) || self.decls.ext_members.contains(name) {
            return false;
        }
        let closure = self.closure_of_ty(expected);
        if !self.index.member_ids_in(&closure, name).is_empty() {
            return false;
        }
        let mut roots = vec![path.as_str()];
        if let Some(a) = also {
            roots.push(a.as_str());
        }
        if self.roots_incomplete(&roots)
            || self.has_dynamic_members(&closure)
            || self.objc_near(&closure, name)
        {
            return false;
        }
        let path = path.clone();
        self.out.references += 1;
        self.unresolved_or_miss(
            format!(
                "`.{name}` is not a static member of `{path}`, the protocol the generic \
                 parameter expected here conforms to"
            ),
            n,
        );
        true
    }

    /// The types an implicit member (`.number` in `.number.precision(…)`) may have where a
    /// protocol is expected (a generic parameter constrained to `FormatStyle`): its static
    /// members in the protocol's constrained extensions (`where Self == IntegerFormatStyle<Int>`,
    /// `FloatingPointFormatStyle<Double>`, …), when every one's type is a known concrete type.
    pub(super) fn implicit_candidates(&mut self, t: Node<'_>) -> Option<Vec<Ty>> {
        if t.kind() != "simple_identifier" {
            return None;
        }
        let root = self.implicit_root(t)?;
        let Some(Ty::Sdk { path, .. }) = self.expected_at(root) else {
            return None;
        };
        if !self.is_protocol(&path) {
            return None;
        }
        let name = ident(self.t(t)).to_owned();
        let closure = self.closure_of(&path);
        let ids = self.index.member_ids_in(&closure, &name);
        let ids = self.prefer_staticness(ids, true);
        if ids.is_empty() {
            return None;
        }
        let recv = Ty::meta(&path);
        let mut out: Vec<Ty> = Vec::new();
        for id in ids {
            let ty = self.member_ty(&recv, id);
            let Ty::Sdk {
                path: p,
                meta: false,
                ..
            } = &ty
            else {
                return None;
            };
            if self.is_protocol(p) || ty.source_name().is_some() {
                return None;
            }
            if !out
                .iter()
                .any(|o| matches!(o, Ty::Sdk { path: q, .. } if q == p))
            {
                out.push(ty);
            }
        }
        Some(out)
    }

    /// `x.name` where `x` is one of several known types (see [`Self::implicit_candidates`]):
    /// used when some type has the member, missing when none has it and every type's members
    /// are known; else by name.
    pub(super) fn check_member_of_any(
        &mut self,
        tys: &[Ty],
        name: &str,
        call: Option<&CallArgs>,
        n: Node<'_>,
        display: &str,
    ) {
        let mut found: Vec<SymId> = Vec::new();
        let mut undecidable = self.declared_value(name)
            || matches!(
                name,
                "rawValue" | "hashValue" | "hash" | "description" | "debugDescription"
            );
        for t in tys {
            let Ty::Sdk { path, .. } = t else {
                undecidable = true;
                continue;
            };
            let (ids, open) = self.members_fitting(t, &[path.as_str()], name, call, false, false);
            undecidable |= open;
            found.extend(ids);
        }
        if !found.is_empty() {
            let key = RefKey::member(None, name, call);
            let what = member_text(display, name, call);
            self.used(what, found, n, true, key);
            return;
        }
        if undecidable {
            self.name_only(name, call, n);
            return;
        }
        let types = tys
            .iter()
            .filter_map(|t| match t {
                Ty::Sdk { path, .. } => Some(format!("`{path}`")),
                Ty::Unknown => None,
            })
            .collect::<Vec<_>>()
            .join(", ");
        self.out.references += 1;
        self.unresolved_or_miss(
            format!("`{display}` (one of {types}) has no member `{name}` in the SDK index"),
            n,
        );
    }

    /// An implicit member looked up in the type the expression must have; false when that
    /// cannot decide (the caller falls back to the name).
    pub(super) fn check_implicit_typed(
        &mut self,
        expected: &Ty,
        name: &str,
        call: Option<&CallArgs>,
        n: Node<'_>,
    ) -> bool {
        let Ty::Sdk { path, also, .. } = expected else {
            return false;
        };
        if expected.source_name().is_some() {
            return false;
        }
        let path = path.clone();
        let protocol = self.is_protocol(&path);
        let closure = self.closure_of_ty(expected);
        let ids = self.index.member_ids_in(&closure, name);
        let ids = self.prefer_staticness(ids, true);
        let display = match also {
            Some(a) if a == "Optional" => format!("{path}?"),
            _ => path.clone(),
        };
        let key = RefKey::member(Some(path.as_str()), name, call);
        if ids.is_empty() {
            let mut roots = vec![path.as_str()];
            if let Some(a) = also {
                roots.push(a.as_str());
            }
            // a name the source declares is a member of the expected type only when an
            // extension declares it (`static func failure()` of the source's own `enum
            // Haptics` is not `FeedbackType.failure`)
            if !protocol && self.imported_constants_partial(&path) {
                // the header reader's list of an imported type's constants may be partial:
                // a name found nowhere else may still be one of them
                self.unverifiable(
                    format!("`.{name}`: the index may lack constants of `{display}`"),
                    n,
                );
                return true;
            }
            if protocol
                || self.decls.ext_members.contains(name)
                || self.roots_incomplete(&roots)
                || self.has_dynamic_members(&closure)
            {
                return false;
            }
            if self.objc_near(&closure, name) {
                // a near spelling of an imported name of the expected type: not a miss, and
                // no name-only lookup either (the index's spelling differs)
                self.unverifiable(
                    format!("`.{name}`: near an imported name of `{display}`"),
                    n,
                );
                return true;
            }
            self.out.references += 1;
            self.unresolved_or_miss(
                format!("`.{name}` is not a member of `{display}`, the type expected here"),
                n,
            );
            return true;
        }
        match call {
            None => self.used(format!("{path}.{name}"), ids, n, true, key),
            Some(args) => {
                let compat = self.compatible_ids(&ids, args);
                if compat.is_empty() {
                    // every overload of the expected type (and its supertypes) has known
                    // labels and none takes the call's: a wrong label (`.result(message:)`
                    // where `some IntentResult` has `result(dialog:)`); imported names,
                    // merged overloads, names the source's extensions declare and types
                    // whose member list may be incomplete stay undecided, and the labels
                    // may fit another member of that name (a conforming type's)
                    let mut roots = vec![path.as_str()];
                    if let Some(a) = also {
                        roots.push(a.as_str());
                    }
                    let exact = ids.iter().all(|&i| {
                        self.index.sym(i).is_some_and(|s| {
                            s.kind.is_callable()
                                && s.flags & (F_APPROX | F_OBJC | F_MERGED) == 0
                                && title_labels(self.index.s(s.name)).is_some()
                        })
                    });
                    if !exact
                        || self.decls.ext_members.contains(name)
                        || self.declared_value(name)
                        || self.roots_incomplete(&roots)
                        || self.has_dynamic_members(&closure)
                    {
                        return false;
                    }
                    self.out.references += 1;
                    let known = self.some_titles(&ids);
                    self.unresolved_or_miss(
                        format!(
                            "no `.{name}` overload on `{display}`, the type expected here, \
                             takes the labels {} (known: {known})",
                            args.display()
                        ),
                        n,
                    );
                    return true;
                }
                self.used(
                    format!("{path}.{name}{}", args.display()),
                    compat,
                    n,
                    true,
                    key,
                );
            }
        }
        true
    }

    fn approx_anywhere(&self, name: &str) -> bool {
        let lname = name.to_ascii_lowercase();
        self.index.syms.iter().any(|s| {
            s.flags & F_APPROX != 0
                && matches!(s.kind, SymbolKind::EnumCase | SymbolKind::TypeProperty)
                && {
                    let b = self.index.s(s.base).to_ascii_lowercase();
                    b == lname || near_suffix(&b, &lname)
                }
        })
    }

    /// An infix operator (`a => b`) that no module declares (no symbol of that name in the
    /// index), the language does not define and the source does not declare (`infix
    /// operator =>`, `static func => (…)`): missing.
    pub(super) fn check_operator(&mut self, n: Node<'_>) {
        let Some(op) = n
            .child_by_field_name("op")
            .filter(|o| o.kind() == "custom_operator")
        else {
            return;
        };
        let name = self.t(op).trim().to_owned();
        if name.is_empty()
            || builtins::LANGUAGE_OPERATORS.contains(&name.as_str())
            || name.chars().any(|c| c.is_alphanumeric() || c == '_')
        {
            return;
        }
        let declared = self.src.match_indices(name.as_str()).any(|(at, _)| {
            let before = self.src[..at].trim_end();
            before.ends_with("operator") || before.ends_with("func")
        });
        if declared {
            return;
        }
        let known = self.index.str_id(&name).is_some_and(|b| {
            !self.index.with_base(b).is_empty() || self.index.with_alt_base(b).next().is_some()
        });
        self.out.references += 1;
        if known {
            self.out.resolved += 1;
            return;
        }
        self.unresolved_or_miss(
            format!("operator `{name}` is not declared in the SDK index"),
            op,
        );
    }

    pub(super) fn check_macro(&mut self, name: &str, n: Node<'_>) {
        if builtins::DIRECTIVES.contains(&name)
            || self.declared_value(name)
            || self.declared_type(name)
        {
            return;
        }
        let ids: Vec<SymId> = match self.index.str_id(name) {
            Some(b) => self
                .index
                .with_base(b)
                .iter()
                .copied()
                .filter(|&id| {
                    self.index
                        .sym(id)
                        .is_some_and(|s| s.kind == SymbolKind::Macro)
                })
                .collect(),
            None => Vec::new(),
        };
        if ids.is_empty() {
            self.out.references += 1;
            self.unresolved_or_miss(format!("macro `#{name}` is not in the SDK index"), n);
            return;
        }
        let key = RefKey {
            name: name.to_owned(),
            ..RefKey::default()
        };
        self.used(format!("#{name}"), ids, n, true, key);
    }
}

/// One name ends with the other and the shorter keeps most of the longer (`aspectfit` /
/// `scaleaspectfit`): how approximated enum-case prefixes go wrong.
fn near_suffix(a: &str, b: &str) -> bool {
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    short.len() >= 5 && long.ends_with(short) && short.len() * 10 >= long.len() * 6
}

/// Finds a symbol for `name` (as [`Index::lookup`] does), for the deprecation map.
pub(crate) fn resolve_name(index: &Index, name: &str) -> Vec<SymId> {
    let mut ids = index.lookup_ids(name);
    if ids.is_empty() {
        // an imported Objective-C method whose labels the index approximates: same base,
        // same arity (`archivedData(withRootObject:)` → `archivedData(withRoot:)`)
        let parts = split_path(name);
        if let Some(last) = parts.last()
            && let Some(labels) = title_labels(last)
        {
            let base = base_name(last);
            let mut q: Vec<&str> = parts[..parts.len() - 1].to_vec();
            q.push(base);
            ids = index
                .lookup_ids(&q.join("."))
                .into_iter()
                .filter(|&id| {
                    index.sym(id).is_some_and(|s| {
                        s.flags & F_APPROX != 0
                            && title_labels(index.s(s.name))
                                .is_some_and(|l| l.len() == labels.len())
                    })
                })
                .collect();
        }
    }
    if ids.is_empty() {
        // `Type(label:)` — an initializer written the way it is called
        let parts = split_path(name);
        if let Some(last) = parts.last()
            && capitalized(last)
            && last.contains('(')
        {
            let ty = base_name(last);
            let labels = &last[ty.len()..];
            let mut prefix: Vec<&str> = parts[..parts.len() - 1].to_vec();
            prefix.push(ty);
            ids = index.lookup_ids(&format!("{}.init{labels}", prefix.join(".")));
        }
    }
    ids
}
