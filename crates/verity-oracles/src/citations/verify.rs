//! Checking what an answer cites and claims against a repository's facts: V1 (files, line
//! ranges, identifiers exist) and V2 (structural claims hold), with the seed's failure types.

use serde_json::{Map, Value};
use verity_catalog::citations::Mode;
use verity_facts::{FactsIndex, FileFact, InheritanceKind};
use verity_model::Task;

use super::parse::{
    Claim, FileCite, Origin, Parsed, ReadAs, json_object, parse_json, parse_text, yes_no,
};

/// The criteria, in the catalog's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Criterion {
    FilesExist,
    LinesValid,
    IdentifiersFound,
    StructureCorrect,
}

impl Criterion {
    pub const ALL: [Criterion; 4] = [
        Criterion::FilesExist,
        Criterion::LinesValid,
        Criterion::IdentifiersFound,
        Criterion::StructureCorrect,
    ];

    pub fn name(self) -> &'static str {
        let c = verity_catalog::citations::CRITERIA;
        match self {
            Criterion::FilesExist => c[0],
            Criterion::LinesValid => c[1],
            Criterion::IdentifiersFound => c[2],
            Criterion::StructureCorrect => c[3],
        }
    }
}

/// The seed's failure types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failure {
    MissingFile,
    InvalidLine,
    MissingIdentifier,
    WrongStructure,
}

impl Failure {
    pub fn as_str(self) -> &'static str {
        match self {
            Failure::MissingFile => "missing_file",
            Failure::InvalidLine => "invalid_line",
            Failure::MissingIdentifier => "missing_identifier",
            Failure::WrongStructure => "wrong_structure",
        }
    }
}

/// The verdict on one citation or claim.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    Verified(String),
    Failed(Failure, String),
    /// The facts cannot say (a return type that is not written, a commit not in the history):
    /// counted neither way.
    Unchecked(String),
}

/// One citation or claim with its verdict.
#[derive(Clone, Debug, PartialEq)]
pub struct Check {
    pub criterion: Criterion,
    /// What was checked, as the answer said it (`src/a.ts:10-30`, `` `parse` ``, a claim).
    pub what: String,
    pub verdict: Verdict,
    /// The cited file and line, where they apply.
    pub file: Option<String>,
    pub line: Option<u32>,
    /// Where in the answer (1-based line, column), in text mode.
    pub at: Option<(u32, u32)>,
}

/// Everything checked in one answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Verification {
    pub read_as: ReadAs,
    pub checks: Vec<Check>,
    /// What the question needed and the answer does not give (each a false negative).
    pub absent: Vec<(Criterion, String)>,
    /// Behaviour claims (V3), for [`super::behaviour_verdict`].
    pub behaviour: Vec<Claim>,
    /// Why a structured answer could not be read (in part or whole).
    pub problem: Option<String>,
}

/// The question a task asks (`expect.citations`).
#[derive(Clone, Debug, PartialEq)]
pub struct Question {
    pub relation: String,
    pub subject: String,
    pub object: Option<String>,
}

impl Question {
    pub fn of_task(task: &Task) -> Option<Question> {
        Question::from_value(task.expect.get("citations")?)
    }

    pub fn from_value(v: &Value) -> Option<Question> {
        let s = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_owned);
        Some(Question {
            relation: s("relation")?,
            subject: s("subject")?,
            object: s("object"),
        })
    }

    /// Whether answering needs a file citation.
    pub fn needs_file(&self) -> bool {
        matches!(self.relation.as_str(), "defined_in" | "changes")
    }
}

/// Reads an answer in `mode`.
pub fn read(answer: &str, mode: Mode, repo: Option<&str>) -> Parsed {
    match mode {
        Mode::Text => parse_text(answer, repo),
        Mode::Json => match json_object(answer, true) {
            Ok(o) => parse_json(&o),
            Err(problem) => Parsed {
                problem: Some(problem),
                ..parse_json(&Map::new())
            },
        },
        Mode::Auto => match json_object(answer, false) {
            Ok(o) => parse_json(&o),
            Err(_) => parse_text(answer, repo),
        },
    }
}

fn same_name(a: &str, b: &str) -> bool {
    let bare = |s: &str| {
        let s = s.trim().trim_end_matches("()");
        s.rsplit(['.', ':', '#']).next().unwrap_or(s).to_owned()
    };
    a.trim() == b.trim() || bare(a) == bare(b)
}

/// The claims an answer makes: those it states, then the question's own relation filled from
/// the answer (unless a stated claim already answers it). Also what the question needed and
/// the answer does not give. `ix` (when given) tells callables from types.
pub fn claims_of(
    parsed: &Parsed,
    question: Option<&Question>,
    ix: Option<&FactsIndex>,
) -> (Vec<Claim>, Vec<(Criterion, String)>) {
    let mut claims: Vec<Claim> = Vec::new();
    for c in &parsed.claims {
        if !claims.contains(c) {
            claims.push(c.clone());
        }
    }
    let mut absent = Vec::new();
    let Some(q) = question else {
        return (claims, absent);
    };
    if q.needs_file() && parsed.files.is_empty() {
        absent.push((Criterion::FilesExist, "the answer cites no file".to_owned()));
    }
    let answered = claims
        .iter()
        .any(|c| c.relation == q.relation && same_name(&c.subject, &q.subject));
    if answered {
        return (claims, absent);
    }
    let q_origin =
        |rel: &str, obj: Option<&str>| Claim::new(rel, &q.subject, obj, Origin::Question);
    // Names the answer gives besides the subject and the object.
    let names: Vec<&str> = parsed
        .identifiers
        .iter()
        .map(|i| i.name.as_str())
        .filter(|n| {
            !same_name(n, &q.subject) && q.object.as_deref().is_none_or(|o| !same_name(n, o))
        })
        .collect();
    let mut names_dedup: Vec<&str> = Vec::new();
    for n in names {
        if !names_dedup.contains(&n) {
            names_dedup.push(n);
        }
    }
    let mut found: Vec<Claim> = Vec::new();
    match q.relation.as_str() {
        "defined_in" => {
            // The citation of a sentence that names the subject, else the first one.
            let mentions: Vec<usize> = parsed
                .identifiers
                .iter()
                .filter(|i| same_name(&i.name, &q.subject))
                .filter_map(|i| i.file)
                .collect();
            let f: Option<&FileCite> = mentions
                .first()
                .map(|&i| &parsed.files[i])
                .or_else(|| parsed.files.first());
            if let Some(f) = f {
                let mut c = q_origin("defined_in", Some(&f.cited));
                c.lines = f.start.zip(f.end);
                found.push(c);
            }
        }
        "calls" => {
            if let Some(yes) = yes_no(&parsed.prose) {
                let mut c = q_origin("calls", q.object.as_deref());
                c.value = Some(Value::Bool(yes));
                found.push(c);
            }
        }
        "extends" | "implements" => {
            for n in &names_dedup {
                let callable = ix.is_some_and(|ix| {
                    let s = ix.symbols(n);
                    !s.is_empty() && s.iter().all(|s| s.kind.is_callable())
                });
                if !callable {
                    found.push(q_origin(&q.relation, Some(n)));
                }
            }
        }
        "returns" => {
            let ty = parsed
                .code_spans
                .first()
                .map(String::as_str)
                .or_else(|| names_dedup.first().copied());
            if let Some(t) = ty {
                found.push(q_origin("returns", Some(t)));
            }
        }
        "imports" => {
            for n in &names_dedup {
                let mut c = q_origin("imports", q.object.as_deref());
                c.value = Some(Value::String((*n).to_owned()));
                found.push(c);
            }
        }
        "exports" => {
            for n in &names_dedup {
                found.push(q_origin("exports", Some(n)));
            }
        }
        "changes" => {
            for f in &parsed.files {
                found.push(q_origin("changes", Some(&f.cited)));
            }
        }
        _ => {}
    }
    if found.is_empty() {
        let what = match q.relation.as_str() {
            "defined_in" => format!("where `{}` is defined", q.subject),
            "calls" => format!(
                "whether `{}` calls `{}` (neither yes nor no)",
                q.subject,
                q.object.as_deref().unwrap_or("?")
            ),
            "extends" | "implements" => format!("what `{}` {}", q.subject, q.relation),
            "returns" => format!("what `{}` returns", q.subject),
            "imports" => format!(
                "what `{}` imports from `{}`",
                q.subject,
                q.object.as_deref().unwrap_or("?")
            ),
            "exports" => format!("what `{}` exports", q.subject),
            _ => format!("which files commit `{}` changes", q.subject),
        };
        absent.push((
            Criterion::StructureCorrect,
            format!("the answer does not say {what}"),
        ));
    }
    for c in found {
        if !claims.contains(&c) {
            claims.push(c);
        }
    }
    (claims, absent)
}

/// Checks one answer against one repository's facts.
pub fn verify(
    answer: &str,
    mode: Mode,
    question: Option<&Question>,
    ix: &FactsIndex,
) -> Verification {
    let parsed = read(answer, mode, Some(&ix.facts().repo.name));
    verify_parsed(&parsed, question, ix)
}

/// [`verify`] on an answer already read.
pub fn verify_parsed(
    parsed: &Parsed,
    question: Option<&Question>,
    ix: &FactsIndex,
) -> Verification {
    let (claims, absent) = claims_of(parsed, question, Some(ix));
    let mut checks = Vec::new();

    // V1: each distinct file citation, then its line range.
    let mut seen: Vec<(String, Option<u32>, Option<u32>)> = Vec::new();
    for f in &parsed.files {
        let key = (f.cited.clone(), f.start, f.end);
        if seen.contains(&key) {
            continue;
        }
        seen.push(key);
        let at = (f.line > 0).then_some((f.line, f.column));
        let Some(file) = ix.resolve(&f.cited) else {
            checks.push(Check {
                criterion: Criterion::FilesExist,
                what: f.show(),
                verdict: Verdict::Failed(
                    Failure::MissingFile,
                    format!(
                        "`{}` names no file of `{}`{}",
                        f.cited,
                        ix.facts().repo.name,
                        if ambiguous(ix, &f.cited) {
                            " (it ends more than one path: cite the full path)"
                        } else {
                            ""
                        }
                    ),
                ),
                file: Some(f.cited.clone()),
                line: f.start,
                at,
            });
            continue;
        };
        checks.push(Check {
            criterion: Criterion::FilesExist,
            what: f.show(),
            verdict: Verdict::Verified(format!("`{}` exists", file.path)),
            file: Some(file.path.clone()),
            line: f.start,
            at,
        });
        if let (Some(s), Some(e)) = (f.start, f.end) {
            let verdict = if s == 0 || s > e || e > file.lines {
                let why = if s == 0 {
                    "lines start at 1".to_owned()
                } else if s > e {
                    format!("the range starts after it ends ({s} > {e})")
                } else {
                    format!("`{}` has {} lines", file.path, file.lines)
                };
                Verdict::Failed(Failure::InvalidLine, format!("{}: {why}", f.show()))
            } else {
                Verdict::Verified(format!("{}-{} within {} lines", s, e, file.lines))
            };
            checks.push(Check {
                criterion: Criterion::LinesValid,
                what: f.show(),
                verdict,
                file: Some(file.path.clone()),
                line: Some(s),
                at,
            });
        }
    }

    // V1: each distinct identifier, in its cited file or anywhere.
    let mut seen_ids: Vec<(String, Option<String>)> = Vec::new();
    for id in &parsed.identifiers {
        let file: Option<&FileFact> = id.file.and_then(|i| ix.resolve(&parsed.files[i].cited));
        let key = (id.name.clone(), file.map(|f| f.path.clone()));
        if seen_ids.contains(&key) {
            continue;
        }
        seen_ids.push(key);
        let at = (id.line > 0).then_some((id.line, id.column));
        // A file no grammar read has no identifiers listed: the repository decides.
        let readable = file.filter(|f| !f.identifiers.is_empty() || f.language.is_some());
        let verdict = match readable {
            Some(f) if ix.identifier_in(f, &id.name) => {
                Verdict::Verified(format!("`{}` occurs in `{}`", id.name, f.path))
            }
            Some(f) => Verdict::Failed(
                Failure::MissingIdentifier,
                format!(
                    "`{}` does not occur in `{}`{}",
                    id.name,
                    f.path,
                    if ix.identifier_anywhere(&id.name) {
                        " (it occurs elsewhere in the repository)"
                    } else {
                        ""
                    }
                ),
            ),
            None if ix.identifier_anywhere(&id.name) => {
                Verdict::Verified(format!("`{}` occurs in the repository", id.name))
            }
            None => Verdict::Failed(
                Failure::MissingIdentifier,
                format!("`{}` occurs nowhere in `{}`", id.name, ix.facts().repo.name),
            ),
        };
        checks.push(Check {
            criterion: Criterion::IdentifiersFound,
            what: format!("`{}`", id.name),
            verdict,
            file: readable.map(|f| f.path.clone()),
            line: None,
            at,
        });
    }

    // V2: each structural claim; behaviour claims are set aside.
    let mut behaviour = Vec::new();
    for c in claims {
        if c.is_behaviour() {
            behaviour.push(c);
            continue;
        }
        let verdict = check_claim(ix, &c);
        checks.push(Check {
            criterion: Criterion::StructureCorrect,
            what: c.show(),
            file: c
                .object
                .as_deref()
                .and_then(|o| ix.resolve(o))
                .map(|f| f.path.clone()),
            line: c.lines.map(|(s, _)| s),
            verdict,
            at: None,
        });
    }
    Verification {
        read_as: parsed.read_as,
        checks,
        absent,
        behaviour,
        problem: parsed.problem.clone(),
    }
}

fn ambiguous(ix: &FactsIndex, cited: &str) -> bool {
    let suffix = format!("/{}", cited.trim_start_matches("./"));
    ix.facts()
        .files
        .iter()
        .filter(|f| f.path.ends_with(&suffix))
        .count()
        > 1
}

fn norm_type(t: &str) -> String {
    t.trim()
        .trim_start_matches("->")
        .trim_start_matches(':')
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect()
}

fn wrong(msg: String) -> Verdict {
    Verdict::Failed(Failure::WrongStructure, msg)
}

/// Checks one structural claim against the facts.
pub fn check_claim(ix: &FactsIndex, c: &Claim) -> Verdict {
    let s = c.subject.as_str();
    let obj = c.object.as_deref().map(str::trim).filter(|o| !o.is_empty());
    let need_obj = || Verdict::Unchecked(format!("a `{}` claim needs an object", c.relation));
    match c.relation.as_str() {
        "defined_in" => {
            let Some(o) = obj else { return need_obj() };
            let Some(file) = ix.resolve(o) else {
                return wrong(format!(
                    "`{o}` is not a file of the repository, so `{s}` is not defined there"
                ));
            };
            let defs = ix.defined_in(s, &file.path);
            if defs.is_empty() {
                let elsewhere = ix
                    .symbols(s)
                    .first()
                    .map(|d| {
                        format!(
                            " (it is defined in {}:{}-{})",
                            d.file, d.start_line, d.end_line
                        )
                    })
                    .unwrap_or_else(|| " (no definition of it is known)".to_owned());
                return wrong(format!(
                    "`{s}` is not defined in `{}`{elsewhere}",
                    file.path
                ));
            }
            if let Some((a, b)) = c.lines
                && !defs.iter().any(|d| a <= d.end_line && d.start_line <= b)
            {
                let d = defs[0];
                return wrong(format!(
                    "lines {a}-{b} miss the definition of `{s}` ({}:{}-{})",
                    d.file, d.start_line, d.end_line
                ));
            }
            Verdict::Verified(format!("`{s}` is defined in `{}`", file.path))
        }
        "calls" => {
            let Some(o) = obj else { return need_obj() };
            let said = c.truth();
            let fact = ix.calls(s, o);
            let does = |b: bool| if b { "calls" } else { "does not call" };
            if said == fact {
                Verdict::Verified(format!("`{s}` {} `{o}`", does(fact)))
            } else {
                wrong(format!(
                    "the answer says `{s}` {} `{o}`; the facts say it {}",
                    does(said),
                    does(fact)
                ))
            }
        }
        "extends" | "implements" => {
            let Some(o) = obj else { return need_obj() };
            let kind = if c.relation == "extends" {
                InheritanceKind::Extends
            } else {
                InheritanceKind::Implements
            };
            let said = c.truth();
            let fact = ix.inherits(s, o, Some(kind));
            if said == fact {
                return Verdict::Verified(format!(
                    "`{s}` {}{} `{o}`",
                    if fact { "" } else { "does not " },
                    c.relation
                ));
            }
            let parents: Vec<String> = ix
                .facts()
                .inherits
                .iter()
                .filter(|r| same_name(&r.child, s))
                .map(|r| {
                    let verb = match r.kind {
                        InheritanceKind::Extends => "extends",
                        InheritanceKind::Implements => "implements",
                    };
                    format!("{verb} `{}`", r.parent)
                })
                .collect();
            let known = if parents.is_empty() {
                format!("no parent of `{s}` is known")
            } else {
                format!("`{s}` {}", parents.join(", "))
            };
            wrong(format!(
                "the answer says `{s}` {}{} `{o}`; {known}",
                if said { "" } else { "does not " },
                c.relation
            ))
        }
        "returns" => {
            let Some(o) = obj else { return need_obj() };
            let callables: Vec<_> = ix
                .symbols(s)
                .into_iter()
                .filter(|d| d.kind.is_callable())
                .collect();
            if callables.is_empty() {
                return wrong(format!("no function or method `{s}` is known"));
            }
            let types = ix.return_types(s);
            if types.is_empty() {
                return Verdict::Unchecked(format!("no return type is written for `{s}`"));
            }
            if types.iter().any(|t| norm_type(t) == norm_type(o)) {
                Verdict::Verified(format!("`{s}` returns `{o}`"))
            } else {
                wrong(format!(
                    "`{s}` returns `{}`, not `{o}`",
                    types.join("` / `")
                ))
            }
        }
        "imports" => {
            let Some(o) = obj else { return need_obj() };
            let Some(file) = ix.resolve(s) else {
                return wrong(format!("`{s}` is not a file of the repository"));
            };
            let symbol = c.value.as_ref().and_then(Value::as_str);
            let target = ix.resolve(o).map(|f| f.path.clone());
            let ok = ix.imports(&file.path, o, symbol)
                || target
                    .as_deref()
                    .is_some_and(|t| ix.imports(&file.path, t, symbol));
            let what = match symbol {
                Some(n) => format!("`{n}` from `{o}`"),
                None => format!("`{o}`"),
            };
            if ok {
                Verdict::Verified(format!("`{}` imports {what}", file.path))
            } else {
                wrong(format!("`{}` does not import {what}", file.path))
            }
        }
        "exports" => {
            let Some(o) = obj else { return need_obj() };
            let Some(file) = ix.resolve(s) else {
                return wrong(format!("`{s}` is not a file of the repository"));
            };
            let ok = ix
                .facts()
                .exports
                .iter()
                .any(|e| e.file == file.path && same_name(&e.name, o))
                || ix.defined_in(o, &file.path).iter().any(|d| d.exported);
            if ok {
                Verdict::Verified(format!("`{}` exports `{o}`", file.path))
            } else {
                wrong(format!("`{}` does not export `{o}`", file.path))
            }
        }
        "changes" => {
            let Some(o) = obj else { return need_obj() };
            let commit =
                ix.facts().commits.iter().find(|k| {
                    (s.len() >= 4 && k.id.starts_with(s)) || k.summary.trim() == s.trim()
                });
            let Some(commit) = commit else {
                return Verdict::Unchecked(format!("commit `{s}` is not in the facts' history"));
            };
            let path = ix.resolve(o).map(|f| f.path.clone());
            let cited = o.trim_start_matches("./");
            let ok = commit.files.iter().any(|f| {
                Some(f) == path.as_ref() || f == cited || f.ends_with(&format!("/{cited}"))
            });
            let short = &commit.id[..commit.id.len().min(10)];
            if ok {
                Verdict::Verified(format!("commit {short} changes `{o}`"))
            } else {
                wrong(format!("commit {short} does not change `{o}`"))
            }
        }
        other => Verdict::Unchecked(format!("unknown relation `{other}`")),
    }
}
