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
//!
//! The modules: `declarations` (the first walk), `walk` (the second: scopes, guards and the
//! syntax it visits), `types` (the guessed type of an expression, and locals' types),
//! `supertypes` (what the index knows about a type and everything it inherits), `labels`
//! (matching a call's argument labels against declarations) and `checks` (each reference
//! resolved, used or reported missing).

mod checks;
mod declarations;
mod expect;
mod labels;
mod supertypes;
#[cfg(test)]
mod tests;
mod types;
mod typing;
mod walk;

use std::collections::HashMap;

use tree_sitter::Node;

use crate::builtins;
use crate::index::{Index, SymId};
use crate::syntax::pos;
use crate::version::{Target, Version};

pub(crate) use checks::resolve_name;
pub(crate) use declarations::Decls;
use labels::CallArgs;
use types::Ty;

/// Deeper subtrees are not analyzed (real code is far shallower; garbage can be deeper).
const MAX_DEPTH: usize = 400;
/// Receiver-less references with more same-named candidates than this are not used for
/// availability or deprecation (they cannot all agree in any useful way).
const MAX_NAME_CANDIDATES: usize = 64;
/// Unresolved references listed in the evidence (the count covers all).
const MAX_UNVERIFIED: usize = 5;

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

impl RefKey {
    /// A member `name` (called with `call`'s labels, if a call) of `recv`, if known.
    fn member(recv: Option<&str>, name: &str, call: Option<&CallArgs>) -> RefKey {
        RefKey {
            recv: recv.map(str::to_owned),
            name: name.to_owned(),
            labels: call.map(CallArgs::all_labels),
            ..RefKey::default()
        }
    }
}

/// `prefix.name` with `call`'s arguments, as the evidence spells a member reference.
fn member_text(prefix: &str, name: &str, call: Option<&CallArgs>) -> String {
    format!(
        "{prefix}.{name}{}",
        call.map(CallArgs::display).unwrap_or_default()
    )
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
    /// References checked against a known receiver or expected type (or a type name).
    pub resolved: usize,
    /// References whose receiver or expected type could not be worked out: existence by
    /// name only, never reported missing.
    pub unresolved: usize,
    /// A few of the unresolved references (for the evidence).
    pub unverified: Vec<Miss>,
    /// Subtrees skipped for depth.
    pub truncated: bool,
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
    /// The type an implicit member expression must have, by the expression's start byte
    /// (a call argument, an assignment's value, a returned value, a `case` pattern).
    expected: HashMap<usize, Ty>,
    /// The types an implicit member expression may have when a call's overloads disagree
    /// on its parameter's type, by the expression's start byte.
    expected_any: HashMap<usize, Vec<Ty>>,
    /// Implicit member expressions whose expected type is a generic parameter constrained to
    /// a protocol (by start byte): only the protocol's static members (its constrained
    /// extensions') can be meant, never a conforming type's.
    generic_expected: std::collections::HashSet<usize>,
    /// The parameter types of locals of function type (a `completionHandler:
    /// @escaping (UNNotificationPresentationOptions) -> Void` parameter), by the index in
    /// `scopes` of the scope that binds them and their name.
    local_fns: HashMap<(usize, String), Vec<Ty>>,
    /// The types of the values the enclosing `switch` statements switch over.
    switch_subjects: Vec<Ty>,
    /// The SDK supertypes the source's own types are declared (or extended) with, by name
    /// (`View` for `struct Panel: View`).
    source_supers: HashMap<String, Vec<String>>,
    /// The parameter types of a closure passed where a known API expects a function, by
    /// the closure's start byte.
    closure_params: HashMap<usize, Vec<Ty>>,
    /// The declared result types of the enclosing functions.
    returns: Vec<Ty>,
    /// The index in `scopes` of each enclosing type declaration's members (for `self.x`).
    type_scopes: Vec<usize>,
    /// The typed properties of the source's own types, by type name, then property name.
    source_members: HashMap<String, HashMap<String, Ty>>,
    /// The written result types of the functions and methods the source declares, by name
    /// (declarations of one name that disagree make it unknown).
    source_funcs: HashMap<String, Ty>,
    /// The parent-path ids of the SDK types the source names and of their supertypes (the
    /// receivers a member of an unknown receiver may plausibly be found on); built on first use.
    named_closure: Option<std::collections::HashSet<u32>>,
}

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
            expected: HashMap::new(),
            expected_any: HashMap::new(),
            generic_expected: std::collections::HashSet::new(),
            local_fns: HashMap::new(),
            switch_subjects: Vec::new(),
            source_supers: HashMap::new(),
            closure_params: HashMap::new(),
            returns: Vec::new(),
            type_scopes: Vec::new(),
            source_members: HashMap::new(),
            source_funcs: HashMap::new(),
            named_closure: None,
        }
    }

    pub(crate) fn run(mut self, root: Node<'_>) -> Analysis {
        for m in &self.decls.imports {
            if !self.index.has_module(m) && !builtins::is_builtin_module(m) {
                self.out.unknown_imports.push(m.clone());
            }
        }
        self.collect_source_members(root);
        self.prescan(root);
        self.visit(root, 0);
        self.out
    }

    fn t(&self, n: Node<'_>) -> &'a str {
        text(n, self.src)
    }

    fn guard(&self) -> Option<Version> {
        self.guards.iter().max().copied()
    }

    fn declared_value(&self, name: &str) -> bool {
        self.decls.values.contains(name) || self.decls.value_type_members.contains(name)
    }

    /// A name the source declares where an SDK type could have it: anywhere but as a
    /// member of the source's own structs and enums.
    fn declared_value_sdk_could_have(&self, name: &str) -> bool {
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

    /// A reference whose receiver's (or expected) type is unknown: not verifiable.
    fn unverifiable(&mut self, what: String, n: Node<'_>) {
        self.out.references += 1;
        self.out.unresolved += 1;
        if self.out.unverified.len() < MAX_UNVERIFIED {
            let (line, column) = pos(n, self.src);
            self.out.unverified.push(Miss {
                message: what,
                line,
                column,
            });
        }
    }

    fn used(&mut self, what: String, ids: Vec<SymId>, n: Node<'_>, resolved: bool, key: RefKey) {
        self.out.references += 1;
        if resolved {
            self.out.resolved += 1;
        } else {
            self.out.unresolved += 1;
        }
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

/// The member name of a navigation expression (`shared` in `URLSession.shared`).
fn nav_name(n: Node<'_>, src: &str) -> Option<String> {
    let sfx = n.child_by_field_name("suffix")?;
    let id = sfx.child_by_field_name("suffix")?;
    let t = ident(text(id, src));
    (!t.is_empty()).then(|| t.to_owned())
}
