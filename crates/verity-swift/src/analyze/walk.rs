//! The second walk over the syntax tree: scopes, `#available` / `@available` guards, and the
//! syntax that holds references (calls, member accesses, attributes, macros, type names).

use std::collections::HashMap;

use tree_sitter::Node;

use super::labels::CallArgs;
use super::types::Ty;
use super::{Analyzer, MAX_DEPTH, RefKey, capitalized, children, ident, named_children, nav_name};
use crate::builtins;
use crate::index::{SymId, SymbolKind};
use crate::version::{Domain, Version};

const EXPR_PARENTS: &[&str] = &[
    "value_argument",
    "statements",
    "property_declaration",
    "assignment",
    "tuple_expression",
    "array_literal",
    "dictionary_literal",
    "control_transfer_statement",
    "interpolated_expression",
    "as_expression",
    "check_expression",
    "comparison_expression",
    "equality_expression",
    "additive_expression",
    "multiplicative_expression",
    "ternary_expression",
    "conjunction_expression",
    "disjunction_expression",
    "nil_coalescing_expression",
    "range_expression",
    "infix_expression",
    "postfix_expression",
    "try_expression",
    "await_expression",
    "directly_assignable_expression",
    "switch_statement",
];

/// Parses the inside of `#available(...)` / `@available(...)` into (domain, version) pairs:
/// `iOS 17, macOS 14.0, *` and `iOS, introduced: 17.0` forms.
pub(crate) fn availability_spec(s: &str) -> Vec<(Domain, Version)> {
    let inner = match (s.find('('), s.rfind(')')) {
        (Some(a), Some(b)) if b > a => &s[a + 1..b],
        _ => return Vec::new(),
    };
    let mut out = Vec::new();
    let mut platform: Option<Domain> = None;
    for item in inner.split(',') {
        let item = item.trim();
        if let Some(v) = item.strip_prefix("introduced:") {
            if let (Some(p), Some(v)) = (platform, Version::parse(v.trim())) {
                out.push((p, v));
            }
            continue;
        }
        let mut words = item.split_whitespace();
        let Some(name) = words.next() else { continue };
        let Some(d) = Domain::from_source(name) else {
            continue;
        };
        match words.next().and_then(Version::parse) {
            Some(v) => out.push((d, v)),
            None => platform = Some(d),
        }
    }
    out
}

impl<'a> Analyzer<'a> {
    fn visit_children(&mut self, n: Node<'_>, depth: usize) {
        let mut c = n.walk();
        let kids: Vec<Node<'_>> = n.children(&mut c).collect();
        for k in kids {
            self.visit(k, depth + 1);
        }
    }

    fn push_decl_guards(&mut self, n: Node<'_>) -> usize {
        let before = self.guards.len();
        for c in children(n) {
            if c.kind() == "modifiers" {
                for a in named_children(c) {
                    if a.kind() == "attribute" {
                        let t = self.t(a);
                        if t.trim_start_matches('@')
                            .trim_start()
                            .starts_with("available")
                        {
                            let spec = availability_spec(t);
                            self.push_spec(&spec);
                        }
                    }
                }
            }
        }
        before
    }

    fn push_spec(&mut self, spec: &[(Domain, Version)]) {
        let d = self.target.domain;
        let v = spec
            .iter()
            .find(|(x, _)| *x == d)
            .or_else(|| {
                (d == Domain::MacCatalyst)
                    .then(|| spec.iter().find(|(x, _)| *x == Domain::Ios))
                    .flatten()
            })
            .map(|(_, v)| *v);
        if let Some(v) = v {
            self.guards.push(v);
        }
    }

    pub(super) fn visit(&mut self, n: Node<'_>, depth: usize) {
        if depth > MAX_DEPTH {
            self.out.truncated = true;
            return;
        }
        match n.kind() {
            "ERROR"
            | "comment"
            | "multiline_comment"
            | "import_declaration"
            | "directive"
            | "diagnostic"
            | "shebang_line"
            | "availability_condition" => {}
            "line_string_literal" | "multi_line_string_literal" | "raw_string_literal" => {
                for c in named_children(n) {
                    if matches!(
                        c.kind(),
                        "interpolated_expression" | "raw_str_interpolation"
                    ) {
                        self.visit(c, depth + 1);
                    }
                }
            }
            "class_declaration" | "protocol_declaration" => {
                let g = self.push_decl_guards(n);
                self.scopes.push(HashMap::new());
                self.type_scopes.push(self.scopes.len() - 1);
                self.in_type += 1;
                let ctx = self.supertypes_written(n);
                self.type_ctx.push(ctx);
                if let Some(body) = n.child_by_field_name("body") {
                    self.prescan(body);
                }
                for c in children(n) {
                    // the declared name is not a reference (an extension's is)
                    if Some(c) == n.child_by_field_name("name") && c.kind() == "type_identifier" {
                        continue;
                    }
                    self.visit(c, depth + 1);
                }
                self.in_type -= 1;
                self.type_ctx.pop();
                self.type_scopes.pop();
                self.scopes.pop();
                self.guards.truncate(g);
            }
            "function_declaration"
            | "init_declaration"
            | "subscript_declaration"
            | "protocol_function_declaration"
            | "deinit_declaration" => {
                let g = self.push_decl_guards(n);
                self.scopes.push(HashMap::new());
                self.bind_params(n);
                let result = self.declared_result(n);
                self.returns.push(result);
                let name = n.child_by_field_name("name");
                for c in children(n) {
                    if Some(c) == name && c.kind() == "simple_identifier" {
                        continue;
                    }
                    if c.kind() == "parameter" {
                        for x in named_children(c) {
                            if x.kind() != "simple_identifier" {
                                self.visit(x, depth + 1);
                            }
                        }
                        continue;
                    }
                    self.visit(c, depth + 1);
                }
                self.returns.pop();
                self.scopes.pop();
                self.guards.truncate(g);
            }
            "property_declaration" => {
                let g = self.push_decl_guards(n);
                self.bind_property(n);
                self.expect_property(n);
                // a `return` in a computed property's getter is not the enclosing function's
                self.returns.push(Ty::Unknown);
                for c in children(n) {
                    if c.kind() == "pattern" && Some(c) == n.child_by_field_name("name") {
                        continue;
                    }
                    self.visit(c, depth + 1);
                }
                self.returns.pop();
                self.guards.truncate(g);
            }
            "lambda_literal" => {
                self.scopes.push(HashMap::new());
                self.bind_params(n);
                self.bind_closure_params(n);
                // a `return` inside a closure is the closure's
                self.returns.push(Ty::Unknown);
                for c in children(n) {
                    if matches!(c.kind(), "lambda_function_type" | "capture_list") {
                        // parameter type annotations
                        for x in named_children(c) {
                            for y in named_children(x) {
                                for z in named_children(y) {
                                    if z.kind() != "simple_identifier" {
                                        self.visit(z, depth + 4);
                                    }
                                }
                            }
                        }
                        continue;
                    }
                    self.visit(c, depth + 1);
                }
                self.returns.pop();
                self.scopes.pop();
            }
            "catch_block" => {
                // the implicit `error` (or the pattern's names) shadows any property
                self.scopes.push(HashMap::new());
                self.bind_fresh("error", Ty::Unknown);
                self.visit_children(n, depth);
                self.scopes.pop();
            }
            "assignment" => {
                self.expect_assignment(n);
                self.visit_children(n, depth);
            }
            "equality_expression" | "infix_expression" => {
                self.expect_comparison(n);
                if n.kind() == "infix_expression" {
                    self.check_operator(n);
                }
                self.visit_children(n, depth);
            }
            "array_literal" => {
                self.expect_elements(n);
                self.visit_children(n, depth);
            }
            "control_transfer_statement" => {
                self.expect_return(n);
                self.visit_children(n, depth);
            }
            "switch_statement" => {
                self.expect_cases(n);
                let subject = n
                    .child_by_field_name("expr")
                    .map_or(Ty::Unknown, |e| self.infer(e, 0));
                self.switch_subjects.push(subject);
                self.visit_children(n, depth);
                self.switch_subjects.pop();
            }
            "switch_entry" => {
                // `case .verified(let transaction):` binds the case's payload in its body
                self.scopes.push(HashMap::new());
                let subject = self.switch_subjects.last().cloned().unwrap_or(Ty::Unknown);
                for sp in named_children(n) {
                    if sp.kind() == "switch_pattern" {
                        for p in named_children(sp) {
                            self.bind_case_pattern(&children(p), &subject);
                        }
                    }
                }
                self.visit_children(n, depth);
                self.scopes.pop();
            }
            "statements" => {
                let g = self.guards.len();
                for c in children(n) {
                    self.visit(c, depth + 1);
                    if c.kind() == "guard_statement"
                        && let Some(cond) = children(c)
                            .into_iter()
                            .find(|x| x.kind() == "availability_condition")
                        && !self.t(cond).contains("unavailable")
                    {
                        let spec = availability_spec(self.t(cond));
                        self.push_spec(&spec);
                    }
                }
                self.guards.truncate(g);
            }
            "if_statement" | "guard_statement" | "while_statement" => {
                self.visit_conditional(n, depth);
            }
            "for_statement" => {
                self.scopes.push(HashMap::new());
                let element = n
                    .child_by_field_name("collection")
                    .map_or(Ty::Unknown, |c| self.element_ty(c));
                if let Some(item) = n.child_by_field_name("item") {
                    for x in named_children(item) {
                        if x.kind() == "simple_identifier" {
                            let t = self.t(x);
                            self.bind(t, Ty::Unknown);
                        }
                    }
                    let parts: Vec<Node<'_>> = named_children(item)
                        .into_iter()
                        .filter(|x| x.kind() == "pattern")
                        .collect();
                    let tuple = match n.child_by_field_name("collection") {
                        Some(c) if parts.len() > 1 => self.element_tuple(c),
                        _ => None,
                    };
                    if let Some(tys) = tuple.filter(|t| t.len() == parts.len()) {
                        // `for (i, x) in xs.enumerated()`: each name its element
                        for (part, t) in parts.iter().zip(tys) {
                            if let [x] = named_children(*part).as_slice()
                                && x.kind() == "simple_identifier"
                            {
                                let name = self.t(*x);
                                self.bind_fresh(name, t);
                            }
                        }
                    }
                    let t = self.t(item);
                    if item.named_child_count() == 0 {
                        self.bind(t, element);
                    } else if item.named_child_count() == 1
                        && let Some(b) = item.child_by_field_name("bound_identifier")
                    {
                        let t = self.t(b);
                        self.bind_fresh(t, element);
                    }
                }
                for c in children(n) {
                    if Some(c) == n.child_by_field_name("item") {
                        continue;
                    }
                    self.visit(c, depth + 1);
                }
                self.scopes.pop();
            }
            "call_expression" => self.visit_call(n, depth),
            "constructor_expression" => {
                if let Some(t) = n.child_by_field_name("constructed_type") {
                    self.visit(t, depth + 1);
                    if let Ty::Sdk { path, .. } = self.ty_of_type_node(t) {
                        let args = self.call_args(n);
                        self.check_init(&path, &args, t);
                    }
                }
                for c in children(n) {
                    if c.kind() == "constructor_suffix" {
                        self.visit_children(c, depth + 1);
                    }
                }
            }
            "navigation_expression" => self.visit_nav(n, None, depth),
            "prefix_expression" => {
                let implicit = n
                    .child_by_field_name("operation")
                    .is_some_and(|o| self.t(o) == ".");
                match (implicit, n.child_by_field_name("target")) {
                    (true, Some(t)) if t.kind() == "simple_identifier" => {
                        let name = ident(self.t(t)).to_owned();
                        self.check_implicit(&name, None, t, n);
                    }
                    _ => self.visit_children(n, depth),
                }
            }
            "macro_invocation" => {
                if let Some(name) = named_children(n)
                    .into_iter()
                    .find(|c| c.kind() == "simple_identifier")
                {
                    let nm = ident(self.t(name)).to_owned();
                    self.check_macro(&nm, name);
                }
                for c in named_children(n) {
                    if c.kind() != "simple_identifier" {
                        self.visit(c, depth + 1);
                    }
                }
            }
            "attribute" => self.visit_attribute(n, depth),
            "user_type" => {
                self.check_user_type(n);
                for c in named_children(n) {
                    if c.kind() == "type_arguments" {
                        self.visit(c, depth + 1);
                    }
                }
            }
            "key_path_expression" => {
                // `\Type.member` parses as navigation on a key path; a bare root is a type
                for c in named_children(n) {
                    if c.kind() == "type_identifier" {
                        let name = ident(self.t(c));
                        self.check_type_name(&[name], c);
                    }
                }
            }
            "simple_identifier" => {
                if let Some(root) = self.implicit_root(n) {
                    let name = ident(self.t(n)).to_owned();
                    self.check_implicit(&name, None, n, root);
                    return;
                }
                let parent_ok = n.parent().is_some_and(|p| EXPR_PARENTS.contains(&p.kind()));
                let name = ident(self.t(n));
                if parent_ok && capitalized(name) {
                    self.check_type_name(&[name], n);
                } else if !capitalized(name)
                    && n.parent().is_some_and(|p| {
                        EXPR_PARENTS.contains(&p.kind())
                            || p.kind() == "directly_assignable_expression"
                            || (p.kind() == "navigation_expression"
                                && p.child_by_field_name("target") == Some(n))
                    })
                {
                    let name = name.to_owned();
                    self.implicit_self_property(&name, n);
                }
            }
            _ => self.visit_children(n, depth),
        }
    }

    fn visit_conditional(&mut self, n: Node<'_>, depth: usize) {
        // an `if` / `while` binding is visible in the statement (a `guard`'s after it)
        let scoped = n.kind() != "guard_statement";
        if scoped {
            self.scopes.push(HashMap::new());
        }
        let g = self.guards.len();
        let mut spec = None;
        let mut negated = false;
        for c in children(n) {
            if c.kind() == "availability_condition" {
                let t = self.t(c);
                negated = t.contains("unavailable");
                spec = Some(availability_spec(t));
            }
        }
        // `if case .verified(let purchase) = update`: the case's payload, typed
        let kids = children(n);
        if let Some(eq) = kids.iter().position(|k| k.kind() == "=")
            && kids[..eq].iter().any(|k| k.kind() == "case")
            && let Some(value) = kids[eq + 1..].iter().find(|k| k.is_named())
        {
            let subject = self.infer(*value, 0);
            let start = kids[..eq]
                .iter()
                .rposition(|k| k.kind() == "case")
                .unwrap_or(0);
            self.bind_case_pattern(&kids[start..eq], &subject);
        }
        // `if let x = URL(string:)`, `guard let recorder else …`: the unwrapped value's type
        if let Some(b) = n.child_by_field_name("bound_identifier") {
            let kids = children(n);
            let idx = kids.iter().position(|k| *k == b).unwrap_or(0);
            let shorthand = kids
                .get(idx + 1)
                .is_none_or(|k| !matches!(k.kind(), "=" | "type_annotation"));
            let value = if shorthand {
                // `guard let recorder else …`: the name's own value, unwrapped
                Some(b)
            } else {
                kids.iter()
                    .skip(idx + 1)
                    .find(|k| k.is_named() && k.kind() != "value_binding_pattern")
                    .copied()
            };
            let ty = match value.as_ref() {
                Some(v) => match self.infer(*v, 0) {
                    Ty::Sdk {
                        path, meta, args, ..
                    } => Ty::Sdk {
                        path,
                        meta,
                        also: None,
                        args,
                    },
                    t => t,
                },
                None => Ty::Unknown,
            };
            let name = self.t(b);
            self.bind_fresh(name, ty);
        }
        let mut seen_else = false;
        for c in children(n) {
            if c.kind() == "else" {
                seen_else = true;
            }
            let then_block = c.kind() == "statements" && !seen_else;
            let pushed = match (&spec, then_block, negated, seen_else) {
                (Some(s), true, false, _) if n.kind() != "guard_statement" => {
                    self.push_spec(s);
                    true
                }
                (Some(s), false, true, true) if c.kind() == "statements" => {
                    self.push_spec(s);
                    true
                }
                _ => false,
            };
            self.visit(c, depth + 1);
            if pushed {
                self.guards.pop();
            }
        }
        self.guards.truncate(g);
        if scoped {
            self.scopes.pop();
        }
    }

    fn visit_attribute(&mut self, n: Node<'_>, depth: usize) {
        let Some(ut) = named_children(n)
            .into_iter()
            .find(|c| c.kind() == "user_type")
        else {
            self.visit_children(n, depth);
            return;
        };
        let name = ident(self.t(ut)).to_owned();
        let base = name.split('.').next_back().unwrap_or(&name).to_owned();
        if name == "available" {
            return;
        }
        if !builtins::ATTRIBUTES.contains(&base.as_str())
            && !self.declared_type(&base)
            && !self.declared_value(&base)
        {
            let mut ids: Vec<SymId> = Vec::new();
            if let Some(b) = self.index.str_id(&base) {
                ids.extend(self.index.with_base(b).iter().copied().filter(|&id| {
                    self.index
                        .sym(id)
                        .is_some_and(|s| s.kind == SymbolKind::Macro)
                }));
            }
            let comps: Vec<&str> = name.split('.').collect();
            if let Some(p) = self.sdk_type_path(&comps) {
                ids.extend(self.index.type_syms(&p));
            }
            if ids.is_empty() {
                self.unresolved_or_miss(format!("attribute `@{name}` is not in the SDK index"), ut);
            } else {
                let key = RefKey {
                    name: base.clone(),
                    is_type: true,
                    ..RefKey::default()
                };
                self.used(format!("@{name}"), ids, ut, true, key);
            }
        }
        // `@Environment(\.dismiss)`: a key path into EnvironmentValues
        let is_env = base == "Environment" && !self.declared_type("Environment");
        for c in named_children(n) {
            if c == ut {
                continue;
            }
            if is_env
                && c.kind() == "navigation_expression"
                && c.child_by_field_name("target")
                    .is_some_and(|t| t.kind() == "key_path_expression" && self.t(t).trim() == "\\")
            {
                if let Some(member) = nav_name(c, self.src)
                    && let Some(sfx) = c.child_by_field_name("suffix")
                {
                    let recv = Ty::sdk("EnvironmentValues");
                    let at = sfx.child_by_field_name("suffix").unwrap_or(sfx);
                    self.check_member(&recv, &member, None, at, "EnvironmentValues");
                }
                continue;
            }
            self.visit(c, depth + 1);
        }
    }

    fn visit_call(&mut self, n: Node<'_>, depth: usize) {
        let Some(mut callee) = n.named_child(0) else {
            return;
        };
        let args = self.call_args(n);
        self.expect_args(n, &args);
        // `f(x) { … }`: one call of `f` with both argument lists
        let inner = super::labels::trailing_of(n);
        if let Some(inner) = inner
            && let Some(c) = inner.named_child(0)
        {
            callee = c;
        }
        match callee.kind() {
            "simple_identifier" if self.implicit_root(callee).is_some() => {
                let name = ident(self.t(callee)).to_owned();
                if let Some(root) = self.implicit_root(callee) {
                    self.check_implicit(&name, Some(&args), callee, root);
                }
            }
            "simple_identifier" => {
                let name = ident(self.t(callee)).to_owned();
                self.check_free_call(&name, &args, callee);
            }
            "navigation_expression" => self.visit_nav(callee, Some(&args), depth + 1),
            "prefix_expression"
                if callee
                    .child_by_field_name("operation")
                    .is_some_and(|o| self.t(o) == ".") =>
            {
                if let Some(t) = callee.child_by_field_name("target")
                    && t.kind() == "simple_identifier"
                {
                    let name = ident(self.t(t)).to_owned();
                    self.check_implicit(&name, Some(&args), t, n);
                } else if let Some(t) = callee.child_by_field_name("target")
                    && t.kind() == "navigation_expression"
                {
                    // `.title.bold()`: the call is the chain's last member's
                    self.visit_nav(t, Some(&args), depth + 1);
                } else {
                    self.visit(callee, depth + 1);
                }
            }
            _ => self.visit(callee, depth + 1),
        }
        if let Some(inner) = inner {
            for c in children(inner).into_iter().skip(1) {
                self.visit(c, depth + 1);
            }
        }
        for c in children(n).into_iter().skip(1) {
            self.visit(c, depth + 1);
        }
    }

    fn visit_nav(&mut self, n: Node<'_>, call: Option<&CallArgs>, depth: usize) {
        let target = n.child_by_field_name("target");
        let suffix = n.child_by_field_name("suffix");
        let name = nav_name(n, self.src);
        if let Some(t) = target {
            if t.kind() == "key_path_expression" {
                // `\Type.member`: the root is a type
                let root = named_children(t)
                    .into_iter()
                    .find(|c| c.kind() == "type_identifier");
                if let Some(r) = root {
                    let rname = ident(self.t(r)).to_owned();
                    self.check_type_name(&[&rname], r);
                    if let (Some(member), Some(sfx)) = (&name, suffix)
                        && !self.declared_type(&rname)
                        && let Some(p) = self.sdk_type_path(&[&rname])
                    {
                        let at = sfx.child_by_field_name("suffix").unwrap_or(sfx);
                        self.check_member(&Ty::sdk(&p), member, None, at, &rname);
                    }
                }
                return;
            }
            if t.kind() == "simple_identifier"
                && let Some(root) = self.implicit_root(t)
            {
                let tn = ident(self.t(t)).to_owned();
                self.check_implicit(&tn, None, t, root);
            } else if t.kind() == "simple_identifier" && capitalized(ident(self.t(t))) {
                let tn = ident(self.t(t)).to_owned();
                self.check_type_name(&[&tn], t);
            } else {
                self.visit(t, depth + 1);
            }
        }
        let (Some(t), Some(name), Some(sfx)) = (target, name, suffix) else {
            return;
        };
        // evidence points at the member's name, not at its dot
        let sfx = sfx.child_by_field_name("suffix").unwrap_or(sfx);
        if matches!(name.as_str(), "self" | "Type" | "Protocol") {
            return;
        }
        let recv = self.infer(t, 0);
        if recv == Ty::Unknown
            && name != "init"
            && let Some(tys) = self.implicit_candidates(t)
        {
            self.check_member_of_any(&tys, &name, call, sfx, self.t(t));
            return;
        }
        let display = match &recv {
            Ty::Sdk { path, .. } => path.clone(),
            Ty::Unknown => self.t(t).chars().take(40).collect(),
        };
        if name == "init" {
            if let (
                Ty::Sdk {
                    path, meta: true, ..
                },
                Some(args),
            ) = (&recv, call)
            {
                let path = path.clone();
                self.check_init(&path, args, sfx);
            }
            return;
        }
        self.check_member(&recv, &name, call, sfx, &display);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn availability_specs() {
        assert_eq!(
            availability_spec("#available(iOS 17, macOS 14.0, *)"),
            vec![
                (Domain::Ios, Version::new(17, 0, 0)),
                (Domain::MacOs, Version::new(14, 0, 0))
            ]
        );
        assert_eq!(
            availability_spec("@available(iOS, introduced: 16.4)"),
            vec![(Domain::Ios, Version::new(16, 4, 0))]
        );
        assert!(availability_spec("@available(*, deprecated)").is_empty());
        assert!(availability_spec("garbage((").is_empty());
    }
}
