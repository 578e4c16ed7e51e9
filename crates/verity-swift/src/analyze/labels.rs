//! A call's argument labels (and its first trailing closure's arity) matched against the
//! declarations that could be called.

use tree_sitter::Node;

use super::{Analyzer, children, ident, named_children, text};
use crate::builtins;
use crate::index::{F_APPROX, F_MERGED, F_OBJC, SymId, SymbolKind, title_labels};

/// Argument labels of a call.
#[derive(Clone, Debug, Default)]
pub(crate) struct CallArgs {
    /// Parenthesized arguments: the label or `_`.
    pub labels: Vec<String>,
    /// Trailing closures: the first `_`, then their labels.
    pub trailing: Vec<String>,
    /// Parameter count of the first trailing closure (explicit parameters or `$n`).
    pub closure_arity: Option<usize>,
}

impl CallArgs {
    pub(super) fn all_labels(&self) -> Vec<String> {
        self.labels.iter().chain(&self.trailing).cloned().collect()
    }

    pub(super) fn display(&self) -> String {
        let mut s = String::from("(");
        for l in self.labels.iter().chain(&self.trailing) {
            s.push_str(l);
            s.push(':');
        }
        s.push(')');
        s
    }
}

/// Whether a call with `args` can call a declaration titled `title` (argument labels in
/// order; defaulted parameters may be omitted; the first trailing closure may fill any
/// parameter; unlabeled arguments may continue a variadic parameter).
pub(crate) fn labels_compatible(title: &str, defaulted: u64, args: &CallArgs) -> bool {
    let Some(params) = title_labels(title) else {
        return true;
    };
    if params.len() > 60 || args.labels.len() + args.trailing.len() > 16 {
        return true;
    }
    if let (Some(arity), Some((_, allowed))) = (
        args.closure_arity,
        builtins::CLOSURE_ARITY.iter().find(|(t, _)| *t == title),
    ) && !args.trailing.is_empty()
        && !allowed.contains(&arity)
    {
        return false;
    }
    let d = |i: usize| i < 64 && defaulted >> i & 1 == 1;
    fn go(
        params: &[&str],
        d: &dyn Fn(usize) -> bool,
        args: &CallArgs,
        pi: usize,
        li: usize,
        ti: usize,
        last: Option<usize>,
    ) -> bool {
        if li < args.labels.len() {
            let a = args.labels[li].as_str();
            if a == "_" && last.is_some() && go(params, d, args, pi, li + 1, ti, last) {
                return true;
            }
            let mut j = pi;
            while j < params.len() {
                if params[j] == a && go(params, d, args, j + 1, li + 1, ti, Some(j)) {
                    return true;
                }
                if !d(j) {
                    break;
                }
                j += 1;
            }
            return false;
        }
        if ti < args.trailing.len() {
            let t = args.trailing[ti].as_str();
            let mut j = pi;
            while j < params.len() {
                if (ti == 0 || params[j] == t) && go(params, d, args, j + 1, li, ti + 1, Some(j)) {
                    return true;
                }
                if !d(j) {
                    break;
                }
                j += 1;
            }
            return false;
        }
        (pi..params.len()).all(d)
    }
    go(&params, &d, args, 0, 0, 0, None)
}

/// `f(x) { … }`: tree-sitter reads the trailing closures as a second call whose callee is
/// the call with the parenthesized arguments. The inner call, when `call` is such a pair
/// (its suffix has trailing closures only): the two are one call.
pub(super) fn trailing_of(call: Node<'_>) -> Option<Node<'_>> {
    let inner = call.named_child(0)?;
    if inner.kind() != "call_expression" {
        return None;
    }
    let suffix = children(call)
        .into_iter()
        .find(|c| c.kind() == "call_suffix")?;
    let named = named_children(suffix);
    let closures_only = !named.is_empty()
        && named
            .iter()
            .all(|c| matches!(c.kind(), "lambda_literal" | "simple_identifier"));
    // the inner call has parenthesized arguments, not brackets (a subscript) nor closures
    let inner_parens = children(inner)
        .into_iter()
        .find(|c| c.kind() == "call_suffix")
        .is_some_and(|s| {
            let n = named_children(s);
            n.len() == 1
                && n[0].kind() == "value_arguments"
                && n[0].child(0).is_some_and(|c| c.kind() == "(")
        });
    (closures_only && inner_parens).then_some(inner)
}

impl<'a> Analyzer<'a> {
    /// Collects the labels of a call's arguments and trailing closures.
    pub(super) fn call_args(&self, call: Node<'_>) -> CallArgs {
        let mut a = match trailing_of(call) {
            Some(inner) => {
                let inner_args = self.call_args(inner);
                CallArgs {
                    labels: inner_args.labels,
                    ..CallArgs::default()
                }
            }
            _ => CallArgs::default(),
        };
        let suffix = children(call)
            .into_iter()
            .find(|c| matches!(c.kind(), "call_suffix" | "constructor_suffix"));
        let Some(suffix) = suffix else { return a };
        let mut pending_label: Option<String> = None;
        for c in children(suffix) {
            match c.kind() {
                "value_arguments" => {
                    for v in named_children(c) {
                        if v.kind() != "value_argument" {
                            continue;
                        }
                        let label = v
                            .child_by_field_name("name")
                            .map(|l| ident(self.t(l)).to_owned())
                            .unwrap_or_else(|| "_".to_owned());
                        a.labels.push(label);
                    }
                }
                "simple_identifier" => pending_label = Some(ident(self.t(c)).to_owned()),
                "lambda_literal" => {
                    if a.trailing.is_empty() {
                        a.closure_arity = Some(closure_arity(c, self.src));
                        a.trailing.push("_".to_owned());
                    } else {
                        a.trailing
                            .push(pending_label.take().unwrap_or_else(|| "_".to_owned()));
                    }
                }
                _ => {}
            }
        }
        a
    }

    fn title(&self, id: SymId) -> &'a str {
        match self.index.sym(id) {
            Some(s) => self.index.s(s.name),
            None => "",
        }
    }

    /// Candidates a call's labels fit: with the recorded defaulted parameters; failing that,
    /// leniently (any parameter may have a default the graph did not record — closure
    /// parameters with defaults often are not).
    pub(super) fn compatible_ids(&self, ids: &[SymId], args: &CallArgs) -> Vec<SymId> {
        let strict = self.compatible_with(ids, args, false);
        if !strict.is_empty() {
            return strict;
        }
        // an imported Objective-C method whose labels the index only approximates
        // (`archivedData(withRoot:)` for `archivedData(withRootObject:)`): same arity and
        // labels the importer could have derived from the same selector pieces win
        let n = args.labels.len() + args.trailing.len();
        let approx: Vec<SymId> = ids
            .iter()
            .copied()
            .filter(|&id| {
                self.index.sym(id).is_some_and(|s| {
                    s.flags & F_APPROX != 0
                        && title_labels(self.index.s(s.name)).is_some_and(|l| l.len() == n)
                        && self.labels_near(id, args)
                })
            })
            .collect();
        if !approx.is_empty() {
            return approx;
        }
        self.compatible_with(ids, args, true)
    }

    /// The parameters of a callee that may have a default the index did not record: any,
    /// except for an imported Objective-C method whose parameter types are known, where the
    /// importer gives defaults only to optional, closure, dictionary and option-set
    /// parameters, so a parameter of a plain value type (a number, `Bool`, `String`), a class
    /// or a raw-value enum that is not an option set (`AVCaptureDevice.DeviceType`) is
    /// required.
    fn maybe_defaulted(&self, id: SymId) -> u64 {
        let Some(s) = self.index.sym(id) else {
            return u64::MAX;
        };
        if s.flags & F_OBJC == 0 || s.flags & (F_APPROX | F_MERGED) != 0 {
            return u64::MAX;
        }
        let Some(params) = self.index.sym_params(id) else {
            return u64::MAX;
        };
        let mut mask = s.defaulted;
        for (i, (_, ty, default)) in params.iter().enumerate().take(64) {
            if *default || !self.required_imported_type(ty) {
                mask |= 1 << i;
            }
        }
        // parameters past the recorded ones
        if params.len() < 64 {
            mask |= u64::MAX << params.len();
        }
        mask
    }

    /// Whether an imported parameter of type `ty` is one the importer never defaults.
    fn required_imported_type(&self, ty: &str) -> bool {
        if ty.is_empty()
            || ty.ends_with(['?', '!'])
            || ty.contains("->")
            || ty.starts_with('[')
            || ty.contains('<')
        {
            return false;
        }
        if matches!(
            ty,
            "Bool" | "Int" | "UInt" | "Double" | "Float" | "CGFloat" | "String" | "URL"
        ) {
            return true;
        }
        let Some(tid) = self.index.str_id(ty) else {
            return false;
        };
        let syms = self.index.type_syms(ty);
        let kinds: Vec<SymbolKind> = syms
            .iter()
            .filter_map(|&i| self.index.sym(i).map(|s| s.kind))
            .collect();
        if !kinds.is_empty() && kinds.iter().all(|k| *k == SymbolKind::Class) {
            return true;
        }
        let closure = self.index.type_closure(tid);
        let has = |n: &str| self.index.str_id(n).is_some_and(|x| closure.contains(&x));
        !kinds.is_empty()
            && kinds
                .iter()
                .all(|k| matches!(k, SymbolKind::Struct | SymbolKind::Enum))
            && has("RawRepresentable")
            && !has("OptionSet")
            && !has("SetAlgebra")
            && !has("ExpressibleByArrayLiteral")
    }

    /// The number of argument labels of a declaration's title (0 for a property).
    pub(super) fn title_len(&self, id: SymId) -> usize {
        self.index
            .sym(id)
            .and_then(|s| title_labels(self.index.s(s.name)))
            .map_or(0, |l| l.len())
    }

    /// The most argument labels any of `ids` takes.
    pub(super) fn longest_title(&self, ids: &[SymId]) -> usize {
        ids.iter().map(|&i| self.title_len(i)).max().unwrap_or(0)
    }

    /// Whether a call's labels could be the real Swift labels of an imported method whose
    /// derived labels the index has, position by position: the importer derives a label
    /// from a selector piece and only drops trailing words that repeat the parameter's type
    /// (`fileExistsAtPath:` with a `String` is `atPath:`, never `at:`; a label never changes
    /// its first word: `distanceFromLocation:` is `from:`, never `to:`). A derived label may
    /// have dropped too much (`withRoot` for `withRootObject`); an unlabeled argument is not
    /// judged, and parameters no argument is given are taken as defaulted (unrecorded
    /// defaults).
    pub(super) fn labels_near(&self, id: SymId, args: &CallArgs) -> bool {
        let Some(s) = self.index.sym(id) else {
            return true;
        };
        let Some(derived) = title_labels(self.index.s(s.name)) else {
            return true;
        };
        // an imported method whose Swift name the index has exactly (not derived): only
        // the parameters the importer could default may be left out
        if s.flags & F_APPROX == 0 && self.maybe_defaulted(id) != u64::MAX {
            return labels_compatible(self.index.s(s.name), self.maybe_defaulted(id), args);
        }
        let call = args.all_labels();
        if call.len() > derived.len() {
            return true;
        }
        let params = self.index.sym_params(id).unwrap_or_default();
        // in order, each argument against a parameter, the ones between taken as defaulted
        let mut next = 0;
        call.iter().all(|c| {
            while next < derived.len() {
                let ty = params.get(next).map_or("", |p| p.1);
                next += 1;
                if label_near(c, derived[next - 1], ty) {
                    return true;
                }
            }
            false
        })
    }

    fn compatible_with(&self, ids: &[SymId], args: &CallArgs, lenient: bool) -> Vec<SymId> {
        let v = self.compatible_any(ids, args, lenient);
        // a callable match beats a property that might hold a closure
        let callable: Vec<SymId> = v
            .iter()
            .copied()
            .filter(|&id| self.index.sym(id).is_some_and(|s| s.kind.is_callable()))
            .collect();
        if callable.is_empty() { v } else { callable }
    }

    fn compatible_any(&self, ids: &[SymId], args: &CallArgs, lenient: bool) -> Vec<SymId> {
        ids.iter()
            .copied()
            .filter(|&id| {
                let Some(s) = self.index.sym(id) else {
                    return false;
                };
                match s.kind {
                    // a property or case without payload may hold a closure
                    SymbolKind::Property
                    | SymbolKind::TypeProperty
                    | SymbolKind::Var
                    | SymbolKind::Struct
                    | SymbolKind::Class
                    | SymbolKind::Enum
                    | SymbolKind::Typealias => true,
                    _ => labels_compatible(
                        self.index.s(s.name),
                        if lenient {
                            self.maybe_defaulted(id)
                        } else {
                            s.defaulted
                        },
                        args,
                    ),
                }
            })
            .collect()
    }

    pub(super) fn some_titles(&self, ids: &[SymId]) -> String {
        let mut titles: Vec<&str> = ids.iter().map(|&i| self.title(i)).collect();
        titles.sort_unstable();
        titles.dedup();
        let n = titles.len();
        let mut s = titles
            .into_iter()
            .take(4)
            .map(|t| format!("`{t}`"))
            .collect::<Vec<_>>()
            .join(", ");
        if n > 4 {
            s.push_str(", …");
        }
        s
    }
}

/// Parameters of a closure literal: explicit ones, else the highest `$n` + 1, else 0.
fn closure_arity(lambda: Node<'_>, src: &str) -> usize {
    for c in named_children(lambda) {
        if c.kind() == "lambda_function_type" {
            for p in named_children(c) {
                if p.kind() == "lambda_function_type_parameters" {
                    return named_children(p)
                        .into_iter()
                        .filter(|x| x.kind() == "lambda_parameter")
                        .count();
                }
            }
        }
    }
    let mut max: Option<usize> = None;
    let mut stack: Vec<(Node<'_>, usize)> =
        named_children(lambda).into_iter().map(|c| (c, 0)).collect();
    while let Some((n, d)) = stack.pop() {
        if n.kind() == "lambda_literal" || d > 64 {
            continue;
        }
        if n.kind() == "simple_identifier"
            && let Some(num) = text(n, src).strip_prefix('$')
            && let Ok(k) = num.parse::<usize>()
        {
            max = Some(max.map_or(k, |m: usize| m.max(k)));
        }
        for c in named_children(n) {
            stack.push((c, d + 1));
        }
    }
    max.map_or(0, |m| m + 1)
}

/// The arguments of a call written in a test: labels, then trailing closures' labels.
#[cfg(test)]
pub(super) fn test_args(labels: &[&str], trailing: &[&str]) -> CallArgs {
    CallArgs {
        labels: labels.iter().map(|s| s.to_string()).collect(),
        trailing: trailing.iter().map(|s| s.to_string()).collect(),
        closure_arity: None,
    }
}

/// See [`Analyzer::labels_near`]: `call` against the derived label `derived` of a parameter
/// of type `ty` (empty when not recorded).
pub(super) fn label_near(call: &str, derived: &str, ty: &str) -> bool {
    if call == derived || call == "_" || derived == "_" {
        return true;
    }
    let (cw, dw) = (camel_words(call), camel_words(derived));
    if cw.first() != dw.first() {
        return false;
    }
    if dw.len() <= cw.len() {
        // the derived label dropped words the call keeps (or they differ later on)
        return cw.starts_with(&dw);
    }
    if !dw.starts_with(&cw) {
        return false;
    }
    // the call drops words: only the parameter type's own trailing words may go
    if ty.is_empty() {
        return true;
    }
    let type_name = ty
        .trim_end_matches(['?', '!'])
        .rsplit('.')
        .next()
        .unwrap_or(ty)
        .split('<')
        .next()
        .unwrap_or(ty);
    let dropped = &dw[cw.len()..];
    // the importer's names for types without a word of their own: integers are an `Index`
    // (or `Integer`), `id` an `Object`
    let is_int = type_name
        .strip_prefix('U')
        .unwrap_or(type_name)
        .strip_prefix("Int")
        .is_some_and(|bits| bits.chars().all(|c| c.is_ascii_digit()));
    let implied: &[&str] = if is_int {
        &["index", "integer", "int"]
    } else if matches!(type_name, "Any" | "AnyObject") {
        &["object"]
    } else {
        &[]
    };
    if let [one] = dropped
        && implied.contains(&one.as_str())
    {
        return true;
    }
    camel_words(type_name).ends_with(dropped)
}

/// The lowercased words of a camel-case name (`atPath` → `at`, `path`; `URLString` →
/// `url`, `string`).
fn camel_words(s: &str) -> Vec<String> {
    let chars: Vec<char> = s.chars().collect();
    let mut out: Vec<String> = Vec::new();
    let mut cur = String::new();
    for (i, &c) in chars.iter().enumerate() {
        let next_lower = chars.get(i + 1).is_some_and(|n| n.is_ascii_lowercase());
        let prev_upper = i > 0 && chars[i - 1].is_ascii_uppercase();
        let prev_lower =
            i > 0 && (chars[i - 1].is_ascii_lowercase() || chars[i - 1].is_ascii_digit());
        if c.is_ascii_uppercase() && !cur.is_empty() && (prev_lower || (prev_upper && next_lower)) {
            out.push(std::mem::take(&mut cur));
        }
        cur.push(c.to_ascii_lowercase());
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::test_args as args;
    use super::*;

    #[test]
    fn labels_an_importer_could_derive() {
        // a word repeating the parameter's type may go, no other
        assert!(label_near("with", "withURL", "URL"));
        assert!(label_near("from", "fromLocation", "CLLocation"));
        assert!(!label_near("at", "atPath", "String"));
        // an integer is an `Index` to the importer
        assert!(label_near("at", "atIndex", "UInt32"));
        // the first word never changes
        assert!(!label_near("to", "from", "CLLocation"));
        // a derived label that dropped too much; unknown types and unlabeled are not judged
        assert!(label_near("withRootObject", "withRoot", "Any"));
        assert!(label_near("at", "atPath", ""));
        assert!(label_near("_", "atPath", "String"));
        assert_eq!(camel_words("URLString"), ["url", "string"]);
        assert_eq!(camel_words("atPath"), ["at", "path"]);
    }

    #[test]
    fn label_matching() {
        let nd = "navigationDestination(for:destination:)";
        assert!(labels_compatible(nd, 0, &args(&["for"], &["_"])));
        assert!(labels_compatible(
            nd,
            0,
            &args(&["for", "destination"], &[])
        ));
        assert!(!labels_compatible(nd, 0, &args(&["for", "content"], &[])));
        assert!(!labels_compatible(nd, 0, &args(&["for"], &[])));
        // defaulted parameters may be left out
        let p = "print(_:separator:terminator:)";
        assert!(labels_compatible(p, 0b110, &args(&["_"], &[])));
        assert!(
            labels_compatible(p, 0b110, &args(&["_", "_", "_"], &[])),
            "variadic"
        );
        assert!(labels_compatible(
            p,
            0b110,
            &args(&["_", "terminator"], &[])
        ));
        assert!(!labels_compatible(p, 0b110, &args(&["_", "sep"], &[])));
        // a trailing closure may skip defaulted parameters
        let t = "init(priority:operation:)";
        assert!(labels_compatible(t, 0b1, &args(&[], &["_"])));
        // multiple trailing closures
        let b = "init(action:label:)";
        assert!(labels_compatible(b, 0, &args(&[], &["_", "label"])));
        assert!(!labels_compatible(b, 0, &args(&[], &["_", "content"])));
        assert!(labels_compatible("bold()", 0, &args(&[], &[])));
        assert!(!labels_compatible("bold()", 0, &args(&["_"], &[])));
    }

    #[test]
    fn closure_arity_disambiguates_on_change() {
        let mut a = args(&["of"], &["_"]);
        a.closure_arity = Some(1);
        assert!(labels_compatible("onChange(of:perform:)", 0, &a));
        assert!(!labels_compatible("onChange(of:initial:_:)", 0b10, &a));
        a.closure_arity = Some(2);
        assert!(!labels_compatible("onChange(of:perform:)", 0, &a));
        assert!(labels_compatible("onChange(of:initial:_:)", 0b10, &a));
    }
}
