//! Finds the SDK symbols a Swift source refers to and resolves them against an [`Index`].
//!
//! Two walks over the tree-sitter syntax tree:
//!
//! 1. [`Decls`]: every name the source declares itself — types, functions, properties,
//!    members of its extensions, locals, parameters, closure parameters, enum cases, generic
//!    parameters — and its imports. None of these is ever reported missing.
//! 2. [`Analyzer`]: references — type names, attributes and property wrappers, macros,
//!    initializer calls with their argument labels, member accesses and calls, implicit
//!    members (`.bold`, `.rect(cornerRadius:)`), `@Environment(\.key)` key paths — each
//!    resolved as far as the facts allow, with the `#available` / `@available` guards around
//!    it.
//!
//! Resolution is conservative: a member is reported missing only when its receiver's type is
//! known (an SDK type named in the source, a static access, a local whose type is written or
//! constructed in its declaration) and neither the type nor any supertype, protocol extension
//! or extension in the source has a member of that name. Receivers of unknown type are never
//! reported; types whose member list is known to be incomplete (typealiases, placeholders
//! synthesized from extensions, imported Objective-C names that were approximated) are not
//! either.

use std::collections::{HashMap, HashSet};

use tree_sitter::Node;

use crate::builtins;
use crate::index::{
    F_APPROX, F_OBJC, Index, SymId, SymbolKind, base_name, split_path, title_labels,
};
use crate::syntax::pos;
use crate::version::{Domain, Target, Version};

/// Deeper subtrees are not analyzed (real code is far shallower; garbage can be deeper).
const MAX_DEPTH: usize = 400;
/// Receiver-less references with more same-named candidates than this are not used for
/// availability or deprecation (they cannot all agree in any useful way).
const MAX_NAME_CANDIDATES: usize = 64;

/// A reference the index resolved to candidate symbols (for availability and deprecation).
#[derive(Clone, Debug)]
pub(crate) struct Use {
    /// How the source spells it (`URLSession.shared`, `NavigationStack(path:)`, `.bold()`).
    pub what: String,
    pub ids: Vec<SymId>,
    pub line: u32,
    pub column: u32,
    /// The highest `#available` / `@available` version for the target's domain around it.
    pub guard: Option<Version>,
    /// The receiver's type was known (false: candidates found by name alone).
    pub resolved: bool,
    pub key: RefKey,
}

/// The textual shape of a reference, for matching curated deprecation-map keys the index
/// cannot resolve.
#[derive(Clone, Debug, Default)]
pub(crate) struct RefKey {
    /// The receiver's (or constructed) type name when known.
    pub recv: Option<String>,
    /// Base name (`openURL`, `NavigationLink` for an initializer call, the type for a type).
    pub name: String,
    /// Argument labels of a call (`_` for unlabeled), trailing closures included.
    pub labels: Option<Vec<String>>,
    pub is_type: bool,
    pub is_init: bool,
}

/// A reference that the index says does not exist.
#[derive(Clone, Debug)]
pub(crate) struct Miss {
    pub message: String,
    pub line: u32,
    pub column: u32,
}

/// What the second walk found.
#[derive(Debug, Default)]
pub(crate) struct Analysis {
    pub uses: Vec<Use>,
    pub misses: Vec<Miss>,
    /// Imports of modules the index has no graph for.
    pub unknown_imports: Vec<String>,
    pub references: usize,
    /// Subtrees skipped for depth.
    pub truncated: bool,
}

/// Names the source declares.
#[derive(Debug, Default)]
pub(crate) struct Decls {
    pub types: HashSet<String>,
    /// Types the source extends with initializers of its own.
    pub ext_inits: HashSet<String>,
    pub values: HashSet<String>,
    pub imports: Vec<String>,
    /// The syntax tree's depth (the analysis needs a large stack beyond some depth).
    pub max_depth: usize,
}

fn text<'a>(n: Node<'_>, src: &'a str) -> &'a str {
    src.get(n.start_byte()..n.end_byte()).unwrap_or("")
}

fn ident(s: &str) -> &str {
    s.trim_matches('`')
}

fn capitalized(s: &str) -> bool {
    s.chars().next().is_some_and(|c| c.is_uppercase())
}

fn children(n: Node<'_>) -> Vec<Node<'_>> {
    let mut c = n.walk();
    n.children(&mut c).collect()
}

fn named_children(n: Node<'_>) -> Vec<Node<'_>> {
    let mut c = n.walk();
    n.named_children(&mut c).collect()
}

impl Decls {
    pub(crate) fn collect(root: Node<'_>, src: &str) -> Decls {
        let mut d = Decls::default();
        // iterative walk (no recursion on untrusted depth)
        let mut stack = vec![(root, 0usize)];
        while let Some((n, depth)) = stack.pop() {
            d.max_depth = d.max_depth.max(depth);
            d.visit(n, src);
            let mut c = n.walk();
            for ch in n.children(&mut c) {
                if ch.kind() != "ERROR" || ch.child_count() > 0 {
                    stack.push((ch, depth + 1));
                }
            }
        }
        d
    }

    fn value(&mut self, n: Node<'_>, src: &str) {
        let t = ident(text(n, src));
        if !t.is_empty() && t != "_" {
            self.values.insert(t.to_owned());
        }
    }

    fn visit(&mut self, n: Node<'_>, src: &str) {
        match n.kind() {
            "import_declaration" => {
                if let Some(id) = named_children(n)
                    .into_iter()
                    .find(|c| c.kind() == "identifier")
                {
                    let full = text(id, src);
                    let first = full.split('.').next().unwrap_or(full).trim();
                    if !first.is_empty() {
                        self.imports.push(first.to_owned());
                    }
                }
            }
            "class_declaration" | "protocol_declaration" => {
                if let Some(name) = n.child_by_field_name("name")
                    && name.kind() == "type_identifier"
                {
                    self.types.insert(ident(text(name, src)).to_owned());
                }
            }
            "typealias_declaration" | "associatedtype_declaration" => {
                if let Some(name) = n.child_by_field_name("name") {
                    self.types.insert(ident(text(name, src)).to_owned());
                }
            }
            "type_parameter" => {
                if let Some(t) = named_children(n)
                    .into_iter()
                    .find(|c| c.kind() == "type_identifier")
                {
                    self.types.insert(ident(text(t, src)).to_owned());
                }
            }
            "init_declaration" => {
                let mut p = n.parent();
                while let Some(x) = p {
                    if x.kind() == "class_declaration" {
                        if let Some(name) = x.child_by_field_name("name")
                            && name.kind() == "user_type"
                        {
                            let t = text(name, src);
                            let last = t.rsplit('.').next().unwrap_or(t);
                            self.ext_inits.insert(ident(last.trim()).to_owned());
                        }
                        break;
                    }
                    p = x.parent();
                }
            }
            "function_declaration" | "protocol_function_declaration" | "macro_declaration" => {
                if let Some(name) = n.child_by_field_name("name") {
                    self.value(name, src);
                }
            }
            "parameter" | "lambda_parameter" | "enum_entry" | "capture_list_item" => {
                for c in named_children(n) {
                    if c.kind() == "simple_identifier" {
                        self.value(c, src);
                    }
                }
            }
            "pattern" | "if_statement" | "guard_statement" | "while_statement"
            | "computed_setter" | "willset_clause" | "didset_clause" | "for_statement" => {
                for c in named_children(n) {
                    if c.kind() == "simple_identifier"
                        && (n.kind() == "pattern"
                            || n.child_by_field_name("bound_identifier") == Some(c)
                            || matches!(
                                n.kind(),
                                "computed_setter" | "willset_clause" | "didset_clause"
                            ))
                    {
                        self.value(c, src);
                    }
                }
            }
            "protocol_property_declaration" => {
                if let Some(p) = n.child_by_field_name("name") {
                    for c in named_children(p) {
                        if c.kind() == "simple_identifier" {
                            self.value(c, src);
                        }
                    }
                }
            }
            _ => {}
        }
    }
}

/// A guessed static type of an expression.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Ty {
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
    fn sdk(path: &str) -> Ty {
        Ty::Sdk {
            path: path.to_owned(),
            meta: false,
            also: None,
        }
    }
}

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
    fn all_labels(&self) -> Vec<String> {
        self.labels.iter().chain(&self.trailing).cloned().collect()
    }

    fn display(&self) -> String {
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

/// The second walk: references, resolved.
pub(crate) struct Analyzer<'a> {
    index: &'a Index,
    src: &'a str,
    decls: &'a Decls,
    target: Target,
    /// Guard versions in scope (for the target's domain).
    guards: Vec<Version>,
    /// Lexical scopes of locals with known types.
    scopes: Vec<HashMap<String, Ty>>,
    in_type: usize,
    /// SDK supertypes (and extended types) of the enclosing type declarations.
    type_ctx: Vec<Vec<String>>,
    out: Analysis,
    memo_closure: HashMap<String, Vec<u32>>,
    memo_incomplete: HashMap<u32, bool>,
}

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

impl<'a> Analyzer<'a> {
    pub(crate) fn new(index: &'a Index, src: &'a str, decls: &'a Decls, target: Target) -> Self {
        Analyzer {
            index,
            src,
            decls,
            target,
            guards: Vec::new(),
            scopes: vec![HashMap::new()],
            in_type: 0,
            type_ctx: Vec::new(),
            out: Analysis::default(),
            memo_closure: HashMap::new(),
            memo_incomplete: HashMap::new(),
        }
    }

    pub(crate) fn run(mut self, root: Node<'_>) -> Analysis {
        for m in &self.decls.imports {
            if !self.index.has_module(m) && !builtins::is_builtin_module(m) {
                self.out.unknown_imports.push(m.clone());
            }
        }
        self.prescan(root);
        self.visit(root, 0);
        self.out
    }

    // ---- helpers ---------------------------------------------------------------------------

    fn t(&self, n: Node<'_>) -> &'a str {
        text(n, self.src)
    }

    fn guard(&self) -> Option<Version> {
        self.guards.iter().max().copied()
    }

    fn declared_value(&self, name: &str) -> bool {
        self.decls.values.contains(name)
    }

    fn declared_type(&self, name: &str) -> bool {
        self.decls.types.contains(name)
    }

    fn miss(&mut self, message: String, n: Node<'_>) {
        let (line, column) = pos(n, self.src);
        if self
            .out
            .misses
            .iter()
            .any(|m| m.line == line && m.column == column)
        {
            return;
        }
        self.out.misses.push(Miss {
            message,
            line,
            column,
        });
    }

    fn used(&mut self, what: String, ids: Vec<SymId>, n: Node<'_>, resolved: bool, key: RefKey) {
        self.out.references += 1;
        if ids.is_empty() {
            return;
        }
        let (line, column) = pos(n, self.src);
        let guard = self.guard();
        self.out.uses.push(Use {
            what,
            ids,
            line,
            column,
            guard,
            resolved,
            key,
        });
    }

    fn closure_of(&mut self, path: &str) -> Vec<u32> {
        if let Some(c) = self.memo_closure.get(path) {
            return c.clone();
        }
        let c = match self.index.str_id(path) {
            Some(id) => self.index.type_closure(id),
            None => Vec::new(),
        };
        self.memo_closure.insert(path.to_owned(), c.clone());
        c
    }

    /// Whether the index's member list of a type may be incomplete: as the receiver itself
    /// (`root`), a typealias, associated type or extension-only placeholder, or an imported
    /// error struct (`URLError`, with its nested `Code`: its initializers and members come
    /// from an underscored protocol the graphs omit); as a supertype,
    /// a type the index lacks or knows only from extensions (`NSObject` aside: its members are
    /// built in). Typealiased supertypes (`Codable`) are compositions of listed protocols.
    fn incomplete(&mut self, path_id: u32, root: bool) -> bool {
        let key = path_id.wrapping_mul(2) | u32::from(root);
        if let Some(&b) = self.memo_incomplete.get(&key) {
            return b;
        }
        let path = self.index.s(path_id).to_owned();
        let b = if matches!(path.as_str(), "NSObject" | "NSObjectProtocol") {
            false
        } else {
            let syms = self.index.type_syms(&path);
            let kinds: Vec<SymbolKind> = syms
                .iter()
                .filter_map(|&id| self.index.sym(id).map(|s| s.kind))
                .collect();
            let declared = kinds.iter().any(|k| {
                matches!(
                    k,
                    SymbolKind::Struct
                        | SymbolKind::Class
                        | SymbolKind::Enum
                        | SymbolKind::Protocol
                )
            });
            if root {
                !declared || self.index.is_type(&format!("{path}.Code"))
            } else {
                !declared && !kinds.contains(&SymbolKind::Typealias)
            }
        };
        self.memo_incomplete.insert(key, b);
        b
    }

    /// `closure` as built by [`Self::closure_of`] for each of `roots`.
    fn closure_incomplete(&mut self, closure: &[u32]) -> bool {
        closure.iter().enumerate().any(|(i, &t)| {
            let root = i == 0;
            self.incomplete(t, root)
        })
    }

    fn roots_incomplete(&mut self, roots: &[&str]) -> bool {
        for r in roots {
            let c = self.closure_of(r);
            if c.is_empty() || self.closure_incomplete(&c) {
                return true;
            }
        }
        false
    }

    fn closure_has(&self, closure: &[u32], name: &str) -> bool {
        self.index
            .str_id(name)
            .is_some_and(|id| closure.contains(&id))
    }

    fn has_dynamic_members(&self, closure: &[u32]) -> bool {
        !self
            .index
            .member_ids_in(closure, "subscript(dynamicMember:)")
            .is_empty()
    }

    /// Imported Objective-C names are approximations: accept near spellings. A real Swift
    /// name can differ from the index's derived one by case, or be the literal first selector
    /// piece minus a trailing word the importer moved into the first label
    /// (`popViewController(animated:)` for `popViewControllerAnimated:`).
    fn objc_near(&self, closure: &[u32], name: &str) -> bool {
        let lname = name.to_ascii_lowercase();
        for &t in closure {
            for id in self.index.children(t) {
                let Some(s) = self.index.sym(id) else {
                    continue;
                };
                if s.flags & (F_APPROX | F_OBJC) == 0 {
                    continue;
                }
                let base = self.index.s(s.base);
                if base.to_ascii_lowercase() == lname {
                    return true;
                }
                if s.flags & F_APPROX == 0 {
                    continue;
                }
                let alts = self
                    .index
                    .alt_ids(s)
                    .iter()
                    .map(|&a| base_name(self.index.s(a)));
                for literal in std::iter::once(base).chain(alts) {
                    if name.len() >= 3
                        && literal.len() > name.len()
                        && literal.starts_with(name)
                        && literal[name.len()..].starts_with(|c: char| c.is_ascii_uppercase())
                    {
                        return true;
                    }
                }
            }
        }
        false
    }

    fn sym_is_objc(&self, id: SymId) -> bool {
        self.index
            .sym(id)
            .is_some_and(|s| s.flags & (F_APPROX | F_OBJC) != 0)
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
    fn compatible_ids(&self, ids: &[SymId], args: &CallArgs) -> Vec<SymId> {
        let strict = self.compatible_with(ids, args, false);
        if !strict.is_empty() {
            return strict;
        }
        // an imported Objective-C method whose labels the index only approximates
        // (`archivedData(withRoot:)` for `archivedData(withRootObject:)`): same arity wins
        let n = args.labels.len() + args.trailing.len();
        let approx: Vec<SymId> = ids
            .iter()
            .copied()
            .filter(|&id| {
                self.index.sym(id).is_some_and(|s| {
                    s.flags & F_APPROX != 0
                        && title_labels(self.index.s(s.name)).is_some_and(|l| l.len() == n)
                })
            })
            .collect();
        if !approx.is_empty() {
            return approx;
        }
        self.compatible_with(ids, args, true)
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
                        if lenient { u64::MAX } else { s.defaulted },
                        args,
                    ),
                }
            })
            .collect()
    }

    fn some_titles(&self, ids: &[SymId]) -> String {
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

    // ---- types -----------------------------------------------------------------------------

    /// The SDK type path a written type name denotes (module prefix removed), if any.
    fn sdk_type_path(&self, comps: &[&str]) -> Option<String> {
        let mut comps: Vec<&str> = comps.to_vec();
        if comps.len() > 1 && self.index.has_module(comps[0]) && !self.index.is_type(comps[0]) {
            comps.remove(0);
        }
        let path = comps.join(".");
        self.index.is_type(&path).then_some(path)
    }

    fn ty_of_type_node(&self, n: Node<'_>) -> Ty {
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

    fn bind(&mut self, name: &str, ty: Ty) {
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
    fn infer(&mut self, n: Node<'_>, depth: usize) -> Ty {
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

    // ---- scopes ----------------------------------------------------------------------------

    /// Declarations of a body are visible throughout it (members, top-level code).
    fn prescan(&mut self, body: Node<'_>) {
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

    fn bind_property(&mut self, d: Node<'_>) {
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

    fn bind_params(&mut self, n: Node<'_>) {
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

    // ---- the walk --------------------------------------------------------------------------

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

    fn visit(&mut self, n: Node<'_>, depth: usize) {
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
                self.scopes.pop();
                self.guards.truncate(g);
            }
            "property_declaration" => {
                let g = self.push_decl_guards(n);
                self.bind_property(n);
                for c in children(n) {
                    if c.kind() == "pattern" && Some(c) == n.child_by_field_name("name") {
                        continue;
                    }
                    self.visit(c, depth + 1);
                }
                self.guards.truncate(g);
            }
            "lambda_literal" => {
                self.scopes.push(HashMap::new());
                self.bind_params(n);
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
                if let Some(item) = n.child_by_field_name("item") {
                    for x in named_children(item) {
                        if x.kind() == "simple_identifier" {
                            let t = self.t(x);
                            self.bind(t, Ty::Unknown);
                        }
                    }
                    let t = self.t(item);
                    if item.named_child_count() == 0 {
                        self.bind(t, Ty::Unknown);
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
                        self.check_implicit(&name, None, t);
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
                let parent_ok = n.parent().is_some_and(|p| EXPR_PARENTS.contains(&p.kind()));
                let name = ident(self.t(n));
                if parent_ok && capitalized(name) {
                    self.check_type_name(&[name], n);
                }
            }
            _ => self.visit_children(n, depth),
        }
    }

    fn visit_conditional(&mut self, n: Node<'_>, depth: usize) {
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
        // bindings (`if let x = URL(string:)`) are visible in the enclosing scope here:
        // conservative (a clash makes the name's type unknown)
        if let Some(b) = n.child_by_field_name("bound_identifier") {
            let kids = children(n);
            let idx = kids.iter().position(|k| *k == b).unwrap_or(0);
            let value = kids
                .iter()
                .skip(idx + 1)
                .find(|k| k.is_named() && k.kind() != "value_binding_pattern");
            let ty = match value {
                Some(v) => match self.infer(*v, 0) {
                    Ty::Sdk { path, meta, .. } => Ty::Sdk {
                        path,
                        meta,
                        also: None,
                    },
                    t => t,
                },
                None => Ty::Unknown,
            };
            let name = self.t(b);
            self.bind(name, ty);
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

    /// Collects the labels of a call's arguments and trailing closures.
    fn call_args(&self, call: Node<'_>) -> CallArgs {
        let mut a = CallArgs::default();
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

    fn visit_call(&mut self, n: Node<'_>, depth: usize) {
        let Some(callee) = n.named_child(0) else {
            return;
        };
        let args = self.call_args(n);
        match callee.kind() {
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
                    self.check_implicit(&name, Some(&args), t);
                } else {
                    self.visit(callee, depth + 1);
                }
            }
            _ => self.visit(callee, depth + 1),
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
            if t.kind() == "simple_identifier" && capitalized(ident(self.t(t))) {
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

    // ---- checks ----------------------------------------------------------------------------

    /// A miss, unless the facts cannot decide it (see [`crate::check`]): recorded either way,
    /// the checker decides whether it is verifiable.
    fn unresolved_or_miss(&mut self, message: String, n: Node<'_>) {
        self.miss(message, n);
    }

    /// The SDK types a type declaration names: its supertypes, or the type it extends.
    fn supertypes_written(&self, n: Node<'_>) -> Vec<String> {
        let mut out = Vec::new();
        for c in children(n) {
            let t = match c.kind() {
                "inheritance_specifier" => c.child_by_field_name("inherits_from"),
                "user_type" if Some(c) == n.child_by_field_name("name") => Some(c),
                _ => None,
            };
            if let Some(t) = t
                && let Ty::Sdk { path, .. } = self.ty_of_type_node(t)
            {
                out.push(path);
            }
        }
        out
    }

    /// A nested type (`Context`, `Body`) reached through an enclosing type's supertypes.
    fn contextual_type(&mut self, name: &str) -> Option<Vec<SymId>> {
        let ctx: Vec<String> = self.type_ctx.iter().rev().flatten().cloned().collect();
        for p in ctx {
            let closure = self.closure_of(&p);
            let ids: Vec<SymId> = self
                .index
                .member_ids_in(&closure, name)
                .into_iter()
                .filter(|&id| self.index.sym(id).is_some_and(|s| s.kind.is_type()))
                .collect();
            if !ids.is_empty() {
                return Some(ids);
            }
        }
        None
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

    fn check_type_name(&mut self, comps: &[&str], n: Node<'_>) {
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

    fn check_user_type(&mut self, n: Node<'_>) {
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

    fn top_level_funcs(&self, name: &str) -> Vec<SymId> {
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

    fn check_free_call(&mut self, name: &str, args: &CallArgs, n: Node<'_>) {
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

    fn check_init(&mut self, path: &str, args: &CallArgs, n: Node<'_>) {
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

    fn check_member(
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
        let key = RefKey {
            recv: Some(path.clone()),
            name: name.to_owned(),
            labels: call.map(CallArgs::all_labels),
            ..RefKey::default()
        };
        let what = match call {
            Some(a) => format!("{path}.{name}{}", a.display()),
            None => format!("{path}.{name}"),
        };
        if ids.is_empty() {
            if self.declared_value(name)
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
                let lenient = self.declared_value(name)
                    || ids.iter().any(|&i| self.sym_is_objc(i))
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
            None => self.used(what, ids, n, true, key),
        }
    }

    /// `Type.member` means a static member (or a nested type, a case, an initializer) and
    /// `value.member` an instance member, when the candidates include such.
    fn prefer_staticness(&self, ids: Vec<SymId>, meta: bool) -> Vec<SymId> {
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
        let Some(args) = call else {
            self.out.references += 1;
            return;
        };
        let ids = self.members_named(name, true);
        if ids.len() > MAX_NAME_CANDIDATES {
            // a name this common (`map`, `append`) cannot be pinned down by name alone
            self.out.references += 1;
            return;
        }
        let ids = self.compatible_ids(&ids, args);
        let key = RefKey {
            name: name.to_owned(),
            labels: Some(args.all_labels()),
            ..RefKey::default()
        };
        self.used(format!("{name}{}", args.display()), ids, n, false, key);
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

    fn check_implicit(&mut self, name: &str, call: Option<&CallArgs>, n: Node<'_>) {
        if name.is_empty() || matches!(name, "init" | "self") || self.declared_value(name) {
            return;
        }
        let all = self.members_named(name, true);
        let key = RefKey {
            name: name.to_owned(),
            labels: call.map(CallArgs::all_labels),
            ..RefKey::default()
        };
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
            self.out.references += 1;
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
                    self.out.references += 1;
                    let known = self.some_titles(&all);
                    self.unresolved_or_miss(
                        format!(
                            "no SDK member `.{name}` takes the labels {} (known: {known})",
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

    fn check_macro(&mut self, name: &str, n: Node<'_>) {
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

/// The member name of a navigation expression (`shared` in `URLSession.shared`).
fn nav_name(n: Node<'_>, src: &str) -> Option<String> {
    let sfx = n.child_by_field_name("suffix")?;
    let id = sfx.child_by_field_name("suffix")?;
    let t = ident(text(id, src));
    (!t.is_empty()).then(|| t.to_owned())
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

#[cfg(test)]
mod tests {
    use super::*;

    fn args(labels: &[&str], trailing: &[&str]) -> CallArgs {
        CallArgs {
            labels: labels.iter().map(|s| s.to_string()).collect(),
            trailing: trailing.iter().map(|s| s.to_string()).collect(),
            closure_arity: None,
        }
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
