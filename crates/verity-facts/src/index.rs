//! Lookups over [`Facts`] for the citation oracles: files by path (and by a path cited
//! relative to some other root), symbols by name, and the structural relations.

use std::collections::HashMap;

use crate::schema::{Facts, FileFact, InheritanceKind, Symbol};

/// An index over one repository's facts. Build it once per scorer; lookups are hash-map hits.
#[derive(Debug)]
pub struct FactsIndex {
    facts: Facts,
    by_path: HashMap<String, usize>,
    by_name: HashMap<String, Vec<usize>>,
}

impl FactsIndex {
    pub fn new(facts: Facts) -> FactsIndex {
        let by_path = facts
            .files
            .iter()
            .enumerate()
            .map(|(i, f)| (f.path.clone(), i))
            .collect();
        let mut by_name: HashMap<String, Vec<usize>> = HashMap::new();
        for (i, s) in facts.symbols.iter().enumerate() {
            by_name.entry(s.name.clone()).or_default().push(i);
        }
        FactsIndex {
            facts,
            by_path,
            by_name,
        }
    }

    pub fn facts(&self) -> &Facts {
        &self.facts
    }

    /// The file at exactly `path` (relative to the repository root, `/` separators).
    pub fn file(&self, path: &str) -> Option<&FileFact> {
        self.by_path.get(path).map(|&i| &self.facts.files[i])
    }

    /// The file a cited path means: the exact path; else the path without a leading `./`,
    /// `/` or the repository's name; else the one file whose path ends with `/` + the cited
    /// path. `None` when no file, or more than one, matches.
    pub fn resolve(&self, cited: &str) -> Option<&FileFact> {
        let mut p = cited
            .trim()
            .trim_start_matches("./")
            .trim_start_matches('/');
        if let Some(f) = self.file(p) {
            return Some(f);
        }
        let name = &self.facts.repo.name;
        if let Some(rest) = p
            .strip_prefix(name.as_str())
            .and_then(|r| r.strip_prefix('/'))
        {
            p = rest;
            if let Some(f) = self.file(p) {
                return Some(f);
            }
        }
        if p.is_empty() {
            return None;
        }
        let suffix = format!("/{p}");
        let mut found = self
            .facts
            .files
            .iter()
            .filter(|f| f.path.ends_with(&suffix));
        let first = found.next()?;
        found.next().is_none().then_some(first)
    }

    /// Every symbol called `name` (a bare name; for `A.b`, the symbols `b` whose container is
    /// `A`).
    pub fn symbols(&self, name: &str) -> Vec<&Symbol> {
        let (container, bare) = split_qualified(name);
        self.by_name
            .get(bare)
            .map(|ix| {
                ix.iter()
                    .map(|&i| &self.facts.symbols[i])
                    .filter(|s| container.is_none() || s.container.as_deref() == container)
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Does `file` contain the identifier `name` (a symbol defined there, or a token of its
    /// text)? For `A.b`, both parts must occur.
    pub fn identifier_in(&self, file: &FileFact, name: &str) -> bool {
        name.split(['.', ':'])
            .filter(|part| !part.is_empty())
            .all(|part| {
                file.identifiers
                    .binary_search_by(|i| i.as_str().cmp(part))
                    .is_ok()
                    || self.symbols(part).iter().any(|s| s.file == file.path)
            })
    }

    /// Is `name` an identifier anywhere in the repository?
    pub fn identifier_anywhere(&self, name: &str) -> bool {
        !self.symbols(name).is_empty()
            || self.facts.files.iter().any(|f| self.identifier_in(f, name))
    }

    /// The symbols called `name` defined in `file`.
    pub fn defined_in(&self, name: &str, file: &str) -> Vec<&Symbol> {
        self.symbols(name)
            .into_iter()
            .filter(|s| s.file == file)
            .collect()
    }

    /// Does `importer` (a file) import `module` (a module as written, or a file path its
    /// import resolves to)? When `symbol` is given, it must be among the names imported.
    pub fn imports(&self, importer: &str, module: &str, symbol: Option<&str>) -> bool {
        self.facts.imports.iter().any(|i| {
            i.file == importer
                && (i.module == module
                    || i.resolved.as_deref() == Some(module)
                    || module_tail_matches(&i.module, module))
                && symbol.is_none_or(|s| i.symbols.iter().any(|n| n == s))
        })
    }

    /// Does `child` extend or implement `parent` (directly)? `kind` narrows it.
    pub fn inherits(&self, child: &str, parent: &str, kind: Option<InheritanceKind>) -> bool {
        let (_, child) = split_qualified(child);
        let parent_bare = strip_generics(parent);
        self.facts.inherits.iter().any(|r| {
            r.child == child
                && (r.parent == parent || strip_generics(&r.parent) == parent_bare)
                && kind.is_none_or(|k| k == r.kind)
        })
    }

    /// Does `caller` call `callee` (directly)? Names may be bare or `Container.name`.
    pub fn calls(&self, caller: &str, callee: &str) -> bool {
        let (_, callee_bare) = split_qualified(callee);
        let (caller_container, caller_bare) = split_qualified(caller);
        self.facts.calls.iter().any(|c| {
            c.callee == callee_bare && {
                let (cc, cb) = split_qualified(&c.caller);
                cb == caller_bare && (caller_container.is_none() || caller_container == cc)
            }
        })
    }

    /// The return types written for the callables called `name`.
    pub fn return_types(&self, name: &str) -> Vec<&str> {
        self.symbols(name)
            .into_iter()
            .filter(|s| s.kind.is_callable())
            .filter_map(|s| s.return_type.as_deref())
            .collect()
    }
}

/// `A.b` → (Some("A"), "b"); `A::b` likewise; `b` → (None, "b").
pub(crate) fn split_qualified(name: &str) -> (Option<&str>, &str) {
    let name = name.trim().trim_end_matches("()");
    if let Some((c, b)) = name.rsplit_once("::").or_else(|| name.rsplit_once('.')) {
        (Some(c.rsplit(['.', ':']).next().unwrap_or(c)), b)
    } else {
        (None, name)
    }
}

fn strip_generics(t: &str) -> &str {
    t.split('<').next().unwrap_or(t).trim()
}

/// A cited module against one as written, by last segment without extension: `./util` matches
/// `util` and `./util.js`; a cited path with `/` matches only a written path with one.
fn module_tail_matches(written: &str, cited: &str) -> bool {
    fn tail(m: &str) -> &str {
        let last = m.rsplit(['/', ':']).next().unwrap_or(m);
        last.split('.').next().unwrap_or(last)
    }
    let cited_tail = tail(cited);
    !cited_tail.is_empty()
        && tail(written) == cited_tail
        && (cited.contains('/') == written.contains('/') || !cited.contains('/'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::*;

    fn facts() -> Facts {
        let mut f = Facts {
            repo: RepoInfo {
                name: "demo".into(),
                extractor: "t".into(),
                ..RepoInfo::default()
            },
            files: vec![
                FileFact {
                    path: "src/parser.ts".into(),
                    language: Some(Language::TypeScript),
                    lines: 40,
                    bytes: 900,
                    hash: "1".into(),
                    identifiers: vec![
                        "Lexer".into(),
                        "Parser".into(),
                        "parse".into(),
                        "tokens".into(),
                    ],
                },
                FileFact {
                    path: "src/lexer.ts".into(),
                    language: Some(Language::TypeScript),
                    lines: 20,
                    bytes: 400,
                    hash: "2".into(),
                    identifiers: vec!["Lexer".into(), "next".into()],
                },
            ],
            symbols: vec![
                Symbol {
                    name: "parse".into(),
                    kind: SymbolKind::Method,
                    file: "src/parser.ts".into(),
                    start_line: 10,
                    end_line: 30,
                    container: Some("Parser".into()),
                    signature: Some("parse(input: string): Ast".into()),
                    return_type: Some("Ast".into()),
                    exported: true,
                },
                Symbol {
                    name: "Parser".into(),
                    kind: SymbolKind::Class,
                    file: "src/parser.ts".into(),
                    start_line: 5,
                    end_line: 40,
                    container: None,
                    signature: None,
                    return_type: None,
                    exported: true,
                },
            ],
            inherits: vec![Inheritance {
                child: "Parser".into(),
                parent: "Base<Ast>".into(),
                kind: InheritanceKind::Extends,
                file: "src/parser.ts".into(),
                line: 5,
            }],
            imports: vec![Import {
                file: "src/parser.ts".into(),
                module: "./lexer".into(),
                resolved: Some("src/lexer.ts".into()),
                symbols: vec!["Lexer".into()],
                line: 1,
            }],
            calls: vec![Call {
                caller: "Parser.parse".into(),
                callee: "next".into(),
                file: "src/parser.ts".into(),
                line: 12,
            }],
            ..Facts::default()
        };
        f.normalize();
        f
    }

    #[test]
    fn resolves_cited_paths() {
        let ix = FactsIndex::new(facts());
        assert!(ix.resolve("src/parser.ts").is_some());
        assert!(ix.resolve("./src/parser.ts").is_some());
        assert!(ix.resolve("demo/src/parser.ts").is_some());
        assert!(ix.resolve("parser.ts").is_some());
        assert!(ix.resolve("lib/parser.ts").is_none());
        assert!(ix.resolve("").is_none());
    }

    #[test]
    fn structural_lookups() {
        let ix = FactsIndex::new(facts());
        assert_eq!(ix.defined_in("parse", "src/parser.ts").len(), 1);
        assert_eq!(ix.defined_in("Parser.parse", "src/parser.ts").len(), 1);
        assert!(ix.defined_in("Lexer.parse", "src/parser.ts").is_empty());
        assert!(ix.imports("src/parser.ts", "./lexer", Some("Lexer")));
        assert!(ix.imports("src/parser.ts", "src/lexer.ts", None));
        assert!(!ix.imports("src/parser.ts", "./lexer", Some("Token")));
        assert!(ix.inherits("Parser", "Base", None));
        assert!(!ix.inherits("Parser", "Base", Some(InheritanceKind::Implements)));
        assert!(ix.calls("Parser.parse", "next"));
        assert!(ix.calls("parse", "Lexer.next"));
        assert!(!ix.calls("next", "parse"));
        assert_eq!(ix.return_types("parse"), vec!["Ast"]);
        let parser = ix.file("src/parser.ts").unwrap();
        assert!(ix.identifier_in(parser, "Parser.parse"));
        assert!(!ix.identifier_in(parser, "Parser.tokenize"));
        assert!(ix.identifier_anywhere("next"));
        assert!(!ix.identifier_anywhere("render"));
    }
}
