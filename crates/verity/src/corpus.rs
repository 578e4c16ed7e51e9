//! Synthetic corpus generation (seed 003 §10): what `verity corpus generate` does besides
//! running a suite. Walking a codebase for source files, naming them, categorising a file by
//! the claims an extractor found in it, the stratified sample, and the text of the fixtures and
//! of the README that lists them. No model, store or terminal here: the command
//! (`commands/corpus.rs`) connects these to the engine.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde_json::Value as Json;
use verity_oracles::claims::Claim;

/// Source languages by file extension (compared in lower case). The names are what fixtures
/// carry in `metadata.language` and what the claims prompt puts on its code fence.
pub const LANGUAGES: &[(&str, &[&str])] = &[
    ("python", &["py", "pyw"]),
    ("javascript", &["js", "mjs", "cjs", "jsx"]),
    ("typescript", &["ts", "tsx", "mts", "cts"]),
    ("go", &["go"]),
    ("rust", &["rs"]),
    ("java", &["java"]),
    ("swift", &["swift"]),
    ("ruby", &["rb"]),
    ("shell", &["sh", "bash", "zsh"]),
    ("c", &["c", "h"]),
    ("cpp", &["cc", "cpp", "cxx", "hh", "hpp", "hxx"]),
    ("csharp", &["cs"]),
    ("kotlin", &["kt", "kts"]),
    ("php", &["php"]),
];

/// The category of a file in which the extractor found no claim.
pub const NEGATIVE: &str = "negative";

/// The words every generated expectation's rationale starts with; a reviewer removes them
/// once the claim is checked.
pub const MARKER: &str = "auto-generated — requires human review";

/// The language of a file, from its extension.
pub fn language(path: &Path) -> Option<&'static str> {
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    LANGUAGES
        .iter()
        .find(|(_, exts)| exts.contains(&ext.as_str()))
        .map(|(name, _)| *name)
}

/// A source file kept by [`scan`].
#[derive(Clone, Debug, PartialEq)]
pub struct SourceFile {
    /// The path relative to the scanned directory, with `/` separators.
    pub rel: String,
    /// [`slug`] of `rel`, unique among the scanned files: the task id and the fixture's name.
    pub slug: String,
    pub language: &'static str,
    pub text: String,
}

/// Files [`scan`] passed over, by reason. Ignored files (`.gitignore`, `.ignore`, hidden) are
/// never visited, so they are not counted.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Skipped {
    /// Larger than the size limit.
    pub too_large: u64,
    /// Not UTF-8, or UTF-8 with NUL bytes: binary.
    pub not_text: u64,
    /// Empty or only whitespace: nothing to extract from.
    pub empty: u64,
    /// Could not be read (or a directory could not be listed).
    pub unreadable: u64,
    /// An extension of no known source language.
    pub other: u64,
    /// The first few read errors, for the summary.
    pub errors: Vec<String>,
}

impl Skipped {
    /// How many files were skipped for any reason but their language.
    pub fn total(&self) -> u64 {
        self.too_large + self.not_text + self.empty + self.unreadable
    }

    /// `3 larger than 32768 bytes, 1 not text` — the reasons that occurred.
    pub fn describe(&self, max_bytes: u64) -> String {
        let parts: Vec<String> = [
            (self.too_large, format!("larger than {max_bytes} bytes")),
            (self.not_text, "binary or not UTF-8".to_owned()),
            (self.empty, "empty".to_owned()),
            (self.unreadable, "unreadable".to_owned()),
        ]
        .into_iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, why)| format!("{n} {why}"))
        .collect();
        parts.join(", ")
    }
}

/// What [`scan`] found: the source files in path order, and what it skipped.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Scan {
    pub files: Vec<SourceFile>,
    pub skipped: Skipped,
}

/// How many read errors [`Skipped::errors`] keeps.
const KEPT_ERRORS: usize = 5;

/// Walks `root` with ripgrep's walker: `.gitignore` (also outside a git repository), `.ignore`
/// and `.git/info/exclude` are honoured and hidden files skipped; the user's global gitignore
/// is not read, so the same tree gives the same scan on every machine. Keeps files of a known
/// language that are at most `max_bytes` long, UTF-8 and not blank. `root` may be one file.
pub fn scan(root: &Path, max_bytes: u64) -> Scan {
    let mut out = Scan::default();
    let walk = ignore::WalkBuilder::new(root)
        .require_git(false)
        .git_global(false)
        .follow_links(false)
        .build();
    for entry in walk {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                out.skipped.unreadable += 1;
                keep_error(&mut out.skipped, e.to_string());
                continue;
            }
        };
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        let path = entry.path();
        let Some(language) = language(path) else {
            out.skipped.other += 1;
            continue;
        };
        let rel = relative(root, path);
        match read_source(path, max_bytes) {
            Ok(text) => out.files.push(SourceFile {
                rel,
                slug: String::new(),
                language,
                text,
            }),
            Err(Unfit::TooLarge) => out.skipped.too_large += 1,
            Err(Unfit::NotText) => out.skipped.not_text += 1,
            Err(Unfit::Empty) => out.skipped.empty += 1,
            Err(Unfit::Io(e)) => {
                out.skipped.unreadable += 1;
                keep_error(&mut out.skipped, format!("{rel}: {e}"));
            }
        }
    }
    out.files.sort_by(|a, b| a.rel.cmp(&b.rel));
    assign_slugs(&mut out.files);
    out
}

fn keep_error(s: &mut Skipped, e: String) {
    if s.errors.len() < KEPT_ERRORS {
        s.errors.push(e);
    }
}

/// `path` relative to `root` with `/` separators; a root that is a file gives its name.
fn relative(root: &Path, path: &Path) -> String {
    let rel = match path.strip_prefix(root) {
        Ok(r) if !r.as_os_str().is_empty() => r,
        _ => Path::new(path.file_name().unwrap_or(path.as_os_str())),
    };
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

/// Why a file is not used.
#[derive(Debug)]
enum Unfit {
    TooLarge,
    NotText,
    Empty,
    Io(std::io::Error),
}

fn read_source(path: &Path, max_bytes: u64) -> Result<String, Unfit> {
    use std::io::Read as _;
    let file = std::fs::File::open(path).map_err(Unfit::Io)?;
    if file.metadata().map_err(Unfit::Io)?.len() > max_bytes {
        return Err(Unfit::TooLarge);
    }
    // Read one byte past the limit: a file that grew since its size was read is still refused.
    let mut bytes = Vec::new();
    file.take(max_bytes.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(Unfit::Io)?;
    if bytes.len() as u64 > max_bytes {
        return Err(Unfit::TooLarge);
    }
    let text = String::from_utf8(bytes).map_err(|_| Unfit::NotText)?;
    if text.contains('\0') {
        return Err(Unfit::NotText);
    }
    if text.trim().is_empty() {
        return Err(Unfit::Empty);
    }
    Ok(text)
}

/// The longest slug kept whole; longer ones are cut and end in a hash of the path, so file
/// names stay within every file system's limit.
const MAX_SLUG: usize = 100;

/// A path as a task id and file name: lower case ASCII letters and digits, every other run of
/// characters one `-` (`src/auth/login.py` → `src-auth-login-py`).
pub fn slug(rel: &str) -> String {
    let mut s = String::with_capacity(rel.len());
    for c in rel.chars() {
        if c.is_ascii_alphanumeric() {
            s.push(c.to_ascii_lowercase());
        } else if !s.is_empty() && !s.ends_with('-') {
            s.push('-');
        }
    }
    while s.ends_with('-') {
        s.pop();
    }
    if s.is_empty() {
        s.push_str("file");
    }
    if s.len() > MAX_SLUG {
        let hash = blake3::hash(rel.as_bytes()).to_hex();
        s.truncate(MAX_SLUG - 9);
        while s.ends_with('-') {
            s.pop();
        }
        s.push('-');
        s.push_str(&hash[..8]);
    }
    s
}

/// Gives each file its slug, unique among them: a slug taken by an earlier file (in path
/// order) gets `-2`, `-3`….
fn assign_slugs(files: &mut [SourceFile]) {
    let mut taken = HashSet::new();
    for f in files.iter_mut() {
        let base = slug(&f.rel);
        let mut s = base.clone();
        let mut n = 2;
        while !taken.insert(s.clone()) {
            s = format!("{base}-{n}");
            n += 1;
        }
        f.slug = s;
    }
}

/// A claim subject's category: its first segment (split on `/` and `.`), in lower case, with
/// anything but letters, digits, `_` and `-` as `-`; `other` when it has none.
pub fn subject_category(subject: &str) -> String {
    let first = subject
        .split(['/', '.'])
        .map(str::trim)
        .find(|s| !s.is_empty())
        .unwrap_or("");
    let c: String = first
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    let c = c.trim_matches('-');
    if c.is_empty() {
        "other".to_owned()
    } else {
        c.to_owned()
    }
}

/// A file's category: the most frequent category of its claims' subjects (ties go to the
/// first in name order); [`NEGATIVE`] when there is no claim.
pub fn category(claims: &[Claim]) -> String {
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for c in claims {
        *counts.entry(subject_category(&c.subject)).or_default() += 1;
    }
    let mut best: Option<(String, usize)> = None;
    for (name, n) in counts {
        if best.as_ref().is_none_or(|(_, m)| n > *m) {
            best = Some((name, n));
        }
    }
    best.map_or_else(|| NEGATIVE.to_owned(), |(name, _)| name)
}

/// The order of `key` within its category for `seed`: BLAKE3 of the seed and the key, so the
/// same seed shuffles the same way on every machine, and adding a file moves no other.
fn shuffle_key(seed: u64, key: &str) -> [u8; 32] {
    let mut h = blake3::Hasher::new();
    h.update(&seed.to_le_bytes());
    h.update(key.as_bytes());
    *h.finalize().as_bytes()
}

/// At most `n` of `items`, stratified by category: round-robin across the categories in name
/// order, taking from each in a seeded shuffled order, so a small category is represented as
/// long as `n` reaches it. Returns indices into `items`, in the order taken.
pub fn stratified_sample<T>(
    items: &[T],
    n: usize,
    seed: u64,
    category: impl Fn(&T) -> &str,
    key: impl Fn(&T) -> &str,
) -> Vec<usize> {
    let mut by_category: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, item) in items.iter().enumerate() {
        by_category.entry(category(item)).or_default().push(i);
    }
    let mut queues: Vec<std::vec::IntoIter<usize>> = by_category
        .into_values()
        .map(|mut v| {
            v.sort_by_cached_key(|&i| (shuffle_key(seed, key(&items[i])), key(&items[i])));
            v.into_iter()
        })
        .collect();
    let mut out = Vec::with_capacity(n.min(items.len()));
    while out.len() < n {
        let before = out.len();
        for q in &mut queues {
            if out.len() == n {
                break;
            }
            if let Some(i) = q.next() {
                out.push(i);
            }
        }
        if out.len() == before {
            break;
        }
    }
    out
}

/// One fixture to write.
#[derive(Clone, Debug)]
pub struct Fixture<'a> {
    /// `<category>-gen-NNN`.
    pub id: String,
    pub category: &'a str,
    pub language: &'a str,
    /// The source's path relative to the scanned directory.
    pub rel: &'a str,
    /// Today, `YYYY-MM-DD` (UTC).
    pub created: &'a str,
    pub content: &'a str,
    pub claims: &'a [Claim],
    /// Who extracted the claims: `provider/model`.
    pub by: &'a str,
}

/// A TOML value as the `toml` crate writes it (quoting and escaping included).
fn toml_value(v: toml::Value) -> String {
    v.to_string()
}

fn toml_str(s: &str) -> String {
    toml_value(toml::Value::String(s.to_owned()))
}

/// A claim's value as TOML: booleans, integers, floats and strings stay what they are.
fn claim_value(v: &Json) -> toml::Value {
    match v {
        Json::Bool(b) => toml::Value::Boolean(*b),
        Json::Number(n) => match (n.as_i64(), n.as_f64()) {
            (Some(i), _) => toml::Value::Integer(i),
            (None, Some(f)) => toml::Value::Float(f),
            _ => toml::Value::String(n.to_string()),
        },
        Json::String(s) => toml::Value::String(s.clone()),
        other => toml::Value::String(other.to_string()),
    }
}

/// The claims as expectations: one per (subject, predicate, value), in the order first found,
/// with every line the extractor cited and its highest confidence.
struct Expected<'a> {
    claim: &'a Claim,
    lines: Vec<u64>,
    confidence: Option<f64>,
}

fn expectations(claims: &[Claim]) -> Vec<Expected<'_>> {
    let mut out: Vec<Expected<'_>> = Vec::new();
    let mut at: HashMap<(String, String, String), usize> = HashMap::new();
    for c in claims {
        let key = (c.subject.clone(), c.predicate.clone(), c.value.to_string());
        let e = match at.get(&key) {
            Some(&i) => &mut out[i],
            None => {
                at.insert(key, out.len());
                out.push(Expected {
                    claim: c,
                    lines: Vec::new(),
                    confidence: None,
                });
                out.last_mut().expect("just pushed")
            }
        };
        if let Some(l) = c.line
            && !e.lines.contains(&l)
        {
            e.lines.push(l);
        }
        if let Some(x) = c.confidence {
            e.confidence = Some(e.confidence.map_or(x, |y: f64| y.max(x)));
        }
    }
    out
}

fn rationale(e: &Expected<'_>, by: &str) -> String {
    let mut parts = Vec::new();
    match e.lines.as_slice() {
        [] => {}
        [l] => parts.push(format!("line {l}")),
        ls => parts.push(format!(
            "lines {}",
            ls.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")
        )),
    }
    if let Some(c) = e.confidence {
        parts.push(format!("confidence {c}"));
    }
    parts.push(format!("by {by}"));
    format!("{MARKER} ({})", parts.join(", "))
}

/// The fixture in seed 003 §5's shape. Every string goes through the `toml` crate's writer, so
/// any source text round-trips (`'''`, `"""`, backslashes, control characters).
pub fn fixture_toml(f: &Fixture<'_>) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# Generated by `verity corpus generate` from {}. Review it before committing: fix or",
        f.rel
    );
    s.push_str(
        "# delete wrong claims, add must_not_contain, and remove every \"auto-generated\" marker.\n\n",
    );
    s.push_str("[metadata]\n");
    let _ = writeln!(s, "id = {}", toml_str(&f.id));
    let _ = writeln!(s, "name = {}", toml_str(f.rel));
    let _ = writeln!(s, "category = {}", toml_str(f.category));
    let _ = writeln!(s, "language = {}", toml_str(f.language));
    let _ = writeln!(s, "created = {}", toml_str(f.created));
    let _ = writeln!(s, "source = {}", toml_str(f.rel));
    // What `--provider mock` answers, as every claims-security fixture has.
    let _ = writeln!(s, "mock_response = {}", toml_str(r#"{"claims": []}"#));
    s.push_str("\n[input]\n");
    let _ = writeln!(s, "content = {}", toml_str(f.content));
    s.push_str("\n[expected]\n");
    let expected = expectations(f.claims);
    if expected.is_empty() {
        s.push_str("must_contain = []\n");
    } else {
        s.push_str("must_contain = [\n");
        for e in &expected {
            let _ = writeln!(
                s,
                "  {{ subject = {}, predicate = {}, value = {}, rationale = {} }},",
                toml_str(&e.claim.subject),
                toml_str(&e.claim.predicate),
                toml_value(claim_value(&e.claim.value)),
                toml_str(&rationale(e, f.by)),
            );
        }
        s.push_str("]\n");
    }
    s.push_str("must_not_contain = []\n");
    s.push_str("\n[scoring]\nweight = 1.0\nmin_confidence = 0.5\n");
    s
}

/// The number in an id `<category>-gen-NNN`, when `id` is one of `category`'s.
pub fn generated_number(id: &str, category: &str) -> Option<u32> {
    id.strip_prefix(category)?
        .strip_prefix("-gen-")?
        .parse()
        .ok()
}

/// `<category>-gen-NNN`.
pub fn generated_id(category: &str, n: u32) -> String {
    format!("{category}-gen-{n:03}")
}

/// The highest number among the `<category>-gen-NNN` ids of the fixtures in `dir` (one
/// category's directory of an output directory), leaving out the files about to be
/// `replaced`; 0 when there is none. New fixtures are numbered after it, so a second batch
/// into the same directory reuses no id. Files that do not parse are passed over.
pub fn highest_generated(dir: &Path, category: &str, replaced: &HashSet<PathBuf>) -> u32 {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    let mut best = 0;
    for e in entries.flatten() {
        let path = e.path();
        if path.extension().is_none_or(|x| x != "toml") || replaced.contains(&path) {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let Ok(doc) = toml::from_str::<toml::Table>(&text) else {
            continue;
        };
        if let Some(n) = doc
            .get("metadata")
            .and_then(|m| m.get("id"))
            .and_then(toml::Value::as_str)
            .and_then(|id| generated_number(id, category))
        {
            best = best.max(n);
        }
    }
    best
}

/// One line of the README's listing.
#[derive(Clone, Debug)]
pub struct Listed {
    /// The fixture's path relative to the output directory.
    pub file: String,
    pub id: String,
    pub category: String,
    pub language: String,
    pub source: String,
    pub claims: usize,
}

/// What the README says about the batch.
#[derive(Clone, Debug)]
pub struct Batch<'a> {
    pub run_id: &'a str,
    pub suite: &'a str,
    pub by: &'a str,
    pub created: &'a str,
    pub seed: u64,
    pub scanned: usize,
    pub listed: &'a [Listed],
}

fn md_cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

/// The output directory's README: what was generated, and how to review it.
pub fn readme(b: &Batch<'_>) -> String {
    let mut s = String::new();
    s.push_str("# Generated claim-extraction fixtures\n\n");
    let _ = writeln!(
        s,
        "`verity corpus generate` wrote these {} fixtures on {}: a sample of {} scanned source \
         files, stratified by category (seed {}), with the claims `{}` extracted through suite \
         `{}` (run `{}`; `verity report {}` shows every answer).",
        b.listed.len(),
        b.created,
        b.scanned,
        b.seed,
        b.by,
        b.suite,
        b.run_id,
        b.run_id
    );
    s.push_str(
        "\n**Nothing here is reviewed yet.** Each `must_contain` entry is what the model said, \
         not the truth; its rationale starts with \"auto-generated\".\n",
    );
    s.push_str("\n## Review workflow\n\n");
    s.push_str(
        "1. Read each fixture's `[input] content`. Fix or delete every wrong claim in \
         `must_contain`, and add the claims the model missed (the suite's README lists the \
         vocabulary).\n\
         2. Add `must_not_contain` entries: the tempting wrong answers (a safe value, a claim \
         the code only seems to make).\n\
         3. Replace each \"auto-generated\" rationale with why the claim holds; give the fixture a \
         descriptive `name`, and a file that shows nothing worth testing can simply be deleted. \
         Check the `category`: a fixture may belong elsewhere.\n\
         4. `verity validate` a suite whose `tasks` include the fixtures (or move them into the \
         suite's `fixtures/<category>/`), then commit.\n\n",
    );
    s.push_str("`grep -rl auto-generated .` lists the fixtures still to review.\n");
    s.push_str("\n## Fixtures\n\n| file | id | category | language | source | claims |\n|---|---|---|---|---|---:|\n");
    for l in b.listed {
        let _ = writeln!(
            s,
            "| `{}` | {} | {} | {} | `{}` | {} |",
            md_cell(&l.file),
            md_cell(&l.id),
            md_cell(&l.category),
            md_cell(&l.language),
            md_cell(&l.source),
            l.claims
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn claim(subject: &str, value: Json, line: Option<u64>, confidence: Option<f64>) -> Claim {
        Claim {
            subject: subject.into(),
            predicate: "enabled".into(),
            value,
            confidence,
            line,
        }
    }

    #[test]
    fn languages_come_from_extensions() {
        assert_eq!(language(Path::new("a/b.py")), Some("python"));
        assert_eq!(language(Path::new("x.TSX")), Some("typescript"));
        assert_eq!(language(Path::new("main.go")), Some("go"));
        assert_eq!(language(Path::new("lib.hpp")), Some("cpp"));
        assert_eq!(language(Path::new("x.h")), Some("c"));
        assert_eq!(language(Path::new("Program.cs")), Some("csharp"));
        assert_eq!(language(Path::new("run.sh")), Some("shell"));
        assert_eq!(language(Path::new("README.md")), None);
        assert_eq!(language(Path::new("Makefile")), None);
        // Every extension names one language.
        let mut seen = HashSet::new();
        for (_, exts) in LANGUAGES {
            for e in *exts {
                assert!(seen.insert(*e), "{e} twice");
            }
        }
        assert_eq!(LANGUAGES.len(), 14);
    }

    #[test]
    fn slugs_are_ids_and_file_names() {
        assert_eq!(slug("src/auth/login.py"), "src-auth-login-py");
        assert_eq!(slug("A B/__init__.py"), "a-b-init-py");
        assert_eq!(slug("ünïcode/ö.rs"), "n-code-rs");
        assert_eq!(slug("..."), "file");
        let long = format!("{}/x.py", "very-long-directory-name/".repeat(10));
        let s = slug(&long);
        assert!(s.len() <= MAX_SLUG, "{s}");
        assert_ne!(
            s,
            slug(&format!("{}/y.py", "very-long-directory-name/".repeat(10)))
        );
    }

    #[test]
    fn colliding_slugs_are_numbered_in_path_order() {
        let mut files: Vec<SourceFile> = ["src/a-b.py", "src/a_b.py", "src/A_b.py"]
            .into_iter()
            .map(|rel| SourceFile {
                rel: rel.into(),
                slug: String::new(),
                language: "python",
                text: "x".into(),
            })
            .collect();
        files.sort_by(|a, b| a.rel.cmp(&b.rel));
        assign_slugs(&mut files);
        let slugs: Vec<&str> = files.iter().map(|f| f.slug.as_str()).collect();
        assert_eq!(slugs, ["src-a-b-py", "src-a-b-py-2", "src-a-b-py-3"]);
        assert_eq!(files[0].rel, "src/A_b.py");
    }

    #[test]
    fn scan_keeps_source_and_counts_what_it_skips() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let w = |rel: &str, bytes: &[u8]| {
            let p = root.join(rel);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, bytes).unwrap();
        };
        w(".gitignore", b"build/\n*.gen.py\n");
        w("src/app.py", b"print('hi')\n");
        w("src/util.go", b"package util\n");
        w("src/x.gen.py", b"print('generated')\n");
        w("build/out.js", b"var x = 1;\n");
        w(".hidden/secret.py", b"KEY = 'x'\n");
        w("big.rs", &[b'a'; 101]);
        w("blob.c", &[0xff, 0xfe, 0x00, 0x01]);
        w("nul.c", b"int x;\0\n");
        w("blank.ts", b"  \n\n");
        w("notes.md", b"# notes\n");
        let s = scan(root, 100);
        let rels: Vec<&str> = s.files.iter().map(|f| f.rel.as_str()).collect();
        assert_eq!(rels, ["src/app.py", "src/util.go"]);
        assert_eq!(s.files[0].language, "python");
        assert_eq!(s.files[0].slug, "src-app-py");
        assert_eq!(s.files[1].text, "package util\n");
        let k = &s.skipped;
        assert_eq!(
            (k.too_large, k.not_text, k.empty, k.unreadable),
            (1, 2, 1, 0)
        );
        // notes.md (.gitignore is hidden, so never visited).
        assert_eq!(k.other, 1);
        assert_eq!(
            k.describe(100),
            "1 larger than 100 bytes, 2 binary or not UTF-8, 1 empty"
        );
        // A file as the root.
        let one = scan(&root.join("src/app.py"), 100);
        assert_eq!(one.files.len(), 1);
        assert_eq!(one.files[0].rel, "app.py");
    }

    #[test]
    fn a_file_is_categorised_by_its_most_frequent_subject() {
        let c = |s: &str| claim(s, json!(false), None, None);
        assert_eq!(category(&[]), NEGATIVE);
        assert_eq!(category(&[c("tls/cert_verification")]), "tls");
        assert_eq!(
            category(&[
                c("jwt/algorithm"),
                c("secrets/api_key"),
                c("secrets.password")
            ]),
            "secrets"
        );
        // A tie goes to the first name.
        assert_eq!(category(&[c("tls/x"), c("auth/y")]), "auth");
        assert_eq!(subject_category(" App.TLS "), "app");
        assert_eq!(subject_category("weird name/x"), "weird-name");
        assert_eq!(subject_category("/"), "other");
    }

    #[test]
    fn the_sample_is_stratified_seeded_and_round_robin() {
        // 6 tls, 3 negative, 1 jwt.
        let items: Vec<(String, String)> = (0..6)
            .map(|i| ("tls".to_owned(), format!("t{i}")))
            .chain((0..3).map(|i| ("negative".to_owned(), format!("n{i}"))))
            .chain(std::iter::once(("jwt".to_owned(), "j0".to_owned())))
            .collect();
        let take = |n, seed| {
            stratified_sample(&items, n, seed, |x| x.0.as_str(), |x| x.1.as_str())
                .into_iter()
                .map(|i| items[i].1.clone())
                .collect::<Vec<_>>()
        };
        let four = take(4, 7);
        // Round-robin in name order: jwt, negative, tls, then negative again (jwt is spent).
        let cats: Vec<&str> = four.iter().map(|k| &k[..1]).collect();
        assert_eq!(cats, ["j", "n", "t", "n"]);
        // Deterministic, and a prefix of a larger sample with the same seed.
        assert_eq!(take(4, 7), four);
        assert_eq!(take(6, 7)[..4], four[..]);
        // Everything when n is large; nothing twice.
        let all = take(50, 7);
        assert_eq!(all.len(), 10);
        assert_eq!(all.iter().collect::<HashSet<_>>().len(), 10);
        // Another seed shuffles within categories.
        let orders: HashSet<Vec<String>> = (0..8u64).map(|s| take(10, s)).collect();
        assert!(orders.len() > 1);
        assert!(take(0, 7).is_empty());
    }

    #[test]
    fn fixtures_round_trip_any_content() {
        let content = "a = '''x'''\nb = \"\"\"y\"\"\"\nc = \"\\\\n\"\r\n\ttab\u{7}\n";
        let claims = vec![
            claim("tls/cert_verification", json!(false), Some(3), Some(0.9)),
            claim("tls/cert_verification", json!(false), Some(5), Some(0.95)),
            claim("tls/min_version", json!("1.0"), None, None),
            claim("x/n", json!(2), Some(1), Some(1.0)),
            claim("x/f", json!(0.5), None, Some(0.3)),
        ];
        let text = fixture_toml(&Fixture {
            id: "tls-gen-001".into(),
            category: "tls",
            language: "python",
            rel: "src/it's \"odd\".py",
            created: "2026-01-02",
            content,
            claims: &claims,
            by: "command/extract",
        });
        let v: toml::Table = toml::from_str(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(v["input"]["content"].as_str(), Some(content));
        let m = &v["metadata"];
        assert_eq!(m["id"].as_str(), Some("tls-gen-001"));
        assert_eq!(m["name"].as_str(), Some("src/it's \"odd\".py"));
        assert_eq!(m["source"].as_str(), Some("src/it's \"odd\".py"));
        assert_eq!(m["created"].as_str(), Some("2026-01-02"));
        let mc = v["expected"]["must_contain"].as_array().unwrap();
        assert_eq!(mc.len(), 4, "duplicates merged:\n{text}");
        assert_eq!(mc[0]["value"].as_bool(), Some(false));
        assert_eq!(
            mc[0]["rationale"].as_str(),
            Some(
                "auto-generated — requires human review (lines 3, 5, confidence 0.95, by command/extract)"
            )
        );
        assert_eq!(mc[1]["value"].as_str(), Some("1.0"));
        assert_eq!(
            mc[1]["rationale"].as_str(),
            Some("auto-generated — requires human review (by command/extract)")
        );
        assert_eq!(mc[2]["value"].as_integer(), Some(2));
        assert_eq!(mc[3]["value"].as_float(), Some(0.5));
        assert!(
            v["expected"]["must_not_contain"]
                .as_array()
                .unwrap()
                .is_empty()
        );
        assert_eq!(v["scoring"]["weight"].as_float(), Some(1.0));
        assert_eq!(v["scoring"]["min_confidence"].as_float(), Some(0.5));
    }

    #[test]
    fn a_negative_fixture_expects_nothing() {
        let text = fixture_toml(&Fixture {
            id: "negative-gen-002".into(),
            category: NEGATIVE,
            language: "go",
            rel: "main.go",
            created: "2026-01-02",
            content: "package main\n",
            claims: &[],
            by: "local/m",
        });
        let v: toml::Table = toml::from_str(&text).unwrap();
        assert!(v["expected"]["must_contain"].as_array().unwrap().is_empty());
        assert_eq!(v["metadata"]["category"].as_str(), Some("negative"));
    }

    #[test]
    fn generated_ids_are_numbered_per_category() {
        assert_eq!(generated_id("tls", 7), "tls-gen-007");
        assert_eq!(generated_number("tls-gen-007", "tls"), Some(7));
        assert_eq!(generated_number("tls-gen-1234", "tls"), Some(1234));
        assert_eq!(generated_number("tls-007", "tls"), None);
        assert_eq!(generated_number("jwt-gen-007", "tls"), None);
    }

    #[test]
    fn numbering_continues_after_the_ids_in_the_directory() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let write = |name: &str, id: &str| {
            std::fs::write(
                d.join(name),
                format!("[metadata]\nid = \"{id}\"\n[input]\ncontent = \"x\"\n"),
            )
            .unwrap();
        };
        assert_eq!(
            highest_generated(&d.join("none"), "tls", &HashSet::new()),
            0
        );
        write("a.toml", "tls-gen-004");
        write("b.toml", "tls-gen-012");
        write("c.toml", "tls-001");
        write("d.toml", "jwt-gen-099");
        std::fs::write(d.join("e.toml"), "not = [toml").unwrap();
        std::fs::write(d.join("f.txt"), "[metadata]\nid = \"tls-gen-500\"\n").unwrap();
        assert_eq!(highest_generated(d, "tls", &HashSet::new()), 12);
        // A file about to be replaced gives up its id.
        let replaced = HashSet::from([d.join("b.toml")]);
        assert_eq!(highest_generated(d, "tls", &replaced), 4);
    }

    #[test]
    fn the_readme_lists_the_batch() {
        let listed = vec![Listed {
            file: "tls/a-py.toml".into(),
            id: "tls-gen-001".into(),
            category: "tls".into(),
            language: "python".into(),
            source: "a|b.py".into(),
            claims: 2,
        }];
        let r = readme(&Batch {
            run_id: "RUN",
            suite: "claims-security",
            by: "local/m",
            created: "2026-01-02",
            seed: 7,
            scanned: 3,
            listed: &listed,
        });
        assert!(r.contains("| `tls/a-py.toml` | tls-gen-001 | tls | python | `a\\|b.py` | 2 |"));
        assert!(r.contains("## Review workflow"));
        assert!(r.contains("run `RUN`"));
    }
}
