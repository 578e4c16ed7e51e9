//! The one traversal every language shares: an iterative cursor walk (no recursion, so a deeply
//! nested file cannot overflow the stack) that keeps a stack of enclosing scopes, collects the
//! file's identifiers, and hands each node to the language's `enter`.

use std::collections::HashSet;

use tree_sitter::{Node, Tree};
use verity_facts::{
    Call, Export, Inheritance, InheritanceKind, Symbol, SymbolKind, TypeFact, TypeRole,
};

/// Signatures are cut to this many characters.
pub(crate) const MAX_SIGNATURE: usize = 300;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ScopeKind {
    /// A class, struct, trait, interface, impl block or extension: methods' container.
    Type,
    /// A function or method: callers' and nested functions' container.
    Function,
}

#[derive(Clone, Debug)]
pub(crate) struct Scope {
    node_id: usize,
    pub kind: ScopeKind,
    /// A type's name, or a function's qualified name (`Parser.parse`).
    pub name: String,
    pub exported: bool,
}

/// How an import's module is resolved to a repository file once every file is known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Resolve {
    None,
    /// A relative specifier (`./util`), TS/JS.
    Js,
    /// A dotted absolute module (`pkg.mod`).
    PyAbsolute,
    /// `from ..mod import x`: the number of dots and the rest.
    PyRelative {
        level: usize,
        rest: String,
    },
    /// `use crate::…` / `super::…` / `self::…` path.
    RustPath,
    /// `mod name;`
    RustMod,
    /// A Go import path.
    Go,
}

#[derive(Clone, Debug)]
pub(crate) struct RawImport {
    pub module: String,
    pub symbols: Vec<String>,
    pub line: u32,
    pub resolve: Resolve,
}

/// A Swift type's inherited names, sorted into extends / implements once every class is known.
#[derive(Clone, Debug)]
pub(crate) struct SwiftBases {
    pub child: String,
    /// Classes (and actors) may have a superclass; structs, enums and extensions only conform.
    pub may_extend: bool,
    pub parents: Vec<String>,
    pub line: u32,
}

/// What one file gave.
#[derive(Debug, Default)]
pub(crate) struct FileOut {
    pub symbols: Vec<Symbol>,
    pub inherits: Vec<Inheritance>,
    pub imports: Vec<RawImport>,
    pub exports: Vec<Export>,
    pub calls: Vec<Call>,
    pub types: Vec<TypeFact>,
    pub identifiers: Vec<String>,
    pub swift_bases: Vec<SwiftBases>,
}

/// The state of one file's walk, handed to the language's `enter`.
pub(crate) struct Walk<'a> {
    pub src: &'a str,
    pub file: &'a str,
    pub scopes: Vec<Scope>,
    pub out: FileOut,
}

/// What a language does with each node it is handed.
pub(crate) trait Lang {
    /// Called on entering `n`; a returned scope encloses `n`'s descendants.
    fn enter(&mut self, w: &mut Walk<'_>, n: Node<'_>) -> Option<(ScopeKind, String, bool)>;
    /// Called once after the walk.
    fn finish(&mut self, _w: &mut Walk<'_>) {}
}

pub(crate) fn walk_tree(tree: &Tree, src: &str, file: &str, lang: &mut dyn Lang) -> FileOut {
    let mut w = Walk {
        src,
        file,
        scopes: Vec::new(),
        out: FileOut::default(),
    };
    let mut idents: HashSet<&str> = HashSet::new();
    let mut cursor = tree.walk();
    'walk: loop {
        let node = cursor.node();
        if node.child_count() == 0 {
            if node.is_named() && node.kind().ends_with("identifier") {
                // `src` outlives the walk, so the set borrows from it.
                if let Some(t) = src.get(node.byte_range()).filter(|t| !t.is_empty()) {
                    idents.insert(t);
                }
            }
        } else if let Some((kind, name, exported)) = lang.enter(&mut w, node) {
            w.scopes.push(Scope {
                node_id: node.id(),
                kind,
                name,
                exported,
            });
        }
        if cursor.goto_first_child() {
            continue;
        }
        loop {
            let id = cursor.node().id();
            if w.scopes.last().is_some_and(|s| s.node_id == id) {
                w.scopes.pop();
            }
            if cursor.goto_next_sibling() {
                continue 'walk;
            }
            if !cursor.goto_parent() {
                break 'walk;
            }
        }
    }
    lang.finish(&mut w);
    let mut ids: Vec<String> = idents.into_iter().map(str::to_string).collect();
    ids.sort_unstable();
    w.out.identifiers = ids;
    w.out
}

pub(crate) fn line(n: Node<'_>) -> u32 {
    u32::try_from(n.start_position().row + 1).unwrap_or(u32::MAX)
}

pub(crate) fn end_line(n: Node<'_>) -> u32 {
    let end = n.end_position();
    // A node ending at column 0 ends on the line before (its last newline).
    let row = if end.column == 0 && end.row > n.start_position().row {
        end.row
    } else {
        end.row + 1
    };
    u32::try_from(row).unwrap_or(u32::MAX)
}

/// Whitespace runs collapsed to one space, trimmed.
pub(crate) fn collapse(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for part in s.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(part);
    }
    out
}

/// At most `max` characters.
pub(crate) fn cut(mut s: String, max: usize) -> String {
    if let Some((i, _)) = s.char_indices().nth(max) {
        s.truncate(i);
    }
    s
}

/// A type name without generic arguments, `*`/`&` or surrounding space: `Base<T>` → `Base`.
pub(crate) fn base_name(s: &str) -> String {
    let s = s.trim().trim_start_matches(['*', '&']).trim();
    let end = s.find(['<', '[', '(', '{']).unwrap_or(s.len());
    collapse(&s[..end])
}

impl<'a> Walk<'a> {
    pub fn text(&self, n: Node<'_>) -> &'a str {
        self.src.get(n.byte_range()).unwrap_or("")
    }

    pub fn field_text(&self, n: Node<'_>, field: &str) -> Option<&'a str> {
        n.child_by_field_name(field)
            .map(|c| self.text(c))
            .filter(|t| !t.is_empty())
    }

    /// The innermost scope.
    pub fn innermost(&self) -> Option<&Scope> {
        self.scopes.last()
    }

    /// The innermost enclosing function's qualified name, or `<module>`.
    pub fn caller(&self) -> String {
        self.scopes
            .iter()
            .rev()
            .find(|s| s.kind == ScopeKind::Function)
            .map_or_else(|| "<module>".to_string(), |s| s.name.clone())
    }

    /// The innermost scope's name (a type or a function), for types written inside it.
    pub fn container(&self) -> Option<String> {
        self.scopes.last().map(|s| s.name.clone())
    }

    pub fn at_top(&self) -> bool {
        self.scopes.is_empty()
    }

    /// The signature of a declaration: from `start` to the start of `body` (or the node's end
    /// when it has none), whitespace collapsed, the trailing `{`, `:`, `=>`, `=` or `;` dropped.
    pub fn signature(&self, start: usize, n: Node<'_>, body: Option<Node<'_>>) -> String {
        let end = body.map_or(n.end_byte(), |b| b.start_byte());
        let head = self.src.get(start..end.max(start)).unwrap_or("");
        let mut s = collapse(head);
        loop {
            let t = s.trim_end();
            let t = t
                .strip_suffix("=>")
                .or_else(|| t.strip_suffix(['{', ':', ';', '=']))
                .unwrap_or(t);
            if t.len() == s.len() {
                break;
            }
            s = t.trim_end().to_string();
        }
        cut(s, MAX_SIGNATURE)
    }

    /// Records a function or method named `name` and returns its scope. Its kind and container
    /// follow from the innermost scope: a type makes it a method of that type; a function makes
    /// it a nested function of that one.
    #[allow(clippy::too_many_arguments)]
    pub fn function(
        &mut self,
        n: Node<'_>,
        name: &str,
        sig_start: usize,
        body: Option<Node<'_>>,
        return_type: Option<String>,
        exported: bool,
    ) -> Option<(ScopeKind, String, bool)> {
        let (kind, container) = match self.scopes.last() {
            Some(s) if s.kind == ScopeKind::Type => (SymbolKind::Method, Some(s.name.clone())),
            Some(s) => (SymbolKind::Function, Some(s.name.clone())),
            None => (SymbolKind::Function, None),
        };
        let qualified = match &container {
            Some(c) => format!("{c}.{name}"),
            None => name.to_string(),
        };
        let signature = self.signature(sig_start, n, body);
        self.out.symbols.push(Symbol {
            name: name.to_string(),
            kind,
            file: self.file.to_string(),
            start_line: line(n),
            end_line: end_line(n),
            container,
            signature: (!signature.is_empty()).then_some(signature),
            return_type: return_type.map(|t| collapse(&t)).filter(|t| !t.is_empty()),
            exported,
        });
        Some((ScopeKind::Function, qualified, exported))
    }

    /// Records a type-like symbol (or a constant) without a scope of its own.
    pub fn type_symbol(&mut self, n: Node<'_>, name: &str, kind: SymbolKind, exported: bool) {
        let container = self.scopes.last().map(|s| s.name.clone());
        let body = n
            .child_by_field_name("body")
            .filter(|_| kind != SymbolKind::TypeAlias && kind != SymbolKind::Constant);
        let signature = self.signature(n.start_byte(), n, body);
        self.out.symbols.push(Symbol {
            name: name.to_string(),
            kind,
            file: self.file.to_string(),
            start_line: line(n),
            end_line: end_line(n),
            container,
            signature: (!signature.is_empty() && kind != SymbolKind::Constant).then_some(signature),
            return_type: None,
            exported,
        });
    }

    pub fn inherit(&mut self, child: &str, parent: &str, kind: InheritanceKind, at: Node<'_>) {
        let parent = base_name(parent);
        if parent.is_empty() || child.is_empty() {
            return;
        }
        self.out.inherits.push(Inheritance {
            child: child.to_string(),
            parent,
            kind,
            file: self.file.to_string(),
            line: line(at),
        });
    }

    pub fn call(&mut self, callee: &str, at: Node<'_>) {
        let callee = callee.trim();
        if callee.is_empty() {
            return;
        }
        let caller = self.caller();
        self.out.calls.push(Call {
            caller,
            callee: callee.to_string(),
            file: self.file.to_string(),
            line: line(at),
        });
    }

    pub fn typed(&mut self, ident: &str, ty: &str, role: TypeRole, at: Node<'_>) {
        let ty = collapse(ty.trim().trim_start_matches(':').trim());
        let ident = ident.trim();
        if ty.is_empty() || ident.is_empty() {
            return;
        }
        let container = self.container();
        self.out.types.push(TypeFact {
            identifier: ident.to_string(),
            ty,
            role,
            container,
            file: self.file.to_string(),
            line: line(at),
        });
    }

    pub fn export(&mut self, name: &str, at: Node<'_>) {
        if name.is_empty() {
            return;
        }
        self.out.exports.push(Export {
            file: self.file.to_string(),
            name: name.to_string(),
            line: line(at),
        });
    }

    pub fn import(&mut self, module: &str, symbols: Vec<String>, at: Node<'_>, resolve: Resolve) {
        if module.is_empty() {
            return;
        }
        self.out.imports.push(RawImport {
            module: module.to_string(),
            symbols,
            line: line(at),
            resolve,
        });
    }
}

/// The named children of `n`.
pub(crate) fn named_children<'t>(n: Node<'t>) -> impl Iterator<Item = Node<'t>> {
    (0..n.named_child_count()).filter_map(move |i| n.named_child(i))
}

/// A string literal's content: quotes dropped.
pub(crate) fn unquote(s: &str) -> &str {
    let s = s.trim();
    let s = s.strip_prefix(['"', '\'', '`']).unwrap_or(s);
    s.strip_suffix(['"', '\'', '`']).unwrap_or(s)
}

impl Scope {
    /// A scope that is pushed and popped by hand, around work done on entering a node.
    pub(crate) fn temporary(name: String) -> Scope {
        Scope {
            node_id: usize::MAX,
            kind: ScopeKind::Function,
            name,
            exported: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helpers() {
        assert_eq!(collapse("  fn  a(\n  x: u8,\n) "), "fn a( x: u8, )");
        assert_eq!(base_name("*pkg.Base[T]"), "pkg.Base");
        assert_eq!(base_name(" Base<T, U> "), "Base");
        assert_eq!(cut("ééé".into(), 2), "éé");
        assert_eq!(unquote("'./a'"), "./a");
    }
}
