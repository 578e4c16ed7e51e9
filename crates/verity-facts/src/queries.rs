//! Questions generated from facts (seed 002's `generateQueries`, extended): where a symbol is
//! defined, what a file imports from a module, what a file exports, whether one function calls
//! another (with sampled negatives), what a type extends or implements, what a function returns
//! where the type is written, and which files a commit changes.
//!
//! Pure and deterministic: the same facts, options and seed give the same tasks in the same
//! order, and a task's id depends only on its repository, relation and subject, so ids are
//! stable across runs and across extractions that add or remove other facts.
//!
//! Every base question belongs to a **pattern** — `relation/kind/family` (for example
//! `defined_in/function/where`): the relation, the kind of its subject and a family of templates
//! that phrase it. A base question is asked 3–5 times, each a template of its family (the
//! tasks' `metadata.paraphrase_of` names the base question, `metadata.paraphrase` the
//! template's number), so a group scorer can check the answers agree.
//!
//! Sampling is stratified by pattern: each pattern keeps at most `per_pattern` base questions
//! (ranked by a hash of the seed and the question's id, so a question's selection does not depend
//! on the others), and the overall cap takes patterns round-robin.
//!
//! Unusable facts are skipped (and counted as not queryable in [`Coverage`]):
//! - facts in generated or vendored files (`dist/`, `build/`, `node_modules/`, `vendor/`,
//!   `target/`, `*.d.ts`, `*.min.js`, `*_pb2.py`, `*.pb.go`, a path segment containing
//!   `generated`);
//! - a symbol whose name (or `Container.name`) names more than one definition: the question
//!   would have more than one right answer;
//! - calls made at module level (no function to name as the caller);
//! - anonymous or synthetic names (empty, `<…>`, `default`, or a single character).
//!
//! Tests are real code whose facts are as checkable as any, so test files are kept.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::schema::{Facts, InheritanceKind, Symbol, SymbolKind};

/// What [`generate`] samples.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueryOptions {
    /// Base questions kept per pattern (each asked 3–5 times).
    pub per_pattern: usize,
    /// Base questions kept overall (patterns taken round-robin).
    pub max: usize,
    /// Ranks the questions within a pattern and picks each one's paraphrases.
    pub seed: u64,
}

impl Default for QueryOptions {
    fn default() -> QueryOptions {
        QueryOptions {
            per_pattern: 5,
            max: 400,
            seed: 0,
        }
    }
}

/// One generated task, in the shape `verity corpus from-facts` writes (one JSON object per line).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Query {
    pub id: String,
    pub input: String,
    pub category: String,
    pub metadata: Map<String, Value>,
    pub expect: Map<String, Value>,
}

/// The seed's coverage metrics over the facts given to [`generate`].
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Coverage {
    /// Facts of the kinds a relation asks about: symbols, inheritance, imports, exports, calls,
    /// commits.
    pub facts: usize,
    /// Of those, how many at least one pattern can ask about (before any cap).
    pub queryable: usize,
    /// `queryable / facts` (1.0 when there are no facts).
    pub fact_coverage: f64,
    /// Per fact kind: (facts, queryable).
    pub by_kind: BTreeMap<String, KindCoverage>,
    /// Facts found in generated or vendored files ([`is_generated`]): not the repository's
    /// own source, so left out of `facts` (and never asked about).
    pub generated: usize,
    /// Written types of variables, fields and parameters: no relation asks about them, so they
    /// are reported apart and left out of `facts`.
    pub types_not_asked: usize,
    /// Repositories with at least one task.
    pub repositories: usize,
    /// Distinct patterns with at least one task.
    pub patterns: usize,
    /// Distinct patterns any fact could have filled (before the caps).
    pub patterns_available: usize,
    /// Base questions kept, and tasks written (base questions × paraphrases).
    pub base_queries: usize,
    pub tasks: usize,
    /// Base questions kept per relation.
    pub by_relation: BTreeMap<String, usize>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct KindCoverage {
    pub facts: usize,
    pub queryable: usize,
}

/// The tasks per repository (in a stable order) and the coverage metrics.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Generated {
    pub tasks: BTreeMap<String, Vec<Query>>,
    pub coverage: Coverage,
}

/// The target of the coverage metrics (seed 002).
pub const TARGET_FACT_COVERAGE: f64 = 0.8;
pub const TARGET_REPOSITORIES: usize = 5;
pub const TARGET_PATTERNS: usize = 50;

/// The instruction every question ends with.
pub const CITE: &str =
    "Cite the file and line range as path:start-end and name identifiers in backticks.";

/// A candidate base question before sampling.
#[derive(Clone, Debug)]
struct Base {
    repo: String,
    relation: &'static str,
    /// The subject's kind (`function`, `named`, `positive`…): the pattern's middle part.
    kind: String,
    /// The pattern's template family.
    family: &'static str,
    id: String,
    /// Values the templates fill in: `repo`, `subject`, `object`, `kind`.
    fill: BTreeMap<&'static str, String>,
    expect: Value,
}

impl Base {
    fn pattern(&self) -> String {
        format!("{}/{}/{}", self.relation, self.kind, self.family)
    }
}

/// Generates the questions about every repository in `facts`.
pub fn generate(facts: &[Facts], opts: &QueryOptions) -> Generated {
    let mut coverage = Coverage::default();
    let mut candidates: Vec<Base> = Vec::new();
    let mut repos_seen = BTreeSet::new();
    for f in facts {
        repos_seen.insert(f.repo.name.clone());
        candidates.extend(candidates_of(f, opts.seed, &mut coverage));
    }
    coverage.fact_coverage = if coverage.facts == 0 {
        1.0
    } else {
        coverage.queryable as f64 / coverage.facts as f64
    };

    // Stratify: per pattern, rank by hash(seed, id) and keep per_pattern.
    let mut by_pattern: BTreeMap<String, Vec<Base>> = BTreeMap::new();
    for b in candidates {
        by_pattern.entry(b.pattern()).or_default().push(b);
    }
    coverage.patterns_available = by_pattern.len();
    for list in by_pattern.values_mut() {
        list.sort_by_cached_key(|b| (rank(opts.seed, &b.id), b.id.clone()));
        list.dedup_by(|a, b| a.id == b.id);
        list.truncate(opts.per_pattern);
    }
    // Overall cap: round-robin over the patterns in name order.
    let mut kept: Vec<Base> = Vec::new();
    let mut queues: Vec<std::collections::VecDeque<Base>> =
        by_pattern.into_values().map(Into::into).collect();
    while kept.len() < opts.max && queues.iter().any(|q| !q.is_empty()) {
        for q in &mut queues {
            if kept.len() >= opts.max {
                break;
            }
            if let Some(b) = q.pop_front() {
                kept.push(b);
            }
        }
    }
    kept.sort_by(|a, b| (&a.repo, &a.id).cmp(&(&b.repo, &b.id)));

    let mut patterns = BTreeSet::new();
    let mut out: BTreeMap<String, Vec<Query>> = BTreeMap::new();
    for b in &kept {
        patterns.insert(b.pattern());
        *coverage
            .by_relation
            .entry(b.relation.to_string())
            .or_default() += 1;
        let tasks = out.entry(b.repo.clone()).or_default();
        tasks.extend(paraphrases(b, opts.seed));
    }
    coverage.repositories = out.len();
    coverage.patterns = patterns.len();
    coverage.base_queries = kept.len();
    coverage.tasks = out.values().map(Vec::len).sum();
    Generated {
        tasks: out,
        coverage,
    }
}

/// A 64-bit rank of `id` under `seed`.
fn rank(seed: u64, id: &str) -> u64 {
    let mut h = blake3::Hasher::new();
    h.update(&seed.to_le_bytes());
    h.update(id.as_bytes());
    let bytes = h.finalize();
    let mut eight = [0u8; 8];
    eight.copy_from_slice(&bytes.as_bytes()[..8]);
    u64::from_le_bytes(eight)
}

/// Is `path` generated or vendored code?
pub fn is_generated(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    let segments: Vec<&str> = lower.split('/').collect();
    let dir_hit = segments[..segments.len().saturating_sub(1)]
        .iter()
        .any(|s| {
            matches!(
                *s,
                "dist" | "build" | "node_modules" | "vendor" | "target" | "out" | "__pycache__"
            )
        });
    dir_hit
        || segments.iter().any(|s| s.contains("generated"))
        || lower.ends_with(".d.ts")
        || lower.ends_with(".min.js")
        || lower.ends_with("_pb2.py")
        || lower.ends_with(".pb.go")
}

/// A name a question can use: not anonymous, synthetic or a single character.
fn usable_name(name: &str) -> bool {
    let n = name.trim();
    n.chars().count() > 1
        && !n.starts_with('<')
        && n != "default"
        && !n.contains(char::is_whitespace)
}

/// How a kind reads in a question (`type alias`, not `type_alias`).
fn kind_words(k: &str) -> String {
    k.replace('_', " ")
}

/// An id segment: the raw text when it is made of safe characters, else a slug plus a hash.
fn id_part(raw: &str) -> String {
    let slug: String = raw
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if slug == raw && !slug.is_empty() {
        slug
    } else {
        let h = blake3::hash(raw.as_bytes()).to_hex();
        let slug = slug.trim_matches('_');
        let short: String = slug.chars().take(60).collect();
        format!("{short}-{}", &h[..8])
    }
}

/// Counts one fact of `kind` found in `file`. Facts of generated or vendored files (`dist/`,
/// `*.d.ts`, …) are not the repository's source: they count in `generated`, not in `facts`.
fn bump(c: &mut Coverage, kind: &str, file: Option<&str>, queryable: bool) {
    if file.is_some_and(is_generated) {
        c.generated += 1;
        return;
    }
    let e = c.by_kind.entry(kind.to_string()).or_default();
    e.facts += 1;
    c.facts += 1;
    if queryable {
        e.queryable += 1;
        c.queryable += 1;
    }
}

/// Every candidate base question about one repository; counts its facts into `cov`.
fn candidates_of(f: &Facts, seed: u64, cov: &mut Coverage) -> Vec<Base> {
    let repo = f.repo.name.clone();
    let mut out = Vec::new();
    let base = |relation: &'static str,
                kind: String,
                key: &str,
                fill: Vec<(&'static str, String)>,
                expect: Value| {
        let family = family_of(relation, &kind, seed, key);
        let mut map: BTreeMap<&'static str, String> = fill.into_iter().collect();
        map.insert("repo", repo.clone());
        Base {
            repo: repo.clone(),
            relation,
            kind: kind.clone(),
            family,
            id: format!("{repo}/{relation}/{kind}/{}", id_part(key)),
            fill: map,
            expect,
        }
    };

    // How many definitions each name (bare and qualified) has, outside generated code.
    let mut defs: HashMap<String, usize> = HashMap::new();
    for s in f.symbols.iter().filter(|s| !is_generated(&s.file)) {
        *defs.entry(s.name.clone()).or_default() += 1;
        if s.container.is_some() {
            *defs.entry(s.qualified()).or_default() += 1;
        }
    }
    // The name a question uses for a symbol: bare when unique, else qualified when unique.
    let subject_of = |s: &Symbol| -> Option<String> {
        if !usable_name(&s.name) || is_generated(&s.file) {
            return None;
        }
        if defs.get(&s.name) == Some(&1) {
            return Some(s.name.clone());
        }
        let q = s.qualified();
        (s.container.is_some() && defs.get(&q) == Some(&1)).then_some(q)
    };

    // defined_in, and returns.
    for s in &f.symbols {
        let subject = subject_of(s);
        bump(cov, "symbols", Some(&s.file), subject.is_some());
        let Some(subject) = subject else { continue };
        let kind = s.kind.name().to_string();
        out.push(base(
            "defined_in",
            kind.clone(),
            &subject,
            vec![("subject", subject.clone()), ("kind", kind_words(&kind))],
            json!({"citations": {"relation": "defined_in", "subject": subject,
                   "truth": {"file": s.file, "start_line": s.start_line, "end_line": s.end_line,
                             "kind": kind}}}),
        ));
        if s.kind.is_callable()
            && let Some(ty) = s
                .return_type
                .as_deref()
                .map(str::trim)
                .filter(|t| !t.is_empty())
        {
            bump(cov, "return_types", Some(&s.file), true);
            out.push(base(
                "returns",
                kind.clone(),
                &subject,
                vec![("subject", subject.clone()), ("kind", kind_words(&kind))],
                json!({"citations": {"relation": "returns", "subject": subject,
                       "truth": {"type": ty}}}),
            ));
        } else if s.kind.is_callable() && s.return_type.is_some() {
            bump(cov, "return_types", Some(&s.file), false);
        }
    }

    // imports: one question per (file, module), the symbols of every statement merged.
    let mut imports: BTreeMap<(String, String), (BTreeSet<String>, Option<String>)> =
        BTreeMap::new();
    for i in &f.imports {
        let ok = !is_generated(&i.file) && !i.module.trim().is_empty();
        bump(cov, "imports", Some(&i.file), ok);
        if !ok {
            continue;
        }
        let e = imports
            .entry((i.file.clone(), i.module.clone()))
            .or_insert_with(|| (BTreeSet::new(), i.resolved.clone()));
        e.0.extend(i.symbols.iter().cloned());
        if e.1.is_none() {
            e.1 = i.resolved.clone();
        }
    }
    for ((file, module), (symbols, resolved)) in imports {
        let kind = if symbols.is_empty() {
            "module"
        } else {
            "named"
        };
        let local = if resolved.is_some() {
            "local"
        } else {
            "external"
        };
        let symbols: Vec<String> = symbols.into_iter().collect();
        out.push(base(
            "imports",
            format!("{kind}_{local}"),
            &format!("{file}->{module}"),
            vec![("subject", file.clone()), ("object", module.clone())],
            json!({"citations": {"relation": "imports", "subject": file, "object": module,
                   "truth": {"symbols": symbols, "resolved": resolved}}}),
        ));
    }

    // exports: one question per file.
    let mut exports: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for e in &f.exports {
        let ok = !is_generated(&e.file) && usable_name(&e.name);
        bump(cov, "exports", Some(&e.file), ok);
        if ok {
            exports
                .entry(e.file.clone())
                .or_default()
                .insert(e.name.clone());
        }
    }
    for (file, names) in exports {
        let lang = crate::schema::Language::of_path(&file)
            .map(|l| l.name())
            .unwrap_or("other");
        let names: Vec<String> = names.into_iter().collect();
        out.push(base(
            "exports",
            lang.to_string(),
            &file,
            vec![("subject", file.clone())],
            json!({"citations": {"relation": "exports", "subject": file,
                   "truth": {"symbols": names}}}),
        ));
    }

    // calls: positives from the call graph, negatives sampled among the callables.
    let callable: Vec<&Symbol> = f
        .symbols
        .iter()
        .filter(|s| s.kind.is_callable() && subject_of(s).is_some())
        .collect();
    let kind_by_name: HashMap<String, SymbolKind> = callable
        .iter()
        .flat_map(|s| [(s.name.clone(), s.kind), (s.qualified(), s.kind)])
        .collect();
    // caller (as written in the facts) -> callees (last segments).
    let mut graph: HashMap<String, HashSet<String>> = HashMap::new();
    let mut positives: BTreeSet<(String, String)> = BTreeSet::new();
    for c in &f.calls {
        graph
            .entry(c.caller.clone())
            .or_default()
            .insert(c.callee.clone());
        // The caller's bare name too, so lookups by either spelling agree.
        if let Some((_, bare)) = c.caller.rsplit_once('.') {
            graph
                .entry(bare.to_string())
                .or_default()
                .insert(c.callee.clone());
        }
        let caller_ok = usable_name(&c.caller)
            && !is_generated(&c.file)
            && (defs.get(&c.caller) == Some(&1)
                || c.caller
                    .rsplit_once('.')
                    .is_some_and(|(_, b)| defs.get(b) == Some(&1)));
        let ok = caller_ok && usable_name(&c.callee);
        bump(cov, "calls", Some(&c.file), ok);
        if ok {
            positives.insert((c.caller.clone(), c.callee.clone()));
        }
    }
    for (caller, callee) in &positives {
        let kind = match kind_by_name.get(caller) {
            Some(SymbolKind::Method) => "method",
            _ => "function",
        };
        // A callee the repository defines, or one from elsewhere (a builtin, a dependency).
        let whose = if defs.contains_key(callee) {
            "local"
        } else {
            "external"
        };
        out.push(base(
            "calls",
            format!("positive_{kind}_{whose}"),
            &format!("{caller}->{callee}"),
            vec![("subject", caller.clone()), ("object", callee.clone())],
            json!({"citations": {"relation": "calls", "subject": caller, "object": callee,
                   "truth": {"value": true}}}),
        ));
    }
    let calls_of = |name: &str| -> HashSet<String> {
        let mut set = graph.get(name).cloned().unwrap_or_default();
        if let Some((_, bare)) = name.rsplit_once('.') {
            set.extend(graph.get(bare).cloned().unwrap_or_default());
        }
        set
    };
    // Negatives: as many as positives, each a pair of callables with no call either way, even
    // through one intermediate function.
    let wanted = positives.len();
    if callable.len() >= 2 && wanted > 0 {
        let names: Vec<String> = callable.iter().filter_map(|s| subject_of(s)).collect();
        let mut ranked: Vec<(u64, usize)> = names
            .iter()
            .enumerate()
            .map(|(i, n)| (rank(seed ^ 0x6e65_6761, n), i))
            .collect();
        ranked.sort();
        let last = |n: &str| n.rsplit('.').next().unwrap_or(n).to_string();
        let reaches = |a: &str, b: &str| -> bool {
            let direct = calls_of(a);
            let target = last(b);
            direct.contains(&target) || direct.iter().any(|mid| calls_of(mid).contains(&target))
        };
        let mut taken = 0;
        'outer: for (k, &(_, i)) in ranked.iter().enumerate() {
            // Pair each ranked callable with the next few ranked ones.
            for &(_, j) in ranked.iter().skip(k + 1).take(8) {
                if taken >= wanted {
                    break 'outer;
                }
                let (a, b) = (&names[i], &names[j]);
                if last(a) == last(b) || reaches(a, b) || reaches(b, a) {
                    continue;
                }
                let kind = match kind_by_name.get(a) {
                    Some(SymbolKind::Method) => "method",
                    _ => "function",
                };
                out.push(base(
                    "calls",
                    format!("negative_{kind}"),
                    &format!("{a}->{b}"),
                    vec![("subject", a.clone()), ("object", b.clone())],
                    json!({"citations": {"relation": "calls", "subject": a, "object": b,
                           "truth": {"value": false}}}),
                ));
                taken += 1;
                continue 'outer;
            }
        }
    }

    // extends / implements: one question per (relation, child).
    let sym_kind: HashMap<&str, SymbolKind> = f
        .symbols
        .iter()
        .filter(|s| s.kind.is_type())
        .map(|s| (s.name.as_str(), s.kind))
        .collect();
    let mut parents: BTreeMap<(InheritanceKind, String), BTreeSet<String>> = BTreeMap::new();
    for i in &f.inherits {
        let ok = !is_generated(&i.file)
            && usable_name(&i.child)
            && usable_name(&i.parent)
            && defs.get(&i.child).is_none_or(|n| *n == 1);
        bump(cov, "inherits", Some(&i.file), ok);
        if ok {
            parents
                .entry((i.kind, i.child.clone()))
                .or_default()
                .insert(i.parent.clone());
        }
    }
    for ((ik, child), ps) in parents {
        let relation = match ik {
            InheritanceKind::Extends => "extends",
            InheritanceKind::Implements => "implements",
        };
        let kind = sym_kind
            .get(child.as_str())
            .map(|k| k.name())
            .unwrap_or("type");
        let ps: Vec<String> = ps.into_iter().collect();
        out.push(base(
            relation,
            kind.to_string(),
            &child,
            vec![("subject", child.clone()), ("kind", kind_words(kind))],
            json!({"citations": {"relation": relation, "subject": child,
                   "truth": {"parents": ps}}}),
        ));
    }

    // changes: which files a commit changes.
    for c in &f.commits {
        let ok = !c.id.is_empty() && !c.files.is_empty();
        bump(cov, "commits", None, ok);
        if !ok {
            continue;
        }
        let short: String = c.id.chars().take(12).collect();
        let kind = if c.files.len() == 1 {
            "single"
        } else {
            "multi"
        };
        out.push(base(
            "changes",
            kind.to_string(),
            &short,
            vec![
                ("subject", short.clone()),
                ("object", c.summary.trim().to_string()),
            ],
            json!({"citations": {"relation": "changes", "subject": c.id,
                   "truth": {"files": c.files}}}),
        ));
    }

    cov.types_not_asked += f.types.len();
    out
}

/// The template families of a relation and kind, each a list of 5 templates. Placeholders:
/// `{repo}`, `{subject}`, `{object}`, `{kind}`.
fn families(relation: &str) -> &'static [(&'static str, [&'static str; 5])] {
    match relation {
        "defined_in" => &[
            (
                "cite",
                [
                    "Cite the definition of the {kind} `{subject}` in `{repo}` as path:start-end.",
                    "Give the path and line range of the {kind} `{subject}` in the repository `{repo}`.",
                    "In `{repo}`, which lines of which file hold the {kind} `{subject}`?",
                    "Name the file and the first and last lines of `{subject}`, a {kind} in `{repo}`.",
                    "Where does the {kind} `{subject}` start and end in the `{repo}` sources?",
                ],
            ),
            (
                "where",
                [
                    "In the repository `{repo}`, where is the {kind} `{subject}` defined?",
                    "Where in `{repo}` is the {kind} `{subject}` defined?",
                    "Which file of `{repo}` defines the {kind} `{subject}`, and on which lines?",
                    "Locate the definition of the {kind} `{subject}` in the `{repo}` codebase.",
                    "In `{repo}`, in which file and at which lines is `{subject}` (a {kind}) declared?",
                ],
            ),
            (
                "find",
                [
                    "I am reading `{repo}`. Find the source of the {kind} `{subject}`.",
                    "Show me where `{subject}` is implemented in `{repo}` (it is a {kind}).",
                    "In `{repo}`, what file contains the definition of `{subject}`?",
                    "Point me to the {kind} `{subject}` in the repository `{repo}`.",
                    "Where would I go in `{repo}` to read the code of the {kind} `{subject}`?",
                ],
            ),
        ],
        "imports" => &[
            (
                "cite",
                [
                    "Cite the line of `{subject}` in `{repo}` that imports from `{object}`, and list the imported names.",
                    "In the repository `{repo}`, quote how `{subject}` imports `{object}`: which names come in?",
                    "From `{object}`, which identifiers appear in the import list of `{repo}`'s `{subject}`?",
                    "Which imported names of `{subject}` (in `{repo}`) come from `{object}`? Give the line.",
                    "Find the import of `{object}` in the file `{subject}` of `{repo}` and name what it brings in.",
                ],
            ),
            (
                "what",
                [
                    "In the repository `{repo}`, what does the file `{subject}` import from `{object}`?",
                    "Which names does `{subject}` in `{repo}` import from the module `{object}`?",
                    "List what `{subject}` takes from `{object}` in `{repo}`.",
                    "In `{repo}`, what is imported from `{object}` by the file `{subject}`?",
                    "What does `{subject}` (repository `{repo}`) bring in from `{object}`?",
                ],
            ),
            (
                "dependency",
                [
                    "In `{repo}`, how does the file `{subject}` depend on `{object}`? Name what it imports.",
                    "Describe the import of `{object}` in `{subject}` of the repository `{repo}`.",
                    "The file `{subject}` in `{repo}` imports `{object}`: which symbols, and from which file?",
                    "What part of `{object}` does `{subject}` use in `{repo}`, according to its imports?",
                    "Explain the import statement for `{object}` in `{repo}`'s `{subject}`.",
                ],
            ),
        ],
        "exports" => &[
            (
                "cite",
                [
                    "Cite each export of `{subject}` in `{repo}` with its line.",
                    "In the repository `{repo}`, list with line numbers what `{subject}` exports.",
                    "Which names are exported from `{subject}` in `{repo}`, and where in the file?",
                    "Enumerate the public names of `{repo}`'s `{subject}`, citing their lines.",
                    "Give every exported identifier of the file `{subject}` in `{repo}`, each with path:line.",
                ],
            ),
            (
                "what",
                [
                    "In the repository `{repo}`, what does the file `{subject}` export?",
                    "Which names does `{subject}` in `{repo}` make public?",
                    "List the exports of `{subject}` in `{repo}`.",
                    "What is the public interface of the file `{subject}` in `{repo}`?",
                    "In `{repo}`, which symbols can other modules import from `{subject}`?",
                ],
            ),
            (
                "api",
                [
                    "I want to use `{subject}` from `{repo}`: what does it expose?",
                    "Name the symbols `{repo}`'s `{subject}` exports.",
                    "What can be imported from the file `{subject}` of `{repo}`?",
                    "Give the exported identifiers of `{subject}` (repository `{repo}`).",
                    "Which definitions in `{repo}`'s `{subject}` are visible outside the file?",
                ],
            ),
        ],
        "calls" => &[
            (
                "cite",
                [
                    "In `{repo}`, cite the line where `{subject}` calls `{object}`, or say that it does not.",
                    "Show the call of `{object}` inside `{subject}` in `{repo}` with its path:line, if there is one.",
                    "Does the body of `{subject}` in the repository `{repo}` contain `{object}(`? Cite the line if so.",
                    "Quote the place in `{repo}` where `{subject}` invokes `{object}`, or state there is none.",
                    "If `{subject}` calls `{object}` in `{repo}`, where? If not, say no.",
                ],
            ),
            (
                "does",
                [
                    "In the repository `{repo}`, does `{subject}` call `{object}`?",
                    "Does `{subject}` in `{repo}` invoke `{object}` directly?",
                    "In `{repo}`, is `{object}` called from within `{subject}`?",
                    "Answer yes or no, with the line if yes: does `{subject}` call `{object}` in `{repo}`?",
                    "In the `{repo}` codebase, is there a call to `{object}` inside `{subject}`?",
                ],
            ),
            (
                "relation",
                [
                    "What is the relationship between `{subject}` and `{object}` in `{repo}`: does the first call the second?",
                    "Trace `{subject}` in `{repo}`: does its body call `{object}`?",
                    "In `{repo}`, would executing `{subject}` directly call `{object}`?",
                    "Is `{object}` a callee of `{subject}` in the repository `{repo}`?",
                    "Check `{repo}`: does the code of `{subject}` contain a call to `{object}`?",
                ],
            ),
        ],
        "extends" => &[
            (
                "cite",
                [
                    "Cite the declaration of `{subject}` in `{repo}` and name what it extends.",
                    "In the repository `{repo}`, where is `{subject}` declared, and what is its parent type?",
                    "Give path:line of the {kind} `{subject}` in `{repo}` and the type it extends.",
                    "Quote the header of `{subject}` in `{repo}`: what does it inherit from?",
                    "Which type is named as the base in the declaration of `{subject}` in `{repo}`? Cite it.",
                ],
            ),
            (
                "what",
                [
                    "In the repository `{repo}`, what does the {kind} `{subject}` extend?",
                    "What is the parent of `{subject}` (a {kind}) in `{repo}`?",
                    "Which type does `{subject}` inherit from in `{repo}`?",
                    "In `{repo}`, name the base of the {kind} `{subject}`.",
                    "What does `{subject}` derive from in the `{repo}` codebase?",
                ],
            ),
            (
                "hierarchy",
                [
                    "Describe where `{subject}` sits in `{repo}`'s type hierarchy: what does it extend?",
                    "In `{repo}`, `{subject}` is a subtype of what?",
                    "Which supertype does the {kind} `{subject}` of `{repo}` have?",
                    "Looking at `{repo}`, what is `{subject}` built on by inheritance?",
                    "Give the superclass or supertype of `{subject}` in `{repo}`.",
                ],
            ),
        ],
        "implements" => &[
            (
                "cite",
                [
                    "Cite where `{subject}` implements each of its interfaces or traits in `{repo}`.",
                    "In the repository `{repo}`, give path:line for every implementation `{subject}` has, naming the interface or trait.",
                    "Which interfaces or traits does `{repo}`'s `{subject}` implement? Cite the lines.",
                    "Quote the lines of `{repo}` where `{subject}` is declared to implement something.",
                    "List, with citations, the traits or interfaces of the {kind} `{subject}` in `{repo}`.",
                ],
            ),
            (
                "what",
                [
                    "In the repository `{repo}`, which interfaces or traits does `{subject}` implement?",
                    "What does the {kind} `{subject}` in `{repo}` implement?",
                    "List the traits, interfaces or protocols `{subject}` implements in `{repo}`.",
                    "In `{repo}`, which contracts does `{subject}` fulfil?",
                    "Which interfaces are implemented by `{subject}` in the `{repo}` codebase?",
                ],
            ),
            (
                "conforms",
                [
                    "In `{repo}`, `{subject}` conforms to what?",
                    "Name every interface or trait that `{repo}`'s `{subject}` implements.",
                    "What abstract types does the {kind} `{subject}` of `{repo}` implement?",
                    "Looking at `{repo}`, which traits or interfaces have an implementation for `{subject}`?",
                    "Which implementations does `{subject}` provide in `{repo}`?",
                ],
            ),
        ],
        "returns" => &[
            (
                "cite",
                [
                    "Cite the signature of `{subject}` in `{repo}` and give its return type.",
                    "In the repository `{repo}`, quote the declaration of `{subject}`: what type does it return?",
                    "Give path:line of the {kind} `{subject}` in `{repo}` and its declared result type.",
                    "What return type annotation does `{subject}` carry in `{repo}`? Cite it.",
                    "Which type does the signature of `{repo}`'s `{subject}` promise to return? Cite the line.",
                ],
            ),
            (
                "type",
                [
                    "In the repository `{repo}`, what type does the {kind} `{subject}` return?",
                    "What is the return type of `{subject}` in `{repo}`?",
                    "In `{repo}`, what does `{subject}` return, as written in its signature?",
                    "Give the declared return type of the {kind} `{subject}` in `{repo}`.",
                    "What type of value comes back from `{subject}` in the `{repo}` codebase?",
                ],
            ),
            (
                "signature",
                [
                    "Show the signature of `{subject}` in `{repo}`: what does it return?",
                    "In `{repo}`, what is `{subject}`'s result type?",
                    "What does calling the {kind} `{subject}` of `{repo}` give back, by its type annotation?",
                    "Which type is written as the return of `{subject}` in `{repo}`?",
                    "According to its declaration in `{repo}`, what does `{subject}` return?",
                ],
            ),
        ],
        "changes" => &[
            (
                "cite",
                [
                    "Cite the files that commit `{subject}` (\"{object}\") of `{repo}` changed.",
                    "In `{repo}`, list with their paths the files the commit `{subject}` modified.",
                    "For `{repo}`'s commit \"{object}\" ({subject}), which paths changed?",
                    "Give the changed files of commit `{subject}` in the repository `{repo}`.",
                    "Which paths appear in the diff of `{repo}`'s commit `{subject}`?",
                ],
            ),
            (
                "files",
                [
                    "In the repository `{repo}`, which files does commit `{subject}` (\"{object}\") change?",
                    "Which files were modified by the commit `{subject}` in `{repo}`?",
                    "List the paths touched by `{repo}`'s commit `{subject}` (\"{object}\").",
                    "In `{repo}`, what did commit `{subject}` change? Name the files.",
                    "Which files of `{repo}` does the commit \"{object}\" ({subject}) touch?",
                ],
            ),
            (
                "history",
                [
                    "Looking at the git history of `{repo}`: which files changed in `{subject}`?",
                    "The commit `{subject}` of `{repo}` says \"{object}\". Which files did it edit?",
                    "In `{repo}`'s history, what files does `{subject}` add, modify or delete?",
                    "Name every file the `{repo}` commit `{subject}` changed.",
                    "What is the set of files changed by commit `{subject}` in `{repo}`?",
                ],
            ),
        ],
        _ => &[],
    }
}

/// The family a base question is phrased by: chosen by hash, so each pattern's families fill.
fn family_of(relation: &str, kind: &str, seed: u64, key: &str) -> &'static str {
    let fams = families(relation);
    if fams.is_empty() {
        return "default";
    }
    let r = rank(seed ^ 0x66_616d, &format!("{relation}/{kind}/{key}"));
    fams[(r % fams.len() as u64) as usize].0
}

/// The 3–5 paraphrase tasks of a base question.
fn paraphrases(b: &Base, seed: u64) -> Vec<Query> {
    let templates = families(b.relation)
        .iter()
        .find(|(name, _)| *name == b.family)
        .map(|(_, t)| t)
        .expect("the family was chosen from this relation's families");
    let r = rank(seed ^ 0x7061_7261, &b.id);
    let count = 3 + (r % 3) as usize;
    let start = ((r >> 8) % 5) as usize;
    let mut out = Vec::with_capacity(count);
    for k in 0..count {
        let idx = (start + k) % 5;
        let mut text = templates[idx].to_string();
        for (key, value) in &b.fill {
            text = text.replace(&format!("{{{key}}}"), value);
        }
        text.push(' ');
        text.push_str(CITE);
        let n = idx + 1;
        let mut metadata = Map::new();
        metadata.insert("repo".into(), b.repo.clone().into());
        metadata.insert("pattern".into(), b.pattern().into());
        metadata.insert("paraphrase_of".into(), b.id.clone().into());
        metadata.insert("paraphrase".into(), n.into());
        out.push(Query {
            id: format!("{}~p{n}", b.id),
            input: text,
            category: b.relation.to_string(),
            metadata,
            expect: b.expect.as_object().cloned().unwrap_or_default(),
        });
    }
    out
}

/// The tasks as JSON Lines (one task per line, each ending with a newline).
pub fn to_jsonl(tasks: &[Query]) -> String {
    let mut s = String::new();
    for t in tasks {
        s.push_str(&serde_json::to_string(t).expect("a task serializes"));
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::{
        Call, Commit, Export, FileFact, Import, Inheritance, Language, RepoInfo, TypeFact, TypeRole,
    };

    fn sym(name: &str, kind: SymbolKind, file: &str, line: u32, container: Option<&str>) -> Symbol {
        Symbol {
            name: name.into(),
            kind,
            file: file.into(),
            start_line: line,
            end_line: line + 4,
            container: container.map(Into::into),
            signature: None,
            return_type: None,
            exported: true,
        }
    }

    fn call(caller: &str, callee: &str, file: &str, line: u32) -> Call {
        Call {
            caller: caller.into(),
            callee: callee.into(),
            file: file.into(),
            line,
        }
    }

    /// A small repository with every kind of fact.
    pub(crate) fn demo(name: &str) -> Facts {
        let files = [
            "src/a.ts",
            "src/b.ts",
            "src/gen/generated.ts",
            "tests/a.test.ts",
        ];
        let mut f = Facts {
            repo: RepoInfo {
                name: name.into(),
                extractor: "test".into(),
                ..RepoInfo::default()
            },
            files: files
                .iter()
                .map(|p| FileFact {
                    path: (*p).into(),
                    language: Language::of_path(p),
                    lines: 100,
                    bytes: 1000,
                    hash: format!("h{p}"),
                    identifiers: vec![],
                })
                .collect(),
            ..Facts::default()
        };
        let mut parse = sym("parse", SymbolKind::Function, "src/a.ts", 10, None);
        parse.return_type = Some("Ast".into());
        f.symbols = vec![
            parse,
            sym("lex", SymbolKind::Function, "src/a.ts", 20, None),
            sym("emit", SymbolKind::Function, "src/b.ts", 1, None),
            sym("render", SymbolKind::Function, "src/b.ts", 30, None),
            sym("Parser", SymbolKind::Class, "src/a.ts", 40, None),
            sym("run", SymbolKind::Method, "src/a.ts", 42, Some("Parser")),
            sym("run", SymbolKind::Method, "src/b.ts", 50, Some("Printer")),
            sym("Printer", SymbolKind::Class, "src/b.ts", 48, None),
            sym("Node", SymbolKind::Interface, "src/b.ts", 70, None),
            sym(
                "helper",
                SymbolKind::Function,
                "src/gen/generated.ts",
                1,
                None,
            ),
            sym("dup", SymbolKind::Function, "src/a.ts", 80, None),
            sym("dup", SymbolKind::Function, "src/b.ts", 80, None),
        ];
        f.inherits = vec![Inheritance {
            child: "Parser".into(),
            parent: "Base".into(),
            kind: InheritanceKind::Extends,
            file: "src/a.ts".into(),
            line: 40,
        }];
        f.imports = vec![Import {
            file: "src/a.ts".into(),
            module: "./b".into(),
            resolved: Some("src/b.ts".into()),
            symbols: vec!["emit".into()],
            line: 1,
        }];
        f.exports = vec![Export {
            file: "src/a.ts".into(),
            name: "parse".into(),
            line: 10,
        }];
        f.calls = vec![
            call("parse", "lex", "src/a.ts", 11),
            call("Parser.run", "parse", "src/a.ts", 43),
            call("lex", "emit", "src/a.ts", 21),
            call("<module>", "parse", "src/a.ts", 99),
        ];
        f.types = vec![TypeFact {
            identifier: "x".into(),
            ty: "number".into(),
            role: TypeRole::Variable,
            container: None,
            file: "src/a.ts".into(),
            line: 3,
        }];
        f.commits = vec![Commit {
            id: "0123456789abcdef0123".into(),
            summary: "Add the parser".into(),
            date: None,
            files: vec!["src/a.ts".into(), "src/b.ts".into()],
        }];
        f.normalize();
        f
    }

    fn all(g: &Generated) -> Vec<&Query> {
        g.tasks.values().flatten().collect()
    }

    #[test]
    fn every_relation_is_asked_with_paraphrases() {
        let g = generate(&[demo("demo")], &QueryOptions::default());
        let tasks = all(&g);
        let relations: BTreeSet<&str> = tasks.iter().map(|t| t.category.as_str()).collect();
        for r in [
            "defined_in",
            "imports",
            "exports",
            "calls",
            "extends",
            "returns",
            "changes",
        ] {
            assert!(relations.contains(r), "{r} missing: {relations:?}");
        }
        // Paraphrase groups have 3–5 members with distinct ids and inputs.
        let mut groups: BTreeMap<&str, Vec<&Query>> = BTreeMap::new();
        for t in &tasks {
            groups
                .entry(t.metadata["paraphrase_of"].as_str().unwrap())
                .or_default()
                .push(t);
        }
        for (base, members) in &groups {
            assert!(
                (3..=5).contains(&members.len()),
                "{base}: {}",
                members.len()
            );
            let inputs: BTreeSet<&str> = members.iter().map(|t| t.input.as_str()).collect();
            assert_eq!(inputs.len(), members.len(), "{base}");
            for m in members {
                assert!(m.id.starts_with(&format!("{base}~p")), "{}", m.id);
                assert!(m.input.ends_with(CITE));
                assert_eq!(m.metadata["repo"], "demo");
            }
        }
        let ids: BTreeSet<&str> = tasks.iter().map(|t| t.id.as_str()).collect();
        assert_eq!(ids.len(), tasks.len(), "ids are unique");
        // Calls to a function the repository defines and to one it does not are apart.
        let kinds: BTreeSet<&str> = tasks
            .iter()
            .filter_map(|t| t.metadata["pattern"].as_str())
            .filter_map(|p| p.strip_prefix("calls/"))
            .map(|p| p.rsplit_once('/').unwrap().0)
            .collect();
        assert!(kinds.contains("positive_function_local"), "{kinds:?}");
        assert!(kinds.contains("positive_method_local"), "{kinds:?}");
        assert!(kinds.contains("negative_function") || kinds.contains("negative_method"));
    }

    #[test]
    fn the_task_shape_matches_the_interface() {
        let g = generate(&[demo("tinyq")], &QueryOptions::default());
        let t = all(&g)
            .into_iter()
            .find(|t| t.id.starts_with("tinyq/defined_in/function/parse~"))
            .expect("parse is asked about");
        let v = serde_json::to_value(t).unwrap();
        assert_eq!(v["category"], "defined_in");
        assert_eq!(
            v["metadata"]["paraphrase_of"],
            "tinyq/defined_in/function/parse"
        );
        let truth = &v["expect"]["citations"]["truth"];
        assert_eq!(v["expect"]["citations"]["subject"], "parse");
        assert_eq!(truth["file"], "src/a.ts");
        assert_eq!(truth["start_line"], 10);
        assert_eq!(truth["end_line"], 14);
        assert_eq!(truth["kind"], "function");
        assert!(
            t.input.contains("`parse`") && t.input.contains("`tinyq`"),
            "{}",
            t.input
        );
        assert!(
            t.metadata["pattern"]
                .as_str()
                .unwrap()
                .starts_with("defined_in/function/")
        );
    }

    #[test]
    fn unusable_facts_are_skipped_and_counted() {
        let g = generate(&[demo("demo")], &QueryOptions::default());
        let tasks = all(&g);
        let subjects: BTreeSet<String> = tasks
            .iter()
            .map(|t| {
                t.expect["citations"]["subject"]
                    .as_str()
                    .unwrap()
                    .to_string()
            })
            .collect();
        // Generated code and ambiguous names are not asked about; a method name defined twice
        // is asked with its container.
        assert!(!subjects.contains("helper"));
        assert!(!subjects.contains("dup"));
        assert!(!subjects.contains("run"));
        assert!(subjects.contains("Parser.run"));
        assert!(!subjects.contains("<module>"));
        let c = &g.coverage;
        // 11 symbols of the repository's own source (2 skipped) and 1 in generated code, left
        // out of the count; 1 return type, 1 inherits, 1 import, 1 export, 4 calls (1 skipped),
        // 1 commit.
        assert_eq!(c.facts, 20, "{c:?}");
        assert_eq!(c.generated, 1, "{c:?}");
        assert_eq!(c.queryable, 17, "{c:?}");
        assert_eq!(c.by_kind["symbols"].queryable, 9);
        assert_eq!(c.types_not_asked, 1);
        assert!((c.fact_coverage - 17.0 / 20.0).abs() < 1e-9);
    }

    #[test]
    fn negatives_never_call_each_other_even_through_one_hop() {
        let g = generate(&[demo("demo")], &QueryOptions::default());
        let negatives: Vec<&Query> = all(&g)
            .into_iter()
            .filter(|t| t.expect["citations"]["truth"]["value"] == false)
            .collect();
        assert!(!negatives.is_empty());
        for t in negatives {
            let c = &t.expect["citations"];
            let pair = (
                c["subject"].as_str().unwrap(),
                c["object"].as_str().unwrap(),
            );
            // parse -> lex -> emit: parse and emit are one hop apart, never a negative.
            for bad in [
                ("parse", "lex"),
                ("parse", "emit"),
                ("lex", "emit"),
                ("emit", "parse"),
            ] {
                assert_ne!(pair, bad, "{}", t.id);
                assert_ne!((pair.1, pair.0), bad, "{}", t.id);
            }
        }
    }

    #[test]
    fn deterministic_stable_and_capped() {
        let facts = [demo("a"), demo("b")];
        let opts = QueryOptions::default();
        let one = generate(&facts, &opts);
        assert_eq!(one, generate(&facts, &opts));
        assert_eq!(one.coverage.repositories, 2);
        // A repository's ids do not depend on the other repositories.
        let alone = generate(&facts[..1], &opts);
        assert_eq!(alone.tasks["a"], one.tasks["a"]);
        // Without a binding cap, another seed asks the same questions (the sampled negatives
        // aside), phrased by other templates.
        let wide = QueryOptions {
            per_pattern: 1000,
            ..opts.clone()
        };
        let bases = |g: &Generated| -> BTreeSet<String> {
            all(g)
                .iter()
                .map(|t| t.metadata["paraphrase_of"].as_str().unwrap().to_string())
                .filter(|id| !id.contains("/negative_"))
                .collect()
        };
        let (x, y) = (
            generate(&facts, &wide),
            generate(
                &facts,
                &QueryOptions {
                    seed: 7,
                    ..wide.clone()
                },
            ),
        );
        assert_eq!(bases(&x), bases(&y));
        assert_ne!(x, y);
        // Caps: one per pattern, then at most 3 overall, round-robin across patterns.
        let capped = generate(
            &facts,
            &QueryOptions {
                per_pattern: 1,
                max: 3,
                seed: 0,
            },
        );
        assert_eq!(capped.coverage.base_queries, 3);
        assert_eq!(capped.coverage.patterns, 3);
        let per = generate(
            &facts,
            &QueryOptions {
                per_pattern: 1,
                max: 10_000,
                seed: 0,
            },
        );
        assert_eq!(per.coverage.base_queries, per.coverage.patterns_available);
    }

    #[test]
    fn generated_paths_and_ids() {
        assert!(is_generated("dist/index.js"));
        assert!(is_generated("pkg/api.pb.go"));
        assert!(is_generated("src/types.d.ts"));
        assert!(is_generated("src/generated/x.rs"));
        assert!(!is_generated("src/distance.ts"));
        assert!(!is_generated("tests/test_build.py"));
        assert_eq!(id_part("Parser.run"), "Parser.run");
        let p = id_part("src/a.ts->./b");
        assert!(p.starts_with("src_a.ts-_.") && p.len() > 12, "{p}");
        assert_ne!(id_part("a/b"), id_part("a b"));
    }

    #[test]
    fn jsonl_is_one_task_per_line() {
        let g = generate(&[demo("demo")], &QueryOptions::default());
        let text = to_jsonl(&g.tasks["demo"]);
        assert_eq!(text.lines().count(), g.tasks["demo"].len());
        for line in text.lines() {
            let v: Value = serde_json::from_str(line).unwrap();
            assert!(v["id"].is_string() && v["input"].is_string());
        }
    }
}
