//! Code search over repositories, for `verity mcp serve --repo` (seed 002, "a reference
//! librarian").
//!
//! [`Repo::build`] walks one repository (the `ignore` crate: `.gitignore`, `.ignore` and hidden
//! files are honoured, whether or not the directory is a git checkout; binaries and files over
//! [`MAX_FILE_BYTES`] are skipped) and holds its text in memory. [`RepoSource`] indexes one or
//! more of them for search. Its documents are:
//!
//! * one per symbol, when the repository's [`verity_facts::Facts`] are given: name, kind,
//!   container, signature, `path:start-end` and the first lines of its body;
//! * one per window of [`CHUNK_LINES`] lines ([`CHUNK_OVERLAP`] lines shared with the next), so
//!   every line of every file is searchable with or without facts.
//!
//! Ranking is BM25 over code-aware terms: every identifier counts whole and split at `_` and
//! camel-case boundaries (`parse_args` → `parse_args`, `parse`, `args`; `URLSession` →
//! `urlsession`, `url`, `session`), and `Container.name` counts as one term too. Only English
//! words that never name code are dropped from queries. Identifiers in backticks, or shaped like
//! identifiers (`snake_case`, `camelCase`, `a.b`), weigh more than plain words; a symbol whose
//! name is one of the query's identifiers is multiplied up, and symbol documents rank above
//! chunks that merely mention the name. A query that names a served repository (its name as a
//! word) searches that repository only.
//!
//! Everything is read once at start; the server never writes and never reads a file again, so
//! a path it serves is one the walk found inside the repository (a symbolic link is followed only
//! when its target is a file inside the repository).

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::path::{Path, PathBuf};

use verity_facts::{Facts, SymbolKind};
use verity_model::ErrorKind;

/// Files larger than this are not indexed (generated code, data, bundles).
pub const MAX_FILE_BYTES: u64 = 1024 * 1024;
/// Lines per chunk document.
pub const CHUNK_LINES: u32 = 40;
/// Lines a chunk shares with the next one.
pub const CHUNK_OVERLAP: u32 = 10;
/// Lines a search hit shows.
pub const SNIPPET_LINES: u32 = 12;
/// Characters a shown line keeps (longer lines are cut with `…`).
pub const LINE_CHARS: usize = 200;
/// Hits a search returns when the call does not say.
pub const DEFAULT_HITS: usize = 5;
/// The most hits one search returns.
pub const MAX_HITS: usize = 20;
/// The most lines one `read_lines` returns.
pub const MAX_READ_LINES: u32 = 200;
/// Paths `list_files` returns when the call does not say.
pub const DEFAULT_LIST: usize = 200;
/// The most paths one `list_files` returns.
pub const MAX_LIST: usize = 1000;
/// How many lines of a symbol's body its document indexes (beyond its name and signature).
const SYMBOL_BODY_LINES: u32 = 20;
/// Bytes looked at for a NUL to call a file binary.
const BINARY_PROBE: usize = 8192;

// BM25.
const K1: f32 = 1.2;
const B: f32 = 0.75;

/// English words that never name code, dropped from queries (outside backticks). Code words
/// (`in`, `is`, `for`, `this`, `import`, `return`, `type`, …) are kept: they are searched like
/// any other term, and inverse document frequency keeps the common ones cheap.
const STOP: &[&str] = &[
    "a",
    "an",
    "the",
    "where",
    "what",
    "which",
    "who",
    "how",
    "why",
    "does",
    "did",
    "of",
    "please",
    "cite",
    "me",
    "my",
    "your",
    "there",
    "here",
    "its",
    "backticks",
    "repository",
];

/// Why a repository could not be served.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct RepoError {
    kind: ErrorKind,
    message: String,
}

impl RepoError {
    fn new(kind: ErrorKind, message: impl Into<String>) -> RepoError {
        RepoError {
            kind,
            message: message.into(),
        }
    }

    pub fn kind(&self) -> ErrorKind {
        self.kind
    }
}

/// One file of a repository, held in memory.
#[derive(Clone, Debug)]
struct RepoFile {
    /// Relative to the repository root, `/`-separated.
    path: String,
    /// Its lines (as `str::lines` splits them: `\n` or `\r\n`, no empty last line).
    lines: Vec<Box<str>>,
}

impl RepoFile {
    fn line_count(&self) -> u32 {
        self.lines.len() as u32
    }

    /// Line `n` (1-based).
    fn line(&self, n: u32) -> &str {
        &self.lines[(n - 1) as usize]
    }
}

/// A symbol from the facts whose file and lines the walk confirmed.
#[derive(Clone, Debug)]
struct RepoSymbol {
    name: String,
    kind: SymbolKind,
    container: Option<String>,
    signature: Option<String>,
    file: usize,
    start: u32,
    end: u32,
}

/// One repository read into memory: built by [`Repo::build`], searched through a [`RepoSource`].
#[derive(Clone, Debug)]
pub struct Repo {
    name: String,
    root: PathBuf,
    files: Vec<RepoFile>,
    by_path: HashMap<String, usize>,
    symbols: Vec<RepoSymbol>,
    /// Facts symbols left out: their file is not served, or their lines are not in it.
    stale_symbols: usize,
}

impl Repo {
    /// Reads the repository at `dir` and, when given, the symbols of its facts (matched to the
    /// files by path; a symbol whose file the walk did not find or whose lines are past the end of
    /// the file is left out and counted in [`Repo::stale_symbols`]). `name` is what the tools
    /// and hits call it (`NAME:path:start-end`): letters, digits, `.`, `_` and `-`.
    pub fn build(name: &str, dir: &Path, facts: Option<&Facts>) -> Result<Repo, RepoError> {
        check_name(name)?;
        let root = dir.canonicalize().map_err(|e| {
            let kind = if e.kind() == std::io::ErrorKind::NotFound {
                ErrorKind::NotFound
            } else {
                ErrorKind::Io
            };
            RepoError::new(
                kind,
                format!("repository `{}`: {}: {}", name, dir.display(), e),
            )
        })?;
        if !root.is_dir() {
            return Err(RepoError::new(
                ErrorKind::Usage,
                format!(
                    "repository `{}`: {} is not a directory",
                    name,
                    dir.display()
                ),
            ));
        }
        let mut files = walk(&root).map_err(|message| {
            RepoError::new(
                ErrorKind::Io,
                format!("repository `{}`: {}: {}", name, dir.display(), message),
            )
        })?;
        files.sort_by(|a, b| a.path.cmp(&b.path));
        let by_path: HashMap<String, usize> = files
            .iter()
            .enumerate()
            .map(|(i, f)| (f.path.clone(), i))
            .collect();
        let mut symbols = Vec::new();
        let mut stale_symbols = 0;
        if let Some(facts) = facts {
            for s in &facts.symbols {
                let fits = by_path.get(&s.file).filter(|&&i| {
                    s.start_line >= 1
                        && s.start_line <= s.end_line
                        && s.end_line <= files[i].line_count()
                });
                match fits {
                    Some(&file) => symbols.push(RepoSymbol {
                        name: s.name.clone(),
                        kind: s.kind,
                        container: s.container.clone(),
                        signature: s.signature.clone(),
                        file,
                        start: s.start_line,
                        end: s.end_line,
                    }),
                    None => stale_symbols += 1,
                }
            }
        }
        Ok(Repo {
            name: name.to_owned(),
            root,
            files,
            by_path,
            symbols,
            stale_symbols,
        })
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// The repository's directory (canonical).
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// How many files are served.
    pub fn file_count(&self) -> usize {
        self.files.len()
    }

    /// Lines in all served files.
    pub fn line_count(&self) -> u64 {
        self.files.iter().map(|f| u64::from(f.line_count())).sum()
    }

    /// Symbols from the facts that are served.
    pub fn symbol_count(&self) -> usize {
        self.symbols.len()
    }

    /// Symbols from the facts left out because the files do not match them.
    pub fn stale_symbols(&self) -> usize {
        self.stale_symbols
    }

    /// Paths of the served files, sorted.
    pub fn paths(&self) -> impl Iterator<Item = &str> {
        self.files.iter().map(|f| f.path.as_str())
    }

    /// A served file's text (its lines joined by `\n`, with a final `\n` when it has lines);
    /// `None` for a path the walk did not serve.
    pub fn file_text(&self, path: &str) -> Option<String> {
        let file = &self.files[*self.by_path.get(path)?];
        let mut text = String::new();
        for line in &file.lines {
            text.push_str(line);
            text.push('\n');
        }
        Some(text)
    }
}

fn check_name(name: &str) -> Result<(), RepoError> {
    let ok = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '.' | '_' | '-'))
        && name != "."
        && name != "..";
    if ok {
        Ok(())
    } else {
        Err(RepoError::new(
            ErrorKind::Usage,
            format!(
                "`{}` is not a repository name: use letters, digits, `.`, `_` and `-`",
                name
            ),
        ))
    }
}

/// The text files under `root`, paths relative to it.
fn walk(root: &Path) -> Result<Vec<RepoFile>, String> {
    let walker = ignore::WalkBuilder::new(root)
        .hidden(true)
        .ignore(true)
        .git_ignore(true)
        .git_exclude(true)
        .git_global(false)
        // A fetched package is not a git checkout; its .gitignore still says what is not source.
        .require_git(false)
        // Ignore files above the repository (a suite's `repos/` is itself gitignored) do not count.
        .parents(false)
        .follow_links(false)
        .build();
    let mut files = Vec::new();
    for entry in walker {
        let entry = match entry {
            Ok(entry) => entry,
            // An unreadable directory or a bad ignore file: skip what it covers.
            Err(_) => continue,
        };
        let Some(ft) = entry.file_type() else {
            continue;
        };
        let real = if ft.is_file() {
            entry.path().to_path_buf()
        } else if ft.is_symlink() {
            // Served only when it points at a file inside the repository.
            match entry.path().canonicalize() {
                Ok(target) if target.starts_with(root) && target.is_file() => target,
                _ => continue,
            }
        } else {
            continue;
        };
        let Ok(rel) = entry.path().strip_prefix(root) else {
            continue;
        };
        let Some(path) = relative_string(rel) else {
            continue;
        };
        let Ok(meta) = std::fs::metadata(&real) else {
            continue;
        };
        if meta.len() > MAX_FILE_BYTES {
            continue;
        }
        let Ok(bytes) = std::fs::read(&real) else {
            continue;
        };
        if bytes[..bytes.len().min(BINARY_PROBE)].contains(&0) {
            continue;
        }
        let text = String::from_utf8_lossy(&bytes);
        files.push(RepoFile {
            path,
            lines: text.lines().map(Box::from).collect(),
        });
    }
    if files.is_empty() && std::fs::read_dir(root).is_err() {
        return Err("the directory cannot be read".to_owned());
    }
    Ok(files)
}

/// `a/b/c.rs` from a relative path of normal, UTF-8 components.
fn relative_string(rel: &Path) -> Option<String> {
    let mut parts = Vec::new();
    for c in rel.components() {
        match c {
            std::path::Component::Normal(s) => parts.push(s.to_str()?),
            _ => return None,
        }
    }
    if parts.is_empty() {
        return None;
    }
    Some(parts.join("/"))
}

// ---------------------------------------------------------------------------------------------
// Terms.

/// Adds the terms of `text` to `out`: each identifier (letters, digits, `_`) lowercased whole
/// when it has at least two characters, and its pieces split at `_`, camel-case and digit
/// boundaries (two characters or more, when they differ from the whole).
fn identifier_terms(text: &str, mut out: impl FnMut(String, bool)) {
    for word in text.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
        let word = word.trim_matches('_');
        if word.chars().count() < 2 {
            continue;
        }
        let whole = word.to_lowercase();
        let mut pieces = Vec::new();
        for part in word.split('_') {
            split_case(part, &mut pieces);
        }
        for piece in pieces {
            if piece.chars().count() >= 2 && piece != whole {
                out(piece, false);
            }
        }
        out(whole, true);
    }
}

/// camelCase / PascalCase / ACRONYMWord / digits: `URLSession2x` → `url`, `session`, `2`, `x`.
fn split_case(word: &str, out: &mut Vec<String>) {
    let chars: Vec<char> = word.chars().collect();
    let mut start = 0;
    for i in 1..chars.len() {
        let (prev, cur) = (chars[i - 1], chars[i]);
        let split = (cur.is_uppercase() && prev.is_lowercase())
            || (cur.is_uppercase()
                && prev.is_uppercase()
                && chars.get(i + 1).is_some_and(|n| n.is_lowercase()))
            || (cur.is_ascii_digit() != prev.is_ascii_digit());
        if split {
            out.push(chars[start..i].iter().collect::<String>().to_lowercase());
            start = i;
        }
    }
    if start < chars.len() {
        out.push(chars[start..].iter().collect::<String>().to_lowercase());
    }
}

/// Dotted (or `::`) chains in `text`, lowercased with `.`: `Parser.parse`, `std::fs::read`.
fn dotted_terms(text: &str) -> Vec<String> {
    let normal = text.replace("::", ".");
    normal
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
        .map(|w| w.trim_matches('.'))
        .filter(|w| w.contains('.') && !w.contains(".."))
        .filter(|w| w.split('.').all(|p| !p.is_empty()))
        .map(str::to_lowercase)
        .collect()
}

/// Whether a word looks like an identifier rather than English: `snake_case`, `camelCase`,
/// `PascalCase`, letters with digits.
fn identifier_shaped(word: &str) -> bool {
    let inner_upper =
        word.chars().skip(1).any(char::is_uppercase) && word.chars().any(char::is_lowercase);
    word.contains('_')
        || inner_upper
        || (word.chars().any(char::is_alphabetic) && word.chars().any(|c| c.is_ascii_digit()))
}

/// Keywords after which a name is being defined, in the languages verity reads.
const DEFINERS: &[&str] = &[
    "fn",
    "def",
    "function",
    "class",
    "struct",
    "enum",
    "trait",
    "interface",
    "type",
    "func",
    "protocol",
];

/// The names a line defines, lowercased, by the keyword before them (`pub async fn serve(` →
/// `serve`; `class Parser:` → `parser`). A heuristic for repositories served without facts.
fn defined_names(line: &str) -> Vec<String> {
    let words: Vec<&str> = line
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .collect();
    words
        .windows(2)
        .filter(|w| {
            DEFINERS.contains(&w[0]) && !DEFINERS.contains(&w[1]) && w[1].chars().count() >= 2
        })
        .map(|w| w[1].to_lowercase())
        .collect()
}

/// The posting-list key of "this chunk defines `name`" (`:` is never part of a term).
fn def_key(name: &str) -> String {
    format!("def:{}", name)
}

/// One query term and how much it counts.
#[derive(Clone, Debug, PartialEq)]
struct QueryTerm {
    term: String,
    weight: f32,
    /// A whole identifier (or dotted chain): a symbol with this name gets the exact-name bonus.
    whole: bool,
}

/// The terms of a query. In backticks: whole identifiers weigh 3, pieces 1.5. Outside: whole
/// identifier-shaped words 2, plain words 1, pieces 1 (English stop words dropped).
fn query_terms(query: &str) -> Vec<QueryTerm> {
    let mut terms: Vec<QueryTerm> = Vec::new();
    let mut add =
        |term: String, weight: f32, whole: bool| match terms.iter_mut().find(|t| t.term == term) {
            Some(t) => {
                t.weight = t.weight.max(weight);
                t.whole |= whole;
            }
            None => terms.push(QueryTerm {
                term,
                weight,
                whole,
            }),
        };
    for (i, segment) in query.split('`').enumerate() {
        let quoted = i % 2 == 1;
        for d in dotted_terms(segment) {
            add(d, if quoted { 3.0 } else { 2.0 }, true);
        }
        if quoted {
            identifier_terms(segment, |t, whole| {
                add(t, if whole { 3.0 } else { 1.5 }, whole)
            });
        } else {
            for word in segment.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
                let shaped = identifier_shaped(word);
                identifier_terms(word, |t, whole| {
                    if whole && !shaped && STOP.contains(&t.as_str()) {
                        return;
                    }
                    let weight = if whole && shaped { 2.0 } else { 1.0 };
                    add(t, weight, whole);
                });
            }
        }
    }
    terms
}

// ---------------------------------------------------------------------------------------------
// The index.

#[derive(Clone, Copy, Debug)]
enum Target {
    /// Index into the repository's symbols.
    Symbol(usize),
    /// A window of a file.
    Chunk { file: usize, start: u32, end: u32 },
}

#[derive(Clone, Debug)]
struct Entry {
    repo: usize,
    target: Target,
    /// Weighted term count, for BM25's length normalisation.
    len: f32,
}

/// One or more repositories, indexed for search: the source behind `verity mcp serve --repo`.
/// Build with [`RepoSource::new`] from [`Repo::build`]s.
pub struct RepoSource {
    name: String,
    repos: Vec<Repo>,
    entries: Vec<Entry>,
    postings: HashMap<String, Vec<(u32, f32)>>,
    avg_len: f32,
}

impl fmt::Debug for RepoSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RepoSource")
            .field("name", &self.name)
            .field(
                "repos",
                &self.repos.iter().map(|r| &r.name).collect::<Vec<_>>(),
            )
            .field("documents", &self.entries.len())
            .finish()
    }
}

/// A search hit: `repo:path:start-end`, what it is, and numbered lines.
#[derive(Clone, Debug, PartialEq)]
pub struct Hit {
    pub repo: String,
    pub path: String,
    /// For a symbol: its definition's lines; for a chunk: the lines shown.
    pub start: u32,
    pub end: u32,
    /// `function parse_args (in Cli)` for a symbol; `None` for a chunk.
    pub symbol: Option<String>,
    /// The symbol's signature, when the facts have one.
    pub signature: Option<String>,
    /// (line number, text), at most [`SNIPPET_LINES`], each cut at [`LINE_CHARS`].
    pub lines: Vec<(u32, String)>,
}

impl Hit {
    /// `NAME:path:start-end`.
    pub fn location(&self) -> String {
        format!("{}:{}:{}-{}", self.repo, self.path, self.start, self.end)
    }

    /// The header line, the signature line (symbols) and the numbered lines.
    pub fn render(&self) -> String {
        let mut out = self.location();
        if let Some(symbol) = &self.symbol {
            out.push_str(" — ");
            out.push_str(symbol);
        }
        out.push('\n');
        if let Some(sig) = &self.signature {
            out.push_str("signature: ");
            out.push_str(&cut(sig, LINE_CHARS * 2));
            out.push('\n');
        }
        out.push_str(&numbered(&self.lines));
        out
    }
}

/// Lines as `  12 | text`, the numbers right-aligned.
pub fn numbered(lines: &[(u32, String)]) -> String {
    let width = lines.last().map(|(n, _)| n.to_string().len()).unwrap_or(1);
    let mut out = String::new();
    for (n, text) in lines {
        out.push_str(&format!("{:>width$} | {}\n", n, text, width = width));
    }
    out
}

fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let mut s: String = text.chars().take(max).collect();
    s.push('…');
    s
}

/// What `read_lines` returns.
#[derive(Clone, Debug, PartialEq)]
pub struct Lines {
    pub repo: String,
    pub path: String,
    pub start: u32,
    pub end: u32,
    /// Lines in the whole file.
    pub file_lines: u32,
    pub lines: Vec<(u32, String)>,
}

impl Lines {
    pub fn render(&self) -> String {
        format!(
            "{}:{}:{}-{} (the file has {} lines)\n{}",
            self.repo,
            self.path,
            self.start,
            self.end,
            self.file_lines,
            numbered(&self.lines)
        )
    }
}

impl RepoSource {
    /// Indexes the repositories. Their names must differ.
    pub fn new(repos: Vec<Repo>) -> Result<RepoSource, RepoError> {
        if repos.is_empty() {
            return Err(RepoError::new(ErrorKind::Usage, "no repository to serve"));
        }
        let mut seen = HashSet::new();
        for r in &repos {
            if !seen.insert(r.name.as_str()) {
                return Err(RepoError::new(
                    ErrorKind::Usage,
                    format!("two repositories are named `{}`", r.name),
                ));
            }
        }
        let name = format!(
            "verity-repo {}",
            repos
                .iter()
                .map(|r| r.name.as_str())
                .collect::<Vec<_>>()
                .join(",")
        );
        let mut source = RepoSource {
            name,
            repos,
            entries: Vec::new(),
            postings: HashMap::new(),
            avg_len: 1.0,
        };
        source.index();
        Ok(source)
    }

    fn index(&mut self) {
        let mut entries = Vec::new();
        let mut postings: HashMap<String, Vec<(u32, f32)>> = HashMap::new();
        let mut total = 0f64;
        for (ri, repo) in self.repos.iter().enumerate() {
            for (si, s) in repo.symbols.iter().enumerate() {
                let mut tf: HashMap<String, f32> = HashMap::new();
                let mut put = |t: String, w: f32| *tf.entry(t).or_default() += w;
                identifier_terms(&s.name, |t, _| put(t, 4.0));
                if let Some(c) = &s.container {
                    identifier_terms(c, |t, _| put(t, 2.0));
                    put(format!("{}.{}", c, s.name).to_lowercase(), 4.0);
                }
                put(s.kind_word().to_owned(), 1.0);
                if let Some(sig) = &s.signature {
                    identifier_terms(sig, |t, _| put(t, 1.0));
                }
                let file = &repo.files[s.file];
                identifier_terms(&file.path, |t, _| put(t, 1.0));
                let last = s.end.min(s.start + SYMBOL_BODY_LINES - 1);
                for n in s.start..=last {
                    identifier_terms(file.line(n), |t, _| put(t, 1.0));
                }
                total += push_doc(&mut entries, &mut postings, tf, ri, Target::Symbol(si));
            }
            for (fi, file) in repo.files.iter().enumerate() {
                let n = file.line_count();
                for (start, end) in chunks(n) {
                    let mut tf: HashMap<String, f32> = HashMap::new();
                    let mut put = |t: String| *tf.entry(t).or_default() += 1.0;
                    identifier_terms(&file.path, |t, _| put(t));
                    for l in start..=end {
                        identifier_terms(file.line(l), |t, _| put(t));
                    }
                    // Counted apart from the terms (not in the length): see `boost`.
                    let mut defs: Vec<String> = (start..=end)
                        .flat_map(|l| defined_names(file.line(l)))
                        .collect();
                    defs.sort();
                    defs.dedup();
                    let target = Target::Chunk {
                        file: fi,
                        start,
                        end,
                    };
                    let id = entries.len() as u32;
                    for d in defs {
                        postings.entry(def_key(&d)).or_default().push((id, 0.0));
                    }
                    total += push_doc(&mut entries, &mut postings, tf, ri, target);
                }
            }
        }
        self.avg_len = if entries.is_empty() {
            1.0
        } else {
            ((total / entries.len() as f64) as f32).max(1.0)
        };
        self.entries = entries;
        self.postings = postings;
    }

    /// The repositories, in the order given.
    pub fn repos(&self) -> &[Repo] {
        &self.repos
    }

    /// How many documents (symbols and chunks) are indexed.
    pub fn document_count(&self) -> usize {
        self.entries.len()
    }

    fn repo_index(&self, name: &str) -> Result<usize, String> {
        self.repos
            .iter()
            .position(|r| r.name == name)
            .ok_or_else(|| format!("there is no repository `{}`; {}", name, self.served()))
    }

    /// "the server has `a`, `b`".
    fn served(&self) -> String {
        format!(
            "this server has {}",
            self.repos
                .iter()
                .map(|r| format!("`{}`", r.name))
                .collect::<Vec<_>>()
                .join(", ")
        )
    }

    /// The repository a path-based tool works on: the one named, else the only one.
    fn pick_repo(&self, repo: Option<&str>) -> Result<usize, String> {
        match repo {
            Some(name) => self.repo_index(name),
            None if self.repos.len() == 1 => Ok(0),
            None => Err(format!("name the repository (`repo`): {}", self.served())),
        }
    }

    /// The repositories a query names (its name as a word, case-insensitively), and the query
    /// without those names.
    fn named_in(&self, query: &str) -> (Vec<usize>, String) {
        let lower = query.to_lowercase();
        let named: Vec<usize> = (0..self.repos.len())
            .filter(|&i| !word_spans(&lower, &self.repos[i].name.to_lowercase()).is_empty())
            .collect();
        if named.is_empty() {
            (named, query.to_owned())
        } else {
            let rest = remove_words(query, &self.names_of(&named));
            (named, rest)
        }
    }

    fn names_of(&self, repos: &[usize]) -> Vec<String> {
        repos
            .iter()
            .map(|&i| self.repos[i].name.to_lowercase())
            .collect()
    }

    /// The best `k` hits for `query`, best first. `repo` restricts the search to one repository;
    /// without it, a query that names served repositories searches those. The error says what
    /// was wrong with the arguments.
    pub fn search(&self, query: &str, repo: Option<&str>, k: usize) -> Result<Vec<Hit>, String> {
        if query.trim().is_empty() {
            return Err("`query` must not be empty".to_owned());
        }
        if !(1..=MAX_HITS).contains(&k) {
            return Err(format!("`k` must be from 1 to {}", MAX_HITS));
        }
        let (scope, query): (Vec<usize>, String) = match repo {
            Some(name) => (vec![self.repo_index(name)?], query.to_owned()),
            None => {
                let (named, rest) = self.named_in(query);
                if named.is_empty() || query_terms(&rest).is_empty() {
                    (named, query.to_owned())
                } else {
                    (named, rest)
                }
            }
        };
        let terms = query_terms(&query);
        if terms.is_empty() {
            return Ok(Vec::new());
        }
        let in_scope = |r: usize| scope.is_empty() || scope.contains(&r);
        let n = self.entries.len() as f32;
        let mut scores: HashMap<u32, f32> = HashMap::new();
        for t in &terms {
            let Some(list) = self.postings.get(&t.term) else {
                continue;
            };
            let df = list.len() as f32;
            let idf = (1.0 + (n - df + 0.5) / (df + 0.5)).ln();
            for &(doc, tf) in list {
                let e = &self.entries[doc as usize];
                if !in_scope(e.repo) {
                    continue;
                }
                let norm = K1 * (1.0 - B + B * e.len / self.avg_len);
                *scores.entry(doc).or_default() += t.weight * idf * tf * (K1 + 1.0) / (tf + norm);
            }
        }
        // Chunks that define a whole identifier of the query (by a keyword before it).
        let mut defines: HashMap<u32, f32> = HashMap::new();
        for t in terms.iter().filter(|t| t.whole) {
            for &(doc, _) in self.postings.get(&def_key(&t.term)).into_iter().flatten() {
                let m = defines.entry(doc).or_insert(1.0);
                *m = m.max(1.0 + t.weight);
            }
        }
        let mut ranked: Vec<(u32, f32)> = scores
            .into_iter()
            .map(|(doc, score)| {
                let defines = defines.get(&doc).copied().unwrap_or(1.0);
                (doc, score * self.boost(doc, &terms) * defines)
            })
            .collect();
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));

        let mut hits: Vec<Hit> = Vec::new();
        let mut shown: Vec<(usize, usize, u32, u32)> = Vec::new();
        for (doc, _) in ranked {
            if hits.len() >= k {
                break;
            }
            let e = &self.entries[doc as usize];
            let repo = &self.repos[e.repo];
            let hit = match e.target {
                Target::Symbol(si) => {
                    let s = &repo.symbols[si];
                    let last = s.end.min(s.start + SNIPPET_LINES - 1);
                    shown.push((e.repo, s.file, s.start, last));
                    Hit {
                        repo: repo.name.clone(),
                        path: repo.files[s.file].path.clone(),
                        start: s.start,
                        end: s.end,
                        symbol: Some(s.describe()),
                        signature: s.signature.clone(),
                        lines: lines_of(&repo.files[s.file], s.start, last),
                    }
                }
                Target::Chunk { file, start, end } => {
                    let (from, to) = best_window(&repo.files[file], start, end, &terms);
                    let overlaps = shown
                        .iter()
                        .any(|&(r, f, s, e2)| r == e.repo && f == file && from <= e2 && s <= to);
                    if overlaps {
                        continue;
                    }
                    shown.push((e.repo, file, from, to));
                    Hit {
                        repo: repo.name.clone(),
                        path: repo.files[file].path.clone(),
                        start: from,
                        end: to,
                        symbol: None,
                        signature: None,
                        lines: lines_of(&repo.files[file], from, to),
                    }
                }
            };
            hits.push(hit);
        }
        Ok(hits)
    }

    /// Symbols rank above chunks; a symbol named like one of the query's whole identifiers
    /// (or `Container.name`) is multiplied by 1 + that term's weight.
    fn boost(&self, doc: u32, terms: &[QueryTerm]) -> f32 {
        let e = &self.entries[doc as usize];
        let Target::Symbol(si) = e.target else {
            return 1.0;
        };
        let s = &self.repos[e.repo].symbols[si];
        let name = s.name.to_lowercase();
        let qualified = s
            .container
            .as_ref()
            .map(|c| format!("{}.{}", c, s.name).to_lowercase());
        let exact = terms
            .iter()
            .filter(|t| t.whole && (t.term == name || Some(&t.term) == qualified.as_ref()))
            .map(|t| 1.0 + t.weight)
            .fold(1.0f32, f32::max);
        1.5 * exact
    }

    /// Lines `start..=end` of a file (at most [`MAX_READ_LINES`]); `end` past the end of the
    /// file is cut to it. `path` is relative to the repository root; `..`, absolute paths and
    /// files the server does not serve are errors.
    pub fn read_lines(
        &self,
        repo: Option<&str>,
        path: &str,
        start: u32,
        end: u32,
    ) -> Result<Lines, String> {
        let (ri, file) = self.file(repo, path)?;
        let r = &self.repos[ri];
        let f = &r.files[file];
        let n = f.line_count();
        if start == 0 {
            return Err("`start` is 1-based: the first line is 1".to_owned());
        }
        if end < start {
            return Err(format!("`end` ({}) is before `start` ({})", end, start));
        }
        if end - start + 1 > MAX_READ_LINES {
            return Err(format!(
                "at most {} lines at a time: ask for {}-{}, then on",
                MAX_READ_LINES,
                start,
                start + MAX_READ_LINES - 1
            ));
        }
        if start > n {
            return Err(format!(
                "`{}` has {} lines; `start` ({}) is past its end",
                f.path, n, start
            ));
        }
        let end = end.min(n);
        Ok(Lines {
            repo: r.name.clone(),
            path: f.path.clone(),
            start,
            end,
            file_lines: n,
            lines: lines_of(f, start, end),
        })
    }

    /// The served file at `path`, checked: relative, no `..`, served by the repository. A path
    /// may start with `NAME:` (as search hits print it) when `repo` is not given.
    fn file(&self, repo: Option<&str>, path: &str) -> Result<(usize, usize), String> {
        let (repo, path) = match (repo, path.split_once(':')) {
            (None, Some((name, rest))) if self.repos.iter().any(|r| r.name == name) => {
                (Some(name), rest)
            }
            _ => (repo, path),
        };
        let ri = self.pick_repo(repo)?;
        let clean = confine(path)?;
        let r = &self.repos[ri];
        match r.by_path.get(&clean) {
            Some(&i) => Ok((ri, i)),
            None => Err(format!(
                "repository `{}` has no file `{}` that this server serves (text files the walk \
                 found, .gitignore honoured); `list_files` shows them",
                r.name, clean
            )),
        }
    }

    /// Served paths of a repository, sorted: all, those under a prefix, or those matching a
    /// glob (a pattern with `*`, `?`, `[` or `{`; `*` crosses `/`). Returns the page and the
    /// total that matched.
    pub fn list_files(
        &self,
        repo: Option<&str>,
        pattern: Option<&str>,
        limit: usize,
    ) -> Result<(Vec<(String, u32)>, usize), String> {
        if !(1..=MAX_LIST).contains(&limit) {
            return Err(format!("`limit` must be from 1 to {}", MAX_LIST));
        }
        let ri = self.pick_repo(repo)?;
        let r = &self.repos[ri];
        let matcher: Box<dyn Fn(&str) -> bool> = match pattern.map(str::trim) {
            None | Some("") => Box::new(|_| true),
            Some(p) if p.contains(['*', '?', '[', '{']) => {
                let glob = globset::Glob::new(p.trim_start_matches("./"))
                    .map_err(|e| format!("`pattern` is not a valid glob: {}", e))?
                    .compile_matcher();
                Box::new(move |path| glob.is_match(path))
            }
            Some(p) => {
                let prefix = p.trim_start_matches("./").to_owned();
                Box::new(move |path: &str| path.starts_with(&prefix))
            }
        };
        let matched: Vec<&RepoFile> = r.files.iter().filter(|f| matcher(&f.path)).collect();
        let total = matched.len();
        let page = matched
            .into_iter()
            .take(limit)
            .map(|f| (f.path.clone(), f.line_count()))
            .collect();
        Ok((page, total))
    }
}

fn push_doc(
    entries: &mut Vec<Entry>,
    postings: &mut HashMap<String, Vec<(u32, f32)>>,
    tf: HashMap<String, f32>,
    repo: usize,
    target: Target,
) -> f64 {
    let id = entries.len() as u32;
    let len: f32 = tf.values().sum();
    for (t, w) in tf {
        postings.entry(t).or_default().push((id, w));
    }
    entries.push(Entry { repo, target, len });
    f64::from(len)
}

/// The chunk windows of a file of `n` lines: 1-40, 31-70, …, the last ending at `n`.
fn chunks(n: u32) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    if n == 0 {
        return out;
    }
    let step = CHUNK_LINES - CHUNK_OVERLAP;
    let mut start = 1;
    loop {
        let end = (start + CHUNK_LINES - 1).min(n);
        out.push((start, end));
        if end >= n {
            break;
        }
        start += step;
    }
    out
}

/// The [`SNIPPET_LINES`] lines of a chunk around its line that holds the most query weight.
fn best_window(file: &RepoFile, start: u32, end: u32, terms: &[QueryTerm]) -> (u32, u32) {
    let mut best = (0f32, start);
    for n in start..=end {
        let mut found: HashSet<String> = HashSet::new();
        identifier_terms(file.line(n), |t, _| {
            found.insert(t);
        });
        let defined = defined_names(file.line(n));
        let score: f32 = terms
            .iter()
            .filter(|t| found.contains(&t.term))
            .map(|t| {
                if t.whole && defined.contains(&t.term) {
                    3.0 * t.weight
                } else {
                    t.weight
                }
            })
            .sum();
        if score > best.0 {
            best = (score, n);
        }
    }
    let before = 3;
    let from = best.1.saturating_sub(before).max(start);
    let to = (from + SNIPPET_LINES - 1).min(end);
    let from = to.saturating_sub(SNIPPET_LINES - 1).max(start);
    (from, to)
}

fn lines_of(file: &RepoFile, start: u32, end: u32) -> Vec<(u32, String)> {
    (start..=end)
        .map(|n| (n, cut(file.line(n), LINE_CHARS)))
        .collect()
}

/// A path relative to the repository, `/`-separated, without `.` parts; `..`, absolute paths
/// and empty ones are errors.
fn confine(path: &str) -> Result<String, String> {
    let p = path.trim();
    if p.is_empty() {
        return Err("`path` must not be empty".to_owned());
    }
    if p.starts_with('/') || p.starts_with('\\') || Path::new(p).is_absolute() || p.contains(":\\")
    {
        return Err(format!(
            "`{}` is absolute: give the path relative to the repository root",
            p
        ));
    }
    let mut parts = Vec::new();
    for part in p.split(['/', '\\']) {
        match part {
            "" | "." => {}
            ".." => {
                return Err(format!(
                    "`{}` leaves the repository: `..` is not allowed",
                    p
                ));
            }
            other => parts.push(other),
        }
    }
    if parts.is_empty() {
        return Err(format!("`{}` names the repository root, not a file", p));
    }
    Ok(parts.join("/"))
}

/// Byte spans of the whole-word occurrences of `name` in `text` (a word: not next to a letter,
/// digit, `_` or `-`).
fn word_spans(text: &str, name: &str) -> Vec<(usize, usize)> {
    let boundary =
        |c: Option<char>| c.is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == '-'));
    let mut spans = Vec::new();
    let mut from = 0;
    while let Some(at) = text[from..].find(name) {
        let s = from + at;
        let e = s + name.len();
        if boundary(text[..s].chars().next_back()) && boundary(text[e..].chars().next()) {
            spans.push((s, e));
        }
        from = e;
    }
    spans
}

/// `query` without the whole-word, case-insensitive occurrences of `names`.
fn remove_words(query: &str, names: &[String]) -> String {
    let lower = query.to_lowercase();
    // Lowercasing can change byte lengths outside ASCII; then keep the query as it is.
    if lower.len() != query.len() {
        return query.to_owned();
    }
    let mut keep = vec![true; query.len()];
    for name in names {
        for (s, e) in word_spans(&lower, name) {
            keep[s..e].iter_mut().for_each(|k| *k = false);
        }
    }
    query
        .char_indices()
        .map(|(i, c)| if keep[i] { c } else { ' ' })
        .collect()
}

impl RepoSymbol {
    fn kind_word(&self) -> &'static str {
        match self.kind {
            SymbolKind::TypeAlias => "type",
            k => k.name(),
        }
    }

    /// `method parse (in Parser)`.
    fn describe(&self) -> String {
        match &self.container {
            Some(c) => format!("{} `{}` (in `{}`)", self.kind_word(), self.name, c),
            None => format!("{} `{}`", self.kind_word(), self.name),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// As a plain document source.

impl crate::DocSource for RepoSource {
    fn name(&self) -> &str {
        &self.name
    }

    /// Hits as documents: id `NAME:path:start-end`, the title what the hit is, the body its
    /// numbered lines.
    fn search(&self, query: &str, limit: usize) -> Vec<crate::Doc> {
        RepoSource::search(self, query, None, limit.clamp(1, MAX_HITS))
            .unwrap_or_default()
            .into_iter()
            .map(|h| crate::Doc {
                id: h.location(),
                title: h.symbol.clone().unwrap_or_else(|| h.location()),
                body: numbered(&h.lines),
            })
            .collect()
    }

    /// `NAME:path:start-end` (at most [`MAX_READ_LINES`] lines).
    fn read(&self, id: &str) -> Option<crate::Doc> {
        let (repo, rest) = id.split_once(':')?;
        let (path, range) = rest.rsplit_once(':')?;
        let (start, end) = range.split_once('-')?;
        let lines = self
            .read_lines(Some(repo), path, start.parse().ok()?, end.parse().ok()?)
            .ok()?;
        Some(crate::Doc {
            id: id.to_owned(),
            title: format!("{}:{}", repo, path),
            body: numbered(&lines.lines),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_count_whole_and_split() {
        let mut got = Vec::new();
        identifier_terms("parse_args(URLSession, x2y) _private", |t, w| {
            got.push((t, w))
        });
        let terms: Vec<&str> = got.iter().map(|(t, _)| t.as_str()).collect();
        assert_eq!(
            terms,
            [
                "parse",
                "args",
                "parse_args",
                "url",
                "session",
                "urlsession",
                "x2y",
                "private"
            ]
        );
        assert!(got.iter().any(|(t, w)| t == "parse_args" && *w));
        assert!(got.iter().any(|(t, w)| t == "parse" && !*w));
    }

    #[test]
    fn query_terms_weigh_backticks_and_identifier_shapes_and_keep_code_words() {
        let q = query_terms("Where is the function `parse_args` defined? in for Parser.parse");
        let get = |t: &str| q.iter().find(|x| x.term == t).map(|x| x.weight);
        assert_eq!(get("parse_args"), Some(3.0));
        assert_eq!(get("parse"), Some(1.5));
        assert_eq!(get("function"), Some(1.0));
        assert_eq!(get("parser.parse"), Some(2.0));
        assert_eq!(get("the"), None);
        assert_eq!(get("where"), None);
        // Code words are not stop words.
        assert_eq!(get("is"), Some(1.0));
        assert_eq!(get("in"), Some(1.0));
        assert_eq!(get("for"), Some(1.0));
    }

    #[test]
    fn definitions_are_found_by_their_keyword() {
        assert_eq!(
            defined_names("pub async fn serve_stdio(x: u8) {"),
            ["serve_stdio"]
        );
        assert_eq!(defined_names("class Parser(Base):"), ["parser"]);
        assert_eq!(
            defined_names("export default function renderApp() {"),
            ["renderapp"]
        );
        assert_eq!(
            defined_names("type Id = u32; struct Point { x: Id }"),
            ["id", "point"]
        );
        assert!(defined_names("    let x = parse_args(argv)").is_empty());
    }

    #[test]
    fn chunk_windows_overlap_and_end_at_the_last_line() {
        assert_eq!(chunks(0), []);
        assert_eq!(chunks(1), [(1, 1)]);
        assert_eq!(chunks(40), [(1, 40)]);
        assert_eq!(chunks(41), [(1, 40), (31, 41)]);
        assert_eq!(chunks(100), [(1, 40), (31, 70), (61, 100)]);
    }

    #[test]
    fn paths_are_confined() {
        assert_eq!(confine("./src//a.rs").unwrap(), "src/a.rs");
        assert!(confine("../etc/passwd").unwrap_err().contains("`..`"));
        assert!(confine("src/../../x").unwrap_err().contains("`..`"));
        assert!(confine("/etc/passwd").unwrap_err().contains("absolute"));
        assert!(confine("").is_err());
        assert!(confine("./").is_err());
    }

    #[test]
    fn repository_names_are_removed_as_whole_words_only() {
        let names = vec!["tinyq".to_owned()];
        assert_eq!(
            remove_words("In `tinyq`, where is tinyq_parse?", &names),
            "In `     `, where is tinyq_parse?"
        );
    }
}

#[cfg(test)]
mod source_tests {
    use std::path::Path;

    use verity_facts::{Facts, Symbol, SymbolKind};

    use super::*;

    const CLI: &str = "import sys\n\nfrom .util import helper\n\n\ndef parse_args(argv):\n    \"\"\"Parse the command line.\"\"\"\n    opts = {}\n    for a in argv:\n        opts[a] = True\n    return opts\n\n\ndef main():\n    opts = parse_args(sys.argv)\n    return helper(opts)\n";

    fn write(root: &Path, files: &[(&str, &[u8])]) {
        for (path, text) in files {
            let p = root.join(path);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        }
    }

    fn symbol(name: &str, kind: SymbolKind, file: &str, start: u32, end: u32) -> Symbol {
        Symbol {
            name: name.into(),
            kind,
            file: file.into(),
            start_line: start,
            end_line: end,
            container: None,
            signature: None,
            return_type: None,
            exported: true,
        }
    }

    /// A small Python repository in which `parse_args` is mentioned more often in a test file
    /// than in the file that defines it.
    fn fixture() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let mut tests = String::from("from src.cli import parse_args\n\n");
        for i in 0..6 {
            tests.push_str(&format!(
                "def test_parse_args_{i}():\n    assert parse_args(['{i}']) == parse_args(['{i}'])\n\n"
            ));
        }
        let long: String = (1..=100).map(|n| format!("value_{n:03} = {n}\n")).collect();
        write(
            dir.path(),
            &[
                ("src/cli.py", CLI.as_bytes()),
                ("src/util.py", b"class Parser:\n    def parse(self, text):\n        return text.split()\n\n\ndef helper(opts):\n    return len(opts)\n"),
                ("tests/test_cli.py", tests.as_bytes()),
                ("data/values.py", long.as_bytes()),
                ("build/generated.py", b"def parse_args():\n    pass\n"),
                (".gitignore", b"build/\n"),
                ("logo.png", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR parse_args"),
                (".hidden/secret.py", b"parse_args = 1\n"),
            ],
        );
        dir
    }

    fn facts() -> Facts {
        let mut parse = symbol("parse", SymbolKind::Method, "src/util.py", 2, 3);
        parse.container = Some("Parser".into());
        let mut args = symbol("parse_args", SymbolKind::Function, "src/cli.py", 6, 11);
        args.signature = Some("def parse_args(argv)".into());
        Facts {
            symbols: vec![
                args,
                symbol("main", SymbolKind::Function, "src/cli.py", 14, 16),
                symbol("Parser", SymbolKind::Class, "src/util.py", 1, 3),
                parse,
                symbol("helper", SymbolKind::Function, "src/util.py", 6, 7),
                // Stale: past the end of the file, and a file that is not served.
                symbol("gone", SymbolKind::Function, "src/cli.py", 90, 95),
                symbol("ghost", SymbolKind::Function, "src/ghost.py", 1, 2),
            ],
            ..Facts::default()
        }
    }

    fn source(dir: &Path, with_facts: bool) -> RepoSource {
        let facts = facts();
        let repo = Repo::build("tinyq", dir, with_facts.then_some(&facts)).unwrap();
        RepoSource::new(vec![repo]).unwrap()
    }

    /// Every shown line is the file's line of that number.
    fn assert_lines_true(dir: &Path, hit: &Hit) {
        let text = std::fs::read_to_string(dir.join(&hit.path)).unwrap();
        let file: Vec<&str> = text.lines().collect();
        assert!(hit.start >= 1 && hit.end as usize <= file.len(), "{hit:?}");
        for (n, line) in &hit.lines {
            assert_eq!(file[(*n - 1) as usize], line, "{}:{n}", hit.path);
        }
    }

    #[test]
    fn the_walk_honours_gitignore_hidden_files_and_binaries() {
        let dir = fixture();
        let s = source(dir.path(), true);
        let paths: Vec<&str> = s.repos()[0].paths().collect();
        assert_eq!(
            paths,
            [
                "data/values.py",
                "src/cli.py",
                "src/util.py",
                "tests/test_cli.py"
            ]
        );
        assert_eq!(s.repos()[0].symbol_count(), 5);
        assert_eq!(s.repos()[0].stale_symbols(), 2);
    }

    #[test]
    fn a_definition_ranks_above_its_mentions() {
        let dir = fixture();
        let s = source(dir.path(), true);
        let hits = s
            .search(
                "In the repository `tinyq`, where is the function `parse_args` defined?",
                None,
                5,
            )
            .unwrap();
        assert_eq!(hits[0].location(), "tinyq:src/cli.py:6-11", "{hits:#?}");
        assert_eq!(hits[0].symbol.as_deref(), Some("function `parse_args`"));
        assert_eq!(hits[0].signature.as_deref(), Some("def parse_args(argv)"));
        assert!(
            hits.iter().skip(1).any(|h| h.path == "tests/test_cli.py"),
            "{hits:#?}"
        );
        for h in &hits {
            assert_lines_true(dir.path(), h);
        }
        // A qualified name finds the method, not the class.
        let hits = s.search("`Parser.parse`", None, 3).unwrap();
        assert_eq!(hits[0].location(), "tinyq:src/util.py:2-3", "{hits:#?}");
        assert_eq!(
            hits[0].symbol.as_deref(),
            Some("method `parse` (in `Parser`)")
        );
    }

    #[test]
    fn without_facts_chunks_find_the_code_with_exact_lines() {
        let dir = fixture();
        let s = source(dir.path(), false);
        // The chunk that defines it (a keyword before the name) ranks above the test file that
        // mentions it more often, and its snippet shows the definition.
        let hits = s.search("where is `parse_args` defined?", None, 3).unwrap();
        assert!(hits.iter().all(|h| h.symbol.is_none()));
        assert_eq!(hits[0].path, "src/cli.py", "{hits:#?}");
        assert!(
            hits[0]
                .lines
                .contains(&(6, "def parse_args(argv):".to_owned())),
            "{hits:#?}"
        );
        for h in &hits {
            assert_lines_true(dir.path(), h);
        }
        // Line 77 of a 100-line file is in the chunks 61-100; the hit shows the lines around it.
        let hits = s.search("value_077", None, 1).unwrap();
        let h = &hits[0];
        assert_eq!(h.path, "data/values.py");
        assert!(
            h.start <= 77 && 77 <= h.end && h.end - h.start + 1 == SNIPPET_LINES,
            "{h:?}"
        );
        assert!(
            h.lines.contains(&(77, "value_077 = 77".to_owned())),
            "{h:?}"
        );
        assert_eq!(h.lines.first().map(|l| l.0), Some(h.start));
        assert_eq!(h.lines.last().map(|l| l.0), Some(h.end));
        assert_lines_true(dir.path(), h);
        // The last line of the file is searchable too.
        let h = &s.search("value_100", None, 1).unwrap()[0];
        assert_eq!(h.end, 100);
        assert!(h.lines.contains(&(100, "value_100 = 100".to_owned())));
    }

    #[test]
    fn overlapping_chunks_are_shown_once() {
        let dir = fixture();
        let s = source(dir.path(), false);
        let hits = s.search("value_035", None, 5).unwrap();
        let in_values: Vec<&Hit> = hits.iter().filter(|h| h.path == "data/values.py").collect();
        for (i, a) in in_values.iter().enumerate() {
            for b in &in_values[i + 1..] {
                assert!(a.end < b.start || b.end < a.start, "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn a_query_naming_a_repository_searches_it_only() {
        let a = fixture();
        let b = fixture();
        let repos = vec![
            Repo::build("alpha", a.path(), None).unwrap(),
            Repo::build("beta", b.path(), None).unwrap(),
        ];
        let s = RepoSource::new(repos).unwrap();
        let hits = s.search("`parse_args` in beta", None, 10).unwrap();
        assert!(
            !hits.is_empty() && hits.iter().all(|h| h.repo == "beta"),
            "{hits:#?}"
        );
        let hits = s.search("parse_args", None, 10).unwrap();
        assert!(hits.iter().any(|h| h.repo == "alpha") && hits.iter().any(|h| h.repo == "beta"));
        let hits = s.search("parse_args", Some("alpha"), 10).unwrap();
        assert!(hits.iter().all(|h| h.repo == "alpha"));
        let err = s.search("parse_args", Some("gamma"), 10).unwrap_err();
        assert!(
            err.contains("no repository `gamma`") && err.contains("`alpha`"),
            "{err}"
        );
        // Path tools need the repository when there are two.
        let err = s.read_lines(None, "src/cli.py", 1, 2).unwrap_err();
        assert!(err.contains("name the repository"), "{err}");
        assert_eq!(
            s.read_lines(None, "beta:src/cli.py", 6, 6).unwrap().repo,
            "beta"
        );
        assert!(
            RepoSource::new(vec![
                Repo::build("x", a.path(), None).unwrap(),
                Repo::build("x", b.path(), None).unwrap()
            ])
            .is_err()
        );
    }

    #[test]
    fn read_lines_is_exact_bounded_and_confined() {
        let dir = fixture();
        let s = source(dir.path(), true);
        let l = s.read_lines(None, "src/cli.py", 6, 8).unwrap();
        assert_eq!(
            l.lines,
            [
                (6, "def parse_args(argv):".to_owned()),
                (7, "    \"\"\"Parse the command line.\"\"\"".to_owned()),
                (8, "    opts = {}".to_owned())
            ]
        );
        assert_eq!(
            l.render().lines().next(),
            Some("tinyq:src/cli.py:6-8 (the file has 16 lines)")
        );
        // The end is cut to the file; the start may not be past it.
        assert_eq!(s.read_lines(None, "./src/cli.py", 15, 99).unwrap().end, 16);
        assert!(
            s.read_lines(None, "src/cli.py", 17, 20)
                .unwrap_err()
                .contains("16 lines")
        );
        assert!(s.read_lines(None, "src/cli.py", 0, 2).is_err());
        assert!(s.read_lines(None, "src/cli.py", 5, 4).is_err());
        assert!(
            s.read_lines(None, "data/values.py", 1, 201)
                .unwrap_err()
                .contains("at most 200")
        );
        assert_eq!(
            s.read_lines(None, "data/values.py", 1, 200)
                .unwrap()
                .lines
                .len(),
            100
        );
        for bad in ["../outside.txt", "src/../../outside.txt", "/etc/passwd"] {
            assert!(s.read_lines(None, bad, 1, 1).is_err(), "{bad}");
        }
        // Ignored, hidden and binary files are not served.
        for hidden in ["build/generated.py", ".hidden/secret.py", "logo.png"] {
            assert!(
                s.read_lines(None, hidden, 1, 1)
                    .unwrap_err()
                    .contains("no file"),
                "{hidden}"
            );
        }
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_are_served_only_inside_the_repository() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret.txt"), "the secret\n").unwrap();
        let dir = fixture();
        std::os::unix::fs::symlink(
            outside.path().join("secret.txt"),
            dir.path().join("leak.txt"),
        )
        .unwrap();
        std::os::unix::fs::symlink(outside.path(), dir.path().join("leakdir")).unwrap();
        std::os::unix::fs::symlink(dir.path().join("src/cli.py"), dir.path().join("alias.py"))
            .unwrap();
        let s = source(dir.path(), false);
        assert!(
            s.read_lines(None, "leak.txt", 1, 1)
                .unwrap_err()
                .contains("no file")
        );
        assert!(s.read_lines(None, "leakdir/secret.txt", 1, 1).is_err());
        assert!(
            s.search("secret", None, 5)
                .unwrap()
                .iter()
                .all(|h| !h.path.starts_with("leak"))
        );
        assert_eq!(
            s.read_lines(None, "alias.py", 6, 6).unwrap().lines[0].1,
            "def parse_args(argv):"
        );
    }

    #[test]
    fn list_files_by_prefix_or_glob_with_a_limit() {
        let dir = fixture();
        let s = source(dir.path(), false);
        let (page, total) = s.list_files(None, Some("src/"), 10).unwrap();
        assert_eq!(total, 2);
        assert_eq!(
            page,
            [("src/cli.py".to_owned(), 16), ("src/util.py".to_owned(), 7)]
        );
        let (page, total) = s.list_files(None, Some("**/test_*.py"), 10).unwrap();
        assert_eq!((page.len(), total), (1, 1));
        let (page, total) = s.list_files(None, None, 2).unwrap();
        assert_eq!((page.len(), total), (2, 4));
        assert!(s.list_files(None, Some("[unclosed"), 10).is_err());
        assert!(s.list_files(None, None, 0).is_err());
        assert!(s.list_files(Some("nope"), None, 10).is_err());
    }

    #[test]
    fn bad_repositories_are_errors_with_kinds() {
        let err = Repo::build("x", Path::new("/nonexistent/verity-repo"), None).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::NotFound);
        let dir = fixture();
        let err = Repo::build("a b", dir.path(), None).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Usage);
        let err = Repo::build("x", &dir.path().join("src/cli.py"), None).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Usage);
        assert!(RepoSource::new(Vec::new()).is_err());
    }

    #[test]
    fn as_a_doc_source() {
        use crate::DocSource;
        let dir = fixture();
        let s = source(dir.path(), true);
        let docs = DocSource::search(&s, "`helper`", 2);
        assert_eq!(docs[0].id, "tinyq:src/util.py:6-7");
        let doc = s.read("tinyq:src/util.py:6-7").unwrap();
        assert_eq!(
            doc.body,
            "6 | def helper(opts):\n7 |     return len(opts)\n"
        );
        assert!(s.read("tinyq:../x:1-2").is_none());
    }
}
