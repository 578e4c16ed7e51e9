//! The `verity-facts/1` schema. `docs/facts-schema.md` documents every field; a change that a
//! reader of version 1 would misread is a new version.

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

use serde::{Deserialize, Serialize};
use verity_model::ErrorKind;

/// The format tag every facts file carries in `format`.
pub const FORMAT: &str = "verity-facts/1";

/// Everything extracted from one repository.
///
/// Paths are relative to the repository root, with `/` separators. Lines are 1-based and
/// inclusive. Lists are sorted (files by path; the others by file, then line, then name), so
/// the same repository always gives the same bytes.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Facts {
    /// Always [`FORMAT`].
    pub format: String,
    pub repo: RepoInfo,
    pub files: Vec<FileFact>,
    #[serde(default)]
    pub symbols: Vec<Symbol>,
    #[serde(default)]
    pub inherits: Vec<Inheritance>,
    #[serde(default)]
    pub imports: Vec<Import>,
    #[serde(default)]
    pub exports: Vec<Export>,
    #[serde(default)]
    pub calls: Vec<Call>,
    #[serde(default)]
    pub types: Vec<TypeFact>,
    /// The most recent commits of the repository's git history (newest first), when it has one.
    #[serde(default)]
    pub commits: Vec<Commit>,
}

/// Where the facts came from.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RepoInfo {
    /// A short name (the directory's, or the one given to `verity facts extract --name`).
    pub name: String,
    /// The package version or git commit the facts describe, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// [`content_hash`] of `files`: an edited repository has another.
    pub content_hash: String,
    /// The verity version that extracted the facts.
    pub extractor: String,
    /// Files per language.
    #[serde(default)]
    pub languages: BTreeMap<String, u64>,
    /// Lines in all files.
    #[serde(default)]
    pub lines: u64,
}

/// The languages facts are extracted from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    TypeScript,
    Tsx,
    JavaScript,
    Python,
    Rust,
    Go,
    Swift,
}

impl Language {
    pub const ALL: [Language; 7] = [
        Language::TypeScript,
        Language::Tsx,
        Language::JavaScript,
        Language::Python,
        Language::Rust,
        Language::Go,
        Language::Swift,
    ];

    /// The name used in facts files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Language::TypeScript => "typescript",
            Language::Tsx => "tsx",
            Language::JavaScript => "javascript",
            Language::Python => "python",
            Language::Rust => "rust",
            Language::Go => "go",
            Language::Swift => "swift",
        }
    }

    /// The language of a file, by its extension.
    pub fn of_path(path: &str) -> Option<Language> {
        let ext = path.rsplit_once('.')?.1;
        Some(match ext {
            "ts" | "mts" | "cts" => Language::TypeScript,
            "tsx" => Language::Tsx,
            "js" | "mjs" | "cjs" | "jsx" => Language::JavaScript,
            "py" | "pyi" => Language::Python,
            "rs" => Language::Rust,
            "go" => Language::Go,
            "swift" => Language::Swift,
            _ => return None,
        })
    }
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One file of the repository (every file the walk kept, source or not).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FileFact {
    pub path: String,
    /// `None` for files no grammar reads (they still count for `files_exist` and `lines_valid`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<Language>,
    /// Lines in the file (a last line without a newline counts).
    pub lines: u32,
    pub bytes: u64,
    /// BLAKE3 of the file's bytes, hex.
    pub hash: String,
    /// The distinct identifiers the file contains (sorted): what `identifiers_found` checks a
    /// backticked name cited with this file against. Empty for files no grammar reads.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub identifiers: Vec<String>,
}

/// What kind of definition a [`Symbol`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SymbolKind {
    Function,
    Method,
    Class,
    Struct,
    Enum,
    Trait,
    Interface,
    Protocol,
    TypeAlias,
    /// A module-level constant or variable bound to a value (`export const x = …`).
    Constant,
}

impl SymbolKind {
    /// The name used in facts files (`function`, `type_alias`, …).
    pub fn name(self) -> &'static str {
        match self {
            SymbolKind::Function => "function",
            SymbolKind::Method => "method",
            SymbolKind::Class => "class",
            SymbolKind::Struct => "struct",
            SymbolKind::Enum => "enum",
            SymbolKind::Trait => "trait",
            SymbolKind::Interface => "interface",
            SymbolKind::Protocol => "protocol",
            SymbolKind::TypeAlias => "type_alias",
            SymbolKind::Constant => "constant",
        }
    }

    /// Callable kinds: functions and methods.
    pub fn is_callable(self) -> bool {
        matches!(self, SymbolKind::Function | SymbolKind::Method)
    }

    /// Type-like kinds: classes, structs, enums, traits, interfaces, protocols, aliases.
    pub fn is_type(self) -> bool {
        !self.is_callable() && self != SymbolKind::Constant
    }
}

/// A definition: a function, method, class, struct, enum, trait, interface, protocol or alias.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Symbol {
    pub name: String,
    pub kind: SymbolKind,
    pub file: String,
    pub start_line: u32,
    pub end_line: u32,
    /// The enclosing type or impl target of a method (`Parser` for `Parser.parse`), or the
    /// enclosing function of a nested one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub container: Option<String>,
    /// The declaration's head as written, up to its body, whitespace collapsed
    /// (`fn parse(&mut self, input: &str) -> Result<Ast>`), at most 300 characters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
    /// The return type where written (`Result<Ast>`, `Promise<void>`, `str`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub return_type: Option<String>,
    /// Visible outside its module: `export`, `pub`, a capitalized Go name, `public`/`open`, a
    /// Python name without a leading underscore.
    #[serde(default)]
    pub exported: bool,
}

impl Symbol {
    /// `Container.name`, or the name alone.
    pub fn qualified(&self) -> String {
        match &self.container {
            Some(c) => format!("{c}.{}", self.name),
            None => self.name.clone(),
        }
    }
}

/// Extends (a superclass, a trait's supertrait, an interface extending another) or implements
/// (an interface, a protocol conformance, `impl Trait for Type`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InheritanceKind {
    Extends,
    Implements,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Inheritance {
    pub child: String,
    pub parent: String,
    pub kind: InheritanceKind,
    pub file: String,
    pub line: u32,
}

/// One import statement: `file` imports `symbols` from `module`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Import {
    /// The importing file.
    pub file: String,
    /// The module as written (`./util`, `os.path`, `crate::parser`, `github.com/x/y`).
    pub module: String,
    /// The repository file `module` names, when it names one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resolved: Option<String>,
    /// The names imported (empty for a whole-module import).
    #[serde(default)]
    pub symbols: Vec<String>,
    pub line: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Export {
    pub file: String,
    pub name: String,
    pub line: u32,
}

/// `caller` calls `callee` at `file:line`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Call {
    /// The enclosing function's qualified name (`Parser.parse`), or `<module>` at top level.
    pub caller: String,
    /// The called name as written, last segment only (`parse` for `self.parser.parse(x)`).
    pub callee: String,
    pub file: String,
    pub line: u32,
}

/// What a [`TypeFact`] gives the type of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TypeRole {
    Variable,
    Field,
    Parameter,
}

/// A type written in the source for a variable, field or parameter (return types are on
/// [`Symbol::return_type`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TypeFact {
    pub identifier: String,
    #[serde(rename = "type")]
    pub ty: String,
    pub role: TypeRole,
    /// The enclosing type or function, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub container: Option<String>,
    pub file: String,
    pub line: u32,
}

/// One commit and the files it changed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Commit {
    /// The full commit id.
    pub id: String,
    /// The commit's first line.
    pub summary: String,
    /// Author date, RFC 3339.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    /// Paths changed (added, modified, deleted, renamed to), sorted.
    pub files: Vec<String>,
}

/// A facts file that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum FactsError {
    #[error("cannot read facts file {path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}:{line}:{column}: not a facts file: {message}")]
    Parse {
        path: String,
        line: usize,
        column: usize,
        message: String,
    },
    #[error(
        "{path}: facts format `{found}` is not supported (this verity reads `{FORMAT}`); re-run `verity facts extract`"
    )]
    Format { path: String, found: String },
    #[error(
        "{path}: repo.content_hash {stated} does not match the files listed ({computed}); the file was edited by hand"
    )]
    Hash {
        path: String,
        stated: String,
        computed: String,
    },
    #[error("cannot write facts file {path}: {source}")]
    Write {
        path: String,
        source: std::io::Error,
    },
}

impl FactsError {
    pub fn kind(&self) -> ErrorKind {
        match self {
            FactsError::Read { source, .. } if source.kind() == std::io::ErrorKind::NotFound => {
                ErrorKind::NotFound
            }
            FactsError::Read { .. } | FactsError::Write { .. } => ErrorKind::Io,
            FactsError::Parse { .. } | FactsError::Format { .. } | FactsError::Hash { .. } => {
                ErrorKind::Config
            }
        }
    }
}

/// The content hash of a repository: BLAKE3 over each file's path and content hash, in path
/// order (`"blake3:" + hex`). Two extractions of the same tree agree; any edit, addition,
/// removal or rename changes it.
pub fn content_hash(files: &[FileFact]) -> String {
    let mut sorted: Vec<&FileFact> = files.iter().collect();
    sorted.sort_by(|a, b| a.path.cmp(&b.path));
    let mut h = blake3::Hasher::new();
    for f in sorted {
        h.update(f.path.as_bytes());
        h.update(b"\0");
        h.update(f.hash.as_bytes());
        h.update(b"\n");
    }
    format!("blake3:{}", h.finalize().to_hex())
}

impl Facts {
    /// Parse facts from JSON text; `path` names the source in errors.
    pub fn from_json(text: &str, path: &str) -> Result<Facts, FactsError> {
        // Check the format first, so a future version gets the clear message rather than a
        // field error.
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| parse_error(path, &e))?;
        let found = value.get("format").and_then(|f| f.as_str()).unwrap_or("");
        if found != FORMAT {
            return Err(FactsError::Format {
                path: path.to_string(),
                found: if found.is_empty() {
                    "(none)".to_string()
                } else {
                    found.to_string()
                },
            });
        }
        let facts: Facts = serde_json::from_str(text).map_err(|e| parse_error(path, &e))?;
        let computed = content_hash(&facts.files);
        if computed != facts.repo.content_hash {
            return Err(FactsError::Hash {
                path: path.to_string(),
                stated: facts.repo.content_hash.clone(),
                computed,
            });
        }
        Ok(facts)
    }

    /// Read a facts file.
    pub fn read(path: &Path) -> Result<Facts, FactsError> {
        let shown = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|source| FactsError::Read {
            path: shown.clone(),
            source,
        })?;
        Facts::from_json(&text, &shown)
    }

    /// The facts as pretty JSON with a final newline.
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).expect("facts serialize");
        s.push('\n');
        s
    }

    /// Write the facts to `path` atomically (a temporary file beside it, then a rename).
    pub fn write(&self, path: &Path) -> Result<(), FactsError> {
        let shown = path.display().to_string();
        let werr = |source| FactsError::Write {
            path: shown.clone(),
            source,
        };
        let dir = path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let name = path.file_name().map(|n| n.to_string_lossy().to_string());
        std::fs::create_dir_all(dir).map_err(werr)?;
        let tmp = dir.join(format!(".{}.tmp", name.unwrap_or_else(|| "facts".into())));
        std::fs::write(&tmp, self.to_json()).map_err(werr)?;
        std::fs::rename(&tmp, path).map_err(werr)
    }

    /// Sort every list into the canonical order and recompute `repo.content_hash`,
    /// `repo.languages` and `repo.lines` from `files`.
    pub fn normalize(&mut self) {
        self.format = FORMAT.to_string();
        self.files.sort_by(|a, b| a.path.cmp(&b.path));
        for f in &mut self.files {
            f.identifiers.sort();
            f.identifiers.dedup();
        }
        self.symbols.sort_by(|a, b| {
            (&a.file, a.start_line, &a.name, a.end_line).cmp(&(
                &b.file,
                b.start_line,
                &b.name,
                b.end_line,
            ))
        });
        self.inherits.sort_by(|a, b| {
            (&a.file, a.line, &a.child, &a.parent).cmp(&(&b.file, b.line, &b.child, &b.parent))
        });
        self.imports
            .sort_by(|a, b| (&a.file, a.line, &a.module).cmp(&(&b.file, b.line, &b.module)));
        self.exports
            .sort_by(|a, b| (&a.file, a.line, &a.name).cmp(&(&b.file, b.line, &b.name)));
        self.calls.sort_by(|a, b| {
            (&a.file, a.line, &a.caller, &a.callee).cmp(&(&b.file, b.line, &b.caller, &b.callee))
        });
        self.types.sort_by(|a, b| {
            (&a.file, a.line, &a.identifier).cmp(&(&b.file, b.line, &b.identifier))
        });
        self.repo.content_hash = content_hash(&self.files);
        self.repo.lines = self.files.iter().map(|f| u64::from(f.lines)).sum();
        let mut langs = BTreeMap::new();
        for f in &self.files {
            if let Some(l) = f.language {
                *langs.entry(l.name().to_string()).or_insert(0) += 1;
            }
        }
        self.repo.languages = langs;
    }
}

fn parse_error(path: &str, e: &serde_json::Error) -> FactsError {
    FactsError::Parse {
        path: path.to_string(),
        line: e.line(),
        column: e.column(),
        message: e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(path: &str, hash: &str) -> FileFact {
        FileFact {
            path: path.into(),
            language: Language::of_path(path),
            lines: 3,
            bytes: 10,
            hash: hash.into(),
            identifiers: vec![],
        }
    }

    #[test]
    fn content_hash_ignores_order_and_sees_every_change() {
        let a = [file("a.ts", "1"), file("b.py", "2")];
        let b = [file("b.py", "2"), file("a.ts", "1")];
        assert_eq!(content_hash(&a), content_hash(&b));
        assert_ne!(
            content_hash(&a),
            content_hash(&[file("a.ts", "1"), file("b.py", "3")])
        );
        assert_ne!(
            content_hash(&a),
            content_hash(&[file("a.ts", "1"), file("c.py", "2")])
        );
        assert_ne!(content_hash(&a), content_hash(&[file("a.ts", "1")]));
    }

    #[test]
    fn round_trip_and_errors() {
        let mut facts = Facts {
            repo: RepoInfo {
                name: "demo".into(),
                extractor: "test".into(),
                ..RepoInfo::default()
            },
            files: vec![file("src/x.rs", "aa")],
            ..Facts::default()
        };
        facts.normalize();
        let back = Facts::from_json(&facts.to_json(), "f.json").unwrap();
        assert_eq!(back, facts);
        assert_eq!(back.repo.languages.get("rust"), Some(&1));

        let other = facts.to_json().replace(FORMAT, "verity-facts/9");
        let err = Facts::from_json(&other, "f.json").unwrap_err();
        assert!(err.to_string().contains("verity-facts/9"), "{err}");
        assert_eq!(err.kind(), ErrorKind::Config);

        let edited = facts.to_json().replace("\"aa\"", "\"ab\"");
        let err = Facts::from_json(&edited, "f.json").unwrap_err();
        assert!(matches!(err, FactsError::Hash { .. }), "{err}");

        let err = Facts::from_json("{\n  \"format\": ", "f.json").unwrap_err();
        assert!(err.to_string().starts_with("f.json:2:"), "{err}");
    }

    #[test]
    fn languages_by_extension() {
        assert_eq!(Language::of_path("a/b.tsx"), Some(Language::Tsx));
        assert_eq!(Language::of_path("x.pyi"), Some(Language::Python));
        assert_eq!(Language::of_path("Makefile"), None);
        assert_eq!(Language::of_path("x.md"), None);
    }
}
