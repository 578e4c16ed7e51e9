//! The `citations` scorer (seed 002: V1 existence, V2 structure, V3 behaviour) and the
//! `citation-consistency` group scorer (V4), over a repository's facts (`verity-facts`).
//!
//! An answer is read as free text or, when it is a JSON object with `citations` / `claims`
//! (`mode = "auto"`, the default; or always with `mode = "json"`), as a structured answer
//! ([`parse`] documents both). Its file citations, line ranges and backticked identifiers are
//! checked against the facts (V1: `files_exist`, `lines_valid`, `identifiers_found`), and its
//! structural claims — the ones it states, and the task's own question (`expect.citations`)
//! answered by the text — against the relations the facts record (V2: `structure_correct`).
//! Behaviour claims (V3: `function_returns`, `test_passes`, `throws`) are read and handed to
//! [`behaviour_verdict`], which needs a checkout of the repository to run them.
//!
//! Counts: each criterion carries `tp` = citations (claims) verified and `fp` = failed, plus
//! `fn` = what the question needed and the answer does not give (a `defined_in` answer citing
//! no file), so the report's precision of a criterion is its accuracy. Each failure is evidence
//! whose message starts with the seed's failure type (`missing_file`, `invalid_line`,
//! `missing_identifier`, `wrong_structure`).

pub mod consistency;
pub mod parse;
pub mod verify;

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde_json::{Map, Value};
use verity_facts::{Facts, FactsIndex};
use verity_model::{ConfigIssue, Evidence, Response, Score, ScoreStatus, Scorer, Task};

pub use parse::{Claim, Parsed};
pub use verify::{Check, Criterion, Failure, Question, Verdict, Verification, check_claim, verify};
pub use verity_catalog::citations::{Mode, RELATIONS};

use crate::{MAX_EVIDENCE, behaviour};

/// The repositories a scorer's options carry (`facts_data`: name → facts), indexed.
pub fn indexes_from_options(
    o: &Map<String, Value>,
) -> Result<BTreeMap<String, FactsIndex>, ConfigIssue> {
    let Some(data) = o.get("facts_data").and_then(Value::as_object) else {
        return Err(ConfigIssue::new(
            Some("facts"),
            format!(
                "the facts {} were not read into the suite (load the suite from its directory)",
                o.get("facts")
                    .and_then(Value::as_str)
                    .unwrap_or("(none named)")
            ),
        ));
    };
    let mut out = BTreeMap::new();
    for (name, v) in data {
        let facts: Facts = serde_json::from_value(v.clone()).map_err(|e| {
            ConfigIssue::new(
                Some("facts_data"),
                format!("the facts of `{name}` are not verity-facts/1: {e}"),
            )
        })?;
        out.insert(name.clone(), FactsIndex::new(facts));
    }
    Ok(out)
}

/// The repository a task is about: its `metadata.repo`, or the only one loaded.
pub fn repo_for<'a>(
    repos: &'a BTreeMap<String, FactsIndex>,
    task: &Task,
) -> Result<&'a FactsIndex, String> {
    match task.metadata.get("repo").and_then(Value::as_str) {
        Some(r) => repos.get(r).ok_or_else(|| {
            format!(
                "`metadata.repo` names `{r}`, which no loaded facts describe (loaded: {})",
                repos.keys().cloned().collect::<Vec<_>>().join(", ")
            )
        }),
        None if repos.len() == 1 => Ok(repos.values().next().expect("one repository")),
        None => Err(format!(
            "the task names no repository (`metadata.repo`) and the facts cover {}",
            repos.keys().cloned().collect::<Vec<_>>().join(", ")
        )),
    }
}

/// The language behaviour claims about a repository run in: its most common language among
/// those the sandboxed drivers run (Python, JavaScript, TypeScript).
pub fn behaviour_language(facts: &Facts) -> Option<behaviour::Language> {
    facts
        .repo
        .languages
        .iter()
        .filter_map(|(l, n)| behaviour::Language::parse(l).map(|l| (n, l)))
        .max_by_key(|(n, _)| **n)
        .map(|(_, l)| l)
}

/// The claim as the behaviour checker takes it, or why it cannot be run.
fn behaviour_claim(c: &Claim) -> Result<behaviour::BehaviourClaim, String> {
    match c.relation.as_str() {
        "function_returns" => Ok(behaviour::BehaviourClaim::FunctionReturns {
            function: c.subject.clone(),
            args: match &c.args {
                None => Vec::new(),
                Some(Value::Array(a)) => a.clone(),
                Some(v) => vec![v.clone()],
            },
            value: c.value.clone().unwrap_or(Value::Null),
        }),
        "test_passes" => Ok(behaviour::BehaviourClaim::TestPasses {
            test: c.subject.clone(),
        }),
        "throws" => match (&c.code, &c.object) {
            (Some(code), Some(error)) => Ok(behaviour::BehaviourClaim::Throws {
                code: code.clone(),
                error: error.clone(),
            }),
            (code, _) => Ok(behaviour::BehaviourClaim::Throws {
                code: code.clone().unwrap_or_else(|| c.subject.clone()),
                error: c
                    .object
                    .clone()
                    .ok_or_else(|| "a `throws` claim names no error class (`object`)".to_owned())?,
            }),
        },
        other => Err(format!("`{other}` is not a behaviour claim")),
    }
}

/// The V3 verdict on an answer's behaviour claims (`function_returns`, `test_passes`,
/// `throws`). They are run, not looked up: with `env` (a checkout of the repository, its
/// language, the declared test command) each claim runs in the sandbox
/// ([`behaviour::check`]); without one they are not applicable, with that explanation.
/// Counts: tp = claims that held, fp = claims that did not.
pub fn behaviour_verdict(
    scorer: &str,
    claims: &[Claim],
    env: Option<&behaviour::BehaviourEnv>,
) -> Score {
    let criterion = verity_catalog::citations::CRITERIA[4];
    if claims.is_empty() {
        return Score::new(scorer, criterion, ScoreStatus::NotApplicable)
            .explain("the answer makes no behaviour claim");
    }
    if let Some(env) = env {
        return run_behaviour(scorer, criterion, claims, env);
    }
    let mut s = Score::new(scorer, criterion, ScoreStatus::NotApplicable).explain(format!(
        "{} behaviour claim{} need a repository checkout to run; not checked",
        claims.len(),
        if claims.len() == 1 { "" } else { "s" }
    ));
    for c in claims.iter().take(MAX_EVIDENCE) {
        s = s.with_evidence(Evidence::msg(format!("not run: {}", c.show())));
    }
    s
}

fn run_behaviour(
    scorer: &str,
    criterion: &str,
    claims: &[Claim],
    env: &behaviour::BehaviourEnv,
) -> Score {
    let (mut held, mut failed, mut errors) = (0usize, 0usize, Vec::new());
    let mut evidence = Vec::new();
    for c in claims {
        let verdict = match behaviour_claim(c) {
            Ok(claim) => behaviour::check(&claim, env),
            Err(why) => {
                failed += 1;
                evidence.push(Evidence::msg(format!(
                    "wrong_structure: {}: {why}",
                    c.show()
                )));
                continue;
            }
        };
        let mut line = format!("{}: {}", c.show(), verdict.message);
        if let Some(contained) = verdict.evidence.contained {
            line.push_str(&format!(" (contained: {})", contained.as_str()));
        }
        match verdict.status {
            behaviour::BehaviourStatus::Pass => held += 1,
            behaviour::BehaviourStatus::Fail => {
                failed += 1;
                evidence.push(Evidence::msg(line));
            }
            behaviour::BehaviourStatus::Error => errors.push(line),
        }
    }
    let counted = held + failed;
    let mut s = if failed > 0 {
        Score::fail(scorer, criterion).explain(format!(
            "{failed} of {counted} behaviour claims did not hold when run"
        ))
    } else if counted > 0 {
        Score::pass(scorer, criterion)
            .explain(format!("all {counted} behaviour claims held when run"))
    } else {
        Score::new(scorer, criterion, ScoreStatus::Error).explain(format!(
            "no behaviour claim could be run: {}",
            errors.first().cloned().unwrap_or_default()
        ))
    };
    for e in evidence.into_iter().take(MAX_EVIDENCE) {
        s = s.with_evidence(e);
    }
    for e in errors.iter().take(MAX_EVIDENCE) {
        s = s.with_evidence(Evidence::msg(format!("not run: {e}")));
    }
    if counted > 0 {
        s = s
            .with_value(held as f64 / counted as f64)
            .with_metric("tp", held as f64)
            .with_metric("fp", failed as f64)
            .with_metric("fn", 0.0);
    }
    s
}

/// The four V1/V2 scores of a verification (in the catalog's order), then `behaviour`
/// (not run: see [`scores_with`]).
pub fn scores(scorer: &str, v: &Verification) -> Vec<Score> {
    scores_with(scorer, v, None)
}

/// [`scores`], with behaviour claims run in `env` when one is given.
pub fn scores_with(
    scorer: &str,
    v: &Verification,
    env: Option<&behaviour::BehaviourEnv>,
) -> Vec<Score> {
    let mut out = Vec::new();
    for criterion in Criterion::ALL {
        let checks: Vec<&Check> = v
            .checks
            .iter()
            .filter(|c| c.criterion == criterion)
            .collect();
        let tp = checks
            .iter()
            .filter(|c| matches!(c.verdict, Verdict::Verified(_)))
            .count();
        let failed: Vec<&&Check> = checks
            .iter()
            .filter(|c| matches!(c.verdict, Verdict::Failed(..)))
            .collect();
        let absent: Vec<&String> = v
            .absent
            .iter()
            .filter(|(c, _)| *c == criterion)
            .map(|(_, m)| m)
            .collect();
        let fp = failed.len();
        let counted = tp + fp;
        let noun = match criterion {
            Criterion::FilesExist => "cited files",
            Criterion::LinesValid => "cited line ranges",
            Criterion::IdentifiersFound => "cited identifiers",
            Criterion::StructureCorrect => "structural claims",
        };
        let mut s = if fp > 0 {
            let first = match &failed[0].verdict {
                Verdict::Failed(f, why) => format!("{}: {why}", f.as_str()),
                _ => String::new(),
            };
            Score::fail(scorer, criterion.name())
                .explain(format!("{fp} of {counted} {noun} failed; first: {first}"))
        } else if let Some(why) = absent.first() {
            Score::fail(scorer, criterion.name()).explain((*why).clone())
        } else if counted == 0 {
            let why = match criterion {
                Criterion::FilesExist => match &v.problem {
                    Some(p) => p.clone(),
                    None => "the answer cites no file".to_owned(),
                },
                Criterion::LinesValid => "no line range cited in an existing file".to_owned(),
                Criterion::IdentifiersFound => "the answer cites no identifier".to_owned(),
                Criterion::StructureCorrect => {
                    "the answer makes no structural claim the facts can check".to_owned()
                }
            };
            Score::new(scorer, criterion.name(), ScoreStatus::NotApplicable).explain(why)
        } else {
            Score::pass(scorer, criterion.name()).explain(format!("all {counted} {noun} verified"))
        };
        if counted > 0 {
            s = s.with_value(tp as f64 / counted as f64);
        }
        for c in failed.iter().take(MAX_EVIDENCE) {
            let Verdict::Failed(f, why) = &c.verdict else {
                continue;
            };
            let mut e = Evidence::msg(format!("{}: {why}", f.as_str()));
            e.file = c.file.clone();
            e.line = c.line;
            e.snippet = Some(c.what.clone());
            if let Some((l, col)) = c.at {
                e.message
                    .push_str(&format!(" (answer line {l}, column {col})"));
            }
            s = s.with_evidence(e);
        }
        for why in &absent {
            s = s.with_evidence(Evidence::msg((*why).clone()));
        }
        for c in checks
            .iter()
            .filter(|c| matches!(c.verdict, Verdict::Unchecked(_)))
        {
            if let Verdict::Unchecked(why) = &c.verdict {
                s = s.with_evidence(Evidence::msg(format!("not counted: {}: {why}", c.what)));
            }
        }
        if criterion == Criterion::FilesExist
            && let Some(p) = &v.problem
            && counted > 0
        {
            s = s.with_evidence(Evidence::msg(format!("partly read: {p}")));
        }
        if counted > 0 || !absent.is_empty() {
            s = s
                .with_metric("tp", tp as f64)
                .with_metric("fp", fp as f64)
                .with_metric("fn", absent.len() as f64);
        }
        out.push(s);
    }
    out.push(behaviour_verdict(scorer, &v.behaviour, env));
    out
}

pub(crate) struct Citations {
    pub(crate) name: String,
    pub(crate) mode: Mode,
    pub(crate) repos: BTreeMap<String, FactsIndex>,
    /// `checkouts`: a directory holding each repository's checkout as `NAME/` (behaviour
    /// claims run there when it exists).
    pub(crate) checkouts: Option<PathBuf>,
    pub(crate) test_command: Option<Vec<String>>,
}

impl Citations {
    /// Where behaviour claims about `repo` run: its checkout, when the directory exists, in the
    /// repository's language.
    fn behaviour_env(&self, ix: &FactsIndex) -> Option<behaviour::BehaviourEnv> {
        let facts = ix.facts();
        let dir = self.checkouts.as_ref()?.join(&facts.repo.name);
        if !dir.is_dir() {
            return None;
        }
        let language = behaviour_language(facts)?;
        let mut env = behaviour::BehaviourEnv::new(dir, language);
        if let Some(cmd) = &self.test_command {
            env = env.test_command(cmd.clone());
        }
        Some(env)
    }
}

impl Scorer for Citations {
    fn kind(&self) -> &str {
        "citations"
    }
    fn name(&self) -> &str {
        &self.name
    }
    fn score(&self, task: &Task, response: &Response) -> Vec<Score> {
        let ix = match repo_for(&self.repos, task) {
            Ok(ix) => ix,
            Err(why) => {
                return verity_catalog::citations::CRITERIA
                    .iter()
                    .map(|c| Score::new(&self.name, *c, ScoreStatus::Error).explain(why.clone()))
                    .collect();
            }
        };
        let question = Question::of_task(task);
        let v = verify(&response.text, self.mode, question.as_ref(), ix);
        let env = if v.behaviour.is_empty() {
            None
        } else {
            self.behaviour_env(ix)
        };
        scores_with(&self.name, &v, env.as_ref())
    }
}

#[cfg(test)]
mod tests;
