//! Extracts [`verity_facts::Facts`] (`verity-facts/1`, `docs/facts-schema.md`) from a repository
//! directory with tree-sitter: TypeScript, TSX, JavaScript, Python, Rust, Go and Swift.
//!
//! The directory is walked by [`verity_facts::walk::scan`] (`.gitignore` and `.ignore` honoured
//! even outside a git work tree; hidden, binary and > 2 MiB files left out); every file kept is
//! listed, and the files of a known language are parsed (tree-sitter recovers from syntax
//! errors, so a broken file still gives what parses) and walked once with a cursor. Imports are
//! resolved to repository files after every file is known. When the directory is the top of a
//! git work tree, its recent history is read with `git log` (under `verity-process`).
//!
//! Nothing is inferred: types are those written, calls are by name (the last segment of what is
//! called), exports are what the syntax says.

#![forbid(unsafe_code)]

mod git;
mod go;
mod python;
mod resolve;
mod rust;
mod swift;
mod ts;
mod walker;

use std::collections::{BTreeSet, HashMap};
use std::path::Path;

use verity_facts::walk::{ScannedFile, WalkError};
use verity_facts::{Facts, Import, Inheritance, InheritanceKind, Language, RepoInfo, SymbolKind};
use verity_model::ErrorKind;

use crate::walker::{FileOut, Lang};

/// How many commits of history are read unless told otherwise.
pub const DEFAULT_MAX_COMMITS: usize = 200;

/// What [`extract`] is asked for.
#[derive(Clone, Debug)]
pub struct ExtractOptions {
    /// `repo.name`; the directory's name when `None`.
    pub name: Option<String>,
    /// `repo.version` (a package version or a commit), when known.
    pub version: Option<String>,
    /// Read the git history when the directory is the top of a work tree.
    pub git: bool,
    /// At most this many commits (newest first).
    pub max_commits: usize,
}

impl Default for ExtractOptions {
    fn default() -> Self {
        ExtractOptions {
            name: None,
            version: None,
            git: true,
            max_commits: DEFAULT_MAX_COMMITS,
        }
    }
}

/// A repository that could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ExtractError {
    #[error(transparent)]
    Walk(#[from] WalkError),
    #[error("cannot load the {language} grammar: {message}")]
    Grammar {
        language: &'static str,
        message: String,
    },
}

impl ExtractError {
    pub fn kind(&self) -> ErrorKind {
        match self {
            ExtractError::Walk(e) => e.kind(),
            ExtractError::Grammar { .. } => ErrorKind::Internal,
        }
    }
}

/// Facts and what went wrong on the way without stopping the extraction.
#[derive(Clone, Debug)]
pub struct Extraction {
    pub facts: Facts,
    /// E.g. a git history that could not be read (the facts then have no commits).
    pub warnings: Vec<String>,
}

/// Extract the facts of the repository in `dir` (normalized: the same tree gives the same
/// bytes).
pub fn extract(dir: &Path, opts: &ExtractOptions) -> Result<Facts, ExtractError> {
    extract_with_warnings(dir, opts).map(|e| e.facts)
}

/// [`extract`], also saying what was skipped (an unreadable git history).
pub fn extract_with_warnings(
    dir: &Path,
    opts: &ExtractOptions,
) -> Result<Extraction, ExtractError> {
    let files = verity_facts::walk::scan(dir)?;
    let mut facts = extract_files(&files)?;
    let name = opts.name.clone().unwrap_or_else(|| {
        std::fs::canonicalize(dir)
            .ok()
            .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_else(|| "repo".to_string())
    });
    facts.repo.name = name;
    facts.repo.version = opts.version.clone();
    let mut warnings = Vec::new();
    if opts.git {
        match git::history(dir, opts.max_commits) {
            Ok(c) => facts.commits = c,
            Err(git::GitUnavailable(why)) => {
                warnings.push(format!("git history not read: {why}"));
            }
        }
    }
    facts.normalize();
    Ok(Extraction { facts, warnings })
}

/// The facts of already scanned files (no name, version or history; normalized).
pub fn extract_files(files: &[ScannedFile]) -> Result<Facts, ExtractError> {
    let mut parsers = Parsers::default();
    let mut facts = Facts {
        repo: RepoInfo {
            extractor: format!("verity {}", env!("CARGO_PKG_VERSION")),
            ..RepoInfo::default()
        },
        ..Facts::default()
    };
    let mut raw_imports = Vec::new();
    let mut swift_bases = Vec::new();
    for f in files {
        let mut fact = f.fact();
        if let Some(lang) = fact.language {
            let out = parsers.extract(lang, f)?;
            let FileOut {
                symbols,
                inherits,
                imports,
                exports,
                calls,
                types,
                identifiers,
                swift_bases: bases,
            } = out;
            fact.identifiers = identifiers;
            facts.symbols.extend(symbols);
            facts.inherits.extend(inherits);
            facts.exports.extend(exports);
            facts.calls.extend(calls);
            facts.types.extend(types);
            raw_imports.extend(imports.into_iter().map(|i| (f.path.as_str(), i)));
            swift_bases.extend(bases.into_iter().map(|b| (f.path.as_str(), b)));
        }
        facts.files.push(fact);
    }

    let paths: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
    let go_mods: Vec<(&str, &str)> = files
        .iter()
        .filter(|f| f.path == "go.mod" || f.path.ends_with("/go.mod"))
        .filter_map(|f| Some((f.path.as_str(), std::str::from_utf8(&f.bytes).ok()?)))
        .collect();
    let repo = resolve::Repo::new(&paths, &go_mods);
    for (file, i) in raw_imports {
        let resolved = repo.resolve(file, &i.module, &i.symbols, &i.resolve);
        facts.imports.push(Import {
            file: file.to_string(),
            module: i.module,
            resolved,
            symbols: i.symbols,
            line: i.line,
        });
    }

    // Swift: a class's superclass is the first inherited name that is a class of the
    // repository; everything else it inherits is a conformance.
    let classes: BTreeSet<&str> = facts
        .symbols
        .iter()
        .filter(|s| s.kind == SymbolKind::Class && s.file.ends_with(".swift"))
        .map(|s| s.name.as_str())
        .collect();
    let mut swift_inherits = Vec::new();
    for (file, b) in swift_bases {
        for (i, parent) in b.parents.iter().enumerate() {
            let kind = if b.may_extend && i == 0 && classes.contains(parent.as_str()) {
                InheritanceKind::Extends
            } else {
                InheritanceKind::Implements
            };
            swift_inherits.push(Inheritance {
                child: b.child.clone(),
                parent: parent.clone(),
                kind,
                file: file.to_string(),
                line: b.line,
            });
        }
    }
    facts.inherits.extend(swift_inherits);
    facts.normalize();
    Ok(facts)
}

/// One parser per language, made on first use.
#[derive(Default)]
struct Parsers {
    parsers: HashMap<Language, tree_sitter::Parser>,
}

fn grammar(lang: Language) -> tree_sitter::Language {
    match lang {
        Language::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
        Language::Tsx => tree_sitter_typescript::LANGUAGE_TSX.into(),
        Language::JavaScript => tree_sitter_javascript::LANGUAGE.into(),
        Language::Python => tree_sitter_python::LANGUAGE.into(),
        Language::Rust => tree_sitter_rust::LANGUAGE.into(),
        Language::Go => tree_sitter_go::LANGUAGE.into(),
        Language::Swift => tree_sitter_swift::LANGUAGE.into(),
    }
}

impl Parsers {
    fn extract(&mut self, lang: Language, f: &ScannedFile) -> Result<FileOut, ExtractError> {
        let parser = match self.parsers.entry(lang) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(v) => {
                let mut p = tree_sitter::Parser::new();
                p.set_language(&grammar(lang))
                    .map_err(|e| ExtractError::Grammar {
                        language: lang.name(),
                        message: e.to_string(),
                    })?;
                v.insert(p)
            }
        };
        let src = String::from_utf8_lossy(&f.bytes);
        let Some(tree) = parser.parse(src.as_bytes(), None) else {
            // Only a cancelled parse gives no tree; the file is still listed.
            parser.reset();
            return Ok(FileOut::default());
        };
        let mut handler: Box<dyn Lang> = match lang {
            Language::TypeScript | Language::Tsx | Language::JavaScript => Box::new(ts::Ts),
            Language::Python => Box::new(python::Python::default()),
            Language::Rust => Box::new(rust::Rust),
            Language::Go => Box::new(go::Go),
            Language::Swift => Box::new(swift::Swift),
        };
        Ok(walker::walk_tree(&tree, &src, &f.path, handler.as_mut()))
    }
}
